/*
 * fuzz_openb.c - libFuzzer harness for `import openb`: the input is
 * split at NUL bytes into the node and pod CSV files of Alibaba's
 * clusterdata openb traces.
 */
#include "fuzz_files.h"
#include "openb.h"

static const char *const names[] = { "openb_node_list.csv", "openb_pod_list.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct openb_out out;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 2);
	memset(&out, 0, sizeof(out));
	if (openb_import(fuzz_paths[0], fuzz_paths[1], fuzz_catalog(), &out, &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	openb_out_release(&out);
	return 0;
}
