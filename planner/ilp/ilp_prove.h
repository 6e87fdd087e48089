/*
 * ilp_prove.h - the proven lower bound (ilp_prove.c): a
 * best-bound branch-and-bound on a copy of the model that branches on
 * the costliest node counts first, run beside the search for plans; and
 * that branching rule, which the search for plans uses too.
 */
#ifndef PLANNER_ILP_PROVE_H
#define PLANNER_ILP_PROVE_H

#include <stdatomic.h>

#include "ilp_model.h"

/*
 * The branching priority of every column of c->P ([1 .. ncols], to free):
 * a class's nodes (NODES_k) before its nodes per mode before its GPUs in
 * use (GPUS_k) before the rest, and within each tier the costlier node
 * first.
 */
double *ilp_branch_prio(const struct ilp_ctx *c);
/*
 * At GLP_IBRANCH: branches on the column GLPK may branch on whose
 * priority times its distance to an integer (plus 0.01) is largest; does
 * nothing when there is none (GLPK then chooses).
 */
void ilp_branch_pick(glp_tree *T, const double *prio);

/* One run of the bound search and what it found. */
struct ilp_prove {
	const struct problem *p;	/* the problem (read only) */
	const struct arcidx *ix;	/* its arcs by class (read only) */
	const double *start;	/* a plan of the model (1-based) to prune with, or NULL (read only) */
	long node_limit;	/* stop after this many nodes; 0: none */
	double deadline;	/* util_now_s() to stop at; HUGE_VAL: none */
	atomic_int stop;	/* set by ilp_prove_wait: stop now */
	atomic_int finish;	/* set by ilp_prove_finish: stop once bound >= enough */
	atomic_int rounded;	/* set by ilp_prove_rounded: the search for plans has its rounded plans */
	atomic_int hold;	/* set by ilp_prove_hold: hold off (sleep) until it is cleared */
	double enough;		/* the bound that proves the plan (set before finish) */
	double finish_by;	/* util_now_s() to stop at once finish is set */
	double bound;		/* out: the best proven lower bound of the model */
	int have_bound;		/* out: bound is set */
	long nodes;		/* out: branch-and-bound nodes */
	/*
	 * out: each tree's best plan of the model (1-based columns,
	 * malloc'd; ilp_prove_free), or NULL: [0] the tree without the node
	 * patterns, [1] the one with them (ilp_prove.c)
	 */
	double *x[2];
	double x_obj[2];	/* out: what each costs on the model */
	struct par_task *task;	/* the thread running it (ilp_prove_start), or NULL */
	/* Its pace beside the search for plans (prove_pace): set on its own thread only. */
	int beside;		/* runs on a thread of its own, beside the search for plans */
	double pace_wall;	/* util_now_s() at the start of the window the rate is measured over */
	double pace_cpu;	/* the thread's CPU seconds then */
	double pace_slept;	/* seconds slept since then */
	double mark;		/* util_now_s() when it last woke, or a window ended */
	double win_cpu;		/* the last window's CPU seconds ... */
	double win_wall;	/* ... over its wall seconds awake (0: no window yet) */
	double rate;		/* out: the lowest rate a window measured (1 before any) */
	double slept;		/* out: the seconds it gave up to the search for plans */
	double held;		/* out: the seconds it held off for ilp_prove_hold */
};

/*
 * The bound search beside the search for plans yields the processor while
 * its thread gets less than this share of one (its CPU seconds over the
 * wall seconds it was not asleep, in windows of PROVE_RATE_WALL s):
 * PROVE_YIELD seconds asleep for each second it works, until the search
 * for plans has its rounded plans (ilp_prove_rounded) or ends
 * (ilp_prove_finish), or the machine has the CPU again.
 */
#define PROVE_STARVED_RATE 0.5
#define PROVE_RATE_WALL 1.0
#define PROVE_YIELD 3.0
/*
 * The seconds the bound search beside the search for plans sleeps after
 * working `work` wall seconds, when a window gave it `cpu` CPU seconds in
 * `wall` wall seconds awake: PROVE_YIELD * work when that rate is below
 * PROVE_STARVED_RATE, else 0.  A pure function of its arguments.
 */
double ilp_prove_yield_s(double cpu, double wall, double work);

/*
 * Sets pv up for c's problem: start, node limit and deadline as given
 * (start must stay valid until the run ends), nothing found yet.
 */
void ilp_prove_init(struct ilp_prove *pv, const struct ilp_ctx *c, const double *start, long node_limit,
		    double deadline);
/*
 * Runs the search on the caller's thread: builds the whole model afresh
 * (its own glp_prob: GLPK's objects belong to the thread that made them),
 * solves its LP and branches until the tree is done, the node limit, the
 * deadline, stop or an interrupt; sets pv->bound: the least bound of its
 * open nodes (no higher than its best plan), a lower bound of the model
 * and so of every plan (the model relaxes the real nodes' CPU and RAM).
 * A model that ilp_root_sifts is not branched on: its bound is its LP
 * with the node key rows and the cuts, by sifting.  Deterministic under
 * a node limit with no deadline or stop.
 */
void ilp_prove_run(struct ilp_prove *pv);
/* Runs ilp_prove_run on a thread of its own; ilp_prove_wait stops it and waits. */
void ilp_prove_start(struct ilp_prove *pv);
void ilp_prove_wait(struct ilp_prove *pv);
/*
 * Lets the thread run on until its bound reaches enough (the bound that
 * proves the plan in hand), its tree ends or util_now_s() reaches by
 * (or its deadline), and waits for it.
 */
void ilp_prove_finish(struct ilp_prove *pv, double enough, double by);
/*
 * ilp_prove_run on the caller's thread until its bound reaches enough
 * (the bound that proves the plan in hand), its tree ends, the node
 * limit or util_now_s() reaches by: where there is no thread to spare,
 * the bound search runs after the search for plans, in the time kept
 * for it (ilp.c).
 */
void ilp_prove_until(struct ilp_prove *pv, double enough, double by);
/*
 * The search for plans has its rounded plans (in a starved run, ilp.c:
 * their first polish ended): from now on the bound search beside it
 * keeps its pace (prove_pace in ilp_prove.c), whatever share of a
 * processor it gets.
 */
void ilp_prove_rounded(struct ilp_prove *pv);
/*
 * The bound search beside the search for plans (on a thread of its own)
 * holds off from now, asleep between the nodes of its tree, until the
 * flag returned is cleared (atomic_store of 0), it is stopped or its
 * deadline passes: the dive beside the roundings (ilp_dive_beside.h)
 * takes its processor meanwhile, not the roundings'.
 */
atomic_int *ilp_prove_hold(struct ilp_prove *pv);
/* Frees what a run left in pv (its plan). */
void ilp_prove_free(struct ilp_prove *pv);

#endif
