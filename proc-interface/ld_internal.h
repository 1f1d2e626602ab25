/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ld_internal.h - helpers shared by the parsers and the model builder.
 * Not part of the library's interface.
 */
#ifndef LD_INTERNAL_H
#define LD_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "lockdep_model.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Bump allocator for strings that live as long as the model. */
struct ld_arena;
struct ld_arena *ld_arena_new(void);
void ld_arena_free(struct ld_arena *a);
void *ld_arena_alloc(struct ld_arena *a, size_t size);
struct ld_str ld_arena_str(struct ld_arena *a, const char *s, size_t len);

/* Grow *arr (element size @size) so that index @need fits. */
int ld_grow(void **arr, uint32_t *alloc, uint32_t need, size_t size);

/* Line iterator over a buffer; handles a missing final newline and CRLF. */
struct ld_lines {
	const char *p, *end;
	unsigned long lineno; /* of the line last returned */
	unsigned long base; /* added to lineno in diagnostics */
	const char *file;
	bool last_unterminated; /* the line last returned had no \n */
};

void ld_lines_init(struct ld_lines *l, const char *file, unsigned long base,
		   const char *data, size_t len);
/* Returns false at the end; *line is not NUL-terminated. */
bool ld_lines_next(struct ld_lines *l, const char **line, size_t *len);

/* "file:line: " + fmt, into d.  Returns -EINVAL for convenience. */
int ld_diag(struct ld_diag *d, const struct ld_lines *l, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ld_diagf(struct ld_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Quote up to 32 bytes of input for a message, escaping the unprintable. */
const char *ld_quote(const char *s, size_t len, char *buf, size_t size);
#define LD_QBUF 160

int ld_warn(struct ld_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Number scanning: advance *p; return false on no digits or overflow. */
bool ld_scan_u64(const char **p, const char *end, uint64_t *v);
bool ld_scan_i64(const char **p, const char *end, int64_t *v);
bool ld_scan_hex(const char **p, const char *end, uint64_t *v);
/* Whole token [s, s+len) as a decimal / 0x-hex number. */
bool ld_tok_u64(const char *s, size_t len, uint64_t *v);
bool ld_tok_hex(const char *s, size_t len, uint64_t *v);
void ld_skip_spaces(const char **p, const char *end);
bool ld_eat(const char **p, const char *end, const char *lit);

/* Decode C escapes (seq_escape_str) into the arena. */
int ld_unescape(struct ld_arena *a, const char *s, size_t len,
		struct ld_str *out);

/* Model building */
struct ld_model *ld_model_new(void);
uint32_t ld_add_class(struct ld_model *m); /* LD_NONE on ENOMEM */
int ld_add_dep(struct ld_model *m, const struct ld_dep *dep);
int ld_add_stat(struct ld_model *m, const struct ld_stat *st);
/* Split a printed name into base, #version, /subclass (heuristic). */
void ld_derive_name_parts(struct ld_class *c);
void ld_name_hash_build(struct ld_model *m);
int ld_model_finish(struct ld_model *m, struct ld_diag *d);

/* u64 -> u32 open addressing map (for keys and kernel ids) */
struct ld_map {
	uint64_t *keys;
	uint32_t *vals;
	uint32_t mask;
	uint32_t nr;
};
int ld_map_init(struct ld_map *map, uint32_t expected);
void ld_map_free(struct ld_map *map);
/* Insert; if the key exists, its value is kept and *old set to it. */
int ld_map_put(struct ld_map *map, uint64_t key, uint32_t val, uint32_t *old);
uint32_t ld_map_get(const struct ld_map *map, uint64_t key);

uint32_t ld_hash_bytes(const char *s, size_t len);

/* Parsers: each fills the model from one file */
int ld_parse_proc_lockdep(struct ld_model *m, const struct ld_section *s,
			  struct ld_diag *d);
int ld_parse_proc_chains(struct ld_model *m, const struct ld_section *s,
			 struct ld_diag *d);
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
int ld_snapshot_parse(struct ld_model *m, const char *origin, const char *data,
		      size_t len, struct ld_diag *d);

#endif /* LD_INTERNAL_H */
