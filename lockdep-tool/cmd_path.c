// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_path.c - `path A B`: the shortest dependency path from A to B (B can
 * be taken while A is held, through other locks); with --all, every simple
 * path up to --max of them, shortest first.  Where dependency types are
 * known, only strong paths count (graph.h); a path that exists only
 * through a recursive read followed by a shared acquisition is shown as
 * weak.  Exit 0 when a path exists, 1 when none does.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_ALL, O_MAX, O_LENGTH };

static void print_path(struct ctx *ctx, const uint32_t *deps, uint32_t n,
		       bool stacks, bool weak, bool walk)
{
	const struct ld_model *m = ctx->m;
	uint32_t i;

	text_chain_of(ctx->out, m, deps, n, false);
	fprintf(ctx->out, "  (%u hop%s%s)\n", n, ld_plural(n, "", "s"),
		weak ? ", weak: not a deadlock path by lockdep's rule" :
		walk ? ", undecided: passes a class twice" : "");
	if (walk)
		fputs(WALK_NOTE, ctx->out);
	for (i = 0; i < n; i++)
		text_hop(ctx->out, m, deps[i], "  ", stacks);
}

/* Why the list of --all is not every path, and what it does hold */
static void print_stop(FILE *f, const struct ld_paths *ps, unsigned long max,
		       unsigned long len)
{
	switch (ps->stop) {
	case LD_PATHS_MAX:
		fprintf(f,
			"(stopped at --max %lu: there are more paths, of %u %s or more)\n",
			max, ps->complete_len + 1,
			ld_plural(ps->complete_len + 1, "hop", "hops"));
		break;
	case LD_PATHS_LENGTH:
		fprintf(f,
			"(stopped at --length %lu: there may be longer paths)\n",
			len);
		break;
	case LD_PATHS_WORK:
	default: /* a search cut short names one of the three */
		fprintf(f,
			"(stopped by the search's work bound after %u path%s: every path of up to %u hop%s is listed, there may be longer ones)\n",
			ps->nr, ld_plural(ps->nr, "", "s"), ps->complete_len,
			ld_plural(ps->complete_len, "", "s"));
	}
}

int cmd_path(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	unsigned long max = 20, len = 0;
	struct ld_paths ps = { 0 };
	struct ld_path p = { 0 };
	uint32_t from, to, i;
	bool weak = false, beyond = false;
	int ret, found;

	if (!opt_uint(ctx, a, O_MAX, "max", 1000000, &max, &ret) ||
	    !opt_uint(ctx, a, O_LENGTH, "length", 1000000, &len, &ret))
		return ret;
	if ((a->set[O_MAX] || a->set[O_LENGTH]) && !a->set[O_ALL])
		return usage_error(ctx, "--max and --length go with --all");
	ret = resolve_pair(ctx, a->argv[0], a->argv[1], &from, &to);
	if (ret)
		return ret;
	if (from == to)
		return usage_error(
			ctx,
			"A and B are the same class (use 'cycles' for cycles through it)");
	if (a->set[O_ALL]) {
		if (ld_enum_paths(m, from, to, max, len, &ps)) {
			err_msg("out of memory");
			return EXIT_DATA;
		}
		found = ps.nr > 0;
		/*
		 * The work bound, not the graph, left the list empty: whether
		 * a strong path exists (the exit status) is the shortest-path
		 * search's to say, as without --all
		 */
		if (!found && ps.truncated && ps.stop == LD_PATHS_WORK) {
			found = ld_shortest_path(m, from, to, true, &p);
			if (found < 0) {
				ld_paths_free(&ps);
				err_msg("out of memory");
				return EXIT_DATA;
			}
			beyond = found > 0;
		}
	} else {
		found = ld_shortest_path(m, from, to, true, &p);
		if (!found) {
			found = ld_shortest_path(m, from, to, false, &p);
			weak = found > 0;
		}
		if (found < 0) {
			err_msg("out of memory");
			return EXIT_DATA;
		}
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "path");
		jw_key(&w, "from");
		json_class(&w, m, from, true);
		jw_key(&w, "to");
		json_class(&w, m, to, true);
		json_unknowns(&w, m);
		jw_kbool(&w, "found", found > 0 && !weak);
		jw_kbool(&w, "weak_only", weak);
		json_search_stop(&w, ps.truncated, ps.stop, ps.complete_len);
		/* --all cut short with none listed: what decided "found" */
		jw_key(&w, "beyond");
		if (beyond) {
			jw_obj_start(&w);
			jw_kint(&w, "length", p.nr);
			jw_kbool(&w, "simple", !p.walk);
			jw_obj_end(&w);
		} else {
			jw_null(&w);
		}
		jw_key(&w, "paths");
		jw_arr_start(&w);
		if (a->set[O_ALL]) {
			for (i = 0; i < ps.nr; i++) {
				jw_obj_start(&w);
				jw_kint(&w, "length",
					ps.off[i + 1] - ps.off[i]);
				jw_key(&w, "deps");
				json_hops(&w, m, ps.deps + ps.off[i],
					  ps.off[i + 1] - ps.off[i]);
				jw_obj_end(&w);
			}
		} else if (found > 0) {
			jw_obj_start(&w);
			jw_kint(&w, "length", p.nr);
			jw_kbool(&w, "strong", !weak);
			jw_kbool(&w, "simple", !p.walk);
			jw_key(&w, "deps");
			json_hops(&w, m, p.deps, p.nr);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
	} else if (a->set[O_ALL]) {
		for (i = 0; i < ps.nr; i++) {
			fprintf(ctx->out, "path %u: ", i + 1);
			print_path(ctx, ps.deps + ps.off[i],
				   ps.off[i + 1] - ps.off[i], false, false,
				   false);
		}
		if (!ps.nr) {
			fputs("no dependency path from ", ctx->out);
			out_str(ctx->out, m->classes[from].name);
			fputs(" to ", ctx->out);
			out_str(ctx->out, m->classes[to].name);
			/* a search cut short has looked at the short ones */
			if (ps.truncated)
				fprintf(ctx->out, " of up to %u hop%s",
					ps.complete_len,
					ld_plural(ps.complete_len, "", "s"));
			fputs(m->have.dep_types ? " (strong paths only)\n" :
						  "\n",
			      ctx->out);
		}
		if (ps.truncated)
			print_stop(ctx->out, &ps, max, len);
		if (beyond)
			fprintf(ctx->out,
				"%s, of %u hop%s: 'path' without --all shows it\n",
				p.walk ? "a strong walk exists all the same, passing a class twice (undecided)" :
					 "a strong path exists all the same",
				p.nr, ld_plural(p.nr, "", "s"));
		text_unknowns(ctx->out, m, "");
	} else if (found > 0) {
		print_path(ctx, p.deps, p.nr, true, weak, p.walk);
		text_unknowns(ctx->out, m, "");
	} else {
		fputs("no dependency path from ", ctx->out);
		out_str(ctx->out, m->classes[from].name);
		fputs(" to ", ctx->out);
		out_str(ctx->out, m->classes[to].name);
		fputc('\n', ctx->out);
		text_unknowns(ctx->out, m, "");
	}
	free(p.deps);
	ld_paths_free(&ps);
	return found > 0 && !weak ? EXIT_OK : EXIT_FOUND;
}
