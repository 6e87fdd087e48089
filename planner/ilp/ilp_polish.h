/*
 * ilp_polish.h - the polish: a concrete plan re-solved two
 * classes at a time, then three (ilp_polish.c).
 */
#ifndef PLANNER_ILP_POLISH_H
#define PLANNER_ILP_POLISH_H

#include "ilp_model.h"

/* The passes of a polish: */
enum {
	POLISH_SHORT = 1,	/* short searches of each pair, until a pass changes nothing */
	POLISH_DEEP = 2,	/* then (or from the start, alone) deeper searches, until a pass changes nothing */
	POLISH_BOTH = 3,
	POLISH_EJECT = 4,	/* also try, once, to empty each small costly class into a pair (ilp_polish.c) */
	POLISH_TRIPLE = 8	/* once the pairs change nothing, triples of classes that share demands (ilp_polish.c) */
};

/*
 * The levels of a polish's passes, each until a pass changes nothing
 * (POLISH_SHORT starts at the first, POLISH_DEEP alone at the second).
 * Cuts come last: generating them at the root took most of a short
 * search's time, and a deep search without them ends sooner, on a plan
 * the search with them then starts from, which finds optima the others
 * miss.
 */
enum {
	POLISH_LEVEL_SHORT,	/* POLISH_NODES_MIN nodes a pair, no cuts */
	POLISH_LEVEL_DEEP,	/* polish_nodes() (ilp_sub.c), no cuts */
	POLISH_LEVEL_CUTS,	/* the same with Gomory and MIR cuts */
	POLISH_LEVELS
};

/* What a polish did (ilp_polish's st). */
struct polish_stats {
	long mips[POLISH_LEVELS];	/* pair MIPs solved at each level (an emptying's in the short one) */
	long triples;		/* triple MIPs solved (POLISH_TRIPLE) */
	int triples_better;	/* of those, ones that made the plan cheaper */
	int gave_up;		/* the polish stopped at polish_opts.give_up */
	double wave_s;			/* the longest wall time a wave of short pair MIPs took, seconds */
	double *untripled;	/* triples_better > 0: the plan made concrete when the triples first started (caller frees) */
};

/* How a polish runs. */
struct polish_opts {
	const double *lp;	/* the root LP's column values (1-based columns of c->P) */
	double deadline;	/* util_now_s() time it stops by */
	unsigned passes;	/* POLISH_SHORT, POLISH_DEEP, POLISH_EJECT, POLISH_TRIPLE */
	/*
	 * > 0: the polish stops (polish_stats.gave_up) when its plan made
	 * concrete still costs this much or more once its short passes end,
	 * or at check_by (util_now_s() time; 0: no such time); 0: it never
	 * gives up.  A start whose deal lost replicas is polished this way
	 * against the plan that would have been polished instead (ilp_starts.c).
	 */
	double give_up, check_by;
};

/*
 * Polishes the concrete plan x (1-based columns of c->P; x_obj: what it
 * costs) in place with po's passes, until po's deadline or an
 * interrupt, on c->threads threads (the plan does not depend on how
 * many); *made is x made concrete (caller frees), NULL when nothing was
 * cheaper; *st (when st is not NULL) what it did.  Logs a summary line
 * (glp_printf).  Returns the number of pairs (and triples) of classes
 * that made x cheaper.
 */
int ilp_polish(const struct ilp_ctx *c, double *x, double x_obj, const struct polish_opts *po, double **made,
	       struct polish_stats *st);

/*
 * Whether the polish deals a pair MIP's plan with the whole plan (to
 * keep it when the whole plan made concrete is cheaper): ilp_sub_mip
 * found one (rc 0; or 1, the pair's own deal still lost replicas, which
 * the whole plan's deal then places where it can, only while the plan
 * places every replica: all_placed) and it costs less than the classes'
 * part of the plan, old.
 */
int ilp_polish_worth_dealing(int rc, double obj, double old, int all_placed);

#endif
