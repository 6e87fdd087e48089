/*
 * scenario.h - a scenario file and everything it binds together.
 *
 * scenario_load reads the scenario YAML, then the bundled GPU catalog
 * (models_dir/gpus.yaml), the scenario's own GPU files, the inventory
 * and the workloads, all relative to the scenario's directory.  The
 * scenario owns them all; scenario_release frees everything.
 */
#ifndef PLANNER_SCENARIO_H
#define PLANNER_SCENARIO_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "inventory.h"
#include "workload.h"

struct scenario {
	char *file;		/* path as given */
	char *name;
	char *models_dir;	/* where gpus.yaml and licenses.yaml are read */
	char *inventory_path;	/* resolved */
	char *workloads_path;	/* resolved */
	size_t ngpu_files;
	char **gpu_files;	/* resolved user GPU files */

	double horizon_years;	/* planning horizon; default 1 */
	double time_limit_s;	/* solver limit; default 30 */
	double mip_gap;		/* relative; default 1e-4 */
	int timeslice_max;	/* largest time-slice replica count k; default 8 */
	int mps_max;		/* largest MPS client count; default 8 */

	/* Energy; price 0 means energy is not priced. */
	double energy_usd_per_kwh;
	double pue;		/* default 1 */
	double gpu_load_factor;	/* share of TDP an active GPU draws; default 1 */

	/* Licences: USD per licensed GPU per year (issue #4 grows this). */
	double license_usd_per_gpu_year;
	char *license_source;	/* where that price came from, for reports */

	struct catalog catalog;
	struct inventory inventory;
	struct workloads workloads;
};

/*
 * Loads path.  models_dir overrides where the bundled models are read
 * (NULL: the scenario's `models:` field, else GPUPLAN_MODELS_DIR).
 */
int scenario_load(struct scenario *sc, const char *path, const char *models_dir, struct diag *d);
void scenario_release(struct scenario *sc);

/*
 * Why workload w can never be placed on any node of the inventory, or
 * NULL when some node class could host it.  The reason names the limit,
 * e.g. "asks 96 GiB of GPU memory, the largest allowed GPU has 80 GiB".
 * Caller frees.
 */
char *scenario_unhostable(const struct scenario *sc, const struct workload *w);

#endif
