/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ld_internal.h - helpers shared by the parsers and the model builder.
 * Not part of the library's interface.
 */
#ifndef LD_INTERNAL_H
#define LD_INTERNAL_H

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "lockdep_model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Bump allocator for strings that live as long as the model. */
struct ld_arena_chunk {
	struct ld_arena_chunk *next;
	size_t used, size;
	char data[];
};

struct ld_arena {
	struct ld_arena_chunk *head;
	size_t total; /* bytes in all chunks */
	size_t expect; /* bytes a parser expects to add: ld_arena_expect() */
};

/*
 * A parser about to copy up to @bytes into @a (about its file's size):
 * from 512 KiB on, new chunks are 2 MiB pages at once, not 256 KiB of
 * 4 KiB pages, each of which costs these virtual machines some
 * microseconds the first time it is touched.
 */
static inline void ld_arena_expect(struct ld_arena *a, size_t bytes)
{
	a->expect = bytes;
}

struct ld_arena *ld_arena_new(void);
void ld_arena_free(struct ld_arena *a);
void *ld_arena_alloc_slow(struct ld_arena *a, size_t size);
/* @size bytes, 8-aligned; the common case, room in the chunk, inline */
static inline void *ld_arena_alloc(struct ld_arena *a, size_t size)
{
	struct ld_arena_chunk *c = a->head;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!c || c->size - c->used < size)
		return ld_arena_alloc_slow(a, size);
	p = c->data + c->used;
	c->used += size;
	return p;
}
struct ld_str ld_arena_str(struct ld_arena *a, const char *s, size_t len);

/*
 * ld_arena_str() for a string shorter than 32 bytes, with 32 readable
 * from @s (to @end) and 32 free in the chunk: one fixed-size copy, no
 * calls.  A streamed trace file copies each symbol.
 */
static inline struct ld_str ld_arena_str_short(struct ld_arena *a,
					       const char *s, size_t len,
					       const char *end)
{
	struct ld_arena_chunk *c = a->head;
	struct ld_str r;
	char *p;

	if (len >= 32 || end - s < 32 || !c || c->size - c->used < 32)
		return ld_arena_str(a, s, len);
	p = ld_arena_alloc(a, len + 1); /* from this chunk: it has room */
	memcpy(p, s, 32);
	p[len] = '\0';
	r.s = p;
	r.len = len;
	return r;
}

/* Fault in a large block about to be written, in one go (a hint). */
#define LD_POPULATE_MIN (128 * 1024)
void ld_populate(void *p, size_t len);

/*
 * A large block (huge pages when it is worth it, from LD_BIG bytes on);
 * free() frees it.  It may be one given back with ld_free_big(): its
 * bytes are not zero.
 */
#define LD_BIG (256 * 1024)
void *ld_alloc_big(size_t size);
/*
 * Give back a block of ld_alloc_big(@size) for the next one that fits,
 * during a load; what is still kept when it ends, ld_big_pool_drain()
 * frees.  Any other block is freed.
 */
void ld_free_big(void *p, size_t size);
void ld_big_pool_drain(void);

int ld_grow_slow(void **arr, uint32_t *alloc, uint32_t need, size_t size);
/* A large array is faulted in this much at a time, as it fills (util.c) */
#define LD_POPULATE_WINDOW ((size_t)256 << 10)
/* Grow *arr (element size @size) so that index @need fits. */
static inline int ld_grow(void **arr, uint32_t *alloc, uint32_t need,
			  size_t size)
{
	/* inline, as it is called for each element: room, and no new window */
	if (need < *alloc &&
	    ((size_t)need * size & (LD_POPULATE_WINDOW - 1)) >= size)
		return 0;
	return ld_grow_slow(arr, alloc, need, size);
}
/*
 * Make room for @want elements at once, a bound from a file's size: no
 * copies while the array fills; pages still fault in as ld_grow() goes.
 * A hint: when that much cannot be had, nothing changes and it returns 0.
 */
int ld_reserve(void **arr, uint32_t *alloc, uint64_t want, size_t size);

/*
 * A streamed section (ld_section.stream): its file, open while it is
 * parsed, read with pread() into @buf a window at a time, from @off on up
 * to @limit; then closed, so that a load of many snapshots does not hold
 * their files open.
 * @dev, @ino, @size and @mtime are the file's when it was opened: a
 * file that is not that long when read to its end, or that save finds
 * changed, has been rewritten since, and is refused rather than half
 * believed.
 */
struct ld_stream {
	int fd; /* -1 once the load is done: save opens @path again */
	uint64_t dev, ino, size;
	struct timespec mtime;
	char *buf; /* ld_stream_buf bytes, more for a longer line */
	size_t cap;
	uint64_t off; /* of the next read */
	uint64_t limit; /* where the lines end: @size, or a split */
	bool eof;
	int err; /* -errno, -ESTALE: not @size bytes long any more */
};

/*
 * Sections at least ld_stream_min bytes long are streamed, through
 * buffers of ld_stream_buf bytes (at least LD_STREAM_MIN_BUF): the tests
 * make both small, to have every line cross a refill somewhere.
 */
#define LD_STREAM_MIN_BUF 256
#define LD_STREAM_BUF ((size_t)256 << 10) /* ld_stream_buf's default */
extern size_t ld_stream_min, ld_stream_buf;
/* A stream's buffer (from a shared huge page when it fits), and back */
char *ld_stream_buf_alloc(size_t cap);
void ld_stream_buf_free(char *buf);

/*
 * Line iterator over a buffer, or over a streamed section (@st: lines
 * and the pointers into them stay valid until the next call that may
 * read, ld_lines_next() or ld_lines_avail()); handles a missing final
 * newline and CRLF.
 */
struct ld_lines {
	const char *p, *end;
	unsigned long lineno; /* of the line last returned */
	unsigned long base; /* added to lineno in diagnostics */
	const char *file;
	bool last_unterminated; /* the line last returned had no \n */
	struct ld_stream *st; /* NULL: [p, end) is all there is */
};

void ld_lines_init(struct ld_lines *l, const char *file, unsigned long base,
		   const char *data, size_t len);
/* Close what the parsers read of a model's streamed files (they are done) */
void ld_streams_close(struct ld_model *m);
/* A section's lines: its data, or its file from the start (streamed) */
void ld_lines_section(struct ld_lines *l, const struct ld_section *s);
/*
 * The lines of @s's file from byte @start, through @st: a stream of the
 * same file with a buffer of its own (a second thread's), set up here.
 */
int ld_lines_stream(struct ld_lines *l, const struct ld_section *s,
		    struct ld_stream *st, uint64_t start);
/* Where l->p is in its section (streamed or not: @data is the section's) */
static inline uint64_t ld_lines_offset(const struct ld_lines *l,
				       const char *data)
{
	return l->st ? l->st->off - (uint64_t)(l->end - l->p) :
		       (uint64_t)(l->p - data);
}
/* The lines end at offset @limit (at most the section's length) */
void ld_lines_limit(struct ld_lines *l, const char *data, uint64_t limit);
/*
 * The offset of the first @what in @s's file at or after @from, -1 if
 * there is none, -2 if the file cannot be read
 */
int64_t ld_stream_find(const struct ld_section *s, uint64_t from,
		       const char *what);
/* Read on, so that [p, end) holds @need bytes or all that is left. */
void ld_lines_refill(struct ld_lines *l, size_t need);
/* 0, or the read error or rewrite that ended a stream's lines early */
int ld_lines_error(const struct ld_lines *l, struct ld_diag *d);

/* Whether @n bytes are there from l->p on (reading on if need be). */
static inline bool ld_lines_avail(struct ld_lines *l, size_t n)
{
	if ((size_t)(l->end - l->p) >= n)
		return true;
	if (!l->st || l->st->eof)
		return false;
	ld_lines_refill(l, n);
	return (size_t)(l->end - l->p) >= n;
}

/* The same, for a fast path that checks the end itself: read on if need be */
static inline void ld_lines_want(struct ld_lines *l, size_t n)
{
	(void)ld_lines_avail(l, n);
}

/*
 * The first '\n' in [p, end), or NULL.  Lockdep's lines are short (40
 * bytes on average) and there are millions of them: the first 64 bytes are
 * searched inline, 16 at a time, the rest by memchr().  Never reads
 * outside [p, end).
 */
static inline const char *ld_find_nl(const char *p, const char *end)
{
#ifdef __SSE2__
	const __m128i nl = _mm_set1_epi8('\n');
	const char *stop = end - p > 64 ? p + 64 : end;

	for (; stop - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)p);
		unsigned int mask = _mm_movemask_epi8(_mm_cmpeq_epi8(v, nl));

		if (mask)
			return p + __builtin_ctz(mask);
	}
#endif
	return p < end ? memchr(p, '\n', end - p) : NULL;
}

/* A bit for each '\n' in the 64 bytes at @p (all readable) */
static inline uint64_t ld_nl_mask64(const char *p)
{
#ifdef __SSE2__
	/*
	 * Written out: gcc -O2 kept the loop of four, a branch each, in
	 * the chains' inner loop (cachegrind: 13M of its 52M instructions)
	 */
#define NL16(i)                                                         \
	((uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(          \
		 _mm_loadu_si128((const __m128i *)(p + 16 * (i))),        \
		 _mm_set1_epi8('\n')))                                    \
	 << (16 * (i)))
	return NL16(0) | NL16(1) | NL16(2) | NL16(3);
#undef NL16
#else
	uint64_t m = 0;
	int i;

	for (i = 0; i < 64; i++)
		m |= (uint64_t)(p[i] == '\n') << i;
	return m;
#endif
}

/*
 * The fast paths' line iterator: the lines of [p, end), their newlines
 * found 64 bytes at a time ahead of the lines (not line by line, each
 * search waiting for the one before), so that what is done with a line
 * never delays finding the next.  Gives up ~64 bytes before @end: what is
 * left there is for ld_lines_next().
 */
struct ld_run {
	const char *p, *b, *end; /* line, 64-byte block, end */
	uint64_t m; /* the block's newlines from p on */
};

static inline void ld_run_init(struct ld_run *r, const char *p,
			       const char *end)
{
	r->p = r->b = p;
	r->end = end;
	r->m = end - p >= 64 ? ld_nl_mask64(p) : 0;
}

/* The next line's length (r->p: its start), or false */
static inline bool ld_run_line(struct ld_run *r, size_t *n)
{
	while (!r->m) {
		if (r->end - r->b < 128)
			return false;
		r->b += 64;
		r->m = ld_nl_mask64(r->b);
	}
	*n = r->b + __builtin_ctzll(r->m) - r->p;
	return true;
}

/* Past the line ld_run_line() gave */
static inline void ld_run_next(struct ld_run *r, size_t n)
{
	r->p += n + 1;
	r->m &= r->m - 1;
}

/* Returns false at the end; *line is not NUL-terminated. */
static inline bool ld_lines_next(struct ld_lines *l, const char **line,
				 size_t *len)
{
	const char *nl;
	size_t n;

	for (;;) {
		nl = ld_find_nl(l->p, l->end);
		if (nl || !l->st || l->st->eof)
			break;
		/* a line cut by the end of the buffer: one more byte */
		ld_lines_refill(l, l->end - l->p + 1);
	}
	if (l->p >= l->end)
		return false;
	*line = l->p;
	if (nl) {
		n = nl - l->p;
		l->p = nl + 1;
		l->last_unterminated = false;
	} else {
		n = l->end - l->p;
		l->p = l->end;
		l->last_unterminated = true;
	}
	/* Serial consoles and some copies use CR LF. */
	if (n && (*line)[n - 1] == '\r')
		n--;
	*len = n;
	l->lineno++;
	return true;
}

/*
 * The parsers' fast paths for the usual lines of the big files are on;
 * the tests and the fuzzers turn them off to check that the general paths
 * give the same model for the same input (tests/model_cmp.h).
 */
extern bool ld_fast_paths;
/* ... and the second threads, to compare with one thread doing it all */
extern bool ld_parallel;
/* pthread_create() with default attributes, started on another CPU */
int ld_thread_create(pthread_t *th, void *(*fn)(void *), void *arg);
/*
 * The size of /proc/lockdep_chains from which two threads share it (4 MiB;
 * the tests make it 0, to split the small files of the fixtures too)
 */
extern size_t ld_chain_split_min;
/*
 * ... in chunks of this many bytes, taken by either thread (1 MiB; the
 * tests make it small, to have the threads meet anywhere)
 */
extern size_t ld_chain_chunk;
/* ... and the export's chains file has a thread of its own (1 MiB) */
extern size_t ld_chains_thread_min;
/*
 * The chain index of a parsed model of this many chain locks or more is
 * built in parts by two threads (65536; the tests make it 0): a thread of
 * its own and the one that waits for it, or the export's chains thread
 * and the first thread.  Both fill parts: 0.  The tests make that 1 (the
 * thread that counts alone: _front()) or 2 (the other alone: _back()).
 */
extern size_t ld_index_thread_min;
extern int ld_index_share;
/*
 * Inputs of more bytes are refused (LD_MAX_FILE; the tests make it small,
 * to reach it through a pipe).  Never more: a line's length fits in 31
 * bits (parse_proc.c, REF_CR).
 */
extern size_t ld_max_file;

/* Monotonic milliseconds, for ld_phase(). */
static inline double ld_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Record phase @name as having taken @ms; @beside: in a second thread */
static inline void ld_phase_ms(struct ld_model *m, const char *name, double ms,
			       bool beside)
{
	if (m->nr_phases < LD_MAX_PHASES) {
		m->phases[m->nr_phases].name = name;
		m->phases[m->nr_phases].beside = beside;
		m->phases[m->nr_phases++].ms = ms;
	}
}

/* Record phase @name as having taken from @t0 until now; returns now. */
static inline double ld_phase(struct ld_model *m, const char *name, double t0)
{
	double now = ld_now_ms();

	ld_phase_ms(m, name, now - t0, false);
	return now;
}

/* "file:line: " + fmt, into d.  Returns -EINVAL for convenience. */
int ld_diag(struct ld_diag *d, const struct ld_lines *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ld_diagf(struct ld_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int ld_warn(struct ld_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Number scanning: advance *p; return false on no digits or overflow.
 * Inline, as the parsers' inner loops call them millions of times.
 */
bool ld_scan_u64_slow(const char **p, const char *end, uint64_t *v);
bool ld_scan_i64(const char **p, const char *end, int64_t *v);

static inline bool ld_is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/*
 * Up to 8 leading digits of the 8 bytes at @s, at once (SWAR, as in
 * fast_float's parse_eight_digits_unrolled()): returns how many there are
 * (0..8) and their value in *v.  Reads exactly 8 bytes.
 */
static inline unsigned int ld_digits8(const char *s, uint64_t *v)
{
	const uint64_t lo = 0x0f0f0f0f0f0f0f0fULL, hi = 0xf0f0f0f0f0f0f0f0ULL;
	uint64_t w, d, bad;
	unsigned int n;

	memcpy(&w, s, 8);
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		w = __builtin_bswap64(w);
	d = w & lo;
	/* a byte is a digit when it is 0x3X with X + 6 < 16 */
	bad = ((w ^ 0x3030303030303030ULL) & hi) |
	      ((d + 0x0606060606060606ULL) & hi);
	n = bad ? __builtin_ctzll(bad) / 8 : 8;
	if (!n)
		return 0;
	/* the n digits in the high bytes, zeros (leading digits) below */
	d = n == 8 ? d : d << (8 * (8 - n));
	d = d * 10 + (d >> 8);
	d = ((d & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
	     ((d >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >>
	    32;
	*v = d;
	return n;
}

static inline bool ld_scan_u64(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p, *stop = end - s > 19 ? s + 19 : end;
	uint64_t x = 0;
	unsigned int n;

	/* most numbers are short: up to 8 digits in one go */
	if (end - s >= 8) {
		n = ld_digits8(s, &x);
		if (!n)
			return false;
		s += n;
		if (n < 8) {
			*p = s;
			*v = x;
			return true;
		}
	}
	/* 19 digits cannot overflow; longer numbers take the slow path */
	while (s < stop && ld_is_digit(*s))
		x = x * 10 + (*s++ - '0');
	if (s == *p)
		return false;
	if (s == stop && s < end && ld_is_digit(*s))
		return ld_scan_u64_slow(p, end, v);
	*p = s;
	*v = x;
	return true;
}

/* hex digit value plus one; 0 for every other character */
extern const unsigned char ld_hex_tab[256];

/*
 * 16 hex digits at @s (%p, chain keys) to a number in a few instructions;
 * false if any of them is not a hex digit.  Reads exactly 16 bytes.
 */
#ifdef __SSE2__
static inline bool ld_hex16(const char *s, uint64_t *v)
{
	const __m128i c = _mm_loadu_si128((const __m128i *)s);
	const __m128i lc = _mm_or_si128(c, _mm_set1_epi8(0x20));
	__m128i dig, let, nib;
	uint64_t w[2];
	unsigned int i;

	dig = _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)),
			    _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
	let = _mm_and_si128(_mm_cmpgt_epi8(lc, _mm_set1_epi8('a' - 1)),
			    _mm_cmplt_epi8(lc, _mm_set1_epi8('f' + 1)));
	if (_mm_movemask_epi8(_mm_or_si128(dig, let)) != 0xffff)
		return false;
	/* the digit's value in each byte, first digit in the lowest */
	nib = _mm_add_epi8(_mm_and_si128(c, _mm_set1_epi8(0x0f)),
			   _mm_and_si128(let, _mm_set1_epi8(9)));
	_mm_storeu_si128((__m128i *)w, nib);
	for (i = 0; i < 2; i++) {
		uint64_t x = w[i];

		/* pairs of nibbles, then of bytes, then of 16-bit halves */
		x = ((x << 4) + (x >> 8)) & 0x00ff00ff00ff00ffULL;
		x = ((x << 8) + (x >> 16)) & 0x0000ffff0000ffffULL;
		w[i] = ((x << 16) + (x >> 32)) & 0xffffffffULL;
	}
	*v = w[0] << 32 | w[1];
	return true;
}
#else
static inline bool ld_hex16(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	unsigned int i, h;

	for (i = 0; i < 16; i++) {
		h = ld_hex_tab[(unsigned char)s[i]];
		if (!h)
			return false;
		x = x << 4 | (h - 1);
	}
	*v = x;
	return true;
}
#endif

static inline bool ld_scan_hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p, *stop = end - s > 17 ? s + 17 : end;
	uint64_t x = 0;
	unsigned int h;

	/* the usual case: exactly 16 digits */
	if (end - s >= 16 &&
	    (end - s == 16 || !ld_hex_tab[(unsigned char)s[16]]) &&
	    ld_hex16(s, v)) {
		*p = s + 16;
		return true;
	}
	while (s < stop && (h = ld_hex_tab[(unsigned char)*s])) {
		x = x << 4 | (h - 1);
		s++;
	}
	/* no digits, or more than 16 */
	if (s == *p || s - *p > 16)
		return false;
	*p = s;
	*v = x;
	return true;
}

/* Whole token [s, s+len) as a decimal / 0x-hex number. */
static inline bool ld_tok_u64(const char *s, size_t len, uint64_t *v)
{
	const char *p = s;

	return ld_scan_u64(&p, s + len, v) && p == s + len;
}

static inline bool ld_tok_hex(const char *s, size_t len, uint64_t *v)
{
	const char *p = s;

	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	p += 2;
	return ld_scan_hex(&p, s + len, v) && p == s + len;
}

static inline void ld_skip_spaces(const char **p, const char *end)
{
#ifdef __SSE2__
	/* lock_stat pads its columns with dozens of spaces */
	while (end - *p >= 16) {
		unsigned int m = ~_mm_movemask_epi8(_mm_cmpeq_epi8(
					 _mm_loadu_si128((const __m128i *)*p),
					 _mm_set1_epi8(' '))) &
				 0xffff;

		if (m) {
			*p += __builtin_ctz(m);
			return;
		}
		*p += 16;
	}
#endif
	while (*p < end && **p == ' ')
		(*p)++;
}

/* Consume the literal @lit (a string constant: strlen() folds). */
static inline bool ld_eat(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

/* Decode C escapes (seq_escape_str) into the arena. */
int ld_unescape(struct ld_arena *a, const char *s, size_t len,
		struct ld_str *out);

/* Release a section's data, malloc()ed or mapped (ld_section.mapped). */
void ld_section_free_data(struct ld_section *s);

/* Model building */
struct ld_model *ld_model_new(void);
uint32_t ld_add_class(struct ld_model *m); /* LD_NONE on ENOMEM */
/* Chain lock @at (past every other one) of a class not in the list */
/*
 * @t's chains, their locks (and read states) and chain index, moved into
 * @m, which has none: what a second thread parsed into a model of its own
 */
void ld_take_chains(struct ld_model *m, struct ld_model *t);
int ld_add_unlisted(struct ld_model *m, uint32_t at, const char *name,
		    size_t len);
int ld_add_dep(struct ld_model *m, const struct ld_dep *dep);
int ld_add_stat(struct ld_model *m, const struct ld_stat *st);
/* Split a printed name into base, #version, /subclass (heuristic). */
void ld_derive_name_parts(struct ld_class *c);
void ld_name_hash_build(struct ld_model *m);
int ld_model_finish(struct ld_model *m, struct ld_diag *d);
/* The indexes ld_model_finish() builds unless a parser already did. */
int ld_index_deps(struct ld_model *m);
/* ld_index_deps() without the warning on duplicates: their number added */
int ld_index_deps_quiet(struct ld_model *m, uint32_t *dups);
void ld_warn_dup_deps(struct ld_model *m, uint32_t dups);
int ld_index_chains(struct ld_model *m, uint32_t nr_classes);
/* ... the chain index in a second thread, from now until the finish */
void ld_index_chains_start(struct ld_model *m);
/*
 * The chain index of @m's chains and @n classes, in parts that two
 * threads fill: NULL when it is small (ld_index_thread_min) or cannot be
 * had, and then ld_index_chains() builds it alone.  Its scratch is in
 * @m's arena.  One thread counts and fills parts from the first on
 * (_front(): 0 or -ENOMEM), the other fills parts from the last back
 * once they are counted (_back(), which may come late or never); the
 * index is complete once both returned, and _end() frees the job and
 * says how it went.
 */
struct ld_index_job *ld_index_job_new(struct ld_model *m, uint32_t n);
int ld_index_job_front(struct ld_index_job *j);
void ld_index_job_back(struct ld_index_job *j);
int ld_index_job_end(struct ld_index_job *j);

/*
 * The base name classes are grouped by across snapshots (merge.h): the
 * printed name without "#N" and "/N", or all of it for a class named
 * after its key.
 */
static inline struct ld_str ld_class_base(const struct ld_class *c)
{
	return c->base_is_key || !c->base.len ? c->name : c->base;
}

/* The class ids sorted by @cmp (qsort_r(), @m its argument); free() them. */
uint32_t *ld_class_ids_sorted(const struct ld_model *m,
			      int (*cmp)(const void *, const void *, void *));

/* u64 -> u32 open addressing map (for keys and kernel ids) */
struct ld_map {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t mask;
	uint32_t nr; /* in keys/vals */
	uint32_t *dense; /* vals of keys below dense_limit, by key */
	uint32_t nr_dense, alloc_dense;
	uint32_t dense_limit;
	/* after ld_map_pack(), instead of dense: a bit per key, and per word */
	uint64_t *bits;
	uint32_t *rank; /* the value of its first key */
	struct ld_arena *arena; /* keys and vals from here: ld_map_init_in() */
};
int ld_map_init(struct ld_map *map, uint32_t expected);
/*
 * ... with the hash's arrays taken from @a, never freed: a load's scratch
 * map in the 2 MiB page its arena has anyway (192 KiB for 8191 keys, as
 * 4 KiB pages 48 page faults of 9 us each on this VM)
 */
int ld_map_init_in(struct ld_map *map, uint32_t expected, struct ld_arena *a);
/*
 * Kernel ids are small integers (indexes into lockdep's arrays): keys
 * below @limit go into a plain array indexed by key, grown as far as the
 * largest one, the others into the hash.  Never fails.
 */
void ld_map_init_ids(struct ld_map *map, uint32_t limit);
/*
 * Room for keys below @n in the plain array (at most its limit), taken
 * when first used: growing it by copies as larger keys come touches
 * fresh small pages each time.  Only a hint.
 */
void ld_map_reserve_ids(struct ld_map *map, uint64_t n);
void ld_map_free(struct ld_map *map);
/*
 * Once all keys are in: if the values of the plain array's keys count up
 * by one in key order, as trace ids listed in order do, keep a bit per
 * key and a count per 64 keys instead, 1/32 of the memory: a lookup of
 * scattered ids then hits the cache.  Read only afterwards.
 */
void ld_map_pack(struct ld_map *map);
/* Insert; if the key exists, its value is kept and *old set to it. */
int ld_map_put(struct ld_map *map, uint64_t key, uint32_t val, uint32_t *old);

static inline uint32_t ld_hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

/*
 * Bits set in @x: without -mpopcnt, __builtin_popcountll() is a call into
 * libgcc, which ld_map_get() would make for most lookups.
 */
static inline unsigned int ld_popcount64(uint64_t x)
{
#ifdef __POPCNT__
	return __builtin_popcountll(x);
#else
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (x * 0x0101010101010101ull) >> 56;
#endif
}

static inline uint32_t ld_map_get(const struct ld_map *map, uint64_t key)
{
	uint32_t i;

	if (key < map->dense_limit) {
		if (key >= map->nr_dense)
			return LD_NONE;
		if (map->bits) {
			uint64_t w = map->bits[key / 64];
			uint64_t b = 1ull << (key % 64);

			return w & b ? map->rank[key / 64] +
					       ld_popcount64(w & (b - 1)) :
				       LD_NONE;
		}
		return map->dense[key];
	}
	if (!map->keys)
		return LD_NONE;
	for (i = ld_hash64(key) & map->mask;; i = (i + 1) & map->mask) {
		if (map->vals[i] == LD_NONE)
			return LD_NONE;
		if (map->keys[i] == key)
			return map->vals[i];
	}
}

/* The dependency @from -> @to as one ld_map key */
static inline uint64_t ld_dep_key(uint32_t from, uint32_t to)
{
	return ((uint64_t)from << 32 | to) + 1;
}

uint32_t ld_hash_bytes(const char *s, size_t len);

/* Parsers: each fills the model from one file */
/* /proc/lockdep and, when @chains, /proc/lockdep_chains: they share keys */
int ld_parse_proc(struct ld_model *m, const struct ld_section *lockdep,
		  const struct ld_section *chains, struct ld_diag *d);
int ld_parse_proc_stats(struct ld_model *m, const struct ld_section *s,
			struct ld_diag *d);
int ld_parse_lock_stat(struct ld_model *m, const struct ld_section *s,
		       struct ld_diag *d);
/* The export: all present files at once (they refer to each other). */
int ld_parse_export(struct ld_model *m, struct ld_section *const files[6],
		    struct ld_diag *d);
enum {
	LD_EX_CLASSES,
	LD_EX_DEPS,
	LD_EX_TRACES,
	LD_EX_USAGE,
	LD_EX_CHAINS,
	LD_EX_STATS,
	LD_EX_NR
};
extern const char *const ld_export_files[LD_EX_NR];

/* Snapshot file */
void ld_sections_free(struct ld_section *s, uint32_t n);
/*
 * A path's snapshots, unmerged: one model, or each part of a saved union
 * (snapshot version 2), appended to @in[*n] (at most @max in all).
 */
int ld_load_parts(const char *path, struct ld_model **in, uint32_t *n,
		  uint32_t max, struct ld_diag *d);
/*
 * ld_merge() of @in[0..n), then the union keeps each input's files as
 * its parts (for ld_save()) and the inputs are freed, in every case.
 */
int ld_merge_keep(struct ld_model **mp, struct ld_model **in, uint32_t n,
		  const char *origin, struct ld_diag *d);
int ld_snapshot_parse(struct ld_model *m, const char *origin, const char *data,
		      size_t len, struct ld_diag *d);

#endif /* LD_INTERNAL_H */
