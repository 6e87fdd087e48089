/*
 * sweep.h - a sweep: one or more options (scenario files) planned again
 * and again under changed inputs, from a sweep spec (gpuplan-sweep/1,
 * docs/sweep.md).
 *
 * sweep_spec_load reads the spec strictly (unknown fields and duplicate
 * keys are errors, FILE:LINE:COL).  The cases are numbered 0..N-1 and
 * each is computed on its own from the spec and its number
 * (sweep_case_values), so any process can run any case and get the same
 * values: a grid case from its mixed-radix digits, a one-at-a-time case
 * from its parameter and step, a Monte Carlo case from splitmix64 (rng.h)
 * seeded per parameter and case.  sweep_apply changes a loaded scenario
 * by a case's values.
 *
 * Ownership: the spec owns its strings and arrays; sweep_spec_release
 * frees them.
 */
#ifndef PLANNER_SWEEP_H
#define PLANNER_SWEEP_H

#include <stddef.h>

#include "diag.h"
#include "forecast.h"
#include "scenario.h"

#define SWEEP_SCHEMA "gpuplan-sweep/1"
#define SWEEP_MAX_CASES 100000	/* cases of one sweep */
#define SWEEP_MAX_OPTIONS 64	/* scenarios of one sweep */
/*
 * What the sweep functions that run long (expand, run) return when a
 * SIGINT or SIGTERM stopped them (interrupt.h): nothing more to say, the
 * command exits 128 + the signal.
 */
#define SWEEP_INTERRUPTED (-2)

/* What a parameter changes (sweep_apply says how). */
enum sweep_param_id {
	SP_HORIZON_YEARS,	/* horizon_years, set */
	SP_DEMAND_SCALE,	/* every workload's replicas, multiplied */
	SP_DEMAND_GROWTH,	/* yearly growth g: replicas x (1 + g)^horizon */
	SP_CAPEX_SCALE,		/* capex_usd of the rows to buy, multiplied */
	SP_CLOUD_PRICE_SCALE,	/* hourly_usd of the rented rows, multiplied */
	SP_LICENSE_PRICE_SCALE,	/* every licence price, multiplied */
	SP_ENERGY_USD_PER_KWH,	/* energy.usd_per_kwh, set */
	SP_FORECAST_SCALE,	/* run: roadmap: every period's replicas of the forecast, multiplied */
	SP_FORECAST_GROWTH,	/* run: roadmap: growth g a year on top: period t's replicas x (1 + g)^(t / periods a year) */
	SP_COUNT
};
/* The parameter's name in a spec ("demand_growth"). */
const char *sweep_param_name(enum sweep_param_id id);

enum sweep_design { SWEEP_GRID, SWEEP_ONE_AT_A_TIME, SWEEP_MONTE_CARLO };
const char *sweep_design_name(enum sweep_design d);	/* "grid", "one-at-a-time", "monte-carlo" */

/* How a parameter's values are given. */
enum sweep_dist {
	DIST_VALUES,		/* a list, or a range from..to in steps (values[]) */
	DIST_UNIFORM,		/* a = min, b = max */
	DIST_NORMAL,		/* a = mean, b = sd */
	DIST_TRIANGULAR,	/* a = min, b = mode, c = max */
	DIST_LOGNORMAL,		/* a = mu, b = sigma of the underlying normal */
};
const char *sweep_dist_name(enum sweep_dist d);

struct sweep_param {
	enum sweep_param_id id;
	enum sweep_dist dist;
	double *values;		/* DIST_VALUES: the values in the order given */
	size_t nvalues;
	double a, b, c;		/* the distribution's figures (above) */
	double lo, hi;		/* draws outside [lo, hi] are drawn again (the parameter's range by default) */
	double base;		/* one-at-a-time: the value of the other cases; NAN: each option's own */
	unsigned long long seed;	/* Monte Carlo: this parameter's seed */
	long line;		/* in the spec */
};

struct sweep_spec {
	char *file;		/* path as given */
	char *name;
	size_t noptions;
	char **options;		/* the scenario files, resolved against the spec's directory */
	enum sweep_design design;
	long samples;		/* Monte Carlo: cases */
	unsigned long long seed;	/* Monte Carlo: the spec's seed */
	size_t nparams;
	struct sweep_param *params;	/* in the spec's order, each id at most once */
	int greedy;		/* solver.greedy: plan each case greedily (the default) */
	int roadmap;		/* run: roadmap: each option of a case is a roadmap over its forecast, not a plan */
	double time_limit_s;	/* solver.time_limit_s; < 0: each scenario's */
	double mip_gap;		/* a fraction: solver.gap_pct / 100 (or mip_gap); < 0: each scenario's */
	long node_limit;	/* solver.node_limit; < 0: each scenario's */
	unsigned long long digest;	/* FNV-1a of the spec's bytes: results of another spec are not mixed in */
};

/* Reads and checks path (DIAG_INPUT / DIAG_IO on failure, spec released). */
int sweep_spec_load(struct sweep_spec *s, const char *path, struct diag *d);
void sweep_spec_release(struct sweep_spec *s);

/* The number of cases: grid the product of the value counts, one-at-a-time 1 + their sum, Monte Carlo samples. */
size_t sweep_ncases(const struct sweep_spec *s);
/*
 * Case i's value of every parameter into values[0..nparams) (NAN: the
 * option's own value, one-at-a-time only).  One-at-a-time case 0 has
 * every parameter at its base; then each parameter's values in turn.
 */
void sweep_case_values(const struct sweep_spec *s, size_t i, double *values);
/*
 * The parameter a one-at-a-time case varies (its index), or -1 for case 0
 * and for the other designs.
 */
int sweep_case_varies(const struct sweep_spec *s, size_t i);
/* Case i's name, "case-0007" (4 digits, more when needed); caller frees. */
char *sweep_case_name(const struct sweep_spec *s, size_t i);
/*
 * Changes the loaded scenario sc by values (as sweep_case_values gives),
 * in this order: horizon, demand (replicas x scale x (1 + growth)^horizon,
 * rounded to the nearest whole replica, at least 1), capex, cloud and
 * licence prices, energy price.  Fails (DIAG_INPUT, naming the spec) when
 * a scaled replica count is over the workloads file's limit.
 */
int sweep_apply(struct scenario *sc, const struct sweep_spec *s, const double *values, struct diag *d);
/*
 * Changes a roadmap's forecast fc of sc by values: every period's
 * replicas x forecast_scale x (1 + forecast_growth)^(t / periods a year),
 * rounded half up (0 stays 0).  Fails (DIAG_INPUT, naming the spec) when
 * a count is over the forecast's limit.
 */
int sweep_apply_forecast(struct forecast *fc, const struct sweep_spec *s, const double *values, struct diag *d);

#endif
