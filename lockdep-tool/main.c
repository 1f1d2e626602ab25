// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - lockdep-tool: global options, the source of the model, and the
 * three ways to run commands (one from the command line, a REPL on a
 * terminal, batch from a pipe).  The only place that decides exit codes.
 */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "cmd.h"
#include "merge.h"

static const char *batch_where; /* "<stdin>:N" while in batch mode */

void err_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(TOOL_NAME ": error: ", stderr);
	if (batch_where)
		fprintf(stderr, "%s: ", batch_where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(TOOL_NAME ": warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void err_prefix(struct ctx *ctx)
{
	fflush(stdout);
	fputs(TOOL_NAME ": error: ", stderr);
	if (batch_where)
		fprintf(stderr, "%s: ", batch_where);
	if (ctx->cmd)
		fprintf(stderr, "%s: ", ctx->cmd->name);
}

int usage_error(struct ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs(TOOL_NAME ": error: ", stderr);
	if (batch_where)
		fprintf(stderr, "%s: ", batch_where);
	if (ctx->cmd)
		fprintf(stderr, "%s: ", ctx->cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (ctx->cmd)
		fprintf(stderr, "usage: " TOOL_NAME " %s%s%s\n", ctx->cmd->name,
			*ctx->cmd->usage ? " " : "", ctx->cmd->usage);
	return EXIT_USAGE;
}

/*
 * Whether @path names the stream the shell or batch mode reads its
 * commands from (/dev/stdin, /proc/self/fd/0, a FIFO's own name): reading
 * it as data would eat the commands, how many depending on timing.  A
 * regular file is safe: opened again, it has an offset of its own.
 */
/* A boolean variable: unset, empty and "0" are off, as git's are */
bool env_flag(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

int refuse_command_stream(struct ctx *ctx, const char *what, const char *path)
{
	struct stat a, b;
	char q[LD_QBUF];

	if (ctx->one_command || stat(path, &a) || fstat(STDIN_FILENO, &b) ||
	    S_ISREG(b.st_mode))
		return EXIT_OK;
	/* the same file, or the terminal the shell reads (/dev/tty too) */
	if ((a.st_dev != b.st_dev || a.st_ino != b.st_ino) &&
	    !(S_ISCHR(a.st_mode) && S_ISCHR(b.st_mode) && isatty(STDIN_FILENO) &&
	      (a.st_rdev == b.st_rdev || a.st_rdev == makedev(5, 0))))
		return EXIT_OK;
	return usage_error(
		ctx,
		"%s '%s' is standard input, which holds the commands here: give it with one command on the command line",
		what, ld_quote(path, strlen(path), q, sizeof(q)));
}

/* The anonymous memory the process holds (the model, mostly): Linux */
static void print_anon_memory(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned long kb;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %lu kB", &kb) == 1)
			fprintf(stderr, "memory anon %lu kB\n", kb);
	if (f)
		fclose(f);
}

/* The load's warnings, once (the shell's completion loads quietly) */
static void print_warnings(struct ctx *ctx)
{
	uint32_t i;

	if (ctx->warned)
		return;
	for (i = 0; i < ctx->m->nr_warnings; i++)
		warn_msg("%s", ctx->m->warnings[i]);
	ctx->warned = true;
}

int ctx_model(struct ctx *ctx)
{
	struct ld_diag d = { "" };
	int ret = ctx_model_try(ctx, &d);

	if (ret)
		err_msg("%s", d.msg);
	return ret;
}

int ctx_model_try(struct ctx *ctx, struct ld_diag *d)
{
	unsigned int what = LD_LOAD_ALL;
	uint32_t i;
	int ret;

	if (ctx->m) {
		print_warnings(ctx);
		return EXIT_OK;
	}
	/* one command: read only what it looks at (cmd.h) */
	if (ctx->one_command && ctx->cmd &&
	    (ctx->cmd->flags >> CMD_READS_SHIFT) &&
	    !env_flag("LOCKDEP_TOOL_LOAD_ALL")) {
		what = ctx->cmd->flags >> CMD_READS_SHIFT;
		if (ctx->json && (ctx->cmd->flags & CMD_JSON_STACKS))
			what |= LD_LOAD_TRACES;
	}
	if (ctx->nr_snapshots > 1)	/* the union: merge.h */
		ret = ld_load_merged(&ctx->m, ctx->snapshots,
				     ctx->nr_snapshots, d);
	else if (ctx->nr_snapshots == 1)
		ret = ld_load_path_only(&ctx->m, ctx->snapshots[0], what, d);
	else
		ret = ld_load_live_only(&ctx->m, ctx->root, 5, what, d);
	if (ret) {
		if (!d->msg[0])
			snprintf(d->msg, sizeof(d->msg), "%s", strerror(-ret));
		return EXIT_DATA;
	}
	/* for bench/bench.sh: where the load's time went */
	if (env_flag("LOCKDEP_TOOL_TIMING")) {
		const struct ld_model *m = ctx->m;
		double sum = 0;

		for (i = 0; i < m->nr_phases; i++) {
			fprintf(stderr, "time load:%s %.3f ms\n",
				m->phases[i].name, m->phases[i].ms);
			/* its time lies within others' of the first thread */
			if (!m->phases[i].beside)
				sum += m->phases[i].ms;
		}
		fprintf(stderr, "time load %.3f ms\n", sum);
		print_anon_memory();
	}
	print_warnings(ctx);
	return EXIT_OK;
}

/*
 * A name as text output prints it: control characters and bytes that are
 * not UTF-8 as \xNN (out.c).  Into @buf decoded, its length; 0 when @arg
 * has no such escape.
 */
static size_t unescape_name(const char *arg, char *buf, size_t size)
{
	size_t n = 0, i;
	bool any = false;
	unsigned int v;

	for (i = 0; arg[i] && n < size; i++) {
		if (arg[i] == '\\' && arg[i + 1] == 'x' &&
		    isxdigit((unsigned char)arg[i + 2]) &&
		    isxdigit((unsigned char)arg[i + 3]) &&
		    sscanf(arg + i + 2, "%2x", &v) == 1) {
			buf[n++] = (char)v;
			i += 3;
			any = true;
		} else {
			buf[n++] = arg[i];
		}
	}
	return any && !arg[i] ? n : 0;
}

int resolve_class(struct ctx *ctx, const char *arg, uint32_t *id)
{
	const struct ld_model *m = ctx->m;
	uint32_t ids[8];
	unsigned int n, i;
	char *end, buf[512];
	size_t len;

	n = ld_find_class(m, arg, strlen(arg), ids, 8);
	/* a name copied from the output, with its escapes */
	if (!n && (len = unescape_name(arg, buf, sizeof(buf))))
		n = ld_find_class(m, buf, len, ids, 8);
	if (n == 1) {
		*id = ids[0];
		return EXIT_OK;
	}
	if (n > 1) {
		err_prefix(ctx);
		fprintf(stderr, "%u classes are named '", n);
		out_arg(stderr, arg);
		fputs("'; pick one by id:\n", stderr);
		for (i = 0; i < n && i < 8; i++) {
			const struct ld_class *c = &m->classes[ids[i]];

			fprintf(stderr, "    @%u", c->id);
			if (c->key_sym.len) {
				fputs("  key ", stderr);
				out_str(stderr, c->key_sym);
			} else if (c->key_hash_known) {
				fprintf(stderr, "  key %016llx",
					(unsigned long long)c->key_hash);
			} else if (c->key_not_static) {
				fputs("  key - (not a static object)", stderr);
			}
			if (ld_known(c->ops))
				fprintf(stderr, "  ops %lld",
					(long long)c->ops.v);
			fputc('\n', stderr);
		}
		if (n > 8) /* 'classes' lists them all */
			fprintf(stderr, "    ... %u more ('classes' lists them)\n",
				n - 8);
		return EXIT_USAGE;
	}
	if (arg[0] == '@' && arg[1] >= '0' && arg[1] <= '9') {
		unsigned long v = strtoul(arg + 1, &end, 10);

		if (!*end && v < m->nr_classes) {
			*id = v;
			return EXIT_OK;
		}
	}
	n = ld_suggest_classes(m, arg, ids, 5);
	err_prefix(ctx);
	fputs("no lock class named '", stderr);
	out_arg(stderr, arg);
	fprintf(stderr, "'%s\n", n ? "; close names:" : "");
	for (i = 0; i < n; i++) {
		fputs("    ", stderr);
		out_str(stderr, m->classes[ids[i]].name);
		fputc('\n', stderr);
	}
	return EXIT_USAGE;
}

void print_main_usage(FILE *f)
{
	fprintf(f,
		"usage: " TOOL_NAME
		" [-j|--json] [-p|--pretty] [-s|--snapshot PATH] COMMAND [ARGS]\n"
		"       " TOOL_NAME
		" [-s PATH]            (interactive shell, or batch when stdin is not a terminal)\n"
		"Reads lockdep's state from the live kernel (debugfs export, else /proc),\n"
		"a snapshot directory or a snapshot file.  '" TOOL_NAME
		" help' lists the commands.\n");
}

/*
 * Standard output is a pipe or socket whose reader has gone: what was
 * written is lost on purpose (`| head`), which is not an error.  Asked of
 * the descriptor, not of errno: a write that failed in the middle of a
 * command left errno to whatever came after it.  A pipe without reader
 * polls POLLERR, a socket whose peer closed POLLHUP.
 */
static bool stdout_gone(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

static int run_batch(struct ctx *ctx)
{
	char *line = NULL, where[64], err[128];
	size_t alloc = 0;
	unsigned long lineno = 0;
	int found = EXIT_OK, ret, werr;
	bool timing = env_flag("LOCKDEP_TOOL_TIMING");
	struct timespec t0, t1;
	ssize_t n;

	while ((n = getline(&line, &alloc, stdin)) >= 0) {
		char **argv;
		int argc;

		lineno++;
		snprintf(where, sizeof(where), "<stdin>:%lu", lineno);
		batch_where = where;
		if ((size_t)n != strlen(line)) {
			ctx->cmd = NULL;
			ret = usage_error(ctx, "NUL byte in command line");
			goto stop;
		}
		if (cmd_split(line, &argv, &argc, err, sizeof(err))) {
			ctx->cmd = NULL;
			ret = usage_error(ctx, "%s", err);
			goto stop;
		}
		ctx->cmd = NULL;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		ret = cmd_run(ctx, argc, argv);
		errno = 0;
		werr = fflush(ctx->out) ? errno : 0;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		/* for bench/bench.sh: time of each command, load included */
		if (timing && argc)
			fprintf(stderr, "time %s %.3f ms\n", argv[0],
				(t1.tv_sec - t0.tv_sec) * 1e3 +
					(t1.tv_nsec - t0.tv_nsec) / 1e6);
		cmd_free_argv(argv, argc);
		if (ret == EXIT_FOUND)
			found = EXIT_FOUND;
		else if (ret != EXIT_OK)
			goto stop;
		if (ferror(ctx->out)) {
			/* nobody reads what the next commands would print */
			if (stdout_gone())
				break;
			/* a full disk: this command's output is not whole */
			if (werr)
				err_msg("write error on standard output: %s",
					strerror(werr));
			else
				err_msg("write error on standard output");
			clearerr(ctx->out);	/* said once */
			ret = EXIT_DATA;
			goto stop;
		}
		if (ctx->quit)
			break;
	}
	ret = found;
	if (ferror(stdin)) {	/* a directory, a closed descriptor */
		batch_where = NULL;
		err_msg("reading commands from standard input: %s",
			strerror(errno));
		ret = EXIT_DATA;
	}
stop:
	batch_where = NULL;
	free(line);
	return ret;
}

#ifndef TOOL_FREE_AT_EXIT
#if defined(__SANITIZE_ADDRESS__)
#define TOOL_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOOL_FREE_AT_EXIT 1
#endif
#endif
#endif
#ifndef TOOL_FREE_AT_EXIT
#define TOOL_FREE_AT_EXIT 0
#endif
static int add_snapshot(struct ctx *ctx, const char *path)
{
	if (ctx->nr_snapshots == MAX_SNAPSHOTS) {
		err_msg("too many snapshots");
		return EXIT_USAGE;
	}
	ctx->snapshots[ctx->nr_snapshots++] = path;
	return 0;
}

static void print_full_help(void)
{
	print_main_usage(stdout);
	putchar('\n');
	print_help(stdout, NULL);
}

static void print_version(void)
{
	printf(TOOL_NAME " %s\n", TOOL_VERSION);
}

/*
 * argv[*i], "-" and several of j, p, s, h, V; s takes the rest or the
 * next word; h and V print and set *done, as alone.
 */
static int short_cluster(struct ctx *ctx, int argc, char **argv, int *i,
			 bool *done)
{
	const char *a = argv[*i], *c;
	char q[LD_QBUF];

	for (c = a + 1; *c; c++) {
		if (*c == 'h' || *c == 'V') {
			if (*c == 'h')
				print_full_help();
			else
				print_version();
			*done = true;
			return 0;
		} else if (*c == 'j') {
			ctx->json = true;
		} else if (*c == 'p') {
			ctx->json = ctx->pretty = true;
		} else if (*c == 's') {
			if (c[1])
				return add_snapshot(ctx, c + 1);
			if (*i + 1 >= argc) {
				err_msg("option '-s' needs a value");
				print_main_usage(stderr);
				return EXIT_USAGE;
			}
			return add_snapshot(ctx, argv[++*i]);
		} else {
			err_msg("unknown option '-%c' in '%s'", *c,
				ld_quote(a, strlen(a), q, sizeof(q)));
			print_main_usage(stderr);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static struct ld_model *volatile exit_model; /* see the end of main() */

int main(int argc, char **argv)
{
	struct ctx ctx = { 0 };
	char q[LD_QBUF];
	int i, ret;

	/* a closed pipe is not an error worth a signal: see the end */
	signal(SIGPIPE, SIG_IGN);
	ctx.out = stdout;
	/*
	 * Only this thread writes to it: the load's threads never print
	 * (parsers return diagnostics).  A big output without the stream's
	 * lock: deps --depth 3 at full size 11 -> 9 ms, chains 98 -> 84.
	 */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1] && a[1] != '-' && a[2]) {
			/* -jp, -js PATH, -sPATH: a cluster, as getopt reads it */
			bool done = false;

			ret = short_cluster(&ctx, argc, argv, &i, &done);
			if (ret)
				return ret;
			if (done)
				goto out;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			ctx.json = true;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			ctx.json = ctx.pretty = true;
		} else if (!strcmp(a, "-s") || !strcmp(a, "--snapshot") ||
			   !strcmp(a, "--sysroot")) {
			if (i + 1 >= argc) {
				err_msg("option '%s' needs a value", a);
				print_main_usage(stderr);
				return EXIT_USAGE;
			}
			if (!strcmp(a, "--sysroot"))
				ctx.root = argv[++i];
			else if (add_snapshot(&ctx, argv[++i]))
				return EXIT_USAGE;
		} else if (!strncmp(a, "--snapshot=", 11)) {
			if (add_snapshot(&ctx, a + 11))
				return EXIT_USAGE;
		} else if (!strncmp(a, "--sysroot=", 10)) {
			ctx.root = a + 10;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			print_full_help();
			goto out;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			print_version();
			goto out;
		} else if (!strcmp(a, "--man-page")) {
			print_man(stdout);
			goto out;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] == '-' && a[1]) {
			err_msg("unknown option '%s'",
				ld_quote(a, strlen(a), q, sizeof(q)));
			print_main_usage(stderr);
			return EXIT_USAGE;
		} else {
			break;
		}
	}

	ctx.one_command = i < argc;
	for (int k = 0; k < ctx.nr_snapshots; k++) {
		ret = refuse_command_stream(&ctx, "snapshot",
					    ctx.snapshots[k]);
		if (ret)
			return ret;
	}
	if (i < argc) {
		ret = cmd_run(&ctx, argc - i, argv + i);
	} else if (isatty(STDIN_FILENO))
		ret = repl_run(&ctx);
	else
		ret = run_batch(&ctx);
	/*
	 * Freeing a model of tens of MiB page by page only to exit costs
	 * several ms (as git's UNLEAK): the kernel takes it back at once.
	 * Sanitizer builds free it; for other leak checkers (valgrind) it
	 * stays reachable from a static.
	 */
	if (TOOL_FREE_AT_EXIT)
		ld_model_free(ctx.m);
	else
		exit_model = ctx.m;
	ctx.m = NULL;
	goto flush;
out:
	ret = EXIT_OK;
flush:
	/* git's run_builtin(): a lost write must not exit 0 */
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		if (stdout_gone())
			return ret;
		if (errno)	/* this flush failed, else an earlier write */
			err_msg("write error on standard output: %s",
				strerror(errno));
		else
			err_msg("write error on standard output");
		return EXIT_DATA;
	}
	return ret;
}
