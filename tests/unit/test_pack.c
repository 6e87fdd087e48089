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
 * trying small instances; the repair places many others.)
 */
#include <math.h>

#include "check.h"
#include "fixture.h"
#include "fixture_ilp.h"
#include "ilp.h"
#include "verify.h"
#include "internal/ilp_pack.h"
#include "internal/ilp_vec.h"

static const char inv[] = INV_HEADER "n,3,L4,1,baremetal,dc1,12,12,rent,,,10,\n";
static const char wl[] = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,modes,"
			 "needs_nvaie,priority\n"
			 "a,t,3,0,2,0.1,none,false,6,4,mps,false,10\n"
			 "b,t,2,0,2,0.1,none,false,3,5,mps,false,10\n"
			 "c,t,2,0,2,0.1,none,false,3,4,mps,false,10\n";

static long total_unplaced(const struct cplan *cp)
{
	long u = 0;
	size_t d;
	for (d = 0; d < cp->p->ndemands; d++)
		u += cp->unplaced[d];
	return u;
}

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

static void test_short_class(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_result r;
	struct ilp_pack pk, pk1;
	struct cplan plain, packed, again, viaplan, one;
	struct cplan_cost cp1, cp2;
	struct diag d = DIAG_INIT;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("pack"), inv, wl, 0))
		return;
	if (fixture_ilp_build(&c, &fx)) {
		fixture_release(&fx);
		return;
	}
	if (model_counts(&c, &r) == 0) {
		cplan_init(&plain, &fx.p);
		cplan_from_counts(&plain, r.nmode, r.ncfg, r.arc);
		/* the premise: if the deal ever packs this, the case no longer tests the packing */
		CHECK(total_unplaced(&plain) == 1, "the deal alone leaves one replica unplaced (got %ld)",
		      total_unplaced(&plain));

		ilp_pack_init(&pk, &fx.p, &c.ix, HUGE_VAL);
		cplan_init(&packed, &fx.p);
		ilp_deal(&pk, &packed, r.nmode, r.ncfg, r.arc);
		CHECK(total_unplaced(&packed) == 0 && packed.nnodes == 3,
		      "packed: %ld unplaced on %zu nodes, want 0 on 3", total_unplaced(&packed), packed.nnodes);
		CHECK(verify_plan(&packed, &d) == 0, "the packed plan verifies: %s", d.msg ? d.msg : "");
		CHECK(pk.packs == 1 && pk.hits == 0 && pk.kept == 1, "one packing, kept (%ld, %ld hits, %ld kept)",
		      pk.packs, pk.hits, pk.kept);

		cplan_init(&again, &fx.p);
		ilp_deal(&pk, &again, r.nmode, r.ncfg, r.arc);
		cplan_cost(&packed, &cp1);
		cplan_cost(&again, &cp2);
		CHECK(pk.packs == 1 && pk.hits == 1 && cp1.objective == cp2.objective && total_unplaced(&again) == 0,
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
		CHECK(total_unplaced(&one) <= total_unplaced(&plain) && verify_plan(&one, &d) == 0,
		      "from the layout: %ld unplaced, the deal %ld", total_unplaced(&one), total_unplaced(&plain));
		CHECK(pk.started == 1, "the full packing started from the layout too (%ld)", pk.started);
		cplan_release(&one);
		ilp_pack_release(&pk1);

		cplan_init(&viaplan, &fx.p);
		ilp_concrete(&fx.p, &r, &viaplan, HUGE_VAL);
		CHECK(total_unplaced(&viaplan) == 0, "ilp_concrete packs too (%ld unplaced)", total_unplaced(&viaplan));

		cplan_release(&viaplan);
		cplan_release(&again);
		cplan_release(&packed);
		cplan_release(&plain);
		ilp_pack_release(&pk);
		ilp_result_release(&fx.p, &r);
	}
	fixture_ilp_release(&c, &fx);
	fixture_release(&fx);
	diag_release(&d);
}

int main(void)
{
	if (fixture_setup("test_pack"))
		return 1;
	test_short_class();
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
