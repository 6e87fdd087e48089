/*
 * test_verify.c - verify_plan: a greedy plan of a small scenario (built
 * through the real API: scenario_load, problem_build, cplan_greedy)
 * passes; then table rows each corrupt one thing of a freshly built plan
 * and expect a rejection whose message holds a given fragment.
 *
 * The scenario (written to a temp dir) gives the greedy plan one node of
 * each kind the rows need: a bare-metal H100 node in MIG mode (7 x
 * 1g.10gb), a vSphere A100 node in vGPU mode (A100D-20C*4, 3 used) and two
 * vSphere A100 passthrough nodes with groups of 2 GPUs, one 2-GPU training
 * replica on each (its 40 cores per replica do not fit twice in a node's
 * 64).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "fixture.h"
#include "problem.h"
#include "verify.h"

static const char sc_text[] =
	"schema: gpuplan-scenario/1\n"
	"name: verify\n"
	"inventory: inventory.csv\n"
	"workloads: workloads.csv\n";

static const char inv_text[] = INV_HEADER
	"bm,2,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n"
	"vs,3,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,\n";

static const char wl_text[] =
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
	"mig-w,t,7,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig\n"
	"vgpu-w,t,3,0,16,0.25,memory,true,1,8,A100-PCIE-80GB,vgpu\n"
	"train,t,2,2,,,exclusive,false,40,64,A100-PCIE-80GB,passthrough\n";

static int class_index(const struct fixture *fx, const char *name)
{
	size_t k;
	for (k = 0; k < fx->p.nclasses; k++)
		if (!strcmp(fx->p.classes[k].nc->name, name))
			return (int)k;
	return -1;
}

static int demand_index(const struct fixture *fx, const char *name)
{
	size_t i;
	for (i = 0; i < fx->p.ndemands; i++)
		if (!strcmp(fx->p.demands[i].w->name, name))
			return (int)i;
	return -1;
}

/* The first node in mode m; -1 if none. */
static int node_in_mode(const struct fixture *fx, enum gpu_mode m)
{
	size_t i;
	for (i = 0; i < fx->cp.nnodes; i++)
		if (fx->cp.nodes[i].mode == m)
			return (int)i;
	return -1;
}

/* The n-th slot (from 0) holding demand d; -1 if none. */
static int slot_of(const struct fixture *fx, int d, int n)
{
	size_t i;
	for (i = 0; i < fx->cp.nslots; i++)
		if (fx->cp.slots[i].d == d && n-- == 0)
			return (int)i;
	return -1;
}

/* The first slot holding demand d whose slot type is named name; -1 if none. */
static int slot_named(const struct fixture *fx, int d, const char *name)
{
	size_t i;
	for (i = 0; i < fx->cp.nslots; i++) {
		const struct cslot *s = &fx->cp.slots[i];
		if (s->d == d && !strcmp(fx->p.classes[fx->cp.nodes[s->node].k].slot_types[s->type].name, name))
			return (int)i;
	}
	return -1;
}

/* ================= corruptions ================= */

/* Each returns 0 when it corrupted the plan, -1 when the plan lacked what it needs. */
typedef int (*corrupt_fn)(struct fixture *fx);

/* Two 1g.10gb instances of one GPU: the second moved onto the first's slice. */
static int mig_overlap(struct fixture *fx)
{
	int a = slot_named(fx, demand_index(fx, "mig-w"), "1g.10gb"), b = -1;
	size_t i;
	if (a < 0)
		return -1;
	for (i = 0; i < fx->cp.nslots; i++) {
		const struct cslot *s = &fx->cp.slots[i];
		if ((int)i != a && s->node == fx->cp.slots[a].node && s->gpu == fx->cp.slots[a].gpu &&
		    s->type == fx->cp.slots[a].type && s->mig_start != fx->cp.slots[a].mig_start) {
			b = (int)i;
			break;
		}
	}
	if (b < 0)
		return -1;
	fx->cp.slots[b].mig_start = fx->cp.slots[a].mig_start;
	return 0;
}

/* A MIG instance at a start its profile does not allow (1g.10gb at 7). */
static int mig_bad_start(struct fixture *fx)
{
	int a = slot_named(fx, demand_index(fx, "mig-w"), "1g.10gb");
	if (a < 0)
		return -1;
	fx->cp.slots[a].mig_start = 7;
	return 0;
}

/* A 1g.10gb slot given to a workload asking 16 GiB (counts kept consistent). */
static int slot_too_small(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "mig-w"), 0), dv = demand_index(fx, "vgpu-w");
	if (a < 0 || dv < 0)
		return -1;
	fx->cp.placed[fx->cp.slots[a].d]--;
	fx->cp.unplaced[fx->cp.slots[a].d]++;
	fx->cp.slots[a].d = dv;
	fx->cp.placed[dv]++;
	return 0;
}

/* A vm: true replica moved into a MIG slot (no VM boundary). */
static int vm_without_boundary(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "mig-w"), 0), dv = demand_index(fx, "vgpu-w");
	if (a < 0 || dv < 0)
		return -1;
	/* 16 GiB would not fit 10 GiB anyway: pretend the vm workload asks 8 */
	fx->sc.workloads.w[dv].gpu_mem_gib = 8;
	fx->sc.workloads.w[dv].compute = 0.1;
	fx->sc.workloads.w[dv].modes = MODE_ALL;
	fx->sc.workloads.w[dv].iso = ISO_NONE;
	fx->cp.placed[fx->cp.slots[a].d]--;
	fx->cp.unplaced[fx->cp.slots[a].d]++;
	fx->cp.slots[a].d = dv;
	fx->cp.placed[dv]++;
	return 0;
}

/* The MIG node of the bare-metal class switched to vgpu. */
static int vgpu_on_baremetal(struct fixture *fx)
{
	int n = node_in_mode(fx, MODE_MIG);
	if (n < 0)
		return -1;
	fx->cp.nodes[n].mode = MODE_VGPU;
	return 0;
}

/* The vs class owns 3 nodes and the plan uses 3: now it owns 2. */
static int class_over_count(struct fixture *fx)
{
	int k = class_index(fx, "vs");
	if (k < 0 || fx->cp.opened[k] != 3)
		return -1;
	fx->sc.inventory.classes[k].count = 2;
	return 0;
}

/* Train replica 1 moved to the free 2-GPU group next to replica 0: 80 of 64 cores. */
static int cpu_overcommit(struct fixture *fx)
{
	int dt = demand_index(fx, "train"), a = slot_of(fx, dt, 0), b = slot_of(fx, dt, 1), f = -1;
	size_t i;
	if (a < 0 || b < 0 || fx->cp.slots[a].node == fx->cp.slots[b].node)
		return -1;
	for (i = 0; i < fx->cp.nslots; i++)
		if (fx->cp.slots[i].node == fx->cp.slots[a].node && fx->cp.slots[i].d < 0 &&
		    fx->cp.slots[i].ngpus == 2)
			f = (int)i;
	if (f < 0)
		return -1;
	fx->cp.slots[f].d = dt;
	fx->cp.slots[f].replica = fx->cp.slots[b].replica;
	fx->cp.slots[b].d = -1;
	return 0;
}

/* One replica more counted unplaced than the workload has. */
static int counts_inconsistent(struct fixture *fx)
{
	int d = demand_index(fx, "mig-w");
	if (d < 0)
		return -1;
	fx->cp.unplaced[d]++;
	return 0;
}

/* A placed replica not counted as placed. */
static int placed_miscounted(struct fixture *fx)
{
	int d = demand_index(fx, "vgpu-w");
	if (d < 0)
		return -1;
	fx->cp.placed[d]--;
	fx->cp.unplaced[d]++;
	return 0;
}

/* The second 2-GPU group of a passthrough node moved onto GPU 1 (overlaps GPUs 0-1). */
static int group_overlap(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "train"), 0), b = -1;
	size_t i;
	if (a < 0)
		return -1;
	for (i = 0; i < fx->cp.nslots; i++)
		if ((int)i != a && fx->cp.slots[i].node == fx->cp.slots[a].node && fx->cp.slots[i].gpu == 2)
			b = (int)i;
	if (b < 0 || fx->cp.slots[a].gpu != 0 || fx->cp.slots[a].ngpus != 2)
		return -1;
	fx->cp.slots[b].gpu = 1;
	return 0;
}

/* A passthrough group reaching past the node's last GPU. */
static int group_outside(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "train"), 0);
	if (a < 0)
		return -1;
	fx->cp.slots[a].gpu = 3;
	return 0;
}

/* A vGPU GPU given one slot more than its profile's max_equal. */
static int vgpu_over_max(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "vgpu-w"), 0);
	const struct cnode *n;
	const struct pclass *c;
	int maxeq, have = 0, add;
	size_t i;
	if (a < 0)
		return -1;
	n = &fx->cp.nodes[fx->cp.slots[a].node];
	c = &fx->p.classes[n->k];
	maxeq = c->nc->gpu->vgpu.profiles[c->configs[n->gpu_config[fx->cp.slots[a].gpu]].vgpu_profile].max_equal;
	for (i = 0; i < fx->cp.nslots; i++)
		if (fx->cp.slots[i].node == fx->cp.slots[a].node && fx->cp.slots[i].gpu == fx->cp.slots[a].gpu)
			have++;
	add = maxeq + 1 - have;
	if (add < 1)
		return -1;
	fx->cp.slots = xrealloc(fx->cp.slots, (fx->cp.nslots + (size_t)add) * sizeof(*fx->cp.slots));
	fx->cp.slotcap = fx->cp.nslots + (size_t)add;
	while (add-- > 0) {
		fx->cp.slots[fx->cp.nslots] = fx->cp.slots[a];
		fx->cp.slots[fx->cp.nslots].d = -1;
		fx->cp.nslots++;
	}
	return 0;
}

/* A slot on a GPU of the MIG node that has no configuration (idle). */
static int slot_on_idle_gpu(struct fixture *fx)
{
	int a = slot_of(fx, demand_index(fx, "mig-w"), 0);
	const struct cnode *n;
	int g, ng;
	if (a < 0)
		return -1;
	n = &fx->cp.nodes[fx->cp.slots[a].node];
	ng = fx->p.classes[n->k].nc->gpus_per_node;
	for (g = 0; g < ng; g++)
		if (n->gpu_config[g] < 0)
			break;
	if (g == ng)
		return -1;
	fx->cp.slots[a].gpu = g;
	return 0;
}

/* A replica placed on a GPU type its workload does not allow. */
static int wrong_gpu_type(struct fixture *fx)
{
	int d = demand_index(fx, "mig-w");
	if (d < 0 || fx->sc.workloads.w[d].ngpu_types != 1)
		return -1;
	/* the vs class's A100 instead of the H100 the replicas are on */
	fx->sc.workloads.w[d].gpu_types[0] = fx->p.classes[class_index(fx, "vs")].nc->gpu;
	return 0;
}

static const struct {
	const char *name;
	corrupt_fn corrupt;
	const char *want;	/* fragment of the message */
} rows[] = {
	{ "MIG instance moved onto another's slice", mig_overlap, "1g.10gb at slice 0 overlaps 1g.10gb at 0" },
	{ "MIG instance at a start not allowed", mig_bad_start, "start 7 not allowed for 1g.10gb" },
	{ "slot given to a workload asking more memory", slot_too_small, "workload 'vgpu-w' does not fit its slot" },
	{ "vm replica in a MIG slot", vm_without_boundary, "workload 'vgpu-w' does not fit its slot" },
	{ "vgpu mode on a bare-metal node", vgpu_on_baremetal, "mode vgpu on a baremetal node" },
	{ "more nodes of a class than its count", class_over_count, "more nodes of 'vs' than its count 2" },
	{ "CPU of a node overcommitted", cpu_overcommit, "over its CPU or RAM" },
	{ "unplaced count too high", counts_inconsistent, "workload 'mig-w': 7 placed + 1 unplaced != 7 replicas" },
	{ "placed count too low", placed_miscounted, "workload 'vgpu-w': 3 placed + 1 unplaced != 3 replicas" },
	{ "passthrough groups overlapping", group_overlap, "GPU 1 of node vs-" },
	{ "passthrough group past the last GPU", group_outside, "outside its node's GPUs" },
	{ "vGPU GPU with more slots than max_equal", vgpu_over_max, "5 vGPUs of A100D-20C exceed its 4 per GPU" },
	{ "slot on an idle GPU", slot_on_idle_gpu, "idle GPU" },
	{ "replica on a GPU type not allowed", wrong_gpu_type, "workload 'mig-w' placed on a GPU type it does not allow" },
};

/* ================= the per-node rules (docs/deploy.md) ================= */

static const char rule_inv[] = INV_HEADER "ts,1,A100-PCIE-80GB,4,baremetal,dc1,64,512,owned,,,,\n"
					   "mg,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n";
static const char rule_wl[] =
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
	"ts-w,t,2,0,8,0.1,none,false,1,8,A100-PCIE-80GB,timeslice\n"
	"ts-big,t,1,0,30,0.1,none,false,1,8,A100-PCIE-80GB,timeslice\n"
	"mig-w,t,2,0,9.5,0.14,hardware,false,1,8,H100-SXM5-80GB,mig\n"
	"mig-big,t,1,0,18,0.28,hardware,false,1,8,H100-SXM5-80GB,mig\n";

/*
 * Configures an idle GPU of the first node in mode m with a configuration
 * of that mode that the node's first GPU does not have, of another replica
 * count (time-slicing) or other profiles (MIG); -1 when there is none.
 */
static int configure_other(struct fixture *fx, enum gpu_mode m)
{
	int n = node_in_mode(fx, m), g, first;
	const struct pclass *c;
	size_t ci;

	if (n < 0)
		return -1;
	c = &fx->p.classes[fx->cp.nodes[n].k];
	first = fx->cp.nodes[n].gpu_config[0];
	for (g = 0; g < c->nc->gpus_per_node && fx->cp.nodes[n].gpu_config[g] >= 0; g++)
		;
	if (first < 0 || g == c->nc->gpus_per_node)
		return -1;
	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		if (cf->mode == m && (m == MODE_MIG ? cf->mig.profile[0] != c->configs[first].mig.profile[0]
						    : cf->k != c->configs[first].k)) {
			cplan_configure_gpu(&fx->cp, n, g, (int)ci);
			return 0;
		}
	}
	return -1;
}

/* One replica count per time-sliced node; one MIG profile per node under strategy single. */
static void test_node_rules(void)
{
	static const char *const sc[2] = { FIXTURE_SC_TEXT("rules"),
					   FIXTURE_SC_TEXT("rules") "sharing: {mig_strategy: single}\n" };
	static const char *const want[2] = { "node ts-000 shares its GPUs timeslice with two replica counts",
					     "node mg-000 mixes MIG profiles under MIG strategy single" };
	int i;

	for (i = 0; i < 2; i++) {
		struct fixture fx;
		struct diag d = DIAG_INIT;
		enum gpu_mode m = i ? MODE_MIG : MODE_TIMESLICE;

		if (fixture_build(&fx, sc[i], rule_inv, rule_wl, FIXTURE_GREEDY))
			return;
		CHECK(verify_plan(&fx.cp, &d) == 0, "rule %d: greedy plan rejected: %s", i, d.msg ? d.msg : "");
		diag_release(&d);
		if (configure_other(&fx, m)) {
			CHECK(0, "rule %d: no %s node with an idle GPU to configure", i, mode_name(m));
		} else {
			CHECK(verify_plan(&fx.cp, &d) == -1, "rule %d: a node breaking the rule passed", i);
			CHECK(d.msg && strstr(d.msg, want[i]), "rule %d: message '%s' lacks '%s'", i,
			      d.msg ? d.msg : "(none)", want[i]);
		}
		diag_release(&d);
		fixture_release(&fx);
	}
}

/* ================= tests ================= */

/* The untouched greedy plan: the shape the rows rely on, and it verifies. */
static void test_baseline(void)
{
	struct fixture fx;
	struct diag d = DIAG_INIT;
	int n;

	if (fixture_build(&fx, sc_text, inv_text, wl_text, FIXTURE_GREEDY))
		return;
	CHECK(verify_plan(&fx.cp, &d) == 0, "baseline plan rejected: %s", d.msg ? d.msg : "");
	CHECK(node_in_mode(&fx, MODE_MIG) >= 0, "baseline has a MIG node");
	CHECK(node_in_mode(&fx, MODE_VGPU) >= 0, "baseline has a vGPU node");
	n = node_in_mode(&fx, MODE_PASSTHROUGH);
	CHECK(n >= 0 && !strcmp(fx.p.classes[fx.cp.nodes[n].k].nc->name, "vs"), "baseline has a vs passthrough node");
	CHECK(fx.cp.opened[class_index(&fx, "vs")] == 3, "3 vs nodes, got %d", fx.cp.opened[class_index(&fx, "vs")]);
	CHECK(fx.cp.nodes[fx.cp.slots[slot_of(&fx, demand_index(&fx, "train"), 0)].node].k ==
		      class_index(&fx, "vs") &&
		      fx.cp.slots[slot_of(&fx, demand_index(&fx, "train"), 0)].node !=
			      fx.cp.slots[slot_of(&fx, demand_index(&fx, "train"), 1)].node,
	      "the two train replicas on two vs nodes");
	diag_release(&d);
	fixture_release(&fx);
}

static void test_rows(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fixture fx;
		struct diag d = DIAG_INIT;
		int rc;

		if (fixture_build(&fx, sc_text, inv_text, wl_text, FIXTURE_GREEDY))
			return;
		if (rows[i].corrupt(&fx)) {
			CHECK(0, "row %zu (%s): the plan lacks what the row corrupts", i, rows[i].name);
			fixture_release(&fx);
			continue;
		}
		rc = verify_plan(&fx.cp, &d);
		CHECK(rc == -1, "row %zu (%s): verify_plan returned %d", i, rows[i].name, rc);
		CHECK(d.kind == DIAG_IO, "row %zu (%s): diag kind %d", i, rows[i].name, (int)d.kind);
		CHECK(d.msg && strstr(d.msg, "plan failed verification (a planner bug): "),
		      "row %zu (%s): message '%s'", i, rows[i].name, d.msg ? d.msg : "(none)");
		CHECK(d.msg && strstr(d.msg, rows[i].want), "row %zu (%s): message '%s' lacks '%s'", i, rows[i].name,
		      d.msg ? d.msg : "(none)", rows[i].want);
		diag_release(&d);
		fixture_release(&fx);
	}
}

/* ================= ScheduleAnyway spreads past their skew ================= */

/*
 * The greedy plan packs a ScheduleAnyway spread's 5 replicas on the first
 * GPU (7 MIG slots); the other owned node (or site) stays idle and counts
 * 0, so the skew is 5; a workload within its max_skew is not listed.
 */
static void test_spread_skews(void)
{
	static const char *const inv[2] = {
		INV_HEADER "n,2,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n",
		INV_HEADER "a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
			   "b,1,H100-SXM5-80GB,1,baremetal,dc2,64,512,owned,,,,\n",
	};
	static const char *const wl[2] = {
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,modes,spread,max_skew,when_unsatisfiable\n"
		"web,t,5,0,9.5,0.12,hardware,mig,node,1,ScheduleAnyway\n"
		"one,t,1,0,9.5,0.12,hardware,mig,node,1,ScheduleAnyway\n",
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,modes,spread,max_skew,when_unsatisfiable\n"
		"web,t,5,0,9.5,0.12,hardware,mig,site,2,ScheduleAnyway\n"
		"one,t,1,0,9.5,0.12,hardware,mig,site,1,ScheduleAnyway\n",
	};
	static const char *const top[2] = { "n-000", "dc1" };
	int i;

	for (i = 0; i < 2; i++) {
		struct fixture fx;
		struct spread_skew *sk;
		size_t n;

		if (fixture_build(&fx, FIXTURE_SC_TEXT("skew"), inv[i], wl[i], FIXTURE_GREEDY))
			return;
		n = verify_spread_skews(&fx.cp, &sk);
		CHECK(n == 1, "case %d: %zu workloads past their skew, want 1 (web)", i, n);
		if (n >= 1) {
			CHECK_STR(fx.p.demands[sk[0].d].w->name, "web", "case %d: the workload", i);
			CHECK(sk[0].skew == 5 && sk[0].top == 5 && sk[0].min == 0, "case %d: skew %ld = %ld - %ld, want 5 - 0",
			      i, sk[0].skew, sk[0].top, sk[0].min);
			CHECK_STR(sk[0].domain, top[i], "case %d: the fullest domain", i);
		}
		verify_spread_skews_free(sk, n);
		fixture_release(&fx);
	}
}

int main(void)
{
	if (fixture_setup("test_verify"))
		return 1;
	test_baseline();
	test_rows();
	test_node_rules();
	test_spread_skews();
	fixture_teardown();
	return check_done();
}
