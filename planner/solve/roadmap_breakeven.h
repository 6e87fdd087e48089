/*
 * roadmap_breakeven.h - the roadmap's break-even rows (roadmap_breakeven.c).
 */
#ifndef PLANNER_SOLVE_ROADMAP_BREAKEVEN_H
#define PLANNER_SOLVE_ROADMAP_BREAKEVEN_H

#include "diag.h"
#include "roadmap.h"

/*
 * r->breakeven (r->sc, r->ppy set): every buy row against every rent row
 * of its GPU type, priced for one period with licences at lic_up per
 * GPU-year (< 0: the scenario's) and lic_source as their source when the
 * scenario names none.  0, or -1 with d set (pricing_build's errors).
 */
int roadmap_breakeven(struct roadmap_result *r, const double *lic_up, char *lic_source, struct diag *d);

#endif
