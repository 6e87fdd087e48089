/*
 * cplan_deal.c - the concrete plan of an ILP solution: its counts of
 * nodes, configured GPUs and replicas per arc dealt over real nodes,
 * GPUs and slots (two deals, the better kept), what a deal loses for the
 * ILP's cuts, and the inverse: a plan's counts in the ILP's terms.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "cplan_repair.h"
#include "util.h"
#include "banned.h"

/*
 * ================= from ILP counts =================
 *
 * The ILP checks CPU and RAM per (class, mode) only, so dealing its counts
 * over real nodes, each with its own CPU and RAM, can leave a replica
 * without a slot.  cplan_from_counts first deals them as it always has:
 * each arc's whole replicas first fit, then the rest as the greedy planner
 * would on the nodes opened (a free slot, a new GPU), then the repairs of
 * what is still unplaced (moves, cplan_repair.c; GPU swaps, cplan_swap.c),
 * and only then new nodes (complete_counts).  It also builds a second
 * plan of the same counts that looks at CPU and RAM from the start: every
 * arc's share rounded (largest remainders within the demand), the replicas
 * that ask the most of a node's CPU or RAM dealt first, each onto the node
 * with the most CPU and RAM left; then the greedy fallback and the repair.
 * The better plan is kept (cplan_better: the priority rule, then the
 * objective, so the one that places more wins unless its extra nodes
 * cost more or it places less of a higher priority), the first on a tie: a first deal that places everything by opening a node the
 * counts did not have loses to a second that needs none.
 */

/*
 * Configures the GPUs of ncfg[k] in mode m on the `want` nodes opened
 * from node `first`.  Configurations are dealt in groups of one node key
 * (problem.h): a group with a key gets nodes of its own, as many as its
 * GPUs fill plus its share of the nodes no group fills, so that no node
 * mixes keys; the group without a key (every configuration of a mode
 * without the rule) gets all the nodes.  Within a group, round-robin over
 * its nodes: each node gets a share of every configuration, so the
 * replicas of a configuration (and the CPU and RAM they ask) are spread
 * rather than piled on a few nodes.  GPUs that find no node (counts that
 * break the rule) stay unconfigured; their replicas are placed later.
 */
static void configure_counts(struct cplan *cp, size_t k, enum gpu_mode m, size_t first, long want,
			     long *const *ncfg)
{
	const struct pclass *c = &cp->p->classes[k];
	long g = c->nc->gpus_per_node, *tot = xcalloc(c->nconfigs + 1, sizeof(*tot)), all = 0, need = 0, next = 0;
	size_t ci, cj;

	for (ci = 0; ci < c->nconfigs; ci++) {	/* tot[group's first configuration] */
		const struct config *cf = &c->configs[ci];
		if (cf->mode != m || cf->node_pattern)
			continue;
		for (cj = 0; cj < ci && (c->configs[cj].mode != m || c->configs[cj].node_pattern ||
					 c->configs[cj].node_key != cf->node_key); cj++)
			;
		tot[cj] += ncfg[k][ci];
		all += ncfg[k][ci];
	}
	for (ci = 0; ci < c->nconfigs; ci++)
		if (tot[ci] && c->configs[ci].node_key)
			need += (tot[ci] + g - 1) / g;
	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		long nodes = want, base = 0, gi = 0, r;
		if (!tot[ci])
			continue;
		if (cf->node_key) {
			nodes = (tot[ci] + g - 1) / g + (want > need ? (want - need) * tot[ci] / all : 0);
			if (nodes > want - next)
				nodes = want - next;
			base = next;
			next += nodes;
		}
		for (cj = ci; cj < c->nconfigs && nodes > 0; cj++) {
			const struct config *cg = &c->configs[cj];
			if (cg->mode != m || cg->node_pattern || cg->node_key != cf->node_key)
				continue;
			for (r = 0; r < ncfg[k][cj] && gi < nodes * g; r++, gi++)
				cplan_configure_gpu(cp, (int)(first + (size_t)(base + gi % nodes)), (int)(gi / nodes),
						    (int)cj);
		}
	}
	free(tot);
}

/* Opens the nodes of the counts and configures their GPUs. */
static void open_counts(struct cplan *cp, const long *nmode, long *const *ncfg)
{
	const struct problem *p = cp->p;
	size_t k;
	int m;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		for (m = 0; m < MODE_COUNT; m++) {
			long want = nmode[k * MODE_COUNT + (size_t)m], opened = 0;
			size_t first = cp->nnodes, ci;
			if (want <= 0)
				continue;
			for (ci = 0; ci < c->nconfigs; ci++) {	/* node patterns: nodes of their own */
				long r;
				if (!c->configs[ci].node_pattern || c->configs[ci].mode != (enum gpu_mode)m)
					continue;
				for (r = 0; r < ncfg[k][ci] && opened < want; r++, opened++)
					cplan_open_node(cp, (int)k, (enum gpu_mode)m, (int)ci);
			}
			if (m == MODE_PASSTHROUGH)
				continue;
			first = cp->nnodes;
			want -= opened;
			for (opened = 0; opened < want; opened++)
				cplan_open_node(cp, (int)k, (enum gpu_mode)m, -1);
			configure_counts(cp, k, (enum gpu_mode)m, first, want, ncfg);
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
			size_t s = cplan_take_free(cp, a->k, a->s, p->demands[a->d].w);
			if (s == (size_t)-1)
				break;
			cplan_place_at(cp, s, a->d);
		}
	}
}

/*
 * Places the replicas still without a slot as the greedy planner would,
 * heaviest demands first: a free slot or a new GPU of a node opened; with
 * new_nodes also a new node, and only then is what finds none counted
 * unplaced with a reason.  Without new_nodes what finds no slot is counted
 * unplaced for the repair to move room free, and tried again with new
 * nodes after it: a node opened for one replica the repair could have
 * placed costs the plan that node (on rented fleets, a dear one).
 */
static void place_leftover(struct cplan *cp, int new_nodes)
{
	const struct problem *p = cp->p;
	size_t *ord = cplan_demands_by_load(p), i;

	for (i = 0; i < p->ndemands; i++) {
		int d = (int)ord[i];
		if (new_nodes && cp->unplaced[d]) {	/* left by the first pass and the repair */
			cp->unplaced[d] = 0;
			free(cp->reason[d]);
			cp->reason[d] = NULL;
		}
		while (cp->placed[d] + cp->unplaced[d] < p->demands[d].replicas) {
			long left = p->demands[d].replicas - cp->placed[d];
			size_t s = p->demands[d].unhostable ? (size_t)-1
				   : new_nodes		    ? cplan_place_one(cp, d, left)
							    : cplan_place_opened(cp, d, left);
			if (s == (size_t)-1) {
				cp->unplaced[d] = left;
				if (new_nodes)
					cplan_set_reason(cp, d);
				break;
			}
			cplan_place_at(cp, s, d);
		}
	}
	free(ord);
}

/* The repairs, ejection chains then swaps, again while they place something. */
static void repair_all(struct cplan *cp)
{
	long before, left = cplan_unplaced_count(cp);

	do {
		before = left;
		cplan_repair_unplaced(cp);
		cplan_repair_swap(cp);
		left = cplan_unplaced_count(cp);
	} while (left && left < before);
}

/* What the counts' slots left: placed in nodes opened, repaired, then on new nodes and repaired again. */
static void complete_counts(struct cplan *cp)
{
	place_leftover(cp, 0);
	repair_all(cp);
	place_leftover(cp, 1);
	repair_all(cp);
	cplan_caps_trim(cp);
}

/*
 * Each arc's replicas in whole numbers: the whole part of its count, and
 * the demand's rounded total shared out by largest remainders (then arc
 * order).  Caller frees.
 */
long *cplan_round_arcs(const struct problem *p, const double *arc)
{
	long *t = xcalloc(p->narcs + 1, sizeof(*t));
	size_t d, lo, hi, a;

	for (d = 0; d < p->ndemands; d++) {
		double sum = 0;
		long base = 0, extra;
		problem_arcs_of(p, (int)d, &lo, &hi);
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
	struct cplan_cand *ord = xmalloc((p->narcs + 1) * sizeof(*ord)); /* .slot: an arc here */
	size_t *group = xmalloc((cp->nnodes + 1) * sizeof(*group));	/* per node: its group, or -1 */
	size_t *gnode = NULL, *gnext = NULL, *gend = NULL, *gslot = NULL;
	size_t cap1 = 0, cap2 = 0, cap3 = 0, cap4 = 0, na = 0, i;

	for (i = 0; i < p->narcs; i++)
		if (target[i] > 0) {
			ord[na].key = -cplan_load_share(p->classes[p->arcs[i].k].nc, p->demands[p->arcs[i].d].w);
			ord[na++].slot = i;
		}
	qsort(ord, na, sizeof(*ord), cplan_cand_order);
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
		cplan_queue_compact(cp, a->k, a->s);
		q = cplan_queue(cp, a->k, a->s);
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
				if (gnext[g] == gend[g] || !cplan_node_has_room(cp, nd, w))
					continue;
				h = cplan_headroom(cp, nd, w);
				if (best == ng || h > hbest) {
					best = g;
					hbest = h;
				}
			}
			if (best == ng)
				break;
			cplan_place_at(cp, gslot[gnext[best]++], a->d);
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
	long *target = cplan_round_arcs(cp->p, arc);

	open_counts(cp, nmode, ncfg);
	deal_balanced(cp, target);
	complete_counts(cp);
	free(target);
}

/* Opens r's node in cp, configures its GPUs and places its replicas, each in a free slot of its type. */
static void build_recipe(struct cplan *cp, const struct cplan_recipe *r)
{
	const struct problem *p = cp->p;
	const struct pclass *c = &p->classes[r->k];
	size_t first = cp->nslots, sl;
	int node = cplan_open_node(cp, r->k, r->mode, r->pattern), g, a;

	for (g = 0; g < r->ncfg && g < c->nc->gpus_per_node; g++)
		cplan_configure_gpu(cp, node, g, r->cfg[g]);
	for (a = 0; a < r->nrep; a++) {
		int d = r->rep_d[a];
		if (cp->placed[d] >= p->demands[d].replicas)
			continue;
		for (sl = first; sl < cp->nslots; sl++)
			if (cp->slots[sl].node == node && cp->slots[sl].d < 0 &&
			    c->slot_types[cp->slots[sl].type].rep == r->rep_s[a])
				break;
		if (sl < cp->nslots && cplan_node_has_room(cp, &cp->nodes[node], p->demands[d].w))
			cplan_place_at(cp, sl, d);
	}
}

void cplan_recipe_free(struct cplan_recipe *r)
{
	free(r->cfg);
	free(r->rep_d);
	free(r->rep_s);
	memset(r, 0, sizeof(*r));
}

void cplan_from_counts_on(struct cplan *cp, const struct cplan_recipe *pre, size_t npre, const long *nmode,
			  long *const *ncfg, const double *arc)
{
	const struct problem *p = cp->p;
	struct cplan alt;
	struct cplan_cost c1, c2;
	size_t i;

	for (i = 0; i < npre; i++)
		build_recipe(cp, &pre[i]);
	open_counts(cp, nmode, ncfg);
	deal_first_fit(cp, arc);
	complete_counts(cp);
	cplan_init(&alt, p);
	for (i = 0; i < npre; i++)
		build_recipe(&alt, &pre[i]);
	from_counts_balanced(&alt, nmode, ncfg, arc);
	cplan_cost(cp, &c1);
	cplan_cost(&alt, &c2);
	if (cplan_better(&alt, &c2, cp, &c1)) {
		cplan_release(cp);
		*cp = alt;
	} else {
		cplan_release(&alt);
	}
}

void cplan_from_counts(struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc)
{
	cplan_from_counts_on(cp, NULL, 0, nmode, ncfg, arc);
}

size_t cplan_slot_arc(const struct cplan *cp, size_t slot)
{
	const struct problem *p = cp->p;
	const struct cslot *s = &cp->slots[slot];
	int k = cp->nodes[s->node].k, rep;
	size_t lo, hi, j;

	if (s->d < 0)
		return (size_t)-1;
	rep = p->classes[k].slot_types[s->type].rep;
	problem_arcs_of(p, s->d, &lo, &hi);
	for (j = lo; j < hi; j++)
		if (p->arcs[j].k == k && p->arcs[j].s == rep)
			return j;
	return (size_t)-1;
}

void cplan_arc_placed(const struct cplan *cp, double *arc)
{
	size_t i, j;

	for (i = 0; i < cp->nslots; i++)
		if ((j = cplan_slot_arc(cp, i)) != (size_t)-1)
			arc[j] += 1;
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

	cplan_arc_placed(cp, got);
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
	long *target = cplan_round_arcs(p, arc), *floors = xcalloc(p->narcs + 1, sizeof(*floors)), l1, l2;
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
		if (n->mode == MODE_PASSTHROUGH || n->pattern >= 0) {
			if (n->pattern >= 0)
				ncfg[n->k][n->pattern]++;
			continue;
		}
		for (g = 0; g < p->classes[n->k].nc->gpus_per_node; g++)
			if (n->gpu_config[g] >= 0)
				ncfg[n->k][n->gpu_config[g]]++;
	}
	cplan_arc_placed(cp, arc);
	for (i = 0; i < p->ndemands; i++)
		unplaced[i] = (double)cp->unplaced[i];
}
