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

/* A plan of the integer master of the hand-worked class, built over its nodes (heap, for ilp_result.colgen). */
static struct cplan *built(const struct problem *p, const struct arcidx *ix, const struct ilp_colgen *cg)
{
	struct cplan *cp = xcalloc(1, sizeof(*cp));

	cplan_init(cp, p);
	ilp_colgen_plan(cg, p, ix, cp);
	return cp;
}

/* cp, initialised as the plan that places nothing: every replica unplaced. */
static struct cplan *nothing_placed(const struct problem *p, struct cplan *cp)
{
	size_t d;

	cplan_init(cp, p);
	for (d = 0; d < p->ndemands; d++)
		cp->unplaced[d] = p->demands[d].replicas;
	return cp;
}

/*
 * ilp_take_colgen: the column generation's plan replaces the plan it is
 * offered against only when better by the priority rule, then by cost;
 * a tie keeps the plan in hand.  The plan that places nothing is the
 * worse by the priority rule.
 */
static void check_take(const struct problem *p, const struct arcidx *ix, const struct ilp_colgen *cg)
{
	struct ilp_result r;
	struct cplan cp, *was;
	struct cplan_cost cc, oc;

	memset(&r, 0, sizeof(r));
	nothing_placed(p, &cp);	/* the worse */
	cplan_cost(&cp, &cc);
	r.colgen = built(p, ix, cg);
	cplan_cost(r.colgen, &oc);
	CHECK(ilp_take_colgen(&r, &cp, &cc, &cp, &cc) == 1 && !r.colgen && cp.nnodes == 3 && cplan_unplaced_count(&cp) == 0 &&
		      fabs(cc.objective - oc.objective) <= 1e-9 * oc.objective,
	      "the better plan is taken: %zu nodes, %ld unplaced, cost %.4f (offered %.4f), offer left %d", cp.nnodes,
	      cplan_unplaced_count(&cp), cc.objective, oc.objective, r.colgen != NULL);
	was = nothing_placed(p, xcalloc(1, sizeof(*was)));	/* now the worse is offered against the better */
	r.colgen = was;
	CHECK(ilp_take_colgen(&r, &cp, &cc, &cp, &cc) == 0 && r.colgen == was && cp.nnodes == 3 &&
		      fabs(cc.objective - oc.objective) <= 1e-9 * oc.objective,
	      "the worse plan is not taken: %zu nodes, cost %.4f", cp.nnodes, cc.objective);
	cplan_release(r.colgen);
	free(r.colgen);
	r.colgen = built(p, ix, cg);	/* the same plan again: a tie */
	was = r.colgen;
	CHECK(ilp_take_colgen(&r, &cp, &cc, &cp, &cc) == 0 && r.colgen == was, "a tie keeps the plan in hand");
	cplan_release(r.colgen);
	free(r.colgen);
	r.colgen = NULL;
	CHECK(ilp_take_colgen(&r, &cp, &cc, &cp, &cc) == 0 && cp.nnodes == 3, "no plan offered: the plan stays");
	cplan_release(&cp);
}

/* A result with a plan of objective obj, its bound `bound`, LP bound lp, status st. */
static void result_at(struct ilp_result *r, enum ilp_status st, double obj, double bound, double lp)
{
	memset(r, 0, sizeof(*r));
	r->status = st;
	r->objective = obj;
	r->cost = obj;	/* every replica placed: the stopping gap's measure is the objective */
	r->bound = bound;
	r->lp_bound = lp;
	r->gap = obj > 0 ? (obj - bound) / obj : 0;
	r->cut = 1;
}

/*
 * ilp_colgen_raise: the result's bound rises only to a proven bound
 * (cg.bound finite), only when higher than its bound and LP bound,
 * never above its plan; within the gap the plan is proven.
 */
static void test_raise(void)
{
	struct ilp_colgen cg;
	struct ilp_result r;

	ilp_colgen_init(&cg, HUGE_VAL);
	cg.lp = 95;	/* a master LP not proven (cg.proven 0): no bound */
	result_at(&r, ILP_FEASIBLE, 100, 80, 70);
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 0 && r.bound == 80 && r.status == ILP_FEASIBLE,
	      "no proven bound: the bound stays (%.1f)", r.bound);
	cg.bound = 75;
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 0 && r.bound == 80, "a lower proven bound: it stays (%.1f)", r.bound);
	cg.bound = 90;
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 1 && r.bound == 90 && fabs(r.gap - 0.1) < 1e-12 &&
		      r.status == ILP_FEASIBLE && r.cut == 1,
	      "a higher proven bound raises it: %.1f, gap %.4f, status %s", r.bound, r.gap, ilp_status_name(r.status));
	cg.bound = 99.5;
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 1 && r.bound == 99.5 && r.status == ILP_OPTIMAL && r.cut == 0,
	      "within the gap the plan is proven: %.1f, status %s, cut %d", r.bound, ilp_status_name(r.status), r.cut);
	cg.bound = 100 + 1e-7;
	result_at(&r, ILP_FEASIBLE, 100, 80, 70);
	CHECK(ilp_colgen_raise(&cg, &r, 0) == 1 && r.bound == 100 && r.gap == 0 && r.status == ILP_OPTIMAL,
	      "never above the plan: %.9f", r.bound);
	cg.bound = 60;
	result_at(&r, ILP_TIME_LIMIT, 0, 0, 70);
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 0 && r.bound == 0, "no plan: under the LP bound it stays (%.1f)", r.bound);
	cg.bound = 85;
	CHECK(ilp_colgen_raise(&cg, &r, 0.01) == 1 && r.bound == 85 && r.status == ILP_TIME_LIMIT,
	      "no plan: above the LP bound it rises (%.1f), the status stays %s", r.bound, ilp_status_name(r.status));
}

/*
 * The generation's bound, proven, raises a result at the aggregated
 * model's LP bound to the 3 nodes of the optimum: a plan there is proven.
 */
static void check_bound(const struct ilp_colgen *cg, double lp, double opt)
{
	struct ilp_result r;

	result_at(&r, ILP_FEASIBLE, opt, lp, lp);
	CHECK(ilp_colgen_raise(cg, &r, 1e-4) == 1 && fabs(r.bound - opt) <= 1e-6 * opt && r.status == ILP_OPTIMAL,
	      "the proven pattern bound raises %.4f to %.4f (optimum %.4f), status %s", lp, r.bound, opt,
	      ilp_status_name(r.status));
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
		check_take(&fx.p, &c.ix, &cg);
		check_bound(&cg, agg_lp, opt);
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
	test_raise();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
