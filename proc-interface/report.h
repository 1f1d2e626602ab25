/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - lockdep's reports in a kernel log, as records.
 *
 * Every report kind kernel/locking/lockdep.c prints (6.12; older
 * "[ INFO: ... ]" titles too): circular dependency, recursive locking,
 * inconsistent lock state, safe -> unsafe order, irq lock inversion,
 * invalid wait context, bad unlock balance, held lock freed, lock held at
 * exit to user space, locks still held, nested lock not taken, bad
 * contention, chain_key collision, suspicious RCU usage and the
 * "BUG: MAX_... too low!" capacity reports.  Lines may carry syslog "<N>"
 * levels, "[ 12.345678]" timestamps, "[T123]"/"[C0]" caller ids,
 * "kernel: " journal prefixes, "> " quoting (several levels), CR LF;
 * frames may be syzbot-symbolized ("f+0x1/0x2 mm/x.c:12", "[inline]").
 *
 * A circular report lists the cycle "in reverse order" as "-> #N" blocks:
 * block #0 is the lock being acquired, #1 .. #depth lead to the lock held,
 * each with the stack that recorded the dependency into it (block #0: the
 * new dependency).  The record holds the cycle in forward order (#0, #1,
 * ..., #depth, each taken while holding the one before it, then #0 again)
 * with each hop's stack, and the canonical id graph.h defines, so the
 * same cycle entered from another lock gets the same id as in `cycles`.
 * Nothing here prints.
 */
#ifndef LD_REPORT_H
#define LD_REPORT_H

#include "lockdep_model.h"
#include "graph.h"

#define LD_REPORT_KINDS(X)                  \
	X(CIRCULAR, "circular")             \
	X(RECURSIVE, "recursive")           \
	X(INCONSISTENT, "inconsistent")     \
	X(SAFE_UNSAFE, "safe-unsafe")       \
	X(IRQ_INVERSION, "irq-inversion")   \
	X(WAIT_CONTEXT, "wait-context")     \
	X(UNLOCK_BALANCE, "unlock-balance") \
	X(HELD_FREED, "held-lock-freed")    \
	X(EXIT_USER, "lock-held-at-exit")   \
	X(LOCKS_HELD, "locks-held")         \
	X(NESTED, "nested-lock-not-taken")  \
	X(CONTENTION, "bad-contention")     \
	X(CHAIN_KEY, "chain-key-collision") \
	X(RCU, "suspicious-rcu")            \
	X(CAPACITY, "capacity")

enum ld_report_kind {
#define LD_X(k, s) LD_RK_##k,
	LD_REPORT_KINDS(LD_X)
#undef LD_X
		LD_RK_NR
};

const char *ld_report_kind_name(unsigned int kind);

/* What a lock is in its report */
#define LD_REPORT_ROLES(X)                                         \
	X(ACQUIRE, "acquire") /* being acquired / locked */        \
	X(HOLD, "hold") /* already held */                         \
	X(SAFE, "safe") /* the irq-safe end */                     \
	X(UNSAFE, "unsafe") /* the irq-unsafe end */               \
	X(CHANGED, "changed") /* whose usage state just changed */ \
	X(OTHER, "other") /* the other lock of an inversion */     \
	X(RELEASE, "release") /* released once too often */        \
	X(FREED, "freed") /* in freed memory */                    \
	X(CYCLE, "cycle") /* a "-> #N" block */                    \
	X(PATH, "path") /* a dependency path block */              \
	X(HELD, "held") /* in the held-locks list */

enum ld_report_role {
#define LD_X(k, s) LD_RR_##k,
	LD_REPORT_ROLES(LD_X)
#undef LD_X
		LD_RR_NR
};

const char *ld_report_role_name(unsigned int role);

/* A lock as printed: "(name){usage}-{outer:inner}, at: symbol" */
struct ld_rlock {
	struct ld_str name;
	char usage[9]; /* the usage characters; "" when absent */
	int16_t wait_outer, wait_inner; /* -1 when absent */
	struct ld_str at; /* acquire site, or empty */
	struct ld_str key; /* "... key at:" symbol, "sym[module]" */
	uint32_t cls; /* class in a linked model, or LD_NONE */
	/*
	 * What the class's print function (lock_set_cmp_fn()) printed after
	 * its name, as linking found it ("l=0 1:2" of "&b->lock l=0 1:2"),
	 * or empty: @name keeps the whole text as printed
	 */
	struct ld_str instance;
	uint8_t role; /* enum ld_report_role */
};

/* Usage bits from printed usage characters (hardirq, softirq: write,
 * read), into *known the bits the characters tell. */
uint16_t ld_rlock_usage(const struct ld_rlock *l, uint16_t *known);

struct ld_rstack {
	uint32_t first, nr; /* frames[first .. first + nr) */
};

struct ld_rhop {
	uint32_t from, to; /* lock indexes */
	uint32_t stack; /* stack index, LD_NONE: not printed */
};

struct ld_report {
	uint8_t kind; /* enum ld_report_kind */
	bool truncated; /* the log ended inside it */
	bool forwards; /* irq inversion: "took another" */
	unsigned long line, end_line; /* 1-based lines of the log */
	struct ld_str title, kernel, task;
	int64_t pid; /* -1 unknown */
	struct ld_str irqclass; /* "HARDIRQ", "SOFTIRQ-READ", ... */
	int8_t usage_from, usage_to; /* inconsistent: usage bits, or -1 */
	struct ld_str detail; /* capacity limit, RCU message, ... */
	uint32_t locks, nr_locks; /* locks[] of this report */
	uint32_t cycle, nr_cycle; /* lock indexes (idx[]), forward */
	uint32_t hops, nr_hops; /* hops[]: the cycle, or the path */
	/*
	 * The hop (index into hops[]) of the dependency lockdep was adding
	 * when it reported, held -> acquired, which it then did not add
	 * (circular: the hop into block #0; safe -> unsafe: where the two
	 * sections join); LD_NONE for other kinds or when not printed
	 */
	uint32_t new_hop;
	bool path_cut; /* a part of the path: a section was cut short */
	int64_t held_count; /* "N locks held by"; -1 not printed */
	int64_t cmp; /* recursive: what the class's lock_set_cmp_fn() said */
	bool cmp_known; /* "and the lock comparison function returns N:" */
	uint32_t held, nr_held; /* lock indexes (idx[]) */
	uint32_t backtrace; /* stack index or LD_NONE */
	uint32_t usage_stack; /* inconsistent: state registered at */
	uint32_t safe_stack, unsafe_stack; /* became irq-(un)safe at */
	char id[LD_CYCLE_ID_LEN]; /* circular: canonical id, else "" */
};

struct ld_reports {
	struct ld_report *r;
	uint32_t nr, alloc_r;
	struct ld_rlock *locks;
	uint32_t nr_locks, alloc_locks;
	uint32_t *idx;
	uint32_t nr_idx, alloc_idx;
	struct ld_rhop *hops;
	uint32_t nr_hops, alloc_hops;
	struct ld_rstack *stacks;
	uint32_t nr_stacks, alloc_stacks;
	struct ld_str *frames;
	uint32_t nr_frames, alloc_frames;
	unsigned long lines; /* lines read */
	struct ld_arena *arena;
};

/* Parse every report in @data; @origin names it in diagnostics. */
/*
 * The report's first held and first acquired lock (indexes into
 * rs->locks, LD_NONE when absent): its edge when it prints no path.
 */
void ld_report_hold_acquire(const struct ld_reports *rs,
			    const struct ld_report *r, uint32_t *hold,
			    uint32_t *acquire);
int ld_parse_reports(const char *origin, const char *data, size_t len,
		     struct ld_reports **out, struct ld_diag *d);
void ld_reports_free(struct ld_reports *rs);
/* Link each lock to a class of @m by printed name, else by key symbol. */
void ld_reports_link(struct ld_reports *rs, const struct ld_model *m);

#endif /* LD_REPORT_H */
