/* SPDX-License-Identifier: GPL-2.0 */
/*
 * out.h - output helpers: a JSON writer (every control character and
 * invalid UTF-8 byte escaped), escaped text for names, and DOT quoting.
 * Renderers use these; nothing here parses.
 */
#ifndef LDT_OUT_H
#define LDT_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lockdep_model.h"

#define JSON_FORMAT_VERSION 1

struct jw {
	FILE *f;
	bool pretty;
	int depth;
	bool need_comma[64];
	bool after_key;
};

void jw_init(struct jw *w, FILE *f, bool pretty);
void jw_obj_start(struct jw *w);
void jw_obj_end(struct jw *w);
void jw_arr_start(struct jw *w);
void jw_arr_end(struct jw *w);
void jw_key(struct jw *w, const char *key);
void jw_strn(struct jw *w, const char *s, size_t len);
void jw_str(struct jw *w, const char *s);
void jw_int(struct jw *w, int64_t v);
void jw_uint(struct jw *w, uint64_t v);
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);
void jw_fixed2(struct jw *w, int64_t hundredths); /* 12.34 */
void jw_num(struct jw *w, struct ld_num n); /* null if unknown */
/* Begin a document: "{", "format_version", "command" */
void jw_doc_start(struct jw *w, const char *command);
void jw_doc_end(struct jw *w);

static inline void jw_kstr(struct jw *w, const char *k, const char *s)
{
	jw_key(w, k);
	jw_str(w, s);
}

static inline void jw_kstrn(struct jw *w, const char *k, struct ld_str s)
{
	jw_key(w, k);
	jw_strn(w, s.s, s.len);
}

static inline void jw_kint(struct jw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}

static inline void jw_knum(struct jw *w, const char *k, struct ld_num n)
{
	jw_key(w, k);
	jw_num(w, n);
}

static inline void jw_kbool(struct jw *w, const char *k, bool v)
{
	jw_key(w, k);
	jw_bool(w, v);
}

/* Text: printable UTF-8 as is, anything else as \xHH. */
void out_text(FILE *f, const char *s, size_t len);
/*
 * An argument echoed in a message: out_text() of at most its first 200
 * bytes, then "... (N bytes)"; a 10 MB name is not written back whole.
 */
void out_arg(FILE *f, const char *s);
/* The same in double quotes, with '"' and '\\' behind a backslash. */
void out_text_quoted(FILE *f, const char *s, size_t len);
static inline void out_str(FILE *f, struct ld_str s)
{
	out_text(f, s.s, s.len);
}
/* Width of out_text() output in columns (approximate for wide chars). */
size_t out_text_width(const char *s, size_t len);

/* DOT: a quoted string with \" \\ and control characters escaped. */
void out_dot_quoted(FILE *f, const char *s, size_t len);

/* Length of a valid UTF-8 sequence at s (1..4), or 0 if invalid. */
int utf8_seq(const unsigned char *s, size_t len);

#endif /* LDT_OUT_H */
