/*
 * test_workload.c - the workloads loader: every column rule and the
 * consistency rules, read back from a temp file, with the exact message
 * (after the file name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "models.h"
#include "util.h"
#include "workload.h"

#define HEADER                                                                                 \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types," \
	"modes,sites,needs_nvaie,priority\n"

static const struct {
	const char *row;	/* appended to HEADER unless it starts with '!' (whole file) */
	const char *err;	/* after "FILE"; NULL: loads */
} rows[] = {
	{ "a,t,4,0,20,0.25,hardware,false,4,32,,,,false,1", NULL },
	{ "a,t,4,1,,,exclusive,,,,,,,,", NULL },
	{ "a,t,4,1,40,1,none,yes,,,A100D|H100XM|A100-PCIE-80GB,passthrough|VGPU,dc1|dc2,1,1000", NULL },
	{ "!name,tenant,replicas,isolation,gpu_mem_gib,compute\na,t,1,none,8,0.5\n", NULL },
	{ "!", ": empty file" },
	{ "!" HEADER, ":1: no workloads (the file has only a header)" },
	{ "!name,tenant,replicas\na,t,1\n", ":1: missing column 'isolation'" },
	{ "!name,tenant,replicas,isolaton\n", ":1:4: unknown column 'isolaton' (did you mean 'isolation'?)" },
	{ ",t,4,0,20,0.25,none,,,,,,,,", ":2:1: column 'name' is empty" },
	{ "a,,4,0,20,0.25,none,,,,,,,,", ":2:2: column 'tenant' is empty" },
	{ "a,t,0,0,20,0.25,none,,,,,,,,", ":2:3: column 'replicas': 0 must be in [1, 1000000]" },
	{ "a,t,-3,0,20,0.25,none,,,,,,,,", ":2:3: column 'replicas': -3 must be in [1, 1000000]" },
	{ "a,t,1000001,0,20,0.25,none,,,,,,,,", ":2:3: column 'replicas': 1000001 must be in [1, 1000000]" },
	{ "a,t,2.5,0,20,0.25,none,,,,,,,,", ":2:3: column 'replicas': '2.5' is not a whole number" },
	{ "a,t,,0,20,0.25,none,,,,,,,,", ":2:3: column 'replicas' is empty" },
	{ "a,t,1,65,,,exclusive,,,,,,,,", ":2:4: column 'gpus': 65 must be in [0, 64]" },
	{ "a,t,1,0,,0.25,none,,,,,,,,", ":2:5: column 'gpu_mem_gib' is required when gpus is 0" },
	{ "a,t,1,0,0,0.25,none,,,,,,,,", ":2:5: column 'gpu_mem_gib': '0' must be greater than 0" },
	{ "a,t,1,0,-inf,0.25,none,,,,,,,,", ":2:5: column 'gpu_mem_gib': '-inf' is not finite" },
	{ "a,t,1,0,20,,none,,,,,,,,", ":2:6: column 'compute' is required when gpus is 0" },
	{ "a,t,1,0,20,1.5,none,,,,,,,,", ":2:6: column 'compute': '1.5' must be in (0, 1]" },
	{ "a,t,1,0,20,NaN,none,,,,,,,,", ":2:6: column 'compute': 'NaN' is not finite" },
	{ "a,t,1,2,,0.5,exclusive,,,,,,,,", ":2:6: column 'compute' must be empty or 1 when gpus is 2" },
	{ "a,t,1,0,20,1/7,none,,,,,,,,", NULL },
	{ "a,t,1,0,20,3/2,none,,,,,,,,", ":2:6: column 'compute': '3/2' must be in (0, 1]" },
	{ "a,t,1,0,20,1/0,none,,,,,,,,", ":2:6: column 'compute': '1/0' is not a number or a fraction N/D" },
	{ "a,t,1,0,20,1/x,none,,,,,,,,", ":2:6: column 'compute': '1/x' is not a number or a fraction N/D" },
	{ "a,t,1,1,,2/2,exclusive,,,,,,,,", NULL },
	{ "a,t,1,2,,1,exclusive,,,,,,,,", NULL },
	{ "a,t,1,0,20,0.25,,,,,,,,,", ":2:7: column 'isolation' is empty" },
	{ "a,t,1,0,20,0.25,memroy,,,,,,,,", ":2:7: unknown isolation 'memroy' (did you mean 'memory'?)" },
	{ "a,t,1,0,20,0.25,total,,,,,,,,", ":2:7: unknown isolation 'total' (expected none, memory, hardware or exclusive)" },
	{ "a,t,1,0,20,0.25,none,sure,,,,,,,", ":2:8: column 'vm': 'sure' is not true or false" },
	{ "a,t,1,0,20,0.25,none,,-1,,,,,,", ":2:9: column 'cpu_cores': '-1' must be at least 0" },
	{ "a,t,1,0,20,0.25,none,,,x,,,,,", ":2:10: column 'ram_gib': 'x' is not a number" },
	{ "a,t,1,0,20,0.25,none,,,,L40S|A100-PCIE-80G,,,,", ":2:11: unknown GPU type 'A100-PCIE-80G' (did you mean 'A100-PCIE-80GB'?)" },
	{ "a,t,1,0,20,0.25,none,,,,L4||L40S,,,,", ":2:11: column 'gpu_types': empty entry in 'L4||L40S'" },
	{ "a,t,1,0,20,0.25,none,,,,,mig|migg,,,", ":2:12: unknown mode 'migg' (did you mean 'mig'?)" },
	{ "a,t,1,0,20,0.25,none,,,,,sr-iov,,,", ":2:12: unknown mode 'sr-iov' (expected passthrough, vgpu, mig-vgpu, mig, timeslice or mps)" },
	{ "a,t,1,0,20,0.25,none,,,,,mig|,,,", ":2:12: column 'modes': empty entry in 'mig|'" },
	{ "a,t,1,0,20,0.25,none,,,,,,|,,", ":2:13: column 'sites': empty entry in '|'" },
	{ "a,t,1,0,20,0.25,none,,,,,,,2,", ":2:14: column 'needs_nvaie': '2' is not true or false" },
	{ "a,t,1,0,20,0.25,none,,,,,,,,0", ":2:15: column 'priority': 0 must be in [1, 1000]" },
	{ "a,t,1,0,20,0.25,none,,,,,,,,1001", ":2:15: column 'priority': 1001 must be in [1, 1000]" },
	/* consistency */
	{ "a,t,1,0,20,0.25,none,true,,,,mig|timeslice|mps,,,", ":2:12: vm: true needs one of the modes passthrough, vgpu or mig-vgpu" },
	{ "a,t,1,0,20,0.25,none,true,,,,mig|vgpu,,,", NULL },
	{ "a,t,1,0,20,0.25,exclusive,,,,,mig|mig-vgpu,,,", ":2:12: isolation 'exclusive' needs the mode passthrough" },
	{ "a,t,1,0,20,0.25,hardware,,,,,vgpu|mps|timeslice,,,", ":2:12: isolation 'hardware' needs one of the modes passthrough, mig-vgpu or mig" },
	{ "a,t,1,0,20,0.25,memory,,,,,timeslice,,,", ":2:12: isolation 'memory' needs one of the modes passthrough, vgpu, mig-vgpu, mig or mps" },
	{ "a,t,1,0,20,0.25,memory,,,,,timeslice|mps,,,", NULL },
	{ "a,t,1,4,,,hardware,,,,,mig,,,", ":2:12: gpus 4 needs the mode passthrough or vgpu (a replica of several GPUs takes them whole, or as full-size vGPUs of one VM)" },
	{ "a,t,1,1,,,hardware,,,,,mig,,,", NULL },
	{ "a,t,1,0,20,0.25,none,,,,,,,,\nb,t,1,0,20,0.25,none,,,,,,,,\na,u,1,0,1,1,none,,,,,,,,", ":4:1: duplicate workload 'a' (first at line 2)" },
	{ "a,t,1,0,20,0.25,none,,,,,,,", ":2: 14 fields, but the header has 15" },
};

static void test_rows(const struct catalog *cat)
{
	size_t i;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[] = "/tmp/test_workload_XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "wb");
		struct workloads wl = WORKLOADS_INIT;
		struct diag d = DIAG_INIT;
		char *got;
		int rc;

		if (rows[i].row[0] == '!')
			fputs(rows[i].row + 1, f);
		else
			fprintf(f, "%s%s\n", HEADER, rows[i].row);
		fclose(f);
		rc = workloads_load(&wl, path, cat, &d);
		got = d.kind ? diag_format(&d) : NULL;
		if (rows[i].err) {
			char *want = xasprintf("%s%s", path, rows[i].err);
			CHECK(rc < 0, "row %zu: rc %d", i, rc);
			CHECK_STR(got, want, "row %zu", i);
			free(want);
		} else {
			CHECK(rc == 0, "row %zu: rc %d (%s)", i, rc, got ? got : "");
		}
		free(got);
		unlink(path);
		diag_release(&d);
		workloads_release(&wl);
	}
}

static void test_values(const struct catalog *cat)
{
	char path[] = "/tmp/test_workload_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "wb");
	struct workloads wl = WORKLOADS_INIT;
	struct diag d = DIAG_INIT;

	fprintf(f, "%s%s\n%s\n", HEADER, "a,t,4,0,20,1/4,hardware,,,,,,,,",
		"b,u,3,2,40,,exclusive,yes,8,64,A100D|a100-pcie-80gb|H100XM,passthrough|MIG,dc1|dc2|dc1,1,7");
	fclose(f);
	CHECK(workloads_load(&wl, path, cat, &d) == 0, "values load");
	CHECK(wl.n == 2 && wl.sites_col == 13, "two workloads, sites in column 13");
	if (wl.n == 2) {
		const struct workload *a = &wl.w[0], *b = &wl.w[1];
		CHECK(a->replicas == 4 && a->gpus == 0 && a->gpu_mem_gib == 20 && a->compute == 0.25,
		      "a numbers");
		CHECK(a->iso == ISO_HARDWARE && !a->vm && a->modes == MODE_ALL && a->ngpu_types == 0 &&
			      a->nsites == 0 && !a->needs_nvaie && a->priority == 1 && a->cpu_cores == 0 &&
			      a->ram_gib == 0,
		      "a defaults");
		CHECK(b->gpus == 2 && b->compute == 1 && b->gpu_mem_gib == 40 && b->vm && b->needs_nvaie &&
			      b->priority == 7 && b->cpu_cores == 8 && b->ram_gib == 64,
		      "b fields");
		CHECK(b->ngpu_types == 2, "aliases of one type count once: %zu", b->ngpu_types);
		CHECK(b->modes == (MODE_BIT(MODE_PASSTHROUGH) | MODE_BIT(MODE_MIG)), "b modes");
		CHECK(b->nsites == 2 && !strcmp(b->sites[0], "dc1") && !strcmp(b->sites[1], "dc2"),
		      "b sites, deduplicated");
		CHECK(a->line == 2 && b->line == 3, "lines");
	}
	unlink(path);
	diag_release(&d);
	workloads_release(&wl);
}

/* The resilience columns (issue 62): what each row reads, and need as the disruption controller computes it. */
#define RHEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,spread,max_skew,when_unsatisfiable," \
		"min_domains,min_available,max_unavailable\n"

static const struct {
	const char *row;	/* after RHEADER */
	const char *err;	/* after "FILE"; NULL: loads */
	enum spread_kind spread;
	int skew, anyway, min_domains;
	long need;		/* workload_need(w, replicas) */
} rrows[] = {
	{ "a,t,7,0,20,0.25,none,,,,,,", NULL, SPREAD_NONE, 0, 0, 0, -1 },
	{ "a,t,7,0,20,0.25,none,site,,,,50%,", NULL, SPREAD_SITE, 1, 0, 1, 4 },
	{ "a,t,7,0,20,0.25,none,NODE,3,scheduleanyway,,,50%", NULL, SPREAD_NODE, 3, 1, 1, 3 },
	{ "a,t,7,0,20,0.25,none,node,1,DoNotSchedule,2,7,", NULL, SPREAD_NODE, 1, 0, 2, 7 },
	{ "a,t,7,0,20,0.25,none,,,,,,2", NULL, SPREAD_NONE, 0, 0, 0, 5 },
	{ "a,t,7,0,20,0.25,none,,,,,,9%", NULL, SPREAD_NONE, 0, 0, 0, 6 },
	{ "a,t,7,0,20,0.25,none,,,,,0%,", NULL, SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,,,,100%", NULL, SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,DoNotSchedule,,,", ":2:10: column 'when_unsatisfiable' needs spread (node or site)" , SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,,2,,", ":2:11: column 'min_domains' needs spread (node or site)" , SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,node,,,0,,", ":2:11: column 'min_domains': 0 must be in [1, 1000000]" , SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,,,%,", ":2:12: column 'min_available': '%' is not a count or a percent (2 or 50%)" , SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,,,1.5,", ":2:12: column 'min_available': '1.5' is not a count or a percent (2 or 50%)" , SPREAD_NONE, 0, 0, 0, 0 },
	{ "a,t,7,0,20,0.25,none,,,,,,8", ":2:13: column 'max_unavailable': 8 is more than the workload's 7 replicas" , SPREAD_NONE, 0, 0, 0, 0 },
};

static void test_resilience(const struct catalog *cat)
{
	size_t i;
	for (i = 0; i < sizeof(rrows) / sizeof(rrows[0]); i++) {
		char path[] = "/tmp/test_workload_XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "wb");
		struct workloads wl = WORKLOADS_INIT;
		struct diag d = DIAG_INIT;
		char *got;
		int rc;

		fprintf(f, "%s%s\n", RHEADER, rrows[i].row);
		fclose(f);
		rc = workloads_load(&wl, path, cat, &d);
		got = d.kind ? diag_format(&d) : NULL;
		if (rrows[i].err) {
			char *want = xasprintf("%s%s", path, rrows[i].err);
			CHECK_STR(got, want, "resilience row %zu", i);
			free(want);
		} else if (rc == 0 && wl.n == 1) {
			const struct workload *w = &wl.w[0];
			CHECK(w->spread == rrows[i].spread && w->max_skew == rrows[i].skew &&
				      w->schedule_anyway == rrows[i].anyway && w->min_domains == rrows[i].min_domains &&
				      workload_need(w, w->replicas) == rrows[i].need,
			      "resilience row %zu: spread %d skew %d anyway %d min_domains %d need %ld", i, (int)w->spread,
			      w->max_skew, w->schedule_anyway, w->min_domains, workload_need(w, w->replicas));
		} else {
			CHECK(0, "resilience row %zu: rc %d (%s)", i, rc, got ? got : "");
		}
		free(got);
		unlink(path);
		diag_release(&d);
		workloads_release(&wl);
	}
}

static void test_isolation(void)
{
	CHECK(mode_isolation(MODE_PASSTHROUGH) == ISO_EXCLUSIVE, "passthrough");
	CHECK(mode_isolation(MODE_MIG) == ISO_HARDWARE && mode_isolation(MODE_MIG_VGPU) == ISO_HARDWARE,
	      "mig");
	CHECK(mode_isolation(MODE_VGPU) == ISO_MEMORY && mode_isolation(MODE_MPS) == ISO_MEMORY, "vgpu, mps");
	CHECK(mode_isolation(MODE_TIMESLICE) == ISO_NONE, "timeslice");
	CHECK_STR(isolation_name(ISO_HARDWARE), "hardware", "name");
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;

	if (catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d)) {
		char *m = diag_format(&d);
		fprintf(stderr, "cannot load the catalog: %s\n", m);
		free(m);
		diag_release(&d);
		return 1;
	}
	test_rows(&cat);
	test_values(&cat);
	test_isolation();
	test_resilience(&cat);
	catalog_release(&cat);
	return check_done();
}
