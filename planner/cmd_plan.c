/*
 * cmd_plan.c - placeholder until the command lands.
 */
#include "cli.h"

int cmd_plan(int argc, char **argv, const struct cli_global *g)
{
	(void)argc;
	(void)argv;
	(void)g;
	return cli_error(EXIT_INTERNAL, "'plan' is not implemented yet");
}
