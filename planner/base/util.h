/*
 * util.h - allocation, strings and strict number parsing.
 *
 * Allocation failure is fatal (a batch tool has nothing better to do):
 * the x* functions print the size asked for and abort.  Everything that
 * returns a new string or array hands ownership to the caller, who frees
 * it with free().
 */
#ifndef PLANNER_UTIL_H
#define PLANNER_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows *arr (of *cap elements of size elem) to hold at least need. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elem);
#define XGROW(arr, cap, need) xgrow((void **)&(arr), &(cap), (need), sizeof(*(arr)))
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/*
 * A growable string.  After sb_init buf is a NUL-terminated string (never
 * NULL).  sb_detach hands the buffer to the caller (who frees it) and
 * leaves the sb released without allocating: buf NULL, len = cap = 0.
 * A released sb (after sb_release or sb_detach) may be added to again,
 * which allocates; sb_release on it is a no-op.  After any sb_add* buf
 * is NUL-terminated.
 */
struct sb {
	char *buf;
	size_t len;
	size_t cap;
};
void sb_init(struct sb *sb);
void sb_release(struct sb *sb);
void sb_addf(struct sb *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_addn(struct sb *sb, const char *s, size_t n);
void sb_adds(struct sb *sb, const char *s);
/*
 * One CSV cell (RFC 4180): quoted, with quotes doubled, when it holds ,
 * " or a line break.  Every CSV gpuplan writes goes through here.  A cell
 * a spreadsheet would evaluate as a formula (beginning with = + - @ TAB
 * or CR, and not a plain number such as -1.5) is neutralised the OWASP
 * way: quoted, with a single quote before its text ("'=SUM(A1)").  So
 * that reading it back is exact, a cell that already begins with ' and
 * one of those characters or a second ' gets the same prefix.
 */
void sb_add_csv(struct sb *sb, const char *s);
/*
 * True when a cell read from a CSV carries the prefix sb_add_csv adds:
 * ' followed by = + - @ TAB CR or '.  Readers drop that first byte.
 */
int csv_cell_neutralised(const char *s);
char *sb_detach(struct sb *sb);

/* ASCII case-insensitive comparison, independent of the locale. */
int str_casecmp(const char *a, const char *b);
/* Levenshtein distance, ASCII case-insensitive; capped at 255. */
int str_edit_distance(const char *a, const char *b);
/* True when needle occurs in hay, ASCII case-insensitively. */
int str_contains_nocase(const char *hay, const char *needle);
/* True when s is empty or only ASCII blanks. */
int str_blank(const char *s);
/*
 * Hints for an unknown name: the valid names closest to it.  One rule for
 * every reader and command.  How near a valid name is to the unknown s,
 * as a rank (lower is nearer; ASCII case-insensitive):
 *   0      the name starts with s (s of 3 or more characters): "horizon"
 *          for horizon_years, "aws/p5.48xlarge" for aws/p5.48xlarge/us-east-1;
 *   1      the name contains s (s of 3 or more characters): "SXM5" for
 *          H100-SXM5-80GB;
 *   2 + d  d edits apart (Levenshtein), at most 1 edit for an s of up to 4
 *          characters, 2 up to 8, 3 beyond (so "H100" is not near "A10");
 *   -1     not near.
 * A hint lists every name that starts with or contains s; when there is
 * none, the names fewest edits away ("L40X": L40 and L40S, 1 edit each).
 */
#define HINT_MAX 3		/* names a hint lists; more are shown as "..." */
#define HINT_LIST_ALL 8		/* str_hint lists a valid set this small when nothing is near */
int str_nearness(const char *s, const char *name);
/*
 * The near ones of n ranks (as str_nearness; -1 is not near): every rank
 * 0 or 1, else (none of those) every rank equal to the lowest; lowest
 * first, ties in index order, their indices in out[0..HINT_MAX-1].
 * Returns how many are near, which may exceed HINT_MAX (out then holds
 * the first HINT_MAX).  A caller may rank by its own rule on top (e.g.
 * + 100 for a worse kind of match).
 */
size_t hint_pick(const int *rank, size_t n, size_t *out);
/*
 * The valid names nearest to s among the NULL-terminated candidates, as
 * hint_pick: into out[0..HINT_MAX-1], the count returned.
 */
size_t str_closest(const char *s, const char *const *candidates, const char **out);
/*
 * The hint that follows a message "unknown X 's'": " (did you mean 'a'?)",
 * " (did you mean 'a' or 'b'?)", " (did you mean 'a', 'b' or 'c'?)", for
 * n > HINT_MAX " (did you mean 'a', 'b', 'c' or one of N more?)"; "" for
 * n 0.  A new string (caller frees).
 */
char *str_hint_text(const char *const *names, size_t n);
/*
 * str_closest and str_hint_text at once; when no name is near and there
 * are at most HINT_LIST_ALL candidates, the valid set instead:
 * " (expected a, b or c)".  A new string, "" when neither applies.
 */
char *str_hint(const char *s, const char *const *candidates);

/*
 * Strict number parsing (the whole string must be the number, no
 * leading/trailing blanks).  Return 0 on success, PARSE_* otherwise.
 * Parsing uses the "C" numeric conventions whatever the locale.
 */
enum parse_num_err {
	PARSE_OK = 0,
	PARSE_EMPTY = -1,	/* nothing there */
	PARSE_SYNTAX = -2,	/* not a number, or trailing garbage */
	PARSE_RANGE = -3,	/* does not fit the type */
	PARSE_NONFINITE = -4,	/* NaN or infinity */
};
int parse_double(const char *s, double *out);
int parse_llong(const char *s, long long *out);

/* Seconds on the monotonic clock (for time limits, never for output). */
double util_now_s(void);
/* CPU seconds of the calling thread (for the --verbose log, never for output or a decision). */
double util_thread_cpu_s(void);
/* A message for a parse_* error, e.g. "is not a number". */
const char *parse_num_strerror(int err);

/* Locale-independent %.*f formatting into buf (size >= 64). */
const char *fmt_fixed(char *buf, size_t size, double v, int decimals);
/*
 * A number as short text for messages: at most `decimals` decimals, then
 * no trailing zeros and no bare point ("0", "30", "0.5", "-1.25"); from
 * 1e15 on, 6 significant digits with an exponent ("1e+308").  As
 * fmt_fixed: locale-independent, never "-0", buf size >= 64.
 */
const char *fmt_num_short(char *buf, size_t size, double v, int decimals);

/*
 * Number ranges in messages.  A range is lo..hi with each end closed
 * unless flagged open; lo <= -DBL_MAX or hi >= DBL_MAX (e.g. HUGE_VAL)
 * means that side has no end.
 */
enum range_open {
	RANGE_CLOSED = 0,
	RANGE_LO_OPEN = 1,	/* x > lo, not x >= lo */
	RANGE_HI_OPEN = 2,	/* x < hi, not x <= hi */
};
/* A range as above, for the readers that check one. */
struct num_range {
	double lo, hi;		/* ends (HUGE_VAL: no upper end) */
	int open;		/* enum range_open flags */
};
#define RANGE_TEXT_SIZE 160
/* True when x lies in the range. */
int range_contains(double x, double lo, double hi, int open);
/*
 * What a value must be, to follow "must be ": "in (0, 1]", "greater than 0",
 * "at least 0", "less than 1", "at most 1" (ends as fmt_num_short with 6
 * decimals).  buf size >= RANGE_TEXT_SIZE.
 */
const char *range_text(char *buf, size_t size, double lo, double hi, int open);
/* The same for integers; LLONG_MIN / LLONG_MAX mean no end. */
const char *range_text_ll(char *buf, size_t size, long long lo, long long hi);

/*
 * A copy of s with every control character (below 0x20, and 0x7f) as
 * "\xNN", for names from input printed to a terminal or into text and
 * Markdown (a line break in a name cannot start a line of its own).
 * Caller frees.
 */
char *str_escape_ctl(const char *s);
/* Appends s[0..n) with control characters as "\xNN" (str_escape_ctl's rule). */
void sb_add_escaped(struct sb *sb, const char *s, size_t n);

/*
 * Reads a whole file into a new NUL-terminated buffer (*buf, caller
 * frees; *len excludes the NUL).  Returns 0, or a FILE_READ_* error with
 * errno kept for FILE_READ_OPEN and FILE_READ_IO; *buf is NULL then.
 */
enum file_read_err {
	FILE_READ_OPEN = -1,	/* open failed */
	FILE_READ_IO = -2,	/* a read failed (a directory: EISDIR) */
	FILE_READ_TOO_BIG = -3,	/* more than max bytes */
	FILE_READ_NOT_REGULAR = -4, /* a FIFO, device or socket: never read (it could block forever) */
};
int file_read_all(const char *path, size_t max, char **buf, size_t *len);
/*
 * Every input's opener: opens path read-only with O_NONBLOCK (a FIFO
 * without a writer does not hang the open), then fstat()s it and accepts
 * only a regular file of at most max bytes.  The descriptor (st filled),
 * or a FILE_READ_* error (errno kept for OPEN and IO).
 */
struct stat;
int file_open_regular(const char *path, size_t max, struct stat *st);
/*
 * The message for a file_read_all error, read right after it (it uses
 * errno): "cannot open: No such file or directory", "cannot read: Is a
 * directory", "file larger than 1024 bytes" ("... than 16 MiB" for whole
 * MiB).  Written into buf (size >= 128).  A regular file over max fails
 * from its size, before any reading.
 */
const char *file_read_strerror(char *buf, size_t size, int err, size_t max);

/*
 * Input limits of one run, checked by the loaders so that hostile or
 * mistaken input fails with a message instead of exhausting memory:
 * files (UTIL_MAX_FILE_BYTES for CSV, YDOC_MAX_BYTES for YAML), lines and
 * rows (csvdoc.h), and the replicas of all workloads.
 */
#define LIMIT_TOTAL_REPLICAS 1000000L	/* replicas over all workloads */
#define UTIL_MAX_FILE_BYTES (256L * 1024 * 1024) /* a CSV input file */

/*
 * Overflow-checked arithmetic: *out = a + b (a * b); returns 1 (and *out
 * wrapped) when the exact result does not fit a long, else 0.
 */
int ckd_add_l(long a, long b, long *out);
int ckd_mul_l(long a, long b, long *out);

#endif
