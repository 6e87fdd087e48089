/*
 * test_openb.c - the openb import on tiny hand-made files with the trace's
 * columns: grouping of nodes and pods, catalog vs user GPU types, the
 * fraction and whole-GPU rules, gpu_spec, skipped CPU-only rows, errors
 * with their position, and that the result loads as a scenario.
 */
#include <math.h>

#include "fixture.h"
#include "models.h"
#include "openb.h"

#define NODES_HDR "sn,cpu_milli,memory_mib,gpu,model\n"
#define PODS_HDR "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"

static const char nodes_ok[] = NODES_HDR
	"n0,96000,393216,8,G2\n"
	"n1,96000,393216,8,G2\n"
	"n2,64000,262144,2,T4\n"
	"n3,32000,131072,0,\n"
	"n4,64000,262144,4,V100M32\n";
static const char pods_ok[] = PODS_HDR
	"p0,4000,8192,1,500,,LS,Running,0,10,0\n"
	"p1,4000,8192,1,500,,LS,Running,0,10,0\n"
	"p2,8000,16384,1,1000,,BE,Running,0,10,0\n"
	"p3,32000,131072,4,1000,V100M32|T4,LS,Running,0,10,0\n"
	"p4,2000,4096,0,0,,BE,Running,0,10,0\n"
	"p5,1000,2048,1,50,,BE,Pending,0,10,0\n";

struct bad {
	const char *nodes, *pods;
	const char *want;	/* the start of the message, after the path */
};

static const struct bad bads[] = {
	{ NODES_HDR "n0,96000,393216,8,G2\n", PODS_HDR "p0,4000,8192,1,0,,LS,Running,0,10,0\n",
	  "pods.csv:2:5: column 'gpu_milli': 0 with num_gpu 1" },
	{ NODES_HDR "n0,96000,393216,8,G2\n", PODS_HDR "p0,4000,8192,2,500,,LS,Running,0,10,0\n",
	  "pods.csv:2:5: column 'gpu_milli': 500 with num_gpu 2" },
	{ NODES_HDR "n0,96000,393216,x,G2\n", PODS_HDR "p0,4000,8192,1,500,,LS,Running,0,10,0\n",
	  "nodes.csv:2:4: column 'gpu'" },
	{ NODES_HDR "n0,96000,393216,8,G 2\n", PODS_HDR "p0,4000,8192,1,500,,LS,Running,0,10,0\n",
	  "nodes.csv:2:5: column 'model': 'G 2'" },
	{ NODES_HDR "n0,96000,393216,0,\n", PODS_HDR "p0,4000,8192,1,500,,LS,Running,0,10,0\n",
	  "nodes.csv: no node with GPUs" },
	{ NODES_HDR "n0,96000,393216,8,G2\n", PODS_HDR "p0,4000,8192,0,0,,LS,Running,0,10,0\n",
	  "pods.csv: no pod asks for a GPU" },
	{ "sn,cpu,memory_mib,gpu,model\nn0,1,1,1,G2\n", PODS_HDR "p0,4000,8192,1,500,,LS,Running,0,10,0\n",
	  "nodes.csv:1:2: unknown column 'cpu'" },
};

static char *path_of(const char *name)
{
	return xasprintf("%s/%s", fixture_dir, name);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	struct openb_out o;
	char *np, *pp;
	size_t i;

	if (fixture_setup("test_openb"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	np = path_of("nodes.csv");
	pp = path_of("pods.csv");
	fixture_write("nodes.csv", nodes_ok);
	fixture_write("pods.csv", pods_ok);
	CHECK(openb_import(np, pp, &cat, &o, &d) == 0, "import: %s", d.msg ? d.msg : "");
	if (o.inventory) {
		struct fixture fx;
		CHECK(o.nodes == 4 && o.gpus_total == 22 && o.classes == 3, "nodes %ld, GPUs %ld, classes %d", o.nodes,
		      o.gpus_total, o.classes);
		CHECK(o.pods == 6 && o.pods_gpu == 5 && o.nworkloads == 4, "pods %ld / %ld, workloads %d", o.pods,
		      o.pods_gpu, o.nworkloads);
		CHECK(o.user_types == 2, "user types %d (G2, V100M32)", o.user_types);
		CHECK(fabs(o.gpu_demand - 6.05) < 1e-9, "GPU demand %.3f", o.gpu_demand);
		CHECK(strstr(o.inventory, "\nG2-8gpu-96c-384g,2,G2,8,baremetal,openb,96,384,owned,,,,\n") != NULL,
		      "G2 class: %s", o.inventory);
		CHECK(strstr(o.inventory, ",T4,2,") != NULL, "T4 is the catalog's type");
		CHECK(strstr(o.workloads, "\nopenb-001,LS,1,4,,,exclusive,false,32,128,V100M32|T4,passthrough,,false\n") !=
			      NULL,
		      "4-GPU pod with gpu_spec: %s", o.workloads);
		CHECK(strstr(o.workloads, "\nopenb-003,LS,2,0,0.0009765625,0.5,none,false,4,8,,passthrough|timeslice,,false\n") !=
			      NULL,
		      "two identical half-GPU pods are one workload: %s", o.workloads);
		CHECK(strstr(o.gpus, "  - id: V100M32\n    memory_mib: 32768") != NULL, "V100M32 user type: %s", o.gpus);
		CHECK(strstr(o.scenario, "timeslice_max_replicas: 20") != NULL, "k up to 1000/50: %s", o.scenario);
		CHECK(strstr(o.scenario, "timeslice_shares: true") != NULL, "pods mix shares on a GPU: %s", o.scenario);
		CHECK(strstr(o.scenario, "\nunplaced_weight: gpus\n") != NULL, "unplaced pods weigh their GPUs: %s",
		      o.scenario);
		fixture_write("gpus-openb.yaml", o.gpus);
		if (fixture_build(&fx, o.scenario, o.inventory, o.workloads, FIXTURE_CHECK_BUILD) == 0) {
			CHECK(fx.sc.timeslice_shares == 1, "the scenario loads with timeslice_shares on");
			CHECK(fx.sc.unplaced_by_gpus == 1, "the scenario loads with unplaced_weight gpus");
			for (i = 0; i < fx.sc.workloads.n; i++) {
				char *why = scenario_unhostable(&fx.sc, &fx.sc.workloads.w[i]);
				CHECK(!why, "workload %s: %s", fx.sc.workloads.w[i].name, why);
				free(why);
			}
			fixture_release(&fx);
		}
		fixture_remove("gpus-openb.yaml");
		openb_out_release(&o);
	}
	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct diag e = DIAG_INIT;
		char *m;
		fixture_write("nodes.csv", bads[i].nodes);
		fixture_write("pods.csv", bads[i].pods);
		CHECK(openb_import(np, pp, &cat, &o, &e) == -1 && e.kind == DIAG_INPUT, "bad row %zu refused", i);
		m = diag_format(&e);
		CHECK(m && strstr(m, bads[i].want) != NULL, "bad row %zu: got '%s', want '%s'", i, m ? m : "",
		      bads[i].want);
		CHECK(!o.inventory && !o.workloads, "bad row %zu: nothing kept", i);
		free(m);
		diag_release(&e);
	}
	fixture_remove("nodes.csv");
	fixture_remove("pods.csv");
	free(np);
	free(pp);
	catalog_release(&cat);
	diag_release(&d);
	fixture_teardown();
	return check_done();
}
