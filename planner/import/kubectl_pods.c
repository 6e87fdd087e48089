/*
 * kubectl_pods.c - the GPU pods of `kubectl get pods -A -o json` (see
 * kube.h).
 *
 * A pod asks for GPUs through extended resources, which Kubernetes
 * requires in limits (requests, when given, equal them): nvidia.com/gpu
 * (a whole GPU, a MIG device under strategy single, or a replica of a
 * shared GPU on a time-sliced or MPS node), nvidia.com/gpu.shared (the
 * renamed shared replica, renameByDefault), nvidia.com/mig-<profile>
 * (strategy mixed).  CPU and memory are the containers' requests, else
 * their limits; init containers are left out.  The owner is the
 * controlling ownerReference; a ReplicaSet named <deployment>-<hash>
 * counts as its Deployment.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfd.h"
#include "kube.h"
#include "kquantity.h"
#include "util.h"
#include "banned.h"

#define R_GPU "nvidia.com/gpu"
#define R_GPU_SHARED "nvidia.com/gpu.shared"
#define R_MIG_PREFIX "nvidia.com/mig-"

/* What the containers of one pod ask, summed. */
struct kask {
	long ngpu;		/* nvidia.com/gpu (+ .shared) */
	long nmig;		/* nvidia.com/mig-<profile> */
	char profile[64];	/* that profile */
	double cpu, mem;	/* cores, bytes */
};

static const char *const k_spec[] = { "spec", "containers", NULL };

/* A container resource's quantity in [0, hi]; whole when whole is set. */
static int resource_value(const struct kitem *it, const cJSON *v, const char *name, double hi, int whole,
			  double *x)
{
	const char *why;

	if (cJSON_IsNumber(v))
		*x = v->valuedouble;
	else if (!cJSON_IsString(v) || kquantity_parse(v->valuestring, x, &why))
		return kitem_error(it, k_spec, "resource %s: '%s' is not a Kubernetes quantity", name,
				   cJSON_IsString(v) ? v->valuestring : "?");
	if (whole && (*x < 0 || *x > hi || *x != floor(*x)))
		return kitem_error(it, k_spec, "resource %s: %g is not a whole number of devices in 0..%g", name, *x, hi);
	if (*x < 0 || *x > hi)
		return kitem_error(it, k_spec, "resource %s: %g is out of range (0..%g)", name, *x, hi);
	return 0;
}

/* A whole count of an extended resource, added to *out. */
static int resource_count(const struct kitem *it, const cJSON *v, const char *name, long *out)
{
	double x;

	if (resource_value(it, v, name, 64, 1, &x))
		return -1;
	*out += (long)x;
	return 0;
}

/* A CPU or memory quantity, added to *sum. */
static int add_quantity(const struct kitem *it, const cJSON *v, const char *name, double *sum)
{
	double x;

	if (resource_value(it, v, name, 1e15, 0, &x))
		return -1;
	*sum += x;
	return 0;
}

/* One container's resources (limits for devices; requests, else limits, for CPU and memory). */
static int read_container(const struct kitem *it, const cJSON *c, struct kask *a)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(c, "resources");
	const cJSON *lim = cJSON_GetObjectItemCaseSensitive(res, "limits");
	const cJSON *req = cJSON_GetObjectItemCaseSensitive(res, "requests");
	const cJSON *devs = lim ? lim : req, *v;
	const char *k;

	cJSON_ArrayForEach(v, devs) {
		k = v->string;
		if (!strcmp(k, R_GPU) || !strcmp(k, R_GPU_SHARED)) {
			if (resource_count(it, v, k, &a->ngpu))
				return -1;
		} else if (!strncmp(k, R_MIG_PREFIX, strlen(R_MIG_PREFIX))) {
			const char *p = k + strlen(R_MIG_PREFIX);
			if (*a->profile && strcmp(a->profile, p))
				return kitem_error(it, NULL, "pod asks for two MIG profiles (%s and %s): gpuplan plans one "
							     "slot per replica", a->profile, p);
			snprintf(a->profile, sizeof(a->profile), "%s", p);
			if (resource_count(it, v, k, &a->nmig))
				return -1;
		}
	}
	v = cJSON_GetObjectItemCaseSensitive(req, "cpu");
	if (!v)
		v = cJSON_GetObjectItemCaseSensitive(lim, "cpu");
	if (v && add_quantity(it, v, "cpu", &a->cpu))
		return -1;
	v = cJSON_GetObjectItemCaseSensitive(req, "memory");
	if (!v)
		v = cJSON_GetObjectItemCaseSensitive(lim, "memory");
	if (v && add_quantity(it, v, "memory", &a->mem))
		return -1;
	return 0;
}

/* The controlling owner; a ReplicaSet <name>-<hash> is its Deployment <name>. */
static void read_owner(const cJSON *md, const char *pod_name, struct kpod *p)
{
	const cJSON *refs = cJSON_GetObjectItemCaseSensitive(md, "ownerReferences"), *r, *pick = NULL;
	const char *kind, *name, *dash;

	cJSON_ArrayForEach(r, refs) {
		if (!pick || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "controller")))
			pick = r;
	}
	kind = kjson_str(pick, "kind");
	name = kjson_str(pick, "name");
	if (!kind || !name) {
		p->owner_kind = "Pod";
		p->owner = xstrdup(pod_name);
		return;
	}
	p->owner_kind = kind;
	if (!strcmp(kind, "ReplicaSet") && (dash = strrchr(name, '-')) && dash > name) {
		p->owner_kind = "Deployment";
		p->owner = xstrndup(name, (size_t)(dash - name));
		return;
	}
	p->owner = xstrdup(name);
}

/* The GPU type a pending pod selects by the product label, NULL when none. */
static const struct gpu_type *selected_type(const cJSON *spec, const struct catalog *cat)
{
	const cJSON *sel = cJSON_GetObjectItemCaseSensitive(spec, "nodeSelector");
	const char *prod = kjson_str(sel, "nvidia.com/gpu.product");
	struct gfd_product gp;

	if (!prod || gfd_product_parse(prod, &gp))
		return NULL;
	return catalog_find(cat, gp.gpu_id);
}

/* The first node type (nodes sorted by name) with MIG profile prof. */
static const struct gpu_type *type_with_profile(const struct knode *nodes, size_t nn, const char *prof)
{
	size_t i;
	for (i = 0; i < nn; i++)
		if (nodes[i].gpu->has_mig && catalog_mig_profile(nodes[i].gpu, prof) >= 0)
			return nodes[i].gpu;
	return NULL;
}

/* The nodes read and the catalog, as a pod is classified against them. */
struct kfleet {
	const struct knode *nodes;	/* sorted by name */
	size_t nn;
	const struct catalog *cat;
};

/* How the pod's ask is served: on its node today, or as a pending pod would be. */
static int classify(const struct kitem *it, const struct kask *a, const struct knode *nd, const struct kfleet *f,
		    struct kpod *p)
{
	const struct knode *nodes = f->nodes;
	const struct catalog *cat = f->cat;
	size_t nn = f->nn;
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(it->obj, "spec");

	p->gpu = nd ? nd->gpu : selected_type(spec, cat);
	p->replicas = 1;
	if (a->nmig || (nd && nd->mode == KM_MIG && a->ngpu)) {
		const char *prof = a->nmig ? a->profile : nd->mig[0].profile;
		if (a->nmig + a->ngpu != 1)
			return kitem_error(it, NULL, "pod asks for %ld MIG devices: gpuplan plans one slot per replica",
					   a->nmig + a->ngpu);
		if (!p->gpu)
			p->gpu = type_with_profile(nodes, nn, prof);
		if (!p->gpu || !p->gpu->has_mig || catalog_mig_profile(p->gpu, prof) < 0)
			return kitem_error(it, NULL, "pod asks for MIG profile %s, which %s", prof,
					   p->gpu ? "its node's GPU does not have" : "no node's GPU has");
		p->mode = KM_MIG;
		p->profile = p->gpu->mig.profiles[catalog_mig_profile(p->gpu, prof)].name;
		return 0;
	}
	if (nd && (nd->mode == KM_TIMESLICE || nd->mode == KM_MPS)) {
		p->mode = nd->mode;
		p->replicas = nd->replicas;
		p->share = a->ngpu >= nd->replicas ? 1.0 : (double)a->ngpu / nd->replicas;
		return 0;
	}
	p->mode = KM_PASSTHROUGH;
	p->gpus = a->ngpu;
	return 0;
}

/*
 * The names a workload row is made of, within what Kubernetes allows
 * (namespace 63 bytes, object names 253), so that what the import writes
 * stays far inside what gpuplan reads (a CSV field of 4,096 bytes) and an
 * error points at the user's file, not at the workloads.csv it would write.
 */
static int check_names(const struct kitem *it, const struct kpod *p)
{
	static const char *const k_ns[] = { "metadata", "namespace", NULL };
	static const char *const k_owner[] = { "metadata", "ownerReferences", NULL };
	static const char *const k_name[] = { "metadata", "name", NULL };

	if (strlen(p->ns) > 63)
		return kitem_error(it, k_ns, "items[%ld]: metadata.namespace is %zu bytes: Kubernetes allows 63",
				   it->index, strlen(p->ns));
	if (strlen(p->owner) > 253)
		return kitem_error(it, strcmp(p->owner_kind, "Pod") ? k_owner : k_name,
				   "items[%ld]: the owner's name is %zu bytes: Kubernetes allows 253", it->index,
				   strlen(p->owner));
	return 0;
}

/* One item; 1 when skipped as finished, 2 as asking no GPU (counted in out). */
static int read_pod(const struct kitem *it, const struct knode *nodes, size_t nn, const struct catalog *cat,
		    struct kpod *p, struct kpods *out)
{
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(it->obj, "metadata");
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(it->obj, "spec"), *c;
	const char *phase = kjson_str(cJSON_GetObjectItemCaseSensitive(it->obj, "status"), "phase");
	const char *name = kjson_str(md, "name"), *node;
	struct kfleet fleet;
	struct kask a;

	memset(p, 0, sizeof(*p));
	memset(&a, 0, sizeof(a));
	if (!name) {
		static const char *const k_name[] = { "metadata", "name", NULL };
		return kitem_error(it, k_name, "items[%ld] has no metadata.name", it->index);
	}
	if (phase && (!strcmp(phase, "Succeeded") || !strcmp(phase, "Failed"))) {
		out->done++;
		return 1;
	}
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(spec, "containers"))
		if (read_container(it, c, &a))
			return -1;
	if (!a.ngpu && !a.nmig)
		return 2;
	p->ns = kjson_str(md, "namespace") ? kjson_str(md, "namespace") : "default";
	p->cpu = a.cpu;
	p->ram_gib = a.mem / 1073741824.0;
	node = kjson_str(spec, "nodeName");
	fleet = (struct kfleet){ nodes, nn, cat };
	if (classify(it, &a, node ? knodes_find(nodes, nn, node) : NULL, &fleet, p))
		return -1;
	read_owner(md, name, p);
	p->name = name;
	p->labels = cJSON_GetObjectItemCaseSensitive(md, "labels");
	p->pdb = -1;
	if (kspread_read(it, p->ns, &p->spread, &out->dropped))
		return -1;
	return check_names(it, p);
}

int kpods_read(const struct kjson *j, const struct knode *nodes, size_t nn, const struct catalog *cat,
	       struct kpods *out, struct diag *d)
{
	struct kitem it = { j, NULL, 0, d };
	struct kpod *pods = xcalloc((size_t)j->nitems + 1, sizeof(*pods));
	long *lines = kjson_item_lines(j);
	size_t np = 0;

	memset(out, 0, sizeof(*out));
	cJSON_ArrayForEach(it.obj, j->items) {
		int rc = read_pod(&it, nodes, nn, cat, &pods[np], out);
		if (rc < 0) {
			free(lines);
			kpods_free(pods, np + 1);
			return -1;
		}
		pods[np].line = lines[it.index];
		if (rc == 2)
			out->no_gpu++;
		if (!rc)
			np++;
		it.index++;
	}
	free(lines);
	if (!np) {
		free(pods);
		return diag_set(d, DIAG_INPUT, j->file, 0, 0, "no running or pending pod asks for a GPU");
	}
	out->v = pods;
	out->n = np;
	return 0;
}

void kpods_free(struct kpod *pods, size_t n)
{
	size_t i;
	for (i = 0; pods && i < n; i++)
		free(pods[i].owner);
	free(pods);
}
