/*
 * cmd_models.c - gpuplan models check: loads every model table of a
 * models directory (gpus.yaml, licenses.yaml, clouds.yaml) with the
 * loaders' checks, checks the catalog as a whole (models_check_catalog),
 * and prints the age of each price table.  Exit 0 when consistent, 3 on
 * the first error (nothing on stdout then).
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cli.h"
#include "cloud.h"
#include "date.h"
#include "license.h"
#include "models.h"
#include "scenario.h"
#include "banned.h"

/* The dates of one price table. */
struct table_age {
	size_t n, assumed, stale;
	long long oldest, newest;
};

static void add_price(struct table_age *a, long long as_of, int assumed, long long today)
{
	if (!a->n || as_of < a->oldest)
		a->oldest = as_of;
	if (!a->n || as_of > a->newest)
		a->newest = as_of;
	a->n++;
	a->assumed += assumed != 0;
	a->stale += cli_price_stale(as_of, today);
}

/* "  licenses.yaml:  8 prices as of 2020-06-25 .. 2026-09-02, 1 assumed, 1 older than 12 months" */
static void print_age(const char *file, const struct table_age *a)
{
	char d1[DATE_TEXT_SIZE], d2[DATE_TEXT_SIZE];
	printf("  %-15s ", file);
	if (!a->n) {
		printf("no prices\n");
		return;
	}
	printf("%zu price%s as of %s .. %s, %zu assumed, %zu older than %d months\n", a->n, a->n == 1 ? "" : "s",
	       date_format(d1, sizeof(d1), a->oldest), date_format(d2, sizeof(d2), a->newest), a->assumed, a->stale,
	       CLI_PRICE_MAX_MONTHS);
}

/*
 * Where each GPU type's usable memory and (MIG GPUs) SM figures come from:
 *   "  H100-SXM5-80GB  memory 81559 MiB, read (driver 590.48.01): SOURCE"
 *   "                  SMs 132, read: SOURCE" or "SMs assumed (...): SOURCE"
 * then the counts of assumed figures.
 */
static void print_sources(const struct catalog *cat)
{
	size_t i, nmem = 0, nsm = 0, nmig = 0;

	printf("  where the figures come from (usable memory as the driver reports it; SMs of the MIG compute "
	       "shares):\n");
	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		printf("    %-17s memory %ld MiB, ", g->id, g->memory_mib);
		if (g->memory_assumed)
			printf("assumed (nominal, no driver read)");
		else
			printf("read (driver %s)", g->memory_driver ? g->memory_driver : "not stated");
		printf(": %s\n", g->memory_source ? g->memory_source : "no source given");
		nmem += g->memory_assumed != 0;
		if (!g->has_mig)
			continue;
		nmig++;
		nsm += g->sms_assumed != 0;
		printf("    %-17s SMs ", "");
		if (g->sms)
			printf("%d", g->sms);
		else
			printf("unknown");
		printf(", %s: %s\n", g->sms_assumed ? "assumed" : "read",
		       g->sms_source ? g->sms_source : "no SM count read, every compute share is slices / compute slices");
	}
	printf("  assumed: %zu of %zu memory figures, SM figures of %zu of %zu MIG GPU types\n", nmem, cat->n, nsm,
	       nmig);
}

struct models_args {
	const char *dir;	/* --models DIR, or NULL */
	int check;		/* the word "check" was given */
};

/*
 * The operands: the word check, then nothing.  Not a sub-command table:
 * its one word is refused without a list of the near ones.
 */
static int set_word(const struct cli_option *o, void *args, const char *v)
{
	struct models_args *a = args;

	(void)o;
	if (a->check)
		return cli_misuse(&cmd_models_entry, "unknown argument '%s'", v);
	if (strcmp(v, "check"))
		return cli_misuse(&cmd_models_entry, "unknown models command '%s'", v);
	a->check = 1;
	return 0;
}

static const struct cli_option models_options[] = {
	{ "models", 0, "DIR", "check the models in DIR (default: as gpuplan --models finds them)", .kind = CLI_STRING,
	  .offset = offsetof(struct models_args, dir) },
	{ .name = NULL },
};

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct models_args *a)
{
	int rc = cli_parse(&cmd_models_entry, argc, argv, a);

	if (rc)
		return rc;
	if (!a->check)
		return cli_misuse(&cmd_models_entry, "no models command given");
	return 0;
}

static int cmd_models(int argc, char **argv, const struct cli_global *g)
{
	struct catalog cat = CATALOG_INIT;
	struct licenses L;
	struct clouds cl;
	struct diag d = DIAG_INIT;
	struct table_age la = { 0, 0, 0, 0, 0 }, ca = { 0, 0, 0, 0, 0 };
	struct models_args a = { NULL, 0 };
	const char *dir = g->models_dir;
	char *gpus = NULL, *lic = NULL, *clouds = NULL;
	long long today;
	size_t i, j, nmig = 0, nvgpu = 0;
	int rc;

	memset(&L, 0, sizeof(L));
	memset(&cl, 0, sizeof(cl));
	rc = parse_args(argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	if (a.dir)
		dir = a.dir;
	if (cli_today(&today))
		return EXIT_USAGE;
	dir = models_dir_or_default(dir);
	gpus = xasprintf("%s/gpus.yaml", dir);
	lic = xasprintf("%s/licenses.yaml", dir);
	clouds = xasprintf("%s/clouds.yaml", dir);
	if (catalog_load(&cat, gpus, 0, &d) || models_check_catalog(&cat, &d) || licenses_load(&L, lic, &cat, &d) ||
	    clouds_load(&cl, clouds, &cat, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	for (i = 0; i < cat.n; i++) {
		nmig += cat.gpus[i].has_mig != 0;
		nvgpu += cat.gpus[i].has_vgpu != 0;
	}
	for (i = 1; i < LIC_COUNT; i++)
		for (j = 0; j < L.product[i].nterms; j++)
			add_price(&la, L.product[i].terms[j].as_of, L.product[i].terms[j].assumed, today);
	for (i = 0; i < cl.n; i++)
		add_price(&ca, cl.offers[i].as_of, cl.offers[i].assumed, today);
	{
		char d1[DATE_TEXT_SIZE];
		printf("models %s: consistent (price ages from %s)\n", dir, date_format(d1, sizeof(d1), today));
	}
	printf("  %-15s %zu GPU types, %zu with MIG, %zu with vGPU\n", "gpus.yaml:", cat.n, nmig, nvgpu);
	print_age("licenses.yaml:", &la);
	print_age("clouds.yaml:", &ca);
	print_sources(&cat);
	rc = EXIT_OK;
out:
	licenses_release(&L);
	clouds_release(&cl);
	catalog_release(&cat);
	diag_release(&d);
	free(gpus);
	free(lic);
	free(clouds);
	return rc;
}

const struct cli_command cmd_models_entry = {
	.name = "models",
	.run = cmd_models,
	.summary = "check the model tables and show the age of their prices",
	.synopsis = "check [--models DIR]",
	.description = "check loads gpus.yaml, licenses.yaml and clouds.yaml with every check the planner makes,\n"
		       "checks each GPU's MIG and vGPU tables as a whole, and prints per price table its number of\n"
		       "prices, the oldest and newest as_of, how many are assumed and how many are older than 12\n"
		       "months (from today, or $GPUPLAN_TODAY); exit 0 when consistent, 3 on the first error",
	.options = models_options,
	.operands = { CLI_SET, 0, -1, NULL, set_word },
};
