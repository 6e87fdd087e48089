/*
 * test_dive_beside.c - where the dive on the LP runs (ilp_dive_beside.c):
 * the rule (pure); the dive on a thread of its own gives the plan the
 * dive on the caller's thread does, made concrete the same, and clears
 * the bound search's hold when it ends, with a plan or (past its time)
 * without; a wait that ends before the dive does says so; and
 * node-limited solves of a generated bench S instance (seed 10, a quick
 * one) on 1 and 2 threads give the same plan (the dive runs after the
 * chains there, to its end).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_ilp.h"
#include "gen.h"
#include "models.h"
#include "util.h"
#include "ilp_dive.h"
#include "ilp_dive_beside.h"
#include "ilp_vec.h"

/* ilp_dive_where: a pure function of its arguments. */
static void test_where(void)
{
	CHECK(ilp_dive_where(1, 1, 2, 0) == DIVE_NONE, "a sifted model: no dive");
	CHECK(ilp_dive_where(1, 0, 1, 0) == DIVE_NONE, "a sifted model under a node limit: no dive");
	CHECK(ilp_dive_where(0, 1, 2, 0) == DIVE_BESIDE, "a time limit, two threads: beside the chains");
	CHECK(ilp_dive_where(0, 1, 8, 0) == DIVE_BESIDE, "a time limit, eight threads: beside the chains");
	CHECK(ilp_dive_where(0, 0, 2, 0) == DIVE_AFTER, "a node limit: after the chains, whatever the threads");
	CHECK(ilp_dive_where(0, 0, 1, 0) == DIVE_AFTER, "a node limit, one thread: after the chains");
	CHECK(ilp_dive_where(0, 1, 1, 0) == DIVE_AFTER, "one thread: after the chains");
	CHECK(ilp_dive_where(0, 1, 2, 1) == DIVE_AFTER, "starved: after the chains");
}

/* The dive beside on c (its root LP solved): the same plan as ilp_dive's made concrete, the hold cleared. */
static void beside_same(const struct ilp_ctx *c, unsigned seed)
{
	struct ilp_dive_beside db;
	atomic_int hold;
	double obj = 0, *x = ilp_dive(c, HUGE_VAL, &obj), *fixed;
	int j, same = 1;

	CHECK(x != NULL, "seed %u: the dive on this thread ends with a plan", seed);
	if (!x)
		return;
	fixed = ilp_repair_vector(c, x);
	atomic_init(&hold, 1);
	ilp_dive_beside_start(&db, c, HUGE_VAL, &hold);
	CHECK(ilp_dive_beside_wait(&db, HUGE_VAL) == 1, "seed %u: the wait ends when the dive does", seed);
	ilp_dive_beside_join(&db);
	CHECK(atomic_load(&hold) == 0, "seed %u: the hold cleared at the dive's end", seed);
	CHECK(db.fixed != NULL, "seed %u: the dive beside ends with a plan", seed);
	for (j = 1; db.fixed && j <= c->cl.ncols; j++)
		same &= db.fixed[j] == fixed[j];
	CHECK(same && db.fobj == ilp_vec_obj(c->P, fixed), "seed %u: the same plan made concrete beside (%.2f)", seed,
	      db.fobj);
	CHECK(db.funplaced == ilp_unplaced_sum(c->p, &c->cl, fixed), "seed %u: its unplaced replicas", seed);
	free(db.fixed);
	free(fixed);
	free(x);

	/* past its time: no plan, the hold cleared all the same */
	atomic_init(&hold, 1);
	ilp_dive_beside_start(&db, c, util_now_s() - 1, &hold);
	ilp_dive_beside_join(&db);
	CHECK(db.fixed == NULL && atomic_load(&hold) == 0, "seed %u: past its time, no plan, no hold", seed);
	CHECK(ilp_dive_beside_wait(&db, util_now_s() - 1) == 1, "seed %u: an ended dive needs no wait", seed);

	/* a wait that ends first returns (0 or, on a fast machine, 1) and the join then waits */
	ilp_dive_beside_start(&db, c, HUGE_VAL, NULL);
	(void)ilp_dive_beside_wait(&db, util_now_s());
	ilp_dive_beside_join(&db);
	CHECK(db.fixed != NULL && db.fobj == ilp_vec_obj(c->P, db.fixed), "seed %u: the join waits for the plan", seed);
	free(db.fixed);
}

/* Node-limited solves on 1 and 2 threads: the same plan (the dive after the chains on both). */
static void node_limited_threads(struct fixture *fx, unsigned seed)
{
	struct diag d = DIAG_INIT;
	struct ilp_opts o;
	struct ilp_result a, b;
	size_t k, i;
	int same = 1;

	memset(&o, 0, sizeof(o));
	o.time_limit_s = 0.001; /* ignored: a node limit turns the clock off */
	o.node_limit = 1;
	o.warm = &fx->cp;
	o.threads = 1;
	CHECK(ilp_solve(&fx->p, &o, &a, &d) == 0, "seed %u: node-limited, 1 thread", seed);
	o.threads = 2;
	CHECK(ilp_solve(&fx->p, &o, &b, &d) == 0, "seed %u: node-limited, 2 threads", seed);
	for (k = 0; k < fx->p.nclasses * MODE_COUNT; k++)
		same &= a.nmode[k] == b.nmode[k];
	for (i = 0; i < fx->p.narcs; i++)
		same &= a.arc[i] == b.arc[i];
	CHECK(a.objective == b.objective && a.bound == b.bound && a.round_objective == b.round_objective && same,
	      "seed %u: the same plan on 1 and 2 threads (%.2f, %.2f)", seed, a.objective, b.objective);
	ilp_result_release(&fx->p, &a);
	ilp_result_release(&fx->p, &b);
	diag_release(&d);
}

static void seed_run(const struct catalog *cat, unsigned seed)
{
	struct diag d = DIAG_INIT;
	struct gen_out g;
	struct fixture fx;
	struct ilp_ctx c;

	CHECK(gen_generate(GEN_S, seed, 0, cat, &g, &d) == 0, "generate S seed %u", seed);
	if (fixture_build(&fx, g.scenario, g.inventory, g.workloads, FIXTURE_GREEDY) != 0) {
		gen_out_release(&g);
		diag_release(&d);
		return;
	}
	if (fixture_ilp_build(&c, &fx) == 0) {
		beside_same(&c, seed);
		fixture_ilp_release(&c, &fx);
	}
	node_limited_threads(&fx, seed);
	fixture_release(&fx);
	gen_out_release(&g);
	diag_release(&d);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;

	if (fixture_setup("test_dive_beside"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	test_where();
	seed_run(&cat, 10);
	catalog_release(&cat);
	diag_release(&d);
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
