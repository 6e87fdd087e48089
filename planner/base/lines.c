/*
 * lines.c - a text file walked a line at a time (lines.h).
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "lines.h"
#include "banned.h"

int lines_open(struct lines *L, const char *path, size_t max, struct diag *d)
{
	char msg[160];
	size_t len;
	int rc;

	memset(L, 0, sizeof(*L));
	rc = file_read_all(path, max, &L->buf, &len);
	if (rc)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "%s", file_read_strerror(msg, sizeof(msg), rc, max));
	if (memchr(L->buf, '\0', len))
		return diag_set(d, DIAG_INPUT, path, 0, 0, "binary file (contains a NUL byte)");
	L->p = L->buf;
	return 0;
}

int lines_next(struct lines *L, char **line)
{
	char *nl;

	if (!L->p || !*L->p)
		return 0;
	*line = L->p;
	nl = strpbrk(L->p, "\r\n");
	if (nl) {
		L->p = nl + 1 + (nl[0] == '\r' && nl[1] == '\n');
		*nl = '\0';
	} else {
		L->p = NULL;
	}
	L->no++;
	return 1;
}

void lines_close(struct lines *L)
{
	free(L->buf);
	L->buf = L->p = NULL;	/* no stays: a message may still cite the line */
}
