/*
 * step.c - one step of the simulator: plan a step's demand starting from
 * the previous step's plan, keeping the replicas that still run where
 * they are (see simulate.h for the model).
 *
 * Each step's plan is a fresh cplan rebuilt from the previous one: the
 * nodes that keep a replica are reopened in their mode (passthrough: the
 * same pattern), the GPUs that keep one are given their configuration
 * again, which recreates their slots in the same order, and every kept
 * replica goes back into the slot of the same rank on the same GPU.
 * Replicas are put back in (workload, replica number) order, so numbers
 * stay 0..kept-1 and the next step again drops the highest (the newest).
 * Kept nodes keep their ordinal (name); new nodes get the lowest free one.
 */
#include <stdlib.h>
#include <string.h>

#include "step.h"
#include "util.h"
#include "banned.h"

static int kept_order(const void *a, const void *b)
{
	const struct sim_kept *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->replica > y->replica) - (x->replica < y->replica);
}

void sim_stepper_init(struct sim_stepper *st, size_t ndemands)
{
	st->keep = xcalloc(ndemands + 1, sizeof(*st->keep));
	st->add = xcalloc(ndemands + 1, sizeof(*st->add));
}

void sim_stepper_release(struct sim_stepper *st)
{
	free(st->by_node);
	free(st->node_first);
	free(st->kept);
	free(st->keep);
	free(st->add);
	free(st->used_ord);
	memset(st, 0, sizeof(*st));
}

/* Whether slot s of prev holds a replica that stays. */
static int stays(const struct cplan *prev, const struct sim_stepper *st, size_t s)
{
	const struct cslot *sl = &prev->slots[s];
	return sl->d >= 0 && sl->replica < st->keep[sl->d];
}

/* Rebuilds node ni of prev in cur with its staying replicas (collected in st->kept). */
static void keep_node(struct cplan *cur, const struct cplan *prev, struct sim_stepper *st, size_t ni)
{
	const struct cnode *on = &prev->nodes[ni];
	int g, ng = cur->p->classes[on->k].nc->gpus_per_node, node;
	size_t a = st->node_first[ni], b = st->node_first[ni + 1], i, first_new;
	size_t *newpos, *off, *cnt;

	first_new = cur->nslots;
	node = cplan_open_node(cur, on->k, on->mode, on->pattern);
	cur->nodes[node].ordinal = on->ordinal;
	if (on->mode != MODE_PASSTHROUGH && on->pattern < 0) {	/* a pattern made its slots */
		for (g = 0; g < ng; g++) {
			int any = 0;
			for (i = a; i < b && !any; i++)
				any = prev->slots[st->by_node[i]].gpu == g && stays(prev, st, st->by_node[i]);
			if (any)
				cplan_configure_gpu(cur, node, g, on->gpu_config[g]);
		}
	}
	/* the new slots of this node, grouped by GPU in creation order */
	off = xcalloc((size_t)ng + 1, sizeof(*off));
	cnt = xcalloc((size_t)ng + 1, sizeof(*cnt));
	newpos = xmalloc((cur->nslots - first_new + 1) * sizeof(*newpos));
	for (i = first_new; i < cur->nslots; i++)
		off[cur->slots[i].gpu + 1]++;
	for (g = 0; g < ng; g++)
		off[g + 1] += off[g];
	for (i = first_new; i < cur->nslots; i++) {
		int sg = cur->slots[i].gpu;
		newpos[off[sg] + cnt[sg]++] = i;
	}
	memset(cnt, 0, ((size_t)ng + 1) * sizeof(*cnt));
	for (i = a; i < b; i++) {
		size_t s = st->by_node[i], j, t;
		const struct cslot *os = &prev->slots[s];
		int sg = os->gpu;
		int configured = on->mode == MODE_PASSTHROUGH || cur->nodes[node].gpu_config[sg] >= 0;
		if (!configured)
			continue;
		j = cnt[sg]++;
		if (!stays(prev, st, s) || off[sg] + j >= off[sg + 1])
			continue;
		t = newpos[off[sg] + j];
		if (cur->slots[t].type != os->type || cur->slots[t].mig_start != os->mig_start)
			continue; /* cannot happen: the same configuration makes the same slots */
		XGROW(st->kept, st->cap_kept, st->nkept + 1);
		st->kept[st->nkept].d = os->d;
		st->kept[st->nkept].replica = os->replica;
		st->kept[st->nkept].slot = t;
		st->nkept++;
	}
	free(off);
	free(cnt);
	free(newpos);
}

long sim_step_plan(struct cplan *cur, const struct cplan *prev, struct sim_stepper *st, const long *target)
{
	const struct problem *p = cur->p;
	size_t i, k, nkeepnodes = 0;
	long opens = 0;

	/* group prev's slots by node (counting sort keeps creation order) */
	XGROW(st->by_node, st->cap_slots, prev->nslots + 1);
	XGROW(st->node_first, st->cap_nodes, prev->nnodes + 2);
	memset(st->node_first, 0, (prev->nnodes + 2) * sizeof(*st->node_first));
	for (i = 0; i < prev->nslots; i++)
		st->node_first[prev->slots[i].node + 2]++;
	for (i = 0; i < prev->nnodes; i++)
		st->node_first[i + 2] += st->node_first[i + 1];
	for (i = 0; i < prev->nslots; i++)
		st->by_node[st->node_first[prev->slots[i].node + 1]++] = i;
	for (i = 0; i < p->ndemands; i++) {
		st->keep[i] = target[i] < prev->placed[i] ? target[i] : prev->placed[i];
		st->add[i] = target[i] - st->keep[i];
	}
	st->nkept = 0;
	for (i = 0; i < prev->nnodes; i++) {
		size_t j;
		int any = 0;
		for (j = st->node_first[i]; j < st->node_first[i + 1] && !any; j++)
			any = stays(prev, st, st->by_node[j]);
		if (any) {
			keep_node(cur, prev, st, i);
			nkeepnodes++;
		}
	}
	if (st->nkept)
		qsort(st->kept, st->nkept, sizeof(*st->kept), kept_order);
	for (i = 0; i < st->nkept; i++)
		cplan_place_at(cur, st->kept[i].slot, st->kept[i].d);
	cplan_place_more(cur, st->add);

	/* new nodes take the lowest ordinals their class has free */
	for (k = 0; k < p->nclasses; k++) {
		size_t cnt = (size_t)p->classes[k].nc->count, next = 0;
		XGROW(st->used_ord, st->cap_ord, cnt + 1);
		memset(st->used_ord, 0, cnt + 1);
		for (i = 0; i < nkeepnodes; i++)
			if ((size_t)cur->nodes[i].k == k && (size_t)cur->nodes[i].ordinal < cnt)
				st->used_ord[cur->nodes[i].ordinal] = 1;
		for (i = nkeepnodes; i < cur->nnodes; i++) {
			if ((size_t)cur->nodes[i].k != k)
				continue;
			while (next < cnt && st->used_ord[next])
				next++;
			cur->nodes[i].ordinal = (int)next;
			st->used_ord[next < cnt ? next : cnt] = 1;
			opens++;
		}
	}
	return opens;
}
