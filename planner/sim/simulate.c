/*
 * simulate.c - stepping a demand trace, counting licences, pricing the
 * buying strategies (see simulate.h for the model).
 *
 * Each step's plan is a fresh cplan rebuilt from the previous one: the
 * nodes that keep a replica are reopened in their mode (passthrough: the
 * same pattern), the GPUs that keep one are given their configuration
 * again, which recreates their slots in the same order, and every kept
 * replica goes back into the slot of the same rank on the same GPU.
 * Replicas are put back in (workload, replica number) order, so numbers
 * stay 0..kept-1 and the next step again drops the highest (the newest).
 * Kept nodes keep their ordinal (name); new nodes get the lowest free one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "interrupt.h"
#include "outfile.h"
#include "simulate.h"
#include "verify.h"
#include "banned.h"

#define EPS 1e-9
#define HOURS_PER_MONTH 730.0

static const char *const strategy_names[] = { "subscription-peak", "subscription-yearly", "perpetual",
					      "cloud-hourly", "mix" };

const char *sim_strategy_name(enum sim_strategy s)
{
	return (unsigned)s < STRAT_COUNT ? strategy_names[s] : "?";
}

/* ================= stepping ================= */

struct kept {
	int d;
	long replica;
	size_t slot;	/* in the new plan */
};

static int kept_order(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->replica > y->replica) - (x->replica < y->replica);
}

/* Scratch reused across steps. */
struct stepper {
	size_t *by_node;	/* prev slots grouped by node */
	size_t *node_first;	/* [nnodes + 1] offsets into by_node */
	size_t cap_slots, cap_nodes;
	struct kept *kept;
	size_t nkept, cap_kept;
	long *keep, *add;
	unsigned char *used_ord;
	size_t cap_ord;
};

static void stepper_release(struct stepper *st)
{
	free(st->by_node);
	free(st->node_first);
	free(st->kept);
	free(st->keep);
	free(st->add);
	free(st->used_ord);
	memset(st, 0, sizeof(*st));
}

/* Whether slot s of prev holds a replica that stays. */
static int stays(const struct cplan *prev, const struct stepper *st, size_t s)
{
	const struct cslot *sl = &prev->slots[s];
	return sl->d >= 0 && sl->replica < st->keep[sl->d];
}

/* Rebuilds node ni of prev in cur with its staying replicas (collected in st->kept). */
static void keep_node(struct cplan *cur, const struct cplan *prev, struct stepper *st, size_t ni)
{
	const struct cnode *on = &prev->nodes[ni];
	int g, ng = cur->p->classes[on->k].nc->gpus_per_node, node;
	size_t a = st->node_first[ni], b = st->node_first[ni + 1], i, first_new;
	size_t *newpos, *off, *cnt;

	first_new = cur->nslots;
	node = cplan_open_node(cur, on->k, on->mode, on->pattern);
	cur->nodes[node].ordinal = on->ordinal;
	if (on->mode != MODE_PASSTHROUGH) {
		for (g = 0; g < ng; g++) {
			int any = 0;
			for (i = a; i < b && !any; i++)
				any = prev->slots[st->by_node[i]].gpu == g && stays(prev, st, st->by_node[i]);
			if (any)
				cplan_configure_gpu(cur, node, g, on->gpu_config[g]);
		}
	}
	/* the new slots of this node, grouped by GPU in creation order */
	off = xcalloc((size_t)ng + 1, sizeof(*off));
	cnt = xcalloc((size_t)ng + 1, sizeof(*cnt));
	newpos = xmalloc((cur->nslots - first_new + 1) * sizeof(*newpos));
	for (i = first_new; i < cur->nslots; i++)
		off[cur->slots[i].gpu + 1]++;
	for (g = 0; g < ng; g++)
		off[g + 1] += off[g];
	for (i = first_new; i < cur->nslots; i++) {
		int sg = cur->slots[i].gpu;
		newpos[off[sg] + cnt[sg]++] = i;
	}
	memset(cnt, 0, ((size_t)ng + 1) * sizeof(*cnt));
	for (i = a; i < b; i++) {
		size_t s = st->by_node[i], j, t;
		const struct cslot *os = &prev->slots[s];
		int sg = os->gpu;
		int configured = on->mode == MODE_PASSTHROUGH || cur->nodes[node].gpu_config[sg] >= 0;
		if (!configured)
			continue;
		j = cnt[sg]++;
		if (!stays(prev, st, s) || off[sg] + j >= off[sg + 1])
			continue;
		t = newpos[off[sg] + j];
		if (cur->slots[t].type != os->type || cur->slots[t].mig_start != os->mig_start)
			continue; /* cannot happen: the same configuration makes the same slots */
		XGROW(st->kept, st->cap_kept, st->nkept + 1);
		st->kept[st->nkept].d = os->d;
		st->kept[st->nkept].replica = os->replica;
		st->kept[st->nkept].slot = t;
		st->nkept++;
	}
	free(off);
	free(cnt);
	free(newpos);
}

/* Plans target (replicas per demand) into cur, an empty plan, starting from prev. */
static long step_plan(struct cplan *cur, const struct cplan *prev, struct stepper *st, const long *target)
{
	const struct problem *p = cur->p;
	size_t i, k, nkeepnodes = 0;
	long opens = 0;

	/* group prev's slots by node (counting sort keeps creation order) */
	XGROW(st->by_node, st->cap_slots, prev->nslots + 1);
	XGROW(st->node_first, st->cap_nodes, prev->nnodes + 2);
	memset(st->node_first, 0, (prev->nnodes + 2) * sizeof(*st->node_first));
	for (i = 0; i < prev->nslots; i++)
		st->node_first[prev->slots[i].node + 2]++;
	for (i = 0; i < prev->nnodes; i++)
		st->node_first[i + 2] += st->node_first[i + 1];
	for (i = 0; i < prev->nslots; i++)
		st->by_node[st->node_first[prev->slots[i].node + 1]++] = i;
	for (i = 0; i < p->ndemands; i++) {
		st->keep[i] = target[i] < prev->placed[i] ? target[i] : prev->placed[i];
		st->add[i] = target[i] - st->keep[i];
	}
	st->nkept = 0;
	for (i = 0; i < prev->nnodes; i++) {
		size_t j;
		int any = 0;
		for (j = st->node_first[i]; j < st->node_first[i + 1] && !any; j++)
			any = stays(prev, st, st->by_node[j]);
		if (any) {
			keep_node(cur, prev, st, i);
			nkeepnodes++;
		}
	}
	if (st->nkept)
		qsort(st->kept, st->nkept, sizeof(*st->kept), kept_order);
	for (i = 0; i < st->nkept; i++)
		cplan_place_at(cur, st->kept[i].slot, st->kept[i].d);
	cplan_place_more(cur, st->add);

	/* new nodes take the lowest ordinals their class has free */
	for (k = 0; k < p->nclasses; k++) {
		size_t cnt = (size_t)p->classes[k].nc->count, next = 0;
		XGROW(st->used_ord, st->cap_ord, cnt + 1);
		memset(st->used_ord, 0, cnt + 1);
		for (i = 0; i < nkeepnodes; i++)
			if ((size_t)cur->nodes[i].k == k && (size_t)cur->nodes[i].ordinal < cnt)
				st->used_ord[cur->nodes[i].ordinal] = 1;
		for (i = nkeepnodes; i < cur->nnodes; i++) {
			if ((size_t)cur->nodes[i].k != k)
				continue;
			while (next < cnt && st->used_ord[next])
				next++;
			cur->nodes[i].ordinal = (int)next;
			st->used_ord[next < cnt ? next : cnt] = 1;
			opens++;
		}
	}
	return opens;
}

/* ================= prices per product ================= */

struct prod_price {
	int has_sub;
	double cover[SIM_MAX_YEARS + 1];	/* cheapest subscription for n whole years */
	char *cover_id[SIM_MAX_YEARS + 1];	/* "subscription-3y", "subscription-5y+subscription-1y" */
	const struct lic_term *perp;
	const struct lic_term *hourly;
	double support;				/* per GPU-year beyond the perpetual's included years; < 0: none */
};

static void price_product(const struct scenario *sc, enum lic_product p, struct prod_price *pp)
{
	const struct lic_product_def *pd = &sc->licenses.product[p];
	int pick[SIM_MAX_YEARS + 1], n;
	size_t t;

	memset(pp, 0, sizeof(*pp));
	pp->support = sc->licensing.support_usd_per_gpu_year;
	if (pd->present) {
		for (t = 0; t < pd->nterms; t++) {
			if (pd->terms[t].kind == TERM_PERPETUAL && !pp->perp)
				pp->perp = &pd->terms[t];
			if (pd->terms[t].kind == TERM_HOURLY && !pp->hourly)
				pp->hourly = &pd->terms[t];
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
			if (lt->kind != TERM_SUBSCRIPTION || pp->cover[from] == HUGE_VAL)
				continue;
			c = pp->cover[from] + lt->usd_per_gpu;
			if (c < pp->cover[n] - EPS ||
			    (fabs(c - pp->cover[n]) <= EPS && pick[n] >= 0 && lt->years > pd->terms[pick[n]].years)) {
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

#define MONEY(v) fmt_fixed((char[64]){ 0 }, 64, (v), 2)

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

/* The cheapest base B for one year of one product (1-year subscription + hourly burst). */
static long best_base(const long *u, size_t from, size_t to, long peak, double sub1, double rate, double *cost,
		      double *burst_hours)
{
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
		if (c < best - EPS) {
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

static void price_strategies(struct sim_result *r)
{
	struct prod_price pp[LIC_COUNT];
	int q, s, y;

	for (q = 1; q < LIC_COUNT; q++)
		price_product(r->sc, (enum lic_product)q, &pp[q]);
	for (q = 1; q < LIC_COUNT; q++) {
		const char *pid = lic_product_id((enum lic_product)q);
		struct prod_price *P = &pp[q];
		if (r->peak_units[q] == 0)
			continue;
		/* subscription sized to the peak, covering every year */
		if (!P->has_sub || P->cover[r->nyears] == HUGE_VAL) {
			unavailable(&r->strat[STRAT_SUB_PEAK], xasprintf("%s has no subscription term", pid));
			unavailable(&r->strat[STRAT_SUB_YEARLY], xasprintf("%s has no subscription term", pid));
			unavailable(&r->strat[STRAT_MIX], xasprintf("%s has no subscription term", pid));
		} else {
			struct sb sb;
			r->strat[STRAT_SUB_PEAK].total += (double)r->peak_units[q] * P->cover[r->nyears];
			add_how(&r->strat[STRAT_SUB_PEAK], xasprintf("%s peak %ld x %s (%s)", pid, r->peak_units[q],
								     MONEY(P->cover[r->nyears]), P->cover_id[r->nyears]));
			sb_init(&sb);
			sb_addf(&sb, "%s (", pid);
			for (y = 0; y < r->nyears; y++) {
				r->strat[STRAT_SUB_YEARLY].total += (double)r->years[y].peak[q] * P->cover[1];
				sb_addf(&sb, "%s%ld", y ? "+" : "", r->years[y].peak[q]);
			}
			sb_addf(&sb, ") x %s (%s; yearly peaks)", MONEY(P->cover[1]), P->cover_id[1]);
			add_how(&r->strat[STRAT_SUB_YEARLY], sb_detach(&sb));
		}
		/* perpetual, bought as the yearly peak grows */
		if (!P->perp) {
			unavailable(&r->strat[STRAT_PERPETUAL], xasprintf("%s has no perpetual term", pid));
		} else {
			long owned = 0, bought = 0, support_years = 0;
			struct sb sb;
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
			}
			if (support_years > 0 && P->support < 0) {
				sb_release(&sb);
				unavailable(&r->strat[STRAT_PERPETUAL],
					    xasprintf("%s perpetual licences include %d years of support, the trace needs "
						      "more: set licensing.support_usd_per_gpu_year", pid, P->perp->years));
			} else {
				char *part;
				r->strat[STRAT_PERPETUAL].total += (double)bought * P->perp->usd_per_gpu +
								   (double)support_years * (P->support > 0 ? P->support : 0);
				part = xasprintf("%s %ld x %s (%s; %s)", pid, bought, MONEY(P->perp->usd_per_gpu), P->perp->id,
						 sb.buf);
				if (support_years > 0) {
					char *p2 = xasprintf("%s + %ld support GPU-years x %s", part, support_years,
							     MONEY(P->support));
					free(part);
					part = p2;
				}
				add_how(&r->strat[STRAT_PERPETUAL], part);
				sb_release(&sb);
			}
		}
		/* hourly */
		if (!P->hourly) {
			unavailable(&r->strat[STRAT_CLOUD], xasprintf("%s has no hourly term", pid));
			unavailable(&r->strat[STRAT_MIX], xasprintf("%s has no hourly term", pid));
		} else {
			r->strat[STRAT_CLOUD].total += r->unit_hours[q] * P->hourly->usd_per_gpu_hour;
			add_how(&r->strat[STRAT_CLOUD], xasprintf("%s %.0f licence-hours x %s (%s)", pid, r->unit_hours[q],
								  MONEY(P->hourly->usd_per_gpu_hour), P->hourly->id));
		}
		/* mix: per year, a subscribed base and hourly burst */
		if (P->hourly && P->has_sub && P->cover[1] != HUGE_VAL) {
			struct sb sb;
			sb_init(&sb);
			for (y = 0; y < r->nyears; y++) {
				size_t from = (size_t)y * 8760, to = from + (size_t)r->years[y].hours;
				double cost, bh;
				long b = best_base(r->units[q], from, to, r->years[y].peak[q], P->cover[1],
						   P->hourly->usd_per_gpu_hour, &cost, &bh);
				r->years[y].base[q] = b;
				r->strat[STRAT_MIX].total += cost;
				sb_addf(&sb, "%syear %d: base %ld x %s + %.0f burst licence-hours x %s", y ? "; " : "", y + 1, b,
					MONEY(P->cover[1]), bh, MONEY(P->hourly->usd_per_gpu_hour));
			}
			add_how(&r->strat[STRAT_MIX], xasprintf("%s (%s)", pid, sb.buf));
			sb_release(&sb);
		}
	}
	/* rank the available ones: by total, then in table order */
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
	/* break-even per licence, for each pair of the fixed and hourly strategies */
	for (q = 1; q < LIC_COUNT; q++) {
		static const enum sim_strategy pairs[][2] = {
			{ STRAT_SUB_PEAK, STRAT_SUB_YEARLY }, { STRAT_SUB_PEAK, STRAT_PERPETUAL },
			{ STRAT_SUB_PEAK, STRAT_CLOUD },      { STRAT_SUB_YEARLY, STRAT_PERPETUAL },
			{ STRAT_SUB_YEARLY, STRAT_CLOUD },    { STRAT_PERPETUAL, STRAT_CLOUD },
		};
		struct prod_price *P = &pp[q];
		double u;
		size_t i;
		if (r->peak_units[q] == 0)
			continue;
		u = r->unit_hours[q] / ((double)r->peak_units[q] * (double)r->nsteps);
		for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			struct sim_breakeven be;
			int m, ok = 1, side;
			double fixed_h = -1;
			memset(&be, 0, sizeof(be));
			be.product = (enum lic_product)q;
			be.a = pairs[i][0];
			be.b = pairs[i][1];
			be.util = -1;
			be.trace_util = u;
			for (side = 0; side < 2; side++) {
				enum sim_strategy x = pairs[i][side];
				if ((x == STRAT_SUB_PEAK || x == STRAT_SUB_YEARLY) && !P->has_sub)
					ok = 0;
				if (x == STRAT_PERPETUAL && !P->perp)
					ok = 0;
				if (x == STRAT_CLOUD && !P->hourly)
					ok = 0;
			}
			if (!ok)
				continue;
			for (m = 1; m <= SIM_BREAKEVEN_MONTHS; m++) {
				int n = (m + 11) / 12, rel;
				double c[2];
				for (side = 0; side < 2; side++) {
					switch (pairs[i][side]) {
					case STRAT_SUB_PEAK:
						c[side] = P->cover[n];
						break;
					case STRAT_SUB_YEARLY:
						c[side] = P->cover[1] * n;
						break;
					case STRAT_PERPETUAL:
						if (n > P->perp->years && P->support < 0)
							c[side] = HUGE_VAL;
						else
							c[side] = P->perp->usd_per_gpu +
								  (n > P->perp->years ? P->support * (n - P->perp->years) : 0);
						break;
					default:
						c[side] = P->hourly->usd_per_gpu_hour * HOURS_PER_MONTH * u * m;
						break;
					}
				}
				if (c[0] == HUGE_VAL || c[1] == HUGE_VAL)
					break;
				rel = c[0] < c[1] - 0.005 ? -1 : c[0] > c[1] + 0.005 ? 1 : 0;
				if (m == 1) {
					be.first = rel;
				} else if (rel != be.first) {
					be.month = m;
					be.after = rel;
					break;
				}
			}
			if (be.b == STRAT_CLOUD) {
				switch (be.a) {
				case STRAT_SUB_PEAK:
					fixed_h = P->cover[r->nyears];
					break;
				case STRAT_SUB_YEARLY:
					fixed_h = P->cover[1] * r->nyears;
					break;
				default:
					if (r->nyears <= P->perp->years || P->support >= 0)
						fixed_h = P->perp->usd_per_gpu +
							  (r->nyears > P->perp->years ? P->support * (r->nyears - P->perp->years) : 0);
					break;
				}
				if (fixed_h >= 0 && P->hourly->usd_per_gpu_hour > 0)
					be.util = fixed_h / (P->hourly->usd_per_gpu_hour * HOURS_PER_YEAR * r->nyears);
			}
			r->be = xrealloc(r->be, (r->nbe + 1) * sizeof(*r->be));
			r->be[r->nbe++] = be;
		}
	}
	for (q = 1; q < LIC_COUNT; q++)
		prod_price_release(&pp[q]);
}

/* ================= the run ================= */

static const char *mode_col(enum gpu_mode m)
{
	static const char *const cols[] = { "gpus_passthrough", "gpus_vgpu", "gpus_mig_vgpu", "gpus_mig",
					    "gpus_timeslice", "gpus_mps" };
	return (unsigned)m < sizeof(cols) / sizeof(cols[0]) ? cols[m] : "gpus_other";
}

static void timeseries_header(struct sb *sb)
{
	int m;
	sb_adds(sb, "step,time,demand,placed,unplaced,replanned,nodes,gpus");
	for (m = 0; m < MODE_COUNT; m++)
		sb_addf(sb, ",%s", mode_col((enum gpu_mode)m));
	sb_adds(sb, ",licensed_gpus,seats_in_use,seats_held");
	for (m = 1; m < LIC_COUNT; m++)
		sb_addf(sb, ",licences_%s", lic_product_id((enum lic_product)m));
	sb_adds(sb, ",hourly_usd\n");
}

int simulate_run(struct sim_result *r, const struct scenario *sc, const struct trace *tr, const struct sim_opts *o,
		 struct diag *d)
{
	struct cplan a, b, fresh, *prev = &a, *cur = &b;
	long *nodes_k = NULL, *nodes_k_prev = NULL;
	struct stepper st;
	long *target = NULL, *ring[LIC_COUNT] = { NULL }, seats_prev[LIC_COUNT] = { 0 }, held_sum[LIC_COUNT] = { 0 };
	long horizon;
	size_t t, i;
	int q, rc = -1, have_plans = 0;

	memset(r, 0, sizeof(*r));
	memset(&st, 0, sizeof(st));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	r->sc = sc;
	r->tr = tr;
	sb_init(&r->timeseries);
	if (pricing_build(&r->pr, sc, d))
		return -1;
	r->have_pr = 1;
	if (problem_build(&r->p, sc, &r->pr, d))
		return -1;
	r->have_p = 1;

	horizon = (long)floor(sc->horizon_years * HOURS_PER_YEAR + 0.5);
	r->nsteps = o->hours > 0 ? (size_t)o->hours : tr->nsteps > (size_t)horizon ? tr->nsteps : (size_t)horizon;
	if (r->nsteps > (size_t)TRACE_MAX_HOURS)
		r->nsteps = (size_t)TRACE_MAX_HOURS;
	r->lease_hours = o->lease_hours >= 0 ? o->lease_hours : sc->licensing.lease_hours;
	r->lease_steps = (long)ceil(r->lease_hours - EPS);
	r->nyears = (int)((r->nsteps + 8759) / 8760);
	for (q = 0; q < r->nyears; q++)
		r->years[q].hours = (long)(r->nsteps - (size_t)q * 8760 < 8760 ? r->nsteps - (size_t)q * 8760 : 8760);
	for (q = 1; q < LIC_COUNT; q++) {
		const struct lic_product_def *pd = &sc->licenses.product[q];
		size_t k;
		r->rate[q] = -1;
		for (k = 0; pd->present && k < pd->nterms; k++)
			if (pd->terms[k].kind == TERM_HOURLY) {
				r->rate[q] = pd->terms[k].usd_per_gpu_hour;
				break;
			}
		r->units[q] = xcalloc(r->nsteps, sizeof(**r->units));
		if (r->lease_steps > 0)
			ring[q] = xcalloc((size_t)r->lease_steps, sizeof(**ring));
	}
	pricing_assume(&r->pr, -1, -1,
		       "simulate: the mix strategy buys hourly licences for the burst above its base, a price NVIDIA "
		       "lists for cloud instances",
		       "models/licenses.yaml: cloud-hourly term");
	if (sc->licensing.counting == COUNT_VGPU_SEAT) {
		char *what = xasprintf("simulate: a licence server lease of %s hours after a seat's last use",
				       fmt_num_short((char[64]){ 0 }, 64, r->lease_hours, 2));
		pricing_assume(&r->pr, -1, -1, what,
			       o->lease_hours >= 0 ? "gpuplan simulate --lease-hours (NLS lease length: no public source)"
						   : "licensing.lease_hours (NLS lease length: no public source)");
		free(what);
	}

	target = xcalloc(r->p.ndemands + 1, sizeof(*target));
	nodes_k = xcalloc(r->p.nclasses + 1, sizeof(*nodes_k));
	nodes_k_prev = xcalloc(r->p.nclasses + 1, sizeof(*nodes_k_prev));
	st.keep = xcalloc(r->p.ndemands + 1, sizeof(*st.keep));
	st.add = xcalloc(r->p.ndemands + 1, sizeof(*st.add));
	cplan_init(prev, &r->p);
	have_plans = 1;
	timeseries_header(&r->timeseries);
	for (t = 0; t < r->nsteps; t++) {
		long demand = 0, placed = 0, unplaced = 0, nodes = 0, gpus = 0, by_mode[MODE_COUNT] = { 0 };
		long lic_gpus[LIC_COUNT] = { 0 }, seats[LIC_COUNT] = { 0 }, held[LIC_COUNT] = { 0 };
		long licensed = 0, seats_all = 0, held_all = 0;
		int replanned = 0;
		double hourly = 0;
		int y = (int)(t / 8760);
		char tbuf[32];

		if (interrupt_pending()) {
			diag_set(d, DIAG_IO, NULL, 0, 0, "interrupted by %s at step %zu",
				 interrupt_signame(interrupt_pending()), t);
			goto out;
		}
		for (i = 0; i < r->p.ndemands; i++) {
			target[i] = trace_at(tr, t, r->p.demands[i].index);
			r->p.demands[i].replicas = target[i]; /* this step's demand, as the verifier reads it */
			demand += target[i];
		}
		cplan_init(cur, &r->p);
		step_plan(cur, prev, &st, target);
		for (i = 0; i < r->p.ndemands; i++)
			unplaced += cur->unplaced[i];
		if (unplaced > 0) {
			/* the kept placements may block what a fresh plan would place: re-plan then */
			long fresh_unplaced = 0;
			cplan_init(&fresh, &r->p);
			cplan_place_more(&fresh, target);
			for (i = 0; i < r->p.ndemands; i++)
				fresh_unplaced += fresh.unplaced[i];
			if (fresh_unplaced < unplaced) {
				struct cplan x = *cur;
				*cur = fresh;
				fresh = x;
				replanned = 1;
				r->replans++;
			}
			cplan_release(&fresh);
		}
		if (o->verify && verify_plan(cur, d))
			goto out;
		unplaced = 0;
		for (i = 0; i < r->p.ndemands; i++) {
			placed += cur->placed[i];
			unplaced += cur->unplaced[i];
		}
		for (i = 0; i < cur->nnodes; i++) {
			const struct cnode *n = &cur->nodes[i];
			int g, ng = r->p.classes[n->k].nc->gpus_per_node, active = 0;
			for (g = 0; g < ng; g++) {
				enum lic_product lp;
				long lg, ls;
				int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
				if (!on)
					continue;
				active++;
				by_mode[n->mode]++;
				cplan_gpu_licence(cur, i, g, &lp, &lg, &ls);
				lic_gpus[lp] += lg;
				seats[lp] += ls;
			}
			if (active) {
				nodes++;
				gpus += active;
				nodes_k[n->k]++;
			}
		}
		for (i = 0; i < r->p.nclasses; i++) {
			if (nodes_k[i] > nodes_k_prev[i])
				r->node_opens += nodes_k[i] - nodes_k_prev[i];
			nodes_k_prev[i] = nodes_k[i];
			nodes_k[i] = 0;
		}
		for (q = 1; q < LIC_COUNT; q++) {
			long released = seats_prev[q] > seats[q] ? seats_prev[q] - seats[q] : 0;
			if (r->lease_steps > 0) {
				size_t slot = t % (size_t)r->lease_steps;
				held_sum[q] += released - ring[q][slot];
				ring[q][slot] = released;
			}
			held[q] = seats[q] + held_sum[q];
			seats_prev[q] = seats[q];
			r->units[q][t] = lic_gpus[q] + held[q];
			licensed += lic_gpus[q];
			seats_all += seats[q];
			held_all += held[q];
			if (r->rate[q] > 0)
				hourly += (double)r->units[q][t] * r->rate[q];
			if (r->units[q][t] > r->peak_units[q])
				r->peak_units[q] = r->units[q][t];
			if (r->units[q][t] > r->years[y].peak[q])
				r->years[y].peak[q] = r->units[q][t];
			r->unit_hours[q] += (double)r->units[q][t];
			r->years[y].unit_hours[q] += (double)r->units[q][t];
		}
		if (demand > r->peak_demand)
			r->peak_demand = demand;
		if (nodes > r->peak_nodes)
			r->peak_nodes = nodes;
		if (gpus > r->peak_gpus)
			r->peak_gpus = gpus;
		if (unplaced > r->peak_unplaced)
			r->peak_unplaced = unplaced;
		r->unplaced_hours += (double)unplaced;

		sb_addf(&r->timeseries, "%zu,%s,%ld,%ld,%ld,%d,%ld,%ld", t,
			tr->iso ? trace_format_time(tbuf, sizeof(tbuf), tr->t0 + (long long)t * 3600) : "", demand, placed,
			unplaced, replanned, nodes, gpus);
		for (q = 0; q < MODE_COUNT; q++)
			sb_addf(&r->timeseries, ",%ld", by_mode[q]);
		sb_addf(&r->timeseries, ",%ld,%ld,%ld", licensed, seats_all, held_all);
		for (q = 1; q < LIC_COUNT; q++)
			sb_addf(&r->timeseries, ",%ld", r->units[q][t]);
		sb_addf(&r->timeseries, ",%s\n", MONEY(hourly));

		cplan_release(prev);
		{
			struct cplan *x = prev;
			prev = cur;
			cur = x;
		}
	}
	price_strategies(r);
	rc = 0;
out:
	if (have_plans)
		cplan_release(prev);
	if (rc && cur->p)
		cplan_release(cur);
	for (q = 0; q < LIC_COUNT; q++)
		free(ring[q]);
	free(target);
	free(nodes_k);
	free(nodes_k_prev);
	stepper_release(&st);
	return rc;
}

void simulate_release(struct sim_result *r)
{
	int q;
	for (q = 0; q < LIC_COUNT; q++)
		free(r->units[q]);
	for (q = 0; q < STRAT_COUNT; q++)
		free(r->strat[q].how);
	free(r->be);
	sb_release(&r->timeseries);
	if (r->have_p)
		problem_release(&r->p);
	if (r->have_pr)
		pricing_release(&r->pr);
	memset(r, 0, sizeof(*r));
}

/* ================= reports ================= */

static void json_str(struct sb *sb, const char *s)
{
	sb_addn(sb, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_addf(sb, "\\%c", c);
		else if (c == '\n')
			sb_adds(sb, "\\n");
		else if (c < 0x20)
			sb_addf(sb, "\\u%04x", c);
		else
			sb_addn(sb, s, 1);
	}
	sb_addn(sb, "\"", 1);
}

static const char *relation(int rel, enum sim_strategy a, enum sim_strategy b)
{
	return rel < 0 ? sim_strategy_name(a) : rel > 0 ? sim_strategy_name(b) : "equal";
}

int simulate_write(const struct sim_result *r, const char *dir, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	struct sb s, be, js;
	char b1[64], b2[64];
	size_t i;
	int k, q, y, rc;

	outset_init(&os, dir);
	outset_add_copy(&os, "timeseries.csv", r->timeseries.buf, r->timeseries.len);

	sb_init(&s);
	sb_adds(&s, "rank,strategy,total_usd,extra_over_cheapest_usd,how\n");
	for (k = 1; k <= STRAT_COUNT + 1; k++) {
		for (q = 0; q < STRAT_COUNT; q++) {
			const struct sim_strategy_result *x = &r->strat[q];
			if (k <= STRAT_COUNT ? x->rank != k : x->available)
				continue;
			if (x->available)
				sb_addf(&s, "%d,%s,%s,%s,", x->rank, sim_strategy_name((enum sim_strategy)q), MONEY(x->total),
					MONEY(x->total - r->strat[r->cheapest].total));
			else
				sb_addf(&s, ",%s,,,", sim_strategy_name((enum sim_strategy)q));
			sb_add_csv(&s, x->how);
			sb_adds(&s, "\n");
		}
	}
	outset_add_sb(&os, "strategies.csv", &s);

	sb_init(&be);
	sb_adds(&be, "product,a,b,cheaper_at_month_1,breakeven_month,cheaper_after,breakeven_utilisation,trace_utilisation\n");
	for (i = 0; i < r->nbe; i++) {
		const struct sim_breakeven *e = &r->be[i];
		sb_addf(&be, "%s,%s,%s,%s,", lic_product_id(e->product), sim_strategy_name(e->a), sim_strategy_name(e->b),
			relation(e->first, e->a, e->b));
		if (e->month)
			sb_addf(&be, "%d,%s,", e->month, relation(e->after, e->a, e->b));
		else
			sb_adds(&be, ",,");
		sb_addf(&be, "%s,%s\n", e->util >= 0 ? fmt_fixed(b1, sizeof(b1), e->util, 4) : "",
			fmt_fixed(b2, sizeof(b2), e->trace_util, 4));
	}
	outset_add_sb(&os, "breakeven.csv", &be);

	sb_init(&js);
	sb_adds(&js, "{\n  \"schema_version\": \"1.0.0\",\n  \"scenario\": ");
	json_str(&js, r->sc->name);
	sb_adds(&js, ",\n  \"trace\": ");
	/* the file name only: reports do not depend on where the trace was read from */
	json_str(&js, strrchr(r->tr->source, '/') ? strrchr(r->tr->source, '/') + 1 : r->tr->source);
	sb_addf(&js, ",\n  \"trace_period_hours\": %zu,\n  \"steps\": %zu,\n  \"step_hours\": 1,\n", r->tr->nsteps,
		r->nsteps);
	sb_addf(&js, "  \"counting\": \"%s\",\n  \"lease_hours\": %ld,\n", lic_counting_name(r->sc->licensing.counting),
		r->lease_steps);
	sb_addf(&js, "  \"peaks\": {\"demand\": %ld, \"nodes\": %ld, \"gpus\": %ld, \"unplaced\": %ld},\n",
		r->peak_demand, r->peak_nodes, r->peak_gpus, r->peak_unplaced);
	sb_addf(&js, "  \"node_starts\": %ld,\n  \"replans\": %ld,\n  \"unplaced_replica_hours\": %.0f,\n", r->node_opens, r->replans, r->unplaced_hours);
	sb_adds(&js, "  \"licences\": [");
	for (q = 1, k = 0; q < LIC_COUNT; q++) {
		if (!r->peak_units[q])
			continue;
		sb_addf(&js, "%s\n    {\"product\": \"%s\", \"peak\": %ld, \"licence_hours\": %.0f, \"years\": [",
			k++ ? "," : "", lic_product_id((enum lic_product)q), r->peak_units[q], r->unit_hours[q]);
		for (y = 0; y < r->nyears; y++)
			sb_addf(&js, "%s{\"year\": %d, \"hours\": %ld, \"peak\": %ld, \"licence_hours\": %.0f, \"mix_base\": %ld}",
				y ? ", " : "", y + 1, r->years[y].hours, r->years[y].peak[q], r->years[y].unit_hours[q],
				r->years[y].base[q]);
		sb_adds(&js, "]}");
	}
	sb_adds(&js, k ? "\n  ],\n" : "],\n");
	sb_adds(&js, "  \"strategies\": [");
	for (q = 0; q < STRAT_COUNT; q++) {
		const struct sim_strategy_result *x = &r->strat[q];
		sb_addf(&js, "%s\n    {\"strategy\": \"%s\", \"available\": %s, ", q ? "," : "",
			sim_strategy_name((enum sim_strategy)q), x->available ? "true" : "false");
		if (x->available)
			sb_addf(&js, "\"rank\": %d, \"total_usd\": %s, ", x->rank, MONEY(x->total));
		sb_adds(&js, "\"how\": ");
		json_str(&js, x->how);
		sb_adds(&js, "}");
	}
	sb_adds(&js, "\n  ],\n  \"cheapest\": ");
	if (r->cheapest >= 0)
		json_str(&js, sim_strategy_name((enum sim_strategy)r->cheapest));
	else
		sb_adds(&js, "null");
	sb_adds(&js, ",\n  \"breakeven\": [");
	for (i = 0; i < r->nbe; i++) {
		const struct sim_breakeven *e = &r->be[i];
		sb_addf(&js, "%s\n    {\"product\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", \"cheaper_at_month_1\": \"%s\", ",
			i ? "," : "", lic_product_id(e->product), sim_strategy_name(e->a), sim_strategy_name(e->b),
			relation(e->first, e->a, e->b));
		if (e->month)
			sb_addf(&js, "\"breakeven_month\": %d, \"cheaper_after\": \"%s\", ", e->month,
				relation(e->after, e->a, e->b));
		else
			sb_adds(&js, "\"breakeven_month\": null, \"cheaper_after\": null, ");
		sb_addf(&js, "\"breakeven_utilisation\": %s, \"trace_utilisation\": %s}",
			e->util >= 0 ? fmt_fixed(b1, sizeof(b1), e->util, 4) : "null",
			fmt_fixed(b2, sizeof(b2), e->trace_util, 4));
	}
	sb_adds(&js, r->nbe ? "\n  ],\n" : "],\n");
	sb_adds(&js, "  \"assumptions\": [");
	for (i = 0; i < r->pr.nassumptions; i++) {
		sb_addf(&js, "%s\n    {\"what\": ", i ? "," : "");
		json_str(&js, r->pr.assumptions[i].what);
		sb_adds(&js, ", \"source\": ");
		json_str(&js, r->pr.assumptions[i].source);
		sb_adds(&js, "}");
	}
	sb_adds(&js, r->pr.nassumptions ? "\n  ]\n}\n" : "]\n}\n");
	outset_add_sb(&os, "simulate.json", &js);

	rc = outset_commit(&os, d);
	outset_release(&os);
	return rc;
}
