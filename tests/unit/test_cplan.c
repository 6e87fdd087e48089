/*
 * test_cplan.c - concrete plans: the greedy planner places every replica
 * of an easy instance; cplan_counts(cplan_from_counts(x)) gives back the
 * counts x of a greedy plan; cplan_from_counts keeps the replicas that
 * per-node CPU would make a first-fit deal lose, and cplan_deal_loss
 * counts what neither deal places; what a deal leaves over goes onto the
 * cheapest idle GPU; a GPU swap places what moving replicas cannot;
 * cplan_cost on
 * hand-computed instances (each expected number written out from the
 * README's cost formula with the literal inputs); node names; a greedy
 * pass cut by the deadline or by a signal says which; the greedy pass's
 * isolation tiers leave MIG slices to the replicas that need them, and its
 * sweeps split a passthrough node anew for a group size it lacks; the
 * slots grouped by node.  Scenarios are written to a temp directory.
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "fixture.h"
#include "ilp.h"
#include "interrupt.h"
#include "problem.h"
#include "verify.h"
#include "cplan_repair.h"

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,modes,needs_nvaie,priority\n"
#define SC_TEXT FIXTURE_SC_TEXT("c")

/* ================= instances ================= */

/* Easy: room for everything, several modes and a 2-GPU replica. */
static const char inv_easy[] = INV_HEADER
	"bm,2,H100-SXM5-80GB,8,baremetal,dc1,128,1024,owned,,,,1300\n"
	"vs,2,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,650\n";
static const char wl_easy[] = WL_HEADER
	"inf,t,7,0,10,0.12,hardware,false,2,8,,false,1\n"
	"nb,t,10,0,8,0.1,none,false,1,4,,false,1\n"
	"vm,t,3,0,16,0.25,memory,true,1,8,,false,1\n"
	"train,t,2,2,,,exclusive,false,16,64,passthrough,false,1\n"
	"ocr,t,4,0,20,0.2,memory,false,2,8,mps,false,1\n";

/* One owned bare-metal H100 node, 7 x 10 GiB hardware-isolated: one MIG GPU. */
static const char inv_mig[] = INV_HEADER "bm,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,1300\n";
static const char wl_mig[] = WL_HEADER "inf,t,7,0,9.5,0.12,hardware,false,,,mig,false,1\n";

/* A bought vSphere A100 node, 3 VM replicas (one licensed vGPU) and one unhostable workload. */
static const char inv_buy[] = INV_HEADER "vs,1,A100-PCIE-80GB,4,vsphere,dc1,64,512,buy,60000,5,,650\n";
static const char wl_buy[] = WL_HEADER
	"vm,t,3,0,16,0.25,memory,true,,,vgpu,false,1\n"
	"huge,t,2,0,120,0.5,none,false,,,,false,2\n";

/* A rented bare-metal H100 node, one whole-GPU replica that needs NVAIE. */
static const char inv_rent[] = INV_HEADER "rent,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,rent,,,3.0,1300\n";
static const char wl_rent[] = WL_HEADER "nv,t,1,1,,,exclusive,false,,,passthrough,true,1\n";

/*
 * Isolation tiers: two one-GPU A100 nodes; "first" (priority 3) needs a
 * MIG slice and opens one GPU in 1g.10gb*7, six slices left free; "any"
 * (priority 2, no isolation) has 7 replicas, "iso" (priority 1) 7 that
 * need MIG.  Taken in turn, "any" fills the six free slices and opens the
 * other GPU for its 7th, so no slice is left for "iso": 7 unplaced, by
 * either order.  By tiers, "any" goes to the least isolating mode first:
 * the second GPU, time-sliced 8 ways, takes all 7; "iso" gets the six
 * slices, and one of its replicas stays unplaced (15 replicas, 14 slots).
 */
static const char inv_tier[] = INV_HEADER "a100,2,A100-SXM4-80GB,1,baremetal,dc1,64,512,owned,,,,650\n";
static const char wl_tier[] = WL_HEADER
	"first,t,1,0,8,0.1,hardware,false,,,mig,false,3\n"
	"any,t,7,0,8,0.1,none,false,,,,false,2\n"
	"iso,t,7,0,8,0.1,hardware,false,,,mig,false,1\n";

/*
 * A node split anew: one 8-GPU node; "big" (4 GPUs) comes first (more
 * GPUs) and splits it into two groups of 4; "pair" (two replicas of 2
 * GPUs) finds no group of 2 and no other node, so both orders leave them
 * unplaced.  The sweeps split the node again (4 + 2 + 2, big's group
 * kept where it is) and place both.
 */
static const char inv_split[] = INV_HEADER "h,1,H100-SXM5-80GB,8,baremetal,dc1,128,1024,owned,,,,1300\n";
static const char wl_split[] = WL_HEADER
	"big,t,1,4,,,exclusive,false,,,passthrough,false,1\n"
	"pair,t,2,2,,,exclusive,false,,,passthrough,false,1\n";

/* ================= greedy ================= */

static void test_greedy_easy(void)
{
	struct fixture fx;
	struct cplan_cost cost;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_easy, wl_easy, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &cost);
	CHECK(cost.unplaced == 0, "easy: %ld unplaced", cost.unplaced);
	CHECK(cost.placed == 7 + 10 + 3 + 2 + 4, "easy: %ld placed", cost.placed);
	for (i = 0; i < fx.p.ndemands; i++) {
		CHECK(fx.cp.placed[i] == fx.p.demands[i].replicas, "easy: %s placed %ld of %ld", fx.p.demands[i].w->name,
		      fx.cp.placed[i], fx.p.demands[i].replicas);
		CHECK(fx.cp.reason[i] == NULL, "easy: %s has an unplaced reason", fx.p.demands[i].w->name);
	}
	/* every 2-GPU replica holds a 2-GPU passthrough group of one node */
	for (i = 0; i < fx.cp.nslots; i++) {
		const struct cslot *s = &fx.cp.slots[i];
		if (s->d >= 0 && fx.p.demands[s->d].w->gpus == 2)
			CHECK(s->ngpus == 2 && fx.cp.nodes[s->node].mode == MODE_PASSTHROUGH,
			      "easy: train replica %ld in a group of %d", s->replica, s->ngpus);
	}
	fixture_verifies(&fx.cp, "easy greedy");
	fixture_release(&fx);
}

static void test_greedy_tiers(void)
{
	struct fixture fx;
	struct cplan_cost cost;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_tier, wl_tier, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &cost);
	CHECK(cost.unplaced == 1 && cost.placed == 14, "tiers: %ld placed, %ld unplaced (14, 1)", cost.placed,
	      cost.unplaced);
	for (i = 0; i < fx.p.ndemands; i++) {
		const char *name = fx.p.demands[i].w->name;
		long want = strcmp(name, "iso") == 0 ? 6 : fx.p.demands[i].replicas;
		CHECK(fx.cp.placed[i] == want, "tiers: %s placed %ld of %ld", name, fx.cp.placed[i], want);
	}
	for (i = 0; i < fx.cp.nslots; i++) {
		const struct cslot *s = &fx.cp.slots[i];
		if (s->d >= 0 && strcmp(fx.p.demands[s->d].w->name, "any") == 0)
			CHECK(fx.cp.nodes[s->node].mode == MODE_TIMESLICE, "tiers: any replica %ld in %s mode", s->replica,
			      mode_name(fx.cp.nodes[s->node].mode));
	}
	fixture_verifies(&fx.cp, "tiers greedy");
	fixture_release(&fx);
}

static void test_greedy_resplit(void)
{
	struct fixture fx;
	struct cplan_cost cost;

	if (fixture_build(&fx, SC_TEXT, inv_split, wl_split, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &cost);
	CHECK(cost.unplaced == 0 && cost.placed == 3 && cost.nodes == 1, "resplit: %ld placed, %ld unplaced, %ld nodes",
	      cost.placed, cost.unplaced, cost.nodes);
	fixture_verifies(&fx.cp, "resplit greedy");
	fixture_release(&fx);
}

/*
 * The greedy pass stops once what is left of the deadline is what the run
 * keeps for after it (cplan.keep_s): the clock is the test's (it never
 * moves), the limit 10 s, and the run keeps 10 s once 5 replicas are
 * placed, so the pass stops before its 6th; the rest is unplaced, not
 * attempted, with the time limit's reason, and the plan verifies.
 */
static double frozen_now;

static double frozen_clock(void)
{
	return frozen_now;
}

static double keep_after_five(const struct cplan *cp, void *ctx)
{
	long placed = 0;
	size_t i;

	++*(long *)ctx;
	for (i = 0; i < cp->p->ndemands; i++)
		placed += cp->placed[i];
	return placed >= 5 ? 10 : 0;
}

static void test_greedy_keep(void)
{
	struct fixture fx;
	struct deadline dl;
	struct cplan_cost cost;
	long asks = 0;
	size_t i;
	int cut = 0;

	if (fixture_build(&fx, SC_TEXT, inv_easy, wl_easy, 0))
		return;
	deadline_set_clock(frozen_clock);
	frozen_now = 50;
	deadline_start(&dl);
	dl.limit_s = 10;
	cplan_init(&fx.cp, &fx.p);
	fx.has_cp = 1;
	fx.cp.deadline = &dl;
	fx.cp.keep_s = keep_after_five;
	fx.cp.keep_ctx = &asks;
	cplan_greedy(&fx.cp);
	deadline_set_clock(NULL);
	cplan_cost(&fx.cp, &cost);
	CHECK(fx.cp.stopped == CPLAN_STOP_DEADLINE, "keep: the pass was cut by the deadline (%d)", (int)fx.cp.stopped);
	CHECK(cost.placed == 5, "keep: %ld placed, 5 expected", cost.placed);
	CHECK(fx.cp.not_attempted == 26 - 5 && cost.unplaced == 26 - 5, "keep: %ld not attempted, %ld unplaced",
	      fx.cp.not_attempted, cost.unplaced);
	CHECK(asks == 6 && dl.polls == 6, "keep: asked %ld times, %ld polls: once a replica up to the cut", asks, dl.polls);
	for (i = 0; i < fx.p.ndemands; i++)
		if (fx.cp.unplaced[i]) {
			CHECK_STR(fx.cp.reason[i], "stopped by the time limit before it was placed", "keep: the reason");
			cut++;
		}
	CHECK(cut > 0, "keep: some workload cut");
	fixture_verifies(&fx.cp, "keep: the cut plan");
	cplan_release(&fx.cp);
	/* the same under the test hook: the hook alone decides, keep_s is not asked */
	frozen_now = 50;
	deadline_set_clock(frozen_clock);
	deadline_start(&dl);
	dl.limit_s = 10;
	dl.expire_polls = 3;
	asks = 0;
	cplan_init(&fx.cp, &fx.p);
	fx.cp.deadline = &dl;
	fx.cp.keep_s = keep_after_five;
	fx.cp.keep_ctx = &asks;
	cplan_greedy(&fx.cp);
	deadline_set_clock(NULL);
	cplan_cost(&fx.cp, &cost);
	CHECK(asks == 0 && cost.placed == 3 && fx.cp.not_attempted == 23, "hook: %ld asks, %ld placed, %ld not attempted",
	      asks, cost.placed, fx.cp.not_attempted);
	fixture_release(&fx);
}

/*
 * A signal (as the handler records it) cuts the pass before its first
 * replica, with no deadline at all: the cut says so, and so do the
 * reasons, not "the time limit" (the CLI warns of a deadline's cut only).
 */
static void test_greedy_signal(void)
{
	struct fixture fx;
	struct cplan_cost cost;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_easy, wl_easy, 0))
		return;
	cplan_init(&fx.cp, &fx.p);
	fx.has_cp = 1;
	interrupt_signal = SIGTERM;
	cplan_greedy(&fx.cp);
	interrupt_signal = 0;
	cplan_cost(&fx.cp, &cost);
	CHECK(fx.cp.stopped == CPLAN_STOP_SIGNAL, "signal: the pass was cut by it (%d)", (int)fx.cp.stopped);
	CHECK(cost.placed == 0 && fx.cp.not_attempted == 26, "signal: %ld placed, %ld not attempted", cost.placed,
	      fx.cp.not_attempted);
	for (i = 0; i < fx.p.ndemands; i++)
		if (fx.cp.unplaced[i])
			CHECK_STR(fx.cp.reason[i], "stopped by SIGTERM before it was placed", "signal: the reason");
	fixture_release(&fx);
}

/* ================= counts round trip ================= */

static void round_trip(const char *what, const char *inv, const char *wl)
{
	struct fixture fx;
	struct ilp_result a, b;
	struct cplan back;
	struct cplan_cost c1, c2;
	size_t i, k;

	if (fixture_build(&fx, SC_TEXT, inv, wl, FIXTURE_GREEDY))
		return;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	ilp_result_alloc(&fx.p, &a);
	ilp_result_alloc(&fx.p, &b);
	cplan_counts(&fx.cp, a.nmode, a.ncfg, a.arc, a.unplaced);
	cplan_init(&back, &fx.p);
	cplan_from_counts(&back, a.nmode, a.ncfg, a.arc);
	cplan_counts(&back, b.nmode, b.ncfg, b.arc, b.unplaced);
	for (i = 0; i < fx.p.nclasses * MODE_COUNT; i++)
		CHECK(a.nmode[i] == b.nmode[i], "%s: nmode[%zu] %ld != %ld", what, i, a.nmode[i], b.nmode[i]);
	for (k = 0; k < fx.p.nclasses; k++)
		for (i = 0; i < fx.p.classes[k].nconfigs; i++)
			CHECK(a.ncfg[k][i] == b.ncfg[k][i], "%s: ncfg[%zu][%zu] (%s) %ld != %ld", what, k, i,
			      fx.p.classes[k].configs[i].name, a.ncfg[k][i], b.ncfg[k][i]);
	for (i = 0; i < fx.p.narcs; i++)
		CHECK(a.arc[i] == b.arc[i], "%s: arc[%zu] %g != %g", what, i, a.arc[i], b.arc[i]);
	for (i = 0; i < fx.p.ndemands; i++)
		CHECK(a.unplaced[i] == b.unplaced[i], "%s: unplaced[%zu] %g != %g", what, i, a.unplaced[i], b.unplaced[i]);
	cplan_cost(&fx.cp, &c1);
	cplan_cost(&back, &c2);
	CHECK(fabs(c1.objective - c2.objective) < 1e-6, "%s: objective %.4f != %.4f", what, c1.objective, c2.objective);
	CHECK(c1.nodes == c2.nodes && c1.gpus_active == c2.gpus_active && c1.placed == c2.placed,
	      "%s: nodes %ld/%ld, active %ld/%ld, placed %ld/%ld", what, c1.nodes, c2.nodes, c1.gpus_active,
	      c2.gpus_active, c1.placed, c2.placed);
	fixture_verifies(&back, what);
	cplan_release(&back);
	ilp_result_release(&fx.p, &a);
	ilp_result_release(&fx.p, &b);
	fixture_release(&fx);
}

static void test_round_trip(void)
{
	round_trip("easy", inv_easy, wl_easy);
	round_trip("mig", inv_mig, wl_mig);
	round_trip("buy", inv_buy, wl_buy);
	round_trip("rent", inv_rent, wl_rent);
}

/* ================= disaggregation under per-node CPU ================= */

/*
 * Counts written by hand (what the ILP could return: CPU fits per class
 * and mode, not per node) for one class of two 1-GPU time-slicing nodes.
 * Heavy replicas of 30 GiB fit only ts2 slots (39.8 GiB: an H100's usable
 * 81559 MiB / 2), 9 GiB ones also ts8 (9.95 GiB).  The first-fit deal, in workload order, puts the light replicas
 * first and leaves a heavy one without a node with room.  The repair moves
 * light ones out of its way (trading slots with one, or moving one off the
 * node whose free slot it fits); where moves cannot, the second deal,
 * heaviest first onto the nodes with the most room, places it, and it is
 * kept too when the first placed everything only by opening another node.
 */
#define TS_INV INV_HEADER "ts,2,H100-SXM5-80GB,1,baremetal,dc1,4,64,owned,,,,1300\n" /* 4 cores */

struct deal_case {
	const char *name;
	const char *inv, *wl;
	long nodes;					/* all in time-slicing */
	struct { const char *cfg; long gpus; } cfg[3];	/* GPUs per configuration, NULL-terminated */
	struct { const char *wl, *slot; double n; } arc[4];	/* replicas per (workload, slot type) */
	long unplaced;					/* after cplan_from_counts */
	long lost;					/* by the better deal alone (cplan_deal_loss) */
};

static const struct deal_case deal_cases[] = {
	/* ts2 on both nodes: light, light | heavy, free; one light must trade places with a heavy */
	{ "swap", TS_INV,
	  WL_HEADER "light,t,2,0,10,0.1,none,false,1,4,timeslice,false,1\n"
		    "heavy,t,2,0,30,0.1,none,false,3,4,timeslice,false,1\n",
	  2, { { "ts2", 2 }, { NULL, 0 } },
	  { { "light", "ts2", 2 }, { "heavy", "ts2", 2 }, { NULL, NULL, 0 } }, 0, 0 },
	/* ts2 (39.8 GiB) on node 0, ts8 (9.95 GiB) on node 1: the 30 GiB heavy one needs node 0's free ts2 */
	{ "eject", TS_INV,
	  WL_HEADER "light,t,1,0,9,0.1,none,false,2,4,timeslice,false,1\n"
		    "heavy,t,1,0,30,0.1,none,false,3,4,timeslice,false,1\n",
	  2, { { "ts2", 1 }, { "ts8", 1 }, { NULL, 0 } },
	  { { "light", "ts2", 1 }, { "heavy", "ts2", 1 }, { NULL, NULL, 0 } }, 0, 1 },
	/*
	 * ts8 on nodes with 11 cores: eight light ones fill node 0's slots and the heavy ones
	 * (6 cores) both need node 1, which two light ones cannot make room on, nor a traded
	 * slot; dealt heaviest first, onto the node with the most room, each node gets one
	 */
	{ "spread", INV_HEADER "ts,2,H100-SXM5-80GB,1,baremetal,dc1,11,64,owned,,,,1300\n",
	  WL_HEADER "light,t,10,0,9,0.1,none,false,1,4,timeslice,false,1\n"
		    "heavy,t,2,0,9,0.1,none,false,6,4,timeslice,false,1\n",
	  2, { { "ts8", 2 }, { NULL, 0 } },
	  { { "light", "ts8", 10 }, { "heavy", "ts8", 2 }, { NULL, NULL, 0 } }, 0, 0 },
	/*
	 * the same with a third node free: the first deal places everything by opening it for the
	 * second heavy one; the second deal needs the counts' two nodes only, and costs less
	 */
	{ "spare", INV_HEADER "ts,3,H100-SXM5-80GB,1,baremetal,dc1,11,64,owned,,,,1300\n",
	  WL_HEADER "light,t,10,0,9,0.1,none,false,1,4,timeslice,false,1\n"
		    "heavy,t,2,0,9,0.1,none,false,6,4,timeslice,false,1\n",
	  2, { { "ts8", 2 }, { NULL, 0 } },
	  { { "light", "ts8", 10 }, { "heavy", "ts8", 2 }, { NULL, NULL, 0 } }, 0, 0 },
	/* three heavy replicas, room for two: one stays unplaced whatever is moved */
	{ "full", TS_INV,
	  WL_HEADER "heavy,t,3,0,30,0.1,none,false,3,4,timeslice,false,1\n",
	  2, { { "ts2", 2 }, { NULL, 0 } },
	  { { "heavy", "ts2", 3 }, { NULL, NULL, 0 } }, 1, 1 },
};

static int config_named(const struct pclass *c, const char *name)
{
	size_t i;
	for (i = 0; i < c->nconfigs; i++)
		if (c->configs[i].mode == MODE_TIMESLICE && !strcmp(c->configs[i].name, name))
			return (int)i;
	return -1;
}

/* The arc of (workload, class 0, the ILP's slot type for slot type `slot`), or -1. */
static long arc_named(const struct problem *p, const char *wl, const char *slot)
{
	const struct pclass *c = &p->classes[0];
	size_t i;
	int s = -1;
	for (i = 0; i < c->nslot_types; i++)
		if (c->slot_types[i].mode == MODE_TIMESLICE && !strcmp(c->slot_types[i].name, slot))
			s = c->slot_types[i].rep;
	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].k == 0 && p->arcs[i].s == s && !strcmp(p->demands[p->arcs[i].d].w->name, wl))
			return (long)i;
	return -1;
}

static void test_deal_cpu(void)
{
	size_t t;

	for (t = 0; t < sizeof(deal_cases) / sizeof(deal_cases[0]); t++) {
		const struct deal_case *dc = &deal_cases[t];
		struct fixture fx;
		struct ilp_result x;
		struct cplan cp;
		struct cplan_cost cost;
		long want_placed = 0, gpus = 0;
		size_t i;
		int ok = 1;

		if (fixture_build(&fx, SC_TEXT, dc->inv, dc->wl, 0))
			continue;
		memset(&x, 0, sizeof(x));
		ilp_result_alloc(&fx.p, &x);
		x.nmode[MODE_TIMESLICE] = dc->nodes;
		for (i = 0; dc->cfg[i].cfg; i++) {
			int ci = config_named(&fx.p.classes[0], dc->cfg[i].cfg);
			CHECK(ci >= 0, "%s: no configuration %s", dc->name, dc->cfg[i].cfg);
			if (ci < 0)
				ok = 0;
			else
				x.ncfg[0][ci] = dc->cfg[i].gpus;
			gpus += dc->cfg[i].gpus;
		}
		for (i = 0; dc->arc[i].wl; i++) {
			long a = arc_named(&fx.p, dc->arc[i].wl, dc->arc[i].slot);
			CHECK(a >= 0, "%s: no arc %s -> %s", dc->name, dc->arc[i].wl, dc->arc[i].slot);
			if (a < 0)
				ok = 0;
			else
				x.arc[a] = dc->arc[i].n;
		}
		if (ok) {
			size_t ng = fx.p.nclasses * MODE_COUNT;
			double *lc = calloc(ng + 1, sizeof(*lc)), *lr = calloc(ng + 1, sizeof(*lr));
			long lost = cplan_deal_loss(&fx.p, x.nmode, x.ncfg, x.arc, lc, lr);
			double want_cpu = 0;
			/* what is lost is a light or a heavy one: its CPU is the only CPU lost */
			for (i = 0; i < ng; i++)
				want_cpu += lc[i];
			CHECK(lost == dc->lost, "%s: deal loses %ld, want %ld", dc->name, lost, dc->lost);
			CHECK((lost == 0) == (want_cpu == 0) && lc[MODE_TIMESLICE] == want_cpu,
			      "%s: lost CPU %g, in time-slicing %g", dc->name, want_cpu, lc[MODE_TIMESLICE]);
			free(lc);
			free(lr);
			cplan_init(&cp, &fx.p);
			cplan_from_counts(&cp, x.nmode, x.ncfg, x.arc);
			cplan_cost(&cp, &cost);
			for (i = 0; i < fx.p.ndemands; i++)
				want_placed += fx.p.demands[i].replicas;
			want_placed -= dc->unplaced;
			CHECK(cost.unplaced == dc->unplaced && cost.placed == want_placed,
			      "%s: %ld placed, %ld unplaced; want %ld, %ld", dc->name, cost.placed, cost.unplaced,
			      want_placed, dc->unplaced);
			/* the counts' nodes and GPUs, no more */
			CHECK(cost.nodes == dc->nodes && cost.gpus_active == gpus, "%s: %ld nodes, %ld GPUs active",
			      dc->name, cost.nodes, cost.gpus_active);
			for (i = 0; i < fx.p.ndemands; i++)
				CHECK((cp.unplaced[i] > 0) == (cp.reason[i] != NULL), "%s: %s: %ld unplaced, reason '%s'",
				      dc->name, fx.p.demands[i].w->name, cp.unplaced[i], cp.reason[i] ? cp.reason[i] : "");
			fixture_verifies(&cp, dc->name);
			cplan_release(&cp);
		}
		ilp_result_release(&fx.p, &x);
		fixture_release(&fx);
	}
}

/*
 * What a deal leaves over goes onto the cheapest idle GPU, not the first:
 * an H100 node (class 0, opened first) and an L4 node (class 1), both
 * bare metal in time-slicing with every GPU idle, and counts that put
 * none of three 9 GiB replicas anywhere.  Per replica an L4 GPU (72 W,
 * two 11.2 GiB slots) costs less than an H100 (700 W, eight 9.95 GiB slots):
 * the replicas take two L4 GPUs.  First fit would take one H100.
 */
static void test_leftover_cheapest(void)
{
	struct fixture fx;
	struct ilp_result x;
	struct cplan cp;
	struct cplan_cost cost;
	size_t i;

	if (fixture_build(&fx, SC_TEXT,
			  INV_HEADER "big,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,1300\n"
				     "small,1,L4,4,baremetal,dc1,64,512,owned,,,,300\n",
			  WL_HEADER "inf,t,3,0,9,0.1,none,false,1,4,,false,1\n", 0))
		return;
	CHECK(fx.p.nclasses == 2 && !strcmp(fx.p.classes[0].nc->name, "big") &&
		      (fx.p.classes[0].modes & fx.p.classes[1].modes & MODE_BIT(MODE_TIMESLICE)),
	      "classes: %zu, %s %#x, %s %#x", fx.p.nclasses, fx.p.classes[0].nc->name, fx.p.classes[0].modes,
	      fx.p.classes[1].nc->name, fx.p.classes[1].modes);
	memset(&x, 0, sizeof(x));
	ilp_result_alloc(&fx.p, &x);
	x.nmode[MODE_TIMESLICE] = 1;
	x.nmode[MODE_COUNT + MODE_TIMESLICE] = 1;
	cplan_init(&cp, &fx.p);
	cplan_from_counts(&cp, x.nmode, x.ncfg, x.arc);
	cplan_cost(&cp, &cost);
	CHECK(cost.placed == 3 && cost.unplaced == 0, "%ld placed, %ld unplaced", cost.placed, cost.unplaced);
	CHECK(cost.gpus_active == 2, "%ld GPUs active; want 2", cost.gpus_active);
	for (i = 0; i < cp.nslots; i++)
		if (cp.slots[i].d >= 0)
			CHECK(cp.nodes[cp.slots[i].node].k == 1, "a replica on class %d", cp.nodes[cp.slots[i].node].k);
	fixture_verifies(&cp, "leftover");
	cplan_release(&cp);
	ilp_result_release(&fx.p, &x);
	fixture_release(&fx);
}

/*
 * A replica only a GPU swap places (cplan_repair_swap): two time-slicing
 * nodes of 9 cores and two GPUs, every GPU ts2.  Node 0: GPU 0 two heavy
 * replicas (3 cores each), GPU 1 a mid one (2 cores) and the only free
 * slot: 8 cores used.  Node 1: four light ones (1.5 cores), 6 used.  A
 * third heavy one fits the free slot but not node 0's last core; in
 * node 1's slots it pushes out a light one that node 0 has no room for.
 * Node 0's GPU 1 swapped with a GPU of node 1 takes the free slot where
 * there is room (node 1: 6 - 3 + 2 + 3 = 8 cores, node 0: 8 - 2 + 3 = 9).
 * The swap changes no count: the same 2 nodes and 4 GPUs, and the plan
 * verifies.
 */
static void test_repair_swap(void)
{
	struct fixture fx;
	struct cplan cp;
	struct cplan_cost cost;
	static const int fill[2][2][2] = { { { 2, 2 }, { 1, -1 } }, { { 0, 0 }, { 0, 0 } } }; /* light, mid, heavy */
	int ts2, node, g, dem[3] = { -1, -1, -1 }, h, l;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, INV_HEADER "ts,2,H100-SXM5-80GB,2,baremetal,dc1,9,64,owned,,,,1300\n",
			  WL_HEADER "light,t,4,0,10,0.1,none,false,1.5,4,timeslice,false,1\n"
				    "mid,t,1,0,10,0.1,none,false,2,4,timeslice,false,1\n"
				    "heavy,t,3,0,30,0.1,none,false,3,4,timeslice,false,1\n", 0))
		return;
	ts2 = config_named(&fx.p.classes[0], "ts2");
	for (i = 0; i < fx.p.ndemands; i++) {
		static const char *const names[3] = { "light", "mid", "heavy" };
		for (g = 0; g < 3; g++)
			if (!strcmp(fx.p.demands[i].w->name, names[g]))
				dem[g] = (int)i;
	}
	h = dem[2];
	l = dem[0];
	CHECK(ts2 >= 0 && h >= 0 && l >= 0 && dem[1] >= 0, "ts2 %d, heavy %d, light %d", ts2, h, l);
	if (ts2 < 0 || h < 0 || l < 0 || dem[1] < 0) {
		fixture_release(&fx);
		return;
	}
	cplan_init(&cp, &fx.p);
	for (node = 0; node < 2; node++) {
		cplan_open_node(&cp, 0, MODE_TIMESLICE, -1);
		for (g = 0; g < 2; g++) {
			size_t first = cp.nslots;
			int r = 0;
			cplan_configure_gpu(&cp, node, g, ts2);
			for (i = first; i < cp.nslots; i++, r++)
				if (fill[node][g][r] >= 0)
					cplan_place_at(&cp, i, dem[fill[node][g][r]]);
		}
	}
	cp.unplaced[h] = 1;
	cplan_repair_unplaced(&cp);
	CHECK(cp.unplaced[h] == 1, "the ejection chains placed the heavy replica");
	cplan_repair_swap(&cp);
	CHECK(cp.unplaced[h] == 0 && cp.placed[h] == 3 && cp.placed[l] == 4, "heavy: %ld placed, %ld unplaced",
	      cp.placed[h], cp.unplaced[h]);
	cplan_cost(&cp, &cost);
	CHECK(cost.nodes == 2 && cost.gpus_active == 4, "%ld nodes, %ld GPUs active", cost.nodes, cost.gpus_active);
	CHECK(cp.nodes[0].cpu_used <= 9 && cp.nodes[1].cpu_used <= 9 && cp.nodes[0].cpu_used + cp.nodes[1].cpu_used == 17,
	      "cores used: %g, %g", cp.nodes[0].cpu_used, cp.nodes[1].cpu_used);
	fixture_verifies(&cp, "swap");
	cplan_release(&cp);
	fixture_release(&fx);
}

/* ================= costs ================= */

static void test_cost_mig(void)
{
	struct fixture fx;
	struct cplan_cost c;
	/*
	 * Owned node (hardware 0), 1 node and 1 active GPU, horizon 3 years:
	 * energy = (base 1300 W + H100 700 W x load 0.6) / 1000 x pue 1.4
	 *          x 0.12 USD/kWh x 8760 h/year x 3 years
	 * objective = cost + tie-break 0.01 x (1 node + 1 GPU).
	 */
	double energy = (1300.0 + 700.0 * 0.6) / 1000.0 * 1.4 * 0.12 * 8760.0 * 3.0;

	if (fixture_build(&fx, SC_TEXT, inv_mig, wl_mig, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &c);
	CHECK(c.nodes == 1 && c.gpus == 8 && c.gpus_active == 1 && c.gpus_licensed == 0,
	      "mig: nodes %ld, gpus %ld, active %ld, licensed %ld", c.nodes, c.gpus, c.gpus_active, c.gpus_licensed);
	CHECK(c.placed == 7 && c.unplaced == 0, "mig: placed %ld unplaced %ld", c.placed, c.unplaced);
	CHECK(fabs(c.cat[CAT_HARDWARE]) < 1e-9, "mig: hardware %.4f", c.cat[CAT_HARDWARE]);
	CHECK(fabs(c.cat[CAT_ENERGY] - energy) < 1e-6, "mig: energy %.6f, want %.6f", c.cat[CAT_ENERGY], energy);
	CHECK(fabs(c.cat[CAT_ENERGY] - 7593.8688) < 1e-6, "mig: energy %.6f, want 7593.8688", c.cat[CAT_ENERGY]);
	CHECK(fabs(c.cat[CAT_LIC_NVAIE]) < 1e-9, "mig: license %.4f", c.cat[CAT_LIC_NVAIE]);
	/* energy accrues evenly: a third in each year */
	CHECK(fabs(c.year[CAT_ENERGY][0] - energy / 3) < 1e-6 && fabs(c.year[CAT_ENERGY][2] - energy / 3) < 1e-6,
	      "mig: energy per year %.6f", c.year[CAT_ENERGY][0]);
	CHECK(fabs(c.total - energy) < 1e-6, "mig: total %.6f", c.total);
	CHECK(fabs(c.objective - (energy + 0.02)) < 1e-6, "mig: objective %.6f, want %.6f", c.objective, energy + 0.02);
	fixture_release(&fx);
}

static void test_cost_buy(void)
{
	struct fixture fx;
	struct cplan_cost c;
	struct node_bill b;
	/*
	 * Bought node: 60000 USD x min(3, 5) / 5 = 36000.
	 * energy = (650 W + A100-PCIE-80GB 300 W x 0.6) / 1000 x 1.4 x 0.12 x 8760 x 3
	 * licence: one vGPU GPU (A100D-20C*4 holds the 3 replicas): NVAIE subscription-3y, 13500,
	 * paid in year 1; depreciation 12000 a year.
	 * huge (120 GiB) stays unplaced: 2 replicas x penalty (priority 2).
	 */
	double energy = (650.0 + 300.0 * 0.6) / 1000.0 * 1.4 * 0.12 * 8760.0 * 3.0;
	double total = 36000.0 + energy + 13500.0;

	if (fixture_build(&fx, SC_TEXT, inv_buy, wl_buy, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &c);
	CHECK(c.nodes == 1 && c.gpus_active == 1 && c.gpus_licensed == 1, "buy: nodes %ld, active %ld, licensed %ld",
	      c.nodes, c.gpus_active, c.gpus_licensed);
	CHECK(c.placed == 3 && c.unplaced == 2, "buy: placed %ld unplaced %ld", c.placed, c.unplaced);
	CHECK(fabs(c.cat[CAT_HARDWARE] - 36000.0) < 1e-6, "buy: hardware %.6f", c.cat[CAT_HARDWARE]);
	CHECK(fabs(c.year[CAT_HARDWARE][1] - 12000.0) < 1e-6, "buy: hardware year 2 %.6f", c.year[CAT_HARDWARE][1]);
	CHECK(fabs(c.cat[CAT_ENERGY] - energy) < 1e-6, "buy: energy %.6f, want %.6f", c.cat[CAT_ENERGY], energy);
	CHECK(fabs(c.cat[CAT_LIC_NVAIE] - 13500.0) < 1e-6, "buy: license %.6f", c.cat[CAT_LIC_NVAIE]);
	CHECK(fabs(c.year[CAT_LIC_NVAIE][0] - 13500.0) < 1e-6 && c.year[CAT_LIC_NVAIE][1] == 0,
	      "buy: the 3-year subscription is paid in year 1 (%.2f)", c.year[CAT_LIC_NVAIE][0]);
	CHECK(c.lic_gpus[LIC_NVAIE] == 1 && c.seats[LIC_NVAIE] == 0, "buy: 1 NVAIE GPU licence");
	CHECK(fabs(c.total - total) < 1e-6, "buy: total %.6f, want %.6f", c.total, total);
	{
		int h = -1;
		size_t i;
		for (i = 0; i < fx.p.ndemands; i++)
			if (!strcmp(fx.p.demands[i].w->name, "huge"))
				h = (int)i;
		CHECK(h >= 0 && fx.cp.unplaced[h] == 2 && fx.cp.reason[h] &&
			      strstr(fx.cp.reason[h], "asks 120 GiB of GPU memory"),
		      "buy: huge unplaced with its reason '%s'", h >= 0 && fx.cp.reason[h] ? fx.cp.reason[h] : "");
		if (h >= 0)
			CHECK(fabs(c.objective - (total + 0.02 + 2 * fx.p.demands[h].penalty)) < 1e-6,
			      "buy: objective %.6f, want %.6f", c.objective, total + 0.02 + 2 * fx.p.demands[h].penalty);
	}
	/* the node's share is the whole plan's here */
	cplan_node_bill(&fx.cp, 0, &b);
	CHECK(fabs(b.cat[CAT_HARDWARE] - 36000.0) < 1e-6 && fabs(b.cat[CAT_ENERGY] - energy) < 1e-6 &&
		      fabs(b.cat[CAT_LIC_NVAIE] - 13500.0) < 1e-6 && b.active == 1 && b.gpus_licensed == 1 &&
		      fabs(b.total - total) < 1e-6,
	      "buy: node bill hw %.4f energy %.4f lic %.4f active %ld licensed %ld", b.cat[CAT_HARDWARE],
	      b.cat[CAT_ENERGY], b.cat[CAT_LIC_NVAIE], b.active, b.gpus_licensed);
	fixture_release(&fx);
}

static void test_cost_rent(void)
{
	struct fixture fx;
	struct cplan_cost c;
	/*
	 * Rented node: 3.0 USD/h x 8760 h x 3 years = 78840; its power is in the rent.
	 * The passthrough GPU holds a needs_nvaie replica: licensed, 4500 x 3.
	 */
	double energy = 0;

	if (fixture_build(&fx, SC_TEXT, inv_rent, wl_rent, FIXTURE_GREEDY))
		return;
	cplan_cost(&fx.cp, &c);
	CHECK(c.nodes == 1 && c.gpus_active == 1 && c.gpus_licensed == 1, "rent: nodes %ld, active %ld, licensed %ld",
	      c.nodes, c.gpus_active, c.gpus_licensed);
	CHECK(fabs(c.cat[CAT_CLOUD] - 78840.0) < 1e-6, "rent: %.6f", c.cat[CAT_CLOUD]);
	CHECK(fabs(c.cat[CAT_ENERGY] - energy) < 1e-6, "rent: energy %.6f, want %.6f", c.cat[CAT_ENERGY], energy);
	CHECK(fabs(c.cat[CAT_LIC_NVAIE] - 13500.0) < 1e-6, "rent: license %.6f", c.cat[CAT_LIC_NVAIE]);
	CHECK(fabs(c.objective - (78840.0 + energy + 13500.0 + 0.02)) < 1e-6, "rent: objective %.6f", c.objective);
	{
		char *name = cplan_node_name(&fx.cp, &fx.cp.nodes[0]);
		CHECK_STR(name, "rent-000", "node name");
		free(name);
	}
	fixture_release(&fx);
}

/* cplan_prio_unplaced: the tiers' three priorities, highest first, those with none left out */
static void test_prio_unplaced(void)
{
	static const double none[] = { 0, 0, 0 }, some[] = { 1, 0, 7 }, mid[] = { 0, 2, 0 };
	struct fixture fx;
	char *s;

	if (fixture_build(&fx, SC_TEXT, inv_tier, wl_tier, 0))
		return;
	s = cplan_prio_unplaced(&fx.p, none);
	CHECK_STR(s, "none", "every replica placed");
	free(s);
	s = cplan_prio_unplaced(&fx.p, some);
	CHECK_STR(s, "3:1+1:7", "priorities 3 and 1");
	free(s);
	s = cplan_prio_unplaced(&fx.p, mid);
	CHECK_STR(s, "2:2", "priority 2 alone");
	free(s);
	fixture_release(&fx);
}

/* node's ids, by[first[node] .. first[node + 1]), are its slots, all of them, ascending. */
static void slots_of_node(const struct cplan *cp, const size_t *first, const uint32_t *by, size_t node)
{
	size_t j, want = 0, s;

	for (s = 0; s < cp->nslots; s++)
		want += (size_t)cp->slots[s].node == node;
	CHECK(first[node + 1] - first[node] == want, "node %zu: %zu ids for %zu slots", node,
	      first[node + 1] - first[node], want);
	for (j = first[node]; j < first[node + 1]; j++)
		CHECK((size_t)cp->slots[by[j]].node == node && (j == first[node] || by[j - 1] < by[j]),
		      "node %zu: slot %u (of node %d) at %zu", node, by[j], cp->slots[by[j]].node, j - first[node]);
}

/*
 * cplan_slots_by_node: an empty plan has no ids; of three nodes opened,
 * the middle one left idle has none, and the other two, their GPUs
 * configured in turn (each node's ids not one run), have theirs ascending.
 */
static void test_slots_by_node(void)
{
	static const char inv3[] = INV_HEADER "bm,3,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,1300\n";
	struct fixture fx;
	struct cplan cp;
	size_t *first, ci, i;
	uint32_t *by;
	int a, b, c, cfg = -1;

	if (fixture_build(&fx, SC_TEXT, inv3, wl_mig, 0))
		return;
	cplan_init(&cp, &fx.p);
	cplan_slots_by_node(&cp, &first, &by);
	CHECK(first[0] == 0 && first[1] == 0, "empty plan: first %zu %zu", first[0], first[1]);
	free(first);
	free(by);
	for (ci = 0; ci < fx.p.classes[0].nconfigs && cfg < 0; ci++)
		cfg = fx.p.classes[0].configs[ci].mode == MODE_MIG ? (int)ci : -1;
	CHECK(cfg >= 0, "no MIG configuration");
	a = cplan_open_node(&cp, 0, MODE_MIG, -1);
	b = cplan_open_node(&cp, 0, MODE_MIG, -1);
	c = cplan_open_node(&cp, 0, MODE_MIG, -1);
	for (i = 0; i < 4 && cfg >= 0; i++)
		cplan_configure_gpu(&cp, i % 2 ? a : c, (int)i / 2, cfg);
	CHECK(cp.nslots >= 4 && cp.slots[0].node == c, "%zu slots", cp.nslots);
	cplan_slots_by_node(&cp, &first, &by);
	CHECK(first[b] == first[b + 1] && first[cp.nnodes] == cp.nslots, "idle node: %zu ids; %zu of %zu in all",
	      first[b + 1] - first[b], first[cp.nnodes], cp.nslots);
	for (i = 0; i < cp.nnodes; i++)
		slots_of_node(&cp, first, by, i);
	free(first);
	free(by);
	cplan_release(&cp);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_cplan"))
		return 1;
	test_greedy_easy();
	test_greedy_tiers();
	test_greedy_resplit();
	test_greedy_keep();
	test_greedy_signal();
	test_round_trip();
	test_deal_cpu();
	test_leftover_cheapest();
	test_repair_swap();
	test_cost_mig();
	test_cost_buy();
	test_cost_rent();
	test_prio_unplaced();
	test_slots_by_node();
	fixture_teardown();
	return check_done();
}
