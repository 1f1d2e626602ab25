// SPDX-License-Identifier: GPL-2.0
/*
 * repl.c - the interactive shell: readline with history and completion of
 * commands, options, option values and class names, all generated from
 * the command table.  The only file that uses readline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cmd.h"

static struct ctx *rctx;
static const struct cmd_entry *comp_cmd;
static const struct cmd_opt *comp_opt;
static enum { C_CMD, C_OPT, C_VALUE, C_CLASS } comp_kind;

static char *gen(const char *text, int state)
{
	static unsigned int i, k;
	size_t len = strlen(text);

	if (!state) {
		i = 0;
		k = 0;
	}
	switch (comp_kind) {
	case C_CMD:
		while (i < cmd_table_size) {
			const struct cmd_entry *c = &cmd_table[i++];

			if (!strncmp(c->name, text, len))
				return strdup(c->name);
		}
		return NULL;
	case C_OPT:
		while (comp_cmd->opts && comp_cmd->opts[i].name) {
			char buf[64];

			snprintf(buf, sizeof(buf), "--%s",
				 comp_cmd->opts[i++].name);
			if (!strncmp(buf, text, len))
				return strdup(buf);
		}
		if (k++ == 0 && !strncmp("--help", text, len))
			return strdup("--help");
		return NULL;
	case C_VALUE:
		while (comp_opt->values[i]) {
			const char *v = comp_opt->values[i++];

			if (!strncmp(v, text, len))
				return strdup(v);
		}
		return NULL;
	case C_CLASS:
		while (rctx->m && i < rctx->m->nr_classes) {
			const struct ld_class *c = &rctx->m->classes[i++];

			if (c->name.len >= len &&
			    !memcmp(c->name.s, text, len) &&
			    !memchr(c->name.s, 0, c->name.len)) {
				char *s = malloc(c->name.len + 1);

				if (!s)
					return NULL;
				memcpy(s, c->name.s, c->name.len);
				s[c->name.len] = '\0';
				return s;
			}
		}
		return NULL;
	}
	return NULL;
}

static char **complete(const char *text, int start, int end)
{
	char **argv, err[64], *head;
	const struct cmd_opt *o;
	int argc, i;

	(void)end;
	rl_attempted_completion_over = 1;
	head = strndup(rl_line_buffer, start);
	if (!head || cmd_split(head, &argv, &argc, err, sizeof(err))) {
		free(head);
		return NULL;
	}
	free(head);
	if (!argc) {
		comp_kind = C_CMD;
		goto done;
	}
	comp_cmd = cmd_lookup(argv[0], err, sizeof(err));
	if (!comp_cmd)
		goto none;
	o = NULL;
	if (argc >= 2 && argv[argc - 1][0] == '-') {
		const char *prev = argv[argc - 1];

		for (i = 0; comp_cmd->opts && comp_cmd->opts[i].name; i++)
			if ((prev[1] == '-' &&
			     !strcmp(prev + 2, comp_cmd->opts[i].name)) ||
			    (prev[1] && !prev[2] &&
			     prev[1] == comp_cmd->opts[i].short_name))
				o = &comp_cmd->opts[i];
	}
	if (o && o->arg) {
		if (!o->values)
			goto none;
		comp_opt = o;
		comp_kind = C_VALUE;
		goto done;
	}
	if (text[0] == '-') {
		comp_kind = C_OPT;
		goto done;
	}
	switch (comp_cmd->arg_kind) {
	case ARG_COMMAND:
		comp_kind = C_CMD;
		goto done;
	case ARG_CLASS:
		/* load quietly: errors show when the command runs */
		if (!rctx->m) {
			FILE *saved = stderr;

			stderr = fopen("/dev/null", "w");
			if (stderr) {
				ctx_model(rctx);
				fclose(stderr);
			}
			stderr = saved;
			rctx->warned = false;
		}
		comp_kind = C_CLASS;
		goto done;
	case ARG_FILE:
		rl_attempted_completion_over = 0; /* filenames */
		goto none;
	default:
		goto none;
	}
done:
	cmd_free_argv(argv, argc);
	return rl_completion_matches(text, gen);
none:
	cmd_free_argv(argv, argc);
	return NULL;
}

int repl_run(struct ctx *ctx)
{
	const char *hist = getenv("LOCKDEP_TOOL_HISTORY");
	char hpath[4096] = "";
	char *line;

	rctx = ctx;
	if (hist) {
		snprintf(hpath, sizeof(hpath), "%s", hist);
	} else if (getenv("HOME")) {
		snprintf(hpath, sizeof(hpath), "%s/.lockdep_tool_history",
			 getenv("HOME"));
	}
	rl_readline_name = TOOL_NAME;
	rl_attempted_completion_function = complete;
	rl_completer_word_break_characters = " \t\n";
	rl_completer_quote_characters = "\"'";
	rl_basic_word_break_characters = " \t\n";
	using_history();
	stifle_history(1000);
	if (*hpath)
		read_history(hpath);
	printf(TOOL_NAME
	       " %s: 'help' lists the commands, Tab completes, Ctrl-D leaves\n",
	       TOOL_VERSION);
	while (!ctx->quit && (line = readline("lockdep> "))) {
		char **argv, err[128];
		int argc;

		if (*line &&
		    (!history_length ||
		     strcmp(history_get(history_base + history_length - 1)->line,
			    line)))
			add_history(line);
		if (cmd_split(line, &argv, &argc, err, sizeof(err))) {
			err_msg("%s", err);
		} else {
			ctx->cmd = NULL;
			cmd_run(ctx, argc, argv);
			cmd_free_argv(argv, argc);
		}
		fflush(stdout);
		free(line);
	}
	if (!ctx->quit)
		putchar('\n');
	if (*hpath)
		write_history(hpath);
	return EXIT_OK;
}
