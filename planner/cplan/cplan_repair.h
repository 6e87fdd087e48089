/*
 * cplan_repair.h - placing unplaced replicas by ejection chains
 * (cplan_repair.c), for the deal of ILP counts.
 */
#ifndef PLANNER_CPLAN_REPAIR_H
#define PLANNER_CPLAN_REPAIR_H

#include "cplan.h"

/*
 * Places what is unplaced by moving other replicas between the plan's
 * slots (a bounded, deterministic search), heaviest demands first; each
 * replica placed comes off unplaced[d] (and the reason goes with the
 * last one).  Configures no GPU and opens no node.
 */
void cplan_repair_unplaced(struct cplan *cp);

/*
 * Places what is unplaced where swapping two GPUs (configuration, slots
 * and replicas) between nodes of one class and mode gives a free slot it
 * fits the CPU and RAM it asks (cplan_swap.c; bounded, deterministic);
 * heaviest demands first, as cplan_repair_unplaced.  Changes no count
 * and no cost.
 */
void cplan_repair_swap(struct cplan *cp);

#endif
