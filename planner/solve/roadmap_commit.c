/*
 * roadmap_commit.c - the roadmap's usage record and its cloud
 * commitments (roadmap_parts.h).
 *
 * A reservation of a committed offer (reserved or savings plan, 1 or 3
 * years in models/clouds.yaml or the scenario's offer files) covers one
 * node of the same instance type in the same cloud and region for every
 * period of its term, used or not; a capacity block (paid upfront for
 * its days) likewise for the whole periods its days span, if any; the nodes in use beyond what the
 * reservations cover are paid at their rows' own rates (on-demand, or
 * spot where the period's plan rented spot).  Which reservations, started
 * when, is a minimum-cost cover (roadmap_cover.h) over the periods, so
 * commitments are staggered where that is cheaper.  The period plans are
 * not revisited: a purchase they made stays made, though a reservation
 * might have made renting cheaper (docs/formulation.md, Roadmap).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "roadmap_cover.h"
#include "roadmap_parts.h"
#include "util.h"
#include "banned.h"

/* ================= usage ================= */

void rm_usage_init(struct rm_usage *u, size_t T, size_t nk)
{
	u->T = T;
	u->nk = nk;
	u->rent_nodes = xcalloc(T * nk + 1, sizeof(long));
	u->lic = xcalloc(T * LIC_HOST_COUNT * LIC_COUNT + 1, sizeof(long));
	u->bundled = xcalloc(T * nk * LIC_COUNT + 1, sizeof(long));
	u->bundle_years = xcalloc(nk * LIC_COUNT + 1, sizeof(int));
}

void rm_usage_release(struct rm_usage *u)
{
	free(u->rent_nodes);
	free(u->lic);
	free(u->bundled);
	free(u->bundle_years);
	memset(u, 0, sizeof(*u));
}

static long *lic_at(const struct rm_usage *u, size_t t, int h, int p)
{
	return &u->lic[(t * LIC_HOST_COUNT + (size_t)h) * LIC_COUNT + (size_t)p];
}

long rm_usage_lic(const struct rm_usage *u, size_t t, int h, int p)
{
	return *lic_at(u, t, h, p);
}

void rm_usage_record(struct rm_usage *u, size_t t, const size_t *cls_src, const struct plan_result *pr)
{
	size_t i;
	int p;

	for (i = 0; i < pr->final->nnodes; i++) {
		const struct pclass *pc = &pr->p.classes[pr->final->nodes[i].k];
		const struct class_price *price = pr->pr.cls[pc->index];
		struct node_bill b;
		if (pc->nc->own == OWN_RENT)
			u->rent_nodes[t * u->nk + cls_src[pc->index]]++;
		cplan_node_bill(pr->final, i, &b);
		for (p = 1; p < LIC_COUNT; p++) {
			size_t k = cls_src[pc->index];
			if (price->lic[p].total > 0) {
				*lic_at(u, t, lic_hosting_of(pc->nc->hv), p) += b.lic_gpus[p] + b.seats[p];
			} else if (price->lic[p].bundled_years > 0) { /* the bundle covers one period: for now */
				u->bundled[(t * u->nk + k) * LIC_COUNT + (size_t)p] += b.lic_gpus[p] + b.seats[p];
				u->bundle_years[k * LIC_COUNT + (size_t)p] = price->lic[p].bundled_years;
			}
		}
	}
}

long rm_usage_bundle_expired(const struct rm_usage *u, const struct scenario *sc, size_t t, int p, int ppy)
{
	long expired = 0;
	size_t k, a;

	for (k = 0; k < u->nk; k++) {
		const struct node_class *nc = &sc->inventory.classes[k];
		long used = u->bundled[(t * u->nk + k) * LIC_COUNT + (size_t)p], covered = 0;
		size_t life = (size_t)u->bundle_years[k * LIC_COUNT + (size_t)p] * (size_t)ppy;
		if (!used)
			continue;
		if (nc->own != OWN_BUY)
			covered = t < life ? nc->count * nc->gpus_per_node : 0;
		for (a = 0; a <= t && nc->own == OWN_BUY; a++)
			if (t - a < life)
				covered += u->arrive_at[a * u->nk + k] * nc->gpus_per_node;
		expired += used > covered ? used - covered : 0;
	}
	return expired;
}

void rm_usage_keep(struct rm_usage *u, size_t t)
{
	memcpy(&u->rent_nodes[t * u->nk], &u->rent_nodes[(t - 1) * u->nk], u->nk * sizeof(long));
	memcpy(lic_at(u, t, 0, 0), lic_at(u, t - 1, 0, 0), LIC_HOST_COUNT * LIC_COUNT * sizeof(long));
	memcpy(&u->bundled[t * u->nk * LIC_COUNT], &u->bundled[(t - 1) * u->nk * LIC_COUNT],
	       u->nk * LIC_COUNT * sizeof(long));
}

/* ================= commitments ================= */

void rm_commit_add(struct roadmap_result *r, const struct roadmap_commit *cm)
{
	r->commits = xrealloc(r->commits, (r->ncommits + 1) * sizeof(*r->commits));
	r->commits[r->ncommits++] = *cm;
}

double rm_commit_charge(struct roadmap_result *r, const struct roadmap_commit *cm, int cat, size_t len)
{
	size_t s = (size_t)(cm->start - r->fc->start), t, in = len < r->nperiods - s ? len : r->nperiods - s;
	double units = (double)cm->units, share = cm->upfront_usd / (double)len + cm->usd_per_period;
	double charged = 0, tail = units * share * (double)(len - in);

	for (t = s; t < s + in; t++) {
		struct roadmap_period *rp = &r->per[t];
		rp->cat[cat] += units * share;
		rp->cash += units * (cm->usd_per_period - share) + (t == s ? units * cm->upfront_usd : 0);
		charged += units * share;
	}
	if (r->sc->roadmap.present && r->sc->roadmap.tail_charged && tail > 0) {
		r->per[r->nperiods - 1].cat[cat] += tail;
		r->per[r->nperiods - 1].cash -= tail; /* paid at the start, or after the horizon: no cash in it */
		charged += tail;
	}
	return charged;
}

/* ================= the cloud pass ================= */

/* A rent row whose nodes a reservation may cover: an on-demand or spot offer's. */
static int coverable(const struct node_class *nc)
{
	return nc->own == OWN_RENT && nc->offer &&
	       (nc->offer->pricing == PRICING_ON_DEMAND || nc->offer->pricing == PRICING_SPOT);
}

static int same_instance(const struct cloud_offer *a, const struct cloud_offer *b)
{
	return !strcmp(a->cloud, b->cloud) && !strcmp(a->instance, b->instance) && !strcmp(a->region, b->region) &&
	       a->gpus == b->gpus && a->gpu == b->gpu;
}

/*
 * The whole periods a commitment of o covers (periods a year ppy): its
 * term's, or the periods a capacity block's days span (a quarter is
 * 91.25 days, a month 30.42: a 63-day block serves 2 months, no quarter).
 */
static size_t commit_len(const struct cloud_offer *o, int ppy)
{
	if (o->pricing == PRICING_CAPACITY_BLOCK)
		return (size_t)floor(o->block_days * ppy / 365.0 + 1e-9);
	return (size_t)o->term_years * (size_t)ppy;
}

/* Whether o is a commitment that covers the nodes of the rent row nc for a whole period at least. */
static int commits_for(const struct cloud_offer *o, const struct node_class *nc, int ppy)
{
	return (o->pricing == PRICING_RESERVED || o->pricing == PRICING_SAVINGS_PLAN ||
		o->pricing == PRICING_CAPACITY_BLOCK) &&
	       commit_len(o, ppy) > 0 && same_instance(o, nc->offer);
}

double roadmap_commit_floor(const struct scenario *sc, const struct node_class *nc, int ppy)
{
	double best = nc->hourly_usd, hours = HOURS_PER_YEAR / ppy;
	size_t i;

	if (!coverable(nc))
		return best;
	for (i = 0; i < sc->clouds.n; i++) {
		const struct cloud_offer *o = &sc->clouds.offers[i];
		if (commits_for(o, nc, ppy)) /* its whole price over the hours of the periods it serves */
			best = fmin(best, o->usd_per_hour + o->upfront_usd / ((double)commit_len(o, ppy) * hours));
	}
	return best;
}

int roadmap_commit_undercut(const struct scenario *sc, int ppy, const double *up, const double *lb)
{
	size_t k;
	int p;

	for (k = 0; k < sc->inventory.n; k++)
		if (roadmap_commit_floor(sc, &sc->inventory.classes[k], ppy) < sc->inventory.classes[k].hourly_usd)
			return 1;
	for (p = 1; p < LIC_COUNT; p++)
		if (lb[p] >= 0 && lb[p] < up[p])
			return 1;
	return 0;
}

/* One instance type's rent rows and the cover of their nodes. */
struct group {
	const struct roadmap_result *r;
	size_t k0;			/* the first row: the one reservations are listed against */
	size_t nrows, *rows;		/* inventory classes */
	size_t nopt;
	struct cover_opt *opt;
	const struct cloud_offer **opt_offer;
	long *need;
	double hours;			/* per period */
};

/* The group's rows (every coverable row of k0's instance) and the need per period. */
static void group_rows(struct group *g, const struct rm_usage *u)
{
	const struct inventory *inv = &g->r->sc->inventory;
	size_t k, t;

	g->rows = xcalloc(inv->n, sizeof(*g->rows));
	g->need = xcalloc(u->T + 1, sizeof(*g->need));
	for (k = g->k0; k < inv->n; k++) {
		if (!coverable(&inv->classes[k]) || !same_instance(inv->classes[k].offer, inv->classes[g->k0].offer))
			continue;
		g->rows[g->nrows++] = k;
		for (t = 0; t < u->T; t++)
			g->need[t] += u->rent_nodes[t * u->nk + k];
	}
}

/* Every reservation of every committed offer of the group's instance, started in any period. */
static void group_options(struct group *g)
{
	const struct scenario *sc = g->r->sc;
	const struct node_class *nc = &sc->inventory.classes[g->k0];
	size_t T = g->r->nperiods, i, s;
	int tail = sc->roadmap.present && sc->roadmap.tail_charged;

	for (i = 0; i < sc->clouds.n; i++) {
		const struct cloud_offer *o = &sc->clouds.offers[i];
		size_t len = commit_len(o, g->r->ppy);
		double whole = o->upfront_usd + o->usd_per_hour * g->hours * (double)len;
		if (!commits_for(o, nc, g->r->ppy))
			continue;
		g->opt = xrealloc(g->opt, (g->nopt + T) * sizeof(*g->opt));
		g->opt_offer = xrealloc(g->opt_offer, (g->nopt + T) * sizeof(*g->opt_offer));
		for (s = 0; s < T; s++, g->nopt++) {
			size_t in = len < T - s ? len : T - s;
			g->opt[g->nopt] = (struct cover_opt){ s, len, tail ? whole : whole * (double)in / (double)len };
			g->opt_offer[g->nopt] = o;
		}
	}
}

/* The reservation of option j, units x. */
static struct roadmap_commit reservation(const struct group *g, size_t j, long x)
{
	const struct cloud_offer *o = g->opt_offer[j];
	struct roadmap_commit cm;
	long len = (long)g->opt[j].len;

	memset(&cm, 0, sizeof(cm));
	cm.kind = RCOMMIT_RESERVE;
	cm.cls = g->k0;
	cm.offer = o;
	cm.item = o->pricing == PRICING_CAPACITY_BLOCK ? xasprintf("block-%dd", o->block_days)
						       : xasprintf("%s-%dy", offer_pricing_name(o->pricing), o->term_years);
	cm.units = x;
	cm.start = g->r->fc->start + (long)g->opt[j].start;
	cm.end = cm.start + len - 1;
	cm.upfront_usd = o->upfront_usd;
	cm.usd_per_period = o->usd_per_hour * g->hours;
	cm.total_usd = (double)x * (o->upfront_usd + cm.usd_per_period * (double)len);
	return cm;
}

/*
 * The GPUs in use that the commitments x cover, per period: committed
 * GPUs, and moved in rented_gpus from the rows' pricing (what each row's
 * fallback y leaves of its nodes cap) to the commitments' (blocks first,
 * then reserved, then savings plans, up to what each covers).
 */
static void group_gpus(const struct group *g, struct roadmap_result *r, const long *x, const long *y, const long *cap)
{
	static const enum offer_pricing order[] = { PRICING_CAPACITY_BLOCK, PRICING_RESERVED, PRICING_SAVINGS_PLAN };
	const struct inventory *inv = &r->sc->inventory;
	size_t T = r->nperiods, t, q, j, i;
	long gpus = inv->classes[g->k0].gpus_per_node;

	for (t = 0; t < T; t++) {
		struct roadmap_period *rp = &r->per[t];
		long covered = 0, n;
		for (q = 0; q < g->nrows; q++) {
			const struct node_class *nc = &inv->classes[g->rows[q]];
			covered += cap[q * T + t] - y[q * T + t];
			rp->rented_gpus[nc->offer->pricing] -= (cap[q * T + t] - y[q * T + t]) * gpus;
		}
		rp->committed_gpus += covered * gpus;
		for (i = 0; i < 3; i++) {
			for (j = 0, n = 0; j < g->nopt; j++)
				if (g->opt_offer[j]->pricing == order[i] && g->opt[j].start <= t &&
				    t < g->opt[j].start + g->opt[j].len)
					n += x[j];
			n = n < covered ? n : covered;
			rp->rented_gpus[order[i]] += n * gpus;
			covered -= n;
		}
	}
}

/* Solves the group's cover and charges it to r: rows' rent replaced by fallback use plus reservations. */
static int group_charge(struct group *g, struct roadmap_result *r, const struct rm_usage *u)
{
	const struct inventory *inv = &r->sc->inventory;
	size_t T = r->nperiods, q, t, j;
	struct cover_tier *tier = xcalloc(g->nrows, sizeof(*tier));
	long *cap = xcalloc(g->nrows * T + 1, sizeof(long)), *x = xcalloc(g->nopt + 1, sizeof(long));
	long *y = xcalloc(g->nrows * T + 1, sizeof(long));
	double *cost = xcalloc(g->nrows * T + 1, sizeof(double)), before = 0, after = 0;
	int rc;

	for (q = 0; q < g->nrows; q++) {
		for (t = 0; t < T; t++) {
			cap[q * T + t] = u->rent_nodes[t * u->nk + g->rows[q]];
			cost[q * T + t] = inv->classes[g->rows[q]].hourly_usd * g->hours;
		}
		tier[q] = (struct cover_tier){ &cap[q * T], &cost[q * T] };
	}
	rc = cover_solve(&(struct cover){ T, g->need, g->nopt, g->opt, g->nrows, tier }, x, y);
	for (q = 0; rc == 0 && q < g->nrows * T; q++) {
		r->per[q % T].cat[CAT_CLOUD] += (double)(y[q] - cap[q]) * cost[q];
		before += (double)cap[q] * cost[q];
		after += (double)y[q] * cost[q];
	}
	for (j = 0; rc == 0 && j < g->nopt; j++) {
		struct roadmap_commit cm;
		if (!x[j])
			continue;
		cm = reservation(g, j, x[j]);
		cm.charged_usd = rm_commit_charge(r, &cm, CAT_CLOUD, g->opt[j].len);
		after += cm.charged_usd;
		rm_commit_add(r, &cm);
	}
	if (rc == 0)
		group_gpus(g, r, x, y, cap);
	r->cloud_uncommitted_usd += before;
	r->saving_vs_on_demand += before - after;
	free(tier);
	free(cap);
	free(x);
	free(y);
	free(cost);
	return rc;
}

int roadmap_commit_choose(struct roadmap_result *r, const struct rm_usage *u, struct diag *d)
{
	const struct inventory *inv = &r->sc->inventory;
	unsigned char *done = xcalloc(inv->n + 1, 1);
	size_t k, i;
	int rc = 0;

	for (k = 0; k < inv->n && !rc; k++) {
		struct group g;
		if (done[k] || !coverable(&inv->classes[k]))
			continue;
		memset(&g, 0, sizeof(g));
		g.r = r;
		g.k0 = k;
		g.hours = HOURS_PER_YEAR / r->ppy;
		group_rows(&g, u);
		for (i = 0; i < g.nrows; i++)
			done[g.rows[i]] = 1;
		group_options(&g);
		if (group_charge(&g, r, u))
			rc = diag_set(d, DIAG_IO, NULL, 0, 0, "roadmap: the rented nodes of '%s' cannot be covered",
				      inv->classes[k].name);
		free(g.rows);
		free(g.need);
		free(g.opt);
		free(g.opt_offer);
	}
	free(done);
	return rc;
}
