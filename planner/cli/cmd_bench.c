/*
 * cmd_bench.c - gpuplan bench gen: writes a synthetic scenario of a
 * given size (inventory.csv, workloads.csv, scenario.yaml) for the
 * benchmark (bench/run.sh).  The same size and seed give the same bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "models.h"
#include "cli.h"
#include "scenario.h"
#include "gen.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

struct bench_args {
	const char *out_dir;	/* -o DIR */
	int size;		/* enum gen_size, -1 until --size */
	long long seed;		/* --seed N (default 1) */
	double load;		/* --load X, 0: the size's */
};

/* One option (id from cli_getopt); 0 to go on, else an exit code. */
static int take_option(struct bench_args *a, int id, const char *v)
{
	switch (id) {
	case OPT_SIZE:
		a->size = gen_size_parse(v);
		if (a->size < 0)
			return cli_usage("--size: '%s' is not S, M, L or XL", v);
		return 0;
	case OPT_SEED:
		if (parse_llong(v, &a->seed) || a->seed < 0)
			return cli_usage("--seed: '%s' is not a whole number >= 0", v);
		return 0;
	case OPT_LOAD:
		return cli_parse_num("--load", v, (struct num_range){ 0, 2, RANGE_LO_OPEN }, &a->load) ? EXIT_USAGE : 0;
	case OPT_OUTPUT:
		a->out_dir = v;
		return 0;
	default:
		return EXIT_USAGE;	/* CLI_ERROR: the message is out */
	}
}

/* "gen" and its options; 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
	static const char *const bench_commands[] = { "gen", NULL };
	const struct cli_command *c = &cli_commands[CMD_BENCH];
	struct cli_getopt go;
	const char *v;
	int id, rc, gen = 0;

	a->out_dir = NULL;
	a->size = -1;
	a->seed = 1;
	a->load = 0;
	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		if (id == CLI_HELP)
			return 1;
		if (id == CLI_ARG && !gen) {
			if (strcmp(v, "gen"))
				return cli_unknown(c, "bench command", v, bench_commands);
			gen = 1;
			continue;
		}
		if (id == CLI_ARG)
			return cli_misuse(c, "unknown argument '%s'", v);
		rc = take_option(a, id, v);
		if (rc)
			return rc;
	}
	if (!gen)
		return cli_misuse(c, "no bench command given");
	if (a->size < 0)
		return cli_misuse(c, "no --size given");
	if (!a->out_dir)
		return cli_misuse(c, "no -o DIR given");
	return 0;
}

int cmd_bench(int argc, char **argv, const struct cli_global *g)
{
	struct bench_args a;
	struct catalog cat = CATALOG_INIT;
	struct gen_out go;
	struct diag d = DIAG_INIT;
	char *path;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	rc = catalog_load(&cat, path, 0, &d);
	free(path);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	if (gen_generate((enum gen_size)a.size, (unsigned long long)a.seed, a.load, &cat, &go, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	{
		struct outset os = OUTSET_INIT;
		char b[64];
		outset_init(&os, a.out_dir);
		outset_add_copy(&os, "inventory.csv", go.inventory, strlen(go.inventory));
		outset_add_copy(&os, "workloads.csv", go.workloads, strlen(go.workloads));
		outset_add_copy(&os, "scenario.yaml", go.scenario, strlen(go.scenario));
		rc = outset_commit(&os, &d);
		outset_release(&os);
		if (rc) {
			rc = cli_diag(&d);
			gen_out_release(&go);
			goto out;
		}
		printf("bench-%s-s%lld: %d node classes, %ld GPUs; %d workloads, %ld replicas, %s GPU-equivalents "
		       "asked\n",
		       gen_spec((enum gen_size)a.size)->name, a.seed, go.classes, go.gpus, go.nworkloads, go.replicas,
		       fmt_fixed(b, sizeof(b), go.gpu_equiv, 2));
		printf("  written:    %s/{inventory.csv,workloads.csv,scenario.yaml}\n", a.out_dir);
	}
	gen_out_release(&go);
	rc = EXIT_OK;
out:
	catalog_release(&cat);
	diag_release(&d);
	return rc;
}

