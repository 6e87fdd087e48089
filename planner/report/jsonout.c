/*
 * jsonout.c - a JSON document written as it is made (jsonout.h).
 *
 * cJSON_Print indents an object's members by one tab per level of depth
 * and separates an array's elements by ", " on one line; a string never
 * holds a raw line break (cJSON escapes it).  So a value printed alone
 * is the same text as inside the whole tree with `depth` tabs added after
 * each of its line breaks: members are at depth 1, an array's elements
 * at depth 2.
 */
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "util.h"
#include "banned.h"

/* Scratch for one element; one larger is printed by cJSON_Print. */
#define JSONOUT_BUF (64 * 1024)

void jsonout_begin(struct jsonout *jo, FILE *f)
{
	jo->f = f;
	jo->members = jo->elems = 0;
	jo->buf = NULL;
	jo->cap = 0;
	if (f)
		fputs("{\n", f);
}

/* s, with depth tabs after each line break. */
static void put_indented(FILE *f, const char *s, int depth)
{
	const char *nl;

	while ((nl = strchr(s, '\n'))) {
		fwrite(s, 1, (size_t)(nl - s) + 1, f);
		fwrite("\t\t\t\t", 1, (size_t)depth, f);
		s = nl + 1;
	}
	fputs(s, f);
}

/* item's value at depth (cJSON's formatting), then freed when own. */
static void put_value(struct jsonout *jo, cJSON *item, int depth)
{
	char *text;

	if (!jo->buf) {
		jo->cap = JSONOUT_BUF;
		jo->buf = xmalloc((size_t)jo->cap);
	}
	if (cJSON_PrintPreallocated(item, jo->buf, jo->cap, 1)) {
		put_indented(jo->f, jo->buf, depth);
		return;
	}
	text = cJSON_Print(item);
	if (!text)
		abort(); /* out of memory: as xmalloc */
	put_indented(jo->f, text, depth);
	cJSON_free(text);
}

/* "\t\"key\":\t" after the previous member's ",\n". */
static void put_key(struct jsonout *jo, const char *key)
{
	cJSON *k = cJSON_CreateString(key);

	if (jo->members++)
		fputs(",\n", jo->f);
	fputc('\t', jo->f);
	put_value(jo, k, 1);
	fputs(":\t", jo->f);
	cJSON_Delete(k);
}

void jsonout_member(struct jsonout *jo, cJSON *item)
{
	if (!jo->f)
		return;
	put_key(jo, item->string);
	put_value(jo, item, 1);
}

void jsonout_array_begin(struct jsonout *jo, const char *key)
{
	jo->elems = 0;
	if (!jo->f)
		return;
	put_key(jo, key);
	fputc('[', jo->f);
}

void jsonout_elem(struct jsonout *jo, cJSON *item)
{
	if (jo->f) {
		if (jo->elems++)
			fputs(", ", jo->f);
		put_value(jo, item, 2);
	}
	cJSON_Delete(item);
}

void jsonout_array_end(struct jsonout *jo)
{
	if (jo->f)
		fputc(']', jo->f);
}

void jsonout_end(struct jsonout *jo)
{
	if (jo->f)
		fputs(jo->members ? "\n}" : "}", jo->f);
	free(jo->buf);
	jo->buf = NULL;
}
