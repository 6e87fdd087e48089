/*
 * ilp.c - builds the aggregated model, solves it with GLPK, reads back
 * the counts.
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
 *     model, and its value the lower bound.
 *  2. Rounding (relax and fix, on a copy), by class: the classes in
 *     batches, the fullest first (the fewest nodes the LP leaves unused),
 *     so that what a full class cannot take on whole configurations still
 *     finds room in the classes rounded last; each class of a batch gets
 *     its own small MIP (class_mip: its node and configuration counts
 *     that take the replicas the LP gave it, at least cost), its counts
 *     are fixed and the LP re-solved before the next batch.  The replica
 *     flows of the last LP complete an integer plan.  It is then made
 *     concrete (cplan_from_counts: counts dealt over real nodes with
 *     their CPU and RAM, replicas left without a slot put on a free slot,
 *     a new GPU or a new node) and read back; plans are compared made
 *     concrete, because that is what will be reported.  Rounding is done
 *     again up to FEEDBACK_ROUNDS times (or until a round is no cheaper
 *     made concrete than the ones before), each time with the CPU and RAM
 *     the last deal could not use in a (class, mode) taken off its nodes
 *     (struct shrink: in the rounding's copy only; the LP bound never
 *     sees it).  Two such chains of roundings run at once, each with its
 *     own feedback, batching the classes differently (round_chains,
 *     chain_batch).
 *  2b. Polish: the cheapest concrete plan re-solved two classes at a
 *     time (polish), a pair's cheaper plan kept when the whole plan,
 *     made concrete, is cheaper too.  It is offered to the
 *     branch-and-cut as an incumbent next to the warm (greedy) plan.
 *  3. Branch-and-cut (glp_intopt, on the root basis) from the better of
 *     the two, stopped by the relative gap, the time limit (less the time
 *     one deal takes), the node limit or an interrupt.  When sifting left
 *     arcs out, the search runs on the working set: its plans are plans
 *     of the whole model, but its bound is not, so the bound reported is
 *     the whole model's LP bound.  When the incumbent is already within
 *     the gap of the LP bound, the search is skipped.  The search's plan
 *     is made concrete too, and the rounded one stands when that is
 *     cheaper: the objective returned is the concrete plan's.
 *
 * Everything but the time limit is deterministic: with the node limit
 * binding (and the time limit not), two runs give the same plan.  The
 * rounding chains, the class MIPs of a rounding batch and the polish's
 * pair MIPs run on ilp_opts.threads threads (par_run); each writes only
 * its own result and the results are taken in a fixed order, so the plan
 * does not depend on the number of threads.  GLPK keeps one environment
 * per thread.
 */
#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "interrupt.h"
#include "par.h"
#include "util.h"
#include "banned.h"

const char *ilp_status_name(enum ilp_status s)
{
	switch (s) {
	case ILP_OPTIMAL:
		return "optimal";
	case ILP_FEASIBLE:
		return "feasible";
	case ILP_TIME_LIMIT:
		return "time-limit";
	case ILP_NO_PLAN:
		return "no-plan";
	case ILP_SKIPPED:
		return "greedy-only";
	}
	return "?";
}

void ilp_cleanup(void)
{
	glp_free_env();
}

static int term_hook(void *info, const char *s)
{
	(void)info;
	fputs(s, stderr);
	return 1; /* we printed it (or chose not to) */
}

static int silent_hook(void *info, const char *s)
{
	(void)info;
	(void)s;
	return 1;
}

/*
 * GLPK keeps one environment per thread (it is built reentrant, with
 * thread-local storage): a job on a par_run thread sets that thread's
 * terminal hook first, and the thread frees its environment last.
 */
static void glpk_thread_hook(int verbose)
{
	glp_term_hook(verbose ? term_hook : silent_hook, NULL);
}

static void glpk_thread_end(void)
{
	glp_free_env();
}

void ilp_result_alloc(const struct problem *p, struct ilp_result *r)
{
	size_t k;
	r->nmode = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*r->nmode));
	r->ncfg = xcalloc(p->nclasses + 1, sizeof(*r->ncfg));
	for (k = 0; k < p->nclasses; k++)
		r->ncfg[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**r->ncfg));
	r->arc = xcalloc(p->narcs + 1, sizeof(*r->arc));
	r->unplaced = xcalloc(p->ndemands + 1, sizeof(*r->unplaced));
}

void ilp_result_release(const struct problem *p, struct ilp_result *r)
{
	size_t k;
	if (r->ncfg)
		for (k = 0; k < p->nclasses; k++)
			free(r->ncfg[k]);
	free(r->ncfg);
	free(r->nmode);
	free(r->arc);
	free(r->unplaced);
	r->ncfg = NULL;
	r->nmode = NULL;
	r->arc = NULL;
	r->unplaced = NULL;
}

/* Column numbers of the model (1-based, 0 = absent). */
struct cols {
	int *n;			/* [k * MODE_COUNT + m] */
	int **g;		/* [k][config] */
	int *arc;		/* [arc] */
	int *u;			/* [demand] unplaced */
	int *agg;		/* [2k]: NODES_k, [2k + 1]: GPUS_k */
	int *cpu_row, *ram_row;	/* [k * MODE_COUNT + m]: the CPU and RAM rows, 0 = none */
	int ncols;
};

/*
 * CPU and RAM to take off each node of a (class, mode) when rounding
 * ([k * MODE_COUNT + m]): what dealing the last rounded plan over real
 * nodes could not use there.  The LP bound never sees it.
 */
struct shrink {
	double *cpu, *ram;
};

/* One row being assembled; pos maps a column to its place in the row (0: absent). */
struct rowbuf {
	int *ind;
	double *val;
	int len, cap;
	int *pos;		/* [ncols + 1] */
};

static void rb_add(struct rowbuf *rb, int col, double v)
{
	if (!col) /* not in this model */
		return;
	if (rb->pos[col]) {
		rb->val[rb->pos[col]] += v;
		return;
	}
	if (rb->len + 2 > rb->cap) {
		rb->cap = rb->cap ? rb->cap * 2 : 64;
		rb->ind = xrealloc(rb->ind, (size_t)rb->cap * sizeof(*rb->ind));
		rb->val = xrealloc(rb->val, (size_t)rb->cap * sizeof(*rb->val));
	}
	rb->len++;
	rb->ind[rb->len] = col;
	rb->val[rb->len] = v;
	rb->pos[col] = rb->len;
}

static void add_row(glp_prob *P, struct rowbuf *rb, const char *name, int type, double lo, double hi)
{
	int r = glp_add_rows(P, 1), i;
	glp_set_row_name(P, r, name);
	glp_set_row_bnds(P, r, type, lo, hi);
	if (rb->len)
		glp_set_mat_row(P, r, rb->len, rb->ind, rb->val);
	for (i = 1; i <= rb->len; i++)
		rb->pos[rb->ind[i]] = 0;
	rb->len = 0;
}

static void rb_clear(struct rowbuf *rb)
{
	int i;
	for (i = 1; i <= rb->len; i++)
		rb->pos[rb->ind[i]] = 0;
	rb->len = 0;
}

static int add_col(glp_prob *P, const char *name, int integer, double lo, double hi, double cost)
{
	int c = glp_add_cols(P, 1);
	glp_set_col_name(P, c, name);
	if (integer)
		glp_set_col_kind(P, c, GLP_IV);
	glp_set_col_bnds(P, c, hi > lo ? GLP_DB : GLP_FX, lo, hi);
	glp_set_obj_coef(P, c, cost);
	return c;
}

/* Arcs grouped by class, then slot type, then demand: byk[kstart[k] .. kstart[k+1]). */
struct arcidx {
	size_t *byk;
	size_t *kstart;
};

static const struct arc *sort_arcs;

static int arc_ksd_cmp(const void *a, const void *b)
{
	const struct arc *x = &sort_arcs[*(const size_t *)a], *y = &sort_arcs[*(const size_t *)b];
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return 0;
}

static void arcidx_build(struct arcidx *ix, const struct problem *p)
{
	size_t i, k;
	ix->byk = xcalloc(p->narcs + 1, sizeof(*ix->byk));
	ix->kstart = xcalloc(p->nclasses + 2, sizeof(*ix->kstart));
	for (i = 0; i < p->narcs; i++)
		ix->byk[i] = i;
	sort_arcs = p->arcs;
	qsort(ix->byk, p->narcs, sizeof(*ix->byk), arc_ksd_cmp);
	for (i = 0, k = 0; k <= p->nclasses; k++) {
		while (i < p->narcs && p->arcs[ix->byk[i]].k < (int)k)
			i++;
		ix->kstart[k] = i;
	}
	ix->kstart[p->nclasses + 1] = p->narcs;
}

static void arcidx_release(struct arcidx *ix)
{
	free(ix->byk);
	free(ix->kstart);
}

static void cols_alloc(const struct problem *p, struct cols *cl)
{
	size_t k;
	cl->n = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->n));
	cl->g = xcalloc(p->nclasses + 1, sizeof(*cl->g));
	for (k = 0; k < p->nclasses; k++)
		cl->g[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**cl->g));
	cl->arc = xcalloc(p->narcs + 1, sizeof(*cl->arc));
	cl->u = xcalloc(p->ndemands + 1, sizeof(*cl->u));
	cl->agg = xcalloc(2 * p->nclasses + 1, sizeof(*cl->agg));
	cl->cpu_row = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->cpu_row));
	cl->ram_row = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->ram_row));
}

/* The node columns (one per mode) and configuration columns of class k. */
static void class_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
{
	const struct pclass *c = &p->classes[k];
	double cnt = (double)c->nc->count;
	char name[96];
	size_t ci;
	int m;

	for (m = 0; m < MODE_COUNT; m++) {
		if (!(c->modes & MODE_BIT(m)))
			continue;
		snprintf(name, sizeof(name), "N_%zu_%s", k, mode_name((enum gpu_mode)m));
		cl->n[k * MODE_COUNT + (size_t)m] = add_col(P, name, 1, 0, cnt, c->node_cost + p->tiebreak);
	}
	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		double hi_ = cf->node_pattern ? cnt : cnt * c->nc->gpus_per_node;
		snprintf(name, sizeof(name), "G_%zu_%zu", k, ci);
		cl->g[k][ci] = add_col(P, name, 1, 0, hi_, cf->cost);
	}
}

static void arc_col(glp_prob *P, const struct problem *p, struct cols *cl, size_t i)
{
	const struct arc *ar = &p->arcs[i];
	char name[96];
	snprintf(name, sizeof(name), "A_%d_%d_%d", ar->d, ar->k, ar->s);
	cl->arc[i] = add_col(P, name, 0, 0, (double)p->demands[ar->d].replicas, ar->cost);
}

/*
 * Aggregates of class k: nodes in use and GPUs in use.  Integer by
 * definition; as columns of their own they give the branch-and-bound
 * the branching that closes bin-packing gaps fast ("how many GPUs of
 * this class are on"), instead of one configuration at a time.
 */
static void agg_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
{
	const struct pclass *c = &p->classes[k];
	double cnt = (double)c->nc->count;
	char name[96];
	snprintf(name, sizeof(name), "NODES_%zu", k);
	cl->agg[2 * k] = add_col(P, name, 1, 0, cnt, 0);
	snprintf(name, sizeof(name), "GPUS_%zu", k);
	cl->agg[2 * k + 1] = add_col(P, name, 1, 0, cnt * c->nc->gpus_per_node, 0);
}

/*
 * GPUs that replicas left alone on a node waste, per (class, mode).  A
 * replica whose CPU or RAM, with the least any replica in that (class,
 * mode) asks, is more than a node has cannot share its node: the node's
 * other GPUs stay idle.  The CPU and RAM rows do not see that (they sum
 * over the nodes), so without this row the counts promise GPUs no
 * placement can use.  Valid: every plan's GPUs in use plus the GPUs idle
 * beside a lone replica fit in the mode's nodes.
 */
static void alone_row(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
		      struct rowbuf *rb, size_t k, enum gpu_mode m)
{
	const struct pclass *c = &p->classes[k];
	double mincpu = -1, minram = -1, gpn = c->nc->gpus_per_node;
	size_t a, i, ci, lo = ix->kstart[k], hi = ix->kstart[k + 1];
	int ncol = cl->n[k * MODE_COUNT + (size_t)m], any = 0;
	char name[64];

	if (!ncol || gpn < 2)
		return;
	for (a = lo; a < hi; a++) {
		const struct workload *w = p->demands[p->arcs[ix->byk[a]].d].w;
		if (c->slot_types[p->arcs[ix->byk[a]].s].mode != m)
			continue;
		if (mincpu < 0 || w->cpu_cores < mincpu)
			mincpu = w->cpu_cores;
		if (minram < 0 || w->ram_gib < minram)
			minram = w->ram_gib;
	}
	for (a = lo; a < hi; a++) {
		const struct slot_type *st;
		const struct workload *w;
		double used;
		i = ix->byk[a];
		st = &c->slot_types[p->arcs[i].s];
		w = p->demands[p->arcs[i].d].w;
		if (st->mode != m)
			continue;
		used = st->gpus > 1 ? st->gpus : 1;
		if (w->cpu_cores + mincpu > c->nc->cpu_cores + 1e-9 || w->ram_gib + minram > c->nc->ram_gib + 1e-9) {
			if (gpn - used > 0 && cl->arc[i]) {
				rb_add(rb, cl->arc[i], gpn - used);
				any = 1;
			}
		}
	}
	if (!any) {
		rb_clear(rb);
		return;
	}
	if (m == MODE_PASSTHROUGH) {
		for (a = lo; a < hi; a++) {
			i = ix->byk[a];
			if (c->slot_types[p->arcs[i].s].mode == m)
				rb_add(rb, cl->arc[i], c->slot_types[p->arcs[i].s].gpus);
		}
	} else {
		for (ci = 0; ci < c->nconfigs; ci++)
			if (c->configs[ci].mode == m && !c->configs[ci].node_pattern)
				rb_add(rb, cl->g[k][ci], 1);
	}
	rb_add(rb, ncol, -gpn);
	snprintf(name, sizeof(name), "alone_%zu_%s", k, mode_name(m));
	add_row(P, rb, name, GLP_UP, 0, 0);
}

/*
 * The rows of class k: nodes, GPUs per mode, slots, CPU and RAM (less
 * what sh takes off each node, when not NULL).  Columns absent from cl
 * (0) are left out.
 */
static void class_rows(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
		       struct rowbuf *rb, size_t k, const struct shrink *sh)
{
	const struct pclass *c = &p->classes[k];
	char name[96];
	size_t i, ci, s, a, lo = ix->kstart[k], hi = ix->kstart[k + 1];
	int m, any = 0;

	if (!c->modes)
		return;
	for (m = 0; m < MODE_COUNT; m++) {
		int col = cl->n[k * MODE_COUNT + (size_t)m];
		if (col) {
			rb_add(rb, col, 1);
			any = 1;
		}
	}
	snprintf(name, sizeof(name), "avail_%zu", k);
	if (any)
		add_row(P, rb, name, GLP_UP, 0, (double)c->nc->count);
	for (m = 0; m < MODE_COUNT; m++)
		rb_add(rb, cl->n[k * MODE_COUNT + (size_t)m], 1);
	rb_add(rb, cl->agg[2 * k], -1);
	snprintf(name, sizeof(name), "nodes_%zu", k);
	add_row(P, rb, name, GLP_FX, 0, 0);
	for (ci = 0; ci < c->nconfigs; ci++)
		if (!c->configs[ci].node_pattern)
			rb_add(rb, cl->g[k][ci], 1);
	for (a = lo; a < hi; a++) {
		i = ix->byk[a];
		if (c->slot_types[p->arcs[i].s].mode == MODE_PASSTHROUGH)
			rb_add(rb, cl->arc[i], c->slot_types[p->arcs[i].s].gpus);
	}
	rb_add(rb, cl->agg[2 * k + 1], -1);
	snprintf(name, sizeof(name), "gpus_on_%zu", k);
	add_row(P, rb, name, GLP_FX, 0, 0);
	for (m = 0; m < MODE_COUNT; m++) {
		int col = cl->n[k * MODE_COUNT + (size_t)m];
		if (!col)
			continue;
		for (ci = 0; ci < c->nconfigs; ci++)
			if (c->configs[ci].mode == (enum gpu_mode)m)
				rb_add(rb, cl->g[k][ci], 1);
		if (m == MODE_PASSTHROUGH) {
			rb_add(rb, col, -1);
			snprintf(name, sizeof(name), "pat_%zu", k);
			add_row(P, rb, name, GLP_FX, 0, 0);
		} else {
			rb_add(rb, col, -(double)c->nc->gpus_per_node);
			snprintf(name, sizeof(name), "gpus_%zu_%s", k, mode_name((enum gpu_mode)m));
			add_row(P, rb, name, GLP_UP, 0, 0);
		}
	}
	for (a = lo; a < hi;) {
		s = (size_t)p->arcs[ix->byk[a]].s;
		for (; a < hi && p->arcs[ix->byk[a]].s == (int)s; a++)
			rb_add(rb, cl->arc[ix->byk[a]], 1);
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			size_t j;
			for (j = 0; j < cf->nslots; j++)
				if (cf->slot[j] == (int)s)
					rb_add(rb, cl->g[k][ci], -(double)cf->count[j]);
		}
		snprintf(name, sizeof(name), "cap_%zu_%zu", k, s);
		add_row(P, rb, name, GLP_UP, 0, 0);
	}
	if (p->any_cpu || p->any_ram) {
		/*
		 * CPU and RAM per (class, mode): a node in one mode holds only
		 * that mode's slots, so this is still a relaxation of the
		 * per-node limits, and a much tighter one than per class.
		 */
		int pass;
		for (pass = 0; pass < 2; pass++) {
			double cap = pass ? c->nc->ram_gib : c->nc->cpu_cores;
			if ((pass == 0 && !p->any_cpu) || (pass == 1 && !p->any_ram))
				continue;
			for (m = 0; m < MODE_COUNT; m++) {
				int used = 0;
				if (!cl->n[k * MODE_COUNT + (size_t)m])
					continue;
				for (a = lo; a < hi; a++) {
					const struct workload *w;
					double need;
					i = ix->byk[a];
					w = p->demands[p->arcs[i].d].w;
					need = pass ? w->ram_gib : w->cpu_cores;
					if (need > 0 && cl->arc[i] &&
					    c->slot_types[p->arcs[i].s].mode == (enum gpu_mode)m) {
						rb_add(rb, cl->arc[i], need);
						used = 1;
					}
				}
				if (!used) {
					rb_clear(rb);
					continue;
				}
				rb_add(rb, cl->n[k * MODE_COUNT + (size_t)m],
				       -(cap - (sh ? (pass ? sh->ram : sh->cpu)[k * MODE_COUNT + (size_t)m] : 0)));
				snprintf(name, sizeof(name), "%s_%zu_%d", pass ? "ram" : "cpu", k, m);
				add_row(P, rb, name, GLP_UP, 0, 0);
				(pass ? cl->ram_row : cl->cpu_row)[k * MODE_COUNT + (size_t)m] = glp_get_num_rows(P);
			}
		}
		for (m = 0; m < MODE_COUNT; m++)
			alone_row(P, p, ix, cl, rb, k, (enum gpu_mode)m);
	}
}

static void build(glp_prob *P, const struct problem *p, const struct arcidx *ix, struct cols *cl)
{
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	char name[96];
	size_t k, i, a;

	glp_set_prob_name(P, "gpuplan");
	glp_set_obj_dir(P, GLP_MIN);
	cols_alloc(p, cl);
	for (k = 0; k < p->nclasses; k++)
		class_cols(P, p, cl, k);
	for (i = 0; i < p->narcs; i++)
		arc_col(P, p, cl, i);
	for (i = 0; i < p->ndemands; i++) {
		snprintf(name, sizeof(name), "U_%zu", i);
		cl->u[i] = add_col(P, name, 0, 0, (double)p->demands[i].replicas, p->demands[i].penalty);
	}
	for (k = 0; k < p->nclasses; k++)
		agg_cols(P, p, cl, k);
	cl->ncols = glp_get_num_cols(P);
	rb.pos = xcalloc((size_t)cl->ncols + 1, sizeof(*rb.pos));
	for (k = 0; k < p->nclasses; k++)
		class_rows(P, p, ix, cl, &rb, k, NULL);
	for (i = 0, a = 0; i < p->ndemands; i++) {
		for (; a < p->narcs && p->arcs[a].d == (int)i; a++)
			rb_add(&rb, cl->arc[a], 1);
		rb_add(&rb, cl->u[i], 1);
		snprintf(name, sizeof(name), "dem_%zu", i);
		add_row(P, &rb, name, GLP_FX, (double)p->demands[i].replicas, (double)p->demands[i].replicas);
	}
	free(rb.ind);
	free(rb.val);
	free(rb.pos);
}

static void cols_free(const struct problem *p, struct cols *cl)
{
	size_t k;
	if (!cl->g)
		return;
	for (k = 0; k < p->nclasses; k++)
		free(cl->g[k]);
	free(cl->g);
	free(cl->n);
	free(cl->arc);
	free(cl->u);
	free(cl->agg);
	free(cl->cpu_row);
	free(cl->ram_row);
	cl->g = NULL;
}

/* ================= time ================= */


/* GLPK's tm_lim (ms) for what is left until deadline; 0 when nothing is left. */
static int ms_left(double deadline)
{
	double ms = (deadline - util_now_s()) * 1000.0;
	if (ms < 1)
		return 0;
	return ms > 2e9 ? 2000000000 : (int)ms;
}

/* ================= the root LP: sifting ================= */

#define SIFT_MIN_ARCS 20000	/* below this the whole model goes to the simplex at once */

enum lp_end { LP_OPTIMAL, LP_TIME, LP_FAILED };

static enum lp_end simplex(glp_prob *P, int presolve, int verbose, double deadline, int *code)
{
	glp_smcp smcp;
	int ret;
	glp_init_smcp(&smcp);
	smcp.presolve = presolve ? GLP_ON : GLP_OFF;
	smcp.msg_lev = verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	smcp.tm_lim = ms_left(deadline);
	if (!smcp.tm_lim || interrupt_pending())
		return LP_TIME;
	if (!presolve && !glp_bf_exists(P) && glp_factorize(P))
		glp_std_basis(P);
	ret = glp_simplex(P, &smcp);
	*code = ret;
	if (ret == GLP_ETMLIM || ret == GLP_EITLIM)
		return LP_TIME;
	if (ret || glp_get_status(P) != GLP_OPT)
		return LP_FAILED;
	return LP_OPTIMAL;
}

/* The tighter of two slot types for a replica: less memory, then less compute, then fewer GPUs. */
static int slot_tighter(const struct slot_type *a, const struct slot_type *b)
{
	if (a->memory_mib != b->memory_mib)
		return a->memory_mib < b->memory_mib;
	if (a->compute != b->compute)
		return a->compute < b->compute;
	return a->gpus < b->gpus;
}

struct neg {
	int arc;
	double rc;
};

static int neg_cmp(const void *a, const void *b)
{
	const struct neg *x = a, *y = b;
	if (x->rc != y->rc)
		return x->rc < y->rc ? -1 : 1;
	return (x->arc > y->arc) - (x->arc < y->arc);
}

/*
 * Solves the root LP of P.  in_set[i] says whether arc i is free; arcs
 * outside are fixed at 0.  Without sifting every arc is in the set.
 */
static enum lp_end root_lp(glp_prob *P, const struct problem *p, const struct cols *cl, const double *warm,
			   char *in_set, int verbose, double deadline, int *rounds, int *code)
{
	size_t i, j;
	int nrows = glp_get_num_rows(P), *ind, added, first = 1;
	double *val, *y;
	struct neg *negs;
	enum lp_end e;

	*rounds = 0;
	if (p->narcs < SIFT_MIN_ARCS) {
		for (i = 0; i < p->narcs; i++)
			in_set[i] = 1;
		*rounds = 1;
		return simplex(P, 1, verbose, deadline, code);
	}
	/* the tightest slot of each demand in each class, and the warm plan's arcs */
	for (i = 0; i < p->narcs;) {
		size_t best = i;
		for (j = i + 1; j < p->narcs && p->arcs[j].d == p->arcs[i].d && p->arcs[j].k == p->arcs[i].k; j++)
			if (slot_tighter(&p->classes[p->arcs[j].k].slot_types[p->arcs[j].s],
					 &p->classes[p->arcs[best].k].slot_types[p->arcs[best].s]))
				best = j;
		in_set[best] = 1;
		i = j;
	}
	for (i = 0; warm && i < p->narcs; i++)
		if (warm[cl->arc[i]] > 0)
			in_set[i] = 1;
	for (i = 0; i < p->narcs; i++)
		if (!in_set[i])
			glp_set_col_bnds(P, cl->arc[i], GLP_FX, 0, 0);

	ind = xcalloc((size_t)nrows + 1, sizeof(*ind));
	val = xcalloc((size_t)nrows + 1, sizeof(*val));
	y = xcalloc((size_t)nrows + 1, sizeof(*y));
	negs = xcalloc(p->narcs + 1, sizeof(*negs));
	for (;;) {
		size_t nneg = 0, cap;
		(*rounds)++;
		e = simplex(P, first, verbose, deadline, code);
		first = 0;
		if (e != LP_OPTIMAL)
			break;
		for (j = 1; j <= (size_t)nrows; j++)
			y[j] = glp_get_row_dual(P, (int)j);
		for (i = 0; i < p->narcs; i++) {
			int col = cl->arc[i], len, t;
			double rc;
			if (in_set[i])
				continue;
			rc = glp_get_obj_coef(P, col);
			len = glp_get_mat_col(P, col, ind, val);
			for (t = 1; t <= len; t++)
				rc -= val[t] * y[ind[t]];
			if (rc < -1e-7 * (1 + fabs(glp_get_obj_coef(P, col)))) {
				negs[nneg].arc = (int)i;
				negs[nneg].rc = rc;
				nneg++;
			}
		}
		if (!nneg)
			break;
		qsort(negs, nneg, sizeof(*negs), neg_cmp);
		cap = (size_t)(2 * nrows > 2000 ? 2 * nrows : 2000);
		for (i = 0, added = 0; i < nneg && i < cap; i++, added++) {
			int col = cl->arc[negs[i].arc];
			in_set[negs[i].arc] = 1;
			glp_set_col_bnds(P, col, GLP_DB, 0, (double)p->demands[p->arcs[negs[i].arc].d].replicas);
			glp_set_col_stat(P, col, GLP_NL);
		}
	}
	free(ind);
	free(val);
	free(y);
	free(negs);
	return e;
}

/* ================= rounding: fix and re-solve ================= */

static void fix_col(glp_prob *Q, int col, double v)
{
	glp_set_col_bnds(Q, col, GLP_FX, v, v);
}

static int all_integral(glp_prob *Q)
{
	int j, n = glp_get_num_cols(Q);
	for (j = 1; j <= n; j++) {
		double v = glp_get_col_prim(Q, j);
		if (glp_get_col_kind(Q, j) == GLP_IV && fabs(v - floor(v + 0.5)) > 1e-6)
			return 0;
	}
	return 1;
}

/* ================= a class's own MIP ================= */

/* Column values to fix once a batch of classes is solved. */
struct fix {
	int col;
	double val;
};

struct fixes {
	struct fix *f;
	size_t n, cap;
};

static void fixes_add(struct fixes *fx, int col, double v)
{
	XGROW(fx->f, fx->cap, fx->n + 1);
	fx->f[fx->n].col = col;
	fx->f[fx->n].val = v;
	fx->n++;
}

#define CLASS_MIP_NODES 2000	/* branch-and-bound nodes per class: deterministic, unlike a time limit */
#define POLISH_NODES 50		/* per pair when polishing: many short searches beat a few long ones */

struct class_cb {
	const double *start;	/* the first incumbent: leave everything, or the plan being polished */
	int injected, nodes;
};

static void class_callback(glp_tree *T, void *info)
{
	struct class_cb *cb = info;
	int total;

	if (interrupt_pending()) {
		glp_ios_terminate(T);
		return;
	}
	glp_ios_tree_size(T, NULL, NULL, &total);
	if (total >= cb->nodes) {
		glp_ios_terminate(T);
		return;
	}
	if (glp_ios_reason(T) == GLP_IHEUR && !cb->injected) {
		cb->injected = 1;
		glp_ios_heur_sol(T, cb->start);
	}
}

/* (demand, column) of an arc in the class model, to build the demand rows */
struct darc {
	int d, col;
};

static int darc_cmp(const void *a, const void *b)
{
	const struct darc *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

/* Sets the coefficient of column col in row `row` of Q. */
static void set_coef(glp_prob *Q, int row, int col, double v)
{
	int n = glp_get_mat_row(Q, row, NULL, NULL), *ind = xcalloc((size_t)n + 2, sizeof(*ind)), t;
	double *val = xcalloc((size_t)n + 2, sizeof(*val));

	n = glp_get_mat_row(Q, row, ind, val);
	for (t = 1; t <= n && ind[t] != col; t++)
		;
	if (t > n)
		n++;
	ind[t] = col;
	val[t] = v;
	glp_set_mat_row(Q, row, n, ind, val);
	free(ind);
	free(val);
}

/*
 * Takes CPU and RAM lost in (class, mode) g, shared over its nodes, off
 * each node in sh, at most half a node and only where cl has the row.
 * Returns 1 when it took CPU, 2 when RAM, 3 both, 0 nothing.
 */
static int shrink_take(const struct node_class *nc, const struct cols *cl, struct shrink *sh, size_t g,
		       double nodes, double lcpu, double lram)
{
	int took = 0;

	if (nodes < 0.5)
		return 0;
	if (lcpu > 1e-6 && cl->cpu_row[g] && sh->cpu[g] < nc->cpu_cores / 2) {
		sh->cpu[g] = fmin(sh->cpu[g] + lcpu / nodes, nc->cpu_cores / 2);
		took |= 1;
	}
	if (lram > 1e-6 && cl->ram_row[g] && sh->ram[g] < nc->ram_gib / 2) {
		sh->ram[g] = fmin(sh->ram[g] + lram / nodes, nc->ram_gib / 2);
		took |= 2;
	}
	return took;
}

#define CLASS_DEAL_TRIES 3	/* class MIPs solved again with what dealing them lost taken off */

/* The counts and arcs of the classes ks in the sub-MIP S's solution, into r (zero elsewhere). */
static void sub_counts(glp_prob *S, const struct problem *p, const struct cols *lc, const size_t *ks, size_t nk,
		       struct ilp_result *r)
{
	size_t ci, i, t;
	int m;

	memset(r->nmode, 0, p->nclasses * MODE_COUNT * sizeof(*r->nmode));
	for (i = 0; i < p->nclasses; i++)
		memset(r->ncfg[i], 0, p->classes[i].nconfigs * sizeof(**r->ncfg));
	for (i = 0; i < p->narcs; i++)
		r->arc[i] = lc->arc[i] ? glp_mip_col_val(S, lc->arc[i]) : 0;
	for (t = 0; t < nk; t++) {
		size_t k = ks[t];
		for (m = 0; m < MODE_COUNT; m++) {
			int col = lc->n[k * MODE_COUNT + (size_t)m];
			r->nmode[k * MODE_COUNT + (size_t)m] = col ? (long)floor(glp_mip_col_val(S, col) + 0.5) : 0;
		}
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			r->ncfg[k][ci] = (long)floor(glp_mip_col_val(S, lc->g[k][ci]) + 0.5);
	}
	for (i = 0; i < p->ndemands; i++)
		r->unplaced[i] = lc->u[i] ? glp_mip_col_val(S, lc->u[i]) : 0;
}

/*
 * Deals the counts r of the classes ks over their real nodes; where
 * replicas find no slot, takes their CPU and RAM, shared over the mode's
 * nodes, off each node in sh (at most half a node) and in the sub-MIP
 * S's rows (sh NULL: nothing is taken off).  Returns 0 when the deal
 * lost nothing, 1 when it lost and something was taken off (S is worth
 * solving again), 2 when it lost and nothing was taken off.
 */
static int sub_shrink(glp_prob *S, const struct problem *p, const struct cols *lc, const size_t *ks, size_t nk,
		      const struct ilp_result *r, struct shrink *sh)
{
	size_t ng = p->nclasses * MODE_COUNT, t;
	double *lcpu = xcalloc(ng + 1, sizeof(*lcpu)), *lram = xcalloc(ng + 1, sizeof(*lram));
	int m, more = 0, lost;

	lost = cplan_deal_loss(p, r->nmode, r->ncfg, r->arc, lcpu, lram) > 0;
	for (t = 0; lost && sh && t < nk; t++) {
		const struct node_class *nc = p->classes[ks[t]].nc;
		for (m = 0; m < MODE_COUNT; m++) {
			size_t g = ks[t] * MODE_COUNT + (size_t)m;
			int took = shrink_take(nc, lc, sh, g, (double)r->nmode[g], lcpu[g], lram[g]);
			if (took & 1)
				set_coef(S, lc->cpu_row[g], lc->n[g], -(nc->cpu_cores - sh->cpu[g]));
			if (took & 2)
				set_coef(S, lc->ram_row[g], lc->n[g], -(nc->ram_gib - sh->ram[g]));
			more |= took != 0;
		}
	}
	free(lcpu);
	free(lram);
	return !lost ? 0 : more ? 1 : 2;
}

/*
 * The MIP of the classes ks alone (class_mip: one class; polish: two):
 * the cheapest whole nodes and whole configurations of those classes
 * that take q[d] replicas of each demand d, over the arcs of those
 * classes where use is NULL or use[arc] set, under the classes' own rows
 * (slots, CPU and RAM less sh, lone replicas).  What it cannot take
 * costs the demand's penalty, as in the whole model, so it takes all it
 * can.  start (a plan of the whole model, columns cl) is offered as the
 * first incumbent; NULL offers "leave everything".  With sh, the plan is
 * dealt over real nodes and, while that loses replicas, solved again
 * with their CPU and RAM taken off (CLASS_DEAL_TRIES).
 *
 * Fills r (the classes' counts, their arcs and the unplaced, zero
 * elsewhere) and *obj; returns 0, 1 when the last plan still lost
 * replicas in the deal, or -1 when GLPK found no plan (r untouched).
 */
static int sub_mip(const struct problem *p, const struct arcidx *ix, const size_t *ks, size_t nk, const double *q,
		   const char *use, const struct cols *cl, const double *start_x, double worse, struct shrink *sh,
		   int verbose, double deadline, struct ilp_result *r, double *obj)
{
	glp_prob *S = glp_create_prob();
	struct cols lc;
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	struct darc *da;
	struct class_cb cb;
	glp_smcp smcp;
	glp_iocp iocp;
	double *start = NULL;
	size_t a, nda = 0, i, t, narc = 0;
	int rc = -1, ret, st, ncols, tries, lost = 0;
	char name[48];

	memset(&lc, 0, sizeof(lc));
	cols_alloc(p, &lc);
	for (t = 0; t < nk; t++)
		narc += ix->kstart[ks[t] + 1] - ix->kstart[ks[t]];
	da = xcalloc(narc + 1, sizeof(*da));
	glp_set_obj_dir(S, GLP_MIN);
	for (t = 0; t < nk; t++)
		class_cols(S, p, &lc, ks[t]);
	for (t = 0; t < nk; t++)
		for (a = ix->kstart[ks[t]]; a < ix->kstart[ks[t] + 1]; a++) {
			i = ix->byk[a];
			if ((!use || use[i]) && q[p->arcs[i].d] > 1e-6) {
				arc_col(S, p, &lc, i);
				da[nda].d = p->arcs[i].d;
				da[nda].col = lc.arc[i];
				nda++;
			}
		}
	qsort(da, nda, sizeof(*da), darc_cmp);
	for (a = 0; a < nda; a++) {
		int d = da[a].d;
		if (lc.u[d])
			continue;
		snprintf(name, sizeof(name), "U_%d", d);
		lc.u[d] = add_col(S, name, 0, 0, q[d], p->demands[d].penalty);
	}
	for (t = 0; t < nk; t++)
		agg_cols(S, p, &lc, ks[t]);
	ncols = glp_get_num_cols(S);
	rb.pos = xcalloc((size_t)ncols + 1, sizeof(*rb.pos));
	for (t = 0; t < nk; t++)
		class_rows(S, p, ix, &lc, &rb, ks[t], sh);
	for (a = 0; a < nda;) {
		int d = da[a].d;
		for (; a < nda && da[a].d == d; a++)
			rb_add(&rb, da[a].col, 1);
		rb_add(&rb, lc.u[d], 1);
		snprintf(name, sizeof(name), "dem_%d", d);
		add_row(S, &rb, name, GLP_FX, q[d], q[d]);
	}
	/* the first incumbent: start_x on these columns, or nothing on and all unplaced */
	start = xcalloc((size_t)ncols + 1, sizeof(*start));
	for (a = 0; a < nda; a++)
		start[lc.u[da[a].d]] = q[da[a].d];
	if (start_x) {
		for (t = 0; t < nk; t++) {
			size_t k = ks[t], ci;
			int m;
			for (m = 0; m < MODE_COUNT; m++)
				if (lc.n[k * MODE_COUNT + (size_t)m])
					start[lc.n[k * MODE_COUNT + (size_t)m]] = start_x[cl->n[k * MODE_COUNT + (size_t)m]];
			for (ci = 0; ci < p->classes[k].nconfigs; ci++)
				start[lc.g[k][ci]] = start_x[cl->g[k][ci]];
			start[lc.agg[2 * k]] = start_x[cl->agg[2 * k]];
			start[lc.agg[2 * k + 1]] = start_x[cl->agg[2 * k + 1]];
		}
		for (i = 0; i < p->narcs; i++)
			if (lc.arc[i]) {
				start[lc.arc[i]] = start_x[cl->arc[i]];
				start[lc.u[p->arcs[i].d]] -= start_x[cl->arc[i]];
			}
		for (a = 0; a < nda; a++)
			if (start[lc.u[da[a].d]] < 0)
				start[lc.u[da[a].d]] = 0;
	}

	for (tries = 0;; tries++) {
		glp_init_smcp(&smcp);
		smcp.msg_lev = GLP_MSG_OFF;
		smcp.presolve = GLP_ON;
		smcp.tm_lim = ms_left(deadline);
		if (!smcp.tm_lim || glp_simplex(S, &smcp) || glp_get_status(S) != GLP_OPT)
			break;
		glp_init_iocp(&iocp);
		iocp.msg_lev = verbose > 1 ? GLP_MSG_ON : GLP_MSG_OFF;
		iocp.tm_lim = ms_left(deadline);
		iocp.mip_gap = 1e-4;
		iocp.mir_cuts = GLP_ON;
		/* polishing (start_x): Gomory cuts too, and a short search (see polish) */
		iocp.gmi_cuts = start_x ? GLP_ON : GLP_OFF;
		iocp.cb_func = class_callback;
		iocp.cb_info = &cb;
		memset(&cb, 0, sizeof(cb));
		cb.start = start;
		cb.nodes = start_x ? POLISH_NODES : CLASS_MIP_NODES;
		if (!iocp.tm_lim)
			break;
		ret = glp_intopt(S, &iocp);
		st = glp_mip_status(S);
		if (!(ret == 0 || ret == GLP_EMIPGAP || ret == GLP_ETMLIM || ret == GLP_ESTOP) ||
		    (st != GLP_OPT && st != GLP_FEAS))
			break;
		sub_counts(S, p, &lc, ks, nk, r);
		*obj = glp_mip_obj_val(S);
		rc = 0;
		if (!sh || *obj >= worse)
			break;
		if (tries == CLASS_DEAL_TRIES && !start_x)
			break; /* rounding keeps its last plan: no need to deal it once more for a verdict */
		lost = sub_shrink(S, p, &lc, ks, nk, r, tries < CLASS_DEAL_TRIES ? sh : NULL);
		if (lost != 1)
			break;
	}
	free(start);
	free(rb.ind);
	free(rb.val);
	free(rb.pos);
	free(da);
	cols_free(p, &lc);
	glp_delete_prob(S);
	return rc ? rc : lost != 0;
}

/*
 * Class k's own MIP (sub_mip), against the LP solved in Q: for the
 * replicas the LP gives k (q_d, the LP's flow of demand d into k), over
 * the arcs free in Q.  (Leaving replicas at the dual price of their
 * demand, what the LP pays at the margin to place one more elsewhere,
 * was tried: the classes rounded first shed, and the last ones had no
 * room left; tens to hundreds of replicas ended unplaced on the
 * benchmark.)  Appends the class's node and configuration counts to fx.
 * Returns 0, or -1 when GLPK found no plan (fx untouched).
 */
static int class_mip(glp_prob *Q, const struct problem *p, const struct arcidx *ix, const struct cols *cl, size_t k,
		     struct shrink *sh, int verbose, double deadline, struct fixes *fx)
{
	struct ilp_result got;
	double *q = xcalloc(p->ndemands + 1, sizeof(*q)), obj;
	char *use = xcalloc(p->narcs + 1, 1);
	size_t a, i, ci;
	int m, rc;

	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		i = ix->byk[a];
		if (glp_get_col_ub(Q, cl->arc[i]) > 0) {
			use[i] = 1;
			q[p->arcs[i].d] += glp_get_col_prim(Q, cl->arc[i]);
		}
	}
	ilp_result_alloc(p, &got);
	rc = sub_mip(p, ix, &k, 1, q, use, cl, NULL, HUGE_VAL, sh, verbose, deadline, &got, &obj);
	if (rc >= 0) {
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m])
				fixes_add(fx, cl->n[k * MODE_COUNT + (size_t)m],
					  (double)got.nmode[k * MODE_COUNT + (size_t)m]);
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			fixes_add(fx, cl->g[k][ci], (double)got.ncfg[k][ci]);
	}
	ilp_result_release(p, &got);
	free(use);
	free(q);
	return rc < 0 ? -1 : 0;
}

/* The CPU and RAM rows of Q with sh taken off each node. */
static void shrink_rows(glp_prob *Q, const struct problem *p, const struct cols *cl, const struct shrink *sh)
{
	size_t g;
	for (g = 0; g < p->nclasses * MODE_COUNT; g++) {
		const struct node_class *nc = p->classes[g / MODE_COUNT].nc;
		if (cl->cpu_row[g] && sh->cpu[g] > 0)
			set_coef(Q, cl->cpu_row[g], cl->n[g], -(nc->cpu_cores - sh->cpu[g]));
		if (cl->ram_row[g] && sh->ram[g] > 0)
			set_coef(Q, cl->ram_row[g], cl->n[g], -(nc->ram_gib - sh->ram[g]));
	}
}

static _Thread_local const double *order_key; /* rounding chains run at once */

static int order_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (order_key[x] != order_key[y])
		return order_key[x] < order_key[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * The classes in the order they are rounded: the fullest first (the
 * fewest nodes the LP leaves unused), so that what rounding takes from
 * a full class can still go to the classes with room, rounded last.
 */
static size_t *slack_order(glp_prob *Q, const struct problem *p, const struct cols *cl)
{
	size_t *order = xcalloc(p->nclasses + 1, sizeof(*order)), k;
	double *key = xcalloc(p->nclasses + 1, sizeof(*key));
	int m;
	for (k = 0; k < p->nclasses; k++) {
		order[k] = k;
		key[k] = (double)p->classes[k].nc->count;
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m])
				key[k] -= glp_get_col_prim(Q, cl->n[k * MODE_COUNT + (size_t)m]);
	}
	order_key = key;
	qsort(order, p->nclasses, sizeof(*order), order_cmp);
	free(key);
	return order;
}

/* A batch of class MIPs against the same LP (Q), one job per class. */
struct class_jobs {
	glp_prob *Q;
	const struct problem *p;
	const struct arcidx *ix;
	const struct cols *cl;
	struct shrink *sh;	/* each class writes only its own (class, mode) entries */
	int verbose;
	double deadline;
	size_t *ks;		/* [job]: the class */
	struct fixes *fx;	/* [job]: its counts */
	int *rc;		/* [job]: class_mip's */
};

static void class_job(void *ctx, size_t j)
{
	struct class_jobs *cj = ctx;
	glpk_thread_hook(cj->verbose);
	cj->fx[j].n = 0;
	cj->rc[j] = class_mip(cj->Q, cj->p, cj->ix, cj->cl, cj->ks[j], cj->sh, cj->verbose, cj->deadline, &cj->fx[j]);
}

/*
 * Rounds the LP solution of P into an integer plan (see the top of the
 * file), batch classes at a time, with sh taken off the nodes when not
 * NULL.  Fills x (1-based, every column) and returns 0, or -1 when there
 * was no time or an LP failed.
 */
static int round_lp(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
		    const struct shrink *sh, size_t batch, int threads, int verbose, double deadline, double *x, double *obj)
{
	glp_prob *Q = glp_create_prob();
	struct shrink lsh;
	const char *why = NULL;
	size_t k, g0, f, t, *order, ng = p->nclasses * MODE_COUNT;
	int code, j, ncols, rc = -1, pass;
	struct fixes fx = { NULL, 0, 0 };
	struct class_jobs cj;

	memset(&cj, 0, sizeof(cj));

	glp_copy_prob(Q, P, GLP_OFF);
	ncols = glp_get_num_cols(Q);
	order = slack_order(Q, p, cl);
	/* this rounding's own shrink: sh, and what each class's deal loses */
	lsh.cpu = xcalloc(ng + 1, sizeof(*lsh.cpu));
	lsh.ram = xcalloc(ng + 1, sizeof(*lsh.ram));
	if (sh) {
		memcpy(lsh.cpu, sh->cpu, ng * sizeof(*lsh.cpu));
		memcpy(lsh.ram, sh->ram, ng * sizeof(*lsh.ram));
		shrink_rows(Q, p, cl, sh);
	}
	/* 1: each class's own MIP against the last LP, a batch of classes at a time (in parallel) */
	cj.Q = Q;
	cj.p = p;
	cj.ix = ix;
	cj.cl = cl;
	cj.sh = sh ? &lsh : NULL;
	cj.verbose = verbose;
	cj.deadline = deadline;
	cj.ks = xcalloc(batch + 1, sizeof(*cj.ks));
	cj.fx = xcalloc(batch + 1, sizeof(*cj.fx));
	cj.rc = xcalloc(batch + 1, sizeof(*cj.rc));
	for (g0 = 0; g0 < p->nclasses; g0 += batch) {
		size_t b, nb = 0;
		for (b = g0; b < g0 + batch && b < p->nclasses; b++)
			if (p->classes[order[b]].modes)
				cj.ks[nb++] = order[b];
		par_run(nb, threads, class_job, &cj, glpk_thread_end);
		fx.n = 0;
		for (b = 0; b < nb; b++) {
			if (cj.rc[b]) {
				why = "a class's MIP found no plan (out of time, or GLPK failed)";
				goto out;
			}
			for (t = 0; t < cj.fx[b].n; t++)
				fixes_add(&fx, cj.fx[b].f[t].col, cj.fx[b].f[t].val);
		}
		if (sh)
			shrink_rows(Q, p, cl, &lsh); /* what the batch's deals lost */
		for (f = 0; f < fx.n; f++)
			fix_col(Q, fx.f[f].col, fx.f[f].val);
		if (fx.n && simplex(Q, 0, verbose, deadline, &code) != LP_OPTIMAL) {
			why = "the LP with a batch of classes fixed was not solved";
			goto out;
		}
	}
	/*
	 * 2: GPUS_k is integer; passthrough flows under CPU/RAM rows may
	 * leave it fractional.  The first pass rounds to the nearest, later
	 * ones down; fixing one total moves the flows and may leave another
	 * fractional, so passes go on until none is (each fixes at least one
	 * more).  Totals rounded up that the flows cannot reach (CPU or RAM)
	 * are fixed down instead.
	 */
	for (pass = 0; pass <= (int)p->nclasses && !all_integral(Q); pass++) {
		fx.n = 0;
		for (k = 0; k < p->nclasses; k++) {
			int col = cl->agg[2 * k + 1];
			double v = glp_get_col_prim(Q, col);
			if (fabs(v - floor(v + 0.5)) > 1e-6) {
				fix_col(Q, col, pass ? floor(v) : floor(v + 0.5));
				fixes_add(&fx, col, floor(v));
			}
		}
		if (simplex(Q, 0, verbose, deadline, &code) == LP_OPTIMAL)
			continue;
		for (f = 0; f < fx.n; f++)
			fix_col(Q, fx.f[f].col, fx.f[f].val);
		if (simplex(Q, 0, verbose, deadline, &code) != LP_OPTIMAL) {
			why = "the LP with the GPU totals fixed was not solved";
			goto out;
		}
	}
	if (!all_integral(Q)) {
		why = "the counts were still fractional";
		goto out;
	}
	for (j = 1; j <= ncols; j++) {
		double v = glp_get_col_prim(Q, j);
		x[j] = glp_get_col_kind(Q, j) == GLP_IV ? floor(v + 0.5) : v;
	}
	*obj = glp_get_obj_val(Q);
	rc = 0;
out:
	if (why)
		glp_printf("gpuplan-ilp: rounding stopped: %s (%.2f s left)\n", why, ms_left(deadline) / 1000.0);
	for (t = 0; t < batch; t++)
		free(cj.fx[t].f);
	free(cj.ks);
	free(cj.fx);
	free(cj.rc);
	free(lsh.cpu);
	free(lsh.ram);
	free(order);
	free(fx.f);
	glp_delete_prob(Q);
	return rc;
}

/* ================= the warm plan as a column vector ================= */

/* The plan in counts (nmode, ncfg, arc, un) as a column vector x (1-based, every column). */
static void counts_vector(const struct problem *p, const struct cols *cl, const long *nmode, long *const *ncfg,
			  const double *arc, const double *un, double *x)
{
	size_t k, i, ci;
	int m;

	memset(x, 0, ((size_t)cl->ncols + 1) * sizeof(*x));
	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		double nodes = 0, gpus = 0;
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m]) {
				x[cl->n[k * MODE_COUNT + (size_t)m]] = (double)nmode[k * MODE_COUNT + (size_t)m];
				nodes += (double)nmode[k * MODE_COUNT + (size_t)m];
			}
		for (ci = 0; ci < c->nconfigs; ci++) {
			x[cl->g[k][ci]] = (double)ncfg[k][ci];
			if (!c->configs[ci].node_pattern)
				gpus += (double)ncfg[k][ci];
		}
		x[cl->agg[2 * k]] = nodes;
		x[cl->agg[2 * k + 1]] = gpus;
	}
	for (i = 0; i < p->narcs; i++) {
		const struct pclass *c = &p->classes[p->arcs[i].k];
		x[cl->arc[i]] = arc[i];
		if (c->slot_types[p->arcs[i].s].mode == MODE_PASSTHROUGH)
			x[cl->agg[2 * (size_t)p->arcs[i].k + 1]] += arc[i] * c->slot_types[p->arcs[i].s].gpus;
	}
	/*
	 * GPUS_k is an integer column; the flows summed into it may be off
	 * by a rounding error, and glp_ios_heur_sol drops an incumbent whose
	 * integer columns are not exactly integral, without a word.
	 */
	for (k = 0; k < p->nclasses; k++)
		x[cl->agg[2 * k + 1]] = floor(x[cl->agg[2 * k + 1]] + 0.5);
	for (i = 0; i < p->ndemands; i++)
		x[cl->u[i]] = un[i];
}

static double *warm_vector(const struct problem *p, const struct cols *cl, const struct cplan *warm)
{
	struct ilp_result c;
	double *x = xcalloc((size_t)cl->ncols + 1, sizeof(*x));

	ilp_result_alloc(p, &c);
	cplan_counts(warm, c.nmode, c.ncfg, c.arc, c.unplaced);
	counts_vector(p, cl, c.nmode, c.ncfg, c.arc, c.unplaced, x);
	ilp_result_release(p, &c);
	return x;
}

static double unplaced_sum(const struct problem *p, const struct cols *cl, const double *x)
{
	double u = 0;
	size_t i;
	for (i = 0; i < p->ndemands; i++)
		u += x[cl->u[i]];
	return u > 0 ? u : 0; /* not -0 in the log */
}

static double vec_obj(glp_prob *P, const double *x)
{
	double z = glp_get_obj_coef(P, 0);
	int j, n = glp_get_num_cols(P);
	for (j = 1; j <= n; j++)
		z += glp_get_obj_coef(P, j) * x[j];
	return z;
}

/* Reads the counts of the plan x (1-based column values) into r. */
static void take_plan(const struct problem *p, const struct cols *cl, const double *x, struct ilp_result *r)
{
	size_t k, i, ci;
	int m;
	for (k = 0; k < p->nclasses; k++) {
		for (m = 0; m < MODE_COUNT; m++) {
			int col = cl->n[k * MODE_COUNT + (size_t)m];
			r->nmode[k * MODE_COUNT + (size_t)m] = col ? lround(x[col]) : 0;
		}
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			r->ncfg[k][ci] = lround(x[cl->g[k][ci]]);
	}
	for (i = 0; i < p->narcs; i++)
		r->arc[i] = x[cl->arc[i]];
	for (i = 0; i < p->ndemands; i++)
		r->unplaced[i] = x[cl->u[i]];
}

/*
 * The plan x (1-based column values) made concrete: its counts dealt
 * over real nodes (per-node CPU and RAM), the replicas that found no
 * slot placed as the greedy planner would (a free slot, a new GPU, a new
 * node), and read back as a column vector.  Where the fleet has room
 * this turns a rounded plan's unplaced replicas into a little more cost.
 */
static double *repair_vector(const struct problem *p, const struct cols *cl, const double *x)
{
	struct ilp_result counts;
	struct cplan cp;
	double *out;

	memset(&counts, 0, sizeof(counts));
	ilp_result_alloc(p, &counts);
	take_plan(p, cl, x, &counts);
	cplan_init(&cp, p);
	cplan_from_counts(&cp, counts.nmode, counts.ncfg, counts.arc);
	out = warm_vector(p, cl, &cp);
	cplan_release(&cp);
	ilp_result_release(p, &counts);
	return out;
}

/*
 * A rounded plan made concrete (fixed, objective fobj) replaces *best
 * when cheaper; fixed is consumed.  Rounded plans are compared made
 * concrete, as the plan reported will be: counts that look cheaper on the
 * model can deal worse over real nodes.
 */
static void keep_cheapest(double **best, double *best_obj, double *fixed, double fobj)
{
	if (!*best || fobj < *best_obj - 1e-6) {
		free(*best);
		*best = fixed;
		*best_obj = fobj;
	} else {
		free(fixed);
	}
}

/*
 * What dealing the rounded plan x over real nodes (fixed) could not put
 * where x put it: per (class, mode), the CPU and RAM of the replicas x
 * has there and fixed has not, shared over x's nodes and added to sh (at
 * most half a node).  1 when something was added.
 */
static int shrink_add(const struct problem *p, const struct cols *cl, const double *x, const double *fixed,
		      struct shrink *sh)
{
	size_t ng = p->nclasses * MODE_COUNT, i, g;
	double *lc = xcalloc(ng + 1, sizeof(*lc)), *lr = xcalloc(ng + 1, sizeof(*lr));
	int more = 0;

	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		const struct workload *w = p->demands[a->d].w;
		double diff = x[cl->arc[i]] - fixed[cl->arc[i]];
		g = (size_t)a->k * MODE_COUNT + p->classes[a->k].slot_types[a->s].mode;
		lc[g] += diff * w->cpu_cores;
		lr[g] += diff * w->ram_gib;
	}
	for (g = 0; g < ng; g++) {
		double nodes = cl->n[g] ? x[cl->n[g]] : 0;
		if (shrink_take(p->classes[g / MODE_COUNT].nc, cl, sh, g, nodes, lc[g], lr[g]))
			more = 1;
	}
	free(lc);
	free(lr);
	return more;
}

/* Frees the arcs x uses that sifting left out of the working set, so that x is a plan of P. */
static void admit_arcs(glp_prob *P, const struct problem *p, const struct cols *cl, const double *x, char *in_set)
{
	size_t i;
	for (i = 0; i < p->narcs; i++)
		if (!in_set[i] && x[cl->arc[i]] > 0) {
			in_set[i] = 1;
			glp_set_col_bnds(P, cl->arc[i], GLP_DB, 0, (double)p->demands[p->arcs[i].d].replicas);
		}
}

/* ================= rounding chains ================= */

#define FEEDBACK_ROUNDS 4	/* roundings again, each with what the last deal lost */
#define FEEDBACK_SHARE 0.5	/* no feedback round starts past this share of the time limit */
#define ROUND_CHAINS 2

/*
 * The classes per batch of chain j's roundings: the classes in 8 batches,
 * and in 12 (fewer when that gives the same batch size: with 16 classes
 * or fewer, one class more or fewer per batch).  The feedback does not
 * settle: round after round the plans made concrete scatter around the
 * same cost (at L, 19.33M to 19.52M over eight rounds), so each round is
 * in effect one more draw, and two chains that batch the classes
 * differently draw twice as often on two threads, where one chain's LP
 * re-solves, which are sequential, left the second processor idle.
 */
static size_t chain_batch(size_t nclasses, size_t j)
{
	size_t b0 = (nclasses + 7) / 8, b1 = (nclasses + 11) / 12;
	if (!j)
		return b0;
	if (b1 == b0)
		b1 = b0 > 1 ? b0 - 1 : b0 + 1;
	return b1;
}

/* A round of a chain, for the log. */
struct chain_round {
	double obj, unplaced;	/* the rounded plan's, in counts */
	double fobj, funplaced;	/* made concrete */
	double t_deal, t_end;	/* the deal's time; when the round ended (from t0) */
};

/* One chain of roundings: its own shrink, its rounds, and its cheapest plan made concrete. */
struct chain {
	struct shrink sh;	/* what its deals lost so far */
	double *best, best_obj;	/* its cheapest plan made concrete (NULL: none) */
	struct chain_round log[FEEDBACK_ROUNDS + 1];
	int nrounds;		/* rounds done */
	int cut;		/* stopped by FEEDBACK_SHARE */
	int stale;		/* stopped: its last round was no cheaper than its best */
};

struct chain_jobs {
	glp_prob *P;
	const struct problem *p;
	const struct arcidx *ix;
	const struct cols *cl;
	int threads, verbose;
	double t0, limit_s, deadline;
	struct chain *ch;
};

/*
 * Chain j (a job of par_run): rounding, its deal over real nodes, and
 * again with what the deal lost taken off, until a round fails, a deal
 * loses nothing, a round made concrete is no cheaper than the chain's
 * best so far, FEEDBACK_ROUNDS are done or a round would start past
 * FEEDBACK_SHARE of the time limit.  The stop on a round no cheaper
 * leaves that time to the polish, which gains more in it than the
 * chain's next draws do (measured 2026-11-23, README "Benchmarks"); it
 * depends on the chain's own rounds only, so it is as deterministic as
 * they are.
 */
static void chain_job(void *ctx, size_t j)
{
	struct chain_jobs *cj = ctx;
	struct chain *c = &cj->ch[j];
	const struct cols *cl = cj->cl;
	double *x = xcalloc((size_t)cl->ncols + 1, sizeof(*x)), obj, *fixed;
	int fb;

	glpk_thread_hook(cj->verbose);
	for (fb = 0; fb <= FEEDBACK_ROUNDS && !interrupt_pending(); fb++) {
		struct chain_round *lg = &c->log[fb];
		int more;
		if (fb && util_now_s() - cj->t0 > FEEDBACK_SHARE * cj->limit_s) {
			c->cut = 1;
			break;
		}
		if (round_lp(cj->P, cj->p, cj->ix, cl, fb ? &c->sh : NULL, chain_batch(cj->p->nclasses, j),
			     cj->threads, cj->verbose, cj->deadline, x, &obj))
			break;
		lg->t_deal = util_now_s();
		fixed = repair_vector(cj->p, cl, x);
		lg->t_deal = util_now_s() - lg->t_deal;
		lg->obj = obj;
		lg->unplaced = unplaced_sum(cj->p, cl, x);
		lg->fobj = vec_obj(cj->P, fixed);
		lg->funplaced = unplaced_sum(cj->p, cl, fixed);
		lg->t_end = util_now_s() - cj->t0;
		c->nrounds = fb + 1;
		more = shrink_add(cj->p, cl, x, fixed, &c->sh);
		c->stale = c->best && lg->fobj >= c->best_obj - 1e-6;
		keep_cheapest(&c->best, &c->best_obj, fixed, lg->fobj);
		if (!more || c->stale)
			break;
	}
	free(x);
}

/*
 * Rounding, then again with what each deal over real nodes could not use
 * taken off those nodes (chain_job): ROUND_CHAINS chains at once
 * (par_run), each with its own shrink; their cheapest plans are taken in
 * chain order, so that, when no chain is cut short by the time limit,
 * the plan is the same on any number of threads.  Returns the cheapest
 * plan made concrete (NULL when none; caller frees), *best_obj its cost,
 * *t_deal_max the longest deal.
 */
static double *round_chains(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
			    int threads, int verbose, double t0, double limit_s, double deadline, double *best_obj,
			    double *t_deal_max)
{
	size_t ng = p->nclasses * MODE_COUNT, j;
	struct chain ch[ROUND_CHAINS];
	struct chain_jobs cj;
	double *best = NULL;
	int fb;

	memset(ch, 0, sizeof(ch));
	for (j = 0; j < ROUND_CHAINS; j++) {
		ch[j].sh.cpu = xcalloc(ng + 1, sizeof(*ch[j].sh.cpu));
		ch[j].sh.ram = xcalloc(ng + 1, sizeof(*ch[j].sh.ram));
	}
	cj.P = P;
	cj.p = p;
	cj.ix = ix;
	cj.cl = cl;
	/* each chain's class MIPs get their share of the threads (the plans do not depend on it) */
	cj.threads = threads > ROUND_CHAINS ? threads / ROUND_CHAINS : 1;
	cj.verbose = verbose;
	cj.t0 = t0;
	cj.limit_s = limit_s;
	cj.deadline = deadline;
	cj.ch = ch;
	par_run(ROUND_CHAINS, threads, chain_job, &cj, glpk_thread_end);
	for (j = 0; j < ROUND_CHAINS; j++) {
		struct chain *c = &ch[j];
		for (fb = 0; fb < c->nrounds; fb++) {
			const struct chain_round *lg = &c->log[fb];
			*t_deal_max = fmax(*t_deal_max, lg->t_deal);
			glp_printf("gpuplan-ilp: chain %zu (%zu classes a batch), rounding %d: objective %.2f unplaced %.0f; "
				   "made concrete %.2f unplaced %.0f (deal %.2f s; %.2f s)\n", j, chain_batch(p->nclasses, j), fb,
				   lg->obj, lg->unplaced, lg->fobj, lg->funplaced, lg->t_deal, lg->t_end);
		}
		if (c->cut)
			glp_printf("gpuplan-ilp: chain %zu: no feedback round %d: past %.0f%% of the time limit, left to "
				   "the polish\n", j, c->nrounds, 100 * FEEDBACK_SHARE);
		if (c->stale && c->nrounds <= FEEDBACK_ROUNDS)
			glp_printf("gpuplan-ilp: chain %zu: no feedback round %d: round %d was no cheaper than the chain's "
				   "best, left to the polish\n", j, c->nrounds, c->nrounds - 1);
		if (c->best)
			keep_cheapest(&best, best_obj, c->best, c->best_obj);
		free(c->sh.cpu);
		free(c->sh.ram);
	}
	return best;
}

/* ================= polish: two classes at a time, against the plan ================= */

/* A pair of classes to solve again together (k1 == k2: one class), and what it promises. */
struct pair {
	size_t k1, k2;
	double promise;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	if (x->promise != y->promise)
		return x->promise > y->promise ? -1 : 1;
	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	return (x->k2 > y->k2) - (x->k2 < y->k2);
}

/* What the columns of class k cost in x (1-based, columns cl of P), arcs included. */
static double class_cost(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
			 size_t k, const double *x)
{
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
 * in P): its columns' cost in x less in lp, less the replicas it holds
 * over lp's at their demand's dual price (what a replica is worth
 * wherever it goes).  With every demand placed, the shares sum to x's
 * gap to the LP bound, and each is >= 0 up to rounding: it is the sum of
 * reduced costs and row slacks times duals over k's own columns and
 * rows.  A class that holds more replicas than in lp is not charged for
 * them, nor is the class that gave them up credited.
 */
static double class_excess(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
			   size_t k, const double *x, const double *lp)
{
	double e = class_cost(P, p, ix, cl, k, x) - class_cost(P, p, ix, cl, k, lp);
	size_t a;
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		size_t i = ix->byk[a];
		int u = cl->u[p->arcs[i].d];
		double dual = glp_get_obj_coef(P, u) - glp_get_col_dual(P, u);
		e -= dual * (x[cl->arc[i]] - lp[cl->arc[i]]);
	}
	return e;
}

/*
 * The pairs of classes worth solving again together: k1 < k2 where a
 * demand the plan x places in one of them has an arc in the other (its
 * replicas can move between them); a class with no such partner is
 * paired with itself.  The most promising first: the two classes'
 * excess over the root LP (class_excess), doubled in effect (the larger
 * excess counts twice) when one of them has nodes x leaves unused, where
 * the other's replicas can go.
 */
static size_t polish_pairs(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
			   const double *x, const double *lp, struct pair **out)
{
	size_t nc = p->nclasses, i, d, a, b, n = 0;
	char *has = xcalloc(p->ndemands * nc + 1, 1), *placed = xcalloc(p->ndemands * nc + 1, 1);
	char *share = xcalloc(nc * nc + 1, 1), *paired = xcalloc(nc + 1, 1), *room = xcalloc(nc + 1, 1);
	double *excess = xcalloc(nc + 1, sizeof(*excess));
	struct pair *pairs = xcalloc(nc * nc + 1, sizeof(*pairs));

	for (i = 0; i < p->narcs; i++) {
		has[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
		if (x[cl->arc[i]] > 1e-6)
			placed[(size_t)p->arcs[i].d * nc + (size_t)p->arcs[i].k] = 1;
	}
	for (d = 0; d < p->ndemands; d++)
		for (a = 0; a < nc; a++)
			if (placed[d * nc + a])
				for (b = 0; b < nc; b++)
					if (b != a && has[d * nc + b])
						share[(a < b ? a : b) * nc + (a < b ? b : a)] = 1;
	for (a = 0; a < nc; a++) {
		double used = 0;
		int m;
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[a * MODE_COUNT + (size_t)m])
				used += x[cl->n[a * MODE_COUNT + (size_t)m]];
		room[a] = used + 0.5 < (double)p->classes[a].nc->count;
		excess[a] = class_excess(P, p, ix, cl, a, x, lp);
	}
	for (a = 0; a < nc; a++)
		for (b = a + 1; b < nc; b++)
			if (share[a * nc + b]) {
				pairs[n].k1 = a;
				pairs[n].k2 = b;
				pairs[n].promise = excess[a] + excess[b] + (room[a] || room[b] ? fmax(excess[a], excess[b]) : 0);
				paired[a] = paired[b] = 1;
				n++;
			}
	for (a = 0; a < nc; a++)
		if (!paired[a] && p->classes[a].modes) {
			pairs[n].k1 = pairs[n].k2 = a;
			pairs[n].promise = excess[a];
			n++;
		}
	qsort(pairs, n, sizeof(*pairs), pair_cmp);
	free(has);
	free(placed);
	free(share);
	free(paired);
	free(room);
	free(excess);
	*out = pairs;
	return n;
}

/* One pair of classes solved again (polish), a job of a wave. */
struct pair_job {
	size_t ks[2], nk;
	double *q;		/* [demand]: the replicas x gives the two */
	double old, obj;	/* what the two cost in x (less rounding); what the MIP found */
	struct shrink sh;
	struct ilp_result got;
	int rc;
};

struct pair_jobs {
	const struct problem *p;
	const struct arcidx *ix;
	const struct cols *cl;
	const double *x;
	int verbose;
	double deadline;
	struct pair_job *job;
};

static void pair_job_run(void *ctx, size_t j)
{
	struct pair_jobs *pj = ctx;
	struct pair_job *b = &pj->job[j];
	size_t ng = pj->p->nclasses * MODE_COUNT;

	glpk_thread_hook(pj->verbose);
	memset(b->sh.cpu, 0, ng * sizeof(*b->sh.cpu));
	memset(b->sh.ram, 0, ng * sizeof(*b->sh.ram));
	b->rc = sub_mip(pj->p, pj->ix, b->ks, b->nk, b->q, NULL, pj->cl, pj->x, b->old, &b->sh, pj->verbose,
			pj->deadline, &b->got, &b->obj);
}

#define POLISH_WAVE 4	/* pairs solved at once: fixed, so the plan is the same on any number of threads */

/* A pair in a wave: its index in the pairs, and its job, or -1 when nothing changed since it was solved. */
struct wave_pair {
	size_t pi;
	long job;
};

/*
 * The next wave: the pairs not yet done in this pass (done[]), in order,
 * until POLISH_WAVE of them are to be solved; a pair whose classes
 * nothing changed since it was last solved is listed without a job.
 * Fills the jobs' classes, q and old from x (cur: its counts).  Returns
 * the number of pairs listed (*njobs: of jobs).
 */
static size_t pair_wave(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl,
			const double *x, const struct ilp_result *cur, const struct pair *pairs, size_t npairs,
			const char *done, const long *seen, const long *changed, struct wave_pair *wp,
			struct pair_job *job, size_t *njobs)
{
	size_t n = 0, nj = 0, pi, t, a;

	for (pi = 0; pi < npairs && nj < POLISH_WAVE; pi++) {
		size_t k1 = pairs[pi].k1, k2 = pairs[pi].k2;
		struct pair_job *b = &job[nj];
		if (done[pi])
			continue;
		wp[n].pi = pi;
		wp[n].job = -1;
		n++;
		if (seen[pi] && changed[k1] < seen[pi] && changed[k2] < seen[pi])
			continue; /* nothing new since it was last solved */
		wp[n - 1].job = (long)nj;
		b->ks[0] = k1;
		b->ks[1] = k2;
		b->nk = k1 == k2 ? 1 : 2;
		b->old = 0;
		memset(b->q, 0, p->ndemands * sizeof(*b->q));
		for (t = 0; t < b->nk; t++) {
			b->old += class_cost(P, p, ix, cl, b->ks[t], x);
			for (a = ix->kstart[b->ks[t]]; a < ix->kstart[b->ks[t] + 1]; a++)
				b->q[p->arcs[ix->byk[a]].d] += cur->arc[ix->byk[a]];
		}
		b->old -= 1e-6 * fmax(1, fabs(b->old)); /* cheaper by more than rounding */
		nj++;
	}
	*njobs = nj;
	return n;
}

/*
 * Polishes the concrete plan x (columns cl of P; x_obj: what it costs;
 * lp: the root LP's column values) in place; *made is x made concrete
 * (caller frees), NULL when nothing was cheaper.  Each pair of classes
 * (polish_pairs) is solved again as one MIP (sub_mip) for the replicas x gives the two,
 * every other class as x has it, with x offered as the first incumbent,
 * Gomory and MIR cuts and POLISH_NODES nodes.  A cheaper plan of the two
 * whose deal over real nodes loses no replica replaces theirs in x when
 * the whole plan, made concrete, is then cheaper too (the two may each
 * deal well alone and not together: a concrete plan deals all classes
 * one way, first-fit or balanced).
 * Rounding fixes each class against an LP of the classes not yet
 * rounded; here each class sees the others whole, and replicas move
 * between two classes only where both take them in whole
 * configurations.  After the first pass a pair is solved again only
 * when one of its classes changed since; it stops after a pass that
 * changes nothing, or at the deadline.  Pairs are solved POLISH_WAVE at
 * a time (pair_wave), on `threads` threads: most find nothing, so most
 * of a wave's results stand; the plan is the same on any number of
 * threads.  Returns the number of pairs that made x cheaper.
 */
static int polish(glp_prob *P, const struct problem *p, const struct arcidx *ix, const struct cols *cl, double *x,
		  double x_obj, const double *lp, int threads, int verbose, double deadline, double **made)
{
	size_t ng = p->nclasses * MODE_COUNT, npairs, i, t, ci, w, n, nj;
	struct pair *pairs;
	struct wave_pair *wp;
	struct ilp_result cur;
	struct pair_jobs pj;
	long *changed = xcalloc(p->nclasses + 1, sizeof(*changed)), *seen, stamp = 1, solved = 0, wasted = 0, dearer = 0;
	double *xc = xcalloc((size_t)cl->ncols + 1, sizeof(*xc)), concrete, t_deal = 0;
	char *moved = xcalloc(p->nclasses + 1, 1), *done;
	int better = 0, found = 1, m;

	*made = NULL;
	ilp_result_alloc(p, &cur);
	take_plan(p, cl, x, &cur);
	concrete = x_obj;
	npairs = polish_pairs(P, p, ix, cl, x, lp, &pairs);
	seen = xcalloc(npairs + 1, sizeof(*seen));
	done = xcalloc(npairs + 1, 1);
	wp = xcalloc(npairs + 1, sizeof(*wp));
	pj.p = p;
	pj.ix = ix;
	pj.cl = cl;
	pj.x = x;
	pj.verbose = verbose;
	pj.deadline = deadline;
	pj.job = xcalloc(POLISH_WAVE, sizeof(*pj.job));
	for (w = 0; w < POLISH_WAVE; w++) {
		pj.job[w].q = xcalloc(p->ndemands + 1, sizeof(*pj.job[w].q));
		pj.job[w].sh.cpu = xcalloc(ng + 1, sizeof(*pj.job[w].sh.cpu));
		pj.job[w].sh.ram = xcalloc(ng + 1, sizeof(*pj.job[w].sh.ram));
		ilp_result_alloc(p, &pj.job[w].got);
	}
	while (found && ms_left(deadline) > 0 && !interrupt_pending()) {
		found = 0;
		memset(done, 0, npairs);
		while (ms_left(deadline) > 0 && !interrupt_pending()) {
			n = pair_wave(P, p, ix, cl, x, &cur, pairs, npairs, done, seen, changed, wp, pj.job, &nj);
			if (!n)
				break;
			/*
			 * Solved at once, each against the plan before the wave;
			 * then taken in order.  A pair whose class a pair before
			 * it changed (or put off) is put off to the next wave,
			 * with its classes, so that every result taken is the one
			 * it would have been in order.
			 */
			par_run(nj, threads, pair_job_run, &pj, glpk_thread_end);
			solved += (long)nj;
			memset(moved, 0, p->nclasses);
			for (w = 0; w < n; w++) {
				size_t k1 = pairs[wp[w].pi].k1, k2 = pairs[wp[w].pi].k2;
				struct pair_job *b;
				double fo, *fixed;
				if (moved[k1] || moved[k2]) {
					moved[k1] = moved[k2] = 1;
					wasted += wp[w].job >= 0;
					continue;
				}
				done[wp[w].pi] = 1;
				if (wp[w].job < 0)
					continue;
				seen[wp[w].pi] = stamp++;
				b = &pj.job[wp[w].job];
				if (b->rc || b->obj >= b->old)
					continue;
				for (t = 0; t < b->nk; t++) {
					size_t k = b->ks[t], a;
					for (m = 0; m < MODE_COUNT; m++)
						cur.nmode[k * MODE_COUNT + (size_t)m] = b->got.nmode[k * MODE_COUNT + (size_t)m];
					for (ci = 0; ci < p->classes[k].nconfigs; ci++)
						cur.ncfg[k][ci] = b->got.ncfg[k][ci];
					for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++)
						cur.arc[ix->byk[a]] = b->got.arc[ix->byk[a]];
				}
				for (i = 0; i < p->ndemands; i++)
					cur.unplaced[i] += b->got.unplaced[i];
				counts_vector(p, cl, cur.nmode, cur.ncfg, cur.arc, cur.unplaced, xc);
				t_deal -= util_now_s();
				fixed = repair_vector(p, cl, xc);
				t_deal += util_now_s();
				fo = vec_obj(P, fixed);
				if (fo >= concrete - 1e-6 * fmax(1, fabs(concrete))) {
					take_plan(p, cl, x, &cur); /* dearer once dealt with the rest: back */
					free(fixed);
					dearer++;
					continue;
				}
				memcpy(x, xc, ((size_t)cl->ncols + 1) * sizeof(*x));
				free(*made);
				*made = fixed;
				concrete = fo;
				for (t = 0; t < b->nk; t++)
					changed[b->ks[t]] = seen[wp[w].pi];
				moved[k1] = moved[k2] = 1;
				found = 1;
				better++;
			}
		}
	}
	glp_printf("gpuplan-ilp: polish: %ld pair MIPs (%ld solved again, after a pair before them in their wave "
		   "changed), %d cheaper, %ld of those dearer made concrete (%.2f s in deals)\n",
		   solved, wasted, better + (int)dearer, dearer, t_deal);
	free(xc);
	for (w = 0; w < POLISH_WAVE; w++) {
		free(pj.job[w].q);
		free(pj.job[w].sh.cpu);
		free(pj.job[w].sh.ram);
		ilp_result_release(p, &pj.job[w].got);
	}
	free(pj.job);
	free(pairs);
	free(seen);
	free(done);
	free(wp);
	free(moved);
	free(changed);
	ilp_result_release(p, &cur);
	return better;
}

/* ================= branch-and-cut ================= */

struct cbinfo {
	const double *start[2];	/* incumbents to offer at the first GLP_IHEUR (1-based), or NULL */
	int injected;
	double bound;
	int have_bound;
	long node_limit;	/* 0 = none */
	int node_stop;		/* stopped by the node limit */
};

static void callback(glp_tree *T, void *info)
{
	struct cbinfo *cb = info;
	int node;

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
		node = glp_ios_best_node(T);
		if (node) {
			double b = glp_ios_node_bound(T, node);
			if (!cb->have_bound || b > cb->bound) {
				cb->bound = b;
				cb->have_bound = 1;
			}
		}
		break;
	default:
		break;
	}
}

static int write_model(glp_prob *P, const char *path, struct diag *d)
{
	size_t len = strlen(path);
	char *tmp = xasprintf("%s.tmp", path);
	int rc;

	if (len > 4 && !str_casecmp(path + len - 4, ".mps"))
		rc = glp_write_mps(P, GLP_MPS_FILE, NULL, tmp);
	else if (len > 3 && !str_casecmp(path + len - 3, ".lp"))
		rc = glp_write_lp(P, NULL, tmp);
	else {
		free(tmp);
		return diag_set(d, DIAG_USAGE, NULL, 0, 0, "--export-model: '%s' must end in .mps or .lp", path);
	}
	if (rc || rename(tmp, path)) {
		int e = errno;
		remove(tmp);
		free(tmp);
		return diag_set(d, DIAG_IO, path, 0, 0, "cannot write the model: %s",
				rc ? "GLPK could not write it" : strerror(e));
	}
	free(tmp);
	return 0;
}

int ilp_solve(const struct problem *p, const struct ilp_opts *o, struct ilp_result *r, struct diag *d)
{
	glp_prob *P;
	struct cols cl;
	struct arcidx ix;
	glp_iocp iocp;
	struct cbinfo cb;
	char *in_set = NULL;
	double *warm = NULL, *rounded = NULL, *best = NULL, *x = NULL, warm_obj = 0, round_obj = 0, best_obj = 0;
	double t0 = util_now_s(), deadline = t0 + o->time_limit_s, t_deal_max = 0;
	int ret, st, code = 0, rounds = 0, restricted = 0, rc = -1, j;
	int threads = o->threads > 0 ? o->threads : par_processors();
	size_t i;
	enum lp_end e;

	memset(r, 0, sizeof(*r));
	memset(&cb, 0, sizeof(cb));
	memset(&cl, 0, sizeof(cl));
	ilp_result_alloc(p, r);
	glpk_thread_hook(o->verbose);
	P = glp_create_prob();
	arcidx_build(&ix, p);
	build(P, p, &ix, &cl);
	r->rows = glp_get_num_rows(P);
	r->cols = glp_get_num_cols(P);
	r->int_cols = glp_get_num_int(P);
	if (o->export_path && write_model(P, o->export_path, d))
		goto out;
	if (o->warm) {
		warm = warm_vector(p, &cl, o->warm);
		warm_obj = vec_obj(P, warm);
	}

	/* 1: root LP */
	in_set = xcalloc(p->narcs + 1, 1);
	e = root_lp(P, p, &cl, warm, in_set, o->verbose, deadline, &rounds, &code);
	r->lp_rounds = rounds;
	r->t_lp = util_now_s() - t0;
	if (e == LP_TIME) {
		r->status = ILP_TIME_LIMIT;
		rc = 0;
		goto out;
	}
	if (e == LP_FAILED) {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the LP relaxation failed (GLPK code %d)", code);
		r->status = ILP_NO_PLAN;
		goto out;
	}
	r->lp_bound = glp_get_obj_val(P);
	for (i = 0; i < p->narcs; i++)
		if (!in_set[i])
			restricted = 1;
	r->lp_arcs = 0;
	for (i = 0; i < p->narcs; i++)
		r->lp_arcs += in_set[i];

	/* 2: rounding chains (round_chains); the cheapest plan made concrete is kept */
	rounded = round_chains(P, p, &ix, &cl, threads, o->verbose, t0, o->time_limit_s, deadline, &round_obj,
			       &t_deal_max);
	if (rounded)
		admit_arcs(P, p, &cl, rounded, in_set);
	/* 2b: the cheapest rounded plan polished, two classes at a time */
	if (rounded && !interrupt_pending()) {
		double *y = xcalloc((size_t)cl.ncols + 1, sizeof(*y)), *lp = xcalloc((size_t)cl.ncols + 1, sizeof(*lp));
		double *fy, fo;
		int better;
		memcpy(y, rounded, ((size_t)cl.ncols + 1) * sizeof(*y));
		for (j = 1; j <= cl.ncols; j++)
			lp[j] = glp_get_col_prim(P, j);
		better = polish(P, p, &ix, &cl, y, round_obj, lp, threads, o->verbose, deadline - 2 * t_deal_max, &fy);
		if (better) {
			fo = vec_obj(P, fy);
			glp_printf("gpuplan-ilp: polish: %d pairs cheaper; objective %.2f unplaced %.0f; made concrete %.2f "
				   "unplaced %.0f (%.2f s)\n", better, vec_obj(P, y), unplaced_sum(p, &cl, y), fo,
				   unplaced_sum(p, &cl, fy), util_now_s() - t0);
			keep_cheapest(&rounded, &round_obj, fy, fo);
			if (rounded == fy)
				admit_arcs(P, p, &cl, rounded, in_set);
		}
		free(y);
		free(lp);
	}
	r->round_objective = rounded ? round_obj : 0;
	r->t_round = util_now_s() - t0;
	if (rounded && (!warm || round_obj <= warm_obj)) {
		best = rounded;
		best_obj = round_obj;
	} else if (warm) {
		best = warm;
		best_obj = warm_obj;
	}

	/* 3: branch-and-cut, unless the best start is already within the gap */
	x = xcalloc((size_t)cl.ncols + 1, sizeof(*x));
	if (best && best_obj - r->lp_bound <= o->mip_gap * fabs(best_obj) + 1e-9) {
		memcpy(x, best, ((size_t)cl.ncols + 1) * sizeof(*x));
		r->status = ILP_OPTIMAL;
		r->objective = best_obj;
		r->bound = r->lp_bound;
		goto done;
	}
	glp_init_iocp(&iocp);
	iocp.presolve = GLP_OFF;
	iocp.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	/* room to make its plan concrete, here and once more in plan.c */
	iocp.tm_lim = ms_left(deadline - 2 * t_deal_max);
	iocp.mip_gap = o->mip_gap;
	iocp.cb_func = callback;
	iocp.cb_info = &cb;
	cb.start[0] = rounded;
	cb.start[1] = warm;
	cb.node_limit = o->node_limit;
	if (!iocp.tm_lim || interrupt_pending()) {
		ret = GLP_ETMLIM;
		st = GLP_UNDEF;
	} else {
		ret = glp_intopt(P, &iocp);
		st = glp_mip_status(P);
	}
	r->nodes = cb.node_stop ? o->node_limit : 0;
	if ((ret == 0 || ret == GLP_EMIPGAP) && (st == GLP_OPT || st == GLP_FEAS)) {
		r->status = ILP_OPTIMAL;
	} else if ((ret == GLP_ETMLIM || ret == GLP_ESTOP) && st == GLP_FEAS) {
		r->status = ILP_FEASIBLE;
	} else if (ret == GLP_ETMLIM || ret == GLP_ESTOP) {
		/* no search or no incumbent of its own: the best start stands */
		if (best && best != warm) {
			memcpy(x, best, ((size_t)cl.ncols + 1) * sizeof(*x));
			r->status = ILP_FEASIBLE;
			r->objective = best_obj;
			r->bound = r->lp_bound;
			goto done;
		}
		r->status = ILP_TIME_LIMIT;
		rc = 0;
		goto out;
	} else {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the MIP solver failed (GLPK code %d, status %d)", ret, st);
		r->status = ILP_NO_PLAN;
		goto out;
	}
	r->objective = glp_mip_obj_val(P);
	for (j = 1; j <= cl.ncols; j++)
		x[j] = glp_mip_col_val(P, j);
	if (restricted)
		r->bound = r->lp_bound; /* the search saw only the working set */
	else if (st == GLP_OPT)
		r->bound = r->objective;
	else
		r->bound = cb.have_bound ? fmax(cb.bound, r->lp_bound) : r->lp_bound;
	if (restricted && r->status == ILP_OPTIMAL &&
	    r->objective - r->bound > o->mip_gap * fabs(r->objective) + 1e-9)
		r->status = ILP_FEASIBLE; /* optimal on the working set only */
	/*
	 * The search's plan made concrete, as the plan reported will be; when
	 * that costs more than the best rounded plan (concrete already), the
	 * rounded one stands: the search minimises the model, whose CPU and
	 * RAM are per (class, mode), not per node.  (The starts that jump to
	 * done are concrete already: a rounded plan or the greedy one.)
	 */
	{
		double *fx = repair_vector(p, &cl, x), fo = vec_obj(P, fx);
		if (rounded && round_obj < fo - 1e-6) {
			memcpy(x, rounded, ((size_t)cl.ncols + 1) * sizeof(*x));
			r->objective = round_obj;
		} else {
			memcpy(x, fx, ((size_t)cl.ncols + 1) * sizeof(*x));
			r->objective = fo;
		}
		free(fx);
		if (r->status == ILP_OPTIMAL && r->objective - r->bound > o->mip_gap * fabs(r->objective) + 1e-9)
			r->status = ILP_FEASIBLE;
	}
done:
	if (r->bound > r->objective)
		r->bound = r->objective;
	r->gap = fabs(r->objective) > 1e-9 ? (r->objective - r->bound) / fabs(r->objective) : 0;
	take_plan(p, &cl, x, r);
	rc = 0;
out:
	{
		double un = 0;
		for (i = 0; r->unplaced && i < p->ndemands; i++)
			un += r->unplaced[i];
		r->unplaced_total = un;
	}
	/* one summary line in the solver's log (stderr with --verbose; bench/run.sh reads it) */
	glp_printf("gpuplan-ilp: status %s objective %.2f bound %.2f lp_bound %.2f rounded %.2f lp_rounds %d "
		   "lp_arcs %ld/%ld unplaced %.0f t_lp %.2f t_round %.2f t_total %.2f\n",
		   ilp_status_name(r->status), r->objective, r->bound, r->lp_bound, r->round_objective, r->lp_rounds,
		   r->lp_arcs, (long)p->narcs, r->unplaced_total, r->t_lp, r->t_round, util_now_s() - t0);
	free(x);
	free(warm);
	free(rounded);
	free(in_set);
	arcidx_release(&ix);
	cols_free(p, &cl);
	glp_delete_prob(P);
	glp_term_hook(NULL, NULL);
	return rc;
}
