// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_save.c - `save FILE`: write the files the model was read from into
 * one snapshot file ("-": standard output).
 */
#include <errno.h>
#include <string.h>

#include "cmd.h"

int cmd_save(struct ctx *ctx, struct cmd_args *a)
{
	const char *path = a->argv[0];
	struct ld_diag d = { "" };
	bool to_stdout = !strcmp(path, "-");
	FILE *f;
	int ret;

	if (ctx->m->merge)	/* issue 6: a union has no files of its own */
		return usage_error(
			ctx,
			"a union of snapshots cannot be saved: save each one and pass them all with -s");
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
	if (ret) {
		err_msg("%s: %s", path, d.msg);
		return EXIT_DATA;
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "save");
		jw_kstr(&w, "file", path);
		jw_kint(&w, "sections", ctx->m->nr_sections);
		jw_doc_end(&w);
	} else if (!to_stdout) {
		fprintf(ctx->out, "saved %u files to %s\n", ctx->m->nr_sections,
			path);
	}
	return EXIT_OK;
}
