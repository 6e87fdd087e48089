/*
 * internal/ilp_model.h - the aggregated model in GLPK (its columns and
 * rows, built by ilp_model.c) and struct ilp_ctx, the state every part
 * of the solve shares.
 *
 * The ILP is split by job (see the top of ilp.c for the phases):
 *   ilp.c         ilp_solve: the phases in order
 *   ilp_result.c  status names, the result's count arrays
 *   ilp_model.c   the model: columns, rows, export (.mps/.lp)
 *   ilp_glpk.c    GLPK call wrappers: terminal hooks, time left, simplex
 *   ilp_bound.c   the root LP (sifting): the lower bound
 *   ilp_vec.c     plans as column vectors, made concrete
 *   ilp_pack.c    a class the deal leaves short, packed exactly (one-node model copies)
 *   ilp_shrink.c  CPU and RAM a deal lost, taken off nodes
 *   ilp_sub.c     the MIP of one or two classes (rounding and polish)
 *   ilp_round.c   rounding chains
 *   ilp_polish.c  the polish, two classes at a time
 *   ilp_search.c  branch-and-cut
 *   ilp_prove.c   the proven bound: branch-and-bound, costliest node counts first
 *   ilp_pattern.c the node patterns of single-GPU classes, for the proven bound
 * <glpk.h> is included here, for the solve's ilp parts only: every one
 * of them works on a glp_prob.  The public ilp.h does not include it.
 */
#ifndef PLANNER_ILP_MODEL_H
#define PLANNER_ILP_MODEL_H

#include <glpk.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "outfile.h"
#include "problem.h"

/* Column numbers of the model (1-based, 0 = absent). */
struct cols {
	int *n;			/* [k * MODE_COUNT + m] */
	int **g;		/* [k][config] */
	int *arc;		/* [arc] */
	int *u;			/* [demand] unplaced */
	int *agg;		/* [2k]: NODES_k, [2k + 1]: GPUS_k */
	int *cpu_row, *ram_row;	/* [k * MODE_COUNT + m]: the CPU and RAM rows, 0 = none */
	int *avail_row;		/* [k]: the row of class k's nodes (at most its count), 0 = none */
	int **key;		/* [k][config]: the column of nodes of its node key (problem.h), 0 = none */
	int **ycol;		/* [k][0 .. nycol[k]): class k's node key columns */
	size_t *nycol;
	/*
	 * [k][0 .. nkarc[k]): class k's arcs into a slot type that only
	 * configurations of node keys offer, and the set of those keys
	 * (kmask: bit y for ycol[k][y]): their replicas run on those keys'
	 * nodes (ilp_key.c).
	 */
	size_t **karc;
	uint64_t **kmask;
	size_t *nkarc;
	int ncols;		/* columns in the model */
};

/* Arcs grouped by class, then slot type, then demand: byk[kstart[k] .. kstart[k+1]). */
struct arcidx {
	size_t *byk;		/* [position]: the arc */
	size_t *kstart;		/* [k]: class k's first position; [nclasses + 1] */
	size_t *pos;		/* [arc]: its position (byk[pos[i]] == i) */
};

/*
 * CPU and RAM to take off each node of a (class, mode) when rounding
 * ([k * MODE_COUNT + m]): what dealing the last rounded plan over real
 * nodes could not use there.  The LP bound never sees it.
 */
struct shrink {
	double *cpu, *ram;	/* [k * MODE_COUNT + m] */
};

/*
 * What every part of one ilp_solve reads: the whole model and the run's
 * settings.  Built once by ilp_solve; read-only for the parts (the
 * threads of par_run share it), except that the main thread frees arcs
 * of P (ilp_admit_arcs) between phases.
 */
struct ilp_ctx {
	glp_prob *P;		/* the whole model */
	const struct problem *p;	/* what it models */
	struct arcidx ix;	/* p's arcs by class */
	struct cols cl;		/* P's columns */
	int threads;		/* for par_run, >= 1 */
	int verbose;		/* ilp_opts.verbose */
	double t0;		/* when ilp_solve started (util_now_s) */
	double limit_s;		/* the time limit, seconds */
	double deadline;	/* t0 + limit_s */
	struct ilp_pack *pack;	/* deals pack short classes exactly (ilp_pack.c); NULL: not */
};

/* One row being assembled; pos maps a column to its place in the row (0: absent). */
struct rowbuf {
	int *ind;		/* [1 .. len]: columns */
	double *val;		/* [1 .. len]: coefficients */
	int len, cap;		/* entries; allocated */
	int *pos;		/* [ncols + 1] */
};

/* The rows of a model being built: where they go and what they refer to. */
struct ilp_rows {
	glp_prob *P;		/* the model the rows are added to */
	const struct problem *p;
	const struct arcidx *ix;
	const struct cols *cl;	/* P's columns (0: not in P, left out) */
	struct rowbuf *rb;	/* the row being assembled */
};

/* Adds v to column col's coefficient in rb (col 0: not in the model, nothing). */
void ilp_rb_add(struct rowbuf *rb, int col, double v);
/* Adds rb as a row of P (name, GLP_UP/GLP_FX/..., lo, hi) and empties rb. */
void ilp_add_row(glp_prob *P, struct rowbuf *rb, const char *name, int type, double lo, double hi);
/* Frees rb's arrays. */
void ilp_rb_free(struct rowbuf *rb);
/* Adds a column to P (fixed when hi <= lo); returns its number. */
int ilp_add_col(glp_prob *P, const char *name, int integer, double lo, double hi, double cost);

/* Fills ix for p (ilp_arcidx_release frees it).  Not reentrant: the main thread only. */
void ilp_arcidx_build(struct arcidx *ix, const struct problem *p);
void ilp_arcidx_release(struct arcidx *ix);
/* Allocates cl's arrays for p (all columns absent); ilp_cols_free frees them (when allocated). */
void ilp_cols_alloc(const struct problem *p, struct cols *cl);
void ilp_cols_free(const struct problem *p, struct cols *cl);

/*
 * The node key columns of class k (ilp_key.c; problem.h, config.node_key)
 * and the arcs their CPU and RAM rows sum (cols.karc); after its
 * configuration columns.
 */
void ilp_key_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k);
/* The node key rows of class k (ilp_key.c): a key's GPUs on its nodes, a mode's key nodes among its nodes. */
void ilp_key_rows(const struct ilp_rows *w, size_t k);
/*
 * The node key sets' CPU and RAM rows of class k (ilp_key.c): the
 * replicas on slot types of a set of keys within those keys' nodes.
 */
void ilp_key_res_rows(const struct ilp_rows *w, size_t k);
/* Adds the node columns (one per mode) and configuration columns of class k to P. */
void ilp_class_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k);
/*
 * Sets class k's node key columns in x (a plan as a column vector, its
 * configuration columns set) to the fewest nodes that hold each key's
 * GPUs: what any concrete plan keeping the rule has at least.
 */
void ilp_key_fill(const struct problem *p, const struct cols *cl, size_t k, double *x);
/* Adds the column of arc i to P. */
void ilp_arc_col(glp_prob *P, const struct problem *p, struct cols *cl, size_t i);
/* Adds the aggregate columns of class k (NODES_k, GPUS_k) to P. */
void ilp_agg_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k);
/*
 * Adds the rows of class k to w->P: nodes, GPUs per mode, slots, CPU
 * and RAM (less what sh takes off each node, when not NULL), lone
 * replicas; records the nodes, CPU and RAM rows in w->cl (which it
 * writes).
 */
void ilp_class_rows(const struct ilp_rows *w, size_t k, const struct shrink *sh);

/*
 * Builds the whole model of p into P (empty), its columns into cl
 * (allocated here).  Without the node key sets' CPU and RAM rows: the
 * exported model (ilp_write_model) and the keyed rounding chain's copies
 * (ilp_round.c) add them (ilp_key_res_all).
 */
void ilp_build(glp_prob *P, const struct problem *p, const struct arcidx *ix, struct cols *cl);
/* Adds every class's node key sets' CPU and RAM rows (ilp_key_res_rows) to Q, a copy of the whole model (cl's). */
void ilp_key_res_all(glp_prob *Q, const struct problem *p, const struct arcidx *ix, const struct cols *cl);
/*
 * Writes the whole model c->P with every class's node key sets' CPU and RAM
 * rows (ilp_key_res_all: valid for every concrete plan, so the exported
 * model is tighter than the one the bound and the branch-and-cut use,
 * and still a relaxation of the plans gpuplan can report) for path (.mps
 * or .lp, by its suffix) into a temporary file staged in st
 * (base/outfile.h), renamed into place only by outstage_commit once the
 * whole run succeeded; fails with d filled (and nothing left behind).
 */
int ilp_write_model(const struct ilp_ctx *c, const char *path, struct outstage *st, struct diag *d);
/*
 * The model ilp_write_model exports, as a new problem with names: c->P's
 * columns first, then the node key columns and rows (caller deletes it).
 * plan --start reads another solver's plan of it (ilp_start.c).
 */
glp_prob *ilp_export_copy(const struct ilp_ctx *c);

#endif
