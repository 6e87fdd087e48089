/*
 * roadmap.h - a multi-period plan: per period of a forecast, which nodes
 * to buy (arriving after the lead time, kept to the end), what to rent,
 * and what it costs, with a proven lower bound on the total
 * (docs/formulation.md, "Roadmap").
 *
 * The first version plans period by period (a rolling horizon):
 *
 *  - purchases: for the period a purchase would arrive in, the base load
 *    (each workload's smallest demand from that period to the end) is
 *    planned with the nodes already bought (their capex sunk), new
 *    nodes of the buy rows priced at one period's depreciation, and the
 *    rent rows; the buy rows' nodes that plan uses are ordered lead-time
 *    periods earlier.  A node bought for the base load is in use every
 *    period left, so one period's depreciation is its true cost per
 *    period (residual: book).
 *  - the period's plan: the period's whole demand on the owned rows, the
 *    nodes arrived so far and the rent rows (nothing new is bought).
 *  - the bound: per period, the relaxation that may buy any node of a
 *    buy row for that period alone at one period's depreciation, with no
 *    lead time and licences at their cheapest yearly rate; any roadmap's
 *    period is a plan of it, so the sum of its proven bounds is a lower
 *    bound on the roadmap's cost.  Each period's is the larger of the
 *    plan's proven bound and the capacity bound (roadmap_bound.h), which
 *    needs no LP.
 *
 * Nothing here prints.  Ownership: the result owns its arrays and the
 * assumptions' strings; it points into the scenario and the forecast,
 * which must outlive it.
 */
#ifndef PLANNER_ROADMAP_H
#define PLANNER_ROADMAP_H

#include <stddef.h>

#include "diag.h"
#include "forecast.h"
#include "plan.h"
#include "pricing.h"
#include "scenario.h"

struct roadmap_opts {
	struct plan_opts po;	/* each period's plans: time_limit_s is the whole run's, shared out */
};

/* Replicas of one priority a period leaves unplaced. */
struct roadmap_unplaced {
	int priority;
	long replicas;
};

/* One period. */
struct roadmap_period {
	long index;			/* the period (period.h) */
	long demand_replicas, placed, unplaced;
	size_t nunplaced_prio;
	struct roadmap_unplaced *unplaced_prio;	/* the unplaced by priority, highest first, none of 0 replicas */
	double demand_gpu_equivalents;
	long owned_gpus;		/* GPUs of the owned rows */
	long bought_gpus;		/* GPUs bought and arrived so far */
	long on_order_gpus;		/* ordered, not yet arrived */
	long rented_gpus[PRICING_COUNT]; /* by the rent offer's pricing (on-demand without an offer) */
	long used_owned_gpus;		/* GPUs of owned and bought nodes in use */
	long licensed_gpus;
	long committed_gpus;		/* GPUs of rented nodes in use that a reservation or block covers */
	long licences_held;		/* licence units (GPUs, seats) the chosen terms cover */
	double cat[CAT_COUNT];		/* cost by category; hardware is depreciation */
	double cost;			/* sum of cat */
	double cash;			/* capex of the arrivals + everything but depreciation */
	double discounted_cash;
	double objective;		/* cost + the bound problem's penalties of the unplaced */
	double bound;			/* proven lower bound on any roadmap's objective in this period */
	const char *status;		/* of the period's plan: "optimal", "feasible", ... */
};

/* One purchase: units nodes of a buy row ordered in one period. */
struct roadmap_buy {
	size_t cls;			/* inventory class */
	long units;
	long order;			/* period index of the order (may be before the start) */
	long arrive;			/* period index of the arrival */
	double capex_usd;		/* per node */
};

/*
 * One commitment the roadmap takes besides purchases: a reservation of a
 * committed cloud offer (reserved, savings plan, or a capacity block:
 * offer->pricing says which) for a rent row's nodes, or a licence term.
 */
enum roadmap_commit_kind { RCOMMIT_RESERVE, RCOMMIT_LICENCE };
struct roadmap_commit {
	enum roadmap_commit_kind kind;
	size_t cls;			/* reserve: the rent row whose nodes it covers (inventory class) */
	const struct cloud_offer *offer; /* reserve: the committed offer */
	int product;			/* licence: enum lic_product */
	const struct lic_term *term;	/* licence */
	char *item;			/* "reserved-3y", "nvaie subscription-3y" (owned) */
	long units;			/* nodes, or licence units */
	long start, end;		/* period indexes: first and last covered (end may be past the horizon) */
	double upfront_usd;		/* per unit, paid at the start */
	double usd_per_period;		/* per unit and period of the term, besides the upfront */
	double total_usd;		/* all units, the whole term */
	double charged_usd;		/* all units, what the roadmap counts (commitment_tail) */
};

/*
 * Where buying beats renting, per buy row and rent row of one GPU type:
 * a bought GPU costs its depreciation every period and its energy and
 * hypervisor share when in use; a rented one its rent when in use.
 * Buying is cheaper when a GPU is in use more than share of the periods.
 * Licences are left out (both pay one where the mode needs it).
 */
struct roadmap_breakeven {
	size_t buy, rent;		/* inventory classes */
	double buy_fixed;		/* per GPU-period, in use or not: depreciation */
	double buy_in_use;		/* per GPU-period in use: energy, hypervisor */
	double rent_in_use;		/* per GPU-period rented */
	double share;			/* buy_fixed / (rent_in_use - buy_in_use); < 0: renting is never dearer */
};

struct roadmap_result {
	const struct scenario *sc;
	const struct forecast *fc;
	int ppy;			/* periods a year */
	int lead;			/* lead time in periods */
	size_t nperiods;
	struct roadmap_period *per;
	size_t nbuys;
	struct roadmap_buy *buys;	/* by order period, then class */
	double cost_total;		/* sum of the periods' costs, + the write-off under residual: none */
	double cash_total;
	double npv;			/* discounted cash - discounted residual credit */
	double residual_book;		/* book value of the bought nodes at the end (undiscounted) */
	double residual_credit;		/* discounted residual credited (0 under residual: none) */
	double objective, bound, gap;	/* gap: (objective - bound) / objective, proven */
	double mip_gap;			/* the gap each plan aimed at: within it the roadmap reads optimal */
	double saving_vs_rent;		/* not computed yet: -1 */
	size_t ncommits;
	struct roadmap_commit *commits;	/* by start period, reservations and blocks before licences, then row or product */
	double cloud_uncommitted_usd;	/* the rented nodes in use at their rows' own rates */
	double saving_vs_on_demand;	/* that less what the cloud costs with the reservations */
	size_t nbreakeven;
	struct roadmap_breakeven *breakeven;	/* by buy row, then rent row (inventory order) */
	size_t nassumptions;
	char **assumptions;		/* "what (source)", sorted, unique */
};

/*
 * Plans the roadmap of sc over fc.  Fails with d set as plan_run fails
 * (bad pricing input, solver error, a plan the verifier rejects).
 */
int roadmap_run(struct roadmap_result *r, const struct scenario *sc, const struct forecast *fc,
		const struct roadmap_opts *o, struct diag *d);
void roadmap_release(struct roadmap_result *r);

#endif
