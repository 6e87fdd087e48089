/*
 * ilp_key.h - the node key columns and rows of the aggregated model
 * (ilp_key.c; problem.h, config.node_key).
 */
#ifndef PLANNER_ILP_KEY_H
#define PLANNER_ILP_KEY_H

#include "ilp_cols.h"

/*
 * The node key columns of class k (ilp_key.c; problem.h, config.node_key)
 * and the arcs their CPU and RAM rows sum (cols.karc); after its
 * configuration columns.
 */
void ilp_key_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k);
/* The node key rows of class k (ilp_key.c): a key's GPUs on its nodes, a mode's key nodes among its nodes. */
void ilp_key_rows(const struct ilp_rows *w, size_t k);
/*
 * The node key sets' CPU and RAM rows of class k (ilp_key.c): the
 * replicas on slot types of a set of keys within those keys' nodes.
 */
void ilp_key_res_rows(const struct ilp_rows *w, size_t k);
/*
 * Sets class k's node key columns in x (a plan as a column vector, its
 * configuration columns set) to the fewest nodes that hold each key's
 * GPUs: what any concrete plan keeping the rule has at least.
 */
void ilp_key_fill(const struct problem *p, const struct cols *cl, size_t k, double *x);

#endif
