/*
 * ilp_shrink.h - CPU and RAM taken off each node of a (class,
 * mode) when rounding and polishing (struct shrink, ilp_shrink.c): what
 * dealing a plan over real nodes could not use there, so that the next
 * MIP or LP asks for nodes the deal can fill.  The LP bound never sees it.
 */
#ifndef PLANNER_ILP_SHRINK_H
#define PLANNER_ILP_SHRINK_H

#include "ilp_model.h"

/* CPU and RAM a deal lost in one (class, mode), and the nodes to share it over. */
struct shrink_loss {
	double nodes;		/* the plan's nodes in the (class, mode) */
	double cpu, ram;	/* lost there */
};

/* Allocates sh for ng (class, mode) entries, zeroed; ilp_shrink_free frees it. */
void ilp_shrink_alloc(struct shrink *sh, size_t ng);
void ilp_shrink_free(struct shrink *sh);

/*
 * Takes the CPU and RAM lost in (class, mode) g (l), shared over its
 * nodes, off each node in sh, at most half a node (nc's) and only where
 * cl has the row; nothing when l->nodes < 0.5.  Returns 1 when it took
 * CPU, 2 when RAM, 3 both, 0 nothing.
 */
int ilp_shrink_take(const struct node_class *nc, const struct cols *cl, struct shrink *sh, size_t g,
		    const struct shrink_loss *l);
/*
 * Sets the node coefficient of (class, mode) g in its CPU row (what & 1)
 * and its RAM row (what & 2) of Q (columns cl) to what a node of nc has
 * less sh.
 */
void ilp_shrink_set(glp_prob *Q, const struct cols *cl, const struct node_class *nc, const struct shrink *sh,
		    size_t g, int what);
/* The CPU and RAM rows of Q (columns cl) with sh taken off each node, where sh takes something. */
void ilp_shrink_rows(glp_prob *Q, const struct problem *p, const struct cols *cl, const struct shrink *sh);
/*
 * What dealing the rounded plan x over real nodes (fixed) could not put
 * where x put it: per (class, mode), the CPU and RAM of the replicas x
 * has there and fixed has not, shared over x's nodes and added to sh (at
 * most half a node).  1 when something was added.
 */
int ilp_shrink_add(const struct problem *p, const struct cols *cl, const double *x, const double *fixed,
		   struct shrink *sh);

#endif
