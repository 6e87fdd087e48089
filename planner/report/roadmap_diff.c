/*
 * roadmap_diff.c - a roadmap against a baseline roadmap.json
 * (roadmap_diff.h): read both sides into cents and counts, compare, judge
 * by check's thresholds, and say it as text in check's columns.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpos.h"
#include "roadmap_diff.h"
#include "roadmap_report.h"
#include "util.h"
#include "banned.h"

/* ================= reading ================= */

struct rmd_reader {
	const char *file, *text;
	size_t len;
	struct diag *d;
	struct jpos_step path[4];	/* the object being read */
	int depth;
};

/* Fails at member key of the current object ("is missing": at the object). */
static int rmd_bad(struct rmd_reader *rd, const char *key, const char *what)
{
	struct jpos_step path[5];
	long line, col;
	int n = rd->depth;
	char where[160] = "";

	memcpy(path, rd->path, sizeof(rd->path));
	if (strcmp(what, "is missing"))
		path[n++] = (struct jpos_step){ key, 0 };
	jpos_at(rd->text, rd->len, path, n, &line, &col);
	if (rd->depth == 4)
		snprintf(where, sizeof(where), "%s[%ld].%s[%ld].", rd->path[0].key, rd->path[1].index, rd->path[2].key,
			 rd->path[3].index);
	else if (rd->depth == 3)
		snprintf(where, sizeof(where), "%s[%ld].%s.", rd->path[0].key, rd->path[1].index, rd->path[2].key);
	else if (rd->depth == 2)
		snprintf(where, sizeof(where), "%s[%ld].", rd->path[0].key, rd->path[1].index);
	else if (rd->depth == 1)
		snprintf(where, sizeof(where), "%s.", rd->path[0].key);
	return diag_set(rd->d, DIAG_INPUT, rd->file, line, col, "baseline roadmap: '%s%s' %s", where, key, what);
}

enum rmd_kind { K_STRING, K_NUMBER, K_COUNT, K_OBJECT, K_ARRAY };

static const cJSON *rmd_field(struct rmd_reader *rd, const cJSON *obj, const char *key, enum rmd_kind k)
{
	static const char *const want[] = { "must be a string", "must be a number", "must be a whole number, at least 0",
					    "must be an object", "must be an array" };
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	int ok;

	if (!v) {
		rmd_bad(rd, key, "is missing");
		return NULL;
	}
	ok = k == K_STRING ? cJSON_IsString(v) : k == K_OBJECT ? cJSON_IsObject(v) : k == K_ARRAY ? cJSON_IsArray(v)
		: cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) < 9e13;
	if (ok && k == K_COUNT)
		ok = v->valuedouble >= 0 && v->valuedouble == floor(v->valuedouble);
	if (!ok) {
		rmd_bad(rd, key, want[k]);
		return NULL;
	}
	return v;
}

static int rmd_string(struct rmd_reader *rd, const cJSON *obj, const char *key, char **out)
{
	const cJSON *v = rmd_field(rd, obj, key, K_STRING);
	if (!v)
		return -1;
	*out = str_escape_ctl(v->valuestring); /* never raw to a terminal */
	return 0;
}

static int rmd_cents(struct rmd_reader *rd, const cJSON *obj, const char *key, long long *out)
{
	const cJSON *v = rmd_field(rd, obj, key, K_NUMBER);
	if (!v)
		return -1;
	*out = llround(v->valuedouble * 100);
	return 0;
}

static int rmd_count(struct rmd_reader *rd, const cJSON *obj, const char *key, long *out)
{
	const cJSON *v = rmd_field(rd, obj, key, K_COUNT);
	if (!v)
		return -1;
	*out = (long)v->valuedouble;
	return 0;
}

/* The elements of array key of root, each an object read by fn into r. */
static int rmd_rows(struct rmd_reader *rd, const cJSON *root, const char *key, struct rmd_report *r,
		    int (*fn)(struct rmd_reader *rd, const cJSON *o, struct rmd_report *r))
{
	const cJSON *arr = rmd_field(rd, root, key, K_ARRAY), *o;
	long i = 0;

	if (!arr)
		return -1;
	rd->path[0] = (struct jpos_step){ key, 0 };
	cJSON_ArrayForEach(o, arr) {
		rd->depth = 1;
		rd->path[1] = (struct jpos_step){ NULL, i };
		if (!cJSON_IsObject(o)) {
			long line, col;
			jpos_at(rd->text, rd->len, rd->path, 2, &line, &col);
			return diag_set(rd->d, DIAG_INPUT, rd->file, line, col, "baseline roadmap: '%s[%ld]' must be an object",
					key, i);
		}
		i++;
		rd->depth = 2;
		if (fn(rd, o, r))
			return -1;
	}
	rd->depth = 0;
	return 0;
}

static int rmd_buy_row(struct rmd_reader *rd, const cJSON *o, struct rmd_report *r)
{
	struct rmd_buy *b;

	r->buys = xrealloc(r->buys, (r->nbuys + 1) * sizeof(*r->buys));
	b = &r->buys[r->nbuys++];
	memset(b, 0, sizeof(*b));
	if (rmd_string(rd, o, "class", &b->cls) || rmd_string(rd, o, "order_period", &b->order) ||
	    rmd_count(rd, o, "units", &b->units) || rmd_cents(rd, o, "upfront_usd", &b->upfront_cents))
		return -1;
	r->upfront_cents += b->upfront_cents;
	return 0;
}

/* A period's unplaced_by_priority (1.2.0): required from 1.2.0 on; without it r has no priorities. */
static int rmd_prio_rows(struct rmd_reader *rd, const cJSON *o, struct rmd_report *r, struct rmd_period *p)
{
	const cJSON *arr, *e;
	long i = 0, prio;

	if (!r->has_prio)
		return 0;
	if (!(arr = rmd_field(rd, o, "unplaced_by_priority", K_ARRAY)))
		return -1;
	rd->path[2] = (struct jpos_step){ "unplaced_by_priority", 0 };
	p->prio = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*p->prio));
	cJSON_ArrayForEach(e, arr) {
		rd->path[3] = (struct jpos_step){ NULL, i++ };
		rd->depth = 4;
		if (!cJSON_IsObject(e)) {
			long line, col;
			jpos_at(rd->text, rd->len, rd->path, 4, &line, &col);
			return diag_set(rd->d, DIAG_INPUT, rd->file, line, col,
					"baseline roadmap: 'periods[%ld].unplaced_by_priority[%ld]' must be an object",
					rd->path[1].index, i - 1);
		}
		if (rmd_count(rd, e, "priority", &prio) || rmd_count(rd, e, "replicas", &p->prio[p->nprio].replicas))
			return -1;
		if (prio < 1 || prio > 1000000)
			return rmd_bad(rd, "priority", "must be a whole number from 1");
		p->prio[p->nprio++].priority = (int)prio;
	}
	rd->depth = 2;
	return 0;
}

static int rmd_period_row(struct rmd_reader *rd, const cJSON *o, struct rmd_report *r)
{
	const cJSON *cost;
	struct rmd_period *p;
	int q;

	r->per = xrealloc(r->per, (r->nperiods + 1) * sizeof(*r->per));
	p = &r->per[r->nperiods++];
	memset(p, 0, sizeof(*p));
	if (rmd_string(rd, o, "period", &p->period) || rmd_count(rd, o, "unplaced", &p->unplaced) ||
	    rmd_prio_rows(rd, o, r, p) || !(cost = rmd_field(rd, o, "cost_by_category", K_OBJECT)))
		return -1;
	rd->path[2] = (struct jpos_step){ "cost_by_category", 0 };
	rd->depth = 3;
	for (q = 0; q < CAT_COUNT; q++)
		if (rmd_cents(rd, cost, cost_cat_name((enum cost_cat)q), &p->cat_cents[q]))
			return -1;
	rd->depth = 2;
	return 0;
}

/* The report's members but its rows. */
static int rmd_head(struct rmd_reader *rd, const cJSON *root, struct rmd_report *r)
{
	const cJSON *v = rmd_field(rd, root, "schema_version", K_STRING), *tot;

	if (!v)
		return -1;
	if (strncmp(v->valuestring, "1.", 2))
		return rmd_bad(rd, "schema_version", "is not a roadmap.json this gpuplan reads (1.x); "
						     "write it again with gpuplan roadmap");
	r->schema_version = str_escape_ctl(v->valuestring);
	r->has_prio = atol(v->valuestring + 2) >= 2; /* unplaced_by_priority from 1.2.0 on */
	if (rmd_string(rd, root, "scenario", &r->scenario) || !(tot = rmd_field(rd, root, "totals", K_OBJECT)))
		return -1;
	rd->path[0] = (struct jpos_step){ "totals", 0 };
	rd->depth = 1;
	if (rmd_cents(rd, tot, "cost_usd", &r->cost_cents) || !(v = rmd_field(rd, tot, "gap", K_NUMBER)))
		return -1;
	r->gap = v->valuedouble;
	rd->depth = 0;
	return 0;
}

int rmd_is_roadmap(const char *text, size_t len)
{
	cJSON *root = cJSON_ParseWithLength(text, len);
	int is = cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "period_count") &&
		 cJSON_GetObjectItemCaseSensitive(root, "periods");

	cJSON_Delete(root);
	return is;
}

int rmd_report_parse(struct rmd_report *r, const char *file, const char *text, size_t len, struct diag *d)
{
	struct rmd_reader rd = { file, text, len, d, { { NULL, 0 } }, 0 };
	cJSON *root;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->file = str_escape_ctl(file);
	if (!(root = jpos_parse(file, text, len, "baseline", d)))
		return -1;
	if (!rmd_head(&rd, root, r) && !rmd_rows(&rd, root, "schedule", r, rmd_buy_row) &&
	    !rmd_rows(&rd, root, "periods", r, rmd_period_row))
		rc = 0;
	cJSON_Delete(root);
	return rc;
}

void rmd_report_from_roadmap(struct rmd_report *r, const char *file, const struct roadmap_result *rr)
{
	char *text = report_roadmap_json(rr);
	struct diag d = DIAG_INIT;

	/* the run's own roadmap.json: it always reads */
	if (rmd_report_parse(r, file, text, strlen(text), &d)) {
		rmd_report_release(r);
		memset(r, 0, sizeof(*r));
		r->file = str_escape_ctl(file);
	}
	free(r->file);
	r->file = str_escape_ctl(file);
	diag_release(&d);
	cJSON_free(text);
}

void rmd_report_release(struct rmd_report *r)
{
	size_t i;

	for (i = 0; i < r->nperiods; i++) {
		free(r->per[i].period);
		free(r->per[i].prio);
	}
	for (i = 0; i < r->nbuys; i++) {
		free(r->buys[i].cls);
		free(r->buys[i].order);
	}
	free(r->per);
	free(r->buys);
	free(r->file);
	free(r->scenario);
	free(r->schema_version);
	memset(r, 0, sizeof(*r));
}

/* ================= comparing ================= */

/* cents as "1234.56", signed ("+1234.56", "0.00") when sign. */
static const char *rmd_money(char *buf, size_t n, long long cents, int sign)
{
	long long a = cents < 0 ? -cents : cents;
	snprintf(buf, n, "%s%lld.%02lld", cents < 0 ? "-" : sign && cents > 0 ? "+" : "", a / 100, a % 100);
	return buf;
}

static void rmd_row(struct sb *sb, const char *label, const char *b, const char *c, const char *ch)
{
	if (*ch)
		sb_addf(sb, "%-38s %14s %14s %14s\n", label, b, c, ch);
	else
		sb_addf(sb, "%-38s %14s %14s\n", label, b, c);
}

/* A money row: base, current, change and its percent of the base. */
static void rmd_money_row(struct sb *sb, const char *label, long long b, long long c)
{
	char x[40], y[40], z[40];

	sb_addf(sb, "%-38s %14s %14s %14s", label, rmd_money(x, sizeof(x), b, 0), rmd_money(y, sizeof(y), c, 0),
		rmd_money(z, sizeof(z), c - b, 1));
	if (b && c != b)
		sb_addf(sb, " %+9.2f%%", 100.0 * (double)(c - b) / (double)b);
	sb_adds(sb, "\n");
}

/* The unplaced replicas of period label in r; 0 when r has no such period. */
static long rmd_unplaced_at(const struct rmd_report *r, const char *label)
{
	size_t i;
	for (i = 0; i < r->nperiods; i++)
		if (!strcmp(r->per[i].period, label))
			return r->per[i].unplaced;
	return 0;
}

/* The units r orders of class cls in order period order. */
static long rmd_units(const struct rmd_report *r, const char *cls, const char *order)
{
	long n = 0;
	size_t i;
	for (i = 0; i < r->nbuys; i++)
		if (!strcmp(r->buys[i].cls, cls) && !strcmp(r->buys[i].order, order))
			n += r->buys[i].units;
	return n;
}

/* Whether r has period label. */
static int rmd_has_period(const struct rmd_report *r, const char *label)
{
	size_t i;
	for (i = 0; i < r->nperiods && strcmp(r->per[i].period, label); i++)
		;
	return i < r->nperiods;
}

/*
 * Rows of the periods whose unplaced replicas differ (the baseline's
 * periods, then the current's others); the largest rise of a period.
 */
static long rmd_periods(struct sb *sb, const struct rmd_report *b, const struct rmd_report *c)
{
	const struct rmd_report *side[2] = { b, c };
	long worst = 0;
	int s, head = 0;
	size_t i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nperiods; i++) {
			const char *p = side[s]->per[i].period;
			long x = rmd_unplaced_at(b, p), y = rmd_unplaced_at(c, p);
			char label[64], u[32], v[32], w[32];
			if ((s == 1 && rmd_has_period(b, p)) || x == y)
				continue;
			if (y - x > worst)
				worst = y - x;
			if (!head++)
				sb_adds(sb, "unplaced replicas by period (where they differ)\n");
			snprintf(label, sizeof(label), "  %s", p);
			snprintf(u, sizeof(u), "%ld", x);
			snprintf(v, sizeof(v), "%ld", y);
			snprintf(w, sizeof(w), "%+ld", y - x);
			rmd_row(sb, label, u, v, w);
		}
	return worst;
}

const struct rmd_period *rmd_period_of(const struct rmd_report *r, const char *label)
{
	size_t i;
	for (i = 0; i < r->nperiods; i++)
		if (!strcmp(r->per[i].period, label))
			return &r->per[i];
	return NULL;
}

/*
 * Rows of the cost per category and period where it differs (a period
 * one side lacks costs 0 there): the baseline's periods, then the
 * current's others; in a period, the categories in pricing.h's order.
 */
static void rmd_costs(struct sb *sb, const struct rmd_report *b, const struct rmd_report *c)
{
	const struct rmd_report *side[2] = { b, c };
	int s, q, head = 0;
	size_t i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nperiods; i++) {
			const char *p = side[s]->per[i].period;
			const struct rmd_period *x = rmd_period_of(b, p), *y = rmd_period_of(c, p);
			char label[64];
			if (s == 1 && x)
				continue;
			for (q = 0; q < CAT_COUNT; q++) {
				long long u = x ? x->cat_cents[q] : 0, v = y ? y->cat_cents[q] : 0;
				if (u == v)
					continue;
				if (!head++)
					sb_adds(sb, "cost by category and period (USD, where they differ)\n");
				snprintf(label, sizeof(label), "  %s %s", p, cost_cat_name((enum cost_cat)q));
				rmd_money_row(sb, label, u, v);
			}
		}
}

/*
 * Rows of the orders whose units differ, by (class, order period), one
 * order a key (roadmap.h: by order period, then class): the baseline's,
 * then the current's others.
 */
static void rmd_buys(struct sb *sb, const struct rmd_report *b, const struct rmd_report *c)
{
	const struct rmd_report *side[2] = { b, c };
	int s, head = 0;
	size_t i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nbuys; i++) {
			const struct rmd_buy *o = &side[s]->buys[i];
			long x = rmd_units(b, o->cls, o->order), y = rmd_units(c, o->cls, o->order);
			char label[160], u[32], v[32], w[32];
			if ((s == 1 && x) || x == y)
				continue;
			if (!head++)
				sb_adds(sb, "purchases changed (nodes ordered)\n");
			snprintf(label, sizeof(label), "  %.60s in %s", o->cls, o->order);
			snprintf(u, sizeof(u), "%ld", x);
			snprintf(v, sizeof(v), "%ld", y);
			snprintf(w, sizeof(w), "%+ld", y - x);
			rmd_row(sb, label, u, v, w);
		}
}

/* The unplaced replicas of priority prio in period label of r. */
static long rmd_prio_at(const struct rmd_report *r, const char *label, int prio)
{
	const struct rmd_period *p = rmd_period_of(r, label);
	size_t i;

	for (i = 0; p && i < p->nprio; i++)
		if (p->prio[i].priority == prio)
			return p->prio[i].replicas;
	return 0;
}

/*
 * Whether r says period label's unplaced replicas by priority: it carries
 * them, or the period leaves none unplaced (then none of any priority), or
 * r lacks the period (it counts 0).
 */
static int rmd_prio_known(const struct rmd_report *r, const char *label)
{
	return r->has_prio || rmd_unplaced_at(r, label) == 0;
}

static int int_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x > y ? -1 : x < y;
}

/* The (period label, priority) pairs whose unplaced replicas differ, appended to j, priority high first. */
static void rmd_prio_period(struct rmd_judgement *j, const char *label, const struct rmd_report *b,
			    const struct rmd_report *c)
{
	const struct rmd_period *side[2] = { rmd_period_of(b, label), rmd_period_of(c, label) };
	size_t n = 0, i, k;
	int s, *v;

	v = xcalloc((side[0] ? side[0]->nprio : 0) + (side[1] ? side[1]->nprio : 0) + 1, sizeof(int));
	for (s = 0; s < 2; s++)
		for (i = 0; side[s] && i < side[s]->nprio; i++)
			v[n++] = side[s]->prio[i].priority;
	qsort(v, n, sizeof(int), int_desc);
	for (i = 0; i < n; i++) {
		long x = rmd_prio_at(b, label, v[i]), y = rmd_prio_at(c, label, v[i]);
		if ((i && v[i] == v[i - 1]) || x == y)
			continue;
		k = j->nchanges++;
		j->changes = xrealloc(j->changes, j->nchanges * sizeof(*j->changes));
		j->changes[k] = (struct rmd_prio_change){ label, v[i], x, y };
	}
	free(v);
}

/* A money rise of b to c judged by lim's cost limits into v[pct], v[abs]. */
static void rmd_judge_money(struct rmd_verdict *vp, struct rmd_verdict *va, long long b, long long c,
			    const struct rd_limits *lim)
{
	double pct = b ? 100.0 * (double)(c - b) / (double)b : c > b ? HUGE_VAL : 0;
	double lp = lim->limit[RD_COST_PCT], la = lim->limit[RD_COST_ABS];

	*vp = (struct rmd_verdict){ lp >= 0, lp >= 0 && pct > lp + 1e-9, isinf(pct), isinf(pct) ? 0 : pct, lp };
	*va = (struct rmd_verdict){ la >= 0, la >= 0 && (double)(c - b) > la * 100 + 1e-6, 0, (double)(c - b) / 100, la };
}

/* The reason a money threshold failed, into why: what rose by how much, over which option. */
static void rmd_why_money(struct sb *why, const char *what, const struct rmd_verdict *vp, const struct rmd_verdict *va,
			  long long b, long long c)
{
	char m[40], t[40], pc[40];

	if (!vp->exceeded && !va->exceeded)
		return;
	snprintf(pc, sizeof(pc), vp->infinite ? "+inf%%" : "%+.2f%%",
		 b ? 100.0 * (double)(c - b) / (double)b : 0.0);
	sb_addf(why, "%s%s %s USD (%s) is over %s %s%s", why->len ? "; " : "", what, rmd_money(m, sizeof(m), c - b, 1),
		pc, vp->exceeded ? "--max-cost-increase" : "--max-cost-increase-abs",
		fmt_num_short(t, sizeof(t), vp->exceeded ? vp->limit : va->limit, vp->exceeded ? 4 : 2),
		vp->exceeded ? "%" : " USD");
}

/* The unplaced thresholds: the worst period's rise, and each priority's. */
static void rmd_judge_unplaced(struct rmd_judgement *j, const struct rmd_report *b, const struct rmd_report *c,
			       const struct rd_limits *lim, struct sb *why)
{
	const struct rmd_report *side[2] = { b, c };
	double P = lim->limit[RD_PRIORITY];
	long worst = 0, rose = 0;
	size_t i;
	int s;

	j->prio_known = 1;
	for (s = 0; s < 2; s++)
		for (i = 0; i < side[s]->nperiods; i++) {
			const char *p = side[s]->per[i].period;
			long d = rmd_unplaced_at(c, p) - rmd_unplaced_at(b, p);
			if (s == 1 && rmd_has_period(b, p))
				continue;
			worst = d > worst ? d : worst;
			if (rmd_prio_known(b, p) && rmd_prio_known(c, p))
				rmd_prio_period(j, p, b, c);
			else
				j->prio_known = 0;
		}
	j->v[RMD_UNPLACED] = (struct rmd_verdict){ lim->limit[RD_UNPLACED] >= 0, (double)worst > lim->limit[RD_UNPLACED],
						   0, (double)worst, lim->limit[RD_UNPLACED] };
	if (j->v[RMD_UNPLACED].exceeded)
		sb_addf(why, "%sunplaced replicas +%ld in a period is over --max-unplaced-increase %.0f", why->len ? "; " : "",
			worst, lim->limit[RD_UNPLACED]);
	for (i = 0; i < j->nchanges; i++)
		rose += P >= 0 && j->changes[i].priority >= P && j->changes[i].cur > j->changes[i].base;
	j->v[RMD_PRIORITY] = (struct rmd_verdict){ P >= 0, rose > 0, 0, (double)rose, P };
	if (!rose)
		return;
	sb_addf(why, "%sunplaced replicas of priority %.0f or above rose (--fail-unplaced-priority %.0f):",
		why->len ? "; " : "", P, P);
	for (i = 0, rose = 0; i < j->nchanges; i++) {
		const struct rmd_prio_change *x = &j->changes[i];
		if (x->priority < P || x->cur <= x->base || rose++ >= 5)
			continue;
		sb_addf(why, "%s %s priority %d %+ld", rose > 1 ? "," : "", x->period, x->priority, x->cur - x->base);
	}
	if (rose > 5)
		sb_addf(why, " and %ld more", rose - 5);
}

void rmd_judge(struct rmd_judgement *j, const struct rmd_report *base, const struct rmd_report *cur,
	       const struct rd_limits *lim)
{
	struct sb why;
	int k;

	memset(j, 0, sizeof(*j));
	sb_init(&why);
	rmd_judge_money(&j->v[RMD_COST_PCT], &j->v[RMD_COST_ABS], base->cost_cents, cur->cost_cents, lim);
	rmd_judge_money(&j->v[RMD_UPFRONT_PCT], &j->v[RMD_UPFRONT_ABS], base->upfront_cents, cur->upfront_cents, lim);
	rmd_why_money(&why, "total cost", &j->v[RMD_COST_PCT], &j->v[RMD_COST_ABS], base->cost_cents, cur->cost_cents);
	rmd_why_money(&why, "purchases upfront", &j->v[RMD_UPFRONT_PCT], &j->v[RMD_UPFRONT_ABS], base->upfront_cents,
		      cur->upfront_cents);
	rmd_judge_unplaced(j, base, cur, lim, &why);
	for (k = 0; k < RMD_CHECK_COUNT; k++)
		j->failed |= j->v[k].exceeded;
	j->why = j->failed ? sb_detach(&why) : NULL;
	if (!j->failed)
		sb_release(&why);
}

void rmd_judgement_release(struct rmd_judgement *j)
{
	free(j->changes);
	free(j->why);
	memset(j, 0, sizeof(*j));
}

/* The text rows of a money threshold's verdicts. */
static void rmd_money_rows(struct sb *sb, const char *what, const struct rmd_verdict *vp, const struct rmd_verdict *va)
{
	char m[40], t[40], l[40];

	if (vp->checked) {
		snprintf(m, sizeof(m), vp->infinite ? "+inf%%" : "%+.2f%%", vp->value);
		snprintf(l, sizeof(l), "%s%%", fmt_num_short(t, sizeof(t), vp->limit, 4));
		sb_addf(sb, "  %-36s %14s %14s %10s\n", what, m, l, vp->exceeded ? "EXCEEDED" : "ok");
	}
	if (va->checked) {
		snprintf(l, sizeof(l), "%s USD", fmt_num_short(t, sizeof(t), va->limit, 2));
		sb_addf(sb, "  %-36s %14s %14s %10s\n", what, rmd_money(m, sizeof(m), llround(va->value * 100), 1), l,
			va->exceeded ? "EXCEEDED" : "ok");
	}
}

/* The rows of the (period, priority) pairs whose unplaced replicas differ. */
static void rmd_prio_rows_text(struct sb *sb, const struct rmd_judgement *j)
{
	size_t i;

	for (i = 0; i < j->nchanges; i++) {
		const struct rmd_prio_change *x = &j->changes[i];
		char label[64], u[32], v[32], w[32];
		if (!i)
			sb_adds(sb, "unplaced replicas by period and priority (where they differ)\n");
		snprintf(label, sizeof(label), "  %s priority %d", x->period, x->priority);
		snprintf(u, sizeof(u), "%ld", x->base);
		snprintf(v, sizeof(v), "%ld", x->cur);
		snprintf(w, sizeof(w), "%+ld", x->cur - x->base);
		rmd_row(sb, label, u, v, w);
	}
}

/* The unplaced thresholds' rows. */
static void rmd_unplaced_rows(struct sb *sb, const struct rmd_judgement *j)
{
	const struct rmd_verdict *u = &j->v[RMD_UNPLACED], *p = &j->v[RMD_PRIORITY];
	char x[40], y[40], label[64];

	if (u->checked) {
		snprintf(x, sizeof(x), "%.0f", u->value);
		snprintf(y, sizeof(y), "%.0f", u->limit);
		sb_addf(sb, "  %-36s %14s %14s %10s\n", "unplaced increase (worst period)", x, y, u->exceeded ? "EXCEEDED" : "ok");
	}
	if (p->checked) {
		snprintf(label, sizeof(label), "unplaced of priority >= %.0f rose", p->limit);
		snprintf(x, sizeof(x), "%.0f", p->value);
		sb_addf(sb, "  %-36s %14s %14s %10s\n", label, x, "0", p->exceeded ? "EXCEEDED" : "ok");
	}
}

char *rmd_compare(const struct rmd_report *base, const struct rmd_report *cur, const struct rd_limits *lim,
		  char **why)
{
	struct rmd_judgement j;
	struct sb sb;
	long ub = 0, uc = 0;
	char x[40], y[40], z[40];
	size_t i;

	rmd_judge(&j, base, cur, lim);
	sb_init(&sb);
	for (i = 0; i < base->nperiods; i++)
		ub += base->per[i].unplaced;
	for (i = 0; i < cur->nperiods; i++)
		uc += cur->per[i].unplaced;
	sb_addf(&sb, "check roadmap %s (%s) against %s\n", cur->scenario, cur->file, base->file);
	rmd_row(&sb, "", "baseline", "current", "change");
	rmd_money_row(&sb, "total cost (USD over the horizon)", base->cost_cents, cur->cost_cents);
	rmd_money_row(&sb, "purchases upfront (USD)", base->upfront_cents, cur->upfront_cents);
	snprintf(x, sizeof(x), "%ld", ub);
	snprintf(y, sizeof(y), "%ld", uc);
	snprintf(z, sizeof(z), "%+ld", uc - ub);
	rmd_row(&sb, "unplaced replica-periods", x, y, uc == ub ? "0" : z);
	snprintf(x, sizeof(x), "%.2f%%", 100 * base->gap);
	snprintf(y, sizeof(y), "%.2f%%", 100 * cur->gap);
	rmd_row(&sb, "gap (proven)", x, y, "");
	rmd_periods(&sb, base, cur);
	rmd_prio_rows_text(&sb, &j);
	rmd_costs(&sb, base, cur);
	rmd_buys(&sb, base, cur);
	sb_addf(&sb, "%-38s %14s %14s %10s\n", "thresholds", "measured", "limit", "result");
	rmd_money_rows(&sb, "total cost", &j.v[RMD_COST_PCT], &j.v[RMD_COST_ABS]);
	rmd_money_rows(&sb, "purchases upfront", &j.v[RMD_UPFRONT_PCT], &j.v[RMD_UPFRONT_ABS]);
	rmd_unplaced_rows(&sb, &j);
	sb_addf(&sb, "result: %s%s\n", j.failed ? "FAILED: " : "ok", j.failed ? j.why : "");
	if (!j.prio_known && j.v[RMD_PRIORITY].checked)
		sb_addf(&sb, "note: the baseline (roadmap.json %s) has no unplaced replicas by priority: periods where it "
			     "leaves some unplaced are not judged by priority; write it again with gpuplan roadmap\n",
			base->schema_version ? base->schema_version : "?");
	*why = j.why;
	j.why = NULL;
	rmd_judgement_release(&j);
	return sb_detach(&sb);
}
