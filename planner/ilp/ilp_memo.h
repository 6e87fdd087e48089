/*
 * ilp_memo.h - the cheapest concrete plans the solve made, each with the
 * counts it was dealt from (ilp_memo.c), kept by the packer (ilp_pack.h)
 * so that the plan written is dealt from those counts again.
 */
#ifndef PLANNER_ILP_MEMO_H
#define PLANNER_ILP_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "ilp.h"
#include "problem.h"

/*
 * The concrete plans remembered (the cheapest): dealing a concrete plan's
 * own counts again need not give that plan back (a class packed onto
 * fewer nodes than its counts had deals short, and its packing is not
 * in the cache under the new counts), so the plan written is dealt from
 * the counts it was made from (ilp_concrete).
 */
#define PACK_MEMO 4

/* A plan's counts, as struct ilp_result has them. */
struct pack_counts {
	long *nmode;		/* [class * MODE_COUNT + mode] */
	long **ncfg;		/* [class][config] */
	double *arc;		/* [arc] */
};

/* A concrete plan, and the counts it was dealt from. */
struct pack_memo {
	uint64_t made;		/* the hash of its counts (ilp_counts_hash) */
	double cost;		/* what it costs on the model */
	struct pack_counts from;	/* the counts ilp_deal made it from (a copy) */
};

/* A hash of r's counts (nodes per mode, configurations, arcs). */
uint64_t ilp_counts_hash(const struct problem *p, const struct ilp_result *r);
/* FNV-1a over n longs, from h. */
uint64_t ilp_hash_longs(uint64_t h, const long *v, size_t n);

/*
 * Adds the plan whose counts hash to made, that costs cost and was dealt
 * from the counts `from` (copied), to memo (*n plans, by cost then hash),
 * when it is new and among the PACK_MEMO cheapest.  The caller holds
 * whatever lock guards memo.
 */
void ilp_memo_add(struct pack_memo *memo, size_t *n, const struct problem *p, uint64_t made, double cost,
		  const struct ilp_result *from);
/* Frees the counts of memo's n plans. */
void ilp_memo_free(const struct problem *p, struct pack_memo *memo, size_t n);

#endif
