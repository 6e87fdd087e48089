/*
 * ilp_lp.c - the root LP relaxation alone (ilp_lp_bound, ilp.h): the
 * model ilp_solve builds and the LP it solves first (ilp_bound.c), with
 * none of what follows (rounding, polish, search, plans made concrete).
 * Its optimum is a lower bound on the model's integer optimum, which is
 * all a caller that only needs a proven bound (the roadmap's bound pass)
 * wants of the solve.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "util.h"
#include "ilp_bound.h"
#include "ilp_model.h"
#include "banned.h"

int ilp_lp_bound(const struct problem *p, const struct ilp_opts *o, double *bound, struct diag *d)
{
	struct ilp_ctx c;
	char *in_set;
	int code = 0, rounds = 0, rc;
	enum lp_end e;

	memset(&c, 0, sizeof(c));
	*bound = 0;
	c.t0 = util_now_s();
	/* as ilp_solve: a node limit is no deadline at all (the LP runs to its end) */
	c.limit_s = o->node_limit > 0 ? HUGE_VAL : o->time_limit_s;
	c.deadline = c.t0 + c.limit_s;
	c.threads = 1;
	c.p = p;
	c.verbose = o->verbose;
	ilp_glpk_thread_hook(o->verbose);
	c.P = ilp_glpk_shared_prob();
	ilp_arcidx_build(&c.ix, p);
	ilp_build(c.P, p, &c.ix, &c.cl);
	in_set = xcalloc(p->narcs + 1, 1);
	/* no warm plan: it only seeds sifting's first working set, and sifting ends on the same optimum */
	e = ilp_root_lp(&c, NULL, in_set, &rounds, &code);
	if (e == LP_OPTIMAL) {
		*bound = glp_get_obj_val(c.P);
		rc = 1;
	} else if (e == LP_TIME) {
		rc = 0;
	} else {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the LP relaxation failed (GLPK code %d)", code);
		rc = -1;
	}
	glp_printf("gpuplan-ilp: lp only: %s lp_bound %.2f lp_rounds %d t_lp %.2f\n",
		   rc == 1 ? "optimal" : rc == 0 ? "cut" : "failed", *bound, rounds, util_now_s() - c.t0);
	free(in_set);
	ilp_arcidx_release(&c.ix);
	ilp_cols_free(p, &c.cl);
	glp_delete_prob(c.P);
	glp_term_hook(NULL, NULL);
	return rc;
}
