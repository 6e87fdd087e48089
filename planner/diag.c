/*
 * diag.c - diagnostics with a position.
 */
#include <stdarg.h>
#include <stdlib.h>

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

int diag_set(struct diag *d, enum diag_kind kind, const char *file, long line, long col,
	     const char *fmt, ...)
{
	va_list ap;

	if (!d || d->kind != DIAG_NONE)
		return -1;
	d->kind = kind;
	d->file = file ? xstrdup(file) : NULL;
	d->line = line;
	d->col = col;
	va_start(ap, fmt);
	d->msg = xvasprintf(fmt, ap);
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
