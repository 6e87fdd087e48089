/*
 * preempt.h - Kubernetes priority preemption after a failure, for the
 * failure analysis and the headroom covers (a resilience: block's
 * `preemption: lower-priority`, docs/formulation.md "Resilience"): a
 * replica of priority >= the floor that finds no free slot may take a
 * slot a replica of priority < the floor holds, which is evicted.
 *
 * Two tiers, not Kubernetes' every-priority-against-every-lower: only
 * the replicas the guarantee covers evict, and only replicas it does not
 * cover are evicted; a replica of priority >= the floor never loses its
 * slot to another, so what the guarantee counts on is never taken from
 * it.  The slot taken is one the replica could have been placed in (a
 * slot type of its arcs), on a node with the CPU and RAM it asks once
 * the evicted replica's are given back, within its spread caps; first
 * fit in the workload's arc order, then slot order, as free slots are.
 * A passthrough group of another size is never taken (its GPUs would
 * have to be grouped anew): conservative, the guarantee counts less.
 * A `vm` workload runs as a VM, not a pod (deploy gives it no
 * PriorityClass): it neither evicts nor is evicted.
 *
 * The headroom loop's last resort (make_room: leave-out-lower-priority)
 * shares these rules: a slot a replica below the floor holds, taken by
 * leaving that replica out of the plan (preempt_leave_out_find).
 *
 * Private to cplan/ (failures.c and reserve.c use it), but for
 * preempt_renumber, which solve/resilience.c calls through reserve.h.
 */
#ifndef PLANNER_PREEMPT_H
#define PLANNER_PREEMPT_H

#include <stddef.h>

#include "cplan.h"

/*
 * The slots held by a replica of priority < floor when built, grouped by
 * free slot queue (class, representative slot type); slot ids stay valid
 * while the plan grows.  A slot's holder is checked when searched, so
 * evictions and moves since only make it miss a slot (never take a
 * wrong one).
 */
struct preempt_index {
	int floor;
	size_t *qoff;		/* per class: its first key */
	size_t *first, *by;	/* key g's slots: by[first[g]] .. by[first[g + 1] - 1] */
};

void preempt_index_build(struct preempt_index *px, const struct cplan *cp, int floor);
void preempt_index_release(struct preempt_index *px);

/*
 * A slot d (priority >= px->floor) may take by evicting its holder
 * (priority < floor, not FAIL_SLOT_OFF, not gone[slot]: lost with the
 * failure; gone NULL: none), on a node with room for d once the holder
 * leaves; (size_t)-1 when none.
 */
size_t preempt_find(const struct cplan *cp, const struct preempt_index *px, int d, const unsigned char *gone);

/*
 * make_room's rule for a slot's holder e (a demand; -1 free; FAIL_SLOT_OFF
 * lost with the failure): 1 when it may be left out of the plan for a
 * replica at `floor`: placed, below the floor, its workload without a
 * domain cap (a DoNotSchedule spread or min_available one replica fewer
 * could break).
 */
int preempt_may_leave(const struct problem *p, int e, int floor);

/*
 * make_room: leave-out-lower-priority (reserve.h): a slot d may have once
 * its holder is left unplaced in the plan, made before any failure, not
 * by the scheduler.  The slot rules are preempt_find's (a slot type of
 * d's arcs, the node's CPU and RAM for d once the holder's are given
 * back, d's spread caps; a passthrough group of another size is never
 * taken), the holder any replica of priority < floor, VM or pod alike,
 * but not one whose workload has a domain cap (a DoNotSchedule spread or
 * min_available: one replica fewer could break the rule elsewhere), nor
 * one on a slot gone[] marks (lost with the failure; gone covers
 * slots 0 .. ngone - 1, NULL: none).  The
 * lowest priority first, then the least penalty (problem.h), then d's
 * arc order, then slot order; (size_t)-1 when none.
 */
size_t preempt_leave_out_find(const struct cplan *cp, int d, int floor, const unsigned char *gone, size_t ngone);

/*
 * make_room's second form, where preempt_leave_out_find finds no slot: a
 * free slot of d's arcs (not gone) on a surviving node that lacks the CPU
 * or RAM d asks, and the replicas below floor on that node to leave out
 * so that it has them (the same holders as preempt_leave_out_find's, in
 * its order: the lowest priority first, then the least penalty, then slot
 * order; one only while it gives back CPU or RAM still short).  The
 * first such slot in d's arc order, then slot order, that the node's
 * holders can make room for.  r->slot is (size_t)-1 when none; r->out
 * (r->n slots, the caller frees it) lists the holders to leave out.
 */
struct preempt_room {
	size_t slot;		/* the free slot for d; (size_t)-1: none */
	size_t n;		/* slots in out */
	size_t *out;		/* the slots whose replicas to leave out, in order */
};
void preempt_leave_out_room(const struct cplan *cp, int d, int floor, const unsigned char *gone, size_t ngone,
			    struct preempt_room *r);

/*
 * Leaves the replica in slot `slot` unplaced: the slot free (and queued),
 * its demand's placed count one less and unplaced one more.  Its replica
 * number is left a gap until preempt_renumber.
 */
void preempt_leave_out(struct cplan *cp, size_t slot);

/*
 * Makes d's replica numbers 0 .. placed[d] - 1 again after replicas were
 * left out: each number past the end, in slot order, takes the lowest
 * gap.  Every replica of d must be in a slot.
 */
void preempt_renumber(struct cplan *cp, int d);

#endif
