// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_save.c - `save FILE`: write the files the model was read from into
 * one snapshot file ("-": standard output); a union (several -s) is saved
 * as the snapshots it was made of (snapshot.c, version 2).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"

/*
 * A regular file (or a new one) is written under a temporary name in
 * its directory and renamed over @path once complete: @path may be one
 * of the files being saved (mapped, or copied from as save goes), and a
 * failed save must not leave it cut short.  Anything else (/dev/null, a
 * pipe) is written directly, into *@tmp "".
 */
static FILE *open_output(const char *path, char *tmp, size_t size,
			 char *target)
{
	struct stat st;
	mode_t mask;
	FILE *f;
	int fd;

	tmp[0] = '\0';
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return fopen(path, "w");
	/* through a symbolic link: the file it names is replaced */
	if (!realpath(path, target)) {
		if (errno != ENOENT || strlen(path) >= PATH_MAX)
			return NULL;
		strcpy(target, path);
	}
	if ((size_t)snprintf(tmp, size, "%s.XXXXXX", target) >= size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		tmp[0] = '\0';
		return NULL;
	}
	mask = umask(0);
	umask(mask);
	/* the mode fopen() would have given a new file */
	if (fchmod(fd, 0666 & ~mask) || !(f = fdopen(fd, "w"))) {
		int err = errno;

		close(fd);
		unlink(tmp);
		tmp[0] = '\0';
		errno = err;
		return NULL;
	}
	return f;
}

/* Whether @path is one of the files @sec were read from */
static bool is_input(const char *path, const struct ld_section *sec,
		     uint32_t nr)
{
	struct stat out, in;
	uint32_t i;

	if (stat(path, &out) || !S_ISREG(out.st_mode))
		return false;
	for (i = 0; i < nr; i++)
		if (sec[i].path && !stat(sec[i].path, &in) &&
		    in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return true;
	return false;
}

int cmd_save(struct ctx *ctx, struct cmd_args *a)
{
	const char *path = a->argv[0];
	struct ld_diag d = { "" };
	bool to_stdout = !strcmp(path, "-");
	uint32_t files = ctx->m->nr_sections, parts = 1, i;
	char tmp[PATH_MAX + 8], target[PATH_MAX];
	FILE *f;
	int ret;

	if (!*path)
		return usage_error(ctx, "FILE is empty ('-' is standard output)");
	if (ctx->m->nr_parts) { /* a union: its snapshots, as read */
		parts = ctx->m->nr_parts;
		for (i = 0; i < parts; i++)
			files += ctx->m->parts[i].nr_sections;
	}

	/* it would stop being what it is (a /proc copy, an export file) */
	for (i = 0; !to_stdout && i <= ctx->m->nr_parts; i++) {
		const struct ld_section *sec = ctx->m->sections;
		uint32_t nr = ctx->m->nr_sections;

		if (i < ctx->m->nr_parts) {
			sec = ctx->m->parts[i].sections;
			nr = ctx->m->parts[i].nr_sections;
		}
		if (is_input(path, sec, nr))
			return usage_error(ctx,
					   "%s: is one of the files being saved",
					   path);
	}
	if (to_stdout && ctx->json)
		return usage_error(
			ctx,
			"cannot write the snapshot and JSON both to standard output");
	f = to_stdout ? ctx->out :
			open_output(path, tmp, sizeof(tmp), target);
	if (!f) {
		err_msg("%s: %s", path, strerror(errno));
		return EXIT_DATA;
	}
	ret = ld_save(ctx->m, f, &d);
	if (!to_stdout && fclose(f) && !ret) {
		ret = -errno;
		snprintf(d.msg, sizeof(d.msg), "%s", strerror(errno));
	}
	if (!to_stdout && tmp[0]) {
		if (!ret && rename(tmp, target)) {
			ret = -errno;
			snprintf(d.msg, sizeof(d.msg), "%s", strerror(errno));
		}
		if (ret)
			unlink(tmp);
	}
	/* a reader that went away (save - | head): quiet, as in main() */
	if (ret == -EPIPE && to_stdout)
		return EXIT_OK;
	if (ret) {
		err_msg("%s: %s", path, d.msg);
		return EXIT_DATA;
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "save");
		jw_kstr(&w, "file", path);
		jw_kint(&w, "sections", files);
		jw_kint(&w, "snapshots", parts);
		jw_doc_end(&w);
	} else if (!to_stdout && parts > 1) {
		fprintf(ctx->out, "saved a union of %u snapshots (%u %s) to %s\n",
			parts, files, ld_plural(files, "file", "files"), path);
	} else if (!to_stdout) {
		fprintf(ctx->out, "saved %u %s to %s\n", files,
			ld_plural(files, "file", "files"), path);
	}
	return EXIT_OK;
}
