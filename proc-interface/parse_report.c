// SPDX-License-Identifier: GPL-2.0
/*
 * parse_report.c - lockdep reports in a kernel log into records
 * (report.h).  One pass over the lines: a title opens a report, the lines
 * each print_*() function of kernel/locking/lockdep.c writes fill it, and
 * the end of its stack backtrace (or the next title) closes it.  Lines the
 * parser does not know are skipped, and a lock may come up to two lines
 * after the line announcing it, so most messages of other CPUs between a
 * report's lines do no harm; one inside a stack ends that stack there.
 * With CONFIG_PRINTK_CALLER ids on the lines, those of other callers are
 * skipped altogether.
 */
#include <stdlib.h>

#include "ld_internal.h"
#include "report.h"

static const char *const kind_names[LD_RK_NR] = {
#define LD_X(k, s) s,
	LD_REPORT_KINDS(LD_X)
#undef LD_X
};

static const char *const role_names[LD_RR_NR] = {
#define LD_X(k, s) s,
	LD_REPORT_ROLES(LD_X)
#undef LD_X
};

const char *ld_report_kind_name(unsigned int kind)
{
	return kind < LD_RK_NR ? kind_names[kind] : "?";
}

const char *ld_report_role_name(unsigned int role)
{
	return role < LD_RR_NR ? role_names[role] : "?";
}

uint16_t ld_rlock_usage(const struct ld_rlock *l, uint16_t *known)
{
	/* get_usage_chars(): per state, the write then the read variant */
	static const unsigned int in_bit[4] = {
		LD_USED_IN_HARDIRQ,
		LD_USED_IN_HARDIRQ_READ,
		LD_USED_IN_SOFTIRQ,
		LD_USED_IN_SOFTIRQ_READ,
	};
	uint16_t u = 0, k = 0;
	unsigned int i;

	for (i = 0; i < 4 && l->usage[i]; i++) {
		unsigned int in = 1u << in_bit[i], en = 1u << (in_bit[i] + 2);

		switch (l->usage[i]) {
		case '-':
			u |= in;
			break;
		case '+':
			u |= en;
			break;
		case '?':
			u |= in | en;
			break;
		case '.':
			break;
		default:
			continue;
		}
		k |= in | en;
	}
	if (known)
		*known = k;
	return u;
}

/* Line helpers ------------------------------------------------------------ */

static bool starts(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && !memcmp(s, lit, n);
}

static bool ends(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit);

	return len >= n && !memcmp(s + len - n, lit, n);
}

static const char *find(const char *s, size_t len, const char *lit)
{
	size_t n = strlen(lit), i;

	for (i = 0; n && i + n <= len; i++)
		if (s[i] == lit[0] && !memcmp(s + i, lit, n))
			return s + i;
	return NULL;
}

static bool isdig(char c)
{
	return c >= '0' && c <= '9';
}

static bool isxdig(char c)
{
	return isdig(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "[   12.345678]" or "[  T123]" / "[ C0]": length with the space after */
/*
 * CONFIG_PRINTK_CALLER's "T<pid>" or "C<cpu>" as a number: the kind in
 * the top bit, 0 when too long.  Every line of one lockdep report has the
 * caller of its title, so a line of another caller inside a report is
 * another task's or CPU's: the parser skips it (ld_parse_reports()).
 */
static uint64_t caller_id(const char *s, size_t len)
{
	uint64_t v = 0;
	size_t i;

	if (len < 2 || len > 12)
		return 0;
	for (i = 1; i < len; i++)
		v = v * 10 + (s[i] - '0');
	return (s[0] == 'C' ? 1ull << 63 : 0) | (v + 1);
}

static size_t bracket_prefix(const char *s, size_t len, uint64_t *caller)
{
	size_t i = 1, d = 0, n;

	if (!len || s[0] != '[')
		return 0;
	while (i < len && s[i] == ' ')
		i++;
	if (i < len && (s[i] == 'T' || s[i] == 'C') && i + 1 < len &&
	    isdig(s[i + 1])) {
		size_t c = i++;

		while (i < len && isdig(s[i]))
			i++;
		if (i < len && s[i] == ']')
			*caller = caller_id(s + c, i - c);
	} else {
		while (i < len && isdig(s[i])) {
			i++;
			d++;
		}
		if (!d && i < len && s[i] == '<')
			goto delta; /* dmesg -d -t: "[<    0.000450>]" */
		if (!d || i >= len || s[i] != '.')
			goto weekday;
		i++;
		while (i < len && isdig(s[i]))
			i++;
		if (i + 1 < len && s[i] == ' ' && s[i + 1] == '<') {
			i++; /* dmesg -d: "[   14.204052 <    0.000450>]" */
delta:
			for (i++; i < len && s[i] == ' '; i++)
				;
			for (d = 0; i < len && isdig(s[i]); i++)
				d++;
			if (!d || i >= len || s[i++] != '.')
				return 0;
			while (i < len && isdig(s[i]))
				i++;
			if (i >= len || s[i++] != '>')
				return 0;
		}
	}
	if (i >= len || s[i] != ']')
		return 0;
	i++;
	if (i < len && s[i] == ' ')
		i++;
	return i;
weekday:
	/* dmesg -T: "[Thu Dec  3 08:00:00 2026] " */
	for (i = 1; i < len && i < 40 && s[i] != ']'; i++)
		if (!(s[i] == ' ' || s[i] == ':' || isdig(s[i]) ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z')))
			return 0;
	if (i >= len || s[i] != ']' || i < 20)
		return 0;
	for (n = 1; n + 8 <= i; n++) /* "hh:mm:ss" somewhere */
		if (isdig(s[n]) && isdig(s[n + 1]) && s[n + 2] == ':' &&
		    isdig(s[n + 3]) && isdig(s[n + 4]) && s[n + 5] == ':' &&
		    isdig(s[n + 6]) && isdig(s[n + 7]))
			break;
	if (n + 8 > i)
		return 0;
	i++;
	if (i < len && s[i] == ' ')
		i++;
	return i;
}

/* "2026-12-03T08:00:14,204052+00:00 ": length with the space after */
static size_t iso_prefix(const char *s, size_t len)
{
	size_t i;

	if (len < 20 || !isdig(s[0]) || !isdig(s[1]) || !isdig(s[2]) ||
	    !isdig(s[3]) || s[4] != '-' || !isdig(s[5]) || !isdig(s[6]) ||
	    s[7] != '-' || !isdig(s[8]) || !isdig(s[9]) || s[10] != 'T' ||
	    !isdig(s[11]) || !isdig(s[12]) || s[13] != ':')
		return 0;
	for (i = 14; i < len && i < 48 && s[i] != ' '; i++)
		if (!isdig(s[i]) && !strchr(":,.+-Z", s[i]))
			return 0;
	return i < len && s[i] == ' ' ? i + 1 : 0;
}

/* dmesg -x (--decode): "kern  :warn  : ", facility and level names */
static size_t decode_prefix(const char *s, size_t len)
{
	static const char *const fac[] = {
		"kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
		"news", "uucp", "cron", "authpriv", "ftp", "local0", "local1",
		"local2", "local3", "local4", "local5", "local6", "local7",
	};
	static const char *const lvl[] = { "emerg", "alert", "crit",
					   "err",   "warn",  "notice",
					   "info",  "debug" };
	size_t i, n, k;

	for (k = 0; k < ARRAY_SIZE(fac); k++) {
		n = strlen(fac[k]);
		if (len > n && !memcmp(s, fac[k], n) &&
		    (s[n] == ' ' || s[n] == ':'))
			break;
	}
	if (k == ARRAY_SIZE(fac))
		return 0;
	for (i = n; i < len && s[i] == ' '; i++)
		;
	if (i >= len || s[i++] != ':')
		return 0;
	for (k = 0; k < ARRAY_SIZE(lvl); k++) {
		n = strlen(lvl[k]);
		if (len - i > n && !memcmp(s + i, lvl[k], n) &&
		    (s[i + n] == ' ' || s[i + n] == ':'))
			break;
	}
	if (k == ARRAY_SIZE(lvl))
		return 0;
	for (i += n; i < len && s[i] == ' '; i++)
		;
	if (i >= len || s[i++] != ':')
		return 0;
	return i < len && s[i] == ' ' ? i + 1 : i;
}

/* Strip what logs and mail add in front of the kernel's text. */
static void normalize(const char **sp, size_t *lenp, uint64_t *caller)
{
	const char *s = *sp;
	size_t len = *lenp, n;
	const char *k;
	bool again = true;

	/* a serial console's NULs (after a reset) and line ends */
	while (len && (s[len - 1] == '\r' || s[len - 1] == '\n' ||
		       s[len - 1] == '\0'))
		len--;
	while (len && s[0] == '\0')
		s++, len--;
	while (again && len) {
		again = false;
		if (s[0] == '<' && len > 2) { /* syslog level */
			for (n = 1; n < len && n < 5 && isdig(s[n]); n++)
				;
			if (n > 1 && n < len && s[n] == '>') {
				s += n + 1;
				len -= n + 1;
				again = true;
				continue;
			}
		}
		if (isdig(s[0])) {
			/* /dev/kmsg "6,123,456,-;", "...,-,caller=T71;" */
			const char *c = find(s, len < 64 ? len : 64, ",caller=");
			size_t e = c ? (size_t)(c - s) : len;

			for (n = 0; n < e && n < 64 && s[n] != ';' &&
				    (isdig(s[n]) || s[n] == ',' ||
				     s[n] == '-' || s[n] == 'c' || s[n] == '+');
			     n++)
				;
			if (c && n == e && n + 9 < len &&
			    (s[n + 8] == 'T' || s[n + 8] == 'C')) {
				size_t k0 = n + 8;

				for (n += 9; n < len && isdig(s[n]); n++)
					;
				if (n < len && s[n] == ';')
					*caller = caller_id(s + k0, n - k0);
			}
			if (n < len && s[n] == ';' && memchr(s, ',', n)) {
				s += n + 1;
				len -= n + 1;
				again = true;
				continue;
			}
			/* dmesg --time-format=iso "2026-12-03T08:00:14,204052+00:00 " */
			n = iso_prefix(s, len);
			if (n) {
				s += n;
				len -= n;
				again = true;
				continue;
			}
		}
		n = decode_prefix(s, len);
		if (n) { /* dmesg -x "kern  :warn  : " */
			s += n;
			len -= n;
			again = true;
			continue;
		}
		if (s[0] == '>') { /* mail quoting */
			s++;
			len--;
			if (len && s[0] == ' ')
				s++, len--;
			again = true;
			continue;
		}
		n = bracket_prefix(s, len, caller);
		if (n) {
			s += n;
			len -= n;
			again = true;
			continue;
		}
		/* journal: "Dec 03 08:00:00 host kernel: " */
		k = s[0] != ' ' ? find(s, len < 96 ? len : 96, " kernel: ") :
				  NULL;
		if (k) {
			n = k + 9 - s;
			s += n;
			len -= n;
			again = true;
		}
	}
	*sp = s;
	*lenp = len;
}

static void trim(const char **s, size_t *len)
{
	while (*len && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
	while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
		(*len)--;
}

/* Parser state ------------------------------------------------------------- */

enum mode {
	M_BODY,
	M_CHAIN,
	M_BLOCKS,
	M_SCENARIO,
	M_HELD,
	M_BACKTRACE,
	M_ALL_LOCKS
};
enum target {
	T_NONE,
	T_BACKTRACE,
	T_USAGE,
	T_SAFE,
	T_UNSAFE,
	T_CHAIN,
	T_BLOCK,
	T_DISCARD
};
enum expect { E_NONE, E_LOCK, E_NAME, E_DEP, E_RELEASE_AT, E_NEST };

struct centry { /* a "-> #N" block */
	uint32_t num, lock, stack;
};

struct bentry { /* a dependency block of a path section */
	uint32_t section, lock, stack;
};

struct pst {
	struct ld_reports *rs;
	struct ld_report *cur;
	enum mode mode;
	enum expect expect;
	uint8_t expect_role;
	unsigned long expect_line; /* where an E_LOCK or E_NAME was set */
	enum target target;
	uint32_t target_idx;
	uint32_t stack; /* stack being filled, LD_NONE: none */
	uint32_t ended; /* the stack end_stack() ended last, LD_NONE: none */
	enum target ended_target;
	uint32_t section; /* 1, 2 (safe-unsafe), 3 (inversion) */
	/* lines that may still come before the kernel's (0: not waited for) */
	uint8_t kernel_wait;
	bool in_calltrace;
	/*
	 * Inside one of the parts x86 marks in a Call Trace ("<IRQ>" ..
	 * "</IRQ>", "<TASK>" .. "</TASK>", since 5.16): a line before its
	 * end mark is not the dump's end.  Older kernels mark the irq part
	 * alone ("<IRQ>" .. "<EOI>" or "</IRQ>"), the task's not at all.
	 */
	bool in_task;
	/*
	 * The line of the end mark of a part that is not the task's
	 * ("</IRQ>", "<EOI>"): on 5.16 and later "<TASK>" follows, and
	 * another CPU's line or two may come first.  0 once a frame or
	 * a mark came after it.
	 */
	unsigned long part_end;
	/*
	 * The line that ended a stack without being a blank or a structural
	 * one (another CPU's, maybe), with the mode it came in: frames on
	 * the line after it still belong to that stack
	 */
	unsigned long broke_line;
	enum mode broke_mode;
	uint32_t broke_sig; /* what was parsed then (parsed_sig()) */
	unsigned long calltrace_line; /* of "Call Trace:" */
	bool nest_paused; /* "Nested lock was not taken": first stack done */
	/*
	 * Another splat ("------------[ cut here ]", "WARNING: CPU: ...")
	 * inside the report, from this line on (0: none): its lines are
	 * skipped up to its "---[ end trace ... ]---", then the report and
	 * the stack it cut go on; without that end, the report was cut short
	 */
	unsigned long splat;
	bool splat_cut_stack;
	unsigned long splat_from, splat_to; /* the last one skipped */
	unsigned long held_line; /* of "N locks held by" or the last lock */
	bool held_skipped; /* a line among them was not theirs */
	uint32_t idle; /* lines since the last one understood */
	struct centry *ch;
	uint32_t nr_ch, alloc_ch;
	int64_t ch_max; /* the highest "-> #N" seen, -1: none */
	int64_t ch_pending; /* "-> #N" whose lock is on a line to come */
	uint32_t ch_wait; /* lines it waits for that lock */
	struct bentry *bl;
	uint32_t nr_bl, alloc_bl;
	uint32_t *held;
	uint32_t nr_held, alloc_held;
	uint32_t last_lock; /* the lock parsed from the last line */
	unsigned long last_line;
	uint64_t caller; /* the title's (caller_id()), 0: none */
	unsigned long own_last; /* the last line of that caller */
	bool foreign_after; /* another caller's lines came after it */
};

static struct ld_str sdup(struct ld_reports *rs, const char *s, size_t len)
{
	struct ld_str r = ld_arena_str(rs->arena, s, len);

	return r;
}

static int new_stack(struct pst *p, enum target t, uint32_t idx)
{
	struct ld_reports *rs = p->rs;

	if (ld_grow((void **)&rs->stacks, &rs->alloc_stacks, rs->nr_stacks,
		    sizeof(*rs->stacks)))
		return -ENOMEM;
	rs->stacks[rs->nr_stacks].first = rs->nr_frames;
	rs->stacks[rs->nr_stacks].nr = 0;
	p->stack = rs->nr_stacks++;
	p->target = t;
	p->target_idx = idx;
	switch (t) {
	case T_BACKTRACE:
		p->cur->backtrace = p->stack;
		break;
	case T_USAGE:
		p->cur->usage_stack = p->stack;
		break;
	case T_SAFE:
		p->cur->safe_stack = p->stack;
		break;
	case T_UNSAFE:
		p->cur->unsafe_stack = p->stack;
		break;
	case T_CHAIN:
		p->ch[idx].stack = p->stack;
		break;
	case T_BLOCK:
		p->bl[idx].stack = p->stack;
		break;
	default:
		break;
	}
	return 0;
}

static void end_stack(struct pst *p)
{
	if (p->stack != LD_NONE) {
		p->ended = p->stack;
		p->ended_target = p->target;
	}
	p->stack = LD_NONE;
	p->target = T_NONE;
}

/*
 * x86 prints the registers where the unwinder leaves an irq stack for the
 * task's ("RIP: 0010:...", "Code: ...", "RSP: ..."), then goes on with the
 * same trace: the frames after them belong to the stack before them, as
 * long as no other stack was started since.
 */
static void resume_stack(struct pst *p)
{
	const struct ld_reports *rs = p->rs;
	uint32_t s = p->ended;

	if (p->stack != LD_NONE || s == LD_NONE || s + 1 != rs->nr_stacks ||
	    rs->stacks[s].first + rs->stacks[s].nr != rs->nr_frames)
		return;
	p->stack = s;
	p->target = p->ended_target;
}

static int add_frame(struct pst *p, const char *s, size_t len)
{
	struct ld_reports *rs = p->rs;
	struct ld_str f;

	/* old kernels: "[<ffffffff81000000>] sym" */
	if (starts(s, len, "[<")) {
		const char *e = find(s, len, ">] ");

		if (e) {
			len -= e + 3 - s;
			s = e + 3;
		}
	}
	if (p->target == T_DISCARD)
		return 0;
	f = sdup(rs, s, len);
	if (!f.s || ld_grow((void **)&rs->frames, &rs->alloc_frames,
			    rs->nr_frames, sizeof(*rs->frames)))
		return -ENOMEM;
	rs->frames[rs->nr_frames++] = f;
	rs->stacks[p->stack].nr++;
	return 0;
}

/* "sym+0x0/0x18 [mod]" -> "sym[mod]", as the export prints key symbols */
static struct ld_str key_sym(struct ld_reports *rs, const char *s, size_t len)
{
	char buf[512];
	size_t n = 0, i;
	const char *br = memchr(s, '[', len);

	for (i = 0; i < len && s[i] != '+' && s[i] != ' ' && n < 256; i++)
		buf[n++] = s[i];
	if (br && ends(s, len, "]")) {
		size_t ml = s + len - br;

		if (ml < 200) {
			memcpy(buf + n, br, ml);
			n += ml;
		}
	}
	return sdup(rs, buf, n);
}

/*
 * A lock: "[prefix](name){usage}-{o:i}[, at: sym | : | ops: N {]".
 * The name may hold parentheses ("(console_sem).lock"): it ends at the
 * first "){" that is followed by usage characters and "}".
 */
static int parse_lock(struct pst *p, const char *s, size_t len, uint8_t role,
		      uint32_t *out)
{
	struct ld_reports *rs = p->rs;
	const char *open = memchr(s, '(', len), *end = s + len, *q;
	struct ld_rlock *l;
	size_t i;

	if (!open)
		return 1;
	for (q = open + 1; q + 1 < end; q++) {
		const char *u = q + 2;

		if (q[0] != ')' || q[1] != '{')
			continue;
		while (u < end &&
		       (*u == '.' || *u == '+' || *u == '-' || *u == '?'))
			u++;
		if (u < end && *u == '}' && u > q + 2 && u - q - 2 <= 8)
			break;
	}
	if (q + 1 >= end)
		return 1;
	if (ld_grow((void **)&rs->locks, &rs->alloc_locks, rs->nr_locks,
		    sizeof(*rs->locks)))
		return -ENOMEM;
	l = &rs->locks[rs->nr_locks];
	memset(l, 0, sizeof(*l));
	l->cls = LD_NONE;
	l->role = role;
	l->wait_outer = l->wait_inner = -1;
	l->name = sdup(rs, open + 1, q - open - 1);
	if (!l->name.s)
		return -ENOMEM;
	for (i = 0, q += 2; q < end && *q != '}' && i < 8; q++)
		l->usage[i++] = *q;
	l->usage[i] = '\0';
	q++;
	if (q + 4 < end && q[0] == '-' && q[1] == '{') {
		const char *r = q + 2;
		int64_t a, b;

		if (ld_scan_i64(&r, end, &a) && ld_eat(&r, end, ":") &&
		    ld_scan_i64(&r, end, &b) && ld_eat(&r, end, "}")) {
			l->wait_outer = a;
			l->wait_inner = b;
			q = r;
		}
	}
	{
		const char *at = find(q, end - q, ", at: ");

		if (at) {
			at += 6;
			if (starts(at, end - at, "[<")) { /* old kernels */
				const char *e = find(at, end - at, ">] ");

				if (e)
					at = e + 3;
			}
			l->at = sdup(rs, at, end - at);
			if (!l->at.s)
				return -ENOMEM;
		}
	}
	*out = rs->nr_locks++;
	if (p->cur) {
		if (!p->cur->nr_locks)
			p->cur->locks = *out;
		p->cur->nr_locks = *out + 1 - p->cur->locks;
	}
	return 0;
}

/*
 * syzbot prints a lock twice when its acquire site was inlined: first
 * "at: f include/x.h:12 [inline]", then the caller.  Keep one lock, with
 * the caller as its site.  Returns true when @t was such a repeat.
 */
static bool inline_repeat(struct pst *p, const char *t, size_t tl,
			  unsigned long lineno)
{
	struct ld_rlock *prev;
	const char *open, *at;
	size_t nl;

	if (p->last_lock == LD_NONE || lineno != p->last_line + 1)
		return false;
	prev = &p->rs->locks[p->last_lock];
	open = memchr(t, '(', tl);
	at = find(t, tl, ", at: ");
	if (!open || !at || !ends(prev->at.s, prev->at.len, "[inline]"))
		return false;
	nl = prev->name.len;
	if ((size_t)(t + tl - open) < nl + 2 ||
	    memcmp(open + 1, prev->name.s, nl) || open[1 + nl] != ')')
		return false;
	prev->at = sdup(p->rs, at + 6, t + tl - at - 6);
	p->last_line = lineno;
	return true;
}

/* "comm/pid <rest>": the task, from the text before @rest */
static void parse_task(struct pst *p, const char *s, const char *rest)
{
	const char *slash = NULL, *q, *b = s;
	int64_t pid;

	while (b < rest && *b == ' ')
		b++;
	for (q = b; q < rest; q++)
		if (*q == '/')
			slash = q;
	if (!slash || p->cur->task.len)
		return;
	q = slash + 1;
	if (!ld_scan_i64(&q, rest, &pid))
		return;
	p->cur->task = sdup(p->rs, b, slash - b);
	p->cur->pid = pid;
}

/* Titles ------------------------------------------------------------------- */

static int title_kind(const char *s, size_t len, struct ld_str *irqclass)
{
	static const struct {
		const char *text;
		int kind;
	} fixed[] = {
		{ "possible circular locking dependency detected",
		  LD_RK_CIRCULAR },
		{ "possible recursive locking detected", LD_RK_RECURSIVE },
		{ "inconsistent lock state", LD_RK_INCONSISTENT },
		{ "possible irq lock inversion dependency detected",
		  LD_RK_IRQ_INVERSION },
		{ "Invalid wait context", LD_RK_WAIT_CONTEXT },
		{ "bad unlock balance detected!", LD_RK_UNLOCK_BALANCE },
		{ "held lock freed!", LD_RK_HELD_FREED },
		{ "lock held when returning to user space!", LD_RK_EXIT_USER },
		{ "Nested lock was not taken", LD_RK_NESTED },
		{ "bad contention detected!", LD_RK_CONTENTION },
		{ "chain_key collision", LD_RK_CHAIN_KEY },
		{ "suspicious RCU usage", LD_RK_RCU },
	};
	unsigned int i;

	/* old style "[ title ]"; "[ ]" overlaps itself: not a title */
	if (len >= 4 && starts(s, len, "[ ") && ends(s, len, " ]")) {
		s += 2;
		len -= 4;
	}
	if (starts(s, len, "BUG: MAX_") && ends(s, len, " too low!"))
		return LD_RK_CAPACITY;
	if (starts(s, len, "WARNING: ") || starts(s, len, "INFO: ")) {
		size_t n = s[0] == 'W' ? 9 : 6;

		s += n;
		len -= n;
	} else if (starts(s, len, "BUG: ")) {
		s += 5;
		len -= 5;
	} else {
		return -1;
	}
	/* 3.x: "[ INFO: suspicious RCU usage. ]" */
	if (len && s[len - 1] == '.')
		len--;
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		if (len == strlen(fixed[i].text) &&
		    !memcmp(s, fixed[i].text, len))
			return fixed[i].kind;
	if (ends(s, len, "-unsafe lock order detected") &&
	    find(s, len, "-safe -> ")) {
		const char *e = find(s, len, "-safe -> ");

		irqclass->s = s;
		irqclass->len = e - s;
		return LD_RK_SAFE_UNSAFE;
	}
	if (ends(s, len, " still has locks held!"))
		return LD_RK_LOCKS_HELD;
	return -1;
}

static bool kind_has_backtrace(int kind)
{
	return kind != LD_RK_EXIT_USER && kind != LD_RK_CAPACITY;
}

/* Closing a report: the cycle, the path and the canonical id. */

static int push_idx(struct ld_reports *rs, uint32_t v)
{
	if (ld_grow((void **)&rs->idx, &rs->alloc_idx, rs->nr_idx,
		    sizeof(uint32_t)))
		return -ENOMEM;
	rs->idx[rs->nr_idx++] = v;
	return 0;
}

static int push_hop(struct ld_reports *rs, struct ld_report *r, uint32_t from,
		    uint32_t to, uint32_t stack)
{
	if (ld_grow((void **)&rs->hops, &rs->alloc_hops, rs->nr_hops,
		    sizeof(*rs->hops)))
		return -ENOMEM;
	if (!r->nr_hops)
		r->hops = rs->nr_hops;
	rs->hops[rs->nr_hops].from = from;
	rs->hops[rs->nr_hops].to = to;
	rs->hops[rs->nr_hops].stack = stack;
	rs->nr_hops++;
	r->nr_hops++;
	return 0;
}

static int ch_cmp(const void *x, const void *y)
{
	const struct centry *a = x, *b = y;

	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return (a->lock > b->lock) - (a->lock < b->lock);
}

static int finish_circular(struct pst *p, struct ld_report *r)
{
	struct ld_reports *rs = p->rs;
	struct ld_str names[64], *nm = names;
	uint32_t n = p->nr_ch, i;
	int ret;

	if (!n)
		return 0;
	qsort(p->ch, n, sizeof(*p->ch), ch_cmp);
	/*
	 * Only blocks #0 to #max, each once, make the cycle: a log cut in the
	 * chain or a block whose lock was lost would make one up
	 */
	for (i = 0; i < n; i++)
		if (p->ch[i].num != i)
			return 0;
	if (p->ch_max != (int64_t)n - 1)
		return 0;
	r->cycle = rs->nr_idx;
	for (i = 0; i < n; i++) {
		ret = push_idx(rs, p->ch[i].lock);
		if (ret)
			return ret;
	}
	r->nr_cycle = n;
	for (i = 1; i < n; i++) {
		ret = push_hop(rs, r, p->ch[i - 1].lock, p->ch[i].lock,
			       p->ch[i].stack);
		if (ret)
			return ret;
	}
	/* block #0's stack: the new dependency */
	ret = push_hop(rs, r, p->ch[n - 1].lock, p->ch[0].lock, p->ch[0].stack);
	if (ret)
		return ret;
	r->new_hop = r->hops + r->nr_hops - 1;
	if (n > 64) {
		nm = malloc(n * sizeof(*nm));
		if (!nm)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		nm[i] = rs->locks[p->ch[i].lock].name;
	ld_cycle_id(nm, n, r->id);
	if (nm != names)
		free(nm);
	return 0;
}

/*
 * The blocks of path section @section, in file order or @backwards, as
 * hops from *prev on: each hop carries the stack of the block it enters,
 * or with @prev_stack the stack of the block it leaves.
 */
static int chain_blocks(struct pst *p, struct ld_report *r, uint32_t section,
			bool backwards, bool prev_stack, uint32_t *prev,
			uint32_t *nodes)
{
	uint32_t k, i, pstack = LD_NONE;
	int ret;

	for (k = 0; k < p->nr_bl; k++) {
		i = backwards ? p->nr_bl - 1 - k : k;
		if (p->bl[i].section != section)
			continue;
		if (*prev != LD_NONE) {
			ret = push_hop(p->rs, r, *prev, p->bl[i].lock,
				       prev_stack ? pstack : p->bl[i].stack);
			if (ret)
				return ret;
		}
		*prev = p->bl[i].lock;
		pstack = p->bl[i].stack;
		(*nodes)++;
	}
	return 0;
}

void ld_report_hold_acquire(const struct ld_reports *rs,
			    const struct ld_report *r, uint32_t *hold,
			    uint32_t *acquire)
{
	uint32_t i;

	*hold = *acquire = LD_NONE;
	for (i = 0; i < r->nr_locks; i++) {
		uint8_t role = rs->locks[r->locks + i].role;

		if (role == LD_RR_HOLD && *hold == LD_NONE)
			*hold = r->locks + i;
		if (role == LD_RR_ACQUIRE && *acquire == LD_NONE)
			*acquire = r->locks + i;
	}
}

/*
 * Whether path section @section ends, as lockdep prints it (from the leaf
 * to the root), with the report's lock @lk: whole, not cut short
 */
static bool section_whole(const struct pst *p, uint32_t section, uint32_t lk)
{
	const struct ld_reports *rs = p->rs;
	const struct ld_str *a, *b;
	uint32_t k;

	if (lk == LD_NONE)
		return false;
	for (k = p->nr_bl; k-- > 0;) {
		if (p->bl[k].section != section)
			continue;
		a = &rs->locks[p->bl[k].lock].name;
		b = &rs->locks[lk].name;
		/*
		 * print_lock() adds what the class's print function says
		 * ("name l=0 1:2"), a section's header does not
		 */
		if (a->len > b->len) {
			const struct ld_str *x = a;

			a = b;
			b = x;
		}
		return !memcmp(a->s, b->s, a->len) &&
		       (a->len == b->len || b->s[a->len] == ' ');
	}
	return false;
}

static int finish_path(struct pst *p, struct ld_report *r)
{
	struct ld_reports *rs = p->rs;
	uint32_t prev = LD_NONE, nodes = 0, h, a;
	int ret;

	/* inversion: printed from the other lock to the one that changed */
	if (r->kind != LD_RK_SAFE_UNSAFE) {
		uint32_t i, changed = LD_NONE;

		for (i = 0; i < r->nr_locks && changed == LD_NONE; i++)
			if (rs->locks[r->locks + i].role == LD_RR_CHANGED)
				changed = r->locks + i;
		ret = chain_blocks(p, r, 3, r->forwards, !r->forwards, &prev,
				   &nodes);
		r->path_cut = nodes && !section_whole(p, 3, changed);
		return ret;
	}
	/* section 1: safe .. held, forward, each block's stack is the hop
	 * into it; section 2: unsafe .. acquired, backwards, the last
	 * block's stack is the new dependency */
	ld_report_hold_acquire(rs, r, &h, &a);
	ret = chain_blocks(p, r, 1, false, false, &prev, &nodes);
	/*
	 * Joined where both end with their root, the held lock and the one
	 * to be acquired: a log cut inside either would join two locks
	 * that have no dependency
	 */
	if (!ret && section_whole(p, 1, h) && section_whole(p, 2, a)) {
		uint32_t before = r->nr_hops;

		ret = chain_blocks(p, r, 2, true, false, &prev, &nodes);
		/* its first hop joins them: held -> acquired */
		if (!ret && r->nr_hops > before && nodes)
			r->new_hop = r->hops + before;
	} else if (nodes) {
		r->path_cut = true;
	}
	if (ret || nodes)
		return ret;
	/* no sections printed: held -> acquired */
	if (h != LD_NONE && a != LD_NONE) {
		ret = push_hop(rs, r, h, a, LD_NONE);
		if (!ret)
			r->new_hop = r->hops + r->nr_hops - 1;
	}
	return ret;
}

static int close_report(struct pst *p, unsigned long line, bool truncated)
{
	struct ld_report *r = p->cur;
	uint32_t i;
	int ret = 0;

	if (!r)
		return 0;
	if (p->splat) { /* nothing after the other splat was the report's */
		line = p->splat - 1;
		truncated = true;
		p->splat = 0;
	} else if (p->splat_to && line >= p->splat_from &&
		   line <= p->splat_to) {
		line = p->splat_from - 1; /* it ended before one */
	}
	r->end_line = line;
	r->truncated = truncated;
	if (r->kind == LD_RK_CIRCULAR)
		ret = finish_circular(p, r);
	else if (r->kind == LD_RK_SAFE_UNSAFE || r->kind == LD_RK_IRQ_INVERSION)
		ret = finish_path(p, r);
	if (!ret && p->nr_held) {
		r->held = p->rs->nr_idx;
		for (i = 0; i < p->nr_held && !ret; i++)
			ret = push_idx(p->rs, p->held[i]);
		r->nr_held = p->nr_held;
	}
	p->cur = NULL;
	p->last_lock = LD_NONE;
	p->nr_ch = p->nr_bl = p->nr_held = 0;
	p->ch_max = p->ch_pending = -1;
	end_stack(p);
	return ret;
}

static int open_report(struct pst *p, int kind, const char *t, size_t tl,
		       struct ld_str irqclass, unsigned long line)
{
	struct ld_reports *rs = p->rs;
	struct ld_report *r;

	if (ld_grow((void **)&rs->r, &rs->alloc_r, rs->nr, sizeof(*rs->r)))
		return -ENOMEM;
	r = &rs->r[rs->nr++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->line = line;
	r->pid = -1;
	r->held_count = -1;
	r->usage_from = r->usage_to = -1;
	r->backtrace = r->usage_stack = r->safe_stack = r->unsafe_stack =
		r->new_hop = LD_NONE;
	r->title = sdup(rs, t, tl);
	if (irqclass.len)
		r->irqclass = sdup(rs, irqclass.s, irqclass.len);
	if (!r->title.s)
		return -ENOMEM;
	if (kind == LD_RK_CAPACITY || kind == LD_RK_LOCKS_HELD) {
		/* after "BUG: " or "WARNING: ", also in "[ BUG: ... ]" */
		const char *s = find(t, tl, ": ");
		const char *e = find(t, tl, kind == LD_RK_CAPACITY ?
						    " too low!" :
						    " still has locks held!");

		s = s && e && s < e ? s + 2 : t;
		if (kind == LD_RK_CAPACITY) {
			r->detail = sdup(rs, s, (e ? e : t + tl) - s);
		} else {
			p->cur = r;
			parse_task(p, s, e ? e : t + tl);
		}
	}
	p->cur = r;
	p->mode = M_BODY;
	p->expect = E_NONE;
	p->section = 0;
	/* the title, then the kernel's line; another CPU's may come first */
	p->kernel_wait = kind != LD_RK_CAPACITY ? 3 : 0;
	p->in_calltrace = false;
	p->in_task = false;
	p->part_end = 0;
	p->broke_line = 0;
	p->nest_paused = false;
	p->splat = p->splat_from = p->splat_to = 0;
	p->idle = 0;
	end_stack(p);
	p->ended = LD_NONE;
	return 0;
}

/*
 * print_lock_nested_lock_not_held() dumps the stack, then the held locks,
 * then the stack again: the end of the first dump does not end the report.
 */
static bool nest_pause(struct pst *p)
{
	if (p->cur->kind != LD_RK_NESTED || p->nest_paused)
		return false;
	end_stack(p);
	p->nest_paused = true;
	p->in_calltrace = false;
	p->in_task = false;
	p->part_end = 0;
	p->mode = M_BODY;
	p->idle = 0;
	return true;
}

/* "{IN-HARDIRQ-W}" -> the usage bit */
static int usage_from_str(const char *s, size_t len)
{
	static const char *const w[] = {
		"IN-HARDIRQ-W",	    "IN-HARDIRQ-R", "HARDIRQ-ON-W",
		"HARDIRQ-ON-R",	    "IN-SOFTIRQ-W", "IN-SOFTIRQ-R",
		"SOFTIRQ-ON-W",	    "SOFTIRQ-ON-R", "INITIAL USE",
		"INITIAL READ USE",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(w); i++)
		if (len == strlen(w[i]) && !memcmp(s, w[i], len))
			return i;
	return -1;
}

static bool is_separator(const char *t, size_t tl)
{
	size_t i;

	if (tl < 8)
		return false;
	for (i = 0; i < tl; i++)
		if (t[i] != '=' && t[i] != '-')
			return false;
	return true;
}

/* A register dump line of an x86 stack dump: "RIP: 0033:0x4b5e77" */
static bool regs_line(const char *t, size_t tl)
{
	size_t i;

	if (starts(t, tl, "Code: "))	/* the instruction bytes */
		return true;
	for (i = 0;
	     i < tl && i < 5 && ((t[i] >= 'A' && t[i] <= 'Z') || isdig(t[i]));
	     i++)
		;
	if (i < 2 || i + 2 >= tl || t[i] != ':' || t[i + 1] != ' ')
		return false;
	/* a value follows: hex digits or padding, not words */
	return t[i + 2] == ' ' || isdig(t[i + 2]) ||
	       (t[i + 2] >= 'a' && t[i + 2] <= 'f');
}

/* "Call Trace:" (x86 and most), "Call trace:" (arm64) */
static bool call_trace(const char *t, size_t tl)
{
	return starts(t, tl, "Call Trace:") || starts(t, tl, "Call trace:");
}

/* "[<ffffffff80006b2e>] sym": print_ip_sym(), unindented on RISC-V */
static bool ip_sym_frame(const char *t, size_t tl)
{
	size_t i;

	if (tl < 6 || t[0] != '[' || t[1] != '<')
		return false;
	for (i = 2; i < tl && i < 20 && isxdig(t[i]); i++)
		;
	return i > 2 && i + 2 < tl && t[i] == '>' && t[i + 1] == ']';
}

/* "<IRQ>", "<TASK>": a part of an x86 Call Trace begins ("</IRQ>" ends) */
static bool opens_part(const char *t, size_t tl)
{
	return starts(t, tl, "<") && !starts(t, tl, "</") &&
	       !starts(t, tl, "<EOI>");
}

/* Grows with whatever a line adds: blocks, locks, held locks, stacks */
static uint32_t parsed_sig(const struct pst *p)
{
	return p->nr_bl + p->nr_ch + p->nr_held + p->rs->nr_locks +
	       p->rs->nr_stacks;
}

/* A line that belongs to a stack trace */
static bool frame_like(const char *raw, size_t rl, const char *t, size_t tl)
{
	if (tl && rl && raw[0] != ' ' && raw[0] != '\t' && ip_sym_frame(t, tl))
		return true;
	if (!tl || !rl || (raw[0] != ' ' && raw[0] != '\t'))
		return false;
	if (t[0] == '#' || starts(t, tl, "-> ") || starts(t, tl, "->") ||
	    starts(t, tl, "... ") || !strncmp(t, "}", tl))
		return false;
	return true;
}

/*
 * The first line of another kind of splat; lockdep's own titles never
 * get here (ld_parse_reports() opens a report with them)
 */
static bool splat_start(const char *t, size_t tl)
{
	return starts(t, tl, "------------[ cut here ]") ||
	       starts(t, tl, "WARNING: ") || starts(t, tl, "BUG: ");
}

/* A line inside another splat that cut the report (p->splat) */
static int splat_line(struct pst *p, const char *t, size_t tl,
		      unsigned long lineno)
{
	int ret;

	if (starts(t, tl, "---[ end trace")) {
		/* the report goes on: an expected line waits as long again */
		p->expect_line += lineno + 1 - p->splat;
		if (p->splat_cut_stack)
			resume_stack(p);
		p->splat_from = p->splat;
		p->splat_to = lineno;
		p->splat = 0;
		p->idle = 0;
		return 0;
	}
	if (p->idle > 400) {
		ret = close_report(p, lineno, true);
		return ret ? ret : 1;
	}
	return 0;
}

/* One line inside a report.  Returns 1 when the line ended the report
 * and should be looked at again from outside. */
static int body_line(struct pst *p, const char *raw, size_t rl,
		     unsigned long lineno)
{
	struct ld_report *r = p->cur;
	const char *t = raw, *q;
	size_t tl = rl;
	bool cut_stack;
	uint32_t id;
	int ret, u;

	trim(&t, &tl);
	p->idle++;
	if (p->splat)
		return splat_line(p, t, tl, lineno);
	if (inline_repeat(p, t, tl, lineno))
		return 0;
	/* the frames after one line of another CPU inside a stack */
	if (p->stack == LD_NONE && p->broke_line &&
	    lineno == p->broke_line + 1 && p->mode == p->broke_mode &&
	    p->expect == E_NONE && parsed_sig(p) == p->broke_sig) {
		if (tl == 3 && !memcmp(t, "...", 3)) {
			p->broke_line = lineno; /* before the unsafe trace */
			return 0;
		}
		if (frame_like(raw, rl, t, tl))
			resume_stack(p);
	}
	/* stacks first: indented frames until a blank or structural line */
	cut_stack = p->stack != LD_NONE;
	if (p->stack != LD_NONE) {
		if (frame_like(raw, rl, t, tl) &&
		    !(p->mode == M_BACKTRACE && starts(t, tl, "</TASK>"))) {
			if (p->mode == M_BACKTRACE && starts(t, tl, "<")) {
				/* <TASK>, <IRQ>, </IRQ> */
				p->in_task = opens_part(t, tl);
				p->part_end = p->in_task ? 0 : lineno;
				return 0;
			}
			p->idle = 0;
			p->part_end = 0;
			return add_frame(p, t, tl);
		}
		if (tl == 3 && !memcmp(t, "...", 3))
			return 0; /* "..." before the unsafe trace */
		end_stack(p);
		if (tl) {
			p->broke_line = lineno;
			p->broke_mode = p->mode;
			p->broke_sig = parsed_sig(p);
		}
	}
	if (!tl) {
		/* after "</IRQ>" and another CPU's line: at the mark */
		if (p->mode == M_BACKTRACE && p->in_calltrace && !nest_pause(p))
			return close_report(p, p->part_end &&
						       lineno > p->part_end + 1 ?
					       p->part_end : lineno,
					    false) ?: 0;
		return 0;
	}
	if (is_separator(t, tl))
		return 0;
	if (p->kernel_wait) {
		/*
		 * "6.12.0 #1 Not tainted" (print_kernel_ident()); past the
		 * line right after the title, all of that: another CPU's line
		 * may have " #" or "tainted" in it
		 */
		bool first = p->kernel_wait == 3;

		p->kernel_wait--;
		if (first ? find(t, tl, " #") || find(t, tl, "ainted") :
			    isdig(t[0]) && find(t, tl, " #") &&
				    find(t, tl, "ainted")) {
			p->kernel_wait = 0;
			r->kernel = sdup(p->rs, t, tl);
			return 0;
		}
	}
	/*
	 * Another splat inside the report (another CPU's), but for after
	 * the report's end: after its stack dump (on x86 it ends with
	 * "</TASK>": inside, a splat is another CPU's; so is one right
	 * after "Call Trace:"), or after the held locks that end the kinds
	 * without one
	 */
	if (splat_start(t, tl) &&
	    !(p->mode == M_BACKTRACE && p->in_calltrace && !p->in_task &&
	      lineno > p->calltrace_line + 1) &&
	    !(p->mode == M_HELD && !kind_has_backtrace(r->kind))) {
		p->splat = lineno;
		p->splat_cut_stack = cut_stack;
		return 0;
	}
	/* the expected continuation of the previous line */
	switch (p->expect) {
	case E_LOCK:
	case E_NAME: {
		enum expect was = p->expect;

		p->expect = E_NONE;
		ret = parse_lock(p, t, tl, p->expect_role, &id);
		if (ret <= 0) {
			p->idle = 0;
			p->last_lock = id;
			p->last_line = lineno;
			return ret;
		}
		/* another CPU's line may come first: wait two lines */
		if (lineno - p->expect_line <= 2)
			p->expect = was;
		break;
	}
	case E_DEP:
		p->expect = E_NONE;
		return 0; /* "(prev) -> (next)": both are known */
	case E_RELEASE_AT:
		/* print_ip_sym(): "[<ffffffff81234567>] sym+0x1/0x2" */
		if (!ip_sym_frame(t, tl)) {
			/* another CPU's line may come first */
			if (lineno - p->expect_line > 2)
				p->expect = E_NONE;
			break;
		}
		p->expect = E_NONE;
		if (r->nr_locks) {
			struct ld_rlock *l =
				&p->rs->locks[r->locks + r->nr_locks - 1];

			q = find(t, tl, "] ");
			l->at = q ? sdup(p->rs, q + 2, t + tl - q - 2) :
				    sdup(p->rs, t, tl);
		}
		return 0;
	case E_NEST:
		/*
		 * The nest lock's class name alone, which may hold spaces: a
		 * line with ": " is another CPU's ("random: crng init done")
		 */
		if (find(t, tl, ": ")) {
			if (lineno - p->expect_line > 2)
				p->expect = E_NONE;
			break;
		}
		p->expect = E_NONE;
		r->detail = sdup(p->rs, t, tl);
		return 0;
	default:
		break;
	}

	/*
	 * After a line skipped among the held locks of a report without a
	 * stack dump, only held locks: anything else (another task's "N
	 * locks held by", a stack dump) is not the report's
	 */
	if (p->mode == M_HELD && p->held_skipped &&
	    !kind_has_backtrace(r->kind) &&
	    !(tl > 1 && t[0] == '#' && isdig(t[1]))) {
		/* cut short when a lock it announced is missing */
		ret = close_report(p, p->held_line,
				   r->held_count > (int64_t)p->nr_held);
		return ret ? ret : 1;
	}
	if (starts(t, tl, "Showing all locks held in the system")) {
		p->mode = M_ALL_LOCKS;
		return 0;
	}
	/* a stack dump without "stack backtrace:" (capacity reports) */
	if (p->mode != M_BACKTRACE && r->backtrace == LD_NONE &&
	    ((starts(t, tl, "CPU: ") && find(t, tl, " PID: ")) ||
	     call_trace(t, tl)))
		p->mode = M_BACKTRACE;
	if (p->mode == M_ALL_LOCKS)
		return 0;
	/* held locks */
	if (t[0] == '#' && tl > 3 && isdig(t[1]) && (q = memchr(t, ':', tl))) {
		ret = parse_lock(p, q + 1, t + tl - q - 1, LD_RR_HELD, &id);
		if (ret < 0)
			return ret;
		if (!ret && ld_grow((void **)&p->held, &p->alloc_held,
				    p->nr_held, sizeof(uint32_t)))
			return -ENOMEM;
		if (!ret) {
			p->held[p->nr_held++] = id;
			p->last_lock = id;
			p->last_line = p->held_line = lineno;
		}
		p->idle = 0;
		return 0;
	}
	if ((q = find(t, tl, " held by ")) &&
	    (ends(t, tl, ":") || ends(t, tl, "."))) {
		const char *s = t;
		int64_t n;

		if (starts(t, tl, "no locks held by "))
			r->held_count = 0;
		else if (ld_scan_i64(&s, q, &n))
			r->held_count = n;
		else
			goto other;
		parse_task(p, q + 9, t + tl - 1);
		p->mode = M_HELD;
		p->held_line = lineno;
		p->held_skipped = false;
		p->idle = 0;
		return 0;
	}
	if (p->mode == M_HELD && !kind_has_backtrace(r->kind) &&
	    !starts(t, tl, "Showing all locks") && !starts(t, tl, "depth:")) {
		/* a lock still to come: this may be another CPU's line */
		if (r->held_count > (int64_t)p->nr_held &&
		    lineno - p->held_line <= 2) {
			p->held_skipped = true;
			return 0;
		}
		ret = close_report(p, p->held_skipped ? p->held_line :
							lineno - 1,
				   r->held_count > (int64_t)p->nr_held);
		return ret ? ret : 1;
	}
other:
	if (p->mode == M_BACKTRACE) {
		if (starts(t, tl, "CPU: ")) {
			const char *pid = find(t, tl, " PID: ");
			const char *comm = find(t, tl, " Comm: ");

			if (pid && comm && !r->task.len) {
				const char *s = pid + 6, *e;
				int64_t v;

				if (ld_scan_i64(&s, t + tl, &v))
					r->pid = v;
				s = comm + 7;
				e = find(s, t + tl - s, " ");
				r->task = sdup(p->rs, s, (e ? e : t + tl) - s);
			}
			return 0;
		}
		if (call_trace(t, tl)) {
			p->in_calltrace = true;
			p->calltrace_line = lineno;
			p->idle = 0;
			/* the second dump of a nested-lock report repeats
			 * the first */
			return new_stack(p, r->backtrace == LD_NONE ?
						    T_BACKTRACE :
						    T_DISCARD, 0);
		}
		/* "</IRQ>", "</NMI>", "</SOFTIRQ>": the task's part follows */
		if (starts(t, tl, "</TASK>")) {
			if (nest_pause(p))
				return 0;
			return close_report(p, lineno, false);
		}
		if (starts(t, tl, "<")) {
			p->in_task = p->in_calltrace && opens_part(t, tl);
			p->part_end = p->in_calltrace && !p->in_task ? lineno :
								       0;
			return 0;
		}
		if (p->in_calltrace && regs_line(t, tl)) {
			resume_stack(p); /* "RIP: 0010:...", "RAX: ..." */
			p->idle = 0;
			return 0;
		}
		if (p->in_calltrace && ip_sym_frame(t, tl))
			return 0; /* a frame the stack above did not take */
		if (p->idle > 400) { /* a dump that never ends */
			ret = close_report(p, lineno - p->idle, false);
			return ret ? ret : 1;
		}
		/*
		 * Before "</TASK>", another CPU's lines (two in a row at
		 * most: more, and the dump lost its end): the dump goes on;
		 * so it does after "</IRQ>", where "<TASK>" may follow;
		 * without those marks (not x86), one right after "Call
		 * Trace:" is not the dump's end either
		 */
		if (((p->in_task && p->idle <= 2) ||
		     (p->part_end && lineno - p->part_end <= 2) ||
		     (p->in_calltrace && lineno - p->calltrace_line <= 2)) &&
		    raw[0] != ' ' && raw[0] != '\t') {
			resume_stack(p);
			return 0;
		}
		if (p->in_calltrace && raw[0] != ' ' && raw[0] != '\t') {
			if (nest_pause(p))
				goto structural;
			/*
			 * a part without its end mark: it ended at its frame;
			 * lines after "</IRQ>" and no "<TASK>": at the mark
			 */
			ret = close_report(p, p->in_task  ? lineno - p->idle :
					      p->part_end ? p->part_end :
							    lineno - 1,
					   false);
			return ret ? ret : 1;
		}
		return 0;
	}
structural:

	if (starts(t, tl, "stack backtrace:")) {
		p->mode = M_BACKTRACE;
		p->in_calltrace = false;
		p->idle = 0;
		return 0;
	}
	if (starts(t, tl, "other info that might help us debug this")) {
		p->mode = M_SCENARIO;
		return 0;
	}
	if (starts(t, tl, "the existing dependency chain")) {
		p->mode = M_CHAIN;
		return 0;
	}
	/*
	 * "-> #N" and its lock are two printk calls: another CPU's line can
	 * come between them, so a bare "-> #N" waits a few lines for its lock
	 */
	if (p->ch_pending >= 0 && !p->ch_wait--)
		p->ch_pending = -1;
	if ((starts(t, tl, "-> #") || p->ch_pending >= 0) &&
	    r->kind == LD_RK_CIRCULAR) {
		bool header = starts(t, tl, "-> #");
		const char *s = t;
		int64_t num = p->ch_pending;
		struct centry *c;

		if (header) {
			s = t + 4;
			if (!ld_scan_i64(&s, t + tl, &num) || num < 0)
				return 0;
			if (num > p->ch_max)
				p->ch_max = num;
			p->ch_pending = -1;
		}
		ret = parse_lock(p, s, t + tl - s, LD_RR_CYCLE, &id);
		if (ret < 0)
			return ret;
		if (ret && header && s == t + tl) {
			/* nothing after "-> #N" */
			p->ch_pending = num;
			p->ch_wait = 3;
			return 0;
		}
		if (ret && header)
			return 0;
		if (ret)
			goto not_block; /* not the lock: another line */
		p->ch_pending = -1;
		if (ld_grow((void **)&p->ch, &p->alloc_ch, p->nr_ch,
			    sizeof(*p->ch)))
			return -ENOMEM;
		c = &p->ch[p->nr_ch++];
		c->num = num;
		c->lock = id;
		c->stack = LD_NONE;
		p->mode = M_CHAIN;
		p->idle = 0;
		return new_stack(p, T_CHAIN, p->nr_ch - 1);
	}
not_block:
	/* dependency path sections */
	if (starts(t, tl, "the dependencies between") &&
	    find(t, tl, "irq-safe lock and the holding lock")) {
		p->mode = M_BLOCKS;
		p->section = 1;
		return 0;
	}
	if (starts(t, tl, "the dependencies between the lock to be acquired")) {
		p->mode = M_BLOCKS;
		p->section = 2;
		return 0;
	}
	if (starts(t, tl, "the shortest dependencies between 2nd lock")) {
		p->mode = M_BLOCKS;
		p->section = 3;
		return 0;
	}
	if (p->mode == M_BLOCKS) {
		if (starts(t, tl, "->") && !starts(t, tl, "-> #")) {
			struct bentry *b;

			ret = parse_lock(p, t + 2, tl - 2, LD_RR_PATH, &id);
			if (ret)
				return ret < 0 ? ret : 0;
			if (ld_grow((void **)&p->bl, &p->alloc_bl, p->nr_bl,
				    sizeof(*p->bl)))
				return -ENOMEM;
			b = &p->bl[p->nr_bl++];
			b->section = p->section;
			b->lock = id;
			b->stack = LD_NONE;
			p->idle = 0;
			return 0;
		}
		if (starts(t, tl, "... key") && p->nr_bl) {
			struct ld_rlock *l =
				&p->rs->locks[p->bl[p->nr_bl - 1].lock];

			q = find(t, tl, "] ");
			if (q)
				l->key = key_sym(p->rs, q + 2, t + tl - q - 2);
			return 0;
		}
		if (starts(t, tl, "... acquired at:") && p->nr_bl)
			return new_stack(p, T_BLOCK, p->nr_bl - 1);
		if (ends(t, tl, " at:") && usage_from_str(t, tl - 4) >= 0)
			return new_stack(p, T_DISCARD, 0);
		return 0;
	}
	if (starts(t, tl, "context-{")) {
		r->detail = sdup(p->rs, t, tl);
		return 0;
	}
	if (r->kind == LD_RK_RCU && !r->detail.len && ends(t, tl, "!") &&
	    find(t, tl, ":")) {
		r->detail = sdup(p->rs, t, tl);
		return 0;
	}
	if (p->mode == M_SCENARIO)
		return 0;

	/* the body of each kind */
	if ((q = find(t, tl, " is trying to acquire")) ||
	    (q = find(t, tl, " is trying to lock:"))) {
		parse_task(p, t, q);
		p->expect = E_LOCK;
		p->expect_line = lineno;
		p->expect_role = LD_RR_ACQUIRE;
		p->idle = 0;
		return 0;
	}
	if (starts(t, tl, "but task is already holding lock") ||
	    starts(t, tl, "and this task is already holding")) {
		p->expect = E_LOCK;
		p->expect_line = lineno;
		p->expect_role = LD_RR_HOLD;
		return 0;
	}
	if (starts(t, tl, "and the lock comparison function returns ") &&
	    ends(t, tl, ":")) {
		const char *n = t + 41, *e = t + tl - 1;
		bool neg = n < e && *n == '-';
		uint64_t v;

		n += neg;
		if (ld_scan_u64(&n, e, &v) && n == e && v <= INT32_MAX) {
			r->cmp = neg ? -(int64_t)v : (int64_t)v;
			r->cmp_known = true;
		}
		return 0;
	}
	if (starts(t, tl, "which would create a new lock dependency")) {
		p->expect = E_DEP;
		return 0;
	}
	if (starts(t, tl, "but this new dependency connects a")) {
		p->expect = E_NAME;
		p->expect_line = lineno;
		p->expect_role = LD_RR_SAFE;
		return 0;
	}
	if (starts(t, tl, "to a ") && ends(t, tl, "-irq-unsafe lock:")) {
		p->expect = E_NAME;
		p->expect_line = lineno;
		p->expect_role = LD_RR_UNSAFE;
		return 0;
	}
	if (starts(t, tl, "... which became") && ends(t, tl, "-irq-safe at:"))
		return new_stack(p, T_SAFE, 0);
	if (starts(t, tl, "... which became") && ends(t, tl, "-irq-unsafe at:"))
		return new_stack(p, T_UNSAFE, 0);
	if ((q = find(t, tl, " just changed the state of lock:"))) {
		parse_task(p, t, q);
		p->expect = E_LOCK;
		p->expect_line = lineno;
		p->expect_role = LD_RR_CHANGED;
		return 0;
	}
	if (starts(t, tl, "but this lock took another, ") ||
	    starts(t, tl, "but this lock was taken by another, ")) {
		const char *s = t + (t[14] == 't' && t[15] == 'o' ? 28 : 36);
		const char *e = find(s, t + tl - s, "-");

		r->forwards = t[14] == 't' && t[15] == 'o';
		if (e && !r->irqclass.len) {
			/* "HARDIRQ-unsafe lock" or "HARDIRQ-READ-unsafe" */
			const char *e2 =
				find(s, t + tl - s,
				     r->forwards ? "-unsafe" : "-safe");

			r->irqclass = sdup(p->rs, s, (e2 ? e2 : e) - s);
		}
		p->expect = E_NAME;
		p->expect_line = lineno;
		p->expect_role = LD_RR_OTHER;
		return 0;
	}
	if (starts(t, tl, "inconsistent {") && ends(t, tl, "} usage.")) {
		const char *a = t + 14, *ae = find(a, t + tl - a, "}");
		const char *b = ae ? find(ae, t + tl - ae, "{") : NULL;
		const char *be = b ? find(b, t + tl - b, "}") : NULL;

		if (ae && b && be) {
			u = usage_from_str(a, ae - a);
			r->usage_from = u;
			u = usage_from_str(b + 1, be - b - 1);
			r->usage_to = u;
		}
		return 0;
	}
	if ((q = find(t, tl, " [HC")) && ends(t, tl, "] takes:")) {
		parse_task(p, t, q);
		p->expect = E_LOCK;
		p->expect_line = lineno;
		p->expect_role = LD_RR_CHANGED;
		return 0;
	}
	if (t[0] == '{' && ends(t, tl, "} state was registered at:"))
		return new_stack(p, T_USAGE, 0);
	if ((q = find(t, tl, " is trying to release lock (")) ||
	    (q = find(t, tl, " is trying to contend lock ("))) {
		const char *s = q + 28, *e = t + tl;
		struct ld_rlock *l;
		bool release = q[14] == 'r';

		parse_task(p, t, q);
		if (ends(t, tl, ") at:"))
			e -= 5;
		if (ld_grow((void **)&p->rs->locks, &p->rs->alloc_locks,
			    p->rs->nr_locks, sizeof(*p->rs->locks)))
			return -ENOMEM;
		l = &p->rs->locks[p->rs->nr_locks];
		memset(l, 0, sizeof(*l));
		l->cls = LD_NONE;
		l->role = release ? LD_RR_RELEASE : LD_RR_ACQUIRE;
		l->wait_outer = l->wait_inner = -1;
		l->name = sdup(p->rs, s, e > s ? e - s : 0);
		if (!r->nr_locks)
			r->locks = p->rs->nr_locks;
		p->rs->nr_locks++;
		r->nr_locks = p->rs->nr_locks - r->locks;
		p->expect = E_RELEASE_AT;
		p->expect_line = lineno;
		return 0;
	}
	if ((q = find(t, tl, " is freeing memory "))) {
		const char *s = q + 19, *e = find(s, t + tl - s, ", with");

		parse_task(p, t, q);
		if (e)
			r->detail = sdup(p->rs, s, e - s);
		p->expect = E_LOCK;
		p->expect_line = lineno;
		p->expect_role = LD_RR_FREED;
		return 0;
	}
	if ((q = find(t, tl, " is leaving the kernel with locks still held"))) {
		parse_task(p, t, q);
		return 0;
	}
	if (starts(t, tl, "but this task is not holding:")) {
		p->expect = E_NEST;
		p->expect_line = lineno;
		return 0;
	}
	if (r->kind == LD_RK_CAPACITY && starts(t, tl, "depth: "))
		return 0;
	/* between the two stack dumps of a nested-lock report */
	if (splat_start(t, tl)) {
		p->splat = lineno;
		p->splat_cut_stack = false;
		return 0;
	}
	if (p->idle > 400) {
		ret = close_report(p, lineno - p->idle, false);
		return ret ? ret : 1;
	}
	return 0;
}

int ld_parse_reports(const char *origin, const char *data, size_t len,
		     struct ld_reports **out, struct ld_diag *d)
{
	struct ld_reports *rs = calloc(1, sizeof(*rs));
	struct pst p = { .rs = rs, .stack = LD_NONE, .ended = LD_NONE,
			 .last_lock = LD_NONE,
			 .ch_max = -1, .ch_pending = -1 };
	struct ld_lines l;
	const char *line;
	size_t ll;
	int ret = -ENOMEM;

	d->msg[0] = '\0';
	*out = NULL;
	if (!rs)
		return -ENOMEM;
	rs->arena = ld_arena_new();
	if (!rs->arena)
		goto out;
	ld_lines_init(&l, origin, 0, data, len);
	while (ld_lines_next(&l, &line, &ll)) {
		const char *s = line, *t;
		size_t sl = ll, tl;
		struct ld_str irq = { NULL, 0 };
		uint64_t caller = 0;
		int kind;

		normalize(&s, &sl, &caller);
		t = s;
		tl = sl;
		trim(&t, &tl);
		kind = title_kind(t, tl, &irq);
		if (kind >= 0) {
			ret = close_report(&p, l.lineno - 1, false);
			if (!ret)
				ret = open_report(&p, kind, t, tl, irq,
						  l.lineno);
			if (ret)
				goto out;
			p.caller = caller;
			p.own_last = l.lineno;
			p.foreign_after = false;
			continue;
		}
		if (!p.cur)
			continue;
		if (caller && p.caller && caller != p.caller) {
			/* not the report's, but lines go by (idle) */
			p.foreign_after = true;
			if (++p.idle > 400) {
				ret = close_report(&p, l.lineno - p.idle, false);
				if (ret)
					goto out;
			}
			continue;
		}
		p.foreign_after = false;
		p.own_last = l.lineno;
		ret = body_line(&p, s, sl, l.lineno);
		if (ret < 0)
			goto out;
	}
	rs->lines = l.lineno;
	/*
	 * Open at the end of the log: cut short, but for the kinds that end
	 * with the held locks (a capacity report when its stack dump has
	 * not begun), and but for a stack dump without an end marker (arm64)
	 * that only other callers' lines followed: its task printed nothing
	 * more, so it ended with that task's last line.
	 */
	if (p.cur && p.foreign_after && p.in_calltrace)
		ret = close_report(&p, p.own_last, false);
	else if (p.cur && p.part_end && l.lineno > p.part_end)
		ret = close_report(&p, p.part_end, false); /* as above */
	else
		ret = close_report(
			&p, p.cur && p.foreign_after ? p.own_last : l.lineno,
			p.cur &&
				(kind_has_backtrace(p.cur->kind) ||
				 (p.cur->kind == LD_RK_EXIT_USER &&
				  p.mode != M_HELD) ||
				 (p.cur->kind == LD_RK_CAPACITY &&
				  p.in_calltrace)));
out:
	free(p.ch);
	free(p.bl);
	free(p.held);
	if (ret) {
		if (ret == -ENOMEM)
			ld_diagf(d, "%s: out of memory", origin);
		ld_reports_free(rs);
		return ret;
	}
	*out = rs;
	return 0;
}

void ld_reports_free(struct ld_reports *rs)
{
	if (!rs)
		return;
	free(rs->r);
	free(rs->locks);
	free(rs->idx);
	free(rs->hops);
	free(rs->stacks);
	free(rs->frames);
	ld_arena_free(rs->arena);
	free(rs);
}

/*
 * The class printed as @s: its name, or its name and what its print
 * function printed after it.  A class with a lock comparison function
 * may have one (lock_set_cmp_fn()), and __print_lock_name() prints its
 * output right after the name: "(&b->lock l=0 1:2)" in bcache.  A name
 * no class has is looked up again cut at each space, longest first; a
 * name or cut that several classes have links to none.  *cut: the
 * length of the name that matched.
 */
static uint32_t find_printed(const struct ld_model *m, const char *s,
			     size_t len, size_t *cut)
{
	unsigned int n;
	uint32_t id;

	for (;;) {
		n = ld_find_class(m, s, len, &id, 1);
		if (n) {
			*cut = len;
			return n == 1 ? id : LD_NONE;
		}
		while (len && s[len - 1] != ' ')
			len--;
		if (len < 2)	/* a name, then a space */
			return LD_NONE;
		len--;
	}
}

void ld_reports_link(struct ld_reports *rs, const struct ld_model *m)
{
	uint32_t i, k;
	size_t cut;

	for (i = 0; i < rs->nr_locks; i++) {
		struct ld_rlock *l = &rs->locks[i];

		l->instance.s = NULL;
		l->instance.len = 0;
		l->cls = find_printed(m, l->name.s, l->name.len, &cut);
		if (l->cls != LD_NONE) {
			if (cut < l->name.len) { /* past the space */
				l->instance.s = l->name.s + cut + 1;
				l->instance.len = l->name.len - cut - 1;
			}
			continue;
		}
		if (!l->key.len)
			continue;
		for (k = 0; k < m->nr_classes; k++)
			if (m->classes[k].key_sym.len == l->key.len &&
			    !memcmp(m->classes[k].key_sym.s, l->key.s,
				    l->key.len)) {
				l->cls = k;
				break;
			}
	}
}
