/*
 * reserve_empty.h - make_room's last step (reserve.h): where no slot a
 * replica below the floor holds, and no free slot on a node short of CPU
 * or RAM, takes a workload, a GPU or a node holding only replicas below
 * the floor is emptied and configured anew for it (a vGPU profile or a
 * mode the plan's slots lack).  The choice only; reserve.c leaves the
 * replicas out and has the engine undo the configuration
 * (cplan_gpu_reset, cplan_node_reopen).  Private to cplan/.
 */
#ifndef PLANNER_RESERVE_EMPTY_H
#define PLANNER_RESERVE_EMPTY_H

#include "cplan.h"

/* A GPU or node to empty for a demand: which, and how the node is opened anew. */
struct reserve_empty {
	int node;		/* -1: none */
	int gpu;		/* the GPU made idle; -1: the whole node, opened anew */
	enum gpu_mode mode;	/* the whole node: its mode, */
	int pattern;		/* its node pattern (-1: none), */
	int cfg;		/* and its GPU 0's configuration when no pattern (-1: none) */
	double penalty;		/* of the replicas left out */
	long n;			/* replicas left out (one at least) */
};

/*
 * The GPU or node to empty for d (priority >= floor), into *e (e->node
 * -1: none).  A GPU first: on a surviving node (not taken out: its CPU
 * not full) of a shared mode without node pattern, where d's caps allow
 * one more, a configured GPU holding at least one replica and only
 * replicas below floor whose workloads have no domain cap, that a
 * configuration of the node's mode and key takes d on, the node then
 * with d's CPU and RAM.  Else a whole node so, of a class a configuration
 * of which takes d (the cheapest per replica of d, mode and pattern its
 * own), d's CPU and RAM within the class's.  The least penalty left out
 * first, then the fewest replicas, then node order, then GPU order.
 */
void reserve_empty_find(const struct cplan *cp, int d, int floor, struct reserve_empty *e);

#endif
