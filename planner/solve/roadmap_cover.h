/*
 * roadmap_cover.h - the cheapest cover of a need per period by
 * commitments (each covers a run of consecutive periods, any number of
 * units, at a fixed price a unit) and per-period fallbacks (at most a
 * capacity a period, at a price a unit): cloud reservations over rented
 * nodes, licence terms over licensed GPUs.  Private to solve/.
 *
 * The covering rows of a need per period by runs of periods form an
 * interval matrix; subtracting each row from the next turns them into the
 * flow conservation rows of a path 0..T (a run s..e is an arc s -> e+1, a
 * fallback of period t an arc t -> t+1, surplus cover an arc t+1 -> t at
 * no cost), so a minimum-cost flow solves it exactly and in whole units.
 */
#ifndef PLANNER_ROADMAP_COVER_H
#define PLANNER_ROADMAP_COVER_H

#include <stddef.h>

/* One commitment: covers periods start .. start + len - 1 (cut at the horizon), cost a unit. */
struct cover_opt {
	size_t start, len;
	double cost;
};

/* A fallback: at most cap[t] units in period t, at cost[t] a unit. */
struct cover_tier {
	const long *cap;
	const double *cost;
};

struct cover {
	size_t T;			/* periods */
	const long *need;		/* per period, >= 0 */
	size_t nopt;
	const struct cover_opt *opt;
	size_t ntier;
	const struct cover_tier *tier;
};

/*
 * The cheapest cover of cv: units of each option into x[nopt], of each
 * fallback per period into y[ntier * T] (tier-major).  Ties go to the
 * option listed first.  0, or -1 when the options and fallbacks cannot
 * cover the need.
 */
int cover_solve(const struct cover *cv, long *x, long *y);

#endif
