/*
 * compare.c - the comparison of several planned scenarios.
 */
#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "report_docs.h"
#include "util.h"
#include "banned.h"

/* Unplaced rows: priority, highest first, then workload order (stable). */
static void sort_unplaced(struct compare_unplaced *u, size_t n)
{
	size_t i, j;
	for (i = 1; i < n; i++) {
		struct compare_unplaced x = u[i];
		for (j = i; j > 0 && u[j - 1].priority < x.priority; j--)
			u[j] = u[j - 1];
		u[j] = x;
	}
}

static void fill_unplaced(struct compare_row *row, const struct cplan *cp)
{
	const struct problem *p = cp->p;
	size_t i;

	row->unpl = xcalloc(p->ndemands + 1, sizeof(*row->unpl));
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		struct compare_unplaced *u;
		if (!cp->unplaced[i])
			continue;
		u = &row->unpl[row->nunpl++];
		u->workload = xstrdup(w->name);
		u->tenant = xstrdup(w->tenant);
		u->reason = xstrdup(cp->reason[i] ? cp->reason[i] : "");
		u->replicas = cp->unplaced[i];
		u->gpu_eq = (double)cp->unplaced[i] * workload_gpu_equivalents(w);
		u->priority = w->priority;
		row->gpu_eq_unplaced += u->gpu_eq;
	}
	sort_unplaced(row->unpl, row->nunpl);
}

void compare_row_fill(struct compare_row *row, const char *file, const struct plan_result *r)
{
	struct cplan_cost cost;
	struct report_stats st;
	struct report_gpu_hours gh;
	int q;

	memset(row, 0, sizeof(*row));
	cplan_cost(r->final, &cost);
	report_stats(r->final, &st);
	row->scenario = xstrdup(r->sc->name);
	row->file = xstrdup(file);
	row->status = ilp_status_name(r->status);
	row->gap = r->gap;
	row->horizon_years = r->sc->horizon_years;
	row->total = cost.total;
	row->per_year = cost.total / r->sc->horizon_years;
	for (q = 0; q < CAT_COUNT; q++)
		row->cat[q] = cost.cat[q];
	report_gpu_hours(r->final, &gh);
	row->per_provisioned_gpu_hour = gh.per_provisioned;
	row->per_used_gpu_hour = gh.per_used;
	row->mem_util = st.mem_util;
	row->compute_util = st.compute_util;
	memcpy(row->lic_gpus, cost.lic_gpus, sizeof(row->lic_gpus));
	memcpy(row->seats, cost.seats, sizeof(row->seats));
	row->placed = cost.placed;
	row->unplaced = cost.unplaced;
	fill_unplaced(row, r->final);
	row->nodes = cost.nodes;
	row->gpus = cost.gpus;
	memcpy(row->nodes_by_mode, st.nodes_by_mode, sizeof(row->nodes_by_mode));
	memcpy(row->gpus_by_mode, st.gpus_by_mode, sizeof(row->gpus_by_mode));
	row->to_place_all = report_whatif_text(r);
	for (q = 0; q < 2; q++) {
		const struct fail_worst *w = r->have_fail ? &r->fail.worst[q] : NULL;
		row->worst[q] = xstrdup(w && w->have ? r->fail.names[q][w->failure] : "");
		row->worst_stranded[q] = w && w->have ? w->stranded : 0;
	}
	row->have_resil = r->have_resil;
	row->resil_usd_per_year = r->have_resil ? r->resil.usd_per_year : 0;
}

void compare_row_release(struct compare_row *row)
{
	size_t i;
	for (i = 0; i < row->nunpl; i++) {
		free(row->unpl[i].workload);
		free(row->unpl[i].tenant);
		free(row->unpl[i].reason);
	}
	free(row->unpl);
	free(row->to_place_all);
	free(row->worst[0]);
	free(row->worst[1]);
	free(row->scenario);
	free(row->file);
	memset(row, 0, sizeof(*row));
}

/* GPU-equivalents as reported (4 decimals), for comparing. */
static long long eq4(double v)
{
	return llround(v * 1e4);
}

static long long cents(double v)
{
	return llround(v * 100);
}

/* GPU-equivalents row leaves unplaced at priority prio. */
static long long unplaced_at(const struct compare_row *row, int prio)
{
	double v = 0;
	size_t i;
	for (i = 0; i < row->nunpl; i++)
		if (row->unpl[i].priority == prio)
			v += row->unpl[i].gpu_eq;
	return eq4(v);
}

/* The highest priority below `below` at which a or b leaves something unplaced, or 0. */
static int next_priority(const struct compare_row *a, const struct compare_row *b, int below)
{
	const struct compare_row *both[2] = { a, b };
	int best = 0, k;
	size_t i;
	for (k = 0; k < 2; k++)
		for (i = 0; i < both[k]->nunpl; i++)
			if (both[k]->unpl[i].priority < below && both[k]->unpl[i].priority > best)
				best = both[k]->unpl[i].priority;
	return best;
}

/* < 0 when a ranks before b, > 0 after, 0 tied. */
static int rank_cmp(const struct compare_row *a, const struct compare_row *b)
{
	int prio = INT_MAX;
	while ((prio = next_priority(a, b, prio)) > 0) {
		long long x = unplaced_at(a, prio), y = unplaced_at(b, prio);
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (cents(a->per_year) != cents(b->per_year))
		return cents(a->per_year) < cents(b->per_year) ? -1 : 1;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus ? -1 : 1;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	return 0;
}

/* " (as much as NEXT, ...; first for fewer GPUs in use, ...)": why best ranks before next at one cost. */
static void verdict_tie(struct sb *sb, const struct compare_row *best, const struct compare_row *next)
{
	sb_addf(sb, " (as much as %s, which also places every replica; ", next->scenario);
	if (best->gpus != next->gpus)
		sb_addf(sb, "first for fewer GPUs in used nodes, %ld against %ld)", best->gpus, next->gpus);
	else if (best->nodes != next->nodes)
		sb_addf(sb, "first for fewer nodes used, %ld against %ld)", best->nodes, next->nodes);
	else
		sb_adds(sb, "as many GPUs and nodes: first in the order given)");
	if (cents(best->per_year) == 0)
		sb_adds(sb, "; neither prices anything: owned nodes cost nothing until the scenarios price energy "
			    "(energy.usd_per_kwh, the inventory's base_power_w) or licences");
}

void compare_rank(const struct compare_row *rows, size_t n, size_t *order)
{
	size_t i, j;
	for (i = 0; i < n; i++) {
		size_t x = i;
		for (j = i; j > 0 && rank_cmp(&rows[x], &rows[order[j - 1]]) < 0; j--)
			order[j] = order[j - 1];
		order[j] = x;
	}
}

#define UNPLACED_NAMED 5	/* workloads named in a text; compare.json lists them all */

char *compare_unplaced_text(const struct compare_row *row)
{
	struct sb sb;
	char b[64];
	size_t i;

	if (!row->unplaced)
		return xstrdup("every replica placed");
	sb_init(&sb);
	sb_addf(&sb, "%ld replica%s unplaced (%s GPU-equivalents):", row->unplaced, row->unplaced == 1 ? "" : "s",
		fmt_fixed(b, sizeof(b), report_round(row->gpu_eq_unplaced, 2), 2));
	for (i = 0; i < row->nunpl && i < UNPLACED_NAMED; i++)
		sb_addf(&sb, "%s %s %ld (priority %d)", i ? "," : "", row->unpl[i].workload, row->unpl[i].replicas,
			row->unpl[i].priority);
	if (row->nunpl > UNPLACED_NAMED)
		sb_addf(&sb, " and %zu more workloads", row->nunpl - UNPLACED_NAMED);
	return sb_detach(&sb);
}

/* "; to place all, OPT: adding ..." when the option's plan says what would. */
static void to_place_all(struct sb *sb, const struct compare_row *r)
{
	if (r->to_place_all)
		sb_addf(sb, "; to place all, %s: %s", r->scenario, r->to_place_all);
}

/* "; OPT costs D USD/year less but leaves N replicas unplaced ..." for each option cheaper than the best. */
static void verdict_cheaper(struct sb *sb, const struct compare_row *rows, size_t n, const size_t *order)
{
	const struct compare_row *best = &rows[order[0]];
	char b[64];
	size_t i;

	for (i = 1; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		char *what;
		if (cents(r->per_year) >= cents(best->per_year))
			continue;
		what = compare_unplaced_text(r);
		sb_addf(sb, "; %s costs %s USD/year less but leaves %s", r->scenario,
			fmt_fixed(b, sizeof(b), report_round(best->per_year - r->per_year, 2), 2), what);
		free(what);
		to_place_all(sb, r);
	}
}

char *compare_verdict(const struct compare_row *rows, size_t n, const size_t *order)
{
	const struct compare_row *best;
	struct sb sb;
	char b[64];
	char *what;

	if (!n)
		return xstrdup("");
	best = &rows[order[0]];
	sb_init(&sb);
	if (best->unplaced) {
		what = compare_unplaced_text(best);
		sb_addf(&sb, "no option places every replica; %s leaves the least demand unplaced (by priority), at %s "
			"USD/year: %s", best->scenario, fmt_fixed(b, sizeof(b), report_round(best->per_year, 2), 2), what);
		free(what);
		to_place_all(&sb, best);
		verdict_cheaper(&sb, rows, n, order);
		return sb_detach(&sb);
	}
	sb_addf(&sb, "%s places every replica at the least cost, %s USD/year", best->scenario,
		fmt_fixed(b, sizeof(b), report_round(best->per_year, 2), 2));
	if (n > 1 && !rows[order[1]].unplaced) {
		const struct compare_row *next = &rows[order[1]];
		if (cents(next->per_year) == cents(best->per_year))
			verdict_tie(&sb, best, next);
		else
			sb_addf(&sb, " (%s USD/year less than %s, the next that places every replica)",
				fmt_fixed(b, sizeof(b), report_round(next->per_year - best->per_year, 2), 2), next->scenario);
	}
	verdict_cheaper(&sb, rows, n, order);
	return sb_detach(&sb);
}
