/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model_cmp.h - for the tests and the fuzzers: do two models read from
 * the same input hold the same thing?  Used to check the parsers' fast
 * paths (ld_fast_paths) against their general paths, and their threads
 * (ld_parallel) against one thread.
 */
#ifndef MODEL_CMP_H
#define MODEL_CMP_H

#include <string.h>

#include "ld_internal.h"

static inline int mc_str(struct ld_str a, struct ld_str b)
{
	return a.len != b.len || (a.len && memcmp(a.s, b.s, a.len));
}

/* @n ids each, both present or both NULL */
static inline int mc_ids(const uint32_t *a, const uint32_t *b, size_t n)
{
	return !a != !b || (a && n && memcmp(a, b, n * sizeof(uint32_t)));
}

/* NULL when the same, else what differs first */
static inline const char *model_cmp(const struct ld_model *a,
				    const struct ld_model *b)
{
	uint32_t i;

	if (a->nr_classes != b->nr_classes)
		return "number of classes";
	for (i = 0; i < a->nr_classes; i++)
		if (mc_str(a->classes[i].name, b->classes[i].name) ||
		    a->classes[i].usage != b->classes[i].usage ||
		    memcmp(a->classes[i].usage_trace, b->classes[i].usage_trace,
			   sizeof(a->classes[i].usage_trace)))
			return "a class";
	if (a->nr_deps != b->nr_deps)
		return "number of dependencies";
	for (i = 0; i < a->nr_deps; i++) {
		const struct ld_dep *x = &a->deps[i], *y = &b->deps[i];

		if (x->from != y->from || x->to != y->to ||
		    x->trace != y->trace || x->distance != y->distance ||
		    x->type != y->type || x->type_known != y->type_known ||
		    x->trace_known != y->trace_known)
			return "a dependency";
	}
	if (a->nr_chains != b->nr_chains ||
	    a->nr_chain_locks != b->nr_chain_locks)
		return "number of chains or chain locks";
	for (i = 0; i < a->nr_chains; i++) {
		const struct ld_chain *x = &a->chains[i], *y = &b->chains[i];

		if (x->key != y->key || x->kid != y->kid ||
		    x->depth != y->depth || x->first != y->first ||
		    x->irq_context != y->irq_context ||
		    x->key_known != y->key_known ||
		    x->read_known != y->read_known)
			return "a chain";
	}
	if (mc_ids(a->chain_locks, b->chain_locks, a->nr_chain_locks))
		return "chain locks";
	if (a->nr_unlisted != b->nr_unlisted)
		return "number of unlisted chain locks";
	for (i = 0; i < a->nr_unlisted; i++)
		if (a->unlisted[i].at != b->unlisted[i].at ||
		    a->unlisted[i].name.len != b->unlisted[i].name.len ||
		    memcmp(a->unlisted[i].name.s, b->unlisted[i].name.s,
			   a->unlisted[i].name.len))
			return "an unlisted chain lock";
	if (!a->chain_reads != !b->chain_reads ||
	    (a->chain_reads && a->nr_chain_locks &&
	     memcmp(a->chain_reads, b->chain_reads, a->nr_chain_locks)))
		return "chain read states";
	if (mc_ids(a->out_off, b->out_off, a->nr_classes + 1) ||
	    mc_ids(a->in_off, b->in_off, a->nr_classes + 1) ||
	    mc_ids(a->out, b->out, a->nr_deps) ||
	    mc_ids(a->in, b->in, a->nr_deps))
		return "dependency index";
	if (mc_ids(a->cc_off, b->cc_off, a->nr_classes + 1) ||
	    (a->cc_off && b->cc_off &&
	     mc_ids(a->cc, b->cc, a->cc_off[a->nr_classes])))
		return "chain index";
	if (a->nr_traces != b->nr_traces || a->nr_frames != b->nr_frames)
		return "number of traces or frames";
	for (i = 0; i < a->nr_traces; i++)
		if (a->traces[i].kid.v != b->traces[i].kid.v ||
		    a->traces[i].first != b->traces[i].first ||
		    a->traces[i].nr != b->traces[i].nr)
			return "a trace";
	for (i = 0; i < a->nr_frames; i++)
		if (mc_str(a->frames[i], b->frames[i]))
			return "a frame";
	if (a->nr_unresolved != b->nr_unresolved || a->partial != b->partial ||
	    a->consistent != b->consistent ||
	    memcmp(&a->have, &b->have, sizeof(a->have)))
		return "the summary";
	if (a->nr_warnings != b->nr_warnings)
		return "number of warnings";
	for (i = 0; i < a->nr_warnings; i++)
		if (strcmp(a->warnings[i], b->warnings[i]))
			return "a warning";
	return NULL;
}

static inline int mc_num(struct ld_num a, struct ld_num b)
{
	return a.src != b.src || a.v != b.v;
}

/* a class's own fields, as read (not its stacks or lock_stat row) */
static inline int mc_class(const struct ld_class *a, const struct ld_class *b)
{
	return mc_str(a->name, b->name) || mc_str(a->base, b->base) ||
	       mc_str(a->key_sym, b->key_sym) ||
	       a->key_not_static != b->key_not_static || a->usage != b->usage ||
	       a->usage_known != b->usage_known || mc_num(a->kid, b->kid) ||
	       mc_num(a->ops, b->ops) || mc_num(a->fd, b->fd) ||
	       mc_num(a->bd, b->bd) || mc_num(a->nr_after, b->nr_after) ||
	       mc_num(a->nr_before, b->nr_before) ||
	       mc_num(a->wait_inner, b->wait_inner) ||
	       mc_num(a->wait_outer, b->wait_outer) ||
	       mc_num(a->lock_type, b->lock_type);
}

/*
 * NULL when @part, a load of only @what (LD_LOAD_*) of the input @all was
 * read from, holds what @all holds of those kinds and nothing else.
 */
static inline const char *model_cmp_part(const struct ld_model *all,
					 const struct ld_model *part,
					 unsigned int what)
{
	bool traces = what & LD_LOAD_TRACES;
	uint32_t i;

	if (part->loaded != what)
		return "what was loaded";
	if (!(what & LD_LOAD_GRAPH)) {
		if (part->nr_classes || part->nr_deps || part->nr_chains ||
		    part->have.classes)
			return "a graph not asked for";
	} else {
		if (all->nr_classes != part->nr_classes ||
		    all->nr_deps != part->nr_deps)
			return "number of classes or dependencies";
		for (i = 0; i < all->nr_classes; i++)
			if (mc_class(&all->classes[i], &part->classes[i]) ||
			    (traces &&
			     memcmp(all->classes[i].usage_trace,
				    part->classes[i].usage_trace,
				    sizeof(all->classes[i].usage_trace))))
				return "a class";
		for (i = 0; i < all->nr_deps; i++) {
			const struct ld_dep *x = &all->deps[i];
			const struct ld_dep *y = &part->deps[i];

			if (x->from != y->from || x->to != y->to ||
			    x->distance != y->distance || x->type != y->type ||
			    x->type_known != y->type_known ||
			    (traces && (x->trace != y->trace ||
					x->trace_known != y->trace_known)))
				return "a dependency";
		}
	}
	if (what & LD_LOAD_CHAINS) {
		if (all->nr_chains != part->nr_chains ||
		    all->nr_chain_locks != part->nr_chain_locks ||
		    mc_ids(all->chain_locks, part->chain_locks,
			   all->nr_chain_locks) ||
		    (all->chain_reads && all->nr_chain_locks &&
		     memcmp(all->chain_reads, part->chain_reads,
			    all->nr_chain_locks)))
			return "chains";
		for (i = 0; i < all->nr_chains; i++)
			if (all->chains[i].irq_context !=
				    part->chains[i].irq_context ||
			    all->chains[i].depth != part->chains[i].depth ||
			    all->chains[i].key != part->chains[i].key)
				return "a chain";
	} else if (part->nr_chains || part->have.chains) {
		return "chains not asked for";
	}
	if (traces) {
		if (all->nr_traces != part->nr_traces ||
		    all->nr_frames != part->nr_frames)
			return "traces";
	} else if (part->nr_traces || part->have.traces ||
		   part->have.usage_traces) {
		return "traces not asked for";
	}
	if (what & LD_LOAD_STATS) {
		if (all->nr_stats != part->nr_stats)
			return "counters";
		for (i = 0; i < all->nr_stats; i++)
			if (mc_str(all->stats[i].key, part->stats[i].key) ||
			    all->stats[i].value != part->stats[i].value ||
			    mc_num(all->stats[i].max, part->stats[i].max))
				return "a counter";
	} else if (part->nr_stats || part->have.stats) {
		return "counters not asked for";
	}
	if (what & LD_LOAD_LOCKSTAT) {
		if (all->nr_lockstat != part->nr_lockstat)
			return "lock_stat";
		for (i = 0; i < all->nr_lockstat; i++)
			if (all->lockstat[i].class != part->lockstat[i].class)
				return "a lock_stat row's class";
	} else if (part->nr_lockstat || part->have.lockstat) {
		return "lock_stat not asked for";
	}
	return NULL;
}

#endif /* MODEL_CMP_H */
