/*
 * ilp_polish_pairs.h - what the polish solves again, the most promising
 * first (ilp_polish_pairs.c).
 */
#ifndef PLANNER_ILP_POLISH_PAIRS_H
#define PLANNER_ILP_POLISH_PAIRS_H

#include "ilp_model.h"

#define NO_CLASS ((size_t)-1)

/* Classes to solve again together: a pair, one class alone, or a triple; and what it promises. */
struct pair {
	size_t k[3];		/* the classes, ascending; k[nk - 1] repeated after the nk-th (the sort compares all 3) */
	size_t nk;		/* 1, 2, or 3: a triple (POLISH_TRIPLE) */
	size_t kd;		/* a class whose replicas they take, emptying it; NO_CLASS: none */
	double promise;		/* what solving them again may gain (ilp_polish_pairs) */
};

/* The jobs of a polish (ilp_polish_pairs). */
struct pair_list {
	struct pair *pairs;	/* [n]: the most promising first (caller frees) */
	size_t n;
	size_t ntri;		/* of those, triples */
	size_t tri_all;		/* the triples that share demands, before the most promising are kept */
};

/* What the columns of class k cost in x (1-based, columns of c->P), arcs included. */
double ilp_class_cost(const struct ilp_ctx *c, size_t k, const double *x);

/*
 * The jobs of a polish of the plan x (costing x_obj; lp: the root LP's
 * column values) with the passes `passes` (ilp_polish.h), into *out.
 */
void ilp_polish_pairs(const struct ilp_ctx *c, const double *x, double x_obj, const double *lp, unsigned passes,
		      struct pair_list *out);

#endif
