/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockdep_model.h - one in-memory model of what lockdep exported
 *
 * Sources: the stock /proc files (/proc/lockdep, /proc/lockdep_chains,
 * /proc/lockdep_stats, /proc/lock_stat), the debugfs export
 * (/sys/kernel/debug/lockdep/{classes,deps,traces,usage,chains,stats}),
 * a snapshot directory holding copies of either, or a snapshot file
 * written by ld_save().
 *
 * Every value that a source may lack carries where it came from
 * (enum ld_src); LD_SRC_NONE means "unknown", never zero.  Nothing in this
 * library prints or exits: errors fill a struct ld_diag ("file:line: what")
 * and are returned as -errno.
 */
#ifndef LOCKDEP_MODEL_H
#define LOCKDEP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LD_NONE UINT32_MAX /* no class / trace / entry */
#define LD_SNAPSHOT_VERSION 1 /* version of the save format */
#define LD_SNAPSHOT_UNION_VERSION 2 /* ... of a saved union (snapshot.c) */
#define LD_EXPORT_VERSION 1 /* debugfs export version we read */
#define LD_MAX_FILE (1UL << 30) /* refuse larger inputs */
#define LD_MAX_LINE (64UL << 20) /* ... and longer lines, when streamed */
#define LD_MAX_SUBCLASSES 8 /* MAX_LOCKDEP_SUBCLASSES */

/* Where a value came from.  LD_SRC_NONE: unknown. */
enum ld_src {
	LD_SRC_NONE = 0,
	LD_SRC_PROC, /* stock /proc file */
	LD_SRC_EXPORT, /* debugfs export */
	LD_SRC_COMPUTED, /* recomputed by this library from the graph */
	LD_SRC_DERIVED, /* inferred from a printed name (heuristic) */
};

const char *ld_src_name(enum ld_src src);

struct ld_num {
	int64_t v;
	unsigned char src; /* enum ld_src */
};

#define ld_known(n) ((n).src != LD_SRC_NONE)

/* A count's word (noun or verb) for text: ld_plural(n, "class", "classes") */
static inline const char *ld_plural(uint64_t n, const char *one,
				    const char *many)
{
	return n == 1 ? one : many;
}

/* A counted string: may point into a source buffer (no NUL at s[len]). */
struct ld_str {
	const char *s;
	uint32_t len;
};

/* Usage bits, as enum lock_usage_bit in kernel/locking/lockdep_internals.h */
#define LD_USAGE_BITS(X)                               \
	X(USED_IN_HARDIRQ, "hardirq-safe")             \
	X(USED_IN_HARDIRQ_READ, "hardirq-read-safe")   \
	X(ENABLED_HARDIRQ, "hardirq-unsafe")           \
	X(ENABLED_HARDIRQ_READ, "hardirq-read-unsafe") \
	X(USED_IN_SOFTIRQ, "softirq-safe")             \
	X(USED_IN_SOFTIRQ_READ, "softirq-read-safe")   \
	X(ENABLED_SOFTIRQ, "softirq-unsafe")           \
	X(ENABLED_SOFTIRQ_READ, "softirq-read-unsafe") \
	X(USED, "used")                                \
	X(USED_READ, "used-read")

enum ld_usage_bit {
#define LD_X(bit, word) LD_##bit,
	LD_USAGE_BITS(LD_X)
#undef LD_X
		LD_NR_USAGE_BITS
};

#define LD_USAGE_ALL ((1u << LD_NR_USAGE_BITS) - 1)
#define LD_USAGE_IRQ 0xffu /* the 8 bits /proc/lockdep shows */

const char *ld_usage_kname(unsigned int bit); /* "USED_IN_HARDIRQ" */
const char *ld_usage_word(unsigned int bit); /* "hardirq-safe" */
int ld_usage_from_kname(const char *s, size_t len); /* bit or -1 */
int ld_usage_from_word(const char *s); /* bit or -1 */
/* The 4 characters /proc/lockdep prints; '?'... for unknown halves. */
void ld_usage_chars(uint16_t mask, uint16_t known, char out[5]);

/* Dependency type bits, lock_list.dep (DEP_SR_BIT .. DEP_EN_BIT) */
enum {
	LD_DEP_SR = 1 << 0, /* shared -> recursive reader */
	LD_DEP_ER = 1 << 1, /* exclusive -> recursive reader */
	LD_DEP_SN = 1 << 2, /* shared -> non-recursive */
	LD_DEP_EN = 1 << 3, /* exclusive -> non-recursive */
};
/* "SR|EN" or "?" when unknown; buf >= 16 bytes */
const char *ld_dep_type_str(unsigned int type, bool known, char *buf);

struct ld_class {
	uint32_t id; /* dense model index */
	struct ld_num kid; /* index in lock_classes[] (export) */
	struct ld_str name; /* display name as the kernel prints */
	struct ld_str base; /* class->name, if known */
	struct ld_num name_version;
	struct ld_num subclass;
	struct ld_str key_sym; /* %ps of the key (export), or empty */
	uint64_t key_hash; /* %p of the key (/proc), per boot */
	bool key_hash_known;
	bool key_not_static; /* export key '-': not a static object (a key of
			   * lockdep_register_key(), or in init data freed
			   * since boot), so no symbol */
	bool base_is_key; /* no class->name: name is the key sym */
	uint16_t usage; /* bits known to be set */
	uint16_t usage_known; /* which bits are known */
	unsigned char usage_src;
	struct ld_num ops;
	struct ld_num fd, bd; /* /proc meaning: strong BFS, incl. self */
	struct ld_num nr_after; /* locks_after entries (export "fd") */
	struct ld_num nr_before; /* locks_before entries (export "bd") */
	struct ld_num wait_inner, wait_outer, lock_type;
	uint32_t usage_trace[LD_NR_USAGE_BITS]; /* trace index or LD_NONE */
	uint16_t usage_trace_unknown; /* bits whose trace id is not in the
				       * traces file (their LD_NONE: unknown) */
	uint32_t lockstat; /* index into lockstat[] or LD_NONE */
	uint32_t name_next; /* name hash chain */
};

/* 16 bytes: a full graph has a quarter of a million */
struct ld_dep {
	uint32_t from, to; /* class ids */
	uint32_t trace; /* trace index; LD_NONE: none/unknown */
	uint16_t distance; /* 0: unknown (the kernel's is a u16 too) */
	uint8_t type; /* LD_DEP_* bits */
	bool type_known : 1;
	bool trace_known : 1; /* false: source has no traces, or the id is
			       * not in its traces file */
};

/* The kernel's mask: LOCK_CHAIN_SOFTIRQ_CONTEXT 1, _HARDIRQ_CONTEXT 2 */
enum ld_irq_ctx {
	LD_CTX_PROCESS = 0,
	LD_CTX_SOFTIRQ = 1,
	LD_CTX_HARDIRQ = 2,
};
const char *ld_irq_ctx_str(unsigned int ctx); /* kernel's spelling */

/*
 * enum lockdep_wait_type (include/linux/lockdep_types.h): 0 LD_WAIT_INV
 * (not checked), 1 FREE, 2 SPIN, then 3 CONFIG and 4 SLEEP with
 * CONFIG_PROVE_RAW_LOCK_NESTING, else 3 SLEEP (CONFIG is then SPIN).
 * The export's stats say which (prove_raw_lock_nesting); without that
 * key (older captures), a class with 4 shows 3 is CONFIG:
 * m->have.wait_config, m->have.wait_plain.
 */
enum {
	LD_WAIT_INV,
	LD_WAIT_FREE,
	LD_WAIT_SPIN,
	LD_WAIT_CONFIG,
	LD_WAIT_SLEEP,
};
struct ld_model;
/* "inv" "free" "spin" "config" "sleep"; NULL when @m cannot tell (3
 * without stats' word or a 4 anywhere) or @v is a newer kernel's */
const char *ld_wait_name(const struct ld_model *m, int64_t v);
/* enum lockdep_lock_type: "normal" "percpu" "wait-override", else NULL */
const char *ld_lock_type_name(int64_t v);

/* 24 bytes: a full graph has a quarter of a million */
struct ld_chain {
	uint64_t key; /* chain_key */
	uint32_t kid; /* index in lock_chains[] (export), LD_NONE: unknown */
	uint32_t depth; /* elements in this chain */
	uint32_t first; /* index into chain_locks[] */
	uint8_t irq_context;
	bool key_known;
	bool read_known;
};

static inline struct ld_num ld_chain_kid(const struct ld_chain *ch)
{
	struct ld_num n = { 0 };

	if (ch->kid != LD_NONE) {
		n.v = ch->kid;
		n.src = LD_SRC_EXPORT;
	}
	return n;
}

struct ld_unlisted {
	uint32_t at; /* index into chain_locks[] */
	struct ld_str name;
};

struct ld_model;
/* The name of chain lock @at when its class is not in the model, or "" */
struct ld_str ld_chain_lock_name(const struct ld_model *m, uint32_t at);

struct ld_trace {
	struct ld_num kid; /* offset in stack_trace[] */
	uint32_t first; /* index into frames[] */
	uint32_t nr;
};

struct ld_stat {
	struct ld_str key; /* snake_case */
	struct ld_str label; /* as printed in /proc, or the key */
	int64_t value;
	struct ld_num max; /* "[max: N]" */
	unsigned char src;
	bool blank_before; /* /proc layout: blank line before */
};

/* lock_stat: 12 numbers per row; times in units of 10 ns (0.01 us). */
enum {
	LD_LS_CON_BOUNCES,
	LD_LS_CONTENTIONS,
	LD_LS_WAIT_MIN,
	LD_LS_WAIT_MAX,
	LD_LS_WAIT_TOTAL,
	LD_LS_WAIT_AVG,
	LD_LS_ACQ_BOUNCES,
	LD_LS_ACQUISITIONS,
	LD_LS_HOLD_MIN,
	LD_LS_HOLD_MAX,
	LD_LS_HOLD_TOTAL,
	LD_LS_HOLD_AVG,
	LD_LS_NR
};
extern const char *const ld_ls_names[LD_LS_NR]; /* "con-bounces"... */
static inline bool ld_ls_is_time(int i)
{
	return (i >= LD_LS_WAIT_MIN && i <= LD_LS_WAIT_AVG) ||
	       (i >= LD_LS_HOLD_MIN && i <= LD_LS_HOLD_AVG);
}

struct ld_ls_point {
	uint64_t count;
	struct ld_str sym; /* %pS */
};

enum ld_ls_match {
	LD_LSM_NONE, /* no class has this name */
	LD_LSM_EXACT, /* one class prints exactly this */
	LD_LSM_AMBIGUOUS, /* several classes print this */
	LD_LSM_UNKNOWN, /* no class list was read (lock_stat alone) */
	LD_LSM_CUT, /* a class without a row in a file cut short */
};

struct ld_lockstat {
	struct ld_str name; /* as printed (cut to 37 chars) */
	bool has_w, has_r; /* write row / read row present */
	int64_t w[LD_LS_NR], r[LD_LS_NR];
	struct ld_ls_point contention[4], contending[4];
	uint8_t nr_contention, nr_contending;
	uint32_t class; /* LD_NONE unless LD_LSM_EXACT */
	uint8_t match; /* enum ld_ls_match */
	bool rw_guessed; /* lone "-R" row: see README */
};

struct ld_stream;

/*
 * One input file as read, kept verbatim for save; or, for the big files
 * of a snapshot directory, streamed (@stream, @data NULL): read through a
 * small buffer as it is parsed, and opened again by save.
 */
struct ld_section {
	char *name; /* "lockdep", "lockdep/classes", ... */
	char *origin; /* file named in diagnostics */
	char *path; /* path it was read from (saved) */
	char *data; /* malloc()ed, or mapped: see ld_section_free_data() */
	size_t len;
	struct ld_stream *stream; /* not NULL: streamed, @len bytes */
	unsigned long base_line; /* line offset within origin file */
	bool used; /* understood by this version */
	bool mapped; /* data is an mmap() of the file, read-only */
	bool skipped; /* present, not read: not in the load's @what */
};

/* Which kinds of data the model has (unknown, not empty, when false). */
struct ld_have {
	bool classes;
	bool ops; /* DEBUG_LOCKDEP counters */
	bool kernel_fd_bd; /* FD/BD as computed by the kernel */
	bool usage; /* usage bits (8 on /proc, 10 on export) */
	bool deps; /* dependency lists (PROVE_LOCKING) */
	bool dep_all_distances; /* distance > 1 entries included */
	bool dep_types;
	bool traces; /* stacks of dependencies */
	bool usage_traces;
	bool wait_types;
	bool wait_config; /* a wait type 4 seen, or stats' prove_raw_lock_nesting
			   * 1: numbered with LD_WAIT_CONFIG */
	bool wait_plain; /* stats' prove_raw_lock_nesting 0: 3 is LD_WAIT_SLEEP */
	bool chains;
	bool chain_keys; /* chain_key + per element read state */
	bool stats;
	bool lockstat;
};

/*
 * Where the load's time went, phase by phase, in the order they ended
 * (for LOCKDEP_TOOL_TIMING and the benchmarks; costs a clock read each).
 * The first LD_MAX_PHASES only: a union records its own merging, not
 * the loads of the snapshots it was made of.
 */
#define LD_MAX_PHASES 24
struct ld_phase {
	const char *name; /* static string */
	double ms;
	bool beside; /* a second thread's, while the first did others */
};

struct ld_model {
	struct ld_class *classes;
	uint32_t nr_classes, alloc_classes;
	struct ld_dep *deps;
	uint32_t nr_deps, alloc_deps;
	/* CSR adjacency: deps leaving / entering class i */
	uint32_t *out_off, *out; /* out[out_off[i] .. out_off[i+1]) */
	uint32_t *in_off, *in; /* in: in out's block, after its nr_deps */
	struct ld_chain *chains;
	uint32_t nr_chains, alloc_chains;
	uint32_t *chain_locks; /* class ids, LD_NONE if unresolved */
	uint8_t *chain_reads; /* 0 write, 1 read, 2 recursive */
	uint32_t nr_chain_locks, alloc_chain_locks, alloc_chain_reads;
	/*
	 * The names /proc/lockdep_chains gives its locks of classes not in
	 * the class list (chain_locks[] LD_NONE), by chain_locks[] index,
	 * in order: ld_chain_lock_name()
	 */
	struct ld_unlisted *unlisted;
	uint32_t nr_unlisted, alloc_unlisted;
	uint32_t *cc_off, *cc; /* chains containing class i */
	struct ld_trace *traces;
	uint32_t nr_traces, alloc_traces;
	struct ld_str *frames;
	uint32_t nr_frames, alloc_frames;
	struct ld_stat *stats;
	uint32_t nr_stats, alloc_stats;
	struct ld_lockstat *lockstat;
	uint32_t nr_lockstat, alloc_lockstat;
	bool lockstat_disabled; /* "*WARNING* lock debugging..." */
	bool lockstat_cut; /* /proc/lock_stat was cut short: rows missing */
	bool chains_buggered; /* "(buggered) all lock chains:" */
	uint32_t nr_unresolved; /* chain/dep refs we could not join */

	struct ld_have have;
	unsigned int loaded; /* the LD_LOAD_* asked for */
	bool from_export;
	bool consistent; /* export generations all equal */
	bool has_generation;
	uint64_t generation;
	bool partial; /* something was cut short */

	/* metadata */
	char *release; /* kernel release, or NULL */
	char *captured; /* ISO 8601 UTC, or NULL */
	char *origin; /* "live", a directory or a file */
	bool from_snapshot_file;
	struct ld_section *sections;
	uint32_t nr_sections;
	char **warnings;
	uint32_t nr_warnings;

	/* indexes */
	uint32_t *name_hash; /* buckets of class ids */
	uint32_t name_hash_mask;
	struct ld_arena *arena;
	/* scratch for ld_fd_bd() */
	uint32_t *bfs_queue, *bfs_seen, bfs_gen;
	uint8_t *bfs_xr;
	/* set when the model is a union of snapshots (merge.h); in arena */
	const struct ld_merge_info *merge;
	/* ... and the snapshots it was made of, in order (for ld_save()) */
	struct ld_part *parts;
	uint32_t nr_parts;
	double load_start; /* ld_now_ms() when the model was made */
	struct ld_index_job *index_job; /* the chain index, being built */
	/* duplicate deps a parser's thread dropped: ld_model_finish() says */
	uint32_t dup_deps;
	struct ld_phase phases[LD_MAX_PHASES];
	uint32_t nr_phases;
};

struct ld_diag {
	char msg[512];
};

/* One snapshot of a union, kept as read so that `save` can write it. */
struct ld_part {
	char *release, *captured, *origin;
	struct ld_section *sections;
	uint32_t nr_sections;
};

/* Loading ------------------------------------------------------------ */

/*
 * What a load reads, for callers that know what they will ask (a command
 * line runs one command): the files of the other kinds are not read and
 * their data stays unknown, as if the source lacked them.  The graph comes
 * with each of the others: they name its classes.
 */
enum {
	LD_LOAD_GRAPH = 1 << 0, /* classes, usage bits, dependencies */
	LD_LOAD_TRACES = 1 << 1, /* stacks: the export's traces and usage */
	LD_LOAD_CHAINS = 1 << 2,
	LD_LOAD_STATS = 1 << 3, /* lockdep_stats, the export's stats */
	LD_LOAD_LOCKSTAT = 1 << 4, /* /proc/lock_stat */
	LD_LOAD_ALL = (1 << 5) - 1,
};
/* What a load of @what reads: with the graph, unless counters only */
unsigned int ld_load_what(unsigned int what);

/*
 * Read the live kernel: the debugfs export if present (retried until its
 * generations agree, at most @retries times), else /proc.  @root is a
 * prefix for every path ("" or NULL on a real system).
 */
int ld_load_live(struct ld_model **mp, const char *root, int retries,
		 struct ld_diag *d);
/* A snapshot directory or a file written by ld_save(). */
int ld_load_path(struct ld_model **mp, const char *path, struct ld_diag *d);
/*
 * The same, reading only @what (LD_LOAD_*); ld_save() refuses the result.
 * A union file (snapshot format 2) is read whole: m->loaded says so.
 */
int ld_load_live_only(struct ld_model **mp, const char *root, int retries,
		      unsigned int what, struct ld_diag *d);
int ld_load_path_only(struct ld_model **mp, const char *path,
		      unsigned int what, struct ld_diag *d);
/*
 * Build a model from named in-memory files ("lockdep", "lockdep_chains",
 * "lockdep_stats", "lock_stat", "lockdep/classes", ...).  Takes ownership
 * of nothing: the buffers are copied.
 */
struct ld_input {
	const char *name;
	const char *origin;
	const char *data;
	size_t len;
};
int ld_load_buffers(struct ld_model **mp, const struct ld_input *in,
		    unsigned int n, struct ld_diag *d);
int ld_load_buffers_only(struct ld_model **mp, const struct ld_input *in,
			 unsigned int n, unsigned int what, struct ld_diag *d);
/* Parse a snapshot file held in memory. */
int ld_load_snapshot_buf(struct ld_model **mp, const char *origin,
			 const char *data, size_t len, struct ld_diag *d);

/* Write the snapshot file format; byte-identical for a loaded snapshot. */
int ld_save(const struct ld_model *m, FILE *f, struct ld_diag *d);

void ld_model_free(struct ld_model *m);

/*
 * Quote up to 32 bytes of input for a message, escaping the unprintable
 * (\xNN), '\\' and '\'', "..." after a cut; @size LD_QBUF is enough.
 */
const char *ld_quote(const char *s, size_t len, char *buf, size_t size);
#define LD_QBUF 160

/* Queries -------------------------------------------------------------- */

/*
 * Class @c's lock_stat row: EXACT (*row its row), AMBIGUOUS (*row the row
 * whose cut name fits @c and other classes), NONE (no row), or UNKNOWN
 * (no lock_stat read), CUT (no row, in a lock_stat that was cut short).
 */
enum ld_ls_match ld_class_lockstat(const struct ld_model *m, uint32_t c,
				   uint32_t *row);

/* Exact display-name lookup: number of matches, ids in @ids (up to max). */
unsigned int ld_find_class(const struct ld_model *m, const char *name,
			   size_t len, uint32_t *ids, unsigned int max);
/* Up to @max close candidates for a mistyped name, best first. */
unsigned int ld_suggest_classes(const struct ld_model *m, const char *name,
				uint32_t *ids, unsigned int max);
const struct ld_stat *ld_stat_get(const struct ld_model *m, const char *key);
/*
 * FD/BD of class @c when the source did not give the kernel's (export):
 * computed on first use and cached in the class (O(dependencies) each).
 */
int ld_fd_bd(const struct ld_model *m, uint32_t c);
int ld_fd_bd_all(const struct ld_model *m);

static inline uint32_t ld_nr_out(const struct ld_model *m, uint32_t c)
{
	return m->out_off[c + 1] - m->out_off[c];
}

static inline uint32_t ld_nr_in(const struct ld_model *m, uint32_t c)
{
	return m->in_off[c + 1] - m->in_off[c];
}

#endif /* LOCKDEP_MODEL_H */
