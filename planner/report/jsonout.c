/*
 * jsonout.c - a JSON document written as it is made (jsonout.h).
 *
 * cJSON_Print indents an object's members by one tab per level of depth
 * and separates an array's elements by ", " on one line; a string never
 * holds a raw line break (cJSON escapes it).  So a value printed alone
 * is the same text as inside the whole tree with `depth` tabs added after
 * each of its line breaks: members are at depth 1, an array's elements
 * at depth 2.
 *
 * The flat objects (jsonout_obj_*) are an array's elements: their members
 * at depth 3, their closing brace at depth 2.  Inside a top-level member
 * holding an object (jsonout_object_begin) everything is one level deeper:
 * its members at depth 2, its arrays' elements at depth 3.  A string with nothing to
 * escape is copied as it is, any other printed by cJSON; an integer that
 * fits an int is printed in decimal (as cJSON prints it), any other number,
 * negative zero included, by cJSON itself, so the bytes cannot drift from
 * cJSON's (tests/unit/test_jsonout.c compares the two).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "util.h"
#include "banned.h"

/* Scratch for one element; one larger is printed by cJSON_Print. */
#define JSONOUT_BUF (64 * 1024)
/* Bytes gathered before they are handed to the stream. */
#define JSONOUT_OUT (256 * 1024)

void jsonout_begin(struct jsonout *jo, FILE *f)
{
	memset(jo, 0, sizeof(*jo));
	jo->f = f;
	if (f) {
		jo->out = xmalloc(JSONOUT_OUT);
		fputs("{\n", f);
	}
}

static void flush_out(struct jsonout *jo)
{
	if (jo->len)
		fwrite(jo->out, 1, jo->len, jo->f);
	jo->len = 0;
}

/* n bytes at s into the document. */
static void put(struct jsonout *jo, const char *s, size_t n)
{
	if (jo->len + n > JSONOUT_OUT) {
		flush_out(jo);
		if (n > JSONOUT_OUT) {
			fwrite(s, 1, n, jo->f);
			return;
		}
	}
	memcpy(jo->out + jo->len, s, n);
	jo->len += n;
}

static void puts_(struct jsonout *jo, const char *s)
{
	put(jo, s, strlen(s));
}

/* s, with depth tabs after each line break. */
static void put_indented(struct jsonout *jo, const char *s, int depth)
{
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		put(jo, s, (size_t)(nl - s) + 1);
		put(jo, "\t\t\t\t", (size_t)depth);
		s = nl + 1;
	}
	puts_(jo, s);
}

/* item's value at depth (cJSON's formatting). */
static void put_value(struct jsonout *jo, cJSON *item, int depth)
{
	char *text;

	if (!jo->buf) {
		jo->cap = JSONOUT_BUF;
		jo->buf = xmalloc((size_t)jo->cap);
	}
	if (cJSON_PrintPreallocated(item, jo->buf, jo->cap, 1)) {
		put_indented(jo, jo->buf, depth);
		return;
	}
	text = cJSON_Print(item);
	if (!text)
		abort(); /* out of memory: as xmalloc */
	put_indented(jo, text, depth);
	cJSON_free(text);
}

/* s as a JSON string: copied when nothing in it needs escaping, else printed by cJSON. */
static void put_string(struct jsonout *jo, const char *s)
{
	const unsigned char *c;
	cJSON *item;

	for (c = (const unsigned char *)s; *c; c++)
		if (*c < 32 || *c == '"' || *c == '\\')
			break;
	if (!*c) {
		put(jo, "\"", 1);
		put(jo, s, (size_t)((const char *)c - s));
		put(jo, "\"", 1);
		return;
	}
	item = cJSON_CreateString(s);
	if (!item)
		abort();
	put_value(jo, item, 0);
	cJSON_Delete(item);
}

/* v as cJSON prints a number. */
static void put_number(struct jsonout *jo, double v)
{
	char b[24], *e = b + sizeof(b), *p = e;
	long x;

	if (!(v >= INT_MIN && v <= INT_MAX && v == floor(v)) || (v == 0 && signbit(v))) {	/* cJSON: "-0" */
		if (!jo->num && !(jo->num = cJSON_CreateNumber(0)))
			abort();
		cJSON_SetNumberHelper(jo->num, v);
		put_value(jo, jo->num, 0);
		return;
	}
	x = (long)v;
	do {
		*--p = (char)('0' + labs(x % 10));
		x /= 10;
	} while (x);
	if (v < 0)
		*--p = '-';
	put(jo, p, (size_t)(e - p));
}

/* "\t\"key\":\t" after the previous member's ",\n" (one tab more inside a member's object). */
static void put_key(struct jsonout *jo, const char *key)
{
	if (jo->depth ? jo->sub_members++ : jo->members++)
		put(jo, ",\n", 2);
	put(jo, "\t\t", 1 + (size_t)jo->depth);
	put_string(jo, key);
	put(jo, ":\t", 2);
}

void jsonout_member(struct jsonout *jo, cJSON *item)
{
	if (!jo->f)
		return;
	put_key(jo, item->string);
	put_value(jo, item, 1 + jo->depth);
}

void jsonout_object_begin(struct jsonout *jo, const char *key)
{
	jo->depth = 1;
	jo->sub_members = 0;
	if (!jo->f)
		return;
	jo->depth = 0;
	put_key(jo, key);
	jo->depth = 1;
	put(jo, "{\n", 2);
}

void jsonout_object_end(struct jsonout *jo)
{
	jo->depth = 0;
	if (jo->f)
		put(jo, jo->sub_members ? "\n\t}" : "\t}", jo->sub_members ? 3 : 2);
}

void jsonout_array_begin(struct jsonout *jo, const char *key)
{
	jo->elems = 0;
	if (!jo->f)
		return;
	put_key(jo, key);
	put(jo, "[", 1);
}

void jsonout_elem(struct jsonout *jo, cJSON *item)
{
	if (jo->f) {
		if (jo->elems++)
			put(jo, ", ", 2);
		put_value(jo, item, 2 + jo->depth);
	}
	cJSON_Delete(item);
}

void jsonout_array_end(struct jsonout *jo)
{
	if (jo->f)
		put(jo, "]", 1);
}

void jsonout_obj_begin(struct jsonout *jo)
{
	jo->obj_members = 0;
	if (!jo->f)
		return;
	if (jo->elems++)
		put(jo, ", ", 2);
	put(jo, "{\n", 2);
}

/* The next member's key at depth 3 (4 inside a member's object). */
static void obj_key(struct jsonout *jo, const char *key)
{
	if (jo->obj_members++)
		put(jo, ",\n", 2);
	put(jo, "\t\t\t\t", 3 + (size_t)jo->depth);
	put_string(jo, key);
	put(jo, ":\t", 2);
}

void jsonout_obj_str(struct jsonout *jo, const char *key, const char *value)
{
	if (!jo->f || !value)	/* as cJSON_AddStringToObject, which adds nothing for NULL */
		return;
	obj_key(jo, key);
	put_string(jo, value);
}

void jsonout_obj_num(struct jsonout *jo, const char *key, double value)
{
	if (!jo->f)
		return;
	obj_key(jo, key);
	put_number(jo, value);
}

void jsonout_obj_strs_begin(struct jsonout *jo, const char *key)
{
	jo->obj_elems = 0;
	if (!jo->f)
		return;
	obj_key(jo, key);
	put(jo, "[", 1);
}

void jsonout_obj_strs_add(struct jsonout *jo, const char *value)
{
	if (!jo->f || !value)
		return;
	if (jo->obj_elems++)
		put(jo, ", ", 2);
	put_string(jo, value);
}

void jsonout_obj_strs_end(struct jsonout *jo)
{
	if (jo->f)
		put(jo, "]", 1);
}

void jsonout_obj_end(struct jsonout *jo)
{
	if (!jo->f)
		return;
	if (jo->obj_members)
		put(jo, "\n", 1);
	put(jo, "\t\t\t", 2 + (size_t)jo->depth);
	put(jo, "}", 1);
}

void jsonout_end(struct jsonout *jo)
{
	if (jo->f) {
		put(jo, jo->members ? "\n}" : "}", jo->members ? 2 : 1);
		flush_out(jo);
	}
	free(jo->buf);
	free(jo->out);
	cJSON_Delete(jo->num);
	jo->buf = jo->out = NULL;
	jo->num = NULL;
}
