/*
 * fixture.h - the scenario fixture shared by the unit tests of the
 * phases after loading (test_problem, test_cplan, test_verify): a temp
 * directory, a scenario written into it (scenario.yaml, inventory.csv,
 * workloads.csv) and built through the real API, scenario_load then
 * problem_build, then optionally cplan_init and cplan_greedy.
 *
 * A test calls fixture_setup once with its temp-dir prefix, then
 * fixture_build / fixture_release per case, then fixture_teardown.  A
 * failed build is recorded with CHECK and leaves nothing to release.
 * Everything is static, for test programs of one source file each.
 */
#ifndef TESTS_FIXTURE_H
#define TESTS_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cplan.h"
#include "pricing.h"
#include "problem.h"
#include "scenario.h"
#include "util.h"
#include "verify.h"

#define FIXTURE_MODELS TEST_SRC_DIR "/models"
#define FIXTURE_LICENSE 4500.0 /* NVAIE per GPU-year: 3 years = subscription-3y, 13500 */
#define INV_HEADER                                                                              \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w\n"
/* A scenario with a 3-year horizon and fixed energy prices; name is a string literal. */
#define FIXTURE_SC_TEXT(name)                                                                       \
	"schema: gpuplan-scenario/1\nname: " name "\ninventory: inventory.csv\nworkloads: workloads.csv\n" \
	"horizon_years: 3\nenergy: {usd_per_kwh: 0.12, pue: 1.4, gpu_load_factor: 0.6}\n"

/* fixture_build flags */
#define FIXTURE_GREEDY 1      /* also cplan_init and cplan_greedy into fx->cp */
#define FIXTURE_CHECK_BUILD 2 /* a successful problem_build counts as a passing check */

struct fixture {
	struct scenario sc;
	struct pricing pr;
	struct problem p;
	struct cplan cp; /* set only with FIXTURE_GREEDY */
	int ok;          /* built, to be released */
	int has_cp;      /* cp was initialised */
};

static char fixture_dir[64];

static void fixture_write(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", fixture_dir, name);
	FILE *f = fopen(p, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void fixture_remove(const char *name)
{
	char *p = xasprintf("%s/%s", fixture_dir, name);
	unlink(p);
	free(p);
}

/* Create the temp dir /tmp/<prefix>_XXXXXX; 0 or -1 (reported with perror). */
static int fixture_setup(const char *prefix)
{
	snprintf(fixture_dir, sizeof(fixture_dir), "/tmp/%s_XXXXXX", prefix);
	if (!mkdtemp(fixture_dir)) {
		perror("mkdtemp");
		return -1;
	}
	return 0;
}

/* Remove the scenario files and the temp dir. */
static void fixture_teardown(void)
{
	fixture_remove("scenario.yaml");
	fixture_remove("inventory.csv");
	fixture_remove("workloads.csv");
	rmdir(fixture_dir);
}

/*
 * Write sc_text, inv and wl to the temp dir and build fx from them
 * (flags: FIXTURE_*).  0 on success; -1 after a failed CHECK.
 */
static int fixture_build(struct fixture *fx, const char *sc_text, const char *inv, const char *wl, int flags)
{
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/scenario.yaml", fixture_dir);
	int rc;

	memset(fx, 0, sizeof(*fx));
	fixture_write("scenario.yaml", sc_text);
	fixture_write("inventory.csv", inv);
	fixture_write("workloads.csv", wl);
	rc = scenario_load(&fx->sc, path, FIXTURE_MODELS, &d);
	free(path);
	if (rc) {
		char *m = diag_format(&d);
		CHECK(0, "scenario_load: %s", m);
		free(m);
		diag_release(&d);
		scenario_release(&fx->sc);
		return -1;
	}
	rc = pricing_build(&fx->pr, &fx->sc, &d);
	if (rc) {
		char *m = diag_format(&d);
		CHECK(0, "pricing_build: %s", m);
		free(m);
		diag_release(&d);
		pricing_release(&fx->pr);
		scenario_release(&fx->sc);
		return -1;
	}
	rc = problem_build(&fx->p, &fx->sc, &fx->pr, &d);
	if (rc || (flags & FIXTURE_CHECK_BUILD))
		CHECK(rc == 0, "problem_build: rc %d", rc);
	diag_release(&d);
	if (rc) {
		pricing_release(&fx->pr);
		scenario_release(&fx->sc);
		return -1;
	}
	if (flags & FIXTURE_GREEDY) {
		cplan_init(&fx->cp, &fx->p);
		cplan_greedy(&fx->cp);
		fx->has_cp = 1;
	}
	fx->ok = 1;
	return 0;
}

static void fixture_release(struct fixture *fx)
{
	if (!fx->ok)
		return;
	if (fx->has_cp)
		cplan_release(&fx->cp);
	problem_release(&fx->p);
	pricing_release(&fx->pr);
	scenario_release(&fx->sc);
	fx->ok = 0;
	fx->has_cp = 0;
}

/* CHECK that cp passes verify_plan (what names the plan in the message); returns 1 when it does. */
static inline int fixture_verifies(const struct cplan *cp, const char *what)
{
	struct diag d = DIAG_INIT;
	int rc = verify_plan(cp, &d);

	CHECK(rc == 0, "%s: verify_plan: %s", what, d.msg ? d.msg : "");
	diag_release(&d);
	return rc == 0;
}

#endif
