/*
 * fuzz_scenario.c - libFuzzer harness for the scenario loader: the input
 * is split at NUL bytes into scenario.yaml, inventory.csv, workloads.csv
 * and gpus-extra.yaml (missing parts are empty files), written into a
 * private temporary directory, and loaded with scenario_load() against
 * the bundled models; then every workload is checked for hostability.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_files.h"
#include "scenario.h"

static const char *const names[4] = { "scenario.yaml", "inventory.csv", "workloads.csv", "gpus-extra.yaml" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc;
	struct diag d = DIAG_INIT;

	/* the scenario's own models: field still wins, as in gpuplan */
	if (!getenv("GPUPLAN_MODELS"))
		setenv("GPUPLAN_MODELS", FUZZ_MODELS_DIR, 1);
	fuzz_split(data, size, names, 4);
	memset(&sc, 0, sizeof(sc));
	if (scenario_load(&sc, fuzz_paths[0], NULL, &d)) {
		fuzz_check_diag(&d);
	} else {
		size_t k;
		for (k = 0; k < sc.workloads.n; k++)
			free(scenario_unhostable(&sc, &sc.workloads.w[k]));
	}
	diag_release(&d);
	scenario_release(&sc);
	return 0;
}
