/*
 * main.c - gpuplan: global options and the command table.
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
#include <string.h>

#include "cli.h"
#include "interrupt.h"
#include "banned.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

static const struct cmd commands[] = {
	{ "plan", cmd_plan, "plan a scenario: modes, partitions, placements, cost" },
	{ "compare", cmd_compare, "plan several scenarios and line them up (cloud vs on-prem)" },
	{ "check", cmd_check, "plan a scenario and check it against a baseline plan.json (CI gate)" },
	{ "diff", cmd_diff, "compare two plan.json reports: cost, licences, mode mix, utilisation" },
	{ "simulate", cmd_simulate, "price ways of buying licences over an hourly demand trace" },
	{ "validate", cmd_validate, "load a scenario and report what it holds" },
	{ "profiles", cmd_profiles, "list GPU types, MIG profiles and geometries, vGPU profiles" },
	{ "bench", cmd_bench, "generate synthetic benchmark scenarios (bench/run.sh runs the benchmark)" },
	{ "import", cmd_import, "turn a public trace (Alibaba openb) into a scenario" },
};

static const char *const usage[] = {
	"usage: gpuplan [--models DIR] [--verbose] COMMAND [ARGS]",
	"       gpuplan --version | --help",
	"",
	"commands:",
	NULL,
};

static void print_usage(FILE *f)
{
	size_t i;
	cli_usage(f, usage);
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'gpuplan COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
	struct cli_global g = { NULL, 0 };
	int i = 1, rc;
	size_t k;

	while (i < argc && argv[i][0] == '-') {
		const char *val;
		int r;
		if (cli_is_help(argv[i])) {
			print_usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("gpuplan %s\n", GPUPLAN_VERSION);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
			g.verbose = 1;
			i++;
			continue;
		}
		r = cli_opt_value(argc, argv, &i, "--models", &val);
		if (r < 0) {
			cli_error(EXIT_USAGE, "--models needs a directory");
			print_usage(stderr);
			return EXIT_USAGE;
		}
		if (r > 0) {
			g.models_dir = val;
			i++;
			continue;
		}
		cli_error(EXIT_USAGE, "unknown option '%s'", argv[i]);
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (i >= argc) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
		if (!strcmp(commands[k].name, argv[i]))
			break;
	if (k == sizeof(commands) / sizeof(commands[0])) {
		cli_error(EXIT_USAGE, "unknown command '%s'", argv[i]);
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (interrupt_install()) {
		cli_error(EXIT_INTERNAL, "cannot install the signal handlers");
		return EXIT_INTERNAL;
	}
	signal(SIGXFSZ, SIG_IGN);
	rc = commands[k].fn(argc - i, argv + i, &g);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		rc = EXIT_INTERNAL;
	}
	/* a run that finished (exit 0 or 1) before noticing the signal stands */
	if (rc != EXIT_OK && rc != EXIT_CHECK && interrupt_pending())
		return interrupt_exit_code(interrupt_pending());
	return rc;
}
