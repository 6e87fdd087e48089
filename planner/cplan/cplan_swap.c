/*
 * cplan_swap.c - placing what the repair left unplaced by swapping two
 * GPUs between nodes of one class and mode.  Used by the deal of ILP
 * counts (cplan_deal.c) after the ejection chains (cplan_repair.c).
 *
 * A deal configures each node's GPUs before it knows which replicas,
 * with which CPU and RAM, their slots will hold, so a replica can find a
 * free slot it fits on a node whose CPU or RAM the slots' other
 * replicas took, while another node of the class has CPU and RAM left.
 * Moving replicas between slots (the ejection chains) does not help when
 * every slot of its kind is on such a node.  Swapping a whole GPU with
 * its configuration and replicas for a GPU of another node of the same
 * class and mode changes no count, so no cost, and moves CPU and RAM
 * between the two nodes: either the GPU with the free slot goes to a
 * node with room for the replica and for that GPU's load, or another GPU
 * of the slot's node goes to a node with room for it, swapped for a
 * lighter one, so that the slot's node gets room.
 *
 * The search is charged a step per GPU pair looked at, within a budget
 * per replica and per call, so the time stays bounded and the result does
 * not depend on the machine.  Nodes with a node pattern (passthrough
 * groups, multi-vGPU VMs) are not swapped; a swap keeps every node within
 * one node key (problem.h).
 */
#include <stdlib.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "cplan_repair.h"
#include "util.h"
#include "banned.h"

#define SWAP_STEPS 200000L	/* GPU pairs looked at per replica placed */
#define SWAP_TOTAL 4000000L	/* per call */

struct swap {
	struct cplan *cp;
	size_t *gfirst;		/* GPU g of node i: load[gfirst[i] + g] */
	double *cpu, *ram;	/* per GPU: what its replicas ask */
	long *pinned;		/* per GPU: replicas of demands with a cap (problem_dom_cap): it stays */
	size_t *kfirst;		/* nodes of class k: bynode[kfirst[k]] .. bynode[kfirst[k + 1] - 1] */
	size_t *bynode;
	unsigned *seen;		/* per GPU: the search that last tried it as the one to move */
	unsigned search;
	long steps, total;
};

/* Replica of d in slot `slot` counted in its GPU's CPU and RAM. */
static void load_add(struct swap *sw, size_t slot, int d)
{
	const struct cslot *s = &sw->cp->slots[slot];
	const struct workload *w = sw->cp->p->demands[d].w;

	sw->cpu[sw->gfirst[s->node] + (size_t)s->gpu] += w->cpu_cores;
	sw->ram[sw->gfirst[s->node] + (size_t)s->gpu] += w->ram_gib;
	sw->pinned[sw->gfirst[s->node] + (size_t)s->gpu] += sw->cp->p->demands[d].cap >= 0;
}

static void swap_init(struct swap *sw, struct cplan *cp)
{
	const struct problem *p = cp->p;
	size_t i, n = 0, *key;

	sw->cp = cp;
	sw->gfirst = xmalloc((cp->nnodes + 1) * sizeof(*sw->gfirst));
	for (i = 0; i < cp->nnodes; i++) {
		sw->gfirst[i] = n;
		n += (size_t)p->classes[cp->nodes[i].k].nc->gpus_per_node;
	}
	sw->gfirst[cp->nnodes] = n;
	sw->cpu = xcalloc(n + 1, sizeof(*sw->cpu));
	sw->ram = xcalloc(n + 1, sizeof(*sw->ram));
	sw->seen = xcalloc(n + 1, sizeof(*sw->seen));
	sw->pinned = xcalloc(n + 1, sizeof(*sw->pinned));
	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0)
			load_add(sw, i, cp->slots[i].d);
	key = xmalloc((cp->nnodes + 1) * sizeof(*key));
	for (i = 0; i < cp->nnodes; i++)
		key[i] = (size_t)cp->nodes[i].k;
	cplan_group_by(key, cp->nnodes, p->nclasses, &sw->kfirst, &sw->bynode);
	free(key);
	sw->search = 0;
	sw->total = SWAP_TOTAL;
}

static void swap_release(struct swap *sw)
{
	free(sw->gfirst);
	free(sw->cpu);
	free(sw->ram);
	free(sw->seen);
	free(sw->pinned);
	free(sw->kfirst);
	free(sw->bynode);
}

/* The node key of node n were its GPU `skip` in configuration cfg (-1: idle); -1 when two keys would mix. */
static int key_with(const struct cplan *cp, const struct cnode *n, int skip, int cfg)
{
	const struct pclass *c = &cp->p->classes[n->k];
	int g, key = cfg >= 0 ? c->configs[cfg].node_key : 0;

	for (g = 0; g < c->nc->gpus_per_node; g++) {
		int kg = g == skip || n->gpu_config[g] < 0 ? 0 : c->configs[n->gpu_config[g]].node_key;
		if (kg && key && kg != key)
			return -1;
		if (kg)
			key = kg;
	}
	return key;
}

/* True when node n, less what its GPU a asks and plus (cpu, ram), is within its CPU and RAM. */
static int fits_after(const struct swap *sw, const struct cnode *n, size_t ga, double cpu, double ram)
{
	const struct node_class *nc = sw->cp->p->classes[n->k].nc;
	return n->cpu_used - sw->cpu[ga] + cpu <= nc->cpu_cores + 1e-9 &&
	       n->ram_used - sw->ram[ga] + ram <= nc->ram_gib + 1e-9;
}

/*
 * A GPU b of another node y of x's class and mode to swap with GPU c of
 * node x so that a replica of w gets room on x (c is not the slot's
 * GPU, the replica stays: `moving` 0) or on y (c is the slot's GPU and
 * goes to y with it: `moving` 1).  Swaps it and returns 1; 0 when none.
 */
static int swap_for(struct swap *sw, int x, int c, int moving, const struct workload *w)
{
	struct cplan *cp = sw->cp;
	const struct cnode *nx = &cp->nodes[x];
	size_t gc = sw->gfirst[x] + (size_t)c, j;
	int g = cp->p->classes[nx->k].nc->gpus_per_node;
	double wc = moving ? w->cpu_cores : 0, wr = moving ? w->ram_gib : 0; /* w's CPU and RAM go with c */

	for (j = sw->kfirst[nx->k]; j < sw->kfirst[nx->k + 1]; j++) {
		int y = (int)sw->bynode[j], b;
		const struct cnode *ny = &cp->nodes[y];
		if (y == x || ny->mode != nx->mode || ny->pattern >= 0)
			continue;
		for (b = 0; b < g; b++) {
			size_t gb = sw->gfirst[y] + (size_t)b;
			if (--sw->steps < 0 || --sw->total < 0)
				return 0;
			if ((nx->gpu_config[c] < 0 && ny->gpu_config[b] < 0) || sw->pinned[gc] || sw->pinned[gb])
				continue;	/* a capped replica would change node: its caps count by node */
			if (!fits_after(sw, ny, gb, sw->cpu[gc] + wc, sw->ram[gc] + wr) ||
			    !fits_after(sw, nx, gc, sw->cpu[gb] + w->cpu_cores - wc, sw->ram[gb] + w->ram_gib - wr))
				continue;
			if (key_with(cp, nx, c, ny->gpu_config[b]) < 0 || key_with(cp, ny, b, nx->gpu_config[c]) < 0)
				continue;
			cplan_swap_gpus(cp, x, c, y, b);
			{
				double t = sw->cpu[gc];
				sw->cpu[gc] = sw->cpu[gb], sw->cpu[gb] = t;
				t = sw->ram[gc];
				sw->ram[gc] = sw->ram[gb], sw->ram[gb] = t;
			}
			return 1;
		}
	}
	return 0;
}

/*
 * A free slot for a replica of d made by one swap: for each free slot d
 * fits (arc order, then queue order), its GPU to another node, then
 * each other GPU of its node.  Returns the slot, (size_t)-1 when none.
 */
static size_t swap_home(struct swap *sw, int d)
{
	struct cplan *cp = sw->cp;
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t lo, hi, i, j;
	int capped = p->demands[d].cap >= 0; /* its slot stays on its node: the other GPU moves */

	sw->search++;
	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		int k = p->arcs[i].k, s = p->arcs[i].s;
		size_t *q = cplan_queue(cp, k, s);
		for (j = cp->fqhead[k][s]; j < cp->fqn[k][s]; j++) {
			size_t sl = q[j];
			const struct cslot *t = &cp->slots[sl];
			const struct cnode *n = &cp->nodes[t->node];
			int x = t->node, c, g = p->classes[n->k].nc->gpus_per_node;
			size_t ga = sw->gfirst[x] + (size_t)t->gpu;
			if (t->d >= 0 || n->pattern >= 0 || n->mode == MODE_PASSTHROUGH || sw->seen[ga] == sw->search)
				continue;
			if (cplan_node_has_room(cp, n, w))
				return sl;
			if (!cplan_caps_allow(cp, d, x))
				continue;	/* no swap makes room the caps allow: the slot's node is at d's cap */
			sw->seen[ga] = sw->search;
			if (!capped && swap_for(sw, x, t->gpu, 1, w))
				return sl;
			for (c = 0; c < g; c++) /* an idle one: what comes in only adds to the node */
				if (c != t->gpu && n->gpu_config[c] >= 0 && swap_for(sw, x, c, 0, w))
					return sl;
			if (sw->steps < 0 || sw->total < 0)
				return (size_t)-1;
		}
	}
	return (size_t)-1;
}

void cplan_repair_swap(struct cplan *cp)
{
	const struct problem *p = cp->p;
	struct swap sw;
	size_t *ord, i;

	if (!cplan_unplaced_count(cp))
		return;
	ord = cplan_demands_by_load(p);
	swap_init(&sw, cp);
	for (i = 0; i < p->ndemands && sw.total > 0; i++) {
		int d = (int)ord[i];
		if (p->demands[d].unhostable)
			continue;
		while (cp->unplaced[d] > 0) {
			size_t t;
			sw.steps = SWAP_STEPS;
			t = swap_home(&sw, d);
			if (t == (size_t)-1)
				break; /* the next replica would fail the same way */
			cplan_place_at(cp, t, d);
			load_add(&sw, t, d);
			if (!--cp->unplaced[d]) {
				free(cp->reason[d]);
				cp->reason[d] = NULL;
			}
		}
	}
	swap_release(&sw);
	free(ord);
}
