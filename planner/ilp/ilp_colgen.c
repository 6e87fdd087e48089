/*
 * ilp_colgen.c - the node-pattern model by column generation.
 *
 * The aggregated model sums CPU and RAM over a (class, mode)'s nodes, so
 * its plans can need more than one node has, and its bound misses what
 * single nodes cannot hold.  Here a column is one whole node, a solution
 * of its class's one-node model (ilp_one_node.h: the class's rows with one
 * node, integer replicas), and the master (every class at once) is
 *
 *   min sum_p cost_p lam_p + sum_d pen_d U_d
 *   s.t. sum_p held_dp lam_p + U_d >= replicas_d   (demand d; dual pi_d >= 0)
 *        sum_{p of k} lam_p <= count_k             (class k; dual mu_k <= 0)
 *
 * Every concrete plan is a solution of it in whole numbers (its nodes'
 * patterns, its unplaced replicas), and its cost is the model's
 * objective, which is a sum over nodes (node, configuration and arc
 * costs) and the penalties.  The master leaves out the spread and
 * availability caps' rows across nodes and sites: it is a relaxation.
 *
 * Pricing: class k's one-node model with each arc's cost less its
 * demand's dual; its optimum v_k less mu_k is the least reduced cost of
 * a pattern of k.  Columns join while some is negative, from the start
 * plan's nodes on.  For any duals pi (dual feasible: pi_d <= pen_d),
 * sum_d pi_d replicas_d + sum_k count_k min(0, v_k) is a Lagrangian lower
 * bound on the master over every pattern, so on every concrete plan; it
 * is valid with any lower bound of v_k (the pricing MIP's optimum when
 * proven, else its root LP).  When every class's pricing is proven and
 * none prices out, it is the restricted master's LP value.
 *
 * The integer master over the columns generated (price-and-branch: no
 * pricing in the tree) gives whole nodes, each a pattern the one-node
 * model accepts, so they are built as they are (cplan_from_counts_on)
 * and lose nothing to the deal.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_colgen.h"
#include "ilp_glpk.h"
#include "ilp_one_node.h"
#include "banned.h"

/* One run's state: the master, the classes' one-node models and their own costs. */
struct cg_run {
	struct ilp_colgen *cg;
	const struct problem *p;
	const struct arcidx *ix;
	struct ilp_one_node *on;	/* [k]; S NULL: the class has no arc */
	double **obj0;			/* [k][col]: the one-node model's costs */
	glp_prob *M;
	int *dem_row, *cnt_row;		/* [d], [k] */
	double *pi;			/* [d]: the demand rows' duals */
};

void ilp_colgen_init(struct ilp_colgen *cg, double deadline)
{
	memset(cg, 0, sizeof(*cg));
	cg->deadline = deadline;
	cg->max_iters = COLGEN_ITERS;
	cg->price_nodes = COLGEN_PRICE_NODES;
	cg->int_nodes = COLGEN_INT_NODES;
	cg->bound = -HUGE_VAL;
	cg->int_obj = HUGE_VAL;
}

void ilp_colgen_free(struct ilp_colgen *cg)
{
	size_t i;
	for (i = 0; i < cg->ncols; i++) {
		free(cg->cols[i].x);
		free(cg->cols[i].held);
	}
	free(cg->cols);
	free(cg->use);
	cg->cols = NULL;
	cg->use = NULL;
	cg->ncols = cg->cap = 0;
}

/* The one-node models of the classes with arcs, and their costs. */
static void run_open(struct cg_run *r, struct ilp_colgen *cg, const struct problem *p, const struct arcidx *ix)
{
	size_t k;
	int j;

	memset(r, 0, sizeof(*r));
	r->cg = cg;
	r->p = p;
	r->ix = ix;
	r->on = xcalloc(p->nclasses + 1, sizeof(*r->on));
	r->obj0 = xcalloc(p->nclasses + 1, sizeof(*r->obj0));
	r->dem_row = xcalloc(p->ndemands + 1, sizeof(*r->dem_row));
	r->cnt_row = xcalloc(p->nclasses + 1, sizeof(*r->cnt_row));
	r->pi = xcalloc(p->ndemands + 1, sizeof(*r->pi));
	for (k = 0; k < p->nclasses; k++) {
		if (ix->kstart[k] == ix->kstart[k + 1])
			continue;
		ilp_one_node_build(p, ix, k, &r->on[k]);
		r->obj0[k] = xcalloc((size_t)r->on[k].nc + 1, sizeof(**r->obj0));
		for (j = 1; j <= r->on[k].nc; j++)
			r->obj0[k][j] = glp_get_obj_coef(r->on[k].S, j);
	}
}

static void run_close(struct cg_run *r)
{
	size_t k;
	for (k = 0; k < r->p->nclasses; k++)
		if (r->on[k].S) {
			ilp_one_node_free(r->p, &r->on[k]);
			free(r->obj0[k]);
		}
	free(r->on);
	free(r->obj0);
	free(r->dem_row);
	free(r->cnt_row);
	free(r->pi);
	if (r->M)
		glp_delete_prob(r->M);
}

/* The master's rows and its unplaced columns; no pattern yet. */
static void master_open(struct cg_run *r)
{
	const struct problem *p = r->p;
	size_t d, k;
	int ind[2];
	double val[2] = { 0, 1 };

	r->M = glp_create_prob();
	glp_set_obj_dir(r->M, GLP_MIN);
	for (d = 0; d < p->ndemands; d++) {
		int u;
		r->dem_row[d] = glp_add_rows(r->M, 1);
		glp_set_row_bnds(r->M, r->dem_row[d], GLP_LO, (double)p->demands[d].replicas, 0);
		u = glp_add_cols(r->M, 1);
		glp_set_col_bnds(r->M, u, GLP_LO, 0, 0);
		glp_set_obj_coef(r->M, u, p->demands[d].solve_penalty);
		ind[1] = r->dem_row[d];
		glp_set_mat_col(r->M, u, 1, ind, val);
	}
	for (k = 0; k < p->nclasses; k++) {
		r->cnt_row[k] = glp_add_rows(r->M, 1);
		glp_set_row_bnds(r->M, r->cnt_row[k], GLP_UP, 0, (double)p->classes[k].nc->count);
	}
}

/*
 * Adds x (class k's one-node model's values, 1-based; taken) as a
 * column, unless the same pattern is one already; returns its index
 * (cg->ncols - 1 when it is new).
 */
static size_t add_col(struct cg_run *r, size_t k, double *x)
{
	struct ilp_colgen *cg = r->cg;
	const struct problem *p = r->p;
	const struct ilp_one_node *on = &r->on[k];
	struct cg_col *c;
	size_t i, a, n = 0;
	int j, *ind = xcalloc(p->ndemands + 2, sizeof(*ind));
	double *val = xcalloc(p->ndemands + 2, sizeof(*val));

	for (j = 1; j <= on->nc; j++)
		x[j] = round(x[j]);	/* integer columns of a MIP solution, or counts */
	for (i = 0; i < cg->ncols; i++)
		if (cg->cols[i].k == k && !memcmp(cg->cols[i].x + 1, x + 1, (size_t)on->nc * sizeof(*x))) {
			free(x);
			free(ind);
			free(val);
			return i;
		}
	XGROW(cg->cols, cg->cap, cg->ncols + 1);
	c = &cg->cols[cg->ncols];
	memset(c, 0, sizeof(*c));
	c->k = k;
	c->x = x;
	c->held = xcalloc(p->ndemands + 1, sizeof(*c->held));
	for (j = 1; j <= on->nc; j++)
		c->cost += r->obj0[k][j] * x[j];
	for (a = r->ix->kstart[k]; a < r->ix->kstart[k + 1]; a++) {
		size_t arc = r->ix->byk[a];
		c->held[p->arcs[arc].d] += lround(x[on->lc.arc[arc]]);
	}
	for (i = 0; i < p->ndemands; i++)
		if (c->held[i] > 0) {
			ind[++n] = r->dem_row[i];
			val[n] = (double)c->held[i];
		}
	ind[++n] = r->cnt_row[k];
	val[n] = 1;
	j = glp_add_cols(r->M, 1);
	glp_set_col_bnds(r->M, j, GLP_LO, 0, 0);
	glp_set_obj_coef(r->M, j, c->cost);
	glp_set_mat_col(r->M, j, (int)n, ind, val);
	free(ind);
	free(val);
	return cg->ncols++;
}

/* Start plan s's nodes (cp) as columns (start_use[s]: how many of each). */
static void start_cols(struct cg_run *r, const struct cplan *cp, size_t s)
{
	const struct problem *p = r->p;
	double **xs = xcalloc(cp->nnodes + 1, sizeof(*xs));
	size_t nd, sl;
	int g;

	for (nd = 0; nd < cp->nnodes; nd++) {
		const struct cnode *node = &cp->nodes[nd];
		const struct ilp_one_node *on = &r->on[node->k];
		size_t k = (size_t)node->k;
		if (!on->S)
			continue;
		xs[nd] = xcalloc((size_t)on->nc + 1, sizeof(**xs));
		xs[nd][on->lc.n[k * MODE_COUNT + (size_t)node->mode]] = 1;
		if (on->lc.agg[2 * k])
			xs[nd][on->lc.agg[2 * k]] = 1;
		if (node->pattern >= 0)
			xs[nd][on->lc.g[k][node->pattern]] = 1;
		else if (node->mode != MODE_PASSTHROUGH)
			for (g = 0; g < p->classes[k].nc->gpus_per_node; g++)
				if (node->gpu_config[g] >= 0)
					xs[nd][on->lc.g[k][node->gpu_config[g]]]++;
	}
	for (sl = 0; sl < cp->nslots; sl++) {
		size_t i = cplan_slot_arc(cp, sl), node = (size_t)cp->slots[sl].node;
		if (i != (size_t)-1 && xs[node])
			xs[node][r->on[cp->nodes[node].k].lc.arc[i]]++;
	}
	for (nd = 0; nd < cp->nnodes; nd++)
		if (xs[nd]) {
			size_t i = add_col(r, (size_t)cp->nodes[nd].k, xs[nd]);	/* add_col moves cols */
			r->cg->cols[i].start_use[s]++;
		}
	free(xs);
	r->cg->nstart = r->cg->ncols;
}

/* The master's LP; 0 when solved to its optimum, the duals in r->pi. */
static int master_lp(struct cg_run *r)
{
	glp_smcp sm;
	size_t d;

	glp_init_smcp(&sm);
	sm.msg_lev = GLP_MSG_OFF;
	sm.tm_lim = ilp_ms_left(r->cg->deadline);
	if (sm.tm_lim <= 0 || glp_simplex(r->M, &sm) || glp_get_status(r->M) != GLP_OPT)
		return -1;
	for (d = 0; d < r->p->ndemands; d++)
		r->pi[d] = glp_get_row_dual(r->M, r->dem_row[d]);
	r->cg->lp = glp_get_obj_val(r->M);
	return 0;
}

/* A MIP's node budget (budget_cb's info). */
struct cg_budget {
	int nodes;
	const double *start;	/* offered at the first heuristic call; NULL: none, or offered */
};

static void budget_cb(glp_tree *T, void *info)
{
	struct cg_budget *b = info;
	int total;

	if (glp_ios_reason(T) == GLP_IHEUR && b->start) {
		glp_ios_heur_sol(T, b->start);
		b->start = NULL;
	}
	glp_ios_tree_size(T, NULL, NULL, &total);
	if (total >= b->nodes)
		glp_ios_terminate(T);
}

/* Solves S as a MIP within budget; 1: proven optimal, 0: a solution, -1: none.  *lp: its root LP. */
static int solve_mip(glp_prob *S, const struct cg_budget *budget, double deadline, double *lp)
{
	struct cg_budget b = *budget;
	glp_smcp sm;
	glp_iocp io;
	int ret, st;

	glp_init_smcp(&sm);
	sm.msg_lev = GLP_MSG_OFF;
	sm.tm_lim = ilp_ms_left(deadline);
	if (sm.tm_lim <= 0 || glp_simplex(S, &sm) || glp_get_status(S) != GLP_OPT)
		return -1;
	*lp = glp_get_obj_val(S);
	glp_init_iocp(&io);
	io.msg_lev = GLP_MSG_OFF;
	io.tm_lim = ilp_ms_left(deadline);
	io.cb_func = budget_cb;
	io.cb_info = &b;
	ret = glp_intopt(S, &io);
	st = glp_mip_status(S);
	if (st != GLP_OPT && st != GLP_FEAS)
		return -1;
	return ret == 0 && st == GLP_OPT;
}

/*
 * Prices class k at the duals: adds its best pattern when its reduced
 * cost is negative.  *lb: a proven lower bound of k's least cost less
 * duals (v_k); returns 1 when a column joined, 0 when none prices out
 * and that is proven, 2 when none joined unproven, -1 when not priced.
 */
static int price_class(struct cg_run *r, size_t k, double *lb)
{
	const struct ilp_one_node *on = &r->on[k];
	const struct problem *p = r->p;
	struct cg_budget b = { r->cg->price_nodes, NULL };
	double mu = glp_get_row_dual(r->M, r->cnt_row[k]), lp = 0, v, *x;
	size_t a, n = r->cg->ncols;
	int proven, j;

	for (a = r->ix->kstart[k]; a < r->ix->kstart[k + 1]; a++) {
		size_t i = r->ix->byk[a];
		int col = on->lc.arc[i];
		glp_set_obj_coef(on->S, col, r->obj0[k][col] - r->pi[p->arcs[i].d]);
	}
	proven = solve_mip(on->S, &b, r->cg->deadline, &lp);
	if (proven < 0)
		return -1;
	v = glp_mip_obj_val(on->S);
	*lb = proven ? v : lp;
	if (v - mu >= -1e-9 * (1 + fabs(v) + fabs(mu)))
		return proven ? 0 : 2;
	x = xcalloc((size_t)on->nc + 1, sizeof(*x));
	for (j = 1; j <= on->nc; j++)
		x[j] = glp_mip_col_val(on->S, j);
	/*
	 * A pattern the master has already is priced out by the LP's own
	 * tolerances: its reduced cost is 0 within them, so none is new.
	 */
	if (add_col(r, k, x) < n)
		return proven ? 0 : 2;
	return 1;
}

/* One pricing round over every class; 1 when a column joined, 0 none, -1 cut short. */
static int price_round(struct cg_run *r)
{
	const struct problem *p = r->p;
	double lagr = 0, lb;
	size_t k, d;
	int added = 0, proven = 1, got;

	for (d = 0; d < p->ndemands; d++)
		lagr += r->pi[d] * (double)p->demands[d].replicas;
	for (k = 0; k < p->nclasses; k++) {
		if (!r->on[k].S)
			continue;
		got = price_class(r, k, &lb);
		if (got < 0)
			return -1;
		added |= got == 1;
		proven &= got == 0;
		lagr += (double)p->classes[k].nc->count * fmin(0, lb);
	}
	if (lagr > r->cg->bound)
		r->cg->bound = lagr;
	r->cg->proven = proven;
	return added;
}

/* Start plan s as a solution of the master (1-based, its columns); returns its objective. */
static double start_vector(const struct cg_run *r, size_t s, double *x)
{
	const struct ilp_colgen *cg = r->cg;
	const struct problem *p = r->p;
	double placed, obj = 0;
	size_t d, i;

	for (d = 0; d < p->ndemands; d++) {	/* columns 1..ndemands: the unplaced */
		for (placed = 0, i = 0; i < cg->ncols; i++)
			placed += (double)(cg->cols[i].start_use[s] * cg->cols[i].held[d]);
		x[d + 1] = fmax(0, (double)p->demands[d].replicas - placed);
		obj += x[d + 1] * p->demands[d].solve_penalty;
	}
	for (i = 0; i < cg->ncols; i++) {
		x[p->ndemands + 1 + i] = (double)cg->cols[i].start_use[s];
		obj += x[p->ndemands + 1 + i] * cg->cols[i].cost;
	}
	return obj;
}

/* The integer master over the columns, from the cheapest start plan; into cg->use. */
static void master_int(struct cg_run *r, size_t nstarts)
{
	struct ilp_colgen *cg = r->cg;
	const struct problem *p = r->p;
	int n = glp_get_num_cols(r->M), j;
	double *start = xcalloc((size_t)n + 1, sizeof(*start)), *other = xcalloc((size_t)n + 1, sizeof(*other)), lp;
	struct cg_budget b = { cg->int_nodes, start };
	size_t i, s;
	int got;

	cg->start_obj = start_vector(r, 0, start);
	for (s = 1; s < nstarts; s++) {
		double o = start_vector(r, s, other);
		if (o < cg->start_obj) {
			cg->start_obj = o;
			memcpy(start, other, ((size_t)n + 1) * sizeof(*start));
		}
	}
	free(other);
	for (i = 0; i < cg->ncols; i++)
		glp_set_col_kind(r->M, (int)(p->ndemands + 1 + i), GLP_IV);
	got = solve_mip(r->M, &b, cg->deadline, &lp);
	free(start);
	if (got < 0)
		return;
	cg->int_optimal = got == 1;
	cg->int_obj = glp_mip_obj_val(r->M);
	cg->use = xcalloc(cg->ncols + 1, sizeof(*cg->use));
	for (i = 0; i < cg->ncols; i++)
		cg->use[i] = lround(glp_mip_col_val(r->M, (int)(p->ndemands + 1 + i)));
	for (cg->unplaced = 0, j = 1; j <= (int)p->ndemands; j++)
		cg->unplaced += glp_mip_col_val(r->M, j);
}

/*
 * The share of the time to the deadline the generation may use: the
 * integer master after it needs the rest (past the deadline it has no
 * time at all, and no plan).
 */
#define COLGEN_GEN_SHARE 0.5

/*
 * Generates columns until none prices out (or the cap, or COLGEN_GEN_SHARE
 * of the time to the deadline); 0, or -1 when the master failed.
 */
static int generate(struct cg_run *r, int max_iters)
{
	struct ilp_colgen *cg = r->cg;
	double t0 = util_now_s(), by = isinf(cg->deadline) ? cg->deadline : t0 + COLGEN_GEN_SHARE * (cg->deadline - t0);
	int got = 1, iters = 0;

	while (got == 1) {
		if (master_lp(r))
			return -1;
		cg->proven = 0;
		if (iters >= max_iters || util_now_s() >= by)
			break;
		got = price_round(r);
		iters++;
		cg->iters++;
	}
	return 0;
}

int ilp_colgen_run(struct ilp_colgen *cg, const struct problem *p, const struct arcidx *ix,
		   const struct cplan *const *starts, size_t nstarts)
{
	struct cg_run r;
	int rc;
	size_t s;
	double t0 = util_now_s();

	if (nstarts > COLGEN_STARTS)
		nstarts = COLGEN_STARTS;
	run_open(&r, cg, p, ix);
	master_open(&r);
	for (s = 0; s < nstarts; s++)
		start_cols(&r, starts[s], s);
	rc = generate(&r, cg->max_iters);
	if (!rc && cg->proven && cg->lp > cg->bound)
		cg->bound = cg->lp;
	cg->t_gen = util_now_s() - t0;
	if (!rc)
		master_int(&r, nstarts);
	run_close(&r);
	return rc;
}

int ilp_colgen_raise(const struct ilp_colgen *cg, struct ilp_result *r, double mip_gap)
{
	int plan = r->status == ILP_OPTIMAL || r->status == ILP_FEASIBLE;
	double b = cg->bound, had = fmax(r->bound, r->lp_bound);

	if (plan && b > r->objective)
		b = r->objective;	/* above a plan's objective only by the tolerances */
	if (!isfinite(b) || b <= had)
		return 0;
	r->bound = b;
	if (plan) {
		ilp_result_gap(r);
		ilp_result_proven(r, mip_gap);
	}
	return 1;
}

/*
 * Column c as a node of class c->k (r zeroed, filled), holding at most
 * want[d] replicas of each demand d (want less what it takes).
 */
static void col_recipe(const struct problem *p, const struct arcidx *ix, const struct ilp_one_node *on,
		       const struct cg_col *c, long *want, struct cplan_recipe *r)
{
	const struct pclass *pc = &p->classes[c->k];
	size_t k = c->k, ci, a;
	int m;

	r->k = (int)k;
	r->pattern = -1;
	for (m = 0; m < MODE_COUNT; m++) {
		int col = on->lc.n[k * MODE_COUNT + (size_t)m];
		if (col && c->x[col] > 0.5)
			r->mode = (enum gpu_mode)m;
	}
	r->cfg = xcalloc((size_t)pc->nc->gpus_per_node + 1, sizeof(*r->cfg));
	for (ci = 0; ci < pc->nconfigs; ci++) {
		long v = lround(c->x[on->lc.g[k][ci]]);
		if (v > 0 && pc->configs[ci].node_pattern)
			r->pattern = (int)ci;
		else
			for (; v > 0 && r->ncfg < pc->nc->gpus_per_node; v--)
				r->cfg[r->ncfg++] = (int)ci;
	}
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		size_t i = ix->byk[a];
		long v = lround(c->x[on->lc.arc[i]]);
		int d = p->arcs[i].d;
		if (v > want[d])
			v = want[d];
		if (v <= 0)
			continue;
		want[d] -= v;
		r->rep_d = xrealloc(r->rep_d, ((size_t)r->nrep + (size_t)v) * sizeof(*r->rep_d));
		r->rep_s = xrealloc(r->rep_s, ((size_t)r->nrep + (size_t)v) * sizeof(*r->rep_s));
		for (; v > 0; v--) {
			r->rep_d[r->nrep] = d;
			r->rep_s[r->nrep++] = p->arcs[i].s;
		}
	}
}

void ilp_colgen_plan(const struct ilp_colgen *cg, const struct problem *p, const struct arcidx *ix, struct cplan *cp)
{
	struct ilp_one_node *on = xcalloc(p->nclasses + 1, sizeof(*on));
	long *want = xcalloc(p->ndemands + 1, sizeof(*want)), *nmode = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*nmode));
	long **ncfg = xcalloc(p->nclasses + 1, sizeof(*ncfg));
	double *arc = xcalloc(p->narcs + 1, sizeof(*arc));
	struct cplan_recipe *rec = NULL;
	size_t nrec = 0, cap = 0, i, k;
	long u;

	for (i = 0; i < p->ndemands; i++)
		want[i] = p->demands[i].replicas;
	for (k = 0; k < p->nclasses; k++)
		ncfg[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**ncfg));
	for (i = 0; cg->use && i < cg->ncols; i++) {
		const struct cg_col *c = &cg->cols[i];
		if (cg->use[i] > 0 && !on[c->k].S)
			ilp_one_node_build(p, ix, c->k, &on[c->k]);
		for (u = 0; u < cg->use[i]; u++) {
			XGROW(rec, cap, nrec + 1);
			memset(&rec[nrec], 0, sizeof(*rec));
			col_recipe(p, ix, &on[c->k], c, want, &rec[nrec++]);
		}
	}
	cplan_from_counts_on(cp, rec, nrec, nmode, ncfg, arc);
	for (i = 0; i < nrec; i++)
		cplan_recipe_free(&rec[i]);
	for (k = 0; k < p->nclasses; k++) {
		if (on[k].S)
			ilp_one_node_free(p, &on[k]);
		free(ncfg[k]);
	}
	free(rec);
	free(on);
	free(ncfg);
	free(nmode);
	free(want);
	free(arc);
}
