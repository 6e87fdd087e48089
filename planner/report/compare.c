/*
 * compare.c - the comparison of several planned scenarios.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

void compare_row_fill(struct compare_row *row, const char *file, const struct plan_result *r)
{
	struct cplan_cost cost;
	struct report_stats st;
	double h;
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
	h = report_placed_gpu_hours(r->final);
	row->cost_per_gpu_hour = h > 0 ? cost.total / h : 0;
	row->mem_util = st.mem_util;
	row->compute_util = st.compute_util;
	memcpy(row->lic_gpus, cost.lic_gpus, sizeof(row->lic_gpus));
	memcpy(row->seats, cost.seats, sizeof(row->seats));
	row->placed = cost.placed;
	row->unplaced = cost.unplaced;
	row->nodes = cost.nodes;
	row->gpus = cost.gpus;
	memcpy(row->nodes_by_mode, st.nodes_by_mode, sizeof(row->nodes_by_mode));
	memcpy(row->gpus_by_mode, st.gpus_by_mode, sizeof(row->gpus_by_mode));
}

void compare_row_release(struct compare_row *row)
{
	free(row->scenario);
	free(row->file);
	memset(row, 0, sizeof(*row));
}

static double r2(double v, int decimals)
{
	double f = pow(10, decimals), x = round(v * f) / f;
	return x == 0 ? 0 : x;
}

/* One numeric column: CSV text and the JSON member. */
static void col(struct sb *sb, cJSON *o, const char *key, double v, int decimals)
{
	char b[64];
	sb_addf(sb, ",%s", fmt_fixed(b, sizeof(b), r2(v, decimals), decimals));
	cJSON_AddNumberToObject(o, key, r2(v, decimals));
}

int compare_write(const char *dir, enum report_format fmt, const struct compare_row *rows, size_t n,
		  struct diag *d)
{
	struct sb csv;
	struct outset os = OUTSET_INIT;
	cJSON *root = cJSON_CreateObject(), *arr;
	size_t i;
	int q, m, rc;
	char key[64];

	sb_init(&csv);
	cJSON_AddStringToObject(root, "schema_version", COMPARE_SCHEMA_VERSION);
	arr = cJSON_AddArrayToObject(root, "scenarios");
	sb_adds(&csv, "scenario,status,gap,horizon_years,cost_total_usd,cost_per_year_usd");
	for (q = 0; q < CAT_COUNT; q++)
		sb_addf(&csv, ",cost_%s_usd", cost_cat_name((enum cost_cat)q));
	sb_adds(&csv, ",cost_per_placed_gpu_hour_usd,memory_utilisation,compute_utilisation");
	for (q = LIC_COUNT - 1; q > 0; q--)
		sb_addf(&csv, ",licenses_%s_gpus,licenses_%s_seats", lic_product_id((enum lic_product)q),
			lic_product_id((enum lic_product)q));
	sb_adds(&csv, ",replicas_placed,replicas_unplaced,nodes_used,gpus_in_used_nodes");
	for (m = 0; m < MODE_COUNT; m++)
		sb_addf(&csv, ",gpus_%s", mode_name((enum gpu_mode)m));
	sb_adds(&csv, "\n");
	for (i = 0; i < n; i++) {
		const struct compare_row *r = &rows[i];
		cJSON *o = cJSON_CreateObject(), *modes;
		sb_add_csv(&csv, r->scenario);
		sb_addf(&csv, ",%s", r->status);
		cJSON_AddStringToObject(o, "scenario", r->scenario);
		cJSON_AddStringToObject(o, "status", r->status);
		col(&csv, o, "gap", r->gap, 6);
		col(&csv, o, "horizon_years", r->horizon_years, 2);
		col(&csv, o, "cost_total_usd", r->total, 2);
		col(&csv, o, "cost_per_year_usd", r->per_year, 2);
		for (q = 0; q < CAT_COUNT; q++) {
			snprintf(key, sizeof(key), "cost_%s_usd", cost_cat_name((enum cost_cat)q));
			col(&csv, o, key, r->cat[q], 2);
		}
		col(&csv, o, "cost_per_placed_gpu_hour_usd", r->cost_per_gpu_hour, 4);
		col(&csv, o, "memory_utilisation", r->mem_util, 4);
		col(&csv, o, "compute_utilisation", r->compute_util, 4);
		for (q = LIC_COUNT - 1; q > 0; q--) {
			snprintf(key, sizeof(key), "licenses_%s_gpus", lic_product_id((enum lic_product)q));
			col(&csv, o, key, (double)r->lic_gpus[q], 0);
			snprintf(key, sizeof(key), "licenses_%s_seats", lic_product_id((enum lic_product)q));
			col(&csv, o, key, (double)r->seats[q], 0);
		}
		col(&csv, o, "replicas_placed", (double)r->placed, 0);
		col(&csv, o, "replicas_unplaced", (double)r->unplaced, 0);
		col(&csv, o, "nodes_used", (double)r->nodes, 0);
		col(&csv, o, "gpus_in_used_nodes", (double)r->gpus, 0);
		modes = cJSON_AddObjectToObject(o, "gpus_by_mode");
		for (m = 0; m < MODE_COUNT; m++) {
			sb_addf(&csv, ",%ld", r->gpus_by_mode[m]);
			cJSON_AddNumberToObject(modes, mode_name((enum gpu_mode)m), (double)r->gpus_by_mode[m]);
		}
		sb_adds(&csv, "\n");
		cJSON_AddItemToArray(arr, o);
	}
	outset_init(&os, dir);
	if (fmt & REPORT_CSV)
		outset_add_sb(&os, "compare.csv", &csv);
	if (fmt & REPORT_JSON) {
		char *json = cJSON_Print(root);
		outset_add_copy(&os, "compare.json", json, strlen(json));
		cJSON_free(json);
	}
	rc = outset_commit(&os, d);
	outset_release(&os);
	sb_release(&csv);
	cJSON_Delete(root);
	return rc;
}
