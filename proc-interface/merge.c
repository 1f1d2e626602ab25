// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c - classes matched across snapshots (the rule is in merge.h) and
 * the union of several snapshots as one model.
 */
#include <stdlib.h>

#include "ld_internal.h"
#include "graph.h"
#include "merge.h"

static const char *const how_names[LD_MATCH_NR] = {
	"none", "name", "key", "realigned", "neighbours", "order",
};

const char *ld_match_how_name(unsigned int how)
{
	return how < LD_MATCH_NR ? how_names[how] : "?";
}

/* Group identity: base name (ld_class_base()) and subclass. */
static int64_t cls_sub(const struct ld_class *c)
{
	return ld_known(c->subclass) && !c->base_is_key ? c->subclass.v : 0;
}

static int64_t cls_ver(const struct ld_class *c)
{
	return ld_known(c->name_version) && !c->base_is_key ?
		       c->name_version.v :
		       1;
}

static int group_cmp(const struct ld_class *a, const struct ld_class *b)
{
	int r = ld_name_cmp(ld_class_base(a), ld_class_base(b));

	if (r)
		return r;
	return (cls_sub(a) > cls_sub(b)) - (cls_sub(a) < cls_sub(b));
}

static int sort_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_model *m = arg;
	const struct ld_class *a = &m->classes[*(const uint32_t *)x];
	const struct ld_class *b = &m->classes[*(const uint32_t *)y];
	int r = group_cmp(a, b);

	if (r)
		return r;
	if (cls_ver(a) != cls_ver(b))
		return cls_ver(a) < cls_ver(b) ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static uint32_t group_hash(const struct ld_class *c)
{
	struct ld_str b = ld_class_base(c);
	uint32_t h = ld_hash_bytes(b.s, b.len);

	return h * 31 + (uint32_t)cls_sub(c);
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* Neighbour signature: sorted hashes of (direction, neighbour group). */
static uint32_t *signature(const struct ld_model *m, uint32_t c, uint32_t *nr)
{
	uint32_t n = ld_nr_out(m, c) + ld_nr_in(m, c), k, i = 0, *s;

	s = malloc((n + 1) * sizeof(*s));
	if (!s)
		return NULL;
	for (k = m->out_off[c]; k < m->out_off[c + 1]; k++)
		s[i++] = group_hash(&m->classes[m->deps[m->out[k]].to]) * 2;
	for (k = m->in_off[c]; k < m->in_off[c + 1]; k++)
		s[i++] =
			group_hash(&m->classes[m->deps[m->in[k]].from]) * 2 + 1;
	qsort(s, n, sizeof(*s), u32_cmp);
	*nr = n;
	return s;
}

static uint32_t overlap(const uint32_t *a, uint32_t na, const uint32_t *b,
			uint32_t nb)
{
	uint32_t i = 0, j = 0, n = 0;

	while (i < na && j < nb) {
		if (a[i] < b[j]) {
			i++;
		} else if (a[i] > b[j]) {
			j++;
		} else {
			n++;
			i++;
			j++;
		}
	}
	return n;
}

/* A key symbol that names the key: the export's "?" is a key without one */
static bool has_sym(const struct ld_class *c)
{
	return c->key_sym.len && !(c->key_sym.len == 1 && c->key_sym.s[0] == '?');
}

static bool key_equal(const struct ld_class *a, const struct ld_class *b)
{
	if (has_sym(a) && has_sym(b))
		return a->key_sym.len == b->key_sym.len &&
		       !memcmp(a->key_sym.s, b->key_sym.s, a->key_sym.len);
	return a->key_hash_known && b->key_hash_known &&
	       a->key_hash == b->key_hash;
}

static bool compatible(const struct ld_match *mt, const struct ld_class *a,
		       const struct ld_class *b)
{
	if (!mt->keys_strict || !has_sym(a) || !has_sym(b))
		return true;
	return key_equal(a, b);
}

/* A candidate pair of match_group() step 3 */
struct cand {
	uint64_t score;
	uint32_t i, j, ov;
};

/* best score first, then the lowest i, then the lowest j */
static int cand_cmp(const void *x, const void *y)
{
	const struct cand *a = x, *b = y;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->i != b->i)
		return a->i < b->i ? -1 : 1;
	return (a->j > b->j) - (a->j < b->j);
}

static void pair(struct ld_match *mt, uint32_t a, uint32_t b,
		 enum ld_match_how how)
{
	mt->a_to_b[a] = b;
	mt->b_to_a[b] = a;
	mt->how[b] = how;
}

#define SCORE_LIMIT (64u * 1024) /* pairs scored per group */

/* One group: classes ga[0..na) of a and gb[0..nb) of b. */
static int match_group(const struct ld_model *ma, const struct ld_model *mb,
		       struct ld_match *mt, const uint32_t *ga, uint32_t na,
		       const uint32_t *gb, uint32_t nb)
{
	uint32_t i, j, la = 0, lb = 0, *ra, *rb;
	uint32_t **sa = NULL, **sb = NULL, *nsa = NULL, *nsb = NULL;
	int ret = 0;

	/* 1. equal keys */
	for (i = 0; i < na; i++) {
		const struct ld_class *a = &ma->classes[ga[i]];

		if (!has_sym(a) && !a->key_hash_known)
			continue;
		for (j = 0; j < nb; j++) {
			if (mt->b_to_a[gb[j]] != LD_NONE)
				continue;
			if (key_equal(a, &mb->classes[gb[j]])) {
				pair(mt, ga[i], gb[j], LD_MATCH_KEY);
				break;
			}
		}
	}
	ra = malloc((na + 1) * sizeof(*ra));
	rb = malloc((nb + 1) * sizeof(*rb));
	if (!ra || !rb) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < na; i++)
		if (mt->a_to_b[ga[i]] == LD_NONE)
			ra[la++] = ga[i];
	for (j = 0; j < nb; j++)
		if (mt->b_to_a[gb[j]] == LD_NONE)
			rb[lb++] = gb[j];
	if (!la || !lb)
		goto out;
	/* 2. one on each side */
	if (la == 1 && lb == 1 && na == 1 && nb == 1) {
		const struct ld_class *a = &ma->classes[ra[0]];
		const struct ld_class *b = &mb->classes[rb[0]];

		if (compatible(mt, a, b))
			pair(mt, ra[0], rb[0],
			     cls_ver(a) == cls_ver(b) &&
					     !ld_name_cmp(a->name, b->name) ?
				     LD_MATCH_NAME :
				     LD_MATCH_REALIGNED);
		goto out;
	}
	/* 3. several: greedy on shared neighbours, then equal "#N" */
	if ((uint64_t)la * lb <= SCORE_LIMIT) {
		sa = calloc(la, sizeof(*sa));
		sb = calloc(lb, sizeof(*sb));
		nsa = calloc(la, sizeof(*nsa));
		nsb = calloc(lb, sizeof(*nsb));
		if (!sa || !sb || !nsa || !nsb) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < la; i++)
			if (!(sa[i] = signature(ma, ra[i], &nsa[i]))) {
				ret = -ENOMEM;
				goto out;
			}
		for (j = 0; j < lb; j++)
			if (!(sb[j] = signature(mb, rb[j], &nsb[j]))) {
				ret = -ENOMEM;
				goto out;
			}
	}
	/*
	 * The pair with the best score (shared neighbours, then an equal
	 * "#N"), the first in (i, j) order on a tie, then the best of the
	 * rest, and so on: scores do not change as pairs are taken, so that
	 * is one sort of the candidates, not a scan of all pairs per pair.
	 */
	if (sa) {
		struct cand *c = malloc(((size_t)la * lb + 1) * sizeof(*c));
		size_t nc = 0, k;

		if (!c) {
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < la; i++) {
			for (j = 0; j < lb; j++) {
				const struct ld_class *a = &ma->classes[ra[i]];
				const struct ld_class *b = &mb->classes[rb[j]];
				uint32_t o;

				if (!compatible(mt, a, b))
					continue;
				o = overlap(sa[i], nsa[i], sb[j], nsb[j]);
				c[nc].score = (uint64_t)o * 4 + 2 +
					      (cls_ver(a) == cls_ver(b));
				c[nc].i = i;
				c[nc].j = j;
				c[nc++].ov = o;
			}
		}
		qsort(c, nc, sizeof(*c), cand_cmp);
		for (k = 0; k < nc; k++)
			if (mt->a_to_b[ra[c[k].i]] == LD_NONE &&
			    mt->b_to_a[rb[c[k].j]] == LD_NONE)
				pair(mt, ra[c[k].i], rb[c[k].j],
				     c[k].ov ? LD_MATCH_NEIGHBOURS :
					       LD_MATCH_ORDER);
		free(c);
	} else {
		/* too many to score: equal "#N" first, then in order */
		int pass;

		for (pass = 0; pass < 2; pass++) {
			for (i = 0; i < la; i++) {
				const struct ld_class *a = &ma->classes[ra[i]];

				if (mt->a_to_b[ra[i]] != LD_NONE)
					continue;
				for (j = 0; j < lb; j++) {
					const struct ld_class *b =
						&mb->classes[rb[j]];

					if (mt->b_to_a[rb[j]] != LD_NONE ||
					    !compatible(mt, a, b) ||
					    (!pass && cls_ver(a) != cls_ver(b)))
						continue;
					pair(mt, ra[i], rb[j], LD_MATCH_ORDER);
					break;
				}
			}
		}
	}
out:
	if (sa)
		for (i = 0; i < la; i++)
			free(sa[i]);
	if (sb)
		for (j = 0; j < lb; j++)
			free(sb[j]);
	free(sa);
	free(sb);
	free(nsa);
	free(nsb);
	free(ra);
	free(rb);
	return ret;
}

int ld_match_classes(const struct ld_model *a, const struct ld_model *b,
		     struct ld_match *mt)
{
	uint32_t *ia = NULL, *ib = NULL, i = 0, j = 0;
	int ret = -ENOMEM;

	memset(mt, 0, sizeof(*mt));
	mt->keys_strict = a->release && b->release &&
			  !strcmp(a->release, b->release);
	mt->a_to_b = malloc((a->nr_classes + 1) * sizeof(uint32_t));
	mt->b_to_a = malloc((b->nr_classes + 1) * sizeof(uint32_t));
	mt->how = calloc(b->nr_classes + 1, 1);
	ia = ld_class_ids_sorted(a, sort_cmp);
	ib = ld_class_ids_sorted(b, sort_cmp);
	if (!mt->a_to_b || !mt->b_to_a || !mt->how || !ia || !ib)
		goto out;
	memset(mt->a_to_b, 0xff, a->nr_classes * sizeof(uint32_t));
	memset(mt->b_to_a, 0xff, b->nr_classes * sizeof(uint32_t));
	while (i < a->nr_classes && j < b->nr_classes) {
		const struct ld_class *ca = &a->classes[ia[i]];
		const struct ld_class *cb = &b->classes[ib[j]];
		int r = group_cmp(ca, cb);
		uint32_t ei = i, ej = j;

		if (r < 0) {
			i++;
			continue;
		}
		if (r > 0) {
			j++;
			continue;
		}
		while (ei < a->nr_classes &&
		       !group_cmp(&a->classes[ia[ei]], ca))
			ei++;
		while (ej < b->nr_classes &&
		       !group_cmp(&b->classes[ib[ej]], cb))
			ej++;
		ret = match_group(a, b, mt, ia + i, ei - i, ib + j, ej - j);
		if (ret)
			goto out;
		i = ei;
		j = ej;
	}
	for (i = 0; i < b->nr_classes; i++)
		mt->nr_how[mt->how[i]]++;
	for (i = 0; i < a->nr_classes; i++)
		mt->nr_a_only += mt->a_to_b[i] == LD_NONE;
	ret = 0;
out:
	free(ia);
	free(ib);
	if (ret)
		ld_match_free(mt);
	return ret;
}

void ld_match_free(struct ld_match *mt)
{
	free(mt->a_to_b);
	free(mt->b_to_a);
	free(mt->how);
	memset(mt, 0, sizeof(*mt));
}

/* The union ------------------------------------------------------------ */

struct mbuild {
	struct ld_model *m;
	struct ld_map deps; /* (from << 32 | to) + 1 -> dep id */
	struct ld_map names; /* hash of printed name -> a class */
	struct ld_map chains; /* hash of a union chain -> its first chain */
	uint32_t *ch_next; /* the next chain of that hash, LD_NONE: none */
	uint32_t *ch_claim; /* the last snapshot that had that chain */
	uint32_t alloc_next, alloc_claim;
	uint32_t nr_src;
};

static struct ld_str astr(struct ld_model *m, struct ld_str s)
{
	struct ld_str r = ld_arena_str(m->arena, s.s ? s.s : "", s.len);

	return r;
}

/* Copy @src's traces; returns the offset of its trace 0 in m. */
static int copy_traces(struct ld_model *m, const struct ld_model *src,
		       uint32_t *base)
{
	uint32_t i, k;

	*base = m->nr_traces;
	for (i = 0; i < src->nr_traces; i++) {
		const struct ld_trace *t = &src->traces[i];
		struct ld_trace *nt;

		if (ld_grow((void **)&m->traces, &m->alloc_traces, m->nr_traces,
			    sizeof(*m->traces)) ||
		    ld_grow((void **)&m->frames, &m->alloc_frames,
			    m->nr_frames + t->nr, sizeof(*m->frames)))
			return -ENOMEM;
		nt = &m->traces[m->nr_traces++];
		*nt = *t;
		nt->first = m->nr_frames;
		for (k = 0; k < t->nr; k++) {
			struct ld_str s = astr(m, src->frames[t->first + k]);

			if (!s.s)
				return -ENOMEM;
			m->frames[m->nr_frames++] = s;
		}
	}
	return 0;
}

static uint32_t tmap(uint32_t t, uint32_t base)
{
	return t == LD_NONE ? LD_NONE : t + base;
}

static bool name_taken(struct mbuild *b, struct ld_str name)
{
	uint64_t h = ld_hash_bytes(name.s, name.len);
	uint32_t i = ld_map_get(&b->names, h);

	/* the map holds the first class with each hash */
	if (i == LD_NONE)
		return false;
	if (!ld_name_cmp(b->m->classes[i].name, name))
		return true;
	for (i = 0; i < b->m->nr_classes; i++)
		if (!ld_name_cmp(b->m->classes[i].name, name))
			return true;
	return false;
}

static int name_add(struct mbuild *b, uint32_t c)
{
	struct ld_str n = b->m->classes[c].name;
	uint32_t old;

	return ld_map_put(&b->names, ld_hash_bytes(n.s, n.len), c, &old);
}

/* A new class of the union from class @c of @src. */
static uint32_t class_copy(struct mbuild *b, const struct ld_model *src,
			   uint32_t c, uint32_t tbase)
{
	const struct ld_class *s = &src->classes[c];
	struct ld_model *m = b->m;
	struct ld_class *n;
	uint32_t id = ld_add_class(m), k;

	if (id == LD_NONE)
		return LD_NONE;
	n = &m->classes[id];
	n->name = astr(m, s->name);
	n->base = s->base_is_key ? n->name : astr(m, s->base);
	n->key_sym = astr(m, s->key_sym);
	if (!n->name.s || !n->base.s || !n->key_sym.s)
		return LD_NONE;
	n->key_hash = s->key_hash;
	n->key_hash_known = s->key_hash_known;
	n->key_not_static = s->key_not_static;
	n->name_version = s->name_version;
	n->subclass = s->subclass;
	n->base_is_key = s->base_is_key;
	n->usage = s->usage & s->usage_known;
	n->usage_known = s->usage_known;
	n->usage_src = s->usage_src;
	n->wait_inner = s->wait_inner;
	n->wait_outer = s->wait_outer;
	n->lock_type = s->lock_type;
	for (k = 0; k < LD_NR_USAGE_BITS; k++)
		n->usage_trace[k] = tmap(s->usage_trace[k], tbase);
	n->usage_trace_unknown = s->usage_trace_unknown;
	return id;
}

/* Fold class @c of @src into union class @id. */
static void class_fold(struct ld_model *m, uint32_t id,
		       const struct ld_model *src, uint32_t c, uint32_t tbase)
{
	const struct ld_class *s = &src->classes[c];
	struct ld_class *n = &m->classes[id];
	uint16_t set = n->usage | (s->usage & s->usage_known);
	uint32_t k;

	for (k = 0; k < LD_NR_USAGE_BITS; k++) {
		if (n->usage_trace[k] != LD_NONE)
			continue;
		if (s->usage_trace[k] != LD_NONE) {
			n->usage_trace[k] = tmap(s->usage_trace[k], tbase);
			n->usage_trace_unknown &= ~(1u << k);
		} else {
			n->usage_trace_unknown |=
				s->usage_trace_unknown & (1u << k);
		}
	}
	/* known: set in either, or known clear in both */
	n->usage_known = set | (n->usage_known & s->usage_known);
	n->usage = set;
	if (!ld_known(n->wait_inner))
		n->wait_inner = s->wait_inner;
	if (!ld_known(n->wait_outer))
		n->wait_outer = s->wait_outer;
	if (!ld_known(n->lock_type))
		n->lock_type = s->lock_type;
	if (!has_sym(n) && has_sym(s))
		n->key_sym =
			ld_arena_str(m->arena, s->key_sym.s, s->key_sym.len);
	/* a key with a symbol (or '?') is static: that wins */
	if (n->key_sym.len || s->key_sym.len)
		n->key_not_static = false;
	else
		n->key_not_static |= s->key_not_static;
	/* hashed keys of another boot: no longer one key */
	if (n->key_hash_known &&
	    (!s->key_hash_known || s->key_hash != n->key_hash))
		n->key_hash_known = false;
}

/* A free "#N" for a class new in a later snapshot whose name is taken. */
static int rename_class(struct mbuild *b, uint32_t id)
{
	struct ld_class *c = &b->m->classes[id];
	int64_t v = cls_ver(c) + 1;
	char buf[48];
	size_t bl = c->base.len;

	if (c->base_is_key)
		return 0; /* a key symbol: nothing to number */
	for (;; v++) {
		char *p = ld_arena_alloc(b->m->arena, bl + sizeof(buf));
		int n;

		if (!p)
			return -ENOMEM;
		memcpy(p, c->base.s, bl);
		n = bl;
		if (v > 1)
			n += sprintf(p + n, "#%lld", (long long)v);
		if (cls_sub(c))
			n += sprintf(p + n, "/%lld", (long long)cls_sub(c));
		p[n] = '\0';
		c->name.s = p;
		c->name.len = n;
		if (!name_taken(b, c->name))
			break;
	}
	c->name_version.v = v;
	c->name_version.src = LD_SRC_COMPUTED;
	return 1;
}

static int dep_fold(struct mbuild *b, const struct ld_model *src,
		    const struct ld_dep *sd, const uint32_t *cmap,
		    uint32_t tbase, uint32_t srcbit, uint32_t **dsrc,
		    uint32_t *adsrc)
{
	struct ld_model *m = b->m;
	struct ld_dep nd = *sd;
	uint32_t from = cmap[sd->from], to = cmap[sd->to], old;
	uint64_t key = ld_dep_key(from, to);
	int ret;

	(void)src;
	if (from == LD_NONE || to == LD_NONE)
		return 0;
	nd.from = from;
	nd.to = to;
	nd.trace = sd->trace_known ? tmap(sd->trace, tbase) : LD_NONE;
	if (!nd.type_known)
		nd.type = 0xf;
	ret = ld_map_put(&b->deps, key, m->nr_deps, &old);
	if (ret)
		return ret;
	if (old == LD_NONE) {
		ret = ld_add_dep(m, &nd);
		if (ret)
			return ret;
		if (ld_grow((void **)dsrc, adsrc, m->nr_deps, sizeof(uint32_t)))
			return -ENOMEM;
		(*dsrc)[m->nr_deps - 1] = srcbit;
		return 0;
	}
	{
		struct ld_dep *e = &m->deps[old];

		(*dsrc)[old] |= srcbit;
		if (e->type_known && nd.type_known)
			e->type |= nd.type;
		else
			e->type = 0xf;
		e->type_known = e->type_known && nd.type_known;
		if (nd.distance && (!e->distance || nd.distance < e->distance))
			e->distance = nd.distance;
		if (e->trace == LD_NONE && nd.trace != LD_NONE)
			e->trace = nd.trace;
		e->trace_known = e->trace_known || nd.trace_known;
	}
	return 0;
}

/* A union chain's identity: its irq context, classes and read flags */
static uint64_t chain_hash(const struct ld_model *m, const struct ld_chain *c)
{
	uint64_t h = 1469598103934665603ULL ^ c->irq_context;
	uint32_t k;

	/* not the read flags: /proc does not print them */
	for (k = 0; k < c->depth; k++)
		h = (h ^ m->chain_locks[c->first + k]) * 1099511628211ULL;
	return h | 1; /* ld_map keys are not 0 */
}

static bool chain_same(const struct ld_model *m, const struct ld_chain *a,
		       const struct ld_chain *b)
{
	uint32_t k;

	if (a->irq_context != b->irq_context || a->depth != b->depth ||
	    memcmp(m->chain_locks + a->first, m->chain_locks + b->first,
		   a->depth * sizeof(uint32_t)) ||
	    (a->read_known && b->read_known &&
	     memcmp(m->chain_reads + a->first, m->chain_reads + b->first,
		    a->depth)))
		return false;
	/* classes not in the list: by the names the chains gave */
	for (k = 0; k < a->depth; k++) {
		struct ld_str x, y;

		if (m->chain_locks[a->first + k] != LD_NONE)
			continue;
		x = ld_chain_lock_name(m, a->first + k);
		y = ld_chain_lock_name(m, b->first + k);
		if (x.len != y.len || memcmp(x.s, y.s, x.len))
			return false;
	}
	return true;
}

/*
 * The chains of snapshot @s in union classes.  A chain an earlier snapshot
 * already gave is kept once: each union chain stands for one chain of
 * each snapshot at most (one snapshot may list chains that look the same
 * here, the /proc files not telling their read flags).
 */
static int chains_copy(struct mbuild *b, const struct ld_model *src,
		       const uint32_t *cmap, uint32_t s)
{
	struct ld_model *m = b->m;
	uint32_t i, k, head, c;
	int ret;

	for (i = 0; i < src->nr_chains; i++) {
		const struct ld_chain *sc = &src->chains[i];
		uint32_t unlisted = m->nr_unlisted;
		struct ld_chain *nc;
		uint64_t h;

		if (ld_grow((void **)&m->chains, &m->alloc_chains, m->nr_chains,
			    sizeof(*m->chains)) ||
		    ld_grow((void **)&m->chain_locks, &m->alloc_chain_locks,
			    m->nr_chain_locks + sc->depth, sizeof(uint32_t)) ||
		    ld_grow((void **)&m->chain_reads, &m->alloc_chain_reads,
			    m->nr_chain_locks + sc->depth, 1) ||
		    ld_grow((void **)&b->ch_next, &b->alloc_next, m->nr_chains,
			    sizeof(uint32_t)) ||
		    ld_grow((void **)&b->ch_claim, &b->alloc_claim,
			    m->nr_chains, sizeof(uint32_t)))
			return -ENOMEM;
		nc = &m->chains[m->nr_chains];
		*nc = *sc;
		nc->first = m->nr_chain_locks;
		for (k = 0; k < sc->depth; k++) {
			uint32_t cl = src->chain_locks[sc->first + k];

			m->chain_locks[nc->first + k] =
				cl == LD_NONE ? LD_NONE : cmap[cl];
			if (cl == LD_NONE) {
				struct ld_str un = ld_chain_lock_name(
					src, sc->first + k);

				if (un.len &&
				    ld_add_unlisted(m, nc->first + k, un.s,
						    un.len))
					return -ENOMEM;
			}
			m->chain_reads[nc->first + k] =
				src->chain_reads ?
					src->chain_reads[sc->first + k] :
					0;
		}
		h = chain_hash(m, nc);
		head = ld_map_get(&b->chains, h);
		for (c = head; c != LD_NONE; c = b->ch_next[c])
			if (b->ch_claim[c] < s && chain_same(m, &m->chains[c], nc))
				break;
		if (c != LD_NONE) {
			b->ch_claim[c] = s; /* the same chain, seen again */
			if (!m->chains[c].read_known && nc->read_known) {
				memcpy(m->chain_reads + m->chains[c].first,
				       m->chain_reads + nc->first, nc->depth);
				m->chains[c].read_known = true;
			}
			m->nr_unlisted = unlisted; /* its names go too */
			continue;
		}
		b->ch_claim[m->nr_chains] = s;
		b->ch_next[m->nr_chains] = LD_NONE;
		if (head == LD_NONE) {
			ret = ld_map_put(&b->chains, h, m->nr_chains, NULL);
			if (ret)
				return ret;
		} else {
			b->ch_next[m->nr_chains] = b->ch_next[head];
			b->ch_next[head] = m->nr_chains;
		}
		m->nr_chain_locks += sc->depth;
		m->nr_chains++;
	}
	return 0;
}

int ld_merge(struct ld_model **out, struct ld_model *const *in, uint32_t n,
	     struct ld_diag *d)
{
	struct mbuild b = { .nr_src = n };
	struct ld_merge_info *mi;
	struct ld_model *m;
	uint32_t *cmap = NULL, *dsrc = NULL, adsrc = 0, s, i, k;
	uint32_t *cls_src = NULL, *tmp;
	uint8_t *cls_how = NULL;
	struct ld_str *cls_name = NULL;
	uint32_t acls = 0;
	int ret = -ENOMEM, cfg = -1, plain = -1;

	d->msg[0] = '\0';
	*out = NULL;
	if (n < 2 || n > LD_MERGE_MAX)
		return ld_diagf(d, "merge: %u snapshots (2 to %d)", n,
				LD_MERGE_MAX);
	for (s = 0; s < n; s++)
		if (!in[s]->have.classes)
			return ld_diagf(d, "%s: no class list to merge",
					in[s]->origin ? in[s]->origin :
							"input");
	m = b.m = ld_model_new();
	if (!m)
		return -ENOMEM;
	if (ld_map_init(&b.deps, 1024) || ld_map_init(&b.names, 1024) ||
	    ld_map_init(&b.chains, 1024))
		goto out;
	m->from_export = true;
	for (s = 0; s < n; s++) {	/* what all of them read, and said */
		m->loaded &= in[s]->loaded;
		m->from_export &= in[s]->from_export;
		for (k = 0; k < in[s]->nr_warnings; k++)
			if (ld_warn(m, "%s: %s",
				    in[s]->origin ? in[s]->origin : "input",
				    in[s]->warnings[k])) {
				ret = -ENOMEM;
				goto out;
			}
	}
	m->have.classes = true;
	m->have.usage = m->have.deps = m->have.dep_all_distances = true;
	m->have.dep_types = m->have.traces = m->have.usage_traces = true;
	m->have.wait_types = m->have.chains = m->have.chain_keys = true;
	/* of the boots with wait types, each must tell 3 is CONFIG (SLEEP) */
	for (s = 0; s < n; s++)
		if (in[s]->have.wait_types) {
			cfg = cfg < 0 ? in[s]->have.wait_config :
					cfg && in[s]->have.wait_config;
			plain = plain < 0 ? in[s]->have.wait_plain :
					    plain && in[s]->have.wait_plain;
		}
	m->have.wait_config = cfg > 0;
	m->have.wait_plain = plain > 0;
	for (s = 0; s < n; s++) {
		const struct ld_model *src = in[s];
		struct ld_match mt = { 0 };
		uint32_t tbase;

		m->have.usage &= src->have.usage;
		m->have.deps &= src->have.deps;
		m->have.dep_all_distances &= src->have.dep_all_distances;
		m->have.dep_types &= src->have.dep_types;
		m->have.traces &= src->have.traces;
		m->have.usage_traces &= src->have.usage_traces;
		m->have.wait_types &= src->have.wait_types;
		m->have.chains &= src->have.chains;
		m->have.chain_keys &= src->have.chain_keys;
		m->nr_unresolved += src->nr_unresolved;
		m->partial |= src->partial;
		m->consistent &= src->consistent;
		ret = copy_traces(m, src, &tbase);
		if (ret)
			goto out;
		free(cmap);
		cmap = malloc((src->nr_classes + 1) * sizeof(*cmap));
		if (!cmap) {
			ret = -ENOMEM;
			goto out;
		}
		if (s) {
			/* match against the union so far (indexes needed) */
			ret = ld_model_finish(m, d);
			if (ret)
				goto out;
			/*
			 * key symbols decide within one release (merge.h):
			 * lend the union the release its parts share so far
			 */
			m->release = NULL;
			for (k = 0; k <= s && in[0]->release; k++)
				if (!in[k]->release ||
				    strcmp(in[k]->release, in[0]->release))
					break;
			if (k > s)
				m->release = in[0]->release;
			ret = ld_match_classes(m, src, &mt);
			m->release = NULL;
			if (ret)
				goto out;
		}
		/* grow the provenance table to the classes we may add */
		if (ld_grow((void **)&cls_src, &acls,
			    (m->nr_classes + src->nr_classes + 1) * n,
			    sizeof(*cls_src))) {
			ld_match_free(&mt);
			ret = -ENOMEM;
			goto out;
		}
		tmp = realloc(cls_how, acls);
		if (!tmp) {
			ld_match_free(&mt);
			ret = -ENOMEM;
			goto out;
		}
		cls_how = (uint8_t *)tmp;
		tmp = realloc(cls_name, (size_t)acls * sizeof(*cls_name));
		if (!tmp) {
			ld_match_free(&mt);
			ret = -ENOMEM;
			goto out;
		}
		cls_name = (struct ld_str *)tmp;
		for (i = 0; i < src->nr_classes; i++) {
			uint32_t id = s ? mt.b_to_a[i] : LD_NONE;
			uint8_t how = s ? mt.how[i] : LD_MATCH_NAME;

			if (id == LD_NONE) {
				id = class_copy(&b, src, i, tbase);
				if (id == LD_NONE) {
					ld_match_free(&mt);
					ret = -ENOMEM;
					goto out;
				}
				for (k = 0; k < n; k++) {
					cls_src[id * n + k] = LD_NONE;
					cls_how[id * n + k] = LD_MATCH_NONE;
					cls_name[id * n + k].s = "";
					cls_name[id * n + k].len = 0;
				}
				if (name_taken(&b, m->classes[id].name)) {
					ret = rename_class(&b, id);
					if (ret < 0) {
						ld_match_free(&mt);
						goto out;
					}
				}
				ret = name_add(&b, id);
				if (ret) {
					ld_match_free(&mt);
					goto out;
				}
				/* in this snapshot only, so far */
				how = LD_MATCH_NONE;
			} else {
				class_fold(m, id, src, i, tbase);
			}
			cmap[i] = id;
			cls_src[id * n + s] = i;
			cls_how[id * n + s] = s ? how : LD_MATCH_NAME;
			cls_name[id * n + s] = astr(m, src->classes[i].name);
		}
		ld_match_free(&mt);
		for (i = 0; i < src->nr_deps; i++) {
			ret = dep_fold(&b, src, &src->deps[i], cmap, tbase,
				       1u << s, &dsrc, &adsrc);
			if (ret)
				goto out;
		}
		ret = chains_copy(&b, src, cmap, s);
		if (ret)
			goto out;
		/* the indexes are rebuilt from scratch each round */
		free(m->out_off);
		free(m->out); /* and in */
		free(m->in_off);
		free(m->cc_off);
		free(m->cc);
		free(m->name_hash);
		m->out_off = m->out = m->in_off = m->in = NULL;
		m->cc_off = m->cc = NULL;
		m->name_hash = NULL;
	}
	ret = ld_model_finish(m, d);
	if (ret)
		goto out;
	/* provenance, in the arena so that it lives as long as the model */
	ret = -ENOMEM;
	mi = ld_arena_alloc(m->arena, sizeof(*mi));
	if (!mi)
		goto out;
	memset(mi, 0, sizeof(*mi));
	mi->nr_src = n;
	mi->src = ld_arena_alloc(m->arena, n * sizeof(char *));
	mi->release = ld_arena_alloc(m->arena, n * sizeof(char *));
	mi->cls_src = ld_arena_alloc(
		m->arena, (size_t)m->nr_classes * n * sizeof(uint32_t) + 1);
	mi->cls_how = ld_arena_alloc(m->arena, (size_t)m->nr_classes * n + 1);
	mi->cls_name = ld_arena_alloc(
		m->arena,
		(size_t)m->nr_classes * n * sizeof(struct ld_str) + 1);
	mi->dep_src = ld_arena_alloc(m->arena,
				     (size_t)m->nr_deps * sizeof(uint32_t) + 1);
	if (!mi->src || !mi->release || !mi->cls_src || !mi->cls_how ||
	    !mi->cls_name || !mi->dep_src)
		goto out;
	for (s = 0; s < n; s++) {
		const char *o = in[s]->origin ? in[s]->origin : "live";
		const char *r = in[s]->release;

		mi->src[s] = ld_arena_str(m->arena, o, strlen(o)).s;
		mi->release[s] = r ? ld_arena_str(m->arena, r, strlen(r)).s :
				     NULL;
	}
	memcpy(mi->cls_src, cls_src,
	       (size_t)m->nr_classes * n * sizeof(uint32_t));
	memcpy(mi->cls_how, cls_how, (size_t)m->nr_classes * n);
	memcpy(mi->cls_name, cls_name,
	       (size_t)m->nr_classes * n * sizeof(struct ld_str));
	if (m->nr_deps)
		memcpy(mi->dep_src, dsrc, m->nr_deps * sizeof(uint32_t));
	for (i = 0; i < m->nr_classes; i++)
		for (s = 0; s < n; s++)
			if (mi->cls_src[i * n + s] != LD_NONE &&
			    ld_name_cmp(mi->cls_name[i * n + s],
					m->classes[i].name))
				mi->nr_renamed++;
	m->merge = mi;
	{
		const char *r0 = in[0]->release;
		bool same = r0 != NULL;
		char buf[64];

		for (s = 1; s < n && same; s++)
			same = in[s]->release && !strcmp(in[s]->release, r0);
		m->release = same ? strdup(r0) : NULL;
		snprintf(buf, sizeof(buf), "merge of %u snapshots", n);
		m->origin = strdup(buf);
		if (!m->origin || (same && !m->release))
			goto out;
	}
	ret = 0;
out:
	ld_map_free(&b.deps);
	ld_map_free(&b.names);
	ld_map_free(&b.chains);
	free(b.ch_next);
	free(b.ch_claim);
	free(cmap);
	free(dsrc);
	free(cls_src);
	free(cls_how);
	free(cls_name);
	if (ret) {
		if (ret == -ENOMEM && !d->msg[0])
			ld_diagf(d, "out of memory");
		ld_model_free(m);
		return ret;
	}
	*out = m;
	return 0;
}

/* Move @src's files into a new part of @m (a union); @src is a single
 * snapshot: ld_load_parts() splits saved unions. */
static int keep_part(struct ld_model *m, struct ld_model *src)
{
	struct ld_part *p;

	p = realloc(m->parts, (m->nr_parts + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	m->parts = p;
	p = &m->parts[m->nr_parts++];
	p->release = src->release;
	p->captured = src->captured;
	p->origin = src->origin;
	p->sections = src->sections;
	p->nr_sections = src->nr_sections;
	src->release = src->captured = src->origin = NULL;
	src->sections = NULL;
	src->nr_sections = 0;
	return 0;
}

int ld_merge_keep(struct ld_model **mp, struct ld_model **in, uint32_t n,
		  const char *origin, struct ld_diag *d)
{
	struct ld_model *m = NULL;
	uint32_t i;
	int ret = ld_merge(&m, in, n, d);

	for (i = 0; i < n && !ret; i++)
		ret = keep_part(m, in[i]);
	if (!ret && origin) {
		free(m->origin);
		m->origin = strdup(origin);
		if (!m->origin)
			ret = -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ld_model_free(in[i]);
	if (ret) {
		if (ret == -ENOMEM && !d->msg[0])
			ld_diagf(d, "out of memory");
		ld_model_free(m);
		m = NULL;
	}
	*mp = m;
	return ret;
}

/* A saved union among the paths stands for its snapshots (flattened). */
int ld_load_merged(struct ld_model **mp, const char *const *paths, uint32_t n,
		   struct ld_diag *d)
{
	struct ld_model *in[LD_MERGE_MAX] = { NULL };
	uint32_t i, nin = 0;
	int ret = 0;

	*mp = NULL;
	d->msg[0] = '\0';
	for (i = 0; i < n && !ret; i++)
		ret = ld_load_parts(paths[i], in, &nin, LD_MERGE_MAX, d);
	if (ret) {
		for (i = 0; i < nin; i++)
			ld_model_free(in[i]);
		return ret;
	}
	return ld_merge_keep(mp, in, nin, NULL, d);
}
