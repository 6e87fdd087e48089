/*
 * ilp.c - builds the aggregated model, solves it with GLPK, reads back
 * the counts: ilp_solve runs the phases below in order; each phase is a
 * part of its own (the list is in ilp_model.h).
 *
 * Phases, all inside one deadline (the time limit, counted from the
 * start of ilp_solve):
 *
 *  1. Root LP.  Large models (more than SIFT_MIN_ARCS arc columns) are
 *     solved by sifting: only a working set of arcs is free (the tightest
 *     slot of each demand in each class, and the arcs of the warm plan),
 *     the others are fixed at 0 and so left out of GLPK's simplex; after
 *     each solve the fixed arcs are priced with the row duals and those
 *     with a negative reduced cost join the set, until none is left.  The
 *     LP optimum of the working set is then the LP optimum of the whole
 *     model, and its value the lower bound (ilp_bound.c).
 *  2. Rounding (relax and fix, on a copy), by class: the classes in
 *     batches, the fullest first (the fewest nodes the LP leaves unused),
 *     so that what a full class cannot take on whole configurations still
 *     finds room in the classes rounded last; each class of a batch gets
 *     its own small MIP (ilp_sub.c: its node and configuration counts
 *     that take the replicas the LP gave it, at least cost), its counts
 *     are fixed and the LP re-solved before the next batch.  The replica
 *     flows of the last LP complete an integer plan.  It is then made
 *     concrete (ilp_deal: counts dealt over real nodes with their CPU
 *     and RAM, replicas left without a slot put on a free slot, a new GPU
 *     or a new node; a small class the deal leaves short packed exactly,
 *     ilp_pack.c; what the deal still lost, replicas the counts place,
 *     placed by the greedy engine on top of the plan: ilp_deal_complete)
 *     and read back; plans are compared made concrete, and completed,
 *     because that is what will be reported: a plan the deal left
 *     short would lose to the warm (greedy) plan by its penalties,
 *     however cheap otherwise.  Rounding is done
 *     again up to FEEDBACK_ROUNDS times (or until a round is no cheaper
 *     made concrete than the ones before), each time with the CPU and RAM
 *     the last deal could not use in a (class, mode) taken off its nodes
 *     (struct shrink: in the rounding's copy only; the LP bound never
 *     sees it).  Three such chains of roundings run at once, each with its
 *     own feedback, batching the classes differently (ilp_round.c).
 *     Beside them (a thread of its own, from the root LP's end; after
 *     them on one thread, starved or under a node limit), a dive on the LP
 *     (ilp_dive.c: counts rounded up a batch at a time, the LP re-solved
 *     between) gives one more start, made concrete like theirs.
 *  2b. Polish: the cheapest concrete plan re-solved two classes at a
 *     time (ilp_polish.c), a pair's cheaper plan kept when the whole
 *     plan, made concrete, is cheaper too, and once the pairs change
 *     nothing, three at a time (the first polish); in the time it leaves, the
 *     rounds' other plans are polished as well (2c).  A plan whose deal
 *     lost replicas (another solver's, a rounding's) that costs less on
 *     the model than the cheapest concrete plan by more than
 *     LOSSY_MARGIN is polished first, and stands when it ends cheaper
 *     made concrete (ilp_starts.c).  The
 *     cheapest is offered to the branch-and-cut as an incumbent next to
 *     the warm (greedy) plan; where triples made it cheaper, the plan
 *     the pairs left before them is offered instead (ilp_search.c,
 *     search_run), and the triples' plan stands when cheaper than the
 *     search's.
 *  3. Branch-and-cut (ilp_search.c: glp_intopt, on the root basis) from
 *     the better of the two, stopped by the relative gap, the time limit (less two
 *     deals' tails: ilp_search_by), the node limit or an interrupt.  When sifting left
 *     arcs out, the search runs on the working set: its plans are plans
 *     of the whole model, but its bound is not, so its bound is the whole
 *     model's LP bound (the bound search, ilp_prove.c, raises it: the LP
 *     with the node key rows and cuts).  When the incumbent is already within
 *     the gap of the LP bound, the search is skipped.  The search's plan
 *     is made concrete too, and the rounded one stands when that is
 *     cheaper: the objective returned is the concrete plan's.
 *  3b. When the search's plan stands, it is polished as the rounded one
 *     was (solve_polish_search): under a time limit in a short tail the
 *     search leaves once it holds such a plan, or in what its early end
 *     leaves; under a node limit after the whole search.
 *
 * Everything but the time limit is deterministic: with a node limit
 * (ilp_opts.node_limit) no phase looks at the clock, and two runs give
 * the same plan on any machine under any load.  The
 * rounding chains, the class MIPs of a rounding batch and the polish's
 * pair MIPs run on ilp_opts.threads threads (par_run); each writes only
 * its own result and the results are taken in a fixed order, so the plan
 * does not depend on the number of threads.  GLPK keeps one environment
 * per thread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_bound.h"
#include "ilp_colgen.h"
#include "ilp_pack.h"
#include "ilp_polish.h"
#include "ilp_prove.h"
#include "ilp_round.h"
#include "ilp_search.h"
#include "ilp_start.h"
#include "ilp_starts.h"
#include "ilp_dive_beside.h"
#include "ilp_vec.h"
#include "banned.h"

/*
 * Where the solver's penalties are spread (problem_prio_spread), the
 * root LP of the documented model too, on a copy from the root basis
 * (the solver's model and basis stay as they are): every documented
 * penalty is at least its spread one, so its optimum is a bound of the
 * documented objective no lower than the spread LP's, for the reports
 * (ilp_result.doc_lp_bound).  Not on a sifted model (its working set's
 * LP is no bound), nor when the clock stops it.
 */
static void solve_doc_lp(const struct ilp_ctx *c, const struct ilp_plans *pl, struct ilp_result *r)
{
	const struct problem *p = c->p;
	glp_prob *Q;
	int code;
	size_t i;

	r->doc_lp_bound = r->lp_bound;
	if (!p->prio_spread || pl->restricted)
		return;
	Q = glp_create_prob();
	glp_copy_prob(Q, c->P, GLP_OFF);
	for (i = 0; i < p->ndemands; i++)
		glp_set_obj_coef(Q, c->cl.u[i], p->demands[i].penalty);
	if (ilp_simplex(Q, 0, 0, c->deadline, &code) == LP_OPTIMAL)
		r->doc_lp_bound = fmax(r->lp_bound, glp_get_obj_val(Q));
	glp_delete_prob(Q);
}

/*
 * Phase 1: the root LP (ilp_root_lp) and its bound into r.  Returns 1 to
 * go on, 0 when out of time (ILP_TIME_LIMIT), -1 when the LP failed (d
 * filled, ILP_NO_PLAN).
 */
static int solve_root(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_result *r, struct diag *d)
{
	const struct problem *p = c->p;
	int code = 0, rounds = 0;
	size_t i;
	enum lp_end e;

	e = ilp_root_lp(c, pl->warm, pl->in_set, &rounds, &code);
	r->lp_rounds = rounds;
	r->t_lp = util_now_s() - c->t0;
	if (e == LP_TIME) {
		r->status = ILP_TIME_LIMIT;
		r->cut = 1;
		return 0;
	}
	if (e == LP_FAILED) {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the LP relaxation failed (GLPK code %d)", code);
		r->status = ILP_NO_PLAN;
		return -1;
	}
	r->lp_bound = glp_get_obj_val(c->P);
	for (i = 0; i < p->narcs; i++)
		if (!pl->in_set[i])
			pl->restricted = 1;
	r->lp_arcs = 0;
	for (i = 0; i < p->narcs; i++)
		r->lp_arcs += pl->in_set[i];
	solve_doc_lp(c, pl, r);
	return 1;
}

/*
 * Phase 0 (plan --start): another solver's plan of the exported model,
 * checked against it and made concrete (pl->start), to join the rounded
 * plans (solve_round); when its deal lost replicas, a copy is a lossy
 * start too (pl->lossy, ilp_starts.c).  -1 with d set when it is not a
 * plan of this model.
 */
static int solve_start(const struct ilp_ctx *c, const struct solfile *s, struct ilp_plans *pl, struct ilp_result *r,
		       struct diag *d)
{
	double *x, *lossy;
	char *by;

	if (ilp_start_vector(c, s, &x, d))
		return -1;
	/* the documented objective (ilp_vec_doc_obj): the exported model's, which s solved */
	r->start_model = ilp_vec_doc_obj(c, x);
	pl->start = ilp_repair_vector(c, x);
	pl->start_obj = ilp_vec_obj(c->P, pl->start);
	r->start_concrete = ilp_vec_doc_obj(c, pl->start);
	r->have_start = 1;
	lossy = xcalloc((size_t)c->cl.ncols + 1, sizeof(*lossy));	/* kept when its deal lost replicas (ilp_starts.c) */
	memcpy(lossy, pl->start, ((size_t)c->cl.ncols + 1) * sizeof(*lossy));
	ilp_lossy_offer(&pl->lossy, &lossy, pl->start_obj, ilp_unplaced_sum(c->p, &c->cl, pl->start), ilp_vec_obj(c->P, x),
			ilp_unplaced_sum(c->p, &c->cl, x));
	free(lossy);
	/* per priority too: the objective follows the priority rule only where its weights were not capped */
	by = ilp_vec_prio_unplaced(c, pl->start);
	glp_printf("gpuplan-ilp: start %s (%s, '%s', objective %.2f): objective %.2f unplaced %.0f; made concrete %.2f "
		   "unplaced %.0f by priority %s\n", s->path, s->solver, s->status, s->objective, r->start_model,
		   ilp_unplaced_sum(c->p, &c->cl, x), r->start_concrete, ilp_unplaced_sum(c->p, &c->cl, pl->start), by);
	free(by);
	free(x);
	return 0;
}

/*
 * The share of the time left after the root LP that the roundings'
 * batches get when the plans in hand (the greedy plan, another solver's)
 * leave replicas unplaced: the rest is the polish's and the search's.
 * Under a load that leaves the rounding too little CPU its first
 * roundings otherwise ran to the limit and no polish ran, where the
 * polish is what places the replicas a rounding leaves out
 * (docs/benchmarks.md, "The ILP within its time").  Where a plan in hand
 * places every replica the roundings keep the whole time: cut, they gave
 * dearer plans than the polish made up for.  The keyed chain's first
 * rounding is completed when the share stops it (ilp_round.c), so there
 * is still a rounded plan.
 */
#define ROUND_SHARE 0.75

/* When the roundings' batches stop (ilp_round_chains): see ROUND_SHARE; HUGE_VAL: only the clock stops them. */
static double round_by(const struct ilp_ctx *c, const struct ilp_plans *pl)
{
	const struct problem *p = c->p;
	double now = util_now_s();

	if (isinf(c->deadline) || (!pl->warm && !pl->start) || (pl->warm && ilp_unplaced_sum(p, &c->cl, pl->warm) < 0.5) ||
	    (pl->start && ilp_unplaced_sum(p, &c->cl, pl->start) < 0.5))
		return HUGE_VAL;
	return now + ROUND_SHARE * fmax(0, c->deadline - now);
}

/*
 * Phase 2: rounding chains (ilp_round_chains; the cheapest plan made
 * concrete is kept), polished (ilp_starts_first: a lossy start first
 * where that is cheaper on the model), then the other starts in
 * the time left (ilp_starts_more: when the keyed chain's plan was the
 * cheapest, the other chains' cheapest is the first of them: the
 * polishes end in different local optima from different starts); then
 * the better of it and the warm plan is the start.  Once the chains end,
 * the bound search beside (pv) no longer yields to them (ilp_prove_rounded);
 * in a starved run (ilp_round_keyed_alone: the thread that opened the run
 * got less than ROUND_STARVED_RATE of a processor so far) it yields until
 * the first polish ends, since that polish is where such a run's plan is
 * made, and the chains round once each, the keyed chain first, alone.
 */
static void solve_round(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_result *r, struct ilp_prove *pv)
{
	struct round_starts more;
	struct ilp_dive_beside db;
	double *lp = xcalloc((size_t)c->cl.ncols + 1, sizeof(*lp)), deep;
	int j, alone;

	alone = ilp_round_keyed_alone(util_thread_cpu_s() - c->cpu0, util_now_s() - c->t0, c->threads, !isinf(c->deadline));
	if (alone)
		glp_printf("gpuplan-ilp: starved (%.2f CPU s in %.2f s): the keyed chain rounds first, alone on %d threads, "
			   "one rounding a chain; the bound search beside yields until the first polish ends\n",
			   util_thread_cpu_s() - c->cpu0, util_now_s() - c->t0, c->threads);
	ilp_dive_begin(c, pl, pv, alone, &db);
	pl->rounded = ilp_round_chains(c, &pl->round_obj, round_by(c, pl), alone, &more);
	if (!alone)
		ilp_prove_rounded(pv);	/* the bound search beside keeps its pace from now on */
	ilp_dive_take(c, pl, &db);
	if (pl->start) {	/* another solver's plan is one more rounded plan: the polish starts from the cheapest */
		ilp_keep_cheapest(&pl->rounded, &pl->round_obj, pl->start, pl->start_obj);
		pl->start = NULL;
	}
	if (pl->rounded)
		ilp_admit_arcs(c, pl->rounded, pl->in_set);
	for (j = 1; j <= c->cl.ncols; j++)
		lp[j] = glp_get_col_prim(c->P, j);
	deep = ilp_starts_first(c, pl, lp, &more);	/* the first polish (ilp_starts.c) */
	if (alone)
		ilp_prove_rounded(pv);	/* starved, it yielded to the first polish as well */
	ilp_starts_more(c, pl, lp, &more, deep);
	ilp_dive_end(&db);	/* before the search changes c->P */
	pl->lp = lp;	/* for the polish after the search (solve_polish_search) */
	r->round_objective = pl->rounded ? pl->round_obj : 0;
	r->t_round = util_now_s() - c->t0;
	if (pl->rounded && (!pl->warm || pl->round_obj <= pl->warm_obj)) {
		pl->best = pl->rounded;
		pl->best_obj = pl->round_obj;
	} else if (pl->warm) {
		pl->best = pl->warm;
		pl->best_obj = pl->warm_obj;
	}
}

/*
 * Phase 3: branch-and-cut (ilp_search), unless the best start is already
 * within the gap of the LP bound.  Returns as ilp_search does.
 */
static int solve_search(const struct ilp_ctx *c, const struct ilp_opts *o, struct ilp_plans *pl,
			struct ilp_result *r, struct diag *d)
{
	pl->x = xcalloc((size_t)c->cl.ncols + 1, sizeof(*pl->x));
	if (pl->best && ilp_gap_within(pl->best_obj, r->lp_bound, ilp_vec_cost(c, pl->best), o->mip_gap)) {
		memcpy(pl->x, pl->best, ((size_t)c->cl.ncols + 1) * sizeof(*pl->x));
		r->status = ILP_OPTIMAL;
		r->objective = pl->best_obj;
		r->bound = r->lp_bound;
		return 1;
	}
	return ilp_search(c, o, pl, r, d);
}

/*
 * Phase 3b: the plan the search reports (pl->x, concrete, costing
 * r->objective), when it is not the rounded one, polished as that was
 * (POLISH_BOTH) until ilp_search_by, and kept when better by the
 * priority rule, then cost (ilp_vec_better).  The search's plans are
 * the model's, whose CPU and RAM rows sum over a class's nodes; dealt
 * over real nodes they lose replicas or take more nodes, and a pair MIP
 * against the concrete plan finds where those go.  Under a time limit
 * it runs in the tail the search left it (search_tail_by, ilp_search.c)
 * or in what an early end of the search left; under a node limit after
 * the whole search, to its end, so the same plan on any machine.
 */
static void solve_polish_search(const struct ilp_ctx *c, struct ilp_plans *pl, struct ilp_result *r)
{
	struct polish_opts po = { pl->lp, ilp_search_by(c), POLISH_BOTH, 0, 0 };
	size_t n = (size_t)c->cl.ncols + 1;
	double *y, *fy = NULL, fo, t = util_now_s();
	int better, take;

	if (!pl->lp || (pl->rounded && r->objective >= pl->round_obj - 1e-6 * fmax(1, fabs(pl->round_obj))) ||
	    !ilp_starts_time(c))
		return;
	y = xcalloc(n, sizeof(*y));
	memcpy(y, pl->x, n * sizeof(*y));
	glp_printf("gpuplan-ilp: polish after the search from %.2f (%.2f s)\n", r->objective, t - c->t0);
	better = ilp_polish(c, y, r->objective, &po, &fy, NULL);
	if (better) {
		fo = ilp_vec_obj(c->P, fy);
		take = ilp_vec_better(c, fy, fo, pl->x, r->objective);
		glp_printf("gpuplan-ilp: polish after the search: %d pairs cheaper; made concrete %.2f unplaced %.0f, "
			   "%s %.2f unplaced %.0f (%.2f s)\n", better, fo, ilp_unplaced_sum(c->p, &c->cl, fy),
			   take ? "kept over" : "not kept (the priority rule) over", r->objective,
			   ilp_unplaced_sum(c->p, &c->cl, pl->x), util_now_s() - c->t0);
		if (take) {
			memcpy(pl->x, fy, n * sizeof(*pl->x));
			r->objective = fo;
		}
	}
	free(fy);
	free(y);
}

/* The plan x with its objective into r: the bound no higher than it, the gap, the counts. */
static void solve_done(const struct ilp_ctx *c, const double *x, struct ilp_result *r)
{
	ilp_result_gap(r);
	r->cost = ilp_vec_cost(c, x);
	ilp_take_plan(c->p, &c->cl, x, r);
}

/* The proven bound's node budget after the search under a node limit (no more than the limit). */
#define PROVE_NODES 2000

/*
 * The time limit's share kept for the bound search after the search for
 * plans when it has no thread of its own (one thread, a time limit).
 * Without it a one-CPU run reports the LP bound, far under the optimum
 * on small fleets, for a plan two threads prove close to optimal;
 * the plan loses less to it than the proof gains (docs/benchmarks.md,
 * "One thread, and starved runs").
 */
#define PROVE_SHARE 0.25

/*
 * Whether the bound search runs after the search for plans, on this
 * thread, under the clock: not on a model too large to branch on, whose
 * bound search is one more LP by sifting (ilp_prove.c) that the plan
 * needs the time for more.
 */
static int prove_after(const struct ilp_ctx *c, const struct ilp_opts *o)
{
	return o->node_limit <= 0 && c->threads < 2 && !ilp_root_sifts(c->p);
}

/*
 * The proven bound (ilp_prove.c) beside the search for plans (on a
 * sifted model its LP with the node key rows and cuts, no tree): on a
 * thread of its own from the start under a time limit with two threads
 * or more (*pv started), else after the search, on this thread: within
 * PROVE_NODES under a node limit (deterministic), in the PROVE_SHARE of
 * the time limit kept for it under a time limit (prove_after).  Not
 * needed when the search proved its plan.
 */
static void solve_prove_start(const struct ilp_ctx *c, const struct ilp_opts *o, struct ilp_prove *pv,
			      const double *warm)
{
	ilp_prove_init(pv, c, warm, 0, c->deadline);
	if (o->node_limit <= 0 && c->threads >= 2)
		ilp_prove_start(pv);
}

/*
 * Each of the bound search's best plans (pv->x, one per tree), made
 * concrete, replaces the plan x (objective r->objective) when cheaper.
 * Its tree, best bound first on the model with the node key rows,
 * sometimes ends on a cheaper plan than the search for plans does.
 */
static void solve_prove_plan(const struct ilp_ctx *c, const struct ilp_prove *pv, double *x, struct ilp_result *r)
{
	double *fx, fo;
	int t;

	for (t = 0; t < 2; t++) {
		if (!pv->x[t] || pv->x_obj[t] >= r->objective - 1e-6 * fmax(1, fabs(r->objective)))
			continue;
		fx = ilp_repair_vector(c, pv->x[t]);
		fo = ilp_vec_obj(c->P, fx);
		if (fo < r->objective - 1e-6 * fmax(1, fabs(r->objective))) {
			glp_printf("gpuplan-ilp: the bound search's plan (tree %d): objective %.2f; made concrete %.2f, "
				   "under %.2f\n", t, pv->x_obj[t], fo, r->objective);
			memcpy(x, fx, ((size_t)c->cl.ncols + 1) * sizeof(*x));
			r->objective = fo;
		}
		free(fx);
	}
}

/*
 * The proven bound raises r's bound (plan x; NULL: the search found none) and
 * may bring a cheaper plan; the status follows the gap.  While the plan's
 * gap is open and time is left, the bound search on its thread runs on
 * until its bound proves the plan, its tree ends or by (the deadline less
 * the time making the plan concrete takes, as for the search): its
 * tree may also find a cheaper plan, even the optimum, after the search
 * has ended on a plan that leaves replicas unplaced.
 */
static void solve_prove_take(const struct ilp_ctx *c, const struct ilp_opts *o, struct ilp_prove *pv,
			     double *x, double by, struct ilp_result *r)
{
	int open = x && r->status == ILP_FEASIBLE;	/* a plan, not proven yet */

	if (pv->task && open && ilp_ms_left(by) > 0) {
		ilp_prove_finish(pv, r->objective - ilp_gap_tol(ilp_vec_cost(c, x), o->mip_gap), by);
		if (ilp_ms_left(by) <= 0)
			r->cut = 1;
	} else if (pv->task) {
		ilp_prove_wait(pv);
	}
	if (pv->slept > 0)
		glp_printf("gpuplan-ilp: bound search: slept %.2f s beside the search for plans (its share of a "
			   "processor fell to %.2f)\n", pv->slept, pv->rate);
	if (pv->held > 0)
		glp_printf("gpuplan-ilp: bound search: held off %.2f s while the dive ran beside the chains\n", pv->held);
	if (!open)
		return; /* no plan, or proven already: the bound stays what the search proved */
	if (!pv->have_bound && o->node_limit > 0) {
		ilp_prove_free(pv);
		ilp_prove_init(pv, c, x, o->node_limit < PROVE_NODES ? o->node_limit : PROVE_NODES, HUGE_VAL);
		ilp_prove_run(pv);
	} else if (!pv->have_bound && prove_after(c, o) && ilp_ms_left(by) > 0) {
		double t = util_now_s();
		ilp_prove_free(pv);
		ilp_prove_init(pv, c, x, 0, by);
		ilp_prove_until(pv, r->objective - ilp_gap_tol(ilp_vec_cost(c, x), o->mip_gap), by);
		glp_printf("gpuplan-ilp: bound search after the search: %ld nodes, %.2f s\n", pv->nodes, util_now_s() - t);
		if (ilp_ms_left(by) <= 0)
			r->cut = 1;
	}
	solve_prove_plan(c, pv, x, r);
	if (pv->have_bound && pv->bound > r->bound) {
		glp_printf("gpuplan-ilp: proven bound %.2f (%ld nodes) over %.2f\n", pv->bound, pv->nodes, r->bound);
		r->bound = pv->bound;
	}
	r->cost = ilp_vec_cost(c, x);
	ilp_result_proven(r, o->mip_gap);
}

/*
 * The replicas r leaves unplaced, and one summary line in the solver's
 * log (stderr with --verbose; bench/run.sh reads it), then the exact
 * packer's line when it packed and the completions' when a deal was
 * completed (ilp_deal_complete).
 */
static void solve_summary(const struct ilp_ctx *c, struct ilp_result *r, const struct ilp_pack *pack)
{
	const struct problem *p = c->p;
	double doc = r->objective;
	size_t i;

	r->unplaced_total = ilp_result_unplaced(p, r);
	/* the documented objective of the plan (ilp_vec_doc_obj); the bound is the solver's, and a bound of it */
	for (i = 0; p->prio_spread && i < p->ndemands; i++)
		doc += (p->demands[i].penalty - p->demands[i].solve_penalty) * r->unplaced[i];
	glp_printf("gpuplan-ilp: status %s objective %.2f bound %.2f lp_bound %.2f rounded %.2f lp_rounds %d "
		   "lp_arcs %ld/%ld unplaced %.0f t_lp %.2f t_round %.2f t_total %.2f\n",
		   ilp_status_name(r->status), doc, r->bound, r->lp_bound, r->round_objective, r->lp_rounds,
		   r->lp_arcs, (long)p->narcs, r->unplaced_total, r->t_lp, r->t_round, util_now_s() - c->t0);
	if (pack->packs)
		glp_printf("gpuplan-ilp: exact packing: %ld classes packed (%ld from the deal's layout), %ld again from "
			   "the cache, %ld plans the better for it\n", pack->packs, pack->started, pack->hits, pack->kept);
	if (pack->completions)
		glp_printf("gpuplan-ilp: deals completed by the greedy engine: %ld of %ld\n", pack->completed,
			   pack->completions);
}

/*
 * The node-pattern column generation (ilp_opts.colgen_s) until `until`,
 * from the warm plan and r's plan made concrete (as the caller will,
 * ilp_concrete): its proven bound raises r's (ilp_colgen_raise), and
 * the master's integer plan built over real nodes is offered beside r's
 * plan, or in place of none (r->colgen: the caller keeps the better,
 * ilp_take_colgen).  Logged: its bound, whether proven, its plan on the
 * model and built.  (The packings it adds to r->pack's cache are those
 * the caller's deal would make.)
 */
static void solve_colgen(const struct ilp_ctx *c, const struct ilp_opts *o, struct ilp_result *r, int rc, double until)
{
	double t = util_now_s();
	struct ilp_colgen cg;
	struct cplan *cp, mine;
	struct cplan_cost cost;
	const struct cplan *starts[2];
	int plan = r->status == ILP_OPTIMAL || r->status == ILP_FEASIBLE;
	double warm_obj;

	if (rc != 0 || !(until > t) || !o->warm)
		return;
	cplan_cost(o->warm, &cost);
	warm_obj = cost.objective;
	cplan_init(&mine, c->p);
	if (plan)
		ilp_concrete(c->p, r, &mine, until - t);	/* else an empty plan: none */
	cplan_cost(&mine, &cost);
	starts[0] = o->warm;
	starts[1] = &mine;
	ilp_colgen_init(&cg, until);
	glp_printf("gpuplan-ilp: colgen: start plans %.2f (warm) and %.2f (the plan, %ld unplaced)\n",
		   warm_obj, cost.objective, cplan_unplaced_count(&mine));
	if (ilp_colgen_run(&cg, c->p, &c->ix, starts, mine.nnodes ? 2 : 1) == 0 && cg.use) {
		cp = xcalloc(1, sizeof(*cp));
		cplan_init(cp, c->p);
		ilp_colgen_plan(&cg, c->p, &c->ix, cp);
		cplan_cost(cp, &cost);
		glp_printf("gpuplan-ilp: colgen: columns %zu (%zu from the starts) rounds %d lp %.2f bound %.2f%s "
			   "integer %.2f%s unplaced %.0f from %.2f; built %.2f unplaced %ld t %.2f (generation %.2f)\n",
			   cg.ncols, cg.nstart, cg.iters, cg.lp, cg.bound, cg.proven ? " (lp proven)" : " (lp not a bound)", cg.int_obj,
			   cg.int_optimal ? " (optimal over the columns)" : "", cg.unplaced, cg.start_obj, cost.objective,
			   cplan_unplaced_count(cp), util_now_s() - t, cg.t_gen);
		r->colgen = cp;
	} else {
		glp_printf("gpuplan-ilp: colgen: no integer plan (rounds %d, bound %.2f)\n", cg.iters, cg.bound);
	}
	if (ilp_colgen_raise(&cg, r, o->mip_gap))
		glp_printf("gpuplan-ilp: colgen: bound raised to %.2f; status %s gap %.6f\n", r->bound,
			   ilp_status_name(r->status), r->gap);
	ilp_colgen_free(&cg);
	cplan_release(&mine);
}

/*
 * When the column generation stops (solve_colgen): ilp_opts.colgen_s
 * seconds after the plan, or, under a node limit, at its own budgets
 * (rounds and branch-and-bound nodes: no clock, so the same plan on any
 * machine); 0: it does not run.
 */
static double colgen_until(const struct ilp_opts *o)
{
	if (!(o->colgen_s > 0))
		return 0;
	return o->node_limit > 0 ? HUGE_VAL : util_now_s() + o->colgen_s;
}

/* The documented objective of the plan x (ilp_vec_doc_obj) for the progress shown; -1 without one. */
static double doc_obj(const struct ilp_ctx *c, const double *x)
{
	return x ? ilp_vec_doc_obj(c, x) : -1;
}

int ilp_solve(const struct problem *p, const struct ilp_opts *o, struct ilp_result *r, struct diag *d)
{
	struct ilp_ctx c;
	struct ilp_plans pl;
	struct ilp_prove pv;
	struct ilp_pack *pack = xcalloc(1, sizeof(*pack));
	double end;
	int rc = -1;

	memset(&pl, 0, sizeof(pl));
	ilp_ctx_open(&c, p, o);
	c.threads = o->threads > 0 ? o->threads : par_processors();
	end = c.t0 + c.limit_s;
	if (prove_after(&c, o))
		c.limit_s *= 1 - PROVE_SHARE;	/* the rest is the bound search's (solve_prove_take) */
	c.deadline = c.t0 + c.limit_s;
	c.deal_s = o->deal_s;
	memset(r, 0, sizeof(*r));
	ilp_result_alloc(p, r);
	ilp_pack_init(pack, p, &c.ix, c.deadline);
	c.pack = pack;
	ilp_build(c.P, p, &c.ix, &c.cl);
	r->rows = glp_get_num_rows(c.P);
	r->cols = glp_get_num_cols(c.P);
	r->int_cols = glp_get_num_int(c.P);
	if (o->export_path && ilp_write_model(&c, o->export_path, &r->model, d))
		goto out;
	if (o->warm) {
		pl.warm = ilp_warm_vector(p, &c.cl, o->warm);
		pl.warm_obj = ilp_vec_obj(c.P, pl.warm);
	}
	if (o->start && solve_start(&c, o->start, &pl, r, d))
		goto out;
	pl.in_set = xcalloc(p->narcs + 1, 1);
	solve_prove_start(&c, o, &pv, pl.warm);
	ilp_progress_report(o->progress, "lp", doc_obj(&c, pl.warm), -1);
	rc = solve_root(&c, &pl, r, d);
	if (rc == 1) {
		ilp_progress_report(o->progress, "round", doc_obj(&c, pl.warm), r->lp_bound);
		solve_round(&c, &pl, r, &pv);
		ilp_progress_report(o->progress, "search", doc_obj(&c, pl.best), r->lp_bound);
		rc = solve_search(&c, o, &pl, r, d);
		if (rc == 1)
			solve_polish_search(&c, &pl, r);
	} else if (rc == 0 && pl.start) {	/* no time for the LP: the start is the plan */
		pl.x = pl.start;
		pl.start = NULL;
		r->status = ILP_FEASIBLE;
		r->objective = pl.start_obj;
		rc = 1;
	}
	solve_prove_take(&c, o, &pv, rc == 1 ? pl.x : NULL, end - 2 * ilp_deal_tail(&c), r);
	ilp_prove_free(&pv);
	if (rc == 1) {
		solve_done(&c, pl.x, r);
		rc = 0;
	}
out:
	solve_summary(&c, r, pack);
	pack->ix = NULL;	/* c.ix goes; ilp_concrete lends it its own */
	r->pack = pack;		/* its packings, for the deal of the plan written */
	solve_colgen(&c, o, r, rc, colgen_until(o));
	free(pl.x);
	free(pl.start);
	free(pl.warm);
	free(pl.rounded);
	free(pl.untripled);
	free(pl.lossy.x);
	free(pl.lp);
	free(pl.in_set);
	ilp_ctx_close(&c);
	return rc;
}
