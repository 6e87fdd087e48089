/*
 * diag.h - diagnostics with a position: the core's only way to fail.
 *
 * Core functions that can fail on input take a struct diag * and, on
 * failure, fill it with diag_set() and return -1 (or NULL).  The command
 * layer prints it as "gpuplan: FILE:LINE[:COL]: message" (or
 * "gpuplan: FILE: message" with line 0, "gpuplan: message" with no file)
 * and maps diag.kind to an exit code.  The core never prints.
 *
 * Ownership: file and msg are owned by the diag; diag_release frees them.
 * Only the first diag_set of a diag wins, so the first error is reported.
 */
#ifndef PLANNER_DIAG_H
#define PLANNER_DIAG_H

#include <stdarg.h>

enum diag_kind {
	DIAG_NONE = 0,
	DIAG_INPUT,	/* bad input: exit 3 */
	DIAG_SOLVER,	/* no plan within the limits: exit 4 */
	DIAG_IO,	/* I/O or internal error: exit 5 */
	DIAG_USAGE,	/* misuse of the command line: exit 2 */
};

/*
 * diag_set keeps a message on one line: control characters become "\xNN"
 * and a message or file name longer than this many bytes is shortened in
 * the middle to at most this many ("..." marks the cut), so hostile input
 * quoted in a message cannot break the one-line format.
 */
#define DIAG_MAX_TEXT 1000

struct diag {
	enum diag_kind kind;
	char *file;	/* NULL when the error has no file */
	long line;	/* 1-based; 0 when there is no line */
	long col;	/* 1-based; 0 when there is no column */
	char *msg;	/* lowercase, no full stop */
};
#define DIAG_INIT { DIAG_NONE, NULL, 0, 0, NULL }

void diag_init(struct diag *d);
void diag_release(struct diag *d);
/* Where an error is. */
struct diag_at {
	const char *file;	/* NULL when the error has no file */
	long line;		/* 1-based; 0 when there is no line */
	long col;		/* 1-based; 0 when there is no column */
};

/* Records an error at at unless one is already recorded; always returns -1. */
int diag_set_at(struct diag *d, enum diag_kind kind, struct diag_at at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same with a va_list (for the error helpers of the readers). */
int diag_vset_at(struct diag *d, enum diag_kind kind, struct diag_at at, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
/*
 * diag_set(d, kind, file, line, col, fmt, ...): diag_set_at with the
 * position written out, the form most callers use.
 */
#define diag_set(d, kind, file, line, col, ...) \
	diag_set_at((d), (kind), (struct diag_at){ (file), (line), (col) }, __VA_ARGS__)
/* The full one-line message without the "gpuplan: " prefix; caller frees. */
char *diag_format(const struct diag *d);

#endif
