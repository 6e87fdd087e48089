/*
 * ilp_vec.c - plans as column vectors of the whole model (1-based, every
 * column): a plan in counts or a concrete plan (the warm one) as a
 * vector, a vector back to counts, its cost and unplaced replicas, and a
 * vector made concrete (ilp_repair_vector), which is how plans are
 * compared: counts that look cheaper on the model can deal worse over
 * real nodes, and the concrete plan is what is reported.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_key.h"
#include "ilp_pack.h"
#include "ilp_glpk.h"
#include "ilp_vec.h"
#include "banned.h"

void ilp_counts_vector(const struct problem *p, const struct cols *cl, const struct ilp_result *r, double *x)
{
	const long *nmode = r->nmode;
	long *const *ncfg = r->ncfg;
	const double *arc = r->arc, *un = r->unplaced;
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
			else /* vgpu patterns: their VMs' GPUs (passthrough's ride on the arcs) */
				gpus += (double)(c->configs[ci].pattern_gpus * ncfg[k][ci]);
		}
		x[cl->agg[2 * k]] = nodes;
		x[cl->agg[2 * k + 1]] = gpus;
		ilp_key_fill(p, cl, k, x);
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

double *ilp_warm_vector(const struct problem *p, const struct cols *cl, const struct cplan *warm)
{
	struct ilp_result c;
	double *x = xcalloc((size_t)cl->ncols + 1, sizeof(*x));

	ilp_result_alloc(p, &c);
	cplan_counts(warm, c.nmode, c.ncfg, c.arc, c.unplaced);
	ilp_counts_vector(p, cl, &c, x);
	ilp_result_release(p, &c);
	return x;
}

double ilp_unplaced_sum(const struct problem *p, const struct cols *cl, const double *x)
{
	double u = 0;
	size_t i;
	for (i = 0; i < p->ndemands; i++)
		u += x[cl->u[i]];
	return u > 0 ? u : 0; /* not -0 in the log */
}

double ilp_class_nodes(const struct cols *cl, size_t k, const double *x)
{
	double used = 0;
	int m;

	for (m = 0; m < MODE_COUNT; m++)
		if (cl->n[k * MODE_COUNT + (size_t)m])
			used += x[cl->n[k * MODE_COUNT + (size_t)m]];
	return used;
}

double ilp_vec_obj(glp_prob *P, const double *x)
{
	double z = glp_get_obj_coef(P, 0);
	int j, n = glp_get_num_cols(P);
	for (j = 1; j <= n; j++)
		z += glp_get_obj_coef(P, j) * x[j];
	return z;
}

double ilp_vec_cost(const struct ilp_ctx *c, const double *x)
{
	double z = ilp_vec_obj(c->P, x);
	size_t i;

	for (i = 0; i < c->p->ndemands; i++)
		z -= c->p->demands[i].solve_penalty * x[c->cl.u[i]];
	return z;
}

double ilp_vec_doc_obj(const struct ilp_ctx *c, const double *x)
{
	double z = ilp_vec_obj(c->P, x);
	size_t i;

	for (i = 0; c->p->prio_spread && i < c->p->ndemands; i++)
		z += (c->p->demands[i].penalty - c->p->demands[i].solve_penalty) * x[c->cl.u[i]];
	return z;
}

void ilp_take_plan(const struct problem *p, const struct cols *cl, const double *x, struct ilp_result *r)
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
 * cp, dealt from x, completed (ilp_deal_complete) when a greedy pass's
 * time (ilp_ctx.deal_s) is left before the deadline: the completion
 * places only what is unplaced, then checks the plan, less work than a
 * pass over every replica.  (A deal's whole tail, five passes, was too
 * much to ask: on a starved run the rounding that was the only plan
 * ended with less left, and the run returned the greedy plan.)  The line
 * in the log says what the deal left and what the completion made.
 */
static void repair_complete(const struct ilp_ctx *c, const double *x, struct cplan *cp)
{
	struct cplan_cost was, now;
	double t = util_now_s(), un = ilp_unplaced_sum(c->p, &c->cl, x);

	if (!((double)cplan_unplaced_count(cp) > un + 0.5) || !ilp_ms_left(c->deadline - c->deal_s))
		return;
	cplan_cost(cp, &was);
	if (!ilp_deal_complete(c->pack, cp, un))
		return;
	cplan_cost(cp, &now);
	glp_printf("gpuplan-ilp: a deal completed by the greedy engine: made concrete %.2f unplaced %ld, completed %.2f "
		   "unplaced %ld (%.2f s)\n", was.objective, was.unplaced, now.objective, now.unplaced, util_now_s() - t);
}

/*
 * The plan x (1-based column values) made concrete: its counts dealt
 * over real nodes (per-node CPU and RAM), the replicas that found no
 * slot placed as the greedy planner would (a free slot, a new GPU, a new
 * node), a small class left short packed exactly (ilp_deal), what the
 * deal lost then placed by the greedy engine on top of it
 * (repair_complete), and read back as a column vector.  Where the fleet
 * has room this turns a rounded plan's unplaced replicas into a little
 * more cost.
 */
double *ilp_repair_vector(const struct ilp_ctx *c, const double *x)
{
	const struct problem *p = c->p;
	const struct cols *cl = &c->cl;
	struct ilp_result counts;
	struct cplan cp;
	double *out;

	memset(&counts, 0, sizeof(counts));
	ilp_result_alloc(p, &counts);
	ilp_take_plan(p, cl, x, &counts);
	cplan_init(&cp, p);
	ilp_deal(c->pack, &cp, counts.nmode, counts.ncfg, counts.arc);
	repair_complete(c, x, &cp);
	out = ilp_warm_vector(p, cl, &cp);
	if (c->pack) {	/* so that the plan written, if it is this one, is dealt from counts (ilp_concrete) */
		struct ilp_result made;
		ilp_result_alloc(p, &made);
		ilp_take_plan(p, cl, out, &made);
		ilp_pack_remember(c->pack, ilp_counts_hash(p, &made), ilp_vec_obj(c->P, out), &counts);
		ilp_result_release(p, &made);
	}
	cplan_release(&cp);
	ilp_result_release(p, &counts);
	return out;
}

double ilp_deal_tail(const struct ilp_ctx *c)
{
	double t = DEAL_GREEDIES * c->deal_s;

	return c->pack ? fmax(t, ilp_pack_tail(c->pack)) : t;
}

/*
 * A rounded plan made concrete (fixed, objective fobj) replaces *best
 * when cheaper; fixed is consumed.  Rounded plans are compared made
 * concrete, as the plan reported will be: counts that look cheaper on the
 * model can deal worse over real nodes.
 */
void ilp_keep_cheapest(double **best, double *best_obj, double *fixed, double fobj)
{
	if (!*best || fobj < *best_obj - 1e-6) {
		free(*best);
		*best = fixed;
		*best_obj = fobj;
	} else {
		free(fixed);
	}
}

double *ilp_vec_unplaced(const struct ilp_ctx *c, const double *x)
{
	double *un = xcalloc(c->p->ndemands + 1, sizeof(*un));
	size_t i;

	for (i = 0; i < c->p->ndemands; i++)
		un[i] = floor(x[c->cl.u[i]] + 0.5);
	return un;
}

char *ilp_vec_prio_unplaced(const struct ilp_ctx *c, const double *x)
{
	double *un = ilp_vec_unplaced(c, x);
	char *by = cplan_prio_unplaced(c->p, un);

	free(un);
	return by;
}

int ilp_vec_better(const struct ilp_ctx *c, const double *a, double a_obj, const double *b, double b_obj)
{
	double *ua = ilp_vec_unplaced(c, a), *ub = ilp_vec_unplaced(c, b);
	int r = cplan_prio_cmp_unplaced(c->p, ua, ub);

	free(ua);
	free(ub);
	return r ? r < 0 : a_obj < b_obj - 1e-6 * fmax(1, fabs(b_obj));
}

int ilp_same_cost(const double *got, size_t n, double obj)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (fabs(got[i] - obj) <= 1e-6 * fmax(1, fabs(obj)))
			return 1;
	return 0;
}
