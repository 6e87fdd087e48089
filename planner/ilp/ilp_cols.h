/*
 * ilp_cols.h - how every model of the ILP numbers its columns and
 * assembles its rows (ilp_cols.c): the column maps (struct cols), the
 * arcs by class (struct arcidx), the row buffer (struct rowbuf) and
 * where rows go (struct ilp_rows).  <glpk.h> is included here, for the
 * ILP's parts only: every one of them works on a glp_prob.  The public
 * ilp.h does not include it.
 */
#ifndef PLANNER_ILP_COLS_H
#define PLANNER_ILP_COLS_H

#include <glpk.h>
#include <stddef.h>
#include <stdint.h>

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
/* Empties rb (a row given up). */
void ilp_rb_clear(struct rowbuf *rb);
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

#endif
