/*
 * cmd_profiles.c - gpuplan profiles: the GPU catalog, one GPU's MIG
 * profiles, its maximal MIG geometries, or its vGPU profiles.
 *
 * Phases: parse the command line -> load the catalog (bundled file, then
 * every --gpus file) -> pick the view -> print the text profiles_render
 * (report/profiles.h) builds for it: a table, CSV or JSON.
 */
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
	const char **user_files;	/* every --gpus FILE, in order */
	size_t nuser;
	const char *gpu_name;		/* the GPU operand, or NULL */
	enum profiles_format fmt;	/* --format */
	enum profiles_view view;
};

/* --format with a value that is none of them: EXIT_USAGE after the message. */
static int unknown_format(const char *v)
{
	static const char *const formats[] = { "table", "csv", "json", NULL };
	char *hint = str_hint(v, formats);

	cli_usage("unknown format '%s'%s", v, hint);
	free(hint);
	return EXIT_USAGE;
}

/* One option or operand (id from cli_getopt); 0 to go on, else an exit code. */
static int take(struct profiles_args *a, int id, const char *v, int *geometries, int *vgpu)
{
	const struct cli_command *c = &cli_commands[CMD_PROFILES];

	switch (id) {
	case OPT_MIG_GEOMETRIES:
		*geometries = 1;
		return 0;
	case OPT_VGPU:
		*vgpu = 1;
		return 0;
	case OPT_FORMAT:
		if (!strcmp(v, "table"))
			a->fmt = PROFILES_TABLE;
		else if (!strcmp(v, "csv"))
			a->fmt = PROFILES_CSV;
		else if (!strcmp(v, "json"))
			a->fmt = PROFILES_JSON;
		else
			return unknown_format(v);
		return 0;
	case OPT_GPUS:
		a->user_files[a->nuser++] = v;
		return 0;
	case CLI_ARG:
		if (a->gpu_name)
			return cli_misuse(c, "one GPU type at a time ('%s' and '%s')", a->gpu_name, v);
		a->gpu_name = v;
		return 0;
	default:
		return EXIT_USAGE;	/* CLI_ERROR: the message is out */
	}
}

/* 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct profiles_args *a)
{
	const struct cli_command *c = &cli_commands[CMD_PROFILES];
	int geometries = 0, vgpu = 0, id, rc;
	struct cli_getopt go;
	const char *v;

	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		if (id == CLI_HELP)
			return 1;
		rc = take(a, id, v, &geometries, &vgpu);
		if (rc)
			return rc;
	}
	if (geometries && vgpu)
		return cli_misuse(c, "--mig-geometries and --vgpu cannot be combined");
	if (!a->gpu_name && (geometries || vgpu))
		return cli_misuse(c, "%s needs a GPU type", geometries ? "--mig-geometries" : "--vgpu");
	if (!a->gpu_name)
		a->view = PROFILES_TYPES;
	else if (geometries)
		a->view = PROFILES_GEOMETRIES;
	else if (vgpu)
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
	for (k = 0; !rc && k < a->nuser; k++)
		if (catalog_load(cat, a->user_files[k], 1, &d))
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
int cmd_profiles(int argc, char **argv, const struct cli_global *g)
{
	struct catalog cat = CATALOG_INIT;
	struct profiles_args a;
	const struct gpu_type *gpu = NULL;
	char *text;
	int rc;

	memset(&a, 0, sizeof(a));
	a.user_files = xcalloc((size_t)argc + 1, sizeof(*a.user_files));
	a.fmt = PROFILES_TABLE;
	rc = parse_args(argc, argv, &a);
	if (rc) {
		rc = rc == 1 ? EXIT_OK : rc;
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
	free(a.user_files);
	return rc;
}
