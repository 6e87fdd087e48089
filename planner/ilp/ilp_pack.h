/*
 * ilp_pack.h - a class's share of a plan packed exactly onto
 * its nodes (ilp_pack.c), where the deal leaves replicas without a slot.
 */
#ifndef PLANNER_ILP_PACK_H
#define PLANNER_ILP_PACK_H

#include <pthread.h>
#include <stdint.h>

#include "cplan.h"
#include "ilp.h"
#include "ilp_memo.h"
#include "ilp_model.h"

/* Classes of at most this many nodes in the counts are packed. */
#define PACK_MAX_NODES 8
/*
 * Nor classes whose nodes times arcs pass this: the MIP's replica
 * columns; packings that large took long and placed nothing more.
 */
#define PACK_MAX_ARC_COLS 2500
/* The packing MIP's budget: branch-and-bound nodes (deterministic: no clock). */
#define PACK_MIP_NODES 100

/*
 * The packer of one problem: its arcs by class, and the packings done
 * so far (a class's share, the same, is packed once).  Threads share
 * it; the cache has its own lock.
 */
struct ilp_pack {
	const struct problem *p;
	const struct arcidx *ix;
	double deadline;	/* util_now_s() time no packing runs past; HUGE_VAL: none (a node limit) */
	struct pack_entry **cache;
	size_t n, cap;
	pthread_mutex_t lock;
	int mip_nodes;		/* each packing's branch-and-bound budget: PACK_MIP_NODES (tests set less) */
	long packs, hits, kept;	/* MIPs solved, cache hits, plans improved (for --verbose) */
	long completions, completed; /* deals completed by the greedy engine: tried, kept (ilp_deal_complete) */
	long started;		/* packings that started from the deal's layout */
	double tail_s;		/* the longest a deal took but for its packings (ilp_pack_tail) */
	double stop_by;		/* packings stop by this too (the roundings' share: ilp_round_chains); HUGE_VAL: none */
	struct pack_memo memo[PACK_MEMO]; /* the cheapest concrete plans, by cost then hash (under the lock) */
	size_t nmemo;
};

/* deadline: when packing stops (util_now_s() time), HUGE_VAL for none. */
void ilp_pack_init(struct ilp_pack *pk, const struct problem *p, const struct arcidx *ix, double deadline);
void ilp_pack_release(struct ilp_pack *pk);

/*
 * The plan of the counts (cplan_from_counts, into the empty cp); then,
 * with pk, each class of at most PACK_MAX_NODES nodes (and
 * PACK_MAX_ARC_COLS replica columns) whose share the
 * deal left short is packed exactly: a MIP of its nodes, each a copy of
 * the one-node model (the class's rows with one node, integer replicas),
 * that places as many of the class's replicas as those nodes can hold
 * within the counts' modes.  When that places more than the deal, the
 * plan is dealt again with those classes built as packed, and kept when
 * it is better (cplan_better) and passes verify_plan.  Past the
 * deadline nothing is packed; a packing the deadline cuts is used but not
 * kept in the cache (what the cache holds does not depend on the clock).
 * The packings stop one deal tail (ilp_pack_tail) before the deadline, so
 * that the deal ends by it when it starts a tail before it.
 */
void ilp_deal(struct ilp_pack *pk, struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc);

/*
 * The plan cp, dealt from counts that leave model_unplaced replicas
 * unplaced, completed by the greedy engine (cplan_complete: its nodes and
 * GPUs that hold nothing given back, then the unplaced replicas on free
 * slots, GPUs of its nodes and nodes its classes still have) when the deal
 * left more unplaced than the counts do: the replicas the deal lost for
 * want of a slot on real nodes.  Replicas the counts leave out are left
 * to the model (on a full fleet, completing every deal would be a greedy
 * pass of work for nothing).  Returns 1 when the completed plan replaced
 * cp (better by the priority rule, then cost, and checked).  The plan
 * search completes its plans so (ilp_repair_vector), and ilp_concrete
 * the plan written by the same rule, so that it is the plan the search
 * costed.  Polls no clock.  pk: its counters, or NULL.  Any thread.
 */
int ilp_deal_complete(struct ilp_pack *pk, struct cplan *cp, double model_unplaced);

/*
 * The longest a deal took so far apart from its packings (seconds,
 * wall): its plans of the counts, which no clock stops, where the
 * packings stop at the deadline.  A phase keeps that much for each deal
 * it has still to make (ilp_deal_tail).
 */
double ilp_pack_tail(struct ilp_pack *pk);

/*
 * Remembers that the counts `from`, dealt by ilp_deal, made a concrete
 * plan whose counts hash to `made` and that costs `cost`, when it is
 * among the PACK_MEMO cheapest (by cost, then hash: the same on any
 * number of threads).  Any thread.
 */
void ilp_pack_remember(struct ilp_pack *pk, uint64_t made, double cost, const struct ilp_result *from);

#endif
