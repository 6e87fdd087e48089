/*
 * sweep_merge.c - the merged report of a sweep: the cases, per option the
 * figures its design supports, per option and parameter the cost at the
 * parameter's ends (sensitivity, a tornado) and where the cheapest option
 * changes (break-even), as CSV, JSON and HTML.  The figures come from
 * sweep_stats.c; this file only writes them, in case order, so the bytes
 * do not depend on how the cases were run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "html_sweep.h"
#include "outfile.h"
#include "sweep_report.h"
#include "sweep_stats.h"
#include "util.h"
#include "banned.h"

/* The merge's working set: the spec, the cases and the options' names. */
struct merge {
	const struct sweep_spec *s;
	const struct sweep_case_result *cases;
	size_t n;		/* cases */
	const char **opt;	/* [noptions]: scenario names (from the first case done, else the files) */
	const struct sweep_merge_stats *stats;
	struct sb cases_csv, options_csv, sens_csv, be_csv;
	cJSON *root;
};

static double round_to(double v, int decimals)
{
	return sweep_round(v, decimals);
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

static void write_cases(struct merge *m)
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
		} else if (c->state == SWEEP_CASE_FAILED) {
			cJSON *f = cJSON_CreateObject();
			cJSON_AddStringToObject(f, "case", c->name);
			cJSON_AddNumberToObject(f, "exit_code", c->exit_code);
			cJSON_AddStringToObject(f, "error", c->error);
			cJSON_AddItemToArray(failed, f);
			cJSON_AddStringToObject(o, "error", c->error);
		} else {
			cJSON_AddItemToArray(missing, cJSON_CreateString(c->name));
		}
		cJSON_AddItemToArray(arr, o);
	}
	cJSON_AddItemToObject(m->root, "failed", failed);
	cJSON_AddItemToObject(m->root, "missing", missing);
}

/* ================= options ================= */

/* One column of options.csv and key of sweep.json's options: its name and what it holds. */
enum ocol { OC_BASE, OC_RANK_AT_BASE, OC_MIN, OC_MEDIAN, OC_P5, OC_P50, OC_P95, OC_MEAN, OC_MAX, OC_BEST, OC_SHARE,
	    OC_P_BEST, OC_P_LO, OC_P_HI };
struct ocol_def {
	const char *key;
	enum ocol what;
};

/* The figures each design reports (docs/sweep.md says why). */
static const struct ocol_def cols_oat[] = { { "base_usd", OC_BASE }, { "rank_at_base", OC_RANK_AT_BASE },
					    { "min_usd", OC_MIN }, { "max_usd", OC_MAX }, { NULL, 0 } };
static const struct ocol_def cols_grid[] = { { "min_usd", OC_MIN }, { "median_usd", OC_MEDIAN },
					     { "mean_usd", OC_MEAN }, { "max_usd", OC_MAX },
					     { "cases_cheapest", OC_BEST }, { "share_cheapest", OC_SHARE },
					     { NULL, 0 } };
static const struct ocol_def cols_mc[] = { { "mean_usd", OC_MEAN }, { "min_usd", OC_MIN }, { "p5_usd", OC_P5 },
					   { "p50_usd", OC_P50 }, { "p95_usd", OC_P95 }, { "max_usd", OC_MAX },
					   { "p_best", OC_P_BEST }, { "p_best_low95", OC_P_LO },
					   { "p_best_high95", OC_P_HI }, { NULL, 0 } };

/* Column c of option o: its value and decimals (2 money, 4 shares, 0 counts); NAN: none (CSV empty, JSON null). */
static double ocol_value(const struct sweep_option_stats *o, enum ocol c, int *decimals)
{
	*decimals = c == OC_SHARE || c == OC_P_BEST || c == OC_P_LO || c == OC_P_HI ? 4 : 2;
	switch (c) {
	case OC_BASE: return o->base;
	case OC_RANK_AT_BASE: *decimals = 0; return o->rank_at_base ? (double)o->rank_at_base : NAN;
	case OC_MIN: return o->min;
	case OC_MEDIAN: case OC_P50: return o->p50;
	case OC_P5: return o->p5;
	case OC_P95: return o->p95;
	case OC_MEAN: return o->mean;
	case OC_MAX: return o->max;
	case OC_BEST: *decimals = 0; return (double)o->best;
	case OC_SHARE: case OC_P_BEST: return o->share_best;
	case OC_P_LO: return o->best_lo;
	case OC_P_HI: return o->best_hi;
	}
	return NAN;
}

static void write_options(struct merge *m, const struct sweep_merge_stats *st)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "options");
	const struct ocol_def *cols = m->s->design == SWEEP_ONE_AT_A_TIME ? cols_oat
				    : m->s->design == SWEEP_GRID	? cols_grid
									: cols_mc;
	const char *count = m->s->design == SWEEP_MONTE_CARLO ? "samples" : "cases";
	size_t k, c;

	sb_addf(&m->options_csv, "option,file,%s", count);
	for (c = 0; cols[c].key; c++)
		sb_addf(&m->options_csv, ",%s", cols[c].key);
	sb_adds(&m->options_csv, ",cases_with_unplaced\n");
	for (k = 0; k < m->s->noptions; k++) {
		const struct sweep_option_stats *os = &st->opt[k];
		cJSON *o = cJSON_CreateObject();
		sb_add_csv(&m->options_csv, m->opt[k]);
		sb_adds(&m->options_csv, ",");
		sb_add_csv(&m->options_csv, m->s->options[k]);
		sb_addf(&m->options_csv, ",%zu", os->cases);
		cJSON_AddStringToObject(o, "option", m->opt[k]);
		cJSON_AddStringToObject(o, "file", m->s->options[k]);
		cJSON_AddNumberToObject(o, count, (double)os->cases);
		for (c = 0; cols[c].key; c++) {
			int dec;
			double v = os->cases ? ocol_value(os, cols[c].what, &dec) : NAN;
			if (isnan(v)) {
				sb_adds(&m->options_csv, ",");
				cJSON_AddNullToObject(o, cols[c].key);
			} else {
				csv_num(&m->options_csv, v, dec);
				cJSON_AddNumberToObject(o, cols[c].key, round_to(v, dec));
			}
		}
		sb_addf(&m->options_csv, ",%zu\n", os->with_unplaced);
		cJSON_AddNumberToObject(o, "cases_with_unplaced", (double)os->with_unplaced);
		cJSON_AddItemToArray(arr, o);
	}
}

/* ================= sensitivity ================= */

/* One row of sensitivity.csv and sweep.json's sensitivity: parameter w->param's effect on option w->option. */
static void sensitivity_row(struct merge *m, cJSON *arr, const struct sweep_swing *w, int oat)
{
	const char *pn = sweep_param_name(m->s->params[w->param].id);
	cJSON *j = cJSON_CreateObject();

	sb_add_csv(&m->sens_csv, m->opt[w->option]);
	sb_addf(&m->sens_csv, ",%s,%zu", pn, w->cases);
	cJSON_AddStringToObject(j, "option", m->opt[w->option]);
	cJSON_AddStringToObject(j, "parameter", pn);
	cJSON_AddNumberToObject(j, "cases", (double)w->cases);
	if (oat) {
		csv_value(&m->sens_csv, w->value_base);
		json_value(j, "value_base", w->value_base);
	}
	csv_value(&m->sens_csv, w->value_low);
	csv_value(&m->sens_csv, w->value_high);
	json_value(j, "value_low", w->value_low);
	json_value(j, "value_high", w->value_high);
	if (oat) {
		double base = m->stats->opt[w->option].base;
		if (isnan(base))
			sb_adds(&m->sens_csv, ",");
		else
			csv_num(&m->sens_csv, base, 2);
		if (isnan(base))
			cJSON_AddNullToObject(j, "cost_at_base_usd");
		else
			cJSON_AddNumberToObject(j, "cost_at_base_usd", round_to(base, 2));
	}
	csv_num(&m->sens_csv, w->cost_low, 2);
	csv_num(&m->sens_csv, w->cost_high, 2);
	csv_num(&m->sens_csv, w->swing, 2);
	csv_num(&m->sens_csv, w->slope, 2);
	cJSON_AddNumberToObject(j, "cost_at_low_usd", round_to(w->cost_low, 2));
	cJSON_AddNumberToObject(j, "cost_at_high_usd", round_to(w->cost_high, 2));
	cJSON_AddNumberToObject(j, "swing_usd", round_to(w->swing, 2));
	cJSON_AddNumberToObject(j, "slope_usd_per_unit", round_to(w->slope, 2));
	if (!oat) {
		csv_num(&m->sens_csv, w->correlation, 4);
		cJSON_AddNumberToObject(j, "correlation", round_to(w->correlation, 4));
	}
	sb_adds(&m->sens_csv, "\n");
	cJSON_AddItemToArray(arr, j);
}

static void write_sensitivity(struct merge *m, const struct sweep_merge_stats *st)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "sensitivity");
	int oat = m->s->design == SWEEP_ONE_AT_A_TIME;
	size_t i;

	sb_adds(&m->sens_csv, oat ? "option,parameter,cases,value_base,value_low,value_high,cost_at_base_usd,"
				    "cost_at_low_usd,cost_at_high_usd,swing_usd,slope_usd_per_unit\n"
				  : "option,parameter,cases,value_low,value_high,cost_at_low_usd,cost_at_high_usd,"
				    "swing_usd,slope_usd_per_unit,correlation\n");
	for (i = 0; i < st->nswing; i++)
		sensitivity_row(m, arr, &st->swing[i], oat);
}

/* ================= break-even ================= */

static void write_breakeven(struct merge *m, const struct sweep_merge_stats *st)
{
	cJSON *arr = cJSON_AddArrayToObject(m->root, "breakeven");
	size_t i;

	sb_adds(&m->be_csv, "parameter,value,cheapest_below,cheapest_above\n");
	for (i = 0; i < st->nflip; i++) {
		const struct sweep_flip *f = &st->flip[i];
		cJSON *j = cJSON_CreateObject();
		const char *pn = sweep_param_name(m->s->params[f->param].id);
		sb_adds(&m->be_csv, pn);
		csv_value(&m->be_csv, f->value);
		sb_adds(&m->be_csv, ",");
		sb_add_csv(&m->be_csv, m->opt[f->below]);
		sb_adds(&m->be_csv, ",");
		sb_add_csv(&m->be_csv, m->opt[f->above]);
		sb_adds(&m->be_csv, "\n");
		cJSON_AddStringToObject(j, "parameter", pn);
		json_value(j, "value", f->value);
		cJSON_AddStringToObject(j, "cheapest_below", m->opt[f->below]);
		cJSON_AddStringToObject(j, "cheapest_above", m->opt[f->above]);
		cJSON_AddItemToArray(arr, j);
	}
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
	if (m->s->design == SWEEP_ONE_AT_A_TIME) {
		int b = m->stats->best_at_base;
		if (b < 0)
			cJSON_AddNullToObject(m->root, "cheapest_at_base");
		else
			cJSON_AddStringToObject(m->root, "cheapest_at_base", m->opt[b]);
	}
}

int sweep_merge_write(const char *dir, enum report_format fmt, const struct sweep_spec *s,
		      const struct sweep_case_result *cases, struct sweep_merge_stats *st, struct diag *d)
{
	struct merge m;
	struct outset os = OUTSET_INIT;
	size_t i, k;
	int rc;

	memset(&m, 0, sizeof(m));
	sweep_stats_compute(st, s, cases);
	m.s = s;
	m.cases = cases;
	m.stats = st;
	m.n = sweep_ncases(s);
	m.opt = xcalloc(s->noptions, sizeof(*m.opt));
	for (k = 0; k < s->noptions; k++)
		m.opt[k] = s->options[k];
	for (i = m.n; i-- > 0;)	/* the names of the first case done */
		if (cases[i].state == SWEEP_CASE_DONE)
			for (k = 0; k < s->noptions; k++)
				m.opt[k] = cases[i].opt[k].scenario;
	sb_init(&m.cases_csv);
	sb_init(&m.options_csv);
	sb_init(&m.sens_csv);
	sb_init(&m.be_csv);
	m.root = cJSON_CreateObject();
	write_head(&m);
	write_options(&m, st);
	write_sensitivity(&m, st);
	write_breakeven(&m, st);
	write_cases(&m);
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
