/*
 * roadmap_period.c - one period of the rolling-horizon roadmap
 * (roadmap_ctx.h): the purchase plan for the base load, the period's
 * plan on what is owned, arrived and rentable, and the relaxation whose
 * proven bound the gap is measured against.
 *
 * Each plan is an ordinary plan_run of a scenario derived from the
 * loaded one: a copy that shares its strings and tables, with its own
 * node classes (the buy rows split into nodes already arrived, whose
 * capex is sunk, and new ones), its own workloads (the period's
 * replicas; workloads asking none left out) and one period as horizon.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "roadmap_bound.h"
#include "ilp.h"
#include "roadmap_ctx.h"
#include "util.h"
#include "banned.h"

#define EPS 1e-9

/* The three plans of a period. */
enum ps_kind { PS_BUY, PS_PERIOD, PS_BOUND };
/* What a class of a derived scenario stands for. */
enum ps_role { ROLE_AS_IS, ROLE_ARRIVED, ROLE_NEW };

/* A derived scenario and where its classes and workloads come from. */
struct pscen {
	struct scenario s;
	size_t *cls_src;	/* inventory class of each class */
	int *cls_role;		/* enum ps_role */
	size_t *w_src;		/* workload of each workload */
};
/* ================= derived scenarios ================= */

static void pscen_release(struct pscen *ps)
{
	free(ps->s.inventory.classes);
	free(ps->s.workloads.w);
	free(ps->cls_src);
	free(ps->cls_role);
	free(ps->w_src);
	memset(ps, 0, sizeof(*ps));
}

static void add_class(struct pscen *ps, size_t k, const struct node_class *nc, int role)
{
	size_t n = ps->s.inventory.n++;
	ps->s.inventory.classes[n] = *nc;
	ps->cls_src[n] = k;
	ps->cls_role[n] = role;
}

/* Whether a node of a buy row may arrive in period t: ordered lead periods before, before the start only if allowed. */
static int can_arrive(const struct rm_ctx *c, size_t t)
{
	return (long)t >= c->r->lead || c->sc->roadmap.buy_before_start || !c->sc->roadmap.present;
}

/* The classes of kind's scenario for period t. */
static void pscen_classes(const struct rm_ctx *c, enum ps_kind kind, size_t t, struct pscen *ps)
{
	const struct inventory *inv = &c->sc->inventory;
	double years = (double)c->T / c->r->ppy;
	size_t k;

	ps->s.inventory.classes = xcalloc(2 * inv->n + 1, sizeof(struct node_class));
	ps->cls_src = xcalloc(2 * inv->n + 1, sizeof(size_t));
	ps->cls_role = xcalloc(2 * inv->n + 1, sizeof(int));
	ps->s.inventory.n = 0;
	for (k = 0; k < inv->n; k++) {
		struct node_class nc = inv->classes[k];
		if (nc.own != OWN_BUY) {
			if (kind == PS_BOUND) /* a reservation may cover the node: its cheapest rate */
				nc.hourly_usd = roadmap_commit_floor(c->sc, &nc, c->r->ppy);
			add_class(ps, k, &nc, ROLE_AS_IS);
		} else if (kind == PS_BOUND) {
			if (years > nc.amortization_years + EPS)
				nc.capex_usd = 0; /* past its life a node costs nothing: the bound must not charge it */
			add_class(ps, k, &nc, ROLE_NEW);
		} else {
			long left = nc.count - c->arrived[k];
			if (c->arrived[k] > 0) {
				struct node_class own = nc;
				own.count = c->arrived[k];
				own.capex_usd = 0;
				add_class(ps, k, &own, ROLE_ARRIVED);
			}
			if (left > 0 && can_arrive(c, t)) {
				nc.count = left;
				if (kind == PS_PERIOD) /* held to the end: all its depreciation left, in this period */
					nc.capex_usd *= fmin((double)(c->T - t), nc.amortization_years * c->r->ppy);
				add_class(ps, k, &nc, ROLE_NEW);
			}
		}
	}
}

/* kind's scenario for period t with demand c->demand. */
static void pscen_build(const struct rm_ctx *c, enum ps_kind kind, size_t t, struct pscen *ps)
{
	const struct workloads *wl = &c->sc->workloads;
	const double *lic = kind == PS_BOUND ? c->lic_lb : c->lic_up;
	size_t w;
	int p;

	memset(ps, 0, sizeof(*ps));
	ps->s = *c->sc;
	ps->s.horizon_years = 1.0 / c->r->ppy;
	for (p = 0; p < LIC_COUNT; p++)
		ps->s.licensing.usd_per_gpu_year[p] = lic[p];
	if (!c->sc->licensing.source)
		ps->s.licensing.source = c->lic_source;
	pscen_classes(c, kind, t, ps);
	ps->s.workloads.w = xcalloc(wl->n + 1, sizeof(struct workload));
	ps->w_src = xcalloc(wl->n + 1, sizeof(size_t));
	ps->s.workloads.n = 0;
	for (w = 0; w < wl->n; w++) {
		if (c->demand[w] <= 0)
			continue;
		ps->s.workloads.w[ps->s.workloads.n] = wl->w[w];
		ps->s.workloads.w[ps->s.workloads.n].replicas = c->demand[w];
		ps->w_src[ps->s.workloads.n++] = w;
	}
}

/* ================= one period ================= */

/* Nodes of the final plan per derived class into used (size ps classes). */
static void nodes_used(const struct plan_result *pr, long *used)
{
	size_t i;
	for (i = 0; i < pr->final->nnodes; i++)
		used[pr->p.classes[pr->final->nodes[i].k].index]++;
}

/* A plan's weight in the shared budgets: the replicas it places, plus one. */
double rm_plan_weight(const struct rm_ctx *c, const long *demand)
{
	double w = 1;
	size_t i;
	for (i = 0; i < c->nw; i++)
		w += (double)demand[i];
	return w;
}

/*
 * The options of the next plan, of weight w: its share of the time left
 * (by weight among the plans not run yet, so time one plan leaves
 * unspent goes to the later ones) and of the node limit (by weight among
 * all plans: a fixed share, so the run is the same on any machine, at
 * least one node).  The greedy pass runs whole whatever the share.
 */
static void budget_split(struct rm_ctx *c, double w, struct plan_opts *po)
{
	double spent = c->dl ? deadline_elapsed(c->dl) : util_now_s() - c->t0;

	*po = c->po;
	po->greedy_whole = 1;
	po->time_limit_s = c->weight_left > 0 ? fmax(0, c->time_s - spent) * fmin(1, w / c->weight_left) : 0;
	if (c->defer && po->time_limit_s < c->need_s)
		po->time_limit_s = 0; /* too short to reach the LP: the time goes on (budget_learn) */
	c->weight_left = fmax(0, c->weight_left - w);
	if (c->nodes > 0)
		po->node_limit = (long)fmax(1, floor((double)c->nodes * w / c->weight_all));
}

/*
 * What plan pr, run with po's share, says of the share a plan needs to
 * reach its LP: no more than it had when it reached it (a proven bound,
 * or a solve the clock did not cut), more when the clock cut it first.
 * Used where the bounds are the deferred relaxations' (c->defer): there
 * a period plan's solve is for its plan alone, and a share too short to
 * reach the LP leaves the greedy plan, so budget_split gives that time
 * to the later plans and the bound pass instead.
 */
static void budget_learn(struct rm_ctx *c, const struct plan_opts *po, const struct plan_result *pr)
{
	double share = po->time_limit_s;

	if (!c->defer || po->greedy_only || share <= 0 || pr->res.status == ILP_SKIPPED)
		return;
	if (pr->bound > 0 || !pr->res.cut)
		c->need_s = c->need_s > 0 ? fmin(c->need_s, share) : 0;
	else
		c->need_s = fmax(c->need_s, 1.5 * share);
}

/*
 * Plans ps into pr, from c->seed when set; 0, or -1 with d set.  A
 * scenario with no demand is not planned (*planned 0).  greedy: its
 * greedy pass only, no share of the budgets spent (a relaxation the bound
 * pass solves, c->defer).
 */
static int plan_pscen(struct rm_ctx *c, const struct pscen *ps, struct plan_result *pr, int *planned, int greedy,
		      struct diag *d)
{
	struct plan_opts po;

	*planned = 0;
	memset(pr, 0, sizeof(*pr));
	if (!ps->s.workloads.n)
		return 0;
	if (greedy) {
		po = c->po;
		po.greedy_whole = 1;
		po.greedy_only = 1;
	} else {
		budget_split(c, rm_plan_weight(c, c->demand), &po);
	}
	if (c->seed) {
		po.seed = rm_seed_plan;
		po.seed_ctx = c->seed;
	}
	if (plan_run(pr, &ps->s, &po, d)) {
		plan_release(pr);
		return -1;
	}
	budget_learn(c, &po, pr);
	*planned = 1;
	return 0;
}

/* Keeps the plan's assumptions (unique, "what (source)"). */
static void keep_assumptions(struct rm_ctx *c, const struct pricing *pr)
{
	struct roadmap_result *r = c->r;
	size_t i, j;

	for (i = 0; i < pr->nassumptions; i++) {
		char *s = xasprintf("%s (%s)", pr->assumptions[i].what, pr->assumptions[i].source);
		for (j = 0; j < r->nassumptions && strcmp(r->assumptions[j], s); j++)
			;
		if (j < r->nassumptions) {
			free(s);
			continue;
		}
		r->assumptions = xrealloc(r->assumptions, (r->nassumptions + 1) * sizeof(*r->assumptions));
		r->assumptions[r->nassumptions++] = s;
	}
}

/* The new nodes pr uses arrive in period t. */
static void arrivals(struct rm_ctx *c, const struct pscen *ps, const struct plan_result *pr, size_t t)
{
	long *used = xcalloc(ps->s.inventory.n + 1, sizeof(*used));
	size_t k;

	nodes_used(pr, used);
	for (k = 0; k < ps->s.inventory.n; k++) {
		if (ps->cls_role[k] != ROLE_NEW || !used[k])
			continue;
		c->arrive_at[t * c->nk + ps->cls_src[k]] += used[k];
		c->arrived[ps->cls_src[k]] += used[k];
	}
	free(used);
}

/* The base load of period t (each workload's least demand from t on) into c->demand. */
void rm_base_load(struct rm_ctx *c, size_t t)
{
	size_t w, s;

	for (w = 0; w < c->nw; w++) {
		c->demand[w] = forecast_at(c->fc, t, w);
		for (s = t + 1; s < c->T; s++)
			if (forecast_at(c->fc, s, w) < c->demand[w])
				c->demand[w] = forecast_at(c->fc, s, w);
	}
}

/* Whether a node of a buy row can still arrive in period t. */
static int can_buy(const struct rm_ctx *c, size_t t)
{
	size_t k;

	for (k = 0; k < c->nk && can_arrive(c, t); k++)
		if (c->sc->inventory.classes[k].own == OWN_BUY && c->sc->inventory.classes[k].count > c->arrived[k])
			return 1;
	return 0;
}

/*
 * The purchases for arrival in period t: the base load's plan; the new
 * nodes it uses are ordered.  Not planned when no node can be bought (it
 * would order nothing).
 */
int rm_buy_for(struct rm_ctx *c, size_t t, struct diag *d)
{
	struct pscen ps;
	struct plan_result pr;
	int planned;

	rm_base_load(c, t);
	if (!can_buy(c, t)) {
		if (c->has_buy)
			c->weight_left = fmax(0, c->weight_left - rm_plan_weight(c, c->demand));
		return 0;
	}
	pscen_build(c, PS_BUY, t, &ps);
	if (plan_pscen(c, &ps, &pr, &planned, 0, d)) {
		pscen_release(&ps);
		return -1;
	}
	if (planned) {
		arrivals(c, &ps, &pr, t);
		plan_release(&pr);
	}
	pscen_release(&ps);
	return 0;
}

/* The replicas pr leaves unplaced, by priority (highest first), into rp. */
static void unplaced_by_priority(const struct plan_result *pr, struct roadmap_period *rp)
{
	size_t i, j;

	free(rp->unplaced_prio);
	rp->unplaced_prio = NULL;
	rp->nunplaced_prio = 0;
	for (i = 0; i < pr->p.ndemands; i++) {
		long un = pr->final->unplaced[i];
		int prio = pr->p.demands[i].w->priority;
		if (!un)
			continue;
		for (j = 0; j < rp->nunplaced_prio && rp->unplaced_prio[j].priority > prio; j++)
			;
		if (j == rp->nunplaced_prio || rp->unplaced_prio[j].priority != prio) {
			rp->unplaced_prio = xrealloc(rp->unplaced_prio, (rp->nunplaced_prio + 1) * sizeof(*rp->unplaced_prio));
			memmove(&rp->unplaced_prio[j + 1], &rp->unplaced_prio[j],
				(rp->nunplaced_prio - j) * sizeof(*rp->unplaced_prio));
			rp->unplaced_prio[j] = (struct roadmap_unplaced){ prio, 0 };
			rp->nunplaced_prio++;
		}
		rp->unplaced_prio[j].replicas += un;
	}
}

/* The period plan's figures into rp (costs before depreciation). */
static void period_figures(const struct plan_result *pr, struct roadmap_period *rp, double *x)
{
	struct cplan_cost cc;
	size_t i;
	int q;

	cplan_cost(pr->final, &cc);
	for (q = 0; q < CAT_COUNT; q++)
		if (q != CAT_HARDWARE) /* depreciation is counted per node from its arrival (period_fleet) */
			rp->cat[q] += cc.cat[q];
	rp->placed = cc.placed;
	rp->unplaced = cc.unplaced;
	unplaced_by_priority(pr, rp);
	rp->licensed_gpus = cc.gpus_licensed;
	rp->status = ilp_status_name(pr->status);
	for (i = 0; i < pr->final->nnodes; i++) {
		const struct pclass *pc = &pr->p.classes[pr->final->nodes[i].k];
		const struct node_class *nc = pc->nc;
		if (nc->own == OWN_RENT)
			rp->rented_gpus[nc->offer ? nc->offer->pricing : PRICING_ON_DEMAND] += nc->gpus_per_node;
		else
			rp->used_owned_gpus += nc->gpus_per_node;
	}
	*x = (double)(cc.nodes + cc.gpus_active); /* what the tie-break counts (cplan_bill.c) */
}

/*
 * The bound's problem: its bound into rp (the larger of its plan's proven
 * bound and its capacity bound, roadmap_bound.h), and the roadmap's
 * period priced by its penalties and tie-break.
 */
static void bound_figures(const struct plan_result *bp, const struct plan_result *pp, double x,
			  struct roadmap_period *rp)
{
	size_t i, j;
	double pen = 0;

	for (i = 0; pp && i < pp->p.ndemands; i++) {
		long un = pp->final->unplaced[i];
		if (!un)
			continue;
		for (j = 0; j < bp->p.ndemands && bp->p.demands[j].index != pp->p.demands[i].index; j++)
			;
		pen += (double)un * (j < bp->p.ndemands ? bp->p.demands[j].penalty : 0);
	}
	rp->bound = fmax(0, fmax(bp->bound, rm_capacity_bound(&bp->p)));
	rp->objective = x * bp->p.tiebreak + pen;
}

/*
 * Whether period t may keep period t - 1's plan and bound: the same
 * demand, and no node arrives for it.  That plan is still a plan of t
 * (every node it uses is there, the new ones arrived, their capex sunk);
 * the relaxation of t is the relaxation of t - 1 (it does not depend on
 * the period), and so is the period's problem without buy rows.
 */
static int same_as_before(const struct rm_ctx *c, size_t t)
{
	size_t w, k;

	if (t == 0)
		return 0;
	for (w = 0; w < c->nw; w++)
		if (forecast_at(c->fc, t, w) != forecast_at(c->fc, t - 1, w))
			return 0;
	for (k = 0; k < c->nk; k++)
		if (c->arrive_at[t * c->nk + k])
			return 0;
	return 1;
}

/* Period t keeps period t - 1's figures (same_as_before); its plans' weights are spent. */
static void keep_before(struct rm_ctx *c, size_t t)
{
	struct roadmap_period *rp = &c->r->per[t];
	const struct roadmap_period *prev = &c->r->per[t - 1];
	int q, f;

	rp->placed = prev->placed;
	rp->unplaced = prev->unplaced;
	free(rp->unplaced_prio);
	rp->nunplaced_prio = prev->nunplaced_prio;
	rp->unplaced_prio = xcalloc(prev->nunplaced_prio + 1, sizeof(*rp->unplaced_prio));
	if (prev->nunplaced_prio)
		memcpy(rp->unplaced_prio, prev->unplaced_prio, prev->nunplaced_prio * sizeof(*rp->unplaced_prio));
	rp->licensed_gpus = prev->licensed_gpus;
	rp->used_owned_gpus = prev->used_owned_gpus;
	for (f = 0; f < PRICING_COUNT; f++)
		rp->rented_gpus[f] = prev->rented_gpus[f];
	for (q = 0; q < CAT_COUNT; q++)
		if (q != CAT_HARDWARE)
			rp->cat[q] = prev->cat[q];
	rp->objective = prev->objective;
	rp->bound = prev->bound;
	rp->status = prev->status;
	rm_usage_keep(&c->use, t);
	c->weight_left = fmax(0, c->weight_left - (c->relax ? 2 : 1) * rm_plan_weight(c, c->demand));
}

/*
 * Period t's plan starts from the last period plan (roadmap_warm.h):
 * its nodes go to the classes of ps that are not new nodes of a buy row
 * (cls_carry, caller frees).
 */
static void warm_seed(struct rm_ctx *c, const struct pscen *ps, struct rm_seed *sd, unsigned char **cls_carry)
{
	size_t k;

	*cls_carry = xcalloc(ps->s.inventory.n + 1, 1);
	for (k = 0; k < ps->s.inventory.n; k++)
		(*cls_carry)[k] = ps->cls_role[k] != ROLE_NEW;
	sd->cy = &c->carry;
	sd->nsrc_cls = c->nk;
	sd->nsrc_w = c->nw;
	sd->cls_src = ps->cls_src;
	sd->cls_carry = *cls_carry;
	sd->w_src = ps->w_src;
	c->seed = c->carry.nnodes ? sd : NULL;
}

/* The period plan pr (of ps) is the next period plan's start. */
static void warm_keep(struct rm_ctx *c, const struct pscen *ps, const struct plan_result *pr)
{
	rm_carry_release(&c->carry);
	rm_carry_take(&c->carry, pr->final, ps->cls_src, ps->w_src);
}

/*
 * Period t: the plan of its demand and the relaxation's bound.  Without
 * buy rows every roadmap's period t is a plan of the period's problem at
 * the very cost the roadmap charges, so that plan's own proven bound is
 * the bound and no relaxation is solved.
 */
int rm_plan_period(struct rm_ctx *c, size_t t, struct diag *d)
{
	struct roadmap_period *rp = &c->r->per[t];
	struct pscen ps, bs;
	struct plan_result pr, br;
	struct rm_seed sd;
	unsigned char *cls_carry;
	int planned = 0, bplanned = 0, rc = -1;
	double x = 0;
	size_t w;

	for (w = 0; w < c->nw; w++)
		c->demand[w] = forecast_at(c->fc, t, w);
	if (same_as_before(c, t)) {
		keep_before(c, t);
		return 0;
	}
	pscen_build(c, PS_PERIOD, t, &ps);
	pscen_build(c, PS_BOUND, t, &bs);
	warm_seed(c, &ps, &sd, &cls_carry);
	rc = plan_pscen(c, &ps, &pr, &planned, 0, d);
	c->seed = NULL;
	free(cls_carry);
	if (rc || (c->relax && plan_pscen(c, &bs, &br, &bplanned, c->defer, d))) {
		rc = -1;
		goto out;
	}
	rp->status = "empty";
	if (planned) {
		period_figures(&pr, rp, &x);
		rm_usage_record(&c->use, t, ps.cls_src, &pr);
		keep_assumptions(c, &pr.pr);
		arrivals(c, &ps, &pr, t);
		warm_keep(c, &ps, &pr);
	}
	if (bplanned)
		bound_figures(&br, planned ? &pr : NULL, x, rp);
	else if (planned && !c->relax)
		bound_figures(&pr, &pr, x, rp);
	rc = 0;
out:
	if (planned)
		plan_release(&pr);
	if (bplanned)
		plan_release(&br);
	pscen_release(&ps);
	pscen_release(&bs);
	return rc;
}


/* ================= the bound pass ================= */

/* Whether periods s and t ask the same demand (then their bound problems are one). */
static int same_demand(const struct rm_ctx *c, size_t s, size_t t)
{
	size_t w;
	for (w = 0; w < c->nw; w++)
		if (forecast_at(c->fc, s, w) != forecast_at(c->fc, t, w))
			return 0;
	return 1;
}

/*
 * The root LP bound of scenario s's problem (ilp_lp_bound: no rounding,
 * no search, no plan made concrete) within `share` seconds from now,
 * its pricing and model included.  Returns 1 with *b, 0 when the clock
 * stopped the LP first (no bound), -1 with d set.
 */
static int lp_bound_of(const struct scenario *s, const struct plan_opts *po, double share, double *b,
		       struct diag *d)
{
	struct pricing pr;
	struct problem p;
	struct ilp_opts io;
	double t0 = util_now_s();
	int rc;

	*b = 0;
	if (pricing_build(&pr, s, d)) {
		pricing_release(&pr);
		return -1;
	}
	if (problem_build(&p, s, &pr, d)) {
		pricing_release(&pr);
		return -1;
	}
	memset(&io, 0, sizeof(io));
	io.time_limit_s = fmax(0, share - (util_now_s() - t0));
	io.verbose = po->verbose;
	rc = io.time_limit_s > 0 ? ilp_lp_bound(&p, &io, b, d) : 0;
	problem_release(&p);
	pricing_release(&pr);
	return rc;
}

/*
 * Period t's bound problem solved with `share` seconds, its LP alone
 * (lp_only: lp_bound_of) or whole (plan_run: its search may prove more
 * than the LP, the optimum on a small problem): its proven bound raises
 * the bound of every period of the same demand (done[] marks them).
 */
static int bound_solve(struct rm_ctx *c, size_t t, double share, int lp_only, unsigned char *done, struct diag *d)
{
	struct pscen bs;
	struct plan_result br;
	struct plan_opts po = c->po;
	double b = 0;
	size_t s, w;
	int rc = 0, got = 0;

	for (w = 0; w < c->nw; w++)
		c->demand[w] = forecast_at(c->fc, t, w);
	pscen_build(c, c->relax ? PS_BOUND : PS_PERIOD, t, &bs);
	po.greedy_whole = 1;
	po.time_limit_s = share;
	memset(&br, 0, sizeof(br));
	if (bs.s.workloads.n && lp_only) {
		rc = lp_bound_of(&bs.s, &c->po, share, &b, d);
		got = rc == 1;
	} else if (bs.s.workloads.n) {
		rc = plan_run(&br, &bs.s, &po, d);
		got = rc == 0;
		b = br.bound;
		plan_release(&br);
	}
	for (s = 0; got && s < c->T; s++)
		if (!done[s] && same_demand(c, s, t)) {
			c->r->per[s].bound = fmax(c->r->per[s].bound, fmax(0, b));
			done[s] = 1;
		}
	pscen_release(&bs);
	return rc < 0 ? -1 : 0;
}

/*
 * The periods' bound problems (the relaxation R_t, or without one the
 * period's own problem, which then is the same for every roadmap) solved
 * again with the time the periods left, the latest period first: its
 * demand is the largest under growth and its penalties the most at stake.
 * Each takes half the time left (the last one all of it): a share too
 * short to reach the LP proves nothing, so the shares fall from the
 * latest period back rather than split evenly.  Two rounds: the LPs
 * alone first (no rounding, no plan: many periods get one in the time a
 * whole solve takes), then, in the time they leave, the whole solves
 * (whose search proves more than the LP, a small problem's optimum).
 * Each proven bound only
 * raises the period's (the larger of two lower bounds on one optimum), so
 * the pass changes no plan and no objective.  Under a node limit there is
 * no pass: the in-loop solves had their fixed shares.
 */
int rm_bound_pass(struct rm_ctx *c, struct diag *d)
{
	unsigned char *done;
	size_t t, s;
	int rc = 0, lp_only;

	if (c->nodes > 0 || !c->T)
		return 0;
	done = xcalloc(c->T + 1, 1);
	for (lp_only = 1; lp_only >= 0 && rc == 0; lp_only--) {
		memset(done, 0, c->T);
		for (t = c->T; t-- > 0 && rc == 0;) {
			double spent = c->dl ? deadline_elapsed(c->dl) : util_now_s() - c->t0;
			double left = c->time_s - spent;
			int more = 0;
			if (left <= 0)
				break;
			if (done[t])
				continue;
			for (s = 0; s < t && !more; s++)
				more = !done[s] && !same_demand(c, s, t);
			rc = bound_solve(c, t, more ? left / 2 : left, lp_only, done, d);
		}
	}
	free(done);
	return rc;
}
