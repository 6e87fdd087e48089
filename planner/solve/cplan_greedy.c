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

#include "cplan.h"
#include "internal/cplan_engine.h"
#include "internal/cplan_greedy.h"
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
static size_t open_gpu_for(struct cplan *cp, int d, int cheapest)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t ni, nkm = p->nclasses * MODE_COUNT;
	double *per = NULL, bper = 0;
	int *cfg = NULL, bnode = -1, bcfg = -1;

	if (cheapest) {
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
		if (n->mode == MODE_PASSTHROUGH || !cplan_node_has_room(cp, n, w))
			continue;
		g = idle_gpu(cp, n);
		if (g < 0)
			continue;
		key = cplan_node_key(cp, n);
		if (!cheapest) {
			best = config_for(p, d, n->k, n->mode, key, NULL);
			if (best < 0)
				continue;
			cplan_configure_gpu(cp, (int)ni, g, best);
			return cplan_find_free(cp, d);
		}
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

/* Opens the node (class, mode, configuration) cheapest per replica of d. */
static size_t open_node_for(struct cplan *cp, int d, long left)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	int bk = -1, bc = -1;
	double bcost = 0;
	size_t k, ci;
	int node;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		int g = c->nc->gpus_per_node;
		if (cp->opened[k] >= c->nc->count || w->cpu_cores > c->nc->cpu_cores ||
		    w->ram_gib > c->nc->ram_gib)
			continue;
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			int fit = cplan_fit_count(p, d, (int)k, cf);
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
					used = cf->node_pattern ? 0 : (take + fit - 1) / fit;
					per = (c->node_cost + p->tiebreak + (double)used * cf->cost) / (double)take + ac;
				} else if (cf->node_pattern) {
					per = (c->node_cost + p->tiebreak) / fit + ac;
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
	if (bk < 0)
		return (size_t)-1;
	if (p->classes[bk].configs[bc].node_pattern) {
		node = cplan_open_node(cp, bk, MODE_PASSTHROUGH, bc);
	} else {
		node = cplan_open_node(cp, bk, p->classes[bk].configs[bc].mode, -1);
		cplan_configure_gpu(cp, node, 0, bc);
	}
	return cplan_find_free(cp, d);
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

/*
 * "not enough capacity: every node it fits on is in use", and the node
 * that comes nearest: the one of a class d may use with the most GPUs
 * holding nothing, what mode it is in, and what d needs (whole GPUs, or
 * a slot of a mode the node is not in).
 */
static char *nearest_node(const struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t lo, hi, i, best = (size_t)-1;
	int best_idle = -1, mode_ok = 0, g;
	char *name, *out;

	cplan_arcs_of(p, d, &lo, &hi);
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		int idle = 0, allowed = 0;
		size_t a;
		for (a = lo; a < hi; a++)
			allowed |= p->arcs[a].k == n->k;
		if (!allowed)
			continue;
		for (g = 0; g < p->classes[n->k].nc->gpus_per_node; g++)
			idle += n->gpu_used[g] == 0;
		if (idle > best_idle) {
			best_idle = idle;
			best = i;
		}
	}
	if (best == (size_t)-1 || best_idle == 0)
		return xstrdup("not enough capacity: every node it fits on is in use, with no GPU idle");
	for (i = lo; i < hi; i++)
		if (p->arcs[i].k == cp->nodes[best].k &&
		    p->classes[p->arcs[i].k].slot_types[p->arcs[i].s].mode == cp->nodes[best].mode)
			mode_ok = 1;
	name = cplan_node_name(cp, &cp->nodes[best]);
	if (!mode_ok)
		out = xasprintf("not enough capacity: every node it fits on is in use; nearest: %s has %d of its %d GPUs "
				"idle but is in %s mode, which holds no slot for it", name, best_idle,
				p->classes[cp->nodes[best].k].nc->gpus_per_node, mode_name(cp->nodes[best].mode));
	else
		out = xasprintf("not enough capacity: every node it fits on is in use; nearest: %s (%s) has %d of its %d "
				"GPUs idle, it needs %d%s", name, mode_name(cp->nodes[best].mode), best_idle,
				p->classes[cp->nodes[best].k].nc->gpus_per_node, w->gpus > 0 ? w->gpus : 1,
				w->gpus > 1 ? " on one node" : " with a free slot");
	free(name);
	return out;
}

/* Why free capacity could not take a replica of d. */
void cplan_set_reason(struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	size_t lo, hi, i;
	int slot_left = 0;

	if (cp->reason[d])
		return;
	if (p->demands[d].unhostable) {
		cp->reason[d] = xstrdup(p->demands[d].unhostable);
		return;
	}
	cplan_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi && !slot_left; i++) {
		size_t *q = cplan_queue(cp, p->arcs[i].k, p->arcs[i].s), j;
		for (j = 0; j < cp->fqn[p->arcs[i].k][p->arcs[i].s]; j++)
			if (cp->slots[q[j]].d < 0)
				slot_left = 1;
	}
	cp->reason[d] = slot_left ? xstrdup("the nodes with a free slot it fits have no CPU or RAM left")
				  : nearest_node(cp, d);
}

/*
 * A slot for one more replica of d: a free one, else a new GPU, else a new
 * node; -1 when none.  left: 0 for the greedy planner's first fit; else
 * the replicas of d still to place, for the cheapest GPU and node for
 * them (what a deal of counts left over).
 */
size_t cplan_place_one(struct cplan *cp, int d, long left)
{
	size_t s = cplan_find_free(cp, d);
	if (s == (size_t)-1)
		s = open_gpu_for(cp, d, left > 0);
	if (s == (size_t)-1)
		s = open_node_for(cp, d, left);
	return s;
}

static void place_ordered(struct cplan *cp, const long *add, int by_priority);

void cplan_greedy_add(struct cplan *cp, const long *add)
{
	const struct problem *p = cp->p;
	struct cplan alt;
	struct cplan_cost a, b;
	size_t i;
	long left = 0;

	place_ordered(cp, add, 0);
	for (i = 0; i < p->ndemands; i++)
		left += cp->unplaced[i];
	if (!left)
		return;
	cplan_init(&alt, p);
	place_ordered(&alt, add, 1);
	cplan_cost(cp, &a);
	cplan_cost(&alt, &b);
	if (cplan_better(&alt, &b, cp, &a)) {
		struct cplan x = *cp;
		*cp = alt;
		alt = x;
	}
	cplan_release(&alt);
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
	place_ordered(cp, add, 0);
}

/* Places add[d] more replicas of every demand d, in demand_order. */
static void place_ordered(struct cplan *cp, const long *add, int by_priority)
{
	const struct problem *p = cp->p;
	int *order = xmalloc((p->ndemands ? p->ndemands : 1) * sizeof(*order));
	size_t *options = xcalloc(p->ndemands + 1, sizeof(*options));
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		size_t lo, hi, j;
		int last = -1;
		order[i] = (int)i;
		cplan_arcs_of(p, (int)i, &lo, &hi);
		for (j = lo; j < hi; j++) {
			if (p->arcs[j].k != last)
				options[i]++;
			last = p->arcs[j].k;
		}
	}
	sort_problem = p;
	sort_options = options;
	sort_by_priority = by_priority;
	qsort(order, p->ndemands, sizeof(*order), demand_order);
	free(options);
	for (i = 0; i < p->ndemands; i++) {
		int d = order[i];
		long r;
		if (add[d] <= 0)
			continue;
		if (p->demands[d].unhostable) {
			cp->unplaced[d] += add[d];
			cplan_set_reason(cp, d);
			continue;
		}
		for (r = 0; r < add[d]; r++) {
			size_t s = cplan_place_one(cp, d, 0);
			if (s == (size_t)-1) {
				cp->unplaced[d] += add[d] - r;
				cplan_set_reason(cp, d);
				break;
			}
			cplan_place_at(cp, s, d);
		}
	}
	free(order);
}
