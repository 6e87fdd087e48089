/*
 * cplan.c - concrete plans: the placement engine shared by the greedy
 * planner and the disaggregation of ILP counts.
 *
 * Free slots wait in one FIFO queue per (class, slot type), in the order
 * they were created, so placement is first-fit and deterministic.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "util.h"
#include "banned.h"

void cplan_init(struct cplan *cp, const struct problem *p)
{
	size_t k, nd = p->ndemands ? p->ndemands : 1, nk = p->nclasses ? p->nclasses : 1;

	memset(cp, 0, sizeof(*cp));
	cp->p = p;
	cp->placed = xcalloc(nd, sizeof(*cp->placed));
	cp->unplaced = xcalloc(nd, sizeof(*cp->unplaced));
	cp->reason = xcalloc(nd, sizeof(*cp->reason));
	cp->opened = xcalloc(nk, sizeof(*cp->opened));
	cp->fq = xcalloc(nk, sizeof(*cp->fq));
	cp->fqn = xcalloc(nk, sizeof(*cp->fqn));
	cp->fqcap = xcalloc(nk, sizeof(*cp->fqcap));
	cp->fqhead = xcalloc(nk, sizeof(*cp->fqhead));
	for (k = 0; k < p->nclasses; k++) {
		size_t ns = p->classes[k].nslot_types ? p->classes[k].nslot_types : 1;
		cp->fq[k] = xcalloc(ns, sizeof(**cp->fq));
		cp->fqn[k] = xcalloc(ns, sizeof(**cp->fqn));
		cp->fqcap[k] = xcalloc(ns, sizeof(**cp->fqcap));
		cp->fqhead[k] = xcalloc(ns, sizeof(**cp->fqhead));
	}
}

void cplan_release(struct cplan *cp)
{
	size_t i, k;
	const struct problem *p = cp->p;

	if (!p)
		return;
	for (i = 0; i < cp->nnodes; i++) {
		free(cp->nodes[i].gpu_config);
		free(cp->nodes[i].gpu_used);
		free(cp->nodes[i].gpu_nvaie);
	}
	free(cp->nodes);
	free(cp->slots);
	for (i = 0; i < p->ndemands; i++)
		free(cp->reason[i]);
	free(cp->reason);
	free(cp->placed);
	free(cp->unplaced);
	free(cp->opened);
	for (k = 0; k < p->nclasses; k++) {
		size_t s;
		for (s = 0; s < p->classes[k].nslot_types; s++)
			free(cp->fq[k][s]);
		free(cp->fq[k]);
		free(cp->fqn[k]);
		free(cp->fqcap[k]);
		free(cp->fqhead[k]);
	}
	free(cp->fq);
	free(cp->fqn);
	free(cp->fqcap);
	free(cp->fqhead);
	memset(cp, 0, sizeof(*cp));
}

char *cplan_node_name(const struct cplan *cp, const struct cnode *n)
{
	return xasprintf("%s-%03d", cp->p->classes[n->k].nc->name, n->ordinal);
}

/* ================= slots and nodes ================= */

static size_t *queue(struct cplan *cp, int k, int s)
{
	return cp->fq[k][s];
}

static void queue_push(struct cplan *cp, int k, int s, size_t slot)
{
	XGROW(cp->fq[k][s], cp->fqcap[k][s], cp->fqn[k][s] + 1);
	cp->fq[k][s][cp->fqn[k][s]++] = slot;
}

/*
 * Drops the taken slots from the part of queue (k, s) still ahead of its
 * head, keeping the order of the free ones.  A slot freed later is queued
 * again (slot_clear), so none is lost.
 */
static void queue_compact(struct cplan *cp, int k, int s)
{
	size_t *q = cp->fq[k][s], i, j = cp->fqhead[k][s];

	for (i = j; i < cp->fqn[k][s]; i++)
		if (cp->slots[q[i]].d < 0)
			q[j++] = q[i];
	cp->fqn[k][s] = j;
}

static void add_slot(struct cplan *cp, int node, int gpu, int ngpus, int type, int mig_start)
{
	struct cslot *s;
	XGROW(cp->slots, cp->slotcap, cp->nslots + 1);
	s = &cp->slots[cp->nslots];
	s->node = node;
	s->gpu = gpu;
	s->ngpus = ngpus;
	s->type = type;
	s->mig_start = mig_start;
	s->d = -1;
	s->replica = 0;
	queue_push(cp, cp->nodes[node].k, cp->p->classes[cp->nodes[node].k].slot_types[type].rep, cp->nslots);
	cp->nslots++;
}

static int slot_type_find(const struct pclass *c, enum gpu_mode mode, enum lic_product lic, const char *name)
{
	size_t i;
	for (i = 0; i < c->nslot_types; i++)
		if (c->slot_types[i].mode == mode && c->slot_types[i].lic == lic &&
		    !strcmp(c->slot_types[i].name, name))
			return (int)i;
	return -1;
}

/* Opens a node of class k in mode m; for passthrough, split by pattern. */
static int open_node(struct cplan *cp, int k, enum gpu_mode m, int pattern)
{
	const struct pclass *c = &cp->p->classes[k];
	int g = c->nc->gpus_per_node, i, node;
	struct cnode *n;

	XGROW(cp->nodes, cp->nodecap, cp->nnodes + 1);
	node = (int)cp->nnodes++;
	n = &cp->nodes[node];
	memset(n, 0, sizeof(*n));
	n->k = k;
	n->ordinal = cp->opened[k]++;
	n->mode = m;
	n->pattern = pattern;
	n->gpu_config = xmalloc((size_t)g * sizeof(*n->gpu_config));
	n->gpu_used = xcalloc((size_t)g, sizeof(*n->gpu_used));
	n->gpu_nvaie = xcalloc((size_t)g, sizeof(*n->gpu_nvaie));
	for (i = 0; i < g; i++)
		n->gpu_config[i] = -1;
	if (m == MODE_PASSTHROUGH && pattern >= 0) {
		const struct config *cf = &c->configs[pattern];
		int next = 0;
		size_t j;
		/* groups largest first, on consecutive GPUs */
		for (j = 0; j < cf->nreal; j++) {
			const struct slot_type *st = &c->slot_types[cf->real_slot[j]];
			int r;
			for (r = 0; r < cf->real_count[j] && next + st->gpus <= g; r++) {
				add_slot(cp, node, next, st->gpus, cf->real_slot[j], -1);
				next += st->gpus;
			}
		}
	}
	return node;
}

/* Puts GPU gpu of node into configuration cfg and creates its slots. */
static void configure_gpu(struct cplan *cp, int node, int gpu, int cfg)
{
	struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct config *cf = &c->configs[cfg];
	const struct gpu_type *gt = c->nc->gpu;
	size_t j;
	int r;

	n->gpu_config[gpu] = cfg;
	switch (cf->mode) {
	case MODE_MIG:
	case MODE_MIG_VGPU:
		for (r = 0; r < cf->mig.n; r++) {
			const char *nm = gt->mig.profiles[cf->mig.profile[r]].name;
			int t;
			if (cf->mode == MODE_MIG_VGPU) {
				size_t v;
				for (v = 0; v < gt->vgpu.nmig; v++)
					if (gt->vgpu.mig_backed[v].gi_index == cf->mig.profile[r])
						break;
				nm = gt->vgpu.mig_backed[v].name;
			}
			t = slot_type_find(c, cf->mode, cf->lic, nm);
			if (t >= 0)
				add_slot(cp, node, gpu, 1, t, cf->mig.start[r]);
		}
		break;
	default:
		for (j = 0; j < cf->nreal; j++)
			for (r = 0; r < cf->real_count[j]; r++)
				add_slot(cp, node, gpu, 1, cf->real_slot[j], -1);
		break;
	}
}

static int node_has_room(const struct cplan *cp, const struct cnode *n, const struct workload *w)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;
	return n->cpu_used + w->cpu_cores <= nc->cpu_cores + 1e-9 &&
	       n->ram_used + w->ram_gib <= nc->ram_gib + 1e-9;
}

/* Puts replica `replica` of demand d into free slot `slot`, charging its node. */
static void slot_fill(struct cplan *cp, size_t slot, int d, long replica)
{
	struct cslot *s = &cp->slots[slot];
	struct cnode *n = &cp->nodes[s->node];
	const struct workload *w = cp->p->demands[d].w;
	int i;

	s->d = d;
	s->replica = replica;
	n->cpu_used += w->cpu_cores;
	n->ram_used += w->ram_gib;
	for (i = 0; i < s->ngpus; i++) {
		n->gpu_used[s->gpu + i]++;
		n->gpu_nvaie[s->gpu + i] += w->needs_nvaie;
	}
}

/*
 * Empties slot `slot` (the inverse of slot_fill) and queues it again: the
 * head of its queue may have passed it while it was taken.  A slot may so
 * be queued twice; every reader of a queue checks that a slot is free.
 */
static void slot_clear(struct cplan *cp, size_t slot)
{
	struct cslot *s = &cp->slots[slot];
	struct cnode *n = &cp->nodes[s->node];
	const struct workload *w = cp->p->demands[s->d].w;
	int i;

	n->cpu_used -= w->cpu_cores;
	n->ram_used -= w->ram_gib;
	for (i = 0; i < s->ngpus; i++) {
		n->gpu_used[s->gpu + i]--;
		n->gpu_nvaie[s->gpu + i] -= w->needs_nvaie;
	}
	s->d = -1;
	s->replica = 0;
	queue_push(cp, n->k, cp->p->classes[n->k].slot_types[s->type].rep, slot);
}

static void place(struct cplan *cp, size_t slot, int d)
{
	slot_fill(cp, slot, d, cp->placed[d]++);
}

/* First free slot of (k, s) on a node with room for w; (size_t)-1 if none. */
static size_t take_free(struct cplan *cp, int k, int s, const struct workload *w)
{
	size_t *q = queue(cp, k, s);
	size_t i, n = cp->fqn[k][s];

	while (cp->fqhead[k][s] < n && cp->slots[q[cp->fqhead[k][s]]].d >= 0)
		cp->fqhead[k][s]++;
	for (i = cp->fqhead[k][s]; i < n; i++) {
		const struct cslot *sl = &cp->slots[q[i]];
		if (sl->d < 0 && node_has_room(cp, &cp->nodes[sl->node], w))
			return q[i];
	}
	return (size_t)-1;
}

/* Range of arcs of demand d. */
static void arcs_of(const struct problem *p, int d, size_t *lo, size_t *hi)
{
	size_t a = 0, b = p->narcs;
	while (a < b) {
		size_t mid = (a + b) / 2;
		if (p->arcs[mid].d < d)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	while (a < p->narcs && p->arcs[a].d == d)
		a++;
	*hi = a;
}

static size_t find_free(struct cplan *cp, int d)
{
	size_t lo, hi, i;
	arcs_of(cp->p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		size_t s = take_free(cp, cp->p->arcs[i].k, cp->p->arcs[i].s, cp->p->demands[d].w);
		if (s != (size_t)-1)
			return s;
	}
	return (size_t)-1;
}

/* Slots of configuration cf that demand d can use. */
static int fit_count(const struct problem *p, int d, int k, const struct config *cf)
{
	size_t lo, hi, i, j;
	int n = 0;
	arcs_of(p, d, &lo, &hi);
	for (j = 0; j < cf->nslots; j++)
		for (i = lo; i < hi; i++)
			if (p->arcs[i].k == k && p->arcs[i].s == cf->slot[j])
				n += cf->count[j];
	return n;
}

static double arc_cost(const struct problem *p, int d, int k, int s)
{
	size_t lo, hi, i;
	arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++)
		if (p->arcs[i].k == k && p->arcs[i].s == s)
			return p->arcs[i].cost;
	return 0;
}

/* ================= greedy ================= */

/*
 * The configuration of class k in mode m that takes the most replicas of d
 * (the cheaper on a tie), -1 when none does; *per is what a replica of d
 * costs on it: the GPU's share plus the dearest arc among its slots.
 */
static int config_for(const struct problem *p, int d, int k, enum gpu_mode m, double *per)
{
	const struct pclass *c = &p->classes[k];
	int best = -1, bestfit = 0;
	size_t ci, j;

	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		int fit;
		if (cf->mode != m || cf->node_pattern)
			continue;
		fit = fit_count(p, d, k, cf);
		if (fit > bestfit || (fit == bestfit && fit > 0 && cf->cost < c->configs[best].cost)) {
			best = (int)ci;
			bestfit = fit;
		}
	}
	if (best >= 0 && per) {
		const struct config *cf = &c->configs[best];
		double ac = 0;
		for (j = 0; j < cf->nslots; j++)
			ac = fmax(ac, arc_cost(p, d, k, cf->slot[j]));
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
		int g, best;
		double cost = 0;
		if (n->mode == MODE_PASSTHROUGH || !node_has_room(cp, n, w))
			continue;
		g = idle_gpu(cp, n);
		if (g < 0)
			continue;
		if (!cheapest) {
			best = config_for(p, d, n->k, n->mode, NULL);
			if (best < 0)
				continue;
			configure_gpu(cp, (int)ni, g, best);
			return find_free(cp, d);
		}
		{
			size_t km = (size_t)n->k * MODE_COUNT + n->mode;
			if (cfg[km] == -2)
				cfg[km] = config_for(p, d, n->k, n->mode, &per[km]);
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
	configure_gpu(cp, bnode, idle_gpu(cp, &cp->nodes[bnode]), bcfg);
	return find_free(cp, d);
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
			int fit = fit_count(p, d, (int)k, cf);
			double per;
			if (!fit)
				continue;
			{
				size_t j;
				double ac = 0;
				for (j = 0; j < cf->nslots; j++)
					if (arc_cost(p, d, (int)k, cf->slot[j]) > ac)
						ac = arc_cost(p, d, (int)k, cf->slot[j]);
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
		node = open_node(cp, bk, MODE_PASSTHROUGH, bc);
	} else {
		node = open_node(cp, bk, p->classes[bk].configs[bc].mode, -1);
		configure_gpu(cp, node, 0, bc);
	}
	return find_free(cp, d);
}

static _Thread_local const struct problem *sort_problem; /* par_run threads deal at once */
static _Thread_local size_t *sort_options;

/*
 * Most constrained first (fewest node classes that can host it), then
 * first-fit decreasing: more GPUs, more memory, more compute first.
 */
static int demand_order(const void *a, const void *b)
{
	int i = *(const int *)a, j = *(const int *)b;
	const struct workload *x = sort_problem->demands[i].w;
	const struct workload *y = sort_problem->demands[j].w;
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

/* Why free capacity could not take a replica of d. */
static void set_reason(struct cplan *cp, int d)
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
	arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi && !slot_left; i++) {
		size_t *q = queue(cp, p->arcs[i].k, p->arcs[i].s), j;
		for (j = 0; j < cp->fqn[p->arcs[i].k][p->arcs[i].s]; j++)
			if (cp->slots[q[j]].d < 0)
				slot_left = 1;
	}
	cp->reason[d] = xstrdup(slot_left ? "the nodes with a free slot it fits have no CPU or RAM left"
					  : "not enough capacity: every node it fits on is in use");
}

/*
 * A slot for one more replica of d: a free one, else a new GPU, else a new
 * node; -1 when none.  left: 0 for the greedy planner's first fit; else
 * the replicas of d still to place, for the cheapest GPU and node for
 * them (what a deal of counts left over).
 */
static size_t place_one(struct cplan *cp, int d, long left)
{
	size_t s = find_free(cp, d);
	if (s == (size_t)-1)
		s = open_gpu_for(cp, d, left > 0);
	if (s == (size_t)-1)
		s = open_node_for(cp, d, left);
	return s;
}

void cplan_greedy(struct cplan *cp)
{
	const struct problem *p = cp->p;
	long *all = xmalloc((p->ndemands + 1) * sizeof(*all));
	size_t i;

	for (i = 0; i < p->ndemands; i++)
		all[i] = p->demands[i].replicas;
	cplan_place_more(cp, all);
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
static size_t *demands_by_load(const struct problem *p)
{
	size_t *ord = xmalloc((p->ndemands + 1) * sizeof(*ord)), i;

	for (i = 0; i < p->ndemands; i++)
		ord[i] = i;
	sort_problem = p; /* not left over from another problem's greedy pass */
	qsort(ord, p->ndemands, sizeof(*ord), demand_load_order);
	return ord;
}

/*
 * ================= repair: ejection chains =================
 *
 * Places a replica that found no slot with the CPU and RAM it asks by
 * moving others out of its way, within the slots the plan has (no GPU
 * is configured and no node opened here):
 *
 *  - a free slot it fits, on a node with room: taken directly;
 *  - a free slot it fits on a node short of CPU or RAM: some replicas of
 *    that node move elsewhere first (their own homes found the same way,
 *    REPAIR_DEPTH levels deep, never back onto a node being cleared);
 *  - a slot it fits held by another demand's replica, on a node that has
 *    room once that replica is gone: that replica moves elsewhere first.
 *
 * Moves keep the replica's number, are logged, and are undone when the
 * chain fails, so a failed attempt leaves the plan as it was.  Searches
 * are charged a step per slot they look at, within a budget per replica
 * and per pass: the time stays bounded and the result does not depend on
 * the machine.
 */
#define REPAIR_DEPTH 2		  /* levels of moves behind the replica placed */
#define REPAIR_MAX_EVICT 3	  /* replicas moved off one node to make room */
#define REPAIR_TRIES 4		  /* replicas tried per eviction, nodes per replica moved */
#define REPAIR_STEPS 50000L	  /* per replica placed */
#define REPAIR_TOTAL 2000000L	  /* per pass */

struct repair_move {
	size_t from, to;
};

/* A candidate slot and how good it is (smaller first). */
struct repair_cand {
	double key;
	size_t slot;
};

/* Nodes a chain must not move replicas onto: the ones it is clearing. */
struct repair_forbid {
	int node[REPAIR_DEPTH + 1];
	int n;
};

struct repair {
	struct cplan *cp;
	size_t *first;			/* slots of node i: byslot[first[i]] .. byslot[first[i + 1] - 1] */
	size_t *byslot;
	size_t *kfirst;			/* nodes of class k: bynode[kfirst[k]] .. bynode[kfirst[k + 1] - 1] */
	size_t *bynode;
	unsigned *seen;			/* per node: the search that last considered it */
	unsigned search;		/* the current search */
	struct repair_move *log;	/* the moves of the chain being built */
	size_t nlog, logcap;
	struct repair_cand *cand[2 * REPAIR_DEPTH + 2];	/* scratch: [2 * depth] find_home, [+ 1] make_room */
	size_t ncandcap[2 * REPAIR_DEPTH + 2];
	long steps;			/* left for the current replica */
	long total;			/* left for the pass */
};

/*
 * Counting sort: the indices 0 .. n - 1 grouped by key[i] (< nkeys), in
 * index order within a group; group g is by[first[g]] .. by[first[g + 1] - 1].
 * Caller frees *first and *by.
 */
static void group_by(const size_t *key, size_t n, size_t nkeys, size_t **first, size_t **by)
{
	size_t *f = xcalloc(nkeys + 2, sizeof(*f)), *b = xmalloc((n + 1) * sizeof(*b)), *fill, i;

	for (i = 0; i < n; i++)
		f[key[i] + 1]++;
	for (i = 0; i < nkeys; i++)
		f[i + 1] += f[i];
	fill = xcalloc(nkeys + 1, sizeof(*fill));
	for (i = 0; i < n; i++)
		b[f[key[i]] + fill[key[i]]++] = i;
	free(fill);
	*first = f;
	*by = b;
}

static void repair_init(struct repair *rp, struct cplan *cp)
{
	size_t i, *key = xmalloc((cp->nslots + cp->nnodes + 1) * sizeof(*key));

	memset(rp, 0, sizeof(*rp));
	rp->cp = cp;
	for (i = 0; i < cp->nslots; i++)
		key[i] = (size_t)cp->slots[i].node;
	group_by(key, cp->nslots, cp->nnodes, &rp->first, &rp->byslot);
	for (i = 0; i < cp->nnodes; i++)
		key[i] = (size_t)cp->nodes[i].k;
	group_by(key, cp->nnodes, cp->p->nclasses, &rp->kfirst, &rp->bynode);
	free(key);
	rp->seen = xcalloc(cp->nnodes + 1, sizeof(*rp->seen));
	rp->total = REPAIR_TOTAL;
}

static void repair_release(struct repair *rp)
{
	int l;

	free(rp->first);
	free(rp->byslot);
	free(rp->kfirst);
	free(rp->bynode);
	free(rp->seen);
	free(rp->log);
	for (l = 0; l < 2 * REPAIR_DEPTH + 2; l++)
		free(rp->cand[l]);
	memset(rp, 0, sizeof(*rp));
}

/* One step of search; 0 when the budget is spent. */
static int repair_charge(struct repair *rp)
{
	if (rp->steps <= 0 || rp->total <= 0)
		return 0;
	rp->steps--;
	rp->total--;
	return 1;
}

static void repair_move(struct repair *rp, size_t from, size_t to)
{
	struct cplan *cp = rp->cp;
	int d = cp->slots[from].d;
	long r = cp->slots[from].replica;

	slot_clear(cp, from);
	slot_fill(cp, to, d, r);
	XGROW(rp->log, rp->logcap, rp->nlog + 1);
	rp->log[rp->nlog].from = from;
	rp->log[rp->nlog].to = to;
	rp->nlog++;
}

/* Undoes the logged moves back to mark, last first. */
static void repair_undo(struct repair *rp, size_t mark)
{
	struct cplan *cp = rp->cp;

	while (rp->nlog > mark) {
		const struct repair_move *mv = &rp->log[--rp->nlog];
		int d = cp->slots[mv->to].d;
		long r = cp->slots[mv->to].replica;
		slot_clear(cp, mv->to);
		slot_fill(cp, mv->from, d, r);
	}
}

static int forbidden(const struct repair_forbid *f, int node)
{
	int i;
	for (i = 0; i < f->n; i++)
		if (f->node[i] == node)
			return 1;
	return 0;
}

static void cand_add(struct repair *rp, int level, size_t *n, double key, size_t slot)
{
	XGROW(rp->cand[level], rp->ncandcap[level], *n + 1);
	rp->cand[level][*n].key = key;
	rp->cand[level][*n].slot = slot;
	(*n)++;
}

static int cand_order(const void *a, const void *b)
{
	const struct repair_cand *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Sorts the first n candidates of level `level` (none may be allocated yet). */
static void cand_sort(struct repair *rp, int level, size_t n)
{
	if (n > 1)
		qsort(rp->cand[level], n, sizeof(*rp->cand[level]), cand_order);
}

/* Share of a node of class c that w takes: its larger share of CPU and RAM. */
static double load_share(const struct node_class *nc, const struct workload *w)
{
	double c = nc->cpu_cores > 0 ? w->cpu_cores / nc->cpu_cores : 0;
	double r = nc->ram_gib > 0 ? w->ram_gib / nc->ram_gib : 0;
	return c > r ? c : r;
}

/*
 * How much of the fuller of its CPU and RAM a node keeps free once w is
 * on it, as a share of the node (1 when w asks neither).
 */
static double headroom(const struct cplan *cp, const struct cnode *n, const struct workload *w)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;
	double h = 1;

	if (w->cpu_cores > 0 && nc->cpu_cores > 0)
		h = fmin(h, (nc->cpu_cores - n->cpu_used - w->cpu_cores) / nc->cpu_cores);
	if (w->ram_gib > 0 && nc->ram_gib > 0)
		h = fmin(h, (nc->ram_gib - n->ram_used - w->ram_gib) / nc->ram_gib);
	return h;
}

static size_t find_home(struct repair *rp, int e, int depth, const struct repair_forbid *f, int top);

/* Moves the replica in slot `slot` to a home off the nodes f forbids; 1 when moved. */
static int relocate(struct repair *rp, size_t slot, int depth, const struct repair_forbid *f)
{
	size_t to = find_home(rp, rp->cp->slots[slot].d, depth, f, 0);

	if (to == (size_t)-1)
		return 0;
	repair_move(rp, slot, to);
	return 1;
}

/*
 * Moves replicas off node `node` (forbidden in f) until it has room for
 * a replica of demand e: each time the smallest one that frees enough on
 * its own, else the largest; 1 when done, else 0 with nothing moved.
 */
static int make_room(struct repair *rp, int node, int e, int depth, const struct repair_forbid *f)
{
	struct cplan *cp = rp->cp;
	const struct cnode *n = &cp->nodes[node];
	const struct node_class *nc = cp->p->classes[n->k].nc;
	const struct workload *w = cp->p->demands[e].w;
	size_t mark = rp->nlog;
	int ev, buf = 2 * depth + 1;

	for (ev = 0; ev <= REPAIR_MAX_EVICT; ev++) {
		double dc = n->cpu_used + w->cpu_cores - nc->cpu_cores, dr = n->ram_used + w->ram_gib - nc->ram_gib;
		size_t nv = 0, q, t;
		if (dc <= 1e-9 && dr <= 1e-9)
			return 1;
		if (ev == REPAIR_MAX_EVICT)
			break;
		for (q = rp->first[node]; q < rp->first[node + 1]; q++) {
			const struct cslot *s = &cp->slots[rp->byslot[q]];
			const struct workload *y;
			double share;
			if (!repair_charge(rp))
				goto fail;
			if (s->d < 0 || s->d == e)
				continue;
			y = cp->p->demands[s->d].w;
			if (!((dc > 1e-9 && y->cpu_cores > 0) || (dr > 1e-9 && y->ram_gib > 0)))
				continue;
			share = load_share(nc, y);
			/* the ones that free enough alone first, smallest first; then largest first */
			cand_add(rp, buf, &nv,
				 y->cpu_cores >= dc - 1e-9 && y->ram_gib >= dr - 1e-9 ? share : 2 - share,
				 rp->byslot[q]);
		}
		cand_sort(rp, buf, nv);
		for (t = 0; t < nv && t < REPAIR_TRIES; t++)
			if (relocate(rp, rp->cand[buf][t].slot, depth, f))
				break;
		if (t == nv || t == REPAIR_TRIES)
			goto fail;
	}
fail:
	repair_undo(rp, mark);
	return 0;
}

/* A free slot demand e fits, on a node f allows with room for it; -1 if none. */
static size_t home_direct(struct repair *rp, int e, const struct repair_forbid *f)
{
	struct cplan *cp = rp->cp;
	const struct problem *p = cp->p;
	size_t lo, hi, a, i;

	arcs_of(p, e, &lo, &hi);
	for (a = lo; a < hi; a++) {
		int k = p->arcs[a].k, s = p->arcs[a].s;
		const size_t *q;
		queue_compact(cp, k, s);
		q = queue(cp, k, s);
		for (i = cp->fqhead[k][s]; i < cp->fqn[k][s]; i++) {
			const struct cslot *sl = &cp->slots[q[i]];
			if (!repair_charge(rp))
				return (size_t)-1;
			if (sl->d < 0 && !forbidden(f, sl->node) && node_has_room(cp, &cp->nodes[sl->node], p->demands[e].w))
				return q[i];
		}
	}
	return (size_t)-1;
}

/*
 * A free slot for a replica of demand e, on a node f allows and with room
 * for it, made by moving up to depth levels of other replicas (logged).
 * With top (e's replica is the one being placed, not one being moved),
 * every node short of room is tried, and so are slots other demands hold.
 * -1, with nothing moved, when there is none.
 */
static size_t find_home(struct repair *rp, int e, int depth, const struct repair_forbid *f, int top)
{
	struct cplan *cp = rp->cp;
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[e].w;
	size_t lo, hi, a, b, i, nc = 0, t;
	int buf = 2 * depth;
	unsigned id;
	struct repair_forbid g = *f;

	t = home_direct(rp, e, f);
	if (t != (size_t)-1 || depth == 0 || f->n >= REPAIR_DEPTH)
		return t;
	id = ++rp->search;
	arcs_of(p, e, &lo, &hi);
	/* free slots it fits on nodes short of CPU or RAM, the least short first */
	for (a = lo; a < hi; a++) {
		int k = p->arcs[a].k, s = p->arcs[a].s;
		const size_t *q = queue(cp, k, s);
		for (i = cp->fqhead[k][s]; i < cp->fqn[k][s]; i++) {
			const struct cslot *sl = &cp->slots[q[i]];
			const struct cnode *n = &cp->nodes[sl->node];
			const struct node_class *ncl = p->classes[n->k].nc;
			if (!repair_charge(rp))
				return (size_t)-1;
			if (sl->d >= 0 || forbidden(f, sl->node) || rp->seen[sl->node] == id ||
			    w->cpu_cores > ncl->cpu_cores + 1e-9 || w->ram_gib > ncl->ram_gib + 1e-9)
				continue;
			rp->seen[sl->node] = id;
			/* how short the node is: minus the share it would keep free */
			cand_add(rp, buf, &nc, -headroom(cp, n, w), q[i]);
		}
	}
	cand_sort(rp, buf, nc);
	g.n = f->n + 1;
	for (t = 0; t < nc && (top || t < REPAIR_TRIES); t++) {
		size_t slot = rp->cand[buf][t].slot;
		g.node[f->n] = cp->slots[slot].node;
		if (make_room(rp, cp->slots[slot].node, e, depth - 1, &g))
			return slot;
		if (rp->steps <= 0 || rp->total <= 0)
			return (size_t)-1;
	}
	if (!top)
		return (size_t)-1;
	/* slots it fits held by others, on nodes with room once they leave: the lightest first */
	nc = 0;
	for (a = lo; a < hi; a = b) {
		int k = p->arcs[a].k;
		const struct pclass *c = &p->classes[k];
		size_t j;
		for (b = a; b < hi && p->arcs[b].k == k; b++)
			;
		for (j = rp->kfirst[k]; j < rp->kfirst[k + 1]; j++) {
			int node = (int)rp->bynode[j];
			const struct cnode *n = &cp->nodes[node];
			size_t q, x;
			if (forbidden(f, node))
				continue;
			for (q = rp->first[node]; q < rp->first[node + 1]; q++) {
				const struct cslot *sl = &cp->slots[rp->byslot[q]];
				const struct workload *y;
				if (!repair_charge(rp))
					return (size_t)-1;
				if (sl->d < 0 || sl->d == e)
					continue;
				for (x = a; x < b && p->arcs[x].s != c->slot_types[sl->type].rep; x++)
					;
				if (x == b)
					continue;
				y = p->demands[sl->d].w;
				if (n->cpu_used - y->cpu_cores + w->cpu_cores > c->nc->cpu_cores + 1e-9 ||
				    n->ram_used - y->ram_gib + w->ram_gib > c->nc->ram_gib + 1e-9)
					continue;
				cand_add(rp, buf, &nc, load_share(c->nc, y), rp->byslot[q]);
			}
		}
	}
	cand_sort(rp, buf, nc);
	for (t = 0; t < nc; t++) {
		size_t slot = rp->cand[buf][t].slot;
		g.node[f->n] = cp->slots[slot].node;
		if (relocate(rp, slot, depth - 1, &g))
			return slot;
		if (rp->steps <= 0 || rp->total <= 0)
			break;
	}
	return (size_t)-1;
}

static int any_unplaced(const struct cplan *cp)
{
	size_t i;
	for (i = 0; i < cp->p->ndemands; i++)
		if (cp->unplaced[i])
			return 1;
	return 0;
}

/*
 * Places what is unplaced by repair, heaviest demands first; each
 * replica placed comes off unplaced[d] (and the reason goes with the
 * last one).
 */
static void repair_unplaced(struct cplan *cp)
{
	const struct problem *p = cp->p;
	struct repair rp;
	struct repair_forbid none;
	size_t *ord, i;

	if (!any_unplaced(cp))
		return;
	ord = demands_by_load(p);
	repair_init(&rp, cp);
	none.n = 0;
	for (i = 0; i < p->ndemands; i++) {
		int d = (int)ord[i];
		if (p->demands[d].unhostable)
			continue;
		while (cp->unplaced[d] > 0) {
			size_t t;
			rp.steps = REPAIR_STEPS;
			rp.nlog = 0;
			t = find_home(&rp, d, REPAIR_DEPTH, &none, 1);
			if (t == (size_t)-1) {
				repair_undo(&rp, 0);
				break; /* the next replica would fail the same way */
			}
			place(cp, t, d);
			if (!--cp->unplaced[d]) {
				free(cp->reason[d]);
				cp->reason[d] = NULL;
			}
		}
	}
	repair_release(&rp);
	free(ord);
}

/*
 * ================= from ILP counts =================
 *
 * The ILP checks CPU and RAM per (class, mode) only, so dealing its counts
 * over real nodes, each with its own CPU and RAM, can leave a replica
 * without a slot.  cplan_from_counts first deals them as it always has:
 * each arc's whole replicas first fit, then the rest as the greedy planner
 * would (a free slot, a new GPU, a new node), then a repair (below) of
 * what is still unplaced.  It also builds a second plan of the same
 * counts that looks at CPU and RAM from the start: every arc's share
 * rounded (largest remainders within the demand), the replicas that ask
 * the most of a node's CPU or RAM dealt first, each onto the node with
 * the most CPU and RAM left; then the greedy fallback and the repair.
 * The plan with the lower objective is kept (penalties included, so the
 * one that places more wins unless its extra nodes cost more), the first
 * on a tie: a first deal that places everything by opening a node the
 * counts did not have loses to a second that needs none.
 */

/* Opens the nodes of the counts and configures their GPUs. */
static void open_counts(struct cplan *cp, const long *nmode, long *const *ncfg)
{
	const struct problem *p = cp->p;
	size_t k;
	int m;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		int g = c->nc->gpus_per_node;
		for (m = 0; m < MODE_COUNT; m++) {
			long want = nmode[k * MODE_COUNT + (size_t)m], opened = 0;
			size_t first = cp->nnodes, ci;
			long gi = 0;
			if (want <= 0)
				continue;
			if (m == MODE_PASSTHROUGH) {
				for (ci = 0; ci < c->nconfigs; ci++) {
					long r;
					if (!c->configs[ci].node_pattern)
						continue;
					for (r = 0; r < ncfg[k][ci] && opened < want; r++, opened++)
						open_node(cp, (int)k, MODE_PASSTHROUGH, (int)ci);
				}
				continue;
			}
			for (opened = 0; opened < want; opened++)
				open_node(cp, (int)k, (enum gpu_mode)m, -1);
			for (ci = 0; ci < c->nconfigs; ci++) {
				long r;
				if (c->configs[ci].mode != (enum gpu_mode)m || c->configs[ci].node_pattern)
					continue;
				/*
				 * Round-robin over the nodes: each node gets a share of every
				 * configuration, so the replicas of a configuration (and the CPU
				 * and RAM they ask) are spread rather than piled on a few nodes.
				 */
				for (r = 0; r < ncfg[k][ci] && gi < want * g; r++, gi++)
					configure_gpu(cp, (int)(first + (size_t)(gi % want)), (int)(gi / want), (int)ci);
			}
		}
	}
}

/* Deals each arc's whole replicas (arc order, first fit). */
static void deal_first_fit(struct cplan *cp, const double *arc)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		long n = (long)floor(arc[i] + 1e-6), r;
		for (r = 0; r < n && cp->placed[a->d] < p->demands[a->d].replicas; r++) {
			size_t s = take_free(cp, a->k, a->s, p->demands[a->d].w);
			if (s == (size_t)-1)
				break;
			place(cp, s, a->d);
		}
	}
}

/*
 * Places the replicas still without a slot as the greedy planner would
 * (a free slot, a new GPU, a new node), heaviest demands first; what finds
 * none is counted unplaced, with a reason.
 */
static void place_leftover(struct cplan *cp)
{
	const struct problem *p = cp->p;
	size_t *ord = demands_by_load(p), i;

	for (i = 0; i < p->ndemands; i++) {
		int d = (int)ord[i];
		while (cp->placed[d] + cp->unplaced[d] < p->demands[d].replicas) {
			size_t s = p->demands[d].unhostable ? (size_t)-1 : place_one(cp, d, p->demands[d].replicas - cp->placed[d]);
			if (s == (size_t)-1) {
				cp->unplaced[d] = p->demands[d].replicas - cp->placed[d];
				set_reason(cp, d);
				break;
			}
			place(cp, s, d);
		}
	}
	free(ord);
}

/*
 * Each arc's replicas in whole numbers: the whole part of its count, and
 * the demand's rounded total shared out by largest remainders (then arc
 * order).  Caller frees.
 */
static long *round_arcs(const struct problem *p, const double *arc)
{
	long *t = xcalloc(p->narcs + 1, sizeof(*t));
	size_t d, lo, hi, a;

	for (d = 0; d < p->ndemands; d++) {
		double sum = 0;
		long base = 0, extra;
		arcs_of(p, (int)d, &lo, &hi);
		for (a = lo; a < hi; a++) {
			t[a] = (long)floor(arc[a] + 1e-6);
			base += t[a];
			sum += arc[a];
		}
		extra = (long)floor(sum + 0.5);
		if (extra > p->demands[d].replicas)
			extra = p->demands[d].replicas;
		for (extra -= base; extra > 0; extra--) {
			size_t best = hi;
			for (a = lo; a < hi; a++)
				if (arc[a] - (double)t[a] > 1e-6 &&
				    (best == hi || arc[a] - (double)t[a] > arc[best] - (double)t[best]))
					best = a;
			if (best == hi)
				break;
			t[best]++;
		}
	}
	return t;
}


/*
 * Deals target[a] replicas onto each arc a: the arcs whose demand asks
 * the largest share of a node's CPU or RAM first, each replica onto the
 * node with a free slot of the arc and the most CPU and RAM left (the
 * first in queue order on a tie), so the heavy replicas are spread before
 * the light ones fill the gaps.
 */
static void deal_balanced(struct cplan *cp, const long *target)
{
	const struct problem *p = cp->p;
	struct repair_cand *ord = xmalloc((p->narcs + 1) * sizeof(*ord)); /* .slot: an arc here */
	size_t *group = xmalloc((cp->nnodes + 1) * sizeof(*group));	/* per node: its group, or -1 */
	size_t *gnode = NULL, *gnext = NULL, *gend = NULL, *gslot = NULL;
	size_t cap1 = 0, cap2 = 0, cap3 = 0, cap4 = 0, na = 0, i;

	for (i = 0; i < p->narcs; i++)
		if (target[i] > 0) {
			ord[na].key = -load_share(p->classes[p->arcs[i].k].nc, p->demands[p->arcs[i].d].w);
			ord[na++].slot = i;
		}
	qsort(ord, na, sizeof(*ord), cand_order);
	for (i = 0; i < cp->nnodes; i++)
		group[i] = (size_t)-1;
	for (i = 0; i < na; i++) {
		const struct arc *a = &p->arcs[ord[i].slot];
		const struct workload *w = p->demands[a->d].w;
		const size_t *q;
		size_t ng = 0, n, j, g;
		long r;

		/*
		 * The arc's free slots grouped by node (nodes in the order they
		 * come in the queue): group g's are gslot[gnext[g]] .. gslot[gend[g] - 1].
		 */
		queue_compact(cp, a->k, a->s);
		q = queue(cp, a->k, a->s);
		n = cp->fqn[a->k][a->s] - cp->fqhead[a->k][a->s];
		q += cp->fqhead[a->k][a->s];
		for (j = 0; j < n; j++) {
			size_t nd = (size_t)cp->slots[q[j]].node;
			if (group[nd] == (size_t)-1) {
				XGROW(gnode, cap1, ng + 1);
				XGROW(gnext, cap2, ng + 1);
				XGROW(gend, cap3, ng + 1);
				group[nd] = ng;
				gnode[ng] = nd;
				gend[ng++] = 0;
			}
			gend[group[nd]]++;
		}
		for (g = 0, j = 0; g < ng; g++) {
			gnext[g] = j;
			j += gend[g];
			gend[g] = gnext[g];
		}
		XGROW(gslot, cap4, n + 1);
		for (j = 0; j < n; j++)
			gslot[gend[group[cp->slots[q[j]].node]]++] = q[j];
		for (g = 0; g < ng; g++)
			group[gnode[g]] = (size_t)-1;
		for (r = 0; r < target[ord[i].slot] && cp->placed[a->d] < p->demands[a->d].replicas; r++) {
			size_t best = ng;
			double hbest = 0;
			for (g = 0; g < ng; g++) {
				const struct cnode *nd = &cp->nodes[gnode[g]];
				double h;
				if (gnext[g] == gend[g] || !node_has_room(cp, nd, w))
					continue;
				h = headroom(cp, nd, w);
				if (best == ng || h > hbest) {
					best = g;
					hbest = h;
				}
			}
			if (best == ng)
				break;
			place(cp, gslot[gnext[best]++], a->d);
		}
	}
	free(ord);
	free(group);
	free(gnode);
	free(gnext);
	free(gend);
	free(gslot);
}

/*
 * The second plan of the counts (see above): rounded arcs dealt heaviest
 * first onto the nodes with the most room, completed greedily, repaired.
 */
static void from_counts_balanced(struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc)
{
	long *target = round_arcs(cp->p, arc);

	open_counts(cp, nmode, ncfg);
	deal_balanced(cp, target);
	place_leftover(cp);
	repair_unplaced(cp);
	free(target);
}

void cplan_from_counts(struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc)
{
	const struct problem *p = cp->p;
	struct cplan alt;
	struct cplan_cost c1, c2;

	open_counts(cp, nmode, ncfg);
	deal_first_fit(cp, arc);
	place_leftover(cp);
	repair_unplaced(cp);
	cplan_init(&alt, p);
	from_counts_balanced(&alt, nmode, ncfg, arc);
	cplan_cost(cp, &c1);
	cplan_cost(&alt, &c2);
	if (c2.objective < c1.objective - 1e-6) {
		cplan_release(cp);
		*cp = alt;
	} else {
		cplan_release(&alt);
	}
}

/* Adds each placed replica to its arc in arc[]. */
static void slot_arcs(const struct cplan *cp, double *arc)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		size_t lo, hi, j;
		if (s->d < 0)
			continue;
		arcs_of(p, s->d, &lo, &hi);
		for (j = lo; j < hi; j++)
			if (p->arcs[j].k == cp->nodes[s->node].k &&
			    p->arcs[j].s == p->classes[cp->nodes[s->node].k].slot_types[s->type].rep)
				arc[j] += 1;
	}
}

/*
 * Replicas (and their CPU and RAM) that one deal of the counts left
 * without a slot in the class the target put them in, per (class, mode):
 * the deal only, before anything goes elsewhere.
 */
static long deal_shortfall(const struct cplan *cp, const long *target, double *lost_cpu, double *lost_ram)
{
	const struct problem *p = cp->p;
	double *got = xcalloc(p->narcs + 1, sizeof(*got));
	size_t i;
	long lost = 0;

	slot_arcs(cp, got);
	for (i = 0; i < p->nclasses * MODE_COUNT; i++)
		lost_cpu[i] = lost_ram[i] = 0;
	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		const struct workload *w = p->demands[a->d].w;
		size_t g = (size_t)a->k * MODE_COUNT + p->classes[a->k].slot_types[a->s].mode;
		double short_ = (double)target[i] - got[i];
		if (short_ <= 0)
			continue;
		lost += (long)short_;
		lost_cpu[g] += short_ * w->cpu_cores;
		lost_ram[g] += short_ * w->ram_gib;
	}
	free(got);
	return lost;
}

long cplan_deal_loss(const struct problem *p, const long *nmode, long *const *ncfg, const double *arc,
		     double *lost_cpu, double *lost_ram)
{
	size_t n = p->nclasses * MODE_COUNT + 1, i;
	long *target = round_arcs(p, arc), *floors = xcalloc(p->narcs + 1, sizeof(*floors)), l1, l2;
	double *c2 = xcalloc(n, sizeof(*c2)), *r2 = xcalloc(n, sizeof(*r2));
	struct cplan cp;

	for (i = 0; i < p->narcs; i++)
		floors[i] = (long)floor(arc[i] + 1e-6);
	cplan_init(&cp, p);
	open_counts(&cp, nmode, ncfg);
	deal_first_fit(&cp, arc);
	l1 = deal_shortfall(&cp, floors, lost_cpu, lost_ram);
	cplan_release(&cp);
	cplan_init(&cp, p);
	open_counts(&cp, nmode, ncfg);
	deal_balanced(&cp, target);
	l2 = deal_shortfall(&cp, target, c2, r2);
	cplan_release(&cp);
	if (l2 < l1) {
		memcpy(lost_cpu, c2, (n - 1) * sizeof(*c2));
		memcpy(lost_ram, r2, (n - 1) * sizeof(*r2));
		l1 = l2;
	}
	free(c2);
	free(r2);
	free(target);
	free(floors);
	return l1;
}

void cplan_counts(const struct cplan *cp, long *nmode, long *const *ncfg, double *arc, double *unplaced)
{
	const struct problem *p = cp->p;
	size_t i, k;

	memset(nmode, 0, p->nclasses * MODE_COUNT * sizeof(*nmode));
	for (k = 0; k < p->nclasses; k++)
		memset(ncfg[k], 0, p->classes[k].nconfigs * sizeof(**ncfg));
	for (i = 0; i < p->narcs; i++)
		arc[i] = 0;
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		int g;
		nmode[(size_t)n->k * MODE_COUNT + n->mode]++;
		if (n->mode == MODE_PASSTHROUGH) {
			if (n->pattern >= 0)
				ncfg[n->k][n->pattern]++;
			continue;
		}
		for (g = 0; g < p->classes[n->k].nc->gpus_per_node; g++)
			if (n->gpu_config[g] >= 0)
				ncfg[n->k][n->gpu_config[g]]++;
	}
	slot_arcs(cp, arc);
	for (i = 0; i < p->ndemands; i++)
		unplaced[i] = (double)cp->unplaced[i];
}

/* True where a licence server leases one seat per vGPU. */
static int counts_seats(const struct problem *p, enum gpu_mode m)
{
	return p->pr->counting == COUNT_VGPU_SEAT && (m == MODE_VGPU || m == MODE_MIG_VGPU);
}

void cplan_gpu_licence(const struct cplan *cp, size_t node, int g, enum lic_product *product, long *gpus,
		       long *seats)
{
	const struct problem *p = cp->p;
	const struct cnode *n = &cp->nodes[node];
	const struct class_price *pc = &p->pr->cls[n->k];

	*product = LIC_NONE;
	*gpus = *seats = 0;
	if (n->mode == MODE_PASSTHROUGH) {
		/* a passthrough GPU is licensed as its replica needs */
		if (n->gpu_used[g] > 0)
			*product = n->gpu_nvaie[g] > 0 ? LIC_NVAIE : pc->mode_product[MODE_PASSTHROUGH];
		*gpus = *product != LIC_NONE;
	} else if (n->gpu_config[g] >= 0) {
		*product = p->classes[n->k].configs[n->gpu_config[g]].lic;
		if (*product == LIC_NONE)
			return;
		if (counts_seats(p, n->mode))
			*seats = n->gpu_used[g];
		else
			*gpus = 1;
	}
}

void cplan_node_bill(const struct cplan *cp, size_t node, struct node_bill *b)
{
	const struct problem *p = cp->p;
	const struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &p->classes[n->k];
	const struct class_price *pc = &p->pr->cls[n->k];
	int g, cat;

	memset(b, 0, sizeof(*b));
	for (cat = 0; cat < CAT_COUNT; cat++)
		for (g = 0; g < p->pr->nyears; g++)
			b->cat[cat] += pc->node_year[cat][g];
	for (g = 0; g < c->nc->gpus_per_node; g++) {
		enum lic_product lp;
		long gpus, seats;
		int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
		if (!on)
			continue;
		b->active++;
		b->cat[CAT_ENERGY] += pc->gpu_active_total;
		cplan_gpu_licence(cp, node, g, &lp, &gpus, &seats);
		if (lp == LIC_NONE)
			continue;
		b->lic_gpus[lp] += gpus;
		b->seats[lp] += seats;
		b->gpus_licensed += gpus + seats > 0;
		b->cat[cost_cat_of_product(lp)] += (double)(gpus + seats) * pc->lic[lp].total;
	}
	for (cat = 0; cat < CAT_COUNT; cat++)
		b->total += b->cat[cat];
}

void cplan_cost(const struct cplan *cp, struct cplan_cost *out)
{
	const struct problem *p = cp->p;
	const struct pricing *pr = p->pr;
	size_t i;
	int cat, y, q;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < cp->nnodes; i++) {
		const struct class_price *pc = &pr->cls[cp->nodes[i].k];
		struct node_bill b;
		cplan_node_bill(cp, i, &b);
		out->nodes++;
		out->gpus += p->classes[cp->nodes[i].k].nc->gpus_per_node;
		out->gpus_active += b.active;
		out->gpus_licensed += b.gpus_licensed;
		for (cat = 0; cat < CAT_COUNT; cat++)
			for (y = 0; y < pr->nyears; y++)
				out->year[cat][y] += pc->node_year[cat][y];
		for (y = 0; y < pr->nyears; y++)
			out->year[CAT_ENERGY][y] += (double)b.active * pc->gpu_active_year[y];
		for (q = 1; q < LIC_COUNT; q++) {
			out->lic_gpus[q] += b.lic_gpus[q];
			out->seats[q] += b.seats[q];
			for (y = 0; y < pr->nyears; y++)
				out->year[cost_cat_of_product((enum lic_product)q)][y] +=
					(double)(b.lic_gpus[q] + b.seats[q]) * pc->lic[q].year[y];
		}
		out->objective += p->tiebreak * (double)(1 + b.active);
	}
	for (i = 0; i < p->ndemands; i++) {
		out->placed += cp->placed[i];
		out->unplaced += cp->unplaced[i];
		out->objective += p->demands[i].penalty * (double)cp->unplaced[i];
	}
	for (cat = 0; cat < CAT_COUNT; cat++) {
		for (y = 0; y < pr->nyears; y++)
			out->cat[cat] += out->year[cat][y];
		out->total += out->cat[cat];
	}
	out->objective += out->total;
}

/*
 * ================= incremental placement (simulate) =================
 *
 * Thin entry points to the engine above for `gpuplan simulate`, which
 * rebuilds each step's plan from the previous one (see cplan.h).
 */

int cplan_open_node(struct cplan *cp, int k, enum gpu_mode m, int pattern)
{
	return open_node(cp, k, m, pattern);
}

void cplan_configure_gpu(struct cplan *cp, int node, int gpu, int cfg)
{
	configure_gpu(cp, node, gpu, cfg);
}

void cplan_place_at(struct cplan *cp, size_t slot, int d)
{
	place(cp, slot, d);
}

void cplan_place_more(struct cplan *cp, const long *add)
{
	const struct problem *p = cp->p;
	int *order = xmalloc((p->ndemands ? p->ndemands : 1) * sizeof(*order));
	size_t *options = xcalloc(p->ndemands + 1, sizeof(*options));
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		size_t lo, hi, j;
		int last = -1;
		order[i] = (int)i;
		arcs_of(p, (int)i, &lo, &hi);
		for (j = lo; j < hi; j++) {
			if (p->arcs[j].k != last)
				options[i]++;
			last = p->arcs[j].k;
		}
	}
	sort_problem = p;
	sort_options = options;
	qsort(order, p->ndemands, sizeof(*order), demand_order);
	free(options);
	for (i = 0; i < p->ndemands; i++) {
		int d = order[i];
		long r;
		if (add[d] <= 0)
			continue;
		if (p->demands[d].unhostable) {
			cp->unplaced[d] += add[d];
			set_reason(cp, d);
			continue;
		}
		for (r = 0; r < add[d]; r++) {
			size_t s = place_one(cp, d, 0);
			if (s == (size_t)-1) {
				cp->unplaced[d] += add[d] - r;
				set_reason(cp, d);
				break;
			}
			place(cp, s, d);
		}
	}
	free(order);
}
