/*
 * report.h - plan reports: summary.csv, costs.csv, licenses.csv,
 * tenants.csv, hosts.csv, nodes.csv, gpus.csv, placements.csv, unplaced.csv,
 * additions.csv and plan.json, written to a directory all or nothing
 * (each file goes to a temporary name first and is renamed into place
 * only when every file was written).
 *
 * Only report.c, additions.c and jsonout.c include cJSON.h.  The big
 * files (hosts.csv, nodes.csv, gpus.csv, placements.csv, plan.json) are streamed
 * row by row into their temporary files (outset_stream).  Numbers have fixed
 * formats and rows a fixed order, so the same plan gives the same bytes
 * on any machine.
 */
#ifndef PLANNER_REPORT_H
#define PLANNER_REPORT_H

#include "cplan.h"
#include "diag.h"
#include "plan.h"

#define REPORT_SCHEMA_VERSION "5.2.0"

/* Flags: csv, json (both), html (report.html, a page with charts: docs/report-html.md), all. */
enum report_format { REPORT_CSV = 1, REPORT_JSON = 2, REPORT_BOTH = 3, REPORT_HTML = 4, REPORT_ALL = 7 };

/* Writes the reports of a planning run into dir (created if missing). */
int report_write(const char *dir, enum report_format fmt, const struct plan_result *r, struct diag *d);

struct sim_result;
/*
 * Writes simulate's reports into dir, all or nothing: timeseries.csv,
 * strategies.csv, breakeven.csv and simulate.json (fmt & REPORT_BOTH),
 * report.html (fmt & REPORT_HTML).  0, or -1 with d (DIAG_IO).
 */
int report_sim_write(const char *dir, enum report_format fmt, const struct sim_result *r, struct diag *d);

/* Mode mix and utilisation, shared by the reports and the stdout summary. */
struct report_stats {
	long nodes_by_mode[MODE_COUNT];
	long gpus_by_mode[MODE_COUNT];
	double mem_util;	/* asked GPU memory / memory of GPUs in used nodes */
	double compute_util;	/* asked compute / GPUs in used nodes */
};
void report_stats(const struct cplan *cp, struct report_stats *st);
/*
 * True when an assumption of the pricing concerns a plan of this cost and
 * these stats: its cost category has cost (a licence: or counts
 * licences) and its mode (if any) is in use.  Reports list only these.
 */
int report_assumption_used(const struct assumption *a, const struct cplan_cost *cost, const struct report_stats *st);
/*
 * True when the assumption changes a figure of plan cp: it is used
 * (report_assumption_used) and, for a rule of one mode, that rule decides
 * some GPU's licence (cplan_rule_modes).  The summaries print only
 * these; plan.json and summary.csv list every one used.
 */
int report_assumption_matters(const struct assumption *a, const struct cplan *cp, const struct cplan_cost *cost,
			      const struct report_stats *st);

/*
 * A dated price of the model tables that a plan's cost uses: a cloud
 * offer a used node rents, or a licence term charged for a used GPU.
 * The strings point into the scenario's models.
 */
struct price_ref {
	enum lic_product product;	/* the licence's product; LIC_NONE: a cloud offer */
	const char *id;		/* the offer's or the term's id */
	const char *file;	/* the model file and line it was read from */
	long line;
	long long as_of;	/* its date, days since 1970-01-01 (date.h) */
	int assumed;
};
/*
 * The oldest dated price the plan uses (ties: the first in node order,
 * the offer before the licences): 1 and *out filled, or 0 when the plan
 * uses none (only the user's own prices, or nothing priced).
 */
int report_oldest_price(const struct plan_result *r, struct price_ref *out);
/* "cloud offer aws/p5.48xlarge/us-east-1" or "nvaie subscription-3y"; caller frees. */
char *report_price_name(const struct price_ref *p);

/*
 * The plan's cost per GPU-hour, two ways.  Provisioned: the total cost /
 * (GPUs in used nodes x hours of the horizon).  Used: the total cost /
 * (GPU-equivalents placed x hours of the horizon), a GPU-equivalent being
 * a replica's whole GPUs or its compute share.  A rate is 0 when its
 * GPU-hours are 0.
 */
struct report_gpu_hours {
	double provisioned;	/* GPUs in used nodes x hours */
	double used;		/* GPU-equivalents placed x hours */
	double gpu_eq_placed;	/* GPU-equivalents placed */
	double per_provisioned;	/* USD per provisioned GPU-hour */
	double per_used;	/* USD per used GPU-hour */
};
void report_gpu_hours(const struct cplan *cp, struct report_gpu_hours *gh);

/*
 * What to buy.  report_addition_text: one class a plan adds, "1 node of
 * a100x4 (buy, 1 of at most 2): 8000.00 USD/year (hardware 8000.00)",
 * figures per year of a horizon of `years`; with `more`, as nodes beyond
 * the inventory's count ("1 more node of a100x4 (buy, 2 in all where the
 * inventory allows 1): ...").  report_whatif_text:
 * NULL when the plan places every replica, else what would place the
 * rest (r->whatif: the classes, nodes and cost added; or that nothing
 * the inventory or the models' cloud offers can add fits them).  Caller
 * frees.
 */
struct plan_addition;
char *report_addition_text(const struct plan_addition *a, double years, int more);
char *report_whatif_text(const struct plan_result *r);

/*
 * The ScheduleAnyway spreads the plan goes past (summary.csv's
 * spread_skew_exceeded_<workload> rows), one warning each, "FILE:LINE:
 * workload 'embed' is planned with skew 3, past its spread node max_skew 1
 * (ScheduleAnyway: ...): node 'a100-001' holds 3 replicas, the emptiest
 * eligible node 0", in workloads-file order into *msgs (NULL when none;
 * caller frees each and the array); the count.
 */
size_t report_skew_warnings(const struct plan_result *r, char ***msgs);

struct report_note {
	char *what;		/* "workload 'x' asks 10.00 GiB, more than ..." */
	char *source;		/* "gpus.yaml:403: ..." */
	int assumed;		/* an assumption of the plan (the summary's "assumes:" lists it) */
};

struct report_notes {
	size_t n;
	struct report_note *notes;
};

/*
 * The notes a plan's summary lists with its assumptions about usable
 * memory and MIG compute shares, in slot order, each once: a workload
 * placed on MIG (or MIG-backed vGPU) of a GPU type with a profile whose
 * nominal size would hold its memory ask but whose usable memory does not
 * (so it takes a larger profile); and, as assumptions, every profile in
 * use whose usable memory is assumed, every GPU type used whole
 * (passthrough, time-slicing, MPS) whose usable memory is the nominal
 * figure, and every MIG profile in use whose compute share is not from
 * SM counts read (slices / compute slices, or an assumed SM count of the
 * GPU), and vGPU on vSphere when the scenario gives vSphere no price (the
 * Enterprise Plus edition it needs).  Release with report_notes_release.
 */
void report_mig_notes(const struct cplan *cp, struct report_notes *rn);
void report_notes_release(struct report_notes *rn);

#endif
