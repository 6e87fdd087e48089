/*
 * reserve_empty.c - a GPU or a node of replicas below the floor to empty
 * for a workload (reserve_empty.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reserve_empty.h"
#include "cplan_engine.h"
#include "preempt.h"
#include "util.h"
#include "banned.h"

/* What emptying a node's slots by[0 .. n) (on GPU gpu only, when gpu >= 0) leaves out. */
struct tally {
	double penalty, cpu, ram;
	long n;
};

/*
 * The replicas of slots by[0 .. n) (those on GPU gpu when gpu >= 0) into
 * *t; 0 when there is one at least and each may be left out (below
 * floor, its workload without a domain cap, not lost), else -1.  One at
 * least, so that every emptying leaves a replica out: a GPU configured
 * anew for a cover holds none once the cover's placements are taken out,
 * and is never emptied again.
 */
static int tally_of(const struct cplan *cp, const uint32_t *by, size_t n, int gpu, int floor, struct tally *t)
{
	const struct problem *p = cp->p;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		const struct cslot *s = &cp->slots[by[i]];
		int e = s->d;
		if (gpu >= 0 && (gpu < s->gpu || gpu >= s->gpu + s->ngpus))
			continue;
		if (e == -1)
			continue;
		if (!preempt_may_leave(p, e, floor))
			return -1;
		t->penalty += p->demands[e].penalty;
		t->cpu += p->demands[e].w->cpu_cores;
		t->ram += p->demands[e].w->ram_gib;
		t->n++;
	}
	return t->n > 0 ? 0 : -1;
}

/* The node key of node n without GPU gpu's configuration (cplan_node_key's rule). */
static int key_without(const struct cplan *cp, const struct cnode *n, int gpu)
{
	const struct pclass *c = &cp->p->classes[n->k];
	int g;

	for (g = 0; g < c->nc->gpus_per_node; g++)
		if (g != gpu && n->gpu_config[g] >= 0 && c->configs[n->gpu_config[g]].node_key)
			return c->configs[n->gpu_config[g]].node_key;
	return 0;
}

/* A configuration of class k in mode m, no node pattern, joining key `key`, that takes d: 1, else 0. */
static int gpu_cfg_for(const struct problem *p, int d, int k, enum gpu_mode m, int key)
{
	const struct pclass *c = &p->classes[k];
	size_t ci;

	for (ci = 0; ci < c->nconfigs; ci++)
		if (c->configs[ci].mode == m && !c->configs[ci].node_pattern && problem_key_fits(&c->configs[ci], key) &&
		    cplan_fit_count(p, d, k, &c->configs[ci]) > 0)
			return 1;
	return 0;
}

/* The configuration of class k cheapest per replica of d (its cost over d's slots, plus d's dearest arc); -1. */
static int node_cfg_for(const struct problem *p, int d, int k)
{
	const struct pclass *c = &p->classes[k];
	int best = -1, fit;
	double bper = 0, per, ac;
	size_t ci, j;

	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		if (!(fit = cplan_fit_count(p, d, k, cf)))
			continue;
		for (j = 0, ac = 0; j < cf->nslots; j++)
			ac = fmax(ac, cplan_arc_cost(p, d, k, cf->slot[j]));
		per = cf->cost / fit + ac;
		if (best < 0 || per < bper - 1e-9) {
			best = (int)ci;
			bper = per;
		}
	}
	return best;
}

/* t left out before e's choice: less penalty, then fewer replicas (node and GPU order: the scan's). */
static int better(const struct tally *t, const struct reserve_empty *e)
{
	if (e->node < 0)
		return 1;
	if (fabs(t->penalty - e->penalty) > 1e-9)
		return t->penalty < e->penalty;
	return t->n < e->n;
}

/* What is searched: a GPU or a node to empty for d, below floor; the plan's slots grouped by node. */
struct want {
	const struct cplan *cp;
	int d, floor;
	const size_t *first;		/* node i's slots: by[first[i] .. first[i + 1]) */
	const uint32_t *by;
};

/* Node i's GPUs to empty for q->d, into *e when better. */
static void gpu_try(const struct want *q, int i, struct reserve_empty *e)
{
	const struct cplan *cp = q->cp;
	const uint32_t *by = q->by + q->first[i];
	size_t n = q->first[i + 1] - q->first[i];
	int d = q->d, floor = q->floor;
	const struct cnode *nd = &cp->nodes[i];
	const struct node_class *nc = cp->p->classes[nd->k].nc;
	const struct workload *w = cp->p->demands[d].w;
	struct tally t;
	int g;

	if (nd->mode == MODE_PASSTHROUGH || nd->pattern >= 0)
		return;
	for (g = 0; g < nc->gpus_per_node; g++) {
		if (nd->gpu_config[g] < 0 || tally_of(cp, by, n, g, floor, &t) || !better(&t, e) ||
		    nd->cpu_used - t.cpu + w->cpu_cores > nc->cpu_cores + 1e-9 ||
		    nd->ram_used - t.ram + w->ram_gib > nc->ram_gib + 1e-9 ||
		    !gpu_cfg_for(cp->p, d, nd->k, nd->mode, key_without(cp, nd, g)))
			continue;
		e->node = i;
		e->gpu = g;
		e->penalty = t.penalty;
		e->n = t.n;
	}
}

/* Node i to empty whole and open anew for q->d, into *e when better. */
static void node_try(const struct want *q, int i, struct reserve_empty *e)
{
	const struct cplan *cp = q->cp;
	const uint32_t *by = q->by + q->first[i];
	size_t n = q->first[i + 1] - q->first[i];
	int d = q->d, floor = q->floor;
	const struct problem *p = cp->p;
	const struct cnode *nd = &cp->nodes[i];
	const struct node_class *nc = p->classes[nd->k].nc;
	const struct workload *w = p->demands[d].w;
	struct tally t;
	int cfg;

	if (w->cpu_cores > nc->cpu_cores + 1e-9 || w->ram_gib > nc->ram_gib + 1e-9 || tally_of(cp, by, n, -1, floor, &t) ||
	    !better(&t, e) || (cfg = node_cfg_for(p, d, nd->k)) < 0)
		return;
	e->node = i;
	e->gpu = -1;
	e->mode = p->classes[nd->k].configs[cfg].mode;
	e->pattern = p->classes[nd->k].configs[cfg].node_pattern ? cfg : -1;
	e->cfg = e->pattern < 0 ? cfg : -1;
	e->penalty = t.penalty;
	e->n = t.n;
}

void reserve_empty_find(const struct cplan *cp, int d, int floor, struct reserve_empty *e)
{
	size_t *first, i;
	uint32_t *by;
	struct want q;
	int pass;

	memset(e, 0, sizeof(*e));
	e->node = -1;
	cplan_slots_by_node(cp, &first, &by);
	q = (struct want){ cp, d, floor, first, by };
	for (pass = 0; pass < 2 && e->node < 0; pass++)	/* a GPU, else a whole node */
		for (i = 0; i < cp->nnodes; i++) {
			if (isinf(cp->nodes[i].cpu_used) || !cplan_caps_allow(cp, d, (int)i))
				continue;	/* lost with the failure, or d's caps say no */
			if (pass == 0)
				gpu_try(&q, (int)i, e);
			else
				node_try(&q, (int)i, e);
		}
	free(first);
	free(by);
}
