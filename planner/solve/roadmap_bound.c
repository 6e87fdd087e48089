/*
 * roadmap_bound.c - the capacity bound (roadmap_bound.h): the penalties
 * of the replicas a fleet cannot hold, measured five ways (slots, GPU
 * memory, compute, CPU, RAM), each bounded through the dual of its
 * relaxation without an LP solver.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The best L found from pi; the prices it was found at into pi. */
static double dual_ascent(const struct cap_dual *du, double *pi, double scale, double best)
{
	double *grad = xcalloc(du->nk + 1, sizeof(double)), *at = xcalloc(du->nk + 1, sizeof(double));
	int t;
	size_t k;

	memcpy(at, pi, du->nk * sizeof(double));
	for (t = 0; t < DUAL_STEPS && scale > 0; t++) {
		double step = scale / (1.0 + t), v = dual_value(du, pi, grad);
		if (v > best) {
			best = v;
			memcpy(at, pi, du->nk * sizeof(double));
		}
		for (k = 0; k < du->nk; k++)
			if (du->cap[k] > 0)
				pi[k] = fmax(0, pi[k] + step * grad[k] / du->cap[k]);
	}
	if (dual_value(du, pi, NULL) > best) {
		best = dual_value(du, pi, NULL);
		memcpy(at, pi, du->nk * sizeof(double));
	}
	memcpy(pi, at, du->nk * sizeof(double));
	free(grad);
	free(at);
	return best;
}

/*
 * The best L of du's relaxation found: one price for all classes, then
 * per class; the prices into pi (du->nk) and the one price into *lam.
 */
static double kind_bound(const struct cap_dual *du, double *pi, double *lam)
{
	double best = 0;
	size_t i, k;

	*lam = 0;
	for (i = 0; i < du->nd; i++) {
		double a = HUGE_VAL, v;
		for (k = 0; k < du->nk; k++)
			a = fmin(a, du->a[i * du->nk + k]);
		if (!(a > 0 && a < HUGE_VAL))
			continue;
		for (k = 0; k < du->nk; k++)
			pi[k] = du->pen[i] / a;
		v = dual_value(du, pi, NULL);
		if (v > best) {
			best = v;
			*lam = du->pen[i] / a;
		}
	}
	for (k = 0; k < du->nk; k++)
		pi[k] = *lam;
	return dual_ascent(du, pi, *lam, best);
}

/*
 * The five measures priced together: prices pi_km >= 0 of each class's
 * room in each measure, a replica of demand i on class k priced at
 * sum_m a_ikm pi_km.  Every plan keeps each measure's rows, so
 *
 *     L(pi) = sum_i n_i min(pen_i, min_k sum_m a_ikm pi_km) - sum_k sum_m C_km pi_km
 *
 * is below its optimum for any such prices, as one measure's is
 * (docs/formulation.md, Roadmap, "The capacity bound").  A class may
 * hold demand i where a slot of it does (its slots' a_ik finite); a
 * measure with no room in a class (no CPU or RAM figure) is not priced
 * there.  The prices are searched as y_km = pi_km C_km (each class's
 * room in each measure worth y_km), so that the measures' units do not
 * matter: from the best single measure's prices, subgradient steps of
 * Polyak's kind towards a target above the best L found, the target
 * coming down when the steps stop finding better.
 */
struct cap_joint {
	size_t nd, nk;
	const double *n, *pen;	/* per demand */
	double *b;		/* [(i * nk + k) * CAP_KINDS + m]: a_ikm / C_km; 0: not priced */
	unsigned char *can;	/* [i * nk + k]: a slot of k holds i */
	double *y;		/* [k * CAP_KINDS + m] */
};

#define JOINT_STEPS 1000

static void joint_build(struct cap_joint *j, const struct cap_dual *du)
{
	size_t i, k, n;
	int m;

	j->nd = du[CAP_SLOTS].nd;
	j->nk = du[CAP_SLOTS].nk;
	j->n = du[CAP_SLOTS].n;
	j->pen = du[CAP_SLOTS].pen;
	n = j->nd * j->nk;
	j->b = xcalloc(n * CAP_KINDS + 1, sizeof(double));
	j->can = xcalloc(n + 1, 1);
	j->y = xcalloc(j->nk * CAP_KINDS + 1, sizeof(double));
	for (i = 0; i < j->nd; i++)
		for (k = 0; k < j->nk; k++) {
			j->can[i * j->nk + k] = du[CAP_SLOTS].a[i * j->nk + k] < HUGE_VAL;
			for (m = 0; m < CAP_KINDS && j->can[i * j->nk + k]; m++)
				if (du[m].cap[k] > 0 && du[m].a[i * j->nk + k] < HUGE_VAL)
					j->b[(i * j->nk + k) * CAP_KINDS + m] = du[m].a[i * j->nk + k] / du[m].cap[k];
		}
}

static void joint_release(struct cap_joint *j)
{
	free(j->b);
	free(j->can);
	free(j->y);
}

/* L at j->y, and its subgradient into g ([k * CAP_KINDS + m]). */
static double joint_value(const struct cap_joint *j, double *g)
{
	double L = 0;
	size_t i, k, nm = j->nk * CAP_KINDS;
	int m;

	for (k = 0; k < nm; k++) {
		L -= j->y[k];
		g[k] = -1;
	}
	for (i = 0; i < j->nd; i++) {
		double best = j->pen[i];
		size_t arg = j->nk;
		for (k = 0; k < j->nk; k++) {
			const double *b = &j->b[(i * j->nk + k) * CAP_KINDS];
			double v = 0;
			if (!j->can[i * j->nk + k])
				continue;
			for (m = 0; m < CAP_KINDS; m++)
				v += b[m] * j->y[k * CAP_KINDS + m];
			if (v < best) {
				best = v;
				arg = k;
			}
		}
		L += j->n[i] * best;
		for (m = 0; arg < j->nk && m < CAP_KINDS; m++)
			g[arg * CAP_KINDS + m] += j->n[i] * j->b[(i * j->nk + arg) * CAP_KINDS + m];
	}
	return L;
}

/* The best L found from j->y (Polyak steps towards best + delta, delta halved when they stall). */
static double joint_ascent(struct cap_joint *j, double best)
{
	size_t nm = j->nk * CAP_KINDS, k, i;
	double *g = xcalloc(nm + 1, sizeof(double)), delta = 0, gg, L;
	int t, stall = 0;

	for (i = 0; i < j->nd; i++)
		delta = fmax(delta, j->n[i] * j->pen[i]);
	delta = fmax(delta * 0.1, best * 0.1);
	for (t = 0; t < JOINT_STEPS && delta > 0; t++) {
		L = joint_value(j, g);
		if (L > best + 1e-9 * fabs(best)) {
			best = L;
			stall = 0;
		} else if (++stall >= 20) {
			delta /= 2;
			stall = 0;
		}
		for (k = 0, gg = 0; k < nm; k++) /* an unpriced measure's price stays 0 */
			gg += g[k] * g[k];
		if (gg <= 0)
			break;
		for (k = 0; k < nm; k++)
			j->y[k] = fmax(0, j->y[k] + (best + delta - L) / gg * g[k]);
	}
	free(g);
	return fmax(best, 0);
}

double rm_capacity_bound(const struct problem *p)
{
	struct cap_dual du[CAP_KINDS];
	struct cap_joint j;
	double *pi[CAP_KINDS], best = 0, v, lam;
	size_t k;
	int kind, top = 0;

	for (kind = 0; kind < CAP_KINDS; kind++) {
		dual_build(&du[kind], p, (enum cap_kind)kind);
		pi[kind] = xcalloc(du[kind].nk + 1, sizeof(double));
		v = kind_bound(&du[kind], pi[kind], &lam);
		if (v > best) {
			best = v;
			top = kind;
		}
	}
	joint_build(&j, du);
	for (k = 0; k < j.nk; k++)
		j.y[k * CAP_KINDS + top] = du[top].cap[k] > 0 ? pi[top][k] * du[top].cap[k] : 0;
	best = joint_ascent(&j, best);
	joint_release(&j);
	for (kind = 0; kind < CAP_KINDS; kind++) {
		free(pi[kind]);
		dual_release(&du[kind]);
	}
	/* a hair under: the sums are rounded; a bound must not be */
	return best * (1 - 1e-9);
}
