/*
 * fuzz_inventory.c - libFuzzer harness for the inventory reader
 * (inventory_load) against the bundled GPU catalog and cloud offers.
 */
#include "fuzz_files.h"
#include "inventory.h"

static const char *const names[] = { "inventory.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct clouds clouds;
	static int have_clouds;
	struct inventory inv = INVENTORY_INIT;
	struct diag d = DIAG_INIT;

	if (!have_clouds) {
		if (clouds_load(&clouds, FUZZ_MODELS_DIR "/clouds.yaml", fuzz_catalog(), &d))
			abort();
		have_clouds = 1;
	}
	fuzz_split(data, size, names, 1);
	if (inventory_load(&inv, fuzz_paths[0], fuzz_catalog(), &clouds, &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	inventory_release(&inv);
	return 0;
}
