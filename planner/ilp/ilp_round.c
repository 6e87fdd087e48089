/*
 * ilp_round.c - rounding the root LP into integer plans (relax and fix,
 * on a copy of the model), by class: the classes in batches, the
 * fullest first (the fewest nodes the LP leaves unused), so that what a
 * full class cannot take on whole configurations still finds room in
 * the classes rounded last; each class of a batch gets its own small
 * MIP (class_mip, ilp_sub.c), its counts are fixed and the LP re-solved
 * before the next batch; then the GPU totals are made integral
 * (round_gpus).  The replica flows of the last LP complete the integer
 * plan.  A chain of roundings (chain_step) makes each plan concrete and
 * rounds again with the CPU and RAM the deal could not use taken off
 * (struct shrink); ROUND_CHAINS chains run at once, batching the
 * classes differently, two of them with the node key sets' CPU and RAM
 * rows in their LP copies and class MIPs (ilp_key.c; chain_keys).  The
 * class MIPs of a batch run on par_run threads and the chains' rounds on
 * par_run_seq threads, each writing only its own result, taken in a
 * fixed order: the plan does not depend on the number of threads.  When
 * the clock stops the keyed chain's first rounding, which runs first,
 * it is completed in a reserve kept for it (ilp_complete.c), so that a
 * starved run still has an ILP plan.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_complete.h"
#include "ilp_glpk.h"
#include "ilp_key.h"
#include "ilp_pack.h"
#include "ilp_round.h"
#include "ilp_shrink.h"
#include "ilp_starts.h"
#include "ilp_sub.h"
#include "ilp_vec.h"
#include "banned.h"

/* The node key sets' CPU and RAM rows (ilp_key.c) in a rounding: */
enum {
	KEYS_ROWS = 1,		/* in the LP copy and the class MIPs */
	KEYS_FALLBACK = 2	/* a class MIP leaving replicas out is solved again without them */
};

/* Column values to fix once a batch of classes is solved. */
struct fix {
	int col;		/* the column */
	double val;		/* its value */
};

/* A growing list of them. */
struct fixes {
	struct fix *f;		/* [n] */
	size_t n, cap;		/* used; allocated */
};

static void fixes_add(struct fixes *fx, int col, double v)
{
	XGROW(fx->f, fx->cap, fx->n + 1);
	fx->f[fx->n].col = col;
	fx->f[fx->n].val = v;
	fx->n++;
}

/* How one rounding runs. */
struct round_how {
	size_t batch;		/* classes rounded at a time */
	int threads;		/* for the class MIPs */
	unsigned keys;		/* KEYS_ROWS, KEYS_FALLBACK */
	int deals;		/* deals kept for before c's deadline, when the batches stop (ilp_deal_tail each) */
	double stop_by;		/* util_now_s() time the batches stop by anyway (ilp_round_chains); HUGE_VAL: none */
	int complete;		/* a rounding the clock stops is completed (ilp_complete_counts) */
	int completed;		/* out: the rounding was completed */
};

/* A batch of class MIPs against the same LP (Q), one job per class. */
struct class_jobs {
	const struct ilp_ctx *c;	/* the whole model and the run's settings */
	glp_prob *Q;		/* the rounding's copy, its LP solved */
	struct shrink *sh;	/* each class writes only its own (class, mode) entries; NULL: none */
	int keyed;		/* the copy Q has the node key sets' CPU and RAM rows: so do the class MIPs */
	int fallback;		/* with keyed: a class MIP that leaves replicas out with them, without them when fewer */
	size_t *ks;		/* [job]: the class */
	struct fixes *fx;	/* [job]: its counts */
	int *rc;		/* [job]: class_mip's */
	size_t done;		/* classes rounded and fixed in Q, the first of the order (round_batches; for the log) */
	struct ilp_ctx *clock;	/* the batches' clock, c itself: its deadline set before each batch (batch_clock) */
	const struct ilp_ctx *whole;	/* the run's clock */
	const struct round_how *how;	/* the deals kept for and the stop */
	double *last;		/* NULL, or [column]: the last LP solved in Q (round_batches keeps it) */
};

/* Q's column values into x (1-based). */
static void lp_values(glp_prob *Q, double *x)
{
	int j, n = glp_get_num_cols(Q);

	for (j = 1; j <= n; j++)
		x[j] = glp_get_col_prim(Q, j);
}

/*
 * Class k's own MIP (ilp_sub_mip), against the LP solved in cj->Q: for the
 * replicas the LP gives k (q_d, the LP's flow of demand d into k), over
 * the arcs free in cj->Q.  (Leaving replicas at the dual price of their
 * demand, what the LP pays at the margin to place one more elsewhere,
 * was tried: the classes rounded first shed, and the last ones had no
 * room left; tens to hundreds of replicas ended unplaced on the
 * benchmark.)  Appends the class's node and configuration counts to fx.
 * Returns 0, or -1 when GLPK found no plan (fx untouched).
 */
static int class_mip(const struct class_jobs *cj, size_t k, struct fixes *fx)
{
	const struct problem *p = cj->c->p;
	const struct arcidx *ix = &cj->c->ix;
	const struct cols *cl = &cj->c->cl;
	glp_prob *Q = cj->Q;
	struct sub_mip_args sa;
	struct ilp_result got;
	double *q = xcalloc(p->ndemands + 1, sizeof(*q)), obj;
	char *use = xcalloc(p->narcs + 1, 1);
	size_t a, i, ci;
	int m, rc;

	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		i = ix->byk[a];
		if (glp_get_col_ub(Q, cl->arc[i]) > 0) {
			use[i] = 1;
			q[p->arcs[i].d] += glp_get_col_prim(Q, cl->arc[i]);
		}
	}
	ilp_result_alloc(p, &got);
	sa.ks = &k;
	sa.nk = 1;
	sa.q = q;
	sa.use = use;
	sa.start_x = NULL;
	sa.deep = 0;
	sa.cuts = 0;
	sa.worse = HUGE_VAL;
	sa.sh = cj->sh;
	sa.keyed = cj->keyed;
	sa.deadline = cj->c->deadline;
	rc = ilp_sub_mip(cj->c, &sa, &got, &obj);
	if (rc >= 0 && cj->fallback && ilp_result_unplaced(p, &got) > 0.5) {
		/* the key sets' rows keep replicas out: the class's MIP without them, when it leaves fewer */
		struct ilp_result plain;
		double pobj;
		ilp_result_alloc(p, &plain);
		sa.keyed = 0;
		if (ilp_sub_mip(cj->c, &sa, &plain, &pobj) >= 0 &&
		    ilp_result_unplaced(p, &plain) < ilp_result_unplaced(p, &got) - 0.5) {
			ilp_result_release(p, &got);
			got = plain;
		} else {
			ilp_result_release(p, &plain);
		}
	}
	if (rc >= 0) {
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m])
				fixes_add(fx, cl->n[k * MODE_COUNT + (size_t)m],
					  (double)got.nmode[k * MODE_COUNT + (size_t)m]);
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			fixes_add(fx, cl->g[k][ci], (double)got.ncfg[k][ci]);
		if (cl->nycol[k]) {	/* the node key columns: the nodes the counts need */
			double *x = xcalloc((size_t)cl->ncols + 1, sizeof(*x));
			for (ci = 0; ci < p->classes[k].nconfigs; ci++)
				x[cl->g[k][ci]] = (double)got.ncfg[k][ci];
			ilp_key_fill(p, cl, k, x);
			for (ci = 0; ci < cl->nycol[k]; ci++)
				fixes_add(fx, cl->ycol[k][ci], x[cl->ycol[k][ci]]);
			free(x);
		}
	}
	ilp_result_release(p, &got);
	free(use);
	free(q);
	return rc < 0 ? -1 : 0;
}

static _Thread_local const double *order_key; /* rounding chains run at once */

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (order_key[x] != order_key[y])
		return order_key[x] < order_key[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * The classes in the order they are rounded: the fullest first (the
 * fewest nodes the LP leaves unused), so that what rounding takes from
 * a full class can still go to the classes with room, rounded last.
 */
static size_t *slack_order(glp_prob *Q, const struct problem *p, const struct cols *cl)
{
	size_t *order = xcalloc(p->nclasses + 1, sizeof(*order)), k;
	double *key = xcalloc(p->nclasses + 1, sizeof(*key));
	int m;
	for (k = 0; k < p->nclasses; k++) {
		order[k] = k;
		key[k] = (double)p->classes[k].nc->count;
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m])
				key[k] -= glp_get_col_prim(Q, cl->n[k * MODE_COUNT + (size_t)m]);
	}
	order_key = key;
	qsort(order, p->nclasses, sizeof(*order), order_cmp);
	free(key);
	return order;
}

static void class_job(void *ctx, size_t j)
{
	struct class_jobs *cj = ctx;
	ilp_glpk_thread_hook(cj->c->verbose);
	cj->fx[j].n = 0;
	cj->rc[j] = class_mip(cj, cj->ks[j], &cj->fx[j]);
}

/*
 * When the next batch of cj's rounding must end: its deals' tails before
 * the run's deadline, and how->stop_by.  0 when that has passed.
 */
static int batch_clock(const struct class_jobs *cj)
{
	const struct round_how *how = cj->how;

	cj->clock->deadline = fmin(cj->whole->deadline - how->deals * ilp_deal_tail(cj->whole), how->stop_by);
	return ilp_ms_left(cj->clock->deadline) > 0;
}

/*
 * Step 1 of a rounding: each class's own MIP against the last LP of
 * cj->Q, a batch of classes at a time (in parallel, on threads), in
 * order; the batch's counts fixed (fx: a buffer) and the LP re-solved.
 * Returns NULL, or why it stopped.
 */
static const char *round_batches(struct class_jobs *cj, const size_t *order, size_t batch, int threads,
				 struct fixes *fx)
{
	const struct problem *p = cj->c->p;
	glp_prob *Q = cj->Q;
	size_t g0, f, t;
	int code;

	for (g0 = 0; g0 < p->nclasses; g0 += batch) {
		size_t b, nb = 0;
		if (cj->c->round_stop > 0 && g0 >= (size_t)(cj->c->round_stop - 1) * batch)
			return "out of time (the test hook's clock)";
		if (!batch_clock(cj))
			return "out of time";
		for (b = g0; b < g0 + batch && b < p->nclasses; b++)
			if (p->classes[order[b]].modes)
				cj->ks[nb++] = order[b];
		par_run(nb, threads, class_job, cj, ilp_glpk_thread_end);
		fx->n = 0;
		for (b = 0; b < nb; b++) {
			if (cj->rc[b])
				return "a class's MIP found no plan (out of time, or GLPK failed)";
			for (t = 0; t < cj->fx[b].n; t++)
				fixes_add(fx, cj->fx[b].f[t].col, cj->fx[b].f[t].val);
		}
		if (cj->sh)
			ilp_shrink_rows(Q, p, &cj->c->cl, cj->sh); /* what the batch's deals lost */
		for (f = 0; f < fx->n; f++)
			ilp_fix_col(Q, fx->f[f].col, fx->f[f].val);
		if (fx->n && ilp_simplex(Q, 0, cj->c->verbose, cj->c->deadline, &code) != LP_OPTIMAL)
			return "the LP with a batch of classes fixed was not solved";
		if (cj->last && fx->n)
			lp_values(Q, cj->last);
		cj->done = g0 + batch < p->nclasses ? g0 + batch : p->nclasses;
	}
	return NULL;
}

/*
 * Step 2 of a rounding: GPUS_k is integer; passthrough flows under
 * CPU/RAM rows may leave it fractional.  The first pass rounds to the
 * nearest, later ones down; fixing one total moves the flows and may
 * leave another fractional, so passes go on until none is (each fixes
 * at least one more).  Totals rounded up that the flows cannot reach
 * (CPU or RAM) are fixed down instead.  fx: a buffer.  Returns NULL, or
 * why it stopped.
 */
static const char *round_gpus(const struct ilp_ctx *c, glp_prob *Q, struct fixes *fx)
{
	const struct problem *p = c->p;
	size_t k, f;
	int code, pass;

	for (pass = 0; pass <= (int)p->nclasses && !ilp_all_integral(Q); pass++) {
		fx->n = 0;
		for (k = 0; k < p->nclasses; k++) {
			int col = c->cl.agg[2 * k + 1];
			double v = glp_get_col_prim(Q, col);
			if (fabs(v - floor(v + 0.5)) > 1e-6) {
				ilp_fix_col(Q, col, pass ? floor(v) : floor(v + 0.5));
				fixes_add(fx, col, floor(v));
			}
		}
		if (ilp_simplex(Q, 0, c->verbose, c->deadline, &code) == LP_OPTIMAL)
			continue;
		for (f = 0; f < fx->n; f++)
			ilp_fix_col(Q, fx->f[f].col, fx->f[f].val);
		if (ilp_simplex(Q, 0, c->verbose, c->deadline, &code) != LP_OPTIMAL)
			return "the LP with the GPU totals fixed was not solved";
	}
	return NULL;
}

/*
 * Rounds the LP solution of c->P into an integer plan (see the top of
 * the file), how->batch classes at a time, the class MIPs on
 * how->threads threads, with sh taken off the nodes when not NULL and
 * the node key sets' CPU and RAM rows in the copy when keyed.  The
 * batches stop how->deals deals before c's deadline, or at how->stop_by
 * (batch_clock); with how->complete a rounding they leave unfinished
 * then is completed (ilp_complete_counts) in that reserve.  Fills x
 * (1-based, every column) and *obj and returns 0, or -1 when there was no
 * time or an LP failed (logged).
 */
static int round_lp(const struct ilp_ctx *c, const struct shrink *sh, struct round_how *how, double *x,
		    double *obj)
{
	size_t batch = how->batch;
	const struct problem *p = c->p;
	glp_prob *Q = glp_create_prob();
	struct ilp_ctx bc = *c;	/* the batches' clock */
	struct shrink lsh;
	const char *why;
	size_t t, *order, ng = p->nclasses * MODE_COUNT;
	int j, ncols, rc = -1;
	struct fixes fx = { NULL, 0, 0 };
	struct class_jobs cj;

	memset(&cj, 0, sizeof(cj));
	cj.clock = &bc;
	cj.whole = c;
	cj.how = how;
	glp_copy_prob(Q, c->P, GLP_OFF);
	if (how->keys & KEYS_ROWS)
		ilp_key_res_all(Q, p, &c->ix, &c->cl);
	ncols = glp_get_num_cols(Q);
	order = slack_order(Q, p, &c->cl);
	/* this rounding's own shrink: sh, and what each class's deal loses */
	ilp_shrink_alloc(&lsh, ng);
	if (sh) {
		memcpy(lsh.cpu, sh->cpu, ng * sizeof(*lsh.cpu));
		memcpy(lsh.ram, sh->ram, ng * sizeof(*lsh.ram));
		ilp_shrink_rows(Q, p, &c->cl, sh);
	}
	cj.c = &bc;
	cj.Q = Q;
	cj.sh = sh ? &lsh : NULL;
	cj.keyed = (how->keys & KEYS_ROWS) != 0;
	cj.fallback = (how->keys & KEYS_FALLBACK) != 0;
	if (how->complete) {
		cj.last = xcalloc((size_t)ncols + 1, sizeof(*cj.last));
		lp_values(Q, cj.last);
	}
	cj.ks = xcalloc(batch + 1, sizeof(*cj.ks));
	cj.fx = xcalloc(batch + 1, sizeof(*cj.fx));
	cj.rc = xcalloc(batch + 1, sizeof(*cj.rc));
	why = round_batches(&cj, order, batch, how->threads, &fx);
	if (!why)
		why = round_gpus(&bc, Q, &fx);
	if (!why && !ilp_all_integral(Q))
		why = "the counts were still fractional";
	if (!why) {
		for (j = 1; j <= ncols; j++) {
			double v = glp_get_col_prim(Q, j);
			x[j] = glp_get_col_kind(Q, j) == GLP_IV ? floor(v + 0.5) : v;
		}
		*obj = glp_get_obj_val(Q);
		rc = 0;
	} else {
		glp_printf("gpuplan-ilp: rounding stopped: %s (%.2f s left; %zu of %zu classes rounded)\n", why,
			   ilp_ms_left(c->deadline) / 1000.0, cj.done, p->nclasses);
		if (how->complete && (c->round_stop > 0 || !ilp_ms_left(bc.deadline)) && !interrupt_pending()) {
			memcpy(x, cj.last, ((size_t)ncols + 1) * sizeof(*x));
			ilp_complete_counts(c, x, obj);
			how->completed = 1;
			rc = 0;
		}
	}
	free(cj.last);
	for (t = 0; t < batch; t++)
		free(cj.fx[t].f);
	free(cj.ks);
	free(cj.fx);
	free(cj.rc);
	ilp_shrink_free(&lsh);
	free(order);
	free(fx.f);
	glp_delete_prob(Q);
	return rc;
}

#define FEEDBACK_ROUNDS 4	/* roundings again, each with what the last deal lost */
/*
 * No feedback round starts when it would end past this share of the time
 * limit, by the chain's last round's wall time: on the largest fleets
 * a round takes a good part of the limit, and one started just before
 * the share would leave the polish little.  Nor a chain's first rounding
 * once another chain has a plan (round_wall): with fewer threads than
 * chains it starts only when another chain's round ends, and on a busy
 * machine it then ran to the limit and left the polish no time.
 */
#define FEEDBACK_SHARE 0.5
#define ROUND_CHAINS 3
/*
 * The chain whose LP copies carry the node key sets' CPU and RAM rows
 * (ilp_key_res_all): the mode's CPU row lets one key's replicas use
 * another key's CPU, and on fleets with many time-slice and MPS keys the
 * other chains' LPs round to plans whose deals lose replicas round after
 * round.  In all chains the rows moved plans both ways, so chain 0
 * stays without them; it batches like chain 0 and runs first
 * (chain_step).  Chain 1 carries them too (chain_keys).
 */
#define KEYED_CHAIN 2
/*
 * Deals a rounding keeps time for before the deadline (ilp_deal_tail
 * each, read again before every batch: the tail measured grows with the
 * deals made).  Every rounding's batches stop one deal before the limit,
 * since a rounding ended at the limit still has its deal to do; the
 * plan written after the solve has its own (ilp.c keeps it).  The keyed
 * chain's first rounding keeps three: when the clock stops it there it
 * is completed (ilp_complete.c), and the completed plan's deal and the
 * one with nodes given to what it left unplaced follow, with one spare
 * (the tail is a maximum measured so far, not a bound).  Only that
 * rounding is completed: it runs first, under a clock that short it is
 * the only one that gets time, and its plans are the ones whose deals
 * lose the least.
 */
#define COMPLETE_DEALS 3

/*
 * Chain j's node key sets' rows: the keyed chain's LP copies and class
 * MIPs carry them, and where a class's MIP with them leaves replicas out,
 * its MIP without them is taken when that leaves fewer; chain 1's too,
 * without that fallback; chain 0 has none.  In the class MIPs too: a
 * class MIP without them chose configurations whose keys the copy's rows
 * could not fill, so the rounding left replicas unplaced; and the
 * fallback keeps a class MIP from leaving a replica that only it could
 * take (docs/benchmarks.md, "node key rows in the class MIPs").
 */
static unsigned chain_keys(size_t j)
{
	if (j == KEYED_CHAIN)
		return KEYS_ROWS | KEYS_FALLBACK;
	return j == 1 ? KEYS_ROWS : 0;
}

/*
 * The classes per batch of chain j's roundings: the classes in 8 batches,
 * and in 12 (fewer when that gives the same batch size: with 16 classes
 * or fewer, one class more or fewer per batch).  The feedback does not
 * settle: round after round the plans made concrete scatter around the
 * same cost (at L, 19.33M to 19.52M over eight rounds), so each round is
 * in effect one more draw, and two chains that batch the classes
 * differently draw twice as often on two threads, where one chain's LP
 * re-solves, which are sequential, left the second processor idle.
 */
static size_t chain_batch(size_t nclasses, size_t j)
{
	size_t b0 = (nclasses + 7) / 8, b1 = (nclasses + 11) / 12;
	if (j != 1)
		return b0;
	if (b1 == b0)
		b1 = b0 > 1 ? b0 - 1 : b0 + 1;
	return b1;
}

/* A round of a chain, for the log. */
struct chain_round {
	double obj, unplaced;	/* the rounded plan's, in counts */
	double fobj, funplaced;	/* made concrete */
	double t_deal, t_end;	/* the deal's time; when the round ended (from t0) */
	double t_cpu;		/* the round's CPU seconds on the chain's thread (its class MIPs' too on one thread) */
};

/* One chain of roundings: its own shrink, its rounds, and their plans made concrete. */
struct chain {
	struct shrink sh;	/* what its deals lost so far */
	double *made[FEEDBACK_ROUNDS + 1]; /* [round]: its plan made concrete (NULL: none) */
	int best;		/* the round of the cheapest, -1: none */
	double best_obj;	/* what it costs */
	struct chain_round log[FEEDBACK_ROUNDS + 1]; /* [round] */
	int nrounds;		/* rounds done */
	int cut;		/* stopped by FEEDBACK_SHARE */
	int stale;		/* stopped: its last round was no cheaper than its best */
	double t_last;		/* its last round's wall time */
};

/* The chains of ilp_round_chains, one sequence of rounds each. */
struct chain_jobs {
	const struct ilp_ctx *ctx;	/* the whole model and the run's settings */
	int threads;		/* for each chain's class MIPs */
	double stop_by;		/* ilp_round_chains's */
	struct chain *ch;	/* [chain] */
	pthread_mutex_t lock;	/* guards what follows, which every chain's thread writes */
	double first_cpu;	/* the first roundings ended with a plan: their thread CPU seconds, summed */
	int nfirst;		/* and how many */
	double wall_per_cpu;	/* the wall seconds a CPU second took in the round that ended last */
	size_t job0;		/* the chain of job 0, less KEYED_CHAIN (ilp_round_chains: 1 once the keyed chain ran alone) */
	int alone;		/* ilp_round_chains's: starved, one rounding a chain */
};

/*
 * The wall seconds round fb of chain c is expected to take, for
 * FEEDBACK_SHARE: a feedback round, the chain's last round's; a chain's
 * first rounding, once another chain's ended with a plan, the thread CPU
 * seconds the first roundings took (a measure of their work that the load
 * does not change), on average, times the wall seconds a CPU second took
 * in the round that ended last (the share of a processor a chain's thread
 * gets now); 0 before (some chain must round: it runs).
 */
static double round_wall(struct chain_jobs *cj, const struct chain *c, int fb)
{
	double t = 0;

	if (fb)
		return c->t_last;
	pthread_mutex_lock(&cj->lock);
	if (cj->nfirst > 0)
		t = cj->first_cpu / cj->nfirst * cj->wall_per_cpu;
	pthread_mutex_unlock(&cj->lock);
	return t;
}

/* Round fb of a chain ended with a plan, in wall and thread CPU seconds: for round_wall. */
static void round_ended(struct chain_jobs *cj, int fb, double wall, double cpu)
{
	if (!(cpu > 0))
		return;
	pthread_mutex_lock(&cj->lock);
	if (fb == 0) {
		cj->first_cpu += cpu;
		cj->nfirst++;
	}
	cj->wall_per_cpu = wall / cpu;
	pthread_mutex_unlock(&cj->lock);
}

/*
 * Round fb of chain j (a step of par_run_seq, which runs the chains'
 * rounds side by side, evenly when there are fewer threads than chains,
 * the keyed chain first: on the largest fleets its plans are the only
 * ones whose deals lose almost nothing, and run after the others it
 * got one round): rounding, its deal over real nodes; again, with what the
 * deal lost taken off, until a round fails, a deal loses
 * nothing, a round made concrete is no cheaper than the chain's best so
 * far, FEEDBACK_ROUNDS are done or a round would end past
 * FEEDBACK_SHARE of the time limit (round_wall; a chain's first rounding
 * too, once another chain has a plan).  The stop on a round no cheaper
 * leaves that time to the polish, which gains more in it than the
 * chain's next draws do (docs/benchmarks.md); it
 * depends on the chain's own rounds only, so it is as deterministic as
 * they are.  A starved run (ilp_round_chains's alone) rounds each chain
 * once (chains_run).
 */
static int chain_step(void *ctx, size_t job, int fb)
{
	struct chain_jobs *cj = ctx;
	const struct ilp_ctx *ic = cj->ctx;
	size_t j = (job + cj->job0 + KEYED_CHAIN) % ROUND_CHAINS;
	struct chain *c = &cj->ch[j];
	const struct cols *cl = &ic->cl;
	struct chain_round *lg = &c->log[fb];
	struct round_how how;
	double *x, obj, *fixed, t_start = util_now_s();
	int more;

	if (interrupt_pending())
		return 0;
	if (t_start - ic->t0 + round_wall(cj, c, fb) > FEEDBACK_SHARE * ic->limit_s) {
		c->cut = 1;
		return 0;
	}
	ilp_glpk_thread_hook(ic->verbose);
	x = xcalloc((size_t)cl->ncols + 1, sizeof(*x));
	lg->t_cpu = util_thread_cpu_s();
	how.batch = chain_batch(ic->p->nclasses, j);
	how.threads = cj->threads;
	how.keys = chain_keys(j);
	how.complete = j == KEYED_CHAIN && fb == 0;
	how.completed = 0;
	how.deals = how.complete ? COMPLETE_DEALS : 1;
	how.stop_by = cj->stop_by;
	if (round_lp(ic, fb ? &c->sh : NULL, &how, x, &obj)) {
		free(x);
		return 0;
	}
	lg->t_deal = util_now_s();
	fixed = ilp_repair_vector(ic, x);
	lg->t_deal = util_now_s() - lg->t_deal;
	/*
	 * its replicas left unplaced get nodes, when there is time for one
	 * more deal as long as this one, its completion included (else that
	 * deal ran past the limit; the caller keeps the plan written's deal
	 * after the deadline).  A deal's whole tail, five greedy passes, was
	 * more than a starved run had left, and this rounding was its only
	 * plan.
	 */
	if (how.completed && ilp_unplaced_sum(ic->p, cl, fixed) > 0.5 && ilp_ms_left(ic->deadline - lg->t_deal) > 0) {
		lg->fobj = ilp_vec_obj(ic->P, fixed);
		fixed = ilp_complete_room(ic, x, &obj, fixed, &lg->fobj);
	}
	lg->obj = obj;
	lg->unplaced = ilp_unplaced_sum(ic->p, cl, x);
	lg->fobj = ilp_vec_obj(ic->P, fixed);
	lg->funplaced = ilp_unplaced_sum(ic->p, cl, fixed);
	lg->t_end = util_now_s() - ic->t0;
	c->t_last = util_now_s() - t_start;
	lg->t_cpu = util_thread_cpu_s() - lg->t_cpu;
	round_ended(cj, fb, c->t_last, lg->t_cpu);
	c->nrounds = fb + 1;
	more = ilp_shrink_add(ic->p, cl, x, fixed, &c->sh);
	c->stale = c->best >= 0 && lg->fobj >= c->best_obj - 1e-6;
	c->made[fb] = fixed;
	if (!c->stale) {
		c->best = fb;
		c->best_obj = lg->fobj;
	}
	free(x);
	return more && !c->stale && fb < FEEDBACK_ROUNDS && !cj->alone;
}

/* Chain c's plan of round fb made concrete, taken out of the chain (the caller frees it). */
static double *chain_take(struct chain *c, int fb)
{
	double *x = c->made[fb];

	c->made[fb] = NULL;
	return x;
}

/* A round's plan made concrete, a candidate start for more polishing. */
struct round_plan {
	size_t j;		/* its chain */
	int fb;			/* its round */
	double obj;		/* what it costs */
};

static int round_plan_cmp(const void *a, const void *b)
{
	const struct round_plan *x = a, *y = b;
	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->j != y->j)
		return x->j < y->j ? -1 : 1;
	return (x->fb > y->fb) - (x->fb < y->fb);
}

/*
 * The chains' plans into more, taken out of ch: chain a's cheapest first
 * (a: ROUND_CHAINS for none), then the rounds' other plans that place
 * every replica made concrete, the cheapest first, each at a cost that
 * neither best_obj nor a plan listed before has, up to ROUND_STARTS.
 * (Polishing plans that leave replicas out was time lost: they ended far
 * above the first start's polish, and the branch-and-cut that would
 * have had that time finds much cheaper plans.)
 */
static void round_more(struct chain *ch, size_t a, double best_obj, struct round_starts *more)
{
	struct round_plan rp[ROUND_CHAINS * (FEEDBACK_ROUNDS + 1)];
	double seen[ROUND_STARTS + 1];
	size_t n = 0, i, j, nseen = 1;
	int fb;

	seen[0] = best_obj;
	memset(more, 0, sizeof(*more));
	more->alt = a < ROUND_CHAINS;
	if (a < ROUND_CHAINS) {
		more->x[0] = chain_take(&ch[a], ch[a].best);
		more->obj[0] = seen[nseen++] = ch[a].best_obj;
		more->n = 1;
	}
	for (j = 0; j < ROUND_CHAINS; j++)
		for (fb = 0; fb < ch[j].nrounds; fb++)
			if (ch[j].made[fb] && ch[j].log[fb].funplaced < 0.5) {
				rp[n].j = j;
				rp[n].fb = fb;
				rp[n].obj = ch[j].log[fb].fobj;
				n++;
			}
	qsort(rp, n, sizeof(*rp), round_plan_cmp);
	for (i = 0; i < n && more->n < ROUND_STARTS; i++) {
		if (ilp_same_cost(seen, nseen, rp[i].obj))
			continue;
		more->x[more->n] = chain_take(&ch[rp[i].j], rp[i].fb);
		more->obj[more->n++] = seen[nseen++] = rp[i].obj;
	}
}

int ilp_round_keyed_alone(double cpu, double wall, int threads, int timed)
{
	return timed && threads >= 2 && wall >= ROUND_STARVED_WALL && cpu < ROUND_STARVED_RATE * wall;
}

/*
 * The chains' rounds (chain_step) on par_run_seq: all three side by side;
 * or, alone (ilp_round_keyed_alone), the keyed chain first, alone, its
 * class MIPs on every thread, then the other two, whose first roundings
 * round_wall then rules out when they would end past FEEDBACK_SHARE;
 * and no chain rounds again with feedback: starved, a feedback round
 * took as long as the first rounding and was no cheaper made concrete,
 * and the polish had that time the less.
 */
static void chains_run(struct chain_jobs *cj, int threads, int alone)
{
	/* each chain's class MIPs get their share of the threads (the plans do not depend on it) */
	cj->threads = threads > ROUND_CHAINS ? threads / ROUND_CHAINS : 1;
	cj->job0 = 0;
	if (!alone) {
		par_run_seq(ROUND_CHAINS, threads, chain_step, cj, ilp_glpk_thread_end);
		return;
	}
	cj->threads = threads;
	par_run_seq(1, threads, chain_step, cj, ilp_glpk_thread_end);
	cj->threads = threads > ROUND_CHAINS ? threads / ROUND_CHAINS : 1;
	cj->job0 = 1;
	par_run_seq(ROUND_CHAINS - 1, threads, chain_step, cj, ilp_glpk_thread_end);
}

double *ilp_round_chains(const struct ilp_ctx *ctx, double *best_obj, double stop_by, int alone,
			 struct round_starts *more)
{
	const struct problem *p = ctx->p;
	int threads = ctx->threads;
	size_t ng = p->nclasses * MODE_COUNT, j, pj = ROUND_CHAINS, bj;
	struct chain ch[ROUND_CHAINS];
	struct chain_jobs cj;
	double *best = NULL;
	int fb;

	memset(ch, 0, sizeof(ch));
	for (j = 0; j < ROUND_CHAINS; j++) {
		ilp_shrink_alloc(&ch[j].sh, ng);
		ch[j].best = -1;
	}
	cj.ctx = ctx;
	cj.stop_by = stop_by;
	cj.alone = alone;
	cj.ch = ch;
	cj.first_cpu = cj.wall_per_cpu = 0;
	cj.nfirst = 0;
	pthread_mutex_init(&cj.lock, NULL);
	if (ctx->pack)	/* the roundings' deals pack within their share too: the rest is the polish's */
		ctx->pack->stop_by = stop_by;
	chains_run(&cj, threads, alone);
	pthread_mutex_destroy(&cj.lock);
	if (ctx->pack)
		ctx->pack->stop_by = HUGE_VAL;
	for (j = 0; j < ROUND_CHAINS; j++) {
		struct chain *c = &ch[j];
		for (fb = 0; fb < c->nrounds; fb++) {
			const struct chain_round *lg = &c->log[fb];
			glp_printf("gpuplan-ilp: chain %zu (%zu classes a batch), rounding %d: objective %.2f unplaced %.0f; "
				   "made concrete %.2f unplaced %.0f (deal %.2f s; %.2f s; thread CPU %.2f s)\n", j,
				   chain_batch(p->nclasses, j), fb, lg->obj, lg->unplaced, lg->fobj, lg->funplaced, lg->t_deal,
				   lg->t_end, lg->t_cpu);
		}
		if (c->cut && c->nrounds)
			glp_printf("gpuplan-ilp: chain %zu: no feedback round %d: it would end past %.0f%% of the time limit, left to "
				   "the polish\n", j, c->nrounds, 100 * FEEDBACK_SHARE);
		else if (c->cut)
			glp_printf("gpuplan-ilp: chain %zu: no rounding: by the CPU the other chains' took and the share of it the "
				   "threads get, it would end past %.0f%% of the time limit, left to the polish\n", j,
				   100 * FEEDBACK_SHARE);
		if (c->stale && c->nrounds <= FEEDBACK_ROUNDS)
			glp_printf("gpuplan-ilp: chain %zu: no feedback round %d: round %d was no cheaper than the chain's "
				   "best, left to the polish\n", j, c->nrounds, c->nrounds - 1);
		if (c->best >= 0 && j != KEYED_CHAIN && (pj == ROUND_CHAINS || c->best_obj < ch[pj].best_obj - 1e-6))
			pj = j;
		ilp_shrink_free(&c->sh);
	}
	/* the keyed chain's plan first when cheaper, the other chains' cheapest then the first of the other starts */
	bj = pj;
	if (ch[KEYED_CHAIN].best >= 0 && (pj == ROUND_CHAINS || ch[KEYED_CHAIN].best_obj < ch[pj].best_obj - 1e-6))
		bj = KEYED_CHAIN;
	if (bj < ROUND_CHAINS) {
		best = chain_take(&ch[bj], ch[bj].best);
		*best_obj = ch[bj].best_obj;
	}
	round_more(ch, bj == KEYED_CHAIN ? pj : ROUND_CHAINS, best ? *best_obj : HUGE_VAL, more);
	for (j = 0; j < ROUND_CHAINS; j++)
		for (fb = 0; fb <= FEEDBACK_ROUNDS; fb++) {
			const struct chain_round *g = &ch[j].log[fb];	/* a plan not taken (NULL past nrounds) */
			ilp_lossy_offer(&more->lossy, &ch[j].made[fb], g->fobj, g->funplaced, g->obj, g->unplaced);
			free(ch[j].made[fb]);
		}
	return best;
}

