/*
 * roadmap_ctx.h - the state of one roadmap run (roadmap.c) and the
 * period loop's steps (roadmap_period.c) that roadmap_run calls in
 * order.  Private to solve/.
 *
 * roadmap.c sets the run up, calls the steps period by period, then
 * prices the fleet and sums up; roadmap_period.c builds each period's
 * derived scenarios, runs their plans and records their figures.  The
 * steps call nothing of roadmap.c.
 */
#ifndef PLANNER_SOLVE_ROADMAP_CTX_H
#define PLANNER_SOLVE_ROADMAP_CTX_H

#include <stddef.h>

#include "diag.h"
#include "forecast.h"
#include "plan.h"
#include "roadmap.h"
#include "roadmap_parts.h"
#include "roadmap_warm.h"
#include "scenario.h"

struct rm_ctx {
	const struct scenario *sc;
	const struct forecast *fc;
	struct roadmap_result *r;
	struct plan_opts po;	/* each plan's */
	size_t nk, nw, T;
	long *arrived;		/* per class: nodes arrived so far */
	long *arrive_at;	/* [t * nk + k]: nodes arriving in period t */
	double lic_up[LIC_COUNT], lic_lb[LIC_COUNT];	/* licence price per GPU-year; < 0: the scenario's */
	char *lic_source;
	long *demand;		/* this plan's demand per workload */
	int has_buy;		/* the inventory has a buy row */
	int relax;		/* the bound needs the relaxation: buy rows, or a rate a commitment undercuts */
	int defer;		/* the relaxations are solved in the bound pass (a time limit, no node limit) */
	/*
	 * The shared-out budgets (budget_split): the run's time limit from
	 * t0, the weight of the plans not run yet; the node limit in all and
	 * the weight of all plans.
	 */
	double time_s, t0, weight_left, weight_all;
	/*
	 * The share a plan needs to reach its LP, as the plans run so far
	 * show it (budget_learn); 0: not known, no solve is skipped.
	 */
	double need_s;
	long nodes;
	const struct deadline *dl;	/* the run's, or NULL: from t0 */
	struct rm_carry carry;		/* the last period plan (roadmap_warm.h) */
	struct rm_seed *seed;		/* the next plan's warm start, or NULL */
	struct rm_usage use;		/* the period plans' rent and licences, for the commitment passes */
};

/* A plan's weight in the shared budgets: the replicas it places, plus one. */
double rm_plan_weight(const struct rm_ctx *c, const long *demand);
/* The base load of period t (each workload's least demand from t on) into c->demand. */
void rm_base_load(struct rm_ctx *c, size_t t);
/*
 * The purchases for arrival in period t: the base load's plan; the new
 * nodes it uses are ordered.  0, or -1 with d set.
 */
int rm_buy_for(struct rm_ctx *c, size_t t, struct diag *d);
/* Period t: the plan of its demand and its bound.  0, or -1 with d set. */
int rm_plan_period(struct rm_ctx *c, size_t t, struct diag *d);
/*
 * Under a time limit, after the periods: the time left spent on the
 * periods' bounds, the latest first (roadmap_period.c).  0, or -1 with d set.
 */
int rm_bound_pass(struct rm_ctx *c, struct diag *d);

#endif
