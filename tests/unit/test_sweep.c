/*
 * test_sweep.c - the sweep spec and its cases (sweep/sweep.h) and the
 * generator under them (base/rng.h): splitmix64's published first
 * outputs; the cases of each design (grid in mixed radix, one at a time
 * from the base, Monte Carlo draws that depend on the case alone, not on
 * the order they are computed in, and stay within their bounds; sample
 * means near the distributions'); a case applied to a loaded scenario.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "rng.h"
#include "scenario.h"
#include "sweep.h"
#include "util.h"

static char dir[] = "/tmp/test_sweep_XXXXXX";

static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static int load(struct sweep_spec *s, const char *text)
{
	struct diag d = DIAG_INIT;
	char *path = write_file("spec.yaml", text);
	int rc = sweep_spec_load(s, path, &d);
	if (rc)
		fprintf(stderr, "load: %s\n", d.msg);
	diag_release(&d);
	free(path);
	return rc;
}

#define HEAD "schema: gpuplan-sweep/1\nname: t\noptions: [sc.yaml]\n"

static void test_rng(void)
{
	/* Vigna's splitmix64.c from state 0: 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 */
	struct rng r = { 0 };
	double u;
	int i;
	CHECK(rng_next(&r) == 0xe220a8397b1dcdafULL, "first output");
	CHECK(rng_next(&r) == 0x6e789e6aa1b965f4ULL, "second output");
	for (i = 0; i < 1000; i++) {
		u = rng_unit(&r);
		CHECK(u >= 0 && u < 1, "unit %g", u);
	}
}

static void test_grid_oat(void)
{
	struct sweep_spec s;
	double v[4];
	char *name;

	if (load(&s, HEAD "parameters:\n  demand_scale: [1, 2, 3]\n  capex_scale: {from: 0.5, to: 1, steps: 3}\n"))
		return;
	CHECK(sweep_ncases(&s) == 9, "grid cases %zu", sweep_ncases(&s));
	sweep_case_values(&s, 5, v);	/* 5 = 1 * 3 + 2: demand 2, capex 1 */
	CHECK(v[0] == 2 && v[1] == 1, "case 5: %g %g", v[0], v[1]);
	sweep_case_values(&s, 1, v);
	CHECK(v[0] == 1 && v[1] == 0.75, "case 1: %g %g", v[0], v[1]);
	name = sweep_case_name(&s, 7);
	CHECK_STR(name, "case-0007", "name");
	free(name);
	sweep_spec_release(&s);

	if (load(&s, HEAD "design: one-at-a-time\nparameters:\n  demand_scale: [1, 2]\n"
			  "  horizon_years: {values: [1, 5], base: 3}\n"))
		return;
	CHECK(sweep_ncases(&s) == 5, "oat cases %zu", sweep_ncases(&s));
	sweep_case_values(&s, 0, v);
	CHECK(isnan(v[0]) && v[1] == 3, "base case: %g %g", v[0], v[1]);
	sweep_case_values(&s, 4, v);
	CHECK(isnan(v[0]) && v[1] == 5 && sweep_case_varies(&s, 4) == 1, "case 4: %g %g", v[0], v[1]);
	sweep_case_values(&s, 2, v);
	CHECK(v[0] == 2 && v[1] == 3 && sweep_case_varies(&s, 2) == 0, "case 2: %g %g", v[0], v[1]);
	sweep_spec_release(&s);
}

static void test_monte_carlo(void)
{
	struct sweep_spec s;
	double v[4], w[4], sum[4] = { 0 };
	size_t i, n;

	if (load(&s, HEAD "design: monte-carlo\nsamples: 4000\nseed: 9\nparameters:\n"
			  "  energy_usd_per_kwh: {distribution: normal, mean: 0.12, sd: 0.02}\n"
			  "  cloud_price_scale: {distribution: triangular, min: 0.5, mode: 0.8, max: 1.4}\n"
			  "  license_price_scale: {distribution: lognormal, mu: 0, sigma: 0.25, max: 2}\n"
			  "  demand_growth: {distribution: uniform, min: 0, max: 0.5}\n"))
		return;
	n = sweep_ncases(&s);
	for (i = 0; i < n; i++) {
		sweep_case_values(&s, i, v);
		CHECK(v[1] >= 0.5 && v[1] <= 1.4 && v[2] > 0 && v[2] < 2 && v[3] >= 0 && v[3] < 0.5 && v[0] > 0,
		      "case %zu out of bounds", i);
		sum[0] += v[0];
		sum[1] += v[1];
		sum[2] += log(v[2]);
		sum[3] += v[3];
	}
	/* means: 0.12, (0.5 + 0.8 + 1.4) / 3 = 0.9, mu 0, 0.25 */
	CHECK(fabs(sum[0] / (double)n - 0.12) < 0.002, "normal mean %g", sum[0] / (double)n);
	CHECK(fabs(sum[1] / (double)n - 0.9) < 0.01, "triangular mean %g", sum[1] / (double)n);
	CHECK(fabs(sum[2] / (double)n) < 0.02, "lognormal mu %g", sum[2] / (double)n);
	CHECK(fabs(sum[3] / (double)n - 0.25) < 0.01, "uniform mean %g", sum[3] / (double)n);
	/* a case's values depend on the case alone */
	sweep_case_values(&s, 3999, v);
	sweep_case_values(&s, 17, w);
	sweep_case_values(&s, 3999, w);
	CHECK(!memcmp(v, w, sizeof(v)), "case 3999 drawn twice differs");
	sweep_spec_release(&s);
}

static void test_apply(void)
{
	struct sweep_spec s;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	double v[3];
	char *path;

	free(write_file("inventory.csv", "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,"
					 "capex_usd,amortization_years,hourly_usd\n"
					 "b,2,A100-SXM4-80GB,4,baremetal,dc,64,512,buy,1000,3,\n"
					 "r,2,A100-SXM4-80GB,4,cloud,c,64,512,rent,,,2\n"));
	free(write_file("workloads.csv", "name,tenant,replicas,gpus,isolation\nw,t,10,1,exclusive\n"));
	path = write_file("sc.yaml", "schema: gpuplan-scenario/1\nname: s\ninventory: inventory.csv\n"
				     "workloads: workloads.csv\nhorizon_years: 2\n");
	if (load(&s, HEAD "parameters:\n  demand_growth: [0.1]\n  capex_scale: [0.5]\n  cloud_price_scale: [2]\n")) {
		free(path);
		return;
	}
	if (scenario_load(&sc, path, TEST_SRC_DIR "/models", &d) == 0) {
		sweep_case_values(&s, 0, v);
		CHECK(sweep_apply(&sc, &s, v, &d) == 0, "apply");
		/* 10 x 1.1^2 = 12.1 -> 12 */
		CHECK(sc.workloads.w[0].replicas == 12, "replicas %ld", sc.workloads.w[0].replicas);
		CHECK(sc.inventory.classes[0].capex_usd == 500, "capex %g", sc.inventory.classes[0].capex_usd);
		CHECK(sc.inventory.classes[1].hourly_usd == 4, "hourly %g", sc.inventory.classes[1].hourly_usd);
		scenario_release(&sc);
	} else {
		CHECK(0, "scenario: %s", d.msg);
	}
	diag_release(&d);
	sweep_spec_release(&s);
	free(path);
}

int main(void)
{
	char cmd[128];
	if (!mkdtemp(dir))
		return 1;
	test_rng();
	test_grid_oat();
	test_monte_carlo();
	test_apply();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return check_done();
}
