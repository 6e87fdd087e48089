/*
 * sweep_merge.c - the merged report of a sweep: per option the spread of
 * its cost and how often it ranks first; per parameter the cost range,
 * slope and correlation (sensitivity) and where the cheapest option
 * changes (break-even).  Every figure is computed from the case files in
 * case order, so the bytes do not depend on how the cases were run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "html_sweep.h"
#include "outfile.h"
#include "sweep_report.h"
#include "util.h"
#include "banned.h"

/* The merge's working set: the spec, the cases and the options' names. */
struct merge {
	const struct sweep_spec *s;
	const struct sweep_case_result *cases;
	size_t n;		/* cases */
	const char **opt;	/* [noptions]: scenario names (from the first case done, else the files) */
	struct sb cases_csv, options_csv, sens_csv, be_csv;
	cJSON *root;
};

static double round_to(double v, int decimals)
{
	double f = pow(10, decimals);
	return round(v * f) / f;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The p-quantile of sorted x[0..n) (linear between order statistics, as numpy's default). */
static double quantile(const double *x, size_t n, double p)
{
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return x[n - 1];
	return x[lo] + (h - (double)lo) * (x[lo + 1] - x[lo]);
}

/* A number to CSV: money and figures with a fixed number of decimals. */
static void csv_num(struct sb *sb, double v, int decimals)
{
	char b[64];
	sb_addf(sb, ",%s", fmt_fixed(b, sizeof(b), round_to(v, decimals), decimals));
}

/* A parameter value to CSV (short form; empty for each option's own). */
static void csv_value(struct sb *sb, double v)
{
	char b[64];
	sb_addf(sb, ",%s", isnan(v) ? "" : fmt_num_short(b, sizeof(b), v, 6));
}

static void json_value(cJSON *o, const char *key, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, round_to(v, 6));
}

/* ================= cases ================= */

static void write_cases(struct merge *m, struct sweep_merge_stats *st)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "cases"), *failed = cJSON_CreateArray();
	cJSON *missing = cJSON_CreateArray();
	size_t i, k;

	sb_adds(&m->cases_csv, "case,state");
	for (k = 0; k < m->s->nparams; k++)
		sb_addf(&m->cases_csv, ",%s", sweep_param_name(m->s->params[k].id));
	for (k = 0; k < m->s->noptions; k++) {
		sb_adds(&m->cases_csv, ",");
		sb_add_csv(&m->cases_csv, m->opt[k]);
	}
	sb_adds(&m->cases_csv, ",best,error\n");
	for (i = 0; i < m->n; i++) {
		const struct sweep_case_result *c = &m->cases[i];
		static const char *const state[] = { "missing", "failed", "done" };
		cJSON *o = cJSON_CreateObject(), *pv = cJSON_CreateObject(), *cost = cJSON_CreateObject();
		const char *best = "";
		sb_add_csv(&m->cases_csv, c->name);
		sb_addf(&m->cases_csv, ",%s", state[c->state]);
		cJSON_AddStringToObject(o, "case", c->name);
		cJSON_AddStringToObject(o, "state", state[c->state]);
		for (k = 0; k < m->s->nparams; k++) {
			csv_value(&m->cases_csv, c->values[k]);
			json_value(pv, sweep_param_name(m->s->params[k].id), c->values[k]);
		}
		cJSON_AddItemToObject(o, "parameters", pv);
		for (k = 0; k < m->s->noptions; k++) {
			if (c->state != SWEEP_CASE_DONE) {
				sb_adds(&m->cases_csv, ",");
				continue;
			}
			csv_num(&m->cases_csv, c->opt[k].total, 2);
			cJSON_AddNumberToObject(cost, m->opt[k], c->opt[k].total);
			if (c->opt[k].rank == 1)
				best = m->opt[k];
		}
		cJSON_AddItemToObject(o, "cost_total_usd", cost);
		sb_adds(&m->cases_csv, ",");
		sb_add_csv(&m->cases_csv, best);
		sb_adds(&m->cases_csv, ",");
		sb_add_csv(&m->cases_csv, c->error ? c->error : "");
		sb_adds(&m->cases_csv, "\n");
		if (c->state == SWEEP_CASE_DONE) {
			cJSON_AddStringToObject(o, "best", best);
			st->done++;
		} else if (c->state == SWEEP_CASE_FAILED) {
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "case", c->name);
			cJSON_AddNumberToObject(f, "exit_code", c->exit_code);
			cJSON_AddStringToObject(f, "error", c->error);
			cJSON_AddItemToArray(failed, f);
			cJSON_AddStringToObject(o, "error", c->error);
			st->failed++;
		} else {
			cJSON_AddItemToArray(missing, cJSON_CreateString(c->name));
			st->missing++;
		}
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddItemToObject(m->root, "failed", failed);
	cJSON_AddItemToObject(m->root, "missing", missing);
}

/* ================= options ================= */

static void write_options(struct merge *m, struct sweep_merge_stats *st)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "options");
	double *x = xcalloc(m->n + 1, sizeof(*x));
	size_t i, k, nx, best, unpl;

	sb_adds(&m->options_csv, "option,file,cases,mean_usd,min_usd,p5_usd,p50_usd,p95_usd,max_usd,p_best,"
				 "cases_with_unplaced\n");
	for (k = 0; k < m->s->noptions; k++) {
		cJSON *o = cJSON_CreateObject();
		double sum = 0, f[7] = { 0 };
		static const char *const key[7] = { "mean_usd", "min_usd", "p5_usd", "p50_usd", "p95_usd", "max_usd",
						    "p_best" };
		int q;
		nx = best = unpl = 0;
		for (i = 0; i < m->n; i++) {
			if (m->cases[i].state != SWEEP_CASE_DONE)
				continue;
			x[nx++] = m->cases[i].opt[k].total;
			sum += m->cases[i].opt[k].total;
			best += m->cases[i].opt[k].rank == 1;
			unpl += m->cases[i].opt[k].unplaced > 0;
		}
		qsort(x, nx, sizeof(*x), cmp_double);
		if (nx) {
			f[0] = sum / (double)nx;
			f[1] = x[0];
			f[2] = quantile(x, nx, 0.05);
			f[3] = quantile(x, nx, 0.50);
			f[4] = quantile(x, nx, 0.95);
			f[5] = x[nx - 1];
			f[6] = (double)best / (double)nx;
		}
		st->p5[k] = f[2];
		st->p50[k] = f[3];
		st->p95[k] = f[4];
		st->p_best[k] = f[6];
		sb_add_csv(&m->options_csv, m->opt[k]);
		sb_adds(&m->options_csv, ",");
		sb_add_csv(&m->options_csv, m->s->options[k]);
		sb_addf(&m->options_csv, ",%zu", nx);
		cJSON_AddStringToObject(o, "option", m->opt[k]);
		cJSON_AddStringToObject(o, "file", m->s->options[k]);
		cJSON_AddNumberToObject(o, "cases", (double)nx);
		for (q = 0; q < 7; q++) {
			csv_num(&m->options_csv, f[q], q == 6 ? 4 : 2);
			cJSON_AddNumberToObject(o, key[q], round_to(f[q], q == 6 ? 4 : 2));
		}
		sb_addf(&m->options_csv, ",%zu\n", unpl);
		cJSON_AddNumberToObject(o, "cases_with_unplaced", (double)unpl);
		cJSON_AddItemToArray(arr, o);
	}
	free(x);
}

/* ================= sensitivity ================= */

/* The cases that tell about parameter k: one-at-a-time those varying it, else every case done with a value. */
static int case_counts(const struct merge *m, size_t i, size_t k)
{
	const struct sweep_case_result *c = &m->cases[i];
	if (c->state != SWEEP_CASE_DONE || isnan(c->values[k]))
		return 0;
	return m->s->design != SWEEP_ONE_AT_A_TIME || sweep_case_varies(m->s, i) == (int)k;
}

/* Least squares of option o's cost on parameter k: mean x, mean y, Sxx, Sxy, Syy; the number of cases. */
struct fit {
	size_t n;
	double mx, my, sxx, sxy, syy;
	double lo, hi;		/* smallest and largest value */
};

static void fit_cases(const struct merge *m, size_t k, size_t o, struct fit *f)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < m->n; i++)
		if (case_counts(m, i, k)) {
			double x = m->cases[i].values[k];
			f->lo = f->n && f->lo < x ? f->lo : x;
			f->hi = f->n && f->hi > x ? f->hi : x;
			f->n++;
			f->mx += x;
			f->my += m->cases[i].opt[o].total;
		}
	if (!f->n)
		return;
	f->mx /= (double)f->n;
	f->my /= (double)f->n;
	for (i = 0; i < m->n; i++)
		if (case_counts(m, i, k)) {
			double dx = m->cases[i].values[k] - f->mx, dy = m->cases[i].opt[o].total - f->my;
			f->sxx += dx * dx;
			f->sxy += dx * dy;
			f->syy += dy * dy;
		}
}

static double fit_slope(const struct fit *f)
{
	return f->sxx > 0 ? f->sxy / f->sxx : 0;
}

/* The mean cost of option o over the cases of parameter k at value x. */
static double mean_at(const struct merge *m, size_t k, size_t o, double x)
{
	double sum = 0;
	size_t i, n = 0;
	for (i = 0; i < m->n; i++)
		if (case_counts(m, i, k) && m->cases[i].values[k] == x) {
			sum += m->cases[i].opt[o].total;
			n++;
		}
	return n ? sum / (double)n : 0;
}

/*
 * Option o's cost at x for parameter k: the least-squares line (Monte
 * Carlo), else the mean over the cases at x.
 */
static double cost_at(const struct merge *m, size_t k, size_t o, const struct fit *f, double x)
{
	if (m->s->design == SWEEP_MONTE_CARLO)
		return f->my + fit_slope(f) * (x - f->mx);
	return mean_at(m, k, o, x);
}

/* The values of parameter k seen in the cases that count, sorted, each once; their number. */
static size_t distinct_values(const struct merge *m, size_t k, double *v)
{
	size_t i, n = 0, j, u = 0;
	for (i = 0; i < m->n; i++)
		if (case_counts(m, i, k))
			v[n++] = m->cases[i].values[k];
	qsort(v, n, sizeof(*v), cmp_double);
	for (j = 0; j < n; j++)
		if (!u || v[u - 1] != v[j])
			v[u++] = v[j];
	return u;
}

static void write_sensitivity(struct merge *m)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "sensitivity");
	double *x = xcalloc(m->n + 1, sizeof(*x));
	size_t k, o, i, nx;
	struct fit f;

	sb_adds(&m->sens_csv, "parameter,option,cases,value_low,value_high,cost_at_low_usd,cost_at_high_usd,swing_usd,"
			      "slope_usd_per_unit,correlation\n");
	for (k = 0; k < m->s->nparams; k++) {
		const char *pn = sweep_param_name(m->s->params[k].id);
		for (o = 0; o < m->s->noptions; o++) {
			double lo, hi, clo, chi, corr;
			cJSON *j;
			fit_cases(m, k, o, &f);
			if (!f.n)
				continue;
			lo = f.lo;
			hi = f.hi;
			if (m->s->design == SWEEP_MONTE_CARLO) {
				for (i = nx = 0; i < m->n; i++)
					if (case_counts(m, i, k))
						x[nx++] = m->cases[i].values[k];
				qsort(x, nx, sizeof(*x), cmp_double);
				lo = quantile(x, nx, 0.05);
				hi = quantile(x, nx, 0.95);
			}
			clo = cost_at(m, k, o, &f, lo);
			chi = cost_at(m, k, o, &f, hi);
			corr = f.sxx > 0 && f.syy > 0 ? f.sxy / sqrt(f.sxx * f.syy) : 0;
			sb_adds(&m->sens_csv, pn);
			sb_adds(&m->sens_csv, ",");
			sb_add_csv(&m->sens_csv, m->opt[o]);
			sb_addf(&m->sens_csv, ",%zu", f.n);
			csv_value(&m->sens_csv, lo);
			csv_value(&m->sens_csv, hi);
			csv_num(&m->sens_csv, clo, 2);
			csv_num(&m->sens_csv, chi, 2);
			csv_num(&m->sens_csv, chi - clo, 2);
			csv_num(&m->sens_csv, fit_slope(&f), 2);
			csv_num(&m->sens_csv, corr, 4);
			sb_adds(&m->sens_csv, "\n");
			j = cJSON_CreateObject();
			cJSON_AddStringToObject(j, "parameter", pn);
			cJSON_AddStringToObject(j, "option", m->opt[o]);
			cJSON_AddNumberToObject(j, "cases", (double)f.n);
			json_value(j, "value_low", lo);
			json_value(j, "value_high", hi);
			cJSON_AddNumberToObject(j, "cost_at_low_usd", round_to(clo, 2));
			cJSON_AddNumberToObject(j, "cost_at_high_usd", round_to(chi, 2));
			cJSON_AddNumberToObject(j, "swing_usd", round_to(chi - clo, 2));
			cJSON_AddNumberToObject(j, "slope_usd_per_unit", round_to(fit_slope(&f), 2));
			cJSON_AddNumberToObject(j, "correlation", round_to(corr, 4));
			cJSON_AddItemToArray(arr, j);
		}
	}
	free(x);
}

/* ================= break-even ================= */

/* The cheapest option at x for parameter k (the first on a tie). */
static size_t cheapest_at(const struct merge *m, size_t k, const struct fit *f, double x)
{
	size_t o, best = 0;
	double bc = cost_at(m, k, 0, &f[0], x);
	for (o = 1; o < m->s->noptions; o++) {
		double c = cost_at(m, k, o, &f[o], x);
		if (c < bc) {
			bc = c;
			best = o;
		}
	}
	return best;
}

static void breakeven_row(struct merge *m, cJSON *arr, size_t k, double x, size_t a, size_t b)
{
	cJSON *j = cJSON_CreateObject();
	const char *pn = sweep_param_name(m->s->params[k].id);
	sb_adds(&m->be_csv, pn);
	csv_value(&m->be_csv, x);
	sb_adds(&m->be_csv, ",");
	sb_add_csv(&m->be_csv, m->opt[a]);
	sb_adds(&m->be_csv, ",");
	sb_add_csv(&m->be_csv, m->opt[b]);
	sb_adds(&m->be_csv, "\n");
	cJSON_AddStringToObject(j, "parameter", pn);
	json_value(j, "value", x);
	cJSON_AddStringToObject(j, "cheapest_below", m->opt[a]);
	cJSON_AddStringToObject(j, "cheapest_above", m->opt[b]);
	cJSON_AddItemToArray(arr, j);
}

/*
 * The points where the cheapest option changes along parameter k: v
 * holds nv candidate points, sorted; between two the costs are linear
 * (the means at the values for grid and one-at-a-time, the fitted lines
 * for Monte Carlo, whose candidates are the lines' crossings), so the
 * change lies where the two options' costs cross.
 */
static void breakeven_walk(struct merge *m, cJSON *arr, size_t k, const struct fit *f, const double *v, size_t nv)
{
	size_t j, a, b;

	for (j = 0; j + 1 < nv; j++) {
		double x0 = v[j], x1 = v[j + 1], d0, d1, x;
		a = cheapest_at(m, k, f, m->s->design == SWEEP_MONTE_CARLO ? (x0 + x1) / 2 : x0);
		b = cheapest_at(m, k, f, m->s->design == SWEEP_MONTE_CARLO && j + 2 < nv ? (x1 + v[j + 2]) / 2 : x1);
		if (a == b)
			continue;
		d0 = cost_at(m, k, a, &f[a], x0) - cost_at(m, k, b, &f[b], x0);
		d1 = cost_at(m, k, a, &f[a], x1) - cost_at(m, k, b, &f[b], x1);
		x = m->s->design == SWEEP_MONTE_CARLO ? x1 : d1 != d0 ? x0 + (x1 - x0) * -d0 / (d1 - d0) : x1;
		breakeven_row(m, arr, k, x, a, b);
	}
}

/* Monte Carlo candidates: the ends of the values seen and every crossing of two fitted lines between them. */
static size_t line_crossings(const struct merge *m, const struct fit *f, double *v)
{
	size_t a, b, n = 0;
	v[n++] = f[0].lo;
	for (a = 0; a < m->s->noptions; a++)
		for (b = a + 1; b < m->s->noptions; b++) {
			double sa = fit_slope(&f[a]), sb = fit_slope(&f[b]), x;
			if (sa == sb)
				continue;
			x = f[a].mx + ((f[b].my - sb * (f[b].mx - f[a].mx)) - f[a].my) / (sa - sb);
			if (x > f[0].lo && x < f[0].hi)
				v[n++] = x;
		}
	v[n++] = f[0].hi;
	qsort(v, n, sizeof(*v), cmp_double);
	return n;
}

static void write_breakeven(struct merge *m)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "breakeven");
	size_t no = m->s->noptions, k, o, nv;
	struct fit *f = xcalloc(no, sizeof(*f));
	double *v = xcalloc(m->n + no * no + 2, sizeof(*v));

	sb_adds(&m->be_csv, "parameter,value,cheapest_below,cheapest_above\n");
	for (k = 0; k < m->s->nparams && no > 1; k++) {
		for (o = 0; o < no; o++)
			fit_cases(m, k, o, &f[o]);
		if (f[0].n < 2)
			continue;
		nv = m->s->design == SWEEP_MONTE_CARLO ? line_crossings(m, f, v) : distinct_values(m, k, v);
		breakeven_walk(m, arr, k, f, v, nv);
	}
	free(v);
	free(f);
}

/* ================= the whole ================= */

static void write_head(struct merge *m)
{
	cJSON *params = cJSON_CreateArray();
	size_t k;

	cJSON_AddStringToObject(m->root, "schema_version", SWEEP_REPORT_SCHEMA_VERSION);
	cJSON_AddStringToObject(m->root, "sweep", m->s->name);
	cJSON_AddStringToObject(m->root, "design", sweep_design_name(m->s->design));
	cJSON_AddNumberToObject(m->root, "cases_total", (double)m->n);
	for (k = 0; k < m->s->nparams; k++) {
		const struct sweep_param *p = &m->s->params[k];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", sweep_param_name(p->id));
		cJSON_AddStringToObject(o, "given_as", sweep_dist_name(p->dist));
		cJSON_AddItemToArray(params, o);
	}
	cJSON_AddItemToObject(m->root, "parameters", params);
}

int sweep_merge_write(const char *dir, enum report_format fmt, const struct sweep_spec *s,
		      const struct sweep_case_result *cases, struct sweep_merge_stats *st, struct diag *d)
{
	struct merge m;
	struct outset os = OUTSET_INIT;
	size_t i, k;
	int rc;

	memset(&m, 0, sizeof(m));
	memset(st, 0, sizeof(*st));
	m.s = s;
	m.cases = cases;
	m.n = st->ncases = sweep_ncases(s);
	m.opt = xcalloc(s->noptions, sizeof(*m.opt));
	for (k = 0; k < s->noptions; k++)
		m.opt[k] = s->options[k];
	for (i = m.n; i-- > 0;)	/* the names of the first case done */
		if (cases[i].state == SWEEP_CASE_DONE)
			for (k = 0; k < s->noptions; k++)
				m.opt[k] = cases[i].opt[k].scenario;
	st->p5 = xcalloc(s->noptions, sizeof(double));
	st->p50 = xcalloc(s->noptions, sizeof(double));
	st->p95 = xcalloc(s->noptions, sizeof(double));
	st->p_best = xcalloc(s->noptions, sizeof(double));
	sb_init(&m.cases_csv);
	sb_init(&m.options_csv);
	sb_init(&m.sens_csv);
	sb_init(&m.be_csv);
	m.root = cJSON_CreateObject();
	write_head(&m);
	write_options(&m, st);
	write_sensitivity(&m);
	write_breakeven(&m);
	write_cases(&m, st);
	outset_init(&os, dir);
	if (fmt & REPORT_CSV) {
		outset_add_sb(&os, "cases.csv", &m.cases_csv);
		outset_add_sb(&os, "options.csv", &m.options_csv);
		outset_add_sb(&os, "sensitivity.csv", &m.sens_csv);
		outset_add_sb(&os, "breakeven.csv", &m.be_csv);
	}
	if (fmt & REPORT_JSON) {
		char *json = cJSON_Print(m.root);
		outset_add(&os, "sweep.json", xasprintf("%s\n", json), strlen(json) + 1);
		cJSON_free(json);
	}
	if (fmt & REPORT_HTML) {
		char *html = html_sweep_page(m.root);
		outset_add(&os, "report.html", html, strlen(html));
	}
	rc = outset_commit(&os, d);
	outset_release(&os);
	sb_release(&m.cases_csv);
	sb_release(&m.options_csv);
	sb_release(&m.sens_csv);
	sb_release(&m.be_csv);
	cJSON_Delete(m.root);
	free(m.opt);
	return rc;
}

void sweep_merge_stats_release(struct sweep_merge_stats *st)
{
	free(st->p5);
	free(st->p50);
	free(st->p95);
	free(st->p_best);
	memset(st, 0, sizeof(*st));
}

void sweep_case_results_free(struct sweep_case_result *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sweep_case_result_release(&cases[i]);
	free(cases);
}

struct sweep_case_result *sweep_merge(const char *dir, enum report_format fmt, const struct sweep_spec *s,
				      struct sweep_merge_stats *st, struct diag *d)
{
	size_t n = sweep_ncases(s), i;
	struct sweep_case_result *cases = xcalloc(n, sizeof(*cases));
	char *results = xasprintf("%s/results", dir);
	int rc = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < n && !rc; i++)
		rc = sweep_result_read(results, s, i, &cases[i], d) < 0 ? -1 : 0;
	if (!rc)
		rc = sweep_merge_write(dir, fmt, s, cases, st, d);
	free(results);
	if (rc) {
		sweep_case_results_free(cases, n);
		sweep_merge_stats_release(st);
		return NULL;
	}
	return cases;
}
