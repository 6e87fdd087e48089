/*
 * ilp_model.c - the aggregated model in GLPK: its columns (nodes per
 * class and mode, GPUs per configuration, replicas per arc, unplaced
 * replicas per demand, and the aggregates NODES_k and GPUS_k) and its
 * rows (per class: nodes, GPUs, slots, CPU, RAM, lone replicas; per
 * demand: its replicas), and the model written to a file.  The class
 * columns and rows are built one class at a time, so that the class
 * MIPs (ilp_sub.c) build their small models with the same code.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "ilp_glpk.h"
#include "ilp_key.h"
#include "ilp_model.h"
#include "util.h"
#include "banned.h"

/* The node columns (one per mode) and configuration columns of class k. */
void ilp_class_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
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
		cl->n[k * MODE_COUNT + (size_t)m] = ilp_add_col(P, name, 1, 0, cnt, c->node_cost + p->tiebreak);
	}
	for (ci = 0; ci < c->nconfigs; ci++) {
		const struct config *cf = &c->configs[ci];
		double hi_ = cf->node_pattern ? cnt : cnt * c->nc->gpus_per_node;
		snprintf(name, sizeof(name), "G_%zu_%zu", k, ci);
		cl->g[k][ci] = ilp_add_col(P, name, 1, 0, hi_, cf->cost);
	}
	ilp_key_cols(P, p, cl, k);
}

void ilp_arc_col(glp_prob *P, const struct problem *p, struct cols *cl, size_t i)
{
	const struct arc *ar = &p->arcs[i];
	char name[96];
	snprintf(name, sizeof(name), "A_%d_%d_%d", ar->d, ar->k, ar->s);
	cl->arc[i] = ilp_add_col(P, name, 0, 0, (double)p->demands[ar->d].replicas, ar->cost);
}

/*
 * Aggregates of class k: nodes in use and GPUs in use.  Integer by
 * definition; as columns of their own they give the branch-and-bound
 * the branching that closes bin-packing gaps fast ("how many GPUs of
 * this class are on"), instead of one configuration at a time.
 */
void ilp_agg_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
{
	const struct pclass *c = &p->classes[k];
	double cnt = (double)c->nc->count;
	char name[96];
	snprintf(name, sizeof(name), "NODES_%zu", k);
	cl->agg[2 * k] = ilp_add_col(P, name, 1, 0, cnt, 0);
	snprintf(name, sizeof(name), "GPUS_%zu", k);
	cl->agg[2 * k + 1] = ilp_add_col(P, name, 1, 0, cnt * c->nc->gpus_per_node, 0);
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
static void alone_row(const struct ilp_rows *rw, size_t k, enum gpu_mode m)
{
	glp_prob *P = rw->P;
	const struct problem *p = rw->p;
	const struct arcidx *ix = rw->ix;
	const struct cols *cl = rw->cl;
	struct rowbuf *rb = rw->rb;
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
				ilp_rb_add(rb, cl->arc[i], gpn - used);
				any = 1;
			}
		}
	}
	if (!any) {
		ilp_rb_clear(rb);
		return;
	}
	if (m == MODE_PASSTHROUGH) {
		for (a = lo; a < hi; a++) {
			i = ix->byk[a];
			if (c->slot_types[p->arcs[i].s].mode == m)
				ilp_rb_add(rb, cl->arc[i], c->slot_types[p->arcs[i].s].gpus);
		}
	} else {
		for (ci = 0; ci < c->nconfigs; ci++)
			if (c->configs[ci].mode == m)	/* a vgpu pattern takes its node */
				ilp_rb_add(rb, cl->g[k][ci], c->configs[ci].node_pattern ? gpn : 1);
	}
	ilp_rb_add(rb, ncol, -gpn);
	snprintf(name, sizeof(name), "alone_%zu_%s", k, mode_name(m));
	ilp_add_row(P, rb, name, GLP_UP, 0, 0);
}

/*
 * The CPU and RAM rows of class k, per mode, with sh (when not NULL)
 * taken off each node, and its lone-replica rows (alone_row).
 */
static void res_rows(const struct ilp_rows *rw, size_t k, const struct shrink *sh)
{
	glp_prob *P = rw->P;
	const struct problem *p = rw->p;
	const struct arcidx *ix = rw->ix;
	const struct cols *cl = rw->cl;
	struct rowbuf *rb = rw->rb;
	const struct pclass *c = &p->classes[k];
	char name[96];
	size_t i, a, lo = ix->kstart[k], hi = ix->kstart[k + 1];
	int m, pass;

	/*
	 * CPU and RAM per (class, mode): a node in one mode holds only
	 * that mode's slots, so this is still a relaxation of the
	 * per-node limits, and a much tighter one than per class.
	 */
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
					ilp_rb_add(rb, cl->arc[i], need);
					used = 1;
				}
			}
			if (!used) {
				ilp_rb_clear(rb);
				continue;
			}
			ilp_rb_add(rb, cl->n[k * MODE_COUNT + (size_t)m],
				   -(cap - (sh ? (pass ? sh->ram : sh->cpu)[k * MODE_COUNT + (size_t)m] : 0)));
			snprintf(name, sizeof(name), "%s_%zu_%d", pass ? "ram" : "cpu", k, m);
			ilp_add_row(P, rb, name, GLP_UP, 0, 0);
			(pass ? cl->ram_row : cl->cpu_row)[k * MODE_COUNT + (size_t)m] = glp_get_num_rows(P);
		}
	}
	for (m = 0; m < MODE_COUNT; m++)
		alone_row(rw, k, (enum gpu_mode)m);
}

/*
 * The rows of class k: nodes, GPUs per mode, slots, CPU and RAM (less
 * what sh takes off each node, when not NULL: res_rows).  Columns absent
 * from cl (0) are left out.
 */
void ilp_class_rows(const struct ilp_rows *rw, size_t k, const struct shrink *sh)
{
	glp_prob *P = rw->P;
	const struct problem *p = rw->p;
	const struct arcidx *ix = rw->ix;
	const struct cols *cl = rw->cl;
	struct rowbuf *rb = rw->rb;
	const struct pclass *c = &p->classes[k];
	char name[96];
	size_t i, ci, s, a, lo = ix->kstart[k], hi = ix->kstart[k + 1];
	int m, any = 0;

	if (!c->modes)
		return;
	for (m = 0; m < MODE_COUNT; m++) {
		int col = cl->n[k * MODE_COUNT + (size_t)m];
		if (col) {
			ilp_rb_add(rb, col, 1);
			any = 1;
		}
	}
	snprintf(name, sizeof(name), "avail_%zu", k);
	if (any) {
		ilp_add_row(P, rb, name, GLP_UP, 0, (double)c->nc->count);
		cl->avail_row[k] = glp_get_num_rows(P);
	}
	for (m = 0; m < MODE_COUNT; m++)
		ilp_rb_add(rb, cl->n[k * MODE_COUNT + (size_t)m], 1);
	ilp_rb_add(rb, cl->agg[2 * k], -1);
	snprintf(name, sizeof(name), "nodes_%zu", k);
	ilp_add_row(P, rb, name, GLP_FX, 0, 0);
	for (ci = 0; ci < c->nconfigs; ci++)
		if (!c->configs[ci].node_pattern || c->configs[ci].pattern_gpus)
			ilp_rb_add(rb, cl->g[k][ci],
				   c->configs[ci].node_pattern ? c->configs[ci].pattern_gpus : 1);
	for (a = lo; a < hi; a++) {
		i = ix->byk[a];
		if (c->slot_types[p->arcs[i].s].mode == MODE_PASSTHROUGH)
			ilp_rb_add(rb, cl->arc[i], c->slot_types[p->arcs[i].s].gpus);
	}
	ilp_rb_add(rb, cl->agg[2 * k + 1], -1);
	snprintf(name, sizeof(name), "gpus_on_%zu", k);
	ilp_add_row(P, rb, name, GLP_FX, 0, 0);
	for (m = 0; m < MODE_COUNT; m++) {
		int col = cl->n[k * MODE_COUNT + (size_t)m];
		if (!col)
			continue;
		for (ci = 0; ci < c->nconfigs; ci++)	/* a vgpu pattern takes its node's GPUs */
			if (c->configs[ci].mode == (enum gpu_mode)m)
				ilp_rb_add(rb, cl->g[k][ci],
					   m != MODE_PASSTHROUGH && c->configs[ci].node_pattern
						   ? (double)c->nc->gpus_per_node : 1);
		if (m == MODE_PASSTHROUGH) {
			ilp_rb_add(rb, col, -1);
			snprintf(name, sizeof(name), "pat_%zu", k);
			ilp_add_row(P, rb, name, GLP_FX, 0, 0);
		} else {
			ilp_rb_add(rb, col, -(double)c->nc->gpus_per_node);
			snprintf(name, sizeof(name), "gpus_%zu_%s", k, mode_name((enum gpu_mode)m));
			ilp_add_row(P, rb, name, GLP_UP, 0, 0);
		}
	}
	for (a = lo; a < hi;) {
		s = (size_t)p->arcs[ix->byk[a]].s;
		for (; a < hi && p->arcs[ix->byk[a]].s == (int)s; a++)
			ilp_rb_add(rb, cl->arc[ix->byk[a]], 1);
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			size_t j;
			for (j = 0; j < cf->nslots; j++)
				if (cf->slot[j] == (int)s)
					ilp_rb_add(rb, cl->g[k][ci], -(double)cf->count[j]);
		}
		snprintf(name, sizeof(name), "cap_%zu_%zu", k, s);
		ilp_add_row(P, rb, name, GLP_UP, 0, 0);
	}
	ilp_key_rows(rw, k);
	if (p->any_cpu || p->any_ram)
		res_rows(rw, k, sh);
}

void ilp_build(glp_prob *P, const struct problem *p, const struct arcidx *ix, struct cols *cl)
{
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	struct ilp_rows w = { P, p, ix, cl, &rb };
	char name[96];
	size_t k, i, a;

	glp_set_prob_name(P, "gpuplan");
	glp_set_obj_dir(P, GLP_MIN);
	ilp_cols_alloc(p, cl);
	for (k = 0; k < p->nclasses; k++)
		ilp_class_cols(P, p, cl, k);
	for (i = 0; i < p->narcs; i++)
		ilp_arc_col(P, p, cl, i);
	for (i = 0; i < p->ndemands; i++) {
		snprintf(name, sizeof(name), "U_%zu", i);
		cl->u[i] = ilp_add_col(P, name, 0, 0, (double)p->demands[i].replicas, p->demands[i].solve_penalty);
	}
	for (k = 0; k < p->nclasses; k++)
		ilp_agg_cols(P, p, cl, k);
	cl->ncols = glp_get_num_cols(P);
	rb.pos = xcalloc((size_t)cl->ncols + 1, sizeof(*rb.pos));
	for (k = 0; k < p->nclasses; k++)
		ilp_class_rows(&w, k, NULL);
	for (i = 0, a = 0; i < p->ndemands; i++) {
		for (; a < p->narcs && p->arcs[a].d == (int)i; a++)
			ilp_rb_add(&rb, cl->arc[a], 1);
		ilp_rb_add(&rb, cl->u[i], 1);
		snprintf(name, sizeof(name), "dem_%zu", i);
		ilp_add_row(P, &rb, name, GLP_FX, (double)p->demands[i].replicas, (double)p->demands[i].replicas);
	}
	ilp_cap_rows(&w);
	ilp_rb_free(&rb);
}

void ilp_key_res_all(glp_prob *Q, const struct problem *p, const struct arcidx *ix, const struct cols *cl)
{
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	struct ilp_rows w = { Q, p, ix, cl, &rb };
	size_t k;

	rb.pos = xcalloc((size_t)cl->ncols + 1, sizeof(*rb.pos));
	for (k = 0; k < p->nclasses; k++)
		ilp_key_res_rows(&w, k);
	ilp_rb_free(&rb);
}

glp_prob *ilp_export_copy(const struct ilp_ctx *c)
{
	glp_prob *Q = glp_create_prob();

	glp_copy_prob(Q, c->P, GLP_ON);
	ilp_key_res_all(Q, c->p, &c->ix, &c->cl);
	return Q;
}

/*
 * GLPK returns 0 even when its buffered writes fail (a file size limit,
 * a full disk: the error comes at its fclose, which it does not check),
 * leaving a model cut short.  So the lines GLPK says it wrote ("N lines
 * were written", "N records were written": its last terminal line) are
 * counted in the file; any difference discards it.
 */
static int model_landed(const char *tmp, const char *path, struct outstage *st, struct diag *d)
{
	long want, got = 0;
	FILE *f;
	int ch, err;

	if (sscanf(ilp_glpk_last_note(), "%ld lines were written", &want) != 1 &&
	    sscanf(ilp_glpk_last_note(), "%ld records were written", &want) != 1)
		want = -1;
	f = fopen(tmp, "rb");
	if (f) {
		while ((ch = getc(f)) != EOF)
			got += ch == '\n';
		err = ferror(f);
		if (fclose(f))
			err = 1;
	}
	if (!f || err || got != want) {
		outstage_discard(st);
		if (want < 0 || !f || err)
			return diag_set(d, DIAG_IO, path, 0, 0, "cannot write the model: GLPK did not say what it wrote");
		return diag_set(d, DIAG_IO, path, 0, 0,
				"cannot write the model: %ld of its %ld lines landed (disk full or file size limit)", got,
				want);
	}
	return 0;
}

/*
 * The documented penalties on Q's unplaced columns: where the solver's
 * model spreads the capped priority levels (problem_prio_spread), the
 * model exported is still the documented one, which another solver
 * (bench/paired.sh) solves and whose objective its plan is given in.
 */
static void export_penalties(const struct ilp_ctx *c, glp_prob *Q)
{
	size_t i;

	if (!c->p->prio_spread)
		return;
	for (i = 0; i < c->p->ndemands; i++)
		glp_set_obj_coef(Q, c->cl.u[i], c->p->demands[i].penalty);
}

int ilp_write_model(const struct ilp_ctx *c, const char *path, struct outstage *st, struct diag *d)
{
	size_t len = strlen(path);
	int mps = len > 4 && !str_casecmp(path + len - 4, ".mps"), rc;
	const char *tmp;
	glp_prob *Q;

	if (!mps && !(len > 3 && !str_casecmp(path + len - 3, ".lp")))
		return diag_set(d, DIAG_USAGE, NULL, 0, 0, "--export-model: '%s' must end in .mps or .lp", path);
	tmp = outstage_open(st, path, d);
	if (!tmp)
		return -1;
	Q = ilp_export_copy(c);
	export_penalties(c, Q);
	rc = mps ? glp_write_mps(Q, GLP_MPS_FILE, NULL, tmp) : glp_write_lp(Q, NULL, tmp);
	glp_delete_prob(Q);
	if (rc) {
		outstage_discard(st);
		return diag_set(d, DIAG_IO, path, 0, 0, "cannot write the model: GLPK could not write it");
	}
	return model_landed(tmp, path, st, d);
}

void ilp_ctx_open(struct ilp_ctx *c, const struct problem *p, const struct ilp_opts *o)
{
	memset(c, 0, sizeof(*c));
	c->t0 = util_now_s();
	c->cpu0 = util_thread_cpu_s();
	c->limit_s = o->node_limit > 0 ? HUGE_VAL : o->time_limit_s;
	c->deadline = c->t0 + c->limit_s;
	c->threads = 1;
	c->p = p;
	c->verbose = o->verbose;
	ilp_glpk_thread_hook(o->verbose);
	c->P = ilp_glpk_shared_prob();
	ilp_arcidx_build(&c->ix, p);
}

void ilp_ctx_close(struct ilp_ctx *c)
{
	ilp_arcidx_release(&c->ix);
	ilp_cols_free(c->p, &c->cl);
	glp_delete_prob(c->P);
	glp_term_hook(NULL, NULL);
}
