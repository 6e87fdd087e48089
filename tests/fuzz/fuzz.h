/*
 * fuzz.h - what every harness checks about a failure: a kind and a
 * non-empty one-line message of bounded length (no newline, no control
 * characters, in the message or the file name).
 */
#ifndef TESTS_FUZZ_H
#define TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_check_diag(const struct diag *d)
{
	char *s;
	const unsigned char *p;

	if (d->kind == DIAG_NONE || !d->msg || !d->msg[0] || strlen(d->msg) > DIAG_MAX_TEXT + 8)
		abort();
	if (d->file)
		for (p = (const unsigned char *)d->file; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();
	s = diag_format(d);
	for (p = (const unsigned char *)d->msg; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
	free(s);
}

#endif
