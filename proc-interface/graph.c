// SPDX-License-Identifier: GPL-2.0
/*
 * graph.c - lock-order analysis on the model: strong paths, shortest
 * paths, bounded path and cycle enumeration, and the irq-safety rule.
 * The rules are documented in graph.h; every result is deterministic
 * (adjacency order, then names), and every search has a work bound.
 */
#include <stdlib.h>

#include "ld_internal.h"
#include "graph.h"

/* Work bounds: edge visits per search before it gives up (truncated). */
#define PATH_WORK (20u * 1000 * 1000)
#define CYCLE_WORK (20u * 1000 * 1000)
/* Components up to this size get Johnson's algorithm; larger ones (a
 * union of very different boots) are searched shortest cycle first. */
#define JOHNSON_MAX 64

int ld_name_cmp(struct ld_str a, struct ld_str b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int r = n ? memcmp(a.s, b.s, n) : 0;

	if (r)
		return r;
	return a.len < b.len ? -1 : a.len > b.len;
}

static int cmp_by_name(const void *x, const void *y, void *arg)
{
	const struct ld_model *m = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int r = ld_name_cmp(m->classes[a].name, m->classes[b].name);

	return r ? r : (a > b) - (a < b);
}

uint32_t *ld_classes_by_name(const struct ld_model *m)
{
	return ld_class_ids_sorted(m, cmp_by_name);
}

bool ld_path_is_strong(const struct ld_model *m, const uint32_t *deps,
		       uint32_t n)
{
	unsigned int s = LD_ST_N;
	uint32_t i;

	for (i = 0; i < n && s; i++)
		s = ld_strong_step(s, ld_dep_bits(&m->deps[deps[i]]));
	return s != 0;
}

bool ld_cycle_is_strong(const struct ld_model *m, const uint32_t *deps,
			uint32_t n)
{
	unsigned int s0, s;
	uint32_t i;

	for (s0 = LD_ST_N; s0 <= LD_ST_R; s0 <<= 1) {
		s = s0;
		for (i = 0; i < n && s; i++)
			s = ld_strong_step(s, ld_dep_bits(&m->deps[deps[i]]));
		if (s & s0)
			return true;
	}
	return false;
}

/* Shortest path ------------------------------------------------------ */

static bool repeats_class(const struct ld_model *m, const uint32_t *deps,
			  uint32_t n, uint8_t *mark);
static int simple_instead(const struct ld_model *m, uint32_t from, uint32_t to,
			  unsigned int start, unsigned int end,
			  const uint8_t *skip, uint64_t *budget, uint32_t **hops,
			  uint32_t *nr);

int ld_shortest_path(const struct ld_model *m, uint32_t from, uint32_t to,
		     bool strong, struct ld_path *p)
{
	uint32_t ns = 2 * m->nr_classes, head = 0, tail = 0, *pdep, *pst, *q;
	uint32_t last_dep = LD_NONE, last_from = LD_NONE, k, n, i;
	uint8_t *seen;
	int ret = 0;

	p->deps = NULL;
	p->nr = 0;
	p->walk = false;
	if (from >= m->nr_classes || to >= m->nr_classes)
		return 0;
	pdep = malloc((ns + 1) * sizeof(*pdep));
	pst = malloc((ns + 1) * sizeof(*pst));
	q = malloc((ns + 1) * sizeof(*q));
	seen = calloc(ns + 1, 1);
	if (!pdep || !pst || !q || !seen) {
		ret = -ENOMEM;
		goto out;
	}
	seen[2 * from] = 1;
	q[tail++] = 2 * from;
	while (head < tail && last_dep == LD_NONE) {
		uint32_t x = q[head++], v = x / 2;
		unsigned int s = x & 1 ? LD_ST_R : LD_ST_N;

		for (k = m->out_off[v]; k < m->out_off[v + 1]; k++) {
			uint32_t d = m->out[k], w = m->deps[d].to;
			unsigned int nx =
				strong ? ld_strong_step(
						 s, ld_dep_bits(&m->deps[d])) :
					 LD_ST_N;

			if (nx && w == to) {
				last_dep = d;
				last_from = x;
				break;
			}
			for (i = 0; i < 2; i++) {
				uint32_t y = 2 * w + i;

				if (!(nx & (1u << i)) || seen[y])
					continue;
				seen[y] = 1;
				pdep[y] = d;
				pst[y] = x;
				q[tail++] = y;
			}
		}
	}
	if (last_dep == LD_NONE)
		goto out;
	/* count hops, then fill backwards */
	for (n = 1, i = last_from; i != 2 * from; i = pst[i])
		n++;
	p->deps = malloc(n * sizeof(uint32_t));
	if (!p->deps) {
		ret = -ENOMEM;
		goto out;
	}
	p->nr = n;
	p->deps[--n] = last_dep;
	for (i = last_from; i != 2 * from; i = pst[i])
		p->deps[--n] = pdep[i];
	ret = 1;
	memset(seen, 0, ns + 1);
	if (strong && repeats_class(m, p->deps, p->nr, seen)) {
		uint32_t *hops = NULL, nr = 0;
		uint64_t budget = PATH_WORK;
		int r = simple_instead(m, from, to, LD_ST_N,
				       LD_ST_N | LD_ST_R, NULL, &budget, &hops,
				       &nr);

		if (r == 2) {
			p->walk = true;
		} else {
			free(p->deps);
			p->deps = r == 1 ? hops : NULL;
			p->nr = r == 1 ? nr : 0;
			ret = r;
		}
	}
out:
	free(pdep);
	free(pst);
	free(q);
	free(seen);
	return ret;
}

/* Path enumeration ----------------------------------------------------- */

static int paths_add(struct ld_paths *o, uint32_t *alloc_d, uint32_t *alloc_o,
		     const uint32_t *deps, uint32_t n)
{
	uint32_t have = o->nr ? o->off[o->nr] : 0;

	if (ld_grow((void **)&o->off, alloc_o, o->nr + 1, sizeof(uint32_t)) ||
	    ld_grow((void **)&o->deps, alloc_d, have + n, sizeof(uint32_t)))
		return -ENOMEM;
	if (!o->nr)
		o->off[0] = 0;
	memcpy(o->deps + have, deps, n * sizeof(uint32_t));
	o->off[++o->nr] = have + n;
	return 0;
}

void ld_paths_free(struct ld_paths *p)
{
	free(p->deps);
	free(p->off);
	memset(p, 0, sizeof(*p));
}

/*
 * ld_enum_paths() with the states a path starts in (@start, LD_ST_*) and
 * may end in (@end), leaving out the classes with @skip[] set (NULL:
 * none).  @from == @to asks for simple cycles through it.
 */
static int enum_paths(const struct ld_model *m, uint32_t from, uint32_t to,
		      unsigned int start, unsigned int end, const uint8_t *skip,
		      uint32_t max, uint32_t max_len, uint64_t *budget,
		      struct ld_paths *out)
{
	uint32_t n = m->nr_classes, *dist, *node, *it, *edge, *q;
	uint32_t head = 0, tail = 0, alloc_d = 0, alloc_o = 0, len, k;
	uint32_t longest = from == to ? n : n - 1; /* a simple one */
	bool bounded = max_len && max_len < longest;
	uint8_t *st, *onpath;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (from >= n || to >= n)
		return 0;
	dist = malloc((n + 1) * sizeof(*dist));
	node = malloc((n + 1) * sizeof(*node));
	it = malloc((n + 1) * sizeof(*it));
	edge = malloc((n + 1) * sizeof(*edge));
	q = malloc((n + 1) * sizeof(*q));
	st = malloc(n + 1);
	onpath = calloc(n + 1, 1);
	if (!dist || !node || !it || !edge || !q || !st || !onpath) {
		ret = -ENOMEM;
		goto out;
	}
	/* hops to @to, ignoring strength: a lower bound to prune with */
	memset(dist, 0xff, n * sizeof(*dist));
	dist[to] = 0;
	q[tail++] = to;
	while (head < tail) {
		uint32_t v = q[head++];

		for (k = m->in_off[v]; k < m->in_off[v + 1]; k++) {
			uint32_t u = m->deps[m->in[k]].from;

			if (skip && skip[u])
				continue;
			if (dist[u] == UINT32_MAX) {
				dist[u] = dist[v] + 1;
				q[tail++] = u;
			}
		}
	}
	if (dist[from] == UINT32_MAX || (skip && skip[from]))
		goto out;
	if (!bounded)
		max_len = longest;
	else if (dist[from] > max_len) { /* even the shortest is longer */
		out->truncated = true;
		out->stop = LD_PATHS_LENGTH;
		out->complete_len = max_len;
	}
	/* a cycle through @from: at least one hop */
	for (len = dist[from] ? dist[from] : 1; len <= max_len; len++) {
		bool cut = false;
		int depth = 0;

		node[0] = from;
		st[0] = start;
		it[0] = m->out_off[from];
		onpath[from] = 1;
		while (depth >= 0) {
			uint32_t v = node[depth], d, w;
			unsigned int ns;

			if (it[depth] == m->out_off[v + 1]) {
				onpath[v] = 0;
				depth--;
				continue;
			}
			if (!*budget) {
				out->truncated = true;
				out->stop = LD_PATHS_WORK;
				out->complete_len = len - 1;
				goto unwind;
			}
			--*budget;
			d = m->out[it[depth]++];
			w = m->deps[d].to;
			if ((onpath[w] && w != to) || dist[w] == UINT32_MAX ||
			    (skip && skip[w]))
				continue;
			ns = ld_strong_step(st[depth],
					    ld_dep_bits(&m->deps[d]));
			if (!ns || (w == to && !(ns & end)))
				continue;
			if ((uint32_t)depth + 1 + dist[w] > len) {
				cut = true;
				continue;
			}
			edge[depth] = d;
			if (w == to) {
				/* shorter ones were found at their own length */
				if ((uint32_t)depth + 1 != len)
					continue;
				ret = paths_add(out, &alloc_d, &alloc_o, edge,
						depth + 1);
				if (ret)
					goto unwind;
				if (max && out->nr >= max) {
					out->truncated = true;
					out->stop = LD_PATHS_MAX;
					out->complete_len = len - 1;
					goto unwind;
				}
				continue;
			}
			depth++;
			node[depth] = w;
			st[depth] = ns;
			it[depth] = m->out_off[w];
			onpath[w] = 1;
		}
		if (!cut)
			break;
		/* no simple path is longer than @longest hops */
		if (len == max_len && bounded) {
			out->truncated = true;
			out->stop = LD_PATHS_LENGTH;
			out->complete_len = len;
		}
	}
	goto out;
unwind:
	memset(onpath, 0, n);
out:
	free(dist);
	free(node);
	free(it);
	free(edge);
	free(q);
	free(st);
	free(onpath);
	if (ret)
		ld_paths_free(out);
	return ret;
}

int ld_enum_paths(const struct ld_model *m, uint32_t from, uint32_t to,
		  uint32_t max, uint32_t max_len, struct ld_paths *out)
{
	uint64_t budget = PATH_WORK;
	int ret;

	memset(out, 0, sizeof(*out));
	if (from == to)
		return 0;
	/* one more than asked, to tell a cut list from one of @max paths */
	ret = enum_paths(m, from, to, LD_ST_N, LD_ST_N | LD_ST_R, NULL,
			 max && max < UINT32_MAX ? max + 1 : max, max_len,
			 &budget, out);
	if (!ret && max && out->nr > max) {
		out->nr = max; /* the one more was the longest */
		out->truncated = true;
		out->stop = LD_PATHS_MAX;
	}
	return ret;
}

/* Whether the hops @deps[0..n) pass a class twice (@mark: n + 1 zeroes) */
static bool repeats_class(const struct ld_model *m, const uint32_t *deps,
			  uint32_t n, uint8_t *mark)
{
	bool rep = false;
	uint32_t i;

	if (!n)
		return false;
	mark[m->deps[deps[0]].from] = 1;
	for (i = 0; i < n && !rep; i++) {
		uint32_t w = m->deps[deps[i]].to;

		/* a cycle ends where it started */
		if (mark[w] && !(i == n - 1 && w == m->deps[deps[0]].from))
			rep = true;
		mark[w] = 1;
	}
	for (i = 0; i < n; i++)
		mark[m->deps[deps[i]].from] = mark[m->deps[deps[i]].to] = 0;
	return rep;
}

/*
 * A strong walk that passes a class twice is not a deadlock path (one
 * lock cannot be held by two tasks of the chain); it exists only through
 * a deadlock cycle.  Look for a simple one instead: 1 and @hops filled
 * (free it), 0 when there is none, 2 when the work bound stopped the
 * search, -ENOMEM.
 */
static int simple_instead(const struct ld_model *m, uint32_t from, uint32_t to,
			  unsigned int start, unsigned int end,
			  const uint8_t *skip, uint64_t *budget, uint32_t **hops,
			  uint32_t *nr)
{
	struct ld_paths ps;
	int ret;

	ret = enum_paths(m, from, to, start, end, skip, 1, 0, budget, &ps);
	if (ret)
		return ret;
	if (ps.nr) {
		*nr = ps.off[1];
		*hops = ps.deps;
		ps.deps = NULL;
		ret = 1;
	} else {
		ret = ps.truncated ? 2 : 0;
	}
	ld_paths_free(&ps);
	return ret;
}

/* Strongly connected components ------------------------------------------ */

int ld_scc(uint32_t n, const uint32_t *off, const uint32_t *dst, uint32_t *comp,
	   uint32_t *nr_comp)
{
	uint32_t *index, *low, *stack, *call, *pos, sp = 0, idx = 0, nc = 0, s;
	uint8_t *on;
	int ret = 0;

	index = malloc((n + 1) * sizeof(*index));
	low = malloc((n + 1) * sizeof(*low));
	stack = malloc((n + 1) * sizeof(*stack));
	call = malloc((n + 1) * sizeof(*call));
	pos = malloc((n + 1) * sizeof(*pos));
	on = calloc(n + 1, 1);
	if (!index || !low || !stack || !call || !pos || !on) {
		ret = -ENOMEM;
		goto out;
	}
	memset(index, 0xff, n * sizeof(*index));
	for (s = 0; s < n; s++) {
		uint32_t csp = 0;

		if (index[s] != UINT32_MAX)
			continue;
		index[s] = low[s] = idx++;
		stack[sp++] = s;
		on[s] = 1;
		pos[s] = off[s];
		call[csp++] = s;
		while (csp) {
			uint32_t v = call[csp - 1];

			if (pos[v] < off[v + 1]) {
				uint32_t w = dst[pos[v]++];

				if (index[w] == UINT32_MAX) {
					index[w] = low[w] = idx++;
					stack[sp++] = w;
					on[w] = 1;
					pos[w] = off[w];
					call[csp++] = w;
				} else if (on[w] && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			csp--;
			if (low[v] == index[v]) {
				uint32_t x;

				do {
					x = stack[--sp];
					on[x] = 0;
					comp[x] = nc;
				} while (x != v);
				nc++;
			}
			if (csp && low[v] < low[call[csp - 1]])
				low[call[csp - 1]] = low[v];
		}
	}
	*nr_comp = nc;
out:
	free(index);
	free(low);
	free(stack);
	free(call);
	free(pos);
	free(on);
	return ret;
}

/* Canonical cycle id ------------------------------------------------------ */

static uint32_t fnv1a(uint32_t h, const void *p, size_t len)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= s[i];
		h *= 16777619u;
	}
	return h;
}

/*
 * A name as the cycle id sees it: the kernel prints name[#N][/S], and #N
 * (the name_version) is a per-boot numbering of keys that share a name, so
 * the id leaves it out.  @p[0] is what precedes "#N", @p[1] the "/S" tail.
 */
static void id_pieces(struct ld_str s, struct ld_str p[2])
{
	size_t end = s.len, i;

	p[0] = s;
	p[1] = (struct ld_str){ s.s + s.len, 0 };
	i = end;
	while (i > 0 && s.s[i - 1] >= '0' && s.s[i - 1] <= '9')
		i--;
	if (i < end && i > 0 && s.s[i - 1] == '/') { /* "/S" */
		end = i - 1;
		i = end;
		while (i > 0 && s.s[i - 1] >= '0' && s.s[i - 1] <= '9')
			i--;
	}
	if (i < end && i > 1 && s.s[i - 1] == '#') {
		p[0].len = i - 1;
		p[1] = (struct ld_str){ s.s + end, s.len - end };
	}
}

static int id_name_cmp(struct ld_str a, struct ld_str b)
{
	struct ld_str pa[2], pb[2];
	size_t ia = 0, ib = 0, la, lb;
	int ka = 0, kb = 0;

	id_pieces(a, pa);
	id_pieces(b, pb);
	la = pa[0].len + pa[1].len;
	lb = pb[0].len + pb[1].len;
	while (ia < la && ib < lb) {
		unsigned char ca, cb;

		if (ka == 0 && ia >= pa[0].len)
			ka = 1;
		if (kb == 0 && ib >= pb[0].len)
			kb = 1;
		ca = pa[ka].s[ka ? ia - pa[0].len : ia];
		cb = pb[kb].s[kb ? ib - pb[0].len : ib];
		if (ca != cb)
			return ca < cb ? -1 : 1;
		ia++;
		ib++;
	}
	return (la > lb) - (la < lb);
}

/* compare the rotations of @names starting at a and at b */
static int rot_cmp(const struct ld_str *names, uint32_t n, uint32_t a,
		   uint32_t b)
{
	uint32_t i;
	int r;

	for (i = 0; i < n; i++) {
		r = id_name_cmp(names[(a + i) % n], names[(b + i) % n]);
		if (r)
			return r;
	}
	return 0;
}

uint32_t ld_cycle_id(const struct ld_str *names, uint32_t n,
		     char id[LD_CYCLE_ID_LEN])
{
	uint32_t rot = 0, i, h = 2166136261u;

	for (i = 1; i < n; i++)
		if (rot_cmp(names, n, i, rot) < 0)
			rot = i;
	for (i = 0; i < n; i++) {
		struct ld_str p[2];

		id_pieces(names[(rot + i) % n], p);
		h = fnv1a(h, p[0].s, p[0].len);
		h = fnv1a(h, p[1].s, p[1].len);
		h = fnv1a(h, "\n", 1); /* never inside a printed name */
	}
	snprintf(id, LD_CYCLE_ID_LEN, "cycle-%08x", h);
	return n ? rot : 0;
}

/* Cycles ------------------------------------------------------------------ */

struct cyc {
	const struct ld_model *m;
	struct ld_cycles *o;
	uint32_t max;
	bool keep_weak;
	uint64_t work;
	bool stop;
	/* Johnson */
	uint8_t *blocked;
	uint32_t **bl, *nbl, *abl; /* B lists */
	uint32_t *ustack;
};

static int cycle_add(struct cyc *c, const uint32_t *deps, uint32_t n)
{
	const struct ld_model *m = c->m;
	struct ld_cycles *o = c->o;
	struct ld_str names[64], *nm = names;
	bool strong = ld_cycle_is_strong(m, deps, n);
	struct ld_cycle *cy;
	uint32_t rot, i;

	for (i = 0; i < n; i++)
		if (!m->deps[deps[i]].type_known)
			o->types_known = false;
	if (!strong) {
		o->nr_weak++;
		if (!c->keep_weak)
			return 0;
	}
	if (n > 64) {
		nm = malloc(n * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		nm[i] = m->classes[m->deps[deps[i]].from].name;
	if (ld_grow((void **)&o->c, &o->alloc_c, o->nr, sizeof(*o->c)) ||
	    ld_grow((void **)&o->deps, &o->alloc_deps, o->nr_deps + n,
		    sizeof(uint32_t))) {
		if (nm != names)
			free(nm);
		return -ENOMEM;
	}
	cy = &o->c[o->nr++];
	rot = ld_cycle_id(nm, n, cy->id);
	cy->first = o->nr_deps;
	cy->nr = n;
	cy->strong = strong;
	for (i = 0; i < n; i++)
		o->deps[o->nr_deps++] = deps[(rot + i) % n];
	if (nm != names)
		free(nm);
	if (c->max && o->nr >= c->max) {
		c->stop = true;
		o->truncated = true; /* there may be more */
		o->stop = LD_PATHS_MAX;
	}
	return 0;
}

static int bl_add(struct cyc *c, uint32_t w, uint32_t v)
{
	uint32_t i;

	for (i = 0; i < c->nbl[w]; i++)
		if (c->bl[w][i] == v)
			return 0;
	if (ld_grow((void **)&c->bl[w], &c->abl[w], c->nbl[w],
		    sizeof(uint32_t)))
		return -ENOMEM;
	c->bl[w][c->nbl[w]++] = v;
	return 0;
}

static void unblock(struct cyc *c, uint32_t u)
{
	uint32_t sp = 0, i;

	c->blocked[u] = 0;
	c->ustack[sp++] = u;
	while (sp) {
		uint32_t x = c->ustack[--sp];

		for (i = 0; i < c->nbl[x]; i++) {
			uint32_t w = c->bl[x][i];

			if (c->blocked[w]) {
				c->blocked[w] = 0;
				c->ustack[sp++] = w;
			}
		}
		c->nbl[x] = 0;
	}
}

/*
 * The cycles whose smallest class id is @s, inside its component.
 * Johnson's circuit() with an explicit stack.
 */
static int circuits(struct cyc *c, uint32_t s, const uint32_t *comp,
		    uint32_t *node, uint32_t *it, uint32_t *edge, uint8_t *f,
		    uint8_t *onpath)
{
	const struct ld_model *m = c->m;
	int depth = 0, ret;

#define ALLOWED(w) (comp[w] == comp[s] && (w) >= s)
	node[0] = s;
	it[0] = m->out_off[s];
	f[0] = 0;
	c->blocked[s] = 1;
	onpath[s] = 1;
	while (depth >= 0) {
		uint32_t v = node[depth], d, w, k;

		if (c->stop)
			break;
		if (it[depth] < m->out_off[v + 1]) {
			if (++c->work > CYCLE_WORK) {
				c->o->truncated = true;
				c->o->stop = LD_PATHS_WORK;
				c->stop = true;
				break;
			}
			d = m->out[it[depth]++];
			w = m->deps[d].to;
			if (!ALLOWED(w))
				continue;
			if (w == s) {
				edge[depth] = d;
				ret = cycle_add(c, edge, depth + 1);
				if (ret)
					return ret;
				f[depth] = 1;
				continue;
			}
			if (c->blocked[w])
				continue;
			edge[depth] = d;
			depth++;
			node[depth] = w;
			it[depth] = m->out_off[w];
			f[depth] = 0;
			onpath[w] = 1;
			c->blocked[w] = 1;
			continue;
		}
		/* v is done */
		if (f[depth]) {
			unblock(c, v);
		} else {
			for (k = m->out_off[v]; k < m->out_off[v + 1]; k++) {
				w = m->deps[m->out[k]].to;
				if (ALLOWED(w)) {
					ret = bl_add(c, w, v);
					if (ret)
						return ret;
				}
			}
		}
		onpath[v] = 0;
		if (depth && f[depth])
			f[depth - 1] = 1;
		depth--;
	}
#undef ALLOWED
	/* leave the arrays clean for the next start */
	for (; depth >= 0; depth--)
		onpath[node[depth]] = 0;
	return 0;
}

/*
 * The cycles of the @nm classes @members (in id order, each in a cycle),
 * shortest first, up to @lmax hops: for each length L, for each start s
 * (the smallest class of the cycle), a depth-bounded search that only
 * steps to a class which can still close the cycle in time: with one hop
 * left it must lead to s, with two, to a class that does (marked from s's
 * incoming dependencies).  Whatever stops it, every cycle shorter than
 * the last length reached is listed; Johnson's algorithm would instead
 * list some of the (possibly astronomically many) long cycles first.
 */
static int deepen(struct cyc *c, const uint32_t *members, uint32_t nm,
		  uint32_t lmax, const uint32_t *comp, uint32_t *node,
		  uint32_t *it, uint32_t *edge, uint8_t *onpath,
		  uint32_t *mark1, uint32_t *mark2)
{
	const struct ld_model *m = c->m;
	uint32_t L, j, k, stamp = 0;
	int ret;

	for (L = 1; L <= lmax && !c->stop; L++) {
		for (j = 0; j < nm && !c->stop; j++) {
			uint32_t s = members[j], st = ++stamp;
			int depth = 0;

#define IN_C(w) (comp[w] == comp[s] && (w) >= s)
			for (k = m->in_off[s]; k < m->in_off[s + 1]; k++) {
				uint32_t u = m->deps[m->in[k]].from;

				if (IN_C(u))
					mark1[u] = st;
			}
			if (L >= 3)
				for (k = m->in_off[s]; k < m->in_off[s + 1];
				     k++) {
					uint32_t u = m->deps[m->in[k]].from, q;

					if (!IN_C(u) || mark1[u] != st)
						continue;
					for (q = m->in_off[u];
					     q < m->in_off[u + 1]; q++) {
						uint32_t x =
							m->deps[m->in[q]].from;

						if (IN_C(x))
							mark2[x] = st;
					}
				}
			node[0] = s;
			it[0] = m->out_off[s];
			onpath[s] = 1;
			while (depth >= 0 && !c->stop) {
				uint32_t v = node[depth], d, w, left;

				if (it[depth] == m->out_off[v + 1]) {
					onpath[v] = 0;
					depth--;
					continue;
				}
				if (++c->work > CYCLE_WORK) {
					c->o->truncated = true;
					c->o->stop = LD_PATHS_WORK;
					c->stop = true;
					break;
				}
				d = m->out[it[depth]++];
				w = m->deps[d].to;
				if (w == s) {
					if ((uint32_t)depth + 1 == L) {
						edge[depth] = d;
						ret = cycle_add(c, edge, L);
						if (ret)
							return ret;
					}
					continue;
				}
				if (!IN_C(w) || onpath[w] ||
				    (uint32_t)depth + 1 >= L)
					continue;
				left = L - depth - 1;
				if ((left == 1 && mark1[w] != st) ||
				    (left == 2 && mark2[w] != st))
					continue;
				edge[depth] = d;
				depth++;
				node[depth] = w;
				it[depth] = m->out_off[w];
				onpath[w] = 1;
			}
#undef IN_C
			for (; depth >= 0; depth--)
				onpath[node[depth]] = 0;
		}
		if (!c->stop)
			c->o->deepened_to = L;
	}
	return 0;
}

struct sort_arg {
	const struct ld_model *m;
	const struct ld_cycles *o;
};

static int cycle_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_cycle *a = x, *b = y;
	const struct ld_cycles *o = ((struct sort_arg *)arg)->o;
	const struct ld_model *m = ((struct sort_arg *)arg)->m;
	uint32_t i;
	int r;

	if (a->nr != b->nr)
		return a->nr < b->nr ? -1 : 1;
	for (i = 0; i < a->nr; i++) {
		uint32_t ca = m->deps[o->deps[a->first + i]].from;
		uint32_t cb = m->deps[o->deps[b->first + i]].from;

		r = ld_name_cmp(m->classes[ca].name, m->classes[cb].name);
		if (r)
			return r;
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return a->first < b->first ? -1 : a->first > b->first;
}

static bool same_classes(const struct ld_model *m, const struct ld_cycles *o,
			 const struct ld_cycle *a, const struct ld_cycle *b)
{
	uint32_t i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (m->deps[o->deps[a->first + i]].from !=
		    m->deps[o->deps[b->first + i]].from)
			return false;
	return true;
}

int ld_find_cycles(const struct ld_model *m, uint32_t max, uint32_t max_len,
		   bool keep_weak, struct ld_cycles *out)
{
	uint32_t n = m->nr_classes, *dst = NULL, *comp = NULL, *size = NULL;
	uint32_t *node = NULL, *it = NULL, *edge = NULL, nc = 0, i, k, w;
	uint8_t *f = NULL, *onpath = NULL, *loop = NULL;
	bool johnson;
	struct cyc c = { .m = m,
			 .o = out,
			 .max = max,
			 .keep_weak = keep_weak };
	uint32_t *coff = NULL, *members = NULL;
	struct sort_arg sa;
	int ret = -ENOMEM;

	memset(out, 0, sizeof(*out));
	out->types_known = true;
	if (!n)
		return 0;
	dst = malloc((m->nr_deps + 1) * sizeof(*dst));
	comp = malloc((n + 1) * sizeof(*comp));
	size = calloc(n + 1, sizeof(*size));
	loop = calloc(n + 1, 1);
	node = malloc((n + 1) * sizeof(*node));
	it = malloc((n + 1) * sizeof(*it));
	edge = malloc((n + 1) * sizeof(*edge));
	f = malloc(n + 1);
	onpath = calloc(n + 1, 1);
	c.blocked = calloc(n + 1, 1);
	c.bl = calloc(n + 1, sizeof(*c.bl));
	c.nbl = calloc(n + 1, sizeof(*c.nbl));
	c.abl = calloc(n + 1, sizeof(*c.abl));
	c.ustack = malloc((n + 1) * sizeof(*c.ustack));
	if (!dst || !comp || !size || !loop || !node || !it || !edge || !f ||
	    !onpath || !c.blocked || !c.bl || !c.nbl || !c.abl || !c.ustack)
		goto out;
	for (i = 0; i < n; i++)
		for (k = m->out_off[i]; k < m->out_off[i + 1]; k++) {
			dst[k] = m->deps[m->out[k]].to;
			if (dst[k] == i)
				loop[i] = 1;
		}
	ret = ld_scc(n, m->out_off, dst, comp, &nc);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		size[comp[i]]++;
	for (i = 0; i < nc; i++)
		if (size[i] > 1) {
			out->nr_components++;
			if (size[i] > out->largest_component)
				out->largest_component = size[i];
		}
	for (i = 0; i < n; i++)
		if (loop[i] && size[comp[i]] == 1) {
			out->nr_components++;
			if (!out->largest_component)
				out->largest_component = 1;
		}
	/* classes by component, in id order */
	coff = calloc(nc + 2, sizeof(*coff));
	members = malloc((n + 1) * sizeof(*members));
	if (!coff || !members) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nc; i++)
		coff[i + 1] = coff[i] + size[i];
	for (i = 0; i < n; i++)
		members[coff[comp[i]]++] = i;
	for (i = nc; i > 0; i--)
		coff[i] = coff[i - 1];
	coff[0] = 0;
	/*
	 * Johnson's algorithm lists every cycle in one pass, in an order of
	 * its own.  Kept when it lists them all; with more than @max cycles,
	 * at its work bound, with @max_len, or on a component too large for
	 * a full listing, the cycles are searched shortest first instead, so
	 * a cut list holds the short ones (the ones worth reading).
	 */
	johnson = !max_len && out->largest_component <= JOHNSON_MAX;
	/* both searches look for one more than @max: is the list cut? */
	c.max = max ? max + 1 : 0;
	for (i = 0; i < n && johnson && !c.stop; i++) {
		if (size[comp[i]] < 2 && !loop[i])
			continue;
		ret = circuits(&c, i, comp, node, it, edge, f, onpath);
		if (ret)
			goto out;
		/* reset Johnson's state for the component */
		for (k = coff[comp[i]]; k < coff[comp[i] + 1]; k++) {
			w = members[k];
			c.blocked[w] = 0;
			c.nbl[w] = 0;
		}
	}
	if (johnson && c.stop) {
		johnson = false;
		c.stop = false;
		c.work = 0;
		out->nr = out->nr_deps = out->nr_weak = 0;
		out->truncated = false;
		out->stop = LD_PATHS_DONE;
		out->types_known = true;
	}
	if (!johnson && out->nr_components) {
		uint32_t *mark1, *mark2, lmax = out->largest_component, nm = 0;

		if (max_len && max_len < lmax) {
			lmax = max_len;
			out->truncated = true; /* longer ones not searched */
			out->stop = LD_PATHS_LENGTH; /* unless more stops it */
		}
		mark1 = calloc(n + 1, sizeof(*mark1));
		mark2 = calloc(n + 1, sizeof(*mark2));
		if (!mark1 || !mark2) {
			free(mark1);
			free(mark2);
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < n; i++)
			if (size[comp[i]] > 1 || loop[i])
				members[nm++] = i;
		ret = deepen(&c, members, nm, lmax, comp, node, it, edge,
			     onpath, mark1, mark2);
		free(mark1);
		free(mark2);
		if (ret)
			goto out;
		/* the one past @max only told that the list is cut */
		if (max && out->nr > max) {
			out->nr--;
			out->nr_deps -= out->c[out->nr].nr;
		}
	}
	sa.m = m;
	sa.o = out;
	if (out->nr)
		qsort_r(out->c, out->nr, sizeof(*out->c), cycle_cmp, &sa);
	/* parallel dependencies give the same cycle twice: keep one */
	for (i = k = 0; i < out->nr; i++) {
		if (k && same_classes(m, out, &out->c[k - 1], &out->c[i]))
			continue;
		out->c[k++] = out->c[i];
	}
	out->nr = k;
	ret = 0;
out:
	if (c.bl)
		for (i = 0; i < n; i++)
			free(c.bl[i]);
	free(c.bl);
	free(c.nbl);
	free(c.abl);
	free(c.blocked);
	free(c.ustack);
	free(coff);
	free(members);
	free(dst);
	free(comp);
	free(size);
	free(loop);
	free(node);
	free(it);
	free(edge);
	free(f);
	free(onpath);
	if (ret)
		ld_cycles_free(out);
	return ret;
}

void ld_cycles_free(struct ld_cycles *c)
{
	free(c->c);
	free(c->deps);
	memset(c, 0, sizeof(*c));
}

void ld_cycle_names(const struct ld_model *m, const struct ld_cycles *cs,
		    uint32_t i, struct ld_str *names)
{
	const struct ld_cycle *c = &cs->c[i];
	uint32_t k;

	for (k = 0; k < c->nr; k++)
		names[k] =
			m->classes[m->deps[cs->deps[c->first + k]].from].name;
}

/* The irq-safety rule ------------------------------------------------------ */

#define BIT(x) (1u << LD_##x)

static const struct {
	uint16_t safe_w, safe_r, un_w, un_r;
	const char *name;
} irq_states[LD_IRQ_NR] = {
	{ BIT(USED_IN_HARDIRQ), BIT(USED_IN_HARDIRQ_READ), BIT(ENABLED_HARDIRQ),
	  BIT(ENABLED_HARDIRQ_READ), "hardirq" },
	{ BIT(USED_IN_SOFTIRQ), BIT(USED_IN_SOFTIRQ_READ), BIT(ENABLED_SOFTIRQ),
	  BIT(ENABLED_SOFTIRQ_READ), "softirq" },
};

static unsigned int bitno(uint16_t mask)
{
	return __builtin_ctz(mask);
}

/* The product graph: node 2v is class v reached N, 2v + 1 reached R. */
struct pgraph {
	uint32_t n; /* 2 x classes */
	uint32_t *off, *dst, *dep;
};

static int pgraph_build(const struct ld_model *m, const uint8_t *skip,
			struct pgraph *g)
{
	uint32_t nc = m->nr_classes, v, k, pass, e;

	g->n = 2 * nc;
	g->off = calloc(g->n + 2, sizeof(uint32_t));
	if (!g->off)
		return -ENOMEM;
	for (pass = 0; pass < 2; pass++) {
		e = 0;
		for (v = 0; v < nc; v++) {
			unsigned int s;

			for (s = 0; s < 2; s++) {
				if (pass)
					g->off[2 * v + s] = e;
				if (skip[v])
					continue;
				for (k = m->out_off[v]; k < m->out_off[v + 1];
				     k++) {
					uint32_t d = m->out[k],
						 w = m->deps[d].to;
					unsigned int nx = ld_strong_step(
						s ? LD_ST_R : LD_ST_N,
						ld_dep_bits(&m->deps[d]));

					if (skip[w])
						continue;
					if (nx & LD_ST_N) {
						if (pass) {
							g->dst[e] = 2 * w;
							g->dep[e] = d;
						}
						e++;
					}
					if (nx & LD_ST_R) {
						if (pass) {
							g->dst[e] = 2 * w + 1;
							g->dep[e] = d;
						}
						e++;
					}
				}
			}
		}
		if (!pass) {
			g->dst = malloc((e + 1) * sizeof(uint32_t));
			g->dep = malloc((e + 1) * sizeof(uint32_t));
			if (!g->dst || !g->dep)
				return -ENOMEM;
		}
	}
	g->off[g->n] = e;
	return 0;
}

static void pgraph_free(struct pgraph *g)
{
	free(g->off);
	free(g->dst);
	free(g->dep);
}

/* BFS from one product node: parents and levels. */
struct pbfs {
	uint32_t start;
	uint32_t *pdep, *pnode, *level, *q;
};

static void pbfs_run(const struct pgraph *g, struct pbfs *b, uint32_t start)
{
	uint32_t head = 0, tail = 0, k;

	memset(b->level, 0xff, g->n * sizeof(uint32_t));
	b->start = start;
	b->level[start] = 0;
	b->q[tail++] = start;
	while (head < tail) {
		uint32_t x = b->q[head++];

		for (k = g->off[x]; k < g->off[x + 1]; k++) {
			uint32_t y = g->dst[k];

			if (b->level[y] != UINT32_MAX)
				continue;
			b->level[y] = b->level[x] + 1;
			b->pdep[y] = g->dep[k];
			b->pnode[y] = x;
			b->q[tail++] = y;
		}
	}
}

/* Append the tree path to product node @x as a new finding. */
static int irq_add(struct ld_irq_result *r, const struct pbfs *b, uint32_t x)
{
	struct ld_irq_finding *f;
	uint32_t n = b->level[x], y;

	if (ld_grow((void **)&r->f, &r->alloc_f, r->nr, sizeof(*r->f)) ||
	    ld_grow((void **)&r->deps, &r->alloc_deps, r->nr_deps + n,
		    sizeof(uint32_t)))
		return -ENOMEM;
	f = &r->f[r->nr++];
	memset(f, 0, sizeof(*f));
	f->first = r->nr_deps;
	f->nr = n;
	r->nr_deps += n;
	for (y = x; y != b->start; y = b->pnode[y])
		r->deps[f->first + --n] = b->pdep[y];
	return 0;
}

/*
 * The path of the last finding, a shortest strong walk: when it passes a
 * class twice, the shortest simple strong path instead (between classes
 * @s and @u, from state @start to one of @end).  1 kept or replaced, 0
 * there is none (the caller drops the finding), -ENOMEM.
 */
static int irq_simple(const struct ld_model *m, const uint8_t *skip,
		      struct ld_irq_result *r, uint8_t *mark, uint64_t *budget,
		      unsigned int start, unsigned int end, uint32_t s,
		      uint32_t u)
{
	struct ld_irq_finding *f = &r->f[r->nr - 1];
	uint32_t *hops = NULL, nr = 0;
	int ret;

	if (!repeats_class(m, r->deps + f->first, f->nr, mark))
		return 1;
	ret = simple_instead(m, s, u, start, end, skip, budget, &hops, &nr);
	if (ret == 2) {
		f->walk = true;
		r->walks = true;
		return 1;
	}
	if (ret == 1) {
		r->nr_deps = f->first;
		if (ld_grow((void **)&r->deps, &r->alloc_deps,
			    r->nr_deps + nr, sizeof(uint32_t))) {
			free(hops);
			return -ENOMEM;
		}
		memcpy(r->deps + f->first, hops, nr * sizeof(uint32_t));
		r->nr_deps += nr;
		f->nr = nr;
	}
	free(hops);
	return ret;
}

static int irq_state(const struct ld_model *m, const uint8_t *skip,
		     const struct pgraph *g, const uint32_t *comp, uint32_t nc,
		     const uint32_t *byname, int st, uint32_t max,
		     struct ld_irq_result *r, struct pbfs *b, uint64_t *budget)
{
	uint16_t sw = irq_states[st].safe_w, sr = irq_states[st].safe_r;
	uint16_t uw = irq_states[st].un_w, ur = irq_states[st].un_r;
	uint32_t ncl = m->nr_classes, nt = 0, words, *tidx, *tcls, i, k, c;
	uint32_t *coff = NULL, *cnodes = NULL;
	uint64_t *bits = NULL, *reach = NULL;
	uint8_t *mark;
	int ret = -ENOMEM;

	tidx = malloc((ncl + 1) * sizeof(*tidx));
	tcls = malloc((ncl + 1) * sizeof(*tcls));
	mark = calloc(ncl + 1, 1);
	if (!tidx || !tcls || !mark)
		goto out;
	/* targets, numbered in name order so that bit order is name order */
	for (i = 0; i < ncl; i++) {
		const struct ld_class *cl = &m->classes[byname[i]];

		tidx[byname[i]] = UINT32_MAX;
		if (!skip[byname[i]] &&
		    (cl->usage & cl->usage_known & (uw | ur))) {
			tidx[byname[i]] = nt;
			tcls[nt++] = byname[i];
		}
	}
	ret = 0;
	if (!nt)
		goto out;
	ret = -ENOMEM;
	words = (nt + 63) / 64;
	bits = calloc((size_t)nc * words + 1, sizeof(uint64_t));
	reach = malloc((words + 1) * sizeof(uint64_t));
	coff = calloc(nc + 2, sizeof(uint32_t));
	cnodes = malloc((g->n + 1) * sizeof(uint32_t));
	if (!bits || !reach || !coff || !cnodes)
		goto out;
	/* nodes by component */
	for (i = 0; i < g->n; i++)
		coff[comp[i] + 1]++;
	for (i = 0; i < nc; i++)
		coff[i + 1] += coff[i];
	{
		uint32_t *pos = malloc((nc + 1) * sizeof(uint32_t));

		if (!pos)
			goto out;
		memcpy(pos, coff, nc * sizeof(uint32_t));
		for (i = 0; i < g->n; i++)
			cnodes[pos[comp[i]]++] = i;
		free(pos);
	}
	/* components complete sinks first: successors are already done */
	for (c = 0; c < nc; c++) {
		uint64_t *bc = bits + (size_t)c * words;

		for (i = coff[c]; i < coff[c + 1]; i++) {
			uint32_t x = cnodes[i], v = x / 2;
			uint16_t u = m->classes[v].usage &
				     m->classes[v].usage_known;

			if (tidx[v] != UINT32_MAX &&
			    (u & (x & 1 ? uw : uw | ur)))
				bc[tidx[v] / 64] |= 1ULL << (tidx[v] % 64);
			for (k = g->off[x]; k < g->off[x + 1]; k++) {
				uint32_t cy = comp[g->dst[k]], wd;
				const uint64_t *by;

				if (cy == c)
					continue;
				by = bits + (size_t)cy * words;
				for (wd = 0; wd < words; wd++)
					bc[wd] |= by[wd];
			}
		}
	}
	for (i = 0; i < ncl; i++) {
		uint32_t s = byname[i], start, wd;
		const struct ld_class *cl = &m->classes[s];
		uint16_t u = cl->usage & cl->usage_known;
		uint64_t cnt = 0;
		bool bfs_done = false;

		if (skip[s] || !(u & (sw | sr)))
			continue;
		start = u & sw ? 2 * s : 2 * s + 1;
		memset(reach, 0, words * sizeof(uint64_t));
		for (k = g->off[start]; k < g->off[start + 1]; k++) {
			const uint64_t *by =
				bits + (size_t)comp[g->dst[k]] * words;

			for (wd = 0; wd < words; wd++)
				reach[wd] |= by[wd];
		}
		/*
		 * S reaching itself is a cycle through S.  S safe and unsafe
		 * is inconsistent (reported apart) unless only read-safe and
		 * read-unsafe; then the path starts -(E*)-> and ends -(*N)->,
		 * so the cycle is strong.  check_prev_add() runs
		 * check_noncircular() before check_irq_usage(): lockdep
		 * reports the deadlock, never S against itself.
		 */
		if (tidx[s] != UINT32_MAX)
			reach[tidx[s] / 64] &= ~(1ULL << (tidx[s] % 64));
		for (wd = 0; wd < words; wd++)
			cnt += __builtin_popcountll(reach[wd]);
		r->total[st] += cnt;
		for (wd = 0; wd < words && cnt; wd++) {
			uint64_t x = reach[wd];

			while (x) {
				uint32_t t = wd * 64 + __builtin_ctzll(x), uc;
				uint32_t lv[2], h;
				struct ld_irq_finding *f;
				uint16_t uu;
				int sy;

				x &= x - 1;
				if (max && r->nr >= max) {
					r->truncated = true;
					break;
				}
				uc = tcls[t];
				uu = m->classes[uc].usage &
				     m->classes[uc].usage_known;
				if (!bfs_done) {
					pbfs_run(g, b, start);
					bfs_done = true;
				}
				/* hops to reach uc in state N (0) and R (1) */
				for (sy = 0; sy < 2; sy++)
					lv[sy] = b->level[2 * uc + sy];
				if (!(uu & uw)) /* only read-unsafe */
					lv[1] = UINT32_MAX;
				sy = lv[1] < lv[0];
				if (lv[sy] == UINT32_MAX)
					continue; /* cannot happen */
				ret = irq_add(r, b, 2 * uc + sy);
				if (ret)
					goto out;
				f = &r->f[r->nr - 1];
				/* a walk through a class twice: graph.h */
				ret = irq_simple(m, skip, r, mark, budget,
						 u & sw ? LD_ST_N : LD_ST_R,
						 uu & uw ? LD_ST_N | LD_ST_R :
							   LD_ST_N,
						 s, uc);
				if (ret < 0)
					goto out;
				if (!ret) {
					r->nr--;
					r->nr_deps = f->first;
					r->total[st]--;
					continue;
				}
				f = &r->f[r->nr - 1];
				f->state = st;
				f->safe = s;
				f->unsafe = uc;
				f->safe_bit = bitno(u & sw ? sw : sr);
				f->unsafe_bit =
					bitno(sy || (uu & uw) ? uw : ur);
				h = fnv1a(2166136261u, irq_states[st].name,
					  strlen(irq_states[st].name));
				h = fnv1a(h, "\n", 1);
				h = fnv1a(h, cl->name.s, cl->name.len);
				h = fnv1a(h, "\n", 1);
				h = fnv1a(h, m->classes[uc].name.s,
					  m->classes[uc].name.len);
				snprintf(f->id, sizeof(f->id), "irq-%08x", h);
			}
		}
	}
	ret = 0;
out:
	free(tidx);
	free(tcls);
	free(mark);
	free(bits);
	free(reach);
	free(coff);
	free(cnodes);
	return ret;
}

int ld_irq_check(const struct ld_model *m, uint32_t max,
		 struct ld_irq_result *r)
{
	uint64_t budget = PATH_WORK; /* for all the searches of irq_simple() */
	uint32_t n = m->nr_classes, *comp = NULL, nc = 0, *byname = NULL, i, k;
	struct pgraph g = { 0 };
	struct pbfs b = { 0 };
	uint8_t *skip = NULL;
	bool usage = false;
	int ret = -ENOMEM, st;

	memset(r, 0, sizeof(*r));
	r->types_known = true;
	for (i = 0; i < n; i++)
		if (m->classes[i].usage_known & LD_USAGE_IRQ)
			usage = true;
	if (!usage)
		return -ENODATA;
	skip = calloc(n + 1, 1);
	if (!skip)
		goto out;
	for (i = 0; i < n; i++) {
		const struct ld_class *c = &m->classes[i];

		if (ld_known(c->lock_type) && c->lock_type.v != 0) {
			skip[i] = 1;
			r->nr_skipped++;
		}
		for (k = m->out_off[i]; k < m->out_off[i + 1]; k++)
			if (!m->deps[m->out[k]].type_known)
				r->types_known = false;
	}
	/* one class both safe and unsafe (valid_state()) */
	for (st = 0; st < LD_IRQ_NR; st++) {
		for (i = 0; i < n; i++) {
			const struct ld_class *c = &m->classes[i];
			uint16_t u = c->usage & c->usage_known;
			uint16_t sw = irq_states[st].safe_w,
				 sr = irq_states[st].safe_r,
				 uw = irq_states[st].un_w,
				 ur = irq_states[st].un_r;
			struct ld_irq_inconsistent *in;
			uint16_t a = 0, bb = 0;

			/*
			 * Every class, also those the searches leave out:
			 * mark_lock_irq() checks valid_state() whatever the
			 * lock_type (usage_skip() is for the BFS only)
			 */
			if ((u & sw) && (u & (uw | ur))) {
				a = sw;
				bb = u & uw ? uw : ur;
			} else if ((u & sr) && (u & uw)) {
				a = sr;
				bb = uw;
			} else {
				continue;
			}
			if (ld_grow((void **)&r->inc, &r->alloc_inc, r->nr_inc,
				    sizeof(*r->inc)))
				goto out;
			in = &r->inc[r->nr_inc++];
			in->cls = i;
			in->state = st;
			in->safe_bit = bitno(a);
			in->unsafe_bit = bitno(bb);
		}
	}
	byname = ld_classes_by_name(m);
	comp = malloc((2 * n + 1) * sizeof(*comp));
	if (!byname || !comp)
		goto out;
	ret = pgraph_build(m, skip, &g);
	if (ret)
		goto out;
	ret = ld_scc(g.n, g.off, g.dst, comp, &nc);
	if (ret)
		goto out;
	/*
	 * A strong walk S -> U that no simple strong path matches exists only
	 * through a strong closed walk, that is a class reached
	 * non-recursively and again so (a node 2v in a cycle of the product
	 * graph).  Without one, the totals count strong paths exactly.
	 */
	for (i = 0; i < n && !r->cycle_walks; i++) {
		for (k = g.off[2 * i]; k < g.off[2 * i + 1]; k++) {
			if (comp[g.dst[k]] == comp[2 * i]) {
				r->cycle_walks = true;
				break;
			}
		}
	}
	ret = -ENOMEM;
	b.pdep = malloc((g.n + 1) * sizeof(uint32_t));
	b.pnode = malloc((g.n + 1) * sizeof(uint32_t));
	b.level = malloc((g.n + 1) * sizeof(uint32_t));
	b.q = malloc((g.n + 1) * sizeof(uint32_t));
	if (!b.pdep || !b.pnode || !b.level || !b.q)
		goto out;
	for (st = 0; st < LD_IRQ_NR; st++) {
		ret = irq_state(m, skip, &g, comp, nc, byname, st, max, r, &b,
				&budget);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	pgraph_free(&g);
	free(b.pdep);
	free(b.pnode);
	free(b.level);
	free(b.q);
	free(skip);
	free(comp);
	free(byname);
	if (ret)
		ld_irq_result_free(r);
	return ret;
}

void ld_irq_result_free(struct ld_irq_result *r)
{
	free(r->f);
	free(r->deps);
	free(r->inc);
	memset(r, 0, sizeof(*r));
}
