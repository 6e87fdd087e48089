/*
 * test_csvdoc.c - CSV parsing with positions, column binding, typed fields.
 *
 * Rows of { input, expected message or NULL, rows, fields }: each input
 * is parsed from a buffer (csvdoc_parse) and, for a few, from a temp file
 * (csvdoc_load); the formatted diag must match exactly.  Then the
 * spreadsheet guard: names as sb_add_csv writes them, read back as they were.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "csvdoc.h"
#include "util.h"

static const struct {
	const char *in;
	size_t len;		/* 0: strlen(in) */
	const char *err;	/* NULL: parses */
	size_t nrows;
	long last_line;		/* line of the last row */
} parse_rows[] = {
	{ "a,b\n1,2\n", 0, NULL, 1, 2 },
	{ "a,b\r\n1,2\r\n3,4\r\n", 0, NULL, 2, 3 },
	{ "\xEF\xBB\xBF" "a,b\n1,2\n", 0, NULL, 1, 2 },
	{ "\xEF\xBB\xBF" "a,b\r\n1,2", 0, NULL, 1, 2 },
	{ "# c\n\na,b\n\n# x\n1,2\n", 0, NULL, 1, 6 },
	{ "a,b\n\"x\ny\",2\n3,4\n", 0, NULL, 2, 4 },
	{ "a,b\n\" 1 \", 2 \n", 0, NULL, 1, 2 },
	{ "a,b\n", 0, NULL, 0, 0 },
	{ "a,b", 0, NULL, 0, 0 },
	{ "", 0, "t.csv: empty file", 0, 0 },
	{ "\xEF\xBB\xBF", 0, "t.csv: empty file", 0, 0 },
	{ "# only\n\n", 0, "t.csv: empty file", 0, 0 },
	{ "a,b\n1\n", 0, "t.csv:2: 1 fields, but the header has 2", 0, 0 },
	{ "a,b\n1,2,3\n", 0, "t.csv:2: 3 fields, but the header has 2", 0, 0 },
	{ "a,b\n1,\xff\n", 0, "t.csv:2:2: invalid UTF-8", 0, 0 },
	{ "a,b\n1,\xc3\n", 0, "t.csv:2:2: invalid UTF-8", 0, 0 },
	{ "a,b\n1,\xed\xa0\x80\n", 0, "t.csv:2:2: invalid UTF-8", 0, 0 },
	{ "a,b\n1,\xc3\xa9\n", 0, NULL, 1, 2 },
	{ "a,b\n1,\"2\n", 0, "t.csv:2:2: malformed CSV: a quoted field is not closed", 0, 0 },
	{ "a,b\n1,x\"y\n", 0,
	  "t.csv:2:2: malformed CSV: a quote inside an unquoted field, or text after a closing quote", 0, 0 },
	{ "a,b\n1,\x01\n", 0, "t.csv:2:2: control character 0x01 in a field", 0, 0 },
	{ "\xFF\xFE" "a\0,\0", 6, "t.csv: UTF-16 text: save the file as UTF-8", 0, 0 },
	{ "a,b\n1,2\0\n", 9, "t.csv: binary file (contains a NUL byte)", 0, 0 },
	/* CR-only line ends count lines as LF does */
	{ "a,b\r1,2\r3,4\r", 0, NULL, 2, 3 },
	{ "a,b\r\n1,2\r3,4\n", 0, NULL, 2, 3 },
};

static const struct csvcol cols[] = {
	{ "name", 1 },
	{ "count", 1 },
	{ "note", 0 },
	{ NULL, 0 },
};

static const struct {
	const char *header;
	const char *err;
} bind_rows[] = {
	{ "name,count,note", NULL },
	{ "Count,NAME", NULL },
	{ "name,cont", "t.csv:1:2: unknown column 'cont' (did you mean 'count'?)" },
	{ "name,count,zzzzzz", "t.csv:1:3: unknown column 'zzzzzz' (expected name, count or note)" },
	{ "name,count,name", "t.csv:1:3: duplicate column 'name'" },
	{ "name,note", "t.csv:1: missing column 'count'" },
};

/* Fields of row 1 of "name,count\n<field>,<field>" read through the typed accessors. */
static const struct {
	const char *field;
	char kind;		/* n: num [0, 10], i: int [1, 5], b: bool */
	int rc;
	double v;
	const char *err;
} field_rows[] = {
	{ "2.5", 'n', 0, 2.5, NULL },
	{ "", 'n', 1, 0, NULL },
	{ "abc", 'n', -1, 0, "t.csv:2:2: column 'x': 'abc' is not a number" },
	{ "nan", 'n', -1, 0, "t.csv:2:2: column 'x': 'nan' is not finite" },
	{ "-inf", 'n', -1, 0, "t.csv:2:2: column 'x': '-inf' is not finite" },
	{ "1e999", 'n', -1, 0, "t.csv:2:2: column 'x': '1e999' is out of range" },
	{ "11", 'n', -1, 0, "t.csv:2:2: column 'x': '11' must be in [0, 10]" },
	{ "3", 'i', 0, 3, NULL },
	/* a whole value in any spelling is read (issue #34): 3.0, 4e0; a fraction or out of range is not */
	{ "3.0", 'i', 0, 3, NULL },
	{ "4e0", 'i', 0, 4, NULL },
	{ "2.5e0", 'i', -1, 0, "t.csv:2:2: column 'x': '2.5e0' is not a whole number" },
	{ "1e2", 'i', -1, 0, "t.csv:2:2: column 'x': '1e2' must be in [1, 5]" },
	{ "0", 'i', -1, 0, "t.csv:2:2: column 'x': 0 must be in [1, 5]" },
	{ "99999999999999999999", 'i', -1, 0,
	  "t.csv:2:2: column 'x': '99999999999999999999' is out of range" },
	{ "yes", 'b', 0, 1, NULL },
	{ "0", 'b', 0, 0, NULL },
	{ "FALSE", 'b', 0, 0, NULL },
	{ "maybe", 'b', -1, 0, "t.csv:2:2: column 'x': 'maybe' is not true or false" },
};

static char *msg_of(const struct diag *d)
{
	return d->kind == DIAG_NONE ? NULL : diag_format(d);
}

static void test_parse(void)
{
	size_t i;
	for (i = 0; i < sizeof(parse_rows) / sizeof(parse_rows[0]); i++) {
		struct csvdoc doc = CSVDOC_INIT;
		struct diag d = DIAG_INIT;
		size_t len = parse_rows[i].len ? parse_rows[i].len : strlen(parse_rows[i].in);
		int rc = csvdoc_parse(&doc, "t.csv", parse_rows[i].in, len, &d);
		char *m = msg_of(&d);
		if (parse_rows[i].err) {
			CHECK(rc < 0, "parse row %zu: rc %d", i, rc);
			CHECK_STR(m, parse_rows[i].err, "parse row %zu", i);
		} else {
			CHECK(rc == 0, "parse row %zu: rc %d (%s)", i, rc, m ? m : "");
			CHECK(doc.nrows == parse_rows[i].nrows, "parse row %zu: %zu rows", i, doc.nrows);
			if (doc.nrows)
				CHECK(doc.rows[doc.nrows - 1].line == parse_rows[i].last_line,
				      "parse row %zu: last row at line %ld", i, doc.rows[doc.nrows - 1].line);
		}
		free(m);
		diag_release(&d);
		csvdoc_release(&doc);
	}
}

static void test_values(void)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct diag d = DIAG_INIT;
	const char *in = "a,b\n\"x\ny\", 2 \n";
	CHECK(csvdoc_parse(&doc, "t.csv", in, strlen(in), &d) == 0, "quoted newline parses");
	CHECK(doc.nrows == 1 && doc.rows[0].line == 2, "row starts on line 2");
	CHECK_STR(doc.rows[0].f[0], "x\ny", "quoted newline kept");
	CHECK_STR(doc.rows[0].f[1], "2", "blanks trimmed");
	diag_release(&d);
	csvdoc_release(&doc);
}

static void test_bind(void)
{
	size_t i;
	for (i = 0; i < sizeof(bind_rows) / sizeof(bind_rows[0]); i++) {
		struct csvdoc doc = CSVDOC_INIT;
		struct diag d = DIAG_INIT;
		int idx[3];
		int rc;
		char *m;
		CHECK(csvdoc_parse(&doc, "t.csv", bind_rows[i].header, strlen(bind_rows[i].header), &d) == 0,
		      "bind row %zu parses", i);
		rc = csvdoc_bind(&doc, cols, idx, &d);
		m = msg_of(&d);
		if (bind_rows[i].err)
			CHECK_STR(m, bind_rows[i].err, "bind row %zu", i);
		else
			CHECK(rc == 0 && idx[0] >= 0 && idx[1] >= 0, "bind row %zu: rc %d", i, rc);
		free(m);
		diag_release(&d);
		csvdoc_release(&doc);
	}
}

static void test_fields(void)
{
	static const struct csvcol field_cols[] = { { "a", 1 }, { "x", 0 }, { NULL, 0 } };
	static const int idx[] = { 0, 1 };
	struct csvread rd = { NULL, NULL, field_cols, idx, NULL };
	size_t i;
	for (i = 0; i < sizeof(field_rows) / sizeof(field_rows[0]); i++) {
		struct csvdoc doc = CSVDOC_INIT;
		struct diag d = DIAG_INIT;
		char *in = xasprintf("a,x\n1,%s\n", field_rows[i].field);
		double v = -7;
		long long iv = -7;
		int bv = -7, rc = 0;
		char *m;

		CHECK(csvdoc_parse(&doc, "t.csv", in, strlen(in), &d) == 0, "field row %zu parses", i);
		rd.doc = &doc;
		rd.r = &doc.rows[0];
		rd.d = &d;
		if (field_rows[i].kind == 'n')
			rc = csvread_num(&rd, 1, 0, (struct num_range){ 0, 10, RANGE_CLOSED }, &v);
		else if (field_rows[i].kind == 'i')
			rc = csvread_int(&rd, 1, 0, 1, 5, &iv);
		else
			rc = csvread_bool(&rd, 1, 0, &bv);
		m = msg_of(&d);
		CHECK(rc == field_rows[i].rc, "field row %zu '%s': rc %d", i, field_rows[i].field, rc);
		if (field_rows[i].err)
			CHECK_STR(m, field_rows[i].err, "field row %zu", i);
		else if (rc == 0)
			CHECK((field_rows[i].kind == 'n' ? v : field_rows[i].kind == 'i' ? (double)iv : bv) ==
				      field_rows[i].v,
			      "field row %zu value", i);
		free(m);
		free(in);
		diag_release(&d);
		csvdoc_release(&doc);
	}
}

static void test_load(void)
{
	char path[] = "/tmp/test_csvdoc_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	struct csvdoc doc = CSVDOC_INIT;
	struct diag d = DIAG_INIT;
	char *m;

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	fputs("\xEF\xBB\xBFname,count\r\n# comment\r\nx,1\r\n", f);
	fclose(f);
	CHECK(csvdoc_load(&doc, path, &d) == 0, "load with BOM and CRLF");
	CHECK(doc.nrows == 1 && doc.rows[0].line == 3, "row on line 3");
	CHECK_STR(doc.header.f[0], "name", "BOM stripped from the first header");
	csvdoc_release(&doc);
	unlink(path);

	CHECK(csvdoc_load(&doc, path, &d) < 0, "missing file fails");
	m = msg_of(&d);
	CHECK(m && strstr(m, "cannot open: No such file or directory"), "missing file message: %s",
	      m ? m : "(none)");
	free(m);
	diag_release(&d);
	csvdoc_release(&doc);
}

/*
 * The spreadsheet guard (issue 57): each name as sb_add_csv writes it,
 * and read back by csvdoc as it was.
 */
static const struct {
	const char *name;
	const char *cell;	/* what sb_add_csv writes */
} guard_rows[] = {
	{ "plain", "plain" },
	{ "", "" },
	{ "a,b", "\"a,b\"" },
	{ "=SUM(A1)", "\"'=SUM(A1)\"" },
	{ "=HYPERLINK(\"x\")", "\"'=HYPERLINK(\"\"x\"\")\"" },
	{ "+1+1", "\"'+1+1\"" },
	{ "-cmd", "\"'-cmd\"" },
	{ "@SUM(1)", "\"'@SUM(1)\"" },
	{ "\tx", "\"'\tx\"" },
	{ "\rx", "\"'\rx\"" },
	{ "-", "\"'-\"" },
	{ "+.", "\"'+.\"" },
	{ "-1e", "\"'-1e\"" },
	{ "-inf", "\"'-inf\"" },
	{ "-12", "-12" },		/* numbers stay numbers */
	{ "+1.5", "+1.5" },
	{ "-.5e-3", "-.5e-3" },
	{ "'=x", "\"''=x\"" },		/* looks guarded: guarded again, so it reads back */
	{ "''", "\"'''\"" },
	{ "'x", "'x" },
	{ "'", "'" },
	{ "x=1", "x=1" },
};

static void test_guard(void)
{
	size_t i;

	for (i = 0; i < sizeof(guard_rows) / sizeof(guard_rows[0]); i++) {
		struct csvdoc doc = CSVDOC_INIT;
		struct diag d = DIAG_INIT;
		size_t n = strlen(guard_rows[i].cell);
		struct sb sb;

		sb_init(&sb);
		sb_adds(&sb, "name,n\n");
		sb_add_csv(&sb, guard_rows[i].name);
		sb_adds(&sb, ",1\n");
		CHECK(!strncmp(sb.buf + 7, guard_rows[i].cell, n) && sb.buf[7 + n] == ',', "row %zu: written as %s", i,
		      sb.buf + 7);
		CHECK(csvdoc_parse(&doc, "t.csv", sb.buf, sb.len, &d) == 0 && doc.nrows == 1, "row %zu parses", i);
		if (doc.nrows == 1)
			CHECK_STR(doc.rows[0].f[0], guard_rows[i].name, "row %zu reads back", i);
		csvdoc_release(&doc);
		diag_release(&d);
		sb_release(&sb);
	}
}

int main(void)
{
	test_parse();
	test_values();
	test_bind();
	test_fields();
	test_load();
	test_guard();
	return check_done();
}
