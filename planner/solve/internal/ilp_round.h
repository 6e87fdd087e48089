/*
 * internal/ilp_round.h - rounding the root LP into integer plans, in
 * chains of roundings run at once (ilp_round.c).
 */
#ifndef PLANNER_ILP_ROUND_H
#define PLANNER_ILP_ROUND_H

#include "internal/ilp_model.h"

/*
 * Rounds the root LP solved in c->P (relax and fix, on copies), then
 * again with what each deal over real nodes could not use taken off
 * those nodes: ROUND_CHAINS chains at once on c->threads threads, each
 * with its own feedback; their cheapest plans are taken in chain order,
 * so that, when no chain is cut short by the time limit, the plan is
 * the same on any number of threads.  Logs each round (glp_printf).
 * Returns the cheapest plan made concrete (1-based columns of c->P;
 * NULL when none; caller frees), *best_obj its cost, *t_deal_max the
 * longest deal (raised, never lowered).  When that plan is the keyed
 * chain's (ilp_round.c, KEYED_CHAIN), *alt is the other chains'
 * cheapest (caller frees; NULL when none) and *alt_obj its cost, a
 * second start for the polish; else *alt is NULL.
 */
double *ilp_round_chains(const struct ilp_ctx *ctx, double *best_obj, double *t_deal_max, double **alt,
			 double *alt_obj);

#endif
