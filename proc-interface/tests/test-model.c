// SPDX-License-Identifier: GPL-2.0
/*
 * test-model.c - unit tests of the proc-interface library: the fixtures
 * captured from our guest, the hand-made ones, and edge cases built in
 * memory.  Prints one "ok NAME" / "not ok NAME" line per test (with "# "
 * diagnostics); tests/run-tests.sh numbers them into KTAP.
 *
 * usage: test-model FIXTURES_DIR [GENERATED_SNAPSHOT_DIR]
 *
 * The second directory (bench/gen-snapshot's proc/ and export/) is big
 * enough for the parsers to use their second threads.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ld_internal.h"
#include "merge.h"
#include "model_cmp.h"

static const char *fixdir;
static int failed_here;

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond)) {                                          \
			printf("# %s:%d: CHECK(%s) failed\n", __FILE__, \
			       __LINE__, #cond);                        \
			failed_here = 1;                                \
		}                                                       \
	} while (0)

#define CHECK_STR(s, len, want)                                              \
	do {                                                                 \
		size_t _l = strlen(want);                                    \
		if ((len) != _l || memcmp((s), (want), _l)) {                \
			printf("# %s:%d: got '%.*s', want '%s'\n", __FILE__, \
			       __LINE__, (int)(len), (s), want);             \
			failed_here = 1;                                     \
		}                                                            \
	} while (0)

static void report(const char *name)
{
	printf("%s %s\n", failed_here ? "not ok" : "ok", name);
	failed_here = 0;
}

static struct ld_model *load(const char *sub)
{
	struct ld_model *m = NULL;
	struct ld_diag d;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", fixdir, sub);
	if (ld_load_path(&m, path, &d)) {
		printf("# load %s: %s\n", sub, d.msg);
		failed_here = 1;
		return NULL;
	}
	return m;
}

static uint32_t cls(const struct ld_model *m, const char *name)
{
	uint32_t id;

	if (ld_find_class(m, name, strlen(name), &id, 1) != 1) {
		printf("# no single class '%s'\n", name);
		failed_here = 1;
		return 0;
	}
	return id;
}

/* Load in-memory files; returns the error code and fills *mp / d. */
static int mem(struct ld_model **mp, struct ld_diag *d, const char *name,
	       const char *data)
{
	struct ld_input in = { name, name, data, strlen(data) };

	*mp = NULL;
	return ld_load_buffers(mp, &in, 1, d);
}

static void expect_error(const char *name, const char *data, const char *msg)
{
	struct ld_model *m;
	struct ld_diag d;
	int ret = mem(&m, &d, name, data);

	CHECK(ret < 0);
	if (ret < 0 && !strstr(d.msg, msg)) {
		printf("# diagnostic '%s' lacks '%s'\n", d.msg, msg);
		failed_here = 1;
	}
	ld_model_free(m);
}

static void test_handmade_prove(void)
{
	struct ld_model *m = load("handmade/prove");
	const struct ld_class *c;
	const struct ld_lockstat *ls;

	if (!m)
		return report("handmade_prove_load");
	CHECK(m->nr_classes == 11);
	CHECK(m->nr_deps == 8); /* distance-1 entries only */
	CHECK(m->nr_chains == 6);
	CHECK(m->have.deps && m->have.kernel_fd_bd && m->have.ops);
	CHECK(!m->have.dep_types && !m->have.traces && !m->have.wait_types);
	CHECK(m->release && !strcmp(m->release, "6.12.0-handmade"));
	CHECK(m->nr_warnings == 0);
	report("handmade_prove_counts");

	c = &m->classes[cls(m, "&type->s_umount_key#26/1")];
	CHECK_STR(c->base.s, c->base.len, "&type->s_umount_key");
	CHECK(c->name_version.v == 26 && c->subclass.v == 1);
	CHECK(c->name_version.src == LD_SRC_DERIVED);
	CHECK(c->fd.v == 5 && c->bd.v == 1 && c->fd.src == LD_SRC_PROC);
	CHECK(c->ops.v == 310);
	CHECK(!ld_known(c->wait_inner));
	c = &m->classes[cls(m, "rcu_read_lock")];
	/* read bits imply a read acquisition: USED_READ, USED unknown */
	CHECK(c->usage == ((1 << LD_USED_IN_HARDIRQ_READ) |
			   (1 << LD_ENABLED_HARDIRQ_READ) | (1 << LD_USED_READ)));
	CHECK(c->usage_known == (LD_USAGE_IRQ | 1 << LD_USED_READ));
	c = &m->classes[cls(m, "&rq->__lock")]; /* -.-. */
	CHECK(c->usage == ((1 << LD_USED_IN_HARDIRQ) |
			   (1 << LD_USED_IN_SOFTIRQ) | (1 << LD_USED)));
	CHECK(c->usage_known == (LD_USAGE_IRQ | 1 << LD_USED));
	c = &m->classes[cls(m, "&dev->mutex")]; /* +.+. */
	CHECK(c->usage == ((1 << LD_ENABLED_HARDIRQ) |
			   (1 << LD_ENABLED_SOFTIRQ) | (1 << LD_USED)));
	c = &m->classes[cls(m, "(console_sem).lock")]; /* ...., OPS 77 */
	CHECK(c->usage == 0 && c->usage_known == LD_USAGE_IRQ);
	c = &m->classes[cls(m, "kernfs_open_file_mutex")]; /* ...., OPS 0 */
	CHECK(c->usage == 0 && c->usage_known == LD_USAGE_ALL);
	c = &m->classes[cls(m, "name with spaces 'q' \"dq\" #tag")];
	CHECK(ld_nr_out(m, c->id) == 1);
	CHECK_STR(m->classes[m->deps[m->out[m->out_off[c->id]]].to].name.s,
		  m->classes[m->deps[m->out[m->out_off[c->id]]].to].name.len,
		  "caf\xc3\xa9_lock");
	report("handmade_prove_classes");

	c = &m->classes[cls(m, "&rq->__lock")];
	CHECK(ld_nr_in(m, c->id) == 3 && ld_nr_out(m, c->id) == 0);
	CHECK(m->cc_off[c->id + 1] - m->cc_off[c->id] == 3);
	CHECK(m->chains[0].depth == 3 && m->chains[3].irq_context == 3);
	report("handmade_prove_deps_chains");

	CHECK(m->have.lockstat && m->nr_lockstat == 6);
	CHECK(c->lockstat != LD_NONE);
	ls = &m->lockstat[c->lockstat];
	CHECK(ls->has_w && !ls->has_r && ls->w[LD_LS_CONTENTIONS] == 40);
	CHECK(ls->w[LD_LS_WAIT_TOTAL] == 19000); /* 190.00 us */
	CHECK(ls->nr_contention == 2 && ls->nr_contending == 1);
	CHECK(ls->contention[1].count == 10);
	CHECK_STR(ls->contending[0].sym.s, ls->contending[0].sym.len,
		  "scheduler_tick+0x5a/0x2b0");
	c = &m->classes[cls(m, "rcu_read_lock")];
	ls = &m->lockstat[c->lockstat];
	CHECK(ls->has_w && ls->has_r && ls->r[LD_LS_ACQUISITIONS] == 999990);
	CHECK(ls->nr_contention == 1 && ls->nr_contending == 0);
	c = &m->classes[cls(
		m,
		"&(&net->ipv4.mr_tables_very_long_name)->lock_for_truncation")];
	CHECK(c->lockstat != LD_NONE);
	c = &m->classes[cls(m, "&type->s_umount_key#26/1")];
	CHECK(c->lockstat != LD_NONE); /* printed as "...#2/1" */
	c = &m->classes[cls(m, "&rq->__lock#2")];
	ls = &m->lockstat[c->lockstat];
	CHECK(ls->nr_contention == 0 && ls->nr_contending == 1);
	report("handmade_prove_lockstat");
	ld_model_free(m);
}

/*
 * A printed name's "#N" and "/N" back off: a subclass is 1..7
 * (MAX_LOCKDEP_SUBCLASSES), anything else is part of the name.
 */
static void test_name_parts(void)
{
	static const struct {
		const char *name, *base;
		int64_t version, subclass;
	} t[] = {
		{ "&type->s_umount_key#26/1", "&type->s_umount_key", 26, 1 },
		{ "&rq->__lock/7", "&rq->__lock", 1, 7 },
		{ "&rq->__lock/8", "&rq->__lock/8", 1, 0 },
		{ "&rq->__lock/12", "&rq->__lock/12", 1, 0 },
		{ "&rq->__lock/0", "&rq->__lock/0", 1, 0 },
		{ "&x#2/3", "&x", 2, 3 },
		{ "&x#1", "&x#1", 1, 0 },
		{ "/3", "/3", 1, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct ld_class c = { 0 };

		c.name.s = t[i].name;
		c.name.len = strlen(t[i].name);
		ld_derive_name_parts(&c);
		CHECK_STR(c.base.s, c.base.len, t[i].base);
		CHECK(c.name_version.v == t[i].version);
		CHECK(c.subclass.v == t[i].subclass);
	}
	report("name_parts");
}

static void test_handmade_noprove(void)
{
	struct ld_model *m = load("handmade/noprove");
	const struct ld_class *c;

	if (!m)
		return report("handmade_noprove");
	CHECK(m->nr_classes == 11 && !m->have.deps && !m->have.usage);
	CHECK(!m->have.chains && !m->have.ops);
	c = &m->classes[cls(m, "&rq->__lock")];
	CHECK(!ld_known(c->fd) && !ld_known(c->bd) && !c->usage_known);
	CHECK(!ld_known(c->ops));
	report("handmade_noprove_unknown_not_zero");
	ld_model_free(m);
}

static void test_handmade_export(void)
{
	struct ld_model *m = load("handmade/export"),
			*p = load("handmade/prove");
	const struct ld_class *c;
	uint32_t i;

	if (!m || !p)
		return report("handmade_export");
	CHECK(m->from_export && m->consistent && m->generation == 4711);
	CHECK(m->nr_classes == 11 && m->nr_deps == 9 && m->nr_chains == 6);
	CHECK(m->have.dep_types && m->have.traces && m->have.usage_traces);
	CHECK(m->have.chain_keys && m->nr_traces == 5);
	c = &m->classes[cls(m, "caf\xc3\xa9_lock")]; /* octal escapes */
	CHECK(c->key_sym.len == 7);
	c = &m->classes[cls(m, "kernfs_open_file_mutex")]; /* name "-" */
	CHECK(c->base_is_key);
	c = &m->classes[cls(m, "&type->s_umount_key#26/1")];
	CHECK(c->name_version.src == LD_SRC_EXPORT && c->subclass.v == 1);
	CHECK_STR(c->key_sym.s, c->key_sym.len, "ext4_fs_type[ext4]");
	c = &m->classes[cls(m, "&rq->__lock")];
	CHECK(c->usage_known == LD_USAGE_ALL && (c->usage & (1 << LD_USED)));
	CHECK(c->usage_trace[LD_USED_IN_HARDIRQ] != LD_NONE);
	CHECK(m->traces[c->usage_trace[LD_USED_IN_HARDIRQ]].nr == 2);
	CHECK(c->nr_before.v == 3 && ld_known(c->wait_inner));
	report("handmade_export_fields");
	/* FD/BD recomputed from the export agree with the kernel's */
	CHECK(!ld_known(m->classes[0].fd)); /* computed on demand */
	CHECK(!ld_fd_bd_all(m)); /* SR|EN and EN only: closure */
	for (i = 0; i < m->nr_classes; i++) {
		const struct ld_class *a = &m->classes[i];
		uint32_t id;

		if (ld_find_class(p, a->name.s, a->name.len, &id, 1) != 1) {
			CHECK(0);
			continue;
		}
		CHECK(a->fd.src == LD_SRC_COMPUTED);
		if (a->fd.v != p->classes[id].fd.v ||
		    a->bd.v != p->classes[id].bd.v) {
			printf("# %s: fd/bd %lld/%lld, kernel %lld/%lld\n",
			       a->name.s, (long long)a->fd.v,
			       (long long)a->bd.v,
			       (long long)p->classes[id].fd.v,
			       (long long)p->classes[id].bd.v);
			failed_here = 1;
		}
	}
	report("export_fd_bd_match_kernel");
	/* the bitset closure and the per-class BFS agree */
	{
		struct ld_model *b = load("handmade/export");

		for (i = 0; b && i < b->nr_classes; i++) {
			CHECK(!ld_fd_bd(b, i));
			CHECK(b->classes[i].fd.v == m->classes[i].fd.v);
			CHECK(b->classes[i].bd.v == m->classes[i].bd.v);
		}
		ld_model_free(b);
	}
	report("fd_bd_closure_equals_bfs");
	for (i = 0; i < m->nr_deps; i++)
		if (m->deps[i].distance == 2)
			CHECK(m->deps[i].type == LD_DEP_EN);
	CHECK(m->chain_reads[m->chains[2].first] == 2);
	report("handmade_export_deps_chains");
	ld_model_free(m);
	ld_model_free(p);

	m = load("handmade/export-inconsistent");
	if (m) {
		CHECK(!m->consistent && m->nr_warnings >= 1);
		ld_model_free(m);
	}
	report("export_inconsistent_generations");
}

/*
 * Whether @m's chain index is what a plain scan of the chains gives: for
 * each class, every chain holding it once (a class twice in a chain, as
 * nested read locks are, too), in ascending order, and nothing else but
 * LD_NONE holes.
 */
static bool chain_index_as_scanned(const struct ld_model *m)
{
	uint32_t *next, i, j, k, c, p;
	bool ok = m->cc_off && m->cc;

	next = ok ? malloc((m->nr_classes + 1) * sizeof(*next)) : NULL;
	if (!next)
		return false;
	memcpy(next, m->cc_off, m->nr_classes * sizeof(*next));
	for (i = 0; ok && i < m->nr_chains; i++) {
		const uint32_t *cl = m->chain_locks + m->chains[i].first;

		for (j = 0; ok && j < m->chains[i].depth; j++) {
			c = cl[j];
			for (k = 0; k < j && cl[k] != c; k++)
				;
			if (c == LD_NONE || k < j)
				continue;
			for (p = next[c];
			     p < m->cc_off[c + 1] && m->cc[p] == LD_NONE; p++)
				;
			ok = p < m->cc_off[c + 1] && m->cc[p] == i;
			next[c] = p + 1;
		}
	}
	for (c = 0; ok && c < m->nr_classes; c++)
		for (p = next[c]; ok && p < m->cc_off[c + 1]; p++)
			ok = m->cc[p] == LD_NONE;
	free(next);
	return ok;
}

static void test_real(void)
{
	struct ld_model *m;
	const struct ld_stat *st;
	uint32_t i, exact = 0;

	m = load("stock-6.12.118-workload");
	if (!m)
		return report("real_stock_6_12");
	CHECK(m->nr_classes == 616);
	st = ld_stat_get(m, "lock_classes");
	CHECK(st && st->value == 616 && st->max.v == 8192);
	st = ld_stat_get(m, "debug_locks");
	CHECK(st && st->value == 1);
	st = ld_stat_get(m, "zapped_classes");
	CHECK(st && st->value == 757 && st->blank_before);
	CHECK(m->nr_unresolved == 0 && m->nr_warnings == 0);
	CHECK(m->nr_chains >= 3800 && m->have.kernel_fd_bd && m->have.ops);
	/* FD counts the class itself plus at least its direct deps */
	for (i = 0; i < m->nr_classes; i++)
		CHECK(m->classes[i].fd.v >= 1 + (int64_t)ld_nr_out(m, i) ||
		      !ld_nr_out(m, i));
	for (i = 0; i < m->nr_lockstat; i++)
		exact += m->lockstat[i].match == LD_LSM_EXACT;
	CHECK(m->nr_lockstat == 616 && exact >= 560);
	/* 151 chains hold rcu_read_lock twice (nested read locks) */
	CHECK(chain_index_as_scanned(m));
	report("real_stock_6_12");
	ld_model_free(m);
}

/*
 * The chain index that two threads share, part by part: a thread of its
 * own and the thread waiting for it, or the export's chains thread and
 * the first thread (ld_chains_thread_min 0: any size).  The same as one
 * thread builds, whichever fills the parts, with a class twice in some
 * chains (the stock and export captures), with fewer chains than parts
 * (handmade/prove) and without chains (handmade/noprove).
 */
static void test_chain_index_shared(void)
{
	static const char *const sub[] = {
		"stock-6.12.118-workload", "export-6.12.118-workload",
		"handmade/prove", "handmade/noprove",
	};
	size_t omin = ld_index_thread_min, ocmin = ld_chains_thread_min;
	unsigned int i, k;
	const char *diff;

	ld_chains_thread_min = 0;
	for (i = 0; i < ARRAY_SIZE(sub); i++) {
		struct ld_model *one, *m;

		ld_parallel = false;
		one = load(sub[i]);
		ld_parallel = true;
		if (!one)
			continue;
		ld_index_thread_min = 0;
		for (k = 0; k < 3; k++) {
			ld_index_share = k;
			m = load(sub[i]);
			if (!m)
				continue;
			CHECK(chain_index_as_scanned(m));
			diff = model_cmp(one, m);
			if (diff) {
				printf("# %s, share %u: %s differs\n", sub[i],
				       k, diff);
				failed_here = 1;
			}
			ld_model_free(m);
		}
		ld_index_share = 0;
		ld_index_thread_min = omin;
		ld_model_free(one);
	}
	ld_chains_thread_min = ocmin;
	report("chain_index_shared_by_two_threads");
}

/*
 * The chain index counts a model's chain locks in one run when the chains
 * lie one after the other, as parsed, and chain by chain when not (a
 * union, an edited model): both give the same index.
 */
static void test_chain_index(void)
{
	struct ld_model *m = load("export-6.12.118-workload");
	uint32_t *locks, *off, *cc, i, k = 0, n;

	if (!m)
		return report("chain_index_any_layout");
	n = m->nr_chain_locks;
	CHECK(m->cc_off && m->nr_chains > 1000 && n > m->nr_chains);
	CHECK(chain_index_as_scanned(m));
	locks = malloc((n + 1) * sizeof(*locks));
	off = m->cc_off;
	cc = m->cc;
	m->cc_off = m->cc = NULL;
	if (!locks || !off || !cc) {
		free(locks);
		failed_here = 1;
		goto out;
	}
	/* the same chains, their locks stored last chain first */
	for (i = m->nr_chains; i-- > 0;) {
		memcpy(locks + k, m->chain_locks + m->chains[i].first,
		       m->chains[i].depth * sizeof(*locks));
		m->chains[i].first = k;
		k += m->chains[i].depth;
	}
	CHECK(k == n);
	memcpy(m->chain_locks, locks, n * sizeof(*locks));
	free(locks);
	CHECK(!ld_index_chains(m, m->nr_classes));
	CHECK(m->cc_off && !memcmp(m->cc_off, off,
				   (m->nr_classes + 1) * sizeof(*off)));
	CHECK(m->cc && !memcmp(m->cc, cc, off[m->nr_classes] * sizeof(*cc)));
out:
	free(off);
	free(cc);
	report("chain_index_any_layout");
	ld_model_free(m);
}

static const char ok_lockdep[] =
	"all lock classes:\n"
	"00000000a1b2c3d4 OPS:       1 FD:    2 BD:    1 ....: a\n"
	" -> [00000000b1b2c3d4] b\n\n"
	"00000000b1b2c3d4 OPS:       1 FD:    1 BD:    2 ....: b\n\n";

static void test_proc_errors(void)
{
	struct ld_model *m;
	struct ld_diag d;

	expect_error("lockdep", "", "lockdep:1: empty file");
	expect_error("lockdep", "hello\n",
		     "lockdep:1: expected 'all lock classes:'");
	expect_error("lockdep",
		     "all lock classes:\n"
		     "00000000a1b2c3d4 OPS:   1 FD:    1 BD:    1 .x..: a\n",
		     "lockdep:2: bad usage character 'x'");
	expect_error("lockdep", "all lock classes:\n -> [0000] a\n",
		     "lockdep:2: dependency before any class");
	expect_error("lockdep",
		     "all lock classes:\n"
		     "00000000a1b2c3d4 FD:    1 BD:    1 ....: a\n"
		     "00000000a1b2c3d5: b\n",
		     "lockdep:3: fields differ");
	expect_error("lockdep",
		     "all lock classes:\n"
		     "00000000a1b2c3d4 FD: x BD:    1 ....: a\n",
		     "lockdep:2: bad number");
	expect_error("lockdep_chains", "all lock chains:\n",
		     "lock chains without /proc/lockdep");
	expect_error("lock_stat", "lock_stat version 0.3\n",
		     "unsupported lock_stat version '0.3'");
	expect_error("lockdep_stats", " lock-classes: many\n",
		     "lockdep_stats:1: expected a number");
	report("proc_errors_have_file_line");

	/* a line cut in the middle: keep the rest, say so */
	CHECK(!mem(&m, &d, "lockdep",
		   "all lock classes:\n"
		   "00000000a1b2c3d4 FD:    1 BD:    1 ....: a\n\n"
		   "00000000a1b2c3d5 FD:    1 B"));
	if (m) {
		CHECK(m->nr_classes == 1 && m->partial && m->nr_warnings == 1);
		ld_model_free(m);
	}
	report("proc_truncated_is_partial");

	CHECK(!mem(&m, &d, "lockdep",
		   "all lock classes:\r\n"
		   "00000000a1b2c3d4 FD:    1 BD:    1 ....: a\r\n\r\n"));
	if (m) {
		CHECK(m->nr_classes == 1 && m->classes[0].name.len == 1);
		ld_model_free(m);
	}
	report("proc_crlf");

	CHECK(!mem(&m, &d, "lockdep", ok_lockdep));
	if (m) {
		CHECK(m->nr_deps == 1 && m->deps[0].to == 1);
		ld_model_free(m);
	}
	report("proc_forward_reference");
}

static void test_weird_names(void)
{
	static const char data[] =
		"all lock classes:\n"
		"(____ptrval____): \x1b[31mred\x01 \xff\xfe bytes\n"
		"00000000a1b2c3d4: spaced  name # / \"'\n"
		"00000000a1b2c3d5: \n";
	struct ld_model *m;
	struct ld_diag d;
	size_t big = 10 << 20;
	char *s;

	CHECK(!mem(&m, &d, "lockdep", data));
	if (m) {
		CHECK(m->nr_classes == 3 && !m->have.deps);
		CHECK(!m->classes[0].key_hash_known);
		CHECK_STR(m->classes[1].name.s, m->classes[1].name.len,
			  "spaced  name # / \"'");
		CHECK(m->classes[2].name.len == 0);
		ld_model_free(m);
	}
	report("names_control_nonascii_spaces");

	/* a 10 MB line */
	s = malloc(big + 64);
	if (!s)
		return report("ten_megabyte_line");
	strcpy(s, "all lock classes:\n00000000a1b2c3d4: ");
	memset(s + strlen(s), 'x', big);
	strcpy(s + 36 + big, "\n");
	CHECK(!mem(&m, &d, "lockdep", s));
	if (m) {
		CHECK(m->nr_classes == 1 && m->classes[0].name.len == big);
		ld_model_free(m);
	}
	memset(s, 'y', big);
	s[big] = '\0';
	CHECK(mem(&m, &d, "lockdep", s) < 0 && strstr(d.msg, "lockdep:1:"));
	free(s);
	report("ten_megabyte_line");
}

static void test_lockstat_ambiguities(void)
{
	static const char hdr[] = "lock_stat version 0.4\n-----\n"
				  "  class name  con-bounces\n-----\n\n";
	static const char row[] =
		"             0              1           0.10           0.10"
		"           0.10           0.10              0              2"
		"           0.10           0.10           0.20           0.10\n";
	char buf[4096];
	struct ld_model *m;
	struct ld_diag d;
	struct ld_input in[2];

	/* "x-W:" alone is a class named "x-W"; "y-R:" alone a read row */
	snprintf(buf, sizeof(buf), "%s%38s:%s%38s-R:%s", hdr, "x-W", row, "y",
		 row);
	in[0] = (struct ld_input){
		"lockdep", NULL,
		"all lock classes:\n"
		"00000000a1b2c3d4: x-W\n00000000a1b2c3d5: y\n",
		0
	};
	in[0].len = strlen(in[0].data);
	in[1] = (struct ld_input){ "lock_stat", NULL, buf, strlen(buf) };
	CHECK(!ld_load_buffers(&m, in, 2, &d));
	if (m) {
		CHECK(m->nr_lockstat == 2);
		CHECK(m->lockstat[0].has_w && !m->lockstat[0].has_r);
		CHECK(m->lockstat[0].class == 0);
		CHECK(m->lockstat[1].has_r && m->lockstat[1].class == 1);
		ld_model_free(m);
	}
	/* a lone "z-R:" row for a class named "z-R": write row of "z-R" */
	snprintf(buf, sizeof(buf), "%s%38s-R:%s", hdr, "z", row);
	in[0].data = "all lock classes:\n00000000a1b2c3d4: z-R\n";
	in[0].len = strlen(in[0].data);
	in[1].len = strlen(buf);
	CHECK(!ld_load_buffers(&m, in, 2, &d));
	if (m) {
		CHECK(m->lockstat[0].class == 0 && m->lockstat[0].has_w &&
		      !m->lockstat[0].has_r);
		ld_model_free(m);
	}
	report("lockstat_rw_suffix_ambiguity");

	snprintf(buf, sizeof(buf),
		 "%s%40s:%s                             ----\n"
		 "%40s %14d %29s %s\n%40s:%s",
		 hdr, "a", row, "a", 3, "[<00000000f00dcafe>]", "f+0x1/0x2",
		 "b", row);
	in[0].data = "all lock classes:\n00000000a1b2c3d4: a\n"
		     "00000000a1b2c3d5: b\n";
	in[0].len = strlen(in[0].data);
	in[1].len = strlen(buf);
	CHECK(!ld_load_buffers(&m, in, 2, &d));
	if (m) {
		CHECK(m->nr_lockstat == 2);
		CHECK(m->lockstat[0].nr_contention == 1 &&
		      m->lockstat[0].nr_contending == 0);
		ld_model_free(m);
	} else {
		printf("# %s\n", d.msg);
	}
	report("lockstat_contention_only_block");

	/*
	 * seq_stats(): a class without a name prints its key, no version
	 * (count_matching_names() gives 0), but its subclass
	 */
	snprintf(buf, sizeof(buf), "%s%40s:%s", hdr, "my_key/1", row);
	in[0] = (struct ld_input){
		"lockdep/classes", NULL,
		"# lockdep classes 1 generation 7\n# id key ...\n"
		"3 my_key 0 1 0x100 USED 2 0 0 7 0 0 -\n"
		"4 other_key 1 0 0x100 USED 2 0 0 7 0 0 my_key\n"
		"# end generation 7\n",
		0
	};
	in[0].len = strlen(in[0].data);
	in[1] = (struct ld_input){ "lock_stat", NULL, buf, strlen(buf) };
	CHECK(!ld_load_buffers(&m, in, 2, &d));
	if (m) {
		CHECK(m->nr_lockstat == 1 &&
		      m->lockstat[0].match == LD_LSM_EXACT &&
		      m->lockstat[0].class == 0);
		ld_model_free(m);
	} else {
		printf("# %s\n", d.msg);
	}
	/* lock_stat alone: the classes are unknown, not absent */
	CHECK(!ld_load_buffers(&m, &in[1], 1, &d));
	if (m) {
		CHECK(m->nr_lockstat == 1 &&
		      m->lockstat[0].match == LD_LSM_UNKNOWN &&
		      m->lockstat[0].class == LD_NONE);
		ld_model_free(m);
	}
	report("lockstat_nameless_class_and_no_classes");
}

static const char *ex_classes =
	"# lockdep classes 1 generation 7\n# id key ...\n"
	"0 k0 1 0 0x100 USED 0 0 0 - 1 0 a\\nb\\\\c\\x41\n"
	"5 - 2 3 0x0 - 0 0 0 - 0 1 name with spaces\n"
	"# end generation 7\n";

static void test_export_edges(void)
{
	struct ld_model *m;
	struct ld_diag d;
	struct ld_input in[3];
	uint32_t i, n;

	in[0] = (struct ld_input){ "lockdep/classes", NULL, ex_classes,
				   strlen(ex_classes) };
	CHECK(!ld_load_buffers(&m, in, 1, &d));
	if (m) {
		CHECK(m->nr_classes == 2 && !m->have.deps);
		CHECK_STR(m->classes[0].name.s, m->classes[0].name.len,
			  "a\nb\\cA");
		CHECK_STR(m->classes[1].name.s, m->classes[1].name.len,
			  "name with spaces#2/3");
		CHECK(!ld_known(m->classes[0].ops));
		ld_model_free(m);
	} else {
		printf("# %s\n", d.msg);
	}
	report("export_escapes_and_suffixes");

	/* the counters of an export without them: nothing, no generation */
	m = NULL;
	CHECK(!ld_load_buffers_only(&m, in, 1, LD_LOAD_STATS, &d));
	if (m)
		CHECK(m->from_export && !m->has_generation &&
		      !m->have.classes && !m->have.stats && !m->nr_classes);
	ld_model_free(m);
	report("export_counters_only_without_counters");

	expect_error("lockdep/classes", "# lockdep classes 2 generation 1\n",
		     "unsupported format version 2");
	expect_error("lockdep/classes",
		     "# lockdep classes 1 generation 1\n#\n"
		     "0 k 1 0 0x100 USED,used_in_nmi 0 0 0 - 0 0 a\n",
		     "bad usage state 'used_in_nmi'");
	expect_error("lockdep/classes",
		     "# lockdep classes 1 generation 1\n#\n"
		     "0 k 1 0 0xg USED 0 0 0 - 0 0 a\n",
		     "bad usage_mask");
	expect_error("lockdep/classes",
		     "# lockdep classes 1 generation 1\n#\n"
		     "0 k 1 0 0x100 USED 0 0\n",
		     "missing field 'lock_type'");
	expect_error("lockdep/deps", "# lockdep deps 1 generation 1\n#\n",
		     "without its 'classes' file");
	in[1] = (struct ld_input){
		"lockdep/deps", NULL,
		"# lockdep deps 1 generation 7\n#\n0 5 1 X1 -\n"
		"# end generation 7\n",
		0
	};
	in[1].len = strlen(in[1].data);
	CHECK(ld_load_buffers(&m, in, 2, &d) < 0 &&
	      strstr(d.msg, "lockdep/deps:3: bad dependency type 'X1'"));
	report("export_errors");

	/*
	 * What a newer kernel may print without a new format version: usage
	 * states and dependency types of names this reader does not know,
	 * another bit layout of usage_mask.  Ignored with a warning; the
	 * dependency's types are unknown, not "SN" alone.
	 */
	in[0].data = "# lockdep classes 1 generation 7\n#\n"
		     "0 k0 1 0 0x1101 USED,USED_IN_NMI 0 0 0 - 1 0 a\n"
		     "1 k1 1 0 0x100 USED 0 0 0 - 0 1 b\n"
		     "# end generation 7\n";
	in[0].len = strlen(in[0].data);
	in[1].data = "# lockdep deps 1 generation 7\n#\n0 1 1 SN|XN -\n"
		     "# end generation 7\n";
	in[1].len = strlen(in[1].data);
	in[2] = (struct ld_input){
		"lockdep/usage", NULL,
		"# lockdep usage 1 generation 7\n#\n0 USED_IN_NMI -\n"
		"0 USED -\n# end generation 7\n",
		0
	};
	in[2].len = strlen(in[2].data);
	m = NULL;
	CHECK(!ld_load_buffers(&m, in, 3, &d));
	if (m) {
		CHECK(m->nr_classes == 2 && m->nr_deps == 1);
		CHECK(m->classes[0].usage == 1u << LD_USED);
		CHECK(!m->deps[0].type_known);
		for (i = n = 0; i < m->nr_warnings; i++)
			n += !!strstr(m->warnings[i], "a newer kernel's");
		CHECK(n == 3);
		ld_model_free(m);
	} else {
		printf("# %s\n", d.msg);
	}
	report("export_future_names");

	in[0].data = "# lockdep classes 1 generation 7\n#\n"
		     "0 k0 1 0 0x100 USED 0 0 0 - 1 0 a\n";
	in[0].len = strlen(in[0].data);
	CHECK(!ld_load_buffers(&m, in, 1, &d));
	if (m) {
		CHECK(m->partial && !m->consistent && m->nr_classes == 1);
		ld_model_free(m);
	}
	report("export_missing_trailer");

	/*
	 * Ids past the plain arrays of the id maps (2^20 classes, 2^22
	 * trace offsets) go to their hash: found, and caught twice
	 */
	in[0].data = "# lockdep classes 1 generation 7\n#\n"
		     "3 k0 1 0 0x100 USED 0 0 0 - 1 0 a\n"
		     "5000000 k1 1 0 0x100 USED 0 0 0 - 0 1 b\n"
		     "# end generation 7\n";
	in[0].len = strlen(in[0].data);
	in[1] = (struct ld_input){
		"lockdep/traces", NULL,
		"# lockdep traces 1 generation 7\n#\n"
		"16 0 f+0x1/0x2\n9000000 0 g+0x1/0x2\n"
		"# end generation 7\n",
		0
	};
	in[1].len = strlen(in[1].data);
	in[2] = (struct ld_input){
		"lockdep/deps", NULL,
		"# lockdep deps 1 generation 7\n#\n"
		"3 5000000 1 EN 9000000\n5000000 3 1 EN 16\n"
		"# end generation 7\n",
		0
	};
	in[2].len = strlen(in[2].data);
	m = NULL;
	CHECK(!ld_load_buffers(&m, in, 3, &d));
	if (m) {
		CHECK(m->nr_classes == 2 && m->nr_deps == 2 &&
		      !m->nr_unresolved);
		CHECK(m->classes[1].kid.v == 5000000);
		CHECK(m->deps[0].from == 0 && m->deps[0].to == 1 &&
		      m->deps[0].trace == 1);
		CHECK(m->deps[1].from == 1 && m->deps[1].to == 0 &&
		      m->deps[1].trace == 0);
		ld_model_free(m);
	} else {
		printf("# %s\n", d.msg);
	}
	expect_error("lockdep/classes",
		     "# lockdep classes 1 generation 7\n#\n"
		     "5000000 k0 1 0 0x100 USED 0 0 0 - 1 0 a\n"
		     "5000000 k1 1 0 0x100 USED 0 0 0 - 0 1 b\n",
		     "lockdep/classes:4: duplicate class id 5000000");
	expect_error("lockdep/classes",
		     "# lockdep classes 1 generation 7\n#\n"
		     "7 k0 1 0 0x100 USED 0 0 0 - 1 0 a\n"
		     "7 k1 1 0 0x100 USED 0 0 0 - 0 1 b\n",
		     "lockdep/classes:4: duplicate class id 7");
	report("export_ids_past_the_plain_arrays");
}

/*
 * Two loads of the same input, two ways (@wa, @wb): the same result, the
 * same message or the same model; both models freed
 */
static void two_loads_agree(const char *what, const char *wa, int ra,
			    struct ld_model *a, const struct ld_diag *da,
			    const char *wb, int rb, struct ld_model *b,
			    const struct ld_diag *db)
{
	const char *diff;

	if (ra != rb || (ra && strcmp(da->msg, db->msg))) {
		printf("# %s: %s: %d %s, %s: %d %s\n", what, wa, ra,
		       ra ? da->msg : "", wb, rb, rb ? db->msg : "");
		failed_here = 1;
	} else if (!ra && (diff = model_cmp(a, b))) {
		printf("# %s: the models differ in %s\n", what, diff);
		failed_here = 1;
	}
	ld_model_free(a);
	ld_model_free(b);
}

/*
 * The parsers' fast paths (ld_fast_paths) against their general paths:
 * the same result, message or model, for the captured fixtures and for
 * each odd line below, placed where a fast path looks at it (with more
 * than FAST_SPAN bytes after it) and followed by ordinary lines.
 */
static void fast_vs_general(const char *what, const struct ld_input *in,
			    unsigned int n)
{
	struct ld_model *a = NULL, *b = NULL;
	struct ld_diag da, db;
	int ra, rb;

	ra = ld_load_buffers(&a, in, n, &da);
	ld_fast_paths = false;
	rb = ld_load_buffers(&b, in, n, &db);
	ld_fast_paths = true;
	two_loads_agree(what, "fast", ra, a, &da, "general", rb, b, &db);
}

static void fast_vs_general_dir(const char *sub)
{
	struct ld_model *a, *b;
	const char *diff;
	char path[4096];
	struct ld_diag d;

	snprintf(path, sizeof(path), "%s/%s", fixdir, sub);
	if (ld_load_path(&a, path, &d)) {
		printf("# load %s: %s\n", sub, d.msg);
		failed_here = 1;
		return;
	}
	ld_fast_paths = false;
	if (ld_load_path(&b, path, &d)) {
		printf("# load %s without fast paths: %s\n", sub, d.msg);
		failed_here = 1;
	} else if ((diff = model_cmp(a, b))) {
		printf("# %s: the models differ in %s\n", sub, diff);
		failed_here = 1;
	}
	ld_fast_paths = true;
	ld_model_free(a);
	ld_model_free(b);
}

static void test_fast_paths(void)
{
	static const char *const odd_deps[] = {
		"00 01 001 EN 0016\n",	"0 1 1 SR|EN 16\n",
		"0 1 70000 EN 16\n",	"0 1 65535 ER 16\n",
		"0 1 0 EN 16\n",		"0 1 1 EN -\n",
		"0 1 1 EN 16\r\n",	"0 1 1 EN 1234567890\n",
		"0 1 1 EN 99\n",		"9 1 1 EN 16\n",
		"0 1 1 XN 16\n",		"0 1 1 EN 16 \n",
		"0  1 1 EN 16\n",		"0 1 1 EN\n",
		"0 1 1 EN 16",
	};
	static const char *const odd_chains[] = {
		"7 0x1 0 0\n",		"7 0xffffffffffffffff 3 2 0:0 1:2\n",
		"7 0x10 0 2 0:0 1:3\n",	"7 0x10 0 1 0:0 \n",
		"7 0X10 0 1 0:0\n",	"7 0x10 4 1 0:0\n",
		"7 0x10 0 2 0:0\n",	"7 0x10 0 1 0:0 1:0\n",
		"7 0x10 0 1 9:0\n",	"7 0x10 0 1 0:0\r\n",
		"7 0x 0 1 0:0\n",		"7 0x10000000000000000 0 1 0:0\n",
		"4294967295 0x10 0 1 0:0\n", "7 0x10 0 1025 0:0\n",
		"7 0x10 0 01 00:0\n",	"7 0x10 0 1 0:0",
	};
	static const char *const odd_traces[] = {
		"16 1 f+0x1/0x2\n",	"16 1 a\\x41b\n",
		"16 1 a\\qb\n",		"16 1 \n",
		"16 2 f\n",		"16 1 f\r\n",
		"32 1 f\n",		"016 1 f\n",
		"16 01 f\n",		"16 1 f",
	};
	static const char classes[] =
		"# lockdep classes 1 generation 1\n#\n"
		"0 k0 1 0 0x0 - 0 0 0 - 0 0 a\n"
		"1 k1 1 0 0x0 - 0 0 0 - 0 0 b\n"
		"# end generation 1\n";
	static const char *const odd_refs[] = {
		" -> [0000000000000002] b\r\n",	" -> [0000000000000002]b\n",
		" -> [0000000000000002]\n",	" -> 0000000000000002] b\n",
		" ->  [0000000000000002] b\n",	" -> [0000000000000002 b\n",
		" -> [0000000000000003] a name of more than sixty-four bytes, as long as it has to be\n",
		" -> [0000000000000002] \n",	" -> [00000000000000020000000000000000000000000000000000000000000002] b\n",
		" -> [0000000000000002] b\n",	" -> [0000000000000002] b",
		" -> [0000000000000002] b]\n",	" -> [x] b\n",
		"  -> [0000000000000002] b\n",	" -> [0000000000000002]\r b\n",
		/* stored as "...] b\r", which the next line also starts with */
		" -> [0000000000000002] b\r\r\n -> [0000000000000002] b\r\n",
	};
	static const char *const odd_chain_lines[] = {
		"irq_context: 0\r\n",
		"irq_context: softirq\n",
		"irq_context: hardirq|softirq\n",
		"irq_context: bogus\n",
		"irq_context:  0\n",
		"irq_context: 0",
		"\n\n",
		" \n",
		"[0000000000000002] b\n",
		"[0000000000000002] b\r\n",
		"[0000000000000002] b\r\r\n[0000000000000002] b\r\n",
		"[0000000000000002] b",
		"[0000000000000099] b\n",
		"[0000000000000002] a\n",
		"[0000000000000003] a name of more than sixty-four bytes, as long as it has to be\n",
		"[0000000000000003] a name of more than sixty-four bytes, as long as it has to be\n\nirq_context: 0\n",
	};
	unsigned int i, k;

	fast_vs_general_dir("stock-6.12.118-workload");
	fast_vs_general_dir("export-6.12.118-workload");
	fast_vs_general_dir("handmade/prove");
	for (k = 0; k < 3; k++) {
		const char *const *odd = k == 0 ? odd_deps :
					 k == 1 ? odd_chains :
						  odd_traces;
		unsigned int nr = k == 0 ? ARRAY_SIZE(odd_deps) :
				  k == 1 ? ARRAY_SIZE(odd_chains) :
					   ARRAY_SIZE(odd_traces);

		for (i = 0; i < nr; i++) {
			struct ld_input in[3];
			char body[4096], what[160];
			int o = 0, j;

			/* header, an ordinary line, the odd one, 20 more */
			o += sprintf(body + o, "# lockdep %s 1 generation 1\n#\n",
				     k == 0 ? "deps" :
				     k == 1 ? "chains" :
					      "traces");
			for (j = 0; j < 22; j++) {
				if (j == 1)
					o += sprintf(body + o, "%s", odd[i]);
				else if (k == 0)
					o += sprintf(body + o, "0 1 1 EN 16\n");
				else if (k == 1)
					o += sprintf(body + o,
						     "7 0x10 1 2 0:0 1:1\n");
				else /* frame j of trace 16 */
					o += sprintf(body + o,
						     "16 %d f+0x1/0x2\n", j);
				/* an unterminated odd line ends the file */
				if (j == 1 && !strchr(odd[i], '\n'))
					break;
			}
			if (strchr(odd[i], '\n'))
				o += sprintf(body + o, "# end generation 1\n");
			in[0] = (struct ld_input){ "lockdep/classes", NULL,
						   classes, strlen(classes) };
			in[1] = (struct ld_input){ "lockdep/traces", NULL,
						   "# lockdep traces 1 generation 1\n#\n16 0 f\n# end generation 1\n",
						   0 };
			in[1].len = strlen(in[1].data);
			in[k == 2 ? 1 : 2] = (struct ld_input){
				k == 0 ? "lockdep/deps" :
				k == 1 ? "lockdep/chains" :
					 "lockdep/traces",
				NULL, body, (size_t)o
			};
			snprintf(what, sizeof(what), "odd line %u.%u", k, i);
			fast_vs_general(what, in, k == 2 ? 2 : 3);
		}
	}
	/* /proc/lockdep's dependency lines, which pass 1 steps over */
	for (i = 0; i < ARRAY_SIZE(odd_refs); i++) {
		struct ld_input in[1];
		char body[8192], what[160];
		int o = 0, j;

		o += sprintf(body + o, "all lock classes:\n"
				       "0000000000000001 OPS: 1 FD: 1 BD: 1 ....: a\n");
		for (j = 0; j < 40; j++) {
			if (j == 1)
				o += sprintf(body + o, "%s", odd_refs[i]);
			else
				o += sprintf(body + o,
					     " -> [0000000000000002] b\n");
			if (j == 1 && !strchr(odd_refs[i], '\n'))
				break;
		}
		if (strchr(odd_refs[i], '\n'))
			o += sprintf(body + o,
				     "\n0000000000000002 OPS: 1 FD: 0 BD: 1 ....: b\n"
				     "\n0000000000000003 OPS: 1 FD: 0 BD: 0 ....: %s\n\n",
				     "a name of more than sixty-four bytes, as long as it has to be");
		in[0] = (struct ld_input){ "lockdep", NULL, body, (size_t)o };
		snprintf(what, sizeof(what), "odd /proc dependency line %u", i);
		fast_vs_general(what, in, 1);
	}
	/* /proc/lockdep_chains' lines, inside a chain and between two */
	for (i = 0; i < 2 * ARRAY_SIZE(odd_chain_lines); i++) {
		static const char classes_proc[] =
			"all lock classes:\n"
			"0000000000000001 OPS: 1 FD: 0 BD: 0 ....: a\n\n"
			"0000000000000002 OPS: 1 FD: 0 BD: 0 ....: b\n\n"
			"0000000000000003 OPS: 1 FD: 0 BD: 0 ....: a name of more than sixty-four bytes, as long as it has to be\n\n";
		const char *odd = odd_chain_lines[i / 2];
		struct ld_input in[2];
		char body[8192], what[160];
		int o = 0, j;

		o += sprintf(body + o, "all lock chains:\n");
		for (j = 0; j < 20; j++) {
			o += sprintf(body + o, "irq_context: 0\n");
			if (j == 1 && i % 2 == 0)
				o += sprintf(body + o, "%s", odd);
			o += sprintf(body + o, "[0000000000000001] a\n"
					       "[0000000000000002] b\n\n");
			if (j == 1 && i % 2 == 1)
				o += sprintf(body + o, "%s", odd);
			if (j == 1 && !strchr(odd, '\n'))
				break;
		}
		in[0] = (struct ld_input){ "lockdep", NULL, classes_proc,
					   strlen(classes_proc) };
		in[1] = (struct ld_input){ "lockdep_chains", NULL, body,
					   (size_t)o };
		snprintf(what, sizeof(what), "odd /proc chain line %u %s",
			 i / 2, i % 2 ? "between chains" : "in a chain");
		fast_vs_general(what, in, 2);
	}
	report("fast_paths_agree_with_general_paths");
}

/*
 * A snapshot big enough for every second thread (the chains split between
 * two threads, the export's chains thread with its indexes, the chain
 * index thread) read three ways: as usual, without the fast paths, and by
 * one thread: the same model each time.
 */
static unsigned int nr_streamed(const struct ld_model *m);

static void test_generated(const char *dir)
{
	static const char *const sub[2][2] = {
		{ "proc", "proc/lockdep_chains" },
		{ "export", "export/lockdep/chains" },
	};
	static const char *const way[] = {
		"", "without the fast paths", "with one thread",
		"read whole, not streamed", "streamed through 4 KiB",
	};
	struct ld_model *m[ARRAY_SIZE(way)];
	size_t omin = ld_stream_min, obuf = ld_stream_buf;
	const char *diff;
	char path[4096];
	struct ld_diag d;
	struct stat st;
	unsigned int i, k;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i][1]);
		/* the sizes past which the parsers share the work */
		CHECK(!stat(path, &st) && st.st_size >= (i ? 1 : 4) << 20);
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i][0]);
		for (k = 0; k < ARRAY_SIZE(way); k++) {
			ld_fast_paths = k != 1;
			ld_parallel = k != 2;
			ld_stream_min = k == 3 ? SIZE_MAX : omin;
			ld_stream_buf = k == 4 ? 4096 : obuf;
			m[k] = NULL;
			if (ld_load_path(&m[k], path, &d)) {
				printf("# %s (way %u): %s\n", path, k, d.msg);
				failed_here = 1;
			}
		}
		ld_fast_paths = ld_parallel = true;
		ld_stream_min = omin;
		ld_stream_buf = obuf;
		CHECK(m[0] && m[0]->nr_chain_locks >= 65536 &&
		      !m[0]->nr_warnings);
		/* lockdep, its chains and lock_stat; traces, deps, chains */
		CHECK(m[0] && nr_streamed(m[0]) == 3);
		CHECK(m[0] && chain_index_as_scanned(m[0]));
		for (k = 1; k < ARRAY_SIZE(way) && m[0]; k++)
			if (m[k] && (diff = model_cmp(m[0], m[k]))) {
				printf("# %s: %s differs %s\n", sub[i][0], diff,
				       way[k]);
				failed_here = 1;
			}
		for (k = 0; k < ARRAY_SIZE(way); k++)
			ld_model_free(m[k]);
	}
	report("generated_snapshot_threads_and_fast_paths_agree");
}

/*
 * A random export whose types let the kernel's BFS prune (recursive
 * reads), with repeated entries, and with a cycle when @cycle: what
 * ld_fd_bd_all() computes at once must be what one BFS per class gives.
 */
static char *random_export(uint64_t seed, unsigned int n, bool cycle,
			   size_t *len)
{
	static const char *const types[] = { "EN",    "EN",    "EN",
					     "SN",    "SR",    "ER",
					     "SR|EN", "ER|SN", "SR|SN",
					     "ER|EN", "SR|ER" };
	unsigned int a, b;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	fputs("# lockdep classes 1 generation 1\n#\n", f);
	for (a = 0; a < n; a++)
		fprintf(f, "%u k%u 1 0 0x0 - 0 0 0 - 0 0 c%u\n", a, a, a);
	fputs("# end generation 1\n", f);
	fputc('\0', f);
	fputs("# lockdep deps 1 generation 1\n#\n", f);
	for (a = 0; a < n; a++) {
		for (b = 0; b < n; b++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			/* a DAG by id, plus one edge back when @cycle */
			if (!(a < b ? seed % 16 == 0 :
				      cycle && a == n - 1 && b == 0))
				continue;
			fprintf(f, "%u %u 1 %s -\n", a, b,
				types[(seed >> 8) % ARRAY_SIZE(types)]);
			if ((seed >> 16) % 64 == 0) /* the same pair again */
				fprintf(f, "%u %u 1 SR -\n", a, b);
		}
	}
	fputs("# end generation 1\n", f);
	fclose(f);
	return buf;
}

static void test_fd_bd_all(void)
{
	unsigned int round, i;

	for (round = 0; round < 4; round++) {
		struct ld_model *a = NULL, *b = NULL;
		struct ld_input in[2];
		struct ld_diag d;
		size_t len;
		char *buf = random_export(round + 1, 300, round & 1, &len);
		const char *z;

		if (!buf) {
			CHECK(0);
			continue;
		}
		z = memchr(buf, 0, len);
		in[0] = (struct ld_input){ "lockdep/classes", NULL, buf,
					   z - buf };
		in[1] = (struct ld_input){ "lockdep/deps", NULL, z + 1,
					   len - (z + 1 - buf) };
		CHECK(!ld_load_buffers(&a, in, 2, &d));
		CHECK(!ld_load_buffers(&b, in, 2, &d));
		free(buf);
		if (!a || !b) {
			ld_model_free(a);
			ld_model_free(b);
			continue;
		}
		CHECK(!ld_fd_bd_all(a));
		for (i = 0; i < a->nr_classes; i++) {
			CHECK(!ld_fd_bd(b, i));
			if (a->classes[i].fd.v != b->classes[i].fd.v ||
			    a->classes[i].bd.v != b->classes[i].bd.v ||
			    a->classes[i].fd.src != LD_SRC_COMPUTED ||
			    a->classes[i].bd.src != LD_SRC_COMPUTED) {
				printf("# round %u class %u: fd/bd %lld/%lld, one BFS each %lld/%lld\n",
				       round, i, (long long)a->classes[i].fd.v,
				       (long long)a->classes[i].bd.v,
				       (long long)b->classes[i].fd.v,
				       (long long)b->classes[i].bd.v);
				failed_here = 1;
				break;
			}
		}
		ld_model_free(a);
		ld_model_free(b);
	}
	report("fd_bd_all_equals_bfs_with_pruning");
}

/*
 * Loads of part of the data (ld_load_*_only), every combination of kinds:
 * what was not asked for is unknown (not read, not empty), the rest is
 * what a full load holds, and such a model cannot be saved.
 */
static void load_only(const char *path, const char *label, bool dir)
{
	struct ld_model *all = NULL, *m;
	struct ld_diag d;
	char *buf = NULL;
	const char *diff;
	unsigned int what, want;
	size_t len = 0;
	FILE *f;

	if (ld_load_path(&all, path, &d)) {
		printf("# load %s: %s\n", label, d.msg);
		failed_here = 1;
		return;
	}
	for (what = 1; what <= LD_LOAD_ALL; what++) {
		/* the graph comes with the others: it names their classes */
		want = what & ~LD_LOAD_STATS ? what | LD_LOAD_GRAPH : what;
		m = NULL;
		if (ld_load_path_only(&m, path, what, &d)) {
			printf("# %s, 0x%x: %s\n", label, what, d.msg);
			failed_here = 1;
			continue;
		}
		diff = model_cmp_part(all, m, want);
		if (diff) {
			printf("# %s, 0x%x: %s differs\n", label, what, diff);
			failed_here = 1;
		}
		/*
		 * and a directory's file that the full load does not use (the
		 * /proc copies next to the export) is not read either
		 */
		for (uint32_t i = 0; dir && want != LD_LOAD_ALL &&
				     i < m->nr_sections; i++) {
			const struct ld_section *s = &m->sections[i];

			if (!s->skipped && !s->used) {
				printf("# %s, 0x%x: read %s, unused\n", label,
				       what, s->name);
				failed_here = 1;
			}
		}
		f = open_memstream(&buf, &len);
		CHECK(f && !ld_save(m, f, &d) == (want == LD_LOAD_ALL));
		if (f)
			fclose(f);
		free(buf);
		buf = NULL;
		ld_model_free(m);
	}
	ld_model_free(all);
}

/*
 * Loads of part of the data (ld_load_*_only), every combination of kinds,
 * from directories, lone files and snapshot files: what was not asked for
 * is unknown (not read, not empty), the rest is what a full load holds,
 * and such a model cannot be saved.
 */
static void test_load_only(void)
{
	static const char *const srcs[] = {
		"handmade/export", "handmade/prove", "handmade/noprove",
		"stock-6.12.118-workload", "export-6.12.118-workload",
		"stock-6.12.118-workload/lockdep_stats",
		"stock-6.12.118-workload/lockdep",
	};
	struct ld_model *m;
	struct ld_diag d;
	char path[4096], snap[] = "/tmp/test-model-snap.XXXXXX";
	unsigned int i;
	FILE *f;
	int fd;

	for (i = 0; i < ARRAY_SIZE(srcs); i++) {
		snprintf(path, sizeof(path), "%s/%s", fixdir, srcs[i]);
		load_only(path, srcs[i], !strchr(srcs[i], '/'));
		/* the same, saved to a snapshot file */
		m = load(srcs[i]);
		fd = mkstemp(snap);
		f = fd < 0 ? NULL : fdopen(fd, "w");
		CHECK(m && f && !ld_save(m, f, &d));
		if (f)
			fclose(f);
		if (fd >= 0) {
			load_only(snap, srcs[i], false);
			unlink(snap);
		}
		memcpy(snap + strlen(snap) - 6, "XXXXXX", 6);
		ld_model_free(m);
	}
	report("load_only_reads_what_was_asked");
}

static void test_snapshot(void)
{
	struct ld_model *m = load("handmade/prove"), *m2 = NULL;
	struct ld_diag d;
	char *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	if (!m)
		return report("snapshot_roundtrip");
	f = open_memstream(&buf, &len);
	CHECK(f && !ld_save(m, f, &d));
	fclose(f);
	CHECK(!ld_load_snapshot_buf(&m2, "snap", buf, len, &d));
	if (m2) {
		CHECK(m2->nr_classes == m->nr_classes);
		CHECK(m2->nr_deps == m->nr_deps);
		CHECK(m2->release && !strcmp(m2->release, "6.12.0-handmade"));
		f = open_memstream(&buf2, &len2);
		CHECK(f && !ld_save(m2, f, &d));
		fclose(f);
		CHECK(len == len2 && !memcmp(buf, buf2, len));
		ld_model_free(m2);
	}
	report("snapshot_roundtrip_bytes");

	/* every cut of the file is an error, never a crash */
	{
		size_t cut, errors = 0;

		for (cut = 0; cut < len; cut += 97) {
			m2 = NULL;
			if (ld_load_snapshot_buf(&m2, "snap", buf, cut, &d) < 0)
				errors++;
			ld_model_free(m2);
		}
		CHECK(errors == (len + 96) / 97);
	}
	m2 = NULL;
	buf[strstr(buf, "section lockdep ") - buf + 16] = '9';
	CHECK(ld_load_snapshot_buf(&m2, "snap", buf, len, &d) < 0);
	CHECK(strstr(d.msg, "snap:5: section 'lockdep'") != NULL);
	report("snapshot_cut_or_edited");
	free(buf);
	free(buf2);
	ld_model_free(m);
}

/*
 * The big files of a snapshot directory are read as streams, through a
 * buffer (ld_stream_min, ld_stream_buf): with a buffer of a few lines,
 * every line crosses a refill somewhere, and the model must be the one
 * read from the whole file, with and without the fast paths.
 */
static struct ld_model *load_streamed(const char *path, size_t min,
				      size_t buf, bool fast)
{
	size_t omin = ld_stream_min, obuf = ld_stream_buf;
	struct ld_model *m = NULL;
	struct ld_diag d;

	ld_stream_min = min;
	ld_stream_buf = buf;
	ld_fast_paths = fast;
	if (ld_load_path(&m, path, &d)) {
		printf("# %s (stream from %zu bytes, buffer %zu): %s\n", path,
		       min, buf, d.msg);
		failed_here = 1;
	}
	ld_stream_min = omin;
	ld_stream_buf = obuf;
	ld_fast_paths = true;
	return m;
}

static unsigned int nr_streamed(const struct ld_model *m)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_sections; i++)
		n += m->sections[i].stream != NULL;
	return n;
}

static void streamed_vs_whole(const char *path, unsigned int want)
{
	struct ld_model *w, *s;
	const char *diff;
	unsigned int k;

	w = load_streamed(path, SIZE_MAX, 0, true);
	CHECK(!w || !nr_streamed(w));
	for (k = 0; k < 3 && w; k++) {
		s = load_streamed(path, 0, k == 2 ? 1 << 20 : 0, k != 1);
		if (!s)
			continue;
		CHECK(nr_streamed(s) == want);
		if ((diff = model_cmp(w, s))) {
			printf("# %s: %s differs when streamed (way %u)\n",
			       path, diff, k);
			failed_here = 1;
		}
		ld_model_free(s);
	}
	ld_model_free(w);
}

/* A file of @n bytes at @path */
static void write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "w");

	CHECK(f && fwrite(data, 1, n, f) == n);
	if (f)
		fclose(f);
}

/*
 * Stream buffers come eight at a time from one block (a huge page): all
 * apart, a ninth from malloc(), a freed one handed out again.
 */
static void test_stream_pool(void)
{
	const size_t cap = LD_STREAM_BUF;
	char *b[9], *lo = NULL, *hi = NULL, *again;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(b); i++) {
		b[i] = ld_stream_buf_alloc(cap);
		CHECK(b[i] != NULL);
		if (b[i])
			memset(b[i], 'a' + i, cap);
	}
	for (i = 0; i < ARRAY_SIZE(b); i++) {
		for (j = 0; b[i] && j < cap; j += 4096)
			if (b[i][j] != (char)('a' + i))
				break;
		CHECK(b[i] && j >= cap); /* not overwritten by another */
	}
	for (i = 0; i < 8; i++) {
		if (!lo || b[i] < lo)
			lo = b[i];
		if (!hi || b[i] > hi)
			hi = b[i];
	}
	CHECK(lo && hi && (size_t)(hi - lo) == 7 * cap);
	ld_stream_buf_free(b[3]);
	again = ld_stream_buf_alloc(cap);
	CHECK(again == b[3]);
	b[3] = again;
	/* a bigger one is not from the pool */
	again = ld_stream_buf_alloc(cap + 1);
	CHECK(again && (again < lo || again > hi));
	ld_stream_buf_free(again);
	for (i = 0; i < ARRAY_SIZE(b); i++)
		ld_stream_buf_free(b[i]);
	report("stream_buffer_pool");
}

/*
 * Big blocks given back (ld_free_big()): the next ld_alloc_big() that fits
 * gets one back, with what was written in it; not one more than twice too
 * big, and never a block that ld_alloc_big() did not make whole.
 */
static void test_big_pool(void)
{
	const size_t mib = (size_t)1 << 20;
	char *a = ld_alloc_big(5 * mib), *b, *c, *small = malloc(300 << 10);

	CHECK(a && small);
	if (!a || !small) {
		free(a);
		free(small);
		return report("big_block_pool");
	}
	a[0] = 'a';
	ld_free_big(a, 5 * mib); /* 6 MiB */
	c = ld_alloc_big(2 * mib); /* would keep 6 MiB of pages */
	CHECK(c && c != a);
	free(c);
	ld_free_big(small, 300 << 10); /* malloc()'s own: freed */
	c = ld_alloc_big(300 << 10);
	CHECK(c && c != small);
	free(c);
	b = ld_alloc_big(4 * mib);
	CHECK(b == a && b[0] == 'a');
	free(b);
	ld_big_pool_drain();
	report("big_block_pool");
}

/*
 * The arena across its chunks: small and short strings, a block bigger
 * than a chunk, and enough to move on to 2 MiB chunks; each allocation
 * 8-aligned and none overwriting another.
 */
static void test_arena(void)
{
	static const char text[] = "0123456789abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	enum { N = 60000 };
	struct ld_arena *a = ld_arena_new();
	struct ld_str *s = calloc(N, sizeof(*s));
	char *big = NULL;
	size_t i, len, bad = 0;

	CHECK(a && s);
	for (i = 0; a && s && i < N; i++) {
		len = i % 41; /* 0..40: both sides of the inline copy's 32 */
		s[i] = i & 1 ? ld_arena_str(a, text + i % 23, len) :
			       ld_arena_str_short(a, text + i % 23, len,
						  text + sizeof(text) - 1);
		if (i == N / 2) {
			big = ld_arena_alloc(a, 300 * 1024);
			if (big)
				memset(big, 'x', 300 * 1024);
		}
	}
	for (i = 0; a && s && i < N; i++) {
		len = i % 41;
		if (!s[i].s || s[i].len != len || (uintptr_t)s[i].s & 7 ||
		    memcmp(s[i].s, text + i % 23, len) || s[i].s[len])
			bad++;
	}
	CHECK(bad == 0);
	CHECK(big && !((uintptr_t)big & 7) && big[0] == 'x' &&
	      big[300 * 1024 - 1] == 'x');
	CHECK(a && a->total > (size_t)2 << 20); /* into the big chunks */
	free(s);
	if (a)
		ld_arena_free(a);
	report("arena");
}

/*
 * A map of kernel ids packed after the last put (ld_map_pack): the same
 * answers as before, for keys in and between the words of its bitmap,
 * past its end and in its hash; keys whose values do not count up in
 * key order keep the plain array.
 */
static void test_map_pack(void)
{
	static const uint64_t keys[] = { 0, 1, 63, 64, 65, 127, 200, 4096 };
	struct ld_map map;
	uint32_t want[5000], i, old;
	unsigned int k, pass;

	for (pass = 0; pass < 2; pass++) {
		ld_map_init_ids(&map, 4097);
		for (i = 0; i < ARRAY_SIZE(want); i++)
			want[i] = LD_NONE;
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			/* pass 1: two values swapped, out of key order */
			uint32_t v = 7 + k + (pass && k == 3) - (pass && k == 4);

			CHECK(!ld_map_put(&map, keys[k], v, &old));
			want[keys[k]] = v;
		}
		CHECK(!ld_map_put(&map, 1ull << 40, 99, &old)); /* the hash */
		ld_map_pack(&map);
		CHECK(!map.bits == !!pass);
		for (i = 0; i < ARRAY_SIZE(want); i++)
			if (ld_map_get(&map, i) != want[i])
				break;
		CHECK(i == ARRAY_SIZE(want));
		CHECK(ld_map_get(&map, 1ull << 40) == 99);
		CHECK(ld_map_get(&map, 1ull << 41) == LD_NONE);
		/* packed, the map is read only */
		CHECK(!pass == (ld_map_put(&map, 5, 1, &old) == -EINVAL));
		ld_map_free(&map);
	}
	report("map_pack");
}

/*
 * A map whose arrays are an arena's (ld_map_init_in()): grown far past
 * what it expected, every key still found, and nothing of it freed
 * (ASan would say so) until the arena goes.
 */
static void test_map_in_arena(void)
{
	struct ld_arena *a = ld_arena_new();
	struct ld_map map;
	uint32_t i, old, bad = 0;

	CHECK(a && !ld_map_init_in(&map, 4, a));
	if (!a || failed_here)
		return report("map_in_arena");
	for (i = 0; i < 20000; i++)
		CHECK(!ld_map_put(&map, (uint64_t)i * 7919 + 1, i, &old) &&
		      old == LD_NONE);
	CHECK(map.mask + 1 >= 40000 && map.nr == 20000);
	for (i = 0; i < 20000; i++)
		bad += ld_map_get(&map, (uint64_t)i * 7919 + 1) != i;
	CHECK(!bad && ld_map_get(&map, 2) == LD_NONE);
	ld_map_free(&map);
	CHECK(!map.keys && !map.arena);
	ld_arena_free(a);
	report("map_in_arena");
}

static void test_streamed(const char *tmpdir)
{
	char classes[8192];
	struct ld_model *m = NULL, *w;
	char path[4096], moved[4200], dir[2048], *deps, *buf = NULL;
	size_t len = 0, o;
	struct ld_diag d;
	const char *diff;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/export-6.12.118-workload", fixdir);
	/* and /proc/lockdep{,_chains}, lock_stat */
	streamed_vs_whole(path, 6);
	snprintf(path, sizeof(path), "%s/stock-6.12.118-workload", fixdir);
	streamed_vs_whole(path, 3);
	snprintf(path, sizeof(path), "%s/handmade/export", fixdir);
	streamed_vs_whole(path, 3);
	snprintf(path, sizeof(path), "%s/handmade/prove", fixdir);
	streamed_vs_whole(path, 3);

	/* a load closes the files it streamed: many fit in few descriptors */
	{
		struct ld_model *ms[40] = { NULL };
		struct rlimit old, lim;
		unsigned int k;

		snprintf(path, sizeof(path), "%s/export-6.12.118-workload",
			 fixdir);
		CHECK(!getrlimit(RLIMIT_NOFILE, &old));
		lim = old;
		if (lim.rlim_cur > 64)
			lim.rlim_cur = 64;
		CHECK(!setrlimit(RLIMIT_NOFILE, &lim));
		for (k = 0; k < ARRAY_SIZE(ms); k++)
			ms[k] = load_streamed(path, 0, 0, true);
		CHECK(!setrlimit(RLIMIT_NOFILE, &old));
		for (k = 0; k < ARRAY_SIZE(ms); k++) {
			CHECK(ms[k] && nr_streamed(ms[k]) == 6);
			ld_model_free(ms[k]);
		}
	}

	/* a comment line far longer than the buffer, amid short ones */
	snprintf(dir, sizeof(dir), "%s/stream.XXXXXX", tmpdir);
	CHECK(mkdtemp(dir) != NULL);
	/* 140 classes: 4000 pairs of them, each once (no repeats) */
	o = sprintf(classes, "# lockdep classes 1 generation 3\n#\n");
	for (i = 0; i < 140; i++)
		o += sprintf(classes + o, "%d k%d 1 0 0x0 - 0 0 0 - 0 0 c%d\n",
			     i, i, i);
	o += sprintf(classes + o, "# end generation 3\n");
	snprintf(path, sizeof(path), "%s/classes", dir);
	write_file(path, classes, o);
	deps = malloc(1 << 20);
	CHECK(deps != NULL);
	if (!deps)
		return report("streamed_like_whole_files");
	o = sprintf(deps, "# lockdep deps 1 generation 3\n#\n");
	for (i = 0; i < 2000; i++)
		o += sprintf(deps + o, "%d %d 1 EN -\n", i / 40, 100 + i % 40);
	deps[o++] = '#';
	memset(deps + o, 'x', 300000);
	o += 300000;
	deps[o++] = '\n';
	for (i = 2000; i < 4000; i++)
		o += sprintf(deps + o, "%d %d 1 SR -\n", i / 40, 100 + i % 40);
	o += sprintf(deps + o, "# end generation 3\n");
	snprintf(path, sizeof(path), "%s/deps", dir);
	write_file(path, deps, o);
	streamed_vs_whole(dir, 1);
	m = load_streamed(dir, 0, 0, true);
	/* the only warning: no traces, usage, chains, stats next to them */
	CHECK(m && m->nr_deps == 4000 && m->nr_warnings == 1 &&
	      !strcmp(m->warnings[0],
		      "export files not in this source, their data unknown: traces usage chains stats"));
	report("streamed_like_whole_files");

	/* save copies a kept-open file as it was, unless it changed since */
	if (m) {
		f = open_memstream(&buf, &len);
		CHECK(f && !ld_save(m, f, &d));
		fclose(f);
		CHECK(buf && memmem(buf, len, deps, o) != NULL);
		w = NULL;
		CHECK(buf && !ld_load_snapshot_buf(&w, "snap", buf, len, &d));
		if (w && (diff = model_cmp(m, w))) {
			printf("# saved and loaded again: %s differs\n", diff);
			failed_here = 1;
		}
		ld_model_free(w);
		free(buf);
		buf = NULL;
		f = fopen(path, "a");
		CHECK(f && fputs("# more\n", f) >= 0);
		if (f)
			fclose(f);
		f = open_memstream(&buf, &len);
		CHECK(f && ld_save(m, f, &d) < 0);
		CHECK(strstr(d.msg, "/deps: changed since it was loaded") !=
		      NULL);
		fclose(f);
		free(buf);
		buf = NULL;
		/* or gone */
		snprintf(moved, sizeof(moved), "%s.moved", path);
		CHECK(!rename(path, moved));
		f = open_memstream(&buf, &len);
		CHECK(f && ld_save(m, f, &d) == -ENOENT);
		CHECK(strstr(d.msg, "/deps: No such file or directory") !=
		      NULL);
		fclose(f);
		free(buf);
		CHECK(!rename(moved, path));
		ld_model_free(m);
	}
	/* and a file that is not as long as when it was opened is refused */
	{
		struct ld_section sec = { .origin = path };
		struct ld_stream st = { .cap = LD_STREAM_MIN_BUF };
		struct ld_lines l;
		const char *line;
		size_t n, lines = 0;

		st.fd = open(path, O_RDONLY);
		st.size = o + 7; /* as it is now, a line longer */
		st.buf = malloc(st.cap);
		sec.stream = &st;
		CHECK(st.fd >= 0 && st.buf);
		if (st.fd >= 0 && st.buf) {
			ld_lines_section(&l, &sec);
			while (ld_lines_next(&l, &line, &n))
				lines++;
			CHECK(lines == 4005 && !ld_lines_error(&l, &d));
			st.size = o; /* as it was when loaded */
			ld_lines_section(&l, &sec);
			while (ld_lines_next(&l, &line, &n))
				lines++;
			CHECK(ld_lines_error(&l, &d) == -ESTALE);
			CHECK(strstr(d.msg, "/deps: changed while it was read") !=
			      NULL);
			st.size = o + 100; /* and shorter than it was */
			ld_lines_section(&l, &sec);
			while (ld_lines_next(&l, &line, &n))
				lines++;
			CHECK(ld_lines_error(&l, &d) == -ESTALE);
		}
		if (st.fd >= 0)
			close(st.fd);
		free(st.buf);
	}
	report("streamed_file_changed");
	free(deps);
	unlink(path);
	snprintf(path, sizeof(path), "%s/classes", dir);
	unlink(path);
	rmdir(dir);
}

static void test_lookup(void)
{
	struct ld_model *m;
	struct ld_diag d;
	uint32_t ids[4];

	CHECK(!mem(&m, &d, "lockdep",
		   "all lock classes:\n"
		   "0000000000000001: pgd_lock\n0000000000000002: dup\n"
		   "0000000000000003: dup\n0000000000000004: &rq->__lock\n"));
	if (!m)
		return report("class_lookup");
	CHECK(ld_find_class(m, "dup", 3, ids, 4) == 2);
	CHECK(ld_suggest_classes(m, "pgd_lok", ids, 4) >= 1 && ids[0] == 0);
	CHECK(ld_suggest_classes(m, "rq_lock", ids, 4) >= 1 && ids[0] == 3);
	CHECK(ld_suggest_classes(m, "zzzzzzzzzz", ids, 4) == 0);
	ld_model_free(m);
	report("class_lookup_and_suggestions");
}

/*
 * Hashed keys have 32 significant bits: two classes may print one key.
 * Then the key names neither (the first class of it is left without a
 * key, the others keep theirs but are not found by it) and references to
 * them are resolved by name; read by one thread or two, and with a class
 * listed twice (same key and name) as well, counted once, whether it is
 * the first class with the key or another.
 */
static void test_key_collision(void)
{
	static const char *const way[] = { "one thread", "split",
					   "listed twice",
					   "listed twice, not first" };
	static const char classes[] =
		"all lock classes:\n"
		"0000000000000001 OPS: 1 FD: 2 BD: 0 ....: a\n"
		" -> [0000000000000002] c\n"
		" -> [0000000000000002] b\n\n"
		"0000000000000002 OPS: 1 FD: 0 BD: 1 ....: b\n\n"
		"0000000000000002 OPS: 1 FD: 0 BD: 1 ....: c\n\n"
		"0000000000000002 OPS: 1 FD: 0 BD: 0 ....: d\n\n";
	/* again: the first class with the key, and another one */
	static const char *const twice[] = {
		"",
		"",
		"0000000000000002 OPS: 1 FD: 0 BD: 1 ....: b\n\n",
		"0000000000000002 OPS: 1 FD: 0 BD: 1 ....: c\n\n",
	};
	size_t omin = ld_chain_split_min;
	char lockdep[1024], chains[4096];
	unsigned int k, i, o;

	o = snprintf(chains, sizeof(chains), "all lock chains:\n");
	for (i = 0; i < 16; i++)
		o += snprintf(chains + o, sizeof(chains) - o,
			      "irq_context: 0\n[0000000000000001] a\n"
			      "[0000000000000002] %c\n[0000000000000002] %c\n\n",
			      'b' + i % 3, 'b' + (i + 1) % 3);
	for (k = 0; k < ARRAY_SIZE(way); k++) {
		struct ld_model *m = NULL;
		struct ld_input in[2];
		struct ld_diag d;
		bool ab = false, ac = false;
		int before = failed_here;

		failed_here = 0;
		snprintf(lockdep, sizeof(lockdep), "%s%s", classes, twice[k]);
		in[0] = (struct ld_input){ "lockdep", NULL, lockdep,
					   strlen(lockdep) };
		in[1] = (struct ld_input){ "lockdep_chains", NULL, chains, o };
		ld_chain_split_min = k ? 0 : omin;
		if (ld_load_buffers(&m, in, 2, &d)) {
			printf("# %s: %s\n", way[k], d.msg);
			failed_here = 1;
			continue;
		}
		ld_chain_split_min = omin;
		CHECK(m->nr_classes == 4 && !m->nr_unresolved);
		CHECK(m->nr_warnings == (k >= 2));
		CHECK(m->classes[0].key_hash_known);
		CHECK(!m->classes[1].key_hash_known);
		CHECK(m->classes[2].key_hash_known &&
		      m->classes[3].key_hash_known);
		for (i = 0; i < m->nr_deps; i++) {
			ab |= m->deps[i].from == 0 && m->deps[i].to == 1;
			ac |= m->deps[i].from == 0 && m->deps[i].to == 2;
		}
		CHECK(m->nr_deps == 2 && ab && ac);
		CHECK(m->nr_chains == 16 && m->nr_chain_locks == 48);
		for (i = 0; i < m->nr_chains && i < 16; i++) {
			const uint32_t *l = m->chain_locks + m->chains[i].first;

			CHECK(m->chains[i].depth == 3 && l[0] == 0 &&
			      l[1] == 1 + i % 3 && l[2] == 1 + (i + 1) % 3);
		}
		if (failed_here)
			printf("# %s\n", way[k]);
		failed_here |= before;
		ld_model_free(m);
	}
	ld_chain_split_min = omin;
	report("key_collisions_resolved_by_name");
}

/*
 * pread() as the library sees it in this program (its objects are linked
 * in, so their calls come here).  While @fail_find_reads is set, the 4 KiB
 * reads of ld_stream_find() fail with EIO, and are counted: the start of
 * a chunk of chains cannot be found, while the stream's refills work.
 */
static int fail_find_reads, find_reads_failed;

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	if (fail_find_reads && n == 4096) {
		__atomic_add_fetch(&find_reads_failed, 1, __ATOMIC_RELAXED);
		errno = EIO;
		return -1;
	}
	return syscall(SYS_pread64, fd, buf, n, off);
}

/*
 * A chain lock whose class /proc/lockdep does not list keeps the name the
 * chains file gives, also when the file is big enough to be shared by two
 * threads (the second's names are moved over in file order).
 */
static void test_unlisted(const char *tmpdir)
{
	static const char *const way[] = {
		"two threads", "one thread", "two threads, small chunks",
		"two threads, chunk starts unreadable"
	};
	struct ld_model *m[4] = { NULL, NULL, NULL, NULL };
	size_t ochunk = ld_chain_chunk;
	char dir[2048], path[4200], want[64];
	unsigned int i, k, n = 0;
	const char *diff;
	struct ld_diag d;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/ld-unlisted-%d", tmpdir, (int)getpid());
	CHECK(!mkdir(dir, 0700));
	snprintf(path, sizeof(path), "%s/lockdep", dir);
	f = fopen(path, "w");
	CHECK(f);
	if (!f)
		goto out;
	fputs("all lock classes:\n", f);
	for (i = 0; i < 3; i++)
		fprintf(f, "%016x FD:    1 BD:    1 ....: c%u\n\n", i + 1, i);
	fclose(f);
	snprintf(path, sizeof(path), "%s/lockdep_chains", dir);
	f = fopen(path, "w");
	CHECK(f);
	if (!f)
		goto out;
	/* ~5 MiB: past the size at which a second thread takes a part */
	fputs("all lock chains:\n", f);
	for (i = 0; i < 100000; i++) {
		fprintf(f, "irq_context: 0\n[%016x] c%u\n", i % 3 + 1, i % 3);
		if (i % 997 == 0)
			fprintf(f, "[00000000deadbeef] gone#%u\n", n++);
		fprintf(f, "[%016x] c%u\n\n", (i + 1) % 3 + 1, (i + 1) % 3);
	}
	fclose(f);
	{
		struct stat st;

		/* ld_chain_split_min */
		CHECK(!stat(path, &st) && st.st_size >= 4 << 20);
	}
	for (k = 0; k < 4; k++) {
		ld_parallel = k != 1;
		/* the threads meet anywhere, in one of some 80 chunks */
		ld_chain_chunk = k >= 2 ? 65543 : ochunk;
		/*
		 * a read error where a chunk's start is looked for: the
		 * chains are read again by one thread, which reads them well
		 */
		fail_find_reads = k == 3;
		if (ld_load_path(&m[k], dir, &d)) {
			printf("# %s: %s\n", way[k], d.msg);
			failed_here = 1;
		}
	}
	fail_find_reads = 0;
	CHECK(find_reads_failed > 0);
	ld_parallel = true;
	ld_chain_chunk = ochunk;
	CHECK(m[0] && m[0]->nr_unlisted == n && m[0]->nr_unresolved == n);
	for (i = 0; m[0] && i < n; i++) {
		/* the 2nd lock of every 997th chain */
		struct ld_str s = ld_chain_lock_name(
			m[0], m[0]->chains[i * 997].first + 1);

		snprintf(want, sizeof(want), "gone#%u", i);
		CHECK_STR(s.s, s.len, want);
		CHECK(m[0]->chain_locks[m[0]->chains[i * 997].first + 1] ==
		      LD_NONE);
	}
	CHECK(m[0] && !ld_chain_lock_name(m[0], 0).len);
	for (k = 0; k < 4; k++) {
		if (k != 1 && m[k] && m[1] && (diff = model_cmp(m[k], m[1]))) {
			printf("# %s: %s differs with one thread\n", way[k],
			       diff);
			failed_here = 1;
		}
	}
	for (k = 0; k < 4; k++)
		ld_model_free(m[k]);
out:
	snprintf(path, sizeof(path), "%s/lockdep", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/lockdep_chains", dir);
	unlink(path);
	rmdir(dir);
	report("unlisted_chain_locks_keep_their_names");
}

/* A pipe's other end: @n bytes of 'x', then its end */
struct pipe_writer {
	int fd;
	size_t n;
};

static void *pipe_write(void *arg)
{
	struct pipe_writer *w = arg;
	char buf[65536];
	ssize_t r;

	memset(buf, 'x', sizeof(buf));
	while (w->n) {
		r = write(w->fd, buf, w->n < sizeof(buf) ? w->n : sizeof(buf));
		if (r <= 0)
			break; /* the reader gave up: EPIPE */
		w->n -= r;
	}
	close(w->fd);
	return NULL;
}

/*
 * A pipe (-s <(...)) is read to its end into memory, which grows: refused
 * once it holds more bytes than the limit, whatever comes after (a device
 * would never end), as a regular file is from its size.  One byte less is
 * read, and then judged for what it holds.
 */
static void test_pipe_limit(void)
{
	size_t omax = ld_max_file;
	struct ld_model *m;
	struct ld_diag d;
	char path[64];
	unsigned int k;

	signal(SIGPIPE, SIG_IGN);
	ld_max_file = 1u << 20;
	for (k = 0; k < 2; k++) {
		/* as a regular file: ld_max_file - 2 bytes at the most */
		struct pipe_writer w = { -1, ld_max_file - 2 + k };
		pthread_t th;
		int p[2], ret;

		m = NULL;
		d.msg[0] = '\0';
		if (pipe(p)) {
			CHECK(!"pipe()");
			break;
		}
		w.fd = p[1];
		if (pthread_create(&th, NULL, pipe_write, &w)) {
			CHECK(!"pthread_create()");
			close(p[0]);
			close(p[1]);
			break;
		}
		snprintf(path, sizeof(path), "/dev/fd/%d", p[0]);
		ret = ld_load_path(&m, path, &d);
		close(p[0]);
		pthread_join(th, NULL);
		if (k) {
			CHECK(ret == -EFBIG && !m);
			CHECK(strstr(d.msg, ": file larger than 1 MiB") != NULL);
		} else {
			CHECK(ret && ret != -EFBIG && !m);
			CHECK(!strstr(d.msg, "larger than"));
		}
		ld_model_free(m);
	}
	ld_max_file = omax;
	signal(SIGPIPE, SIG_DFL);
	report("pipe_over_the_size_limit_refused");
}

/*
 * /proc/lockdep_chains shared by two threads (ld_chain_split_min 0: any
 * size) against one thread: the same result, message or model, for the
 * fixtures and for odd lines anywhere (the second thread reads the chunks
 * it takes before the classes are known, and the first thread the chunks
 * it takes from the back).  In one chunk, and in chunks of a few chains,
 * where the threads meet wherever they happen to.
 */
static void split_vs_one(const char *what, const struct ld_input *in,
			 unsigned int n, const char *path)
{
	static const size_t chunk[] = { 1u << 20, 61 };
	struct ld_model *a = NULL, *b = NULL;
	struct ld_diag da, db;
	size_t omin = ld_chain_split_min, ochunk = ld_chain_chunk;
	unsigned int k;
	int ra, rb;

	for (k = 0; k < ARRAY_SIZE(chunk); k++) {
		char how[32];

		ld_parallel = false;
		rb = path ? ld_load_path(&b, path, &db) :
			    ld_load_buffers(&b, in, n, &db);
		ld_parallel = true;
		ld_chain_split_min = 0;
		ld_chain_chunk = chunk[k];
		ra = path ? ld_load_path(&a, path, &da) :
			    ld_load_buffers(&a, in, n, &da);
		ld_chain_split_min = omin;
		ld_chain_chunk = ochunk;
		snprintf(how, sizeof(how), "split (chunks of %zu)", chunk[k]);
		two_loads_agree(what, how, ra, a, &da, "one thread", rb, b,
				&db);
		a = b = NULL;
	}
}

static void test_chain_split(void)
{
	static const char *const dirs[] = {
		"stock-6.12.118-workload",
		"handmade/prove",
		"formats/chains-buggered",
		"reports/snapshots/half-ab",
		"analysis/crossboot/boot1",
		"analysis/diffcases/ls-renumbered-old",
	};
	/* the classes are c0, c1, c2 with keys 1, 2, 3 */
	static const char *const odd[] = {
		"[00000000deadbeef] gone\n",
		"[0000000000000002] c1\r\n",
		"[0000000000000002] c1\r\r\n[0000000000000002] c1\r\n",
		"[00000002] c1\n",
		"[0000000000000002] c2\n",
		"[(____ptrval____)] c1\n",
		"[0000000000000002]  c1\n",
		"[0000000000000002] \n",
		"[0000000000000002 c1\n",
		"[0000000000000002]c1\n",
		"irq_context: 0\n",
		"\n",
		"garbage\n",
		"[0000000000000002] c1",
	};
	static const char classes[] =
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n\n"
		"0000000000000002 FD:    1 BD:    1 ....: c1\n\n"
		"0000000000000003 FD:    1 BD:    1 ....: c2\n\n";
	static const char *const odd_classes[] = {
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n\ngarbage\n",
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n"
		" -> [0000000000000002 c1\n",
		"all lock clases:\n",
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n\n"
		"0000000000000002 FD:    1 BD:    1 ....: c1\n",
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n\n"
		"0000000000000002 FD:    1 BD:    1 ....: c1\n\n"
		"0000000000000002 FD:    1 BD:    1 ....: c1\n\n",
		/* a dependency twice: said after the chains' warnings */
		"all lock classes:\n"
		"0000000000000001 FD:    1 BD:    1 ....: c0\n"
		" -> [0000000000000002] c1\n"
		" -> [0000000000000002] c1\n"
		" -> [00000000deadbeef] gone\n\n"
		"0000000000000002 FD:    1 BD:    1 ....: c1\n\n",
	};
	char path[4096], what[160], *body = malloc(64 << 10);
	unsigned int i, at, j;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", fixdir, dirs[i]);
		split_vs_one(dirs[i], NULL, 0, path);
	}
	CHECK(body != NULL);
	for (i = 0; body && i < ARRAY_SIZE(odd); i++) {
		/* in the first chains, read by the second thread, or last */
		for (at = 3; at < 400; at += 394) {
			struct ld_input in[2];
			int o = sprintf(body, "all lock chains:\n");

			for (j = 0; j < 400; j++) {
				o += sprintf(body + o,
					     "irq_context: %s\n[%016x] c%u\n",
					     j % 5 ? "0" : "softirq",
					     j % 3 + 1, j % 3);
				if (j == at) {
					o += sprintf(body + o, "%s", odd[i]);
					if (!strchr(odd[i], '\n'))
						break;
				}
				o += sprintf(body + o, "[%016x] c%u\n\n",
					     (j + 1) % 3 + 1, (j + 1) % 3);
			}
			in[0] = (struct ld_input){ "lockdep", NULL, classes,
						   strlen(classes) };
			in[1] = (struct ld_input){ "lockdep_chains", NULL,
						   body, (size_t)o };
			snprintf(what, sizeof(what), "odd chain line %u at %u",
				 i, at);
			split_vs_one(what, in, 2, NULL);
		}
	}
	/*
	 * /proc/lockdep wrong or cut short while the second thread reads
	 * the chains: told there will be no classes, or given them
	 */
	for (i = 0; body && i < ARRAY_SIZE(odd_classes); i++) {
		struct ld_input in[2];
		int o = sprintf(body, "all lock chains:\n");

		for (j = 0; j < 400; j++)
			o += sprintf(body + o,
				     "irq_context: 0\n[%016x] c%u\n\n",
				     j % 3 + 1, j % 3);
		in[0] = (struct ld_input){ "lockdep", NULL, odd_classes[i],
					   strlen(odd_classes[i]) };
		in[1] = (struct ld_input){ "lockdep_chains", NULL, body,
					   (size_t)o };
		snprintf(what, sizeof(what), "odd class list %u", i);
		split_vs_one(what, in, 2, NULL);
	}
	free(body);
	report("chains_split_between_threads_agree_with_one_thread");
}

/*
 * The export's chains file read by a second thread (ld_chains_thread_min
 * 0: any size), which keeps the class ids raw until the classes are read
 * and indexes the deps while the first thread reads the usage, against
 * one thread: the same message or model, warnings in the same order, for
 * unknown class ids on the fast and the general path (an id no class can
 * have among them), a dependency listed twice, and an error in each file.
 */
static void test_chains_thread(void)
{
	static const char classes[] =
		"# lockdep classes 1 generation 1\n#\n"
		"0 k0 1 0 0x100 USED 0 0 0 - 1 0 a\n"
		"1 k1 1 0 0x100 USED 0 0 0 - 1 1 b\n"
		"2 k2 1 0 0x100 USED 0 0 0 - 0 1 c\n"
		"# end generation 1\n";
	static const char deps[] = "# lockdep deps 1 generation 1\n#\n"
				   "0 1 1 EN 16\n1 2 1 ER -\n";
	static const char traces[] =
		"# lockdep traces 1 generation 1\n#\n16 0 f\n"
		"# end generation 1\n";
	static const char usage[] = "# lockdep usage 1 generation 1\n#\n"
				    "0 USED 16\n1 USED 16\n2 USED -\n";
	static const char stats[] = "# lockdep stats 1 generation 1\n#\n"
				    "debug_locks 1\n# end generation 1\n";
	static const struct {
		const char *what, *classes, *deps, *usage, *chains;
	} cases[] = {
		{ "plain", "", "", "", "" },
		{ "unknown ids", "", "", "",
		  "2 0x12 0 2 9:0 1:0\n3 0x13 0 1 99999999999:0\n"
		  "4 0x14 0 1 4294967295:0\n5 0x15 0 1 4294967294:0\n" },
		{ "a dependency twice", "", "0 1 1 EN 16\n", "",
		  "2 0x12 0 1 7:0\n" },
		{ "class id 4294967295", "4294967295 k 1 0 0x0 - 0 0 0 - 0 0 d\n",
		  "", "", "" },
		{ "bad class", "3 k3 1 0 0x100 USED 0 0 0 - 0 x c\n", "", "", "" },
		{ "bad dependency", "", "0 1 0 EN 16\n", "", "" },
		{ "bad usage", "", "", "0 USED\n", "" },
		{ "bad chain", "", "", "", "2 0x12 0 2 0:0\n" },
		{ "no deps file", "", NULL, "", "" },
	};
	size_t omin = ld_chains_thread_min;
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char cl[1024], de[1024], us[1024], ch[8192];
		struct ld_model *a = NULL, *b = NULL;
		struct ld_input in[6];
		struct ld_diag da, db;
		unsigned int n = 0;
		int o, ra, rb;

		snprintf(cl, sizeof(cl), "%.*s%s# end generation 1\n",
			 (int)(strlen(classes) - 19), classes,
			 cases[i].classes);
		snprintf(de, sizeof(de), "%s%s# end generation 1\n", deps,
			 cases[i].deps ? cases[i].deps : "");
		snprintf(us, sizeof(us), "%s%s# end generation 1\n", usage,
			 cases[i].usage);
		/* the odd chains first, with more than FAST_SPAN after them */
		o = sprintf(ch, "# lockdep chains 1 generation 1\n#\n"
				"0 0x10 0 2 0:0 1:0\n1 0x11 1 3 0:0 1:1 2:0\n%s",
			    cases[i].chains);
		for (k = 0; k < 30; k++)
			o += sprintf(ch + o, "%u 0x%x 0 2 1:0 2:2\n", 10 + k,
				     0x20 + k);
		o += sprintf(ch + o, "# end generation 1\n");
		in[n++] = (struct ld_input){ "lockdep/classes", NULL, cl,
					     strlen(cl) };
		in[n++] = (struct ld_input){ "lockdep/traces", NULL, traces,
					     strlen(traces) };
		if (cases[i].deps)
			in[n++] = (struct ld_input){ "lockdep/deps", NULL, de,
						     strlen(de) };
		in[n++] = (struct ld_input){ "lockdep/usage", NULL, us,
					     strlen(us) };
		in[n++] = (struct ld_input){ "lockdep/chains", NULL, ch,
					     (size_t)o };
		in[n++] = (struct ld_input){ "lockdep/stats", NULL, stats,
					     strlen(stats) };
		ld_chains_thread_min = 0;
		ra = ld_load_buffers(&a, in, n, &da);
		ld_chains_thread_min = omin;
		ld_parallel = false;
		rb = ld_load_buffers(&b, in, n, &db);
		ld_parallel = true;
		/* the cases are what they say: an error, warnings, or not */
		if (!strncmp(cases[i].what, "bad", 3) ||
		    strstr(cases[i].what, "4294967295"))
			CHECK(ra);
		else if (!strcmp(cases[i].what, "plain"))
			CHECK(!ra && a && !a->nr_warnings &&
			      a->nr_chains == 32);
		else
			CHECK(!ra && a && a->nr_warnings);
		if (failed_here)
			printf("# %s: %d %s, %u warnings%s%s\n", cases[i].what,
			       ra, ra ? da.msg : "", a ? a->nr_warnings : 0,
			       a && a->nr_warnings ? ": " : "",
			       a && a->nr_warnings ? a->warnings[0] : "");
		two_loads_agree(cases[i].what, "chains thread", ra, a, &da,
				"one thread", rb, b, &db);
	}
	report("export_chains_thread_agrees_with_one_thread");
}

/*
 * Wait types by name: 3 is LD_WAIT_CONFIG only where a class has 4
 * (LD_WAIT_SLEEP after it, CONFIG_PROVE_RAW_LOCK_NESTING); a union
 * tells only when each boot with wait types does.
 */
static const char *nz(const char *s)
{
	return s ? s : "(null)";
}

static void test_wait_names(void)
{
	struct ld_model *r = load("export-6.12.118-workload"),
			*h = load("handmade/export"),
			*s = load("stock-6.12.118-workload"), *u = NULL,
			*in[2];
	struct ld_diag d;

	if (!r || !h || !s)
		goto out;
	CHECK(r->have.wait_config && !h->have.wait_config);
	CHECK(!s->have.wait_types && !s->have.wait_config);
	CHECK(!strcmp(nz(ld_wait_name(r, 3)), "config"));
	CHECK(!ld_wait_name(h, 3)); /* config, or sleep without it */
	CHECK(!strcmp(nz(ld_wait_name(h, 2)), "spin"));
	CHECK(!strcmp(nz(ld_wait_name(r, 0)), "inv"));
	CHECK(!strcmp(nz(ld_wait_name(r, 4)), "sleep"));
	CHECK(!ld_wait_name(r, 5) && !ld_wait_name(r, -1));
	CHECK(!strcmp(nz(ld_lock_type_name(1)), "percpu"));
	CHECK(!ld_lock_type_name(3));
	in[0] = r;
	in[1] = s;
	CHECK(!ld_merge(&u, in, 2, &d) && u && u->have.wait_config);
	ld_model_free(u);
	u = NULL;
	in[1] = h;
	CHECK(!ld_merge(&u, in, 2, &d) && u && !u->have.wait_config);
	ld_model_free(u);
	u = NULL;
	in[0] = s; /* no wait types at all */
	in[1] = s;
	CHECK(!ld_merge(&u, in, 2, &d) && u && !u->have.wait_config);
	ld_model_free(u);
out:
	ld_model_free(r);
	ld_model_free(h);
	ld_model_free(s);
	report("wait_type_names");
}

int main(int argc, char **argv)
{
	fixdir = argc > 1 ? argv[1] : "proc-interface/fixtures";
	test_handmade_prove();
	test_name_parts();
	test_handmade_noprove();
	test_handmade_export();
	test_real();
	test_chain_index();
	test_chain_index_shared();
	test_wait_names();
	test_proc_errors();
	test_weird_names();
	test_lockstat_ambiguities();
	test_export_edges();
	test_fast_paths();
	test_chain_split();
	test_key_collision();
	test_chains_thread();
	test_fd_bd_all();
	test_snapshot();
	test_load_only();
	test_lookup();
	test_stream_pool();
	test_big_pool();
	test_map_pack();
	test_map_in_arena();
	test_arena();
	test_streamed(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	test_unlisted(getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	test_pipe_limit();
	if (argc > 2)
		test_generated(argv[2]);
	return 0;
}
