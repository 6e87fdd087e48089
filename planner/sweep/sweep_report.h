/*
 * sweep_report.h - the results of a sweep (docs/sweep.md): one JSON file
 * per case, written atomically by whichever process ran the case, and the
 * merged report over all cases.
 *
 * A case file holds the case's parameter values and, per option, the
 * figures the merge needs (cost over the horizon and per year, unplaced
 * replicas, rank), money rounded to cents: the merge reads only these
 * files, in case order, so its bytes do not depend on how many processes
 * ran the cases, on which machine, or in what order.
 *
 * Ownership: a case result owns its strings and arrays;
 * sweep_case_result_release frees them.
 */
#ifndef PLANNER_SWEEP_REPORT_H
#define PLANNER_SWEEP_REPORT_H

#include <stddef.h>

#include "compare.h"
#include "diag.h"
#include "report.h"
#include "sweep.h"

#define SWEEP_CASE_SCHEMA "gpuplan-sweep-case/1"
#define SWEEP_REPORT_SCHEMA_VERSION "2.0.0"

/* One option (scenario) planned in one case. */
struct sweep_option_result {
	char *scenario;		/* the scenario's name */
	char *status;		/* solver status */
	double total;		/* USD over the horizon, to the cent */
	double per_year;	/* USD per year, to the cent */
	long unplaced;		/* replicas */
	double gpu_eq_unplaced;	/* GPU-equivalents, to 4 decimals */
	int rank;		/* compare_rank's, 1 = best */
};

enum sweep_case_state { SWEEP_CASE_MISSING, SWEEP_CASE_FAILED, SWEEP_CASE_DONE };

struct sweep_case_result {
	enum sweep_case_state state;
	size_t index;
	char *name;		/* "case-0007" */
	double *values;		/* [nparams]; NAN: each option's own */
	char *error;		/* FAILED: the message */
	int exit_code;		/* FAILED: what gpuplan plan would exit with */
	size_t noptions;
	struct sweep_option_result *opt;	/* DONE: [noptions], in the spec's order */
};

/* Fills a DONE result of case index from the compare rows of its options (n = s->noptions). */
void sweep_result_fill(struct sweep_case_result *cr, const struct sweep_spec *s, size_t index,
		       const struct compare_row *rows);
/* Fills a FAILED result of case index with the message and exit code. */
void sweep_result_fail(struct sweep_case_result *cr, const struct sweep_spec *s, size_t index, const char *error,
		       int exit_code);
/* Writes DIR/NAME.json atomically (outfile.h); 0, or -1 with d set. */
int sweep_result_write(const char *dir, const struct sweep_case_result *cr, const struct sweep_spec *s,
		       struct diag *d);
/*
 * Reads DIR/NAME.json of case index into cr: 0 read (DONE or FAILED), 1
 * absent (cr MISSING), -1 unreadable or of another spec (d set: the
 * file and why).
 */
int sweep_result_read(const char *dir, const struct sweep_spec *s, size_t index, struct sweep_case_result *cr,
		      struct diag *d);
void sweep_case_result_release(struct sweep_case_result *cr);

/*
 * One option's figures over the cases done.  Which of them a report shows
 * follows the design (docs/sweep.md): one-at-a-time the base case and the
 * range; a grid the range, median and mean over its points and the share
 * of points where the option is cheapest; Monte Carlo the percentiles and
 * P(best), the cases being a random sample.
 */
struct sweep_option_stats {
	size_t cases;		/* done */
	size_t best;		/* cases where it ranks first (compare_rank) */
	size_t with_unplaced;	/* cases where it leaves replicas unplaced */
	double min, max, mean;	/* cost over the horizon, USD */
	double p5, p50, p95;	/* percentiles (p50: the median of a grid's points too) */
	double share_best;	/* best / cases */
	double best_lo, best_hi;	/* Monte Carlo: the 95 % Wilson interval of share_best */
	double base;		/* one-at-a-time: case 0's cost; NAN when case 0 is not done */
	int rank_at_base;	/* one-at-a-time: case 0's rank; 0 when case 0 is not done */
};

/* What one parameter does to one option's cost: a row of sensitivity.csv, a bar of a tornado. */
struct sweep_swing {
	size_t option, param;	/* indices into the spec's options and parameters */
	size_t cases;		/* the cases that tell about it */
	double value_low, value_high;
	double value_base;	/* one-at-a-time: the base value on the axis; NAN: each option's own */
	double cost_low, cost_high;	/* USD at value_low and value_high */
	double swing;		/* cost_high - cost_low, to the cent */
	double slope;		/* USD per unit, least squares */
	double correlation;	/* Pearson (grid, Monte Carlo) */
};

/* Where the cheapest option by cost changes along a parameter. */
struct sweep_flip {
	size_t param;
	double value;
	size_t below, above;	/* the options cheapest below and above it */
};

/* What the merge found, for the reports and the command's summary. */
struct sweep_merge_stats {
	size_t ncases, done, failed, missing;
	struct sweep_option_stats *opt;	/* [noptions] */
	struct sweep_swing *swing;	/* option by option, the largest |swing| first */
	size_t nswing;
	struct sweep_flip *flip;	/* parameter by parameter, by value */
	size_t nflip;
	int best_at_base;	/* one-at-a-time: the option ranked first in case 0; -1 when not done */
};

/*
 * Writes the merged report of cases[0..ncases) into dir: sweep.json
 * and/or (fmt) cases.csv, options.csv, sensitivity.csv and breakeven.csv,
 * and/or report.html (charts: html_sweep.c) (docs/sweep.md), all or
 * nothing; fills st (sweep_merge_stats_release
 * frees it).  0, or -1 with d set.
 */
int sweep_merge_write(const char *dir, enum report_format fmt, const struct sweep_spec *s,
		      const struct sweep_case_result *cases, struct sweep_merge_stats *st, struct diag *d);
void sweep_merge_stats_release(struct sweep_merge_stats *st);

/*
 * gpuplan sweep merge: reads every case's file from DIR/results
 * (sweep_result_read) and writes the merged report into dir
 * (sweep_merge_write).  The cases[0..sweep_ncases(s)), which the caller
 * frees with sweep_case_results_free, and st filled; or NULL with d set
 * (a result file unreadable or of another spec, a report not written).
 */
struct sweep_case_result *sweep_merge(const char *dir, enum report_format fmt, const struct sweep_spec *s,
				      struct sweep_merge_stats *st, struct diag *d);
/* Releases cases[0..n) and frees the array. */
void sweep_case_results_free(struct sweep_case_result *cases, size_t n);

#endif
