/*
 * ilp_polish.c - the cheapest concrete plan re-solved two classes at a
 * time.  Each pair of classes (polish_pairs) is solved again as one MIP
 * (ilp_sub_mip) for the replicas the plan gives the two, every other
 * class as the plan has it, with the plan offered as the first
 * incumbent and a short search.  A cheaper plan of
 * the two whose deal over real nodes loses no replica replaces theirs
 * when the whole plan, made concrete, is then cheaper too (the two may
 * each deal well alone and not together: a concrete plan deals all
 * classes one way, first-fit or balanced).
 *
 * Rounding fixes each class against an LP of the classes not yet
 * rounded; here each class sees the others whole, and replicas move
 * between two classes only where both take them in whole
 * configurations.  After the first pass a pair is solved again only
 * when one of its classes changed since; it stops after a pass that
 * changes nothing, or at the deadline.  The short passes come first,
 * then the deep ones (POLISH_SHORT, POLISH_DEEP: either alone when the
 * caller asks, ilp.c polishing several starts), first without cuts,
 * then with Gomory and MIR cuts (the levels, ilp_polish.h).  Pairs are solved POLISH_WAVE at
 * a time (pair_wave), on par_run threads: most find nothing, so most of
 * a wave's results stand; they are taken in order, so the plan is the
 * same on any number of threads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_glpk.h"
#include "ilp_polish.h"
#include "ilp_shrink.h"
#include "ilp_sub.h"
#include "ilp_vec.h"
#include "banned.h"

#define POLISH_WAVE 4	/* pairs solved at once: fixed, so the plan is the same on any number of threads */

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

#define NO_CLASS ((size_t)-1)

/* A pair of classes to solve again together (k1 == k2: one class), and what it promises. */
struct pair {
	size_t k1, k2;		/* the classes, k1 <= k2 */
	size_t kd;		/* a class whose replicas the two take, emptying it; NO_CLASS: none */
	double promise;		/* what solving them again may gain (polish_pairs) */
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->promise != y->promise)
		return x->promise > y->promise ? -1 : 1;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return (x->kd > y->kd) - (x->kd < y->kd);
}

/* What the columns of class k cost in x (1-based, columns of c->P), arcs included. */
static double class_cost(const struct ilp_ctx *c, size_t k, const double *x)
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
	double e = class_cost(c, k, x) - class_cost(c, k, lp);
	size_t a;
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		size_t i = ix->byk[a];
		int u = cl->u[p->arcs[i].d];
		double dual = glp_get_obj_coef(P, u) - glp_get_col_dual(P, u);
		e -= dual * (x[cl->arc[i]] - lp[cl->arc[i]]);
	}
	return e;
}

/* What polish_pairs reads of the plan: per demand and class, whether it has an arc and whether x places any there. */
struct pair_scan {
	size_t nc;		/* classes */
	char *has;		/* [demand * nc + class] */
	char *placed;		/* [demand * nc + class] */
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
			if (a == kd || b == kd || !p->classes[a].modes || !p->classes[b].modes ||
			    !eject_covers(sc, dl, nd, a, b))
				continue;
			if (m == cap)
				cand = xrealloc(cand, (cap *= 2) * sizeof(*cand));
			cand[m].k1 = a;
			cand[m].k2 = b;
			cand[m].kd = kd;
			cand[m].promise = sc->excess[kd] + sc->excess[a] + (a != b ? sc->excess[b] : 0);
			m++;
		}
	qsort(cand, m, sizeof(*cand), pair_cmp);
	if (m > EJECT_PAIRS)
		m = EJECT_PAIRS;
	memcpy(pairs + n, cand, m * sizeof(*cand));
	free(cand);
	free(dl);
	return n + m;
}

/*
 * The pairs of classes worth solving again together: k1 < k2 where a
 * demand the plan x places in one of them has an arc in the other (its
 * replicas can move between them); a class with no such partner is
 * paired with itself.  With eject, also for each class x uses little
 * and pays much for (EJECT_NODES, EJECT_SHARE of x_obj) the pairs that
 * may take all it holds (eject_pairs).  The most promising first: the
 * classes' excess over the root LP (class_excess), doubled in effect
 * (the larger excess counts twice) when one of a pair has nodes x leaves
 * unused, where the other's replicas can go, plus the penalties of the
 * replicas x leaves unplaced that one of them could take (pair_offer
 * offers them): a pair that may place one gains more than any cost.
 */
static size_t polish_pairs(const struct ilp_ctx *c, const double *x, double x_obj, const double *lp, int eject,
			   struct pair **out)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	size_t nc = p->nclasses, i, d, a, b, n = 0;
	struct pair_scan sc;
	char *share = xcalloc(nc * nc + 1, 1), *paired = xcalloc(nc + 1, 1), *room = xcalloc(nc + 1, 1);
	struct pair *pairs = xcalloc(nc * nc + (eject ? nc * EJECT_PAIRS : 0) + 1, sizeof(*pairs));

	sc.nc = nc;
	sc.has = xcalloc(p->ndemands * nc + 1, 1);
	sc.placed = xcalloc(p->ndemands * nc + 1, 1);
	sc.excess = xcalloc(nc + 1, sizeof(*sc.excess));
	sc.lost = xcalloc(nc + 1, sizeof(*sc.lost));
	for (i = 0; i < p->narcs; i++) {
		d = (size_t)p->arcs[i].d;
		if (!sc.has[d * nc + (size_t)p->arcs[i].k])
			sc.lost[p->arcs[i].k] += p->demands[d].penalty * x[cl->u[d]];
		sc.has[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
		if (x[cl->arc[i]] > 1e-6)
			sc.placed[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
	}
	for (d = 0; d < p->ndemands; d++)
		for (a = 0; a < nc; a++)
			if (sc.placed[d * nc + a])
				for (b = 0; b < nc; b++)
					if (b != a && sc.has[d * nc + b])
						share[(a < b ? a : b) * nc + (a < b ? b : a)] = 1;
	for (a = 0; a < nc; a++) {
		room[a] = ilp_class_nodes(&c->cl, a, x) + 0.5 < (double)p->classes[a].nc->count;
		sc.excess[a] = class_excess(c, a, x, lp);
	}
	for (a = 0; a < nc; a++)
		for (b = a + 1; b < nc; b++)
			if (share[a * nc + b]) {
				pairs[n].k1 = a;
				pairs[n].k2 = b;
				pairs[n].kd = NO_CLASS;
				pairs[n].promise = sc.excess[a] + sc.excess[b] + fmax(sc.lost[a], sc.lost[b]) +
						   (room[a] || room[b] ? fmax(sc.excess[a], sc.excess[b]) : 0);
				paired[a] = paired[b] = 1;
				n++;
			}
	for (a = 0; a < nc; a++)
		if (!paired[a] && p->classes[a].modes) {
			pairs[n].k1 = pairs[n].k2 = a;
			pairs[n].kd = NO_CLASS;
			pairs[n].promise = sc.excess[a] + sc.lost[a];
			n++;
		}
	for (a = 0; eject && a < nc; a++) {
		double used = ilp_class_nodes(&c->cl, a, x);
		if (used > 0.5 && used < EJECT_NODES + 0.5 && class_cost(c, a, x) >= EJECT_SHARE * x_obj)
			n = eject_pairs(c, &sc, a, pairs, n);
	}
	qsort(pairs, n, sizeof(*pairs), pair_cmp);
	free(sc.has);
	free(sc.placed);
	free(sc.excess);
	free(sc.lost);
	free(share);
	free(paired);
	free(room);
	*out = pairs;
	return n;
}

/* One pair of classes solved again (polish), a job of a wave. */
struct pair_job {
	size_t ks[2], nk;	/* the classes; 1 or 2 of them */
	size_t kd;		/* the class they empty (struct pair), or NO_CLASS */
	double *q;		/* [demand]: the replicas x gives the two (and kd), and those it offers them */
	double *off;		/* [demand]: of those, the replicas x leaves unplaced (pair_offer) */
	double old, obj;	/* what the two (and kd) cost in x (less rounding); what the MIP found */
	struct shrink sh;	/* the MIP's own, from nothing */
	struct ilp_result got;	/* the MIP's plan of the two */
	int rc;			/* ilp_sub_mip's */
};

/* How many classes job b sets in the plan: its nk, and the class it empties. */
static size_t job_nclasses(const struct pair_job *b)
{
	return b->nk + (b->kd != NO_CLASS);
}

/* The t-th of them (t < job_nclasses(b)); b->got holds the class it empties at zero (ilp_sub_mip). */
static size_t job_class(const struct pair_job *b, size_t t)
{
	return t < b->nk ? b->ks[t] : b->kd;
}

/* A wave of pair jobs. */
struct pair_jobs {
	const struct ilp_ctx *c;	/* the whole model and the run's settings */
	const double *x;	/* the plan being polished, as it was before the wave */
	double deadline;	/* the polish's */
	int level;		/* the passes': POLISH_LEVEL_SHORT, _DEEP or _CUTS */
	struct pair_job *job;	/* [POLISH_WAVE] */
};

static void pair_job_run(void *ctx, size_t j)
{
	struct pair_jobs *pj = ctx;
	struct pair_job *b = &pj->job[j];
	size_t ng = pj->c->p->nclasses * MODE_COUNT;
	struct sub_mip_args sa;

	ilp_glpk_thread_hook(pj->c->verbose);
	memset(b->sh.cpu, 0, ng * sizeof(*b->sh.cpu));
	memset(b->sh.ram, 0, ng * sizeof(*b->sh.ram));
	sa.keyed = 0;
	sa.ks = b->ks;
	sa.nk = b->nk;
	sa.q = b->q;
	sa.use = NULL;
	sa.start_x = pj->x;
	sa.worse = b->old;
	sa.sh = &b->sh;
	sa.deadline = pj->deadline;
	sa.deep = b->kd != NO_CLASS ? SUB_DEEP_ALWAYS : pj->level > POLISH_LEVEL_SHORT ? SUB_DEEP : 0;
	sa.cuts = b->kd != NO_CLASS || pj->level == POLISH_LEVEL_CUTS;
	b->rc = ilp_sub_mip(pj->c, &sa, &b->got, &b->obj);
}

/* A pair in a wave: its index in the pairs, and its job, or -1 when nothing changed since it was solved. */
struct wave_pair {
	size_t pi;		/* in polish.pairs */
	long job;		/* in polish.pj.job, or -1 */
};

/* One ilp_polish call. */
struct polish {
	const struct ilp_ctx *c;	/* the whole model and the run's settings */
	double *x;		/* the plan being polished (1-based columns) */
	struct ilp_result cur;	/* x's counts */
	double *xc;		/* [ncols + 1]: x with a pair's plan, to try */
	double concrete;	/* what x made concrete costs */
	double **made;		/* x made concrete, once cheaper (ilp_polish's) */
	struct pair *pairs;	/* [npairs], the most promising first */
	size_t npairs;
	long *seen;		/* [pair]: stamp when last solved, 0: never */
	char *done;		/* [pair]: taken in this pass */
	long *changed;		/* [class]: stamp of the pair that last changed it */
	char *moved;		/* [class]: changed or put off in this wave */
	struct wave_pair *wp;	/* [npairs]: the wave */
	struct pair_jobs pj;	/* the wave's jobs */
	long stamp;		/* the next stamp */
	long wasted, dearer;	/* pair MIPs solved again; cheaper but dearer made concrete */
	struct polish_stats st;	/* pair MIPs solved, per level */
	int better;		/* pairs that made x cheaper */
	int emptied;		/* of those, pairs that emptied a class */
	long tried;		/* pair MIPs that would empty a class */
	int found;		/* this pass made x cheaper */
	double t_deal;		/* seconds in deals */
};

/*
 * The replicas the plan leaves unplaced, offered to pair b too (in its
 * q and, at their penalty, in what the two cost now) when one of its
 * classes has an arc for them: a pair MIP took only the replicas the
 * plan gives its classes, so a plan the rounding left short kept every
 * unplaced replica through the polish, even where two classes together
 * could take one by moving others between them or by leaving replicas
 * of a lower priority in its place.
 */
static void pair_offer(const struct polish *ps, struct pair_job *b)
{
	const struct problem *p = ps->c->p;
	const struct arcidx *ix = &ps->c->ix;
	size_t t, a;

	memset(b->off, 0, p->ndemands * sizeof(*b->off));
	for (t = 0; t < job_nclasses(b); t++) {
		size_t k = job_class(b, t);
		for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
			int d = p->arcs[ix->byk[a]].d;
			double u = ps->cur.unplaced[d];
			if (u > 1e-6 && b->off[d] == 0) {
				b->off[d] = u;
				b->q[d] += u;
				b->old += p->demands[d].penalty * u;
			}
		}
	}
}

/*
 * The next wave: the pairs not yet done in this pass (done[]), in order,
 * until POLISH_WAVE of them are to be solved; a pair whose classes
 * nothing changed since it was last solved is listed without a job, and
 * so is one that empties a class once solved (it is tried once a polish).
 * Fills the jobs' classes, q and old from ps->x (ps->cur: its counts).
 * Returns the number of pairs listed in ps->wp (*njobs: of jobs).
 */
static size_t pair_wave(struct polish *ps, size_t *njobs)
{
	const struct problem *p = ps->c->p;
	const struct arcidx *ix = &ps->c->ix;
	const struct ilp_result *cur = &ps->cur;
	const struct pair *pairs = ps->pairs;
	const char *done = ps->done;
	const long *seen = ps->seen, *changed = ps->changed;
	struct wave_pair *wp = ps->wp;
	struct pair_job *job = ps->pj.job;
	size_t n = 0, nj = 0, pi, t, a;

	for (pi = 0; pi < ps->npairs && nj < POLISH_WAVE; pi++) {
		size_t k1 = pairs[pi].k1, k2 = pairs[pi].k2, kd = pairs[pi].kd;
		struct pair_job *b = &job[nj];
		if (done[pi])
			continue;
		wp[n].pi = pi;
		wp[n].job = -1;
		n++;
		if (seen[pi] && (kd != NO_CLASS || (changed[k1] < seen[pi] && changed[k2] < seen[pi])))
			continue; /* nothing new since it was last solved, or an emptying tried */
		wp[n - 1].job = (long)nj;
		b->ks[0] = k1;
		b->ks[1] = k2;
		b->nk = k1 == k2 ? 1 : 2;
		b->kd = kd;
		b->old = 0;
		memset(b->q, 0, p->ndemands * sizeof(*b->q));
		for (t = 0; t < job_nclasses(b); t++) {
			size_t k = job_class(b, t);
			b->old += class_cost(ps->c, k, ps->x);
			for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++)
				b->q[p->arcs[ix->byk[a]].d] += cur->arc[ix->byk[a]];
		}
		pair_offer(ps, b);
		b->old -= 1e-6 * fmax(1, fabs(b->old)); /* cheaper by more than rounding */
		nj++;
	}
	*njobs = nj;
	return n;
}

/* Whether a pair before pr in this wave changed (or put off) one of pr's classes. */
static int pair_moved(const struct polish *ps, const struct pair *pr)
{
	return ps->moved[pr->k1] || ps->moved[pr->k2] || (pr->kd != NO_CLASS && ps->moved[pr->kd]);
}

/*
 * Whether a pair taken before job b in this wave placed replicas offered
 * to b too (pair_offer offers each wave's pairs the same ones): b's plan
 * would place them twice, so it waits for the next wave.
 */
static int offer_taken(const struct polish *ps, const struct pair_job *b)
{
	size_t d;

	for (d = 0; d < ps->c->p->ndemands; d++)
		if (b->off[d] > 0 && ps->cur.unplaced[d] < b->off[d] - 1e-9)
			return 1;
	return 0;
}

/* Marks pr's classes changed (or put off) in this wave. */
static void pair_mark(struct polish *ps, const struct pair *pr)
{
	ps->moved[pr->k1] = ps->moved[pr->k2] = 1;
	if (pr->kd != NO_CLASS)
		ps->moved[pr->kd] = 1;
}

/*
 * Takes the result of the wave's w-th pair: put off to the next wave
 * when a pair before it changed (or put off) one of its classes;
 * otherwise, when its MIP found the two cheaper (with the class they
 * empty), the pair's plan replaces theirs in ps->x if the whole plan,
 * made concrete, is cheaper too.  Past the polish's deadline no pair is
 * dealt: that time is kept for the deals of the plan (ilp_search_by).
 */
static void polish_take(struct polish *ps, size_t w)
{
	const struct problem *p = ps->c->p;
	const struct arcidx *ix = &ps->c->ix;
	const struct cols *cl = &ps->c->cl;
	struct wave_pair *wp = ps->wp;
	struct pair_job *b;
	double fo, *fixed;
	size_t t, ci, i;
	int m;

	if (pair_moved(ps, &ps->pairs[wp[w].pi]) || (wp[w].job >= 0 && offer_taken(ps, &ps->pj.job[wp[w].job]))) {
		pair_mark(ps, &ps->pairs[wp[w].pi]);
		ps->wasted += wp[w].job >= 0;
		return;
	}
	ps->done[wp[w].pi] = 1;
	if (wp[w].job < 0)
		return;
	ps->seen[wp[w].pi] = ps->stamp++;
	b = &ps->pj.job[wp[w].job];
	ps->tried += b->kd != NO_CLASS;
	if (b->rc || b->obj >= b->old)
		return;
	if (!ilp_ms_left(ps->pj.deadline))
		return; /* no time for its deal: kept for the plan's (ilp_search_by) */
	for (t = 0; t < job_nclasses(b); t++) {
		size_t k = job_class(b, t), a;
		for (m = 0; m < MODE_COUNT; m++)
			ps->cur.nmode[k * MODE_COUNT + (size_t)m] = b->got.nmode[k * MODE_COUNT + (size_t)m];
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			ps->cur.ncfg[k][ci] = b->got.ncfg[k][ci];
		for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++)
			ps->cur.arc[ix->byk[a]] = b->got.arc[ix->byk[a]];
	}
	for (i = 0; i < p->ndemands; i++)
		ps->cur.unplaced[i] += b->got.unplaced[i] - b->off[i];
	ilp_counts_vector(p, cl, &ps->cur, ps->xc);
	ps->t_deal -= util_now_s();
	fixed = ilp_repair_vector(ps->c, ps->xc);
	ps->t_deal += util_now_s();
	fo = ilp_vec_obj(ps->c->P, fixed);
	if (fo >= ps->concrete - 1e-6 * fmax(1, fabs(ps->concrete))) {
		ilp_take_plan(p, cl, ps->x, &ps->cur); /* dearer once dealt with the rest: back */
		free(fixed);
		ps->dearer++;
		return;
	}
	memcpy(ps->x, ps->xc, ((size_t)cl->ncols + 1) * sizeof(*ps->x));
	free(*ps->made);
	*ps->made = fixed;
	ps->concrete = fo;
	for (t = 0; t < job_nclasses(b); t++)
		ps->changed[job_class(b, t)] = ps->seen[wp[w].pi];
	pair_mark(ps, &ps->pairs[wp[w].pi]);
	ps->emptied += b->kd != NO_CLASS;
	ps->found = 1;
	ps->better++;
}

/* One wave (pair_wave, solved at once, taken in order); 0 when no pair was left in this pass. */
static int polish_wave(struct polish *ps)
{
	size_t n, nj, w;
	double t;

	n = pair_wave(ps, &nj);
	if (!n)
		return 0;
	/*
	 * Solved at once, each against the plan before the wave; then taken
	 * in order.  A pair whose class a pair before it changed (or put off)
	 * is put off to the next wave, with its classes, so that every
	 * result taken is the one it would have been in order.
	 */
	t = util_now_s();
	par_run(nj, ps->c->threads, pair_job_run, &ps->pj, ilp_glpk_thread_end);
	if (ps->pj.level == POLISH_LEVEL_SHORT)	/* the pace of this run, load and all (ilp_search.c's tail) */
		ps->st.wave_s = fmax(ps->st.wave_s, util_now_s() - t);
	ps->st.mips[ps->pj.level] += (long)nj;
	memset(ps->moved, 0, ps->c->p->nclasses);
	for (w = 0; w < n; w++)
		polish_take(ps, w);
	return 1;
}

/* Allocates ps's arrays and jobs (ps->c, x, made and concrete set), with the pairs of x against lp. */
static void polish_alloc(struct polish *ps, const double *lp, int eject)
{
	const struct problem *p = ps->c->p;
	size_t ng = p->nclasses * MODE_COUNT, w;

	ps->changed = xcalloc(p->nclasses + 1, sizeof(*ps->changed));
	ps->stamp = 1;
	ps->xc = xcalloc((size_t)ps->c->cl.ncols + 1, sizeof(*ps->xc));
	ps->moved = xcalloc(p->nclasses + 1, 1);
	*ps->made = NULL;
	ilp_result_alloc(p, &ps->cur);
	ilp_take_plan(p, &ps->c->cl, ps->x, &ps->cur);
	ps->npairs = polish_pairs(ps->c, ps->x, ps->concrete, lp, eject, &ps->pairs);
	ps->seen = xcalloc(ps->npairs + 1, sizeof(*ps->seen));
	ps->done = xcalloc(ps->npairs + 1, 1);
	ps->wp = xcalloc(ps->npairs + 1, sizeof(*ps->wp));
	ps->pj.c = ps->c;
	ps->pj.x = ps->x;
	ps->pj.job = xcalloc(POLISH_WAVE, sizeof(*ps->pj.job));
	for (w = 0; w < POLISH_WAVE; w++) {
		ps->pj.job[w].q = xcalloc(p->ndemands + 1, sizeof(*ps->pj.job[w].q));
		ps->pj.job[w].off = xcalloc(p->ndemands + 1, sizeof(*ps->pj.job[w].off));
		ilp_shrink_alloc(&ps->pj.job[w].sh, ng);
		ilp_result_alloc(p, &ps->pj.job[w].got);
	}
}

static void polish_free(struct polish *ps)
{
	const struct problem *p = ps->c->p;
	size_t w;

	free(ps->xc);
	for (w = 0; w < POLISH_WAVE; w++) {
		free(ps->pj.job[w].q);
		free(ps->pj.job[w].off);
		ilp_shrink_free(&ps->pj.job[w].sh);
		ilp_result_release(p, &ps->pj.job[w].got);
	}
	free(ps->pj.job);
	free(ps->pairs);
	free(ps->seen);
	free(ps->done);
	free(ps->wp);
	free(ps->moved);
	free(ps->changed);
	ilp_result_release(p, &ps->cur);
}

/*
 * Whether a converged polish goes on at the next level: after the short
 * passes always, after the deep ones only when the plan made concrete
 * places every replica.  Otherwise the time goes to the branch-and-cut,
 * which on such tight fleets finds cheaper plans than the polish (as for
 * more starts, ilp.c).
 */
static int polish_deeper(const struct polish *ps)
{
	const double *cx = *ps->made ? *ps->made : ps->x;

	return ps->pj.level == POLISH_LEVEL_SHORT ||
	       (ps->pj.level == POLISH_LEVEL_DEEP && ilp_unplaced_sum(ps->c->p, &ps->c->cl, cx) < 0.5);
}

int ilp_polish(const struct ilp_ctx *c, double *x, double x_obj, const struct polish_opts *po, double **made,
	       struct polish_stats *st)
{
	const double *lp = po->lp;
	double deadline = po->deadline;
	unsigned passes = po->passes;
	struct polish ps;
	size_t pi;

	memset(&ps, 0, sizeof(ps));
	ps.c = c;
	ps.x = x;
	ps.made = made;
	ps.concrete = x_obj;
	ps.pj.deadline = deadline;
	ps.pj.level = passes & POLISH_SHORT ? POLISH_LEVEL_SHORT : POLISH_LEVEL_DEEP;
	polish_alloc(&ps, lp, !!(passes & POLISH_EJECT));
	ps.found = 1;
	while (ps.found && ilp_ms_left(deadline) > 0 && !interrupt_pending()) {
		ps.found = 0;
		memset(ps.done, 0, ps.npairs);
		while (ilp_ms_left(deadline) > 0 && !interrupt_pending() && polish_wave(&ps))
			;
		if (!ps.found && (passes & POLISH_DEEP) && polish_deeper(&ps)) {
			/* converged: every pair once more, deeper, then with cuts */
			ps.pj.level++;
			ps.found = 1;
			for (pi = 0; pi < ps.npairs; pi++)
				if (ps.pairs[pi].kd == NO_CLASS)
					ps.seen[pi] = 0; /* an emptying is tried once */
		}
	}
	glp_printf("gpuplan-ilp: polish: %ld pair MIPs (%ld short, %ld deep, %ld deep with cuts; %ld solved again, after "
		   "a pair before them in their wave changed), %d cheaper, %ld of those dearer made concrete; %d of %ld "
		   "emptied a class (%.2f s in deals; longest short wave %.2f s)\n",
		   ps.st.mips[POLISH_LEVEL_SHORT] + ps.st.mips[POLISH_LEVEL_DEEP] + ps.st.mips[POLISH_LEVEL_CUTS],
		   ps.st.mips[POLISH_LEVEL_SHORT], ps.st.mips[POLISH_LEVEL_DEEP], ps.st.mips[POLISH_LEVEL_CUTS],
		   ps.wasted, ps.better + (int)ps.dearer, ps.dearer, ps.emptied, ps.tried, ps.t_deal, ps.st.wave_s);
	if (st)
		*st = ps.st;
	polish_free(&ps);
	return ps.better;
}
