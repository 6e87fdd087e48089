/*
 * reportdiff.h - two plan reports side by side: read a plan.json (a
 * baseline), take the same figures from a planning run, compare them,
 * judge the change against thresholds, and format the comparison as
 * text, Markdown (a pull-request comment) or JSON.
 *
 * What is compared: the total cost and each cost category (pricing.h),
 * licences by product (GPUs and seats; their cost is the category
 * license_<product>), nodes and GPUs used, active and licensed GPUs, the
 * mode mix (nodes and GPUs per mode), placed and unplaced replicas,
 * unplaced replicas by workload, and memory and compute utilisation.
 * Figures are kept as the reports round them: money in cents,
 * utilisation in hundredths of a percent (the report's 4 decimals), so
 * a plan compared with its own plan.json shows no change at all and the
 * comparison is exact integer arithmetic.
 *
 * Reading is strict: the file must be JSON (a syntax error or a
 * truncated file is "FILE:LINE:COL: ..."), schema_version must be a
 * MAJOR.MINOR gpuplan has written, any PATCH (2.0, 2.1, 3.0, 3.1, 3.2, 3.3:
 * reportdiff_read.c's known_versions; 3.0.0 only renamed the cost per
 * GPU-hour, a figure not compared; any other version gets a message that
 * says how to regenerate the file), and every field compared must be there
 * with the right type (an error names the field and points at it).
 * Fields not compared are ignored.  All errors are DIAG_INPUT (exit 3).
 *
 * Ownership: an rd_report owns its strings and arrays (rd_report_release);
 * an rd_diff owns its merged unplaced rows and points at both reports,
 * which must outlive it (rd_diff_release).  Formatted text is the
 * caller's to free.
 */
#ifndef PLANNER_REPORTDIFF_H
#define PLANNER_REPORTDIFF_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "license.h"
#include "plan.h"
#include "pricing.h"

#define REPORTDIFF_SCHEMA_VERSION "1.7.0"	/* of the JSON comparison */
#define REPORTDIFF_MAX_BYTES (1024u * 1024u * 1024u)	/* largest report read */

/* Unplaced replicas of one workload. */
struct rd_unplaced {
	char *workload;
	char *tenant;
	char *reason;		/* "" when none given */
	long replicas;
};

/* Placed replicas of one workload (from plan.json's placements). */
struct rd_placed {
	char *workload;
	char *tenant;
	long replicas;
	int priority;		/* from the scenario planned or plan.json's "workloads"; 0: not known */
};

/* One row of a plan's failure analysis: what losing a node, a site or a GPU strands of one workload. */
struct rd_fail_row {
	int kind;		/* 0 node, 1 site, 2 gpu (enum fail_kind) */
	char *failure;		/* the node's name, the site or "<node>/gpu <i>" */
	int priority;		/* the workload's */
	long stranded;		/* its replicas stranded */
};

/* The figures of one plan report. */
struct rd_report {
	char *file;			/* where it came from (a report, or the scenario planned) */
	char *schema_version;		/* "2.0.0" (for a plan run: the version it would write) */
	char *gpuplan_version;		/* which gpuplan wrote it (3.3.0); NULL: not said */
	char *models_digest;		/* which model tables it was planned with (3.3.0); NULL: not said */
	char *scenario;			/* the scenario's name */
	char *status;			/* solver status: "optimal", "feasible", ... */
	char *plan_source;		/* "ilp", "colgen" or "greedy" */
	double horizon_years;
	double gap;			/* relative, as reported */
	long long total_cents;
	long long cat_cents[CAT_COUNT];
	long lic_gpus[LIC_COUNT];	/* [LIC_NONE] unused */
	long lic_seats[LIC_COUNT];
	long nodes_used, gpus_in_used_nodes, gpus_active, gpus_licensed;
	long replicas_placed, replicas_unplaced;
	long nodes_by_mode[MODE_COUNT], gpus_by_mode[MODE_COUNT];
	long mem_util_bp;		/* utilisation in 1/10000 (0.7626 -> 7626) */
	long compute_util_bp;
	size_t nunplaced;
	struct rd_unplaced *unplaced;	/* one row per workload, by name (byte order) */
	size_t nplaced;
	struct rd_placed *placed;	/* one row per workload with placed replicas, by name */
	size_t nprio;
	struct rd_placed *prio;		/* every workload planned with its priority (a plan run, or a
					 * plan.json of 3.2.0 or later), by name */
	int have_fail;			/* it carries the failure analysis (a plan run, or plan.json's
					 * "failures" with its rows) */
	size_t nfail;
	struct rd_fail_row *fail;	/* rows with stranded replicas, by kind and failure name */
	int have_fail_gpu;		/* and its GPUs were analysed (resilience: {survive: gpu}; plan.json
					 * 4.0.0: the summary has failure_worst_gpu) */
};

/*
 * Reads the plan.json at path.  role names the file in messages
 * ("baseline", "report").  0, or -1 with d set (DIAG_INPUT).
 */
int rd_report_read(struct rd_report *r, const char *path, const char *role, struct diag *d);
/* The same from text already in memory (len bytes, NUL-terminated); file names it in messages. */
int rd_report_parse(struct rd_report *r, const char *file, const char *text, size_t len, const char *role,
		    struct diag *d);
/* The figures of a planning run, rounded as plan.json rounds them; file names the scenario. */
void rd_report_from_plan(struct rd_report *r, const char *file, const struct plan_result *pr);
void rd_report_release(struct rd_report *r);

/*
 * The failure analysis into r (reportdiff_fail.c): from plan.json's
 * "failures" (by_node, by_site, by_gpu; absent or malformed: r->have_fail
 * stays 0), or from a planning run.
 */
struct cJSON;
void rd_fail_read(const struct cJSON *root, struct rd_report *r);
void rd_fail_from_plan(struct rd_report *r, const struct plan_result *pr);
void rd_fail_release(struct rd_report *r);
/*
 * The worst loss of a kind (0 node, 1 site, 2 gpu): the most replicas of
 * priority >= prio one failure strands; *name the failure (the first by
 * name among equals), "" when none strands any.
 */
long rd_fail_worst(const struct rd_report *r, int kind, int prio, const char **name);

/* Thresholds; a negative value means "not checked". */
enum rd_limit {
	RD_COST_PCT,		/* --max-cost-increase PCT: total cost increase in percent */
	RD_COST_ABS,		/* --max-cost-increase-abs AMOUNT: in USD */
	RD_UNPLACED,		/* --max-unplaced-increase N: more unplaced replicas */
	RD_UTIL_DROP,		/* --max-util-drop PTS: memory or compute utilisation, percentage points */
	RD_WEIGHTED,		/* --max-weighted-unplaced-increase N: sum of priority x unplaced replicas */
	RD_PRIORITY,		/* --fail-unplaced-priority P: a workload of priority >= P loses replicas */
	RD_NAMED,		/* --fail-unplaced WORKLOAD: a named workload loses replicas (limit 0 when named) */
	RD_STRANDED,		/* --fail-stranded-priority P: the worst node, site or GPU loss strands more
				 * replicas of priority >= P than the baseline's (0: not checked) */
	RD_LIMIT_COUNT
};
const char *rd_limit_option(enum rd_limit l);	/* "--max-cost-increase", ... */

struct rd_limits {
	double limit[RD_LIMIT_COUNT];	/* < 0: not checked */
	const char *const *names;	/* RD_NAMED: the workloads watched (the caller's strings) */
	size_t nnames;
};
/* No threshold at all (gpuplan diff's default). */
void rd_limits_none(struct rd_limits *l);
/*
 * gpuplan check's defaults: total cost may rise by at most half a percent, and no
 * more replicas may stay unplaced than in the baseline.
 */
#define RD_DEFAULT_COST_PCT 0.5
#define RD_DEFAULT_UNPLACED 0
#define RD_DEFAULT_WEIGHTED 0	/* and no more priority-weighted unplaced replicas */
#define RD_DEFAULT_PRIORITY 1	/* and no workload (priority >= 1: all) with more unplaced replicas */
#define RD_DEFAULT_STRANDED 1	/* and no worst node or site loss that strands more replicas (all priorities) */
void rd_limits_check_defaults(struct rd_limits *l);

/* One threshold checked. */
struct rd_verdict {
	int checked;		/* the threshold was given (or defaulted) */
	int exceeded;
	int infinite;		/* RD_COST_PCT from a zero baseline: an unbounded increase */
	double value;		/* the change measured, in the threshold's unit (a drop for RD_UTIL_DROP) */
	const char *what;	/* RD_UTIL_DROP: "memory" or "compute", the larger drop */
};

/* A workload's unplaced replicas on both sides. */
struct rd_unplaced_change {
	const char *workload, *tenant, *reason;	/* reason: the current one, else the baseline's */
	long base, cur;
};

/* A workload whose placed or unplaced replicas changed, with the priority it is judged by. */
struct rd_workload_change {
	const char *workload, *tenant;
	int priority;		/* the baseline's, else the current side's, else 1 (none known) */
	long placed_base, placed_cur;
	long unplaced_base, unplaced_cur;
};

/* The worst loss of one kind on both sides (replicas of priority >= the threshold's P, else 1). */
struct rd_fail_change {
	long base, cur;
	const char *base_name, *cur_name;	/* "" when none strands any */
};

struct rd_diff {
	const struct rd_report *base, *cur;
	int fail_known;		/* both sides carry the failure analysis */
	int fail_gpu_known;	/* and both analysed their GPUs: fail[2] is compared */
	int fail_prio;		/* the priority the worst losses count from */
	struct rd_fail_change fail[3];	/* node, site, gpu */
	struct rd_limits limits;
	struct rd_verdict verdict[RD_LIMIT_COUNT];
	int nchecked;		/* thresholds checked */
	int failed;		/* some threshold exceeded */
	int changed;		/* some figure compared differs */
	size_t nunplaced;
	struct rd_unplaced_change *unplaced;	/* union of both sides, by workload name */
	size_t nchanges;
	struct rd_workload_change *changes;	/* placed or unplaced replicas changed: highest priority first */
};

/* Compares cur with base and judges the change against lim. */
void rd_diff_compute(struct rd_diff *df, const struct rd_report *base, const struct rd_report *cur,
		     const struct rd_limits *lim);
void rd_diff_release(struct rd_diff *df);

enum rd_format { RD_TEXT, RD_MARKDOWN, RD_JSON, RD_HTML };
/*
 * The comparison as text (aligned columns), Markdown (a heading, a table
 * and the verdict, fit for a pull-request comment), JSON (schema in
 * reports/check.schema.json) or HTML (a self-contained page with charts).  command is "check" or "diff".  The bytes
 * depend only on the two reports, the limits and command.  Caller frees.
 */
char *rd_diff_format(const struct rd_diff *df, enum rd_format fmt, const char *command);
/*
 * The thresholds exceeded, in option order, joined by "; ", e.g.
 * "total cost +100.50 USD (+10.05%) is over --max-cost-increase 5%";
 * caller frees; NULL if none.
 */
char *rd_diff_failure(const struct rd_diff *df);

#endif
