/*
 * main.c - gpuplan: global options and dispatch to the commands of the
 * table (options.h).
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

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

static int cmd_help(int argc, char **argv, const struct cli_global *g);

/* The code of each command of the table (options.h). */
static int (*const commands[CMD_COUNT])(int argc, char **argv, const struct cli_global *g) = {
	[CMD_PLAN] = cmd_plan,
	[CMD_COMPARE] = cmd_compare,
	[CMD_CHECK] = cmd_check,
	[CMD_DIFF] = cmd_diff,
	[CMD_SIMULATE] = cmd_simulate,
	[CMD_VALIDATE] = cmd_validate,
	[CMD_PROFILES] = cmd_profiles,
	[CMD_BENCH] = cmd_bench,
	[CMD_IMPORT] = cmd_import,
	[CMD_MODELS] = cmd_models,
	[CMD_SWEEP] = cmd_sweep,
	[CMD_HELP] = cmd_help,
};

/*
 * Tells the models lookup where this executable is, so that an installed
 * gpuplan finds <prefix>/share/gpuplan/models from <prefix>/bin wherever
 * the prefix was moved (nothing when /proc/self/exe cannot be read).
 */
/* "unknown command" with the nearest command names; EXIT_USAGE. */
static int unknown_command(const char *s)
{
	const char *names[CMD_COUNT + 1];
	size_t k;

	for (k = 0; k < CMD_COUNT; k++)
		names[k] = cli_commands[k].name;
	names[k] = NULL;
	return cli_unknown(&cli_global, "command", s, names);
}

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

/* gpuplan's own options; the index of the command, or -(exit code + 1) to stop. */
static int parse_global(int argc, char **argv, struct cli_global *g)
{
	struct cli_getopt go;
	const char *v;
	int id;

	cli_getopt_init(&go, &cli_global, argc, argv, 0);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		switch (id) {
		case CLI_HELP:
			return -(EXIT_OK + 1);
		case OPT_VERSION:
			printf("gpuplan %s\n", GPUPLAN_VERSION);
			return -(EXIT_OK + 1);
		case OPT_VERBOSE:
			g->verbose = 1;
			break;
		case OPT_MODELS:
			g->models_dir = v;
			break;
		default:
			return -(EXIT_USAGE + 1);	/* CLI_ERROR: the message is out */
		}
	}
	if (optind >= argc)
		return -(cli_misuse(&cli_global, "no command given") + 1);
	return optind;
}

/* gpuplan help [COMMAND]: what gpuplan --help or gpuplan COMMAND --help prints. */
static int cmd_help(int argc, char **argv, const struct cli_global *g)
{
	const struct cli_command *self = &cli_commands[CMD_HELP], *c;
	char help[] = "--help", name[32] = "gpuplan";
	char *args[3] = { name, help, NULL };
	struct cli_global dummy = *g;
	struct cli_getopt go;
	const char *v, *cmd = NULL;
	int id;

	cli_getopt_init(&go, self, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		if (id == CLI_HELP)
			return EXIT_OK;
		if (id != CLI_ARG)
			return EXIT_USAGE;
		if (cmd)
			return cli_misuse(self, "more than one command given");
		cmd = v;
	}
	if (!cmd) {
		id = parse_global(2, args, &dummy);
		return id < 0 ? -id - 1 : EXIT_OK;
	}
	c = cli_command_find(cmd);
	if (!c)
		return unknown_command(cmd);
	snprintf(name, sizeof(name), "%s", c->name);
	return commands[c - cli_commands](2, args, g);
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
		return unknown_command(argv[i]);
	find_installed_models();
	if (interrupt_install()) {
		cli_error(EXIT_INTERNAL, "cannot install the signal handlers");
		return EXIT_INTERNAL;
	}
	signal(SIGXFSZ, SIG_IGN);
	cli_set_command(c);
	rc = commands[c - cli_commands](argc - i, argv + i, &g);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		rc = EXIT_INTERNAL;
	}
	/* a run that finished (exit 0 or 1) before noticing the signal stands */
	if (rc != EXIT_OK && rc != EXIT_CHECK && interrupt_pending())
		return interrupt_exit_code(interrupt_pending());
	return rc;
}
