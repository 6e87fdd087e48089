/*
 * ilp_round.h - rounding the root LP into integer plans, in
 * chains of roundings run at once (ilp_round.c).
 */
#ifndef PLANNER_ILP_ROUND_H
#define PLANNER_ILP_ROUND_H

#include "ilp_model.h"

/* At most this many other starts for the polish (struct round_starts). */
#define ROUND_STARTS 6

/*
 * A plan whose deal over real nodes lost replicas (made concrete it
 * leaves more unplaced than in counts), kept as a start for the polish
 * when cheaper on the model than the start it takes (ilp_starts.c).
 */
struct lossy_start {
	double *x;		/* made concrete (1-based columns of c->P; caller frees); NULL: none */
	double obj;		/* what it costs made concrete */
	double model;		/* what the plan in counts costs: c->P's objective, the deal's losses not counted */
};

/* The rounds' other plans made concrete: starts for more polishing. */
struct round_starts {
	double *x[ROUND_STARTS];	/* [n]: the plans (1-based columns of c->P; caller frees) */
	double obj[ROUND_STARTS];	/* [n]: what each costs */
	size_t n;
	int alt;			/* x[0] is the other chains' cheapest, the plan returned the keyed chain's */
	struct lossy_start lossy;	/* of the rounds' plans whose deals lost replicas, the cheapest on the model */
};

/*
 * Rounds the root LP solved in c->P (relax and fix, on copies), then
 * again with what each deal over real nodes could not use taken off
 * those nodes: ROUND_CHAINS chains at once on c->threads threads, each
 * with its own feedback; their cheapest plans are taken in chain order,
 * so that, when no chain is cut short by the time limit, the plan is
 * the same on any number of threads.  Logs each round (glp_printf).
 * Returns the cheapest plan made concrete (1-based columns of c->P;
 * NULL when none; caller frees), *best_obj its cost.  The roundings'
 * batches, and the packings of their deals (ilp_pack.stop_by), stop by
 * stop_by (util_now_s() time; HUGE_VAL: only the clock's deadline stops
 * them), the keyed chain's first rounding then completed (ilp_complete.c).  Fills more with other starts:
 * when the plan returned is the keyed chain's (ilp_round.c,
 * KEYED_CHAIN), the other chains' cheapest first; then the rounds'
 * other plans, the cheapest first, each at a cost no plan before it has
 * (the same plan, most likely), up to ROUND_STARTS; and more->lossy
 * (ilp_lossy_offer, in chain and round order).  alone
 * (ilp_round_keyed_alone): the keyed chain rounds first, alone, its class
 * MIPs on every thread, and the other chains after it; each chain rounds
 * once, with no feedback round.
 */
double *ilp_round_chains(const struct ilp_ctx *ctx, double *best_obj, double stop_by, int alone,
			 struct round_starts *more);

/*
 * Below this share of a processor, measured on the thread that opened
 * the run (ilp_ctx.cpu0, t0) over at least ROUND_STARVED_WALL wall
 * seconds, the run is starved: the keyed chain rounds first, alone
 * (ilp_round_chains), and the bound search beside yields until the first
 * polish ends (ilp.c).  An idle two-processor machine gives each of three
 * threads two thirds of one.
 */
#define ROUND_STARVED_RATE 0.5
#define ROUND_STARVED_WALL 0.2
/*
 * Whether the run is starved: under a time limit (timed), with two
 * threads or more, when the thread that opened the run got cpu CPU
 * seconds in wall seconds (at least ROUND_STARVED_WALL) and that is less
 * than ROUND_STARVED_RATE of a processor.  A pure function of its
 * arguments.
 */
int ilp_round_keyed_alone(double cpu, double wall, int threads, int timed);

#endif
