/*
 * test_budget.c - the time limit's budget (solve/plan.h): the reserve for
 * the failure analysis and the reports, what the solver is left, and the
 * form of the overrun warning.  Arithmetic only: no clock is read.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "plan.h"

static void test_reserve(void)
{
	double small = plan_reserve_s(0, 0), l = plan_reserve_s(20000, 8000), big = plan_reserve_s(1e6, 2e5);

	CHECK(small > 0 && small < 0.5, "an empty plan still keeps a floor, and a small one: %g", small);
	CHECK(l > small && big > l, "grows with the plan: %g %g %g", small, l, big);
	CHECK(plan_reserve_s(2e5, 0) > plan_reserve_s(1e5, 0), "with the replicas");
	CHECK(plan_reserve_s(1e5, 2e4) > plan_reserve_s(1e5, 1e4), "with the GPUs");
	CHECK(fabs((plan_reserve_s(2e6, 0) - small) - 2 * (plan_reserve_s(1e6, 0) - small)) < 1e-9,
	      "linear in the replicas");
	CHECK(plan_reserve_s(-5, -5) == small, "negative sizes count as none");
	CHECK(plan_reserve_s(3, 7) == plan_reserve_s(3, 7), "deterministic");
}

static void test_wall_per_cpu(void)
{
	CHECK(plan_wall_per_cpu(6, 2) == 3, "a third of a processor: 3 wall seconds a CPU second");
	CHECK(plan_wall_per_cpu(2, 2) == 1, "a whole one: 1");
	CHECK(plan_wall_per_cpu(1, 2) == 1, "never below 1 (threads, or a coarse clock)");
	CHECK(plan_wall_per_cpu(5, 0) == 1, "no CPU time yet: 1");
}

static void test_search(void)
{
	CHECK(fabs(plan_search_s(10, 1, 0.5, 2) - 5.5) < 1e-12, "10 - 1 - 3 x 0.5 - 2: %g", plan_search_s(10, 1, 0.5, 2));
	CHECK(plan_search_s(3, 1, 0.5, 2) == 0, "never below 0: %g", plan_search_s(3, 1, 0.5, 2));
	CHECK(plan_search_s(0, 0, 0, 0) == 0, "nothing left");
	CHECK(isinf(plan_search_s(HUGE_VAL, 1, 1, 1)), "no limit stays none");
}

static void test_overrun(void)
{
	char *m;

	CHECK(!plan_overrun_msg(5.9, 5, 0.1, 4), "within 1 s of a 5 s limit: no warning");
	CHECK(!plan_overrun_msg(10.9, 10, 0.1, 4), "within 1 s of 10 s");
	CHECK(!plan_overrun_msg(109, 100, 0.1, 4), "within 10 %% of 100 s");
	CHECK(!plan_overrun_msg(1000, -1, 0.1, 4), "no limit: no warning");
	m = plan_overrun_msg(17.25, 5, 0.05, 6.2);
	CHECK_STR(m, "the run took 17.25 s, past --time-limit 5 s by 12.25 s (more than max(1 s, 10%)): "
		     "reading 0.05 s, planning 6.15 s, writing 11.05 s (docs/benchmarks.md, Time limit overrun)",
		  "the documented form (docs/commands.md, Signals and time limits)");
	free(m);
	m = plan_overrun_msg(111, 100, 1, 50);
	CHECK(m != NULL, "past 10 %% of 100 s");
	free(m);
}

int main(void)
{
	test_reserve();
	test_wall_per_cpu();
	test_search();
	test_overrun();
	return check_done();
}
