/*
 * workload.c - workloads from the workloads CSV.
 *
 * Each row is checked field by field in column-table order, then for
 * consistency between its fields (vm, isolation and gpus against the
 * `modes` list), so the first error of the file is the one reported.
 * Whether some node can host a workload is not decided here: that needs
 * the inventory (scenario_unhostable).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "strmap.h"
#include "util.h"
#include "workload.h"
#include "banned.h"

static const char *const iso_names[] = { "none", "memory", "hardware", "exclusive", NULL };

const char *isolation_name(enum isolation i)
{
	return (unsigned)i < ISO_COUNT ? iso_names[i] : "?";
}

double workload_gpu_equivalents(const struct workload *w)
{
	return w->gpus >= 1 ? (double)w->gpus : w->compute;
}

enum isolation mode_isolation(enum gpu_mode m)
{
	switch (m) {
	case MODE_PASSTHROUGH:
		return ISO_EXCLUSIVE;
	case MODE_MIG:
	case MODE_MIG_VGPU:
		return ISO_HARDWARE;
	case MODE_VGPU:
	case MODE_MPS:
		return ISO_MEMORY;
	case MODE_TIMESLICE:
	case MODE_COUNT:
		break;
	}
	return ISO_NONE;
}

enum {
	C_NAME,
	C_TENANT,
	C_REPLICAS,
	C_GPUS,
	C_GPU_MEM,
	C_COMPUTE,
	C_ISOLATION,
	C_VM,
	C_CPU_CORES,
	C_RAM_GIB,
	C_GPU_TYPES,
	C_MODES,
	C_SITES,
	C_NVAIE,
	C_PRIORITY,
	C_NCOLS
};

static const struct csvcol cols[] = {
	{ "name", 1 },
	{ "tenant", 1 },
	{ "replicas", 1 },
	{ "gpus", 0 },
	{ "gpu_mem_gib", 0 },
	{ "compute", 0 },
	{ "isolation", 1 },
	{ "vm", 0 },
	{ "cpu_cores", 0 },
	{ "ram_gib", 0 },
	{ "gpu_types", 0 },
	{ "modes", 0 },
	{ "sites", 0 },
	{ "needs_nvaie", 0 },
	{ "priority", 0 },
	{ NULL, 0 },
};

#define VM_MODES (MODE_BIT(MODE_VGPU) | MODE_BIT(MODE_MIG_VGPU) | MODE_BIT(MODE_PASSTHROUGH))

static int parse_gpu_types(const struct csvread *rd, const struct catalog *cat, struct workload *w)
{
	char **list;
	size_t n, i, j;
	int rc = 0;

	if (!*csvread_text(rd, C_GPU_TYPES))
		return 0;
	if (csvread_list(rd, C_GPU_TYPES, &list, &n))
		return -1;
	w->gpu_types = xcalloc(n, sizeof(*w->gpu_types));
	for (i = 0; i < n && !rc; i++) {
		const struct gpu_type *g = catalog_find(cat, list[i]);
		if (!g) {
			char *hint = catalog_hint(cat, list[i]);
			rc = csvread_error(rd, C_GPU_TYPES, "unknown GPU type '%s'%s", list[i], hint);
			free(hint);
			break;
		}
		for (j = 0; j < w->ngpu_types; j++)
			if (w->gpu_types[j] == g)
				break;
		if (j == w->ngpu_types)
			w->gpu_types[w->ngpu_types++] = g;
	}
	csvread_list_free(list, n);
	return rc;
}

static int parse_modes(const struct csvread *rd, struct workload *w)
{
	char **list;
	size_t n, i;
	int rc = 0;

	w->modes = MODE_ALL;
	if (!*csvread_text(rd, C_MODES))
		return 0;
	if (csvread_list(rd, C_MODES, &list, &n))
		return -1;
	w->modes = 0;
	for (i = 0; i < n; i++) {
		int m = mode_parse(list[i]);
		if (m < 0) {
			rc = csvread_unknown(rd, C_MODES, "mode", list[i], mode_names);
			break;
		}
		w->modes |= MODE_BIT(m);
	}
	csvread_list_free(list, n);
	return rc;
}

static int parse_sites(const struct csvread *rd, struct workload *w)
{
	char **list;
	size_t n, i, j;

	if (!*csvread_text(rd, C_SITES))
		return 0;
	if (csvread_list(rd, C_SITES, &list, &n))
		return -1;
	w->sites = xcalloc(n, sizeof(*w->sites));
	for (i = 0; i < n; i++) {
		for (j = 0; j < w->nsites; j++)
			if (!strcmp(w->sites[j], list[i]))
				break;
		if (j == w->nsites)
			w->sites[w->nsites++] = list[i];
		else
			free(list[i]);
	}
	free(list);
	return 0;
}

/* "a, b or c" for the modes in mask, in mode order. */
static char *mode_list(unsigned mask)
{
	struct sb sb;
	char *list;
	int m, k = 0, total = 0;

	for (m = 0; m < MODE_COUNT; m++)
		if (mask & MODE_BIT(m))
			total++;
	sb_init(&sb);
	for (m = 0; m < MODE_COUNT; m++) {
		if (!(mask & MODE_BIT(m)))
			continue;
		if (k)
			sb_adds(&sb, k == total - 1 ? " or " : ", ");
		sb_adds(&sb, mode_names[m]);
		k++;
	}
	list = sb_detach(&sb);
	return list;
}

/* Checks between fields; errors point at the `modes` field, which narrows the choice. */
static int check_consistency(const struct csvread *rd, const struct workload *w)
{
	unsigned iso_ok = 0;
	int m;

	if (w->modes == MODE_ALL)
		return 0;
	if (w->vm && !(w->modes & VM_MODES))
		return csvread_error(rd, C_MODES, "vm: true needs one of the modes passthrough, vgpu or mig-vgpu");
	for (m = 0; m < MODE_COUNT; m++)
		if (mode_isolation((enum gpu_mode)m) >= w->iso)
			iso_ok |= MODE_BIT(m);
	if (!(w->modes & iso_ok)) {
		char *list = mode_list(iso_ok);
		csvread_error(rd, C_MODES, "isolation '%s' needs %s %s", iso_names[w->iso],
			      iso_ok == MODE_BIT(MODE_PASSTHROUGH) ? "the mode" : "one of the modes", list);
		free(list);
		return -1;
	}
	if (w->gpus >= 2 && !(w->modes & (MODE_BIT(MODE_PASSTHROUGH) | MODE_BIT(MODE_VGPU))))
		return csvread_error(rd, C_MODES,
				     "gpus %d needs the mode passthrough or vgpu (a replica of several GPUs "
				     "takes them whole, or as full-size vGPUs of one VM)",
				     w->gpus);
	return 0;
}

/* name (unique in the file), tenant, replicas and gpus. */
static int load_counts(const struct workloads *wl, struct strmap *names, const struct csvread *rd,
		       struct workload *w)
{
	const char *s = NULL;
	long long v = 0;
	size_t i;

	if (csvread_str(rd, C_NAME, 1, &s))
		return -1;
	if (strmap_get(names, s, &i))
		return csvread_error(rd, C_NAME, "duplicate workload '%s' (first at line %ld)", s, wl->w[i].line);
	w->name = xstrdup(s);
	strmap_add(names, w->name, wl->n, &i);
	if (csvread_str(rd, C_TENANT, 1, &s))
		return -1;
	if (!strcmp(s, WORKLOAD_IDLE_TENANT))
		return csvread_error(rd, C_TENANT, "tenant '%s' is reserved (the cost split's row for capacity no "
				     "tenant uses)", s);
	w->tenant = xstrdup(s);
	if (csvread_int(rd, C_REPLICAS, 1, 1, 1000000, &v))
		return -1;
	w->replicas = (long)v;
	v = 0;
	if (csvread_int(rd, C_GPUS, 0, 0, 64, &v) < 0)
		return -1;
	w->gpus = (int)v;
	return 0;
}

/*
 * The compute column: a number, or a fraction "N/D" ("1/7") read as N / D
 * so that an exact share can be written exactly; then the range check.
 */
static int read_compute(const struct csvread *rd, int required, double *out)
{
	const struct num_range share = { 0, 1, RANGE_LO_OPEN };
	const char *s = csvread_text(rd, C_COMPUTE), *slash = strchr(s, '/');
	char num[64];
	double n, dn, x;

	if (!slash)
		return csvread_num(rd, C_COMPUTE, required, share, out);
	if ((size_t)(slash - s) >= sizeof(num))
		return csvread_error(rd, C_COMPUTE, "column 'compute': '%s' is not a number or a fraction N/D", s);
	memcpy(num, s, (size_t)(slash - s));
	num[slash - s] = '\0';
	if (parse_double(num, &n) || parse_double(slash + 1, &dn) || dn <= 0)
		return csvread_error(rd, C_COMPUTE, "column 'compute': '%s' is not a number or a fraction N/D", s);
	x = n / dn;
	if (!(x > 0 && x <= 1))
		return csvread_error(rd, C_COMPUTE, "column 'compute': '%s' must be in (0, 1]", s);
	*out = x;
	return 0;
}

/* gpu_mem_gib and compute: both required for a fraction (gpus 0); compute 1 for whole GPUs. */
static int load_share(const struct csvread *rd, struct workload *w)
{
	w->gpu_mem_gib = 0;
	if (w->gpus == 0 && !*csvread_text(rd, C_GPU_MEM))
		return csvread_error(rd, C_GPU_MEM, "column 'gpu_mem_gib' is required when gpus is 0");
	if (csvread_num(rd, C_GPU_MEM, 0, (struct num_range){ 0, HUGE_VAL, RANGE_LO_OPEN },
			&w->gpu_mem_gib) < 0)
		return -1;
	w->compute = 1;
	if (w->gpus == 0) {
		if (!*csvread_text(rd, C_COMPUTE))
			return csvread_error(rd, C_COMPUTE, "column 'compute' is required when gpus is 0");
		if (read_compute(rd, 1, &w->compute))
			return -1;
	} else {
		double c = 1;
		if (*csvread_text(rd, C_COMPUTE) && read_compute(rd, 0, &c) < 0)
			return -1;
		if (c != 1)
			return csvread_error(rd, C_COMPUTE, "column 'compute' must be empty or 1 when gpus is %d",
					     w->gpus);
	}
	return 0;
}

static int load_row(const struct workloads *wl, struct strmap *names, const struct csvread *rd,
		    const struct catalog *cat, struct workload *w)
{
	const struct num_range at_least_0 = { 0, HUGE_VAL, RANGE_CLOSED };
	long long v = 0;
	int iso = 0;

	w->line = rd->r->line;
	if (load_counts(wl, names, rd, w) || load_share(rd, w))
		return -1;
	if (csvread_word(rd, C_ISOLATION, "isolation", iso_names, &iso))
		return -1;
	w->iso = (enum isolation)iso;
	w->vm = 0;
	if (csvread_bool(rd, C_VM, 0, &w->vm) < 0)
		return -1;
	if (csvread_num(rd, C_CPU_CORES, 0, at_least_0, &w->cpu_cores) < 0 ||
	    csvread_num(rd, C_RAM_GIB, 0, at_least_0, &w->ram_gib) < 0)
		return -1;
	if (parse_gpu_types(rd, cat, w) || parse_modes(rd, w) || parse_sites(rd, w))
		return -1;
	w->needs_nvaie = 0;
	if (csvread_bool(rd, C_NVAIE, 0, &w->needs_nvaie) < 0)
		return -1;
	v = 1;
	if (csvread_int(rd, C_PRIORITY, 0, 1, 1000, &v) < 0)
		return -1;
	w->priority = (int)v;
	return check_consistency(rd, w);
}

static void workload_release(struct workload *w)
{
	size_t i;
	free(w->name);
	free(w->tenant);
	free(w->gpu_types);
	for (i = 0; i < w->nsites; i++)
		free(w->sites[i]);
	free(w->sites);
}

int workloads_load(struct workloads *wl, const char *path, const struct catalog *cat,
		   struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct strmap names = STRMAP_INIT;	/* workload name -> its index: duplicates in constant time */
	int idx[C_NCOLS];
	size_t i;
	long total = 0;
	int rc = -1;

	wl->file = xstrdup(path);
	wl->n = 0;
	wl->w = NULL;
	wl->sites_col = 0;
	if (csvdoc_load(&doc, path, d) || csvdoc_bind(&doc, cols, idx, d))
		goto out;
	wl->sites_col = idx[C_SITES] + 1;
	if (doc.nrows == 0) {
		csvdoc_error(&doc, &doc.header, -1, d, "no workloads (the file has only a header)");
		goto out;
	}
	wl->w = xcalloc(doc.nrows, sizeof(*wl->w));
	for (i = 0; i < doc.nrows; i++) {
		struct workload *w = &wl->w[wl->n];
		const struct csvread rd = { &doc, &doc.rows[i], cols, idx, d };
		if (csvdoc_interrupted(&doc, i, d) || load_row(wl, &names, &rd, cat, w)) {
			workload_release(w);
			memset(w, 0, sizeof(*w));
			goto out;
		}
		wl->n++;
		/* replicas <= 1e6 a row, so the sum cannot overflow before it trips */
		if (ckd_add_l(total, w->replicas, &total) || total > LIMIT_TOTAL_REPLICAS) {
			csvread_error(&rd, C_REPLICAS, "more than %ld replicas in all workloads (the limit of one plan)",
				      LIMIT_TOTAL_REPLICAS);
			goto out;
		}
	}
	rc = 0;
out:
	strmap_release(&names);
	csvdoc_release(&doc);
	return rc;
}

void workloads_release(struct workloads *wl)
{
	size_t i;
	for (i = 0; i < wl->n; i++)
		workload_release(&wl->w[i]);
	free(wl->w);
	free(wl->file);
	wl->w = NULL;
	wl->file = NULL;
	wl->n = 0;
	wl->sites_col = 0;
}

char *workloads_hint(const struct workloads *wl, const char *s)
{
	const char **names = xcalloc(wl->n + 1, sizeof(*names));
	const char *near[HINT_MAX];
	char *hint;
	size_t i;

	for (i = 0; i < wl->n; i++)
		names[i] = wl->w[i].name;
	hint = str_hint_text(near, str_closest(s, names, near));
	free(names);
	return hint;
}
