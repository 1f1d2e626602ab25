// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_info.c - `info`: where the model came from, which files were read
 * and used, what each kind of data is known from, and what is missing.
 */
#include <stddef.h>
#include <string.h>

#include "cmd.h"
#include "merge.h"

static const struct {
	const char *name, *missing;
	size_t off;
} kinds[] = {
#define K(f, why)                                    \
	{                                            \
#f, why, offsetof(struct ld_have, f) \
	}
	K(classes, "no class list"),
	K(ops, "no OPS counters (CONFIG_DEBUG_LOCKDEP)"),
	K(kernel_fd_bd, "FD/BD not from the kernel (recomputed, or unknown)"),
	K(usage, "no usage bits (CONFIG_PROVE_LOCKING)"),
	K(deps, "no dependencies (CONFIG_PROVE_LOCKING)"),
	K(dep_all_distances,
	  "only distance-1 dependencies (/proc/lockdep hides the rest)"),
	K(dep_types, "no dependency types (SR/ER/SN/EN)"),
	K(traces, "no stack traces of dependencies"),
	K(usage_traces, "no usage traces"),
	K(wait_types, "no wait types or lock types"),
	K(chains, "no lock chains"),
	K(chain_keys, "no chain keys or per-lock read state"),
	K(stats, "no counters"),
	K(lockstat, "no lock_stat (CONFIG_LOCK_STAT)"),
#undef K
};

/* A count of records of a kind the source holds, else unknown */
static const char *count_text(bool known, uint32_t n, char buf[16])
{
	if (!known)
		return "-";
	snprintf(buf, 16, "%u", n);
	return buf;
}

static void count_json(struct jw *w, const char *key, bool known, uint32_t n)
{
	jw_key(w, key);
	if (known)
		jw_uint(w, n);
	else
		jw_null(w);
}

/*
 * The USED/USED_READ bits of every class: /proc/lockdep prints 8 of the 10
 * usage bits, and they imply the other two only where they are set
 */
static bool used_bits(const struct ld_model *m)
{
	const uint16_t both = 1u << LD_USED | 1u << LD_USED_READ;
	uint32_t i;

	for (i = 0; i < m->nr_classes; i++)
		if ((m->classes[i].usage_known & both) != both)
			return false;
	return m->have.usage;
}

/* What a union of snapshots does not add up (merge.h), whatever its parts */
static const char *not_combined(unsigned int i)
{
	if (!strcmp(kinds[i].name, "ops"))
		return "no OPS counters (not combined in a union of snapshots)";
	if (!strcmp(kinds[i].name, "stats"))
		return "no counters (not combined in a union of snapshots)";
	if (!strcmp(kinds[i].name, "lockstat"))
		return "no lock_stat (not combined in a union of snapshots)";
	return NULL;
}

static bool have(const struct ld_model *m, unsigned int i)
{
	return *(const bool *)((const char *)&m->have + kinds[i].off);
}

static void info_line(FILE *f, const char *label, const char *v)
{
	fputs(label, f);
	if (v)
		out_text(f, v, strlen(v));
	else
		fputs("unknown", f);
	fputc('\n', f);
}

int cmd_info(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	const struct ld_stat *dl = ld_stat_get(m, "debug_locks");
	const char *where = m->nr_parts ? "union" :
			    ctx->nr_snapshots ? ctx->snapshots[0] :
						"live";
	FILE *f = ctx->out;
	char b[5][16];
	unsigned int i;
	struct jw w;

	(void)a;
	if (ctx->json) {
		jw_init(&w, f, ctx->pretty);
		jw_doc_start(&w, "info");
		jw_kstr(&w, "source", where);
		jw_key(&w, "origin");
		m->origin ? jw_str(&w, m->origin) : jw_null(&w);
		jw_key(&w, "release");
		m->release ? jw_str(&w, m->release) : jw_null(&w);
		jw_key(&w, "captured");
		m->captured ? jw_str(&w, m->captured) : jw_null(&w);
		jw_kstr(&w, "format", m->from_export ? "debugfs" : "proc");
		/* /proc files are read one after another: unknown */
		jw_key(&w, "consistent");
		if (m->from_export)
			jw_bool(&w, m->consistent);
		else
			jw_null(&w);
		jw_key(&w, "generation");
		if (m->has_generation)
			jw_uint(&w, m->generation);
		else
			jw_null(&w);
		jw_kbool(&w, "partial", m->partial);
		jw_key(&w, "debug_locks");
		if (dl)
			jw_int(&w, dl->value);
		else
			jw_null(&w);
		jw_key(&w, "files");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_sections; i++) {
			jw_obj_start(&w);
			jw_kstr(&w, "name", m->sections[i].name);
			jw_kstr(&w, "path", m->sections[i].path);
			jw_kint(&w, "bytes", m->sections[i].len);
			jw_kbool(&w, "used", m->sections[i].used);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		if (m->merge) {		/* issue 6: a union's snapshots */
			jw_key(&w, "snapshots");
			jw_arr_start(&w);
			for (i = 0; i < m->merge->nr_src; i++)
				jw_str(&w, m->merge->src[i]);
			jw_arr_end(&w);
		}
		count_json(&w, "classes", m->have.classes, m->nr_classes);
		count_json(&w, "dependencies", m->have.deps, m->nr_deps);
		count_json(&w, "chains", m->have.chains, m->nr_chains);
		count_json(&w, "traces", m->have.traces, m->nr_traces);
		count_json(&w, "lockstat_entries", m->have.lockstat,
			   m->nr_lockstat);
		jw_key(&w, "known");
		jw_obj_start(&w);
		for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
			jw_kbool(&w, kinds[i].name, have(m, i));
		jw_kbool(&w, "used_bits", used_bits(m));
		jw_obj_end(&w);
		jw_key(&w, "warnings");
		jw_arr_start(&w);
		for (i = 0; i < m->nr_warnings; i++)
			jw_str(&w, m->warnings[i]);
		jw_arr_end(&w);
		jw_doc_end(&w);
		return EXIT_OK;
	}
	if (m->nr_parts)
		fprintf(f, "source:    union of %u snapshots\n", m->nr_parts);
	else
		fprintf(f, "source:    %s\n", where);
	/* a snapshot's header may hold any byte: escaped (out_text()) */
	info_line(f, "origin:    ", m->origin);
	info_line(f, "release:   ", m->release);
	info_line(f, "captured:  ", m->captured);
	fprintf(f, "format:    %s\n",
		m->from_export ? "debugfs export" : "stock /proc files");
	if (m->has_generation)
		fprintf(f, "consistent: %s (generation %llu)\n",
			m->consistent ? "yes" : "NO",
			(unsigned long long)m->generation);
	else if (m->from_export)	/* a union of exports */
		fprintf(f, "consistent: %s\n",
			m->consistent ? "yes, each snapshot" :
					"NO, not every snapshot");
	else
		fputs("consistent: not guaranteed (/proc files are read one after another)\n",
		      f);
	if (m->partial)
		fputs("partial:   yes, an input was cut short\n", f);
	if (dl && !dl->value)
		fputs("lockdep:   OFF (debug_locks 0): it stopped recording at its first report or a capacity overflow\n",
		      f);
	fputs("files:\n", f);
	for (i = 0; i < m->nr_sections; i++) {
		fprintf(f, "  %-16s %10zu bytes  %s%s\n", m->sections[i].name,
			m->sections[i].len, m->sections[i].path,
			m->sections[i].used ? "" : "  (not used)");
	}
	for (i = 0; m->merge && i < m->merge->nr_src; i++)	/* issue 6 */
		fprintf(f, "  snapshot %u: %s (see 'merge')\n", i + 1,
			m->merge->src[i]);
	fprintf(f, "classes %s, dependencies %s, chains %s, traces %s, lock_stat entries %s\n",
		count_text(m->have.classes, m->nr_classes, b[0]),
		count_text(m->have.deps, m->nr_deps, b[1]),
		count_text(m->have.chains, m->nr_chains, b[2]),
		count_text(m->have.traces, m->nr_traces, b[3]),
		count_text(m->have.lockstat, m->nr_lockstat, b[4]));
	fputs("missing:\n", f);
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!have(m, i))
			fprintf(f, "  %s\n",
				m->nr_parts && not_combined(i) ?
					not_combined(i) :
					kinds[i].missing);
	if (m->have.usage && !used_bits(m))
		fputs("  used/used-read usage bits only where the irq states imply them (/proc/lockdep prints 8 of the 10)\n",
		      f);
	for (i = 0; i < m->nr_warnings; i++)
		fprintf(f, "warning: %s\n", m->warnings[i]);
	return EXIT_OK;
}
