/*
 * fuzz_solfile.c - libFuzzer harness for `plan --start FILE`'s reader:
 * the input is one solution file, CBC's or HiGHS's (solfile.c).
 */
#include "fuzz_files.h"
#include "solfile.h"

static const char *const names[] = { "start.sol" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct solfile s;
	struct diag d = DIAG_INIT;

	fuzz_split(data, size, names, 1);
	if (solfile_read(&s, fuzz_paths[0], &d))
		fuzz_check_diag(&d);
	diag_release(&d);
	solfile_release(&s);
	return 0;
}
