/*
 * sweep_roadmap.h - a sweep case's option run as a roadmap (spec `run:
 * roadmap`, docs/sweep.md): its forecast built and changed by the case's
 * forecast parameters, the roadmap planned, and its totals as the row a
 * plan would give, so the results and the merge read them alike.
 * Private to sweep/.
 */
#ifndef PLANNER_SWEEP_ROADMAP_H
#define PLANNER_SWEEP_ROADMAP_H

#include "compare.h"
#include "plan.h"
#include "sweep.h"

/*
 * Runs the roadmap of sc (already changed by sweep_apply) for the case
 * values v, the options po, into row (file: sc's, as loaded): total
 * the horizon's cost, per_year over its years, cat the categories summed
 * over the periods, placed and unplaced in replica-periods, nodes and
 * GPUs at the peak period.  0, or -1 with d set.
 */
int sweep_roadmap_row(struct compare_row *row, const struct scenario *sc, const struct sweep_spec *s, const double *v,
		      const struct plan_opts *po, struct diag *d);

#endif
