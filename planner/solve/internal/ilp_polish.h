/*
 * internal/ilp_polish.h - the polish: a concrete plan re-solved two
 * classes at a time (ilp_polish.c).
 */
#ifndef PLANNER_ILP_POLISH_H
#define PLANNER_ILP_POLISH_H

#include "internal/ilp_model.h"

/* The passes of a polish: */
enum {
	POLISH_SHORT = 1,	/* short searches of each pair, until a pass changes nothing */
	POLISH_DEEP = 2,	/* then (or from the start, alone) deeper searches, until a pass changes nothing */
	POLISH_BOTH = 3,
	POLISH_EJECT = 4	/* also try, once, to empty each small costly class into a pair (ilp_polish.c) */
};

/*
 * Polishes the concrete plan x (1-based columns of c->P; x_obj: what it
 * costs; lp: the root LP's column values) in place with the passes
 * `passes`, until deadline or an interrupt, on c->threads threads (the
 * plan does not depend on how many); *made is x made concrete (caller
 * frees), NULL when nothing was cheaper.  Logs a summary line
 * (glp_printf).  Returns the number of pairs of classes that made x
 * cheaper.
 */
int ilp_polish(const struct ilp_ctx *c, double *x, double x_obj, const double *lp, double deadline, unsigned passes,
	       double **made);

#endif
