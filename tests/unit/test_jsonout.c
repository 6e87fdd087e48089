/*
 * test_jsonout.c - plan.json's streamed writer (report/jsonout.h): a
 * document written member by member, its arrays' flat objects member by
 * member, must be the bytes cJSON_Print gives for the same tree.  Rows
 * of awkward values: strings to escape, control characters, UTF-8,
 * integers at int's edges, fractions, negative zero, NaN; and the same
 * inside a member holding an object (plan.json's "failures").
 */
#include <cJSON.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "jsonout.h"

static const char *const strs[] = {
	"plain", "", "quote\"d", "back\\slash", "tab\there", "line\nbreak", "cr\rx", "\b\f", "\x01\x1f ctl",
	"caf\xc3\xa9 \xe2\x82\xac", "del\x7f", "=HYPERLINK(\"x\")", "/slash/",
};
static const double nums[] = {
	0, 1, -1, 42, INT_MAX, INT_MIN, (double)INT_MAX + 1, (double)INT_MIN - 1, 1e15, -1e300, 0.5, 0.1234, -2.75,
	1.0 / 3, 123456.78, 1e-7, DBL_MIN, DBL_MAX, -0.0,
};
#define NSTR (sizeof(strs) / sizeof(strs[0]))
#define NNUM (sizeof(nums) / sizeof(nums[0]))

/* The file's bytes; caller frees. */
static char *slurp(FILE *f)
{
	long n;
	char *b;

	fflush(f);
	n = ftell(f);
	b = calloc((size_t)n + 1, 1);
	rewind(f);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n)
		b[0] = '\0';
	return b;
}

/* What was streamed into f is want (cJSON_Print of doc); frees want and doc, closes f. */
static void check_same(FILE *f, cJSON *doc, char *want, const char *what, size_t n)
{
	char *got = slurp(f);

	CHECK(want && got && !strcmp(want, got), "%s, %zu rows: streamed and cJSON_Print differ:\n%s\n---\n%s", what, n,
	      got ? got : "(null)", want ? want : "(null)");
	free(got);
	cJSON_free(want);
	cJSON_Delete(doc);
	fclose(f);
}

/* Element i of the array: two strings, two numbers and a string array of i strings. */
static void add_tree_elem(cJSON *arr, size_t i)
{
	cJSON *o = cJSON_CreateObject(), *a = cJSON_CreateArray();
	size_t j;

	cJSON_AddStringToObject(o, strs[i % NSTR], strs[(i + 3) % NSTR]);
	cJSON_AddNumberToObject(o, "n", nums[i % NNUM]);
	cJSON_AddStringToObject(o, "s", strs[i % NSTR]);
	for (j = 0; j < i % 4; j++)
		cJSON_AddItemToArray(a, cJSON_CreateString(strs[(i + j) % NSTR]));
	cJSON_AddItemToObject(o, "list", a);
	cJSON_AddNumberToObject(o, "m", nums[(i * 7) % NNUM]);
	cJSON_AddItemToArray(arr, o);
}

static void put_stream_elem(struct jsonout *jo, size_t i)
{
	size_t j;

	jsonout_obj_begin(jo);
	jsonout_obj_str(jo, strs[i % NSTR], strs[(i + 3) % NSTR]);
	jsonout_obj_num(jo, "n", nums[i % NNUM]);
	jsonout_obj_str(jo, "s", strs[i % NSTR]);
	jsonout_obj_strs_begin(jo, "list");
	for (j = 0; j < i % 4; j++)
		jsonout_obj_strs_add(jo, strs[(i + j) % NSTR]);
	jsonout_obj_strs_end(jo);
	jsonout_obj_num(jo, "m", nums[(i * 7) % NNUM]);
	jsonout_obj_end(jo);
}

/* A document of a member, an array of n flat objects, an empty array and a member after them. */
static void test_doc(size_t n)
{
	cJSON *doc = cJSON_CreateObject(), *arr, *m;
	struct jsonout jo;
	FILE *f = tmpfile();
	char *want;
	size_t i;

	cJSON_AddStringToObject(doc, "schema_version", "1.2.3");
	arr = cJSON_AddArrayToObject(doc, "rows");
	for (i = 0; i < n; i++)
		add_tree_elem(arr, i);
	cJSON_AddArrayToObject(doc, "empty");
	cJSON_AddNumberToObject(doc, "after", 0.25);
	want = cJSON_Print(doc);

	jsonout_begin(&jo, f);
	cJSON_ArrayForEach(m, doc) {
		if (m == arr) {
			jsonout_array_begin(&jo, "rows");
			for (i = 0; i < n; i++)
				put_stream_elem(&jo, i);
			jsonout_array_end(&jo);
		} else {
			jsonout_member(&jo, m);
		}
	}
	jsonout_end(&jo);
	check_same(f, doc, want, "flat", n);
}

/*
 * A member holding an object (jsonout_object_begin) whose members are an
 * array of n flat objects, an array of trees, an empty array, an object and
 * a null, then an empty object and a member after them: one level deeper.
 */
static void test_nested(size_t n)
{
	cJSON *doc = cJSON_CreateObject(), *grp, *rows, *trees, *res, *m, *c;
	struct jsonout jo;
	FILE *f = tmpfile();
	char *want;
	size_t i;

	cJSON_AddStringToObject(doc, "schema_version", "1.2.3");
	grp = cJSON_AddObjectToObject(doc, "group");
	rows = cJSON_AddArrayToObject(grp, "rows");
	for (i = 0; i < n; i++)
		add_tree_elem(rows, i);
	trees = cJSON_AddArrayToObject(grp, "trees");
	for (i = 0; i < n % 5; i++)
		add_tree_elem(trees, i + 1);
	cJSON_AddArrayToObject(grp, "none");
	res = cJSON_AddObjectToObject(grp, "resilience");
	cJSON_AddStringToObject(res, "survive", "node");
	cJSON_AddNumberToObject(res, "count", 2);
	cJSON_AddItemToObject(res, "list", cJSON_CreateArray());
	cJSON_AddNullToObject(grp, "nothing");
	cJSON_AddObjectToObject(doc, "void");
	cJSON_AddNumberToObject(doc, "after", 0.25);
	want = cJSON_Print(doc);

	jsonout_begin(&jo, f);
	cJSON_ArrayForEach(m, doc) {
		if (!cJSON_IsObject(m)) {
			jsonout_member(&jo, m);
			continue;
		}
		jsonout_object_begin(&jo, m->string);
		cJSON_ArrayForEach(c, m) {
			if (c == rows) {
				jsonout_array_begin(&jo, "rows");
				for (i = 0; i < n; i++)
					put_stream_elem(&jo, i);
				jsonout_array_end(&jo);
			} else if (c == trees) {
				jsonout_array_begin(&jo, "trees");
				for (i = 0; i < n % 5; i++)
					jsonout_elem(&jo, cJSON_Duplicate(cJSON_GetArrayItem(trees, (int)i), 1));
				jsonout_array_end(&jo);
			} else {
				jsonout_member(&jo, c);
			}
		}
		jsonout_object_end(&jo);
	}
	jsonout_end(&jo);
	check_same(f, doc, want, "nested", n);
}

int main(void)
{
	test_doc(0);
	test_doc(1);
	test_doc(3 * NSTR * NNUM);
	test_nested(0);
	test_nested(1);
	test_nested(3 * NSTR * NNUM + 3);
	return check_done();
}
