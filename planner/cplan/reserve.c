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
#include "failures.h"
#include "preempt.h"
#include "reserve_empty.h"
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

/* The replicas of priority >= ls->prio on the failed nodes (or GPUs), in lost_order; their count. */
static size_t collect(const struct cplan *cp, const struct reserve_index *ix, const struct reserve_loss *ls,
		      struct lost **out)
{
	const size_t *fail = ls->nodes;
	struct lost *l = NULL;
	size_t n = 0, cap = 0, i, j;

	for (i = 0; i < ls->n; i++) {
		if (fail[i] >= ix->nnodes)
			continue;	/* opened after the index: holds no replica */
		for (j = ix->first[fail[i]]; j < ix->first[fail[i] + 1]; j++) {
			size_t s = ix->by[j];
			int d = cp->slots[s].d;
			if (d < 0 || d == FAIL_SLOT_OFF || cp->p->demands[d].w->priority < ls->prio ||
			    !fail_slot_on(cp, s, fail[i], ls->gpus ? ls->gpus[i] : -1))
				continue;
			XGROW(l, cap, n + 1);
			l[n].p = cp->p;
			l[n].d = d;
			l[n++].slot = s;
		}
	}
	if (n)
		qsort(l, n, sizeof(*l), lost_order);
	for (i = j = 0; i < n; i++)	/* a multi-GPU replica on two failed GPUs of a node is lost once */
		if (!j || l[j - 1].slot != l[i].slot)
			l[j++] = l[i];
	*out = l;
	return j;
}

/* Slot sl is on a failed node or GPU of ls. */
static int on_lost(const struct cplan *cp, const struct reserve_loss *ls, size_t sl)
{
	size_t i;

	for (i = 0; i < ls->n; i++)
		if (fail_slot_on(cp, sl, ls->nodes[i], ls->gpus ? ls->gpus[i] : -1))
			return 1;
	return 0;
}

/* What take_out changed, for put_back. */
struct taken {
	double *cpu, *ram;		/* per entry of the loss: its node's loads before */
	double *cpu_out, *ram_out;	/* and after the loss was taken out */
	size_t *off;			/* the slots marked, each followed by its queue's head then */
	size_t noff;
};

/*
 * Takes the failed nodes and GPUs out, as the failure analysis does: a
 * node takes nothing (its CPU all taken); a GPU's free slots are marked
 * taken (FAIL_SLOT_OFF, their ids into t->off, each followed by the head
 * of its free slot queue then, which a search may move past it) and the
 * CPU and RAM of the replicas it held go back to its node.
 */
static void take_out(struct cplan *cp, const struct reserve_loss *ls, struct taken *t)
{
	size_t i, s, cap = 0, n1 = ls->n + 1;

	t->cpu = xmalloc(n1 * sizeof(*t->cpu));
	t->ram = xmalloc(n1 * sizeof(*t->ram));
	t->cpu_out = xmalloc(n1 * sizeof(*t->cpu_out));
	t->ram_out = xmalloc(n1 * sizeof(*t->ram_out));
	t->off = NULL;
	t->noff = 0;
	for (i = 0; i < ls->n; i++) {
		t->cpu[i] = cp->nodes[ls->nodes[i]].cpu_used;
		t->ram[i] = cp->nodes[ls->nodes[i]].ram_used;
		if (!ls->gpus || ls->gpus[i] < 0)
			cp->nodes[ls->nodes[i]].cpu_used = HUGE_VAL;
	}
	for (s = 0; ls->gpus && s < cp->nslots; s++) {
		struct cslot *c = &cp->slots[s];
		struct cnode *nd = &cp->nodes[c->node];
		if (!on_lost(cp, ls, s))
			continue;
		if (c->d < 0) {
			c->d = FAIL_SLOT_OFF;
			XGROW(t->off, cap, 2 * t->noff + 2);
			t->off[2 * t->noff] = s;
			t->off[2 * t->noff + 1] = cp->fqhead[nd->k][cp->p->classes[nd->k].slot_types[c->type].rep];
			t->noff++;
		} else if (c->d != FAIL_SLOT_OFF && nd->cpu_used < HUGE_VAL) {
			nd->cpu_used -= cp->p->demands[c->d].w->cpu_cores;
			nd->ram_used -= cp->p->demands[c->d].w->ram_gib;
		}
	}
	for (i = 0; i < ls->n; i++) {
		t->cpu_out[i] = cp->nodes[ls->nodes[i]].cpu_used;
		t->ram_out[i] = cp->nodes[ls->nodes[i]].ram_used;
	}
	cp->memo->epoch++;
}

/* A node's load back: as saved when nothing changed it since (no rounding), else what changed it kept. */
static double load_back(double before, double out, double now)
{
	return now == out ? before : before + (now - out);
}

/*
 * Undoes take_out.  A marked slot is free again where it was in its
 * queue: the head goes back before it (the first saved of a queue is
 * restored last); the slots the head so passes again are free or checked.
 * A failed node's loads go back as saved; a node that lost a GPU keeps
 * running, and what moved on or off it meanwhile (a replica moved below
 * the floor, a split) stays counted.
 */
static void put_back(struct cplan *cp, const struct reserve_loss *ls, struct taken *t)
{
	size_t i, j;

	while (t->noff > 0) {
		struct cslot *c = &cp->slots[t->off[2 * --t->noff]];
		int k = cp->nodes[c->node].k;
		c->d = -1;
		cp->fqhead[k][cp->p->classes[k].slot_types[c->type].rep] = t->off[2 * t->noff + 1];
	}
	for (i = ls->n; i > 0; i--) {
		struct cnode *n = &cp->nodes[ls->nodes[i - 1]];
		for (j = i; j < ls->n && ls->nodes[j] != ls->nodes[i - 1]; j++)
			;
		if (j < ls->n)
			continue;	/* a node with two failed GPUs: put back once */
		n->cpu_used = load_back(t->cpu[i - 1], t->cpu_out[i - 1], n->cpu_used);
		n->ram_used = load_back(t->ram[i - 1], t->ram_out[i - 1], n->ram_used);
	}
	cp->memo->epoch++;
	free(t->off);
	free(t->cpu);
	free(t->ram);
	free(t->cpu_out);
	free(t->ram_out);
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
static size_t make_room(struct cplan *cp, int d, const struct reserve_loss *ls, unsigned char *stuck)
{
	const struct problem *p = cp->p;
	int prio = ls->prio;
	size_t lo, hi, a, sl, ni;

	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a++) {
		for (sl = 0; sl < cp->nslots; sl++) {
			struct cslot *c = &cp->slots[sl];
			struct cnode *n = &cp->nodes[c->node];
			size_t to;
			double cpu;
			long replica;
			int e = c->d;
			if (e < 0 || e == d || e == FAIL_SLOT_OFF || stuck[e] || n->k != p->arcs[a].k ||
			    p->classes[n->k].slot_types[c->type].rep != p->arcs[a].s || p->demands[e].w->priority >= prio ||
			    !room_after(cp, n, e, d) || (ls->gpus && on_lost(cp, ls, sl)))
				continue;
			cpu = n->cpu_used;
			n->cpu_used = HUGE_VAL;	/* e goes elsewhere */
			cp->memo->epoch++;
			replica = c->replica;
			ni = (size_t)c->node;
			/* it may open a node or lay slots: the arrays may move, c and n with them */
			to = cplan_place_one(cp, e, 1);
			cp->nodes[ni].cpu_used = cpu;
			cp->memo->epoch++;
			if (to == (size_t)-1) {
				stuck[e] = 1;
				continue;
			}
			cplan_slot_clear(cp, sl);
			cplan_slot_fill(cp, to, e, replica);
			return sl;
		}
	}
	return (size_t)-1;
}

/* True when d has an arc to slot type t of class k (a slot of type t on a node of k takes d). */
static int takes(const struct problem *p, int d, int k, int t)
{
	size_t lo, hi, a;

	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a++)
		if (p->arcs[a].k == k && p->arcs[a].s == p->classes[k].slot_types[t].rep)
			return 1;
	return 0;
}

/* A re-split of a node for d: the node, the pattern, the replicas to move off it, d's slots it gives. */
struct split {
	long node;
	int pattern;
	long moves, gain;
};

/* What a re-split is for: demand d, the loss covered (its floor), and the demands found stuck in this cover. */
struct split_ask {
	int d;
	const struct reserve_loss *ls;
	const unsigned char *stuck;
};

/* A GPU of gpu .. gpu + ngpus - 1 of node `node` is lost in ls. */
static int gpus_lost(const struct reserve_loss *ls, long node, int gpu, int ngpus)
{
	size_t i;

	for (i = 0; ls->gpus && i < ls->n; i++)
		if ((long)ls->nodes[i] == node && ls->gpus[i] >= gpu && ls->gpus[i] < gpu + ngpus)
			return 1;
	return 0;
}

/*
 * What splitting node sp->node (its slots slots[0 .. nslots)) by
 * sp->pattern gives a->d, into sp's moves and gain, and in mv[i] whether slots[i] holds a replica that
 * must move (below the floor, not stuck: its group is not in the new
 * layout; a group that stays has the same GPUs and slot type); 0 when it
 * fits (CPU and RAM for d once they are gone, as many free groups as the
 * node will have free slots, one at least d takes), else -1.
 *
 * A GPU the loss takes (a->ls->gpus) is gone for the failure: its slots
 * are neither free nor movable, so their groups stay where they are (its
 * replicas still run in the plan; its free slots, marked taken, are the
 * failure's to give back), and a new layout laying a free group on it is
 * not made (d could land on a GPU that failed).
 */
static int split_eval(const struct cplan *cp, const struct split_ask *a, const uint32_t *slots, size_t nslots,
		      struct split *sp, unsigned char *mv)
{
	const struct cnode *n = &cp->nodes[sp->node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct config *cf = &c->configs[sp->pattern];
	const struct workload *wd = cp->p->demands[a->d].w;
	int ng = c->nc->gpus_per_node, g, r, next = 0, ngr = 0, nfree = 0;
	int *gr = xmalloc(((size_t)ng + 1) * 4 * sizeof(*gr));	/* per group: gpu, gpus, type, kept */
	double cpu = n->cpu_used + wd->cpu_cores, ram = n->ram_used + wd->ram_gib;
	size_t j, i;
	int rc = 0;

	sp->moves = sp->gain = 0;
	for (j = 0; j < cf->nreal; j++)	/* the layout, as cplan_open_node makes it */
		for (r = 0; r < cf->real_count[j] && next + c->slot_types[cf->real_slot[j]].gpus <= ng; r++) {
			int *e = &gr[4 * ngr++];
			e[0] = next, e[1] = c->slot_types[cf->real_slot[j]].gpus, e[2] = cf->real_slot[j], e[3] = 0;
			next += e[1];
		}
	for (i = 0; i < nslots && !rc; i++) {
		const struct cslot *s = &cp->slots[slots[i]];
		const struct workload *we;
		mv[i] = 0;
		if (s->d < 0) {
			nfree++;
			continue;
		}
		for (g = 0; g < ngr; g++)
			if (!gr[4 * g + 3] && gr[4 * g] == s->gpu && gr[4 * g + 1] == s->ngpus && gr[4 * g + 2] == s->type)
				break;
		if (g < ngr) {
			gr[4 * g + 3] = 1;
			continue;
		}
		if (s->d == FAIL_SLOT_OFF || gpus_lost(a->ls, sp->node, s->gpu, s->ngpus)) {
			rc = -1;	/* a lost GPU's group is not in the new layout */
			break;
		}
		we = cp->p->demands[s->d].w;
		if (we->priority >= a->ls->prio || a->stuck[s->d])
			rc = -1;
		mv[i] = 1;
		nfree++;
		sp->moves++;
		cpu -= we->cpu_cores;
		ram -= we->ram_gib;
	}
	for (g = 0, r = 0; g < ngr && !rc; g++) {
		if (gr[4 * g + 3])
			continue;
		if (gpus_lost(a->ls, sp->node, gr[4 * g], gr[4 * g + 1]))
			rc = -1;	/* a free group on a lost GPU */
		r++;
		sp->gain += takes(cp->p, a->d, n->k, gr[4 * g + 2]);
	}
	free(gr);
	if (rc || !sp->gain || r < nfree || cpu > c->nc->cpu_cores + 1e-9 || ram > c->nc->ram_gib + 1e-9)
		return -1;
	return 0;
}

/* The best re-split for d (fewest moves, then most slots for d, then first); -1 in best->node when none. */
static void split_best(const struct cplan *cp, int d, const struct reserve_loss *ls, const unsigned char *stuck,
		       struct split *best)
{
	const struct problem *p = cp->p;
	const struct split_ask ask = { d, ls, stuck };
	size_t *first, i, ci;
	uint32_t *by;
	unsigned char *mv = xmalloc(cp->nslots + 1);

	memset(best, 0, sizeof(*best));
	best->node = -1;
	cplan_slots_by_node(cp, &first, &by);
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct pclass *c = &p->classes[n->k];
		if (n->mode != MODE_PASSTHROUGH || n->pattern < 0 || isinf(n->cpu_used) ||
		    !cplan_caps_allow(cp, d, (int)i))
			continue;
		for (ci = 0; ci < c->nconfigs; ci++) {
			struct split sp = { (long)i, (int)ci, 0, 0 };
			if (c->configs[ci].mode != MODE_PASSTHROUGH || !c->configs[ci].node_pattern ||
			    (int)ci == n->pattern || !cplan_fit_count(p, d, n->k, &c->configs[ci]) ||
			    split_eval(cp, &ask, by + first[i], first[i + 1] - first[i], &sp, mv))
				continue;
			if (best->node < 0 || sp.moves < best->moves || (sp.moves == best->moves && sp.gain > best->gain))
				*best = sp;
		}
	}
	free(first);
	free(by);
	free(mv);
}

/* Moves the replica of slot i (not on its node, which it leaves) to a slot elsewhere; that slot, or -1. */
static size_t move_off(struct cplan *cp, size_t i)
{
	int node = cp->slots[i].node, e = cp->slots[i].d;
	double cpu = cp->nodes[node].cpu_used;
	long replica = cp->slots[i].replica;
	size_t t;

	cp->nodes[node].cpu_used = HUGE_VAL;	/* e goes elsewhere */
	cp->memo->epoch++;
	t = cplan_place_one(cp, e, 1);
	cp->nodes[node].cpu_used = cpu;
	cp->memo->epoch++;
	if (t != (size_t)-1) {
		cplan_slot_clear(cp, i);
		cplan_slot_fill(cp, t, e, replica);
	}
	return t;
}

/*
 * Moves the replicas of node sp->node that the split does not keep (below
 * the floor) to slots elsewhere, then splits the node; the replicas
 * moved, or -1 when one found no slot (it is marked stuck; the replicas
 * moved go back, the capacity made for them stays free), -2 when the
 * split did not fit after all (the same).
 */
static int split_do(struct cplan *cp, int d, const struct reserve_loss *ls, unsigned char *stuck,
		    const struct split *sp)
{
	uint32_t *mine = xmalloc((cp->nslots + 1) * sizeof(*mine));
	size_t *to = xmalloc((cp->nslots + 1) * sizeof(*to));
	unsigned char *mv = xmalloc(cp->nslots + 1);
	size_t n = 0, i, done = 0;
	const struct split_ask ask = { d, ls, stuck };
	struct split again = { sp->node, sp->pattern, 0, 0 };
	int rc;

	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].node == sp->node)
			mine[n++] = (uint32_t)i;
	rc = split_eval(cp, &ask, mine, n, &again, mv);
	for (i = 0; i < n && !rc; i++) {
		if (!mv[i])
			continue;
		to[i] = move_off(cp, mine[i]);
		if (to[i] == (size_t)-1) {
			stuck[cp->slots[mine[i]].d] = 1;
			rc = -1;
		}
		done = i + 1;
	}
	if (rc == 0 && cplan_node_resplit(cp, (int)sp->node, sp->pattern))
		rc = -2;
	while (rc && done > 0) {	/* back where they were */
		size_t t;
		long replica;
		int e;
		if (!mv[--done] || (t = to[done]) == (size_t)-1)
			continue;
		e = cp->slots[t].d;
		replica = cp->slots[t].replica;
		cplan_slot_clear(cp, t);
		cplan_slot_fill(cp, mine[done], e, replica);
	}
	free(mine);
	free(to);
	free(mv);
	return rc ? rc : (int)again.moves;
}

/*
 * No free slot, GPU or node takes d, and no single move below the floor
 * frees a slot of its type: a passthrough node of a class d may use is
 * split anew by another pattern of its class (cplan_node_resplit) whose
 * free groups d takes, its groups in use kept where they are but those of
 * replicas below the floor, moved to slots elsewhere first (they still
 * run).  The split needing the fewest moves is taken, then the one giving
 * d the most slots, then the first node.  A slot for d or (size_t)-1; the
 * replicas moved into *moved, 1 into *split when a node was split.
 */
static size_t split_for(struct cplan *cp, int d, const struct reserve_loss *ls, unsigned char *stuck, long *moved,
			long *split)
{
	struct split sp;
	int m;

	do {	/* each failed try (-1) marks a demand stuck, which no later split moves: it ends */
		split_best(cp, d, ls, stuck, &sp);
		if (sp.node < 0)
			return (size_t)-1;
		m = split_do(cp, d, ls, stuck, &sp);
	} while (m == -1);
	if (m < 0)
		return (size_t)-1;
	*moved += m;
	*split += 1;
	return cplan_find_free(cp, d);
}

/* The replicas evicted in a cover (preemption), to put back: their slots, demands, replica numbers. */
struct evicted {
	struct preempt_index px;
	int built;
	unsigned char *gone;	/* per slot: on a GPU the loss takes; NULL: whole nodes */
	size_t ngone;		/* the slots gone covers: those of the plan when it was built */
	size_t n, cap;
	size_t *slot;
	int *d;
	long *replica;
};

/* Per slot, whether it is on a GPU the loss takes (built on the first call into ev->gone); NULL: whole nodes. */
static const unsigned char *gone_of(const struct cplan *cp, const struct reserve_loss *ls, struct evicted *ev)
{
	size_t s;

	if (ls->gpus && !ev->gone) {
		ev->gone = xcalloc(cp->nslots + 1, 1);
		ev->ngone = cp->nslots;
		for (s = 0; s < cp->nslots; s++)
			ev->gone[s] = (unsigned char)on_lost(cp, ls, s);
	}
	return ev->gone;
}

/* A slot d takes by evicting a replica below the floor (ev's index built on the first call); (size_t)-1: none. */
static size_t preempt_for(struct cplan *cp, const struct reserve_loss *ls, int d, struct evicted *ev)
{
	size_t s;

	if (!ls->preempt || ls->prio <= 1)
		return (size_t)-1;
	if (!ev->built) {
		preempt_index_build(&ev->px, cp, ls->prio);
		ev->built = 1;
	}
	s = preempt_find(cp, &ev->px, d, gone_of(cp, ls, ev));
	if (s == (size_t)-1)
		return s;
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? 2 * ev->cap : 8;
		ev->slot = xrealloc(ev->slot, ev->cap * sizeof(*ev->slot));
		ev->d = xrealloc(ev->d, ev->cap * sizeof(*ev->d));
		ev->replica = xrealloc(ev->replica, ev->cap * sizeof(*ev->replica));
	}
	ev->slot[ev->n] = s;
	ev->d[ev->n] = cp->slots[s].d;
	ev->replica[ev->n++] = cp->slots[s].replica;
	cplan_slot_clear(cp, s);
	return s;
}

/* The replica in slot s left out of the plan, noted in lf. */
static void leave_out(struct cplan *cp, struct reserve_left *lf, size_t s)
{
	XGROW(lf->at, lf->cap, lf->n + 1);
	lf->at[lf->n].slot = s;
	lf->at[lf->n].node = cp->slots[s].node;
	lf->at[lf->n].gpu = cp->slots[s].gpu;
	lf->at[lf->n].ngpus = cp->slots[s].ngpus;
	lf->at[lf->n++].d = cp->slots[s].d;
	preempt_leave_out(cp, s);
}

/*
 * make_room's last resort for d: a slot a replica below the floor holds,
 * that replica left out of the plan; else a free slot of d's on a node
 * short of CPU or RAM, replicas below the floor on it left out until it
 * has them (noted in ls->left, counted in out->left_out); the slot, or
 * (size_t)-1 when none.  A gone slot
 * (lost with a GPU) is marked when first asked: the slots added since
 * are on GPUs that survive.
 */
static size_t leave_out_for(struct cplan *cp, const struct reserve_loss *ls, int d, struct evicted *ev,
			    struct reserve_cover *out)
{
	struct reserve_left *lf = ls->left;
	const unsigned char *gone;
	struct preempt_room room;
	size_t s, i;

	if (!lf || ls->prio <= 1)
		return (size_t)-1;
	gone = gone_of(cp, ls, ev);
	s = preempt_leave_out_find(cp, d, ls->prio, gone, gone ? ev->ngone : 0);
	if (s != (size_t)-1) {
		leave_out(cp, lf, s);
		out->left_out++;
		return s;
	}
	preempt_leave_out_room(cp, d, ls->prio, gone, gone ? ev->ngone : 0, &room);
	for (i = 0; i < room.n; i++)
		leave_out(cp, lf, room.out[i]);
	out->left_out += (long)room.n;
	free(room.out);
	return room.slot;
}

/* The slot ids a cover holds while it runs, to renumber when a GPU or node is emptied. */
struct held {
	struct evicted *ev;
	size_t *filled, nfill;
	size_t nslots0;		/* the plan's slots before the cover, less those deleted since */
	struct reserve_cover *out;
};

/* The cover's slot ids (and the noted replicas left out) renumbered by remap; nold slots before. */
static void held_remap(struct held *h, struct reserve_left *lf, const size_t *remap, size_t nold)
{
	size_t i, dropped = 0;

	for (i = 0; i < nold; i++)
		dropped += remap[i] == (size_t)-1 && i < h->nslots0;
	h->nslots0 -= dropped;
	for (i = 0; i < h->nfill; i++)
		h->filled[i] = remap[h->filled[i]];
	for (i = 0; i < h->ev->n; i++)
		h->ev->slot[i] = remap[h->ev->slot[i]];
	if (h->ev->built) {	/* built again when next asked */
		preempt_index_release(&h->ev->px);
		h->ev->built = 0;
	}
	for (i = 0; i < lf->n; i++)
		if (lf->at[i].slot != (size_t)-1)
			lf->at[i].slot = lf->at[i].slot < nold ? remap[lf->at[i].slot] : (size_t)-1;
}

/*
 * make_room's last step for d (node and site losses): a GPU or a node
 * holding only replicas below the floor (reserve_empty_find), they left
 * out (noted in ls->left), made idle or opened anew (cplan_gpu_reset,
 * cplan_node_reopen), the cover's ids renumbered, then d placed as a new
 * GPU of an open node is (cplan_place_opened, `left` replicas of d to
 * come); the slot, or (size_t)-1.
 */
static size_t empty_for(struct cplan *cp, const struct reserve_loss *ls, int d, long left, struct held *h)
{
	struct reserve_empty e;
	size_t nold = cp->nslots, i, *remap;
	int rc;

	if (!ls->left || ls->gpus || ls->prio <= 1)
		return (size_t)-1;
	reserve_empty_find(cp, d, ls->prio, &e);
	if (e.node < 0)
		return (size_t)-1;
	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].node == e.node && cp->slots[i].d >= 0 &&
		    (e.gpu < 0 || (cp->slots[i].gpu <= e.gpu && e.gpu < cp->slots[i].gpu + cp->slots[i].ngpus)))
			leave_out(cp, ls->left, i);
	h->out->left_out += e.n;
	remap = xmalloc((nold + 1) * sizeof(*remap));
	rc = e.gpu >= 0 ? cplan_gpu_reset(cp, e.node, e.gpu, remap) : cplan_node_reopen(cp, e.node, e.mode, e.pattern, remap);
	if (rc == 0) {
		held_remap(h, ls->left, remap, nold);
		h->out->emptied++;
		if (e.gpu < 0 && e.cfg >= 0)
			cplan_configure_gpu(cp, e.node, 0, e.cfg);	/* as a node opened for d is */
	}
	free(remap);
	return rc == 0 ? cplan_place_opened(cp, d, left) : (size_t)-1;
}

/* The evicted back in their slots (emptied again by then), last first; ev released. */
static void evicted_back(struct cplan *cp, struct evicted *ev)
{
	while (ev->n > 0) {
		ev->n--;
		cplan_slot_fill(cp, ev->slot[ev->n], ev->d[ev->n], ev->replica[ev->n]);
	}
	if (ev->built)
		preempt_index_release(&ev->px);
	free(ev->gone);
	free(ev->slot);
	free(ev->d);
	free(ev->replica);
}

void reserve_cover(struct cplan *cp, const struct reserve_index *ix, const struct reserve_loss *ls,
		   struct reserve_cover *out)
{
	struct evicted ev;
	int add = ls->add;
	struct lost *l;
	size_t n = collect(cp, ix, ls, &l), i;
	size_t *filled = xmalloc((n + 1) * sizeof(*filled));
	struct held h = { &ev, filled, 0, cp->nslots, out };
	struct taken t;
	unsigned char *stuck = add ? xcalloc(cp->p->ndemands + 1, 1) : NULL;
	unsigned char *nosplit = add ? xcalloc(cp->p->ndemands + 1, 1) : NULL;

	memset(out, 0, sizeof(*out));
	memset(&ev, 0, sizeof(ev));
	out->lost = (long)n;
	take_out(cp, ls, &t);
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
		if (s == (size_t)-1)
			s = preempt_for(cp, ls, d, &ev);
		if (s == (size_t)-1 && add) {
			long left = 0;
			for (j = i; j < n && l[j].d == d; j++)
				left++;
			s = cplan_place_one(cp, d, left);
			if (s == (size_t)-1) {
				s = make_room(cp, d, ls, stuck);
				out->moved += s != (size_t)-1;
			}
			/* nothing is freed meanwhile: once per demand */
			if (s == (size_t)-1 && !nosplit[d]) {
				s = split_for(cp, d, ls, stuck, &out->moved, &out->split);
				nosplit[d] = s == (size_t)-1;
			}
			if (s == (size_t)-1)
				s = leave_out_for(cp, ls, d, &ev, out);
			if (s == (size_t)-1)
				s = empty_for(cp, ls, d, left, &h);
		}
		if (s == (size_t)-1) {
			/* d's replicas come in a run, and a failed search frees nothing: the rest of the run strands */
			for (j = i; j < n && l[j].d == d; j++)
				out->stranded++;
			i = j - 1;
			continue;
		}
		cplan_slot_fill(cp, s, d, -1);
		filled[h.nfill++] = s;
	}
	while (h.nfill > 0)
		cplan_slot_clear(cp, filled[--h.nfill]);
	evicted_back(cp, &ev);
	put_back(cp, ls, &t);
	out->added = (long)(cp->nslots - h.nslots0);
	free(filled);
	free(stuck);
	free(nosplit);
	free(l);
}

void reserve_renumber(struct cplan *cp, int d)
{
	preempt_renumber(cp, d);
}
