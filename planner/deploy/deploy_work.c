/*
 * deploy_work.c - what the workloads ask and where they run: the
 * extended resource and count each replica requests (requests.csv,
 * requests.yaml) on the Kubernetes GPU nodes, and the vGPU hosts' vGPU
 * profiles per GPU with the VM (replica) on each (vgpu.csv, vgpu.json).
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyaml.h"
#include "deploy_plan.h"
#include "inventory.h"
#include "util.h"
#include "banned.h"

const char *deploy_resource(const struct dplan *dp, const struct cslot *s, int *count, char *buf, size_t size)
{
	const struct cnode *n = &dp->cp->nodes[s->node];
	const struct pclass *c = &dp->cp->p->classes[n->k];
	const struct slot_type *st = &c->slot_types[s->type];
	const struct scenario *sc = dp->cp->p->sc;
	size_t i;

	*count = 1;
	switch (n->mode) {
	case MODE_PASSTHROUGH:
		*count = st->gpus > 1 ? st->gpus : 1;
		return "nvidia.com/gpu";
	case MODE_MIG:
		if (sc->mig_single)
			return "nvidia.com/gpu";
		/* mixed: nvidia.com/mig-<profile>, "+" as "." (1g.10gb+me: mig-1g.10gb.me) */
		snprintf(buf, size, "nvidia.com/mig-%s", c->nc->gpu->mig.profiles[st->mig_profile].name);
		for (i = 0; buf[i]; i++)
			if (buf[i] == '+')
				buf[i] = '.';
		return buf;
	case MODE_TIMESLICE:
	case MODE_MPS:
		return sc->rename_by_default ? "nvidia.com/gpu.shared" : "nvidia.com/gpu";
	default:	/* vgpu, mig-vgpu: a worker VM's vGPUs are whole GPUs to its plugin */
		*count = s->ngpus > 1 ? s->ngpus : 1;
		return "nvidia.com/gpu";
	}
}

/* One replica's request: (workload, resource, count per replica, Kubernetes node). */
struct req {
	int d;			/* demand */
	int res;		/* index in the resource names */
	int count;		/* per replica */
	size_t node;		/* Kubernetes node: index in dplan.k8s */
	long replicas;		/* replicas alike (after merging) */
};

static int req_cmp(const void *a, const void *b)
{
	const struct req *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	if (x->res != y->res)
		return x->res < y->res ? -1 : 1;
	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/*
 * The requests of the replicas placed on Kubernetes nodes (not a VM
 * workload's replicas: they run in VMs of their own), alike ones merged;
 * names in *res.
 */
static struct req *collect(const struct dplan *dp, size_t *nreq, char ***res, size_t *nres)
{
	const struct cplan *cp = dp->cp;
	struct req *r = xcalloc(cp->nslots + 1, sizeof(*r));
	size_t i, j, n = 0;
	char buf[96];

	*res = NULL;
	*nres = 0;
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const char *name;
		int cnt;
		if (s->d < 0 || dp->slot_k8s[i] < 0)
			continue;
		name = deploy_resource(dp, s, &cnt, buf, sizeof(buf));
		for (j = 0; j < *nres && strcmp((*res)[j], name); j++)
			;
		if (j == *nres) {
			*res = xrealloc(*res, (*nres + 1) * sizeof(**res));
			(*res)[(*nres)++] = xstrdup(name);
		}
		r[n++] = (struct req){ s->d, (int)j, cnt, (size_t)dp->slot_k8s[i], 1 };
	}
	qsort(r, n, sizeof(*r), req_cmp);
	for (i = j = 0; i < n; i++) {
		if (j && r[j - 1].d == r[i].d && r[j - 1].res == r[i].res && r[j - 1].count == r[i].count &&
		    r[j - 1].node == r[i].node)
			r[j - 1].replicas++;
		else
			r[j++] = r[i];
	}
	*nreq = j;
	return r;
}

static void requests_csv(const struct dplan *dp, const struct req *r, size_t n, char **res, struct outset *os)
{
	const struct problem *p = dp->cp->p;
	struct sb sb;
	size_t i;

	sb_init(&sb);
	sb_adds(&sb, "workload,tenant,node,host,resource,per_replica,replicas\n");
	for (i = 0; i < n; i++) {
		const struct workload *w = p->demands[r[i].d].w;
		sb_add_csv(&sb, w->name);
		sb_adds(&sb, ",");
		sb_add_csv(&sb, w->tenant);
		sb_adds(&sb, ",");
		sb_add_csv(&sb, dp->k8s[r[i].node].name);
		sb_adds(&sb, ",");
		sb_add_csv(&sb, dp->nodes[dp->k8s[r[i].node].node].name);
		sb_addf(&sb, ",%s,%d,%ld\n", res[r[i].res], r[i].count, r[i].replicas);
	}
	outset_add_sb(os, "requests.csv", &sb);
}

/* ---- the workloads' spread and disruption budget (issue #62) ---- */

/* The label key that ties a workload's pods together, for its spread's and PDB's selectors. */
#define WORKLOAD_LABEL "gpuplan/workload"

static int label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
	       c == '.';
}

static int label_alnum(char c)
{
	return label_char(c) && c != '-' && c != '_' && c != '.';
}

/*
 * The label value naming workload `name` (buf of 64 bytes): the name
 * itself when it is a Kubernetes label value (inventory_label_value_valid:
 * the one place that rule is written), else its label characters
 * ('-' for the others, at most 46) and "-" with 16 hex digits of its
 * FNV-1a hash, so that two names never share a value by being cut alike.
 */
static const char *workload_label(const char *name, char *buf, size_t size)
{
	size_t n = strlen(name), i, o = 0;
	uint64_t h = 1469598103934665603ULL;

	if (inventory_label_value_valid(name)) {
		snprintf(buf, size, "%s", name);
		return buf;
	}
	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
	for (i = 0; i < n && o < 46; i++) {
		char c = label_char(name[i]) ? name[i] : '-';
		if (o || label_alnum(c))
			buf[o++] = c;
	}
	snprintf(buf + o, size - o, "%s%016llx", o ? "-" : "w", (unsigned long long)h);
	return buf;
}

/*
 * The PodDisruptionBudget's name for a workload of label value `label`
 * (buf of 64 bytes): an object name must be a lower-case RFC 1123
 * subdomain (apimachinery IsDNS1123Subdomain), which a label value with
 * capitals, '_' or a '.' beside another sign is not; such a label is
 * lowered, '_' and '.' as '-', and, when
 * it had no hash yet, given one of the workload's name, so that "Chat_A"
 * and "chat-a" stay two names.
 */
static const char *workload_object_name(const char *name, const char *label, char *buf, size_t size)
{
	size_t i, n = strlen(label);
	int changed = 0;
	uint64_t h = 1469598103934665603ULL;

	for (i = 0; i < n && i + 1 < size; i++) {
		char c = label[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (c == '_' || c == '.')
			c = '-';
		changed |= c != label[i];
		buf[i] = c;
	}
	buf[i] = '\0';
	if (!changed || strcmp(label, name))
		return buf;	/* already a name, or a label made from the name with its hash */
	for (i = 0; name[i]; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
	snprintf(buf + (n > 46 ? 46 : n), size - (n > 46 ? 46 : n), "-%016llx", (unsigned long long)h);
	return buf;
}

/* selector: {matchLabels: {gpuplan/workload: label}} */
static void label_selector(struct dyaml *y, const char *key, const char *label)
{
	dyaml_str(y, key);
	dyaml_map(y, 0);
	dyaml_str(y, "matchLabels");
	dyaml_map(y, 0);
	dyaml_kv(y, WORKLOAD_LABEL, label);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
}

/*
 * The pod-template fields of w's requests: the label its selectors
 * match and, with a spread, the core/v1 topologySpreadConstraints the
 * plan kept (Kubernetes 1.31 field names; minDomains only when given).
 */
static void request_spread(struct dyaml *y, const struct workload *w)
{
	char label[64];

	if (w->spread == SPREAD_NONE && w->avail == AVAIL_NONE)
		return;
	workload_label(w->name, label, sizeof(label));
	dyaml_str(y, "labels");
	dyaml_map(y, 0);
	dyaml_kv(y, WORKLOAD_LABEL, label);
	dyaml_end(y, 0);
	if (w->spread == SPREAD_NONE)
		return;
	dyaml_str(y, "topologySpreadConstraints");
	dyaml_seq(y, 0);
	dyaml_map(y, 0);
	dyaml_ki(y, "maxSkew", w->max_skew);
	dyaml_kv(y, "topologyKey", w->spread == SPREAD_SITE ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname");
	dyaml_kv(y, "whenUnsatisfiable", w->schedule_anyway ? "ScheduleAnyway" : "DoNotSchedule");
	if (!w->schedule_anyway && w->min_domains > 1)
		dyaml_ki(y, "minDomains", w->min_domains);
	label_selector(y, "labelSelector", label);
	dyaml_end(y, 0);
	dyaml_end(y, 1);
}

/* A policy/v1 PodDisruptionBudget for w (with an availability rule), named and selecting by its label. */
static void request_pdb(struct dyaml *y, const struct workload *w)
{
	char label[64], obj[64], v[32];

	workload_label(w->name, label, sizeof(label));
	dyaml_k8s_head(y, "policy/v1", "PodDisruptionBudget", workload_object_name(w->name, label, obj, sizeof(obj)));
	dyaml_end(y, 0);
	dyaml_str(y, "spec");
	dyaml_map(y, 0);
	if (w->avail_percent) {
		snprintf(v, sizeof(v), "%ld%%", w->avail_value);
		dyaml_kv(y, w->avail == AVAIL_MIN ? "minAvailable" : "maxUnavailable", v);
	} else {
		dyaml_ki(y, w->avail == AVAIL_MIN ? "minAvailable" : "maxUnavailable", w->avail_value);
	}
	label_selector(y, "selector", label);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
}

/* podDisruptionBudgets: one per workload of the requests with an availability rule. */
static void request_pdbs(struct dyaml *y, const struct dplan *dp, const struct req *r, size_t n)
{
	const struct problem *p = dp->cp->p;
	const struct workloads *wl = &p->sc->workloads;
	char *seen = xcalloc(wl->n + 1, 1);
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const struct workload *w = p->demands[r[i].d].w;
		if (w->avail == AVAIL_NONE || seen[w - wl->w])
			continue;
		seen[w - wl->w] = 1;
		if (!k++) {
			dyaml_str(y, "podDisruptionBudgets");
			dyaml_seq(y, 0);
		}
		request_pdb(y, w);
	}
	if (k)
		dyaml_end(y, 1);
	free(seen);
}

/* requests.yaml: per workload and request, the replicas and on which nodes. */
static int requests_yaml(const struct dplan *dp, const struct req *r, size_t n, char **res, struct outset *os)
{
	const struct problem *p = dp->cp->p;
	struct dyaml y;
	char *text;
	size_t i, j, len;

	dyaml_begin(&y);
	dyaml_map(&y, 0);
	dyaml_kv(&y, "schema", "gpuplan-requests/1");
	dyaml_kv(&y, "scenario", p->sc->name);
	dyaml_str(&y, "requests");
	dyaml_seq(&y, 0);
	for (i = 0; i < n; i = j) {
		const struct workload *w = p->demands[r[i].d].w;
		long total = 0;
		for (j = i; j < n && r[j].d == r[i].d && r[j].res == r[i].res && r[j].count == r[i].count; j++)
			total += r[j].replicas;
		dyaml_map(&y, 0);
		dyaml_kv(&y, "workload", w->name);
		dyaml_kv(&y, "tenant", w->tenant);
		dyaml_str(&y, "resources");
		dyaml_map(&y, 0);
		dyaml_str(&y, "limits");
		dyaml_map(&y, 1);
		dyaml_ki(&y, res[r[i].res], r[i].count);
		dyaml_end(&y, 0);
		dyaml_end(&y, 0);
		request_spread(&y, w);
		deploy_priority_field(&y, p->sc, w);
		dyaml_ki(&y, "replicas", total);
		dyaml_str(&y, "nodes");
		dyaml_map(&y, 0);
		for (j = i; j < n && r[j].d == r[i].d && r[j].res == r[i].res && r[j].count == r[i].count; j++)
			dyaml_ki(&y, dp->k8s[r[j].node].name, r[j].replicas);
		dyaml_end(&y, 0);
		dyaml_end(&y, 0);
	}
	dyaml_end(&y, 1);
	request_pdbs(&y, dp, r, n);
	deploy_priority_classes(&y, dp);
	dyaml_end(&y, 0);
	if (dyaml_finish(&y, &text, &len))
		return -1;
	outset_add(os, "requests.yaml", text, len);
	return 0;
}

int deploy_requests(const struct dplan *dp, struct outset *os)
{
	char **res;
	size_t n, nres, i;
	struct req *r = collect(dp, &n, &res, &nres);
	int rc;

	requests_csv(dp, r, n, res, os);
	rc = requests_yaml(dp, r, n, res, os);
	for (i = 0; i < nres; i++)
		free(res[i]);
	free(res);
	free(r);
	return rc;
}

/* vSphere's name of a vGPU profile: "grid_" and the name in lower case ("grid_a100d-20c"). */
static void vsphere_name(const char *name, char *buf, size_t size)
{
	size_t i, n = (size_t)snprintf(buf, size, "grid_%s", name);
	for (i = 5; i < n && i < size; i++)
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
}

/* vgpu.csv and vgpu.json as they are written: the host and GPU the last row was of. */
struct vgpu_out {
	const struct dplan *dp;
	struct sb csv;
	cJSON *hosts, *gpus, *vgpus;	/* the JSON's hosts, the current host's GPUs and GPU's vGPUs */
	size_t last_node;
	int last_gpu;
};

/* The row of the vGPU on GPU g that slot s (index i) has. */
static void vgpu_row(struct vgpu_out *o, size_t i, int g)
{
	const struct problem *p = o->dp->cp->p;
	const struct cslot *s = &o->dp->cp->slots[i];
	const char *vm = o->dp->slot_vm[i] >= 0 ? o->dp->vms[o->dp->slot_vm[i]].name : "";
	const struct cnode *n = &o->dp->cp->nodes[s->node];
	const struct pclass *c = &p->classes[n->k];
	const struct slot_type *st = &c->slot_types[s->type];
	/* a multi-vGPU VM's vGPUs are each the full-size profile */
	const char *prof = s->ngpus > 1 ? c->nc->gpu->vgpu.profiles[st->vgpu_profile].name : st->name;
	char vs[96] = "";
	cJSON *v;

	if (c->nc->hv == HV_VSPHERE)
		vsphere_name(prof, vs, sizeof(vs));
	if ((size_t)s->node != o->last_node) {
		cJSON *h = cJSON_CreateObject();
		cJSON_AddStringToObject(h, "name", o->dp->nodes[s->node].name);
		cJSON_AddStringToObject(h, "hypervisor", hypervisor_name(c->nc->hv));
		cJSON_AddStringToObject(h, "gpu_type", c->nc->gpu->id);
		o->gpus = cJSON_AddArrayToObject(h, "gpus");
		cJSON_AddItemToArray(o->hosts, h);
		o->last_node = (size_t)s->node;
		o->last_gpu = -1;
	}
	if (g != o->last_gpu) {
		cJSON *gj = cJSON_CreateObject();
		cJSON_AddNumberToObject(gj, "gpu", g);
		cJSON_AddStringToObject(gj, "mode", mode_name(n->mode));
		o->vgpus = cJSON_AddArrayToObject(gj, "vgpus");
		cJSON_AddItemToArray(o->gpus, gj);
		o->last_gpu = g;
	}
	v = cJSON_CreateObject();
	cJSON_AddStringToObject(v, "profile", prof);
	if (*vs)
		cJSON_AddStringToObject(v, "vsphere_profile", vs);
	if (s->d >= 0) {
		cJSON_AddStringToObject(v, "vm", vm);
		cJSON_AddStringToObject(v, "workload", p->demands[s->d].w->name);
		cJSON_AddNumberToObject(v, "replica", (double)s->replica);
	}
	if (s->ngpus > 1) {
		cJSON_AddNumberToObject(v, "vm_vgpus", s->ngpus);
		cJSON_AddNumberToObject(v, "vm_first_gpu", s->gpu);
	}
	cJSON_AddItemToArray(o->vgpus, v);
	sb_add_csv(&o->csv, o->dp->nodes[s->node].name);
	sb_addf(&o->csv, ",%s,%d,", hypervisor_name(c->nc->hv), g);
	sb_add_csv(&o->csv, c->nc->gpu->id);	/* catalog names: a user GPU file may name one "=x" */
	sb_adds(&o->csv, ",");
	sb_add_csv(&o->csv, prof);
	sb_adds(&o->csv, ",");
	sb_add_csv(&o->csv, vs);
	sb_adds(&o->csv, ",");
	if (s->d >= 0) {
		sb_add_csv(&o->csv, p->demands[s->d].w->name);
		sb_addf(&o->csv, ",%ld", s->replica);
	} else {
		sb_adds(&o->csv, ",");
	}
	sb_addf(&o->csv, ",%d,", s->ngpus > 1 ? s->ngpus : 1);
	sb_add_csv(&o->csv, vm);
	sb_adds(&o->csv, "\n");
}

void deploy_vgpu(const struct dplan *dp, struct outset *os)
{
	const struct cplan *cp = dp->cp;
	cJSON *root = cJSON_CreateObject();
	struct vgpu_out o;
	size_t i;
	int g;

	memset(&o, 0, sizeof(o));
	o.dp = dp;
	o.last_node = (size_t)-1;
	o.last_gpu = -1;
	sb_init(&o.csv);
	sb_adds(&o.csv, "host,hypervisor,gpu,gpu_type,vgpu_profile,vsphere_profile,workload,replica,vm_vgpus,vm\n");
	cJSON_AddStringToObject(root, "schema", "gpuplan-vgpu/1");
	cJSON_AddStringToObject(root, "scenario", cp->p->sc->name);
	o.hosts = cJSON_AddArrayToObject(root, "hosts");
	/* slots come per node, per GPU, in creation order; a multi-vGPU VM has a vGPU per GPU */
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const struct cnode *n = &cp->nodes[s->node];
		if (n->mode != MODE_VGPU && n->mode != MODE_MIG_VGPU)
			continue;
		for (g = s->gpu; g < s->gpu + s->ngpus; g++)
			vgpu_row(&o, i, g);
	}
	outset_add_sb(os, "vgpu.csv", &o.csv);
	deploy_add_json(os, "vgpu.json", root);
}
