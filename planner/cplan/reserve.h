/*
 * reserve.h - headroom for failures in a concrete plan: free capacity
 * added so that losing a set of nodes leaves a free slot for every
 * replica of a given priority or more they held (the resilience: block,
 * docs/formulation.md "Resilience").
 *
 * A cover places the lost replicas, highest priority first (the failure
 * analysis's order, failures.h), into free slots of the surviving nodes;
 * when none is left it configures an idle GPU or opens a node (the
 * greedy engine's cheapest choice for the replicas still to cover) and
 * places there; when neither can be had (the classes it may use are all
 * open and full), it moves a replica below the floor off a slot it could
 * use to a slot elsewhere; when no slot of the workload's type exists to
 * free that way (a class split into groups of other sizes), it splits a
 * passthrough node of a class the workload may use anew, by a pattern
 * with groups it takes: the node's groups in use stay where they are,
 * but those of replicas below the floor, moved elsewhere first (a GPU
 * the failure takes keeps its groups: the node keeps running, and what
 * a split frees is on its other GPUs).  Then
 * every replica it placed is taken out again: the slots stay free, the
 * GPUs configured, the nodes open.  No replica of the floor or above
 * moves, so what any failure loses of them never changes; a moved
 * replica takes a free slot elsewhere, and a split may remake free
 * groups another failure counted on, so the caller checks every failure
 * again (resilience.h).
 *
 * With preemption (reserve_loss.preempt), a replica that finds no free
 * slot takes one a replica below the floor holds, before any capacity is
 * added (the failure analysis's order: preempt.h); the evicted replica
 * is put back with the rest, so that slot is headroom without being free.
 *
 * With make_room (reserve_loss.left), the last resort, when neither a
 * free slot, an eviction, new capacity, a move nor a split places a
 * replica: a slot a replica below the floor holds (VM or pod alike), that
 * replica left unplaced in the plan (preempt_leave_out_find); the slot
 * stays free as headroom.  Where no such slot exists (node and site
 * losses), a GPU or a node holding only replicas below the floor is
 * emptied, they left out, and configured anew for the replica
 * (reserve_empty.h): slot ids are then renumbered (out->emptied), and
 * the caller's index must be built again.  Leaving out moves no replica
 * of the floor or above, and every emptying leaves one out at least, so
 * the loop's proof holds (a plan has finitely many replicas below the
 * floor to leave out).
 *
 * Ownership: a reserve_index points into no plan; reserve_index_release
 * frees it; a reserve_left's arrays are the caller's to free.
 */
#ifndef PLANNER_RESERVE_H
#define PLANNER_RESERVE_H

#include <stddef.h>

#include "cplan.h"

/* The occupied slots of a plan grouped by node (valid while no replica moves). */
struct reserve_index {
	size_t nnodes;
	size_t *first;		/* [nnodes + 1]: node i's slots are by[first[i]] .. by[first[i + 1] - 1] */
	size_t *by;		/* slot ids */
};

void reserve_index_build(struct reserve_index *ix, const struct cplan *cp);
void reserve_index_release(struct reserve_index *ix);

/* What a cover of one failure did. */
struct reserve_cover {
	long lost;		/* replicas of priority >= the floor on the failed nodes */
	long stranded;		/* of them, those left without a slot (0: covered) */
	long added;		/* slots that did not exist before (on GPUs configured, nodes opened) */
	long moved;		/* replicas below the floor moved to make room (they still run) */
	long split;		/* passthrough nodes split anew by another pattern to make room */
	long left_out;		/* replicas below the floor left out of the plan to make room (make_room) */
	long emptied;		/* GPUs and nodes emptied and configured anew (make_room): slot ids renumbered */
	int cut;		/* the loss's deadline stopped the cover: the replicas left count stranded */
};

/*
 * The replicas covers left out of the plan (make_room), in the order left
 * out: the slot each held ((size_t)-1 once a GPU or node emptied deleted
 * it), its node and GPUs, and its demand.
 */
struct reserve_left {
	size_t n, cap;
	struct reserve_left_one {
		size_t slot;
		int node, gpu, ngpus;
		int d;
	} *at;
};

/*
 * A failure to cover: the nodes lost at once (or one GPU of each, as the
 * failure analysis loses a GPU: failures.h), the floor, and whether to add
 * capacity.
 */
struct reserve_loss {
	const size_t *nodes;
	size_t n;
	int prio;		/* the replicas of priority >= prio are covered */
	int add;		/* 0: only check (no GPU configured, no node opened); 1: add what is missing */
	const int *gpus;	/* per node: the GPU lost (its node keeps running); NULL: the whole nodes */
	struct deadline *dl;	/* polled before each replica is covered (add 1); NULL: never */
	int preempt;		/* 1: a replica covered may take a slot one below prio holds (preempt.h) */
	struct reserve_left *left;	/* add 1, non-NULL: may leave replicas below prio out, noted here; NULL: never */
};

/*
 * Covers the loss of ls->nodes for the replicas of priority >= ls->prio
 * (index ix, built on cp).  cp's placements are as they were on return, but for the
 * replicas below the floor moved (out->moved) or left out (out->left_out,
 * appended to ls->left; their replica numbers are gaps until
 * preempt_renumber).
 */
void reserve_cover(struct cplan *cp, const struct reserve_index *ix, const struct reserve_loss *ls,
		   struct reserve_cover *out);

/* Makes d's replica numbers contiguous again once replicas were left out (preempt.h's preempt_renumber). */
void reserve_renumber(struct cplan *cp, int d);

#endif
