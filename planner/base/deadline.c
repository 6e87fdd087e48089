/*
 * deadline.c - the run-level deadline (deadline.h).
 */
#include <math.h>

#include "deadline.h"
#include "util.h"
#include "banned.h"

static double (*deadline_clock)(void);

double deadline_now(void)
{
	return deadline_clock ? deadline_clock() : util_now_s();
}

void deadline_set_clock(double (*clock)(void))
{
	deadline_clock = clock;
}

void deadline_start(struct deadline *dl)
{
	dl->start = deadline_now();
	dl->limit_s = HUGE_VAL;
	dl->polls = 0;
	dl->expire_polls = -1;
}

double deadline_elapsed(const struct deadline *dl)
{
	return deadline_now() - dl->start;
}

double deadline_left(const struct deadline *dl)
{
	if (dl->expire_polls >= 0 && dl->polls > dl->expire_polls)
		return 0;
	if (isinf(dl->limit_s))
		return HUGE_VAL;
	return fmax(0, dl->limit_s - deadline_elapsed(dl));
}

int deadline_passed(struct deadline *dl)
{
	if (!dl)
		return 0;
	dl->polls++;
	if (dl->expire_polls >= 0)
		return dl->polls > dl->expire_polls;
	return !isinf(dl->limit_s) && deadline_elapsed(dl) >= dl->limit_s;
}
