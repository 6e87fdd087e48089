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
 *   deadline: the check plan above under resilience: node x1, priority
 *   >= 5 with the test hook of the deadline.  A check of single losses is
 *   the reports' failure analysis and is never cut: expired at once or at
 *   the second poll, the check reaches all 3 failures (1 strands), the
 *   covers stop at their first poll (nothing added), the check after them
 *   runs whole again: stopped before every failure was covered, every
 *   failure checked; that last check, of the plan as the loop leaves it,
 *   is handed to the reports.  With node x2 (3 sets of 2), the check of the sets is
 *   cut: expired at the second poll, it reaches 1 set of 3 (not met, not
 *   every failure checked).  With a 10 s limit on a clock that stands
 *   still and the covers asked to end 20 s before it, the check runs
 *   whole and no cover starts: stopped, every failure checked, and that
 *   check is the reports' analysis of node losses.
 *
 * split (a class full of movable work): passthrough nodes of 2 H100 GPUs;
 *   pin (priority 5, 1 GPU, dc1 only, 2 replicas) and train (priority 1,
 *   2 GPUs, 1 replica, any site).  Class a (dc1, 2 nodes): a-000 split
 *   gpu1*2 holds pin's 2, a-001 split gpu2*1 holds train; class b (dc2,
 *   1 node) closed.  Losing a-000 strands pin's 2: class a is open to its
 *   count and no slot of it takes pin, no single move frees one (train's
 *   slot is a 2-GPU group).  The cover moves train to a new b-000 and
 *   splits a-001 as gpu1*2 (its groups free): pin's 2 fit there, and a
 *   check strands nothing.  With train at priority 5 it may not move:
 *   both stay stranded, nothing is split.
 *   Per GPU: losing GPU 0 of a-000 strands pin's replica there; a-000
 *   may not be split (gpu2*1 has no group for the lost GPU's slot, which
 *   stays), so the cover moves train to b-000 and splits a-001 as
 *   before: 1 lost, 0 stranded, 1 moved, 1 split, and a check of either
 *   GPU of a-000 strands nothing.
 *
 * split on the node that lost a GPU: class a one node of 4 H100 GPUs at
 *   dc1, b one at dc2 (closed).  a-000 split gpu2*1+gpu1*2: train on
 *   GPUs 0-1, pin on GPU 2 and GPU 3.  Losing GPU 2 strands one pin: no
 *   free slot, no node, no single move.  Splits of a-000: gpu2*2 would
 *   drop the lost GPU's group (not made); gpu1*4 keeps pin's groups on
 *   GPUs 2 and 3, and once train moves to a new b-000 gives 2 free
 *   single GPUs (0 and 1).  Covered: 1 lost, 0 stranded, 1 moved, 1
 *   split; a-000 then holds only the 2 pins, so its CPU and RAM are 2
 *   pins' (2 cores, 16 GiB: the loads put back keep train's move).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "failures.h"
#include "fixture.h"
#include "fixture_mig.h"
#include "reserve.h"
#include "resilience.h"
#include "verify.h"

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites,priority\n"

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
	if (mig_hi_lo(fx, &hi, &lo))
		return -1;
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
	reserve_cover(cp, &ix, &(struct reserve_loss){ &node, 1, prio, add, NULL, NULL, 0, NULL }, &rc);
	reserve_index_release(&ix);
	return rc;
}

/*
 * After a cover that added what was missing: a-000's loss now strands
 * nothing, the plan verifies, and no node's loss strands a replica of
 * priority 5 or more.
 */
static void check_headroom(const struct fixture *fx, struct cplan *cp)
{
	struct reserve_cover rc = cover(cp, 0, 5, 0);
	struct diag d = DIAG_INIT;
	struct failures f;
	size_t i;

	CHECK(rc.stranded == 0, "a-000 covered: stranded %ld", rc.stranded);
	CHECK(verify_plan(cp, &d) == 0, "the plan with headroom verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	failures_analyse(&f, cp, 0, 0);
	for (i = 0; i < f.nrows; i++)
		if (f.rows[i].kind == FAIL_NODE && fx->p.demands[f.rows[i].d].w->priority >= 5)
			CHECK(f.rows[i].stranded == 0, "failure analysis: %s strands %ld", f.names[FAIL_NODE][f.rows[i].failure],
			      f.rows[i].stranded);
	failures_release(&f);
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

	if (build(&fx, &cp, 2, "", layout))
		return;
	rc = cover(&cp, 0, 5, 1);
	CHECK(rc.lost == 5 && rc.stranded == 0 && rc.added >= 1 && rc.moved == 0,
	      "a-000 add: stranded %ld added %ld moved %ld", rc.stranded, rc.added, rc.moved);
	CHECK(cp.nnodes == 4 && cp.nodes[3].gpu_used[0] == 0, "b-001 opened, empty: %zu nodes", cp.nnodes);
	CHECK(cp.placed[demand_named(&fx.p, "hi")] == 9 && cp.placed[demand_named(&fx.p, "lo")] == 6,
	      "placed counts unchanged");
	check_headroom(&fx, &cp);
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

/*
 * GPU losses (reserve_loss.gpus): one node of two GPUs, 48 cores, hi 1
 * core, lo 10; GPU 0: 5 hi, 2 lo; GPU 1: 2 lo, 5 free.  Losing GPU 0 at
 * floor 5: its 5 hi fit GPU 1 (the node's cores given back).  Losing
 * GPU 1 at floor 1: its free slots went with it, so 2 lo strand; adding
 * configures nothing (no idle GPU, no node left) and moves nothing.
 */
static void test_gpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_index ix;
	struct reserve_cover rc;
	size_t node = 0, nslots;
	int g0 = 0, g1 = 1, hi, lo;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("reserve"), INV_HEADER "g,1,H100-SXM5-80GB,2,baremetal,dc1,48,512,owned,,,,\n",
			  WL_HEADER "hi,t,5,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,,5\n"
				    "lo,t,4,0,9.5,0.12,hardware,false,10,8,H100-SXM5-80GB,mig,,1\n",
			  0))
		return;
	hi = demand_named(&fx.p, "hi");
	lo = demand_named(&fx.p, "lo");
	cplan_init(&cp, &fx.p);
	fill_node(&cp, 0, hi, 5, lo, 4);
	nslots = cp.nslots;
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 0, &g0, NULL, 0, NULL }, &rc);
	CHECK(rc.lost == 5 && rc.stranded == 0, "gpu 0 at 5: lost %ld stranded %ld", rc.lost, rc.stranded);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 1, 1, &g1, NULL, 0, NULL }, &rc);
	CHECK(rc.lost == 2 && rc.stranded == 2 && rc.added == 0 && rc.moved == 0,
	      "gpu 1 at 1: lost %ld stranded %ld added %ld moved %ld", rc.lost, rc.stranded, rc.added, rc.moved);
	CHECK(cp.nslots == nslots && cp.nodes[0].cpu_used == 45 && cp.nodes[0].gpu_used[1] == 2 &&
		      cp.slots[nslots - 1].d < 0,
	      "the plan is as it was");
	reserve_index_release(&ix);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* A clock that stands still: the deadline's figures depend only on the limits. */
static double still_clock(void)
{
	return 100.0;
}

/*
 * plan_resilience_run on the check plan, node x1 at priority 5, the
 * deadline expiring after `polls` polls (< 0: never); with after_s > 0, a
 * 10 s limit on a clock that stands still, the covers' end after_s before it.
 */
/* The node losses the last check handed to the reports named and analysed (0 0: none handed). */
static size_t resil_named, resil_checked;

static void resil_run(long polls, double after_s, int count, struct plan_resilience *r)
{
	static const int layout[3][2] = { { 5, 0 }, { 0, 3 }, { 4, 3 } };
	struct fixture fx;
	struct cplan cp;
	struct deadline dl;

	memset(r, 0, sizeof(*r));
	if (build(&fx, &cp, 2, "", layout))
		return;
	fx.sc.resilience.present = 1;
	fx.sc.resilience.survive = RESIL_NODE;
	fx.sc.resilience.count = count;
	fx.sc.resilience.priority_at_least = 5;
	if (after_s > 0)
		deadline_set_clock(still_clock);
	deadline_start(&dl);
	dl.expire_polls = polls;
	if (after_s > 0)
		dl.limit_s = 10;
	plan_resilience_run(r, &cp, &fx.sc, &dl, after_s);
	deadline_set_clock(NULL);
	free(r->worst);
	r->worst = NULL;
	free(r->worst_nodes);
	r->worst_nodes = NULL;
	free(r->worst_gpus);
	r->worst_gpus = NULL;
	resil_named = r->have_check ? r->check.nnames[FAIL_NODE] : 0;
	resil_checked = r->have_check ? r->check.nchecked[FAIL_NODE] : 0;
	failures_release(&r->check);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_deadline(void)
{
	struct plan_resilience r;

	resil_run(-1, 0, 1, &r);	/* no limit: covered (b-001 opened), every failure checked */
	CHECK(r.met && r.proven && !r.stopped && r.failures == 4 && r.stranded == 0,
	      "no limit: met %d proven %d stopped %d failures %zu stranded %ld", r.met, r.proven, r.stopped, r.failures,
	      r.stranded);
	CHECK(r.headroom_gpus == 1 && r.usd_per_year_per_gpu == r.usd_per_year,
	      "no limit: b-001's GPU put into service is the headroom (%ld GPUs)", r.headroom_gpus);
	long polls[] = { 0, 1 };
	size_t i;

	for (i = 0; i < sizeof(polls) / sizeof(polls[0]); i++) {
		resil_run(polls[i], 0, 1, &r);	/* the check runs whole; the covers stop at once, not the check after them */
		CHECK(!r.met && r.proven && r.stopped && r.rounds == 1 && r.failures == 3 && r.sets_total == 3 &&
			      r.failing == 1 && r.failing_without == 1 && r.have_check && resil_checked == 3,
		      "covers cut (expired after %ld polls): met %d proven %d stopped %d rounds %d failures %zu of %g, "
		      "failing %zu, before %zu, check handed %d",
		      polls[i], r.met, r.proven, r.stopped, r.rounds, r.failures, r.sets_total, r.failing,
		      r.failing_without, r.have_check);
		CHECK(r.why && strstr(r.why, "before every failure was covered"), "covers cut: %s", r.why ? r.why : "");
		CHECK(r.gpus_with == r.gpus_without && r.headroom_gpus == 0 && r.usd_per_year_per_gpu == 0,
		      "covers cut: nothing added (%ld GPUs, %ld before, headroom %ld)", r.gpus_with, r.gpus_without,
		      r.headroom_gpus);
	}
	resil_run(1, 0, 2, &r);	/* sets of 2: that check is cut after one set */
	CHECK(!r.met && !r.proven && r.stopped && r.rounds == 0 && r.failures == 1 && r.sets_total == 3,
	      "sets cut: met %d proven %d stopped %d rounds %d failures %zu of %g", r.met, r.proven, r.stopped, r.rounds,
	      r.failures, r.sets_total);
	CHECK(r.why && strstr(r.why, "before every failure was checked"), "sets cut: %s", r.why ? r.why : "");
	resil_run(-1, 20, 1, &r);	/* no time left for covers after the first check, which has the whole limit */
	CHECK(!r.met && r.proven && r.stopped && r.rounds == 0 && r.failures == 3 && r.failing == 1 && r.have_check &&
		      resil_checked == 3 && resil_named == 3,
	      "no time for covers: met %d proven %d stopped %d rounds %d failures %zu failing %zu, check handed %d",
	      r.met, r.proven, r.stopped, r.rounds, r.failures, r.failing, r.have_check);
	CHECK(r.why && strstr(r.why, "before every failure was covered"), "no time for covers: %s", r.why ? r.why : "");
}

#define SPLIT_INV                                                   \
	INV_HEADER "a,2,H100-SXM5-80GB,2,baremetal,dc1,64,512,owned,,,,\n" \
		   "b,1,H100-SXM5-80GB,2,baremetal,dc2,64,512,owned,,,,\n"

/* The passthrough node pattern of class k named `name`; -1 when none. */
static int pattern_named(const struct pclass *c, const char *name)
{
	size_t i;
	for (i = 0; i < c->nconfigs; i++)
		if (c->configs[i].mode == MODE_PASSTHROUGH && c->configs[i].node_pattern && !strcmp(c->configs[i].name, name))
			return (int)i;
	return -1;
}

/* Covers the loss of GPU gpu of node `node` with the floor prio; add as reserve_loss.add. */
static struct reserve_cover cover_gpu(struct cplan *cp, size_t node, int gpu, int prio, int add)
{
	struct reserve_index ix;
	struct reserve_cover rc;

	reserve_index_build(&ix, cp);
	reserve_cover(cp, &ix, &(struct reserve_loss){ &node, 1, prio, add, &gpu, NULL, 0, NULL }, &rc);
	reserve_index_release(&ix);
	return rc;
}

/*
 * The split case with train at priority tprio: the cover of a-000's loss
 * (gpu < 0), or of its GPU gpu; *cp kept for more checks.
 */
static int split_case(struct fixture *fx, struct cplan *cp, int tprio, int gpu, struct reserve_cover *rc)
{
	char *wl = xasprintf(WL_HEADER "pin,t,2,1,,,exclusive,false,1,8,H100-SXM5-80GB,passthrough,dc1,5\n"
				       "train,t,1,2,,,exclusive,false,2,16,H100-SXM5-80GB,passthrough,,%d\n",
			     tprio);
	int rc0 = fixture_build(fx, FIXTURE_SC_TEXT("split"), SPLIT_INV, wl, 0), pin, train, p1, p2, node;
	struct diag d = DIAG_INIT;

	free(wl);
	if (rc0)
		return -1;
	pin = demand_named(&fx->p, "pin");
	train = demand_named(&fx->p, "train");
	p1 = pattern_named(&fx->p.classes[0], "gpu1*2");
	p2 = pattern_named(&fx->p.classes[0], "gpu2*1");
	if (pin < 0 || train < 0 || p1 < 0 || p2 < 0) {
		CHECK(0, "pin %d train %d gpu1*2 %d gpu2*1 %d", pin, train, p1, p2);
		fixture_release(fx);
		return -1;
	}
	cplan_init(cp, &fx->p);
	node = cplan_open_node(cp, 0, MODE_PASSTHROUGH, p1);
	cplan_place_at(cp, 0, pin);
	cplan_place_at(cp, 1, pin);
	node = cplan_open_node(cp, 0, MODE_PASSTHROUGH, p2);
	cplan_place_at(cp, 2, train);
	CHECK(node == 1 && cp->nslots == 3, "the hand-built plan: %zu slots", cp->nslots);
	CHECK(verify_plan(cp, &d) == 0, "the hand-built plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	*rc = gpu < 0 ? cover(cp, 0, 5, 1) : cover_gpu(cp, 0, gpu, 5, 1);
	return 0;
}

static void test_split(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;

	if (split_case(&fx, &cp, 1, -1, &rc))
		return;
	CHECK(rc.lost == 2 && rc.stranded == 0 && rc.moved == 1 && rc.split == 1,
	      "a-000: lost %ld stranded %ld moved %ld split %ld", rc.lost, rc.stranded, rc.moved, rc.split);
	CHECK(cp.nnodes == 3 && cp.nodes[2].k == 1 && cp.nodes[2].gpu_used[0] == 1 && cp.nodes[2].gpu_used[1] == 1,
	      "train moved to b-000: %zu nodes", cp.nnodes);
	CHECK(cp.nodes[1].pattern == pattern_named(&fx.p.classes[0], "gpu1*2") && cp.nodes[1].gpu_used[0] == 0 &&
		      cp.nodes[1].gpu_used[1] == 0,
	      "a-001 split gpu1*2, free: pattern %d", cp.nodes[1].pattern);
	check_headroom(&fx, &cp);
	cplan_release(&cp);
	fixture_release(&fx);

	if (split_case(&fx, &cp, 5, -1, &rc))	/* train at the floor: it does not move */
		return;
	CHECK(rc.lost == 2 && rc.stranded == 2 && rc.moved == 0 && rc.split == 0 && cp.nnodes == 2 &&
		      cp.nodes[1].pattern == pattern_named(&fx.p.classes[0], "gpu2*1"),
	      "train at 5: stranded %ld moved %ld split %ld nodes %zu", rc.stranded, rc.moved, rc.split, cp.nnodes);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_split_gpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	struct diag d = DIAG_INIT;

	if (split_case(&fx, &cp, 1, 0, &rc))
		return;
	CHECK(rc.lost == 1 && rc.stranded == 0 && rc.moved == 1 && rc.split == 1,
	      "a-000 gpu 0: lost %ld stranded %ld moved %ld split %ld", rc.lost, rc.stranded, rc.moved, rc.split);
	CHECK(cp.nnodes == 3 && cp.nodes[0].pattern == pattern_named(&fx.p.classes[0], "gpu1*2") &&
		      cp.nodes[1].pattern == pattern_named(&fx.p.classes[0], "gpu1*2") && cp.nodes[1].gpu_used[0] == 0 &&
		      cp.nodes[1].gpu_used[1] == 0,
	      "train moved to b-000, a-001 split gpu1*2, a-000 as it was: %zu nodes", cp.nnodes);
	rc = cover_gpu(&cp, 0, 0, 5, 0);
	CHECK(rc.stranded == 0, "a-000 gpu 0 covered: stranded %ld", rc.stranded);
	rc = cover_gpu(&cp, 0, 1, 5, 0);
	CHECK(rc.stranded == 0, "a-000 gpu 1 covered: stranded %ld", rc.stranded);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* The split of the node that lost a GPU (the header's last case). */
static void test_split_own_node(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	struct diag d = DIAG_INIT;
	int pin, train, mixed, singles;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("split"),
			  INV_HEADER "a,1,H100-SXM5-80GB,4,baremetal,dc1,64,512,owned,,,,\n"
				     "b,1,H100-SXM5-80GB,4,baremetal,dc2,64,512,owned,,,,\n",
			  WL_HEADER "pin,t,2,1,,,exclusive,false,1,8,H100-SXM5-80GB,passthrough,dc1,5\n"
				    "train,t,1,2,,,exclusive,false,2,16,H100-SXM5-80GB,passthrough,,1\n",
			  0))
		return;
	pin = demand_named(&fx.p, "pin");
	train = demand_named(&fx.p, "train");
	mixed = pattern_named(&fx.p.classes[0], "gpu2*1+gpu1*2");
	singles = pattern_named(&fx.p.classes[0], "gpu1*4");
	if (pin < 0 || train < 0 || mixed < 0 || singles < 0) {
		CHECK(0, "pin %d train %d gpu2*1+gpu1*2 %d gpu1*4 %d", pin, train, mixed, singles);
		fixture_release(&fx);
		return;
	}
	cplan_init(&cp, &fx.p);
	cplan_open_node(&cp, 0, MODE_PASSTHROUGH, mixed);
	CHECK(cp.nslots == 3 && cp.slots[0].ngpus == 2 && cp.slots[1].gpu == 2 && cp.slots[2].gpu == 3,
	      "gpu2*1+gpu1*2 lays GPUs 0-1, 2, 3: %zu slots", cp.nslots);
	cplan_place_at(&cp, 0, train);
	cplan_place_at(&cp, 1, pin);
	cplan_place_at(&cp, 2, pin);
	CHECK(verify_plan(&cp, &d) == 0, "the hand-built plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	rc = cover_gpu(&cp, 0, 2, 5, 1);
	CHECK(rc.lost == 1 && rc.stranded == 0 && rc.moved == 1 && rc.split == 1,
	      "a-000 gpu 2: lost %ld stranded %ld moved %ld split %ld", rc.lost, rc.stranded, rc.moved, rc.split);
	CHECK(cp.nnodes == 2 && cp.nodes[0].pattern == singles && cp.slots[1].d == pin && cp.slots[1].gpu == 2 &&
		      cp.slots[2].d == pin && cp.slots[2].gpu == 3 && cp.nodes[1].gpu_used[0] == 1,
	      "a-000 split gpu1*4 around pin's groups, train on b-000: pattern %d, %zu nodes", cp.nodes[0].pattern,
	      cp.nnodes);
	CHECK(cp.nodes[0].cpu_used == 2 && cp.nodes[0].ram_used == 16,
	      "a-000's loads are the 2 pins': %g cores, %g GiB", cp.nodes[0].cpu_used, cp.nodes[0].ram_used);
	rc = cover_gpu(&cp, 0, 2, 5, 0);
	CHECK(rc.stranded == 0, "a-000 gpu 2 covered: stranded %ld", rc.stranded);
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
	test_gpu();
	test_deadline();
	test_split();
	test_split_gpu();
	test_split_own_node();
	fixture_teardown();
	return check_done();
}
