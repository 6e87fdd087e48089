/*
 * problem_near.h - the class nearest to hosting a workload no
 * class can host (problem_near.c).
 */
#ifndef PLANNER_PROBLEM_NEAR_H
#define PLANNER_PROBLEM_NEAR_H

#include "problem.h"

/*
 * "nearest: class NAME (N x GPU, hypervisor, site S): lacks ..." - the
 * inventory class with the fewest shortfalls for w (site, GPU type, GPUs
 * per node, GPU memory, CPU, RAM, a hypervisor for a VM, an allowed
 * mode; then the smallest relative shortfall, then inventory order), or,
 * when it has all of those, the slot its modes lack.  NULL for an empty
 * inventory.  Caller frees.
 */
char *problem_nearest_class(const struct problem *p, const struct workload *w);

#endif
