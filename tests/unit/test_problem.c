/*
 * test_problem.c - problem_build: which configurations are enumerated
 * per class (modes by hypervisor, vGPU only where a demand can use it),
 * which arcs exist (isolation, vm, needs_nvaie, sites, gpu_types, modes,
 * CPU), the penalty of an unplaced replica, merged slot types and the
 * dominance pruning.  Scenarios are written to a temp directory.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "problem.h"

#define WL_HEADER \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,gpu_types,modes,sites,needs_nvaie,priority\n"
#define SC_TEXT FIXTURE_SC_TEXT("p")

/* Three classes: bare-metal H100 (dc1), vSphere A100 bought (dc2), KVM L40S (dc2). */
static const char inv_mixed[] = INV_HEADER
	"bm,2,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,1300\n"
	"vs,2,A100-PCIE-80GB,4,vsphere,dc2,64,512,buy,60000,5,,650\n"
	"kvm,2,L40S,2,kvm,dc2,32,256,owned,,,,450\n";

static const char wl_mixed[] = WL_HEADER
	"any,t,2,0,10,0.1,none,false,,,,,false,1\n"
	"hw,t,2,0,10,0.12,hardware,false,,,,,false,1\n"
	"vmw,t,2,0,16,0.25,memory,true,,,,,false,1\n"
	"nv,t,2,0,10,0.1,none,false,,,,,true,1\n"
	"site1,t,2,0,10,0.1,none,false,,,,dc1,false,1\n"
	"l40,t,2,0,10,0.1,none,false,,L40S,,,false,1\n"
	"mpsonly,t,2,0,10,0.1,memory,false,,,mps,,false,1\n"
	"big,t,2,0,70,0.5,memory,false,,,,,false,7\n"
	"cpuhog,t,1,0,10,0.1,none,false,100,,,,false,1\n"
	"quad,t,1,4,,,exclusive,false,,,passthrough,,false,1\n";

/*
 * Only hardware-isolated 9.5 GiB replicas (a 1g.10gb gives 9.75 GiB on H100,
 * 9.50 on A100 80GB) on a bare-metal H100 and a vSphere A100 (no vm demand).
 */
static const char inv_hw[] = INV_HEADER
	"bm,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n"
	"vs,1,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,\n";
static const char wl_hw[] = WL_HEADER "hw,t,7,0,9.5,0.12,hardware,false,,,mig|passthrough,,false,1\n";
/* The same plus a 19.5 GiB one: 1g.10gb and 1g.20gb no longer take the same replicas. */
static const char wl_hw20[] = WL_HEADER
	"hw,t,7,0,9.5,0.12,hardware,false,,,mig|passthrough,,false,1\n"
	"hw20,t,1,0,19.5,0.12,hardware,false,,,mig|passthrough,,false,1\n";

static int class_index(const struct problem *p, const char *name)
{
	size_t k;
	for (k = 0; k < p->nclasses; k++)
		if (!strcmp(p->classes[k].nc->name, name))
			return (int)k;
	return -1;
}

static int demand_index(const struct problem *p, const char *name)
{
	size_t i;
	for (i = 0; i < p->ndemands; i++)
		if (!strcmp(p->demands[i].w->name, name))
			return (int)i;
	return -1;
}

static int has_arc(const struct problem *p, int d, int k, int s)
{
	size_t i;
	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].d == d && p->arcs[i].k == k && p->arcs[i].s == s)
			return 1;
	return 0;
}

/*
 * True when demand d may use some slot type of mode m in class k.  Arcs
 * go to representatives only, and a type has the same arcs as its rep.
 */
static int may_use(const struct problem *p, int d, int k, int m)
{
	const struct pclass *c = &p->classes[k];
	size_t t;
	for (t = 0; t < c->nslot_types; t++)
		if (c->slot_types[t].mode == (enum gpu_mode)m && has_arc(p, d, k, c->slot_types[t].rep))
			return 1;
	return 0;
}

static int configs_of_mode(const struct pclass *c, enum gpu_mode m)
{
	size_t i;
	int n = 0;
	for (i = 0; i < c->nconfigs; i++)
		if (c->configs[i].mode == m)
			n++;
	return n;
}

static int slot_type_named(const struct pclass *c, enum gpu_mode m, enum lic_product lic, const char *name)
{
	size_t t;
	for (t = 0; t < c->nslot_types; t++)
		if (c->slot_types[t].mode == m && c->slot_types[t].lic == lic &&
		    !strcmp(c->slot_types[t].name, name))
			return (int)t;
	return -1;
}

/* ================= arcs ================= */

static const struct {
	const char *w, *k;
	enum gpu_mode m;
	int want;
} arc_rows[] = {
	/* no isolation asked: any mode the hypervisor allows */
	{ "any", "bm", MODE_TIMESLICE, 1 },
	{ "any", "bm", MODE_MPS, 1 },
	{ "any", "bm", MODE_MIG, 1 },
	{ "any", "bm", MODE_PASSTHROUGH, 1 },
	{ "any", "bm", MODE_VGPU, 0 },		/* no vGPU without a hypervisor */
	{ "any", "bm", MODE_MIG_VGPU, 0 },
	{ "any", "vs", MODE_VGPU, 1 },		/* a VM boundary it does not need is no obstacle */
	{ "any", "kvm", MODE_MIG, 0 },		/* L40S: no MIG */
	/* isolation hardware: mig, mig-vgpu, passthrough only */
	{ "hw", "bm", MODE_MIG, 1 },
	{ "hw", "bm", MODE_PASSTHROUGH, 1 },
	{ "hw", "bm", MODE_TIMESLICE, 0 },
	{ "hw", "bm", MODE_MPS, 0 },
	{ "hw", "vs", MODE_VGPU, 0 },
	{ "hw", "vs", MODE_MIG_VGPU, 1 },
	{ "hw", "kvm", MODE_PASSTHROUGH, 1 },
	{ "hw", "kvm", MODE_VGPU, 0 },
	/* vm: true: a VM boundary (vgpu, mig-vgpu, passthrough on vsphere/kvm) */
	{ "vmw", "bm", MODE_PASSTHROUGH, 0 },
	{ "vmw", "bm", MODE_MIG, 0 },
	{ "vmw", "vs", MODE_PASSTHROUGH, 1 },
	{ "vmw", "vs", MODE_VGPU, 1 },
	{ "vmw", "vs", MODE_MIG_VGPU, 1 },
	{ "vmw", "vs", MODE_MIG, 0 },
	{ "vmw", "vs", MODE_TIMESLICE, 0 },
	{ "vmw", "vs", MODE_MPS, 0 },
	{ "vmw", "kvm", MODE_VGPU, 1 },
	/* needs_nvaie: licensed slots everywhere (bare MIG too, as a licensed configuration) */
	{ "nv", "bm", MODE_MIG, 1 },
	{ "nv", "bm", MODE_TIMESLICE, 1 },
	{ "nv", "vs", MODE_VGPU, 1 },
	/* sites */
	{ "site1", "bm", MODE_TIMESLICE, 1 },
	{ "site1", "vs", MODE_TIMESLICE, 0 },
	{ "site1", "vs", MODE_PASSTHROUGH, 0 },
	{ "site1", "kvm", MODE_PASSTHROUGH, 0 },
	/* gpu_types */
	{ "l40", "kvm", MODE_TIMESLICE, 1 },
	{ "l40", "bm", MODE_TIMESLICE, 0 },
	{ "l40", "vs", MODE_PASSTHROUGH, 0 },
	/* modes */
	{ "mpsonly", "bm", MODE_MPS, 1 },
	{ "mpsonly", "bm", MODE_TIMESLICE, 0 },
	{ "mpsonly", "bm", MODE_MIG, 0 },
	{ "mpsonly", "bm", MODE_PASSTHROUGH, 0 },
	/* 70 GiB: a whole GPU, 7g.80gb or an 80C vGPU; never half a GPU */
	{ "big", "bm", MODE_PASSTHROUGH, 1 },
	{ "big", "bm", MODE_MIG, 1 },
	{ "big", "bm", MODE_TIMESLICE, 0 },
	{ "big", "bm", MODE_MPS, 0 },
	{ "big", "vs", MODE_VGPU, 1 },
	{ "big", "kvm", MODE_PASSTHROUGH, 0 },	/* L40S has 48 GiB */
	/* 100 cores: no node has them */
	{ "cpuhog", "bm", MODE_TIMESLICE, 0 },
	{ "cpuhog", "vs", MODE_PASSTHROUGH, 0 },
	/* a 4-GPU replica: passthrough groups of 4, on nodes with 4 GPUs or more */
	{ "quad", "bm", MODE_PASSTHROUGH, 1 },
	{ "quad", "vs", MODE_PASSTHROUGH, 1 },
	{ "quad", "kvm", MODE_PASSTHROUGH, 0 },
	{ "quad", "bm", MODE_MIG, 0 },
};

static void test_arcs(void)
{
	struct fixture fx;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_mixed, wl_mixed, FIXTURE_CHECK_BUILD))
		return;
	for (i = 0; i < sizeof(arc_rows) / sizeof(arc_rows[0]); i++) {
		int d = demand_index(&fx.p, arc_rows[i].w), k = class_index(&fx.p, arc_rows[i].k);
		CHECK(d >= 0 && k >= 0, "arc row %zu: no demand '%s' or class '%s'", i, arc_rows[i].w, arc_rows[i].k);
		if (d < 0 || k < 0)
			continue;
		CHECK(may_use(&fx.p, d, k, arc_rows[i].m) == arc_rows[i].want, "arc row %zu: %s on %s in %s: want %d", i,
		      arc_rows[i].w, arc_rows[i].k, mode_name(arc_rows[i].m), arc_rows[i].want);
	}
	/* every arc is sorted by (d, k, s), points at a representative, and fits */
	for (i = 0; i < fx.p.narcs; i++) {
		const struct arc *a = &fx.p.arcs[i];
		const struct pclass *c = &fx.p.classes[a->k];
		const struct slot_type *st = &c->slot_types[a->s];
		CHECK(st->rep == a->s, "arc %zu: slot type %d is not a representative", i, a->s);
		CHECK(problem_slot_fits(c, st, fx.p.demands[a->d].w), "arc %zu: %s does not fit %s", i,
		      fx.p.demands[a->d].w->name, st->name);
		if (fx.p.demands[a->d].w->needs_nvaie)
			CHECK(st->lic == LIC_NVAIE, "arc %zu: NVAIE workload on a slot without NVAIE %s", i, st->name);
		if (i > 0) {
			const struct arc *b = &fx.p.arcs[i - 1];
			CHECK(b->d < a->d || (b->d == a->d && (b->k < a->k || (b->k == a->k && b->s < a->s))),
			      "arcs %zu, %zu out of order", i - 1, i);
		}
	}
	{
		int d = demand_index(&fx.p, "cpuhog"), any = demand_index(&fx.p, "any");
		CHECK(d >= 0 && fx.p.demands[d].unhostable != NULL, "cpuhog is unhostable");
		CHECK(any >= 0 && fx.p.demands[any].unhostable == NULL, "any is hostable");
	}
	fixture_release(&fx);
}

/* ================= configurations ================= */

static void test_configs(void)
{
	struct fixture fx;
	int bm, vs, kvm;
	size_t i;

	if (fixture_build(&fx, SC_TEXT, inv_mixed, wl_mixed, FIXTURE_CHECK_BUILD))
		return;
	bm = class_index(&fx.p, "bm");
	vs = class_index(&fx.p, "vs");
	kvm = class_index(&fx.p, "kvm");
	CHECK(configs_of_mode(&fx.p.classes[bm], MODE_VGPU) == 0, "baremetal H100: no vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[bm], MODE_MIG_VGPU) == 0, "baremetal H100: no mig-vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[bm], MODE_MIG) > 0, "baremetal H100: mig configs");
	CHECK(configs_of_mode(&fx.p.classes[bm], MODE_PASSTHROUGH) > 0, "baremetal H100: passthrough patterns");
	CHECK(!(fx.p.classes[bm].modes & (MODE_BIT(MODE_VGPU) | MODE_BIT(MODE_MIG_VGPU))), "baremetal modes mask 0x%x",
	      fx.p.classes[bm].modes);
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_VGPU) > 0, "vsphere A100 with a vm demand: vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_MIG_VGPU) > 0, "vsphere A100 with a vm demand: mig-vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[kvm], MODE_MIG) == 0, "L40S: no mig configs");
	CHECK(configs_of_mode(&fx.p.classes[kvm], MODE_VGPU) > 0, "kvm L40S: vgpu configs");
	for (i = 0; i < fx.p.nclasses; i++) {
		const struct pclass *c = &fx.p.classes[i];
		size_t j;
		for (j = 0; j < c->nconfigs; j++) {
			const struct config *cf = &c->configs[j];
			CHECK(hypervisor_modes(c->nc->hv) & MODE_BIT(cf->mode), "class %s config %s: mode %s not allowed",
			      c->nc->name, cf->name, mode_name(cf->mode));
			CHECK(cf->nslots > 0, "class %s config %s has no useful slot", c->nc->name, cf->name);
			CHECK(c->modes & MODE_BIT(cf->mode), "class %s: modes mask misses %s", c->nc->name,
			      mode_name(cf->mode));
			if (cf->mode == MODE_VGPU || cf->mode == MODE_MIG_VGPU)
				CHECK(cf->lic != LIC_NONE, "class %s config %s: vGPU modes are licensed", c->nc->name, cf->name);
		}
	}
	/* a 4-GPU group is offered as a node pattern where it fits */
	{
		int found = 0;
		for (i = 0; i < fx.p.classes[bm].nconfigs; i++)
			if (!strcmp(fx.p.classes[bm].configs[i].name, "gpu4*2"))
				found = fx.p.classes[bm].configs[i].node_pattern;
		CHECK(found, "bm offers the passthrough pattern gpu4*2");
	}
	fixture_release(&fx);

	/* no demand can use a vGPU mode: vsphere gets none */
	if (fixture_build(&fx, SC_TEXT, inv_hw, wl_hw, FIXTURE_CHECK_BUILD))
		return;
	vs = class_index(&fx.p, "vs");
	bm = class_index(&fx.p, "bm");
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_VGPU) == 0, "vsphere, mig|passthrough demand only: no vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_MIG_VGPU) == 0,
	      "vsphere, mig|passthrough demand only: no mig-vgpu configs");
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_TIMESLICE) == 0, "hardware isolation: no timeslice configs");
	CHECK(configs_of_mode(&fx.p.classes[vs], MODE_MPS) == 0, "hardware isolation: no mps configs");
	/*
	 * 7 x 10 GiB: every MIG geometry with 7 instances holds 7 replicas; the
	 * dominance pruning keeps one MIG configuration per class, the first of
	 * the equivalent ones in geometry order.
	 */
	CHECK(configs_of_mode(&fx.p.classes[bm], MODE_MIG) == 1, "bm: %d mig configs after pruning",
	      configs_of_mode(&fx.p.classes[bm], MODE_MIG));
	for (i = 0; i < fx.p.classes[bm].nconfigs; i++)
		if (fx.p.classes[bm].configs[i].mode == MODE_MIG)
			CHECK_STR(fx.p.classes[bm].configs[i].name, "1g.10gb*7", "bm: the MIG configuration kept (the tighter twin)");
	fixture_release(&fx);
}

/* ================= time-slice with shares ================= */

/* One bare-metal node of 4 x L40S (48 GiB); replicas that may only time-slice. */
static const char inv_share[] = INV_HEADER "bm,1,L40S,4,baremetal,dc1,64,512,owned,,,,\n";
static const char wl_share[] = WL_HEADER
	"big,t,3,0,12,0.65,none,false,,,timeslice,,false,1\n"	/* share 0.650 */
	"mid,t,3,0,8,0.32,none,false,,,timeslice,,false,1\n"	/* 0.320 */
	"memy,t,1,0,22.3515625,0.1,none,false,,,timeslice,,false,1\n"	/* memory: 22888 of 45776 MiB -> 0.500 */
	"tiny,t,2,0,1,0.16,none,false,,,timeslice,,false,1\n"	/* 0.160 */
	"hw,t,1,0,1,0.3,hardware,false,,,,,false,1\n";		/* never time-sliced */
#define SC_SHARES SC_TEXT "sharing: {timeslice_shares: true}\n"

static const struct config *config_named(const struct pclass *c, const char *name)
{
	size_t i;
	for (i = 0; i < c->nconfigs; i++)
		if (!strcmp(c->configs[i].name, name))
			return &c->configs[i];
	return NULL;
}

static void test_shares(void)
{
	struct fixture fx;
	const struct pclass *c;
	const struct config *cf;
	size_t i, j;
	int mixes = 0;

	/*
	 * Best-fit decreasing on the shares 0.650 x3, 0.500, 0.320 x3,
	 * 0.160 x2: each 0.650 opens a bin; 0.500 opens one; each 0.320 goes
	 * to the fullest bin it fits (0.650 -> 0.970, three times); the
	 * 0.160s fill the 0.500 bin (0.820).  Mixes: ts:0.650+0.320 (3 bins),
	 * ts:0.500+0.160+0.160 (1 bin).
	 */
	if (fixture_build(&fx, SC_SHARES, inv_share, wl_share, FIXTURE_CHECK_BUILD))
		return;
	c = &fx.p.classes[0];
	cf = config_named(c, "ts:0.650+0.320");
	CHECK(cf != NULL, "mix ts:0.650+0.320 offered");
	if (cf) {
		int sum = 0, n = 0;
		CHECK(cf->mode == MODE_TIMESLICE && cf->k == 2, "mix: mode %s, k %d", mode_name(cf->mode), cf->k);
		for (j = 0; j < cf->nreal; j++) {
			const struct slot_type *st = &c->slot_types[cf->real_slot[j]];
			sum += st->share * cf->real_count[j];
			n += cf->real_count[j];
			CHECK(st->memory_mib == c->nc->gpu->memory_mib * st->share / 1000, "slot %s: %ld MiB for share %d",
			      st->name, st->memory_mib, st->share);
		}
		CHECK(sum == 970 && n == 2, "mix shares sum %d over %d slots", sum, n);
	}
	CHECK(config_named(c, "ts:0.500+0.160+0.160") != NULL, "mix ts:0.500+0.160+0.160 offered");
	for (i = 0; i < c->nconfigs; i++)
		if (!strncmp(c->configs[i].name, "ts:", 3))
			mixes++;
	CHECK(mixes == 2, "%d mixes", mixes);
	/* the mix takes the 0.65 replicas: an arc from 'big' to its 0.650 slot */
	{
		int d = demand_index(&fx.p, "big"), s = slot_type_named(c, MODE_TIMESLICE, LIC_NONE, "ts:0.650");
		CHECK(s >= 0 && has_arc(&fx.p, d, 0, c->slot_types[s].rep), "big -> ts:0.650");
	}
	fixture_release(&fx);

	/* the default: equal slots only */
	if (fixture_build(&fx, SC_TEXT, inv_share, wl_share, FIXTURE_CHECK_BUILD))
		return;
	c = &fx.p.classes[0];
	for (i = 0; i < c->nconfigs; i++)
		CHECK(strncmp(c->configs[i].name, "ts:", 3) != 0, "no mixes without timeslice_shares: %s",
		      c->configs[i].name);
	for (i = 0; i < c->nslot_types; i++)
		CHECK(c->slot_types[i].share == 0, "slot %s has share %d", c->slot_types[i].name,
		      c->slot_types[i].share);
	fixture_release(&fx);
}

/* ================= penalty ================= */

static void test_penalty(void)
{
	struct fixture fx;
	size_t i, k;

	if (fixture_build(&fx, SC_TEXT, inv_mixed, wl_mixed, FIXTURE_CHECK_BUILD))
		return;
	for (i = 0; i < fx.p.ndemands; i++) {
		const struct pdemand *dm = &fx.p.demands[i];
		for (k = 0; k < fx.p.nclasses; k++) {
			const struct pclass *c = &fx.p.classes[k];
			/* a whole node with every GPU active, licensed and tie-broken */
			double full = c->node_cost + fx.p.tiebreak +
				      c->nc->gpus_per_node * (c->gpu_active_cost + fx.p.tiebreak +
							      FIXTURE_LICENSE * fx.p.horizon_years);
			CHECK(dm->penalty > full * dm->w->priority, "demand %s: penalty %.2f <= class %s full cost %.2f x %d",
			      dm->w->name, dm->penalty, c->nc->name, full, dm->w->priority);
		}
	}
	/*
	 * Priority is lexicographic: big has priority 7, the 9 others 1 (16
	 * replicas), 18 replicas in all, so one replica of big weighs
	 * S + N + 1 = 16 x 1 + 18 + 1 = 35 of priority 1: more than all of them.
	 */
	{
		int big = demand_index(&fx.p, "big"), any = demand_index(&fx.p, "any");
		CHECK(fabs(fx.p.demands[big].penalty - 35 * fx.p.demands[any].penalty) < 1e-6,
		      "penalty of big %.2f = 35 x %.2f", fx.p.demands[big].penalty, fx.p.demands[any].penalty);
	}
	/*
	 * The class costs from the formula with the literal inputs:
	 * vs (bought 60000 over 5 years, 3-year horizon) = 60000 * 3 / 5 = 36000
	 * plus base 650 W: 0.65 kW * 1.4 * 0.12 USD/kWh * 8760 h * 3 = 2869.776;
	 * an A100-PCIE-80GB (300 W) at load 0.6: 0.18 kW * 1.4 * 0.12 * 8760 * 3 = 794.7072.
	 */
	k = (size_t)class_index(&fx.p, "vs");
	CHECK(fabs(fx.p.classes[k].node_cost - (36000 + 2869.776)) < 1e-6, "vs node cost %.6f",
	      fx.p.classes[k].node_cost);
	CHECK(fabs(fx.p.classes[k].gpu_active_cost - 794.7072) < 1e-6, "vs GPU cost %.6f",
	      fx.p.classes[k].gpu_active_cost);
	fixture_release(&fx);
}

/*
 * Past the weight cap: batch (priority 1, 600 replicas) makes the exact
 * u(2) = 600 + 603 + 1 = 1204, so priorities 2, 3 and 4 all reach the cap
 * of 1000 and tie.  A plan that leaves only one of them short keeps the
 * solver's weights; one that leaves two short spreads them below the cap
 * in the solver's model, one big apart: 998, 999 and 1000 (tied, the
 * solver would trade a replica of a higher priority for a cheaper one of
 * a lower: test_ilp, priocap).  The documented penalties never move (the
 * plans are costed and reported with them), and no solver's penalty is
 * above its documented one (so the solver's bound bounds the documented
 * objective).
 */
static void test_penalty_spread(void)
{
	static const char wl[] = WL_HEADER "batch,t,600,1,,,exclusive,false,,,,,false,1\n"
					   "two,t,1,1,,,exclusive,false,,,,,false,2\n"
					   "three,t,1,1,,,exclusive,false,,,,,false,3\n"
					   "four,t,1,1,,,exclusive,false,,,,,false,4\n";
	static const long one_short[] = { 600, 0, 0, 1 }, two_short[] = { 600, 1, 0, 1 };
	struct fixture fx;
	double big;
	int i;

	if (fixture_build(&fx, SC_TEXT, inv_mixed, wl, FIXTURE_CHECK_BUILD))
		return;
	big = fx.p.demands[0].penalty;
	CHECK(problem_prio_spread(&fx.p, one_short) == 0 && !fx.p.prio_spread, "spread: one level short spreads nothing");
	for (i = 0; i < 4; i++)
		CHECK(fx.p.demands[i].solve_penalty == fx.p.demands[i].penalty, "spread: %s moved with one level short",
		      fx.p.demands[i].w->name);
	CHECK(problem_prio_spread(&fx.p, two_short) == 1 && fx.p.prio_spread, "spread: two levels short spread");
	CHECK(fx.p.demands[0].solve_penalty == big, "spread: priority 1 weighs %.6f in the solver, want 1",
	      fx.p.demands[0].solve_penalty / big);
	for (i = 0; i < 3; i++) {
		const struct pdemand *dm = &fx.p.demands[i + 1];
		CHECK(fabs(dm->penalty / big - 1000) < 1e-9, "spread: priority %d documented %.6f, want 1000", i + 2,
		      dm->penalty / big);
		CHECK(fabs(dm->solve_penalty / big - (998 + i)) < 1e-9, "spread: priority %d weighs %.6f in the solver, want %d",
		      i + 2, dm->solve_penalty / big, 998 + i);
		CHECK(dm->solve_penalty <= dm->penalty, "spread: priority %d above its documented penalty", i + 2);
	}
	fixture_release(&fx);
}

/* ================= merged slot types ================= */

static void test_merge(void)
{
	struct fixture fx;
	const struct pclass *c;
	int bm, t10, t20, t2g, tpt;

	if (fixture_build(&fx, SC_TEXT, inv_hw, wl_hw, FIXTURE_CHECK_BUILD))
		return;
	bm = class_index(&fx.p, "bm");
	c = &fx.p.classes[bm];
	t10 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.10gb");
	t20 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.20gb");
	t2g = slot_type_named(c, MODE_MIG, LIC_NONE, "2g.20gb");
	tpt = slot_type_named(c, MODE_PASSTHROUGH, LIC_NVAIE, "gpu1");
	CHECK(t10 >= 0 && t20 >= 0 && t2g >= 0 && tpt >= 0, "slot types found: %d %d %d %d", t10, t20, t2g, tpt);
	if (t10 >= 0 && t20 >= 0 && t2g >= 0 && tpt >= 0) {
		/* the same single demand, arc cost 0: one resource to the ILP */
		CHECK(c->slot_types[t10].rep == c->slot_types[t20].rep, "1g.10gb and 1g.20gb share a rep");
		CHECK(c->slot_types[t10].rep == c->slot_types[t2g].rep, "1g.10gb and 2g.20gb share a rep");
		/* a passthrough GPU has an arc cost (tie-break) of its own */
		CHECK(c->slot_types[tpt].rep != c->slot_types[t10].rep, "gpu1 and 1g.10gb do not share a rep");
	}
	fixture_release(&fx);

	if (fixture_build(&fx, SC_TEXT, inv_hw, wl_hw20, FIXTURE_CHECK_BUILD))
		return;
	c = &fx.p.classes[class_index(&fx.p, "bm")];
	t10 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.10gb");
	t20 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.20gb");
	t2g = slot_type_named(c, MODE_MIG, LIC_NONE, "2g.20gb");
	CHECK(t10 >= 0 && t20 >= 0 && t2g >= 0, "slot types found");
	if (t10 >= 0 && t20 >= 0 && t2g >= 0) {
		CHECK(c->slot_types[t10].rep != c->slot_types[t20].rep, "with a 20 GiB demand 1g.10gb and 1g.20gb differ");
		CHECK(c->slot_types[t20].rep == c->slot_types[t2g].rep, "1g.20gb and 2g.20gb still share a rep");
	}
	fixture_release(&fx);
}

/* ================= usable MIG memory ================= */

/*
 * An H100 80GB 1g.10gb gives 9.75 GiB (`nvidia-smi mig -lgip`, 9984 MiB in
 * models/gpus.yaml): a 10 GiB replica never fits it, a 9.75 GiB one does;
 * both fit 1g.20gb (19.62 GiB).
 */
static const char wl_usable[] = WL_HEADER
	"ten,t,1,0,10,0.12,hardware,false,,,mig,,false,1\n"
	"edge,t,1,0,9.75,0.12,hardware,false,,,mig,,false,1\n";

static void test_usable_memory(void)
{
	struct fixture fx;
	const struct pclass *c;
	int bm, t10, t20, ten, edge;

	if (fixture_build(&fx, SC_TEXT, inv_hw, wl_usable, FIXTURE_CHECK_BUILD))
		return;
	bm = class_index(&fx.p, "bm");
	c = &fx.p.classes[bm];
	t10 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.10gb");
	t20 = slot_type_named(c, MODE_MIG, LIC_NONE, "1g.20gb");
	ten = demand_index(&fx.p, "ten");
	edge = demand_index(&fx.p, "edge");
	CHECK(t10 >= 0 && t20 >= 0 && ten >= 0 && edge >= 0, "found: %d %d %d %d", t10, t20, ten, edge);
	if (t10 >= 0 && t20 >= 0 && ten >= 0 && edge >= 0) {
		CHECK(c->slot_types[t10].memory_mib == 9984, "1g.10gb slot memory %ld", c->slot_types[t10].memory_mib);
		CHECK(!problem_slot_fits(c, &c->slot_types[t10], fx.p.demands[ten].w), "10 GiB fits 1g.10gb");
		CHECK(problem_slot_fits(c, &c->slot_types[t10], fx.p.demands[edge].w), "9.75 GiB does not fit 1g.10gb");
		CHECK(problem_slot_fits(c, &c->slot_types[t20], fx.p.demands[ten].w), "10 GiB does not fit 1g.20gb");
		CHECK(!has_arc(&fx.p, ten, bm, c->slot_types[t10].rep) || c->slot_types[t10].rep != t10,
		      "an arc from 10 GiB to 1g.10gb");
	}
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_problem"))
		return 1;
	test_arcs();
	test_configs();
	test_penalty();
	test_penalty_spread();
	test_merge();
	test_shares();
	test_usable_memory();
	fixture_teardown();
	return check_done();
}
