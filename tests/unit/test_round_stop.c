/*
 * test_round_stop.c - a rounding the clock stops before any ILP plan
 * exists is completed once (ilp_round.c, round_complete): on bench S
 * seed 1, with the rounding's test hook (ilp_ctx.round_stop, as struct
 * deadline's expire_polls: the clock counts as run out once that many
 * batches less one are rounded) and no real clock at all.  Stopped
 * before the first batch, and after one, the chains still return a
 * plan: the keyed chain's completed rounding made concrete, its cost
 * its vector's, the same plan on one thread and on three; stopped after
 * one batch, every replica placed (the greedy plan places them all).
 * Stopped before the first, the root LP's counts completed leave 3
 * replicas without a slot on this small full fleet, and the nodes given
 * to them (complete_room) take room others needed, so that plan is kept
 * and the greedy one is the cheaper (plan_pick keeps it).  Without the
 * completion no chain ends a rounding and there is no plan: the test
 * fails.  The roundings' own stop (ilp_round_chains's stop_by, the share
 * of the time the roundings get when a plan is in hand: ilp.c,
 * ROUND_SHARE), already past, stops them as the hook does before the
 * first batch: the same completed plan.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixture_ilp.h"
#include "gen.h"
#include "models.h"
#include "util.h"
#include "ilp_round.h"
#include "ilp_vec.h"

/* The chains on c with the clock stopping at batch `stop` on `threads`: the plan's cost (-1: none), *unplaced its unplaced. */
static double stopped_chains(struct ilp_ctx *c, int stop, int threads, double *unplaced)
{
	double best_obj = -1, *best;
	struct round_starts more;
	size_t i;

	c->round_stop = stop > 0 ? stop : 0;
	c->threads = threads;
	c->t0 = util_now_s();
	/* stop 0: no hook, the chains' stop_by already past */
	best = ilp_round_chains(c, &best_obj, stop > 0 ? HUGE_VAL : c->t0 - 1, 0, &more);
	for (i = 0; i < more.n; i++)
		free(more.x[i]);
	if (!best)
		return -1;
	*unplaced = ilp_unplaced_sum(c->p, &c->cl, best);
	CHECK(fabs(ilp_vec_obj(c->P, best) - best_obj) <= 1e-6 * fabs(best_obj), "stop %d: the plan costs %.2f, not %.2f",
	      stop, ilp_vec_obj(c->P, best), best_obj);
	free(best);
	return best_obj;
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	struct gen_out g;
	struct fixture fx;
	struct ilp_ctx c;
	int stop;

	if (fixture_setup("test_round_stop"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	CHECK(gen_generate(GEN_S, 1, 0, &cat, &g, &d) == 0, "generate S seed 1");
	if (fixture_build(&fx, g.scenario, g.inventory, g.workloads, 0) == 0) {
		if (fixture_ilp_build(&c, &fx) == 0) {
			for (stop = 1; stop <= 2; stop++) {
				double u1 = -1, u3 = -1, o1 = stopped_chains(&c, stop, 1, &u1),
				       o3 = stopped_chains(&c, stop, 3, &u3);
				CHECK(o1 > 0, "stopped at batch %d: no plan", stop);
				CHECK(stop == 1 || u1 == 0, "stopped at batch %d: %g replicas unplaced", stop, u1);
				CHECK(o1 == o3 && u1 == u3, "stopped at batch %d: 1 and 3 threads: %.2f / %.2f", stop, o1, o3);
				printf("bench S seed 1, the clock stopping batch %d: completed, made concrete %.2f (%g unplaced)\n",
				       stop, o1, u1);
				if (stop == 1) {
					double u0 = -1, o0 = stopped_chains(&c, 0, 1, &u0);
					CHECK(o0 == o1 && u0 == u1, "stop_by past: %.2f (%g unplaced), the hook's %.2f (%g)", o0,
					      u0, o1, u1);
				}
			}
			fixture_ilp_release(&c, &fx);
		}
		fixture_release(&fx);
	}
	gen_out_release(&g);
	catalog_release(&cat);
	diag_release(&d);
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
