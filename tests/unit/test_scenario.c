/*
 * test_scenario.c - scenario_load (fields, defaults, models precedence,
 * paths, cross-file checks) and scenario_unhostable (table: inventory +
 * workload -> reason or NULL).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "models.h"
#include "scenario.h"
#include "util.h"

#define MODELS TEST_SRC_DIR "/models"
#define INV_HEADER                                                                              \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w\n"
#define INV_OK INV_HEADER "a,2,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,\n"
#define WL_OK "name,tenant,replicas,gpu_mem_gib,compute,isolation,sites\nw,t,2,20,0.25,hardware,\n"
#define SC_HEAD "schema: gpuplan-scenario/1\nname: s\ninventory: inventory.csv\nworkloads: workloads.csv\n"

static char dir[] = "/tmp/test_scenario_XXXXXX";

static void write_file(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

static void remove_file(const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	unlink(p);
	free(p);
}

/* ================= scenario_load ================= */

static const struct {
	const char *sc;		/* scenario text */
	const char *inv;	/* NULL: INV_OK */
	const char *wl;		/* NULL: WL_OK */
	const char *err;	/* after "DIR/"; NULL: loads */
} load_rows[] = {
	{ SC_HEAD, NULL, NULL, NULL },
	{ SC_HEAD "horizon_years: 30\nsolver: {time_limit_s: 86400, mip_gap: 0}\n", NULL, NULL, NULL },
	{ "name: s\n", NULL, NULL, "scenario.yaml:1:1: missing field 'schema'" },
	{ "schema: gpuplan-scenario\n", NULL, NULL,
	  "scenario.yaml:1:9: unsupported schema 'gpuplan-scenario' (this gpuplan reads gpuplan-scenario/1)" },
	{ "- a\n- b\n", NULL, NULL, "scenario.yaml:1:1: 'the scenario file' must be a mapping, not a list" },
	{ SC_HEAD "inventroy: x\n", NULL, NULL, "scenario.yaml:5:1: unknown field 'inventroy' (did you mean 'inventory'?)" },
	{ SC_HEAD "planner: x\n", NULL, NULL, "scenario.yaml:5:1: unknown field 'planner'" },
	{ "schema: gpuplan-scenario/1\nname: ''\n", NULL, NULL, "scenario.yaml:2:7: field 'name' is empty" },
	{ "schema: gpuplan-scenario/1\nname: s\nworkloads: workloads.csv\n", NULL, NULL,
	  "scenario.yaml:1:1: missing field 'inventory'" },
	{ "schema: gpuplan-scenario/1\nname: s\ninventory: nope.csv\n", NULL, NULL,
	  "scenario.yaml:3:12: cannot open inventory '@/nope.csv': No such file or directory" },
	{ SC_HEAD "horizon_years: 0\n", NULL, NULL, "scenario.yaml:5:16: field 'horizon_years': '0' must be in (0, 30]" },
	{ SC_HEAD "horizon_years: 31\n", NULL, NULL, "scenario.yaml:5:16: field 'horizon_years': '31' must be in (0, 30]" },
	{ SC_HEAD "horizon_years: .inf\n", NULL, NULL, "scenario.yaml:5:16: field 'horizon_years': '.inf' is not finite" },
	{ SC_HEAD "horizon_years: three\n", NULL, NULL, "scenario.yaml:5:16: field 'horizon_years': 'three' is not a number" },
	{ SC_HEAD "solver: {time_limit_s: 0}\n", NULL, NULL, "scenario.yaml:5:24: field 'time_limit_s': '0' must be in (0, 86400]" },
	{ SC_HEAD "solver: {mip_gap: 1}\n", NULL, NULL, "scenario.yaml:5:19: field 'mip_gap': '1' must be in [0, 1)" },
	{ SC_HEAD "solver: {mip_gpa: 1}\n", NULL, NULL, "scenario.yaml:5:10: unknown field 'mip_gpa' in solver (did you mean 'mip_gap'?)" },
	{ SC_HEAD "solver: {gap_pct: 100}\n", NULL, NULL, "scenario.yaml:5:19: field 'gap_pct': '100' must be in [0, 100)" },
	{ SC_HEAD "solver: {gap_pct: 1, mip_gap: 0.01}\n", NULL, NULL,
	  "scenario.yaml:5:31: field 'mip_gap': give gap_pct (percent) or mip_gap (a fraction), not both" },
	{ SC_HEAD "solver: [1]\n", NULL, NULL, "scenario.yaml:5:9: 'solver' must be a mapping, not a list" },
	{ SC_HEAD "sharing: {mps_max_clients: 49}\n", NULL, NULL, "scenario.yaml:5:28: field 'mps_max_clients': 49 must be in [2, 48]" },
	{ SC_HEAD "sharing: {timeslice_max_replicas: 4.5}\n", NULL, NULL,
	  "scenario.yaml:5:35: field 'timeslice_max_replicas': '4.5' is not a whole number" },
	{ SC_HEAD "energy: {usd_per_kwh: -0.1}\n", NULL, NULL, "scenario.yaml:5:23: field 'usd_per_kwh': '-0.1' must be at least 0" },
	{ SC_HEAD "energy: {pue: 0.9}\n", NULL, NULL, "scenario.yaml:5:15: field 'pue': '0.9' must be in [1, 3]" },
	{ SC_HEAD "energy: {gpu_load_factor: 0}\n", NULL, NULL, "scenario.yaml:5:27: field 'gpu_load_factor': '0' must be in (0, 1]" },
	{ SC_HEAD "licensing: {nvaie_usd_per_gpu_year: 100}\n", NULL, NULL,
	  "scenario.yaml:5:12: licensing sets its own prices: say where they come from in 'source'" },
	{ SC_HEAD "licensing: {nvaie_usd_per_gpu_year: nan}\n", NULL, NULL,
	  "scenario.yaml:5:37: field 'nvaie_usd_per_gpu_year': 'nan' is not finite" },
	{ SC_HEAD "licensing: {counting: per-seat}\n", NULL, NULL,
	  "scenario.yaml:5:23: field 'counting': unknown value 'per-seat' (expected physical-gpu or vgpu-seat)" },
	{ SC_HEAD "licensing: {term: perpetuel}\n", NULL, NULL,
	  "scenario.yaml:5:19: field 'term': unknown value 'perpetuel' (did you mean 'perpetual'?)" },
	{ SC_HEAD "hypervisors: {vsphere: {usd_per_core_year: 100}}\n", NULL, NULL,
	  "scenario.yaml:5:24: missing field 'source'" },
	{ SC_HEAD "hypervisors: {esxi: {usd_per_core_year: 100, source: x}}\n", NULL, NULL,
	  "scenario.yaml:5:15: unknown field 'esxi' in hypervisors (expected vsphere, kvm, baremetal or cloud)" },
	{ SC_HEAD "energy: {gpu_load_factor: 0.5, gpu_idle_factor: 0.6}\n", NULL, NULL,
	  "scenario.yaml:5:49: field 'gpu_idle_factor' must not exceed gpu_load_factor" },
	{ SC_HEAD "cloud_offers: [nope.yaml]\n", NULL, NULL,
	  "scenario.yaml:5:16: cannot open cloud offers file '@/nope.yaml': No such file or directory" },
	{ SC_HEAD "gpu_types: my.yaml\n", NULL, NULL, "scenario.yaml:5:12: 'gpu_types' must be a list, not a scalar" },
	{ SC_HEAD "gpu_types: [missing.yaml]\n", NULL, NULL,
	  "scenario.yaml:5:13: cannot open GPU file '@/missing.yaml': No such file or directory" },
	{ SC_HEAD, INV_HEADER "a,2,A100-PCIE-80GB,4,vsphere,dc1,0,512,owned,,,,\n", NULL,
	  "inventory.csv:2:7: column 'cpu_cores': '0' must be greater than 0" },
	{ SC_HEAD, NULL, "name,tenant,replicas,gpu_mem_gib,compute,isolation,sites\nw,t,2,20,0.25,hardware,dc2\n",
	  "workloads.csv:2:7: unknown site 'dc2': no node class is there (did you mean 'dc1'?)" },
	{ SC_HEAD, NULL, "name,tenant,replicas,gpu_mem_gib,compute,isolation,sites\nw,t,2,20,0.25,hardware,dc1|moon\n",
	  "workloads.csv:2:7: unknown site 'moon': no node class is there (expected dc1)" },
};

/* Replaces '@' in s by the temp directory. */
static char *expand(const char *s)
{
	struct sb sb;
	char *out;
	sb_init(&sb);
	for (; *s; s++) {
		if (*s == '@')
			sb_adds(&sb, dir);
		else
			sb_addn(&sb, s, 1);
	}
	out = sb_detach(&sb);
	return out;
}

static void test_load_rows(void)
{
	size_t i;
	char *path = xasprintf("%s/scenario.yaml", dir);

	for (i = 0; i < sizeof(load_rows) / sizeof(load_rows[0]); i++) {
		struct scenario sc;
		struct diag d = DIAG_INIT;
		char *got;
		int rc;

		write_file("scenario.yaml", load_rows[i].sc);
		write_file("inventory.csv", load_rows[i].inv ? load_rows[i].inv : INV_OK);
		write_file("workloads.csv", load_rows[i].wl ? load_rows[i].wl : WL_OK);
		rc = scenario_load(&sc, path, MODELS, &d);
		got = d.kind ? diag_format(&d) : NULL;
		if (load_rows[i].err) {
			char *tail = expand(load_rows[i].err);
			char *want = xasprintf("%s/%s", dir, tail);
			CHECK(rc < 0, "load row %zu: rc %d", i, rc);
			CHECK_STR(got, want, "load row %zu", i);
			free(tail);
			free(want);
		} else {
			CHECK(rc == 0, "load row %zu: rc %d (%s)", i, rc, got ? got : "");
		}
		free(got);
		diag_release(&d);
		scenario_release(&sc);
	}
	free(path);
}

static void test_defaults_and_fields(void)
{
	struct scenario sc;
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/scenario.yaml", dir);
	char *inv = xasprintf("%s/inventory.csv", dir);

	write_file("scenario.yaml", SC_HEAD);
	write_file("inventory.csv", INV_OK);
	write_file("workloads.csv", WL_OK);
	CHECK(scenario_load(&sc, path, MODELS, &d) == 0, "defaults load");
	CHECK_STR(sc.name, "s", "name");
	CHECK_STR(sc.models_dir, MODELS, "models dir from the argument");
	CHECK_STR(sc.inventory_path, inv, "inventory joined to the scenario's dir");
	CHECK(sc.horizon_years == 1 && sc.time_limit_s == 30 && sc.mip_gap == 1e-4 &&
		      sc.timeslice_max == 8 && sc.mps_max == 8,
	      "defaults: horizon, solver, sharing");
	CHECK(sc.energy_usd_per_kwh == 0 && sc.pue == 1 && sc.gpu_load_factor == 1, "energy defaults");
	CHECK(sc.licensing.usd_per_gpu_year[LIC_NVAIE] == -1 && sc.licensing.source == NULL &&
		      sc.licensing.counting == COUNT_PHYSICAL_GPU && sc.licensing.vgpu_product == LIC_NVAIE &&
		      !strcmp(sc.licensing.term, "subscription") && !strcmp(sc.licensing.cloud_term, "auto") &&
		      !sc.licensing.passthrough_vm_unlicensed,
	      "licensing defaults");
	CHECK(sc.inventory.n == 1 && sc.workloads.n == 1 && sc.ngpu_files == 0, "contents");
	scenario_release(&sc);

	write_file("my-gpus.yaml", "schema: gpuplan-gpus/1\ngpus:\n  - id: LAB-24\n    memory_mib: 24576\n");
	write_file("scenario.yaml",
		   SC_HEAD "horizon_years: 2.5\nsolver: {time_limit_s: 5, mip_gap: 0.01}\n"
			   "sharing: {timeslice_max_replicas: 4, mps_max_clients: 48}\n"
			   "energy: {usd_per_kwh: 0.2, pue: 1.5, gpu_load_factor: 0.7}\n"
			   "licensing: {counting: vgpu-seat, vgpu_product: vcs, term: perpetual,\n"
			   "  nvaie_usd_per_gpu_year: 4500, support_usd_per_gpu_year: 900, source: \"quote 2025\"}\n"
			   "hypervisors: {kvm: {usd_per_node_year: 300, source: \"RHEL quote\"}}\n"
			   "gpu_types: [my-gpus.yaml]\n");
	CHECK(scenario_load(&sc, path, MODELS, &d) == 0, "all fields load");
	CHECK(sc.horizon_years == 2.5 && sc.time_limit_s == 5 && sc.mip_gap == 0.01 &&
		      sc.timeslice_max == 4 && sc.mps_max == 48,
	      "horizon, solver, sharing");
	CHECK(sc.energy_usd_per_kwh == 0.2 && sc.pue == 1.5 && sc.gpu_load_factor == 0.7, "energy");
	CHECK(sc.licensing.usd_per_gpu_year[LIC_NVAIE] == 4500 && sc.licensing.source &&
		      !strcmp(sc.licensing.source, "quote 2025") && sc.licensing.counting == COUNT_VGPU_SEAT &&
		      sc.licensing.vgpu_product == LIC_VCS && !strcmp(sc.licensing.term, "perpetual") &&
		      sc.licensing.support_usd_per_gpu_year == 900,
	      "licensing");
	CHECK(sc.hv_cost[HV_KVM].usd_per_node_year == 300 && !strcmp(sc.hv_cost[HV_KVM].source, "RHEL quote"),
	      "hypervisor cost");
	CHECK(sc.ngpu_files == 1 && catalog_find(&sc.catalog, "LAB-24") &&
		      catalog_find(&sc.catalog, "LAB-24")->user,
	      "user GPU file loaded as user");
	scenario_release(&sc);
	/* the documented unit: gap_pct in percent, as --gap PCT; stored as the fraction mip_gap was */
	write_file("scenario.yaml", SC_HEAD "solver: {gap_pct: 0.5}\n");
	CHECK(scenario_load(&sc, path, MODELS, &d) == 0 && sc.mip_gap == 0.005, "gap_pct 0.5 is a gap of 0.005");
	scenario_release(&sc);
	remove_file("my-gpus.yaml");
	free(path);
	free(inv);
}

static void test_models_precedence(void)
{
	struct scenario sc;
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/scenario.yaml", dir);
	char *link = xasprintf("%s/m", dir);
	char *rel = xasprintf("%s/m", dir);

	write_file("inventory.csv", INV_OK);
	write_file("workloads.csv", WL_OK);
	CHECK(symlink(MODELS, link) == 0, "symlink models");

	write_file("scenario.yaml", SC_HEAD "models: m\n");
	CHECK(scenario_load(&sc, path, NULL, &d) == 0, "models: relative");
	CHECK_STR(sc.models_dir, rel, "models: joined to the scenario's dir");
	scenario_release(&sc);
	CHECK(scenario_load(&sc, path, MODELS, &d) == 0, "argument wins");
	CHECK_STR(sc.models_dir, MODELS, "argument wins over models:");
	scenario_release(&sc);

	write_file("scenario.yaml", SC_HEAD);
	setenv("GPUPLAN_MODELS", link, 1);
	CHECK(scenario_load(&sc, path, NULL, &d) == 0, "env");
	CHECK_STR(sc.models_dir, link, "env when no argument and no models:");
	scenario_release(&sc);
	setenv("GPUPLAN_MODELS", "", 1);
	CHECK(scenario_load(&sc, path, NULL, &d) == 0, "empty env");
	CHECK_STR(sc.models_dir, GPUPLAN_MODELS_DIR, "compile-time default when env is empty");
	scenario_release(&sc);
	unsetenv("GPUPLAN_MODELS");

	/* the installed models, relative to the executable's directory */
	{
		char *bin = xasprintf("%s/bin", dir), *share = xasprintf("%s/share", dir);
		char *gp = xasprintf("%s/share/gpuplan", dir), *inst = xasprintf("%s/share/gpuplan/models", dir);
		char *want = xasprintf("%s/bin/../share/gpuplan/models", dir);
		CHECK(mkdir(bin, 0755) == 0 && mkdir(share, 0755) == 0 && mkdir(gp, 0755) == 0, "mkdir prefix");
		CHECK(symlink(MODELS, inst) == 0, "symlink installed models");
		models_dir_set_exe_dir(bin);
		CHECK(scenario_load(&sc, path, NULL, &d) == 0, "installed");
		CHECK_STR(sc.models_dir, want, "installed models when no argument, models: or env");
		scenario_release(&sc);
		setenv("GPUPLAN_MODELS", link, 1);
		CHECK_STR(models_dir_or_default(NULL), link, "env wins over the installed models");
		unsetenv("GPUPLAN_MODELS");
		unlink(inst);
		CHECK_STR(models_dir_or_default(NULL), GPUPLAN_MODELS_DIR, "no gpus.yaml there: the source tree's");
		models_dir_set_exe_dir("/nonexistent");
		rmdir(gp);
		rmdir(share);
		rmdir(bin);
		free(bin);
		free(share);
		free(gp);
		free(inst);
		free(want);
	}

	CHECK(scenario_load(&sc, path, "/nonexistent", &d) < 0, "bad models dir fails");
	{
		char *m = diag_format(&d);
		CHECK_STR(m, "/nonexistent/gpus.yaml: cannot open: No such file or directory", "message");
		free(m);
	}
	diag_release(&d);
	scenario_release(&sc);
	unlink(link);
	free(link);
	free(rel);
	free(path);
}

/* ================= scenario_unhostable ================= */

struct nc_spec {
	const char *gpu;
	int gpus_per_node;
	enum hypervisor hv;
	const char *site;
	double cpu, ram;
};

#define M(x) MODE_BIT(MODE_##x)
static const struct nc_spec INV_A[] = { { "A100-PCIE-80GB", 4, HV_VSPHERE, "dc1", 64, 512 },
					{ "H100-SXM5-80GB", 8, HV_BAREMETAL, "dc1", 112, 1024 },
					{ NULL, 0, HV_COUNT, NULL, 0, 0 } };
static const struct nc_spec INV_B[] = { { "L40S", 2, HV_BAREMETAL, "dc2", 32, 256 },
					{ NULL, 0, HV_COUNT, NULL, 0, 0 } };
static const struct nc_spec INV_C[] = { { "L40S", 2, HV_KVM, "dc2", 32, 256 },
					{ NULL, 0, HV_COUNT, NULL, 0, 0 } };
static const struct nc_spec INV_E[] = { { "B200", 8, HV_KVM, "dc1", 112, 1024 },
					{ NULL, 0, HV_COUNT, NULL, 0, 0 } };
static const struct nc_spec INV_D[] = { { "H100-SXM5-80GB", 8, HV_BAREMETAL, "dc1", 32, 256 },
					{ "A100-PCIE-80GB", 2, HV_BAREMETAL, "dc1", 128, 1024 },
					{ NULL, 0, HV_COUNT, NULL, 0, 0 } };

static const struct {
	const struct nc_spec *inv;
	int gpus;
	double mem, compute;
	enum isolation iso;
	int vm;
	unsigned modes;		/* 0: all */
	const char *gpu_type;	/* NULL: any */
	const char *site;	/* NULL: any */
	double cpu, ram;
	const char *want;	/* NULL: hostable */
} host_rows[] = {
	{ INV_A, 0, 20, 0.25, ISO_HARDWARE, 0, 0, NULL, NULL, 4, 32, NULL },
	{ INV_A, 0, 20, 0.25, ISO_NONE, 0, 0, NULL, "dc9", 0, 0, "no node class matches its sites/gpu_types" },
	{ INV_A, 0, 20, 0.25, ISO_NONE, 0, 0, "L40S", NULL, 0, 0, "no node class matches its sites/gpu_types" },
	{ INV_A, 16, 0, 1, ISO_EXCLUSIVE, 0, M(PASSTHROUGH), NULL, NULL, 0, 0,
	  "asks 16 GPUs per replica, the largest node has 8" },
	{ INV_A, 8, 0, 1, ISO_EXCLUSIVE, 0, M(PASSTHROUGH), "A100-PCIE-80GB", NULL, 0, 0,
	  "asks 8 GPUs per replica, the largest node has 4" },
	{ INV_A, 0, 96, 0.5, ISO_NONE, 0, 0, NULL, NULL, 0, 0,
	  "asks 96 GiB of GPU memory, the largest allowed GPU has 80 GiB usable (81920 MiB)" },
	{ INV_B, 1, 49.5, 1, ISO_NONE, 0, 0, NULL, NULL, 0, 0,
	  "asks 49.5 GiB of GPU memory, the largest allowed GPU has 44.7 GiB usable (45776 MiB)" },
	{ INV_A, 0, 80, 0.5, ISO_NONE, 0, 0, NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 20, 0.25, ISO_NONE, 0, 0, NULL, NULL, 200, 0,
	  "asks 200 CPU cores per replica, the largest node has 112" },
	{ INV_A, 0, 20, 0.25, ISO_NONE, 0, 0, NULL, NULL, 0, 2048,
	  "asks 2048 GiB of RAM per replica, the largest node has 1024 GiB" },
	{ INV_B, 0, 40, 0.5, ISO_NONE, 0, 0, NULL, NULL, 0, 0, NULL },
	{ INV_B, 0, 8, 0.1, ISO_HARDWARE, 0, 0, NULL, NULL, 0, 0, NULL },
	{ INV_B, 0, 8, 0.1, ISO_HARDWARE, 0, M(MIG) | M(TIMESLICE), NULL, NULL, 0, 0,
	  "mig needs a GPU with MIG, and L40S has none" },
	{ INV_B, 0, 8, 0.1, ISO_MEMORY, 1, 0, NULL, NULL, 0, 0,
	  "needs a VM (vm: true) but no allowed node class runs vsphere or kvm" },
	{ INV_C, 0, 8, 0.1, ISO_MEMORY, 1, M(VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_C, 0, 8, 0.1, ISO_HARDWARE, 1, M(VGPU), NULL, NULL, 0, 0,
	  "no allowed mode offers a slot with 8 GiB and compute 0.1 (isolation hardware)" },
	{ INV_C, 0, 30, 0.6, ISO_MEMORY, 1, M(VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_B, 1, 0, 1, ISO_NONE, 0, M(VGPU), NULL, NULL, 0, 0,
	  "vgpu needs a hypervisor (vsphere or kvm) to run vGPU, and the allowed node classes run baremetal" },
	/* the misconceptions, said as such */
	{ INV_B, 0, 8, 0.1, ISO_MEMORY, 0, M(MIG_VGPU), NULL, NULL, 0, 0,
	  "mig-vgpu needs a hypervisor (vsphere or kvm) to run vGPU, and the allowed node classes run baremetal" },
	{ INV_B, 0, 8, 0.1, ISO_MEMORY, 0, M(VGPU) | M(MIG), NULL, NULL, 0, 0,
	  "vgpu needs a hypervisor (vsphere or kvm) to run vGPU, and the allowed node classes run baremetal; "
	  "mig needs a GPU with MIG, and L40S has none" },
	{ INV_C, 0, 8, 0.1, ISO_HARDWARE, 0, M(MIG) | M(MIG_VGPU), NULL, NULL, 0, 0,
	  "mig-vgpu and mig need a GPU with MIG, and L40S has none" },
	{ INV_E, 0, 8, 0.1, ISO_MEMORY, 0, M(VGPU), NULL, NULL, 0, 0,
	  "vgpu needs a GPU with vGPU profiles, and B200 has none" },
	{ INV_E, 0, 8, 0.1, ISO_MEMORY, 0, M(VGPU) | M(MIG_VGPU), NULL, NULL, 0, 0,
	  "vgpu and mig-vgpu need a GPU with vGPU profiles, and B200 has none" },
	{ INV_A, 0, 8, 0.1, ISO_MEMORY, 0, M(MIG_VGPU), "H100-SXM5-80GB", NULL, 0, 0,
	  "mig-vgpu needs a hypervisor (vsphere or kvm) to run vGPU, and the allowed node classes run baremetal" },
	{ INV_A, 0, 8, 0.1, ISO_MEMORY, 0, M(MIG_VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_C, 1, 0, 1, ISO_NONE, 0, M(VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_C, 1, 0, 1, ISO_NONE, 0, M(TIMESLICE) | M(MPS), NULL, NULL, 0, 0,
	  "no allowed mode offers a whole GPU (isolation none)" },
	{ INV_A, 1, 40, 1, ISO_HARDWARE, 0, M(MIG), "A100-PCIE-80GB", NULL, 0, 0, NULL },
	{ INV_A, 1, 40, 1, ISO_HARDWARE, 1, M(MIG_VGPU), "A100D", NULL, 0, 0, NULL },
	{ INV_A, 2, 0, 1, ISO_EXCLUSIVE, 1, 0, NULL, NULL, 0, 0, NULL },
	{ INV_A, 8, 0, 1, ISO_EXCLUSIVE, 1, 0, NULL, NULL, 0, 0,
	  "no allowed mode offers whole GPUs (isolation exclusive)" },
	{ INV_A, 2, 64, 1, ISO_EXCLUSIVE, 0, M(MIG), NULL, NULL, 0, 0,
	  "no allowed mode offers whole GPUs with 64 GiB (isolation exclusive)" },
	{ INV_D, 4, 0, 1, ISO_EXCLUSIVE, 0, 0, NULL, NULL, 64, 0,
	  "no single allowed node class has enough GPUs, CPU cores and RAM at once" },
	{ INV_A, 0, 20, 0.25, ISO_HARDWARE, 1, M(MIG_VGPU), NULL, "dc1", 0, 0, NULL },
	{ INV_A, 0, 20, 2.0 / 7.0, ISO_HARDWARE, 0, M(MIG), "A100-PCIE-80GB", NULL, 0, 0, NULL },
	{ INV_A, 0, 20, 0.2857142857, ISO_HARDWARE, 0, M(MIG), "A100-PCIE-80GB", NULL, 0, 0, NULL },
	{ INV_A, 0, 41, 0.1, ISO_NONE, 0, M(TIMESLICE), NULL, NULL, 0, 0,
	  "no allowed mode offers a slot with 41 GiB and compute 0.1 (isolation none)" },
	{ INV_A, 0, 40, 0.5, ISO_NONE, 0, M(TIMESLICE), NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 8, 0.6, ISO_NONE, 0, M(TIMESLICE) | M(MPS), NULL, NULL, 0, 0,
	  "no allowed mode offers a slot with 8 GiB and compute 0.6 (isolation none)" },
	{ INV_A, 0, 40, 0.5, ISO_MEMORY, 0, M(MPS), NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 10, 0.15, ISO_HARDWARE, 0, M(MIG), NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 10, 0.125, ISO_MEMORY, 1, M(VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 10, 0.13, ISO_MEMORY, 1, M(VGPU), NULL, NULL, 0, 0, NULL },
	{ INV_A, 0, 81, 0.13, ISO_MEMORY, 1, M(VGPU), NULL, NULL, 0, 0,
	  "asks 81 GiB of GPU memory, the largest allowed GPU has 80 GiB usable (81920 MiB)" },
};

static void test_unhostable(const struct catalog *cat)
{
	static char name[] = "x";
	size_t i, k;
	for (i = 0; i < sizeof(host_rows) / sizeof(host_rows[0]); i++) {
		struct scenario sc;
		struct node_class nc[4];
		struct workload w;
		const struct gpu_type *gt;
		char *site = NULL;
		char *why;

		memset(&sc, 0, sizeof(sc));
		memset(nc, 0, sizeof(nc));
		memset(&w, 0, sizeof(w));
		for (k = 0; host_rows[i].inv[k].gpu; k++) {
			nc[k].name = name;
			nc[k].count = 1;
			nc[k].gpu = catalog_find(cat, host_rows[i].inv[k].gpu);
			nc[k].gpus_per_node = host_rows[i].inv[k].gpus_per_node;
			nc[k].hv = host_rows[i].inv[k].hv;
			nc[k].site = xstrdup(host_rows[i].inv[k].site);
			nc[k].cpu_cores = host_rows[i].inv[k].cpu;
			nc[k].ram_gib = host_rows[i].inv[k].ram;
		}
		sc.inventory.n = k;
		sc.inventory.classes = nc;
		w.name = name;
		w.replicas = 1;
		w.gpus = host_rows[i].gpus;
		w.gpu_mem_gib = host_rows[i].mem;
		w.compute = host_rows[i].compute;
		w.iso = host_rows[i].iso;
		w.vm = host_rows[i].vm;
		w.modes = host_rows[i].modes ? host_rows[i].modes : MODE_ALL;
		w.cpu_cores = host_rows[i].cpu;
		w.ram_gib = host_rows[i].ram;
		gt = host_rows[i].gpu_type ? catalog_find(cat, host_rows[i].gpu_type) : NULL;
		if (gt) {
			w.ngpu_types = 1;
			w.gpu_types = &gt;
		}
		if (host_rows[i].site) {
			site = xstrdup(host_rows[i].site);
			w.nsites = 1;
			w.sites = &site;
		}
		why = scenario_unhostable(&sc, &w);
		if (host_rows[i].want)
			CHECK_STR(why, host_rows[i].want, "host row %zu", i);
		else
			CHECK(why == NULL, "host row %zu: unexpectedly unhostable: %s", i, why);
		free(why);
		free(site);
		for (k = 0; k < sc.inventory.n; k++)
			free(nc[k].site);
	}
}

/*
 * Plausible ranges: a tariff at the band's ends passes, just outside warns
 * (with its line); no tariff, no warning; a rented row is judged per GPU.
 */
static size_t implausible_with(const char *energy, const char *inv, char **first)
{
	struct scenario sc;
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/scenario.yaml", dir), *text = xasprintf(SC_HEAD "%s", energy);
	char **msgs = NULL;
	size_t i, n = 0;

	write_file("scenario.yaml", text);
	write_file("inventory.csv", inv);
	write_file("workloads.csv", WL_OK);
	*first = NULL;
	if (scenario_load(&sc, path, MODELS, &d) == 0) {
		n = scenario_implausible(&sc, &msgs);
		for (i = 0; i < n; i++) {
			if (i == 0)
				*first = msgs[0];
			else
				free(msgs[i]);
		}
		free(msgs);
		scenario_release(&sc);
	} else {
		CHECK(0, "implausible: load %s", energy);
	}
	diag_release(&d);
	free(text);
	free(path);
	return n;
}

static void test_implausible(void)
{
	static const char rent[] = "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,"
				   "capex_usd,amortization_years,hourly_usd,base_power_w\n"
				   "r,1,H100-SXM5-80GB,8,baremetal,dc1,100,1000,rent,,,%s,\n";
	char *m, *inv;

	CHECK(implausible_with("", INV_OK, &m) == 0, "no energy block: no warning");
	CHECK(implausible_with("energy: {usd_per_kwh: 0.02}\n", INV_OK, &m) == 0, "0.02 is inside");
	CHECK(implausible_with("energy: {usd_per_kwh: 1}\n", INV_OK, &m) == 0, "1 is inside");
	CHECK(implausible_with("energy:\n  usd_per_kwh: 1.5\n", INV_OK, &m) == 1 && m && strstr(m, "scenario.yaml:") &&
		      strstr(m, ":6: energy.usd_per_kwh 1.5") && strstr(m, "EIA"),
	      "1.5 warns at its line with the source: %s", m ? m : "(none)");
	free(m);
	CHECK(implausible_with("energy: {usd_per_kwh: 0.019}\n", INV_OK, &m) == 1 && m && !strstr(m, "cents"),
	      "0.019 warns, without the cents hint: %s", m ? m : "(none)");
	free(m);
	inv = xasprintf(rent, "40");
	CHECK(implausible_with("", inv, &m) == 0, "40 USD for 8 GPUs an hour: plausible (%s)", m ? m : "");
	free(inv);
	inv = xasprintf(rent, "29000");
	CHECK(implausible_with("", inv, &m) == 1 && m && strstr(m, "inventory.csv:2: node class 'r'") &&
		      strstr(m, "3625 USD per GPU-hour"),
	      "29,000 an hour for 8 GPUs warns per GPU: %s", m ? m : "(none)");
	free(m);
	free(inv);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_load_rows();
	test_defaults_and_fields();
	test_models_precedence();
	test_implausible();
	if (catalog_load(&cat, MODELS "/gpus.yaml", 0, &d) == 0)
		test_unhostable(&cat);
	else
		CHECK(0, "catalog loads");
	diag_release(&d);
	catalog_release(&cat);
	remove_file("scenario.yaml");
	remove_file("inventory.csv");
	remove_file("workloads.csv");
	rmdir(dir);
	return check_done();
}
