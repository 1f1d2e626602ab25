// SPDX-License-Identifier: GPL-2.0
/*
 * cmd_show.c - `show CLASS`: everything the model knows about one class,
 * and an explicit "unknown" for what the source could not tell.
 */
#include <string.h>

#include "cmd.h"

static void text_dep(FILE *f, const struct ld_model *m, uint32_t d, bool out)
{
	const struct ld_dep *e = &m->deps[d];
	const struct ld_class *o = &m->classes[out ? e->to : e->from];
	char tb[16];

	fprintf(f, "    %s @%u ", out ? "->" : "<-", o->id);
	out_str(f, o->name);
	fputs("  [", f);
	if (e->distance)
		fprintf(f, "distance %d", e->distance);
	else
		fputs("distance unknown", f);
	fprintf(f, ", type %s",
		e->type_known ? ld_dep_type_str(e->type, true, tb) : "unknown");
	if (!e->trace_known)
		fputs(", stack unknown", f);
	else if (e->trace == LD_NONE)
		fputs(", no stack saved", f);
	fputs("]\n", f);
	if (e->trace_known)
		text_trace(f, m, e->trace, "         ");
}

/*
 * A wait type in words (enum lockdep_wait_type; an outer of 0 means the
 * inner one), or its number and what it may be where the model cannot
 * tell: 3 without a 4 anywhere, or a newer kernel's value.
 */
static void text_wait(FILE *f, const struct ld_model *m, struct ld_num w,
		      bool outer)
{
	const char *name = ld_known(w) ? ld_wait_name(m, w.v) : NULL;

	if (!ld_known(w))
		fputs("unknown", f);
	else if (outer && w.v == LD_WAIT_INV)
		fputs("same as inner", f);
	else if (w.v == LD_WAIT_INV)
		fputs("inv (not checked)", f);
	else if (name)
		fputs(name, f);
	else if (w.v == LD_WAIT_CONFIG)
		fprintf(f, "3 (config with CONFIG_PROVE_RAW_LOCK_NESTING, else sleep: %s)",
			m->merge ? "the snapshots do not all tell the same" :
				   "no class here says which");
	else
		fprintf(f, "%lld (a newer kernel's)", (long long)w.v);
}

static void text_ls_row(FILE *f, const char *what, const int64_t *v)
{
	char b1[32], b2[32], b3[32], b4[32];

	fprintf(f,
		"    %s: contentions %lld (wait total %s us, max %s us), "
		"acquisitions %lld (hold total %s us, max %s us), bounces %lld/%lld\n",
		what, (long long)v[LD_LS_CONTENTIONS],
		fmt_us(v[LD_LS_WAIT_TOTAL], b1, sizeof(b1)),
		fmt_us(v[LD_LS_WAIT_MAX], b2, sizeof(b2)),
		(long long)v[LD_LS_ACQUISITIONS],
		fmt_us(v[LD_LS_HOLD_TOTAL], b3, sizeof(b3)),
		fmt_us(v[LD_LS_HOLD_MAX], b4, sizeof(b4)),
		(long long)v[LD_LS_CON_BOUNCES],
		(long long)v[LD_LS_ACQ_BOUNCES]);
}

static void show_text(struct ctx *ctx, uint32_t id)
{
	const struct ld_model *m = ctx->m;
	const struct ld_class *c = &m->classes[id];
	FILE *f = ctx->out;
	enum ld_ls_match match;
	unsigned int b;
	uint32_t k, nr, row;
	char u[5];
	bool any;

	ld_fd_bd(m, id);
	fprintf(f, "class @%u: ", id);
	out_str(f, c->name);
	fputc('\n', f);
	fputs("  key:         ", f);
	if (c->key_sym.len == 1 && c->key_sym.s[0] == '?') {
		/* lockdep-debugfs.rst: a static key without a symbol */
		fputs("static, no symbol (a per-CPU key, or a kernel without CONFIG_KALLSYMS_ALL)",
		      f);
	} else if (c->key_sym.len) {
		out_str(f, c->key_sym);
	} else if (c->key_not_static) {
		/* lockdep-debugfs.rst: '-', not a static object */
		fputs("not a static object, no symbol (a dynamic key of lockdep_register_key(), or one in init data freed since boot)",
		      f);
	} else if (c->key_hash_known) {
		fprintf(f, "%016llx (hashed pointer, valid for this boot only)",
			(unsigned long long)c->key_hash);
	} else {
		fputs("unknown", f);
	}
	fputc('\n', f);
	if (ld_known(c->kid))
		fprintf(f, "  kernel id:   %lld\n", (long long)c->kid.v);
	fputs("  name:        ", f);
	if (c->base_is_key) {
		fputs("no class name: the kernel prints its key's symbol\n", f);
	} else {
		out_text_quoted(f, c->base.s, c->base.len);
		fprintf(f, ", version %lld, subclass %lld%s\n",
			(long long)c->name_version.v, (long long)c->subclass.v,
			c->name_version.src == LD_SRC_DERIVED ?
				" (split from the printed name)" :
				"");
	}
	fputs("  usage:       ", f);
	if (!c->usage_known) {
		fputs("unknown (no CONFIG_PROVE_LOCKING data)\n", f);
	} else {
		any = false;
		for (b = 0; b < LD_NR_USAGE_BITS; b++)
			if (c->usage & c->usage_known & (1u << b)) {
				fprintf(f, "%s%s", any ? ", " : "",
					ld_usage_word(b));
				any = true;
			}
		ld_usage_chars(c->usage, c->usage_known, u);
		fprintf(f, "%s (%s)\n", any ? "" : "none", u);
		if (c->usage_known != LD_USAGE_ALL) {
			fputs("  not known:   ", f);
			any = false;
			for (b = 0; b < LD_NR_USAGE_BITS; b++)
				if (!(c->usage_known & (1u << b))) {
					fprintf(f, "%s%s", any ? ", " : "",
						ld_usage_word(b));
					any = true;
				}
			fputs(" (not in this source)\n", f);
		}
	}
	fputs("  fd/bd:       ", f);
	if (ld_known(c->fd)) {
		fprintf(f, "%lld / %lld (%s)\n", (long long)c->fd.v,
			(long long)c->bd.v,
			c->fd.src == LD_SRC_COMPUTED ?
				"recomputed from the dependency lists" :
				"as the kernel counted them");
	} else {
		fputs("unknown\n", f);
	}
	fputs("  ops:         ", f);
	text_num(f, 0, c->ops);
	fputc('\n', f);
	fputs("  wait types:  ", f);
	if (ld_known(c->wait_inner)) {
		const char *lt = ld_known(c->lock_type) ?
					 ld_lock_type_name(c->lock_type.v) :
					 "unknown";

		fputs("inner ", f);
		text_wait(f, m, c->wait_inner, false);
		fputs(", outer ", f);
		text_wait(f, m, c->wait_outer, true);
		if (lt)
			fprintf(f, ", lock type %s\n", lt);
		else
			fprintf(f, ", lock type %lld (a newer kernel's)\n",
				(long long)c->lock_type.v);
	} else {
		fputs("unknown (not in /proc)\n", f);
	}

	if (!m->have.deps) {
		fputs("  dependencies: unknown (no CONFIG_PROVE_LOCKING data)\n",
		      f);
	} else {
		nr = ld_nr_out(m, id);
		fprintf(f, "  taken while holding it (%u%s):\n", nr,
			m->have.dep_all_distances ? "" : ", distance 1 only");
		for (k = m->out_off[id]; k < m->out_off[id + 1]; k++)
			text_dep(f, m, m->out[k], true);
		nr = ld_nr_in(m, id);
		fprintf(f, "  held when it is taken (%u%s):\n", nr,
			m->have.dep_all_distances ? "" : ", distance 1 only");
		for (k = m->in_off[id]; k < m->in_off[id + 1]; k++)
			text_dep(f, m, m->in[k], false);
	}

	if (!m->have.usage_traces) {
		fputs("  usage traces: unknown (not in this source)\n", f);
	} else {
		fputs("  usage traces:\n", f);
		for (b = 0; b < LD_NR_USAGE_BITS; b++) {
			if (!(c->usage & (1u << b)))
				continue;
			const char *gap = usage_trace_gap(m, id, b);

			fprintf(f, "    %s:%s%s\n", ld_usage_word(b),
				gap ? " " : "", gap ? gap : "");
			if (!gap)
				text_trace(f, m, c->usage_trace[b], "      ");
		}
	}

	if (!m->have.chains) {
		fputs("  chains: unknown (not in this source)\n", f);
	} else {
		nr = 0;
		for (k = m->cc_off[id]; k < m->cc_off[id + 1]; k++)
			nr += m->cc[k] != LD_NONE;
		fprintf(f, "  chains holding it (%u):\n", nr);
		for (k = m->cc_off[id]; k < m->cc_off[id + 1]; k++) {
			if (m->cc[k] == LD_NONE)
				continue;
			fputs("    ", f);
			text_chain(f, m, m->cc[k]);
		}
	}

	match = ld_class_lockstat(m, id, &row);
	if (match == LD_LSM_UNKNOWN) {
		fputs("  lock_stat: unknown (no /proc/lock_stat)\n", f);
	} else if (match == LD_LSM_AMBIGUOUS) {
		fputs("  lock_stat: ambiguous: the row '", f);
		out_str(f, m->lockstat[row].name);
		fputs("' fits this class and others (the kernel cuts names to 37 characters), or is one of several rows for it: see 'lockstat'\n",
		      f);
	} else if (match == LD_LSM_CUT) {
		fputs("  lock_stat: unknown (no row in the part of /proc/lock_stat read: the file was cut short)\n",
		      f);
	} else if (match == LD_LSM_NONE) {
		fputs("  lock_stat: no row (not acquired since the statistics were cleared)\n",
		      f);
	} else {
		const struct ld_lockstat *ls = &m->lockstat[row];

		fputs("  lock_stat:\n", f);
		if (ls->has_w)
			text_ls_row(f, ls->has_r ? "write" : "all", ls->w);
		if (ls->has_r)
			text_ls_row(f, "read", ls->r);
		for (k = 0; k < ls->nr_contention; k++) {
			fprintf(f, "    contention point %llu x ",
				(unsigned long long)ls->contention[k].count);
			out_str(f, ls->contention[k].sym);
			fputc('\n', f);
		}
		for (k = 0; k < ls->nr_contending; k++) {
			fprintf(f, "    contending point %llu x ",
				(unsigned long long)ls->contending[k].count);
			out_str(f, ls->contending[k].sym);
			fputc('\n', f);
		}
	}
}

/* "deps_out" (taken under class @id) or "deps_in": an array, or null */
static void json_deps(struct jw *w, const struct ld_model *m, uint32_t id,
		      bool out)
{
	const uint32_t *off = out ? m->out_off : m->in_off;
	const uint32_t *list = out ? m->out : m->in;
	uint32_t k;

	jw_key(w, out ? "deps_out" : "deps_in");
	if (!m->have.deps) {
		jw_null(w);
		return;
	}
	jw_arr_start(w);
	for (k = off[id]; k < off[id + 1]; k++)
		json_dep(w, m, list[k]);
	jw_arr_end(w);
}

static void show_json(struct ctx *ctx, uint32_t id)
{
	const struct ld_model *m = ctx->m;
	const struct ld_class *c = &m->classes[id];
	struct jw w;
	unsigned int b;
	uint32_t k, row;

	jw_init(&w, ctx->out, ctx->pretty);
	jw_doc_start(&w, "show");
	jw_key(&w, "class");
	json_class(&w, m, id, false);
	json_deps(&w, m, id, true);
	json_deps(&w, m, id, false);
	jw_key(&w, "usage_traces");
	if (m->have.usage_traces) {
		jw_obj_start(&w);
		for (b = 0; b < LD_NR_USAGE_BITS; b++) {
			if (!(c->usage & (1u << b)))
				continue;
			jw_key(&w, ld_usage_word(b));
			json_usage_trace(&w, m, id, b);
		}
		jw_obj_end(&w);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "chains");
	if (m->have.chains) {
		jw_arr_start(&w);
		for (k = m->cc_off[id]; k < m->cc_off[id + 1]; k++)
			if (m->cc[k] != LD_NONE)
				json_chain(&w, m, m->cc[k]);
		jw_arr_end(&w);
	} else {
		jw_null(&w);
	}
	jw_key(&w, "lockstat");
	if (m->have.lockstat && c->lockstat != LD_NONE)
		json_lockstat(&w, m, c->lockstat);
	else
		jw_null(&w);
	jw_kbool(&w, "lockstat_known", m->have.lockstat);
	/* why "lockstat" is null: the match words of `lockstat -j` */
	jw_kstr(&w, "lockstat_match",
		ls_match_name(ld_class_lockstat(m, id, &row)));
	jw_doc_end(&w);
}

int cmd_show(struct ctx *ctx, struct cmd_args *a)
{
	uint32_t id;
	int ret;

	ret = resolve_class(ctx, a->argv[0], &id);
	if (ret)
		return ret;
	if (ctx->json)
		show_json(ctx, id);
	else
		show_text(ctx, id);
	return EXIT_OK;
}
