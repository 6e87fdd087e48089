/*
 * fuzz_skypilot.c - libFuzzer harness for `import skypilot` (a SkyPilot
 * catalog vms.csv).  The offers files it writes (split at 4 KiB here) must
 * read back, all of them together, with the cloud offers reader.
 */
#include "fuzz_files.h"
#include "skypilot.h"

static const char *const names[] = { "vms.csv" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* files of 4 KiB at most: the split into several offers files is exercised too */
	const struct sky_filter f = { "aws", NULL, NULL, "2026-01-01", 4096 };
	struct sky_out out;
	struct diag d = DIAG_INIT;
	size_t k;

	fuzz_split(data, size, names, 1);
	memset(&out, 0, sizeof(out));
	if (skypilot_import(fuzz_paths[0], &f, &out, &d)) {
		fuzz_check_diag(&d);
	} else {
		struct clouds c;	/* every file into one set: ids unique across the files */
		memset(&c, 0, sizeof(c));
		if (!out.nparts)
			abort();
		for (k = 0; k < out.nparts; k++) {
			fuzz_put(fuzz_paths[FUZZ_MAX_PARTS], out.yaml[k], strlen(out.yaml[k]));
			if (clouds_load(&c, fuzz_paths[FUZZ_MAX_PARTS], fuzz_catalog(), &d))
				abort();
		}
		clouds_release(&c);
	}
	diag_release(&d);
	sky_out_release(&out);
	return 0;
}
