/*
 * test_complete.c - cplan_complete: what a plan leaves unplaced, placed
 * by the greedy pass's engine on top of it.  A plan of ILP counts whose
 * deal leaves a replica unplaced (every node of the class it needs is
 * open, empty, in a mode it cannot use) loses to the greedy plan by the
 * priority rule; completed (the empty node given back, the replica placed
 * on a node of the class opened anew) it places as many and costs less,
 * so the ILP's plan wins; the replicas it had stay where they were.  A
 * plan of every mode (MIG, vGPU, MPS, passthrough groups) with one
 * replica taken out is built again replica for replica around it.  A plan
 * with nothing a slot could take unplaced is left as it is.  Inside the
 * solve: the plan search's deal of such counts (ilp_repair_vector) is
 * completed before plans are compared, and the plan written
 * (ilp_concrete) is the completed one; counts that leave the replica out
 * themselves are not completed (ilp_deal_complete).  Scenarios
 * are written to a temp directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "cplan_engine.h"
#include "fixture.h"
#include "fixture_ilp.h"
#include "ilp.h"
#include "ilp_pack.h"
#include "ilp_vec.h"
#include "problem.h"
#include "util.h"
#include "verify.h"

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,modes,needs_nvaie,priority\n"
#define SC_TEXT FIXTURE_SC_TEXT("c")

/* The class named `name`, or -1. */
static int class_named(const struct problem *p, const char *name)
{
	size_t k;
	for (k = 0; k < p->nclasses; k++)
		if (!strcmp(p->classes[k].nc->name, name))
			return (int)k;
	return -1;
}

/*
 * One H100 node (the only class with MIG), one L40S node of 8 GPUs, one
 * L4 node of one GPU, all owned.  "iso" needs a MIG slice, "inf" time-
 * slicing.  The greedy pass places iso first (one class can take it) on
 * the H100 node in MIG, then opens the node cheapest per replica when
 * full for inf: the L40S node (its base power shared by 8 GPUs), though
 * the L4 node costs less for one replica.  The counts open the H100 node
 * in time-slicing with no GPU configured and the L4 node: the deal puts
 * inf on the L4 GPU, and iso finds no MIG slot, no GPU of a node in a mode
 * for it and no node left in the H100 class: unplaced.
 */
static const char inv_mig_left[] = INV_HEADER "big,1,H100-SXM5-80GB,8,baremetal,dc1,128,1024,owned,,,,1300\n"
					      "mid,1,L40S,8,baremetal,dc1,128,1024,owned,,,,400\n"
					      "small,1,L4,1,baremetal,dc1,16,64,owned,,,,300\n";
static const char wl_mig_left[] = WL_HEADER "inf,t,1,0,9,0.1,none,false,1,4,timeslice,false,1\n"
					    "iso,t,1,0,9.5,0.12,hardware,false,1,4,mig,false,1\n";

/* The node class of the slot holding demand `wl`'s replica 0 in cp, or NULL. */
static const char *class_of(const struct cplan *cp, const char *wl)
{
	size_t i;
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->d >= 0 && s->replica == 0 && !strcmp(cp->p->demands[s->d].w->name, wl))
			return cp->p->classes[cp->nodes[s->node].k].nc->name;
	}
	return NULL;
}

static void test_ilp_wins(void)
{
	struct fixture fx;
	struct ilp_result x;
	struct cplan cp;
	struct cplan_cost gc, ic;
	int big, small;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_mig_left, wl_mig_left, FIXTURE_GREEDY))
		return;
	big = class_named(&fx.p, "big");
	small = class_named(&fx.p, "small");
	CHECK(big >= 0 && small >= 0, "classes big %d, small %d", big, small);
	if (big < 0 || small < 0) {
		fixture_release(&fx);
		return;
	}
	cplan_cost(&fx.cp, &gc);
	CHECK(gc.unplaced == 0, "greedy: %ld unplaced", gc.unplaced);
	CHECK_STR(class_of(&fx.cp, "inf"), "mid", "greedy: inf's node");
	memset(&x, 0, sizeof(x));
	ilp_result_alloc(&fx.p, &x);
	x.nmode[(size_t)big * MODE_COUNT + MODE_TIMESLICE] = 1;
	x.nmode[(size_t)small * MODE_COUNT + MODE_TIMESLICE] = 1;
	cplan_init(&cp, &fx.p);
	cplan_from_counts(&cp, x.nmode, x.ncfg, x.arc);
	cplan_cost(&cp, &ic);
	CHECK(ic.unplaced == 1 && ic.nodes == 2, "dealt: %ld unplaced, %ld nodes", ic.unplaced, ic.nodes);
	CHECK_STR(class_of(&cp, "inf"), "small", "dealt: inf's node");
	/* as plan_pick compares: the greedy plan wins by the priority rule */
	CHECK(cplan_better(&fx.cp, &gc, &cp, &ic), "dealt: the greedy plan is not better");

	CHECK(cplan_complete(&cp) == 1, "completion not kept");
	cplan_cost(&cp, &ic);
	CHECK(ic.unplaced == 0 && ic.nodes == 2, "completed: %ld unplaced, %ld nodes", ic.unplaced, ic.nodes);
	CHECK_STR(class_of(&cp, "inf"), "small", "completed: inf stays where it was");
	CHECK_STR(class_of(&cp, "iso"), "big", "completed: iso's node");
	for (i = 0; i < cp.nnodes; i++) {
		char *name = cplan_node_name(&cp, &cp.nodes[i]);
		CHECK(!strcmp(name, "big-000") || !strcmp(name, "small-000"), "completed: node %s", name);
		if (cp.nodes[i].k == big)
			CHECK(cp.nodes[i].mode == MODE_MIG, "completed: the H100 node in mode %d", (int)cp.nodes[i].mode);
		free(name);
	}
	for (i = 0; i < fx.p.ndemands; i++)
		CHECK(cp.reason[i] == NULL, "completed: %s has a reason", fx.p.demands[i].w->name);
	fixture_verifies(&cp, "completed");
	/* now the ILP's plan is kept: as many placed, for less */
	CHECK(!cplan_better(&fx.cp, &gc, &cp, &ic) && ic.objective < gc.objective - 1,
	      "completed: objective %.2f, greedy %.2f", ic.objective, gc.objective);
	/* placing nothing more, it changes nothing */
	CHECK(cplan_complete(&cp) == 0, "a plan with nothing unplaced was completed");
	cplan_release(&cp);
	ilp_result_release(&fx.p, &x);
	fixture_release(&fx);
}

/* Every mode: MIG slices, vGPU in VMs, MPS, 2-GPU passthrough groups, time-slicing. */
static const char inv_easy[] = INV_HEADER "bm,2,H100-SXM5-80GB,8,baremetal,dc1,128,1024,owned,,,,1300\n"
					  "vs,2,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,650\n";
static const char wl_easy[] = WL_HEADER "inf,t,7,0,10,0.12,hardware,false,2,8,,false,1\n"
				       "nb,t,10,0,8,0.1,none,false,1,4,,false,1\n"
				       "vm,t,3,0,16,0.25,memory,true,1,8,,false,1\n"
				       "train,t,2,2,,,exclusive,false,16,64,passthrough,false,1\n"
				       "ocr,t,4,0,20,0.2,memory,false,2,8,mps,false,1\n";

/* Where replica `replica` of demand d is in cp: node name, GPU, GPUs, slot type, MIG start; 0 when placed. */
static int where(const struct cplan *cp, int d, long replica, char **name, int *gpu)
{
	size_t i;
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->d == d && s->replica == replica) {
			*name = cplan_node_name(cp, &cp->nodes[s->node]);
			gpu[0] = s->gpu;
			gpu[1] = s->ngpus;
			gpu[2] = s->type;
			gpu[3] = s->mig_start;
			return 0;
		}
	}
	return -1;
}

static void test_rebuilt(void)
{
	struct fixture fx;
	struct cplan cp;
	size_t i, out = (size_t)-1;
	int train = -1;
	long r;

	if (fixture_build(&fx, SC_TEXT, inv_easy, wl_easy, FIXTURE_GREEDY))
		return;
	for (i = 0; i < fx.p.ndemands; i++)
		if (!strcmp(fx.p.demands[i].w->name, "train"))
			train = (int)i;
	CHECK(train >= 0 && cplan_unplaced_count(&fx.cp) == 0, "greedy: train %d, %ld unplaced", train,
	      cplan_unplaced_count(&fx.cp));
	if (train < 0) {
		fixture_release(&fx);
		return;
	}
	/* the plan less train's last replica: one unplaced */
	cplan_copy(&cp, &fx.cp);
	for (i = 0; i < cp.nslots; i++)
		if (cp.slots[i].d == train && cp.slots[i].replica == cp.placed[train] - 1)
			out = i;
	CHECK(out != (size_t)-1, "no slot holds train's last replica");
	if (out != (size_t)-1) {
		cplan_slot_clear(&cp, out);
		cp.placed[train]--;
		cp.unplaced[train]++;
	}
	CHECK(cplan_complete(&cp) == 1, "the replica taken out was not placed again");
	CHECK(cplan_unplaced_count(&cp) == 0, "completed: %ld unplaced", cplan_unplaced_count(&cp));
	fixture_verifies(&cp, "rebuilt");
	for (i = 0; i < fx.p.ndemands; i++)
		for (r = 0; r < fx.p.demands[i].replicas; r++) {
			char *a = NULL, *b = NULL;
			int ga[4], gb[4];
			if ((int)i == train && r == fx.cp.placed[train] - 1)
				continue;
			CHECK(where(&fx.cp, (int)i, r, &a, ga) == 0 && where(&cp, (int)i, r, &b, gb) == 0 &&
				      !strcmp(a, b) && !memcmp(ga, gb, sizeof(ga)),
			      "%s replica %ld: on %s GPU %d, now on %s GPU %d", fx.p.demands[i].w->name, r,
			      a ? a : "-", a ? ga[0] : -1, b ? b : "-", b ? gb[0] : -1);
			free(a);
			free(b);
		}
	cplan_release(&cp);
	/* the greedy plan places everything: nothing to complete, nothing changed */
	CHECK(cplan_complete(&fx.cp) == 0, "a plan with nothing unplaced was completed");
	fixture_release(&fx);
}

/* The arc of demand `wl` on class k in mode m (its first), or -1. */
static long arc_of(const struct problem *p, const char *wl, int k, enum gpu_mode m)
{
	size_t i;
	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->k == k && !strcmp(p->demands[a->d].w->name, wl) &&
		    p->classes[k].slot_types[a->s].mode == m)
			return (long)i;
	}
	return -1;
}

/*
 * test_ilp_wins's counts as the plan search has them (inf on the L4's
 * time-slicing, iso on the H100's MIG, nothing unplaced, but the H100
 * node counted in time-slicing): made concrete inside the solve, the
 * deal leaves iso without a slot, and the plan compared is the completed
 * one, which places it; the plan written from the solve's counts is that
 * plan.  The same counts with iso left out by the model itself: its
 * deal is not completed (the model's choice, not the deal's loss).
 */
static void test_in_solve(void)
{
	struct fixture fx;
	struct ilp_ctx c;
	struct ilp_result x, rf;
	struct ilp_pack pk;
	struct cplan cp;
	double *v, *fixed;
	long ai, af, tried;
	int big, small, j;

	if (fixture_build(&fx, SC_TEXT, inv_mig_left, wl_mig_left, 0))
		return;
	if (fixture_ilp_build(&c, &fx)) {
		fixture_release(&fx);
		return;
	}
	big = class_named(&fx.p, "big");
	small = class_named(&fx.p, "small");
	ai = arc_of(&fx.p, "iso", big, MODE_MIG);
	af = arc_of(&fx.p, "inf", small, MODE_TIMESLICE);
	CHECK(big >= 0 && small >= 0 && ai >= 0 && af >= 0, "classes %d %d, arcs %ld %ld", big, small, ai, af);
	if (big < 0 || small < 0 || ai < 0 || af < 0) {
		fixture_ilp_release(&c, &fx);
		fixture_release(&fx);
		return;
	}
	ilp_pack_init(&pk, &fx.p, &c.ix, HUGE_VAL);
	c.pack = &pk;
	memset(&x, 0, sizeof(x));
	ilp_result_alloc(&fx.p, &x);
	x.nmode[(size_t)big * MODE_COUNT + MODE_TIMESLICE] = 1;
	x.nmode[(size_t)small * MODE_COUNT + MODE_TIMESLICE] = 1;
	x.arc[ai] = x.arc[af] = 1;
	v = xcalloc((size_t)c.cl.ncols + 1, sizeof(*v));
	ilp_counts_vector(&fx.p, &c.cl, &x, v);
	fixed = ilp_repair_vector(&c, v);
	CHECK(ilp_unplaced_sum(&fx.p, &c.cl, fixed) < 0.5, "made concrete in the solve: %.0f unplaced",
	      ilp_unplaced_sum(&fx.p, &c.cl, fixed));
	CHECK(pk.completions == 1 && pk.completed == 1, "completions %ld, kept %ld", pk.completions, pk.completed);

	/* the plan written from the solve's counts: the completed plan */
	memset(&rf, 0, sizeof(rf));
	ilp_result_alloc(&fx.p, &rf);
	ilp_take_plan(&fx.p, &c.cl, fixed, &rf);
	rf.pack = &pk;
	cplan_init(&cp, &fx.p);
	ilp_concrete(&fx.p, &rf, &cp, HUGE_VAL);
	rf.pack = NULL;
	pk.ix = &c.ix;	/* ilp_concrete lent it its own */
	CHECK(pk.completions == 2 && pk.completed == 2, "written: completed too (%ld, kept %ld)", pk.completions,
	      pk.completed);
	CHECK(cplan_unplaced_count(&cp) == 0, "written: %ld unplaced", cplan_unplaced_count(&cp));
	CHECK_STR(class_of(&cp, "iso"), "big", "written: iso's node");
	fixture_verifies(&cp, "written");
	fixture_ilp_same_plan(&c, &fx, &cp, fixed);
	cplan_release(&cp);
	ilp_result_release(&fx.p, &rf);
	free(fixed);

	/* iso left out by the counts themselves: nothing the deal lost, not completed */
	tried = pk.completions;
	x.arc[ai] = 0;
	for (j = 0; j < (int)fx.p.ndemands; j++)
		x.unplaced[j] = strcmp(fx.p.demands[j].w->name, "iso") ? 0 : 1;
	ilp_counts_vector(&fx.p, &c.cl, &x, v);
	fixed = ilp_repair_vector(&c, v);
	CHECK(ilp_unplaced_sum(&fx.p, &c.cl, fixed) > 0.5 && pk.completions == tried,
	      "left out by the model: %.0f unplaced, %ld completions", ilp_unplaced_sum(&fx.p, &c.cl, fixed),
	      pk.completions);
	free(fixed);
	free(v);
	ilp_result_release(&fx.p, &x);
	c.pack = NULL;
	ilp_pack_release(&pk);
	fixture_ilp_release(&c, &fx);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_complete"))
		return 1;
	test_ilp_wins();
	test_rebuilt();
	test_in_solve();
	fixture_teardown();
	return check_done();
}
