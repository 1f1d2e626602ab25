// SPDX-License-Identifier: GPL-2.0
/*
 * out.c - JSON writer, escaped text and DOT quoting.
 *
 * JSON strings escape '"', '\\', every byte below 0x20 and 0x7f; bytes
 * that are not valid UTF-8 become U+FFFD, so every document is valid
 * UTF-8 JSON whatever the kernel printed.
 */
#include <inttypes.h>
#include <string.h>

#include "out.h"

int utf8_seq(const unsigned char *s, size_t len)
{
	unsigned int c = s[0], n, i, cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (len < n)
		return 0;
	cp = c & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void jw_init(struct jw *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
}

static void indent(struct jw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Before any value: comma and indentation, unless it follows a key. */
static void jw_value(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (w->need_comma[w->depth])
			fputc(',', w->f);
		indent(w);
	}
	w->need_comma[w->depth] = true;
}

void jw_obj_start(struct jw *w)
{
	jw_value(w);
	fputc('{', w->f);
	if (w->depth < 63)
		w->depth++;
	w->need_comma[w->depth] = false;
}

void jw_obj_end(struct jw *w)
{
	bool had = w->need_comma[w->depth];

	w->depth--;
	if (had)
		indent(w);
	fputc('}', w->f);
	if (!w->depth)
		fputc('\n', w->f);
}

void jw_arr_start(struct jw *w)
{
	jw_value(w);
	fputc('[', w->f);
	if (w->depth < 63)
		w->depth++;
	w->need_comma[w->depth] = false;
}

void jw_arr_end(struct jw *w)
{
	bool had = w->need_comma[w->depth];

	w->depth--;
	if (had)
		indent(w);
	fputc(']', w->f);
	if (!w->depth)
		fputc('\n', w->f);
}

/*
 * How many bytes at @p the writers below copy as they are: printable
 * ASCII, without '"' and '\\' when @quote.  Class names nearly always are
 * that whole, and a name is then one fwrite(), not one a byte (each call
 * costs, and takes the stream's lock where the caller has not said it
 * need not: a real one once the load has started a thread).
 */
static size_t plain_ascii(const unsigned char *p, size_t len, bool quote)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c < 0x20 || c >= 0x7f || (quote && (c == '"' || c == '\\')))
			break;
	}
	return i;
}

static void put_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', f);
	while (i < len) {
		unsigned char c = p[i];
		size_t run = plain_ascii(p + i, len - i, true);
		int n;

		if (run) {
			fwrite(p + i, 1, run, f);
			i += run;
			continue;
		}
		switch (c) {
		case '"':
			fputs("\\\"", f);
			i++;
			continue;
		case '\\':
			fputs("\\\\", f);
			i++;
			continue;
		case '\n':
			fputs("\\n", f);
			i++;
			continue;
		case '\t':
			fputs("\\t", f);
			i++;
			continue;
		case '\r':
			fputs("\\r", f);
			i++;
			continue;
		case '\b':
			fputs("\\b", f);
			i++;
			continue;
		case '\f':
			fputs("\\f", f);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i);
		if (!n) {
			fputs("\\ufffd", f);
			i++;
			continue;
		}
		fwrite(p + i, 1, n, f);
		i += n;
	}
	fputc('"', f);
}

void jw_key(struct jw *w, const char *key)
{
	jw_value(w);
	put_json_string(w->f, key, strlen(key));
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void jw_strn(struct jw *w, const char *s, size_t len)
{
	jw_value(w);
	put_json_string(w->f, s, len);
}

void jw_str(struct jw *w, const char *s)
{
	jw_strn(w, s, strlen(s));
}

/*
 * @v in decimal, '-' first when @neg: one fwrite() instead of fprintf()'s
 * format parsing, for the 2.5 million numbers of a full-size 'chains -j'
 * (189 -> 167 ms)
 */
static void put_dec(FILE *f, uint64_t v, bool neg)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	if (neg)
		*--p = '-';
	fwrite(p, 1, buf + sizeof(buf) - p, f);
}

void jw_int(struct jw *w, int64_t v)
{
	jw_value(w);
	/* -INT64_MIN as uint64_t: 0 - (uint64_t)v */
	put_dec(w->f, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void jw_uint(struct jw *w, uint64_t v)
{
	jw_value(w);
	put_dec(w->f, v, false);
}

void jw_bool(struct jw *w, bool v)
{
	jw_value(w);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w)
{
	jw_value(w);
	fputs("null", w->f);
}

void jw_fixed2(struct jw *w, int64_t v)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;

	jw_value(w);
	fprintf(w->f, "%s%" PRIu64 ".%02u", v < 0 ? "-" : "", a / 100,
		(unsigned int)(a % 100));
}

void jw_num(struct jw *w, struct ld_num n)
{
	if (ld_known(n))
		jw_int(w, n.v);
	else
		jw_null(w);
}

void jw_doc_start(struct jw *w, const char *command)
{
	jw_obj_start(w);
	jw_kint(w, "format_version", JSON_FORMAT_VERSION);
	jw_kstr(w, "command", command);
}

void jw_doc_end(struct jw *w)
{
	jw_obj_end(w);
}

static void text(FILE *f, const char *s, size_t len, bool quoted)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t run = plain_ascii(p + i, len - i, quoted);
		int n;

		if (run) {
			fwrite(p + i, 1, run, f);
			i += run;
			continue;
		}
		if (quoted && (p[i] == '"' || p[i] == '\\')) {
			fputc('\\', f);
			fputc(p[i++], f);
			continue;
		}
		if (p[i] < 0x20 || p[i] == 0x7f) {
			fprintf(f, "\\x%02x", p[i]);
			i++;
			continue;
		}
		n = utf8_seq(p + i, len - i);
		/* C1 controls (U+0080..U+009F) can drive terminals too */
		if (!n || (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)) {
			fprintf(f, "\\x%02x", p[i]);
			i++;
			continue;
		}
		fwrite(p + i, 1, n, f);
		i += n;
	}
}

void out_text(FILE *f, const char *s, size_t len)
{
	text(f, s, len, false);
}

void out_arg(FILE *f, const char *s)
{
	size_t len = strlen(s);

	if (len <= 200) {
		text(f, s, len, false);
		return;
	}
	text(f, s, 200, false);
	fprintf(f, "... (%zu bytes)", len);
}

void out_text_quoted(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	text(f, s, len, true);
	fputc('"', f);
}

size_t out_text_width(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, w = 0;

	while (i < len) {
		int n = utf8_seq(p + i, len - i);

		if (p[i] < 0x20 || p[i] == 0x7f || !n ||
		    (n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0)) {
			w += 4;
			i++;
		} else {
			w++;
			i += n;
		}
	}
	return w;
}

void out_dot_quoted(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	fputc('"', f);
	while (i < len) {
		size_t run = plain_ascii(p + i, len - i, true);
		int n;

		if (run) {
			fwrite(p + i, 1, run, f);
			i += run;
			continue;
		}
		if (p[i] == '"' || p[i] == '\\') {
			fputc('\\', f);
			fputc(p[i++], f);
			continue;
		}
		n = utf8_seq(p + i, len - i);
		if (p[i] < 0x20 || p[i] == 0x7f || !n) {
			/* graphviz has no byte escapes: show them as text */
			fprintf(f, "\\\\x%02x", p[i]);
			i++;
			continue;
		}
		fwrite(p + i, 1, n, f);
		i += n;
	}
	fputc('"', f);
}
