/*
 * ilp_dive.h - a dive on the whole model's LP (ilp_dive.c): one more
 * start for the polish, found the way CBC's coefficient dive finds its
 * first plans; private to ilp/.
 */
#ifndef PLANNER_ILP_DIVE_H
#define PLANNER_ILP_DIVE_H

#include <stddef.h>

#include "ilp_model.h"

/*
 * Whether the fractional integer column a (LP value va, up-locks la: the
 * rows that rounding it up could break) is rounded before b: fewer locks
 * first, then the nearer its next integer up.
 */
int ilp_dive_before(double va, int la, double vb, int lb);

/* How many of nfrac fractional columns one LP solve of the dive rounds: a sixteenth, at least one. */
size_t ilp_dive_batch(size_t nfrac);

/*
 * Dives from c's LP (c->P at its optimum), on a copy with the node key
 * sets' CPU and RAM rows: rounds the fractional node and configuration
 * counts up, a batch at a time (ilp_dive_batch, in ilp_dive_before's
 * order), and re-solves the LP by the dual simplex after each batch.  A
 * batch whose LP has no solution is taken back and its first column
 * alone tried up, then down; a column neither way can take stays for
 * the end.  When no count is fractional but those, the plan is
 * completed as a stopped rounding is (ilp_complete_counts: the class
 * totals follow).  Returns that plan (1-based, every column; caller
 * frees) with its cost in *obj, or NULL when an LP failed or stop_by
 * passed.
 */
double *ilp_dive(const struct ilp_ctx *c, double stop_by, double *obj);

#endif
