/*
 * test_roadmap_cover.c - the minimum-cost cover (solve/roadmap_cover.h):
 * hand-worked rows (a staggered pair of terms, a peak left to the
 * fallback, a need the fallback cannot meet), then random small covers
 * against an exhaustive search over every option's units.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "roadmap_cover.h"

#define MAXT 6
#define MAXO 4

/* The cost of x (options) with the cheapest fallback per period, or HUGE_VAL when it cannot cover. */
static double cost_of(const struct cover *cv, const long *x)
{
	double c = 0;
	size_t t, j;

	for (j = 0; j < cv->nopt; j++)
		c += (double)x[j] * cv->opt[j].cost;
	for (t = 0; t < cv->T; t++) {
		long have = 0, short_;
		for (j = 0; j < cv->nopt; j++)
			if (cv->opt[j].start <= t && t < cv->opt[j].start + cv->opt[j].len)
				have += x[j];
		short_ = cv->need[t] - have;
		if (short_ <= 0)
			continue;
		if (!cv->ntier || cv->tier[0].cap[t] < short_)
			return HUGE_VAL;
		c += (double)short_ * cv->tier[0].cost[t];
	}
	return c;
}

/* The least cost over every x with units 0..max each. */
static double brute(const struct cover *cv, long max)
{
	long x[MAXO] = { 0 };
	double best = HUGE_VAL;
	size_t j;

	for (;;) {
		double c = cost_of(cv, x);
		if (c < best)
			best = c;
		for (j = 0; j < cv->nopt && ++x[j] > max; j++)
			x[j] = 0;
		if (j == cv->nopt)
			return best;
	}
}

static double solved(const struct cover *cv, int *rc)
{
	long x[32], y[32];	/* the largest cover of the tests */
	double c = 0;
	size_t j, t;

	*rc = cover_solve(cv, x, y);
	for (j = 0; j < cv->nopt; j++)
		c += (double)x[j] * cv->opt[j].cost;
	for (t = 0; cv->ntier && t < cv->T; t++)
		c += (double)y[t] * cv->tier[0].cost[t];
	return *rc ? HUGE_VAL : c;
}

static void test_rows(void)
{
	/* need 1,2,3,2,2,1,1,1 as roadmap-commit, with a 3-year (12) term at 214,420 and a 1-year (4) at 113,819 */
	static const long need[8] = { 1, 2, 3, 2, 2, 1, 1, 1 };
	long cap[8];
	double od[8];
	struct cover_opt opt[16];
	struct cover_tier tier = { cap, od };
	long x[16], y[8];
	size_t t, n = 0;
	int rc;

	for (t = 0; t < 8; t++) {
		cap[t] = need[t];
		od[t] = 48087.23598;
		opt[n++] = (struct cover_opt){ t, 12, 214420 };
		opt[n++] = (struct cover_opt){ t, 4, 113819 };
	}
	rc = cover_solve(&(struct cover){ 8, need, n, opt, 1, &tier }, x, y);
	CHECK(rc == 0, "roadmap-commit's cover");
	CHECK(x[0] == 1 && x[3] == 1, "3-year in period 0, 1-year in period 1: x0 %ld x3 %ld", x[0], x[3]);
	CHECK(y[2] == 1, "the peak in period 2 on the fallback: %ld", y[2]);
	CHECK(fabs(solved(&(struct cover){ 8, need, n, opt, 1, &tier }, &rc) - 376326.23598) < 1e-6, "cost");
	/* no fallback, no option long enough: uncovered */
	CHECK(cover_solve(&(struct cover){ 8, need, 0, opt, 0, &tier }, x, y) == -1, "nothing covers");
}

static void test_random(void)
{
	unsigned seed = 12345;
	int k, rc;

	for (k = 0; k < 300; k++) {
		long need[MAXT], cap[MAXT];
		double cost[MAXT];
		struct cover_opt opt[MAXO];
		struct cover_tier tier = { cap, cost };
		size_t T = 1 + (seed = seed * 1103515245u + 12345u) % MAXT, nopt = 1 + (seed >> 8) % MAXO, t, j;
		struct cover cv;
		double a, b;
		for (t = 0; t < T; t++) {
			seed = seed * 1103515245u + 12345u;
			need[t] = (long)((seed >> 16) % 3);
			cap[t] = (seed >> 20) % 4 ? need[t] : need[t] / 2;
			cost[t] = 1 + (double)((seed >> 24) % 7);
		}
		for (j = 0; j < nopt; j++) {
			seed = seed * 1103515245u + 12345u;
			opt[j] = (struct cover_opt){ (seed >> 16) % T, 1 + (seed >> 20) % T, 1 + (double)((seed >> 24) % 13) };
		}
		cv = (struct cover){ T, need, nopt, opt, 1, &tier };
		a = solved(&cv, &rc);
		b = brute(&cv, 4);
		CHECK((isinf(a) && isinf(b)) || fabs(a - b) < 1e-9, "random cover %d: flow %g, exhaustive %g", k, a, b);
	}
}

int main(void)
{
	test_rows();
	test_random();
	return check_done();
}
