/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the command table shared by the command line, the REPL, batch
 * mode, `help` and the man page, and the context commands run in.
 */
#ifndef LDT_CMD_H
#define LDT_CMD_H

#include <stdbool.h>
#include <stdio.h>

#include "lockdep_model.h"
#include "out.h"

#define TOOL_NAME "lockdep-tool"
#define TOOL_VERSION "0.1"

/* Exit codes (documented in the man page) */
enum {
	EXIT_OK = 0,
	EXIT_FOUND = 1, /* differences or problems found */
	EXIT_USAGE = 2,
	EXIT_DATA = 3, /* data or I/O error */
};

#define MAX_OPTS 8
#define MAX_SNAPSHOTS 16

struct cmd_opt {
	const char *name; /* "depth" for --depth */
	char short_name; /* 'd' for -d, or 0 */
	const char *arg; /* "N"; NULL for a flag */
	const char *const *values; /* allowed values, NULL-terminated */
	const char *help;
};

enum arg_kind {
	ARG_NONE,
	ARG_CLASS,
	ARG_REGEX,
	ARG_FILE,
	ARG_COMMAND,
};

enum {
	CMD_NEEDS_MODEL = 1 << 0, /* cmd_model() before it runs */
	CMD_PLANNED = 1 << 1, /* in the table, not implemented yet */
	CMD_REPL_ONLY = 1 << 2,
	CMD_JSON_STACKS = 1 << 3, /* -j output carries stacks: LD_LOAD_TRACES */
};
/*
 * CMD_READS(LD_LOAD_...): what the command looks at, so that when it is
 * the only one to run (a command line) the rest is not read.  Without it
 * a load reads everything.  LOCKDEP_TOOL_LOAD_ALL in the environment
 * reads everything anyway: the tests compare both.
 */
#define CMD_READS_SHIFT 8
#define CMD_READS(what) ((what) << CMD_READS_SHIFT)

struct ctx;
struct cmd_args;

struct cmd_entry {
	const char *name;
	const char *alias;
	int min_args, max_args; /* positional arguments */
	const char *usage; /* after the name */
	const char *summary; /* one line */
	const char *help; /* paragraph for help and man page */
	enum arg_kind arg_kind; /* what positionals complete to */
	unsigned int flags;
	const struct cmd_opt *opts; /* NULL-name terminated */
	int (*exec)(struct ctx *ctx, struct cmd_args *a);
};

struct cmd_args {
	int argc;
	char **argv; /* positionals */
	const char *val[MAX_OPTS]; /* option values by index */
	bool set[MAX_OPTS];
};

struct ctx {
	struct ld_model *m;
	const char *snapshots[MAX_SNAPSHOTS];
	int nr_snapshots;
	const char *root; /* --sysroot, for tests */
	bool json, pretty;
	bool warned; /* load warnings printed */
	bool quit; /* REPL: quit requested */
	bool one_command; /* from the command line: load what it reads */
	FILE *out;
	const struct cmd_entry *cmd; /* running command */
};

extern const struct cmd_entry cmd_table[];
extern const unsigned int cmd_table_size;

/* Exact name or alias, then unique prefix; NULL with a message. */
const struct cmd_entry *cmd_lookup(const char *name, char *err, size_t size);
/* Run argv[0] with its arguments; returns an exit code. */
int cmd_run(struct ctx *ctx, int argc, char **argv);
/* Split a line like a shell: quotes, backslashes, # comments. */
int cmd_split(const char *line, char ***argvp, int *argcp, char *err,
	      size_t size);
void cmd_free_argv(char **argv, int argc);

/* Helpers for commands */
int ctx_model(struct ctx *ctx); /* load once; EXIT_* */
/* The same, quiet: what went wrong in @d (EXIT_DATA) */
int ctx_model_try(struct ctx *ctx, struct ld_diag *d);
/*
 * What CMD_NEEDS_MODEL does before a command runs: ctx_model(), and a
 * class list for a command on classes.  For a command that needs the
 * model only for some of its options (dot: not for --report).
 */
int cmd_model(struct ctx *ctx);
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool env_flag(const char *name);
/* "lockdep-tool: error: [<stdin>:N: ]COMMAND: " */
void err_prefix(struct ctx *ctx);
int usage_error(struct ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* EXIT_USAGE (said) if @path is where the commands come from */
int refuse_command_stream(struct ctx *ctx, const char *what,
			  const char *path);
/* Resolve a class argument (name, or @ID); EXIT_OK or an error code. */
int resolve_class(struct ctx *ctx, const char *arg, uint32_t *id);
bool opt_uint(struct ctx *ctx, struct cmd_args *a, int idx, const char *name,
	      unsigned long max, unsigned long *v, int *ret);

/* Renderers shared between commands */
/* The members every class object has (id, name, usage, fd, bd), open */
void json_class_open(struct jw *w, const struct ld_model *m, uint32_t c);
void json_class(struct jw *w, const struct ld_model *m, uint32_t c, bool brief);
void json_usage(struct jw *w, const struct ld_class *c);
void text_num(FILE *f, int width, struct ld_num n);
const char *irq_ctx_word(unsigned int ctx);
/* A trace known to be there or not: frames, or [] when none was saved */
void json_trace(struct jw *w, const struct ld_model *m, uint32_t t);
/* Usage trace @bit of class @c: as json_trace(), null when unknown */
void json_usage_trace(struct jw *w, const struct ld_model *m, uint32_t c,
		      unsigned int bit);
/* Why usage trace @bit of class @c has no frames to print; NULL: it has */
const char *usage_trace_gap(const struct ld_model *m, uint32_t c,
			    unsigned int bit);
void json_dep(struct jw *w, const struct ld_model *m, uint32_t d);
void json_chain(struct jw *w, const struct ld_model *m, uint32_t i);
void json_lockstat(struct jw *w, const struct ld_model *m, uint32_t i);
void text_chain(FILE *f, const struct ld_model *m, uint32_t i);
void text_trace(FILE *f, const struct ld_model *m, uint32_t t,
		const char *indent);
const char *fmt_us(int64_t v, char *buf, size_t size);
/* irq colour class for DOT and text */
const char *class_irq_kind(const struct ld_class *c);
/*
 * Why @m has no data of a kind that /proc keeps in @proc_file and the
 * export in @ex_file: the file is not in the source, or the kernel did
 * not keep it.  A static buffer.
 */
const char *missing_why(const struct ld_model *m, const char *proc_file,
			const char *ex_file);

/* Help and man page from the table */
void print_help(FILE *f, const struct cmd_entry *cmd);
int show_help(struct ctx *ctx, const struct cmd_entry *cmd);
void print_man(FILE *f);
void print_main_usage(FILE *f);

int cmd_classes(struct ctx *ctx, struct cmd_args *a);
int cmd_show(struct ctx *ctx, struct cmd_args *a);
int cmd_deps(struct ctx *ctx, struct cmd_args *a);
int cmd_chains(struct ctx *ctx, struct cmd_args *a);
int cmd_stats(struct ctx *ctx, struct cmd_args *a);
int cmd_lockstat(struct ctx *ctx, struct cmd_args *a);
int cmd_dot(struct ctx *ctx, struct cmd_args *a);
int cmd_save(struct ctx *ctx, struct cmd_args *a);
int cmd_info(struct ctx *ctx, struct cmd_args *a);
int cmd_help(struct ctx *ctx, struct cmd_args *a);
int cmd_quit(struct ctx *ctx, struct cmd_args *a);
int cmd_planned(struct ctx *ctx, struct cmd_args *a);
/* issue 6 */
int cmd_why(struct ctx *ctx, struct cmd_args *a);
int cmd_path(struct ctx *ctx, struct cmd_args *a);
int cmd_cycles(struct ctx *ctx, struct cmd_args *a);
int cmd_irq_check(struct ctx *ctx, struct cmd_args *a);
int cmd_diff(struct ctx *ctx, struct cmd_args *a);
int cmd_report(struct ctx *ctx, struct cmd_args *a);
int cmd_merge(struct ctx *ctx, struct cmd_args *a);
/* dot --path/--cycle/--report (dot_focus.c), with cmd_dot.c's styles */
int dot_focus(struct ctx *ctx, struct cmd_args *a, const char *path_from,
	      const char *cycle, const char *report, const char *log);
const char *node_attrs(const struct ld_class *c);
const char *edge_attrs(const struct ld_dep *d);
void dot_legend(FILE *f);
const char *ls_match_name(enum ld_ls_match match);

/* REPL (repl.c, the only user of readline) */
int repl_run(struct ctx *ctx);

#endif /* LDT_CMD_H */
