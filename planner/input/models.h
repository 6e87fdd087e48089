/*
 * models.h - readers of the model tables (models/gpus.yaml,
 * licenses.yaml, clouds.yaml and user files in the same formats) into
 * the model layer's structures.  Each fails with a FILE:LINE:COL
 * diagnostic on the first schema error and leaves what it had appended
 * to be freed by the structure's release function.
 */
#ifndef PLANNER_MODELS_H
#define PLANNER_MODELS_H

#include "catalog.h"
#include "cloud.h"
#include "diag.h"
#include "license.h"

/*
 * Appends the types of one gpus.yaml-format file.  user marks types from
 * a scenario's own file.  Fails on any schema error, a duplicate id or
 * alias (across files too), an inconsistent MIG table (a start outside
 * the slices, a gi_profile that does not exist, ...).
 */
int catalog_load(struct catalog *cat, const char *path, int user, struct diag *d);
/* Reads the licence model; bundles point into cat. */
int licenses_load(struct licenses *L, const char *path, const struct catalog *cat, struct diag *d);
/* Reads one offers file and appends its offers; ids must stay unique. */
int clouds_load(struct clouds *c, const char *path, const struct catalog *cat, struct diag *d);

#endif
