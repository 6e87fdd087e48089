/*
 * ilp_polish.c - the cheapest concrete plan re-solved two classes at a
 * time.  Each pair of classes (ilp_polish_pairs.c) is solved again as one MIP
 * (ilp_sub_mip) for the replicas the plan gives the two, every other
 * class as the plan has it, with the plan offered as the first
 * incumbent and a short search.  A cheaper plan of
 * the two replaces theirs when the whole plan, made concrete, is then
 * cheaper too (the two may each deal well alone and not together: a
 * concrete plan deals all classes one way, first-fit or balanced), also
 * when its own deal over real nodes still loses replicas: made concrete
 * with the rest, those are placed on the room other classes leave.
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
 *
 * A pair moves replicas between its two classes only, so a move that
 * needs three classes at once (a node of each changing its mode, each
 * taking what the one before it gives up, to place replicas none of
 * them could alone) is never found one pair at a time: no step of it is
 * cheaper alone.  With POLISH_TRIPLE, once the pairs change nothing the
 * polish solves triples of classes that share demands (ilp_polish_pairs.c) as
 * one MIP each, the same way, then the pairs again when a triple changed
 * the plan, until a triple pass changes nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_glpk.h"
#include "ilp_polish.h"
#include "ilp_polish_pairs.h"
#include "ilp_shrink.h"
#include "ilp_sub.h"
#include "ilp_vec.h"
#include "banned.h"

#define POLISH_WAVE 4	/* pairs solved at once: fixed, so the plan is the same on any number of threads */

/*
 * Under a time limit, the share of the time left when the first triple
 * pass starts that the triples may take, in all their passes: the rest
 * is kept for what follows the polish (the other starts' polishes, the
 * branch-and-cut), which on some fleets finds cheaper plans than the
 * polish.  Under a node limit there is no deadline, and no share.
 */
#define TRIPLE_SHARE 0.5

/* One pair (or triple) of classes solved again (polish), a job of a wave. */
struct pair_job {
	size_t ks[3], nk;	/* the classes; 1, 2 or 3 of them */
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
	/*
	 * An emptying or a triple is a MIP the short pass never saw: searched
	 * deep.  A triple takes cuts only at the level that does (generating
	 * them at its root took the time more triples would have had).
	 */
	sa.deep = b->kd != NO_CLASS || b->nk == 3 ? SUB_DEEP_ALWAYS : pj->level > POLISH_LEVEL_SHORT ? SUB_DEEP : 0;
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
	size_t ntri, tri_all;	/* of the pairs, triples; the triples that share demands (struct pair_list) */
	int triples;		/* this pass solves the triples (the others the rest) */
	long *seen;		/* [pair]: stamp when last solved, 0: never */
	char *done;		/* [pair]: taken in this pass */
	long *changed;		/* [class]: stamp of the pair that last changed it */
	char *moved;		/* [class]: changed or put off in this wave */
	struct wave_pair *wp;	/* [npairs]: the wave */
	struct pair_jobs pj;	/* the wave's jobs */
	long stamp;		/* the next stamp */
	long wasted, dearer;	/* pair MIPs solved again; cheaper but dearer made concrete */
	struct polish_stats st;	/* pair MIPs solved, per level; triple MIPs */
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
 * of a lower priority in its place.  Only the MIP's own classes count,
 * not the class an emptying holds at 0: its arcs are not in the MIP, and
 * a replica offered with no arc there was neither placed nor left in
 * the MIP's plan (no unplaced column), which its cost did not charge.
 */
static void pair_offer(const struct polish *ps, struct pair_job *b)
{
	const struct problem *p = ps->c->p;
	const struct arcidx *ix = &ps->c->ix;
	size_t t, a;

	memset(b->off, 0, p->ndemands * sizeof(*b->off));
	for (t = 0; t < b->nk; t++) {
		size_t k = b->ks[t];
		for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
			int d = p->arcs[ix->byk[a]].d;
			double u = ps->cur.unplaced[d];
			if (u > 1e-6 && b->off[d] == 0) {
				b->off[d] = u;
				b->q[d] += u;
				b->old += p->demands[d].solve_penalty * u;
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
		const struct pair *pr = &pairs[pi];
		struct pair_job *b = &job[nj];
		int fresh = 0;
		if (done[pi] || (pr->nk == 3) != ps->triples)
			continue;
		wp[n].pi = pi;
		wp[n].job = -1;
		n++;
		for (t = 0; t < pr->nk; t++)
			fresh |= changed[pr->k[t]] >= seen[pi];
		if (seen[pi] && (pr->kd != NO_CLASS || !fresh))
			continue; /* nothing new since it was last solved, or an emptying tried */
		wp[n - 1].job = (long)nj;
		memcpy(b->ks, pr->k, sizeof(b->ks));
		b->nk = pr->nk;
		b->kd = pr->kd;
		b->old = 0;
		memset(b->q, 0, p->ndemands * sizeof(*b->q));
		for (t = 0; t < job_nclasses(b); t++) {
			size_t k = job_class(b, t);
			b->old += ilp_class_cost(ps->c, k, ps->x);
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
	size_t t;

	for (t = 0; t < pr->nk; t++)
		if (ps->moved[pr->k[t]])
			return 1;
	return pr->kd != NO_CLASS && ps->moved[pr->kd];
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
	size_t t;

	for (t = 0; t < pr->nk; t++)
		ps->moved[pr->k[t]] = 1;
	if (pr->kd != NO_CLASS)
		ps->moved[pr->kd] = 1;
}

int ilp_polish_worth_dealing(int rc, double obj, double old, int all_placed)
{
	return (rc == 0 || (rc == 1 && all_placed)) && obj < old;
}

/*
 * Takes the result of the wave's w-th pair: put off to the next wave
 * when a pair before it changed (or put off) one of its classes;
 * otherwise, when its MIP found the two cheaper (with the class they
 * empty), the pair's plan replaces theirs in ps->x if the whole plan,
 * made concrete, is cheaper too.  That holds also for a plan whose deal
 * over the pair's own nodes still lost replicas after ilp_sub_mip's
 * tries (its 1): made concrete with the other classes, the replicas it
 * loses are placed as the greedy planner places them (ilp_repair_vector),
 * on room the other classes leave, which can cost less than the pair
 * saves (a class that leaves a licensed mode saves a licence per GPU);
 * the whole plan's cost decides.  Only while the plan places every
 * replica: before that, what such a deal loses competes for the room
 * the unplaced replicas need, and the polish places those first (as
 * it empties a class only then).  Past the polish's deadline no pair is
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
	if (!ilp_polish_worth_dealing(b->rc, b->obj, b->old, ilp_result_unplaced(ps->c->p, &ps->cur) < 0.5))
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
	ps->st.triples_better += b->nk == 3;
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
	/* the pace of this run, load and all (ilp_search.c's tail) */
	if (ps->pj.level == POLISH_LEVEL_SHORT && !ps->triples)
		ps->st.wave_s = fmax(ps->st.wave_s, util_now_s() - t);
	if (ps->triples)
		ps->st.triples += (long)nj;
	else
		ps->st.mips[ps->pj.level] += (long)nj;
	memset(ps->moved, 0, ps->c->p->nclasses);
	for (w = 0; w < n; w++)
		polish_take(ps, w);
	return 1;
}

/* Allocates ps's arrays and jobs (ps->c, x, made and concrete set), with the pairs of x against lp for passes. */
static void polish_alloc(struct polish *ps, const double *lp, unsigned passes)
{
	const struct problem *p = ps->c->p;
	size_t ng = p->nclasses * MODE_COUNT, w;
	struct pair_list pl;

	ps->changed = xcalloc(p->nclasses + 1, sizeof(*ps->changed));
	ps->stamp = 1;
	ps->xc = xcalloc((size_t)ps->c->cl.ncols + 1, sizeof(*ps->xc));
	ps->moved = xcalloc(p->nclasses + 1, 1);
	*ps->made = NULL;
	ilp_result_alloc(p, &ps->cur);
	ilp_take_plan(p, &ps->c->cl, ps->x, &ps->cur);
	ilp_polish_pairs(ps->c, ps->x, ps->concrete, lp, passes, &pl);
	ps->pairs = pl.pairs;
	ps->npairs = pl.n;
	ps->ntri = pl.ntri;
	ps->tri_all = pl.tri_all;
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

/*
 * The plan as the pairs left it when the first triple pass starts, made
 * concrete (ps->x is, until a pair made it cheaper: then *ps->made), into
 * ps->st.untripled: ilp.c starts the branch-and-cut from it when the
 * triples then made the plan cheaper (ilp_starts_polish).
 */
static void polish_untripled(struct polish *ps)
{
	size_t n = (size_t)ps->c->cl.ncols + 1;

	ps->st.untripled = xcalloc(n, sizeof(*ps->st.untripled));
	memcpy(ps->st.untripled, *ps->made ? *ps->made : ps->x, n * sizeof(*ps->st.untripled));
}

/*
 * Whether the polish gives up (polish_opts.give_up): its plan made
 * concrete costs give_up or more when its short passes have converged
 * (converged) or at check_by.
 */
static int polish_give_up(struct polish *ps, const struct polish_opts *po, int converged)
{
	if (!(po->give_up > 0) || ps->concrete < po->give_up)
		return 0;
	if (converged || (po->check_by > 0 && util_now_s() >= po->check_by))
		ps->st.gave_up = 1;
	return ps->st.gave_up;
}

int ilp_polish(const struct ilp_ctx *c, double *x, double x_obj, const struct polish_opts *po, double **made,
	       struct polish_stats *st)
{
	const double *lp = po->lp;
	double deadline = po->deadline, tri_by = deadline;
	unsigned passes = po->passes;
	struct polish ps;
	size_t pi;
	int tri_started = 0;

	memset(&ps, 0, sizeof(ps));
	ps.c = c;
	ps.x = x;
	ps.made = made;
	ps.concrete = x_obj;
	ps.pj.deadline = deadline;
	ps.pj.level = passes & POLISH_SHORT ? POLISH_LEVEL_SHORT : POLISH_LEVEL_DEEP;
	polish_alloc(&ps, lp, passes);
	ps.found = 1;
	while (ps.found && ilp_ms_left(deadline) > 0 && !interrupt_pending()) {
		ps.found = 0;
		memset(ps.done, 0, ps.npairs);
		ps.pj.deadline = ps.triples ? tri_by : deadline;
		while (ilp_ms_left(ps.pj.deadline) > 0 && !interrupt_pending() && !polish_give_up(&ps, po, 0) &&
		       polish_wave(&ps))
			;
		if (ps.st.gave_up || (!ps.found && ps.pj.level == POLISH_LEVEL_SHORT && polish_give_up(&ps, po, 1)))
			break;
		if (ps.triples) {
			ps.triples = 0; /* after a triple pass: the pairs again if it changed the plan, else the end */
		} else if (!ps.found && (passes & POLISH_DEEP) && polish_deeper(&ps)) {
			/* converged: every pair once more, deeper, then with cuts */
			ps.pj.level++;
			ps.found = 1;
			for (pi = 0; pi < ps.npairs; pi++)
				if (ps.pairs[pi].kd == NO_CLASS)
					ps.seen[pi] = 0; /* an emptying is tried once */
		} else if (!ps.found && ps.ntri) {
			if (!tri_started++) {
				polish_untripled(&ps);
				if (!isinf(deadline))
					tri_by = util_now_s() + TRIPLE_SHARE * fmax(0, deadline - util_now_s());
			}
			ps.triples = ilp_ms_left(tri_by) > 0; /* the pairs at their last level change nothing */
			ps.found = ps.triples;
		}
	}
	glp_printf("gpuplan-ilp: polish: %ld pair MIPs (%ld short, %ld deep, %ld deep with cuts; %ld solved again, after "
		   "a pair before them in their wave changed), %d cheaper, %ld of those dearer made concrete; %d of %ld "
		   "emptied a class; %ld triple MIPs (%zu triples of %zu that share demands), %d cheaper (%.2f s in "
		   "deals; longest short wave %.2f s)\n",
		   ps.st.mips[POLISH_LEVEL_SHORT] + ps.st.mips[POLISH_LEVEL_DEEP] + ps.st.mips[POLISH_LEVEL_CUTS],
		   ps.st.mips[POLISH_LEVEL_SHORT], ps.st.mips[POLISH_LEVEL_DEEP], ps.st.mips[POLISH_LEVEL_CUTS],
		   ps.wasted, ps.better + (int)ps.dearer, ps.dearer, ps.emptied, ps.tried, ps.st.triples, ps.ntri,
		   ps.tri_all, ps.st.triples_better, ps.t_deal, ps.st.wave_s);
	if (ps.st.gave_up)
		glp_printf("gpuplan-ilp: polish: gave up: made concrete %.2f, not under %.2f\n", ps.concrete, po->give_up);
	if (!ps.st.triples_better || !st) {
		free(ps.st.untripled);
		ps.st.untripled = NULL;
	}
	if (st)
		*st = ps.st;
	polish_free(&ps);
	return ps.better;
}
