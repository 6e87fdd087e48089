/*
 * lines.h - a text file read whole and walked a line at a time
 * (lines.c), for the readers of other tools' plain-text output
 * (nvidia-smi listings, solver solution files).
 */
#ifndef PLANNER_INPUT_LINES_H
#define PLANNER_INPUT_LINES_H

#include <stddef.h>

#include "diag.h"

/* The file's lines, one at a time: lines_next sets *line to the next one (NUL-ended in place). */
struct lines {
	char *buf, *p;
	long no;		/* the line last returned, 1-based */
};

/*
 * Reads path (at most max bytes; no NUL byte) into L.  0, or -1 with d
 * set (DIAG_INPUT at the file).  lines_close frees it either way.
 */
int lines_open(struct lines *L, const char *path, size_t max, struct diag *d);
/* 1 with *line the next line (CR LF or LF or CR ended), 0 at the end. */
int lines_next(struct lines *L, char **line);
/* Frees the text; L->no keeps the last line's number. */
void lines_close(struct lines *L);

#endif
