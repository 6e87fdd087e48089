/*
 * test_util.c - strict number parsing, edit distance, fixed formatting.
 */
#include <stdlib.h>

#include "check.h"
#include "util.h"

static const struct {
	const char *in;
	int rc;
	double v;
} doubles[] = {
	{ "1", PARSE_OK, 1 },
	{ "-2.5", PARSE_OK, -2.5 },
	{ "+3e2", PARSE_OK, 300 },
	{ ".5", PARSE_OK, 0.5 },
	{ "5.", PARSE_OK, 5 },
	{ "", PARSE_EMPTY, 0 },
	{ "abc", PARSE_SYNTAX, 0 },
	{ "1,5", PARSE_SYNTAX, 0 },
	{ "1.5x", PARSE_SYNTAX, 0 },
	{ " 1", PARSE_SYNTAX, 0 },
	{ "0x10", PARSE_SYNTAX, 0 },
	{ "nan", PARSE_NONFINITE, 0 },
	{ "-Inf", PARSE_NONFINITE, 0 },
	{ ".inf", PARSE_NONFINITE, 0 },
	{ "1e999", PARSE_RANGE, 0 },
	{ "e5", PARSE_SYNTAX, 0 },
	{ "1e", PARSE_SYNTAX, 0 },
};

static const struct {
	const char *in;
	int rc;
	long long v;
} llongs[] = {
	{ "42", PARSE_OK, 42 },
	{ "-7", PARSE_OK, -7 },
	{ "9223372036854775807", PARSE_OK, 9223372036854775807LL },
	{ "9223372036854775808", PARSE_RANGE, 0 },
	{ "1.0", PARSE_SYNTAX, 0 },
	{ "", PARSE_EMPTY, 0 },
	{ "12a", PARSE_SYNTAX, 0 },
	{ "NaN", PARSE_NONFINITE, 0 },
};

int main(void)
{
	size_t i;
	char buf[64];

	for (i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
		double v = 0;
		int rc = parse_double(doubles[i].in, &v);
		CHECK(rc == doubles[i].rc, "parse_double row %zu '%s': rc %d", i, doubles[i].in, rc);
		if (rc == PARSE_OK)
			CHECK(v == doubles[i].v, "parse_double row %zu '%s': value", i, doubles[i].in);
	}
	for (i = 0; i < sizeof(llongs) / sizeof(llongs[0]); i++) {
		long long v = 0;
		int rc = parse_llong(llongs[i].in, &v);
		CHECK(rc == llongs[i].rc, "parse_llong row %zu '%s': rc %d", i, llongs[i].in, rc);
		if (rc == PARSE_OK)
			CHECK(v == llongs[i].v, "parse_llong row %zu '%s': value", i, llongs[i].in);
	}
	CHECK(str_edit_distance("H100", "h100") == 0, "case-insensitive");
	CHECK(str_edit_distance("H100X", "H100") == 1, "one insertion");
	CHECK(str_edit_distance("kitten", "sitting") == 3, "classic");
	CHECK(str_casecmp("Vsphere", "VSPHERE") == 0, "casecmp");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), -0.001, 2), "0.00", "negative zero");
	CHECK_STR(fmt_fixed(buf, sizeof(buf), 1234.567, 2), "1234.57", "rounding");
	{
		struct sb sb;
		char *s;
		sb_init(&sb);
		sb_addf(&sb, "%d-%s", 7, "x");
		sb_adds(&sb, "y");
		s = sb_detach(&sb);
		CHECK_STR(s, "7-xy", "sb");
		free(s);
		sb_release(&sb);
	}
	return check_done();
}
