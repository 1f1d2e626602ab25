/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - helpers shared by the analysis commands (why, path,
 * cycles, irq-check, diff, report, merge, dot --path/--cycle/--report):
 * a dependency hop in text and JSON, where a merged dependency was seen,
 * and what the source cannot tell.
 */
#ifndef LDT_ANALYSIS_H
#define LDT_ANALYSIS_H

#include "cmd.h"
#include "graph.h"
#include "merge.h"
#include "report.h"

/* After a path that is strong only as a walk (graph.h, ld_path.walk) */
#define WALK_NOTE                                                             \
	"  (lockdep's rule wants a simple path: this one is strong only\n"   \
	"   through a deadlock cycle, see 'cycles'; no simple strong path\n" \
	"   was found within the search's work bound)\n"

/* "    A -> B  [EN, distance 2, seen in 1,2]" and, with @stacks, the
 * stack below it (or why there is none). */
void text_hop(FILE *f, const struct ld_model *m, uint32_t d, const char *indent,
	      bool stacks);
/* The hops of a path as "A -> B -> C". */
void text_chain_of(FILE *f, const struct ld_model *m, const uint32_t *deps,
		   uint32_t n, bool closed);
/* An array of dependency objects (json_dep), each with "snapshots" when
 * the model is a merge. */
void json_hops(struct jw *w, const struct ld_model *m, const uint32_t *deps,
	       uint32_t n);
/* A line per thing the source could not tell that matters to paths:
 * dependency types, stacks, distance > 1 entries. */
void text_unknowns(FILE *f, const struct ld_model *m, const char *indent);
void json_unknowns(struct jw *w, const struct ld_model *m);
/*
 * A bounded search's end as JSON: truncated, stopped_by (its LD_PATHS_*
 * reason) and complete_up_to_length, both null when it was not cut short
 */
void json_search_stop(struct jw *w, bool truncated, unsigned int stop,
		      uint32_t complete_len);
/* Refuse a model without dependencies, with a message; EXIT_OK if fine. */
int need_deps(struct ctx *ctx);
/* The classes A and B of a query about their dependencies (need_deps()). */
int resolve_pair(struct ctx *ctx, const char *a, const char *b,
		 uint32_t *from, uint32_t *to);
/* The kernel log (klogctl), or a file ("-": standard input). */
int read_log(struct ctx *ctx, const char *file, char **data, size_t *len);
/*
 * Parse a log into reports, linked to the classes of the snapshots given
 * (-s), or, for the running kernel's log (no @file), to the live ones when
 * they can be read; *@linked: that model, or NULL.
 */
int load_reports(struct ctx *ctx, const char *file, struct ld_reports **rs,
		 const struct ld_model **linked);

#endif /* LDT_ANALYSIS_H */
