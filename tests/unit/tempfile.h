/*
 * tempfile.h - text written to a new temporary file, for the unit tests
 * of the readers that take a path (test_import_smi, test_solfile).
 */
#ifndef TESTS_TEMPFILE_H
#define TESTS_TEMPFILE_H

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

/* A new file /tmp/gpuplan-test-XXXXXX holding text; its path (caller unlinks and frees), or NULL. */
static char *write_temp(const char *text)
{
	char path[] = "/tmp/gpuplan-test-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return xstrdup(path);
}

#endif
