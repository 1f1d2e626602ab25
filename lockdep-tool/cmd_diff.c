// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_diff.c - `diff OLD [NEW]`: what changed between two snapshots (NEW
 * defaults to the current source: -s, or the live kernel).  Classes added
 * and removed, matched across boots as merge.h says, with the base names
 * whose number of classes moved (the class-leak hunt lockdep-design.rst
 * does with `grep BD /proc/lockdep`); dependencies added (with their
 * stacks) and removed; usage-bit transitions; chains per irq context;
 * counters; lock_stat.  Exit 1 when anything differs.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_MAX, O_BRIEF };

static void usage_words(FILE *f, uint16_t mask, char sign)
{
	unsigned int b;

	for (b = 0; b < LD_NR_USAGE_BITS; b++)
		if (mask & (1u << b))
			fprintf(f, " %c%s", sign, ld_usage_word(b));
}

static void json_usage_words(struct jw *w, const char *key, uint16_t mask)
{
	unsigned int b;

	jw_key(w, key);
	jw_arr_start(w);
	for (b = 0; b < LD_NR_USAGE_BITS; b++)
		if (mask & (1u << b))
			jw_str(w, ld_usage_word(b));
	jw_arr_end(w);
}

/* A dependency in both, changed: its object up to what changed */
static void json_changed_start(struct jw *w, const struct ld_model *n,
			       const struct ld_dep *nd)
{
	jw_obj_start(w);
	jw_kint(w, "from", nd->from);
	jw_kint(w, "to", nd->to);
	jw_kstrn(w, "from_name", n->classes[nd->from].name);
	jw_kstrn(w, "to_name", n->classes[nd->to].name);
}

/* "~ A -> B", what changed follows */
static void text_changed(FILE *f, const struct ld_model *n,
			 const struct ld_dep *nd)
{
	fputs("~ ", f);
	out_str(f, n->classes[nd->from].name);
	fputs(" -> ", f);
	out_str(f, n->classes[nd->to].name);
}

static void diff_json(struct ctx *ctx, const struct ld_model *o,
		      const struct ld_model *n, const struct ld_diff *df)
{
	struct jw w;
	uint32_t i;
	int k;

	jw_init(&w, ctx->out, ctx->pretty);
	jw_doc_start(&w, "diff");
	jw_key(&w, "old");
	o->origin ? jw_str(&w, o->origin) : jw_null(&w);
	jw_key(&w, "new");
	n->origin ? jw_str(&w, n->origin) : jw_null(&w);
	jw_kbool(&w, "differ", ld_diff_any(df));
	jw_key(&w, "matched");
	jw_obj_start(&w);
	for (k = LD_MATCH_NAME; k < LD_MATCH_NR; k++)
		jw_kint(&w, ld_match_how_name(k), df->mt.nr_how[k]);
	jw_obj_end(&w);
	jw_kbool(&w, "classes_compared", df->classes_compared);
	jw_key(&w, "classes_added");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_added; i++)
		json_class(&w, n, df->added[i], true);
	jw_arr_end(&w);
	jw_key(&w, "classes_removed");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_removed; i++)
		json_class(&w, o, df->removed[i], true);
	jw_arr_end(&w);
	jw_key(&w, "classes_renamed");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_renamed; i++) {
		uint32_t c = df->renamed[i];

		jw_obj_start(&w);
		jw_kstrn(&w, "old", o->classes[df->mt.b_to_a[c]].name);
		jw_kstrn(&w, "new", n->classes[c].name);
		jw_kstr(&w, "matched_by", ld_match_how_name(df->mt.how[c]));
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "class_counts");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_names; i++) {
		jw_obj_start(&w);
		jw_kstrn(&w, "base_name", df->names[i].base);
		jw_kint(&w, "old", df->names[i].old_nr);
		jw_kint(&w, "new", df->names[i].new_nr);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_kbool(&w, "deps_compared", df->deps_compared);
	jw_kbool(&w, "distance1_only", df->distance1_only);
	jw_key(&w, "deps_added");
	json_hops(&w, n, df->dep_added, df->nr_dep_added);
	jw_key(&w, "deps_removed");
	json_hops(&w, o, df->dep_removed, df->nr_dep_removed);
	jw_key(&w, "deps_retyped");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_retyped; i++) {
		char b1[16], b2[16];
		const struct ld_dep *od = &o->deps[df->retyped_old[i]];
		const struct ld_dep *nd = &n->deps[df->retyped_new[i]];

		json_changed_start(&w, n, nd);
		jw_kstr(&w, "old_type", ld_dep_type_str(od->type, true, b1));
		jw_kstr(&w, "new_type", ld_dep_type_str(nd->type, true, b2));
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "deps_distance_changed");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_redist; i++) {
		const struct ld_dep *od = &o->deps[df->redist_old[i]];
		const struct ld_dep *nd = &n->deps[df->redist_new[i]];

		json_changed_start(&w, n, nd);
		jw_kint(&w, "old_distance", od->distance);
		jw_kint(&w, "new_distance", nd->distance);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_kbool(&w, "usage_compared", df->usage_compared);
	jw_key(&w, "usage_changes");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_usage; i++) {
		jw_obj_start(&w);
		jw_kstrn(&w, "class", n->classes[df->usage[i].new_id].name);
		json_usage_words(&w, "gained", df->usage[i].gained);
		json_usage_words(&w, "lost", df->usage[i].lost);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_key(&w, "chains");
	if (df->chains_compared) {
		jw_obj_start(&w);
		for (k = 0; k < 4; k++) {
			jw_key(&w, irq_ctx_word(k));
			jw_obj_start(&w);
			jw_kint(&w, "old", df->chains[0][k]);
			jw_kint(&w, "new", df->chains[1][k]);
			jw_obj_end(&w);
		}
		jw_obj_end(&w);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "counters");
	jw_arr_start(&w);
	for (i = 0; i < df->nr_stats; i++) {
		const struct ld_stat_change *c = &df->stats[i];

		jw_obj_start(&w);
		jw_kstrn(&w, "key", c->key);
		jw_key(&w, "old");
		c->old_known ? jw_int(&w, c->old_v) : jw_null(&w);
		jw_key(&w, "new");
		c->new_known ? jw_int(&w, c->new_v) : jw_null(&w);
		jw_obj_end(&w);
	}
	jw_arr_end(&w);
	jw_kbool(&w, "counters_compared", df->stats_compared);
	jw_kint(&w, "counters_not_compared", df->nr_stats_unknown);
	jw_key(&w, "lockstat");
	if (df->ls_compared) {
		jw_arr_start(&w);
		for (i = 0; i < df->nr_ls; i++) {
			const struct ld_ls_change *c = &df->ls[i];

			jw_obj_start(&w);
			jw_kstrn(&w, "class", c->name);
			jw_kstr(&w, "state",
				c->state == LD_LS_NEW  ? "new" :
				c->state == LD_LS_GONE ? "gone" :
							 "changed");
			jw_kint(&w, "contentions", c->d[LD_LS_CONTENTIONS]);
			jw_kint(&w, "con_bounces", c->d[LD_LS_CON_BOUNCES]);
			jw_kint(&w, "acquisitions", c->d[LD_LS_ACQUISITIONS]);
			jw_kint(&w, "acq_bounces", c->d[LD_LS_ACQ_BOUNCES]);
			jw_key(&w, "waittime_total_us");
			jw_fixed2(&w, c->d[LD_LS_WAIT_TOTAL]);
			jw_key(&w, "holdtime_total_us");
			jw_fixed2(&w, c->d[LD_LS_HOLD_TOTAL]);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
	} else {
		jw_null(&w);
	}
	jw_doc_end(&w);
}

static void more(FILE *f, uint32_t n, unsigned long max)
{
	if (n > max)
		fprintf(f, "  ... %lu more (--max)\n", n - max);
}

/* Which side cannot tell, when @o_has or @n_has is false */
static const char *lacking(bool o_has, bool n_has)
{
	if (!o_has && !n_has)
		return "neither side lists any";
	return o_has ? "the new side lists none" : "the old side lists none";
}

static void diff_text(struct ctx *ctx, const struct ld_model *o,
		      const struct ld_model *n, const struct ld_diff *df,
		      unsigned long max, bool brief)
{
	FILE *f = ctx->out;
	uint32_t i;
	bool all;
	int k;

	if (!df->classes_compared)
		fprintf(f, "classes: not compared (%s)",
			lacking(o->have.classes, n->have.classes));
	else
		fprintf(f, "classes: %u added, %u removed", df->nr_added,
			df->nr_removed);
	if (df->nr_renamed)
		fprintf(f, ", %u renumbered (#N realigned)", df->nr_renamed);
	fputc('\n', f);
	for (i = 0; i < df->nr_added && i < max; i++) {
		fputs("+ ", f);
		out_str(f, n->classes[df->added[i]].name);
		fputc('\n', f);
	}
	more(f, df->nr_added, max);
	for (i = 0; i < df->nr_removed && i < max; i++) {
		fputs("- ", f);
		out_str(f, o->classes[df->removed[i]].name);
		fputc('\n', f);
	}
	more(f, df->nr_removed, max);
	for (i = 0; i < df->nr_renamed && i < max; i++) {
		uint32_t c = df->renamed[i];

		fputs("~ ", f);
		out_str(f, o->classes[df->mt.b_to_a[c]].name);
		fputs(" is now ", f);
		out_str(f, n->classes[c].name);
		fprintf(f, " (matched by %s)\n",
			ld_match_how_name(df->mt.how[c]));
	}
	more(f, df->nr_renamed, max);
	if (df->nr_names) {
		fputs("classes per base name (a growing count is a class leak):\n",
		      f);
		for (i = 0; i < df->nr_names && i < max; i++) {
			fputs("  ", f);
			out_str(f, df->names[i].base);
			fprintf(f, ": %u -> %u (%+lld)\n", df->names[i].old_nr,
				df->names[i].new_nr,
				(long long)df->names[i].new_nr -
					df->names[i].old_nr);
		}
		more(f, df->nr_names, max);
	}
	if (!df->deps_compared) {
		fprintf(f, "dependencies: not compared (%s)\n",
			lacking(o->have.deps, n->have.deps));
	} else {
		fprintf(f, "dependencies: %u added, %u removed%s\n",
			df->nr_dep_added, df->nr_dep_removed,
			df->distance1_only ?
				" (distance 1 only, all /proc/lockdep lists)" :
				"");
		for (i = 0; i < df->nr_dep_added && i < max; i++)
			text_hop(f, n, df->dep_added[i], "+ ", !brief);
		more(f, df->nr_dep_added, max);
		for (i = 0; i < df->nr_dep_removed && i < max; i++)
			text_hop(f, o, df->dep_removed[i], "- ", false);
		more(f, df->nr_dep_removed, max);
		if (df->nr_retyped)
			fprintf(f, "dependency types changed: %u\n",
				df->nr_retyped);
		for (i = 0; i < df->nr_retyped && i < max; i++) {
			const struct ld_dep *od = &o->deps[df->retyped_old[i]];
			const struct ld_dep *nd = &n->deps[df->retyped_new[i]];
			char b1[16], b2[16];

			text_changed(f, n, nd);
			fprintf(f, "  [%s] -> [%s]\n",
				ld_dep_type_str(od->type, true, b1),
				ld_dep_type_str(nd->type, true, b2));
		}
		more(f, df->nr_retyped, max);
		if (df->nr_redist)
			fprintf(f, "dependency distances changed: %u\n",
				df->nr_redist);
		for (i = 0; i < df->nr_redist && i < max; i++) {
			const struct ld_dep *od = &o->deps[df->redist_old[i]];
			const struct ld_dep *nd = &n->deps[df->redist_new[i]];

			text_changed(f, n, nd);
			fprintf(f, "  distance %u -> %u\n", od->distance,
				nd->distance);
		}
		more(f, df->nr_redist, max);
	}
	if (!df->usage_compared) {
		fprintf(f, "usage: not compared (%s)\n",
			lacking(o->have.usage, n->have.usage));
	} else {
		fprintf(f, "usage changes: %u\n", df->nr_usage);
		for (i = 0; i < df->nr_usage && i < max; i++) {
			fputs("  ", f);
			out_str(f, n->classes[df->usage[i].new_id].name);
			fputc(':', f);
			usage_words(f, df->usage[i].gained, '+');
			usage_words(f, df->usage[i].lost, '-');
			fputc('\n', f);
		}
		more(f, df->nr_usage, max);
	}
	if (!df->chains_compared) {
		fprintf(f, "chains: not compared (%s)\n",
			lacking(o->have.chains, n->have.chains));
	} else {
		fputs("chains:", f);
		if (!df->chains[0][0] && !df->chains[1][0] &&
		    !df->chains[0][1] && !df->chains[1][1] &&
		    !df->chains[0][2] && !df->chains[1][2] &&
		    !df->chains[0][3] && !df->chains[1][3])
			fputs(" none on either side", f);
		for (k = 0; k < 4; k++)
			if (df->chains[0][k] || df->chains[1][k])
				fprintf(f, " %s %lld -> %lld (%+lld)",
					irq_ctx_word(k),
					(long long)df->chains[0][k],
					(long long)df->chains[1][k],
					(long long)(df->chains[1][k] -
						    df->chains[0][k]));
		fputc('\n', f);
	}
	if (!df->stats_compared)
		fprintf(f, "counters: not compared (%s)\n",
			lacking(o->have.stats, n->have.stats));
	if (df->nr_stats) {
		fputs("counters:\n", f);
		for (i = 0; i < df->nr_stats && i < max; i++) {
			const struct ld_stat_change *c = &df->stats[i];

			fputs("  ", f);
			out_str(f, c->label);
			fputs(": ", f);
			if (c->old_known)
				fprintf(f, "%lld", (long long)c->old_v);
			else
				fputs("-", f);
			fputs(" -> ", f);
			if (c->new_known)
				fprintf(f, "%lld", (long long)c->new_v);
			else
				fputs("-", f);
			if (c->old_known && c->new_known)
				fprintf(f, " (%+lld)",
					(long long)(c->new_v - c->old_v));
			fputc('\n', f);
		}
		more(f, df->nr_stats, max);
	}
	if (df->nr_stats_unknown)
		fprintf(f,
			"counters: %u not compared (one side cannot tell them: a kernel without CONFIG_PROVE_LOCKING?)\n",
			df->nr_stats_unknown);
	if (!df->ls_compared)
		fprintf(f, "lock_stat: not compared (%s)\n",
			lacking(o->have.lockstat, n->have.lockstat));
	if (df->nr_ls) {
		char b1[32], b2[32];

		fputs("lock_stat:\n", f);
		for (i = 0; i < df->nr_ls && i < max; i++) {
			const struct ld_ls_change *c = &df->ls[i];

			fputs("  ", f);
			out_str(f, c->name);
			fprintf(f,
				"%s: contentions %+lld, acquisitions %+lld, wait %s%s us, hold %s%s us\n",
				c->state == LD_LS_NEW  ? " (new)" :
				c->state == LD_LS_GONE ? " (gone)" :
							 "",
				(long long)c->d[LD_LS_CONTENTIONS],
				(long long)c->d[LD_LS_ACQUISITIONS],
				c->d[LD_LS_WAIT_TOTAL] < 0 ? "" : "+",
				fmt_us(c->d[LD_LS_WAIT_TOTAL], b1, sizeof(b1)),
				c->d[LD_LS_HOLD_TOTAL] < 0 ? "" : "+",
				fmt_us(c->d[LD_LS_HOLD_TOTAL], b2, sizeof(b2)));
		}
		more(f, df->nr_ls, max);
	}
	all = df->classes_compared && df->deps_compared &&
	      df->usage_compared && df->chains_compared &&
	      df->stats_compared && df->ls_compared && !df->nr_stats_unknown;
	if (!ld_diff_any(df))
		fputs(all ? "no differences\n" :
			    "no differences in what was compared\n",
		      f);
}

int cmd_diff(struct ctx *ctx, struct cmd_args *a)
{
	struct ld_model *o = NULL, *n = NULL, *own = NULL;
	struct ld_diag d = { "" };
	unsigned long max = 50;
	struct ld_diff df;
	int ret;

	if (!opt_uint(ctx, a, O_MAX, "max", 100000000, &max, &ret))
		return ret;
	if (!max) /* 0: no limit */
		max = ULONG_MAX;
	for (int k = 0; k < a->argc; k++) {
		ret = refuse_command_stream(ctx, "snapshot", a->argv[k]);
		if (ret)
			return ret;
	}
	if (ld_load_path(&o, a->argv[0], &d)) {
		err_msg("%s", d.msg);
		return EXIT_DATA;
	}
	if (a->argc > 1) {
		if (ld_load_path(&own, a->argv[1], &d)) {
			err_msg("%s", d.msg);
			ld_model_free(o);
			return EXIT_DATA;
		}
		n = own;
	} else {
		ret = ctx_model(ctx);
		if (ret) {
			ld_model_free(o);
			return ret;
		}
		n = ctx->m;
	}
	if (ld_diff(o, n, &df)) {
		err_msg("out of memory");
		ld_model_free(o);
		ld_model_free(own);
		return EXIT_DATA;
	}
	if (ctx->json)
		diff_json(ctx, o, n, &df);
	else
		diff_text(ctx, o, n, &df, max, a->set[O_BRIEF]);
	ret = ld_diff_any(&df) ? EXIT_FOUND : EXIT_OK;
	ld_diff_free(&df);
	ld_model_free(o);
	ld_model_free(own);
	return ret;
}
