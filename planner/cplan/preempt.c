/*
 * preempt.c - a slot to take by evicting a replica below the floor
 * (preempt.h).
 */
#include <math.h>
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

int preempt_may_leave(const struct problem *p, int e, int floor)
{
	return e >= 0 && e != FAIL_SLOT_OFF && p->demands[e].w->priority < floor && p->demands[e].cap < 0;
}

/* Slot s's holder may be left out for d: preempt_may_leave's rule, not d, not gone. */
static int may_leave(const struct cplan *cp, size_t s, int d, int floor, const unsigned char *gone, size_t ngone)
{
	int e = cp->slots[s].d;

	return e != d && !(s < ngone && gone[s]) && preempt_may_leave(cp->p, e, floor);
}

size_t preempt_leave_out_find(const struct cplan *cp, int d, int floor, const unsigned char *gone, size_t ngone)
{
	const struct problem *p = cp->p;
	size_t lo, hi, s, a, best = (size_t)-1, best_arc = 0;

	problem_arcs_of(p, d, &lo, &hi);
	for (s = 0; s < cp->nslots; s++) {
		int e = cp->slots[s].d;
		if (!may_leave(cp, s, d, floor, gone, ngone))
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

/* qsort order of holders' slots (room_cp's): leave_first's, then slot order. */
static _Thread_local const struct cplan *room_cp;
static int room_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int e = room_cp->slots[x].d, f = room_cp->slots[y].d;

	if (leave_first(room_cp->p, e, 0, f, 0))
		return -1;
	if (leave_first(room_cp->p, f, 0, e, 0))
		return 1;
	return (x > y) - (x < y);
}

/*
 * Node `node`'s holders below the floor (slots by[0 .. n)) leave out, in
 * leave_first's order, while CPU or RAM for w is short: into r->out; 0
 * when that makes room, else -1 (r->n then meaningless).
 */
static int room_on(const struct cplan *cp, int node, const struct workload *w, size_t *by, size_t n,
		   struct preempt_room *r)
{
	const struct cnode *nd = &cp->nodes[node];
	const struct node_class *nc = cp->p->classes[nd->k].nc;
	double cpu = nd->cpu_used + w->cpu_cores - nc->cpu_cores, ram = nd->ram_used + w->ram_gib - nc->ram_gib;
	size_t i;

	room_cp = cp;
	qsort(by, n, sizeof(*by), room_order);
	r->n = 0;
	for (i = 0; i < n && (cpu > 1e-9 || ram > 1e-9); i++) {
		const struct workload *v = cp->p->demands[cp->slots[by[i]].d].w;
		if (!((cpu > 1e-9 && v->cpu_cores > 0) || (ram > 1e-9 && v->ram_gib > 0)))
			continue;	/* gives back nothing short */
		r->out[r->n++] = by[i];
		cpu -= v->cpu_cores;
		ram -= v->ram_gib;
	}
	return cpu > 1e-9 || ram > 1e-9 ? -1 : 0;
}

void preempt_leave_out_room(const struct cplan *cp, int d, int floor, const unsigned char *gone, size_t ngone,
			    struct preempt_room *r)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t *first, *mine, lo, hi, a, s, j, n;
	uint32_t *by;
	unsigned char *tried = xcalloc(cp->nnodes + 1, 1);

	r->slot = (size_t)-1;
	r->n = 0;
	r->out = xmalloc((cp->nslots + 1) * sizeof(*r->out));
	mine = xmalloc((cp->nslots + 1) * sizeof(*mine));
	cplan_slots_by_node(cp, &first, &by);
	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi && r->slot == (size_t)-1; a++)
		for (s = 0; s < cp->nslots && r->slot == (size_t)-1; s++) {
			int node = cp->slots[s].node;
			const struct cnode *nd = &cp->nodes[node];
			if (cp->slots[s].d != -1 || (s < ngone && gone[s]) || tried[node] || isinf(nd->cpu_used) ||
			    arc_to(cp, a, a + 1, s) != a || cplan_node_has_room(cp, nd, w) || !cplan_caps_allow(cp, d, node))
				continue;
			tried[node] = 1;
			for (j = first[node], n = 0; j < first[node + 1]; j++)
				if (may_leave(cp, by[j], d, floor, gone, ngone))
					mine[n++] = by[j];
			if (room_on(cp, node, w, mine, n, r) == 0)
				r->slot = s;
		}
	if (r->slot == (size_t)-1)
		r->n = 0;
	free(first);
	free(by);
	free(mine);
	free(tried);
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
