/*
 * diag.c - diagnostics with a position.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"
#include "banned.h"

void diag_init(struct diag *d)
{
	struct diag blank = DIAG_INIT;
	*d = blank;
}

void diag_release(struct diag *d)
{
	free(d->file);
	free(d->msg);
	diag_init(d);
}

/*
 * Makes a message or file name safe for one line: control characters
 * (which come from hostile input quoted in a message) become "\xNN", and
 * text longer than DIAG_MAX_TEXT bytes keeps its start and its last
 * DIAG_KEEP_TAIL bytes around "..." (cut at UTF-8 boundaries), so that a
 * hint at the end survives.  Takes s, returns a new string.
 */
#define DIAG_KEEP_TAIL 200
static char *one_line(char *s)
{
	const unsigned char *p;
	size_t len = strlen(s), head, tail;
	struct sb sb;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			break;
	if (!*p && len <= DIAG_MAX_TEXT)
		return s;
	sb_init(&sb);
	sb_add_escaped(&sb, s, len);
	free(s);
	if (sb.len <= DIAG_MAX_TEXT)
		return sb_detach(&sb);
	head = DIAG_MAX_TEXT - DIAG_KEEP_TAIL - 3;
	while (head > 0 && ((unsigned char)sb.buf[head] & 0xC0) == 0x80)
		head--;
	tail = sb.len - DIAG_KEEP_TAIL;
	while (tail < sb.len && ((unsigned char)sb.buf[tail] & 0xC0) == 0x80)
		tail++;
	s = xasprintf("%.*s...%s", (int)head, sb.buf, sb.buf + tail);
	sb_release(&sb);
	return s;
}

int diag_vset_at(struct diag *d, enum diag_kind kind, struct diag_at at, const char *fmt, va_list ap)
{
	if (!d || d->kind != DIAG_NONE)
		return -1;
	d->kind = kind;
	d->file = at.file ? one_line(xstrdup(at.file)) : NULL;
	d->line = at.line;
	d->col = at.col;
	d->msg = one_line(xvasprintf(fmt, ap));
	return -1;
}

int diag_set_at(struct diag *d, enum diag_kind kind, struct diag_at at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(d, kind, at, fmt, ap);
	va_end(ap);
	return -1;
}

char *diag_format(const struct diag *d)
{
	const char *msg = d->msg ? d->msg : "unknown error";

	if (!d->file)
		return xstrdup(msg);
	if (d->line <= 0)
		return xasprintf("%s: %s", d->file, msg);
	if (d->col <= 0)
		return xasprintf("%s:%ld: %s", d->file, d->line, msg);
	return xasprintf("%s:%ld:%ld: %s", d->file, d->line, d->col, msg);
}
