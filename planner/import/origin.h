/*
 * origin.h - where each row an import writes comes from: the user's
 * file and line, so that an error gpuplan finds when it checks what it
 * is about to write (a validation of inventory.csv, workloads.csv,
 * gpus-ID.yaml) is reported at the user's input, never at a file
 * gpuplan writes (issue #61).
 *
 * An importer calls origins_add just before it appends a row (or a field
 * of a row) to one of its outputs: the place is where the text ends, its
 * line and column; a field from another input row gets its own call.  The table
 * holds pointers to the output names and input paths it is given (they
 * must outlive it) and is freed with origins_release.
 */
#ifndef PLANNER_ORIGIN_H
#define PLANNER_ORIGIN_H

#include <stddef.h>

#include "util.h"

struct origin {
	const char *out;	/* the written file's name, e.g. "workloads.csv" */
	long out_line;		/* its line (1-based) */
	long out_col;		/* its column (1-based): the text from there on comes from in */
	const char *in;		/* the user's file the row comes from */
	long in_line;		/* its line there (1-based) */
};

struct origins {
	size_t n, cap;
	struct origin *v;
	const struct sb *seen;	/* the text last counted, its length, lines and last line's start so far */
	size_t seen_len, seen_bol;
	long seen_lines;
};
#define ORIGINS_INIT { 0, 0, NULL, NULL, 0, 0, 0 }

/* What text (written as out) gets next, from where it ends, comes from in:in_line.  o NULL: nothing. */
void origins_add(struct origins *o, const char *out, const struct sb *text, const char *in, long in_line);

/*
 * Where line out_line, column col (0: the line's start) of out comes
 * from: the last place recorded on that line at or before col; NULL when
 * none was recorded on that line.
 */
const struct origin *origins_find(const struct origins *o, const char *out, long out_line, long col);

void origins_release(struct origins *o);

#endif
