/*
 * fuzz_models.c - libFuzzer harness for the model readers: the input is
 * split at NUL bytes into a user GPU file (gpus.yaml, read as
 * gpuplan's --gpus / a scenario's gpus: file), a licence model
 * (licenses.yaml) and a cloud offers file (clouds.yaml), each read
 * against the bundled catalog; the user GPU file also through the
 * catalog checks of `gpuplan models check`.
 */
#include "fuzz_files.h"

static const char *const names[] = { "gpus.yaml", "licenses.yaml", "clouds.yaml" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog cat = CATALOG_INIT;
	struct licenses L;
	struct clouds c;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 3);
	if (catalog_load(&cat, fuzz_paths[0], 1, &d))
		fuzz_check_diag(&d);
	else if (models_check_catalog(&cat, &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	catalog_release(&cat);
	memset(&L, 0, sizeof(L));
	if (licenses_load(&L, fuzz_paths[1], fuzz_catalog(), &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	licenses_release(&L);
	memset(&c, 0, sizeof(c));
	if (clouds_load(&c, fuzz_paths[2], fuzz_catalog(), &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	clouds_release(&c);
	return 0;
}
