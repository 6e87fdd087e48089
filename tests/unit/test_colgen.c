/*
 * test_colgen.c - the node-pattern model by column generation
 * (ilp_colgen.c), on test_pack's class worked by hand.
 *
 * Three nodes of one L4, 12 cores and 12 GiB each, MPS; replicas a (6
 * cores, 4 GiB) x3, b (3 cores, 5 GiB) x2, c (3 cores, 4 GiB) x2: 30
 * cores and 30 GiB.  The aggregated model sums CPU and RAM over the
 * nodes, so its LP needs 2.5 nodes.  One node holds at most {a,a},
 * {a,c,c}, {b,b}, {a,b}, {c,c,c}, {b,c} or less ({a,b,b}, {a,b,c},
 * {b,c,c} break the 12 GiB); only {a,c,c} fills both cores and GiB.
 * The duals (a, b, c) = (1/2, 1/2, 1/4) of a node price no pattern
 * above one node and give 3/2 + 1 + 1/2 = 3 nodes, which {a,a} + {a,c,c}
 * + {b,b} reach (as do {a,b} twice + {a,c,c}): the pattern LP is 3
 * nodes, whole, and so is the integer master; the aggregated model's
 * optimum is 3 nodes too (its CPU row rounds 2.5 up).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "fixture_ilp.h"
#include "ilp.h"
#include "verify.h"
#include "ilp_colgen.h"

static const char inv[] = PACK_INV;
static const char wl[] = PACK_WL;

/* The demand of workload `name`. */
static int demand_of(const struct problem *p, const char *name)
{
	size_t d;
	for (d = 0; d < p->ndemands; d++)
		if (!strcmp(p->demands[d].w->name, name))
			return (int)d;
	return -1;
}

/* Whether column c holds exactly (na, nb, nc) replicas of a, b, c. */
static int holds(const struct problem *p, const struct cg_col *c, long na, long nb, long nc)
{
	return c->held[demand_of(p, "a")] == na && c->held[demand_of(p, "b")] == nb && c->held[demand_of(p, "c")] == nc;
}

/* Every column fits one node: at most 12 cores and 12 GiB. */
static int cols_fit(const struct problem *p, const struct ilp_colgen *cg)
{
	size_t i;
	for (i = 0; i < cg->ncols; i++) {
		const long *h = cg->cols[i].held;
		long a = h[demand_of(p, "a")], b = h[demand_of(p, "b")], c = h[demand_of(p, "c")];
		if (6 * a + 3 * b + 3 * c > 12 || 4 * a + 5 * b + 4 * c > 12)
			return 0;
	}
	return 1;
}

/* The model's optimum (the MIP of the aggregated model, solved to its end). */
static double model_optimum(struct ilp_ctx *c)
{
	glp_iocp io;

	glp_init_iocp(&io);
	io.msg_lev = GLP_MSG_OFF;
	if (glp_intopt(c->P, &io) || glp_mip_status(c->P) != GLP_OPT)
		return HUGE_VAL;
	return glp_mip_obj_val(c->P);
}

/*
 * The integer master: three nodes holding every replica, once.  Two
 * optima: {a,a} + {a,c,c} + {b,b}, or {a,b} twice + {a,c,c}.
 */
static void check_integer(const struct problem *p, const struct ilp_colgen *cg)
{
	long nodes = 0, acc = 0, got[3] = { 0, 0, 0 };
	const char *name[3] = { "a", "b", "c" };
	size_t i;
	int w;

	for (i = 0; cg->use && i < cg->ncols; i++) {
		nodes += cg->use[i];
		acc += holds(p, &cg->cols[i], 1, 0, 2) ? cg->use[i] : 0;
		for (w = 0; w < 3; w++)
			got[w] += cg->use[i] * cg->cols[i].held[demand_of(p, name[w])];
	}
	CHECK(nodes == 3 && acc == 1 && got[0] == 3 && got[1] == 2 && got[2] == 2 && cg->unplaced < 0.5,
	      "integer master: %ld nodes, {a,c,c} %ld, holding a %ld b %ld c %ld, %.1f unplaced; want 3, 1, 3 2 2, none",
	      nodes, acc, got[0], got[1], got[2], cg->unplaced);
}

static void test_hand_worked(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_colgen cg;
	struct cplan start, cp;
	const struct cplan *starts[1];
	struct cplan_cost cost;
	struct diag d = DIAG_INIT;
	double agg_lp, opt;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("colgen"), inv, wl, 0))
		return;
	if (fixture_ilp_build(&c, &fx) == 0) {
		agg_lp = glp_get_obj_val(c.P);
		opt = model_optimum(&c);
		cplan_init(&start, &fx.p);
		cplan_greedy(&start);
		starts[0] = &start;
		ilp_colgen_init(&cg, HUGE_VAL);
		CHECK(ilp_colgen_run(&cg, &fx.p, &c.ix, starts, 1) == 0, "column generation runs");
		CHECK(cg.nstart >= 1 && cg.nstart <= start.nnodes, "the start plan's %zu nodes give %zu columns",
		      start.nnodes, cg.nstart);
		CHECK(cols_fit(&fx.p, &cg), "every one of the %zu columns fits one node", cg.ncols);
		CHECK(cg.proven && fabs(cg.lp - opt) <= 1e-6 * opt && cg.bound >= cg.lp - 1e-6 * opt,
		      "the pattern LP, proven, is the 3 nodes of the optimum: lp %.4f bound %.4f (proven %d), optimum %.4f",
		      cg.lp, cg.bound, cg.proven, opt);
		CHECK(agg_lp < opt - 0.1 * opt / 3,
		      "the aggregated LP needs only 2.5 nodes: %.4f against %.4f", agg_lp, opt);
		CHECK(cg.int_optimal && fabs(cg.int_obj - opt) <= 1e-6 * opt, "integer master %.4f (optimal %d), want %.4f",
		      cg.int_obj, cg.int_optimal, opt);
		check_integer(&fx.p, &cg);
		cplan_init(&cp, &fx.p);
		ilp_colgen_plan(&cg, &fx.p, &c.ix, &cp);
		cplan_cost(&cp, &cost);
		CHECK(cplan_unplaced_count(&cp) == 0 && cp.nnodes == 3 && fabs(cost.objective - cg.int_obj) <= 1e-6 * opt,
		      "built over real nodes without loss: %ld unplaced on %zu nodes, %.4f against the master's %.4f",
		      cplan_unplaced_count(&cp), cp.nnodes, cost.objective, cg.int_obj);
		CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
		cplan_release(&cp);
		ilp_colgen_free(&cg);
		cplan_release(&start);
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
	diag_release(&d);
}

int main(void)
{
	if (fixture_setup("test_colgen"))
		return 1;
	test_hand_worked();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
