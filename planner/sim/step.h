/*
 * step.h - one step of the simulator: the previous step's plan carried
 * over to the next step's demand (step.c; the model is in simulate.h).
 */
#ifndef PLANNER_SIM_STEP_H
#define PLANNER_SIM_STEP_H

#include <stddef.h>

#include "cplan.h"

/* A replica that stays, and the slot it gets in the new plan. */
struct sim_kept {
	int d;			/* demand */
	long replica;		/* its number within the demand */
	size_t slot;		/* in the new plan */
};

/* Scratch reused across steps. */
struct sim_stepper {
	size_t *by_node;	/* prev slots grouped by node */
	size_t *node_first;	/* [nnodes + 1] offsets into by_node */
	size_t cap_slots, cap_nodes;
	struct sim_kept *kept;
	size_t nkept, cap_kept;
	long *keep, *add;	/* per demand: replicas kept, replicas to add */
	unsigned char *used_ord;	/* per ordinal of a class: taken by a kept node */
	size_t cap_ord;
};

/* Allocates the per-demand arrays of st (zeroed by the caller) for ndemands demands. */
void sim_stepper_init(struct sim_stepper *st, size_t ndemands);

/* Frees st's arrays and zeroes it. */
void sim_stepper_release(struct sim_stepper *st);

/*
 * Plans target (replicas per demand) into cur, an empty plan of the same
 * problem, starting from prev: the kept replicas stay where they were,
 * the rest is placed greedily.  Returns the nodes opened (new nodes).
 */
long sim_step_plan(struct cplan *cur, const struct cplan *prev, struct sim_stepper *st, const long *target);

#endif
