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
		const struct csvread rd = { &doc, &doc.rows[i], cols, idx, &d };
		const char *s;
		long long ll;
		double x;
		int b;

		diag_release(&d);
		(void)csvread_str(&rd, 0, 1, &s);
		diag_release(&d);
		(void)csvread_int(&rd, 1, 0, 1, LLONG_MAX, &ll);
		diag_release(&d);
		(void)csvread_num(&rd, 2, 0, (struct num_range){ 0, 1, RANGE_LO_OPEN }, &x);
		diag_release(&d);
		(void)csvread_num(&rd, 1, 0, (struct num_range){ 0, HUGE_VAL, RANGE_CLOSED }, &x);
		diag_release(&d);
		(void)csvread_bool(&rd, 3, 0, &b);
		if (d.kind != DIAG_NONE)
			fuzz_check_diag(&d);
	}
out:
	diag_release(&d);
	csvdoc_release(&doc);
	return 0;
}
