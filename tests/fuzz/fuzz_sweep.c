/*
 * fuzz_sweep.c - libFuzzer harness for the sweep spec reader
 * (sweep_spec_load), then every case's values of a small spec.
 */
#include <math.h>

#include "fuzz_files.h"
#include "sweep.h"

static const char *const names[] = { "sweep.yaml" };

/* The first cases' values and names: every case must be computable. */
static void cases(const struct sweep_spec *s)
{
	size_t n = sweep_ncases(s), i;
	double *v = xcalloc(s->nparams + 1, sizeof(*v));

	for (i = 0; i < n && i < 16; i++) {
		sweep_case_values(s, i, v);
		(void)sweep_case_varies(s, i);
		free(sweep_case_name(s, i));
	}
	free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sweep_spec s;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 1);
	memset(&s, 0, sizeof(s));
	if (sweep_spec_load(&s, fuzz_paths[0], &d))
		fuzz_check_diag(&d);
	else
		cases(&s);
	diag_release(&d);
	sweep_spec_release(&s);
	return 0;
}
