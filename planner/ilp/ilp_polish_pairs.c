/*
 * ilp_polish_pairs.c - what the polish (ilp_polish.c) solves again: the
 * pairs of classes that can trade replicas, the pairs that may empty a
 * small costly class (POLISH_EJECT), and the triples of classes that
 * share demands (POLISH_TRIPLE), the most promising first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_glpk.h"
#include "ilp_polish.h"
#include "ilp_polish_pairs.h"
#include "ilp_vec.h"
#include "banned.h"

/*
 * Emptying a class (POLISH_EJECT): a class is emptied into a pair when
 * it uses EJECT_NODES nodes or fewer and costs EJECT_SHARE of the plan
 * or more (so never while the plan leaves replicas unplaced: their
 * penalty outweighs every class); EJECT_PAIRS pairs at most are tried
 * for each such class, the most promising first.
 */
#define EJECT_NODES 2
#define EJECT_SHARE 0.05
#define EJECT_PAIRS 16

/*
 * Triples (POLISH_TRIPLE): the TRIPLE_MAX most promising triples of
 * classes that share demands are kept.  The count is fixed, so the
 * polish is the same under a node limit on any machine; a triple MIP is
 * about half again a pair's, and on a fleet of many classes the triples
 * number in the hundreds, more than the time a polish leaves.
 */
#define TRIPLE_MAX 32

/* The pair of the nk classes ks (ascending), emptying kd (or NO_CLASS), promising `promise`. */
static struct pair pair_make(const size_t *ks, size_t nk, size_t kd, double promise)
{
	struct pair pr;
	size_t t;

	for (t = 0; t < 3; t++)
		pr.k[t] = ks[t < nk ? t : nk - 1];
	pr.nk = nk;
	pr.kd = kd;
	pr.promise = promise;
	return pr;
}

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	size_t t;

	if (x->promise != y->promise)
		return x->promise > y->promise ? -1 : 1;
	for (t = 0; t < 3; t++)
		if (x->k[t] != y->k[t])
			return x->k[t] < y->k[t] ? -1 : 1;
	return (x->kd > y->kd) - (x->kd < y->kd);
}

double ilp_class_cost(const struct ilp_ctx *c, size_t k, const double *x)
{
	glp_prob *P = c->P;
	const struct problem *p = c->p;
	const struct arcidx *ix = &c->ix;
	const struct cols *cl = &c->cl;
	double z = 0;
	size_t ci, a;
	int m;
	for (m = 0; m < MODE_COUNT; m++)
		if (cl->n[k * MODE_COUNT + (size_t)m])
			z += glp_get_obj_coef(P, cl->n[k * MODE_COUNT + (size_t)m]) * x[cl->n[k * MODE_COUNT + (size_t)m]];
	for (ci = 0; ci < p->classes[k].nconfigs; ci++)
		z += glp_get_obj_coef(P, cl->g[k][ci]) * x[cl->g[k][ci]];
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++)
		z += glp_get_obj_coef(P, cl->arc[ix->byk[a]]) * x[cl->arc[ix->byk[a]]];
	return z;
}

/*
 * Class k's share of what the plan x costs over the root LP (lp, solved
 * in c->P): its columns' cost in x less in lp, less the replicas it holds
 * over lp's at their demand's dual price (what a replica is worth
 * wherever it goes).  With every demand placed, the shares sum to x's
 * gap to the LP bound, and each is >= 0 up to rounding: it is the sum of
 * reduced costs and row slacks times duals over k's own columns and
 * rows.  A class that holds more replicas than in lp is not charged for
 * them, nor is the class that gave them up credited.
 */
static double class_excess(const struct ilp_ctx *c, size_t k, const double *x, const double *lp)
{
	glp_prob *P = c->P;
	const struct problem *p = c->p;
	const struct arcidx *ix = &c->ix;
	const struct cols *cl = &c->cl;
	double e = ilp_class_cost(c, k, x) - ilp_class_cost(c, k, lp);
	size_t a;
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		size_t i = ix->byk[a];
		int u = cl->u[p->arcs[i].d];
		double dual = glp_get_obj_coef(P, u) - glp_get_col_dual(P, u);
		e -= dual * (x[cl->arc[i]] - lp[cl->arc[i]]);
	}
	return e;
}

/* What ilp_polish_pairs reads of the plan: per demand and class, whether it has an arc and whether x places any there. */
struct pair_scan {
	size_t nc;		/* classes */
	char *has;		/* [demand * nc + class] */
	char *placed;		/* [demand * nc + class] */
	char *share;		/* [a * nc + b], a < b: a demand x places in one has an arc in the other */
	char *room;		/* [class]: x leaves some of its nodes unused */
	double *excess;		/* [class]: class_excess */
	double *lost;		/* [class]: the penalties of the replicas x leaves unplaced that it has arcs for */
};

/* Whether the classes a and b (a == b: one class) have arcs for each of the demands dl[0 .. nd). */
static int eject_covers(const struct pair_scan *sc, const size_t *dl, size_t nd, size_t a, size_t b)
{
	size_t i, nc = sc->nc;

	for (i = 0; i < nd; i++)
		if (!sc->has[dl[i] * nc + a] && !sc->has[dl[i] * nc + b])
			return 0;
	return 1;
}

/*
 * Adds to pairs (at n; returns the new count) the pairs that may empty
 * class kd: the EJECT_PAIRS pairs (a, b), a <= b, neither kd, that have
 * arcs for every demand x places in kd, the most promising first (the
 * three classes' excess over the root LP).
 */
static size_t eject_pairs(const struct ilp_ctx *c, const struct pair_scan *sc, size_t kd, struct pair *pairs,
			  size_t n)
{
	const struct problem *p = c->p;
	size_t nc = sc->nc, a, b, d, nd = 0, m = 0, cap = 64;
	size_t *dl = xcalloc(p->ndemands + 1, sizeof(*dl));
	struct pair *cand = xcalloc(cap, sizeof(*cand));

	for (d = 0; d < p->ndemands; d++)
		if (sc->placed[d * nc + kd])
			dl[nd++] = d;
	for (a = 0; a < nc; a++)
		for (b = a; b < nc; b++) {
			size_t ks[2];
			if (a == kd || b == kd || !p->classes[a].modes || !p->classes[b].modes ||
			    !eject_covers(sc, dl, nd, a, b))
				continue;
			if (m == cap)
				cand = xrealloc(cand, (cap *= 2) * sizeof(*cand));
			ks[0] = a;
			ks[1] = b;
			cand[m++] = pair_make(ks, a == b ? 1 : 2, kd,
					      sc->excess[kd] + sc->excess[a] + (a != b ? sc->excess[b] : 0));
		}
	qsort(cand, m, sizeof(*cand), pair_cmp);
	if (m > EJECT_PAIRS)
		m = EJECT_PAIRS;
	memcpy(pairs + n, cand, m * sizeof(*cand));
	free(cand);
	free(dl);
	return n + m;
}

/* Reads x (against the root LP lp) into sc (allocated; pair_scan_free frees it). */
static void pair_scan_fill(const struct ilp_ctx *c, const double *x, const double *lp, struct pair_scan *sc)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	size_t nc = p->nclasses, i, d, a, b;

	sc->nc = nc;
	sc->has = xcalloc(p->ndemands * nc + 1, 1);
	sc->placed = xcalloc(p->ndemands * nc + 1, 1);
	sc->share = xcalloc(nc * nc + 1, 1);
	sc->room = xcalloc(nc + 1, 1);
	sc->excess = xcalloc(nc + 1, sizeof(*sc->excess));
	sc->lost = xcalloc(nc + 1, sizeof(*sc->lost));
	for (i = 0; i < p->narcs; i++) {
		d = (size_t)p->arcs[i].d;
		if (!sc->has[d * nc + (size_t)p->arcs[i].k])
			sc->lost[p->arcs[i].k] += p->demands[d].solve_penalty * x[cl->u[d]];
		sc->has[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
		if (x[cl->arc[i]] > 1e-6)
			sc->placed[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
	}
	for (d = 0; d < p->ndemands; d++)
		for (a = 0; a < nc; a++)
			if (sc->placed[d * nc + a])
				for (b = 0; b < nc; b++)
					if (b != a && sc->has[d * nc + b])
						sc->share[(a < b ? a : b) * nc + (a < b ? b : a)] = 1;
	for (a = 0; a < nc; a++) {
		sc->room[a] = ilp_class_nodes(&c->cl, a, x) + 0.5 < (double)p->classes[a].nc->count;
		sc->excess[a] = class_excess(c, a, x, lp);
	}
}

static void pair_scan_free(struct pair_scan *sc)
{
	free(sc->has);
	free(sc->placed);
	free(sc->share);
	free(sc->room);
	free(sc->excess);
	free(sc->lost);
}

/*
 * What solving the nk classes ks again may gain: their excess over the
 * root LP, the larger counted twice when one of them has nodes x leaves
 * unused (where the others' replicas can go), plus the largest penalty
 * of the unplaced replicas one of them could take (ilp_polish_pairs).
 */
static double pair_promise(const struct pair_scan *sc, const size_t *ks, size_t nk)
{
	double sum = 0, most = 0, lost = 0;
	int room = 0;
	size_t t;

	for (t = 0; t < nk; t++) {
		sum += sc->excess[ks[t]];
		most = t ? fmax(most, sc->excess[ks[t]]) : sc->excess[ks[t]];
		lost = fmax(lost, sc->lost[ks[t]]);
		room |= sc->room[ks[t]];
	}
	return sum + lost + (room ? most : 0);
}

/* Whether classes a < b share demands (sc->share). */
static int shares(const struct pair_scan *sc, size_t a, size_t b)
{
	return sc->share[a * sc->nc + b];
}

/*
 * Adds to pairs (at n; returns the new count) the triples a < b < c of
 * classes with modes that share demands in a chain (two of their three
 * pairs share: replicas can pass from one end to the other), the
 * TRIPLE_MAX most promising (pair_promise); *all: how many there were.
 */
static size_t triple_pairs(const struct problem *p, const struct pair_scan *sc, struct pair *pairs, size_t n,
			   size_t *all)
{
	size_t nc = sc->nc, m = 0, cap = 64, ks[3];
	struct pair *cand = xcalloc(cap, sizeof(*cand));

	for (ks[0] = 0; ks[0] < nc; ks[0]++)
		for (ks[1] = ks[0] + 1; ks[1] < nc; ks[1]++)
			for (ks[2] = ks[1] + 1; ks[2] < nc; ks[2]++) {
				int links = shares(sc, ks[0], ks[1]) + shares(sc, ks[0], ks[2]) + shares(sc, ks[1], ks[2]);
				if (links < 2 || !p->classes[ks[0]].modes || !p->classes[ks[1]].modes ||
				    !p->classes[ks[2]].modes)
					continue;
				if (m == cap)
					cand = xrealloc(cand, (cap *= 2) * sizeof(*cand));
				cand[m++] = pair_make(ks, 3, NO_CLASS, pair_promise(sc, ks, 3));
			}
	qsort(cand, m, sizeof(*cand), pair_cmp);
	*all = m;
	if (m > TRIPLE_MAX)
		m = TRIPLE_MAX;
	memcpy(pairs + n, cand, m * sizeof(*cand));
	free(cand);
	return n + m;
}

/*
 * The pairs of classes worth solving again together: k1 < k2 where a
 * demand the plan x places in one of them has an arc in the other (its
 * replicas can move between them); a class with no such partner is
 * paired with itself.  With POLISH_EJECT, also for each class x uses
 * little and pays much for (EJECT_NODES, EJECT_SHARE of x_obj) the pairs
 * that may take all it holds (eject_pairs); with POLISH_TRIPLE, the
 * triples (triple_pairs).  The most promising first (pair_promise): the
 * classes' excess over the root LP (class_excess), and the penalties of
 * the replicas x leaves unplaced that one of them could take (pair_offer
 * offers them): a pair that may place one gains more than any cost.
 */
void ilp_polish_pairs(const struct ilp_ctx *c, const double *x, double x_obj, const double *lp, unsigned passes,
		      struct pair_list *out)
{
	const struct problem *p = c->p;
	size_t nc = p->nclasses, a, b, n = 0, ks[2];
	struct pair_scan sc;
	char *paired = xcalloc(nc + 1, 1);
	struct pair *pairs = xcalloc(nc * nc + (passes & POLISH_EJECT ? nc * EJECT_PAIRS : 0) + TRIPLE_MAX + 1,
				     sizeof(*pairs));

	pair_scan_fill(c, x, lp, &sc);
	for (a = 0; a < nc; a++)
		for (b = a + 1; b < nc; b++)
			if (shares(&sc, a, b)) {
				ks[0] = a;
				ks[1] = b;
				pairs[n++] = pair_make(ks, 2, NO_CLASS, pair_promise(&sc, ks, 2));
				paired[a] = paired[b] = 1;
			}
	for (a = 0; a < nc; a++)
		if (!paired[a] && p->classes[a].modes) {
			ks[0] = a;
			pairs[n++] = pair_make(ks, 1, NO_CLASS, sc.excess[a] + sc.lost[a]);
		}
	for (a = 0; (passes & POLISH_EJECT) && a < nc; a++) {
		double used = ilp_class_nodes(&c->cl, a, x);
		if (used > 0.5 && used < EJECT_NODES + 0.5 && ilp_class_cost(c, a, x) >= EJECT_SHARE * x_obj)
			n = eject_pairs(c, &sc, a, pairs, n);
	}
	out->ntri = out->tri_all = 0;
	if (passes & POLISH_TRIPLE) {
		size_t before = n;
		n = triple_pairs(p, &sc, pairs, n, &out->tri_all);
		out->ntri = n - before;
	}
	qsort(pairs, n, sizeof(*pairs), pair_cmp);
	pair_scan_free(&sc);
	free(paired);
	out->pairs = pairs;
	out->n = n;
}
