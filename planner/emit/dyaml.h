/*
 * dyaml.h - YAML written with libyaml's emitter (never by string
 * building): a document built event by event into memory (dyaml.c), and
 * a tree read by ydoc written again with edits (dyaml_edit.c).  What
 * deploy (the GPU Operator's files) and sweep (derived scenarios, the
 * Kubernetes Job) write as YAML goes through here.  Strings
 * that a YAML reader would take for another type ("true", "8", "") are
 * double-quoted; the rest plain where libyaml allows it.  Errors are
 * sticky: after the first failed event the rest are skipped and
 * dyaml_finish reports it.
 */
#ifndef PLANNER_DYAML_H
#define PLANNER_DYAML_H

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
 * A Kubernetes object's head: its block mapping opened with apiVersion,
 * kind and metadata's name, metadata left open for more (labels): the
 * caller ends it (dyaml_end(y, 0)), then writes the rest and ends the
 * object.
 */
void dyaml_k8s_head(struct dyaml *y, const char *api_version, const char *kind, const char *name);
/*
 * Ends the document and the stream; the text in *text (caller frees).
 * 0, or -1 (nothing in *text) when an event failed.
 */
int dyaml_finish(struct dyaml *y, char **text, size_t *len);

/*
 * A scalar as it was read: plain (a YAML reader types it: a number stays
 * a number) or, when quoted, double-quoted.
 */
void dyaml_scalar(struct dyaml *y, const char *s, int quoted);
/* Ends the document and starts the next one ("---") in the same stream. */
void dyaml_next_doc(struct dyaml *y);
/*
 * A number written so that it reads back as the same double: the fewest
 * decimals that do ("3150", "15749.999999999998"), %.17g past 1e15 or
 * when 17 decimals do not; buf of 400 bytes.
 */
const char *dyaml_num_text(char *buf, size_t size, double v);
void dyaml_num(struct dyaml *y, double v);

/*
 * A change to a YAML tree re-emitted by dyaml_tree: the value at path
 * (keys joined by '.', "energy.usd_per_kwh") replaced, or added at the
 * end of its mapping when absent (a missing mapping on the way is
 * added too), or the key dropped (del), or every number at path
 * multiplied by scale (items of a sequence share their sequence's path:
 * "products.terms.usd_per_gpu" is every term's price; nothing added when
 * absent).  The value is a number (list NULL, text NULL), a string
 * (text) or a sequence of strings (list, nlist).
 */
struct dyaml_edit {
	const char *path;
	int del;			/* drop the key (nothing added when absent) */
	double scale;			/* not 0: multiply the numbers at path */
	const char *text;		/* a string; NULL: the number num, or the list */
	double num;
	const char *const *list;	/* a sequence of strings, when not NULL */
	size_t nlist;
	int done;			/* set by dyaml_tree once written */
};
/*
 * Emits the tree under node (a ydoc's: its scalars plain or quoted as
 * read, mappings and sequences in block style) with the edits applied;
 * comments are not kept.
 */
struct ynode;
void dyaml_tree(struct dyaml *y, const struct ynode *node, struct dyaml_edit *edits, size_t nedits);

#endif
