/*
 * html_sweep.c - report.html of a sweep, from sweep.json's tree, with the
 * figures its design supports (docs/sweep.md): the options (one-at-a-time:
 * the base case's cost and the range; a grid: range, median and the share
 * of its points where each is cheapest; Monte Carlo: percentiles and the
 * chance each is cheapest), a tornado per option (the cost at each
 * parameter's low and high value, parameters sorted by swing, around the
 * base case or the mean), for a grid or a sample the distribution of each
 * option's cost (a histogram and the cumulative share), the break-even
 * values and the cases missing or failed.  Drawn with svg.c's shapes;
 * every chart is followed by its numbers as a table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_sweep.h"
#include "banned.h"

#define W 900.0		/* chart width, user units (as html.c's) */
#define LEFT 210.0	/* where the bars start: labels to the left */
#define RIGHT (W - 30)
#define BINS 20		/* histogram bins */
#define CDF_POINTS 101

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static const char *money(char *b, size_t n, double v)
{
	return isnan(v) ? "" : fmt_fixed(b, n, v, 2);
}

/* x of value v on an axis from lo to hi drawn over [LEFT, RIGHT]. */
static double xat(double v, double lo, double hi)
{
	return LEFT + (RIGHT - LEFT) * (v - lo) / (hi > lo ? hi - lo : 1);
}

/* An axis from lo to hi at y with 5 ticks and grid lines up to top. */
static void axis(struct sb *sb, double lo, double hi, double top, double y, const char *unit)
{
	char b[64];
	int i;

	for (i = 0; i <= 4; i++) {
		double v = lo + (hi - lo) * i / 4, x = xat(v, lo, hi);
		svg_line(sb, x, top, x, y, "grid");
		svg_text(sb, x, y + 14, "middle", "small tick xt", fmt_num_short(b, sizeof(b), v, 0));
	}
	svg_line(sb, LEFT, y, RIGHT, y, "ax");
	svg_text(sb, (LEFT + RIGHT) / 2, y + 34, "middle", "unit xu", unit);
}

/* A table's header row: n new strings into cells[0..n). */
static void header(char **cells, const char *const *names, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		cells[i] = xstrdup(names[i]);
}

/* A table under <details> (the chart's numbers); cells are freed. */
static void numbers(struct sb *sb, char **cells, size_t nrows, size_t ncols)
{
	size_t i;
	sb_adds(sb, "<details><summary>the numbers (table)</summary>\n");
	html_table(sb, NULL, (const char *const *)cells, nrows, ncols);
	sb_adds(sb, "</details>\n");
	for (i = 0; i < nrows * ncols; i++)
		free(cells[i]);
	free(cells);
}

/* ================= summary and options ================= */

/* Whether doc's design is d ("one-at-a-time", "grid", "monte-carlo"). */
static int design_is(const cJSON *doc, const char *d)
{
	return !strcmp(str(doc, "design"), d);
}

/* A table cell: option p's figure key with decimals places; "" when it is null. */
static char *cell(const cJSON *p, const char *key, int decimals)
{
	char b[64];
	double v = num(p, key);
	return xstrdup(isnan(v) ? "" : fmt_fixed(b, sizeof(b), v, decimals));
}

/*
 * The options' table, by design (docs/sweep.md): one-at-a-time the base
 * case and the range; a grid the range, median and mean over its points
 * and the points where each is cheapest; Monte Carlo the percentiles and
 * P(cheapest) with its interval.
 */
static void options_table(struct sb *sb, const cJSON *doc)
{
	static const char *const h_oat[] = { "option", "cases done", "base case USD", "rank at base", "min USD",
					     "max USD" };
	static const char *const h_grid[] = { "option", "grid points done", "min USD", "median USD", "mean USD",
					      "max USD", "cheapest at" };
	static const char *const h_mc[] = { "option", "samples", "P5 USD", "P50 USD", "P95 USD", "mean USD",
					    "P(cheapest)", "95% interval" };
	int oat = design_is(doc, "one-at-a-time"), grid = design_is(doc, "grid");
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "options"), *p;
	size_t n = (size_t)cJSON_GetArraySize(o), nc = oat ? 6 : grid ? 7 : 8, i = 1;
	char **cells = xcalloc(nc * (n + 1), sizeof(*cells));

	header(cells, oat ? h_oat : grid ? h_grid : h_mc, nc);
	cJSON_ArrayForEach(p, o) {
		char **r = cells + nc * i++;
		r[0] = xstrdup(str(p, "option"));
		r[1] = xasprintf("%.0f", num(p, oat || grid ? "cases" : "samples"));
		if (oat) {
			r[2] = cell(p, "base_usd", 2);
			r[3] = cell(p, "rank_at_base", 0);
			r[4] = cell(p, "min_usd", 2);
			r[5] = cell(p, "max_usd", 2);
		} else if (grid) {
			r[2] = cell(p, "min_usd", 2);
			r[3] = cell(p, "median_usd", 2);
			r[4] = cell(p, "mean_usd", 2);
			r[5] = cell(p, "max_usd", 2);
			r[6] = xasprintf("%.0f of %.0f points", num(p, "cases_cheapest"), num(p, "cases"));
		} else {
			char *lo = cell(p, "p_best_low95", 2), *hi = cell(p, "p_best_high95", 2);
			r[2] = cell(p, "p5_usd", 2);
			r[3] = cell(p, "p50_usd", 2);
			r[4] = cell(p, "p95_usd", 2);
			r[5] = cell(p, "mean_usd", 2);
			r[6] = cell(p, "p_best", 4);
			r[7] = xasprintf("%s-%s", lo, hi);
			free(lo);
			free(hi);
		}
	}
	html_table(sb,
		   oat ? "cost over the horizon per option: at the base case (every parameter at its base), its rank "
			 "there (unplaced demand first, then cost) and the range over the cases done; the cases are "
			 "chosen one parameter at a time, not drawn, so no percentiles"
		   : grid ? "cost over the horizon per option over the grid's points done, each point weighing the "
			    "same: they describe the grid chosen, not a probability"
			  : "cost over the horizon per option over the sample of cases drawn; P(cheapest): the share of "
			    "the sample where it ranks first (unplaced demand first, then cost), with its 95% Wilson "
			    "interval",
		   (const char *const *)cells, n + 1, nc);
	for (i = 0; i < nc * (n + 1); i++)
		free(cells[i]);
	free(cells);
}

static void summary(struct sb *sb, const cJSON *doc, size_t done, size_t failed, size_t missing)
{
	const cJSON *p;
	char b[64];
	struct sb params;

	sb_init(&params);
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "parameters"))
		sb_addf(&params, "%s%s (%s)", params.len ? ", " : "", str(p, "name"), str(p, "given_as"));
	html_section(sb, "summary", "Summary");
	sb_adds(sb, "<div class=\"wide\"><table>\n");
	html_kv(sb, "design", str(doc, "design"));
	snprintf(b, sizeof(b), "%.0f: %zu done, %zu failed, %zu missing", num(doc, "cases_total"), done, failed,
		 missing);
	html_kv(sb, "cases", b);
	html_kv(sb, "parameters", params.len ? params.buf : "");
	if (design_is(doc, "one-at-a-time"))
		html_kv(sb, "cheapest at the base case",
			*str(doc, "cheapest_at_base") ? str(doc, "cheapest_at_base") : "unknown: the base case is not done");
	sb_adds(sb, "</table></div>\n");
	sb_release(&params);
	options_table(sb, doc);
	html_section_end(sb);
}

/*
 * Which option is cheapest: one-at-a-time the cost of each at the base
 * case; a grid the share of its points where each is cheapest; Monte
 * Carlo the share of the sample, an estimate of the probability.
 */
static void best(struct sb *sb, const cJSON *doc)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "options"), *p;
	int oat = design_is(doc, "one-at-a-time"), grid = design_is(doc, "grid");
	size_t n = (size_t)cJSON_GetArraySize(o), i = 0;
	const char **labels = xcalloc(n + 1, sizeof(*labels));
	double *v = xcalloc(n + 1, sizeof(*v));
	static const char *const s_oat[] = { "cost at the base case, USD" };
	static const char *const s_grid[] = { "grid points where it is cheapest, %" };
	static const char *const s_mc[] = { "cases where it is cheapest, %" };
	struct html_bars b = { .nseries = 1, .decimals = 2 };
	char *text = NULL;

	b.title = oat ? "Cost of each option at the base case"
		: grid ? "Share of the grid's points where each option is cheapest"
		       : "Probability that each option is the cheapest";
	b.unit = oat ? "cost over the horizon, USD" : grid ? "% of the grid points done" : "% of the sample";
	b.series = oat ? s_oat : grid ? s_grid : s_mc;
	cJSON_ArrayForEach(p, o) {
		labels[i] = str(p, "option");
		v[i++] = oat ? num(p, "base_usd") : 100 * num(p, grid ? "share_cheapest" : "p_best");
	}
	b.nbars = n;
	b.labels = labels;
	b.v = v;
	html_section(sb, "best", "Which option is cheapest");
	if (oat && !*str(doc, "cheapest_at_base"))
		text = xstrdup("The base case is not done: run it again (gpuplan sweep run).");
	else if (oat)
		text = xasprintf("At the base case %s is cheapest. Where the cheapest option by cost changes as one "
				 "parameter moves: the break-even table below.", str(doc, "cheapest_at_base"));
	else if (!grid)
		text = xasprintf("Estimated from a sample of %.0f cases; the summary gives each share's 95%% interval.",
				 num(cJSON_GetArrayItem(o, 0), "samples"));
	if (text)
		html_p(sb, text);
	if (!oat || *str(doc, "cheapest_at_base"))
		html_bars(sb, &b);
	html_section_end(sb);
	free(text);
	free(labels);
	free(v);
}

/* ================= tornado ================= */

/* One parameter's bar of a tornado. */
struct tbar {
	const char *param;
	double vlo, vhi;	/* the parameter's low and high value */
	double clo, chi;	/* the option's cost there */
};

static int by_swing(const void *a, const void *b)
{
	const struct tbar *x = a, *y = b;
	double sx = fabs(x->chi - x->clo), sy = fabs(y->chi - y->clo);
	return sx < sy ? 1 : sx > sy ? -1 : strcmp(x->param, y->param);
}

/* The tornado of one option: bars from base to the cost at each end, the largest swing on top. */
static void tornado_chart(struct sb *sb, const char *opt, struct tbar *t, size_t n, double base, const char *base_what)
{
	double lo = base, hi = base, top = 62, rowh = 26, y;
	char *title, b[3][64];
	char **cells = xcalloc(6 * (n + 1), sizeof(*cells));
	static const char *const legend[] = { "at the parameter's low value", "at its high value" };
	static const char *const head[] = { "parameter", "low value", "high value", "cost at low, USD",
					    "cost at high, USD", "swing, USD" };
	size_t i;

	qsort(t, n, sizeof(*t), by_swing);
	for (i = 0; i < n; i++) {
		lo = fmin(lo, fmin(t[i].clo, t[i].chi));
		hi = fmax(hi, fmax(t[i].clo, t[i].chi));
	}
	if (hi <= lo)
		hi = lo + 1;
	title = xasprintf("Tornado: the cost of %s at each parameter's low and high value", opt);
	sb_adds(sb, "<figure>\n");
	svg_open(sb, W, top + rowh * (double)n + 44, title);
	svg_text(sb, 10, 20, "start", "t", title);
	for (i = 0; i < 2; i++) {
		double box[4] = { LEFT + 240 * (double)i, 34, 12, 12 };
		svg_rect(sb, box, i ? "s1" : "s0", NULL);
		svg_text(sb, box[0] + 16, 44, "start", NULL, legend[i]);
	}
	for (i = 0, y = top; i < n; i++, y += rowh) {
		double xb = xat(base, lo, hi), xl = xat(t[i].clo, lo, hi), xh = xat(t[i].chi, lo, hi);
		double bl[4] = { fmin(xb, xl), y + 4, fabs(xl - xb), rowh - 8 };
		double bh[4] = { fmin(xb, xh), y + 4, fabs(xh - xb), rowh - 8 };
		char *tip, *lab;
		lab = xasprintf("%s %s..%s", t[i].param, fmt_num_short(b[0], sizeof(b[0]), t[i].vlo, 4),
				fmt_num_short(b[1], sizeof(b[1]), t[i].vhi, 4));
		svg_text_fit(sb, (double[2]){ LEFT - 6, y + rowh / 2 + 4 }, "end", NULL, lab, 30);
		free(lab);
		tip = xasprintf("%s = %s: %s USD", t[i].param, b[0], money(b[2], sizeof(b[2]), t[i].clo));
		svg_rect(sb, bl, "s0", tip);
		free(tip);
		tip = xasprintf("%s = %s: %s USD", t[i].param, b[1], money(b[2], sizeof(b[2]), t[i].chi));
		svg_rect(sb, bh, "s1", tip);
		free(tip);
		cells[6 * (i + 1)] = xstrdup(t[i].param);
		cells[6 * (i + 1) + 1] = xstrdup(b[0]);
		cells[6 * (i + 1) + 2] = xstrdup(b[1]);
		cells[6 * (i + 1) + 3] = xstrdup(money(b[2], sizeof(b[2]), t[i].clo));
		cells[6 * (i + 1) + 4] = xstrdup(money(b[2], sizeof(b[2]), t[i].chi));
		cells[6 * (i + 1) + 5] = xstrdup(money(b[2], sizeof(b[2]), t[i].chi - t[i].clo));
	}
	y = top + rowh * (double)n;
	axis(sb, lo, hi, top, y, "cost over the horizon, USD");
	svg_line(sb, xat(base, lo, hi), top - 4, xat(base, lo, hi), y, "mark");
	svg_text(sb, xat(base, lo, hi) + 4, top - 6, "start", "small", base_what);
	svg_close(sb);
	sb_adds(sb, "</figure>\n");
	free(title);
	header(cells, head, 6);
	numbers(sb, cells, n + 1, 6);
}

/*
 * The base of an option's tornado: one-at-a-time, the base case (every
 * parameter at its base) when done; else the option's mean (over the
 * grid's points, or over the sample).
 */
static double tornado_base(const cJSON *doc, const cJSON *opt, const char **what)
{
	if (design_is(doc, "one-at-a-time") && !isnan(num(opt, "base_usd"))) {
		*what = "base case";
		return num(opt, "base_usd");
	}
	*what = "mean";
	return num(opt, "mean_usd");
}

static void tornado(struct sb *sb, const cJSON *doc)
{
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(doc, "options");
	const cJSON *sens = cJSON_GetObjectItemCaseSensitive(doc, "sensitivity"), *o, *r;
	struct tbar *t = xcalloc((size_t)cJSON_GetArraySize(sens) + 1, sizeof(*t));

	html_section(sb, "tornado", "Sensitivity: tornado per option");
	html_p(sb, design_is(doc, "monte-carlo")
			   ? "Each bar spans the option's cost at the parameter's 5th and 95th percentile, read off "
			     "the least-squares line over the cases, around the option's mean (sensitivity.csv)."
		   : design_is(doc, "grid")
			   ? "Each bar spans the option's cost at the parameter's lowest and highest value, the mean "
			     "over the other parameters' values, around the option's mean over the grid "
			     "(sensitivity.csv)."
			   : "Each bar spans the option's cost at the parameter's lowest and highest value, the other "
			     "parameters at their base, around the base case's cost; the largest swing on top "
			     "(sensitivity.csv).");
	cJSON_ArrayForEach(o, opts) {
		const char *what;
		double base = tornado_base(doc, o, &what);
		size_t n = 0;
		cJSON_ArrayForEach(r, sens) {
			if (strcmp(str(r, "option"), str(o, "option")))
				continue;
			t[n].param = str(r, "parameter");
			t[n].vlo = num(r, "value_low");
			t[n].vhi = num(r, "value_high");
			t[n].clo = num(r, "cost_at_low_usd");
			t[n++].chi = num(r, "cost_at_high_usd");
		}
		if (n)
			tornado_chart(sb, str(o, "option"), t, n, base, what);
	}
	html_section_end(sb);
	free(t);
}

/* ================= distribution ================= */

/* Option k's costs over the cases done, sorted; their number. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static size_t costs_of(const cJSON *doc, size_t k, double *x)
{
	const cJSON *c;
	size_t n = 0;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases"))
		if (!strcmp(str(c, "state"), "done"))
			x[n++] = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "cost_total_usd"), (int)k)->valuedouble;
	qsort(x, n, sizeof(*x), cmp_double);
	return n;
}

/*
 * Histograms of every option on one cost axis, one strip each: a sample's
 * P5, P50 and P95 marked, or (sample 0) a grid's median.
 */
static void histograms(struct sb *sb, const cJSON *opts, double **x, size_t n, const double range[2], int sample)
{
	size_t no = (size_t)cJSON_GetArraySize(opts), k, i, bin;
	const double top = 40, strip = 80, lo = range[0], hi = range[1];
	double width = (hi - lo) / BINS, y;
	char **cells = xcalloc((BINS + 1) * (no + 1), sizeof(*cells)), b[2][64];
	const char *title = sample ? "Cost distribution per option, P5, P50 and P95 marked"
				   : "Cost over the grid's points per option, the median marked";
	const cJSON *o;

	sb_adds(sb, "<figure>\n");
	svg_open(sb, W, top + strip * (double)no + 44, title);
	svg_text(sb, 10, 20, "start", "t", title);
	cells[0] = xstrdup("cost from, USD");
	for (bin = 0; bin < BINS; bin++)
		cells[(bin + 1) * (no + 1)] = xstrdup(fmt_fixed(b[0], sizeof(b[0]), lo + width * (double)bin, 2));
	k = 0;
	cJSON_ArrayForEach(o, opts) {
		size_t count[BINS] = { 0 }, most = 1;
		static const char *const q[3] = { "P5", "P50", "P95" };
		static const char *const key[3] = { "p5_usd", "p50_usd", "p95_usd" };
		char cls[8];
		y = top + strip * (double)k;
		for (i = 0; i < n; i++) {
			bin = width > 0 ? (size_t)((x[k][i] - lo) / width) : 0;
			count[bin < BINS ? bin : BINS - 1]++;
		}
		snprintf(cls, sizeof(cls), "s%zu", k % 8);
		svg_text_fit(sb, (double[2]){ LEFT - 6, y + strip / 2 + 4 }, "end", NULL, str(o, "option"), 30);
		for (bin = 0; bin < BINS; bin++)
			most = count[bin] > most ? count[bin] : most;
		for (bin = 0; bin < BINS; bin++) {
			double h = (strip - 24) * (double)count[bin] / (double)most;
			double box[4] = { xat(lo + width * (double)bin, lo, hi) + 1, y + strip - 6 - h,
					  (RIGHT - LEFT) / BINS - 2, h };
			char tip[128];
			snprintf(tip, sizeof(tip), "%zu %s from %s USD", count[bin], sample ? "cases" : "grid points",
				 cells[(bin + 1) * (no + 1)]);
			if (count[bin])
				svg_rect(sb, box, cls, tip);
			cells[(bin + 1) * (no + 1) + k + 1] = xasprintf("%zu", count[bin]);
		}
		for (i = sample ? 0 : 1; i < (sample ? 3u : 2u); i++) {	/* P5 left of its line, P95 right, P50 below */
			double xv = xat(num(o, sample ? key[i] : "median_usd"), lo, hi);
			svg_line(sb, xv, y + 4, xv, y + strip - 6, i == 1 ? "mark" : "ax");
			svg_text(sb, i == 0 ? xv - 3 : i == 2 ? xv + 3 : xv, y + (i == 1 ? 20 : 10),
				 i == 0 ? "end" : i == 2 ? "start" : "middle", "small", sample ? q[i] : "median");
		}
		cells[k + 1] = xasprintf("%s, %s", str(o, "option"), sample ? "cases" : "grid points");
		k++;
	}
	axis(sb, lo, hi, top, top + strip * (double)no, "cost over the horizon, USD");
	svg_close(sb);
	sb_adds(sb, "</figure>\n");
	numbers(sb, cells, BINS + 1, no + 1);
}

/* The cumulative share of the cases (a grid's points) at or below each cost, every option on one chart. */
static void cdf(struct sb *sb, const cJSON *opts, double **x, size_t n, const double range[2], int sample)
{
	const double lo = range[0], hi = range[1];
	size_t no = (size_t)cJSON_GetArraySize(opts), k, i, j;
	double *px = xcalloc(CDF_POINTS, sizeof(*px)), *py = xcalloc(CDF_POINTS * no + 1, sizeof(*py));
	const char **names = xcalloc(no + 1, sizeof(*names));
	struct html_lines l;
	const cJSON *o;

	for (i = 0; i < CDF_POINTS; i++)
		px[i] = lo + (hi - lo) * (double)i / (CDF_POINTS - 1);
	k = 0;
	cJSON_ArrayForEach(o, opts) {
		names[k] = str(o, "option");
		for (i = j = 0; i < CDF_POINTS; i++) {
			while (j < n && x[k][j] <= px[i])
				j++;
			py[k * CDF_POINTS + i] = 100.0 * (double)j / (double)n;
		}
		k++;
	}
	memset(&l, 0, sizeof(l));
	l.title = sample ? "Cumulative distribution of the cost per option"
			 : "Cumulative share of the grid's points per option";
	l.xunit = "cost over the horizon, USD";
	l.yunit = sample ? "% of cases at or below" : "% of grid points at or below";
	l.npoints = CDF_POINTS;
	l.nseries = no;
	l.x = px;
	l.series = names;
	l.y = py;
	l.decimals = 1;
	html_lines(sb, &l);
	free(px);
	free(py);
	free(names);
}

static void distribution(struct sb *sb, const cJSON *doc, size_t done)
{
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(doc, "options");
	size_t no = (size_t)cJSON_GetArraySize(opts), k;
	double **x = xcalloc(no + 1, sizeof(*x)), r[2] = { HUGE_VAL, -HUGE_VAL };
	int sample = design_is(doc, "monte-carlo");

	for (k = 0; k < no; k++) {
		x[k] = xcalloc(done + 1, sizeof(**x));
		costs_of(doc, k, x[k]);
		r[0] = fmin(r[0], x[k][0]);
		r[1] = fmax(r[1], x[k][done - 1]);
	}
	if (r[1] <= r[0])
		r[1] = r[0] + 1;
	html_section(sb, "distribution", sample ? "Distribution of the cost over the sample"
						: "The cost over the grid's points");
	histograms(sb, opts, x, done, r, sample);
	cdf(sb, opts, x, done, r, sample);
	html_section_end(sb);
	for (k = 0; k < no; k++)
		free(x[k]);
	free(x);
}

/* ================= break-even and the cases not done ================= */

static void breakeven(struct sb *sb, const cJSON *doc)
{
	static const char *const head[] = { "parameter", "value", "cheapest below", "cheapest above" };
	const cJSON *be = cJSON_GetObjectItemCaseSensitive(doc, "breakeven"), *r;
	size_t n = (size_t)cJSON_GetArraySize(be), i = 1;
	char **cells = xcalloc(4 * (n + 1), sizeof(*cells)), b[64];

	html_section(sb, "breakeven", "Break-even: where the cheapest option changes");
	if (!n)
		html_p(sb, "The cheapest option by cost does not change along any parameter.");
	header(cells, head, 4);
	cJSON_ArrayForEach(r, be) {
		cells[4 * i] = xstrdup(str(r, "parameter"));
		cells[4 * i + 1] = xstrdup(fmt_num_short(b, sizeof(b), num(r, "value"), 6));
		cells[4 * i + 2] = xstrdup(str(r, "cheapest_below"));
		cells[4 * i++ + 3] = xstrdup(str(r, "cheapest_above"));
	}
	if (n)
		html_table(sb, NULL, (const char *const *)cells, n + 1, 4);
	for (i = 0; i < 4 * (n + 1); i++)
		free(cells[i]);
	free(cells);
	html_section_end(sb);
}

static void not_done(struct sb *sb, const cJSON *doc)
{
	const cJSON *c;
	html_section(sb, "not-done", "Cases missing or failed");
	sb_adds(sb, "<ul>\n");
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
		if (!strcmp(str(c, "state"), "done"))
			continue;
		sb_adds(sb, "<li>");
		html_esc(sb, str(c, "case"));
		sb_adds(sb, ": ");
		html_esc(sb, strcmp(str(c, "state"), "failed") ? "missing (run it again: gpuplan sweep run)" : str(c, "error"));
		sb_adds(sb, "</li>\n");
	}
	sb_adds(sb, "</ul>\n");
	html_section_end(sb);
}

char *html_sweep_page(const cJSON *doc)
{
	const cJSON *c;
	size_t done = 0, failed = 0, missing = 0;
	char *title = xasprintf("gpuplan sweep: %s", str(doc, "sweep"));
	struct sb sb;

	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(doc, "cases")) {
		const char *st = str(c, "state");
		done += !strcmp(st, "done");
		failed += !strcmp(st, "failed");
		missing += !strcmp(st, "missing");
	}
	sb_init(&sb);
	html_begin(&sb, title);
	summary(&sb, doc, done, failed, missing);
	if (done) {
		best(&sb, doc);
		if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "sensitivity")))
			tornado(&sb, doc);
		if (!design_is(doc, "one-at-a-time"))	/* chosen cases have no distribution to show */
			distribution(&sb, doc, done);
	}
	breakeven(&sb, doc);
	if (failed || missing)
		not_done(&sb, doc);
	html_end(&sb);
	free(title);
	return sb_detach(&sb);
}
