// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - rendering helpers shared by the analysis commands, and
 * reading the kernel log for `report` and `dot --report`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "analysis.h"

static void seen_in(FILE *f, const struct ld_model *m, uint32_t d)
{
	const struct ld_merge_info *mi = m->merge;
	uint32_t s;
	bool first = true;

	if (!mi)
		return;
	fputs(", seen in ", f);
	for (s = 0; s < mi->nr_src; s++)
		if (mi->dep_src[d] & (1u << s)) {
			fprintf(f, "%s%u", first ? "" : ",", s + 1);
			first = false;
		}
}

void text_hop(FILE *f, const struct ld_model *m, uint32_t d, const char *indent,
	      bool stacks)
{
	const struct ld_dep *e = &m->deps[d];
	char tb[16], ind[64];

	fputs(indent, f);
	out_str(f, m->classes[e->from].name);
	fputs(" -> ", f);
	out_str(f, m->classes[e->to].name);
	fprintf(f, "  [%s",
		e->type_known ? ld_dep_type_str(e->type, true, tb) :
				"type unknown");
	if (e->distance > 1)
		fprintf(f, ", distance %d", e->distance);
	seen_in(f, m, d);
	fputs("]\n", f);
	if (!stacks)
		return;
	snprintf(ind, sizeof(ind), "%s    ", indent);
	if (!e->trace_known)
		fprintf(f, "%s(stack unknown: %s)\n", ind,
			m->have.traces ?
				"its trace is not in the traces file" :
				"this source has no stacks");
	else if (e->trace == LD_NONE)
		fprintf(f, "%s(no stack saved)\n", ind);
	else
		text_trace(f, m, e->trace, ind);
}

void text_chain_of(FILE *f, const struct ld_model *m, const uint32_t *deps,
		   uint32_t n, bool closed)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		out_str(f, m->classes[m->deps[deps[i]].from].name);
		fputs(" -> ", f);
	}
	if (n)
		out_str(f, m->classes[closed ? m->deps[deps[0]].from :
					       m->deps[deps[n - 1]].to]
				   .name);
}

void json_hops(struct jw *w, const struct ld_model *m, const uint32_t *deps,
	       uint32_t n)
{
	const struct ld_merge_info *mi = m->merge;
	uint32_t i, s;

	jw_arr_start(w);
	for (i = 0; i < n; i++)
		json_dep(w, m, deps[i]);
	jw_arr_end(w);
	if (!mi)
		return;
	/* where each hop was seen: snapshot numbers from 1 */
	jw_key(w, "hop_snapshots");
	jw_arr_start(w);
	for (i = 0; i < n; i++) {
		jw_arr_start(w);
		for (s = 0; s < mi->nr_src; s++)
			if (mi->dep_src[deps[i]] & (1u << s))
				jw_uint(w, s + 1);
		jw_arr_end(w);
	}
	jw_arr_end(w);
}

void text_unknowns(FILE *f, const struct ld_model *m, const char *indent)
{
	const struct ld_stat *dl = ld_stat_get(m, "debug_locks");

	if (dl && !dl->value)
		fprintf(f,
			"%slockdep is off (debug_locks 0): it stopped recording at its first report or a capacity overflow; the dependency a report was about, and all that came after, are not in this graph (see 'report' on the kernel log)\n",
			indent);
	if (!m->have.dep_types)
		fprintf(f,
			"%snot known here: dependency types (stock /proc files): every path counts as strong, cycles through recursive read locks may be false alarms\n",
			indent);
	if (!m->have.traces)
		fprintf(f,
			"%snot known here: the stacks that created the dependencies (only the debugfs export has them)\n",
			indent);
	if (!m->have.dep_all_distances)
		fprintf(f,
			"%snot known here: dependencies recorded across trylocks (distance > 1; /proc/lockdep hides them)\n",
			indent);
}

void json_unknowns(struct jw *w, const struct ld_model *m)
{
	const struct ld_stat *dl = ld_stat_get(m, "debug_locks");

	jw_key(w, "debug_locks");
	if (dl)
		jw_int(w, dl->value);
	else
		jw_null(w);
	jw_kbool(w, "types_known", m->have.dep_types);
	jw_kbool(w, "stacks_known", m->have.traces);
	jw_kbool(w, "all_distances", m->have.dep_all_distances);
	jw_key(w, "merged_snapshots");
	if (m->merge)
		jw_uint(w, m->merge->nr_src);
	else
		jw_null(w);
}

void json_search_stop(struct jw *w, bool truncated, unsigned int stop,
		      uint32_t complete_len)
{
	static const char *const word[] = {
		[LD_PATHS_MAX] = "max",
		[LD_PATHS_LENGTH] = "length",
		[LD_PATHS_WORK] = "work",
	};

	jw_kbool(w, "truncated", truncated);
	jw_key(w, "stopped_by");
	if (truncated && stop < sizeof(word) / sizeof(word[0]) && word[stop])
		jw_str(w, word[stop]);
	else
		jw_null(w);
	jw_key(w, "complete_up_to_length");
	if (truncated)
		jw_uint(w, complete_len);
	else
		jw_null(w);
}

int need_deps(struct ctx *ctx)
{
	if (ctx->m->have.deps)
		return EXIT_OK;
	err_prefix(ctx);
	fprintf(stderr, "no dependency data in this source (%s)\n",
		missing_why(ctx->m, "lockdep", "deps"));
	return EXIT_DATA;
}

int resolve_pair(struct ctx *ctx, const char *a, const char *b,
		 uint32_t *from, uint32_t *to)
{
	int ret = resolve_class(ctx, a, from);

	if (!ret)
		ret = resolve_class(ctx, b, to);
	return ret ? ret : need_deps(ctx);
}

static int read_fd(int fd, char **data, size_t *len)
{
	size_t alloc = 65536, n = 0;
	char *buf = malloc(alloc), *nb;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (alloc - n < 4096) {
			if (alloc >= LD_MAX_FILE) {
				free(buf);
				return -EFBIG;
			}
			nb = realloc(buf, alloc * 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
			alloc *= 2;
		}
		r = read(fd, buf + n, alloc - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			free(buf);
			return -err;
		}
		if (!r)
			break;
		n += r;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

int read_log(struct ctx *ctx, const char *file, char **data, size_t *len)
{
	char kmsg[4096];
	int fd, ret, size;
	char *buf;

	/* --sysroot (tests): the kernel log is a copy of /dev/kmsg's records */
	if (!file && ctx->root) {
		ret = snprintf(kmsg, sizeof(kmsg), "%s/dev/kmsg", ctx->root);
		if (ret < 0 || (size_t)ret >= sizeof(kmsg))
			return usage_error(ctx, "--sysroot path too long");
		file = kmsg;
	}
	if (file && strcmp(file, "-")) {
		ret = refuse_command_stream(ctx, "log", file);
		if (ret)
			return ret;
		fd = open(file, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err_prefix(ctx);
			fprintf(stderr, "%s: %s\n", file, strerror(errno));
			return EXIT_DATA;
		}
		ret = read_fd(fd, data, len);
		close(fd);
	} else if (file) {
		/* the shell and batch mode read their commands from there */
		if (!ctx->one_command)
			return usage_error(
				ctx,
				"'-' (standard input) works on the command line only: here it holds the commands");
		ret = read_fd(STDIN_FILENO, data, len);
	} else {
		/* the kernel log buffer, as dmesg reads it */
		size = klogctl(10, NULL, 0); /* SYSLOG_ACTION_SIZE_BUFFER */
		if (size <= 0)
			size = 1 << 20;
		buf = malloc(size + 1);
		if (!buf)
			return EXIT_DATA;
		ret = klogctl(3, buf, size); /* SYSLOG_ACTION_READ_ALL */
		if (ret < 0) {
			ret = errno;
			free(buf);
			err_prefix(ctx);
			fprintf(stderr,
				"cannot read the kernel log: %s (give a FILE)\n",
				strerror(ret));
			return EXIT_DATA;
		}
		buf[ret] = '\0';
		*data = buf;
		*len = ret;
		return EXIT_OK;
	}
	if (ret) {
		err_prefix(ctx);
		fprintf(stderr, "%s: %s\n",
			strcmp(file, "-") ? file : "<stdin>", strerror(-ret));
		return EXIT_DATA;
	}
	return EXIT_OK;
}

/*
 * The running kernel has lockdep's files: its log's reports are of the
 * boot whose classes these are
 */
static bool live_lockdep(const struct ctx *ctx)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/proc/lockdep",
			 ctx->root ? ctx->root : "");

	return n > 0 && (size_t)n < sizeof(path) && !access(path, R_OK);
}

int load_reports(struct ctx *ctx, const char *file, struct ld_reports **rs,
		 const struct ld_model **linked)
{
	struct ld_diag d = { "" };
	char *data = NULL;
	size_t len = 0;
	int ret;

	*linked = NULL;
	ret = read_log(ctx, file, &data, &len);
	if (ret)
		return ret;
	ret = ld_parse_reports(file ? file : "<kernel log>", data, len, rs, &d);
	free(data);
	if (ret) {
		err_prefix(ctx);
		fprintf(stderr, "%s\n", d.msg[0] ? d.msg : strerror(-ret));
		return EXIT_DATA;
	}
	if (ctx->nr_snapshots) {
		/* the classes the user gave */
		ret = ctx_model(ctx);
		if (ret) {
			ld_reports_free(*rs);
			*rs = NULL;
			return ret;
		}
		ld_reports_link(*rs, ctx->m);
		*linked = ctx->m;
	} else if (!file && (ctx->m || live_lockdep(ctx))) {
		/*
		 * The running kernel's log: the classes of the same boot, if
		 * they can be read.  A FILE may be another machine's.
		 */
		struct ld_diag d = { "" };

		if (ctx_model_try(ctx, &d) == EXIT_OK) {
			ld_reports_link(*rs, ctx->m);
			*linked = ctx->m;
		} else {
			warn_msg("not linked to the live classes: %s", d.msg);
		}
	}
	return EXIT_OK;
}
