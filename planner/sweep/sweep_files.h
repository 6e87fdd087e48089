/*
 * sweep_files.h - the files a sweep writes for other programs: the
 * derived scenarios of its cases (sweep_expand.c) and a Kubernetes
 * Indexed Job with its inputs as a ConfigMap (sweep_k8s.c), YAML through
 * libyaml's emitter (dyaml.h, docs/sweep.md).  Private to sweep/: the
 * commands reach them through sweep_expand.h and sweep_submit.h.
 */
#ifndef PLANNER_SWEEP_FILES_H
#define PLANNER_SWEEP_FILES_H

#include <stddef.h>

#include "diag.h"
#include "outfile.h"
#include "sweep.h"
#include "sweep_submit.h"

/*
 * The manifest of a sweep as an Indexed Job: a ConfigMap holding the spec,
 * its scenarios and every file they read (flat keys; the spec and the
 * scenarios rewritten to name them; the models too when they are not
 * gpuplan's own, models_dir_or_default), then the Job, whose pod i runs
 * `gpuplan sweep run /sweep/spec/SPEC -o /sweep/out --shards K` with
 * JOB_COMPLETION_INDEX = i.  models_dir as scenario_load takes it.
 * 0 and *text (caller frees), or -1 with d set (DIAG_INPUT: a scenario
 * that does not load, inputs over SWEEP_K8S_MAX_INPUT).
 */
int sweep_k8s_manifest(const struct sweep_spec *s, const struct sweep_k8s *k, const char *models_dir, char **text,
		       size_t *len, struct diag *d);

/*
 * The files of case i added to os, whose directory is case_dir (an
 * absolute path; it need not exist yet): per option its scenario with the
 * case's values, NAME.yaml (NAME the option's file name without .yaml,
 * made unique), naming the base scenario's files by paths relative to
 * case_dir, and, where the case changes them, NAME.workloads.csv
 * (replicas), NAME.inventory.csv (capex, cloud prices) and the case's
 * models directory, gpus.yaml, licenses.yaml and clouds.yaml in case_dir
 * (licence prices).  Planning NAME.yaml gives what sweep run plans for
 * the case.  0, or -1 with d set.
 */
int sweep_expand_case(struct outset *os, const struct sweep_spec *s, size_t i, const char *case_dir,
		      const char *models_dir, struct diag *d);

/*
 * Creates dir when missing (an existing one is fine: shards start at once); 0, or -1 with d set.
 * *made (when not NULL): 1 when this call created it, for a failed run to remove it again.
 */
int sweep_make_dir(const char *dir, int *made, struct diag *d);

#endif
