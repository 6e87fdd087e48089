/*
 * cmd_help.c - gpuplan's own options (the row of gpuplan itself) and
 * gpuplan help [COMMAND]: what gpuplan --help or gpuplan COMMAND --help
 * prints.
 */
#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "banned.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

/* --version: prints it; gpuplan exits 0. */
static int print_version(const struct cli_option *o, void *args, const char *val)
{
	(void)o;
	(void)args;
	(void)val;
	printf("gpuplan %s\n", GPUPLAN_VERSION);
	return CLI_DONE;
}

#define OFF(f) offsetof(struct cli_global, f)
static const struct cli_option global_options[] = {
	{ "models", 0, "DIR", "read the models (gpus.yaml, licenses.yaml, clouds.yaml) from DIR", .kind = CLI_STRING,
	  .offset = OFF(models_dir) },
	{ "verbose", 'v', NULL, "report the solver's progress and the problem's configurations on stderr",
	  .kind = CLI_FLAG, .offset = OFF(verbose) },
	{ "version", 0, NULL, "print the version and exit", .kind = CLI_SET, .set = print_version },
	{ .name = NULL },
};
#undef OFF

const struct cli_command cli_gpuplan = {
	.name = NULL,
	.summary = "plan GPU clusters and price NVIDIA licensing",
	.synopsis = "[--models DIR] [--verbose] COMMAND [ARGS]\n--version | --help",
	.options = global_options,
	.operands = { .kind = CLI_STOP },
};

int cli_unknown_command(const char *s)
{
	const char *names[32];
	size_t k;

	for (k = 0; cli_commands[k] && k < 31; k++)
		names[k] = cli_commands[k]->name;
	names[k] = NULL;
	return cli_unknown(&cli_gpuplan, "command", s, names);
}

struct help_args {
	const char *command;	/* COMMAND, or NULL */
};

static int cmd_help(int argc, char **argv, const struct cli_global *g)
{
	struct help_args a = { NULL };
	const struct cli_command *c;
	int rc;

	(void)g;
	rc = cli_parse(&cmd_help_entry, argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	c = a.command ? cli_command_find(a.command) : &cli_gpuplan;
	if (!c)
		return cli_unknown_command(a.command);
	cli_help_write(stdout, c);
	return EXIT_OK;
}

static const struct cli_option help_options[] = {
	{ .name = NULL },
};

const struct cli_command cmd_help_entry = {
	.name = "help",
	.run = cmd_help,
	.summary = "print gpuplan's help, or a command's (as COMMAND --help)",
	.synopsis = "[COMMAND]",
	.options = help_options,
	.operands = { CLI_STRING, offsetof(struct help_args, command), 1, "more than one command given", NULL },
};
