/*
 * cplan_greedy.c - the greedy planner: first-fit decreasing over the
 * demands (most constrained first), each replica into a free slot, else
 * a newly configured GPU of an open node, else the cheapest new node.
 * cplan_greedy plans from nothing, cplan_place_more adds replicas to a
 * plan (simulate), and the deal of ILP counts (cplan_deal.c) places its
 * leftovers with the same steps.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "interrupt.h"
#include "util.h"
#include "banned.h"

/*
 * The configuration of class k in mode m that takes the most replicas of d
 * (the cheaper on a tie) and may join a node of key `key`
 * (problem_key_fits), -1 when none does; *per is what a replica of d
 * costs on it: the GPU's share plus the dearest arc among its slots.
 */
static int config_for(const struct problem *p, int d, int k, enum gpu_mode m, int key, double *per)
{
	const struct pclass *c = &p->classes[k];
	int best = -1, bestfit = 0;
	size_t ci, j;

	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		int fit;
		if (cf->mode != m || cf->node_pattern || !problem_key_fits(cf, key))
			continue;
		fit = cplan_fit_count(p, d, k, cf);
		if (fit > bestfit || (fit == bestfit && fit > 0 && cf->cost < c->configs[best].cost)) {
			best = (int)ci;
			bestfit = fit;
		}
	}
	if (best >= 0 && per) {
		const struct config *cf = &c->configs[best];
		double ac = 0;
		for (j = 0; j < cf->nslots; j++)
			ac = fmax(ac, cplan_arc_cost(p, d, k, cf->slot[j]));
		*per = cf->cost / bestfit + ac;
	}
	return best;
}

/*
 * config_for for demand d on (class k, mode m) and node key `key`,
 * remembered for as long as d is placed (the answer depends on nothing
 * else).
 */
static int config_cached(struct cplan *cp, int d, int k, enum gpu_mode m, int key, double *per)
{
	struct cplan_memo *mo = cp->memo;
	size_t km = (size_t)k * MODE_COUNT + m, i;
	struct cplan_keycfg *e;

	if (mo->cd != d) {
		memset(mo->nkc, 0, cp->p->nclasses * MODE_COUNT * sizeof(*mo->nkc));
		mo->cd = d;
	}
	for (i = 0; i < mo->nkc[km]; i++)
		if (mo->kc[km][i].key == key)
			break;
	if (i == mo->nkc[km]) {
		XGROW(mo->kc[km], mo->kccap[km], i + 1);
		e = &mo->kc[km][mo->nkc[km]++];
		e->key = key;
		e->per = 0;
		e->cfg = config_for(cp->p, d, k, m, key, &e->per);
	}
	if (per)
		*per = mo->kc[km][i].per;
	return mo->kc[km][i].cfg;
}

static _Thread_local int greedy_tier = -1;	/* the most isolating mode level used; -1: any */

/* How scarce a mode's slots are: the isolation they give (time-slicing least, passthrough most). */
static int mode_level(enum gpu_mode m)
{
	switch (m) {
	case MODE_TIMESLICE:
		return 0;
	case MODE_MPS:
	case MODE_VGPU:
		return 1;
	case MODE_MIG:
	case MODE_MIG_VGPU:
		return 2;
	default:
		return 3;
	}
}

#define GREEDY_TIERS 4	/* mode_level's values */

/*
 * first_fit_gpu's cursor for one tier (cplan_memo's gd, gepoch, gpos
 * hold the one for every mode): nodes before pos are of no use to
 * demand d in that tier while the epoch lasts.  Reset by place_sweeps.
 */
struct tier_cursor {
	int d;
	unsigned long epoch;
	size_t pos;
};
static _Thread_local struct tier_cursor tier_cur[GREEDY_TIERS];

static int tier_allows(enum gpu_mode m)
{
	return greedy_tier < 0 || mode_level(m) <= greedy_tier;
}

/*
 * A free slot of d's in a mode the tier allows, on a node with room;
 * (size_t)-1 if none.  Outside a tier, cplan_find_free.
 */
static size_t find_free_tier(struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	size_t lo, hi, i;

	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		size_t s;
		if (!tier_allows(p->classes[p->arcs[i].k].slot_types[p->arcs[i].s].mode))
			continue;
		s = cplan_take_free(cp, p->arcs[i].k, p->arcs[i].s, p->demands[d].w);
		if (s != (size_t)-1)
			return s;
	}
	return (size_t)-1;
}

/* The first idle GPU of node n, or -1. */
static int idle_gpu(const struct cplan *cp, const struct cnode *n)
{
	int g;
	for (g = 0; g < cp->p->classes[n->k].nc->gpus_per_node; g++)
		if (n->gpu_config[g] < 0)
			return g;
	return -1;
}

/*
 * Configures an idle GPU on an open node for d; the slot, or -1.  First
 * fit (the greedy planner's rule): the first node in opening order with an
 * idle GPU and room.  Cheapest (for what a deal of counts left over): the
 * node whose (class, mode) gives d's replicas the lowest cost each, the
 * first on a tie, so a replica the counts put on a full node moves onto an
 * idle GPU that needs no licence before one that does.
 */
/* The first node >= i with an idle GPU that is not passthrough (cp->nnodes: none). */
static size_t alive_from(struct cplan *cp, size_t i)
{
	size_t *nx = cp->memo->alive_next, r = i, t;

	while (r < cp->nnodes) {
		if (nx[r] == r) {
			const struct cnode *n = &cp->nodes[r];
			if (n->mode != MODE_PASSTHROUGH && idle_gpu(cp, n) >= 0)
				break;
			nx[r] = r + 1;	/* no idle GPU comes back: passed for good */
		}
		r = nx[r];
	}
	while (i != r) {	/* path compression */
		t = nx[i];
		nx[i] = r;
		i = t;
	}
	return r;
}

/*
 * First fit of a GPU to configure for d: the first node in opening order
 * with an idle GPU, room and a configuration for d.  A node passed for d
 * stays of no use to d until a slot is emptied (nodes only fill up), so
 * the scan goes on from where it stopped for the same d.
 */
static size_t first_fit_gpu(struct cplan *cp, int d)
{
	struct cplan_memo *mo = cp->memo;
	const struct workload *w = cp->p->demands[d].w;
	struct tier_cursor own = { mo->gd, mo->gepoch, mo->gpos };
	struct tier_cursor *cur = greedy_tier < 0 ? &own : &tier_cur[greedy_tier];
	size_t ni = 0, s = (size_t)-1;
	int best = -1;

	if (cur->d == d && cur->epoch == mo->epoch)
		ni = cur->pos;
	for (ni = alive_from(cp, ni); ni < cp->nnodes; ni = alive_from(cp, ni + 1)) {
		struct cnode *n = &cp->nodes[ni];
		if (!tier_allows(n->mode) || !cplan_node_has_room(cp, n, w))
			continue;
		best = config_cached(cp, d, n->k, n->mode, cplan_node_key(cp, n), NULL);
		if (best < 0)
			continue;
		break;
	}
	cur->d = d;
	cur->epoch = mo->epoch;
	cur->pos = ni;
	if (cur == &own) {
		mo->gd = own.d;
		mo->gepoch = own.epoch;
		mo->gpos = own.pos;
	}
	if (ni < cp->nnodes) {
		cplan_configure_gpu(cp, (int)ni, idle_gpu(cp, &cp->nodes[ni]), best);
		s = find_free_tier(cp, d);
	}
	return s;
}

static size_t open_gpu_for(struct cplan *cp, int d, int cheapest)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t ni, nkm = p->nclasses * MODE_COUNT;
	double *per = NULL, bper = 0;
	int *cfg = NULL, bnode = -1, bcfg = -1;

	if (!cheapest)
		return first_fit_gpu(cp, d);
	{
		size_t k;
		per = xmalloc((nkm + 1) * sizeof(*per));
		cfg = xmalloc((nkm + 1) * sizeof(*cfg));
		for (k = 0; k < nkm; k++)
			cfg[k] = -2; /* not computed yet */
	}
	for (ni = 0; ni < cp->nnodes; ni++) {
		struct cnode *n = &cp->nodes[ni];
		int g, best, key;
		double cost = 0;
		if (n->mode == MODE_PASSTHROUGH || n->pattern >= 0 || !cplan_node_has_room(cp, n, w))
			continue;
		g = idle_gpu(cp, n);
		if (g < 0)
			continue;
		key = cplan_node_key(cp, n);
		if (key) {	/* the node's key narrows the choice: not cached */
			best = config_for(p, d, n->k, n->mode, key, &cost);
		} else {
			size_t km = (size_t)n->k * MODE_COUNT + n->mode;
			if (cfg[km] == -2)
				cfg[km] = config_for(p, d, n->k, n->mode, 0, &per[km]);
			best = cfg[km];
			cost = per[km];
		}
		if (best >= 0 && (bnode < 0 || cost < bper - 1e-9)) {
			bnode = (int)ni;
			bcfg = best;
			bper = cost;
		}
	}
	free(per);
	free(cfg);
	if (bnode < 0)
		return (size_t)-1;
	cplan_configure_gpu(cp, bnode, idle_gpu(cp, &cp->nodes[bnode]), bcfg);
	return cplan_find_free(cp, d);
}

/*
 * What a new node of class k, its GPUs in configuration cf (fit slots
 * each for d), costs per replica of d it can hold: no more than its
 * GPUs' slots, nor than its CPU and RAM take (cheapest_node has checked
 * that they take one).
 */
static double node_per_replica(const struct problem *p, int d, int k, const struct config *cf, int fit)
{
	const struct workload *w = p->demands[d].w;
	const struct pclass *c = &p->classes[k];
	double n = (double)fit * c->nc->gpus_per_node;

	if (w->cpu_cores > 0)
		n = fmin(n, floor(c->nc->cpu_cores / w->cpu_cores + 1e-9));
	if (w->ram_gib > 0)
		n = fmin(n, floor(c->nc->ram_gib / w->ram_gib + 1e-9));
	return (c->node_cost + p->tiebreak + ceil(n / fit) * cf->cost) / n;
}

/*
 * The (class, configuration) whose new node costs least per replica of
 * d, in *bk and *bc (-1: none), among the configurations of the tier's
 * modes; left as in open_node_for.  Within a tier the cost counts the
 * replicas a node's CPU and RAM hold (node_per_replica), not only its
 * GPUs' slots, so a replica asking much RAM does not open a node that
 * holds few of it when another holds more for less.
 */
static void cheapest_node(const struct cplan *cp, int d, long left, int *bk_out, int *bc_out)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	int bk = -1, bc = -1;
	double bcost = 0;
	size_t k, ci;
	long ncap = problem_dom_cap(p, d, SPREAD_NODE, !cp->no_avail_caps);

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		int g = c->nc->gpus_per_node;
		if (cp->opened[k] >= c->nc->count || w->cpu_cores > c->nc->cpu_cores ||
		    w->ram_gib > c->nc->ram_gib || !cplan_caps_class(cp, d, (int)k))
			continue;
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			int fit = tier_allows(cf->mode) ? cplan_fit_count(p, d, (int)k, cf) : 0;
			double per;
			if (!fit)
				continue;
			{
				size_t j;
				double ac = 0;
				for (j = 0; j < cf->nslots; j++)
					if (cplan_arc_cost(p, d, (int)k, cf->slot[j]) > ac)
						ac = cplan_arc_cost(p, d, (int)k, cf->slot[j]);
				if (left > 0) {
					/* the node is bought for the `left` replicas of d, not filled */
					long take = cf->node_pattern ? fit : (long)fit * g, used;
					if (take > left)
						take = left;
					if (take > ncap)	/* d's node cap: the rest goes elsewhere */
						take = ncap;
					used = cf->node_pattern ? 1 : (take + fit - 1) / fit; /* patterns: per node */
					per = (c->node_cost + p->tiebreak + (double)used * cf->cost) / (double)take + ac;
				} else if (cf->node_pattern) {
					per = (c->node_cost + p->tiebreak + cf->cost) / fit + ac;
				} else if (greedy_tier >= 0) {
					per = node_per_replica(p, d, (int)k, cf, fit) + ac;
				} else {
					per = ((c->node_cost + p->tiebreak) / g + cf->cost) / fit + ac;
				}
			}
			if (bk < 0 || per < bcost - 1e-9) {
				bk = (int)k;
				bc = (int)ci;
				bcost = per;
			}
		}
	}
	*bk_out = bk;
	*bc_out = bc;
}

/*
 * Opens the node (class, mode, configuration) cheapest per replica of d.
 * For the first fit (left 0) outside a tier the choice depends only on d
 * and on which classes have every node opened, so it is kept while both
 * stay; within a tier (place_tiered) it is made afresh.
 */
static size_t open_node_for(struct cplan *cp, int d, long left)
{
	const struct problem *p = cp->p;
	struct cplan_memo *mo = cp->memo;
	int bk, bc, node;

	if (left > 0 || greedy_tier >= 0) {
		cheapest_node(cp, d, left, &bk, &bc);
	} else {
		if (mo->nd != d || mo->nd_full != mo->nfull || (mo->bk >= 0 && !cplan_caps_class(cp, d, mo->bk))) {
			cheapest_node(cp, d, 0, &mo->bk, &mo->bc);
			mo->nd = d;
			mo->nd_full = mo->nfull;
		}
		bk = mo->bk;
		bc = mo->bc;
	}
	if (bk < 0)
		return (size_t)-1;
	if (p->classes[bk].configs[bc].node_pattern) {
		node = cplan_open_node(cp, bk, p->classes[bk].configs[bc].mode, bc);
	} else {
		node = cplan_open_node(cp, bk, p->classes[bk].configs[bc].mode, -1);
		cplan_configure_gpu(cp, node, 0, bc);
	}
	return find_free_tier(cp, d);
}

static _Thread_local const struct problem *sort_problem; /* par_run threads deal at once */
static _Thread_local size_t *sort_options;

static _Thread_local int sort_by_priority;

/*
 * With sort_by_priority, higher priority first (the lexicographic rule
 * of docs/formulation.md: no replica waits for one of a lower
 * priority).  Then most constrained first (fewest node classes that can
 * host it), then first-fit decreasing: more GPUs, more memory, more
 * compute first, then higher priority.
 */
static int demand_order(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct workload *x = sort_problem->demands[i].w;
	const struct workload *y = sort_problem->demands[j].w;
	if (sort_by_priority && x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	if (sort_options[i] != sort_options[j])
		return sort_options[i] < sort_options[j] ? -1 : 1;
	if (x->gpus != y->gpus)
		return x->gpus > y->gpus ? -1 : 1;
	if (x->gpu_mem_gib != y->gpu_mem_gib)
		return x->gpu_mem_gib > y->gpu_mem_gib ? -1 : 1;
	if (x->compute != y->compute)
		return x->compute > y->compute ? -1 : 1;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/* True when node n (passthrough) has at least `want` GPUs holding nothing. */
static int idle_gpus(const struct cplan *cp, const struct cnode *n, int want)
{
	int g, idle = 0;

	for (g = 0; g < cp->p->classes[n->k].nc->gpus_per_node; g++)
		idle += n->gpu_used[g] == 0;
	return idle >= want;
}

/*
 * For a replica of d asking whole GPUs: an open passthrough node split
 * into GPU groups (a node pattern) whose idle GPUs hold no group of d's
 * size is split anew by another pattern of its class that keeps its
 * groups in use and offers d a group (cplan_node_resplit); the first such
 * node and pattern, in order.  A free slot for d, or (size_t)-1.  A split
 * whose free groups still hold none for d (the pattern's groups of d's
 * size are those in use) stays: it changes no cost.
 */
static size_t resplit_for(struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t ni, ci;

	for (ni = 0; ni < cp->nnodes; ni++) {
		const struct cnode *n = &cp->nodes[ni];
		const struct pclass *c = &p->classes[n->k];
		if (n->mode != MODE_PASSTHROUGH || n->pattern < 0 || !idle_gpus(cp, n, w->gpus) ||
		    !cplan_node_has_room(cp, n, w))
			continue;
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			size_t s;
			if ((int)ci == n->pattern || cf->mode != MODE_PASSTHROUGH || !cf->node_pattern ||
			    !cplan_fit_count(p, d, n->k, cf) || cplan_node_resplit(cp, (int)ni, (int)ci))
				continue;
			s = find_free_tier(cp, d);
			if (s != (size_t)-1)
				return s;
		}
	}
	return (size_t)-1;
}

/*
 * A slot for one more replica of d in the least isolating mode that has
 * one, tier by tier (mode_level) from `first` up to `top` (a tier takes
 * the modes of the tiers below it too): a free slot, else (passthrough,
 * whole GPUs) an open node split anew (resplit_for), else a new GPU of an
 * open node, else a new node, all in that tier's modes.  A tier set
 * in *failed is skipped: it failed for an earlier replica of d, and
 * nothing frees in between (slots and nodes only fill up); one that fails
 * here is set.  (size_t)-1 when none.
 */
static size_t place_tiered(struct cplan *cp, int d, int first, int top, unsigned *failed)
{
	size_t s = (size_t)-1;
	int t;

	for (t = first; t <= top && s == (size_t)-1; t++) {
		if (*failed & (1u << t))
			continue;
		greedy_tier = t;
		s = find_free_tier(cp, d);
		if (s == (size_t)-1 && t == GREEDY_TIERS - 1 && cp->p->demands[d].w->gpus > 0)
			s = resplit_for(cp, d);
		if (s == (size_t)-1)
			s = first_fit_gpu(cp, d);
		if (s == (size_t)-1)
			s = open_node_for(cp, d, 0);
		if (s == (size_t)-1)
			*failed |= 1u << t;
	}
	greedy_tier = -1;
	return s;
}

/*
 * A slot for one more replica of d: a free one, else a new GPU, else a new
 * node; -1 when none.  left: 0 for the greedy planner's first fit; else
 * the replicas of d still to place, for the cheapest GPU and node for
 * them (what a deal of counts left over).
 */
size_t cplan_place_one(struct cplan *cp, int d, long left)
{
	size_t s = cplan_place_opened(cp, d, left);
	if (s == (size_t)-1)
		s = open_node_for(cp, d, left);
	return s;
}

size_t cplan_place_opened(struct cplan *cp, int d, long left)
{
	size_t s = cplan_find_free(cp, d);
	if (s == (size_t)-1)
		s = open_gpu_for(cp, d, left > 0);
	return s;
}

/*
 * The greedy pass's orders: first-fit decreasing (most constrained
 * first); highest priority first; and highest priority first in
 * place_sweeps, by isolation tiers (TIERED) or whole GPUs deferred only
 * (DEFERRED).
 */
enum greedy_how { GREEDY_FIT, GREEDY_PRIORITY, GREEDY_TIERED, GREEDY_DEFERRED };

static void place_ordered(struct cplan *cp, const long *add, enum greedy_how how);

/*
 * Places add into a new plan by `how` and keeps it in *cp when it is
 * better by the priority rule, then by cost; 0 when the pass was cut
 * short (the plan *cp stands).
 */
static int try_order(struct cplan *cp, const long *add, enum greedy_how how)
{
	struct cplan alt;
	struct cplan_cost a, b;

	cplan_init(&alt, cp->p);
	alt.deadline = cp->deadline;
	alt.keep_s = cp->keep_s;
	alt.keep_ctx = cp->keep_ctx;
	place_ordered(&alt, add, how);
	if (alt.stopped) {
		cplan_release(&alt);
		return 0;
	}
	cplan_cost(cp, &a);
	cplan_cost(&alt, &b);
	if (cplan_better(&alt, &b, cp, &a)) {
		struct cplan x = *cp;
		*cp = alt;
		alt = x;
	}
	cplan_release(&alt);
	return 1;
}

void cplan_greedy_add(struct cplan *cp, const long *add)
{
	place_ordered(cp, add, GREEDY_FIT);
	if (!cplan_unplaced_count(cp) || cp->stopped || !try_order(cp, add, GREEDY_PRIORITY))
		return;
	if (cplan_unplaced_count(cp) && try_order(cp, add, GREEDY_TIERED))
		try_order(cp, add, GREEDY_DEFERRED);
}

void cplan_greedy(struct cplan *cp)
{
	const struct problem *p = cp->p;
	long *all = xmalloc((p->ndemands + 1) * sizeof(*all));
	size_t i;

	for (i = 0; i < p->ndemands; i++)
		all[i] = p->demands[i].replicas;
	cplan_greedy_add(cp, all);
	free(all);
}

/* Demands by CPU, then RAM per replica, decreasing; then in index order. */
static int demand_load_order(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct workload *x = sort_problem->demands[i].w, *y = sort_problem->demands[j].w;
	if (x->cpu_cores != y->cpu_cores)
		return x->cpu_cores > y->cpu_cores ? -1 : 1;
	if (x->ram_gib != y->ram_gib)
		return x->ram_gib > y->ram_gib ? -1 : 1;
	return (i > j) - (i < j);
}

/* The demands in demand_load_order; caller frees. */
size_t *cplan_demands_by_load(const struct problem *p)
{
	size_t *ord = xmalloc((p->ndemands + 1) * sizeof(*ord)), i;

	for (i = 0; i < p->ndemands; i++)
		ord[i] = i;
	sort_problem = p; /* not left over from another problem's greedy pass */
	qsort(ord, p->ndemands, sizeof(*ord), demand_load_order);
	return ord;
}

void cplan_place_more(struct cplan *cp, const long *add)
{
	place_ordered(cp, add, GREEDY_FIT);
}

void cplan_place_more_tiered(struct cplan *cp, const long *add)
{
	place_ordered(cp, add, GREEDY_TIERED);
}

/*
 * What stops the greedy pass before its next replica, or CPLAN_RUN: a
 * signal (first: the run ends on it whatever the clock says), the
 * deadline passed, or what is left of it is no more than what the run
 * keeps for after the pass (cplan.keep_s; not under the test hook).
 */
static enum cplan_stop greedy_must_stop(struct cplan *cp)
{
	if (interrupt_pending())
		return CPLAN_STOP_SIGNAL;
	if (deadline_passed(cp->deadline))
		return CPLAN_STOP_DEADLINE;
	if (cp->keep_s && cp->deadline && cp->deadline->expire_polls < 0 &&
	    deadline_left(cp->deadline) <= cp->keep_s(cp, cp->keep_ctx))
		return CPLAN_STOP_DEADLINE;
	return CPLAN_RUN;
}

/* The replicas of d a cut of the pass leaves: unplaced, not attempted; cp->stopped says what cut it. */
static void greedy_cut(struct cplan *cp, int d, long n)
{
	cp->unplaced[d] += n;
	cp->not_attempted += n;
	if (cp->reason[d])
		return;
	if (cp->stopped == CPLAN_STOP_SIGNAL)
		cp->reason[d] = xasprintf("stopped by %s before it was placed", interrupt_signame(interrupt_pending()));
	else
		cp->reason[d] = xstrdup("stopped by the time limit before it was placed");
}

/* Places up to n replicas of d with place_tiered from `first` up to `top`; the replicas not placed. */
static long sweep_one(struct cplan *cp, int d, long n, int first, int top)
{
	unsigned failed = 0;
	long r;

	for (r = 0; r < n; r++) {
		size_t s;
		cp->stopped = greedy_must_stop(cp);
		if (cp->stopped)
			return n - r;
		s = place_tiered(cp, d, first, top, &failed);
		if (s == (size_t)-1)
			return n - r;
		cplan_place_at(cp, s, d);
	}
	return 0;
}

/*
 * Places add[d] replicas of every demand in `order` (highest priority
 * first), one priority at a time, in two sweeps: first each replica, a
 * fraction of a GPU never on a whole GPU (passthrough) and, with
 * `tiered`, in the least isolating mode that has a slot for it
 * (place_tiered); then what the first left, a whole GPU allowed.  So a
 * replica that needs no isolation does not take the MIG slice another
 * replica needs, and a small replica takes a whole GPU only once the
 * other replicas of its priority have their slots.
 */
static void place_sweeps(struct cplan *cp, const long *add, const int *order, int tiered)
{
	const struct problem *p = cp->p;
	long *left = xcalloc(p->ndemands + 1, sizeof(*left));
	size_t i, j, g;
	int sweep;

	memset(tier_cur, 0, sizeof(tier_cur));
	for (i = 0; i < GREEDY_TIERS; i++)
		tier_cur[i].d = -1;
	for (i = 0; i < p->ndemands; i++)
		left[i] = add[i] > 0 && !p->demands[i].unhostable ? add[i] : 0;
	for (g = 0; g < p->ndemands; g = j) {
		for (j = g; j < p->ndemands && p->demands[order[j]].w->priority == p->demands[order[g]].w->priority; j++)
			;
		for (sweep = 0; sweep < 2; sweep++)
			for (i = g; i < j; i++) {
				int d = order[i], whole = p->demands[d].w->gpus > 0;
				int top = sweep || whole ? GREEDY_TIERS - 1 : GREEDY_TIERS - 2;
				if (left[d] <= 0 || cp->stopped || (sweep && whole))
					continue;
				left[d] = sweep_one(cp, d, left[d], tiered ? 0 : top, top);
			}
	}
	for (i = 0; i < p->ndemands; i++) {
		int d = order[i];
		if (add[d] <= 0)
			continue;
		if (p->demands[d].unhostable) {
			cp->unplaced[d] += add[d];
			cplan_set_reason(cp, d);
		} else if (left[d] > 0 && cp->stopped) {
			greedy_cut(cp, d, left[d]);
		} else if (left[d] > 0) {
			cp->unplaced[d] += left[d];
			cplan_set_reason(cp, d);
		}
	}
	free(left);
}

/* Places add[d] replicas of every demand in `order`, each demand's replicas in turn. */
static void place_plain(struct cplan *cp, const long *add, const int *order)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		int d = order[i];
		long r;
		if (add[d] <= 0)
			continue;
		if (cp->stopped) {
			greedy_cut(cp, d, add[d]);
			continue;
		}
		if (p->demands[d].unhostable) {
			cp->unplaced[d] += add[d];
			cplan_set_reason(cp, d);
			continue;
		}
		for (r = 0; r < add[d]; r++) {
			size_t s;
			cp->stopped = greedy_must_stop(cp);
			if (cp->stopped) {
				greedy_cut(cp, d, add[d] - r);
				break;
			}
			s = cplan_place_one(cp, d, 0);
			if (s == (size_t)-1) {
				cp->unplaced[d] += add[d] - r;
				cplan_set_reason(cp, d);
				break;
			}
			cplan_place_at(cp, s, d);
		}
	}
}

/*
 * Places add[d] more replicas of every demand d, in demand_order (by
 * priority first unless `how` is GREEDY_FIT), each demand in turn or, for
 * GREEDY_TIERED, in place_sweeps.
 */
static void place_ordered(struct cplan *cp, const long *add, enum greedy_how how)
{
	const struct problem *p = cp->p;
	int *order = xmalloc((p->ndemands ? p->ndemands : 1) * sizeof(*order));
	size_t *options = xcalloc(p->ndemands + 1, sizeof(*options));
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		size_t lo, hi, j;
		int last = -1;
		order[i] = (int)i;
		problem_arcs_of(p, (int)i, &lo, &hi);
		for (j = lo; j < hi; j++) {
			if (p->arcs[j].k != last)
				options[i]++;
			last = p->arcs[j].k;
		}
	}
	sort_problem = p;
	sort_options = options;
	sort_by_priority = how != GREEDY_FIT;
	qsort(order, p->ndemands, sizeof(*order), demand_order);
	free(options);
	if (how == GREEDY_TIERED || how == GREEDY_DEFERRED)
		place_sweeps(cp, add, order, how == GREEDY_TIERED);
	else
		place_plain(cp, add, order);
	free(order);
	cplan_caps_trim(cp);
}
