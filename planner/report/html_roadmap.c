/*
 * html_roadmap.c - report.html of gpuplan roadmap: the totals, capacity
 * against demand per period (owned, bought, rented), the cost per period
 * by category, the purchase schedule and the break-even of buying
 * against renting.  Names come from the user's files: every text goes
 * through the escaping helpers of html.c.
 */
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "util.h"
#include "banned.h"

#define MONEY(v) fmt_fixed((char[64]){ 0 }, 64, (v), 2)

static char **labels_of(const struct roadmap_result *r)
{
	char **l = xcalloc(r->nperiods + 1, sizeof(*l));
	size_t t;
	for (t = 0; t < r->nperiods; t++)
		l[t] = xstrdup(period_format((char[16]){ 0 }, 16, r->fc->kind, r->per[t].index));
	return l;
}

static void free_labels(char **l, size_t n)
{
	size_t t;
	for (t = 0; t < n; t++)
		free(l[t]);
	free(l);
}

/* GPUs per period: owned, bought and rented stacked, demand beside them. */
static void capacity_chart(struct sb *sb, const struct roadmap_result *r, char **labels)
{
	static const char *const series[] = { "owned GPUs", "bought GPUs", "rented GPUs in use",
					      "demand (GPU-equivalents)" };
	double *v = xcalloc(r->nperiods * 4 + 1, sizeof(*v));
	struct html_bars b;
	size_t t;
	int q;

	for (t = 0; t < r->nperiods; t++) {
		const struct roadmap_period *rp = &r->per[t];
		v[t * 4] = (double)rp->owned_gpus;
		v[t * 4 + 1] = (double)rp->bought_gpus;
		for (q = 0; q < PRICING_COUNT; q++)
			v[t * 4 + 2] += (double)rp->rented_gpus[q];
		v[t * 4 + 3] = rp->demand_gpu_equivalents;
	}
	b = (struct html_bars){ "GPUs per period: owned, bought (arrived) and rented, against demand", "GPUs",
				r->nperiods, 4, (const char *const *)labels, series, v, 0, 1, 1 };
	html_bars(sb, &b);
	free(v);
}

static void cost_chart(struct sb *sb, const struct roadmap_result *r, char **labels)
{
	const char *series[CAT_COUNT];
	double *v = xcalloc(r->nperiods * CAT_COUNT + 1, sizeof(*v));
	struct html_bars b;
	size_t t;
	int q;

	for (q = 0; q < CAT_COUNT; q++)
		series[q] = cost_cat_name((enum cost_cat)q);
	for (t = 0; t < r->nperiods; t++)
		for (q = 0; q < CAT_COUNT; q++)
			v[t * CAT_COUNT + q] = r->per[t].cat[q];
	b = (struct html_bars){ "Cost per period by category (hardware as depreciation)", "USD per period",
				r->nperiods, CAT_COUNT, (const char *const *)labels, series, v, 1, 2, 0 };
	html_bars(sb, &b);
	free(v);
}

static void schedule_table(struct sb *sb, const struct roadmap_result *r)
{
	size_t i, n = 0, nc = 5;
	char **cells = xcalloc((r->nbuys + 1) * nc, sizeof(*cells));
	const char *head[] = { "order", "arrival", "class", "nodes", "upfront USD" };

	for (i = 0; i < nc; i++)
		cells[n++] = xstrdup(head[i]);
	for (i = 0; i < r->nbuys; i++) {
		const struct roadmap_buy *b = &r->buys[i];
		cells[n++] = xstrdup(period_format((char[16]){ 0 }, 16, r->fc->kind, b->order));
		cells[n++] = xstrdup(period_format((char[16]){ 0 }, 16, r->fc->kind, b->arrive));
		cells[n++] = xstrdup(r->sc->inventory.classes[b->cls].name);
		cells[n++] = xasprintf("%ld", b->units);
		cells[n++] = xstrdup(MONEY((double)b->units * b->capex_usd));
	}
	html_table(sb, "purchase schedule (schedule.csv)", (const char *const *)cells, r->nbuys + 1, nc);
	for (i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

/* The reservations, blocks and licence terms held (schedule.csv's other rows), when there are any. */
static void commit_table(struct sb *sb, const struct roadmap_result *r)
{
	const char *head[] = { "start", "end", "commitment", "for", "units", "total USD", "counted USD" };
	size_t i, n = 0, nc = 7;
	char **cells;

	if (!r->ncommits)
		return;
	cells = xcalloc((r->ncommits + 1) * nc, sizeof(*cells));
	for (i = 0; i < nc; i++)
		cells[n++] = xstrdup(head[i]);
	for (i = 0; i < r->ncommits; i++) {
		const struct roadmap_commit *cm = &r->commits[i];
		cells[n++] = xstrdup(period_format((char[16]){ 0 }, 16, r->fc->kind, cm->start));
		cells[n++] = xstrdup(period_format((char[16]){ 0 }, 16, r->fc->kind, cm->end));
		cells[n++] = xstrdup(cm->item);
		cells[n++] = xstrdup(cm->kind == RCOMMIT_RESERVE ? cm->offer->id : "the fleet's GPUs");
		cells[n++] = xasprintf("%ld", cm->units);
		cells[n++] = xstrdup(MONEY(cm->total_usd));
		cells[n++] = xstrdup(MONEY(cm->charged_usd));
	}
	html_table(sb, "reservations and licence terms (schedule.csv)", (const char *const *)cells, r->ncommits + 1, nc);
	for (i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

static void breakeven_table(struct sb *sb, const struct roadmap_result *r)
{
	size_t i, n = 0, nc = 6;
	char **cells = xcalloc((r->nbreakeven + 1) * nc, sizeof(*cells));
	const char *head[] = { "GPU type", "buy class", "rent offer", "buy USD per GPU-period",
			       "rent USD per GPU-period", "busy share where buying wins" };

	for (i = 0; i < nc; i++)
		cells[n++] = xstrdup(head[i]);
	for (i = 0; i < r->nbreakeven; i++) {
		const struct roadmap_breakeven *e = &r->breakeven[i];
		const struct node_class *rc = &r->sc->inventory.classes[e->rent];
		cells[n++] = xstrdup(r->sc->inventory.classes[e->buy].gpu->id);
		cells[n++] = xstrdup(r->sc->inventory.classes[e->buy].name);
		cells[n++] = xstrdup(rc->offer ? rc->offer->id : rc->name);
		cells[n++] = xstrdup(MONEY(e->buy_fixed + e->buy_in_use));
		cells[n++] = xstrdup(MONEY(e->rent_in_use));
		cells[n++] = e->share < 0 ? xstrdup("never") : xasprintf("%s %%", fmt_fixed((char[64]){ 0 }, 64, 100 * e->share, 1));
	}
	html_table(sb, "break-even (breakeven.csv)", (const char *const *)cells, r->nbreakeven + 1, nc);
	for (i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

static void summary(struct sb *sb, const struct roadmap_result *r)
{
	char *t = xasprintf("%zu %ss from %s: %s USD over the horizon (depreciation basis), NPV %s USD; proven gap %s %% "
			    "(bound %s USD).", r->nperiods, period_kind_name(r->fc->kind),
			    period_format((char[16]){ 0 }, 16, r->fc->kind, r->fc->start), MONEY(r->cost_total), MONEY(r->npv),
			    fmt_fixed((char[64]){ 0 }, 64, 100 * r->gap, 2), MONEY(r->bound));
	size_t i;

	sb_adds(sb, "<p class=\"verdict\">");
	html_esc(sb, t);
	sb_adds(sb, "</p>\n");
	free(t);
	sb_adds(sb, "<details><summary>assumptions</summary><ul>\n");
	for (i = 0; i < r->nassumptions; i++) {
		sb_adds(sb, "<li>");
		html_esc(sb, r->assumptions[i]);
		sb_adds(sb, "</li>\n");
	}
	sb_adds(sb, "</ul></details>\n");
}

char *html_roadmap_page(const struct roadmap_result *r)
{
	struct sb sb;
	char *t = xasprintf("gpuplan roadmap: %s", r->sc->name);
	char **labels = labels_of(r);

	sb_init(&sb);
	html_begin(&sb, t);
	free(t);
	html_section(&sb, "summary", "Summary");
	summary(&sb, r);
	html_section_end(&sb);
	html_section(&sb, "capacity", "Capacity against demand");
	capacity_chart(&sb, r, labels);
	html_section_end(&sb);
	html_section(&sb, "cost", "Cost per period");
	cost_chart(&sb, r, labels);
	html_section_end(&sb);
	html_section(&sb, "schedule", "Purchases and break-even");
	schedule_table(&sb, r);
	commit_table(&sb, r);
	breakeven_table(&sb, r);
	html_section_end(&sb);
	html_end(&sb);
	free_labels(labels, r->nperiods);
	return sb_detach(&sb);
}
