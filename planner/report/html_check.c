/*
 * html_check.c - the HTML form of a comparison with a baseline (check
 * and diff --format html): the result, baseline and current side by side
 * (cost by category, GPUs per mode, replicas), the unplaced workloads of
 * both, and the whole text comparison as the table behind the charts.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "reportdiff_text.h"
#include "banned.h"

static const char *const sides[] = { "baseline", "current" };

/* A baseline-against-current chart of b.nbars figures (b's series are set here). */
static void pair_chart(struct sb *sb, struct html_bars b)
{
	b.nseries = 2;
	b.series = sides;
	html_bars(sb, &b);
}

static void costs(struct sb *sb, const struct rd_diff *df)
{
	const char *labels[CAT_COUNT + 1];
	double v[2 * (CAT_COUNT + 1)];
	size_t n = 0;
	int c;

	labels[n] = "total";
	v[0] = (double)df->base->total_cents / 100;
	v[1] = (double)df->cur->total_cents / 100;
	n++;
	for (c = 0; c < CAT_COUNT; c++) {
		if (!df->base->cat_cents[c] && !df->cur->cat_cents[c])
			continue;
		labels[n] = cost_cat_name((enum cost_cat)c);
		v[2 * n] = (double)df->base->cat_cents[c] / 100;
		v[2 * n + 1] = (double)df->cur->cat_cents[c] / 100;
		n++;
	}
	pair_chart(sb, (struct html_bars){ .title = "Cost: baseline and current", .unit = "USD over the horizon",
				       .nbars = n, .labels = labels, .v = v, .decimals = 2 });
}

static void use(struct sb *sb, const struct rd_diff *df)
{
	const char *labels[MODE_COUNT + 4];
	double v[2 * (MODE_COUNT + 4)];
	size_t n = 0;
	int m;

	labels[n] = "replicas placed";
	v[2 * n] = (double)df->base->replicas_placed;
	v[2 * n++ + 1] = (double)df->cur->replicas_placed;
	labels[n] = "replicas unplaced";
	v[2 * n] = (double)df->base->replicas_unplaced;
	v[2 * n++ + 1] = (double)df->cur->replicas_unplaced;
	labels[n] = "GPUs in used nodes";
	v[2 * n] = (double)df->base->gpus_in_used_nodes;
	v[2 * n++ + 1] = (double)df->cur->gpus_in_used_nodes;
	for (m = 0; m < MODE_COUNT; m++) {
		if (!df->base->gpus_by_mode[m] && !df->cur->gpus_by_mode[m])
			continue;
		labels[n] = mode_name((enum gpu_mode)m);
		v[2 * n] = (double)df->base->gpus_by_mode[m];
		v[2 * n++ + 1] = (double)df->cur->gpus_by_mode[m];
	}
	pair_chart(sb, (struct html_bars){ .title = "Replicas and GPUs per mode: baseline and current",
				       .unit = "count (replicas, GPUs)", .nbars = n, .labels = labels, .v = v,
				       .counts = 1 });
}

/* A 5-column table: head, then nrows rows filled by the caller at cells + 5 (owned, freed by table_end). */
static char **table_begin(const char *const *head, size_t nrows)
{
	char **cells = xcalloc(5 * (nrows + 1), sizeof(*cells));
	size_t i;

	for (i = 0; i < 5; i++)
		cells[i] = xstrdup(head[i]);
	return cells;
}

static void table_end(struct sb *sb, const char *caption, char **cells, size_t nrows)
{
	size_t i;

	html_table(sb, caption, (const char *const *)cells, nrows + 1, 5);
	for (i = 0; i < 5 * (nrows + 1); i++)
		free(cells[i]);
	free(cells);
}

static void unplaced(struct sb *sb, const struct rd_diff *df)
{
	static const char *const head[] = { "workload", "tenant", "baseline", "current", "reason" };
	char **cells;
	size_t i;

	if (!df->nunplaced) {
		html_p(sb, "No replica is unplaced on either side.");
		return;
	}
	cells = table_begin(head, df->nunplaced);
	for (i = 0; i < df->nunplaced; i++) {
		const struct rd_unplaced_change *u = &df->unplaced[i];
		char **c = cells + 5 * (i + 1);
		c[0] = xstrdup(u->workload);
		c[1] = xstrdup(u->tenant);
		c[2] = xasprintf("%ld", u->base);
		c[3] = xasprintf("%ld", u->cur);
		c[4] = xstrdup(u->reason);
	}
	table_end(sb, "unplaced replicas by workload", cells, df->nunplaced);
}

/* The workloads whose placed or unplaced replicas changed, highest priority first. */
static void changes(struct sb *sb, const struct rd_diff *df)
{
	static const char *const head[] = { "workload", "tenant", "priority", "placed", "unplaced" };
	char **cells;
	size_t i;

	if (!df->nchanges)
		return;
	cells = table_begin(head, df->nchanges);
	for (i = 0; i < df->nchanges; i++) {
		const struct rd_workload_change *x = &df->changes[i];
		char **c = cells + 5 * (i + 1);
		c[0] = xstrdup(x->workload);
		c[1] = xstrdup(x->tenant);
		c[2] = xasprintf("%d", x->priority);
		c[3] = xasprintf("%ld → %ld", x->placed_base, x->placed_cur);
		c[4] = xasprintf("%ld → %ld", x->unplaced_base, x->unplaced_cur);
	}
	table_end(sb, "workloads whose placement changed, highest priority first", cells, df->nchanges);
}

char *html_check_page(const struct rd_diff *df, const char *command)
{
	struct sb sb;
	char *t = xasprintf("gpuplan %s: %s", command, df->cur->scenario), *fail = rd_diff_failure(df), *text;

	sb_init(&sb);
	html_begin(&sb, t);
	free(t);
	html_section(&sb, "result", "Result");
	t = fail ? xasprintf("FAILED: %s", fail)
		 : xstrdup(df->nchecked ? "passed: every threshold holds" : df->changed ? "changed" : "no change");
	sb_addf(&sb, "<p class=\"%s\">", fail ? "bad" : "verdict");
	html_esc(&sb, t);
	sb_adds(&sb, "</p>\n");
	free(t);
	free(fail);
	t = xasprintf("baseline %s, current %s", df->base->file, df->cur->file);
	html_p(&sb, t);
	free(t);
	html_section_end(&sb);
	html_section(&sb, "difference", "Difference against the baseline");
	costs(&sb, df);
	use(&sb, df);
	unplaced(&sb, df);
	changes(&sb, df);
	text = rd_text_format(df, 0, command);
	sb_adds(&sb, "<h3>The whole comparison</h3>\n<div class=\"wide\"><pre>");
	html_esc(&sb, text);
	sb_adds(&sb, "</pre></div>\n");
	free(text);
	html_section_end(&sb);
	html_end(&sb);
	return sb_detach(&sb);
}
