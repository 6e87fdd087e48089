/*
 * fuzz_smi.c - libFuzzer harness for the nvidia-smi readers: the input
 * is split at NUL bytes into `nvidia-smi mig -lgip` and `-lgipp` text
 * (import smi) and two hosts' `--query-gpu ... --format=csv` output
 * (import smi-hosts).  The inventory the hosts import writes must read
 * back.
 */
#include "fuzz_files.h"
#include "inventory.h"
#include "smi.h"

static const char *const names[] = { "lgip.txt", "lgipp.txt", "host1.csv", "host2.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct smi_node_size sz = { 64, 512, NULL };
	struct smi_mig m;
	struct smi_hosts h;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 4);
	memset(&m, 0, sizeof(m));
	if (smi_mig_read(&m, fuzz_paths[0], fuzz_paths[1], &d))
		fuzz_check_diag(&d);
	else
		free(smi_mig_yaml(&m, "FUZZ-GPU"));
	diag_release(&d);
	smi_mig_release(&m);
	memset(&h, 0, sizeof(h));
	if (smi_hosts_import((const char *const *)&fuzz_paths[2], 2, &sz, fuzz_catalog(), &h, &d)) {
		fuzz_check_diag(&d);
	} else if (h.inventory) {
		struct inventory inv = INVENTORY_INIT;
		fuzz_put(fuzz_paths[FUZZ_MAX_PARTS], h.inventory, strlen(h.inventory));
		if (inventory_load(&inv, fuzz_paths[FUZZ_MAX_PARTS], fuzz_catalog(), NULL, &d))
			abort();
		inventory_release(&inv);
	}
	diag_release(&d);
	smi_hosts_release(&h);
	return 0;
}
