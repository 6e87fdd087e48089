/*
 * sweep_stats.c - the figures of a sweep's merged report, by design.
 *
 * The statistics follow how the cases were chosen.  A one-at-a-time sweep
 * picks its cases by hand around a base case: they are no sample, so it
 * gets the base case's cost, the range over the cases and a tornado (the
 * cost at each parameter's lowest and highest value, the base case
 * counted as a point of every parameter whose base value is known).  A
 * grid weighs every combination of the values given equally: its range,
 * median and mean describe the grid one chose, and where an option is
 * cheapest is counted in grid points, not as a chance.  Only Monte Carlo
 * cases are a random sample of the inputs: percentiles, P(best) and an
 * interval for P(best) belong to it alone.
 *
 * Every figure comes from the case files in case order, so the bytes do
 * not depend on how the cases were run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_stats.h"
#include "util.h"
#include "banned.h"

/* The working set: the spec, the cases and their number. */
struct st_in {
	const struct sweep_spec *s;
	const struct sweep_case_result *cases;
	size_t n;
};

double sweep_round(double v, int decimals)
{
	double f = pow(10, decimals);
	return round(v * f) / f;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The p-quantile of sorted x[0..n) (linear between order statistics, as numpy's default). */
static double quantile(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

/*
 * The value that leaves a scenario as it is, for the parameters that have
 * one: a scale of 1, a growth of 0.  A one-at-a-time base given as "each
 * option's own" is that value on the parameter's axis; the parameters that
 * set a value (horizon, energy price) have none (NAN).
 */
static double neutral_value(enum sweep_param_id id)
{
	switch (id) {
	case SP_DEMAND_SCALE:
	case SP_CAPEX_SCALE:
	case SP_CLOUD_PRICE_SCALE:
	case SP_LICENSE_PRICE_SCALE:
		return 1;
	case SP_DEMAND_GROWTH:
		return 0;
	default:
		return NAN;
	}
}

/* One-at-a-time: parameter k's base value on its axis, or NAN when each option has its own. */
static double base_value(const struct sweep_spec *s, size_t k)
{
	return isnan(s->params[k].base) ? neutral_value(s->params[k].id) : s->params[k].base;
}

/*
 * Whether case i tells about parameter k, and at which value *x: in a
 * one-at-a-time design the cases varying it and the base case (when the
 * base value is known), else every case done.
 */
static int point(const struct st_in *m, size_t i, size_t k, double *x)
{
	const struct sweep_case_result *c = &m->cases[i];
	if (c->state != SWEEP_CASE_DONE)
		return 0;
	if (m->s->design == SWEEP_ONE_AT_A_TIME) {
		int v = sweep_case_varies(m->s, i);
		if (v == (int)k)
			*x = c->values[k];
		else if (i == 0)
			*x = base_value(m->s, k);
		else
			return 0;
	} else {
		*x = c->values[k];
	}
	return !isnan(*x);
}

/* ================= options ================= */

/* The 95 % Wilson score interval of a share k/n (Wilson, JASA 1927): sound near 0 and 1 and for small n. */
static void wilson(size_t k, size_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p = (double)k / (double)n, z2n = z * z / (double)n;
	double mid = (p + z2n / 2) / (1 + z2n);
	double half = z / (1 + z2n) * sqrt(p * (1 - p) / (double)n + z2n / (4 * (double)n));
	*lo = fmax(0, mid - half);
	*hi = fmin(1, mid + half);
}

static void option_stats(const struct st_in *m, size_t k, double *x, struct sweep_option_stats *o)
{
	double sum = 0;
	size_t i, nx = 0;

	memset(o, 0, sizeof(*o));
	o->base = NAN;
	for (i = 0; i < m->n; i++) {
		const struct sweep_option_result *r = &m->cases[i].opt[k];
		if (m->cases[i].state != SWEEP_CASE_DONE)
			continue;
		x[nx++] = r->total;
		sum += r->total;
		o->best += r->rank == 1;
		o->with_unplaced += r->unplaced > 0;
		if (i == 0) {
			o->base = r->total;
			o->rank_at_base = r->rank;
		}
	}
	o->cases = nx;
	if (!nx)
		return;
	qsort(x, nx, sizeof(*x), cmp_double);
	o->mean = sum / (double)nx;
	o->min = x[0];
	o->max = x[nx - 1];
	o->p5 = quantile(x, nx, 0.05);
	o->p50 = quantile(x, nx, 0.50);
	o->p95 = quantile(x, nx, 0.95);
	o->share_best = (double)o->best / (double)nx;
	wilson(o->best, nx, &o->best_lo, &o->best_hi);
}

/* ================= sensitivity ================= */

/* Least squares of option o's cost on parameter k: the points' count, means, sums of squares, ends. */
struct fit {
	size_t n;
	double mx, my, sxx, sxy, syy;
	double lo, hi;		/* smallest and largest value */
};

static void fit_cases(const struct st_in *m, size_t k, size_t o, struct fit *f)
{
	size_t i;
	double x;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < m->n; i++)
		if (point(m, i, k, &x)) {
			f->lo = f->n && f->lo < x ? f->lo : x;
			f->hi = f->n && f->hi > x ? f->hi : x;
			f->n++;
			f->mx += x;
			f->my += m->cases[i].opt[o].total;
		}
	if (!f->n)
		return;
	f->mx /= (double)f->n;
	f->my /= (double)f->n;
	for (i = 0; i < m->n; i++)
		if (point(m, i, k, &x)) {
			double dx = x - f->mx, dy = m->cases[i].opt[o].total - f->my;
			f->sxx += dx * dx;
			f->sxy += dx * dy;
			f->syy += dy * dy;
		}
}

static double fit_slope(const struct fit *f)
{
	return f->sxx > 0 ? f->sxy / f->sxx : 0;
}

/* The mean cost of option o over the points of parameter k at value v. */
static double mean_at(const struct st_in *m, size_t k, size_t o, double v)
{
	double sum = 0, x;
	size_t i, n = 0;
	for (i = 0; i < m->n; i++)
		if (point(m, i, k, &x) && x == v) {
			sum += m->cases[i].opt[o].total;
			n++;
		}
	return n ? sum / (double)n : 0;
}

/* Option o's cost at v for parameter k: the least-squares line (Monte Carlo), else the mean over the points at v. */
static double cost_at(const struct st_in *m, size_t k, size_t o, const struct fit *f, double v)
{
	if (m->s->design == SWEEP_MONTE_CARLO)
		return f->my + fit_slope(f) * (v - f->mx);
	return mean_at(m, k, o, v);
}

/* Parameter k's effect on option o into w; 0 when no case tells about it. */
static int swing_of(const struct st_in *m, size_t k, size_t o, double *x, struct sweep_swing *w)
{
	struct fit f;
	size_t i, nx = 0;

	fit_cases(m, k, o, &f);
	if (!f.n)
		return 0;
	memset(w, 0, sizeof(*w));
	w->option = o;
	w->param = k;
	w->cases = f.n;
	w->value_low = f.lo;
	w->value_high = f.hi;
	w->value_base = m->s->design == SWEEP_ONE_AT_A_TIME ? base_value(m->s, k) : NAN;
	if (m->s->design == SWEEP_MONTE_CARLO) {	/* the 5th and 95th percentiles of the values drawn */
		for (i = 0; i < m->n; i++)
			if (point(m, i, k, &x[nx]))
				nx++;
		qsort(x, nx, sizeof(*x), cmp_double);
		w->value_low = quantile(x, nx, 0.05);
		w->value_high = quantile(x, nx, 0.95);
	}
	w->cost_low = cost_at(m, k, o, &f, w->value_low);
	w->cost_high = cost_at(m, k, o, &f, w->value_high);
	w->swing = sweep_round(w->cost_high - w->cost_low, 2);
	w->slope = fit_slope(&f);
	w->correlation = f.sxx > 0 && f.syy > 0 ? f.sxy / sqrt(f.sxx * f.syy) : 0;
	return 1;
}

/* Tornado order: option by option, the largest |swing| first, then the spec's parameter order. */
static int by_swing(const void *a, const void *b)
{
	const struct sweep_swing *x = a, *y = b;
	double sx = fabs(x->swing), sy = fabs(y->swing);
	if (x->option != y->option)
		return x->option < y->option ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x->param < y->param ? -1 : x->param > y->param;
}

static void swings(const struct st_in *m, struct sweep_merge_stats *st)
{
	double *x = xcalloc(m->n + 1, sizeof(*x));
	size_t k, o;

	st->swing = xcalloc(m->s->nparams * m->s->noptions + 1, sizeof(*st->swing));
	for (o = 0; o < m->s->noptions; o++)
		for (k = 0; k < m->s->nparams; k++)
			st->nswing += (size_t)swing_of(m, k, o, x, &st->swing[st->nswing]);
	qsort(st->swing, st->nswing, sizeof(*st->swing), by_swing);
	free(x);
}

/* ================= break-even ================= */

/* The cheapest option at v for parameter k (the first on a tie). */
static size_t cheapest_at(const struct st_in *m, size_t k, const struct fit *f, double v)
{
	size_t o, best = 0;
	double bc = cost_at(m, k, 0, &f[0], v);
	for (o = 1; o < m->s->noptions; o++) {
		double c = cost_at(m, k, o, &f[o], v);
		if (c < bc) {
			bc = c;
			best = o;
		}
	}
	return best;
}

static void add_flip(struct sweep_merge_stats *st, size_t k, double v, size_t a, size_t b)
{
	st->flip = xrealloc(st->flip, (st->nflip + 1) * sizeof(*st->flip));
	st->flip[st->nflip].param = k;
	st->flip[st->nflip].value = v;
	st->flip[st->nflip].below = a;
	st->flip[st->nflip++].above = b;
}

/*
 * The points where the cheapest option changes along parameter k: v
 * holds nv candidate points, sorted; between two the costs are linear
 * (the means at the values for grid and one-at-a-time, the fitted lines
 * for Monte Carlo, whose candidates are the lines' crossings), so the
 * change lies where the two options' costs cross.
 */
static void flips_walk(const struct st_in *m, struct sweep_merge_stats *st, size_t k, const struct fit *f,
		       const double *v, size_t nv)
{
	int mc = m->s->design == SWEEP_MONTE_CARLO;
	size_t j, a, b;

	for (j = 0; j + 1 < nv; j++) {
		double x0 = v[j], x1 = v[j + 1], d0, d1, x;
		a = cheapest_at(m, k, f, mc ? (x0 + x1) / 2 : x0);
		b = cheapest_at(m, k, f, mc && j + 2 < nv ? (x1 + v[j + 2]) / 2 : x1);
		if (a == b)
			continue;
		d0 = cost_at(m, k, a, &f[a], x0) - cost_at(m, k, b, &f[b], x0);
		d1 = cost_at(m, k, a, &f[a], x1) - cost_at(m, k, b, &f[b], x1);
		x = mc ? x1 : d1 != d0 ? x0 + (x1 - x0) * -d0 / (d1 - d0) : x1;
		add_flip(st, k, x, a, b);
	}
}

/* Monte Carlo candidates: the ends of the values seen and every crossing of two fitted lines between them. */
static size_t line_crossings(const struct st_in *m, const struct fit *f, double *v)
{
	size_t a, b, n = 0;
	v[n++] = f[0].lo;
	for (a = 0; a < m->s->noptions; a++)
		for (b = a + 1; b < m->s->noptions; b++) {
			double sa = fit_slope(&f[a]), sb = fit_slope(&f[b]), x;
			if (sa == sb)
				continue;
			x = f[a].mx + ((f[b].my - sb * (f[b].mx - f[a].mx)) - f[a].my) / (sa - sb);
			if (x > f[0].lo && x < f[0].hi)
				v[n++] = x;
		}
	v[n++] = f[0].hi;
	qsort(v, n, sizeof(*v), cmp_double);
	return n;
}

/* The values of parameter k at its points, sorted, each once; their number. */
static size_t distinct_values(const struct st_in *m, size_t k, double *v)
{
	size_t i, n = 0, j, u = 0;
	for (i = 0; i < m->n; i++)
		if (point(m, i, k, &v[n]))
			n++;
	qsort(v, n, sizeof(*v), cmp_double);
	for (j = 0; j < n; j++)
		if (!u || v[u - 1] != v[j])
			v[u++] = v[j];
	return u;
}

static void flips(const struct st_in *m, struct sweep_merge_stats *st)
{
	size_t no = m->s->noptions, k, o, nv;
	struct fit *f = xcalloc(no, sizeof(*f));
	double *v = xcalloc(m->n + no * no + 2, sizeof(*v));

	for (k = 0; k < m->s->nparams && no > 1; k++) {
		for (o = 0; o < no; o++)
			fit_cases(m, k, o, &f[o]);
		if (f[0].n < 2)
			continue;
		nv = m->s->design == SWEEP_MONTE_CARLO ? line_crossings(m, f, v) : distinct_values(m, k, v);
		flips_walk(m, st, k, f, v, nv);
	}
	free(v);
	free(f);
}

/* ================= the whole ================= */

void sweep_stats_compute(struct sweep_merge_stats *st, const struct sweep_spec *s,
			 const struct sweep_case_result *cases)
{
	struct st_in m = { s, cases, sweep_ncases(s) };
	double *x = xcalloc(m.n + 1, sizeof(*x));
	size_t i, k;

	memset(st, 0, sizeof(*st));
	st->ncases = m.n;
	st->best_at_base = -1;
	for (i = 0; i < m.n; i++) {
		st->done += cases[i].state == SWEEP_CASE_DONE;
		st->failed += cases[i].state == SWEEP_CASE_FAILED;
		st->missing += cases[i].state == SWEEP_CASE_MISSING;
	}
	st->opt = xcalloc(s->noptions, sizeof(*st->opt));
	for (k = 0; k < s->noptions; k++) {
		option_stats(&m, k, x, &st->opt[k]);
		if (s->design == SWEEP_ONE_AT_A_TIME && st->opt[k].rank_at_base == 1 && st->best_at_base < 0)
			st->best_at_base = (int)k;
	}
	free(x);
	swings(&m, st);
	flips(&m, st);
}

void sweep_merge_stats_release(struct sweep_merge_stats *st)
{
	free(st->opt);
	free(st->swing);
	free(st->flip);
	memset(st, 0, sizeof(*st));
}
