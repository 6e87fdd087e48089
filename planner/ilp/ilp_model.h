/*
 * ilp_model.h - the aggregated model in GLPK (its columns and rows,
 * built by ilp_model.c) and struct ilp_ctx, the state every part of the
 * solve shares.
 *
 * The ILP is split by job (see the top of ilp.c for the phases):
 *   ilp.c         ilp_solve: the phases in order
 *   ilp_result.c  status names, the result's count arrays
 *   ilp_cols.c    column maps, arcs by class, row assembly
 *   ilp_key.c     the node key columns and rows
 *   ilp_model.c   the model: columns, rows, export (.mps/.lp)
 *   ilp_glpk.c    GLPK call wrappers: terminal hooks, time left, simplex
 *   ilp_bound.c   the root LP (sifting): the lower bound
 *   ilp_vec.c     plans as column vectors, made concrete
 *   ilp_pack.c    a class the deal leaves short, packed exactly (one-node model copies)
 *   ilp_one_node.c a class's one-node model (the packer's copies, colgen's pricing)
 *   ilp_shrink.c  CPU and RAM a deal lost, taken off nodes
 *   ilp_sub.c     the MIP of one or two classes (rounding and polish)
 *   ilp_round.c   rounding chains
 *   ilp_polish.c  the polish, two classes at a time
 *   ilp_search.c  branch-and-cut
 *   ilp_prove.c   the proven bound: branch-and-bound, costliest node counts first
 *   ilp_pattern.c the node patterns of single-GPU classes, for the proven bound
 *   ilp_colgen.c  whole-node patterns by column generation (plan --colgen-seconds; off)
 */
#ifndef PLANNER_ILP_MODEL_H
#define PLANNER_ILP_MODEL_H

#include "diag.h"
#include "ilp_cols.h"
#include "outfile.h"
#include "problem.h"

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
	double cpu0;		/* the opening thread's CPU seconds then (util_thread_cpu_s) */
	double limit_s;		/* the time limit, seconds */
	double deadline;	/* t0 + limit_s */
	struct ilp_pack *pack;	/* deals pack short classes exactly (ilp_pack.c); NULL: not */
	double deal_s;		/* ilp_opts.deal_s */
	/*
	 * Test hook, as struct deadline's expire_polls: n > 0, the rounding's
	 * clock runs out once n - 1 batches are rounded (1: before the first);
	 * 0: the clock alone.
	 */
	int round_stop;
};

struct ilp_opts;

/*
 * Opens c for p under o: its clock (t0; a node limit is no deadline at
 * all, ilp_ms_left then gives GLPK its largest tm_lim), GLPK's thread
 * hook, the shared whole model P (empty) and p's arc index.  The caller
 * sets threads and the deadline and builds P (ilp_build);
 * ilp_ctx_close frees what both made.
 */
void ilp_ctx_open(struct ilp_ctx *c, const struct problem *p, const struct ilp_opts *o);
void ilp_ctx_close(struct ilp_ctx *c);

/* Adds the node columns (one per mode) and configuration columns of class k to P. */
void ilp_class_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k);
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
 * Adds the spread and availability cap rows (ilp_caps.c) of every
 * demand with a cap, over the arcs and classes w->cl has: per class
 * replicas <= node cap x NODES_k, per site replicas <= site cap.
 */
void ilp_cap_rows(const struct ilp_rows *w);

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
