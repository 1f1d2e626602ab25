// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_why.c - `why A B`: why lockdep believes B can be taken while A is
 * held.  Every dependency A -> B it recorded, with type, distance and the
 * stack that created it; the chains that hold both; without a direct
 * dependency, the shortest (strong) path with each hop's stack.  On a
 * source without stacks or types it says what is missing.  Exit 0 when
 * A -> B is explained, 1 when lockdep knows no such order.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_MAX };

/* Position of class @c in chain @i from position @k on, or -1. */
static int chain_pos(const struct ld_model *m, uint32_t i, uint32_t c,
		     uint32_t k)
{
	const struct ld_chain *ch = &m->chains[i];

	for (; k < ch->depth; k++)
		if (m->chain_locks[ch->first + k] == c)
			return k;
	return -1;
}

/*
 * Chains holding both, A first: B taken at some point while A is held
 * (after A's first position; B may be held before A too, as a recursive
 * reader taking it again).  With A == B, the chains holding A twice (a
 * nest_lock or a recursive read: lockdep checks that as recursion, never
 * as a dependency A -> A).
 */
static uint32_t both_chains(const struct ld_model *m, uint32_t a, uint32_t b,
			    uint32_t *out, uint32_t max)
{
	uint32_t k, n = 0;

	if (!m->have.chains)
		return 0;
	for (k = m->cc_off[a]; k < m->cc_off[a + 1]; k++) {
		uint32_t i = m->cc[k];
		int pa;

		if (i == LD_NONE)
			continue;
		pa = chain_pos(m, i, a, 0);
		if (pa < 0 || chain_pos(m, i, b, pa + 1) < 0)
			continue;
		if (n < max)
			out[n] = i;
		n++;
	}
	return n;
}

int cmd_why(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	unsigned long max = 10;
	uint32_t from, to, k, nd = 0, nr = 0, *dd = NULL, *ch = NULL;
	uint32_t nch, nrev;
	struct ld_path p = { 0 };
	bool weak = false;
	FILE *f = ctx->out;
	int ret, found = 0;

	if (!opt_uint(ctx, a, O_MAX, "max", 100000, &max, &ret))
		return ret;
	if (!max) /* 0: no limit */
		max = m->nr_chains;
	ret = resolve_pair(ctx, a->argv[0], a->argv[1], &from, &to);
	if (ret)
		return ret;
	dd = malloc((ld_nr_out(m, from) + 1) * sizeof(*dd));
	ch = malloc((max + 1) * sizeof(*ch));
	if (!dd || !ch) {
		free(dd);
		free(ch);
		err_msg("out of memory");
		return EXIT_DATA;
	}
	for (k = m->out_off[from]; k < m->out_off[from + 1]; k++)
		if (m->deps[m->out[k]].to == to)
			dd[nd++] = m->out[k];
	for (k = m->out_off[to]; k < m->out_off[to + 1] && from != to; k++)
		if (m->deps[m->out[k]].to == from)
			nr++;
	if (!nd && from != to) {
		found = ld_shortest_path(m, from, to, true, &p);
		if (!found) {
			found = ld_shortest_path(m, from, to, false, &p);
			weak = found > 0;
		}
		if (found < 0) {
			free(dd);
			free(ch);
			err_msg("out of memory");
			return EXIT_DATA;
		}
	}
	nch = both_chains(m, from, to, ch, max);
	nrev = from == to ? 0 : both_chains(m, to, from, NULL, 0);

	if (ctx->json) {
		struct jw w;
		uint32_t i;

		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "why");
		jw_key(&w, "from");
		json_class(&w, m, from, true);
		jw_key(&w, "to");
		json_class(&w, m, to, true);
		json_unknowns(&w, m);
		jw_kbool(&w, "explained", nd || (found > 0 && !weak));
		jw_key(&w, "direct");
		json_hops(&w, m, dd, nd);
		jw_key(&w, "path");
		if (!nd && found > 0) {
			jw_obj_start(&w);
			jw_kbool(&w, "strong", !weak);
			jw_kbool(&w, "simple", !p.walk);
			jw_key(&w, "deps");
			json_hops(&w, m, p.deps, p.nr);
			jw_obj_end(&w);
		} else {
			jw_null(&w);
		}
		jw_kbool(&w, "reverse_recorded", nr > 0);
		jw_key(&w, "chains");
		if (m->have.chains) {
			jw_obj_start(&w);
			jw_kint(&w, "count", nch);
			jw_kint(&w, "reverse_order_count", nrev);
			jw_key(&w, "list");
			jw_arr_start(&w);
			for (i = 0; i < nch && i < max; i++)
				json_chain(&w, m, ch[i]);
			jw_arr_end(&w);
			jw_obj_end(&w);
		} else {
			jw_null(&w);
		}
		jw_doc_end(&w);
		goto out;
	}

	for (k = 0; k < nd; k++) {
		if (!k) {
			out_str(f, m->classes[from].name);
			fputs(" -> ", f);
			out_str(f, m->classes[to].name);
			fputs(": recorded directly\n", f);
		}
		text_hop(f, m, dd[k], "  ", true);
	}
	if (!nd && found > 0) {
		out_str(f, m->classes[from].name);
		fputs(" -> ", f);
		out_str(f, m->classes[to].name);
		fprintf(f, ": not recorded directly; %s path of %u hops:\n",
			weak ? "only a weak (not a deadlock by lockdep's rule)" :
			p.walk ? "undecided (strong only as a walk through a class twice)" :
				 "shortest",
			p.nr);
		if (p.walk)
			fputs(WALK_NOTE, f);
		for (k = 0; k < p.nr; k++)
			text_hop(f, m, p.deps[k], "  ", true);
	} else if (!nd) {
		fputs("lockdep has no order ", f);
		out_str(f, m->classes[from].name);
		fputs(" -> ", f);
		out_str(f, m->classes[to].name);
		fputs(m->have.dep_all_distances ?
			      "\n" :
			      " (among the distance-1 dependencies this source shows)\n",
		      f);
		if (from == to)
			fputs("(taking a class again while it is held is checked as recursive locking, not as a dependency)\n",
			      f);
	}
	if (nr) {
		fputs(nd || found > 0 ? "and " : "but ", f);
		out_str(f, m->classes[to].name);
		fputs(" -> ", f);
		out_str(f, m->classes[from].name);
		fputs(nd || found > 0 ?
			      " is recorded too: the two classes are on a cycle (see 'cycles')\n" :
			      " is recorded (the other order)\n",
		      f);
	}
	if (!m->have.chains) {
		fputs("chains: unknown (not in this source)\n", f);
	} else {
		fputs("chains holding ", f);
		if (from == to) {
			out_str(f, m->classes[from].name);
			fprintf(f, " twice: %u", nch);
		} else {
			fputs("both, ", f);
			out_str(f, m->classes[from].name);
			fprintf(f, " first: %u", nch);
		}
		if (nrev) {
			fprintf(f, " (and %u with ", nrev);
			out_str(f, m->classes[to].name);
			fputs(" first)", f);
		}
		fputs(nch ? ":\n" : "\n", f);
		for (k = 0; k < nch && k < max; k++) {
			fputs("  ", f);
			text_chain(f, m, ch[k]);
		}
		if (nch > max)
			fprintf(f, "  ... %lu more (--max)\n", nch - max);
	}
	text_unknowns(f, m, "");
out:
	ret = nd || (found > 0 && !weak) ? EXIT_OK : EXIT_FOUND;
	free(dd);
	free(ch);
	free(p.deps);
	return ret;
}
