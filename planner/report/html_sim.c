/*
 * html_sim.c - report.html of a simulation: the strategies and the
 * cheapest, the timeline of licences and GPUs in use, the cumulative
 * cost of each strategy with the break-even point, and the break-even
 * table, from the result simulate.json and timeseries.csv are made of.
 *
 * The timeline has at most SIM_POINTS points: each the peak of its
 * bucket of hours (licences are bought for peaks).  Cumulative cost, as
 * it is paid: cloud-hourly with its licence-hours; subscription-peak at
 * the start; subscription-yearly at the start of each year (that year's
 * share of the total by its peak); perpetual at the start of the years
 * the peak rises (by the rise; support is not told apart); mix spread
 * evenly (its base and bursts are not told apart).  The break-even is
 * where cloud-hourly passes the cheapest fixed strategy.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "outfile.h"
#include "report.h"
#include "banned.h"

#define SIM_POINTS 160

/* Hours per point of the charts: the run's hours in at most SIM_POINTS buckets. */
static size_t bucket_hours(const struct sim_result *r)
{
	return r->nsteps ? (r->nsteps + SIM_POINTS - 1) / SIM_POINTS : 1;
}

/* GPUs in use per step, from timeseries.csv's 8th column (gpus). */
static long *gpus_per_step(const struct sim_result *r)
{
	long *g = xcalloc(r->nsteps + 1, sizeof(*g));
	const char *p = strchr(r->timeseries.buf, '\n');
	size_t t = 0;
	int f;

	while (p && p[1] && t < r->nsteps) {
		p++;
		for (f = 0; f < 7 && p; f++)
			p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
		if (!p)
			break;
		g[t++] = strtol(p, NULL, 10);
		p = strchr(p, '\n');
	}
	return g;
}

/* Steps [0, nsteps) in buckets of bh hours: GPUs in use and licences per product. */
static void timeline(struct sb *sb, const struct sim_result *r, size_t nsteps, size_t bh, const char *title)
{
	size_t np = (nsteps + bh - 1) / bh, ns = 1, i, t;
	const char *names[LIC_COUNT + 1];
	int prod[LIC_COUNT], q, s;
	long *gpus = gpus_per_step(r);
	double *x = xcalloc(np + 1, sizeof(*x)), *y;
	char *lab[LIC_COUNT];
	struct html_lines l;

	names[0] = "GPUs in use";
	for (q = 1; q < LIC_COUNT; q++)
		if (r->peak_units[q] > 0) {
			prod[ns] = q;
			lab[ns] = xasprintf("%s licences", lic_product_id((enum lic_product)q));
			names[ns] = lab[ns];
			ns++;
		}
	y = xcalloc(ns * np + 1, sizeof(*y));
	for (i = 0; i < np; i++) {
		x[i] = (double)(i * bh) / 24.0;
		for (t = i * bh; t < (i + 1) * bh && t < nsteps; t++) {
			y[i] = fmax(y[i], (double)gpus[t]);
			for (s = 1; s < (int)ns; s++)
				y[(size_t)s * np + i] = fmax(y[(size_t)s * np + i], (double)r->units[prod[s]][t]);
		}
	}
	l = (struct html_lines){
		.title = title,
		.xunit = "days from the start",
		.yunit = "count (GPUs, licences)",
		.npoints = np,
		.nseries = ns,
		.x = x,
		.series = names,
		.y = y,
		.ycounts = 1,
	};
	html_lines(sb, &l);
	for (s = 1; s < (int)ns; s++)
		free(lab[s]);
	free(x);
	free(y);
	free(gpus);
}

/* Licence-hours up to and including each hour, priced at each product's hourly rate. */
static double *hourly_cumulative(const struct sim_result *r)
{
	double *c = xcalloc(r->nsteps + 1, sizeof(*c)), sum = 0;
	size_t t;
	int q;

	for (t = 0; t < r->nsteps; t++) {
		for (q = 1; q < LIC_COUNT; q++)
			if (r->rate[q] > 0)
				sum += (double)r->units[q][t] * r->rate[q];
		c[t] = sum;
	}
	return c;
}

/* Year y's part of a yearly figure: each product's yearly peak (by 0) or the rise of it over the years before (by 1). */
static double year_weight(const struct sim_result *r, int y, int rise)
{
	double w = 0;
	int q, z;

	for (q = 1; q < LIC_COUNT; q++) {
		long before = 0;
		for (z = 0; rise && z < y; z++)
			before = r->years[z].peak[q] > before ? r->years[z].peak[q] : before;
		w += (double)(r->years[y].peak[q] > before ? r->years[y].peak[q] - before : 0);
	}
	return w;
}

/* Strategy s's cumulative cost after hour t (see the top of the file). */
static double cumulative(const struct sim_result *r, int s, size_t t, const double *hourly)
{
	const struct sim_strategy_result *x = &r->strat[s];
	double sum = 0, start = 0, all = 0;
	int y, rise = s == STRAT_PERPETUAL;

	if (s == STRAT_CLOUD)
		return hourly[t] * (x->total / fmax(1e-9, hourly[r->nsteps - 1]));
	if (s == STRAT_SUB_PEAK)
		return x->total;
	if (s == STRAT_MIX)
		return x->total * (double)(t + 1) / (double)r->nsteps;
	for (y = 0; y < r->nyears; y++)
		all += year_weight(r, y, rise);
	for (y = 0; y < r->nyears && all > 0 && start <= (double)t; y++) {
		sum += x->total * year_weight(r, y, rise) / all;
		start += (double)r->years[y].hours;
	}
	return sum;
}

/* The cumulative chart: available strategies, break-even of the hourly one with the cheapest fixed one. */
static void cumulative_chart(struct sb *sb, const struct sim_result *r)
{
	size_t bh = bucket_hours(r), np = (r->nsteps + bh - 1) / bh + 1, ns = 0, i;
	const char *names[STRAT_COUNT];
	int which[STRAT_COUNT], s, fixed = -1;
	double *x = xcalloc(np + 1, sizeof(*x)), *y = xcalloc(STRAT_COUNT * np + 1, sizeof(*y));
	double *hourly = hourly_cumulative(r), cross = -1;
	char *mark = NULL;
	struct html_lines l;

	for (s = 0; s < STRAT_COUNT; s++) {
		if (!r->strat[s].available)
			continue;
		which[ns] = s;
		names[ns++] = sim_strategy_name((enum sim_strategy)s);
		if (s != STRAT_CLOUD && s != STRAT_MIX && (fixed < 0 || r->strat[s].total < r->strat[fixed].total))
			fixed = s;
	}
	for (i = 0; i < np; i++) {
		size_t t = i ? (i * bh < r->nsteps ? i * bh : r->nsteps) - 1 : 0;
		size_t k;
		x[i] = i ? (double)(t + 1) / 24.0 : 0;
		for (k = 0; k < ns; k++)
			y[k * np + i] = i ? cumulative(r, which[k], t, hourly) : 0;
	}
	if (fixed >= 0 && r->strat[STRAT_CLOUD].available) {
		size_t t;
		for (t = 0; t < r->nsteps; t++)
			if (cumulative(r, STRAT_CLOUD, t, hourly) > cumulative(r, fixed, t, hourly) + 0.005) {
				cross = (double)(t + 1) / 24.0;
				break;
			}
		if (cross >= 0)
			mark = xasprintf("break-even: cloud-hourly passes %s on day %.0f",
					 sim_strategy_name((enum sim_strategy)fixed), floor(cross));
	}
	l = (struct html_lines){
		.title = "Cumulative licence cost per strategy",
		.xunit = "days from the start",
		.yunit = "USD, cumulative",
		.npoints = np,
		.nseries = ns,
		.x = x,
		.series = names,
		.y = y,
		.marker = mark,
		.marker_x = cross,
		.decimals = 2,
	};
	html_lines(sb, &l);
	if (fixed >= 0 && r->strat[STRAT_CLOUD].available && cross < 0)
		html_p(sb, "cloud-hourly stays below the cheapest fixed strategy over the whole run.");
	free(mark);
	free(x);
	free(y);
	free(hourly);
}

static void strategies(struct sb *sb, const struct sim_result *r)
{
	const char *labels[STRAT_COUNT];
	static const char *const series[] = { "total" };
	double v[STRAT_COUNT];
	char **cells = xcalloc(4 * (STRAT_COUNT + 1), sizeof(*cells));
	char b[64];
	size_t n = 0;
	int s;
	struct html_bars bars;

	cells[0] = xstrdup("strategy");
	cells[1] = xstrdup("rank");
	cells[2] = xstrdup("USD over the run");
	cells[3] = xstrdup("how");
	for (s = 0; s < STRAT_COUNT; s++) {
		const struct sim_strategy_result *x = &r->strat[s];
		cells[4 * (s + 1)] = xstrdup(sim_strategy_name((enum sim_strategy)s));
		cells[4 * (s + 1) + 1] = x->available ? xasprintf("%d", x->rank) : xstrdup("unavailable");
		cells[4 * (s + 1) + 2] = xstrdup(x->available ? fmt_fixed(b, sizeof(b), x->total, 2) : "");
		cells[4 * (s + 1) + 3] = xstrdup(x->how ? x->how : "");
		if (!x->available)
			continue;
		labels[n] = sim_strategy_name((enum sim_strategy)s);
		v[n++] = x->total;
	}
	bars = (struct html_bars){
		.title = "Licence cost of each strategy over the run",
		.unit = "USD over the simulated hours",
		.nbars = n,
		.nseries = 1,
		.labels = labels,
		.series = series,
		.v = v,
		.stacked = 1,
		.decimals = 2,
	};
	if (n)
		html_bars(sb, &bars);
	html_table(sb, "strategies", (const char *const *)cells, STRAT_COUNT + 1, 4);
	for (s = 0; s < 4 * (STRAT_COUNT + 1); s++)
		free(cells[s]);
	free(cells);
}

static void breakeven(struct sb *sb, const struct sim_result *r)
{
	char **cells = xcalloc(6 * (r->nbe + 1), sizeof(*cells));
	static const char *const head[] = { "product", "a", "b", "cheaper at month 1", "order changes in month",
					    "utilisation where both cost the same" };
	char b[64];
	size_t i;

	for (i = 0; i < 6; i++)
		cells[i] = xstrdup(head[i]);
	for (i = 0; i < r->nbe; i++) {
		const struct sim_breakeven *e = &r->be[i];
		char **c = cells + 6 * (i + 1);
		c[0] = xstrdup(lic_product_id(e->product));
		c[1] = xstrdup(sim_strategy_name(e->a));
		c[2] = xstrdup(sim_strategy_name(e->b));
		c[3] = xstrdup(e->first < 0 ? sim_strategy_name(e->a) : e->first > 0 ? sim_strategy_name(e->b) : "equal");
		c[4] = e->month ? xasprintf("%d", e->month) : xstrdup("not within 120 months");
		c[5] = xstrdup(e->util >= 0 ? fmt_fixed(b, sizeof(b), e->util, 4) : "");
	}
	html_table(sb, "break-even for one licence (breakeven.csv)", (const char *const *)cells, r->nbe + 1, 6);
	for (i = 0; i < 6 * (r->nbe + 1); i++)
		free(cells[i]);
	free(cells);
}

char *html_sim_page(const struct sim_result *r)
{
	struct sb sb;
	char *t = xasprintf("gpuplan simulate: %s", r->sc->name), b[64];

	sb_init(&sb);
	html_begin(&sb, t);
	free(t);
	html_section(&sb, "summary", "Summary");
	if (r->cheapest >= 0)
		t = xasprintf("Cheapest: %s, %s USD over %zu hourly steps.", sim_strategy_name((enum sim_strategy)r->cheapest),
			      fmt_fixed(b, sizeof(b), r->strat[r->cheapest].total, 2), r->nsteps);
	else
		t = xasprintf("None of the strategies can be priced over the %zu hourly steps.", r->nsteps);
	sb_adds(&sb, "<p class=\"verdict\">");
	html_esc(&sb, t);
	sb_adds(&sb, "</p>\n");
	free(t);
	t = xasprintf("Peak demand %ld replicas, peak fleet %ld nodes and %ld GPUs in use, %.0f replica-hours unplaced, "
		      "%ld re-plans.", r->peak_demand, r->peak_nodes, r->peak_gpus, r->unplaced_hours, r->replans);
	html_p(&sb, t);
	free(t);
	strategies(&sb, r);
	html_section_end(&sb);
	html_section(&sb, "timeline", "Timeline");
	timeline(&sb, r, r->nsteps, bucket_hours(r), "Licences and GPUs in use over the run (peak of each point's hours)");
	if (r->nsteps > 24 * 14)
		timeline(&sb, r, 24 * 14, 1, "Licences and GPUs in use, the first 14 days hour by hour");
	html_section_end(&sb);
	html_section(&sb, "cumulative", "Cumulative cost and break-even");
	html_p(&sb, "Each strategy's cost as it is paid: cloud-hourly with the licence-hours used; subscription-peak "
		    "at the start; subscription-yearly at the start of each year (its share by the year's peak); "
		    "perpetual in the years the peak rises (by the rise); mix spread evenly over the run.");
	cumulative_chart(&sb, r);
	breakeven(&sb, r);
	html_section_end(&sb);
	html_end(&sb);
	return sb_detach(&sb);
}

int report_sim_write(const char *dir, enum report_format fmt, const struct sim_result *r, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	int rc;

	outset_init(&os, dir);
	if (fmt & REPORT_BOTH)
		simulate_add_files(r, &os);
	if (fmt & REPORT_HTML) {
		char *html = html_sim_page(r);
		outset_add(&os, "report.html", html, strlen(html));
	}
	rc = outset_commit(&os, d);
	outset_release(&os);
	return rc;
}
