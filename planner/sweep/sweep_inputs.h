/*
 * sweep_inputs.h - what the sweep's Kubernetes manifest and its derived
 * scenarios share: a scenario file written again with other names for
 * the files it reads, and file names made unique.  Private to sweep/
 * (sweep_expand.c, sweep_k8s.c).
 */
#ifndef PLANNER_SWEEP_INPUTS_H
#define PLANNER_SWEEP_INPUTS_H

#include <stddef.h>

#include "diag.h"
#include "dyaml.h"
#include "scenario.h"

/*
 * How a rewritten scenario names a file it reads (path as the loaded
 * scenario resolved it): a new string (caller frees), or NULL to drop
 * the key (models only).
 */
typedef char *(*sweep_namer)(void *ctx, const char *path);

/* How sweep_scenario_yaml writes a scenario again. */
struct sweep_rewrite {
	sweep_namer namer;		/* names every file the scenario reads */
	void *ctx;			/* namer's */
	int want_models;		/* name the models even when the file does not */
	struct dyaml_edit *extra;	/* more edits; may be NULL when nextra is 0 */
	size_t nextra;
};

/*
 * The file of the loaded scenario sc again through the emitter, its
 * models, gpu_types, inventory, workloads and cloud_offers named by
 * rw->namer (models only when it is in the file or rw->want_models),
 * with the extra edits.  0 and *text (caller frees), or -1 with d set.
 */
int sweep_scenario_yaml(const struct scenario *sc, const struct sweep_rewrite *rw, char **text, size_t *len,
			struct diag *d);

/* path with every symbolic link and "." or ".." resolved (realpath), or NULL when it does not exist; caller frees. */
char *sweep_real_path(const char *path);
/* A name like base not in used[0..n): base, else base with "-2", "-3" ... before its extension. */
char *sweep_unique_name(const char *base, char *const *used, size_t n);

#endif
