/*
 * kubectl_json.c - the JSON lists of `kubectl get -o json` (see
 * kube.h): loading with positions, member lookups, quantities.
 */
#include <cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "jsonpos.h"
#include "kquantity.h"
#include "util.h"
#include "banned.h"

/* A node or pod list can be large: 50,000 pods of 20 KB each. */
#define KJSON_MAX_BYTES (2048UL << 20)

const char *kmode_name(enum kmode m)
{
	static const char *const names[] = { "passthrough", "mig", "timeslice", "mps" };
	return names[m];
}

const char *kjson_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *kjson_path(const cJSON *obj, const char *const *keys)
{
	for (; obj && *keys; keys++)
		obj = cJSON_GetObjectItemCaseSensitive(obj, *keys);
	return obj;
}

int kjson_error(const struct kjson *j, struct diag *d, long item, const char *const *keys, const char *fmt, ...)
{
	struct jpos_step path[8];
	va_list ap;
	long line, col;
	int n = 0;

	if (item >= 0) {
		path[n++] = (struct jpos_step){ "items", 0 };
		path[n++] = (struct jpos_step){ NULL, item };
	}
	for (; keys && *keys && n < 8; keys++)
		path[n++] = (struct jpos_step){ *keys, 0 };
	jpos_at(j->text, j->len, path, n, &line, &col);
	va_start(ap, fmt);
	diag_vset_at(d, DIAG_INPUT, (struct diag_at){ j->file, line, col }, fmt, ap);
	va_end(ap);
	return -1;
}

static int is_list_kind(const char *kind, const char *item_kind)
{
	char buf[64];
	if (!strcmp(kind, "List"))
		return 1;
	snprintf(buf, sizeof(buf), "%sList", item_kind);
	return !strcmp(kind, buf);
}

int kjson_load(struct kjson *j, const char *path, const char *item_kind, const char *role, struct diag *d)
{
	static const char *const k_kind[] = { "kind", NULL }, *const k_items[] = { "items", NULL };
	char msg[160];
	const cJSON *it;
	const char *kind;
	int rc;

	memset(j, 0, sizeof(*j));
	j->file = path;
	rc = file_read_all(path, KJSON_MAX_BYTES, &j->text, &j->len);
	if (rc)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "%s", file_read_strerror(msg, sizeof(msg), rc, KJSON_MAX_BYTES));
	if (!(j->root = jpos_parse(path, j->text, j->len, role, d)))
		return -1;
	if (!cJSON_IsObject(j->root))
		return kjson_error(j, d, -1, NULL, "not a %s: expected a JSON object (kubectl get ... -o json)", role);
	kind = kjson_str(j->root, "kind");
	if (!kind)
		return kjson_error(j, d, -1, k_kind, "not a %s: no 'kind' (kubectl get ... -o json writes kind: List)", role);
	if (!is_list_kind(kind, item_kind))
		return kjson_error(j, d, -1, k_kind, "kind '%s': expected List (a %s from kubectl get ... -o json)", kind,
				   role);
	j->items = cJSON_GetObjectItemCaseSensitive(j->root, "items");
	if (!cJSON_IsArray(j->items))
		return kjson_error(j, d, -1, k_items, "'items' must be an array");
	cJSON_ArrayForEach(it, j->items) {
		const char *ik = cJSON_IsObject(it) ? kjson_str(it, "kind") : NULL;
		if (!cJSON_IsObject(it))
			return kjson_error(j, d, j->nitems, NULL, "items[%ld] is not an object", j->nitems);
		/* kubectl fills each item's kind; an item without one is taken as item_kind */
		if (ik && strcmp(ik, item_kind))
			return kjson_error(j, d, j->nitems, k_kind, "items[%ld] has kind '%s': expected %s", j->nitems, ik,
					   item_kind);
		j->nitems++;
	}
	return 0;
}

void kjson_release(struct kjson *j)
{
	cJSON_Delete(j->root);
	free(j->text);
	memset(j, 0, sizeof(*j));
}

int kitem_error(const struct kitem *it, const char *const *keys, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	kjson_error(it->j, it->d, it->index, keys, "%s", msg);
	free(msg);
	return -1;
}

int kitem_quantity(const struct kitem *it, const char *const *keys, double lo, double hi, double *out)
{
	const cJSON *v = kjson_path(it->obj, keys);
	const char *why;
	char b0[64], b1[64], b2[64], at[128] = "";
	const char *const *k;

	for (k = keys; *k; k++)
		snprintf(at + strlen(at), sizeof(at) - strlen(at), "%s%s", k == keys ? "" : ".", *k);
	if (!v)
		return kitem_error(it, keys, "missing %s", at);
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
	} else if (!cJSON_IsString(v)) {
		return kitem_error(it, keys, "%s: a quantity must be a string such as \"64Gi\"", at);
	} else if (kquantity_parse(v->valuestring, out, &why)) {
		return kitem_error(it, keys, "%s: '%s': %s", at, v->valuestring, why);
	}
	if (*out < lo || *out > hi)
		return kitem_error(it, keys, "%s: '%s' is out of range (%s..%s)", at,
				   cJSON_IsString(v) ? v->valuestring : fmt_num_short(b0, sizeof(b0), *out, 3),
				   fmt_num_short(b1, sizeof(b1), lo, 3), fmt_num_short(b2, sizeof(b2), hi, 3));
	return 0;
}

/* Past the JSON string at p (at its opening quote), at most e. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\' && p + 1 < e)
			p++;
	return p < e ? p + 1 : e;
}

long *kjson_item_lines(const struct kjson *j)
{
	static const struct jpos_step items[] = { { "items", 0 } };
	const char *e = j->text + j->len, *p = jpos_locate(j->text, e, items, 1), *q;
	long *lines = xcalloc((size_t)j->nitems + 1, sizeof(*lines)), line = 1, k = 0;
	int depth = 0;		/* 1: inside the items array, 2 and more: inside an item */

	if (!p || p >= e || *p != '[')
		return lines;
	for (q = j->text; q < p; q++)
		line += *q == '\n';
	for (; p < e && k < j->nitems; p++) {	/* valid JSON: kjson_load parsed it */
		if (*p == '\n') {
			line++;
		} else if (*p == '"') {
			p = skip_string(p, e) - 1;
		} else if (*p == '[' || *p == '{') {
			if (depth++ == 1)
				lines[k++] = line;
		} else if ((*p == ']' || *p == '}') && --depth == 0) {
			break;
		}
	}
	return lines;
}
