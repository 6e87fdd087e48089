/*
 * report_summary.c - the plan's totals: summary.csv (one metric per row), costs.csv
 * (category x year) and licenses.csv, each with its part of plan.json.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_docs.h"
#include "stats.h"
#include "date.h"
#include "report.h"
#include "util.h"
#include "banned.h"

static void kv(struct sb *sb, cJSON *obj, const char *key, const char *val)
{
	sb_adds(sb, key);
	sb_addn(sb, ",", 1);
	sb_add_csv(sb, val);
	sb_addn(sb, "\n", 1);
	cJSON_AddStringToObject(obj, key, val);
}

static void kvn(struct sb *sb, cJSON *obj, const char *key, double v, int decimals)
{
	char buf[64];
	sb_addf(sb, "%s,%s\n", key, fmt_fixed(buf, sizeof(buf), v, decimals));
	cJSON_AddNumberToObject(obj, key, report_round(v, decimals));
}

/* A models file as reports name it: "clouds.yaml", whatever directory it was read from. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* oldest_price_as_of and oldest_price: the oldest dated price the plan uses ("" when none). */
static void oldest_price(struct docs *dc, cJSON *s, const struct plan_result *r)
{
	struct price_ref p;
	char date[DATE_TEXT_SIZE];
	char *name, *what;

	if (!report_oldest_price(r, &p)) {
		kv(&dc->summary, s, "oldest_price_as_of", "");
		kv(&dc->summary, s, "oldest_price", "");
		return;
	}
	name = report_price_name(&p);
	what = xasprintf("%s [%s:%ld]%s", name, base_name(p.file), p.line, p.assumed ? " (assumed)" : "");
	kv(&dc->summary, s, "oldest_price_as_of", date_format(date, sizeof(date), p.as_of));
	kv(&dc->summary, s, "oldest_price", what);
	free(name);
	free(what);
}

/* One assumption_N row of summary.csv and one item of plan.json's list. */
static void add_assumption(struct docs *dc, cJSON *ja, int n, const char *what, const char *source)
{
	cJSON *o = cJSON_CreateObject();
	char *line = xasprintf("%s [%s]", what, source);

	sb_addf(&dc->summary, "assumption_%d,", n);
	sb_add_csv(&dc->summary, line);
	sb_addn(&dc->summary, "\n", 1);
	free(line);
	cJSON_AddStringToObject(o, "what", what);
	cJSON_AddStringToObject(o, "source", source);
	cJSON_AddItemToArray(ja, o);
}

/* The assumptions the plan relies on: the pricing's that it uses, then its MIG memory notes. */
static void add_assumptions(struct docs *dc, const struct plan_result *r, const struct cplan_cost *cost,
			    const struct report_stats *st)
{
	cJSON *ja = cJSON_AddArrayToObject(dc->json, "assumptions");
	struct report_notes notes;
	size_t i;
	int na = 0;

	for (i = 0; i < r->pr.nassumptions; i++) {
		const struct assumption *a = &r->pr.assumptions[i];
		if (report_assumption_used(a, cost, st))
			add_assumption(dc, ja, ++na, a->what, a->source);
	}
	report_mig_notes(r->final, &notes);
	for (i = 0; i < notes.n; i++)
		add_assumption(dc, ja, ++na, notes.notes[i].what, notes.notes[i].source);
	report_notes_release(&notes);
}

/* One summary row per sharing mode, PREFIX_<mode>, COUNT holding the values. */
static void summary_modes(struct docs *dc, cJSON *s, const char *prefix, const long *count)
{
	char key[64];
	int m;

	for (m = 0; m < MODE_COUNT; m++) {
		snprintf(key, sizeof(key), "%s_%s", prefix, mode_name((enum gpu_mode)m));
		kvn(&dc->summary, s, key, (double)count[m], 0);
	}
}

void report_build_summary(struct docs *dc, const struct plan_result *r)
{
	const struct cplan *cp = r->final;
	const struct problem *p = cp->p;
	struct cplan_cost cost;
	struct report_stats st;
	cJSON *s = cJSON_AddObjectToObject(dc->json, "summary");
	cJSON *cats;
	struct report_gpu_hours gh;
	int m, q;

	cplan_cost(cp, &cost);
	report_stats(cp, &st);
	report_gpu_hours(cp, &gh);
	sb_adds(&dc->summary, "metric,value\n");
	kv(&dc->summary, s, "scenario", p->sc->name);
	kv(&dc->summary, s, "status", ilp_status_name(r->status));
	kv(&dc->summary, s, "plan_source", r->plan_source);
	kvn(&dc->summary, s, "horizon_years", p->horizon_years, 2);
	kvn(&dc->summary, s, "cost_total_usd", cost.total, 2);
	kvn(&dc->summary, s, "cost_per_year_usd", cost.total / p->horizon_years, 2);
	for (q = 0; q < CAT_COUNT; q++) {
		char key[64];
		snprintf(key, sizeof(key), "cost_%s_usd", cost_cat_name((enum cost_cat)q));
		kvn(&dc->summary, s, key, cost.cat[q], 2);
	}
	kvn(&dc->summary, s, "cost_per_provisioned_gpu_hour_usd", gh.per_provisioned, 4);
	kvn(&dc->summary, s, "cost_per_used_gpu_hour_usd", gh.per_used, 4);
	kvn(&dc->summary, s, "objective", r->objective, 2);
	kvn(&dc->summary, s, "lower_bound", r->bound, 2);
	kvn(&dc->summary, s, "lp_bound", r->lp_bound, 2);
	kvn(&dc->summary, s, "gap", r->gap, 6);
	kvn(&dc->summary, s, "greedy_objective", r->greedy_objective, 2);
	kv(&dc->summary, s, "license_counting", lic_counting_name(r->pr.counting));
	for (q = 1; q < LIC_COUNT; q++) {
		char key[64];
		snprintf(key, sizeof(key), "licenses_%s_gpus", lic_product_id((enum lic_product)q));
		kvn(&dc->summary, s, key, (double)cost.lic_gpus[q], 0);
		snprintf(key, sizeof(key), "licenses_%s_seats", lic_product_id((enum lic_product)q));
		kvn(&dc->summary, s, key, (double)cost.seats[q], 0);
	}
	kvn(&dc->summary, s, "nodes_used", (double)cost.nodes, 0);
	kvn(&dc->summary, s, "gpus_in_used_nodes", (double)cost.gpus, 0);
	kvn(&dc->summary, s, "gpus_active", (double)cost.gpus_active, 0);
	kvn(&dc->summary, s, "gpus_licensed", (double)cost.gpus_licensed, 0);
	kvn(&dc->summary, s, "replicas_placed", (double)cost.placed, 0);
	kvn(&dc->summary, s, "replicas_unplaced", (double)cost.unplaced, 0);
	kvn(&dc->summary, s, "memory_utilisation", st.mem_util, 4);
	kvn(&dc->summary, s, "compute_utilisation", st.compute_util, 4);
	summary_modes(dc, s, "nodes", st.nodes_by_mode);
	summary_modes(dc, s, "gpus", st.gpus_by_mode);
	kvn(&dc->summary, s, "model_rows", r->res.rows, 0);
	kvn(&dc->summary, s, "model_columns", r->res.cols, 0);
	kvn(&dc->summary, s, "model_integer_columns", r->res.int_cols, 0);
	report_failure_summary(dc, s, r);
	report_skew_summary(dc, s, r);
	oldest_price(dc, s, r);
	cats = cJSON_AddObjectToObject(s, "modes");
	for (m = 0; m < MODE_COUNT; m++) {
		cJSON *mix = cJSON_AddObjectToObject(cats, mode_name((enum gpu_mode)m));
		cJSON_AddNumberToObject(mix, "nodes", (double)st.nodes_by_mode[m]);
		cJSON_AddNumberToObject(mix, "gpus", (double)st.gpus_by_mode[m]);
	}
	add_assumptions(dc, r, &cost, &st);
}

/* costs.csv: category x year, with a total row and column. */
void report_build_costs(struct docs *dc, const struct plan_result *r)
{
	const struct pricing *pr = &r->pr;
	struct cplan_cost cost;
	double ytot[PRICING_MAX_YEARS] = { 0 };
	cJSON *jc = cJSON_AddObjectToObject(dc->json, "costs"), *ja, *jy;
	char b[64];
	int c, y;

	cplan_cost(r->final, &cost);
	jy = cJSON_AddArrayToObject(jc, "year_lengths");
	sb_adds(&dc->costs, "category");
	for (y = 0; y < pr->nyears; y++) {
		sb_addf(&dc->costs, ",year_%d", y + 1);
		cJSON_AddItemToArray(jy, cJSON_CreateNumber(report_round(pr->year_len[y], 4)));
	}
	sb_adds(&dc->costs, ",total\n");
	ja = cJSON_AddArrayToObject(jc, "categories");
	for (c = 0; c < CAT_COUNT; c++) {
		cJSON *o = cJSON_CreateObject(), *v = cJSON_CreateArray();
		sb_adds(&dc->costs, cost_cat_name((enum cost_cat)c));
		for (y = 0; y < pr->nyears; y++) {
			sb_addf(&dc->costs, ",%s", report_money(b, sizeof(b), cost.year[c][y]));
			cJSON_AddItemToArray(v, cJSON_CreateNumber(report_round(cost.year[c][y], 2)));
			ytot[y] += cost.year[c][y];
		}
		sb_addf(&dc->costs, ",%s\n", report_money(b, sizeof(b), cost.cat[c]));
		cJSON_AddStringToObject(o, "category", cost_cat_name((enum cost_cat)c));
		cJSON_AddItemToObject(o, "years", v);
		cJSON_AddNumberToObject(o, "total", report_round(cost.cat[c], 2));
		cJSON_AddItemToArray(ja, o);
	}
	sb_adds(&dc->costs, "total");
	jy = cJSON_AddArrayToObject(jc, "total_by_year");
	for (y = 0; y < pr->nyears; y++) {
		sb_addf(&dc->costs, ",%s", report_money(b, sizeof(b), ytot[y]));
		cJSON_AddItemToArray(jy, cJSON_CreateNumber(report_round(ytot[y], 2)));
	}
	sb_addf(&dc->costs, ",%s\n", report_money(b, sizeof(b), cost.total));
	cJSON_AddNumberToObject(jc, "total", report_round(cost.total, 2));
}

/* One licences.csv row: a product, term and counting unit. */
struct lic_row {
	enum lic_product product;
	const char *term;
	int seat;		/* 0 physical GPU, 1 vGPU seat */
	int assumed;
	long count;
	double total;
};

static int lic_row_cmp(const void *a, const void *b)
{
	const struct lic_row *x = a, *y = b;
	int c;
	if (x->product != y->product)
		return x->product > y->product ? -1 : 1; /* nvaie first */
	if ((c = strcmp(x->term, y->term)))
		return c;
	return x->seat - y->seat;
}

void report_build_licenses(struct docs *dc, const struct plan_result *r)
{
	const struct cplan *cp = r->final;
	const struct problem *p = cp->p;
	struct lic_row *rows = NULL;
	size_t nrows = 0, cap = 0, i, j;
	cJSON *ja = cJSON_AddArrayToObject(dc->json, "licenses");
	char b1[64], b2[64];

	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct class_price *pc = r->pr.cls[n->k];
		int g;
		for (g = 0; g < p->classes[n->k].nc->gpus_per_node; g++) {
			enum lic_product lp;
			long gpus, seats;
			const struct lic_price *price;
			int seat;
			cplan_gpu_licence(cp, i, g, &lp, &gpus, &seats);
			if (lp == LIC_NONE || gpus + seats == 0)
				continue;
			price = &pc->lic[lp];
			seat = seats > 0;
			for (j = 0; j < nrows; j++)
				if (rows[j].product == lp && rows[j].seat == seat && !strcmp(rows[j].term, price->term_id))
					break;
			if (j == nrows) {
				XGROW(rows, cap, nrows + 1);
				memset(&rows[nrows], 0, sizeof(rows[nrows]));
				rows[nrows].product = lp;
				rows[nrows].term = price->term_id;
				rows[nrows].seat = seat;
				nrows++;
			}
			rows[j].count += gpus + seats;
			rows[j].total += (double)(gpus + seats) * price->total;
			rows[j].assumed |= (price->term && price->term->assumed) || !price->term;
		}
	}
	if (nrows)
		qsort(rows, nrows, sizeof(*rows), lic_row_cmp);
	sb_adds(&dc->licenses, "product,term,unit,count,usd_per_year,total_usd,assumed\n");
	for (i = 0; i < nrows; i++) {
		const char *unit = rows[i].seat ? "vgpu-seat" : "physical-gpu";
		cJSON *o = cJSON_CreateObject();
		sb_addf(&dc->licenses, "%s,", lic_product_id(rows[i].product));
		sb_add_csv(&dc->licenses, rows[i].term);
		sb_addf(&dc->licenses, ",%s,%ld,%s,%s,%s\n", unit, rows[i].count, report_money(b1, sizeof(b1), rows[i].total / p->horizon_years),
			report_money(b2, sizeof(b2), rows[i].total), rows[i].assumed ? "true" : "false");
		cJSON_AddStringToObject(o, "product", lic_product_id(rows[i].product));
		cJSON_AddStringToObject(o, "term", rows[i].term);
		cJSON_AddStringToObject(o, "unit", unit);
		cJSON_AddNumberToObject(o, "count", (double)rows[i].count);
		cJSON_AddNumberToObject(o, "usd_per_year", report_round(rows[i].total / p->horizon_years, 2));
		cJSON_AddNumberToObject(o, "total_usd", report_round(rows[i].total, 2));
		cJSON_AddBoolToObject(o, "assumed", rows[i].assumed);
		cJSON_AddItemToArray(ja, o);
	}
	free(rows);
}
