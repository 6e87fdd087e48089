/*
 * test_starts.c - the polish's starts (planner/ilp/ilp_starts.c): which
 * plan whose deal lost replicas (a lossy start) is kept
 * (ilp_lossy_offer), when it is polished first (ilp_lossy_first), a
 * polish that gives up (polish_opts.give_up), and the first polish that
 * takes a lossy start (ilp_starts_first).
 *
 * The plan: two rented one-H100 classes e and f, each holding a replica
 * of low-priority w3, and w4's one replica of priority 10 left out (as a
 * deal that lost it would leave it).  The polish places w4 in a w3
 * replica's stead (test_polish.c).  As a lossy start it is polished
 * first when the plan the polish would take costs more than its model
 * figure; it stands when its polish ends under that plan's cost, which
 * then goes first into the other starts; a polish that cannot get under
 * the cost it is given gives up once its short passes end, and the plan
 * it went before is polished instead.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_ilp.h"
#include "ilp_polish.h"
#include "ilp_starts.h"
#include "ilp_vec.h"

static const char inv_short[] = SHORT_INV;
static const char wl_short[] = SHORT_WL;

/* A new vector of n columns, all v at column 1 (a stand-in plan for the rule's bookkeeping). */
static double *plan_of(size_t n, double v)
{
	double *x = xcalloc(n, sizeof(*x));

	x[1] = v;
	return x;
}

/* ilp_lossy_offer: only plans whose deal lost replicas, the cheapest on the model, the first on a tie. */
static void offer(void)
{
	struct lossy_start l = { NULL, 0, 0 };
	double *x;

	x = plan_of(2, 1);
	ilp_lossy_offer(&l, &x, 50, 2, 40, 2);
	CHECK(!l.x && x, "a plan whose deal lost nothing is not a lossy start");
	ilp_lossy_offer(&l, &x, 50, 3, 40, 2);
	CHECK(l.x && !x && l.obj == 50 && l.model == 40, "a plan whose deal lost a replica is");
	x = plan_of(2, 2);
	ilp_lossy_offer(&l, &x, 45, 1, 40, 0);
	CHECK(x && l.x[1] == 1, "the first of two as cheap on the model stays");
	ilp_lossy_offer(&l, &x, 60, 1, 39, 0);
	CHECK(!x && l.x[1] == 2 && l.obj == 60 && l.model == 39, "a cheaper one on the model replaces it");
	ilp_lossy_offer(&l, &x, 60, 1, 1, 0);
	CHECK(l.x[1] == 2, "nothing offered: nothing changes");
	free(l.x);
}

/* ilp_lossy_first: before a start placing every replica, dearer made concrete, cheaper on the model by the margin. */
static void first(void)
{
	struct lossy_start l = { NULL, 200, 90 };
	double x[2] = { 0, 0 };

	CHECK(!ilp_lossy_first(&l, 100, 0), "no lossy start");
	l.x = x;
	CHECK(ilp_lossy_first(&l, 100, 0), "10 %% cheaper on the model");
	l.model = 100 * (1 - LOSSY_MARGIN) + 1e-3;
	CHECK(!ilp_lossy_first(&l, 100, 0), "cheaper on the model by less than the margin");
	l.model = 100 * (1 - LOSSY_MARGIN) - 1e-3;
	CHECK(ilp_lossy_first(&l, 100, 0), "cheaper on the model by more than the margin");
	CHECK(!ilp_lossy_first(&l, 100, 1), "the start leaves a replica unplaced: no mark to beat");
	l.obj = 100;
	CHECK(!ilp_lossy_first(&l, 100, 0), "as cheap made concrete: it is the start");
}

/* The MIP's optimum with w4 held out (its arcs at 0): a new vector; *obj its cost.  The root LP solved again. */
static double *held_out(struct ilp_ctx *c, size_t d, double *obj)
{
	size_t i;
	double *x;
	int code = 0;

	for (i = 0; i < c->p->narcs; i++)
		if ((size_t)c->p->arcs[i].d == d)
			glp_set_col_bnds(c->P, c->cl.arc[i], GLP_FX, 0, 0);
	x = fixture_ilp_mip(c);
	if (x)
		*obj = ilp_vec_obj(c->P, x);
	for (i = 0; i < c->p->narcs; i++)
		if ((size_t)c->p->arcs[i].d == d)
			glp_set_col_bnds(c->P, c->cl.arc[i], GLP_DB, 0, (double)c->p->demands[d].replicas);
	CHECK(ilp_simplex(c->P, 1, 0, HUGE_VAL, &code) == LP_OPTIMAL, "the root LP again (code %d)", code);
	CHECK(x && ilp_unplaced_sum(c->p, &c->cl, x) > 0.5, "the start leaves w4 out");
	return x;
}

/* A polish of a copy of x (costing obj) giving up at give_up; its cost after, *st what it did. */
static double polish_giving_up(struct ilp_ctx *c, const double *lp, const double *x, double obj, double give_up,
			       struct polish_stats *st)
{
	size_t n = (size_t)glp_get_num_cols(c->P) + 1;
	double *y = xcalloc(n, sizeof(*y)), *made = NULL;
	struct polish_opts po = { lp, HUGE_VAL, POLISH_BOTH, give_up, 0 };

	memcpy(y, x, n * sizeof(*y));
	ilp_polish(c, y, obj, &po, &made, st);
	if (made)
		obj = ilp_vec_obj(c->P, made);
	free(st->untripled);
	free(made);
	free(y);
	return obj;
}

/*
 * ilp_starts_first from the lossy start x (cost obj, model figure 0.5)
 * and a plan to go before costing round_obj that places every replica
 * (a stand-in: no counts, nothing unplaced; what the rule sees of it is
 * its cost, and no pair finds it dearer).  Returns the first polish's
 * result; *more_n: the other starts after it.
 */
static double first_polish(struct ilp_ctx *c, const double *lp, const double *x, double obj, double round_obj,
			   size_t *more_n)
{
	size_t n = (size_t)glp_get_num_cols(c->P) + 1;
	struct ilp_plans pl;
	struct round_starts more;
	double deep;

	memset(&pl, 0, sizeof(pl));
	memset(&more, 0, sizeof(more));
	pl.in_set = xcalloc(c->p->narcs + 1, 1);
	pl.rounded = xcalloc(n, sizeof(*pl.rounded));
	pl.round_obj = round_obj;
	pl.lossy.x = xcalloc(n, sizeof(*pl.lossy.x));
	memcpy(pl.lossy.x, x, n * sizeof(*pl.lossy.x));
	pl.lossy.obj = obj;
	pl.lossy.model = 0.5;
	deep = ilp_starts_first(c, &pl, lp, &more);
	CHECK(!pl.lossy.x && !more.lossy.x, "the lossy starts are consumed");
	CHECK(fabs(deep - pl.round_obj) < 1e-6 * fmax(1, deep), "the first polish's plan %.2f is the rounded one %.2f",
	      deep, pl.round_obj);
	*more_n = more.n;
	if (more.n)
		CHECK(more.obj[0] == round_obj, "the plan the lossy start went before is the first other start");
	while (more.n)
		free(more.x[--more.n]);
	free(pl.rounded);
	free(pl.untripled);
	free(pl.in_set);
	return deep;
}

static void polishes(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct polish_stats st;
	double *x, *lp, obj = 0, got, pen;
	size_t n, j, w4, more_n;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("short"), inv_short, wl_short, 0) != 0)
		return;
	for (w4 = 0; w4 < fx.p.ndemands && strcmp(fx.p.demands[w4].w->name, "w4") != 0; w4++)
		;
	if (w4 < fx.p.ndemands && fixture_ilp_build(&c, &fx) == 0) {
		n = (size_t)glp_get_num_cols(c.P) + 1;
		lp = xcalloc(n, sizeof(*lp));
		for (j = 1; j < n; j++)
			lp[j] = glp_get_col_prim(c.P, (int)j);
		x = held_out(&c, w4, &obj);
		pen = fx.p.demands[w4].solve_penalty;
		if (x) {
			got = polish_giving_up(&c, lp, x, obj, obj - pen / 2, &st);
			CHECK(!st.gave_up && got < obj - pen / 2, "placing w4 gets under the mark: %.2f from %.2f", got, obj);
			got = polish_giving_up(&c, lp, x, obj, 1, &st);
			CHECK(st.gave_up && st.mips[POLISH_LEVEL_DEEP] == 0 && got < obj - pen / 2,
			      "under no mark it can reach: gives up after the short passes (deep MIPs %ld), cost %.2f",
			      st.mips[POLISH_LEVEL_DEEP], got);
			got = first_polish(&c, lp, x, obj, obj - pen / 2, &more_n);
			CHECK(got < obj - pen / 2 && more_n == 1, "the lossy start stands: %.2f, %zu other starts", got, more_n);
			got = first_polish(&c, lp, x, obj, 1, &more_n);
			CHECK(more_n == 0, "the lossy start gave up: the start polished, %zu other starts", more_n);
			printf("lossy start %.2f (w4's penalty %.2f): polished %.2f\n", obj, pen, got);
			free(x);
		}
		free(lp);
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_starts"))
		return 1;
	offer();
	first();
	polishes();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
