/*
 * ilp_lp.c - the root LP relaxation alone (ilp_lp_bound, ilp.h): the
 * model ilp_solve builds and the LP it solves first (ilp_bound.c), with
 * none of what follows (rounding, polish, search, plans made concrete).
 * Its optimum is a lower bound on the model's integer optimum, which is
 * all a caller that only needs a proven bound (the roadmap's bound pass)
 * wants of the solve.
 */
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

	*bound = 0;
	ilp_ctx_open(&c, p, o);	/* as ilp_solve's: a node limit lets the LP run to its end */
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
	ilp_ctx_close(&c);
	return rc;
}
