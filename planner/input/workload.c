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

static const char *const spread_names[] = { "none", "node", "site", NULL };
static const char *const when_names[] = { "DoNotSchedule", "ScheduleAnyway", NULL };

const char *spread_name(enum spread_kind k)
{
	return (unsigned)k <= SPREAD_SITE ? spread_names[k] : "?";
}

/* ceil(p * total / 100), as intstr.GetScaledValueFromIntOrPercent with roundUp */
static long percent_up(long p, long total)
{
	return (p * total + 99) / 100;
}

long workload_need(const struct workload *w, long replicas)
{
	long v = w->avail_percent ? percent_up(w->avail_value, replicas) : w->avail_value;

	switch (w->avail) {
	case AVAIL_MIN:
		return v;
	case AVAIL_MAX:
		return replicas - v > 0 ? replicas - v : 0;
	case AVAIL_NONE:
		break;
	}
	return -1;
}

enum spread_kind workload_avail_domain(const struct workload *w)
{
	return w->spread == SPREAD_SITE ? SPREAD_SITE : SPREAD_NODE;
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
	C_SPREAD,
	C_MAX_SKEW,
	C_WHEN,
	C_MIN_DOMAINS,
	C_MIN_AVAILABLE,
	C_MAX_UNAVAILABLE,
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
	{ "spread", 0 },
	{ "max_skew", 0 },
	{ "when_unsatisfiable", 0 },
	{ "min_domains", 0 },
	{ "min_available", 0 },
	{ "max_unavailable", 0 },
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

/* spread, max_skew, when_unsatisfiable and min_domains: a topologySpreadConstraint. */
static int load_spread(const struct csvread *rd, struct workload *w)
{
	static const char *const need_spread = "column '%s' needs spread (node or site)";
	const char *s = csvread_text(rd, C_SPREAD);
	long long v;
	int c, when = 0;

	w->spread = SPREAD_NONE;
	if (!*s) {
		for (c = C_MAX_SKEW; c <= C_MIN_DOMAINS; c++)
			if (*csvread_text(rd, c))
				return csvread_error(rd, c, need_spread, rd->cols[c].name);
		return 0;
	}
	if (!str_casecmp(s, "node") || !str_casecmp(s, "site"))
		w->spread = !str_casecmp(s, "node") ? SPREAD_NODE : SPREAD_SITE;
	else
		return csvread_error(rd, C_SPREAD, "unknown spread '%s' (expected node or site)", s);
	v = 1;
	if (csvread_int(rd, C_MAX_SKEW, 0, 1, 1000000, &v) < 0)
		return -1;
	w->max_skew = (int)v;
	if (*csvread_text(rd, C_WHEN)) {
		for (when = 0; when_names[when] && str_casecmp(csvread_text(rd, C_WHEN), when_names[when]); when++)
			;
		if (!when_names[when])
			return csvread_error(rd, C_WHEN, "unknown when_unsatisfiable '%s' (expected DoNotSchedule or "
					     "ScheduleAnyway)", csvread_text(rd, C_WHEN));
	}
	w->schedule_anyway = when == 1;
	if (*csvread_text(rd, C_MIN_DOMAINS) && w->schedule_anyway)
		return csvread_error(rd, C_MIN_DOMAINS, "column 'min_domains' needs when_unsatisfiable DoNotSchedule "
				     "(Kubernetes: \"can only use minDomains if whenUnsatisfiable=DoNotSchedule\")");
	v = 1;
	if (csvread_int(rd, C_MIN_DOMAINS, 0, 1, 1000000, &v) < 0)
		return -1;
	w->min_domains = (int)v;
	return 0;
}

/* One availability column: a count 0..replicas, or a whole percent 0%..100%. */
static int load_avail_field(const struct csvread *rd, int c, struct workload *w)
{
	const char *s = csvread_text(rd, c), *name = rd->cols[c].name;
	size_t n = strlen(s);
	long long v;
	double x;

	if (n > 1 && s[n - 1] == '%') {
		char num[32];
		if (n - 1 >= sizeof(num) || (memcpy(num, s, n - 1), num[n - 1] = '\0', parse_double(num, &x)))
			return csvread_error(rd, c, "column '%s': '%s' is not a count or a percent (2 or 50%%)", name, s);
		if (x != floor(x) || parse_llong(num, &v))
			return csvread_error(rd, c, "column '%s': '%s' is not a whole percent", name, s);
		if (v < 0 || v > 100)
			return csvread_error(rd, c, "column '%s': '%s' must be in [0%%, 100%%]", name, s);
		w->avail_percent = 1;
	} else {
		if (parse_llong(s, &v))
			return csvread_error(rd, c, "column '%s': '%s' is not a count or a percent (2 or 50%%)", name, s);
		if (v < 0)
			return csvread_error(rd, c, "column '%s': %lld must be in [0, %ld]", name, v, w->replicas);
		if (v > w->replicas)
			return csvread_error(rd, c, "column '%s': %lld is more than the workload's %ld replicas", name, v,
					     w->replicas);
	}
	w->avail_value = (long)v;
	return 0;
}

/* min_available or max_unavailable (one at most, as a PodDisruptionBudget). */
static int load_avail(const struct csvread *rd, struct workload *w)
{
	int has_min = *csvread_text(rd, C_MIN_AVAILABLE) != '\0', has_max = *csvread_text(rd, C_MAX_UNAVAILABLE) != '\0';

	w->avail = AVAIL_NONE;
	if (has_min && load_avail_field(rd, C_MIN_AVAILABLE, w))
		return -1;
	if (has_min && has_max)
		return csvread_error(rd, C_MAX_UNAVAILABLE, "give min_available or max_unavailable, not both (a "
				     "PodDisruptionBudget has one)");
	if (has_max && load_avail_field(rd, C_MAX_UNAVAILABLE, w))
		return -1;
	w->avail = has_min ? AVAIL_MIN : has_max ? AVAIL_MAX : AVAIL_NONE;
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
	if (load_spread(rd, w) || load_avail(rd, w))
		return -1;
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
