/*
 * cplan_greedy_reason.c - why the greedy planner (and the deal of ILP
 * counts after it) leaves a replica unplaced: the reason the reports
 * give, with the node or slot that comes nearest.
 */
#include <math.h>
#include <stdlib.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "util.h"
#include "banned.h"

/*
 * For a fraction d takes by time-slicing or MPS: how many of it one GPU
 * shares at most, and the memory each gets there, the GPU's usable memory
 * divided by the replicas (the device plugin's limit for an MPS client),
 * as "; a T4 holds at most 3 of it in mps (15109 MiB / 3 = 5036 MiB
 * each)"; "" when d takes no such slot.  Caller frees.
 */
static char *shared_limit(const struct problem *p, int d)
{
	const struct workload *w = p->demands[d].w;
	const struct slot_type *best = NULL;
	const struct gpu_type *g = NULL;
	size_t lo, hi, i, j;
	long long k = 0;

	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct pclass *c = &p->classes[p->arcs[i].k];
		if (c->slot_types[p->arcs[i].s].mode != MODE_MPS && c->slot_types[p->arcs[i].s].mode != MODE_TIMESLICE)
			continue;
		for (j = 0; j < c->nslot_types; j++) {
			const struct slot_type *st = &c->slot_types[j];
			if ((st->mode != MODE_MPS && st->mode != MODE_TIMESLICE) || st->share ||
			    !(w->modes & MODE_BIT(st->mode)) || st->iso < w->iso || (double)st->memory_mib < w->gpu_mem_gib * 1024.0 || st->compute + 1e-9 < w->compute ||
			    (best && st->memory_mib >= best->memory_mib))
				continue;
			best = st;
			g = c->nc->gpu;
		}
	}
	/* the slot's name is "mps<k>" or "ts<k>" (problem_config.c) */
	if (!best || parse_llong(best->name + (best->mode == MODE_MPS ? 3 : 2), &k))
		return xstrdup("");
	return xasprintf("; a %s holds at most %lld of it in %s (%ld MiB / %lld = %ld MiB each)", g->id, k,
			 mode_name(best->mode), g->memory_mib, k, best->memory_mib);
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

	char *allowed = xcalloc(p->nclasses + 1, 1);

	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++)
		allowed[p->arcs[i].k] = 1;
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		int idle = 0;
		if (!allowed[n->k])
			continue;
		for (g = 0; g < p->classes[n->k].nc->gpus_per_node; g++)
			idle += n->gpu_used[g] == 0;
		if (idle > best_idle) {
			best_idle = idle;
			best = i;
		}
	}
	free(allowed);
	if (best == (size_t)-1 || best_idle == 0) {
		char *lim = shared_limit(p, d);
		out = xasprintf("not enough capacity: every node it fits on is in use, with no GPU idle%s", lim);
		free(lim);
		return out;
	}
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

/*
 * "the nodes with a free slot it fits have no CPU or RAM left", and the
 * node with such a slot that lacks the least (CPU and RAM as shares of
 * the node's), with what it lacks.
 */
static char *nearest_cpu_ram(struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	const struct cslot *bs = NULL;
	double best = HUGE_VAL, cpu = 0, ram = 0;
	char a[64], b[64], *name, *out;
	size_t lo, hi, i, j;

	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		const struct node_class *nc = p->classes[p->arcs[i].k].nc;
		size_t *q = cplan_queue(cp, p->arcs[i].k, p->arcs[i].s);
		for (j = 0; j < cp->fqn[p->arcs[i].k][p->arcs[i].s]; j++) {
			const struct cslot *s = &cp->slots[q[j]];
			const struct cnode *n = &cp->nodes[s->node];
			double lc = fmax(0, n->cpu_used + w->cpu_cores - nc->cpu_cores);
			double lr = fmax(0, n->ram_used + w->ram_gib - nc->ram_gib);
			double x = (nc->cpu_cores > 0 ? lc / nc->cpu_cores : 0) + (nc->ram_gib > 0 ? lr / nc->ram_gib : 0);
			if (s->d >= 0 || x >= best)
				continue;
			best = x;
			bs = s;
			cpu = lc;
			ram = lr;
		}
	}
	if (!bs)
		return xstrdup("the nodes with a free slot it fits have no CPU or RAM left");
	name = cplan_node_name(cp, &cp->nodes[bs->node]);
	out = xasprintf("the nodes with a free slot it fits have no CPU or RAM left; nearest: %s (%s) has a "
			"free %s slot but lacks %s%s%s%s%s", name, mode_name(cp->nodes[bs->node].mode),
			p->classes[cp->nodes[bs->node].k].slot_types[bs->type].name,
			cpu > 0 ? fmt_num_short(a, sizeof(a), cpu, 2) : "", cpu > 0 ? " CPU cores" : "",
			cpu > 0 && ram > 0 ? " and " : "", ram > 0 ? fmt_num_short(b, sizeof(b), ram, 2) : "",
			ram > 0 ? " GiB of RAM" : "");
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
	if (cplan_caps_bind(cp, d)) {
		cp->reason[d] = problem_cap_reason(p, d);
		return;
	}
	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi && !slot_left; i++) {
		size_t *q = cplan_queue(cp, p->arcs[i].k, p->arcs[i].s), j;
		/* a free slot behind the head is queued again after it (cplan_slot_clear) */
		for (j = cp->fqhead[p->arcs[i].k][p->arcs[i].s]; j < cp->fqn[p->arcs[i].k][p->arcs[i].s] && !slot_left;
		     j++)
			if (cp->slots[q[j]].d < 0)
				slot_left = 1;
	}
	cp->reason[d] = slot_left ? nearest_cpu_ram(cp, d) : nearest_node(cp, d);
}
