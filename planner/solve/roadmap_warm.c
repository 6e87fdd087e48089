/*
 * roadmap_warm.c - the roadmap's warm start (roadmap_warm.h): the
 * previous period's plan carried over to the next period's problem.
 *
 * A period's demand is mostly the previous period's; planned afresh, the
 * greedy pass places it from nothing and, at scale, leaves replicas
 * unplaced that the previous period's plan (improved by the solver in its
 * share of the time) had placed.  Carried over, the replicas that stay
 * keep their nodes, GPUs and slots and only the change is placed, so a
 * period that changes little keeps what the earlier periods' solves
 * found.  As simulate's steps (sim/step.c) do within one problem, but
 * across problems, so by name.
 */
#include <stdlib.h>
#include <string.h>

#include "roadmap_warm.h"
#include "util.h"
#include "banned.h"

/* ================= the carry ================= */

/* Node n of cp into cy (its replicas follow in cp's slot order). */
static void carry_node(struct rm_carry *cy, const struct cplan *cp, size_t n, const size_t *cls_src)
{
	const struct cnode *cn = &cp->nodes[n];
	const struct pclass *pc = &cp->p->classes[cn->k];
	struct rm_carry_node *o = &cy->nodes[cy->nnodes++];
	int g;

	o->cls = cls_src[pc->index];
	o->mode = cn->mode;
	o->pattern = cn->pattern >= 0 ? xstrdup(pc->configs[cn->pattern].name) : NULL;
	o->ngpus = pc->nc->gpus_per_node;
	o->cfg = xcalloc((size_t)o->ngpus + 1, sizeof(*o->cfg));
	for (g = 0; g < o->ngpus; g++)
		if (cn->gpu_config[g] >= 0)
			o->cfg[g] = xstrdup(pc->configs[cn->gpu_config[g]].name);
}

void rm_carry_take(struct rm_carry *cy, const struct cplan *cp, const size_t *cls_src, const size_t *w_src)
{
	size_t n, i, *count = xcalloc(cp->nnodes + 1, sizeof(*count));

	memset(cy, 0, sizeof(*cy));
	cy->nodes = xcalloc(cp->nnodes + 1, sizeof(*cy->nodes));
	cy->slots = xcalloc(cp->nslots + 1, sizeof(*cy->slots));
	for (n = 0; n < cp->nnodes; n++)
		carry_node(cy, cp, n, cls_src);
	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0)
			count[cp->slots[i].node]++;
	for (n = 0; n < cp->nnodes; n++)
		cy->nodes[n].first = n ? cy->nodes[n - 1].first + count[n - 1] : 0;
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *sl = &cp->slots[i];
		const struct pclass *pc = &cp->p->classes[cp->nodes[sl->node].k];
		struct rm_carry_node *o = &cy->nodes[sl->node];
		struct rm_carry_slot *s;
		if (sl->d < 0)
			continue;
		s = &cy->slots[o->first + o->nslots++];
		s->gpu = sl->gpu;
		s->type = xstrdup(pc->slot_types[sl->type].name);
		s->mig_start = sl->mig_start;
		s->w = w_src[cp->p->demands[sl->d].index];
	}
	cy->nslots = cy->nnodes ? cy->nodes[cy->nnodes - 1].first + cy->nodes[cy->nnodes - 1].nslots : 0;
	free(count);
}

void rm_carry_release(struct rm_carry *cy)
{
	size_t i;
	int g;

	for (i = 0; i < cy->nnodes; i++) {
		for (g = 0; g < cy->nodes[i].ngpus; g++)
			free(cy->nodes[i].cfg[g]);
		free(cy->nodes[i].cfg);
		free(cy->nodes[i].pattern);
	}
	for (i = 0; i < cy->nslots; i++)
		free(cy->slots[i].type);
	free(cy->nodes);
	free(cy->slots);
	memset(cy, 0, sizeof(*cy));
}

/* ================= the seed ================= */

/* The configuration of class pc in mode m named name; -1 when it has none. */
static int config_named(const struct pclass *pc, enum gpu_mode m, const char *name)
{
	size_t c;

	for (c = 0; c < pc->nconfigs; c++)
		if (pc->configs[c].mode == m && !strcmp(pc->configs[c].name, name))
			return (int)c;
	return -1;
}

/* Whether demand d has an arc to slot type s of class k (p->arcs is sorted by d, k, s). */
static int has_arc(const struct problem *p, int d, int k, int s)
{
	size_t lo = 0, hi = p->narcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct arc *a = &p->arcs[mid];
		if (a->d < d || (a->d == d && (a->k < k || (a->k == k && a->s < s))))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->narcs && p->arcs[lo].d == d && p->arcs[lo].k == k && p->arcs[lo].s == s;
}

/* Whether the replica of demand d fits free slot j of cp: its type, an arc, the node's CPU and RAM left. */
static int slot_takes(const struct cplan *cp, size_t j, int d, const struct rm_carry_slot *s, enum gpu_mode m)
{
	const struct cslot *sl = &cp->slots[j];
	const struct cnode *n = &cp->nodes[sl->node];
	const struct pclass *pc = &cp->p->classes[n->k];
	const struct slot_type *st = &pc->slot_types[sl->type];
	const struct workload *w = cp->p->demands[d].w;

	return sl->d < 0 && sl->gpu == s->gpu && sl->mig_start == s->mig_start && st->mode == m &&
	       !strcmp(st->name, s->type) && has_arc(cp->p, d, n->k, st->rep) &&
	       n->cpu_used + w->cpu_cores <= pc->nc->cpu_cores + 1e-9 && n->ram_used + w->ram_gib <= pc->nc->ram_gib + 1e-9;
}

/* The rebuilt plan: where each carried node went, the maps, the replicas still asked. */
struct seed_state {
	const struct rm_seed *sd;
	int *kmap, *wmap;	/* inventory class to class, workload to demand; -1: none */
	int *node;		/* per carried node: its node in cp; -1 not yet opened, -2 cannot be */
	size_t *gbase;		/* per carried node: its first entry in first and end */
	size_t *first, *end;	/* per carried node and GPU: the slots of that GPU in cp */
	long *left;		/* per demand: replicas still asked */
};

/*
 * Opens carried node n in its class, mode and pattern, when the class
 * has a node left and the problem the pattern; its node in cp, or -2.
 */
static int open_carried(struct cplan *cp, struct seed_state *st, size_t n)
{
	const struct rm_carry_node *o = &st->sd->cy->nodes[n];
	int k = st->kmap[o->cls], pattern = -1, node, g;
	size_t first = cp->nslots;

	if (k < 0 || cp->opened[k] >= cp->p->classes[k].nc->count || (!o->pattern && o->mode == MODE_PASSTHROUGH))
		return -2;
	if (o->pattern && (pattern = config_named(&cp->p->classes[k], o->mode, o->pattern)) < 0)
		return -2;
	node = cplan_open_node(cp, k, o->mode, pattern);
	for (g = 0; g < o->ngpus; g++) {
		st->first[st->gbase[n] + (size_t)g] = first;
		st->end[st->gbase[n] + (size_t)g] = cp->nslots;
	}
	return node;
}

/*
 * The slots of GPU g of carried node n in cp, the node opened and the GPU
 * given its carried configuration first when they are not; 0 when the
 * node cannot be opened or the GPU holds another configuration.
 */
static int gpu_slots(struct cplan *cp, struct seed_state *st, size_t n, int g)
{
	const struct rm_carry_node *o = &st->sd->cy->nodes[n];
	size_t at = st->gbase[n] + (size_t)g;
	const struct cnode *cn;
	int c;

	if (st->node[n] == -1)
		st->node[n] = open_carried(cp, st, n);
	if (st->node[n] < 0)
		return 0;
	cn = &cp->nodes[st->node[n]];
	if (o->pattern || g >= cp->p->classes[cn->k].nc->gpus_per_node || !o->cfg[g])
		return !!o->pattern;
	c = config_named(&cp->p->classes[cn->k], o->mode, o->cfg[g]);
	if (c < 0 || (cn->gpu_config[g] >= 0 && cn->gpu_config[g] != c))
		return 0;
	if (cn->gpu_config[g] < 0) {
		st->first[at] = cp->nslots;
		cplan_configure_gpu(cp, st->node[n], g, c);
		st->end[at] = cp->nslots;
	}
	return 1;
}

/*
 * Puts the carried replicas of priority prio back where they were, the
 * node and GPU reopened as they were when they are not yet; a replica
 * whose slot is taken or whose GPU now holds another configuration is
 * left to the greedy pass.
 */
static void refill(struct cplan *cp, struct seed_state *st, int prio)
{
	const struct rm_carry *cy = st->sd->cy;
	size_t n, i, j;

	for (n = 0; n < cy->nnodes; n++) {
		const struct rm_carry_node *o = &cy->nodes[n];
		for (i = o->first; i < o->first + o->nslots && st->node[n] != -2; i++) {
			const struct rm_carry_slot *s = &cy->slots[i];
			int d = st->wmap[s->w];
			size_t at = st->gbase[n] + (size_t)s->gpu;
			if (d < 0 || st->left[d] <= 0 || cp->p->demands[d].w->priority != prio ||
			    !gpu_slots(cp, st, n, s->gpu))
				continue;
			for (j = st->first[at]; j < st->end[at] && !slot_takes(cp, j, d, s, o->mode); j++)
				;
			if (j < st->end[at]) {
				cplan_place_at(cp, j, d);
				st->left[d]--;
			}
		}
	}
}

/* The next priority below prio that some demand has; 0 when none. */
static int next_priority(const struct problem *p, int prio)
{
	int best = 0;
	size_t d;

	for (d = 0; d < p->ndemands; d++)
		if (p->demands[d].w->priority < prio && p->demands[d].w->priority > best)
			best = p->demands[d].w->priority;
	return best;
}

/*
 * Priority by priority, highest first: the carried replicas back in
 * place, then the rest of the priority's demand placed greedily (free
 * slots first, so a new replica may take a slot a replica of lower
 * priority held: that one is then placed elsewhere, or left unplaced, as
 * the priority rule asks).
 */
static void refill_by_priority(struct cplan *cp, struct seed_state *st)
{
	const struct problem *p = cp->p;
	long *add = xcalloc(p->ndemands + 1, sizeof(*add));
	int prio = next_priority(p, CPLAN_PRIO_MAX + 1);
	size_t d;

	while (prio > 0) {
		refill(cp, st, prio);
		for (d = 0; d < p->ndemands; d++) {
			add[d] = p->demands[d].w->priority == prio ? st->left[d] : 0;
			if (add[d])
				st->left[d] = 0;
		}
		cplan_place_more(cp, add);
		prio = next_priority(p, prio);
	}
	free(add);
}

/* The maps of the seed's problem: inventory class to class (-1: none), workload to demand (-1: none). */
static void seed_maps(const struct cplan *cp, const struct rm_seed *sd, int *kmap, int *wmap)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < sd->nsrc_cls; i++)
		kmap[i] = -1;
	for (i = 0; i < sd->nsrc_w; i++)
		wmap[i] = -1;
	for (i = 0; i < p->nclasses; i++)
		if (sd->cls_carry[p->classes[i].index] && kmap[sd->cls_src[p->classes[i].index]] < 0)
			kmap[sd->cls_src[p->classes[i].index]] = (int)i;
	for (i = 0; i < p->ndemands; i++)
		wmap[sd->w_src[p->demands[i].index]] = (int)i;
}

/*
 * The three ways a carried plan is rebuilt (rm_seed_plan keeps the best):
 * every carried node and GPU opened first, then replicas priority by
 * priority (SEED_EAGER) or every carried replica back first and the rest
 * greedily (SEED_KEEP); or nodes and GPUs opened as the replicas priority
 * by priority come back to them (SEED_LAZY), so a GPU that no replica of
 * a higher priority asks for is free for the greedy pass to configure
 * for one that does.
 */
enum seed_way { SEED_EAGER, SEED_KEEP, SEED_LAZY, SEED_WAYS };

/* Opens every carried node and GPU that holds a replica some demand of cp still has. */
static void open_all(struct cplan *cp, struct seed_state *st)
{
	const struct rm_carry *cy = st->sd->cy;
	size_t n, i;

	for (n = 0; n < cy->nnodes; n++)
		for (i = cy->nodes[n].first; i < cy->nodes[n].first + cy->nodes[n].nslots && st->node[n] != -2; i++)
			if (st->wmap[cy->slots[i].w] >= 0)
				gpu_slots(cp, st, n, cy->slots[i].gpu);
}

/* The carried plan rebuilt the way way into the empty cp, st's maps set. */
static void seed_way(struct cplan *cp, struct seed_state *st, enum seed_way way)
{
	const struct problem *p = cp->p;
	size_t n, d;
	int prio;

	for (n = 0; n < st->sd->cy->nnodes; n++)
		st->node[n] = -1;
	for (d = 0; d < p->ndemands; d++)
		st->left[d] = p->demands[d].replicas;
	if (way != SEED_LAZY)
		open_all(cp, st);
	if (way != SEED_KEEP) {
		refill_by_priority(cp, st);
		return;
	}
	for (prio = next_priority(p, CPLAN_PRIO_MAX + 1); prio > 0; prio = next_priority(p, prio))
		refill(cp, st, prio);
	cplan_place_more(cp, st->left);
}

void rm_seed_plan(struct cplan *cp, void *ctx)
{
	const struct rm_seed *sd = ctx;
	const struct problem *p = cp->p;
	size_t nn = sd->cy->nnodes + 1, ng = 1, n;
	struct seed_state st;
	struct cplan_cost best, c;
	int way;

	st.sd = sd;
	st.kmap = xcalloc(sd->nsrc_cls + 1, sizeof(*st.kmap));
	st.wmap = xcalloc(sd->nsrc_w + 1, sizeof(*st.wmap));
	st.node = xcalloc(nn, sizeof(*st.node));
	st.gbase = xcalloc(nn, sizeof(*st.gbase));
	for (n = 0; n < sd->cy->nnodes; n++) {
		st.gbase[n] = ng;
		ng += (size_t)sd->cy->nodes[n].ngpus;
	}
	st.first = xcalloc(ng, sizeof(*st.first));
	st.end = xcalloc(ng, sizeof(*st.end));
	st.left = xcalloc(p->ndemands + 1, sizeof(*st.left));
	seed_maps(cp, sd, st.kmap, st.wmap);
	seed_way(cp, &st, SEED_EAGER);
	cplan_cost(cp, &best);
	for (way = SEED_EAGER + 1; way < SEED_WAYS; way++) {
		struct cplan alt;
		cplan_init(&alt, p);
		seed_way(&alt, &st, (enum seed_way)way);
		cplan_cost(&alt, &c);
		if (cplan_better(&alt, &c, cp, &best)) {
			struct cplan x = *cp;
			*cp = alt;
			alt = x;
			best = c;
		}
		cplan_release(&alt);
	}
	free(st.kmap);
	free(st.wmap);
	free(st.node);
	free(st.gbase);
	free(st.first);
	free(st.end);
	free(st.left);
}
