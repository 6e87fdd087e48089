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
 * A growable string; buf is never NULL after sb_init.  sb_detach hands
 * the buffer to the caller and leaves the sb empty.
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
char *sb_detach(struct sb *sb);

/* ASCII case-insensitive comparison, independent of the locale. */
int str_casecmp(const char *a, const char *b);
/* Levenshtein distance, ASCII case-insensitive; capped at 255. */
int str_edit_distance(const char *a, const char *b);
/* True when s is empty or only ASCII blanks. */
int str_blank(const char *s);

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
/* A message for a parse_* error, e.g. "is not a number". */
const char *parse_num_strerror(int err);

/* Locale-independent %.*f formatting into buf (size >= 64). */
const char *fmt_fixed(char *buf, size_t size, double v, int decimals);

#endif
