/*
 * reserve.c - headroom for failures (reserve.h): a failure's replicas
 * placed again into the plan, with new capacity where none is free, and
 * taken out again so that only the capacity stays.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reserve.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "util.h"
#include "banned.h"

void reserve_index_build(struct reserve_index *ix, const struct cplan *cp)
{
	size_t *node = xmalloc((cp->nslots + 1) * sizeof(*node)), *occ = xmalloc((cp->nslots + 1) * sizeof(*occ));
	size_t i, nocc = 0;

	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0) {
			occ[nocc] = i;
			node[nocc++] = (size_t)cp->slots[i].node;
		}
	ix->nnodes = cp->nnodes;
	cplan_group_by(node, nocc, cp->nnodes, &ix->first, &ix->by);
	for (i = 0; i < nocc; i++)
		ix->by[i] = occ[ix->by[i]];
	free(node);
	free(occ);
}

void reserve_index_release(struct reserve_index *ix)
{
	free(ix->first);
	free(ix->by);
	memset(ix, 0, sizeof(*ix));
}

/* A lost replica: its demand and the slot it held. */
struct lost {
	const struct problem *p;
	int d;
	size_t slot;
};

/* The failure analysis's order: priority (highest first), workload name, demand, slot. */
static int lost_order(const void *a, const void *b)
{
	const struct lost *x = a, *y = b;
	const struct workload *wx = x->p->demands[x->d].w, *wy = y->p->demands[y->d].w;
	int c;

	if (wx->priority != wy->priority)
		return wx->priority > wy->priority ? -1 : 1;
	c = strcmp(wx->name, wy->name);
	if (c)
		return c;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* The replicas of priority >= prio on the failed nodes, in lost_order; their count. */
static size_t collect(const struct cplan *cp, const struct reserve_index *ix, const size_t *fail, size_t nfail,
		      int prio, struct lost **out)
{
	struct lost *l = NULL;
	size_t n = 0, cap = 0, i, j;

	for (i = 0; i < nfail; i++) {
		if (fail[i] >= ix->nnodes)
			continue;	/* opened after the index: holds no replica */
		for (j = ix->first[fail[i]]; j < ix->first[fail[i] + 1]; j++) {
			size_t s = ix->by[j];
			int d = cp->slots[s].d;
			if (d < 0 || cp->p->demands[d].w->priority < prio)
				continue;
			XGROW(l, cap, n + 1);
			l[n].p = cp->p;
			l[n].d = d;
			l[n++].slot = s;
		}
	}
	if (n)
		qsort(l, n, sizeof(*l), lost_order);
	*out = l;
	return n;
}

/* Node n has room for d once the replica of e leaves it. */
static int room_after(const struct cplan *cp, const struct cnode *n, int e, int d)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;
	const struct workload *we = cp->p->demands[e].w, *wd = cp->p->demands[d].w;

	return n->cpu_used - we->cpu_cores + wd->cpu_cores <= nc->cpu_cores + 1e-9 &&
	       n->ram_used - we->ram_gib + wd->ram_gib <= nc->ram_gib + 1e-9;
}

/*
 * No free slot takes d and no new GPU or node can: a slot of d's arcs on
 * a surviving node that a replica of priority < prio holds, that replica
 * moved to a slot elsewhere (not on that node), and the slot emptied for
 * d; (size_t)-1 when none.  Replicas below the floor are not guaranteed,
 * so moving one asks nothing of any failure; it still runs.  stuck[e]:
 * e found no slot elsewhere in this cover (nothing is freed meanwhile).
 */
static size_t make_room(struct cplan *cp, int d, int prio, unsigned char *stuck)
{
	const struct problem *p = cp->p;
	size_t lo, hi, a, sl;

	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a++) {
		for (sl = 0; sl < cp->nslots; sl++) {
			struct cslot *c = &cp->slots[sl];
			struct cnode *n = &cp->nodes[c->node];
			size_t to;
			double cpu;
			long replica;
			int e = c->d;
			if (e < 0 || e == d || stuck[e] || n->k != p->arcs[a].k ||
			    p->classes[n->k].slot_types[c->type].rep != p->arcs[a].s || p->demands[e].w->priority >= prio ||
			    !room_after(cp, n, e, d))
				continue;
			cpu = n->cpu_used;
			n->cpu_used = HUGE_VAL;	/* e goes elsewhere */
			cp->memo->epoch++;
			to = cplan_place_one(cp, e, 1);
			n->cpu_used = cpu;
			cp->memo->epoch++;
			if (to == (size_t)-1) {
				stuck[e] = 1;
				continue;
			}
			replica = c->replica;
			cplan_slot_clear(cp, sl);
			cplan_slot_fill(cp, to, e, replica);
			return sl;
		}
	}
	return (size_t)-1;
}

void reserve_cover(struct cplan *cp, const struct reserve_index *ix, const struct reserve_loss *ls,
		   struct reserve_cover *out)
{
	const size_t *fail = ls->nodes, nfail = ls->n;
	int prio = ls->prio, add = ls->add;
	struct lost *l;
	size_t n = collect(cp, ix, fail, nfail, prio, &l), i, nfill = 0, nslots0 = cp->nslots;
	size_t *filled = xmalloc((n + 1) * sizeof(*filled));
	double *cpu = xmalloc((nfail + 1) * sizeof(*cpu));
	unsigned char *stuck = add ? xcalloc(cp->p->ndemands + 1, 1) : NULL;

	memset(out, 0, sizeof(*out));
	out->lost = (long)n;
	/* the failed nodes take nothing: their CPU is all taken (failures.c does the same) */
	for (i = 0; i < nfail; i++) {
		cpu[i] = cp->nodes[fail[i]].cpu_used;
		cp->nodes[fail[i]].cpu_used = HUGE_VAL;
	}
	cp->memo->epoch++;
	for (i = 0; i < n; i++) {
		int d = l[i].d;
		size_t s, j;
		if (add && !out->cut && deadline_passed(ls->dl))
			out->cut = 1;
		if (out->cut) {	/* not covered in time */
			out->stranded++;
			continue;
		}
		s = cplan_find_free(cp, d);
		if (s == (size_t)-1 && add) {
			long left = 0;
			for (j = i; j < n && l[j].d == d; j++)
				left++;
			s = cplan_place_one(cp, d, left);
			if (s == (size_t)-1) {
				s = make_room(cp, d, prio, stuck);
				out->moved += s != (size_t)-1;
			}
		}
		if (s == (size_t)-1) {
			out->stranded++;
			continue;
		}
		cplan_slot_fill(cp, s, d, -1);
		filled[nfill++] = s;
	}
	while (nfill > 0)
		cplan_slot_clear(cp, filled[--nfill]);
	for (i = nfail; i > 0; i--)
		cp->nodes[fail[i - 1]].cpu_used = cpu[i - 1];
	cp->memo->epoch++;
	out->added = (long)(cp->nslots - nslots0);
	free(filled);
	free(cpu);
	free(stuck);
	free(l);
}
