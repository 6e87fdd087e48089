/*
 * test_simulate.c - the licensing simulator against figures computed by
 * hand: a flat trace equals the plan times the hours, one peak hour sizes
 * the subscription, the lease length changes the seats held, the mix
 * picks its base, and stepping keeps placements (every step verified).
 */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "simulate.h"
#include "trace.h"

/* Two vSphere nodes of 4 A100-80GB; vGPU-only VM replicas of 20 GiB (A100D-20C, 4 per GPU). */
static const char *const inv = INV_HEADER "vs,2,A100-PCIE-80GB,4,vsphere,dc,64,1024,owned,,,,0\n";
static const char *const wl = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,modes\n"
			      "vg,t,30,0,20,0.25,memory,true,vgpu\n";
#define SC_GPU FIXTURE_SC_TEXT("sim")
#define SC_SEAT FIXTURE_SC_TEXT("sim") "licensing: {counting: vgpu-seat}\n"

static int run(struct fixture *fx, struct trace *tr, struct sim_result *r, const char *sc, const char *trace_text,
	       const char *spec, long hours, double lease)
{
	struct diag d = DIAG_INIT;
	struct sim_opts o = SIM_OPTS_INIT;
	int rc;

	if (fixture_build(fx, sc, inv, wl, FIXTURE_GREEDY))
		return -1;
	if (trace_text) {
		char *path = xasprintf("%s/trace.csv", fixture_dir);
		fixture_write("trace.csv", trace_text);
		rc = trace_load(tr, path, &fx->sc.workloads, &d);
		free(path);
	} else {
		rc = trace_generate(tr, spec, &fx->sc.workloads, 8760, &d);
	}
	CHECK(rc == 0, "trace");
	if (rc == 0) {
		o.hours = hours;
		o.lease_hours = lease;
		o.verify = 1;
		rc = simulate_run(r, &fx->sc, tr, &o, &d);
		if (rc) {
			char *m = diag_format(&d);
			CHECK(0, "simulate_run: %s", m);
			free(m);
			simulate_release(r);
		}
	}
	diag_release(&d);
	if (rc) {
		trace_release(tr);
		fixture_release(fx);
	}
	return rc;
}

static void done(struct fixture *fx, struct trace *tr, struct sim_result *r)
{
	simulate_release(r);
	trace_release(tr);
	fixture_release(fx);
}

/* A flat trace: every step is the greedy plan; strategies are plan x hours. */
static void test_flat(void)
{
	struct fixture fx;
	struct trace tr;
	struct sim_result r;
	struct cplan_cost c;
	long lic;
	size_t t;
	int same = 1;

	if (run(&fx, &tr, &r, SC_GPU, NULL, "flat", 100, 0))
		return;
	cplan_cost(&fx.cp, &c);
	lic = c.lic_gpus[LIC_NVAIE] + c.seats[LIC_NVAIE];
	CHECK(lic == 8, "flat: the plan licenses %ld GPUs, want 8 (30 replicas, 4 per GPU)", lic);
	for (t = 0; t < r.nsteps; t++)
		same &= r.units[LIC_NVAIE][t] == lic;
	CHECK(same, "flat: every step counts the plan's %ld licences", lic);
	CHECK(r.nsteps == 100 && r.nyears == 1, "flat: %zu steps", r.nsteps);
	/* vSphere hosts are on-prem: the marketplace's hourly price is sold only with cloud instances */
	CHECK(!r.strat[STRAT_CLOUD].available && strstr(r.strat[STRAT_CLOUD].how, "only with a cloud instance"),
	      "flat: cloud-hourly is not offered on-prem (%s)", r.strat[STRAT_CLOUD].how);
	CHECK(fabs(r.strat[STRAT_SUB_PEAK].total - (double)lic * 4500) < 1e-6, "flat: subscription %f",
	      r.strat[STRAT_SUB_PEAK].total);
	/*
	 * A perpetual licence is judged over its whole 5-year term: one
	 * simulated year uses a fifth of it (issue #56: set in full against a
	 * year of subscription it looked five times dearer), so it ties.
	 */
	CHECK(fabs(r.strat[STRAT_PERPETUAL].total - (double)lic * 22500 / 5) < 1e-6, "flat: perpetual %f",
	      r.strat[STRAT_PERPETUAL].total);
	CHECK(strstr(r.strat[STRAT_PERPETUAL].how, "the share of its 5-year term used: 36000.00") != NULL,
	      "flat: perpetual how: %s", r.strat[STRAT_PERPETUAL].how);
	/* the on-prem mix: base B x 4500 + (8 - B) x 4500 = 36000 whatever B; ties keep table order */
	CHECK(fabs(r.strat[STRAT_MIX].total - (double)lic * 4500) < 1e-6, "flat: mix %f", r.strat[STRAT_MIX].total);
	CHECK(r.cheapest == STRAT_SUB_PEAK, "flat: a year's subscription, the cheapest buyable (cheapest %d)", r.cheapest);
	CHECK(r.node_opens == 2 && r.replans == 0 && r.peak_nodes == 2, "flat: nodes start once (%ld starts, %ld replans)",
	      r.node_opens, r.replans);
	CHECK(!strncmp(r.timeseries.buf, "step,time,demand,placed,unplaced,replanned,nodes,gpus,", 54), "timeseries header");
	done(&fx, &tr, &r);
}

/* One peak hour: the subscription is sized to it, the mix buys the base and bursts. */
static void test_peak_hour(void)
{
	struct fixture fx;
	struct trace tr;
	struct sim_result r;

	/* 4 replicas (1 GPU) except hour 5: 30 replicas (8 GPUs); period 100 hours */
	if (run(&fx, &tr, &r, SC_GPU, "timestamp,workload,replicas\n0,vg,4\n5,vg,30\n6,vg,4\n99,vg,4\n", NULL, 0, 0))
		return;
	CHECK(r.nsteps == 26280 && r.nyears == 3, "peak: the 100-hour trace repeats over the 3-year horizon (%zu)",
	      r.nsteps);
	CHECK(r.peak_units[LIC_NVAIE] == 8 && r.units[LIC_NVAIE][5] == 8 && r.units[LIC_NVAIE][4] == 1 &&
		      r.units[LIC_NVAIE][6] == 1,
	      "peak: licences 1, 8 in hour 5, 1 (peak %ld)", r.peak_units[LIC_NVAIE]);
	CHECK(fabs(r.strat[STRAT_SUB_PEAK].total - 8 * 13500.0) < 1e-6, "peak: subscription 8 x 13500 (3y), got %f",
	      r.strat[STRAT_SUB_PEAK].total);
	/* 263 peak hours in 26280 (hours 5, 105, ..., 26205): 1 GPU always + 7 x 263 burst hours */
	CHECK(fabs(r.unit_hours[LIC_NVAIE] - (26280.0 + 7 * 263)) < 1e-6, "peak: licence-hours %f",
	      r.unit_hours[LIC_NVAIE]);
	/*
	 * On-prem the mix is a base on 3-year terms plus yearly top-ups on
	 * 1-year terms: B x 13500 + 3 x (8 - B) x 4500 = 108000 whatever B,
	 * so B = 0 and the subscription ties (no hourly burst on-prem).
	 */
	/* 8 perpetual licences bought in year 1, used 3 of their 5 years: 8 x 22500 x 3 / 5 */
	CHECK(fabs(r.strat[STRAT_PERPETUAL].total - 108000) < 1e-6, "peak: perpetual %f", r.strat[STRAT_PERPETUAL].total);
	CHECK(r.years[0].base[LIC_NVAIE] == 0, "peak: mix base %ld, want 0", r.years[0].base[LIC_NVAIE]);
	CHECK(fabs(r.strat[STRAT_MIX].total - 108000) < 1e-6, "peak: mix %f", r.strat[STRAT_MIX].total);
	CHECK(r.cheapest == STRAT_SUB_PEAK && !r.strat[STRAT_CLOUD].available, "peak: subscription-peak (%d)",
	      r.cheapest);
	done(&fx, &tr, &r);
}

/*
 * Seats with a lease: the 30 replicas run from 00:00 to 10:00 each day,
 * none otherwise, 9 days; one seat per replica.  The 30 seats released
 * at 24n+10 stay leased L hours.  L = 0: 30 at most.  L = 24: the seats
 * of the day before are still held through the next window: 60.
 * L = 168: on day n the seats of the last min(n, 7) days are held:
 * 30 + 7 x 30 = 240 from day 7.
 */
static void test_lease(void)
{
	static const struct {
		double lease;
		long peak;
		long at[4][2];	/* step, held seats */
	} rows[] = {
		{ 0, 30, { { 9, 30 }, { 10, 0 }, { 24, 30 }, { 212, 0 } } },
		{ 24, 60, { { 10, 30 }, { 24, 60 }, { 33, 60 }, { 34, 30 } } },
		{ 168, 240, { { 10, 30 }, { 24, 60 }, { 7 * 24, 240 }, { 7 * 24 + 10, 210 } } },
	};
	size_t i, j;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fixture fx;
		struct trace tr;
		struct sim_result r;
		if (run(&fx, &tr, &r, SC_SEAT, NULL, "daily:hours_per_day=10,start_hour=0,hours=216", 216, rows[i].lease))
			continue;
		CHECK(r.peak_units[LIC_NVAIE] == rows[i].peak, "lease %g: peak %ld, want %ld", rows[i].lease,
		      r.peak_units[LIC_NVAIE], rows[i].peak);
		for (j = 0; j < 4; j++)
			CHECK(r.units[LIC_NVAIE][rows[i].at[j][0]] == rows[i].at[j][1], "lease %g: step %ld holds %ld, want %ld",
			      rows[i].lease, rows[i].at[j][0], r.units[LIC_NVAIE][rows[i].at[j][0]], rows[i].at[j][1]);
		CHECK(fabs(r.strat[STRAT_SUB_PEAK].total - (double)rows[i].peak * 4500) < 1e-6, "lease %g: subscription %f",
		      rows[i].lease, r.strat[STRAT_SUB_PEAK].total);
		done(&fx, &tr, &r);
	}
}

/*
 * 30 seats for 10 hours a day over a year on-prem: hourly 109500 would
 * beat a 135000 subscription, but it is not sold on-prem, so the
 * subscription is the answer (the mix ties it with base 0).
 */
static void test_mix_daily(void)
{
	struct fixture fx;
	struct trace tr;
	struct sim_result r;
	if (run(&fx, &tr, &r, SC_SEAT, NULL, "daily:hours_per_day=10,start_hour=0", 8760, 0))
		return;
	CHECK(fabs(r.unit_hours[LIC_NVAIE] - 30 * 3650.0) < 1e-6, "daily: %f seat-hours", r.unit_hours[LIC_NVAIE]);
	CHECK(!r.strat[STRAT_CLOUD].available, "daily: no cloud-hourly on-prem");
	CHECK(fabs(r.strat[STRAT_SUB_PEAK].total - 135000) < 1e-6, "daily: subscription %f", r.strat[STRAT_SUB_PEAK].total);
	CHECK(r.years[0].base[LIC_NVAIE] == 0 && fabs(r.strat[STRAT_MIX].total - 135000) < 1e-6, "daily: mix base %ld",
	      r.years[0].base[LIC_NVAIE]);
	CHECK(r.cheapest == STRAT_SUB_PEAK, "daily: subscription-peak first (%d)", r.cheapest);
	CHECK(r.node_opens == 730 && r.replans == 0, "daily: both nodes start once a day (%ld)", r.node_opens);
	done(&fx, &tr, &r);
}

int main(void)
{
	if (fixture_setup("test_simulate"))
		return 1;
	test_flat();
	test_peak_hour();
	test_lease();
	test_mix_daily();
	fixture_remove("trace.csv");
	fixture_teardown();
	return check_done();
}
