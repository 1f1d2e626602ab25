// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_irq_check.c - `irq-check`: every strong path from a hardirq-safe to
 * a hardirq-unsafe class and from a softirq-safe to a softirq-unsafe
 * class, read variants included, by the rule lockdep's check_irq_usage()
 * enforces (graph.h), each pair once with its shortest path and the stacks
 * where the classes became safe and unsafe; and every class that is both
 * safe and unsafe for one irq (an inconsistent lock state, possible only
 * in a union of snapshots).  Exit 1 when anything is found.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_MAX, O_BRIEF };

static const char *const state_word[LD_IRQ_NR] = { "hardirq", "softirq" };

static void usage_trace(FILE *f, const struct ld_model *m, uint32_t c,
			unsigned int bit)
{
	const struct ld_class *cl = &m->classes[c];
	const char *gap = usage_trace_gap(m, c, bit);

	fputs("    ", f);
	out_str(f, cl->name);
	fprintf(f, " became %s at:", ld_usage_word(bit));
	if (gap) {
		fprintf(f, " (%s)\n", gap);
	} else {
		fputc('\n', f);
		text_trace(f, m, cl->usage_trace[bit], "        ");
	}
}

int cmd_irq_check(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	struct ld_irq_result r;
	unsigned long max = 20;
	FILE *f = ctx->out;
	uint32_t i, nr_walks = 0;
	int ret, st;

	if (!opt_uint(ctx, a, O_MAX, "max", 10000000, &max, &ret))
		return ret;
	ret = ld_irq_check(m, max, &r);
	if (ret == -ENODATA) {
		err_prefix(ctx);
		fputs("no usage bits in this source (a kernel without CONFIG_PROVE_LOCKING?)\n",
		      stderr);
		return EXIT_DATA;
	}
	if (ret) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	/* no pair can be ruled out without them: no total is exact */
	ret = need_deps(ctx);
	if (ret)
		return ret;
	if (ctx->json) {
		struct jw w;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "irq-check");
		json_unknowns(&w, m);
		jw_key(&w, "total");
		jw_obj_start(&w);
		for (st = 0; st < LD_IRQ_NR; st++) {
			jw_key(&w, state_word[st]);
			jw_uint(&w, r.total[st]);
		}
		jw_obj_end(&w);
		jw_kbool(&w, "truncated", r.truncated);
		jw_kbool(&w, "total_exact",
			 !(r.cycle_walks && r.truncated) && !r.walks);
		jw_kint(&w, "skipped_lock_types", r.nr_skipped);
		jw_key(&w, "findings");
		jw_arr_start(&w);
		for (i = 0; i < r.nr; i++) {
			const struct ld_irq_finding *x = &r.f[i];

			jw_obj_start(&w);
			jw_kstr(&w, "id", x->id);
			jw_kstr(&w, "state", state_word[x->state]);
			jw_key(&w, "safe");
			json_class(&w, m, x->safe, true);
			jw_kstr(&w, "safe_usage", ld_usage_word(x->safe_bit));
			jw_key(&w, "unsafe");
			json_class(&w, m, x->unsafe, true);
			jw_kstr(&w, "unsafe_usage",
				ld_usage_word(x->unsafe_bit));
			jw_key(&w, "path");
			json_hops(&w, m, r.deps + x->first, x->nr);
			jw_kbool(&w, "simple", !x->walk);
			jw_key(&w, "safe_trace");
			json_usage_trace(&w, m, x->safe, x->safe_bit);
			jw_key(&w, "unsafe_trace");
			json_usage_trace(&w, m, x->unsafe, x->unsafe_bit);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "inconsistent");
		jw_arr_start(&w);
		for (i = 0; i < r.nr_inc; i++) {
			jw_obj_start(&w);
			jw_kstr(&w, "state", state_word[r.inc[i].state]);
			jw_key(&w, "class");
			json_class(&w, m, r.inc[i].cls, true);
			jw_kstr(&w, "safe_usage",
				ld_usage_word(r.inc[i].safe_bit));
			jw_kstr(&w, "unsafe_usage",
				ld_usage_word(r.inc[i].unsafe_bit));
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
		goto out;
	}
	for (i = 0; i < r.nr; i++) {
		const struct ld_irq_finding *x = &r.f[i];
		uint32_t k;

		fprintf(f, "%s %s: ", x->id, state_word[x->state]);
		out_str(f, m->classes[x->safe].name);
		fprintf(f, " (%s) -> ", ld_usage_word(x->safe_bit));
		if (x->nr > 1)
			fputs("... -> ", f);
		out_str(f, m->classes[x->unsafe].name);
		fprintf(f, " (%s), %u hop%s%s\n", ld_usage_word(x->unsafe_bit),
			x->nr, x->nr == 1 ? "" : "s",
			x->walk ? ", undecided: passes a class twice" : "");
		nr_walks += x->walk;
		for (k = 0; k < x->nr; k++)
			text_hop(f, m, r.deps[x->first + k], "    ",
				 !a->set[O_BRIEF]);
		if (!a->set[O_BRIEF]) {
			usage_trace(f, m, x->safe, x->safe_bit);
			usage_trace(f, m, x->unsafe, x->unsafe_bit);
		}
	}
	for (i = 0; i < r.nr_inc; i++) {
		fputs("inconsistent: ", f);
		out_str(f, m->classes[r.inc[i].cls].name);
		fprintf(f, " is %s and %s\n", ld_usage_word(r.inc[i].safe_bit),
			ld_usage_word(r.inc[i].unsafe_bit));
	}
	for (st = 0; st < LD_IRQ_NR; st++)
		fprintf(f, "%s-safe -> %s-unsafe pairs: %llu\n", state_word[st],
			state_word[st], (unsigned long long)r.total[st]);
	if (r.truncated)
		fprintf(f, "(%u listed; --max shows more)\n", r.nr);
	if (nr_walks)
		fprintf(f,
			"%u listed %s undecided: joined by strong walks through a deadlock cycle\n"
			"(see 'cycles'); the search for a simple path hit its work bound\n",
			nr_walks, ld_plural(nr_walks, "pair", "pairs"));
	if (r.truncated && r.cycle_walks)
		fputs("(the graph has deadlock cycles, see 'cycles': pairs not listed are counted\n"
		      " if joined through one, as they may be only so; --max 0 checks them all)\n",
		      f);
	if (r.nr_inc)
		fprintf(f, "inconsistent classes: %u\n", r.nr_inc);
	if (r.nr_skipped)
		fprintf(f,
			"%u %s left out of the paths: not normal locks (local_lock, wait-type overrides)\n",
			r.nr_skipped,
			ld_plural(r.nr_skipped, "class", "classes"));
	if (!r.types_known && (r.total[0] || r.total[1]))
		fputs("dependency types unknown: every path counts as strong\n",
		      f);
out:
	ret = r.total[0] || r.total[1] || r.nr_inc ? EXIT_FOUND : EXIT_OK;
	ld_irq_result_free(&r);
	return ret;
}
