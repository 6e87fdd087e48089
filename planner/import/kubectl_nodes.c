/*
 * kubectl_nodes.c - the GPU nodes of `kubectl get nodes -o json` (see
 * kube.h): GPU Feature Discovery labels, allocatable CPU and
 * memory, zone or region, and how the GPUs are shared today.
 *
 * Labels read (GFD, k8s-device-plugin; GPU Operator mig-manager):
 * nvidia.com/gpu.product, gpu.count, gpu.replicas, gpu.sharing-strategy,
 * mig.strategy, mig.config, nvidia.com/mig-<profile>.count;
 * topology.kubernetes.io/zone and region (well-known labels).
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfd.h"
#include "kube.h"
#include "inventory.h"
#include "util.h"
#include "banned.h"

#define L_PRODUCT "nvidia.com/gpu.product"
#define L_COUNT "nvidia.com/gpu.count"
#define L_REPLICAS "nvidia.com/gpu.replicas"
#define L_SHARING "nvidia.com/gpu.sharing-strategy"
#define L_STRATEGY "nvidia.com/mig.strategy"
#define L_CONFIG "nvidia.com/mig.config"
#define L_MIG_PREFIX "nvidia.com/mig-"

/* What a whole-number label may hold. */
struct label_range {
	long lo, hi;		/* the values allowed */
	long dflt;		/* the value when absent; < 0: the label is required */
};

/* A whole-number label in [r.lo, r.hi]; absent: *out = r.dflt, or an error when required. */
static int label_int(const struct kitem *it, const cJSON *labels, const char *key, struct label_range r, long *out)
{
	long lo = r.lo, hi = r.hi, dflt = r.dflt;
	const char *const keys[] = { "metadata", "labels", key, NULL };
	const char *v = kjson_str(labels, key);
	long long x;

	if (!v) {
		if (dflt < 0)
			return kitem_error(it, keys, "node '%s' has %s but no label %s", kjson_str(
					   cJSON_GetObjectItemCaseSensitive(it->obj, "metadata"), "name"), L_PRODUCT, key);
		*out = dflt;
		return 0;
	}
	if (parse_llong(v, &x) || x < lo || x > hi)
		return kitem_error(it, keys, "label %s: '%s' is not a whole number in %ld..%ld", key, v, lo, hi);
	*out = (long)x;
	return 0;
}

/* The nvidia.com/mig-<profile>.count labels (mixed strategy), in label order. */
static int read_mig_counts(const struct kitem *it, const cJSON *labels, struct knode *nd)
{
	const cJSON *l;
	size_t cap = 0;

	cJSON_ArrayForEach(l, labels) {
		const char *k = l->string, *dot;
		char prof[64];
		long cnt = 0;	/* set by label_int; GCC -O3 does not see it */
		int pi;
		if (strncmp(k, L_MIG_PREFIX, strlen(L_MIG_PREFIX)) || !(dot = strrchr(k, '.')) || strcmp(dot, ".count"))
			continue;
		snprintf(prof, sizeof(prof), "%.*s", (int)(dot - k - strlen(L_MIG_PREFIX)), k + strlen(L_MIG_PREFIX));
		if (!nd->gpu->has_mig || (pi = catalog_mig_profile(nd->gpu, prof)) < 0) {
			const char *const keys[] = { "metadata", "labels", k, NULL };
			return kitem_error(it, keys, "label %s: %s has no MIG profile '%s'", k, nd->gpu->id, prof);
		}
		if (label_int(it, labels, k, (struct label_range){ 0, 64 * 7, 0 }, &cnt))
			return -1;
		if (!cnt)
			continue;
		xgrow((void **)&nd->mig, &cap, nd->nmig + 1, sizeof(*nd->mig));
		nd->mig[nd->nmig++] = (struct kmig){ nd->gpu->mig.profiles[pi].name, cnt };
	}
	return 0;
}

/* The node's GPU type, GPU count and current mode from its GFD labels. */
static int read_gpu_labels(const struct kitem *it, const cJSON *labels, const struct catalog *cat,
			   struct knode *nd)
{
	const char *const k_product[] = { "metadata", "labels", L_PRODUCT, NULL };
	struct gfd_product p;
	const char *sharing;
	long count = 0, replicas = 1;	/* set by label_int; GCC -O3 does not see it */
	int pi;

	if (gfd_product_parse(nd->product, &p)) {
		char *msg = gfd_product_hint(p.base);
		kitem_error(it, k_product, "label %s of node '%s': %s", L_PRODUCT, nd->name, msg);
		free(msg);
		return -1;
	}
	if (!(nd->gpu = catalog_find(cat, p.gpu_id)))
		return kitem_error(it, k_product, "label %s: GPU type %s is not in the catalog", L_PRODUCT, p.gpu_id);
	if (label_int(it, labels, L_COUNT, (struct label_range){ 1, 64 * 7, -1 }, &count) ||
	    label_int(it, labels, L_REPLICAS, (struct label_range){ 0, 48, 1 }, &replicas))
		return -1;
	nd->strategy = kjson_str(labels, L_STRATEGY) ? kjson_str(labels, L_STRATEGY) : "";
	nd->mig_config = kjson_str(labels, L_CONFIG) ? kjson_str(labels, L_CONFIG) : "";
	sharing = kjson_str(labels, L_SHARING);
	nd->gpus = count;
	nd->replicas = 1;
	nd->mode = KM_PASSTHROUGH;
	if (*p.mig_profile) {
		/* strategy single: gpu.count counts MIG devices, all of one profile */
		if (!nd->gpu->has_mig || (pi = catalog_mig_profile(nd->gpu, p.mig_profile)) < 0)
			return kitem_error(it, k_product, "label %s: %s has no MIG profile '%s'", L_PRODUCT, nd->gpu->id,
					   p.mig_profile);
		nd->mig = xcalloc(1, sizeof(*nd->mig));
		nd->mig[0] = (struct kmig){ nd->gpu->mig.profiles[pi].name, count };
		nd->nmig = 1;
		nd->gpus = (count + nd->gpu->mig.profiles[pi].max_instances - 1) / nd->gpu->mig.profiles[pi].max_instances;
	} else if (read_mig_counts(it, labels, nd)) {
		return -1;
	}
	if (nd->nmig) {
		nd->mode = KM_MIG;
	} else if (replicas > 1) {
		nd->mode = sharing && !strcmp(sharing, "mps") ? KM_MPS : KM_TIMESLICE;
		nd->replicas = (int)replicas;
	}
	if (nd->gpus > 64) {
		const char *const keys[] = { "metadata", "labels", L_COUNT, NULL };
		return kitem_error(it, keys, "label %s: %ld GPUs on node '%s' (at most 64)", L_COUNT, nd->gpus, nd->name);
	}
	return 0;
}

/* One item; 1 for a node without GPUs (no product label). */
static int read_node(const struct kitem *it, const struct catalog *cat, struct knode *nd)
{
	static const char *const k_name[] = { "metadata", "name", NULL };
	static const char *const k_cpu[] = { "status", "allocatable", "cpu", NULL };
	static const char *const k_mem[] = { "status", "allocatable", "memory", NULL };
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(it->obj, "metadata");
	const cJSON *labels = cJSON_GetObjectItemCaseSensitive(md, "labels");
	double bytes;

	memset(nd, 0, sizeof(*nd));
	nd->item = it->index;
	nd->name = kjson_str(md, "name");
	if (!nd->name)
		return kitem_error(it, k_name, "items[%ld] has no metadata.name", it->index);
	if (!inventory_node_name_valid(nd->name))
		return kitem_error(it, k_name, "node name '%s' is not a Kubernetes node name (RFC 1123 subdomain)",
				   nd->name);
	if (!(nd->product = kjson_str(labels, L_PRODUCT)))
		return 1;
	if (read_gpu_labels(it, labels, cat, nd) || kitem_quantity(it, k_cpu, 0.001, 1e6, &nd->cpu) ||
	    kitem_quantity(it, k_mem, 1048576.0, 1099511627776.0 * 1024, &bytes))
		return -1;
	nd->ram_gib = bytes / 1073741824.0;
	nd->site = kjson_str(labels, "topology.kubernetes.io/zone");
	if (!nd->site)
		nd->site = kjson_str(labels, "topology.kubernetes.io/region");
	if (!nd->site || !*nd->site)
		nd->site = "default";
	return 0;
}

static int knode_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct knode *)a)->name, ((const struct knode *)b)->name);
}

int knodes_read(const struct kjson *j, const struct catalog *cat, struct knode **out, size_t *n, long *cpu_only,
		struct diag *d)
{
	struct kitem it = { j, NULL, 0, d };
	struct knode *nodes = xcalloc((size_t)j->nitems + 1, sizeof(*nodes));
	long *lines = kjson_item_lines(j);
	size_t nn = 0, i;

	*cpu_only = 0;
	cJSON_ArrayForEach(it.obj, j->items) {
		int rc = read_node(&it, cat, &nodes[nn]);
		if (rc < 0) {
			free(lines);
			knodes_free(nodes, nn + 1);
			return -1;
		}
		nodes[nn].line = lines[it.index];
		if (rc)
			++*cpu_only;
		else
			nn++;
		it.index++;
	}
	free(lines);
	qsort(nodes, nn, sizeof(*nodes), knode_name_cmp);
	for (i = 1; i < nn; i++)
		if (!strcmp(nodes[i - 1].name, nodes[i].name)) {
			static const char *const k_name[] = { "metadata", "name", NULL };
			const struct knode *late = nodes[i - 1].item > nodes[i].item ? &nodes[i - 1] : &nodes[i];
			const struct knode *early = late == &nodes[i] ? &nodes[i - 1] : &nodes[i];
			it.index = late->item;
			kitem_error(&it, k_name, "node name '%s' given twice (also items[%ld])", late->name, early->item);
			knodes_free(nodes, nn);
			return -1;
		}
	if (!nn) {
		free(nodes);
		return diag_set(d, DIAG_INPUT, j->file, 0, 0, "no node with GPUs (no %s label)", L_PRODUCT);
	}
	*out = nodes;
	*n = nn;
	return 0;
}

void knodes_free(struct knode *nodes, size_t n)
{
	size_t i;
	for (i = 0; nodes && i < n; i++)
		free(nodes[i].mig);
	free(nodes);
}

const struct knode *knodes_find(const struct knode *nodes, size_t n, const char *name)
{
	struct knode key;
	key.name = name;
	return bsearch(&key, nodes, n, sizeof(*nodes), knode_name_cmp);
}
