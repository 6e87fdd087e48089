/*
 * test_schema.c - every plan.json the test suite writes (the golden
 * expected/ copies, which the cases compare byte for byte) is valid
 * against reports/schema.json, and broken documents are not; so is every
 * golden compare.json against reports/compare.schema.json and every
 * golden `check`/`diff --format json` output (expected/stdout of the
 * cases check-* and diff-* that print JSON) against
 * reports/check.schema.json (those of check-roadmap-* against
 * reports/check-roadmap.schema.json), and every golden roadmap.json against
 * reports/roadmap.schema.json.
 *
 * The validator covers the JSON Schema keywords the schemas use: type (a
 * name or a list of names),
 * required, properties, patternProperties (POSIX extended regexes),
 * additionalProperties (false), items, enum, minimum, pattern (POSIX
 * extended regex).
 */
#include <cJSON.h>
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "util.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int type_ok(const cJSON *v, const char *t)
{
	if (!strcmp(t, "object"))
		return cJSON_IsObject(v);
	if (!strcmp(t, "array"))
		return cJSON_IsArray(v);
	if (!strcmp(t, "string"))
		return cJSON_IsString(v);
	if (!strcmp(t, "boolean"))
		return cJSON_IsBool(v);
	if (!strcmp(t, "null"))
		return cJSON_IsNull(v);
	if (!strcmp(t, "number"))
		return cJSON_IsNumber(v);
	if (!strcmp(t, "integer"))
		return cJSON_IsNumber(v) && v->valuedouble == (double)(long long)v->valuedouble;
	return 0;
}

/* The subschema of patternProperties pp whose regex matches key, or NULL. */
static const cJSON *pattern_prop(const cJSON *pp, const char *key)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, pp) {
		regex_t re;
		int hit = !regcomp(&re, e->string, REG_EXTENDED | REG_NOSUB) && !regexec(&re, key, 0, NULL, 0);
		regfree(&re);
		if (hit)
			return e;
	}
	return NULL;
}

/* 0 when v is valid against s; else -1 with the JSON path of the fault in *where. */
static int validate(const cJSON *s, const cJSON *v, const char *path, char **where)
{
	const cJSON *k, *t = cJSON_GetObjectItemCaseSensitive(s, "type");

	if (t && cJSON_IsArray(t)) {
		const cJSON *e;
		int any = 0;
		cJSON_ArrayForEach(e, t) any |= type_ok(v, e->valuestring);
		if (!any) {
			*where = xasprintf("%s: not of any type listed", path);
			return -1;
		}
	} else if (t && !type_ok(v, t->valuestring)) {
		*where = xasprintf("%s: not of type %s", path, t->valuestring);
		return -1;
	}
	k = cJSON_GetObjectItemCaseSensitive(s, "enum");
	if (k) {
		const cJSON *e;
		int found = 0;
		cJSON_ArrayForEach(e, k) if (cJSON_Compare(e, v, 1)) found = 1;
		if (!found) {
			*where = xasprintf("%s: not in enum", path);
			return -1;
		}
	}
	k = cJSON_GetObjectItemCaseSensitive(s, "minimum");
	if (k && cJSON_IsNumber(v) && v->valuedouble < k->valuedouble) {
		*where = xasprintf("%s: below minimum", path);
		return -1;
	}
	k = cJSON_GetObjectItemCaseSensitive(s, "pattern");
	if (k && cJSON_IsString(v)) {
		regex_t re;
		int bad = regcomp(&re, k->valuestring, REG_EXTENDED | REG_NOSUB) || regexec(&re, v->valuestring, 0, NULL, 0);
		regfree(&re);
		if (bad) {
			*where = xasprintf("%s: does not match %s", path, k->valuestring);
			return -1;
		}
	}
	if (cJSON_IsObject(v)) {
		const cJSON *props = cJSON_GetObjectItemCaseSensitive(s, "properties");
		const cJSON *addl = cJSON_GetObjectItemCaseSensitive(s, "additionalProperties");
		const cJSON *req = cJSON_GetObjectItemCaseSensitive(s, "required"), *e;
		cJSON_ArrayForEach(e, req) {
			if (!cJSON_GetObjectItemCaseSensitive(v, e->valuestring)) {
				*where = xasprintf("%s: missing '%s'", path, e->valuestring);
				return -1;
			}
		}
		cJSON_ArrayForEach(e, v) {
			const cJSON *ps = props ? cJSON_GetObjectItemCaseSensitive(props, e->string) : NULL;
			char *sub;
			int rc;
			if (!ps)
				ps = pattern_prop(cJSON_GetObjectItemCaseSensitive(s, "patternProperties"), e->string);
			if (!ps) {
				if (addl && cJSON_IsFalse(addl)) {
					*where = xasprintf("%s: unexpected '%s'", path, e->string);
					return -1;
				}
				continue;
			}
			sub = xasprintf("%s.%s", path, e->string);
			rc = validate(ps, e, sub, where);
			free(sub);
			if (rc)
				return rc;
		}
	}
	if (cJSON_IsArray(v)) {
		const cJSON *items = cJSON_GetObjectItemCaseSensitive(s, "items"), *e;
		int i = 0;
		if (items) {
			cJSON_ArrayForEach(e, v) {
				char *sub = xasprintf("%s[%d]", path, i++);
				int rc = validate(items, e, sub, where);
				free(sub);
				if (rc)
					return rc;
			}
		}
	}
	return 0;
}

static int nfound, nfound_compare, nfound_check, nfound_baseline, nfound_stdout, nfound_roadmap, nfound_check_roadmap;

/* The schemas: plan.json, compare.json, check/diff JSON output, roadmap.json. */
struct schemas {
	const cJSON *plan, *compare, *check, *roadmap, *check_roadmap;
};

static void validate_file(const char *p, const cJSON *schema, int *count)
{
	char *text = slurp(p), *where = NULL;
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	CHECK(doc != NULL, "%s does not parse", p);
	if (doc) {
		int rc = validate(schema, doc, "$", &where);
		CHECK(rc == 0, "%s: %s", p, where ? where : "");
		++*count;
	}
	free(where);
	cJSON_Delete(doc);
	free(text);
}

/* True for tests/cases/PREFIX-NAME/expected/stdout holding JSON. */
static int is_stdout_json(const char *p, const char *prefix)
{
	const char *c = strstr(p, "/cases/");
	char *text;
	int yes;
	if (!c || strncmp(c + 7, prefix, strlen(prefix)))
		return 0;
	if (strlen(p) < 16 || strcmp(p + strlen(p) - 16, "/expected/stdout"))
		return 0;
	text = slurp(p);
	yes = text && text[0] == '{';
	free(text);
	return yes;
}

static void walk(const char *dir, const struct schemas *sc)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		char *p;
		struct stat st;
		if (e->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		if (!stat(p, &st) && S_ISDIR(st.st_mode))
			walk(p, sc);
		else if (!strcmp(e->d_name, "plan.json") && strstr(p, "/expected/"))
			validate_file(p, sc->plan, &nfound);
		else if (!strcmp(e->d_name, "roadmap.json") && strstr(p, "/expected/") && sc->roadmap)
			validate_file(p, sc->roadmap, &nfound_roadmap);
		else if (!strcmp(e->d_name, "compare.json") && strstr(p, "/expected/") && sc->compare)
			validate_file(p, sc->compare, &nfound_compare);
		else if (sc->check_roadmap && is_stdout_json(p, "check-roadmap-"))
			validate_file(p, sc->check_roadmap, &nfound_check_roadmap);
		else if (sc->check && (is_stdout_json(p, "check-") || is_stdout_json(p, "diff-")))
			validate_file(p, sc->check, &nfound_check);
		else if (is_stdout_json(p, "plan-"))	/* plan -o -: plan.json on stdout */
			validate_file(p, sc->plan, &nfound_stdout);
		else if (sc->compare && is_stdout_json(p, "compare-"))	/* compare -o - */
			validate_file(p, sc->compare, &nfound_stdout);
		else if (!strncmp(p, "reports/baseline/", 17) && strlen(p) > 5 && !strcmp(p + strlen(p) - 5, ".json"))
			validate_file(p, sc->plan, &nfound_baseline);
		free(p);
	}
	closedir(d);
}

/* Mutations of a valid document that must fail. */
static const struct {
	const char *what;
	const char *pointer;	/* top-level key to touch */
	const char *sub;	/* key inside it (or NULL) */
	int action;		/* 0 delete, 1 add unknown, 2 make string */
} breaks[] = {
	{ "missing schema_version", "schema_version", NULL, 0 },
	{ "missing summary cost", "summary", "cost_total_usd", 0 },
	{ "unknown summary key", "summary", "surprise", 1 },
	{ "cost as a string", "summary", "cost_total_usd", 2 },
	{ "status outside enum", "summary", "status", 2 },
	{ "unknown top-level key", "extra", NULL, 1 },
};

int main(void)
{
	char *text = slurp("reports/schema.json");
	cJSON *schema = text ? cJSON_Parse(text) : NULL;
	size_t i;

	CHECK(schema != NULL, "reports/schema.json parses");
	if (!schema)
		return check_done();
	{
		char *ctext = slurp("reports/compare.schema.json"), *ktext = slurp("reports/check.schema.json");
		char *rtext = slurp("reports/roadmap.schema.json"), *qtext = slurp("reports/check-roadmap.schema.json");
		cJSON *cs = ctext ? cJSON_Parse(ctext) : NULL, *ks = ktext ? cJSON_Parse(ktext) : NULL;
		cJSON *rs = rtext ? cJSON_Parse(rtext) : NULL, *qs = qtext ? cJSON_Parse(qtext) : NULL;
		struct schemas sc = { schema, cs, ks, rs, qs };
		CHECK(cs != NULL, "reports/compare.schema.json parses");
		CHECK(ks != NULL, "reports/check.schema.json parses");
		CHECK(rs != NULL, "reports/roadmap.schema.json parses");
		CHECK(qs != NULL, "reports/check-roadmap.schema.json parses");
		walk("tests/cases", &sc);
		CHECK(nfound > 0, "found golden plan.json files (%d)", nfound);
		CHECK(nfound_compare > 0, "found golden compare.json files (%d)", nfound_compare);
		CHECK(nfound_check > 0, "found golden check/diff JSON outputs (%d)", nfound_check);
		CHECK(nfound_roadmap > 0, "found golden roadmap.json files (%d)", nfound_roadmap);
		CHECK(nfound_check_roadmap > 0, "found golden roadmap check JSON outputs (%d)", nfound_check_roadmap);
		CHECK(nfound_stdout >= 2, "found golden plan/compare JSON on stdout (-o -) (%d)", nfound_stdout);
		/* the baselines the project checks itself against are reports too */
		walk("reports/baseline", &sc);
		CHECK(nfound_baseline > 0, "found baselines in reports/baseline (%d)", nfound_baseline);
		cJSON_Delete(cs);
		cJSON_Delete(ks);
		cJSON_Delete(rs);
		cJSON_Delete(qs);
		free(qtext);
		free(ctext);
		free(ktext);
		free(rtext);
	}
	{
		char *ex = slurp("tests/cases/plan-example/expected/out/plan.json");
		if (ex) {
			for (i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++) {
				cJSON *doc = cJSON_Parse(ex), *target = doc;
				char *where = NULL;
				if (breaks[i].sub)
					target = cJSON_GetObjectItemCaseSensitive(doc, breaks[i].pointer);
				const char *key = breaks[i].sub ? breaks[i].sub : breaks[i].pointer;
				if (breaks[i].action == 0)
					cJSON_DeleteItemFromObjectCaseSensitive(target, key);
				else if (breaks[i].action == 1)
					cJSON_AddNumberToObject(target, key, 1);
				else
					cJSON_ReplaceItemInObjectCaseSensitive(target, key, cJSON_CreateString("bogus"));
				CHECK(validate(schema, doc, "$", &where) != 0, "row %zu (%s) must fail", i, breaks[i].what);
				free(where);
				cJSON_Delete(doc);
			}
			free(ex);
		}
	}
	cJSON_Delete(schema);
	free(text);
	return check_done();
}
