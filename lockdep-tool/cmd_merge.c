// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_merge.c - `merge [PATH...]`: the union of several snapshots (the
 * paths, or the -s options), and how their classes were matched across
 * boots (merge.h: name and subclass, key symbol where exported, "#N"
 * realigned).  Every command runs on such a union when -s is given more
 * than once; this one shows the matching so that it can be checked.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_ALL };

/* Classes and dependencies the union has from snapshot @s. */
static void snapshot_counts(const struct ld_model *m, uint32_t s, uint32_t *nc,
			    uint32_t *nd)
{
	const struct ld_merge_info *mi = m->merge;
	uint32_t i;

	*nc = 0;
	*nd = 0;
	for (i = 0; i < m->nr_classes; i++)
		*nc += mi->cls_src[i * mi->nr_src + s] != LD_NONE;
	for (i = 0; i < m->nr_deps; i++)
		*nd += !!(mi->dep_src[i] & (1u << s));
}

/*
 * Class @i was matched by name (or new in its first snapshot), and printed
 * the same, in every snapshot.
 */
static bool matched_plainly(const struct ld_model *m, uint32_t i)
{
	const struct ld_merge_info *mi = m->merge;
	uint32_t s, n = mi->nr_src;

	for (s = 0; s < n; s++)
		if (mi->cls_src[i * n + s] != LD_NONE &&
		    (ld_name_cmp(mi->cls_name[i * n + s], m->classes[i].name) ||
		     (mi->cls_how[i * n + s] != LD_MATCH_NAME &&
		      mi->cls_how[i * n + s] != LD_MATCH_NONE)))
			return false;
	return true;
}

int cmd_merge(struct ctx *ctx, struct cmd_args *a)
{
	struct ld_model *own = NULL;
	const struct ld_model *m;
	const struct ld_merge_info *mi;
	struct ld_diag d = { "" };
	uint32_t i, s, n, nr_how[LD_MATCH_NR] = { 0 }, partial = 0;
	FILE *f = ctx->out;
	int ret;

	for (i = 0; i < (uint32_t)a->argc; i++) {
		ret = refuse_command_stream(ctx, "snapshot", a->argv[i]);
		if (ret)
			return ret;
	}
	if (a->argc >= 1) {
		/* one argument: a saved union, which holds its parts */
		if (a->argc == 1 ? ld_load_path(&own, a->argv[0], &d) :
				   ld_load_merged(&own,
						  (const char *const *)a->argv,
						  a->argc, &d)) {
			err_msg("%s", d.msg);
			return EXIT_DATA;
		}
		m = own;
		if (!m->merge) {
			ld_model_free(own);
			return usage_error(
				ctx,
				"give two snapshots or more, or a saved union");
		}
	} else {
		if (ctx->nr_snapshots < 1)
			return usage_error(
				ctx,
				"give two snapshots or more (as arguments or with -s), or a saved union");
		ret = ctx_model(ctx);
		if (ret)
			return ret;
		m = ctx->m;
		if (!m->merge)
			return usage_error(
				ctx,
				"give two snapshots or more (as arguments or with -s), or a saved union");
	}
	mi = m->merge;
	n = mi->nr_src;
	for (i = 0; i < m->nr_classes; i++) {
		bool all = true;

		for (s = 0; s < n; s++) {
			if (mi->cls_src[i * n + s] == LD_NONE)
				all = false;
			else if (s)
				nr_how[mi->cls_how[i * n + s]]++;
		}
		partial += !all;
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "merge");
		jw_key(&w, "snapshots");
		jw_arr_start(&w);
		for (s = 0; s < n; s++) {
			uint32_t nc, nd;

			snapshot_counts(m, s, &nc, &nd);
			jw_obj_start(&w);
			jw_kint(&w, "index", s + 1);
			jw_kstr(&w, "origin", mi->src[s]);
			jw_key(&w, "release");
			mi->release[s] ? jw_str(&w, mi->release[s]) :
					 jw_null(&w);
			jw_kint(&w, "classes", nc);
			jw_kint(&w, "dependencies", nd);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_kint(&w, "classes", m->nr_classes);
		/* unknown where a part lacks them, as for every command */
		jw_key(&w, "dependencies");
		m->have.deps ? jw_int(&w, m->nr_deps) : jw_null(&w);
		jw_key(&w, "chains");
		m->have.chains ? jw_int(&w, m->nr_chains) : jw_null(&w);
		jw_kint(&w, "classes_not_in_all", partial);
		jw_kint(&w, "renumbered", mi->nr_renamed);
		jw_key(&w, "matched");
		jw_obj_start(&w);
		for (i = LD_MATCH_NAME; i < LD_MATCH_NR; i++)
			jw_kint(&w, ld_match_how_name(i), nr_how[i]);
		jw_obj_end(&w);
		jw_key(&w, "class_matches");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_classes; i++) {
			if (!a->set[O_ALL] && matched_plainly(m, i))
				continue;
			jw_obj_start(&w);
			jw_kint(&w, "id", i);
			jw_kstrn(&w, "name", m->classes[i].name);
			jw_key(&w, "in");
			jw_arr_start(&w);
			for (s = 0; s < n; s++) {
				if (mi->cls_src[i * n + s] == LD_NONE)
					continue;
				jw_obj_start(&w);
				jw_kint(&w, "snapshot", s + 1);
				jw_kstrn(&w, "name", mi->cls_name[i * n + s]);
				jw_kstr(&w, "matched_by",
					ld_match_how_name(
						mi->cls_how[i * n + s]));
				jw_obj_end(&w);
			}
			jw_arr_end(&w);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
		goto out;
	}
	for (s = 0; s < n; s++) {
		uint32_t nc, nd;

		snapshot_counts(m, s, &nc, &nd);
		fprintf(f, "snapshot %u: %s", s + 1, mi->src[s]);
		if (mi->release[s])
			fprintf(f, " (%s)", mi->release[s]);
		fprintf(f, ": %u %s, %u %s\n", nc,
			ld_plural(nc, "class", "classes"), nd,
			ld_plural(nd, "dependency", "dependencies"));
	}
	fprintf(f, "union: %u %s (%u not in every snapshot), ",
		m->nr_classes, ld_plural(m->nr_classes, "class", "classes"),
		partial);
	if (m->have.deps)
		fprintf(f, "%u %s, ", m->nr_deps,
			ld_plural(m->nr_deps, "dependency", "dependencies"));
	else
		fputs("dependencies unknown (a snapshot has none), ", f);
	if (m->have.chains)
		fprintf(f, "%u %s\n", m->nr_chains,
			ld_plural(m->nr_chains, "chain", "chains"));
	else
		fputs("chains unknown (a snapshot has none)\n", f);
	fprintf(f,
		"matched across snapshots: %u by name, %u by key, %u realigned #N, %u by shared dependencies, %u by #N order alone (a guess)\n",
		nr_how[LD_MATCH_NAME], nr_how[LD_MATCH_KEY],
		nr_how[LD_MATCH_REALIGNED], nr_how[LD_MATCH_NEIGHBOURS],
		nr_how[LD_MATCH_ORDER]);
	if (mi->nr_renamed)
		fprintf(f,
			"renumbered: %u printed names differ from the union's\n",
			mi->nr_renamed);
	for (i = 0; i < m->nr_classes; i++) {
		if (!a->set[O_ALL] && matched_plainly(m, i))
			continue;
		fprintf(f, "  @%u ", i);
		out_str(f, m->classes[i].name);
		fputs(":", f);
		for (s = 0; s < n; s++) {
			if (mi->cls_src[i * n + s] == LD_NONE) {
				fprintf(f, " [%u: absent]", s + 1);
				continue;
			}
			fprintf(f, " [%u: ", s + 1);
			out_str(f, mi->cls_name[i * n + s]);
			fprintf(f, ", %s]",
				ld_match_how_name(mi->cls_how[i * n + s]));
		}
		fputc('\n', f);
	}
out:
	ld_model_free(own);
	return EXIT_OK;
}
