/*
 * options.h - the command table: every command of gpuplan as one row
 * (struct cli_command, as tmux's cmd_entry and git's command table): its
 * function, its options, its sub-commands and its help, and the exit
 * codes.
 *
 * Each command's row lives in its cmd_<name>.c, next to the options
 * struct its option rows fill; cli_commands[] (options.c) lists them
 * all.  The rows are the whole command-line interface: cli_parse
 * (parse.c) builds getopt_long's arrays from them and stores each value
 * into the command's options struct, --help and gpuplan help print them
 * (options.c), and gpuplan-doc (doc/gpuplan-doc.c) writes the man page
 * and the bash completion from them, so none of these can drift apart.
 */
#ifndef PLANNER_OPTIONS_H
#define PLANNER_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#include "util.h"

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
 * What cli_parse and a setter return besides 0 (go on) and an exit code
 * (a message printed): the command line asked for something that is
 * already done, --help or --version, and the command exits 0.
 */
#define CLI_DONE (-1)

/*
 * How an option's value lands in the command's options struct, at the
 * option row's offset.  Every bad value gets a message in the one usage
 * form (cli_usage) and exit 2.
 */
enum cli_kind {
	CLI_FLAG,	/* int, set to 1; the option takes no value */
	CLI_STRING,	/* const char *: the value (argv's) */
	CLI_LIST,	/* struct cli_list: the value appended (a repeatable option) */
	CLI_DOUBLE,	/* double: a number in range; also whole when the row says so */
	CLI_PERCENT,	/* double: a percentage in range, stored as a fraction (value / 100) */
	CLI_LONG,	/* long: a whole number in range (written as any number: 1e3) */
	CLI_INT,	/* int: as CLI_LONG */
	CLI_COUNT,	/* long: an integer in range, written in digits ("is not a whole number in 1..8") */
	CLI_WORDS,	/* int: the value of the word given, one of the row's words */
	CLI_SET,	/* the row's setter stores it or refuses it */
	CLI_HELP,	/* -h, --help: print the help; the command exits 0 */
	CLI_STOP,	/* operands only: the first one ends parsing (gpuplan's own options) */
};

/* A CLI_LIST value: the strings given, in order (argv's); the command frees v. */
struct cli_list {
	const char **v;
	size_t n;
};

/* One word of a CLI_WORDS option. */
struct cli_word {
	const char *word;	/* NULL ends the list */
	int value;		/* what is stored */
	int alias;		/* another spelling, left out of messages ("md" for markdown) */
};

/* One option of a command: a row of its table. */
struct cli_option {
	const char *name;	/* long name without "--"; NULL ends a table */
	int letter;		/* the short option -<letter>, or 0 */
	const char *arg;	/* the value's name (DIR; csv|json|both: the words), NULL for a flag */
	const char *help;	/* one sentence; '\n' starts a continuation line */
	enum cli_kind kind;	/* how the value is stored */
	size_t offset;		/* where, in the command's options struct */
	struct num_range range;	/* CLI_DOUBLE, CLI_PERCENT, CLI_LONG, CLI_INT, CLI_COUNT */
	int whole;		/* CLI_DOUBLE: must be a whole number */
	const struct cli_word *words;	/* CLI_WORDS */
	/*
	 * CLI_SET: stores val into args (the options struct), or prints why
	 * not; 0, CLI_DONE or an exit code.  o is NULL for operands.
	 */
	int (*set)(const struct cli_option *o, void *args, const char *val);
};

/* Where a command's operands go, and how many it takes. */
struct cli_operands {
	enum cli_kind kind;	/* CLI_STRING (a const char *[max]), CLI_LIST, CLI_SET or CLI_STOP */
	size_t offset;		/* where, in the options struct */
	int max;		/* how many at most (-1: any number); for one more: too_many */
	const char *too_many;	/* the message; NULL: "unknown argument 'X'" */
	int (*set)(const struct cli_option *o, void *args, const char *val);	/* CLI_SET */
};

/*
 * A sub-command: the first operand picks one of a command's rows (as
 * git's OPT_SUBCOMMAND), the operands after it are the sub-command's.
 * The command's options serve every sub-command and may come before the
 * word too.
 */
struct cli_subcommand {
	const char *name;	/* the word ("run"); NULL ends the table */
	int (*run)(void *ctx);	/* its work, given the command's own context */
	const char *synopsis;	/* what follows "gpuplan CMD NAME "; '\n' between forms */
	int max;		/* operands after the word (as cli_operands.max) */
	const char *too_many;	/* as cli_operands.too_many */
};

struct cli_subcommands {
	const struct cli_subcommand *rows;	/* NULL: the command has none */
	size_t offset;		/* int in the options struct: the index of the row given */
	const char *what;	/* "sweep command": "unknown sweep command 'x'" */
	const char *missing;	/* the message when none is given */
};

struct cli_global;

/* One command: a row of the command table. */
struct cli_command {
	const char *name;	/* "plan"; NULL for gpuplan itself (the global options) */
	/* the command: parses argv (cli_parse, argv[0] its name), does its work; the exit code */
	int (*run)(int argc, char **argv, const struct cli_global *g);
	const char *summary;	/* one line for the command list */
	const char *synopsis;	/* what follows "gpuplan NAME "; '\n' between forms; NULL: the sub-commands' */
	const char *description;	/* lines, '\n' between; NULL for none */
	const struct cli_option *options;	/* without -h/--help, which every command has */
	struct cli_operands operands;
	struct cli_subcommands sub;
};

/* The commands, in the order of gpuplan --help; ended by NULL. */
extern const struct cli_command *const cli_commands[];
extern const struct cli_command cli_gpuplan;	/* gpuplan itself: its own options (cmd_help.c) */
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
/*
 * Synopsis form k (from 0) of c into buf (size n), as it follows "gpuplan
 * NAME ": a line of c's synopsis, or "WORD FORM" for a sub-command's form.
 * Returns 0 when c has no form k.
 */
int cli_synopsis_form(const struct cli_command *c, int k, char *buf, size_t n);

#endif
