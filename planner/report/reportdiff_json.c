/*
 * reportdiff_json.c - a comparison of two plan reports as JSON (schema
 * in reports/check.schema.json), built with cJSON: each figure with its
 * baseline, current value and change, then the thresholds checked.
 * Money is in USD from the integer cents, shares from 1/10000.
 */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>

#include "reportdiff_json.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

static double money_num(long long cents)
{
	return (double)cents / 100.0;
}

/* baseline, current, change and change_pct (null from a zero baseline) of a money figure, into o. */
static cJSON *j_money(cJSON *o, long long b, long long c)
{
	cJSON_AddNumberToObject(o, "baseline", money_num(b));
	cJSON_AddNumberToObject(o, "current", money_num(c));
	cJSON_AddNumberToObject(o, "change", money_num(c - b));
	if (b == 0 && c != 0)
		cJSON_AddNullToObject(o, "change_pct");
	else
		cJSON_AddNumberToObject(o, "change_pct", b ? round((double)(c - b) * 1e6 / (double)b) / 1e4 + 0.0 : 0);
	return o;
}

static cJSON *j_change_count(long b, long c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "baseline", (double)b);
	cJSON_AddNumberToObject(o, "current", (double)c);
	cJSON_AddNumberToObject(o, "change", (double)(c - b));
	return o;
}

static cJSON *j_change_util(long b, long c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "baseline", (double)b / 10000.0);
	cJSON_AddNumberToObject(o, "current", (double)c / 10000.0);
	cJSON_AddNumberToObject(o, "change_pts", (double)(c - b) / 100.0);
	return o;
}

static cJSON *j_side(const struct rd_report *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", r->file);
	cJSON_AddStringToObject(o, "scenario", r->scenario);
	cJSON_AddStringToObject(o, "schema_version", r->schema_version);
	cJSON_AddStringToObject(o, "status", r->status);
	cJSON_AddStringToObject(o, "plan_source", r->plan_source);
	cJSON_AddNumberToObject(o, "gap", r->gap);
	cJSON_AddNumberToObject(o, "horizon_years", r->horizon_years);
	return o;
}

/* plan figures: cost, licences, counts, modes and utilisation, baseline against current. */
static void j_figures(cJSON *root, const struct rd_report *b, const struct rd_report *c)
{
	cJSON *o, *a;
	int q;

	o = cJSON_AddObjectToObject(root, "cost");
	cJSON_AddItemToObject(o, "total", j_money(cJSON_CreateObject(), b->total_cents, c->total_cents));
	a = cJSON_AddArrayToObject(o, "categories");
	for (q = 0; q < CAT_COUNT; q++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "category", cost_cat_name((enum cost_cat)q));
		cJSON_AddItemToArray(a, j_money(e, b->cat_cents[q], c->cat_cents[q]));
	}
	a = cJSON_AddArrayToObject(root, "licenses");
	for (q = LIC_COUNT - 1; q > 0; q--) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "product", lic_product_id((enum lic_product)q));
		cJSON_AddItemToObject(e, "gpus", j_change_count(b->lic_gpus[q], c->lic_gpus[q]));
		cJSON_AddItemToObject(e, "seats", j_change_count(b->lic_seats[q], c->lic_seats[q]));
		cJSON_AddItemToArray(a, e);
	}
	o = cJSON_AddObjectToObject(root, "counts");
	cJSON_AddItemToObject(o, "nodes_used", j_change_count(b->nodes_used, c->nodes_used));
	cJSON_AddItemToObject(o, "gpus_in_used_nodes", j_change_count(b->gpus_in_used_nodes, c->gpus_in_used_nodes));
	cJSON_AddItemToObject(o, "gpus_active", j_change_count(b->gpus_active, c->gpus_active));
	cJSON_AddItemToObject(o, "gpus_licensed", j_change_count(b->gpus_licensed, c->gpus_licensed));
	cJSON_AddItemToObject(o, "replicas_placed", j_change_count(b->replicas_placed, c->replicas_placed));
	cJSON_AddItemToObject(o, "replicas_unplaced", j_change_count(b->replicas_unplaced, c->replicas_unplaced));
	a = cJSON_AddArrayToObject(root, "modes");
	for (q = 0; q < MODE_COUNT; q++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "mode", mode_name((enum gpu_mode)q));
		cJSON_AddItemToObject(e, "nodes", j_change_count(b->nodes_by_mode[q], c->nodes_by_mode[q]));
		cJSON_AddItemToObject(e, "gpus", j_change_count(b->gpus_by_mode[q], c->gpus_by_mode[q]));
		cJSON_AddItemToArray(a, e);
	}
	o = cJSON_AddObjectToObject(root, "utilisation");
	cJSON_AddItemToObject(o, "memory", j_change_util(b->mem_util_bp, c->mem_util_bp));
	cJSON_AddItemToObject(o, "compute", j_change_util(b->compute_util_bp, c->compute_util_bp));
}

/* The workloads whose placement changed: "unplaced" and "workloads_changed". */
static void j_workloads(cJSON *root, const struct rd_diff *df)
{
	cJSON *a;
	size_t i;

	a = cJSON_AddArrayToObject(root, "unplaced");
	for (i = 0; i < df->nunplaced; i++) {
		const struct rd_unplaced_change *u = &df->unplaced[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "workload", u->workload);
		cJSON_AddStringToObject(e, "tenant", u->tenant);
		cJSON_AddNumberToObject(e, "baseline", (double)u->base);
		cJSON_AddNumberToObject(e, "current", (double)u->cur);
		cJSON_AddNumberToObject(e, "change", (double)(u->cur - u->base));
		cJSON_AddStringToObject(e, "reason", u->reason);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(root, "workloads_changed");
	for (i = 0; i < df->nchanges; i++) {
		const struct rd_workload_change *x = &df->changes[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "workload", x->workload);
		cJSON_AddStringToObject(e, "tenant", x->tenant);
		cJSON_AddNumberToObject(e, "priority", x->priority);
		cJSON_AddItemToObject(e, "placed", j_change_count(x->placed_base, x->placed_cur));
		cJSON_AddItemToObject(e, "unplaced", j_change_count(x->unplaced_base, x->unplaced_cur));
		cJSON_AddItemToArray(a, e);
	}
}

/*
 * "failures" (when both sides carry the failure analysis): the worst
 * node and site loss on each side, and GPU loss when both analysed their
 * GPUs (1.5.0), counting replicas of priority >= P.
 */
static void j_failures(cJSON *root, const struct rd_diff *df)
{
	static const char *const keys[] = { "worst_node", "worst_site", "worst_gpu" };
	cJSON *o;
	int k;

	if (!df->fail_known)
		return;
	o = cJSON_AddObjectToObject(root, "failures");
	cJSON_AddNumberToObject(o, "priority_at_least", df->fail_prio);
	for (k = 0; k < (df->fail_gpu_known ? 3 : 2); k++) {
		cJSON *e = j_change_count(df->fail[k].base, df->fail[k].cur);
		cJSON_AddStringToObject(e, "baseline_failure", df->fail[k].base_name);
		cJSON_AddStringToObject(e, "current_failure", df->fail[k].cur_name);
		cJSON_AddItemToObject(o, keys[k], e);
	}
}

cJSON *rd_json_threshold(const char *option, const char *measures, const char *unit, double limit, double value,
			 int exceeded)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "option", option);
	if (measures)
		cJSON_AddStringToObject(e, "measures", measures);
	cJSON_AddStringToObject(e, "unit", unit);
	cJSON_AddNumberToObject(e, "limit", limit);
	if (isinf(value))
		cJSON_AddNullToObject(e, "value");
	else
		cJSON_AddNumberToObject(e, "value", round(value * 1e4) / 1e4 + 0.0);
	cJSON_AddBoolToObject(e, "exceeded", exceeded);
	return e;
}

/* Each checked threshold: its option, unit, limit, value and whether it was exceeded. */
static void j_thresholds(cJSON *root, const struct rd_diff *df)
{
	static const char *const unit[] = { "percent", "usd", "replicas", "points", "priority-replicas",
					    "workloads", "workloads", "replicas" };
	cJSON *a = cJSON_AddArrayToObject(root, "thresholds");
	int l;

	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		const struct rd_verdict *v = &df->verdict[l];
		if (v->checked)
			cJSON_AddItemToArray(a, rd_json_threshold(rd_limit_option((enum rd_limit)l), NULL, unit[l],
								  df->limits.limit[l], v->infinite ? HUGE_VAL : v->value,
								  v->exceeded));
	}
}

char *rd_json_format(const struct rd_diff *df, const char *command)
{
	const struct rd_report *b = df->base, *c = df->cur;
	cJSON *root = cJSON_CreateObject();
	char *why, *text, *out;

	cJSON_AddStringToObject(root, "schema_version", REPORTDIFF_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "command", command);
	cJSON_AddStringToObject(root, "result", !df->nchecked ? "not-checked" : df->failed ? "failed" : "passed");
	cJSON_AddBoolToObject(root, "changed", df->changed);
	why = rd_diff_failure(df);
	if (why)
		cJSON_AddStringToObject(root, "failure", why);
	else
		cJSON_AddNullToObject(root, "failure");
	free(why);
	cJSON_AddItemToObject(root, "baseline", j_side(b));
	cJSON_AddItemToObject(root, "current", j_side(c));

	j_figures(root, b, c);
	j_workloads(root, df);
	j_failures(root, df);
	j_thresholds(root, df);
	text = cJSON_Print(root);
	out = xasprintf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
	return out;
}
