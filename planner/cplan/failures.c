/*
 * failures.c - the failure analysis (failures.h): every node and every
 * site of a plan lost in turn, its replicas placed again into a copy of
 * the plan by the placement engine, and the copy put back exactly as it
 * was before the next failure.
 *
 * Putting it back: a failed node is made full (its CPU taken), so the
 * engine passes its free slots; each replica placed again is undone in
 * reverse order, the CPU and RAM of every node touched restored from
 * what was saved (so no rounding creeps in), and the free slot queues
 * searched cut back to their saved head and length (a slot emptied is
 * queued again at the end: the cut drops that).  The engine's cursors
 * restart (a new epoch).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "failures.h"
#include "cplan_engine.h"
#include "preempt.h"
#include "util.h"
#include "banned.h"

const char *fail_kind_name(enum fail_kind k)
{
	static const char *const names[] = { "node", "site", "gpu", "node-set", "site-set", "gpu-set" };
	return (unsigned)k < FAIL_KIND_COUNT ? names[k] : "gpu";
}

int fail_slot_on(const struct cplan *cp, size_t s, size_t node, int gpu)
{
	const struct cslot *sl = &cp->slots[s];
	return (size_t)sl->node == node && (gpu < 0 || (sl->gpu <= gpu && gpu < sl->gpu + sl->ngpus));
}

/*
 * A replica of a failed domain, or one evicted for a replica of the
 * preemption floor or above: placed again by its workload's rank
 * (failures.c's order), then slot.
 */
struct lost_ref {
	size_t slot;
	long replica;		/* evicted (preempted: slot is where it ran, now another's): its replica, to put back; -1: lost */
	unsigned rank;		/* of d: below ndemands */
	int d;
};

static int evicted(const struct lost_ref *e)
{
	return e->replica >= 0;
}

struct qsave {
	int k, s;
	size_t head, n;
};

struct nsave {
	size_t node;
	double cpu, ram;
};


struct fctx {
	struct cplan cp;		/* the copy replicas are placed again into */
	struct failures *f;
	size_t *sfirst;			/* the slots by node (cplan_slots_by_node): node i's are */
	uint32_t *sby;			/* sby[sfirst[i]] .. sby[sfirst[i + 1] - 1], in slot order */
	size_t *off;			/* the free slots of a failed GPU, marked taken this failure */
	size_t noff, offcap;
	size_t *qoff;			/* per class: where its queues' marks start */
	unsigned char *qmark;		/* per (class, slot type): saved this failure */
	struct qsave *qs;
	size_t nqs, qscap;
	struct nsave *ns;
	size_t nns, nscap;
	size_t *filled;
	size_t nfilled, filledcap;
	struct lost_ref *lost;
	size_t nlost, lostcap;
	unsigned char *gone;		/* per slot: lost this failure (a set of GPUs: a replica on two is lost once); NULL: one unit */
	long *repl;			/* per demand: placed again, this failure */
	size_t *rank;			/* per demand: by priority (highest first), workload name, index */
	unsigned char *never;		/* per demand: no free slot of the plan takes it, whatever fails */
	int full_d;			/* the demand the last search found no slot for, this failure */
	int floor;			/* preemption: replicas of priority >= floor evict those below; 0: none */
	struct preempt_index px;	/* floor > 0: the slots a replica below it holds */
	unsigned char *lostslot;	/* floor > 0: per slot, its replica is lost this failure */
	struct lost_ref *q;		/* this failure's replicas to place again: the lost, then the evicted */
	size_t nq, qcap;
	size_t nev;			/* of q, the evicted */
	size_t rowcap;
	struct deadline *dl;		/* polled before each failure; NULL: never */
	int cut;			/* dl passed: the failures left are not analysed */
};

double fail_row_gpu_eq(const struct cplan *cp, const struct fail_row *r)
{
	const struct workload *w = cp->p->demands[r->d].w;
	/* as workload_gpu_equivalents: whole GPUs, or the compute share of one */
	return (double)r->stranded * (w->gpus >= 1 ? (double)w->gpus : w->compute);
}

static int lost_order(const struct lost_ref *x, const struct lost_ref *y)
{
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Moves a[i] down the max-heap a[0..n) (lost_order) to its place. */
static void sift_down(struct lost_ref *a, size_t i, size_t n)
{
	struct lost_ref t = a[i];
	size_t j;

	while ((j = 2 * i + 1) < n) {
		if (j + 1 < n && lost_order(&a[j], &a[j + 1]) < 0)
			j++;
		if (lost_order(&t, &a[j]) >= 0)
			break;
		a[i] = a[j];
		i = j;
	}
	a[i] = t;
}

/* a[0..n) by lost_order in place (heapsort; qsort may take a buffer as large); no two are equal (slots). */
static void lost_sort(struct lost_ref *a, size_t n)
{
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	while (n > 1) {
		struct lost_ref t = a[0];
		a[0] = a[--n];
		a[n] = t;
		sift_down(a, 0, n);
	}
}

static void save_node(struct fctx *c, size_t node)
{
	XGROW(c->ns, c->nscap, c->nns + 1);
	c->ns[c->nns].node = node;
	c->ns[c->nns].cpu = c->cp.nodes[node].cpu_used;
	c->ns[c->nns].ram = c->cp.nodes[node].ram_used;
	c->nns++;
}

/* Saves the head and length of every queue a search for d may move. */
static void save_queues(struct fctx *c, int d)
{
	const struct problem *p = c->cp.p;
	size_t lo, hi, i;

	problem_arcs_of(p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		int k = p->arcs[i].k, s = p->arcs[i].s;
		size_t m = c->qoff[k] + (size_t)s;
		if (c->qmark[m])
			continue;
		c->qmark[m] = 1;
		XGROW(c->qs, c->qscap, c->nqs + 1);
		c->qs[c->nqs].k = k;
		c->qs[c->nqs].s = s;
		c->qs[c->nqs].head = c->cp.fqhead[k][s];
		c->qs[c->nqs].n = c->cp.fqn[k][s];
		c->nqs++;
	}
}

/* Undoes the failure: the replicas placed again, the nodes' loads, the queues. */
static void undo(struct fctx *c)
{
	struct cplan *cp = &c->cp;
	size_t i;

	while (c->nfilled > 0) {
		size_t s = c->filled[--c->nfilled];
		c->repl[cp->slots[s].d] = 0;
		cplan_slot_clear(cp, s);
	}
	for (i = c->nq; i > 0; i--)	/* the evicted back where they ran (their slots are free again) */
		if (evicted(&c->q[i - 1]))
			cplan_slot_fill(cp, c->q[i - 1].slot, c->q[i - 1].d, c->q[i - 1].replica);
	while (c->nns > 0) {
		const struct nsave *n = &c->ns[--c->nns];
		cp->nodes[n->node].cpu_used = n->cpu;
		cp->nodes[n->node].ram_used = n->ram;
	}
	for (i = 0; i < c->nqs; i++) {
		const struct qsave *q = &c->qs[i];
		cp->fqhead[q->k][q->s] = q->head;
		cp->fqn[q->k][q->s] = q->n;
		c->qmark[c->qoff[q->k] + (size_t)q->s] = 0;
	}
	c->nqs = 0;
	for (i = 0; i < c->nq; i++) {	/* the lost replicas count on their domains again */
		const struct lost_ref *e = &c->q[i];
		if (evicted(e))
			continue;
		cplan_caps_count(cp, e->d, cp->slots[e->slot].node, 1);
		if (c->gone)
			c->gone[e->slot] = 0;
		if (c->lostslot)
			c->lostslot[e->slot] = 0;
	}
	/* q's array back to lost, for the next failure */
	c->lost = c->q;
	c->lostcap = c->qcap;
	c->q = NULL;
	c->qcap = 0;
	c->nq = 0;
	c->nev = 0;
	c->nlost = 0;
	while (c->noff > 0)	/* a failed GPU's free slots are free again */
		cp->slots[c->off[--c->noff]].d = -1;
	cp->memo->epoch++;
}

/*
 * Adds the replicas on GPU gpu of node (gpu < 0: the whole node) to the
 * lost ones.  A lost node takes nothing: its CPU is all taken.  A lost
 * GPU's free slots are marked taken (FAIL_SLOT_OFF) and the CPU and RAM
 * of the replicas it held go back to its node, which still runs: they may
 * land on its other GPUs.
 */
static void fail_unit(struct fctx *c, size_t node, int gpu)
{
	struct cplan *cp = &c->cp;
	struct cnode *n = &cp->nodes[node];
	size_t j;

	save_node(c, node);
	for (j = c->sfirst[node]; j < c->sfirst[node + 1]; j++) {
		size_t s = c->sby[j];
		int d = cp->slots[s].d;
		if (!fail_slot_on(cp, s, node, gpu))
			continue;
		if (d < 0 && gpu >= 0) {
			cp->slots[s].d = FAIL_SLOT_OFF;
			XGROW(c->off, c->offcap, c->noff + 1);
			c->off[c->noff++] = s;
		}
		if (d < 0)
			continue;
		if (d == FAIL_SLOT_OFF)
			continue;	/* another failed GPU's, this failure */
		if (c->gone && c->gone[s])
			continue;	/* on another GPU of the set too: lost once */
		if (c->gone)
			c->gone[s] = 1;
		if (gpu >= 0) {
			n->cpu_used -= cp->p->demands[d].w->cpu_cores;
			n->ram_used -= cp->p->demands[d].w->ram_gib;
		}
		if (c->lostslot)
			c->lostslot[s] = 1;
		XGROW(c->lost, c->lostcap, c->nlost + 1);
		memset(&c->lost[c->nlost], 0, sizeof(c->lost[c->nlost]));
		c->lost[c->nlost].rank = (unsigned)c->rank[d];
		c->lost[c->nlost].d = d;
		c->lost[c->nlost].slot = s;
		c->lost[c->nlost].replica = -1;
		c->nlost++;
		cplan_caps_count(cp, d, (int)node, -1);	/* a lost pod counts on no domain */
	}
	if (gpu < 0)
		n->cpu_used = HUGE_VAL;
}

/* True when every site w may use is `site` (w cannot leave the failed site). */
static int held_by_site(const struct workload *w, const char *site)
{
	size_t i;

	if (!site || !w->nsites)
		return 0;
	for (i = 0; i < w->nsites; i++)
		if (str_casecmp(w->sites[i], site))
			return 0;
	return 1;
}

static const char *stranded_reason(const struct workload *w, const char *site)
{
	if (held_by_site(w, site))
		return "its sites allow no node outside the lost site";
	return "no free slot it fits, with the CPU and RAM it asks, on the nodes left";
}

/* Demand order: priority (highest first), then workload name, then index. */
static int demand_order(const void *a, const void *b)
{
	const struct pdemand *x = *(const struct pdemand *const *)a, *y = *(const struct pdemand *const *)b;
	int c;

	if (x->w->priority != y->w->priority)
		return x->w->priority > y->w->priority ? -1 : 1;
	c = strcmp(x->w->name, y->w->name);
	if (c)
		return c;
	return (x > y) - (x < y);
}

/* Evicts the replica of slot s (below the floor) for one of d: it joins the replicas to place again. */
static void evict(struct fctx *c, size_t s)
{
	struct cplan *cp = &c->cp;
	struct lost_ref *e;
	int v = cp->slots[s].d;

	XGROW(c->q, c->qcap, c->nq + 1);
	e = &c->q[c->nq++];
	e->rank = (unsigned)c->rank[v];
	e->d = v;
	e->slot = s;
	e->replica = cp->slots[s].replica;	/* >= 0: evicted */
	c->nev++;
	save_node(c, (size_t)cp->slots[s].node);
	cplan_slot_clear(cp, s);
}

/*
 * Places q[lo .. hi) again, in order: each into a free slot, else (its
 * priority at the preemption floor or above) into a slot it takes from
 * a replica below the floor.
 */
static void place_run(struct fctx *c, size_t lo, size_t hi)
{
	struct cplan *cp = &c->cp;
	size_t i;

	c->full_d = -1;
	for (i = lo; i < hi; i++) {
		int d = c->q[i].d;
		size_t s;
		if (i > lo && c->q[i - 1].d == d && c->full_d == d)
			continue;	/* nothing is freed during a failure: d's next replicas find no slot either */
		if (i == lo || c->q[i - 1].d != d) {
			/* an eviction may give back CPU (a smaller replica took the slot): no shortcut after one */
			if (c->never[d] && !c->nev && cp->p->demands[d].w->priority < (c->floor ? c->floor : INT_MAX)) {
				c->full_d = d;
				continue;
			}
			save_queues(c, d);
		}
		s = cplan_find_free(cp, d);
		if (s == (size_t)-1 && c->floor && (s = preempt_find(cp, &c->px, d, c->lostslot)) != (size_t)-1)
			evict(c, s);
		if (s == (size_t)-1) {
			c->full_d = d;
			continue;
		}
		save_node(c, (size_t)cp->slots[s].node);
		cplan_slot_fill(cp, s, d, 0);
		XGROW(c->filled, c->filledcap, c->nfilled + 1);
		c->filled[c->nfilled++] = s;
		c->repl[d]++;
	}
}

/* Why row r's workload has stranded replicas (site: the failed site, or NULL); ev: some were evicted. */
static const char *row_reason(const struct cplan *cp, const struct fail_row *r, const char *site, int ev)
{
	const struct workload *w = cp->p->demands[r->d].w;

	if (!held_by_site(w, site) && cplan_caps_bind(cp, r->d))
		/* a domain left is at the spread's cap: the scheduler keeps them pending */
		return "its spread (DoNotSchedule) allows no more on the nodes left with a free slot it fits";
	if (ev)
		return "evicted for a replica of the resilience: floor or above (preemption: lower-priority); no free "
		       "slot it fits, with the CPU and RAM it asks, on the nodes left";
	return stranded_reason(w, site);
}

/*
 * Places the lost replicas again (in rank order), adds a row per
 * workload that had some, then undoes it all.  site: the failed site, or
 * NULL for a node.  With a preemption floor, those of the floor or above
 * go first and may evict replicas below it, which are placed again with
 * the lost ones below it, in rank order (never evicting).
 */
static void settle(struct fctx *c, enum fail_kind kind, size_t failure, const char *site)
{
	struct cplan *cp = &c->cp;
	struct failures *f = c->f;
	size_t i, j, top;

	lost_sort(c->lost, c->nlost);
	/* q takes lost's array over, the evicted appended to it; undo gives it back (a site's loss may be most replicas) */
	c->q = c->lost;
	c->qcap = c->lostcap;
	c->nq = c->nlost;
	c->lost = NULL;
	c->lostcap = 0;
	for (top = 0; c->floor && top < c->nq && cp->p->demands[c->q[top].d].w->priority >= c->floor; top++)
		;
	place_run(c, 0, top);
	lost_sort(c->q + top, c->nq - top);	/* the evicted among the rest, by rank */
	place_run(c, top, c->nq);
	if (c->nlost)
		f->nwith[kind]++;
	for (i = 0; i < c->nq; i = j) {
		struct fail_row *r;
		int ev = 0;
		for (j = i; j < c->nq && c->q[j].d == c->q[i].d; j++)
			ev |= evicted(&c->q[j]);
		XGROW(f->rows, c->rowcap, f->nrows + 1);
		r = &f->rows[f->nrows++];
		memset(r, 0, sizeof(*r));
		r->kind = kind;
		r->failure = failure;
		r->d = c->q[i].d;
		r->lost = (long)(j - i);
		r->replaced = c->repl[r->d];
		r->stranded = r->lost - r->replaced;
		if (!r->stranded)
			continue;
		r->reason = row_reason(cp, r, site, ev);
		if (!held_by_site(cp->p->demands[r->d].w, site) && cplan_caps_bind(cp, r->d))
			r->pending_by_spread = r->stranded;
	}
	undo(c);
}

static void ctx_init(struct fctx *c, struct failures *f, const struct cplan *cp, int floor)
{
	const struct problem *p = cp->p;
	const struct pdemand **by = xmalloc((p->ndemands + 1) * sizeof(*by));
	size_t i, nq = 0;

	memset(c, 0, sizeof(*c));
	c->f = f;
	cplan_copy(&c->cp, cp);
	c->cp.no_avail_caps = 1;	/* a scheduler re-places under the spread rules, not the availability rule */
	/* the slots, grouped by node (a failed node loses the occupied ones, a failed GPU also its free ones) */
	cplan_slots_by_node(cp, &c->sfirst, &c->sby);
	c->qoff = xcalloc(p->nclasses + 1, sizeof(*c->qoff));
	for (i = 0; i < p->nclasses; i++) {
		c->qoff[i] = nq;
		nq += p->classes[i].nslot_types;
	}
	c->qmark = xcalloc(nq + 1, 1);
	c->repl = xcalloc(p->ndemands + 1, sizeof(*c->repl));
	c->rank = xcalloc(p->ndemands + 1, sizeof(*c->rank));
	for (i = 0; i < p->ndemands; i++)
		by[i] = &p->demands[i];
	qsort(by, p->ndemands, sizeof(*by), demand_order);
	for (i = 0; i < p->ndemands; i++)
		c->rank[by[i] - p->demands] = i;
	free(by);
	/*
	 * A failure only takes free slots away: a demand no free slot of the
	 * whole plan takes strands every replica it loses, without a search.
	 * A search moves no queue head here (every queued slot is free).  A
	 * demand with a spread cap may find room once its lost replicas no
	 * longer count: it is always searched.
	 */
	c->never = xcalloc(p->ndemands + 1, 1);
	for (i = 0; i < p->ndemands; i++)
		c->never[i] = cplan_find_free(&c->cp, (int)i) == (size_t)-1 && p->demands[i].cap < 0;
	c->cp.memo->epoch++;
	c->floor = floor > 1 ? floor : 0;	/* a floor of 1 leaves no replica below it */
	if (c->floor) {
		preempt_index_build(&c->px, &c->cp, c->floor);
		c->lostslot = xcalloc(cp->nslots + 1, 1);
	}
}

/* True when failure after failure may still be analysed (dl not passed; once passed, never again). */
static int go_on(struct fctx *c)
{
	if (!c->cut && deadline_passed(c->dl))
		c->cut = 1;
	return !c->cut;
}

static void ctx_release(struct fctx *c)
{
	cplan_release(&c->cp);
	free(c->sfirst);
	free(c->sby);
	free(c->off);
	free(c->qoff);
	free(c->qmark);
	free(c->qs);
	free(c->ns);
	free(c->filled);
	free(c->lost);
	free(c->repl);
	free(c->rank);
	free(c->never);
	free(c->gone);
	free(c->q);
	free(c->lostslot);
	if (c->floor)
		preempt_index_release(&c->px);
}

/*
 * Room in lost for the replicas domain i of dm loses: its nodes' slots at
 * most, allocated exactly when lost is shorter (a site's loss may list
 * most replicas: grown by doubling, lost may waste as much again).
 */
static void lost_room(struct fctx *c, const struct fail_domains *dm, size_t i)
{
	size_t j, n = 0;

	for (j = dm->first[i]; j < dm->first[i + 1]; j++)
		n += c->sfirst[dm->by[j] + 1] - c->sfirst[dm->by[j]];
	if (n > c->lostcap) {
		c->lost = xrealloc(c->lost, n * sizeof(*c->lost));
		c->lostcap = n;
	}
}

/*
 * Every domain of kind k lost in turn (all its nodes at once), in the
 * domains' order.  out: the domains handed back, their names left to the
 * analysis (out->names NULL); NULL: released here.
 */
static void analyse_kind(struct fctx *c, const struct cplan *cp, enum fail_kind k, struct fail_domains *out)
{
	struct failures *f = c->f;
	struct fail_domains dm;
	size_t i, j;

	fail_domains_build(&dm, cp, k);
	for (i = 0; i < dm.n; i++) {
		if (!go_on(c))
			continue;	/* named, not analysed */
		lost_room(c, &dm, i);
		for (j = dm.first[i]; j < dm.first[i + 1]; j++)
			fail_unit(c, dm.by[j], dm.gpu ? dm.gpu[j] : -1);
		settle(c, k, i, k == FAIL_SITE ? dm.names[i] : NULL);
		f->nchecked[k]++;
	}
	f->nnames[k] = dm.n;
	f->names[k] = dm.names;	/* the analysis keeps the names */
	dm.names = NULL;
	if (out)
		*out = dm;
	else
		fail_domains_release(&dm);
}

/*
 * Compares what rows a[0..na) and b[0..nb) (one failure each, by rank)
 * strand by the priority rule: weighted stranded replicas at the highest
 * priority where they differ; > 0 when a strands more.
 */
static int strand_cmp(const struct problem *p, const struct fail_row *a, size_t na, const struct fail_row *b,
		      size_t nb)
{
	size_t i = 0, j = 0;

	for (;;) {
		double sa = 0, sb = 0;
		int pa, pb, top;
		while (i < na && !a[i].stranded)
			i++;
		while (j < nb && !b[j].stranded)
			j++;
		if (i >= na || j >= nb)
			return (i < na) - (j < nb);
		pa = p->demands[a[i].d].w->priority;
		pb = p->demands[b[j].d].w->priority;
		if (pa != pb)
			return pa > pb ? 1 : -1;
		top = pa;
		for (; i < na && p->demands[a[i].d].w->priority == top; i++)
			sa += (double)a[i].stranded * p->demands[a[i].d].weight;
		for (; j < nb && p->demands[b[j].d].w->priority == top; j++)
			sb += (double)b[j].stranded * p->demands[b[j].d].weight;
		if (fabs(sa - sb) > 1e-9)
			return sa > sb ? 1 : -1;
	}
}

/* Sets w from the rows r[0..n) of one failure. */
static void worst_set(struct fail_worst *w, const struct cplan *cp, const struct fail_row *r, size_t n)
{
	size_t i;

	memset(w, 0, sizeof(*w));
	w->have = 1;
	w->failure = r[0].failure;
	for (i = 0; i < n; i++) {
		int prio = cp->p->demands[r[i].d].w->priority;
		w->stranded += r[i].stranded;
		w->stranded_gpu_eq += fail_row_gpu_eq(cp, &r[i]);
		if (r[i].stranded && !w->top_stranded)
			w->top_priority = prio;
		if (r[i].stranded && prio == w->top_priority)
			w->top_stranded += r[i].stranded;
	}
}

/* The worst failure of each kind (the first in name order among equals), with its figures. */
static void find_worst(struct failures *f, const struct cplan *cp)
{
	size_t i, j, wi[FAIL_KIND_COUNT] = { 0 }, wn[FAIL_KIND_COUNT] = { 0 };

	for (i = 0; i < f->nrows; i = j) {
		enum fail_kind k = f->rows[i].kind;
		for (j = i; j < f->nrows && f->rows[j].kind == k && f->rows[j].failure == f->rows[i].failure; j++)
			;
		if (strand_cmp(cp->p, &f->rows[i], j - i, wn[k] ? &f->rows[wi[k]] : NULL, wn[k]) <= 0)
			continue;
		wi[k] = i;
		wn[k] = j - i;
		worst_set(&f->worst[k], cp, &f->rows[i], j - i);
	}
}

void failures_analyse(struct failures *f, const struct cplan *cp, int by_gpu, int preempt)
{
	struct fctx c;

	memset(f, 0, sizeof(*f));
	ctx_init(&c, f, cp, preempt);
	analyse_kind(&c, cp, FAIL_NODE, NULL);
	analyse_kind(&c, cp, FAIL_SITE, NULL);
	if (by_gpu)
		analyse_kind(&c, cp, FAIL_GPU, NULL);
	f->by_gpu = by_gpu;
	ctx_release(&c);
	find_worst(f, cp);
}

/* The failures of kind k moved from have into c's analysis (failures_analyse_with). */
static void take_kind(struct fctx *c, struct failures *have, enum fail_kind k)
{
	struct failures *f = c->f;
	size_t i;

	XGROW(f->rows, c->rowcap, f->nrows + have->nrows + 1);
	for (i = 0; i < have->nrows; i++)
		if (have->rows[i].kind == k)
			f->rows[f->nrows++] = have->rows[i];
	f->nnames[k] = have->nnames[k];
	f->names[k] = have->names[k];
	f->nwith[k] = have->nwith[k];
	f->nchecked[k] = have->nchecked[k];
	have->nnames[k] = 0;
	have->names[k] = NULL;
	failures_release(have);
}

void failures_analyse_with(struct failures *f, const struct cplan *cp, int by_gpu, int preempt,
			   struct failures *have, enum fail_kind k)
{
	struct fctx c;
	enum fail_kind kind;

	memset(f, 0, sizeof(*f));
	ctx_init(&c, f, cp, preempt);
	for (kind = FAIL_NODE; kind <= (by_gpu ? FAIL_GPU : FAIL_SITE); kind++)
		if (kind == k)
			take_kind(&c, have, k);
		else
			analyse_kind(&c, cp, kind, NULL);
	f->by_gpu = by_gpu;
	ctx_release(&c);
	find_worst(f, cp);
}

void failures_analyse_until(struct failures *f, const struct cplan *cp, enum fail_kind k, struct deadline *dl,
			    struct fail_domains *dm, int preempt)
{
	struct fctx c;

	memset(f, 0, sizeof(*f));
	ctx_init(&c, f, cp, preempt);
	c.dl = dl;
	analyse_kind(&c, cp, k, dm);
	f->by_gpu = k == FAIL_GPU;
	ctx_release(&c);
	find_worst(f, cp);
}

void failures_release(struct failures *f)
{
	size_t k, i;

	for (k = 0; k < FAIL_KIND_COUNT; k++) {
		for (i = 0; i < f->nnames[k]; i++)
			free(f->names[k][i]);
		free(f->names[k]);
	}
	free(f->rows);
	memset(f, 0, sizeof(*f));
}

void failures_add_set(struct failures *f, const struct cplan *cp, const struct fail_set *s)
{
	struct fctx c;
	size_t i;

	ctx_init(&c, f, cp, s->preempt);
	c.rowcap = f->nrows;	/* rows is exactly nrows long (XGROW's capacity: grow from there) */
	c.gone = xcalloc(cp->nslots + 1, 1);
	for (i = 0; i < s->n; i++)
		fail_unit(&c, s->nodes[i], s->gpus ? s->gpus[i] : -1);
	settle(&c, s->kind, 0, NULL);
	f->nchecked[s->kind] = 1;
	f->nnames[s->kind] = 1;
	f->names[s->kind] = xmalloc(sizeof(*f->names[s->kind]));
	f->names[s->kind][0] = xstrdup(s->name);
	ctx_release(&c);
	find_worst(f, cp);
}
