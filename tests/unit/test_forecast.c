/*
 * test_forecast.c - period labels, the forecast CSV (values and
 * FILE:LINE:COL errors) and the growth rates of the roadmap block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "forecast.h"
#include "tempfile.h"
#include "util.h"

static struct workload wls[3];
static struct scenario sc;

static void setup(void)
{
	static char n0[] = "chat", n1[] = "embed", n2[] = "train";
	memset(wls, 0, sizeof(wls));
	memset(&sc, 0, sizeof(sc));
	wls[0].name = n0;
	wls[0].replicas = 10;
	wls[1].name = n1;
	wls[1].replicas = 4;
	wls[2].name = n2;
	wls[2].replicas = 2;
	sc.workloads.file = (char *)(uintptr_t) "workloads.csv";
	sc.workloads.n = 3;
	sc.workloads.w = wls;
}

static void test_periods(void)
{
	char b[16];
	long i = 0;
	CHECK(period_parse("2027-Q1", PERIOD_QUARTER, &i) == 0 && i == 2027 * 4, "2027-Q1");
	CHECK(period_parse("2027-Q4", PERIOD_QUARTER, &i) == 0 && i == 2027 * 4 + 3, "2027-Q4");
	CHECK(period_parse("2027-03", PERIOD_QUARTER, &i) == 1, "a month where quarters are planned");
	CHECK(period_parse("2027-Q1", PERIOD_MONTH, &i) == 1, "a quarter where months are planned");
	CHECK(period_parse("2027-12", PERIOD_MONTH, &i) == 0 && i == 2027 * 12 + 11, "2027-12");
	CHECK(period_parse("2027Q1", PERIOD_QUARTER, &i) == -1, "no dash");
	CHECK(period_parse("2027-Q5", PERIOD_QUARTER, &i) == -1, "Q5");
	CHECK(period_parse("2027-13", PERIOD_MONTH, &i) == -1, "month 13");
	CHECK(period_parse("2027-1", PERIOD_MONTH, &i) == -1, "one digit");
	CHECK(period_parse("", PERIOD_MONTH, &i) == -1, "empty");
	CHECK_STR(period_format(b, sizeof(b), PERIOD_QUARTER, 2027 * 4 + 2), "2027-Q3", "format quarter");
	CHECK_STR(period_format(b, sizeof(b), PERIOD_MONTH, 2027 * 12), "2027-01", "format month");
}

static int load(struct forecast *fc, const char *text, struct diag *d)
{
	char *path = write_temp(text);
	int rc = forecast_build(fc, &sc, path, d);
	unlink(path);
	free(path);
	return rc;
}

static const struct {
	const char *text;
	const char *want;	/* after "FILE:" */
} bad[] = {
	{ "period,workload,replicas\n", "1: no rows: a forecast needs at least one" },
	{ "period,workload,replicas\n2027Q1,chat,1\n",
	  "2:1: column 'period': '2027Q1' is not a quarter (YYYY-Qn, e.g. 2027-Q1)" },
	{ "period,workload,replicas\n2027-03,chat,1\n",
	  "2:1: column 'period': '2027-03' is a month, but the roadmap plans in quarters" },
	{ "period,workload,replicas\n2027-Q3,chat,1\n2027-Q2,embed,1\n",
	  "3:1: column 'period': '2027-Q2' is earlier than the row before: rows must be in period order" },
	{ "period,workload,replicas\n2027-Q1,chatt,1\n", "2:2: unknown workload 'chatt' (did you mean 'chat'?)" },
	{ "period,workload,replicas\n2027-Q1,inference,1\n", "2:2: unknown workload 'inference': not in workloads.csv" },
	{ "period,workload,replicas\n2027-Q1,chat,1\n2027-Q1,train,1\n2027-Q1,chat,2\n",
	  "4:2: workload 'chat' has two rows for 2027-Q1 (first at line 2)" },
	{ "period,workload,replicas\n2027-Q1,chat,-3\n", "2:3: column 'replicas': -3 must be in [0, 1000000]" },
	{ "period,workload,replicas\n2027-Q1,chat,2000000\n", "2:3: column 'replicas': 2000000 must be in [0, 1000000]" },
	{ "period,workload,replicas\n2027-Q1,chat,1.5\n", "2:3: column 'replicas': '1.5' is not a whole number" },
	{ "period,workload,replicas\n2027-Q1,chat,1\n2057-Q1,chat,1\n",
	  "3:1: period 2057-Q1 is 30 years or more after the start 2027-Q1" },
};

static void test_bad(void)
{
	size_t i;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct forecast fc = FORECAST_INIT;
		struct diag d = DIAG_INIT;
		int rc = load(&fc, bad[i].text, &d);
		char *msg = rc ? diag_format(&d) : NULL;
		const char *colon = msg ? strstr(msg, ".csv:") : NULL;
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "bad row %zu must fail as bad input", i);
		if (msg && !colon)
			colon = strchr(strstr(msg, "gpuplan-test-") ? strstr(msg, "gpuplan-test-") : msg, ':');
		else if (colon)
			colon += 4;
		CHECK_STR(colon ? colon + 1 : NULL, bad[i].want, "bad row %zu (%s)", i, msg ? msg : "");
		free(msg);
		diag_release(&d);
		forecast_release(&fc);
	}
}

/* With a start and a length, rows outside them are errors; growth fills the workloads no row names. */
static void test_roadmap_bounds(void)
{
	struct forecast fc = FORECAST_INIT;
	struct diag d = DIAG_INIT;
	char *msg;

	sc.roadmap.present = 1;
	sc.roadmap.have_start = 1;
	sc.roadmap.start = 2027 * 4;
	sc.roadmap.periods = 4;
	CHECK(load(&fc, "period,workload,replicas\n2026-Q4,chat,1\n", &d) == -1, "before the start");
	msg = diag_format(&d);
	CHECK(strstr(msg, ":2:1: period 2026-Q4 is before the roadmap's start 2027-Q1") != NULL, "%s", msg);
	free(msg);
	diag_release(&d);
	forecast_release(&fc);
	CHECK(load(&fc, "period,workload,replicas\n2028-Q1,chat,1\n", &d) == -1, "after the end");
	msg = diag_format(&d);
	CHECK(strstr(msg, ":2:1: period 2028-Q1 is after the roadmap's last period 2027-Q4 (start 2027-Q1, periods 4)") !=
		      NULL, "%s", msg);
	free(msg);
	diag_release(&d);
	forecast_release(&fc);

	/* growth only: 10 x 1.21^(t/4) rounded half up: 10, 10 (10.49), 11 (11.0), 12 (11.53) */
	sc.roadmap.growth_per_year = 0.21;
	CHECK(forecast_build(&fc, &sc, NULL, &d) == 0, "growth only");
	CHECK(fc.nperiods == 4 && fc.start == 2027 * 4, "periods %zu", fc.nperiods);
	CHECK(forecast_at(&fc, 0, 0) == 10 && forecast_at(&fc, 1, 0) == 10 && forecast_at(&fc, 2, 0) == 11 &&
		      forecast_at(&fc, 3, 0) == 12,
	      "chat %ld %ld %ld %ld", forecast_at(&fc, 0, 0), forecast_at(&fc, 1, 0), forecast_at(&fc, 2, 0),
	      forecast_at(&fc, 3, 0));
	forecast_release(&fc);
	memset(&sc.roadmap, 0, sizeof(sc.roadmap));
	CHECK(forecast_build(&fc, &sc, NULL, &d) == -1 && d.kind == DIAG_USAGE, "no forecast and no start");
	diag_release(&d);
}

static void test_values(void)
{
	struct forecast fc = FORECAST_INIT;
	struct diag d = DIAG_INIT;
	/* chat named from Q2 (0 in Q1), embed from Q1 then 0 from Q3; train never named: its 2 all along */
	int rc = load(&fc,
		      "period,workload,replicas\n"
		      "2027-Q1,embed,5\n"
		      "2027-Q2,chat,40\n"
		      "2027-Q3,embed,0\n"
		      "2027-Q4,chat,64\n",
		      &d);
	CHECK(rc == 0, "load");
	if (rc)
		return;
	CHECK(fc.nperiods == 4 && fc.start == 2027 * 4 && fc.kind == PERIOD_QUARTER, "span");
	CHECK(forecast_at(&fc, 0, 0) == 0 && forecast_at(&fc, 1, 0) == 40 && forecast_at(&fc, 2, 0) == 40 &&
		      forecast_at(&fc, 3, 0) == 64,
	      "chat");
	CHECK(forecast_at(&fc, 0, 1) == 5 && forecast_at(&fc, 1, 1) == 5 && forecast_at(&fc, 2, 1) == 0 &&
		      forecast_at(&fc, 3, 1) == 0,
	      "embed");
	CHECK(forecast_at(&fc, 0, 2) == 2 && forecast_at(&fc, 3, 2) == 2, "train");
	forecast_release(&fc);
}

int main(void)
{
	setup();
	test_periods();
	test_bad();
	test_values();
	test_roadmap_bounds();
	return check_done();
}
