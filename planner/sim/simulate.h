/*
 * simulate.h - the licensing simulator: plan a demand trace hour by hour,
 * count the licences each hour under the scenario's counting rule and
 * the licence server's lease, and price ways of buying them over the
 * same trace.
 *
 * Stepping: step 0 is the greedy plan of its demand (what `gpuplan plan
 * --greedy` gives).  Every later step starts from the previous step's
 * plan: each workload keeps its lowest-numbered replicas up to its new
 * count where they are (their nodes, GPU configurations and slots are
 * rebuilt as they were); nodes and GPUs left without a replica are
 * released; the new replicas are placed greedily (free slots first, then
 * idle GPUs of nodes in use, then new nodes).  So a replica never moves
 * while it runs and nodes do not flap.  Only when the kept placements
 * leave replicas out that a fresh greedy plan of the step would place is
 * the step planned afresh (a re-plan: replicas may move; counted).
 *
 * Licences per step and product: GPUs carrying a per-GPU licence, plus,
 * under vgpu-seat counting, the seats held: seats in use plus the seats
 * released during the last lease_hours steps (a seat released at step t
 * stays leased through steps t .. t+L-1; a new replica takes a new lease).
 *
 * Strategies (per product, summed; a product without the needed term
 * makes the strategy unavailable, with the reason):
 *   subscription-peak    peak x the cheapest subscription terms covering the years
 *   subscription-yearly  each year's peak x a one-year subscription
 *   perpetual            perpetual licences bought as the yearly peak grows, judged
 *                        over their whole term (price x years used / years of
 *                        support included, the rest being value left after), plus
 *                        support beyond the years included
 *   cloud-hourly         licence-hours x the hourly price
 *   mix                  per year, a subscribed base B (1-year terms) plus the hours
 *                        above B at the hourly price, B chosen to minimise the sum
 *
 * Ownership: the result owns its pricing, problem, arrays and strings; it
 * points into the scenario and the trace, which must outlive it.
 * simulate_release frees everything (also after a failed run).
 */
#ifndef PLANNER_SIMULATE_H
#define PLANNER_SIMULATE_H

#include <stddef.h>

#include "diag.h"
#include "ilp.h"
#include "pricing.h"
#include "problem.h"
#include "scenario.h"
#include "trace.h"
#include "util.h"

#define SIM_BREAKEVEN_MONTHS 120
#define SIM_MAX_YEARS 10

struct sim_opts {
	long hours;		/* steps; <= 0: the longer of the trace's period and horizon_years x 8760 */
	double lease_hours;	/* < 0: the scenario's licensing.lease_hours */
	int verify;		/* run the plan verifier on every step's plan */
	const struct ilp_progress_sink *progress; /* phase "step" every SIM_PROGRESS_STEPS steps (ilp.h); or NULL */
};
#define SIM_OPTS_INIT { 0, -1, 0, NULL }
#define SIM_PROGRESS_STEPS 256

enum sim_strategy { STRAT_SUB_PEAK, STRAT_SUB_YEARLY, STRAT_PERPETUAL, STRAT_CLOUD, STRAT_MIX, STRAT_COUNT };
const char *sim_strategy_name(enum sim_strategy s);	/* "subscription-peak", ... */

struct sim_strategy_result {
	int available;
	double total;		/* USD over the simulated period */
	char *how;		/* the formula with its numbers, or why it is unavailable */
	int rank;		/* 1 = cheapest; 0 when unavailable */
};

/* Break-even of strategies a and b for one licence of a product. */
struct sim_breakeven {
	enum lic_product product;
	enum sim_strategy a, b;
	int first;		/* at month 1: -1 a is cheaper, 1 b is cheaper, 0 equal */
	int month;		/* first month the order changes, 0: not within SIM_BREAKEVEN_MONTHS */
	int after;		/* from that month: -1 a cheaper, 1 b cheaper, 0 equal */
	double util;		/* hourly vs fixed: licence utilisation at which both cost the same; < 0: n/a */
	double trace_util;	/* the trace's: licence-hours / (peak x hours) */
};

struct sim_year {
	long hours;
	long peak[LIC_COUNT];
	double unit_hours[LIC_COUNT];
	long base[LIC_COUNT];	/* mix: subscribed base */
};

struct sim_result {
	const struct scenario *sc;
	const struct trace *tr;
	struct pricing pr;
	struct problem p;
	int have_pr, have_p;
	size_t nsteps;
	long lease_steps;	/* lease in whole hours */
	double lease_hours;
	long *units[LIC_COUNT];	/* per step: licences counted (per-GPU + seats held) */
	long peak_demand, peak_nodes, peak_gpus, peak_unplaced;
	long node_opens;	/* sum over steps and classes of the rise in nodes in use */
	long replans;		/* steps planned afresh (the kept placements left replicas out) */
	double unplaced_hours;	/* replica-hours left unplaced */
	long peak_units[LIC_COUNT];
	unsigned rule_modes;	/* modes whose licence rule decided a GPU's licence at some step (cplan_rule_modes) */
	double unit_hours[LIC_COUNT];
	double rate[LIC_COUNT];	/* hourly price per licence; < 0: none */
	int nyears;
	struct sim_year years[SIM_MAX_YEARS];
	struct sim_strategy_result strat[STRAT_COUNT];
	int cheapest;		/* strategy, -1: none available */
	int runner_up;		/* the next cheapest, -1: none */
	size_t nbe;
	struct sim_breakeven *be;
	struct sb timeseries;	/* timeseries.csv */
};

/*
 * Simulates tr on sc.  Fails with d set on bad pricing input
 * (DIAG_INPUT), a plan the verifier rejects (DIAG_IO, with o->verify), or
 * an interrupt (DIAG_IO).
 */
int simulate_run(struct sim_result *r, const struct scenario *sc, const struct trace *tr, const struct sim_opts *o,
		 struct diag *d);

/*
 * Writes timeseries.csv, strategies.csv, breakeven.csv and simulate.json
 * into dir, all or nothing.  0, or -1 with d (DIAG_IO).
 */
int simulate_write(const struct sim_result *r, const char *dir, struct diag *d);
/* The same four files added to os (for a caller that writes more files with them, all or nothing). */
struct outset;
void simulate_add_files(const struct sim_result *r, struct outset *os);

void simulate_release(struct sim_result *r);

#endif
