// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_help.c - `help` and the man page, both generated from the command
 * table so that they cannot drift from what the tool accepts.
 * lockdep-tool.8 is the output of `lockdep-tool --man-page`; the tests
 * fail when the checked-in page is stale.
 */
#include <string.h>

#include "cmd.h"

static void wrap(FILE *f, const char *text, int indent, int width)
{
	const char *p = text;
	int col = 0;

	while (*p) {
		const char *w = p;
		int len;

		while (*p && *p != ' ')
			p++;
		len = p - w;
		if (col && col + 1 + len > width) {
			fputc('\n', f);
			col = 0;
		}
		if (!col) {
			fprintf(f, "%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fwrite(w, 1, len, f);
		col += len;
		while (*p == ' ')
			p++;
	}
	if (col)
		fputc('\n', f);
}

static void opt_text(char *buf, size_t size, const struct cmd_opt *o)
{
	if (o->short_name)
		snprintf(buf, size, "-%c, --%s%s%s", o->short_name, o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(buf, size, "    --%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

void print_help(FILE *f, const struct cmd_entry *cmd)
{
	unsigned int i;
	char buf[64];

	if (cmd) {
		fprintf(f, "usage: " TOOL_NAME " %s%s%s\n", cmd->name,
			*cmd->usage ? " " : "", cmd->usage);
		if (cmd->alias)
			fprintf(f, "alias: %s\n", cmd->alias);
		fprintf(f, "%s\n\n", cmd->summary);
		wrap(f, cmd->help, 2, 78);
		if (cmd->opts && cmd->opts[0].name) {
			fputs("\noptions:\n", f);
			for (i = 0; cmd->opts[i].name; i++) {
				opt_text(buf, sizeof(buf), &cmd->opts[i]);
				fprintf(f, "  %-22s %s\n", buf,
					cmd->opts[i].help);
			}
		}
		return;
	}
	fputs("commands:\n", f);
	for (i = 0; i < cmd_table_size; i++)
		if (!(cmd_table[i].flags & CMD_PLANNED))
			fprintf(f, "  %-10s %s\n", cmd_table[i].name,
				cmd_table[i].summary);
	for (i = 0; i < cmd_table_size; i++)
		if (cmd_table[i].flags & CMD_PLANNED)
			break;
	if (i < cmd_table_size) {	/* issue 6: none are left */
		fputs("planned (not implemented yet):", f);
		for (i = 0; i < cmd_table_size; i++)
			if (cmd_table[i].flags & CMD_PLANNED)
				fprintf(f, " %s", cmd_table[i].name);
		fputc('\n', f);
	}
	fputs("\nA command may be abbreviated to a unique prefix.  CLASS is a class name as\n"
	      "the kernel prints it (with #N and /N, a control character as \\xNN as this\n"
	      "tool prints it), or @ID.  'help COMMAND' for details.\n"
	      "Global options: -j/--json, -p/--pretty, -s/--snapshot PATH.\n"
	      "Exit codes: 0 ok, 1 problems found, 2 usage, 3 data or I/O error.\n",
	      f);
}

/* `help [CMD]` and `CMD --help`: text, or with -j the same as data */
int show_help(struct ctx *ctx, const struct cmd_entry *cmd)
{
	if (ctx->json) {
		struct jw w;
		unsigned int i, k;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "help");
		jw_key(&w, "commands");
		jw_arr_start(&w);
		for (i = 0; i < cmd_table_size; i++) {
			const struct cmd_entry *c = &cmd_table[i];

			if (cmd && c != cmd)
				continue;
			jw_obj_start(&w);
			jw_kstr(&w, "name", c->name);
			jw_key(&w, "alias");
			if (c->alias)
				jw_str(&w, c->alias);
			else
				jw_null(&w);
			jw_kstr(&w, "usage", c->usage);
			jw_kstr(&w, "summary", c->summary);
			jw_kbool(&w, "implemented", !(c->flags & CMD_PLANNED));
			jw_key(&w, "options");
			jw_arr_start(&w);
			for (k = 0; c->opts && c->opts[k].name; k++) {
				jw_obj_start(&w);
				jw_kstr(&w, "name", c->opts[k].name);
				jw_key(&w, "arg");
				if (c->opts[k].arg)
					jw_str(&w, c->opts[k].arg);
				else
					jw_null(&w);
				jw_kstr(&w, "help", c->opts[k].help);
				jw_obj_end(&w);
			}
			jw_arr_end(&w);
			jw_obj_end(&w);
		}
		jw_arr_end(&w);
		jw_doc_end(&w);
		return EXIT_OK;
	}
	print_help(ctx->out, cmd);
	return EXIT_OK;
}

int cmd_help(struct ctx *ctx, struct cmd_args *a)
{
	const struct cmd_entry *cmd = NULL;
	char err[256];

	if (a->argc) {
		cmd = cmd_lookup(a->argv[0], err, sizeof(err));
		if (!cmd) {
			err_msg("%s", err);
			return EXIT_USAGE;
		}
	}
	return show_help(ctx, cmd);
}

/* roff: escape backslashes, dashes and a leading dot or quote */
static void roff(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* FONT ("\\fB" bold, "\\fI" italic, and text in it), S, then roman again */
static void roff_font(FILE *f, const char *font, const char *s)
{
	fputs(font, f);
	roff(f, s);
	fputs("\\fR", f);
}

/* "Reads ..." for a command run alone (CMD_READS in cmd.h) */
static void man_reads(FILE *f, unsigned int flags)
{
	static const char *const kinds[] = {
		"graph", "stacks", "chains", "counters", "lock_stat",
	};
	unsigned int what = ld_load_what(flags >> CMD_READS_SHIFT), k, n = 0;

	if (what == LD_LOAD_ALL)
		return;
	fputs("Run alone, reads only the ", f);
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (!(what & (1u << k)))
			continue;
		if (n++)
			fputs(what >> (k + 1) ? ", " : " and ", f);
		fputs(kinds[k], f);
	}
	if (flags & CMD_JSON_STACKS)
		fputs(" (with \\fB\\-j\\fR, the stacks too)", f);
	fputs(".\n", f);
}

void print_man(FILE *f)
{
	unsigned int i, k;

	fputs(".\\\" Generated by lockdep-tool --man-page from the command table.\n"
	      ".\\\" Do not edit: change lockdep-tool/cmds.c and run make -C lockdep-tool man.\n"
	      ".TH LOCKDEP-TOOL 8 \"\" \"lockdep-tool " TOOL_VERSION
	      "\" \"System Administration\"\n"
	      ".SH NAME\nlockdep\\-tool \\- inspect the Linux lock dependency validator's state\n"
	      ".SH SYNOPSIS\n"
	      ".B lockdep\\-tool\n[\\fB\\-j\\fR|\\fB\\-\\-json\\fR] [\\fB\\-p\\fR|\\fB\\-\\-pretty\\fR] "
	      "[\\fB\\-s\\fR|\\fB\\-\\-snapshot\\fR \\fIPATH\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]\n.br\n"
	      ".B lockdep\\-tool\n[\\fB\\-s\\fR \\fIPATH\\fR]\n"
	      ".SH DESCRIPTION\n"
	      "\\fBlockdep\\-tool\\fR reads what lockdep knows \\(em lock classes, dependencies, "
	      "chains, counters, lock statistics, stack traces \\(em into one model and answers "
	      "questions about it.  The source is the live kernel (the debugfs export in "
	      "\\fI/sys/kernel/debug/lockdep/\\fR if present and readable (lockdown may forbid it), else \\fI/proc/lockdep\\fR, "
	      "\\fI/proc/lockdep_chains\\fR, \\fI/proc/lockdep_stats\\fR and \\fI/proc/lock_stat\\fR), "
	      "a snapshot directory holding copies of those files under their kernel names, "
	      "a copy of the debugfs directory, a single copied file (of the debugfs export only \\fIclasses\\fR "
	      "or \\fIstats\\fR: the others are read with their directory), or a snapshot file written by \\fBsave\\fR.\n"
	      ".PP\nWith a command, runs it and exits.  Without one, and with a terminal on standard input, "
	      "starts an interactive shell (history, tab completion of commands, options and class names).  "
	      "Without a terminal, reads one command per line from standard input, prints no prompt and "
	      "stops at the first command that fails (exit status 2 or 3), exiting with its status, "
	      "or quietly when standard output is a pipe nobody reads any more (exit status so far).  "
	      "There, and in the shell, a file that is standard input itself (\\fI/dev/stdin\\fR, a FIFO "
	      "feeding the commands) is refused as a snapshot or a log, since reading it would eat the "
	      "commands; a regular file redirected to standard input may be named.\n"
	      ".PP\nA command may be abbreviated to a unique prefix.  \\fICLASS\\fR is a class name exactly "
	      "as the kernel prints it, including \\fB#\\fR\\fIN\\fR and \\fB/\\fR\\fIN\\fR suffixes, "
	      "or \\fB@\\fR\\fIID\\fR with the id that \\fBclasses\\fR prints.  An unknown name lists close "
	      "candidates.  Arguments are split like a shell splits them: quote names with spaces.\n"
	      ".PP\nValues a source does not provide are printed as \\fB\\-\\fR (text) or \\fBnull\\fR (JSON), "
	      "never as zero: the stock /proc files have no stack traces, no dependency types and no "
	      "entries of distance greater than one; without CONFIG_PROVE_LOCKING there are no FD/BD, "
	      "usage bits, dependencies or chains; \\fBinfo\\fR says what the loaded data lacks.\n"
	      ".PP\nA command given on the command line whose entry below says \\(lqRun alone, reads "
	      "only\\(rq reads only those kinds of data (the graph \\(em classes, usage bits and "
	      "dependencies \\(em, stacks, chains, counters, lock_stat): \\fBstats\\fR reads the "
	      "counters alone, not the tens of MiB of classes and chains of a big kernel, and a damaged "
	      "file that a command does not read does not stop it (but a FIFO or a device in place of a "
	      "file stops every command: only regular files are read from a directory; and so does a "
	      "set of files that is not a source, such as lock chains without /proc/lockdep or export "
	      "files without \\fIclasses\\fR).  The other "
	      "commands, the interactive shell, batch mode and a union of snapshots read everything.\n"
	      ".SH OPTIONS\n"
	      ".TP\n\\fB\\-j\\fR, \\fB\\-\\-json\\fR\nJSON output, one document per command on one line.\n"
	      ".TP\n\\fB\\-p\\fR, \\fB\\-\\-pretty\\fR\nIndented JSON (implies \\fB\\-j\\fR).\n"
	      ".TP\n\\fB\\-s\\fR, \\fB\\-\\-snapshot\\fR \\fIPATH\\fR\nRead a snapshot directory, a single file or a snapshot file instead of the live kernel.\n"
	      ".TP\n\\fB\\-\\-sysroot\\fR \\fIDIR\\fR\nPrefix every live path with \\fIDIR\\fR (for tests); the kernel log is then \\fIDIR\\fR/dev/kmsg, read as a file.\n"
	      ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nList the commands.  \\fICOMMAND\\fR \\fB\\-\\-help\\fR describes one.\n"
	      ".TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nPrint the version.\n"
	      ".TP\n\\fB\\-\\-man\\-page\\fR\nPrint this page.\n"
	      ".SH COMMANDS\n",
	      f);
	for (i = 0; i < cmd_table_size; i++) {
		const struct cmd_entry *c = &cmd_table[i];

		if (c->flags & CMD_PLANNED)
			continue;
		fputs(".TP\n", f);
		roff_font(f, "\\fB", c->name);
		if (*c->usage) {
			fputc(' ', f);
			roff(f, c->usage);
		}
		fputc('\n', f);
		roff(f, c->help);
		fputc('\n', f);
		man_reads(f, c->flags);
		if (c->alias) {
			fputs("Alias: ", f);
			roff_font(f, "\\fB", c->alias);
			fputs(".\n", f);
		}
		for (k = 0; c->opts && c->opts[k].name; k++) {
			const struct cmd_opt *o = &c->opts[k];

			fputs(".RS\n.TP\n", f);
			if (o->short_name)
				fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
			roff_font(f, "\\fB\\-\\-", o->name);
			if (o->arg) {
				fputc(' ', f);
				roff_font(f, "\\fI", o->arg);
			}
			fputc('\n', f);
			roff(f, o->help);
			fputs("\n.RE\n", f);
		}
	}
	for (i = k = 0; i < cmd_table_size; i++) {
		if (!(cmd_table[i].flags & CMD_PLANNED))
			continue;
		fputs(k++ ? " " :
			    ".PP\nPlanned, accepted as names but not implemented yet: ",
		      f);
		roff_font(f, "\\fB", cmd_table[i].name);
	}
	fputs(k ? ".\n" : "", f);
	fputs(".SH JSON OUTPUT\n"
	      "Every command accepts \\fB\\-j\\fR.  Each document is an object with "
	      "\\fBformat_version\\fR (currently 1) and \\fBcommand\\fR.  A class object carries at least "
	      "\\fBid\\fR, \\fBname\\fR, \\fBusage\\fR (array of state words such as \\fBhardirq\\-safe\\fR), "
	      "\\fBusage_unknown\\fR (the states the source cannot tell), \\fBfd\\fR and \\fBbd\\fR; "
	      "a dependency object \\fBfrom\\fR and \\fBto\\fR (class ids), \\fBdistance\\fR and \\fBtype\\fR "
	      "(null when unknown) and \\fBtrace\\fR, the stack that created it: an array of frames, [] when "
	      "the kernel saved none, null when unknown (no stacks in the source, or an id not in its traces "
	      "file); usage traces likewise.  \\fBcycles\\fR, \\fBirq\\-check\\fR, \\fBpath\\fR, \\fBwhy\\fR and \\fBinfo\\fR "
	      "carry \\fBdebug_locks\\fR: 0 when lockdep had turned itself off (its graph stops at its first report: "
	      "the text says so too), null when the source has no counters.  "
	      "lock_stat times are numbers of microseconds with two decimals.  "
	      "JSON carries raw values, text carries human ones.  Control characters are escaped "
	      "and bytes that are not UTF\\-8 become U+FFFD.\n"
	      ".SH SNAPSHOT FILE\n"
	      "Text: a line \\fBlockdep\\-tool snapshot 1\\fR, then \\fBrelease\\fR, \\fBcaptured\\fR (UTC) and "
	      "\\fBorigin\\fR lines, then for each file read a line \\fBsection\\fR \\fINAME\\fR \\fISIZE\\fR "
	      "\\fIPATH\\fR followed by the file's bytes verbatim and a newline, and a final \\fBend\\fR line.  "
	      "\\fBSOURCE_DATE_EPOCH\\fR, when set, replaces the capture time of a live source (a snapshot "
	      "keeps its own; a directory of copies has none).\n"
	      ".SH EXIT STATUS\n"
	      ".TP\n0\nSuccess.\n"
	      ".TP\n1\nA check found problems or a comparison found differences.\n"
	      ".TP\n2\nUsage error: unknown command or option, bad argument, unknown or ambiguous class.\n"
	      ".TP\n3\nData or I/O error: unreadable, malformed or missing input, write error.\n"
	      ".PP\nErrors are printed as \\fBlockdep\\-tool: error: \\fR\\fIFILE\\fR\\fB:\\fR\\fILINE\\fR\\fB: \\fR\\fIwhat\\fR "
	      "when they concern an input file.\n"
	      ".SH ENVIRONMENT\n"
	      ".TP\n\\fBLOCKDEP_TOOL_HISTORY\\fR\nThe interactive shell's history file; empty: none.\n"
	      ".TP\n\\fBLOCKDEP_TOOL_TIMING\\fR\nWhen set (not empty, not 0), print to standard error where the load's time went "
	      "(\\fBtime load:\\fR\\fIphase\\fR \\fIms\\fR\\fB ms\\fR, then the total and the anonymous memory held; "
	      "a phase named \\fB(2nd thread)\\fR ran beside the others and is not in the total) "
	      "and, in batch mode, the time of each command (\\fBtime\\fR \\fIcommand\\fR \\fIms\\fR\\fB ms\\fR).\n"
	      ".TP\n\\fBLOCKDEP_TOOL_LOAD_ALL\\fR\nWhen set (not empty, not 0), a command on the command line reads everything, "
	      "as the shell does (the tests compare both).\n"
	      ".TP\n\\fBSOURCE_DATE_EPOCH\\fR\nReplaces the capture time that \\fBsave\\fR writes for a live source.\n"
	      ".SH FILES\n"
	      ".TP\n\\fI/proc/lockdep\\fR, \\fI/proc/lockdep_chains\\fR, \\fI/proc/lockdep_stats\\fR, \\fI/proc/lock_stat\\fR\n"
	      "The stock files (root only).\n"
	      ".TP\n\\fI/sys/kernel/debug/lockdep/\\fR\nThe debugfs export: classes, deps, traces, usage, chains, stats.\n"
	      ".TP\n\\fI~/.lockdep_tool_history\\fR\nHistory of the interactive shell (\\fBLOCKDEP_TOOL_HISTORY\\fR overrides).\n"
	      ".SH EXAMPLES\n"
	      ".nf\n"
	      "lockdep\\-tool classes \\-\\-usage hardirq\\-safe \\-\\-sort bd\n"
	      "lockdep\\-tool show '&rq\\->__lock'\n"
	      "lockdep\\-tool deps cpu_hotplug_lock \\-\\-depth 3\n"
	      "lockdep\\-tool dot '&rq\\->__lock' \\-\\-depth 2 | dot \\-Tsvg > rq.svg\n"
	      "mkdir s; cp /proc/lockdep* /proc/lock_stat s/; lockdep\\-tool \\-s s stats\n"
	      "lockdep\\-tool save boot1.snap; lockdep\\-tool \\-s boot1.snap \\-j classes | jq .\n"
	      "printf 'stats\\enlockstat \\-\\-top 5\\en' | lockdep\\-tool \\-s boot1.snap\n"
	      ".fi\n"
	      ".SH SEE ALSO\n"
	      "The kernel's Documentation/locking/lockdep\\-design.rst and lockstat.rst.\n",
	      f);
}
