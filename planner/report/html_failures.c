/*
 * html_failures.c - the failure chart of report.html's plan page: for
 * each node and each site whose loss strands replicas, how many, stacked
 * by priority (the failure analysis of failures.h, as failures.csv has
 * it row by row); and each GPU, when the GPUs were analysed
 * (resilience: {survive: gpu}: failures.csv's rows of kind gpu).
 *
 * A plan of thousands of nodes stays a page: per kind, the failures are
 * ranked by stranded replicas (most first, then by name) and the first
 * HTML_MAX_FAILURES drawn, the rest counted under the chart; the
 * priorities above the HTML_MAX_PRIORITIES - 1 highest are one series
 * ("priority <= P"), so the legend stays readable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "banned.h"

#define HTML_MAX_FAILURES 20	/* bars per chart */
#define HTML_MAX_PRIORITIES 6	/* series per chart, the last one gathering the lower priorities */

/* One failure of a kind and what it strands. */
struct fbar {
	size_t failure;		/* index in failures.names[kind] */
	long stranded;
};

static int fbar_cmp(const void *a, const void *b)
{
	const struct fbar *x = a, *y = b;
	if (x->stranded != y->stranded)
		return x->stranded > y->stranded ? -1 : 1;
	return (x->failure > y->failure) - (x->failure < y->failure);
}

static int int_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* The priorities stranded by failures of kind k, highest first, at most HTML_MAX_PRIORITIES (*n). */
static void priorities(const struct plan_result *r, enum fail_kind k, int *prio, size_t *n)
{
	const struct failures *f = &r->fail;
	int seen[1024];
	size_t i, m = 0, j;

	for (i = 0; i < f->nrows; i++) {
		int p = r->final->p->demands[f->rows[i].d].w->priority;
		if (f->rows[i].kind != k || !f->rows[i].stranded)
			continue;
		for (j = 0; j < m && seen[j] != p; j++)
			;
		if (j == m && m < 1024)
			seen[m++] = p;
	}
	qsort(seen, m, sizeof(*seen), int_desc);
	*n = m < HTML_MAX_PRIORITIES ? m : HTML_MAX_PRIORITIES;
	memcpy(prio, seen, *n * sizeof(*prio));
}

/* The series a priority falls in: its own, or the last one (the lower priorities). */
static size_t series_of(const int *prio, size_t n, int p)
{
	size_t s;
	for (s = 0; s + 1 < n; s++)
		if (prio[s] == p)
			return s;
	return n - 1;
}

/* The kind as the page says it: node, site, GPU. */
static const char *kind_label(enum fail_kind k)
{
	return k == FAIL_GPU ? "GPU" : fail_kind_name(k);
}

/* One chart: the failures of kind k that strand replicas, by priority. */
static void failure_chart(struct sb *sb, const struct plan_result *r, enum fail_kind k)
{
	const struct failures *f = &r->fail;
	struct fbar *bars = xcalloc(f->nnames[k] + 1, sizeof(*bars));
	int prio[HTML_MAX_PRIORITIES];
	size_t i, nb = 0, np, shown;
	const char **labels;
	char **series, *title;
	double *v;

	for (i = 0; i < f->nrows; i++) {
		const struct fail_row *x = &f->rows[i];
		if (x->kind != k || !x->stranded)
			continue;
		if (!nb || bars[nb - 1].failure != x->failure)
			bars[nb++] = (struct fbar){ x->failure, 0 };
		bars[nb - 1].stranded += x->stranded;
	}
	sb_addf(sb, "<h3>Losing one %s</h3>\n", kind_label(k));
	if (!nb) {
		sb_addf(sb, "<p>No single %s loss strands a replica: the plan's free capacity takes them all again.</p>\n",
			kind_label(k));
		free(bars);
		return;
	}
	qsort(bars, nb, sizeof(*bars), fbar_cmp);
	shown = nb < HTML_MAX_FAILURES ? nb : HTML_MAX_FAILURES;
	priorities(r, k, prio, &np);
	labels = xcalloc(shown, sizeof(*labels));
	series = xcalloc(np, sizeof(*series));
	v = xcalloc(shown * np + 1, sizeof(*v));
	for (i = 0; i < np; i++)
		series[i] = i + 1 == np && i + 1 == HTML_MAX_PRIORITIES ? xasprintf("priority <= %d", prio[i])
									 : xasprintf("priority %d", prio[i]);
	for (i = 0; i < shown; i++)
		labels[i] = f->names[k][bars[i].failure];
	for (i = 0; i < f->nrows; i++) {
		const struct fail_row *x = &f->rows[i];
		size_t b;
		if (x->kind != k || !x->stranded)
			continue;
		for (b = 0; b < shown && bars[b].failure != x->failure; b++)
			;
		if (b < shown)
			v[b * np + series_of(prio, np, r->final->p->demands[x->d].w->priority)] += (double)x->stranded;
	}
	title = xasprintf("Replicas stranded by losing one %s, by priority", kind_label(k));
	html_bars(sb, &(struct html_bars){ .title = title, .unit = "replicas stranded (count)", .nbars = shown,
					   .nseries = np, .labels = labels, .series = (const char *const *)series,
					   .v = v, .stacked = 1, .counts = 1 });
	if (nb > shown)
		sb_addf(sb, "<p>%zu more %ss strand fewer replicas (failures.csv lists every one).</p>\n", nb - shown,
			kind_label(k));
	for (i = 0; i < np; i++)
		free(series[i]);
	free(title);
	free(series);
	free(labels);
	free(v);
	free(bars);
}

void html_failures(struct sb *sb, const struct plan_result *r, const cJSON *doc)
{
	size_t i;
	int gpus = 0;	/* the GPUs were analysed (resilience: {survive: gpu}) and some held a replica */

	for (i = 0; r->have_fail && r->fail.by_gpu && i < r->fail.nrows && !gpus; i++)
		gpus = r->fail.rows[i].kind == FAIL_GPU;
	html_section(sb, "failures", "Failures");
	if (!r->have_fail) {
		html_p(sb, "No failure analysis: the plan was not verified.");
		html_section_end(sb);
		return;
	}
	html_p(sb, gpus ? "What losing one node, one site or one GPU would strand: the replicas it held that the plan's "
			  "free capacity cannot take again (failures.csv, by workload)."
			: "What losing one node or one site would strand: the replicas it held that the plan's free capacity "
			  "cannot take again (failures.csv, by workload).");
	failure_chart(sb, r, FAIL_NODE);
	failure_chart(sb, r, FAIL_SITE);
	if (gpus)
		failure_chart(sb, r, FAIL_GPU);
	html_headroom(sb, doc);
	html_section_end(sb);
}
