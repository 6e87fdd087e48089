/*
 * ilp_complete.h - completing a rounding the clock stopped
 * (ilp_complete.c); private to ilp/.
 */
#ifndef PLANNER_ILP_COMPLETE_H
#define PLANNER_ILP_COMPLETE_H

#include "ilp_model.h"

/*
 * A rounding the clock stopped, completed at once, with no LP more: x,
 * the last LP the rounding solved (the classes rounded so far fixed in
 * it; 1-based, every column), gets in every class its node counts
 * rounded up within the class's nodes (the largest fractions first; the
 * passthrough patterns, whole nodes, alike) and its GPU configurations'
 * counts down; its replica flows stay as they are, its GPU totals and
 * node key columns follow from the counts.  What the flows ask beyond
 * the slots the counts give is the deal's to place.  (Re-solving the LP
 * with the counts was tried: on the largest fleets it took longer than
 * the rounding's batches.)  Sets *obj, x's cost.
 */
void ilp_complete_counts(const struct ilp_ctx *c, double *x, double *obj);

/*
 * The deal of a completed rounding left replicas unplaced: fixed, that
 * plan made concrete (consumed), costing *fobj; x, its counts, costing
 * *obj.  Each such demand gets a node of its own in a copy of x: over
 * its arcs, a configuration of the arc's mode with its slot, on a node
 * the class has free, else on one a mode of the class gives up (the
 * mode that loses the fewest configured GPUs with it: their replicas go
 * to the deal, which places them elsewhere), the cheapest in the
 * model's costs; the counts then ask for that node, its configuration
 * and those replicas' flow.  Dealt again, and kept when cheaper made
 * concrete (the penalties of what stays unplaced count).  Returns the
 * plan kept, the other freed; x, *obj and *fobj follow it.
 */
double *ilp_complete_room(const struct ilp_ctx *c, double *x, double *obj, double *fixed, double *fobj);

#endif
