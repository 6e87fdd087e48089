/*
 * roadmap_diff.h - a roadmap against a baseline roadmap.json
 * (roadmap_diff.c; gpuplan check with a roadmap baseline,
 * docs/commands.md "check and diff"): the total cost over the horizon,
 * the unplaced replicas period by period, and the purchases (each order
 * by class and order period; their upfront capex in total), judged by
 * check's thresholds (reportdiff.h, struct rd_limits): RD_COST_PCT and
 * RD_COST_ABS on the total cost and on the purchases' upfront capex,
 * RD_UNPLACED on each period's unplaced replicas, RD_PRIORITY on each
 * period's unplaced replicas by priority.
 *
 * Figures are kept as roadmap.json rounds them (money in cents), and the
 * current side is read from the roadmap.json text the run would write,
 * so a roadmap compared with its own roadmap.json shows no change.
 * Reading is strict: JSON (a syntax error or a truncated file is
 * FILE:LINE:COL), a schema_version of major 1, every field compared
 * there with its type (an error names the field and points at it;
 * unplaced_by_priority from 1.2.0 on, without it a baseline's priorities
 * are not judged).
 * Errors are DIAG_INPUT (exit 3).
 *
 * Ownership: a report owns its strings and arrays (rmd_report_release);
 * the text and the reasons returned are the caller's to free.
 */
#ifndef PLANNER_ROADMAP_DIFF_H
#define PLANNER_ROADMAP_DIFF_H

#include <stddef.h>

#include "diag.h"
#include "reportdiff.h"
#include "roadmap.h"

/* One order of the schedule. */
struct rmd_buy {
	char *cls;			/* the class bought */
	char *order;			/* order period label */
	long units;
	long long upfront_cents;
};

/* One period's unplaced replicas and cost by category. */
struct rmd_period {
	char *period;			/* label */
	long unplaced;
	size_t nprio;
	struct roadmap_unplaced *prio;	/* unplaced_by_priority (1.2.0), as the report orders it */
	long long cat_cents[CAT_COUNT];	/* cost_by_category, pricing.h's order */
};

struct rmd_report {
	char *file;			/* where it came from (escaped for a terminal) */
	char *scenario;
	double gap;			/* totals.gap */
	long long cost_cents;		/* totals.cost_usd */
	long long upfront_cents;	/* sum of the schedule's upfront_usd */
	size_t nperiods;
	struct rmd_period *per;		/* in the report's order */
	size_t nbuys;
	struct rmd_buy *buys;		/* in the report's order */
	char *schema_version;
	int has_prio;			/* its periods carry unplaced_by_priority (1.2.0 and later) */
};

/* One (period, priority) whose unplaced replicas differ between the two sides. */
struct rmd_prio_change {
	const char *period;		/* points into a report */
	int priority;
	long base, cur;
};

/* A threshold's verdict. */
struct rmd_verdict {
	int checked, exceeded, infinite;	/* infinite: a percent rise from 0 */
	double value, limit;
};

/* What rmd_judge measures and decides. */
enum rmd_check_kind {
	RMD_COST_PCT, RMD_COST_ABS,		/* total cost */
	RMD_UPFRONT_PCT, RMD_UPFRONT_ABS,	/* purchases' upfront capex */
	RMD_UNPLACED,				/* the largest rise of one period's unplaced */
	RMD_PRIORITY,				/* (period, priority >= P) pairs with more unplaced */
	RMD_CHECK_COUNT
};

struct rmd_judgement {
	struct rmd_verdict v[RMD_CHECK_COUNT];
	int prio_known;			/* both sides carry unplaced_by_priority */
	size_t nchanges;
	struct rmd_prio_change *changes; /* the baseline's periods, then the current's others; priority high first */
	int failed;
	char *why;			/* the thresholds exceeded, joined by "; ", or NULL */
};

/*
 * Whether text (len bytes) is a roadmap.json: a JSON object with the
 * members "period_count" and "periods".  Anything else (a plan.json, or
 * no JSON at all) is not.
 */
int rmd_is_roadmap(const char *text, size_t len);
/* Reads roadmap.json text (file names it in messages); 0, or -1 with d set (DIAG_INPUT). */
int rmd_report_parse(struct rmd_report *r, const char *file, const char *text, size_t len, struct diag *d);
/* The figures of a roadmap run, as its roadmap.json holds them; file names the scenario. */
void rmd_report_from_roadmap(struct rmd_report *r, const char *file, const struct roadmap_result *rr);
void rmd_report_release(struct rmd_report *r);
/* The period of r labelled label, or NULL. */
const struct rmd_period *rmd_period_of(const struct rmd_report *r, const char *label);

/*
 * The comparison of cur with base as text, judged by lim (the limits
 * not checked < 0); *why gets the thresholds exceeded, joined by "; "
 * (caller frees), or NULL when none is.  The bytes depend only on the
 * two reports and lim.  Caller frees.
 */
char *rmd_compare(const struct rmd_report *base, const struct rmd_report *cur, const struct rd_limits *lim,
		  char **why);
/*
 * The thresholds of lim judged on cur against base (rmd_compare's
 * verdicts; RD_PRIORITY judges each period's unplaced replicas of every
 * priority at or above its P, when both sides carry them).  Release with
 * rmd_judgement_release.
 */
void rmd_judge(struct rmd_judgement *j, const struct rmd_report *base, const struct rmd_report *cur,
	       const struct rd_limits *lim);
void rmd_judgement_release(struct rmd_judgement *j);
/*
 * The comparison as JSON (reports/check-roadmap.schema.json), ending in a
 * newline; the bytes depend only on the two reports and lim.  Caller
 * frees.  (roadmap_diff_json.c)
 */
char *rmd_json(const struct rmd_report *base, const struct rmd_report *cur, const struct rd_limits *lim);

#endif
