/*
 * jsonpos.c - positions in JSON text: walk already valid text along a
 * path of keys and indexes to the value it names, tell a cut-off
 * document from a malformed one, and turn a position into a line and
 * column.  cJSON keeps no positions, so the report reader uses these to
 * point at a field that is missing or of the wrong type.
 */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpos.h"
#include "strmap.h"
#include "util.h"
#include "banned.h"

const char *jpos_skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p at the opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\' && p + 1 < e)
			p++;
	return p < e ? p + 1 : e;
}

static const char *skip_value(const char *p, const char *e)
{
	int depth = 0;

	p = jpos_skip_ws(p, e);
	if (p < e && *p == '"')
		return skip_string(p, e);
	if (p < e && *p != '{' && *p != '[') {
		while (p < e && !strchr(",}] \t\r\n", *p))
			p++;
		return p;
	}
	for (; p < e; p++) {
		if (*p == '"') {
			p = skip_string(p, e) - 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return e;
}

/*
 * The start of the value at path in valid JSON text, or of the deepest
 * container on the way when a step is missing.
 */
const char *jpos_locate(const char *p, const char *e, const struct jpos_step *path, int n)
{
	int i;

	p = jpos_skip_ws(p, e);
	for (i = 0; i < n && p < e; i++) {
		const char *container = p, *found = NULL;
		long idx = 0;
		if ((path[i].key && *p != '{') || (!path[i].key && *p != '['))
			return p;
		p = jpos_skip_ws(p + 1, e);
		while (p < e && *p != '}' && *p != ']') {
			if (path[i].key) {
				const char *k = p + 1, *ke = skip_string(p, e) - 1;
				size_t klen = (size_t)(ke - k);
				int match = klen == strlen(path[i].key) && !memcmp(k, path[i].key, klen);
				p = jpos_skip_ws(ke + 1, e);
				if (p < e && *p == ':')
					p = jpos_skip_ws(p + 1, e);
				if (match) {
					found = p;
					break;
				}
			} else if (idx++ == path[i].index) {
				found = p;
				break;
			}
			p = jpos_skip_ws(skip_value(p, e), e);
			if (p < e && *p == ',')
				p = jpos_skip_ws(p + 1, e);
		}
		if (!found)
			return container;
		p = found;
	}
	return p;
}

/* True when text ends inside a string or an unclosed object or array: a cut-off file. */
int jpos_cut_off(const char *p, const char *e)
{
	long depth = 0;
	for (; p < e; p++) {
		if (*p == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= e)
				return 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
	}
	return depth > 0;
}

/* True when the last non-blank character closes an object or array, as a whole document does. */
int jpos_ends_like_json(const char *text, size_t len)
{
	while (len && strchr(" \t\r\n", text[len - 1]))
		len--;
	return len && (text[len - 1] == '}' || text[len - 1] == ']');
}

/* 1-based line and column (in UTF-8 characters) of pos in text. */
void jpos_line_col(const char *text, const char *pos, long *line, long *col)
{
	const char *p;
	*line = 1;
	*col = 1;
	for (p = text; p < pos; p++) {
		if (*p == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* Where dup_key found a key twice: the path to its object and the member's ordinal there. */
struct dup_at {
	struct jpos_step *path;	/* steps from the root to the object (DUP_MAX_DEPTH of them at most) */
	int depth;		/* steps used */
	long member;		/* the second occurrence's 0-based place among the object's members */
	long first;		/* the first occurrence's */
};
#define DUP_MAX_DEPTH 1024	/* deeper than cJSON parses (CJSON_NESTING_LIMIT, 1000) */

/*
 * A key twice in one object (cJSON keeps both, and a reader would take
 * the first): the first such key in document order, or NULL; *at says
 * where (depth is node's).  Small objects are compared pairwise, larger
 * ones through a hash map.
 */
static const char *dup_key(const cJSON *node, int depth, struct dup_at *at)
{
	const cJSON *c, *b;
	const char *dup = NULL;
	struct strmap seen = STRMAP_INIT;
	size_t n = 0, old;
	long m = 0;

	if (cJSON_IsObject(node))
		for (c = node->child; c; c = c->next)
			n++;
	for (c = node->child; c && !dup; c = c->next, m++) {
		old = 0;
		if (cJSON_IsObject(node) && c->string) {
			if (n > 16 && strmap_add(&seen, c->string, (size_t)m, &old))
				dup = c->string;
			for (b = node->child; n <= 16 && b != c && !dup; b = b->next)
				if (b->string && !strcmp(b->string, c->string))
					dup = c->string;
				else
					old++;
			if (dup) {
				at->depth = depth;
				at->member = m;
				at->first = (long)old;
			}
		}
		if (!dup && c->child && depth < DUP_MAX_DEPTH) {
			at->path[depth].key = cJSON_IsObject(node) ? c->string : NULL;
			at->path[depth].index = m;
			dup = dup_key(c, depth + 1, at);
		}
	}
	strmap_release(&seen);
	return dup;
}

/* The key of member m of the object at p (valid JSON), or p when there is none. */
static const char *member_key(const char *p, const char *e, long m)
{
	const char *obj = p;

	if (p >= e || *p != '{')
		return obj;
	for (p = jpos_skip_ws(p + 1, e); p < e && *p == '"'; m--) {
		if (!m)
			return p;
		p = jpos_skip_ws(skip_string(p, e), e);
		if (p < e && *p == ':')
			p = jpos_skip_ws(skip_value(p + 1, e), e);
		if (p < e && *p == ',')
			p = jpos_skip_ws(p + 1, e);
	}
	return obj;
}

/*
 * The first \u0000 escape in text (a backslash that is not itself
 * escaped), or NULL: cJSON would decode it into a NUL that cuts the
 * string there, so "node\u0000x" would be read as "node".
 */
static const char *nul_escape(const char *text, size_t len)
{
	const char *p = text, *e = text + len;

	while ((p = memchr(p, '\\', (size_t)(e - p)))) {
		if (e - p >= 6 && !memcmp(p + 1, "u0000", 5))
			return p;
		p += 2;	/* the escaped character: "\\" is one escape, not the start of the next */
		if (p >= e)
			break;
	}
	return NULL;
}

struct cJSON *jpos_parse(const char *file, const char *text, size_t len, const char *role, struct diag *d)
{
	const char *end = NULL, *nul, *at;
	cJSON *root;
	long line, col;

	if ((nul = memchr(text, '\0', len))) {
		jpos_line_col(text, nul, &line, &col);
		diag_set(d, DIAG_INPUT, file, line, col, "a NUL byte: not a JSON %s", role);
		return NULL;
	}
	if (jpos_skip_ws(text, text + len) == text + len) {
		diag_set(d, DIAG_INPUT, file, 0, 0, "empty file: not a JSON %s", role);
		return NULL;
	}
	if ((nul = nul_escape(text, len))) {
		jpos_line_col(text, nul, &line, &col);
		diag_set(d, DIAG_INPUT, file, line, col, "a NUL character (\\u0000) in a string: not a JSON %s", role);
		return NULL;
	}
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (root) {
		struct dup_at da = { NULL, 0, 0, 0 };
		const char *dup, *obj;
		long first;
		da.path = xcalloc(DUP_MAX_DEPTH, sizeof(*da.path));
		dup = dup_key(root, 0, &da);
		if (dup) {
			obj = jpos_locate(text, text + len, da.path, da.depth);
			jpos_line_col(text, member_key(obj, text + len, da.first), &first, &col);
			jpos_line_col(text, member_key(obj, text + len, da.member), &line, &col);
			diag_set(d, DIAG_INPUT, file, line, col,
				 "duplicate key '%s' in the JSON %s (first at line %ld): each key may appear once in an "
				 "object",
				 dup, role, first);
			cJSON_Delete(root);
			root = NULL;
		}
		free(da.path);
		return root;
	}
	at = end ? end : text;
	if (at > text + len)
		at = text + len;
	jpos_line_col(text, at, &line, &col);
	if (jpos_skip_ws(at, text + len) >= text + len ||
	    (!jpos_ends_like_json(text, len) && jpos_cut_off(text, text + len))) {
		jpos_line_col(text, text + len, &line, &col);
		diag_set(d, DIAG_INPUT, file, line, col, "unexpected end of file: the JSON %s is truncated", role);
		return NULL;
	}
	diag_set(d, DIAG_INPUT, file, line, col, "not valid JSON");
	return NULL;
}

void jpos_at(const char *text, size_t len, const struct jpos_step *path, int n, long *line, long *col)
{
	jpos_line_col(text, jpos_locate(text, text + len, path, n), line, col);
}
