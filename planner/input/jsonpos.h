/*
 * jsonpos.h - positions in JSON text, for messages that point at a field
 * (jsonpos.c).  Text is [p, e) or (text, len); nothing is allocated.
 */
#ifndef PLANNER_JSONPOS_H
#define PLANNER_JSONPOS_H

#include <stddef.h>

#include "diag.h"

struct cJSON;

/* One step of a path into a document: a member key, or an array index when key is NULL. */
struct jpos_step {
	const char *key;	/* member name; NULL: an array element */
	long index;		/* the element's index when key is NULL */
};

/* p moved past blanks (space, tab, CR, LF), at most to e. */
const char *jpos_skip_ws(const char *p, const char *e);

/*
 * The start of the value at path (n steps) in valid JSON text [p, e), or
 * of the deepest container on the way when a step is missing.
 */
const char *jpos_locate(const char *p, const char *e, const struct jpos_step *path, int n);

/* True when [p, e) ends inside a string or an unclosed object or array: a cut-off file. */
int jpos_cut_off(const char *p, const char *e);

/* True when the last non-blank character closes an object or array, as a whole document does. */
int jpos_ends_like_json(const char *text, size_t len);

/* 1-based line and column (in UTF-8 characters) of pos in text. */
void jpos_line_col(const char *text, const char *pos, long *line, long *col);

/*
 * Parses text (len bytes, with a NUL at text[len]) as one JSON document
 * of file.  NULL with d set (DIAG_INPUT) when it is not: "a NUL byte: not
 * a JSON ROLE", "a NUL character (\u0000) in a string: not a JSON ROLE"
 * (cJSON would cut the string there), "empty file: not a JSON ROLE", "unexpected end of file:
 * the JSON ROLE is truncated" (at the end), "not valid JSON" (at
 * LINE:COL where cJSON stopped), "duplicate key 'K' in the JSON ROLE:
 * each key may appear once in an object" (anywhere in the document; at
 * the LINE:COL of the key's second occurrence, "(first at line L)" after
 * ROLE, as the YAML reader says it).
 * The caller frees with cJSON_Delete.
 */
struct cJSON *jpos_parse(const char *file, const char *text, size_t len, const char *role, struct diag *d);

/* 1-based line and column of the value at path (n steps) in valid JSON text. */
void jpos_at(const char *text, size_t len, const struct jpos_step *path, int n, long *line, long *col);

#endif
