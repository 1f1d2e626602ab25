// SPDX-License-Identifier: GPL-2.0
/*
 * parse_proc.c - the stock files of kernel/locking/lockdep_proc.c:
 * /proc/lockdep, /proc/lockdep_chains and /proc/lockdep_stats.
 * (/proc/lock_stat is in parse_lockstat.c.)
 *
 * Formats, as printed by 6.x (checked against 6.12):
 *
 *   all lock classes:
 *   <%p key>[ OPS:%8ld][ FD:%5ld BD:%5ld <4 usage chars>]: <name>
 *    -> [<%p key>] <name>       (PROVE_LOCKING: distance-1 entries)
 *   <blank>                      (PROVE_LOCKING)
 *
 *   [(buggered) ]all lock chains:
 *   irq_context: 0|hardirq|softirq|hardirq|softirq
 *   [<%p key>] <name>            (outermost first)
 *   <blank>
 *
 *   " <label>:" padded, "%11lu", optional " [max: %lu]"; blank lines.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ld_internal.h"

/* A class reference by hashed key and name, resolved after parsing. */
struct pending_ref {
	uint64_t key;
	bool key_known;
	const char *name;
	uint32_t len;
};

/*
 * %p prints a hashed pointer as hex digits, or "(____ptrval____)" early in
 * boot; with no_hash_pointers the raw value.  Anything else: unknown key.
 */
static bool parse_key(const char *s, size_t len, uint64_t *key)
{
	const char *p = s;

	if (len > 16)
		return false;
	return ld_scan_hex(&p, s + len, key) && p == s + len;
}

/*
 * "[key] name" with @tok just after the '[': the first ']' (NULL if none),
 * and the key when the text before it is one.  Hex digits then ']' is the
 * common case, scanned once.
 */
static const char *scan_key(const char *tok, const char *end, uint64_t *key,
			    bool *known)
{
	const char *p = tok;

	*known = ld_scan_hex(&p, end, key) && p < end && *p == ']';
	return *known ? p : memchr(tok, ']', end - tok);
}

static uint32_t resolve_ref(const struct ld_model *m,
			    const struct ld_map *keys,
			    const struct pending_ref *r)
{
	uint32_t ids[2], c;

	if (r->key_known) {
		c = ld_map_get(keys, r->key);
		if (c != LD_NONE && m->classes[c].name.len == r->len &&
		    !memcmp(m->classes[c].name.s, r->name, r->len))
			return c;
	}
	/*
	 * By name alone when the key cannot tell: not a key in this line
	 * or in the class's ("(____ptrval____)"), or a key two classes
	 * share (32 significant bits: build_key_map()).  A key of no
	 * listed class is a class that is not listed (registered after
	 * /proc/lockdep was read), whatever other class has its name.
	 */
	if (ld_find_class(m, r->name, r->len, ids, 2) == 1) {
		const struct ld_class *k = &m->classes[ids[0]];

		if (!r->key_known || k->key_hash == r->key ||
		    (!k->key_hash_known && !k->key_hash))
			return ids[0];
	}
	return LD_NONE;
}

/*
 * The keys of the key map as the kernel prints them ("%016lx" on 64-bit),
 * 16 bytes of text each, with the class the map gives for them and its
 * name: a reference is looked up without converting its key, touching one
 * slot and the name.  Text that is not here (other widths, upper case,
 * unknown keys) takes the general path; so do classes whose name ends in
 * a CR, which the line iterator would strip.
 */
struct key_slot {
	uint64_t text[2];
	const char *name;
	uint32_t len, id; /* id LD_NONE: free slot */
};

struct key_text {
	struct key_slot *slot;
	uint32_t mask;
};

static inline uint32_t key_text_hash(const uint64_t w[2], uint32_t mask)
{
	return ld_hash64(w[0] * 0x9e3779b97f4a7c15ULL ^ w[1]) & mask;
}

/*
 * The tables below are probed linearly, and kept at most an eighth full:
 * a lookup that finds its line in the first slot it looks at is one whose
 * probe loop exits where the branch predictor expects it.  Half full, a
 * quarter of the lookups went on to the next slot (an eighth full, 6%),
 * and the chains took a fifth longer to read at full size, although the
 * cache lines touched were fewer.  A full-size table is 2 MiB: the one
 * huge page that half the size took as well.
 */
#define DICT_SPARSE 8 /* slots per line, at the least */

static int key_text_build(struct key_text *t, const struct ld_model *m,
			  const struct ld_map *keys)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t n = 64, i, h, d;

	while (n < keys->nr * DICT_SPARSE)
		n *= 2;
	t->slot = ld_alloc_big(n * sizeof(*t->slot));
	if (!t->slot)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		t->slot[i].id = LD_NONE;
	t->mask = n - 1;
	/* in class order, not the map's: the classes and names in a row */
	for (i = 0; i < m->nr_classes; i++) {
		const struct ld_class *c = &m->classes[i];
		struct key_slot *ks;
		char buf[16];
		uint64_t w[2];

		if (ld_map_get(keys, c->key_hash) != i ||
		    (c->name.len && c->name.s[c->name.len - 1] == '\r'))
			continue;
		for (d = 0; d < 16; d++)
			buf[d] = hex[c->key_hash >> (60 - 4 * d) & 0xf];
		memcpy(w, buf, 16);
		for (h = key_text_hash(w, t->mask); t->slot[h].id != LD_NONE;
		     h = (h + 1) & t->mask)
			;
		ks = &t->slot[h];
		memcpy(ks->text, w, 16);
		ks->name = c->name.s;
		ks->len = c->name.len;
		ks->id = i;
	}
	return 0;
}

static void key_text_free(struct key_text *t)
{
	free(t->slot);
}

/*
 * The usual reference line, "[<16 hex digits>] name", @n bytes at @p (at
 * the '['; a newline after them), resolved without converting its key:
 * the key names a class, and the rest of the line is that class's name.
 * LD_NONE when this does not hold (another key form, an unknown key, a
 * name that differs, a CR LF line ending): then the caller takes the
 * general path, which gives the same result for this fast one's lines.
 * The caller found the line's end beforehand, so that the next line's
 * lookup need not wait for this one's (both miss the cache).  Here
 * without the '[': @k, @n bytes, is "<16 hex digits>] name".
 */
static inline uint32_t fast_ref_key(const struct key_text *kt, const char *k,
				    size_t n)
{
	const struct key_slot *ks;
	uint64_t w[2];
	uint32_t h;

	if (n < 18 || k[16] != ']' || k[17] != ' ')
		return LD_NONE;
	memcpy(w, k, 16);
	for (h = key_text_hash(w, kt->mask);; h = (h + 1) & kt->mask) {
		ks = &kt->slot[h];
		if (ks->id == LD_NONE)
			return LD_NONE;
		if (ks->text[0] == w[0] && ks->text[1] == w[1])
			break;
	}
	if (n - 18 != ks->len || memcmp(k + 18, ks->name, ks->len))
		return LD_NONE;
	return ks->id;
}

/* ... and with it, @p at the '[' */
static inline uint32_t fast_ref(const struct key_text *kt, const char *p,
				size_t n)
{
	if (n < 19 || p[0] != '[')
		return LD_NONE;
	return fast_ref_key(kt, p + 1, n - 1);
}

/*
 * The lock lines a second thread reads while this one still reads the
 * class list (ld_parse_proc()), before anything can be resolved: each
 * distinct line (after its '[', without its newline) gets a number, the
 * chain holds the number, and once the classes are known each line is
 * resolved once, as the general path resolves it.  Slots are keyed by the
 * 16 bytes after the '[' (zero padded), as key_text's, so that the usual
 * line is found without looking for its end.
 */
struct ref_slot {
	uint64_t text[2];
	const char *line; /* in the reading thread's arena */
	uint32_t len, id; /* id LD_NONE: free slot */
};

struct ref_dict {
	struct ref_slot *slot;
	uint32_t mask, nr;
};

/* What a dictionary line resolved to, by its number */
struct ref_res {
	uint32_t c; /* class, or LD_NONE */
	uint32_t len; /* of the name */
	const char *name;
};

static int ref_dict_init(struct ref_dict *dc, uint32_t n)
{
	uint32_t i;

	dc->slot = ld_alloc_big(n * sizeof(*dc->slot));
	if (!dc->slot)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		dc->slot[i].id = LD_NONE;
	dc->mask = n - 1;
	dc->nr = 0;
	return 0;
}

static void ref_text(uint64_t w[2], const char *line, size_t len)
{
	w[0] = w[1] = 0;
	memcpy(w, line, len < 16 ? len : 16);
}

/*
 * A line's len in the dictionary, with REF_CR when it ends in a CR: then
 * ref_dict_fast() never takes it.  "x\r\r\n" is stored as "x\r", which
 * "x\r\n" also starts with, and the general path takes that for "x".
 */
#define REF_CR (1u << 31) /* above any line's length (LD_MAX_FILE) */

/* The line of @n bytes at @p (the '['), if it is in @dc; as fast_ref() */
static inline uint32_t ref_dict_fast(const struct ref_dict *dc, const char *p,
				     size_t n)
{
	const struct ref_slot *rs;
	uint64_t w[2];
	uint32_t h;

	if (n < 17 || p[0] != '[')
		return LD_NONE;
	memcpy(w, p + 1, 16);
	for (h = key_text_hash(w, dc->mask);; h = (h + 1) & dc->mask) {
		rs = &dc->slot[h];
		if (rs->id == LD_NONE)
			return LD_NONE;
		if (rs->text[0] == w[0] && rs->text[1] == w[1] &&
		    rs->len == n - 1 && !memcmp(p + 17, rs->line + 16, n - 17))
			return rs->id;
	}
}

/* The number of @line (after its '[', @len bytes), given one if new */
static uint32_t ref_dict_add(struct ref_dict *dc, struct ld_arena *a,
			     const char *line, size_t len)
{
	struct ref_slot *rs;
	uint64_t w[2];
	uint32_t h;

	ref_text(w, line, len);
	for (h = key_text_hash(w, dc->mask); dc->slot[h].id != LD_NONE;
	     h = (h + 1) & dc->mask) {
		rs = &dc->slot[h];
		if (rs->text[0] == w[0] && rs->text[1] == w[1] &&
		    (rs->len & ~REF_CR) == len && !memcmp(rs->line, line, len))
			return rs->id;
	}
	if ((dc->nr + 1) * DICT_SPARSE > dc->mask + 1) {
		struct ref_dict big;
		uint32_t i, j;

		if (ref_dict_init(&big, (dc->mask + 1) * 2))
			return LD_NONE;
		for (i = 0; i <= dc->mask; i++) {
			if (dc->slot[i].id == LD_NONE)
				continue;
			for (j = key_text_hash(dc->slot[i].text, big.mask);
			     big.slot[j].id != LD_NONE; j = (j + 1) & big.mask)
				;
			big.slot[j] = dc->slot[i];
		}
		big.nr = dc->nr;
		free(dc->slot);
		*dc = big;
		for (h = key_text_hash(w, dc->mask); dc->slot[h].id != LD_NONE;
		     h = (h + 1) & dc->mask)
			;
	}
	rs = &dc->slot[h];
	rs->line = ld_arena_str(a, line, len).s;
	if (!rs->line)
		return LD_NONE;
	rs->text[0] = w[0];
	rs->text[1] = w[1];
	rs->len = len | (len && line[len - 1] == '\r' ? REF_CR : 0);
	rs->id = dc->nr++;
	return rs->id;
}

/*
 * Each line of @dc resolved against the classes, as chain_lines()
 * resolves a line it reads (which checked its syntax): through @kt's one
 * slot where it can, as its fast path does; NULL: no memory.  In @a,
 * whose chunk has room at full size (128 KiB of fresh 4 KiB pages took
 * 32 page faults).
 */
static struct ref_res *ref_dict_resolve(const struct ref_dict *dc,
					struct ld_arena *a,
					const struct ld_model *m,
					const struct ld_map *keys,
					const struct key_text *kt)
{
	struct ref_res *res = ld_arena_alloc(a, (dc->nr + 1) * sizeof(*res));
	uint32_t i, len, c;

	for (i = 0; res && i <= dc->mask; i++) {
		const struct ref_slot *rs = &dc->slot[i];
		struct pending_ref r;
		const char *p;

		if (rs->id == LD_NONE)
			continue;
		len = rs->len & ~REF_CR;
		if (ld_fast_paths && !(rs->len & REF_CR) &&
		    (c = fast_ref_key(kt, rs->line, len)) != LD_NONE) {
			res[rs->id].c = c;
			res[rs->id].name = rs->line + 18;
			res[rs->id].len = len - 18;
			continue;
		}
		p = scan_key(rs->line, rs->line + len, &r.key, &r.key_known);
		r.name = p + 2;
		r.len = rs->line + len - (p + 2);
		res[rs->id].c = resolve_ref(m, keys, &r);
		res[rs->id].name = r.name;
		res[rs->id].len = r.len;
	}
	return res;
}

static int build_key_map(struct ld_model *m, struct ld_map *keys)
{
	uint32_t i, old;
	int ret;

	ret = ld_map_init(keys, m->nr_classes);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_classes; i++) {
		if (!m->classes[i].key_hash_known)
			continue;
		ret = ld_map_put(keys, m->classes[i].key_hash, i, &old);
		if (ret)
			return ret;
		/* 32 significant bits: collisions happen; fall back to name */
		if (old != LD_NONE)
			m->classes[old].key_hash_known = false;
	}
	return 0;
}

/*
 * /proc/lockdep in one pass: the classes, and the dependencies with their
 * target lines numbered in a dictionary (a line may name a class listed
 * further down), as the chains' second thread numbers its lines; each
 * distinct line is resolved once the classes are known (lockdep_deps()).
 * What the pass leaves:
 */
struct pass1 {
	uint32_t first; /* the first class it added */
	uint32_t first_dep; /* the first dependency it added */
	uint32_t nr_refs; /* " -> " lines */
	/*
	 * the dependencies' "to": numbers there.  Its lines are copied to
	 * the model's arena, which has room for them in the 2 MiB page its
	 * names take (an arena of their own took one more); they stay there,
	 * about 45 bytes for each class.
	 */
	struct ref_dict dict;
	/* class lines (from first) to classes, when some were dropped */
	uint32_t *remap;
};

static void pass1_free(struct pass1 *p1)
{
	free(p1->dict.slot);
	free(p1->remap);
}

/* The dependency of a " -> " line: to line @to of the dictionary */
static inline int add_ref(struct ld_model *m, uint32_t from, uint32_t to)
{
	if (ld_grow((void **)&m->deps, &m->alloc_deps, m->nr_deps,
		    sizeof(*m->deps)))
		return -ENOMEM;
	m->deps[m->nr_deps++] = (struct ld_dep){
		.from = from, .to = to, .trace = LD_NONE, .distance = 1
	};
	return 0;
}

/*
 * A class listed twice, same key and same name (lockdep_proc.c walks
 * lock_classes[] anew at each read(): a class freed and registered again
 * meanwhile, at another index, comes twice): the later entries dropped,
 * their dependency lines counted to the first (p1->remap), with a
 * warning.  Same key and another name is a collision of hashed pointers,
 * for build_key_map().  When none is dropped and these are all the
 * model's classes (always, but for a caller that read classes before),
 * the map made here is the one build_key_map() would make: it becomes
 * @keys, with the collisions marked as build_key_map() marks them.
 * Otherwise @keys is left as it was.
 */
static int drop_duplicate_classes(struct ld_model *m, struct pass1 *p1,
				  const char *origin, struct ld_map *keys)
{
	uint32_t first = p1->first, nr = m->nr_classes - first, i, j, old;
	uint32_t dups = 0, collisions = 0, *remap = NULL, *next = NULL;
	struct ld_map seen;
	int ret;

	ret = ld_map_init_in(&seen, nr, m->arena);
	for (i = first; !ret && i < m->nr_classes; i++) {
		const struct ld_class *c = &m->classes[i];

		if (!c->key_hash_known)
			continue;
		/* the map keeps a key's first class, @next the others */
		ret = ld_map_put(&seen, c->key_hash, i, &old);
		if (ret || old == LD_NONE)
			continue;
		if (!next) {
			next = malloc(nr * sizeof(*next));
			if (!next) {
				ret = -ENOMEM;
				break;
			}
			for (j = 0; j < nr; j++)
				next[j] = LD_NONE;
		}
		/* a duplicate of any class with its key, not only the first */
		while (c->name.len != m->classes[old].name.len ||
		       memcmp(c->name.s, m->classes[old].name.s, c->name.len)) {
			if (next[old - first] == LD_NONE) {
				next[old - first] = i;
				old = LD_NONE;
				break;
			}
			old = next[old - first];
		}
		if (old == LD_NONE) {
			collisions++;
			continue;
		}
		if (!remap) {
			remap = malloc(nr * sizeof(*remap));
			if (!remap) {
				ret = -ENOMEM;
				break;
			}
			for (j = 0; j < nr; j++)
				remap[j] = first + j;
		}
		remap[i - first] = old;
		dups++;
	}
	free(next);
	if (!ret && !dups && !first) {
		/* each key's first class, if another has its key */
		for (i = 0; collisions && i < m->nr_classes; i++) {
			if (!m->classes[i].key_hash_known)
				continue;
			old = ld_map_get(&seen, m->classes[i].key_hash);
			if (old != i) {
				m->classes[old].key_hash_known = false;
				collisions--;
			}
		}
		*keys = seen;
		return 0;
	}
	ld_map_free(&seen);
	if (ret || !dups) {
		free(remap);
		return ret;
	}
	/* in order: a duplicate's first entry has its new index already */
	for (i = first, j = first; i < m->nr_classes; i++) {
		if (remap[i - first] != i) {
			remap[i - first] = remap[remap[i - first] - first];
			continue;
		}
		remap[i - first] = j;
		if (j != i) {
			m->classes[j] = m->classes[i];
			m->classes[j].id = j;
		}
		j++;
	}
	m->nr_classes = j;
	p1->remap = remap;
	return ld_warn(m, "%s: %u %s listed again with the same key and name (the file changed while it was read?): counted once",
		       origin, dups, ld_plural(dups, "class", "classes"));
}

/* Lookahead for the fast paths, from a stream's buffer (ld_lines_avail) */
#define PROC_SPAN 512

#define B(x) (1u << LD_##x)

/*
 * What the usage characters imply about the two bits they do not show:
 * every usage bit is set by an acquisition, which mark_usage() also
 * marks LOCK_USED (a writer) or LOCK_USED_READ (a reader), and OPS
 * (CONFIG_DEBUG_LOCKDEP) counts every acquisition in the class's slot,
 * so "...." with OPS 0 is a class never taken: no bit set at all.  OPS
 * above 0 says less: the count is never reset when a zapped class's
 * slot is reused.
 */
static void usage_infer(struct ld_class *c)
{
	const uint16_t wr = B(USED_IN_HARDIRQ) | B(ENABLED_HARDIRQ) |
			    B(USED_IN_SOFTIRQ) | B(ENABLED_SOFTIRQ);

	if (c->usage & wr) {
		c->usage |= B(USED);
		c->usage_known |= B(USED);
	}
	if (c->usage & (LD_USAGE_IRQ & ~wr)) {
		c->usage |= B(USED_READ);
		c->usage_known |= B(USED_READ);
	}
	if (!c->usage && ld_known(c->ops) && !c->ops.v)
		c->usage_known = LD_USAGE_ALL;
}

#undef B

static int lockdep_classes(struct ld_model *m, const struct ld_section *s,
			   struct pass1 *p1, struct ld_diag *d)
{
	uint32_t nr_refs = 0, cur = LD_NONE, first = m->nr_classes, i, to;
	int have_ops = -1, have_prove = -1, ret = 0;
	bool open = false, cut = false; /* a class block without its blank */
	struct ld_lines l;
	const char *line;
	uint32_t slots;
	size_t len, n;
	char q[LD_QBUF];

	p1->first = first;
	p1->first_dep = m->nr_deps;
	/* a few thousand distinct lines: as many as there are classes */
	for (slots = 64;
	     slots < 8192 * DICT_SPARSE && slots < s->len / 256 * DICT_SPARSE;
	     slots *= 2)
		;
	/*
	 * 85 bytes a class at the least in real files; lockdep's limit.
	 * 40 bytes a dependency line in real files, 25 at the least: a
	 * bound that most files stay under, past which the array grows.
	 */
	if (ref_dict_init(&p1->dict, slots) ||
	    ld_reserve((void **)&m->classes, &m->alloc_classes,
		       m->nr_classes + (s->len / 48 < (1 << 17) ?
						s->len / 48 : 1 << 17),
		       sizeof(*m->classes)) ||
	    ld_reserve((void **)&m->deps, &m->alloc_deps,
		       m->nr_deps + s->len / 32, sizeof(*m->deps)))
		return -ENOMEM;
	ld_lines_section(&l, s);
	if (!ld_lines_next(&l, &line, &len))
		return ld_lines_error(&l, d) ?:
			       ld_diag(d, &l,
				       "empty file, expected 'all lock classes:'");
	if (len != 17 || memcmp(line, "all lock classes:", 17))
		return ld_diag(d, &l, "expected 'all lock classes:', got '%s'",
			       ld_quote(line, len, q, sizeof(q)));

	for (;;) {
		const char *p, *end, *tok;
		struct ld_class *c;
		bool ops = false, prove = false;
		uint64_t v;
		int64_t sv;

		/* most lines are a class's dependencies, on lines seen before */
		if (ld_fast_paths && cur != LD_NONE &&
		    ld_lines_avail(&l, PROC_SPAN)) {
			struct ld_run r;
			unsigned long k = 0;

			ld_run_init(&r, l.p, l.end);
			while (ld_run_line(&r, &n) && n > 5 &&
			       !memcmp(r.p, " -> [", 5)) {
				const char *e = r.p + n, *br;

				to = ref_dict_fast(&p1->dict, r.p + 4, n - 4);
				/*
				 * a line not seen before, checked as the
				 * general path checks it (which strips a CR)
				 */
				if (to == LD_NONE) {
					br = memchr(r.p + 5, ']', n - 5);
					if (e[-1] == '\r' || !br ||
					    br + 1 >= e || br[1] != ' ')
						break;
					to = ref_dict_add(&p1->dict, m->arena,
							  r.p + 5, n - 5);
					if (to == LD_NONE) {
						ret = -ENOMEM;
						goto out;
					}
				}
				ret = add_ref(m, cur, to);
				if (ret)
					goto out;
				ld_run_next(&r, n);
				k++;
			}
			if (k) {
				l.p = r.p;
				l.lineno += k;
				l.last_unterminated = false;
				nr_refs += k;
				open = true;
				continue;
			}
		}
		if (!ld_lines_next(&l, &line, &len))
			break;
		p = line;
		end = line + len;
		if (l.last_unterminated) {
			/* cut mid-line: keep what came before */
			m->partial = true;
			ret = ld_lines_error(&l, d);
			if (ret)
				goto out;
			ld_warn(m, "%s:%lu: truncated line ignored", l.file,
				l.base + l.lineno);
			cut = true;
			break;
		}
		open = len;
		if (!len)
			continue;
		if (line[0] == ' ') {
			if (!ld_eat(&p, end, " -> ["))
				goto bad_line;
			if (cur == LD_NONE) {
				ret = ld_diag(d, &l,
					      "dependency before any class");
				goto out;
			}
			tok = memchr(p, ']', end - p);
			if (!tok || tok + 1 >= end || tok[1] != ' ') {
				ret = ld_diag(
					d, &l,
					"expected '[key] name' after '->'");
				goto out;
			}
			to = ref_dict_add(&p1->dict, m->arena, p, end - p);
			ret = to == LD_NONE ? -ENOMEM : add_ref(m, cur, to);
			if (ret)
				goto out;
			nr_refs++;
			continue;
		}

		/* class line: key token first */
		tok = p;
		while (p < end && *p != ' ' && *p != ':')
			p++;
		if (p == tok || p >= end)
			goto bad_line;
		cur = ld_add_class(m);
		if (cur == LD_NONE) {
			ret = -ENOMEM;
			goto out;
		}
		c = &m->classes[cur];
		c->key_hash_known = parse_key(tok, p - tok, &c->key_hash);
		if (!c->key_hash_known)
			c->key_hash = 0; /* no key (resolve_ref()) */
		if (ld_eat(&p, end, " OPS:")) {
			ld_skip_spaces(&p, end);
			if (!ld_scan_i64(&p, end, &sv)) {
				ret = ld_diag(d, &l, "bad OPS: count");
				goto out;
			}
			c->ops.v = sv;
			c->ops.src = LD_SRC_PROC;
			ops = true;
		}
		if (ld_eat(&p, end, " FD:")) {
			ld_skip_spaces(&p, end);
			if (!ld_scan_u64(&p, end, &v) || v > INT64_MAX)
				goto bad_num;
			c->fd.v = v;
			c->fd.src = LD_SRC_PROC;
			if (!ld_eat(&p, end, " BD:")) {
				ret = ld_diag(d, &l,
					      "expected ' BD:' after FD");
				goto out;
			}
			ld_skip_spaces(&p, end);
			if (!ld_scan_u64(&p, end, &v) || v > INT64_MAX)
				goto bad_num;
			c->bd.v = v;
			c->bd.src = LD_SRC_PROC;
			if (end - p < 5 || p[0] != ' ') {
				ret = ld_diag(d, &l,
					      "expected usage characters");
				goto out;
			}
			for (i = 0; i < 4; i++) {
				/* chars: hardirq, hardirq-read, softirq, ... */
				static const unsigned int bit[4] = {
					LD_USED_IN_HARDIRQ,
					LD_USED_IN_HARDIRQ_READ,
					LD_USED_IN_SOFTIRQ,
					LD_USED_IN_SOFTIRQ_READ,
				};
				unsigned int in = 1u << bit[i];
				unsigned int en = 1u << (bit[i] + 2);

				switch (p[1 + i]) {
				case '.':
					break;
				case '-':
					c->usage |= in;
					break;
				case '+':
					c->usage |= en;
					break;
				case '?':
					c->usage |= in | en;
					break;
				default:
					ret = ld_diag(
						d, &l,
						"bad usage character '%s'",
						ld_quote(p + 1 + i, 1, q,
							 sizeof(q)));
					goto out;
				}
			}
			c->usage_known = LD_USAGE_IRQ;
			usage_infer(c);
			c->usage_src = LD_SRC_PROC;
			p += 5;
			prove = true;
		}
		if (!ld_eat(&p, end, ": ")) {
			if (p + 1 == end && *p == ':') {
				p++; /* empty name */
			} else {
				ret = ld_diag(
					d, &l,
					"expected ': ' before the class name, got '%s'",
					ld_quote(p, end - p, q, sizeof(q)));
				goto out;
			}
		}
		if (have_ops < 0) {
			have_ops = ops;
			have_prove = prove;
		} else if (have_ops != ops || have_prove != prove) {
			ret = ld_diag(
				d, &l,
				"fields differ from the first class (OPS:%s, FD/BD:%s)",
				have_ops ? "yes" : "no",
				have_prove ? "yes" : "no");
			goto out;
		}
		/* a compact copy: joins compare names a million times */
		c->name = ld_arena_str(m->arena, p, end - p);
		if (!c->name.s) {
			ret = -ENOMEM;
			goto out;
		}
		ld_derive_name_parts(c);
		continue;
bad_num:
		ret = ld_diag(d, &l, "bad number in '%s'",
			      ld_quote(line, len, q, sizeof(q)));
		goto out;
bad_line:
		ret = ld_diag(d, &l,
			      "expected a class or ' -> [key] name', got '%s'",
			      ld_quote(line, len, q, sizeof(q)));
		goto out;
	}

	ret = ld_lines_error(&l, d);
	if (ret)
		goto out;
	/* with PROVE_LOCKING l_show() ends every class with a blank line */
	if (have_prove > 0 && open && !cut) {
		m->partial = true;
		ld_warn(m,
			"%s:%lu: no blank line after the last class: the file was cut short",
			l.file, l.base + l.lineno);
	}
	m->have.classes = true;
	if (have_ops > 0)
		m->have.ops = true;
	if (have_prove > 0) {
		m->have.kernel_fd_bd = true;
		m->have.usage = true;
		m->have.deps = true;
	} else if (have_prove < 0 && nr_refs) {
		m->have.deps = true;
	}

	p1->nr_refs = nr_refs;
out:
	return ret;
}

/*
 * The dependencies of pass 1, their lines resolved now that every class
 * is known, their classes counted once (p1->remap); a line that names no
 * listed class is no dependency.
 */
static int lockdep_deps(struct ld_model *m, const struct ld_section *s,
			const struct pass1 *p1, const struct ld_map *keys,
			const struct key_text *kt)
{
	struct ref_res *res = ref_dict_resolve(&p1->dict, m->arena, m, keys,
					       kt);
	uint32_t i, j, to;

	if (!res)
		return -ENOMEM;
	for (i = j = p1->first_dep; i < m->nr_deps; i++) {
		struct ld_dep dep = m->deps[i];

		to = res[dep.to].c;
		if (to == LD_NONE) {
			m->nr_unresolved++;
			continue;
		}
		dep.to = to;
		if (p1->remap)
			dep.from = p1->remap[dep.from - p1->first];
		m->deps[j++] = dep;
	}
	m->nr_deps = j;
	if (m->nr_unresolved)
		ld_warn(m,
			"%s: %u %s classes that are not listed (the file changed while it was read?)",
			s->origin, m->nr_unresolved,
			ld_plural(m->nr_unresolved, "dependency names",
				  "dependencies name"));
	return 0;
}

static inline int add_chain_lock(struct ld_model *m, struct ld_chain *ch,
				 uint32_t c)
{
	if (m->nr_chain_locks >= m->alloc_chain_locks &&
	    ld_grow((void **)&m->chain_locks, &m->alloc_chain_locks,
		    m->nr_chain_locks, sizeof(uint32_t)))
		return -ENOMEM;
	m->chain_locks[m->nr_chain_locks++] = c;
	ch->depth++;
	return 0;
}

/* The word of "irq_context: <word>", @n bytes at @p: its mask, 4 if none */
static unsigned int irq_word(const char *p, size_t n)
{
	/*
	 * lc_show()'s irq_strs[], indexed by the kernel's mask (as
	 * ld_irq_ctx), told apart by length first: a loop over the four
	 * words took as many instructions, once per chain, as the lookup
	 * of a lock line
	 */
	switch (n) {
	case 1:
		return *p == '0' ? 0 : 4;
	case 7:
		return !memcmp(p, "softirq", 7) ? 1 :
		       !memcmp(p, "hardirq", 7) ? 2 :
						  4;
	case 15:
		return !memcmp(p, "hardirq|softirq", 15) ? 3 : 4;
	}
	return 4;
}

static struct ld_chain *new_chain(struct ld_model *out, unsigned int irq)
{
	struct ld_chain *ch;

	if (ld_grow((void **)&out->chains, &out->alloc_chains, out->nr_chains,
		    sizeof(*out->chains)))
		return NULL;
	ch = &out->chains[out->nr_chains++];
	memset(ch, 0, sizeof(*ch));
	ch->irq_context = irq;
	ch->kid = LD_NONE;
	ch->first = out->nr_chain_locks;
	return ch;
}

/*
 * What the chain lines are resolved against: read only.  With @dict, they
 * are not resolved but numbered there (a second thread's, started before
 * the classes are read), and the other fields are unused.
 */
struct chain_ctx {
	const struct ld_model *m;
	const struct ld_map *keys;
	const struct key_text *kt;
	struct ref_dict *dict;
};

/*
 * The usual lines from l->p on, as chain_lines() reads them: lock lines
 * that @cx's table has, blank lines, and "irq_context:" lines where a
 * chain may start (*@chp: the chain being read, NULL between two).  Stops
 * before any other line, or close to the end of what is buffered.  The
 * number of lines read, or -ENOMEM.
 */
static int chain_run(const struct chain_ctx *cx, struct ld_model *out,
		     struct ld_lines *l, struct ld_chain **chp)
{
	struct ld_chain *ch = *chp;
	struct ld_run r;
	unsigned int i;
	int k = 0;
	size_t n;

	ld_run_init(&r, l->p, l->end);
	while (ld_run_line(&r, &n)) {
		if (ch && n && *r.p == '[') {
			uint32_t c = cx->dict ?
					     ref_dict_fast(cx->dict, r.p, n) :
					     fast_ref(cx->kt, r.p, n);

			if (c == LD_NONE)
				break;
			if (add_chain_lock(out, ch, c))
				return -ENOMEM;
		} else if (!n) {
			ch = NULL;
		} else if (!ch && n > 13 && !memcmp(r.p, "irq_context: ", 13) &&
			   (i = irq_word(r.p + 13, n - 13)) < 4) {
			ch = new_chain(out, i);
			if (!ch)
				return -ENOMEM;
		} else {
			break;
		}
		ld_run_next(&r, n);
		k++;
	}
	if (k) {
		l->p = r.p;
		l->lineno += k;
		l->last_unterminated = false;
		*chp = ch;
	}
	return k;
}

/*
 * The lines [l->p, l->end) of /proc/lockdep_chains, after its first line,
 * into @out's chains: the model itself, or a scratch model for a second
 * thread (the classes are read from cx->m only).
 */
static int chain_lines(const struct chain_ctx *cx, struct ld_model *out,
		       struct ld_lines *l, uint32_t *unresolved,
		       struct ld_diag *d)
{
	struct ld_chain *ch = NULL;
	const char *line;
	size_t len;
	char q[LD_QBUF];

	for (;;) {
		const char *p, *end;
		uint32_t c;

		ld_lines_want(l, PROC_SPAN);
		if (ld_fast_paths) {
			int k = chain_run(cx, out, l, &ch);

			if (k < 0)
				return k;
			if (k)
				continue;
		}
		if (!ld_lines_next(l, &line, &len))
			break;
		p = line;
		end = line + len;
		if (l->last_unterminated) {
			if (ld_lines_error(l, d))
				return l->st->err;
			out->partial = true;
			ld_warn(out, "%s:%lu: truncated line ignored", l->file,
				l->base + l->lineno);
			return ld_lines_error(l, d);
		}
		if (!len) {
			/*
			 * A chain may have no locks: lc_show() leaves out the
			 * classes zapped while the chain waits for its RCU
			 * grace period to be freed
			 */
			ch = NULL;
			continue;
		}
		/* most lines are locks: test for them first */
		if (*p == '[') {
			struct pending_ref r;

			if (!ch)
				return ld_diag(
					d, l,
					"lock line outside a chain (no 'irq_context:' before it)");
			p = scan_key(p + 1, end, &r.key, &r.key_known);
			if (!p || p + 1 >= end || p[1] != ' ')
				return ld_diag(d, l, "expected '[key] name'");
			if (cx->dict) {
				c = ref_dict_add(cx->dict, out->arena, line + 1,
						 len - 1);
				if (c == LD_NONE || add_chain_lock(out, ch, c))
					return -ENOMEM;
				continue;
			}
			r.name = p + 2;
			r.len = end - (p + 2);
			c = resolve_ref(cx->m, cx->keys, &r);
			if (c == LD_NONE) {
				(*unresolved)++;
				if (ld_add_unlisted(out, out->nr_chain_locks,
						 r.name, r.len))
					return -ENOMEM;
			}
			if (add_chain_lock(out, ch, c))
				return -ENOMEM;
			continue;
		}
		if (ld_eat(&p, end, "irq_context: ")) {
			unsigned int i = irq_word(p, end - p);

			if (ch)
				return ld_diag(d, l,
					       "'irq_context:' inside a chain (lc_show() ends each chain with a blank line)");
			if (i == 4)
				return ld_diag(d, l,
					       "unknown irq_context '%s'",
					       ld_quote(p, end - p, q,
							sizeof(q)));
			ch = new_chain(out, i);
			if (!ch)
				return -ENOMEM;
			continue;
		}
		return ld_diag(
			d, l,
			"expected 'irq_context:' or '[key] name', got '%s'",
			ld_quote(line, len, q, sizeof(q)));
	}
	/* lc_show() ends every chain with a blank line */
	if (ch && !(l->st && l->st->err)) {
		out->partial = true;
		ld_warn(out,
			"%s:%lu: no blank line after the last chain: the file was cut short",
			l->file, l->base + l->lineno);
	}
	return ld_lines_error(l, d);
}

/*
 * Room for the chains of @len bytes of /proc/lockdep_chains: real files
 * have 126 bytes a chain and 42 a lock, a bound is taken well below.
 */
static int chains_reserve(struct ld_model *m, uint64_t len)
{
	if (ld_reserve((void **)&m->chains, &m->alloc_chains,
		       m->nr_chains + len / 64, sizeof(*m->chains)) ||
	    ld_reserve((void **)&m->chain_locks, &m->alloc_chain_locks,
		       m->nr_chain_locks + len / 24, sizeof(uint32_t)))
		return -ENOMEM;
	return 0;
}

size_t ld_chain_split_min = 4u << 20;

/*
 * The locks of @t, numbered in a dictionary, replaced by what @res
 * resolved each number to; a lock of no listed class keeps its name.
 */
static int chain_resolve(struct ld_model *t, const struct ref_res *res,
			 uint32_t *unresolved)
{
	uint32_t i;

	for (i = 0; i < t->nr_chain_locks; i++) {
		const struct ref_res *r = &res[t->chain_locks[i]];

		t->chain_locks[i] = r->c;
		if (r->c != LD_NONE)
			continue;
		(*unresolved)++;
		if (ld_add_unlisted(t, i, r->name, r->len))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The lines of @cs from @from to @to, with a stream of their own (@st)
 * when it is streamed; their line numbers are not the file's.
 */
static int chain_part_lines(struct ld_lines *l, struct ld_stream *st,
			    const struct ld_section *cs, uint64_t from,
			    uint64_t to)
{
	if (cs->stream) {
		if (ld_lines_stream(l, cs, st, from))
			return -ENOMEM;
		ld_lines_limit(l, NULL, to);
	} else {
		ld_lines_init(l, cs->origin, 0, cs->data + from, to - from);
	}
	return 0;
}

struct chain_half {
	struct chain_ctx cx; /* with a dictionary */
	struct ref_dict dict;
	struct ld_model *t;
	struct ld_model *tail; /* for the first thread's part, after it */
	uint64_t len; /* of the chains, from where this thread starts */
	/*
	 * The chains in chunks of ld_chain_chunk bytes from @at on, a chunk
	 * being the chains that start in it (chunk_bound()); the second
	 * thread takes them from the front, the first from the back, until
	 * the two meet: whichever goes faster does more (chunk_take())
	 */
	struct ld_section sec; /* the chains, their stream @proto */
	struct ld_stream proto;
	uint64_t at;
	uint32_t lo, hi; /* the chunks not taken yet, under @lock */
	int64_t *bound; /* where each starts, once found (chunk_bound()) */
	struct ld_stream st;
	pthread_t th;
	struct ld_diag d;
	int ret;
	/* the classes to resolve against, once the first thread has them */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int go; /* 0: not yet, 1: here they are, -1: never */
	const struct ld_model *m;
	const struct ld_map *keys;
	const struct key_text *kt;
	struct chain_ctx rcx; /* and resolved against them, as they are read */
	bool resolved; /* t's locks are classes now */
	uint32_t unresolved; /* of them, names of no listed class */
};

size_t ld_chain_chunk = 1u << 20;
#define LD_BOUND_UNKNOWN INT64_MIN

/*
 * Where chunk @i starts: at the first chain that starts at
 * at + i * ld_chain_chunk or after, where a line "irq_context: ..." follows
 * a blank line (and the parser's state is the same whichever line came
 * before).  It never goes back as @i grows: a chunk may be empty, never
 * overlap another.  Found once (@h->bound), for both threads to agree
 * whatever happens to the file; -1 when it could not be read.
 */
static int64_t chunk_bound(struct chain_half *h, uint32_t i)
{
	uint64_t from = h->at + (uint64_t)i * ld_chain_chunk;
	const char *hit;
	int64_t found;

	if (!i)
		return h->at;
	if (from >= h->sec.len)
		return h->sec.len;
	pthread_mutex_lock(&h->lock);
	found = h->bound[i];
	pthread_mutex_unlock(&h->lock);
	if (found != LD_BOUND_UNKNOWN)
		return found;
	if (h->sec.stream) {
		found = ld_stream_find(&h->sec, from, "\n\nirq_context: ");
		found = found == -1 ? (int64_t)h->sec.len :
			found < 0   ? -1 :
				      found + 2;
	} else {
		hit = memmem(h->sec.data + from, h->sec.len - from,
			     "\n\nirq_context: ", 15);
		found = hit ? hit + 2 - h->sec.data : (int64_t)h->sec.len;
	}
	pthread_mutex_lock(&h->lock);
	if (h->bound[i] == LD_BOUND_UNKNOWN)
		h->bound[i] = found;
	found = h->bound[i];
	pthread_mutex_unlock(&h->lock);
	return found;
}

/* A chunk to read, from the front or from the back; LD_NONE: none left */
static uint32_t chunk_take(struct chain_half *h, bool front, int *go)
{
	uint32_t i = LD_NONE;

	pthread_mutex_lock(&h->lock);
	if (h->lo < h->hi)
		i = front ? h->lo++ : --h->hi;
	*go = h->go;
	pthread_mutex_unlock(&h->lock);
	return i;
}

/* No more chunks for anyone: a part that failed is read again */
static void chunk_stop(struct chain_half *h)
{
	pthread_mutex_lock(&h->lock);
	h->hi = h->lo;
	pthread_mutex_unlock(&h->lock);
}

/*
 * Chunk @i's chains into @t, through the stream @st (a fresh buffer each
 * time): as chain_lines()
 */
static int chunk_lines(struct chain_half *h, uint32_t i,
		       const struct chain_ctx *cx, struct ld_model *t,
		       struct ld_stream *st, uint32_t *unresolved,
		       struct ld_diag *d)
{
	int64_t from = chunk_bound(h, i), to = chunk_bound(h, i + 1);
	struct ld_lines l;

	if (from < 0 || to < 0)
		return -EIO; /* read again by one thread, which says why */
	if (from >= to)
		return 0;
	ld_stream_buf_free(st->buf);
	st->buf = NULL;
	if (chain_part_lines(&l, st, &h->sec, from, to))
		return -ENOMEM;
	return chain_lines(cx, t, &l, unresolved, d);
}

/* A model that parsed part of the chains without anything to say */
static bool chain_part_clean(const struct ld_model *t, int ret)
{
	return !ret && !t->partial && !t->nr_warnings;
}

/*
 * The second thread's locks so far, numbered in its dictionary, resolved
 * now that the classes are known; the chunks it takes from now on are
 * resolved as they are read, as the first thread's are (@h->rcx)
 */
static int chain_half_resolve(struct chain_half *h)
{
	struct ref_res *res = ref_dict_resolve(&h->dict, h->t->arena, h->m,
					       h->keys, h->kt);
	int ret = res ? chain_resolve(h->t, res, &h->unresolved) : -ENOMEM;

	/* done with (its lines stay, in t's arena): freed by this thread */
	free(h->dict.slot);
	h->dict.slot = NULL;
	h->rcx = (struct chain_ctx){ h->m, h->keys, h->kt, NULL };
	h->resolved = !ret;
	return ret;
}

/*
 * The second thread: the chunks of chains it takes, their lines numbered
 * until the classes are known, then resolved; unless the first thread
 * will read them again (chain_part_clean()).
 */
static void *chain_half_run(void *arg)
{
	struct chain_half *h = arg;
	uint32_t unresolved = 0, i;
	int go = 0;

	/*
	 * its memory made ready here, while the first thread reads; room
	 * for all the chains: the first thread's are appended to them
	 */
	h->ret = chains_reserve(h->t, h->len) ?:
			 ref_dict_init(&h->dict, 8192 * DICT_SPARSE);
	/*
	 * the dictionary's lines: in a 2 MiB page, not 512 KiB of 4 KiB
	 * pages (as the first thread's, ld_parse_proc())
	 */
	ld_arena_expect(h->t->arena, h->len);
	while (chain_part_clean(h->t, h->ret) &&
	       (i = chunk_take(h, true, &go)) != LD_NONE) {
		if (go < 0)
			break;
		if (go > 0 && !h->resolved) {
			h->ret = chain_half_resolve(h);
			if (h->ret)
				break;
		}
		h->ret = chunk_lines(h, i, h->resolved ? &h->rcx : &h->cx,
				     h->t, &h->st,
				     h->resolved ? &h->unresolved : &unresolved,
				     &h->d);
	}
	if (!chain_part_clean(h->t, h->ret) || go < 0) {
		h->resolved = false;
		chunk_stop(h);
		return NULL;
	}
	if (h->resolved)
		return NULL;
	pthread_mutex_lock(&h->lock);
	while (!(go = h->go))
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	if (go > 0)
		h->ret = chain_half_resolve(h);
	return NULL;
}

/* Tell the second thread that @m's classes, @keys, are read; -1: never */
static void chain_half_go(struct chain_half *h, int go,
			  const struct ld_model *m, const struct ld_map *keys,
			  const struct key_text *kt)
{
	pthread_mutex_lock(&h->lock);
	if (!h->go) {
		h->m = m;
		h->keys = keys;
		h->kt = kt;
		h->go = go;
		pthread_cond_signal(&h->cond);
	}
	pthread_mutex_unlock(&h->lock);
}

/*
 * @t's locks of no listed class among its locks [@l0, @l1), their names,
 * at @base in @m
 */
static int copy_unlisted(struct ld_model *m, const struct ld_model *t,
			 uint32_t base, uint32_t l0, uint32_t l1)
{
	uint32_t i;

	for (i = 0; i < t->nr_unlisted; i++)
		if (t->unlisted[i].at >= l0 && t->unlisted[i].at < l1 &&
		    ld_add_unlisted(m, base + t->unlisted[i].at - l0,
				    t->unlisted[i].name.s,
				    t->unlisted[i].name.len))
			return -ENOMEM;
	return 0;
}

/*
 * @t's chains [@c0, @c1), whose locks are [@l0, @l1), after @m's, with
 * their locks and those locks' names
 */
static int chain_append_part(struct ld_model *m, const struct ld_model *t,
			     uint32_t c0, uint32_t c1, uint32_t l0,
			     uint32_t l1)
{
	uint32_t base = m->nr_chain_locks, i;

	/*
	 * the last index each will have: not one more, which at full size
	 * made ld_grow() fault in one more window, and a 2 MiB page with it
	 */
	if ((c1 > c0 &&
	     ld_grow((void **)&m->chains, &m->alloc_chains,
		     m->nr_chains + (c1 - c0) - 1, sizeof(*m->chains))) ||
	    (l1 > l0 &&
	     ld_grow((void **)&m->chain_locks, &m->alloc_chain_locks,
		     m->nr_chain_locks + (l1 - l0) - 1, sizeof(uint32_t))))
		return -ENOMEM;
	for (i = c0; i < c1; i++) {
		m->chains[m->nr_chains] = t->chains[i];
		m->chains[m->nr_chains++].first += base - l0;
	}
	if (l1 > l0)
		memcpy(m->chain_locks + base, t->chain_locks + l0,
		       (l1 - l0) * sizeof(uint32_t));
	if (copy_unlisted(m, t, base, l0, l1))
		return -ENOMEM;
	m->nr_chain_locks += l1 - l0;
	return 0;
}

/*
 * @t's chains after @m's; when @m has none yet (always, but for a caller
 * that parsed chains before), @t's arrays are taken over: they have room
 * for the whole file.
 */
static int chain_adopt(struct ld_model *m, struct ld_model *t)
{
	if (m->nr_chains || m->nr_chain_locks)
		return chain_append_part(m, t, 0, t->nr_chains, 0,
					 t->nr_chain_locks);
	ld_take_chains(m, t); /* t's unlisted stay, for all m's locks */
	return copy_unlisted(m, t, 0, 0, m->nr_chain_locks);
}

/*
 * Whether a big chains file is shared by two threads: a second thread
 * starts at once on its chunks (struct chain_half), while this one reads
 * /proc/lockdep.  Nothing is said here about the file's first line:
 * ld_parse_proc() checks it.  *@at: where the chains start.
 */
static bool chain_split(const struct ld_section *cs, uint64_t *at)
{
	struct ld_lines l;
	const char *line;
	size_t len;

	if (!ld_parallel || cs->len < ld_chain_split_min || !ld_chain_chunk)
		return false;
	ld_lines_section(&l, cs);
	if (!ld_lines_next(&l, &line, &len) || l.last_unterminated ||
	    !((len == 16 && !memcmp(line, "all lock chains:", 16)) ||
	      (len == 27 &&
	       !memcmp(line, "(buggered) all lock chains:", 27))))
		return false;
	*at = ld_lines_offset(&l, cs->data);
	return true;
}

static void chain_half_free(struct chain_half *h)
{
	free(h->dict.slot);
	free(h->bound);
	ld_model_free(h->t);
	ld_model_free(h->tail);
	h->t = h->tail = NULL;
	pthread_mutex_destroy(&h->lock);
	pthread_cond_destroy(&h->cond);
}

/* Start the second thread on the chains from @at on; or false */
static bool chain_half_start(struct chain_half *h,
			     const struct ld_section *cs, uint64_t at,
			     bool split)
{
	uint64_t n, i;

	memset(h, 0, sizeof(*h));
	if (!split)
		return false;
	/* chain_split() saw to ld_chain_chunk */
	n = (cs->len - at + ld_chain_chunk - 1) / ld_chain_chunk;
	if (n >= LD_NONE - 1)
		return false;
	pthread_mutex_init(&h->lock, NULL);
	pthread_cond_init(&h->cond, NULL);
	h->t = ld_model_new();
	h->tail = ld_model_new();
	h->len = cs->len - at;
	h->cx.dict = &h->dict;
	h->at = at;
	h->hi = n;
	h->bound = malloc((n + 1) * sizeof(*h->bound));
	for (i = 0; h->bound && i <= n; i++)
		h->bound[i] = LD_BOUND_UNKNOWN;
	/*
	 * the section's stream is copied here, not in the thread: this one
	 * reads the file's first line from it next
	 */
	h->sec = *cs;
	if (cs->stream) {
		h->proto = *cs->stream;
		h->proto.buf = NULL;
		h->sec.stream = &h->proto;
	}
	if (h->t && h->tail && h->bound &&
	    !ld_thread_create(&h->th, chain_half_run, h))
		return true;
	chain_half_free(h);
	return false;
}

/* Wait for the second thread; free its stream's buffer */
static void chain_half_join(struct chain_half *h)
{
	chain_half_go(h, -1, NULL, NULL, NULL); /* if not told: never */
	pthread_join(h->th, NULL);
	ld_stream_buf_free(h->st.buf);
	h->st.buf = NULL;
}

/* Where a chunk's chains and locks start in the first thread's part */
struct chunk_seg {
	uint32_t chain, lock;
};

/*
 * The chunks this thread takes from the back, into h->tail, resolved
 * against @cx; *@seg: where each one's chains start there, the last
 * chunk first; *@nr_seg of them.  A diagnostic stays in @d, whose line
 * numbers are not the file's: the caller parses the chains again for it.
 */
static int chain_tail(struct chain_half *h, const struct chain_ctx *cx,
		      struct chunk_seg **seg, uint32_t *nr_seg,
		      uint32_t *unresolved, struct ld_diag *d)
{
	struct ld_stream st = { .buf = NULL };
	struct ld_model *t = h->tail;
	uint32_t i, alloc = 0;
	int ret = 0, go;

	*seg = NULL;
	*nr_seg = 0;
	while ((i = chunk_take(h, false, &go)) != LD_NONE) {
		if (!*nr_seg)
			ret = chains_reserve(t, h->len / 2);
		if (!ret)
			ret = ld_grow((void **)seg, &alloc, *nr_seg,
				      sizeof(**seg));
		if (ret)
			break;
		(*seg)[(*nr_seg)++] = (struct chunk_seg){ t->nr_chains,
							  t->nr_chain_locks };
		ret = chunk_lines(h, i, cx, t, &st, unresolved, d);
		if (!chain_part_clean(t, ret))
			break;
	}
	if (!chain_part_clean(t, ret))
		chunk_stop(h);
	ld_stream_buf_free(st.buf);
	return ret;
}

/*
 * The first thread's scratch arrays, once appended: given back whole, for
 * the chain index and lock_stat, which come next, to reuse their pages
 */
static void chain_tail_give_back(struct ld_model *t)
{
	ld_free_big(t->chains, (size_t)t->alloc_chains * sizeof(*t->chains));
	ld_free_big(t->chain_locks,
		    (size_t)t->alloc_chain_locks * sizeof(uint32_t));
	t->chains = NULL;
	t->chain_locks = NULL;
	t->nr_chains = t->alloc_chains = 0;
	t->nr_chain_locks = t->alloc_chain_locks = 0;
}

/* The first thread's chunks after the second's, in file order */
static int chain_tail_append(struct ld_model *m, const struct ld_model *t,
			     const struct chunk_seg *seg, uint32_t nr_seg)
{
	uint32_t c1 = t->nr_chains, l1 = t->nr_chain_locks;
	int ret = 0;

	while (nr_seg-- && !ret) {
		ret = chain_append_part(m, t, seg[nr_seg].chain, c1,
					seg[nr_seg].lock, l1);
		c1 = seg[nr_seg].chain;
		l1 = seg[nr_seg].lock;
	}
	return ret;
}

/*
 * /proc/lockdep, then /proc/lockdep_chains (@cs, may be NULL): both name
 * classes by key and name, resolved against one table.  A big chains file
 * is shared by two threads (chain_split()), in chunks: the second one
 * takes them from the front at once and, the classes not being known yet,
 * numbers the distinct lock lines (struct ref_dict); this one reads the
 * classes and the dependencies, then takes chunks from the back until the
 * two meet.  Given the classes (chain_half_go()), the second thread
 * resolves each line number once as this thread resolves a line, and the
 * chunks it takes after that as this thread does.  However fast either
 * CPU goes, the two end within a chunk of each other.  The second thread's
 * arrays become the model's, and this thread's chunks are appended in
 * file order.  Should either part have anything to say (an error, a cut
 * last line: messages with line numbers), all the chains are parsed again
 * by this thread alone, as if there had been no split.
 */
int ld_parse_proc(struct ld_model *m, const struct ld_section *ls,
		  const struct ld_section *cs, struct ld_diag *d)
{
	struct ld_map keys = { 0 };
	struct key_text kt = { 0 };
	struct chain_ctx cx = { m, &keys, &kt, NULL };
	struct chain_half h;
	struct pass1 p1 = { 0 };
	struct ld_diag td;
	struct ld_lines l;
	const char *line;
	uint64_t at = 0;
	bool split = cs && chain_split(cs, &at);
	struct chunk_seg *seg = NULL;
	uint32_t unresolved = 0, tail_unresolved = 0, nr_seg = 0;
	double t = ld_now_ms();
	bool half;
	size_t len;
	char q[LD_QBUF];
	int ret;

	half = cs && chain_half_start(&h, cs, at, split);
	/* names, keys' text, the dependency lines' dictionary */
	ld_arena_expect(m->arena, ls->len);
	ret = lockdep_classes(m, ls, &p1, d);
	if (!ret)
		ret = drop_duplicate_classes(m, &p1, ls->origin, &keys);
	if (ret)
		goto out;
	t = ld_phase(m, "lockdep classes", t);
	ld_name_hash_build(m);
	if (!m->name_hash)
		ret = -ENOMEM;
	else if (!keys.keys)
		ret = build_key_map(m, &keys);
	if (ret)
		goto out;
	ret = key_text_build(&kt, m, &keys);
	if (ret)
		goto out;
	if (half)
		chain_half_go(&h, 1, m, &keys, &kt);
	if (cs) {
		ld_lines_section(&l, cs);
		if (!ld_lines_next(&l, &line, &len)) {
			ret = ld_lines_error(&l, d) ?:
				      ld_diag(d, &l,
					      "empty file, expected 'all lock chains:'");
			goto out;
		}
		if (len == 27 &&
		    !memcmp(line, "(buggered) all lock chains:", 27)) {
			m->chains_buggered = true;
			ret = ld_warn(m, "%s: '(buggered)': lockdep ran out of chain hlocks (MAX_LOCKDEP_CHAIN_HLOCKS); the chains it could not record are missing",
				      cs->origin);
			if (ret)
				goto out;
		} else if (len != 16 || memcmp(line, "all lock chains:", 16)) {
			ret = ld_diag(d, &l,
				      "expected 'all lock chains:', got '%s'",
				      ld_quote(line, len, q, sizeof(q)));
			goto out;
		}
	}
	ret = lockdep_deps(m, ls, &p1, &keys, &kt);
	if (ret)
		goto out;
	/*
	 * the dictionary is done with (its lines stay, in the arena): its
	 * 2 MiB page goes to the dependency index, next
	 */
	ld_free_big(p1.dict.slot,
		    ((size_t)p1.dict.mask + 1) * sizeof(*p1.dict.slot));
	p1.dict.slot = NULL;
	/*
	 * the dependency index too while the second thread reads chains:
	 * its duplicates are said where ld_model_finish() says them
	 */
	if (half) {
		t = ld_phase(m, "lockdep deps", t);
		ret = ld_index_deps_quiet(m, &m->dup_deps);
		if (ret)
			goto out;
		t = ld_phase(m, "adjacency", t);
	}
	if (half) {
		int tret = chain_tail(&h, &cx, &seg, &nr_seg, &tail_unresolved,
				      &td);

		chain_half_join(&h);
		half = false;
		if (chain_part_clean(h.t, h.ret) && h.resolved &&
		    chain_part_clean(h.tail, tret)) {
			ret = chain_adopt(m, h.t) ?:
				      chain_tail_append(m, h.tail, seg, nr_seg);
			unresolved += h.unresolved + tail_unresolved;
		} else {
			/* again, with the right line numbers (and no memory
			 * short before an error earlier in the file) */
			ret = chains_reserve(m, cs->len) ?:
				      chain_lines(&cx, m, &l, &unresolved, d);
		}
		/*
		 * the chains are complete: their index is begun before this
		 * thread frees the second one's memory (0.4 ms at full size)
		 */
		chain_tail_give_back(h.tail);
		if (!ret)
			ld_index_chains_start(m);
		chain_half_free(&h);
	} else if (cs) {
		ret = chains_reserve(m, cs->len) ?:
			      chain_lines(&cx, m, &l, &unresolved, d);
	}
	if (ret)
		goto out;
	if (cs) {
		m->have.chains = true;
		if (unresolved) {
			m->nr_unresolved += unresolved;
			ld_warn(m,
				"%s: %u chain %s not listed in the class list",
				cs->origin, unresolved,
				ld_plural(unresolved,
					  "entry names a class that is",
					  "entries name classes that are"));
		}
	}
	ld_phase(m, cs ? "lockdep deps and chains" : "lockdep deps", t);
out:
	if (half) {
		chain_half_join(&h);
		chain_half_free(&h);
	}
	free(seg);
	key_text_free(&kt);
	ld_map_free(&keys);
	pass1_free(&p1);
	return ret;
}

/* "lock-classes" -> "lock_classes", "find-mask forwards checks" -> ... */
static struct ld_str snake(struct ld_arena *a, const char *s, size_t len)
{
	struct ld_str r = ld_arena_str(a, s, len);
	uint32_t i;

	for (i = 0; r.s && i < r.len; i++) {
		char *c = (char *)&r.s[i];

		if (*c >= 'A' && *c <= 'Z')
			*c += 'a' - 'A';
		else if (!((*c >= 'a' && *c <= 'z') ||
			   (*c >= '0' && *c <= '9')))
			*c = '_';
	}
	return r;
}

int ld_parse_proc_stats(struct ld_model *m, const struct ld_section *s,
			struct ld_diag *d)
{
	struct ld_lines l;
	const char *line;
	size_t len;
	bool blank = false;
	const struct ld_stat *prove, *whole;
	char q[LD_QBUF];
	int nr = 0;

	ld_lines_init(&l, s->origin, s->base_line, s->data, s->len);
	while (ld_lines_next(&l, &line, &len)) {
		const char *p = line, *end = line + len, *label, *colon;
		struct ld_stat st = { 0 };
		uint64_t v;

		if (l.last_unterminated) {
			m->partial = true;
			ld_warn(m, "%s:%lu: truncated line ignored", l.file,
				l.base + l.lineno);
			break;
		}
		ld_skip_spaces(&p, end);
		if (p == end) {
			blank = true;
			continue;
		}
		label = p;
		colon = memchr(p, ':', end - p);
		if (!colon || colon == label) {
			return ld_diag(d, &l,
				       "expected 'label: value', got '%s'",
				       ld_quote(line, len, q, sizeof(q)));
		}
		p = colon + 1;
		ld_skip_spaces(&p, end);
		if (!ld_scan_u64(&p, end, &v) || v > INT64_MAX)
			return ld_diag(d, &l, "expected a number after '%s:'",
				       ld_quote(label, colon - label, q,
						sizeof(q)));
		if (ld_eat(&p, end, " [max: ")) {
			uint64_t mx;

			if (!ld_scan_u64(&p, end, &mx) || mx > INT64_MAX ||
			    !ld_eat(&p, end, "]"))
				return ld_diag(d, &l, "bad '[max: N]'");
			st.max.v = mx;
			st.max.src = LD_SRC_PROC;
		}
		ld_skip_spaces(&p, end);
		if (p != end)
			return ld_diag(d, &l, "trailing text '%s'",
				       ld_quote(p, end - p, q, sizeof(q)));
		st.label = ld_arena_str(m->arena, label, colon - label);
		st.key = snake(m->arena, label, colon - label);
		if (!st.label.s || !st.key.s)
			return -ENOMEM;
		if (ld_stat_get(m, st.key.s)) {
			ld_warn(m, "%s:%lu: duplicate counter '%s' ignored",
				l.file, l.base + l.lineno, st.key.s);
			continue;
		}
		st.value = v;
		st.src = LD_SRC_PROC;
		st.blank_before = blank;
		blank = false;
		if (ld_add_stat(m, &st))
			return -ENOMEM;
		nr++;
	}
	if (!nr)
		return ld_diag(d, &l, "no counters found");
	/*
	 * lockdep_stats_show() ends with "zapped classes", and with
	 * PROVE_LOCKING (the "dependency chains" line) "large chain blocks":
	 * a file without its last counter was cut at a line boundary.
	 */
	prove = ld_stat_get(m, "dependency_chains");
	whole = ld_stat_get(m, prove ? "large_chain_blocks" : "zapped_classes");
	if (!whole) {
		m->partial = true;
		ld_warn(m, "%s: no '%s:' line, the kernel's last counter: the file was cut short",
			l.file, prove ? "large chain blocks" : "zapped classes");
	}
	/*
	 * Without CONFIG_PROVE_LOCKING the kernel still prints what its
	 * #ifdef'd loop over the classes would count, as 0, sums of those,
	 * and counters that only lockdep.c's PROVE_LOCKING part updates
	 * (dependencies, chains, stack traces, the DEBUG_LOCKDEP lookups,
	 * checks and irq events): unknown, not zero.
	 */
	if (!prove && whole) {
		static const char *const placeholders[] = {
			"direct_dependencies",
			"indirect_dependencies",
			"all_direct_dependencies",
			"in_hardirq_chains",
			"in_softirq_chains",
			"in_process_chains",
			"stack_trace_entries",
			"combined_max_dependencies",
			"hardirq_safe_locks",
			"hardirq_unsafe_locks",
			"softirq_safe_locks",
			"softirq_unsafe_locks",
			"irq_safe_locks",
			"irq_unsafe_locks",
			"hardirq_read_safe_locks",
			"hardirq_read_unsafe_locks",
			"softirq_read_safe_locks",
			"softirq_read_unsafe_locks",
			"irq_read_safe_locks",
			"irq_read_unsafe_locks",
			"uncategorized_locks",
			"unused_locks",
			"chain_lookup_misses",
			"chain_lookup_hits",
			"cyclic_checks",
			"redundant_checks",
			"redundant_links",
			"find_mask_forwards_checks",
			"find_mask_backwards_checks",
			"hardirq_on_events",
			"hardirq_off_events",
			"redundant_hardirq_ons",
			"redundant_hardirq_offs",
			"softirq_on_events",
			"softirq_off_events",
			"redundant_softirq_ons",
			"redundant_softirq_offs",
		};
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(placeholders); i++) {
			struct ld_stat *st = (struct ld_stat *)ld_stat_get(
				m, placeholders[i]);

			if (st)
				st->src = LD_SRC_NONE;
		}
	}
	m->have.stats = true;
	return 0;
}
