/*
 * cplan_bill.c - what a concrete plan costs: each GPU's licence, each
 * node's bill, and the plan's total by category and year with the
 * objective the ILP minimises (tie-break and penalties).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "util.h"
#include "banned.h"

/* True where a licence server leases one seat per vGPU. */
static int counts_seats(const struct problem *p, enum gpu_mode m)
{
	return p->pr->counting == COUNT_VGPU_SEAT && (m == MODE_VGPU || m == MODE_MIG_VGPU);
}

/* True when GPU g is the first of a multi-vGPU VM of node pattern cf (VMs largest first, as opened). */
static int vm_first_gpu(const struct pclass *c, const struct config *cf, int g)
{
	size_t j;
	int next = 0, r;

	for (j = 0; j < cf->nreal; j++)
		for (r = 0; r < cf->real_count[j]; r++) {
			if (next == g)
				return 1;
			next += c->slot_types[cf->real_slot[j]].gpus;
		}
	return 0;
}

void cplan_gpu_licence(const struct cplan *cp, size_t node, int g, enum lic_product *product, long *gpus,
		       long *seats)
{
	const struct problem *p = cp->p;
	const struct cnode *n = &cp->nodes[node];
	const struct class_price *pc = p->pr->cls[n->k];

	*product = LIC_NONE;
	*gpus = *seats = 0;
	if (n->mode == MODE_PASSTHROUGH) {
		/* a passthrough GPU is licensed as its replica needs */
		if (n->gpu_used[g] > 0)
			*product = n->gpu_nvaie[g] > 0 ? LIC_NVAIE : pc->mode_product[MODE_PASSTHROUGH];
		*gpus = *product != LIC_NONE;
	} else if (n->gpu_config[g] >= 0) {
		*product = p->classes[n->k].configs[n->gpu_config[g]].lic;
		if (*product == LIC_NONE)
			return;
		if (counts_seats(p, n->mode) && n->pattern >= 0) /* one seat per multi-vGPU VM */
			*seats = vm_first_gpu(&p->classes[n->k], &p->classes[n->k].configs[n->pattern], g)
					 ? n->gpu_used[g] : 0;
		else if (counts_seats(p, n->mode))
			*seats = n->gpu_used[g];
		else
			*gpus = 1;
	}
}

void cplan_node_bill(const struct cplan *cp, size_t node, struct node_bill *b)
{
	const struct problem *p = cp->p;
	const struct cnode *n = &cp->nodes[node];
	const struct pclass *c = &p->classes[n->k];
	const struct class_price *pc = p->pr->cls[n->k];
	int g, cat;

	memset(b, 0, sizeof(*b));
	for (cat = 0; cat < CAT_COUNT; cat++)
		for (g = 0; g < p->pr->nyears; g++)
			b->cat[cat] += pc->node_year[cat][g];
	for (g = 0; g < c->nc->gpus_per_node; g++) {
		enum lic_product lp;
		long gpus, seats;
		int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
		if (!on)
			continue;
		b->active++;
		b->cat[CAT_ENERGY] += pc->gpu_active_total;
		cplan_gpu_licence(cp, node, g, &lp, &gpus, &seats);
		if (lp == LIC_NONE)
			continue;
		b->lic_gpus[lp] += gpus;
		b->seats[lp] += seats;
		b->gpus_licensed += gpus + seats > 0;
		b->cat[cost_cat_of_product(lp)] += (double)(gpus + seats) * pc->lic[lp].total;
	}
	for (cat = 0; cat < CAT_COUNT; cat++)
		b->total += b->cat[cat];
}

void cplan_cost(const struct cplan *cp, struct cplan_cost *out)
{
	const struct problem *p = cp->p;
	const struct pricing *pr = p->pr;
	size_t i;
	int cat, y, q;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < cp->nnodes; i++) {
		const struct class_price *pc = pr->cls[cp->nodes[i].k];
		struct node_bill b;
		cplan_node_bill(cp, i, &b);
		out->nodes++;
		out->gpus += p->classes[cp->nodes[i].k].nc->gpus_per_node;
		out->gpus_active += b.active;
		out->gpus_licensed += b.gpus_licensed;
		for (cat = 0; cat < CAT_COUNT; cat++)
			for (y = 0; y < pr->nyears; y++)
				out->year[cat][y] += pc->node_year[cat][y];
		for (y = 0; y < pr->nyears; y++)
			out->year[CAT_ENERGY][y] += (double)b.active * pc->gpu_active_year[y];
		for (q = 1; q < LIC_COUNT; q++) {
			out->lic_gpus[q] += b.lic_gpus[q];
			out->seats[q] += b.seats[q];
			for (y = 0; y < pr->nyears; y++)
				out->year[cost_cat_of_product((enum lic_product)q)][y] +=
					(double)(b.lic_gpus[q] + b.seats[q]) * pc->lic[q].year[y];
		}
		out->objective += p->tiebreak * (double)(1 + b.active);
	}
	for (i = 0; i < p->ndemands; i++) {
		out->placed += cp->placed[i];
		out->unplaced += cp->unplaced[i];
		out->objective += p->demands[i].penalty * (double)cp->unplaced[i];
	}
	for (cat = 0; cat < CAT_COUNT; cat++) {
		for (y = 0; y < pr->nyears; y++)
			out->cat[cat] += out->year[cat][y];
		out->total += out->cat[cat];
	}
	out->objective += out->total;
}

/* The priority level of demand i as the rule counts it: 1..CPLAN_PRIO_MAX. */
static int prio_level(const struct problem *p, size_t i)
{
	int pr = p->demands[i].w->priority;

	return pr < 1 ? 1 : pr > CPLAN_PRIO_MAX ? CPLAN_PRIO_MAX : pr;
}

/*
 * The priority rule's verdict from diff[q] (a's weighted unplaced less
 * b's at level q) and tot[q] (their sum): the highest level where they
 * differ decides.  Frees both.
 */
static int prio_verdict(double *diff, double *tot)
{
	int q, r = 0;

	/* weights 1 sum exactly; GPU-equivalent weights up to rounding */
	for (q = CPLAN_PRIO_MAX; q >= 1 && !r; q--)
		r = fabs(diff[q]) <= 1e-9 * tot[q] ? 0 : diff[q] < 0 ? -1 : 1;
	free(diff);
	free(tot);
	return r;
}

/* Demand i's replicas left out by two plans (ua, ub) into the sums prio_verdict weighs. */
static void prio_add(const struct problem *p, size_t i, double ua, double ub, double *diff, double *tot)
{
	double wt = p->demands[i].weight;
	int q = prio_level(p, i);

	diff[q] += wt * (ua - ub);
	tot[q] += wt * (ua + ub);
}

int cplan_prio_cmp(const struct cplan *a, const struct cplan *b)
{
	const struct problem *p = a->p;
	double *diff = xcalloc(CPLAN_PRIO_MAX + 1, sizeof(*diff)), *tot = xcalloc(CPLAN_PRIO_MAX + 1, sizeof(*tot));
	size_t i;

	for (i = 0; i < p->ndemands; i++)
		prio_add(p, i, (double)a->unplaced[i], (double)b->unplaced[i], diff, tot);
	return prio_verdict(diff, tot);
}

int cplan_prio_cmp_unplaced(const struct problem *p, const double *ua, const double *ub)
{
	double *diff = xcalloc(CPLAN_PRIO_MAX + 1, sizeof(*diff)), *tot = xcalloc(CPLAN_PRIO_MAX + 1, sizeof(*tot));
	size_t i;

	for (i = 0; i < p->ndemands; i++)
		prio_add(p, i, ua[i], ub[i], diff, tot);
	return prio_verdict(diff, tot);
}

char *cplan_prio_unplaced(const struct problem *p, const double *unplaced)
{
	double *n = xcalloc(CPLAN_PRIO_MAX + 1, sizeof(*n));
	struct sb sb;
	size_t i;
	int q;

	sb_init(&sb);
	for (i = 0; i < p->ndemands; i++)
		n[prio_level(p, i)] += unplaced[i];
	for (q = CPLAN_PRIO_MAX; q >= 1; q--)
		if (floor(n[q] + 0.5) >= 1)
			sb_addf(&sb, "%s%d:%.0f", sb.len ? "+" : "", q, floor(n[q] + 0.5));
	if (!sb.len)
		sb_adds(&sb, "none");
	free(n);
	return sb_detach(&sb);
}

int cplan_better(const struct cplan *a, const struct cplan_cost *ca, const struct cplan *b,
		 const struct cplan_cost *cb)
{
	int r = cplan_prio_cmp(a, b);
	return r ? r < 0 : ca->objective < cb->objective - 1e-6;
}

unsigned cplan_rule_modes(const struct cplan *cp)
{
	unsigned modes = 0;
	size_t i;
	int g;

	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		for (g = 0; g < cp->p->classes[n->k].nc->gpus_per_node; g++) {
			int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
			if (on && (n->gpu_used[g] == 0 || n->gpu_nvaie[g] < n->gpu_used[g]))
				modes |= MODE_BIT(n->mode);
		}
	}
	return modes;
}
