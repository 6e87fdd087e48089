/*
 * fuzz_skypilot.c - libFuzzer harness for `import skypilot` (a SkyPilot
 * catalog vms.csv).  The offers file it writes must read back with the
 * cloud offers reader.
 */
#include "fuzz_files.h"
#include "skypilot.h"

static const char *const names[] = { "vms.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sky_filter f = { "aws", NULL, NULL, "2026-01-01" };
	struct sky_out out;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 1);
	memset(&out, 0, sizeof(out));
	if (skypilot_import(fuzz_paths[0], &f, &out, &d)) {
		fuzz_check_diag(&d);
	} else if (out.yaml) {
		struct clouds c;
		memset(&c, 0, sizeof(c));
		fuzz_put(fuzz_paths[FUZZ_MAX_PARTS], out.yaml, strlen(out.yaml));
		if (clouds_load(&c, fuzz_paths[FUZZ_MAX_PARTS], fuzz_catalog(), &d))
			abort();
		clouds_release(&c);
	}
	diag_release(&d);
	sky_out_release(&out);
	return 0;
}
