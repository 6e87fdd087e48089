/*
 * test_dive.c - the dive on the LP (ilp_dive.c): the order it rounds
 * counts in and its batches (pure), and the dive on generated bench S
 * instances without a clock: a plan whose every count is whole, at the
 * cost it states, the same twice, placing every replica of these fleets
 * in the model (made concrete it loses some on both: on S the roundings'
 * plans are the cheaper starts); and no plan when its time is past.
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
#include "ilp_vec.h"

/* ilp_dive_before and ilp_dive_batch: pure functions of their arguments. */
static void test_order(void)
{
	CHECK(ilp_dive_before(0.5, 0, 0.9, 1), "fewer up-locks first, however far from its integer");
	CHECK(!ilp_dive_before(0.9, 1, 0.5, 0), "more up-locks later");
	CHECK(ilp_dive_before(2.9, 1, 2.5, 1), "the same locks: the nearer its next integer up first");
	CHECK(!ilp_dive_before(2.5, 1, 2.9, 1), "the same locks: the farther later");
	CHECK(!ilp_dive_before(1.5, 2, 3.5, 2), "a tie is no order");
	CHECK(ilp_dive_batch(1) == 1 && ilp_dive_batch(15) == 1, "a batch is at least one count");
	CHECK(ilp_dive_batch(32) == 2 && ilp_dive_batch(160) == 10, "a sixteenth of the fractional counts");
}

/* The dive on bench S of `seed`, its root LP solved, no clock. */
static void dive_seed(const struct catalog *cat, unsigned seed)
{
	struct diag d = DIAG_INIT;
	struct gen_out g;
	struct fixture fx;
	struct ilp_ctx c;
	double obj = 0, obj2 = 0, lp, *x, *y;
	int j, whole = 1, same = 1;

	CHECK(gen_generate(GEN_S, seed, 0, cat, &g, &d) == 0, "generate S seed %u", seed);
	if (fixture_build(&fx, g.scenario, g.inventory, g.workloads, 0) != 0) {
		gen_out_release(&g);
		diag_release(&d);
		return;
	}
	if (fixture_ilp_build(&c, &fx) == 0) {
		lp = glp_get_obj_val(c.P);
		x = ilp_dive(&c, HUGE_VAL, &obj);
		y = ilp_dive(&c, HUGE_VAL, &obj2);
		CHECK(x && y, "seed %u: the dive ends with a plan", seed);
		for (j = 1; x && y && j <= c.cl.ncols; j++) {
			if (glp_get_col_kind(c.P, j) == GLP_IV)
				whole &= fabs(x[j] - floor(x[j] + 0.5)) < 1e-9;
			same &= x[j] == y[j];
		}
		CHECK(whole, "seed %u: every count whole", seed);
		CHECK(same && obj == obj2, "seed %u: the same plan twice (%.2f, %.2f)", seed, obj, obj2);
		CHECK(!x || fabs(ilp_vec_obj(c.P, x) - obj) <= 1e-6 * fabs(obj), "seed %u: its cost %.2f", seed, obj);
		if (x) {
			double *fixed = ilp_repair_vector(&c, x);
			CHECK(ilp_unplaced_sum(c.p, &c.cl, x) < 0.5, "seed %u: the dive's plan places every replica", seed);
			printf("bench S seed %u: dive %.2f, made concrete %.2f (%g unplaced); LP %.2f\n", seed, obj,
			       ilp_vec_obj(c.P, fixed), ilp_unplaced_sum(c.p, &c.cl, fixed), lp);
			free(fixed);
		}
		free(x);
		free(y);
		CHECK(ilp_dive(&c, util_now_s() - 1, &obj) == NULL, "seed %u: past its time, no plan", seed);
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
	gen_out_release(&g);
	diag_release(&d);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;

	if (fixture_setup("test_dive"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	test_order();
	dive_seed(&cat, 1);
	dive_seed(&cat, 4);
	catalog_release(&cat);
	diag_release(&d);
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
