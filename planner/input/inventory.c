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
#include "strmap.h"
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
	C_NODES,
	C_K8S,
	C_NCOLS
};

static const struct csvcol cols[] = {
	{ "name", 1 },
	{ "count", 1 },
	{ "gpu_type", 0 },	/* required unless the row names an offer */
	{ "gpus_per_node", 0 },	/* required unless the row names an offer */
	{ "hypervisor", 0 },	/* required unless the row names an offer */
	{ "site", 1 },
	{ "cpu_cores", 0 },	/* required unless the row names an offer */
	{ "ram_gib", 0 },	/* required unless the row names an offer */
	{ "ownership", 1 },
	{ "capex_usd", 0 },
	{ "amortization_years", 0 },
	{ "hourly_usd", 0 },
	{ "base_power_w", 0 },
	{ "offer", 0 },
	{ "nvaie_bundle_years", 0 },
	{ "nodes", 0 },
	{ "k8s_workers", 0 },
	{ NULL, 0 },
};

/* A cost column that is required for one ownership and must be empty otherwise. */
static int cost_field(const struct csvread *rd, int c, enum ownership own, enum ownership needs,
		      double hi, double *out)
{
	const char *s = csvread_text(rd, c);

	if (own != needs) {
		if (*s)
			return csvread_error(rd, c, "column '%s' must be empty unless ownership is %s",
					     cols[c].name, own_names[needs]);
		return 0;
	}
	if (!*s)
		return csvread_error(rd, c, "column '%s' is required when ownership is %s", cols[c].name,
				     own_names[needs]);
	return csvread_num(rd, c, 1, (struct num_range){ 0, hi, RANGE_LO_OPEN }, out);
}

/* A field the row's cloud offer supplies: empty takes the offer's, else it must agree. */
static int offer_text(const struct csvread *rd, int c, const struct cloud_offer *of, const char **out)
{
	const char *s = csvread_text(rd, c);
	if (of && !*s)
		return 1;
	return csvread_str(rd, c, 1, out);
}

/* name (unique in the file) and count. */
static int load_name(const struct inventory *inv, struct strmap *names, const struct csvread *rd,
		     struct node_class *nc)
{
	const char *s = NULL;
	long long v = 0;
	size_t i;

	if (csvread_str(rd, C_NAME, 1, &s))
		return -1;
	if (strmap_get(names, s, &i))
		return csvread_error(rd, C_NAME, "duplicate node class '%s' (first at line %ld)", s,
				     inv->classes[i].line);
	nc->name = xstrdup(s);
	nc->name_col = rd->idx[C_NAME] + 1;
	strmap_add(names, nc->name, inv->n, &i);
	if (csvread_int(rd, C_COUNT, 1, 1, 1000000, &v))
		return -1;
	nc->count = (long)v;
	return 0;
}

/* The cloud offer the row names, if any (nc->offer stays NULL otherwise). */
static int load_offer(const struct csvread *rd, const struct clouds *clouds, struct node_class *nc)
{
	const char *s = csvread_text(rd, C_OFFER);
	const struct cloud_offer *of;

	if (!*s)
		return 0;
	of = clouds ? clouds_find(clouds, s) : NULL;
	if (!of) {
		const char *near[HINT_MAX];
		char *hint = str_hint_text(near, clouds ? clouds_suggest(clouds, s, near) : 0);
		csvread_error(rd, C_OFFER, "unknown cloud offer '%s'%s", s,
			      *hint ? hint
				    : " (offers are in models/clouds.yaml and the scenario's cloud_offers files)");
		free(hint);
		return -1;
	}
	if (of->pricing == PRICING_CAPACITY_BLOCK)
		return csvread_error(rd, C_OFFER, "offer '%s' is a capacity block: name its instance's on-demand offer "
				     "(the roadmap reserves blocks for it)", s);
	nc->offer = of;
	return 0;
}

/* gpu_type, gpus_per_node and hypervisor: given, or taken from the offer and then agreeing with it. */
static int load_gpus(const struct csvread *rd, const struct catalog *cat, struct node_class *nc)
{
	const struct cloud_offer *of = nc->offer;
	const char *s = NULL;
	long long v = 0;
	int e = 0, rc;

	if ((rc = offer_text(rd, C_GPU_TYPE, of, &s)) < 0)
		return -1;
	if (rc) {
		nc->gpu = of->gpu;
	} else {
		nc->gpu = catalog_find(cat, s);
		if (!nc->gpu) {
			char *hint = catalog_hint(cat, s);
			csvread_error(rd, C_GPU_TYPE, "unknown GPU type '%s'%s", s, hint);
			free(hint);
			return -1;
		}
		if (of && nc->gpu != of->gpu)
			return csvread_error(rd, C_GPU_TYPE, "offer '%s' has GPU type %s, not %s", of->id,
					     of->gpu->id, nc->gpu->id);
	}
	if (of && !*csvread_text(rd, C_GPUS_PER_NODE)) {
		nc->gpus_per_node = of->gpus;
	} else {
		if (csvread_int(rd, C_GPUS_PER_NODE, 1, 1, 64, &v))
			return -1;
		nc->gpus_per_node = (int)v;
		if (of && nc->gpus_per_node != of->gpus)
			return csvread_error(rd, C_GPUS_PER_NODE, "offer '%s' has %d GPUs per node, not %d",
					     of->id, of->gpus, nc->gpus_per_node);
	}
	if (of && !*csvread_text(rd, C_HYPERVISOR)) {
		nc->hv = HV_CLOUD;
	} else {
		if (csvread_word(rd, C_HYPERVISOR, "hypervisor", hypervisor_names, &e))
			return -1;
		nc->hv = (enum hypervisor)e;
		if (of && nc->hv != HV_CLOUD)
			return csvread_error(rd, C_HYPERVISOR,
					     "a node rented from cloud offer '%s' has hypervisor cloud", of->id);
	}
	return 0;
}

/* site, cpu_cores and ram_gib (the last two may come from the offer). */
static int load_node(const struct csvread *rd, struct node_class *nc)
{
	const struct cloud_offer *of = nc->offer;
	const struct num_range positive = { 0, HUGE_VAL, RANGE_LO_OPEN };
	const char *s = NULL;

	if (csvread_str(rd, C_SITE, 1, &s))
		return -1;
	nc->site = xstrdup(s);
	nc->site_col = rd->idx[C_SITE] + 1;
	if (of && of->vcpus > 0 && !*csvread_text(rd, C_CPU_CORES))
		nc->cpu_cores = of->vcpus;
	else if (csvread_num(rd, C_CPU_CORES, 1, positive, &nc->cpu_cores))
		return -1;
	if (of && of->ram_gib > 0 && !*csvread_text(rd, C_RAM_GIB))
		nc->ram_gib = of->ram_gib;
	else if (csvread_num(rd, C_RAM_GIB, 1, positive, &nc->ram_gib))
		return -1;
	return 0;
}

/* ownership and the cost columns that go with it, base power and the NVAIE bundle. */
static int load_costs(const struct csvread *rd, struct node_class *nc)
{
	const struct cloud_offer *of = nc->offer;
	long long v = 0;
	int e = 0;

	if (csvread_word(rd, C_OWNERSHIP, "ownership", own_names, &e))
		return -1;
	nc->own = (enum ownership)e;
	if (of && nc->own != OWN_RENT)
		return csvread_error(rd, C_OWNERSHIP, "a node from cloud offer '%s' is rented (ownership rent)",
				     of->id);
	if (cost_field(rd, C_CAPEX, nc->own, OWN_BUY, HUGE_VAL, &nc->capex_usd) ||
	    cost_field(rd, C_AMORT, nc->own, OWN_BUY, 30, &nc->amortization_years))
		return -1;
	if (of) {
		if (*csvread_text(rd, C_HOURLY))
			return csvread_error(rd, C_HOURLY,
					     "column 'hourly_usd' must be empty: the price comes from offer '%s'",
					     of->id);
		nc->hourly_usd = cloud_offer_hourly(of);
	} else if (cost_field(rd, C_HOURLY, nc->own, OWN_RENT, HUGE_VAL, &nc->hourly_usd)) {
		return -1;
	}
	if (csvread_num(rd, C_BASE_POWER, 0, (struct num_range){ 0, HUGE_VAL, RANGE_CLOSED },
			&nc->base_power_w) < 0)
		return -1;
	if (*csvread_text(rd, C_BUNDLE)) {
		if (csvread_int(rd, C_BUNDLE, 1, 0, 10, &v))
			return -1;
		nc->bundle_years = (int)v;
	}
	return 0;
}

int inventory_node_name_valid(const char *s)
{
	size_t len = strlen(s), i;

	if (!len || len > 253)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		int edge = i == 0 || i + 1 == len || s[i - 1] == '.' || s[i + 1] == '.';
		if (!alnum && !(c == '-' && !edge) && !(c == '.' && !edge))
			return 0;
	}
	return 1;
}

static int label_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int inventory_label_value_valid(const char *s)
{
	size_t len = strlen(s), i;

	if (!len || len > 63 || !label_alnum(s[0]) || !label_alnum(s[len - 1]))
		return 0;
	for (i = 0; i < len; i++)
		if (!label_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return 0;
	return 1;
}

/* The hostnames of an owned row's nodes: one per node. */
static int load_nodes(const struct csvread *rd, struct node_class *nc)
{
	size_t i;

	if (!*csvread_text(rd, C_NODES))
		return 0;
	if (nc->own != OWN_OWNED)
		return csvread_error(rd, C_NODES, "column 'nodes' names existing nodes: ownership must be owned, "
				     "not %s (nodes one may buy or rent get made-up names)", own_names[nc->own]);
	if (csvread_list(rd, C_NODES, &nc->nodes, &nc->nnodes))
		return -1;
	for (i = 0; i < nc->nnodes; i++)
		if (!inventory_node_name_valid(nc->nodes[i]))
			return csvread_error(rd, C_NODES, "column 'nodes': '%s' is not a Kubernetes node name "
					     "(lower-case letters, digits, '-' and '.', at most 253 characters)",
					     nc->nodes[i]);
	if ((long)nc->nnodes != nc->count)
		return csvread_error(rd, C_NODES, "column 'nodes' gives %zu node name%s for count %ld",
				     nc->nnodes, nc->nnodes == 1 ? "" : "s", nc->count);
	return 0;
}

/* k8s_workers: host (default) or vgpu, the latter on a hypervisor and a GPU with vGPU profiles. */
static int load_k8s(const struct csvread *rd, struct node_class *nc)
{
	static const char *const names[] = { "host", "vgpu", NULL };
	int e = 0;

	if (!*csvread_text(rd, C_K8S))
		return 0;
	if (csvread_word(rd, C_K8S, "k8s_workers", names, &e))
		return -1;
	nc->k8s_vgpu = e == 1;
	if (nc->k8s_vgpu && !hypervisor_is_vm_host(nc->hv))
		return csvread_error(rd, C_K8S, "k8s_workers vgpu: worker VMs with vGPUs need a hypervisor "
				     "(vsphere or kvm), not %s", hypervisor_name(nc->hv));
	if (nc->k8s_vgpu && !nc->gpu->has_vgpu)
		return csvread_error(rd, C_K8S, "k8s_workers vgpu: %s has no vGPU profiles", nc->gpu->id);
	return 0;
}

unsigned node_class_modes(const struct node_class *nc)
{
	unsigned m = hypervisor_modes(nc->hv);
	return nc->k8s_vgpu ? m & (MODE_BIT(MODE_VGPU) | MODE_BIT(MODE_MIG_VGPU)) : m;
}

/*
 * The columns a row that names no cloud offer needs: a file whose rows
 * all name offers may leave them out (name,count,offer,site,ownership).
 */
static int need_columns(const struct csvread *rd)
{
	static const int need[] = { C_GPU_TYPE, C_GPUS_PER_NODE, C_HYPERVISOR, C_CPU_CORES, C_RAM_GIB };
	size_t i;

	for (i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (rd->idx[need[i]] < 0)
			return csvdoc_error(rd->doc, &rd->doc->header, -1, rd->d,
					    "missing column '%s' (only rows that name a cloud offer may go without it)",
					    cols[need[i]].name);
	return 0;
}

static int load_row(const struct inventory *inv, struct strmap *names, const struct csvread *rd,
		    const struct catalog *cat, const struct clouds *clouds, struct node_class *nc)
{
	nc->line = rd->r->line;
	nc->bundle_years = -1;
	if (load_name(inv, names, rd, nc) || load_offer(rd, clouds, nc) || (!nc->offer && need_columns(rd)) ||
	    load_gpus(rd, cat, nc) ||
	    load_node(rd, nc) || load_costs(rd, nc) || load_nodes(rd, nc) || load_k8s(rd, nc))
		return -1;
	return 0;
}

struct node_ref {
	const char *name;
	size_t row;		/* class (= data row) index */
};

static int node_ref_cmp(const void *a, const void *b)
{
	const struct node_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

/* Every node name once in the file: the second use is the error. */
static int check_unique_nodes(const struct inventory *inv, const struct csvdoc *doc, const int *idx,
			      struct diag *d)
{
	struct node_ref *refs;
	size_t n = 0, i, j;
	int rc = 0;

	for (i = 0; i < inv->n; i++)
		n += inv->classes[i].nnodes;
	if (n < 2)
		return 0;
	refs = xcalloc(n, sizeof(*refs));
	n = 0;
	for (i = 0; i < inv->n; i++)
		for (j = 0; j < inv->classes[i].nnodes; j++)
			refs[n++] = (struct node_ref){ inv->classes[i].nodes[j], i };
	qsort(refs, n, sizeof(*refs), node_ref_cmp);
	for (i = 1; i < n && !rc; i++) {
		if (strcmp(refs[i - 1].name, refs[i].name))
			continue;
		const struct csvread rd = { doc, &doc->rows[refs[i].row], cols, idx, d };
		rc = csvread_error(&rd, C_NODES, "node '%s' is named twice (also in class '%s')", refs[i].name,
				   inv->classes[refs[i - 1].row].name);
	}
	free(refs);
	return rc;
}

static void node_class_release(struct node_class *nc)
{
	free(nc->name);
	free(nc->site);
	csvread_list_free(nc->nodes, nc->nnodes);
}

int inventory_load(struct inventory *inv, const char *path, const struct catalog *cat,
		   const struct clouds *clouds, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct strmap names = STRMAP_INIT;	/* class name -> its index: duplicates in constant time */
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
		const struct csvread rd = { &doc, &doc.rows[i], cols, idx, d };
		if (csvdoc_interrupted(&doc, i, d) || load_row(inv, &names, &rd, cat, clouds, nc)) {
			node_class_release(nc);
			memset(nc, 0, sizeof(*nc));
			goto out;
		}
		inv->n++;
	}
	if (check_unique_nodes(inv, &doc, idx, d))
		goto out;
	rc = 0;
out:
	strmap_release(&names);
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
