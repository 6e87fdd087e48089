/*
 * internal/deploy_yaml.h - YAML written with libyaml's emitter (never by
 * string building): a document built event by event into memory.  Strings
 * that a YAML reader would take for another type ("true", "8", "") are
 * double-quoted; the rest plain where libyaml allows it.  Errors are
 * sticky: after the first failed event the rest are skipped and
 * dyaml_finish reports it.
 */
#ifndef PLANNER_DEPLOY_YAML_H
#define PLANNER_DEPLOY_YAML_H

#include <yaml.h>

#include "util.h"

struct dyaml {
	yaml_emitter_t em;	/* libyaml's emitter, writing into out */
	struct sb out;		/* the document so far */
	int failed;		/* an event failed: the document is lost */
};

/* Starts a stream and its one document (no "---"). */
void dyaml_begin(struct dyaml *y);
/* Starts a mapping (flow: on one line, "{a: 1}"). */
void dyaml_map(struct dyaml *y, int flow);
/* Starts a sequence (flow: "[0, 1]"). */
void dyaml_seq(struct dyaml *y, int flow);
/* Ends the innermost mapping or sequence. */
void dyaml_end(struct dyaml *y, int seq);
/* A string scalar. */
void dyaml_str(struct dyaml *y, const char *s);
/* A multi-line string as a literal block scalar ("|"). */
void dyaml_lit(struct dyaml *y, const char *s);
/* An integer scalar. */
void dyaml_int(struct dyaml *y, long v);
/* A boolean scalar. */
void dyaml_bool(struct dyaml *y, int v);
/* A key and its string value. */
void dyaml_kv(struct dyaml *y, const char *key, const char *v);
/* A key and its integer value. */
void dyaml_ki(struct dyaml *y, const char *key, long v);
/*
 * Ends the document and the stream; the text in *text (caller frees).
 * 0, or -1 (nothing in *text) when an event failed.
 */
int dyaml_finish(struct dyaml *y, char **text, size_t *len);

#endif
