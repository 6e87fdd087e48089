/*
 * ilp_start.h - another solver's plan of the exported model as
 * a start (ilp_start.c, plan --start).
 */
#ifndef PLANNER_ILP_START_H
#define PLANNER_ILP_START_H

#include "diag.h"
#include "solfile.h"
#include "ilp_model.h"

/*
 * s's columns onto c's model, by name: a vector of c->P's columns
 * (1-based, the columns s leaves out 0), into *x (caller frees).  The
 * model they are checked against is the one --export-model writes (c->P
 * with the node key columns and rows), so a plan of it: every name one of
 * its columns (CPLEX LP names, with '~' for '-', too), every value within
 * its column's bounds and whole where the column is integer, every row
 * within its bounds.  0, or -1 with d set (DIAG_INPUT at the file's line,
 * or at the file for a row).
 */
int ilp_start_vector(const struct ilp_ctx *c, const struct solfile *s, double **x, struct diag *d);

#endif
