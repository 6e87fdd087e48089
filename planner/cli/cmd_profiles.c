/*
 * cmd_profiles.c - gpuplan profiles: the GPU catalog, one GPU's MIG
 * profiles, its maximal MIG geometries, or its vGPU profiles.
 *
 * Phases: parse the command line -> load the catalog (bundled file, then
 * every --gpus file) -> pick the view -> print it as a table, CSV or
 * JSON.  Every view is built as data first (a grid of cells, or a cJSON
 * tree) and printed in one place, so the three formats show the same
 * rows in the same order: catalog order for types and profiles, the
 * order of mig_geometries() for geometries.  Only integers and strings
 * are printed, so the output does not depend on the locale.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "catalog.h"
#include "models.h"
#include "cli.h"
#include "scenario.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

static const char *const usage[] = {
	"usage: gpuplan profiles [--gpus FILE]... [--format table|csv|json]",
	"       gpuplan profiles [--gpus FILE]... [--format table|csv|json] GPU [--mig-geometries | --vgpu]",
	"",
	"  (no GPU)            list the GPU types",
	"  GPU                 the GPU's MIG GPU-instance profiles and their placements",
	"  --mig-geometries    every valid maximal MIG geometry of GPU, one per line",
	"  --vgpu              the GPU's vGPU C-series and MIG-backed vGPU profiles",
	"  --gpus FILE         also load GPU types from FILE (gpus.yaml format; repeatable)",
	"  --format FMT        table (default), csv or json",
	NULL,
};

enum out_format {
	FMT_TABLE,
	FMT_CSV,
	FMT_JSON,
};

enum view {
	VIEW_TYPES,		/* no GPU given */
	VIEW_MIG,		/* GPU */
	VIEW_GEOMETRIES,	/* GPU --mig-geometries */
	VIEW_VGPU,		/* GPU --vgpu */
};

/* ======================= grids: table and CSV ======================= */

/*
 * A grid of cells with a header.  In table format the header is printed
 * upper-case, columns are padded to their widest cell (numbers right-
 * aligned) and separated by two spaces, with no trailing blanks.  In CSV
 * the header is printed as given and cells are quoted per RFC 4180 when
 * they hold a comma, a quote or a line break.
 */
struct grid {
	int ncols;
	const char *const *head;	/* ncols column names, snake_case */
	const char *align;		/* ncols letters: 'l' or 'r' */
	size_t ncells;
	size_t cap;
	char **cells;			/* row-major, owned */
};

static void grid_init(struct grid *g, const char *const *head, const char *align)
{
	memset(g, 0, sizeof(*g));
	g->ncols = (int)strlen(align);
	g->head = head;
	g->align = align;
}

static void grid_release(struct grid *g)
{
	size_t i;
	for (i = 0; i < g->ncells; i++)
		free(g->cells[i]);
	free(g->cells);
	g->cells = NULL;
	g->ncells = g->cap = 0;
}

/* Appends the next cell (rows fill left to right). */
static void grid_cell(struct grid *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void grid_cell(struct grid *g, const char *fmt, ...)
{
	va_list ap;
	XGROW(g->cells, g->cap, g->ncells + 1);
	va_start(ap, fmt);
	g->cells[g->ncells++] = xvasprintf(fmt, ap);
	va_end(ap);
}

static void print_padded(const char *s, size_t width, char align, int last)
{
	size_t len = strlen(s);
	if (align == 'r')
		printf("%*s%s", (int)(width - len), "", s);
	else if (last)
		fputs(s, stdout);
	else
		printf("%s%*s", s, (int)(width - len), "");
}

static void grid_print_table(const struct grid *g)
{
	size_t width[16] = { 0 };
	size_t nrows = g->ncells / (size_t)g->ncols, r;
	int c;

	for (c = 0; c < g->ncols && c < 16; c++) {
		width[c] = strlen(g->head[c]);
		for (r = 0; r < nrows; r++) {
			size_t len = strlen(g->cells[r * (size_t)g->ncols + (size_t)c]);
			if (len > width[c])
				width[c] = len;
		}
	}
	for (c = 0; c < g->ncols; c++) {
		char *up = xstrdup(g->head[c]);
		char *p;
		for (p = up; *p; p++)
			if (*p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
		if (c)
			fputs("  ", stdout);
		print_padded(up, width[c], g->align[c], c == g->ncols - 1);
		free(up);
	}
	putchar('\n');
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			if (c)
				fputs("  ", stdout);
			print_padded(g->cells[r * (size_t)g->ncols + (size_t)c], width[c], g->align[c],
				     c == g->ncols - 1);
		}
		putchar('\n');
	}
}

static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void grid_print_csv(const struct grid *g)
{
	size_t i;
	int c;

	for (c = 0; c < g->ncols; c++) {
		if (c)
			putchar(',');
		csv_field(g->head[c]);
	}
	putchar('\n');
	for (i = 0; i < g->ncells; i++) {
		if (i % (size_t)g->ncols)
			putchar(',');
		csv_field(g->cells[i]);
		if (i % (size_t)g->ncols == (size_t)g->ncols - 1)
			putchar('\n');
	}
}

static void grid_print(const struct grid *g, enum out_format f)
{
	if (f == FMT_CSV)
		grid_print_csv(g);
	else
		grid_print_table(g);
}

/* ======================= JSON ======================= */

/* Prints a tree and frees it; allocation failure aborts (xmalloc hooks). */
static int json_print(cJSON *root)
{
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		return cli_error(EXIT_INTERNAL, "cannot format JSON");
	fputs(s, stdout);
	putchar('\n');
	cJSON_free(s);
	return EXIT_OK;
}

static void json_int(cJSON *obj, const char *key, long v)
{
	cJSON_AddItemToObject(obj, key, cJSON_CreateNumber((double)v));
}

/* ======================= shared text ======================= */

/* "{0,2,4,6}:2", as nvidia-smi mig -lgipp prints placements; caller frees. */
static char *placements_text(const struct mig_profile *p)
{
	char *starts = catalog_mig_starts(p);
	char *out = xasprintf("%s:%d", starts, p->memory_slices);
	free(starts);
	return out;
}

/* Memory in GiB: whole when exact, else two decimals (integer arithmetic). */
static char *gib_text(long mib)
{
	if (mib % 1024 == 0)
		return xasprintf("%ld GiB", mib / 1024);
	return xasprintf("%ld.%02ld GiB", mib / 1024, (mib % 1024) * 100 / 1024);
}

/* ======================= views ======================= */

static int view_types(const struct catalog *cat, enum out_format f)
{
	static const char *const head[] = { "gpu", "memory", "mig", "vgpu_c", "mig_backed", "aliases" };
	static const char *const csv_head[] = { "id", "memory_mib", "mig", "mig_profiles", "vgpu_c",
						"mig_backed", "aliases" };
	struct grid g;
	size_t i, j;

	if (f == FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "gpus");
		for (i = 0; i < cat->n; i++) {
			const struct gpu_type *t = &cat->gpus[i];
			cJSON *o = cJSON_CreateObject(), *al = cJSON_CreateArray();
			cJSON_AddItemToArray(list, o);
			cJSON_AddStringToObject(o, "id", t->id);
			for (j = 0; j < t->naliases; j++)
				cJSON_AddItemToArray(al, cJSON_CreateString(t->aliases[j]));
			cJSON_AddItemToObject(o, "aliases", al);
			json_int(o, "memory_mib", t->memory_mib);
			cJSON_AddBoolToObject(o, "mig", t->has_mig);
			json_int(o, "mig_profiles", (long)t->mig.nprofiles);
			json_int(o, "vgpu_c", (long)t->vgpu.nprofiles);
			json_int(o, "mig_backed", (long)t->vgpu.nmig);
		}
		return json_print(root);
	}
	if (f == FMT_CSV)
		grid_init(&g, csv_head, "lrlrrrl");
	else
		grid_init(&g, head, "lrlrrl");
	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *t = &cat->gpus[i];
		struct sb al;
		sb_init(&al);
		for (j = 0; j < t->naliases; j++) {
			if (j)
				sb_adds(&al, f == FMT_CSV ? ";" : ", ");
			sb_adds(&al, t->aliases[j]);
		}
		grid_cell(&g, "%s", t->id);
		if (f == FMT_CSV) {
			grid_cell(&g, "%ld", t->memory_mib);
			grid_cell(&g, "%s", t->has_mig ? "yes" : "no");
			grid_cell(&g, "%zu", t->mig.nprofiles);
		} else {
			XGROW(g.cells, g.cap, g.ncells + 1);
			g.cells[g.ncells++] = gib_text(t->memory_mib);
			if (t->has_mig)
				grid_cell(&g, "yes (%zu)", t->mig.nprofiles);
			else
				grid_cell(&g, "no");
		}
		grid_cell(&g, "%zu", t->vgpu.nprofiles);
		grid_cell(&g, "%zu", t->vgpu.nmig);
		grid_cell(&g, "%s", al.len || f == FMT_CSV ? al.buf : "-");
		sb_release(&al);
	}
	grid_print(&g, f);
	grid_release(&g);
	return EXIT_OK;
}

static int view_mig(const struct gpu_type *t, enum out_format f)
{
	static const char *const head[] = { "profile", "id", "compute_slices", "memory_slices", "memory_mib",
					    "max", "placements", "+me" };
	static const char *const csv_head[] = { "profile", "id", "compute_slices", "memory_slices",
						"memory_mib", "max_instances", "starts", "media_ext" };
	struct grid g;
	size_t i;
	int k;

	if (f == FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *mig, *list;
		cJSON_AddStringToObject(root, "gpu", t->id);
		if (!t->has_mig) {
			cJSON_AddNullToObject(root, "mig");
			return json_print(root);
		}
		mig = cJSON_AddObjectToObject(root, "mig");
		json_int(mig, "compute_slices", t->mig.compute_slices);
		json_int(mig, "memory_slices", t->mig.memory_slices);
		json_int(mig, "max_instances", t->mig.max_instances);
		list = cJSON_AddArrayToObject(mig, "profiles");
		for (i = 0; i < t->mig.nprofiles; i++) {
			const struct mig_profile *p = &t->mig.profiles[i];
			cJSON *o = cJSON_CreateObject(), *starts = cJSON_CreateArray();
			cJSON_AddItemToArray(list, o);
			cJSON_AddStringToObject(o, "name", p->name);
			if (p->id >= 0)
				json_int(o, "id", p->id);
			else
				cJSON_AddNullToObject(o, "id");
			json_int(o, "compute_slices", p->compute_slices);
			json_int(o, "memory_slices", p->memory_slices);
			json_int(o, "memory_mib", p->memory_mib);
			json_int(o, "max_instances", p->max_instances);
			for (k = 0; k < p->nstarts; k++)
				cJSON_AddItemToArray(starts, cJSON_CreateNumber(p->starts[k]));
			cJSON_AddItemToObject(o, "starts", starts);
			cJSON_AddBoolToObject(o, "media_ext", p->media_ext);
		}
		return json_print(root);
	}
	if (f == FMT_TABLE) {
		if (!t->has_mig) {
			printf("%s: no MIG\n", t->id);
			return EXIT_OK;
		}
		printf("%s: MIG with %d compute slices, %d memory slices, at most %d instances\n", t->id,
		       t->mig.compute_slices, t->mig.memory_slices, t->mig.max_instances);
	}
	grid_init(&g, f == FMT_CSV ? csv_head : head, "lrrrrrll");
	for (i = 0; i < t->mig.nprofiles; i++) {
		const struct mig_profile *p = &t->mig.profiles[i];
		grid_cell(&g, "%s", p->name);
		if (p->id >= 0)
			grid_cell(&g, "%d", p->id);
		else
			grid_cell(&g, "%s", f == FMT_CSV ? "" : "-");
		grid_cell(&g, "%d", p->compute_slices);
		grid_cell(&g, "%d", p->memory_slices);
		grid_cell(&g, "%ld", p->memory_mib);
		grid_cell(&g, "%d", p->max_instances);
		if (f == FMT_CSV) {
			struct sb sb;
			sb_init(&sb);
			for (k = 0; k < p->nstarts; k++)
				sb_addf(&sb, "%s%d", k ? " " : "", p->starts[k]);
			grid_cell(&g, "%s", sb.buf);
			sb_release(&sb);
		} else {
			XGROW(g.cells, g.cap, g.ncells + 1);
			g.cells[g.ncells++] = placements_text(p);
		}
		grid_cell(&g, "%s", p->media_ext ? "yes" : "no");
	}
	grid_print(&g, f);
	grid_release(&g);
	return EXIT_OK;
}

static int view_geometries(const struct gpu_type *t, enum out_format f)
{
	static const char *const head[] = { "geometry", "instances", "compute", "memory", "placement" };
	static const char *const csv_head[] = { "geometry", "instances", "compute_slices", "memory_slices",
						"placement" };
	struct mig_geometry *geo = NULL;
	struct grid g;
	size_t n = 0, i;
	int k;

	if (mig_geometries(t, &geo, &n)) {
		if (f == FMT_JSON) {
			cJSON *root = cJSON_CreateObject();
			cJSON_AddStringToObject(root, "gpu", t->id);
			cJSON_AddFalseToObject(root, "mig");
			cJSON_AddArrayToObject(root, "geometries");
			return json_print(root);
		}
		if (f == FMT_TABLE) {
			printf("%s: no MIG\n", t->id);
			return EXIT_OK;
		}
		/* CSV: the header alone, so scripts see an empty list. */
	}
	if (f == FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *list;
		cJSON_AddStringToObject(root, "gpu", t->id);
		cJSON_AddTrueToObject(root, "mig");
		list = cJSON_AddArrayToObject(root, "geometries");
		for (i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject(), *inst = cJSON_CreateArray();
			char *name = mig_geometry_name(t, &geo[i]);
			int compute = 0, mem = 0;
			cJSON_AddItemToArray(list, o);
			cJSON_AddStringToObject(o, "name", name);
			free(name);
			for (k = 0; k < geo[i].n; k++) {
				const struct mig_profile *p = &t->mig.profiles[geo[i].profile[k]];
				cJSON *io = cJSON_CreateObject();
				cJSON_AddStringToObject(io, "profile", p->name);
				json_int(io, "start", geo[i].start[k]);
				cJSON_AddItemToArray(inst, io);
				compute += p->compute_slices;
				mem += p->memory_slices;
			}
			json_int(o, "compute_slices", compute);
			json_int(o, "memory_slices", mem);
			cJSON_AddItemToObject(o, "instances", inst);
		}
		free(geo);
		return json_print(root);
	}
	if (f == FMT_TABLE)
		printf("%s: %zu maximal MIG geometries (%d compute, %d memory slices; +me profiles not used)\n",
		       t->id, n, t->mig.compute_slices, t->mig.memory_slices);
	grid_init(&g, f == FMT_CSV ? csv_head : head, "lrrrl");
	for (i = 0; i < n; i++) {
		struct sb place;
		int compute = 0, mem = 0;
		XGROW(g.cells, g.cap, g.ncells + 1);
		g.cells[g.ncells++] = mig_geometry_name(t, &geo[i]);
		sb_init(&place);
		for (k = 0; k < geo[i].n; k++) {
			const struct mig_profile *p = &t->mig.profiles[geo[i].profile[k]];
			compute += p->compute_slices;
			mem += p->memory_slices;
			sb_addf(&place, "%s%d:%d", k ? " " : "", geo[i].start[k], p->memory_slices);
		}
		grid_cell(&g, "%d", geo[i].n);
		if (f == FMT_CSV) {
			grid_cell(&g, "%d", compute);
			grid_cell(&g, "%d", mem);
		} else {
			grid_cell(&g, "%d/%d", compute, t->mig.compute_slices);
			grid_cell(&g, "%d/%d", mem, t->mig.memory_slices);
		}
		grid_cell(&g, "%s", place.buf);
		sb_release(&place);
	}
	grid_print(&g, f);
	grid_release(&g);
	free(geo);
	return EXIT_OK;
}

static int view_vgpu(const struct gpu_type *t, enum out_format f)
{
	static const char *const head[] = { "name", "framebuffer_mib", "max_equal", "max_mixed" };
	static const char *const mhead[] = { "name", "gi_profile", "gi_memory_mib", "max" };
	static const char *const csv_head[] = { "kind", "name", "framebuffer_mib", "max", "max_mixed",
						"gi_profile" };
	struct grid g;
	size_t i;

	if (f == FMT_JSON) {
		cJSON *root = cJSON_CreateObject(), *v, *list;
		cJSON_AddStringToObject(root, "gpu", t->id);
		if (!t->has_vgpu) {
			cJSON_AddNullToObject(root, "vgpu");
			return json_print(root);
		}
		v = cJSON_AddObjectToObject(root, "vgpu");
		cJSON_AddBoolToObject(v, "mixed_size", t->vgpu.mixed_size);
		list = cJSON_AddArrayToObject(v, "profiles");
		for (i = 0; i < t->vgpu.nprofiles; i++) {
			const struct vgpu_profile *p = &t->vgpu.profiles[i];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddItemToArray(list, o);
			cJSON_AddStringToObject(o, "name", p->name);
			json_int(o, "framebuffer_mib", p->framebuffer_mib);
			json_int(o, "max_equal", p->max_equal);
			if (p->max_mixed)
				json_int(o, "max_mixed", p->max_mixed);
			else
				cJSON_AddNullToObject(o, "max_mixed");
		}
		list = cJSON_AddArrayToObject(v, "mig_backed");
		for (i = 0; i < t->vgpu.nmig; i++) {
			const struct vgpu_mig_profile *p = &t->vgpu.mig_backed[i];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddItemToArray(list, o);
			cJSON_AddStringToObject(o, "name", p->name);
			cJSON_AddStringToObject(o, "gi_profile", p->gi_profile);
			json_int(o, "gi_memory_mib", t->mig.profiles[p->gi_index].memory_mib);
			json_int(o, "max", p->max);
		}
		return json_print(root);
	}
	if (f == FMT_CSV) {
		grid_init(&g, csv_head, "llrrrl");
		for (i = 0; i < t->vgpu.nprofiles; i++) {
			const struct vgpu_profile *p = &t->vgpu.profiles[i];
			grid_cell(&g, "time-sliced");
			grid_cell(&g, "%s", p->name);
			grid_cell(&g, "%ld", p->framebuffer_mib);
			grid_cell(&g, "%d", p->max_equal);
			if (p->max_mixed)
				grid_cell(&g, "%d", p->max_mixed);
			else
				grid_cell(&g, "%s", "");
			grid_cell(&g, "%s", "");
		}
		for (i = 0; i < t->vgpu.nmig; i++) {
			const struct vgpu_mig_profile *p = &t->vgpu.mig_backed[i];
			grid_cell(&g, "mig-backed");
			grid_cell(&g, "%s", p->name);
			grid_cell(&g, "%ld", t->mig.profiles[p->gi_index].memory_mib);
			grid_cell(&g, "%d", p->max);
			grid_cell(&g, "%s", "");
			grid_cell(&g, "%s", p->gi_profile);
		}
		grid_print(&g, f);
		grid_release(&g);
		return EXIT_OK;
	}
	if (!t->has_vgpu) {
		printf("%s: no vGPU profiles\n", t->id);
		return EXIT_OK;
	}
	printf("%s: vGPU C-series, time-sliced (mixed-size mode %s)\n", t->id,
	       t->vgpu.mixed_size ? "supported" : "not supported");
	grid_init(&g, head, "lrrr");
	for (i = 0; i < t->vgpu.nprofiles; i++) {
		const struct vgpu_profile *p = &t->vgpu.profiles[i];
		grid_cell(&g, "%s", p->name);
		grid_cell(&g, "%ld", p->framebuffer_mib);
		grid_cell(&g, "%d", p->max_equal);
		if (p->max_mixed)
			grid_cell(&g, "%d", p->max_mixed);
		else
			grid_cell(&g, "-");
	}
	grid_print(&g, f);
	grid_release(&g);
	if (!t->vgpu.nmig)
		return EXIT_OK;
	printf("\n%s: MIG-backed vGPU, one per GPU instance\n", t->id);
	grid_init(&g, mhead, "llrr");
	for (i = 0; i < t->vgpu.nmig; i++) {
		const struct vgpu_mig_profile *p = &t->vgpu.mig_backed[i];
		grid_cell(&g, "%s", p->name);
		grid_cell(&g, "%s", p->gi_profile);
		grid_cell(&g, "%ld", t->mig.profiles[p->gi_index].memory_mib);
		grid_cell(&g, "%d", p->max);
	}
	grid_print(&g, f);
	grid_release(&g);
	return EXIT_OK;
}

/* ======================= command ======================= */

/*
 * gpuplan profiles [--gpus FILE]... [--format FMT] [GPU [--mig-geometries | --vgpu]]:
 * argv[0] is "profiles".  Prints one view to stdout and returns an exit
 * code: EXIT_OK (also for a GPU without MIG or vGPU), EXIT_USAGE with the
 * usage on stderr, EXIT_INPUT for an unknown GPU or a bad catalog file.
 */
int cmd_profiles(int argc, char **argv, const struct cli_global *g)
{
	cJSON_Hooks hooks = { xmalloc, free };
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	const char **user_files = xcalloc((size_t)argc + 1, sizeof(*user_files));
	const char *gpu_name = NULL;
	const struct gpu_type *gpu;
	enum out_format fmt = FMT_TABLE;
	enum view view = VIEW_MIG;
	int mig_geometries_flag = 0, vgpu_flag = 0;
	size_t nuser = 0, k;
	char *path = NULL;
	int i, rc = EXIT_OK;

	/* parse the command line */
	for (i = 1; i < argc; i++) {
		const char *val;
		int r;
		if (cli_is_help(argv[i])) {
			cli_usage(stdout, usage);
			goto out;
		}
		if (!strcmp(argv[i], "--mig-geometries")) {
			mig_geometries_flag = 1;
			continue;
		}
		if (!strcmp(argv[i], "--vgpu")) {
			vgpu_flag = 1;
			continue;
		}
		r = cli_opt_value(argc, argv, &i, "--format", &val);
		if (r < 0) {
			rc = cli_misuse(usage, "--format needs table, csv or json");
			goto out;
		}
		if (r > 0) {
			if (!strcmp(val, "table")) {
				fmt = FMT_TABLE;
			} else if (!strcmp(val, "csv")) {
				fmt = FMT_CSV;
			} else if (!strcmp(val, "json")) {
				fmt = FMT_JSON;
			} else {
				rc = cli_misuse(usage, "unknown format '%s' (table, csv or json)", val);
				goto out;
			}
			continue;
		}
		r = cli_opt_value(argc, argv, &i, "--gpus", &val);
		if (r < 0) {
			rc = cli_misuse(usage, "--gpus needs a file");
			goto out;
		}
		if (r > 0) {
			user_files[nuser++] = val;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			rc = cli_misuse(usage, "unknown option '%s'", argv[i]);
			goto out;
		}
		if (gpu_name) {
			rc = cli_misuse(usage, "one GPU type at a time ('%s' and '%s')", gpu_name, argv[i]);
			goto out;
		}
		gpu_name = argv[i];
	}
	if (mig_geometries_flag && vgpu_flag) {
		rc = cli_misuse(usage, "--mig-geometries and --vgpu cannot be combined");
		goto out;
	}
	if (!gpu_name && (mig_geometries_flag || vgpu_flag)) {
		rc = cli_misuse(usage, "%s needs a GPU type", mig_geometries_flag ? "--mig-geometries" : "--vgpu");
		goto out;
	}
	if (!gpu_name)
		view = VIEW_TYPES;
	else if (mig_geometries_flag)
		view = VIEW_GEOMETRIES;
	else if (vgpu_flag)
		view = VIEW_VGPU;

	/* load the catalog */
	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	if (catalog_load(&cat, path, 0, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	for (k = 0; k < nuser; k++) {
		if (catalog_load(&cat, user_files[k], 1, &d)) {
			rc = cli_diag(&d);
			goto out;
		}
	}

	/* report */
	cJSON_InitHooks(&hooks);
	if (view == VIEW_TYPES) {
		rc = view_types(&cat, fmt);
		goto out;
	}
	gpu = catalog_find(&cat, gpu_name);
	if (!gpu) {
		const char *hint = catalog_suggest(&cat, gpu_name);
		if (hint)
			rc = cli_error(EXIT_INPUT, "unknown GPU type '%s' (did you mean '%s'?)", gpu_name, hint);
		else
			rc = cli_error(EXIT_INPUT, "unknown GPU type '%s' (run 'gpuplan profiles' for the list)", gpu_name);
		goto out;
	}
	if (view == VIEW_GEOMETRIES)
		rc = view_geometries(gpu, fmt);
	else if (view == VIEW_VGPU)
		rc = view_vgpu(gpu, fmt);
	else
		rc = view_mig(gpu, fmt);
out:
	catalog_release(&cat);
	diag_release(&d);
	free(path);
	free(user_files);
	return rc;
}
