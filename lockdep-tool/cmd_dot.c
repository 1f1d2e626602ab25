// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_dot.c - `dot`: the dependency graph, or a class's neighbourhood, in
 * Graphviz DOT.  Node ids come from the model (c<N>), names only appear
 * in labels, escaping happens in out_dot_quoted(), and nodes and edges are
 * emitted in id order so that the same input gives the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

enum { O_DEPTH, O_REVERSE, O_FORWARD, O_PATH, O_CYCLE, O_REPORT, O_LOG };

static const struct {
	const char *kind, *attrs;
} colours[] = {
	{ "hardirq-safe", "fillcolor=\"#f4a3a3\"" },
	{ "hardirq-read-safe", "fillcolor=\"#fbd9d9\"" },
	{ "softirq-safe", "fillcolor=\"#f9cf8f\"" },
	{ "softirq-read-safe", "fillcolor=\"#fde9c9\"" },
	{ "irq-unsafe", "fillcolor=\"#a9c8f0\"" },
	{ "no-irq", "fillcolor=\"#e0e0e0\"" },
	{ "unused", "fillcolor=\"#ffffff\"" },
	{ "unknown", "fillcolor=\"#ffffff\", style=\"filled,dashed\"" },
};

const char *node_attrs(const struct ld_class *c)
{
	const char *k = class_irq_kind(c);
	unsigned int i, n = sizeof(colours) / sizeof(colours[0]);

	for (i = 0; i < n - 1; i++)
		if (!strcmp(colours[i].kind, k))
			break;
	return colours[i].attrs; /* the last one: unknown */
}

/* The comment lines every DOT output starts with, after its title */
void dot_legend(FILE *f)
{
	fputs("// fill: red hardirq-safe, orange softirq-safe, pale when read-safe only,\n"
	      "//       blue irq-unsafe, grey no irq use, white unused, dashed border unknown\n"
	      "// edge: solid EN, dashed ER/SN, dotted SR only, grey type unknown\n",
	      f);
}

const char *edge_attrs(const struct ld_dep *d)
{
	if (!d->type_known)
		return "color=\"#808080\"";
	if (d->type & LD_DEP_EN)
		return "style=solid";
	if (d->type == LD_DEP_SR)
		return "style=dotted";
	return "style=dashed";
}

/* BFS from @root over one direction; marks in[] the classes reached. */
static void walk(const struct ld_model *m, uint32_t root, unsigned long depth,
		 bool back, uint32_t *level, uint32_t *queue, bool *in)
{
	const uint32_t *off = back ? m->in_off : m->out_off;
	const uint32_t *adj = back ? m->in : m->out;
	uint32_t head = 0, tail = 0, i, k;

	for (i = 0; i < m->nr_classes; i++)
		level[i] = UINT32_MAX;
	level[root] = 0;
	in[root] = true;
	queue[tail++] = root;
	while (head < tail) {
		uint32_t u = queue[head++];

		if (level[u] >= depth)
			continue;
		for (k = off[u]; k < off[u + 1]; k++) {
			const struct ld_dep *d = &m->deps[adj[k]];
			uint32_t v = back ? d->from : d->to;

			if (level[v] != UINT32_MAX)
				continue;
			level[v] = level[u] + 1;
			in[v] = true;
			queue[tail++] = v;
		}
	}
}

int cmd_dot(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m;
	unsigned long depth = 1;
	uint32_t root = LD_NONE, *level = NULL, *queue = NULL, i, k;
	uint32_t nn = 0, ne = 0;
	bool *in = NULL;
	FILE *f = ctx->out;
	int ret;

	if (!opt_uint(ctx, a, O_DEPTH, "depth", 1000, &depth, &ret))
		return ret;
	if (a->set[O_PATH] || a->set[O_CYCLE] || a->set[O_REPORT] ||
	    a->set[O_LOG]) {
		if (a->set[O_DEPTH] || a->set[O_REVERSE] || a->set[O_FORWARD])
			return usage_error(ctx, "--depth, --reverse and --forward do not go with --path, --cycle or --report");
		return dot_focus(ctx, a, a->val[O_PATH], a->val[O_CYCLE],
				 a->val[O_REPORT], a->val[O_LOG]);
	}
	if (a->set[O_REVERSE] && a->set[O_FORWARD])
		return usage_error(
			ctx, "--reverse and --forward exclude each other");
	ret = cmd_model(ctx);
	if (ret)
		return ret;
	m = ctx->m;
	if (a->argc) {
		ret = resolve_class(ctx, a->argv[0], &root);
		if (ret)
			return ret;
	} else if (a->set[O_DEPTH] || a->set[O_REVERSE] || a->set[O_FORWARD]) {
		return usage_error(
			ctx, "--depth, --reverse and --forward need a CLASS");
	}
	if (!m->have.deps)
		warn_msg(
			"dot: no dependency data in this source: classes only");
	level = malloc((m->nr_classes + 1) * sizeof(*level));
	queue = malloc((m->nr_classes + 1) * sizeof(*queue));
	in = calloc(m->nr_classes + 1, sizeof(*in));
	if (!level || !queue || !in) {
		free(level);
		free(queue);
		free(in);
		err_msg("out of memory");
		return EXIT_DATA;
	}
	if (root == LD_NONE) {
		memset(in, 1, m->nr_classes * sizeof(*in));
	} else {
		if (!a->set[O_REVERSE])
			walk(m, root, depth, false, level, queue, in);
		if (!a->set[O_FORWARD])
			walk(m, root, depth, true, level, queue, in);
	}

#define IN(c) (in[c])
	if (ctx->json) {
		if (root == LD_NONE)
			ld_fd_bd_all(m); /* all at once, faster than one by one */
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "dot");
		jw_key(&w, "root");
		if (root == LD_NONE)
			jw_null(&w);
		else
			jw_int(&w, root);
		jw_key(&w, "nodes");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_classes; i++) {
			if (!IN(i))
				continue;
			json_class_open(&w, m, i);
			jw_kstr(&w, "kind", class_irq_kind(&m->classes[i]));
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		/* no dependency data: not an empty list */
		jw_key(&w, "edges");
		if (!m->have.deps) {
			jw_null(&w);
			jw_doc_end(&w);
			goto out;
		}
		jw_arr_start(&w);
		for (i = 0; i < m->nr_classes; i++) {
			if (!IN(i))
				continue;
			for (k = m->out_off[i]; k < m->out_off[i + 1]; k++) {
				const struct ld_dep *d = &m->deps[m->out[k]];
				char tb[16];

				if (!IN(d->to))
					continue;
				jw_obj_start(&w);
				jw_kint(&w, "from", d->from);
				jw_kint(&w, "to", d->to);
				jw_key(&w, "type");
				if (d->type_known)
					jw_str(&w, ld_dep_type_str(d->type,
								   true, tb));
				else
					jw_null(&w);
				jw_key(&w, "distance");
				if (d->distance)
					jw_int(&w, d->distance);
				else
					jw_null(&w);
				jw_obj_end(&w);
			}
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
		goto out;
	}

	for (i = 0; i < m->nr_classes; i++)
		if (IN(i)) {
			nn++;
			for (k = m->out_off[i]; k < m->out_off[i + 1]; k++)
				ne += IN(m->deps[m->out[k]].to);
		}
	if (m->have.deps)
		fprintf(f, "// lockdep-tool dot: %u %s, %u %s\n", nn,
			ld_plural(nn, "class", "classes"), ne,
			ld_plural(ne, "dependency", "dependencies"));
	else
		fprintf(f, "// lockdep-tool dot: %u %s, dependencies unknown\n",
			nn, ld_plural(nn, "class", "classes"));
	dot_legend(f);
	fputs("digraph lockdep {\n"
	      "\tgraph [rankdir=LR];\n"
	      "\tnode [shape=box, style=filled, fontname=\"monospace\", fontsize=10];\n"
	      "\tedge [arrowsize=0.6];\n",
	      f);
	for (i = 0; i < m->nr_classes; i++) {
		if (!IN(i))
			continue;
		fprintf(f, "\tc%u [label=", i);
		out_dot_quoted(f, m->classes[i].name.s, m->classes[i].name.len);
		fprintf(f, ", %s%s];\n", node_attrs(&m->classes[i]),
			i == root ? ", penwidth=3" : "");
	}
	for (i = 0; i < m->nr_classes; i++) {
		if (!IN(i))
			continue;
		for (k = m->out_off[i]; k < m->out_off[i + 1]; k++) {
			const struct ld_dep *d = &m->deps[m->out[k]];

			if (!IN(d->to))
				continue;
			fprintf(f, "\tc%u -> c%u [%s", d->from, d->to,
				edge_attrs(d));
			if (d->distance > 1)
				fprintf(f, ", label=\"d=%d\"", d->distance);
			fputs("];\n", f);
		}
	}
	fputs("}\n", f);
out:
	free(level);
	free(queue);
	free(in);
	return EXIT_OK;
}
