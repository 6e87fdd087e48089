/*
 * ilp_dive.c - a dive on the whole model's LP (ilp_dive.h).  The
 * roundings fix a class's counts at once, by a MIP of the class against
 * the LP; the dive rounds single counts across every class and lets the
 * LP re-balance the rest after each batch, the way CBC's coefficient
 * dive finds the plans that start its search.  The model is a covering
 * one (slots for replicas, nodes for slots), so counts go up: down, a
 * count leaves replicas to the unplaced columns and their penalties.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "util.h"
#include "ilp_complete.h"
#include "ilp_glpk.h"
#include "ilp_dive.h"
#include "ilp_vec.h"
#include "banned.h"

/* A batch is a sixteenth of the fractional counts (fewer, larger batches ended dearer). */
#define DIVE_BATCH_DIV 16

int ilp_dive_before(double va, int la, double vb, int lb)
{
	if (la != lb)
		return la < lb;
	return ceil(va) - va < ceil(vb) - vb;
}

size_t ilp_dive_batch(size_t nfrac)
{
	return nfrac / DIVE_BATCH_DIV ? nfrac / DIVE_BATCH_DIV : 1;
}

/* A fractional count: its column, LP value and up-locks. */
struct cand {
	int col;
	double v;
	int up;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (ilp_dive_before(x->v, x->up, y->v, y->up))
		return -1;
	if (ilp_dive_before(y->v, y->up, x->v, x->up))
		return 1;
	return x->col - y->col;
}

/* The dive's copy of the model and its scratch. */
struct dive {
	const struct ilp_ctx *c;
	glp_prob *Q;
	double stop_by;
	char *skip;		/* [col]: not rounded by the dive (class totals; counts that could not be) */
	struct cand *cd;	/* [ncols]: the fractional counts */
	int *ind;		/* [nrows + 1] */
	double *val;		/* [nrows + 1] */
	double *lb, *ub;	/* [ncols]: a batch's bounds before it */
	int *type;		/* [ncols] */
};

/* The rows that rounding column j of Q up could break: <= rows where it counts positively, >= where negatively. */
static int up_locks(const struct dive *dv, int j)
{
	int len = glp_get_mat_col(dv->Q, j, dv->ind, dv->val), t, n = 0;

	for (t = 1; t <= len; t++) {
		int type = glp_get_row_type(dv->Q, dv->ind[t]);
		int hi = type == GLP_UP || type == GLP_DB || type == GLP_FX;
		int lo = type == GLP_LO || type == GLP_DB || type == GLP_FX;
		n += dv->val[t] > 0 ? hi : dv->val[t] < 0 ? lo : 0;
	}
	return n;
}

/* The dual simplex from Q's basis until stop_by: 0 when optimal. */
static int dual_solve(glp_prob *Q, double stop_by)
{
	glp_smcp smcp;

	glp_init_smcp(&smcp);
	smcp.meth = GLP_DUALP;
	smcp.msg_lev = GLP_MSG_OFF;
	smcp.tm_lim = ilp_ms_left(stop_by);
	if (!smcp.tm_lim || interrupt_pending())
		return -1;
	if (!glp_bf_exists(Q) && glp_factorize(Q))
		glp_std_basis(Q);
	return glp_simplex(Q, &smcp) || glp_get_status(Q) != GLP_OPT ? -1 : 0;
}

/* Q's fractional counts (not skipped) into dv->cd, in the order they are rounded; their number. */
static size_t fractional(struct dive *dv)
{
	int j, n = glp_get_num_cols(dv->Q);
	size_t nc = 0;

	for (j = 1; j <= n; j++) {
		double v = glp_get_col_prim(dv->Q, j);
		if (dv->skip[j] || glp_get_col_kind(dv->Q, j) != GLP_IV || fabs(v - floor(v + 0.5)) <= 1e-6)
			continue;
		dv->cd[nc].col = j;
		dv->cd[nc].v = v;
		dv->cd[nc].up = up_locks(dv, j);
		nc++;
	}
	qsort(dv->cd, nc, sizeof(*dv->cd), cand_cmp);
	return nc;
}

/*
 * Rounds dv->cd[0 .. nb) up (down: the first alone) and solves: 0 when
 * optimal; else -1, the bounds as before (the basis and values the
 * failed solve's, until the next).
 */
static int try_batch(struct dive *dv, size_t nb, int down)
{
	size_t t;

	for (t = 0; t < nb; t++) {
		int j = dv->cd[t].col, hasub;
		double v = dv->cd[t].v;
		dv->lb[t] = glp_get_col_lb(dv->Q, j);
		dv->ub[t] = glp_get_col_ub(dv->Q, j);
		dv->type[t] = glp_get_col_type(dv->Q, j);
		hasub = dv->type[t] == GLP_UP || dv->type[t] == GLP_DB || dv->type[t] == GLP_FX;
		if (down)
			glp_set_col_bnds(dv->Q, j, floor(v) == dv->lb[t] ? GLP_FX : GLP_DB, dv->lb[t], floor(v));
		else if (!hasub)
			glp_set_col_bnds(dv->Q, j, GLP_LO, ceil(v), 0);
		else
			glp_set_col_bnds(dv->Q, j, ceil(v) == dv->ub[t] ? GLP_FX : GLP_DB, ceil(v), dv->ub[t]);
	}
	if (!dual_solve(dv->Q, dv->stop_by))
		return 0;
	for (t = 0; t < nb; t++)
		glp_set_col_bnds(dv->Q, dv->cd[t].col, dv->type[t], dv->lb[t], dv->ub[t]);
	return -1;
}

/*
 * The dive itself: 1 when no count but the skipped is fractional, 0 when
 * it stopped (the clock, an LP that failed).
 */
static int dive_run(struct dive *dv, size_t *batches, size_t *stuck)
{
	int rc;

	if (dual_solve(dv->Q, dv->stop_by))
		return 0;
	for (;;) {
		size_t nc = fractional(dv);
		if (!nc)
			return 1;
		++*batches;
		rc = try_batch(dv, ilp_dive_batch(nc), 0);
		if (rc == -1)
			rc = try_batch(dv, 1, 0);
		if (rc == -1)
			rc = try_batch(dv, 1, 1);
		if (rc == -1 && dual_solve(dv->Q, dv->stop_by))	/* back to the LP before, for its values */
			rc = -2;
		if (rc == -2 || !ilp_ms_left(dv->stop_by) || interrupt_pending())
			return 0;
		if (rc == -1) {
			dv->skip[dv->cd[0].col] = 1;	/* left for ilp_complete_counts */
			++*stuck;
		}
	}
}

double *ilp_dive(const struct ilp_ctx *c, double stop_by, double *obj)
{
	struct dive dv;
	size_t k, n, m, batches = 0, stuck = 0;
	double *x = NULL;
	int j, ok;

	memset(&dv, 0, sizeof(dv));
	dv.c = c;
	dv.stop_by = stop_by;
	dv.Q = glp_create_prob();
	glp_copy_prob(dv.Q, c->P, GLP_OFF);
	ilp_key_res_all(dv.Q, c->p, &c->ix, &c->cl);
	n = (size_t)glp_get_num_cols(dv.Q);
	m = (size_t)glp_get_num_rows(dv.Q);
	dv.skip = xcalloc(n + 1, 1);
	for (k = 0; k < 2 * c->p->nclasses; k++)	/* the class totals follow their counts */
		if (c->cl.agg[k])
			dv.skip[c->cl.agg[k]] = 1;
	dv.cd = xcalloc(n + 1, sizeof(*dv.cd));
	dv.ind = xcalloc(m + 1, sizeof(*dv.ind));
	dv.val = xcalloc(m + 1, sizeof(*dv.val));
	dv.lb = xcalloc(n + 1, sizeof(*dv.lb));
	dv.ub = xcalloc(n + 1, sizeof(*dv.ub));
	dv.type = xcalloc(n + 1, sizeof(*dv.type));
	ok = dive_run(&dv, &batches, &stuck);
	if (c->verbose)
		glp_printf("gpuplan-ilp: dive: %s after %zu batches (%zu counts rounded neither way)\n",
			   ok ? "ended" : "stopped", batches, stuck);
	if (ok) {
		x = xcalloc((size_t)c->cl.ncols + 1, sizeof(*x));
		for (j = 1; j <= c->cl.ncols; j++)
			x[j] = glp_get_col_prim(dv.Q, j);
		ilp_complete_counts(c, x, obj);	/* the counts left fractional, and the class totals */
	}
	free(dv.skip);
	free(dv.cd);
	free(dv.ind);
	free(dv.val);
	free(dv.lb);
	free(dv.ub);
	free(dv.type);
	glp_delete_prob(dv.Q);
	return x;
}
