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

static const char *const usage[] = {
	"usage: gpuplan bench gen --size S|M|L|XL [--seed N] [--load X] -o DIR",
	"",
	"  --size S|M|L|XL  S 100 GPUs / 500 replicas, M 1,000 / 5,000,",
	"                   L 8,000 GPUs in 40 node classes / 20,000 replicas in 200 workloads,",
	"                   XL 20,000 / 100,000",
	"  --seed N         the random seed, 0..2^63-1 (default 1)",
	"  --load X         asked GPU-equivalents per GPU, in (0, 2] (default: the size's, see README)",
	"  -o DIR           write inventory.csv, workloads.csv and scenario.yaml into DIR",
	NULL,
};

static int cmd_bench_gen(int argc, char **argv, const struct cli_global *g)
{
	const char *out_dir = NULL, *v;
	int size = -1, i, r, rc;
	long long seed = 1;
	double load = 0;
	struct catalog cat = CATALOG_INIT;
	struct gen_out go;
	struct diag d = DIAG_INIT;
	char *path;

	for (i = 1; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			cli_usage(stdout, usage);
			return EXIT_OK;
		}
		if ((r = cli_opt_value(argc, argv, &i, "--size", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--size needs S, M, L or XL");
			size = gen_size_parse(v);
			if (size < 0)
				return cli_misuse(usage, "--size: '%s' is not S, M, L or XL", v);
		} else if ((r = cli_opt_value(argc, argv, &i, "--seed", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--seed needs a number");
			if (parse_llong(v, &seed) || seed < 0)
				return cli_misuse(usage, "--seed: '%s' is not a whole number >= 0", v);
		} else if ((r = cli_opt_value(argc, argv, &i, "--load", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--load needs a number");
			if (cli_parse_num("--load", v, 0, 1, 2, 0, &load))
				return EXIT_USAGE;
		} else if ((r = cli_opt_value(argc, argv, &i, "-o", &v)) != 0 ||
			   (r = cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "-o needs a directory");
			out_dir = v;
		} else {
			return cli_misuse(usage, "unknown argument '%s'", argv[i]);
		}
	}
	if (size < 0)
		return cli_misuse(usage, "no --size given");
	if (!out_dir)
		return cli_misuse(usage, "no -o DIR given");

	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	rc = catalog_load(&cat, path, 0, &d);
	free(path);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	if (gen_generate((enum gen_size)size, (unsigned long long)seed, load, &cat, &go, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	{
		struct outset os = OUTSET_INIT;
		char b[64];
		outset_init(&os, out_dir);
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
		       gen_spec((enum gen_size)size)->name, seed, go.classes, go.gpus, go.nworkloads, go.replicas,
		       fmt_fixed(b, sizeof(b), go.gpu_equiv, 2));
		printf("  written:    %s/{inventory.csv,workloads.csv,scenario.yaml}\n", out_dir);
	}
	gen_out_release(&go);
	rc = EXIT_OK;
out:
	catalog_release(&cat);
	diag_release(&d);
	return rc;
}

static const char *const bench_usage[] = {
	"usage: gpuplan bench gen --size S|M|L|XL [--seed N] [--load X] -o DIR",
	"",
	"The benchmark itself is bench/run.sh (README \"Benchmarks\").",
	NULL,
};

int cmd_bench(int argc, char **argv, const struct cli_global *g)
{
	if (argc < 2)
		return cli_misuse(bench_usage, "no bench command given");
	if (cli_is_help(argv[1])) {
		cli_usage(stdout, bench_usage);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "gen"))
		return cmd_bench_gen(argc - 1, argv + 1, g);
	return cli_misuse(bench_usage, "unknown bench command '%s'", argv[1]);
}
