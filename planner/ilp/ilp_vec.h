/*
 * ilp_vec.h - plans as column vectors of the whole model
 * (1-based, every column; ilp_vec.c): from counts and from a concrete
 * plan, back to counts, their cost, and made concrete.
 */
#ifndef PLANNER_ILP_VEC_H
#define PLANNER_ILP_VEC_H

#include "cplan.h"
#include "ilp.h"
#include "ilp_model.h"

/* The plan in counts (r's nmode, ncfg, arc, unplaced) as a column vector x (cl->ncols + 1 entries). */
void ilp_counts_vector(const struct problem *p, const struct cols *cl, const struct ilp_result *r, double *x);
/* The concrete plan warm as a column vector (caller frees). */
double *ilp_warm_vector(const struct problem *p, const struct cols *cl, const struct cplan *warm);
/* The replicas x leaves unplaced (never -0). */
double ilp_unplaced_sum(const struct problem *p, const struct cols *cl, const double *x);
/* The nodes of class k that x uses, all modes. */
double ilp_class_nodes(const struct cols *cl, size_t k, const double *x);
/* What x costs in P's objective. */
double ilp_vec_obj(glp_prob *P, const double *x);
/*
 * x's objective in c->P less its unplaced replicas' penalties (the
 * solver's, pdemand.solve_penalty): the stopping gap's measure
 * (ilp_gap_within).
 */
double ilp_vec_cost(const struct ilp_ctx *c, const double *x);
/*
 * x's objective with the documented penalties (pdemand.penalty), which
 * every plan is costed and reported with: ilp_vec_obj where the
 * solver's model is as built, more where its penalties are spread
 * (problem_prio_spread).  For the log lines others read.
 */
double ilp_vec_doc_obj(const struct ilp_ctx *c, const double *x);
/* Reads the counts of the plan x (1-based column values) into r (allocated). */
void ilp_take_plan(const struct problem *p, const struct cols *cl, const double *x, struct ilp_result *r);
/*
 * The plan x made concrete: its counts dealt over real nodes (per-node
 * CPU and RAM), the replicas that found no slot placed as the greedy
 * planner would (a free slot, a new GPU, a new node), a small class left
 * short packed exactly (ilp_deal, with c->pack), and read back as a
 * column vector (caller frees).
 */
double *ilp_repair_vector(const struct ilp_ctx *c, const double *x);
/*
 * A deal's tail in greedy passes (ilp_ctx.deal_s, measured on the run, so
 * that it grows with the load), before a deal has been measured and at
 * least: a deal makes two plans of the counts and repairs them, more
 * than a greedy pass; set from measured runs with a margin
 * (docs/benchmarks.md, "One thread, and starved runs").
 */
#define DEAL_GREEDIES 5
/*
 * The seconds a phase keeps before its deadline for each deal it has
 * still to make: the longest part of a deal no clock stops so far
 * (ilp_pack_tail; the packings stop at the deadline), and at least
 * DEAL_GREEDIES greedy passes.
 */
double ilp_deal_tail(const struct ilp_ctx *c);
/*
 * A plan made concrete (fixed, objective fobj) replaces *best (objective
 * *best_obj) when cheaper or when there is none; fixed is consumed.
 */
void ilp_keep_cheapest(double **best, double *best_obj, double *fixed, double fobj);
/*
 * Whether the concrete plan a (costing a_obj) is better than b (b_obj):
 * by the priority rule (cplan_prio_cmp_unplaced, on the replicas each
 * leaves unplaced), then by a lower cost, by more than rounding.  The
 * objective follows the rule only where its penalty weights were not
 * capped (problem.c), so a plan cheaper in it can still lose.
 */
int ilp_vec_better(const struct ilp_ctx *c, const double *a, double a_obj, const double *b, double b_obj);
/* The replicas plan x leaves unplaced, per demand, rounded to whole ones (caller frees). */
double *ilp_vec_unplaced(const struct ilp_ctx *c, const double *x);
/* The same by priority, as cplan_prio_unplaced writes them ("none", "P:N+P:N"; caller frees). */
char *ilp_vec_prio_unplaced(const struct ilp_ctx *c, const double *x);
/* Whether obj costs what one of the n costs in got does, to 10^-6 of it (the same plan, most likely). */
int ilp_same_cost(const double *got, size_t n, double obj);

#endif
