/*
 * test_sweep_stats.c - the figures of a sweep's merge by design
 * (sweep/sweep_stats.c, docs/sweep.md "Statistics by design"), on case
 * results made by hand: one-at-a-time, the base case's cost and rank, the
 * range, the base case as a point of each parameter (a scale's "own" at
 * 1) so a flip between the base and an end is found there, the tornado
 * option by option, largest swing first; a grid's median and points
 * where each option is cheapest; a Monte Carlo share with its 95 % Wilson
 * interval (checked against the formula's published value for 14 of 24).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sweep.h"
#include "sweep_report.h"
#include "sweep_stats.h"
#include "util.h"

static char dir[] = "/tmp/test_sweep_stats_XXXXXX";

static int load(struct sweep_spec *s, const char *text)
{
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/spec.yaml", dir);
	FILE *f = fopen(path, "w");
	int rc = -1;
	if (f) {
		fputs(text, f);
		fclose(f);
		rc = sweep_spec_load(s, path, &d);
		if (rc)
			fprintf(stderr, "load: %s\n", d.msg);
	}
	diag_release(&d);
	free(path);
	return rc;
}

/* Cases done with two options costing a[i] and b[i]; rank 1 to the cheaper (a on a tie). */
static struct sweep_case_result *cases_of(const struct sweep_spec *s, const double *a, const double *b)
{
	size_t n = sweep_ncases(s), i;
	struct sweep_case_result *c = xcalloc(n, sizeof(*c));
	for (i = 0; i < n; i++) {
		c[i].state = SWEEP_CASE_DONE;
		c[i].index = i;
		c[i].values = xcalloc(s->nparams, sizeof(double));
		sweep_case_values(s, i, c[i].values);
		c[i].noptions = 2;
		c[i].opt = xcalloc(2, sizeof(*c[i].opt));
		c[i].opt[0].total = a[i];
		c[i].opt[1].total = b[i];
		c[i].opt[0].rank = a[i] <= b[i] ? 1 : 2;
		c[i].opt[1].rank = a[i] <= b[i] ? 2 : 1;
	}
	return c;
}

static void free_cases(struct sweep_case_result *c, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(c[i].values);
		free(c[i].opt);
	}
	free(c);
}

#define HEAD "schema: gpuplan-sweep/1\nname: t\noptions: [a.yaml, b.yaml]\n"

static void test_oat(void)
{
	/* cases: base (3 years, scale 1); horizon 1, 5; cloud price 0.5 */
	static const double a[] = { 185, 62, 210, 185 }, b[] = { 180, 60, 282, 130 };
	struct sweep_spec s;
	struct sweep_merge_stats st;
	struct sweep_case_result *c;

	if (load(&s, HEAD "design: one-at-a-time\nparameters:\n  horizon_years: {values: [1, 5], base: 3}\n"
			  "  cloud_price_scale: [0.5]\n")) {
		CHECK(0, "oat spec");
		return;
	}
	c = cases_of(&s, a, b);
	sweep_stats_compute(&st, &s, c);
	CHECK(st.done == 4 && st.best_at_base == 1, "done %zu, best at base %d", st.done, st.best_at_base);
	CHECK(st.opt[0].base == 185 && st.opt[0].rank_at_base == 2, "a: base %g rank %d", st.opt[0].base,
	      st.opt[0].rank_at_base);
	CHECK(st.opt[1].min == 60 && st.opt[1].max == 282, "b: range %g..%g", st.opt[1].min, st.opt[1].max);
	/* b below a at the base (3), above at 5: the flip lies between 3 and 5, at 3 + 2 x 5 / (5 + 72) */
	CHECK(st.nflip == 1 && st.flip[0].param == 0 && fabs(st.flip[0].value - (3 + 10.0 / 77)) < 1e-9 &&
		      st.flip[0].below == 1 && st.flip[0].above == 0,
	      "%zu flips, first at %g", st.nflip, st.nflip ? st.flip[0].value : NAN);
	/* tornado: a's horizon (148) before its cloud price (0); b's horizon (222) before its cloud (50) */
	CHECK(st.nswing == 4, "%zu swings", st.nswing);
	if (st.nswing == 4) {
		CHECK(st.swing[0].option == 0 && st.swing[0].param == 0 && st.swing[0].swing == 148, "a horizon");
		CHECK(st.swing[1].option == 0 && st.swing[1].param == 1 && st.swing[1].swing == 0, "a cloud");
		CHECK(st.swing[2].option == 1 && st.swing[2].swing == 222, "b horizon %g", st.swing[2].swing);
		/* the base case is the cloud price's point at scale 1 ("own" = unchanged) */
		CHECK(st.swing[3].param == 1 && st.swing[3].value_low == 0.5 && st.swing[3].value_high == 1 &&
			      st.swing[3].value_base == 1 && st.swing[3].cases == 2 && st.swing[3].swing == 50,
		      "b cloud %g..%g swing %g", st.swing[3].value_low, st.swing[3].value_high, st.swing[3].swing);
	}
	sweep_merge_stats_release(&st);
	free_cases(c, sweep_ncases(&s));
	sweep_spec_release(&s);
}

static void test_grid_mc(void)
{
	double a[24], b[24];
	struct sweep_spec s;
	struct sweep_merge_stats st;
	struct sweep_case_result *c;
	size_t i;

	for (i = 0; i < 24; i++) {
		a[i] = 100 + (double)i;
		b[i] = i < 14 ? 200 : 50;	/* a is cheaper in 14 of 24 */
	}
	if (!load(&s, HEAD "parameters:\n  demand_scale: [1, 2, 3, 4]\n")) {
		c = cases_of(&s, a, b);
		sweep_stats_compute(&st, &s, c);
		CHECK(st.opt[0].p50 == 101.5 && st.opt[0].best == 4 && st.opt[0].share_best == 1, "grid: median %g, best %zu",
		      st.opt[0].p50, st.opt[0].best);
		sweep_merge_stats_release(&st);
		free_cases(c, sweep_ncases(&s));
		sweep_spec_release(&s);
	} else {
		CHECK(0, "grid spec");
	}
	if (!load(&s, HEAD "design: monte-carlo\nsamples: 24\nparameters:\n"
			   "  demand_scale: {distribution: uniform, min: 1, max: 2}\n")) {
		c = cases_of(&s, a, b);
		sweep_stats_compute(&st, &s, c);
		/* Wilson 95 % for 14 of 24: 0.38835 .. 0.75532 */
		CHECK(st.opt[0].best == 14 && fabs(st.opt[0].best_lo - 0.388347) < 1e-6 &&
			      fabs(st.opt[0].best_hi - 0.755324) < 1e-6,
		      "mc: %zu best, %g..%g", st.opt[0].best, st.opt[0].best_lo, st.opt[0].best_hi);
		CHECK(fabs(st.opt[0].p5 - 101.15) < 1e-9 && fabs(st.opt[0].p95 - 121.85) < 1e-9, "mc: P5 %g P95 %g", st.opt[0].p5, st.opt[0].p95);
		sweep_merge_stats_release(&st);
		free_cases(c, sweep_ncases(&s));
		sweep_spec_release(&s);
	} else {
		CHECK(0, "mc spec");
	}
}

int main(void)
{
	char cmd[128];
	const char *const opts[] = { "a.yaml", "b.yaml" };
	size_t i;
	if (!mkdtemp(dir))
		return 1;
	for (i = 0; i < 2; i++) {	/* the spec's options must exist; the figures never read them */
		char *path = xasprintf("%s/%s", dir, opts[i]);
		FILE *f = fopen(path, "w");
		if (f)
			fclose(f);
		free(path);
	}
	test_oat();
	test_grid_mc();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		return 1;
	return check_done();
}
