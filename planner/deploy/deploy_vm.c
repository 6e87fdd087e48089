/*
 * deploy_vm.c - hosts and Kubernetes nodes kept apart.  On bare metal and
 * in a cloud the host is the Kubernetes node.  On vSphere and KVM the
 * GPUs go to VMs: each replica of a `vm: true` workload gets a VM of its
 * own (its passthrough GPUs or its vGPU), container replicas run in
 * Kubernetes worker VMs - one per host holding its other GPUs passed
 * through (passthrough, MIG, time-slicing, MPS), or one per vGPU (vgpu,
 * mig-vgpu).  Every VM name is made up from its host's name and checked
 * as a Kubernetes node name; vms.csv says so.  Writes vms.csv and
 * vms.json; deploy_nodes_list gives the same Kubernetes nodes to the
 * reports, whose nodes.csv lists them (with their hosts and GPUs).
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy_plan.h"
#include "inventory.h"
#include "strmap.h"
#include "util.h"
#include "banned.h"

static int popcount64(uint64_t m)
{
	int n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

static const struct pclass *host_class(const struct dplan *dp, size_t i)
{
	return &dp->cp->p->classes[dp->nodes[i].n->k];
}

int deploy_node_mode(enum gpu_mode mode)
{
	return mode == MODE_PASSTHROUGH || mode == MODE_MIG || mode == MODE_TIMESLICE || mode == MODE_MPS;
}

/* The sharing setups (device-plugin configs) the hosts and worker VMs need, one index each. */
int deploy_share_of(struct dplan *dp, enum gpu_mode mode, int k)
{
	size_t i;
	struct dshare *s;

	if (mode != MODE_TIMESLICE && mode != MODE_MPS) {
		mode = MODE_PASSTHROUGH;
		k = 0;
	}
	for (i = 0; i < dp->nshares; i++)
		if (dp->shares[i].mode == mode && dp->shares[i].k == k)
			return (int)i;
	dp->shares = xrealloc(dp->shares, (dp->nshares + 1) * sizeof(*dp->shares));
	s = &dp->shares[dp->nshares];
	s->mode = mode;
	s->k = k;
	if (mode == MODE_PASSTHROUGH)
		snprintf(s->name, sizeof(s->name), "default");
	else
		snprintf(s->name, sizeof(s->name), "%s-%d", mode == MODE_MPS ? "mps" : "time-slicing", k);
	return (int)dp->nshares++;
}

/*
 * 0 when name is a Kubernetes node name; else -1 with d set at the
 * inventory row that gave it (its `nodes` field, or the class name the
 * made-up name comes from).
 */
static int check_name(const struct dplan *dp, size_t i, const char *name, struct diag *d)
{
	const struct scenario *sc = dp->cp->p->sc;
	const struct node_class *nc = host_class(dp, i)->nc;

	if (dp->lax || inventory_node_name_valid(name))
		return 0;
	return diag_set(d, DIAG_INPUT, sc->inventory.file, nc->line, nc->name_col,
			"node class '%s': the node name '%s' it gives is not a Kubernetes node name (RFC 1123 "
			"subdomain: lower-case letters, digits, '-' and '.', starting and ending with a letter "
			"or digit, at most 253 characters)", nc->name, name);
}

/* Room for one more of n items of size sz in *a of capacity *cap: doubled when full (a plan may run a VM per replica). */
static void grow(void **a, size_t n, size_t *cap, size_t sz)
{
	if (n < *cap)
		return;
	*cap = *cap ? 2 * *cap : 16;
	*a = xrealloc(*a, *cap * sz);
}

static size_t add_k8s(struct dplan *dp, size_t i, char *name, enum deploy_node_kind kind, int gpus)
{
	struct dk8s *k;

	grow((void **)&dp->k8s, dp->nk8s, &dp->k8scap, sizeof(*dp->k8s));
	k = &dp->k8s[dp->nk8s];
	*k = (struct dk8s){ i, name, kind, gpus, dp->nodes[i].mig, dp->nodes[i].share };
	if (kind == DEPLOY_NODE_VM_VGPU) {	/* the guest sees a whole GPU: no MIG to set, no sharing */
		k->mig = -2;
		k->share = deploy_share_of(dp, MODE_PASSTHROUGH, 0);
	}
	return dp->nk8s++;
}

static size_t add_vm(struct dplan *dp, size_t i, char *name, int k8s, int vgpu_type)
{
	struct dvm *v;

	grow((void **)&dp->vms, dp->nvms, &dp->vmcap, sizeof(*dp->vms));
	v = &dp->vms[dp->nvms];
	*v = (struct dvm){ i, name, k8s, 0, vgpu_type, -1, 0, 0, 0, 0 };
	return dp->nvms++;
}

static uint64_t slot_gpus(const struct cslot *s)
{
	int n = s->ngpus > 1 ? s->ngpus : 1;
	uint64_t m = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
	return m << s->gpu;
}

static void vm_take(struct dplan *dp, size_t v, size_t slot)
{
	const struct cslot *s = &dp->cp->slots[slot];
	const struct workload *w = dp->cp->p->demands[s->d].w;
	struct dvm *vm = &dp->vms[v];

	vm->gpus |= slot_gpus(s);
	vm->replicas++;
	vm->cpu += w->cpu_cores;
	vm->ram += w->ram_gib;
	dp->slot_vm[slot] = (int)v;
	if (vm->k8s >= 0)
		dp->slot_k8s[slot] = vm->k8s;
}

/* "<host><suffix>" (n > 0: and n), checked as a node name; NULL with d set when it is none. */
static char *vm_name(const struct dplan *dp, size_t i, const char *suffix, int n, struct diag *d)
{
	char *name = n > 0 ? xasprintf("%s%s%d", dp->nodes[i].name, suffix, n)
			   : xasprintf("%s%s", dp->nodes[i].name, suffix);

	if (!check_name(dp, i, name, d))
		return name;
	free(name);
	return NULL;
}

/* The VMs of hypervisor host i, whose slots are sl[0..n). */
static int host_vms(struct dplan *dp, size_t i, const uint32_t *sl, size_t n, struct diag *d)
{
	const struct cplan *cp = dp->cp;
	enum gpu_mode mode = dp->nodes[i].n->mode;
	int gpus = host_class(dp, i)->nc->gpus_per_node, vgpu = mode == MODE_VGPU || mode == MODE_MIG_VGPU;
	int nvm = 0, nworker = 0;
	uint64_t left = gpus >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << gpus) - 1);
	size_t j, v;
	char *name;

	for (j = 0; j < n; j++) {
		const struct cslot *s = &cp->slots[sl[j]];
		if (s->d < 0)
			continue;
		if (cp->p->demands[s->d].w->vm) {	/* a VM of its own */
			left &= ~slot_gpus(s);
			if (dp->lax)
				continue;	/* no Kubernetes node: the reports' list has no use for it */
			if (!(name = vm_name(dp, i, "-vm-", ++nvm, d)))
				return -1;
			v = add_vm(dp, i, name, -1, vgpu ? s->type : -1);
			dp->vms[v].d = s->d;
			dp->vms[v].replica = s->replica;
		} else if (vgpu) {			/* a worker VM with this vGPU */
			if (!(name = vm_name(dp, i, "-k8s-", ++nworker, d)))
				return -1;
			v = add_vm(dp, i, name, (int)add_k8s(dp, i, xstrdup(name), DEPLOY_NODE_VM_VGPU,
							      s->ngpus > 1 ? s->ngpus : 1), s->type);
		} else {
			continue;
		}
		vm_take(dp, v, sl[j]);
	}
	if (vgpu || !left)
		return 0;
	/* the host's worker VM: every GPU no VM workload holds, passed through */
	if (!(name = vm_name(dp, i, "-k8s", 0, d)))
		return -1;
	v = add_vm(dp, i, name, (int)add_k8s(dp, i, xstrdup(name), DEPLOY_NODE_VM_PASSTHROUGH, popcount64(left)), -1);
	dp->vms[v].gpus = left;
	for (j = 0; j < n; j++)	/* the replicas no VM of its own holds */
		if (cp->slots[sl[j]].d >= 0 && !cp->p->demands[cp->slots[sl[j]].d].w->vm)
			vm_take(dp, v, sl[j]);
	return 0;
}

/*
 * No VM takes a name a node already has: the plan's hosts, the inventory's
 * named nodes, the other VMs ("esx1-k8s" made up for host esx1 while the
 * inventory names a node esx1-k8s would label one node twice).
 */
static int unique_names(const struct dplan *dp, struct diag *d)
{
	const struct problem *p = dp->cp->p;
	struct strmap m = STRMAP_INIT;
	size_t i, k, old;
	int rc = 0;

	if (dp->lax)
		return 0;
	for (i = 0; i < dp->n; i++)
		strmap_add(&m, dp->nodes[i].name, i, &old);
	for (k = 0; k < p->nclasses; k++)
		for (i = 0; i < p->classes[k].nc->nnodes; i++)
			strmap_add(&m, p->classes[k].nc->nodes[i], dp->n, &old);
	for (i = 0; i < dp->nvms && !rc; i++) {
		const struct node_class *nc = host_class(dp, dp->vms[i].node)->nc;
		if (strmap_add(&m, dp->vms[i].name, dp->n, &old))
			rc = diag_set(d, DIAG_INPUT, p->sc->inventory.file, nc->line, nc->name_col,
				      "node class '%s': the VM name '%s' made up for host %s is a node name already; "
				      "rename the host or that node", nc->name, dp->vms[i].name,
				      dp->nodes[dp->vms[i].node].name);
	}
	strmap_release(&m);
	return rc;
}

int deploy_place_nodes(struct dplan *dp, struct diag *d)
{
	const struct cplan *cp = dp->cp;
	size_t i, s, *at;
	uint32_t *idx;
	int rc = 0;

	cplan_slots_by_node(cp, &at, &idx);	/* node i's slots: idx[at[i]] .. idx[at[i + 1] - 1] */
	dp->slot_k8s = xcalloc(cp->nslots + 1, sizeof(*dp->slot_k8s));
	dp->slot_vm = xcalloc(cp->nslots + 1, sizeof(*dp->slot_vm));
	for (s = 0; s < cp->nslots; s++)
		dp->slot_k8s[s] = dp->slot_vm[s] = -1;
	for (i = 0; i < dp->n && !rc; i++) {
		const struct dnode *dn = &dp->nodes[i];
		const uint32_t *sl = idx + at[i];
		size_t n = at[i + 1] - at[i], k;
		if ((rc = check_name(dp, i, dn->name, d)) != 0)
			break;
		if (dn->hv) {
			rc = host_vms(dp, i, sl, n, d);
		} else if (dn->k8s) {
			k = add_k8s(dp, i, xstrdup(dn->name), DEPLOY_NODE_HOST, host_class(dp, i)->nc->gpus_per_node);
			for (s = 0; s < n; s++)
				if (cp->slots[sl[s]].d >= 0)
					dp->slot_k8s[sl[s]] = (int)k;
		}
	}
	free(idx);
	free(at);
	return rc ? rc : unique_names(dp, d);
}

void deploy_nodes_release(struct dplan *dp)
{
	size_t i;

	for (i = 0; i < dp->nk8s; i++)
		free(dp->k8s[i].name);
	for (i = 0; i < dp->nvms; i++)
		free(dp->vms[i].name);
	free(dp->k8s);
	free(dp->vms);
	free(dp->slot_k8s);
	free(dp->slot_vm);
}

/* "0|1|3": the GPUs of mask m. */
static void gpu_list(struct sb *sb, uint64_t m)
{
	int g, first = 1;

	for (g = 0; g < 64; g++)
		if (m & ((uint64_t)1 << g)) {
			sb_addf(sb, first ? "%d" : "|%d", g);
			first = 0;
		}
}

/* The vGPU profile of VM v, or "" for passthrough. */
static const char *vm_profile(const struct dplan *dp, const struct dvm *v)
{
	const struct pclass *c = host_class(dp, v->node);
	const struct slot_type *st;

	if (v->vgpu_type < 0)
		return "";
	st = &c->slot_types[v->vgpu_type];
	/* a multi-vGPU VM's vGPUs are each the full-size profile */
	return popcount64(v->gpus) > 1 && st->vgpu_profile >= 0 ? c->nc->gpu->vgpu.profiles[st->vgpu_profile].name
								 : st->name;
}

static void vm_row(const struct dplan *dp, const struct dvm *v, struct sb *csv, cJSON *arr)
{
	const struct pclass *c = host_class(dp, v->node);
	const char *prof = vm_profile(dp, v), *role = v->k8s >= 0 ? "k8s-worker" : "workload";
	const char *wl = v->d >= 0 ? dp->cp->p->demands[v->d].w->name : "";
	cJSON *o = cJSON_CreateObject(), *g = cJSON_CreateArray();
	struct sb gl;
	int i;

	sb_init(&gl);
	gpu_list(&gl, v->gpus);
	for (i = 0; i < 64; i++)
		if (v->gpus & ((uint64_t)1 << i))
			cJSON_AddItemToArray(g, cJSON_CreateNumber(i));
	sb_add_csv(csv, dp->nodes[v->node].name);
	sb_addf(csv, ",%s,", hypervisor_name(c->nc->hv));
	sb_add_csv(csv, v->name);
	sb_addf(csv, ",%s,", role);
	sb_add_csv(csv, v->k8s >= 0 ? v->name : "");
	sb_adds(csv, ",made-up,");
	sb_add_csv(csv, c->nc->gpu->id);	/* catalog names: a user GPU file may name one "=x" */
	sb_addf(csv, ",%s,%d,", gl.buf ? gl.buf : "", popcount64(v->gpus));
	sb_add_csv(csv, *prof ? prof : "passthrough");
	sb_addf(csv, ",%.2f,%.2f,", v->cpu, v->ram);
	sb_add_csv(csv, wl);
	if (v->d >= 0)
		sb_addf(csv, ",%ld", v->replica);
	else
		sb_adds(csv, ",");
	sb_addf(csv, ",%ld\n", v->replicas);
	sb_release(&gl);

	cJSON_AddStringToObject(o, "host", dp->nodes[v->node].name);
	cJSON_AddStringToObject(o, "hypervisor", hypervisor_name(c->nc->hv));
	cJSON_AddStringToObject(o, "name", v->name);
	cJSON_AddStringToObject(o, "role", role);
	if (v->k8s >= 0)
		cJSON_AddStringToObject(o, "k8s_node", v->name);
	cJSON_AddStringToObject(o, "name_source", "made-up");
	cJSON_AddStringToObject(o, "gpu_type", c->nc->gpu->id);
	cJSON_AddItemToObject(o, "gpus", g);
	cJSON_AddStringToObject(o, "attach", *prof ? prof : "passthrough");
	cJSON_AddNumberToObject(o, "cpu_cores", v->cpu);
	cJSON_AddNumberToObject(o, "ram_gib", v->ram);
	if (v->d >= 0) {
		cJSON_AddStringToObject(o, "workload", wl);
		cJSON_AddNumberToObject(o, "replica", (double)v->replica);
	}
	cJSON_AddNumberToObject(o, "replicas", (double)v->replicas);
	cJSON_AddItemToArray(arr, o);
}

void deploy_vms(const struct dplan *dp, struct outset *os)
{
	cJSON *root = cJSON_CreateObject(), *arr;
	struct sb csv;
	size_t i;

	sb_init(&csv);
	sb_adds(&csv, "host,hypervisor,vm,role,k8s_node,name_source,gpu_type,gpus,ngpus,attach,cpu_cores,ram_gib,"
		      "workload,replica,replicas\n");
	cJSON_AddStringToObject(root, "schema", "gpuplan-vms/1");
	cJSON_AddStringToObject(root, "scenario", dp->cp->p->sc->name);
	arr = cJSON_AddArrayToObject(root, "vms");
	for (i = 0; i < dp->nvms; i++)
		vm_row(dp, &dp->vms[i], &csv, arr);
	outset_add_sb(os, "vms.csv", &csv);
	deploy_add_json(os, "vms.json", root);
}

const char *deploy_node_kind_name(enum deploy_node_kind kind)
{
	static const char *const kinds[] = { "host", "vm-passthrough", "vm-vgpu" };

	return kinds[kind];
}

void deploy_nodes_list(const struct cplan *cp, struct deploy_nodes *out)
{
	struct dplan dp;
	size_t i, v;

	memset(&dp, 0, sizeof(dp));
	dp.cp = cp;
	dp.n = cp->nnodes;
	dp.lax = 1;
	dp.nodes = xcalloc(cp->nnodes + 1, sizeof(*dp.nodes));
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		dp.nodes[i] = (struct dnode){ n, cplan_node_name(cp, n), hypervisor_is_vm_host(cp->p->classes[n->k].nc->hv),
					      deploy_node_mode(n->mode), -2, 0 };
	}
	deploy_place_nodes(&dp, NULL);	/* lax: no name refused */
	out->n = dp.nk8s;
	out->nodes = xcalloc(dp.nk8s + 1, sizeof(*out->nodes));
	for (i = 0; i < dp.nk8s; i++) {
		const struct dk8s *k = &dp.k8s[i];
		int g = host_class(&dp, k->node)->nc->gpus_per_node;
		out->nodes[i] = (struct deploy_node){ k->node, k->name, k->kind, k->gpus,
						      g >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << g) - 1), -1 };
		dp.k8s[i].name = NULL;
	}
	for (v = 0; v < dp.nvms; v++)
		if (dp.vms[v].k8s >= 0) {
			out->nodes[dp.vms[v].k8s].host_gpus = dp.vms[v].gpus;
			out->nodes[dp.vms[v].k8s].slot_type = dp.vms[v].vgpu_type;
		}
	out->slot_node = dp.slot_k8s;
	dp.slot_k8s = NULL;
	for (i = 0; i < dp.n; i++)
		free(dp.nodes[i].name);
	deploy_nodes_release(&dp);
	free(dp.nodes);
	free(dp.shares);
}

void deploy_nodes_free(struct deploy_nodes *dn)
{
	size_t i;

	for (i = 0; i < dn->n; i++)
		free(dn->nodes[i].name);
	free(dn->nodes);
	free(dn->slot_node);
	memset(dn, 0, sizeof(*dn));
}
