// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_chains.c - `chains`: the lock chains lockdep has validated (classes
 * held at once, outermost first), optionally only those holding a class
 * or of one irq context.
 */
#include <string.h>

#include "cmd.h"

enum { O_IRQ, O_COUNT };

int cmd_chains(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	uint32_t id = LD_NONE, i, k, n = 0;
	int want = -1, ret;
	struct jw w;

	if (a->argc) {
		ret = resolve_class(ctx, a->argv[0], &id);
		if (ret)
			return ret;
	}
	if (!m->have.chains) {
		err_msg("chains: no chain data in this source (%s)",
			missing_why(m, "lockdep_chains", "chains"));
		return EXIT_DATA;
	}
	if (a->set[O_IRQ]) {
		want = !strcmp(a->val[O_IRQ], "hardirq") ? LD_CTX_HARDIRQ :
		       !strcmp(a->val[O_IRQ], "softirq") ? LD_CTX_SOFTIRQ :
							   LD_CTX_PROCESS;
	}
	if (ctx->json) {
		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "chains");
		jw_kbool(&w, "buggered", m->chains_buggered);
		if (!a->set[O_COUNT]) {
			jw_key(&w, "chains");
			jw_arr_start(&w);
		}
	}
	for (i = 0; i < m->nr_chains; i++) {
		const struct ld_chain *ch = &m->chains[i];

		if (want == LD_CTX_PROCESS && ch->irq_context)
			continue;
		if (want > 0 && !(ch->irq_context & want))
			continue;
		if (id != LD_NONE) {
			for (k = 0; k < ch->depth; k++)
				if (m->chain_locks[ch->first + k] == id)
					break;
			if (k == ch->depth)
				continue;
		}
		n++;
		if (a->set[O_COUNT])
			continue;
		if (ctx->json)
			json_chain(&w, m, i);
		else
			text_chain(ctx->out, m, i);
	}
	if (ctx->json) {
		if (!a->set[O_COUNT])
			jw_arr_end(&w);
		jw_kint(&w, "count", n);
		jw_doc_end(&w);
	} else if (a->set[O_COUNT]) {
		fprintf(ctx->out, "%u\n", n);
	}
	return EXIT_OK;
}
