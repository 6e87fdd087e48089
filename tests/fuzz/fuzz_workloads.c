/*
 * fuzz_workloads.c - libFuzzer harness for the workloads reader
 * (workloads_load) against the bundled GPU catalog.
 */
#include "fuzz_files.h"
#include "workload.h"

static const char *const names[] = { "workloads.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct workloads wl = WORKLOADS_INIT;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 1);
	if (workloads_load(&wl, fuzz_paths[0], fuzz_catalog(), &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	workloads_release(&wl);
	return 0;
}
