/*
 * test_pack.c - the exact packing of a class the deal leaves short
 * (ilp_pack.c).
 *
 * Three nodes of one L4, 12 cores and 12 GiB each; three replicas of 6
 * cores and 4 GiB, two of 3 cores and 5 GiB, two of 3 cores and 4 GiB:
 * 30 cores and 30 GiB in all.  The model sums CPU and RAM over the
 * class's nodes, so its optimum is the three nodes with every replica.
 * Dealt, one replica finds no node with room, and moving others out of
 * its way (two levels deep) does not make any; packed exactly, the nodes
 * hold {6+6}, {6+3+3 cores, 4+4+4 GiB}, {3+3 cores, 5+5 GiB}.  (Found by
 * trying small instances; the repair places many others.)  Then the plan
 * written is the plan the solve made concrete (the memo).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "fixture_ilp.h"
#include "ilp.h"
#include "util.h"
#include "verify.h"
#include "ilp_pack.h"
#include "ilp_vec.h"

static const char inv[] = PACK_INV;
static const char wl[] = PACK_WL;

/* The model's optimum as counts: every replica placed. */
static int model_counts(struct ilp_ctx *c, struct ilp_result *r)
{
	glp_iocp io;
	double *x;
	int j;

	glp_init_iocp(&io);
	io.msg_lev = GLP_MSG_OFF;
	if (glp_intopt(c->P, &io) || glp_mip_status(c->P) != GLP_OPT) {
		CHECK(0, "the model's MIP");
		return -1;
	}
	x = xcalloc((size_t)c->cl.ncols + 1, sizeof(*x));
	for (j = 1; j <= c->cl.ncols; j++)
		x[j] = glp_mip_col_val(c->P, j);
	CHECK(ilp_unplaced_sum(c->p, &c->cl, x) < 0.5, "the model's optimum places everything (%.1f unplaced)",
	      ilp_unplaced_sum(c->p, &c->cl, x));
	memset(r, 0, sizeof(*r));
	ilp_result_alloc(c->p, r);
	ilp_take_plan(c->p, &c->cl, x, r);
	free(x);
	return 0;
}

/* The case's fixture, model and root LP, and the model's optimum as counts: 0, or -1 (nothing held). */
static int case_open(struct fixture *fx, struct ilp_ctx *c, struct ilp_result *r)
{
	if (fixture_build(fx, FIXTURE_SC_TEXT("pack"), inv, wl, 0))
		return -1;
	if (fixture_ilp_build(c, fx) == 0) {
		if (model_counts(c, r) == 0)
			return 0;
		fixture_ilp_release(c, fx);
	}
	fixture_release(fx);
	return -1;
}

static void case_close(struct fixture *fx, struct ilp_ctx *c, struct ilp_result *r)
{
	ilp_result_release(&fx->p, r);
	fixture_ilp_release(c, fx);
	fixture_release(fx);
}

static void test_short_class(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_result r;
	struct ilp_pack pk, pk1;
	struct cplan plain, packed, again, viaplan, one;
	struct cplan_cost cp1, cp2;
	struct diag d = DIAG_INIT;

	if (case_open(&fx, &c, &r) == 0) {
		cplan_init(&plain, &fx.p);
		cplan_from_counts(&plain, r.nmode, r.ncfg, r.arc);
		/* the premise: if the deal ever packs this, the case no longer tests the packing */
		CHECK(cplan_unplaced_count(&plain) == 1, "the deal alone leaves one replica unplaced (got %ld)",
		      cplan_unplaced_count(&plain));

		ilp_pack_init(&pk, &fx.p, &c.ix, HUGE_VAL);
		cplan_init(&packed, &fx.p);
		ilp_deal(&pk, &packed, r.nmode, r.ncfg, r.arc);
		CHECK(cplan_unplaced_count(&packed) == 0 && packed.nnodes == 3,
		      "packed: %ld unplaced on %zu nodes, want 0 on 3", cplan_unplaced_count(&packed), packed.nnodes);
		CHECK(verify_plan(&packed, &d) == 0, "the packed plan verifies: %s", d.msg ? d.msg : "");
		CHECK(pk.packs == 1 && pk.hits == 0 && pk.kept == 1, "one packing, kept (%ld, %ld hits, %ld kept)",
		      pk.packs, pk.hits, pk.kept);

		cplan_init(&again, &fx.p);
		ilp_deal(&pk, &again, r.nmode, r.ncfg, r.arc);
		cplan_cost(&packed, &cp1);
		cplan_cost(&again, &cp2);
		CHECK(pk.packs == 1 && pk.hits == 1 && cp1.objective == cp2.objective && cplan_unplaced_count(&again) == 0,
		      "the same share again: from the cache (%ld packs, %ld hits), the same plan (%.2f, %.2f)", pk.packs,
		      pk.hits, cp1.objective, cp2.objective);

		/*
		 * With a budget of one branch-and-bound node the packing stands
		 * on its start: the deal's own layout, solved for as a fixed
		 * MIP (it fails if the layout breaks any row of the one-node
		 * model), so it never places fewer than the deal.
		 */
		ilp_pack_init(&pk1, &fx.p, &c.ix, HUGE_VAL);
		pk1.mip_nodes = 1;
		cplan_init(&one, &fx.p);
		ilp_deal(&pk1, &one, r.nmode, r.ncfg, r.arc);
		CHECK(pk1.packs == 1 && pk1.started == 1, "one packing, from the deal's layout (%ld, %ld started)",
		      pk1.packs, pk1.started);
		CHECK(cplan_unplaced_count(&one) <= cplan_unplaced_count(&plain) && verify_plan(&one, &d) == 0,
		      "from the layout: %ld unplaced, the deal %ld", cplan_unplaced_count(&one), cplan_unplaced_count(&plain));
		CHECK(pk.started == 1, "the full packing started from the layout too (%ld)", pk.started);
		cplan_release(&one);
		ilp_pack_release(&pk1);

		cplan_init(&viaplan, &fx.p);
		ilp_concrete(&fx.p, &r, &viaplan, HUGE_VAL);
		CHECK(cplan_unplaced_count(&viaplan) == 0, "ilp_concrete packs too (%ld unplaced)", cplan_unplaced_count(&viaplan));

		cplan_release(&viaplan);
		cplan_release(&again);
		cplan_release(&packed);
		cplan_release(&plain);
		ilp_pack_release(&pk);
		case_close(&fx, &c, &r);
	}
	diag_release(&d);
}

/*
 * A deal's packings stop one deal tail (ilp_pack_tail, the longest part
 * of a deal no clock stops) before the packer's deadline, so that a deal
 * started a tail before it ends by it: with a deadline far ahead but a
 * tail longer than that, the short class is not packed (the deal's own
 * plan, one replica unplaced) and nothing is cached; the same packer
 * with no deadline packs it.  No clock decides: the tail is set, the
 * deadline is 10^6 s ahead.  The phases keep ilp_deal_tail for each deal
 * still to make: at least DEAL_GREEDIES greedy passes, else the tail.
 */
static void test_tail(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_result r;
	struct ilp_pack pk;
	struct cplan cut, packed;

	if (case_open(&fx, &c, &r) == 0) {
		ilp_pack_init(&pk, &fx.p, &c.ix, util_now_s() + 1e6);
		pk.tail_s = 2e6;
		cplan_init(&cut, &fx.p);
		ilp_deal(&pk, &cut, r.nmode, r.ncfg, r.arc);
		CHECK(cplan_unplaced_count(&cut) == 1 && pk.n == 0 && pk.kept == 0,
		      "no time for the packing before the deadline less the tail: %ld unplaced, %zu cached, %ld kept",
		      cplan_unplaced_count(&cut), pk.n, pk.kept);
		CHECK(ilp_pack_tail(&pk) >= 2e6, "the tail is the longest measured (%g)", ilp_pack_tail(&pk));
		c.pack = &pk;
		c.deal_s = 1;
		CHECK(ilp_deal_tail(&c) == pk.tail_s, "the tail kept is the measured one (%g)", ilp_deal_tail(&c));
		pk.tail_s = 0;
		CHECK(ilp_deal_tail(&c) >= DEAL_GREEDIES * c.deal_s, "at least DEAL_GREEDIES greedy passes (%g)",
		      ilp_deal_tail(&c));
		c.pack = NULL;
		pk.deadline = HUGE_VAL;
		cplan_init(&packed, &fx.p);
		ilp_deal(&pk, &packed, r.nmode, r.ncfg, r.arc);
		CHECK(cplan_unplaced_count(&packed) == 0, "no deadline: packed (%ld unplaced)", cplan_unplaced_count(&packed));
		cplan_release(&packed);
		cplan_release(&cut);
		ilp_pack_release(&pk);
		case_close(&fx, &c, &r);
	}
}

/*
 * The plan written is the plan the solve made concrete: ilp_repair_vector
 * remembers the counts each concrete plan was dealt from, and
 * ilp_concrete, given the solve's packer (ilp_result.pack), deals those
 * counts again, the packing from the cache.  (Dealing a concrete plan's
 * own counts need not give it back: on bench S seed 6 a plan of
 * 3,312,957.85 was written as 6,002,557.03.)
 */
static void test_memo(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_result r, rf, memo;
	struct ilp_pack pk;
	struct cplan cp;
	double *x, *fixed;
	long hits;

	if (case_open(&fx, &c, &r) == 0) {
		ilp_pack_init(&pk, &fx.p, &c.ix, HUGE_VAL);
		c.pack = &pk;
		x = xcalloc((size_t)c.cl.ncols + 1, sizeof(*x));
		ilp_counts_vector(&fx.p, &c.cl, &r, x);
		fixed = ilp_repair_vector(&c, x);
		memset(&rf, 0, sizeof(rf));
		ilp_result_alloc(&fx.p, &rf);
		ilp_take_plan(&fx.p, &c.cl, fixed, &rf);
		CHECK(pk.nmemo == 1 && pk.memo[0].made == ilp_counts_hash(&fx.p, &rf),
		      "the concrete plan remembered (%zu)", pk.nmemo);
		memo = r;	/* r with the memo's counts */
		if (pk.nmemo == 1) {
			memo.nmode = pk.memo[0].from.nmode;
			memo.ncfg = pk.memo[0].from.ncfg;
			memo.arc = pk.memo[0].from.arc;
		}
		CHECK(pk.nmemo == 1 && ilp_counts_hash(&fx.p, &memo) == ilp_counts_hash(&fx.p, &r),
		      "with the counts it was dealt from");
		CHECK(pk.nmemo == 1 && fabs(pk.memo[0].cost - ilp_vec_obj(c.P, fixed)) < 1e-6, "and its cost");
		hits = pk.hits;
		rf.pack = &pk;
		cplan_init(&cp, &fx.p);
		ilp_concrete(&fx.p, &rf, &cp, HUGE_VAL);
		rf.pack = NULL;
		CHECK(pk.hits == hits + 1 && pk.ix == NULL, "the packing from the cache (%ld hits)", pk.hits - hits);
		fixture_ilp_same_plan(&c, &fx, &cp, fixed);
		cplan_release(&cp);
		ilp_result_release(&fx.p, &rf);
		free(fixed);
		free(x);
		c.pack = NULL;
		ilp_pack_release(&pk);
		case_close(&fx, &c, &r);
	}
}

/* The memo keeps the PACK_MEMO cheapest, by cost then hash, whatever the order they come in. */
static void test_memo_order(void)
{
	static const double cost[] = { 5, 3, 4, 3, 1, 2, 9 };
	static const uint64_t made[] = { 50, 31, 40, 30, 10, 20, 90 };
	struct fixture fx;
	struct ilp_result r;
	struct ilp_pack a, b;
	size_t i, n = sizeof(cost) / sizeof(*cost), ok = 1;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("pack"), inv, wl, 0))
		return;
	memset(&r, 0, sizeof(r));
	ilp_result_alloc(&fx.p, &r);
	ilp_pack_init(&a, &fx.p, NULL, HUGE_VAL);
	ilp_pack_init(&b, &fx.p, NULL, HUGE_VAL);
	for (i = 0; i < n; i++) {
		ilp_pack_remember(&a, made[i], cost[i], &r);
		ilp_pack_remember(&b, made[n - 1 - i], cost[n - 1 - i], &r);
	}
	ilp_pack_remember(&a, 10, 0.5, &r);	/* known already: stays as it was */
	CHECK(a.nmemo == PACK_MEMO && b.nmemo == PACK_MEMO, "%zu and %zu kept", a.nmemo, b.nmemo);
	for (i = 0; i < PACK_MEMO && i < a.nmemo && i < b.nmemo; i++)
		ok &= a.memo[i].made == b.memo[i].made && a.memo[i].cost == b.memo[i].cost;
	CHECK(ok, "the same memo in either order");
	CHECK(a.nmemo == PACK_MEMO && a.memo[0].made == 10 && a.memo[1].made == 20 && a.memo[2].made == 30 &&
	      a.memo[3].made == 31 && a.memo[0].cost == 1, "the cheapest, by cost then hash");
	ilp_pack_release(&a);
	ilp_pack_release(&b);
	ilp_result_release(&fx.p, &r);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_pack"))
		return 1;
	test_short_class();
	test_tail();
	test_memo();
	test_memo_order();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
