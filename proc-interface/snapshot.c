// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - where the files come from: the live kernel, a snapshot
 * directory, a lone copied file, or a snapshot file; and the snapshot file
 * format itself (ld_save()).
 *
 * Snapshot file, version 1 (text; every value escaped like C strings):
 *
 *   lockdep-tool snapshot 1
 *   release <kernel release or ->
 *   captured <YYYY-MM-DDTHH:MM:SSZ or ->
 *   origin <live, or the directory/file it was taken from>
 *   section <name> <byte count> <path it was read from>
 *   <exactly byte-count bytes of the file, verbatim>
 *   (a newline)
 *   ... more sections ...
 *   end
 *
 * Section names are the kernel's: lockdep, lockdep_chains, lockdep_stats,
 * lock_stat (in /proc) and lockdep/classes, lockdep/deps, ... (debugfs).
 * Saving a loaded snapshot writes the same bytes.
 *
 * Version 2 is a union of snapshots (merge.h), kept as the snapshots it
 * was made of, each a complete version-1 file:
 *
 *   lockdep-tool snapshot 2
 *   union <number of parts, 2 to LD_MERGE_MAX>
 *   part <byte count>
 *   <exactly byte-count bytes: a version-1 snapshot>
 *   (a newline)
 *   ... more parts ...
 *   end
 *
 * Loading one merges its parts again, in order (the merge is
 * deterministic); given with other snapshots, its parts join them.
 * Single snapshots are still written as version 1.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ld_internal.h"
#include "merge.h"

#define SNAP_MAGIC "lockdep-tool snapshot "

size_t ld_max_file = LD_MAX_FILE;

/* Canonical order; also the set of names a snapshot may hold. */
static const char *const known_sections[] = {
	"lockdep",	   "lockdep_chains", "lockdep_stats",  "lock_stat",
	"lockdep/classes", "lockdep/deps",   "lockdep/traces", "lockdep/usage",
	"lockdep/chains",  "lockdep/stats",
};

/*
 * A regular file of MAP_MIN bytes or more is mapped rather than read when
 * the caller allows it (@mapped not NULL): at full capacity lockdep's files
 * are tens of MiB, and copying them into fresh memory costs more than
 * parsing them.  The mapping is private and read-only (the parsers never
 * write to a section) and not NUL-terminated.  As for any reader that maps
 * files (git's packs), a file truncated by someone else while it is mapped
 * would raise SIGBUS: snapshot copies are not rewritten in place, and the
 * live files in /proc and debugfs (size 0) are always read.
 */
#define MAP_MIN (64 * 1024)
/*
 * From 1 MiB on (a snapshot file at full capacity), a file is read into huge
 * pages instead: on a virtual machine each 4 KiB page of a mapping costs
 * a microsecond or two the first time it is touched, even populated.  A
 * 1.8 MiB file took 0.8 ms mapped and touched, 0.4 ms read into a 2 MiB
 * page (6 ms into small pages).
 */
#define READ_HUGE_MIN (1024 * 1024)

static bool map_file(int fd, char **data, size_t *len)
{
	struct stat st;
	void *p;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < MAP_MIN ||
	    st.st_size >= READ_HUGE_MIN ||
	    (uint64_t)st.st_size >= ld_max_file / 2)
		return false;
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
		 0);
	if (p == MAP_FAILED)
		return false;
	*data = p;
	*len = st.st_size;
	return true;
}

static void free_data(char *data, size_t len, bool mapped)
{
	struct ld_section s = { .data = data, .len = len, .mapped = mapped };

	ld_section_free_data(&s);
}

/*
 * Open @path to read; with @regular, only a regular file: a FIFO or a
 * device in a snapshot directory would block or never end (opened
 * without blocking to look, then read as usual).  A path given alone may
 * be a pipe: `-s <(ssh host cat /proc/lockdep)`.
 */
static int open_input(const char *path, bool regular, struct ld_diag *d)
{
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC | (regular ? O_NONBLOCK : 0));
	if (fd < 0) {
		err = errno;
		ld_diagf(d, "%s: %s", path, strerror(err));
		return -err;
	}
	if (regular && (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
			fcntl(fd, F_SETFL, 0))) {
		close(fd);
		ld_diagf(d, "%s: not a regular file", path);
		return -EINVAL;
	}
	/* a pipe (-s <(...)) is read to its end; a device never ends */
	if (!regular && !fstat(fd, &st) &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		close(fd);
		ld_diagf(d, "%s: a device, not a file or a pipe", path);
		return -EINVAL;
	}
	return fd;
}

static int too_big(const char *path, struct ld_diag *d)
{
	ld_diagf(d, "%s: file larger than %zu MiB", path, ld_max_file >> 20);
	return -EFBIG;
}

static int read_all(const char *path, bool regular, char **data, size_t *len,
		    bool *mapped, struct ld_diag *d)
{
	size_t alloc = 65536, n = 0, grow;
	struct stat st;
	char *buf, *nb;
	ssize_t r;
	int fd, err;

	fd = open_input(path, regular, d);
	if (fd < 0)
		return fd;
	if (mapped) {
		*mapped = map_file(fd, data, len);
		if (*mapped) {
			close(fd);
			return 0;
		}
	}
	/*
	 * A regular file's size, and room to see its end: a buffer of 64
	 * KiB grown to 128 before the read that returns 0 cost a small
	 * file 30 page faults.  /proc and debugfs files say 0.
	 */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		/* said now, not after reading a GiB into as much memory */
		if ((uint64_t)st.st_size > ld_max_file - 2) {
			close(fd);
			return too_big(path, d);
		}
		alloc = (size_t)st.st_size + 2;
	}
	buf = alloc >= READ_HUGE_MIN ? ld_alloc_big(alloc) : malloc(alloc);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (alloc - n < 2) {
			if (alloc >= ld_max_file) {
				free(buf);
				close(fd);
				return too_big(path, d);
			}
			/* doubled, up to the limit exactly */
			grow = alloc < ld_max_file / 2 ? alloc * 2 : ld_max_file;
			/*
			 * A big one into 2 MiB pages, copied: realloc()
			 * moves a big block's pages, but what read() fills
			 * after them comes in 4 KiB pages, each a fault (a
			 * pipe of 1 GiB took 5 s of them, /proc/lockdep's
			 * 12 MiB at full size 50 ms)
			 */
			if (grow >= READ_HUGE_MIN) {
				nb = ld_alloc_big(grow);
				if (nb) {
					ld_populate(nb, n);
					memcpy(nb, buf, n);
					free(buf);
				}
			} else {
				nb = realloc(buf, grow);
			}
			if (!nb) {
				free(buf);
				close(fd);
				return -ENOMEM;
			}
			buf = nb;
			alloc = grow;
		}
		r = read(fd, buf + n, alloc - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			free(buf);
			close(fd);
			ld_diagf(d, "%s: %s", path, strerror(err));
			return -err;
		}
		if (!r)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
}

static int add_section(struct ld_model *m, const char *name, const char *origin,
		       char *data, size_t len, bool mapped,
		       unsigned long base_line)
{
	struct ld_section *s;

	s = realloc(m->sections, (m->nr_sections + 1) * sizeof(*s));
	if (!s)
		return -ENOMEM;
	m->sections = s;
	s = &m->sections[m->nr_sections];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	s->origin = strdup(origin);
	s->path = strdup(origin);
	if (!s->name || !s->origin || !s->path) {
		free(s->name);
		free(s->origin);
		free(s->path);
		return -ENOMEM;
	}
	s->data = data;
	s->len = len;
	s->mapped = mapped;
	s->base_line = base_line;
	m->nr_sections++;
	return 0;
}

/* The kinds of data a section holds (LD_LOAD_*); unknown ones: all. */
static unsigned int section_kind(const char *name)
{
	static const struct {
		const char *name;
		unsigned int what;
	} kinds[] = {
		{ "lockdep", LD_LOAD_GRAPH },
		{ "lockdep_chains", LD_LOAD_CHAINS },
		{ "lockdep_stats", LD_LOAD_STATS },
		{ "lock_stat", LD_LOAD_LOCKSTAT },
		{ "lockdep/classes", LD_LOAD_GRAPH },
		{ "lockdep/deps", LD_LOAD_GRAPH },
		{ "lockdep/traces", LD_LOAD_TRACES },
		{ "lockdep/usage", LD_LOAD_TRACES },
		{ "lockdep/chains", LD_LOAD_CHAINS },
		{ "lockdep/stats", LD_LOAD_STATS },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].name, name))
			return kinds[i].what;
	return LD_LOAD_ALL;
}

unsigned int ld_load_what(unsigned int what)
{
	what &= LD_LOAD_ALL;
	if (what & ~LD_LOAD_STATS)
		what |= LD_LOAD_GRAPH;
	return what ? what : LD_LOAD_ALL;
}

static bool wanted(const struct ld_model *m, const char *name)
{
	return m->loaded == LD_LOAD_ALL || (section_kind(name) & m->loaded);
}

/* A section that is there and was not read (not in m->loaded). */
static int add_skipped(struct ld_model *m, const char *name,
		       const char *origin)
{
	int ret = add_section(m, name, origin, NULL, 0, false, 0);

	if (!ret)
		m->sections[m->nr_sections - 1].skipped = true;
	return ret;
}

static int add_section_copy(struct ld_model *m, const char *name,
			    const char *origin, const char *data, size_t len,
			    unsigned long base_line)
{
	char *copy = malloc(len + 1);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, len);
	copy[len] = '\0';
	ret = add_section(m, name, origin, copy, len, false, base_line);
	if (ret)
		free(copy);
	return ret;
}

static struct ld_section *find_section(struct ld_model *m, const char *name)
{
	uint32_t i;

	for (i = 0; i < m->nr_sections; i++)
		if (!strcmp(m->sections[i].name, name))
			return &m->sections[i];
	return NULL;
}

/* The section if it was read (a skipped one is there, without data) */
static struct ld_section *read_section(struct ld_model *m, const char *name)
{
	struct ld_section *s = find_section(m, name);

	return s && !s->skipped ? s : NULL;
}

/*
 * Parse every section we understand into the model; only those read, but
 * what is missing is judged by what is there (so that reading less never
 * turns a source into a different one).
 */
static int build(struct ld_model *m, struct ld_diag *d)
{
	double t = ld_phase(m, "read", m->load_start);
	struct ld_section *ex[LD_EX_NR], *s;
	char name[32];
	bool export = false;
	int i, ret;

	for (i = 0; i < LD_EX_NR; i++) {
		snprintf(name, sizeof(name), "lockdep/%s", ld_export_files[i]);
		ex[i] = read_section(m, name);
	}
	if (find_section(m, "lockdep/classes")) {
		/* the kernel writes them all: one missing was not copied */
		char miss[64] = "";

		for (i = 1; i < LD_EX_NR; i++) {
			snprintf(name, sizeof(name), "lockdep/%s",
				 ld_export_files[i]);
			if (!find_section(m, name))
				snprintf(miss + strlen(miss),
					 sizeof(miss) - strlen(miss), " %s",
					 ld_export_files[i]);
		}
		if (*miss &&
		    ld_warn(m, "export files not in this source, their data unknown:%s",
			    miss))
			return -ENOMEM;
		ret = ld_parse_export(m, ex, d);
		if (ret)
			return ret;
		t = ld_now_ms();
		export = true;
	} else if (find_section(m, "lockdep")) {
		struct ld_section *cs = read_section(m, "lockdep_chains");

		s = read_section(m, "lockdep");
		if (s) {
			ret = ld_parse_proc(m, s, cs, d);
			if (ret)
				return ret;
			s->used = true;
			if (cs)
				cs->used = true;
			t = ld_now_ms();
		}
	} else {
		for (i = 1; i < LD_EX_NR; i++) {
			snprintf(name, sizeof(name), "lockdep/%s",
				 ld_export_files[i]);
			s = find_section(m, name);
			if (s && i != LD_EX_STATS)
				return ld_diagf(
					d,
					"%s: debugfs export without its 'classes' file",
					s->origin);
		}
		/* only when read: the counters next to them are still good */
		s = read_section(m, "lockdep_chains");
		if (s)
			return ld_diagf(
				d,
				"%s: lock chains without /proc/lockdep to name their classes",
				s->origin);
		if (!find_section(m, "lockdep_stats") &&
		    !find_section(m, "lockdep/stats") &&
		    !find_section(m, "lock_stat"))
			return ld_diagf(
				d,
				"%s: no lockdep data (expected /proc/lockdep or the debugfs export)",
				m->origin ? m->origin : "input");
		/* counters or lock_stat alone: classes stay unknown */
		if (find_section(m, "lockdep/stats")) {
			ret = ld_parse_export(m, ex, d);
			if (ret)
				return ret;
			t = ld_now_ms();
			export = true;
		}
	}
	/*
	 * the chains are complete: their index is built while the rest is
	 * read (ld_parse_proc() may have started it already)
	 */
	ld_index_chains_start(m);
	if (!(export && find_section(m, "lockdep/stats"))) {
		s = read_section(m, "lockdep_stats");
		if (s) {
			ret = ld_parse_proc_stats(m, s, d);
			if (ret)
				return ret;
			s->used = true;
			t = ld_phase(m, "lockdep_stats", t);
		}
	}
	s = read_section(m, "lock_stat");
	if (s) {
		ret = ld_parse_lock_stat(m, s, d);
		if (ret)
			return ret;
		s->used = true;
		ld_phase(m, "lock_stat", t);
	}
	return ld_model_finish(m, d);
}

static int finish_load(struct ld_model *m, struct ld_model **mp,
		       struct ld_diag *d)
{
	int ret = build(m, d);

	ld_big_pool_drain(); /* what this load gave back and did not reuse */
	ld_streams_close(m);
	if (ret) {
		if (ret == -ENOMEM && !d->msg[0])
			ld_diagf(d, "out of memory");
		ld_model_free(m);
		return ret;
	}
	*mp = m;
	return 0;
}

int ld_load_buffers(struct ld_model **mp, const struct ld_input *in,
		    unsigned int n, struct ld_diag *d)
{
	return ld_load_buffers_only(mp, in, n, LD_LOAD_ALL, d);
}

int ld_load_buffers_only(struct ld_model **mp, const struct ld_input *in,
			 unsigned int n, unsigned int what, struct ld_diag *d)
{
	struct ld_model *m = ld_model_new();
	unsigned int i;
	int ret;

	d->msg[0] = '\0';
	if (!m)
		return -ENOMEM;
	m->loaded = ld_load_what(what);
	for (i = 0; i < n; i++) {
		const char *origin = in[i].origin ? in[i].origin : in[i].name;

		if (wanted(m, in[i].name))
			ret = add_section_copy(m, in[i].name, origin,
					       in[i].data, in[i].len, 0);
		else
			ret = add_skipped(m, in[i].name, origin);
		if (ret) {
			ld_model_free(m);
			return ret;
		}
	}
	return finish_load(m, mp, d);
}

static char *read_release(const char *path)
{
	char *data, *nl;
	struct ld_diag d;
	size_t len;

	if (read_all(path, true, &data, &len, NULL, &d))
		return NULL;
	nl = memchr(data, '\n', len);
	if (nl)
		*nl = '\0';
	nl = strchr(data, '\r');	/* a copy made on another system */
	if (nl)
		*nl = '\0';
	/* "/proc/version": "Linux version 6.12.x (...) ..." */
	if (!strncmp(data, "Linux version ", 14)) {
		char *sp;

		memmove(data, data + 14, strlen(data + 14) + 1);
		sp = strchr(data, ' ');
		if (sp)
			*sp = '\0';
	}
	if (!*data) {
		free(data);
		return NULL;
	}
	return data;
}

static char *now_iso8601(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	char buf[32];

	/* reproducible builds convention: lets tests pin the time */
	if (sde && *sde)
		t = (time_t)strtoll(sde, NULL, 10);
	if (!gmtime_r(&t, &tm))
		return NULL;
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return strdup(buf);
}

/* First and last generation of an export file; false if malformed. */
static bool export_gens(const char *data, size_t len, uint64_t *g0,
			uint64_t *g1)
{
	const char *p, *end = data + len, *nl, *last;

	nl = memchr(data, '\n', len);
	if (!nl)
		return false;
	p = memmem(data, nl - data, " generation ", 12);
	if (!p)
		return false;
	p += 12;
	if (!ld_scan_u64(&p, nl, g0))
		return false;
	while (end > data && end[-1] == '\n')
		end--;
	last = end;
	while (last > data && last[-1] != '\n')
		last--;
	p = last;
	if (!ld_eat(&p, end, "# end generation "))
		return false;
	return ld_scan_u64(&p, end, g1) && p == end;
}

/* The big files, whose parsers read them as a stream (ld_lines_section) */
static bool streamed(const char *name)
{
	return !strcmp(name, "lockdep/traces") ||
	       !strcmp(name, "lockdep/deps") ||
	       !strcmp(name, "lockdep/chains") || !strcmp(name, "lockdep") ||
	       !strcmp(name, "lockdep_chains") || !strcmp(name, "lock_stat");
}

/*
 * Section @name, the regular file at @path kept open to be read as it is
 * parsed, if it is ld_stream_min bytes or more; -EAGAIN: a smaller one,
 * to be read whole.
 */
static int open_stream(struct ld_model *m, const char *name, const char *path,
		       struct ld_diag *d)
{
	struct ld_stream *st;
	struct stat sb;
	int fd, ret;

	fd = open_input(path, true, d);
	if (fd < 0)
		return fd;
	/* size 0 may be a file of /proc or debugfs copied as a link */
	if (fstat(fd, &sb) || !sb.st_size ||
	    (uint64_t)sb.st_size < ld_stream_min ||
	    (uint64_t)sb.st_size >= ld_max_file) {
		close(fd);
		return -EAGAIN;
	}
	st = calloc(1, sizeof(*st));
	if (st) {
		st->cap = ld_stream_buf > LD_STREAM_MIN_BUF ? ld_stream_buf :
							      LD_STREAM_MIN_BUF;
		st->buf = ld_stream_buf_alloc(st->cap);
	}
	if (!st || !st->buf) {
		if (st)
			free(st);
		close(fd);
		return -ENOMEM;
	}
	st->fd = fd;
	st->dev = sb.st_dev;
	st->ino = sb.st_ino;
	st->size = sb.st_size;
	st->mtime = sb.st_mtim;
	ret = add_section(m, name, path, NULL, sb.st_size, false, 0);
	if (ret) {
		ld_stream_buf_free(st->buf);
		free(st);
		close(fd);
		return ret;
	}
	m->sections[m->nr_sections - 1].stream = st;
	return 0;
}

/*
 * Read the file at @path as section @name if it is there; if the load does
 * not want it, or @superseded (a partial load that the export next to it
 * serves), only note that it is there.
 */
static int read_optional(struct ld_model *m, const char *name, const char *path,
			 bool superseded, struct ld_diag *d)
{
	struct stat st;
	char *data;
	size_t len;
	bool mapped;
	int ret;

	if (!wanted(m, name) || (superseded && m->loaded != LD_LOAD_ALL)) {
		/* not read, but the checks of build() see it is there */
		if (stat(path, &st))
			return 0;
		if (!S_ISREG(st.st_mode))	/* as read_all() would say */
			return ld_diagf(d, "%s: not a regular file", path);
		return add_skipped(m, name, path);
	}
	if (streamed(name)) {
		ret = open_stream(m, name, path, d);
		if (ret != -EAGAIN)
			goto out;
	}
	ret = read_all(path, true, &data, &len, &mapped, d);
	if (ret)
		goto out;
	ret = add_section(m, name, path, data, len, mapped, 0);
	if (ret)
		free_data(data, len, mapped);
out:
	if (ret == -ENOENT) {
		d->msg[0] = '\0';
		return 0;
	}
	return ret;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void drop_sections(struct ld_model *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_sections; i++) {
		free(m->sections[i].name);
		free(m->sections[i].origin);
		free(m->sections[i].path);
		ld_section_free_data(&m->sections[i]);
	}
	m->nr_sections = 0;
}

int ld_load_live(struct ld_model **mp, const char *root, int retries,
		 struct ld_diag *d)
{
	return ld_load_live_only(mp, root, retries, LD_LOAD_ALL, d);
}

int ld_load_live_only(struct ld_model **mp, const char *root, int retries,
		      unsigned int what, struct ld_diag *d)
{
	static const char *const proc[] = { "lockdep", "lockdep_chains",
					    "lockdep_stats", "lock_stat" };
	struct ld_model *m;
	char path[4096];
	int ret, i, try;

	d->msg[0] = '\0';
	if (!root)
		root = "";
	m = ld_model_new();
	if (!m)
		return -ENOMEM;
	m->loaded = ld_load_what(what);
	m->origin = strdup("live");
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", root);
	m->release = read_release(path);
	if (!m->release && !*root) {
		struct utsname u;

		if (!uname(&u))
			m->release = strdup(u.release);
	}
	m->captured = now_iso8601();

	snprintf(path, sizeof(path), "%s/sys/kernel/debug/lockdep/classes",
		 root);
	if (exists(path)) {
		for (try = 0; try <= retries; try++) {
			bool same = true, first = true;
			uint64_t gen = 0, g0, g1;

			drop_sections(m);
			for (i = 0; i < LD_EX_NR; i++) {
				char name[32];

				snprintf(name, sizeof(name), "lockdep/%s",
					 ld_export_files[i]);
				snprintf(path, sizeof(path),
					 "%s/sys/kernel/debug/lockdep/%s", root,
					 ld_export_files[i]);
				ret = read_optional(m, name, path, false, d);
				/*
				 * Not to be read (lockdown, permissions):
				 * /proc may be, with less in it
				 */
				if (ret == -EPERM || ret == -EACCES) {
					drop_sections(m);
					ret = ld_warn(m, "%s: not readable, reading /proc instead", d->msg);
					d->msg[0] = '\0';
					if (ret)
						goto fail;
					goto proc;
				}
				if (ret)
					goto fail;
			}
			for (i = 0; i < (int)m->nr_sections; i++) {
				struct ld_section *s = &m->sections[i];

				/*
				 * A streamed one is a regular file (debugfs
				 * and /proc say size 0), which no read
				 * again would change: its parser still
				 * checks its generations
				 */
				if (s->skipped || s->stream)
					continue;
				if (!export_gens(s->data, s->len, &g0, &g1) ||
				    g0 != g1 || (!first && g0 != gen))
					same = false;
				gen = g0;
				first = false;
			}
			if (same)
				break;
		}
		/* not in the export: lock_stat */
		snprintf(path, sizeof(path), "%s/proc/lock_stat", root);
		ret = read_optional(m, "lock_stat", path, false, d);
		if (ret)
			goto fail;
		return finish_load(m, mp, d);
	}

proc:
	for (i = 0; i < (int)ARRAY_SIZE(proc); i++) {
		snprintf(path, sizeof(path), "%s/proc/%s", root, proc[i]);
		ret = read_optional(m, proc[i], path, false, d);
		if (ret)
			goto fail;
	}
	if (!find_section(m, "lockdep")) {
		ld_diagf(d,
			 "%s/proc/lockdep: %s (kernel without CONFIG_LOCKDEP?)",
			 root, strerror(ENOENT));
		ret = -ENOENT;
		goto fail;
	}
	return finish_load(m, mp, d);
fail:
	if (ret == -EACCES)
		snprintf(d->msg + strlen(d->msg),
			 sizeof(d->msg) - strlen(d->msg),
			 " (lockdep files are readable by root only)");
	ld_model_free(m);
	return ret;
}

static int load_dir(struct ld_model *m, const char *dir, struct ld_diag *d)
{
	char path[8192], exdir[4096];
	bool ex_classes, ex_stats;
	int i, ret;

	if (strlen(dir) > 4000)
		return ld_diagf(d, "%.40s...: %s", dir, strerror(ENAMETOOLONG));

	/* the debugfs directory copied as DIR/lockdep/, or DIR itself */
	snprintf(exdir, sizeof(exdir), "%s/lockdep", dir);
	if (!is_dir(exdir))
		snprintf(exdir, sizeof(exdir), "%s", dir);
	/* where build() takes the graph and the counters from the export */
	snprintf(path, sizeof(path), "%s/classes", exdir);
	ex_classes = exists(path);
	snprintf(path, sizeof(path), "%s/stats", exdir);
	ex_stats = ex_classes && exists(path);
	for (i = 0; i < 4; i++) {
		bool superseded = (i < 2 && ex_classes) || (i == 2 && ex_stats);

		snprintf(path, sizeof(path), "%s/%s", dir, known_sections[i]);
		if (!i && is_dir(path))
			continue; /* "lockdep" may be the debugfs copy */
		ret = read_optional(m, known_sections[i], path, superseded, d);
		if (ret)
			return ret;
	}
	for (i = 0; i < LD_EX_NR; i++) {
		snprintf(path, sizeof(path), "%s/%s", exdir,
			 ld_export_files[i]);
		ret = read_optional(m, known_sections[4 + i], path, false, d);
		if (ret)
			return ret;
	}
	if (!m->nr_sections)
		return ld_diagf(
			d,
			"%s: no lockdep files in this directory (expected lockdep, lockdep_chains, lockdep_stats, lock_stat or the debugfs files)",
			dir);
	snprintf(path, sizeof(path), "%s/osrelease", dir);
	m->release = read_release(path);
	if (!m->release) {
		snprintf(path, sizeof(path), "%s/version", dir);
		m->release = read_release(path);
	}
	return 0;
}

/* A lone copied file: recognise it by its first line. */
static const char *sniff(const char *data, size_t len)
{
	static const struct {
		const char *prefix, *name;
	} kinds[] = {
		{ "all lock classes:", "lockdep" },
		{ "all lock chains:", "lockdep_chains" },
		{ "(buggered) all lock chains:", "lockdep_chains" },
		{ "lock_stat version", "lock_stat" },
		{ " lock-classes:", "lockdep_stats" },
		{ "# lockdep classes ", "lockdep/classes" },
		{ "# lockdep stats ", "lockdep/stats" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (len >= n && !memcmp(data, kinds[i].prefix, n))
			return kinds[i].name;
	}
	return NULL;
}

/*
 * The file name in the header of a debugfs export file ("# lockdep <file>
 * <version> generation <G>"), its length in *@n; NULL if @data does not
 * start with one.  sniff() takes the files that can be read alone
 * (classes, stats); this names the others for the error.
 */
static const char *export_file_name(const char *data, size_t len, size_t *n)
{
	const char *p = data, *end = memchr(data, '\n', len), *name;
	uint64_t v;

	if (!end)
		end = data + len;
	if (!ld_eat(&p, end, "# lockdep "))
		return NULL;
	name = p;
	while (p < end && ((*p >= 'a' && *p <= 'z') || *p == '_'))
		p++;
	*n = p - name;
	if (!*n || !ld_eat(&p, end, " ") || !ld_scan_u64(&p, end, &v) ||
	    !ld_eat(&p, end, " generation "))
		return NULL;
	return name;
}

/*
 * [@s, @s + @n) as one shell word into @buf: as it is when it holds none
 * of the shell's special characters, else in single quotes (' as '\'').
 * False when it holds a control character (no word to copy from a
 * terminal) or does not fit.
 */
static bool shell_word(const char *s, size_t n, char *buf, size_t size)
{
	static const char plain[] = "-_./,:@%+=";
	bool quote = !n;
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c < 0x20 || c == 0x7f)
			return false;
		if (!isalnum(c) && c < 0x80 && !strchr(plain, c))
			quote = true;
	}
	if (quote)
		buf[o++] = '\'';
	for (i = 0; i < n; i++) {
		if (o + 6 >= size)
			return false;
		if (s[i] == '\'' && quote) {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = s[i];
		}
	}
	if (quote)
		buf[o++] = '\'';
	buf[o] = '\0';
	return true;
}

/* @path is one export file: say so, and what to give instead. */
static int lone_export_file(const char *path, const char *name, size_t n,
			    struct ld_diag *d)
{
	char word[256];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	int dl = slash ? (int)(slash - path) : 0;
	char full[64];
	bool known = false;
	size_t i;

	snprintf(full, sizeof(full), "lockdep/%.*s", (int)n, name);
	for (i = 0; i < ARRAY_SIZE(known_sections); i++)
		known |= !strcmp(full, known_sections[i]);
	while (dl > 1 && path[dl - 1] == '/') /* "lockdep//deps" */
		dl--;
	/*
	 * Its directory only where the directory form would find it: under
	 * its kernel name, and a name this reader knows; not a pipe
	 * (/dev/fd/N) or /proc
	 */
	if (!known || strlen(base) != n || memcmp(base, name, n) ||
	    !strncmp(path, "/dev/", 5) || !strncmp(path, "/proc/", 6))
		return ld_diagf(
			d,
			"%s:1: '%.*s' is %s and is not read alone: give the directory holding a copy of all of /sys/kernel/debug/lockdep/ instead",
			path, (int)n, name,
			known ? "one file of the debugfs export" :
				"a file of a newer kernel's debugfs export, not known to this reader,");
#define LONE_FMT \
	"%s:1: '%.*s' is one file of the debugfs export and is not read alone: give its directory instead"
	/* the hint whole or not at all: a word cut short would mislead */
	if (!shell_word(!slash ? "." : path, dl ? dl : 1, word, sizeof(word)) ||
	    snprintf(NULL, 0, LONE_FMT " (-s %s)", path, (int)n, name, word) >=
		    (int)sizeof(d->msg))
		return ld_diagf(d, LONE_FMT, path, (int)n, name);
	return ld_diagf(d, LONE_FMT " (-s %s)", path, (int)n, name, word);
#undef LONE_FMT
}

/* The version of a snapshot file, 0 if @data is not one. */
static uint64_t snap_version(const char *data, size_t len)
{
	const char *p = data, *end = data + len, *nl;
	uint64_t v;

	nl = memchr(data, '\n', len);
	if (nl)
		end = nl;
	if (!ld_eat(&p, end, SNAP_MAGIC) || !ld_scan_u64(&p, end, &v))
		return 0;
	return v;
}

static int snapshot_parse_at(struct ld_model *m, const char *origin,
			     unsigned long base, const char *data, size_t len,
			     struct ld_diag *d);

/*
 * The parts of a version-2 file into @in[*n ..], each loaded as a model.
 * On error none is left behind.
 */
static int union_parse(const char *origin, const char *data, size_t len,
		       struct ld_model **in, uint32_t *n, uint32_t max,
		       struct ld_diag *d)
{
	struct ld_lines l;
	const char *line, *p, *end;
	size_t ln;
	uint64_t nparts, size, k;
	uint32_t first = *n;
	char q[LD_QBUF];
	int ret = 0;

	ld_lines_init(&l, origin, 0, data, len);
	/* the magic, which the caller read: as in version 1, nothing after */
	if (!ld_lines_next(&l, &line, &ln))
		return ld_diag(d, &l, "empty file");
	if (ln != strlen(SNAP_MAGIC) + 1)
		return ld_diag(d, &l, "expected '%s%d', got '%s'", SNAP_MAGIC,
			       LD_SNAPSHOT_UNION_VERSION,
			       ld_quote(line, ln, q, sizeof(q)));
	if (!ld_lines_next(&l, &line, &ln))
		return ld_diag(d, &l, "file ends in the header");
	p = line;
	end = line + ln;
	if (!ld_eat(&p, end, "union ") || !ld_scan_u64(&p, end, &nparts) ||
	    p != end || nparts < 2 || nparts > LD_MERGE_MAX)
		return ld_diag(d, &l,
			       "expected 'union N' with N from 2 to %d, got '%s'",
			       LD_MERGE_MAX, ld_quote(line, ln, q, sizeof(q)));
	for (k = 1; k <= nparts; k++) {
		struct ld_model *m;
		const char *body;

		if (!ld_lines_next(&l, &line, &ln) || l.last_unterminated) {
			ret = ld_diag(d, &l,
				      "part %llu of %llu missing: file cut short",
				      (unsigned long long)k,
				      (unsigned long long)nparts);
			goto fail;
		}
		p = line;
		end = line + ln;
		if (!ld_eat(&p, end, "part ") || !ld_scan_u64(&p, end, &size) ||
		    p != end) {
			ret = ld_diag(d, &l, "expected 'part SIZE', got '%s'",
				      ld_quote(line, ln, q, sizeof(q)));
			goto fail;
		}
		body = l.p;
		if (size > (uint64_t)(l.end - body) ||
		    (uint64_t)(l.end - body) - size < 1 || body[size] != '\n') {
			ret = ld_diag(
				d, &l,
				"part %llu is not %llu bytes long followed by a newline (file cut short or edited?)",
				(unsigned long long)k,
				(unsigned long long)size);
			goto fail;
		}
		if (snap_version(body, size) != LD_SNAPSHOT_VERSION) {
			l.lineno++;
			ret = ld_diag(d, &l, "part %llu is not a version %d snapshot",
				      (unsigned long long)k,
				      LD_SNAPSHOT_VERSION);
			goto fail;
		}
		if (*n >= max) {
			ret = ld_diag(d, &l,
				      "at most %u snapshots can be merged", max);
			goto fail;
		}
		m = ld_model_new();
		if (!m) {
			ret = -ENOMEM;
			goto fail;
		}
		ret = snapshot_parse_at(m, origin, l.base + l.lineno, body,
					size, d);
		if (ret) {
			ld_model_free(m);
			goto fail;
		}
		ret = finish_load(m, &in[*n], d);
		if (ret)
			goto fail;
		(*n)++;
		for (p = body; p < body + size; p++)
			if (*p == '\n')
				l.lineno++;
		l.p = body + size + 1;
		l.lineno++;
	}
	if (!ld_lines_next(&l, &line, &ln) || ln != 3 ||
	    memcmp(line, "end", 3)) {
		ret = ld_diag(d, &l, "expected 'end' after part %llu",
			      (unsigned long long)nparts);
		goto fail;
	}
	if (l.last_unterminated) {
		ret = ld_diag(d, &l, "missing newline after 'end': file cut short");
		goto fail;
	}
	if (l.p != l.end) {
		ret = ld_diag(d, &l, "data after the 'end' line");
		goto fail;
	}
	return 0;
fail:
	while (*n > first)
		ld_model_free(in[--*n]);
	return ret;
}

/* A version-2 file as one model: its parts merged. */
static int load_union(struct ld_model **mp, const char *origin,
		      const char *data, size_t len, struct ld_diag *d)
{
	struct ld_model *in[LD_MERGE_MAX];
	uint32_t n = 0;
	int ret = union_parse(origin, data, len, in, &n, LD_MERGE_MAX, d);

	if (ret)
		return ret;
	ret = ld_merge_keep(mp, in, n, origin, d);
	if (!ret)
		(*mp)->from_snapshot_file = true;
	return ret;
}

/*
 * A file given alone, read once (it may be a pipe), not a union: a
 * snapshot file or a copied lockdep file.  Takes the data.
 */
static int load_file(struct ld_model **mp, const char *path, char *data,
		     size_t len, bool mapped, unsigned int what,
		     struct ld_diag *d)
{
	struct ld_model *m = ld_model_new();
	const char *kind, *ename;
	size_t elen;
	int ret;

	if (!m) {
		free_data(data, len, mapped);
		return -ENOMEM;
	}
	m->loaded = ld_load_what(what);
	if (len >= strlen(SNAP_MAGIC) &&
	    !memcmp(data, SNAP_MAGIC, strlen(SNAP_MAGIC))) {
		ret = ld_snapshot_parse(m, path, data, len, d);
		free_data(data, len, mapped);
		if (ret) {
			ld_model_free(m);
			return ret;
		}
		return finish_load(m, mp, d);
	}
	kind = sniff(data, len);
	if (!kind && (ename = export_file_name(data, len, &elen))) {
		ret = lone_export_file(path, ename, elen, d);
		free_data(data, len, mapped);
		ld_model_free(m);
		return ret;
	}
	if (!kind) {
		free_data(data, len, mapped);
		ld_model_free(m);
		return ld_diagf(
			d,
			"%s:1: not a snapshot file, a snapshot directory or a lockdep file",
			path);
	}
	m->origin = strdup(path);
	if (!wanted(m, kind)) {
		free_data(data, len, mapped);
		ret = add_skipped(m, kind, path);
		if (ret) {
			ld_model_free(m);
			return ret;
		}
		return finish_load(m, mp, d);
	}
	ret = add_section(m, kind, path, data, len, mapped, 0);
	if (ret) {
		free_data(data, len, mapped);
		ld_model_free(m);
		return ret;
	}
	return finish_load(m, mp, d);
}

int ld_load_parts(const char *path, struct ld_model **in, uint32_t *n,
		  uint32_t max, struct ld_diag *d)
{
	char *data;
	size_t len;
	bool mapped;
	int ret;

	d->msg[0] = '\0';
	if (*n >= max)
		return ld_diagf(d, "at most %u snapshots can be merged", max);
	if (is_dir(path)) {
		ret = ld_load_path(&in[*n], path, d);
	} else {
		ret = read_all(path, false, &data, &len, &mapped, d);
		if (ret)
			return ret;
		if (snap_version(data, len) == LD_SNAPSHOT_UNION_VERSION) {
			ret = union_parse(path, data, len, in, n, max, d);
			free_data(data, len, mapped);
			return ret;
		}
		ret = load_file(&in[*n], path, data, len, mapped,
				LD_LOAD_ALL, d);
	}
	if (!ret)
		(*n)++;
	return ret;
}

int ld_load_path(struct ld_model **mp, const char *path, struct ld_diag *d)
{
	return ld_load_path_only(mp, path, LD_LOAD_ALL, d);
}

int ld_load_path_only(struct ld_model **mp, const char *path,
		      unsigned int what, struct ld_diag *d)
{
	struct ld_model *m;
	char *data;
	size_t len;
	bool mapped;
	int ret;

	d->msg[0] = '\0';
	if (is_dir(path)) {
		m = ld_model_new();
		if (!m)
			return -ENOMEM;
		m->loaded = ld_load_what(what);
		m->origin = strdup(path);
		ret = load_dir(m, path, d);
		if (ret) {
			ld_model_free(m);
			return ret;
		}
		return finish_load(m, mp, d);
	}
	ret = read_all(path, false, &data, &len, &mapped, d);
	if (ret)
		return ret;
	if (snap_version(data, len) == LD_SNAPSHOT_UNION_VERSION) {
		ret = load_union(mp, path, data, len, d);
		free_data(data, len, mapped);
		return ret;
	}
	return load_file(mp, path, data, len, mapped, what, d);
}

int ld_load_snapshot_buf(struct ld_model **mp, const char *origin,
			 const char *data, size_t len, struct ld_diag *d)
{
	struct ld_model *m = ld_model_new();
	int ret;

	d->msg[0] = '\0';
	if (!m)
		return -ENOMEM;
	if (snap_version(data, len) == LD_SNAPSHOT_UNION_VERSION) {
		ld_model_free(m);
		return load_union(mp, origin, data, len, d);
	}
	ret = ld_snapshot_parse(m, origin, data, len, d);
	if (ret) {
		ld_model_free(m);
		return ret;
	}
	return finish_load(m, mp, d);
}

/* "key value" header line; value "-" means unknown. */
static int header_value(struct ld_model *m, struct ld_lines *l,
			const char *line, size_t len, const char *key,
			char **out, struct ld_diag *d)
{
	size_t kl = strlen(key);
	struct ld_str v;
	char q[LD_QBUF];

	if (len < kl + 1 || memcmp(line, key, kl) || line[kl] != ' ')
		return ld_diag(d, l, "expected '%s ...', got '%s'", key,
			       ld_quote(line, len, q, sizeof(q)));
	line += kl + 1;
	len -= kl + 1;
	if (len == 1 && line[0] == '-')
		return 0;
	if (ld_unescape(m->arena, line, len, &v) || memchr(v.s, 0, v.len))
		return ld_diag(d, l, "bad escape in '%s' value", key);
	*out = strdup(v.s);
	return *out ? 0 : -ENOMEM;
}

static unsigned int digits(const char *s, int n)
{
	unsigned int v = 0;

	while (n--)
		v = v * 10 + (*s++ - '0');
	return v;
}

/* "YYYY-MM-DDTHH:MM:SSZ", as save writes it, naming a real moment */
static bool valid_utc(const char *s)
{
	static const char form[] = "dddd-dd-ddTdd:dd:ddZ";
	static const unsigned char mdays[12] = { 31, 29, 31, 30, 31, 30,
						 31, 31, 30, 31, 30, 31 };
	unsigned int y, mo, dd;
	int i;

	if (strlen(s) != sizeof(form) - 1)
		return false;
	for (i = 0; form[i]; i++)
		if (form[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != form[i])
			return false;
	y = digits(s, 4);
	mo = digits(s + 5, 2);
	dd = digits(s + 8, 2);
	if (mo < 1 || mo > 12 || dd < 1 || dd > mdays[mo - 1] ||
	    digits(s + 11, 2) > 23 || digits(s + 14, 2) > 59 ||
	    digits(s + 17, 2) > 60)
		return false;
	/* 29 February only in a leap year */
	return !(mo == 2 && dd == 29 && (y % 4 || (y % 100 == 0 && y % 400)));
}

int ld_snapshot_parse(struct ld_model *m, const char *origin, const char *data,
		      size_t len, struct ld_diag *d)
{
	return snapshot_parse_at(m, origin, 0, data, len, d);
}

static int snapshot_parse_at(struct ld_model *m, const char *origin,
			     unsigned long base, const char *data, size_t len,
			     struct ld_diag *d)
{
	struct ld_lines l;
	const char *line, *p, *end;
	size_t n;
	uint64_t ver;
	char q[LD_QBUF];
	int ret;

	m->from_snapshot_file = true;
	ld_lines_init(&l, origin, base, data, len);
	if (!ld_lines_next(&l, &line, &n))
		return ld_diag(d, &l, "empty file");
	p = line;
	end = line + n;
	if (!ld_eat(&p, end, SNAP_MAGIC) || !ld_scan_u64(&p, end, &ver) ||
	    p != end)
		return ld_diag(d, &l, "expected '%s%d'", SNAP_MAGIC,
			       LD_SNAPSHOT_VERSION);
	if (ver != LD_SNAPSHOT_VERSION)
		return ld_diag(
			d, &l,
			"unsupported snapshot version %llu (this tool reads %d and %d)",
			(unsigned long long)ver, LD_SNAPSHOT_VERSION,
			LD_SNAPSHOT_UNION_VERSION);
	/* one way to write it, as save does ("01" is not "1") */
	if (n != strlen(SNAP_MAGIC) + 1)
		return ld_diag(d, &l, "expected '%s%d', got '%s'", SNAP_MAGIC,
			       LD_SNAPSHOT_VERSION, ld_quote(line, n, q, sizeof(q)));
	if (!ld_lines_next(&l, &line, &n))
		return ld_diag(d, &l, "file ends in the header");
	ret = header_value(m, &l, line, n, "release", &m->release, d);
	if (ret)
		return ret;
	if (!ld_lines_next(&l, &line, &n))
		return ld_diag(d, &l, "file ends in the header");
	ret = header_value(m, &l, line, n, "captured", &m->captured, d);
	if (ret)
		return ret;
	if (m->captured && !valid_utc(m->captured))
		return ld_diag(d, &l,
			       "captured: expected a UTC time YYYY-MM-DDTHH:MM:SSZ or '-', got '%s'",
			       ld_quote(m->captured, strlen(m->captured), q,
					sizeof(q)));
	if (!ld_lines_next(&l, &line, &n))
		return ld_diag(d, &l, "file ends in the header");
	ret = header_value(m, &l, line, n, "origin", &m->origin, d);
	if (ret)
		return ret;

	for (;;) {
		const char *name, *sp, *body;
		unsigned long start;
		struct ld_str org;
		uint64_t size;
		char nbuf[64];
		unsigned int i;

		if (!ld_lines_next(&l, &line, &n) || l.last_unterminated)
			return ld_diag(d, &l,
				       "missing 'end' line: file cut short");
		if (n == 3 && !memcmp(line, "end", 3)) {
			if (l.p != l.end)
				return ld_diag(d, &l,
					       "data after the 'end' line");
			break;
		}
		p = line;
		end = line + n;
		if (!ld_eat(&p, end, "section "))
			return ld_diag(
				d, &l,
				"expected 'section NAME SIZE PATH' or 'end', got '%s'",
				ld_quote(line, n, q, sizeof(q)));
		name = p;
		sp = memchr(p, ' ', end - p);
		if (!sp || sp == name || sp - name >= (long)sizeof(nbuf))
			return ld_diag(d, &l, "bad section name");
		memcpy(nbuf, name, sp - name);
		nbuf[sp - name] = '\0';
		p = sp + 1;
		if (!ld_scan_u64(&p, end, &size) || !ld_eat(&p, end, " "))
			return ld_diag(d, &l, "bad section size");
		if (ld_unescape(m->arena, p, end - p, &org) ||
		    memchr(org.s, 0, org.len))
			return ld_diag(d, &l, "bad escape in section path");
		if (find_section(m, nbuf))
			return ld_diag(d, &l, "section '%s' appears twice",
				       ld_quote(nbuf, strlen(nbuf), q,
						sizeof(q)));
		body = l.p;
		if (size > (uint64_t)(l.end - body) ||
		    (uint64_t)(l.end - body) - size < 1 || body[size] != '\n')
			return ld_diag(
				d, &l,
				"section '%s' is not %llu bytes long followed by a newline (file cut short or edited?)",
				ld_quote(nbuf, strlen(nbuf), q, sizeof(q)),
				(unsigned long long)size);
		start = l.base + l.lineno;
		if (wanted(m, nbuf))
			ret = add_section_copy(m, nbuf, origin, body, size,
					       start);
		else
			ret = add_skipped(m, nbuf, origin);
		if (ret)
			return ret;
		/* diagnostics point into this file; save keeps the path */
		free(m->sections[m->nr_sections - 1].path);
		m->sections[m->nr_sections - 1].path = strdup(org.s);
		if (!m->sections[m->nr_sections - 1].path)
			return -ENOMEM;
		for (i = 0; i < ARRAY_SIZE(known_sections); i++)
			if (!strcmp(nbuf, known_sections[i]))
				break;
		if (i == ARRAY_SIZE(known_sections))
			ld_warn(m,
				"%s:%lu: section '%s' not understood by this version, kept for save",
				origin, start, nbuf);
		/* skip the body and its newline, counting lines */
		for (p = body; p < body + size; p++)
			if (*p == '\n')
				l.lineno++;
		l.p = body + size + 1;
		l.lineno++;
	}
	return 0;
}

/* Escape a header value: backslash, and anything not printable ASCII. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = *s;

		n += c == '\\' ? 2 : (c < 0x20 || c >= 0x7f) ? 4 : 1;
	}
	return n;
}

/*
 * A streamed section's file opened again, to be copied by save: still
 * the same file (device, inode), as long and as old as when it was
 * parsed; a copy rewritten, replaced or moved since is refused.
 */
static int reopen_stream(const struct ld_section *s, struct ld_diag *d)
{
	const struct ld_stream *st = s->stream;
	struct stat sb;
	int fd;

	fd = open_input(s->path, true, d);
	if (fd < 0)
		return fd;
	if (fstat(fd, &sb) ||
	    (uint64_t)sb.st_dev != st->dev || (uint64_t)sb.st_ino != st->ino ||
	    (uint64_t)sb.st_size != st->size ||
	    sb.st_mtim.tv_sec != st->mtime.tv_sec ||
	    sb.st_mtim.tv_nsec != st->mtime.tv_nsec) {
		close(fd);
		ld_diagf(d, "%s: changed since it was loaded", s->path);
		return -ESTALE;
	}
	return fd;
}

static int check_stream(const struct ld_section *s, struct ld_diag *d)
{
	int fd;

	if (!s->stream)
		return 0;
	fd = reopen_stream(s, d);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* The @len bytes of a streamed section; <0 when they cannot be had. */
static int copy_stream(FILE *f, const struct ld_section *s)
{
	uint64_t off = 0;
	struct ld_diag d;
	char buf[65536];
	ssize_t r;
	int fd = reopen_stream(s, &d);

	if (fd < 0)
		return fd;
	while (off < s->len) {
		size_t n = s->len - off < sizeof(buf) ? s->len - off :
							sizeof(buf);

		r = pread(fd, buf, n, off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			return r < 0 ? -errno : -ESTALE;
		}
		fwrite(buf, 1, r, f);
		off += r;
	}
	close(fd);
	return 0;
}

/* A version-1 snapshot of these files; returns its size in bytes. */
static size_t save_one(FILE *f, const char *release, const char *captured,
		       const char *origin, const struct ld_section *sec,
		       uint32_t nr, bool write, const char **failed)
{
	char head[64];
	size_t n = 0, h;
	uint32_t i;

	h = snprintf(head, sizeof(head), "%s%d\n", SNAP_MAGIC,
		     LD_SNAPSHOT_VERSION);
	n += h + escaped_len(release ? release : "-") + 9 +
	     escaped_len(captured ? captured : "-") + 10 +
	     escaped_len(origin ? origin : "-") + 8;
	if (write) {
		fputs(head, f);
		fputs("release ", f);
		put_escaped(f, release ? release : "-");
		fputs("\ncaptured ", f);
		put_escaped(f, captured ? captured : "-");
		fputs("\norigin ", f);
		put_escaped(f, origin ? origin : "-");
		fputc('\n', f);
	}
	for (i = 0; i < nr; i++) {
		const struct ld_section *s = &sec[i];

		h = snprintf(head, sizeof(head), "%zu ", s->len);
		n += 8 + strlen(s->name) + 1 + h + escaped_len(s->path) + 1 +
		     s->len + 1;
		if (!write)
			continue;
		fprintf(f, "section %s %s", s->name, head);
		put_escaped(f, s->path);
		fputc('\n', f);
		if (!s->stream)
			fwrite(s->data, 1, s->len, f);
		else if (copy_stream(f, s) && !*failed)
			*failed = s->origin;
		fputc('\n', f);
	}
	if (write)
		fputs("end\n", f);
	return n + 4;
}

int ld_save(const struct ld_model *m, FILE *f, struct ld_diag *d)
{
	const char *failed = NULL;
	uint32_t i, j;
	int ret;

	if (m->loaded != LD_LOAD_ALL)	/* it would not hold the source */
		return ld_diagf(d, "cannot save a load of part of the data");
	for (i = 0; i < m->nr_sections; i++) {
		ret = check_stream(&m->sections[i], d);
		if (ret)
			return ret;
	}
	for (i = 0; i < m->nr_parts; i++) {
		for (j = 0; j < m->parts[i].nr_sections; j++) {
			ret = check_stream(&m->parts[i].sections[j], d);
			if (ret)
				return ret;
		}
	}
	if (!m->nr_parts) {
		save_one(f, m->release, m->captured, m->origin, m->sections,
			 m->nr_sections, true, &failed);
	} else {
		fprintf(f, "%s%d\nunion %u\n", SNAP_MAGIC,
			LD_SNAPSHOT_UNION_VERSION, m->nr_parts);
		for (i = 0; i < m->nr_parts; i++) {
			const struct ld_part *p = &m->parts[i];

			fprintf(f, "part %zu\n",
				save_one(f, p->release, p->captured, p->origin,
					 p->sections, p->nr_sections, false,
					 &failed));
			save_one(f, p->release, p->captured, p->origin,
				 p->sections, p->nr_sections, true, &failed);
			fputc('\n', f);
		}
		fputs("end\n", f);
	}
	if (failed) {
		ld_diagf(d, "%s: changed while it was copied", failed);
		return -ESTALE;
	}
	if (fflush(f) || ferror(f)) {
		int err = errno ? errno : EIO;

		ld_diagf(d, "write error: %s", strerror(err));
		return -err;
	}
	return 0;
}
