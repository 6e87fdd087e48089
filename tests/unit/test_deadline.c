/*
 * test_deadline.c - the run-level deadline (base/deadline.h) on a clock
 * the test moves by hand: time left, expiry, no limit, and the poll
 * hook the golden cases use.  Nothing here reads the real clock.
 */
#include <math.h>

#include "check.h"
#include "deadline.h"

static double fake_now;

static double fake_clock(void)
{
	return fake_now;
}

static void test_limit(void)
{
	struct deadline dl;

	fake_now = 100;
	deadline_start(&dl);
	CHECK(isinf(deadline_left(&dl)), "no limit: %g left", deadline_left(&dl));
	CHECK(!deadline_passed(&dl), "no limit never passes");
	dl.limit_s = 10;
	fake_now = 104;
	CHECK(fabs(deadline_elapsed(&dl) - 4) < 1e-12, "elapsed %g", deadline_elapsed(&dl));
	CHECK(fabs(deadline_left(&dl) - 6) < 1e-12, "left %g", deadline_left(&dl));
	CHECK(!deadline_passed(&dl), "4 s of 10");
	fake_now = 110;
	CHECK(deadline_left(&dl) == 0, "left at the limit %g", deadline_left(&dl));
	CHECK(deadline_passed(&dl), "at the limit");
	fake_now = 130;
	CHECK(deadline_left(&dl) == 0, "never below 0: %g", deadline_left(&dl));
	CHECK(deadline_passed(NULL) == 0, "no deadline");
}

static void test_poll_hook(void)
{
	struct deadline dl;
	int i, passed = 0;

	fake_now = 0;
	deadline_start(&dl);
	dl.expire_polls = 3;	/* whatever the clock says: polls 1..3 pass, the 4th expires */
	for (i = 0; i < 3; i++)
		passed += deadline_passed(&dl);
	CHECK(passed == 0, "%d of the first 3 polls passed", passed);
	CHECK(isinf(deadline_left(&dl)), "no limit before the hook expires");
	CHECK(deadline_passed(&dl), "the 4th poll");
	CHECK(deadline_left(&dl) == 0, "nothing left once the hook expired");
	CHECK(deadline_passed(&dl), "and it stays expired");
}

int main(void)
{
	deadline_set_clock(fake_clock);
	test_limit();
	test_poll_hook();
	deadline_set_clock(NULL);
	return check_done();
}
