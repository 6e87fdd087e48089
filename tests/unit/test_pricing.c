/*
 * test_pricing.c - the cost and licence model against figures computed
 * by hand: NVAIE per physical GPU and per vGPU seat, bundled NVAIE on a
 * bought H100 NVL, energy with PUE and an idle factor, a rented p4d from
 * models/clouds.yaml with hourly NVAIE, perpetual licences with and
 * without a support price, hypervisor cost per core, and the mode mix
 * flipping when only the counting rule or the NVAIE price changes.
 *
 * Every expected figure is written out in a comment from the literal
 * inputs and models/licenses.yaml, models/clouds.yaml, models/gpus.yaml
 * (TDPs), never copied from the program's output.  Scenarios are written
 * to a temp directory and planned through the real pipeline (plan_run).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "fixture.h"
#include "plan.h"
#include "pricing.h"

#define INV_FULL                                                                                   \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w,offer,nvaie_bundle_years\n"
#define WL_HEADER                                                                                          \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites," \
	"needs_nvaie,priority\n"
#define SC_HEAD(name, years) \
	"schema: gpuplan-scenario/1\nname: " name "\ninventory: inventory.csv\nworkloads: workloads.csv\nhorizon_years: " years "\n"

/* |got - want| within a cent's hundredth, or relatively 1e-9 for big figures. */
static int near(double got, double want)
{
	return fabs(got - want) <= 1e-4 + 1e-9 * fabs(want);
}

#define CHECK_NEAR(got, want, what)                                                              \
	CHECK(near((got), (want)), "%s: got %.6f, want %.6f", (what), (double)(got), (double)(want))

/* Plans fx->sc through the whole pipeline; 0 or -1 after a failed CHECK. */
static int plan(struct plan_result *r, const struct fixture *fx, const char *what)
{
	struct plan_opts o = PLAN_OPTS_INIT;
	struct diag d = DIAG_INIT;
	int rc;

	o.node_limit = 1000000; /* deterministic: no clock (plan.c) */
	rc = plan_run(r, &fx->sc, &o, &d);
	CHECK(rc == 0, "%s: plan_run: %s", what, d.msg ? d.msg : "");
	diag_release(&d);
	if (rc) {
		plan_release(r);
		return -1;
	}
	return 0;
}

/* True when the pricing lists an assumption whose text contains what. */
static int assumed(const struct pricing *pr, const char *what)
{
	size_t i;
	for (i = 0; i < pr->nassumptions; i++)
		if (strstr(pr->assumptions[i].what, what))
			return 1;
	return 0;
}

/* Nodes and active GPUs of the final plan in mode m. */
static void mode_mix(const struct plan_result *r, enum gpu_mode m, long *nodes, long *active)
{
	size_t i;
	*nodes = *active = 0;
	for (i = 0; i < r->final->nnodes; i++) {
		struct node_bill b;
		if (r->final->nodes[i].mode != m)
			continue;
		cplan_node_bill(r->final, i, &b);
		(*nodes)++;
		*active += b.active;
	}
}

/* ================= 1, 2: 16 A100 in mig-vgpu under NVAIE ================= */

/*
 * 4 owned vSphere nodes x 4 A100-PCIE-80GB (300 W), base 500 W.  64 VM
 * replicas of 20 GiB at 1/7 of a GPU, hardware isolation, mig-vgpu only:
 * a GPU holds at most 80/20 = 4 of them (A100D-1-20C on 1g.20gb x4), so
 * all 16 GPUs are needed.
 */
static const char inv_a100[] = INV_FULL "vs,4,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,500,,\n";
static const char wl_a100[] = WL_HEADER "vm,t,64,0,19.5,0.12,hardware,true,,,,mig-vgpu,,false,1\n";
#define SC_ENERGY "energy: {usd_per_kwh: 0.12, pue: 1.4, gpu_load_factor: 0.6}\n"

/*
 * Energy, the same in both counting rules: per node 500 W + 4 x 300 W x 0.6
 * = 1220 W; 4 nodes 4880 W x PUE 1.4 x 0.12 USD/kWh x 8760 h / 1000
 * = 6832 x 0.12 x 8.76 = 7181.7984 USD per year, 21545.3952 over 3 years.
 */
#define A100_ENERGY_YEAR 7181.7984

static void check_a100(const char *what, const char *sc_text, long want_gpus, long want_seats, double want_lic)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	long n, a;

	if (fixture_build(&fx, sc_text, inv_a100, wl_a100, 0))
		return;
	/* one licence of the class: NVAIE subscription-3y, 13,500, all in year 1 */
	CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "subscription-3y", "%s: term", what);
	CHECK_NEAR(fx.pr.cls[0]->lic[LIC_NVAIE].total, 13500.0, "licence total");
	CHECK_NEAR(fx.pr.cls[0]->lic[LIC_NVAIE].year[0], 13500.0, "licence year 1");
	CHECK(fx.pr.cls[0]->lic[LIC_NVAIE].year[1] == 0 && fx.pr.cls[0]->lic[LIC_NVAIE].year[2] == 0,
	      "%s: nothing charged in years 2-3", what);
	CHECK(fx.pr.cls[0]->mode_product[MODE_MIG_VGPU] == LIC_NVAIE && fx.pr.cls[0]->mode_product[MODE_MIG] == LIC_NONE,
	      "%s: mig-vgpu on vsphere needs NVAIE, bare mig none", what);
	if (plan(&r, &fx, what) == 0) {
		cplan_cost(r.final, &c);
		mode_mix(&r, MODE_MIG_VGPU, &n, &a);
		CHECK(c.placed == 64 && c.unplaced == 0, "%s: placed %ld unplaced %ld", what, c.placed, c.unplaced);
		CHECK(n == 4 && a == 16, "%s: mig-vgpu %ld nodes %ld GPUs, want 4 and 16", what, n, a);
		CHECK(c.gpus_licensed == 16, "%s: %ld GPUs licensed", what, c.gpus_licensed);
		CHECK(c.lic_gpus[LIC_NVAIE] == want_gpus && c.seats[LIC_NVAIE] == want_seats,
		      "%s: NVAIE %ld GPUs %ld seats, want %ld and %ld", what, c.lic_gpus[LIC_NVAIE],
		      c.seats[LIC_NVAIE], want_gpus, want_seats);
		CHECK_NEAR(c.cat[CAT_LIC_NVAIE], want_lic, "nvaie over the horizon");
		CHECK_NEAR(c.year[CAT_LIC_NVAIE][0], want_lic, "nvaie in year 1");
		CHECK(c.year[CAT_LIC_NVAIE][1] == 0 && c.year[CAT_LIC_NVAIE][2] == 0, "%s: nvaie in years 2-3", what);
		CHECK(c.cat[CAT_LIC_VCS] == 0 && c.cat[CAT_HARDWARE] == 0 && c.cat[CAT_CLOUD] == 0 &&
			      c.cat[CAT_HYPERVISOR] == 0,
		      "%s: no vcs, hardware, cloud or hypervisor cost", what);
		CHECK_NEAR(c.year[CAT_ENERGY][0], A100_ENERGY_YEAR, "energy year 1");
		CHECK_NEAR(c.year[CAT_ENERGY][2], A100_ENERGY_YEAR, "energy year 3");
		CHECK_NEAR(c.cat[CAT_ENERGY], 3 * A100_ENERGY_YEAR, "energy");
		CHECK_NEAR(c.total, want_lic + 3 * A100_ENERGY_YEAR, "total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

static void test_a100_physical(void)
{
	/* 16 GPUs x 13,500 (subscription-3y) = 216,000, all in year 1 */
	check_a100("a100 physical-gpu", SC_HEAD("a100", "3") SC_ENERGY, 16, 0, 216000.0);
}

static void test_a100_seats(void)
{
	/* one seat per vGPU VM: 16 GPUs x 4 VMs = 64 seats x 13,500 = 864,000, all in year 1 */
	check_a100("a100 vgpu-seat", SC_HEAD("a100", "3") SC_ENERGY "licensing: {counting: vgpu-seat}\n", 0, 64,
		   864000.0);
}

/* ================= 3: bundled NVAIE on a bought H100 NVL ================= */

/*
 * One bought vSphere node of 2 H100-NVL-94GB (capex 200,000, 5 years), base
 * 800 W at 0.10 USD/kWh, PUE 1, load 1.  One VM replica in mig-vgpu.  The
 * H100 NVL has no sourced TDP in models/gpus.yaml: its GPUs draw nothing
 * here and that is listed as an assumption.  Node energy: 800 W x 0.10 x
 * 8760 / 1000 = 700.8 USD per year.
 */
static const char inv_nvl_buy[] = INV_FULL "nvl,1,H100-NVL-94GB,2,vsphere,dc1,64,512,buy,200000,5,,800,,\n";
static const char inv_nvl_owned[] = INV_FULL "nvl,1,H100-NVL-94GB,2,vsphere,dc1,64,512,owned,,,,800,,\n";
static const char inv_nvl_owned5[] = INV_FULL "nvl,1,H100-NVL-94GB,2,vsphere,dc1,64,512,owned,,,,800,,5\n";
static const char wl_nvl[] = WL_HEADER "vm,t,1,0,12,0.12,hardware,true,,,,mig-vgpu,,false,1\n";
#define SC_NVL_ENERGY "energy: {usd_per_kwh: 0.10, pue: 1, gpu_load_factor: 1}\n"

static void test_bundle_3y(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	const struct lic_price *lp;

	if (fixture_build(&fx, SC_HEAD("nvl", "3") SC_NVL_ENERGY, inv_nvl_buy, wl_nvl, 0))
		return;
	lp = &fx.pr.cls[0]->lic[LIC_NVAIE];
	/* 3 years <= 5 bundled: nothing to buy */
	CHECK(lp->bundled_years == 5, "bundle 3y: %d bundled years", lp->bundled_years);
	CHECK_STR(lp->term_id, "bundled", "bundle 3y: term");
	CHECK(lp->total == 0, "bundle 3y: licence total %.2f", lp->total);
	CHECK(assumed(&fx.pr, "nvl: 5 years of NVAIE bundled with each H100-NVL-94GB"),
	      "bundle 3y: the bundle is listed as an assumption");
	CHECK(assumed(&fx.pr, "H100-NVL-94GB has no sourced TDP"), "bundle 3y: the missing TDP is listed");
	if (plan(&r, &fx, "bundle 3y") == 0) {
		cplan_cost(r.final, &c);
		/*
		 * hardware: 200,000 x min(3, 5) / 5 = 120,000 (40,000 a year);
		 * energy 3 x 700.8 = 2102.4; licences 0 although 1 GPU is licensed.
		 */
		CHECK(c.placed == 1 && c.gpus_licensed == 1 && c.lic_gpus[LIC_NVAIE] == 1,
		      "bundle 3y: placed %ld licensed %ld", c.placed, c.gpus_licensed);
		CHECK(c.cat[CAT_LIC_NVAIE] == 0, "bundle 3y: licence cost %.2f", c.cat[CAT_LIC_NVAIE]);
		CHECK_NEAR(c.cat[CAT_HARDWARE], 120000.0, "bundle 3y hardware");
		CHECK_NEAR(c.year[CAT_HARDWARE][2], 40000.0, "bundle 3y hardware year 3");
		CHECK_NEAR(c.cat[CAT_ENERGY], 2102.4, "bundle 3y energy");
		CHECK_NEAR(c.total, 122102.4, "bundle 3y total");
		plan_release(&r);
	}
	fixture_release(&fx);

	/* An owned node gets no bundle by default: 3 years = subscription-3y, 13,500. */
	if (fixture_build(&fx, SC_HEAD("nvl", "3") SC_NVL_ENERGY, inv_nvl_owned, wl_nvl, 0))
		return;
	CHECK(fx.pr.cls[0]->lic[LIC_NVAIE].bundled_years == 0, "owned nvl: bundled %d",
	      fx.pr.cls[0]->lic[LIC_NVAIE].bundled_years);
	CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "subscription-3y", "owned nvl: term");
	CHECK_NEAR(fx.pr.cls[0]->lic[LIC_NVAIE].total, 13500.0, "owned nvl licence");
	fixture_release(&fx);

	/* ... unless the inventory says so (column nvaie_bundle_years = 5, source: that column). */
	if (fixture_build(&fx, SC_HEAD("nvl", "3") SC_NVL_ENERGY, inv_nvl_owned5, wl_nvl, 0))
		return;
	CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "bundled", "owned nvl, column 5: term");
	{
		size_t i;
		int found = 0;
		for (i = 0; i < fx.pr.nassumptions; i++)
			if (strstr(fx.pr.assumptions[i].what, "5 years of NVAIE bundled") &&
			    strstr(fx.pr.assumptions[i].source, "inventory.csv:2: column nvaie_bundle_years"))
				found = 1;
		CHECK(found, "owned nvl, column 5: the assumption names the inventory column");
	}
	fixture_release(&fx);
}

static void test_bundle_7y(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	const struct lic_price *lp;
	int y;

	if (fixture_build(&fx, SC_HEAD("nvl", "7") SC_NVL_ENERGY, inv_nvl_buy, wl_nvl, 0))
		return;
	lp = &fx.pr.cls[0]->lic[LIC_NVAIE];
	/*
	 * 7 years - 5 bundled = 2 years to buy, from year 6.  Cheapest cover:
	 * 2 x subscription-1y = 2 x 4,500 = 9,000, or subscription-2y = 9,000:
	 * as cheap, and one purchase instead of two, so subscription-2y,
	 * charged once in year 6 (index 5).
	 */
	CHECK_STR(lp->term_id, "subscription-2y", "bundle 7y: term");
	CHECK_NEAR(lp->total, 9000.0, "bundle 7y licence total");
	for (y = 0; y < 7; y++)
		CHECK_NEAR(lp->year[y], y == 5 ? 9000.0 : 0.0, "bundle 7y licence by year");
	if (plan(&r, &fx, "bundle 7y") == 0) {
		cplan_cost(r.final, &c);
		/*
		 * hardware: 200,000 x min(7, 5) / 5 = 200,000, 40,000 in each of years
		 * 1-5 and 0 in years 6-7; energy 7 x 700.8 = 4905.6; licence 9,000 in
		 * year 6.  Total 213,905.6.
		 */
		CHECK_NEAR(c.cat[CAT_LIC_NVAIE], 9000.0, "bundle 7y licence");
		CHECK_NEAR(c.year[CAT_LIC_NVAIE][5], 9000.0, "bundle 7y licence year 6");
		CHECK_NEAR(c.cat[CAT_HARDWARE], 200000.0, "bundle 7y hardware");
		CHECK_NEAR(c.year[CAT_HARDWARE][4], 40000.0, "bundle 7y hardware year 5");
		CHECK(c.year[CAT_HARDWARE][5] == 0 && c.year[CAT_HARDWARE][6] == 0, "bundle 7y: no depreciation after year 5");
		CHECK_NEAR(c.cat[CAT_ENERGY], 4905.6, "bundle 7y energy");
		CHECK_NEAR(c.total, 213905.6, "bundle 7y total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= 4: energy with PUE and an idle factor ================= */

static void test_energy_idle(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	/*
	 * One owned bare-metal node, 8 H100-SXM5-80GB (700 W), base 1300 W;
	 * 0.20 USD/kWh, PUE 1.5, load 0.8, idle 0.1, 2 years; 3 whole-GPU
	 * replicas, so 3 GPUs active and 5 idle.  USD per W-year:
	 * 1.5 x 0.20 x 8760 / 1000 = 2.628.
	 *   node (base + all 8 GPUs idle): (1300 + 8 x 700 x 0.1) = 1860 W
	 *       -> 1860 x 2.628 = 4888.08 per year
	 *   each active GPU above idle: 700 x (0.8 - 0.1) = 490 W
	 *       -> 490 x 2.628 = 1287.72 per year
	 *   plan: 4888.08 + 3 x 1287.72 = 8751.24 per year
	 *         (= (1300 + 5 x 70 + 3 x 560) W = 3330 W x 2.628), 17502.48 over 2 years.
	 */
	static const char inv[] = INV_FULL "bm,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,1300,,\n";
	static const char wl[] = WL_HEADER "train,t,3,1,,,exclusive,false,,,,passthrough,,false,1\n";

	if (fixture_build(&fx,
			  SC_HEAD("energy", "2") "energy: {usd_per_kwh: 0.20, pue: 1.5, gpu_load_factor: 0.8, "
						 "gpu_idle_factor: 0.1, source: test tariff}\n",
			  inv, wl, 0))
		return;
	CHECK_NEAR(fx.pr.cls[0]->node_year[CAT_ENERGY][0], 4888.08, "node energy per year");
	CHECK_NEAR(fx.pr.cls[0]->node_year[CAT_ENERGY][1], 4888.08, "node energy year 2");
	CHECK_NEAR(fx.pr.cls[0]->gpu_active_year[0], 1287.72, "active GPU energy per year");
	CHECK_NEAR(fx.pr.cls[0]->gpu_active_total, 2 * 1287.72, "active GPU energy over 2 years");
	CHECK(assumed(&fx.pr, "idle 0.1 of TDP"), "energy: the idle factor is in the assumption");
	if (plan(&r, &fx, "energy") == 0) {
		cplan_cost(r.final, &c);
		CHECK(c.nodes == 1 && c.gpus_active == 3, "energy: nodes %ld active %ld", c.nodes, c.gpus_active);
		CHECK_NEAR(c.year[CAT_ENERGY][0], 8751.24, "energy plan year 1");
		CHECK_NEAR(c.cat[CAT_ENERGY], 17502.48, "energy plan");
		CHECK_NEAR(c.total, 17502.48, "energy total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= 5: a rented p4d for a year ================= */

static void test_p4d_rent(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	/*
	 * aws/p4d.24xlarge/us-east-1 (models/clouds.yaml): 8 A100-SXM4-40GB at
	 * 21.957642 USD/h.  One year: 21.957642 x 8760 = 192,348.94392.  No energy
	 * (in the rent), although the scenario prices energy.  3 whole-GPU
	 * replicas, 2 of them needs_nvaie: NVAIE per GPU holding such a
	 * replica.  licensing.cloud_term auto: bringing a subscription-1y
	 * (4,500) beats the marketplace's 1 USD per GPU-hour x 8760 = 8,760,
	 * so 2 x 4,500 = 9,000.  The third GPU carries no licence.  Total
	 * 192,348.94392 + 9,000 = 201,348.94392.
	 */
	static const char inv[] = INV_FULL "p4d,1,,,,us-east-1,,,rent,,,,,aws/p4d.24xlarge/us-east-1,\n";
	static const char wl[] = WL_HEADER "nv,t,2,1,,,exclusive,false,,,,passthrough,,true,1\n"
					   "plain,t,1,1,,,exclusive,false,,,,passthrough,,false,1\n";

	if (fixture_build(&fx, SC_HEAD("p4d", "1") SC_ENERGY, inv, wl, 0))
		return;
	CHECK(fx.sc.inventory.classes[0].gpus_per_node == 8 && fx.sc.inventory.classes[0].hv == HV_CLOUD &&
		      fx.sc.inventory.classes[0].hourly_usd == 21.957642,
	      "p4d: the offer supplies 8 GPUs, hypervisor cloud, 21.957642/h");
	CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "subscription-1y", "p4d: term");
	CHECK_NEAR(fx.pr.cls[0]->lic[LIC_NVAIE].total, 4500.0, "p4d: one GPU-year of NVAIE");
	if (plan(&r, &fx, "p4d") == 0) {
		cplan_cost(r.final, &c);
		CHECK(c.nodes == 1 && c.gpus_active == 3 && c.gpus_licensed == 2 && c.lic_gpus[LIC_NVAIE] == 2,
		      "p4d: nodes %ld active %ld licensed %ld", c.nodes, c.gpus_active, c.gpus_licensed);
		CHECK_NEAR(c.cat[CAT_CLOUD], 192348.94392, "p4d cloud");
		CHECK(c.cat[CAT_ENERGY] == 0 && c.cat[CAT_HARDWARE] == 0, "p4d: energy %.4f", c.cat[CAT_ENERGY]);
		CHECK_NEAR(c.cat[CAT_LIC_NVAIE], 9000.0, "p4d nvaie");
		CHECK_NEAR(c.total, 201348.94392, "p4d total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= 6: perpetual licences ================= */

/* One owned vSphere A100, one VM replica in vgpu: one NVAIE licence; no energy priced. */
static const char inv_perp[] = INV_FULL "vs,1,A100-PCIE-80GB,1,vsphere,dc1,64,512,owned,,,,,,\n";
static const char wl_perp[] = WL_HEADER "vm,t,1,0,16,0.25,memory,true,,,,vgpu,,false,1\n";

static void test_perpetual(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	struct scenario sc;
	struct pricing pr;
	struct diag d = DIAG_INIT;
	char *path, *want, *got;
	int y;

	/* 3 years: perpetual 22,500 paid in year 1, support (5 years) included */
	if (fixture_build(&fx, SC_HEAD("perp", "3") "licensing: {term: perpetual}\n", inv_perp, wl_perp, 0) == 0) {
		CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "perpetual", "perpetual 3y: term");
		if (plan(&r, &fx, "perpetual 3y") == 0) {
			cplan_cost(r.final, &c);
			CHECK_NEAR(c.cat[CAT_LIC_NVAIE], 22500.0, "perpetual 3y");
			CHECK_NEAR(c.year[CAT_LIC_NVAIE][0], 22500.0, "perpetual 3y year 1");
			CHECK(c.year[CAT_LIC_NVAIE][1] == 0 && c.year[CAT_LIC_NVAIE][2] == 0, "perpetual 3y: years 2-3");
			CHECK_NEAR(c.total, 22500.0, "perpetual 3y total");
			plan_release(&r);
		}
		fixture_release(&fx);
	}

	/* 7 years without a support price: an input error at the licensing block (line 6) */
	fixture_write("scenario.yaml", SC_HEAD("perp", "7") "licensing: {term: perpetual}\n");
	fixture_write("inventory.csv", inv_perp);
	fixture_write("workloads.csv", wl_perp);
	path = xasprintf("%s/scenario.yaml", fixture_dir);
	if (scenario_load(&sc, path, FIXTURE_MODELS, &d) == 0) {
		int rc = pricing_build(&pr, &sc, &d);
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "perpetual 7y: pricing_build rc %d kind %d", rc, (int)d.kind);
		want = xasprintf("%s:6: perpetual nvaie licences include 5 years of support but class 'vs' needs 7: "
				 "set licensing.support_usd_per_gpu_year (NVIDIA's renewal price is not public)",
				 path);
		got = diag_format(&d);
		CHECK_STR(got, want, "perpetual 7y: message");
		free(got);
		free(want);
		pricing_release(&pr);
	} else {
		CHECK(0, "perpetual 7y: scenario_load: %s", d.msg ? d.msg : "");
	}
	scenario_release(&sc);
	diag_release(&d);
	free(path);

	/* 7 years with support at 3,000 per GPU-year: 22,500 in year 1 + 3,000 in years 6 and 7 = 28,500 */
	if (fixture_build(&fx,
			  SC_HEAD("perp", "7") "licensing: {term: perpetual, support_usd_per_gpu_year: 3000, "
					       "source: test quote}\n",
			  inv_perp, wl_perp, 0))
		return;
	for (y = 0; y < 7; y++)
		CHECK_NEAR(fx.pr.cls[0]->lic[LIC_NVAIE].year[y], y == 0 ? 22500.0 : y >= 5 ? 3000.0 : 0.0,
			   "perpetual 7y licence by year");
	CHECK(assumed(&fx.pr, "perpetual support at 3000 USD per GPU-year"), "perpetual 7y: support assumption");
	if (plan(&r, &fx, "perpetual 7y") == 0) {
		cplan_cost(r.final, &c);
		CHECK_NEAR(c.cat[CAT_LIC_NVAIE], 28500.0, "perpetual 7y");
		CHECK_NEAR(c.year[CAT_LIC_NVAIE][6], 3000.0, "perpetual 7y year 7");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= 7: hypervisor cost ================= */

static void test_hypervisor(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	/*
	 * vsphere at 1,000 USD per node-year + 200 USD per core-year; vSphere
	 * nodes have 64 cores: (1,000 + 200 x 64) = 13,800 per node-year,
	 * 41,400 per node over 3 years.  Two vSphere nodes owned, the 2 VM
	 * replicas fit one (2 GPUs): one node in use, 41,400.  The bare-metal
	 * node in use (the H100 workload) pays no hypervisor.  No energy.
	 */
	static const char inv[] = INV_FULL "vs,2,A100-PCIE-80GB,2,vsphere,dc1,64,512,owned,,,,,,\n"
					   "bm,1,H100-SXM5-80GB,8,baremetal,dc1,128,1024,owned,,,,,,\n";
	static const char wl[] = WL_HEADER "vm,t,2,1,,,exclusive,true,,,A100-PCIE-80GB,passthrough,,false,1\n"
					   "bare,t,1,1,,,exclusive,false,,,H100-SXM5-80GB,passthrough,,false,1\n";

	if (fixture_build(&fx,
			  SC_HEAD("hv", "3") "hypervisors: {vsphere: {usd_per_node_year: 1000, usd_per_core_year: 200, "
					     "source: test quote}}\nlicensing: {passthrough_vm: unlicensed}\n",
			  inv, wl, 0))
		return;
	CHECK_NEAR(fx.pr.cls[0]->node_year[CAT_HYPERVISOR][0], 13800.0, "vsphere node-year");
	CHECK(fx.pr.cls[1]->node_total == 0, "baremetal node costs %.2f", fx.pr.cls[1]->node_total);
	if (plan(&r, &fx, "hypervisor") == 0) {
		cplan_cost(r.final, &c);
		CHECK(c.nodes == 2 && c.placed == 3, "hypervisor: nodes %ld placed %ld", c.nodes, c.placed);
		CHECK_NEAR(c.cat[CAT_HYPERVISOR], 41400.0, "hypervisor");
		CHECK_NEAR(c.year[CAT_HYPERVISOR][1], 13800.0, "hypervisor year 2");
		CHECK_NEAR(c.total, 41400.0, "hypervisor total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= vCS on KVM, and a partial last year ================= */

static void test_vcs_kvm(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	int y;
	/*
	 * KVM allows vCS for vgpu and the scenario prefers it.  vCS has only
	 * subscription-1y at 450 (assumed: true in models/licenses.yaml), so 3
	 * years are three 1-year terms: 450 charged in each year, 1,350.  No
	 * energy priced; the one vGPU GPU is the only cost.
	 */
	static const char inv[] = INV_FULL "kvm,1,A100-PCIE-80GB,1,kvm,dc1,64,512,owned,,,,,,\n";

	if (fixture_build(&fx, SC_HEAD("vcs", "3") "licensing: {vgpu_product: vcs}\n", inv, wl_perp, 0))
		return;
	CHECK(fx.pr.cls[0]->mode_product[MODE_VGPU] == LIC_VCS, "vcs: vgpu on kvm takes vcs");
	CHECK_STR(fx.pr.cls[0]->lic[LIC_VCS].term_id, "subscription-1y", "vcs: term");
	CHECK(assumed(&fx.pr, "vcs subscription-1y at 450 USD per GPU (assumed)"), "vcs: the price is an assumption");
	if (plan(&r, &fx, "vcs") == 0) {
		cplan_cost(r.final, &c);
		CHECK(c.lic_gpus[LIC_VCS] == 1 && c.lic_gpus[LIC_NVAIE] == 0, "vcs: 1 vCS GPU");
		for (y = 0; y < 3; y++)
			CHECK_NEAR(c.year[CAT_LIC_VCS][y], 450.0, "vcs by year");
		CHECK_NEAR(c.cat[CAT_LIC_VCS], 1350.0, "vcs");
		CHECK(c.cat[CAT_LIC_NVAIE] == 0, "vcs: no NVAIE");
		plan_release(&r);
	}
	fixture_release(&fx);
}

static void test_partial_year(void)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	/*
	 * Horizon 2.5 years: years of length 1, 1, 0.5.  One vSphere A100 (300
	 * W) in vgpu, 0.10 USD/kWh, PUE 1, load 1, no base power: 300 x 0.10 x
	 * 8760 / 1000 = 262.8 a year, 131.4 in the half year, 657 in all.  NVAIE
	 * must cover 3 started years: subscription-3y (13,500) beats or ties every
	 * other cover (3 x 4,500; 9,000 + 4,500) and is one purchase, in year 1.
	 */
	static const char inv[] = INV_FULL "vs,1,A100-PCIE-80GB,1,vsphere,dc1,64,512,owned,,,,,,\n";

	if (fixture_build(&fx, SC_HEAD("half", "2.5") SC_NVL_ENERGY, inv, wl_perp, 0))
		return;
	CHECK(fx.pr.nyears == 3 && fx.pr.year_len[2] == 0.5, "half: %d years, last %.2f", fx.pr.nyears,
	      fx.pr.year_len[2]);
	CHECK_STR(fx.pr.cls[0]->lic[LIC_NVAIE].term_id, "subscription-3y", "half: term");
	if (plan(&r, &fx, "half") == 0) {
		cplan_cost(r.final, &c);
		CHECK_NEAR(c.year[CAT_ENERGY][1], 262.8, "half: energy year 2");
		CHECK_NEAR(c.year[CAT_ENERGY][2], 131.4, "half: energy year 3");
		CHECK_NEAR(c.cat[CAT_ENERGY], 657.0, "half: energy");
		CHECK_NEAR(c.year[CAT_LIC_NVAIE][0], 13500.0, "half: licence year 1");
		CHECK_NEAR(c.total, 14157.0, "half: total");
		plan_release(&r);
	}
	fixture_release(&fx);
}

/* ================= 8: the counting rule and the price change the mode mix ================= */

/*
 * One owned vSphere node of 8 L40S (350 W), base 400 W; 4 VM replicas of
 * 12 GiB at 1/4 of a GPU, memory isolation.  The only VM slots on an L40S
 * are passthrough (a whole GPU each, no licence) and vgpu (L40S-12C x4:
 * all 4 on one GPU, licensed).  The node is in use either way, so its
 * base power cancels out.  One active GPU over 3 years at 0.12 USD/kWh,
 * PUE 1.4, load 0.6:
 *   E = 350 x 0.6 x 1.4 x 0.12 x 8760 x 3 / 1000 = 927.1584
 * With NVAIE at P per GPU-year (scenario price, 3 years = 3P):
 *   passthrough: 4 GPUs = 4E = 3708.6336
 *   vgpu, physical-gpu: 1 GPU + 1 licence = E + 3P  -> vgpu iff P < E = 927.16
 *   vgpu, vgpu-seat:    1 GPU + 4 seats   = E + 12P -> vgpu iff P < E/4 = 231.79
 * So P = 600: physical-gpu packs the VMs into vGPU (927.16 + 1800 = 2727.16
 * < 3708.63), vgpu-seat takes passthrough (927.16 + 7200 = 8127.16 >
 * 3708.63); P = 1000 with physical-gpu also takes passthrough (3927.16 >
 * 3708.63); P = 200 with vgpu-seat is vgpu again (927.16 + 2400 = 3327.16).
 */
static const char inv_l40s[] = INV_FULL "vs,1,L40S,8,vsphere,dc1,64,512,owned,,,,400,,\n";
static const char wl_l40s[] = WL_HEADER "vm,t,4,0,12,0.25,memory,true,,,,,,false,1\n";
#define L40S_E 927.1584

static void check_mix(const char *what, const char *sc_text, enum gpu_mode want, double want_vm_cost)
{
	struct fixture fx;
	struct plan_result r;
	struct cplan_cost c;
	long n, a, nother, aother;
	enum gpu_mode other = want == MODE_VGPU ? MODE_PASSTHROUGH : MODE_VGPU;
	/* node: 400 W x 1.4 x 0.12 x 8760 x 3 / 1000 = 1766.016 */
	double node = 1766.016;

	if (fixture_build(&fx, sc_text, inv_l40s, wl_l40s, 0))
		return;
	if (plan(&r, &fx, what) == 0) {
		cplan_cost(r.final, &c);
		mode_mix(&r, want, &n, &a);
		mode_mix(&r, other, &nother, &aother);
		CHECK(c.placed == 4, "%s: placed %ld", what, c.placed);
		CHECK(n == 1 && a == (want == MODE_VGPU ? 1 : 4) && nother == 0,
		      "%s: %s %ld nodes %ld GPUs, %s %ld nodes", what, mode_name(want), n, a, mode_name(other), nother);
		CHECK(c.gpus_licensed == (want == MODE_VGPU), "%s: %ld licensed", what, c.gpus_licensed);
		CHECK_NEAR(c.total, node + want_vm_cost, what);
		plan_release(&r);
	}
	fixture_release(&fx);
}

static void test_mode_mix_flips(void)
{
	check_mix("physical-gpu, 600", SC_HEAD("mix", "3") SC_ENERGY
		  "licensing: {nvaie_usd_per_gpu_year: 600, source: test quote, passthrough_vm: unlicensed}\n",
		  MODE_VGPU, L40S_E + 1800.0);
	check_mix("vgpu-seat, 600", SC_HEAD("mix", "3") SC_ENERGY
		  "licensing: {counting: vgpu-seat, nvaie_usd_per_gpu_year: 600, source: test quote, "
		  "passthrough_vm: unlicensed}\n",
		  MODE_PASSTHROUGH, 4 * L40S_E);
	check_mix("physical-gpu, 1000", SC_HEAD("mix", "3") SC_ENERGY
		  "licensing: {nvaie_usd_per_gpu_year: 1000, source: test quote, passthrough_vm: unlicensed}\n",
		  MODE_PASSTHROUGH, 4 * L40S_E);
	check_mix("vgpu-seat, 200", SC_HEAD("mix", "3") SC_ENERGY
		  "licensing: {counting: vgpu-seat, nvaie_usd_per_gpu_year: 200, source: test quote, "
		  "passthrough_vm: unlicensed}\n",
		  MODE_VGPU, L40S_E + 4 * 600.0);
	/* the models' NVAIE price (subscription-3y 13,500 = 4,500 a year) is far above E: passthrough */
	check_mix("physical-gpu, models price",
		  SC_HEAD("mix", "3") SC_ENERGY "licensing: {passthrough_vm: unlicensed}\n", MODE_PASSTHROUGH,
		  4 * L40S_E);
	/*
	 * By default a VM on a passthrough GPU runs NVAIE software and needs
	 * a licence too (licensing.passthrough_vm: licensed): passthrough
	 * costs 4 GPUs + 4 licences, vGPU 1 GPU + 1 licence: vGPU,
	 * E + 13,500 = 14,427.16.
	 */
	check_mix("physical-gpu, passthrough VMs licensed", SC_HEAD("mix", "3") SC_ENERGY, MODE_VGPU,
		  L40S_E + 13500.0);
}

int main(void)
{
	if (fixture_setup("test_pricing"))
		return 1;
	test_a100_physical();
	test_a100_seats();
	test_bundle_3y();
	test_bundle_7y();
	test_energy_idle();
	test_p4d_rent();
	test_perpetual();
	test_hypervisor();
	test_vcs_kvm();
	test_partial_year();
	test_mode_mix_flips();
	fixture_teardown();
	ilp_cleanup();
	return check_done();
}
