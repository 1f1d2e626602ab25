// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_classes.c - `classes`: list lock classes, filtered by a regular
 * expression on the name and by usage state, sorted, or just counted.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

enum { O_USAGE, O_SORT, O_COUNT, O_REVERSE };

#define B(x) (1u << LD_##x)

/* 1: the class is in @state, 0: it is not, -1: the source cannot tell */
static int usage_match(const struct ld_class *c, const char *state)
{
	uint16_t known = c->usage_known, set = c->usage & known;
	uint16_t want;
	int bit;

	if (!strcmp(state, "irq-safe"))
		want = B(USED_IN_HARDIRQ) | B(USED_IN_SOFTIRQ);
	else if (!strcmp(state, "irq-unsafe"))
		want = B(ENABLED_HARDIRQ) | B(ENABLED_SOFTIRQ);
	else if (!strcmp(state, "unused") || !strcmp(state, "uncategorized")) {
		uint16_t must = strcmp(state, "unused") ? B(USED) : 0;

		if (set & ~must)
			return 0;
		/*
		 * /proc's "...." with OPS > 0 stays unknown: taken as a
		 * writer or a reader, or not at all, since the kernel keeps
		 * OPS per class slot and a zapped class's slot is reused.
		 */
		return known == LD_USAGE_ALL ? set == must : -1;
	} else {
		bit = ld_usage_from_word(state);
		if (bit < 0)
			return 0;
		want = 1u << bit;
	}
	if (set & want)
		return 1;
	return (known & want) == want ? 0 : -1;
}

static const struct ld_model *sort_m;
static int sort_key;
static bool sort_rev;

static int cmp_class(const void *pa, const void *pb)
{
	const struct ld_class *a = &sort_m->classes[*(const uint32_t *)pa];
	const struct ld_class *b = &sort_m->classes[*(const uint32_t *)pb];
	struct ld_num x = { 0, 1 }, y = { 0, 1 };
	size_t n;
	int r = 0;

	switch (sort_key) {
	case 'n':
		n = a->name.len < b->name.len ? a->name.len : b->name.len;
		r = memcmp(a->name.s, b->name.s, n);
		if (!r)
			r = (a->name.len > b->name.len) -
			    (a->name.len < b->name.len);
		break;
	case 'f':
		x = a->fd;
		y = b->fd;
		break;
	case 'b':
		x = a->bd;
		y = b->bd;
		break;
	case 'o':
		x = a->ops;
		y = b->ops;
		break;
	}
	/* unknown values sort last, whatever the direction */
	if (ld_known(x) != ld_known(y))
		return ld_known(y) - ld_known(x);
	if (!r)
		r = (x.v > y.v) - (x.v < y.v);
	if (!r)
		r = (a->id > b->id) - (a->id < b->id);
	return sort_rev ? -r : r;
}

int cmd_classes(struct ctx *ctx, struct cmd_args *a)
{
	const struct ld_model *m = ctx->m;
	uint32_t *ids, n = 0, i, unknown = 0;
	char *buf = NULL;
	size_t alloc = 0;
	regex_t re;
	bool have_re = a->argc > 0;
	int ret = EXIT_OK, rc;

	if (have_re) {
		rc = regcomp(&re, a->argv[0], REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char msg[128];

			regerror(rc, &re, msg, sizeof(msg));
			return usage_error(ctx, "bad regular expression: %s",
					   msg);
		}
	}
	ids = malloc((m->nr_classes + 1) * sizeof(*ids));
	if (!ids) {
		err_msg("out of memory");
		ret = EXIT_DATA;
		goto out;
	}
	for (i = 0; i < m->nr_classes; i++) {
		const struct ld_class *c = &m->classes[i];

		if (have_re) {
			if (c->name.len + 1 > alloc) {
				char *nb = realloc(buf, c->name.len + 1);

				if (!nb) {
					err_msg("out of memory");
					ret = EXIT_DATA;
					goto out;
				}
				buf = nb;
				alloc = c->name.len + 1;
			}
			memcpy(buf, c->name.s, c->name.len);
			buf[c->name.len] = '\0';
			if (regexec(&re, buf, 0, NULL, 0))
				continue;
		}
		if (a->set[O_USAGE]) {
			int um = usage_match(c, a->val[O_USAGE]);

			if (um < 0)
				unknown++;
			if (um <= 0)
				continue;
		}
		ids[n++] = i;
	}
	/* the export has no FD/BD of the kernel's kind: compute them */
	if (!a->set[O_COUNT] && n > 64 && ld_fd_bd_all(m)) {
		err_msg("out of memory");
		ret = EXIT_DATA;
		goto out;
	}
	for (i = 0; !a->set[O_COUNT] && i < n; i++)
		if (ld_fd_bd(m, ids[i])) {
			err_msg("out of memory");
			ret = EXIT_DATA;
			goto out;
		}
	if (a->set[O_SORT] || a->set[O_REVERSE]) {
		const char *k = a->set[O_SORT] ? a->val[O_SORT] : "id";

		sort_m = m;
		sort_key = !strcmp(k, "ops") ? 'o' : k[0];
		if (!strcmp(k, "id"))
			sort_key = 'i';
		sort_rev = a->set[O_REVERSE];
		qsort(ids, n, sizeof(*ids), cmp_class);
	}
	if (ctx->json) {
		struct jw w;

		jw_init(&w, ctx->out, ctx->pretty);
		jw_doc_start(&w, "classes");
		jw_kint(&w, "count", n);
		jw_kint(&w, "unknown_usage", unknown);
		if (!a->set[O_COUNT]) {
			jw_key(&w, "classes");
			jw_arr_start(&w);
			for (i = 0; i < n; i++)
				json_class(&w, m, ids[i], true);
			jw_arr_end(&w);
		}
		jw_doc_end(&w);
	} else if (a->set[O_COUNT]) {
		fprintf(ctx->out, "%u\n", n);
	} else {
		fprintf(ctx->out, "%6s %6s %6s %-5s %10s %s\n", "ID", "FD",
			"BD", "USAGE", "OPS", "NAME");
		for (i = 0; i < n; i++) {
			const struct ld_class *c = &m->classes[ids[i]];
			char u[5];

			fprintf(ctx->out, "%6u ", c->id);
			text_num(ctx->out, 6, c->fd);
			fputc(' ', ctx->out);
			text_num(ctx->out, 6, c->bd);
			fputc(' ', ctx->out);
			if (c->usage_known)
				ld_usage_chars(c->usage, c->usage_known, u);
			else
				strcpy(u, "-");
			fprintf(ctx->out, "%-5s ", u);
			text_num(ctx->out, 10, c->ops);
			fputc(' ', ctx->out);
			out_str(ctx->out, c->name);
			fputc('\n', ctx->out);
		}
	}
	if (unknown)
		warn_msg(
			"%u %s left out: the source cannot tell whether %s %s",
			unknown, ld_plural(unknown, "class", "classes"),
			ld_plural(unknown, "it is", "they are"),
			a->val[O_USAGE]);
out:
	free(buf);
	free(ids);
	if (have_re)
		regfree(&re);
	return ret;
}
