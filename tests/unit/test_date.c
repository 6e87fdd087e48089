/*
 * test_date.c - calendar dates (base/date.h): strict parsing, day
 * numbers both ways, formatting, and "12 months earlier" at month ends.
 */
#include <stdlib.h>

#include "check.h"
#include "date.h"

static void test_parse(void)
{
	static const struct {
		const char *s;
		int ok;
		long long y, m, d;
	} rows[] = {
		{ "1970-01-01", 1, 1970, 1, 1 },
		{ "2026-09-02", 1, 2026, 9, 2 },
		{ "2024-02-29", 1, 2024, 2, 29 },	/* leap year */
		{ "2000-02-29", 1, 2000, 2, 29 },	/* divisible by 400 */
		{ "1900-02-29", 0, 0, 0, 0 },		/* divisible by 100 only */
		{ "2026-02-29", 0, 0, 0, 0 },
		{ "2026-04-31", 0, 0, 0, 0 },
		{ "2026-13-01", 0, 0, 0, 0 },
		{ "2026-00-10", 0, 0, 0, 0 },
		{ "2026-01-00", 0, 0, 0, 0 },
		{ "2026-1-01", 0, 0, 0, 0 },
		{ "26-01-01", 0, 0, 0, 0 },
		{ "2026-01-01 ", 0, 0, 0, 0 },
		{ " 2026-01-01", 0, 0, 0, 0 },
		{ "2026-01-01T00:00", 0, 0, 0, 0 },
		{ "2026/01/01", 0, 0, 0, 0 },
		{ "", 0, 0, 0, 0 },
		{ "2026-01-0", 0, 0, 0, 0 },
	};
	size_t i;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		long long days = -12345, y, m, d;
		int rc = date_parse(rows[i].s, &days);
		CHECK((rc == 0) == rows[i].ok, "'%s' parses: %d", rows[i].s, rows[i].ok);
		if (rc || !rows[i].ok) {
			CHECK(rc || days == -12345, "'%s': untouched on error", rows[i].s);
			continue;
		}
		date_to_civil(days, &y, &m, &d);
		CHECK(y == rows[i].y && m == rows[i].m && d == rows[i].d, "'%s' round trip", rows[i].s);
		CHECK(days == date_from_civil(rows[i].y, rows[i].m, rows[i].d), "'%s' day number", rows[i].s);
	}
	CHECK(date_from_civil(1970, 1, 1) == 0 && date_from_civil(1969, 12, 31) == -1 &&
		      date_from_civil(2000, 3, 1) == 11017,
	      "day numbers: 1970-01-01 is 0, 2000-03-01 is 11017");
}

static void test_format_and_months(void)
{
	char buf[DATE_TEXT_SIZE];
	long long d;
	CHECK_STR(date_format(buf, sizeof(buf), 0), "1970-01-01", "format day 0");
	CHECK_STR(date_format(buf, sizeof(buf), -1), "1969-12-31", "format day -1");
	CHECK(date_parse("2026-11-25", &d) == 0, "parse");
	CHECK_STR(date_format(buf, sizeof(buf), date_minus_months(d, 12)), "2025-11-25", "12 months before");
	CHECK(date_parse("2024-02-29", &d) == 0, "parse");
	CHECK_STR(date_format(buf, sizeof(buf), date_minus_months(d, 12)), "2023-02-28", "Feb 29 minus a year");
	CHECK(date_parse("2026-03-31", &d) == 0, "parse");
	CHECK_STR(date_format(buf, sizeof(buf), date_minus_months(d, 1)), "2026-02-28", "Mar 31 minus a month");
	CHECK(date_parse("2026-01-15", &d) == 0, "parse");
	CHECK_STR(date_format(buf, sizeof(buf), date_minus_months(d, 13)), "2024-12-15", "across two years");
}

int main(void)
{
	test_parse();
	test_format_and_months();
	return check_done();
}
