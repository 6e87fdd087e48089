/*
 * inventory.c - node classes from the inventory CSV.
 *
 * Every field is checked strictly, in column-table order within a row and
 * row by row, so the first error of the file is the one reported.  The
 * cost columns depend on `ownership`: capex_usd and amortization_years
 * belong to `buy` rows, hourly_usd to `rent` rows, and a cost given where
 * it does not apply is an error rather than silently ignored.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "inventory.h"
#include "util.h"
#include "banned.h"

static const char *const own_names[] = { "owned", "buy", "rent", NULL };

const char *ownership_name(enum ownership o)
{
	return (unsigned)o < OWN_COUNT ? own_names[o] : "?";
}

/* The columns, in the order their fields are checked. */
enum {
	C_NAME,
	C_COUNT,
	C_GPU_TYPE,
	C_GPUS_PER_NODE,
	C_HYPERVISOR,
	C_SITE,
	C_CPU_CORES,
	C_RAM_GIB,
	C_OWNERSHIP,
	C_CAPEX,
	C_AMORT,
	C_HOURLY,
	C_BASE_POWER,
	C_OFFER,
	C_BUNDLE,
	C_NCOLS
};

static const struct csvcol cols[] = {
	{ "name", 1 },
	{ "count", 1 },
	{ "gpu_type", 1 },
	{ "gpus_per_node", 1 },
	{ "hypervisor", 1 },
	{ "site", 1 },
	{ "cpu_cores", 1 },
	{ "ram_gib", 1 },
	{ "ownership", 1 },
	{ "capex_usd", 0 },
	{ "amortization_years", 0 },
	{ "hourly_usd", 0 },
	{ "base_power_w", 0 },
	{ "offer", 0 },
	{ "nvaie_bundle_years", 0 },
	{ NULL, 0 },
};

/* One of names (case-insensitive); the error hints at a near miss. */
static int enum_field(const struct csvdoc *doc, const struct csvrow *r, const int *idx, int c,
		      const char *what, const char *const *names, const char *expected, int *out,
		      struct diag *d)
{
	const char *s = NULL, *hint;
	int i;

	if (csvdoc_str(doc, r, idx[c], cols[c].name, 1, &s, d))
		return -1;
	for (i = 0; names[i]; i++) {
		if (!str_casecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	hint = did_you_mean(s, names);
	if (hint)
		return csvdoc_error(doc, r, idx[c], d, "unknown %s '%s' (did you mean '%s'?)", what, s,
				    hint);
	return csvdoc_error(doc, r, idx[c], d, "unknown %s '%s' (expected %s)", what, s, expected);
}

/* A cost column that is required for one ownership and must be empty otherwise. */
static int cost_field(const struct csvdoc *doc, const struct csvrow *r, const int *idx, int c,
		      enum ownership own, enum ownership needs, double hi, double *out, struct diag *d)
{
	const char *s = csvdoc_field(doc, r, idx[c]);

	if (own != needs) {
		if (*s)
			return csvdoc_error(doc, r, idx[c], d,
					    "column '%s' must be empty unless ownership is %s", cols[c].name,
					    own_names[needs]);
		return 0;
	}
	if (!*s)
		return csvdoc_error(doc, r, idx[c], d, "column '%s' is required when ownership is %s",
				    cols[c].name, own_names[needs]);
	return csvdoc_num_range(doc, r, idx[c], cols[c].name, 1, 0, hi, RANGE_LO_OPEN, out, d);
}

/* A field the row's cloud offer supplies: empty takes the offer's, else it must agree. */
static int offer_text(const struct csvdoc *doc, const struct csvrow *r, const int *idx, int c,
		      const struct cloud_offer *of, const char **out, struct diag *d)
{
	const char *s = csvdoc_field(doc, r, idx[c]);
	if (of && !*s)
		return 1;
	return csvdoc_str(doc, r, idx[c], cols[c].name, 1, out, d);
}

static int load_row(const struct inventory *inv, const struct csvdoc *doc, const struct csvrow *r,
		    const int *idx, const struct catalog *cat, const struct clouds *clouds,
		    struct node_class *nc, struct diag *d)
{
	const struct cloud_offer *of = NULL;
	const char *s = NULL;
	long long v = 0;
	int e = 0, rc;
	size_t i;

	nc->line = r->line;
	nc->bundle_years = -1;
	if (csvdoc_str(doc, r, idx[C_NAME], "name", 1, &s, d))
		return -1;
	for (i = 0; i < inv->n; i++)
		if (!strcmp(inv->classes[i].name, s))
			return csvdoc_error(doc, r, idx[C_NAME], d,
					    "duplicate node class '%s' (first at line %ld)", s,
					    inv->classes[i].line);
	nc->name = xstrdup(s);
	if (csvdoc_int(doc, r, idx[C_COUNT], "count", 1, 1, 1000000, &v, d))
		return -1;
	nc->count = (long)v;
	s = csvdoc_field(doc, r, idx[C_OFFER]);
	if (*s) {
		of = clouds ? clouds_find(clouds, s) : NULL;
		if (!of) {
			const char *hint = clouds ? clouds_suggest(clouds, s) : NULL;
			if (hint)
				return csvdoc_error(doc, r, idx[C_OFFER], d,
						    "unknown cloud offer '%s' (did you mean '%s'?)", s, hint);
			return csvdoc_error(doc, r, idx[C_OFFER], d,
					    "unknown cloud offer '%s' (offers are in models/clouds.yaml and "
					    "the scenario's cloud_offers files)", s);
		}
		nc->offer = of;
	}
	if ((rc = offer_text(doc, r, idx, C_GPU_TYPE, of, &s, d)) < 0)
		return -1;
	if (rc) {
		nc->gpu = of->gpu;
	} else {
		nc->gpu = catalog_find(cat, s);
		if (!nc->gpu) {
			const char *hint = catalog_suggest(cat, s);
			if (hint)
				return csvdoc_error(doc, r, idx[C_GPU_TYPE], d,
						    "unknown GPU type '%s' (did you mean '%s'?)", s, hint);
			return csvdoc_error(doc, r, idx[C_GPU_TYPE], d, "unknown GPU type '%s'", s);
		}
		if (of && nc->gpu != of->gpu)
			return csvdoc_error(doc, r, idx[C_GPU_TYPE], d, "offer '%s' has GPU type %s, not %s",
					    of->id, of->gpu->id, nc->gpu->id);
	}
	if (of && !*csvdoc_field(doc, r, idx[C_GPUS_PER_NODE])) {
		nc->gpus_per_node = of->gpus;
	} else {
		if (csvdoc_int(doc, r, idx[C_GPUS_PER_NODE], "gpus_per_node", 1, 1, 64, &v, d))
			return -1;
		nc->gpus_per_node = (int)v;
		if (of && nc->gpus_per_node != of->gpus)
			return csvdoc_error(doc, r, idx[C_GPUS_PER_NODE], d, "offer '%s' has %d GPUs per node, not %d",
					    of->id, of->gpus, nc->gpus_per_node);
	}
	if (of && !*csvdoc_field(doc, r, idx[C_HYPERVISOR])) {
		nc->hv = HV_CLOUD;
	} else {
		if (enum_field(doc, r, idx, C_HYPERVISOR, "hypervisor", hypervisor_names,
			       "vsphere, kvm, baremetal or cloud", &e, d))
			return -1;
		nc->hv = (enum hypervisor)e;
		if (of && nc->hv != HV_CLOUD)
			return csvdoc_error(doc, r, idx[C_HYPERVISOR], d,
					    "a node rented from cloud offer '%s' has hypervisor cloud", of->id);
	}
	if (csvdoc_str(doc, r, idx[C_SITE], "site", 1, &s, d))
		return -1;
	nc->site = xstrdup(s);
	if (of && of->vcpus > 0 && !*csvdoc_field(doc, r, idx[C_CPU_CORES]))
		nc->cpu_cores = of->vcpus;
	else if (csvdoc_num_range(doc, r, idx[C_CPU_CORES], "cpu_cores", 1, 0, HUGE_VAL, RANGE_LO_OPEN,
				  &nc->cpu_cores, d))
		return -1;
	if (of && of->ram_gib > 0 && !*csvdoc_field(doc, r, idx[C_RAM_GIB]))
		nc->ram_gib = of->ram_gib;
	else if (csvdoc_num_range(doc, r, idx[C_RAM_GIB], "ram_gib", 1, 0, HUGE_VAL, RANGE_LO_OPEN, &nc->ram_gib, d))
		return -1;
	if (enum_field(doc, r, idx, C_OWNERSHIP, "ownership", own_names, "owned, buy or rent", &e, d))
		return -1;
	nc->own = (enum ownership)e;
	if (of && nc->own != OWN_RENT)
		return csvdoc_error(doc, r, idx[C_OWNERSHIP], d, "a node from cloud offer '%s' is rented (ownership rent)",
				    of->id);
	if (cost_field(doc, r, idx, C_CAPEX, nc->own, OWN_BUY, HUGE_VAL, &nc->capex_usd, d) ||
	    cost_field(doc, r, idx, C_AMORT, nc->own, OWN_BUY, 30, &nc->amortization_years, d))
		return -1;
	if (of) {
		if (*csvdoc_field(doc, r, idx[C_HOURLY]))
			return csvdoc_error(doc, r, idx[C_HOURLY], d,
					    "column 'hourly_usd' must be empty: the price comes from offer '%s'", of->id);
		nc->hourly_usd = of->usd_per_hour;
	} else if (cost_field(doc, r, idx, C_HOURLY, nc->own, OWN_RENT, HUGE_VAL, &nc->hourly_usd, d)) {
		return -1;
	}
	if (csvdoc_num_range(doc, r, idx[C_BASE_POWER], "base_power_w", 0, 0, HUGE_VAL, RANGE_CLOSED,
			     &nc->base_power_w, d) < 0)
		return -1;
	if (*csvdoc_field(doc, r, idx[C_BUNDLE])) {
		if (csvdoc_int(doc, r, idx[C_BUNDLE], "nvaie_bundle_years", 1, 0, 10, &v, d))
			return -1;
		nc->bundle_years = (int)v;
	}
	return 0;
}

static void node_class_release(struct node_class *nc)
{
	free(nc->name);
	free(nc->site);
}

int inventory_load(struct inventory *inv, const char *path, const struct catalog *cat,
		   const struct clouds *clouds, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	int idx[C_NCOLS];
	size_t i;
	int rc = -1;

	inv->file = xstrdup(path);
	inv->n = 0;
	inv->classes = NULL;
	if (csvdoc_load(&doc, path, d) || csvdoc_bind(&doc, cols, idx, d))
		goto out;
	if (doc.nrows == 0) {
		csvdoc_error(&doc, &doc.header, -1, d, "no node classes (the file has only a header)");
		goto out;
	}
	inv->classes = xcalloc(doc.nrows, sizeof(*inv->classes));
	for (i = 0; i < doc.nrows; i++) {
		struct node_class *nc = &inv->classes[inv->n];
		if (load_row(inv, &doc, &doc.rows[i], idx, cat, clouds, nc, d)) {
			node_class_release(nc);
			memset(nc, 0, sizeof(*nc));
			goto out;
		}
		inv->n++;
	}
	rc = 0;
out:
	csvdoc_release(&doc);
	return rc;
}

void inventory_release(struct inventory *inv)
{
	size_t i;
	for (i = 0; i < inv->n; i++)
		node_class_release(&inv->classes[i]);
	free(inv->classes);
	free(inv->file);
	inv->classes = NULL;
	inv->file = NULL;
	inv->n = 0;
}
