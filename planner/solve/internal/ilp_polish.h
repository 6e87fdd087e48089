/*
 * internal/ilp_polish.h - the polish: a concrete plan re-solved two
 * classes at a time (ilp_polish.c).
 */
#ifndef PLANNER_ILP_POLISH_H
#define PLANNER_ILP_POLISH_H

#include "internal/ilp_model.h"

/*
 * Polishes the concrete plan x (1-based columns of c->P; x_obj: what it
 * costs; lp: the root LP's column values) in place, until deadline or
 * an interrupt, on c->threads threads (the plan does not depend on how
 * many); *made is x made concrete (caller frees), NULL when nothing was
 * cheaper.  Logs a summary line (glp_printf).  Returns the number of
 * pairs of classes that made x cheaper.
 */
int ilp_polish(const struct ilp_ctx *c, double *x, double x_obj, const double *lp, double deadline, double **made);

#endif
