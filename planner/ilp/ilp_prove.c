/*
 * ilp_prove.c - the proven lower bound.
 *
 * The root LP leaves the costliest decisions fractional: on small fleets
 * a fraction of one rented node that costs more than the rest of the
 * plan, which leaves the LP bound far under the optimum.  No cut on the
 * aggregated model closes that; branching on it does.  So a second
 * branch-and-bound runs on a copy of the model with the node key sets'
 * CPU and RAM rows (ilp_key_res_all: valid for every concrete plan, and
 * they raise the bound), best bound first (GLP_BT_BLB), branching on the
 * fractional column of the highest priority times its distance to an
 * integer: a class's node count (NODES_k, priced by the class's dearest
 * node), then its nodes per mode, then its GPUs in use, then the rest by
 * cost.  At any moment every plan of the model lies in one of its open
 * nodes or costs no less than its best plan, so the least bound of the
 * open nodes (no higher than that plan) is a lower bound of the model;
 * the model relaxes the real plan (CPU and RAM are summed over a class's
 * nodes, not checked per node), so it bounds every plan gpuplan can
 * report.  A model too large to branch on (ilp_root_sifts) gets no
 * tree: its bound is its LP with those rows and the cuts, by sifting
 * (prove_sifted), still above the root LP's.
 *
 * Before it branches, the copy's LP is tightened by mixed-integer
 * rounding (MIR) cuts on single rows (mir_rounds): a slot, CPU or RAM
 * row says that replicas (continuous, each arc at most its demand's
 * replicas) fit in C times a whole number of GPUs or nodes; when those
 * replicas, all placed, would need a fraction of one more, the cut says
 * how many fewer replicas that last GPU or node must do without.  Valid
 * for every integer solution of the model, so the bound stays a bound.
 *
 * Two trees, one after the other (ilp_prove_run), when any class has
 * node patterns (ilp_pattern.c: on classes of one GPU per node, what
 * one node can hold together, which the CPU and RAM rows summed over
 * nodes do not say): the copy as above for PLAIN_NODES nodes, then a
 * copy that also carries the patterns, for the rest of the time or node
 * limit; without patterns, the one tree as above.  Its rows hold for every
 * concrete plan, so its bound bounds every plan, and it can exceed the
 * model's optimum, proving a concrete plan optimal.  The first tree
 * finds plans sooner where the patterns do not bind (with them the
 * tree reaches the same bound but not the plan).  The higher bound is
 * kept, and each tree's best plan.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "ilp_bound.h"
#include "ilp_glpk.h"
#include "ilp_pattern.h"
#include "ilp_prove.h"
#include "banned.h"

/*
 * Priority tiers, far enough apart that a tier wins over the next
 * whatever the costs and distances to an integer (0.01 .. 0.51: a factor
 * of 51) within them.
 */
#define TIER_NODES 1e12
#define TIER_MODE 1e8
#define TIER_GPUS 1e4

/* The objective coefficient of class k's dearest node column. */
static double class_price(const struct ilp_ctx *c, size_t k)
{
	double best = 0;
	int m;

	for (m = 0; m < MODE_COUNT; m++) {
		int col = c->cl.n[k * MODE_COUNT + (size_t)m];
		if (col && glp_get_obj_coef(c->P, col) > best)
			best = glp_get_obj_coef(c->P, col);
	}
	return best;
}

double *ilp_branch_prio(const struct ilp_ctx *c)
{
	const struct problem *p = c->p;
	int ncols = glp_get_num_cols(c->P), j;
	double *prio = xcalloc((size_t)ncols + 1, sizeof(*prio)), top = 0, topc = 0;
	size_t k;

	for (j = 1; j <= ncols; j++)
		topc = fmax(topc, fabs(glp_get_obj_coef(c->P, j)));
	for (k = 0; k < p->nclasses; k++)
		top = fmax(top, class_price(c, k));
	top = top > 0 ? top : 1;
	topc = topc > 0 ? topc : 1;
	for (j = 1; j <= ncols; j++)
		prio[j] = 1 + fabs(glp_get_obj_coef(c->P, j)) / topc;
	for (k = 0; k < p->nclasses; k++) {
		double price = class_price(c, k) / top;
		int m;
		if (c->cl.agg[2 * k])
			prio[c->cl.agg[2 * k]] = TIER_NODES * (1 + price);
		if (c->cl.agg[2 * k + 1])
			prio[c->cl.agg[2 * k + 1]] = TIER_GPUS * (1 + price);
		for (m = 0; m < MODE_COUNT; m++) {
			int col = c->cl.n[k * MODE_COUNT + (size_t)m];
			if (col)
				prio[col] = TIER_MODE * (1 + fmax(glp_get_obj_coef(c->P, col), 0) / top);
		}
	}
	return prio;
}

void ilp_branch_pick(glp_tree *T, const double *prio)
{
	glp_prob *P = glp_ios_get_prob(T);
	int ncols = glp_get_num_cols(P), j, best = 0;
	double score = -1;

	for (j = 1; j <= ncols; j++) {
		double v, f, s;
		if (!glp_ios_can_branch(T, j))
			continue;
		v = glp_get_col_prim(P, j);
		f = v - floor(v);
		s = prio[j] * (fmin(f, 1 - f) + 0.01);
		if (s > score) {
			score = s;
			best = j;
		}
	}
	if (best)
		glp_ios_branch_upon(T, best, GLP_NO_BRNCH);
}

void ilp_prove_init(struct ilp_prove *pv, const struct ilp_ctx *c, const double *start, long node_limit,
		    double deadline)
{
	memset(pv, 0, sizeof(*pv));
	pv->p = c->p;
	pv->ix = &c->ix;
	pv->start = start;
	pv->node_limit = node_limit;
	pv->deadline = deadline;
	pv->rate = 1;
	atomic_init(&pv->stop, 0);
	atomic_init(&pv->finish, 0);
	atomic_init(&pv->rounded, 0);
	atomic_init(&pv->hold, 0);
}

/* Whether the run should end now: an interrupt, ilp_prove_wait, or ilp_prove_finish's bound or time reached. */
static int prove_stopping(const struct ilp_prove *pv)
{
	if (interrupt_pending() || atomic_load(&pv->stop))
		return 1;
	if (!atomic_load(&pv->finish))
		return 0;
	return (pv->have_bound && pv->bound >= pv->enough) || util_now_s() >= pv->finish_by;
}

double ilp_prove_yield_s(double cpu, double wall, double work)
{
	return wall > 0 && work > 0 && cpu < PROVE_STARVED_RATE * wall ? PROVE_YIELD * work : 0;
}

/* The least wall seconds of work between two sleeps, and the slice a sleep looks at the stop flags in. */
#define PACE_WORK 0.05
#define PACE_SLICE 0.02

/*
 * Sleeps s seconds, no later than the deadline, in slices: wakes early
 * once the roundings have ended (ilp_prove_rounded), the search for
 * plans has (ilp_prove_finish) or the run stops.  Returns the seconds
 * slept.
 */
static double prove_sleep(const struct ilp_prove *pv, double s)
{
	double t0 = util_now_s(), end = fmin(t0 + s, pv->deadline), left;

	while (!prove_stopping(pv) && !atomic_load(&pv->finish) && !atomic_load(&pv->rounded) &&
	       (left = end - util_now_s()) > 0) {
		struct timespec ts;
		left = fmin(left, PACE_SLICE);
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
	return util_now_s() - t0;
}

/*
 * Sleeps while pv->hold is set (ilp_prove_hold), in slices, until the
 * run stops or its deadline; the seconds slept are its pace's too.
 */
static void prove_held(struct ilp_prove *pv)
{
	double t0 = util_now_s();

	while (atomic_load(&pv->hold) && !prove_stopping(pv) && util_now_s() < pv->deadline) {
		struct timespec ts;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(PACE_SLICE * 1e9);
		nanosleep(&ts, NULL);
	}
	pv->pace_slept += util_now_s() - t0;
	pv->held += util_now_s() - t0;
	pv->mark = util_now_s();
}

/*
 * Called from the tree's callback.  Beside the search for plans, the
 * bound search's thread takes a share of the processors like each of
 * the search's threads; where they are short (a busy machine, or fewer
 * of them than threads), that share is taken from the roundings, which
 * then end late and leave the polish little time.  So the thread
 * measures the share it gets, its CPU seconds over the wall seconds it
 * was awake, in windows of PROVE_RATE_WALL; while the last window's
 * share is below PROVE_STARVED_RATE (less than an idle machine gives
 * three threads on two processors) it sleeps PROVE_YIELD seconds for
 * each second of work, until the roundings end (ilp_prove_rounded).
 * Not after: on small fleets the bound search's tree is what finds the
 * cheapest plan, and it needs its share of the rest of the time.  A
 * clock rules it, so only under a time limit (on its own thread: under
 * a node limit the bound search runs after the search, ilp.c).
 */
static void prove_pace(struct ilp_prove *pv)
{
	double now, awake, s;

	if (pv->beside && atomic_load(&pv->hold))
		prove_held(pv);
	if (!pv->beside || atomic_load(&pv->finish) || atomic_load(&pv->rounded))
		return;
	now = util_now_s();
	awake = now - pv->pace_wall - pv->pace_slept;
	if (awake >= PROVE_RATE_WALL) {	/* a window ends: its rate rules the sleeps until the next */
		pv->win_cpu = util_thread_cpu_s() - pv->pace_cpu;
		pv->win_wall = awake;
		pv->rate = fmin(pv->rate, pv->win_cpu / awake);
		pv->pace_wall = now;
		pv->pace_cpu += pv->win_cpu;
		pv->pace_slept = 0;
		pv->mark = now;
	}
	if (now - pv->mark < PACE_WORK)
		return;
	s = ilp_prove_yield_s(pv->win_cpu, pv->win_wall, now - pv->mark);
	if (s > 0) {
		s = prove_sleep(pv, s);
		pv->pace_slept += s;
		pv->slept += s;
	}
	pv->mark = util_now_s();
}

/* The least bound of the open nodes into pv (kept when higher). */
static void take_bound(glp_tree *T, struct ilp_prove *pv)
{
	int node = glp_ios_best_node(T);
	double b;

	if (!node)
		return;
	b = glp_ios_node_bound(T, node);
	if (b <= -DBL_MAX)
		return; /* its LP is not solved yet: no bound */
	if (glp_mip_status(glp_ios_get_prob(T)) == GLP_FEAS)
		b = fmin(b, glp_mip_obj_val(glp_ios_get_prob(T)));
	if (!pv->have_bound || b > pv->bound) {
		pv->bound = b;
		pv->have_bound = 1;
	}
}

/* What the search's callback needs. */
struct prove_cb {
	struct ilp_prove *pv;	/* the run */
	double *prio;		/* ilp_branch_prio's */
	const double *start;	/* to offer at the first GLP_IHEUR, or NULL once offered */
	long base;		/* nodes of the trees before this one */
	long limit;		/* this tree's nodes at most; 0: none */
};

static void prove_callback(glp_tree *T, void *info)
{
	struct prove_cb *cb = info;
	struct ilp_prove *pv = cb->pv;
	int total;

	glp_ios_tree_size(T, NULL, NULL, &total);
	pv->nodes = cb->base + total;
	prove_pace(pv);
	if (prove_stopping(pv) || (cb->limit > 0 && total >= cb->limit)) {
		take_bound(T, pv);
		glp_ios_terminate(T);
		return;
	}
	switch (glp_ios_reason(T)) {
	case GLP_IHEUR:
		if (cb->start) {
			glp_ios_heur_sol(T, cb->start);
			cb->start = NULL;
		}
		break;
	case GLP_IBRANCH:
		ilp_branch_pick(T, cb->prio);
		break;
	case GLP_ISELECT:
		take_bound(T, pv);
		break;
	default:
		break;
	}
}

/*
 * Nodes of the tree without the node patterns before the tree with them
 * (ilp_prove_run): enough for it to end on the plans the patterns'
 * tree would not find.
 */
#define PLAIN_NODES 2000

/* Rounds of MIR cuts at the root (each round one LP solve); the node limit's runs do them all. */
#define MIR_ROUNDS 5

/* The row being cut: its entries, and the cut built from them. */
struct mir_row {
	int *ind;		/* [1 .. len]: the row's columns */
	double *val;		/* [1 .. len]: their coefficients */
	int len;
	int *cind;		/* [1 .. n]: the cut's columns */
	double *cval;		/* [1 .. n]: its coefficients */
};

/*
 * C when row r reads sum a_i x_i - C sum y_j <= rhs with every x_i
 * continuous in [0, u_i] (u_i finite, a_i > 0) and every y_j integer
 * (same C > 0); else 0.
 */
static double mir_shape(glp_prob *P, const struct mir_row *r)
{
	double C = 0;
	int t;

	for (t = 1; t <= r->len; t++) {
		int j = r->ind[t], type = glp_get_col_type(P, j);
		if (glp_get_col_kind(P, j) == GLP_IV) {
			if (r->val[t] >= 0 || (C > 0 && fabs(C + r->val[t]) > 1e-9 * C))
				return 0;
			C = -r->val[t];
		} else if (r->val[t] <= 0 || (type != GLP_DB && type != GLP_FX) || glp_get_col_lb(P, j) != 0) {
			return 0;
		}
	}
	return C;
}

/*
 * The MIR cut of row `row` (shape: mir_shape, C) over the continuous
 * columns chosen by sel (0: those the LP uses, 1: those at their upper
 * bound, 2: those at half of it or more), never a fixed one (on a sifted
 * copy the arcs outside the working set are fixed at 0 but free in the
 * model: their bound there is not 0), added to P when the LP
 * solution violates it.  The columns S chosen satisfy sum_S a_i x_i <= C Y
 * (Y = sum y_j, a whole number; the rest of the row is >= 0).  With
 * b = sum_S a_i u_i, beta = (b - rhs) / C and f its fraction, C Y +
 * sum_S a_i (u_i - x_i) >= b - rhs is MIR-rounded into
 * sum_S a_i x_i - C f Y <= b - C f ceil(beta).  Returns 1 when added.
 */
static int mir_cut(glp_prob *P, int row, double C, int sel, struct mir_row *r)
{
	double b = 0, lhs = 0, beta, f, rhs;
	int t, n = 0;

	for (t = 1; t <= r->len; t++) {
		int j = r->ind[t];
		double x = glp_get_col_prim(P, j), u = glp_get_col_ub(P, j);
		if (glp_get_col_kind(P, j) == GLP_IV || (sel == 0 && x <= 1e-9) || (sel == 1 && x < u - 1e-9) ||
		    (sel == 2 && x < 0.5 * u) || glp_get_col_type(P, j) == GLP_FX)
			continue;
		n++;
		r->cind[n] = j;
		r->cval[n] = r->val[t];
		b += r->val[t] * u;
		lhs += r->val[t] * x;
	}
	beta = (b - glp_get_row_ub(P, row)) / C;
	f = beta - floor(beta);
	if (!n || f < 1e-6 || f > 1 - 1e-6)
		return 0;
	rhs = b - C * f * ceil(beta);
	for (t = 1; t <= r->len; t++)
		if (glp_get_col_kind(P, r->ind[t]) == GLP_IV) {
			n++;
			r->cind[n] = r->ind[t];
			r->cval[n] = -C * f;
			lhs -= C * f * glp_get_col_prim(P, r->ind[t]);
		}
	if (lhs <= rhs + 1e-6 * (1 + fabs(rhs)))
		return 0;
	t = glp_add_rows(P, 1);
	glp_set_row_bnds(P, t, GLP_UP, 0, rhs);
	glp_set_mat_row(P, t, n, r->cind, r->cval);
	return 1;
}

/*
 * Up to MIR_ROUNDS rounds of MIR cuts (mir_cut) on the rows of the
 * model (the cuts are not cut again), the LP solved again after each;
 * stops early when a round adds none.  Returns 0, or -1 when an LP solve
 * did not end optimal (out of time: the search is not worth starting).
 */
static int mir_rounds(glp_prob *P, double deadline)
{
	int nrows = glp_get_num_rows(P), ncols = glp_get_num_cols(P), round, i, ret = 0;
	struct mir_row r;
	glp_smcp sm;

	glp_init_smcp(&sm);
	sm.msg_lev = GLP_MSG_OFF;
	sm.meth = GLP_DUALP; /* the cuts leave the basis dual feasible */
	r.ind = xcalloc((size_t)ncols + 1, sizeof(*r.ind));
	r.cind = xcalloc((size_t)ncols + 1, sizeof(*r.cind));
	r.val = xcalloc((size_t)ncols + 1, sizeof(*r.val));
	r.cval = xcalloc((size_t)ncols + 1, sizeof(*r.cval));
	for (round = 0; round < MIR_ROUNDS && !ret; round++) {
		int added = 0;
		for (i = 1; i <= nrows; i++) {
			double C;
			int sel;
			if (glp_get_row_type(P, i) != GLP_UP)
				continue;
			r.len = glp_get_mat_row(P, i, r.ind, r.val);
			C = mir_shape(P, &r);
			for (sel = 0; C > 0 && sel < 3; sel++)
				if (mir_cut(P, i, C, sel, &r)) {
					added++;
					break;
				}
		}
		if (!added)
			break;
		sm.tm_lim = ilp_ms_left(deadline);
		if (!sm.tm_lim || glp_simplex(P, &sm) || glp_get_status(P) != GLP_OPT)
			ret = -1;
	}
	free(r.ind);
	free(r.cind);
	free(r.val);
	free(r.cval);
	return ret;
}

/*
 * The branch-and-bound on q->P, whose LP is solved, from start (or
 * none), limit nodes at most (0: none); the bound into pv, its plan
 * into pv->x[tree], its nodes added to pv->nodes.
 */
static void prove_search(struct ilp_prove *pv, const struct ilp_ctx *q, int tree, const double *start, long limit)
{
	struct prove_cb cb;
	glp_iocp iocp;
	int ret;

	cb.pv = pv;
	cb.prio = ilp_branch_prio(q);
	cb.start = start;
	cb.base = pv->nodes;
	cb.limit = limit;
	glp_init_iocp(&iocp);
	iocp.presolve = GLP_OFF;
	iocp.msg_lev = GLP_MSG_OFF;
	iocp.bt_tech = GLP_BT_BLB;
	/*
	 * GLPK's MIR cuts (aggregated rows, not only the single rows of
	 * mir_rounds) in the first tree, the copy without the node patterns:
	 * on tight fleets they bound how many replicas must stay unplaced,
	 * which lifts the bound close to the optimum.  Not in the second
	 * tree: there they cost the nodes that find and prove plans
	 * (docs/benchmarks.md, "MIR cuts in the bound search").
	 */
	iocp.mir_cuts = tree == 0 ? GLP_ON : GLP_OFF;
	iocp.tm_lim = ilp_ms_left(pv->deadline);
	iocp.cb_func = prove_callback;
	iocp.cb_info = &cb;
	if (iocp.tm_lim) {
		int st, j;
		ret = glp_intopt(q->P, &iocp);
		st = glp_mip_status(q->P);
		if (ret == 0 && st == GLP_OPT && (!pv->have_bound || glp_mip_obj_val(q->P) > pv->bound)) {
			/* the whole tree: its best plan is the copy's optimum */
			pv->bound = glp_mip_obj_val(q->P);
			pv->have_bound = 1;
		}
		if ((st == GLP_OPT || st == GLP_FEAS) && q->cl.ncols > 0) {
			/* the model's columns come first (ilp_build; the patterns' follow) */
			double *x = xmalloc(((size_t)q->cl.ncols + 1) * sizeof(*x));
			free(pv->x[tree]);
			pv->x[tree] = x;
			x[0] = 0;
			for (j = 1; j <= q->cl.ncols; j++)
				x[j] = glp_mip_col_val(q->P, j);
			pv->x_obj[tree] = glp_mip_obj_val(q->P);
		}
	}
	free(cb.prio);
}

/*
 * A model too large to branch on whole (ilp_root_sifts): its LP with the
 * cuts, by sifting.  The arcs outside the working set are fixed at 0, so
 * the cuts leave them out (the rest of a row is >= 0 whatever they do),
 * and after the cuts every arc is priced again with the duals of every
 * row: the LP optimum is then that of the whole model with the node key
 * rows and the cuts, a bound of every plan.  No branching: a tree on the
 * working set would bound a restriction, not the model.
 */
static void prove_sifted(struct ilp_prove *pv, struct ilp_ctx *q)
{
	char *in_set = xcalloc(pv->p->narcs + 1, 1);
	int rounds = 0, code = 0;

	q->deadline = pv->deadline;
	if (ilp_root_lp(q, pv->start, in_set, &rounds, &code) == LP_OPTIMAL && !mir_rounds(q->P, pv->deadline) &&
	    ilp_sift(q, in_set, 0, &rounds, &code) == LP_OPTIMAL) {
		pv->bound = glp_get_obj_val(q->P);
		pv->have_bound = 1;
	}
	free(in_set);
}

/*
 * The bound search's copy of the model: the whole model with the node
 * key sets' CPU and RAM rows and, with patterns set, the single-GPU
 * classes' node patterns (ilp_pattern.c), into q.  Returns the
 * configurations given patterns.  All of these rows hold for every
 * concrete plan.
 */
static size_t prove_copy(const struct ilp_prove *pv, struct ilp_ctx *q, int patterns)
{
	memset(q, 0, sizeof(*q));
	q->p = pv->p;
	q->P = glp_create_prob();
	ilp_build(q->P, pv->p, pv->ix, &q->cl);
	ilp_key_res_all(q->P, pv->p, pv->ix, &q->cl);
	return patterns ? ilp_pattern_rows(q->P, pv->p, pv->ix, &q->cl) : 0;
}

static void prove_copy_free(const struct ilp_prove *pv, struct ilp_ctx *q)
{
	ilp_cols_free(pv->p, &q->cl);
	glp_delete_prob(q->P);
}

/* The tree on q (tree 0 or 1: pv->x[tree]) from start, limit nodes at most, once its root LP and cuts are solved. */
static void prove_tree(struct ilp_prove *pv, const struct ilp_ctx *q, int tree, const double *start, long limit)
{
	int code = 0;

	if (ilp_simplex(q->P, 1, 0, pv->deadline, &code) == LP_OPTIMAL && !mir_rounds(q->P, pv->deadline))
		prove_search(pv, q, tree, start, limit);
}

/*
 * The tree on qp, the copy with the node patterns, after the tree
 * without them (ilp_prove_run), with what is left of the node limit;
 * the start is offered with the pattern columns at 0 (its cost is a
 * plan's: it only prunes).
 */
static void prove_patterns(struct ilp_prove *pv, const struct ilp_ctx *qp, long limit)
{
	double *start = NULL;

	if (limit && pv->nodes >= limit)
		return;
	if (pv->start) {
		start = xcalloc((size_t)glp_get_num_cols(qp->P) + 1, sizeof(*start));
		memcpy(start, pv->start, ((size_t)qp->cl.ncols + 1) * sizeof(*start));
	}
	prove_tree(pv, qp, 1, start, limit ? limit - pv->nodes : 0);
	free(start);
}

void ilp_prove_run(struct ilp_prove *pv)
{
	struct ilp_ctx qp, q;
	long limit = pv->node_limit;
	size_t npat = prove_copy(pv, &qp, 1);

	if (ilp_root_sifts(pv->p)) {
		prove_sifted(pv, &qp);
	} else if (!npat) {
		prove_tree(pv, &qp, 0, pv->start, limit);	/* no patterns: qp is the copy without them, one tree */
	} else {
		/* first without the patterns, PLAIN_NODES at most: its tree is faster, and finds plans sooner */
		prove_copy(pv, &q, 0);
		prove_tree(pv, &q, 0, pv->start, limit && limit < PLAIN_NODES ? limit : PLAIN_NODES);
		prove_copy_free(pv, &q);
		if (!prove_stopping(pv) && ilp_ms_left(pv->deadline) > 0)
			prove_patterns(pv, &qp, limit);
	}
	prove_copy_free(pv, &qp);
}

/* Set on the thread that calls ilp_prove_start while it starts the job: par_start may run it there. */
static _Thread_local int starting;

static void prove_job(void *ctx, size_t j)
{
	struct ilp_prove *pv = ctx;

	(void)j;
	ilp_glpk_thread_hook(0);
	pv->beside = !starting;
	pv->pace_wall = pv->mark = util_now_s();
	pv->pace_cpu = util_thread_cpu_s();
	ilp_prove_run(pv);
}

void ilp_prove_start(struct ilp_prove *pv)
{
	starting = 1;
	pv->task = par_start(prove_job, pv, ilp_glpk_thread_end);
	starting = 0;
}

void ilp_prove_rounded(struct ilp_prove *pv)
{
	atomic_store(&pv->rounded, 1);
}

atomic_int *ilp_prove_hold(struct ilp_prove *pv)
{
	atomic_store(&pv->hold, 1);
	return &pv->hold;
}

void ilp_prove_free(struct ilp_prove *pv)
{
	free(pv->x[0]);
	free(pv->x[1]);
	pv->x[0] = pv->x[1] = NULL;
}

void ilp_prove_wait(struct ilp_prove *pv)
{
	atomic_store(&pv->stop, 1);
	par_wait(pv->task);
	pv->task = NULL;
}

void ilp_prove_finish(struct ilp_prove *pv, double enough, double by)
{
	pv->enough = enough;
	pv->finish_by = by;
	atomic_store(&pv->finish, 1);
	par_wait(pv->task);
	pv->task = NULL;
}

void ilp_prove_until(struct ilp_prove *pv, double enough, double by)
{
	pv->enough = enough;
	pv->finish_by = by;
	if (by < pv->deadline)
		pv->deadline = by;
	atomic_store(&pv->finish, 1);
	ilp_prove_run(pv);
}
