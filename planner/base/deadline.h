/*
 * deadline.h - the run-level deadline of --time-limit: one clock started
 * when the program starts (the monotonic clock), given a limit once the
 * scenario says what it is, and passed down to every phase of the run
 * (read, build, greedy, solve, deal, verify, write), which poll it.
 *
 * Tests make it deterministic two ways: deadline_set_clock replaces the
 * clock (unit tests), and expire_polls makes deadline_passed true from a
 * given poll on, whatever the clock says (the cli sets it from
 * GPUPLAN_TEST_DEADLINE_POLLS, for golden cases; docs/testing.md).
 */
#ifndef PLANNER_DEADLINE_H
#define PLANNER_DEADLINE_H

struct deadline {
	double start;		/* deadline_now() when the run started */
	double limit_s;		/* seconds from start; HUGE_VAL: none */
	long polls;		/* deadline_passed calls so far */
	long expire_polls;	/* test hook: passed once polls exceeds it; < 0: off */
};

/* Starts dl now, with no limit and no test hook. */
void deadline_start(struct deadline *dl);
/* The clock: seconds on the monotonic clock, or on the clock deadline_set_clock gave. */
double deadline_now(void);
/* Replaces the clock (unit tests); NULL: the monotonic clock again. */
void deadline_set_clock(double (*clock)(void));
/* Seconds since dl started. */
double deadline_elapsed(const struct deadline *dl);
/* Seconds left before dl's limit, >= 0 (HUGE_VAL: no limit); 0 once the test hook expired it. */
double deadline_left(const struct deadline *dl);
/* True when dl's limit has passed (counts a poll for the test hook); NULL: never. */
int deadline_passed(struct deadline *dl);

#endif
