/*
 * chargeback.c - what each tenant of a plan costs (tenants.csv): a
 * node's own costs are spread evenly over its GPUs; each GPU's cost (that
 * share, its energy, a per-GPU licence) goes to the tenants holding its
 * slots by their guaranteed share of the GPU, the rest to "(idle)"; a
 * vGPU seat goes to the tenant holding it.
 */
#include <stdlib.h>
#include <string.h>

#include "chargeback.h"
#include "util.h"
#include "banned.h"

/* qsort/bsearch order of string pointers: byte order. */
static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of the tenant of slot s in cb->names. */
static size_t slot_tenant(const struct chargeback *cb, const struct cslot *s)
{
	const char *key = cb->r->final->p->demands[s->d].w->tenant;
	const char **hit = bsearch(&key, cb->names, cb->nt, sizeof(*cb->names), str_ptr_cmp);
	return (size_t)(hit - cb->names);
}

/* The tenants, each once, and the share of each GPU the slots hold. */
static void chargeback_init(struct chargeback *cb, const struct plan_result *r)
{
	const struct cplan *cp = r->final;
	const struct problem *p = cp->p;
	size_t i, t;

	memset(cb, 0, sizeof(*cb));
	cb->r = r;
	cb->names = xcalloc(p->ndemands + 1, sizeof(*cb->names));
	cb->used = xcalloc(cp->nnodes + 1, sizeof(*cb->used));
	for (i = 0; i < p->ndemands; i++)
		cb->names[cb->nt++] = p->demands[i].w->tenant;
	qsort(cb->names, cb->nt, sizeof(*cb->names), str_ptr_cmp);
	for (i = t = 0; i < cb->nt; i++)
		if (!t || strcmp(cb->names[t - 1], cb->names[i]))
			cb->names[t++] = cb->names[i];
	cb->nt = t; /* tenants, then "(idle)" at index nt */
	cb->cost = xcalloc(cb->nt + 1, sizeof(*cb->cost));
	cb->share = xcalloc(cb->nt + 1, sizeof(*cb->share));
	cb->replicas = xcalloc(cb->nt + 1, sizeof(*cb->replicas));
	for (i = 0; i < cp->nnodes; i++)
		cb->used[i] = xcalloc((size_t)p->classes[cp->nodes[i].k].nc->gpus_per_node, sizeof(**cb->used));
	/* per-GPU cost of each node, then the slots take their shares */
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const struct cnode *n = &cp->nodes[s->node];
		const struct slot_type *st = &p->classes[n->k].slot_types[s->type];
		double w = st->mode == MODE_PASSTHROUGH ? 1.0 : st->compute;
		int g;
		if (s->d < 0)
			continue;
		t = slot_tenant(cb, s);
		cb->replicas[t]++;
		for (g = s->gpu; g < s->gpu + s->ngpus; g++) {
			cb->used[s->node][g] += w;
			cb->share[t] += w;
		}
	}
}

/* Each GPU's cost: the idle part to "(idle)", the used part turned into a cost per unit of share. */
static void chargeback_gpus(struct chargeback *cb)
{
	const struct plan_result *r = cb->r;
	const struct cplan *cp = r->final;
	size_t i;

	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct class_price *pc = r->pr.cls[n->k];
		int gp = cp->p->classes[n->k].nc->gpus_per_node, g, c;
		double node_part = 0;
		for (c = 0; c < CAT_COUNT; c++)
		{
			int y;
			for (y = 0; y < r->pr.nyears; y++)
				node_part += pc->node_year[c][y];
		}
		node_part /= gp;
		for (g = 0; g < gp; g++) {
			enum lic_product lp;
			long gpus, seats;
			double gc = node_part, free_w;
			int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
			if (on)
				gc += pc->gpu_active_total;
			cplan_gpu_licence(cp, i, g, &lp, &gpus, &seats);
			if (lp != LIC_NONE)
				gc += (double)gpus * pc->lic[lp].total;
			free_w = cb->used[i][g] > 1 ? 0 : 1 - cb->used[i][g];
			cb->cost[cb->nt] += gc * free_w;
			cb->share[cb->nt] += free_w;
			cb->total += gc;
			if (cb->used[i][g] <= 0)
				continue;
			/* the used share goes to the slots' tenants, below */
			cb->used[i][g] = gc * (1 - free_w) / cb->used[i][g]; /* now: cost per unit of share */
		}
	}
}

/* The slots' tenants take their share of each GPU's cost, and a vGPU seat each. */
static void chargeback_slots(struct chargeback *cb)
{
	const struct plan_result *r = cb->r;
	const struct cplan *cp = r->final;
	const struct problem *p = cp->p;
	size_t i, t;

	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const struct cnode *n = &cp->nodes[s->node];
		const struct slot_type *st = &p->classes[n->k].slot_types[s->type];
		const struct class_price *pc = r->pr.cls[n->k];
		double w = st->mode == MODE_PASSTHROUGH ? 1.0 : st->compute;
		int g;
		if (s->d < 0)
			continue;
		t = slot_tenant(cb, s);
		for (g = s->gpu; g < s->gpu + s->ngpus; g++)
			cb->cost[t] += w * cb->used[s->node][g];
		if (p->pr->counting == COUNT_VGPU_SEAT && (st->mode == MODE_VGPU || st->mode == MODE_MIG_VGPU) &&
		    st->lic != LIC_NONE) {
			cb->cost[t] += pc->lic[st->lic].total;
			cb->total += pc->lic[st->lic].total;
		}
	}
}

void report_chargeback_release(struct chargeback *cb)
{
	size_t i;
	for (i = 0; i < cb->r->final->nnodes; i++)
		free(cb->used[i]);
	free(cb->used);
	free(cb->cost);
	free(cb->share);
	free(cb->replicas);
	free(cb->names);
}

void report_chargeback(struct chargeback *cb, const struct plan_result *r)
{
	chargeback_init(cb, r);
	chargeback_gpus(cb);
	chargeback_slots(cb);
}
