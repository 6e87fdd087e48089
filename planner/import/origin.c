/*
 * origin.c - the input line of each written row (see origin.h).
 */
#include <stdlib.h>
#include <string.h>

#include "origin.h"
#include "util.h"
#include "banned.h"

/* Counts the lines of text appended since the last call on the same text (from 0 on another). */
static void count_lines(struct origins *o, const struct sb *text)
{
	const char *p, *end;

	if (o->seen != text || text->len < o->seen_len) {
		o->seen = text;
		o->seen_len = o->seen_bol = 0;
		o->seen_lines = 0;
	}
	if (!text->buf)
		return;
	p = text->buf + o->seen_len;
	end = text->buf + text->len;
	while (p < end && (p = memchr(p, '\n', (size_t)(end - p)))) {
		o->seen_lines++;
		o->seen_bol = (size_t)(++p - text->buf);
	}
	o->seen_len = text->len;
}

void origins_add(struct origins *o, const char *out, const struct sb *text, const char *in, long in_line)
{
	if (!o)
		return;
	count_lines(o, text);
	XGROW(o->v, o->cap, o->n + 1);
	o->v[o->n].out = out;
	o->v[o->n].out_line = o->seen_lines + 1;
	o->v[o->n].out_col = (long)(text->len - o->seen_bol) + 1;
	o->v[o->n].in = in;
	o->v[o->n].in_line = in_line;
	o->n++;
}

const struct origin *origins_find(const struct origins *o, const char *out, long out_line, long col)
{
	const struct origin *best = NULL;
	size_t i;

	for (i = 0; o && i < o->n; i++) {
		const struct origin *x = &o->v[i];
		if (x->out_line != out_line || strcmp(x->out, out))
			continue;
		if (!best || (x->out_col <= col && (best->out_col > col || x->out_col > best->out_col)) ||
		    (x->out_col > col && best->out_col > col && x->out_col < best->out_col))
			best = x;	/* the last at or before col, else the first of the line */
	}
	return best;
}

void origins_release(struct origins *o)
{
	free(o->v);
	o->v = NULL;
	o->n = o->cap = 0;
	o->seen = NULL;
	o->seen_len = o->seen_bol = 0;
	o->seen_lines = 0;
}
