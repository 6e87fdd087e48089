/*
 * compare_write.c - a comparison written out: compare.csv, compare.json and
 * report.html, all or nothing (the rows, ranking and verdict are compare.c's).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_pages.h"
#include "compare.h"
#include "report_docs.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

/* One numeric column: CSV text and the JSON member. */
static void col(struct sb *sb, cJSON *o, const char *key, double v, int decimals)
{
	char b[64];
	sb_addf(sb, ",%s", fmt_fixed(b, sizeof(b), report_round(v, decimals), decimals));
	cJSON_AddNumberToObject(o, key, report_round(v, decimals));
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
	sb_adds(csv, ",failure_worst_node,failure_worst_node_stranded,failure_worst_site,failure_worst_site_stranded"
		     ",resilience_extra_cost_per_year_usd,rank\n");
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
		cJSON_AddNumberToObject(o, "gpu_equivalents", report_round(u->gpu_eq, 4));
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
	for (q = 0; q < 2; q++) {
		snprintf(key, sizeof(key), "failure_worst_%s", q ? "site" : "node");
		sb_adds(csv, ",");
		sb_add_csv(csv, r->worst[q]);
		cJSON_AddStringToObject(o, key, r->worst[q]);
		snprintf(key, sizeof(key), "failure_worst_%s_stranded", q ? "site" : "node");
		col(csv, o, key, (double)r->worst_stranded[q], 0);
	}
	if (r->have_resil) {
		col(csv, o, "resilience_extra_cost_per_year_usd", r->resil_usd_per_year, 2);
	} else {	/* no resilience: block, no headroom priced */
		sb_adds(csv, ",");
		cJSON_AddNullToObject(o, "resilience_extra_cost_per_year_usd");
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
		cJSON_AddNumberToObject(o, "gpu_equivalents_unplaced", report_round(r->gpu_eq_unplaced, 4));
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
			cJSON_AddNumberToObject(e, "gpu_equivalents", report_round(eq, 4));
			cJSON_AddItemToArray(bp, e);
		}
		cJSON_AddNumberToObject(o, "cost_per_year_usd", report_round(r->per_year, 2));
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
