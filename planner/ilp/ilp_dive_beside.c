/*
 * ilp_dive_beside.c - where the dive on the LP runs (ilp_dive_beside.h):
 * on a thread of its own beside the rounding chains, or after them.  The chains and the polish
 * read the whole model c->P from several threads already; the dive
 * does the same (its copy, ilp_dive, and the deal, ilp_repair_vector),
 * and builds its own GLPK objects on its own thread (one GLPK
 * environment per thread).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_dive.h"
#include "ilp_dive_beside.h"
#include "ilp_glpk.h"
#include "ilp_prove.h"
#include "ilp_search.h"
#include "ilp_vec.h"
#include "banned.h"

enum dive_where ilp_dive_where(int restricted, int timed, int threads, int starved)
{
	if (restricted)
		return DIVE_NONE;
	if (!timed || threads < 2 || starved)
		return DIVE_AFTER;
	return DIVE_BESIDE;
}

static void dive_job(void *ctx, size_t j)
{
	struct ilp_dive_beside *db = ctx;
	const struct ilp_ctx *c = db->c;
	double obj = 0, *x;

	(void)j;
	ilp_glpk_thread_hook(c->verbose);
	x = ilp_dive(c, db->stop_by, &obj);
	if (x) {
		db->fixed = ilp_repair_vector(c, x);
		db->fobj = ilp_vec_obj(c->P, db->fixed);
		db->doc = ilp_vec_doc_obj(c, x);
		db->unplaced = ilp_unplaced_sum(c->p, &c->cl, x);
		db->fdoc = ilp_vec_doc_obj(c, db->fixed);
		db->funplaced = ilp_unplaced_sum(c->p, &c->cl, db->fixed);
		free(x);
	}
	db->t_end = util_now_s();
	if (db->hold)
		atomic_store(db->hold, 0);
	atomic_store(&db->running, 0);
}

void ilp_dive_beside_start(struct ilp_dive_beside *db, const struct ilp_ctx *c, double stop_by, atomic_int *hold)
{
	memset(db, 0, sizeof(*db));
	db->c = c;
	db->stop_by = stop_by;
	db->hold = hold;
	db->t_start = util_now_s();
	atomic_init(&db->running, 1);
	db->task = par_start(dive_job, db, ilp_glpk_thread_end);
}

/* The slice the wait looks at the flag in, seconds. */
#define WAIT_SLICE 0.01

int ilp_dive_beside_wait(struct ilp_dive_beside *db, double until)
{
	double left;

	while (atomic_load(&db->running) && (left = until - util_now_s()) > 0) {
		struct timespec ts;
		left = left < WAIT_SLICE ? left : WAIT_SLICE;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return !atomic_load(&db->running);
}

void ilp_dive_beside_join(struct ilp_dive_beside *db)
{
	if (!db->task)
		return;
	par_wait(db->task);
	db->task = NULL;
}

/*
 * The share of the time left after the roundings that the dive after
 * them (ilp_dive_take) may take: past it the dive stops with no plan
 * and the polish gets the time; and the longest the chains wait for a
 * dive beside them that has not ended (dive_beside_take).
 */
#define DIVE_SHARE 0.15
/*
 * No dive when the chains left less than this share of the time limit:
 * then the polish needs the time, and a dive cut short by its share is
 * time lost.
 */
#define DIVE_LEFT 0.5

/*
 * When a dive beside the chains stops at the latest, a share of the time
 * limit from the start.  A dive that ends at all ends well within it; one
 * that does not (the LP re-solves of some fleets are slow) holds the bound
 * search off for nothing, and, where the load rises after the root LP
 * (the run was not starved then), takes from the chains' processor what
 * the bound search would have yielded to them; so the window is short.
 */
#define DIVE_BESIDE_BY 0.3

/* The dive's plan made concrete (fixed, costing fobj) as pl->start when cheaper than another solver's there. */
static void dive_take(struct ilp_plans *pl, double *fixed, double fobj)
{
	if (!pl->start || fobj < pl->start_obj) {
		free(pl->start);
		pl->start = fixed;
		pl->start_obj = fobj;
	} else
		free(fixed);
}

/*
 * Phase 2a (ilp.c), where it runs beside the chains (ilp_dive_where: a
 * time limit, two threads or more, not starved, not sifted): the dive
 * starts at the root LP's end on a thread of its own (db), until
 * DIVE_BESIDE_BY of the limit, and the bound search beside (pv, on its
 * own thread) holds off while it runs (ilp_prove_hold), so that the
 * dive takes the bound search's processor, not the chains'.  db->t_start stays 0 where it does not
 * start here.
 */
void ilp_dive_begin(const struct ilp_ctx *c, const struct ilp_plans *pl, struct ilp_prove *pv, int alone,
		    struct ilp_dive_beside *db)
{
	double by = c->t0 + DIVE_BESIDE_BY * c->limit_s;

	memset(db, 0, sizeof(*db));
	if (ilp_dive_where(pl->restricted, !isinf(c->deadline), c->threads, alone) != DIVE_BESIDE ||
	    interrupt_pending() || ilp_ms_left(by) <= 0)
		return;
	ilp_dive_beside_start(db, c, by, pv->task ? ilp_prove_hold(pv) : NULL);
}

/*
 * Phase 2a (ilp.c) at the chains' end, the dive beside them (db
 * started): its plan, made concrete there, is taken as the dive's after
 * the chains is;
 * when it still runs the chains wait for it no longer than the dive
 * after them would have taken (DIVE_SHARE of the time left), and then
 * go on without it (it ends by its own stop, on the bound search's
 * processor; ilp_dive_beside_join before the search).
 */
static void dive_beside_take(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_dive_beside *db)
{
	double t = util_now_s();
	int ended = ilp_dive_beside_wait(db, fmin(db->stop_by, t + DIVE_SHARE * fmax(0, c->deadline - t)));

	glp_printf("gpuplan-ilp: dive beside the chains from %.2f s: %s at the chains' end (%.2f s), waited %.2f s\n",
		   db->t_start - c->t0, ended ? "ended" : "still running, left", t - c->t0, util_now_s() - t);
	if (!ended)
		return;
	if (db->fixed)
		glp_printf("gpuplan-ilp: dive: objective %.2f unplaced %.0f; made concrete %.2f unplaced %.0f "
			   "(ended %.2f s)\n", db->doc, db->unplaced, db->fdoc, db->funplaced, db->t_end - c->t0);
	if (db->fixed)
		dive_take(pl, db->fixed, db->fobj);
	db->fixed = NULL;
}

/*
 * Phase 2a (ilp.c): a dive on the LP (ilp_dive), one more start, made
 * concrete and kept as pl->start when cheaper than another solver's plan there
 * (phase 0), which then joins the rounded plans.  Beside the chains
 * where it can be (ilp_dive_begin, dive_beside_take); else after the
 * chains: on one thread or in a starved run, which it does not delay (a
 * starved keyed chain cut short is completed with replicas left out;
 * beside them it takes the chains' processor, whose budget then drops
 * whole chains), within DIVE_SHARE of
 * the time left, when they left DIVE_LEFT of the limit; without a clock
 * (a node limit) to its end, on any number of threads; not on a sifted
 * model, whose LP is a working set's.
 */
void ilp_dive_take(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_dive_beside *db)
{
	double t = util_now_s(), obj = 0, *x, *fixed;

	if (db->t_start > 0) {	/* started beside the chains */
		dive_beside_take(c, pl, db);
		return;
	}
	if (pl->restricted || interrupt_pending() ||
	    (!isinf(c->deadline) && c->deadline - t < DIVE_LEFT * c->limit_s))
		return;
	x = ilp_dive(c, isinf(c->deadline) ? c->deadline : t + DIVE_SHARE * (c->deadline - t), &obj);
	if (!x)
		return;
	fixed = ilp_repair_vector(c, x);
	glp_printf("gpuplan-ilp: dive: objective %.2f unplaced %.0f; made concrete %.2f unplaced %.0f (%.2f s)\n",
		   ilp_vec_doc_obj(c, x), ilp_unplaced_sum(c->p, &c->cl, x), ilp_vec_doc_obj(c, fixed),
		   ilp_unplaced_sum(c->p, &c->cl, fixed), util_now_s() - t);
	free(x);
	dive_take(pl, fixed, ilp_vec_obj(c->P, fixed));
}

void ilp_dive_end(struct ilp_dive_beside *db)
{
	ilp_dive_beside_join(db);
	free(db->fixed);
	db->fixed = NULL;
}
