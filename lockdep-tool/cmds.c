// SPDX-License-Identifier: GPL-2.0
/*
 * cmds.c - the command table: the one list of commands, their arguments
 * and options, used by the command line, the REPL (and its completion),
 * batch mode, `help` and the man page.  Also lookup, option parsing and
 * the line splitter.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const char *const usage_values[] = { "hardirq-safe",
					    "hardirq-read-safe",
					    "hardirq-unsafe",
					    "hardirq-read-unsafe",
					    "softirq-safe",
					    "softirq-read-safe",
					    "softirq-unsafe",
					    "softirq-read-unsafe",
					    "used",
					    "used-read",
					    "irq-safe",
					    "irq-unsafe",
					    "unused",
					    "uncategorized",
					    NULL };
static const char *const sort_class_values[] = { "name", "fd", "bd",
						 "ops",	 "id", NULL };
static const char *const irq_values[] = { "hardirq", "softirq", "process",
					  NULL };
static const char *const sort_ls_values[] = { "contentions", "wait", "hold",
					      "acquisitions", NULL };

/* Option indexes below are what each cmd_<name>.c reads. */
static const struct cmd_opt classes_opts[] = {
	{ "usage", 'u', "STATE", usage_values,
	  "only classes in this usage state" },
	{ "sort", 0, "KEY", sort_class_values,
	  "sort by name, fd, bd, ops or id (default: id)" },
	{ "count", 'c', NULL, NULL, "print only the number of classes" },
	{ "reverse", 'r', NULL, NULL, "reverse the sort order" },
	{ NULL }
};
static const struct cmd_opt deps_opts[] = {
	{ "reverse", 'r', NULL, NULL,
	  "follow dependencies backwards (who takes CLASS first)" },
	{ "depth", 'd', "N", NULL, "levels to follow (default 1)" },
	{ NULL }
};
static const struct cmd_opt chains_opts[] = {
	{ "irq-context", 'i', "CTX", irq_values,
	  "only chains of this context: hardirq, softirq or process (a chain of hardirq|softirq counts as both)" },
	{ "count", 'c', NULL, NULL, "print only the number of chains" },
	{ NULL }
};
static const struct cmd_opt lockstat_opts[] = {
	{ "top", 't', "N", NULL,
	  "only the first N classes (0: all); a class's write and read rows count as one" },
	{ "sort", 0, "KEY", sort_ls_values,
	  "contentions (default), wait, hold or acquisitions" },
	{ NULL }
};
static const struct cmd_opt dot_opts[] = {
	{ "depth", 'd', "N", NULL,
	  "levels around CLASS (default 1; whole graph without CLASS)" },
	{ "reverse", 'r', NULL, NULL,
	  "only the classes held when CLASS is taken" },
	{ "forward", 'f', NULL, NULL,
	  "only the classes taken while CLASS is held" },
	/* issue 6 (dot_focus.c) */
	{ "path", 0, "A", NULL,
	  "the shortest path from A to CLASS: dot --path A B" },
	{ "cycle", 0, "ID", NULL,
	  "one cycle: its id from 'cycles', or \"A -> B -> C\"" },
	{ "report", 0, "N", NULL,
	  "the classes and hops of report N of the kernel log (see 'report')" },
	{ "log", 0, "FILE", NULL,
	  "with --report: read this log instead of the kernel's (- as for 'report')" },
	{ NULL }
};
static const struct cmd_opt path_opts[] = {
	{ "all", 'a', NULL, NULL, "every path, bounded by --max" },
	{ "max", 0, "N", NULL, "with --all, at most N paths (default 20, 0: no limit)" },
	{ "length", 0, "N", NULL, "with --all: at most N hops" },
	{ NULL }
};
static const struct cmd_opt why_opts[] = {
	{ "max", 0, "N", NULL, "list at most N chains (default 10, 0: no limit)" },
	{ NULL }
};
static const struct cmd_opt cycles_opts[] = {
	{ "max", 0, "N", NULL, "at most N cycles (default 100, 0: no limit)" },
	{ "length", 0, "N", NULL, "only cycles of at most N classes" },
	{ "weak", 'w', NULL, NULL,
	  "also list cycles that are not deadlocks (recursive reads)" },
	{ "brief", 'b', NULL, NULL, "no stacks" },
	{ NULL }
};
static const struct cmd_opt irq_check_opts[] = {
	{ "max", 0, "N", NULL,
	  "list at most N safe -> unsafe pairs (default 20, 0: all)" },
	{ "brief", 'b', NULL, NULL, "no stacks" },
	{ NULL }
};
static const struct cmd_opt diff_opts[] = {
	{ "max", 0, "N", NULL, "list at most N items per section (default 50, 0: no limit)" },
	{ "brief", 'b', NULL, NULL, "no stacks" },
	{ NULL }
};
static const struct cmd_opt report_opts[] = {
	{ "brief", 'b', NULL, NULL, "no stacks" },
	{ NULL }
};
static const struct cmd_opt merge_opts[] = {
	{ "all", 'a', NULL, NULL,
	  "list every class, not only those not matched by exact name" },
	{ NULL }
};

const struct cmd_entry cmd_table[] = {
	{ "classes", "ls", 0, 1,
	  "[REGEX] [--usage STATE] [--sort KEY] [--reverse] [--count]",
	  "list lock classes",
	  "Lists the lock classes whose name matches the POSIX extended REGEX, with their id, FD, BD (forward and backward dependency counts, including the class itself, as /proc/lockdep defines them; from the export they are computed by lockdep's own search, which follows each class's list in order and stops at recursive-read hops, and since the order of the backward lists is not exported a BD can then differ from the kernel's), usage characters and OPS.  Usage states: hardirq-safe, hardirq-unsafe, softirq-safe, softirq-unsafe, their -read- variants, used, used-read, irq-safe, irq-unsafe, unused and uncategorized; a class whose state the source cannot tell is left out and counted on stderr.  /proc/lockdep shows only the irq states: a write (read) state there implies used (used-read), and a class shown as .... is unused when its OPS is 0 and unknown otherwise (the kernel keeps OPS per class slot, and a zapped class's slot is reused).",
	  ARG_REGEX, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_GRAPH), classes_opts, cmd_classes },
	{ "show", NULL, 1, 1, "CLASS", "everything known about one class",
	  "Prints the class's key, name parts, usage bits in words, FD/BD, wait types, its dependencies in both directions (with distance, type and stack where the source has them), usage traces, the chains that contain it and its lock_stat figures (or why there are none: no row, or a row whose cut name fits several classes).  What the source cannot tell is printed as unknown.  With -j, lockstat_match says which, in the words of 'lockstat -j': exact, none, ambiguous or unknown; key_static is false where the export prints '-' for the key (not a static object: a lockdep_register_key() key, or init data freed since boot), true where it gives a symbol or '?', null on /proc; wait_inner_name, wait_outer_name and lock_type_name name the numbers (inv, free, spin, config, sleep; an outer of 0 is same-as-inner; normal, percpu, wait-override), null when unknown or when a 3 may be config or sleep (config only with CONFIG_PROVE_RAW_LOCK_NESTING: the export's stats say so as prove_raw_lock_nesting, older exports only by a class with 4).",
	  ARG_CLASS, CMD_NEEDS_MODEL, NULL, cmd_show },
	{ "deps", NULL, 1, 1, "CLASS [--reverse] [--depth N]",
	  "dependencies of a class, as a tree",
	  "Prints the classes taken while CLASS is held (or, with --reverse, the classes held when CLASS is taken), N levels deep.  Each class's own dependencies are listed once, under its mention at the shallowest level it is reached at (its distance from CLASS); its other mentions, before or after that one, end in (*).",
	  ARG_CLASS, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_GRAPH) | CMD_JSON_STACKS, deps_opts, cmd_deps },
	{ "chains", NULL, 0, 1, "[CLASS] [--irq-context CTX] [--count]",
	  "lock chains, optionally those holding CLASS",
	  "Prints each recorded lock chain (the sequence of classes held, outermost first) with its irq context.  A lock whose class is not in the class list (a class registered between the reads of /proc/lockdep and /proc/lockdep_chains) is named as the chains file names it, marked (not in the class list); with -j its class id is null and its name given.",
	  ARG_CLASS, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_CHAINS), chains_opts, cmd_chains },
	{ "stats", NULL, 0, 0, "", "lockdep counters and capacity use",
	  "Prints every counter; each capacity as used/max and percent.  A warning line follows for each capacity above 80 percent, and a loud line when debug_locks is 0 (lockdep has turned itself off after a report).",
	  ARG_NONE, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_STATS), NULL, cmd_stats },
	{ "lockstat", NULL, 0, 0, "[--top N] [--sort KEY]",
	  "lock contention statistics (CONFIG_LOCK_STAT)",
	  "Prints /proc/lock_stat joined to the classes: full class names instead of the kernel's 37-character cut, times in microseconds.  Rows whose cut name fits several classes are marked so (\"cut name, several classes match\") and joined to none.  With -j each entry says how it was joined: match exact, ambiguous, none (no class prints that name) or unknown (no class list in the source, e.g. lock_stat alone).  A class taken by writers and by readers (an rwsem, an rwlock) has a write row and a read row, ranked together by their sum: --top N keeps N classes, not N rows, so it can print more than N rows, and a line under the table says how many classes it kept of how many (JSON: one entry per class, with write and read, and entries_total).  When no class had a single contention, a line says so: no contention recorded (JSON: contention_recorded).",
	  ARG_NONE, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_LOCKSTAT), lockstat_opts, cmd_lockstat },
	{ "dot", NULL, 0, 1, "[CLASS] [--depth N] [--reverse|--forward] | --path A B | --cycle ID | --report N [--log FILE]",
	  "Graphviz picture of the graph or of a class's neighbourhood",
	  "Writes a DOT digraph of the whole graph, or of the classes within N dependencies of CLASS in both directions: nodes are classes (ids c<N>, names in labels), coloured by irq usage (red hardirq-safe, orange softirq-safe, each paler when only read-safe (used in that irq context by readers alone), blue irq-unsafe, grey used in process context only (on stock files without OPS: or unused), white unused, dashed border when unknown); edges are dependencies, solid for exclusive (EN), dashed for ER/SN, dotted for shared-recursive (SR) only, grey where the type is unknown.  The output is sorted: the same input gives the same bytes.  With --path A B, --cycle ID or --report N: only the classes and dependencies of that path (as 'path' finds it), cycle (as 'cycles' names it) or report (as 'report' numbers it; a class the model lacks is coloured by the usage characters the report printed; an edge has its type where the model has that dependency, and the dependency lockdep was adding when it reported is red, thick and labelled new; the model is the one 'report' links: none for a --log FILE without -s).  With -j, the same picture as data: nodes are class objects (id, name, usage, fd, bd, as in 'classes') with kind (the colour's meaning), edges have from, to, type and distance (null, not empty, when the source has no dependencies) (with --report: from and to, the names the report printed, type where the model has that dependency, and new), or, with --path and --cycle, the full dependency objects of 'deps' (stacks included).",
	  ARG_CLASS, CMD_READS(LD_LOAD_GRAPH) | CMD_JSON_STACKS, dot_opts, cmd_dot },
	{ "save", NULL, 1, 1, "FILE", "write a snapshot file",
	  "Writes every file that was read, verbatim, with the kernel release, capture time and source paths, to FILE (\"-\" for standard output).  Saving a loaded snapshot reproduces it byte for byte.  A union (-s given several times) is saved as the snapshots it was made of (snapshot format 2); loading that file merges them again, the same way.  A regular FILE is written under a temporary name beside it and renamed into place when complete, so a failed save leaves it as it was; FILE may not be one of the files being saved.",
	  ARG_FILE, CMD_NEEDS_MODEL, NULL, cmd_save },
	{ "info", NULL, 0, 0, "", "where the data came from and what it lacks",
	  "Prints the source, kernel release, capture time, the files read, what each kind of data is known from, and the warnings raised while reading.",
	  ARG_NONE, CMD_NEEDS_MODEL, NULL, cmd_info },
	{ "help", NULL, 0, 1, "[COMMAND]", "list commands, or describe one",
	  "Without an argument lists the commands; with one, prints its usage and options.",
	  ARG_COMMAND, 0, NULL, cmd_help },
	/* issue 6 */
	{ "why", NULL, 2, 2, "A B [--max N]",
	  "why B can be taken while A is held",
	  "Lists every dependency A -> B lockdep recorded, with its type (SR/ER/SN/EN), distance and the stack that created it, and the chains holding both; without a direct dependency, the shortest path with each hop's stack.  With A and B the same class it lists the chains holding it twice (a nest_lock or recursive read: lockdep checks that as recursion, never records A -> A).  On stock /proc files (no stacks, no types) it says what is missing.  Exit 0 when A -> B is explained, 1 when lockdep knows no such order.",
	  ARG_CLASS, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_TRACES | LD_LOAD_CHAINS | LD_LOAD_STATS), why_opts, cmd_why },
	{ "path", NULL, 2, 2, "A B [--all] [--max N] [--length N]",
	  "shortest dependency path from A to B",
	  "Prints the shortest chain of dependencies A -> ... -> B with each hop's stack; with --all every simple path, shortest first, at most --max.  A list cut short says what cut it: --max (there are more paths), --length (there may be longer ones) or the search's work bound (every path of up to the number of hops it names is listed, there may be longer ones; also when it found none); JSON: truncated, stopped_by (max, length, work or null) and complete_up_to_length.  Where dependency types are known, paths follow lockdep's strong-path rule: a hop that can only end in a recursive read (-(*R)->) is never followed by one that can only start from a shared holder (-(S*)->); a path that exists only against that rule is shown as weak.  A path passes each class once: one that could be strong only by passing a class twice (reaching it as a recursive reader, going round a deadlock cycle, reaching it again exclusively) is not a deadlock path, and the shortest simple one is searched instead; should the search's work bound stop it first, that path is shown, marked undecided.  Types unknown (stock /proc) count as all four, so every path is strong.  Exit 0 when a (strong) path exists, 1 otherwise; when the work bound stops --all before it lists a path, the shortest-path search decides, and a line says a path exists all the same, or a walk passing a class twice (undecided); JSON: found, and beyond, the length of what that search found and whether it is simple (null when it did not decide).",
	  ARG_CLASS, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_TRACES | LD_LOAD_STATS), path_opts, cmd_path },
	{ "cycles", NULL, 0, 0, "[--max N] [--length N] [--weak] [--brief]",
	  "lock-order cycles (possible deadlocks)",
	  "Finds the strongly connected components of the dependency graph, then enumerates their simple cycles (bounded by --max, default 100, --length and a work limit).  A list that one of these bounds cut holds the shortest cycles: every cycle up to the length it names, and its count is not a total; it says which bound stopped it (JSON: truncated, stopped_by, complete_up_to_length).  Each cycle is reported once under a canonical id: its class names without the per-boot #N suffix, rotated to start at the smallest, hashed (cycle-XXXXXXXX), so the same cycle has one id in every boot; 'report' gives a circular-dependency report the same id.  Where types are known only strong cycles are deadlocks (the rule of 'path'); the others are counted (JSON weak_cycles: those the search met, a lower bound when it was cut short), and listed with --weak.  One boot's graph has no deadlock cycle, since lockdep refuses the dependency that closes one: give several snapshots (-s A -s B) to find inversions no single boot saw.  Exit 1 when a deadlock (strong) cycle exists, also when the weak ones filled the list --max cut.",
	  ARG_NONE, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_TRACES | LD_LOAD_STATS), cycles_opts, cmd_cycles },
	{ "irq-check", NULL, 0, 0, "[--max N] [--brief]",
	  "paths from irq-safe to irq-unsafe classes",
	  "Reports every pair of a hardirq-safe and a hardirq-unsafe class (and softirq-safe, softirq-unsafe) joined by a strong path, read variants included as lockdep's check_irq_usage() takes them: a read-safe class counts when the path can start with it held exclusively, a read-unsafe class when the path reaches it non-recursively; classes that are not normal locks (local_lock, wait-type overrides) are left out of the paths, and so is a class reaching itself (a deadlock cycle: see 'cycles').  Each pair comes with its shortest path (simple, as for 'path') and where the classes became safe and unsafe.  On a graph with a deadlock cycle (a union of snapshots), pairs joined only through one are dropped from the list; the totals count the pairs not listed without that check, and say so (--max 0 checks every pair).  Also lists classes that are both safe and unsafe for one irq (possible in a union of snapshots), of every lock type, as lockdep's valid_state() checks them.  Exit 1 when anything is found.",
	  ARG_NONE, CMD_NEEDS_MODEL | CMD_READS(LD_LOAD_TRACES | LD_LOAD_STATS), irq_check_opts, cmd_irq_check },
	{ "diff", NULL, 1, 2, "OLD [NEW] [--max N] [--brief]",
	  "what changed between two snapshots",
	  "Compares OLD with NEW (default: the current source, -s or the live kernel): classes added and removed, matched across boots as 'merge' explains, with the base names whose number of classes moved (a class leak); dependencies added, with their stacks, removed, and those whose types or distance changed (lockdep sets distance 1 when it sees a longer one directly; only where both sides list all distances); usage-bit transitions; chains per irq context; counters (those one side cannot tell are counted as not compared, never as changes); lock_stat.  A section one side lacks is printed as not compared, and then the result is 'no differences in what was compared'.  Exit 1 when anything differs.",
	  ARG_FILE, 0, diff_opts, cmd_diff },
	{ "report", NULL, 0, 1, "[FILE] [--brief]",
	  "lockdep reports in a kernel log, as records",
	  "Parses every lockdep report in FILE (default: the kernel log; - for standard input, on the command line only, since the shell and batch mode read their commands there): circular dependency, recursive locking, inconsistent lock state, safe -> unsafe order, irq lock inversion, invalid wait context, bad unlock balance, held lock freed, lock held at exit to user space, locks still held, nested lock not taken, bad contention, chain_key collision, suspicious RCU usage and the BUG: MAX_... too low! capacity reports.  Timestamps (dmesg's, -T, -d and --time-format=iso), log levels, dmesg -x prefixes, /dev/kmsg records, caller ids, journal prefixes, > quoting, lines of other CPUs between a report's lines, [inline] and file:line frames are understood.  A recursive report of a class with a lock comparison function (lock_set_cmp_fn()) gives what it returned (cmp_fn_result in -j).  A circular report lists the cycle in forward order with the stack of each hop and gets the canonical id of 'cycles'; the hop of the dependency lockdep was adding when it reported (held -> acquired: a circular report's hop into block #0, where a safe -> unsafe report's two sections join), which it then did not add, is marked [new: not added] (new in -j); when blocks of its dependency chain are missing (a log cut short), it has no cycle and no id rather than a made-up one; a safe -> unsafe or irq inversion report whose dependency sections were cut has the part of the path that was printed, marked (path_cut in -j).  Another splat inside a report (another CPU's ------------[ cut here ] or WARNING: CPU: ...), also inside its stack dump before </TASK>, is skipped up to its ---[ end trace ]---; without that end, the report is cut short where it began.  With -s, or when it reads the running kernel's log and that kernel has lockdep's files (the same boot; if they cannot be read, a warning says so and the reports stay unlinked), each class is linked to the model, also when the class's print function (lock_set_cmp_fn()) printed an instance after its name (\"&b->lock l=0 1:2\" is &b->lock; -j gives what follows the name as instance, null otherwise).  Exit 1 when a report is found.",
	  ARG_FILE, CMD_READS(LD_LOAD_GRAPH), report_opts, cmd_report },
	{ "merge", NULL, 0, MAX_SNAPSHOTS, "[PATH...] [--all]",
	  "the union of several snapshots, and how it matched classes",
	  "Every command runs on the union when -s is given more than once; this one shows how classes were matched across boots: by base name and subclass, then by key symbol where the export gives one (within one release), then, for the only class of that name on each side, whatever its #N (realigned); among several classes of one name, by the dependencies they share, else by #N order (a guess, counted).  Lists each class whose printed name or match is not exact (--all: every class).  It can be wrong where only #N order decided, for a class renamed between kernel versions, for a class whose own name ends in #N or /N (/proc cannot tell), and between classes of dynamic keys that share a name and their dependencies.  Dependencies are merged per pair of classes (types or-ed, the first stack kept, where each was seen shown by the analysis commands); counters and lock_stat are not combined.  save writes the union as the snapshots it was made of, which load as the same union.",
	  ARG_FILE, 0, merge_opts, cmd_merge },
	{ "quit", "exit", 0, 0, "", "leave the interactive shell",
	  "Leaves the interactive shell (end of input does too).", ARG_NONE,
	  CMD_REPL_ONLY, NULL, cmd_quit },
};

const unsigned int cmd_table_size = sizeof(cmd_table) / sizeof(cmd_table[0]);

const struct cmd_entry *cmd_lookup(const char *name, char *err, size_t size)
{
	const struct cmd_entry *found = NULL;
	char q[LD_QBUF];
	size_t len = strlen(name), o;
	unsigned int i, nr = 0;

	for (i = 0; i < cmd_table_size; i++)
		if (!strcmp(cmd_table[i].name, name) ||
		    (cmd_table[i].alias && !strcmp(cmd_table[i].alias, name)))
			return &cmd_table[i];
	for (i = 0; len && i < cmd_table_size; i++) {
		if (!strncmp(cmd_table[i].name, name, len)) {
			found = &cmd_table[i];
			nr++;
		}
	}
	if (nr == 1)
		return found;
	if (!nr) {
		snprintf(err, size, "unknown command: %s (try 'help')",
			 ld_quote(name, len, q, sizeof(q)));
		return NULL;
	}
	o = snprintf(err, size, "ambiguous command: %s, could be:",
		     ld_quote(name, len, q, sizeof(q)));
	for (i = 0; i < cmd_table_size && o < size; i++)
		if (!strncmp(cmd_table[i].name, name, len))
			o += snprintf(err + o, size - o, "%s %s",
				      o && err[o - 1] != ':' ? "," : "",
				      cmd_table[i].name);
	return NULL;
}

int cmd_planned(struct ctx *ctx, struct cmd_args *a)
{
	(void)a;
	err_msg("%s: not implemented yet", ctx->cmd->name);
	return EXIT_USAGE;
}

int cmd_quit(struct ctx *ctx, struct cmd_args *a)
{
	(void)a;
	ctx->quit = true;
	return EXIT_OK;
}

/* "a, b, c": an option's allowed values, for the error that refuses one */
static const char *join_values(char *buf, size_t size,
			       const char *const *v)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; v[k] && n < size; k++)
		n += snprintf(buf + n, size - n, "%s%s", k ? ", " : "", v[k]);
	return buf;
}

static const struct cmd_opt *find_opt(const struct cmd_entry *cmd,
				      const char *name, size_t len,
				      char short_name, int *idx)
{
	int i;

	for (i = 0; cmd->opts && cmd->opts[i].name; i++) {
		const struct cmd_opt *o = &cmd->opts[i];

		if ((short_name && o->short_name == short_name) ||
		    (!short_name && strlen(o->name) == len &&
		     !strncmp(o->name, name, len))) {
			*idx = i;
			return o;
		}
	}
	return NULL;
}

int cmd_run(struct ctx *ctx, int argc, char **argv)
{
	const struct cmd_entry *cmd;
	struct cmd_args a;
	char err[256], q[LD_QBUF];
	bool dashdash = false;
	int i, ret;

	if (argc < 1)
		return EXIT_OK;
	cmd = cmd_lookup(argv[0], err, sizeof(err));
	if (!cmd)
		return usage_error(ctx, "%s", err);
	ctx->cmd = cmd;
	if ((cmd->flags & CMD_REPL_ONLY) && ctx->one_command &&
	    !(argc == 2 && (!strcmp(argv[1], "--help") ||
			    !strcmp(argv[1], "-h"))))
		return usage_error(ctx, "only in the interactive shell");
	memset(&a, 0, sizeof(a));
	a.argv = calloc(argc, sizeof(char *));
	if (!a.argv) {
		err_msg("out of memory");
		return EXIT_DATA;
	}
	for (i = 1; i < argc; i++) {
		char *s = argv[i], *eq = NULL, *val = NULL;
		const struct cmd_opt *o;
		int idx;

		if (dashdash || s[0] != '-' || !s[1] ||
		    (s[1] >= '0' && s[1] <= '9')) {
			a.argv[a.argc++] = s;
			continue;
		}
		if (!strcmp(s, "--")) {
			dashdash = true;
			continue;
		}
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			free(a.argv);
			return show_help(ctx, cmd);
		}
		if (s[1] == '-') {
			eq = strchr(s + 2, '=');
			o = find_opt(cmd, s + 2,
				     eq ? (size_t)(eq - s - 2) : strlen(s + 2),
				     0, &idx);
			if (eq)
				val = eq + 1;
		} else {
			o = find_opt(cmd, NULL, 0, s[1], &idx);
			/* -d3 is -d 3, as getopt takes it; flags stand alone */
			if (o && s[2]) {
				if (o->arg)
					val = s + 2;
				else
					o = NULL;
			}
		}
		if (!o) {
			free(a.argv);
			return usage_error(ctx, "unknown option '%s'",
					   ld_quote(s, strlen(s), q,
						    sizeof(q)));
		}
		if (a.set[idx]) {
			free(a.argv);
			return usage_error(ctx, "option '--%s' given twice",
					   o->name);
		}
		if (!o->arg) {
			if (val) {
				free(a.argv);
				return usage_error(
					ctx, "option '--%s' takes no value",
					o->name);
			}
			a.set[idx] = true;
			continue;
		}
		if (val) {
			a.val[idx] = val;
		} else if (i + 1 < argc) {
			a.val[idx] = argv[++i];
		} else {
			free(a.argv);
			return usage_error(ctx,
					   "option '--%s' needs a value (%s)",
					   o->name, o->arg);
		}
		if (o->values) {
			int k;

			for (k = 0; o->values[k]; k++)
				if (!strcmp(o->values[k], a.val[idx]))
					break;
			if (!o->values[k]) {
				char list[512];

				free(a.argv);
				return usage_error(
					ctx, "bad value '%s' for --%s (one of: %s)",
					ld_quote(a.val[idx], strlen(a.val[idx]),
						 q, sizeof(q)),
					o->name,
					join_values(list, sizeof(list),
						    o->values));
			}
		}
		a.set[idx] = true;
	}
	if (a.argc < cmd->min_args || a.argc > cmd->max_args) {
		free(a.argv);
		return usage_error(ctx, "%s arguments",
				   a.argc < cmd->min_args ? "missing" :
							    "too many");
	}
	ret = EXIT_OK;
	if (cmd->flags & CMD_NEEDS_MODEL)
		ret = cmd_model(ctx);
	if (ret == EXIT_OK)
		ret = cmd->exec(ctx, &a);
	free(a.argv);
	return ret;
}

int cmd_model(struct ctx *ctx)
{
	const struct cmd_entry *cmd = ctx->cmd;
	int ret = ctx_model(ctx);

	if (ret == EXIT_OK &&
	    (cmd->arg_kind == ARG_CLASS || cmd->arg_kind == ARG_REGEX) &&
	    !ctx->m->have.classes) {
		err_msg("%s: no class list in this source (only counters or lock_stat were read)",
			cmd->name);
		ret = EXIT_DATA;
	}
	return ret;
}

bool opt_uint(struct ctx *ctx, struct cmd_args *a, int idx, const char *name,
	      unsigned long max, unsigned long *v, int *ret)
{
	char *end, q[LD_QBUF];
	unsigned long x;

	if (!a->set[idx])
		return true;
	errno = 0;
	x = strtoul(a->val[idx], &end, 10);
	/* strtoul() would take leading blanks and signs */
	if (a->val[idx][0] < '0' || a->val[idx][0] > '9' || *end || errno ||
	    x > max) {
		*ret = usage_error(
			ctx, "--%s wants a number from 0 to %lu, got '%s'",
			name, max,
			ld_quote(a->val[idx], strlen(a->val[idx]), q,
				 sizeof(q)));
		return false;
	}
	*v = x;
	return true;
}

void cmd_free_argv(char **argv, int argc)
{
	int i;

	for (i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
}

int cmd_split(const char *line, char ***argvp, int *argcp, char *err,
	      size_t size)
{
	size_t len = strlen(line), o;
	char **argv = NULL, *buf, *word;
	int argc = 0;
	const char *p = line;

	*argvp = NULL;
	*argcp = 0;
	/* each word is built here, then copied at its own size */
	buf = malloc(len + 1);
	if (!buf)
		goto nomem;
	for (;;) {
		char quote = 0;
		char **nv;

		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		o = 0;
		for (; *p; p++) {
			if (quote) {
				if (*p == quote) {
					quote = 0;
				} else if (quote == '"' && *p == '\\' &&
					   (p[1] == '"' || p[1] == '\\')) {
					buf[o++] = *++p;
				} else {
					buf[o++] = *p;
				}
				continue;
			}
			if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
				break;
			if (*p == '\'' || *p == '"') {
				quote = *p;
			} else if (*p == '\\' && p[1] && p[1] != '\n' &&
				   p[1] != '\r') {
				buf[o++] = *++p;
			} else {
				buf[o++] = *p;
			}
		}
		if (quote) {
			free(buf);
			cmd_free_argv(argv, argc);
			snprintf(err, size, "unterminated %c quote", quote);
			return -1;
		}
		buf[o] = '\0';
		word = strdup(buf);
		nv = word ? realloc(argv, (argc + 2) * sizeof(char *)) : NULL;
		if (!nv) {
			free(word);
			goto nomem;
		}
		argv = nv;
		argv[argc++] = word;
		argv[argc] = NULL;
	}
	free(buf);
	*argvp = argv;
	*argcp = argc;
	return 0;
nomem:
	free(buf);
	cmd_free_argv(argv, argc);
	snprintf(err, size, "out of memory");
	return -1;
}
