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
	struct jpos_step path[3];	/* the object being read */
	int depth;
};

/* Fails at member key of the current object ("is missing": at the object). */
static int rmd_bad(struct rmd_reader *rd, const char *key, const char *what)
{
	struct jpos_step path[4];
	long line, col;
	int n = rd->depth;
	char where[128] = "";

	memcpy(path, rd->path, sizeof(rd->path));
	if (strcmp(what, "is missing"))
		path[n++] = (struct jpos_step){ key, 0 };
	jpos_at(rd->text, rd->len, path, n, &line, &col);
	if (rd->depth == 3)
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

static int rmd_period_row(struct rmd_reader *rd, const cJSON *o, struct rmd_report *r)
{
	const cJSON *cost;
	struct rmd_period *p;
	int q;

	r->per = xrealloc(r->per, (r->nperiods + 1) * sizeof(*r->per));
	p = &r->per[r->nperiods++];
	memset(p, 0, sizeof(*p));
	if (rmd_string(rd, o, "period", &p->period) || rmd_count(rd, o, "unplaced", &p->unplaced) ||
	    !(cost = rmd_field(rd, o, "cost_by_category", K_OBJECT)))
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

	for (i = 0; i < r->nperiods; i++)
		free(r->per[i].period);
	for (i = 0; i < r->nbuys; i++) {
		free(r->buys[i].cls);
		free(r->buys[i].order);
	}
	free(r->per);
	free(r->buys);
	free(r->file);
	free(r->scenario);
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

/* Period label of r, or NULL. */
static const struct rmd_period *rmd_period_of(const struct rmd_report *r, const char *label)
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

/* One money threshold row and its verdict: the rise of b to c against lim's cost limits; 1 when exceeded. */
static int rmd_judge_money(struct sb *sb, struct sb *why, const char *what, long long b, long long c,
			   const struct rd_limits *lim)
{
	double pct = b ? 100.0 * (double)(c - b) / (double)b : c > b ? HUGE_VAL : 0;
	double lp = lim->limit[RD_COST_PCT], la = lim->limit[RD_COST_ABS];
	int over_p = lp >= 0 && pct > lp + 1e-9, over_a = la >= 0 && (double)(c - b) > la * 100 + 1e-6;
	char m[40], t[40], l[40];

	if (lp >= 0) {
		snprintf(m, sizeof(m), isinf(pct) ? "+inf%%" : "%+.2f%%", pct);
		snprintf(l, sizeof(l), "%s%%", fmt_num_short(t, sizeof(t), lp, 4));
		sb_addf(sb, "  %-36s %14s %14s %10s\n", what, m, l, over_p ? "EXCEEDED" : "ok");
	}
	if (la >= 0) {
		snprintf(l, sizeof(l), "%s USD", fmt_num_short(t, sizeof(t), la, 2));
		sb_addf(sb, "  %-36s %14s %14s %10s\n", what, rmd_money(m, sizeof(m), c - b, 1), l,
			over_a ? "EXCEEDED" : "ok");
	}
	if (over_p || over_a) {
		char pc[40];
		snprintf(pc, sizeof(pc), isinf(pct) ? "+inf%%" : "%+.2f%%", pct);
		if (over_p)
			snprintf(l, sizeof(l), "%s%%", fmt_num_short(t, sizeof(t), lp, 4));
		else
			snprintf(l, sizeof(l), "%s USD", fmt_num_short(t, sizeof(t), la, 2));
		sb_addf(why, "%s%s %s USD (%s) is over %s %s", why->len ? "; " : "", what, rmd_money(m, sizeof(m), c - b, 1),
			pc, over_p ? "--max-cost-increase" : "--max-cost-increase-abs", l);
	}
	return over_p || over_a;
}

char *rmd_compare(const struct rmd_report *base, const struct rmd_report *cur, const struct rd_limits *lim,
		  char **why)
{
	struct sb sb, w;
	long ub = 0, uc = 0, worst;
	char x[40], y[40], z[40];
	size_t i;
	int failed = 0;

	sb_init(&sb);
	sb_init(&w);
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
	worst = rmd_periods(&sb, base, cur);
	rmd_costs(&sb, base, cur);
	rmd_buys(&sb, base, cur);
	sb_addf(&sb, "%-38s %14s %14s %10s\n", "thresholds", "measured", "limit", "result");
	failed |= rmd_judge_money(&sb, &w, "total cost", base->cost_cents, cur->cost_cents, lim);
	failed |= rmd_judge_money(&sb, &w, "purchases upfront", base->upfront_cents, cur->upfront_cents, lim);
	if (lim->limit[RD_UNPLACED] >= 0) {
		int over = (double)worst > lim->limit[RD_UNPLACED];
		snprintf(x, sizeof(x), "%ld", worst);
		snprintf(y, sizeof(y), "%.0f", lim->limit[RD_UNPLACED]);
		sb_addf(&sb, "  %-36s %14s %14s %10s\n", "unplaced increase (worst period)", x, y, over ? "EXCEEDED" : "ok");
		if (over)
			sb_addf(&w, "%sunplaced replicas +%ld in a period is over --max-unplaced-increase %s", w.len ? "; " : "",
				worst, y);
		failed |= over;
	}
	sb_addf(&sb, "result: %s%s\n", failed ? "FAILED: " : "ok", failed ? w.buf : "");
	*why = failed ? sb_detach(&w) : NULL;
	if (!failed)
		sb_release(&w);
	return sb_detach(&sb);
}
