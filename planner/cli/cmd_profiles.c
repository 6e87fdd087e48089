/*
 * cmd_profiles.c - gpuplan profiles: the GPU catalog, one GPU's MIG
 * profiles, its maximal MIG geometries, or its vGPU profiles.
 *
 * Phases: parse the command line -> load the catalog (bundled file, then
 * every --gpus file) -> pick the view -> print the text profiles_render
 * (report/profiles.h) builds for it: a table, CSV or JSON.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "cli.h"
#include "models.h"
#include "profiles.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

struct profiles_args {
	struct cli_list user_files;	/* every --gpus FILE, in order */
	const char *gpu_name;		/* the GPU operand, or NULL */
	enum profiles_format fmt;	/* --format */
	enum profiles_view view;
	int geometries, vgpu;		/* --mig-geometries, --vgpu */
};

/* --format table|csv|json; "unknown format 'x'" with the nearest names. */
static int set_format(const struct cli_option *o, void *args, const char *v)
{
	static const char *const formats[] = { "table", "csv", "json", NULL };
	static const enum profiles_format values[] = { PROFILES_TABLE, PROFILES_CSV, PROFILES_JSON };
	char *hint;
	size_t k;

	(void)o;
	for (k = 0; formats[k]; k++)
		if (!strcmp(formats[k], v)) {
			((struct profiles_args *)args)->fmt = values[k];
			return 0;
		}
	hint = str_hint(v, formats);
	cli_usage("unknown format '%s'%s", v, hint);
	free(hint);
	return EXIT_USAGE;
}

/* The GPU operand: one at a time. */
static int set_gpu(const struct cli_option *o, void *args, const char *v)
{
	struct profiles_args *a = args;

	(void)o;
	if (a->gpu_name)
		return cli_misuse(&cmd_profiles_entry, "one GPU type at a time ('%s' and '%s')", a->gpu_name, v);
	a->gpu_name = v;
	return 0;
}

#define OFF(f) offsetof(struct profiles_args, f)
static const struct cli_option profiles_options[] = {
	{ "mig-geometries", 0, NULL, "every valid maximal MIG geometry of GPU, one per line", .kind = CLI_FLAG,
	  .offset = OFF(geometries) },
	{ "vgpu", 0, NULL, "the GPU's vGPU C-series and MIG-backed vGPU profiles", .kind = CLI_FLAG, .offset = OFF(vgpu) },
	{ "gpus", 0, "FILE", "also load GPU types from FILE (gpus.yaml format; repeatable)", .kind = CLI_LIST,
	  .offset = OFF(user_files) },
	{ "format", 0, "table|csv|json", "table (default), csv or json", .kind = CLI_SET, .set = set_format },
	{ .name = NULL },
};
#undef OFF

/* The command line into a and the view it asks for: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct profiles_args *a)
{
	const struct cli_command *c = &cmd_profiles_entry;
	int rc = cli_parse(c, argc, argv, a);

	if (rc)
		return rc;
	if (a->geometries && a->vgpu)
		return cli_misuse(c, "--mig-geometries and --vgpu cannot be combined");
	if (!a->gpu_name && (a->geometries || a->vgpu))
		return cli_misuse(c, "%s needs a GPU type", a->geometries ? "--mig-geometries" : "--vgpu");
	if (!a->gpu_name)
		a->view = PROFILES_TYPES;
	else if (a->geometries)
		a->view = PROFILES_GEOMETRIES;
	else if (a->vgpu)
		a->view = PROFILES_VGPU;
	else
		a->view = PROFILES_MIG;
	return 0;
}

/* Loads the bundled catalog and every --gpus file; 0 or an exit code. */
static int load_catalog(struct catalog *cat, const struct profiles_args *a, const struct cli_global *g)
{
	struct diag d = DIAG_INIT;
	char *path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	int rc = 0;
	size_t k;

	if (catalog_load(cat, path, 0, &d))
		rc = cli_diag(&d);
	for (k = 0; !rc && k < a->user_files.n; k++)
		if (catalog_load(cat, a->user_files.v[k], 1, &d))
			rc = cli_diag(&d);
	diag_release(&d);
	free(path);
	return rc;
}

/*
 * gpuplan profiles [--gpus FILE]... [--format FMT] [GPU [--mig-geometries | --vgpu]]:
 * argv[0] is "profiles".  Prints one view to stdout and returns an exit
 * code: EXIT_OK (also for a GPU without MIG or vGPU), EXIT_USAGE,
 * EXIT_INPUT for an unknown GPU or a bad catalog file.
 */
static int cmd_profiles(int argc, char **argv, const struct cli_global *g)
{
	struct catalog cat = CATALOG_INIT;
	struct profiles_args a;
	const struct gpu_type *gpu = NULL;
	char *text;
	int rc;

	memset(&a, 0, sizeof(a));
	a.fmt = PROFILES_TABLE;
	rc = parse_args(argc, argv, &a);
	if (rc) {
		rc = cli_exit_code(rc);
		goto out;
	}
	rc = load_catalog(&cat, &a, g);
	if (rc)
		goto out;
	if (a.view != PROFILES_TYPES) {
		gpu = catalog_find(&cat, a.gpu_name);
		if (!gpu) {
			char *hint = catalog_hint(&cat, a.gpu_name);
			rc = cli_error(EXIT_INPUT, "unknown GPU type '%s'%s", a.gpu_name,
				       *hint ? hint : " (run 'gpuplan profiles' for the list)");
			free(hint);
			goto out;
		}
	}
	text = profiles_render(&cat, gpu, a.view, a.fmt);
	if (!text) {
		rc = cli_error(EXIT_INTERNAL, "cannot format JSON");
		goto out;
	}
	fputs(text, stdout);
	free(text);
out:
	catalog_release(&cat);
	free(a.user_files.v);
	return rc;
}

const struct cli_command cmd_profiles_entry = {
	.name = "profiles",
	.run = cmd_profiles,
	.summary = "list GPU types, MIG profiles and geometries, vGPU profiles",
	.synopsis = "[--gpus FILE]... [--format table|csv|json]\n"
		    "[--gpus FILE]... [--format table|csv|json] GPU [--mig-geometries | --vgpu]",
	.description = "without GPU, lists the GPU types; with GPU, the GPU's MIG GPU-instance profiles and\n"
		       "their placements (or, with an option below, its MIG geometries or vGPU profiles)",
	.options = profiles_options,
	.operands = { CLI_SET, 0, -1, NULL, set_gpu },
};
