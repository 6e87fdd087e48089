/*
 * cmd_profiles.c - placeholder until the command lands.
 */
#include "cli.h"

int cmd_profiles(int argc, char **argv, const struct cli_global *g)
{
	(void)argc;
	(void)argv;
	(void)g;
	return cli_error(EXIT_INTERNAL, "'profiles' is not implemented yet");
}
