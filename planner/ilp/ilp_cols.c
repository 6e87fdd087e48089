/*
 * ilp_cols.c - the numbering and row assembly every model of the ILP
 * shares: the row buffer, adding a column, the arcs by class and the
 * column maps.
 */
#include <stdlib.h>

#include "ilp_cols.h"
#include "util.h"
#include "banned.h"

void ilp_rb_add(struct rowbuf *rb, int col, double v)
{
	if (!col) /* not in this model */
		return;
	if (rb->pos[col]) {
		rb->val[rb->pos[col]] += v;
		return;
	}
	if (rb->len + 2 > rb->cap) {
		rb->cap = rb->cap ? rb->cap * 2 : 64;
		rb->ind = xrealloc(rb->ind, (size_t)rb->cap * sizeof(*rb->ind));
		rb->val = xrealloc(rb->val, (size_t)rb->cap * sizeof(*rb->val));
	}
	rb->len++;
	rb->ind[rb->len] = col;
	rb->val[rb->len] = v;
	rb->pos[col] = rb->len;
}

void ilp_add_row(glp_prob *P, struct rowbuf *rb, const char *name, int type, double lo, double hi)
{
	int r = glp_add_rows(P, 1), i;
	glp_set_row_name(P, r, name);
	glp_set_row_bnds(P, r, type, lo, hi);
	if (rb->len)
		glp_set_mat_row(P, r, rb->len, rb->ind, rb->val);
	for (i = 1; i <= rb->len; i++)
		rb->pos[rb->ind[i]] = 0;
	rb->len = 0;
}

void ilp_rb_clear(struct rowbuf *rb)
{
	int i;
	for (i = 1; i <= rb->len; i++)
		rb->pos[rb->ind[i]] = 0;
	rb->len = 0;
}

int ilp_add_col(glp_prob *P, const char *name, int integer, double lo, double hi, double cost)
{
	int c = glp_add_cols(P, 1);
	glp_set_col_name(P, c, name);
	if (integer)
		glp_set_col_kind(P, c, GLP_IV);
	glp_set_col_bnds(P, c, hi > lo ? GLP_DB : GLP_FX, lo, hi);
	glp_set_obj_coef(P, c, cost);
	return c;
}

void ilp_rb_free(struct rowbuf *rb)
{
	free(rb->ind);
	free(rb->val);
	free(rb->pos);
}

static const struct arc *sort_arcs;

static int arc_ksd_cmp(const void *a, const void *b)
{
	const struct arc *x = &sort_arcs[*(const size_t *)a], *y = &sort_arcs[*(const size_t *)b];
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return 0;
}

void ilp_arcidx_build(struct arcidx *ix, const struct problem *p)
{
	size_t i, k;
	ix->byk = xcalloc(p->narcs + 1, sizeof(*ix->byk));
	ix->kstart = xcalloc(p->nclasses + 2, sizeof(*ix->kstart));
	for (i = 0; i < p->narcs; i++)
		ix->byk[i] = i;
	sort_arcs = p->arcs;
	qsort(ix->byk, p->narcs, sizeof(*ix->byk), arc_ksd_cmp);
	for (i = 0, k = 0; k <= p->nclasses; k++) {
		while (i < p->narcs && p->arcs[ix->byk[i]].k < (int)k)
			i++;
		ix->kstart[k] = i;
	}
	ix->kstart[p->nclasses + 1] = p->narcs;
	ix->pos = xcalloc(p->narcs + 1, sizeof(*ix->pos));
	for (i = 0; i < p->narcs; i++)
		ix->pos[ix->byk[i]] = i;
}

void ilp_arcidx_release(struct arcidx *ix)
{
	free(ix->byk);
	free(ix->kstart);
	free(ix->pos);
}

void ilp_cols_alloc(const struct problem *p, struct cols *cl)
{
	size_t k;
	cl->n = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->n));
	cl->g = xcalloc(p->nclasses + 1, sizeof(*cl->g));
	for (k = 0; k < p->nclasses; k++)
		cl->g[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**cl->g));
	cl->arc = xcalloc(p->narcs + 1, sizeof(*cl->arc));
	cl->u = xcalloc(p->ndemands + 1, sizeof(*cl->u));
	cl->agg = xcalloc(2 * p->nclasses + 1, sizeof(*cl->agg));
	cl->cpu_row = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->cpu_row));
	cl->ram_row = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->ram_row));
	cl->avail_row = xcalloc(p->nclasses + 1, sizeof(*cl->avail_row));
	cl->key = xcalloc(p->nclasses + 1, sizeof(*cl->key));
	cl->ycol = xcalloc(p->nclasses + 1, sizeof(*cl->ycol));
	cl->nycol = xcalloc(p->nclasses + 1, sizeof(*cl->nycol));
	cl->karc = xcalloc(p->nclasses + 1, sizeof(*cl->karc));
	cl->kmask = xcalloc(p->nclasses + 1, sizeof(*cl->kmask));
	cl->nkarc = xcalloc(p->nclasses + 1, sizeof(*cl->nkarc));
	for (k = 0; k < p->nclasses; k++) {
		cl->key[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**cl->key));
		cl->ycol[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**cl->ycol));
	}
}

void ilp_cols_free(const struct problem *p, struct cols *cl)
{
	size_t k;
	if (!cl->g)
		return;
	for (k = 0; k < p->nclasses; k++) {
		free(cl->g[k]);
		free(cl->key[k]);
		free(cl->ycol[k]);
		free(cl->karc[k]);
		free(cl->kmask[k]);
	}
	free(cl->karc);
	free(cl->kmask);
	free(cl->nkarc);
	free(cl->g);
	free(cl->key);
	free(cl->ycol);
	free(cl->nycol);
	free(cl->n);
	free(cl->arc);
	free(cl->u);
	free(cl->agg);
	free(cl->cpu_row);
	free(cl->ram_row);
	free(cl->avail_row);
	cl->g = NULL;
}
