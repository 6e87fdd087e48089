/*
 * roadmap.c - the rolling-horizon roadmap (roadmap.h): sets the run up
 * (licence rates, lead time, the shared-out budgets), calls the period
 * loop's steps (roadmap_period.c) period by period, then prices the fleet
 * (depreciation from each node's arrival), runs the commitment and
 * licence passes, and sums up the cost, the bound and the gap.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "roadmap.h"
#include "roadmap_breakeven.h"
#include "roadmap_ctx.h"
#include "util.h"
#include "banned.h"

#define EPS 1e-9

/* ================= prices ================= */

/*
 * Per GPU-year: the period plans renew the shortest subscription every
 * year (prorated, as commitment_tail: prorated counts it); the bound
 * takes the cheapest yearly rate of any term, which no licence held for
 * a year undercuts.  When that floor is above the subscription's (a
 * licensing.cloud_term that leaves a cloud fleet only dearer terms), every
 * licence costs at least the floor, so the period plans take it too.
 */
static void licence_rates(struct rm_ctx *c)
{
	const struct licenses *L = &c->sc->licenses;
	int p, raised = 0;
	size_t t;

	for (p = 0; p < LIC_COUNT; p++) {
		const struct lic_product_def *pd = &L->product[p];
		double up = -1, lb = -1;
		int up_years = 0;
		c->lic_up[p] = c->lic_lb[p] = c->sc->licensing.usd_per_gpu_year[p];
		if (p == LIC_NONE || c->sc->licensing.usd_per_gpu_year[p] >= 0 || !pd->present)
			continue;
		for (t = 0; t < pd->nterms; t++) {
			const struct lic_term *lt = &pd->terms[t];
			double rate = lt->kind == TERM_HOURLY ? lt->usd_per_gpu_hour * HOURS_PER_YEAR
				      : lt->years > 0	     ? lt->usd_per_gpu / lt->years
							     : -1;
			if (rate < 0)
				continue;
			if (lb < 0 || rate < lb)
				lb = rate;
			if (lt->kind == TERM_SUBSCRIPTION && (up < 0 || lt->years < up_years ||
							      (lt->years == up_years && rate < up))) {
				up = rate;
				up_years = lt->years;
			}
		}
		c->lic_up[p] = up >= 0 ? up : lb;
		c->lic_lb[p] = roadmap_licence_floor(c->sc, p); /* the chosen terms, quotes and support included */
		if (c->lic_lb[p] > c->lic_up[p]) {
			c->lic_up[p] = c->lic_lb[p];
			raised = 1;
		}
	}
	c->lic_source = xstrdup(raised ? "roadmap: per period, the period plans and the bound take the cheapest yearly "
					 "rate of the licence terms licensing.cloud_term leaves the fleet"
				       : "roadmap: per period, the period plans renew the shortest subscription (prorated) "
					 "and the bound takes the cheapest yearly rate of any licence term");
}

/* One period's depreciation of a node of class nc arrived at period a, in period t. */
static double depreciation(const struct rm_ctx *c, const struct node_class *nc, size_t a, size_t t)
{
	double life = nc->amortization_years * c->r->ppy, held = (double)(t - a);
	double share = fmin(1.0, life - held);
	return share > 0 ? nc->capex_usd / life * share : 0;
}

/* Period t's capacity and depreciation from what has arrived and is on order. */
static void period_fleet(struct rm_ctx *c, size_t t)
{
	const struct inventory *inv = &c->sc->inventory;
	struct roadmap_period *rp = &c->r->per[t];
	size_t k, a;

	for (k = 0; k < c->nk; k++) {
		const struct node_class *nc = &inv->classes[k];
		if (nc->own == OWN_OWNED)
			rp->owned_gpus += nc->count * nc->gpus_per_node;
		if (nc->own != OWN_BUY)
			continue;
		for (a = 0; a <= t; a++) {
			long n = c->arrive_at[a * c->nk + k];
			rp->bought_gpus += n * nc->gpus_per_node;
			rp->cat[CAT_HARDWARE] += (double)n * depreciation(c, nc, a, t);
			if (a == t)
				rp->cash += (double)n * nc->capex_usd;
		}
		for (a = t + 1; a < c->T && a <= t + (size_t)c->r->lead; a++)
			rp->on_order_gpus += c->arrive_at[a * c->nk + k] * nc->gpus_per_node;
	}
}

/* ================= the run ================= */

static void demand_totals(const struct rm_ctx *c, size_t t, struct roadmap_period *rp)
{
	size_t w;
	for (w = 0; w < c->nw; w++) {
		long n = forecast_at(c->fc, t, w);
		rp->demand_replicas += n;
		rp->demand_gpu_equivalents += (double)n * workload_gpu_equivalents(&c->sc->workloads.w[w]);
	}
}

/* The purchases as a list, by order period then class. */
static void list_buys(struct rm_ctx *c)
{
	struct roadmap_result *r = c->r;
	size_t t, k;

	r->buys = xcalloc(c->T * c->nk + 1, sizeof(*r->buys));
	for (t = 0; t < c->T; t++)
		for (k = 0; k < c->nk; k++) {
			long n = c->arrive_at[t * c->nk + k];
			struct roadmap_buy *b = &r->buys[r->nbuys];
			if (!n)
				continue;
			b->cls = k;
			b->units = n;
			b->arrive = c->fc->start + (long)t;
			b->order = b->arrive - r->lead;
			b->capex_usd = c->sc->inventory.classes[k].capex_usd;
			r->nbuys++;
		}
}

/* Totals over the horizon: cost, cash, NPV with the residual, objective, bound and gap. */
static void totals(struct rm_ctx *c)
{
	struct roadmap_result *r = c->r;
	const struct scenario_roadmap *R = &c->sc->roadmap;
	double rate = R->present ? R->discount_rate : 0;
	size_t t, k;
	int q;

	for (t = 0; t < c->T; t++) {
		struct roadmap_period *rp = &r->per[t];
		for (q = 0; q < CAT_COUNT; q++)
			rp->cost += rp->cat[q];
		rp->cash += rp->cost - rp->cat[CAT_HARDWARE];
		rp->discounted_cash = rp->cash * pow(1 + rate, -(double)t / r->ppy);
		rp->objective += rp->cost;
		r->cost_total += rp->cost;
		r->cash_total += rp->cash;
		r->npv += rp->discounted_cash;
		r->objective += rp->objective;
		r->bound += rp->bound;
	}
	for (k = 0; k < c->nk; k++) {
		const struct node_class *nc = &c->sc->inventory.classes[k];
		for (t = 0; t < c->T && nc->own == OWN_BUY; t++) {
			double life = nc->amortization_years * r->ppy, left = life - (double)(c->T - t);
			if (left > 0)
				r->residual_book += (double)c->arrive_at[t * c->nk + k] * nc->capex_usd * left / life;
		}
	}
	if (R->present && R->residual_none) {
		r->cost_total += r->residual_book;
		r->objective += r->residual_book;
	} else {
		r->residual_credit = r->residual_book * pow(1 + rate, -(double)c->T / r->ppy);
		r->npv -= r->residual_credit;
	}
	r->gap = r->objective > EPS ? fmax(0, (r->objective - r->bound) / r->objective) : 0;
}

/* The roadmap's own assumptions, as docs/formats.md (Growth) states them. */
static void own_assumptions(struct rm_ctx *c)
{
	const struct scenario_roadmap *R = &c->sc->roadmap;
	struct roadmap_result *r = c->r;
	const char *const fixed[] = {
		"roadmap: capex is paid in the period a node arrives (invoice on delivery: assumed)",
		"roadmap: a bought node stays to the end and is depreciated straight-line over its row's amortization_years",
		"roadmap: the licence terms held are chosen over the periods after the period plans, at the rate the "
		"line on the period plans' licences gives (a licence counts GPUs: moving it to another GPU of the fleet "
		"is assumed allowed)",
		"roadmap: reservations are chosen over the rented nodes the period plans use (the plans price rent at "
		"each row's own rate and are not revisited)",
		"roadmap: a bundle's licence years run from a bought node's arrival (activation at arrival), an owned "
		"node's from the start; the GPUs a bundle still covers are taken to be the ones in use",
		"roadmap: spot interruptions are not modelled",
		NULL,
	};
	size_t i;

	for (i = 0; fixed[i]; i++) {
		r->assumptions = xrealloc(r->assumptions, (r->nassumptions + 1) * sizeof(*r->assumptions));
		r->assumptions[r->nassumptions++] = xstrdup(fixed[i]);
	}
	r->assumptions = xrealloc(r->assumptions, (r->nassumptions + 3) * sizeof(*r->assumptions));
	r->assumptions[r->nassumptions++] =
		R->present && R->lead_time_given
			? xasprintf("roadmap: lead time %s weeks, %d period%s (%s)",
				    fmt_num_short((char[64]){ 0 }, 64, R->lead_time_weeks, 2), r->lead, r->lead == 1 ? "" : "s",
				    R->source)
			: xasprintf("roadmap: lead time 12 weeks, %d period%s (default: Dell H100 servers 8-12 weeks, "
				    "docs/formats.md Growth)", r->lead, r->lead == 1 ? "" : "s");
	r->assumptions[r->nassumptions++] =
		R->present && R->residual_none ? xstrdup("roadmap: residual none: bought nodes are written off at the end")
					       : xstrdup("roadmap: residual book: each bought node is credited its book value "
							 "at the end (assumed: no resale price is sourced)");
	r->assumptions[r->nassumptions++] =
		R->present && R->discount_rate > 0
			? xasprintf("roadmap: discount rate %s a year (%s)",
				    fmt_num_short((char[64]){ 0 }, 64, R->discount_rate, 6), R->source)
			: xstrdup("roadmap: discount rate 0 (assumed: no discounting)");
}

static int compare_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The weight of every plan the run may make (budget_split): each
 * period's base load when there are buy rows, its demand for its plan,
 * and again for the relaxation when there are buy rows.
 */
static void budget_weights(struct rm_ctx *c)
{
	size_t k, t, w;

	for (k = 0; k < c->nk; k++)
		c->has_buy |= c->sc->inventory.classes[k].own == OWN_BUY;
	c->relax = c->has_buy || roadmap_commit_undercut(c->sc, c->r->ppy, c->lic_up, c->lic_lb);
	for (t = 0; t < c->T; t++) {
		if (c->has_buy) {
			rm_base_load(c, t);
			c->weight_all += rm_plan_weight(c, c->demand);
		}
		for (w = 0; w < c->nw; w++)
			c->demand[w] = forecast_at(c->fc, t, w);
		c->weight_all += (c->relax ? 2 : 1) * rm_plan_weight(c, c->demand);
	}
	c->weight_left = c->weight_all;
	c->defer = c->relax && c->nodes <= 0;
}

/* The context's arrays, the lead time and the shared-out budgets. */
static void ctx_init(struct rm_ctx *c, struct roadmap_result *r, const struct roadmap_opts *o)
{
	const struct scenario_roadmap *R = &c->sc->roadmap;
	double weeks = R->present ? R->lead_time_weeks : 12;

	c->r = r;
	c->nk = c->sc->inventory.n;
	c->nw = c->sc->workloads.n;
	c->T = c->fc->nperiods;
	c->po = o->po;
	if (c->po.time_limit_s < 0)
		c->po.time_limit_s = c->sc->time_limit_s;
	c->time_s = c->po.time_limit_s;
	c->nodes = c->po.node_limit >= 0 ? c->po.node_limit : c->sc->node_limit;
	c->dl = o->po.deadline;
	c->t0 = util_now_s();
	c->po.deadline = NULL;
	c->po.export_path = NULL;
	c->arrived = xcalloc(c->nk + 1, sizeof(long));
	c->arrive_at = xcalloc(c->T * c->nk + 1, sizeof(long));
	c->demand = xcalloc(c->nw + 1, sizeof(long));
	r->ppy = period_per_year(c->fc->kind);
	r->lead = (int)ceil(weeks / (52.0 / r->ppy) - EPS);
	r->nperiods = c->T;
	r->per = xcalloc(c->T + 1, sizeof(*r->per));
	r->saving_vs_rent = -1;
	r->mip_gap = o->po.mip_gap >= 0 ? o->po.mip_gap : c->sc->mip_gap;
	rm_usage_init(&c->use, c->T, c->nk);
	c->use.arrive_at = c->arrive_at;
	licence_rates(c);
	budget_weights(c);
}

int roadmap_run(struct roadmap_result *r, const struct scenario *sc, const struct forecast *fc,
		const struct roadmap_opts *o, struct diag *d)
{
	struct rm_ctx c;
	size_t t;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	r->sc = sc;
	r->fc = fc;
	c.sc = sc;
	c.fc = fc;
	ctx_init(&c, r, o);
	for (t = 0; t < c.T; t++) {
		r->per[t].index = fc->start + (long)t;
		demand_totals(&c, t, &r->per[t]);
		if (rm_buy_for(&c, t, d) || rm_plan_period(&c, t, d))
			goto out;
	}
	if (rm_bound_pass(&c, d))
		goto out;
	for (t = 0; t < c.T; t++)
		period_fleet(&c, t);
	if (roadmap_commit_choose(r, &c.use, d) || roadmap_licence_choose(r, &c.use, d))
		goto out;
	list_buys(&c);
	totals(&c);
	own_assumptions(&c);
	if (roadmap_breakeven(r, c.lic_up, c.lic_source, d))
		goto out;
	qsort(r->assumptions, r->nassumptions, sizeof(*r->assumptions), compare_str);
	rc = 0;
out:
	free(c.arrived);
	free(c.arrive_at);
	free(c.demand);
	free(c.lic_source);
	rm_carry_release(&c.carry);
	rm_usage_release(&c.use);
	return rc;
}

void roadmap_release(struct roadmap_result *r)
{
	size_t i;
	for (i = 0; i < r->nassumptions; i++)
		free(r->assumptions[i]);
	free(r->assumptions);
	for (i = 0; i < r->nperiods && r->per; i++)
		free(r->per[i].unplaced_prio);
	free(r->per);
	free(r->buys);
	free(r->breakeven);
	for (i = 0; i < r->ncommits; i++)
		free(r->commits[i].item);
	free(r->commits);
	memset(r, 0, sizeof(*r));
}
