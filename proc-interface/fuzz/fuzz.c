// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz.c - libFuzzer harness, one binary per parser (FUZZ_TARGET):
 *   proc_lockdep, proc_chains, proc_stats, lock_stat, export, snapshot.
 * Build: clang -fsanitize=fuzzer,address,undefined -DFUZZ_TARGET=\"x\"
 * (see lockdep-tool/Makefile).  A loaded model is also saved and searched
 * so that the code behind the parsers sees the fuzzed data too, and every
 * input is read a second time without the parsers' fast paths: the two
 * must agree exactly (tests/model_cmp.h); and (one input in four) twice
 * more as the files of a snapshot directory, read whole and streamed
 * through the smallest buffer (ld_stream_min, ld_stream_buf): the same
 * result again; and (one in two) once more with every file shared
 * between two threads however small (/proc's chains in chunks of 64
 * bytes, the export's chains thread, the chain index's parts), against
 * the first read, which shares only what is big enough to (at most the
 * chain index of a chains file near the 1 MiB input limit, usually
 * nothing): the same once more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ld_internal.h"
#include "tests/model_cmp.h"

#ifndef FUZZ_TARGET
#error "define FUZZ_TARGET"
#endif

/* a valid class list for the parsers that refer to classes */
static const char base_lockdep[] =
	"all lock classes:\n"
	"00000000a1b2c3d4 OPS:       1 FD:    2 BD:    1 -.-.: &rq->__lock\n"
	" -> [00000000b1b2c3d4] b\n\n"
	"00000000b1b2c3d4 OPS:       1 FD:    1 BD:    2 ....: b\n\n";

static void exercise(struct ld_model *m)
{
	struct ld_diag d;
	uint32_t ids[4];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ld_suggest_classes(m, "rq_lock", ids, 4);
	f = open_memstream(&buf, &len);
	if (f) {
		ld_save(m, f, &d);
		fclose(f);
	}
	free(buf);
}

/* The files an input stands for (not a snapshot's) */
static unsigned int inputs(const uint8_t *data, size_t size,
			   struct ld_input in[LD_EX_NR])
{
	const char *t = FUZZ_TARGET, *p = (const char *)data;
	unsigned int n = 0;

	if (!strcmp(t, "export")) {
		/* NUL separates classes, deps, traces, usage, chains, stats */
		size_t off = 0;

		while (n < LD_EX_NR && off <= size) {
			const char *z = memchr(p + off, 0, size - off);
			size_t l = z ? (size_t)(z - (p + off)) : size - off;
			static char names[LD_EX_NR][32];

			snprintf(names[n], sizeof(names[n]), "lockdep/%s",
				 ld_export_files[n]);
			in[n] = (struct ld_input){ names[n], NULL, p + off, l };
			n++;
			off += l + 1;
		}
	} else {
		const char *name =
			!strcmp(t, "proc_lockdep") ? "lockdep" :
			!strcmp(t, "proc_chains")  ? "lockdep_chains" :
			!strcmp(t, "proc_stats")   ? "lockdep_stats" :
						     "lock_stat";

		if (strcmp(name, "lockdep"))
			in[n++] = (struct ld_input){ "lockdep", NULL,
						     base_lockdep,
						     sizeof(base_lockdep) - 1 };
		in[n++] = (struct ld_input){ name, NULL, p, size };
	}
	return n;
}

static int load(struct ld_model **mp, struct ld_diag *d, const uint8_t *data,
		size_t size, unsigned int what)
{
	struct ld_input in[LD_EX_NR];
	unsigned int n;

	if (!strcmp(FUZZ_TARGET, "snapshot"))
		return ld_load_snapshot_buf(mp, "fuzz", (const char *)data,
					    size, d);
	n = inputs(data, size, in);
	return ld_load_buffers_only(mp, in, n, what, d);
}

/* The files of @in written to a directory of this process's, emptied */
static const char *write_dir(const struct ld_input *in, unsigned int n)
{
	static const char *const all[] = {
		"lockdep", "lockdep_chains", "lockdep_stats", "lock_stat",
		"classes", "deps", "traces", "usage", "chains", "stats",
	};
	static char dir[64];
	char path[128];
	unsigned int i;
	FILE *f;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz-stream.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	for (i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, all[i]);
		unlink(path);
	}
	for (i = 0; i < n; i++) {
		const char *name = strncmp(in[i].name, "lockdep/", 8) ?
					   in[i].name :
					   in[i].name + 8;

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "w");
		if (!f || fwrite(in[i].data, 1, in[i].len, f) != in[i].len)
			abort();
		fclose(f);
	}
	return dir;
}

/* The directory read whole (@min SIZE_MAX) or streamed from @min bytes */
static int load_dir(struct ld_model **mp, struct ld_diag *d, const char *dir,
		    size_t min)
{
	size_t omin = ld_stream_min, obuf = ld_stream_buf;
	int ret;

	ld_stream_min = min;
	ld_stream_buf = LD_STREAM_MIN_BUF;
	ret = ld_load_path(mp, dir, d);
	ld_stream_min = omin;
	ld_stream_buf = obuf;
	return ret;
}

/* Two reads of one input agree, as @what says: result, message, model */
static void same_or_abort(const char *what, int ra, const struct ld_diag *da,
			  const struct ld_model *a, int rb,
			  const struct ld_diag *db, const struct ld_model *b)
{
	const char *diff = ra != rb		       ? "result" :
			   ra && strcmp(da->msg, db->msg) ? "message" :
			   !ra			       ? model_cmp(a, b) :
							 NULL;

	if (diff) {
		fprintf(stderr, "%s differ: %s\n", what, diff);
		abort();
	}
}

/* Streamed and whole, the same: result, message, model */
static void streamed_vs_whole(const uint8_t *data, size_t size)
{
	struct ld_model *w = NULL, *s = NULL;
	struct ld_input in[LD_EX_NR];
	struct ld_diag dw, ds;
	const char *dir;
	int rw, rs;

	dir = write_dir(in, inputs(data, size, in));
	rw = load_dir(&w, &dw, dir, SIZE_MAX);
	rs = load_dir(&s, &ds, dir, 0);
	if ((rw && !dw.msg[0]) || (rs && !ds.msg[0]))
		abort();
	same_or_abort("streamed and whole files", rw, &dw, w, rs, &ds, s);
	ld_model_free(w);
	ld_model_free(s);
}

/* Two threads at any size, as one: result, message, model */
static void threads_vs_one(const uint8_t *data, size_t size,
			   const struct ld_model *one, int rone,
			   const struct ld_diag *done)
{
	size_t split = ld_chain_split_min, chunk = ld_chain_chunk;
	size_t cmin = ld_chains_thread_min, imin = ld_index_thread_min;
	struct ld_model *two = NULL;
	struct ld_diag d;
	int ret;

	ld_chain_split_min = ld_chains_thread_min = ld_index_thread_min = 0;
	ld_chain_chunk = 64;
	ret = load(&two, &d, data, size, LD_LOAD_ALL);
	ld_chain_split_min = split;
	ld_chain_chunk = chunk;
	ld_chains_thread_min = cmin;
	ld_index_thread_min = imin;
	same_or_abort("two threads and one", rone, done, one, ret, &d, two);
	ld_model_free(two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ld_model *m = NULL, *slow = NULL;
	struct ld_diag d, ds;
	unsigned int what;
	int ret, rs;

	/* some of the kinds of data, chosen by the input (snapshot: all) */
	what = ld_load_what(1 + size % LD_LOAD_ALL);

	ret = load(&m, &d, data, size, LD_LOAD_ALL);
	if (!ret)
		exercise(m);
	else if (!d.msg[0])
		abort(); /* every error must say what went wrong */
	ld_fast_paths = false;
	rs = load(&slow, &ds, data, size, LD_LOAD_ALL);
	ld_fast_paths = true;
	same_or_abort("fast and general paths", ret, &d, m, rs, &ds, slow);
	ld_model_free(slow);
	/* threads cost: one input in two, always the same */
	if (!(ld_hash_bytes((const char *)data, size) & 4))
		threads_vs_one(data, size, m, ret, &d);
	/* files cost ten times the rest: one input in four, always the same */
	if (strcmp(FUZZ_TARGET, "snapshot") &&
	    !(ld_hash_bytes((const char *)data, size) & 3))
		streamed_vs_whole(data, size);
	/* reading less: what a full load reads without error, it reads too */
	if (strcmp(FUZZ_TARGET, "snapshot")) {
		slow = NULL;
		rs = load(&slow, &ds, data, size, what);
		if (rs && !ds.msg[0])
			abort();
		if (!ret && (rs || model_cmp_part(m, slow, what))) {
			fprintf(stderr, "a load of 0x%x differs: %s\n", what,
				rs ? ds.msg : model_cmp_part(m, slow, what));
			abort();
		}
		ld_model_free(slow);
	}
	ld_model_free(m);
	return 0;
}
