/*
 * compare.c - the comparison of several planned scenarios.
 */
#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_pages.h"
#include "compare.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

static double r2(double v, int decimals)
{
	double f = pow(10, decimals), x = round(v * f) / f;
	return x == 0 ? 0 : x;
}

/* Unplaced rows: priority, highest first, then workload order (stable). */
static void sort_unplaced(struct compare_unplaced *u, size_t n)
{
	size_t i, j;
	for (i = 1; i < n; i++) {
		struct compare_unplaced x = u[i];
		for (j = i; j > 0 && u[j - 1].priority < x.priority; j--)
			u[j] = u[j - 1];
		u[j] = x;
	}
}

static void fill_unplaced(struct compare_row *row, const struct cplan *cp)
{
	const struct problem *p = cp->p;
	size_t i;

	row->unpl = xcalloc(p->ndemands + 1, sizeof(*row->unpl));
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		struct compare_unplaced *u;
		if (!cp->unplaced[i])
			continue;
		u = &row->unpl[row->nunpl++];
		u->workload = xstrdup(w->name);
		u->tenant = xstrdup(w->tenant);
		u->reason = xstrdup(cp->reason[i] ? cp->reason[i] : "");
		u->replicas = cp->unplaced[i];
		u->gpu_eq = (double)cp->unplaced[i] * workload_gpu_equivalents(w);
		u->priority = w->priority;
		row->gpu_eq_unplaced += u->gpu_eq;
	}
	sort_unplaced(row->unpl, row->nunpl);
}

void compare_row_fill(struct compare_row *row, const char *file, const struct plan_result *r)
{
	struct cplan_cost cost;
	struct report_stats st;
	struct report_gpu_hours gh;
	int q;

	memset(row, 0, sizeof(*row));
	cplan_cost(r->final, &cost);
	report_stats(r->final, &st);
	row->scenario = xstrdup(r->sc->name);
	row->file = xstrdup(file);
	row->status = ilp_status_name(r->status);
	row->gap = r->gap;
	row->horizon_years = r->sc->horizon_years;
	row->total = cost.total;
	row->per_year = cost.total / r->sc->horizon_years;
	for (q = 0; q < CAT_COUNT; q++)
		row->cat[q] = cost.cat[q];
	report_gpu_hours(r->final, &gh);
	row->per_provisioned_gpu_hour = gh.per_provisioned;
	row->per_used_gpu_hour = gh.per_used;
	row->mem_util = st.mem_util;
	row->compute_util = st.compute_util;
	memcpy(row->lic_gpus, cost.lic_gpus, sizeof(row->lic_gpus));
	memcpy(row->seats, cost.seats, sizeof(row->seats));
	row->placed = cost.placed;
	row->unplaced = cost.unplaced;
	fill_unplaced(row, r->final);
	row->nodes = cost.nodes;
	row->gpus = cost.gpus;
	memcpy(row->nodes_by_mode, st.nodes_by_mode, sizeof(row->nodes_by_mode));
	memcpy(row->gpus_by_mode, st.gpus_by_mode, sizeof(row->gpus_by_mode));
	row->to_place_all = report_whatif_text(r);
}

void compare_row_release(struct compare_row *row)
{
	size_t i;
	for (i = 0; i < row->nunpl; i++) {
		free(row->unpl[i].workload);
		free(row->unpl[i].tenant);
		free(row->unpl[i].reason);
	}
	free(row->unpl);
	free(row->to_place_all);
	free(row->scenario);
	free(row->file);
	memset(row, 0, sizeof(*row));
}

/* GPU-equivalents as reported (4 decimals), for comparing. */
static long long eq4(double v)
{
	return llround(v * 1e4);
}

static long long cents(double v)
{
	return llround(v * 100);
}

/* GPU-equivalents row leaves unplaced at priority prio. */
static long long unplaced_at(const struct compare_row *row, int prio)
{
	double v = 0;
	size_t i;
	for (i = 0; i < row->nunpl; i++)
		if (row->unpl[i].priority == prio)
			v += row->unpl[i].gpu_eq;
	return eq4(v);
}

/* The highest priority below `below` at which a or b leaves something unplaced, or 0. */
static int next_priority(const struct compare_row *a, const struct compare_row *b, int below)
{
	const struct compare_row *both[2] = { a, b };
	int best = 0, k;
	size_t i;
	for (k = 0; k < 2; k++)
		for (i = 0; i < both[k]->nunpl; i++)
			if (both[k]->unpl[i].priority < below && both[k]->unpl[i].priority > best)
				best = both[k]->unpl[i].priority;
	return best;
}

/* < 0 when a ranks before b, > 0 after, 0 tied. */
static int rank_cmp(const struct compare_row *a, const struct compare_row *b)
{
	int prio = INT_MAX;
	while ((prio = next_priority(a, b, prio)) > 0) {
		long long x = unplaced_at(a, prio), y = unplaced_at(b, prio);
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (cents(a->per_year) != cents(b->per_year))
		return cents(a->per_year) < cents(b->per_year) ? -1 : 1;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus ? -1 : 1;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	return 0;
}

/* " (as much as NEXT, ...; first for fewer GPUs in use, ...)": why best ranks before next at one cost. */
static void verdict_tie(struct sb *sb, const struct compare_row *best, const struct compare_row *next)
{
	sb_addf(sb, " (as much as %s, which also places every replica; ", next->scenario);
	if (best->gpus != next->gpus)
		sb_addf(sb, "first for fewer GPUs in used nodes, %ld against %ld)", best->gpus, next->gpus);
	else if (best->nodes != next->nodes)
		sb_addf(sb, "first for fewer nodes used, %ld against %ld)", best->nodes, next->nodes);
	else
		sb_adds(sb, "as many GPUs and nodes: first in the order given)");
	if (cents(best->per_year) == 0)
		sb_adds(sb, "; neither prices anything: owned nodes cost nothing until the scenarios price energy "
			    "(energy.usd_per_kwh, the inventory's base_power_w) or licences");
}

void compare_rank(const struct compare_row *rows, size_t n, size_t *order)
{
	size_t i, j;
	for (i = 0; i < n; i++) {
		size_t x = i;
		for (j = i; j > 0 && rank_cmp(&rows[x], &rows[order[j - 1]]) < 0; j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
}

#define UNPLACED_NAMED 5	/* workloads named in a text; compare.json lists them all */

char *compare_unplaced_text(const struct compare_row *row)
{
	struct sb sb;
	char b[64];
	size_t i;

	if (!row->unplaced)
		return xstrdup("every replica placed");
	sb_init(&sb);
	sb_addf(&sb, "%ld replica%s unplaced (%s GPU-equivalents):", row->unplaced, row->unplaced == 1 ? "" : "s",
		fmt_fixed(b, sizeof(b), r2(row->gpu_eq_unplaced, 2), 2));
	for (i = 0; i < row->nunpl && i < UNPLACED_NAMED; i++)
		sb_addf(&sb, "%s %s %ld (priority %d)", i ? "," : "", row->unpl[i].workload, row->unpl[i].replicas,
			row->unpl[i].priority);
	if (row->nunpl > UNPLACED_NAMED)
		sb_addf(&sb, " and %zu more workloads", row->nunpl - UNPLACED_NAMED);
	return sb_detach(&sb);
}

/* "; to place all, OPT: adding ..." when the option's plan says what would. */
static void to_place_all(struct sb *sb, const struct compare_row *r)
{
	if (r->to_place_all)
		sb_addf(sb, "; to place all, %s: %s", r->scenario, r->to_place_all);
}

/* "; OPT costs D USD/year less but leaves N replicas unplaced ..." for each option cheaper than the best. */
static void verdict_cheaper(struct sb *sb, const struct compare_row *rows, size_t n, const size_t *order)
{
	const struct compare_row *best = &rows[order[0]];
	char b[64];
	size_t i;

	for (i = 1; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		char *what;
		if (cents(r->per_year) >= cents(best->per_year))
			continue;
		what = compare_unplaced_text(r);
		sb_addf(sb, "; %s costs %s USD/year less but leaves %s", r->scenario,
			fmt_fixed(b, sizeof(b), r2(best->per_year - r->per_year, 2), 2), what);
		free(what);
		to_place_all(sb, r);
	}
}

char *compare_verdict(const struct compare_row *rows, size_t n, const size_t *order)
{
	const struct compare_row *best;
	struct sb sb;
	char b[64];
	char *what;

	if (!n)
		return xstrdup("");
	best = &rows[order[0]];
	sb_init(&sb);
	if (best->unplaced) {
		what = compare_unplaced_text(best);
		sb_addf(&sb, "no option places every replica; %s leaves the least demand unplaced (by priority), at %s "
			"USD/year: %s", best->scenario, fmt_fixed(b, sizeof(b), r2(best->per_year, 2), 2), what);
		free(what);
		to_place_all(&sb, best);
		verdict_cheaper(&sb, rows, n, order);
		return sb_detach(&sb);
	}
	sb_addf(&sb, "%s places every replica at the least cost, %s USD/year", best->scenario,
		fmt_fixed(b, sizeof(b), r2(best->per_year, 2), 2));
	if (n > 1 && !rows[order[1]].unplaced) {
		const struct compare_row *next = &rows[order[1]];
		if (cents(next->per_year) == cents(best->per_year))
			verdict_tie(&sb, best, next);
		else
			sb_addf(&sb, " (%s USD/year less than %s, the next that places every replica)",
				fmt_fixed(b, sizeof(b), r2(next->per_year - best->per_year, 2), 2), next->scenario);
	}
	verdict_cheaper(&sb, rows, n, order);
	return sb_detach(&sb);
}

/* One numeric column: CSV text and the JSON member. */
static void col(struct sb *sb, cJSON *o, const char *key, double v, int decimals)
{
	char b[64];
	sb_addf(sb, ",%s", fmt_fixed(b, sizeof(b), r2(v, decimals), decimals));
	cJSON_AddNumberToObject(o, key, r2(v, decimals));
}

static void csv_header(struct sb *csv)
{
	int q, m;
	sb_adds(csv, "scenario,status,gap,horizon_years,cost_total_usd,cost_per_year_usd");
	for (q = 0; q < CAT_COUNT; q++)
		sb_addf(csv, ",cost_%s_usd", cost_cat_name((enum cost_cat)q));
	sb_adds(csv, ",cost_per_provisioned_gpu_hour_usd,cost_per_used_gpu_hour_usd,memory_utilisation,"
		"compute_utilisation");
	for (q = LIC_COUNT - 1; q > 0; q--)
		sb_addf(csv, ",licenses_%s_gpus,licenses_%s_seats", lic_product_id((enum lic_product)q),
			lic_product_id((enum lic_product)q));
	sb_adds(csv, ",replicas_placed,replicas_unplaced,gpu_equivalents_unplaced,nodes_used,gpus_in_used_nodes");
	for (m = 0; m < MODE_COUNT; m++)
		sb_addf(csv, ",gpus_%s", mode_name((enum gpu_mode)m));
	sb_adds(csv, ",rank\n");
}

static cJSON *unplaced_json(const struct compare_row *r)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;
	for (i = 0; i < r->nunpl; i++) {
		const struct compare_unplaced *u = &r->unpl[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", u->workload);
		cJSON_AddStringToObject(o, "tenant", u->tenant);
		cJSON_AddNumberToObject(o, "replicas", (double)u->replicas);
		cJSON_AddNumberToObject(o, "gpu_equivalents", r2(u->gpu_eq, 4));
		cJSON_AddNumberToObject(o, "priority", u->priority);
		cJSON_AddStringToObject(o, "reason", u->reason);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* One scenario: a CSV row and its JSON object. */
static cJSON *scenario_row(struct sb *csv, const struct compare_row *r, size_t rank)
{
	cJSON *o = cJSON_CreateObject(), *modes;
	char key[64];
	int q, m;

	sb_add_csv(csv, r->scenario);
	sb_addf(csv, ",%s", r->status);
	cJSON_AddStringToObject(o, "scenario", r->scenario);
	cJSON_AddStringToObject(o, "status", r->status);
	col(csv, o, "gap", r->gap, 6);
	col(csv, o, "horizon_years", r->horizon_years, 2);
	col(csv, o, "cost_total_usd", r->total, 2);
	col(csv, o, "cost_per_year_usd", r->per_year, 2);
	for (q = 0; q < CAT_COUNT; q++) {
		snprintf(key, sizeof(key), "cost_%s_usd", cost_cat_name((enum cost_cat)q));
		col(csv, o, key, r->cat[q], 2);
	}
	col(csv, o, "cost_per_provisioned_gpu_hour_usd", r->per_provisioned_gpu_hour, 4);
	col(csv, o, "cost_per_used_gpu_hour_usd", r->per_used_gpu_hour, 4);
	col(csv, o, "memory_utilisation", r->mem_util, 4);
	col(csv, o, "compute_utilisation", r->compute_util, 4);
	for (q = LIC_COUNT - 1; q > 0; q--) {
		snprintf(key, sizeof(key), "licenses_%s_gpus", lic_product_id((enum lic_product)q));
		col(csv, o, key, (double)r->lic_gpus[q], 0);
		snprintf(key, sizeof(key), "licenses_%s_seats", lic_product_id((enum lic_product)q));
		col(csv, o, key, (double)r->seats[q], 0);
	}
	col(csv, o, "replicas_placed", (double)r->placed, 0);
	col(csv, o, "replicas_unplaced", (double)r->unplaced, 0);
	col(csv, o, "gpu_equivalents_unplaced", r->gpu_eq_unplaced, 4);
	col(csv, o, "nodes_used", (double)r->nodes, 0);
	col(csv, o, "gpus_in_used_nodes", (double)r->gpus, 0);
	modes = cJSON_AddObjectToObject(o, "gpus_by_mode");
	for (m = 0; m < MODE_COUNT; m++) {
		sb_addf(csv, ",%ld", r->gpus_by_mode[m]);
		cJSON_AddNumberToObject(modes, mode_name((enum gpu_mode)m), (double)r->gpus_by_mode[m]);
	}
	sb_addf(csv, ",%zu\n", rank);
	cJSON_AddNumberToObject(o, "rank", (double)rank);
	cJSON_AddItemToObject(o, "unplaced", unplaced_json(r));
	if (r->to_place_all)
		cJSON_AddStringToObject(o, "to_place_all", r->to_place_all);
	else
		cJSON_AddNullToObject(o, "to_place_all");
	return o;
}

/* The ranking, best first: each option's unplaced GPU-equivalents by priority (highest first). */
static void ranking_json(cJSON *root, const struct compare_row *rows, size_t n, const size_t *order)
{
	cJSON *arr = cJSON_AddArrayToObject(root, "ranking");
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		cJSON *o = cJSON_CreateObject(), *bp;
		cJSON_AddNumberToObject(o, "rank", (double)(i + 1));
		cJSON_AddStringToObject(o, "scenario", r->scenario);
		cJSON_AddNumberToObject(o, "gpu_equivalents_unplaced", r2(r->gpu_eq_unplaced, 4));
		bp = cJSON_AddArrayToObject(o, "unplaced_by_priority");
		for (j = 0; j < r->nunpl; j = k) {	/* unpl is sorted by priority */
			cJSON *e = cJSON_CreateObject();
			double eq = 0;
			long reps = 0;
			for (k = j; k < r->nunpl && r->unpl[k].priority == r->unpl[j].priority; k++) {
				eq += r->unpl[k].gpu_eq;
				reps += r->unpl[k].replicas;
			}
			cJSON_AddNumberToObject(e, "priority", r->unpl[j].priority);
			cJSON_AddNumberToObject(e, "replicas", (double)reps);
			cJSON_AddNumberToObject(e, "gpu_equivalents", r2(eq, 4));
			cJSON_AddItemToArray(bp, e);
		}
		cJSON_AddNumberToObject(o, "cost_per_year_usd", r2(r->per_year, 2));
		cJSON_AddItemToArray(arr, o);
	}
}

int compare_write(const char *dir, enum report_format fmt, const struct compare_row *rows, size_t n,
		  struct diag *d)
{
	struct sb csv;
	struct outset os = OUTSET_INIT;
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i, *order = xcalloc(n + 1, sizeof(*order)), *rank = xcalloc(n + 1, sizeof(*rank));
	char *verdict;
	int rc;

	compare_rank(rows, n, order);
	for (i = 0; i < n; i++)
		rank[order[i]] = i + 1;
	sb_init(&csv);
	cJSON_AddStringToObject(root, "schema_version", COMPARE_SCHEMA_VERSION);
	arr = cJSON_AddArrayToObject(root, "scenarios");
	csv_header(&csv);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, scenario_row(&csv, &rows[i], rank[i]));
	cJSON_AddStringToObject(root, "ranked_by", COMPARE_RANKED_BY);
	ranking_json(root, rows, n, order);
	verdict = compare_verdict(rows, n, order);
	cJSON_AddStringToObject(root, "verdict", verdict);
	outset_init(&os, dir);
	if (fmt & REPORT_CSV)
		outset_add_sb(&os, "compare.csv", &csv);
	if (fmt & REPORT_JSON) {
		char *json = cJSON_Print(root);
		outset_add_copy(&os, "compare.json", json, strlen(json));
		cJSON_free(json);
	}
	if (fmt & REPORT_HTML) {
		char *html = html_compare_page(rows, n, order, verdict);
		outset_add(&os, "report.html", html, strlen(html));
	}
	free(verdict);
	rc = outset_commit(&os, d);
	outset_release(&os);
	sb_release(&csv);
	cJSON_Delete(root);
	free(order);
	free(rank);
	return rc;
}
