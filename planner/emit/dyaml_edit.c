/*
 * dyaml_edit.c - a YAML file read by ydoc written again through libyaml's
 * emitter with some values changed or added (the files a sweep derives
 * from a scenario or a spec: other paths, other prices).
 */
#include <stdlib.h>
#include <string.h>

#include "dyaml.h"
#include "ydoc.h"
#include "banned.h"

static void edit_value(struct dyaml *y, struct dyaml_edit *e)
{
	size_t i;

	e->done = 1;
	if (e->list) {
		dyaml_seq(y, 0);
		for (i = 0; i < e->nlist; i++)
			dyaml_str(y, e->list[i]);
		dyaml_end(y, 1);
	} else if (e->text) {
		dyaml_str(y, e->text);
	} else {
		dyaml_num(y, e->num);
	}
}

/* The edit of exactly path, or NULL. */
static struct dyaml_edit *edit_at(struct dyaml_edit *edits, size_t n, const char *path)
{
	size_t i;
	for (i = 0; i < n; i++)
		if ((!edits[i].done || edits[i].scale != 0) && !strcmp(edits[i].path, path))
			return &edits[i];
	return NULL;
}

/* True when path lies under prefix ("a.b" under "a"; everything under ""). */
static int under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);
	return !n || (!strncmp(path, prefix, n) && path[n] == '.');
}

static void tree(struct dyaml *y, const struct ynode *n, struct dyaml_edit *edits, size_t ne, const char *path);

/* The edits under path that its mapping did not have: each key once, a mapping for a deeper path. */
static void add_missing(struct dyaml *y, struct dyaml_edit *edits, size_t ne, const char *path)
{
	size_t i, skip = *path ? strlen(path) + 1 : 0;

	for (i = 0; i < ne; i++) {
		const char *rest, *dot;
		if (edits[i].done || edits[i].del || edits[i].scale != 0 || !under(edits[i].path, path))
			continue;
		rest = edits[i].path + skip;
		dot = strchr(rest, '.');
		if (!dot) {
			dyaml_str(y, rest);
			edit_value(y, &edits[i]);
		} else {
			char *key = xstrndup(rest, (size_t)(dot - rest));
			char *sub = xstrndup(edits[i].path, (size_t)(dot - edits[i].path));
			dyaml_str(y, key);
			dyaml_map(y, 0);
			add_missing(y, edits, ne, sub);
			dyaml_end(y, 0);
			free(key);
			free(sub);
		}
	}
}

static void tree(struct dyaml *y, const struct ynode *n, struct dyaml_edit *edits, size_t ne, const char *path)
{
	size_t i;

	switch (n->type) {
	case YN_SCALAR:	/* a plain empty scalar is a null: "~" keeps it one */
		dyaml_scalar(y, !n->quoted && !*n->scalar ? "~" : n->scalar, n->quoted);
		return;
	case YN_SEQ:
		dyaml_seq(y, 0);
		for (i = 0; i < n->n; i++)
			tree(y, n->items[i], edits, ne, path);
		dyaml_end(y, 1);
		return;
	case YN_MAP:
		dyaml_map(y, 0);
		for (i = 0; i < n->n; i++) {
			char *p = *path ? xasprintf("%s.%s", path, n->keys[i]) : xstrdup(n->keys[i]);
			struct dyaml_edit *e = edit_at(edits, ne, p);
			if (e && e->del) {
				e->done = 1;
			} else {
				dyaml_str(y, n->keys[i]);
				if (e && e->scale != 0 && n->items[i] && n->items[i]->type == YN_SCALAR)
					dyaml_num(y, strtod(n->items[i]->scalar, NULL) * e->scale);
				else if (e && e->scale == 0)
					edit_value(y, e);
				else if (n->items[i])
					tree(y, n->items[i], edits, ne, p);
				else
					dyaml_scalar(y, "~", 0);
			}
			free(p);
		}
		add_missing(y, edits, ne, path);
		dyaml_end(y, 0);
		return;
	}
}

void dyaml_tree(struct dyaml *y, const struct ynode *node, struct dyaml_edit *edits, size_t nedits)
{
	tree(y, node, edits, nedits, "");
}
