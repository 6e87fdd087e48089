/*
 * cplan_repair.c - placing what is left unplaced by ejection chains:
 * moving replicas between the plan's slots to make room (no GPU is
 * configured and no node opened here).  Used by the deal of ILP counts
 * (cplan_deal.c) after its greedy completion.
 */
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "cplan_repair.h"
#include "util.h"
#include "banned.h"

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
	struct cplan_cand *cand[2 * REPAIR_DEPTH + 2];	/* scratch: [2 * depth] find_home, [+ 1] make_room */
	size_t ncandcap[2 * REPAIR_DEPTH + 2];
	long steps;			/* left for the current replica */
	long total;			/* left for the pass */
};

static void repair_init(struct repair *rp, struct cplan *cp)
{
	size_t i, *key = xmalloc((cp->nslots + cp->nnodes + 1) * sizeof(*key));

	memset(rp, 0, sizeof(*rp));
	rp->cp = cp;
	for (i = 0; i < cp->nslots; i++)
		key[i] = (size_t)cp->slots[i].node;
	cplan_group_by(key, cp->nslots, cp->nnodes, &rp->first, &rp->byslot);
	for (i = 0; i < cp->nnodes; i++)
		key[i] = (size_t)cp->nodes[i].k;
	cplan_group_by(key, cp->nnodes, cp->p->nclasses, &rp->kfirst, &rp->bynode);
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

	cplan_slot_clear(cp, from);
	cplan_slot_fill(cp, to, d, r);
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
		cplan_slot_clear(cp, mv->to);
		cplan_slot_fill(cp, mv->from, d, r);
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

/* Sorts the first n candidates of level `level` (none may be allocated yet). */
static void cand_sort(struct repair *rp, int level, size_t n)
{
	if (n > 1)
		qsort(rp->cand[level], n, sizeof(*rp->cand[level]), cplan_cand_order);
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
			share = cplan_load_share(nc, y);
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

	problem_arcs_of(p, e, &lo, &hi);
	for (a = lo; a < hi; a++) {
		int k = p->arcs[a].k, s = p->arcs[a].s;
		const size_t *q;
		cplan_queue_compact(cp, k, s);
		q = cplan_queue(cp, k, s);
		for (i = cp->fqhead[k][s]; i < cp->fqn[k][s]; i++) {
			const struct cslot *sl = &cp->slots[q[i]];
			if (!repair_charge(rp))
				return (size_t)-1;
			if (sl->d < 0 && !forbidden(f, sl->node) && cplan_node_has_room(cp, &cp->nodes[sl->node], p->demands[e].w))
				return q[i];
		}
	}
	return (size_t)-1;
}

/*
 * For find_home, at the top: a slot a replica of demand e fits that
 * another demand holds, on a node with room once that replica leaves
 * (the lightest first), freed by moving that replica up to depth - 1
 * levels (logged).  -1, with nothing moved, when there is none.
 */
static size_t home_taken(struct repair *rp, int e, int depth, const struct repair_forbid *f)
{
	struct cplan *cp = rp->cp;
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[e].w;
	size_t lo, hi, a, b, nc = 0, t;
	int buf = 2 * depth;
	struct repair_forbid g = *f;

	problem_arcs_of(p, e, &lo, &hi);
	g.n = f->n + 1;
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
			if (forbidden(f, node) || !cplan_caps_allow(cp, e, node))
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
				cand_add(rp, buf, &nc, cplan_load_share(c->nc, y), rp->byslot[q]);
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
	size_t lo, hi, a, i, nc = 0, t;
	int buf = 2 * depth;
	unsigned id;
	struct repair_forbid g = *f;

	t = home_direct(rp, e, f);
	if (t != (size_t)-1 || depth == 0 || f->n >= REPAIR_DEPTH)
		return t;
	id = ++rp->search;
	problem_arcs_of(p, e, &lo, &hi);
	/* free slots it fits on nodes short of CPU or RAM, the least short first */
	for (a = lo; a < hi; a++) {
		int k = p->arcs[a].k, s = p->arcs[a].s;
		const size_t *q = cplan_queue(cp, k, s);
		for (i = cp->fqhead[k][s]; i < cp->fqn[k][s]; i++) {
			const struct cslot *sl = &cp->slots[q[i]];
			const struct cnode *n = &cp->nodes[sl->node];
			const struct node_class *ncl = p->classes[n->k].nc;
			if (!repair_charge(rp))
				return (size_t)-1;
			if (sl->d >= 0 || forbidden(f, sl->node) || rp->seen[sl->node] == id ||
			    w->cpu_cores > ncl->cpu_cores + 1e-9 || w->ram_gib > ncl->ram_gib + 1e-9 ||
			    !cplan_caps_allow(cp, e, sl->node))
				continue;
			rp->seen[sl->node] = id;
			/* how short the node is: minus the share it would keep free */
			cand_add(rp, buf, &nc, -cplan_headroom(cp, n, w), q[i]);
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
	return top ? home_taken(rp, e, depth, f) : (size_t)-1;
}

/*
 * Places what is unplaced by repair, heaviest demands first; each
 * replica placed comes off unplaced[d] (and the reason goes with the
 * last one).
 */
void cplan_repair_unplaced(struct cplan *cp)
{
	const struct problem *p = cp->p;
	struct repair rp;
	struct repair_forbid none;
	size_t *ord, i;

	if (!cplan_unplaced_count(cp))
		return;
	ord = cplan_demands_by_load(p);
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
			if (t != (size_t)-1 && !cplan_caps_allow(cp, d, cp->slots[t].node))
				t = (size_t)-1;	/* the moves filled the node d's caps allow no more on */
			if (t == (size_t)-1) {
				repair_undo(&rp, 0);
				break; /* the next replica would fail the same way */
			}
			cplan_place_at(cp, t, d);
			if (!--cp->unplaced[d]) {
				free(cp->reason[d]);
				cp->reason[d] = NULL;
			}
		}
	}
	repair_release(&rp);
	free(ord);
}
