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
#include "ilp.h"
#include "ilp_glpk.h"
#include "ilp_model.h"
#include "ilp_vec.h"

/* c on fx's problem, its root LP solved; returns 0, or -1 when the LP was not (CHECK recorded). */
static int fixture_ilp_build(struct ilp_ctx *c, struct fixture *fx)
{
	struct ilp_opts o;
	int code = 0;

	memset(&o, 0, sizeof(o));
	o.node_limit = 1;	/* no clock, as under a node limit */
	ilp_ctx_open(c, &fx->p, &o);
	ilp_build(c->P, &fx->p, &c->ix, &c->cl);
	if (ilp_simplex(c->P, 1, 0, HUGE_VAL, &code) == LP_OPTIMAL)
		return 0;
	CHECK(0, "root LP (GLPK code %d)", code);
	return -1;
}

/*
 * c->P's MIP solved to its optimum (presolve on, no clock): the plan as
 * a new 1-based vector, or NULL when GLPK proved none.
 */
static inline double *fixture_ilp_mip(struct ilp_ctx *c)
{
	int j, n = glp_get_num_cols(c->P);
	glp_iocp io;
	double *x;

	glp_init_iocp(&io);
	io.msg_lev = GLP_MSG_OFF;
	io.presolve = GLP_ON;
	if (glp_intopt(c->P, &io) != 0 || glp_mip_status(c->P) != GLP_OPT)
		return NULL;
	x = xcalloc((size_t)n + 1, sizeof(*x));
	for (j = 1; j <= n; j++)
		x[j] = glp_mip_col_val(c->P, j);
	return x;
}

static void fixture_ilp_release(struct ilp_ctx *c, struct fixture *fx)
{
	(void)fx;	/* c holds its problem */
	ilp_ctx_close(c);
}

/*
 * test_pack's class worked by hand, which test_colgen solves again: three
 * nodes of one L4, 12 cores and 12 GiB each, MPS; replicas a (6 cores,
 * 4 GiB) x3, b (3 cores, 5 GiB) x2, c (3 cores, 4 GiB) x2.
 */
#define PACK_INV INV_HEADER "n,3,L4,1,baremetal,dc1,12,12,rent,,,10,\n"
#define PACK_WL                                                                                    \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,modes,"        \
	"needs_nvaie,priority\n"                                                                     \
	"a,t,3,0,2,0.1,none,false,6,4,mps,false,10\n"                                                \
	"b,t,2,0,2,0.1,none,false,3,5,mps,false,10\n"                                                \
	"c,t,2,0,2,0.1,none,false,3,4,mps,false,10\n"

/*
 * test_polish's and test_starts's short plan: two nodes of one H100
 * each; w3 (priority 1) x2 and w4 (priority 10) x1, a GPU each.
 */
#define SHORT_INV                                                                                  \
	INV_HEADER "e,1,H100-SXM5-80GB,1,baremetal,dc1,8,64,rent,,,10,1300\n"                       \
		   "f,1,H100-SXM5-80GB,1,baremetal,dc1,8,64,rent,,,10,1300\n"
#define SHORT_WL                                                                                   \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,"    \
	"modes,sites,needs_nvaie,priority\n"                                                         \
	"w3,t,2,1,40,1,none,false,2,8,,,,false,1\n"                                                  \
	"w4,t,1,1,40,1,none,false,2,8,,,,false,10\n"

/* CHECK that cp, read back as a column vector, is x: ilp_concrete gave the plan ilp_repair_vector made. */
static inline void fixture_ilp_same_plan(const struct ilp_ctx *c, const struct fixture *fx, const struct cplan *cp,
					 const double *x)
{
	double *back = ilp_warm_vector(&fx->p, &c->cl, cp);
	int j, same = 1;

	for (j = 1; j <= c->cl.ncols; j++)
		same &= fabs(back[j] - x[j]) < 1e-9;
	CHECK(same, "ilp_concrete gives the plan ilp_repair_vector made");
	free(back);
}

#endif
