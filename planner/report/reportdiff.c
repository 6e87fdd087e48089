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
#include <stdint.h>
#include <string.h>

#include "reportdiff_read.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

/* ================= comparing ================= */

const char *rd_limit_option(enum rd_limit l)
{
	static const char *const names[] = { "--max-cost-increase", "--max-cost-increase-abs",
					     "--max-unplaced-increase", "--max-util-drop",
					     "--max-weighted-unplaced-increase", "--fail-unplaced-priority",
					     "--fail-unplaced", "--fail-stranded-priority" };
	return (unsigned)l < RD_LIMIT_COUNT ? names[l] : "?";
}

void rd_limits_none(struct rd_limits *l)
{
	int i;
	for (i = 0; i < RD_LIMIT_COUNT; i++)
		l->limit[i] = -1;
	l->names = NULL;
	l->nnames = 0;
}

void rd_limits_check_defaults(struct rd_limits *l)
{
	rd_limits_none(l);
	l->limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
	l->limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
	l->limit[RD_WEIGHTED] = RD_DEFAULT_WEIGHTED;
	l->limit[RD_PRIORITY] = RD_DEFAULT_PRIORITY;
	l->limit[RD_STRANDED] = RD_DEFAULT_STRANDED;
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

/* Replicas of (workload, tenant) in rows v[0..n) sorted by rd_placed_cmp, else 0; *prio its priority. */
static long placed_of(const struct rd_placed *v, size_t n, const char *w, const char *t, int *prio)
{
	struct rd_placed key;
	const struct rd_placed *hit;

	key.workload = (char *)(uintptr_t)w;
	key.tenant = (char *)(uintptr_t)t;
	hit = n ? bsearch(&key, v, n, sizeof(*v), rd_placed_cmp) : NULL;
	if (hit && prio && hit->priority > 0)
		*prio = hit->priority;
	return hit ? hit->replicas : 0;
}

/* Appends the key (w, t); workload_changes sorts and merges them. */
static void add_key(struct rd_workload_change *k, size_t *n, const char *w, const char *t)
{
	k[*n].workload = w;
	k[*n].tenant = t;
	(*n)++;
}

static int key_cmp(const void *a, const void *b)
{
	const struct rd_workload_change *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);
	return c ? c : strcmp(x->tenant, y->tenant);
}

/* Highest priority first, then by workload and tenant. */
static int change_cmp(const void *a, const void *b)
{
	const struct rd_workload_change *x = a, *y = b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return key_cmp(a, b);
}

/*
 * The workloads whose placed or unplaced replicas changed, highest
 * priority first.  A priority is the baseline's (a plan.json's
 * "workloads"), else the current side's (the scenario planned, or a
 * plan.json's), else 1 (a plan.json before 3.2.0 carries none): the
 * change is judged at the priorities agreed before it, so raising one
 * job's priority to push another out weighs what it pushes out as it
 * weighed before.
 */
static void workload_changes(struct rd_diff *df)
{
	const struct rd_report *b = df->base, *c = df->cur;
	size_t n = 0, i, k = 0;
	struct rd_workload_change *v =
		xcalloc(b->nplaced + c->nplaced + b->nunplaced + c->nunplaced + 1, sizeof(*v));

	for (i = 0; i < b->nplaced; i++)
		add_key(v, &n, b->placed[i].workload, b->placed[i].tenant);
	for (i = 0; i < c->nplaced; i++)
		add_key(v, &n, c->placed[i].workload, c->placed[i].tenant);
	for (i = 0; i < b->nunplaced; i++)
		add_key(v, &n, b->unplaced[i].workload, b->unplaced[i].tenant);
	for (i = 0; i < c->nunplaced; i++)
		add_key(v, &n, c->unplaced[i].workload, c->unplaced[i].tenant);
	if (n)
		qsort(v, n, sizeof(*v), key_cmp);
	for (i = 0; i < n; i++) {
		struct rd_workload_change x = v[i];
		size_t j;
		if (k && !key_cmp(&v[k - 1], &x))
			continue;
		x.priority = 1;	/* the baseline's wins: a change may not re-weigh what it drops */
		placed_of(c->prio, c->nprio, x.workload, x.tenant, &x.priority);
		placed_of(b->prio, b->nprio, x.workload, x.tenant, &x.priority);
		x.placed_base = placed_of(b->placed, b->nplaced, x.workload, x.tenant, NULL);
		x.placed_cur = placed_of(c->placed, c->nplaced, x.workload, x.tenant, NULL);
		x.unplaced_base = x.unplaced_cur = 0;
		for (j = 0; j < b->nunplaced; j++)
			if (!strcmp(b->unplaced[j].workload, x.workload) && !strcmp(b->unplaced[j].tenant, x.tenant))
				x.unplaced_base = b->unplaced[j].replicas;
		for (j = 0; j < c->nunplaced; j++)
			if (!strcmp(c->unplaced[j].workload, x.workload) && !strcmp(c->unplaced[j].tenant, x.tenant))
				x.unplaced_cur = c->unplaced[j].replicas;
		v[k++] = x;
	}
	n = k;
	for (i = k = 0; i < n; i++)
		if (v[i].placed_base != v[i].placed_cur || v[i].unplaced_base != v[i].unplaced_cur)
			v[k++] = v[i];
	if (k)
		qsort(v, k, sizeof(*v), change_cmp);
	df->changes = v;
	df->nchanges = k;
}

/* True when workload w is one of the names watched. */
static int named(const struct rd_limits *lim, const char *w)
{
	size_t i;
	for (i = 0; i < lim->nnames; i++)
		if (!strcmp(lim->names[i], w))
			return 1;
	return 0;
}

/* The priority thresholds: weighted unplaced change, workloads at or above a priority, named ones. */
static void judge_priorities(const struct rd_diff *df, enum rd_limit l, struct rd_verdict *v)
{
	size_t i;

	for (i = 0; i < df->nchanges; i++) {
		const struct rd_workload_change *x = &df->changes[i];
		long more = x->unplaced_cur - x->unplaced_base;
		if (l == RD_WEIGHTED)
			v->value += (double)x->priority * (double)more;
		else if (more > 0 && (l == RD_PRIORITY ? x->priority >= df->limits.limit[l] : named(&df->limits, x->workload)))
			v->value += 1;
	}
	v->exceeded = l == RD_WEIGHTED ? v->value > df->limits.limit[l] : v->value > 0;
}

/*
 * The worst node and site losses on both sides, and GPU losses when both
 * analysed their GPUs, counting replicas of priority >= the threshold's P
 * (1 when not checked); and the verdict: value the largest increase,
 * what its kind, exceeded when a kind's worst loss strands more than the
 * baseline's.
 */
static void judge_failures(struct rd_diff *df, struct rd_verdict *v)
{
	static const char *const kinds[] = { "node", "site", "GPU" };
	int k;

	df->fail_prio = df->limits.limit[RD_STRANDED] >= 1 ? (int)df->limits.limit[RD_STRANDED] : 1;
	df->fail_gpu_known = df->base->have_fail_gpu && df->cur->have_fail_gpu;
	for (k = 0; k < (df->fail_gpu_known ? 3 : 2); k++) {
		struct rd_fail_change *x = &df->fail[k];
		x->base = rd_fail_worst(df->base, k, df->fail_prio, &x->base_name);
		x->cur = rd_fail_worst(df->cur, k, df->fail_prio, &x->cur_name);
		if (!k || x->cur - x->base > v->value) {
			v->value = (double)(x->cur - x->base);
			v->what = kinds[k];
		}
		if (x->cur > x->base)
			v->exceeded = 1;
	}
}

void rd_diff_compute(struct rd_diff *df, const struct rd_report *base, const struct rd_report *cur,
		     const struct rd_limits *lim)
{
	struct rd_verdict fv;
	long long dcost = cur->total_cents - base->total_cents;
	int l;

	memset(df, 0, sizeof(*df));
	df->base = base;
	df->cur = cur;
	df->limits = *lim;
	df->changed = reports_differ(base, cur);
	merge_unplaced(df);
	workload_changes(df);
	df->fail_known = base->have_fail && cur->have_fail;
	memset(&fv, 0, sizeof(fv));
	if (df->fail_known)
		judge_failures(df, &fv);
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		struct rd_verdict *v = &df->verdict[l];
		double limit = lim->limit[l];
		if (limit < 0 || (l == RD_STRANDED && (limit < 1 || !df->fail_known)))
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
		case RD_WEIGHTED:
		case RD_PRIORITY:
		case RD_NAMED:
			judge_priorities(df, (enum rd_limit)l, v);
			break;
		case RD_STRANDED:
			*v = fv;
			v->checked = 1;
			break;
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
	free(df->changes);
	memset(df, 0, sizeof(*df));
}
