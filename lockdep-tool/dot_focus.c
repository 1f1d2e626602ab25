// SPDX-License-Identifier: GPL-2.0
/*
 * dot_focus.c - `dot --path A B`, `dot --cycle ID`, `dot --report N`: the
 * subgraph of a path, of a cycle (its id from `cycles`, or its classes
 * as "A -> B -> C") or of a report in a log, with the colours and edge
 * styles of `dot` (node_attrs(), edge_attrs() in cmd_dot.c).  Nodes of the
 * model keep their ids (c<N>); a report's lock that the model does not
 * have gets r<N> and its colour from the usage characters the report
 * printed.  Sorted output: the same input gives the same bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

struct sub {
	bool *in; /* model classes in the picture */
	uint32_t *deps, nr; /* model dependencies in it */
	const char *note; /* what the picture is not, or NULL */
};

static int dep_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_model *m = arg;
	const struct ld_dep *a = &m->deps[*(const uint32_t *)x];
	const struct ld_dep *b = &m->deps[*(const uint32_t *)y];

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return (*(const uint32_t *)x > *(const uint32_t *)y) -
	       (*(const uint32_t *)x < *(const uint32_t *)y);
}

static void header(FILE *f, const char *what, uint32_t nn, uint32_t ne,
		   const char *legend)
{
	fprintf(f, "// lockdep-tool dot %s: %u %s, %u %s\n", what, nn,
		ld_plural(nn, "class", "classes"), ne,
		ld_plural(ne, "dependency", "dependencies"));
	dot_legend(f);
	if (legend)
		fputs(legend, f);
	fputs("digraph lockdep {\n"
	      "\tgraph [rankdir=LR];\n"
	      "\tnode [shape=box, style=filled, fontname=\"monospace\", fontsize=10];\n"
	      "\tedge [arrowsize=0.6];\n",
	      f);
}

static void write_model(struct ctx *ctx, const char *what, struct sub *s)
{
	const struct ld_model *m = ctx->m;
	FILE *f = ctx->out;
	uint32_t i, nn = 0, k;

	qsort_r(s->deps, s->nr, sizeof(*s->deps), dep_cmp, (void *)m);
	/* the same dependency twice (a path through it twice): once */
	for (i = k = 0; i < s->nr; i++)
		if (!k || s->deps[k - 1] != s->deps[i])
			s->deps[k++] = s->deps[i];
	s->nr = k;
	for (i = 0; i < m->nr_classes; i++)
		nn += s->in[i];
	if (ctx->json) {
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "dot");
		jw_kstr(&w, "focus", what);
		if (s->note)
			jw_kstr(&w, "note", s->note);
		jw_key(&w, "nodes");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_classes; i++) {
			if (!s->in[i])
				continue;
			json_class_open(&w, m, i);
			jw_kstr(&w, "kind", class_irq_kind(&m->classes[i]));
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "edges");
		json_hops(&w, m, s->deps, s->nr);
		jw_doc_end(&w);
		return;
	}
	header(f, what, nn, s->nr, NULL);
	if (s->note)
		fprintf(f, "// %s\n", s->note);
	for (i = 0; i < m->nr_classes; i++) {
		if (!s->in[i])
			continue;
		fprintf(f, "\tc%u [label=", i);
		out_dot_quoted(f, m->classes[i].name.s, m->classes[i].name.len);
		fprintf(f, ", %s];\n", node_attrs(&m->classes[i]));
	}
	for (i = 0; i < s->nr; i++) {
		const struct ld_dep *d = &m->deps[s->deps[i]];

		fprintf(f, "\tc%u -> c%u [%s", d->from, d->to, edge_attrs(d));
		if (d->distance > 1)
			fprintf(f, ", label=\"d=%d\"", d->distance);
		fputs("];\n", f);
	}
	fputs("}\n", f);
}

static int focus_path(struct ctx *ctx, const char *a, const char *b,
		      struct sub *s)
{
	const struct ld_model *m = ctx->m;
	struct ld_path p;
	uint32_t from, to, i;
	int ret, found;

	ret = resolve_pair(ctx, a, b, &from, &to);
	if (ret)
		return ret;
	found = ld_shortest_path(m, from, to, true, &p);
	if (p.walk)
		s->note = "undecided: the path passes a class twice (see 'path')";
	if (!found) {
		found = ld_shortest_path(m, from, to, false, &p);
		if (found > 0)
			s->note = "weak: not a deadlock path by lockdep's rule";
	}
	if (found < 0) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	if (!found) {
		err_prefix(ctx);
		fputs("no dependency path from '", stderr);
		out_str(stderr, m->classes[from].name);
		fputs("' to '", stderr);
		out_str(stderr, m->classes[to].name);
		fputs("'\n", stderr);
		return EXIT_FOUND;
	}
	s->in[from] = s->in[to] = true;
	for (i = 0; i < p.nr; i++) {
		s->deps[s->nr++] = p.deps[i];
		s->in[m->deps[p.deps[i]].to] = true;
	}
	free(p.deps);
	return EXIT_OK;
}

/* "A -> B -> C" (optionally closed "-> A") as a cycle id */
static void canon_of_text(const char *text, char id[LD_CYCLE_ID_LEN])
{
	struct ld_str names[256];
	const char *p = text;
	uint32_t n = 0;

	id[0] = '\0';
	while (*p && n < 256) {
		const char *e = strstr(p, " -> ");

		names[n].s = p;
		names[n].len = e ? (size_t)(e - p) : strlen(p);
		n++;
		if (!e)
			break;
		p = e + 4;
	}
	if (n > 1 && !ld_name_cmp(names[0], names[n - 1]))
		n--;
	if (n > 1)
		ld_cycle_id(names, n, id);
}

static int focus_cycle(struct ctx *ctx, const char *want, struct sub *s)
{
	const struct ld_model *m = ctx->m;
	char id[LD_CYCLE_ID_LEN];
	struct ld_cycles cs;
	uint32_t i, k;

	if (strncmp(want, "cycle-", 6))
		canon_of_text(want, id);
	else
		snprintf(id, sizeof(id), "%s", want);
	if (ld_find_cycles(m, 0, 0, true, &cs)) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	for (i = 0; i < cs.nr; i++)
		if (!strcmp(cs.c[i].id, id))
			break;
	if (i == cs.nr) {
		ld_cycles_free(&cs);
		err_prefix(ctx);
		fputs("no cycle '", stderr);
		out_arg(stderr, want);
		fputs("' in this model (see 'cycles --weak')\n", stderr);
		return EXIT_USAGE;
	}
	for (k = 0; k < cs.c[i].nr; k++) {
		uint32_t d = cs.deps[cs.c[i].first + k];

		s->deps[s->nr++] = d;
		s->in[m->deps[d].from] = true;
	}
	ld_cycles_free(&cs);
	return EXIT_OK;
}

struct rep_edge {
	uint32_t a, b; /* report locks, then nodes */
	uint32_t dep; /* the model's dependency a -> b, or LD_NONE */
	bool isnew; /* the report's new dependency (ld_report.new_hop) */
};

/* The dependency @from -> @to of @m, or LD_NONE */
static uint32_t model_dep(const struct ld_model *m, uint32_t from, uint32_t to)
{
	uint32_t k;

	if (!m || from == LD_NONE || to == LD_NONE || !m->out_off)
		return LD_NONE;
	for (k = m->out_off[from]; k < m->out_off[from + 1]; k++)
		if (m->deps[m->out[k]].to == to)
			return m->out[k];
	return LD_NONE;
}

static int rlock_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_reports *rs = arg;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	int c = ld_name_cmp(rs->locks[a].name, rs->locks[b].name);

	return c ? c : (a > b) - (a < b);
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/*
 * The node (index into @node, report order) of report lock @lock: the
 * first record of its name, found in @byname (those records by name).
 */
static uint32_t node_of(const struct ld_reports *rs, const uint32_t *node,
			uint32_t nn, const uint32_t *byname, uint32_t nb,
			uint32_t lock)
{
	uint32_t lo = 0, hi = nb, mid, first = LD_NONE;

	while (lo < hi) {
		int c;

		mid = lo + (hi - lo) / 2;
		c = ld_name_cmp(rs->locks[byname[mid]].name,
				rs->locks[lock].name);
		if (!c) {
			first = byname[mid];
			break;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* every edge's lock is among the records sorted */
	lo = 0;
	hi = nn;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (node[mid] < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A report's picture: its locks and hops, not the model's edges. */
static int focus_report(struct ctx *ctx, const char *num, const char *log)
{
	const struct ld_model *m;
	struct ld_reports *rs = NULL;
	const struct ld_report *r;
	uint32_t *node = NULL, *byname = NULL, nn = 0, nb = 0, i, k, n;
	uint8_t *named;
	struct rep_edge *edge = NULL;
	uint32_t ne = 0;
	FILE *f = ctx->out;
	unsigned long x;
	char *end, q[LD_QBUF];
	int ret;

	errno = 0;
	x = strtoul(num, &end, 10);
	n = x;
	if (*num < '0' || *num > '9' || *end || !n || n != x || errno)
		return usage_error(
			ctx, "--report wants a report number from 1, got '%s'",
			ld_quote(num, strlen(num), q, sizeof(q)));
	ret = load_reports(ctx, log, &rs, &m); /* m NULL: the report alone */
	if (ret)
		return ret;
	if (n > rs->nr) {
		err_prefix(ctx);
		fprintf(stderr, "no report %u: the log has %u\n", n, rs->nr);
		ld_reports_free(rs);
		return EXIT_USAGE;
	}
	r = &rs->r[n - 1];
	node = malloc((r->nr_locks + 1) * sizeof(*node));
	edge = malloc((r->nr_hops + 2) * sizeof(*edge));
	byname = malloc((r->nr_locks + 1) * sizeof(*byname));
	if (!node || !edge || !byname) {
		ret = EXIT_DATA;
		goto out;
	}
	for (i = 0; i < r->nr_hops; i++) {
		edge[ne].a = rs->hops[r->hops + i].from;
		edge[ne].b = rs->hops[r->hops + i].to;
		edge[ne].isnew = r->hops + i == r->new_hop;
		ne++;
	}
	if (!ne) {
		uint32_t hold, acq;

		ld_report_hold_acquire(rs, r, &hold, &acq);
		if (hold != LD_NONE && acq != LD_NONE) {
			edge[ne].a = hold;
			edge[ne].b = acq;
			edge[ne].isnew = false;
			ne++;
		}
	}
	for (i = 0; i < ne; i++)
		edge[i].dep = model_dep(m, rs->locks[edge[i].a].cls,
					rs->locks[edge[i].b].cls);
	/*
	 * One node per name, in report order (the first lock's record): the
	 * locks other than the held list, and any lock an edge names; by name
	 * (then order) to find a name's first record without a quadratic scan.
	 */
	named = calloc(r->nr_locks + 1, 1);
	if (!named) {
		ret = EXIT_DATA;
		goto out;
	}
	for (i = k = 0; i < ne; i++) {
		/* hops and hold/acquire name locks of this report */
		if (edge[i].a - r->locks >= r->nr_locks ||
		    edge[i].b - r->locks >= r->nr_locks)
			continue;
		named[edge[i].a - r->locks] = named[edge[i].b - r->locks] = 1;
		edge[k++] = edge[i];
	}
	ne = k;
	for (i = 0; i < r->nr_locks; i++)
		if (rs->locks[r->locks + i].role != LD_RR_HELD || named[i])
			byname[nb++] = r->locks + i;
	free(named);
	qsort_r(byname, nb, sizeof(*byname), rlock_cmp, rs);
	for (i = 0; i < nb; i++)
		if (!i || ld_name_cmp(rs->locks[byname[i - 1]].name,
				      rs->locks[byname[i]].name))
			node[nn++] = byname[i];
	nb = nn; /* byname: the first of each name, by name */
	memcpy(byname, node, nn * sizeof(*node));
	qsort(node, nn, sizeof(*node), u32_cmp);
	/* map every lock of an edge to its node (one is always there) */
	for (i = 0; i < ne; i++) {
		edge[i].a = node_of(rs, node, nn, byname, nb, edge[i].a);
		edge[i].b = node_of(rs, node, nn, byname, nb, edge[i].b);
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "dot");
		jw_kstr(&w, "focus", "report");
		jw_kint(&w, "report", n);
		jw_kstr(&w, "kind", ld_report_kind_name(r->kind));
		jw_key(&w, "nodes");
		jw_arr_start(&w);
		for (k = 0; k < nn; k++) {
			const struct ld_rlock *l = &rs->locks[node[k]];

			jw_obj_start(&w);
			jw_kstrn(&w, "name", l->name);
			jw_key(&w, "class");
			l->cls != LD_NONE ? jw_uint(&w, l->cls) : jw_null(&w);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "edges");
		jw_arr_start(&w);
		for (i = 0; i < ne; i++) {
			const struct ld_dep *d =
				edge[i].dep != LD_NONE ? &m->deps[edge[i].dep] :
							 NULL;
			char tb[16];

			jw_obj_start(&w);
			jw_kstrn(&w, "from", rs->locks[node[edge[i].a]].name);
			jw_kstrn(&w, "to", rs->locks[node[edge[i].b]].name);
			jw_key(&w, "type");
			if (d && d->type_known)
				jw_str(&w, ld_dep_type_str(d->type, true, tb));
			else
				jw_null(&w);
			jw_kbool(&w, "new", edge[i].isnew);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
		ret = EXIT_OK;
		goto out;
	}
	{
		char what[64];

		snprintf(what, sizeof(what), "--report %u (%s)", n,
			 ld_report_kind_name(r->kind));
		header(f, what, nn, ne,
		       r->new_hop == LD_NONE ?
			       NULL :
			       "// red, thick, \"new\": the dependency lockdep was adding when it\n"
			       "//       reported, and did not add\n");
	}
	for (k = 0; k < nn; k++) {
		const struct ld_rlock *l = &rs->locks[node[k]];
		struct ld_class tmp;

		if (m && l->cls != LD_NONE) {
			fprintf(f, "\tc%u [label=", l->cls);
			out_dot_quoted(f, l->name.s, l->name.len);
			fprintf(f, ", %s];\n", node_attrs(&m->classes[l->cls]));
			continue;
		}
		memset(&tmp, 0, sizeof(tmp));
		tmp.usage = ld_rlock_usage(l, &tmp.usage_known);
		fprintf(f, "\tr%u [label=", k);
		out_dot_quoted(f, l->name.s, l->name.len);
		fprintf(f, ", %s];\n", node_attrs(&tmp));
	}
	for (i = 0; i < ne; i++) {
		const struct ld_rlock *a = &rs->locks[node[edge[i].a]];
		const struct ld_rlock *b = &rs->locks[node[edge[i].b]];
		struct ld_dep tmp = { 0 };
		const struct ld_dep *d =
			edge[i].dep != LD_NONE ? &m->deps[edge[i].dep] : &tmp;

		if (m && a->cls != LD_NONE)
			fprintf(f, "\tc%u -> ", a->cls);
		else
			fprintf(f, "\tr%u -> ", edge[i].a);
		if (m && b->cls != LD_NONE)
			fprintf(f, "c%u", b->cls);
		else
			fprintf(f, "r%u", edge[i].b);
		if (edge[i].isnew)
			/* its colour, and its type's line where one is known */
			fprintf(f, " [%s%scolor=\"#d00000\", penwidth=2, label=\"new\"];\n",
				d->type_known ? edge_attrs(d) : "",
				d->type_known ? ", " : "");
		else
			fprintf(f, " [%s];\n", edge_attrs(d));
	}
	fputs("}\n", f);
	ret = EXIT_OK;
out:
	if (ret == EXIT_DATA)
		err_msg("out of memory");
	free(byname);
	free(node);
	free(edge);
	ld_reports_free(rs);
	return ret;
}

int dot_focus(struct ctx *ctx, struct cmd_args *a, const char *path_from,
	      const char *cycle, const char *report, const char *log)
{
	const struct ld_model *m;
	struct sub s = { 0 };
	int ret;

	if (!!path_from + !!cycle + !!report > 1)
		return usage_error(
			ctx, "--path, --cycle and --report exclude each other");
	if (log && !report)
		return usage_error(ctx, "--log goes with --report");
	if (report) {
		if (a->argc)
			return usage_error(ctx, "--report takes no CLASS");
		/* its model only as 'report' links one (load_reports) */
		return focus_report(ctx, report, log);
	}
	if (path_from && a->argc != 1)
		return usage_error(
			ctx,
			"--path A wants B as its CLASS argument: dot --path A B");
	if (cycle && a->argc)
		return usage_error(ctx, "--cycle takes no CLASS");
	ret = cmd_model(ctx);
	if (ret)
		return ret;
	m = ctx->m;
	ret = need_deps(ctx);
	if (ret)
		return ret;
	s.in = calloc(m->nr_classes + 1, sizeof(*s.in));
	/* a cycle has up to n hops; a path that is strong only as a walk
	 * (graph.h, ld_path.walk) passes a class twice: up to 2n - 1 */
	s.deps = malloc((2 * (size_t)m->nr_classes + 1) * sizeof(*s.deps));
	if (!s.in || !s.deps) {
		free(s.in);
		free(s.deps);
		err_msg("out of memory");
		return EXIT_DATA;
	}
	if (path_from)
		ret = focus_path(ctx, path_from, a->argv[0], &s);
	else
		ret = focus_cycle(ctx, cycle, &s);
	if (!ret)
		write_model(ctx, path_from ? "--path" : "--cycle", &s);
	free(s.in);
	free(s.deps);
	return ret;
}
