/*
 * ydoc.c - YAML into a positioned tree, and typed access with messages.
 *
 * Built on libyaml's event parser.  Every event is deleted right after
 * use; on error the partial tree is freed, so nothing leaks.  libyaml's
 * marks are 0-based; positions stored here are 1-based.
 */
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "date.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

static void ynode_free(struct ynode *n)
{
	size_t i;
	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		ynode_free(n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->key_line);
	free(n->key_col);
	free(n->scalar);
	free(n);
}

void ydoc_release(struct ydoc *doc)
{
	ynode_free(doc->root);
	free(doc->file);
	doc->root = NULL;
	doc->file = NULL;
}

struct yparse {
	yaml_parser_t parser;
	const char *name;
	const char *text;	/* the input, for positions of reader errors */
	size_t len;
	struct diag *d;
	size_t nodes;
};

static int parse_error(struct yparse *p, long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int parse_error(struct yparse *p, long line, long col, const char *fmt, ...)
{
	struct diag_at at = { p->name, line, col };
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(p->d, DIAG_INPUT, at, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The 1-based line and character column of byte offset off in text, as
 * libyaml counts them: a line ends at LF, CR LF or a lone CR; a UTF-8
 * sequence is one column; a leading BOM takes no column.  The bytes
 * before off are valid UTF-8 (the reader stopped at the first bad one).
 */
static void offset_position(const char *text, size_t len, size_t off, long *line, long *col)
{
	size_t i = 0;

	*line = 1;
	*col = 1;
	if (off > len)
		off = len;
	if (off >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		i = 3;
	for (; i < off; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\n' || (c == '\r' && (i + 1 >= len || text[i + 1] != '\n'))) {
			++*line;
			*col = 1;
		} else if (c != '\r' && (c & 0xC0) != 0x80) {
			++*col;
		}
	}
}

static int next_event(struct yparse *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&p->parser, ev)) {
		const char *prob = p->parser.problem ? p->parser.problem : "invalid YAML";
		long line = (long)p->parser.problem_mark.line + 1;
		long col = (long)p->parser.problem_mark.column + 1;
		if (p->parser.error == YAML_READER_ERROR) {
			/*
			 * Reader errors carry a byte offset, not a mark.  For a bad
			 * trailing octet it is that octet's; point at the start of
			 * its sequence (the lead byte before the trailing ones).
			 */
			size_t off = p->parser.problem_offset;
			if (!strcmp(prob, "invalid trailing UTF-8 octet") && off <= p->len) {
				while (off > 0 && ((unsigned char)p->text[off - 1] & 0xC0) == 0x80)
					off--;
				if (off > 0)
					off--;
			}
			offset_position(p->text, p->len, off, &line, &col);
			if (strstr(prob, "UTF-8") || strstr(prob, "Unicode"))
				return parse_error(p, line, col, "invalid UTF-8");
			return parse_error(p, line, col, "%s", prob);
		}
		if (p->parser.problem_mark.index < p->len && p->text[p->parser.problem_mark.index] == '\t' &&
		    strstr(prob, "cannot start any token"))
			return parse_error(p, line, col, "tab character: YAML indents with spaces only");
		if (p->parser.context)
			return parse_error(p, line, col, "%s %s", prob, p->parser.context);
		return parse_error(p, line, col, "%s", prob);
	}
	return 0;
}

static struct ynode *new_node(enum ynode_type type, const yaml_event_t *ev)
{
	struct ynode *n = xcalloc(1, sizeof(*n));
	n->type = type;
	n->line = (long)ev->start_mark.line + 1;
	n->col = (long)ev->start_mark.column + 1;
	return n;
}

static int parse_node(struct yparse *p, yaml_event_t *ev, int depth, struct ynode **out);

/* Reads items until the end event; ev is the start event (already consumed). */
static int parse_children(struct yparse *p, struct ynode *n, int depth, yaml_event_type_t end)
{
	size_t cap = 0, kcap = 0, lcap = 0, ccap = 0;

	for (;;) {
		yaml_event_t ev;
		struct ynode *child = NULL;
		char *key = NULL;
		long kline = 0, kcol = 0;
		size_t i;

		if (next_event(p, &ev))
			return -1;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return 0;
		}
		if (n->type == YN_MAP) {
			if (ev.type != YAML_SCALAR_EVENT) {
				long l = (long)ev.start_mark.line + 1, c = (long)ev.start_mark.column + 1;
				yaml_event_delete(&ev);
				return parse_error(p, l, c, "mapping keys must be plain scalars");
			}
			if (ev.data.scalar.anchor || ev.data.scalar.tag) {
				long l = (long)ev.start_mark.line + 1, c = (long)ev.start_mark.column + 1;
				yaml_event_delete(&ev);
				return parse_error(p, l, c, "anchors and tags are not supported");
			}
			key = xstrndup((const char *)ev.data.scalar.value, ev.data.scalar.length);
			kline = (long)ev.start_mark.line + 1;
			kcol = (long)ev.start_mark.column + 1;
			yaml_event_delete(&ev);
			for (i = 0; i < n->n; i++) {
				if (!strcmp(n->keys[i], key)) {
					parse_error(p, kline, kcol, "duplicate key '%s' (first at line %ld)", key,
						    n->key_line[i]);
					free(key);
					return -1;
				}
			}
			if (next_event(p, &ev)) {
				free(key);
				return -1;
			}
		}
		if (parse_node(p, &ev, depth + 1, &child)) {
			free(key);
			return -1;
		}
		XGROW(n->items, cap, n->n + 1);
		n->items[n->n] = child;
		if (n->type == YN_MAP) {
			XGROW(n->keys, kcap, n->n + 1);
			XGROW(n->key_line, lcap, n->n + 1);
			XGROW(n->key_col, ccap, n->n + 1);
			n->keys[n->n] = key;
			n->key_line[n->n] = kline;
			n->key_col[n->n] = kcol;
		}
		n->n++;
	}
}

/* Consumes ev (deletes it) and builds *out. */
static int parse_node(struct yparse *p, yaml_event_t *ev, int depth, struct ynode **out)
{
	struct ynode *n = NULL;
	long line = (long)ev->start_mark.line + 1, col = (long)ev->start_mark.column + 1;
	int rc = 0;

	*out = NULL;
	if (depth > YDOC_MAX_DEPTH) {
		yaml_event_delete(ev);
		return parse_error(p, line, col, "nesting deeper than %d levels", YDOC_MAX_DEPTH);
	}
	if (++p->nodes > 1000000) {
		yaml_event_delete(ev);
		return parse_error(p, line, col, "more than 1000000 nodes");
	}
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		yaml_event_delete(ev);
		return parse_error(p, line, col, "aliases are not supported");
	case YAML_SCALAR_EVENT:
		if (ev->data.scalar.anchor || ev->data.scalar.tag) {
			yaml_event_delete(ev);
			return parse_error(p, line, col, "anchors and tags are not supported");
		}
		if (ev->data.scalar.length > YDOC_MAX_SCALAR) {
			yaml_event_delete(ev);
			return parse_error(p, line, col, "value longer than %d bytes", YDOC_MAX_SCALAR);
		}
		n = new_node(YN_SCALAR, ev);
		n->scalar = xstrndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
		if (strlen(n->scalar) != ev->data.scalar.length) {
			yaml_event_delete(ev);
			ynode_free(n);
			return parse_error(p, line, col, "NUL character in a value");
		}
		{
			const unsigned char *c;
			for (c = (const unsigned char *)n->scalar; *c; c++)
				if ((*c < 0x20 && *c != '\t' && *c != '\n') || *c == 0x7f)
					break;
			if (*c) {
				unsigned char bad = *c;
				yaml_event_delete(ev);
				ynode_free(n);
				return parse_error(p, line, col, "control character 0x%02x in a value", bad);
			}
		}
		n->quoted = ev->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			    ev->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		yaml_event_delete(ev);
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int is_map = ev->type == YAML_MAPPING_START_EVENT;
		const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor
						   : ev->data.sequence_start.anchor;
		if (anchor) {
			yaml_event_delete(ev);
			return parse_error(p, line, col, "anchors and tags are not supported");
		}
		n = new_node(is_map ? YN_MAP : YN_SEQ, ev);
		yaml_event_delete(ev);
		rc = parse_children(p, n, depth, is_map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT);
		break;
	}
	default:
		yaml_event_delete(ev);
		return parse_error(p, line, col, "unexpected YAML event");
	}
	if (rc) {
		ynode_free(n);
		return -1;
	}
	*out = n;
	return 0;
}

/* True when the first len bytes are only blanks (text need not be NUL-terminated). */
static int blank_text(const char *text, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t')
			return 0;
	return 1;
}

int ydoc_parse(struct ydoc *doc, const char *name, const char *text, size_t len, struct diag *d)
{
	struct yparse p;
	yaml_event_t ev;
	int rc = -1, started = 0;

	doc->file = xstrdup(name);
	doc->root = NULL;
	memset(&p, 0, sizeof(p));
	p.name = name;
	p.text = text;
	p.len = len;
	p.d = d;
	if (blank_text(text, len)) {
		diag_set(d, DIAG_INPUT, name, 0, 0, "empty file");
		return -1;
	}
	if (len >= 2 && (!memcmp(text, "\xFF\xFE", 2) || !memcmp(text, "\xFE\xFF", 2))) {
		diag_set(d, DIAG_INPUT, name, 0, 0, "UTF-16 text: save the file as UTF-8");
		return -1;
	}
	if (memchr(text, '\0', len)) {
		diag_set(d, DIAG_INPUT, name, 0, 0, "binary file (contains a NUL byte)");
		return -1;
	}
	if (!yaml_parser_initialize(&p.parser)) {
		diag_set(d, DIAG_IO, name, 0, 0, "cannot initialise the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&p.parser, (const unsigned char *)text, len);
	for (;;) {
		if (next_event(&p, &ev))
			goto out;
		if (ev.type == YAML_STREAM_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type == YAML_DOCUMENT_START_EVENT) {
			long line = (long)ev.start_mark.line + 1;
			yaml_event_delete(&ev);
			if (started) {
				diag_set(d, DIAG_INPUT, name, line, 0,
					 "more than one YAML document in the file");
				goto out;
			}
			started = 1;
			continue;
		}
		if (ev.type == YAML_DOCUMENT_END_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (parse_node(&p, &ev, 0, &doc->root))
			goto out;
	}
	if (!doc->root || (doc->root->type == YN_SCALAR && doc->root->scalar[0] == '\0')) {
		diag_set(d, DIAG_INPUT, name, 0, 0, "empty file");
		goto out;
	}
	rc = 0;
out:
	yaml_parser_delete(&p.parser);
	if (rc) {
		ynode_free(doc->root);
		doc->root = NULL;
	}
	return rc;
}

int ydoc_load(struct ydoc *doc, const char *path, struct diag *d)
{
	char *buf, msg[256];
	size_t len;
	int rc;

	doc->file = NULL;
	doc->root = NULL;
	rc = file_read_all(path, (size_t)YDOC_MAX_BYTES, &buf, &len);
	if (rc)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "%s",
				file_read_strerror(msg, sizeof(msg), rc, (size_t)YDOC_MAX_BYTES));
	rc = ydoc_parse(doc, path, buf, len, d);
	free(buf);
	return rc;
}

/* ================= typed access ================= */

int ydoc_error(const struct ydoc *doc, const struct ynode *node, struct diag *d, const char *fmt, ...)
{
	struct diag_at at = { doc->file, node ? node->line : 0, node ? node->col : 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(d, DIAG_INPUT, at, fmt, ap);
	va_end(ap);
	return -1;
}

int ydoc_unknown(const struct ydoc *doc, const struct ynode *node, struct diag *d, const char *what,
		 const char *s, const char *const *names)
{
	char *hint = str_hint(s, names);

	ydoc_error(doc, node, d, "unknown %s '%s'%s", what, s, hint);
	free(hint);
	return -1;
}

int ydoc_key_error(const struct ydoc *doc, const struct ynode *map, size_t i, struct diag *d,
		   const char *fmt, ...)
{
	struct diag_at at = { doc->file, map->key_line[i], map->key_col[i] };
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(d, DIAG_INPUT, at, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *type_name(enum ynode_type t)
{
	return t == YN_MAP ? "a mapping" : t == YN_SEQ ? "a list" : "a scalar";
}

int ynode_expect(const struct ydoc *doc, const struct ynode *node, enum ynode_type type,
		 const char *name, struct diag *d)
{
	if (node->type == type)
		return 0;
	return ydoc_error(doc, node, d, "'%s' must be %s, not %s", name, type_name(type),
			  type_name(node->type));
}

const struct ynode *ymap_get(const struct ynode *map, const char *key)
{
	size_t i;
	if (!map || map->type != YN_MAP)
		return NULL;
	for (i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return map->items[i];
	return NULL;
}

int ymap_check_keys(const struct ydoc *doc, const struct ynode *map, const char *const *allowed,
		    const char *what, struct diag *d)
{
	size_t i;
	const char *const *a;

	for (i = 0; i < map->n; i++) {
		char *hint;
		for (a = allowed; *a; a++)
			if (!strcmp(*a, map->keys[i]))
				break;
		if (*a)
			continue;
		hint = str_hint(map->keys[i], allowed);
		ydoc_key_error(doc, map, i, d, "unknown field '%s'%s%s%s", map->keys[i], what ? " in " : "",
			       what ? what : "", hint);
		free(hint);
		return -1;
	}
	return 0;
}

int ydoc_check_root(const struct ydoc *doc, const char *what, const char *const *allowed,
		    const char *schema, struct diag *d)
{
	const struct ynode *root = doc->root;
	const struct yread y = { doc, root, d };
	const char *s = NULL;

	if (ynode_expect(doc, root, YN_MAP, what, d) || ymap_check_keys(doc, root, allowed, NULL, d) ||
	    yread_str(&y, "schema", 1, &s))
		return -1;
	if (strcmp(s, schema))
		return ydoc_error(doc, ymap_get(root, "schema"), d,
				  "unsupported schema '%s' (this gpuplan reads %s)", s, schema);
	return 0;
}

static const struct ynode *get_scalar(const struct yread *y, const char *key, int required, int *rc)
{
	const struct ynode *v = ymap_get(y->map, key);
	*rc = 0;
	if (!v || (v->type == YN_SCALAR && !v->quoted && (!strcmp(v->scalar, "") ||
							  !strcmp(v->scalar, "~") ||
							  !strcmp(v->scalar, "null")))) {
		if (v && required)
			*rc = ydoc_error(y->doc, v, y->d, "field '%s' has no value", key);
		else
			*rc = required ? ydoc_error(y->doc, y->map, y->d, "missing field '%s'", key) : 1;
		return NULL;
	}
	if (v->type != YN_SCALAR) {
		*rc = ydoc_error(y->doc, v, y->d, "field '%s' must be a scalar, not %s", key,
				 type_name(v->type));
		return NULL;
	}
	return v;
}

int yread_str(const struct yread *y, const char *key, int required, const char **out)
{
	int rc;
	const struct ynode *v = get_scalar(y, key, required, &rc);
	if (!v)
		return rc;
	*out = v->scalar;
	return 0;
}

int yread_nonblank(const struct yread *y, const char *key, int required, const char **out)
{
	int rc = yread_str(y, key, required, out);
	if (rc)
		return rc;
	if (str_blank(*out))
		return ydoc_error(y->doc, ymap_get(y->map, key), y->d, "field '%s' is empty", key);
	return 0;
}

int yread_num(const struct yread *y, const char *key, int required, struct num_range range, double *out)
{
	int rc;
	double x;
	char text[RANGE_TEXT_SIZE];
	const struct ynode *v = get_scalar(y, key, required, &rc);
	if (!v)
		return rc;
	rc = parse_double(v->scalar, &x);
	if (rc)
		return ydoc_error(y->doc, v, y->d, "field '%s': '%s' %s", key, v->scalar, parse_num_strerror(rc));
	if (!range_contains(x, range.lo, range.hi, range.open))
		return ydoc_error(y->doc, v, y->d, "field '%s': '%s' must be %s", key, v->scalar,
				  range_text(text, sizeof(text), range.lo, range.hi, range.open));
	*out = x;
	return 0;
}

int yread_gap(const struct yread *y, double *out)
{
	double pct = -1;

	if (ymap_get(y->map, "gap_pct") && ymap_get(y->map, "mip_gap"))
		return ydoc_error(y->doc, ymap_get(y->map, "mip_gap"), y->d,
				  "field 'mip_gap': give gap_pct (percent) or mip_gap (a fraction), not both");
	if (yread_num(y, "gap_pct", 0, (struct num_range){ 0, 100, RANGE_HI_OPEN }, &pct) < 0 ||
	    yread_num(y, "mip_gap", 0, (struct num_range){ 0, 1, RANGE_HI_OPEN }, out) < 0)
		return -1;
	if (pct >= 0)
		*out = pct / 100.0;
	return 0;
}

int yread_int(const struct yread *y, const char *key, int required, long long min, long long max,
	      long long *out)
{
	int rc;
	long long x;
	char range[RANGE_TEXT_SIZE];
	const struct ynode *v = get_scalar(y, key, required, &rc);
	if (!v)
		return rc;
	rc = parse_llong(v->scalar, &x);
	if (rc == PARSE_SYNTAX) {
		double dx;
		if (!parse_double(v->scalar, &dx)) {
			/* exponent form (1e2) is read when it is a whole number */
			if (dx != floor(dx))
				return ydoc_error(y->doc, v, y->d, "field '%s': '%s' is not a whole number", key,
						  v->scalar);
			if (dx < (double)min || dx > (double)max)
				return ydoc_error(y->doc, v, y->d, "field '%s': '%s' must be %s", key, v->scalar,
						  range_text_ll(range, sizeof(range), min, max));
			x = (long long)dx;
			rc = 0;
		}
	}
	if (rc)
		return ydoc_error(y->doc, v, y->d, "field '%s': '%s' %s", key, v->scalar, parse_num_strerror(rc));
	if (x < min || x > max)
		return ydoc_error(y->doc, v, y->d, "field '%s': %lld must be %s", key, x,
				  range_text_ll(range, sizeof(range), min, max));
	*out = x;
	return 0;
}

int yread_bool(const struct yread *y, const char *key, int required, int *out)
{
	int rc;
	const struct ynode *v = get_scalar(y, key, required, &rc);
	if (!v)
		return rc;
	if (!str_casecmp(v->scalar, "true") || !str_casecmp(v->scalar, "yes"))
		*out = 1;
	else if (!str_casecmp(v->scalar, "false") || !str_casecmp(v->scalar, "no"))
		*out = 0;
	else
		return ydoc_error(y->doc, v, y->d, "field '%s': '%s' is not true or false", key, v->scalar);
	return 0;
}

int yread_date(const struct yread *y, const char *key, int required, long long *days)
{
	int rc;
	const struct ynode *v = get_scalar(y, key, required, &rc);
	if (!v)
		return rc;
	if (date_parse(v->scalar, days))
		return ydoc_error(y->doc, v, y->d, "field '%s': '%s' is not a date (YYYY-MM-DD)", key, v->scalar);
	return 0;
}

int yread_price_date(const struct yread *y, const char *name, long long *days)
{
	int rc = yread_date(y, "as_of", 0, days);
	if (rc == 1)
		return ydoc_error(y->doc, y->map, y->d, "price '%s' has no as_of date", name);
	return rc;
}
