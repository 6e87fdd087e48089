/*
 * fuzz_csv.c - libFuzzer harness for the CSV reader (csvdoc): parse the
 * input, bind it to a column table, and read every field as each type.
 * Nothing may crash, leak or read out of bounds; errors must carry a
 * message.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "csvdoc.h"
#include "fuzz.h"

static const struct csvcol cols[] = {
	{ "name", 1 }, { "count", 0 }, { "share", 0 }, { "flag", 0 }, { NULL, 0 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct diag d = DIAG_INIT;
	int idx[4];
	size_t i;

	if (csvdoc_parse(&doc, "fuzz.csv", (const char *)data, size, &d)) {
		fuzz_check_diag(&d);
		goto out;
	}
	if (csvdoc_bind(&doc, cols, idx, &d)) {
		fuzz_check_diag(&d);
		goto out;
	}
	for (i = 0; i < doc.nrows; i++) {
		const struct csvrow *r = &doc.rows[i];
		const char *s;
		long long ll;
		double x;
		int b;

		diag_release(&d);
		(void)csvdoc_str(&doc, r, idx[0], "name", 1, &s, &d);
		diag_release(&d);
		(void)csvdoc_int(&doc, r, idx[1], "count", 0, 1, LLONG_MAX, &ll, &d);
		diag_release(&d);
		(void)csvdoc_num_range(&doc, r, idx[2], "share", 0, 0, 1, RANGE_LO_OPEN, &x, &d);
		diag_release(&d);
		(void)csvdoc_num_range(&doc, r, idx[1], "count", 0, 0, HUGE_VAL, RANGE_CLOSED, &x, &d);
		diag_release(&d);
		(void)csvdoc_bool(&doc, r, idx[3], "flag", 0, &b, &d);
		if (d.kind != DIAG_NONE)
			fuzz_check_diag(&d);
	}
out:
	diag_release(&d);
	csvdoc_release(&doc);
	return 0;
}
