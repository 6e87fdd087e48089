/*
 * solfile.h - a MIP solution of the model `plan --export-model` writes, as
 * another solver wrote it, for `plan --start FILE` (solfile.c).
 *
 * Two formats, told apart by their first line:
 *  - CBC 2.10's `solution FILE`: "STATUS - objective value X", then one
 *    line per column it prints, "INDEX NAME VALUE REDUCED_COST" (a
 *    leading "**" marks a value outside its bounds);
 *  - HiGHS's solution file (`--solution_file` of the highs program,
 *    Highs::writeSolution, style raw; exportSolution() of the npm
 *    package): "Model status", its status, "# Primal solution values",
 *    "Feasible" / "Infeasible" / "None", "Objective X", "# Columns N" and
 *    N lines "NAME VALUE", then rows and duals, not read.
 * The columns are kept by name; the model decides what they mean.
 */
#ifndef PLANNER_SOLFILE_H
#define PLANNER_SOLFILE_H

#include <stddef.h>

#include "diag.h"

#define SOLFILE_MAX_BYTES (256UL << 20)	/* far above a solution file of the largest benchmark */

/* One column's value, with the line it came from. */
struct solval {
	char *name;
	double value;
	long line;
};

struct solfile {
	char *path;
	const char *solver;	/* "CBC" or "HiGHS" */
	char *status;		/* the solver's words: "Optimal", "Stopped on time", "Time limit reached" */
	double objective;	/* as the solver reports it */
	struct solval *v;	/* [n], in file order */
	size_t n;
};

/*
 * Reads path into s.  0, or -1 with d set (DIAG_INPUT at FILE:LINE): an
 * unknown format, a status with no solution (infeasible, none), a
 * malformed line, a name given twice, a non-finite value.  solfile_release
 * frees s either way.
 */
int solfile_read(struct solfile *s, const char *path, struct diag *d);
void solfile_release(struct solfile *s);

#endif
