/*
 * ilp_search.h - the branch-and-cut on the whole model
 * (ilp_search.c), and struct ilp_plans, the plans one ilp_solve carries
 * from phase to phase.
 */
#ifndef PLANNER_ILP_SEARCH_H
#define PLANNER_ILP_SEARCH_H

#include "diag.h"
#include "ilp.h"
#include "ilp_model.h"
#include "ilp_round.h"

/* The plans of one ilp_solve (1-based columns of the whole model), and what the phases leave the next. */
struct ilp_plans {
	double *warm, warm_obj;		/* the warm plan and its cost; NULL: none */
	double *rounded, round_obj;	/* the cheapest rounded (and polished) plan made concrete; NULL: none */
	double *start, start_obj;	/* ilp_opts.start made concrete and its cost; NULL: none, or handed on */
	const double *best;		/* warm or rounded, the cheaper start; NULL: none */
	double best_obj;		/* its cost */
	char *in_set;			/* [arc]: free in the model (sifting's working set) */
	int restricted;			/* sifting left arcs out: the search sees the working set only */
	double *x;			/* [ncols + 1]: the plan returned */
	double *lp;			/* [ncols + 1]: the root LP's column values, for the polishes; NULL: none */
	double wave_s;			/* the polishes' longest wave of short pair MIPs (polish_stats.wave_s), seconds */
	double *untripled;		/* rounded as the pairs left it, when triples then made it cheaper: the search's start; or NULL */
	struct lossy_start lossy;	/* the start (ilp_opts.start) when its deal lost replicas; x NULL: none */
};

/*
 * When the polish and the search for plans stop (util_now_s() time): c's
 * deadline less two deals' tails (ilp_deal_tail), room to make the plan
 * concrete here and once more after the solve (ilp_concrete).
 */
double ilp_search_by(const struct ilp_ctx *c);

/*
 * Branch-and-cut (glp_intopt, on the root basis of c->P) from the starts
 * in pl, stopped by the relative gap, ilp_search_by (or, once it holds a
 * plan cheaper made concrete than the rounded one, a polish's tail
 * before it: search_tail_by in ilp_search.c), o->node_limit or an
 * interrupt.  Its plan made concrete, or the rounded
 * plan where cheaper, goes to pl->x, with r's status, objective and
 * bound (and r->nodes); when it found no plan of its own the best
 * rounded start stands.  Returns 1 with a plan in pl->x, 0 with none
 * (ILP_TIME_LIMIT, or ILP_NODE_LIMIT when the node limit stopped it:
 * ilp_stop_status), -1 when GLPK failed (d filled, ILP_NO_PLAN).
 */
int ilp_search(const struct ilp_ctx *c, const struct ilp_opts *o, const struct ilp_plans *pl, struct ilp_result *r,
	       struct diag *d);

#endif
