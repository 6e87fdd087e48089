/*
 * roadmap_bound.c - the capacity bound (roadmap_bound.h): the penalties
 * of the replicas a fleet cannot hold, measured five ways (slots, GPU
 * memory, compute, CPU, RAM), each bounded through the dual of its
 * relaxation without an LP solver.
 */
#include <math.h>
#include <stdlib.h>

#include "roadmap_bound.h"
#include "util.h"
#include "banned.h"

/*
 * What a share measures: slots (one a slot), GPU memory (MiB), compute
 * (a GPU's share), or a node's CPU cores or RAM (a replica's own ask,
 * wherever it goes: a slot counts there only as where it can go).
 */
enum cap_kind { CAP_SLOTS, CAP_MEMORY, CAP_COMPUTE, CAP_CPU, CAP_RAM, CAP_KINDS };

/* What a slot of type st takes of kind's measure, over all the GPUs it gives. */
static double slot_need(const struct slot_type *st, enum cap_kind kind)
{
	double gpus = st->gpus >= 1 ? st->gpus : 1;
	switch (kind) {
	case CAP_SLOTS:
	case CAP_CPU:
	case CAP_RAM:
		return st->gpus >= 1 ? st->gpus : 1;
	case CAP_MEMORY:
		return (double)st->memory_mib * gpus;
	case CAP_COMPUTE:
	default:
		return st->gpus >= 1 ? st->gpus : st->compute;
	}
}

/* What configuration cf's slots take of kind's measure, per GPU of its unit (a node pattern: the node's). */
static double config_load(const struct pclass *c, const struct config *cf, enum cap_kind kind)
{
	double load = 0;
	size_t j;
	for (j = 0; j < cf->nreal; j++)
		load += (double)cf->real_count[j] * slot_need(&c->slot_types[cf->real_slot[j]], kind);
	return cf->node_pattern ? load / (c->nc->gpus_per_node > 0 ? c->nc->gpus_per_node : 1) : load;
}

/*
 * Class c's GPU size in kind's measure (slots, compute: 1; memory: the
 * most memory a one-GPU configuration's slots have, in MiB), and each
 * slot type's share into g (by the class's slot types): its need,
 * divided by the load over the size of the fullest configuration that
 * creates it where that is over one GPU, so that no configuration's
 * slots take more than its GPUs' size, whatever they are (slots: 1/n
 * for n slots a GPU).
 */
static double class_shares(const struct pclass *c, enum cap_kind kind, double *g)
{
	double size = 1;
	size_t i, j;

	for (i = 0; kind == CAP_MEMORY && i < c->nconfigs; i++)
		size = fmax(size, c->configs[i].node_pattern ? 0 : config_load(c, &c->configs[i], kind));
	for (j = 0; j < c->nslot_types; j++)
		g[j] = HUGE_VAL;
	for (i = 0; i < c->nconfigs; i++) {
		const struct config *cf = &c->configs[i];
		double over = fmax(1, config_load(c, cf, kind) / size);
		for (j = 0; j < cf->nreal; j++) {
			size_t t = (size_t)cf->real_slot[j];
			g[t] = fmin(g[t], slot_need(&c->slot_types[t], kind) / over);
		}
	}
	/*
	 * A replica on a representative's arc may sit in any slot type it
	 * stands for that a configuration creates (one none creates is in no
	 * plan: its share stays HUGE_VAL, and a demand with no other slot is
	 * left out of the bound).
	 */
	for (j = 0; j < c->nslot_types; j++) {
		size_t r = (size_t)c->slot_types[j].rep;
		if (r < c->nslot_types && g[j] < g[r])
			g[r] = g[j];
	}
	return size;
}

/* One measure's shares: per class, each slot type's share ([k][s]) and a GPU's size. */
struct cap_shares {
	double **g;
	double *size;
};

static void shares_build(struct cap_shares *cs, const struct problem *p, enum cap_kind kind)
{
	size_t k;

	cs->g = xcalloc(p->nclasses + 1, sizeof(*cs->g));
	cs->size = xcalloc(p->nclasses + 1, sizeof(*cs->size));
	for (k = 0; k < p->nclasses; k++) {
		cs->g[k] = xcalloc(p->classes[k].nslot_types + 1, sizeof(**cs->g));
		cs->size[k] = class_shares(&p->classes[k], kind, cs->g[k]);
	}
}

static void shares_release(struct cap_shares *cs, const struct problem *p)
{
	size_t k;

	for (k = 0; k < p->nclasses; k++)
		free(cs->g[k]);
	free(cs->g);
	free(cs->size);
}

/*
 * The relaxation and its dual.  With x_ik the replicas of demand i on
 * class k, u_i those left out, a_ik the least share one takes on k and
 * C_k what k holds:
 *
 *     min sum_i pen_i u_i  s.t.  sum_k x_ik + u_i = n_i,  sum_i a_ik x_ik <= C_k,  x, u >= 0.
 *
 * For any prices pi_k >= 0 of the classes' room, weak duality gives
 *
 *     L(pi) = sum_i n_i min(pen_i, min_k a_ik pi_k) - sum_k C_k pi_k  <=  its optimum,
 *
 * so the bound is the best L of the prices tried: the same price on
 * every class (each demand's penalty per share as a candidate), then a
 * supergradient ascent from the best of those.
 */
struct cap_dual {
	size_t nd, nk;
	double *n, *pen;	/* per demand: replicas, penalty */
	double *a;		/* [i * nk + k]: share on class k; HUGE_VAL: no slot of k holds it */
	double *cap;		/* per class */
};

/* L(pi), and its supergradient into grad (per class; NULL: not wanted). */
static double dual_value(const struct cap_dual *du, const double *pi, double *grad)
{
	double L = 0;
	size_t i, k;

	for (k = 0; k < du->nk; k++) {
		L -= du->cap[k] * pi[k];
		if (grad)
			grad[k] = -du->cap[k];
	}
	for (i = 0; i < du->nd; i++) {
		double best = du->pen[i];
		size_t arg = du->nk;
		for (k = 0; k < du->nk; k++) {
			const double a = du->a[i * du->nk + k];
			if (a < HUGE_VAL && a * pi[k] < best) {
				best = a * pi[k];
				arg = k;
			}
		}
		L += du->n[i] * best;
		if (grad && arg < du->nk)
			grad[arg] += du->n[i] * du->a[i * du->nk + arg];
	}
	return L;
}

/* What one replica of demand i takes of kind's measure on class k, at least: HUGE_VAL when no slot of k holds it. */
static double demand_share(const struct problem *p, const struct cap_shares *cs, enum cap_kind kind, size_t i,
			   size_t k)
{
	double share = HUGE_VAL;
	size_t a, lo, hi;

	problem_arcs_of(p, (int)i, &lo, &hi);
	for (a = lo; a < hi; a++)
		if ((size_t)p->arcs[a].k == k)
			share = fmin(share, cs->g[k][p->arcs[a].s]);
	if (share == HUGE_VAL || (kind != CAP_CPU && kind != CAP_RAM))
		return share;
	return kind == CAP_CPU ? p->demands[i].w->cpu_cores : p->demands[i].w->ram_gib;
}

/* What class k holds of kind's measure: its nodes' CPU cores or RAM, or its GPUs' size. */
static double class_room(const struct problem *p, const struct cap_shares *cs, enum cap_kind kind, size_t k)
{
	const struct node_class *nc = p->classes[k].nc;
	double per_node = kind == CAP_CPU   ? nc->cpu_cores
			  : kind == CAP_RAM ? nc->ram_gib
					    : nc->gpus_per_node * cs->size[k];
	return (double)nc->count * per_node;
}

/* The relaxation of kind's measure over p: every demand with a penalty; a class with no room holds nothing. */
static void dual_build(struct cap_dual *du, const struct problem *p, enum cap_kind kind)
{
	struct cap_shares cs;
	size_t i, k;

	shares_build(&cs, p, kind);
	du->nd = p->ndemands;
	du->nk = p->nclasses;
	du->n = xcalloc(du->nd + 1, sizeof(double));
	du->pen = xcalloc(du->nd + 1, sizeof(double));
	du->a = xcalloc((du->nd + 1) * (du->nk + 1), sizeof(double));
	du->cap = xcalloc(du->nk + 1, sizeof(double));
	for (k = 0; k < du->nk; k++)
		du->cap[k] = class_room(p, &cs, kind, k);
	for (i = 0; i < du->nd; i++) {
		du->n[i] = (double)p->demands[i].replicas;
		du->pen[i] = fmax(0, p->demands[i].penalty);
		for (k = 0; k < du->nk; k++)
			du->a[i * du->nk + k] = du->cap[k] > 0 ? demand_share(p, &cs, kind, i, k) : HUGE_VAL;
	}
	shares_release(&cs, p);
}

static void dual_release(struct cap_dual *du)
{
	free(du->n);
	free(du->pen);
	free(du->a);
	free(du->cap);
}

/* Supergradient steps from pi (changed): each price moves by its class's overload, step shrinking. */
#define DUAL_STEPS 200

static double dual_ascent(const struct cap_dual *du, double *pi, double scale, double best)
{
	double *grad = xcalloc(du->nk + 1, sizeof(double));
	int t;
	size_t k;

	for (t = 0; t < DUAL_STEPS && scale > 0; t++) {
		double step = scale / (1.0 + t);
		best = fmax(best, dual_value(du, pi, grad));
		for (k = 0; k < du->nk; k++)
			if (du->cap[k] > 0)
				pi[k] = fmax(0, pi[k] + step * grad[k] / du->cap[k]);
	}
	best = fmax(best, dual_value(du, pi, NULL));
	free(grad);
	return best;
}

/* The best L of kind's relaxation found: one price for all classes, then per class. */
static double kind_bound(const struct problem *p, enum cap_kind kind)
{
	struct cap_dual du;
	double *pi, best = 0, lam = 0;
	size_t i, k;

	dual_build(&du, p, kind);
	pi = xcalloc(du.nk + 1, sizeof(double));
	for (i = 0; i < du.nd; i++) {
		double a = HUGE_VAL, v;
		for (k = 0; k < du.nk; k++)
			a = fmin(a, du.a[i * du.nk + k]);
		if (!(a > 0 && a < HUGE_VAL))
			continue;
		for (k = 0; k < du.nk; k++)
			pi[k] = du.pen[i] / a;
		v = dual_value(&du, pi, NULL);
		if (v > best) {
			best = v;
			lam = du.pen[i] / a;
		}
	}
	for (k = 0; k < du.nk; k++)
		pi[k] = lam;
	best = dual_ascent(&du, pi, lam, best);
	free(pi);
	dual_release(&du);
	return best;
}

double rm_capacity_bound(const struct problem *p)
{
	double best = 0;
	int kind;

	for (kind = 0; kind < CAP_KINDS; kind++)
		best = fmax(best, kind_bound(p, (enum cap_kind)kind));
	/* a hair under: the sums are rounded; a bound must not be */
	return best * (1 - 1e-9);
}
