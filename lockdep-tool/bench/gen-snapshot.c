// SPDX-License-Identifier: GPL-2.0
/*
 * gen-snapshot.c - write a synthetic lockdep snapshot of any size, by
 * default at full capacity under raised limits (8191 classes, 262144
 * dependency entries, 262144 chains), in both formats:
 *
 *   DIR/proc/{lockdep,lockdep_chains,lockdep_stats,lock_stat}
 *   DIR/export/lockdep/{classes,deps,traces,usage,chains,stats}
 *
 * The graph is a random DAG (lockdep refuses cycles), chains follow its
 * edges, names look like the kernel's.  Deterministic for a given size.
 *
 * usage: gen-snapshot DIR [CLASSES [DEPS [CHAINS]]]
 *        gen-snapshot --fault-cost|--populate-cost|--huge-cost MIB
 *
 * The second form prints the milliseconds this machine takes to give a
 * process MIB of fresh memory (page faults, zeroing) page by page,
 * populated in 4 KiB pages or in 2 MiB pages: the part of a load that no
 * parser can avoid, for bench.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static uint32_t nc, nd, nch;
static uint32_t *efrom, *eto, *etrace, *off, *adj, *rank;
static uint16_t *usage;
static uint8_t *etype;
static char **names;

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static void close_out(FILE *f)
{
	if (fclose(f)) {
		perror("write");
		exit(1);
	}
}

static void make_names(void)
{
	static const char *const tmpl[] = {
		"&(&obj_%05u->lock)->rlock",   "&dev_%u->mutex",
		"&type->s_umount_key_%u",      "(wq_completion)events_%u",
		"&sb->s_type->i_lock_key_%u",  "rcu_node_%u",
		"&(&q->queue_lock_%u)->rlock", "subsys mutex %u",
	};
	uint32_t i;

	names = calloc(nc, sizeof(*names));
	for (i = 0; i < nc; i++) {
		char buf[128];
		int n;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		n = snprintf(buf, sizeof(buf), tmpl[i % 8], i / 8);
#pragma GCC diagnostic pop

		if (i % 13 == 0)
			n += snprintf(buf + n, sizeof(buf) - n, "#%u",
				      2 + i % 7);
		if (i % 17 == 0)
			snprintf(buf + n, sizeof(buf) - n, "/%u", 1 + i % 3);
		names[i] = strdup(buf);
	}
}

static void make_graph(void)
{
	uint32_t i, n = 0, hsize = 1;
	uint64_t *hash;

	rank = malloc(nc * sizeof(*rank));
	for (i = 0; i < nc; i++)
		rank[i] = i;
	for (i = nc - 1; i > 0; i--) {
		uint32_t j = rnd() % (i + 1), t = rank[i];

		rank[i] = rank[j];
		rank[j] = t;
	}
	while (hsize < nd * 2)
		hsize <<= 1;
	hash = calloc(hsize, sizeof(*hash));
	efrom = malloc(nd * sizeof(*efrom));
	eto = malloc(nd * sizeof(*eto));
	etrace = malloc(nd * sizeof(*etrace));
	etype = malloc(nd);
	while (n < nd) {
		/*
		 * both ends from one draw, mixed (xorshift64*): two draws in
		 * a row are linearly related, and with a power of two classes
		 * they reached a quarter of the pairs, so that a dense graph
		 * was never complete
		 */
		uint64_t r = rnd() * 0x2545f4914f6cdd1dULL, key;
		uint32_t a = (uint32_t)(r >> 32) % nc;
		uint32_t b = (uint32_t)(r >> 8 & 0xffffff) % nc, h;

		if (a == b)
			continue;
		if (rank[a] > rank[b]) {
			uint32_t t = a;

			a = b;
			b = t;
		}
		key = ((uint64_t)a << 32 | b) + 1;
		for (h = (key * 0x9e3779b97f4a7c15ULL) >> 40 & (hsize - 1);
		     hash[h] && hash[h] != key; h = (h + 1) & (hsize - 1))
			;
		if (hash[h])
			continue;
		hash[h] = key;
		efrom[n] = a;
		eto[n] = b;
		etype[n] = rnd() % 8 ? 8 : 1 << (rnd() % 4);
		etrace[n] = rnd() % 20000;
		n++;
	}
	free(hash);
	/* CSR by source, keeping generation order (list order) */
	off = calloc(nc + 1, sizeof(*off));
	adj = malloc(nd * sizeof(*adj));
	for (i = 0; i < nd; i++)
		off[efrom[i] + 1]++;
	for (i = 0; i < nc; i++)
		off[i + 1] += off[i];
	{
		uint32_t *pos = malloc(nc * sizeof(*pos));

		memcpy(pos, off, nc * sizeof(*pos));
		for (i = 0; i < nd; i++)
			adj[pos[efrom[i]]++] = i;
		free(pos);
	}
	usage = malloc(nc * sizeof(*usage));
	for (i = 0; i < nc; i++) {
		uint16_t u = 1 << 8;

		switch (rnd() % 6) {
		case 0:
			u |= 0x11;
			break; /* hardirq+softirq safe */
		case 1:
			u |= 0x10;
			break;
		case 2:
			u |= 0x44;
			break; /* irq unsafe */
		case 3:
			u |= 0x40;
			break;
		default:
			break;
		}
		usage[i] = u;
	}
}

static void usage_chars(uint16_t m, char *o)
{
	static const int bit[4] = { 0, 1, 4, 5 };
	int i;

	for (i = 0; i < 4; i++) {
		int in = m >> bit[i] & 1, en = m >> (bit[i] + 2) & 1;

		o[i] = en ? (in ? '?' : '+') : (in ? '-' : '.');
	}
	o[4] = 0;
}

/* a chain: a random walk along the graph, 1..8 classes */
static uint32_t chain(uint32_t i, uint32_t *out)
{
	uint32_t depth = 1 + (i * 7 + rnd() % 8) % 8, c = rnd() % nc, n = 0;

	while (n < depth) {
		out[n++] = c;
		if (off[c + 1] == off[c])
			break;
		c = eto[adj[off[c] + rnd() % (off[c + 1] - off[c])]];
	}
	return n;
}

static void write_proc(const char *dir)
{
	uint32_t i, k, buf[8];
	char u[5];
	FILE *f;

	f = open_out(dir, "lockdep");
	fputs("all lock classes:\n", f);
	for (i = 0; i < nc; i++) {
		usage_chars(usage[i], u);
		fprintf(f, "%016x OPS:%8u FD:%5u BD:%5u %s: %s\n",
			0x10000000u + i * 0x10u, (unsigned int)(rnd() % 100000),
			1 + (unsigned int)(rnd() % 4000),
			1 + (unsigned int)(rnd() % 4000), u, names[i]);
		for (k = off[i]; k < off[i + 1]; k++)
			fprintf(f, " -> [%016x] %s\n",
				0x10000000u + eto[adj[k]] * 0x10u,
				names[eto[adj[k]]]);
		fputc('\n', f);
	}
	close_out(f);

	rs = 42;
	f = open_out(dir, "lockdep_chains");
	fputs("all lock chains:\n", f);
	for (i = 0; i < nch; i++) {
		static const char *const ctx[] = { "0", "hardirq", "softirq",
						   "hardirq|softirq" };
		uint32_t n = chain(i, buf);

		fprintf(f, "irq_context: %s\n",
			ctx[i % 11 == 0 ? 1 + i % 3 : 0]);
		for (k = 0; k < n; k++)
			fprintf(f, "[%016x] %s\n", 0x10000000u + buf[k] * 0x10u,
				names[buf[k]]);
		fputc('\n', f);
	}
	close_out(f);

	f = open_out(dir, "lockdep_stats");
	fprintf(f, " lock-classes:                  %11u [max: %u]\n", nc,
		8192);
	/* list entries: each dependency in both directions */
	fprintf(f, " direct dependencies:           %11u [max: %u]\n", 2 * nd,
		2 * 262144);
	fprintf(f, " dependency chains:             %11u [max: %u]\n", nch,
		262144);
	fprintf(f, " dependency chain hlocks used:  %11u [max: %u]\n", nch * 4,
		262144 * 5);
	fprintf(f, " stack-trace entries:           %11u [max: %u]\n", 160000,
		1 << 19);
	fprintf(f, " debug_locks:                   %11u\n", 1);
	fprintf(f, "\n zapped classes:                %11u\n", 0);
	fprintf(f, " zapped lock chains:            %11u\n", 0);
	fprintf(f, " large chain blocks:            %11u\n", 0);
	close_out(f);

	f = open_out(dir, "lock_stat");
	fputs("lock_stat version 0.4\n", f);
	for (k = 0; k < 221; k++)
		fputc('-', f);
	fprintf(f, "\n%40s %14s\n", "class name", "con-bounces");
	for (k = 0; k < 221; k++)
		fputc('-', f);
	fputs("\n\n", f);
	for (i = 0; i < nc; i++) {
		char nm[40];

		snprintf(nm, sizeof(nm), "%.37s", names[i]);
		fprintf(f,
			"%40s:%14u %14u %14s %14s %14s %14s %14u %14u %14s %14s %14s %14s\n",
			nm, 1u, (unsigned int)(rnd() % 1000), "0.10", "9.99",
			"123.45", "1.23", 5u, (unsigned int)(rnd() % 100000),
			"0.05", "20.00", "5000.00", "0.50");
	}
	close_out(f);
}

static void write_export(const char *dir)
{
	static const char *const bits[] = {
		"USED_IN_HARDIRQ",
		"USED_IN_HARDIRQ_READ",
		"ENABLED_HARDIRQ",
		"ENABLED_HARDIRQ_READ",
		"USED_IN_SOFTIRQ",
		"USED_IN_SOFTIRQ_READ",
		"ENABLED_SOFTIRQ",
		"ENABLED_SOFTIRQ_READ",
		"USED",
		"USED_READ",
	};
	static const char *const tn[] = { "SR", "ER", "SN", "EN" };
	uint32_t i, k, b, buf[8], *nbefore;
	FILE *f;

	nbefore = calloc(nc, sizeof(*nbefore));
	for (i = 0; i < nd; i++)
		nbefore[eto[i]]++;
	f = open_out(dir, "classes");
	fputs("# lockdep classes 1 generation 1000\n# id key name_version subclass usage_mask usage wait_inner wait_outer lock_type ops fd bd name\n",
	      f);
	for (i = 0; i < nc; i++) {
		char base[128], *p;
		unsigned int ver = 1, sub = 0;
		int first = 1;

		snprintf(base, sizeof(base), "%s", names[i]);
		p = strchr(base, '/');
		if (p) {
			sub = atoi(p + 1);
			*p = 0;
		}
		p = strrchr(base, '#');
		if (p) {
			ver = atoi(p + 1);
			*p = 0;
		}
		fprintf(f, "%u __key.%u %u %u 0x%x ", i, i, ver, sub, usage[i]);
		for (b = 0; b < 10; b++)
			if (usage[i] & (1 << b)) {
				fprintf(f, "%s%s", first ? "" : ",", bits[b]);
				first = 0;
			}
		fprintf(f, " 2 0 0 %u %u %u %s\n",
			(unsigned int)(rnd() % 100000), off[i + 1] - off[i],
			nbefore[i], base);
	}
	fputs("# end generation 1000\n", f);
	close_out(f);

	f = open_out(dir, "deps");
	fputs("# lockdep deps 1 generation 1000\n# from to distance type trace\n",
	      f);
	for (i = 0; i < nc; i++)
		for (k = off[i]; k < off[i + 1]; k++) {
			uint32_t e = adj[k];

			fprintf(f, "%u %u %u %s %u\n", efrom[e], eto[e],
				1 + (e % 50 == 0), tn[__builtin_ctz(etype[e])],
				etrace[e] * 16);
		}
	fputs("# end generation 1000\n", f);
	close_out(f);

	f = open_out(dir, "traces");
	fputs("# lockdep traces 1 generation 1000\n# id frame symbol\n", f);
	for (i = 0; i < 20000; i++)
		for (k = 0; k < 8; k++)
			fprintf(f, "%u %u func_%u_%u+0x%x/0x%x\n", i * 16, k,
				i % 997, k, (unsigned int)(rnd() % 4096),
				4096u);
	fputs("# end generation 1000\n", f);
	close_out(f);

	f = open_out(dir, "usage");
	fputs("# lockdep usage 1 generation 1000\n# class state trace\n", f);
	for (i = 0; i < nc; i++)
		for (b = 0; b < 10; b++)
			if (usage[i] & (1 << b))
				fprintf(f, "%u %s %u\n", i, bits[b],
					(unsigned int)(rnd() % 20000) * 16);
	fputs("# end generation 1000\n", f);
	close_out(f);

	rs = 42;
	f = open_out(dir, "chains");
	fputs("# lockdep chains 1 generation 1000\n# id key irq_context depth locks\n",
	      f);
	for (i = 0; i < nch; i++) {
		uint32_t n = chain(i, buf);

		fprintf(f, "%u 0x%016llx %u %u", i, (unsigned long long)rnd(),
			i % 11 == 0 ? 1 + i % 3 : 0, n);
		for (k = 0; k < n; k++)
			fprintf(f, " %u:%u", buf[k], k == 0 && i % 5 == 0);
		fputc('\n', f);
	}
	fputs("# end generation 1000\n", f);
	close_out(f);

	f = open_out(dir, "stats");
	fprintf(f,
		"# lockdep stats 1 generation 1000\n# key value\n"
		"lock_classes %u\nmax_classes 8192\n"
		"direct_dependencies %u\nmax_list_entries %u\n"
		"dependency_chains %u\nmax_chains 262144\n"
		"debug_locks 1\ngeneration 1000\n# end generation 1000\n",
		nc, 2 * nd, 2 * 262144, nch);
	close_out(f);
	free(nbefore);
}

/*
 * Time to make @mib MiB of fresh anonymous memory usable: fault it in
 * page by page, or populate it first with one MADV_POPULATE_WRITE in
 * 4 KiB or in 2 MiB pages (MADV_HUGEPAGE, as the tool's ld_alloc_big()
 * asks for its large arrays), then touch every page, since on a virtual
 * machine with shadow page tables the first touch after populating still
 * costs.  "n/a" when the kernel refuses the advice.
 */
enum fault_mode { FAULT_PAGES, FAULT_POPULATE, FAULT_HUGE };

static int fault_cost(unsigned long mib, enum fault_mode mode)
{
	size_t huge = (size_t)2 << 20, len = mib << 20, i;
	struct timespec t0, t1;
	volatile char *p;
	char *map;

	map = mmap(NULL, len + huge, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("gen-snapshot: mmap");
		return 1;
	}
	p = (char *)(((uintptr_t)map + huge - 1) & ~(uintptr_t)(huge - 1));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((mode == FAULT_HUGE &&
	     madvise((void *)p, len, 14 /* MADV_HUGEPAGE */)) ||
	    (mode != FAULT_PAGES &&
	     madvise((void *)p, len, 23 /* MADV_POPULATE_WRITE */))) {
		printf("n/a\n");
		return 0;
	}
	for (i = 0; i < len; i += 4096)
		p[i] = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.1f\n", (t1.tv_sec - t0.tv_sec) * 1e3 +
				 (t1.tv_nsec - t0.tv_nsec) / 1e6);
	return 0;
}

/*
 * A count argument @s (NULL: @def) within [@min, @max]: CLASSES up to
 * 2^24, as many as make_graph() draws from; false with a message
 */
static bool count_arg(const char *s, const char *what, uint32_t def,
		      uint32_t min, uint32_t max, uint32_t *v)
{
	unsigned long long n;
	char *end;

	if (!s) {
		*v = def;
		return true;
	}
	errno = 0;
	n = strtoull(s, &end, 0);
	if (*s < '0' || *s > '9' || *end || errno || n < min || n > max) {
		fprintf(stderr,
			"gen-snapshot: %s '%s': expected a number from %u to %u\n",
			what, s, min, max);
		return false;
	}
	*v = n;
	return true;
}

int main(int argc, char **argv)
{
	char path[4096];

	if (argc == 3 && !strcmp(argv[1], "--fault-cost"))
		return fault_cost(strtoul(argv[2], NULL, 0), FAULT_PAGES);
	if (argc == 3 && !strcmp(argv[1], "--populate-cost"))
		return fault_cost(strtoul(argv[2], NULL, 0), FAULT_POPULATE);
	if (argc == 3 && !strcmp(argv[1], "--huge-cost"))
		return fault_cost(strtoul(argv[2], NULL, 0), FAULT_HUGE);

	if (argc < 2 || argc > 5) {
		fprintf(stderr,
			"usage: gen-snapshot DIR [CLASSES [DEPS [CHAINS]]]\n");
		return 2;
	}
	if (!count_arg(argc > 2 ? argv[2] : NULL, "CLASSES", 8191, 2, 1 << 24,
		       &nc) ||
	    !count_arg(argc > 3 ? argv[3] : NULL, "DEPS", 262144, 0, 1 << 26,
		       &nd) ||
	    !count_arg(argc > 4 ? argv[4] : NULL, "CHAINS", 262144, 0, 1 << 26,
		       &nch))
		return 2;
	if ((uint64_t)nd > (uint64_t)nc * (nc - 1) / 2) {
		fprintf(stderr,
			"gen-snapshot: %u dependencies among %u classes: a DAG has at most %llu\n",
			nd, nc, (unsigned long long)nc * (nc - 1) / 2);
		return 2;
	}
	make_names();
	make_graph();
	snprintf(path, sizeof(path), "%s/proc", argv[1]);
	mkdir(argv[1], 0755);
	mkdir(path, 0755);
	write_proc(path);
	snprintf(path, sizeof(path), "%s/export", argv[1]);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/export/lockdep", argv[1]);
	mkdir(path, 0755);
	write_export(path);
	return 0;
}
