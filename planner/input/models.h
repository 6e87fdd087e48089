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

/*
 * Checks a loaded catalog as a whole (gpuplan models check), beyond the
 * loader's per-entry checks: each MIG profile's max_instances fit its
 * starts and, side by side, the GPU's memory and compute slices; its
 * memory fits the GPU's; vGPU profile names are unique across the
 * time-sliced and MIG-backed tables; a MIG-backed profile allows no more
 * than its GPU instance; a MIG GPU's compute shares come from SM counts
 * with a source, else the GPU says sms_assumed.  Errors name the GPU's
 * file and line.
 */
int models_check_catalog(const struct catalog *cat, struct diag *d);

#endif
