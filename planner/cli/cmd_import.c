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

static const char *const usage[] = {
	"usage: gpuplan import openb NODES.csv PODS.csv -o DIR",
	"",
	"  NODES.csv  openb_node_list_gpu_node.csv (sn,cpu_milli,memory_mib,gpu,model)",
	"  PODS.csv   openb_pod_list_*.csv (name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,...)",
	"  -o DIR     write inventory.csv, workloads.csv, gpus-openb.yaml and scenario.yaml into DIR",
	NULL,
};

int cmd_import(int argc, char **argv, const struct cli_global *g)
{
	const char *files[2] = { NULL, NULL }, *out_dir = NULL, *v;
	struct catalog cat = CATALOG_INIT;
	struct openb_out ob;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	int i, r, nf = 0, rc;
	char *path;

	if (argc >= 2 && cli_is_help(argv[1])) {
		cli_usage(stdout, usage);
		return EXIT_OK;
	}
	if (argc < 2)
		return cli_misuse(usage, "no trace format given (openb)");
	if (strcmp(argv[1], "openb"))
		return cli_misuse(usage, "unknown trace format '%s' (known: openb)", argv[1]);
	for (i = 2; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			cli_usage(stdout, usage);
			return EXIT_OK;
		}
		if ((r = cli_opt_value(argc, argv, &i, "-o", &v)) != 0 ||
		    (r = cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "-o needs a directory");
			out_dir = v;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_misuse(usage, "unknown option '%s'", argv[i]);
		} else if (nf < 2) {
			files[nf++] = argv[i];
		} else {
			return cli_misuse(usage, "more than two files given");
		}
	}
	if (nf < 2)
		return cli_misuse(usage, "NODES.csv and PODS.csv are both needed");
	if (!out_dir)
		return cli_misuse(usage, "no -o DIR given");

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
