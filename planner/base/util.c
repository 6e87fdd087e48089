/*
 * util.c - allocation, strings and strict number parsing.
 *
 * Number parsing and printing never depend on LC_NUMERIC: the planner
 * never calls setlocale(LC_NUMERIC, ...), and parse_double checks for a
 * '.' decimal point itself, so a comma-decimal locale cannot change
 * what a CSV field means.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "interrupt.h"
#include "util.h"
#include "banned.h"

static void oom(size_t size)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "gpuplan: out of memory allocating %zu bytes: nothing written\n", size);
	interrupt_fatal(msg);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p;
	if (size && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);
	if (!p)
		oom(size);
	return p;
}

void xgrow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	if (need <= *cap)
		return;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem)
			oom(SIZE_MAX);
		ncap *= 2;
	}
	*arr = xrealloc(*arr, ncap * elem);
	memset((char *)*arr + *cap * elem, 0, (ncap - *cap) * elem);
	*cap = ncap;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	char *p;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		n = 0;
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

void sb_init(struct sb *sb)
{
	sb->cap = 64;
	sb->len = 0;
	sb->buf = xmalloc(sb->cap);
	sb->buf[0] = '\0';
}

void sb_release(struct sb *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

void sb_addn(struct sb *sb, const char *s, size_t n)
{
	XGROW(sb->buf, sb->cap, sb->len + n + 1);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct sb *sb, const char *s)
{
	sb_addn(sb, s, strlen(s));
}

void sb_addf(struct sb *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;
	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	sb_adds(sb, p);
	free(p);
}

char *sb_detach(struct sb *sb)
{
	char *p = sb->buf;
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

int str_casecmp(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;
	while (*x && lower(*x) == lower(*y)) {
		x++;
		y++;
	}
	return lower(*x) - lower(*y);
}

int str_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	int row[256], prev, tmp, best;

	if (la > 254 || lb > 254)
		return 255;
	for (j = 0; j <= lb; j++)
		row[j] = (int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (int)i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			best = prev + (lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]));
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb] > 255 ? 255 : row[lb];
}

int str_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			return 0;
	return 1;
}

/* True when hay starts with needle (anywhere 0) or contains it (anywhere 1), ASCII case-insensitively. */
static int has_nocase(const char *hay, const char *needle, int anywhere)
{
	size_t n = strlen(needle), i;

	for (; *hay; hay++) {
		/* A NUL in hay mismatches, so this stops at its end. */
		for (i = 0; i < n; i++)
			if (lower((unsigned char)hay[i]) != lower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
		if (!anywhere)
			return 0;
	}
	return n == 0;
}

int str_contains_nocase(const char *hay, const char *needle)
{
	return has_nocase(hay, needle, 1);
}

int str_nearness(const char *s, const char *name)
{
	size_t len = strlen(s);
	int limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	int dist;

	if (len >= 3 && has_nocase(name, s, 0))
		return 0;
	if (len >= 3 && str_contains_nocase(name, s))
		return 1;
	dist = str_edit_distance(s, name);
	return dist <= limit ? 2 + dist : -1;
}

size_t hint_pick(const int *rank, size_t n, size_t *out)
{
	size_t i, k, m = 0, near = 0;
	int cut = -1;

	/* the ranks kept: 0 and 1 when any, else the lowest */
	for (i = 0; i < n; i++)
		if (rank[i] >= 0 && (cut < 0 || rank[i] < cut))
			cut = rank[i];
	if (cut >= 0 && cut <= 1)
		cut = 1;
	for (i = 0; i < n; i++) {
		if (rank[i] < 0 || rank[i] > cut)
			continue;
		near++;
		/* insertion into the HINT_MAX best; an equal rank stays behind (index order) */
		for (k = m; k > 0 && rank[out[k - 1]] > rank[i]; k--)
			if (k < HINT_MAX)
				out[k] = out[k - 1];
		if (k < HINT_MAX) {
			out[k] = i;
			if (m < HINT_MAX)
				m++;
		}
	}
	return near;
}

size_t str_closest(const char *s, const char *const *candidates, const char **out)
{
	size_t n = 0, i, near, idx[HINT_MAX];
	int *rank;

	while (candidates[n])
		n++;
	rank = xcalloc(n + 1, sizeof(*rank));
	for (i = 0; i < n; i++)
		rank[i] = str_nearness(s, candidates[i]);
	near = hint_pick(rank, n, idx);
	for (i = 0; i < near && i < HINT_MAX; i++)
		out[i] = candidates[idx[i]];
	free(rank);
	return near;
}

char *str_hint_text(const char *const *names, size_t n)
{
	size_t shown = n < HINT_MAX ? n : HINT_MAX, i;
	struct sb sb;

	sb_init(&sb);
	if (!n)
		return sb_detach(&sb);
	sb_adds(&sb, " (did you mean ");
	for (i = 0; i < shown; i++) {
		if (i)
			sb_adds(&sb, i + 1 == shown && n <= HINT_MAX ? " or " : ", ");
		sb_addf(&sb, "'%s'", names[i]);
	}
	if (n > HINT_MAX)
		sb_addf(&sb, " or one of %zu more", n - HINT_MAX);
	sb_adds(&sb, "?)");
	return sb_detach(&sb);
}

char *str_hint(const char *s, const char *const *candidates)
{
	const char *near[HINT_MAX];
	size_t n = 0, i;
	struct sb sb;

	i = str_closest(s, candidates, near);
	if (i)
		return str_hint_text(near, i);
	while (candidates[n])
		n++;
	sb_init(&sb);
	if (n == 0 || n > HINT_LIST_ALL)
		return sb_detach(&sb);
	sb_adds(&sb, " (expected ");
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", candidates[i]);
	sb_adds(&sb, ")");
	return sb_detach(&sb);
}

/*
 * Checks the syntax of a decimal number by hand ([+-]digits[.digits]
 * [e[+-]digits]) so that strtod's locale, hex floats, "nan" and "inf"
 * never reach it; "nan"/"inf" are reported as non-finite.
 */
static int number_syntax(const char *s, int allow_frac)
{
	const char *p = s;
	int digits = 0;

	if (*p == '+' || *p == '-')
		p++;
	while (isdigit((unsigned char)*p)) {
		p++;
		digits++;
	}
	if (allow_frac && *p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			p++;
			digits++;
		}
	}
	if (!digits)
		return 0;
	if (allow_frac && (*p == 'e' || *p == 'E')) {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return *p == '\0';
}

static int looks_nonfinite(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	return !str_casecmp(s, "nan") || !str_casecmp(s, "inf") || !str_casecmp(s, "infinity") ||
	       !str_casecmp(s, ".nan") || !str_casecmp(s, ".inf");
}

int parse_double(const char *s, double *out)
{
	double v;

	if (!s || !*s)
		return PARSE_EMPTY;
	if (looks_nonfinite(s))
		return PARSE_NONFINITE;
	if (!number_syntax(s, 1))
		return PARSE_SYNTAX;
	/* The syntax is checked; LC_NUMERIC is never changed, so strtod is "C". */
	errno = 0;
	v = strtod(s, NULL);
	if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
		return PARSE_RANGE;
	if (!isfinite(v))
		return PARSE_RANGE;
	*out = v;
	return PARSE_OK;
}

int parse_llong(const char *s, long long *out)
{
	long long v;
	char *end;

	if (!s || !*s)
		return PARSE_EMPTY;
	if (looks_nonfinite(s))
		return PARSE_NONFINITE;
	if (!number_syntax(s, 0))
		return PARSE_SYNTAX;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE)
		return PARSE_RANGE;
	if (*end)
		return PARSE_SYNTAX;
	*out = v;
	return PARSE_OK;
}

const char *parse_num_strerror(int err)
{
	switch (err) {
	case PARSE_OK:
		return "ok";
	case PARSE_EMPTY:
		return "is empty";
	case PARSE_SYNTAX:
		return "is not a number";
	case PARSE_RANGE:
		return "is out of range";
	case PARSE_NONFINITE:
		return "is not finite";
	}
	return "is invalid";
}

const char *fmt_fixed(char *buf, size_t size, double v, int decimals)
{
	char *p;
	if (v == 0)
		v = 0; /* turn -0 into 0 */
	snprintf(buf, size, "%.*f", decimals, v);
	/* A comma locale cannot reach us, but be sure the point is a '.'. */
	for (p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	if (!strcmp(buf, "-0") || !strncmp(buf, "-0.", 3)) {
		int allzero = 1;
		for (p = buf + 1; *p; p++)
			if (*p != '0' && *p != '.')
				allzero = 0;
		if (allzero)
			memmove(buf, buf + 1, strlen(buf));
	}
	return buf;
}

const char *fmt_num_short(char *buf, size_t size, double v, int decimals)
{
	char *p, *e;

	if (isfinite(v) && fabs(v) >= 1e15) {
		/* huge input echoed in a message: "1e+308", not 309 digits */
		snprintf(buf, size, "%.6g", v);
		for (p = buf; *p; p++)
			if (*p == ',')
				*p = '.';
		return buf;
	}
	fmt_fixed(buf, size, v, decimals);
	p = strchr(buf, '.');
	if (!p)
		return buf;
	e = buf + strlen(buf) - 1;
	while (e > p && *e == '0')
		*e-- = '\0';
	if (e == p)
		*e = '\0';
	return buf;
}

int range_contains(double x, double lo, double hi, int open)
{
	int lo_ok = (open & RANGE_LO_OPEN) ? x > lo : x >= lo;
	int hi_ok = (open & RANGE_HI_OPEN) ? x < hi : x <= hi;
	return lo_ok && hi_ok;
}

const char *range_text(char *buf, size_t size, double lo, double hi, int open)
{
	char a[64], b[64];
	int has_lo = lo > -DBL_MAX, has_hi = hi < DBL_MAX;

	if (has_lo && has_hi)
		snprintf(buf, size, "in %c%s, %s%c", (open & RANGE_LO_OPEN) ? '(' : '[',
			 fmt_num_short(a, sizeof(a), lo, 6), fmt_num_short(b, sizeof(b), hi, 6),
			 (open & RANGE_HI_OPEN) ? ')' : ']');
	else if (has_lo)
		snprintf(buf, size, "%s %s", (open & RANGE_LO_OPEN) ? "greater than" : "at least",
			 fmt_num_short(a, sizeof(a), lo, 6));
	else if (has_hi)
		snprintf(buf, size, "%s %s", (open & RANGE_HI_OPEN) ? "less than" : "at most",
			 fmt_num_short(b, sizeof(b), hi, 6));
	else
		snprintf(buf, size, "a number");
	return buf;
}

const char *range_text_ll(char *buf, size_t size, long long lo, long long hi)
{
	if (lo > LLONG_MIN && hi < LLONG_MAX)
		snprintf(buf, size, "in [%lld, %lld]", lo, hi);
	else if (lo > LLONG_MIN)
		snprintf(buf, size, "at least %lld", lo);
	else if (hi < LLONG_MAX)
		snprintf(buf, size, "at most %lld", hi);
	else
		snprintf(buf, size, "a whole number");
	return buf;
}

int file_open_regular(const char *path, size_t max, struct stat *st)
{
	/* O_NONBLOCK: opening a FIFO with no writer must not wait for one */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), e;

	if (fd < 0)
		return FILE_READ_OPEN;
	if (fstat(fd, st)) {
		e = errno;
		close(fd);
		errno = e;
		return FILE_READ_IO;
	}
	if (S_ISDIR(st->st_mode)) {
		close(fd);
		errno = EISDIR;
		return FILE_READ_IO;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return FILE_READ_NOT_REGULAR;
	}
	if ((unsigned long long)st->st_size > (unsigned long long)max) {
		close(fd);
		return FILE_READ_TOO_BIG;
	}
	return fd;
}

int file_read_all(const char *path, size_t max, char **buf, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	int fd = file_open_regular(path, max, &st), e;
	char *p;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	/* the size it has now, and reads until the end (a file may grow while read: up to max) */
	cap = (size_t)st.st_size + 2;
	p = xmalloc(cap);
	for (;;) {
		ssize_t got;
		if (n + 1 >= cap) {
			if (n > max)
				break;
			cap *= 2;
			p = xrealloc(p, cap);
		}
		got = read(fd, p + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			e = errno;
			free(p);
			close(fd);
			errno = e;
			return FILE_READ_IO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > max) {
		free(p);
		return FILE_READ_TOO_BIG;
	}
	p[n] = '\0';
	*buf = p;
	*len = n;
	return 0;
}

const char *file_read_strerror(char *buf, size_t size, int err, size_t max)
{
	int e = errno;

	switch (err) {
	case FILE_READ_OPEN:
		snprintf(buf, size, "cannot open: %s", strerror(e));
		break;
	case FILE_READ_IO:
		snprintf(buf, size, "cannot read: %s", strerror(e));
		break;
	case FILE_READ_NOT_REGULAR:
		snprintf(buf, size, "not a regular file (a FIFO, device or socket)");
		break;
	case FILE_READ_TOO_BIG:
		if (max >= (size_t)1 << 20 && max % ((size_t)1 << 20) == 0)
			snprintf(buf, size, "file larger than %zu MiB", max >> 20);
		else
			snprintf(buf, size, "file larger than %zu bytes", max);
		break;
	default:
		snprintf(buf, size, "cannot read the file");
		break;
	}
	return buf;
}

int ckd_add_l(long a, long b, long *out)
{
	return __builtin_add_overflow(a, b, out);
}

int ckd_mul_l(long a, long b, long *out)
{
	return __builtin_mul_overflow(a, b, out);
}

/* True when s is a plain decimal number: [+-]digits[.digits][(e|E)[+-]digits]. */
static int csv_is_number(const char *s)
{
	int digits = 0;

	if (*s == '+' || *s == '-')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

/* True when a spreadsheet would evaluate a cell beginning with c. */
static int csv_trigger(char c)
{
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r';
}

int csv_cell_neutralised(const char *s)
{
	return s[0] == '\'' && (csv_trigger(s[1]) || s[1] == '\'');
}

void sb_add_csv(struct sb *sb, const char *s)
{
	int guard = (csv_trigger(s[0]) && !csv_is_number(s)) || csv_cell_neutralised(s);

	if (!guard && !strpbrk(s, ",\"\n\r")) {
		sb_adds(sb, s);
		return;
	}
	sb_addn(sb, guard ? "\"'" : "\"", guard ? 2 : 1);
	for (; *s; s++) {
		if (*s == '"')
			sb_addn(sb, "\"", 1);
		sb_addn(sb, s, 1);
	}
	sb_addn(sb, "\"", 1);
}

double util_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double util_thread_cpu_s(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sb_add_escaped(struct sb *sb, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			sb_addf(sb, "\\x%02x", c);
		else
			sb_addn(sb, s + i, 1);
	}
}

char *str_escape_ctl(const char *s)
{
	struct sb sb;

	sb_init(&sb);
	sb_add_escaped(&sb, s, strlen(s));
	return sb_detach(&sb);
}
