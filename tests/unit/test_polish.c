/*
 * test_polish.c - the polish (planner/ilp/ilp_polish.c) emptying a
 * class (POLISH_EJECT), the levels of its passes (the short ones
 * timed), the unplaced replicas it is offered, and its triples
 * (POLISH_TRIPLE), and which pair MIP results it deals with the whole
 * plan (ilp_polish_worth_dealing).
 *
 * Three rented classes: a, one H100 with 4 cores at 10 $/h; b, one L4
 * with 16 cores at 11 $/h; d, two H100s with 16 cores at 100 $/h.  w1
 * asks for an H100 (2 cores), w2 for 8 cores (any GPU).  The start is
 * the model's optimum with b's nodes held at 0: d holds both.  Moving
 * either replica out of d alone saves nothing (d's node stays), and no
 * replica sits in a or b, so the plain polish pairs nothing that helps
 * and keeps d; emptying d into the pair (a, b) costs 21 $/h against 100.
 *
 * The plain polish changes nothing, so each level of its passes (short,
 * deep, deep with cuts) solves every pair once, in that order; a polish
 * of the deep passes alone (POLISH_DEEP) skips the short level.
 *
 * A plan that leaves a replica unplaced: two rented one-H100 classes e
 * and f, each holding a replica of low-priority w3 (whole GPUs), and
 * w4's one replica of priority 10 left out.  Only leaving a w3 replica
 * in its place places it; a pair MIP that is not offered the plan's
 * unplaced replicas never sees w4, and the plan keeps it unplaced.  Then
 * two such pairs, (e, f) holding w3 and (g, h) holding A100-only w5,
 * solved in one wave and both offered w4: it is placed once.  The
 * polished plan is better than the start by the priority rule, whatever
 * either costs (ilp_vec_better, which keeps the search's polished plan).
 *
 * A move only three classes make together: rented one-GPU classes ta
 * (H100, 10 $/h), tb (A100, 10 $/h) and tc (L40S, 11 $/h); t1 runs on
 * an H100 or an A100, t2 on an A100 or an L40S, both of priority 10,
 * and tw, priority 5, on an H100 only.  The start is the model's
 * optimum with tw held out: t1 on ta, t2 on tb, tc unused.  Placing tw
 * takes ta's GPU, so t1 must go to tb and t2 to tc, all at once: the
 * pair (ta, tb) can place tw only by leaving t2 out, which costs more
 * than tw; the pair (tb, tc) can only move t2 to the dearer tc, and is
 * not offered tw.  The pairs keep tw out; a triple places it.  A fourth
 * class no replica can use (tx, an L4 at 100 $/h) sets the penalty unit
 * (the dearest node): without it tw's penalty is tc's cost, and leaving
 * it out no dearer than placing it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_ilp.h"
#include "ilp_polish.h"
#include "ilp_vec.h"

static const char inv[] = INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,4,64,rent,,,10,1300\n"
				     "b,1,L4,1,baremetal,dc1,16,64,rent,,,11,300\n"
				     "d,1,H100-SXM5-80GB,2,baremetal,dc1,16,128,rent,,,100,1300\n";
static const char wl[] = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,"
			 "modes,sites,needs_nvaie,priority\n"
			 "w1,t,1,1,79,1,none,false,2,8,H100-SXM5-80GB,,,false,10\n"
			 "w2,t,1,1,16,1,none,false,8,8,,,,false,10\n";

static const char inv_short[] = SHORT_INV;
static const char wl_short[] = SHORT_WL;

static const char inv_two[] = INV_HEADER "e,1,H100-SXM5-80GB,1,baremetal,dc1,8,64,rent,,,10,1300\n"
					 "f,1,H100-SXM5-80GB,1,baremetal,dc1,8,64,rent,,,10,1300\n"
					 "g,1,A100-PCIE-80GB,1,baremetal,dc1,8,64,rent,,,10,300\n"
					 "h,1,A100-PCIE-80GB,1,baremetal,dc1,8,64,rent,,,10,300\n";
static const char inv_tri[] = INV_HEADER "ta,1,H100-SXM5-80GB,1,baremetal,dc1,8,64,rent,,,10,300\n"
					 "tb,1,A100-PCIE-80GB,1,baremetal,dc1,8,64,rent,,,10,300\n"
					 "tc,1,L40S,1,baremetal,dc1,8,64,rent,,,11,300\n"
					 "tx,1,L4,1,baremetal,dc1,8,64,rent,,,100,300\n";
static const char wl_tri[] = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,"
			     "modes,sites,needs_nvaie,priority\n"
			     "t1,t,1,1,40,1,none,false,2,8,H100-SXM5-80GB|A100-PCIE-80GB,,,false,10\n"
			     "t2,t,1,1,40,1,none,false,2,8,A100-PCIE-80GB|L40S,,,false,10\n"
			     "tw,t,1,1,40,1,none,false,2,8,H100-SXM5-80GB,,,false,5\n";

static const char wl_two[] = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,"
			     "modes,sites,needs_nvaie,priority\n"
			     "w3,t,2,1,40,1,none,false,2,8,H100-SXM5-80GB,,,false,1\n"
			     "w5,t,2,1,40,1,none,false,2,8,A100-PCIE-80GB,,,false,1\n"
			     "w4,t,1,1,40,1,none,false,2,8,,,,false,10\n";

/* The class of inventory row `row`, or nclasses (checked). */
static size_t class_of(const struct problem *p, size_t row)
{
	size_t k;

	for (k = 0; k < p->nclasses; k++)
		if (p->classes[k].index == row)
			return k;
	CHECK(0, "no class for inventory row %zu", row);
	return p->nclasses;
}

/* Sets the upper bound of class k's node columns to ub (0: none may be used; else the class's count). */
static void hold_class(struct ilp_ctx *c, size_t k, double ub)
{
	int m, j;

	for (m = 0; m < MODE_COUNT; m++) {
		j = c->cl.n[k * MODE_COUNT + (size_t)m];
		if (j)
			glp_set_col_bnds(c->P, j, ub > 0 ? GLP_DB : GLP_FX, 0, ub);
	}
}

/* The start: the MIP's optimum with b held at 0, made concrete, into x (caller frees); its cost. */
static double *start_plan(struct ilp_ctx *c, size_t kb, double *obj)
{
	double *x = NULL, *y;

	hold_class(c, kb, 0);
	y = fixture_ilp_mip(c);
	if (y) {
		x = ilp_repair_vector(c, y);
		free(y);
		*obj = ilp_vec_obj(c->P, x);
	}
	CHECK(x != NULL, "the start's MIP");
	hold_class(c, kb, (double)c->p->classes[kb].nc->count);
	return x;
}

/*
 * Polishes a copy of start with passes; returns the polished plan's cost, *kd_nodes: class kd's nodes in it,
 * *st: what the polish did.
 */
static double polish(struct ilp_ctx *c, const double *start, double start_obj, unsigned passes, size_t kd,
		     double *kd_nodes, struct polish_stats *st)
{
	size_t n = (size_t)glp_get_num_cols(c->P) + 1;
	double *x = xcalloc(n, sizeof(*x)), *lp = xcalloc(n, sizeof(*lp)), *made = NULL, obj = start_obj;
	int code = 0, j;
	struct polish_opts po = { lp, HUGE_VAL, passes, 0, 0 };

	CHECK(ilp_simplex(c->P, 1, 0, HUGE_VAL, &code) == LP_OPTIMAL, "the root LP again (code %d)", code);
	for (j = 1; j < (int)n; j++)
		lp[j] = glp_get_col_prim(c->P, j);
	memcpy(x, start, n * sizeof(*x));
	ilp_polish(c, x, start_obj, &po, &made, st);
	if (made)
		obj = ilp_vec_obj(c->P, made);
	*kd_nodes = ilp_class_nodes(&c->cl, kd, made ? made : x);
	free(made);
	free(lp);
	free(x);
	return obj;
}

/* A polish that changed nothing: every level solved each pair once (the short one only when `short_pass`). */
static void check_levels(const struct polish_stats *st, int short_pass)
{
	long n = st->mips[POLISH_LEVEL_DEEP];

	CHECK(n > 0 && st->mips[POLISH_LEVEL_CUTS] == n && st->mips[POLISH_LEVEL_SHORT] == (short_pass ? n : 0),
	      "pair MIPs: short %ld, deep %ld, with cuts %ld; want each pair once at every level%s",
	      st->mips[POLISH_LEVEL_SHORT], n, st->mips[POLISH_LEVEL_CUTS], short_pass ? "" : " but the short one");
	/* the search's tail is timed on the short waves only (ilp_search.c, search_tail_by) */
	CHECK(short_pass ? st->wave_s > 0 : st->wave_s == 0, "longest short wave %g s, want %s", st->wave_s,
	      short_pass ? "timed" : "none");
}

/*
 * ilp_vec_better on the short plan: the start (w4, priority 10, left
 * out) and the polished plan (a priority-1 replica left out in its
 * stead).  The polished plan is better, and the start is not better than
 * it even at a lower cost (the priority rule first: the objective follows
 * it only where the penalty weights were not capped); between plans that
 * leave the same replicas out, the cheaper by more than rounding.
 */
static void check_better(const struct ilp_ctx *c, const double *start, double start_obj, const double *made,
			 double obj)
{
	CHECK(ilp_vec_better(c, made, obj, start, start_obj), "the polished plan is better than the start");
	CHECK(!ilp_vec_better(c, start, obj * (1 - 1e-3), made, obj), "the start, w4 left out, is not better at a lower cost");
	CHECK(ilp_vec_better(c, made, obj * (1 - 1e-3), made, obj) && !ilp_vec_better(c, made, obj * (1 - 1e-9), made, obj) &&
	      !ilp_vec_better(c, made, obj, made, obj), "the same replicas left out: the cheaper is better");
}

/* Sets the upper bound of demand d's arc columns to ub (0: it cannot be placed; HUGE_VAL: its replicas). */
static void hold_demand(struct ilp_ctx *c, size_t d, double ub)
{
	size_t i;

	for (i = 0; i < c->p->narcs; i++)
		if ((size_t)c->p->arcs[i].d == d)
			glp_set_col_bnds(c->P, c->cl.arc[i], ub > 0 ? GLP_DB : GLP_FX, 0,
					 ub < HUGE_VAL ? ub : (double)c->p->demands[d].replicas);
}

/* Demand d's replicas the polished counts x place (its arcs) and leave (its unplaced column). */
static void demand_in(const struct ilp_ctx *c, size_t d, const double *x, double *placed, double *left)
{
	size_t i;

	*placed = 0;
	for (i = 0; i < c->p->narcs; i++)
		if ((size_t)c->p->arcs[i].d == d)
			*placed += x[c->cl.arc[i]];
	*left = x[c->cl.u[d]];
}

/* The demand of workload `name`, or p->ndemands. */
static size_t demand_named(const struct problem *p, const char *name)
{
	size_t d;

	for (d = 0; d < p->ndemands && strcmp(p->demands[d].w->name, name) != 0; d++)
		;
	return d;
}

/*
 * The MIP's optimum with demand d held out, its counts as they are (the
 * deal would place d itself), into a new vector (NULL when GLPK found
 * none); *obj: its cost.  The root LP is solved again after.
 */
static double *held_out_start(struct ilp_ctx *c, size_t d, double *obj)
{
	double *x;
	int code = 0;

	hold_demand(c, d, 0);
	x = fixture_ilp_mip(c);
	if (x)
		*obj = ilp_vec_obj(c->P, x);
	hold_demand(c, d, HUGE_VAL);
	CHECK(ilp_simplex(c->P, 1, 0, HUGE_VAL, &code) == LP_OPTIMAL, "the root LP again (code %d)", code);
	CHECK(x && ilp_unplaced_sum(c->p, &c->cl, x) > 0.5, "the start leaves %s out", c->p->demands[d].w->name);
	return x;
}

/*
 * The short plan on `inventory` (every class one H100, each holding
 * a w3 replica): the MIP's optimum with w4 held out, polished; the
 * polish places w4 in a w3 replica's stead, and once.
 */
static void short_plan(const char *inventory, const char *workloads)
{
	struct fixture fx;
	struct ilp_ctx c;
	double *x = NULL, *lp, *made = NULL, start_obj = 0, obj, placed, left;
	size_t n, j, w4;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("short"), inventory, workloads, 0) != 0)
		return;
	w4 = demand_named(&fx.p, "w4");
	if (w4 < fx.p.ndemands && fixture_ilp_build(&c, &fx) == 0) {
		struct polish_opts po = { NULL, HUGE_VAL, POLISH_BOTH, 0, 0 };
		n = (size_t)glp_get_num_cols(c.P) + 1;
		lp = xcalloc(n, sizeof(*lp));
		for (j = 1; j < n; j++)
			lp[j] = glp_get_col_prim(c.P, (int)j);
		po.lp = lp;
		x = held_out_start(&c, w4, &start_obj);
		if (x) {
			double *start = xcalloc(n, sizeof(*start));
			memcpy(start, x, n * sizeof(*start));
			ilp_polish(&c, x, start_obj, &po, &made, NULL);
			obj = made ? ilp_vec_obj(c.P, made) : start_obj;
			demand_in(&c, w4, x, &placed, &left);
			CHECK(obj < start_obj - fx.p.demands[w4].penalty / 2,
			      "%zu classes: short plan polished %.2f from %.2f, want w4 placed (its penalty %.2f)",
			      fx.p.nclasses, obj, start_obj, fx.p.demands[w4].penalty);
			CHECK(fabs(placed - 1) < 1e-6 && fabs(left) < 1e-6,
			      "%zu classes: the polished counts place w4 %g times and leave %g (want 1 and 0)",
			      fx.p.nclasses, placed, left);
			printf("%zu classes: short start %.2f, polished %.2f\n", fx.p.nclasses, start_obj, obj);
			if (made)
				check_better(&c, start, start_obj, made, obj);
			free(start);
			free(made);
			free(x);
		}
		free(lp);
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
}

/*
 * Polishes a copy of start (costing start_obj) with passes; returns the
 * polished plan's cost, *placed: demand d's replicas its counts place,
 * *st: what the polish did.
 */
static double polish_placing(struct ilp_ctx *c, const double *start, double start_obj, unsigned passes, size_t d,
			     double *placed, struct polish_stats *st)
{
	size_t n = (size_t)glp_get_num_cols(c->P) + 1, j;
	double *x = xcalloc(n, sizeof(*x)), *lp = xcalloc(n, sizeof(*lp)), *made = NULL, obj = start_obj, left;
	struct polish_opts po = { lp, HUGE_VAL, passes, 0, 0 };

	for (j = 1; j < n; j++)
		lp[j] = glp_get_col_prim(c->P, (int)j);
	memcpy(x, start, n * sizeof(*x));
	ilp_polish(c, x, start_obj, &po, &made, st);
	if (made)
		obj = ilp_vec_obj(c->P, made);
	demand_in(c, d, x, placed, &left);
	free(made);
	free(lp);
	free(x);
	return obj;
}

/*
 * The plan before the triples (st->untripled, the branch-and-cut's start
 * where the triples made the plan cheaper: ilp_search.c, search_run):
 * the pairs' plan, costing what the pairs alone reach (`pairs`), demand
 * d left out as they leave it; freed here.
 */
static void check_untripled(const struct ilp_ctx *c, struct polish_stats *st, double pairs, size_t d)
{
	double placed, left, obj;

	CHECK(st->untripled != NULL, "with triples: no plan before them");
	if (!st->untripled)
		return;
	obj = ilp_vec_obj(c->P, st->untripled);
	demand_in(c, d, st->untripled, &placed, &left);
	CHECK(fabs(obj - pairs) <= 1e-6 * fmax(1, fabs(pairs)) && placed < 1e-6,
	      "the plan before the triples: %.2f, %s placed %g: want the pairs' plan, %.2f, without it", obj,
	      c->p->demands[d].w->name, placed, pairs);
	free(st->untripled);
	st->untripled = NULL;
}

/* The move of three classes (inv_tri, wl_tri): the pairs keep the start, a triple places tw. */
static void three_classes(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct polish_stats st;
	double *start, start_obj = 0, pairs, triples, placed, pen;
	size_t tw;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("triple"), inv_tri, wl_tri, 0) != 0)
		return;
	tw = demand_named(&fx.p, "tw");
	if (tw < fx.p.ndemands && fixture_ilp_build(&c, &fx) == 0) {
		pen = fx.p.demands[tw].penalty;
		start = held_out_start(&c, tw, &start_obj);
		CHECK(!start || ilp_class_nodes(&c.cl, class_of(&fx.p, 2), start) < 0.5, "the start leaves tc unused");
		if (start) {
			pairs = polish_placing(&c, start, start_obj, POLISH_BOTH | POLISH_EJECT, tw, &placed, &st);
			CHECK(pairs > start_obj - pen / 2 && placed < 1e-6 && st.triples == 0,
			      "pairs alone: %.2f from %.2f, tw placed %g, %ld triple MIPs: want tw left out", pairs,
			      start_obj, placed, st.triples);
			CHECK(!st.untripled, "pairs alone: a plan before the triples, where none ran");
			triples = polish_placing(&c, start, start_obj, POLISH_BOTH | POLISH_EJECT | POLISH_TRIPLE, tw,
						 &placed, &st);
			CHECK(triples < start_obj - pen / 2 && fabs(placed - 1) < 1e-6,
			      "with triples: %.2f from %.2f, tw placed %g: want it placed (its penalty %.2f)", triples,
			      start_obj, placed, pen);
			CHECK(st.triples > 0 && st.triples_better == 1,
			      "with triples: %ld triple MIPs, %d cheaper: want one that placed tw", st.triples,
			      st.triples_better);
			check_untripled(&c, &st, pairs, tw);
			printf("three classes: start %.2f, pairs %.2f, with triples %.2f\n", start_obj, pairs, triples);
			free(start);
		}
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
}

/*
 * Which pair MIP results the polish deals with the whole plan: any plan
 * cheaper than the classes' part, also one whose own deal lost replicas
 * (ilp_sub_mip's 1) while the plan places every replica, but not when
 * the MIP found none (-1) or nothing cheaper.
 */
static void worth_dealing(void)
{
	CHECK(ilp_polish_worth_dealing(0, 90, 100, 1) && ilp_polish_worth_dealing(0, 90, 100, 0),
	      "a cheaper plan that deals whole");
	CHECK(ilp_polish_worth_dealing(1, 90, 100, 1), "a cheaper plan whose own deal lost replicas, all placed");
	CHECK(!ilp_polish_worth_dealing(1, 90, 100, 0), "the same while the plan leaves replicas unplaced");
	CHECK(!ilp_polish_worth_dealing(1, 100, 100, 1) && !ilp_polish_worth_dealing(0, 110, 100, 1), "no cheaper");
	CHECK(!ilp_polish_worth_dealing(-1, 0, 100, 1), "no plan found");
}

int main(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct polish_stats st;
	double *start, start_obj = 0, plain, ejected, dn;
	size_t kb, kd;

	if (fixture_setup("test_polish"))
		return 1;
	if (fixture_build(&fx, FIXTURE_SC_TEXT("polish"), inv, wl, 0) == 0) {
		kb = class_of(&fx.p, 1);
		kd = class_of(&fx.p, 2);
		if (kd < fx.p.nclasses && kb < fx.p.nclasses && fixture_ilp_build(&c, &fx) == 0) {
			start = start_plan(&c, kb, &start_obj);
			if (start) {
				CHECK(ilp_class_nodes(&c.cl, kd, start) > 0.5, "the start uses d");
				plain = polish(&c, start, start_obj, POLISH_BOTH, kd, &dn, &st);
				CHECK(dn > 0.5 && plain >= start_obj - 1e-6 * start_obj,
				      "plain polish: d's nodes %.0f, cost %.2f (start %.2f): it cannot empty d", dn, plain,
				      start_obj);
				check_levels(&st, 1);
				polish(&c, start, start_obj, POLISH_DEEP, kd, &dn, &st);
				check_levels(&st, 0);
				ejected = polish(&c, start, start_obj, POLISH_BOTH | POLISH_EJECT, kd, &dn, &st);
				CHECK(dn < 0.5 && ejected < start_obj / 3,
				      "emptying polish: d's nodes %.0f, cost %.2f, want d empty and under a third of %.2f",
				      dn, ejected, start_obj);
				printf("start %.2f, plain polish %.2f, emptying polish %.2f\n", start_obj, plain, ejected);
				free(start);
			}
			fixture_ilp_release(&c, &fx);
		}
		fixture_release(&fx);
	}
	short_plan(inv_short, wl_short);
	short_plan(inv_two, wl_two);
	three_classes();
	worth_dealing();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
