// SPDX-License-Identifier: GPL-2.0
/*
 * parse_lockstat.c - /proc/lock_stat (CONFIG_LOCK_STAT), as printed by
 * seq_header() and seq_stats() in kernel/locking/lockdep_proc.c:
 *
 *   lock_stat version 0.4
 *   [*WARNING* lock debugging disabled!! - possibly due to ...]
 *   ----- (221 columns) / header row / ----- / blank
 *   per class with acquisitions, sorted by contentions:
 *     "%40s:" or "%38s-W:" then "%38s-R:"  + 12 numbers
 *     if it waited: "-----" + up to 4 contention points
 *                   "-----" + up to 4 contending points
 *                   (a block is only printed when its first point is set)
 *                   blank, "....." line, blank (only after contending)
 *   point: "%40s %14lu %29s %pS" (name, count, [<%p>], symbol)
 *
 * Two spots are ambiguous in the format itself: a class whose name ends in
 * "-W"/"-R", and a lone block of points.  See proc-interface/README.md.
 */
#include <stdlib.h>

#include "ld_internal.h"

static bool all_of(const char *p, const char *end, char c)
{
	ld_skip_spaces(&p, end);
	if (p == end)
		return false;
	for (; p < end; p++)
		if (*p != c)
			return false;
	return true;
}

/*
 * "%lld.%02d" microseconds (snprint_time()) -> units of 10 ns.  Two forms
 * that pattern allows besides the usual one are read too:
 * - a negative time (clock skew between CPUs): the remainder of the
 *   division is negative as well, "0.-31" is -0.31, "-1.-49" -1.49 and
 *   "0.-5" -0.05;
 * - before 6.7 the text was cut to 14 characters: "123456789012.3",
 *   "1234567890123." or "12345678901234", where the digits lost may have
 *   been integer ones too; *@cut is set, the value is a lower bound.
 */
static bool scan_time(const char **pp, const char *end, int64_t *v,
		      bool *cut)
{
	const char *p = *pp, *start = p;
	bool neg = false;
	uint64_t i, f = 0;
	int nf = 0;

	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	if (!ld_scan_u64(&p, end, &i) || i > INT64_MAX / 100 - 1)
		return false;
	if (p < end && *p == '.') {
		p++;
		if (p < end && *p == '-' && p + 1 < end && p[1] >= '0' &&
		    p[1] <= '9') {
			/* "%02d" of a negative remainder: "-5" is 5 hundredths */
			neg = true;
			p++;
			for (; nf < 2 && p < end && *p >= '0' && *p <= '9';
			     nf++, p++)
				f = f * 10 + (*p - '0');
			nf = 2;
		}
		for (; nf < 2 && p < end && *p >= '0' && *p <= '9'; nf++, p++)
			f = f * 10 + (*p - '0');
	} else if (p - start != 14) {
		return false;
	}
	if (p < end && *p != ' ')
		return false;
	if (nf < 2) {
		/* only the 14-character cut leaves fewer than 2 decimals */
		if (p - start != 14)
			return false;
		*cut = true;
		while (nf++ < 2)
			f *= 10;
	}
	i = i * 100 + f;
	*v = neg ? -(int64_t)i : (int64_t)i;
	*pp = p;
	return true;
}

/*
 * The 12 numbers after the name's colon; false if this is not a row, with
 * *@bad at the field that is not a number and *@badi its index (12: text
 * after the twelfth).
 */
static bool scan_row(const char *p, const char *end, int64_t v[LD_LS_NR],
		     bool *cut, const char **bad, int *badi)
{
	int i;

	for (i = 0; i < LD_LS_NR; i++) {
		uint64_t u;
		bool ok;

		*badi = i;
		*bad = p;
		if (p >= end || *p != ' ')
			return false;
		ld_skip_spaces(&p, end);
		*bad = p;
		if (ld_ls_is_time(i)) {
			ok = scan_time(&p, end, &v[i], cut);
		} else {
			ok = ld_scan_u64(&p, end, &u) && u <= INT64_MAX;
			v[i] = u;
		}
		/* "1.5" for a count: the whole token is the bad field */
		if (!ok || (p < end && *p != ' '))
			return false;
	}
	ld_skip_spaces(&p, end);
	*bad = p;
	*badi = LD_LS_NR;
	return p == end;
}

struct ls_state {
	struct ld_lockstat *cur; /* entry being filled */
	bool w_tentative; /* cur came from a "-W:" row */
	struct ld_ls_point blk[2][4];
	uint8_t nr[2];
	int nr_blocks;
	bool in_block;
};

/*
 * The row's points are complete.  seq_stats() prints the contention
 * points, then the contending points and, after those, a '....' line:
 * two blocks without it were cut or edited (true returned; both kept).
 */
static bool finish_entry(struct ls_state *st, bool dots)
{
	struct ld_lockstat *e = st->cur;
	bool damaged = st->nr_blocks == 2 && !dots;
	int b;

	if (!e)
		return false;
	if (st->w_tentative && !e->has_r) {
		/* "x-W:" not followed by "x-R:": a class named "x-W" */
		e->name.len += 2;
		st->w_tentative = false;
	}
	if (st->nr_blocks == 2 || (st->nr_blocks == 1 && !dots)) {
		memcpy(e->contention, st->blk[0], sizeof(st->blk[0]));
		e->nr_contention = st->nr[0];
	}
	b = st->nr_blocks == 2 ? 1 : 0;
	if ((dots || damaged) && st->nr_blocks) {
		memcpy(e->contending, st->blk[b], sizeof(st->blk[b]));
		e->nr_contending = st->nr[b];
	}
	st->cur = NULL;
	st->nr_blocks = 0;
	st->nr[0] = st->nr[1] = 0;
	st->in_block = false;
	return damaged;
}

static void points_cut(struct ld_model *m, const struct ld_lines *l,
		       const struct ld_lockstat *e)
{
	char q[LD_QBUF];

	m->partial = true;
	m->lockstat_cut = true;
	ld_warn(m, "%s:%lu: row '%s': contending points without the '....' line after them (the file was cut or edited)",
		l->file, l->base + l->lineno,
		ld_quote(e->name.s, e->name.len, q, sizeof(q)));
}

int ld_parse_lock_stat(struct ld_model *m, const struct ld_section *s,
		       struct ld_diag *d)
{
	struct ls_state st = { 0 };
	struct ld_lines l;
	const char *line;
	size_t len;
	int dashes = 0, ret;
	bool cut = false, truncated = false;
	struct ld_lockstat *prev;
	char q[LD_QBUF], q2[LD_QBUF];

	/* an entry takes 220 bytes in real files */
	if (ld_reserve((void **)&m->lockstat, &m->alloc_lockstat,
		       m->nr_lockstat + s->len / 128, sizeof(*m->lockstat)))
		return -ENOMEM;
	ld_lines_section(&l, s);
	if (!ld_lines_next(&l, &line, &len))
		return ld_lines_error(&l, d) ?:
			       ld_diag(d, &l,
				       "empty file, expected 'lock_stat version 0.4'");
	if (len < 18 || memcmp(line, "lock_stat version ", 18))
		return ld_diag(d, &l,
			       "expected 'lock_stat version 0.4', got '%s'",
			       ld_quote(line, len, q, sizeof(q)));
	if (len != 21 || memcmp(line + 18, "0.4", 3))
		return ld_diag(d, &l, "unsupported lock_stat version '%s'",
			       ld_quote(line + 18, len - 18, q, sizeof(q)));

	/* header: optional warning, dashes, column names, dashes */
	while (dashes < 2 && ld_lines_next(&l, &line, &len)) {
		const char *end = line + len;

		if (len >= 9 && !memcmp(line, "*WARNING*", 9))
			m->lockstat_disabled = true;
		else if (all_of(line, end, '-'))
			dashes++;
		else if (dashes == 1 && memmem(line, len, "class name", 10))
			continue;
		else
			return ld_diag(d, &l, "unexpected header line '%s'",
				       ld_quote(line, len, q, sizeof(q)));
	}
	if (dashes < 2)
		return ld_lines_error(&l, d) ?:
			       ld_diag(d, &l, "file ends inside the header");

	while (ld_lines_next(&l, &line, &len)) {
		const char *p, *end = line + len, *colon, *badf = NULL;
		int64_t v[LD_LS_NR];
		int badi = 0;

		if (l.last_unterminated) {
			ret = ld_lines_error(&l, d);
			if (ret)
				return ret;
			m->partial = true;
			m->lockstat_cut = truncated = true;
			ld_warn(m, "%s:%lu: truncated line ignored", l.file,
				l.base + l.lineno);
			break;
		}
		p = line;
		ld_skip_spaces(&p, end);
		if (p == end)
			continue;
		if (all_of(line, end, '.')) {
			if (!st.cur || !st.nr_blocks)
				return ld_diag(
					d, &l,
					"'....' line without points before it");
			finish_entry(&st, true);
			continue;
		}
		if (all_of(line, end, '-')) {
			if (!st.cur || st.nr_blocks == 2)
				return ld_diag(d, &l, "unexpected '----' line");
			st.nr_blocks++;
			st.in_block = true;
			continue;
		}
		/* the last colon: names may hold one, numbers cannot */
		colon = memrchr(line, ':', len);
		if (colon && scan_row(colon + 1, end, v, &cut, &badf, &badi)) {
			const char *name = line;
			size_t nlen;
			char rw = 0;
			struct ld_lockstat *e;

			while (name < colon && *name == ' ')
				name++;
			nlen = colon - name;
			if (nlen >= 2 && name[nlen - 2] == '-' &&
			    (name[nlen - 1] == 'W' || name[nlen - 1] == 'R'))
				rw = name[nlen - 1];
			/* "x-R:" right after "x-W:" completes that entry */
			if (rw == 'R' && st.cur && st.w_tentative &&
			    !st.cur->has_r && !st.nr_blocks &&
			    st.cur->name.len == nlen - 2 &&
			    !memcmp(st.cur->name.s, name, nlen - 2)) {
				memcpy(st.cur->r, v, sizeof(v));
				st.cur->has_r = true;
				st.w_tentative = false;
				continue;
			}
			prev = st.cur;
			if (finish_entry(&st, false))
				points_cut(m, &l, prev);
			if (ld_grow((void **)&m->lockstat, &m->alloc_lockstat,
				    m->nr_lockstat, sizeof(*m->lockstat)))
				return -ENOMEM;
			e = &m->lockstat[m->nr_lockstat++];
			memset(e, 0, sizeof(*e));
			e->class = LD_NONE;
			/* all of it: "-W" may turn out to be the name's */
			e->name = ld_arena_str(m->arena, name, nlen);
			if (!e->name.s)
				return -ENOMEM;
			e->name.len = rw ? nlen - 2 : nlen;
			if (rw == 'R') {
				memcpy(e->r, v, sizeof(v));
				e->has_r = true;
				/* or a write-only class named "x-R" */
				e->rw_guessed = true;
			} else {
				memcpy(e->w, v, sizeof(v));
				e->has_w = true;
			}
			st.cur = e;
			st.w_tentative = rw == 'W';
			continue;
		}
		/* a contention or contending point */
		if (st.in_block && len > 41 && line[40] == ' ') {
			struct ld_ls_point *pt;
			uint64_t cnt;
			const char *ip;

			p = line + 40;
			ld_skip_spaces(&p, end);
			if (!ld_scan_u64(&p, end, &cnt) || cnt > INT64_MAX)
				goto bad;
			ld_skip_spaces(&p, end);
			ip = p;
			if (!ld_eat(&p, end, "[<"))
				goto bad;
			p = memchr(p, '>', end - p);
			if (!p || !ld_eat(&p, end, ">]") || p == end ||
			    *p != ' ' || p - ip > 40)
				goto bad;
			p++;
			if (st.nr[st.nr_blocks - 1] == 4)
				return ld_diag(d, &l,
					       "more than 4 points in a block");
			pt = &st.blk[st.nr_blocks - 1]
				    [st.nr[st.nr_blocks - 1]++];
			pt->count = cnt;
			pt->sym = ld_arena_str(m->arena, p, end - p);
			if (!pt->sym.s)
				return -ENOMEM;
			continue;
		}
bad:
		/* a row, "name: " and a number first: say which field */
		p = colon ? colon + 1 : end;
		ld_skip_spaces(&p, end);
		if (colon && p > colon + 1 && p < end &&
		    ((*p >= '0' && *p <= '9') || *p == '-')) {
			const char *e = badf;

			while (e < end && *e != ' ')
				e++;
			p = line;
			ld_skip_spaces(&p, end);
			if (badi == LD_LS_NR)
				return ld_diag(d, &l,
					       "row '%s': text after its 12 numbers",
					       ld_quote(p, colon - p, q,
							sizeof(q)));
			if (badf >= end)
				return ld_diag(d, &l,
					       "row '%s': %d numbers, expected 12",
					       ld_quote(p, colon - p, q,
							sizeof(q)),
					       badi);
			return ld_diag(d, &l,
				       "row '%s': number %d of 12 (%s) is '%s'",
				       ld_quote(p, colon - p, q, sizeof(q)),
				       badi + 1, ld_ls_names[badi],
				       ld_quote(badf, e - badf, q2,
						sizeof(q2)));
		}
		p = line;
		ld_skip_spaces(&p, end);
		return ld_diag(d, &l,
			       "expected a lock_stat row or point, got '%s'",
			       ld_quote(p, end - p, q, sizeof(q)));
	}
	/* a read error: the rows have no end to be judged by */
	ret = ld_lines_error(&l, d);
	if (ret)
		return ret;
	prev = st.cur;
	if (finish_entry(&st, false) && !truncated) /* said already */
		points_cut(m, &l, prev);
	m->have.lockstat = true;
	if (cut)
		ld_warn(m,
			"%s: times cut to 14 characters by the kernel (before 6.7): those values are lower bounds",
			s->origin);
	return 0;
}
