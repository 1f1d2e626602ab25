// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - arena, line iteration, number scanning, escapes and diagnostics
 * for the parsers.  Nothing here prints.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "ld_internal.h"

#define ARENA_CHUNK (256 * 1024)

struct ld_arena_chunk {
	struct ld_arena_chunk *next;
	size_t used, size;
	char data[];
};

struct ld_arena {
	struct ld_arena_chunk *head;
};

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

void *ld_arena_alloc(struct ld_arena *a, size_t size)
{
	struct ld_arena_chunk *c = a->head;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (!c || c->size - c->used < size) {
		size_t csize = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = malloc(sizeof(*c) + csize);
		if (!c)
			return NULL;
		c->size = csize;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = c->data + c->used;
	c->used += size;
	return p;
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

int ld_grow(void **arr, uint32_t *alloc, uint32_t need, size_t size)
{
	uint32_t n = *alloc;
	void *p;

	if (need < n)
		return 0;
	if (need >= UINT32_MAX / 2)
		return -ENOMEM;
	if (!n)
		n = 16;
	while (n <= need)
		n *= 2;
	p = realloc(*arr, (size_t)n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*alloc = n;
	return 0;
}

void ld_lines_init(struct ld_lines *l, const char *file, unsigned long base,
		   const char *data, size_t len)
{
	l->p = data;
	l->end = data + len;
	l->lineno = 0;
	l->base = base;
	l->file = file;
	l->last_unterminated = false;
}

bool ld_lines_next(struct ld_lines *l, const char **line, size_t *len)
{
	const char *nl;
	size_t n;

	if (l->p >= l->end)
		return false;
	nl = memchr(l->p, '\n', l->end - l->p);
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

void ld_skip_spaces(const char **p, const char *end)
{
	while (*p < end && **p == ' ')
		(*p)++;
}

bool ld_eat(const char **p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(end - *p) < n || memcmp(*p, lit, n))
		return false;
	*p += n;
	return true;
}

bool ld_scan_u64(const char **p, const char *end, uint64_t *v)
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

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool ld_scan_hex(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int n = 0, h;

	while (s < end && (h = hexval(*s)) >= 0) {
		if (++n > 16)
			return false;
		x = x << 4 | h;
		s++;
	}
	if (!n)
		return false;
	*p = s;
	*v = x;
	return true;
}

bool ld_tok_u64(const char *s, size_t len, uint64_t *v)
{
	const char *p = s;

	return ld_scan_u64(&p, s + len, v) && p == s + len;
}

bool ld_tok_hex(const char *s, size_t len, uint64_t *v)
{
	const char *p = s;

	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	p += 2;
	return ld_scan_hex(&p, s + len, v) && p == s + len;
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

uint32_t ld_hash_bytes(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t hash64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return (uint32_t)k;
}

int ld_map_init(struct ld_map *map, uint32_t expected)
{
	uint32_t n = 64;

	while (n < expected * 2 && n < (1u << 30))
		n *= 2;
	map->keys = malloc((size_t)n * sizeof(*map->keys));
	map->vals = malloc((size_t)n * sizeof(*map->vals));
	if (!map->keys || !map->vals) {
		free(map->keys);
		free(map->vals);
		map->keys = NULL;
		map->vals = NULL;
		return -ENOMEM;
	}
	memset(map->vals, 0xff, (size_t)n * sizeof(*map->vals));
	map->mask = n - 1;
	map->nr = 0;
	return 0;
}

void ld_map_free(struct ld_map *map)
{
	free(map->keys);
	free(map->vals);
	map->keys = NULL;
	map->vals = NULL;
}

static int map_rehash(struct ld_map *map)
{
	struct ld_map n;
	uint32_t i;
	int ret;

	ret = ld_map_init(&n, (map->mask + 1));
	if (ret)
		return ret;
	for (i = 0; i <= map->mask; i++)
		if (map->vals[i] != LD_NONE)
			ld_map_put(&n, map->keys[i], map->vals[i], NULL);
	ld_map_free(map);
	*map = n;
	return 0;
}

int ld_map_put(struct ld_map *map, uint64_t key, uint32_t val, uint32_t *old)
{
	uint32_t i;

	if ((map->nr + 1) * 2 > map->mask + 1) {
		int ret = map_rehash(map);

		if (ret)
			return ret;
	}
	for (i = hash64(key) & map->mask;; i = (i + 1) & map->mask) {
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

uint32_t ld_map_get(const struct ld_map *map, uint64_t key)
{
	uint32_t i;

	if (!map->keys)
		return LD_NONE;
	for (i = hash64(key) & map->mask;; i = (i + 1) & map->mask) {
		if (map->vals[i] == LD_NONE)
			return LD_NONE;
		if (map->keys[i] == key)
			return map->vals[i];
	}
}
