/*
 * forecast.h - a roadmap's demand: how many replicas of each workload
 * every period asks (docs/formats.md, "Forecast CSV").
 *
 * Built from the scenario's roadmap: block (period kind, start, length,
 * growth rates) and an optional forecast CSV with the columns period,
 * workload, replicas.  A row sets the workload's replicas from its
 * period on, until the workload's next row; a workload the file names
 * has 0 replicas before its first row; one it never names keeps its
 * `replicas`, grown by its growth_by_workload rate, else growth_per_year: round-half-up(replicas x
 * (1 + g)^(t / periods a year)) in period t (0 = start).
 *
 * Ownership: the forecast owns its arrays; forecast_release frees them.
 */
#ifndef PLANNER_FORECAST_H
#define PLANNER_FORECAST_H

#include <stddef.h>

#include "diag.h"
#include "period.h"
#include "scenario.h"

#define FORECAST_MAX_REPLICAS 1000000L

struct forecast {
	char *source;		/* the CSV as given, or NULL: growth rates only */
	enum period_kind kind;
	long start;		/* period index of period 0 */
	size_t nperiods;
	size_t nw;		/* the scenario's workloads, in file order */
	long *replicas;		/* [t * nw + w] */
	unsigned char *named;	/* per workload: the CSV names it */
};
#define FORECAST_INIT { NULL, PERIOD_QUARTER, 0, 0, 0, NULL, NULL }

/*
 * The forecast of sc from path (NULL: the roadmap block's forecast, if
 * any).  Errors are DIAG_INPUT at FILE:LINE:COL (COL the field number):
 * a period that is not one of the roadmap's kind, rows out of period
 * order, a period before the start or after the last period, an unknown
 * workload (with the closest names), two rows of one workload and
 * period, replicas outside 0..FORECAST_MAX_REPLICAS; DIAG_USAGE when
 * neither a start nor a forecast says when the roadmap begins.
 */
int forecast_build(struct forecast *fc, const struct scenario *sc, const char *path, struct diag *d);
void forecast_release(struct forecast *fc);

/* Replicas of workload w in period t. */
long forecast_at(const struct forecast *fc, size_t t, size_t w);

#endif
