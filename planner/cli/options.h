/*
 * options.h - the command table: every command of gpuplan with its
 * synopsis, description and options, and the exit codes.
 *
 * One table is the whole command-line interface: gpuplan builds its
 * getopt_long arrays and its --help texts from it (cli.c), and
 * gpuplan-doc (doc/gpuplan-doc.c, built from this same file) writes the
 * man page and the bash completion from it, so the three cannot drift
 * apart.  This file holds data and text formatting only: no command code.
 */
#ifndef PLANNER_OPTIONS_H
#define PLANNER_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/* Exit codes: documented in docs/commands.md "Exit codes" and the man page; tests assert them. */
enum exit_code {
	EXIT_OK = 0,		/* done */
	EXIT_CHECK = 1,		/* check over threshold, or demand unplaced under --require-all */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_INPUT = 3,		/* bad input file: one "gpuplan: FILE:LINE[:COL]: ..." line */
	EXIT_SOLVER = 4,	/* the solver found no plan within its limits */
	EXIT_INTERNAL = 5,	/* I/O error, or a plan that failed verification (a bug) */
};

/* The exit codes as the man page lists them. */
struct cli_exit_doc {
	int code;		/* an enum exit_code */
	const char *text;	/* what it means */
};
extern const struct cli_exit_doc cli_exit_docs[];	/* ended by text NULL */

/*
 * Option ids: getopt_long's val.  An option with a short form uses its
 * letter; the others a number above any character.
 */
enum cli_opt_id {
	OPT_HELP = 'h',
	OPT_JOBS = 'j',
	OPT_OUTPUT = 'o',
	OPT_VERBOSE = 'v',
	OPT_MODELS = 256,
	OPT_VERSION,
	OPT_FORMAT,
	OPT_TIME_LIMIT,
	OPT_GAP,
	OPT_NODE_LIMIT,
	OPT_THREADS,
	OPT_GREEDY,
	OPT_EXPORT_MODEL,
	OPT_START,
	OPT_REQUIRE_ALL,
	OPT_DEPLOY,
	OPT_DEPLOY_NAMESPACE,
	OPT_BASELINE,
	OPT_MAX_COST,		/* the check thresholds, in enum rd_limit order */
	OPT_MAX_COST_ABS,
	OPT_MAX_UNPLACED,
	OPT_MAX_UTIL_DROP,
	OPT_MAX_WEIGHTED,
	OPT_FAIL_PRIORITY,
	OPT_FAIL_UNPLACED,
	OPT_TRACE,
	OPT_GENERATE,
	OPT_HOURS,
	OPT_LEASE_HOURS,
	OPT_VERIFY,
	OPT_GPUS,
	OPT_MIG_GEOMETRIES,
	OPT_VGPU,
	OPT_SIZE,
	OPT_SEED,
	OPT_LOAD,
	OPT_SHARD,		/* sweep */
	OPT_SHARDS,
	OPT_COUNT,
	OPT_SLURM,
	OPT_MPI,
	OPT_K8S,
	OPT_IMAGE,
	OPT_PARALLELISM,
	OPT_CLAIM,
	OPT_GPU_ID,
	OPT_NODE,
	OPT_REGION,
	OPT_ACCELERATOR,
	OPT_AS_OF,
	OPT_CPU_CORES,
	OPT_RAM_GIB,
	OPT_PROGRESS,
	OPT_QUIET,
};

/* One option of a command (a row of its table). */
struct cli_option {
	const char *name;	/* long name without "--"; NULL ends a table */
	int id;			/* enum cli_opt_id; < 256: also the short option -<id> */
	const char *arg;	/* the value's name (DIR, csv|json|both: choices), NULL for a flag */
	const char *help;	/* one sentence; '\n' starts a continuation line */
};

/* One command. */
struct cli_command {
	const char *name;	/* "plan"; NULL for gpuplan itself (the global options) */
	const char *summary;	/* one line for the command list */
	const char *synopsis;	/* what follows "gpuplan NAME "; '\n' between alternative forms */
	const char *description;	/* lines, '\n' between; NULL for none */
	const struct cli_option *options;	/* without -h/--help, which every command has */
};

/* The commands, in the order of enum cli_cmd_id. */
enum cli_cmd_id {
	CMD_PLAN,
	CMD_COMPARE,
	CMD_CHECK,
	CMD_DIFF,
	CMD_SIMULATE,
	CMD_VALIDATE,
	CMD_PROFILES,
	CMD_BENCH,
	CMD_IMPORT,
	CMD_MODELS,
	CMD_SWEEP,
	CMD_HELP,
	CMD_COUNT
};

extern const struct cli_command cli_commands[CMD_COUNT];
extern const struct cli_command cli_global;	/* gpuplan's own options */
extern const struct cli_option cli_help_option;	/* -h, --help */
/* The environment variables gpuplan reads, for the man page: name, meaning; ended by NULL. */
extern const char *const cli_environment[];

/* The command named name, or NULL. */
const struct cli_command *cli_command_find(const char *name);
/*
 * Writes c's --help text to f: the synopsis, the description and every
 * option (-h/--help last); for gpuplan itself, the command list too.
 */
void cli_help_write(FILE *f, const struct cli_command *c);
/* "-o, --output DIR" or "    --gap PCT" for o, into buf (size n). */
void cli_option_label(char *buf, size_t n, const struct cli_option *o);

#endif
