/*
 * roadmap_licence.c - the licence terms the roadmap holds (roadmap_parts.h).
 *
 * A licence counts GPUs, not one GPU ([NVAIE-TERM]), so a term bought in
 * a period covers that many GPUs of the fleet for its years wherever they
 * run (the move between GPUs is assumed allowed, and listed).  Per
 * product, the GPUs that need a paid licence each period (the period
 * plans' count, and those of a bundle whose years have run out) are covered
 * by the cheapest set of terms, a minimum-cost cover (roadmap_cover.h):
 * subscriptions of N years and perpetual licences (their included
 * support years, and with licensing.support_usd_per_gpu_year longer, in
 * 3- or 5-year increments of support) as commitments paid at their
 * start, the hourly marketplace period by period for GPUs on cloud nodes
 * only.  roadmap.licence_terms narrows the terms, roadmap.licence_quotes
 * prices them; a scenario's flat licensing.*_usd_per_gpu_year is used as
 * given (no term is chosen for that product).
 *
 * licensing.cloud_term says where a cloud node's licence comes from, as
 * plan prices it (pricing.c): under auto (plan: the cheaper of the
 * marketplace and a subscription) one cover takes every GPU, so a term may
 * move between the fleet and the cloud; under cloud-hourly, subscription
 * or perpetual the cloud GPUs are covered apart, by the marketplace alone
 * or by terms of that kind alone (brought to the instances), and the
 * fleet's by the other terms, so a one-period roadmap prices a cloud
 * node's licence as plan does.  Under auto with licensing.term: perpetual
 * (no subscription for the fleet) they are covered apart too, by the
 * marketplace or subscriptions, as plan's auto prices them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "roadmap_cover.h"
#include "roadmap_parts.h"
#include "util.h"
#include "banned.h"

double roadmap_licence_price(const struct scenario *sc, int p, const struct lic_term *term)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	size_t i;

	for (i = 0; R->present && i < R->nquotes; i++)
		if (!strcmp(R->quotes[i].product, lic_product_id((enum lic_product)p)) && !strcmp(R->quotes[i].term, term->id))
			return R->quotes[i].usd_per_gpu;
	return term->usd_per_gpu;
}

/* The term kind licensing.cloud_term names, or -1 under auto. */
static int cloud_kind(const struct scenario *sc)
{
	const char *k = sc->licensing.cloud_term;
	return !strcmp(k, "cloud-hourly") ? TERM_HOURLY : !strcmp(k, "subscription") ? TERM_SUBSCRIPTION
	       : !strcmp(k, "perpetual")  ? TERM_PERPETUAL : -1;
}

/*
 * The cheapest yearly rate of product p's terms whose kind passes keep
 * (kind: a term kind, -1 every kind, -2 every kind but hourly); < 0: none.
 */
static double kind_floor(const struct scenario *sc, int p, int kind)
{
	const struct lic_product_def *pd = &sc->licenses.product[p];
	double best = -1, rate;
	size_t i;
	int perpetual = 0;

	for (i = 0; pd->present && i < pd->nterms; i++) {
		const struct lic_term *tm = &pd->terms[i];
		if (kind >= 0 ? (int)tm->kind != kind : kind == -2 && tm->kind == TERM_HOURLY)
			continue;
		rate = tm->kind == TERM_HOURLY ? tm->usd_per_gpu_hour * HOURS_PER_YEAR
		       : tm->years > 0	      ? roadmap_licence_price(sc, p, tm) / tm->years
					      : -1;
		perpetual |= tm->kind == TERM_PERPETUAL;
		if (rate >= 0 && (best < 0 || rate < best))
			best = rate;
	}
	rate = sc->licensing.support_usd_per_gpu_year; /* a perpetual licence held long costs its support a year */
	if ((perpetual || kind == -1) && best >= 0 && rate >= 0 && rate < best)
		best = rate;
	return best;
}

/*
 * Under auto, the cheapest rate of any term.  Under another cloud_term
 * the cloud's GPUs pay only its kind and the fleet's no hourly term, so
 * the floor is the cheaper of the two over the kinds of node the
 * inventory has (the cheaper of both when it has both).
 */
double roadmap_licence_floor(const struct scenario *sc, int p)
{
	const struct inventory *inv = &sc->inventory;
	double best = -1, f;
	int has[2] = { 0, 0 };
	size_t k;

	if (cloud_kind(sc) < 0)
		return kind_floor(sc, p, -1);
	for (k = 0; k < inv->n; k++)
		has[inv->classes[k].hv == HV_CLOUD] = 1;
	if (has[1] && (f = kind_floor(sc, p, cloud_kind(sc))) >= 0)
		best = f;
	if (has[0] && (f = kind_floor(sc, p, -2)) >= 0 && (best < 0 || f < best))
		best = f;
	return best >= 0 ? best : kind_floor(sc, p, -1);
}

/*
 * Whether the cloud's GPUs are covered apart from the fleet's: under a
 * cloud_term other than auto, and under auto when licensing.term:
 * perpetual leaves the fleet no subscription (without licence_terms) -
 * plan's auto is the cheaper of the marketplace and a subscription on
 * cloud nodes whatever the fleet's term, and a perpetual licence is the
 * fleet's, not a cloud instance's.
 */
static int cloud_apart(const struct scenario *sc)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	return cloud_kind(sc) >= 0 || (!strcmp(sc->licensing.term, "perpetual") && !(R->present && R->nterms));
}

/* Whose GPUs a cover takes: all (cloud_term auto), or the fleet's and the cloud's apart. */
enum lic_pool { POOL_ALL, POOL_ONPREM, POOL_CLOUD };

/*
 * Whether the roadmap may hold term for pool's GPUs: roadmap.licence_terms
 * names it; without the field every term, but no subscription under
 * licensing.term: perpetual (the scenario buys its licences outright, as
 * plan prices them).  The cloud's, covered apart, only of cloud_term's
 * kind (under auto the marketplace and the subscriptions); the fleet's
 * then no hourly one.
 */
static int term_allowed(const struct scenario *sc, const struct lic_term *term, enum lic_pool pool)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	size_t i;

	if (pool == POOL_CLOUD &&
	    (cloud_kind(sc) >= 0 ? (int)term->kind != cloud_kind(sc) : term->kind == TERM_PERPETUAL))
		return 0;
	if (pool == POOL_ONPREM && term->kind == TERM_HOURLY)
		return 0;
	if (!R->present || !R->nterms)
		return pool == POOL_CLOUD || term->kind != TERM_SUBSCRIPTION || strcmp(sc->licensing.term, "perpetual");
	for (i = 0; i < R->nterms; i++)
		if (!strcmp(R->terms[i].id, term->id))
			return 1;
	return 0;
}

/* The terms of one product as cover options: each term and support extension, started in any period. */
struct lic_opts {
	const struct roadmap_result *r;
	int p;
	enum lic_pool pool;
	size_t n;
	struct cover_opt *opt;
	const struct lic_term **term;
	int *support;			/* years of support bought beyond the included ones */
	const struct lic_term *hourly;	/* the marketplace term, or NULL */
};

/* Term tm with support years of support beyond its own, priced whole, from every start. */
static void add_term(struct lic_opts *o, const struct lic_term *tm, int support)
{
	const struct scenario *sc = o->r->sc;
	size_t T = o->r->nperiods, s, len = (size_t)(tm->years + support) * (size_t)o->r->ppy;
	double whole = roadmap_licence_price(sc, o->p, tm) + support * sc->licensing.support_usd_per_gpu_year;
	int tail = sc->roadmap.present && sc->roadmap.tail_charged;

	o->opt = xrealloc(o->opt, (o->n + T) * sizeof(*o->opt));
	o->term = xrealloc(o->term, (o->n + T) * sizeof(*o->term));
	o->support = xrealloc(o->support, (o->n + T) * sizeof(*o->support));
	for (s = 0; s < T; s++, o->n++) {
		size_t in = len < T - s ? len : T - s;
		o->opt[o->n] = (struct cover_opt){ s, len, tail ? whole : whole * (double)in / (double)len };
		o->term[o->n] = tm;
		o->support[o->n] = support;
	}
}

/* Support beyond a perpetual's included years comes in 3- and 5-year increments ([NVAIE-TERM]). */
static int support_sum(int m)
{
	int a;
	for (a = 0; 3 * a <= m; a++)
		if ((m - 3 * a) % 5 == 0)
			return 1;
	return 0;
}

static void lic_options(struct lic_opts *o)
{
	const struct lic_product_def *pd = &o->r->sc->licenses.product[o->p];
	int horizon_years = (int)ceil((double)o->r->nperiods / o->r->ppy), m;
	size_t i;

	for (i = 0; i < pd->nterms; i++) {
		const struct lic_term *tm = &pd->terms[i];
		if (!term_allowed(o->r->sc, tm, o->pool))
			continue;
		if (tm->kind == TERM_HOURLY) {
			o->hourly = tm;
			continue;
		}
		if (tm->years <= 0)
			continue;
		add_term(o, tm, 0);
		for (m = 3; tm->kind == TERM_PERPETUAL && o->r->sc->licensing.support_usd_per_gpu_year >= 0 &&
			    tm->years + m - 3 < horizon_years;
		     m++)
			if (support_sum(m))
				add_term(o, tm, m);
	}
}

/* The licence of option j, units x. */
static struct roadmap_commit licence(const struct lic_opts *o, size_t j, long x)
{
	const struct lic_term *tm = o->term[j];
	struct roadmap_commit cm;
	const char *prod = lic_product_id((enum lic_product)o->p);

	memset(&cm, 0, sizeof(cm));
	cm.kind = RCOMMIT_LICENCE;
	cm.product = o->p;
	cm.term = tm;
	cm.item = o->support[j] ? xasprintf("%s %s + %dy support%s", prod, tm->id, o->support[j],
					    o->pool == POOL_CLOUD ? " (cloud nodes)" : "")
				: xasprintf("%s %s%s", prod, tm->id, o->pool == POOL_CLOUD ? " (cloud nodes)" : "");
	cm.units = x;
	cm.start = o->r->fc->start + (long)o->opt[j].start;
	cm.end = cm.start + (long)o->opt[j].len - 1;
	cm.upfront_usd = roadmap_licence_price(o->r->sc, o->p, tm) +
			 o->support[j] * o->r->sc->licensing.support_usd_per_gpu_year;
	cm.total_usd = (double)x * cm.upfront_usd;
	return cm;
}

/* The units of o's product in period t that o's pool covers. */
static long pool_need(const struct lic_opts *o, const struct rm_usage *u, size_t t)
{
	long onprem = rm_usage_lic(u, t, LIC_HOST_ONPREM, o->p) + rm_usage_bundle_expired(u, o->r->sc, t, o->p, o->r->ppy);
	long cloud = rm_usage_lic(u, t, LIC_HOST_CLOUD, o->p);
	return o->pool == POOL_ONPREM ? onprem : o->pool == POOL_CLOUD ? cloud : onprem + cloud;
}

/* Covers product p's need in o's pool and charges it (into the category the caller cleared). */
static int product_charge(struct lic_opts *o, struct roadmap_result *r, const struct rm_usage *u)
{
	size_t T = r->nperiods, t, j;
	int cat = cost_cat_of_product((enum lic_product)o->p), rc;
	long *need = xcalloc(T + 1, sizeof(long)), *cap = xcalloc(T + 1, sizeof(long));
	long *x = xcalloc(o->n + 1, sizeof(long)), *y = xcalloc(T + 1, sizeof(long));
	double *cost = xcalloc(T + 1, sizeof(double)), hours = HOURS_PER_YEAR / r->ppy;
	struct cover_tier tier = { cap, cost };

	for (t = 0; t < T; t++) {
		need[t] = pool_need(o, u, t);
		cap[t] = o->hourly && o->pool != POOL_ONPREM ? rm_usage_lic(u, t, LIC_HOST_CLOUD, o->p) : 0;
		cost[t] = o->hourly ? o->hourly->usd_per_gpu_hour * hours : 0;
	}
	rc = cover_solve(&(struct cover){ T, need, o->n, o->opt, 1, &tier }, x, y);
	for (t = 0; rc == 0 && t < T; t++) {
		r->per[t].cat[cat] += (double)y[t] * cost[t];
		r->per[t].licences_held += y[t];
	}
	for (j = 0; rc == 0 && j < o->n; j++) {
		struct roadmap_commit cm;
		if (!x[j])
			continue;
		cm = licence(o, j, x[j]);
		cm.charged_usd = rm_commit_charge(r, &cm, cat, o->opt[j].len);
		for (t = o->opt[j].start; t < T && t < o->opt[j].start + o->opt[j].len; t++)
			r->per[t].licences_held += x[j];
		rm_commit_add(r, &cm);
	}
	free(need);
	free(cap);
	free(x);
	free(y);
	free(cost);
	return rc;
}

static int commit_cmp(const void *a, const void *b)
{
	const struct roadmap_commit *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->kind == RCOMMIT_RESERVE && x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->product != y->product)
		return x->product < y->product ? -1 : 1;
	return strcmp(x->item, y->item);
}

/* Covers product p in pool; 0, or -1 with d set when the terms allowed cannot cover it. */
static int pool_charge(struct roadmap_result *r, const struct rm_usage *u, int p, enum lic_pool pool, struct diag *d)
{
	const struct scenario *sc = r->sc;
	struct lic_opts o;
	long any = 0;
	size_t t;
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.r = r;
	o.p = p;
	o.pool = pool;
	for (t = 0; t < r->nperiods; t++)
		any += pool_need(&o, u, t);
	if (!any)
		return 0;
	lic_options(&o);
	if (product_charge(&o, r, u)) {
		if (pool == POOL_CLOUD)
			rc = diag_set(d, DIAG_INPUT, sc->file, sc->licensing.line, 0,
				      "roadmap: licensing.cloud_term %s leaves %s no term that covers its GPUs on cloud nodes "
				      "(the licence table%s has none of that kind)", sc->licensing.cloud_term,
				      lic_product_id((enum lic_product)p), sc->roadmap.present && sc->roadmap.nterms
				      ? ", narrowed by roadmap.licence_terms," : "");
		else
			rc = diag_set(d, DIAG_INPUT, sc->file, sc->roadmap.line, 0,
				      "roadmap: licence_terms leave %s no term that covers its GPUs (an hourly term serves "
				      "cloud nodes only)", lic_product_id((enum lic_product)p));
	}
	free(o.opt);
	free(o.term);
	free(o.support);
	return rc;
}

/* The assumption covering the cloud's GPUs apart adds. */
static void cloud_assumption(struct roadmap_result *r)
{
	r->assumptions = xrealloc(r->assumptions, (r->nassumptions + 1) * sizeof(*r->assumptions));
	r->assumptions[r->nassumptions++] =
		xasprintf("roadmap: licensing.cloud_term %s: the GPUs on cloud nodes are licensed %s, apart from the "
			  "fleet's terms, as plan prices them", r->sc->licensing.cloud_term,
			  cloud_kind(r->sc) == TERM_HOURLY ? "at the marketplace's hourly price"
			  : cloud_kind(r->sc) < 0 ? "at the marketplace's hourly price or by subscriptions brought to the "
						    "instances (licensing.term perpetual is the fleet's)"
						  : "by terms of that kind brought to the instances");
}

int roadmap_licence_choose(struct roadmap_result *r, const struct rm_usage *u, struct diag *d)
{
	const struct scenario *sc = r->sc;
	int split = cloud_apart(sc), cloud = 0, p, rc = 0;
	size_t t;

	for (p = 1; p < LIC_COUNT && !rc; p++) {
		int cat = cost_cat_of_product((enum lic_product)p);
		if (!sc->licenses.product[p].present || sc->licensing.usd_per_gpu_year[p] >= 0)
			continue;
		for (t = 0; t < r->nperiods; t++) {
			r->per[t].cat[cat] = 0; /* the period plans' flat rate, replaced by the cover */
			cloud |= split && rm_usage_lic(u, t, LIC_HOST_CLOUD, p) > 0;
		}
		rc = split ? pool_charge(r, u, p, POOL_ONPREM, d) || pool_charge(r, u, p, POOL_CLOUD, d)
			   : pool_charge(r, u, p, POOL_ALL, d);
	}
	if (rc == 0 && cloud)
		cloud_assumption(r);
	if (r->ncommits)
		qsort(r->commits, r->ncommits, sizeof(*r->commits), commit_cmp);
	return rc ? -1 : 0;
}
