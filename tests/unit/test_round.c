/*
 * test_round.c - the rounding chains (ilp_round.c) on generated bench S
 * instances: the keyed chain, whose LP copies carry the node key sets'
 * CPU and RAM rows (ilp_key.c), the second start it gives the polish,
 * and the rounds' other plans as more starts (in order, each at a cost of
 * its own, at most ROUND_STARTS).
 *
 * Seed 15 (more demand than the fleet holds: 22 replicas stay unplaced
 * at their penalty): the keyed chain's plan made concrete is the
 * cheapest (65,242,628 against the other chains' 70,655,184, measured
 * 2026-11-27), and the other chains' comes back as the alternative start
 * (the polished plan node-limited: 5,724,910 in cost before the keyed
 * chain, 5,642,164 with it).  Without the keyed rows the third chain
 * rounds as chain 0 does and is never the cheaper: the test fails.
 * Seed 1: the keyed chain's plan is not the cheapest, so there is no
 * alternative start, and the plan is the one the two other chains gave
 * before the keyed chain existed (the polish reaches the optimum from it).
 * Both: the same plans on one thread and on three; when the keyed chain
 * rounds first, alone, and each chain once (a starved run), a plan no
 * cheaper than with the feedback rounds (the first roundings are the
 * same: with no clock no chain is cut).  The decision to
 * round it alone (ilp_round_keyed_alone) on its own: only under a time
 * limit, on two threads or more, when the thread that opened the run got
 * less than ROUND_STARVED_RATE of a processor.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture_ilp.h"
#include "gen.h"
#include "models.h"
#include "util.h"
#include "ilp_round.h"
#include "ilp_vec.h"

/*
 * The chains on c at `threads` (alone: the keyed chain first, alone):
 * the best plan's cost, *alt_obj the alternative's (-1: none); the other
 * starts come in order (after the alternative, the cheapest first), each
 * at a cost of its own.
 */
static double chains(struct ilp_ctx *c, int threads, int alone, double *alt_obj, double *unplaced)
{
	double best_obj = 0, *best;
	struct round_starts more;
	size_t i, t;

	c->threads = threads;
	c->t0 = util_now_s();
	best = ilp_round_chains(c, &best_obj, HUGE_VAL, alone, &more);
	CHECK(best != NULL, "%d threads: a plan", threads);
	CHECK(more.n <= ROUND_STARTS, "%d threads: %zu other starts", threads, more.n);
	*alt_obj = more.alt ? more.obj[0] : -1;
	for (i = 0; i < more.n; i++) {
		/* the alternative is taken whatever it costs (round_more): one rounding a chain, on seed 1 the others' plan
		   costs the keyed chain's to 0.02 */
		CHECK((alone && more.alt && i == 0) || fabs(more.obj[i] - best_obj) > 1e-6 * best_obj,
		      "start %zu costs what the plan does (%.2f)", i, best_obj);
		for (t = 0; t < i; t++)
			CHECK(fabs(more.obj[i] - more.obj[t]) > 1e-6 * best_obj, "starts %zu and %zu: the same cost %.2f", t,
			      i, more.obj[i]);
		CHECK(i < (size_t)more.alt + 1 || more.obj[i] >= more.obj[i - 1], "start %zu (%.2f) after a dearer one (%.2f)",
		      i, more.obj[i], more.obj[i - 1]);
		CHECK(fabs(ilp_vec_obj(c->P, more.x[i]) - more.obj[i]) <= 1e-6 * more.obj[i], "start %zu: its cost %.2f",
		      i, more.obj[i]);
		free(more.x[i]);
	}
	printf("%d threads: %zu other starts\n", threads, more.n);
	*unplaced = best ? ilp_unplaced_sum(c->p, &c->cl, best) : -1;
	free(best);
	return best_obj;
}

/* Rounds bench S of `seed`; *keyed_won when the keyed chain's plan was the cheapest. */
static void round_seed(const struct catalog *cat, unsigned seed, int *keyed_won, double *best_out, double *alt_out)
{
	struct diag d = DIAG_INIT;
	struct gen_out g;
	struct fixture fx;
	struct ilp_ctx c;
	double b1, b3, a1, a3, u1, u3, b2, a2, u2;

	*keyed_won = -1;
	CHECK(gen_generate(GEN_S, seed, 0, cat, &g, &d) == 0, "generate S seed %u", seed);
	if (fixture_build(&fx, g.scenario, g.inventory, g.workloads, 0) != 0) {
		gen_out_release(&g);
		diag_release(&d);
		return;
	}
	if (fixture_ilp_build(&c, &fx) == 0) { /* no clock: as under a node limit */
		b1 = chains(&c, 1, 0, &a1, &u1);
		b3 = chains(&c, 3, 0, &a3, &u3);
		CHECK(b1 == b3 && a1 == a3 && u1 == u3, "seed %u: 1 and 3 threads: %.2f / %.2f, alternative %.2f / %.2f",
		      seed, b1, b3, a1, a3);
		b2 = chains(&c, 2, 1, &a2, &u2);
		CHECK(b2 >= b1 - 1e-6 * b1, "seed %u: the keyed chain alone first, one rounding a chain: %.2f, below the "
		      "chains' %.2f with their feedback rounds", seed, b2, b1);
		printf("bench S seed %u: one rounding a chain, the keyed chain first: %.2f (%g unplaced; the other "
		       "chains' %.2f)\n", seed, b2, u2, a2);
		CHECK(a1 < 0 || b1 < a1 - 1e-6, "seed %u: the keyed chain's plan %.2f first only when cheaper than %.2f",
		      seed, b1, a1);
		printf("bench S seed %u: rounded %.2f (%g replicas unplaced); the other chains' %.2f\n", seed, b1, u1, a1);
		*keyed_won = a1 >= 0;
		*best_out = b1;
		*alt_out = a1;
		fixture_ilp_release(&c, &fx);
	}
	fixture_release(&fx);
	gen_out_release(&g);
	diag_release(&d);
}

/* ilp_round_keyed_alone: a pure function of the CPU and wall seconds, the threads and the clock. */
static void test_keyed_alone(void)
{
	CHECK(ilp_round_keyed_alone(0.3, 1.0, 2, 1), "a third of a processor, 2 threads, timed: alone");
	CHECK(!ilp_round_keyed_alone(1.0, 1.0, 2, 1), "a whole processor: the chains side by side");
	CHECK(!ilp_round_keyed_alone(2.0 / 3, 1.0, 2, 1), "two thirds (an idle two-processor machine, three threads): "
							  "side by side");
	CHECK(!ilp_round_keyed_alone(ROUND_STARVED_RATE, 1.0, 2, 1), "at the rate: side by side");
	CHECK(!ilp_round_keyed_alone(0.3, 1.0, 1, 1), "one thread: nothing to run alone on");
	CHECK(!ilp_round_keyed_alone(0.3, 1.0, 2, 0), "no clock (a node limit): side by side, as always");
	CHECK(!ilp_round_keyed_alone(0, ROUND_STARVED_WALL / 2, 2, 1), "too short a measure: side by side");
	CHECK(ROUND_STARVED_RATE < 2.0 / 3, "an idle two-processor machine's share (2/3) is not starved");
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	double best = 0, alt = 0;
	int won;

	if (fixture_setup("test_round"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	test_keyed_alone();
	round_seed(&cat, 15, &won, &best, &alt);
	CHECK(won == 1, "seed 15: the keyed chain's plan is the cheapest (%.2f; the others' %.2f)", best, alt);
	round_seed(&cat, 1, &won, &best, &alt);
	CHECK(won == 0, "seed 1: the other chains' plan is the cheapest (%.2f)", best);
	catalog_release(&cat);
	diag_release(&d);
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
