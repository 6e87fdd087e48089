/*
 * forecast.c - periods (quarter and month labels) and the roadmap's
 * demand forecast: the CSV reader and the growth rates.
 *
 * The reader follows the trace reader (trace.c): rows in order, a row
 * holding from its period until the workload's next row, errors at the
 * field.  Labels are parsed by hand, never by the C library's time
 * functions, so a forecast reads the same in any locale and time zone.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "forecast.h"
#include "util.h"
#include "banned.h"

/* ================= periods ================= */

int period_per_year(enum period_kind k)
{
	return k == PERIOD_MONTH ? 12 : 4;
}

const char *period_kind_name(enum period_kind k)
{
	return k == PERIOD_MONTH ? "month" : "quarter";
}

const char *period_expected(enum period_kind k)
{
	return k == PERIOD_MONTH ? "a month (YYYY-MM, e.g. 2027-03)" : "a quarter (YYYY-Qn, e.g. 2027-Q1)";
}

/* n decimal digits at s; -1 when one is not a digit. */
static long digits(const char *s, int n)
{
	long v = 0;
	int i;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* The label's kind and index: 0 quarter, 1 month, -1 neither. */
static int label_read(const char *s, long *index)
{
	long y = strlen(s) >= 4 ? digits(s, 4) : -1, m;

	if (y < 1000 || s[4] != '-')
		return -1;
	if (s[5] == 'Q' && s[6] >= '1' && s[6] <= '4' && !s[7]) {
		*index = y * 4 + (s[6] - '1');
		return 0;
	}
	m = strlen(s) == 7 ? digits(s + 5, 2) : -1;
	if (m < 1 || m > 12)
		return -1;
	*index = y * 12 + m - 1;
	return 1;
}

int period_parse(const char *s, enum period_kind k, long *index)
{
	long i = 0;
	int got = label_read(s, &i);

	if (got < 0)
		return -1;
	if (got != (k == PERIOD_MONTH))
		return 1;
	*index = i;
	return 0;
}

const char *period_format(char *buf, size_t size, enum period_kind k, long index)
{
	if (k == PERIOD_MONTH)
		snprintf(buf, size, "%04d-%02d", (int)(index / 12 % 10000), (int)(index % 12 + 1));
	else
		snprintf(buf, size, "%04d-Q%d", (int)(index / 4 % 10000), (int)(index % 4 + 1));
	return buf;
}

/* ================= the forecast ================= */

void forecast_release(struct forecast *fc)
{
	free(fc->source);
	free(fc->replicas);
	free(fc->named);
	memset(fc, 0, sizeof(*fc));
}

long forecast_at(const struct forecast *fc, size_t t, size_t w)
{
	return fc->replicas[t * fc->nw + w];
}

enum { F_PERIOD, F_WORKLOAD, F_REPLICAS, F_NCOLS };
static const struct csvcol forecast_cols[] = { { "period", 1 }, { "workload", 1 }, { "replicas", 1 }, { NULL, 0 } };

struct frow {
	long period;		/* index */
	size_t w;
	long n;
};

/* What the rows so far say, for checking the next one. */
struct frows {
	const struct scenario *sc;
	struct forecast *fc;
	int have_start;
	long prev;		/* the row before's period, or LONG_MIN */
	int any;
	long *last;		/* per workload: its last row's period */
	long *last_line;	/* and that row's line (0: none yet) */
};

static int read_period(const struct csvread *rd, struct frows *st, long *out)
{
	const struct scenario_roadmap *R = &st->sc->roadmap;
	enum period_kind k = st->fc->kind;
	const char *s;
	char b1[16], b2[16];
	long p = 0;
	int rc;

	if (csvread_str(rd, F_PERIOD, 1, &s))
		return -1;
	rc = period_parse(s, k, &p);
	if (rc < 0)
		return csvread_error(rd, F_PERIOD, "column 'period': '%s' is not %s", s, period_expected(k));
	if (rc > 0)
		return csvread_error(rd, F_PERIOD, "column 'period': '%s' is a %s, but the roadmap plans in %ss", s,
				     period_kind_name(k == PERIOD_MONTH ? PERIOD_QUARTER : PERIOD_MONTH),
				     period_kind_name(k));
	if (st->any && p < st->prev)
		return csvread_error(rd, F_PERIOD,
				     "column 'period': '%s' is earlier than the row before: rows must be in period order", s);
	if (!st->have_start) {
		st->fc->start = p;
		st->have_start = 1;
	}
	if (p < st->fc->start)
		return csvread_error(rd, F_PERIOD, "period %s is before the roadmap's start %s", s,
				     period_format(b1, sizeof(b1), k, st->fc->start));
	if (R->periods > 0 && p >= st->fc->start + R->periods)
		return csvread_error(rd, F_PERIOD, "period %s is after the roadmap's last period %s (start %s, periods %d)",
				     s, period_format(b1, sizeof(b1), k, st->fc->start + R->periods - 1),
				     period_format(b2, sizeof(b2), k, st->fc->start), R->periods);
	if (p - st->fc->start >= (long)period_per_year(k) * ROADMAP_MAX_YEARS)
		return csvread_error(rd, F_PERIOD, "period %s is %d years or more after the start %s", s,
				     ROADMAP_MAX_YEARS, period_format(b1, sizeof(b1), k, st->fc->start));
	st->prev = p;
	st->any = 1;
	*out = p;
	return 0;
}

static int read_row(const struct csvread *rd, struct frows *st, struct frow *row)
{
	const struct workloads *wl = &st->sc->workloads;
	const char *name;
	char b[16];
	long long n;
	size_t w;

	if (read_period(rd, st, &row->period) || csvread_str(rd, F_WORKLOAD, 1, &name))
		return -1;
	for (w = 0; w < wl->n && strcmp(wl->w[w].name, name); w++)
		;
	if (w == wl->n) {
		char *hint = workloads_hint(wl, name);
		if (*hint)
			csvread_error(rd, F_WORKLOAD, "unknown workload '%s'%s", name, hint);
		else
			csvread_error(rd, F_WORKLOAD, "unknown workload '%s': not in %s", name, wl->file);
		free(hint);
		return -1;
	}
	if (st->last_line[w] && st->last[w] == row->period)
		return csvread_error(rd, F_WORKLOAD, "workload '%s' has two rows for %s (first at line %ld)", name,
				     period_format(b, sizeof(b), st->fc->kind, row->period), st->last_line[w]);
	if (csvread_int(rd, F_REPLICAS, 1, 0, FORECAST_MAX_REPLICAS, &n))
		return -1;
	st->last[w] = row->period;
	st->last_line[w] = rd->r->line;
	row->w = w;
	row->n = (long)n;
	return 0;
}

/* The CSV's rows into rows (*n of them); sets fc->start when the roadmap gives none. */
static int read_csv(struct forecast *fc, const struct scenario *sc, const char *path, struct frow **rows, size_t *n,
		    struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct frows st;
	int idx[F_NCOLS], rc = -1;
	size_t i;

	memset(&st, 0, sizeof(st));
	st.sc = sc;
	st.fc = fc;
	st.have_start = sc->roadmap.have_start;
	st.last = xcalloc(sc->workloads.n + 1, sizeof(*st.last));
	st.last_line = xcalloc(sc->workloads.n + 1, sizeof(*st.last_line));
	if (csvdoc_load(&doc, path, d) || csvdoc_bind(&doc, forecast_cols, idx, d))
		goto out;
	if (!doc.nrows) {
		diag_set(d, DIAG_INPUT, path, doc.header.line, 0, "no rows: a forecast needs at least one");
		goto out;
	}
	*rows = xcalloc(doc.nrows, sizeof(**rows));
	for (i = 0; i < doc.nrows; i++) {
		const struct csvread rd = { &doc, &doc.rows[i], forecast_cols, idx, d };
		if (csvdoc_interrupted(&doc, i, d) || read_row(&rd, &st, &(*rows)[i]))
			goto out;
		fc->named[(*rows)[i].w] = 1;
	}
	*n = doc.nrows;
	rc = 0;
out:
	free(st.last);
	free(st.last_line);
	csvdoc_release(&doc);
	return rc;
}

/* Workload w's growth a year: its growth_by_workload entry, else growth_per_year. */
static double growth_of(const struct scenario *sc, size_t w)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	size_t i;

	for (i = 0; i < R->ngrowth; i++)
		if (!strcmp(R->growth[i].workload, sc->workloads.w[w].name))
			return R->growth[i].per_year;
	return R->growth_per_year;
}

/* A workload of growth_by_workload that the forecast names: its rows, not a rate, set its replicas. */
static int growth_named(const struct forecast *fc, const struct scenario *sc, struct diag *d)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	size_t i, w;

	for (i = 0; i < R->ngrowth; i++)
		for (w = 0; w < fc->nw; w++)
			if (fc->named[w] && !strcmp(R->growth[i].workload, sc->workloads.w[w].name))
				return diag_set(d, DIAG_INPUT, sc->file, R->growth[i].line, R->growth[i].col,
						"workload '%s' in growth_by_workload is named by the forecast %s: its rows "
						"set its replicas, not a growth rate",
						R->growth[i].workload, fc->source);
	return 0;
}

/* The table: rows (in period order) for the workloads they name, growth for the others. */
static void fill(struct forecast *fc, const struct scenario *sc, const struct frow *rows, size_t nrows)
{
	double ppy = period_per_year(fc->kind);
	size_t t, w, i = 0;

	fc->replicas = xcalloc(fc->nperiods * (fc->nw ? fc->nw : 1), sizeof(*fc->replicas));
	for (t = 0; t < fc->nperiods; t++) {
		long *row = &fc->replicas[t * fc->nw];
		for (w = 0; w < fc->nw; w++) {
			if (fc->named[w]) {
				row[w] = t ? row[(long)w - (long)fc->nw] : 0;
			} else {
				double g = growth_of(sc, w);
				double v = floor((double)sc->workloads.w[w].replicas * pow(1 + g, (double)t / ppy) + 0.5);
				row[w] = v > FORECAST_MAX_REPLICAS ? FORECAST_MAX_REPLICAS : (long)v;
			}
		}
		for (; i < nrows && rows[i].period == fc->start + (long)t; i++)
			row[rows[i].w] = rows[i].n;
	}
}

int forecast_build(struct forecast *fc, const struct scenario *sc, const char *path, struct diag *d)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	struct frow *rows = NULL;
	size_t nrows = 0;
	long last;

	memset(fc, 0, sizeof(*fc));
	fc->kind = R->present ? R->period : PERIOD_QUARTER;
	fc->start = R->start;
	fc->nw = sc->workloads.n;
	fc->named = xcalloc(fc->nw + 1, 1);
	if (!path)
		path = R->forecast;
	if (path) {
		fc->source = xstrdup(path);
		if (read_csv(fc, sc, path, &rows, &nrows, d) || growth_named(fc, sc, d)) {
			free(rows);
			forecast_release(fc);
			return -1;
		}
	} else if (!R->have_start) {
		forecast_release(fc);
		return diag_set(d, DIAG_USAGE, NULL, 0, 0,
				"the roadmap needs a forecast (--forecast FILE or roadmap.forecast) or a roadmap.start");
	}
	last = nrows ? rows[nrows - 1].period : fc->start;
	fc->nperiods = R->periods > 0 ? (size_t)R->periods : (size_t)(last - fc->start + 1);
	fill(fc, sc, rows, nrows);
	free(rows);
	return 0;
}
