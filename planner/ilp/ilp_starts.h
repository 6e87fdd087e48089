/*
 * ilp_starts.h - the polish's starts: which plans the polish starts
 * from, in what order, and their polishes (ilp_starts.c); private to
 * ilp/.
 */
#ifndef PLANNER_ILP_STARTS_H
#define PLANNER_ILP_STARTS_H

#include "ilp_model.h"
#include "ilp_round.h"
#include "ilp_search.h"

/*
 * A start whose deal lost replicas is polished first only when its plan
 * in counts costs less on the model than the start the polish would
 * take costs made concrete, by more than this share of it (ilp_starts.c).
 */
#define LOSSY_MARGIN 0.01

/*
 * The plan *x (made concrete: fobj, funplaced unplaced; its plan in
 * counts: model on the model, unplaced unplaced) into l, *x then NULL,
 * when its deal lost replicas (funplaced more than unplaced) and l holds
 * no plan cheaper or as cheap on the model (l's plan freed then).
 * Nothing when *x is NULL.
 */
void ilp_lossy_offer(struct lossy_start *l, double **x, double fobj, double funplaced, double model, double unplaced);

/*
 * Whether the lossy start l is polished before the start the polish
 * would take (made concrete costing start_obj, leaving start_unplaced
 * replicas unplaced): that start places every replica, l holds a plan,
 * dearer made concrete than that start (else it is that start) and
 * cheaper on the model by more than LOSSY_MARGIN of start_obj.
 */
int ilp_lossy_first(const struct lossy_start *l, double start_obj, double start_unplaced);

/* Whether the polish still has time (ilp_search_by, no interrupt). */
int ilp_starts_time(const struct ilp_ctx *c);

/*
 * The plan y (costing *y_obj made concrete; lp: the root LP's column
 * values) polished in place with the passes `passes` (ilp_polish.h),
 * giving up at give_up as polish_opts says (0: never); *y_obj becomes
 * what the polished plan costs made concrete, and that plan replaces
 * pl->rounded when cheaper.  Returns polish_stats.gave_up.
 */
int ilp_starts_polish(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, double *y, double *y_obj,
		      unsigned passes, double give_up);

/*
 * The first polish: of pl->rounded, or first of the lossy start (the
 * cheaper on the model of pl->lossy and more->lossy, both freed) when
 * ilp_lossy_first, which stands when it ends cheaper made concrete
 * (pl->rounded then goes first into more).  Returns what the first
 * polish's plan costs made concrete (HUGE_VAL: none ran).
 */
double ilp_starts_first(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more);

/*
 * Phase 2c, in the time the first polish left (`deep`: what its plan
 * costs), when pl->rounded places every replica: more's starts polished
 * too (ilp_starts.c).  Frees more's plans.
 */
void ilp_starts_more(const struct ilp_ctx *c, struct ilp_plans *pl, const double *lp, struct round_starts *more,
		     double deep);

#endif
