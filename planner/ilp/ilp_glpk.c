/*
 * ilp_glpk.c - thin wrappers of GLPK calls the ILP's parts share: the
 * terminal hooks (one GLPK environment per thread), the time left as
 * GLPK's tm_lim, one simplex solve, fixing a column, setting one
 * coefficient, and freeing GLPK's environment at exit (ilp_cleanup).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ilp.h"
#include "interrupt.h"
#include "util.h"
#include "ilp_glpk.h"
#include "banned.h"

void ilp_cleanup(void)
{
	glp_free_env();
}

static int term_hook(void *info, const char *s)
{
	(void)info;
	ilp_glpk_note(s);
	fputs(s, stderr);
	return 1; /* we printed it (or chose not to) */
}

static int silent_hook(void *info, const char *s)
{
	(void)info;
	ilp_glpk_note(s);
	return 1;
}

void ilp_glpk_thread_hook(int verbose)
{
	glp_term_hook(verbose ? term_hook : silent_hook, NULL);
	ilp_glpk_error_guard(); /* ilp_glpk_error.c */
}

void ilp_glpk_thread_end(void)
{
	glp_free_env();
}

glp_prob *ilp_glpk_shared_prob(void)
{
	glp_prob *P = glp_create_prob();
	glp_bfcp bf;

	glp_get_bfcp(P, &bf);
	return P;
}

int ilp_ms_left(double deadline)
{
	double ms = (deadline - util_now_s()) * 1000.0;
	if (ms < 1)
		return 0;
	return ms > 2e9 ? 2000000000 : (int)ms;
}

enum lp_end ilp_simplex(glp_prob *P, int presolve, int verbose, double deadline, int *code)
{
	glp_smcp smcp;
	int ret;
	glp_init_smcp(&smcp);
	smcp.presolve = presolve ? GLP_ON : GLP_OFF;
	smcp.msg_lev = verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	smcp.tm_lim = ilp_ms_left(deadline);
	if (!smcp.tm_lim || interrupt_pending())
		return LP_TIME;
	if (!presolve && !glp_bf_exists(P) && glp_factorize(P))
		glp_std_basis(P);
	ret = glp_simplex(P, &smcp);
	*code = ret;
	if (ret == GLP_ETMLIM || ret == GLP_EITLIM)
		return LP_TIME;
	if (ret || glp_get_status(P) != GLP_OPT)
		return LP_FAILED;
	return LP_OPTIMAL;
}

void ilp_fix_col(glp_prob *Q, int col, double v)
{
	glp_set_col_bnds(Q, col, GLP_FX, v, v);
}

int ilp_all_integral(glp_prob *Q)
{
	int j, n = glp_get_num_cols(Q);
	for (j = 1; j <= n; j++) {
		double v = glp_get_col_prim(Q, j);
		if (glp_get_col_kind(Q, j) == GLP_IV && fabs(v - floor(v + 0.5)) > 1e-6)
			return 0;
	}
	return 1;
}

void ilp_set_coef(glp_prob *Q, int row, int col, double v)
{
	int n = glp_get_mat_row(Q, row, NULL, NULL), *ind = xcalloc((size_t)n + 2, sizeof(*ind)), t;
	double *val = xcalloc((size_t)n + 2, sizeof(*val));

	n = glp_get_mat_row(Q, row, ind, val);
	for (t = 1; t <= n && ind[t] != col; t++)
		;
	if (t > n)
		n++;
	ind[t] = col;
	val[t] = v;
	glp_set_mat_row(Q, row, n, ind, val);
	free(ind);
	free(val);
}
