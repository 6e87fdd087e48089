/*
 * cli.h - the command layer: the helpers every cmd_*.c shares (command
 * line parsing from the command table, messages, shared option rows).  Only
 * files in this layer print or exit.
 */
#ifndef PLANNER_CLI_H
#define PLANNER_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "deadline.h"
#include "diag.h"
#include "options.h"
#include "par.h"
#include "plan.h"
#include "report.h"
#include "util.h"

struct cli_global {
	const char *models_dir;	/* --models DIR, or NULL */
	int verbose;		/* --verbose */
	struct deadline *run;	/* the run's deadline, started first thing (its limit set by plan_run) */
};

/* The rows of the command table, each in its cmd_<name>.c (cli_commands[] lists them). */
extern const struct cli_command cmd_plan_entry, cmd_compare_entry, cmd_check_entry, cmd_diff_entry,
	cmd_simulate_entry, cmd_roadmap_entry, cmd_validate_entry, cmd_profiles_entry, cmd_bench_entry, cmd_import_entry,
	cmd_models_entry, cmd_sweep_entry, cmd_help_entry;

/*
 * Parses argv[1..argc-1] for command c (argv[0] is its name, parse.c):
 * each option's value is stored into args, c's options struct, as the
 * option's row says, and the operands as c->operands and c->sub say.
 * Returns 0 to go on, CLI_DONE after --help (the command exits 0), or
 * EXIT_USAGE after a message (unknown option, missing or bad value, one
 * operand too many, unknown or missing sub-command word).  For gpuplan's
 * own options (operands CLI_STOP) optind is then the command's index.
 */
int cli_parse(const struct cli_command *c, int argc, char **argv, void *args);
/*
 * Where cli_parse stores gpuplan's own options given after a command's
 * name (main sets it before running the command).
 */
void cli_set_global(struct cli_global *g);
/* The exit code for cli_parse's or a setter's rc != 0: EXIT_OK for CLI_DONE. */
#define cli_exit_code(rc) ((rc) == CLI_DONE ? EXIT_OK : (rc))
/* "unknown command 'S'" with the nearest command names; EXIT_USAGE. */
int cli_unknown_command(const char *s);

/* Prints "gpuplan: <diag>" to stderr; returns the exit code for its kind. */
int cli_diag(const struct diag *d);
/* The exit code for d's kind (what cli_diag returns), without printing. */
int cli_diag_code(const struct diag *d);
/*
 * One warning on stderr per workload of the plan that no node could ever
 * host ("FILE:LINE: workload 'X' can never be placed: why"), then per one
 * whose spread or availability rule no plan can keep
 * (scenario_rule_unkeepable), for plan and check, which report such
 * workloads' replicas as unplaced instead of failing.
 */
void cli_warn_unhostable(const struct plan_result *r, const struct scenario *sc);
/*
 * Warns on stderr when the time limit cut r's greedy pass: how many
 * replicas it left unplaced without trying them (cplan.not_attempted).
 */
void cli_warn_cut(const struct plan_result *r);

/*
 * One warning on stderr per ScheduleAnyway spread the plan goes past
 * (report_skew_warnings: "FILE:LINE: workload 'X' is planned with skew 3,
 * past its spread node max_skew 1 ..."), for plan and check.
 */
void cli_warn_spread_skew(const struct plan_result *r);

/*
 * The whole-run time limit (issue #57): the limit a plan of sc under po
 * runs under, in seconds, or -1 when a node limit (the deterministic
 * budget) replaces it.  cli_warn_read_overrun warns, once the inputs are
 * read, when reading alone used the limit up (nothing is planned in it);
 * cli_warn_overrun, once the reports are written, when the run ended more
 * than a second or a tenth of the limit past it, with where the time went (read: seconds
 * the reading took, planned: when planning ended, both from the run's
 * start).  Wall-clock only: the test
 * hook of deadline.h never makes either warn.
 */
double cli_run_limit(const struct plan_opts *po, const struct scenario *sc);
void cli_warn_read_overrun(const struct deadline *run, double limit);
void cli_warn_overrun(const struct deadline *run, double limit, double read, double planned);

/*
 * Prints on stderr, as "gpuplan: warning: FILE:LINE: ...", the hint of
 * every workload whose compute ask is less than 1% above a MIG profile's
 * share, a rounded fraction (scenario_compute_hint, SCENARIO_HINT_WARN).
 */
void cli_warn_compute_hints(const struct scenario *sc);
/* Each value of sc far outside what real deployments use (scenario_implausible) as a warning on stderr. */
void cli_warn_implausible(const struct scenario *sc);
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

/*
 * The value CLI_WORDS words give v, for option opt: 0, or EXIT_USAGE
 * after "OPT: 'V' is not a, b or c" (the words that are not aliases).
 */
int cli_word_value(const char *opt, const struct cli_word *words, const char *v, int *out);
/* The report formats of plan, compare, sweep merge: csv|json|both|html|all (enum report_format). */
extern const struct cli_word cli_report_formats[];

/*
 * Option rows several commands share, for a table of options struct T:
 * the solver's (T has a struct plan_opts po) and --progress/--quiet
 * (T has int progress, quiet).  Help texts differ by command.
 */
#define CLI_OPT_TIME_LIMIT(T, help) \
	{ "time-limit", 0, "S", help, .kind = CLI_DOUBLE, .offset = offsetof(T, po.time_limit_s), \
	  .range = { 0, 86400, RANGE_LO_OPEN } }
#define CLI_OPT_GAP(T, help) \
	{ "gap", 0, "PCT", help, .kind = CLI_PERCENT, .offset = offsetof(T, po.mip_gap), \
	  .range = { 0, 100, RANGE_HI_OPEN } }
#define CLI_OPT_NODE_LIMIT(T, help) \
	{ "node-limit", 0, "N", help, .kind = CLI_LONG, .offset = offsetof(T, po.node_limit), \
	  .range = { 0, 1e9, RANGE_CLOSED } }
#define CLI_OPT_THREADS(T, help) \
	{ "threads", 0, "N", help, .kind = CLI_INT, .offset = offsetof(T, po.threads), \
	  .range = { 1, PAR_MAX_THREADS, RANGE_CLOSED } }
#define CLI_OPT_GREEDY(T, help) { "greedy", 0, NULL, help, .kind = CLI_FLAG, .offset = offsetof(T, po.greedy_only) }
#define CLI_OPT_PROGRESS(T) \
	{ "progress", 0, NULL, "print one progress line per phase on stderr (for CI logs)", .kind = CLI_FLAG, \
	  .offset = offsetof(T, progress) }, \
	{ "quiet", 0, NULL, "no progress line (default on a terminal: one line updated in place)", .kind = CLI_FLAG, \
	  .offset = offsetof(T, quiet) }

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
/* Picks the mode: force_lines (--progress), quiet (--quiet), else whether stderr is a terminal. */
void cli_progress_init(struct cli_progress *p, int force_lines, int quiet);
/* Points po's progress callback at p (none when off); label names the run in the lines. */
void cli_progress_plan(struct cli_progress *p, struct plan_opts *po, const char *label);
/* A sink for simulate_run (sim_opts.progress), its clock started now. */
const struct ilp_progress_sink *cli_progress_sink(struct cli_progress *p, const char *label);
/* Erases the terminal line, if one is shown; call before printing anything else. */
void cli_progress_end(struct cli_progress *p);
/*
 * With --progress, the last line of a run, once its reports are written:
 * "gpuplan: LABEL: written, T s of L s", T from the run's start (what the
 * whole run took, for --time-limit; limit < 0 or 0: none shown).
 */
void cli_progress_written(struct cli_progress *p, const struct deadline *run, double limit);

#define CLI_PRICE_MAX_MONTHS 12	/* a price older than this before today is stale */
/* True when a price of date as_of is more than CLI_PRICE_MAX_MONTHS older than today. */
int cli_price_stale(long long as_of, long long today);

#endif
