/*
 * ilp_one_node.h - the one-node model of a class (ilp_one_node.c).
 */
#ifndef PLANNER_ILP_ONE_NODE_H
#define PLANNER_ILP_ONE_NODE_H

#include <glpk.h>

#include "ilp_model.h"

/*
 * The one-node model of a class: its problem S (the class's rows as the
 * model has them, at most one node, integer replicas), S's columns lc,
 * its size.  The packer (ilp_pack.c) copies it once a node; column
 * generation (ilp_colgen.c) prices node patterns with it.
 */
struct ilp_one_node {
	glp_prob *S;
	struct cols lc;
	int nr, nc;
};
void ilp_one_node_build(const struct problem *p, const struct arcidx *ix, size_t k, struct ilp_one_node *on);
void ilp_one_node_free(const struct problem *p, struct ilp_one_node *on);

#endif
