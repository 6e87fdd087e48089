/*
 * sweep_expand.h - gpuplan sweep expand's files (sweep_expand_dir.c,
 * docs/sweep.md): every case's derived scenarios, which plan what sweep
 * run plans for the case, and the table of the cases' values.
 */
#ifndef PLANNER_SWEEP_EXPAND_H
#define PLANNER_SWEEP_EXPAND_H

#include "diag.h"
#include "sweep.h"

/*
 * DIR/expand.csv (a case per row, its parameters' values) and
 * DIR/cases/CASE/ (sweep_files.h's files of each case), all or nothing:
 * the cases are written into a staging directory beside DIR/cases, which
 * replaces DIR/cases once every case is written; on a failure it is
 * removed, and DIR too when this call created it and it is empty.
 * models_dir as scenario_load takes it.  0, SWEEP_INTERRUPTED, or -1
 * with d set (a file named as DIR/cases/..., never the staging path).
 */
int sweep_expand(const struct sweep_spec *s, const char *dir, const char *models_dir, struct diag *d);

#endif
