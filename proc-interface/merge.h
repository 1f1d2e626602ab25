/* SPDX-License-Identifier: GPL-2.0 */
/*
 * merge.h - classes matched across boots, the union of several snapshots,
 * and the difference between two.
 *
 * Matching rule.  A lock class has no identity that survives a reboot:
 * the key is a pointer (/proc prints it hashed with a per-boot secret),
 * and the "#N" of a printed name is the order in which classes of that
 * name were registered.  Two classes from different snapshots are the same
 * class when they have the same base name (class->name without "#N" and
 * "/N") and the same subclass, and
 *   1. their key symbols (debugfs export) are equal, or their hashed keys
 *      (/proc) are equal, which only happens within one boot;
 *   2. otherwise, when each snapshot has exactly one class of that base
 *      name and subclass: whatever their "#N" ("realigned" when it
 *      differs);
 *   3. otherwise, among several classes of that base name and subclass,
 *      pairs are taken greedily by how many dependencies they share (by
 *      neighbour base name, in each direction), then by equal "#N";
 *      "neighbours" when they share one, "order" when only "#N" decided.
 * Key symbols that differ rule a pair out when both snapshots name the
 * same kernel release (one vmlinux: a symbol is stable); across releases
 * a symbol like "__key.123" changes with the build, so they only count as
 * evidence for a pair.
 *
 * Where it can be wrong: rule 3 with no shared dependencies pairs by
 * registration order; a class renamed between kernel versions, or one
 * whose printed name itself ends in "#N" or "/N" (/proc gives no way to
 * tell), is not matched; classes with dynamic keys and the same name are
 * told apart only by their neighbours.  `merge` lists every pair that was
 * not an exact name match.
 */
#ifndef LD_MERGE_H
#define LD_MERGE_H

#include "lockdep_model.h"

enum ld_match_how {
	LD_MATCH_NONE, /* only in one snapshot */
	LD_MATCH_NAME, /* same printed name, nothing against it */
	LD_MATCH_KEY, /* same key symbol or hashed key */
	LD_MATCH_REALIGNED, /* only one of its base name: "#N" differs */
	LD_MATCH_NEIGHBOURS, /* several: paired by shared dependencies */
	LD_MATCH_ORDER, /* several: paired by "#N" alone (a guess) */
	LD_MATCH_NR
};

const char *ld_match_how_name(unsigned int how);

struct ld_match {
	uint32_t *a_to_b, *b_to_a; /* class id on the other side */
	uint8_t *how; /* per class of b */
	uint32_t nr_how[LD_MATCH_NR]; /* pairs, and b classes left alone */
	uint32_t nr_a_only;
	bool keys_strict; /* same release: key symbols decide */
};

int ld_match_classes(const struct ld_model *a, const struct ld_model *b,
		     struct ld_match *mt);
void ld_match_free(struct ld_match *mt);

/* The union ---------------------------------------------------------- */

#define LD_MERGE_MAX 32 /* snapshots in one union */

struct ld_merge_info {
	uint32_t nr_src;
	const char **src; /* origin of each snapshot */
	const char **release; /* its kernel release, or NULL */
	uint32_t *cls_src; /* [c * nr_src + s]: id there or LD_NONE */
	uint8_t *cls_how; /* [c * nr_src + s]: enum ld_match_how */
	struct ld_str *cls_name; /* [c * nr_src + s]: printed name there */
	uint32_t *dep_src; /* per dependency: bit s set if seen in s */
	uint32_t nr_renamed; /* classes whose "#N" was changed */
};

/*
 * The union of @n models (n >= 2): classes matched as above, named as in
 * the first snapshot that has them (a class new in a later one gets the
 * next free "#N" if its name is taken); dependencies merged per pair of
 * classes (types or-ed, smallest distance, first stack); usage bits
 * or-ed; chains and traces kept; counters and lock_stat left out (they
 * do not add up).  The result records its provenance in m->merge.
 */
int ld_merge(struct ld_model **out, struct ld_model *const *in, uint32_t n,
	     struct ld_diag *d);
/* Load each path with ld_load_path() and merge them. */
int ld_load_merged(struct ld_model **mp, const char *const *paths, uint32_t n,
		   struct ld_diag *d);

/* The difference --------------------------------------------------------- */

struct ld_usage_change {
	uint32_t old_id, new_id;
	uint16_t gained, lost; /* among bits known on both sides */
};

struct ld_name_count {
	struct ld_str base; /* from whichever side has it */
	uint32_t old_nr, new_nr; /* classes with this base name */
};

struct ld_stat_change {
	struct ld_str key, label;
	bool old_known, new_known;
	int64_t old_v, new_v;
};

enum { LD_LS_CHANGED, LD_LS_NEW, LD_LS_GONE };

struct ld_ls_change {
	uint32_t old_id, new_id; /* classes (matched), LD_NONE: none */
	struct ld_str name; /* the class's, or the row's printed name */
	int state; /* LD_LS_*: a row in both, only the new, only the old */
	int64_t d[LD_LS_NR]; /* new - old, write + read rows */
};

struct ld_diff {
	struct ld_match mt;
	bool classes_compared; /* both sides list classes */
	uint32_t *added, nr_added; /* new class ids */
	uint32_t *removed, nr_removed; /* old class ids */
	uint32_t *renamed, nr_renamed; /* new ids, printed name moved */
	uint32_t *dep_added, nr_dep_added; /* new dependency ids */
	uint32_t *dep_removed, nr_dep_removed; /* old dependency ids */
	/* in both, types known on both sides and different (SR -> SR|EN) */
	uint32_t *retyped_old, *retyped_new, nr_retyped;
	/* in both, distances known on both sides and different (2 -> 1) */
	uint32_t *redist_old, *redist_new, nr_redist;
	bool deps_compared; /* both sides had them */
	bool distance1_only; /* one side had only distance 1 */
	struct ld_usage_change *usage;
	uint32_t nr_usage;
	bool usage_compared;
	struct ld_name_count *names; /* base names whose count moved */
	uint32_t nr_names;
	int64_t chains[2][4]; /* [old/new][irq context] */
	bool chains_compared;
	struct ld_stat_change *stats;
	uint32_t nr_stats;
	uint32_t nr_stats_unknown; /* in both, one side cannot tell it */
	bool stats_compared; /* both sides have counters */
	struct ld_ls_change *ls;
	uint32_t nr_ls;
	bool ls_compared;
};

int ld_diff(const struct ld_model *old, const struct ld_model *new,
	    struct ld_diff *df);
void ld_diff_free(struct ld_diff *df);
/* True when anything differs (classes, dependencies, usage, chains,
 * counters or lock_stat). */
bool ld_diff_any(const struct ld_diff *df);

#endif /* LD_MERGE_H */
