/*
 * scenario.c - the scenario file, the files it names, and whether a
 * workload could ever be placed on its inventory.
 *
 * Load order: scenario YAML (every field checked), the bundled GPU
 * catalog, the scenario's own GPU files, the inventory, the workloads,
 * then the checks across files.  Relative names are joined to the
 * scenario's directory as given, so messages name the files the way the
 * user can open them (data/example/inventory.csv:4:3: ...).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario.h"
#include "scenario_path.h"
#include "scenario_roadmap.h"
#include "scenario_resilience.h"
#include "models.h"
#include "mig.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

#ifndef GPUPLAN_MODELS_DIR
#define GPUPLAN_MODELS_DIR "models"
#endif

#define SCENARIO_SCHEMA "gpuplan-scenario/1"

/* ================= numbers ================= */

/*
 * An optional number field of the mapping in range; keeps *out (the
 * default) when the field is absent.  0 ok or absent, -1 error.
 */
static int num_field(const struct yread *y, const char *key, struct num_range range, double *out)
{
	return yread_num(y, key, 0, range, out) < 0 ? -1 : 0;
}

/* An optional integer field in [lo, hi]; keeps *out when absent. */
static int int_field(const struct yread *y, const char *key, long long lo, long long hi, int *out)
{
	long long x = 0;
	int rc = yread_int(y, key, 0, lo, hi, &x);
	if (rc)
		return rc < 0 ? -1 : 0;
	*out = (int)x;
	return 0;
}

/* An optional mapping with a fixed set of keys; *out NULL when absent. */
static int sub_map(const struct ydoc *doc, const char *key, const char *const *keys,
		   const struct ynode **out, struct diag *d)
{
	const struct ynode *m = ymap_get(doc->root, key);
	*out = NULL;
	if (!m)
		return 0;
	if (ynode_expect(doc, m, YN_MAP, key, d) || ymap_check_keys(doc, m, keys, key, d))
		return -1;
	*out = m;
	return 0;
}

/* ================= loading ================= */

/* Fails with a message at the scenario field that names a file that cannot be opened. */
static int check_readable(const struct ydoc *doc, const struct ynode *node, const char *what,
			  const char *path, struct diag *d)
{
	struct stat st;
	int fd = file_open_regular(path, SIZE_MAX, &st);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (fd == FILE_READ_IO && errno == EISDIR)
		return ydoc_error(doc, node, d, "%s '%s' is a directory, not a file", what, path);
	if (fd == FILE_READ_NOT_REGULAR)
		return ydoc_error(doc, node, d, "%s '%s' is not a regular file (a FIFO, device or socket)", what, path);
	return ydoc_error(doc, node, d, "cannot open %s '%s': %s", what, path, strerror(errno));
}

/* An optional non-empty string field, copied. */
static int opt_str(const struct yread *y, const char *key, char **out)
{
	const char *s;
	int rc = yread_nonblank(y, key, 0, &s);
	if (rc)
		return rc < 0 ? -1 : 0;
	*out = xstrdup(s);
	return 0;
}

/* An optional list of file names of the root mapping y, relative to dir, each readable. */
static int file_list(const struct yread *y, const char *key, const char *what, const char *dir,
		     char ***files, size_t *n)
{
	const struct ynode *list = ymap_get(y->map, key);
	size_t i;
	if (!list)
		return 0;
	if (ynode_expect(y->doc, list, YN_SEQ, key, y->d))
		return -1;
	*files = xcalloc(list->n ? list->n : 1, sizeof(**files));
	for (i = 0; i < list->n; i++) {
		const struct ynode *it = list->items[i];
		if (it->type != YN_SCALAR || str_blank(it->scalar))
			return ydoc_error(y->doc, it, y->d, "a '%s' entry must be a file name", key);
		(*files)[(*n)++] = scenario_path_join(dir, it->scalar);
		if (check_readable(y->doc, it, what, (*files)[i], y->d))
			return -1;
	}
	return 0;
}

/* A word of the NULL-terminated names; keeps *out when the field is absent. */
static int word_field(const struct yread *y, const char *key, const char *const *names, int *out)
{
	const char *s;
	char *hint;
	int i, rc = yread_str(y, key, 0, &s);
	if (rc)
		return rc < 0 ? -1 : 0;
	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	hint = str_hint(s, names);
	ydoc_error(y->doc, ymap_get(y->map, key), y->d, "field '%s': unknown value '%s'%s", key, s, hint);
	free(hint);
	return -1;
}

static int load_licensing(struct scenario *sc, const struct ydoc *doc, struct diag *d)
{
	static const char *const keys[] = { "counting", "vgpu_product", "term", "cloud_term",
					    "nvaie_usd_per_gpu_year", "vcs_usd_per_gpu_year",
					    "support_usd_per_gpu_year", "source", "lease_hours", "passthrough_vm", NULL };
	static const char *const countings[] = { "physical-gpu", "vgpu-seat", NULL };
	static const char *const products[] = { "vcs", "nvaie", NULL };
	static const char *const terms[] = { "subscription", "perpetual", NULL };
	static const char *const cloud_terms[] = { "auto", "cloud-hourly", "subscription", "perpetual", NULL };
	static const char *const passthrough_vm[] = { "licensed", "unlicensed", NULL };
	const struct num_range usd = { 0, 1e9, RANGE_CLOSED };
	struct scenario_licensing *L = &sc->licensing;
	const struct ynode *m;
	struct yread y;
	int c = 0, p = 1, t = 0, ct = 0, pv = 0;

	if (sub_map(doc, "licensing", keys, &m, d))
		return -1;
	if (!m)
		return 0;
	y = (struct yread){ doc, m, d };
	L->line = m->line;
	if (word_field(&y, "counting", countings, &c) || word_field(&y, "vgpu_product", products, &p) ||
	    word_field(&y, "term", terms, &t) || word_field(&y, "cloud_term", cloud_terms, &ct) ||
	    word_field(&y, "passthrough_vm", passthrough_vm, &pv) ||
	    num_field(&y, "nvaie_usd_per_gpu_year", usd, &L->usd_per_gpu_year[LIC_NVAIE]) ||
	    num_field(&y, "vcs_usd_per_gpu_year", usd, &L->usd_per_gpu_year[LIC_VCS]) ||
	    num_field(&y, "support_usd_per_gpu_year", usd, &L->support_usd_per_gpu_year) ||
	    opt_str(&y, "source", &L->source) ||
	    num_field(&y, "lease_hours", (struct num_range){ 0, 8760, RANGE_CLOSED }, &L->lease_hours))
		return -1;
	L->counting = (enum lic_counting)c;
	L->passthrough_vm_unlicensed = pv;
	L->vgpu_product = p ? LIC_NVAIE : LIC_VCS;
	free(L->term);
	free(L->cloud_term);
	L->term = xstrdup(terms[t]);
	L->cloud_term = xstrdup(cloud_terms[ct]);
	if ((L->usd_per_gpu_year[LIC_NVAIE] >= 0 || L->usd_per_gpu_year[LIC_VCS] >= 0 ||
	     L->support_usd_per_gpu_year >= 0) && !L->source)
		return ydoc_error(doc, m, d, "licensing sets its own prices: say where they come from in 'source'");
	return 0;
}

static int load_hypervisors(struct scenario *sc, const struct ydoc *doc, struct diag *d)
{
	static const char *const keys[] = { "vsphere", "kvm", "baremetal", "cloud", NULL };
	static const char *const hkeys[] = { "usd_per_node_year", "usd_per_core_year", "source", NULL };
	const struct ynode *m;
	size_t i;

	if (sub_map(doc, "hypervisors", keys, &m, d))
		return -1;
	for (i = 0; m && i < m->n; i++) {
		const struct ynode *h = m->items[i];
		const struct yread y = { doc, h, d };
		struct hypervisor_cost *hc;
		const char *src;
		int k;
		for (k = 0; k < HV_COUNT; k++)
			if (!strcmp(m->keys[i], hypervisor_name((enum hypervisor)k)))
				break;
		hc = &sc->hv_cost[k];
		hc->line = h->line;
		if (ynode_expect(doc, h, YN_MAP, m->keys[i], d) || ymap_check_keys(doc, h, hkeys, m->keys[i], d) ||
		    num_field(&y, "usd_per_node_year", (struct num_range){ 0, 1e9, RANGE_CLOSED },
			      &hc->usd_per_node_year) ||
		    num_field(&y, "usd_per_core_year", (struct num_range){ 0, 1e7, RANGE_CLOSED },
			      &hc->usd_per_core_year))
			return -1;
		if (yread_nonblank(&y, "source", 1, &src))
			return -1;
		hc->source = xstrdup(src);
	}
	return 0;
}

/* The solver, sharing and energy mappings. */
static int load_options(struct scenario *sc, const struct ydoc *doc, struct diag *d)
{
	static const char *const solver_keys[] = { "time_limit_s", "gap_pct", "mip_gap", "node_limit", NULL };
	static const char *const sharing_keys[] = { "timeslice_max_replicas", "mps_max_clients",
						    "timeslice_shares", "mig_strategy", "rename_by_default",
						    "operator_mig_strategy", NULL };
	static const char *const mig_strategies[] = { "mixed", "single", NULL };
	static const char *const operator_strategies[] = { "unset", "single", "mixed", "none", NULL };
	static const char *const energy_keys[] = { "usd_per_kwh", "pue", "gpu_load_factor", "gpu_idle_factor",
						   "source", NULL };
	const struct ynode *m;
	struct yread y;

	if (sub_map(doc, "solver", solver_keys, &m, d))
		return -1;
	if (m) {
		long long nl = 0;
		y = (struct yread){ doc, m, d };
		if (num_field(&y, "time_limit_s", (struct num_range){ 0, 86400, RANGE_LO_OPEN }, &sc->time_limit_s) ||
		    yread_gap(&y, &sc->mip_gap) < 0 ||
		    yread_int(&y, "node_limit", 0, 1, 1000000000, &nl) < 0)
			return -1;
		sc->node_limit = (long)nl;
	}

	if (sub_map(doc, "sharing", sharing_keys, &m, d))
		return -1;
	y = (struct yread){ doc, m, d };
	if (m && (int_field(&y, "timeslice_max_replicas", 2, 48, &sc->timeslice_max) ||
		  int_field(&y, "mps_max_clients", 2, 48, &sc->mps_max) ||
		  yread_bool(&y, "timeslice_shares", 0, &sc->timeslice_shares) < 0 ||
		  word_field(&y, "mig_strategy", mig_strategies, &sc->mig_single) ||
		  yread_bool(&y, "rename_by_default", 0, &sc->rename_by_default) < 0 ||
		  word_field(&y, "operator_mig_strategy", operator_strategies, &sc->operator_mig)))
		return -1;

	if (sub_map(doc, "energy", energy_keys, &m, d))
		return -1;
	y = (struct yread){ doc, m, d };
	if (m && (num_field(&y, "usd_per_kwh", (struct num_range){ 0, HUGE_VAL, RANGE_CLOSED }, &sc->energy_usd_per_kwh) ||
		  num_field(&y, "pue", (struct num_range){ 1, 3, RANGE_CLOSED }, &sc->pue) ||
		  num_field(&y, "gpu_load_factor", (struct num_range){ 0, 1, RANGE_LO_OPEN }, &sc->gpu_load_factor) ||
		  num_field(&y, "gpu_idle_factor", (struct num_range){ 0, 1, RANGE_CLOSED }, &sc->gpu_idle_factor) ||
		  opt_str(&y, "source", &sc->energy_source)))
		return -1;
	if (m && ymap_get(m, "usd_per_kwh"))
		sc->energy_line = ymap_get(m, "usd_per_kwh")->line;
	if (sc->gpu_idle_factor > sc->gpu_load_factor)
		return ydoc_error(doc, ymap_get(m, "gpu_idle_factor"), d,
				  "field 'gpu_idle_factor' must not exceed gpu_load_factor");
	return 0;
}

static int load_fields(struct scenario *sc, const struct ydoc *doc, const char *dir,
		       const char *models_dir, struct diag *d)
{
	static const char *const keys[] = { "schema", "name", "models", "gpu_types", "inventory",
					    "workloads", "horizon_years", "solver", "sharing", "energy",
					    "licensing", "hypervisors", "cloud_offers", "unplaced_weight", "gpu_memory",
					    "driver", "roadmap", "resilience", NULL };
	static const char *const unplaced[] = { "replicas", "gpus", NULL };
	static const char *const memory[] = { "usable", "nominal", NULL };
	const struct ynode *root = doc->root;
	const struct yread y = { doc, root, d };
	const char *s = NULL;

	if (ydoc_check_root(doc, "the scenario file", keys, SCENARIO_SCHEMA, d))
		return -1;
	if (yread_nonblank(&y, "name", 1, &s))
		return -1;
	sc->name = xstrdup(s);

	if (models_dir) {
		sc->models_dir = xstrdup(models_dir);
	} else if (yread_nonblank(&y, "models", 0, &s) < 0) {
		return -1;
	} else if (ymap_get(root, "models")) {
		sc->models_dir = scenario_path_join(dir, s);
	} else {
		sc->models_dir = xstrdup(models_dir_or_default(NULL));
	}

	if (file_list(&y, "gpu_types", "GPU file", dir, &sc->gpu_files, &sc->ngpu_files) ||
	    file_list(&y, "cloud_offers", "cloud offers file", dir, &sc->offer_files, &sc->noffer_files))
		return -1;

	if (yread_nonblank(&y, "inventory", 1, &s))
		return -1;
	sc->inventory_path = scenario_path_join(dir, s);
	if (check_readable(doc, ymap_get(root, "inventory"), "inventory", sc->inventory_path, d))
		return -1;
	if (yread_nonblank(&y, "workloads", 1, &s))
		return -1;
	sc->workloads_path = scenario_path_join(dir, s);
	if (check_readable(doc, ymap_get(root, "workloads"), "workloads", sc->workloads_path, d))
		return -1;

	if (num_field(&y, "horizon_years", (struct num_range){ 0, 30, RANGE_LO_OPEN }, &sc->horizon_years) ||
	    word_field(&y, "unplaced_weight", unplaced, &sc->unplaced_by_gpus) ||
	    word_field(&y, "gpu_memory", memory, &sc->gpu_memory_nominal) || opt_str(&y, "driver", &sc->driver))
		return -1;
	if (sc->driver && driver_branch(sc->driver) < 0)
		return ydoc_error(doc, ymap_get(root, "driver"), d,
				  "field 'driver': '%s' is not an NVIDIA driver branch or version (580, 580.95.05)",
				  sc->driver);
	return load_options(sc, doc, d) || load_licensing(sc, doc, d) || load_hypervisors(sc, doc, d) ||
			       scenario_roadmap_load(sc, doc, dir, d) || scenario_resilience_load(sc, doc, d)
		       ? -1
		       : 0;
}

/* Each workload site must be a site of some node class. */
static int check_sites(const struct scenario *sc, struct diag *d)
{
	const struct inventory *inv = &sc->inventory;
	const struct workloads *wl = &sc->workloads;
	const char **sites = xcalloc(inv->n + 1, sizeof(*sites));
	size_t i, j, k, n = 0;
	int rc = 0;

	for (i = 0; i < inv->n; i++) {
		for (k = 0; k < n; k++)
			if (!strcmp(sites[k], inv->classes[i].site))
				break;
		if (k == n)
			sites[n++] = inv->classes[i].site;
	}
	for (i = 0; i < wl->n && !rc; i++) {
		const struct workload *w = &wl->w[i];
		for (j = 0; j < w->nsites && !rc; j++) {
			char *hint;
			for (k = 0; k < n; k++)
				if (!strcmp(sites[k], w->sites[j]))
					break;
			if (k < n)
				continue;
			hint = str_hint(w->sites[j], sites);
			rc = diag_set(d, DIAG_INPUT, wl->file, w->line, wl->sites_col,
				      "unknown site '%s': no node class is there%s", w->sites[j], hint);
			free(hint);
		}
	}
	free(sites);
	return rc;
}

/* <exe dir>/../share/gpuplan/models, set by models_dir_set_exe_dir ("" when not set). */
static char installed_models[4096];

void models_dir_set_exe_dir(const char *exe_dir)
{
	int n = snprintf(installed_models, sizeof(installed_models), "%s/../share/gpuplan/models", exe_dir);
	if (n < 0 || (size_t)n >= sizeof(installed_models))
		installed_models[0] = '\0';
}

const char *models_dir_or_default(const char *given)
{
	const char *env = getenv("GPUPLAN_MODELS");
	if (given)
		return given;
	if (env && *env)
		return env;
	if (installed_models[0]) {
		char gpus[sizeof(installed_models) + 16];
		struct stat st;
		snprintf(gpus, sizeof(gpus), "%s/gpus.yaml", installed_models);
		if (!stat(gpus, &st))
			return installed_models;
	}
	return GPUPLAN_MODELS_DIR;
}

/*
 * sc->models_digest: FNV-1a (64 bits) over the three model files' names
 * and bytes, so that a report says which tables it was planned with (an
 * identity, not a security check); "" when one cannot be read again.
 */
static void models_digest(struct scenario *sc, const char *const paths[3])
{
	static const char *const names[3] = { "gpus.yaml", "licenses.yaml", "clouds.yaml" };
	unsigned long long h = 14695981039346656037ULL;
	size_t i, j, len;
	char *buf;

	sc->models_digest[0] = '\0';
	for (i = 0; i < 3; i++) {
		if (file_read_all(paths[i], 64u << 20, &buf, &len) < 0)
			return;
		for (j = 0; j <= strlen(names[i]); j++)
			h = (h ^ (unsigned char)names[i][j]) * 1099511628211ULL;
		for (j = 0; j < len; j++)
			h = (h ^ (unsigned char)buf[j]) * 1099511628211ULL;
		free(buf);
	}
	snprintf(sc->models_digest, sizeof(sc->models_digest), "fnv1a64:%016llx", h);
}

int scenario_load(struct scenario *sc, const char *path, const char *models_dir, struct diag *d)
{
	struct ydoc doc = YDOC_INIT;
	struct inventory inv0 = INVENTORY_INIT;
	struct workloads wl0 = WORKLOADS_INIT;
	struct catalog cat0 = CATALOG_INIT;
	char *dir = scenario_dir_of(path), *gpus = NULL, *lic = NULL, *offers = NULL;
	size_t i;
	int rc = -1;

	memset(sc, 0, sizeof(*sc));
	sc->catalog = cat0;
	sc->inventory = inv0;
	sc->workloads = wl0;
	sc->file = xstrdup(path);
	sc->horizon_years = 1;
	sc->time_limit_s = 30;
	sc->mip_gap = 1e-4;
	sc->timeslice_max = 8;
	sc->mps_max = 8;
	sc->energy_usd_per_kwh = 0;
	sc->pue = 1;
	sc->gpu_load_factor = 1;
	sc->licensing.counting = COUNT_PHYSICAL_GPU;
	sc->licensing.vgpu_product = LIC_NVAIE;
	sc->licensing.term = xstrdup("subscription");
	sc->licensing.cloud_term = xstrdup("auto");
	sc->licensing.usd_per_gpu_year[LIC_NONE] = 0;
	sc->licensing.usd_per_gpu_year[LIC_VCS] = -1;
	sc->licensing.usd_per_gpu_year[LIC_NVAIE] = -1;
	sc->licensing.support_usd_per_gpu_year = -1;

	if (ydoc_load(&doc, path, d) || load_fields(sc, &doc, dir, models_dir, d))
		goto out;
	gpus = scenario_path_join(sc->models_dir, "gpus.yaml");
	if (catalog_load(&sc->catalog, gpus, 0, d))
		goto out;
	for (i = 0; i < sc->ngpu_files; i++)
		if (catalog_load(&sc->catalog, sc->gpu_files[i], 1, d))
			goto out;
	catalog_pick_mig_reads(&sc->catalog, sc->driver);
	if (sc->gpu_memory_nominal)
		for (i = 0; i < sc->catalog.n; i++)
			sc->catalog.gpus[i].memory_mib = sc->catalog.gpus[i].nominal_mib;
	lic = scenario_path_join(sc->models_dir, "licenses.yaml");
	if (licenses_load(&sc->licenses, lic, &sc->catalog, d))
		goto out;
	offers = scenario_path_join(sc->models_dir, "clouds.yaml");
	if (clouds_load(&sc->clouds, offers, &sc->catalog, d))
		goto out;
	for (i = 0; i < sc->noffer_files; i++)
		if (clouds_load(&sc->clouds, sc->offer_files[i], &sc->catalog, d))
			goto out;
	if (inventory_load(&sc->inventory, sc->inventory_path, &sc->catalog, &sc->clouds, d) ||
	    workloads_load(&sc->workloads, sc->workloads_path, &sc->catalog, d) || check_sites(sc, d) ||
	    scenario_site_labels_check(sc, d) || scenario_resilience_check(sc, d) || scenario_roadmap_check(sc, d))
		goto out;
	models_digest(sc, (const char *const[]){ gpus, lic, offers });
	rc = 0;
out:
	free(gpus);
	free(lic);
	free(offers);
	free(dir);
	ydoc_release(&doc);
	return rc;
}

void scenario_release(struct scenario *sc)
{
	size_t i;
	free(sc->file);
	free(sc->name);
	free(sc->models_dir);
	free(sc->inventory_path);
	free(sc->workloads_path);
	for (i = 0; i < sc->ngpu_files; i++)
		free(sc->gpu_files[i]);
	free(sc->gpu_files);
	for (i = 0; i < sc->noffer_files; i++)
		free(sc->offer_files[i]);
	free(sc->offer_files);
	free(sc->energy_source);
	free(sc->driver);
	free(sc->licensing.term);
	free(sc->licensing.cloud_term);
	free(sc->licensing.source);
	scenario_roadmap_release(&sc->roadmap);
	for (i = 0; i < HV_COUNT; i++)
		free(sc->hv_cost[i].source);
	licenses_release(&sc->licenses);
	clouds_release(&sc->clouds);
	workloads_release(&sc->workloads);
	inventory_release(&sc->inventory);
	catalog_release(&sc->catalog);
	memset(sc, 0, sizeof(*sc));
}
