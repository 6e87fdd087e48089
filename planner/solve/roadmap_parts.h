/*
 * roadmap_parts.h - what the roadmap's period loop (roadmap.c) hands to
 * the passes that run after it: the commitments over rented nodes
 * (roadmap_commit.c) and the licence terms over licensed GPUs
 * (roadmap_licence.c).  Private to solve/.
 *
 * The period plans price rent at each row's own rate and licences at one
 * flat yearly rate; these passes take the plans' usage as it is (they do
 * not move a placement or a purchase) and replace those two costs by the
 * cheapest commitments that cover the usage, period by period.
 */
#ifndef PLANNER_ROADMAP_PARTS_H
#define PLANNER_ROADMAP_PARTS_H

#include <stddef.h>

#include "diag.h"
#include "plan.h"
#include "roadmap.h"

/* Usage per period of the final plans. */
struct rm_usage {
	size_t T, nk;
	long *rent_nodes;		/* [t * nk + k]: rented nodes of inventory class k in use */
	long *lic;			/* [(t * LIC_HOST_COUNT + h) * LIC_COUNT + p]: units (GPUs, seats) of a paid licence */
	long *bundled;			/* [(t * nk + k) * LIC_COUNT + p]: units a bundle covers in the period plan */
	int *bundle_years;		/* [k * LIC_COUNT + p]: the bundle's years of class k (0: none seen) */
	const long *arrive_at;		/* [t * nk + k]: nodes of buy row k arriving in period t (the loop's) */
};

void rm_usage_init(struct rm_usage *u, size_t T, size_t nk);
void rm_usage_release(struct rm_usage *u);
/* Period t's usage from the plan pr of a derived scenario whose class i is inventory class cls_src[i]. */
void rm_usage_record(struct rm_usage *u, size_t t, const size_t *cls_src, const struct plan_result *pr);
/* Period t uses what period t - 1 used (its plan is kept). */
void rm_usage_keep(struct rm_usage *u, size_t t);
/* Units of product p under hosting h in period t. */
long rm_usage_lic(const struct rm_usage *u, size_t t, int h, int p);
/*
 * Units of product p in period t that the period plan took as covered by
 * a bundle whose years have run out (a bought node's from its arrival,
 * an owned node's from the start; the GPUs still covered taken to be the
 * ones in use), periods a year ppy.
 */
long rm_usage_bundle_expired(const struct rm_usage *u, const struct scenario *sc, size_t t, int p, int ppy);

/* Appends a commitment to r (the item string is taken over). */
void rm_commit_add(struct roadmap_result *r, const struct roadmap_commit *cm);
/*
 * Charges a commitment's cost to r's periods: per covered period in the
 * horizon its share of the whole (upfront / len + usd_per_period) into
 * cat (a cost category), and under commitment_tail: charged the part past
 * the horizon in the last period's cost (not its cash: that is paid at
 * the start or after the horizon); the cash (upfront at the start, the
 * hourly part per period) into the periods' cash as the difference from
 * the cost.  Returns what it charged.
 */
double rm_commit_charge(struct roadmap_result *r, const struct roadmap_commit *cm, int cat, size_t len);

/*
 * The cloud pass: per instance type rented (the rent rows of one
 * on-demand or spot offer's cloud, instance and region), the cheapest
 * reservations of the committed offers of that instance over the nodes
 * in use, against each row's own rate.  Fills r's commitments, the
 * periods' cloud cost and committed GPUs, and the saving.
 */
int roadmap_commit_choose(struct roadmap_result *r, const struct rm_usage *u, struct diag *d);
/*
 * Whether a commitment may cost less than the period plans charge: a rent
 * row a reservation undercuts, or a licence whose cheapest term (lb, per
 * GPU-year) is below the plans' rate (up).  Then the period plan's own
 * bound is no bound on the roadmap's period, and the relaxation is solved.
 */
int roadmap_commit_undercut(const struct scenario *sc, int ppy, const double *up, const double *lb);
/* The cheapest rate per node-hour a rent row can be had at, committed or not, periods a year ppy (for the bound). */
double roadmap_commit_floor(const struct scenario *sc, const struct node_class *nc, int ppy);

/*
 * The licence pass: per product, the cheapest licence terms held over
 * the GPUs that need a paid licence each period (subscriptions and
 * perpetual licences as commitments, the hourly marketplace per period
 * on cloud nodes only).  Fails with d set when licence_terms leaves a
 * product no term for its GPUs.
 */
int roadmap_licence_choose(struct roadmap_result *r, const struct rm_usage *u, struct diag *d);
/* The cheapest yearly rate per GPU of product p's terms with the scenario's quotes; < 0: none. */
double roadmap_licence_floor(const struct scenario *sc, int p);
/* The price of term of product p: the scenario's quote, else the table's. */
double roadmap_licence_price(const struct scenario *sc, int p, const struct lic_term *term);

#endif
