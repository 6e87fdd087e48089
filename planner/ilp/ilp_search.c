/*
 * ilp_search.c - branch-and-cut (glp_intopt) on the whole model, from
 * the better of the rounded and the warm plan (the rounded one as the
 * pairs left it where triples changed it: search_run), offered as
 * incumbents at its first heuristic call.  When sifting left arcs out, the search runs
 * on the working set: its plans are plans of the whole model, but its
 * bound is not, so the bound reported is the whole model's LP bound.
 * The search's plan is made concrete, and the rounded one stands when
 * that is cheaper.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "util.h"
#include "ilp_glpk.h"
#include "ilp_search.h"
#include "ilp_shrink.h"
#include "ilp_vec.h"
#include "banned.h"

/* What the search's callback needs and finds. */
struct cbinfo {
	const double *start[2];	/* incumbents to offer at the first GLP_IHEUR (1-based), or NULL */
	int injected;		/* they were offered */
	double bound;		/* the best node bound seen */
	int have_bound;		/* bound is set */
	long node_limit;	/* 0 = none */
	int node_stop;		/* stopped by the node limit */
	const struct ilp_progress_sink *progress; /* or NULL */
	double lp_bound;	/* the whole model's, for the progress's gap */
	const struct ilp_ctx *c;	/* the model's demands and unplaced columns (set by intopt_run) */
	int deal;		/* deal each new plan over real nodes (deal_bingo) */
	double *made, made_obj;	/* the cheapest of them made concrete (1-based columns of c->P), or NULL */
	/* the stopping gap (gap_reached), checked here, not by GLPK */
	double mip_gap;
	int gap_stop;		/* it stopped the search */
	double cost_obj, cost;	/* the last incumbent's objective whose cost was taken, and that cost */
	double made_lost;	/* what made cost more made concrete than on the model */
	double tail_by;		/* the search stops by here once made_obj < over (search_tail_by); 0: never */
	double over;		/* the rounded plan's cost, what made must beat to be polished after the search */
	double last, gap;	/* when the callback was last called; the longest between two calls so far */
	int tail_stop;		/* stopped for tail_by */
};

/*
 * The incumbent's objective in P less its unplaced replicas' penalties
 * (ilp_vec_cost), taken again only when the incumbent changed.
 */
static double incumbent_cost(glp_prob *P, struct cbinfo *cb)
{
	const struct problem *p = cb->c->p;
	double obj = glp_mip_obj_val(P), z = obj;
	size_t i;

	if (cb->cost_obj == obj)
		return cb->cost;
	for (i = 0; i < p->ndemands; i++)
		z -= p->demands[i].solve_penalty * glp_mip_col_val(P, cb->c->cl.u[i]);
	cb->cost_obj = obj;
	cb->cost = z;
	return z;
}

/* The incumbent's documented objective (ilp_vec_doc_obj), for the progress shown. */
static double incumbent_doc(glp_prob *P, const struct cbinfo *cb)
{
	const struct problem *p = cb->c->p;
	double z = glp_mip_obj_val(P);
	size_t i;

	for (i = 0; p->prio_spread && i < p->ndemands; i++)
		z += (p->demands[i].penalty - p->demands[i].solve_penalty) * glp_mip_col_val(P, cb->c->cl.u[i]);
	return z;
}

/*
 * The stopping gap (ilp_gap_within), where and as GLPK tests its own
 * relative gap (as each subproblem is taken up: GLP_IPREPRO comes right
 * after; the best open bound against the incumbent, a tree with no open
 * node proving it) but on the incumbent's cost: GLPK's, on the
 * objective, is left off (intopt_run), since on an objective of
 * penalties it let plans far above the bound pass.  Stops the search
 * when reached (cb->gap_stop, the cost in cb->cost).
 */
static int gap_reached(glp_tree *T, struct cbinfo *cb)
{
	glp_prob *P = glp_ios_get_prob(T);
	double obj, cost;
	int node;

	if (!(cb->mip_gap > 0) || glp_ios_reason(T) != GLP_IPREPRO || glp_mip_status(P) != GLP_FEAS)
		return 0;
	obj = glp_mip_obj_val(P);
	cost = incumbent_cost(P, cb);
	node = glp_ios_best_node(T);
	if (node && fabs(obj - glp_ios_node_bound(T, node)) > cb->mip_gap * (fabs(cost) + DBL_EPSILON))
		return 0;
	cb->gap_stop = 1;
	glp_ios_terminate(T);
	return 1;
}

/*
 * Whether the search stops now for the polish of its plan: it holds a
 * plan cheaper made concrete than the rounded one, which lost in the
 * deal what the model did not see (made concrete it costs more than on
 * the model: what a pair MIP against the concrete plan finds again),
 * and the next call may come after tail_by (GLPK calls back between
 * nodes and LPs, so the longest gap between two calls so far is kept
 * as a margin).
 */
static int tail_stop(struct cbinfo *cb)
{
	double now;

	if (!(cb->tail_by > 0))
		return 0;
	now = util_now_s();
	if (cb->last > 0)
		cb->gap = fmax(cb->gap, now - cb->last);
	cb->last = now;
	return cb->made && cb->made_obj < cb->over && cb->made_lost > 1e-6 * fmax(1, fabs(cb->made_obj)) &&
	       now + cb->gap >= cb->tail_by;
}

/*
 * A line in the log for each new plan of the search: on the model (x,
 * objective obj) and made concrete (fx, fo), with the replicas each
 * leaves unplaced by priority: what the deal lost, and of which
 * priority, is why a search's plan stands or not.
 */
static void bingo_log(const struct ilp_ctx *c, const double *x, double obj, const double *fx, double fo)
{
	char *on, *made;

	if (!c->verbose)
		return;
	on = ilp_vec_prio_unplaced(c, x);
	made = ilp_vec_prio_unplaced(c, fx);
	glp_printf("gpuplan-ilp: search plan: objective %.2f unplaced %s; made concrete %.2f unplaced %s (%.2f s)\n", obj,
		   on, fo, made, util_now_s() - c->t0);
	free(on);
	free(made);
}

/*
 * A new best plan of the search (GLP_IBINGO: presolve is off, so it is
 * in the columns of c->P) made concrete; kept in cb->made when cheaper
 * than those before.  The search's last plan is its cheapest on the
 * model, not always made concrete: its last one can deal worse than the
 * rounded plan while an earlier one deals better (test_ilp).
 */
static void deal_bingo(glp_tree *T, struct cbinfo *cb)
{
	const struct ilp_ctx *c = cb->c;
	glp_prob *P = glp_ios_get_prob(T);
	double *x, *fx, fo;
	int j;

	if (!cb->deal || glp_mip_status(P) != GLP_FEAS)
		return;
	x = xcalloc((size_t)c->cl.ncols + 1, sizeof(*x));
	for (j = 1; j <= c->cl.ncols; j++)
		x[j] = glp_mip_col_val(P, j);
	fx = ilp_repair_vector(c, x);
	fo = ilp_vec_obj(c->P, fx);
	bingo_log(c, x, glp_mip_obj_val(P), fx, fo);
	free(x);
	ilp_keep_cheapest(&cb->made, &cb->made_obj, fx, fo);
	if (cb->made == fx)
		cb->made_lost = fo - glp_mip_obj_val(P);
}

/* The search's best plan and bound to the progress sink, if any. */
static void tell_progress(glp_tree *T, const struct cbinfo *cb)
{
	glp_prob *P;
	double bound;

	if (!cb->progress)
		return;
	P = glp_ios_get_prob(T);
	bound = cb->have_bound && cb->bound > cb->lp_bound ? cb->bound : cb->lp_bound;
	ilp_progress_report(cb->progress, "search", glp_mip_status(P) == GLP_FEAS ? incumbent_doc(P, cb) : -1, bound);
}

static void callback(glp_tree *T, void *info)
{
	struct cbinfo *cb = info;
	int node;

	if (gap_reached(T, cb))
		return;
	if (interrupt_pending()) {
		glp_ios_terminate(T); /* SIGINT/SIGTERM: stop like a time limit */
		return;
	}
	if (cb->node_limit > 0) {
		int total;
		glp_ios_tree_size(T, NULL, NULL, &total);
		if (total >= cb->node_limit) {
			cb->node_stop = 1;
			glp_ios_terminate(T);
			return;
		}
	}
	if (tail_stop(cb)) {
		cb->tail_stop = 1;
		glp_ios_terminate(T); /* its plan's polish gets the rest (search_tail_by) */
		return;
	}
	switch (glp_ios_reason(T)) {
	case GLP_IHEUR:
		if (!cb->injected) {
			cb->injected = 1;
			if (cb->start[0])
				glp_ios_heur_sol(T, cb->start[0]);
			if (cb->start[1])
				glp_ios_heur_sol(T, cb->start[1]);
		}
		break;
	case GLP_ISELECT:
	case GLP_IBINGO:
		if (glp_ios_reason(T) == GLP_IBINGO)
			deal_bingo(T, cb);
		node = glp_ios_best_node(T);
		if (node) {
			double b = glp_ios_node_bound(T, node);
			if (!cb->have_bound || b > cb->bound) {
				cb->bound = b;
				cb->have_bound = 1;
			}
		}
		tell_progress(T, cb);
		break;
	default:
		break;
	}
}

double ilp_search_by(const struct ilp_ctx *c)
{
	return c->deadline - 2 * ilp_deal_tail(c);
}

/* The most of the search's time the tail for its plan's polish may take (search_tail_by). */
#define SEARCH_TAIL_SHARE 0.25

/*
 * When the search stops once it holds a plan that, made concrete, is
 * cheaper than the rounded one and lost in the deal (tail_stop): its
 * plans are the model's, dealt over real nodes but never polished, and
 * ilp.c polishes the one it reports after it (solve_polish_search) until
 * ilp_search_by.  So it stops a tail before that: one wave of short pair
 * MIPs at this run's pace (pl->wave_s, the longest the polishes before
 * took, on this machine under this load) and one deal (its plan made
 * concrete before the polish), so that the plans it finds late are
 * mostly still found.  Where its plans deal no cheaper than the rounded
 * one it runs to ilp_search_by: nothing to polish; so it does where its
 * plan lost nothing in the deal: the search itself goes on improving a
 * plan the model sees whole.  Never under a node limit (no clock: it
 * polishes after the whole search), nor when no wave was timed, nor when
 * the tail is more than SEARCH_TAIL_SHARE of the time the search has (a
 * starved run: the search needs that time more than a wave cut short
 * would use it).  0: never.
 */
static double search_tail_by(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl)
{
	double by = ilp_search_by(c), tail = pl->wave_s + ilp_deal_tail(c);

	if (o->node_limit > 0 || isinf(by) || !(pl->wave_s > 0) || tail > SEARCH_TAIL_SHARE * (by - util_now_s()))
		return 0;
	return by - tail;
}

/*
 * Runs glp_intopt on P (c->P or a copy: the same columns, its LP solved)
 * with cb's starts and node limit, until ilp_search_by (two deals' tails before the deadline);
 * *st: glp_mip_status.  Returns glp_intopt's return (GLP_ETMLIM, *st
 * GLP_UNDEF, when there was no time to start).
 */
static int intopt_run(const struct ilp_ctx *c, const struct ilp_opts *o, glp_prob *P, struct cbinfo *cb, int *st)
{
	glp_iocp iocp;
	int ret;

	glp_init_iocp(&iocp);
	iocp.presolve = GLP_OFF;	/* deal_bingo reads the plans in P's columns */
	iocp.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	/* room to make its plan concrete, here and once more in plan.c */
	iocp.tm_lim = ilp_ms_left(ilp_search_by(c));
	iocp.mip_gap = 0;	/* the callback tests the gap, on cost (gap_reached) */
	iocp.cb_func = callback;
	iocp.cb_info = cb;
	cb->node_limit = o->node_limit;
	cb->c = c;
	cb->mip_gap = o->mip_gap;
	cb->cost_obj = HUGE_VAL;
	if (!iocp.tm_lim || interrupt_pending()) {
		ret = GLP_ETMLIM;
		*st = GLP_UNDEF;
	} else {
		ret = glp_intopt(P, &iocp);
		*st = glp_mip_status(P);
		if (ret == GLP_ESTOP && cb->gap_stop)
			ret = GLP_EMIPGAP;	/* as GLPK's own stop on its gap said it */
	}
	return ret;
}

/* The search on S (search_model) from the starts in pl (intopt_run), and the bound a stop on the gap proves. */
static int search_run(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, glp_prob *S,
		      struct cbinfo *cb, int *st)
{
	int ret;

	/*
	 * From the plan the pairs left where triples then made it cheaper
	 * (pl->untripled): the triples' plan still stands against the
	 * search's at the end (search_concrete, tail_stop's `over`), and the
	 * search's path follows its incumbent, so from the triples' plan it
	 * reaches other plans than it did from the pairs', which can deal
	 * worse: most of its plans lose replicas in the deal, and one that
	 * deals whole is found or not by the path.  So the triples change
	 * the search's path in nothing and can only add a plan to it.
	 */
	cb->start[0] = pl->untripled ? pl->untripled : pl->rounded;
	cb->start[1] = pl->warm;
	cb->progress = o->progress;
	ret = intopt_run(c, o, S, cb, st);
	if (ret == GLP_EMIPGAP && *st == GLP_FEAS) {
		/*
		 * Stopped on the gap (gap_reached): the best node bound is within
		 * mip_gap of the plan's cost (|obj - bound| <= mip_gap x (|cost| +
		 * DBL_EPSILON), GLPK's own test on cost), perhaps at the root
		 * before any node selection the callback sees.  That is a
		 * proven bound.
		 */
		double obj = glp_mip_obj_val(S), b = obj - o->mip_gap * (fabs(cb->cost) + DBL_EPSILON);
		if (!cb->have_bound || b > cb->bound) {
			cb->bound = b;
			cb->have_bound = 1;
		}
	}
	return ret;
}

/* The search's plan on S into pl->x and r: objective, bound, status. */
static void search_read(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, glp_prob *S,
			const struct cbinfo *cb, struct ilp_result *r)
{
	double *x = pl->x;
	int j, st = glp_mip_status(S);

	r->objective = glp_mip_obj_val(S);
	for (j = 1; j <= c->cl.ncols; j++)
		x[j] = glp_mip_col_val(S, j);
	if (pl->restricted)
		r->bound = r->lp_bound; /* the search saw only the working set */
	else if (st == GLP_OPT)
		r->bound = r->objective;
	else
		r->bound = cb->have_bound ? fmax(cb->bound, r->lp_bound) : r->lp_bound;
	if (pl->restricted && r->status == ILP_OPTIMAL &&
	    !ilp_gap_within(r->objective, r->bound, ilp_vec_cost(c, x), o->mip_gap))
		r->status = ILP_FEASIBLE; /* optimal on the working set only */
}

/*
 * The search's plan pl->x made concrete, as the plan reported will be;
 * when that costs more than the best rounded plan (concrete already),
 * the rounded one stands: the search minimises the model, whose CPU and
 * RAM are per (class, mode), not per node.  (The starts that skip the
 * search are concrete already: a rounded plan or the greedy one.)
 */
static void search_concrete(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl,
			    const struct cbinfo *cb, struct ilp_result *r)
{
	size_t ncols = (size_t)c->cl.ncols;
	double *x = pl->x, *fx = ilp_repair_vector(c, x), fo = ilp_vec_obj(c->P, fx);

	if (cb->made && cb->made_obj < fo - 1e-6) {	/* a plan it found before deals better */
		memcpy(fx, cb->made, (ncols + 1) * sizeof(*fx));
		fo = cb->made_obj;
	}
	if (pl->rounded && pl->round_obj < fo - 1e-6) {
		memcpy(x, pl->rounded, (ncols + 1) * sizeof(*x));
		r->objective = pl->round_obj;
	} else {
		memcpy(x, fx, (ncols + 1) * sizeof(*x));
		r->objective = fo;
	}
	free(fx);
	if (r->status == ILP_OPTIMAL && !ilp_gap_within(r->objective, r->bound, ilp_vec_cost(c, x), o->mip_gap))
		r->status = ILP_FEASIBLE;
}

#define SEARCH_FEEDBACK 4	/* searches again, each with what the last deal lost taken off */

/*
 * One search again on Q, a copy of the model with CPU and RAM taken off,
 * from the plan pl->x, until ilp_search_by and within the node
 * limit; its plan into xm, and r->cut set when the clock (or a signal)
 * stopped it.  Returns 1 when it found a plan.
 */
static int feedback_once(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, glp_prob *Q,
			 double *xm, struct ilp_result *r)
{
	struct cbinfo cb;
	int j, ret, st, code;

	if (ilp_simplex(Q, 1, 0, ilp_search_by(c), &code) != LP_OPTIMAL)
		return 0;
	memset(&cb, 0, sizeof(cb));
	cb.start[0] = pl->x;
	ret = intopt_run(c, o, Q, &cb, &st);
	if ((ret == GLP_ETMLIM || ret == GLP_ESTOP) && !cb.node_stop)
		r->cut = 1;
	if (!(ret == 0 || ret == GLP_EMIPGAP || ret == GLP_ETMLIM || ret == GLP_ESTOP) || (st != GLP_OPT && st != GLP_FEAS))
		return 0;
	for (j = 1; j <= c->cl.ncols; j++)
		xm[j] = glp_mip_col_val(Q, j);
	return 1;
}

/*
 * The search solved the model to the end, and its plan xm, dealt over
 * real nodes, lost replicas: the model sums CPU and RAM over a (class,
 * mode)'s nodes, and a node can be short of them for a replica the
 * counts gave it, while much of the time limit may be left.  So
 * the search runs again on a copy of S (the model searched) with what
 * the deal lost taken off those nodes (struct shrink, as in the
 * rounding's feedback), from the best concrete plan, while its deal
 * loses, time is left and SEARCH_FEEDBACK rounds are not done; a plan cheaper made concrete
 * replaces pl->x and r's objective.  The bound stays the first search's:
 * the copies are not relaxations of every plan.
 */
static void search_feedback(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, glp_prob *S,
			    double *xm, struct ilp_result *r)
{
	const struct problem *p = c->p;
	struct shrink sh;
	int round;

	ilp_shrink_alloc(&sh, p->nclasses * MODE_COUNT);
	for (round = 0; round <= SEARCH_FEEDBACK && !interrupt_pending(); round++) {
		double *fx = ilp_repair_vector(c, xm), fo = ilp_vec_obj(c->P, fx);
		glp_prob *Q;
		int lost = ilp_unplaced_sum(p, &c->cl, fx) > ilp_unplaced_sum(p, &c->cl, xm) + 0.5, found;
		if (round && fo < r->objective - 1e-6 * fmax(1, fabs(r->objective))) {
			glp_printf("gpuplan-ilp: search again (%d): objective %.2f; made concrete %.2f, under %.2f\n", round,
				   ilp_vec_obj(c->P, xm), fo, r->objective);
			memcpy(pl->x, fx, ((size_t)c->cl.ncols + 1) * sizeof(*fx));
			r->objective = fo;
		}
		if (round == SEARCH_FEEDBACK || !lost || !ilp_shrink_add(p, &c->cl, xm, fx, &sh)) {
			free(fx);
			break;
		}
		free(fx);
		Q = glp_create_prob();
		glp_copy_prob(Q, S, GLP_OFF);
		ilp_shrink_rows(Q, p, &c->cl, &sh);
		found = feedback_once(c, o, pl, Q, xm, r);
		glp_delete_prob(Q);
		if (!found)
			break;
	}
	ilp_shrink_free(&sh);
}

/*
 * The model the search runs on: c->P, or, when the best start leaves
 * replicas unplaced on a model not sifted, a copy of it with the node
 * key sets' CPU and RAM rows (ilp_key_res_all) and its LP solved (c->P
 * when that LP does not solve in the time left: the search then has no
 * time either).  Those rows are valid for every concrete plan, so the
 * search's bound stays a bound.  Without
 * them a key's replicas may use another key's CPU, and the search's
 * plans on tight fleets dealt over real nodes lose what the model placed.
 * They slow the tree, so where the start places every replica the
 * search keeps the model (docs/benchmarks.md, "Plan quality").
 */
static glp_prob *search_model(const struct ilp_ctx *c, const struct ilp_plans *pl)
{
	glp_prob *S;
	int code;

	if (pl->restricted || !pl->best || ilp_unplaced_sum(c->p, &c->cl, pl->best) < 0.5)
		return c->P;
	S = glp_create_prob();
	glp_copy_prob(S, c->P, GLP_OFF);
	ilp_key_res_all(S, c->p, &c->ix, &c->cl);
	if (ilp_simplex(S, 1, 0, ilp_search_by(c), &code) != LP_OPTIMAL) {
		glp_delete_prob(S);
		return c->P;
	}
	return S;
}

/* ilp_search on S (search_model). */
static int search_on(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, glp_prob *S,
		     struct ilp_result *r, struct diag *d)
{
	struct cbinfo cb;
	int ret, st;
	double tail;

	memset(&cb, 0, sizeof(cb));
	cb.lp_bound = r->lp_bound;
	cb.deal = 1;
	cb.tail_by = search_tail_by(c, o, pl);
	tail = cb.tail_by > 0 ? ilp_search_by(c) - cb.tail_by : 0;
	cb.over = pl->rounded ? pl->round_obj - 1e-6 * fmax(1, fabs(pl->round_obj)) : HUGE_VAL;
	ret = search_run(c, o, pl, S, &cb, &st);
	if (cb.tail_stop)
		glp_printf("gpuplan-ilp: search stopped %.2f s before its end (a tail of %.2f s: a wave %.2f s and a "
			   "deal) for the polish of its plan (made concrete %.2f)\n", ilp_search_by(c) - util_now_s(), tail,
			   pl->wave_s, cb.made_obj);
	r->nodes = cb.node_stop ? o->node_limit : 0;
	r->cut = (ret == GLP_ETMLIM || ret == GLP_ESTOP) && !cb.node_stop;
	if ((ret == 0 || ret == GLP_EMIPGAP) && (st == GLP_OPT || st == GLP_FEAS)) {
		r->status = ILP_OPTIMAL;
	} else if ((ret == GLP_ETMLIM || ret == GLP_ESTOP) && st == GLP_FEAS) {
		r->status = ILP_FEASIBLE;
	} else if (ret == GLP_ETMLIM || ret == GLP_ESTOP) {
		/* no search or no incumbent of its own: the best start stands */
		if (pl->best && pl->best != pl->warm) {
			memcpy(pl->x, pl->best, ((size_t)c->cl.ncols + 1) * sizeof(*pl->x));
			r->status = ILP_FEASIBLE;
			r->objective = pl->best_obj;
			r->bound = r->lp_bound;
			free(cb.made);
			return 1;
		}
		r->status = ilp_stop_status(cb.node_stop); /* the limit that stopped it, not always the clock */
		free(cb.made);
		return 0;
	} else {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the MIP solver failed (GLPK code %d, status %d)", ret, st);
		r->status = ILP_NO_PLAN;
		free(cb.made);
		return -1;
	}
	{
		double *xm = xcalloc((size_t)c->cl.ncols + 1, sizeof(*xm));
		search_read(c, o, pl, S, &cb, r);
		memcpy(xm, pl->x, ((size_t)c->cl.ncols + 1) * sizeof(*xm));
		search_concrete(c, o, pl, &cb, r);
		if (st == GLP_OPT && !pl->restricted)
			search_feedback(c, o, pl, S, xm, r);
		free(xm);
	}
	free(cb.made);
	return 1;
}

int ilp_search(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, struct ilp_result *r,
	       struct diag *d)
{
	glp_prob *S = search_model(c, pl);
	int ret = search_on(c, o, pl, S, r, d);

	if (S != c->P)
		glp_delete_prob(S);
	return ret;
}
