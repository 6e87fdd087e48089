/*
 * roadmap_diff_json.c - a roadmap against a baseline roadmap.json as JSON
 * (roadmap_diff.h; schema reports/check-roadmap.schema.json): each figure
 * with its baseline, current value and change, then the thresholds
 * checked, as check of a plan writes (reportdiff_json.c).  Money is in
 * USD from the integer cents.
 */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reportdiff_json.h"
#include "roadmap_diff.h"
#include "util.h"
#include "banned.h"

#define RMD_JSON_SCHEMA_VERSION "1.0.0"

/* baseline, current, change and change_pct (null from a zero baseline) of a money figure, into o. */
static cJSON *j_money(cJSON *o, long long b, long long c)
{
	cJSON_AddNumberToObject(o, "baseline", (double)b / 100.0);
	cJSON_AddNumberToObject(o, "current", (double)c / 100.0);
	cJSON_AddNumberToObject(o, "change", (double)(c - b) / 100.0);
	if (b == 0 && c != 0)
		cJSON_AddNullToObject(o, "change_pct");
	else
		cJSON_AddNumberToObject(o, "change_pct", b ? round((double)(c - b) * 1e6 / (double)b) / 1e4 + 0.0 : 0);
	return o;
}

static cJSON *j_count(cJSON *o, long b, long c)
{
	cJSON_AddNumberToObject(o, "baseline", (double)b);
	cJSON_AddNumberToObject(o, "current", (double)c);
	cJSON_AddNumberToObject(o, "change", (double)(c - b));
	return o;
}

static cJSON *j_side(const struct rmd_report *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", r->file);
	cJSON_AddStringToObject(o, "scenario", r->scenario);
	cJSON_AddStringToObject(o, "schema_version", r->schema_version ? r->schema_version : "");
	cJSON_AddItemToObject(o, "gap", cJSON_CreateRaw(fmt_fixed((char[64]){ 0 }, 64, r->gap, 6)));
	return o;
}

/* One period of either side: its unplaced replicas and cost by category; whether any differs. */
static int j_period(cJSON *a, const char *label, const struct rmd_report *b, const struct rmd_report *c)
{
	const struct rmd_period *x = rmd_period_of(b, label), *y = rmd_period_of(c, label);
	cJSON *e = cJSON_CreateObject(), *cats;
	int q, changed = 0;

	cJSON_AddStringToObject(e, "period", label);
	cJSON_AddItemToObject(e, "unplaced", j_count(cJSON_CreateObject(), x ? x->unplaced : 0, y ? y->unplaced : 0));
	changed |= (x ? x->unplaced : 0) != (y ? y->unplaced : 0);
	cats = cJSON_AddArrayToObject(e, "cost_by_category");
	for (q = 0; q < CAT_COUNT; q++) {
		long long u = x ? x->cat_cents[q] : 0, v = y ? y->cat_cents[q] : 0;
		cJSON *k = cJSON_CreateObject();
		cJSON_AddStringToObject(k, "category", cost_cat_name((enum cost_cat)q));
		cJSON_AddItemToArray(cats, j_money(k, u, v));
		changed |= u != v;
	}
	cJSON_AddItemToArray(a, e);
	return changed;
}

/* The periods, the baseline's then the current's others; whether any differs. */
static int j_periods(cJSON *root, const struct rmd_report *b, const struct rmd_report *c)
{
	cJSON *a = cJSON_AddArrayToObject(root, "periods");
	size_t i;
	int changed = b->nperiods != c->nperiods;

	for (i = 0; i < b->nperiods; i++)
		changed |= j_period(a, b->per[i].period, b, c);
	for (i = 0; i < c->nperiods; i++)
		if (!rmd_period_of(b, c->per[i].period))
			changed |= j_period(a, c->per[i].period, b, c);
	return changed;
}

static long units_of(const struct rmd_report *r, const char *cls, const char *order)
{
	long n = 0;
	size_t i;
	for (i = 0; i < r->nbuys; i++)
		if (!strcmp(r->buys[i].cls, cls) && !strcmp(r->buys[i].order, order))
			n += r->buys[i].units;
	return n;
}

/* The orders (class, order period) whose units differ: the baseline's, then the current's others; whether any. */
static int j_purchases(cJSON *root, const struct rmd_report *b, const struct rmd_report *c)
{
	const struct rmd_report *side[2] = { b, c };
	cJSON *a = cJSON_AddArrayToObject(root, "purchases");
	size_t i;
	int s, changed = 0;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nbuys; i++) {
			const struct rmd_buy *o = &side[s]->buys[i];
			long x = units_of(b, o->cls, o->order), y = units_of(c, o->cls, o->order);
			size_t k;
			cJSON *e;
			for (k = 0; k < i && (strcmp(side[s]->buys[k].cls, o->cls) || strcmp(side[s]->buys[k].order, o->order));
			     k++)
				;
			if (k < i || (s == 1 && x) || x == y)
				continue;
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "class", o->cls);
			cJSON_AddStringToObject(e, "order_period", o->order);
			cJSON_AddItemToArray(a, j_count(e, x, y));
			changed = 1;
		}
	return changed;
}

static void j_prio(cJSON *root, const struct rmd_judgement *j)
{
	cJSON *o = cJSON_AddObjectToObject(root, "unplaced_by_priority"), *a;
	size_t i;

	cJSON_AddBoolToObject(o, "known", j->prio_known);
	a = cJSON_AddArrayToObject(o, "changed");
	for (i = 0; i < j->nchanges; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "period", j->changes[i].period);
		cJSON_AddNumberToObject(e, "priority", j->changes[i].priority);
		cJSON_AddItemToArray(a, j_count(e, j->changes[i].base, j->changes[i].cur));
	}
}

/* Each checked threshold: its option, what it measures, unit, limit, value and whether it was exceeded. */
static void j_thresholds(cJSON *root, const struct rmd_judgement *j)
{
	static const char *const option[] = { "--max-cost-increase", "--max-cost-increase-abs", "--max-cost-increase",
					      "--max-cost-increase-abs", "--max-unplaced-increase",
					      "--fail-unplaced-priority" };
	static const char *const what[] = { "total_cost", "total_cost", "purchases_upfront", "purchases_upfront",
					    "unplaced_worst_period", "unplaced_by_priority" };
	static const char *const unit[] = { "percent", "usd", "percent", "usd", "replicas", "period-priorities" };
	cJSON *a = cJSON_AddArrayToObject(root, "thresholds");
	int k;

	for (k = 0; k < RMD_CHECK_COUNT; k++) {
		const struct rmd_verdict *v = &j->v[k];
		if (v->checked)
			cJSON_AddItemToArray(a, rd_json_threshold(option[k], what[k], unit[k], v->limit,
								  v->infinite ? HUGE_VAL : v->value, v->exceeded));
	}
}

char *rmd_json(const struct rmd_report *base, const struct rmd_report *cur, const struct rd_limits *lim)
{
	cJSON *root = cJSON_CreateObject(), *o;
	struct rmd_judgement j;
	long ub = 0, uc = 0;
	size_t i;
	int diff;
	char *text, *out;

	rmd_judge(&j, base, cur, lim);
	for (i = 0; i < base->nperiods; i++)
		ub += base->per[i].unplaced;
	for (i = 0; i < cur->nperiods; i++)
		uc += cur->per[i].unplaced;
	cJSON_AddStringToObject(root, "schema_version", RMD_JSON_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "command", "check");
	cJSON_AddStringToObject(root, "kind", "roadmap");
	cJSON_AddStringToObject(root, "result", j.failed ? "failed" : "passed");
	cJSON_AddFalseToObject(root, "changed");
	if (j.why)
		cJSON_AddStringToObject(root, "failure", j.why);
	else
		cJSON_AddNullToObject(root, "failure");
	cJSON_AddItemToObject(root, "baseline", j_side(base));
	cJSON_AddItemToObject(root, "current", j_side(cur));
	o = cJSON_AddObjectToObject(root, "cost");
	cJSON_AddItemToObject(o, "total", j_money(cJSON_CreateObject(), base->cost_cents, cur->cost_cents));
	cJSON_AddItemToObject(o, "purchases_upfront", j_money(cJSON_CreateObject(), base->upfront_cents, cur->upfront_cents));
	cJSON_AddItemToObject(root, "unplaced_replica_periods", j_count(cJSON_CreateObject(), ub, uc));
	diff = base->cost_cents != cur->cost_cents || base->upfront_cents != cur->upfront_cents || j.nchanges;
	diff |= j_periods(root, base, cur);
	j_prio(root, &j);
	diff |= j_purchases(root, base, cur);
	j_thresholds(root, &j);
	if (diff)
		cJSON_ReplaceItemInObjectCaseSensitive(root, "changed", cJSON_CreateTrue());
	text = cJSON_Print(root);
	out = xasprintf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
	rmd_judgement_release(&j);
	return out;
}
