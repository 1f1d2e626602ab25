// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_save.c - `save FILE`: write the files the model was read from into
 * one snapshot file ("-": standard output); a union (several -s) is saved
 * as the snapshots it was made of (snapshot.c, version 2).
 */
#include <errno.h>
#include <string.h>

#include "cmd.h"

int cmd_save(struct ctx *ctx, struct cmd_args *a)
{
	const char *path = a->argv[0];
	struct ld_diag d = { "" };
	bool to_stdout = !strcmp(path, "-");
	uint32_t files = ctx->m->nr_sections, parts = 1, i;
	FILE *f;
	int ret;

	if (ctx->m->nr_parts) { /* a union: its snapshots, as read */
		parts = ctx->m->nr_parts;
		for (i = 0; i < parts; i++)
			files += ctx->m->parts[i].nr_sections;
	}

	if (to_stdout && ctx->json)
		return usage_error(
			ctx,
			"cannot write the snapshot and JSON both to standard output");
	f = to_stdout ? ctx->out : fopen(path, "w");
	if (!f) {
		err_msg("%s: %s", path, strerror(errno));
		return EXIT_DATA;
	}
	ret = ld_save(ctx->m, f, &d);
	if (!to_stdout && fclose(f) && !ret) {
		ret = -errno;
		snprintf(d.msg, sizeof(d.msg), "%s", strerror(errno));
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
		fprintf(ctx->out, "saved a union of %u snapshots (%u files) to %s\n",
			parts, files, path);
	} else if (!to_stdout) {
		fprintf(ctx->out, "saved %u files to %s\n", files, path);
	}
	return EXIT_OK;
}
