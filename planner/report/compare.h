/*
 * compare.h - several scenarios planned and lined up: compare.csv (one
 * row per scenario) and compare.json, written all or nothing.
 *
 * A row holds the figures an architect compares: total over the horizon
 * and per year, cost by category, cost per provisioned and per used
 * GPU-hour, utilisation, licences, placed and unplaced replicas (which,
 * in GPU-equivalents and at what priority), mode mix, solver status, and
 * the worst single node and site loss of the failure analysis, and what a
 * resilience: block's headroom costs a year.
 * The rows are ranked by unplaced demand, then cost (compare_rank), and
 * a verdict line says what the ranking means (compare_verdict).
 * Every figure is the plan report's own (gpuplan plan on the same
 * scenario gives the same numbers), so each can be traced by hand.
 *
 * Ownership: a row owns its strings; compare_row_release frees them.
 */
#ifndef PLANNER_COMPARE_H
#define PLANNER_COMPARE_H

#include <stddef.h>

#include "diag.h"
#include "plan.h"
#include "report.h"

#define COMPARE_SCHEMA_VERSION "2.4.0"
/* How compare_rank orders the options, as compare.json and the table say it. */
#define COMPARE_RANKED_BY "fewest unplaced GPU-equivalents by priority, highest first; then least cost per year; then fewest GPUs and nodes in use"

/* Unplaced replicas of one workload in one scenario's plan. */
struct compare_unplaced {
	char *workload;
	char *tenant;
	char *reason;		/* "" when none given */
	long replicas;
	double gpu_eq;		/* GPU-equivalents of these replicas */
	int priority;		/* the workload's */
};

struct compare_row {
	char *scenario;		/* the scenario's name */
	char *file;		/* the scenario file as given */
	const char *status;	/* solver status */
	double gap;
	double horizon_years;
	double total, per_year;
	double cat[CAT_COUNT];
	double per_provisioned_gpu_hour; /* total / (GPUs in used nodes x hours); 0 when none */
	double per_used_gpu_hour;	/* total / (GPU-equivalents placed x hours); 0 when none */
	double mem_util, compute_util;
	long lic_gpus[LIC_COUNT], seats[LIC_COUNT];
	long placed, unplaced;
	double gpu_eq_unplaced;	/* GPU-equivalents of the unplaced replicas */
	size_t nunpl;
	struct compare_unplaced *unpl;	/* by priority (highest first), then workload order */
	long nodes, gpus;
	long nodes_by_mode[MODE_COUNT], gpus_by_mode[MODE_COUNT];
	char *to_place_all;	/* what would place the unplaced (report_whatif_text), or NULL */
	char *worst[2];		/* the failure analysis: the worst node and site loss ("" when none strands) */
	long worst_stranded[2];	/* and the replicas each strands */
	int have_resil;		/* the scenario has a resilience: block */
	double resil_usd_per_year; /* what its headroom costs a year (plan.json's extra_cost_per_year_usd) */
};

/* Fills row from a planning run of the scenario in file. */
void compare_row_fill(struct compare_row *row, const char *file, const struct plan_result *r);
void compare_row_release(struct compare_row *row);

/*
 * The ranking: order[0..n) = row indices, best first.  Rows are ranked
 * by their unplaced demand, then by cost: the GPU-equivalents left
 * unplaced at the highest priority level (fewer first), then at the next
 * level down, and so on (lexicographic by priority, higher first), then
 * the cost per year (lower first), then the GPUs in used nodes (fewer
 * first: at one cost, the plan that frees hardware), then the nodes used,
 * then the order given.  Amounts are compared as reported:
 * GPU-equivalents to 4 decimals, money to cents.
 */
void compare_rank(const struct compare_row *rows, size_t n, size_t *order);

/*
 * "N replicas unplaced (G GPU-equivalents): W1 n1 (priority p1), ..." for what
 * row leaves unplaced (at most 5 workloads named, then "and K more"), or
 * "every replica placed".  Caller frees.
 */
char *compare_unplaced_text(const struct compare_row *row);

/*
 * The verdict on ranked rows, one line without a newline: the best
 * option, whether it places every replica and its cost per year, the
 * next option that places everything, and every cheaper option with
 * what it leaves unplaced.  Caller frees.
 */
char *compare_verdict(const struct compare_row *rows, size_t n, const size_t *order);

/*
 * Writes compare.csv and/or compare.json into dir (fmt as report.h), with
 * the ranking and the verdict.
 */
int compare_write(const char *dir, enum report_format fmt, const struct compare_row *rows, size_t n,
		  struct diag *d);

#endif
