// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the in-memory model: building, indexing, derived values and
 * lookups.  The parsers fill it; ld_model_finish() builds the indexes.
 */
#include <pthread.h>
#include <stdlib.h>

#include "ld_internal.h"

const char *ld_src_name(enum ld_src src)
{
	switch (src) {
	case LD_SRC_PROC:
		return "proc";
	case LD_SRC_EXPORT:
		return "export";
	case LD_SRC_COMPUTED:
		return "computed";
	case LD_SRC_DERIVED:
		return "derived";
	default:
		return "unknown";
	}
}

static const char *const usage_knames[] = {
#define LD_X(bit, word) #bit,
	LD_USAGE_BITS(LD_X)
#undef LD_X
};

static const char *const usage_words[] = {
#define LD_X(bit, word) word,
	LD_USAGE_BITS(LD_X)
#undef LD_X
};

const char *const ld_ls_names[LD_LS_NR] = {
	"con-bounces",	  "contentions",  "waittime-min",   "waittime-max",
	"waittime-total", "waittime-avg", "acq-bounces",    "acquisitions",
	"holdtime-min",	  "holdtime-max", "holdtime-total", "holdtime-avg",
};

const char *ld_usage_kname(unsigned int bit)
{
	return bit < LD_NR_USAGE_BITS ? usage_knames[bit] : "?";
}

const char *ld_usage_word(unsigned int bit)
{
	return bit < LD_NR_USAGE_BITS ? usage_words[bit] : "?";
}

int ld_usage_from_kname(const char *s, size_t len)
{
	unsigned int i;

	for (i = 0; i < LD_NR_USAGE_BITS; i++)
		if (strlen(usage_knames[i]) == len &&
		    !memcmp(usage_knames[i], s, len))
			return i;
	return -1;
}

int ld_usage_from_word(const char *s)
{
	unsigned int i;

	for (i = 0; i < LD_NR_USAGE_BITS; i++)
		if (!strcmp(usage_words[i], s))
			return i;
	return -1;
}

/*
 * kernel/locking/lockdep.c get_usage_char(): per state and read variant,
 * '.' neither, '-' used in irq, '+' taken with irqs enabled, '?' both.
 * A half we do not know prints as '*'.
 */
void ld_usage_chars(uint16_t mask, uint16_t known, char out[5])
{
	static const unsigned int bits[4] = {
		LD_USED_IN_HARDIRQ,
		LD_USED_IN_HARDIRQ_READ,
		LD_USED_IN_SOFTIRQ,
		LD_USED_IN_SOFTIRQ_READ,
	};
	unsigned int i;

	for (i = 0; i < 4; i++) {
		unsigned int in = 1u << bits[i], en = 1u << (bits[i] + 2);
		char c = '.';

		if ((known & (in | en)) != (in | en))
			c = '*';
		else if (mask & en)
			c = (mask & in) ? '?' : '+';
		else if (mask & in)
			c = '-';
		out[i] = c;
	}
	out[4] = '\0';
}

const char *ld_dep_type_str(unsigned int type, bool known, char *buf)
{
	static const char *const names[4] = { "SR", "ER", "SN", "EN" };
	unsigned int i;
	char *p = buf;

	if (!known) {
		strcpy(buf, "?");
		return buf;
	}
	*p = '\0';
	for (i = 0; i < 4; i++) {
		if (!(type & (1u << i)))
			continue;
		if (p != buf)
			*p++ = '|';
		memcpy(p, names[i], 2);
		p += 2;
		*p = '\0';
	}
	if (p == buf)
		strcpy(buf, "-");
	return buf;
}

const char *ld_irq_ctx_str(unsigned int ctx)
{
	static const char *const s[4] = { "0", "softirq", "hardirq",
					  "hardirq|softirq" };

	return s[ctx & 3];
}

const char *ld_wait_name(const struct ld_model *m, int64_t v)
{
	static const char *const s[] = { "inv", "free", "spin", "config",
					 "sleep" };
	static const char *const plain[] = { "inv", "free", "spin", "sleep" };

	if (m->have.wait_plain)
		return v >= 0 && v <= 3 ? plain[v] : NULL;
	if (v == LD_WAIT_CONFIG && !m->have.wait_config)
		return NULL; /* LD_WAIT_CONFIG, or LD_WAIT_SLEEP without it */
	return v >= 0 && v <= LD_WAIT_SLEEP ? s[v] : NULL;
}

const char *ld_lock_type_name(int64_t v)
{
	static const char *const s[] = { "normal", "percpu", "wait-override" };

	return v >= 0 && v < 3 ? s[v] : NULL;
}

struct ld_str ld_chain_lock_name(const struct ld_model *m, uint32_t at)
{
	struct ld_str none = { "", 0 };
	uint32_t lo = 0, hi = m->nr_unlisted, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->unlisted[mid].at < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nr_unlisted && m->unlisted[lo].at == at ?
		       m->unlisted[lo].name :
		       none;
}

void ld_take_chains(struct ld_model *m, struct ld_model *t)
{
	free(m->chains);
	free(m->chain_locks);
	free(m->chain_reads);
	free(m->cc_off);
	free(m->cc);
	m->chains = t->chains;
	m->nr_chains = t->nr_chains;
	m->alloc_chains = t->alloc_chains;
	m->chain_locks = t->chain_locks;
	m->chain_reads = t->chain_reads;
	m->nr_chain_locks = t->nr_chain_locks;
	m->alloc_chain_locks = t->alloc_chain_locks;
	m->alloc_chain_reads = t->alloc_chain_reads;
	m->cc_off = t->cc_off;
	m->cc = t->cc;
	t->chains = NULL;
	t->chain_locks = NULL;
	t->chain_reads = NULL;
	t->cc_off = t->cc = NULL;
	t->nr_chains = t->alloc_chains = 0;
	t->nr_chain_locks = t->alloc_chain_locks = t->alloc_chain_reads = 0;
}

int ld_add_unlisted(struct ld_model *m, uint32_t at, const char *name,
		    size_t len)
{
	struct ld_unlisted *u;

	if (ld_grow((void **)&m->unlisted, &m->alloc_unlisted, m->nr_unlisted,
		    sizeof(*m->unlisted)))
		return -ENOMEM;
	u = &m->unlisted[m->nr_unlisted];
	u->at = at;
	u->name = ld_arena_str(m->arena, name, len);
	if (!u->name.s)
		return -ENOMEM;
	m->nr_unlisted++;
	return 0;
}

struct ld_model *ld_model_new(void)
{
	struct ld_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->arena = ld_arena_new();
	if (!m->arena) {
		free(m);
		return NULL;
	}
	m->consistent = true;
	m->loaded = LD_LOAD_ALL;
	m->load_start = ld_now_ms();
	return m;
}

static int index_chains_join(struct ld_model *m);

void ld_model_free(struct ld_model *m)
{
	uint32_t i;

	if (!m)
		return;
	index_chains_join(m); /* not while a thread reads it */
	free(m->classes);
	free(m->deps);
	free(m->out_off);
	free(m->out); /* and in */
	free(m->in_off);
	free(m->chains);
	free(m->chain_locks);
	free(m->chain_reads);
	free(m->unlisted);
	free(m->cc_off);
	free(m->cc);
	free(m->traces);
	free(m->frames);
	free(m->stats);
	free(m->lockstat);
	free(m->release);
	free(m->captured);
	free(m->origin);
	ld_sections_free(m->sections, m->nr_sections);
	for (i = 0; i < m->nr_parts; i++) {
		free(m->parts[i].release);
		free(m->parts[i].captured);
		free(m->parts[i].origin);
		ld_sections_free(m->parts[i].sections,
				 m->parts[i].nr_sections);
	}
	free(m->parts);
	for (i = 0; i < m->nr_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	free(m->name_hash);
	free(m->bfs_queue);
	free(m->bfs_seen);
	free(m->bfs_xr);
	ld_arena_free(m->arena);
	free(m);
}

void ld_sections_free(struct ld_section *s, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].origin);
		free(s[i].path);
		ld_section_free_data(&s[i]);
	}
	free(s);
}

uint32_t ld_add_class(struct ld_model *m)
{
	struct ld_class *c;
	unsigned int i;

	if (ld_grow((void **)&m->classes, &m->alloc_classes, m->nr_classes,
		    sizeof(*m->classes)))
		return LD_NONE;
	c = &m->classes[m->nr_classes];
	memset(c, 0, sizeof(*c));
	c->id = m->nr_classes;
	c->name.s = "";
	c->base.s = "";
	c->key_sym.s = "";
	for (i = 0; i < LD_NR_USAGE_BITS; i++)
		c->usage_trace[i] = LD_NONE;
	c->lockstat = LD_NONE;
	c->name_next = LD_NONE;
	return m->nr_classes++;
}

int ld_add_dep(struct ld_model *m, const struct ld_dep *dep)
{
	if (ld_grow((void **)&m->deps, &m->alloc_deps, m->nr_deps,
		    sizeof(*m->deps)))
		return -ENOMEM;
	m->deps[m->nr_deps++] = *dep;
	return 0;
}

int ld_add_stat(struct ld_model *m, const struct ld_stat *st)
{
	if (ld_grow((void **)&m->stats, &m->alloc_stats, m->nr_stats,
		    sizeof(*m->stats)))
		return -ENOMEM;
	m->stats[m->nr_stats++] = *st;
	return 0;
}

/*
 * /proc prints name + "#N" (name_version > 1) + "/N" (subclass != 0).
 * Split them back off; a class whose own name ends in "/3" or "#2" is
 * indistinguishable, hence LD_SRC_DERIVED.
 */
void ld_derive_name_parts(struct ld_class *c)
{
	const char *s = c->name.s;
	size_t n = c->name.len, i;
	int64_t ver = 1, sub = 0;

	i = n;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
		i--;
	if (n - i == 1 && i > 1 && s[i - 1] == '/' && s[i] != '0' &&
	    s[i] - '0' < LD_MAX_SUBCLASSES) {
		sub = atoi(s + i);
		n = i - 1;
		i = n;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
	}
	if (i < n && i > 1 && s[i - 1] == '#' && n - i <= 5 && s[i] != '0') {
		int64_t v = 0;
		size_t k;

		for (k = i; k < n; k++)
			v = v * 10 + (s[k] - '0');
		if (v > 1) {
			ver = v;
			n = i - 1;
		}
	}
	c->base.s = s;
	c->base.len = n;
	c->name_version.v = ver;
	c->name_version.src = LD_SRC_DERIVED;
	c->subclass.v = sub;
	c->subclass.src = LD_SRC_DERIVED;
}

uint32_t *ld_class_ids_sorted(const struct ld_model *m,
			      int (*cmp)(const void *, const void *, void *))
{
	uint32_t *ids = malloc((m->nr_classes + 1) * sizeof(*ids)), i;

	if (!ids)
		return NULL;
	for (i = 0; i < m->nr_classes; i++)
		ids[i] = i;
	qsort_r(ids, m->nr_classes, sizeof(*ids), cmp, (void *)m);
	return ids;
}

void ld_name_hash_build(struct ld_model *m)
{
	uint32_t n = 64, i;

	while (n < m->nr_classes * 2)
		n *= 2;
	free(m->name_hash);
	m->name_hash = malloc(n * sizeof(uint32_t));
	if (!m->name_hash) {
		m->name_hash_mask = 0;
		return;
	}
	memset(m->name_hash, 0xff, n * sizeof(uint32_t));
	m->name_hash_mask = n - 1;
	/* Insert in reverse so that chains list ids in ascending order. */
	for (i = m->nr_classes; i-- > 0;) {
		struct ld_class *c = &m->classes[i];
		uint32_t h = ld_hash_bytes(c->name.s, c->name.len) & (n - 1);

		c->name_next = m->name_hash[h];
		m->name_hash[h] = i;
	}
}

unsigned int ld_find_class(const struct ld_model *m, const char *name,
			   size_t len, uint32_t *ids, unsigned int max)
{
	unsigned int found = 0;
	uint32_t i;

	if (!m->name_hash)
		return 0;
	i = m->name_hash[ld_hash_bytes(name, len) & m->name_hash_mask];
	for (; i != LD_NONE; i = m->classes[i].name_next) {
		const struct ld_class *c = &m->classes[i];

		if (c->name.len == len && !memcmp(c->name.s, name, len)) {
			if (found < max)
				ids[found] = i;
			found++;
		}
	}
	return found;
}

/* Edit distance with an upper bound: returns > limit when exceeded. */
static unsigned int edit_distance(const char *a, size_t la, const char *b,
				  size_t lb, unsigned int limit)
{
	unsigned int row[129], i, j;

	if (la > 128 || lb > 128)
		return limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned int prev = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			unsigned int cur = row[j];
			unsigned int v = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

static const char *memmem_n(const char *h, size_t hl, const char *n, size_t nl)
{
	size_t i;

	if (!nl || nl > hl)
		return NULL;
	for (i = 0; i + nl <= hl; i++)
		if (h[i] == n[0] && !memcmp(h + i, n, nl))
			return h + i;
	return NULL;
}

/* lower-case letters and digits only: "&rq->__lock" -> "rqlock" */
static size_t squash(const char *s, size_t len, char *out, size_t size)
{
	size_t i, o = 0;

	for (i = 0; i < len && o < size; i++) {
		char c = s[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			out[o++] = c;
	}
	return o;
}

/*
 * Close candidates: small edit distance on the name, or on the name with
 * punctuation removed, or the argument contained in the name.
 */
unsigned int ld_suggest_classes(const struct ld_model *m, const char *name,
				uint32_t *ids, unsigned int max)
{
	unsigned int score[16], nr = 0, k, limit;
	size_t len = strlen(name), ql;
	char q[129], cn[129];
	uint32_t i;

	if (max > 16)
		max = 16;
	limit = len / 4 + 1;
	if (limit > 6)
		limit = 6;
	ql = squash(name, len, q, sizeof(q) - 1);
	for (i = 0; i < m->nr_classes; i++) {
		const struct ld_class *c = &m->classes[i];
		unsigned int s, s2;
		size_t cl;

		s = edit_distance(name, len, c->name.s, c->name.len, limit);
		cl = squash(c->name.s, c->name.len, cn, sizeof(cn) - 1);
		s2 = edit_distance(q, ql, cn, cl, limit) + 1;
		if (s2 < s)
			s = s2;
		/* substring hits rank after close spellings */
		if (s > limit && len >= 3 &&
		    memmem_n(c->name.s, c->name.len, name, len))
			s = limit + 1 +
			    (c->name.len - len > 60 ?
				     60 :
				     (unsigned int)(c->name.len - len));
		else if (s > limit)
			continue;
		if (nr == max && s >= score[nr - 1])
			continue;
		if (nr < max)
			nr++;
		for (k = nr - 1; k > 0 && score[k - 1] > s; k--) {
			score[k] = score[k - 1];
			ids[k] = ids[k - 1];
		}
		score[k] = s;
		ids[k] = i;
	}
	return nr;
}

const struct ld_stat *ld_stat_get(const struct ld_model *m, const char *key)
{
	size_t len = strlen(key);
	uint32_t i;

	for (i = 0; i < m->nr_stats; i++)
		if (m->stats[i].key.len == len &&
		    !memcmp(m->stats[i].key.s, key, len))
			return &m->stats[i];
	return NULL;
}

/*
 * A class's dependency on another listed twice (the kernel keeps one
 * entry per pair: a file that changed while it was read, or was edited):
 * every entry after the first dropped, with a warning; or 0.
 */
static uint32_t drop_duplicate_deps(struct ld_model *m, uint32_t *stamp)
{
	uint32_t n = m->nr_classes, c, k, i, j, dups = 0;

	memset(stamp, 0, (n + 1) * sizeof(*stamp));
	for (c = 0; c < n; c++) {
		for (k = m->out_off[c]; k < m->out_off[c + 1]; k++) {
			struct ld_dep *d = &m->deps[m->out[k]];

			if (stamp[d->to] == c + 1) {
				d->from = LD_NONE; /* dropped below */
				dups++;
			}
			stamp[d->to] = c + 1;
		}
	}
	if (!dups)
		return 0;
	for (i = 0, j = 0; i < m->nr_deps; i++)
		if (m->deps[i].from != LD_NONE)
			m->deps[j++] = m->deps[i];
	m->nr_deps = j;
	return dups;
}

void ld_warn_dup_deps(struct ld_model *m, uint32_t dups)
{
	if (dups)
		ld_warn(m, "%u dependency %s an earlier one: ignored", dups,
			ld_plural(dups, "entry repeats", "entries repeat"));
}

int ld_index_deps(struct ld_model *m)
{
	uint32_t dups = 0;
	int ret = ld_index_deps_quiet(m, &dups);

	ld_warn_dup_deps(m, dups);
	return ret;
}

/*
 * CSR adjacency in both directions, in dependency-list order; duplicate
 * dependencies dropped first, and counted in *@dups.  Writes nothing else
 * in @m but the deps: a second thread can build it while the first parses
 * the files after deps.
 */
int ld_index_deps_quiet(struct ld_model *m, uint32_t *dups)
{
	uint32_t dropped;
	uint32_t n = m->nr_classes, i, *pos;
	int ret;

	m->out_off = calloc(n + 2, sizeof(uint32_t));
	m->in_off = calloc(n + 2, sizeof(uint32_t));
	/*
	 * out and in in one block, freed with out: at full size (262144
	 * dependencies) they fill one 2 MiB page together, and took two apart
	 * (each of this machine's fresh huge pages may cost milliseconds)
	 */
	m->out = ld_alloc_big((2 * (size_t)m->nr_deps ?: 1) * sizeof(uint32_t));
	m->in = m->out ? m->out + m->nr_deps : NULL;
	pos = malloc((n + 1) * sizeof(uint32_t));
	if (!m->out_off || !m->in_off || !m->out || !pos) {
		ret = -ENOMEM;
		goto drop;
	}
	ld_populate(m->out, 2 * (size_t)m->nr_deps * sizeof(uint32_t));
	for (i = 0; i < m->nr_deps; i++) {
		m->out_off[m->deps[i].from + 1]++;
		m->in_off[m->deps[i].to + 1]++;
	}
	for (i = 0; i < n; i++) {
		m->out_off[i + 1] += m->out_off[i];
		m->in_off[i + 1] += m->in_off[i];
	}
	memcpy(pos, m->out_off, n * sizeof(uint32_t));
	for (i = 0; i < m->nr_deps; i++)
		m->out[pos[m->deps[i].from]++] = i;
	memcpy(pos, m->in_off, n * sizeof(uint32_t));
	for (i = 0; i < m->nr_deps; i++)
		m->in[pos[m->deps[i].to]++] = i;
	dropped = drop_duplicate_deps(m, pos);
	if (!dropped) {
		free(pos);
		return 0;
	}
	*dups += dropped;
	ret = 1; /* again, without them: rare, so simply */
drop:
	free(pos);
	free(m->out_off);
	free(m->in_off);
	free(m->out); /* and in */
	m->out_off = m->in_off = m->out = m->in = NULL;
	return ret < 0 ? ret : ld_index_deps_quiet(m, dups);
}

/*
 * The chain index (cc_off/cc: the chains containing each class, in
 * ascending order), built in parts: the chains are cut into @nr parts of
 * about as many locks, and each class's range into a sub-range for each
 * part, counted first, so that two threads can fill the parts (the
 * threaded index below: at full size its own thread's 4-5 ms had the
 * first thread waiting 1.4 ms, median, after its own work).  A class
 * twice in a chain leaves a hole at the end of its part's sub-range; with
 * more than one part, the classes with holes are compacted last, so that
 * the index is the same however many parts it had.
 */
#define LD_INDEX_PARTS 8

/* A filling thread's own: where each class's next chain goes */
struct index_scratch {
	/* side by side: each lock reads and writes both */
	struct {
		uint32_t pos; /* where the class's next chain goes */
		uint32_t last; /* the chain it was last seen in */
	} *pl;
	unsigned char *holes; /* the classes it left holes for */
};

struct index_parts {
	struct ld_model *m;
	uint32_t n; /* classes */
	unsigned int nr; /* parts, up to LD_INDEX_PARTS */
	uint32_t part[LD_INDEX_PARTS + 1]; /* each part's first chain */
	uint32_t *start; /* [part][class]: where its sub-range starts */
	struct index_scratch s[2]; /* one per thread that fills */
};

/*
 * The parts, their sub-ranges, cc_off and cc (not filled yet); -ENOMEM
 * (cc_off and cc NULL then)
 */
static int index_parts_count(struct index_parts *ip)
{
	struct ld_model *m = ip->m;
	uint32_t n = ip->n, i, k, c, l, l1, *row;
	bool flat;

	/*
	 * As parsed, the chains' locks lie one chain after the other: then
	 * each part's are counted in one run, not chain by chain (a loop of
	 * a different length each time, mispredicted: 3 ms of 8 at full
	 * size), and the parts are cut at the lock they start with
	 */
	for (i = 0, l = 0; i < m->nr_chains && m->chains[i].first == l; i++)
		l += m->chains[i].depth;
	flat = i == m->nr_chains && l == m->nr_chain_locks;
	for (k = 0; k <= ip->nr; k++) {
		uint64_t want = (uint64_t)m->nr_chain_locks * k / ip->nr;
		uint32_t lo = k ? ip->part[k - 1] : 0, hi = m->nr_chains;

		while (flat && lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (m->chains[mid].first < want)
				lo = mid + 1;
			else
				hi = mid;
		}
		ip->part[k] = k == ip->nr ? m->nr_chains :
			      flat	  ? lo :
					    (uint64_t)m->nr_chains * k / ip->nr;
	}
	m->cc_off = calloc(n + 2, sizeof(uint32_t));
	m->cc = ld_alloc_big((m->nr_chain_locks + 1) * sizeof(uint32_t));
	if (!m->cc_off || !m->cc) {
		free(m->cc_off);
		free(m->cc);
		m->cc_off = m->cc = NULL;
		return -ENOMEM;
	}
	for (k = 0; k < 2; k++)
		if (ip->s[k].holes)
			memset(ip->s[k].holes, 0, n);
	ld_populate(m->cc, (m->nr_chain_locks + 1) * sizeof(uint32_t));
	/* each part's locks of each class */
	for (k = 0; k < ip->nr; k++) {
		row = ip->start + (size_t)k * n;
		memset(row, 0, n * sizeof(*row));
		if (!flat) {
			for (i = ip->part[k]; i < ip->part[k + 1]; i++) {
				const struct ld_chain *ch = &m->chains[i];

				for (l = 0; l < ch->depth; l++)
					if (m->chain_locks[ch->first + l] !=
					    LD_NONE)
						row[m->chain_locks[ch->first +
								   l]]++;
			}
			continue;
		}
		l = ip->part[k] < m->nr_chains ? m->chains[ip->part[k]].first :
						 m->nr_chain_locks;
		l1 = ip->part[k + 1] < m->nr_chains ?
			     m->chains[ip->part[k + 1]].first :
			     m->nr_chain_locks;
		for (; l < l1; l++)
			if (m->chain_locks[l] != LD_NONE)
				row[m->chain_locks[l]]++;
	}
	/* ... made where each part's sub-range starts */
	for (c = 0, l = 0; c < n; c++) {
		m->cc_off[c] = l;
		for (k = 0; k < ip->nr; k++) {
			uint32_t *p = ip->start + (size_t)k * n + c, nr = *p;

			*p = l;
			l += nr;
		}
	}
	m->cc_off[n] = l;
	return 0;
}

/* Part @k, with @s; its holes LD_NONE, their classes noted */
static void index_part_fill(struct index_parts *ip, unsigned int k,
			    struct index_scratch *s)
{
	struct ld_model *m = ip->m;
	uint32_t n = ip->n, i, x, c, p;
	const uint32_t *row = ip->start + (size_t)k * n;
	/* where the next part's sub-ranges start, or the ranges end */
	const uint32_t *end = k + 1 < ip->nr ? row + n : m->cc_off + 1;

	for (c = 0; c < n; c++) {
		s->pl[c].pos = row[c];
		s->pl[c].last = LD_NONE;
	}
	for (i = ip->part[k]; i < ip->part[k + 1]; i++) {
		const uint32_t *cl = m->chain_locks + m->chains[i].first;
		uint32_t d = m->chains[i].depth;

		for (x = 0; x < d; x++) {
			bool again;

			c = cl[x];
			if (c == LD_NONE)
				continue;
			/*
			 * a class twice in a chain is listed once: written
			 * over by its next chain.  Not cc[pos - 1] compared:
			 * at full size each of those loads missed the cache
			 * (8191 ranges written at once), 7% of the fill.
			 */
			again = s->pl[c].last == i;
			s->pl[c].last = i;
			m->cc[s->pl[c].pos] = i;
			s->pl[c].pos += !again;
		}
	}
	for (c = 0; c < n; c++) {
		for (p = s->pl[c].pos; p < end[c]; p++)
			m->cc[p] = LD_NONE;
		if (s->pl[c].pos < end[c] && s->holes)
			s->holes[c] = 1;
	}
}

/* Once every part is filled: each class with holes, its holes last */
static void index_parts_compact(struct index_parts *ip)
{
	struct ld_model *m = ip->m;
	uint32_t c, p, q;

	for (c = 0; c < ip->n; c++) {
		if (!ip->s[0].holes[c] && !ip->s[1].holes[c])
			continue;
		for (p = q = m->cc_off[c]; p < m->cc_off[c + 1]; p++)
			if (m->cc[p] != LD_NONE)
				m->cc[q++] = m->cc[p];
		for (; q < m->cc_off[c + 1]; q++)
			m->cc[q] = LD_NONE;
	}
}

/*
 * The chain index of @n classes, in one part, by this thread: reads only
 * the chains, so a model holding nothing else (a parser's scratch model)
 * can have it built while the classes are being parsed elsewhere.
 */
int ld_index_chains(struct ld_model *m, uint32_t n)
{
	struct index_parts ip = { .m = m, .n = n, .nr = 1 };
	int ret;

	ip.start = malloc((size_t)n * sizeof(*ip.start) + 1);
	ip.s[0].pl = malloc((size_t)n * sizeof(*ip.s[0].pl) + 1);
	ret = ip.start && ip.s[0].pl ? index_parts_count(&ip) : -ENOMEM;
	if (!ret)
		index_part_fill(&ip, 0, &ip.s[0]);
	free(ip.start);
	free(ip.s[0].pl);
	return ret;
}

/* The first character of "%lld" of @v, without snprintf() */
static char first_char(int64_t v)
{
	uint64_t u = v;

	if (v < 0)
		return '-';
	while (u >= 10)
		u /= 10;
	return '0' + u;
}

/*
 * The name lock_stat prints for a class (seq_stats() in lockdep_proc.c):
 * the name cut to 37 - 2 per suffix characters, then "#N" and "/N", each
 * cut to 2 characters.
 */
static size_t lockstat_name(const struct ld_class *c, char *buf)
{
	size_t namelen = 38, n;
	int64_t ver = c->name_version.v, sub = c->subclass.v;

	if (c->base_is_key) {
		/* no name: no version (count_matching_names()), the subclass */
		ver = 0;
		sub = ld_known(c->subclass) ? c->subclass.v : 0;
	} else if (!ld_known(c->name_version)) {
		ver = 1;
		sub = 0;
	}
	if (ver > 1)
		namelen -= 2;
	if (sub)
		namelen -= 2;
	n = c->base_is_key ? c->name.len : c->base.len;
	if (n > namelen - 1)
		n = namelen - 1;
	memcpy(buf, c->base_is_key ? c->name.s : c->base.s, n);
	/* the kernel's snprintf stops at a NUL */
	n = strnlen(buf, n);
	if (ver > 1) {
		buf[n++] = '#';
		buf[n++] = first_char(ver);
	}
	if (sub) {
		buf[n++] = '/';
		buf[n++] = first_char(sub);
	}
	buf[n] = '\0';
	return n;
}

static uint32_t lockstat_lookup(const struct ld_model *m, const uint32_t *head,
				const uint32_t *next, uint32_t n,
				const char *name, size_t len, uint32_t *found)
{
	uint32_t h = ld_hash_bytes(name, len) & (n - 1), c, nr = 0;
	char buf[64];

	*found = LD_NONE;
	for (c = head[h]; c != LD_NONE; c = next[c]) {
		size_t l = lockstat_name(&m->classes[c], buf);

		if (l == len && !memcmp(buf, name, l)) {
			*found = c;
			nr++;
		}
	}
	return nr;
}

/* A class named by more than one lock_stat row, while they are joined */
#define LS_CONTESTED (LD_NONE - 1)

/*
 * Row @i, "x-W:" then "x-R:" taken for the write and read rows of class
 * "x", when no class prints "x" and one prints "x-W" and another "x-R":
 * the rows of those two write-only classes ("%40s:" looks the same as
 * "%38s-W:"), the points after them x-R's.  Split in two, the second
 * row inserted after the first (rows after @i are not joined yet).
 * Returns 1 when split, 0 when not, <0 on error.
 */
static int split_rw_pair(struct ld_model *m, uint32_t i, const uint32_t *head,
			 const uint32_t *next, uint32_t n)
{
	struct ld_lockstat *ls = &m->lockstat[i], *r;
	char buf[64];
	uint32_t found;
	struct ld_str rname;

	if (!ls->has_w || !ls->has_r || ls->rw_guessed ||
	    ls->name.len + 2 > sizeof(buf))
		return 0;
	memcpy(buf, ls->name.s, ls->name.len);
	memcpy(buf + ls->name.len, "-W", 2);
	if (lockstat_lookup(m, head, next, n, buf, ls->name.len + 2, &found) !=
	    1)
		return 0;
	buf[ls->name.len + 1] = 'R';
	if (lockstat_lookup(m, head, next, n, buf, ls->name.len + 2, &found) !=
	    1)
		return 0;
	rname = ld_arena_str(m->arena, buf, ls->name.len + 2);
	if (!rname.s ||
	    ld_grow((void **)&m->lockstat, &m->alloc_lockstat, m->nr_lockstat,
		    sizeof(*m->lockstat)))
		return -ENOMEM;
	/* right after its pair, as if lock_stat had listed both */
	memmove(&m->lockstat[i + 2], &m->lockstat[i + 1],
		(m->nr_lockstat - i - 1) * sizeof(*m->lockstat));
	m->nr_lockstat++;
	ls = &m->lockstat[i];
	r = &m->lockstat[i + 1];
	*r = *ls;
	r->name = rname;
	memcpy(r->w, ls->r, sizeof(r->w));
	r->has_r = false;
	buf[ls->name.len + 1] = 'W';
	ls->name = ld_arena_str(m->arena, buf, ls->name.len + 2);
	if (!ls->name.s)
		return -ENOMEM;
	ls->has_r = false;
	ls->nr_contention = ls->nr_contending = 0;
	return 1;
}

static int join_lockstat(struct ld_model *m)
{
	uint32_t n = 64, *head, *next, i, contested = 0;
	char buf[64];

	if (!m->nr_lockstat)
		return 0;
	if (!m->have.classes) {
		/* lock_stat alone: nothing to join with, which is no "none" */
		for (i = 0; i < m->nr_lockstat; i++) {
			m->lockstat[i].match = LD_LSM_UNKNOWN;
			m->lockstat[i].class = LD_NONE;
		}
		return 0;
	}
	while (n < m->nr_classes * 2)
		n *= 2;
	/*
	 * in the arena's 2 MiB page, which has room at full size (as 96 KiB
	 * of fresh 4 KiB pages: 24 page faults of 9 us); no other thread
	 * uses the arena now
	 */
	head = ld_arena_alloc(m->arena, n * sizeof(uint32_t));
	next = ld_arena_alloc(m->arena, (m->nr_classes + 1) * sizeof(uint32_t));
	if (!head || !next)
		return -ENOMEM;
	memset(head, 0xff, n * sizeof(uint32_t));
	for (i = 0; i < m->nr_classes; i++) {
		size_t l = lockstat_name(&m->classes[i], buf);
		uint32_t h = ld_hash_bytes(buf, l) & (n - 1);

		next[i] = head[h];
		head[h] = i;
	}
	for (i = 0; i < m->nr_lockstat; i++) {
		struct ld_lockstat *ls = &m->lockstat[i];
		uint32_t found, nr;

		nr = lockstat_lookup(m, head, next, n, ls->name.s, ls->name.len,
				     &found);
		if (!nr) {
			int ret = split_rw_pair(m, i, head, next, n);

			if (ret < 0)
				return ret;
			ls = &m->lockstat[i];
			if (ret)
				nr = lockstat_lookup(m, head, next, n,
						     ls->name.s, ls->name.len,
						     &found);
		}
		if (!nr && ls->rw_guessed &&
		    lockstat_lookup(m, head, next, n, ls->name.s,
				    ls->name.len + 2, &found) == 1) {
			/* a lone "x-R:" row was a write row of "x-R" */
			ls->name.len += 2;
			memcpy(ls->w, ls->r, sizeof(ls->w));
			ls->has_w = true;
			ls->has_r = false;
			nr = 1;
		}
		if (nr == 1 && m->classes[found].lockstat == LD_NONE) {
			ls->match = LD_LSM_EXACT;
			ls->class = found;
			m->classes[found].lockstat = i;
		} else if (nr == 1) {
			/*
			 * A second row for one class (lock_stat lists each
			 * class once: it changed while it was read): which
			 * one is the class's is not known.
			 */
			uint32_t prev = m->classes[found].lockstat;

			if (prev != LS_CONTESTED) {
				m->lockstat[prev].match = LD_LSM_AMBIGUOUS;
				m->lockstat[prev].class = LD_NONE;
				contested++;
			}
			m->classes[found].lockstat = LS_CONTESTED;
			ls->match = LD_LSM_AMBIGUOUS;
			ls->class = LD_NONE;
			contested++;
		} else {
			ls->match = nr ? LD_LSM_AMBIGUOUS : LD_LSM_NONE;
			ls->class = LD_NONE;
		}
	}
	for (i = 0; contested && i < m->nr_classes; i++)
		if (m->classes[i].lockstat == LS_CONTESTED)
			m->classes[i].lockstat = LD_NONE;
	if (contested)
		ld_warn(m, "lock_stat: %u %s a class that another row names too: not joined",
			contested, ld_plural(contested, "row names", "rows name"));
	return 0;
}

enum ld_ls_match ld_class_lockstat(const struct ld_model *m, uint32_t c,
				   uint32_t *row)
{
	char buf[64];
	size_t l;
	uint32_t i;

	*row = LD_NONE;
	if (!m->have.lockstat)
		return LD_LSM_UNKNOWN;
	if (m->classes[c].lockstat != LD_NONE) {
		*row = m->classes[c].lockstat;
		return LD_LSM_EXACT;
	}
	l = lockstat_name(&m->classes[c], buf);
	for (i = 0; i < m->nr_lockstat; i++) {
		const struct ld_lockstat *ls = &m->lockstat[i];

		if (ls->match == LD_LSM_AMBIGUOUS && ls->name.len == l &&
		    !memcmp(ls->name.s, buf, l)) {
			*row = i;
			return LD_LSM_AMBIGUOUS;
		}
	}
	/* its row may have been in the part that is missing */
	return m->lockstat_cut ? LD_LSM_CUT : LD_LSM_NONE;
}

/*
 * FD/BD as lockdep_count_forward_deps() computes them: a BFS over the
 * dependency lists in list order that marks a class visited on first
 * arrival and only follows strong paths (no -(*R)-> followed by -(S*)->).
 * Exact for forward counts when the export lists entries in list order;
 * the backward lists' order is not exported, so BD may differ where weak
 * paths are involved.  Without types every path is taken as strong.
 * O(edges) per class, so computed on demand and cached in the class.
 *
 * @limit: the number of classes reachable from @c at all, when known
 * (else UINT32_MAX).  Once that many have been seen, nothing can change
 * any more and the BFS stops: on lockdep's dense graphs the last reachable
 * classes are found long before the last lists are walked.
 */
static int64_t count_reach(const struct ld_model *m, uint32_t c, int dir,
			   uint32_t *queue, uint32_t *seen, uint8_t *only_xr,
			   uint32_t gen, uint32_t limit)
{
	const uint32_t *off = dir ? m->in_off : m->out_off;
	const uint32_t *adj = dir ? m->in : m->out;
	uint32_t head = 0, tail = 0, nr_seen = 1;
	int64_t count = 1;

	seen[c] = gen;
	only_xr[c] = 0;
	queue[tail++] = c;
	while (head < tail && nr_seen < limit) {
		uint32_t u = queue[head++], k;

		for (k = off[u]; k < off[u + 1]; k++) {
			const struct ld_dep *e = &m->deps[adj[k]];
			uint32_t v = dir ? e->from : e->to;
			unsigned int dep = 0xf;

			if (seen[v] == gen)
				continue;
			seen[v] = gen;
			nr_seen++;
			if (m->have.dep_types) {
				dep = e->type;
				/* backward lists swap ER and SN */
				if (dir)
					dep = (dep & 9) | (dep & 2) << 1 |
					      (dep & 4) >> 1;
				if (only_xr[u])
					dep &= ~(LD_DEP_SR | LD_DEP_SN);
				if (!dep)
					continue;
			}
			only_xr[v] = !(dep & (LD_DEP_SN | LD_DEP_EN));
			count++;
			queue[tail++] = v;
		}
	}
	return count;
}

static int bfs_scratch(struct ld_model *m)
{
	if (m->bfs_queue)
		return 0;
	m->bfs_queue = malloc((m->nr_classes + 1) * sizeof(uint32_t));
	m->bfs_seen = calloc(m->nr_classes + 1, sizeof(uint32_t));
	m->bfs_xr = calloc(m->nr_classes + 1, 1);
	if (!m->bfs_queue || !m->bfs_seen || !m->bfs_xr) {
		free(m->bfs_queue);
		free(m->bfs_seen);
		free(m->bfs_xr);
		m->bfs_queue = m->bfs_seen = NULL;
		m->bfs_xr = NULL;
		return -ENOMEM;
	}
	return 0;
}

static bool need_fd_bd(const struct ld_model *m, uint32_t c)
{
	return !ld_known(m->classes[c].fd) && m->have.deps &&
	       m->have.dep_all_distances;
}

int ld_fd_bd(const struct ld_model *cm, uint32_t c)
{
	struct ld_model *m = (struct ld_model *)cm; /* cache only */
	struct ld_class *cl = &m->classes[c];
	int dir;

	if (!need_fd_bd(m, c))
		return 0;
	if (bfs_scratch(m))
		return -ENOMEM;
	for (dir = 0; dir < 2; dir++) {
		struct ld_num *res = dir ? &cl->bd : &cl->fd;

		res->v = count_reach(m, c, dir, m->bfs_queue, m->bfs_seen,
				     m->bfs_xr, ++m->bfs_gen, UINT32_MAX);
		res->src = LD_SRC_COMPUTED;
	}
	return 0;
}

/*
 * Whether the BFS can prune in direction @dir: only after a hop that ends
 * in a recursive read only (forward: no SN or EN type; backward, where ER
 * and SN swap: no ER or EN).  Without any such hop the kernel's count is
 * the number of classes reachable.
 */
static bool can_prune(const struct ld_model *m, int dir)
{
	unsigned int strong = dir ? (LD_DEP_ER | LD_DEP_EN) :
				    (LD_DEP_SN | LD_DEP_EN);
	uint32_t i;

	for (i = 0; m->have.dep_types && i < m->nr_deps; i++)
		if (!(m->deps[i].type & strong))
			return true;
	return false;
}

/*
 * The classes reachable from each class in direction @dir (the class
 * itself included), for all classes at once: on a DAG, a bitset union in
 * topological order, O(edges * classes / 64).  Fills @cnt[] with their
 * number and returns the bitsets (@words 64-bit words per class) when
 * they fit in REACH_ROWS_BYTES; else computes the counts in blocks of
 * target classes and returns NULL.  -1 on a cycle (merged snapshots), a
 * huge graph or no memory: the caller then does without.
 */
#define REACH_MAX_CLASSES (1u << 16)
#define REACH_ROWS_BYTES (32u << 20)

static int reach_closure(const struct ld_model *m, int dir, uint32_t *cnt,
			 uint64_t **rows)
{
	const uint32_t *off = dir ? m->in_off : m->out_off;
	const uint32_t *adj = dir ? m->in : m->out;
	uint32_t n = m->nr_classes, words = (n + 63) / 64, bw, w0, i, k;
	uint32_t head = 0, tail = 0, *indeg, *order;
	uint64_t *bits = NULL;
	int ret = -1;

	*rows = NULL;
	if (!n || n > REACH_MAX_CLASSES)
		return -1;
	indeg = calloc(n, sizeof(*indeg));
	order = malloc(n * sizeof(*order));
	if (!indeg || !order)
		goto out;
	/* Kahn: order[] lists a class before the classes it reaches */
	for (i = 0; i < m->nr_deps; i++)
		indeg[dir ? m->deps[i].from : m->deps[i].to]++;
	for (i = 0; i < n; i++)
		if (!indeg[i])
			order[tail++] = i;
	while (head < tail) {
		uint32_t u = order[head++];

		for (k = off[u]; k < off[u + 1]; k++) {
			const struct ld_dep *e = &m->deps[adj[k]];
			uint32_t v = dir ? e->from : e->to;

			if (!--indeg[v])
				order[tail++] = v;
		}
	}
	if (tail != n) /* a cycle */
		goto out;
	bw = words;
	if ((uint64_t)n * words * 8 > REACH_ROWS_BYTES)
		bw = (REACH_ROWS_BYTES / 4) / 8 / n ? (REACH_ROWS_BYTES / 4) /
							      8 / n :
						      1;
	bits = malloc((size_t)n * bw * sizeof(*bits));
	if (!bits)
		goto out;
	memset(cnt, 0, n * sizeof(*cnt));
	/* targets [64 * w0, 64 * (w0 + nw)) at a time */
	for (w0 = 0; w0 < words; w0 += bw) {
		uint32_t nw = words - w0 < bw ? words - w0 : bw;

		for (i = n; i-- > 0;) {
			uint32_t u = order[i], w;
			uint64_t *bu = bits + (size_t)u * bw;

			memset(bu, 0, nw * sizeof(*bu));
			if (u / 64 >= w0 && u / 64 < w0 + nw)
				bu[u / 64 - w0] |= 1ULL << (u % 64);
			for (k = off[u]; k < off[u + 1]; k++) {
				const struct ld_dep *e = &m->deps[adj[k]];
				const uint64_t *bv =
					bits +
					(size_t)(dir ? e->from : e->to) * bw;

				for (w = 0; w < nw; w++)
					bu[w] |= bv[w];
			}
			for (w = 0; w < nw; w++)
				cnt[u] += __builtin_popcountll(bu[w]);
		}
	}
	if (bw == words) {
		*rows = bits;
		bits = NULL;
	}
	ret = 0;
out:
	free(indeg);
	free(order);
	free(bits);
	return ret;
}

/*
 * The kernel's BFS (count_reach()) for every class, with the same result,
 * organised for speed.  One direction's lists, packed: entry k of class
 * u's list (k in off[u] .. off[u + 1], list order) leads to class
 * ent[k] >> 4 over type ent[k] & 0xf (already swapped for backward
 * lists); and the same entries by the class they lead to (rev[] from
 * rev_off[]: owner and k), for the bottom-up steps.
 *
 * The kernel's queue holds whole BFS levels one after the other, each in
 * the order its classes were reached.  A class is reached (for good) from
 * the first class of the previous level, in queue order, that has an entry
 * for it, and the first such entry in that class's list: the entry k with
 * the smallest (queue position of its owner, k).  So a level can be built
 * either top-down, walking the lists of the previous level in queue order
 * (what the kernel does), or bottom-up, taking for each class not yet seen
 * that smallest entry and sorting the new level by it.  Bottom-up is
 * cheaper once few classes are left to find: they are known, as the
 * reachable set (reach_closure()) minus the classes seen.  And once all of
 * them have been seen, nothing can change any more.
 */
#define FDBD_MAX_CLASSES (1u << 27)

#define Q_NONE UINT32_MAX

struct fdbd_rev {
	uint32_t u, k;
};

struct fdbd {
	const struct ld_model *m;
	const uint32_t *off;
	uint32_t *ent, *rev_off, *nr_in;
	struct fdbd_rev *rev;
	/* per BFS: stamp[v] == gen when seen (small, to stay in L1) */
	uint16_t gen, *stamp;
	uint32_t *q; /* queue position << 1 | only_xr; Q_NONE: rejected */
	uint32_t *queue, *left;
	uint64_t *nw; /* bottom-up: queue position << 32 | entry */
};

static void fdbd_free(struct fdbd *g)
{
	free(g->ent);
	free(g->rev_off);
	free(g->nr_in);
	free(g->rev);
	free(g->stamp);
	free(g->q);
	free(g->queue);
	free(g->left);
	free(g->nw);
}

static int fdbd_init(struct fdbd *g, const struct ld_model *m, int dir)
{
	const uint32_t *adj = dir ? m->in : m->out;
	uint32_t n = m->nr_classes, e = m->nr_deps, u, k, *pos;

	memset(g, 0, sizeof(*g));
	g->m = m;
	g->off = dir ? m->in_off : m->out_off;
	g->ent = malloc((e + 1) * sizeof(*g->ent));
	g->rev_off = calloc(n + 2, sizeof(*g->rev_off));
	g->rev = malloc((e + 1) * sizeof(*g->rev));
	g->nr_in = malloc((n + 1) * sizeof(*g->nr_in));
	g->stamp = calloc(n + 1, sizeof(*g->stamp));
	g->q = malloc((n + 1) * sizeof(*g->q));
	g->queue = malloc((n + 1) * sizeof(*g->queue));
	g->left = malloc((n + 1) * sizeof(*g->left));
	g->nw = malloc((n + 1) * sizeof(*g->nw));
	pos = malloc((n + 1) * sizeof(*pos));
	if (!g->ent || !g->rev_off || !g->nr_in || !g->rev || !g->stamp ||
	    !g->q || !g->queue || !g->left || !g->nw || !pos) {
		free(pos);
		fdbd_free(g);
		return -ENOMEM;
	}
	for (u = 0; u < n; u++) {
		for (k = g->off[u]; k < g->off[u + 1]; k++) {
			const struct ld_dep *d = &m->deps[adj[k]];
			uint32_t v = dir ? d->from : d->to;
			unsigned int t = 0xf;

			if (m->have.dep_types) {
				t = d->type & 0xf;
				/* backward lists swap ER and SN */
				if (dir)
					t = (t & 9) | (t & 2) << 1 |
					    (t & 4) >> 1;
			}
			g->ent[k] = v << 4 | t;
			g->rev_off[v + 1]++;
		}
	}
	for (u = 0; u < n; u++) {
		g->nr_in[u] = g->rev_off[u + 1];
		g->rev_off[u + 1] += g->rev_off[u];
	}
	memcpy(pos, g->rev_off, n * sizeof(*pos));
	for (u = 0; u < n; u++) {
		for (k = g->off[u]; k < g->off[u + 1]; k++) {
			struct fdbd_rev *r = &g->rev[pos[g->ent[k] >> 4]++];

			r->u = u;
			r->k = k;
		}
	}
	free(pos);
	return 0;
}

/*
 * Arrival at a class over entry type @t from a parent with only_xr @pxr:
 * 0 rejected (no strong path), else 1 + the class's only_xr.
 */
static inline unsigned int arrive(unsigned int pxr, unsigned int t)
{
	if (pxr)
		t &= ~(LD_DEP_SR | LD_DEP_SN);
	if (!t)
		return 0;
	return 1 + !(t & (LD_DEP_SN | LD_DEP_EN));
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return (a > b) - (a < b);
}

/* Class @v seen; queued unless @a (arrive()) says rejected. */
static inline void fdbd_see(struct fdbd *g, uint32_t v, unsigned int a,
			    uint32_t *tail)
{
	g->stamp[v] = g->gen;
	g->q[v] = a ? *tail << 1 | (a - 1) : Q_NONE;
	g->queue[*tail] = v;
	*tail += !!a;
}

/* Top-down: the lists of level [lo, hi), in queue order. */
static uint32_t fdbd_top_down(struct fdbd *g, uint32_t lo, uint32_t hi,
			      uint32_t *tail, uint32_t nr_seen, uint32_t limit,
			      uint64_t *bu_left)
{
	const uint16_t gen = g->gen;
	uint32_t i, k;

	for (i = lo; i < hi && nr_seen < limit; i++) {
		uint32_t u = g->queue[i];
		unsigned int pxr = g->q[u] & 1;

		for (k = g->off[u]; k < g->off[u + 1]; k++) {
			uint32_t v = g->ent[k] >> 4;

			if (g->stamp[v] == gen)
				continue;
			nr_seen++;
			*bu_left -= g->nr_in[v];
			fdbd_see(g, v, arrive(pxr, g->ent[k] & 0xf), tail);
		}
	}
	return nr_seen;
}

/* Bottom-up: each class left gets its smallest entry from [lo, hi). */
static uint32_t fdbd_bottom_up(struct fdbd *g, uint32_t lo, uint32_t hi,
			       uint32_t *tail, uint32_t nr_seen,
			       uint32_t *nr_left)
{
	const uint16_t gen = g->gen;
	const uint32_t span = hi - lo;
	uint32_t nr_new = 0, kept = 0, j, k;

	for (j = 0; j < *nr_left; j++) {
		uint32_t v = g->left[j];
		uint64_t best = UINT64_MAX;

		for (k = g->rev_off[v]; k < g->rev_off[v + 1]; k++) {
			uint32_t u = g->rev[k].u, qu = g->q[u];
			/* the owner is in this level: (queue position, k) */
			uint64_t q = (uint32_t)((qu >> 1) - lo);
			uint64_t key = q << 32 | g->rev[k].k;

			if (g->stamp[u] == gen && qu != Q_NONE && q < span &&
			    key < best)
				best = key;
		}
		if (best == UINT64_MAX) {
			g->left[kept++] = v;
			continue;
		}
		g->nw[nr_new++] = best + ((uint64_t)lo << 32);
	}
	*nr_left = kept;
	/* the order the top-down walk would have found them in */
	if (nr_new > 1)
		qsort(g->nw, nr_new, sizeof(*g->nw), cmp_u64);
	for (j = 0; j < nr_new; j++) {
		uint32_t qp = g->nw[j] >> 32, k = (uint32_t)g->nw[j];

		fdbd_see(g, g->ent[k] >> 4,
			 arrive(g->q[g->queue[qp]] & 1, g->ent[k] & 0xf),
			 tail);
	}
	return nr_seen + nr_new;
}

/* count_reach(c) for one class; @row: its reachable set (or NULL) */
static int64_t fdbd_count(struct fdbd *g, uint32_t c, uint32_t limit,
			  const uint64_t *row)
{
	uint32_t words = (g->m->nr_classes + 63) / 64, lo = 0, hi = 1;
	uint32_t tail = 0, nr_seen = 1, nr_left = 0, i, w;
	uint64_t bu_left = 0;
	bool bottom_up = false;

	if (!++g->gen) { /* wrapped: forget every stamp */
		memset(g->stamp, 0, g->m->nr_classes * sizeof(*g->stamp));
		g->gen = 1;
	}
	/* bottom-up cost: the in-lists of the reachable classes not seen */
	for (w = 0; row && w < words; w++)
		for (uint64_t b = row[w]; b; b &= b - 1)
			bu_left += g->nr_in[w * 64 + __builtin_ctzll(b)];
	bu_left -= g->nr_in[c];
	fdbd_see(g, c, 1, &tail);
	/* level [lo, hi) of the queue gives the next level */
	while (lo < hi && nr_seen < limit) {
		if (!bottom_up && row) {
			uint64_t td = 0;

			for (i = lo; i < hi; i++)
				td += g->off[g->queue[i] + 1] -
				      g->off[g->queue[i]];
			/* a bottom-up entry costs ~4 top-down ones */
			if (4 * bu_left < td) {
				/* the classes left to find */
				for (w = 0; w < words; w++) {
					for (uint64_t b = row[w]; b;
					     b &= b - 1) {
						uint32_t v =
							w * 64 +
							__builtin_ctzll(b);

						if (g->stamp[v] != g->gen)
							g->left[nr_left++] = v;
					}
				}
				bottom_up = true;
			}
		}
		if (bottom_up)
			nr_seen = fdbd_bottom_up(g, lo, hi, &tail, nr_seen,
						 &nr_left);
		else
			nr_seen = fdbd_top_down(g, lo, hi, &tail, nr_seen,
						limit, &bu_left);
		lo = hi;
		hi = tail;
	}
	return tail;
}

/* One direction of ld_fd_bd_all(): res[i] for the classes with todo[i] */
struct fdbd_job {
	const struct ld_model *m;
	int dir, ret;
	const uint8_t *todo;
	int64_t *res;
};

static void *fdbd_run(void *arg)
{
	struct fdbd_job *j = arg;
	const struct ld_model *m = j->m;
	uint32_t n = m->nr_classes, words = (n + 63) / 64, i, *reach;
	uint64_t *rows = NULL;
	bool have_reach, bfs;
	struct fdbd g;

	j->ret = -ENOMEM;
	reach = malloc(n * sizeof(*reach));
	if (!reach)
		return NULL;
	have_reach = !reach_closure(m, j->dir, reach, &rows);
	bfs = can_prune(m, j->dir) || !have_reach;
	if (bfs && fdbd_init(&g, m, j->dir))
		goto out;
	for (i = 0; i < n; i++) {
		if (!j->todo[i])
			continue;
		if (!bfs)
			j->res[i] = reach[i];
		else
			j->res[i] = fdbd_count(
				&g, i, have_reach ? reach[i] : UINT32_MAX,
				rows ? rows + (size_t)i * words : NULL);
	}
	if (bfs)
		fdbd_free(&g);
	j->ret = 0;
out:
	free(rows);
	free(reach);
	return NULL;
}

/*
 * FD/BD of every class, exactly as ld_fd_bd() gives them, much faster:
 * without pruning the count is the reachable set's size; with pruning the
 * kernel's BFS is run per class, as fdbd_count() describes.  The two
 * directions are independent: the backward one runs in a second thread
 * when one can be started.
 */
int ld_fd_bd_all(const struct ld_model *cm)
{
	struct ld_model *m = (struct ld_model *)cm; /* cache only */
	struct fdbd_job job[2];
	uint32_t n = m->nr_classes, i, nr = 0;
	uint8_t *todo;
	int64_t *res;
	pthread_t th;
	bool threaded;
	int ret;

	if (n >= FDBD_MAX_CLASSES) { /* packed ids: one BFS per class */
		for (i = 0; i < n; i++) {
			ret = ld_fd_bd(m, i);
			if (ret)
				return ret;
		}
		return 0;
	}
	todo = malloc(n + 1);
	res = malloc(2 * (n + 1) * sizeof(*res));
	if (!todo || !res) {
		free(todo);
		free(res);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		nr += todo[i] = need_fd_bd(m, i);
	ret = 0;
	if (!nr)
		goto out;
	for (i = 0; i < 2; i++) {
		job[i].m = m;
		job[i].dir = i;
		job[i].todo = todo;
		job[i].res = res + i * (n + 1);
	}
	threaded = !ld_thread_create(&th, fdbd_run, &job[1]);
	fdbd_run(&job[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		fdbd_run(&job[1]);
	ret = job[0].ret ? job[0].ret : job[1].ret;
	for (i = 0; i < n && !ret; i++) {
		if (!todo[i])
			continue;
		m->classes[i].fd.v = job[0].res[i];
		m->classes[i].fd.src = LD_SRC_COMPUTED;
		m->classes[i].bd.v = job[1].res[i];
		m->classes[i].bd.src = LD_SRC_COMPUTED;
	}
out:
	free(todo);
	free(res);
	return ret;
}

/*
 * The chain index in parts (ld_index_job_new()): the thread that counts
 * them fills them from the first on (ld_index_chains_start()'s own, or
 * the export's chains thread); the other, once it has nothing else left
 * (ld_model_finish(), or the export parser's chains_help()), from the
 * last back, until they meet (index_parts_take()).
 */
int ld_index_share;
size_t ld_index_thread_min = 65536;

struct ld_index_job {
	struct index_parts ip; /* its start and scratch in the model's arena */
	pthread_t th;
	int ret;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state; /* 0: counting; 1: parts to fill; -1: failed */
	unsigned int lo, hi, done; /* the parts not taken yet; filled */
};

/*
 * The parts not taken yet, one after the other, with @s: the index's own
 * thread from the first, the other from the last, so that the two write
 * next to each other (the ends of two parts' sub-ranges of a class share
 * cache lines) only where they meet
 */
static void index_parts_take(struct ld_index_job *j, struct index_scratch *s,
			     bool front)
{
	unsigned int k;
	bool last;

	for (;;) {
		pthread_mutex_lock(&j->lock);
		k = j->lo == j->hi ? LD_INDEX_PARTS :
		    front	   ? j->lo++ :
				     --j->hi;
		pthread_mutex_unlock(&j->lock);
		if (k == LD_INDEX_PARTS)
			return;
		index_part_fill(&j->ip, k, s);
		pthread_mutex_lock(&j->lock);
		last = ++j->done == LD_INDEX_PARTS;
		pthread_mutex_unlock(&j->lock);
		if (last)
			index_parts_compact(&j->ip);
	}
}

int ld_index_job_front(struct ld_index_job *j)
{
	int ret = index_parts_count(&j->ip);

	pthread_mutex_lock(&j->lock);
	j->state = ret ? -1 : 1;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
	if (!ret && ld_index_share != 2)
		index_parts_take(j, &j->ip.s[0], true);
	j->ret = ret;
	return ret;
}

void ld_index_job_back(struct ld_index_job *j)
{
	int state;

	if (ld_index_share == 1)
		return;
	pthread_mutex_lock(&j->lock);
	while (!(state = j->state))
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	if (state > 0)
		index_parts_take(j, &j->ip.s[1], false);
}

int ld_index_job_end(struct ld_index_job *j)
{
	int ret = j->ret;

	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
	free(j);
	return ret;
}

struct ld_index_job *ld_index_job_new(struct ld_model *m, uint32_t n)
{
	struct ld_index_job *j;
	struct index_parts *ip;
	int k;

	if (!ld_parallel || m->cc_off || m->nr_chain_locks < ld_index_thread_min)
		return NULL;
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	ip = &j->ip;
	ip->m = m;
	ip->n = n;
	ip->nr = LD_INDEX_PARTS;
	j->hi = LD_INDEX_PARTS;
	/*
	 * from the model's arena, which has them in the 2 MiB page the names
	 * took at full size: 400 KiB of fresh 4 KiB pages took 0.5 ms
	 */
	ip->start = ld_arena_alloc(m->arena, (size_t)LD_INDEX_PARTS * ip->n *
						     sizeof(*ip->start));
	for (k = 0; k < 2; k++) {
		ip->s[k].pl = ld_arena_alloc(m->arena, (size_t)ip->n *
							       sizeof(*ip->s[k].pl));
		ip->s[k].holes = ld_arena_alloc(m->arena, ip->n);
		if (!ip->s[k].pl || !ip->s[k].holes)
			ip->start = NULL;
	}
	if (!ip->start) {
		free(j);
		return NULL;
	}
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	return j;
}

static void *chain_index_run(void *arg)
{
	ld_index_job_front(arg);
	return NULL;
}

/*
 * The chain index reads only the chains and writes only cc_off/cc: once
 * the chains and the classes are read, a second thread can build it while
 * this one parses the rest (lock_stat) and builds the other indexes, then
 * helps it (index_chains_help()).  Nothing when it is small, already
 * built, or no thread can be started: ld_model_finish() then builds it.
 */
void ld_index_chains_start(struct ld_model *m)
{
	struct ld_index_job *j;

	if (m->index_job)
		return;
	j = ld_index_job_new(m, m->nr_classes);
	if (!j)
		return;
	if (ld_thread_create(&j->th, chain_index_run, j)) {
		ld_index_job_end(j);
		return;
	}
	m->index_job = j;
}

/* The parts ld_index_chains_start()'s thread has not taken yet */
static void index_chains_help(struct ld_model *m)
{
	if (m->index_job)
		ld_index_job_back(m->index_job);
}

/* Wait for ld_index_chains_start()'s thread; its result */
static int index_chains_join(struct ld_model *m)
{
	struct ld_index_job *j = m->index_job;

	if (!j)
		return 0;
	pthread_join(j->th, NULL);
	m->index_job = NULL;
	return ld_index_job_end(j);
}

int ld_model_finish(struct ld_model *m, struct ld_diag *d)
{
	bool threaded;
	double t = ld_now_ms();
	int ret = 0, iret;

	/* a parser may have built these already, in time it had spare */
	ld_index_chains_start(m);
	threaded = m->index_job != NULL;
	if (!m->out_off) {
		ret = ld_index_deps(m);
		t = ld_phase(m, "adjacency", t);
	} else {
		ld_warn_dup_deps(m, m->dup_deps);
	}
	m->dup_deps = 0;
	/*
	 * as the indexes above: the /proc parser built it already, for the
	 * chains (building it again took 0.17 ms at full size)
	 */
	if (!ret && !m->name_hash)
		ld_name_hash_build(m);
	if (!ret && !m->name_hash)
		ret = -ENOMEM;
	t = ld_phase(m, "name index", t);
	if (!ret)
		ret = join_lockstat(m);
	t = ld_phase(m, "lock_stat join", t);
	if (threaded) {
		index_chains_help(m);
		iret = index_chains_join(m);
		ld_phase(m, "chain index (wait)", t);
	} else if (!m->cc_off) {
		iret = ld_index_chains(m, m->nr_classes);
		ld_phase(m, "chain index", t);
	} else {
		iret = 0;
	}
	if (!ret)
		ret = iret;
	if (ret == -ENOMEM)
		ld_diagf(d, "out of memory");
	return ret;
}
