/*
 * test_search_stop.c - the status of a run a limit stopped before the
 * search held a plan of its own (the greedy plan stands) names the limit
 * that stopped it: node-limit under a node limit, time-limit for the
 * clock (ilp_stop_status).
 *
 * The fleet is tests/cases/deploy-spread's: two sites of two 2-GPU
 * nodes, a workload spread over the sites.  Its rounded plans lose a
 * replica in the deal, so none beats the greedy plan, and a node limit
 * of 1 stops the branch-and-cut at its root, before the starts are
 * offered: no ILP plan, the greedy plan stands, and no clock took part
 * (a node limit turns it off).  Before, that run said time-limit.
 */
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "ilp.h"

static const char sc[] = "schema: gpuplan-scenario/1\nname: search-stop\ninventory: inventory.csv\n"
			 "workloads: workloads.csv\nhorizon_years: 1\n"
			 "energy: {usd_per_kwh: 0.10, pue: 1.0, gpu_load_factor: 1}\n";
static const char inv[] =
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,base_power_w,nodes\n"
	"east,2,H100-SXM5-80GB,2,baremetal,zone-a,64,512,owned,1000,gpu-a1|gpu-a2\n"
	"west,2,H100-SXM5-80GB,2,baremetal,zone-b,64,512,owned,1000,gpu-b1|gpu-b2\n";
static const char wl[] =
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,modes,priority,spread,max_skew,"
	"when_unsatisfiable,min_domains,min_available,max_unavailable\n"
	"chat svc/1,web,4,0,9.5,0.12,hardware,mig,5,site,1,DoNotSchedule,2,50%,\n"
	"Embed_v2,web,3,0,9.5,0.12,hardware,mig,3,node,1,ScheduleAnyway,,,1\n"
	"train,ml,2,1,,,exclusive,passthrough,1,,,,,1,\n"
	"batch,ml,2,1,,,exclusive,passthrough,1,,,,,,\n";

/* The status decision alone: the limit that stopped the search. */
static void test_stop_status(void)
{
	CHECK(ilp_stop_status(1) == ILP_NODE_LIMIT, "node stop: %s", ilp_status_name(ilp_stop_status(1)));
	CHECK(ilp_stop_status(0) == ILP_TIME_LIMIT, "clock stop: %s", ilp_status_name(ilp_stop_status(0)));
	CHECK_STR(ilp_status_name(ILP_NODE_LIMIT), "node-limit", "the report's name");
	CHECK_STR(ilp_status_name(ILP_TIME_LIMIT), "time-limit", "the report's name");
}

/* The fleet above under a node limit of 1, on `threads` threads: no ILP plan, status node-limit. */
static void test_node_stop(int threads)
{
	struct diag d = DIAG_INIT;
	struct fixture fx;
	struct ilp_opts o;
	struct ilp_result r;

	if (fixture_build(&fx, sc, inv, wl, FIXTURE_GREEDY))
		return;
	memset(&o, 0, sizeof(o));
	o.time_limit_s = 0.001; /* ignored: a node limit turns the clock off */
	o.mip_gap = 1e-4;
	o.node_limit = 1;
	o.warm = &fx.cp;
	o.threads = threads;
	CHECK(ilp_solve(&fx.p, &o, &r, &d) == 0, "solve (%d threads)", threads);
	CHECK(r.status == ILP_NODE_LIMIT, "%d threads: status %s, want node-limit", threads, ilp_status_name(r.status));
	CHECK(r.nodes == 1 && !r.cut, "%d threads: nodes %ld, cut %d: the node limit stopped it, not the clock",
	      threads, r.nodes, r.cut);
	CHECK(r.round_objective > 0 && r.lp_bound > 0, "%d threads: rounded %.2f, LP bound %.2f: the phases before the "
	      "search ran", threads, r.round_objective, r.lp_bound);
	ilp_result_release(&fx.p, &r);
	diag_release(&d);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_search_stop"))
		return 1;
	test_stop_status();
	test_node_stop(1);
	test_node_stop(2);
	ilp_cleanup();
	fixture_teardown();
	return check_done();
}
