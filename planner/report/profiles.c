/*
 * profiles.c - the views of `gpuplan profiles` rendered as text (see
 * profiles.h): grids for table and CSV, cJSON trees for JSON.
 *
 * Each view has a JSON builder and a grid builder; both write into one
 * string buffer, which profiles_render hands to the caller.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "mig.h"
#include "profiles.h"
#include "util.h"
#include "banned.h"

/* ======================= grids: table and CSV ======================= */

/*
 * A grid of cells with a header.  In table format the header is written
 * upper-case, columns are padded to their widest cell (numbers right-
 * aligned) and separated by two spaces, with no trailing blanks.  In CSV
 * the header is written as given and cells are quoted per RFC 4180 when
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

/* Appends s as the next cell, taking it over. */
static void grid_take(struct grid *g, char *s)
{
	XGROW(g->cells, g->cap, g->ncells + 1);
	g->cells[g->ncells++] = s;
}

static void add_padded(struct sb *out, const char *s, size_t width, char align, int last)
{
	size_t len = strlen(s);
	if (align == 'r')
		sb_addf(out, "%*s%s", (int)(width - len), "", s);
	else if (last)
		sb_adds(out, s);
	else
		sb_addf(out, "%s%*s", s, (int)(width - len), "");
}

static void grid_table(const struct grid *g, struct sb *out)
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
			sb_adds(out, "  ");
		add_padded(out, up, width[c], g->align[c], c == g->ncols - 1);
		free(up);
	}
	sb_adds(out, "\n");
	for (r = 0; r < nrows; r++) {
		for (c = 0; c < g->ncols; c++) {
			if (c)
				sb_adds(out, "  ");
			add_padded(out, g->cells[r * (size_t)g->ncols + (size_t)c], width[c], g->align[c],
				   c == g->ncols - 1);
		}
		sb_adds(out, "\n");
	}
}

static void grid_csv(const struct grid *g, struct sb *out)
{
	size_t i;
	int c;

	for (c = 0; c < g->ncols; c++) {
		if (c)
			sb_adds(out, ",");
		sb_add_csv(out, g->head[c]);
	}
	sb_adds(out, "\n");
	for (i = 0; i < g->ncells; i++) {
		if (i % (size_t)g->ncols)
			sb_adds(out, ",");
		sb_add_csv(out, g->cells[i]);
		if (i % (size_t)g->ncols == (size_t)g->ncols - 1)
			sb_adds(out, "\n");
	}
}

/* Writes the grid in format f and releases it. */
static void grid_flush(struct grid *g, enum profiles_format f, struct sb *out)
{
	if (f == PROFILES_CSV)
		grid_csv(g, out);
	else
		grid_table(g, out);
	grid_release(g);
}

/* ======================= JSON ======================= */

/* Writes a tree and frees it; -1 when it cannot be formatted. */
static int json_flush(cJSON *root, struct sb *out)
{
	char *s = cJSON_Print(root);
	cJSON_Delete(root);
	if (!s)
		return -1;
	sb_adds(out, s);
	sb_adds(out, "\n");
	cJSON_free(s);
	return 0;
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

/*
 * Memory as `nvidia-smi mig -lgip` prints it: GiB with two decimals,
 * rounded to the nearest hundredth (integer arithmetic).
 */
static char *lgip_gib(long mib)
{
	long h = (mib * 100 + 512) / 1024;
	return xasprintf("%ld.%02ld", h / 100, h % 100);
}

/* ======================= GPU types ======================= */

static int types_json(const struct catalog *cat, struct sb *out)
{
	cJSON *root = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(root, "gpus");
	size_t i, j;

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
	return json_flush(root, out);
}

static void types_grid(const struct catalog *cat, enum profiles_format f, struct sb *out)
{
	static const char *const head[] = { "gpu", "memory", "mig", "vgpu_c", "mig_backed", "aliases" };
	static const char *const csv_head[] = { "id", "memory_mib", "mig", "mig_profiles", "vgpu_c",
						"mig_backed", "aliases" };
	struct grid g;
	size_t i, j;

	if (f == PROFILES_CSV)
		grid_init(&g, csv_head, "lrlrrrl");
	else
		grid_init(&g, head, "lrlrrl");
	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *t = &cat->gpus[i];
		struct sb al;
		sb_init(&al);
		for (j = 0; j < t->naliases; j++) {
			if (j)
				sb_adds(&al, f == PROFILES_CSV ? ";" : ", ");
			sb_adds(&al, t->aliases[j]);
		}
		grid_cell(&g, "%s", t->id);
		if (f == PROFILES_CSV) {
			grid_cell(&g, "%ld", t->memory_mib);
			grid_cell(&g, "%s", t->has_mig ? "yes" : "no");
			grid_cell(&g, "%zu", t->mig.nprofiles);
		} else {
			grid_take(&g, gib_text(t->memory_mib));
			size_t na = 0;
			for (j = 0; j < t->mig.nprofiles; j++)
				na += t->mig.profiles[j].assumed ? 1 : 0;
			if (t->has_mig && na)
				grid_cell(&g, "yes (%zu, %zu memory assumed)", t->mig.nprofiles, na);
			else if (t->has_mig)
				grid_cell(&g, "yes (%zu)", t->mig.nprofiles);
			else
				grid_cell(&g, "no");
		}
		grid_cell(&g, "%zu", t->vgpu.nprofiles);
		grid_cell(&g, "%zu", t->vgpu.nmig);
		grid_cell(&g, "%s", al.len || f == PROFILES_CSV ? al.buf : "-");
		sb_release(&al);
	}
	grid_flush(&g, f, out);
}

/* ======================= MIG profiles ======================= */

static int mig_json(const struct gpu_type *t, struct sb *out)
{
	cJSON *root = cJSON_CreateObject(), *mig, *list;
	size_t i;
	int k;

	cJSON_AddStringToObject(root, "gpu", t->id);
	if (!t->has_mig) {
		cJSON_AddNullToObject(root, "mig");
		return json_flush(root, out);
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
		if (p->sms)
			json_int(o, "sms", p->sms);
		else
			cJSON_AddNullToObject(o, "sms");
		cJSON_AddNumberToObject(o, "compute_share", mig_profile_share(t, p));
		cJSON_AddBoolToObject(o, "compute_share_from_sms", mig_profile_share_from_sms(t, p));
		json_int(o, "memory_slices", p->memory_slices);
		json_int(o, "memory_mib", p->memory_mib);
		json_int(o, "nominal_mib", p->nominal_mib);
		cJSON_AddBoolToObject(o, "assumed", p->assumed);
		if (p->assumed_rule)
			cJSON_AddStringToObject(o, "assumed_rule", p->assumed_rule);
		else
			cJSON_AddNullToObject(o, "assumed_rule");
		json_int(o, "max_instances", p->max_instances);
		for (k = 0; k < p->nstarts; k++)
			cJSON_AddItemToArray(starts, cJSON_CreateNumber(p->starts[k]));
		cJSON_AddItemToObject(o, "starts", starts);
		cJSON_AddBoolToObject(o, "media_ext", p->media_ext);
	}
	return json_flush(root, out);
}

/* A profile's compute share as the planner counts it: "16/132 SMs", or "3/7 slices" without SM counts. */
static char *share_text(const struct gpu_type *t, const struct mig_profile *p)
{
	if (mig_profile_share_from_sms(t, p))
		return xasprintf("%d/%d SMs", p->sms, t->sms);
	return xasprintf("%d/%d slices", p->compute_slices, t->mig.compute_slices);
}

static void mig_grid(const struct gpu_type *t, enum profiles_format f, struct sb *out)
{
	static const char *const head[] = { "profile", "id",	  "compute_slices", "sms",	  "share",
					    "memory_slices", "memory_mib", "gib", "nominal", "max",
					    "placements",    "+me",	   "assumed" };
	static const char *const csv_head[] = { "profile",     "id",	      "compute_slices", "memory_slices",
						"memory_mib",  "nominal_mib", "max_instances",	"starts",
						"media_ext",   "assumed",     "assumed_rule",	"sms",
						"compute_share" };
	struct grid g;
	size_t i;
	int k, nassumed = 0;

	if (f == PROFILES_TABLE) {
		if (!t->has_mig) {
			sb_addf(out, "%s: no MIG\n", t->id);
			return;
		}
		sb_addf(out, "%s: MIG with %d compute slices, %d memory slices, at most %d instances\n", t->id,
			t->mig.compute_slices, t->mig.memory_slices, t->mig.max_instances);
	}
	grid_init(&g, f == PROFILES_CSV ? csv_head : head, f == PROFILES_CSV ? "lrrrrrrllllrr" : "lrrrlrrrrrlll");
	for (i = 0; i < t->mig.nprofiles; i++) {
		const struct mig_profile *p = &t->mig.profiles[i];
		grid_cell(&g, "%s", p->name);
		if (p->id >= 0)
			grid_cell(&g, "%d", p->id);
		else
			grid_cell(&g, "%s", f == PROFILES_CSV ? "" : "-");
		grid_cell(&g, "%d", p->compute_slices);
		if (f != PROFILES_CSV) {
			if (p->sms)
				grid_cell(&g, "%d", p->sms);
			else
				grid_cell(&g, "%s", "-");
			grid_take(&g, share_text(t, p));
		}
		grid_cell(&g, "%d", p->memory_slices);
		grid_cell(&g, "%ld", p->memory_mib);
		if (f == PROFILES_CSV)
			grid_cell(&g, "%ld", p->nominal_mib);
		else
			grid_take(&g, lgip_gib(p->memory_mib));
		if (f != PROFILES_CSV)
			grid_take(&g, p->nominal_mib ? gib_text(p->nominal_mib) : xstrdup("-"));
		grid_cell(&g, "%d", p->max_instances);
		if (f == PROFILES_CSV) {
			struct sb sb;
			sb_init(&sb);
			for (k = 0; k < p->nstarts; k++)
				sb_addf(&sb, "%s%d", k ? " " : "", p->starts[k]);
			grid_cell(&g, "%s", sb.buf);
			sb_release(&sb);
		} else {
			grid_take(&g, placements_text(p));
		}
		grid_cell(&g, "%s", p->media_ext ? "yes" : "no");
		grid_cell(&g, "%s", p->assumed ? "yes" : "no");
		if (f == PROFILES_CSV) {
			grid_cell(&g, "%s", p->assumed_rule ? p->assumed_rule : "");
			if (p->sms)
				grid_cell(&g, "%d", p->sms);
			else
				grid_cell(&g, "%s", "");
			grid_cell(&g, "%.6f", mig_profile_share(t, p));
		}
		nassumed += p->assumed;
	}
	grid_flush(&g, f, out);
	if (f != PROFILES_TABLE || !nassumed)
		return;
	sb_adds(out, "assumed (no capture of this GPU gives the usable memory):\n");
	for (i = 0; i < t->mig.nprofiles; i++)
		if (t->mig.profiles[i].assumed)
			sb_addf(out, "  %s: %s\n", t->mig.profiles[i].name, t->mig.profiles[i].assumed_rule);
}

/* ======================= MIG geometries ======================= */

/* geo: the n geometries of t; has_mig 0 when t has no MIG (geo unused). */
static int geometries_json(const struct gpu_type *t, int has_mig, const struct mig_geometry *geo, size_t n,
			   struct sb *out)
{
	cJSON *root = cJSON_CreateObject(), *list;
	size_t i;
	int k;

	cJSON_AddStringToObject(root, "gpu", t->id);
	if (!has_mig) {
		cJSON_AddFalseToObject(root, "mig");
		cJSON_AddArrayToObject(root, "geometries");
		return json_flush(root, out);
	}
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
	return json_flush(root, out);
}

static void geometries_grid(const struct gpu_type *t, const struct mig_geometry *geo, size_t n,
			    enum profiles_format f, struct sb *out)
{
	static const char *const head[] = { "geometry", "instances", "compute", "memory", "placement" };
	static const char *const csv_head[] = { "geometry", "instances", "compute_slices", "memory_slices",
						"placement" };
	struct grid g;
	size_t i;
	int k;

	if (f == PROFILES_TABLE)
		sb_addf(out, "%s: %zu maximal MIG geometries (%d compute, %d memory slices; +me profiles not used)\n",
			t->id, n, t->mig.compute_slices, t->mig.memory_slices);
	grid_init(&g, f == PROFILES_CSV ? csv_head : head, "lrrrl");
	for (i = 0; i < n; i++) {
		struct sb place;
		int compute = 0, mem = 0;
		grid_take(&g, mig_geometry_name(t, &geo[i]));
		sb_init(&place);
		for (k = 0; k < geo[i].n; k++) {
			const struct mig_profile *p = &t->mig.profiles[geo[i].profile[k]];
			compute += p->compute_slices;
			mem += p->memory_slices;
			sb_addf(&place, "%s%d:%d", k ? " " : "", geo[i].start[k], p->memory_slices);
		}
		grid_cell(&g, "%d", geo[i].n);
		if (f == PROFILES_CSV) {
			grid_cell(&g, "%d", compute);
			grid_cell(&g, "%d", mem);
		} else {
			grid_cell(&g, "%d/%d", compute, t->mig.compute_slices);
			grid_cell(&g, "%d/%d", mem, t->mig.memory_slices);
		}
		grid_cell(&g, "%s", place.buf);
		sb_release(&place);
	}
	grid_flush(&g, f, out);
}

static int geometries(const struct gpu_type *t, enum profiles_format f, struct sb *out)
{
	struct mig_geometry *geo = NULL;
	size_t n = 0;
	int rc = 0;

	if (mig_geometries(t, &geo, &n)) {
		if (f == PROFILES_JSON)
			return geometries_json(t, 0, NULL, 0, out);
		if (f == PROFILES_TABLE) {
			sb_addf(out, "%s: no MIG\n", t->id);
			return 0;
		}
		/* CSV: the header alone, so scripts see an empty list. */
	}
	if (f == PROFILES_JSON)
		rc = geometries_json(t, 1, geo, n, out);
	else
		geometries_grid(t, geo, n, f, out);
	free(geo);
	return rc;
}

/* ======================= vGPU profiles ======================= */

static int vgpu_json(const struct gpu_type *t, struct sb *out)
{
	cJSON *root = cJSON_CreateObject(), *v, *list;
	size_t i;

	cJSON_AddStringToObject(root, "gpu", t->id);
	if (!t->has_vgpu) {
		cJSON_AddNullToObject(root, "vgpu");
		return json_flush(root, out);
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
	return json_flush(root, out);
}

static void vgpu_csv(const struct gpu_type *t, struct sb *out)
{
	static const char *const csv_head[] = { "kind", "name", "framebuffer_mib", "max", "max_mixed",
						"gi_profile" };
	struct grid g;
	size_t i;

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
	grid_flush(&g, PROFILES_CSV, out);
}

static void vgpu_table(const struct gpu_type *t, struct sb *out)
{
	static const char *const head[] = { "name", "framebuffer_mib", "max_equal", "max_mixed" };
	static const char *const mhead[] = { "name", "gi_profile", "gi_memory_mib", "max" };
	struct grid g;
	size_t i;

	if (!t->has_vgpu) {
		sb_addf(out, "%s: no vGPU profiles\n", t->id);
		return;
	}
	sb_addf(out, "%s: vGPU C-series, time-sliced (mixed-size mode %s)\n", t->id,
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
	grid_flush(&g, PROFILES_TABLE, out);
	if (!t->vgpu.nmig)
		return;
	sb_addf(out, "\n%s: MIG-backed vGPU, one per GPU instance\n", t->id);
	grid_init(&g, mhead, "llrr");
	for (i = 0; i < t->vgpu.nmig; i++) {
		const struct vgpu_mig_profile *p = &t->vgpu.mig_backed[i];
		grid_cell(&g, "%s", p->name);
		grid_cell(&g, "%s", p->gi_profile);
		grid_cell(&g, "%ld", t->mig.profiles[p->gi_index].memory_mib);
		grid_cell(&g, "%d", p->max);
	}
	grid_flush(&g, PROFILES_TABLE, out);
}

/* ======================= entry ======================= */

char *profiles_render(const struct catalog *cat, const struct gpu_type *gpu, enum profiles_view v,
		      enum profiles_format f)
{
	cJSON_Hooks hooks = { xmalloc, free };
	struct sb out;
	int rc = 0;

	/* allocation failure aborts, as everywhere else (xmalloc) */
	cJSON_InitHooks(&hooks);
	sb_init(&out);
	switch (v) {
	case PROFILES_TYPES:
		if (f == PROFILES_JSON)
			rc = types_json(cat, &out);
		else
			types_grid(cat, f, &out);
		break;
	case PROFILES_MIG:
		if (f == PROFILES_JSON)
			rc = mig_json(gpu, &out);
		else
			mig_grid(gpu, f, &out);
		break;
	case PROFILES_GEOMETRIES:
		rc = geometries(gpu, f, &out);
		break;
	case PROFILES_VGPU:
		if (f == PROFILES_JSON)
			rc = vgpu_json(gpu, &out);
		else if (f == PROFILES_CSV)
			vgpu_csv(gpu, &out);
		else
			vgpu_table(gpu, &out);
		break;
	}
	if (rc) {
		sb_release(&out);
		return NULL;
	}
	return sb_detach(&out);
}
