/*
 * period.h - the periods a roadmap plans in (quarters or months) and the
 * scenario's `roadmap:` block (docs/formats.md, "Scenario roadmap:").
 *
 * A period is an index: a quarter is year * 4 + (quarter - 1), a month
 * year * 12 + (month - 1), so consecutive periods differ by one and a
 * label ("2027-Q1", "2027-03") converts both ways.
 */
#ifndef PLANNER_PERIOD_H
#define PLANNER_PERIOD_H

#include <stddef.h>

enum period_kind { PERIOD_QUARTER, PERIOD_MONTH };

#define ROADMAP_MAX_YEARS 30	/* the horizon_years limit */

/* 4 or 12. */
int period_per_year(enum period_kind k);
/* "quarter" or "month". */
const char *period_kind_name(enum period_kind k);
/*
 * Reads a label of kind k into *index: 0; 1 when s is a label of the
 * other kind (a month where quarters are planned); -1 when s is neither.
 * Years 1000..9999.
 */
int period_parse(const char *s, enum period_kind k, long *index);
/* The label of index ("2027-Q1", "2027-03") into buf (size >= 16). */
const char *period_format(char *buf, size_t size, enum period_kind k, long index);
/* What a label of kind k looks like, for messages: "a quarter (YYYY-Qn, e.g. 2027-Q1)". */
const char *period_expected(enum period_kind k);

/* A licence term the roadmap may hold (roadmap.licence_terms), where the scenario names it. */
struct roadmap_term_ref {
	char *id;			/* "subscription-3y" */
	long line, col;
};

/* A scenario's own price of one licence term (roadmap.licence_quotes), e.g. a negotiated quote. */
struct roadmap_quote {
	char *product;			/* "nvaie", "vcs" */
	char *term;			/* a term id of that product */
	double usd_per_gpu;		/* for the whole term, per GPU */
	long line, col;
};

/* A workload's own growth rate (roadmap.growth_by_workload), where the scenario names it. */
struct roadmap_growth {
	char *workload;
	double per_year;		/* share a year, in (-1, 10] */
	long line, col;
};

/* The scenario's roadmap: block; present 0 when the scenario has none. */
struct scenario_roadmap {
	int present;
	long line;			/* of the block */
	enum period_kind period;	/* default quarter */
	int have_start;
	long start;			/* period index */
	int periods;			/* 0: through the forecast's last period */
	char *forecast;			/* resolved path, or NULL */
	long forecast_line, forecast_col;
	double growth_per_year;		/* default 0 */
	size_t ngrowth;
	struct roadmap_growth *growth;	/* growth_by_workload: overrides growth_per_year */
	double lead_time_weeks;		/* default 12 */
	int lead_time_given;
	int buy_before_start;		/* default 1 */
	double discount_rate;		/* per year; default 0 */
	int residual_none;		/* residual: none (default book) */
	int tail_charged;		/* commitment_tail: charged (default prorated) */
	size_t nterms;
	struct roadmap_term_ref *terms;	/* licence_terms; NULL: every term the hosting allows */
	size_t nquotes;
	struct roadmap_quote *quotes;	/* licence_quotes */
	char *source;
};

#endif
