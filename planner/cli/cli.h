/*
 * cli.h - the command layer: exit codes, the command table, and the
 * helpers every cmd_*.c shares.  Only files in this layer print or exit.
 */
#ifndef PLANNER_CLI_H
#define PLANNER_CLI_H

#include <stdio.h>

#include "diag.h"
#include "plan.h"
#include "report.h"

/* Exit codes: documented in README "Exit codes"; tests assert them. */
enum exit_code {
	EXIT_OK = 0,		/* done */
	EXIT_CHECK = 1,		/* check over threshold, or demand unplaced under --require-all */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* bad input file: one "gpuplan: FILE:LINE[:COL]: ..." line */
	EXIT_SOLVER = 4,	/* the solver found no plan within its limits */
	EXIT_INTERNAL = 5,	/* I/O error, or a plan that failed verification (a bug) */
};

struct cli_global {
	const char *models_dir;	/* --models DIR, or NULL */
	int verbose;		/* --verbose */
};

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv, const struct cli_global *g);
	const char *summary;
};

int cmd_validate(int argc, char **argv, const struct cli_global *g);
int cmd_profiles(int argc, char **argv, const struct cli_global *g);
int cmd_plan(int argc, char **argv, const struct cli_global *g);
int cmd_compare(int argc, char **argv, const struct cli_global *g);
int cmd_check(int argc, char **argv, const struct cli_global *g);
int cmd_diff(int argc, char **argv, const struct cli_global *g);
int cmd_simulate(int argc, char **argv, const struct cli_global *g);
int cmd_bench(int argc, char **argv, const struct cli_global *g);
int cmd_import(int argc, char **argv, const struct cli_global *g);

/* Prints "gpuplan: <diag>" to stderr; returns the exit code for its kind. */
int cli_diag(const struct diag *d);
/* Prints "gpuplan: <msg>" to stderr and returns code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints a usage text (NULL-terminated lines) to f. */
void cli_usage(FILE *f, const char *const *usage);
/* For misuse: prints msg and the usage to stderr, returns EXIT_USAGE. */
int cli_misuse(const char *const *usage, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* True if arg is -h or --help. */
int cli_is_help(const char *arg);
/*
 * Option value: for "--name VALUE" or "--name=VALUE" at argv[*i].
 * Returns 1 and sets *val when argv[*i] is that option (advancing *i
 * past a separate value), 0 if it is another argument, -1 when the
 * value is missing.
 */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val);
/*
 * A strict number for an option in [min, max], with either end open when
 * min_open / max_open; -1 on error (message printed: "'0' must be in (0, 86400]").
 */
int cli_parse_num(const char *opt, const char *s, double min, int min_open, double max, int max_open,
		  double *out);
/*
 * The solver options plan, compare and check share: --time-limit S,
 * --gap PCT, --node-limit N, --greedy.  1 when argv[*i] was one of them
 * (po set, *i advanced past its value), 0 when it is another argument,
 * -1 after a message (the usage on misuse): return EXIT_USAGE.
 */
int cli_solver_option(int argc, char **argv, int *i, const char *const *usage, struct plan_opts *po);
/*
 * The output options: -o/--output DIR, and --format csv|json|both when fmt
 * is not NULL.  Returns as cli_solver_option.
 */
int cli_output_option(int argc, char **argv, int *i, const char *const *usage, const char **dir,
		      enum report_format *fmt);

#endif
