/*
 * ilp_result.c - the solver's result: the names of its statuses and its
 * count arrays, which every part of the solver fills or reads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "util.h"
#include "ilp_pack.h"
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
	case ILP_NODE_LIMIT:
		return "node-limit";
	}
	return "?";
}

enum ilp_status ilp_stop_status(int node_stop)
{
	return node_stop ? ILP_NODE_LIMIT : ILP_TIME_LIMIT;
}

void ilp_result_alloc(const struct problem *p, struct ilp_result *r)
{
	size_t k;
	memset(&r->model, 0, sizeof(r->model)); /* nothing staged (callers need not zero r) */
	r->model.slot = -1;
	r->pack = NULL;
	r->colgen = NULL;
	r->nmode = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*r->nmode));
	r->ncfg = xcalloc(p->nclasses + 1, sizeof(*r->ncfg));
	for (k = 0; k < p->nclasses; k++)
		r->ncfg[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**r->ncfg));
	r->arc = xcalloc(p->narcs + 1, sizeof(*r->arc));
	r->unplaced = xcalloc(p->ndemands + 1, sizeof(*r->unplaced));
}

double ilp_result_unplaced(const struct problem *p, const struct ilp_result *r)
{
	double u = 0;
	size_t d;
	for (d = 0; r->unplaced && d < p->ndemands; d++)
		u += r->unplaced[d];
	return u;
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
	outstage_discard(&r->model);
	if (r->colgen) {
		cplan_release(r->colgen);
		free(r->colgen);
		r->colgen = NULL;
	}
	if (r->pack) {
		ilp_pack_release(r->pack);
		free(r->pack);
		r->pack = NULL;
	}
}

void ilp_result_gap(struct ilp_result *r)
{
	if (r->bound > r->objective)
		r->bound = r->objective;
	r->gap = fabs(r->objective) > 1e-9 ? (r->objective - r->bound) / fabs(r->objective) : 0;
}

double ilp_gap_tol(double cost, double mip_gap)
{
	return mip_gap * fabs(cost) + 1e-9;
}

int ilp_gap_within(double obj, double bound, double cost, double mip_gap)
{
	return obj - bound <= ilp_gap_tol(cost, mip_gap);
}

int ilp_result_proven(struct ilp_result *r, double mip_gap)
{
	if (!ilp_gap_within(r->objective, r->bound, r->cost, mip_gap))
		return 0;
	r->status = ILP_OPTIMAL;
	r->cut = 0;
	return 1;
}

int ilp_take_colgen(struct ilp_result *r, const struct cplan *than, const struct cplan_cost *tc, struct cplan *into,
		    struct cplan_cost *cc)
{
	struct cplan_cost gc;

	if (!r->colgen)
		return 0;
	cplan_cost(r->colgen, &gc);
	if (!cplan_better(r->colgen, &gc, than, tc))
		return 0;
	cplan_release(into);
	*into = *r->colgen;
	*cc = gc;
	free(r->colgen);
	r->colgen = NULL;
	return 1;
}

void ilp_progress_report(const struct ilp_progress_sink *sink, const char *phase, double best, double bound)
{
	struct ilp_progress pg;

	if (!sink || !sink->fn)
		return;
	memset(&pg, 0, sizeof(pg));
	pg.phase = phase;
	pg.elapsed_s = util_now_s() - sink->t0;
	pg.limit_s = sink->limit_s;
	pg.best = best;
	pg.gap = best > 0 && bound >= 0 ? fmax(0, (best - bound) / best) : -1;
	sink->fn(&pg, sink->ctx);
}
