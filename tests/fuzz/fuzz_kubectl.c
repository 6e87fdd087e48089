/*
 * fuzz_kubectl.c - libFuzzer harness for `import kubectl`: the input is
 * split at NUL bytes into the node list and the pod list (kubectl ... -o
 * json).  What the importer writes must read back: its inventory and
 * workloads files load against the same catalog.
 */
#include "fuzz_files.h"
#include "inventory.h"
#include "kubectl.h"
#include "workload.h"

static const char *const names[] = { "nodes.json", "pods.json" };

static void reads_back(const char *text, int workloads)
{
	struct diag d = DIAG_INIT;

	if (!text)
		return;
	fuzz_put(fuzz_paths[FUZZ_MAX_PARTS], text, strlen(text));
	if (workloads) {
		struct workloads wl = WORKLOADS_INIT;
		if (workloads_load(&wl, fuzz_paths[FUZZ_MAX_PARTS], fuzz_catalog(), &d))
			abort();
		workloads_release(&wl);
	} else {
		struct inventory inv = INVENTORY_INIT;
		if (inventory_load(&inv, fuzz_paths[FUZZ_MAX_PARTS], fuzz_catalog(), NULL, &d))
			abort();
		inventory_release(&inv);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kubectl_out out;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 2);
	memset(&out, 0, sizeof(out));
	if (kubectl_import(fuzz_paths[0], fuzz_paths[1], NULL, fuzz_catalog(), &out, &d)) {
		fuzz_check_diag(&d);
	} else {
		reads_back(out.inventory, 0);
		reads_back(out.workloads, 1);
		reads_back(out.workloads_asis, 1);
	}
	diag_release(&d);
	kubectl_out_release(&out);
	return 0;
}
