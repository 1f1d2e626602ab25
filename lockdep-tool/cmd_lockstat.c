// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_lockstat.c - `lockstat`: /proc/lock_stat with full class names
 * (the kernel cuts them to 37 characters), sorted and limited.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

enum { O_TOP, O_SORT };

static const struct ld_model *sort_m;
static int sort_col;

static int64_t total(const struct ld_lockstat *ls, int col)
{
	return (ls->has_w ? ls->w[col] : 0) + (ls->has_r ? ls->r[col] : 0);
}

static int cmp_ls(const void *pa, const void *pb)
{
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	int64_t a = total(&sort_m->lockstat[ia], sort_col);
	int64_t b = total(&sort_m->lockstat[ib], sort_col);

	if (a != b)
		return a < b ? 1 : -1;
	return (ia > ib) - (ia < ib);
}

static void text_row(FILE *f, const struct ld_model *m,
		     const struct ld_lockstat *ls, const int64_t *v,
		     const char *kind)
{
	char b[4][32];

	fprintf(f, "%12lld %14s %12s %12lld %14s %12s  ",
		(long long)v[LD_LS_CONTENTIONS],
		fmt_us(v[LD_LS_WAIT_TOTAL], b[0], 32),
		fmt_us(v[LD_LS_WAIT_MAX], b[1], 32),
		(long long)v[LD_LS_ACQUISITIONS],
		fmt_us(v[LD_LS_HOLD_TOTAL], b[2], 32),
		fmt_us(v[LD_LS_HOLD_MAX], b[3], 32));
	if (ls->class != LD_NONE) {
		out_str(f, m->classes[ls->class].name);
	} else {
		out_str(f, ls->name);
		fputs(ls->match == LD_LSM_AMBIGUOUS ?
			      " (cut name, several classes match)" :
		      ls->match == LD_LSM_UNKNOWN ?
			      "" /* no class list: the cut name is all */ :
			      " (no class with this name)",
		      f);
	}
	fputs(kind, f);
	fputc('\n', f);
}

int cmd_lockstat(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	unsigned long top = ULONG_MAX;
	uint32_t *idx, i, n;
	bool contended = false;
	const char *sort;
	int ret;

	if (!opt_uint(ctx, a, O_TOP, "top", 1UL << 30, &top, &ret))
		return ret;
	if (!top) /* 0: no limit, as --max everywhere */
		top = ULONG_MAX;
	if (!m->have.lockstat) {
		err_msg("%s", m->nr_parts ?
				"lockstat: a union of snapshots: lock_stat is not combined; give one -s" :
				"lockstat: no /proc/lock_stat in this source (CONFIG_LOCK_STAT off, or not copied)");
		return EXIT_DATA;
	}
	if (!m->have.classes)
		warn_msg(
			"lockstat: no class list in this source: names as lock_stat printed them, cut to 37 characters");
	sort = a->set[O_SORT] ? a->val[O_SORT] : "contentions";
	sort_col = !strcmp(sort, "wait")	 ? LD_LS_WAIT_TOTAL :
		   !strcmp(sort, "hold")	 ? LD_LS_HOLD_TOTAL :
		   !strcmp(sort, "acquisitions") ? LD_LS_ACQUISITIONS :
						   LD_LS_CONTENTIONS;
	idx = malloc((m->nr_lockstat + 1) * sizeof(*idx));
	if (!idx) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	for (i = 0; i < m->nr_lockstat; i++)
		idx[i] = i;
	sort_m = m;
	qsort(idx, m->nr_lockstat, sizeof(*idx), cmp_ls);
	n = m->nr_lockstat < top ? m->nr_lockstat : top;
	/* over every row, not only those shown: none at all is news */
	for (i = 0; i < m->nr_lockstat; i++)
		if (total(&m->lockstat[i], LD_LS_CONTENTIONS))
			contended = true;
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "lockstat");
		jw_kstr(&w, "sort", sort);
		jw_kbool(&w, "lock_debugging_disabled", m->lockstat_disabled);
		jw_kbool(&w, "contention_recorded", contended);
		jw_kint(&w, "entries_total", m->nr_lockstat);
		jw_key(&w, "entries");
		jw_arr_start(&w);
		for (i = 0; i < n; i++)
			json_lockstat(&w, m, idx[i]);
		jw_arr_end(&w);
		jw_doc_end(&w);
	} else {
		if (m->lockstat_disabled)
			fputs("warning: lock debugging was disabled when this was read (lockdep reported a problem)\n",
			      ctx->out);
		fprintf(ctx->out, "%12s %14s %12s %12s %14s %12s  %s\n",
			"contentions", "wait-total-us", "wait-max-us",
			"acquisitions", "hold-total-us", "hold-max-us",
			"class");
		for (i = 0; i < n; i++) {
			const struct ld_lockstat *ls = &m->lockstat[idx[i]];

			if (ls->has_w)
				text_row(ctx->out, m, ls, ls->w,
					 ls->has_r ? " (write)" : "");
			if (ls->has_r)
				text_row(ctx->out, m, ls, ls->r, " (read)");
		}
		if (n < m->nr_lockstat)
			fprintf(ctx->out,
				"(top %u of %u classes by %s: a class's write and read rows count as one)\n",
				n, m->nr_lockstat, sort);
		if (!contended)
			fputs("no contention recorded\n", ctx->out);
	}
	free(idx);
	return EXIT_OK;
}
