/*
 * strategies.c - pricing the ways of buying the licences a simulation
 * counted (see simulate.h for the strategies), ranking them, and the
 * break-even of each pair of fixed and hourly strategies per licence.
 *
 * Per product: the cheapest chain of subscription terms covering n whole
 * years (price_product), then each strategy adds the product's share to
 * its total and a "how" part (the formula with its numbers); a product
 * that lacks a needed term makes the strategy unavailable, with why.
 * Products go in licence order, and within a product the strategies in
 * table order, so totals add up in a fixed order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim_common.h"
#include "strategies.h"
#include "banned.h"

#define HOURS_PER_MONTH 730.0

static const char *const strategy_names[] = { "subscription-peak", "subscription-yearly", "perpetual",
					      "cloud-hourly", "mix" };

const char *sim_strategy_name(enum sim_strategy s)
{
	return (unsigned)s < STRAT_COUNT ? strategy_names[s] : "?";
}

/* ================= prices per product ================= */

/* What a product's licence terms offer, as the strategies price them. */
struct prod_price {
	int has_sub;				/* cover[] is priced for every n */
	double cover[SIM_MAX_YEARS + 1];	/* cheapest subscription for n whole years */
	char *cover_id[SIM_MAX_YEARS + 1];	/* "subscription-3y", "subscription-5y+subscription-1y" */
	const struct lic_term *perp;		/* the first perpetual term, NULL: none */
	const struct lic_term *hourly;		/* the first hourly term, NULL: none */
	const struct lic_term *not_here;	/* an hourly term the fleet's hosting cannot buy, or NULL */
	double support;				/* per GPU-year beyond the perpetual's included years; < 0: none */
};

/*
 * Where the fleet's GPUs run (bits 1u << enum lic_hosting), and into
 * *onprem the first class that is not in a cloud (NULL: none).  A term
 * is used only when it can be bought for every hosting of the fleet: a
 * mixed fleet is priced as if on-prem (the hourly marketplace price is
 * sold only with cloud instances).
 */
static unsigned fleet_hosting(const struct scenario *sc, const char **onprem)
{
	unsigned h = 0;
	size_t k;

	*onprem = NULL;
	for (k = 0; k < sc->inventory.n; k++) {
		const struct node_class *nc = &sc->inventory.classes[k];
		h |= 1u << lic_hosting_of(nc->hv);
		if (nc->hv != HV_CLOUD && !*onprem)
			*onprem = nc->name;
	}
	return h;
}

static int usable(const struct lic_term *t, unsigned hosting)
{
	return (t->hosting & hosting) == hosting;
}

/* The terms of product p in sc: the cheapest subscription cover per whole years, perpetual, hourly. */
static void price_product(const struct scenario *sc, enum lic_product p, struct prod_price *pp)
{
	const struct lic_product_def *pd = &sc->licenses.product[p];
	const char *onprem;
	unsigned hosting = fleet_hosting(sc, &onprem);
	int pick[SIM_MAX_YEARS + 1], n;
	size_t t;

	memset(pp, 0, sizeof(*pp));
	pp->support = sc->licensing.support_usd_per_gpu_year;
	if (pd->present) {
		for (t = 0; t < pd->nterms; t++) {
			const struct lic_term *lt = &pd->terms[t];
			if (!usable(lt, hosting)) {
				if (lt->kind == TERM_HOURLY && !pp->not_here)
					pp->not_here = lt;
				continue;
			}
			if (lt->kind == TERM_PERPETUAL && !pp->perp)
				pp->perp = lt;
			if (lt->kind == TERM_HOURLY && !pp->hourly)
				pp->hourly = lt;
		}
	}
	if (sc->licensing.usd_per_gpu_year[p] >= 0) {
		pp->has_sub = 1;
		for (n = 0; n <= SIM_MAX_YEARS; n++) {
			pp->cover[n] = sc->licensing.usd_per_gpu_year[p] * n;
			pp->cover_id[n] = xstrdup("scenario-price");
		}
		return;
	}
	if (!pd->present)
		return;
	/* cheapest sequence of terms covering n years; ties: fewer purchases */
	pp->cover[0] = 0;
	pp->cover_id[0] = xstrdup("none");
	for (n = 1; n <= SIM_MAX_YEARS; n++) {
		pp->cover[n] = HUGE_VAL;
		pick[n] = -1;
		for (t = 0; t < pd->nterms; t++) {
			const struct lic_term *lt = &pd->terms[t];
			int from = n - lt->years < 0 ? 0 : n - lt->years;
			double c;
			if (lt->kind != TERM_SUBSCRIPTION || pp->cover[from] == HUGE_VAL || !usable(lt, hosting))
				continue;
			c = pp->cover[from] + lt->usd_per_gpu;
			if (c < pp->cover[n] - SIM_EPS ||
			    (fabs(c - pp->cover[n]) <= SIM_EPS && pick[n] >= 0 && lt->years > pd->terms[pick[n]].years)) {
				pp->cover[n] = c;
				pick[n] = (int)t;
			}
		}
		if (pick[n] < 0)
			return;
		{
			const struct lic_term *lt = &pd->terms[pick[n]];
			int from = n - lt->years < 0 ? 0 : n - lt->years;
			pp->cover_id[n] = from ? xasprintf("%s+%s", lt->id, pp->cover_id[from]) : xstrdup(lt->id);
		}
	}
	pp->has_sub = 1;
}

static void prod_price_release(struct prod_price *pp)
{
	int n;
	for (n = 0; n <= SIM_MAX_YEARS; n++)
		free(pp->cover_id[n]);
}

/* ================= strategies ================= */

/* Marks s unavailable with why (the first reason wins; later ones are freed). */
static void unavailable(struct sim_strategy_result *s, char *why)
{
	if (s->available < 0) {
		free(why);
		return;
	}
	s->available = -1; /* fixed up to 0 at the end */
	free(s->how);
	s->how = why;
}

/* Appends part to s's formula, " + " between parts; dropped once s is unavailable. */
static void add_how(struct sim_strategy_result *s, char *part)
{
	if (s->available < 0) {
		free(part);
		return;
	}
	if (!s->how) {
		s->how = part;
		return;
	}
	{
		char *j = xasprintf("%s + %s", s->how, part);
		free(s->how);
		free(part);
		s->how = j;
	}
}


/* ================= mix: the base of one year ================= */

/* One year of one product, as best_base reads it. */
struct mix_year {
	const long *u;		/* licences counted per step */
	size_t from, to;	/* the year's steps */
	long peak;		/* the year's peak of u */
	double sub1;		/* a one-year subscription */
	double rate;		/* the hourly price */
};

/* The cheapest base B for one year of one product (1-year subscription + hourly burst). */
static long best_base(const struct mix_year *my, double *cost, double *burst_hours)
{
	const long *u = my->u;
	size_t from = my->from, to = my->to;
	long peak = my->peak;
	double sub1 = my->sub1, rate = my->rate;
	double *hist = xcalloc((size_t)peak + 2, sizeof(*hist));
	double above = 0, burst = 0, best = HUGE_VAL, best_burst = 0;
	long b, bb = 0;
	size_t t;

	for (t = from; t < to; t++) {
		hist[u[t]] += 1;
		burst += (double)u[t];
	}
	above = (double)(to - from) - hist[0]; /* steps with u > 0 */
	for (b = 0; b <= peak; b++) {
		double c = (double)b * sub1 + burst * rate;
		if (c < best - SIM_EPS) {
			best = c;
			bb = b;
			best_burst = burst;
		}
		/* from b to b + 1: every step above b loses one hour of burst */
		burst -= above;
		above -= hist[b + 1];
	}
	free(hist);
	*cost = best;
	*burst_hours = best_burst;
	return bb;
}

/* ================= each strategy's share of a product ================= */

/* Subscription sized to the peak covering every year, and each year's peak on one-year terms. */
static void strat_subscription(struct sim_result *r, int q, const struct prod_price *P)
{
	const char *pid = lic_product_id((enum lic_product)q);
	struct sb sb;
	int y;

	if (!P->has_sub || P->cover[r->nyears] == HUGE_VAL) {
		unavailable(&r->strat[STRAT_SUB_PEAK], xasprintf("%s has no subscription term", pid));
		unavailable(&r->strat[STRAT_SUB_YEARLY], xasprintf("%s has no subscription term", pid));
		unavailable(&r->strat[STRAT_MIX], xasprintf("%s has no subscription term", pid));
		return;
	}
	r->strat[STRAT_SUB_PEAK].total += (double)r->peak_units[q] * P->cover[r->nyears];
	add_how(&r->strat[STRAT_SUB_PEAK], xasprintf("%s peak %ld x %s (%s)", pid, r->peak_units[q],
						     SIM_MONEY(P->cover[r->nyears]), P->cover_id[r->nyears]));
	sb_init(&sb);
	sb_addf(&sb, "%s (", pid);
	for (y = 0; y < r->nyears; y++) {
		r->strat[STRAT_SUB_YEARLY].total += (double)r->years[y].peak[q] * P->cover[1];
		sb_addf(&sb, "%s%ld", y ? "+" : "", r->years[y].peak[q]);
	}
	sb_addf(&sb, ") x %s (%s; yearly peaks)", SIM_MONEY(P->cover[1]), P->cover_id[1]);
	add_how(&r->strat[STRAT_SUB_YEARLY], sb_detach(&sb));
}

/*
 * What one perpetual licence counts for when it is used n whole years of
 * the simulation: judged over its whole term (the years of support it
 * includes, T), so the share n / T of its price while n <= T, the rest
 * being value left after the simulation; past T, all of it plus support
 * for the years beyond (support must be priced: the caller checks).
 * Without this a one-year simulation set a 5-year perpetual licence's
 * full price against one year of subscription.
 */
static double perpetual_cost(const struct prod_price *P, int n)
{
	int T = P->perp->years;

	if (T <= 0 || n >= T)
		return P->perp->usd_per_gpu + (T > 0 && n > T ? (double)(n - T) * (P->support > 0 ? P->support : 0) : 0);
	return P->perp->usd_per_gpu * (double)n / (double)T;
}

/* Perpetual licences, bought as the yearly peak grows, judged over their term (perpetual_cost). */
static void strat_perpetual(struct sim_result *r, int q, const struct prod_price *P)
{
	const char *pid = lic_product_id((enum lic_product)q);
	long owned = 0, bought = 0, support_years = 0;
	double total = 0;
	struct sb sb;
	char *part;
	int y;

	if (!P->perp) {
		unavailable(&r->strat[STRAT_PERPETUAL], xasprintf("%s has no perpetual term", pid));
		return;
	}
	sb_init(&sb);
	for (y = 0; y < r->nyears; y++) {
		long need = r->years[y].peak[q] > owned ? r->years[y].peak[q] - owned : 0;
		int left = r->nyears - y - P->perp->years;
		if (need)
			sb_addf(&sb, "%s%ld in year %d", sb.len ? ", " : "", need, y + 1);
		owned += need;
		bought += need;
		if (left > 0)
			support_years += need * left;
		total += (double)need * perpetual_cost(P, r->nyears - y);
	}
	if (support_years > 0 && P->support < 0) {
		sb_release(&sb);
		unavailable(&r->strat[STRAT_PERPETUAL],
			    xasprintf("%s perpetual licences include %d years of support, the trace needs "
				      "more: set licensing.support_usd_per_gpu_year", pid, P->perp->years));
		return;
	}
	r->strat[STRAT_PERPETUAL].total += total;
	part = xasprintf("%s %ld x %s (%s; %s)", pid, bought, SIM_MONEY(P->perp->usd_per_gpu), P->perp->id, sb.buf);
	if (r->nyears < P->perp->years) {
		char *p2 = xasprintf("%s, the share of its %d-year term used: %s", part, P->perp->years, SIM_MONEY(total));
		free(part);
		part = p2;
	}
	if (support_years > 0) {
		char *p2 = xasprintf("%s + %ld support GPU-years x %s", part, support_years, SIM_MONEY(P->support));
		free(part);
		part = p2;
	}
	add_how(&r->strat[STRAT_PERPETUAL], part);
	sb_release(&sb);
}

/* Every licence-hour at the hourly price. */
static void strat_hourly(struct sim_result *r, int q, const struct prod_price *P)
{
	const char *pid = lic_product_id((enum lic_product)q);

	if (!P->hourly) {
		const char *onprem;
		fleet_hosting(r->sc, &onprem);
		if (P->not_here)
			unavailable(&r->strat[STRAT_CLOUD],
				    xasprintf("%s %s is sold only with a cloud instance; class '%s' is on-prem", pid,
					      P->not_here->id, onprem ? onprem : "?"));
		else
			unavailable(&r->strat[STRAT_CLOUD], xasprintf("%s has no hourly term", pid));
		return;
	}
	r->strat[STRAT_CLOUD].total += r->unit_hours[q] * P->hourly->usd_per_gpu_hour;
	add_how(&r->strat[STRAT_CLOUD], xasprintf("%s %.0f licence-hours x %s (%s)", pid, r->unit_hours[q],
						  SIM_MONEY(P->hourly->usd_per_gpu_hour), P->hourly->id));
}

/*
 * Mix without an hourly term (on-prem): a base B on the subscription
 * terms covering every year, plus each year's peak above B on one-year
 * terms, B chosen to minimise the sum (ties: the smaller B).
 */
static void strat_mix_terms(struct sim_result *r, int q, const struct prod_price *P)
{
	const char *pid = lic_product_id((enum lic_product)q);
	double best = HUGE_VAL;
	long b, bb = 0;
	struct sb sb;
	int y;

	for (b = 0; b <= r->peak_units[q]; b++) {
		double c = (double)b * P->cover[r->nyears];
		for (y = 0; y < r->nyears; y++)
			if (r->years[y].peak[q] > b)
				c += (double)(r->years[y].peak[q] - b) * P->cover[1];
		if (c < best - SIM_EPS) {
			best = c;
			bb = b;
		}
	}
	sb_init(&sb);
	for (y = 0; y < r->nyears; y++) {
		r->years[y].base[q] = bb;
		sb_addf(&sb, "%s%ld", y ? "+" : "", r->years[y].peak[q] > bb ? r->years[y].peak[q] - bb : 0);
	}
	r->strat[STRAT_MIX].total += best;
	add_how(&r->strat[STRAT_MIX], xasprintf("%s base %ld x %s (%s) + top-ups (%s) x %s (%s; yearly peaks above the base)",
						pid, bb, SIM_MONEY(P->cover[r->nyears]), P->cover_id[r->nyears], sb.buf,
						SIM_MONEY(P->cover[1]), P->cover_id[1]));
	sb_release(&sb);
}

/*
 * Mix: per year, a subscribed base and the hourly burst above it where an
 * hourly term can be bought (clouds); else strat_mix_terms.
 */
static void strat_mix(struct sim_result *r, int q, const struct prod_price *P)
{
	const char *pid = lic_product_id((enum lic_product)q);
	struct sb sb;
	int y;

	if (!(P->has_sub && P->cover[1] != HUGE_VAL))
		return;
	if (!P->hourly) {
		strat_mix_terms(r, q, P);
		return;
	}
	sb_init(&sb);
	for (y = 0; y < r->nyears; y++) {
		struct mix_year my;
		double cost, bh;
		long b;
		my.u = r->units[q];
		my.from = (size_t)y * 8760;
		my.to = my.from + (size_t)r->years[y].hours;
		my.peak = r->years[y].peak[q];
		my.sub1 = P->cover[1];
		my.rate = P->hourly->usd_per_gpu_hour;
		b = best_base(&my, &cost, &bh);
		r->years[y].base[q] = b;
		r->strat[STRAT_MIX].total += cost;
		sb_addf(&sb, "%syear %d: base %ld x %s + %.0f burst licence-hours x %s", y ? "; " : "", y + 1, b,
			SIM_MONEY(P->cover[1]), bh, SIM_MONEY(P->hourly->usd_per_gpu_hour));
	}
	add_how(&r->strat[STRAT_MIX], xasprintf("%s (%s)", pid, sb.buf));
	sb_release(&sb);
}

/* Ranks the available strategies: by total, then in table order. */
static void rank_strategies(struct sim_result *r)
{
	int s;

	r->cheapest = r->runner_up = -1;
	for (s = 0; s < STRAT_COUNT; s++) {
		r->strat[s].available = r->strat[s].available == 0;
		if (r->strat[s].available && !r->strat[s].how)
			r->strat[s].how = xstrdup("no licence is needed at any step");
	}
	for (s = 0; s < STRAT_COUNT; s++) {
		struct sim_strategy_result *x = &r->strat[s];
		int t;
		if (!x->available)
			continue;
		x->rank = 1;
		for (t = 0; t < STRAT_COUNT; t++) {
			const struct sim_strategy_result *o = &r->strat[t];
			if (t == s || !o->available)
				continue;
			if (o->total < x->total - 0.005 || (fabs(o->total - x->total) <= 0.005 && t < s))
				x->rank++;
		}
		if (x->rank == 1)
			r->cheapest = s;
		if (x->rank == 2)
			r->runner_up = s;
	}
}

/* ================= break-even ================= */

/*
 * What one licence costs under a fixed strategy (subscription or
 * perpetual, judged over its term as perpetual_cost) over n years, into *c; -1 when a perpetual licence would
 * need support past its included years and none is priced.
 */
static int fixed_cost(const struct prod_price *P, enum sim_strategy x, int n, double *c)
{
	switch (x) {
	case STRAT_SUB_PEAK:
		*c = P->cover[n];
		return 0;
	case STRAT_SUB_YEARLY:
		*c = P->cover[1] * n;
		return 0;
	default:
		if (n > P->perp->years && P->support < 0)
			return -1;
		*c = perpetual_cost(P, n);
		return 0;
	}
}

/* Whether the product has the terms both strategies of the pair need. */
static int pair_priced(const struct prod_price *P, const enum sim_strategy pair[2])
{
	int side, ok = 1;

	for (side = 0; side < 2; side++) {
		enum sim_strategy x = pair[side];
		if ((x == STRAT_SUB_PEAK || x == STRAT_SUB_YEARLY) && !P->has_sub)
			ok = 0;
		if (x == STRAT_PERPETUAL && !P->perp)
			ok = 0;
		if (x == STRAT_CLOUD && !P->hourly)
			ok = 0;
	}
	return ok;
}

/* The cheaper side at month 1 and the first month the order changes, at utilisation u. */
static void breakeven_months(struct sim_breakeven *be, const struct prod_price *P, double u)
{
	const enum sim_strategy pair[2] = { be->a, be->b };
	int m, side;

	for (m = 1; m <= SIM_BREAKEVEN_MONTHS; m++) {
		int n = (m + 11) / 12, rel;
		double c[2];
		for (side = 0; side < 2; side++) {
			if (pair[side] == STRAT_CLOUD)
				c[side] = P->hourly->usd_per_gpu_hour * HOURS_PER_MONTH * u * m;
			else if (fixed_cost(P, pair[side], n, &c[side]))
				c[side] = HUGE_VAL;
		}
		if (c[0] == HUGE_VAL || c[1] == HUGE_VAL)
			break;
		rel = c[0] < c[1] - 0.005 ? -1 : c[0] > c[1] + 0.005 ? 1 : 0;
		if (m == 1) {
			be->first = rel;
		} else if (rel != be->first) {
			be->month = m;
			be->after = rel;
			break;
		}
	}
}

/* The break-even of each pair of the fixed and hourly strategies for one licence of product q. */
static void breakeven_product(struct sim_result *r, int q, const struct prod_price *P)
{
	static const enum sim_strategy pairs[][2] = {
		{ STRAT_SUB_PEAK, STRAT_SUB_YEARLY }, { STRAT_SUB_PEAK, STRAT_PERPETUAL },
		{ STRAT_SUB_PEAK, STRAT_CLOUD },      { STRAT_SUB_YEARLY, STRAT_PERPETUAL },
		{ STRAT_SUB_YEARLY, STRAT_CLOUD },    { STRAT_PERPETUAL, STRAT_CLOUD },
	};
	double u;
	size_t i;

	if (r->peak_units[q] == 0)
		return;
	u = r->unit_hours[q] / ((double)r->peak_units[q] * (double)r->nsteps);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		struct sim_breakeven be;
		double fixed_h = -1, c;
		memset(&be, 0, sizeof(be));
		be.product = (enum lic_product)q;
		be.a = pairs[i][0];
		be.b = pairs[i][1];
		be.util = -1;
		be.trace_util = u;
		if (!pair_priced(P, pairs[i]))
			continue;
		breakeven_months(&be, P, u);
		if (be.b == STRAT_CLOUD) {
			if (!fixed_cost(P, be.a, r->nyears, &c))
				fixed_h = c;
			if (fixed_h >= 0 && P->hourly->usd_per_gpu_hour > 0)
				be.util = fixed_h / (P->hourly->usd_per_gpu_hour * HOURS_PER_YEAR * r->nyears);
		}
		r->be = xrealloc(r->be, (r->nbe + 1) * sizeof(*r->be));
		r->be[r->nbe++] = be;
	}
}

void sim_price_strategies(struct sim_result *r)
{
	struct prod_price pp[LIC_COUNT];
	int q;

	for (q = 1; q < LIC_COUNT; q++)
		price_product(r->sc, (enum lic_product)q, &pp[q]);
	for (q = 1; q < LIC_COUNT; q++) {
		if (r->peak_units[q] == 0)
			continue;
		strat_subscription(r, q, &pp[q]);
		strat_perpetual(r, q, &pp[q]);
		strat_hourly(r, q, &pp[q]);
		strat_mix(r, q, &pp[q]);
	}
	rank_strategies(r);
	for (q = 1; q < LIC_COUNT; q++)
		breakeven_product(r, q, &pp[q]);
	for (q = 1; q < LIC_COUNT; q++)
		prod_price_release(&pp[q]);
}
