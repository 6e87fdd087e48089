/*
 * html_compare.c - report.html of a comparison: the verdict and the
 * ranking, then the options side by side (cost per year by category,
 * cost per GPU-hour, utilisation, mode mix, and the figures as a table),
 * in ranking order, from the rows compare.json is made of.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "banned.h"

/* The options in rank order. */
struct ranked {
	const struct compare_row *rows;
	size_t n;
	const size_t *order;	/* [n]: row indices, best first */
};

/* A chart over the ranked options: series values taken by get(row, series). */
static void chart(struct sb *sb, const struct html_bars *tmpl, const struct ranked *rk,
		  double (*get)(const struct compare_row *r, size_t s))
{
	const struct compare_row *rows = rk->rows;
	const size_t *order = rk->order;
	size_t n = rk->n;
	struct html_bars b = *tmpl;
	const char **labels = xcalloc(n + 1, sizeof(*labels));
	double *v = xcalloc((n + 1) * (b.nseries + 1), sizeof(*v));
	size_t i, s;

	for (i = 0; i < n; i++) {
		labels[i] = rows[order[i]].scenario;
		for (s = 0; s < b.nseries; s++)
			v[i * b.nseries + s] = get(&rows[order[i]], s);
	}
	b.nbars = n;
	b.labels = labels;
	b.v = v;
	html_bars(sb, &b);
	free(labels);
	free(v);
}

static double get_cat(const struct compare_row *r, size_t s)
{
	return r->cat[s] / r->horizon_years;
}

static double get_gpu_hour(const struct compare_row *r, size_t s)
{
	return s ? r->per_used_gpu_hour : r->per_provisioned_gpu_hour;
}

static double get_util(const struct compare_row *r, size_t s)
{
	return 100 * (s ? r->compute_util : r->mem_util);
}

static double get_mode(const struct compare_row *r, size_t s)
{
	return (double)r->gpus_by_mode[s];
}

static void ranking(struct sb *sb, const struct compare_row *rows, size_t n, const size_t *order)
{
	char **cells = xcalloc(4 * (n + 1), sizeof(*cells));
	char b[64];
	size_t i;

	cells[0] = xstrdup("rank");
	cells[1] = xstrdup("option");
	cells[2] = xstrdup("USD per year");
	cells[3] = xstrdup("unplaced");
	for (i = 0; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		cells[4 * (i + 1)] = xasprintf("%zu", i + 1);
		cells[4 * (i + 1) + 1] = xstrdup(r->scenario);
		cells[4 * (i + 1) + 2] = xstrdup(fmt_fixed(b, sizeof(b), r->per_year, 2));
		cells[4 * (i + 1) + 3] = compare_unplaced_text(r);
	}
	html_table(sb, "ranked by " COMPARE_RANKED_BY, (const char *const *)cells, n + 1, 4);
	for (i = 0; i < 4 * (n + 1); i++)
		free(cells[i]);
	free(cells);
}

/* The figures side by side: one column per option, in ranking order. */
static void figures(struct sb *sb, const struct compare_row *rows, size_t n, const size_t *order)
{
	static const char *const names[] = { "solver status", "total (USD)", "per year (USD)", "nodes used",
					     "GPUs in used nodes", "replicas placed", "replicas unplaced",
					     "USD per provisioned GPU-hour", "USD per used GPU-hour",
					     "memory utilisation (%)", "compute utilisation (%)", "scenario file" };
	size_t nr = sizeof(names) / sizeof(names[0]), nc = n + 1, i, k;
	char **cells = xcalloc((nr + 1) * nc, sizeof(*cells));
	char b[64];

	cells[0] = xstrdup("");
	for (k = 0; k < nr; k++)
		cells[(k + 1) * nc] = xstrdup(names[k]);
	for (i = 0; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		char **c = cells + i + 1;
		c[0] = xstrdup(r->scenario);
		c[nc] = xstrdup(r->status);
		c[2 * nc] = xstrdup(fmt_fixed(b, sizeof(b), r->total, 2));
		c[3 * nc] = xstrdup(fmt_fixed(b, sizeof(b), r->per_year, 2));
		c[4 * nc] = xasprintf("%ld", r->nodes);
		c[5 * nc] = xasprintf("%ld", r->gpus);
		c[6 * nc] = xasprintf("%ld", r->placed);
		c[7 * nc] = xasprintf("%ld", r->unplaced);
		c[8 * nc] = xstrdup(fmt_fixed(b, sizeof(b), r->per_provisioned_gpu_hour, 4));
		c[9 * nc] = xstrdup(fmt_fixed(b, sizeof(b), r->per_used_gpu_hour, 4));
		c[10 * nc] = xstrdup(fmt_fixed(b, sizeof(b), 100 * r->mem_util, 2));
		c[11 * nc] = xstrdup(fmt_fixed(b, sizeof(b), 100 * r->compute_util, 2));
		c[12 * nc] = xstrdup(r->file);
	}
	html_table(sb, "the options side by side", (const char *const *)cells, nr + 1, nc);
	for (i = 0; i < (nr + 1) * nc; i++)
		free(cells[i]);
	free(cells);
}

char *html_compare_page(const struct compare_row *rows, size_t n, const size_t *order, const char *verdict)
{
	const char *cats[CAT_COUNT], *modes[MODE_COUNT];
	static const char *const gh[] = { "per provisioned GPU-hour", "per used GPU-hour" };
	static const char *const util[] = { "memory", "compute" };
	const struct ranked rk = { rows, n, order };
	struct html_bars b;
	struct sb sb;
	size_t q;

	for (q = 0; q < CAT_COUNT; q++)
		cats[q] = cost_cat_name((enum cost_cat)q);
	for (q = 0; q < MODE_COUNT; q++)
		modes[q] = mode_name((enum gpu_mode)q);
	sb_init(&sb);
	html_begin(&sb, "gpuplan compare");
	html_section(&sb, "verdict", "Verdict");
	sb_adds(&sb, "<p class=\"verdict\">");
	html_esc(&sb, verdict);
	sb_adds(&sb, "</p>\n");
	ranking(&sb, rows, n, order);
	html_section_end(&sb);
	html_section(&sb, "cost", "Cost side by side");
	b = (struct html_bars){
		.title = "Cost per year by category, per option (ranked)",
		.unit = "USD per year",
		.nseries = CAT_COUNT,
		.series = cats,
		.stacked = 1,
		.decimals = 2,
	};
	chart(&sb, &b, &rk, get_cat);
	b.title = "Cost per GPU-hour, per option";
	b.unit = "USD per GPU-hour";
	b.nseries = 2;
	b.series = gh;
	b.stacked = 0;
	b.decimals = 4;
	chart(&sb, &b, &rk, get_gpu_hour);
	html_section_end(&sb);
	html_section(&sb, "use", "Utilisation and mode mix");
	b.title = "GPU memory and compute used, per option";
	b.unit = "percent of the GPUs of used nodes (%)";
	b.series = util;
	b.decimals = 2;
	chart(&sb, &b, &rk, get_util);
	b.title = "GPUs per mode, per option";
	b.unit = "GPUs in used nodes (count)";
	b.nseries = MODE_COUNT;
	b.series = modes;
	b.stacked = 1;
	b.decimals = 0;
	b.counts = 1;
	chart(&sb, &b, &rk, get_mode);
	html_section_end(&sb);
	html_section(&sb, "figures", "Figures");
	figures(&sb, rows, n, order);
	html_section_end(&sb);
	html_end(&sb);
	return sb_detach(&sb);
}
