// SPDX-License-Identifier: GPL-2.0
/*
 * test-graph.c - unit tests of the analysis half of proc-interface
 * (graph.c, merge.c, diff.c, parse_report.c) on synthetic graphs with
 * known answers, built in memory from a small description, and on the
 * hand-written report variants.  Prints "ok NAME" / "not ok NAME" lines
 * with "# " diagnostics; tests/run-tests.sh numbers them into KTAP.
 *
 * usage: test-graph FIXTURES_DIR
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ld_internal.h"
#include "graph.h"
#include "merge.h"
#include "report.h"

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

#define CHECK_EQ(a, b)                                                       \
	do {                                                                 \
		long long _a = (a), _b = (b);                                \
		if (_a != _b) {                                              \
			printf("# %s:%d: %s == %lld, want %lld\n", __FILE__, \
			       __LINE__, #a, _a, _b);                        \
			failed_here = 1;                                     \
		}                                                            \
	} while (0)

static void report(const char *name)
{
	printf("%s %s\n", failed_here ? "not ok" : "ok", name);
	failed_here = 0;
}

/*
 * A graph from lines:
 *   c NAME [USAGE,USAGE...|-] [lt=N] [key=SYM]
 *   d FROM TO [TYPE]            (default EN)
 * written as the debugfs export (types known) or, with @proc, as
 * /proc/lockdep (types and usage bits 8/9 unknown).
 */
#define MAXC 256

struct gb {
	char names[MAXC][96];
	unsigned int usage[MAXC], lt[MAXC];
	char keys[MAXC][64];
	int nc;
	char cls[65536], deps[65536], lockdep[65536];
	size_t lc, ld, lp;
};

static int gb_id(struct gb *g, const char *name)
{
	int i;

	for (i = 0; i < g->nc; i++)
		if (!strcmp(g->names[i], name))
			return i;
	printf("# no class %s in the description\n", name);
	failed_here = 1;
	return 0;
}

static void split_name(const char *name, char *base, int *ver, int *sub)
{
	const char *h = strrchr(name, '#'), *s = strrchr(name, '/');
	size_t n = strlen(name);

	*ver = 1;
	*sub = 0;
	if (s && s > name && s[1] >= '0' && s[1] <= '9' && (!h || s > h)) {
		*sub = atoi(s + 1);
		n = s - name;
	}
	if (h && h > name && h[1] >= '1' && h[1] <= '9' &&
	    (size_t)(h - name) < n) {
		*ver = atoi(h + 1);
		n = h - name;
	}
	memcpy(base, name, n);
	base[n] = '\0';
}

static unsigned int usage_mask(const char *list)
{
	char buf[256], *tok, *save;
	unsigned int m = 0;
	int b;

	if (!strcmp(list, "-"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		b = ld_usage_from_kname(tok, strlen(tok));
		if (b < 0) {
			printf("# bad usage %s\n", tok);
			failed_here = 1;
			continue;
		}
		m |= 1u << b;
	}
	return m;
}

static struct ld_model *graph(const char *desc, bool proc, const char *release)
{
	static struct gb g;
	struct ld_input in[3];
	struct ld_model *m = NULL;
	struct ld_diag d;
	char line[512], *tok[8];
	const char *p = desc;
	int i, n;

	memset(&g, 0, sizeof(g));
	g.lc = snprintf(g.cls, sizeof(g.cls),
			"# lockdep classes 1 generation 1\n# fields\n");
	g.ld = snprintf(g.deps, sizeof(g.deps),
			"# lockdep deps 1 generation 1\n# fields\n");
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *save;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (e != NULL);
		n = 0;
		for (tok[n] = strtok_r(line, " ", &save); tok[n] && n < 7;
		     tok[++n] = strtok_r(NULL, " ", &save))
			;
		if (!n)
			continue;
		if (!strcmp(tok[0], "c")) {
			i = g.nc++;
			snprintf(g.names[i], sizeof(g.names[i]), "%s", tok[1]);
			g.usage[i] = usage_mask(n > 2 && !strchr(tok[2], '=') ?
							tok[2] :
							"USED");
			for (int k = 2; k < n; k++) {
				if (!strncmp(tok[k], "lt=", 3))
					g.lt[i] = atoi(tok[k] + 3);
				if (!strncmp(tok[k], "key=", 4))
					snprintf(g.keys[i], sizeof(g.keys[i]),
						 "%s", tok[k] + 4);
			}
		} else if (!strcmp(tok[0], "d")) {
			g.ld += snprintf(g.deps + g.ld, sizeof(g.deps) - g.ld,
					 "%d %d 1 %s -\n", gb_id(&g, tok[1]),
					 gb_id(&g, tok[2]),
					 n > 3 ? tok[3] : "EN");
		}
	}
	for (i = 0; i < g.nc; i++) {
		char base[96], names[256] = "";
		int ver, sub, b;

		split_name(g.names[i], base, &ver, &sub);
		for (b = 0; b < LD_NR_USAGE_BITS; b++)
			if (g.usage[i] & (1u << b))
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), "%s%s",
					 names[0] ? "," : "",
					 ld_usage_kname(b));
		g.lc += snprintf(g.cls + g.lc, sizeof(g.cls) - g.lc,
				 "%d %s %d %d 0x%x %s 2 0 %u - - - %s\n", i,
				 g.keys[i][0] ? g.keys[i] : "-", ver, sub,
				 g.usage[i], names[0] ? names : "-", g.lt[i],
				 base);
	}
	g.lc += snprintf(g.cls + g.lc, sizeof(g.cls) - g.lc,
			 "# end generation 1\n");
	g.ld += snprintf(g.deps + g.ld, sizeof(g.deps) - g.ld,
			 "# end generation 1\n");
	if (proc) {
		/* the same graph as /proc/lockdep prints it */
		struct ld_model *x = graph(desc, false, release);
		static unsigned int boot;
		unsigned int salt = 0x10000 * ++boot;
		uint32_t k;
		char u[5];

		if (!x)
			return NULL;
		g.lp = snprintf(g.lockdep, sizeof(g.lockdep),
				"all lock classes:\n");
		for (i = 0; i < (int)x->nr_classes; i++) {
			ld_usage_chars(x->classes[i].usage, LD_USAGE_IRQ, u);
			g.lp += snprintf(
				g.lockdep + g.lp, sizeof(g.lockdep) - g.lp,
				"%016x OPS:       1 FD:    1 BD:    1 %s: %.*s\n",
				salt + i, u, (int)x->classes[i].name.len,
				x->classes[i].name.s);
			for (k = x->out_off[i]; k < x->out_off[i + 1]; k++) {
				uint32_t t = x->deps[x->out[k]].to;

				g.lp += snprintf(g.lockdep + g.lp,
						 sizeof(g.lockdep) - g.lp,
						 " -> [%016x] %.*s\n", salt + t,
						 (int)x->classes[t].name.len,
						 x->classes[t].name.s);
			}
			g.lp += snprintf(g.lockdep + g.lp,
					 sizeof(g.lockdep) - g.lp, "\n");
		}
		ld_model_free(x);
		in[0] = (struct ld_input){ "lockdep", "lockdep", g.lockdep,
					   g.lp };
		n = 1;
	} else {
		in[0] = (struct ld_input){ "lockdep/classes", "classes", g.cls,
					   g.lc };
		in[1] = (struct ld_input){ "lockdep/deps", "deps", g.deps,
					   g.ld };
		n = 2;
	}
	if (ld_load_buffers(&m, in, n, &d)) {
		printf("# graph: %s\n", d.msg);
		failed_here = 1;
		return NULL;
	}
	if (release)
		m->release = strdup(release);
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

/* "a -> b -> c" of cycle i, canonical order */
static const char *cycle_text(const struct ld_model *m,
			      const struct ld_cycles *cs, uint32_t i)
{
	static char buf[1024];
	struct ld_str names[64];
	size_t o = 0;
	uint32_t k;

	ld_cycle_names(m, cs, i, names);
	buf[0] = '\0';
	for (k = 0; k < cs->c[i].nr && k < 64; k++)
		o += snprintf(buf + o, sizeof(buf) - o, "%s%.*s",
			      k ? " -> " : "", (int)names[k].len, names[k].s);
	return buf;
}

static bool has_cycle(const struct ld_model *m, const struct ld_cycles *cs,
		      const char *text)
{
	uint32_t i;

	for (i = 0; i < cs->nr; i++)
		if (!strcmp(cycle_text(m, cs, i), text))
			return true;
	printf("# cycle '%s' not found\n", text);
	return false;
}

/* Cycles -------------------------------------------------------------- */

static void test_cycle_lengths(void)
{
	/* rings of 2..6, each registered so that its smallest name is
	 * not first, and a DAG tail that must not count */
	struct ld_model *m = graph(
		"c r2b\nc r2a\n"
		"c r3c\nc r3a\nc r3b\n"
		"c r4d\nc r4b\nc r4a\nc r4c\n"
		"c r5e\nc r5c\nc r5a\nc r5b\nc r5d\n"
		"c r6f\nc r6b\nc r6d\nc r6a\nc r6c\nc r6e\n"
		"c tail1\nc tail2\n"
		"d r2a r2b\nd r2b r2a\n"
		"d r3a r3b\nd r3b r3c\nd r3c r3a\n"
		"d r4a r4b\nd r4b r4c\nd r4c r4d\nd r4d r4a\n"
		"d r5a r5b\nd r5b r5c\nd r5c r5d\nd r5d r5e\nd r5e r5a\n"
		"d r6a r6b\nd r6b r6c\nd r6c r6d\nd r6d r6e\nd r6e r6f\nd r6f r6a\n"
		"d r2a tail1\nd tail1 tail2\nd r6c tail2\n",
		false, NULL);
	struct ld_cycles cs;
	uint32_t i;

	if (!m)
		return report("cycles_lengths_2_to_6");
	CHECK(!ld_find_cycles(m, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 5);
	CHECK_EQ(cs.nr_components, 5);
	CHECK_EQ(cs.largest_component, 6);
	for (i = 0; i < cs.nr; i++) {
		CHECK_EQ(cs.c[i].nr, i + 2); /* sorted by length */
		CHECK(cs.c[i].strong);
		CHECK(!strncmp(cs.c[i].id, "cycle-", 6));
		CHECK_EQ(strlen(cs.c[i].id), 14);
	}
	CHECK(has_cycle(m, &cs, "r2a -> r2b"));
	CHECK(has_cycle(m, &cs, "r4a -> r4b -> r4c -> r4d"));
	CHECK(has_cycle(m, &cs, "r6a -> r6b -> r6c -> r6d -> r6e -> r6f"));
	CHECK(cs.types_known && !cs.truncated);
	/* --length 4 keeps the rings of 2, 3 and 4 */
	ld_cycles_free(&cs);
	CHECK(!ld_find_cycles(m, 0, 4, false, &cs));
	CHECK_EQ(cs.nr, 3);
	/* --max 2: two, and it says it stopped */
	ld_cycles_free(&cs);
	CHECK(!ld_find_cycles(m, 2, 0, false, &cs));
	CHECK_EQ(cs.nr, 2);
	CHECK(cs.truncated);
	ld_cycles_free(&cs);
	ld_model_free(m);
	report("cycles_lengths_2_to_6");
}

static void test_cycles_shared(void)
{
	/* a <-> b, b <-> c, c -> a: three cycles through shared classes */
	struct ld_model *m =
		graph("c ka\nc kb\nc kc\n"
		      "d ka kb\nd kb ka\nd kb kc\nd kc kb\nd kc ka\n",
		      false, NULL);
	struct ld_cycles cs;

	if (!m)
		return report("cycles_sharing_classes");
	CHECK(!ld_find_cycles(m, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 3);
	CHECK_EQ(cs.nr_components, 1);
	CHECK(has_cycle(m, &cs, "ka -> kb"));
	CHECK(has_cycle(m, &cs, "kb -> kc"));
	CHECK(has_cycle(m, &cs, "ka -> kb -> kc"));
	ld_cycles_free(&cs);
	ld_model_free(m);
	report("cycles_sharing_classes");
}

static void test_cycles_complete(void)
{
	/* the complete digraph on 5 classes has
	 * C(5,2)*1! + C(5,3)*2! + C(5,4)*3! + C(5,5)*4! = 84 simple cycles */
	char desc[2048];
	size_t o = 0;
	struct ld_model *m;
	struct ld_cycles cs;
	int a, b;

	for (a = 0; a < 5; a++)
		o += snprintf(desc + o, sizeof(desc) - o, "c k%d\n", a);
	for (a = 0; a < 5; a++)
		for (b = 0; b < 5; b++)
			if (a != b)
				o += snprintf(desc + o, sizeof(desc) - o,
					      "d k%d k%d\n", a, b);
	m = graph(desc, false, NULL);
	if (!m)
		return report("cycles_complete_graph_84");
	CHECK(!ld_find_cycles(m, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 84);
	ld_cycles_free(&cs);
	/* the depth-bounded search agrees: 10 + 20 + 30 = 60 up to 4 */
	CHECK(!ld_find_cycles(m, 0, 4, false, &cs));
	CHECK_EQ(cs.nr, 60);
	ld_cycles_free(&cs);
	ld_model_free(m);
	report("cycles_complete_graph_84");
}

static void test_cycles_large_component(void)
{
	/* a ring of 70 classes (too large for Johnson's listing) with two
	 * back edges: the two 2-cycles come first, the ring last */
	char desc[8192];
	size_t o = 0;
	struct ld_model *m;
	struct ld_cycles cs;
	int i;

	for (i = 0; i < 70; i++)
		o += snprintf(desc + o, sizeof(desc) - o, "c big%02d\n", i);
	for (i = 0; i < 70; i++)
		o += snprintf(desc + o, sizeof(desc) - o, "d big%02d big%02d\n",
			      i, (i + 1) % 70);
	o += snprintf(desc + o, sizeof(desc) - o,
		      "d big11 big10\nd big41 big40\n");
	m = graph(desc, false, NULL);
	if (!m)
		return report("cycles_large_component_shortest_first");
	CHECK(!ld_find_cycles(m, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 3);
	CHECK(cs.deepened_to == 70 && !cs.truncated);
	if (cs.nr == 3)
		CHECK_EQ(cs.c[2].nr, 70);
	ld_cycles_free(&cs);
	CHECK(!ld_find_cycles(m, 2, 0, false, &cs));
	CHECK_EQ(cs.nr, 2);
	CHECK(cs.truncated);
	if (cs.nr == 2) {
		CHECK(has_cycle(m, &cs, "big10 -> big11"));
		CHECK(has_cycle(m, &cs, "big40 -> big41"));
	}
	ld_cycles_free(&cs);
	ld_model_free(m);
	report("cycles_large_component_shortest_first");
}

static void test_cycle_id(void)
{
	struct ld_str a[3] = { { "lds_b", 5 }, { "lds_c", 5 }, { "lds_a", 5 } };
	struct ld_str b[3] = { { "lds_a", 5 }, { "lds_b", 5 }, { "lds_c", 5 } };
	struct ld_str c[3] = { { "lds_a", 5 }, { "lds_c", 5 }, { "lds_b", 5 } };
	/* a name twice: the smallest rotation as a whole */
	struct ld_str d[4] = { { "x", 1 }, { "b", 1 }, { "x", 1 }, { "a", 1 } };
	struct ld_str e[4] = { { "x", 1 }, { "a", 1 }, { "x", 1 }, { "b", 1 } };
	char ia[LD_CYCLE_ID_LEN], ib[LD_CYCLE_ID_LEN], ic[LD_CYCLE_ID_LEN];

	CHECK_EQ(ld_cycle_id(a, 3, ia), 2);
	CHECK_EQ(ld_cycle_id(b, 3, ib), 0);
	CHECK(!strcmp(ia, ib));
	ld_cycle_id(c, 3, ic);
	CHECK(strcmp(ia, ic)); /* the other direction differs */
	CHECK_EQ(ld_cycle_id(d, 4, ia), 3);
	CHECK_EQ(ld_cycle_id(e, 4, ib), 1);
	CHECK(!strcmp(ia, ib));
	/* #N numbers same-named keys per boot: left out of the id, but
	 * /S and a '#' that is part of the name are kept */
	{
		struct ld_str f[2] = { { "&x->lock#3/1", 12 },
				       { "(wq)ev#2", 8 } };
		struct ld_str g[2] = { { "(wq)ev#5", 8 },
				       { "&x->lock/1", 10 } };
		struct ld_str h[2] = { { "(wq)ev", 6 }, { "&x->lock", 8 } };
		struct ld_str k[2] = { { "a#b", 3 }, { "c#", 2 } };
		struct ld_str l[2] = { { "a", 1 }, { "c", 1 } };

		CHECK_EQ(ld_cycle_id(f, 2, ia), 0);
		CHECK_EQ(ld_cycle_id(g, 2, ib), 1);
		CHECK(!strcmp(ia, ib));
		ld_cycle_id(h, 2, ib);
		CHECK(strcmp(ia, ib)); /* the subclass counts */
		ld_cycle_id(k, 2, ia);
		ld_cycle_id(l, 2, ib);
		CHECK(strcmp(ia, ib)); /* '#' without digits is a name */
	}
	report("cycle_id_canonical_rotation");
}

/* The strong-path rule --------------------------------------------------- */

static void test_strong_rule(void)
{
	struct ld_model *m =
		graph("c a\nc r USED,USED_READ\nc b\nc w\nc c\nc d\n"
		      "c x\nc r2 USED,USED_READ\nc y\n"
		      "c kx\nc kr USED_READ\nc kp\nc ky\n"
		      "d a r ER\nd r a SN\n" /* weak: -(ER)-> -(SN)-> */
		      "d b w EN\nd w b EN\n" /* strong */
		      "d c d ER|EN\nd d c SN\n" /* strong through EN */
		      "d x r2 ER\nd r2 y SN\n" /* weak path */
		      "d kx kr ER\nd kx kp EN\nd kp kr EN\nd kr ky SN\n",
		      false, NULL);
	struct ld_cycles cs;
	struct ld_path p;
	struct ld_paths ps;

	if (!m)
		return report("strong_path_exclusions");
	CHECK(!ld_find_cycles(m, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 2);
	CHECK_EQ(cs.nr_weak, 1);
	CHECK(has_cycle(m, &cs, "b -> w"));
	CHECK(has_cycle(m, &cs, "c -> d"));
	ld_cycles_free(&cs);
	CHECK(!ld_find_cycles(m, 0, 0, true, &cs));
	CHECK_EQ(cs.nr, 3);
	CHECK(has_cycle(m, &cs, "a -> r"));
	ld_cycles_free(&cs);
	/* a path only against the rule: none strong, one weak */
	CHECK_EQ(ld_shortest_path(m, cls(m, "x"), cls(m, "y"), true, &p), 0);
	CHECK_EQ(ld_shortest_path(m, cls(m, "x"), cls(m, "y"), false, &p), 1);
	CHECK_EQ(p.nr, 2);
	CHECK(!ld_path_is_strong(m, p.deps, p.nr));
	free(p.deps);
	/* kr is reached weakly in 1 hop and strongly in 2: the strong path
	 * kx -> kp -> kr -> ky exists (a per-class BFS would miss it) */
	CHECK_EQ(ld_shortest_path(m, cls(m, "kx"), cls(m, "ky"), true, &p), 1);
	CHECK_EQ(p.nr, 3);
	CHECK(ld_path_is_strong(m, p.deps, p.nr));
	CHECK_EQ(m->deps[p.deps[0]].to, cls(m, "kp"));
	free(p.deps);
	CHECK(!ld_enum_paths(m, cls(m, "kx"), cls(m, "ky"), 0, 0, &ps));
	CHECK_EQ(ps.nr, 1);
	ld_paths_free(&ps);
	ld_model_free(m);
	report("strong_path_exclusions");
}

static void test_paths(void)
{
	/* a diamond with a long way round: 2 paths of 2 hops, 1 of 4 */
	struct ld_model *m = graph("c s\nc l\nc r\nc t\nc u\nc v\n"
				   "d s l\nd s r\nd l t\nd r t\nd s u\nd u v\n"
				   "d v r\n",
				   false, NULL);
	struct ld_paths ps;
	struct ld_path p;

	if (!m)
		return report("paths_shortest_and_all");
	CHECK_EQ(ld_shortest_path(m, cls(m, "s"), cls(m, "t"), true, &p), 1);
	CHECK_EQ(p.nr, 2);
	free(p.deps);
	CHECK_EQ(ld_shortest_path(m, cls(m, "t"), cls(m, "s"), true, &p), 0);
	CHECK(!ld_enum_paths(m, cls(m, "s"), cls(m, "t"), 0, 0, &ps));
	CHECK_EQ(ps.nr, 3);
	if (ps.nr == 3) {
		CHECK_EQ(ps.off[1] - ps.off[0], 2);
		CHECK_EQ(ps.off[2] - ps.off[1], 2);
		CHECK_EQ(ps.off[3] - ps.off[2], 4);
	}
	CHECK(!ps.truncated);
	ld_paths_free(&ps);
	CHECK(!ld_enum_paths(m, cls(m, "s"), cls(m, "t"), 2, 0, &ps));
	CHECK_EQ(ps.nr, 2);
	CHECK(ps.truncated);
	ld_paths_free(&ps);
	CHECK(!ld_enum_paths(m, cls(m, "s"), cls(m, "t"), 0, 3, &ps));
	CHECK_EQ(ps.nr, 2);
	ld_paths_free(&ps);
	ld_model_free(m);
	report("paths_shortest_and_all");
}

/*
 * The state-tracking search can find a "path" through a class twice
 * (reached as a recursive reader, round a cycle, reached again
 * non-recursively): no deadlock path.  A -(ER)-> X -(SN)-> B is weak;
 * A -> X -> Y -> X -> B only a walk.
 */
static void test_walks(void)
{
	struct ld_model *m = graph("c A\nc X\nc Y\nc B\nc P\nc Q\nc R\nc C\n"
				   "d A X ER\nd X Y EN\nd Y X EN\nd X B SN\n"
				   "d A P\nd P Q\nd Q R\nd R C\nd X C SN\n",
				   false, NULL);
	struct ld_paths ps;
	struct ld_path p;

	if (!m)
		return report("paths_are_simple");
	CHECK_EQ(ld_shortest_path(m, cls(m, "A"), cls(m, "B"), true, &p), 0);
	free(p.deps);
	CHECK_EQ(ld_shortest_path(m, cls(m, "A"), cls(m, "B"), false, &p), 1);
	CHECK_EQ(p.nr, 2);
	free(p.deps);
	/* the walk A X Y X C (4 hops), found first, not the simple A P Q R C */
	CHECK_EQ(ld_shortest_path(m, cls(m, "A"), cls(m, "C"), true, &p), 1);
	CHECK_EQ(p.nr, 4);
	CHECK(!p.walk);
	if (p.nr == 4)
		CHECK_EQ(m->deps[p.deps[0]].to, cls(m, "P"));
	free(p.deps);
	/* every simple path listed: nothing was cut off */
	CHECK(!ld_enum_paths(m, cls(m, "A"), cls(m, "C"), 0, 0, &ps));
	CHECK_EQ(ps.nr, 1);
	CHECK(!ps.truncated);
	ld_paths_free(&ps);
	/* but a --length below the longest possible path may cut */
	CHECK(!ld_enum_paths(m, cls(m, "A"), cls(m, "C"), 0, 3, &ps));
	CHECK_EQ(ps.nr, 0);
	CHECK(ps.truncated);
	ld_paths_free(&ps);
	ld_model_free(m);
	/* a cycle next to the only path: n - 1 hops cut it, nothing more */
	m = graph("c A\nc X\nc Y\nc B\nd A X\nd X B\nd X Y\nd Y X\n", false,
		  NULL);
	if (!m)
		return report("paths_are_simple");
	CHECK(!ld_enum_paths(m, cls(m, "A"), cls(m, "B"), 0, 0, &ps));
	CHECK_EQ(ps.nr, 1);
	CHECK(!ps.truncated);
	ld_paths_free(&ps);
	ld_model_free(m);
	report("paths_are_simple");
}

/* Brute force: the shortest simple strong path (0: none) */
static uint32_t bf_best;
static uint8_t bf_on[16];

static void bf(const struct ld_model *m, uint32_t v, uint32_t to,
	       unsigned int st, unsigned int end, uint32_t depth)
{
	uint32_t k;

	for (k = m->out_off[v]; k < m->out_off[v + 1]; k++) {
		const struct ld_dep *d = &m->deps[m->out[k]];
		unsigned int ns = ld_strong_step(st, ld_dep_bits(d));

		if (!ns)
			continue;
		if (d->to == to && (ns & end)) {
			if (!bf_best || depth + 1 < bf_best)
				bf_best = depth + 1;
			continue;
		}
		if (bf_on[d->to] || d->to == to)
			continue;
		bf_on[d->to] = 1;
		bf(m, d->to, to, ns, end, depth + 1);
		bf_on[d->to] = 0;
	}
}

static uint32_t brute(const struct ld_model *m, uint32_t from, uint32_t to,
		      unsigned int start, unsigned int end)
{
	memset(bf_on, 0, sizeof(bf_on));
	bf_best = 0;
	bf_on[from] = 1;
	bf(m, from, to, start, end, 0);
	return bf_best;
}

static bool simple_path(const struct ld_model *m, const uint32_t *deps,
			uint32_t n)
{
	uint8_t on[16] = { 0 };
	uint32_t i;

	on[m->deps[deps[0]].from] = 1;
	for (i = 0; i < n; i++) {
		uint32_t w = m->deps[deps[i]].to;

		if (i && m->deps[deps[i]].from != m->deps[deps[i - 1]].to)
			return false;
		if (on[w] && !(i == n - 1 && w == m->deps[deps[0]].from))
			return false;
		on[w] = 1;
	}
	return true;
}

/* Random small graphs with cycles and mixed types against brute force */
static void test_walks_random(void)
{
	static const char *const types[] = { "ER", "EN", "SR", "SN",
					     "ER|EN", "SR|SN", "ER|SN" };
	static const char *const usage[] = {
		"-", "USED_IN_HARDIRQ", "USED_IN_HARDIRQ_READ",
		"ENABLED_HARDIRQ", "ENABLED_HARDIRQ_READ",
		"USED_IN_HARDIRQ_READ,ENABLED_HARDIRQ_READ"
	};
	uint64_t seed = 0x5eed;
	unsigned int round, bad = 0;

	for (round = 0; round < 3000 && bad < 5; round++) {
		char desc[4096];
		size_t o = 0;
		uint32_t n, i, j, a, b, nr_pairs = 0;
		struct ld_model *m;
		struct ld_irq_result r;

#define RND() (seed = seed * 6364136223846793005ULL + 1442695040888963407ULL, \
	       (uint32_t)(seed >> 33))
		n = 4 + RND() % 5;
		for (i = 0; i < n; i++)
			o += snprintf(desc + o, sizeof(desc) - o, "c k%u %s\n",
				      i, usage[RND() % 6]);
		for (i = 0; i < n; i++)
			for (j = 0; j < n; j++)
				if (i != j && RND() % 100 < 35)
					o += snprintf(desc + o,
						      sizeof(desc) - o,
						      "d k%u k%u %s\n", i, j,
						      types[RND() % 7]);
		m = graph(desc, false, NULL);
		if (!m) {
			bad++;
			continue;
		}
		for (a = 0; a < n; a++) {
			for (b = 0; b < n; b++) {
				struct ld_path p;
				uint32_t want = a == b ? 0 :
					brute(m, a, b, LD_ST_N,
					      LD_ST_N | LD_ST_R);
				int got;

				if (a == b)
					continue;
				got = ld_shortest_path(m, a, b, true, &p);
				if (got != !!want || (got && p.nr != want) ||
				    p.walk ||
				    (got && (!simple_path(m, p.deps, p.nr) ||
					     !ld_path_is_strong(m, p.deps,
								p.nr)))) {
					printf("# round %u: path k%u -> k%u: got %d (%u hops%s), want %u hops\n#   %s",
					       round, a, b, got, p.nr,
					       p.walk ? ", walk" : "", want,
					       desc);
					bad++;
				}
				free(p.deps);
			}
		}
		/* irq-check with every pair listed: pairs and their paths */
		for (a = 0; a < n; a++) {
			uint16_t ua = m->classes[a].usage;

			if (!(ua & ((1u << LD_USED_IN_HARDIRQ) |
				    (1u << LD_USED_IN_HARDIRQ_READ))))
				continue;
			for (b = 0; b < n; b++) {
				uint16_t ub = m->classes[b].usage;

				if (!(ub & ((1u << LD_ENABLED_HARDIRQ) |
					    (1u << LD_ENABLED_HARDIRQ_READ))))
					continue;
				if (b == a) /* a cycle: graph.c irq_state() */
					continue;
				nr_pairs += !!brute(
					m, a, b,
					ua & (1u << LD_USED_IN_HARDIRQ) ? LD_ST_N :
								       LD_ST_R,
					ub & (1u << LD_ENABLED_HARDIRQ) ?
						LD_ST_N | LD_ST_R :
						LD_ST_N);
			}
		}
		if (ld_irq_check(m, 0, &r)) {
			bad++;
		} else {
			if (r.total[LD_IRQ_HARDIRQ] != nr_pairs) {
				printf("# round %u: irq pairs %llu, want %u\n#   %s",
				       round,
				       (unsigned long long)r.total[LD_IRQ_HARDIRQ],
				       nr_pairs, desc);
				bad++;
			}
			for (i = 0; i < r.nr; i++) {
				const struct ld_irq_finding *f = &r.f[i];
				uint32_t want = brute(
					m, f->safe, f->unsafe,
					f->safe_bit == LD_USED_IN_HARDIRQ ?
						LD_ST_N : LD_ST_R,
					m->classes[f->unsafe].usage &
							(1u << LD_ENABLED_HARDIRQ) ?
						LD_ST_N | LD_ST_R : LD_ST_N);

				if (f->walk || f->nr != want ||
				    !simple_path(m, r.deps + f->first, f->nr)) {
					printf("# round %u: irq k%u -> k%u: %u hops%s, want %u\n#   %s",
					       round, f->safe, f->unsafe, f->nr,
					       f->walk ? " (walk)" : "", want,
					       desc);
					bad++;
				}
			}
			ld_irq_result_free(&r);
		}
		ld_model_free(m);
	}
	CHECK_EQ(bad, 0);
	report("paths_and_irq_pairs_match_brute_force");
}

/* irq-check ---------------------------------------------------------------- */

static void test_irq(void)
{
	struct ld_model *m = graph(
		"c hs USED_IN_HARDIRQ,USED\nc m1\nc m2\nc m3\n"
		"c hu ENABLED_HARDIRQ,USED\n"
		"c ss USED_IN_SOFTIRQ,USED\nc sm\nc su ENABLED_SOFTIRQ,USED\n"
		"c hrs USED_IN_HARDIRQ_READ\nc hu2 ENABLED_HARDIRQ\n"
		"c hrs2 USED_IN_HARDIRQ_READ\nc hu3 ENABLED_HARDIRQ\n"
		"c hs4 USED_IN_HARDIRQ\nc hur ENABLED_HARDIRQ_READ\n"
		"c hs5 USED_IN_HARDIRQ\nc hur2 ENABLED_HARDIRQ_READ\n"
		"c hs6 USED_IN_HARDIRQ\nc ll USED lt=1\nc hu6 ENABLED_HARDIRQ\n"
		"c hu7 ENABLED_HARDIRQ\nc hs7 USED_IN_HARDIRQ\n"
		"c both USED_IN_SOFTIRQ,ENABLED_SOFTIRQ\n"
		"c rboth USED_IN_HARDIRQ_READ,ENABLED_HARDIRQ_READ\n"
		"d hs m1\nd m1 m2\nd m2 m3\nd m3 hu\n"
		"d ss sm\nd sm su\n"
		"d hrs hu2 SN\nd hrs2 hu3 EN\n"
		"d hs4 hur ER\nd hs5 hur2 EN\n"
		"d hs6 ll\nd ll hu6\nd hu7 hs7\n",
		false, NULL);
	struct ld_irq_result r;
	uint32_t i, hard = 0;

	if (!m)
		return report("irq_paths_over_several_hops");
	CHECK(!ld_irq_check(m, 0, &r));
	CHECK_EQ(r.total[LD_IRQ_HARDIRQ], 3);
	CHECK_EQ(r.total[LD_IRQ_SOFTIRQ], 1);
	CHECK_EQ(r.nr, 4);
	CHECK_EQ(r.nr_skipped, 1);
	CHECK(!r.truncated && r.types_known);
	for (i = 0; i < r.nr; i++) {
		const struct ld_irq_finding *f = &r.f[i];
		const char *s = m->classes[f->safe].name.s;

		if (f->state == LD_IRQ_HARDIRQ)
			hard++;
		if (!strcmp(s, "hs")) {
			CHECK_EQ(f->nr, 4);
			CHECK_EQ(f->unsafe, cls(m, "hu"));
			CHECK_EQ(m->deps[r.deps[f->first]].from, cls(m, "hs"));
			CHECK_EQ(m->deps[r.deps[f->first + 3]].to,
				 cls(m, "hu"));
		} else if (!strcmp(s, "hrs2")) {
			CHECK_EQ(f->safe_bit, LD_USED_IN_HARDIRQ_READ);
		} else if (!strcmp(s, "hs5")) {
			CHECK_EQ(f->unsafe_bit, LD_ENABLED_HARDIRQ_READ);
		} else if (!strcmp(s, "ss")) {
			CHECK_EQ(f->nr, 2);
			CHECK_EQ(f->state, LD_IRQ_SOFTIRQ);
		} else {
			printf("# unexpected finding from %s\n", s);
			failed_here = 1;
		}
	}
	CHECK_EQ(hard, 3);
	/* "both" is inconsistent; "rboth" (read and read) is not */
	CHECK_EQ(r.nr_inc, 1);
	if (r.nr_inc)
		CHECK_EQ(r.inc[0].cls, cls(m, "both"));
	ld_irq_result_free(&r);
	/* --max 1: one listed, all counted */
	CHECK(!ld_irq_check(m, 1, &r));
	CHECK_EQ(r.nr, 1);
	CHECK(r.truncated);
	CHECK_EQ(r.total[LD_IRQ_HARDIRQ], 3);
	ld_irq_result_free(&r);
	ld_model_free(m);
	report("irq_paths_over_several_hops");
}

static void test_irq_cycle_back(void)
{
	/*
	 * A class safe and unsafe on a cycle reaches itself: lockdep reports
	 * the cycle (check_noncircular() runs first) or the inconsistent
	 * state, never the class against itself.  s: inconsistent; r:
	 * read-safe and read-unsafe, consistent.
	 */
	struct ld_model *m = graph(
		"c s USED_IN_HARDIRQ,ENABLED_HARDIRQ\nc t\n"
		"c r USED_IN_HARDIRQ_READ,ENABLED_HARDIRQ_READ\nc q\n"
		"d s t\nd t s\nd r q\nd q r\n",
		false, NULL);
	struct ld_irq_result r;

	if (!m)
		return report("irq_path_back_to_itself");
	CHECK(!ld_irq_check(m, 0, &r));
	CHECK_EQ(r.total[LD_IRQ_HARDIRQ], 0);
	CHECK_EQ(r.nr, 0);
	CHECK_EQ(r.nr_inc, 1);
	ld_irq_result_free(&r);
	ld_model_free(m);
	report("irq_path_back_to_itself");
}

/* Across boots ---------------------------------------------------------------- */

static void test_crossboot_realign(void)
{
	/* boot 1 registered ext4's i_mutex first, boot 2 tmpfs's: the #N
	 * swap and the neighbours tell which is which */
	struct ld_model *b1 = graph(
		"c half_a\nc half_b\nc imutex\nc imutex#2\nc data_sem\n"
		"c stat_lock\nc umount#26/1\nc only1\n"
		"d imutex data_sem\nd imutex#2 stat_lock\nd umount#26/1 imutex\n"
		"d half_a half_b\n",
		true, "6.12.0");
	struct ld_model *b2 = graph(
		"c half_a\nc half_b\nc imutex\nc imutex#2\nc data_sem\n"
		"c stat_lock\nc umount#31/1\nc only2\n"
		"d imutex#2 data_sem\nd imutex stat_lock\nd umount#31/1 imutex#2\n"
		"d half_b half_a\n",
		true, "6.12.0");
	struct ld_model *in[2] = { b1, b2 }, *u = NULL;
	struct ld_cycles cs;
	struct ld_match mt;
	struct ld_diag d;
	uint32_t i1, i2;

	if (!b1 || !b2) {
		ld_model_free(b1);
		ld_model_free(b2);
		return report("crossboot_realign_and_cycle");
	}
	CHECK(!ld_match_classes(b1, b2, &mt));
	i1 = cls(b1, "imutex");
	i2 = cls(b2, "imutex#2");
	CHECK_EQ(mt.a_to_b[i1], i2);
	CHECK_EQ(mt.how[i2], LD_MATCH_NEIGHBOURS);
	CHECK_EQ(mt.a_to_b[cls(b1, "imutex#2")], cls(b2, "imutex"));
	CHECK_EQ(mt.a_to_b[cls(b1, "umount#26/1")], cls(b2, "umount#31/1"));
	CHECK_EQ(mt.how[cls(b2, "umount#31/1")], LD_MATCH_REALIGNED);
	CHECK_EQ(mt.how[cls(b2, "half_a")], LD_MATCH_NAME);
	CHECK_EQ(mt.a_to_b[cls(b1, "only1")], LD_NONE);
	CHECK_EQ(mt.nr_a_only, 1);
	CHECK_EQ(mt.nr_how[LD_MATCH_NONE], 1);
	ld_match_free(&mt);

	/* each boot alone: no cycle; the union: half_a <-> half_b */
	CHECK(!ld_find_cycles(b1, 0, 0, false, &cs));
	CHECK_EQ(cs.nr, 0);
	ld_cycles_free(&cs);
	CHECK(!ld_merge(&u, in, 2, &d));
	if (u) {
		CHECK_EQ(u->nr_classes, 9);
		CHECK(u->merge && u->merge->nr_src == 2);
		CHECK(!ld_find_cycles(u, 0, 0, false, &cs));
		CHECK_EQ(cs.nr, 1);
		if (cs.nr)
			CHECK(has_cycle(u, &cs, "half_a -> half_b"));
		ld_cycles_free(&cs);
		/* boot 2's imutex#2 is the union's imutex: one class, two
		 * dependencies, nothing duplicated */
		i1 = cls(u, "imutex");
		CHECK_EQ(ld_nr_out(u, i1), 1);
		CHECK_EQ(ld_nr_in(u, i1), 1);
		CHECK_EQ(u->merge->dep_src[u->out[u->out_off[i1]]], 3);
		CHECK_EQ(u->merge->nr_renamed, 3);
		ld_model_free(u);
	}
	ld_model_free(b1);
	ld_model_free(b2);
	report("crossboot_realign_and_cycle");
}

static void test_crossboot_keys(void)
{
	/* export: two "x" classes told apart by key symbol, the same
	 * release so keys decide; a third only by name, its key dynamic
	 * ("-") in both; z's dynamic in a, static in b */
	struct ld_model *a = graph("c x key=k_one\nc x#2 key=k_two\nc y\n"
				   "c z\nd x y\n",
				   false, "6.12.0");
	struct ld_model *b = graph("c x key=k_two\nc x#2 key=k_one\nc y\n"
				   "c x#3 key=k_three\nc z key=k_z\nd y x#2\n",
				   false, "6.12.0");
	struct ld_model *in[2] = { a, b }, *u = NULL;
	struct ld_match mt;
	struct ld_cycles cs;
	struct ld_diag d;

	if (!a || !b) {
		ld_model_free(a);
		ld_model_free(b);
		return report("crossboot_key_symbols");
	}
	CHECK(a->classes[cls(a, "y")].key_not_static);
	CHECK(!a->classes[cls(a, "y")].key_sym.len);
	CHECK(!a->classes[cls(a, "x")].key_not_static);
	CHECK(!ld_match_classes(a, b, &mt));
	CHECK_EQ(mt.a_to_b[cls(a, "x")], cls(b, "x#2"));
	CHECK_EQ(mt.a_to_b[cls(a, "x#2")], cls(b, "x"));
	CHECK_EQ(mt.how[cls(b, "x")], LD_MATCH_KEY);
	CHECK_EQ(mt.b_to_a[cls(b, "x#3")], LD_NONE);
	ld_match_free(&mt);
	CHECK(!ld_merge(&u, in, 2, &d));
	if (u) {
		/* a: x -> y, b: y -> x#2 (k_one, a's x): x <-> y, and
		 * the class new in b got a free name */
		CHECK(!ld_find_cycles(u, 0, 0, false, &cs));
		CHECK_EQ(cs.nr, 1);
		ld_cycles_free(&cs);
		CHECK_EQ(u->nr_classes, 5);
		cls(u, "x#3");
		/* dynamic in every boot stays so; a symbol anywhere wins */
		CHECK(u->classes[cls(u, "y")].key_not_static);
		CHECK(!u->classes[cls(u, "x")].key_not_static);
		CHECK(!u->classes[cls(u, "z")].key_not_static);
		CHECK_EQ(u->classes[cls(u, "z")].key_sym.len, 3);
		ld_model_free(u);
	}
	ld_model_free(a);
	ld_model_free(b);
	report("crossboot_key_symbols");
}

static void test_diff(void)
{
	struct ld_diff df;
	struct ld_model *o = graph("c a\nc b\nc c\nc leak\nc leak#2\n"
				   "d a b\nd b c\nd leak a\n",
				   false, NULL);
	{
		struct ld_model *n = graph(
			"c a\nc b ENABLED_SOFTIRQ,USED\nc d\nc leak\nc leak#2\n"
			"c leak#3\nc leak#4\nd a b\nd a d\nd leak a\n",
			false, NULL);

		if (!o || !n) {
			ld_model_free(o);
			ld_model_free(n);
			return report("diff_classes_deps_usage_leak");
		}
		CHECK(!ld_diff(o, n, &df));
		CHECK_EQ(df.nr_added, 3); /* d, leak#3, leak#4 */
		CHECK_EQ(df.nr_removed, 1); /* c */
		CHECK_EQ(df.nr_dep_added, 1); /* a -> d */
		CHECK_EQ(df.nr_dep_removed, 1); /* b -> c */
		CHECK_EQ(df.nr_usage, 1);
		if (df.nr_usage)
			CHECK_EQ(df.usage[0].gained, 1u << LD_ENABLED_SOFTIRQ);
		CHECK_EQ(df.nr_names, 3); /* c, d, leak 2 -> 4 */
		CHECK(ld_diff_any(&df));
		ld_diff_free(&df);
		CHECK(!ld_diff(n, n, &df));
		CHECK(!ld_diff_any(&df));
		ld_diff_free(&df);
		ld_model_free(n);
	}
	ld_model_free(o);
	report("diff_classes_deps_usage_leak");
}

/* Reports ------------------------------------------------------------------- */

static struct ld_reports *parse_file(const char *name)
{
	struct ld_reports *rs = NULL;
	struct ld_diag d;
	char path[4096], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/reports-handmade/%s", fixdir, name);
	f = fopen(path, "rb");
	if (!f) {
		printf("# cannot open %s\n", path);
		failed_here = 1;
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (!buf || fread(buf, 1, n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		failed_here = 1;
		return NULL;
	}
	fclose(f);
	if (ld_parse_reports(name, buf, n, &rs, &d)) {
		printf("# %s: %s\n", name, d.msg);
		failed_here = 1;
	}
	free(buf);
	return rs;
}

static const char *lock_name(const struct ld_reports *rs, uint32_t i)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)rs->locks[i].name.len,
		 rs->locks[i].name.s);
	return buf;
}

static void test_report_circular(void)
{
	struct ld_reports *a = parse_file("circular-cycle3-syzbot.txt");
	struct ld_reports *b =
		parse_file("circular-cycle3-other-entry-quoted.eml");
	struct ld_reports *c = parse_file("circular-abba-crlf.console");
	const struct ld_report *r;

	if (!a || !b || !c)
		goto out;
	CHECK_EQ(a->nr, 1);
	CHECK_EQ(b->nr, 1);
	CHECK_EQ(c->nr, 1);
	r = &a->r[0];
	CHECK_EQ(r->kind, LD_RK_CIRCULAR);
	CHECK_EQ(r->nr_cycle, 3);
	CHECK_EQ(r->nr_hops, 3);
	CHECK(!strcmp(lock_name(a, a->idx[r->cycle]), "lds_cycle3_mutex"));
	CHECK(!strcmp(lock_name(a, a->idx[r->cycle + 1]), "lds_cycle3_rwsem"));
	CHECK_EQ(r->pid, 5123);
	CHECK_EQ(r->nr_held, 1); /* the [inline] repeat is one lock */
	CHECK(!r->truncated);
	/* the same cycle entered from another lock: the same id */
	CHECK(!strcmp(r->id, b->r[0].id));
	CHECK(strlen(r->id) == 14);
	/* hop #1 -> #2 carries block #2's stack, the closing hop #0's */
	if (r->nr_hops == 3) {
		const struct ld_rhop *h = &a->hops[r->hops + 1];
		const struct ld_rstack *s = &a->stacks[h->stack];

		CHECK(!strcmp(lock_name(a, h->to), "lds_cycle3_rtmutex"));
		CHECK(s->nr >= 3);
		CHECK(!memcmp(a->frames[s->first + s->nr - 2].s,
			      "lds_cycle3+0x71", 15));
	}
	/* CRLF and timestamps: the abba id matches the graph's */
	{
		struct ld_str n[2] = { { "lds_abba_a", 10 },
				       { "lds_abba_b", 10 } };
		char id[LD_CYCLE_ID_LEN];

		ld_cycle_id(n, 2, id);
		CHECK(!strcmp(c->r[0].id, id));
		CHECK_EQ(c->r[0].backtrace != LD_NONE, 1);
	}
out:
	ld_reports_free(a);
	ld_reports_free(b);
	ld_reports_free(c);
	report("report_circular_same_id_any_entry");
}

static void test_report_kinds(void)
{
	static const struct {
		const char *file;
		int kinds[8];
	} want[] = {
		{ "recursive-aa.txt", { LD_RK_RECURSIVE, -1 } },
		{ "inconsistent-hardirq.txt", { LD_RK_INCONSISTENT, -1 } },
		{ "safe-unsafe-hardirq.txt", { LD_RK_SAFE_UNSAFE, -1 } },
		{ "safe-unsafe-softirq-chain.txt", { LD_RK_SAFE_UNSAFE, -1 } },
		{ "irq-inversion-forwards.txt", { LD_RK_IRQ_INVERSION, -1 } },
		{ "irq-inversion-backwards.txt", { LD_RK_IRQ_INVERSION, -1 } },
		{ "wait-context.txt", { LD_RK_WAIT_CONTEXT, -1 } },
		{ "unlock-balance-journal.txt", { LD_RK_UNLOCK_BALANCE, -1 } },
		{ "held-lock-freed.txt", { LD_RK_HELD_FREED, -1 } },
		{ "lock-held-at-exit.txt", { LD_RK_EXIT_USER, -1 } },
		{ "capacity.txt", { LD_RK_CAPACITY, LD_RK_CAPACITY, -1 } },
		{ "old-info-title-3x.txt", { LD_RK_CIRCULAR, -1 } },
		{ "nested-lock-not-taken.txt", { LD_RK_NESTED, LD_RK_NESTED, -1 } },
		{ "several-with-noise.log",
		  { LD_RK_RCU, LD_RK_NESTED, LD_RK_LOCKS_HELD, LD_RK_CONTENTION,
		    LD_RK_CHAIN_KEY, LD_RK_CIRCULAR, LD_RK_RECURSIVE, -1 } },
	};
	unsigned int i, k;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct ld_reports *rs = parse_file(want[i].file);

		if (!rs)
			continue;
		for (k = 0; want[i].kinds[k] >= 0; k++)
			;
		if (rs->nr != k) {
			printf("# %s: %u reports, want %u\n", want[i].file,
			       rs->nr, k);
			failed_here = 1;
		}
		for (k = 0; k < rs->nr && want[i].kinds[k] >= 0; k++)
			if (rs->r[k].kind != want[i].kinds[k]) {
				printf("# %s: report %u is %s\n", want[i].file,
				       k + 1,
				       ld_report_kind_name(rs->r[k].kind));
				failed_here = 1;
			}
		ld_reports_free(rs);
	}
	report("report_every_kind");
}

static void test_report_details(void)
{
	struct ld_reports *rs;
	const struct ld_report *r;

	rs = parse_file("safe-unsafe-softirq-chain.txt");
	if (rs && rs->nr == 1) {
		r = &rs->r[0];
		/* timer -> mid (held) -> done (acquired) -> stat */
		CHECK_EQ(r->nr_hops, 3);
		if (r->nr_hops == 3) {
			CHECK(!strcmp(lock_name(rs, rs->hops[r->hops].from),
				      "&q->timer_lock"));
			CHECK(!strcmp(lock_name(rs, rs->hops[r->hops + 1].to),
				      "&q->done_lock"));
			CHECK(!strcmp(lock_name(rs, rs->hops[r->hops + 2].to),
				      "&q->stat_lock"));
		}
		CHECK(r->irqclass.len == 7 &&
		      !memcmp(r->irqclass.s, "SOFTIRQ", 7));
		CHECK(r->safe_stack != LD_NONE && r->unsafe_stack != LD_NONE);
	} else {
		failed_here = 1;
	}
	ld_reports_free(rs);
	rs = parse_file("inconsistent-hardirq.txt");
	if (rs && rs->nr == 1) {
		r = &rs->r[0];
		CHECK_EQ(r->usage_from, LD_USED_IN_HARDIRQ);
		CHECK_EQ(r->usage_to, LD_ENABLED_HARDIRQ);
		CHECK_EQ(r->held_count, 0);
		CHECK(r->usage_stack != LD_NONE &&
		      rs->stacks[r->usage_stack].nr == 8);
	} else {
		failed_here = 1;
	}
	ld_reports_free(rs);
	rs = parse_file("irq-inversion-backwards.txt");
	if (rs && rs->nr == 1) {
		r = &rs->r[0];
		CHECK(!r->forwards);
		CHECK_EQ(r->nr_hops, 2);
		CHECK(r->nr_hops == 2 &&
		      !strcmp(lock_name(rs, rs->hops[r->hops].from),
			      "inv2_safe"));
	} else {
		failed_here = 1;
	}
	ld_reports_free(rs);
	/* two stack dumps with the held locks between them */
	rs = parse_file("nested-lock-not-taken.txt");
	if (rs && rs->nr == 2) {
		static const unsigned int held[2] = { 2, 1 }, frames[2] = { 11, 3 };
		static const unsigned long end[2] = { 51, 81 };
		unsigned int k;

		for (k = 0; k < 2; k++) {
			r = &rs->r[k];
			CHECK(r->detail.len == 16 &&
			      !memcmp(r->detail.s, "&obj_class_mutex", 16));
			CHECK_EQ(r->held_count, held[k]);
			CHECK_EQ(r->nr_held, held[k]);
			CHECK(r->backtrace != LD_NONE &&
			      rs->stacks[r->backtrace].nr == frames[k]);
			CHECK_EQ(r->end_line, end[k]);
			CHECK(!r->truncated);
		}
		r = &rs->r[0];
		CHECK(r->nr_held == 2 &&
		      !strcmp(lock_name(rs, rs->idx[r->held + 1]),
			      "(work_completion)(&obj->work)"));
		CHECK(!strcmp(lock_name(rs, rs->r[1].locks), "&obj->inner"));
	} else {
		failed_here = 1;
	}
	ld_reports_free(rs);
	rs = parse_file("several-with-noise.log");
	if (rs && rs->nr == 7) {
		CHECK(rs->r[6].truncated); /* the log ends inside it */
		CHECK(!rs->r[5].truncated);
		CHECK_EQ(rs->r[0].pid, 201);
	} else {
		failed_here = 1;
	}
	ld_reports_free(rs);
	report("report_paths_usage_and_ends");
}

static void test_report_link(void)
{
	struct ld_model *m =
		graph("c lds_abba_a\nc lds_abba_b\n"
		      "c other key=lds_hardirq_safe[lockdep_scenarios]\n",
		      false, NULL);
	struct ld_reports *rs = parse_file("circular-abba.console");
	struct ld_reports *ru = parse_file("safe-unsafe-hardirq.txt");
	uint32_t i;

	if (!m || !rs || !ru)
		goto out;
	ld_reports_link(rs, m);
	for (i = 0; i < rs->nr_locks; i++)
		CHECK(rs->locks[i].cls != LD_NONE);
	/* by key symbol when the name does not match */
	ld_reports_link(ru, m);
	for (i = 0; i < ru->nr_locks; i++)
		if (ru->locks[i].role == LD_RR_PATH &&
		    !strcmp(lock_name(ru, i), "lds_hardirq_safe"))
			CHECK_EQ(ru->locks[i].cls, cls(m, "other"));
out:
	ld_model_free(m);
	ld_reports_free(rs);
	ld_reports_free(ru);
	report("report_linked_to_model");
}

static void test_report_garbage(void)
{
	static const char *const inputs[] = {
		"",
		"\n\n\n",
		"WARNING: possible circular locking dependency detected",
		"WARNING: possible circular locking dependency detected\n-> #",
		"WARNING: possible circular locking dependency detected\n-> #1 (x",
		"WARNING: possible circular locking dependency detected\n-> #1 (x){",
		"WARNING: possible circular locking dependency detected\n-> #99999999999999999999 (x){+}:\n",
		"[ BUG: Invalid wait context ]\n#0: (\n#1: ){}\n",
		"BUG: MAX_ too low!\n",
		"> > > > >",
		"WARNING: inconsistent lock state\ninconsistent {} -> {",
		"WARNING: x still has locks held!\n",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		struct ld_reports *rs = NULL;
		struct ld_diag d;

		CHECK(!ld_parse_reports("garbage", inputs[i], strlen(inputs[i]),
					&rs, &d));
		ld_reports_free(rs);
	}
	report("report_garbage_no_crash");
}

int main(int argc, char **argv)
{
	fixdir = argc > 1 ? argv[1] : "proc-interface/fixtures";
	test_cycle_lengths();
	test_cycles_shared();
	test_cycles_complete();
	test_cycles_large_component();
	test_cycle_id();
	test_strong_rule();
	test_paths();
	test_irq();
	test_irq_cycle_back();
	test_walks();
	test_walks_random();
	test_crossboot_realign();
	test_crossboot_keys();
	test_diff();
	test_report_circular();
	test_report_kinds();
	test_report_details();
	test_report_link();
	test_report_garbage();
	return 0;
}
