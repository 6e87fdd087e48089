/*
 * test_util.c - strict number parsing, edit distance, near-miss hints,
 * number and range formatting, the growable string, whole-file reads.
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* str_closest over hint_names: the names given, '|' between, best first; "" none. */
static const struct {
	const char *in;
	const char *want;
	size_t near;		/* how many are near (may exceed HINT_MAX) */
} hints[] = {
	{ "inventroy", "inventory", 1 },	/* transposition, 9 chars: 2 edits */
	{ "Workloads", "workloads", 1 },	/* case only */
	{ "zzz", "", 0 },
	{ "inv", "inventory", 1 },		/* a prefix of 3 characters */
	{ "in", "", 0 },			/* 2 characters: no prefix rule, 1 edit at most */
	{ "horizon", "horizon_years", 1 },	/* a prefix, 6 edits away */
	{ "years", "horizon_years", 1 },	/* inside */
	{ "horizon_years_max", "", 0 },		/* 4 edits; a longer word is not "inside" */
	{ "horizon_yaers", "horizon_years", 1 },
	{ "horizn_yrs", "horizon_years", 1 },	/* 3 edits, 10 chars */
	{ "hrzn_yrs", "", 0 },			/* 5 edits */
	{ "site", "sites", 1 },			/* a prefix, not the 1-edit sits */
	{ "sitx", "sits", 1 },			/* 4 chars: 1 edit, not 2 */
	{ "sxtx", "", 0 },			/* 4 chars, 2 edits */
	{ "gpu", "gpu_a|gpu_b|gpu_c", 4 },	/* more than HINT_MAX: the first in order */
	{ "GPU_D", "gpu_d", 1 },		/* case only (a prefix): not the 1-edit gpu_a.. */
	{ "gpu_e", "gpu_a|gpu_b|gpu_c", 4 },	/* 1 edit each: all of them, in order */
	{ "inventorx", "inventory", 1 },	/* the fewest edits only */
};
static const char *const hint_names[] = { "inventory", "workloads", "horizon_years", "sites", "sits",
					  "gpu_a", "gpu_b", "gpu_c", "gpu_d", NULL };
static const char *const few_names[] = { "flat", "daily", NULL };

/* str_closest's names joined by '|'. */
static char *closest_text(const char *in, size_t *near)
{
	const char *out[HINT_MAX];
	struct sb sb;
	size_t i;

	*near = str_closest(in, hint_names, out);
	sb_init(&sb);
	for (i = 0; i < *near && i < HINT_MAX; i++)
		sb_addf(&sb, "%s%s", i ? "|" : "", out[i]);
	return sb_detach(&sb);
}

static void check_hints(void)
{
	const char *three[] = { "a", "b", "c" };
	size_t i, near;
	char *s;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++) {
		s = closest_text(hints[i].in, &near);
		CHECK_STR(s, hints[i].want, "hint row %zu '%s'", i, hints[i].in);
		CHECK(near == hints[i].near, "hint row %zu '%s': %zu near", i, hints[i].in, near);
		free(s);
	}
	s = str_hint_text(three, 0);
	CHECK_STR(s, "", "no names: no hint");
	free(s);
	s = str_hint_text(three, 1);
	CHECK_STR(s, " (did you mean 'a'?)", "one name");
	free(s);
	s = str_hint_text(three, 2);
	CHECK_STR(s, " (did you mean 'a' or 'b'?)", "two names");
	free(s);
	s = str_hint_text(three, 3);
	CHECK_STR(s, " (did you mean 'a', 'b' or 'c'?)", "three names");
	free(s);
	s = str_hint_text(three, 5);
	CHECK_STR(s, " (did you mean 'a', 'b', 'c' or one of 2 more?)", "more than HINT_MAX");
	free(s);
	s = str_hint("dayly", few_names);
	CHECK_STR(s, " (did you mean 'daily'?)", "str_hint: near");
	free(s);
	s = str_hint("hourly", few_names);
	CHECK_STR(s, " (expected flat or daily)", "str_hint: a small set listed");
	free(s);
	s = str_hint("zzz", hint_names);
	CHECK_STR(s, "", "str_hint: a set of more than HINT_LIST_ALL is not listed");
	free(s);
}

static const struct {
	double v;
	int decimals;
	const char *want;
} shorts[] = {
	{ 0, 6, "0" },
	{ 30, 6, "30" },
	{ 0.5, 6, "0.5" },
	{ -1.25, 6, "-1.25" },
	{ 1e-7, 6, "0" },
	{ -1e-7, 6, "0" },
	{ 2.005, 2, "2" },	/* 2.00 (binary 2.00499...) */
	{ 1234567.125, 6, "1234567.125" },
	{ 86400, 2, "86400" },
};

static const struct {
	double lo, hi;
	int open;
	const char *want;
} ranges[] = {
	{ 0, 1, RANGE_LO_OPEN, "in (0, 1]" },
	{ 0, 1, RANGE_HI_OPEN, "in [0, 1)" },
	{ 0, 1, RANGE_LO_OPEN | RANGE_HI_OPEN, "in (0, 1)" },
	{ 1, 3, RANGE_CLOSED, "in [1, 3]" },
	{ 0, HUGE_VAL, RANGE_LO_OPEN, "greater than 0" },
	{ 0, DBL_MAX, RANGE_CLOSED, "at least 0" },
	{ -HUGE_VAL, 2.5, RANGE_HI_OPEN, "less than 2.5" },
	{ -DBL_MAX, 2.5, RANGE_CLOSED, "at most 2.5" },
	{ -DBL_MAX, DBL_MAX, RANGE_CLOSED, "a number" },
	{ 0.25, 1e9, RANGE_CLOSED, "in [0.25, 1000000000]" },
};

static const struct {
	long long lo, hi;
	const char *want;
} ll_ranges[] = {
	{ 1, 64, "in [1, 64]" },
	{ -3, 3, "in [-3, 3]" },
	{ 1, LLONG_MAX, "at least 1" },
	{ LLONG_MIN, 5, "at most 5" },
	{ LLONG_MIN, LLONG_MAX, "a whole number" },
};

static const struct {
	double x, lo, hi;
	int open, in;
} contains[] = {
	{ 0, 0, 1, RANGE_CLOSED, 1 },
	{ 0, 0, 1, RANGE_LO_OPEN, 0 },
	{ 1, 0, 1, RANGE_HI_OPEN, 0 },
	{ 1, 0, 1, RANGE_LO_OPEN, 1 },
	{ 1e300, 0, HUGE_VAL, RANGE_LO_OPEN, 1 },
	{ -1, 0, HUGE_VAL, RANGE_CLOSED, 0 },
};

static void test_sb(void)
{
	struct sb sb;
	char *s;

	sb_init(&sb);
	CHECK(sb.buf && sb.buf[0] == '\0', "sb_init: empty string");
	sb_addf(&sb, "%d-%s", 7, "x");
	sb_adds(&sb, "y");
	s = sb_detach(&sb);
	CHECK_STR(s, "7-xy", "sb");
	CHECK(sb.buf == NULL && sb.len == 0 && sb.cap == 0, "sb_detach leaves the sb released");
	free(s);
	sb_release(&sb);	/* a no-op on a detached sb */
	CHECK(sb.buf == NULL, "sb_release after sb_detach");
	/* A released sb is reusable and stays NUL-terminated. */
	sb_addn(&sb, "", 0);
	CHECK_STR(sb.buf, "", "empty add on a released sb");
	sb_adds(&sb, "ab");
	sb_addf(&sb, "%s", "c");
	CHECK_STR(sb.buf, "abc", "adds after detach");
	CHECK(sb.len == 3, "len after reuse: %zu", sb.len);
	s = sb_detach(&sb);
	CHECK_STR(s, "abc", "second detach");
	free(s);
	s = sb_detach(&sb);
	CHECK(s == NULL, "detach of a released sb gives NULL");
	sb_release(&sb);
}

static void test_file_read(void)
{
	char path[] = "/tmp/test_util_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	char *buf = (char *)1, msg[256];
	size_t len = 99;

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	fputs("hello\n", f);
	fclose(f);
	CHECK(file_read_all(path, 100, &buf, &len) == 0, "read");
	CHECK(buf && len == 6 && !strcmp(buf, "hello\n"), "read: content");
	free(buf);
	CHECK(file_read_all(path, 6, &buf, &len) == 0, "read: exactly max");
	free(buf);
	CHECK(file_read_all(path, 5, &buf, &len) == FILE_READ_TOO_BIG && buf == NULL, "read: too big");
	unlink(path);
	CHECK(file_read_all(path, 100, &buf, &len) == FILE_READ_OPEN && errno == ENOENT && buf == NULL,
	      "read: missing file");
	CHECK_STR(file_read_strerror(msg, sizeof(msg), FILE_READ_OPEN, 100),
		  "cannot open: No such file or directory", "read: open message");
	CHECK_STR(file_read_strerror(msg, sizeof(msg), FILE_READ_TOO_BIG, 5), "file larger than 5 bytes",
		  "read: size message");
	CHECK(file_read_all("/", 100, &buf, &len) == FILE_READ_IO && buf == NULL, "read: a directory");
}

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
	check_hints();
	for (i = 0; i < sizeof(shorts) / sizeof(shorts[0]); i++)
		CHECK_STR(fmt_num_short(buf, sizeof(buf), shorts[i].v, shorts[i].decimals), shorts[i].want,
			  "fmt_num_short row %zu", i);
	for (i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		char rb[RANGE_TEXT_SIZE];
		CHECK_STR(range_text(rb, sizeof(rb), ranges[i].lo, ranges[i].hi, ranges[i].open), ranges[i].want,
			  "range_text row %zu", i);
	}
	for (i = 0; i < sizeof(ll_ranges) / sizeof(ll_ranges[0]); i++) {
		char rb[RANGE_TEXT_SIZE];
		CHECK_STR(range_text_ll(rb, sizeof(rb), ll_ranges[i].lo, ll_ranges[i].hi), ll_ranges[i].want,
			  "range_text_ll row %zu", i);
	}
	for (i = 0; i < sizeof(contains) / sizeof(contains[0]); i++)
		CHECK(range_contains(contains[i].x, contains[i].lo, contains[i].hi, contains[i].open) == contains[i].in,
		      "range_contains row %zu", i);
	test_sb();
	test_file_read();
	return check_done();
}
