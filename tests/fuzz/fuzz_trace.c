/*
 * fuzz_trace.c - libFuzzer harness for the demand trace reader
 * (trace_load) and the generated-trace spec (trace_generate): the input
 * is split at NUL bytes into workloads.csv, trace.csv and a --generate
 * spec; the trace is read for those workloads when they load, else for
 * two fixed ones.
 */
#include "fuzz_files.h"
#include "trace.h"
#include "workload.h"

static const char *const names[] = { "workloads.csv", "trace.csv", "spec" };

static const char fixed[] = "name,tenant,replicas,gpus,isolation,modes\n"
			    "train,t1,2,8,exclusive,passthrough\n"
			    "infer,t2,4,1,none,timeslice\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct workloads wl = WORKLOADS_INIT;
	struct trace tr = TRACE_INIT;
	struct diag d = DIAG_INIT;
	char *spec = NULL;
	size_t len = 0;

	fuzz_split(data, size, names, 3);
	if (workloads_load(&wl, fuzz_paths[0], fuzz_catalog(), &d)) {
		diag_release(&d);
		workloads_release(&wl);
		fuzz_put(fuzz_paths[0], fixed, sizeof(fixed) - 1);
		if (workloads_load(&wl, fuzz_paths[0], fuzz_catalog(), &d))
			abort();
	}
	if (trace_load(&tr, fuzz_paths[1], &wl, &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	trace_release(&tr);
	if (!file_read_all(fuzz_paths[2], 4096, &spec, &len) && !memchr(spec, 0, len)) {
		struct trace g = TRACE_INIT;
		if (trace_generate(&g, spec, &wl, 48, &d))
			fuzz_check_diag(&d);
		diag_release(&d);
		trace_release(&g);
	}
	free(spec);
	workloads_release(&wl);
	return 0;
}
