/*
 * ilp_bound.c - the root LP relaxation, whose optimum is the lower
 * bound.  Large models (more than SIFT_MIN_ARCS arc columns) are solved
 * by sifting: only a working set of arcs is free (the tightest slot of
 * each demand in each class, and the arcs of the warm plan), the others
 * are fixed at 0 and so left out of GLPK's simplex; after each solve
 * the fixed arcs are priced with the row duals and those with a
 * negative reduced cost join the set, until none is left.  The LP
 * optimum of the working set is then the LP optimum of the whole model.
 */
#include <math.h>
#include <stdlib.h>

#include "util.h"
#include "ilp_bound.h"
#include "banned.h"

#define SIFT_MIN_ARCS 20000	/* below this the whole model goes to the simplex at once */

/* The tighter of two slot types for a replica: less memory, then less compute, then fewer GPUs. */
static int slot_tighter(const struct slot_type *a, const struct slot_type *b)
{
	if (a->memory_mib != b->memory_mib)
		return a->memory_mib < b->memory_mib;
	if (a->compute != b->compute)
		return a->compute < b->compute;
	return a->gpus < b->gpus;
}

/* An arc outside the working set with a negative reduced cost. */
struct neg {
	int arc;		/* the arc */
	double rc;		/* its reduced cost */
};

static int neg_cmp(const void *a, const void *b)
{
	const struct neg *x = a, *y = b;
	if (x->rc != y->rc)
		return x->rc < y->rc ? -1 : 1;
	return (x->arc > y->arc) - (x->arc < y->arc);
}

/* The first working set: the tightest slot of each demand in each class, and the warm plan's arcs. */
static void sift_start(const struct ilp_ctx *c, const double *warm, char *in_set)
{
	glp_prob *P = c->P;
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	size_t i, j;

	for (i = 0; i < p->narcs;) {
		size_t best = i;
		for (j = i + 1; j < p->narcs && p->arcs[j].d == p->arcs[i].d && p->arcs[j].k == p->arcs[i].k; j++)
			if (slot_tighter(&p->classes[p->arcs[j].k].slot_types[p->arcs[j].s],
					 &p->classes[p->arcs[best].k].slot_types[p->arcs[best].s]))
				best = j;
		in_set[best] = 1;
		i = j;
	}
	for (i = 0; warm && i < p->narcs; i++)
		if (warm[cl->arc[i]] > 0)
			in_set[i] = 1;
	for (i = 0; i < p->narcs; i++)
		if (!in_set[i])
			glp_set_col_bnds(P, cl->arc[i], GLP_FX, 0, 0);
}

int ilp_root_sifts(const struct problem *p)
{
	return p->narcs >= SIFT_MIN_ARCS;
}

enum lp_end ilp_root_lp(const struct ilp_ctx *c, const double *warm, char *in_set, int *rounds, int *code)
{
	size_t i;

	*rounds = 0;
	if (!ilp_root_sifts(c->p)) {
		for (i = 0; i < c->p->narcs; i++)
			in_set[i] = 1;
		*rounds = 1;
		return ilp_simplex(c->P, 1, c->verbose, c->deadline, code);
	}
	sift_start(c, warm, in_set);
	return ilp_sift(c, in_set, 1, rounds, code);
}

enum lp_end ilp_sift(const struct ilp_ctx *c, char *in_set, int first, int *rounds, int *code)
{
	glp_prob *P = c->P;
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	size_t i, j;
	int nrows = glp_get_num_rows(P), *ind, added;
	double *val, *y;
	struct neg *negs;
	enum lp_end e;

	ind = xcalloc((size_t)nrows + 1, sizeof(*ind));
	val = xcalloc((size_t)nrows + 1, sizeof(*val));
	y = xcalloc((size_t)nrows + 1, sizeof(*y));
	negs = xcalloc(p->narcs + 1, sizeof(*negs));
	for (;;) {
		size_t nneg = 0, cap;
		(*rounds)++;
		e = ilp_simplex(P, first, c->verbose, c->deadline, code);
		first = 0;
		if (e != LP_OPTIMAL)
			break;
		for (j = 1; j <= (size_t)nrows; j++)
			y[j] = glp_get_row_dual(P, (int)j);
		for (i = 0; i < p->narcs; i++) {
			int col = cl->arc[i], len, t;
			double rc;
			if (in_set[i])
				continue;
			rc = glp_get_obj_coef(P, col);
			len = glp_get_mat_col(P, col, ind, val);
			for (t = 1; t <= len; t++)
				rc -= val[t] * y[ind[t]];
			if (rc < -1e-7 * (1 + fabs(glp_get_obj_coef(P, col)))) {
				negs[nneg].arc = (int)i;
				negs[nneg].rc = rc;
				nneg++;
			}
		}
		if (!nneg)
			break;
		qsort(negs, nneg, sizeof(*negs), neg_cmp);
		cap = (size_t)(2 * nrows > 2000 ? 2 * nrows : 2000);
		for (i = 0, added = 0; i < nneg && i < cap; i++, added++) {
			int col = cl->arc[negs[i].arc];
			in_set[negs[i].arc] = 1;
			glp_set_col_bnds(P, col, GLP_DB, 0, (double)p->demands[p->arcs[negs[i].arc].d].replicas);
			glp_set_col_stat(P, col, GLP_NL);
		}
	}
	free(ind);
	free(val);
	free(y);
	free(negs);
	return e;
}

void ilp_admit_arcs(const struct ilp_ctx *c, const double *x, char *in_set)
{
	const struct problem *p = c->p;
	size_t i;
	for (i = 0; i < p->narcs; i++)
		if (!in_set[i] && x[c->cl.arc[i]] > 0) {
			in_set[i] = 1;
			glp_set_col_bnds(c->P, c->cl.arc[i], GLP_DB, 0, (double)p->demands[p->arcs[i].d].replicas);
		}
}
