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

#include "fuzz.h"
#include "scenario.h"

#ifndef FUZZ_MODELS_DIR
#define FUZZ_MODELS_DIR "models"
#endif

static char dir[64];
static char *paths[4];
static const char *const names[4] = { "scenario.yaml", "inventory.csv", "workloads.csv", "gpus-extra.yaml" };

static void cleanup(void)
{
	int i;
	for (i = 0; i < 4; i++) {
		if (paths[i]) {
			unlink(paths[i]);
			free(paths[i]);
		}
	}
	rmdir(dir);
}

static void setup(void)
{
	int i;

	snprintf(dir, sizeof(dir), "/tmp/gpuplan-fuzz-XXXXXX");
	if (!mkdtemp(dir))
		abort();
	for (i = 0; i < 4; i++)
		paths[i] = xasprintf("%s/%s", dir, names[i]);
	/* the scenario's own models: field still wins, as in gpuplan */
	if (!getenv("GPUPLAN_MODELS"))
		setenv("GPUPLAN_MODELS", FUZZ_MODELS_DIR, 1);
	atexit(cleanup);
}

static void put(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	if (fclose(f))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scenario sc;
	struct diag d = DIAG_INIT;
	size_t pos = 0;
	int i;

	if (!dir[0])
		setup();
	for (i = 0; i < 4; i++) {
		const uint8_t *end = pos < size ? memchr(data + pos, 0, size - pos) : NULL;
		size_t n = pos < size ? (end ? (size_t)(end - (data + pos)) : size - pos) : 0;
		put(paths[i], data + pos, n);
		pos += n + 1;
	}
	memset(&sc, 0, sizeof(sc));
	if (scenario_load(&sc, paths[0], NULL, &d)) {
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
