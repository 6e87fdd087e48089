/*
 * ilp.c - builds the aggregated model, solves it with GLPK, reads back
 * the counts.  The root LP (with presolve) gives the lower bound; the
 * branch-and-cut reuses its basis, starts from the greedy plan when one
 * is given (GLP_IHEUR), and stops at the time limit or the relative gap.
 */
#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "interrupt.h"
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
	int arc0;		/* first arc column */
	int u0;			/* first unplaced column */
	int agg0;		/* first aggregate column: NODES_k, GPUS_k pairs */
	int ncols;
};

struct rowbuf {
	int *ind;
	double *val;
	int len, cap;
};

static void rb_add(struct rowbuf *rb, int col, double v)
{
	int i;
	for (i = 1; i <= rb->len; i++) {
		if (rb->ind[i] == col) {
			rb->val[i] += v;
			return;
		}
	}
	if (rb->len + 2 > rb->cap) {
		rb->cap = rb->cap ? rb->cap * 2 : 64;
		rb->ind = xrealloc(rb->ind, (size_t)rb->cap * sizeof(*rb->ind));
		rb->val = xrealloc(rb->val, (size_t)rb->cap * sizeof(*rb->val));
	}
	rb->len++;
	rb->ind[rb->len] = col;
	rb->val[rb->len] = v;
}

static void add_row(glp_prob *P, struct rowbuf *rb, const char *name, int type, double lo, double hi)
{
	int r = glp_add_rows(P, 1);
	glp_set_row_name(P, r, name);
	glp_set_row_bnds(P, r, type, lo, hi);
	if (rb->len)
		glp_set_mat_row(P, r, rb->len, rb->ind, rb->val);
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

static void build(glp_prob *P, const struct problem *p, struct cols *cl)
{
	struct rowbuf rb = { NULL, NULL, 0, 0 };
	char name[96];
	size_t k, i, ci, s;
	int m;

	glp_set_prob_name(P, "gpuplan");
	glp_set_obj_dir(P, GLP_MIN);
	cl->n = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*cl->n));
	cl->g = xcalloc(p->nclasses + 1, sizeof(*cl->g));
	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		double cnt = (double)c->nc->count;
		cl->g[k] = xcalloc(c->nconfigs + 1, sizeof(**cl->g));
		for (m = 0; m < MODE_COUNT; m++) {
			if (!(c->modes & MODE_BIT(m)))
				continue;
			snprintf(name, sizeof(name), "N_%zu_%s", k, mode_name((enum gpu_mode)m));
			cl->n[k * MODE_COUNT + (size_t)m] = add_col(P, name, 1, 0, cnt, c->node_cost + p->tiebreak);
		}
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			double hi = cf->node_pattern ? cnt : cnt * c->nc->gpus_per_node;
			snprintf(name, sizeof(name), "G_%zu_%zu", k, ci);
			cl->g[k][ci] = add_col(P, name, 1, 0, hi, cf->cost);
		}
	}
	cl->arc0 = glp_get_num_cols(P) + 1;
	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		snprintf(name, sizeof(name), "A_%d_%d_%d", a->d, a->k, a->s);
		add_col(P, name, 0, 0, (double)p->demands[a->d].replicas, a->cost);
	}
	cl->u0 = glp_get_num_cols(P) + 1;
	for (i = 0; i < p->ndemands; i++) {
		snprintf(name, sizeof(name), "U_%zu", i);
		add_col(P, name, 0, 0, (double)p->demands[i].replicas, p->demands[i].penalty);
	}
	/*
	 * Aggregates per class: nodes in use and GPUs in use.  Integer by
	 * definition; as columns of their own they give the branch-and-bound
	 * the branching that closes bin-packing gaps fast ("how many GPUs of
	 * this class are on"), instead of one configuration at a time.
	 */
	cl->agg0 = glp_get_num_cols(P) + 1;
	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		double cnt = (double)c->nc->count;
		snprintf(name, sizeof(name), "NODES_%zu", k);
		add_col(P, name, 1, 0, cnt, 0);
		snprintf(name, sizeof(name), "GPUS_%zu", k);
		add_col(P, name, 1, 0, cnt * c->nc->gpus_per_node, 0);
	}
	cl->ncols = glp_get_num_cols(P);

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		int any = 0;
		if (!c->modes)
			continue;
		for (m = 0; m < MODE_COUNT; m++) {
			int col = cl->n[k * MODE_COUNT + (size_t)m];
			if (col) {
				rb_add(&rb, col, 1);
				any = 1;
			}
		}
		snprintf(name, sizeof(name), "avail_%zu", k);
		if (any)
			add_row(P, &rb, name, GLP_UP, 0, (double)c->nc->count);
		for (m = 0; m < MODE_COUNT; m++)
			if (cl->n[k * MODE_COUNT + (size_t)m])
				rb_add(&rb, cl->n[k * MODE_COUNT + (size_t)m], 1);
		rb_add(&rb, cl->agg0 + 2 * (int)k, -1);
		snprintf(name, sizeof(name), "nodes_%zu", k);
		add_row(P, &rb, name, GLP_FX, 0, 0);
		for (ci = 0; ci < c->nconfigs; ci++)
			if (!c->configs[ci].node_pattern)
				rb_add(&rb, cl->g[k][ci], 1);
		for (i = 0; i < p->narcs; i++)
			if (p->arcs[i].k == (int)k && c->slot_types[p->arcs[i].s].mode == MODE_PASSTHROUGH)
				rb_add(&rb, cl->arc0 + (int)i, c->slot_types[p->arcs[i].s].gpus);
		rb_add(&rb, cl->agg0 + 2 * (int)k + 1, -1);
		snprintf(name, sizeof(name), "gpus_on_%zu", k);
		add_row(P, &rb, name, GLP_FX, 0, 0);
		for (m = 0; m < MODE_COUNT; m++) {
			int col = cl->n[k * MODE_COUNT + (size_t)m];
			if (!col)
				continue;
			for (ci = 0; ci < c->nconfigs; ci++)
				if (c->configs[ci].mode == (enum gpu_mode)m)
					rb_add(&rb, cl->g[k][ci], 1);
			if (m == MODE_PASSTHROUGH) {
				rb_add(&rb, col, -1);
				snprintf(name, sizeof(name), "pat_%zu", k);
				add_row(P, &rb, name, GLP_FX, 0, 0);
			} else {
				rb_add(&rb, col, -(double)c->nc->gpus_per_node);
				snprintf(name, sizeof(name), "gpus_%zu_%s", k, mode_name((enum gpu_mode)m));
				add_row(P, &rb, name, GLP_UP, 0, 0);
			}
		}
		for (s = 0; s < c->nslot_types; s++) {
			int used = 0;
			for (i = 0; i < p->narcs; i++) {
				if (p->arcs[i].k == (int)k && p->arcs[i].s == (int)s) {
					rb_add(&rb, cl->arc0 + (int)i, 1);
					used = 1;
				}
			}
			if (!used)
				continue;
			for (ci = 0; ci < c->nconfigs; ci++) {
				const struct config *cf = &c->configs[ci];
				size_t j;
				for (j = 0; j < cf->nslots; j++)
					if (cf->slot[j] == (int)s)
						rb_add(&rb, cl->g[k][ci], -(double)cf->count[j]);
			}
			snprintf(name, sizeof(name), "cap_%zu_%zu", k, s);
			add_row(P, &rb, name, GLP_UP, 0, 0);
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
					for (i = 0; i < p->narcs; i++) {
						const struct workload *w = p->demands[p->arcs[i].d].w;
						double need = pass ? w->ram_gib : w->cpu_cores;
						if (p->arcs[i].k == (int)k && need > 0 &&
						    c->slot_types[p->arcs[i].s].mode == (enum gpu_mode)m) {
							rb_add(&rb, cl->arc0 + (int)i, need);
							used = 1;
						}
					}
					if (!used) {
						rb.len = 0;
						continue;
					}
					rb_add(&rb, cl->n[k * MODE_COUNT + (size_t)m], -cap);
					snprintf(name, sizeof(name), "%s_%zu_%d", pass ? "ram" : "cpu", k, m);
					add_row(P, &rb, name, GLP_UP, 0, 0);
				}
			}
		}
	}
	for (i = 0; i < p->ndemands; i++) {
		size_t a;
		for (a = 0; a < p->narcs; a++)
			if (p->arcs[a].d == (int)i)
				rb_add(&rb, cl->arc0 + (int)a, 1);
		rb_add(&rb, cl->u0 + (int)i, 1);
		snprintf(name, sizeof(name), "dem_%zu", i);
		add_row(P, &rb, name, GLP_FX, (double)p->demands[i].replicas, (double)p->demands[i].replicas);
	}
	free(rb.ind);
	free(rb.val);
}

static void cols_free(const struct problem *p, struct cols *cl)
{
	size_t k;
	for (k = 0; k < p->nclasses; k++)
		free(cl->g[k]);
	free(cl->g);
	free(cl->n);
}

struct cbinfo {
	double *warm;		/* 1-based column values, or NULL */
	int injected;
	double bound;
	int have_bound;
};

static void callback(glp_tree *T, void *info)
{
	struct cbinfo *cb = info;
	int node;

	if (interrupt_pending()) {
		glp_ios_terminate(T); /* SIGINT/SIGTERM: stop like a time limit */
		return;
	}
	switch (glp_ios_reason(T)) {
	case GLP_IHEUR:
		if (cb->warm && !cb->injected) {
			cb->injected = 1;
			glp_ios_heur_sol(T, cb->warm);
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
	glp_smcp smcp;
	glp_iocp iocp;
	struct cbinfo cb;
	size_t k, i, ci;
	int m, ret, st, rc = -1;
	double tm = o->time_limit_s * 1000.0;

	memset(r, 0, sizeof(*r));
	memset(&cb, 0, sizeof(cb));
	ilp_result_alloc(p, r);
	glp_term_hook(o->verbose ? term_hook : silent_hook, NULL);
	P = glp_create_prob();
	build(P, p, &cl);
	r->rows = glp_get_num_rows(P);
	r->cols = glp_get_num_cols(P);
	r->int_cols = glp_get_num_int(P);
	if (o->export_path && write_model(P, o->export_path, d))
		goto out;

	glp_init_smcp(&smcp);
	smcp.presolve = GLP_ON;
	smcp.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	smcp.tm_lim = tm > 2e9 ? 2000000000 : (int)fmax(1, tm);
	ret = glp_simplex(P, &smcp);
	if (ret == GLP_ETMLIM || (ret == 0 && glp_get_status(P) != GLP_OPT)) {
		r->status = ILP_TIME_LIMIT;
		rc = 0;
		goto out;
	}
	if (ret) {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the LP relaxation failed (GLPK code %d)", ret);
		r->status = ILP_NO_PLAN;
		goto out;
	}
	r->lp_bound = glp_get_obj_val(P);

	if (o->warm) {
		long *nmode = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*nmode));
		long **ncfg = xcalloc(p->nclasses + 1, sizeof(*ncfg));
		double *arc = xcalloc(p->narcs + 1, sizeof(*arc));
		double *un = xcalloc(p->ndemands + 1, sizeof(*un));
		cb.warm = xcalloc((size_t)cl.ncols + 1, sizeof(*cb.warm));
		for (k = 0; k < p->nclasses; k++)
			ncfg[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**ncfg));
		cplan_counts(o->warm, nmode, ncfg, arc, un);
		for (k = 0; k < p->nclasses; k++) {
			for (m = 0; m < MODE_COUNT; m++)
				if (cl.n[k * MODE_COUNT + (size_t)m])
					cb.warm[cl.n[k * MODE_COUNT + (size_t)m]] = (double)nmode[k * MODE_COUNT + (size_t)m];
			for (ci = 0; ci < p->classes[k].nconfigs; ci++)
				cb.warm[cl.g[k][ci]] = (double)ncfg[k][ci];
		}
		for (i = 0; i < p->narcs; i++)
			cb.warm[cl.arc0 + (int)i] = arc[i];
		for (k = 0; k < p->nclasses; k++) {
			const struct pclass *c = &p->classes[k];
			double nodes = 0, gpus = 0;
			for (m = 0; m < MODE_COUNT; m++)
				nodes += (double)nmode[k * MODE_COUNT + (size_t)m];
			for (i = 0; i < p->narcs; i++)
				if (p->arcs[i].k == (int)k && c->slot_types[p->arcs[i].s].mode == MODE_PASSTHROUGH)
					gpus += arc[i] * c->slot_types[p->arcs[i].s].gpus;
			for (ci = 0; ci < c->nconfigs; ci++)
				if (!c->configs[ci].node_pattern)
					gpus += (double)ncfg[k][ci];
			cb.warm[cl.agg0 + 2 * (int)k] = nodes;
			cb.warm[cl.agg0 + 2 * (int)k + 1] = gpus;
		}
		for (k = 0; k < p->nclasses; k++)
			free(ncfg[k]);
		for (i = 0; i < p->ndemands; i++)
			cb.warm[cl.u0 + (int)i] = un[i];
		free(nmode);
		free(ncfg);
		free(arc);
		free(un);
	}

	glp_init_iocp(&iocp);
	iocp.presolve = GLP_OFF;
	iocp.msg_lev = o->verbose ? GLP_MSG_ON : GLP_MSG_OFF;
	iocp.tm_lim = smcp.tm_lim;
	iocp.mip_gap = o->mip_gap;
	iocp.cb_func = callback;
	iocp.cb_info = &cb;
	ret = glp_intopt(P, &iocp);
	st = glp_mip_status(P);
	if ((ret == 0 || ret == GLP_EMIPGAP) && (st == GLP_OPT || st == GLP_FEAS)) {
		r->status = ILP_OPTIMAL;
	} else if ((ret == GLP_ETMLIM || ret == GLP_ESTOP) && st == GLP_FEAS) {
		r->status = ILP_FEASIBLE;
	} else if (ret == GLP_ETMLIM || ret == GLP_ESTOP) {
		r->status = ILP_TIME_LIMIT;
		rc = 0;
		goto out;
	} else {
		diag_set(d, DIAG_SOLVER, NULL, 0, 0, "the MIP solver failed (GLPK code %d, status %d)", ret, st);
		r->status = ILP_NO_PLAN;
		goto out;
	}
	r->objective = glp_mip_obj_val(P);
	if (st == GLP_OPT)
		r->bound = r->objective;
	else
		r->bound = cb.have_bound ? fmax(cb.bound, r->lp_bound) : r->lp_bound;
	if (r->bound > r->objective)
		r->bound = r->objective;
	r->gap = fabs(r->objective) > 1e-9 ? (r->objective - r->bound) / fabs(r->objective) : 0;
	for (k = 0; k < p->nclasses; k++) {
		for (m = 0; m < MODE_COUNT; m++) {
			int col = cl.n[k * MODE_COUNT + (size_t)m];
			if (col)
				r->nmode[k * MODE_COUNT + (size_t)m] = lround(glp_mip_col_val(P, col));
		}
		for (ci = 0; ci < p->classes[k].nconfigs; ci++)
			r->ncfg[k][ci] = lround(glp_mip_col_val(P, cl.g[k][ci]));
	}
	for (i = 0; i < p->narcs; i++)
		r->arc[i] = glp_mip_col_val(P, cl.arc0 + (int)i);
	for (i = 0; i < p->ndemands; i++)
		r->unplaced[i] = glp_mip_col_val(P, cl.u0 + (int)i);
	rc = 0;
out:
	free(cb.warm);
	cols_free(p, &cl);
	glp_delete_prob(P);
	glp_term_hook(NULL, NULL);
	return rc;
}
