// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_stats.c - `stats`: every lockdep counter, capacities as used/max
 * and percent, a warning per capacity above 80 percent and a loud line
 * when lockdep has switched itself off (debug_locks 0).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

#define WARN_PERMILLE 800

/*
 * Capacities: counter, limit names in the export, and what raises it (a
 * config option, or "=" and a note for a fixed limit).
 */
static const struct {
	const char *key, *max1, *max2, *config;
} caps[] = {
	{ "lock_classes", "max_lock_classes", "max_classes",
	  "=MAX_LOCKDEP_KEYS, no config option" },
	{ "direct_dependencies", "max_direct_dependencies", "max_list_entries",
	  "CONFIG_LOCKDEP_BITS" },
	{ "dependency_chains", "max_dependency_chains", "max_chains",
	  "CONFIG_LOCKDEP_CHAINS_BITS" },
	{ "dependency_chain_hlocks_used", "max_dependency_chain_hlocks",
	  "max_chain_hlocks", "CONFIG_LOCKDEP_CHAINS_BITS" },
	{ "stack_trace_entries", "max_stack_trace_entries", NULL,
	  "CONFIG_LOCKDEP_STACK_TRACE_BITS" },
	/*
	 * High-water marks against limits that also switch lockdep off
	 * when hit (print_bfs_bug(), "MAX_LOCK_DEPTH too low!"); only the
	 * export states the limits
	 */
	{ "max_bfs_queue_depth", "bfs_queue_size", NULL,
	  "CONFIG_LOCKDEP_CIRCULAR_QUEUE_BITS" },
	{ "max_locking_depth", "max_lock_depth", NULL,
	  "=MAX_LOCK_DEPTH, no config option: look for a task holding that many locks" },
};

struct cap {
	int64_t max;
	const char *config;
	const struct ld_stat *limit; /* separate "max_" counter, if any */
};

static bool find_cap(const struct ld_model *m, const struct ld_stat *st,
		     struct cap *c)
{
	unsigned int i;

	c->config = NULL;
	c->limit = NULL;
	for (i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		if (st->key.len != strlen(caps[i].key) ||
		    memcmp(st->key.s, caps[i].key, st->key.len))
			continue;
		c->config = caps[i].config;
		if (!ld_known(st->max)) {
			c->limit = ld_stat_get(m, caps[i].max1);
			if (!c->limit && caps[i].max2)
				c->limit = ld_stat_get(m, caps[i].max2);
		}
	}
	if (ld_known(st->max)) {
		c->max = st->max.v;
		return true;
	}
	if (c->limit) {
		c->max = c->limit->value;
		return true;
	}
	return false;
}

static bool is_paired_limit(const struct ld_model *m, const struct ld_stat *st)
{
	uint32_t i;
	struct cap c;

	for (i = 0; i < m->nr_stats; i++)
		if (find_cap(m, &m->stats[i], &c) && c.limit == st)
			return true;
	return false;
}

/*
 * @used of @max in tenths of a percent, rounded; false when there is no
 * share to give (a limit of 0 or less).  128 bits: a file may hold any
 * 64-bit value.
 */
static bool permille(int64_t used, int64_t max, int64_t *pm)
{
	__int128 v;

	if (max <= 0)
		return false;
	v = ((__int128)used * 1000 + max / 2) / max;
	*pm = v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : v;
	return true;
}

static void permille_str(int64_t pm, char *buf, size_t n)
{
	snprintf(buf, n, "%lld.%lld%%", (long long)(pm / 10),
		 (long long)llabs(pm % 10));
}

int cmd_stats(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	const struct ld_stat *dl;
	uint32_t i;
	struct cap c;
	char pct[32];
	int64_t pm;
	struct jw w;

	(void)a;
	if (!m->have.stats) {
		err_msg("stats: no counters in this source (%s)",
			m->nr_parts ?
				"a union of snapshots: counters are not combined; give one -s" :
			m->from_export ? "no 'stats' file in the export" :
					 "no lockdep_stats file");
		return EXIT_DATA;
	}
	dl = ld_stat_get(m, "debug_locks");
	if (ctx->json) {
		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "stats");
		jw_key(&w, "debug_locks");
		if (dl)
			jw_int(&w, dl->value);
		else
			jw_null(&w);
		jw_key(&w, "counters");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_stats; i++) {
			const struct ld_stat *st = &m->stats[i];
			bool cap = find_cap(m, st, &c);

			jw_obj_start(&w);
			jw_kstrn(&w, "key", st->key);
			jw_kstrn(&w, "label", st->label);
			jw_key(&w, "value");
			if (st->src != LD_SRC_NONE)
				jw_int(&w, st->value);
			else
				jw_null(&w);
			jw_key(&w, "max");
			if (cap)
				jw_int(&w, c.max);
			else
				jw_null(&w);
			jw_key(&w, "permille");
			if (cap && st->src != LD_SRC_NONE &&
			    permille(st->value, c.max, &pm))
				jw_int(&w, pm);
			else
				jw_null(&w);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_key(&w, "warnings");
		jw_arr_start(&w);
	}
	for (i = 0; !ctx->json && i < m->nr_stats; i++) {
		const struct ld_stat *st = &m->stats[i];

		if (is_paired_limit(m, st))
			continue;
		if (st->blank_before)
			fputc('\n', ctx->out);
		fputs(" ", ctx->out);
		out_str(ctx->out, st->label);
		fprintf(ctx->out, ":%*s", st->label.len < 30 ?
					      (int)(30 - st->label.len) : 1,
			"");
		if (st->src == LD_SRC_NONE)
			fprintf(ctx->out, "%11s", "-");
		else
			fprintf(ctx->out, "%11lld", (long long)st->value);
		if (find_cap(m, st, &c)) {
			fprintf(ctx->out, " / %lld", (long long)c.max);
			/* no share of a limit of 0 (a wrong "0.0%") */
			if (st->src != LD_SRC_NONE &&
			    permille(st->value, c.max, &pm)) {
				permille_str(pm, pct, sizeof(pct));
				fprintf(ctx->out, " (%s)", pct);
			}
		}
		fputc('\n', ctx->out);
	}
	if (!ctx->json)
		fputc('\n', ctx->out);
	/* the warnings, in text or as JSON strings */
	for (i = 0; i < m->nr_stats; i++) {
		const struct ld_stat *st = &m->stats[i];
		char msg[512];
		int n;

		/* above 80 percent, as the man page says */
		if (st->src == LD_SRC_NONE || !find_cap(m, st, &c) ||
		    !permille(st->value, c.max, &pm) ||
		    (__int128)st->value * 1000 <=
			    (__int128)c.max * WARN_PERMILLE)
			continue;
		permille_str(pm, pct, sizeof(pct));
		n = snprintf(msg, sizeof(msg),
			     "%.*s at %s of its limit (%lld of %lld)",
			     (int)st->key.len, st->key.s, pct,
			     (long long)st->value, (long long)c.max);
		if (n > 0 && (size_t)n < sizeof(msg) && c.config)
			snprintf(msg + n, sizeof(msg) - n, "; %s%s",
				 c.config[0] == '=' ? "" : "raise ",
				 c.config + (c.config[0] == '='));
		if (ctx->json)
			jw_str(&w, msg);
		else
			fprintf(ctx->out, "warning: %s\n", msg);
	}
	if (dl && !dl->value) {
		static const char loud[] =
			"debug_locks is 0: lockdep has TURNED ITSELF OFF (after its first report or a capacity overflow); the graph is frozen and no further locking bugs are being detected in this boot";

		if (ctx->json)
			jw_str(&w, loud);
		else
			fprintf(ctx->out, "*** %s ***\n", loud);
	}
	if (ctx->json) {
		jw_arr_end(&w);
		jw_doc_end(&w);
	}
	return EXIT_OK;
}
