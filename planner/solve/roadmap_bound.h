/*
 * roadmap_bound.h - a lower bound on a problem's optimum that needs no
 * LP (roadmap_bound.c): the penalties of the replicas its fleet cannot
 * hold at all.  Private to solve/.
 *
 * Every slot holds one replica and takes a share of its GPU in some
 * measure (slots, memory, compute): a whole-GPU slot its GPUs, a slot of
 * a one-GPU configuration its need, scaled down where a configuration's
 * slots would together take more than the GPU (so one of n slots takes
 * 1/n in slots).  A replica takes at least the least share of the slots
 * of a class its arcs reach there, and its own CPU and RAM on the node;
 * a class holds its nodes' GPUs' (CPU's, RAM's) worth.  Relaxing
 * everything else (configurations, modes, nodes, sites, spreads) leaves
 * a covering problem whose dual prices any set of class prices
 * (weak duality): the bound is the best found, over the five measures
 * (docs/formulation.md, Roadmap, "The capacity bound").  Costs are left
 * out (they are >= 0), as is the tie-break.
 *
 * The roadmap takes it where a period's plan had no time for the LP: a
 * plan's proven bound and this one bound the same optimum, so the
 * larger is a bound.
 */
#ifndef PLANNER_SOLVE_ROADMAP_BOUND_H
#define PLANNER_SOLVE_ROADMAP_BOUND_H

#include "problem.h"

/* The capacity bound of p's optimum (>= 0); the tie-break and the costs are left out. */
double rm_capacity_bound(const struct problem *p);

#endif
