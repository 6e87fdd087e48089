/*
 * reportdiff.c - compare two plan reports and judge the change against
 * thresholds (see reportdiff.h); the formatting is dispatched from here.
 *
 * Design: both sides are struct rd_report of integers taken as plan.json
 * rounds them (reportdiff_read.c), so the comparison is exact integer
 * arithmetic and a plan equals its own report.  The text and Markdown
 * forms are rendered from one list of rows (reportdiff_text.c); the JSON
 * form is built with cJSON (reportdiff_json.c).  Nothing here depends on
 * the locale: numbers are formatted from integers or with fmt_fixed, and
 * the program never calls setlocale, so cJSON's printf stays in "C".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal/reportdiff_read.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

/* ================= comparing ================= */

const char *rd_limit_option(enum rd_limit l)
{
	static const char *const names[] = { "--max-cost-increase", "--max-cost-increase-abs",
					     "--max-unplaced-increase", "--max-util-drop" };
	return (unsigned)l < RD_LIMIT_COUNT ? names[l] : "?";
}

void rd_limits_none(struct rd_limits *l)
{
	int i;
	for (i = 0; i < RD_LIMIT_COUNT; i++)
		l->limit[i] = -1;
}

void rd_limits_check_defaults(struct rd_limits *l)
{
	rd_limits_none(l);
	l->limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
	l->limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
}

static int reports_differ(const struct rd_report *a, const struct rd_report *b)
{
	int q;
	if (a->total_cents != b->total_cents || a->nodes_used != b->nodes_used ||
	    a->gpus_in_used_nodes != b->gpus_in_used_nodes || a->gpus_active != b->gpus_active ||
	    a->gpus_licensed != b->gpus_licensed || a->replicas_placed != b->replicas_placed ||
	    a->replicas_unplaced != b->replicas_unplaced || a->mem_util_bp != b->mem_util_bp ||
	    a->compute_util_bp != b->compute_util_bp)
		return 1;
	for (q = 0; q < CAT_COUNT; q++)
		if (a->cat_cents[q] != b->cat_cents[q])
			return 1;
	for (q = 1; q < LIC_COUNT; q++)
		if (a->lic_gpus[q] != b->lic_gpus[q] || a->lic_seats[q] != b->lic_seats[q])
			return 1;
	for (q = 0; q < MODE_COUNT; q++)
		if (a->nodes_by_mode[q] != b->nodes_by_mode[q] || a->gpus_by_mode[q] != b->gpus_by_mode[q])
			return 1;
	return 0;
}

static void merge_unplaced(struct rd_diff *df)
{
	const struct rd_report *b = df->base, *c = df->cur;
	size_t i = 0, j = 0;

	df->unplaced = xcalloc(b->nunplaced + c->nunplaced + 1, sizeof(*df->unplaced));
	while (i < b->nunplaced || j < c->nunplaced) {
		struct rd_unplaced_change *u = &df->unplaced[df->nunplaced++];
		int cmp = i == b->nunplaced ? 1 : j == c->nunplaced ? -1 : rd_unplaced_cmp(&b->unplaced[i], &c->unplaced[j]);
		const struct rd_unplaced *x = cmp <= 0 ? &b->unplaced[i] : NULL, *y = cmp >= 0 ? &c->unplaced[j] : NULL;
		u->workload = (y ? y : x)->workload;
		u->tenant = (y ? y : x)->tenant;
		u->reason = y && *y->reason ? y->reason : x ? x->reason : y->reason;
		u->base = x ? x->replicas : 0;
		u->cur = y ? y->replicas : 0;
		if (u->base != u->cur)
			df->changed = 1;
		i += x != NULL;
		j += y != NULL;
	}
}

void rd_diff_compute(struct rd_diff *df, const struct rd_report *base, const struct rd_report *cur,
		     const struct rd_limits *lim)
{
	long long dcost = cur->total_cents - base->total_cents;
	int l;

	memset(df, 0, sizeof(*df));
	df->base = base;
	df->cur = cur;
	df->limits = *lim;
	df->changed = reports_differ(base, cur);
	merge_unplaced(df);
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		struct rd_verdict *v = &df->verdict[l];
		double limit = lim->limit[l];
		if (limit < 0)
			continue;
		v->checked = 1;
		df->nchecked++;
		switch ((enum rd_limit)l) {
		case RD_COST_PCT:
			if (base->total_cents > 0) {
				v->value = (double)dcost * 100.0 / (double)base->total_cents;
				v->exceeded = dcost > 0 && (double)dcost * 100.0 > limit * (double)base->total_cents;
			} else {
				v->infinite = dcost > 0;
				v->exceeded = dcost > 0;
			}
			break;
		case RD_COST_ABS:
			v->value = (double)dcost / 100.0;
			v->exceeded = dcost > llround(limit * 100);
			break;
		case RD_UNPLACED:
			v->value = (double)(cur->replicas_unplaced - base->replicas_unplaced);
			v->exceeded = v->value > limit;
			break;
		case RD_UTIL_DROP: {
			long mem = base->mem_util_bp - cur->mem_util_bp, comp = base->compute_util_bp - cur->compute_util_bp;
			long drop = comp > mem ? comp : mem;
			v->what = comp > mem ? "compute" : "memory";
			v->value = (double)drop / 100.0;
			v->exceeded = drop > lround(limit * 100);
			break;
		}
		case RD_LIMIT_COUNT:
			break;
		}
		if (v->exceeded)
			df->failed = 1;
	}
}

void rd_diff_release(struct rd_diff *df)
{
	if (!df)
		return;
	free(df->unplaced);
	memset(df, 0, sizeof(*df));
}
