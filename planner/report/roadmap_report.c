/*
 * roadmap_report.c - the roadmap's CSV and JSON reports.  Money has two
 * decimals, periods are their labels, rows are in period order; no
 * timestamps, so a run writes the same bytes each time.  Every CSV cell
 * goes through sb_add_csv (names come from the user's files).
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_pages.h"
#include "outfile.h"
#include "roadmap_report.h"
#include "util.h"
#include "banned.h"

#define MONEY(v) fmt_fixed((char[64]){ 0 }, 64, (v), 2)
#define LABEL(r, i) period_format((char[16]){ 0 }, 16, (r)->fc->kind, (i))

static cJSON *json_money(double v);

static const char *const pricing_cols[PRICING_COUNT] = { "rented_gpus_on_demand", "rented_gpus_reserved",
							 "rented_gpus_spot", "rented_gpus_savings_plan",
							 "rented_gpus_block" };

/* A commitment's action in the schedule: reserve, block or licence. */
static const char *commit_action(const struct roadmap_commit *cm)
{
	if (cm->kind == RCOMMIT_LICENCE)
		return "licence";
	return cm->offer->pricing == PRICING_CAPACITY_BLOCK ? "block" : "reserve";
}

/* A row of cells: each through sb_add_csv, then the line break. */
static void csv_row(struct sb *sb, const char *const *cells, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (i)
			sb_adds(sb, ",");
		sb_add_csv(sb, cells[i]);
	}
	sb_adds(sb, "\n");
}

static void buy_row(const struct roadmap_result *r, const struct roadmap_buy *b, struct sb *sb)
{
	double rate = r->sc->roadmap.present ? r->sc->roadmap.discount_rate : 0;
	double total = (double)b->units * b->capex_usd;
	char units[32], order[16], start[16];
	const char *cells[13];

	snprintf(units, sizeof(units), "%ld", b->units);
	period_format(order, sizeof(order), r->fc->kind, b->order);
	period_format(start, sizeof(start), r->fc->kind, b->arrive);
	cells[0] = order;
	cells[1] = "buy";
	cells[2] = r->sc->inventory.classes[b->cls].name;
	cells[3] = units;
	cells[4] = order;
	cells[5] = start;
	cells[6] = MONEY(total);
	cells[7] = MONEY(total);
	cells[8] = MONEY(total * pow(1 + rate, -(double)(b->arrive - r->fc->start) / r->ppy));
	cells[9] = cells[10] = cells[11] = cells[12] = "";
	csv_row(sb, cells, 13);
}

/* A commitment's cash inside the horizon, discounted: the upfront at its start, the rest period by period. */
static double commit_discounted(const struct roadmap_result *r, const struct roadmap_commit *cm)
{
	double rate = r->sc->roadmap.present ? r->sc->roadmap.discount_rate : 0, v = 0;
	long t, s = cm->start - r->fc->start;

	for (t = s; t < (long)r->nperiods && t <= cm->end - r->fc->start; t++)
		v += (double)cm->units * (cm->usd_per_period + (t == s ? cm->upfront_usd : 0)) *
		     pow(1 + rate, -(double)t / r->ppy);
	return v;
}

static void commit_row(const struct roadmap_result *r, const struct roadmap_commit *cm, struct sb *sb)
{
	char *cells[13];
	size_t i;

	cells[0] = xstrdup(LABEL(r, cm->start));
	cells[1] = xstrdup(commit_action(cm));
	cells[2] = xstrdup(cm->kind == RCOMMIT_RESERVE ? r->sc->inventory.classes[cm->cls].name : "");
	cells[3] = xasprintf("%ld", cm->units);
	cells[4] = xstrdup(cells[0]);
	cells[5] = xstrdup(cells[0]);
	cells[6] = xstrdup(MONEY((double)cm->units * cm->upfront_usd));
	cells[7] = xstrdup(MONEY(cm->total_usd));
	cells[8] = xstrdup(MONEY(commit_discounted(r, cm)));
	cells[9] = xstrdup(cm->kind == RCOMMIT_RESERVE ? cm->offer->id : "");
	cells[10] = xstrdup(cm->item);
	cells[11] = xstrdup(LABEL(r, cm->end));
	cells[12] = xstrdup(MONEY(cm->usd_per_period));
	csv_row(sb, (const char *const *)cells, 13);
	for (i = 0; i < 13; i++)
		free(cells[i]);
}

/* Purchases by order period, then in each period the commitments started in it (reservations, then licences). */
static void schedule_csv(const struct roadmap_result *r, struct outset *os)
{
	struct sb sb;
	size_t i = 0, j = 0;

	sb_init(&sb);
	sb_adds(&sb, "period,action,class,units,order_period,start_period,upfront_usd,total_usd,discounted_usd,"
		     "offer,item,end_period,usd_per_period\n");
	while (i < r->nbuys || j < r->ncommits) {
		if (j == r->ncommits || (i < r->nbuys && r->buys[i].order <= r->commits[j].start))
			buy_row(r, &r->buys[i++], &sb);
		else
			commit_row(r, &r->commits[j++], &sb);
	}
	outset_add_sb(os, "schedule.csv", &sb);
}

/* periods.csv's columns before the cost categories, and after them. */
static const char *const period_head[] = { "period", "demand_replicas", "demand_gpu_equivalents", "placed",
					   "unplaced", "owned_gpus", "bought_gpus", "on_order_gpus", NULL };
/* After the rented GPUs by pricing. */
static const char *const period_mid[] = { "committed_gpus", "licensed_gpus", "licences_held", NULL };
static const char *const period_tail[] = { "cost_usd", "cash_usd", "discounted_cash_usd", "status", "objective_usd",
					   "bound_usd", NULL };

#define NCELLS 32

static void periods_header(struct sb *sb)
{
	const char *cells[NCELLS];
	size_t n = 0, i;
	int q;

	for (i = 0; period_head[i]; i++)
		cells[n++] = period_head[i];
	for (q = 0; q < PRICING_COUNT; q++)
		cells[n++] = pricing_cols[q];
	for (i = 0; period_mid[i]; i++)
		cells[n++] = period_mid[i];
	for (q = 0; q < CAT_COUNT; q++)
		cells[n++] = cost_cat_name((enum cost_cat)q);
	for (i = 0; period_tail[i]; i++)
		cells[n++] = period_tail[i];
	csv_row(sb, cells, n);
}

static void periods_row(const struct roadmap_result *r, const struct roadmap_period *rp, struct sb *sb)
{
	char *cells[NCELLS];
	size_t n = 0, i;
	int q;

	cells[n++] = xstrdup(LABEL(r, rp->index));
	cells[n++] = xasprintf("%ld", rp->demand_replicas);
	cells[n++] = xstrdup(fmt_fixed((char[64]){ 0 }, 64, rp->demand_gpu_equivalents, 3));
	cells[n++] = xasprintf("%ld", rp->placed);
	cells[n++] = xasprintf("%ld", rp->unplaced);
	cells[n++] = xasprintf("%ld", rp->owned_gpus);
	cells[n++] = xasprintf("%ld", rp->bought_gpus);
	cells[n++] = xasprintf("%ld", rp->on_order_gpus);
	for (q = 0; q < PRICING_COUNT; q++)
		cells[n++] = xasprintf("%ld", rp->rented_gpus[q]);
	cells[n++] = xasprintf("%ld", rp->committed_gpus);
	cells[n++] = xasprintf("%ld", rp->licensed_gpus);
	cells[n++] = xasprintf("%ld", rp->licences_held);
	for (q = 0; q < CAT_COUNT; q++)
		cells[n++] = xstrdup(MONEY(rp->cat[q]));
	cells[n++] = xstrdup(MONEY(rp->cost));
	cells[n++] = xstrdup(MONEY(rp->cash));
	cells[n++] = xstrdup(MONEY(rp->discounted_cash));
	cells[n++] = xstrdup(rp->status ? rp->status : "empty");
	cells[n++] = xstrdup(MONEY(rp->objective));
	cells[n++] = xstrdup(MONEY(rp->bound));
	csv_row(sb, (const char *const *)cells, n);
	for (i = 0; i < n; i++)
		free(cells[i]);
}

static void periods_csv(const struct roadmap_result *r, struct outset *os)
{
	struct sb sb;
	size_t t;

	sb_init(&sb);
	periods_header(&sb);
	for (t = 0; t < r->nperiods; t++)
		periods_row(r, &r->per[t], &sb);
	outset_add_sb(os, "periods.csv", &sb);
}

/*
 * costs.csv: the cost per category (rows) and period (columns), with a total
 * column and a total row, as plan's costs.csv by year; sums of the unrounded
 * figures, so a total is the rounded sum, not the sum of the rounded cells.
 */
static void costs_csv(const struct roadmap_result *r, struct outset *os)
{
	struct sb sb;
	double all = 0, row;
	size_t t;
	int q;

	sb_init(&sb);
	sb_adds(&sb, "category");
	for (t = 0; t < r->nperiods; t++) {
		sb_adds(&sb, ",");
		sb_add_csv(&sb, LABEL(r, r->per[t].index));
	}
	sb_adds(&sb, ",total\n");
	for (q = 0; q <= CAT_COUNT; q++) {
		sb_add_csv(&sb, q < CAT_COUNT ? cost_cat_name((enum cost_cat)q) : "total");
		for (t = 0, row = 0; t < r->nperiods; t++) {
			double v = 0;
			int c;
			for (c = 0; c < CAT_COUNT; c++)
				v += (q == CAT_COUNT || q == c) ? r->per[t].cat[c] : 0;
			row += v;
			sb_adds(&sb, ",");
			sb_adds(&sb, MONEY(v));
		}
		if (q < CAT_COUNT)
			all += row;
		sb_adds(&sb, ",");
		sb_adds(&sb, MONEY(q < CAT_COUNT ? row : all));
		sb_adds(&sb, "\n");
	}
	outset_add_sb(os, "costs.csv", &sb);
}

/* The periods a GPU must be in use over the horizon for buying to cost less; "" when never. */
static char *breakeven_periods(const struct roadmap_result *r, const struct roadmap_breakeven *e)
{
	double n = ceil(e->share * (double)r->nperiods - 1e-9);
	return e->share < 0 || e->share > 1 ? xstrdup("") : xasprintf("%.0f", n);
}

/* breakeven.csv: per buy row and rent row of one GPU type. */
static void breakeven_csv(const struct roadmap_result *r, struct outset *os)
{
	const struct inventory *inv = &r->sc->inventory;
	struct sb sb;
	size_t i, k;

	sb_init(&sb);
	sb_adds(&sb, "gpu_type,class,offer,buy_usd_per_gpu_period,buy_fixed_usd_per_gpu_period,rent_usd_per_gpu_period,"
		     "breakeven_share,breakeven_periods\n");
	for (i = 0; i < r->nbreakeven; i++) {
		const struct roadmap_breakeven *e = &r->breakeven[i];
		const struct node_class *rc = &inv->classes[e->rent];
		char *cells[8];
		cells[0] = xstrdup(inv->classes[e->buy].gpu->id);
		cells[1] = xstrdup(inv->classes[e->buy].name);
		cells[2] = xstrdup(rc->offer ? rc->offer->id : rc->name);
		cells[3] = xstrdup(MONEY(e->buy_fixed + e->buy_in_use));
		cells[4] = xstrdup(MONEY(e->buy_fixed));
		cells[5] = xstrdup(MONEY(e->rent_in_use));
		cells[6] = e->share < 0 ? xstrdup("") : xstrdup(fmt_fixed((char[64]){ 0 }, 64, e->share, 4));
		cells[7] = breakeven_periods(r, e);
		csv_row(&sb, (const char *const *)cells, 8);
		for (k = 0; k < 8; k++)
			free(cells[k]);
	}
	outset_add_sb(os, "breakeven.csv", &sb);
}

static cJSON *json_breakeven(const struct roadmap_result *r, const struct roadmap_breakeven *e)
{
	const struct inventory *inv = &r->sc->inventory;
	const struct node_class *rc = &inv->classes[e->rent];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "gpu_type", inv->classes[e->buy].gpu->id);
	cJSON_AddStringToObject(o, "class", inv->classes[e->buy].name);
	cJSON_AddStringToObject(o, "offer", rc->offer ? rc->offer->id : rc->name);
	cJSON_AddItemToObject(o, "buy_usd_per_gpu_period", json_money(e->buy_fixed + e->buy_in_use));
	cJSON_AddItemToObject(o, "buy_fixed_usd_per_gpu_period", json_money(e->buy_fixed));
	cJSON_AddItemToObject(o, "rent_usd_per_gpu_period", json_money(e->rent_in_use));
	if (e->share < 0)
		cJSON_AddNullToObject(o, "breakeven_share");
	else
		cJSON_AddItemToObject(o, "breakeven_share", cJSON_CreateRaw(fmt_fixed((char[64]){ 0 }, 64, e->share, 4)));
	if (e->share < 0 || e->share > 1)
		cJSON_AddNullToObject(o, "breakeven_periods");
	else
		cJSON_AddNumberToObject(o, "breakeven_periods", ceil(e->share * (double)r->nperiods - 1e-9));
	return o;
}

/* summary.csv: metric,value. */
static void summary_csv(const struct roadmap_result *r, struct outset *os)
{
	const struct scenario_roadmap *R = &r->sc->roadmap;
	struct sb sb;
	char *line;
	size_t i;

	sb_init(&sb);
	sb_adds(&sb, "metric,value\n");
	sb_addf(&sb, "scenario,");
	sb_add_csv(&sb, r->sc->name);
	sb_addf(&sb, "\nperiods,%zu\nstart,%s\nperiod,%s\n", r->nperiods, LABEL(r, r->fc->start),
		period_kind_name(r->fc->kind));
	sb_addf(&sb, "status,%s\n", r->gap <= r->mip_gap + 1e-12 ? "optimal" : "feasible");
	sb_addf(&sb, "objective_usd,%s\nbound_usd,%s\ngap,%s\n", MONEY(r->objective), MONEY(r->bound),
		fmt_fixed((char[64]){ 0 }, 64, r->gap, 6));
	sb_addf(&sb, "cost_usd,%s\ncash_usd,%s\nnpv_usd,%s\n", MONEY(r->cost_total), MONEY(r->cash_total), MONEY(r->npv));
	sb_addf(&sb, "residual_book_usd,%s\nresidual_credit_usd,%s\n", MONEY(r->residual_book), MONEY(r->residual_credit));
	sb_addf(&sb, "cloud_uncommitted_usd,%s\nsaving_vs_on_demand_usd,%s\ncommitment_tail,%s\n",
		 MONEY(r->cloud_uncommitted_usd), MONEY(r->saving_vs_on_demand),
		 R->present && R->tail_charged ? "charged" : "prorated");
	sb_addf(&sb, "residual,%s\ndiscount_rate,%s\nlead_time_periods,%d\n", R->present && R->residual_none ? "none" : "book",
		fmt_num_short((char[64]){ 0 }, 64, R->present ? R->discount_rate : 0, 6), r->lead);
	for (i = 0; i < r->nassumptions; i++) {
		line = xasprintf("assumption_%zu,", i + 1);
		sb_adds(&sb, line);
		free(line);
		sb_add_csv(&sb, r->assumptions[i]);
		sb_adds(&sb, "\n");
	}
	outset_add_sb(os, "summary.csv", &sb);
}

static cJSON *json_money(double v)
{
	return cJSON_CreateRaw(MONEY(v));
}

static cJSON *json_period(const struct roadmap_result *r, const struct roadmap_period *rp)
{
	cJSON *o = cJSON_CreateObject(), *cost = cJSON_CreateObject(), *rent = cJSON_CreateObject(), *arr;
	size_t i;
	int q;

	cJSON_AddStringToObject(o, "period", LABEL(r, rp->index));
	cJSON_AddNumberToObject(o, "demand_replicas", (double)rp->demand_replicas);
	cJSON_AddItemToObject(o, "demand_gpu_equivalents",
			      cJSON_CreateRaw(fmt_fixed((char[64]){ 0 }, 64, rp->demand_gpu_equivalents, 3)));
	cJSON_AddNumberToObject(o, "placed", (double)rp->placed);
	cJSON_AddNumberToObject(o, "unplaced", (double)rp->unplaced);
	arr = cJSON_AddArrayToObject(o, "unplaced_by_priority");
	for (i = 0; i < rp->nunplaced_prio; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "priority", rp->unplaced_prio[i].priority);
		cJSON_AddNumberToObject(e, "replicas", (double)rp->unplaced_prio[i].replicas);
		cJSON_AddItemToArray(arr, e);
	}
	cJSON_AddNumberToObject(o, "owned_gpus", (double)rp->owned_gpus);
	cJSON_AddNumberToObject(o, "bought_gpus", (double)rp->bought_gpus);
	cJSON_AddNumberToObject(o, "on_order_gpus", (double)rp->on_order_gpus);
	for (q = 0; q < PRICING_COUNT; q++)
		cJSON_AddNumberToObject(rent, offer_pricing_name((enum offer_pricing)q), (double)rp->rented_gpus[q]);
	cJSON_AddItemToObject(o, "rented_gpus", rent);
	cJSON_AddNumberToObject(o, "committed_gpus", (double)rp->committed_gpus);
	cJSON_AddNumberToObject(o, "licensed_gpus", (double)rp->licensed_gpus);
	cJSON_AddNumberToObject(o, "licences_held", (double)rp->licences_held);
	for (q = 0; q < CAT_COUNT; q++)
		cJSON_AddItemToObject(cost, cost_cat_name((enum cost_cat)q), json_money(rp->cat[q]));
	cJSON_AddItemToObject(o, "cost_by_category", cost);
	cJSON_AddItemToObject(o, "cost_usd", json_money(rp->cost));
	cJSON_AddItemToObject(o, "cash_usd", json_money(rp->cash));
	cJSON_AddItemToObject(o, "discounted_cash_usd", json_money(rp->discounted_cash));
	cJSON_AddStringToObject(o, "status", rp->status ? rp->status : "empty");
	cJSON_AddItemToObject(o, "objective_usd", json_money(rp->objective));
	cJSON_AddItemToObject(o, "bound_usd", json_money(rp->bound));
	return o;
}

static cJSON *json_buy(const struct roadmap_result *r, const struct roadmap_buy *b)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "action", "buy");
	cJSON_AddStringToObject(o, "class", r->sc->inventory.classes[b->cls].name);
	cJSON_AddNumberToObject(o, "units", (double)b->units);
	cJSON_AddStringToObject(o, "order_period", LABEL(r, b->order));
	cJSON_AddStringToObject(o, "start_period", LABEL(r, b->arrive));
	cJSON_AddItemToObject(o, "capex_usd_per_node", json_money(b->capex_usd));
	cJSON_AddItemToObject(o, "upfront_usd", json_money((double)b->units * b->capex_usd));
	return o;
}

static cJSON *json_commit(const struct roadmap_result *r, const struct roadmap_commit *cm)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "action", commit_action(cm));
	if (cm->kind == RCOMMIT_RESERVE) {
		cJSON_AddStringToObject(o, "class", r->sc->inventory.classes[cm->cls].name);
		cJSON_AddStringToObject(o, "offer", cm->offer->id);
	} else {
		cJSON_AddStringToObject(o, "product", lic_product_id((enum lic_product)cm->product));
	}
	cJSON_AddStringToObject(o, "item", cm->item);
	cJSON_AddNumberToObject(o, "units", (double)cm->units);
	cJSON_AddStringToObject(o, "start_period", LABEL(r, cm->start));
	cJSON_AddStringToObject(o, "end_period", LABEL(r, cm->end));
	cJSON_AddItemToObject(o, "upfront_usd", json_money((double)cm->units * cm->upfront_usd));
	cJSON_AddItemToObject(o, "usd_per_period", json_money(cm->usd_per_period));
	cJSON_AddItemToObject(o, "total_usd", json_money(cm->total_usd));
	cJSON_AddItemToObject(o, "charged_usd", json_money(cm->charged_usd));
	return o;
}

char *report_roadmap_json(const struct roadmap_result *r)
{
	cJSON *root = cJSON_CreateObject(), *arr, *tot = cJSON_CreateObject();
	const struct scenario_roadmap *R = &r->sc->roadmap;
	size_t i;
	char *text;

	cJSON_AddStringToObject(root, "schema_version", ROADMAP_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "scenario", r->sc->name);
	cJSON_AddStringToObject(root, "period", period_kind_name(r->fc->kind));
	cJSON_AddStringToObject(root, "start", LABEL(r, r->fc->start));
	cJSON_AddNumberToObject(root, "period_count", (double)r->nperiods);
	cJSON_AddNumberToObject(root, "lead_time_periods", r->lead);
	cJSON_AddItemToObject(root, "discount_rate",
			      cJSON_CreateRaw(fmt_num_short((char[64]){ 0 }, 64, R->present ? R->discount_rate : 0, 6)));
	cJSON_AddStringToObject(root, "residual", R->present && R->residual_none ? "none" : "book");
	cJSON_AddStringToObject(tot, "status", r->gap <= r->mip_gap + 1e-12 ? "optimal" : "feasible");
	cJSON_AddItemToObject(tot, "objective_usd", json_money(r->objective));
	cJSON_AddItemToObject(tot, "bound_usd", json_money(r->bound));
	cJSON_AddItemToObject(tot, "gap", cJSON_CreateRaw(fmt_fixed((char[64]){ 0 }, 64, r->gap, 6)));
	cJSON_AddItemToObject(tot, "cost_usd", json_money(r->cost_total));
	cJSON_AddItemToObject(tot, "cash_usd", json_money(r->cash_total));
	cJSON_AddItemToObject(tot, "npv_usd", json_money(r->npv));
	cJSON_AddItemToObject(tot, "residual_book_usd", json_money(r->residual_book));
	cJSON_AddItemToObject(tot, "residual_credit_usd", json_money(r->residual_credit));
	cJSON_AddItemToObject(tot, "cloud_uncommitted_usd", json_money(r->cloud_uncommitted_usd));
	cJSON_AddItemToObject(tot, "saving_vs_on_demand_usd", json_money(r->saving_vs_on_demand));
	cJSON_AddItemToObject(root, "totals", tot);
	arr = cJSON_AddArrayToObject(root, "schedule");
	for (i = 0; i < r->nbuys; i++)
		cJSON_AddItemToArray(arr, json_buy(r, &r->buys[i]));
	arr = cJSON_AddArrayToObject(root, "commitments");
	for (i = 0; i < r->ncommits; i++)
		cJSON_AddItemToArray(arr, json_commit(r, &r->commits[i]));
	cJSON_AddStringToObject(root, "commitment_tail", R->present && R->tail_charged ? "charged" : "prorated");
	arr = cJSON_AddArrayToObject(root, "periods");
	for (i = 0; i < r->nperiods; i++)
		cJSON_AddItemToArray(arr, json_period(r, &r->per[i]));
	arr = cJSON_AddArrayToObject(root, "breakeven");
	for (i = 0; i < r->nbreakeven; i++)
		cJSON_AddItemToArray(arr, json_breakeven(r, &r->breakeven[i]));
	arr = cJSON_AddArrayToObject(root, "assumptions");
	for (i = 0; i < r->nassumptions; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(r->assumptions[i]));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

int report_roadmap_write(const char *dir, const struct roadmap_result *r, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	int rc;

	outset_init(&os, dir);
	schedule_csv(r, &os);
	periods_csv(r, &os);
	costs_csv(r, &os);
	summary_csv(r, &os);
	breakeven_csv(r, &os);
	{
		char *json = report_roadmap_json(r);
		outset_add(&os, "roadmap.json", json, strlen(json));
	}
	{
		char *html = html_roadmap_page(r);
		outset_add(&os, "report.html", html, strlen(html));
	}
	rc = outset_commit(&os, d);
	outset_release(&os);
	return rc;
}
