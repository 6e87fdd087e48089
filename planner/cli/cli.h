/*
 * cli.h - the command layer: the helpers every cmd_*.c shares (command
 * line parsing from the command table, messages, shared options).  Only
 * files in this layer print or exit.
 */
#ifndef PLANNER_CLI_H
#define PLANNER_CLI_H

#include <getopt.h>
#include <stdio.h>

#include "deadline.h"
#include "diag.h"
#include "options.h"
#include "plan.h"
#include "report.h"
#include "util.h"

struct cli_global {
	const char *models_dir;	/* --models DIR, or NULL */
	int verbose;		/* --verbose */
	struct deadline *run;	/* the run's deadline, started first thing (its limit set by plan_run) */
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
int cmd_models(int argc, char **argv, const struct cli_global *g);
int cmd_sweep(int argc, char **argv, const struct cli_global *g);

/* Prints "gpuplan: <diag>" to stderr; returns the exit code for its kind. */
int cli_diag(const struct diag *d);
/* The exit code for d's kind (what cli_diag returns), without printing. */
int cli_diag_code(const struct diag *d);
/*
 * One warning on stderr per workload of the plan that no node could ever
 * host ("FILE:LINE: workload 'X' can never be placed: why"), for plan and
 * check, which report such workloads as unplaced instead of failing.
 */
void cli_warn_unhostable(const struct plan_result *r, const struct scenario *sc);

/*
 * Prints on stderr, as "gpuplan: warning: FILE:LINE: ...", the hint of
 * every workload whose compute ask is less than 1% above a MIG profile's
 * share, a rounded fraction (scenario_compute_hint, SCENARIO_HINT_WARN).
 */
void cli_warn_compute_hints(const struct scenario *sc);
/*
 * fprintf for text people read (summaries, warnings, errors): a control
 * character the arguments bring (a line break or an escape in a name) is
 * written "\xNN" (str_escape_ctl), so no name can forge or split a line;
 * the line breaks fmt itself begins and ends with are kept.
 */
void cli_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * True when paths a and b name one file: the same inode when both exist,
 * else the same text once "./" prefixes and trailing slashes are dropped.
 */
int cli_same_path(const char *a, const char *b);
/*
 * Prints to out, as the summaries' "  hints:      ..." lines, the hint of
 * every workload whose compute ask is within 20% above a MIG profile's
 * share (SCENARIO_HINT_NEAR); nothing when none.
 */
void cli_print_compute_hints(FILE *out, const struct scenario *sc);
/* Prints "gpuplan: <msg>" to stderr (as cli_printf) and returns code. */
int cli_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * For a misused command line: prints "gpuplan CMD: <msg> (see 'gpuplan
 * CMD --help')" to stderr (CMD left out for gpuplan's own options) and
 * returns EXIT_USAGE.
 */
int cli_misuse(const struct cli_command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * cli_misuse for the command running (cli_set_command; gpuplan's own
 * options before one is known): every bad option value, whichever
 * helper finds it, in the one documented form.
 */
#define cli_usage(...) cli_misuse(cli_current(), __VA_ARGS__)
void cli_set_command(const struct cli_command *c);
const struct cli_command *cli_current(void);
/*
 * cli_misuse for an unknown word: "unknown WHAT 'S'" with the hint
 * str_hint (util.h) gives over the NULL-terminated valid names.
 */
int cli_unknown(const struct cli_command *c, const char *what, const char *s, const char *const *names);

#define CLI_MAX_OPTIONS 24	/* options of one command, -h/--help included */

/*
 * Command-line parsing with getopt_long from a command's table.  Options
 * and operands are taken in the order given (getopt's RETURN_IN_ORDER,
 * whatever POSIXLY_CORRECT says), so options may follow operands
 * (`plan SCENARIO -o DIR`); "--" ends the options.  For gpuplan's own
 * options (in_order 0) parsing stops at the first operand, the command,
 * whose index is then optind.
 */
struct cli_getopt {
	const struct cli_command *cmd;	/* whose options */
	int argc;
	char **argv;			/* argv[0] is the command's name */
	struct option longopts[CLI_MAX_OPTIONS + 1];	/* built from cmd's table */
	char optstring[2 * CLI_MAX_OPTIONS + 4];	/* "-:" or "+:" and the short options */
	int rest;			/* after "--": the operands left are returned one by one */
};

enum cli_getopt_result {
	CLI_ARG = 1,		/* an operand, in *val */
	CLI_END = -1,		/* nothing left */
	CLI_HELP = -2,		/* -h/--help: the help was printed on stdout (exit 0) */
	CLI_ERROR = -3,		/* unknown option or missing value: message printed (exit 2) */
};

/* Prepares parsing argv[1..argc-1] for command c (resets getopt: optind = 0). */
void cli_getopt_init(struct cli_getopt *go, const struct cli_command *c, int argc, char **argv, int in_order);
/* The next option's id (enum cli_opt_id, its value in *val) or a CLI_* result. */
int cli_getopt(struct cli_getopt *go, const char **val);

/*
 * A strict number for an option, in range (struct num_range, as the
 * readers use); -1 on error (message printed: "'0' must be in (0, 86400]").
 */
int cli_parse_num(const char *opt, const char *s, struct num_range range, double *out);
/*
 * The solver options plan, compare and check share: --time-limit S,
 * --gap PCT, --node-limit N, --threads N, --greedy.  1 when id was one of
 * them (po set from val), 0 when it is another option, -1 after a message:
 * return EXIT_USAGE.
 */
int cli_solver_option(int id, const char *val, struct plan_opts *po);
/* The output format of plan and compare, --format csv|json|both; returns as cli_solver_option. */
int cli_format_option(const char *val, enum report_format *fmt);
/*
 * -o/--output DIR of plan, compare and check, read after the options:
 * "-" writes the JSON report to standard output (*fmt becomes json; csv
 * is refused, EXIT_USAGE after a one-line message) and *summary becomes
 * stderr, so that the human summary does not mix with it; otherwise
 * *summary is stdout.  0 or EXIT_USAGE.
 */
int cli_output_option(const struct cli_command *c, const char *dir, enum report_format *fmt, FILE **summary);

/*
 * Today's date as a day number (date.h) for the price-age warnings of
 * validate and models check: $GPUPLAN_TODAY (YYYY-MM-DD) when set and not
 * empty, so that tests and reproducible runs do not depend on the clock,
 * else the system clock's date in UTC.  Never used in a report.  -1 after a
 * message when GPUPLAN_TODAY is not a date: return EXIT_USAGE.
 */
int cli_today(long long *days);
/*
 * The progress of a long run on stderr (progress.c): on a terminal one
 * line rewritten in place at most 4 times a second and erased at the end;
 * with --progress one line per phase ("gpuplan: LABEL: PHASE, T s of L s,
 * best B, gap G%"), for CI logs; nothing when stderr is not a terminal or
 * with --quiet.
 */
enum cli_progress_mode { CLI_PROGRESS_OFF, CLI_PROGRESS_TTY, CLI_PROGRESS_LINES };
struct cli_progress {
	enum cli_progress_mode mode;
	const char *label;	/* "plan NAME", the scenario in compare, or NULL */
	const char *phase;	/* the last phase printed (lines mode) */
	long done;		/* and its steps done */
	double last;		/* when the line was last written (terminal) */
	int shown;		/* a line is on the terminal */
	struct ilp_progress_sink sink;	/* for simulate */
};
/* --progress and --quiet: 1 when id is one of them (its CLI_FLAG_* set in *flags), else 0. */
#define CLI_FLAG_PROGRESS 1
#define CLI_FLAG_QUIET 2
int cli_progress_option(int id, int *flags);
/* Picks the mode: force_lines (--progress), quiet (--quiet), else whether stderr is a terminal. */
void cli_progress_init(struct cli_progress *p, int force_lines, int quiet);
/* Points po's progress callback at p (none when off); label names the run in the lines. */
void cli_progress_plan(struct cli_progress *p, struct plan_opts *po, const char *label);
/* A sink for simulate_run (sim_opts.progress), its clock started now. */
const struct ilp_progress_sink *cli_progress_sink(struct cli_progress *p, const char *label);
/* Erases the terminal line, if one is shown; call before printing anything else. */
void cli_progress_end(struct cli_progress *p);

#define CLI_PRICE_MAX_MONTHS 12	/* a price older than this before today is stale */
/* True when a price of date as_of is more than CLI_PRICE_MAX_MONTHS older than today. */
int cli_price_stale(long long as_of, long long today);

#endif
