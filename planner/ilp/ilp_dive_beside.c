/*
 * ilp_dive_beside.c - the dive on the LP on a thread of its own, beside
 * the rounding chains (ilp_dive_beside.h).  The chains and the polish
 * read the whole model c->P from several threads already; the dive
 * does the same (its copy, ilp_dive, and the deal, ilp_repair_vector),
 * and builds its own GLPK objects on its own thread (one GLPK
 * environment per thread).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "par.h"
#include "util.h"
#include "ilp_dive.h"
#include "ilp_dive_beside.h"
#include "ilp_glpk.h"
#include "ilp_vec.h"
#include "banned.h"

enum dive_where ilp_dive_where(int restricted, int timed, int threads)
{
	if (restricted)
		return DIVE_NONE;
	if (!timed || threads < 2)
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
