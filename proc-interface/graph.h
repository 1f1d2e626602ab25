/* SPDX-License-Identifier: GPL-2.0 */
/*
 * graph.h - lock-order analysis on the model: strong dependency paths,
 * shortest paths and bounded path enumeration, lock-order cycles under a
 * canonical id, and lockdep's irq-safety rule.  Nothing here prints.
 *
 * Strong dependency paths (Documentation/locking/lockdep-design.rst,
 * "Dependency types and strong dependency paths"; kernel/locking/lockdep.c
 * __bfs()).  Every dependency A -> B carries a set of types: the first
 * letter says how A was held (S shared reader, E exclusive), the second how
 * B was taken (R recursive reader, N non-recursive).  A path is strong when
 * no hop that can only end in a recursive read (-(*R)->) is followed by a
 * hop that can only start from a shared holder (-(S*)->).  We track the
 * state in which each class is reached, N or R, so a class reached weakly
 * first and strongly later is still followed strongly (the kernel's BFS
 * marks a class on first arrival and can miss such a path), and keep paths
 * simple: a "path" through a class twice is none (ld_shortest_path()).
 * A dependency whose type is unknown (stock /proc files,
 * or a merged snapshot that had none) counts as all four types: every path
 * through it is strong, so nothing is hidden, and results say that types
 * were unknown.
 */
#ifndef LD_GRAPH_H
#define LD_GRAPH_H

#include "lockdep_model.h"

/* Arrival states, as bits of a state set */
#define LD_ST_N 1u /* reached non-recursively (or a start) */
#define LD_ST_R 2u /* reached as a recursive reader only */

/* Type bits of a dependency; unknown counts as all four. */
static inline unsigned int ld_dep_bits(const struct ld_dep *d)
{
	return d->type_known ? (d->type & 0xf) : 0xf;
}

/* The states reachable from the state set @states over a hop of type @t. */
static inline unsigned int ld_strong_step(unsigned int states, unsigned int t)
{
	unsigned int out = 0;

	if (states & LD_ST_N) {
		if (t & (LD_DEP_SN | LD_DEP_EN))
			out |= LD_ST_N;
		if (t & (LD_DEP_SR | LD_DEP_ER))
			out |= LD_ST_R;
	}
	if (states & LD_ST_R) {
		if (t & LD_DEP_EN)
			out |= LD_ST_N;
		if (t & LD_DEP_ER)
			out |= LD_ST_R;
	}
	return out;
}

/* True when the dependencies @deps[0..n) form a strong path. */
bool ld_path_is_strong(const struct ld_model *m, const uint32_t *deps,
		       uint32_t n);
/* True when they form a strong cycle (the last hop leads to the first). */
bool ld_cycle_is_strong(const struct ld_model *m, const uint32_t *deps,
			uint32_t n);

/* Paths ------------------------------------------------------------- */

struct ld_path {
	uint32_t *deps; /* dependency ids, in order */
	uint32_t nr;
	bool walk; /* passes a class twice: see ld_shortest_path() */
};

/*
 * Shortest path (fewest hops) from class @from to class @to; @strong: only
 * strong paths.  Returns 1 and fills @p (free p->deps), 0 when there is
 * none, -ENOMEM.  @from == @to asks for the shortest cycle through it.
 *
 * A path of the state-tracking search above can pass a class twice: reach
 * it as a recursive reader, go round a cycle, reach it again
 * non-recursively and go on where a recursive reader could not.  That is
 * no deadlock path (the lock would be held by two tasks of the chain, once
 * exclusively) and it exists only through a strong cycle (the part between
 * the two visits, taken from the second; `cycles` lists it).  Then the
 * shortest simple strong path is looked for instead, within the work bound
 * of ld_enum_paths(); if that bound stops the search, the walk is returned
 * with @p->walk set: undecided.
 */
int ld_shortest_path(const struct ld_model *m, uint32_t from, uint32_t to,
		     bool strong, struct ld_path *p);

/*
 * Why a search stopped before it had every path (ld_paths.stop) or
 * cycle (ld_cycles.stop)
 */
enum ld_paths_stop {
	LD_PATHS_DONE, /* it did not: the list is every path */
	LD_PATHS_MAX, /* @max paths listed, and there are more */
	LD_PATHS_LENGTH, /* @max_len hops: there may be longer paths */
	LD_PATHS_WORK, /* the work bound: there may be more, longer */
};

struct ld_paths {
	uint32_t *deps; /* all paths, back to back */
	uint32_t *off; /* path i: deps[off[i] .. off[i + 1]) */
	uint32_t nr;
	bool truncated; /* stopped by max, length or work bound */
	uint8_t stop; /* which of them: LD_PATHS_* */
	uint32_t complete_len; /* when truncated: every path of up to this
				* many hops is listed */
};

/*
 * Simple strong paths from @from to @to (every class at most once), in
 * order of length, at most @max of them and @max_len hops (0: no limit).
 * Returns 0 or -ENOMEM.
 */
int ld_enum_paths(const struct ld_model *m, uint32_t from, uint32_t to,
		  uint32_t max, uint32_t max_len, struct ld_paths *out);
void ld_paths_free(struct ld_paths *p);

/* Cycles -------------------------------------------------------------- */

#define LD_CYCLE_ID_LEN 16 /* "cycle-1a2b3c4d" + NUL */

/*
 * The canonical id of a cycle given by the names of its classes in
 * forward order (each taken while holding the one before it; the last is
 * held when the first is taken): the name sequence is rotated to start at
 * its smallest name (bytewise; on a tie, the smallest rotation), and the id
 * is "cycle-" and the 32-bit FNV-1a hash of the rotated names in hex.
 * Names are taken without their "#N" (name_version) suffix, which numbers
 * same-named keys in the order one boot met them: the same cycle seen in
 * two boots gets one id.  Cycles that differ only in #N share an id.
 * Returns the rotation: names[rot] comes first.  `cycles` and `report`
 * share it, so one cycle has one id however it was entered.
 */
uint32_t ld_cycle_id(const struct ld_str *names, uint32_t n,
		     char id[LD_CYCLE_ID_LEN]);

struct ld_cycle {
	uint32_t first, nr; /* hops: deps[first .. first + nr) */
	bool strong; /* a deadlock by the strong-path rule */
	char id[LD_CYCLE_ID_LEN];
};

struct ld_cycles {
	struct ld_cycle *c;
	uint32_t nr;
	uint32_t *deps; /* hops, each cycle in canonical rotation */
	uint32_t nr_deps, alloc_deps, alloc_c;
	uint32_t nr_components; /* strongly connected, > 1 class or a loop */
	uint32_t largest_component;
	uint32_t nr_weak; /* cycles dropped as not strong (found so far) */
	uint32_t deepened_to; /* searched shortest cycle first: every
			       * cycle up to this length is listed */
	bool types_known; /* every dependency on a cycle had its type */
	bool truncated; /* stopped by max, length or work bound: the list
			 * is not every cycle, and nr is not a total */
	uint8_t stop; /* which of them: LD_PATHS_* */
};

/*
 * Every simple cycle, strongly connected components first, then a bounded
 * enumeration: Johnson's algorithm when every component has at most 64
 * classes and it lists all cycles (at most @max, within its work bound);
 * otherwise shortest cycles first across all components, so that a list
 * cut by @max, @max_len or the work bound holds every cycle of up to
 * deepened_to hops.
 * Keeps strong cycles, and weak ones too with @keep_weak.  At most @max
 * cycles (0: no limit) and @max_len hops (0: no limit).  Sorted by length,
 * then canonical names.  Returns 0 or -ENOMEM.
 */
int ld_find_cycles(const struct ld_model *m, uint32_t max, uint32_t max_len,
		   bool keep_weak, struct ld_cycles *out);
void ld_cycles_free(struct ld_cycles *c);
/* Names of cycle @i's classes in canonical order into @names (c->nr). */
void ld_cycle_names(const struct ld_model *m, const struct ld_cycles *cs,
		    uint32_t i, struct ld_str *names);

/* The irq-safety rule -------------------------------------------------- */

/*
 * kernel/locking/lockdep.c check_irq_usage(), usage_accumulate(),
 * usage_match(), exclusive_mask(), for STATE in hardirq and softirq: a
 * strong path S -> ... -> U of one or more hops, S != U, is a finding when
 *   S is STATE-safe (USED_IN_STATE), or STATE-read-safe
 *   (USED_IN_STATE_READ) and the path can start with S held exclusively;
 *   U is STATE-unsafe (ENABLED_STATE), or STATE-read-unsafe
 *   (ENABLED_STATE_READ) and the path can reach U non-recursively.
 * Classes whose lock type is known and not a normal lock (local_lock,
 * wait-type overrides) are left out, as usage_skip() does.  A class that is
 * both safe and unsafe for a state (lockdep's "inconsistent lock state",
 * valid_state()) is reported apart.
 */
enum { LD_IRQ_HARDIRQ, LD_IRQ_SOFTIRQ, LD_IRQ_NR };

struct ld_irq_finding {
	uint8_t state; /* LD_IRQ_* */
	uint8_t safe_bit, unsafe_bit; /* enum ld_usage_bit */
	uint32_t safe, unsafe; /* class ids */
	uint32_t first, nr; /* the shortest path: deps[first ..] */
	bool walk; /* undecided: as ld_path.walk */
	char id[LD_CYCLE_ID_LEN]; /* "irq-xxxxxxxx" */
};

struct ld_irq_inconsistent {
	uint32_t cls;
	uint8_t state, safe_bit, unsafe_bit;
};

struct ld_irq_result {
	struct ld_irq_finding *f;
	uint32_t nr, alloc_f;
	uint32_t *deps;
	uint32_t nr_deps, alloc_deps;
	uint64_t total[LD_IRQ_NR]; /* all safe -> unsafe pairs */
	struct ld_irq_inconsistent *inc;
	uint32_t nr_inc, alloc_inc;
	uint32_t nr_skipped; /* classes left out by lock type */
	bool types_known;
	bool truncated; /* more pairs than listed */
	/*
	 * The graph has a strong cycle: the totals count pairs joined by a
	 * strong walk, which may pass a class twice (ld_shortest_path()).
	 * Listed pairs are checked for a simple path (dropped without one,
	 * marked walk when the search could not tell), so with every pair
	 * listed the totals are exact again.
	 */
	bool cycle_walks;
	bool walks; /* some finding is a walk */
};

/*
 * Lists at most @max pairs (0: no limit) with a shortest path each, sorted
 * by state, safe class name, unsafe class name; counts all of them.
 * Returns 0, -ENOMEM, or -ENODATA without usage bits.
 */
int ld_irq_check(const struct ld_model *m, uint32_t max,
		 struct ld_irq_result *r);
void ld_irq_result_free(struct ld_irq_result *r);

/* Helpers -------------------------------------------------------------- */

/* Compare two class names bytewise (shorter first on a common prefix). */
int ld_name_cmp(struct ld_str a, struct ld_str b);
/* Class ids sorted by display name (then id); free() the result. */
uint32_t *ld_classes_by_name(const struct ld_model *m);
/* Strongly connected components of a CSR graph: comp[v], numbered in the
 * order they complete (edges never go to a higher number). */
int ld_scc(uint32_t n, const uint32_t *off, const uint32_t *dst, uint32_t *comp,
	   uint32_t *nr_comp);

#endif /* LD_GRAPH_H */
