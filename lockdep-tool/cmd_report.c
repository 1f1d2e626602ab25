// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_report.c - `report [FILE]`: lockdep's reports in a kernel log (the
 * running kernel's by default; "-" for standard input) as records: kind,
 * task, the classes with their usage and wait annotations, the cycle in
 * forward order with the stack of each hop and the canonical id `cycles`
 * uses, the irq path, the held locks.  With -s (or a loaded model) each
 * class is linked to the model.  Exit 1 when a report is found.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

enum { O_BRIEF };

/* KEY: S, or null when the report did not give it */
static void json_kstrn_opt(struct jw *w, const char *key, struct ld_str s)
{
	jw_key(w, key);
	if (s.len)
		jw_strn(w, s.s, s.len);
	else
		jw_null(w);
}

static void json_stack(struct jw *w, const struct ld_reports *rs, uint32_t s)
{
	uint32_t i;

	if (s == LD_NONE) {
		jw_null(w);
		return;
	}
	jw_arr_start(w);
	for (i = 0; i < rs->stacks[s].nr; i++) {
		const struct ld_str *fr = &rs->frames[rs->stacks[s].first + i];

		jw_strn(w, fr->s, fr->len);
	}
	jw_arr_end(w);
}

static void json_lock(struct jw *w, const struct ld_model *m,
		      const struct ld_rlock *l)
{
	uint16_t known, u = ld_rlock_usage(l, &known);
	unsigned int b;

	jw_obj_start(w);
	jw_kstr(w, "role", ld_report_role_name(l->role));
	jw_kstrn(w, "name", l->name);
	jw_key(w, "usage_chars");
	l->usage[0] ? jw_str(w, l->usage) : jw_null(w);
	jw_key(w, "usage");
	jw_arr_start(w);
	for (b = 0; b < LD_NR_USAGE_BITS; b++)
		if (u & (1u << b))
			jw_str(w, ld_usage_word(b));
	jw_arr_end(w);
	jw_key(w, "wait");
	if (l->wait_inner >= 0) {
		jw_obj_start(w);
		jw_kint(w, "outer", l->wait_outer);
		jw_kint(w, "inner", l->wait_inner);
		jw_obj_end(w);
	} else {
		jw_null(w);
	}
	json_kstrn_opt(w, "at", l->at);
	json_kstrn_opt(w, "key", l->key);
	jw_key(w, "class");
	if (l->cls != LD_NONE)
		jw_uint(w, l->cls);
	else
		jw_null(w);
	json_kstrn_opt(w, "instance", l->instance);
	(void)m;
	jw_obj_end(w);
}

static void json_report(struct jw *w, const struct ld_model *m,
			const struct ld_reports *rs, uint32_t i)
{
	const struct ld_report *r = &rs->r[i];
	uint32_t k;

	jw_obj_start(w);
	jw_kint(w, "index", i + 1);
	jw_kstr(w, "kind", ld_report_kind_name(r->kind));
	jw_kstrn(w, "title", r->title);
	jw_kint(w, "line", r->line);
	jw_kint(w, "end_line", r->end_line);
	jw_kbool(w, "truncated", r->truncated);
	json_kstrn_opt(w, "kernel", r->kernel);
	json_kstrn_opt(w, "task", r->task);
	jw_key(w, "pid");
	r->pid >= 0 ? jw_int(w, r->pid) : jw_null(w);
	jw_key(w, "id");
	r->id[0] ? jw_str(w, r->id) : jw_null(w);
	json_kstrn_opt(w, "irq_class", r->irqclass);
	jw_key(w, "usage_transition");
	if (r->usage_from >= 0 && r->usage_to >= 0) {
		jw_obj_start(w);
		jw_kstr(w, "from", ld_usage_word(r->usage_from));
		jw_kstr(w, "to", ld_usage_word(r->usage_to));
		jw_obj_end(w);
	} else {
		jw_null(w);
	}
	json_kstrn_opt(w, "detail", r->detail);
	jw_key(w, "cmp_fn_result");
	r->cmp_known ? jw_int(w, r->cmp) : jw_null(w);
	jw_key(w, "locks");
	jw_arr_start(w);
	for (k = 0; k < r->nr_locks; k++)
		if (rs->locks[r->locks + k].role != LD_RR_HELD)
			json_lock(w, m, &rs->locks[r->locks + k]);
	jw_arr_end(w);
	jw_key(w, "cycle");
	if (r->nr_cycle) {
		jw_arr_start(w);
		for (k = 0; k < r->nr_cycle; k++) {
			const struct ld_rlock *l =
				&rs->locks[rs->idx[r->cycle + k]];

			jw_strn(w, l->name.s, l->name.len);
		}
		jw_arr_end(w);
	} else {
		jw_null(w);
	}
	jw_key(w, "hops");
	jw_arr_start(w);
	for (k = 0; k < r->nr_hops; k++) {
		const struct ld_rhop *h = &rs->hops[r->hops + k];

		jw_obj_start(w);
		jw_kstrn(w, "from", rs->locks[h->from].name);
		jw_kstrn(w, "to", rs->locks[h->to].name);
		jw_kbool(w, "new", r->hops + k == r->new_hop);
		jw_key(w, "stack");
		json_stack(w, rs, h->stack);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_kbool(w, "path_cut", r->path_cut);
	jw_key(w, "held");
	jw_obj_start(w);
	jw_key(w, "count");
	r->held_count >= 0 ? jw_int(w, r->held_count) : jw_null(w);
	jw_key(w, "locks");
	jw_arr_start(w);
	for (k = 0; k < r->nr_held; k++)
		json_lock(w, m, &rs->locks[rs->idx[r->held + k]]);
	jw_arr_end(w);
	jw_obj_end(w);
	jw_key(w, "usage_stack");
	json_stack(w, rs, r->usage_stack);
	jw_key(w, "safe_stack");
	json_stack(w, rs, r->safe_stack);
	jw_key(w, "unsafe_stack");
	json_stack(w, rs, r->unsafe_stack);
	jw_key(w, "backtrace");
	json_stack(w, rs, r->backtrace);
	jw_obj_end(w);
}

static void text_stack(FILE *f, const struct ld_reports *rs, uint32_t s,
		       const char *indent)
{
	uint32_t i;

	if (s == LD_NONE)
		return;
	for (i = 0; i < rs->stacks[s].nr; i++) {
		fprintf(f, "%s#%u ", indent, i);
		out_str(f, rs->frames[rs->stacks[s].first + i]);
		fputc('\n', f);
	}
}

static void text_lock(FILE *f, const struct ld_model *m,
		      const struct ld_rlock *l)
{
	out_str(f, l->name);
	if (l->usage[0])
		fprintf(f, " {%s}", l->usage);
	if (l->wait_inner >= 0)
		fprintf(f, " {%d:%d}", l->wait_outer, l->wait_inner);
	if (l->at.len) {
		fputs(" at ", f);
		out_str(f, l->at);
	}
	if (m && l->cls != LD_NONE)
		fprintf(f, "  [class @%u]", l->cls);
	else if (m)
		fputs("  [not in the model]", f);
	fputc('\n', f);
}

static void text_report(FILE *f, const struct ld_model *m,
			const struct ld_reports *rs, uint32_t i, bool brief)
{
	const struct ld_report *r = &rs->r[i];
	uint32_t k;

	fprintf(f, "report %u: %s, lines %lu-%lu%s", i + 1,
		ld_report_kind_name(r->kind), r->line, r->end_line,
		r->truncated ? " (cut short)" : "");
	if (r->id[0])
		fprintf(f, ", %s", r->id);
	fputs("\n  ", f);
	out_str(f, r->title);
	fputc('\n', f);
	if (r->task.len) {
		fputs("  task: ", f);
		out_str(f, r->task);
		if (r->pid >= 0)
			fprintf(f, "/%lld", (long long)r->pid);
		fputc('\n', f);
	}
	if (r->kernel.len) {
		fputs("  kernel: ", f);
		out_str(f, r->kernel);
		fputc('\n', f);
	}
	if (r->usage_from >= 0 && r->usage_to >= 0)
		fprintf(f, "  usage: %s -> %s\n", ld_usage_word(r->usage_from),
			ld_usage_word(r->usage_to));
	if (r->detail.len) {
		fputs("  detail: ", f);
		out_str(f, r->detail);
		fputc('\n', f);
	}
	if (r->cmp_known)
		fprintf(f, "  lock comparison function: %lld (lock_set_cmp_fn() of the class: nesting is allowed only when it returns < 0 for held, acquired)\n",
			(long long)r->cmp);
	for (k = 0; k < r->nr_locks; k++) {
		const struct ld_rlock *l = &rs->locks[r->locks + k];

		if (l->role == LD_RR_HELD || l->role == LD_RR_CYCLE ||
		    l->role == LD_RR_PATH)
			continue;
		fprintf(f, "  %s: ", ld_report_role_name(l->role));
		text_lock(f, m, l);
	}
	if (r->nr_cycle) {
		fputs("  cycle: ", f);
		for (k = 0; k < r->nr_cycle; k++) {
			out_str(f, rs->locks[rs->idx[r->cycle + k]].name);
			fputs(" -> ", f);
		}
		out_str(f, rs->locks[rs->idx[r->cycle]].name);
		fputc('\n', f);
	} else if (r->kind == LD_RK_CIRCULAR) {
		fputs("  cycle: unknown (blocks of the dependency chain are missing)\n",
		      f);
	}
	if (r->nr_hops && r->kind != LD_RK_CIRCULAR)
		fputs(r->path_cut ?
			      "  path (a part: a dependency section is cut short):\n" :
			      "  path:\n",
		      f);
	for (k = 0; k < r->nr_hops; k++) {
		const struct ld_rhop *h = &rs->hops[r->hops + k];

		fputs("    ", f);
		out_str(f, rs->locks[h->from].name);
		fputs(" -> ", f);
		out_str(f, rs->locks[h->to].name);
		if (r->hops + k == r->new_hop)
			fputs("  [new: not added]", f);
		fputc('\n', f);
		if (!brief)
			text_stack(f, rs, h->stack, "        ");
	}
	if (!brief && r->safe_stack != LD_NONE) {
		fputs("  became irq-safe at:\n", f);
		text_stack(f, rs, r->safe_stack, "        ");
	}
	if (!brief && r->unsafe_stack != LD_NONE) {
		fputs("  became irq-unsafe at:\n", f);
		text_stack(f, rs, r->unsafe_stack, "        ");
	}
	if (!brief && r->usage_stack != LD_NONE) {
		fputs("  earlier state registered at:\n", f);
		text_stack(f, rs, r->usage_stack, "        ");
	}
	if (r->held_count >= 0 || r->nr_held) {
		fprintf(f, "  held locks: %lld\n",
			(long long)(r->held_count >= 0 ? r->held_count :
							 r->nr_held));
		for (k = 0; k < r->nr_held; k++) {
			fprintf(f, "    #%u ", k);
			text_lock(f, m, &rs->locks[rs->idx[r->held + k]]);
		}
	}
	if (!brief && r->backtrace != LD_NONE) {
		fputs("  backtrace:\n", f);
		text_stack(f, rs, r->backtrace, "        ");
	}
}

int cmd_report(struct ctx *ctx, struct cmd_args *a)
{
	struct ld_reports *rs = NULL;
	const struct ld_model *m;
	uint32_t i;
	int ret;

	ret = load_reports(ctx, a->argc ? a->argv[0] : NULL, &rs, &m);
	if (ret)
		return ret;
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "report");
		jw_kint(&w, "lines", rs->lines);
		jw_kbool(&w, "linked", m != NULL);
		jw_key(&w, "reports");
		jw_arr_start(&w);
		for (i = 0; i < rs->nr; i++)
			json_report(&w, m, rs, i);
		jw_arr_end(&w);
		jw_doc_end(&w);
	} else {
		for (i = 0; i < rs->nr; i++) {
			if (i)
				fputc('\n', ctx->out);
			text_report(ctx->out, m, rs, i, a->set[O_BRIEF]);
		}
		if (!rs->nr)
			fprintf(ctx->out, "no lockdep reports in %lu %s\n",
				rs->lines,
				ld_plural(rs->lines, "line", "lines"));
	}
	ret = rs->nr ? EXIT_FOUND : EXIT_OK;
	ld_reports_free(rs);
	return ret;
}
