/*
 * test_diag.c - diagnostics stay on one line: control characters are
 * escaped, long messages are shortened in the middle (the end survives),
 * and only the first error is kept.  Also the overflow-checked helpers.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csvdoc.h"
#include "diag.h"
#include "util.h"

int main(void)
{
	struct diag d = DIAG_INIT;
	char *s, *long_name;
	long v;

	diag_set(&d, DIAG_INPUT, "a\nb.csv", 3, 2, "unknown column 'x\ty\x1b'");
	s = diag_format(&d);
	CHECK_STR(s, "a\\x0ab.csv:3:2: unknown column 'x\\x09y\\x1b'", "escaped");
	free(s);
	diag_set(&d, DIAG_IO, NULL, 0, 0, "second");
	CHECK(d.kind == DIAG_INPUT, "first error kept");
	diag_release(&d);

	long_name = malloc(5001);
	memset(long_name, 'w', 5000);
	long_name[5000] = '\0';
	diag_set(&d, DIAG_INPUT, "w.csv", 5, 1, "duplicate workload '%s' (first at line 4)", long_name);
	CHECK(strlen(d.msg) <= DIAG_MAX_TEXT, "shortened to %zu", strlen(d.msg));
	CHECK(strstr(d.msg, "...") != NULL, "cut marked");
	CHECK(!strncmp(d.msg, "duplicate workload 'www", 23), "start kept");
	CHECK(strstr(d.msg, "' (first at line 4)") != NULL, "hint kept: %s", d.msg + strlen(d.msg) - 30);
	diag_release(&d);
	/* a cut never splits a UTF-8 sequence */
	{
		char *e = malloc(3 * 2000 + 1);
		size_t i;
		for (i = 0; i < 2000; i++)
			memcpy(e + 3 * i, "\xe2\x82\xac", 3);
		e[6000] = '\0';
		diag_set(&d, DIAG_INPUT, NULL, 0, 0, "%s", e);
		CHECK(utf8_valid(d.msg, strlen(d.msg)), "cut at UTF-8 boundaries");
		CHECK(strlen(d.msg) <= DIAG_MAX_TEXT, "multibyte shortened to %zu", strlen(d.msg));
		free(e);
		diag_release(&d);
	}
	free(long_name);

	CHECK(ckd_add_l(LONG_MAX, 1, &v) == 1, "add overflows");
	CHECK(ckd_add_l(40, 2, &v) == 0 && v == 42, "add");
	CHECK(ckd_mul_l(LONG_MAX / 2, 3, &v) == 1, "mul overflows");
	CHECK(ckd_mul_l(1000000, 64, &v) == 0 && v == 64000000, "mul");
	return check_done();
}
