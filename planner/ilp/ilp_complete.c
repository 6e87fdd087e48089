/*
 * ilp_complete.c - completing a rounding the clock stopped before any
 * ILP plan existed (ilp_round.c, round_lp): the counts of the last LP
 * solved made whole at once, and nodes of their own for the replicas
 * the deal of that plan leaves unplaced.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_complete.h"
#include "ilp_glpk.h"
#include "ilp_vec.h"
#include "banned.h"

/*
 * Class k's node counts in x rounded up within the class's nodes (the
 * largest fractions first) and its GPU configurations' counts down.  The
 * passthrough patterns are whole nodes: they round as node counts do,
 * and the passthrough node count is their sum.  A class rounded already
 * is integral and stays as it is.
 */
static void complete_class(const struct ilp_ctx *c, size_t k, double *x)
{
	const struct cols *cl = &c->cl;
	const struct pclass *pc = &c->p->classes[k];
	size_t ci, n = 0, t, *col = xcalloc(pc->nconfigs + MODE_COUNT, sizeof(*col));
	double total = 0, pt = 0, *fr = xcalloc(pc->nconfigs + MODE_COUNT, sizeof(*fr));
	int m, ptc = cl->n[k * MODE_COUNT + MODE_PASSTHROUGH];

	for (m = 0; m < MODE_COUNT; m++)	/* the node counts: every mode's but passthrough's, whose patterns are */
		if (cl->n[k * MODE_COUNT + (size_t)m] && m != MODE_PASSTHROUGH)
			col[n++] = (size_t)cl->n[k * MODE_COUNT + (size_t)m];
	for (ci = 0; ci < pc->nconfigs; ci++)
		if (pc->configs[ci].mode == MODE_PASSTHROUGH)
			col[n++] = (size_t)cl->g[k][ci];
		else
			x[cl->g[k][ci]] = floor(x[cl->g[k][ci]] + 1e-6);
	for (t = 0; t < n; t++) {
		double v = x[col[t]];
		x[col[t]] = floor(v + 1e-6);
		fr[t] = v - x[col[t]];
		total += x[col[t]];
	}
	for (;;) {	/* one node more where the fraction is the largest, while the class has nodes */
		size_t best = n;
		for (t = 0; t < n; t++)
			if (fr[t] > 1e-6 && (best == n || fr[t] > fr[best]))
				best = t;
		if (best == n || total + 1 > (double)pc->nc->count)
			break;
		x[col[best]] += 1;
		fr[best] = 0;
		total += 1;
	}
	for (ci = 0; ci < pc->nconfigs; ci++)
		if (pc->configs[ci].mode == MODE_PASSTHROUGH)
			pt += x[cl->g[k][ci]];
	if (ptc)
		x[ptc] = pt;
	free(col);
	free(fr);
}

/* (ilp_complete.h) */
void ilp_complete_counts(const struct ilp_ctx *c, double *x, double *obj)
{
	const struct problem *p = c->p;
	struct ilp_result r;
	size_t k;

	for (k = 0; k < p->nclasses; k++)
		if (p->classes[k].modes)
			complete_class(c, k, x);
	ilp_result_alloc(p, &r);
	ilp_take_plan(p, &c->cl, x, &r);
	ilp_counts_vector(p, &c->cl, &r, x);
	ilp_result_release(p, &r);
	*obj = ilp_vec_obj(c->P, x);
	glp_printf("gpuplan-ilp: rounding completed: node counts up, GPU counts down: objective %.2f unplaced %.0f "
		   "(%.2f s left; a greedy pass %.2f s)\n", *obj, ilp_unplaced_sum(p, &c->cl, x),
		   ilp_ms_left(c->deadline) / 1000.0, c->deal_s);
}

/* The GPUs x configures in class k's mode m (a vgpu node pattern: its node's). */
static double mode_gpus(const struct ilp_ctx *c, size_t k, int m, const double *x)
{
	const struct pclass *pc = &c->p->classes[k];
	double g = 0;
	size_t ci;

	for (ci = 0; ci < pc->nconfigs; ci++)
		if ((int)pc->configs[ci].mode == m)
			g += x[c->cl.g[k][ci]] * (pc->configs[ci].node_pattern ? (double)pc->nc->gpus_per_node : 1);
	return g;
}

/* Where one node more for u replicas of demand d goes (room_for). */
struct room {
	size_t a, ci;		/* the arc; the configuration holding its slot */
	int donor;		/* the mode that gives its node up; -1: a node the class has free */
	double units, delta;	/* configurations (GPUs, nodes for patterns) added; the change in cost */
	double drop;		/* the donor's configured GPUs its other nodes cannot hold */
};

/* Whether class k of arc a gives d's u replicas a node (*r filled; r->delta to beat, in). */
static void room_in(const struct ilp_ctx *c, size_t a, double u, const double *x, struct room *r)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	size_t k = (size_t)p->arcs[a].k, ci, j;
	const struct pclass *pc = &p->classes[k];
	int s = p->arcs[a].s, m = (int)pc->slot_types[s].mode, mm, ncol = cl->n[k * MODE_COUNT + (size_t)m];
	long G = pc->nc->gpus_per_node;

	if (!ncol)
		return;
	for (ci = 0; ci < pc->nconfigs; ci++) {
		const struct config *cf = &pc->configs[ci];
		double units, nodes = 0, delta, drop = 0;
		int donor = -2;
		if ((int)cf->mode != m || (cf->node_pattern && m != MODE_PASSTHROUGH))
			continue;
		for (j = 0; j < cf->nslots && cf->slot[j] != s; j++)
			;
		if (j == cf->nslots || cf->count[j] <= 0)
			continue;
		units = ceil(u / cf->count[j]);
		if (cf->node_pattern ? units > 1 : units > (double)G)
			continue;
		for (mm = 0; mm < MODE_COUNT; mm++)
			nodes += cl->n[k * MODE_COUNT + (size_t)mm] ? x[cl->n[k * MODE_COUNT + (size_t)mm]] : 0;
		if (nodes + 1 <= (double)pc->nc->count)
			donor = -1;
		for (mm = 0; mm < MODE_COUNT && donor != -1; mm++) {	/* the mode that loses the fewest GPUs with a node */
			int col = cl->n[k * MODE_COUNT + (size_t)mm];
			double over;
			if (!col || mm == m || x[col] < 1)
				continue;
			over = fmax(0, mode_gpus(c, k, mm, x) - (double)G * (x[col] - 1));
			if (donor == -2 || over < drop)
				donor = mm, drop = over;
		}
		if (donor == -2)
			continue;
		delta = glp_get_obj_coef(c->P, ncol) + units * glp_get_obj_coef(c->P, cl->g[k][ci]) +
			u * (glp_get_obj_coef(c->P, cl->arc[a]) - glp_get_obj_coef(c->P, cl->u[p->arcs[a].d])) -
			(donor >= 0 ? glp_get_obj_coef(c->P, cl->n[k * MODE_COUNT + (size_t)donor]) : 0);
		if (drop < r->drop || (drop == r->drop && delta < r->delta)) {
			r->drop = drop;
			r->a = a;
			r->ci = ci;
			r->donor = donor;
			r->units = units;
			r->delta = delta;
		}
	}
}

/*
 * A node of their own in x for the u replicas of demand d the deal left
 * unplaced: over d's arcs, a configuration of the arc's mode with its
 * slot, on a node the class has free or one a mode of the class gives up
 * (one whose configured GPUs fit on a node fewer: rounding the node
 * counts up made such nodes), the cheapest in the model's costs.  The
 * counts then ask for that node, its configuration and those replicas'
 * flow, and the deal opens it.  Returns 1 when x changed.
 */
static int room_for(const struct ilp_ctx *c, int d, double u, double *x)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	struct room r;
	size_t lo, hi, a, k;
	int m;

	r.delta = r.drop = HUGE_VAL;
	problem_arcs_of(p, d, &lo, &hi);
	for (a = lo; a < hi; a++)
		room_in(c, a, u, x, &r);
	if (r.drop == HUGE_VAL)
		return 0;
	k = (size_t)p->arcs[r.a].k;
	m = (int)p->classes[k].slot_types[p->arcs[r.a].s].mode;
	if (r.donor >= 0) {	/* its GPUs beyond what its other nodes hold go, their replicas to the deal */
		const struct pclass *pc = &p->classes[k];
		size_t ci;
		x[cl->n[k * MODE_COUNT + (size_t)r.donor]] -= 1;
		for (ci = pc->nconfigs; ci-- > 0 && r.drop > 1e-6;) {
			double unit = pc->configs[ci].node_pattern ? (double)pc->nc->gpus_per_node : 1, t;
			if ((int)pc->configs[ci].mode != r.donor || x[cl->g[k][ci]] < 1)
				continue;
			t = fmin(x[cl->g[k][ci]], ceil(r.drop / unit - 1e-9));
			x[cl->g[k][ci]] -= t;
			r.drop -= t * unit;
		}
	}
	x[cl->n[k * MODE_COUNT + (size_t)m]] += 1;
	x[cl->g[k][r.ci]] += r.units;
	x[cl->arc[r.a]] += u;
	x[cl->u[d]] = fmax(0, x[cl->u[d]] - u);
	return 1;
}

/* (ilp_complete.h) */
double *ilp_complete_room(const struct ilp_ctx *c, double *x, double *obj, double *fixed, double *fobj)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	double *y = xcalloc((size_t)cl->ncols + 1, sizeof(*y)), *fy, fo;
	struct ilp_result r;
	size_t d, nd = 0;

	memcpy(y, x, ((size_t)cl->ncols + 1) * sizeof(*y));
	for (d = 0; d < p->ndemands; d++)
		if (fixed[cl->u[d]] > 0.5)
			nd += (size_t)room_for(c, (int)d, floor(fixed[cl->u[d]] + 0.5), y);
	ilp_result_alloc(p, &r);	/* the GPU totals and node key columns of the new counts */
	ilp_take_plan(p, cl, y, &r);
	ilp_counts_vector(p, cl, &r, y);
	ilp_result_release(p, &r);
	fy = ilp_repair_vector(c, y);
	fo = ilp_vec_obj(c->P, fy);
	glp_printf("gpuplan-ilp: completed rounding, %zu demands given a node: made concrete %.2f unplaced %.0f (was "
		   "%.2f unplaced %.0f)\n", nd, fo, ilp_unplaced_sum(p, cl, fy), *fobj, ilp_unplaced_sum(p, cl, fixed));
	if (fo < *fobj - 1e-6) {
		memcpy(x, y, ((size_t)cl->ncols + 1) * sizeof(*x));
		*obj = ilp_vec_obj(c->P, y);
		*fobj = fo;
		free(fixed);
		fixed = fy;
	} else {
		free(fy);
	}
	free(y);
	return fixed;
}
