/*
 * cmd_import.c - gpuplan import openb: the Alibaba openb trace (node list
 * and pod list) as a scenario directory (inventory.csv, workloads.csv,
 * gpus-openb.yaml, scenario.yaml), written all or nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "models.h"
#include "cli.h"
#include "scenario.h"
#include "openb.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

/* The operands and -o DIR; 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, const char **files, const char **out_dir)
{
	static const char *const trace_formats[] = { "openb", NULL };
	const struct cli_command *c = &cli_commands[CMD_IMPORT];
	struct cli_getopt go;
	const char *v;
	int id, npos = 0;

	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		switch (id) {
		case CLI_HELP:
			return 1;
		case OPT_OUTPUT:
			*out_dir = v;
			break;
		case CLI_ARG:
			if (npos == 0 && strcmp(v, "openb"))
				return cli_unknown(c, "trace format", v, trace_formats);
			if (npos == 3)
				return cli_misuse(c, "more than two files given");
			if (npos)
				files[npos - 1] = v;
			npos++;
			break;
		default:
			return EXIT_USAGE;	/* CLI_ERROR: the message is out */
		}
	}
	if (!npos)
		return cli_misuse(c, "no trace format given (openb)");
	if (npos < 3)
		return cli_misuse(c, "NODES.csv and PODS.csv are both needed");
	if (!*out_dir)
		return cli_misuse(c, "no -o DIR given");
	return 0;
}

int cmd_import(int argc, char **argv, const struct cli_global *g)
{
	const char *files[2] = { NULL, NULL }, *out_dir = NULL;
	struct catalog cat = CATALOG_INIT;
	struct openb_out ob;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	int rc;
	char *path;

	rc = parse_args(argc, argv, files, &out_dir);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	rc = catalog_load(&cat, path, 0, &d);
	free(path);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	if (openb_import(files[0], files[1], &cat, &ob, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	outset_init(&os, out_dir);
	outset_add_copy(&os, "inventory.csv", ob.inventory, strlen(ob.inventory));
	outset_add_copy(&os, "workloads.csv", ob.workloads, strlen(ob.workloads));
	outset_add_copy(&os, "gpus-openb.yaml", ob.gpus, strlen(ob.gpus));
	outset_add_copy(&os, "scenario.yaml", ob.scenario, strlen(ob.scenario));
	rc = outset_commit(&os, &d);
	outset_release(&os);
	if (rc) {
		rc = cli_diag(&d);
		openb_out_release(&ob);
		goto out;
	}
	{
		char b[64];
		printf("openb: %ld GPU nodes in %d classes, %ld GPUs (%d user GPU types)\n", ob.nodes, ob.classes,
		       ob.gpus_total, ob.user_types);
		printf("  pods:       %ld read, %ld with GPUs in %d workloads (%s GPUs asked), %ld without GPUs "
		       "skipped\n",
		       ob.pods, ob.pods_gpu, ob.nworkloads, fmt_fixed(b, sizeof(b), ob.gpu_demand, 2),
		       ob.pods - ob.pods_gpu);
		printf("  written:    %s/{inventory.csv,workloads.csv,gpus-openb.yaml,scenario.yaml}\n", out_dir);
	}
	openb_out_release(&ob);
	rc = EXIT_OK;
out:
	catalog_release(&cat);
	diag_release(&d);
	return rc;
}
