// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_cycles.c - `cycles`: every lock-order cycle in the model, each once
 * under its canonical id (graph.h: the class names rotated to start at the
 * smallest), with the stack of each hop where the source has them.  One
 * boot's graph never holds a deadlock cycle (lockdep refuses the closing
 * dependency and reports it instead), so this is for unions of snapshots
 * (-s A -s B) and for graphs read after lockdep switched itself off.
 * Where dependency types are known, cycles that are not strong (a
 * recursive read followed by a shared acquisition) are no deadlock and are
 * left out unless --weak.  Exit 1 when a (strong) cycle is found.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_MAX, O_LENGTH, O_WEAK, O_BRIEF };

/* What stopped a search cut short, for its text */
static const char *stop_text(const struct ld_cycles *cs, unsigned long max,
			     unsigned long len, char *buf, size_t size)
{
	switch (cs->stop) {
	case LD_PATHS_MAX:
		snprintf(buf, size, "at --max %lu", max);
		break;
	case LD_PATHS_LENGTH:
		snprintf(buf, size, "at --length %lu", len);
		break;
	case LD_PATHS_WORK:
	default: /* a search cut short names one of the three */
		snprintf(buf, size, "at its work bound");
	}
	return buf;
}

int cmd_cycles(struct ctx *ctx, struct cmd_args *a)
{
	char buf[64];
	const struct ld_model *m = ctx->m;
	unsigned long max = 100, len = 0;
	struct ld_cycles cs;
	uint32_t i, k, strong = 0;
	bool deadlock = false; /* a strong cycle beyond the list */
	FILE *f = ctx->out;
	int ret;

	if (!opt_uint(ctx, a, O_MAX, "max", 10000000, &max, &ret) ||
	    !opt_uint(ctx, a, O_LENGTH, "length", 1000000, &len, &ret))
		return ret;
	ret = need_deps(ctx);
	if (ret)
		return ret;
	if (ld_find_cycles(m, max, len, a->set[O_WEAK], &cs)) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	for (i = 0; i < cs.nr; i++)
		strong += cs.c[i].strong;
	/*
	 * With --weak, weak cycles may have taken every --max slot: whether
	 * a deadlock cycle exists (the exit code) is a search of its own
	 */
	if (a->set[O_WEAK] && cs.truncated && !strong) {
		struct ld_cycles sc;

		if (ld_find_cycles(m, 1, len, false, &sc)) {
			ld_cycles_free(&cs);
			err_msg("out of memory");
			return EXIT_DATA;
		}
		deadlock = sc.nr > 0;
		ld_cycles_free(&sc);
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "cycles");
		json_unknowns(&w, m);
		jw_kint(&w, "components", cs.nr_components);
		jw_kint(&w, "largest_component", cs.largest_component);
		jw_kint(&w, "weak_cycles", cs.nr_weak);
		json_search_stop(&w, cs.truncated, cs.stop, cs.deepened_to);
		jw_key(&w, "cycles");
		jw_arr_start(&w);
		for (i = 0; i < cs.nr; i++) {
			const struct ld_cycle *c = &cs.c[i];

			jw_obj_start(&w);
			jw_kstr(&w, "id", c->id);
			jw_kint(&w, "length", c->nr);
			jw_kbool(&w, "strong", c->strong);
			jw_key(&w, "classes");
			jw_arr_start(&w);
			for (k = 0; k < c->nr; k++) {
				uint32_t cl =
					m->deps[cs.deps[c->first + k]].from;

				jw_strn(&w, m->classes[cl].name.s,
					m->classes[cl].name.len);
			}
			jw_arr_end(&w);
			jw_key(&w, "class_ids");
			jw_arr_start(&w);
			for (k = 0; k < c->nr; k++)
				jw_uint(&w,
					m->deps[cs.deps[c->first + k]].from);
			jw_arr_end(&w);
			jw_key(&w, "hops");
			json_hops(&w, m, cs.deps + c->first, c->nr);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
	} else {
		for (i = 0; i < cs.nr; i++) {
			const struct ld_cycle *c = &cs.c[i];

			fprintf(f, "%s: ", c->id);
			text_chain_of(f, m, cs.deps + c->first, c->nr, true);
			fprintf(f, "  (%u %s%s)\n", c->nr,
				ld_plural(c->nr, "class", "classes"),
				c->strong ?
					"" :
					", weak: recursive reads, not a deadlock");
			for (k = 0; k < c->nr; k++)
				text_hop(f, m, cs.deps[c->first + k], "    ",
					 !a->set[O_BRIEF]);
		}
		if (!cs.nr && !cs.truncated)
			fputs("no lock-order cycles\n", f);
		else if (!cs.truncated)
			fprintf(f,
				"%u cycle%s in %u strongly connected component%s (largest: %u %s)\n",
				cs.nr, cs.nr == 1 ? "" : "s", cs.nr_components,
				cs.nr_components == 1 ? "" : "s",
				cs.largest_component,
				ld_plural(cs.largest_component, "class",
					  "classes"));
		else
			fprintf(f,
				"%u cycle%s listed, not a total: %u strongly connected component%s (largest: %u %s)\n"
				"the search went shortest cycle first and stopped %s:\n"
				" every cycle of up to %u class%s is listed, there may be longer ones\n",
				cs.nr, cs.nr == 1 ? "" : "s", cs.nr_components,
				cs.nr_components == 1 ? "" : "s",
				cs.largest_component,
				ld_plural(cs.largest_component, "class",
					  "classes"),
				stop_text(&cs, max, len, buf, sizeof(buf)),
				cs.deepened_to,
				cs.deepened_to == 1 ? "" : "es");
		if (cs.nr_weak && !a->set[O_WEAK])
			/* a search cut short has counted those it met */
			fprintf(f,
				"%s%u weak cycle%s through recursive read locks left out (--weak lists them)\n",
				cs.truncated ? "at least " : "", cs.nr_weak,
				cs.nr_weak == 1 ? " goes" : "s go");
		if (cs.nr && !cs.types_known)
			fputs("dependency types unknown on these cycles: each counts as a deadlock\n",
			      f);
		if (!m->merge && strong)
			fputs("(one boot's graph holds a deadlock cycle only when lockdep was off when it closed)\n",
			      f);
		text_unknowns(f, m, "");
	}
	ld_cycles_free(&cs);
	return strong || deadlock ? EXIT_FOUND : EXIT_OK;
}
