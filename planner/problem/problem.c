/*
 * problem.c - building the aggregated problem from a scenario: the node
 * classes with their configurations and costs, the demands with their
 * penalties, the arcs (which demand may use which slot type, at what
 * cost), then the reductions; and releasing it.
 *
 * Parts: problem_config.c and problem_share.c (enumeration),
 * problem_match.c (matching rules), problem_reduce.c (slot equivalence
 * and pruning).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "problem_caps.h"
#include "problem_config.h"
#include "problem_match.h"
#include "problem_near.h"
#include "problem_reduce.h"
#include "util.h"
#include "banned.h"

/* ================= build ================= */

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* True for the modes whose licences a licence server leases per vGPU. */
static int seat_mode(enum gpu_mode m)
{
	return m == MODE_VGPU || m == MODE_MIG_VGPU;
}

/* Licence cost of one configured GPU (0 where it is counted per seat). */
static double config_licence(const struct problem *p, const struct pclass *c, const struct config *cf)
{
	if (cf->lic == LIC_NONE || (p->pr->counting == COUNT_VGPU_SEAT && seat_mode(cf->mode)))
		return 0;
	return p->pr->cls[c->index]->lic[cf->lic].total;
}

static int arc_cmp(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->s > y->s) - (x->s < y->s);
}

/* What the workloads ask, for the enumeration. */
struct demand_scan {
	int want_nvaie;		/* some demand needs NVAIE */
	int sizes[65];		/* the GPU counts >= 2 that replicas ask, ascending */
	size_t nsizes;
};

/* Scans the workloads: p->any_cpu, p->any_ram, and *ds. */
static void scan_workloads(struct problem *p, const struct workloads *wl, struct demand_scan *ds)
{
	size_t i, j;

	memset(ds, 0, sizeof(*ds));
	for (i = 0; i < wl->n; i++) {
		const struct workload *w = &wl->w[i];
		if (w->needs_nvaie)
			ds->want_nvaie = 1;
		if (w->cpu_cores > 0)
			p->any_cpu = 1;
		if (w->ram_gib > 0)
			p->any_ram = 1;
		if (w->gpus >= 2) {
			for (j = 0; j < ds->nsizes; j++)
				if (ds->sizes[j] == w->gpus)
					break;
			if (j == ds->nsizes && ds->nsizes < 64)
				ds->sizes[ds->nsizes++] = w->gpus;
		}
	}
	qsort(ds->sizes, ds->nsizes, sizeof(int), int_cmp);
}

/* Class k of the inventory: its costs, configurations and slot types. */
static void build_class(struct problem *p, size_t k, const struct demand_scan *ds)
{
	const struct pricing *pr = p->pr;
	struct pclass *c = &p->classes[k];
	struct problem_enum_ctx e;
	int gsz[65];
	size_t ng = 0, j;

	c->nc = &p->sc->inventory.classes[k];
	c->index = k;
	c->node_cost = pr->cls[k]->node_total;
	c->gpu_active_cost = pr->cls[k]->gpu_active_total;
	memset(&e, 0, sizeof(e));
	e.p = p;
	e.c = c;
	e.want_nvaie = ds->want_nvaie;
	for (j = 0; j < ds->nsizes; j++)
		if (ds->sizes[j] <= c->nc->gpus_per_node)
			gsz[ng++] = ds->sizes[j];
	e.group_sizes = gsz;
	e.ngroup_sizes = ng;
	if (hypervisor_is_vm_host(c->nc->hv)) {
		const struct multi_vgpu *mv = catalog_multi_vgpu(&p->sc->catalog, hypervisor_name(c->nc->hv));
		e.multi_max = mv ? mv->max_per_vm : 0;
	}
	problem_enumerate(&e);
	for (j = 0; j < c->nconfigs; j++) {
		struct config *cf = &c->configs[j];
		if (cf->node_pattern) /* passthrough: per-GPU costs ride on the arcs */
			cf->cost = cf->pattern_gpus * (c->gpu_active_cost + p->tiebreak + config_licence(p, c, cf));
		else
			cf->cost = c->gpu_active_cost + p->tiebreak + config_licence(p, c, cf);
	}
}

/* The penalty of an unplaced replica of priority 1: more than placing one can cost. */
static double penalty_unit(const struct problem *p)
{
	const struct pricing *pr = p->pr;
	double big = 1;
	size_t k;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		double lic = 0, per_gpu, full;
		int q;
		for (q = 0; q < LIC_COUNT; q++)
			lic = fmax(lic, pr->cls[k]->lic[q].total);
		per_gpu = c->gpu_active_cost + 2 * p->tiebreak + lic;
		/* a node, its GPUs, and a seat: more than placing one replica can cost */
		full = c->node_cost + p->tiebreak + c->nc->gpus_per_node * per_gpu + lic;
		if (full + 1 > big)
			big = full + 1;
	}
	return big;
}

int problem_passthrough_nvaie(const struct problem *p, int k, const struct workload *w)
{
	return w->needs_nvaie || (w->vm && hypervisor_is_vm_host(p->classes[k].nc->hv) &&
				  !p->sc->licensing.passthrough_vm_unlicensed);
}

/* The objective cost per replica of w on slot type st of class k. */
static double arc_cost(const struct problem *p, int k, const struct slot_type *st, const struct workload *w)
{
	const struct pricing *pr = p->pr;
	const struct pclass *c = &p->classes[k];

	if (st->mode == MODE_PASSTHROUGH) {
		enum lic_product lp = problem_passthrough_nvaie(p, k, w) ? LIC_NVAIE
									: pr->cls[k]->mode_product[MODE_PASSTHROUGH];
		return st->gpus * (c->gpu_active_cost + p->tiebreak + pr->cls[k]->lic[lp].total);
	} else if (pr->counting == COUNT_VGPU_SEAT && seat_mode(st->mode)) {
		/* one seat per vGPU VM in use (a multi-vGPU VM too: a licence server leases per VM) */
		return pr->cls[k]->lic[st->lic].total;
	}
	return 0;
}

/* Appends the arcs of demand i (class order, slot type order); *cap: allocated p->arcs. */
static void add_arcs(struct problem *p, size_t i, size_t *cap)
{
	const struct pdemand *dm = &p->demands[i];
	size_t k, j;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		if (!problem_class_fits(c, dm->w))
			continue;
		for (j = 0; j < c->nslot_types; j++) {
			const struct slot_type *st = &c->slot_types[j];
			struct arc *a;
			if (!problem_slot_fits(c, st, dm->w))
				continue;
			XGROW(p->arcs, *cap, p->narcs + 1);
			a = &p->arcs[p->narcs++];
			a->d = (int)i;
			a->k = (int)k;
			a->s = (int)j;
			a->cost = arc_cost(p, (int)k, st, dm->w);
		}
	}
}

/*
 * The lexicographic priority weights (docs/formulation.md, "Priority"):
 * the penalty of one unplaced replica of priority level i, in units of
 * big, is u[0] = 1 for the lowest level and u[i+1] = S[i] + N + 1, where
 * S[i] is the sum of R[j] u[j] over the levels j <= i (R: their
 * replicas) and N all replicas: leaving one replica of a higher level
 * unplaced costs more than leaving every replica of every lower level
 * unplaced, plus any cost difference between two plans (at most N x big).
 * A step is capped at PRIO_STEP_MAX times the level below and a weight
 * at PRIO_WEIGHT_MAX: larger penalties wreck GLPK's numerics (GLPK
 * then stops short of the optimum another solver finds).  Past the cap the weights
 * only approximate the rule (*exact_u: the top weight the rule needs);
 * the plans are then compared by priority first (cplan_prio_cmp); where
 * the greedy plan leaves replicas of two levels at the cap unplaced, the
 * solver's model spreads the levels at the cap below it
 * (problem_prio_spread).
 */
#define PRIO_STEP_MAX 1e4
#define PRIO_MAX 1000	/* workload.c's limit */

/* Sets each demand's weight (1, or its GPU-equivalents over the smallest's: unplaced_weight: gpus). */
static void demand_weights(struct problem *p)
{
	double least = HUGE_VAL;
	size_t i;

	for (i = 0; i < p->ndemands; i++)
		least = fmin(least, workload_gpu_equivalents(p->demands[i].w));
	for (i = 0; i < p->ndemands; i++)
		p->demands[i].weight = p->sc->unplaced_by_gpus && least > 0
					       ? workload_gpu_equivalents(p->demands[i].w) / least : 1;
}

static int prio_level(const struct workload *w)
{
	return w->priority < 1 ? 1 : w->priority > PRIO_MAX ? PRIO_MAX : w->priority;
}

/*
 * The levels of w (> 0: present) whose weight the cap reached, spread
 * below it: the c of them get PROBLEM_PRIO_WEIGHT_MAX - (c - 1 - j) x
 * step, j = 0 the lowest, step 1 (big) while that stays above the level
 * below them, less otherwise.  A weight that the rule sets below the cap
 * is not moved, and none rises.
 */
static void prio_spread(double *w)
{
	double below = 0, c = 0, step, j = 0;
	int q;

	for (q = 1; q <= PRIO_MAX; q++) {
		if (w[q] <= 0)
			continue;
		if (w[q] >= PROBLEM_PRIO_WEIGHT_MAX)
			c++;
		else
			below = w[q];
	}
	if (c < 2)
		return;
	step = fmin(1, (PROBLEM_PRIO_WEIGHT_MAX - below) / c);
	for (q = 1; q <= PRIO_MAX; q++)
		if (w[q] >= PROBLEM_PRIO_WEIGHT_MAX)
			w[q] = PROBLEM_PRIO_WEIGHT_MAX - (c - 1 - j++) * step;
}

/*
 * w[p] for every priority p in 1..PRIO_MAX that some demand has (caller
 * frees).  R[j] and N count weighted replicas (each demand's weight >= 1),
 * so a replica of level i+1, weighing at least u[i+1], still outweighs
 * every lower level.
 */
static double *priority_weights(const struct problem *p, double *exact_u)
{
	double *rep = xcalloc(PRIO_MAX + 1, sizeof(*rep));
	double *w = xcalloc(PRIO_MAX + 1, sizeof(*w)); /* > 0: some workload has this priority */
	double n = 0, s = 0, u = 0, x = 0, xs = 0;
	size_t i;
	int q;

	for (i = 0; i < p->ndemands; i++) {
		double r = (double)p->demands[i].replicas * p->demands[i].weight;
		q = prio_level(p->demands[i].w);
		rep[q] += r;
		n += r;
		w[q] = 1;
	}
	for (q = 1; q <= PRIO_MAX; q++) {
		if (w[q] <= 0)
			continue;
		u = u == 0 ? 1 : fmin(fmin(s + n + 1, u * PRIO_STEP_MAX), PROBLEM_PRIO_WEIGHT_MAX);
		x = x == 0 ? 1 : xs + n + 1;
		w[q] = u;
		s += rep[q] * u;
		xs += rep[q] * x;
	}
	*exact_u = x;
	free(rep);
	return w;
}

int problem_prio_spread(struct problem *p, const long *unplaced)
{
	double ignore, *w = priority_weights(p, &ignore), *spread = xcalloc(PRIO_MAX + 1, sizeof(*spread));
	int q, at_cap = 0;
	size_t i;

	memcpy(spread, w, (PRIO_MAX + 1) * sizeof(*spread));
	for (i = 0; i < p->ndemands; i++) {
		q = prio_level(p->demands[i].w);
		if (unplaced[i] > 0 && w[q] >= PROBLEM_PRIO_WEIGHT_MAX && spread[q] > 0) {
			spread[q] = -1;	/* counted once */
			at_cap++;
		}
	}
	if (at_cap >= 2) {
		memcpy(spread, w, (PRIO_MAX + 1) * sizeof(*spread));
		prio_spread(spread);
		for (i = 0; i < p->ndemands; i++) {
			q = prio_level(p->demands[i].w);
			p->demands[i].solve_penalty = p->demands[i].penalty * fmin(1, spread[q] / w[q]);
			p->prio_spread |= spread[q] != w[q];
		}
	}
	free(spread);
	free(w);
	return p->prio_spread;
}

/* The demands with their penalties, and their arcs sorted by (d, k, s). */
static void build_demands(struct problem *p)
{
	const struct workloads *wl = &p->sc->workloads;
	double big = penalty_unit(p), *weight;
	size_t i, arccap = 0;

	p->ndemands = wl->n;
	p->demands = xcalloc(wl->n ? wl->n : 1, sizeof(*p->demands));
	for (i = 0; i < wl->n; i++) {
		p->demands[i].w = &wl->w[i];
		p->demands[i].index = i;
		p->demands[i].replicas = wl->w[i].replicas;
	}
	demand_weights(p);
	weight = priority_weights(p, &p->prio_exact_u);
	for (i = 0; i < wl->n; i++) {
		struct pdemand *dm = &p->demands[i];
		dm->penalty = big * weight[prio_level(dm->w)] * dm->weight;
		dm->solve_penalty = dm->penalty;
		add_arcs(p, i, &arccap);
	}
	free(weight);
	if (p->narcs) {	/* no arc: p->arcs may be NULL, which qsort may not take */
		/* grown by doubling, kept as long as the plan: down to its size */
		p->arcs = xrealloc(p->arcs, p->narcs * sizeof(*p->arcs));
		qsort(p->arcs, p->narcs, sizeof(*p->arcs), arc_cmp);
	}
}

/* Says why each demand without an arc cannot be hosted. */
static void mark_unhostable(struct problem *p)
{
	const struct workloads *wl = &p->sc->workloads;
	size_t i, j;
	char *why, *near;

	char *any = xcalloc(wl->n + 1, 1);

	for (j = 0; j < p->narcs; j++)
		any[p->arcs[j].d] = 1;
	for (i = 0; i < wl->n; i++) {
		if (any[i])
			continue;
		why = scenario_unhostable(p->sc, &wl->w[i]);
		near = problem_nearest_class(p, &wl->w[i]);
		if (!why)
			why = xstrdup("no slot of any allowed mode, GPU type and site holds it");
		p->demands[i].unhostable = near ? xasprintf("%s; %s", why, near) : xstrdup(why);
		free(why);
		free(near);
	}
	free(any);
}

int problem_build(struct problem *p, const struct scenario *sc, const struct pricing *pr, struct diag *d)
{
	const struct inventory *inv = &sc->inventory;
	struct demand_scan ds;
	size_t k;

	(void)d;
	memset(p, 0, sizeof(*p));
	p->sc = sc;
	p->pr = pr;
	p->horizon_years = sc->horizon_years;
	p->tiebreak = 0.01;
	scan_workloads(p, &sc->workloads, &ds);
	p->nclasses = inv->n;
	p->classes = xcalloc(inv->n ? inv->n : 1, sizeof(*p->classes));
	for (k = 0; k < inv->n; k++)
		build_class(p, k, &ds);
	build_demands(p);
	problem_merge_equivalent(p);
	/* Prune slots, configurations and modes nobody can use. */
	problem_prune(p);
	mark_unhostable(p);
	problem_caps_build(p);
	return 0;
}

void problem_release(struct problem *p)
{
	size_t i, j;
	for (i = 0; i < p->nclasses; i++) {
		struct pclass *c = &p->classes[i];
		for (j = 0; j < c->nconfigs; j++)
			problem_config_free(&c->configs[j]);
		free(c->configs);
		for (j = 0; j < c->nslot_types; j++)
			free(c->slot_types[j].name);
		free(c->slot_types);
	}
	free(p->classes);
	for (i = 0; i < p->ndemands; i++)
		free(p->demands[i].unhostable);
	free(p->demands);
	free(p->arcs);
	free(p->class_site);
	memset(p, 0, sizeof(*p));
}

void problem_arcs_of(const struct problem *p, int d, size_t *lo, size_t *hi)
{
	size_t a = 0, b = p->narcs;

	while (a < b) {
		size_t mid = a + (b - a) / 2;
		if (p->arcs[mid].d < d)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	while (a < p->narcs && p->arcs[a].d == d)
		a++;
	*hi = a;
}
