/*
 * ilp_dive_beside.h - where the dive on the LP (ilp_dive.c) runs: after
 * the rounding chains on the thread that runs them, or beside them on a
 * thread of its own, from the root LP's end; private to ilp/.
 */
#ifndef PLANNER_ILP_DIVE_BESIDE_H
#define PLANNER_ILP_DIVE_BESIDE_H

#include <stdatomic.h>

#include "ilp_model.h"

/* Where the dive runs (ilp_dive_where). */
enum dive_where {
	DIVE_NONE,	/* not at all */
	DIVE_AFTER,	/* after the chains, on the thread that ran them */
	DIVE_BESIDE	/* from the root LP's end, on a thread of its own, beside the chains */
};

/*
 * Where the dive runs: nowhere on a sifted model (restricted: its LP is
 * a working set's); after the chains without a clock (timed 0: under a
 * node limit the plan must not depend on the threads, so the dive runs
 * where it always has, to its end), on one thread (no thread to spare),
 * and in a starved run (starved: ilp_round_keyed_alone; there the bound
 * search yields its processor already, so a thread beside the chains
 * takes from theirs, and their budget then drops whole chains); else
 * beside the chains.  A pure function of its arguments.
 */
enum dive_where ilp_dive_where(int restricted, int timed, int threads, int starved);

/* One dive beside the chains and its plan. */
struct ilp_dive_beside {
	const struct ilp_ctx *c;	/* the solve (read only; c->P at the root LP's optimum) */
	double stop_by;		/* util_now_s() the dive stops at (ilp_dive) */
	atomic_int *hold;	/* cleared (0) when the dive ends, or NULL (ilp_prove_hold) */
	atomic_int running;	/* 1 from the start until the dive and its deal end */
	struct par_task *task;	/* its thread, or NULL: not started */
	double *fixed;		/* out: its plan made concrete (1-based, every column), or NULL: none */
	double fobj;		/* out: what that costs */
	double doc, unplaced;	/* out: its plan's documented objective and unplaced replicas (for the log) */
	double fdoc, funplaced;	/* out: the same made concrete */
	double t_start, t_end;	/* out: util_now_s() when it started and ended */
};

/*
 * Starts ilp_dive(c, stop_by) on a thread of its own, its plan made
 * concrete there (ilp_repair_vector) into db; clears *hold (when not
 * NULL) once it has ended.  c->P must not change until
 * ilp_dive_beside_join: the dive copies it and reads it as the chains
 * do.
 */
void ilp_dive_beside_start(struct ilp_dive_beside *db, const struct ilp_ctx *c, double stop_by, atomic_int *hold);
/*
 * Waits while the dive runs, until util_now_s() reaches until: 1 when it
 * has ended (its plan, if any, in db->fixed), 0 when it still runs.
 */
int ilp_dive_beside_wait(struct ilp_dive_beside *db, double until);
/* Waits for the thread to end (by db->stop_by at the latest, and its deal) and frees it; db's plan stays. */
void ilp_dive_beside_join(struct ilp_dive_beside *db);

struct ilp_plans;
struct ilp_prove;
/*
 * Phase 2a of ilp_solve (ilp.c), at the root LP's end: starts the dive
 * beside the chains into db where ilp_dive_where says so (alone: the run
 * is starved, ilp_round_keyed_alone), the bound search pv holding off
 * meanwhile; else leaves db empty.
 */
void ilp_dive_begin(const struct ilp_ctx *c, const struct ilp_plans *pl, struct ilp_prove *pv, int alone,
		    struct ilp_dive_beside *db);
/*
 * At the chains' end: the dive's plan made concrete (beside: waited for
 * a while; else the dive run now, after the chains) as pl->start when
 * cheaper than another solver's plan there.
 */
void ilp_dive_take(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_dive_beside *db);
/* Before the search changes c->P: joins the dive beside (it ends by its stop) and frees what it left. */
void ilp_dive_end(struct ilp_dive_beside *db);

#endif
