/*
 * fixture_ilp.h - the solver's context on a fixture's problem, for the
 * unit tests of the solver's phases (test_prove, test_round): the whole
 * model built as ilp_solve builds it (ilp_arcidx_build, ilp_build) and
 * its root LP solved with presolve, no clock (as under a node limit),
 * on one thread.  fixture_ilp_release frees what fixture_ilp_build
 * made.  Static, like fixture.h.
 */
#ifndef TESTS_FIXTURE_ILP_H
#define TESTS_FIXTURE_ILP_H

#include <math.h>
#include <string.h>

#include "fixture.h"
#include "ilp_glpk.h"
#include "ilp_model.h"

/* c on fx's problem, its root LP solved; returns 0, or -1 when the LP was not (CHECK recorded). */
static int fixture_ilp_build(struct ilp_ctx *c, struct fixture *fx)
{
	int code = 0;

	memset(c, 0, sizeof(*c));
	c->p = &fx->p;
	c->threads = 1;
	c->limit_s = HUGE_VAL;
	c->deadline = HUGE_VAL;
	ilp_glpk_thread_hook(0);
	c->P = glp_create_prob();
	ilp_arcidx_build(&c->ix, &fx->p);
	ilp_build(c->P, &fx->p, &c->ix, &c->cl);
	if (ilp_simplex(c->P, 1, 0, HUGE_VAL, &code) == LP_OPTIMAL)
		return 0;
	CHECK(0, "root LP (GLPK code %d)", code);
	return -1;
}

static void fixture_ilp_release(struct ilp_ctx *c, struct fixture *fx)
{
	ilp_arcidx_release(&c->ix);
	ilp_cols_free(&fx->p, &c->cl);
	glp_delete_prob(c->P);
}

#endif
