/*
 * main.c - gpuplan: global options and dispatch to the commands of the
 * command table (options.h).
 *
 * Dispatch only: each command lives in cmd_<name>.c.  After a command
 * returns, stdout is flushed and checked so that a full disk is never
 * reported as success.
 *
 * Signals: SIGINT and SIGTERM set the interrupt flag (interrupt.h); a
 * command that stops because of it fails with its own message and main
 * returns 128 + the signal (130, 143).  SIGXFSZ is ignored so that a file
 * size limit (ulimit -f) makes a write fail with EFBIG, reported as an
 * I/O error, instead of killing the process mid-write.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "interrupt.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

/*
 * Tells the models lookup where this executable is, so that an installed
 * gpuplan finds <prefix>/share/gpuplan/models from <prefix>/bin wherever
 * the prefix was moved (nothing when /proc/self/exe cannot be read).
 */
static void find_installed_models(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = '\0';
	models_dir_set_exe_dir(exe);
}

/* gpuplan's own options into g; the index of the command, or -(exit code + 1) to stop. */
static int parse_global(int argc, char **argv, struct cli_global *g)
{
	int rc = cli_parse(&cli_gpuplan, argc, argv, g);

	if (rc)
		return -(cli_exit_code(rc) + 1);
	if (optind >= argc)
		return -(cli_misuse(&cli_gpuplan, "no command given") + 1);
	return optind;
}

/*
 * The test hook of the run's deadline (deadline.h): GPUPLAN_TEST_DEADLINE_POLLS=N
 * makes the time limit pass at its (N+1)-th poll, whatever the clock says
 * (docs/testing.md).  Not a user setting: a bad value is ignored.
 */
static void deadline_test_hook(struct deadline *dl)
{
	const char *v = getenv("GPUPLAN_TEST_DEADLINE_POLLS");
	long long n;

	if (v && *v && !parse_llong(v, &n) && n >= 0)
		dl->expire_polls = (long)n;
}

int main(int argc, char **argv)
{
	struct deadline run;
	struct cli_global g = { NULL, 0, &run };
	const struct cli_command *c;
	int i, rc;

	deadline_start(&run);	/* --time-limit counts from here: reading the inputs counts too */
	deadline_test_hook(&run);
	i = parse_global(argc, argv, &g);
	if (i < 0)
		return -i - 1;
	c = cli_command_find(argv[i]);
	if (!c)
		return cli_unknown_command(argv[i]);
	find_installed_models();
	if (interrupt_install()) {
		cli_error(EXIT_INTERNAL, "cannot install the signal handlers");
		return EXIT_INTERNAL;
	}
	signal(SIGXFSZ, SIG_IGN);
	cli_set_command(c);
	cli_set_global(&g);	/* --verbose and --models after the command's name too */
	rc = c->run(argc - i, argv + i, &g);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		rc = EXIT_INTERNAL;
	}
	/* a run that finished (exit 0 or 1) before noticing the signal stands */
	if (rc != EXIT_OK && rc != EXIT_CHECK && interrupt_pending())
		return interrupt_exit_code(interrupt_pending());
	return rc;
}
