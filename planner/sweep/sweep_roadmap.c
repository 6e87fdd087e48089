/*
 * sweep_roadmap.c - a sweep option run as a roadmap (sweep_roadmap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "forecast.h"
#include "roadmap.h"
#include "sweep_roadmap.h"
#include "util.h"
#include "banned.h"

/* The roadmap's totals into row, as compare_row_fill fills a plan's. */
static void roadmap_row(struct compare_row *row, const char *file, const struct roadmap_result *r)
{
	double sum = 0;
	size_t t;
	int q, f;

	memset(row, 0, sizeof(*row));
	row->scenario = xstrdup(r->sc->name);
	row->file = xstrdup(file);
	row->status = r->gap <= r->mip_gap + 1e-12 ? "optimal" : "feasible";
	row->gap = r->gap;
	row->horizon_years = (double)r->nperiods / r->ppy;
	row->total = r->cost_total;
	row->per_year = r->cost_total / row->horizon_years;
	for (t = 0; t < r->nperiods; t++) {
		const struct roadmap_period *rp = &r->per[t];
		long gpus = rp->owned_gpus + rp->bought_gpus;
		for (q = 0; q < CAT_COUNT; q++)
			row->cat[q] += rp->cat[q];
		for (f = 0; f < PRICING_COUNT; f++)
			gpus += rp->rented_gpus[f];
		row->placed += rp->placed;
		row->unplaced += rp->unplaced;
		if (gpus > row->gpus)
			row->gpus = gpus;
	}
	for (q = 0; q < CAT_COUNT; q++)
		sum += row->cat[q];
	row->cat[CAT_HARDWARE] += r->cost_total - sum; /* the write-off under residual: none */
}

int sweep_roadmap_row(struct compare_row *row, const struct scenario *sc, const struct sweep_spec *s, const double *v,
		      const struct plan_opts *po, struct diag *d)
{
	struct forecast fc = FORECAST_INIT;
	struct roadmap_result r;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	if (forecast_build(&fc, sc, NULL, d) || sweep_apply_forecast(&fc, s, v, d))
		goto out;
	if (roadmap_run(&r, sc, &fc, &(struct roadmap_opts){ *po }, d)) {
		roadmap_release(&r);
		goto out;
	}
	roadmap_row(row, sc->file, &r);
	roadmap_release(&r);
	rc = 0;
out:
	forecast_release(&fc);
	return rc;
}
