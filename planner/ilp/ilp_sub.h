/*
 * ilp_sub.h - the MIP of one or more classes alone (ilp_sub.c),
 * solved by the rounding (one class against the LP) and by the polish
 * (two or three classes against the plan).
 */
#ifndef PLANNER_ILP_SUB_H
#define PLANNER_ILP_SUB_H

#include "ilp.h"
#include "ilp_model.h"

/* What ilp_sub_mip solves. */
struct sub_mip_args {
	const size_t *ks;	/* [nk]: the classes */
	size_t nk;		/* how many: 1 (a rounding's class MIP), 2 or 3 (the polish's) */
	const double *q;	/* [demand]: the replicas to take */
	const char *use;	/* [arc]: the arcs it may use; NULL: every arc of the classes */
	const double *start_x;	/* a plan of the whole model (columns c->cl) to start from; NULL: none */
	double worse;		/* with sh: a plan costing this or more is not dealt (HUGE_VAL: every plan is) */
	struct shrink *sh;	/* CPU and RAM taken off each node (the deals add to it), or NULL */
	int keyed;		/* with the node key sets' CPU and RAM rows (ilp_key.c), as the keyed chains' LP copies */
	double deadline;	/* util_now_s() time to stop by */
	int deep;		/* polishing (start_x): 0: POLISH_NODES_MIN nodes; SUB_DEEP: polish_nodes (ilp_sub.c), and no
				 * solve at all when that is no more than POLISH_NODES_MIN (the short pass's budget);
				 * SUB_DEEP_ALWAYS: polish_nodes, solved whatever they are (a MIP the short pass never saw) */
	int cuts;		/* polishing: with Gomory and MIR cuts (a rounding's class MIPs always take MIR cuts) */
};

enum { SUB_DEEP = 1, SUB_DEEP_ALWAYS = 2 };

/*
 * The MIP of the classes a->ks alone: the cheapest whole nodes and whole
 * configurations of those classes that take q[d] replicas of each
 * demand d, over the arcs of those classes where use is NULL or
 * use[arc] set, under the classes' own rows (slots, CPU and RAM less
 * sh, lone replicas; with keyed, the node key sets' CPU and RAM rows).
 * What it cannot take costs the demand's penalty,
 * as in the whole model, so it takes all it can.  start_x is offered as
 * the first incumbent; NULL offers "leave everything".  With sh, the
 * plan is dealt over real nodes and, while that loses replicas, solved
 * again with their CPU and RAM taken off.
 *
 * Fills r (allocated; the classes' counts, their arcs and the unplaced,
 * zero elsewhere) and *obj; returns 0, 1 when the last plan still lost
 * replicas in the deal, or -1 when GLPK found no plan or a deep solve
 * was not needed (r untouched).
 * Runs on any thread (its own GLPK problem; c is only read).
 */
int ilp_sub_mip(const struct ilp_ctx *c, const struct sub_mip_args *a, struct ilp_result *r, double *obj);

#endif
