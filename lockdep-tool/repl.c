// SPDX-License-Identifier: GPL-2.0
/*
 * repl.c - the interactive shell: readline with history and completion of
 * commands, options, option values and class names, all generated from
 * the command table.  The only file that uses readline.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "cmd.h"

static struct ctx *rctx;
static const struct cmd_entry *comp_cmd;
static const struct cmd_opt *comp_opt;
static enum { C_CMD, C_OPT, C_VALUE, C_CLASS } comp_kind;
/* "--usage=" when completing a value in the same word as its option */
static char comp_pfx[64];

/*
 * The word being completed, as cmd_split() sees it.  A class name may hold
 * blanks, quotes, backslashes or a leading '#'; the text put on the line
 * must split back into exactly that name, so completion works on the
 * unquoted word and quotes what it inserts.
 */
static struct {
	char quote; /* quote open at the cursor: 0, '\'' or '"' */
	bool quote_all; /* no quote open: some candidate needs quoting */
	const char *typed; /* what readline replaces: after the open quote */
	size_t typed_len;
	size_t prefix_len; /* unquoted length of the whole word */
	char **cand; /* candidates, sorted, without duplicates */
	size_t nr_cand;
} cw;

/* cmd_split()'s rules: where the last word of LINE[0, END) starts */
struct scan {
	size_t word; /* END when the cursor is between words */
	char quote; /* open at END */
	bool escaped; /* LINE[END] is taken literally by a backslash */
	bool comment; /* END is inside a # comment */
};

static void scan_line(const char *line, size_t end, struct scan *s)
{
	bool in_word = false;
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < end; i++) {
		char c = line[i];

		if (s->escaped) {
			s->escaped = false;
			continue;
		}
		if (s->quote) {
			if (c == s->quote)
				s->quote = 0;
			else if (s->quote == '"' && c == '\\' &&
				 (line[i + 1] == '"' || line[i + 1] == '\\'))
				s->escaped = true;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
			in_word = false;
			continue;
		}
		if (!in_word) {
			if (c == '#') {
				s->comment = true;
				return;
			}
			in_word = true;
			s->word = i;
		}
		if (c == '\'' || c == '"')
			s->quote = c;
		else if (c == '\\' && line[i + 1])
			s->escaped = true;
	}
	if (!in_word)
		s->word = end;
}

/* rl_char_is_quoted_p: a blank inside quotes does not end a word */
static int char_is_quoted(char *line, int index)
{
	struct scan s;

	scan_line(line, index, &s);
	return s.quote || s.escaped;
}

static bool needs_quotes(const char *name)
{
	return name[0] == '#' || strpbrk(name, " \t\r\n'\"\\");
}

/*
 * The text readline puts in place of what was typed for CAND.  Inside an
 * open quote: the rest of CAND in that quote (' as '\'', " and \ behind a
 * backslash); else CAND itself, or all of it in single quotes when any
 * candidate needs them, so that several candidates keep a common prefix.
 * CLOSE ends the quote: the word is complete.
 */
static char *quote_cand(const char *cand, bool close)
{
	const char *p = cw.quote ? cand + cw.prefix_len : cand;
	char q = cw.quote ? cw.quote : cw.quote_all ? '\'' : 0;
	size_t o = 0;
	char *s;

	if (!q)
		return strdup(cand);
	/* typed text, an opening ', 4 bytes a character, closing quote, NUL */
	s = malloc(cw.typed_len + 4 * strlen(p) + 4);
	if (!s)
		return NULL;
	if (cw.quote) {
		memcpy(s, cw.typed, cw.typed_len);
		o = cw.typed_len;
		/* readline drops an open quote the text starts with */
		if (!o && q == '\'' && *p == '\'')
			s[o++] = '\'';
	} else {
		s[o++] = '\'';
	}
	for (; *p; p++) {
		if (q == '\'' && *p == '\'') {
			memcpy(s + o, "'\\''", 4);
			o += 4;
			continue;
		}
		if (q == '"' && (*p == '"' || *p == '\\'))
			s[o++] = '\\';
		s[o++] = *p;
	}
	if (close)
		s[o++] = q;
	s[o] = '\0';
	return s;
}

/* "--opt=" + value: what the word's candidates look like */
static char *with_pfx(const char *v, size_t len)
{
	size_t pl = strlen(comp_pfx);
	char *s = malloc(pl + len + 1);

	if (s) {
		memcpy(s, comp_pfx, pl);
		memcpy(s + pl, v, len);
		s[pl + len] = '\0';
	}
	return s;
}

/* plain candidates for the unquoted word TEXT, one per call */
static char *gen(const char *text, int state)
{
	static unsigned int i, k;
	size_t len;

	/* a value after "--opt=": the prefix is the option's, not matched */
	if (comp_kind == C_VALUE || comp_kind == C_CLASS)
		text += strlen(comp_pfx);
	len = strlen(text);
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
				return with_pfx(v, strlen(v));
		}
		return NULL;
	case C_CLASS:
		while (rctx->m && i < rctx->m->nr_classes) {
			const struct ld_class *c = &rctx->m->classes[i++];

			if (c->name.len >= len &&
			    !memcmp(c->name.s, text, len) &&
			    !memchr(c->name.s, 0, c->name.len))
				return with_pfx(c->name.s, c->name.len);
		}
		return NULL;
	}
	return NULL;
}

/* the candidates quoted, for rl_completion_matches() */
static char *gen_quoted(const char *text, int state)
{
	(void)text;
	if ((size_t)state >= cw.nr_cand)
		return NULL;
	return quote_cand(cw.cand[state], cw.nr_cand == 1);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_cands(void)
{
	cmd_free_argv(cw.cand, cw.nr_cand);
	cw.cand = NULL;
	cw.nr_cand = 0;
}

/* collect gen()'s candidates for WORD; false when out of memory */
static bool collect(const char *word)
{
	size_t n = 0, i, alloc = 0;
	char *s;

	while ((s = gen(word, (int)n))) {
		if (n == alloc) {
			char **nc;

			alloc = alloc ? 2 * alloc : 16;
			nc = realloc(cw.cand, alloc * sizeof(*nc));
			if (!nc) {
				free(s);
				cw.nr_cand = n;
				return false;
			}
			cw.cand = nc;
		}
		cw.cand[n++] = s;
	}
	if (n)
		qsort(cw.cand, n, sizeof(*cw.cand), cmp_str);
	cw.nr_cand = 0;
	cw.quote_all = false;
	for (i = 0; i < n; i++) {
		s = cw.cand[i];
		if (cw.nr_cand && !strcmp(cw.cand[cw.nr_cand - 1], s)) {
			free(s);
			continue;
		}
		cw.quote_all |= needs_quotes(s);
		cw.cand[cw.nr_cand++] = s;
	}
	return true;
}

static char **complete(const char *text, int start, int end)
{
	char **argv, **wv, err[64], *head, *raw;
	const struct cmd_opt *o;
	char **matches = NULL;
	const char *word;
	struct scan sc;
	int argc, wc, i;
	size_t n;

	rl_attempted_completion_over = 1;
	scan_line(rl_line_buffer, end, &sc);
	/* readline must replace from where cmd_split() sees the word start */
	if (sc.comment || (!sc.quote && (size_t)start != sc.word) ||
	    (sc.quote && ((size_t)start <= sc.word ||
			  rl_line_buffer[start - 1] != sc.quote)))
		return NULL;
	head = strndup(rl_line_buffer, sc.word);
	if (!head || cmd_split(head, &argv, &argc, err, sizeof(err))) {
		free(head);
		return NULL;
	}
	free(head);
	/* the word so far, unquoted: close its quote and split it */
	n = end - sc.word;
	raw = malloc(n + 2);
	if (!raw)
		goto none;
	memcpy(raw, rl_line_buffer + sc.word, n);
	raw[n] = sc.quote;
	raw[n + 1] = '\0';
	i = cmd_split(raw, &wv, &wc, err, sizeof(err));
	free(raw);
	if (i)
		goto none;
	word = wc ? wv[0] : "";
	comp_pfx[0] = '\0';
	cw.quote = sc.quote;
	cw.typed = rl_line_buffer + start;
	cw.typed_len = end - start;
	cw.prefix_len = strlen(word);
	if (!argc) {
		comp_kind = C_CMD;
		goto done;
	}
	comp_cmd = cmd_lookup(argv[0], err, sizeof(err));
	if (!comp_cmd)
		goto none_w;
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
	/* "--usage=hard": the value, in the option's word */
	if (!o && word[0] == '-' && word[1] == '-' && strchr(word, '=')) {
		size_t nl = strchr(word, '=') - word - 2;

		for (i = 0; comp_cmd->opts && comp_cmd->opts[i].name; i++)
			if (strlen(comp_cmd->opts[i].name) == nl &&
			    !strncmp(word + 2, comp_cmd->opts[i].name, nl))
				o = &comp_cmd->opts[i];
		if (!o || !o->arg || nl + 3 >= sizeof(comp_pfx))
			goto none_w;
		memcpy(comp_pfx, word, nl + 3);
		comp_pfx[nl + 3] = '\0';
	}
	if (o && o->arg) {
		if (o->values) {
			comp_opt = o;
			comp_kind = C_VALUE;
			goto done;
		}
		/* the values that are classes or files */
		if (!strcmp(o->arg, "A"))
			goto classes;
		if (!strcmp(o->arg, "FILE") && !comp_pfx[0])
			rl_attempted_completion_over = 0;
		goto none_w;
	}
	if (word[0] == '-') {
		comp_kind = C_OPT;
		goto done;
	}
	switch (comp_cmd->arg_kind) {
	case ARG_COMMAND:
		comp_kind = C_CMD;
		goto done;
	case ARG_CLASS:
classes:
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
		goto none_w;
	default:
		goto none_w;
	}
done:
	if (collect(word) && cw.nr_cand) {
		/* quote_cand() closes the quote itself */
		rl_completion_suppress_quote = 1;
		matches = rl_completion_matches(text, gen_quoted);
		/*
		 * Several candidates, one of them the word typed: their common
		 * prefix is that word, but quoted as the others need it, with
		 * the quote left open ("'zz lock" for "'zz lock'" typed, or for
		 * "zz" when "zz lock" is another): keep what was typed.
		 */
		if (matches && matches[1] && matches[2] && !cw.quote &&
		    bsearch(&word, cw.cand, cw.nr_cand, sizeof(*cw.cand),
			    cmp_str)) {
			char *typed = strndup(cw.typed, cw.typed_len);

			if (typed) {
				free(matches[0]);
				matches[0] = typed;
			}
		}
	}
	free_cands();
none_w:
	cmd_free_argv(wv, wc);
none:
	cmd_free_argv(argv, argc);
	return matches;
}

/*
 * Ctrl-C at the prompt drops the line being typed (and a search, a
 * numeric argument, whatever readline was in) and gives a new prompt, as
 * a shell does; while a command runs it ends the tool as before (the
 * history is saved after each line).  readline's own handler runs first
 * (rl_catch_signals): it frees the line, restores the terminal and sends
 * the signal again, to this handler, which leaves readline() for good.
 */
static sigjmp_buf prompt_env;
static volatile sig_atomic_t at_prompt;
static struct sigaction sigint_before; /* the disposition while commands run */

static void on_sigint(int sig)
{
	if (at_prompt) {
		at_prompt = 0;
		siglongjmp(prompt_env, 1);
	}
	/* not at the prompt (cannot happen: restored after readline()) */
	sigaction(sig, &sigint_before, NULL);
	raise(sig);
}

/*
 * readline's own getc checks for a caught signal, then read()s: a SIGINT
 * between the two leaves it blocked in read() with the signal pending
 * until the next key (a Ctrl-C typed right after other keys hung the
 * prompt).  This one waits with SIGINT blocked but for ppoll() itself,
 * which a SIGINT then always interrupts, has readline handle a caught
 * signal before each wait, and reads what ppoll() saw without blocking.
 */
static int getc_interruptible(FILE *stream)
{
	struct pollfd p = { .fd = fileno(stream), .events = POLLIN };
	sigset_t block, old;
	unsigned char c;
	ssize_t n;
	int r, fl;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	for (;;) {
		sigprocmask(SIG_BLOCK, &block, &old);
		if (rl_pending_signal()) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			rl_check_signals(); /* on_sigint(): no return */
			continue;
		}
		r = ppoll(&p, 1, NULL, &old);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (r < 0 && errno != EINTR)
			return EOF;
		if (r <= 0)
			continue;
		/* without blocking: the Ctrl-C may have flushed the input */
		fl = fcntl(p.fd, F_GETFL);
		fcntl(p.fd, F_SETFL, fl | O_NONBLOCK);
		n = read(p.fd, &c, 1);
		fcntl(p.fd, F_SETFL, fl);
		if (n == 1)
			return c;
		if (!n || (errno != EAGAIN && errno != EINTR))
			return EOF;
	}
}

static char *read_line(const char *prompt)
{
	struct sigaction sa = { .sa_handler = on_sigint };
	char *line;

	sigemptyset(&sa.sa_mask);
	if (sigsetjmp(prompt_env, 1)) {
		/*
		 * what a search or a key sequence left half done, and
		 * readline's own handler, which this jump left
		 */
		RL_UNSETSTATE(RL_STATE_SIGHANDLER |
			      RL_STATE_ISEARCH | RL_STATE_NSEARCH |
			      RL_STATE_SEARCH | RL_STATE_NUMERICARG |
			      RL_STATE_MULTIKEY | RL_STATE_METANEXT |
			      RL_STATE_COMPLETING | RL_STATE_MACROINPUT);
		putchar('\n');
	}
	/*
	 * readline() saves the handler it finds and puts it back: after a
	 * jump that is this one again, hence sigint_before, taken once
	 */
	sigaction(SIGINT, &sa, NULL);
	at_prompt = 1;
	line = readline(prompt);
	at_prompt = 0;
	sigaction(SIGINT, &sigint_before, NULL);
	return line;
}

int repl_run(struct ctx *ctx)
{
	const char *hist = getenv("LOCKDEP_TOOL_HISTORY");
	char hpath[4096] = "";
	char *line;

	rctx = ctx;
	sigaction(SIGINT, NULL, &sigint_before);
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
	rl_char_is_quoted_p = char_is_quoted;
	rl_basic_word_break_characters = " \t\n";
	rl_getc_function = getc_interruptible;
	using_history();
	stifle_history(1000);
	if (*hpath)
		read_history(hpath);
	printf(TOOL_NAME
	       " %s: 'help' lists the commands, Tab completes, Ctrl-C clears the line, Ctrl-D leaves\n",
	       TOOL_VERSION);
	while (!ctx->quit && (line = read_line("lockdep> "))) {
		char **argv, err[128];
		int argc;

		if (*line &&
		    (!history_length ||
		     strcmp(history_get(history_base + history_length - 1)->line,
			    line))) {
			add_history(line);
			/* kept even if the command is interrupted */
			if (*hpath)
				write_history(hpath);
		}
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
