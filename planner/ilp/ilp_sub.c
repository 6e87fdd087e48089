/*
 * ilp_sub.c - the MIP of one or more classes alone (the rounding's class
 * MIPs, the polish's pair and triple MIPs): built with the whole model's class
 * columns and rows (ilp_model.c) plus a demand row per demand with an
 * arc there, started from a given plan (or from "leave everything"),
 * searched for a fixed number of branch-and-bound nodes (deterministic,
 * unlike a time limit), and, with a shrink, dealt over real nodes and
 * solved again with what the deal lost taken off (CLASS_DEAL_TRIES).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "interrupt.h"
#include "util.h"
#include "ilp_glpk.h"
#include "ilp_key.h"
#include "ilp_shrink.h"
#include "ilp_sub.h"
#include "banned.h"

#define CLASS_MIP_NODES 2000	/* branch-and-bound nodes per class: deterministic, unlike a time limit */
/*
 * Branch-and-bound nodes per pair when polishing: POLISH_NODES_MIN (many
 * short searches beat a few long ones), then, in the polish's deep
 * passes (sub_mip_args.deep), POLISH_WORK / the pair MIP's columns,
 * within [POLISH_NODES_MIN, POLISH_NODES_MAX]: a small pair MIP is
 * searched deeper, which finds the moves between modes that a short
 * search misses.
 */
#define POLISH_WORK 120000
#define POLISH_NODES_MIN 50
#define POLISH_NODES_MAX 400
#define CLASS_DEAL_TRIES 3	/* class MIPs solved again with what dealing them lost taken off */

/* What the sub-MIP's callback needs. */
struct class_cb {
	const double *start;	/* the first incumbent: leave everything, or the plan being polished */
	int injected, nodes;	/* start offered; the node limit */
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
	int d, col;		/* the arc's demand; its column in the sub-MIP */
};

static int darc_cmp(const void *a, const void *b)
{
	const struct darc *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

/* A sub-MIP being built and solved. */
struct sub {
	glp_prob *S;		/* the model */
	struct cols lc;		/* its columns */
	struct darc *da;	/* [nda]: its arcs, by demand */
	size_t nda;
	int ncols;		/* S's columns */
	double *start;		/* [ncols + 1]: the first incumbent */
};

/* Builds s->S: the classes' columns, the arcs they may use, the unplaced of their demands, and the rows. */
static void sub_build(const struct ilp_ctx *c, const struct sub_mip_args *sa, struct sub *s)
{
	const struct problem *p = c->p;
	const struct arcidx *ix = &c->ix;
	const size_t *ks = sa->ks;
	const double *q = sa->q;
	glp_prob *S = s->S;
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	struct ilp_rows rw = { S, p, ix, &s->lc, &rb };
	struct darc *da;
	size_t a, nda = 0, i, t, nk = sa->nk, narc = 0;
	char name[48];

	memset(&s->lc, 0, sizeof(s->lc));
	ilp_cols_alloc(p, &s->lc);
	for (t = 0; t < nk; t++)
		narc += ix->kstart[ks[t] + 1] - ix->kstart[ks[t]];
	da = xcalloc(narc + 1, sizeof(*da));
	glp_set_obj_dir(S, GLP_MIN);
	for (t = 0; t < nk; t++)
		ilp_class_cols(S, p, &s->lc, ks[t]);
	for (t = 0; t < nk; t++)
		for (a = ix->kstart[ks[t]]; a < ix->kstart[ks[t] + 1]; a++) {
			i = ix->byk[a];
			if ((!sa->use || sa->use[i]) && q[p->arcs[i].d] > 1e-6) {
				ilp_arc_col(S, p, &s->lc, i);
				da[nda].d = p->arcs[i].d;
				da[nda].col = s->lc.arc[i];
				nda++;
			}
		}
	qsort(da, nda, sizeof(*da), darc_cmp);
	for (a = 0; a < nda; a++) {
		int d = da[a].d;
		if (s->lc.u[d])
			continue;
		snprintf(name, sizeof(name), "U_%d", d);
		s->lc.u[d] = ilp_add_col(S, name, 0, 0, q[d], p->demands[d].solve_penalty);
	}
	for (t = 0; t < nk; t++)
		ilp_agg_cols(S, p, &s->lc, ks[t]);
	s->ncols = glp_get_num_cols(S);
	rb.pos = xcalloc((size_t)s->ncols + 1, sizeof(*rb.pos));
	for (t = 0; t < nk; t++) {
		ilp_class_rows(&rw, ks[t], sa->sh);
		if (sa->keyed)
			ilp_key_res_rows(&rw, ks[t]);
	}
	for (a = 0; a < nda;) {
		int d = da[a].d;
		for (; a < nda && da[a].d == d; a++)
			ilp_rb_add(&rb, da[a].col, 1);
		ilp_rb_add(&rb, s->lc.u[d], 1);
		snprintf(name, sizeof(name), "dem_%d", d);
		ilp_add_row(S, &rb, name, GLP_FX, q[d], q[d]);
	}
	ilp_cap_rows(&rw);	/* the site rows over these classes only: a relaxation the deal tightens */
	ilp_rb_free(&rb);
	s->da = da;
	s->nda = nda;
}

/* The first incumbent: start_x on s's columns, or nothing on and all unplaced. */
static void sub_start(const struct ilp_ctx *c, const struct sub_mip_args *sa, struct sub *s)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl, *lc = &s->lc;
	const double *q = sa->q, *start_x = sa->start_x;
	const struct darc *da = s->da;
	double *start = xcalloc((size_t)s->ncols + 1, sizeof(*start));
	size_t a, i, t;

	for (a = 0; a < s->nda; a++)
		start[lc->u[da[a].d]] = q[da[a].d];
	if (start_x) {
		for (t = 0; t < sa->nk; t++) {
			size_t k = sa->ks[t], ci;
			int m;
			for (m = 0; m < MODE_COUNT; m++) {
				size_t g = k * MODE_COUNT + (size_t)m;
				if (lc->n[g])
					start[lc->n[g]] = start_x[cl->n[g]];
			}
			for (ci = 0; ci < p->classes[k].nconfigs; ci++)
				start[lc->g[k][ci]] = start_x[cl->g[k][ci]];
			start[lc->agg[2 * k]] = start_x[cl->agg[2 * k]];
			start[lc->agg[2 * k + 1]] = start_x[cl->agg[2 * k + 1]];
			ilp_key_fill(p, lc, k, start);
		}
		for (i = 0; i < p->narcs; i++)
			if (lc->arc[i]) {
				start[lc->arc[i]] = start_x[cl->arc[i]];
				start[lc->u[p->arcs[i].d]] -= start_x[cl->arc[i]];
			}
		for (a = 0; a < s->nda; a++)
			if (start[lc->u[da[a].d]] < 0)
				start[lc->u[da[a].d]] = 0;
	}
	s->start = start;
}

/* The counts and arcs of the classes sa->ks in s's solution, into r (zero elsewhere). */
static void sub_counts(const struct problem *p, const struct sub *s, const struct sub_mip_args *sa,
		       struct ilp_result *r)
{
	glp_prob *S = s->S;
	const struct cols *lc = &s->lc;
	size_t ci, i, t;
	int m;

	memset(r->nmode, 0, p->nclasses * MODE_COUNT * sizeof(*r->nmode));
	for (i = 0; i < p->nclasses; i++)
		memset(r->ncfg[i], 0, p->classes[i].nconfigs * sizeof(**r->ncfg));
	for (i = 0; i < p->narcs; i++)
		r->arc[i] = lc->arc[i] ? glp_mip_col_val(S, lc->arc[i]) : 0;
	for (t = 0; t < sa->nk; t++) {
		size_t k = sa->ks[t];
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
 * Deals the counts r of the classes sa->ks over their real nodes; where
 * replicas find no slot, takes their CPU and RAM, shared over the mode's
 * nodes, off each node in sh (at most half a node) and in the sub-MIP's
 * rows (sh NULL: nothing is taken off).  Returns 0 when the deal lost
 * nothing, 1 when it lost and something was taken off (the sub-MIP is
 * worth solving again), 2 when it lost and nothing was taken off.
 */
static int sub_shrink(const struct problem *p, const struct sub *s, const struct sub_mip_args *sa,
		      const struct ilp_result *r, struct shrink *sh)
{
	size_t ng = p->nclasses * MODE_COUNT, t;
	double *lcpu = xcalloc(ng + 1, sizeof(*lcpu)), *lram = xcalloc(ng + 1, sizeof(*lram));
	int m, more = 0, lost;

	lost = cplan_deal_loss(p, r->nmode, r->ncfg, r->arc, lcpu, lram) > 0;
	for (t = 0; lost && sh && t < sa->nk; t++) {
		const struct node_class *nc = p->classes[sa->ks[t]].nc;
		for (m = 0; m < MODE_COUNT; m++) {
			size_t g = sa->ks[t] * MODE_COUNT + (size_t)m;
			struct shrink_loss l;
			int took;
			l.nodes = (double)r->nmode[g];
			l.cpu = lcpu[g];
			l.ram = lram[g];
			took = ilp_shrink_take(nc, &s->lc, sh, g, &l);
			ilp_shrink_set(s->S, &s->lc, nc, sh, g, took);
			more |= took != 0;
		}
	}
	free(lcpu);
	free(lram);
	return !lost ? 0 : more ? 1 : 2;
}

/* The node budget of a pair MIP of ncols columns (see POLISH_WORK): a function of the model alone. */
static int polish_nodes(int ncols)
{
	int n = ncols > 0 ? POLISH_WORK / ncols : POLISH_NODES_MAX;

	return n < POLISH_NODES_MIN ? POLISH_NODES_MIN : n > POLISH_NODES_MAX ? POLISH_NODES_MAX : n;
}

/*
 * One solve of s->S: its LP, then branch-and-cut from s->start:
 * CLASS_MIP_NODES nodes and MIR cuts when rounding; when polishing
 * (start_x), POLISH_NODES_MIN or polish_nodes() nodes (sa->deep), with
 * Gomory and MIR cuts when sa->cuts (the polish's last passes,
 * ilp_polish.c).  1 when it found a plan.
 */
static int sub_once(const struct ilp_ctx *c, const struct sub_mip_args *sa, struct sub *s)
{
	glp_prob *S = s->S;
	struct class_cb cb;
	glp_smcp smcp;
	glp_iocp iocp;
	int ret, st;

	glp_init_smcp(&smcp);
	smcp.msg_lev = GLP_MSG_OFF;
	smcp.presolve = GLP_ON;
	smcp.tm_lim = ilp_ms_left(sa->deadline);
	if (!smcp.tm_lim || glp_simplex(S, &smcp) || glp_get_status(S) != GLP_OPT)
		return 0;
	glp_init_iocp(&iocp);
	iocp.msg_lev = c->verbose > 1 ? GLP_MSG_ON : GLP_MSG_OFF;
	iocp.tm_lim = ilp_ms_left(sa->deadline);
	iocp.mip_gap = 1e-4;
	iocp.mir_cuts = !sa->start_x || sa->cuts ? GLP_ON : GLP_OFF;
	iocp.gmi_cuts = sa->start_x && sa->cuts ? GLP_ON : GLP_OFF;
	iocp.cb_func = class_callback;
	iocp.cb_info = &cb;
	memset(&cb, 0, sizeof(cb));
	cb.start = s->start;
	cb.nodes = !sa->start_x ? CLASS_MIP_NODES : sa->deep ? polish_nodes(s->ncols) : POLISH_NODES_MIN;
	if (!iocp.tm_lim)
		return 0;
	ret = glp_intopt(S, &iocp);
	st = glp_mip_status(S);
	if (!(ret == 0 || ret == GLP_EMIPGAP || ret == GLP_ETMLIM || ret == GLP_ESTOP) ||
	    (st != GLP_OPT && st != GLP_FEAS))
		return 0;
	return 1;
}

int ilp_sub_mip(const struct ilp_ctx *c, const struct sub_mip_args *a, struct ilp_result *r, double *obj)
{
	struct sub s;
	int rc = -1, tries, lost = 0;

	memset(&s, 0, sizeof(s));
	s.S = glp_create_prob();
	sub_build(c, a, &s);
	sub_start(c, a, &s);
	for (tries = 0; (a->deep != SUB_DEEP || polish_nodes(s.ncols) > POLISH_NODES_MIN) && sub_once(c, a, &s); tries++) {
		sub_counts(c->p, &s, a, r);
		*obj = glp_mip_obj_val(s.S);
		rc = 0;
		if (!a->sh || *obj >= a->worse)
			break;
		if (tries == CLASS_DEAL_TRIES && !a->start_x)
			break; /* rounding keeps its last plan: no need to deal it once more for a verdict */
		lost = sub_shrink(c->p, &s, a, r, tries < CLASS_DEAL_TRIES ? a->sh : NULL);
		if (lost != 1)
			break;
	}
	free(s.start);
	free(s.da);
	ilp_cols_free(c->p, &s.lc);
	glp_delete_prob(s.S);
	return rc ? rc : lost != 0;
}
