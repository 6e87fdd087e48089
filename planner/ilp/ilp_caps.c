/*
 * ilp_caps.c - the rows of the workloads' spread and availability caps
 * (problem_dom_cap; docs/formulation.md, "Spread and availability").
 *
 * The model counts nodes per class, not nodes, so a cap per node becomes
 * a cap per class: the replicas of d in class k are at most cap x the
 * nodes of class k in use (NODES_k), which every plan keeping the cap
 * meets and which a deal that gives each node at most cap of them turns
 * into nodes.  A cap per site is a row over the classes of that site.
 * The deal (cplan) keeps both exactly on the real nodes; what it cannot
 * deal goes the way of any replica the counts leave without a slot.
 */
#include <stdio.h>

#include "ilp_model.h"
#include "banned.h"

/* True when configuration cf offers a slot of one of the arcs p->arcs[a .. b) (one demand, one class). */
static int offers(const struct problem *p, const struct config *cf, size_t a, size_t b)
{
	size_t i, j;

	for (j = 0; j < cf->nslots; j++)
		for (i = a; i < b; i++)
			if (cf->slot[j] == p->arcs[i].s)
				return 1;
	return 0;
}

/*
 * The node cap rows of d, per class k with an arc of d in the model: its
 * replicas there are at most cap x NODES_k, and at most cap x the GPUs
 * (node patterns: nodes) in configurations that offer d a slot, since
 * every node holding d has one such GPU of its own.
 */
static void node_rows(const struct ilp_rows *rw, int d, long cap)
{
	const struct problem *p = rw->p;
	const struct cols *cl = rw->cl;
	size_t lo, hi, a, b, i, ci;
	char name[64];

	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a = b) {
		int k = p->arcs[a].k, any = 0, row;
		const struct pclass *c = &p->classes[k];
		for (b = a; b < hi && p->arcs[b].k == k; b++)
			any |= cl->arc[b] != 0;
		if (!any || !cl->agg[2 * (size_t)k])
			continue;
		for (row = 0; row < 2; row++) {
			for (i = a; i < b; i++)
				ilp_rb_add(rw->rb, cl->arc[i], 1);
			if (!row)
				ilp_rb_add(rw->rb, cl->agg[2 * (size_t)k], -(double)cap);
			for (ci = 0; row && ci < c->nconfigs; ci++)
				if (offers(p, &c->configs[ci], a, b))
					ilp_rb_add(rw->rb, cl->g[k][ci], -(double)cap);
			snprintf(name, sizeof(name), row ? "capgpu_%d_%d" : "capnode_%d_%d", d, k);
			ilp_add_row(rw->P, rw->rb, name, GLP_UP, 0, 0);
		}
	}
}

/* The site cap rows of d: per site, its replicas on the classes there that the model has <= cap. */
static void site_rows(const struct ilp_rows *rw, int d, long cap)
{
	const struct problem *p = rw->p;
	const struct cols *cl = rw->cl;
	size_t lo, hi, a, site;
	char name[64];

	problem_arcs_of(p, d, &lo, &hi);
	for (site = 0; site < p->nsites; site++) {
		int any = 0;
		for (a = lo; a < hi; a++)
			if (cl->arc[a] && p->class_site[p->arcs[a].k] == (int)site) {
				ilp_rb_add(rw->rb, cl->arc[a], 1);
				any = 1;
			}
		if (!any)
			continue;
		snprintf(name, sizeof(name), "capsite_%d_%zu", d, site);
		ilp_add_row(rw->P, rw->rb, name, GLP_UP, 0, (double)cap);
	}
}

void ilp_cap_rows(const struct ilp_rows *rw)
{
	const struct problem *p = rw->p;
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		long nc, sc;
		if (p->demands[i].cap < 0)
			continue;
		nc = problem_dom_cap(p, (int)i, SPREAD_NODE, 1);
		sc = problem_dom_cap(p, (int)i, SPREAD_SITE, 1);
		if (nc < PROBLEM_NO_CAP)
			node_rows(rw, (int)i, nc);
		if (sc < PROBLEM_NO_CAP)
			site_rows(rw, (int)i, sc);
	}
}
