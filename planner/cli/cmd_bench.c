/*
 * cmd_bench.c - gpuplan bench gen: writes a synthetic scenario of a
 * given size (inventory.csv, workloads.csv, scenario.yaml) for the
 * benchmark (bench/run.sh).  The same size and seed give the same bytes.
 */
#include <stddef.h>
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
	int command;		/* the sub-command: 0, gen */
	const char *out_dir;	/* -o DIR */
	int size;		/* enum gen_size, -1 until --size */
	long long seed;		/* --seed N (default 1) */
	double load;		/* --load X, 0: the size's */
	const struct cli_global *g;
};

static int set_size(const struct cli_option *o, void *args, const char *v)
{
	struct bench_args *a = args;

	(void)o;
	a->size = gen_size_parse(v);
	if (a->size < 0)
		return cli_usage("--size: '%s' is not S, M, L or XL", v);
	return 0;
}

static int set_seed(const struct cli_option *o, void *args, const char *v)
{
	struct bench_args *a = args;

	(void)o;
	if (parse_llong(v, &a->seed) || a->seed < 0)
		return cli_usage("--seed: '%s' is not a whole number >= 0", v);
	return 0;
}

#define OFF(f) offsetof(struct bench_args, f)
static const struct cli_option bench_options[] = {
	{ "size", 0, "S|M|L|XL",
	  "S 100 GPUs / 500 replicas, M 1,000 / 5,000,\n"
	  "L 8,000 GPUs in 40 node classes / 20,000 replicas in 200 workloads,\n"
	  "XL 20,000 / 100,000", .kind = CLI_SET, .set = set_size },
	{ "seed", 0, "N", "the random seed, 0..2^63-1 (default 1)", .kind = CLI_SET, .set = set_seed },
	{ "load", 0, "X", "asked GPU-equivalents per GPU, in (0, 2] (default: the size's, see docs/benchmarks.md)",
	  .kind = CLI_DOUBLE, .offset = OFF(load), .range = { 0, 2, RANGE_LO_OPEN } },
	{ "output", 'o', "DIR", "write inventory.csv, workloads.csv and scenario.yaml into DIR", .kind = CLI_STRING,
	  .offset = OFF(out_dir) },
	{ .name = NULL },
};
#undef OFF

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
	const struct cli_command *c = &cmd_bench_entry;
	int rc;

	a->out_dir = NULL;
	a->size = -1;
	a->seed = 1;
	a->load = 0;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (a->size < 0)
		return cli_misuse(c, "no --size given");
	if (!a->out_dir)
		return cli_misuse(c, "no -o DIR given");
	return 0;
}

/* bench gen: the scenario of --size, --seed and --load, written to -o DIR. */
static int bench_gen(void *ctx)
{
	const struct bench_args a = *(const struct bench_args *)ctx;
	struct catalog cat = CATALOG_INIT;
	struct gen_out go;
	struct diag d = DIAG_INIT;
	char *path;
	int rc;

	path = xasprintf("%s/gpus.yaml", models_dir_or_default(a.g->models_dir));
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


static int cmd_bench(int argc, char **argv, const struct cli_global *g)
{
	struct bench_args a;
	int rc;

	memset(&a, 0, sizeof(a));
	a.g = g;
	rc = parse_args(argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	return cmd_bench_entry.sub.rows[a.command].run(&a);
}

static const struct cli_subcommand bench_commands[] = {
	{ "gen", bench_gen, "--size S|M|L|XL [--seed N] [--load X] -o DIR", 0, NULL },
	{ .name = NULL },
};

const struct cli_command cmd_bench_entry = {
	.name = "bench",
	.run = cmd_bench,
	.summary = "generate synthetic benchmark scenarios (bench/run.sh runs the benchmark)",
	.description = "gen writes a synthetic scenario of the given size: inventory.csv, workloads.csv and\n"
		       "scenario.yaml; the benchmark itself is bench/run.sh (docs/benchmarks.md)",
	.options = bench_options,
	.sub = { bench_commands, offsetof(struct bench_args, command), "bench command", "no bench command given" },
};
