/*
 * sweep_result.c - one case of a sweep as a JSON file (gpuplan-sweep-
 * case/1): written atomically, read back by the merge.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "outfile.h"
#include "sweep_report.h"
#include "util.h"
#include "banned.h"

static double round_to(double v, int decimals)
{
	double f = pow(10, decimals);
	return round(v * f) / f;
}

/* The case's name and values, for both kinds of result. */
static void result_start(struct sweep_case_result *cr, const struct sweep_spec *s, size_t index)
{
	memset(cr, 0, sizeof(*cr));
	cr->index = index;
	cr->name = sweep_case_name(s, index);
	cr->values = xcalloc(s->nparams + 1, sizeof(*cr->values));
	sweep_case_values(s, index, cr->values);
}

void sweep_result_fill(struct sweep_case_result *cr, const struct sweep_spec *s, size_t index,
		       const struct compare_row *rows)
{
	size_t i, *order = xcalloc(s->noptions + 1, sizeof(*order));

	result_start(cr, s, index);
	cr->state = SWEEP_CASE_DONE;
	cr->noptions = s->noptions;
	cr->opt = xcalloc(s->noptions, sizeof(*cr->opt));
	compare_rank(rows, s->noptions, order);
	for (i = 0; i < s->noptions; i++) {
		struct sweep_option_result *o = &cr->opt[i];
		o->scenario = xstrdup(rows[i].scenario);
		o->status = xstrdup(rows[i].status);
		o->total = round_to(rows[i].total, 2);
		o->per_year = round_to(rows[i].per_year, 2);
		o->unplaced = rows[i].unplaced;
		o->gpu_eq_unplaced = round_to(rows[i].gpu_eq_unplaced, 4);
		cr->opt[order[i]].rank = (int)i + 1;
	}
	free(order);
}

void sweep_result_fail(struct sweep_case_result *cr, const struct sweep_spec *s, size_t index, const char *error,
		       int exit_code)
{
	result_start(cr, s, index);
	cr->state = SWEEP_CASE_FAILED;
	cr->error = xstrdup(error);
	cr->exit_code = exit_code;
}

/* The spec's digest as 16 hex digits. */
static void digest_text(char *buf, size_t n, const struct sweep_spec *s)
{
	snprintf(buf, n, "%016llx", s->digest);
}

int sweep_result_write(const char *dir, const struct sweep_case_result *cr, const struct sweep_spec *s,
		       struct diag *d)
{
	cJSON *root = cJSON_CreateObject(), *params, *opts;
	struct outset os = OUTSET_INIT;
	char dg[32], *json, *name;
	size_t i;
	int rc;

	digest_text(dg, sizeof(dg), s);
	cJSON_AddStringToObject(root, "schema", SWEEP_CASE_SCHEMA);
	cJSON_AddStringToObject(root, "sweep", s->name);
	cJSON_AddStringToObject(root, "spec_digest", dg);
	cJSON_AddStringToObject(root, "case", cr->name);
	cJSON_AddNumberToObject(root, "index", (double)cr->index);
	params = cJSON_AddObjectToObject(root, "parameters");
	for (i = 0; i < s->nparams; i++) {
		const char *pn = sweep_param_name(s->params[i].id);
		if (isnan(cr->values[i]))
			cJSON_AddNullToObject(params, pn);
		else
			cJSON_AddNumberToObject(params, pn, cr->values[i]);
	}
	cJSON_AddStringToObject(root, "state", cr->state == SWEEP_CASE_DONE ? "done" : "failed");
	if (cr->state == SWEEP_CASE_FAILED) {
		cJSON_AddStringToObject(root, "error", cr->error);
		cJSON_AddNumberToObject(root, "exit_code", cr->exit_code);
	}
	opts = cJSON_AddArrayToObject(root, "options");
	for (i = 0; i < cr->noptions; i++) {
		const struct sweep_option_result *o = &cr->opt[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "scenario", o->scenario);
		cJSON_AddStringToObject(j, "status", o->status);
		cJSON_AddNumberToObject(j, "cost_total_usd", o->total);
		cJSON_AddNumberToObject(j, "cost_per_year_usd", o->per_year);
		cJSON_AddNumberToObject(j, "replicas_unplaced", (double)o->unplaced);
		cJSON_AddNumberToObject(j, "gpu_equivalents_unplaced", o->gpu_eq_unplaced);
		cJSON_AddNumberToObject(j, "rank", o->rank);
		cJSON_AddItemToArray(opts, j);
	}
	json = cJSON_Print(root);
	cJSON_Delete(root);
	name = xasprintf("%s.json", cr->name);
	outset_init(&os, dir);
	os.share = 1; /* the other workers of this sweep commit their own cases here */
	outset_add(&os, name, xasprintf("%s\n", json), strlen(json) + 1);
	cJSON_free(json);
	rc = outset_commit(&os, d);
	outset_release(&os);
	free(name);
	return rc;
}

/* A member of o of the given kind, or NULL. */
static const cJSON *member(const cJSON *o, const char *key, int string)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!m || (string ? !cJSON_IsString(m) : !cJSON_IsNumber(m)))
		return NULL;
	return m;
}

/* The options of a DONE case; -1 when one is malformed or their number is not the spec's. */
static int read_options(const cJSON *arr, const struct sweep_spec *s, struct sweep_case_result *cr)
{
	size_t i = 0;
	const cJSON *it;

	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != s->noptions)
		return -1;
	cr->noptions = s->noptions;
	cr->opt = xcalloc(s->noptions, sizeof(*cr->opt));
	cJSON_ArrayForEach(it, arr) {
		struct sweep_option_result *o = &cr->opt[i++];
		const cJSON *sc = member(it, "scenario", 1), *st = member(it, "status", 1);
		const cJSON *t = member(it, "cost_total_usd", 0), *py = member(it, "cost_per_year_usd", 0);
		const cJSON *u = member(it, "replicas_unplaced", 0), *g = member(it, "gpu_equivalents_unplaced", 0);
		const cJSON *rk = member(it, "rank", 0);
		if (!sc || !st || !t || !py || !u || !g || !rk)
			return -1;
		o->scenario = xstrdup(sc->valuestring);
		o->status = xstrdup(st->valuestring);
		o->total = t->valuedouble;
		o->per_year = py->valuedouble;
		o->unplaced = (long)u->valuedouble;
		o->gpu_eq_unplaced = g->valuedouble;
		o->rank = (int)rk->valuedouble;
	}
	return 0;
}

/* Fills cr from a parsed case file; NULL, or why the file is not one of this spec's cases. */
static const char *from_json(const cJSON *root, const struct sweep_spec *s, size_t index,
			     struct sweep_case_result *cr)
{
	const cJSON *sch = member(root, "schema", 1), *dg = member(root, "spec_digest", 1);
	const cJSON *st = member(root, "state", 1), *ix = member(root, "index", 0);
	char want[32];

	digest_text(want, sizeof(want), s);
	if (!sch || strcmp(sch->valuestring, SWEEP_CASE_SCHEMA))
		return "not a " SWEEP_CASE_SCHEMA " file";
	if (!dg || strcmp(dg->valuestring, want))
		return "written for another version of the sweep spec (delete it to run the case again)";
	if (!ix || ix->valuedouble != (double)index || !st)
		return "not this case's file";
	result_start(cr, s, index);
	if (!strcmp(st->valuestring, "failed")) {
		const cJSON *e = member(root, "error", 1), *x = member(root, "exit_code", 0);
		cr->state = SWEEP_CASE_FAILED;
		cr->error = xstrdup(e ? e->valuestring : "failed");
		cr->exit_code = x ? (int)x->valuedouble : 5;
		return NULL;
	}
	cr->state = SWEEP_CASE_DONE;
	if (strcmp(st->valuestring, "done") || read_options(cJSON_GetObjectItemCaseSensitive(root, "options"), s, cr))
		return "malformed case file";
	return NULL;
}

int sweep_result_read(const char *dir, const struct sweep_spec *s, size_t index, struct sweep_case_result *cr,
		      struct diag *d)
{
	char *name = sweep_case_name(s, index);
	char *path = xasprintf("%s/%s.json", dir, name);
	char *text = NULL, eb[128];
	const char *why = NULL;
	cJSON *root = NULL;
	size_t len;
	int rc, err;

	memset(cr, 0, sizeof(*cr));
	err = file_read_all(path, 1L << 24, &text, &len);
	if (err == FILE_READ_OPEN && access(path, F_OK) != 0) {
		result_start(cr, s, index);
		cr->state = SWEEP_CASE_MISSING;
		rc = 1;
		goto out;
	}
	if (err)
		why = file_read_strerror(eb, sizeof(eb), err, 1L << 24);
	else if (!(root = cJSON_ParseWithLength(text, len)))
		why = "not JSON (cut off?)";
	else
		why = from_json(root, s, index, cr);
	rc = 0;
	if (why) {
		sweep_case_result_release(cr);
		rc = diag_set(d, DIAG_INPUT, path, 0, 0, "%s", why);
	}
out:
	cJSON_Delete(root);
	free(text);
	free(path);
	free(name);
	return rc;
}

void sweep_case_result_release(struct sweep_case_result *cr)
{
	size_t i;
	for (i = 0; i < cr->noptions; i++) {
		free(cr->opt[i].scenario);
		free(cr->opt[i].status);
	}
	free(cr->opt);
	free(cr->values);
	free(cr->name);
	free(cr->error);
	memset(cr, 0, sizeof(*cr));
}
