/*
 * ilp_start.c - another solver's plan of the exported model as a start
 * (ilp_start.h).
 *
 * `plan --export-model` writes the model; CBC, HiGHS or any MIP solver
 * may solve it for as long as the user likes; `plan --start FILE` brings
 * the plan back: checked against the same model, made concrete (ilp_deal)
 * and compared with the plans gpuplan finds, the cheapest kept (ilp.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_start.h"
#include "banned.h"

#define START_TOL 1e-6	/* on bounds, integrality and rows (relative: see outside) */

/*
 * v outside [lb, ub] (as type says) by more than START_TOL of the larger
 * of 1, the bound and size: a column's value, or a row's activity, whose
 * terms' magnitudes sum to size (the solvers print 8 to 15 significant
 * digits, so a row's error grows with its terms, and a row bounded by 0
 * can come to a few millionths).
 */
static int outside(double v, int type, double lb, double ub, double size)
{
	double tl = START_TOL * fmax(fmax(1, fabs(lb)), size), tu = START_TOL * fmax(fmax(1, fabs(ub)), size);

	switch (type) {
	case GLP_LO:
		return v < lb - tl;
	case GLP_UP:
		return v > ub + tu;
	case GLP_DB:
	case GLP_FX:
		return v < lb - tl || v > ub + tu;
	default:
		return 0;
	}
}

/* "[0, 8]", "[0, +inf)" */
static char *bounds_text(int type, double lb, double ub)
{
	if (type == GLP_LO)
		return xasprintf("[%.10g, +inf)", lb);
	if (type == GLP_UP)
		return xasprintf("(-inf, %.10g]", ub);
	if (type == GLP_FR)
		return xstrdup("(-inf, +inf)");
	return xasprintf("[%.10g, %.10g]", lb, ub);
}

/* Q's column called name, or its CPLEX LP spelling ('~' for '-', as glp_write_lp writes it); 0: none. */
static int find_col(glp_prob *Q, const char *name)
{
	char *alt;
	int j = glp_find_col(Q, name);

	if (j || !strchr(name, '~'))
		return j;
	alt = xstrdup(name);
	for (char *p = alt; *p; p++)
		if (*p == '~')
			*p = '-';
	j = glp_find_col(Q, alt);
	free(alt);
	return j;
}

static int unknown_col(glp_prob *Q, const struct solfile *s, const struct solval *v, struct diag *d)
{
	int n = glp_get_num_cols(Q), j;
	const char **names = xcalloc((size_t)n + 1, sizeof(*names));
	char *hint;

	for (j = 1; j <= n; j++)
		names[j - 1] = glp_get_col_name(Q, j);
	hint = str_hint(v->name, names);
	diag_set(d, DIAG_INPUT, s->path, v->line, 0,
		 "no column '%s' in the model `plan --export-model` writes for this scenario%s",
		 v->name, hint);
	free(hint);
	free(names);
	return -1;
}

/* Each value onto its column of Q, within its bounds and whole where integer. */
static int take_values(glp_prob *Q, const struct solfile *s, double *x, struct diag *d)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct solval *v = &s->v[i];
		int j = find_col(Q, v->name), type;
		char *b;
		if (!j)
			return unknown_col(Q, s, v, d);
		type = glp_get_col_type(Q, j);
		if (glp_get_col_kind(Q, j) == GLP_IV && fabs(v->value - floor(v->value + 0.5)) > START_TOL)
			return diag_set(d, DIAG_INPUT, s->path, v->line, 0,
					"column '%s' is an integer in the model; %.10g is not", v->name, v->value);
		if (outside(v->value, type, glp_get_col_lb(Q, j), glp_get_col_ub(Q, j), fabs(v->value))) {
			b = bounds_text(type, glp_get_col_lb(Q, j), glp_get_col_ub(Q, j));
			diag_set(d, DIAG_INPUT, s->path, v->line, 0, "column '%s': %.10g is outside its bounds %s",
				 v->name, v->value, b);
			free(b);
			return -1;
		}
		x[j] = glp_get_col_kind(Q, j) == GLP_IV ? floor(v->value + 0.5) : v->value;
	}
	return 0;
}

/* Every row of Q within its bounds at x. */
static int check_rows(glp_prob *Q, const struct solfile *s, const double *x, struct diag *d)
{
	int m = glp_get_num_rows(Q), n = glp_get_num_cols(Q), i, k, len, type;
	int *ind = xcalloc((size_t)n + 1, sizeof(*ind));
	double *val = xcalloc((size_t)n + 1, sizeof(*val)), act, size;
	char *b;
	int rc = 0;

	for (i = 1; i <= m && !rc; i++) {
		len = glp_get_mat_row(Q, i, ind, val);
		for (act = size = 0, k = 1; k <= len; k++) {
			act += val[k] * x[ind[k]];
			size += fabs(val[k] * x[ind[k]]);
		}
		type = glp_get_row_type(Q, i);
		if (!outside(act, type, glp_get_row_lb(Q, i), glp_get_row_ub(Q, i), size))
			continue;
		b = bounds_text(type, glp_get_row_lb(Q, i), glp_get_row_ub(Q, i));
		rc = diag_set(d, DIAG_INPUT, s->path, 0, 0,
			      "not a plan of this scenario's model: its row '%s' comes to %.10g, outside %s",
			      glp_get_row_name(Q, i), act, b);
		free(b);
	}
	free(ind);
	free(val);
	return rc;
}

int ilp_start_vector(const struct ilp_ctx *c, const struct solfile *s, double **x, struct diag *d)
{
	glp_prob *Q = ilp_export_copy(c);
	double *y;
	int rc;

	glp_create_index(Q);
	y = xcalloc((size_t)glp_get_num_cols(Q) + 1, sizeof(*y));
	rc = take_values(Q, s, y, d);
	if (!rc)
		rc = check_rows(Q, s, y, d);
	glp_delete_prob(Q);
	if (rc) {
		free(y);
		return -1;
	}
	*x = xrealloc(y, ((size_t)c->cl.ncols + 1) * sizeof(*y));	/* c->P's columns come first */
	return 0;
}
