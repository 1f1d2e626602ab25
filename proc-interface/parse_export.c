// SPDX-License-Identifier: GPL-2.0
/*
 * parse_export.c - the debugfs export, /sys/kernel/debug/lockdep/
 * {classes,deps,traces,usage,chains,stats}, format version 1
 * (Documentation/locking/lockdep-debugfs.rst, patch 0004 of the series).
 *
 * Every file: "# lockdep <file> <version> generation <G>", "# <fields>",
 * records with single-space separated fields (free text last, C-escaped),
 * "# end generation <G>".  The files are a consistent set when all
 * generations are equal.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ld_internal.h"

const char *const ld_export_files[LD_EX_NR] = {
	"classes", "deps", "traces", "usage", "chains", "stats",
};

struct ex_file {
	const struct ld_section *s;
	const char *file;
	struct ld_lines l;
	uint64_t g0, g1;
	bool tail;
};

static int ex_open(struct ex_file *f, const struct ld_section *s,
		   const char *file, struct ld_diag *d)
{
	const char *line, *p, *end;
	size_t len, fl = strlen(file);
	uint64_t ver;
	char q[LD_QBUF];

	f->s = s;
	f->file = file;
	f->tail = false;
	ld_lines_section(&f->l, s);
	if (!ld_lines_next(&f->l, &line, &len))
		return ld_lines_error(&f->l, d) ?: ld_diag(
			d, &f->l,
			"empty file, expected '# lockdep %s 1 generation N'",
			file);
	p = line;
	end = line + len;
	if (!ld_eat(&p, end, "# lockdep ") || (size_t)(end - p) < fl ||
	    memcmp(p, file, fl) || (p += fl, !ld_eat(&p, end, " ")))
		return ld_diag(
			d, &f->l,
			"expected '# lockdep %s <version> generation <G>', got '%s'",
			file, ld_quote(line, len, q, sizeof(q)));
	if (!ld_scan_u64(&p, end, &ver) || !ld_eat(&p, end, " generation "))
		return ld_diag(d, &f->l, "bad header '%s'",
			       ld_quote(line, len, q, sizeof(q)));
	if (ver != LD_EXPORT_VERSION)
		return ld_diag(
			d, &f->l,
			"unsupported format version %llu (this tool reads %d)",
			(unsigned long long)ver, LD_EXPORT_VERSION);
	if (!ld_scan_u64(&p, end, &f->g0) || p != end)
		return ld_diag(d, &f->l, "bad generation in '%s'",
			       ld_quote(line, len, q, sizeof(q)));
	if (!ld_lines_next(&f->l, &line, &len) || !len || line[0] != '#')
		return ld_diag(d, &f->l, "expected the '# <field names>' line");
	return 0;
}

/* 1: a record in *line; 0: end; <0: error */
static int ex_next(struct ex_file *f, const char **line, size_t *len,
		   struct ld_model *m, struct ld_diag *d)
{
	char q[LD_QBUF];

	while (ld_lines_next(&f->l, line, len)) {
		const char *p = *line, *end = *line + *len;

		if (f->tail)
			return ld_diag(d, &f->l, "text after the '# end' line");
		if (f->l.last_unterminated) {
			if (ld_lines_error(&f->l, d))
				return f->l.st->err;
			m->partial = true;
			ld_warn(m, "%s:%lu: truncated line ignored", f->l.file,
				f->l.base + f->l.lineno);
			return 0;
		}
		if (*len && (*line)[0] == '#') {
			if (ld_eat(&p, end, "# end generation ")) {
				if (!ld_scan_u64(&p, end, &f->g1) || p != end)
					return ld_diag(d, &f->l,
						       "bad trailer '%s'",
						       ld_quote(*line, *len, q,
								sizeof(q)));
				f->tail = true;
			}
			continue; /* comments are allowed */
		}
		if (!*len)
			continue;
		return 1;
	}
	if (ld_lines_error(&f->l, d))
		return f->l.st->err;
	if (!f->tail) {
		m->partial = true;
		ld_warn(m, "%s: no '# end generation' line: file cut short",
			f->s->origin);
	}
	return 0;
}

/*
 * Next single-space separated token; false at the end of the line.
 * Tokens are a few characters long: a loop beats memchr() here.
 */
static inline bool tok(const char **p, const char *end, const char **ts,
		       size_t *tl)
{
	const char *s = *p, *e = s;

	if (s >= end)
		return false;
	while (e < end && *e != ' ')
		e++;
	*ts = s;
	*tl = e - s;
	*p = e < end ? e + 1 : end;
	return *tl > 0;
}

static bool is_dash(const char *s, size_t len)
{
	return len == 1 && s[0] == '-';
}

/* decimal number or '-' */
static bool tok_num(const char *s, size_t len, struct ld_num *n)
{
	const char *p = s;
	int64_t v;

	if (is_dash(s, len)) {
		n->src = LD_SRC_NONE;
		return true;
	}
	if (!ld_scan_i64(&p, s + len, &v) || p != s + len)
		return false;
	n->v = v;
	n->src = LD_SRC_EXPORT;
	return true;
}

/*
 * Field macros of the parsers below, on their locals p, end, ts, tl, q, f
 * and d: the next token into ts/tl; a missing or bad field returns its
 * diagnostic.
 */
#define NEED_TOK(what)                                                       \
	do {                                                                 \
		if (!tok(&p, end, &ts, &tl))                                 \
			return ld_diag(d, &f.l, "missing field '%s'", what); \
	} while (0)

/*
 * A token that is a decimal number, in one pass: tok() + ld_tok_u64() for
 * the hot fields.  Leaves *p alone when the next token is anything else;
 * the caller then takes the general path, which says what is wrong.
 */
static inline bool num_tok(const char **p, const char *end, const char **ts,
			   size_t *tl, uint64_t *v)
{
	const char *q = *p;

	if (!ld_scan_u64(&q, end, v) || (q < end && *q != ' '))
		return false;
	*ts = *p;
	*tl = q - *p;
	*p = q < end ? q + 1 : end;
	return true;
}

/* A decimal field: bad fields get the messages of NEED_TOK / BAD_FIELD */
#define NEED_NUM(what, bad, x)                                       \
	do {                                                         \
		if (!num_tok(&p, end, &ts, &tl, &(x))) {             \
			NEED_TOK(what);                              \
			if (!ld_tok_u64(ts, tl, &(x)))               \
				BAD_FIELD(bad);                      \
		}                                                    \
	} while (0)

#define BAD_FIELD(what)                                         \
	do {                                                    \
		return ld_diag(d, &f.l, "bad %s '%s'", what,    \
			       ld_quote(ts, tl, q, sizeof(q))); \
	} while (0)

/* A field that is a decimal number or '-', into the struct ld_num n */
#define NEED_LD_NUM(what, n)                \
	do {                                \
		NEED_TOK(what);             \
		if (!tok_num(ts, tl, &(n))) \
			BAD_FIELD(what);    \
	} while (0)

/* The same for a kernel field that is unsigned and at most @max */
#define NEED_LD_NUM_MAX(what, n, max)                           \
	do {                                                    \
		NEED_LD_NUM(what, n);                           \
		if (ld_known(n) && ((n).v < 0 || (n).v > (max))) \
			BAD_FIELD(what);                        \
	} while (0)

/*
 * A name lockdep could add without a new format version (Stability in
 * the format's documentation): a usage state ("USED_IN_NMI"), a
 * dependency type ("XN"); upper case letters and '_' only
 */
static bool future_name(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_'))
			return false;
	return len > 0;
}

static int parse_classes(struct ld_model *m, const struct ld_section *s,
			 struct ld_map *ids, struct ex_file *fout,
			 struct ld_diag *d)
{
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	uint32_t unknown_states = 0;
	int ret;

	ret = ex_open(&f, s, "classes", d);
	if (ret)
		return ret;
	/* "0 - 0 0 0x0 - 0 0 0 0 0 0 -\n" at least */
	if (ld_reserve((void **)&m->classes, &m->alloc_classes,
		       m->nr_classes + s->len / 28, sizeof(*m->classes)))
		return -ENOMEM;
	ld_arena_expect(m->arena, s->len); /* keys and names */
	while ((ret = ex_next(&f, &line, &len, m, d)) == 1) {
		const char *p = line, *end = line + len, *u;
		struct ld_num kid;
		uint64_t mask, x;
		uint32_t ci, old;
		struct ld_class *c;
		unsigned int names = 0;
		char *dn;
		size_t dl;

		NEED_TOK("id");
		/* LD_NONE marks an unknown class where ids are kept raw */
		if (!ld_tok_u64(ts, tl, &x) || x >= LD_NONE)
			BAD_FIELD("id");
		ci = ld_add_class(m);
		if (ci == LD_NONE)
			return -ENOMEM;
		ret = ld_map_put(ids, x, ci, &old);
		if (ret)
			return ret;
		if (old != LD_NONE)
			return ld_diag(d, &f.l, "duplicate class id %llu",
				       (unsigned long long)x);
		c = &m->classes[ci];
		kid.v = x;
		kid.src = LD_SRC_EXPORT;
		c->kid = kid;
		NEED_TOK("key");
		if (is_dash(ts, tl)) {
			/*
			 * lockdep-debugfs.rst: "-" for a dynamic key; the
			 * kernel prints it when !static_obj(key), true of
			 * init data after boot too
			 */
			c->key_not_static = true;
		} else {
			c->key_sym = ld_arena_str(m->arena, ts, tl);
			if (!c->key_sym.s)
				return -ENOMEM;
		}
		NEED_LD_NUM_MAX("name_version", c->name_version, INT32_MAX);
		NEED_LD_NUM_MAX("subclass", c->subclass, LD_MAX_SUBCLASSES - 1);
		/* its bit layout is lockdep's own: the names are the usage */
		NEED_TOK("usage_mask");
		if (!ld_tok_hex(ts, tl, &mask))
			BAD_FIELD("usage_mask");
		NEED_TOK("usage");
		if (!is_dash(ts, tl)) {
			for (u = ts; u < ts + tl;) {
				const char *comma = memchr(u, ',', ts + tl - u);
				const char *e = comma ? comma : ts + tl;
				int bit = ld_usage_from_kname(u, e - u);

				if (bit >= 0)
					names |= 1u << bit;
				else if (future_name(u, e - u))
					unknown_states++; /* a newer kernel's */
				else
					return ld_diag(d, &f.l,
						       "bad usage state '%s'",
						       ld_quote(u, e - u, q,
								sizeof(q)));
				u = comma ? comma + 1 : e;
			}
		}
		c->usage = names;
		c->usage_known = LD_USAGE_ALL;
		c->usage_src = LD_SRC_EXPORT;
		NEED_LD_NUM_MAX("wait_inner", c->wait_inner, UINT8_MAX);
		NEED_LD_NUM_MAX("wait_outer", c->wait_outer, UINT8_MAX);
		/* LD_WAIT_SLEEP is 4 only with LD_WAIT_CONFIG before it */
		if ((ld_known(c->wait_inner) &&
		     c->wait_inner.v == LD_WAIT_SLEEP) ||
		    (ld_known(c->wait_outer) &&
		     c->wait_outer.v == LD_WAIT_SLEEP))
			m->have.wait_config = true;
		NEED_LD_NUM_MAX("lock_type", c->lock_type, UINT8_MAX);
		NEED_LD_NUM_MAX("ops", c->ops, INT64_MAX);
		if (ld_known(c->ops))
			m->have.ops = true;
		NEED_LD_NUM_MAX("fd", c->nr_after, INT64_MAX);
		NEED_LD_NUM_MAX("bd", c->nr_before, INT64_MAX);
		if (p >= end && !(len && line[len - 1] == ' '))
			return ld_diag(d, &f.l, "missing field 'name'");
		/* the rest of the line is the name, '-' for none */
		if (is_dash(p, end - p)) {
			c->base_is_key = true;
		} else {
			ret = ld_unescape(m->arena, p, end - p, &c->base);
			if (ret)
				return ld_diag(
					d, &f.l, "bad escape in name '%s'",
					ld_quote(p, end - p, q, sizeof(q)));
		}
		if (c->base_is_key) {
			/* print_name(): kallsyms name of the key, no suffix */
			const char *k = c->key_sym.s;
			size_t kl = c->key_sym.len;
			const char *br = kl ? memchr(k, '[', kl) : NULL;

			if (!kl) {
				k = "(null)";
				kl = 6;
			} else if (br) {
				kl = br - k;
			}
			c->name = ld_arena_str(m->arena, k, kl);
			if (!c->name.s)
				return -ENOMEM;
			continue;
		}
		dl = c->base.len + 48;
		dn = ld_arena_alloc(m->arena, dl);
		if (!dn)
			return -ENOMEM;
		memcpy(dn, c->base.s, c->base.len);
		dl = c->base.len;
		if (ld_known(c->name_version) && c->name_version.v > 1)
			dl += sprintf(dn + dl, "#%lld",
				      (long long)c->name_version.v);
		if (ld_known(c->subclass) && c->subclass.v)
			dl += sprintf(dn + dl, "/%lld",
				      (long long)c->subclass.v);
		dn[dl] = '\0';
		c->name.s = dn;
		c->name.len = dl;
	}
	if (ret < 0)
		return ret;
	if (unknown_states &&
	    ld_warn(m, "%s: %u usage %s this reader does not know (a newer kernel's): ignored",
		    s->origin, unknown_states,
		    ld_plural(unknown_states, "state", "states")))
		return -ENOMEM;
	m->have.classes = true;
	m->have.usage = true;
	m->have.wait_types = true;
	*fout = f;
	return 0;
}

/* 1: a type name this reader does not know (a newer kernel's) */
static int parse_dep_type(const char *s, size_t len, uint8_t *type)
{
	static const char *const names[4] = { "SR", "ER", "SN", "EN" };
	const char *p = s, *end = s + len;
	bool unknown = false;

	/* nearly always a single type, most often EN */
	if (len == 2 && s[1] == 'N' && (s[0] == 'E' || s[0] == 'S')) {
		*type = s[0] == 'E' ? LD_DEP_EN : LD_DEP_SN;
		return 0;
	}
	*type = 0;
	while (p < end) {
		const char *bar = memchr(p, '|', end - p);
		const char *e = bar ? bar : end;
		int i;

		for (i = 0; i < 4; i++)
			if (e - p == 2 && !memcmp(p, names[i], 2))
				break;
		if (i < 4)
			*type |= 1u << i;
		else if (future_name(p, e - p))
			unknown = true;
		else
			return -1;
		p = bar ? bar + 1 : end;
	}
	return unknown ? 1 : *type ? 0 : -1;
}

/*
 * Fast paths for the big files' usual lines, on the raw text: they parse
 * a whole line or nothing (returning NULL), and the caller then takes the
 * general path for that line, which accepts exactly what they accept and
 * says what is wrong with the rest.  Numbers are read against the end
 * of the text; the characters between them lie within FAST_SPAN bytes
 * of the line's start (the caller makes sure that many are left) except
 * for a chain's locks and a symbol, which are checked against the end.
 */
#define FAST_SPAN 128

/* A decimal number below LD_NONE, then @sep (num_tok()'s scan) */
static inline const char *fast_num(const char *p, const char *end, char sep,
				   uint32_t *v)
{
	uint64_t x;

	if (!ld_scan_u64(&p, end, &x) || p >= end || *p != sep || x >= LD_NONE)
		return NULL;
	*v = x;
	return p + 1;
}

/*
 * "<id> <frame> <symbol>\n", the next frame of trace @id: the symbol
 * (nothing to decode, no CR) in *sym.
 */
static inline const char *fast_frame(const char *p, const char *end,
				     uint64_t id, uint32_t frame,
				     struct ld_str *sym)
{
	const char *e;
	uint32_t x;

	if (!(p = fast_num(p, end, ' ', &x)) || x != id ||
	    !(p = fast_num(p, end, ' ', &x)) || x != frame)
		return NULL;
	e = p;
#ifdef __SSE2__
	for (; end - e >= 16; e += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)e);
		__m128i hit = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
				     _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
			_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
		unsigned int mask = _mm_movemask_epi8(hit);

		if (mask) {
			e += __builtin_ctz(mask);
			break;
		}
	}
#endif
	for (; e < end && *e != '\n' && *e != '\\' && *e != '\r'; e++)
		;
	if (e == p || e == end || *e != '\n')
		return NULL;
	sym->s = p;
	sym->len = e - p;
	return e + 1;
}

/*
 * A symbol read from a streamed file points into a buffer that the next
 * window overwrites: it is copied to the model's arena.
 */
static int keep_symbol(struct ld_model *m, struct ld_str *sym,
		       const char *end)
{
	*sym = ld_arena_str_short(m->arena, sym->s, sym->len, end);
	return sym->s ? 0 : -ENOMEM;
}

static int parse_traces(struct ld_model *m, const struct ld_section *s,
			struct ld_map *tids, struct ex_file *fout,
			struct ld_diag *d)
{
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	uint64_t last = UINT64_MAX;
	int ret;

	ret = ex_open(&f, s, "traces", d);
	if (ret)
		return ret;
	/* "0 0 x\n" at least: a bound, not a count */
	if (ld_reserve((void **)&m->frames, &m->alloc_frames,
		       m->nr_frames + s->len / 6, sizeof(*m->frames)) ||
	    ld_reserve((void **)&m->traces, &m->alloc_traces,
		       m->nr_traces + s->len / 6, sizeof(*m->traces)))
		return -ENOMEM;
	/*
	 * a trace's id is its offset in stack_trace[], in words: a frame
	 * line, 20 bytes or more, takes one, a trace a few more
	 */
	ld_map_reserve_ids(tids, s->len / 8);
	ld_arena_expect(m->arena, s->len); /* symbols, if streamed */
	for (;;) {
		const char *p, *end, *next;
		struct ld_trace *t;
		uint64_t id, frame;
		uint32_t old;

		/* the usual line: the next frame of the same trace */
		if (ld_fast_paths && !f.tail && m->nr_traces &&
		    ld_lines_avail(&f.l, FAST_SPAN) &&
		    !ld_grow((void **)&m->frames, &m->alloc_frames,
			     m->nr_frames, sizeof(*m->frames)) &&
		    (next = fast_frame(f.l.p, f.l.end, last,
				       m->traces[m->nr_traces - 1].nr,
				       &m->frames[m->nr_frames]))) {
			f.l.p = next;
			f.l.lineno++;
			if (f.l.st && keep_symbol(m, &m->frames[m->nr_frames],
						  f.l.end))
				return -ENOMEM;
			m->nr_frames++;
			m->traces[m->nr_traces - 1].nr++;
			continue;
		}
		ret = ex_next(&f, &line, &len, m, d);
		if (ret != 1)
			break;
		p = line;
		end = line + len;

		NEED_NUM("id", "trace id", id);
		if (id != last) {
			if (ld_grow((void **)&m->traces, &m->alloc_traces,
				    m->nr_traces, sizeof(*m->traces)))
				return -ENOMEM;
			ret = ld_map_put(tids, id, m->nr_traces, &old);
			if (ret)
				return ret;
			if (old != LD_NONE)
				return ld_diag(d, &f.l,
					       "trace %llu listed twice",
					       (unsigned long long)id);
			t = &m->traces[m->nr_traces++];
			t->kid.v = id;
			t->kid.src = LD_SRC_EXPORT;
			t->first = m->nr_frames;
			t->nr = 0;
			last = id;
		}
		t = &m->traces[m->nr_traces - 1];
		if (num_tok(&p, end, &ts, &tl, &frame)) {
			if (frame != t->nr)
				BAD_FIELD("frame number");
		} else {
			NEED_TOK("frame");
			if (is_dash(ts, tl)) {
				if (t->nr)
					BAD_FIELD("frame");
				/* "<id> - -": an empty trace, and all of it */
				if (!tok(&p, end, &ts, &tl) ||
				    !is_dash(ts, tl) || p != end)
					return ld_diag(d, &f.l,
						       "an empty trace is '<id> - -'");
				last = UINT64_MAX; /* more: listed twice */
				continue;
			}
			if (!ld_tok_u64(ts, tl, &frame) || frame != t->nr)
				BAD_FIELD("frame number");
		}
		if (p >= end)
			return ld_diag(d, &f.l, "missing field 'symbol'");
		if (ld_grow((void **)&m->frames, &m->alloc_frames, m->nr_frames,
			    sizeof(*m->frames)))
			return -ENOMEM;
		if (!memchr(p, '\\', end - p)) {
			/* nothing to decode: point into the file (ld_str) */
			m->frames[m->nr_frames].s = p;
			m->frames[m->nr_frames].len = end - p;
			if (f.l.st && keep_symbol(m, &m->frames[m->nr_frames],
						  end))
				return -ENOMEM;
		} else if (ld_unescape(m->arena, p, end - p,
				       &m->frames[m->nr_frames])) {
			return ld_diag(d, &f.l, "bad escape in symbol");
		}
		m->nr_frames++;
		t->nr++;
	}
	if (ret < 0)
		return ret;
	m->have.traces = true;
	*fout = f;
	return 0;
}

static uint32_t ref_class(const struct ld_map *ids, const char *ts, size_t tl,
			  bool *bad)
{
	uint64_t x;
	uint32_t c;

	if (!ld_tok_u64(ts, tl, &x)) {
		*bad = true;
		return LD_NONE;
	}
	c = ld_map_get(ids, x);
	*bad = false;
	return c;
}

/* "<from> <to> <distance> <SR|ER|SN|EN> <trace|->\n" */
static inline const char *fast_dep(const char *p, const char *end,
				   uint32_t v[4], uint8_t *type)
{
	static const uint8_t types[2][2] = {
		/* S, E x R, N */
		{ LD_DEP_SR, LD_DEP_SN },
		{ LD_DEP_ER, LD_DEP_EN },
	};

	if (!(p = fast_num(p, end, ' ', &v[0])) ||
	    !(p = fast_num(p, end, ' ', &v[1])) ||
	    !(p = fast_num(p, end, ' ', &v[2])))
		return NULL;
	if ((p[0] != 'E' && p[0] != 'S') || (p[1] != 'R' && p[1] != 'N') ||
	    p[2] != ' ')
		return NULL;
	*type = types[p[0] == 'E'][p[1] == 'N'];
	p += 3;
	if (p[0] == '-' && p[1] == '\n') {
		v[3] = LD_NONE;
		return p + 2;
	}
	return fast_num(p, end, '\n', &v[3]); /* below LD_NONE */
}

static int parse_deps(struct ld_model *m, const struct ld_section *s,
		      const struct ld_map *ids, const struct ld_map *tids,
		      bool have_traces, struct ex_file *fout, struct ld_diag *d)
{
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	uint32_t dangling = 0, unknown_types = 0;
	int ret;

	ret = ex_open(&f, s, "deps", d);
	if (ret)
		return ret;
	/* "0 0 1 EN -\n" at least */
	if (ld_reserve((void **)&m->deps, &m->alloc_deps,
		       m->nr_deps + s->len / 11, sizeof(*m->deps)))
		return -ENOMEM;
	for (;;) {
		const char *p, *end, *next;
		struct ld_dep dep = { 0 };
		uint32_t v[4];
		uint64_t x;

		dep.type_known = true;
		dep.trace = LD_NONE;
		dep.trace_known = have_traces;
		if (ld_fast_paths && !f.tail && ld_lines_avail(&f.l, FAST_SPAN) &&
		    (next = fast_dep(f.l.p, f.l.end, v, &dep.type)) && v[2] &&
		    v[2] <= UINT16_MAX) {
			f.l.p = next;
			f.l.lineno++;
			dep.from = ld_map_get(ids, v[0]);
			dep.to = ld_map_get(ids, v[1]);
			dep.distance = v[2];
			if (v[3] != LD_NONE) {
				dep.trace = ld_map_get(tids, v[3]);
				if (dep.trace == LD_NONE && have_traces) {
					dep.trace_known = false;
					dangling++;
				}
			}
			goto add;
		}
		ret = ex_next(&f, &line, &len, m, d);
		if (ret != 1)
			break;
		p = line;
		end = line + len;
		NEED_NUM("from", "class id", x);
		dep.from = ld_map_get(ids, x);
		NEED_NUM("to", "class id", x);
		dep.to = ld_map_get(ids, x);
		NEED_NUM("distance", "distance", x);
		if (!x || x > UINT16_MAX)
			BAD_FIELD("distance");
		dep.distance = x;
		NEED_TOK("type");
		ret = parse_dep_type(ts, tl, &dep.type);
		if (ret < 0)
			BAD_FIELD("dependency type");
		if (ret) { /* a name not known: nor are the types it has */
			dep.type_known = false;
			dep.type = 0;
			unknown_types++;
		}
		if (!num_tok(&p, end, &ts, &tl, &x)) {
			NEED_TOK("trace");
			if (!is_dash(ts, tl) && !ld_tok_u64(ts, tl, &x))
				BAD_FIELD("trace id");
		}
		if (!is_dash(ts, tl)) {
			dep.trace = ld_map_get(tids, x);
			if (dep.trace == LD_NONE && have_traces) {
				dep.trace_known = false;
				dangling++;
			}
		}
		if (p != end)
			return ld_diag(d, &f.l, "trailing text '%s'",
				       ld_quote(p, end - p, q, sizeof(q)));
add:
		if (dep.from == LD_NONE || dep.to == LD_NONE) {
			dangling++;
			continue;
		}
		if (ld_grow((void **)&m->deps, &m->alloc_deps, m->nr_deps,
			    sizeof(*m->deps)))
			return -ENOMEM;
		m->deps[m->nr_deps++] = dep;
	}
	if (ret < 0)
		return ret;
	if (dangling) {
		m->nr_unresolved += dangling;
		ld_warn(m, "%s: %u %s", s->origin, dangling,
			ld_plural(dangling,
				  "reference to an unknown class or trace",
				  "references to unknown classes or traces"));
	}
	if (unknown_types)
		ld_warn(m, "%s: %u %s with a type name this reader does not know (a newer kernel's): %s unknown",
			s->origin, unknown_types,
			ld_plural(unknown_types, "dependency", "dependencies"),
			ld_plural(unknown_types, "its type is",
				  "their types are"));
	m->have.deps = true;
	m->have.dep_all_distances = true;
	m->have.dep_types = true;
	*fout = f;
	return 0;
}

/*
 * Without the traces file the usage file's trace ids lead nowhere: the
 * usage traces are unknown then, not "no stack saved".  So is the trace
 * of a bit set without a line (a file cut or edited).
 */
#define NO_LINE (LD_NONE - 1) /* a usage_trace[] not given yet */
static int parse_usage(struct ld_model *m, const struct ld_section *s,
		       const struct ld_map *ids, const struct ld_map *tids,
		       bool have_traces, struct ex_file *fout,
		       struct ld_diag *d)
{
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	uint32_t dangling = 0, unknown_states = 0, missing = 0, i, b;
	int ret;

	ret = ex_open(&f, s, "usage", d);
	if (ret)
		return ret;
	/* the format promises a line for every bit set: marked until seen */
	for (i = 0; i < m->nr_classes; i++)
		for (b = 0; b < LD_NR_USAGE_BITS; b++)
			if (m->classes[i].usage & m->classes[i].usage_known &
			    (1u << b))
				m->classes[i].usage_trace[b] = NO_LINE;
	while ((ret = ex_next(&f, &line, &len, m, d)) == 1) {
		const char *p = line, *end = line + len;
		uint32_t c, t = LD_NONE;
		uint64_t x;
		bool bad, lost = false;
		int bit;

		NEED_TOK("class");
		c = ref_class(ids, ts, tl, &bad);
		if (bad)
			BAD_FIELD("class id");
		NEED_TOK("state");
		bit = ld_usage_from_kname(ts, tl);
		if (bit < 0 && !future_name(ts, tl))
			BAD_FIELD("usage state");
		NEED_TOK("trace");
		if (!is_dash(ts, tl)) {
			if (!ld_tok_u64(ts, tl, &x))
				BAD_FIELD("trace id");
			t = ld_map_get(tids, x);
			lost = t == LD_NONE && have_traces;
			dangling += lost;
		}
		if (p != end)
			return ld_diag(d, &f.l, "trailing text");
		if (bit < 0) { /* a state a newer kernel has: not kept */
			unknown_states++;
			continue;
		}
		if (c == LD_NONE) {
			dangling++;
			continue;
		}
		m->classes[c].usage_trace[bit] = t;
		if (lost)
			m->classes[c].usage_trace_unknown |= 1u << bit;
	}
	if (ret < 0)
		return ret;
	for (i = 0; i < m->nr_classes; i++) {
		struct ld_class *c = &m->classes[i];
		bool miss = false;

		for (b = 0; b < LD_NR_USAGE_BITS; b++) {
			if (c->usage_trace[b] != NO_LINE)
				continue;
			c->usage_trace[b] = LD_NONE;
			c->usage_trace_unknown |= 1u << b;
			miss = true;
		}
		missing += miss;
	}
	/* a cut file said so already */
	if (missing && f.tail)
		ld_warn(m, "%s: %u %s with usage bits that have no line: %s usage traces unknown",
			s->origin, missing,
			ld_plural(missing, "class", "classes"),
			ld_plural(missing, "its", "their"));
	if (dangling) {
		m->nr_unresolved += dangling;
		ld_warn(m, "%s: %u %s", s->origin, dangling,
			ld_plural(dangling,
				  "reference to an unknown class or trace",
				  "references to unknown classes or traces"));
	}
	if (unknown_states)
		ld_warn(m, "%s: %u usage %s of states this reader does not know (a newer kernel's): ignored",
			s->origin, unknown_states,
			ld_plural(unknown_states, "trace", "traces"));
	m->have.usage_traces = have_traces;
	*fout = f;
	return 0;
}

/*
 * "<id> 0x<key> <irq_context> <depth> <class>:<read>...\n" into *ch, its
 * locks after m's (committed here, on success only).  Reads FAST_SPAN
 * bytes for the fields before the locks, and checks before each lock.
 * Without @ids the class ids are kept as they are (resolve_chain_locks()).
 */
static inline const char *fast_chain(const char *p, const char *end,
				     struct ld_model *m,
				     const struct ld_map *ids,
				     struct ld_chain *ch)
{
	uint32_t id, irq, depth = 0, i, x, c, unresolved = 0;
	uint32_t base = m->nr_chain_locks;
	const char *q;
	int n;

	if (!(p = fast_num(p, end, ' ', &id)) || p[0] != '0' || p[1] != 'x')
		return NULL;
	q = p + 2;
	if (!ld_scan_hex(&q, q + 17, &ch->key) || *q != ' ')
		return NULL;
	if (!(p = fast_num(q + 1, end, ' ', &irq)) || irq > 3)
		return NULL;
	for (n = 0; n < 4 && ld_is_digit(p[n]); n++)
		depth = depth * 10 + (p[n] - '0');
	if (!n || depth > 1024 || p[n] != (depth ? ' ' : '\n'))
		return NULL;
	p += n + 1;
	if (ld_grow((void **)&m->chain_locks, &m->alloc_chain_locks,
		    base + depth, sizeof(uint32_t)) ||
	    ld_grow((void **)&m->chain_reads, &m->alloc_chain_reads,
		    base + depth, 1))
		return NULL;
	for (i = 0; i < depth; i++) {
		if (!(p = fast_num(p, end, ':', &x)) || end - p < 2 ||
		    p[0] < '0' || p[0] > '2' ||
		    p[1] != (i + 1 < depth ? ' ' : '\n'))
			return NULL;
		c = ids ? ld_map_get(ids, x) : x; /* x < LD_NONE */
		unresolved += c == LD_NONE;
		m->chain_locks[base + i] = c;
		m->chain_reads[base + i] = p[0] - '0';
		p += 2;
	}
	ch->kid = id;
	ch->key_known = true;
	ch->irq_context = irq;
	ch->depth = depth;
	ch->first = base;
	ch->read_known = true;
	m->nr_chain_locks += depth;
	m->nr_unresolved += unresolved;
	return p;
}

/*
 * Whether the chain just added repeats the id of one before it (from
 * @first): the kernel lists lock_chains[] in index order, so an id above
 * the last is new; only past one that is not are the ids put in @seen.
 */
static int chain_id_repeated(const struct ld_model *m, uint32_t first,
			     struct ld_map *seen, bool *hashed, int64_t *last)
{
	uint32_t kid = m->chains[m->nr_chains - 1].kid, old, i;

	if (!*hashed) {
		if ((int64_t)kid > *last) {
			*last = kid;
			return 0;
		}
		*hashed = true;
		ld_map_init_ids(seen, 1u << 20);	/* ids index an array */
		for (i = first; i + 1 < m->nr_chains; i++)
			if (ld_map_put(seen, m->chains[i].kid, 0, &old))
				return -ENOMEM;
	}
	if (ld_map_put(seen, kid, 0, &old))
		return -ENOMEM;
	return old != LD_NONE;
}

static void unknown_classes_warn(struct ld_model *m, const struct ld_section *s,
				 uint32_t before)
{
	if (m->nr_unresolved > before)
		ld_warn(m, "%s: %u %s", s->origin, m->nr_unresolved - before,
			ld_plural(m->nr_unresolved - before,
				  "reference to an unknown class",
				  "references to unknown classes"));
}

/*
 * The chains' class ids, read before the classes were (@ids NULL in
 * parse_chains()), to class indexes: LD_NONE and counted if unknown.
 * @before: the count before the chains were read.
 */
static void resolve_chain_locks(struct ld_model *m, const struct ld_section *s,
				const struct ld_map *ids, uint32_t before)
{
	uint32_t i;

	for (i = 0; i < m->nr_chain_locks; i++) {
		uint32_t x = m->chain_locks[i], c;

		if (x == LD_NONE)
			continue; /* counted when read */
		c = ld_map_get(ids, x);
		m->nr_unresolved += c == LD_NONE;
		m->chain_locks[i] = c;
	}
	unknown_classes_warn(m, s, before);
}

/*
 * @ch after the chains read: parsed on the side and stored once its line
 * is there.  At the kernel's limit (MAX_LOCKDEP_CHAINS, 2^18) the slot
 * after the last chain starts a 2 MiB page, which taking the slot before
 * reading the line faulted in at the end of the file, for nothing.
 */
static int add_chain(struct ld_model *m, const struct ld_chain *ch)
{
	if (ld_grow((void **)&m->chains, &m->alloc_chains, m->nr_chains,
		    sizeof(*m->chains)))
		return -ENOMEM;
	m->chains[m->nr_chains++] = *ch;
	return 0;
}

/* parse_chains(), with @seen for chain_id_repeated(), freed by it */
static int parse_chain_lines(struct ld_model *m, const struct ld_section *s,
			     const struct ld_map *ids, struct ex_file *fout,
			     struct ld_map *seen, struct ld_diag *d)
{
	uint32_t first = m->nr_chains, unresolved = m->nr_unresolved;
	bool hashed = false;
	int64_t last = -1;
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	int ret;

	ret = ex_open(&f, s, "chains", d);
	if (ret)
		return ret;
	/* "0 0x0 0 0\n" at least; "0:0 " per lock */
	if (ld_reserve((void **)&m->chains, &m->alloc_chains,
		       m->nr_chains + s->len / 10, sizeof(*m->chains)) ||
	    ld_reserve((void **)&m->chain_locks, &m->alloc_chain_locks,
		       m->nr_chain_locks + s->len / 4, sizeof(uint32_t)) ||
	    ld_reserve((void **)&m->chain_reads, &m->alloc_chain_reads,
		       m->nr_chain_locks + s->len / 4, 1))
		return -ENOMEM;
	for (;;) {
		const char *p, *end, *next;
		struct ld_chain tmp = { 0 }, *ch = &tmp;
		uint64_t x, depth, i;

		if (ld_fast_paths && !f.tail && ld_lines_avail(&f.l, FAST_SPAN) &&
		    (next = fast_chain(f.l.p, f.l.end, m, ids, ch))) {
			f.l.p = next;
			f.l.lineno++;
			if (add_chain(m, ch))
				return -ENOMEM;
			if (ch->kid > last && !hashed) {
				last = ch->kid; /* chain_id_repeated(), inline */
				continue;
			}
			ret = chain_id_repeated(m, first, seen, &hashed, &last);
			if (ret)
				break;
			continue;
		}
		memset(ch, 0, sizeof(*ch));
		ret = ex_next(&f, &line, &len, m, d);
		if (ret != 1)
			break;
		p = line;
		end = line + len;
		NEED_NUM("id", "chain id", x);
		if (x >= LD_NONE)
			BAD_FIELD("chain id");
		ch->kid = x;
		NEED_TOK("key");
		if (!ld_tok_hex(ts, tl, &ch->key))
			BAD_FIELD("chain key");
		ch->key_known = true;
		NEED_NUM("irq_context", "irq_context", x);
		if (x > 3)
			BAD_FIELD("irq_context");
		ch->irq_context = x;
		NEED_NUM("depth", "depth", depth);
		if (depth > 1024)
			BAD_FIELD("depth");
		ch->first = m->nr_chain_locks;
		ch->read_known = true;
		if (ld_grow((void **)&m->chain_locks, &m->alloc_chain_locks,
			    m->nr_chain_locks + depth, sizeof(uint32_t)) ||
		    ld_grow((void **)&m->chain_reads, &m->alloc_chain_reads,
			    m->nr_chain_locks + depth, 1))
			return -ENOMEM;
		for (i = 0; i < depth; i++) {
			const char *colon = p;
			uint32_t c;

			/* "<class id>:<0|1|2>", then ' ' or the end */
			if (ld_scan_u64(&colon, end, &x) && end - colon >= 2 &&
			    colon[0] == ':' && colon[1] >= '0' &&
			    colon[1] <= '2' &&
			    (end - colon == 2 || colon[2] == ' ')) {
				p = end - colon == 2 ? end : colon + 3;
			} else {
				if (p >= end)
					return ld_diag(d, &f.l,
						       "depth %llu, but %llu lock%s",
						       (unsigned long long)depth,
						       (unsigned long long)i,
						       i == 1 ? "" : "s");
				NEED_TOK("locks");
				colon = ts;
				if (!ld_scan_u64(&colon, ts + tl, &x) ||
				    colon + 2 != ts + tl || *colon != ':' ||
				    colon[1] < '0' || colon[1] > '2')
					BAD_FIELD("chain element");
			}
			/* raw: an id no class can have is known unknown */
			c = ids ? ld_map_get(ids, x) : x < LD_NONE ? x : LD_NONE;
			if (c == LD_NONE)
				m->nr_unresolved++;
			m->chain_locks[m->nr_chain_locks] = c;
			m->chain_reads[m->nr_chain_locks++] = colon[1] - '0';
		}
		if (p != end)
			return ld_diag(d, &f.l, "more locks than its depth %llu",
				       (unsigned long long)depth);
		ch->depth = depth;
		if (add_chain(m, ch))
			return -ENOMEM;
		ret = chain_id_repeated(m, first, seen, &hashed, &last);
		if (ret)
			break;
	}
	if (ret > 0)
		return ld_diag(d, &f.l, "chain %u listed twice",
			       m->chains[m->nr_chains - 1].kid);
	if (ret < 0)
		return ret;
	if (ids)
		unknown_classes_warn(m, s, unresolved);
	m->have.chains = true;
	m->have.chain_keys = true;
	*fout = f;
	return 0;
}

static int parse_chains(struct ld_model *m, const struct ld_section *s,
			const struct ld_map *ids, struct ex_file *fout,
			struct ld_diag *d)
{
	struct ld_map seen;
	int ret;

	ld_map_init_ids(&seen, 0);
	ret = parse_chain_lines(m, s, ids, fout, &seen, d);
	ld_map_free(&seen);
	return ret;
}

static int parse_stats(struct ld_model *m, const struct ld_section *s,
		       struct ex_file *fout, struct ld_diag *d)
{
	struct ex_file f;
	const char *line, *ts;
	size_t len, tl;
	char q[LD_QBUF];
	int ret;

	ret = ex_open(&f, s, "stats", d);
	if (ret)
		return ret;
	while ((ret = ex_next(&f, &line, &len, m, d)) == 1) {
		const char *p = line, *end = line + len;
		struct ld_stat st = { 0 };
		uint64_t v;

		NEED_TOK("key");
		st.key = ld_arena_str(m->arena, ts, tl);
		if (!st.key.s)
			return -ENOMEM;
		st.label = st.key;
		NEED_TOK("value");
		if (!ld_tok_u64(ts, tl, &v) || v > INT64_MAX)
			BAD_FIELD("value");
		if (p != end)
			return ld_diag(d, &f.l, "trailing text");
		if (ld_stat_get(m, st.key.s)) {
			ld_warn(m, "%s:%lu: duplicate key '%s' ignored",
				f.l.file, f.l.base + f.l.lineno, st.key.s);
			continue;
		}
		st.value = v;
		st.src = LD_SRC_EXPORT;
		if (ld_add_stat(m, &st))
			return -ENOMEM;
	}
	if (ret < 0)
		return ret;
	m->have.stats = true;
	*fout = f;
	return 0;
}

/*
 * The chains file refers to nothing but class ids: it is parsed while the
 * classes, traces, deps and usage are, in a second thread when one can be
 * started, into a model of its own whose chains, counts and warnings are
 * then moved over in file order, so that the result is the same as one
 * file after the other.  That thread keeps the class ids as they are read
 * and, once the other has read the classes (job_say(..., J_CLASSES)),
 * turns them into class indexes and builds the chain index; then, once
 * the deps are read too (J_DEPS), the dependency index of the main model,
 * while the first thread parses the usage: unless the first thread, done
 * before, took that back (job_take_back()).
 */
enum { J_CLASSES, J_DEPS, J_NR };

size_t ld_chains_thread_min = 1u << 20;

struct chains_job {
	struct ld_model *t; /* what parse_chains() writes */
	struct ld_model *m; /* its deps: ld_index_deps_quiet() */
	const struct ld_section *s;
	const struct ld_map *ids; /* read only, once the classes are read */
	uint32_t nr_classes;
	struct ex_file f;
	struct ld_diag d;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t said;
	int state[J_NR]; /* 0 not yet, 1 read, -1 will not be (here) */
	bool threaded;
	bool adj_taken; /* by the second thread */
	int ret;
	/* the dependency index, when this thread built it */
	bool adjacency;
	int adj_ret;
	double adj_ms;
	uint32_t dups; /* dropped by whichever thread built it */
	/* the chain index in parts, which the first thread helps to fill */
	struct ld_index_job *ix; /* NULL: built by the second alone */
	bool ix_said; /* ix set, or never will be */
};

/*
 * Wait for the first thread to say what became of @what: 1 there, -1 not
 * (from here).  The deps, once there, are this thread's to index.
 */
static int job_wait(struct chains_job *j, int what)
{
	int st;

	pthread_mutex_lock(&j->lock);
	while (!j->state[what])
		pthread_cond_wait(&j->said, &j->lock);
	st = j->state[what];
	if (what == J_DEPS && st > 0)
		j->adj_taken = true;
	pthread_mutex_unlock(&j->lock);
	return st;
}

/*
 * The first thread, with nothing else to do: the dependency index is
 * its own to build unless the second thread began it (true: taken back).
 */
static bool job_take_back(struct chains_job *j)
{
	bool back;

	if (!j->threaded)
		return true;
	pthread_mutex_lock(&j->lock);
	back = !j->adj_taken;
	if (back) {
		j->state[J_DEPS] = -1;
		pthread_cond_broadcast(&j->said);
	}
	pthread_mutex_unlock(&j->lock);
	return back;
}

/* @what is in @m (@ok), or will not be from here: the second thread goes on */
static void job_say(struct chains_job *j, int what, bool ok)
{
	if (!j->threaded) {
		j->nr_classes = j->m->nr_classes;
		return;
	}
	pthread_mutex_lock(&j->lock);
	if (!j->state[what]) {
		if (what == J_CLASSES)
			j->nr_classes = j->m->nr_classes;
		j->state[what] = ok ? 1 : -1;
		pthread_cond_broadcast(&j->said);
	}
	pthread_mutex_unlock(&j->lock);
}

/* The chain index the first thread can help with: @ix, or none */
static void job_say_index(struct chains_job *j, struct ld_index_job *ix)
{
	pthread_mutex_lock(&j->lock);
	if (!j->ix_said) {
		j->ix = ix;
		j->ix_said = true;
		pthread_cond_broadcast(&j->said);
	}
	pthread_mutex_unlock(&j->lock);
}

static void chains_work(struct chains_job *j)
{
	uint32_t before = j->t->nr_unresolved;
	struct ld_index_job *ix;
	double t;

	j->d.msg[0] = '\0';
	j->ret = parse_chains(j->t, j->s, j->threaded ? NULL : j->ids, &j->f,
			      &j->d);
	if (!j->threaded)
		return;
	if (job_wait(j, J_CLASSES) < 0 || j->ret)
		return;
	resolve_chain_locks(j->t, j->s, j->ids, before);
	/*
	 * and, while the other thread still parses, the chain index: in
	 * parts, the first of which this thread fills, the last of which
	 * that thread fills once it has nothing else left (chains_help();
	 * it had waited 2-3 ms for this one at full size).  The parts'
	 * scratch, 400 KiB then, in one 2 MiB page, not 100 small ones.
	 */
	ld_arena_expect(j->t->arena, j->s->len);
	ix = ld_index_job_new(j->t, j->nr_classes);
	job_say_index(j, ix);
	j->ret = ix ? ld_index_job_front(ix) :
		      ld_index_chains(j->t, j->nr_classes);
	if (j->ret || job_wait(j, J_DEPS) < 0)
		return;
	t = ld_now_ms();
	j->adjacency = true;
	j->adj_ret = ld_index_deps_quiet(j->m, &j->dups);
	j->adj_ms = ld_now_ms() - t;
}

static void *chains_run(void *arg)
{
	struct chains_job *j = arg;

	chains_work(j);
	if (j->threaded)
		job_say_index(j, NULL); /* unless it did */
	return NULL;
}

/*
 * The first thread, with nothing else left: the chain index's parts the
 * second has not taken yet
 */
static void chains_help(struct chains_job *j)
{
	struct ld_index_job *ix;

	if (!j->threaded)
		return;
	pthread_mutex_lock(&j->lock);
	while (!j->ix_said)
		pthread_cond_wait(&j->said, &j->lock);
	ix = j->ix;
	pthread_mutex_unlock(&j->lock);
	if (ix)
		ld_index_job_back(ix);
}

static int chains_start(struct chains_job *j, struct ld_model *m,
			const struct ld_section *s, const struct ld_map *ids)
{
	memset(j, 0, sizeof(*j));
	j->s = s;
	j->ids = ids;
	j->m = m;
	j->t = m->nr_chains || m->nr_chain_locks ? m : ld_model_new();
	if (!j->t)
		return -ENOMEM;
	/* small files are not worth a thread */
	j->threaded = ld_parallel && j->t != m && s->len >= ld_chains_thread_min;
	if (j->threaded && pthread_mutex_init(&j->lock, NULL)) {
		j->threaded = false;
	} else if (j->threaded && pthread_cond_init(&j->said, NULL)) {
		pthread_mutex_destroy(&j->lock);
		j->threaded = false;
	} else if (j->threaded &&
		   ld_thread_create(&j->th, chains_run, j)) {
		pthread_cond_destroy(&j->said);
		pthread_mutex_destroy(&j->lock);
		j->threaded = false;
	}
	return 0;
}

/* Join; unless @ret says an earlier file failed, take over the chains. */
static int chains_finish(struct chains_job *j, struct ld_model *m, int ret,
			 struct ex_file *f, struct ld_diag *d)
{
	struct ld_model *t = j->t;
	uint32_t i;

	if (j->threaded) {
		/* unless said before */
		job_say(j, J_CLASSES, false);
		job_say(j, J_DEPS, false);
		pthread_join(j->th, NULL);
		pthread_cond_destroy(&j->said);
		pthread_mutex_destroy(&j->lock);
		if (j->ix) {
			int iret = ld_index_job_end(j->ix);

			if (!j->ret)
				j->ret = iret;
		}
	} else if (!ret) {
		chains_run(j);
	}
	if (j->adjacency) {
		if (!j->ret)
			j->ret = j->adj_ret;
		ld_phase_ms(m, "adjacency (2nd thread)", j->adj_ms, true);
	}
	if (t == m) /* parsed in place */
		goto done;
	if (!ret && !j->ret) {
		ld_take_chains(m, t);
		m->nr_unresolved += t->nr_unresolved;
		m->partial |= t->partial;
		m->have.chains = t->have.chains;
		m->have.chain_keys = t->have.chain_keys;
	}
	/* its warnings, after those of the files before it (ld_warn's cap) */
	for (i = 0; i < t->nr_warnings && !ret && !j->ret; i++)
		if (ld_warn(m, "%s", t->warnings[i]))
			j->ret = -ENOMEM;
	ld_model_free(t);
done:
	m->dup_deps += j->dups; /* said where ld_model_finish() says it */
	if (!ret && j->ret && j->d.msg[0])
		*d = j->d;
	*f = j->f;
	return j->ret;
}

/*
 * How classes number wait types, where stats says (lockdep-debugfs.rst:
 * prove_raw_lock_nesting; older exports have no such key, and a class
 * with 4 is the only sign then).  A 4 with the key at 0 cannot be.
 */
static void wait_numbering(struct ld_model *m, const char *origin)
{
	const struct ld_stat *st = ld_stat_get(m, "prove_raw_lock_nesting");

	if (!st)
		return;
	if (!st->value && m->have.wait_config)
		ld_warn(m, "%s: prove_raw_lock_nesting 0, but a class has wait type 4 (LD_WAIT_SLEEP only with it): not one kernel's files?",
			origin);
	m->have.wait_config = st->value != 0;
	m->have.wait_plain = !st->value;
}

/*
 * With every generation equal, the counts in stats that lockdep changes
 * under the graph lock match the records (the format's promise; stats
 * may count chains still being freed): a file that says otherwise is
 * not of this export, or was edited, and the view is not consistent.
 */
static void count_check(struct ld_model *m, const char *origin, uint64_t gen,
			const bool seen[LD_EX_NR], uint32_t dep_lines)
{
	static const struct {
		const char *key;
		int file;
		bool at_least; /* stats may say more */
		bool while_on; /* only while debug_locks is 1 */
	} counts[] = {
		{ "generation", -1, false, false },
		{ "lock_classes", LD_EX_CLASSES, false, false },
		{ "direct_dependencies", LD_EX_DEPS, false, true },
		{ "dependency_chains", LD_EX_CHAINS, true, true },
	};
	/*
	 * Once lockdep is off, a dependency whose reverse entry it could
	 * not allocate, and the chain it was adding when it ran out of
	 * chain hlocks, stay in the files without being counted
	 * (lockdep-debugfs.rst)
	 */
	const struct ld_stat *dl = ld_stat_get(m, "debug_locks");
	bool off = dl && !dl->value;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		const struct ld_stat *st = ld_stat_get(m, counts[i].key);
		uint64_t have;

		if (!st || (counts[i].file >= 0 && !seen[counts[i].file]) ||
		    (off && counts[i].while_on))
			continue;
		switch (counts[i].file) {
		case LD_EX_CLASSES:
			have = m->nr_classes;
			break;
		case LD_EX_DEPS: /* both directions: twice the lines */
			have = 2 * (uint64_t)dep_lines;
			break;
		case LD_EX_CHAINS:
			have = m->nr_chains;
			break;
		default:
			have = gen;
			break;
		}
		if ((uint64_t)st->value == have ||
		    (counts[i].at_least && (uint64_t)st->value > have))
			continue;
		m->consistent = false;
		ld_warn(m, "%s: %s %llu where the files give %llu, although every file has one generation: not one export's files, or edited; the view is not consistent",
			origin, counts[i].key, (unsigned long long)st->value,
			(unsigned long long)have);
	}
}

int ld_parse_export(struct ld_model *m, struct ld_section *const files[6],
		    struct ld_diag *d)
{
	struct ld_map ids = { 0 }, tids = { 0 };
	struct ex_file f[LD_EX_NR];
	struct chains_job cj;
	bool seen[LD_EX_NR] = { false };
	uint32_t dep_lines = 0;
	uint64_t gen = 0;
	bool first = true;
	double t = ld_now_ms();
	int ret, i;

	if (!files[LD_EX_CLASSES]) {
		/* a load of the counters only (LD_LOAD_STATS) */
		for (i = 0; i < LD_EX_NR; i++)
			if (files[i] && i != LD_EX_STATS)
				return ld_diagf(
					d,
					"debugfs export without a 'classes' file");
		ret = 0;
		goto stats;
	}
	/*
	 * Class ids index lock_classes[] (MAX_LOCKDEP_KEYS, 8192), trace ids
	 * stack_trace[] (2^19 entries by default, 2^26 at most): plain
	 * arrays up to where a sparse file would make them too big.
	 */
	ld_map_init_ids(&ids, 1u << 20);
	ld_map_init_ids(&tids, 1u << 22);
	if (files[LD_EX_CHAINS]) {
		ret = chains_start(&cj, m, files[LD_EX_CHAINS], &ids);
		if (ret)
			goto out;
	}
	ret = parse_classes(m, files[LD_EX_CLASSES], &ids, &f[LD_EX_CLASSES],
			    d);
	if (files[LD_EX_CHAINS])
		job_say(&cj, J_CLASSES, !ret);
	if (ret)
		goto join;
	seen[LD_EX_CLASSES] = true;
	t = ld_phase(m, "classes", t);
	if (files[LD_EX_TRACES]) {
		ret = parse_traces(m, files[LD_EX_TRACES], &tids,
				   &f[LD_EX_TRACES], d);
		if (ret)
			goto join;
		seen[LD_EX_TRACES] = true;
		/* deps and usage look up scattered trace ids */
		ld_map_pack(&tids);
		t = ld_phase(m, "traces", t);
	}
	if (files[LD_EX_DEPS]) {
		ret = parse_deps(m, files[LD_EX_DEPS], &ids, &tids,
				 seen[LD_EX_TRACES], &f[LD_EX_DEPS], d);
		if (ret)
			goto join;
		seen[LD_EX_DEPS] = true;
		dep_lines = m->nr_deps; /* before duplicates are dropped */
		if (files[LD_EX_CHAINS])
			job_say(&cj, J_DEPS, true);
		t = ld_phase(m, "deps", t);
	}
	if (files[LD_EX_USAGE]) {
		ret = parse_usage(m, files[LD_EX_USAGE], &ids, &tids,
				  seen[LD_EX_TRACES], &f[LD_EX_USAGE], d);
		if (ret)
			goto join;
		seen[LD_EX_USAGE] = true;
		t = ld_phase(m, "usage", t);
	}
	/*
	 * the dependency index, unless the chains thread builds it; while
	 * that thread may still run
	 */
	if (!ret && seen[LD_EX_DEPS] && files[LD_EX_CHAINS] && cj.threaded &&
	    job_take_back(&cj)) {
		ret = ld_index_deps_quiet(m, &cj.dups);
		t = ld_phase(m, "adjacency", t);
	}
	if (!ret && files[LD_EX_CHAINS]) {
		chains_help(&cj);
		t = ld_phase(m, "chain index (wait, help)", t);
	}
join:
	if (files[LD_EX_CHAINS]) {
		/* an error in the files before chains comes first */
		int cret = chains_finish(&cj, m, ret, &f[LD_EX_CHAINS], d);

		if (!ret)
			ret = cret;
		if (ret)
			goto out;
		seen[LD_EX_CHAINS] = true;
		/* what the chains thread still took after the files above */
		t = ld_phase(m, "chains (wait)", t);
	}
stats:
	if (files[LD_EX_STATS]) {
		ret = parse_stats(m, files[LD_EX_STATS], &f[LD_EX_STATS], d);
		if (ret)
			goto out;
		seen[LD_EX_STATS] = true;
		wait_numbering(m, files[LD_EX_STATS]->origin);
		ld_phase(m, "stats", t);
	}
	for (i = 0; i < LD_EX_NR; i++) {
		if (!seen[i])
			continue;
		files[i]->used = true;
		if (first)
			gen = f[i].g0;
		first = false;
		if (f[i].g0 != gen || !f[i].tail || f[i].g1 != gen)
			m->consistent = false;
	}
	m->from_export = true;
	/* none read: a load of the counters from an export without them */
	m->has_generation = !first;
	m->generation = gen;
	if (!m->consistent)
		ld_warn(m,
			"export files are from different graph generations: the view is not consistent");
	if (m->nr_unresolved && m->consistent) {
		const char *o = "export", *sl;
		int n = 6;

		for (i = 0; i < LD_EX_NR; i++)
			if (files[i]) {
				o = files[i]->origin;
				sl = strrchr(o, '/');
				n = sl ? (int)(sl - o) : (int)strlen(o);
				break;
			}
		ld_warn(m,
			"%.*s: unknown ids although every file has one generation: not one export's files, or edited",
			n, o);
	} else if (m->consistent && seen[LD_EX_STATS]) {
		count_check(m, files[LD_EX_STATS]->origin, gen, seen,
			    dep_lines);
	}
out:
	ld_map_free(&ids);
	ld_map_free(&tids);
	return ret;
}
