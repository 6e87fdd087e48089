/*
 * test_ydoc.c - YAML into a positioned tree, and typed access.
 *
 * Rows of { input, expected message or NULL }; positions are 1-based.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "util.h"
#include "ydoc.h"

static const struct {
	const char *in;
	const char *err;	/* NULL: parses */
} parse_rows[] = {
	{ "a: 1\nb: [x, y]\nc: {d: 2}\n", NULL },
	{ "\xEF\xBB\xBF" "a: 1\r\nb: 2\r\n", NULL },
	{ "---\na: 1\n...\n", NULL },
	{ "", "t.yaml: empty file" },
	{ "   ", "t.yaml: empty file" },
	{ "# only a comment\n", "t.yaml: empty file" },
	{ "---\n", "t.yaml: empty file" },
	{ "a: 1\na: 2\n", "t.yaml:2:1: duplicate key 'a' (first at line 1)" },
	{ "a: &x 1\nb: *x\n", "t.yaml:1:4: anchors and tags are not supported" },
	{ "a: !!str 1\n", "t.yaml:1:4: anchors and tags are not supported" },
	{ "? [a]\n: 1\n", "t.yaml:1:3: mapping keys must be plain scalars" },
	{ "a: 1\n---\nb: 2\n", "t.yaml:2: more than one YAML document in the file" },
	{ "a: {b: 1\nc: 2\n", "t.yaml:2:2: did not find expected ',' or '}' while parsing a flow mapping" },
	{ "a: \xff\n", "t.yaml:1:4: invalid UTF-8" },
	/* Reader errors: LINE:COL counted from libyaml's byte offset. */
	{ "a: 1\nb: x\xff\n", "t.yaml:2:5: invalid UTF-8" },
	{ "a: 1\r\nb: \xc3\xa9\xff\n", "t.yaml:2:5: invalid UTF-8" },
	{ "a: 1\rb: \xff\n", "t.yaml:2:4: invalid UTF-8" },
	{ "\xEF\xBB\xBF" "a: \xff\n", "t.yaml:1:4: invalid UTF-8" },
	{ "a: 1\n\nb: \xc3", "t.yaml:3:4: invalid UTF-8" },
	{ "a: \xed\xa0\x80\n", "t.yaml:1:4: invalid UTF-8" },		/* a surrogate */
	{ "a: \xc3\xa9\xe2\x82x\n", "t.yaml:1:5: invalid UTF-8" },	/* bad 3rd byte of a 3 */
	{ "a: \xe9\n", "t.yaml:1:4: invalid UTF-8" },			/* Latin-1 e-acute */
	{ "a: 1\nb: \x01\n", "t.yaml:2:4: control characters are not allowed" },
	{ "a: \"x\\ty\\u0007\"\n", "t.yaml:1:4: control character 0x07 in a value" },
	{ "a:\n\tb: 1\n", "t.yaml:2:1: tab character: YAML indents with spaces only" },
	{ "\xFF\xFE" "a\0:\0", "t.yaml: UTF-16 text: save the file as UTF-8" },
};

static const struct {
	const char *in;		/* a one-key map "v: <in>" */
	char kind;		/* n: num [0, 10], i: int [1, 5], b: bool, s: str */
	int rc;
	const char *err;
} field_rows[] = {
	{ "2.5", 'n', 0, NULL },
	{ "~", 'n', 1, NULL },
	{ "abc", 'n', -1, "t.yaml:1:4: field 'v': 'abc' is not a number" },
	{ ".nan", 'n', -1, "t.yaml:1:4: field 'v': '.nan' is not finite" },
	{ "11", 'n', -1, "t.yaml:1:4: field 'v': '11' must be in [0, 10]" },
	{ "[1]", 'n', -1, "t.yaml:1:4: field 'v' must be a scalar, not a list" },
	{ "3", 'i', 0, NULL },
	{ "3.5", 'i', -1, "t.yaml:1:4: field 'v': '3.5' is not a whole number" },
	{ "9", 'i', -1, "t.yaml:1:4: field 'v': 9 must be in [1, 5]" },
	{ "yes", 'b', 0, NULL },
	{ "perhaps", 'b', -1, "t.yaml:1:4: field 'v': 'perhaps' is not true or false" },
	{ "\"\"", 's', 0, NULL },
	{ "null", 's', 1, NULL },
};

static char *msg_of(const struct diag *d)
{
	return d->kind == DIAG_NONE ? NULL : diag_format(d);
}

static void test_parse(void)
{
	size_t i;
	for (i = 0; i < sizeof(parse_rows) / sizeof(parse_rows[0]); i++) {
		struct ydoc doc = YDOC_INIT;
		struct diag d = DIAG_INIT;
		/* An exact-size copy, not NUL-terminated: the parser must respect len. */
		size_t len = strlen(parse_rows[i].in);
		char *buf = xmalloc(len ? len : 1);
		int rc;
		char *m;
		memcpy(buf, parse_rows[i].in, len);
		rc = ydoc_parse(&doc, "t.yaml", buf, len, &d);
		m = msg_of(&d);
		if (parse_rows[i].err) {
			CHECK(rc < 0, "parse row %zu: rc %d", i, rc);
			CHECK_STR(m, parse_rows[i].err, "parse row %zu", i);
		} else {
			CHECK(rc == 0 && doc.root, "parse row %zu: rc %d (%s)", i, rc, m ? m : "");
		}
		free(m);
		free(buf);
		diag_release(&d);
		ydoc_release(&doc);
	}
}

static void test_positions(void)
{
	struct ydoc doc = YDOC_INIT;
	struct diag d = DIAG_INIT;
	const char *in = "a: 1\nsub:\n  b: two\n  list: [x, y]\n";
	const struct ynode *sub, *b;
	static const char *const keys[] = { "a", "sub", NULL };
	static const char *const subkeys[] = { "b", "lists", NULL };
	char *m;

	CHECK(ydoc_parse(&doc, "t.yaml", in, strlen(in), &d) == 0, "positions parse");
	sub = ymap_get(doc.root, "sub");
	CHECK(sub && sub->type == YN_MAP && sub->line == 3 && sub->col == 3, "sub at 3:3");
	b = ymap_get(sub, "b");
	CHECK(b && b->line == 3 && b->col == 6 && !strcmp(b->scalar, "two"), "b at 3:6");
	CHECK(sub->key_line[1] == 4 && sub->key_col[1] == 3, "key 'list' at 4:3");
	CHECK(ymap_check_keys(&doc, doc.root, keys, NULL, &d) == 0, "root keys ok");
	CHECK(ymap_check_keys(&doc, sub, subkeys, "sub", &d) < 0, "unknown key fails");
	m = msg_of(&d);
	CHECK_STR(m, "t.yaml:4:3: unknown field 'list' in sub (did you mean 'lists'?)", "hint");
	free(m);
	diag_release(&d);
	CHECK(ynode_expect(&doc, sub, YN_SEQ, "sub", &d) < 0, "expect list fails");
	m = msg_of(&d);
	CHECK_STR(m, "t.yaml:3:3: 'sub' must be a list, not a mapping", "expect message");
	free(m);
	diag_release(&d);
	ydoc_release(&doc);
}

static void test_fields(void)
{
	size_t i;
	for (i = 0; i < sizeof(field_rows) / sizeof(field_rows[0]); i++) {
		struct ydoc doc = YDOC_INIT;
		struct diag d = DIAG_INIT;
		char *in = xasprintf("v: %s\n", field_rows[i].in);
		double v;
		long long iv;
		int bv, rc;
		const char *s;
		struct yread y;
		char *m;

		CHECK(ydoc_parse(&doc, "t.yaml", in, strlen(in), &d) == 0, "field row %zu parses", i);
		y = (struct yread){ &doc, doc.root, &d };
		switch (field_rows[i].kind) {
		case 'n':
			rc = yread_num(&y, "v", 0, (struct num_range){ 0, 10, RANGE_CLOSED }, &v);
			break;
		case 'i':
			rc = yread_int(&y, "v", 0, 1, 5, &iv);
			break;
		case 'b':
			rc = yread_bool(&y, "v", 0, &bv);
			break;
		default:
			rc = yread_str(&y, "v", 0, &s);
			break;
		}
		m = msg_of(&d);
		CHECK(rc == field_rows[i].rc, "field row %zu '%s': rc %d", i, field_rows[i].in, rc);
		if (field_rows[i].err)
			CHECK_STR(m, field_rows[i].err, "field row %zu", i);
		free(m);
		free(in);
		diag_release(&d);
		ydoc_release(&doc);
	}
}

static void test_load(void)
{
	struct ydoc doc = YDOC_INIT;
	struct diag d = DIAG_INIT;
	char path[] = "/tmp/test_ydoc_XXXXXX";
	int fd = mkstemp(path);
	FILE *f;
	char *m;

	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	f = fdopen(fd, "wb");
	fputs("a: 1\n", f);
	fclose(f);
	CHECK(ydoc_load(&doc, path, &d) == 0 && doc.root, "load");
	ydoc_release(&doc);
	unlink(path);
	CHECK(ydoc_load(&doc, path, &d) < 0, "missing file fails");
	m = msg_of(&d);
	CHECK(m && strstr(m, "cannot open: No such file or directory"), "missing: %s", m ? m : "");
	free(m);
	diag_release(&d);
	ydoc_release(&doc);
}

int main(void)
{
	test_parse();
	test_positions();
	test_fields();
	test_load();
	return check_done();
}
