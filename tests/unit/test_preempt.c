/*
 * test_preempt.c - priority preemption after a failure (preempt.h): the
 * failure analysis and the headroom covers with a floor of 5, on the
 * hand-built MIG plan of test_failures.c (one-GPU H100 nodes as 7 x
 * 1g.10gb; hi priority 5, lo priority 1, one slot a replica):
 *
 *   a-000 (dc1): 5 hi (2 free)   b-000 (dc1): 3 lo (4 free)   c-000 (dc2): 4 hi, 3 lo
 *
 * Losing a-000: 4 hi fit b-000's free slots, the fifth evicts b-000's
 * first lo (no free slot is left for it: lo lost 1, stranded 1).  Losing
 * b-000 or c-000 is as without preemption (lo never evicts; c-000's hi
 * fit the free slots), which holds only when a-000's eviction was undone.
 * Losing dc1: c-000's 3 lo make way for 3 hi, 2 hi strand; lo loses its
 * 3 and the 3 evicted.  With class b able to open a second node, the
 * cover of a-000 adds nothing: the eviction is the headroom; the plan is
 * as it was after it.
 *
 * With lo a VM workload (no pod), nothing evicts it: a-000's fifth hi
 * strands.
 *
 * A lost GPU's replicas are not evicted again: one node of two GPUs, GPU
 * 0 with 5 hi and 2 lo, GPU 1 with 7 lo.  Losing GPU 0 places its 5 hi
 * by evicting 5 lo of GPU 1 (not GPU 0's 2 lo, whose slots come first):
 * lo lost 2 + 5 = 7.
 *
 * make_room (leave-out-lower-priority), the covers' last resort: classes
 * a and b of one node each at dc1, both full; hi (priority 5, a VM: it
 * evicts nothing) 7 on a-000, b-000 holding mid (priority 3) in its
 * first 2 slots, then lo (priority 1) in 5.  The choice for hi is the
 * lowest priority, not slot order: lo's first slot (b-000's third).  A
 * cover of a-000 (no free slot, no node to open, lo and mid nowhere to
 * move, MIG is never split) leaves out lo's 5 then mid's 2: 7 lost, 0
 * stranded, 7 left out, every one noted; b-000 then empty and the plan
 * verifies (placed + unplaced = replicas).  Without make_room all 7
 * strand and nothing changes.  A replica left out leaves a gap in its
 * workload's replica numbers, which preempt_renumber closes.
 *
 * make_room where CPU is short: nodes of 8 cores, hi asking 2 a replica,
 * lo 1.  a-000 3 hi; b-000 2 hi, 4 lo and a free slot, its 8 cores
 * taken.  Losing a-000: no lo slot can be taken for hi (8 - 1 + 2 > 8),
 * so the free slot is, with 2 lo left out for its CPU; the second hi the
 * same (a slot 2 lo freed, 2 lo more out); the third finds no lo left
 * and strands: 3 lost, 1 stranded, 4 left out.
 *
 * make_room where no slot of the type is held: two KVM hosts of one H100
 * each; hi (priority 5, a VM that takes vGPU only) 4 on a-000 in vGPU
 * (the profile taking the most of it), b-000 in bare MIG holding lo
 * (priority 1) in 7 x 1g.10gb.  Losing a-000: no vGPU slot is free or
 * held, no node is left to open, MIG is never split; no GPU of b-000 can
 * serve hi in MIG, so b-000 is emptied whole (its 7 lo left out) and
 * opened anew in vGPU: 4 lost, 0 stranded, 7 left out, 1 emptied, and
 * the plan verifies.  Without the step all 4 strand.
 *
 * The same with a GPU: two bare-metal hosts of one H100 in MIG; hi (a
 * pod of priority 5 that takes a 3g.40gb instance) 1 on a-000, b-000's
 * GPU as 7 x 1g.10gb holding 7 lo.  Losing a-000: no 3g.40gb slot is
 * free or held, so b-000's GPU is emptied and made idle, then
 * configured anew in MIG for hi: b-000 stays in MIG, not reopened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "cplan_engine.h"
#include "failures.h"
#include "fixture.h"
#include "fixture_mig.h"
#include "preempt.h"
#include "reserve.h"
#include "reserve_empty.h"
#include "verify.h"

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,priority\n"

/* The plan of the header, class b with b_count nodes; 0, or -1. */
static int build(struct fixture *fx, struct cplan *cp, int b_count)
{
	char *inv = xasprintf(INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
					 "b,%d,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
					 "c,1,H100-SXM5-80GB,1,baremetal,dc2,64,512,owned,,,,\n",
			      b_count);
	int rc = fixture_build(fx, FIXTURE_SC_TEXT("preempt"), inv,
			       WL_HEADER "hi,t,9,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
					 "lo,t,6,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			       0);
	int hi, lo;

	free(inv);
	if (rc)
		return -1;
	if (mig_hi_lo(fx, &hi, &lo))
		return -1;
	cplan_init(cp, &fx->p);
	fill_node(cp, 0, hi, 5, lo, 0);
	fill_node(cp, 1, hi, 0, lo, 3);
	fill_node(cp, 2, hi, 4, lo, 3);
	return 0;
}

/* Every slot holds what snap says (demand, replica): the plan is as it was. */
static int same_slots(const struct cplan *cp, const struct cslot *snap, size_t n)
{
	size_t i;

	if (cp->nslots != n)
		return 0;
	for (i = 0; i < n; i++)
		if (cp->slots[i].d != snap[i].d || cp->slots[i].replica != snap[i].replica)
			return 0;
	return 1;
}

static void test_analysis(void)
{
	struct fixture fx;
	struct cplan cp;
	struct failures f;
	const struct fail_row *r;

	if (build(&fx, &cp, 1))
		return;
	failures_analyse(&f, &cp, 0, 5);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "hi", 5, 5);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "lo", 1, 0);
	r = fail_row_of(&f, &fx.p, FAIL_NODE, "a-000", "lo");
	CHECK(r && r->reason && strstr(r->reason, "evicted"), "a-000's lo row says evicted: %s",
	      r && r->reason ? r->reason : "(none)");
	expect_fail_row(&f, &fx.p, FAIL_NODE, "b-000", "lo", 3, 2);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "hi", 4, 4);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "lo", 3, 2);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc1", "hi", 5, 3);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc1", "lo", 6, 0);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc2", "hi", 4, 4);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc2", "lo", 3, 2);
	CHECK(f.nrows == 9, "%zu rows", f.nrows);
	CHECK(f.worst[FAIL_NODE].have && f.worst[FAIL_NODE].top_priority == 1 &&
		      !strcmp(f.names[FAIL_NODE][f.worst[FAIL_NODE].failure], "a-000"),
	      "worst node: a-000, strands priority 1 only");
	failures_release(&f);
	/* a floor of 1 leaves nothing below it: as without preemption */
	failures_analyse(&f, &cp, 0, 1);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "hi", 5, 4);
	CHECK(!fail_row_of(&f, &fx.p, FAIL_NODE, "a-000", "lo"), "floor 1: no lo row for a-000");
	failures_release(&f);
	/*
	 * lo as a VM (no pod: nothing evicts it): a-000's fifth hi strands.
	 * The flag is set on the scenario's workload the demand points to,
	 * to reach the rule without a hypervisor fixture.
	 */
	fx.sc.workloads.w[fx.p.demands[demand_named(&fx.p, "lo")].index].vm = 1;
	failures_analyse(&f, &cp, 0, 5);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "hi", 5, 4);
	CHECK(!fail_row_of(&f, &fx.p, FAIL_NODE, "a-000", "lo"), "lo a VM: no lo row for a-000");
	failures_release(&f);
	cplan_release(&cp);
	fixture_release(&fx);
}

static struct reserve_cover cover(struct cplan *cp, size_t node, int add, int preempt)
{
	struct reserve_index ix;
	struct reserve_cover rc;

	reserve_index_build(&ix, cp);
	reserve_cover(cp, &ix, &(struct reserve_loss){ &node, 1, 5, add, NULL, NULL, preempt, NULL }, &rc);
	reserve_index_release(&ix);
	return rc;
}

static void test_cover(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_cover rc;
	struct diag d = DIAG_INIT;
	struct cslot *snap;
	size_t n;

	if (build(&fx, &cp, 2))
		return;
	n = cp.nslots;
	snap = xmalloc(n * sizeof(*snap));
	memcpy(snap, cp.slots, n * sizeof(*snap));
	rc = cover(&cp, 0, 0, 0);
	CHECK(rc.lost == 5 && rc.stranded == 1, "a-000 without preemption: stranded %ld", rc.stranded);
	rc = cover(&cp, 0, 0, 1);
	CHECK(rc.lost == 5 && rc.stranded == 0, "a-000 with preemption: stranded %ld", rc.stranded);
	rc = cover(&cp, 0, 1, 1);
	CHECK(rc.stranded == 0 && rc.added == 0 && rc.moved == 0 && cp.nnodes == 3,
	      "the cover adds nothing: added %ld moved %ld, %zu nodes", rc.added, rc.moved, cp.nnodes);
	CHECK(same_slots(&cp, snap, n), "every replica back in its slot");
	CHECK(cp.nodes[1].gpu_used[0] == 3 && cp.nodes[1].cpu_used == 3, "b-000's load as it was: %d GPU slots, %g cores",
	      cp.nodes[1].gpu_used[0], cp.nodes[1].cpu_used);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	rc = cover(&cp, 0, 1, 0);
	CHECK(rc.stranded == 0 && rc.added >= 1 && cp.nnodes == 4, "without preemption b-001 opens: added %ld",
	      rc.added);
	free(snap);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_gpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct failures f;
	struct reserve_index ix;
	struct reserve_cover rc;
	struct cslot *snap;
	size_t node = 0, n;
	int g0 = 0, hi, lo;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("preempt"), INV_HEADER "g,1,H100-SXM5-80GB,2,baremetal,dc1,48,512,owned,,,,\n",
			  WL_HEADER "hi,t,5,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
				    "lo,t,9,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			  0))
		return;
	hi = demand_named(&fx.p, "hi");
	lo = demand_named(&fx.p, "lo");
	cplan_init(&cp, &fx.p);
	fill_node(&cp, 0, hi, 5, lo, 9);
	failures_analyse(&f, &cp, 1, 5);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 0", "hi", 5, 5);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 0", "lo", 7, 0);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 1", "lo", 7, 0);
	failures_release(&f);
	n = cp.nslots;
	snap = xmalloc(n * sizeof(*snap));
	memcpy(snap, cp.slots, n * sizeof(*snap));
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 0, &g0, NULL, 1, NULL }, &rc);
	reserve_index_release(&ix);
	CHECK(rc.lost == 5 && rc.stranded == 0, "GPU 0 covered by eviction: lost %ld stranded %ld", rc.lost,
	      rc.stranded);
	CHECK(same_slots(&cp, snap, n) && cp.nodes[0].cpu_used == 14, "the plan as it was (%g cores)",
	      cp.nodes[0].cpu_used);
	free(snap);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* The plan of make_room's case (header); 0, or -1. */
static int build_full(struct fixture *fx, struct cplan *cp, int *hi, int *mid, int *lo)
{
	size_t s;
	int i;

	if (fixture_build(fx, FIXTURE_SC_TEXT("preempt"),
			  INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
				     "b,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n",
			  WL_HEADER "hi,t,7,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
				    "mid,t,2,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,3\n"
				    "lo,t,5,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			  0))
		return -1;
	*hi = demand_named(&fx->p, "hi");
	*mid = demand_named(&fx->p, "mid");
	*lo = demand_named(&fx->p, "lo");
	if (*hi < 0 || *mid < 0 || *lo < 0) {
		CHECK(0, "hi %d, mid %d, lo %d", *hi, *mid, *lo);
		fixture_release(fx);
		return -1;
	}
	/* hi a VM (it evicts nothing), set on the scenario's workload to reach the rule without a hypervisor fixture */
	fx->sc.workloads.w[fx->p.demands[*hi].index].vm = 1;
	cplan_init(cp, &fx->p);
	fill_node(cp, 0, *hi, 7, *lo, 0);
	fill_node(cp, 1, *mid, 2, *lo, 5);
	for (s = 0, i = 0; s < cp->nslots; s++)
		i += cp->slots[s].d >= 0;
	CHECK(i == 14 && cp->nslots == 14, "both nodes full: %d of %zu slots", i, cp->nslots);
	return 0;
}

static void test_leave_out(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_index ix;
	struct reserve_cover rc;
	struct reserve_left left = { 0, 0, NULL };
	struct diag d = DIAG_INIT;
	size_t node = 0, s, nlo = 0;
	int hi, mid, lo;

	if (build_full(&fx, &cp, &hi, &mid, &lo))
		return;
	s = preempt_leave_out_find(&cp, hi, 5, NULL, 0);
	CHECK(s == 9 && cp.slots[s].d == lo && cp.slots[s].replica == 0, "the choice: lo's first slot (9), got %zu", s);
	CHECK(preempt_leave_out_find(&cp, hi, 1, NULL, 0) == (size_t)-1, "floor 1: nothing below it");
	CHECK(preempt_leave_out_find(&cp, hi, 3, NULL, 0) == 9, "floor 3: lo only, its first slot");
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 1, NULL }, &rc);
	CHECK(rc.lost == 7 && rc.stranded == 7 && rc.left_out == 0 && cp.unplaced[lo] == 0,
	      "without make_room: %ld stranded, %ld left out", rc.stranded, rc.left_out);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 1, &left }, &rc);
	reserve_index_release(&ix);
	CHECK(rc.lost == 7 && rc.stranded == 0 && rc.left_out == 7 && left.n == 7,
	      "make_room: lost %ld, stranded %ld, left out %ld (%zu noted)", rc.lost, rc.stranded, rc.left_out, left.n);
	for (s = 0; s < left.n; s++)
		nlo += left.at[s].d == lo && s < 5;
	CHECK(nlo == 5 && left.n == 7 && left.at[5].d == mid && left.at[5].slot == 7, "lo's 5 first, then mid's");
	CHECK(cp.placed[lo] == 0 && cp.unplaced[lo] == 5 && cp.placed[mid] == 0 && cp.unplaced[mid] == 2 &&
		      cp.nodes[1].gpu_used[0] == 0 && cp.nodes[1].cpu_used == 0,
	      "b-000 empty: %d on its GPU, %g cores", cp.nodes[1].gpu_used[0], cp.nodes[1].cpu_used);
	fx.sc.workloads.w[fx.p.demands[hi].index].vm = 0;	/* a VM on bare metal only for the eviction rule */
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	free(left.at);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* A replica left out leaves a gap in the numbers: preempt_renumber closes it, the highest first into it. */
static void test_renumber(void)
{
	struct fixture fx;
	struct cplan cp;
	int hi, mid, lo, seen = 0;
	size_t s;

	if (build_full(&fx, &cp, &hi, &mid, &lo))
		return;
	preempt_leave_out(&cp, 10);	/* lo's replica 1 */
	CHECK(cp.placed[lo] == 4 && cp.unplaced[lo] == 1 && cp.slots[10].d < 0, "left out: %ld placed",
	      cp.placed[lo]);
	preempt_renumber(&cp, lo);
	for (s = 0; s < cp.nslots; s++)
		if (cp.slots[s].d == lo)
			seen |= 1 << cp.slots[s].replica;
	CHECK(seen == 0xf && cp.slots[13].replica == 1, "numbers 0 .. 3 (mask %#x), replica 4 became 1", seen);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_leave_out_cpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_index ix;
	struct reserve_cover rc;
	struct reserve_left left = { 0, 0, NULL };
	struct diag d = DIAG_INIT;
	size_t node = 0;
	int hi, lo;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("preempt"),
			  INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,8,512,owned,,,,\n"
				     "b,1,H100-SXM5-80GB,1,baremetal,dc1,8,512,owned,,,,\n",
			  WL_HEADER "hi,t,5,0,9.5,0.12,hardware,false,2,8,H100-SXM5-80GB,mig,5\n"
				    "lo,t,4,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			  0))
		return;
	if (mig_hi_lo(&fx, &hi, &lo))
		return;
	cplan_init(&cp, &fx.p);
	fill_node(&cp, 0, hi, 3, lo, 0);
	fill_node(&cp, 1, hi, 2, lo, 4);
	CHECK(cp.nodes[1].cpu_used == 8, "b-000's 8 cores taken: %g", cp.nodes[1].cpu_used);
	CHECK(preempt_leave_out_find(&cp, hi, 5, NULL, 0) == (size_t)-1, "no lo slot gives hi its 2 cores");
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 0, &left }, &rc);
	reserve_index_release(&ix);
	CHECK(rc.lost == 3 && rc.stranded == 1 && rc.left_out == 4 && left.n == 4 && cp.unplaced[lo] == 4,
	      "lost %ld, stranded %ld, left out %ld", rc.lost, rc.stranded, rc.left_out);
	CHECK(cp.nodes[1].cpu_used == 4, "b-000 keeps its 2 hi: %g cores", cp.nodes[1].cpu_used);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	free(left.at);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* The VM hi (vGPU), 4 replicas on a-000 in vGPU; b-000 in bare MIG holding 7 lo; 0, or -1 (fx released). */
static int build_vgpu(struct fixture *fx, struct cplan *cp, int *hi, int *lo)
{
	const struct pclass *a;
	int node, best = -1, fit = 0, i;
	size_t ci, s;

	if (fixture_build(fx, FIXTURE_SC_TEXT("preempt"),
			  INV_HEADER "a,1,H100-SXM5-80GB,1,kvm,dc1,64,512,owned,,,,\n"
				     "b,1,H100-SXM5-80GB,1,kvm,dc1,64,512,owned,,,,\n",
			  WL_HEADER "hi,t,4,0,9.5,0.12,memory,true,1,8,H100-SXM5-80GB,vgpu,5\n"
				    "lo,t,7,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			  0))
		return -1;
	if (mig_hi_lo(fx, hi, lo))
		return -1;
	a = &fx->p.classes[0];
	for (ci = 0; ci < a->nconfigs; ci++)
		if (a->configs[ci].mode == MODE_VGPU && !a->configs[ci].node_pattern &&
		    cplan_fit_count(&fx->p, *hi, 0, &a->configs[ci]) > fit) {
			best = (int)ci;
			fit = cplan_fit_count(&fx->p, *hi, 0, &a->configs[ci]);
		}
	if (best < 0 || fit < 4) {
		CHECK(0, "no vGPU configuration takes 4 hi: %d", fit);
		fixture_release(fx);
		return -1;
	}
	cplan_init(cp, &fx->p);
	node = cplan_open_node(cp, 0, MODE_VGPU, -1);
	cplan_configure_gpu(cp, node, 0, best);
	for (s = 0, i = 0; i < 4; s++, i++)
		cplan_place_at(cp, s, *hi);
	fill_node(cp, 1, *hi, 0, *lo, 7);
	return 0;
}

static void test_empty_node(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_index ix;
	struct reserve_cover rc;
	struct reserve_left left = { 0, 0, NULL };
	struct diag d = DIAG_INIT;
	size_t node = 0, s, nvgpu = 0, nbusy = 0;
	int hi, lo;

	if (build_vgpu(&fx, &cp, &hi, &lo))
		return;
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 1, NULL }, &rc);
	CHECK(rc.lost == 4 && rc.stranded == 4 && rc.emptied == 0, "without make_room: %ld of %ld stranded",
	      rc.stranded, rc.lost);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 1, &left }, &rc);
	reserve_index_release(&ix);
	CHECK(rc.lost == 4 && rc.stranded == 0 && rc.left_out == 7 && rc.emptied == 1 && left.n == 7,
	      "make_room: lost %ld, stranded %ld, left out %ld, emptied %ld", rc.lost, rc.stranded, rc.left_out,
	      rc.emptied);
	CHECK(cp.nodes[1].mode == MODE_VGPU && cp.nodes[1].gpu_config[0] >= 0 && cp.nodes[1].cpu_used == 0,
	      "b-000 opened anew in vGPU, its GPU configured, empty: mode %d", (int)cp.nodes[1].mode);
	for (s = 0; s < cp.nslots; s++) {
		nbusy += cp.slots[s].node == 1 && cp.slots[s].d >= 0;
		nvgpu += cp.slots[s].node == 1 && cp.p->classes[1].slot_types[cp.slots[s].type].mode == MODE_VGPU;
	}
	CHECK(nbusy == 0 && nvgpu >= 4 && left.at[0].node == 1 && left.at[6].slot == (size_t)-1 && cp.unplaced[lo] == 7 &&
		      cp.placed[hi] == 4,
	      "%zu vGPU slots on b-000 for hi's 4; lo's 7 out, their slots deleted", nvgpu);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	free(left.at);
	cplan_release(&cp);
	fixture_release(&fx);
}

static void test_empty_gpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct reserve_index ix;
	struct reserve_cover rc;
	struct reserve_left left = { 0, 0, NULL };
	struct diag d = DIAG_INIT;
	struct reserve_empty e;
	const struct pclass *a;
	size_t node = 0, ci, s;
	int hi, lo, n;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("preempt"),
			  INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
				     "b,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n",
			  WL_HEADER "hi,t,1,0,35,0.3,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
				    "lo,t,7,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,1\n",
			  0))
		return;
	if (mig_hi_lo(&fx, &hi, &lo))
		return;
	a = &fx.p.classes[0];
	for (ci = 0; ci < a->nconfigs; ci++)
		if (a->configs[ci].mode == MODE_MIG && cplan_fit_count(&fx.p, hi, 0, &a->configs[ci]) > 0)
			break;
	CHECK(ci < a->nconfigs && cplan_fit_count(&fx.p, hi, 0, &a->configs[mig7(a)]) == 0,
	      "a MIG configuration takes hi, 7 x 1g.10gb does not");
	cplan_init(&cp, &fx.p);
	n = cplan_open_node(&cp, 0, MODE_MIG, -1);
	cplan_configure_gpu(&cp, n, 0, (int)ci);
	s = cplan_find_free(&cp, hi);
	if (s != (size_t)-1)
		cplan_place_at(&cp, s, hi);
	fill_node(&cp, 1, hi, 0, lo, 7);
	reserve_empty_find(&cp, hi, 5, &e);
	CHECK(e.node == 1 && e.gpu == 0 && e.n == 7, "the choice: b-000's GPU 0 (7 lo), got node %d GPU %d", e.node,
	      e.gpu);
	reserve_index_build(&ix, &cp);
	reserve_cover(&cp, &ix, &(struct reserve_loss){ &node, 1, 5, 1, NULL, NULL, 1, &left }, &rc);
	reserve_index_release(&ix);
	CHECK(s != (size_t)-1 && rc.lost == 1 && rc.stranded == 0 && rc.left_out == 7 && rc.emptied == 1,
	      "lost %ld, stranded %ld, left out %ld, emptied %ld", rc.lost, rc.stranded, rc.left_out, rc.emptied);
	CHECK(cp.nodes[1].mode == MODE_MIG && cp.nodes[1].gpu_config[0] >= 0 && cp.nodes[1].gpu_config[0] != mig7(a) &&
		      cp.unplaced[lo] == 7,
	      "b-000's GPU configured anew in MIG: config %d", cp.nodes[1].gpu_config[0]);
	CHECK(verify_plan(&cp, &d) == 0, "the plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	free(left.at);
	cplan_release(&cp);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_preempt"))
		return 1;
	test_analysis();
	test_cover();
	test_gpu();
	test_leave_out();
	test_renumber();
	test_leave_out_cpu();
	test_empty_node();
	test_empty_gpu();
	fixture_teardown();
	return check_done();
}
