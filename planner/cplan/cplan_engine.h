/*
 * cplan_engine.h - the placement engine of concrete plans
 * (cplan.c) that the greedy planner, the repair and the deal of ILP
 * counts share: free slot queues, filling and emptying slots, the arcs
 * of a demand, and the CPU and RAM a node has left.  Opening nodes,
 * configuring GPUs and placing a replica are public (cplan.h).
 */
#ifndef PLANNER_CPLAN_ENGINE_H
#define PLANNER_CPLAN_ENGINE_H

#include <stddef.h>

#include "cplan.h"

/*
 * Where a scan of free slot queue (k, s) for workload w stopped: every
 * entry before pos is a taken slot or a slot on a node without room for
 * w.  Nodes only fill up between two slot clears (epoch), so the next
 * scan for the same w starts there: each queue is walked once per
 * workload, not once per replica.
 */
struct cplan_scan {
	size_t pos;			/* in the queue */
	const struct workload *w;	/* for whom; NULL: none yet */
	unsigned long epoch;		/* cplan_memo.epoch when it was set */
};

/* A configuration chosen for a demand on a (class, mode) and node key (cplan_greedy.c). */
struct cplan_keycfg {
	int key;		/* the node key */
	int cfg;		/* config_for's answer, -1: none */
	double per;		/* its cost per replica */
};

/*
 * The engine's cursors and caches, so that placing n replicas costs
 * O(n log n), not O(n x nodes) (cplan_init allocates it, cplan_release
 * frees it).  Every cursor is stamped with what it is valid for.
 */
struct cplan_memo {
	unsigned long epoch;	/* bumped when a slot is emptied or a queue compacted: cursors restart */
	struct cplan_scan **scan;	/* [k][slot type]: cplan_take_free's cursors */
	/* nodes with an idle GPU, not passthrough: next[i] leads to the first such node >= i */
	size_t *alive_next;	/* [node]; compressed as dead nodes are passed */
	size_t alive_cap;
	long nfull;		/* classes with every node opened */
	/* open_gpu_for, first fit: nodes before gpos have no use for demand gd (epoch gepoch) */
	int gd;
	size_t gpos;
	unsigned long gepoch;
	/* config_for per (class, mode) and node key for demand cd */
	int cd;
	struct cplan_keycfg **kc;	/* [k * MODE_COUNT + m] */
	size_t *nkc, *kccap;
	/* open_node_for (first fit) for demand nd while nfull was nd_full: class bk, config bc */
	int nd, bk, bc;
	long nd_full;
};

/*
 * A deep copy of src into dst (not initialised; cplan_release frees it):
 * nodes, slots and counts as they are, the free slot queues rebuilt in
 * slot order (the order they were created in), the engine's cursors
 * fresh, no reasons.  For analyses that place into a plan and undo it.
 */
void cplan_copy(struct cplan *dst, const struct cplan *src);

/* A keyed index (a slot, or an arc) to sort by key, then index. */
struct cplan_cand {
	double key;		/* smaller first */
	size_t slot;		/* the index: a slot id, or an arc */
};

/* qsort order of struct cplan_cand: key ascending, then slot ascending. */
int cplan_cand_order(const void *a, const void *b);

/* The free slot queue of (class k, slot type s): slot ids, cp->fqn[k][s] of them. */
size_t *cplan_queue(struct cplan *cp, int k, int s);

/*
 * Drops the taken slots from the part of queue (k, s) still ahead of its
 * head, keeping the order of the free ones.
 */
void cplan_queue_compact(struct cplan *cp, int k, int s);

/*
 * Swaps GPU a of node x with GPU b of node y (nodes of one class and
 * mode, neither with a node pattern): configurations, slots and their
 * replicas, and the CPU and RAM those ask.
 */
void cplan_swap_gpus(struct cplan *cp, int x, int a, int y, int b);

/*
 * Counting sort: the indices 0 .. n - 1 grouped by key[i] (< nkeys), in
 * index order within a group; group g is by[first[g]] .. by[first[g + 1] - 1].
 * Caller frees *first and *by.
 */
void cplan_group_by(const size_t *key, size_t n, size_t nkeys, size_t **first, size_t **by);

/* The caps' counts (cplan_caps.c): set up, grown to nnodes nodes, d's count on node moved by delta. */
void cplan_caps_init(struct cplan *cp);
void cplan_caps_grow(struct cplan *cp, size_t nnodes);
void cplan_caps_count(struct cplan *cp, int d, int node, long delta);
/* The demand of workload w in cp's problem; -1 when none. */
int cplan_demand_of(const struct cplan *cp, const struct workload *w);

/*
 * True when node n has the CPU and RAM a replica of w asks left, and w's
 * spread and availability caps let one more on it (cplan_caps_allow).
 */
int cplan_node_has_room(const struct cplan *cp, const struct cnode *n, const struct workload *w);

/*
 * Splits passthrough node `node` by node pattern `pattern` of its class
 * in place of its own: every group in use must be a group of the new
 * layout (same GPUs, same slot type) and stays as it is, replica and
 * all; the free groups are made anew, reusing the free slots' ids, then
 * new slots.  A plan's slots are never deleted, so the new layout must
 * have at least as many free groups as the node has free slots.  0, or
 * -1 (nothing changed) when the pattern does not fit so.
 */
int cplan_node_resplit(struct cplan *cp, int node, int pattern);

/* Lays node pattern `pattern`'s groups on node `node` (no slot yet), as cplan_open_node does. */
void cplan_node_lay(struct cplan *cp, int node, int pattern);

/*
 * Configurations undone (cplan_reset.c), for a node or GPU whose slots
 * are all free: the slots are deleted, the others renumbered in order
 * (remap[old] is the new id, (size_t)-1 for a deleted one; the caller
 * sizes remap to cp->nslots), the free slot queues kept in their order
 * without them.  Every other holder of slot ids is the caller's to remap.
 * cplan_gpu_reset makes GPU gpu of node `node` (not passthrough, no node
 * pattern) idle; cplan_node_reopen makes node `node` as cplan_open_node
 * opens one in mode m and pattern `pattern` (-1: none), keeping its
 * index and name.  0, or -1 (nothing changed) when a slot is taken.
 */
int cplan_gpu_reset(struct cplan *cp, int node, int gpu, size_t *remap);
int cplan_node_reopen(struct cplan *cp, int node, enum gpu_mode m, int pattern, size_t *remap);

/* Puts replica `replica` of demand d into free slot `slot`, charging its node. */
void cplan_slot_fill(struct cplan *cp, size_t slot, int d, long replica);

/*
 * Empties slot `slot` (the inverse of cplan_slot_fill) and queues it
 * again; a slot may so be queued twice: every reader of a queue checks
 * that a slot is free.
 */
void cplan_slot_clear(struct cplan *cp, size_t slot);

/* First free slot of (k, s) on a node with room for w; (size_t)-1 if none. */
size_t cplan_take_free(struct cplan *cp, int k, int s, const struct workload *w);


/* A free slot on one of d's arcs (arc order) on a node with room; (size_t)-1 if none. */
size_t cplan_find_free(struct cplan *cp, int d);

/* Slots of configuration cf (of class k) that demand d can use. */
int cplan_fit_count(const struct problem *p, int d, int k, const struct config *cf);

/* The cost of arc (d, k, s); 0 when there is no such arc. */
double cplan_arc_cost(const struct problem *p, int d, int k, int s);

/* Share of a node of class nc that w takes: its larger share of CPU and RAM. */
double cplan_load_share(const struct node_class *nc, const struct workload *w);

/*
 * How much of the fuller of its CPU and RAM node n keeps free once w is
 * on it, as a share of the node (1 when w asks neither).
 */
double cplan_headroom(const struct cplan *cp, const struct cnode *n, const struct workload *w);

#endif
