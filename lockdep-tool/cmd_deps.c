// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_deps.c - `deps CLASS`: the classes taken while CLASS is held (or
 * held when it is taken, --reverse), as a tree N levels deep.  Each class
 * is expanded once, at its shallowest level; its other mentions, before
 * or after that one in the depth-first print, end in "(*)".
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

enum { O_REVERSE, O_DEPTH };

#define MAX_DEPTH 1000

struct walk {
	const struct ld_model *m;
	bool rev;
	unsigned long depth;
	uint32_t *level; /* BFS level, UINT32_MAX if not reached */
	bool *expanded;
	FILE *f;
};

static uint32_t other_end(const struct walk *w, uint32_t d)
{
	return w->rev ? w->m->deps[d].from : w->m->deps[d].to;
}

static const uint32_t *adj(const struct walk *w, uint32_t c, uint32_t *n)
{
	const uint32_t *off = w->rev ? w->m->in_off : w->m->out_off;

	*n = off[c + 1] - off[c];
	return (w->rev ? w->m->in : w->m->out) + off[c];
}

/* BFS levels; returns the classes reached in BFS order */
static uint32_t bfs(struct walk *w, uint32_t root, uint32_t *order)
{
	uint32_t head = 0, tail = 0, i, n;

	for (i = 0; i < w->m->nr_classes; i++)
		w->level[i] = UINT32_MAX;
	w->level[root] = 0;
	order[tail++] = root;
	while (head < tail) {
		uint32_t u = order[head++];
		const uint32_t *e;

		if (w->level[u] >= w->depth)
			continue;
		e = adj(w, u, &n);
		for (i = 0; i < n; i++) {
			uint32_t v = other_end(w, e[i]);

			if (w->level[v] != UINT32_MAX)
				continue;
			w->level[v] = w->level[u] + 1;
			order[tail++] = v;
		}
	}
	return tail;
}

static void print_tree(struct walk *w, uint32_t u, uint32_t lvl)
{
	const uint32_t *e;
	uint32_t i, n;
	char tb[16];

	if (lvl >= w->depth)
		return;
	e = adj(w, u, &n);
	for (i = 0; i < n; i++) {
		const struct ld_dep *d = &w->m->deps[e[i]];
		uint32_t v = other_end(w, e[i]);
		bool expand = w->level[v] == lvl + 1 && !w->expanded[v];

		fprintf(w->f, "%*s%s @%u ", (int)(2 * lvl + 2), "",
			w->rev ? "<-" : "->", v);
		out_str(w->f, w->m->classes[v].name);
		if (d->type_known || d->distance > 1) {
			fputs("  [", w->f);
			if (d->distance > 1)
				fprintf(w->f, "distance %d%s", d->distance,
					d->type_known ? ", " : "");
			if (d->type_known)
				fputs(ld_dep_type_str(d->type, true, tb), w->f);
			fputc(']', w->f);
		}
		/* expanded elsewhere: every class above the last level is */
		if (!expand && w->level[v] < w->depth &&
		    (w->rev ? ld_nr_in(w->m, v) : ld_nr_out(w->m, v)))
			fputs(" (*)", w->f);
		fputc('\n', w->f);
		if (expand) {
			w->expanded[v] = true;
			print_tree(w, v, lvl + 1);
		}
	}
}

int cmd_deps(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	struct walk w = { .m = m, .depth = 1, .f = ctx->out };
	uint32_t id, *order = NULL, n, i, k;
	int ret;

	if (!opt_uint(ctx, a, O_DEPTH, "depth", MAX_DEPTH, &w.depth, &ret))
		return ret;
	w.rev = a->set[O_REVERSE];
	ret = resolve_class(ctx, a->argv[0], &id);
	if (ret)
		return ret;
	if (!m->have.deps) {
		err_msg("deps: no dependency data in this source (%s)",
			missing_why(m, "lockdep", "deps"));
		return EXIT_DATA;
	}
	order = malloc((m->nr_classes + 1) * sizeof(*order));
	w.level = malloc((m->nr_classes + 1) * sizeof(*w.level));
	w.expanded = calloc(m->nr_classes + 1, sizeof(*w.expanded));
	if (!order || !w.level || !w.expanded) {
		err_msg("out of memory");
		ret = EXIT_DATA;
		goto out;
	}
	n = bfs(&w, id, order);
	if (ctx->json) {
		struct jw j;

		jw_init(&j, ctx->out, ctx->pretty);
		jw_doc_start(&j, "deps");
		jw_kint(&j, "root", id);
		jw_kbool(&j, "reverse", w.rev);
		jw_kint(&j, "depth", w.depth);
		jw_kbool(&j, "all_distances", m->have.dep_all_distances);
		jw_key(&j, "classes");
		jw_arr_start(&j);
		for (i = 0; i < n; i++) {
			jw_obj_start(&j);
			jw_kint(&j, "level", w.level[order[i]]);
			jw_key(&j, "class");
			json_class(&j, m, order[i], true);
			jw_obj_end(&j);
		}
		jw_arr_end(&j);
		jw_key(&j, "deps");
		jw_arr_start(&j);
		for (i = 0; i < n; i++) {
			const uint32_t *e;
			uint32_t ne;

			if (w.level[order[i]] >= w.depth)
				continue;
			e = adj(&w, order[i], &ne);
			for (k = 0; k < ne; k++)
				json_dep(&j, m, e[k]);
		}
		jw_arr_end(&j);
		jw_doc_end(&j);
	} else {
		fprintf(ctx->out, "@%u ", id);
		out_str(ctx->out, m->classes[id].name);
		fputc('\n', ctx->out);
		w.expanded[id] = true;
		print_tree(&w, id, 0);
	}
	ret = EXIT_OK;
out:
	free(order);
	free(w.level);
	free(w.expanded);
	return ret;
}
