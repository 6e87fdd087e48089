/*
 * sweep_case.c - the cases of a sweep: their count, each case's values
 * (computed from the case number alone, so that any shard gets the same
 * ones), the draws of the Monte Carlo design, and a case applied to a
 * loaded scenario.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sweep.h"
#include "util.h"
#include "banned.h"

#define MAX_REPLICAS 1000000L	/* the workloads file's limit on replicas */
#define MAX_DRAWS 1000		/* draws of one value before the truncation gives up */

size_t sweep_ncases(const struct sweep_spec *s)
{
	size_t i, n;

	if (s->design == SWEEP_MONTE_CARLO)
		return (size_t)s->samples;
	n = 1;
	for (i = 0; i < s->nparams; i++)
		n = s->design == SWEEP_GRID ? n * s->params[i].nvalues : n + s->params[i].nvalues;
	return n;
}

/* A standard normal draw (Box-Muller, the cosine half). */
static double draw_normal(struct rng *r)
{
	double u1 = 1.0 - rng_unit(r);	/* (0, 1] */
	double u2 = rng_unit(r);
	return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* One draw of p's distribution, before truncation. */
static double draw_once(const struct sweep_param *p, struct rng *r)
{
	double u, f;

	switch (p->dist) {
	case DIST_VALUES:
		return p->values[rng_next(r) % p->nvalues];
	case DIST_UNIFORM:
		return p->a + (p->b - p->a) * rng_unit(r);
	case DIST_NORMAL:
		return p->a + p->b * draw_normal(r);
	case DIST_LOGNORMAL:
		return exp(p->a + p->b * draw_normal(r));
	case DIST_TRIANGULAR:	/* the inverse of the distribution function */
		u = rng_unit(r);
		f = (p->b - p->a) / (p->c - p->a);
		if (u < f)
			return p->a + sqrt(u * (p->c - p->a) * (p->b - p->a));
		return p->c - sqrt((1.0 - u) * (p->c - p->a) * (p->c - p->b));
	}
	return p->a;
}

/*
 * Case i's draw of p: splitmix64 seeded with mix(p's seed xor mix(i)),
 * drawn again while outside [lo, hi] (normal and lognormal; the other
 * forms never leave it); after MAX_DRAWS the nearest end.
 */
static double draw(const struct sweep_param *p, size_t i)
{
	struct rng r = { rng_mix(p->seed ^ rng_mix((unsigned long long)i)) };
	double x = p->lo;
	int k;

	for (k = 0; k < MAX_DRAWS; k++) {
		x = draw_once(p, &r);
		if (p->dist == DIST_VALUES || p->dist == DIST_UNIFORM || p->dist == DIST_TRIANGULAR)
			return x;
		if (x > p->lo && x < p->hi)	/* open: the ranges' open ends (0 for a scale) are never drawn */
			return x;
	}
	return x <= p->lo ? p->lo : p->hi;
}

int sweep_case_varies(const struct sweep_spec *s, size_t i)
{
	size_t k;

	if (s->design != SWEEP_ONE_AT_A_TIME || i == 0)
		return -1;
	i--;
	for (k = 0; k < s->nparams; k++) {
		if (i < s->params[k].nvalues)
			return (int)k;
		i -= s->params[k].nvalues;
	}
	return -1;
}

void sweep_case_values(const struct sweep_spec *s, size_t i, double *values)
{
	size_t k, rest = i;
	int var;

	switch (s->design) {
	case SWEEP_MONTE_CARLO:
		for (k = 0; k < s->nparams; k++)
			values[k] = draw(&s->params[k], i);
		return;
	case SWEEP_GRID:	/* mixed radix, the last parameter fastest */
		for (k = s->nparams; k-- > 0;) {
			values[k] = s->params[k].values[rest % s->params[k].nvalues];
			rest /= s->params[k].nvalues;
		}
		return;
	case SWEEP_ONE_AT_A_TIME:
		for (k = 0; k < s->nparams; k++)
			values[k] = s->params[k].base;
		var = sweep_case_varies(s, i);
		if (var < 0)
			return;
		rest = i - 1;
		for (k = 0; k < (size_t)var; k++)
			rest -= s->params[k].nvalues;
		values[var] = s->params[var].values[rest];
		return;
	}
}

char *sweep_case_name(const struct sweep_spec *s, size_t i)
{
	size_t n = sweep_ncases(s), w = 1;
	while (n > 9) {
		n /= 10;
		w++;
	}
	return xasprintf("case-%0*zu", (int)(w < 4 ? 4 : w), i);
}

/* Every licence price of the scenario, multiplied by f. */
static void scale_licences(struct scenario *sc, double f)
{
	size_t p, t;

	for (p = 0; p < LIC_COUNT; p++) {
		struct lic_product_def *def = &sc->licenses.product[p];
		for (t = 0; t < def->nterms; t++) {
			def->terms[t].usd_per_gpu *= f;
			def->terms[t].usd_per_gpu_hour *= f;
		}
		if (sc->licensing.usd_per_gpu_year[p] >= 0)
			sc->licensing.usd_per_gpu_year[p] *= f;
	}
	if (sc->licensing.support_usd_per_gpu_year >= 0)
		sc->licensing.support_usd_per_gpu_year *= f;
}

static int scale_demand(struct scenario *sc, const struct sweep_spec *s, double f, struct diag *d)
{
	size_t w;

	for (w = 0; w < sc->workloads.n; w++) {
		struct workload *wk = &sc->workloads.w[w];
		double r = floor((double)wk->replicas * f + 0.5);
		if (r > (double)MAX_REPLICAS)
			return diag_set(d, DIAG_INPUT, s->file, 0, 0,
					"workload '%s' of %s would have %.0f replicas, more than %ld", wk->name,
					sc->file, r, MAX_REPLICAS);
		wk->replicas = r < 1 ? 1 : (long)r;
	}
	return 0;
}

int sweep_apply_forecast(struct forecast *fc, const struct sweep_spec *s, const double *values, struct diag *d)
{
	double scale = 1, growth = 0;
	size_t k, t, w;
	int ppy = period_per_year(fc->kind);

	for (k = 0; k < s->nparams; k++) {
		if (s->params[k].id == SP_FORECAST_SCALE && !isnan(values[k]))
			scale = values[k];
		if (s->params[k].id == SP_FORECAST_GROWTH && !isnan(values[k]))
			growth = values[k];
	}
	for (t = 0; t < fc->nperiods && (scale != 1 || growth != 0); t++)
		for (w = 0; w < fc->nw; w++) {
			long *n = &fc->replicas[t * fc->nw + w];
			double r = floor((double)*n * scale * pow(1 + growth, (double)t / ppy) + 0.5);
			if (r > (double)FORECAST_MAX_REPLICAS)
				return diag_set(d, DIAG_INPUT, s->file, 0, 0,
						"the forecast would ask %.0f replicas of a workload in a period, more than %ld",
						r, FORECAST_MAX_REPLICAS);
			*n = (long)r;
		}
	return 0;
}

int sweep_apply(struct scenario *sc, const struct sweep_spec *s, const double *values, struct diag *d)
{
	double v[SP_COUNT], demand;
	size_t k;

	for (k = 0; k < SP_COUNT; k++)
		v[k] = NAN;
	for (k = 0; k < s->nparams; k++)
		v[s->params[k].id] = values[k];
	if (!isnan(v[SP_HORIZON_YEARS]))
		sc->horizon_years = v[SP_HORIZON_YEARS];
	demand = (isnan(v[SP_DEMAND_SCALE]) ? 1 : v[SP_DEMAND_SCALE]) *
		 (isnan(v[SP_DEMAND_GROWTH]) ? 1 : pow(1 + v[SP_DEMAND_GROWTH], sc->horizon_years));
	if (demand != 1 && scale_demand(sc, s, demand, d))
		return -1;
	for (k = 0; k < sc->inventory.n; k++) {
		struct node_class *nc = &sc->inventory.classes[k];
		if (nc->own == OWN_BUY && !isnan(v[SP_CAPEX_SCALE]))
			nc->capex_usd *= v[SP_CAPEX_SCALE];
		if (nc->own == OWN_RENT && !isnan(v[SP_CLOUD_PRICE_SCALE]))
			nc->hourly_usd *= v[SP_CLOUD_PRICE_SCALE];
	}
	if (!isnan(v[SP_LICENSE_PRICE_SCALE]))
		scale_licences(sc, v[SP_LICENSE_PRICE_SCALE]);
	if (!isnan(v[SP_ENERGY_USD_PER_KWH]))
		sc->energy_usd_per_kwh = v[SP_ENERGY_USD_PER_KWH];
	return 0;
}
