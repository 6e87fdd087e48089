/*
 * problem_reduce.h - shrinking the aggregated problem without
 * changing its optimum (problem_reduce.c).
 */
#ifndef PLANNER_PROBLEM_REDUCE_H
#define PLANNER_PROBLEM_REDUCE_H

#include "problem.h"

/*
 * Slot equivalence: slot types of a class (same mode) that exactly the
 * same demands use at the same arc costs get one representative (rep);
 * configurations count their slots by rep (keeping the real slot types)
 * and only arcs to reps stay.  p->arcs must be sorted by (d, k, s).
 */
void problem_merge_equivalent(struct problem *p);

/*
 * Drops from every class the slot types no arc uses, configurations left
 * without a useful slot, dominated configurations and redundant modes;
 * sets each class's modes.  After problem_merge_equivalent.
 */
void problem_prune(struct problem *p);

#endif
