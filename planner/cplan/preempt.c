/*
 * preempt.c - a slot to take by evicting a replica below the floor
 * (preempt.h).
 */
#include <stdlib.h>
#include <string.h>

#include "preempt.h"
#include "cplan_engine.h"
#include "failures.h"
#include "util.h"
#include "banned.h"

void preempt_index_build(struct preempt_index *px, const struct cplan *cp, int floor)
{
	const struct problem *p = cp->p;
	size_t *key = xmalloc((cp->nslots + 1) * sizeof(*key)), *occ = xmalloc((cp->nslots + 1) * sizeof(*occ));
	size_t i, n = 0, nkeys = 0;

	memset(px, 0, sizeof(*px));
	px->floor = floor;
	px->qoff = xcalloc(p->nclasses + 1, sizeof(*px->qoff));
	for (i = 0; i < p->nclasses; i++) {
		px->qoff[i] = nkeys;
		nkeys += p->classes[i].nslot_types;
	}
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		int k = cp->nodes[s->node].k;
		if (s->d < 0 || s->d == FAIL_SLOT_OFF || p->demands[s->d].w->priority >= floor || p->demands[s->d].w->vm)
			continue;
		occ[n] = i;
		key[n++] = px->qoff[k] + (size_t)p->classes[k].slot_types[s->type].rep;
	}
	cplan_group_by(key, n, nkeys, &px->first, &px->by);
	for (i = 0; i < n; i++)
		px->by[i] = occ[px->by[i]];
	free(key);
	free(occ);
}

void preempt_index_release(struct preempt_index *px)
{
	free(px->qoff);
	free(px->first);
	free(px->by);
	memset(px, 0, sizeof(*px));
}

/* Node n has the CPU and RAM for w once the replica of v leaves it, and d's caps let one more on it. */
static int room_without(const struct cplan *cp, int node, const struct workload *v, int d)
{
	const struct cnode *n = &cp->nodes[node];
	const struct node_class *nc = cp->p->classes[n->k].nc;
	const struct workload *w = cp->p->demands[d].w;

	return n->cpu_used - v->cpu_cores + w->cpu_cores <= nc->cpu_cores + 1e-9 &&
	       n->ram_used - v->ram_gib + w->ram_gib <= nc->ram_gib + 1e-9 && cplan_caps_allow(cp, d, node);
}

size_t preempt_find(const struct cplan *cp, const struct preempt_index *px, int d, const unsigned char *gone)
{
	const struct problem *p = cp->p;
	size_t lo, hi, a, j;

	/* a VM is no pod: the scheduler neither evicts it nor evicts for it */
	if (p->demands[d].w->priority < px->floor || p->demands[d].w->vm)
		return (size_t)-1;
	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a++) {
		size_t g = px->qoff[p->arcs[a].k] + (size_t)p->arcs[a].s;
		for (j = px->first[g]; j < px->first[g + 1]; j++) {
			size_t s = px->by[j];
			int e = cp->slots[s].d;
			if (e < 0 || e == FAIL_SLOT_OFF || (gone && gone[s]) || p->demands[e].w->priority >= px->floor ||
			    p->demands[e].w->vm || !room_without(cp, cp->slots[s].node, p->demands[e].w, d))
				continue;
			return s;
		}
	}
	return (size_t)-1;
}

/* ================= make_room: leave-out-lower-priority ================= */

/* The first arc of d (lo .. hi) to the slot type of slot s's class; hi when none. */
static size_t arc_to(const struct cplan *cp, size_t lo, size_t hi, size_t s)
{
	const struct problem *p = cp->p;
	int k = cp->nodes[cp->slots[s].node].k, rep = p->classes[k].slot_types[cp->slots[s].type].rep;
	size_t a;

	for (a = lo; a < hi && !(p->arcs[a].k == k && p->arcs[a].s == rep); a++)
		;
	return a;
}

/* Holder e at arc a before holder f at arc b: lower priority, then less penalty, then arc (then slot: the caller). */
static int leave_first(const struct problem *p, int e, size_t a, int f, size_t b)
{
	const struct pdemand *x = &p->demands[e], *y = &p->demands[f];

	if (x->w->priority != y->w->priority)
		return x->w->priority < y->w->priority;
	if (x->penalty != y->penalty)
		return x->penalty < y->penalty;
	return a < b;
}

size_t preempt_leave_out_find(const struct cplan *cp, int d, int floor, const unsigned char *gone, size_t ngone)
{
	const struct problem *p = cp->p;
	size_t lo, hi, s, a, best = (size_t)-1, best_arc = 0;

	problem_arcs_of(p, d, &lo, &hi);
	for (s = 0; s < cp->nslots; s++) {
		int e = cp->slots[s].d;
		if (e < 0 || e == FAIL_SLOT_OFF || e == d || (s < ngone && gone[s]) || p->demands[e].w->priority >= floor ||
		    p->demands[e].cap >= 0)
			continue;
		a = arc_to(cp, lo, hi, s);
		if (a == hi || (best != (size_t)-1 && !leave_first(p, e, a, cp->slots[best].d, best_arc)) ||
		    !room_without(cp, cp->slots[s].node, p->demands[e].w, d))
			continue;
		best = s;
		best_arc = a;
	}
	return best;
}

void preempt_leave_out(struct cplan *cp, size_t slot)
{
	int e = cp->slots[slot].d;

	cplan_slot_clear(cp, slot);
	cp->placed[e]--;
	cp->unplaced[e]++;
}

void preempt_renumber(struct cplan *cp, int d)
{
	long n = cp->placed[d], next = 0;
	unsigned char *used = xcalloc((size_t)n + 1, 1);
	size_t s;

	for (s = 0; s < cp->nslots; s++)
		if (cp->slots[s].d == d && cp->slots[s].replica >= 0 && cp->slots[s].replica < n)
			used[cp->slots[s].replica] = 1;
	for (s = 0; s < cp->nslots; s++) {
		if (cp->slots[s].d != d || (cp->slots[s].replica >= 0 && cp->slots[s].replica < n))
			continue;
		while (next < n && used[next])
			next++;
		if (next < n) {
			cp->slots[s].replica = next;
			used[next] = 1;
		}
	}
	free(used);
}
