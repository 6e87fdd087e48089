/*
 * cplan_complete.c - what a plan leaves unplaced, placed by the greedy
 * pass's engine on top of it (cplan.h, cplan_complete).
 *
 * The deal of ILP counts (cplan_deal.c) places what the counts' slots
 * leave over on the nodes they opened and then on new nodes, but every
 * node the counts opened stays opened, empty or not: a completed rounding
 * rounds a class's node counts up within its nodes and its GPU
 * configurations down, so a class can have every node open, some holding
 * nothing in a mode a replica left over cannot use, and GPUs configured
 * for replicas that went elsewhere.  Such a replica then finds no slot,
 * no GPU and no node, and the plan loses to the greedy one by the
 * priority rule, however much cheaper it is otherwise.
 *
 * The completion builds the plan again with only what holds a replica:
 * every node with one, in its mode (a node pattern laid again) and under
 * its name, every GPU with one in its configuration, each replica in the
 * slot of the same GPU, slot type and MIG start (the same configuration
 * makes the same slots), in demand and replica order so that replicas keep
 * their numbers; nodes and GPUs that hold nothing are given back.  Then
 * what is unplaced is placed as the greedy pass places it
 * (cplan_place_more: a free slot, a GPU of an open node, a new node) and,
 * while some still is, in a second build highest priority first by
 * isolation tiers (cplan_place_more_tiered), the better of the two kept.
 * Deterministic: no clock is polled (the caller decides whether the time
 * is there: about one greedy pass and one check).
 */
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "cplan_greedy.h"
#include "diag.h"
#include "util.h"
#include "verify.h"
#include "banned.h"

/* A replica carried over: its demand, its number, its slot in the new plan. */
struct carried {
	int d;
	long replica;
	size_t slot;
};

static int carried_order(const void *a, const void *b)
{
	const struct carried *x = a, *y = b;

	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->replica > y->replica) - (x->replica < y->replica);
}

/* The carried replicas and what they are collected in. */
struct carry {
	struct carried *v;
	size_t n, cap;
	unsigned char *claimed;	/* per slot of the new plan: a replica is bound for it */
	size_t claimcap;
};

/*
 * Node `ni` of src (its slots by[first[ni]] .. by[first[ni + 1] - 1],
 * cplan_slots_by_node) opened again in dst with its GPUs that hold a
 * replica; each of its replicas bound for the free
 * slot of dst on the same GPU with the same type and MIG start (in c).
 * -1 when one finds none (a layout the same configurations did not make
 * again): the build is then given up.
 */
static int carry_node(struct cplan *dst, const struct cplan *src, size_t ni, const size_t *first, const uint32_t *by,
		      struct carry *c)
{
	const struct cnode *on = &src->nodes[ni];
	size_t from = dst->nslots, i, j;	/* the node's slots are those made from here */
	int node = cplan_open_node(dst, on->k, on->mode, on->pattern), g;

	dst->nodes[node].ordinal = on->ordinal;
	if (on->pattern < 0)	/* a pattern laid its slots when the node opened */
		for (g = 0; g < dst->p->classes[on->k].nc->gpus_per_node; g++)
			if (on->gpu_used[g] > 0 && on->gpu_config[g] >= 0)
				cplan_configure_gpu(dst, node, g, on->gpu_config[g]);
	XGROW(c->claimed, c->claimcap, dst->nslots + 1);
	memset(c->claimed + from, 0, dst->nslots - from);
	for (i = first[ni]; i < first[ni + 1]; i++) {
		const struct cslot *os = &src->slots[by[i]];
		if (os->d < 0)
			continue;
		for (j = from; j < dst->nslots; j++) {
			const struct cslot *ns = &dst->slots[j];
			if (!c->claimed[j] && ns->gpu == os->gpu && ns->ngpus == os->ngpus && ns->type == os->type &&
			    ns->mig_start == os->mig_start)
				break;
		}
		if (j == dst->nslots)
			return -1;
		c->claimed[j] = 1;
		XGROW(c->v, c->cap, c->n + 1);
		c->v[c->n].d = os->d;
		c->v[c->n].replica = os->replica;
		c->v[c->n++].slot = j;
	}
	return 0;
}

/*
 * New nodes (from index `kept` on) take the lowest ordinals (names) their
 * class has free: the nodes carried over kept theirs, and a class's count
 * of opened nodes no longer says which are taken.
 */
static void name_new_nodes(struct cplan *cp, size_t kept)
{
	const struct problem *p = cp->p;
	size_t k, i;

	for (k = 0; k < p->nclasses; k++) {
		size_t cnt = (size_t)p->classes[k].nc->count, next = 0;
		unsigned char *used;
		for (i = kept; i < cp->nnodes && (size_t)cp->nodes[i].k != k; i++)
			;
		if (i == cp->nnodes)
			continue;
		used = xcalloc(cnt + 1, 1);
		for (i = 0; i < kept; i++)
			if ((size_t)cp->nodes[i].k == k && (size_t)cp->nodes[i].ordinal < cnt)
				used[cp->nodes[i].ordinal] = 1;
		for (i = kept; i < cp->nnodes; i++) {
			if ((size_t)cp->nodes[i].k != k)
				continue;
			while (next < cnt && used[next])
				next++;
			cp->nodes[i].ordinal = (int)next;
			used[next < cnt ? next : cnt] = 1;
		}
		free(used);
	}
}

/*
 * src built again into dst (not initialised; cplan_release frees it)
 * with only its nodes and GPUs that hold a replica, every replica where
 * it was, then what src leaves unplaced placed by the greedy engine
 * (tiered: cplan_place_more_tiered, else cplan_place_more).  -1 (dst
 * released) when a replica found its slot no more, or a signal cut the
 * placing short.
 */
static int complete_into(struct cplan *dst, const struct cplan *src, int tiered)
{
	const struct problem *p = src->p;
	struct carry c;
	size_t *first, i, kept;
	uint32_t *by;
	long *add;
	int rc = 0;

	memset(&c, 0, sizeof(c));
	cplan_init(dst, p);
	dst->no_avail_caps = src->no_avail_caps;
	cplan_slots_by_node(src, &first, &by);
	for (i = 0; i < src->nnodes && rc == 0; i++) {
		size_t j;
		for (j = first[i]; j < first[i + 1] && src->slots[by[j]].d < 0; j++)
			;
		if (j < first[i + 1])	/* it holds a replica */
			rc = carry_node(dst, src, i, first, by, &c);
	}
	free(first);
	free(by);
	free(c.claimed);
	if (rc) {
		free(c.v);
		cplan_release(dst);
		return -1;
	}
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), carried_order);
	for (i = 0; i < c.n; i++)
		cplan_place_at(dst, c.v[i].slot, c.v[i].d);
	free(c.v);
	kept = dst->nnodes;
	add = xcalloc(p->ndemands + 1, sizeof(*add));
	for (i = 0; i < p->ndemands; i++)
		add[i] = p->demands[i].replicas - dst->placed[i];
	if (tiered)
		cplan_place_more_tiered(dst, add);
	else
		cplan_place_more(dst, add);
	free(add);
	if (dst->stopped) {	/* a signal came: the run ends on it, this plan is not written */
		cplan_release(dst);
		return -1;
	}
	name_new_nodes(dst, kept);
	return 0;
}

/* Some replica of cp is unplaced that a slot could take (its demand is not unhostable). */
static int has_hostable_unplaced(const struct cplan *cp)
{
	size_t i;

	for (i = 0; i < cp->p->ndemands; i++)
		if (cp->unplaced[i] > 0 && !cp->p->demands[i].unhostable)
			return 1;
	return 0;
}

/* Whether a is better than b (cplan_better, each costed here). */
static int better(const struct cplan *a, const struct cplan *b)
{
	struct cplan_cost ca, cb;

	cplan_cost(a, &ca);
	cplan_cost(b, &cb);
	return cplan_better(a, &ca, b, &cb);
}

int cplan_complete(struct cplan *cp)
{
	struct cplan best, alt;
	struct diag d = DIAG_INIT;
	int ok;

	if (!has_hostable_unplaced(cp) || complete_into(&best, cp, 0))
		return 0;
	if (cplan_unplaced_count(&best) && !complete_into(&alt, cp, 1)) {
		if (better(&alt, &best)) {
			cplan_release(&best);
			best = alt;
		} else {
			cplan_release(&alt);
		}
	}
	/* checked too: the plan written is verified again, and must pass */
	ok = better(&best, cp) && verify_plan(&best, &d) == 0;
	diag_release(&d);
	if (!ok) {
		cplan_release(&best);
		return 0;
	}
	cplan_release(cp);
	*cp = best;
	return 1;
}
