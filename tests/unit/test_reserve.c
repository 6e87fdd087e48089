/*
 * test_reserve.c - headroom covers (reserve.h) on plans built by hand:
 * one-GPU H100 nodes in MIG mode (7 x 1g.10gb each); workload hi
 * (priority 5) and lo (priority 1), one slot each replica.
 *
 *   check: a-000 5 hi (2 free), b-000 3 lo (4 free), c-000 4 hi 3 lo
 *   (full), every class open to its count.  Losing a-000 with the floor
 *   at 5: 4 hi fit b-000, 1 strands; checking adds nothing.  With the
 *   floor at 6 nothing is lost.  Losing c-000: its 4 hi fit a-000 (2)
 *   and b-000 (2).
 *   add: the same, class b may have a second node: the cover opens it
 *   (its GPU configured for hi), a check then strands nothing, no replica moved, and the
 *   failure analysis agrees.
 *   move: hi may run at dc1 only; a-000 5 hi and b-000 3 lo at dc1 (b's
 *   4 other slots free), c-000 at dc2 configured and empty.  Losing
 *   a-000: 4 hi fit b-000, and the fifth takes a slot of b-000 after one
 *   lo moves to c-000 (it still runs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "failures.h"
#include "fixture.h"
#include "reserve.h"
#include "verify.h"

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites,priority\n"

static int demand_named(const struct problem *p, const char *name)
{
	size_t i;
	for (i = 0; i < p->ndemands; i++)
		if (!strcmp(p->demands[i].w->name, name))
			return (int)i;
	return -1;
}

static int mig7(const struct pclass *c)
{
	size_t i;
	for (i = 0; i < c->nconfigs; i++)
		if (c->configs[i].mode == MODE_MIG && !strcmp(c->configs[i].name, "1g.10gb*7"))
			return (int)i;
	return -1;
}

/* Opens class k's node with its GPU as 7 x 1g.10gb, then nhi replicas of hi and nlo of lo. */
static void fill_node(struct cplan *cp, int k, int hi, int nhi, int lo, int nlo)
{
	int node = cplan_open_node(cp, k, MODE_MIG, -1);
	size_t s = cp->nslots;
	int i;

	cplan_configure_gpu(cp, node, 0, mig7(&cp->p->classes[k]));
	for (i = 0; i < nhi; i++)
		cplan_place_at(cp, s++, hi);
	for (i = 0; i < nlo; i++)
		cplan_place_at(cp, s++, lo);
}

/* The fixture and plan of one case: b_count nodes of class b, hi's sites; layout as the header says. */
static int build(struct fixture *fx, struct cplan *cp, int b_count, const char *hi_sites, const int layout[3][2])
{
	char *inv = xasprintf(INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
					 "b,%d,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
					 "c,1,H100-SXM5-80GB,1,baremetal,dc2,64,512,owned,,,,\n",
			      b_count);
	char *wl = xasprintf(WL_HEADER "hi,t,9,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,%s,5\n"
				       "lo,t,6,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,,1\n",
			     hi_sites);
	int rc = fixture_build(fx, FIXTURE_SC_TEXT("reserve"), inv, wl, 0), hi, lo, k;
	struct diag d = DIAG_INIT;

	free(inv);
	free(wl);
	if (rc)
		return -1;
	hi = demand_named(&fx->p, "hi");
	lo = demand_named(&fx->p, "lo");
	if (hi < 0 || lo < 0 || mig7(&fx->p.classes[0]) < 0) {
		CHECK(0, "hi %d, lo %d", hi, lo);
		fixture_release(fx);
		return -1;
	}
	cplan_init(cp, &fx->p);
	for (k = 0; k < 3; k++)
		fill_node(cp, k, hi, layout[k][0], lo, layout[k][1]);
	for (k = 0; k < (int)fx->p.ndemands; k++) {	/* what the layout leaves out is unplaced */
		cp->unplaced[k] = fx->p.demands[k].replicas - cp->placed[k];
		if (cp->unplaced[k])
			cp->reason[k] = xstrdup("left out by the test");
	}
	rc = verify_plan(cp, &d);
	CHECK(rc == 0, "the hand-built plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	return 0;
}

/* Covers the loss of node `node` with the floor prio; add as reserve_loss.add. */
static struct reserve_cover cover(struct cplan *cp, size_t node, int prio, int add)
{
	struct reserve_index ix;
	struct reserve_cover rc;

	reserve_index_build(&ix, cp);
	reserve_cover(cp, &ix, &(struct reserve_loss){ &node, 1, prio, add, NULL }, &rc);
	reserve_index_release(&ix);
	return rc;
}

static void test_check(void)
{
	static const int layout[3][2] = { { 5, 0 }, { 0, 3 }, { 4, 3 } };
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	size_t nslots;

	if (build(&fx, &cp, 1, "", layout))
		return;
	nslots = cp.nslots;
	rc = cover(&cp, 0, 5, 0);
	CHECK(rc.lost == 5 && rc.stranded == 1 && rc.added == 0, "a-000 at 5: lost %ld stranded %ld added %ld",
	      rc.lost, rc.stranded, rc.added);
	rc = cover(&cp, 0, 6, 0);
	CHECK(rc.lost == 0 && rc.stranded == 0, "a-000 at 6: lost %ld", rc.lost);
	rc = cover(&cp, 2, 5, 0);
	CHECK(rc.lost == 4 && rc.stranded == 0, "c-000 at 5: lost %ld stranded %ld", rc.lost, rc.stranded);
	/* every class is open to its count: adding finds nothing, and moving lo frees nothing */
	rc = cover(&cp, 0, 5, 1);
	CHECK(rc.stranded == 1 && rc.added == 0 && rc.moved == 0, "a-000 add: stranded %ld added %ld moved %ld",
	      rc.stranded, rc.added, rc.moved);
	CHECK(cp.nslots == nslots && cp.nodes[0].gpu_used[0] == 5 && cp.nodes[1].gpu_used[0] == 3 &&
		      cp.nodes[2].gpu_used[0] == 7,
	      "the plan is as it was");
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_add(void)
{
	static const int layout[3][2] = { { 5, 0 }, { 0, 3 }, { 4, 3 } };
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	struct failures f;
	struct diag d = DIAG_INIT;
	size_t i;

	if (build(&fx, &cp, 2, "", layout))
		return;
	rc = cover(&cp, 0, 5, 1);
	CHECK(rc.lost == 5 && rc.stranded == 0 && rc.added >= 1 && rc.moved == 0,
	      "a-000 add: stranded %ld added %ld moved %ld", rc.stranded, rc.added, rc.moved);
	CHECK(cp.nnodes == 4 && cp.nodes[3].gpu_used[0] == 0, "b-001 opened, empty: %zu nodes", cp.nnodes);
	CHECK(cp.placed[demand_named(&fx.p, "hi")] == 9 && cp.placed[demand_named(&fx.p, "lo")] == 6,
	      "placed counts unchanged");
	rc = cover(&cp, 0, 5, 0);
	CHECK(rc.stranded == 0, "a-000 covered: stranded %ld", rc.stranded);
	CHECK(verify_plan(&cp, &d) == 0, "the plan with headroom verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	failures_analyse(&f, &cp);
	for (i = 0; i < f.nrows; i++)
		if (f.rows[i].kind == FAIL_NODE && fx.p.demands[f.rows[i].d].w->priority >= 5)
			CHECK(f.rows[i].stranded == 0, "failure analysis: %s strands %ld", f.names[FAIL_NODE][f.rows[i].failure],
			      f.rows[i].stranded);
	failures_release(&f);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_move(void)
{
	static const int layout[3][2] = { { 5, 0 }, { 0, 3 }, { 0, 0 } };
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	struct diag d = DIAG_INIT;
	int lo;

	if (build(&fx, &cp, 1, "dc1", layout))
		return;
	lo = demand_named(&fx.p, "lo");
	rc = cover(&cp, 0, 5, 1);
	CHECK(rc.lost == 5 && rc.stranded == 0 && rc.moved == 1 && rc.added == 0,
	      "a-000: stranded %ld moved %ld added %ld", rc.stranded, rc.moved, rc.added);
	CHECK(cp.nodes[1].gpu_used[0] == 2 && cp.nodes[2].gpu_used[0] == 1 && cp.placed[lo] == 3,
	      "one lo moved from b-000 to c-000: b %d, c %d", cp.nodes[1].gpu_used[0], cp.nodes[2].gpu_used[0]);
	rc = cover(&cp, 0, 5, 0);
	CHECK(rc.stranded == 0, "a-000 covered: stranded %ld", rc.stranded);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	cplan_release(&cp);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_reserve"))
		return 1;
	test_check();
	test_add();
	test_move();
	fixture_teardown();
	return check_done();
}
