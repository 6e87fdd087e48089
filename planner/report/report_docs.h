/*
 * report_docs.h - the documents a plan's reports are built in (report.c), shared with the
 * summary, costs and licences builders (report_summary.c), and how reports round (report_num.c).
 */
#ifndef PLANNER_REPORT_DOCS_H
#define PLANNER_REPORT_DOCS_H

#include <cJSON.h>
#include <stdio.h>

#include "jsonout.h"
#include "report.h"
#include "util.h"

struct docs {
	struct sb summary, hosts, nodes, gpus, placements, unplaced, costs, licenses, tenants, additions, failures;
	cJSON *json;		/* plan.json's tree, less the elements of the big arrays below */
	cJSON *jh, *jn, *jg, *jp;	/* its "hosts", "nodes", "gpus" and "placements": empty, streamed */
	cJSON *jf;		/* its "failures": the arrays empty, streamed; "resilience" kept */
	FILE *fh, *fn, *fg, *fp;	/* hosts.csv, nodes.csv, gpus.csv, placements.csv, streamed (NULL: not written) */
	struct jsonout jo;	/* plan.json, streamed */
};

/* V in dollars and cents: "1234.50". */
const char *report_money(char *buf, size_t n, double v);
/* V rounded to DECIMALS places, with -0 made 0 (for JSON numbers). */
double report_round(double v, int decimals);

/* summary.csv, costs.csv and licenses.csv, with their parts of plan.json. */
void report_build_summary(struct docs *dc, const struct plan_result *r);
void report_build_costs(struct docs *dc, const struct plan_result *r);
void report_build_licenses(struct docs *dc, const struct plan_result *r);

/*
 * plan.json's "failures" in the tree, its arrays empty (report_failures.c); then failures.csv's
 * rows and "failures" streamed, when write_streams reaches it; the summary's failure_* rows into s.
 */
void report_build_failures(struct docs *dc, const struct plan_result *r);
void report_write_failures(struct docs *dc, const struct plan_result *r);
void report_failure_summary(struct docs *dc, cJSON *s, const struct plan_result *r);
/* The resilience rows of summary.csv (none without resilience:), and failures.resilience (null without). */
void report_resilience_summary(struct docs *dc, cJSON *s, const struct plan_result *r);
void report_resilience_json(cJSON *jf, const struct plan_result *r);
/* summary.csv's spread_skew_exceeded_<workload> rows, and the same keys in s (report_skew.c). */
void report_skew_summary(struct docs *dc, cJSON *s, const struct plan_result *r);

#endif
