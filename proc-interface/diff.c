// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - what changed between two snapshots: classes (matched across
 * boots as merge.h says), dependencies, usage bits, class counts per base
 * name (the class-leak hunt of lockdep-design.rst), chains per irq
 * context, counters and lock_stat.  What one side cannot tell is not
 * compared, and the result says so.
 */
#include <stdlib.h>

#include "ld_internal.h"
#include "graph.h"
#include "merge.h"

static int push(uint32_t **arr, uint32_t *nr, uint32_t *alloc, uint32_t v)
{
	if (ld_grow((void **)arr, alloc, *nr, sizeof(uint32_t)))
		return -ENOMEM;
	(*arr)[(*nr)++] = v;
	return 0;
}

static bool dep_wanted(const struct ld_dep *d, bool d1)
{
	return !d1 || d->distance <= 1;
}

/* Old dependency @od and new @nd, each onto its list of a pair of lists */
static int push_pair(uint32_t **old, uint32_t **new, uint32_t *nr,
		     uint32_t *alloc_old, uint32_t *alloc_new, uint32_t od,
		     uint32_t nd)
{
	uint32_t k = *nr;
	int ret = push(old, &k, alloc_old, od);

	return ret ? ret : push(new, nr, alloc_new, nd);
}

static int diff_deps(const struct ld_model *o, const struct ld_model *n,
		     struct ld_diff *df)
{
	struct ld_map map;
	uint8_t *seen;
	uint32_t i, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, old;
	int ret;

	df->deps_compared = true;
	df->distance1_only = !o->have.dep_all_distances ||
			     !n->have.dep_all_distances;
	ret = ld_map_init(&map, n->nr_deps + 16);
	if (ret)
		return ret;
	seen = calloc(n->nr_deps + 1, 1);
	if (!seen) {
		ld_map_free(&map);
		return -ENOMEM;
	}
	for (i = 0; i < n->nr_deps; i++) {
		const struct ld_dep *d = &n->deps[i];

		if (!dep_wanted(d, df->distance1_only))
			continue;
		ret = ld_map_put(&map, ld_dep_key(d->from, d->to), i, &old);
		if (ret)
			goto out;
	}
	for (i = 0; i < o->nr_deps; i++) {
		const struct ld_dep *d = &o->deps[i];
		uint32_t f = df->mt.a_to_b[d->from], t = df->mt.a_to_b[d->to];
		uint32_t hit = LD_NONE;

		if (!dep_wanted(d, df->distance1_only))
			continue;
		if (f != LD_NONE && t != LD_NONE)
			hit = ld_map_get(&map, ld_dep_key(f, t));
		if (hit != LD_NONE) {
			const struct ld_dep *h = &n->deps[hit];

			seen[hit] = 1;
			/* lockdep ors types in: a new one can make a path strong */
			if (d->type_known && h->type_known && d->type != h->type)
				ret = push_pair(&df->retyped_old, &df->retyped_new,
						&df->nr_retyped, &a3, &a4, i, hit);
			/* lockdep sets 1 when it sees a longer one directly */
			if (!ret && !df->distance1_only &&
			    d->distance != h->distance)
				ret = push_pair(&df->redist_old, &df->redist_new,
						&df->nr_redist, &a5, &a6, i, hit);
			if (ret)
				goto out;
			continue;
		}
		ret = push(&df->dep_removed, &df->nr_dep_removed, &a1, i);
		if (ret)
			goto out;
	}
	for (i = 0; i < n->nr_deps; i++) {
		const struct ld_dep *d = &n->deps[i];
		uint32_t first;

		if (seen[i] || !dep_wanted(d, df->distance1_only))
			continue;
		/* a parallel duplicate of a matched dependency is not new */
		first = ld_map_get(&map, ld_dep_key(d->from, d->to));
		if (first != i && seen[first])
			continue;
		ret = push(&df->dep_added, &df->nr_dep_added, &a2, i);
		if (ret)
			goto out;
	}
out:
	free(seen);
	ld_map_free(&map);
	return ret;
}

static int diff_usage(const struct ld_model *o, const struct ld_model *n,
		      struct ld_diff *df)
{
	uint32_t i, alloc = 0;

	df->usage_compared = true;
	for (i = 0; i < n->nr_classes; i++) {
		uint32_t oi = df->mt.b_to_a[i];
		const struct ld_class *nc = &n->classes[i], *oc;
		uint16_t known, ou, nu;
		struct ld_usage_change *u;

		if (oi == LD_NONE)
			continue;
		oc = &o->classes[oi];
		known = oc->usage_known & nc->usage_known;
		ou = oc->usage & known;
		nu = nc->usage & known;
		if (ou == nu)
			continue;
		if (ld_grow((void **)&df->usage, &alloc, df->nr_usage,
			    sizeof(*df->usage)))
			return -ENOMEM;
		u = &df->usage[df->nr_usage++];
		u->old_id = oi;
		u->new_id = i;
		u->gained = nu & ~ou;
		u->lost = ou & ~nu;
	}
	return 0;
}

static int base_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_model *m = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int r = ld_name_cmp(ld_class_base(&m->classes[a]),
			    ld_class_base(&m->classes[b]));

	return r ? r : (a > b) - (a < b);
}

/* Base names whose number of classes moved: the class-leak hunt. */
static int diff_names(const struct ld_model *o, const struct ld_model *n,
		      struct ld_diff *df)
{
	uint32_t *io = ld_class_ids_sorted(o, base_cmp);
	uint32_t *in = ld_class_ids_sorted(n, base_cmp);
	uint32_t i = 0, j = 0, alloc = 0;
	int ret = -ENOMEM;

	if (!io || !in)
		goto out;
	while (i < o->nr_classes || j < n->nr_classes) {
		struct ld_str bo = { "", 0 }, bn = { "", 0 }, base;
		uint32_t co = 0, cn = 0;
		int r;

		if (i < o->nr_classes)
			bo = ld_class_base(&o->classes[io[i]]);
		if (j < n->nr_classes)
			bn = ld_class_base(&n->classes[in[j]]);
		if (i >= o->nr_classes)
			r = 1;
		else if (j >= n->nr_classes)
			r = -1;
		else
			r = ld_name_cmp(bo, bn);
		base = r <= 0 ? bo : bn;
		while (r <= 0 && i < o->nr_classes &&
		       !ld_name_cmp(ld_class_base(&o->classes[io[i]]), base)) {
			co++;
			i++;
		}
		while (r >= 0 && j < n->nr_classes &&
		       !ld_name_cmp(ld_class_base(&n->classes[in[j]]), base)) {
			cn++;
			j++;
		}
		if (co != cn) {
			struct ld_name_count *nc;

			if (ld_grow((void **)&df->names, &alloc, df->nr_names,
				    sizeof(*df->names)))
				goto out;
			nc = &df->names[df->nr_names++];
			nc->base = base;
			nc->old_nr = co;
			nc->new_nr = cn;
		}
	}
	ret = 0;
out:
	free(io);
	free(in);
	return ret;
}

/*
 * Counters both sides know: one that only one side prints (the export's
 * and /proc's sets differ, kernels add counters) or cannot tell (without
 * PROVE_LOCKING) is not a difference.
 */
static int diff_stats(const struct ld_model *o, const struct ld_model *n,
		      struct ld_diff *df)
{
	uint32_t i, alloc = 0;

	for (i = 0; i < o->nr_stats; i++) {
		const struct ld_stat *so = &o->stats[i], *sn;
		struct ld_stat_change *c;

		sn = ld_stat_get(n, so->key.s);
		if (sn && (so->src == LD_SRC_NONE || sn->src == LD_SRC_NONE)) {
			df->nr_stats_unknown++;
			continue;
		}
		if (!sn || sn->value == so->value)
			continue;
		if (ld_grow((void **)&df->stats, &alloc, df->nr_stats,
			    sizeof(*df->stats)))
			return -ENOMEM;
		c = &df->stats[df->nr_stats++];
		memset(c, 0, sizeof(*c));
		c->key = so->key;
		c->label = so->label;
		c->old_known = c->new_known = true;
		c->old_v = so->value;
		c->new_v = sn->value;
	}
	return 0;
}

static void ls_sum(const struct ld_lockstat *ls, int64_t *v)
{
	int k;

	for (k = 0; k < LD_LS_NR; k++)
		v[k] = (ls && ls->has_w ? ls->w[k] : 0) +
		       (ls && ls->has_r ? ls->r[k] : 0);
}

static int row_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_model *m = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int c = ld_name_cmp(m->lockstat[a].name, m->lockstat[b].name);

	return c ? c : (a > b) - (a < b);
}

/* The first row of @o printed as @name and not @used yet, or LD_NONE */
static uint32_t row_by_name(const struct ld_model *o, const uint32_t *byname,
			    const uint8_t *used, struct ld_str name)
{
	uint32_t lo = 0, hi = o->nr_lockstat, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ld_name_cmp(o->lockstat[byname[mid]].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < o->nr_lockstat &&
	       !ld_name_cmp(o->lockstat[byname[lo]].name, name);
	     lo++)
		if (!used[byname[lo]])
			return byname[lo];
	return LD_NONE;
}

static int push_ls(struct ld_diff *df, uint32_t *alloc,
		   const struct ld_lockstat *ol, const struct ld_lockstat *nl,
		   uint32_t old_id, uint32_t new_id, struct ld_str name)
{
	int state = !ol ? LD_LS_NEW : !nl ? LD_LS_GONE : LD_LS_CHANGED;
	static const int summed[] = {
		LD_LS_CON_BOUNCES, LD_LS_CONTENTIONS,  LD_LS_WAIT_TOTAL,
		LD_LS_ACQ_BOUNCES, LD_LS_ACQUISITIONS, LD_LS_HOLD_TOTAL,
	};
	int64_t vo[LD_LS_NR], vn[LD_LS_NR];
	struct ld_ls_change *c;
	bool any = false;
	unsigned int k;

	ls_sum(ol, vo);
	ls_sum(nl, vn);
	for (k = 0; k < ARRAY_SIZE(summed); k++)
		any |= vn[summed[k]] != vo[summed[k]];
	if (!any)
		return 0;
	if (ld_grow((void **)&df->ls, alloc, df->nr_ls, sizeof(*df->ls)))
		return -ENOMEM;
	c = &df->ls[df->nr_ls++];
	memset(c, 0, sizeof(*c));
	c->old_id = old_id;
	c->new_id = new_id;
	c->name = name;
	c->state = state;
	for (k = 0; k < ARRAY_SIZE(summed); k++)
		c->d[summed[k]] = vn[summed[k]] - vo[summed[k]];
	return 0;
}

/*
 * lock_stat rows, new ones in file order then the old ones gone.  A row
 * joined to a class pairs with the row of the class matched to it; then
 * the others (no class list, a name cut to 37 characters, an ambiguous
 * one, a class new or gone) with an old row printed the same that no
 * class pairing took and whose class, if any, has no match.
 */
static int diff_lockstat(const struct ld_model *o, const struct ld_model *n,
			 struct ld_diff *df)
{
	uint32_t i, alloc = 0, *byname, *partner;
	uint8_t *used;
	int ret = 0;

	df->ls_compared = true;
	byname = malloc((o->nr_lockstat + 1) * sizeof(*byname));
	partner = malloc((n->nr_lockstat + 1) * sizeof(*partner));
	used = calloc(o->nr_lockstat + 1, 1);
	if (!byname || !partner || !used) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < o->nr_lockstat; i++) {
		uint32_t oc = o->lockstat[i].class;

		byname[i] = i;
		/* its class was matched: only a class pairing may take it */
		if (oc != LD_NONE && df->mt.a_to_b[oc] != LD_NONE)
			used[i] = 2;
	}
	qsort_r(byname, o->nr_lockstat, sizeof(*byname), row_cmp, (void *)o);
	/* 1. by class */
	for (i = 0; i < n->nr_lockstat; i++) {
		uint32_t nc = n->lockstat[i].class, oc;

		partner[i] = LD_NONE;
		if (nc == LD_NONE)
			continue;
		oc = df->mt.b_to_a[nc];
		if (oc != LD_NONE && o->classes[oc].lockstat != LD_NONE &&
		    used[o->classes[oc].lockstat] != 1) {
			partner[i] = o->classes[oc].lockstat;
			used[partner[i]] = 1;
		}
	}
	/* 2. by printed name, rows no class pairing could take */
	for (i = 0; i < n->nr_lockstat; i++) {
		uint32_t nc = n->lockstat[i].class;

		if (partner[i] != LD_NONE ||
		    (nc != LD_NONE && df->mt.b_to_a[nc] != LD_NONE))
			continue;
		partner[i] = row_by_name(o, byname, used, n->lockstat[i].name);
		if (partner[i] != LD_NONE)
			used[partner[i]] = 1;
	}
	for (i = 0; i < n->nr_lockstat && !ret; i++) {
		const struct ld_lockstat *nl = &n->lockstat[i];
		const struct ld_lockstat *ol =
			partner[i] != LD_NONE ? &o->lockstat[partner[i]] : NULL;

		ret = push_ls(df, &alloc, ol, nl, ol ? ol->class : LD_NONE,
			      nl->class,
			      nl->class != LD_NONE ? n->classes[nl->class].name :
						     nl->name);
	}
	for (i = 0; i < o->nr_lockstat && !ret; i++) {
		const struct ld_lockstat *ol = &o->lockstat[i];

		if (used[i] == 1)
			continue;
		ret = push_ls(df, &alloc, ol, NULL, ol->class, LD_NONE,
			      ol->class != LD_NONE ?
				      o->classes[ol->class].name :
				      ol->name);
	}
out:
	free(byname);
	free(partner);
	free(used);
	return ret;
}

int ld_diff(const struct ld_model *o, const struct ld_model *n,
	    struct ld_diff *df)
{
	uint32_t i, a1 = 0, a2 = 0, a3 = 0;
	int ret;

	memset(df, 0, sizeof(*df));
	ret = ld_match_classes(o, n, &df->mt);
	if (ret)
		return ret;
	/* a side without a class list (a lone lock_stat) tells nothing */
	df->classes_compared = o->have.classes && n->have.classes;
	for (i = 0; df->classes_compared && i < n->nr_classes && !ret; i++) {
		uint32_t oi = df->mt.b_to_a[i];

		if (oi == LD_NONE)
			ret = push(&df->added, &df->nr_added, &a1, i);
		else if (ld_name_cmp(o->classes[oi].name, n->classes[i].name))
			ret = push(&df->renamed, &df->nr_renamed, &a3, i);
	}
	for (i = 0; df->classes_compared && i < o->nr_classes && !ret; i++)
		if (df->mt.a_to_b[i] == LD_NONE)
			ret = push(&df->removed, &df->nr_removed, &a2, i);
	if (!ret && o->have.deps && n->have.deps)
		ret = diff_deps(o, n, df);
	if (!ret && o->have.usage && n->have.usage)
		ret = diff_usage(o, n, df);
	if (!ret && o->have.classes && n->have.classes)
		ret = diff_names(o, n, df);
	if (!ret && o->have.chains && n->have.chains) {
		df->chains_compared = true;
		for (i = 0; i < o->nr_chains; i++)
			df->chains[0][o->chains[i].irq_context & 3]++;
		for (i = 0; i < n->nr_chains; i++)
			df->chains[1][n->chains[i].irq_context & 3]++;
	}
	df->stats_compared = o->have.stats && n->have.stats;
	if (!ret && df->stats_compared)
		ret = diff_stats(o, n, df);
	if (!ret && o->have.lockstat && n->have.lockstat)
		ret = diff_lockstat(o, n, df);
	if (ret)
		ld_diff_free(df);
	return ret;
}

bool ld_diff_any(const struct ld_diff *df)
{
	int k;

	if (df->nr_added || df->nr_removed || df->nr_renamed ||
	    df->nr_dep_added || df->nr_dep_removed || df->nr_retyped ||
	    df->nr_redist ||
	    df->nr_usage ||
	    df->nr_names || df->nr_stats || df->nr_ls)
		return true;
	for (k = 0; k < 4; k++)
		if (df->chains[0][k] != df->chains[1][k])
			return true;
	return false;
}

void ld_diff_free(struct ld_diff *df)
{
	ld_match_free(&df->mt);
	free(df->added);
	free(df->removed);
	free(df->renamed);
	free(df->dep_added);
	free(df->dep_removed);
	free(df->retyped_old);
	free(df->retyped_new);
	free(df->redist_old);
	free(df->redist_new);
	free(df->usage);
	free(df->names);
	free(df->stats);
	free(df->ls);
	memset(df, 0, sizeof(*df));
}
