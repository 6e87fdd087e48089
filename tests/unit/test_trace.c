/*
 * test_trace.c - trace CSV reading (values and FILE:LINE:COL errors),
 * ISO 8601 times, and the shape generator.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "trace.h"
#include "util.h"

static char dir[64];

static struct workload wls[3];
static struct workloads wl;

static void setup_workloads(void)
{
	static char n0[] = "notebooks", n1[] = "batch", n2[] = "serving";
	memset(wls, 0, sizeof(wls));
	wls[0].name = n0;
	wls[0].replicas = 10;
	wls[1].name = n1;
	wls[1].replicas = 4;
	wls[2].name = n2;
	wls[2].replicas = 3;
	wl.file = (char *)(uintptr_t) "workloads.csv";
	wl.n = 3;
	wl.w = wls;
}

static const struct {
	const char *s;
	int ok;
	long long secs;
} times[] = {
	{ "1970-01-01T00:00:00Z", 1, 0 },
	{ "1970-01-01", 1, 0 },
	{ "2025-01-06T08:00:00Z", 1, 1736150400LL },
	{ "2025-01-06T08:00Z", 1, 1736150400LL },
	{ "2025-01-06 08:00:00+00:00", 1, 1736150400LL },
	{ "2024-02-29T23:59:59Z", 1, 1709251199LL },
	{ "2023-02-29T00:00:00Z", 0, 0 },
	{ "2025-01-06T08:00:00+01:00", 0, 0 },
	{ "2025-01-06T08:00:00", 0, 0 },
	{ "2025-13-01T00:00:00Z", 0, 0 },
	{ "2025-01-06T24:00:00Z", 0, 0 },
	{ "2025-1-6", 0, 0 },
	{ "", 0, 0 },
};

static void test_times(void)
{
	size_t i;
	char buf[32];
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		long long s = -1;
		int rc = trace_parse_time(times[i].s, &s);
		CHECK((rc == 0) == times[i].ok, "row %zu '%s': rc %d", i, times[i].s, rc);
		if (times[i].ok)
			CHECK(s == times[i].secs, "row %zu '%s': %lld, want %lld", i, times[i].s, s, times[i].secs);
	}
	CHECK_STR(trace_format_time(buf, sizeof(buf), 1736150400LL), "2025-01-06T08:00:00Z", "format");
	CHECK_STR(trace_format_time(buf, sizeof(buf), 1709251199LL), "2024-02-29T23:59:59Z", "format leap day");
}

static int load_text(struct trace *tr, const char *text, struct diag *d)
{
	char *path = xasprintf("%s/trace.csv", dir);
	FILE *f = fopen(path, "wb");
	int rc;
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	rc = trace_load(tr, path, &wl, d);
	free(path);
	return rc;
}

/* Error rows: the message after the directory. */
static const struct {
	const char *text;
	const char *want;
} bad[] = {
	{ "timestamp,workload,replicas\n", "trace.csv:1: no rows: a trace needs at least one" },
	{ "timestamp,workload\n0,batch\n", "trace.csv:1: missing column 'replicas'" },
	{ "timestamp,workload,replicas\nyesterday,batch,1\n",
	  "trace.csv:2:1: column 'timestamp': 'yesterday' is neither an ISO 8601 UTC time (2025-01-06T08:00:00Z) "
	  "nor a number of hours" },
	{ "timestamp,workload,replicas\n2025-01-06T08:00:00+02:00,batch,1\n",
	  "trace.csv:2:1: column 'timestamp': '2025-01-06T08:00:00+02:00' is neither an ISO 8601 UTC time "
	  "(2025-01-06T08:00:00Z) nor a number of hours" },
	{ "timestamp,workload,replicas\n0,batch,1\n2025-01-06T08:00:00Z,batch,2\n",
	  "trace.csv:3:1: column 'timestamp': '2025-01-06T08:00:00Z' is an ISO 8601 time, but the first row's is a "
	  "number of hours" },
	{ "timestamp,workload,replicas\n5,batch,1\n4,batch,2\n",
	  "trace.csv:3:1: column 'timestamp': '4' is earlier than the row before: rows must be in time order" },
	{ "timestamp,workload,replicas\n-1,batch,1\n",
	  "trace.csv:2:1: column 'timestamp': '-1' must be at least 0 (hours from the start)" },
	{ "timestamp,workload,replicas\n0,notebook,1\n",
	  "trace.csv:2:2: unknown workload 'notebook' (did you mean 'notebooks'?)" },
	{ "timestamp,workload,replicas\n0,training,1\n", "trace.csv:2:2: unknown workload 'training': not in workloads.csv" },
	{ "timestamp,workload,replicas\n0,batch,1.5\n", "trace.csv:2:3: column 'replicas': '1.5' is not a whole number" },
	{ "timestamp,workload,replicas\n0,batch,-2\n", "trace.csv:2:3: column 'replicas': -2 must be in [0, 1000000]" },
	{ "timestamp,workload,replicas\n0,batch,1\n87600,batch,1\n",
	  "trace.csv:3:1: column 'timestamp': '87600' is 87600 hours or more after the first row" },
};

static void test_bad(void)
{
	size_t i, n = strlen(dir) + 1;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct trace tr = TRACE_INIT;
		struct diag d = DIAG_INIT;
		int rc = load_text(&tr, bad[i].text, &d);
		char *msg = rc ? diag_format(&d) : NULL;
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "bad row %zu must fail as bad input", i);
		if (msg && strlen(msg) > n)
			CHECK_STR(msg + n, bad[i].want, "bad row %zu", i);
		else
			CHECK(0, "bad row %zu: no message", i);
		free(msg);
		diag_release(&d);
		trace_release(&tr);
	}
}

static void test_values(void)
{
	struct trace tr = TRACE_INIT;
	struct diag d = DIAG_INIT;
	/* notebooks: 0 before its first row, 8 from hour 2, peak 12 in hour 5 (two rows), then 6; batch never named */
	int rc = load_text(&tr,
			   "# comment\ntimestamp,workload,replicas\n"
			   "2025-01-06T00:00:00Z,serving,3\n"
			   "2025-01-06T02:00:00Z,notebooks,8\n"
			   "2025-01-06T05:10:00Z,notebooks,12\n"
			   "2025-01-06T05:40:00Z,notebooks,6\n"
			   "2025-01-06T07:00:00Z,serving,1\n",
			   &d);
	static const int want_nb[] = { 0, 0, 8, 8, 8, 12, 6, 6 };
	static const int want_sv[] = { 3, 3, 3, 3, 3, 3, 3, 1 };
	size_t t;
	CHECK(rc == 0, "values: load failed");
	if (rc == 0) {
		CHECK(tr.nsteps == 8, "values: %zu steps, want 8", tr.nsteps);
		CHECK(tr.iso && tr.t0 == 1736121600LL, "values: t0 %lld", tr.t0);
		for (t = 0; t < 8 && t < tr.nsteps; t++) {
			CHECK(trace_at(&tr, t, 0) == want_nb[t], "notebooks at %zu: %d, want %d", t, trace_at(&tr, t, 0),
			      want_nb[t]);
			CHECK(trace_at(&tr, t, 1) == 4, "batch at %zu: %d, want 4 (not named)", t, trace_at(&tr, t, 1));
			CHECK(trace_at(&tr, t, 2) == want_sv[t], "serving at %zu: %d", t, trace_at(&tr, t, 2));
		}
		CHECK(trace_at(&tr, 10, 0) == want_nb[2], "repeats: step 10 is step 2");
	}
	diag_release(&d);
	trace_release(&tr);

	rc = load_text(&tr, "timestamp,workload,replicas\n0,batch,1\n2.5,batch,7\n", &d);
	CHECK(rc == 0 && tr.nsteps == 3 && !tr.iso, "hours: %zu steps", tr.nsteps);
	if (rc == 0)
		CHECK(trace_at(&tr, 2, 1) == 7 && trace_at(&tr, 1, 1) == 1, "hours: 2.5 falls in step 2");
	diag_release(&d);
	trace_release(&tr);
}

static const struct {
	const char *spec;
	size_t step;
	int w;
	int want;
} gen[] = {
	{ "flat", 0, 0, 10 },
	{ "flat:growth=0.1", 729, 0, 10 },
	{ "flat:growth=0.1", 730, 0, 11 },
	{ "flat:growth=0.1", 1460, 0, 12 },		/* 10 x 1.21 = 12.1 */
	{ "daily", 7, 0, 0 },				/* 08:00-18:00 */
	{ "daily", 8, 0, 10 },
	{ "daily", 17, 0, 10 },
	{ "daily", 18, 0, 0 },
	{ "daily:base=0.25", 3, 0, 3 },			/* 2.5 rounds half up */
	{ "daily:weekend=0.5", 5 * 24 + 9, 0, 5 },	/* day 6 */
	{ "daily:weekend=0.5", 4 * 24 + 9, 0, 10 },	/* day 5 */
	{ "daily:hours_per_day=6,start_hour=22", 23, 1, 4 },
	{ "daily:hours_per_day=6,start_hour=22", 24 + 3, 1, 4 },	/* wraps past midnight */
	{ "daily:hours_per_day=6,start_hour=22", 24 + 4, 1, 0 },
	{ "daily:workloads=batch", 3, 0, 10 },		/* notebooks stay flat */
	{ "daily:workloads=batch", 3, 1, 0 },
};

static void test_generate(void)
{
	size_t i;
	for (i = 0; i < sizeof(gen) / sizeof(gen[0]); i++) {
		struct trace tr = TRACE_INIT;
		struct diag d = DIAG_INIT;
		int rc = trace_generate(&tr, gen[i].spec, &wl, 8760, &d);
		CHECK(rc == 0, "gen row %zu '%s' failed", i, gen[i].spec);
		if (rc == 0) {
			CHECK(tr.nsteps == 8760, "gen row %zu: %zu steps", i, tr.nsteps);
			CHECK(trace_at(&tr, gen[i].step, (size_t)gen[i].w) == gen[i].want, "gen row %zu '%s' step %zu: %d, want %d",
			      i, gen[i].spec, gen[i].step, trace_at(&tr, gen[i].step, (size_t)gen[i].w), gen[i].want);
		}
		diag_release(&d);
		trace_release(&tr);
	}
}

static const struct {
	const char *spec;
	const char *want;
} gen_bad[] = {
	{ "dayly", "--generate: unknown shape 'dayly' (did you mean 'daily'?)" },
	{ "weekly", "--generate: unknown shape 'weekly' (expected flat or daily)" },
	{ "daily:hours_per_dai=3", "--generate: unknown key 'hours_per_dai' for shape 'daily' (did you mean 'hours_per_day'?)" },
	{ "flat:base=0.5", "--generate: unknown key 'base' for shape 'flat' (expected growth or hours)" },
	{ "daily:hours_per_day=25", "--generate: hours_per_day: '25' must be in [1, 24]" },
	{ "daily:hours_per_day=2.5", "--generate: hours_per_day: '2.5' is not a whole number" },
	{ "daily:growth=x", "--generate: growth: 'x' is not a number" },
	{ "daily:growth", "--generate: 'growth' is not KEY=VALUE" },
	{ "daily:workloads=batch|gpu", "--generate: workloads: unknown workload 'gpu'" },
};

static void test_generate_bad(void)
{
	size_t i;
	for (i = 0; i < sizeof(gen_bad) / sizeof(gen_bad[0]); i++) {
		struct trace tr = TRACE_INIT;
		struct diag d = DIAG_INIT;
		int rc = trace_generate(&tr, gen_bad[i].spec, &wl, 8760, &d);
		char *msg = rc ? diag_format(&d) : NULL;
		CHECK(rc == -1 && d.kind == DIAG_USAGE, "gen_bad row %zu must fail as usage", i);
		CHECK_STR(msg, gen_bad[i].want, "gen_bad row %zu", i);
		free(msg);
		diag_release(&d);
		trace_release(&tr);
	}
	{
		struct trace tr = TRACE_INIT;
		struct diag d = DIAG_INIT;
		CHECK(trace_generate(&tr, "flat:hours=48", &wl, 8760, &d) == 0 && tr.nsteps == 48, "hours=48");
		trace_release(&tr);
		diag_release(&d);
	}
}

int main(void)
{
	char *p;
	snprintf(dir, sizeof(dir), "/tmp/test_trace_XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	setup_workloads();
	test_times();
	test_bad();
	test_values();
	test_generate();
	test_generate_bad();
	p = xasprintf("%s/trace.csv", dir);
	unlink(p);
	free(p);
	rmdir(dir);
	return check_done();
}
