// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - arena, line iteration, number scanning, escapes and diagnostics
 * for the parsers.  Nothing here prints.
 */
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ld_internal.h"

#define ARENA_CHUNK (256 * 1024)
#define ARENA_BIG ((size_t)2 << 20)

#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

/*
 * Fault in [p, p + len) with one system call: a large array is about to
 * be written from end to end, and taking its page faults one at a time
 * costs more than everything else a load does (10 us each on a virtual
 * machine; 8000 of them for a full-capacity graph).  Only a hint: older
 * kernels say EINVAL, and the pages then fault as they are touched.
 */
void ld_populate(void *p, size_t len)
{
	uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t e = ((uintptr_t)p + len) & ~(uintptr_t)4095;

	if (len >= LD_POPULATE_MIN && e > a)
		madvise((void *)a, e - a, MADV_POPULATE_WRITE);
}

/*
 * Big blocks handed back during a load (ld_free_big()), whole, for the
 * next ld_alloc_big() they can hold: their pages are faulted in already.
 * A fresh 2 MiB page costs 0.1-0.3 ms to clear, and 1.4-2.7 ms once the
 * host has taken it back after a few idle seconds.  Each block stays a
 * block of malloc()'s, which free() takes back whoever ends up with it.
 */
#define LD_BIG_POOL 4
static struct {
	void *p;
	size_t size;
} big_pool[LD_BIG_POOL];
static pthread_mutex_t big_pool_lock = PTHREAD_MUTEX_INITIALIZER;

#define LD_HUGE ((size_t)2 << 20)

/*
 * The pooled block that holds @size bytes with the least to spare; not
 * one of more than twice that, whose pages the array would keep
 */
static void *big_pool_take(size_t size)
{
	void *p = NULL;
	int i, best = -1;

	pthread_mutex_lock(&big_pool_lock);
	for (i = 0; i < LD_BIG_POOL; i++)
		if (big_pool[i].p && big_pool[i].size >= size &&
		    big_pool[i].size / 2 <= size &&
		    (best < 0 || big_pool[i].size < big_pool[best].size))
			best = i;
	if (best >= 0) {
		p = big_pool[best].p;
		big_pool[best].p = NULL;
	}
	pthread_mutex_unlock(&big_pool_lock);
	return p;
}

/*
 * A large array: 2 MiB aligned and asking for transparent huge pages
 * (THP "madvise" mode is the distributions' default).  On these virtual
 * machines a 4 KiB page costs some microseconds the first time it is
 * touched even after MADV_POPULATE_WRITE (the host maps it then), so a
 * full-capacity model's 30 MiB took longer to touch than to parse; in
 * 2 MiB pages it is two orders of magnitude less.  Freed with free(), or
 * given back for reuse with ld_free_big().
 */
void *ld_alloc_big(size_t size)
{
	void *p;

	if (size < LD_BIG)
		return malloc(size);
	/*
	 * Whole huge pages: a 2 MiB page is used only where the mapping
	 * covers all of it, and the tail of an array is touched as well
	 */
	size = (size + LD_HUGE - 1) & ~(LD_HUGE - 1);
	p = big_pool_take(size);
	if (p)
		return p;
	if (posix_memalign(&p, LD_HUGE, size))
		return NULL;
	/* a hint: EINVAL without THP, and then 4 KiB pages it is */
	madvise(p, size, MADV_HUGEPAGE);
	return p;
}

void ld_free_big(void *p, size_t size)
{
	size_t whole = (size + LD_HUGE - 1) & ~(LD_HUGE - 1);
	int i;

	/* only what ld_alloc_big() made so (a wrong @size: simply freed) */
	if (p && size >= LD_BIG && !((uintptr_t)p & (LD_HUGE - 1)) &&
	    malloc_usable_size(p) >= whole) {
		pthread_mutex_lock(&big_pool_lock);
		for (i = 0; i < LD_BIG_POOL && big_pool[i].p; i++)
			;
		if (i < LD_BIG_POOL) {
			big_pool[i].p = p;
			big_pool[i].size = whole;
			p = NULL;
		}
		pthread_mutex_unlock(&big_pool_lock);
	}
	free(p);
}

void ld_big_pool_drain(void)
{
	int i;

	pthread_mutex_lock(&big_pool_lock);
	for (i = 0; i < LD_BIG_POOL; i++) {
		free(big_pool[i].p);
		big_pool[i].p = NULL;
	}
	pthread_mutex_unlock(&big_pool_lock);
}

/*
 * Stream buffers (LD_STREAM_BUF bytes) are carved from one huge
 * page: a load has half a dozen alive at once, and each in pages of its
 * own took 64 first touches, more than the reads into it.  Any other
 * size, or a ninth at once, comes from malloc().
 */
#define LD_STREAM_SLOTS 8
#define LD_STREAM_SLOT LD_STREAM_BUF
static pthread_mutex_t stream_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static char *stream_pool; /* never freed: one per process */
static unsigned int stream_pool_used; /* a bit per slot */

char *ld_stream_buf_alloc(size_t cap)
{
	char *p = NULL;
	int i;

	if (cap > LD_STREAM_SLOT)
		return malloc(cap);
	pthread_mutex_lock(&stream_pool_lock);
	if (!stream_pool)
		stream_pool = ld_alloc_big(LD_STREAM_SLOTS * LD_STREAM_SLOT);
	for (i = 0; stream_pool && i < LD_STREAM_SLOTS; i++) {
		if (!(stream_pool_used & 1u << i)) {
			stream_pool_used |= 1u << i;
			p = stream_pool + i * LD_STREAM_SLOT;
			break;
		}
	}
	pthread_mutex_unlock(&stream_pool_lock);
	return p ? p : malloc(cap);
}

void ld_stream_buf_free(char *buf)
{
	/* compared as integers: @buf may be another object */
	uintptr_t off;

	pthread_mutex_lock(&stream_pool_lock);
	off = (uintptr_t)buf - (uintptr_t)stream_pool;
	if (buf && stream_pool && off < LD_STREAM_SLOTS * LD_STREAM_SLOT) {
		stream_pool_used &= ~(1u << (off / LD_STREAM_SLOT));
		buf = NULL;
	}
	pthread_mutex_unlock(&stream_pool_lock);
	free(buf);
}

struct ld_arena *ld_arena_new(void)
{
	return calloc(1, sizeof(struct ld_arena));
}

void ld_arena_free(struct ld_arena *a)
{
	struct ld_arena_chunk *c, *n;

	if (!a)
		return;
	for (c = a->head; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
}

/* ld_arena_alloc() when the current chunk is full: a new one */
void *ld_arena_alloc_slow(struct ld_arena *a, size_t size)
{
	/* past 512 KiB, a big load's (streamed symbols): 2 MiB pages */
	size_t chunk = a->total + a->expect >= ARENA_BIG / 4 ?
			       ARENA_BIG - sizeof(struct ld_arena_chunk) :
			       ARENA_CHUNK;
	size_t csize = size > chunk ? size : chunk;
	struct ld_arena_chunk *c;

	/* a small load's chunks: small pages, not 2 MiB for 256 KiB */
	c = csize == ARENA_CHUNK ? malloc(sizeof(*c) + csize) :
				   ld_alloc_big(sizeof(*c) + csize);
	if (!c)
		return NULL;
	a->total += csize;
	ld_populate(c->data, csize);
	c->size = csize;
	c->used = size;
	c->next = a->head;
	a->head = c;
	return c->data;
}

struct ld_str ld_arena_str(struct ld_arena *a, const char *s, size_t len)
{
	struct ld_str r = { NULL, 0 };
	char *p;

	if (len > UINT32_MAX - 1)
		return r;
	p = ld_arena_alloc(a, len + 1);
	if (!p)
		return r;
	memcpy(p, s, len);
	p[len] = '\0';
	r.s = p;
	r.len = len;
	return r;
}

bool ld_fast_paths = true;
bool ld_parallel = true;

struct thread_start {
	void *(*fn)(void *);
	void *arg;
	cpu_set_t mask; /* to give back, once running */
	bool pinned;
};

static void *thread_trampoline(void *p)
{
	struct thread_start s = *(struct thread_start *)p;

	free(p);
	if (s.pinned) /* a hint: where it runs now, it may stay */
		pthread_setaffinity_np(pthread_self(), sizeof(s.mask), &s.mask);
	return s.fn(s.arg);
}

/*
 * pthread_create(), for a thread that works beside this one from its
 * first moment: started on another CPU than this thread's.  Left to
 * itself, the scheduler may start it on this CPU (seen in virtual
 * machines of 2 CPUs: about half of the loads), and the two then share
 * one CPU for a time slice, 4 ms, while the other idles; a full-capacity
 * load takes 25 ms.  Once it runs, the thread may go anywhere again.
 */
int ld_thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
	struct thread_start *s = malloc(sizeof(*s));
	pthread_attr_t attr;
	cpu_set_t other;
	int me, ret;

	if (!s)
		return ENOMEM;
	s->fn = fn;
	s->arg = arg;
	s->pinned = false;
	ret = pthread_attr_init(&attr);
	if (ret) {
		free(s);
		return ret;
	}
	/* more than CPU_SETSIZE CPUs (EINVAL): wherever it starts */
	if (!sched_getaffinity(0, sizeof(s->mask), &s->mask) &&
	    (me = sched_getcpu()) >= 0 && me < CPU_SETSIZE &&
	    CPU_ISSET(me, &s->mask) && CPU_COUNT(&s->mask) > 1) {
		other = s->mask;
		CPU_CLR(me, &other);
		s->pinned = !pthread_attr_setaffinity_np(&attr, sizeof(other),
							 &other);
	}
	ret = pthread_create(th, &attr, thread_trampoline, s);
	pthread_attr_destroy(&attr);
	if (ret && s->pinned) {
		/* the CPUs it was kept to may be refused (cgroup cpusets) */
		s->pinned = false;
		ret = pthread_create(th, NULL, thread_trampoline, s);
	}
	if (ret)
		free(s);
	return ret;
}

/*
 * A large array is filled in order, so ld_grow() faults it in a window
 * (LD_POPULATE_WINDOW) at a time, as the element it is asked for enters
 * the next one: not the whole doubled capacity, most of which may never
 * be used.
 */
static void populate_window(void *arr, size_t bytes, size_t off)
{
	size_t start = off & ~(LD_POPULATE_WINDOW - 1);
	size_t end = start + LD_POPULATE_WINDOW;

	if (end > bytes)
		end = bytes;
	if (end > start)
		ld_populate((char *)arr + start, end - start);
}

int ld_grow_slow(void **arr, uint32_t *alloc, uint32_t need, size_t size)
{
	uint32_t n = *alloc;
	size_t off = (size_t)need * size;
	void *p;

	if (need < n) {
		/* the first element of a window */
		if ((size_t)n * size >= LD_POPULATE_MIN &&
		    (off & (LD_POPULATE_WINDOW - 1)) < size)
			populate_window(*arr, (size_t)n * size, off);
		return 0;
	}
	if (need >= UINT32_MAX / 2)
		return -ENOMEM;
	if (!n)
		n = 16;
	while (n <= need)
		n *= 2;
	if ((size_t)n * size < LD_POPULATE_MIN) {
		p = realloc(*arr, (size_t)n * size);
		if (!p)
			return -ENOMEM;
	} else {
		/*
		 * Not realloc(): its copy into a new block would fault the
		 * pages in one at a time
		 */
		p = ld_alloc_big((size_t)n * size);
		if (!p)
			return -ENOMEM;
		ld_populate(p, (size_t)*alloc * size);
		if (*alloc)
			memcpy(p, *arr, (size_t)*alloc * size);
		free(*arr);
		populate_window(p, (size_t)n * size, off);
	}
	*arr = p;
	*alloc = n;
	return 0;
}

int ld_reserve(void **arr, uint32_t *alloc, uint64_t want, size_t size)
{
	void *p;

	if (want <= *alloc)
		return 0;
	if (want >= UINT32_MAX / 2)
		want = UINT32_MAX / 2 - 1;
	if ((size_t)want * size < LD_POPULATE_MIN)
		return ld_grow(arr, alloc, want - 1, size);
	p = ld_alloc_big((size_t)want * size);
	if (!p)	/* a bound, often far above what comes: grow as it does */
		return 0;
	if (*alloc) {
		ld_populate(p, (size_t)*alloc * size);
		memcpy(p, *arr, (size_t)*alloc * size);
	}
	free(*arr);
	*arr = p;
	populate_window(p, (size_t)want * size, (size_t)*alloc * size);
	*alloc = want;
	return 0;
}

void ld_section_free_data(struct ld_section *s)
{
	if (s->stream) {
		if (s->stream->fd >= 0)
			close(s->stream->fd);
		ld_stream_buf_free(s->stream->buf);
		free(s->stream);
		s->stream = NULL;
	}
	if (s->mapped && s->len)
		munmap(s->data, s->len);
	else
		free(s->data);
	s->data = NULL;
	s->mapped = false;
}

void ld_lines_init(struct ld_lines *l, const char *file, unsigned long base,
		   const char *data, size_t len)
{
	l->p = data;
	l->end = len ? data + len : data; /* NULL + 0 is undefined */
	l->lineno = 0;
	l->base = base;
	l->file = file;
	l->last_unterminated = false;
	l->st = NULL;
}

void ld_streams_close(struct ld_model *m)
{
	uint32_t i;

	for (i = 0; i < m->nr_sections; i++) {
		struct ld_stream *st = m->sections[i].stream;

		if (!st || st->fd < 0)
			continue;
		close(st->fd);
		st->fd = -1;
		ld_stream_buf_free(st->buf);
		st->buf = NULL;
	}
}

size_t ld_stream_min = 64 * 1024;
size_t ld_stream_buf = LD_STREAM_BUF;

void ld_lines_section(struct ld_lines *l, const struct ld_section *s)
{
	struct ld_stream *st = s->stream;

	if (!st) {
		ld_lines_init(l, s->origin, s->base_line, s->data, s->len);
		return;
	}
	ld_lines_init(l, s->origin, s->base_line, NULL, 0);
	st->off = 0;
	st->limit = st->size;
	st->eof = false;
	st->err = 0;
	l->p = l->end = st->buf;
	l->st = st;
}

int ld_lines_stream(struct ld_lines *l, const struct ld_section *s,
		    struct ld_stream *st, uint64_t start)
{
	*st = *s->stream;
	st->buf = ld_stream_buf_alloc(st->cap);
	if (!st->buf)
		return -ENOMEM;
	ld_lines_init(l, s->origin, 0, NULL, 0);
	st->off = start;
	st->limit = st->size;
	st->eof = false;
	st->err = 0;
	l->p = l->end = st->buf;
	l->st = st;
	return 0;
}

void ld_lines_limit(struct ld_lines *l, const char *data, uint64_t limit)
{
	struct ld_stream *st = l->st;
	uint64_t at = ld_lines_offset(l, data);

	if (limit < at)
		limit = at;
	if (!st) {
		l->end = data + limit;
		return;
	}
	if (limit > st->size)
		limit = st->size;
	if (st->off > limit) {	/* read past it already */
		l->end -= st->off - limit;
		st->off = limit;
	}
	st->limit = limit;
	st->eof = false; /* the next refill finds out */
}

int64_t ld_stream_find(const struct ld_section *s, uint64_t from,
		       const char *what)
{
	/* a chain is 165 bytes long in real files: found in the first read */
	size_t wl = strlen(what);
	struct ld_stream *st = s->stream;
	char buf[4096];
	int64_t found = -1;
	ssize_t r;

	while (from < st->size) {
		const char *hit;

		r = pread(st->fd, buf, sizeof(buf), from);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -2;
		if (!r)
			break;
		hit = memmem(buf, r, what, wl);
		if (hit) {
			found = from + (hit - buf);
			break;
		}
		if ((size_t)r < wl)
			break;
		from += r - (wl - 1);
	}
	return found;
}

/*
 * What is left of the window moves to the front of the buffer, and
 * pread() fills the rest: lockdep's files are read a window at a time,
 * as cat reads them, never mapped or copied whole (on a virtual machine
 * the first touch of each fresh page costs more than parsing it).  A
 * line longer than the buffer doubles it.
 */
void ld_lines_refill(struct ld_lines *l, size_t need)
{
	struct ld_stream *st = l->st;
	size_t have = l->end - l->p;
	ssize_t r;

	if (!st || st->eof)
		return;
	if (need > st->cap) {
		size_t cap = st->cap;
		char *nb;

		/*
		 * no lockdep line comes near the limit: a file of one line
		 * of a GiB was read into as much memory, for seconds, to be
		 * refused after
		 */
		while (cap < need && cap <= LD_MAX_LINE)
			cap *= 2;
		nb = cap <= LD_MAX_LINE ? malloc(cap) : NULL;
		if (!nb) {
			st->err = cap <= LD_MAX_LINE ? -ENOMEM : -EFBIG;
			st->eof = true;
			return;
		}
		memcpy(nb, l->p, have);
		ld_stream_buf_free(st->buf);
		st->buf = nb;
		st->cap = cap;
	} else if (have) {
		memmove(st->buf, l->p, have);
	}
	l->p = st->buf;
	l->end = st->buf + have;
	while (have < need) {
		size_t want = st->cap - have;
		char c;

		if (want > st->limit - st->off)
			want = st->limit - st->off;
		if (!want) {
			st->eof = true;
			/* the end: the file must not be longer now either */
			r = st->limit == st->size ? pread(st->fd, &c, 1, st->off) :
						    0;
			if (r)
				st->err = r < 0 ? -errno : -ESTALE;
			break;
		}
		r = pread(st->fd, st->buf + have, want, st->off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			st->eof = true;
			st->err = r < 0 ? -errno : -ESTALE;
			break;
		}
		have += r;
		st->off += r;
	}
	l->end = st->buf + have;
}

int ld_lines_error(const struct ld_lines *l, struct ld_diag *d)
{
	int err = l->st ? l->st->err : 0;

	if (!err)
		return 0;
	if (err == -ESTALE)
		ld_diagf(d, "%s: changed while it was read (%llu bytes when opened)",
			 l->file, (unsigned long long)l->st->size);
	else if (err == -EFBIG)
		/* the line being read, handed out already if cut short */
		ld_diagf(d, "%s:%lu: line longer than %lu MiB", l->file,
			 l->base + l->lineno + !l->last_unterminated,
			 LD_MAX_LINE >> 20);
	else
		ld_diagf(d, "%s: %s", l->file, strerror(-err));
	return err;
}

int ld_diag(struct ld_diag *d, const struct ld_lines *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!d)
		return -EINVAL;
	n = snprintf(d->msg, sizeof(d->msg), "%s:%lu: ", l->file,
		     l->base + (l->lineno ? l->lineno : 1));
	if (n < 0 || (size_t)n >= sizeof(d->msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(d->msg + n, sizeof(d->msg) - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int ld_diagf(struct ld_diag *d, const char *fmt, ...)
{
	va_list ap;

	if (!d)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *ld_quote(const char *s, size_t len, char *buf, size_t size)
{
	size_t i, o = 0;
	bool cut = len > 32;

	if (cut)
		len = 32;
	for (i = 0; i < len && o + 6 < size; i++) {
		unsigned char c = s[i];

		if (c == '\\' || c == '\'') {
			buf[o++] = '\\';
			buf[o++] = c;
		} else if (c < 0x20 || c >= 0x7f) {
			o += snprintf(buf + o, size - o, "\\x%02x", c);
		} else {
			buf[o++] = c;
		}
	}
	if (cut && o + 4 < size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

int ld_warn(struct ld_model *m, const char *fmt, ...)
{
	char buf[512], *s, **w;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* Keep the list bounded: a garbage file must not flood it. */
	if (m->nr_warnings >= 64)
		return 0;
	s = strdup(buf);
	if (!s)
		return -ENOMEM;
	w = realloc(m->warnings, (m->nr_warnings + 1) * sizeof(*w));
	if (!w) {
		free(s);
		return -ENOMEM;
	}
	m->warnings = w;
	m->warnings[m->nr_warnings++] = s;
	return 0;
}

/* The exact scanner, for numbers of 20 digits or more. */
bool ld_scan_u64_slow(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		unsigned int dig = *s - '0';

		if (x > (UINT64_MAX - dig) / 10)
			return false;
		x = x * 10 + dig;
		s++;
	}
	*p = s;
	*v = x;
	return true;
}

bool ld_scan_i64(const char **p, const char *end, int64_t *v)
{
	const char *s = *p;
	bool neg = false;
	uint64_t x;

	if (s < end && *s == '-') {
		neg = true;
		s++;
	}
	if (!ld_scan_u64(&s, end, &x))
		return false;
	if (x > (uint64_t)INT64_MAX + neg)
		return false;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	*p = s;
	return true;
}

const unsigned char ld_hex_tab[256] = {
	['0'] = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	['a'] = 11, 12, 13, 14, 15, 16,
	['A'] = 11, 12, 13, 14, 15, 16,
};

static int hexval(char c)
{
	return ld_hex_tab[(unsigned char)c] - 1;
}

int ld_unescape(struct ld_arena *a, const char *s, size_t len,
		struct ld_str *out)
{
	char *o, *start;
	size_t i;

	if (!memchr(s, '\\', len)) {
		*out = ld_arena_str(a, s, len);
		return out->s ? 0 : -ENOMEM;
	}
	start = o = ld_arena_alloc(a, len + 1);
	if (!o)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		char c = s[i];
		int h1, h2, k, v;

		if (c != '\\') {
			*o++ = c;
			continue;
		}
		if (++i >= len)
			return -EINVAL;
		c = s[i];
		switch (c) {
		case '\\':
			*o++ = '\\';
			break;
		case 'a':
			*o++ = '\a';
			break;
		case 'e':
			*o++ = '\033';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'v':
			*o++ = '\v';
			break;
		case '"':
			*o++ = '"';
			break;
		case 'x':
			h1 = i + 1 < len ? hexval(s[i + 1]) : -1;
			h2 = i + 2 < len ? hexval(s[i + 2]) : -1;
			if (h1 < 0 || h2 < 0)
				return -EINVAL;
			*o++ = (char)(h1 << 4 | h2);
			i += 2;
			break;
		default:
			if (c < '0' || c > '7')
				return -EINVAL;
			/* \0 alone, or up to three octal digits */
			v = 0;
			for (k = 0;
			     k < 3 && i < len && s[i] >= '0' && s[i] <= '7';
			     k++, i++)
				v = v * 8 + (s[i] - '0');
			i--;
			if (v > 0xff)
				return -EINVAL;
			*o++ = (char)v;
			break;
		}
	}
	*o = '\0';
	out->s = start;
	out->len = o - start;
	return 0;
}

/*
 * Eight bytes at a step, the last ones read as a word that may overlap
 * the one before (wyhash's way), then ld_hash64()'s mix.  FNV-1a took a
 * multiplication a byte, each waiting for the one before: at full size
 * the names were hashed 25000 times on the load's critical path (the
 * name index, lock_stat's join).
 */
uint32_t ld_hash_bytes(const char *s, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ULL;
	uint64_t h = len * k, w;
	uint32_t a, b;

	if (len > 8) {
		for (; len > 8; len -= 8, s += 8) {
			memcpy(&w, s, 8);
			h = (h ^ w) * k;
			h ^= h >> 32;
		}
		memcpy(&w, s + len - 8, 8);
	} else if (len >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + len - 4, 4);
		w = (uint64_t)a << 32 | b;
	} else if (len) {
		w = (uint64_t)(unsigned char)s[0] << 16 |
		    (uint64_t)(unsigned char)s[len / 2] << 8 |
		    (unsigned char)s[len - 1];
	} else {
		w = 0;
	}
	return ld_hash64(h ^ w);
}

static int map_alloc(struct ld_map *map, uint32_t expected)
{
	uint32_t n = 64;

	while (n < expected * 2 && n < (1u << 30))
		n *= 2;
	if (map->arena) {
		map->keys = ld_arena_alloc(map->arena,
					   (size_t)n * sizeof(*map->keys));
		map->vals = ld_arena_alloc(map->arena,
					   (size_t)n * sizeof(*map->vals));
	} else {
		map->keys = ld_alloc_big((size_t)n * sizeof(*map->keys));
		map->vals = ld_alloc_big((size_t)n * sizeof(*map->vals));
	}
	if (!map->keys || !map->vals) {
		if (!map->arena) {
			free(map->keys);
			free(map->vals);
		}
		map->keys = NULL;
		map->vals = NULL;
		return -ENOMEM;
	}
	ld_populate(map->vals, (size_t)n * sizeof(*map->vals));
	memset(map->vals, 0xff, (size_t)n * sizeof(*map->vals));
	map->mask = n - 1;
	map->nr = 0;
	return 0;
}

int ld_map_init(struct ld_map *map, uint32_t expected)
{
	memset(map, 0, sizeof(*map));
	return map_alloc(map, expected);
}

int ld_map_init_in(struct ld_map *map, uint32_t expected, struct ld_arena *a)
{
	memset(map, 0, sizeof(*map));
	map->arena = a;
	return map_alloc(map, expected);
}

void ld_map_init_ids(struct ld_map *map, uint32_t limit)
{
	memset(map, 0, sizeof(*map));
	map->dense_limit = limit;
}

void ld_map_reserve_ids(struct ld_map *map, uint64_t n)
{
	if (n > map->dense_limit)
		n = map->dense_limit;
	if (!map->bits)
		ld_reserve((void **)&map->dense, &map->alloc_dense, n,
			   sizeof(*map->dense));
}

void ld_map_free(struct ld_map *map)
{
	if (!map->arena) {
		free(map->keys);
		free(map->vals);
	}
	free(map->dense);
	free(map->bits);
	free(map->rank);
	memset(map, 0, sizeof(*map));
}

void ld_map_pack(struct ld_map *map)
{
	uint32_t words = (map->nr_dense + 63) / 64, w, k, next = LD_NONE;
	uint64_t *bits;
	uint32_t *rank;

	if (!map->dense || map->bits)
		return;
	bits = calloc(words, sizeof(*bits));
	rank = malloc((size_t)words * sizeof(*rank));
	if (!bits || !rank)
		goto keep;
	for (w = 0; w < words; w++) {
		rank[w] = next;
		for (k = w * 64; k < map->nr_dense && k < w * 64 + 64; k++) {
			uint32_t v = map->dense[k];

			if (v == LD_NONE)
				continue;
			if (next == LD_NONE)
				rank[w] = next = v; /* the first key */
			if (v != next || next == LD_NONE - 1)
				goto keep; /* not in order: the array stays */
			bits[w] |= 1ull << (k % 64);
			next++;
		}
	}
	free(map->dense);
	map->dense = NULL;
	map->alloc_dense = 0;
	map->bits = bits;
	map->rank = rank;
	return;
keep:
	free(bits);
	free(rank);
}

static int map_rehash(struct ld_map *map)
{
	struct ld_map n = { .arena = map->arena };
	uint32_t i;
	int ret;

	ret = map_alloc(&n, map->keys ? map->mask + 1 : 512);
	if (ret)
		return ret;
	for (i = 0; map->keys && i <= map->mask; i++)
		if (map->vals[i] != LD_NONE)
			ld_map_put(&n, map->keys[i], map->vals[i], NULL);
	if (!map->arena) {
		free(map->keys);
		free(map->vals);
	}
	map->keys = n.keys;
	map->vals = n.vals;
	map->mask = n.mask;
	map->nr = n.nr;
	return 0;
}

/* key < dense_limit: the plain array, grown to the key */
static int dense_put(struct ld_map *map, uint32_t key, uint32_t val,
		     uint32_t *old)
{
	uint32_t n = map->nr_dense;

	if (key >= n) {
		if (ld_grow((void **)&map->dense, &map->alloc_dense, key,
			    sizeof(*map->dense)))
			return -ENOMEM;
		memset(map->dense + n, 0xff,
		       ((size_t)key + 1 - n) * sizeof(*map->dense));
		map->nr_dense = key + 1;
	}
	if (old)
		*old = map->dense[key];
	if (map->dense[key] == LD_NONE)
		map->dense[key] = val;
	return 0;
}

int ld_map_put(struct ld_map *map, uint64_t key, uint32_t val, uint32_t *old)
{
	uint32_t i;

	if (map->bits)
		return -EINVAL; /* packed: read only */
	if (key < map->dense_limit)
		return dense_put(map, key, val, old);
	if (!map->keys || (map->nr + 1) * 2 > map->mask + 1) {
		int ret = map_rehash(map);

		if (ret)
			return ret;
	}
	for (i = ld_hash64(key) & map->mask;; i = (i + 1) & map->mask) {
		if (map->vals[i] == LD_NONE) {
			map->keys[i] = key;
			map->vals[i] = val;
			map->nr++;
			if (old)
				*old = LD_NONE;
			return 0;
		}
		if (map->keys[i] == key) {
			if (old)
				*old = map->vals[i];
			return 0;
		}
	}
}
