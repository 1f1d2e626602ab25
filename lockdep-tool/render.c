// SPDX-License-Identifier: GPL-2.0
/*
 * render.c - renderers shared by several commands: a class as JSON, usage
 * words, numbers that may be unknown, and the irq kind used for colours.
 */
#include <string.h>

#include "cmd.h"

void json_usage(struct jw *w, const struct ld_class *c)
{
	unsigned int b;

	jw_key(w, "usage");
	jw_arr_start(w);
	for (b = 0; b < LD_NR_USAGE_BITS; b++)
		if (c->usage & c->usage_known & (1u << b))
			jw_str(w, ld_usage_word(b));
	jw_arr_end(w);
	jw_key(w, "usage_unknown");
	jw_arr_start(w);
	for (b = 0; b < LD_NR_USAGE_BITS; b++)
		if (!(c->usage_known & (1u << b)))
			jw_str(w, ld_usage_word(b));
	jw_arr_end(w);
}

void json_class_open(struct jw *w, const struct ld_model *m, uint32_t id)
{
	const struct ld_class *c = &m->classes[id];

	ld_fd_bd(m, id);
	jw_obj_start(w);
	jw_kint(w, "id", c->id);
	jw_kstrn(w, "name", c->name);
	json_usage(w, c);
	jw_knum(w, "fd", c->fd);
	jw_knum(w, "bd", c->bd);
}

static void jw_str_or_null(struct jw *w, const char *s)
{
	if (s)
		jw_str(w, s);
	else
		jw_null(w);
}

void json_class(struct jw *w, const struct ld_model *m, uint32_t id, bool brief)
{
	const struct ld_class *c = &m->classes[id];

	json_class_open(w, m, id);
	if (brief) {
		jw_knum(w, "ops", c->ops);
		jw_obj_end(w);
		return;
	}
	jw_key(w, "fd_bd_source");
	if (ld_known(c->fd))
		jw_str(w, ld_src_name(c->fd.src));
	else
		jw_null(w);
	jw_knum(w, "kernel_id", c->kid);
	jw_key(w, "key");
	if (c->key_sym.len)
		jw_strn(w, c->key_sym.s, c->key_sym.len);
	else
		jw_null(w);
	/* the export tells: a symbol or '?' static, '-' not */
	jw_key(w, "key_static");
	if (c->key_not_static || c->key_sym.len)
		jw_bool(w, !c->key_not_static);
	else
		jw_null(w);
	jw_key(w, "key_hash");
	if (c->key_hash_known) {
		char buf[24];

		snprintf(buf, sizeof(buf), "%016llx",
			 (unsigned long long)c->key_hash);
		jw_str(w, buf);
	} else {
		jw_null(w);
	}
	jw_key(w, "base_name");
	if (c->base_is_key)
		jw_null(w);
	else
		jw_strn(w, c->base.s, c->base.len);
	jw_knum(w, "name_version", c->name_version);
	jw_knum(w, "subclass", c->subclass);
	jw_key(w, "name_parts_source");
	jw_str(w, ld_src_name(c->name_version.src));
	jw_knum(w, "ops", c->ops);
	jw_knum(w, "wait_inner", c->wait_inner);
	jw_knum(w, "wait_outer", c->wait_outer);
	jw_knum(w, "lock_type", c->lock_type);
	/* the numbers by name; null where the model cannot tell which */
	jw_key(w, "wait_inner_name");
	jw_str_or_null(w, ld_known(c->wait_inner) ?
				  ld_wait_name(m, c->wait_inner.v) :
				  NULL);
	jw_key(w, "wait_outer_name");
	if (ld_known(c->wait_outer) && c->wait_outer.v == LD_WAIT_INV)
		jw_str(w, "same-as-inner");
	else
		jw_str_or_null(w, ld_known(c->wait_outer) ?
					  ld_wait_name(m, c->wait_outer.v) :
					  NULL);
	jw_key(w, "lock_type_name");
	jw_str_or_null(w, ld_known(c->lock_type) ?
				  ld_lock_type_name(c->lock_type.v) :
				  NULL);
	jw_knum(w, "locks_after", c->nr_after);
	jw_knum(w, "locks_before", c->nr_before);
	jw_key(w, "deps_out");
	if (m->have.deps)
		jw_uint(w, ld_nr_out(m, id));
	else
		jw_null(w);
	jw_key(w, "deps_in");
	if (m->have.deps)
		jw_uint(w, ld_nr_in(m, id));
	else
		jw_null(w);
	jw_obj_end(w);
}

void text_num(FILE *f, int width, struct ld_num n)
{
	char buf[32];

	if (ld_known(n))
		snprintf(buf, sizeof(buf), "%lld", (long long)n.v);
	else
		strcpy(buf, "-");
	fprintf(f, "%*s", width, buf);
}

#define B(x) (1u << LD_##x)

const char *class_irq_kind(const struct ld_class *c)
{
	uint16_t u = c->usage & c->usage_known;

	if (!c->usage_known)
		return "unknown";
	/*
	 * Read-safe alone is weaker: such a lock may still be read-acquired
	 * with irqs enabled, and lockdep's checks for it differ
	 */
	if (u & B(USED_IN_HARDIRQ))
		return "hardirq-safe";
	if (u & B(USED_IN_HARDIRQ_READ))
		return "hardirq-read-safe";
	if (u & B(USED_IN_SOFTIRQ))
		return "softirq-safe";
	if (u & B(USED_IN_SOFTIRQ_READ))
		return "softirq-read-safe";
	if (u & (B(ENABLED_HARDIRQ) | B(ENABLED_HARDIRQ_READ) |
		 B(ENABLED_SOFTIRQ) | B(ENABLED_SOFTIRQ_READ)))
		return "irq-unsafe";
	if (!u && (c->usage_known & (B(USED) | B(USED_READ))) ==
			  (B(USED) | B(USED_READ)))
		return "unused";
	/* /proc/lockdep's "....": used in process context only, or unused */
	return "no-irq";
}

const char *missing_why(const struct ld_model *m, const char *proc_file,
			const char *ex_file)
{
	static char buf[128];

	/* the export writes every file, empty without PROVE_LOCKING */
	if (m->from_export)
		snprintf(buf, sizeof(buf), "no '%s' file in the export",
			 ex_file);
	else if (m->have.usage) /* usage characters: PROVE_LOCKING */
		snprintf(buf, sizeof(buf), "no %s file in this source",
			 proc_file);
	else
		snprintf(buf, sizeof(buf),
			 "a kernel without CONFIG_PROVE_LOCKING?");
	return buf;
}

const char *irq_ctx_word(unsigned int ctx)
{
	/* ld_irq_ctx_str() spells process context "0", as /proc does */
	return (ctx & 3) ? ld_irq_ctx_str(ctx) : "process";
}

void json_trace(struct jw *w, const struct ld_model *m, uint32_t t)
{
	const struct ld_trace *tr;
	uint32_t i;

	if (t == LD_NONE) {
		jw_arr_start(w);
		jw_arr_end(w);
		return;
	}
	if (t >= m->nr_traces) {
		jw_null(w);
		return;
	}
	tr = &m->traces[t];
	jw_arr_start(w);
	for (i = 0; i < tr->nr; i++)
		jw_strn(w, m->frames[tr->first + i].s,
			m->frames[tr->first + i].len);
	jw_arr_end(w);
}

void json_dep(struct jw *w, const struct ld_model *m, uint32_t d)
{
	const struct ld_dep *e = &m->deps[d];
	char tb[16];

	jw_obj_start(w);
	jw_kint(w, "from", e->from);
	jw_kint(w, "to", e->to);
	jw_kstrn(w, "from_name", m->classes[e->from].name);
	jw_kstrn(w, "to_name", m->classes[e->to].name);
	jw_key(w, "distance");
	if (e->distance)
		jw_int(w, e->distance);
	else
		jw_null(w);
	jw_key(w, "type");
	if (e->type_known)
		jw_str(w, ld_dep_type_str(e->type, true, tb));
	else
		jw_null(w);
	jw_key(w, "trace");
	if (e->trace_known)
		json_trace(w, m, e->trace);
	else
		jw_null(w);
	jw_obj_end(w);
}

const char *usage_trace_gap(const struct ld_model *m, uint32_t c,
			    unsigned int bit)
{
	const struct ld_class *cl = &m->classes[c];

	if (!m->have.usage_traces)
		return "unknown: no usage traces in this source";
	if (cl->usage_trace_unknown & (1u << bit))
		return "unknown: the export does not give it (no line in the usage file, or a trace not in the traces file)";
	if (cl->usage_trace[bit] == LD_NONE)
		return "no stack saved";
	return NULL;
}

void json_usage_trace(struct jw *w, const struct ld_model *m, uint32_t c,
		      unsigned int bit)
{
	if (!m->have.usage_traces ||
	    (m->classes[c].usage_trace_unknown & (1u << bit)))
		jw_null(w);
	else
		json_trace(w, m, m->classes[c].usage_trace[bit]);
}

void json_chain(struct jw *w, const struct ld_model *m, uint32_t i)
{
	const struct ld_chain *ch = &m->chains[i];
	uint32_t k;

	jw_obj_start(w);
	jw_kint(w, "index", i);
	jw_knum(w, "kernel_id", ld_chain_kid(ch));
	jw_kstr(w, "irq_context", irq_ctx_word(ch->irq_context));
	jw_key(w, "key");
	if (ch->key_known) {
		char buf[24];

		snprintf(buf, sizeof(buf), "0x%016llx",
			 (unsigned long long)ch->key);
		jw_str(w, buf);
	} else {
		jw_null(w);
	}
	jw_key(w, "classes");
	jw_arr_start(w);
	for (k = 0; k < ch->depth; k++) {
		uint32_t c = m->chain_locks[ch->first + k];

		if (c == LD_NONE)
			jw_null(w);
		else
			jw_int(w, c);
	}
	jw_arr_end(w);
	jw_key(w, "names");
	jw_arr_start(w);
	for (k = 0; k < ch->depth; k++) {
		uint32_t c = m->chain_locks[ch->first + k];
		struct ld_str n = c == LD_NONE ?
					  ld_chain_lock_name(m, ch->first + k) :
					  m->classes[c].name;

		/* a class not in the list: the name the chains file gave */
		if (c == LD_NONE && !n.len)
			jw_null(w);
		else
			jw_strn(w, n.s, n.len);
	}
	jw_arr_end(w);
	jw_key(w, "read");
	if (ch->read_known) {
		jw_arr_start(w);
		for (k = 0; k < ch->depth; k++)
			jw_int(w, m->chain_reads[ch->first + k]);
		jw_arr_end(w);
	} else {
		jw_null(w);
	}
	jw_obj_end(w);
}

void text_chain(FILE *f, const struct ld_model *m, uint32_t i)
{
	const struct ld_chain *ch = &m->chains[i];
	uint32_t k;

	fprintf(f, "chain %u", i);
	if (ch->kid != LD_NONE && ch->kid != i)
		fprintf(f, " (kernel %u)", ch->kid);
	fprintf(f, " [%s]:", irq_ctx_word(ch->irq_context));
	if (!ch->depth) /* /proc leaves out classes being zapped */
		fputs(" (no locks listed: their classes were zapped)", f);
	for (k = 0; k < ch->depth; k++) {
		uint32_t c = m->chain_locks[ch->first + k];

		fputs(k ? " -> " : " ", f);
		if (c != LD_NONE) {
			out_str(f, m->classes[c].name);
		} else if (ld_chain_lock_name(m, ch->first + k).len) {
			out_str(f, ld_chain_lock_name(m, ch->first + k));
			fputs(" (not in the class list)", f);
		} else {
			fputs("?", f);
		}
		if (ch->read_known && m->chain_reads[ch->first + k])
			fprintf(f, " (%s)",
				m->chain_reads[ch->first + k] == 2 ?
					"recursive read" :
					"read");
	}
	fputc('\n', f);
}

void text_trace(FILE *f, const struct ld_model *m, uint32_t t,
		const char *indent)
{
	const struct ld_trace *tr;
	uint32_t i;

	if (t == LD_NONE || t >= m->nr_traces)
		return;
	tr = &m->traces[t];
	if (!tr->nr)
		fprintf(f, "%s(empty stack)\n", indent);
	for (i = 0; i < tr->nr; i++) {
		fprintf(f, "%s#%u ", indent, i);
		out_str(f, m->frames[tr->first + i]);
		fputc('\n', f);
	}
}

static void json_ls_row(struct jw *w, const int64_t *v)
{
	static const char *const keys[LD_LS_NR] = {
		"con_bounces",	   "contentions",	"waittime_min_us",
		"waittime_max_us", "waittime_total_us", "waittime_avg_us",
		"acq_bounces",	   "acquisitions",	"holdtime_min_us",
		"holdtime_max_us", "holdtime_total_us", "holdtime_avg_us",
	};
	int i;

	jw_obj_start(w);
	for (i = 0; i < LD_LS_NR; i++) {
		jw_key(w, keys[i]);
		if (ld_ls_is_time(i))
			jw_fixed2(w, v[i]);
		else
			jw_int(w, v[i]);
	}
	jw_obj_end(w);
}

/* a row that may have been cut away is not known to be missing */
static const char *const match_names[] = { "none", "exact", "ambiguous",
					     "unknown", "unknown" };

const char *ls_match_name(enum ld_ls_match match)
{
	return match_names[match];
}

void json_lockstat(struct jw *w, const struct ld_model *m, uint32_t i)
{
	const struct ld_lockstat *ls = &m->lockstat[i];
	int k;

	jw_obj_start(w);
	jw_kstrn(w, "printed_name", ls->name);
	jw_kstr(w, "match", match_names[ls->match]);
	jw_key(w, "class");
	if (ls->class != LD_NONE)
		jw_int(w, ls->class);
	else
		jw_null(w);
	jw_key(w, "name");
	if (ls->class != LD_NONE)
		jw_strn(w, m->classes[ls->class].name.s,
			m->classes[ls->class].name.len);
	else
		jw_null(w);
	jw_key(w, "write");
	if (ls->has_w)
		json_ls_row(w, ls->w);
	else
		jw_null(w);
	jw_key(w, "read");
	if (ls->has_r)
		json_ls_row(w, ls->r);
	else
		jw_null(w);
	jw_key(w, "contention_points");
	jw_arr_start(w);
	for (k = 0; k < ls->nr_contention; k++) {
		jw_obj_start(w);
		jw_kint(w, "count", ls->contention[k].count);
		jw_kstrn(w, "symbol", ls->contention[k].sym);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_key(w, "contending_points");
	jw_arr_start(w);
	for (k = 0; k < ls->nr_contending; k++) {
		jw_obj_start(w);
		jw_kint(w, "count", ls->contending[k].count);
		jw_kstrn(w, "symbol", ls->contending[k].sym);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

/* "12.34" from units of 0.01 us */
const char *fmt_us(int64_t v, char *buf, size_t size)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;

	snprintf(buf, size, "%s%llu.%02u", v < 0 ? "-" : "",
		 (unsigned long long)(a / 100), (unsigned int)(a % 100));
	return buf;
}
