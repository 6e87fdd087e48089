/*
 * additions.c - what a plan buys or rents, and what would place what it
 * leaves unplaced: additions.csv, plan.json's `additions` and
 * `to_place_all`, and the lines the plan and compare summaries print.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "additions.h"
#include "report.h"
#include "whatif.h"
#include "banned.h"

static double cents(double v)
{
	double r = round(v * 100.0) / 100.0;
	return r == 0 ? 0 : r;
}

static const char *usd(char *buf, size_t n, double v)
{
	return fmt_fixed(buf, n, cents(v), 2);
}

/* One additions.csv row and its JSON object. */
static void addition_row(struct sb *csv, cJSON *arr, const char *kind, const struct plan_addition *a, double years)
{
	const struct node_class *nc = a->nc;
	cJSON *o = cJSON_CreateObject(), *jc = cJSON_CreateObject();
	char b[64];
	int q;

	sb_adds(csv, kind);
	sb_addn(csv, ",", 1);
	sb_add_csv(csv, nc->name);
	sb_addf(csv, ",%s,", ownership_name(nc->own));
	sb_add_csv(csv, nc->offer ? nc->offer->id : "");
	sb_addf(csv, ",%ld,%ld,%ld,%s", a->nodes, a->in_use, a->max, usd(b, sizeof(b), a->total / years));
	sb_addf(csv, ",%s", usd(b, sizeof(b), a->total));
	cJSON_AddStringToObject(o, "class", nc->name);
	cJSON_AddStringToObject(o, "ownership", ownership_name(nc->own));
	if (nc->offer)
		cJSON_AddStringToObject(o, "offer", nc->offer->id);
	else
		cJSON_AddNullToObject(o, "offer");
	cJSON_AddNumberToObject(o, "nodes", (double)a->nodes);
	cJSON_AddNumberToObject(o, "nodes_in_use", (double)a->in_use);
	cJSON_AddNumberToObject(o, "max", (double)a->max);
	cJSON_AddNumberToObject(o, "cost_per_year_usd", cents(a->total / years));
	cJSON_AddNumberToObject(o, "cost_total_usd", cents(a->total));
	for (q = 0; q < CAT_COUNT; q++) {
		sb_addf(csv, ",%s", usd(b, sizeof(b), a->cat[q]));
		cJSON_AddNumberToObject(jc, cost_cat_name((enum cost_cat)q), cents(a->cat[q]));
	}
	sb_addn(csv, "\n", 1);
	cJSON_AddItemToObject(o, "costs", jc);
	cJSON_AddItemToArray(arr, o);
}

void report_additions(struct sb *csv, cJSON *json, const struct plan_result *r)
{
	const struct plan_whatif *w = r->whatif;
	double years = r->sc->horizon_years;
	struct plan_addition *add = NULL;
	size_t n, i;
	cJSON *arr = cJSON_AddArrayToObject(json, "additions"), *o, *wa;
	char *note;
	int q;

	sb_adds(csv, "plan,class,ownership,offer,nodes,nodes_in_use,max,cost_per_year_usd,cost_total_usd");
	for (q = 0; q < CAT_COUNT; q++)
		sb_addf(csv, ",%s_usd", cost_cat_name((enum cost_cat)q));
	sb_addn(csv, "\n", 1);
	n = plan_additions(r->final, &add);
	for (i = 0; i < n; i++)
		addition_row(csv, arr, "plan", &add[i], years);
	free(add);
	note = report_whatif_text(r);
	if (!note) {
		cJSON_AddNullToObject(json, "to_place_all");
		return;
	}
	o = cJSON_AddObjectToObject(json, "to_place_all");
	cJSON_AddBoolToObject(o, "planned", w->ran);
	cJSON_AddNumberToObject(o, "replicas_unplaced", w->ran ? (double)w->unplaced : 0);
	cJSON_AddNumberToObject(o, "cost_per_year_usd", w->ran ? cents(w->total / years) : 0);
	cJSON_AddNumberToObject(o, "extra_cost_per_year_usd", w->ran ? cents((w->total - w->base_total) / years) : 0);
	wa = cJSON_AddArrayToObject(o, "additions");
	for (i = 0; w->ran && i < w->nadd; i++)
		addition_row(csv, wa, "to-place-all", &w->add[i], years);
	cJSON_AddStringToObject(o, "note", note);
	free(note);
}

char *report_addition_text(const struct plan_addition *a, double years, int more)
{
	struct sb sb;
	char b[64];
	long n = a->nodes < 0 ? -a->nodes : a->nodes;
	int q, first = 1;

	sb_init(&sb);
	if (more)
		sb_adds(&sb, a->nodes < 0 ? "drop " : "add ");
	sb_addf(&sb, "%ld %snode%s of %s (%s", n, more && a->max && a->nodes > 0 ? "more " : "", n == 1 ? "" : "s",
		a->nc->name, ownership_name(a->nc->own));
	if (!more)
		sb_addf(&sb, ", %ld of at most %ld", a->in_use, a->max);
	else if (a->max)
		sb_addf(&sb, ", %ld in all where the inventory allows %ld", a->in_use, a->max);
	else
		sb_addf(&sb, " at site %s, a cloud offer of the models", a->nc->site);
	sb_addf(&sb, "): %s USD/year (", usd(b, sizeof(b), a->total / years));
	for (q = 0; q < CAT_COUNT; q++) {
		if (cents(a->cat[q]) == 0)
			continue;
		sb_addf(&sb, "%s%s %s", first ? "" : ", ", cost_cat_name((enum cost_cat)q),
			usd(b, sizeof(b), a->cat[q] / years));
		first = 0;
	}
	sb_adds(&sb, first ? "nothing)" : ")");
	return sb_detach(&sb);
}

char *report_whatif_text(const struct plan_result *r)
{
	const struct plan_whatif *w = r->whatif;
	double years = r->sc->horizon_years;
	struct cplan_cost c;
	struct sb sb;
	char b[64];
	size_t i;

	if (!w)
		return NULL;
	cplan_cost(r->final, &c);
	if (!c.unplaced)
		return NULL;
	sb_init(&sb);
	if (!w->ran) {
		sb_adds(&sb, "nothing to add would place them: no buy or rent row and no cloud offer of the models "
			     "fits them (the models price no GPU to buy: add a buy row with your quote)");
		return sb_detach(&sb);
	}
	if (w->nadd) {
		for (i = 0; i < w->nadd; i++) {
			char *t = report_addition_text(&w->add[i], years, 1);
			sb_addf(&sb, "%s%s", i ? (i + 1 == w->nadd ? " and " : ", ") : "", t);
			free(t);
		}
		sb_adds(&sb, ":");
	} else {
		sb_adds(&sb, "re-planning with more to add");
	}
	if (w->unplaced) {
		const struct cplan *cp = w->r.final;
		const char *sep = " (";
		sb_addf(&sb, " still leaves %ld replica%s unplaced", w->unplaced, w->unplaced == 1 ? "" : "s");
		for (i = 0; i < cp->p->ndemands; i++) {
			if (!cp->unplaced[i])
				continue;
			sb_addf(&sb, "%s%s %ld", sep, cp->p->demands[i].w->name, cp->unplaced[i]);
			sep = ", ";
		}
		sb_adds(&sb, ")");
	} else {
		sb_adds(&sb, " places every replica");
	}
	sb_addf(&sb, ", at %s USD/year in all", usd(b, sizeof(b), w->total / years));
	sb_addf(&sb, " (%s USD/year %s than this plan)", usd(b, sizeof(b), fabs(w->total - w->base_total) / years),
		w->total >= w->base_total ? "more" : "less");
	for (i = 0; i < w->nadd && (w->add[i].nc->own != OWN_BUY || w->add[i].nodes < 0); i++)
		;
	if (i == w->nadd)
		sb_adds(&sb, "; the models price no GPU to buy: add a buy row with your quote to weigh buying");
	return sb_detach(&sb);
}
