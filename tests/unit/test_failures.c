/*
 * test_failures.c - the failure analysis (failures.h) on a plan built by
 * hand: three one-GPU H100 nodes in MIG mode (7 x 1g.10gb each), a-000
 * and b-000 at site dc1, c-000 at dc2; workload hi (priority 5) and lo
 * (priority 1), one slot each replica:
 *
 *   a-000: 5 hi (2 free)   b-000: 3 lo (4 free)   c-000: 4 hi, 3 lo (full)
 *
 * Losing a-000 places 4 hi on b-000 and strands 1; losing b-000 places 2
 * lo on a-000 and strands 1; losing c-000 places its 4 hi first, then 2
 * lo into the 6 free slots, and strands 1 lo.  That last one holds only
 * when the two losses before it were undone (a-000's re-placement filled
 * b-000).  Losing dc1 strands all 8 (c-000 is full), dc2 as c-000.  The
 * worst node is a-000 (it strands priority 5), the worst site dc1.  A
 * second case gives c-000 no CPU left for lo: its free slots do not count.
 * Each analysis is also made with one kind taken from an analysis of that
 * kind alone (failures_analyse_with, as the resilience loop hands its
 * check to the reports): the same rows, names, counts and worst.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cplan.h"
#include "failures.h"
#include "fixture.h"
#include "fixture_mig.h"
#include "verify.h"

static const char inv_text[] = INV_HEADER
	"a,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
	"b,1,H100-SXM5-80GB,1,baremetal,dc1,64,512,owned,,,,\n"
	"c,1,H100-SXM5-80GB,1,baremetal,dc2,64,512,owned,,,,\n";

#define WL_HEADER "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,priority\n"

/* The rows are in kind order (failures.h): plan.json's arrays are written in one pass over them. */
static void rows_by_kind(const struct failures *f)
{
	size_t i;

	for (i = 1; i < f->nrows; i++)
		CHECK(f->rows[i - 1].kind <= f->rows[i].kind, "row %zu: kind %s after %s", i,
		      fail_kind_name(f->rows[i].kind), fail_kind_name(f->rows[i - 1].kind));
}

/* failures_analyse_with, each kind of f's taken from an analysis of it alone, gives f exactly. */
static void same_with_each_kind(const struct failures *f, const struct cplan *cp, int by_gpu)
{
	enum fail_kind k;
	size_t i, j;

	rows_by_kind(f);
	for (k = FAIL_NODE; k <= (by_gpu ? FAIL_GPU : FAIL_SITE); k++) {
		struct failures have, g;
		failures_analyse_until(&have, cp, k, NULL, NULL, 0);
		failures_analyse_with(&g, cp, by_gpu, 0, &have, k);
		CHECK(g.nrows == f->nrows && g.by_gpu == f->by_gpu && have.nrows == 0 && !have.names[k],
		      "%s taken: %zu rows, want %zu; handed on empty", fail_kind_name(k), g.nrows, f->nrows);
		for (i = 0; i < g.nrows && i < f->nrows; i++)
			CHECK(g.rows[i].kind == f->rows[i].kind && g.rows[i].failure == f->rows[i].failure &&
				      g.rows[i].d == f->rows[i].d && g.rows[i].lost == f->rows[i].lost &&
				      g.rows[i].replaced == f->rows[i].replaced && g.rows[i].reason == f->rows[i].reason &&
				      g.rows[i].pending_by_spread == f->rows[i].pending_by_spread,
			      "%s taken: row %zu differs", fail_kind_name(k), i);
		for (j = FAIL_NODE; j < FAIL_KIND_COUNT; j++) {
			CHECK(g.nnames[j] == f->nnames[j] && g.nwith[j] == f->nwith[j] && g.nchecked[j] == f->nchecked[j] &&
				      !memcmp(&g.worst[j], &f->worst[j], sizeof(g.worst[j])),
			      "%s taken: kind %zu's counts or worst differ", fail_kind_name(k), j);
			for (i = 0; i < g.nnames[j] && i < f->nnames[j]; i++)
				CHECK(!strcmp(g.names[j][i], f->names[j][i]), "%s taken: name %zu of kind %zu",
				      fail_kind_name(k), i, j);
		}
		failures_release(&g);
		failures_release(&have);
	}
}

/* Builds the plan of the header (lo_cpu: cores per lo replica); 0, or -1 after a failed check. */
static int build(struct fixture *fx, struct cplan *cp, int lo_cpu, int *hi, int *lo)
{
	char *wl = xasprintf(WL_HEADER "hi,t,9,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
				       "lo,t,6,0,9.5,0.12,hardware,false,%d,8,H100-SXM5-80GB,mig,1\n", lo_cpu);
	int rc = fixture_build(fx, FIXTURE_SC_TEXT("failures"), inv_text, wl, 0);
	struct diag d = DIAG_INIT;

	free(wl);
	if (rc)
		return -1;
	if (mig_hi_lo(fx, hi, lo))
		return -1;
	cplan_init(cp, &fx->p);
	fill_node(cp, 0, *hi, 5, *lo, 0);
	fill_node(cp, 1, *hi, 0, *lo, 3);
	fill_node(cp, 2, *hi, 4, *lo, 3);
	rc = verify_plan(cp, &d);
	CHECK(rc == 0, "the hand-built plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	return 0;
}

static void test_replace(void)
{
	struct fixture fx;
	struct cplan cp;
	struct failures f;
	int hi, lo, used[3];
	size_t i;

	if (build(&fx, &cp, 1, &hi, &lo))
		return;
	for (i = 0; i < 3; i++)
		used[i] = cp.nodes[i].gpu_used[0];
	failures_analyse(&f, &cp, 0, 0);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "hi", 5, 4);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "b-000", "lo", 3, 2);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "hi", 4, 4);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "lo", 3, 2);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc1", "hi", 5, 0);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc1", "lo", 3, 0);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc2", "hi", 4, 4);
	expect_fail_row(&f, &fx.p, FAIL_SITE, "dc2", "lo", 3, 2);
	CHECK(f.nrows == 8, "%zu rows", f.nrows);
	CHECK(f.nrows >= 4 && f.rows[2].d == hi && f.rows[3].d == lo, "c-000's rows: priority first");
	CHECK(f.worst[FAIL_NODE].have && !strcmp(f.names[FAIL_NODE][f.worst[FAIL_NODE].failure], "a-000") &&
		      f.worst[FAIL_NODE].stranded == 1 && f.worst[FAIL_NODE].top_priority == 5,
	      "worst node: a-000, 1 replica of priority 5");
	CHECK(f.worst[FAIL_SITE].have && !strcmp(f.names[FAIL_SITE][f.worst[FAIL_SITE].failure], "dc1") &&
		      f.worst[FAIL_SITE].stranded == 8 && f.worst[FAIL_SITE].top_stranded == 5,
	      "worst site: dc1, 8 replicas, 5 of the top priority");
	CHECK(fabs(f.worst[FAIL_SITE].stranded_gpu_eq - 8 * 0.12) < 1e-9, "GPU-equivalents %g",
	      f.worst[FAIL_SITE].stranded_gpu_eq);
	same_with_each_kind(&f, &cp, 0);
	for (i = 0; i < 3; i++)
		CHECK(cp.nodes[i].gpu_used[0] == used[i] && cp.nodes[i].cpu_used < 64, "node %zu unchanged", i);
	failures_release(&f);
	cplan_release(&cp);
	fixture_release(&fx);
}

/* Free slots on a node without the CPU a replica asks do not take it. */
static void test_cpu_room(void)
{
	struct fixture fx;
	struct cplan cp;
	struct failures f;
	int hi, lo;

	/* lo asks 20 cores: b-000 holds 3 (60 of 64), so losing a-000 places hi on b-000 (1 core) 4 times */
	if (build(&fx, &cp, 20, &hi, &lo))
		return;
	failures_analyse(&f, &cp, 0, 0);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "a-000", "hi", 5, 4);
	/* losing b-000: 3 lo of 20 cores onto a-000 (5 cores used): 2 free slots, room for both */
	expect_fail_row(&f, &fx.p, FAIL_NODE, "b-000", "lo", 3, 2);
	/* losing c-000: 4 hi onto a-000 (2) and b-000 (2, 62 cores); lo finds no core left: 3 stranded */
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "hi", 4, 4);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "c-000", "lo", 3, 0);
	failures_release(&f);
	cplan_release(&cp);
	fixture_release(&fx);
}

/*
 * A GPU's loss (kind gpu): one node of two GPUs, 48 cores; hi asks 1
 * core, lo 10.  GPU 0: 5 hi, 2 lo; GPU 1: 2 lo, 5 free (45 cores used).
 * Losing gpu 0 places its 5 hi on GPU 1's free slots, which takes the 25
 * cores its replicas held given back (else 3 would fit); its 2 lo find
 * none left.  Losing gpu 1 strands its 2 lo: its own free slots went
 * with it.  The node and site rows stay as without the GPUs.  Both GPUs
 * lost at once (a set, as a resilience count of 2 reports its worst)
 * strand all 9, each replica counted once.
 */
static void test_gpu(void)
{
	struct fixture fx;
	struct cplan cp;
	struct failures f;
	struct fail_domains dm;
	struct diag d = DIAG_INIT;
	int hi, lo, rc;

	rc = fixture_build(&fx, FIXTURE_SC_TEXT("failures"),
			   INV_HEADER "g,1,H100-SXM5-80GB,2,baremetal,dc1,48,512,owned,,,,\n",
			   WL_HEADER "hi,t,5,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig,5\n"
				     "lo,t,4,0,9.5,0.12,hardware,false,10,8,H100-SXM5-80GB,mig,1\n",
			   0);
	if (rc)
		return;
	hi = demand_named(&fx.p, "hi");
	lo = demand_named(&fx.p, "lo");
	cplan_init(&cp, &fx.p);
	fill_node(&cp, 0, hi, 5, lo, 4);
	CHECK(verify_plan(&cp, &d) == 0, "the hand-built plan verifies: %s", d.msg ? d.msg : "");
	diag_release(&d);
	fail_domains_build(&dm, &cp, FAIL_GPU);
	CHECK(dm.n == 2 && !strcmp(dm.names[0], "g-000/gpu 0") && !strcmp(dm.names[1], "g-000/gpu 1") &&
		      dm.by[1] == 0 && dm.gpu[1] == 1,
	      "gpu domains: %zu", dm.n);
	fail_domains_release(&dm);
	failures_analyse(&f, &cp, 1, 0);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 0", "hi", 5, 5);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 0", "lo", 2, 0);
	expect_fail_row(&f, &fx.p, FAIL_GPU, "g-000/gpu 1", "lo", 2, 0);
	expect_fail_row(&f, &fx.p, FAIL_NODE, "g-000", "hi", 5, 0);
	CHECK(f.nrows == 7 && f.by_gpu, "%zu rows", f.nrows);
	CHECK(f.worst[FAIL_GPU].have && !strcmp(f.names[FAIL_GPU][f.worst[FAIL_GPU].failure], "g-000/gpu 0"),
	      "worst gpu: gpu 0 (it strands priority 1 as gpu 1 does, and comes first)");
	CHECK(cp.nodes[0].cpu_used == 45 && cp.nodes[0].gpu_used[1] == 2, "the plan is unchanged");
	same_with_each_kind(&f, &cp, 1);
	{
		/* both GPUs at once (a resilience count of 2): every replica lost once, none placed again */
		static const size_t nodes[] = { 0, 0 };
		static const int gpus[] = { 0, 1 };
		size_t before = f.nrows;
		failures_add_set(&f, &cp, &(struct fail_set){ FAIL_GPU_SET, "g-000/gpu 0+g-000/gpu 1", nodes, gpus, 2, 0 });
		expect_fail_row(&f, &fx.p, FAIL_GPU_SET, "g-000/gpu 0+g-000/gpu 1", "hi", 5, 0);
		expect_fail_row(&f, &fx.p, FAIL_GPU_SET, "g-000/gpu 0+g-000/gpu 1", "lo", 4, 0);
		CHECK(f.nrows == before + 2 && f.rows[before].kind == FAIL_GPU_SET && f.worst[FAIL_GPU_SET].have &&
			      f.worst[FAIL_GPU_SET].stranded == 9 && !strcmp(fail_kind_name(FAIL_GPU_SET), "gpu-set"),
		      "gpu-set rows: %zu", f.nrows - before);
		CHECK(f.worst[FAIL_GPU].have && !strcmp(f.names[FAIL_GPU][f.worst[FAIL_GPU].failure], "g-000/gpu 0"),
		      "the single GPUs' worst is kept");
		rows_by_kind(&f);
		CHECK(cp.nodes[0].cpu_used == 45 && cp.nodes[0].gpu_used[1] == 2, "the plan is unchanged by the set");
	}
	failures_release(&f);
	cplan_release(&cp);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_failures"))
		return 1;
	test_replace();
	test_cpu_room();
	test_gpu();
	fixture_teardown();
	return check_done();
}
