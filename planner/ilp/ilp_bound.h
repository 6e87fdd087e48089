/*
 * ilp_bound.h - the root LP relaxation, whose optimum is the
 * lower bound (ilp_bound.c): the whole model at once, or by sifting
 * over a working set of arcs when the model is large.
 */
#ifndef PLANNER_ILP_BOUND_H
#define PLANNER_ILP_BOUND_H

#include "ilp_glpk.h"
#include "ilp_model.h"

/*
 * Solves the root LP of c->P, until c->deadline.  in_set[i] (zeroed by
 * the caller) is set when arc i is free; arcs outside are fixed at 0.
 * Without sifting every arc is in the set; with it, the set starts from
 * the tightest slot of each demand in each class and the arcs of warm
 * (a plan, 1-based columns, or NULL) and grows by reduced cost.
 * *rounds: simplex solves; *code: the last glp_simplex return.
 */
enum lp_end ilp_root_lp(const struct ilp_ctx *c, const double *warm, char *in_set, int *rounds, int *code);

/*
 * The sifting loop of ilp_root_lp on c->P, whose arcs outside in_set are
 * fixed at 0: solves the LP (first: from scratch, with presolve; else
 * from P's basis), prices the fixed arcs with the row duals (every row
 * of P, cuts included), frees those of negative reduced cost and solves
 * again, until none is left or a solve does not end optimal.  Its
 * optimum is then the LP optimum of P with every arc free.
 */
enum lp_end ilp_sift(const struct ilp_ctx *c, char *in_set, int first, int *rounds, int *code);

/* 1 when ilp_root_lp sifts p's model (a working set of arcs), 0 when every arc is free. */
int ilp_root_sifts(const struct problem *p);
/* Frees the arcs x uses that sifting left out of the working set, so that x is a plan of c->P. */
void ilp_admit_arcs(const struct ilp_ctx *c, const double *x, char *in_set);

#endif
