/*
 * cplan.c - the placement engine of concrete plans, shared by the greedy
 * planner (cplan_greedy.c), the repair (cplan_repair.c) and the
 * disaggregation of ILP counts (cplan_deal.c): a plan's life cycle,
 * opening nodes and configuring GPUs (which creates their slots),
 * filling and emptying slots, the free slot queues, the arcs of a
 * demand, the CPU and RAM a node has left, and the spread and
 * availability caps every placement path tests (cplan_caps_trim, in
 * cplan_caps.c, recounts a finished plan).
 *
 * Free slots wait in one FIFO queue per (class, slot type), in the order
 * they were created, so placement is first-fit and deterministic.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "util.h"
#include "banned.h"

/* The engine's cursors and caches, empty. */
static void memo_init(struct cplan *cp)
{
	const struct problem *p = cp->p;
	size_t nk = p->nclasses ? p->nclasses : 1, k;
	struct cplan_memo *m = xcalloc(1, sizeof(*m));

	m->scan = xcalloc(nk, sizeof(*m->scan));
	for (k = 0; k < p->nclasses; k++)
		m->scan[k] = xcalloc(p->classes[k].nslot_types + 1, sizeof(**m->scan));
	m->kc = xcalloc(nk * MODE_COUNT, sizeof(*m->kc));
	m->nkc = xcalloc(nk * MODE_COUNT, sizeof(*m->nkc));
	m->kccap = xcalloc(nk * MODE_COUNT, sizeof(*m->kccap));
	m->gd = m->cd = m->nd = -1;
	cp->memo = m;
}

static void memo_release(struct cplan *cp)
{
	struct cplan_memo *m = cp->memo;
	size_t k;

	for (k = 0; k < cp->p->nclasses; k++)
		free(m->scan[k]);
	for (k = 0; k < cp->p->nclasses * MODE_COUNT; k++)
		free(m->kc[k]);
	free(m->scan);
	free(m->kc);
	free(m->nkc);
	free(m->kccap);
	free(m->alive_next);
	free(m);
}

void cplan_init(struct cplan *cp, const struct problem *p)
{
	size_t k, nd = p->ndemands ? p->ndemands : 1, nk = p->nclasses ? p->nclasses : 1;

	memset(cp, 0, sizeof(*cp));
	cp->p = p;
	cp->placed = xcalloc(nd, sizeof(*cp->placed));
	cp->unplaced = xcalloc(nd, sizeof(*cp->unplaced));
	cp->reason = xcalloc(nd, sizeof(*cp->reason));
	cp->opened = xcalloc(nk, sizeof(*cp->opened));
	cp->fq = xcalloc(nk, sizeof(*cp->fq));
	cp->fqn = xcalloc(nk, sizeof(*cp->fqn));
	cp->fqcap = xcalloc(nk, sizeof(*cp->fqcap));
	cp->fqhead = xcalloc(nk, sizeof(*cp->fqhead));
	for (k = 0; k < p->nclasses; k++) {
		size_t ns = p->classes[k].nslot_types ? p->classes[k].nslot_types : 1;
		cp->fq[k] = xcalloc(ns, sizeof(**cp->fq));
		cp->fqn[k] = xcalloc(ns, sizeof(**cp->fqn));
		cp->fqcap[k] = xcalloc(ns, sizeof(**cp->fqcap));
		cp->fqhead[k] = xcalloc(ns, sizeof(**cp->fqhead));
	}
	memo_init(cp);
	cplan_caps_init(cp);
}

void cplan_release(struct cplan *cp)
{
	size_t i, k;
	const struct problem *p = cp->p;

	if (!p)
		return;
	for (i = 0; i < cp->nnodes; i++) {
		free(cp->nodes[i].gpu_config);
		free(cp->nodes[i].gpu_used);
		free(cp->nodes[i].gpu_nvaie);
	}
	free(cp->nodes);
	free(cp->slots);
	for (i = 0; i < p->ndemands; i++)
		free(cp->reason[i]);
	free(cp->reason);
	free(cp->placed);
	free(cp->unplaced);
	free(cp->opened);
	for (k = 0; k < p->nclasses; k++) {
		size_t s;
		for (s = 0; s < p->classes[k].nslot_types; s++)
			free(cp->fq[k][s]);
		free(cp->fq[k]);
		free(cp->fqn[k]);
		free(cp->fqcap[k]);
		free(cp->fqhead[k]);
	}
	free(cp->fq);
	free(cp->fqn);
	free(cp->fqcap);
	free(cp->fqhead);
	memo_release(cp);
	free(cp->capn);
	free(cp->caps);
	memset(cp, 0, sizeof(*cp));
}

long cplan_unplaced_count(const struct cplan *cp)
{
	long n = 0;
	size_t i;

	for (i = 0; i < cp->p->ndemands; i++)
		n += cp->unplaced[i];
	return n;
}

char *cplan_node_name(const struct cplan *cp, const struct cnode *n)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;

	if (n->ordinal >= 0 && (size_t)n->ordinal < nc->nnodes)
		return xstrdup(nc->nodes[n->ordinal]);
	return xasprintf("%s-%03d", nc->name, n->ordinal);
}

/* ================= slots and nodes ================= */

size_t *cplan_queue(struct cplan *cp, int k, int s)
{
	return cp->fq[k][s];
}

static void queue_push(struct cplan *cp, int k, int s, size_t slot)
{
	XGROW(cp->fq[k][s], cp->fqcap[k][s], cp->fqn[k][s] + 1);
	cp->fq[k][s][cp->fqn[k][s]++] = slot;
}

/* A copy of n bytes at src (n may be 0); caller frees. */
static void *dup_bytes(const void *src, size_t n)
{
	void *d = xmalloc(n ? n : 1);
	if (n)
		memcpy(d, src, n);
	return d;
}

/* The deep copy of cplan_engine.h: the free slot queues rebuilt in slot (creation) order. */
void cplan_copy(struct cplan *dst, const struct cplan *src)
{
	const struct problem *p = src->p;
	size_t i, k;

	cplan_init(dst, p);
	dst->nnodes = dst->nodecap = src->nnodes;
	dst->nodes = xcalloc(src->nnodes + 1, sizeof(*dst->nodes));
	for (i = 0; i < src->nnodes; i++) {
		size_t g = (size_t)p->classes[src->nodes[i].k].nc->gpus_per_node;
		dst->nodes[i] = src->nodes[i];
		dst->nodes[i].gpu_config = dup_bytes(src->nodes[i].gpu_config, g * sizeof(int));
		dst->nodes[i].gpu_used = dup_bytes(src->nodes[i].gpu_used, g * sizeof(int));
		dst->nodes[i].gpu_nvaie = dup_bytes(src->nodes[i].gpu_nvaie, g * sizeof(int));
	}
	dst->nslots = dst->slotcap = src->nslots;
	dst->slots = dup_bytes(src->slots, src->nslots * sizeof(*dst->slots));
	memcpy(dst->placed, src->placed, p->ndemands * sizeof(*dst->placed));
	memcpy(dst->unplaced, src->unplaced, p->ndemands * sizeof(*dst->unplaced));
	memcpy(dst->opened, src->opened, p->nclasses * sizeof(*dst->opened));
	XGROW(dst->memo->alive_next, dst->memo->alive_cap, dst->nnodes + 1);
	for (i = 0; i <= dst->nnodes; i++)
		dst->memo->alive_next[i] = i;
	for (k = 0; k < p->nclasses; k++)
		dst->memo->nfull += dst->opened[k] == p->classes[k].nc->count;
	for (i = 0; i < src->nslots; i++)
		if (src->slots[i].d < 0) {
			const struct cslot *s = &src->slots[i];
			int nk = src->nodes[s->node].k;
			queue_push(dst, nk, p->classes[nk].slot_types[s->type].rep, i);
		}
	cplan_caps_grow(dst, src->nnodes);
	if (src->capncap)
		memcpy(dst->capn, src->capn, src->nnodes * p->ncapped * sizeof(*dst->capn));
	memcpy(dst->caps, src->caps, p->nsites * p->ncapped * sizeof(*dst->caps));
	dst->no_avail_caps = src->no_avail_caps;
}

void cplan_shrink(struct cplan *cp)
{
	size_t k, s;

	if (cp->nslots && cp->slotcap > cp->nslots) {
		cp->slots = xrealloc(cp->slots, cp->nslots * sizeof(*cp->slots));
		cp->slotcap = cp->nslots;
	}
	if (cp->nnodes && cp->nodecap > cp->nnodes) {
		cp->nodes = xrealloc(cp->nodes, cp->nnodes * sizeof(*cp->nodes));
		cp->nodecap = cp->nnodes;
	}
	for (k = 0; k < cp->p->nclasses; k++)
		for (s = 0; s < cp->p->classes[k].nslot_types; s++)
			if (cp->fqn[k][s] && cp->fqcap[k][s] > cp->fqn[k][s]) {
				cp->fq[k][s] = xrealloc(cp->fq[k][s], cp->fqn[k][s] * sizeof(*cp->fq[k][s]));
				cp->fqcap[k][s] = cp->fqn[k][s];
			}
}

/*
 * Drops the taken slots from the part of queue (k, s) still ahead of its
 * head, keeping the order of the free ones.  A slot freed later is queued
 * again (cplan_slot_clear), so none is lost.
 */
void cplan_queue_compact(struct cplan *cp, int k, int s)
{
	size_t *q = cp->fq[k][s], i, j = cp->fqhead[k][s];

	for (i = j; i < cp->fqn[k][s]; i++)
		if (cp->slots[q[i]].d < 0)
			q[j++] = q[i];
	cp->fqn[k][s] = j;
	cp->memo->epoch++;
}

static void add_slot(struct cplan *cp, int node, int gpu, int ngpus, int type, int mig_start)
{
	struct cslot *s;
	XGROW(cp->slots, cp->slotcap, cp->nslots + 1);
	s = &cp->slots[cp->nslots];
	s->node = node;
	s->gpu = gpu;
	s->ngpus = ngpus;
	s->type = type;
	s->mig_start = mig_start;
	s->d = -1;
	s->replica = 0;
	queue_push(cp, cp->nodes[node].k, cp->p->classes[cp->nodes[node].k].slot_types[type].rep, cp->nslots);
	cp->nslots++;
}

static int slot_type_find(const struct pclass *c, enum gpu_mode mode, enum lic_product lic, const char *name)
{
	size_t i;
	for (i = 0; i < c->nslot_types; i++)
		if (c->slot_types[i].mode == mode && c->slot_types[i].lic == lic &&
		    !strcmp(c->slot_types[i].name, name))
			return (int)i;
	return -1;
}

/* Opens a node of class k in mode m; split by pattern when one is given. */
int cplan_open_node(struct cplan *cp, int k, enum gpu_mode m, int pattern)
{
	const struct pclass *c = &cp->p->classes[k];
	int g = c->nc->gpus_per_node, i, node;
	struct cnode *n;

	XGROW(cp->nodes, cp->nodecap, cp->nnodes + 1);
	node = (int)cp->nnodes++;
	n = &cp->nodes[node];
	memset(n, 0, sizeof(*n));
	n->k = k;
	n->ordinal = cp->opened[k]++;
	if (cp->opened[k] == c->nc->count)
		cp->memo->nfull++;
	XGROW(cp->memo->alive_next, cp->memo->alive_cap, cp->nnodes + 1);
	cp->memo->alive_next[node] = (size_t)node;
	cp->memo->alive_next[node + 1] = (size_t)node + 1;
	cplan_caps_grow(cp, cp->nnodes);
	n->mode = m;
	n->pattern = pattern;
	n->gpu_config = xmalloc((size_t)g * sizeof(*n->gpu_config));
	n->gpu_used = xcalloc((size_t)g, sizeof(*n->gpu_used));
	n->gpu_nvaie = xcalloc((size_t)g, sizeof(*n->gpu_nvaie));
	for (i = 0; i < g; i++)
		n->gpu_config[i] = -1;
	if (pattern >= 0)
		cplan_node_lay(cp, node, pattern);
	return node;
}

void cplan_node_lay(struct cplan *cp, int node, int pattern)
{
	struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct config *cf = &c->configs[pattern];
	int g = c->nc->gpus_per_node, next = 0, i, r;
	size_t j;

	/* groups largest first, on consecutive GPUs; a vgpu pattern's GPUs carry it */
	for (j = 0; j < cf->nreal; j++) {
		const struct slot_type *st = &c->slot_types[cf->real_slot[j]];
		for (r = 0; r < cf->real_count[j] && next + st->gpus <= g; r++) {
			add_slot(cp, node, next, st->gpus, cf->real_slot[j], -1);
			for (i = next; n->mode != MODE_PASSTHROUGH && i < next + st->gpus; i++)
				n->gpu_config[i] = pattern;
			next += st->gpus;
		}
	}
}

/* A group of a node pattern's layout: its first GPU, its GPUs, its slot type; `kept` a slot id or -1. */
struct pgroup {
	int gpu, ngpus, type;
	long kept;
};

/* The groups of pattern cf on a node of class c, laid out as cplan_open_node does; their count. */
static int pattern_layout(const struct pclass *c, const struct config *cf, struct pgroup *gr)
{
	int g = c->nc->gpus_per_node, next = 0, n = 0, r;
	size_t j;

	for (j = 0; j < cf->nreal; j++) {
		const struct slot_type *st = &c->slot_types[cf->real_slot[j]];
		for (r = 0; r < cf->real_count[j] && next + st->gpus <= g; r++) {
			gr[n].gpu = next;
			gr[n].ngpus = st->gpus;
			gr[n].type = cf->real_slot[j];
			gr[n++].kept = -1;
			next += st->gpus;
		}
	}
	return n;
}

/* Drops slot `slot` from the part of queue (k, s) ahead of its head. */
static void queue_drop(struct cplan *cp, int k, int s, size_t slot)
{
	size_t *q = cp->fq[k][s], i, j = cp->fqhead[k][s];

	for (i = j; i < cp->fqn[k][s]; i++)
		if (q[i] != slot)
			q[j++] = q[i];
	cp->fqn[k][s] = j;
}

int cplan_node_resplit(struct cplan *cp, int node, int pattern)
{
	struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct config *cf = &c->configs[pattern];
	struct pgroup *gr = xmalloc(((size_t)c->nc->gpus_per_node + 1) * sizeof(*gr));
	size_t *spare = xmalloc((cp->nslots + 1) * sizeof(*spare)), nspare = 0, i;
	int ng, g, fits = n->mode == MODE_PASSTHROUGH && cf->mode == MODE_PASSTHROUGH && cf->node_pattern, left;

	ng = fits ? pattern_layout(c, cf, gr) : 0;
	for (i = 0; i < cp->nslots && fits; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->node != node)
			continue;
		if (s->d < 0) {
			spare[nspare++] = i;
			continue;
		}
		for (g = 0; g < ng; g++)
			if (gr[g].kept < 0 && gr[g].gpu == s->gpu && gr[g].ngpus == s->ngpus && gr[g].type == s->type)
				break;
		if (g == ng)
			fits = 0;	/* a group in use is not in the new layout */
		else
			gr[g].kept = (long)i;
	}
	for (g = 0, left = 0; g < ng; g++)
		left += gr[g].kept < 0;
	if (!fits || left < (int)nspare) {
		free(gr);
		free(spare);
		return -1;
	}
	/* the free groups anew: the spare slots' ids first, then new slots */
	for (g = 0, i = 0; g < ng; g++) {
		struct cslot *s;
		if (gr[g].kept >= 0)
			continue;
		if (i == nspare) {
			add_slot(cp, node, gr[g].gpu, gr[g].ngpus, gr[g].type, -1);
			continue;
		}
		s = &cp->slots[spare[i]];
		queue_drop(cp, n->k, c->slot_types[s->type].rep, spare[i]);
		s->gpu = gr[g].gpu;
		s->ngpus = gr[g].ngpus;
		s->type = gr[g].type;
		s->mig_start = -1;
		queue_push(cp, n->k, c->slot_types[s->type].rep, spare[i++]);
	}
	n->pattern = pattern;
	cp->memo->epoch++;
	free(gr);
	free(spare);
	return 0;
}

int cplan_node_key(const struct cplan *cp, const struct cnode *n)
{
	const struct pclass *c = &cp->p->classes[n->k];
	int g;

	if (n->mode == MODE_PASSTHROUGH)
		return 0;
	for (g = 0; g < c->nc->gpus_per_node; g++)
		if (n->gpu_config[g] >= 0 && c->configs[n->gpu_config[g]].node_key)
			return c->configs[n->gpu_config[g]].node_key;
	return 0;
}

/* Puts GPU gpu of node into configuration cfg and creates its slots. */
void cplan_configure_gpu(struct cplan *cp, int node, int gpu, int cfg)
{
	struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct config *cf = &c->configs[cfg];
	const struct gpu_type *gt = c->nc->gpu;
	size_t j;
	int r;

	n->gpu_config[gpu] = cfg;
	switch (cf->mode) {
	case MODE_MIG:
	case MODE_MIG_VGPU:
		for (r = 0; r < cf->mig.n; r++) {
			const char *nm = gt->mig.profiles[cf->mig.profile[r]].name;
			int t;
			if (cf->mode == MODE_MIG_VGPU) {
				size_t v;
				for (v = 0; v < gt->vgpu.nmig; v++)
					if (gt->vgpu.mig_backed[v].gi_index == cf->mig.profile[r])
						break;
				nm = gt->vgpu.mig_backed[v].name;
			}
			t = slot_type_find(c, cf->mode, cf->lic, nm);
			if (t >= 0)
				add_slot(cp, node, gpu, 1, t, cf->mig.start[r]);
		}
		break;
	default:
		for (j = 0; j < cf->nreal; j++)
			for (r = 0; r < cf->real_count[j]; r++)
				add_slot(cp, node, gpu, 1, cf->real_slot[j], -1);
		break;
	}
}

/*
 * Swaps GPU a of node x with GPU b of node y: configurations, slots with
 * their replicas, and the CPU and RAM those replicas ask.  The cursors
 * restart: a node may have room, or an idle GPU, it had not.
 */
void cplan_swap_gpus(struct cplan *cp, int x, int a, int y, int b)
{
	struct cnode *nx = &cp->nodes[x], *ny = &cp->nodes[y];
	const struct workload *w;
	size_t i;
	int t;

	for (i = 0; i < cp->nslots; i++) {
		struct cslot *s = &cp->slots[i];
		int to_y = s->node == x && s->gpu == a, to_x = s->node == y && s->gpu == b;
		if (!to_y && !to_x)
			continue;
		if (s->d >= 0) {
			w = cp->p->demands[s->d].w;
			nx->cpu_used += to_y ? -w->cpu_cores : w->cpu_cores;
			nx->ram_used += to_y ? -w->ram_gib : w->ram_gib;
			ny->cpu_used += to_y ? w->cpu_cores : -w->cpu_cores;
			ny->ram_used += to_y ? w->ram_gib : -w->ram_gib;
			cplan_caps_count(cp, s->d, s->node, -1);
			cplan_caps_count(cp, s->d, to_y ? y : x, 1);
		}
		s->node = to_y ? y : x;
		s->gpu = to_y ? b : a;
	}
	t = nx->gpu_config[a], nx->gpu_config[a] = ny->gpu_config[b], ny->gpu_config[b] = t;
	t = nx->gpu_used[a], nx->gpu_used[a] = ny->gpu_used[b], ny->gpu_used[b] = t;
	t = nx->gpu_nvaie[a], nx->gpu_nvaie[a] = ny->gpu_nvaie[b], ny->gpu_nvaie[b] = t;
	for (i = 0; i <= cp->nnodes; i++)
		cp->memo->alive_next[i] = i;
	cp->memo->epoch++;
}

int cplan_node_has_room(const struct cplan *cp, const struct cnode *n, const struct workload *w)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;
	int d;

	if (n->cpu_used + w->cpu_cores > nc->cpu_cores + 1e-9 || n->ram_used + w->ram_gib > nc->ram_gib + 1e-9)
		return 0;
	if (!cp->p->ncapped || (d = cplan_demand_of(cp, w)) < 0)
		return 1;
	return cplan_caps_allow(cp, d, (int)(n - cp->nodes));
}

/*
 * Counting sort: the indices 0 .. n - 1 grouped by key[i] (< nkeys), in
 * index order within a group; group g is by[first[g]] .. by[first[g + 1] - 1].
 * Caller frees *first and *by.
 */
void cplan_group_by(const size_t *key, size_t n, size_t nkeys, size_t **first, size_t **by)
{
	size_t *f = xcalloc(nkeys + 2, sizeof(*f)), *b = xmalloc((n + 1) * sizeof(*b)), *fill, i;

	for (i = 0; i < n; i++)
		f[key[i] + 1]++;
	for (i = 0; i < nkeys; i++)
		f[i + 1] += f[i];
	fill = xcalloc(nkeys + 1, sizeof(*fill));
	for (i = 0; i < n; i++)
		b[f[key[i]] + fill[key[i]]++] = i;
	free(fill);
	*first = f;
	*by = b;
}

void cplan_slots_by_node(const struct cplan *cp, size_t **first, uint32_t **by)
{
	size_t *at = *first = xcalloc(cp->nnodes + 2, sizeof(*at)), i;
	uint32_t *b = *by = xmalloc((cp->nslots + 1) * sizeof(*b));

	for (i = 0; i < cp->nslots; i++)	/* at[n + 2]: node n's count, summed: where node n + 1's begin */
		at[cp->slots[i].node + 2]++;
	for (i = 2; i < cp->nnodes + 2; i++)
		at[i] += at[i - 1];
	for (i = 0; i < cp->nslots; i++)	/* at[n + 1] walks node n's ids up to where n + 1's begin */
		b[at[cp->slots[i].node + 1]++] = (uint32_t)i;
}

/* Puts replica `replica` of demand d into free slot `slot`, charging its node. */
void cplan_slot_fill(struct cplan *cp, size_t slot, int d, long replica)
{
	struct cslot *s = &cp->slots[slot];
	struct cnode *n = &cp->nodes[s->node];
	const struct workload *w = cp->p->demands[d].w;
	int i;

	s->d = d;
	s->replica = replica;
	cplan_caps_count(cp, d, s->node, 1);
	n->cpu_used += w->cpu_cores;
	n->ram_used += w->ram_gib;
	for (i = 0; i < s->ngpus; i++) {
		n->gpu_used[s->gpu + i]++;
		n->gpu_nvaie[s->gpu + i] += n->mode == MODE_PASSTHROUGH ? problem_passthrough_nvaie(cp->p, n->k, w)
									: w->needs_nvaie;
	}
}

/*
 * Empties slot `slot` (the inverse of cplan_slot_fill) and queues it again: the
 * head of its queue may have passed it while it was taken.  A slot may so
 * be queued twice; every reader of a queue checks that a slot is free.
 */
void cplan_slot_clear(struct cplan *cp, size_t slot)
{
	struct cslot *s = &cp->slots[slot];
	struct cnode *n = &cp->nodes[s->node];
	const struct workload *w = cp->p->demands[s->d].w;
	int i;

	cplan_caps_count(cp, s->d, s->node, -1);
	n->cpu_used -= w->cpu_cores;
	n->ram_used -= w->ram_gib;
	for (i = 0; i < s->ngpus; i++) {
		n->gpu_used[s->gpu + i]--;
		n->gpu_nvaie[s->gpu + i] -= n->mode == MODE_PASSTHROUGH ? problem_passthrough_nvaie(cp->p, n->k, w)
									: w->needs_nvaie;
	}
	s->d = -1;
	s->replica = 0;
	queue_push(cp, n->k, cp->p->classes[n->k].slot_types[s->type].rep, slot);
	cp->memo->epoch++;	/* the node has room again: the cursors restart */
}

void cplan_place_at(struct cplan *cp, size_t slot, int d)
{
	cplan_slot_fill(cp, slot, d, cp->placed[d]++);
}

/* First free slot of (k, s) on a node with room for w; (size_t)-1 if none. */
size_t cplan_take_free(struct cplan *cp, int k, int s, const struct workload *w)
{
	size_t *q = cplan_queue(cp, k, s);
	size_t i, n = cp->fqn[k][s];

	struct cplan_scan *sc = &cp->memo->scan[k][s];

	while (cp->fqhead[k][s] < n && cp->slots[q[cp->fqhead[k][s]]].d >= 0)
		cp->fqhead[k][s]++;
	i = cp->fqhead[k][s];
	if (sc->w == w && sc->epoch == cp->memo->epoch && sc->pos > i)
		i = sc->pos;
	for (; i < n; i++) {
		const struct cslot *sl = &cp->slots[q[i]];
		if (sl->d < 0 && cplan_node_has_room(cp, &cp->nodes[sl->node], w))
			break;
	}
	sc->w = w;
	sc->epoch = cp->memo->epoch;
	sc->pos = i;
	return i < n ? q[i] : (size_t)-1;
}

size_t cplan_find_free(struct cplan *cp, int d)
{
	size_t lo, hi, i;
	problem_arcs_of(cp->p, d, &lo, &hi);
	for (i = lo; i < hi; i++) {
		size_t s = cplan_take_free(cp, cp->p->arcs[i].k, cp->p->arcs[i].s, cp->p->demands[d].w);
		if (s != (size_t)-1)
			return s;
	}
	return (size_t)-1;
}

/* The arc (k, s) among arcs lo .. hi - 1 (one demand's, sorted by class and slot type), or (size_t)-1. */
static size_t arc_find(const struct problem *p, size_t lo, size_t hi, int k, int s)
{
	size_t end = hi;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct arc *a = &p->arcs[mid];
		if (a->k < k || (a->k == k && a->s < s))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < end && p->arcs[lo].k == k && p->arcs[lo].s == s ? lo : (size_t)-1;
}

/* Slots of configuration cf that demand d can use. */
int cplan_fit_count(const struct problem *p, int d, int k, const struct config *cf)
{
	size_t lo, hi, j;
	int n = 0;
	problem_arcs_of(p, d, &lo, &hi);
	for (j = 0; j < cf->nslots; j++)
		if (arc_find(p, lo, hi, k, cf->slot[j]) != (size_t)-1)
			n += cf->count[j];
	return n;
}

double cplan_arc_cost(const struct problem *p, int d, int k, int s)
{
	size_t lo, hi, i;
	problem_arcs_of(p, d, &lo, &hi);
	i = arc_find(p, lo, hi, k, s);
	return i != (size_t)-1 ? p->arcs[i].cost : 0;
}

/* ================= node load ================= */

/* Share of a node of class c that w takes: its larger share of CPU and RAM. */
double cplan_load_share(const struct node_class *nc, const struct workload *w)
{
	double c = nc->cpu_cores > 0 ? w->cpu_cores / nc->cpu_cores : 0;
	double r = nc->ram_gib > 0 ? w->ram_gib / nc->ram_gib : 0;
	return c > r ? c : r;
}

/*
 * How much of the fuller of its CPU and RAM a node keeps free once w is
 * on it, as a share of the node (1 when w asks neither).
 */
double cplan_headroom(const struct cplan *cp, const struct cnode *n, const struct workload *w)
{
	const struct node_class *nc = cp->p->classes[n->k].nc;
	double h = 1;

	if (w->cpu_cores > 0 && nc->cpu_cores > 0)
		h = fmin(h, (nc->cpu_cores - n->cpu_used - w->cpu_cores) / nc->cpu_cores);
	if (w->ram_gib > 0 && nc->ram_gib > 0)
		h = fmin(h, (nc->ram_gib - n->ram_used - w->ram_gib) / nc->ram_gib);
	return h;
}

int cplan_cand_order(const void *a, const void *b)
{
	const struct cplan_cand *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/*
 * The spread and availability caps (problem_dom_cap): each capped
 * demand's replicas per node and per site, kept as slots fill and empty,
 * and the test every placement path makes through cplan_node_has_room.
 * The counts sit in two flat arrays, [node * ncapped + cap] and
 * [site * ncapped + cap]: only demands with a rule have a column, so a
 * plan without rules carries nothing.
 */
void cplan_caps_init(struct cplan *cp)
{
	const struct problem *p = cp->p;

	cp->capn = NULL;
	cp->capncap = 0;
	cp->caps = xcalloc(p->nsites * p->ncapped + 1, sizeof(*cp->caps));
}

void cplan_caps_grow(struct cplan *cp, size_t nnodes)
{
	size_t need = nnodes * cp->p->ncapped, old = cp->capncap;

	if (need <= old)
		return;
	XGROW(cp->capn, cp->capncap, need);
	memset(cp->capn + old, 0, (cp->capncap - old) * sizeof(*cp->capn));
}

void cplan_caps_count(struct cplan *cp, int d, int node, long delta)
{
	const struct problem *p = cp->p;
	int c = p->demands[d].cap;

	if (c < 0)
		return;
	cplan_caps_grow(cp, (size_t)node + 1);
	cp->capn[(size_t)node * p->ncapped + (size_t)c] += delta;
	cp->caps[(size_t)p->class_site[cp->nodes[node].k] * p->ncapped + (size_t)c] += delta;
}

long cplan_caps_node(const struct cplan *cp, int d, int node)
{
	const struct problem *p = cp->p;
	size_t i = (size_t)node * p->ncapped + (size_t)p->demands[d].cap;

	return p->demands[d].cap < 0 || i >= cp->capncap ? 0 : cp->capn[i];
}

long cplan_caps_site(const struct cplan *cp, int d, int site)
{
	const struct problem *p = cp->p;

	return p->demands[d].cap < 0 ? 0 : cp->caps[(size_t)site * p->ncapped + (size_t)p->demands[d].cap];
}

int cplan_caps_allow(const struct cplan *cp, int d, int node)
{
	const struct problem *p = cp->p;
	int avail = !cp->no_avail_caps;

	if (p->demands[d].cap < 0)
		return 1;
	return cplan_caps_node(cp, d, node) < problem_dom_cap(p, d, SPREAD_NODE, avail) &&
	       cplan_caps_site(cp, d, p->class_site[cp->nodes[node].k]) < problem_dom_cap(p, d, SPREAD_SITE, avail);
}

int cplan_caps_class(const struct cplan *cp, int d, int k)
{
	const struct problem *p = cp->p;

	if (p->demands[d].cap < 0)
		return 1;
	return problem_dom_cap(p, d, SPREAD_NODE, !cp->no_avail_caps) > 0 &&
	       cplan_caps_site(cp, d, p->class_site[k]) < problem_dom_cap(p, d, SPREAD_SITE, !cp->no_avail_caps);
}

int cplan_demand_of(const struct cplan *cp, const struct workload *w)
{
	const struct problem *p = cp->p;
	size_t i = (size_t)(w - p->sc->workloads.w);

	return i < p->ndemands && p->demands[i].w == w ? (int)i : -1;
}

int cplan_caps_bind(const struct cplan *cp, int d)
{
	const struct problem *p = cp->p;
	int avail = !cp->no_avail_caps;
	long nc, sc;
	size_t i;

	if (p->demands[d].cap < 0)
		return 0;
	nc = problem_dom_cap(p, d, SPREAD_NODE, avail);
	sc = problem_dom_cap(p, d, SPREAD_SITE, avail);
	if (nc <= 0 || sc <= 0)
		return 1;
	for (i = 0; i < cp->nnodes && nc < PROBLEM_NO_CAP; i++)
		if (cplan_caps_node(cp, d, (int)i) >= nc)
			return 1;
	for (i = 0; i < p->nsites && sc < PROBLEM_NO_CAP; i++)
		if (cplan_caps_site(cp, d, (int)i) >= sc)
			return 1;
	return 0;
}
