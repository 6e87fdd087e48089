/*
 * ilp_shrink.c - CPU and RAM taken off each node of a (class, mode)
 * (struct shrink): what dealing a rounded plan, or a class MIP's plan,
 * over real nodes could not use there (the model's CPU and RAM rows sum
 * over a mode's nodes, the deal is per node).  Taken off in the rounding's
 * copy of the model and in the class MIPs only; the LP bound never sees it.
 */
#include <math.h>
#include <stdlib.h>

#include "util.h"
#include "ilp_glpk.h"
#include "ilp_shrink.h"
#include "banned.h"

void ilp_shrink_alloc(struct shrink *sh, size_t ng)
{
	sh->cpu = xcalloc(ng + 1, sizeof(*sh->cpu));
	sh->ram = xcalloc(ng + 1, sizeof(*sh->ram));
}

void ilp_shrink_free(struct shrink *sh)
{
	free(sh->cpu);
	free(sh->ram);
}

int ilp_shrink_take(const struct node_class *nc, const struct cols *cl, struct shrink *sh, size_t g,
		    const struct shrink_loss *l)
{
	double nodes = l->nodes, lcpu = l->cpu, lram = l->ram;
	int took = 0;

	if (nodes < 0.5)
		return 0;
	if (lcpu > 1e-6 && cl->cpu_row[g] && sh->cpu[g] < nc->cpu_cores / 2) {
		sh->cpu[g] = fmin(sh->cpu[g] + lcpu / nodes, nc->cpu_cores / 2);
		took |= 1;
	}
	if (lram > 1e-6 && cl->ram_row[g] && sh->ram[g] < nc->ram_gib / 2) {
		sh->ram[g] = fmin(sh->ram[g] + lram / nodes, nc->ram_gib / 2);
		took |= 2;
	}
	return took;
}

void ilp_shrink_set(glp_prob *Q, const struct cols *cl, const struct node_class *nc, const struct shrink *sh,
		    size_t g, int what)
{
	if (what & 1)
		ilp_set_coef(Q, cl->cpu_row[g], cl->n[g], -(nc->cpu_cores - sh->cpu[g]));
	if (what & 2)
		ilp_set_coef(Q, cl->ram_row[g], cl->n[g], -(nc->ram_gib - sh->ram[g]));
}

void ilp_shrink_rows(glp_prob *Q, const struct problem *p, const struct cols *cl, const struct shrink *sh)
{
	size_t g;
	for (g = 0; g < p->nclasses * MODE_COUNT; g++) {
		const struct node_class *nc = p->classes[g / MODE_COUNT].nc;
		int what = (cl->cpu_row[g] && sh->cpu[g] > 0 ? 1 : 0) | (cl->ram_row[g] && sh->ram[g] > 0 ? 2 : 0);
		ilp_shrink_set(Q, cl, nc, sh, g, what);
	}
}

int ilp_shrink_add(const struct problem *p, const struct cols *cl, const double *x, const double *fixed,
		   struct shrink *sh)
{
	size_t ng = p->nclasses * MODE_COUNT, i, g;
	double *lc = xcalloc(ng + 1, sizeof(*lc)), *lr = xcalloc(ng + 1, sizeof(*lr));
	int more = 0;

	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		const struct workload *w = p->demands[a->d].w;
		double diff = x[cl->arc[i]] - fixed[cl->arc[i]];
		g = (size_t)a->k * MODE_COUNT + p->classes[a->k].slot_types[a->s].mode;
		lc[g] += diff * w->cpu_cores;
		lr[g] += diff * w->ram_gib;
	}
	for (g = 0; g < ng; g++) {
		struct shrink_loss l;
		l.nodes = cl->n[g] ? x[cl->n[g]] : 0;
		l.cpu = lc[g];
		l.ram = lr[g];
		if (ilp_shrink_take(p->classes[g / MODE_COUNT].nc, cl, sh, g, &l))
			more = 1;
	}
	free(lc);
	free(lr);
	return more;
}
