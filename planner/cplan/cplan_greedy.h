/*
 * cplan_greedy.h - the greedy planner's steps (cplan_greedy.c)
 * that the deal of ILP counts and the repair reuse.
 */
#ifndef PLANNER_CPLAN_GREEDY_H
#define PLANNER_CPLAN_GREEDY_H

#include <stddef.h>

#include "cplan.h"

/*
 * A slot for one more replica of d: a free one, else a new GPU, else a new
 * node; (size_t)-1 when none.  left: 0 for the greedy planner's first fit;
 * else the replicas of d still to place, for the cheapest GPU and node for
 * them (what a deal of counts left over).
 */
size_t cplan_place_one(struct cplan *cp, int d, long left);

/* cplan_place_one without a new node: a free slot, else a new GPU of a node opened. */
size_t cplan_place_opened(struct cplan *cp, int d, long left);

/* Sets cp->reason[d], unless set: why free capacity could not take a replica of d. */
void cplan_set_reason(struct cplan *cp, int d);

/*
 * cplan_place_more highest priority first, by isolation tiers (the greedy
 * pass's third order, cplan_greedy_add): so a completion (cplan_complete)
 * splits a passthrough node anew for a group size it lacks, as the pass's
 * sweeps do.
 */
void cplan_place_more_tiered(struct cplan *cp, const long *add);

/* The demands by CPU, then RAM per replica, decreasing; then in index order.  Caller frees. */
size_t *cplan_demands_by_load(const struct problem *p);

#endif
