/*
 * ilp_starts.c - the polish's starts (ilp_starts.h): the first polish,
 * of the cheapest plan made concrete, or first of a plan whose deal
 * lost replicas (a lossy start) where that is cheaper on the model;
 * then the other starts in the time left.
 *
 * Plans are compared made concrete, where a replica the deal lost is
 * charged its penalty: a plan of the model that sums CPU and RAM over a
 * class's nodes can cost far less than the others before its deal and
 * far more after it, for a few replicas no single node had room for.
 * The polish is what places such replicas (its pair MIPs are offered
 * the replicas the plan leaves unplaced, ilp_polish.c, pair_offer), and
 * from such a plan it can end cheaper than from the cheapest plan made
 * concrete: the lossy start's plan is the better packing once those few
 * replicas find room.  So the cheapest lossy start on the model (another
 * solver's plan, plan --start; a rounding's) is polished first when it
 * costs less on the model than the cheapest plan made concrete by more
 * than LOSSY_MARGIN of it, and that plan places every replica: its cost
 * is then a plan's, a fair mark; one that leaves replicas out sheds their
 * penalties in its own polish, so what it is worth is not known before
 * it.  Its polish must earn its time: once its short
 * passes end, or past LOSSY_SHARE of the time left, it gives up unless
 * its plan made concrete is by then cheaper than the plan it went
 * before, which is then polished as it would have been.  When it is
 * kept, that plan is the first of the other starts (ilp_starts_more).
 * Under a node limit the polish gives up only at the end of its short
 * passes: no clock, the same plan on any machine.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "util.h"
#include "ilp_bound.h"
#include "ilp_glpk.h"
#include "ilp_polish.h"
#include "ilp_starts.h"
#include "ilp_vec.h"
#include "banned.h"

/*
 * Under a time limit, the share of the time left that a lossy start's
 * polish has to become cheaper made concrete than the plan it goes
 * before; past it, or at the end of its short passes, it gives up.
 */
#define LOSSY_SHARE 0.5

void ilp_lossy_offer(struct lossy_start *l, double **x, double fobj, double funplaced, double model, double unplaced)
{
	if (!*x || !(funplaced > unplaced + 0.5) || (l->x && !(model < l->model)))
		return;
	free(l->x);
	l->x = *x;
	*x = NULL;
	l->obj = fobj;
	l->model = model;
}

int ilp_lossy_first(const struct lossy_start *l, double start_obj, double start_unplaced)
{
	return l->x && start_unplaced < 0.5 && l->obj > start_obj + 1e-6 * fmax(1, fabs(start_obj)) &&
	       l->model < start_obj - LOSSY_MARGIN * fabs(start_obj);
}

int ilp_starts_time(const struct ilp_ctx *c)
{
	return ilp_ms_left(ilp_search_by(c)) > 0 && !interrupt_pending();
}

int ilp_starts_polish(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, double *y, double *y_obj,
		      unsigned passes, double give_up)
{
	struct polish_opts po = { lp, ilp_search_by(c), passes, give_up, 0 };
	struct polish_stats st;
	double *fy, fo, now = util_now_s();
	int better;

	if (give_up > 0 && !isinf(po.deadline))
		po.check_by = now + LOSSY_SHARE * fmax(0, po.deadline - now);
	better = ilp_polish(c, y, *y_obj, &po, &fy, &st);
	pl->wave_s = fmax(pl->wave_s, st.wave_s);
	if (better) {
		fo = ilp_vec_obj(c->P, fy);
		glp_printf("gpuplan-ilp: polish: %d pairs cheaper; objective %.2f unplaced %.0f; made concrete %.2f "
			   "unplaced %.0f (%.2f s)\n", better, ilp_vec_obj(c->P, y), ilp_unplaced_sum(c->p, &c->cl, y),
			   fo, ilp_unplaced_sum(c->p, &c->cl, fy), util_now_s() - c->t0);
		*y_obj = fo;
		ilp_keep_cheapest(&pl->rounded, &pl->round_obj, fy, fo);
		if (pl->rounded == fy) {
			ilp_admit_arcs(c, pl->rounded, pl->in_set);
			free(pl->untripled);	/* the search's start goes with the plan (struct ilp_plans) */
			pl->untripled = st.untripled;
			st.untripled = NULL;
		}
	}
	free(st.untripled);
	return st.gave_up;
}

/*
 * The first polish's triples (POLISH_TRIPLE) when the plan y leaves
 * replicas unplaced, the case they were made for: a replica placed only
 * by a cycle over three classes.  Where y places every replica the time
 * they would take is the other starts' (ilp_starts_more), whose deep
 * polishes reach cheaper plans than triples did (docs/benchmarks.md,
 * "Triples of classes in the polish").
 */
static unsigned polish_triples(const struct ilp_ctx *c, const double *y)
{
	return ilp_unplaced_sum(c->p, &c->cl, y) >= 0.5 ? POLISH_TRIPLE : 0;
}

/* Of the start's lossy plan and the rounds', the cheaper on the model (the start's on a tie); the other freed. */
static struct lossy_start *lossy_pick(struct ilp_plans *pl, struct round_starts *more)
{
	struct lossy_start *a = &pl->lossy, *b = &more->lossy;

	if (!b->x || (a->x && a->model <= b->model)) {
		free(b->x);
		b->x = NULL;
		return a;
	}
	free(a->x);
	a->x = NULL;
	return b;
}

/* The plan x (costing obj made concrete) first of more's starts; the last one dropped when more is full. */
static void more_first(struct round_starts *more, double *x, double obj)
{
	size_t i;

	if (more->n == ROUND_STARTS)
		free(more->x[--more->n]);
	for (i = more->n; i > 0; i--) {
		more->x[i] = more->x[i - 1];
		more->obj[i] = more->obj[i - 1];
	}
	more->x[0] = x;
	more->obj[0] = obj;
	more->n++;
}

/*
 * The lossy start l polished first (ilp_lossy_first), giving up against
 * pl->rounded's cost.  1 when its plan made concrete ended cheaper: then
 * pl->rounded is that plan, the plan it went before the first of more's
 * starts, and *deep what it costs; else 0, pl->rounded as it was.  l's
 * plan is consumed.
 */
static int lossy_polish(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more,
			struct lossy_start *l, double *deep)
{
	size_t n = (size_t)c->cl.ncols + 1;
	double *saved = xcalloc(n, sizeof(*saved)), saved_obj = pl->round_obj, obj = l->obj;
	int gave_up;

	memcpy(saved, pl->rounded, n * sizeof(*saved));
	glp_printf("gpuplan-ilp: lossy start: objective %.2f on the model, made concrete %.2f unplaced %.0f, the start "
		   "%.2f: polished first\n", l->model, l->obj, ilp_unplaced_sum(c->p, &c->cl, l->x), saved_obj);
	gave_up = ilp_starts_polish(c, pl, lp, l->x, &obj, POLISH_BOTH | POLISH_EJECT | polish_triples(c, l->x), saved_obj);
	free(l->x);
	l->x = NULL;
	if (gave_up || !(obj < saved_obj - 1e-6 * fmax(1, fabs(saved_obj)))) {
		glp_printf("gpuplan-ilp: lossy start: %.2f made concrete, not under the start: the start polished\n", obj);
		free(saved);
		return 0;
	}
	more_first(more, saved, saved_obj);
	*deep = obj;
	return 1;
}

double ilp_starts_first(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more)
{
	struct lossy_start *l = lossy_pick(pl, more);
	double deep = HUGE_VAL, *y;
	int first = pl->rounded && ilp_lossy_first(l, pl->round_obj, ilp_unplaced_sum(c->p, &c->cl, pl->rounded));

	if (l->x && pl->rounded && !first)
		glp_printf("gpuplan-ilp: lossy start: objective %.2f on the model, made concrete %.2f unplaced %.0f, the "
			   "start %.2f: not polished first\n", l->model, l->obj, ilp_unplaced_sum(c->p, &c->cl, l->x),
			   pl->round_obj);
	if (first && !interrupt_pending() && lossy_polish(c, pl, lp, more, l, &deep))
		return deep;
	free(l->x);
	l->x = NULL;
	if (pl->rounded && !interrupt_pending()) {
		y = xcalloc((size_t)c->cl.ncols + 1, sizeof(*y));
		memcpy(y, pl->rounded, ((size_t)c->cl.ncols + 1) * sizeof(*y));
		deep = pl->round_obj;
		ilp_starts_polish(c, pl, lp, y, &deep, POLISH_BOTH | POLISH_EJECT | polish_triples(c, y), 0);
		free(y);
	}
	return deep;
}

/*
 * In the time the first polish left: the other starts (more) polished
 * too, a short polish each in order, then deep polishes of what those
 * reached, the cheapest first, leaving out a plan that costs what one
 * polished deep already does (the same local optimum, most likely;
 * `deep`: the first polish's result).  Polishes from different starts
 * end in different local optima, and the cheapest of the other starts'
 * short polishes, polished deep, can beat the first polish's plan
 * (docs/benchmarks.md, "More starts for the polish").
 */
static void starts_more(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more,
			double deep)
{
	double done[ROUND_STARTS + 1];
	size_t i, t, nd = 1, order[ROUND_STARTS];

	done[0] = deep;
	for (i = 0; i < more->n && ilp_starts_time(c); i++)
		ilp_starts_polish(c, pl, lp, more->x[i], &more->obj[i], POLISH_SHORT, 0);
	for (i = 0; i < more->n; i++) {	/* by cost, ties in list order: an insertion sort of ROUND_STARTS */
		for (t = i; t > 0 && more->obj[order[t - 1]] > more->obj[i]; t--)
			order[t] = order[t - 1];
		order[t] = i;
	}
	for (i = 0; i < more->n && ilp_starts_time(c); i++) {
		size_t k = order[i];
		if (ilp_same_cost(done, nd, more->obj[k]))
			continue;
		ilp_starts_polish(c, pl, lp, more->x[k], &more->obj[k], POLISH_DEEP, 0);
		done[nd++] = more->obj[k];
	}
}

void ilp_starts_more(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more,
		     double deep)
{
	size_t i;

	/* a plan that leaves replicas out: the branch-and-cut gets the time (polishing it was time lost) */
	if (!pl->rounded || ilp_unplaced_sum(c->p, &c->cl, pl->rounded) < 0.5)
		starts_more(c, pl, lp, more, deep);
	for (i = 0; i < more->n; i++)
		free(more->x[i]);
	more->n = 0;
}
