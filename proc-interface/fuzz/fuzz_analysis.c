// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_analysis.c - libFuzzer harness for the analysis half (FUZZ_TARGET):
 *   report  the report parser, then the canonical id and model linking;
 *   graph   an export (NUL-separated classes, deps, ..., like fuzz.c's
 *           "export") through cycles, paths, irq-check, merge and diff.
 * Build: see lockdep-tool/Makefile (fuzz-report, fuzz-graph).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ld_internal.h"
#include "graph.h"
#include "merge.h"
#include "report.h"

#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET"
#endif

static const char base_lockdep[] =
	"all lock classes:\n"
	"00000000a1b2c3d4 OPS:       1 FD:    2 BD:    1 -.-.: lds_abba_a\n"
	" -> [00000000b1b2c3d4] lds_abba_b\n\n"
	"00000000b1b2c3d4 OPS:       1 FD:    1 BD:    2 +.+.: lds_abba_b\n\n";

static void graph(struct ld_model *m)
{
	struct ld_model *in[2] = { m, m }, *u = NULL;
	struct ld_irq_result ir;
	struct ld_cycles cs;
	struct ld_paths ps;
	struct ld_path p;
	struct ld_diff df;
	struct ld_diag d;

	if (!ld_find_cycles(m, 50, 0, true, &cs))
		ld_cycles_free(&cs);
	if (!ld_find_cycles(m, 50, 4, false, &cs))
		ld_cycles_free(&cs);
	if (!ld_irq_check(m, 20, &ir))
		ld_irq_result_free(&ir);
	if (m->nr_classes >= 2) {
		if (ld_shortest_path(m, 0, m->nr_classes - 1, true, &p) > 0)
			free(p.deps);
		if (!ld_enum_paths(m, 0, m->nr_classes - 1, 20, 8, &ps))
			ld_paths_free(&ps);
	}
	if (m->have.classes && !ld_merge(&u, in, 2, &d)) {
		if (!ld_find_cycles(u, 20, 0, false, &cs))
			ld_cycles_free(&cs);
		ld_model_free(u);
	}
	if (!ld_diff(m, m, &df))
		ld_diff_free(&df);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = FUZZ_TARGET, *p = (const char *)data;
	struct ld_diag d;

	if (!strcmp(t, "report")) {
		struct ld_input in = { "lockdep", NULL, base_lockdep,
				       sizeof(base_lockdep) - 1 };
		struct ld_reports *rs = NULL;
		struct ld_model *m = NULL;

		if (ld_parse_reports("fuzz", p, size, &rs, &d)) {
			if (!d.msg[0])
				abort();
			return 0;
		}
		if (!ld_load_buffers(&m, &in, 1, &d)) {
			ld_reports_link(rs, m);
			ld_model_free(m);
		}
		ld_reports_free(rs);
	} else {
		struct ld_input in[LD_EX_NR];
		static char names[LD_EX_NR][32];
		struct ld_model *m = NULL;
		size_t off = 0;
		unsigned int n = 0;

		while (n < LD_EX_NR && off <= size) {
			const char *z = memchr(p + off, 0, size - off);
			size_t l = z ? (size_t)(z - (p + off)) : size - off;

			snprintf(names[n], sizeof(names[n]), "lockdep/%s",
				 ld_export_files[n]);
			in[n] = (struct ld_input){ names[n], NULL, p + off, l };
			n++;
			off += l + 1;
		}
		if (!ld_load_buffers(&m, in, n, &d))
			graph(m);
		else if (!d.msg[0])
			abort();
		ld_model_free(m);
	}
	return 0;
}
