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
 * longest deal (raised, never lowered).
 */
double *ilp_round_chains(const struct ilp_ctx *ctx, double *best_obj, double *t_deal_max);

#endif
