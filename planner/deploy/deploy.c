/*
 * deploy.c - the plan's nodes as the NVIDIA GPU Operator sees them: the
 * checks that refuse what it cannot express, mig-parted.yaml,
 * device-plugin-config.yaml, labels.sh and labels.json; then the
 * workloads' requests and the vGPU hosts' files (deploy_work.c).  The
 * upstream schemas are cited in docs/deploy.md.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy.h"
#include "dyaml.h"
#include "deploy_plan.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

#define DEPLOY_CONFIGMAP "gpuplan-device-plugin-config"

static const struct pclass *node_class(const struct dplan *dp, const struct cnode *n)
{
	return &dp->cp->p->classes[n->k];
}

static int refuse(const struct dplan *dp, const struct dnode *dn, struct diag *d, const char *what, const char *more)
{
	return diag_set(d, DIAG_INPUT, dp->cp->p->sc->file, 0, 0, "cannot deploy node %s: %s%s", dn->name, what,
			more ? more : "");
}

/* Time-slicing and MPS nodes: one replicas value per node; the k, or 0 when no GPU is configured. */
static int check_shared(const struct dplan *dp, const struct dnode *dn, int *k, struct diag *d)
{
	const struct pclass *c = node_class(dp, dn->n);
	char buf[160];
	int g;

	*k = 0;
	for (g = 0; g < c->nc->gpus_per_node; g++) {
		const struct config *cf;
		if (dn->n->gpu_config[g] < 0)
			continue;
		cf = &c->configs[dn->n->gpu_config[g]];
		if (dn->n->mode == MODE_TIMESLICE && (dp->cp->p->sc->timeslice_shares || !cf->k))
			return refuse(dp, dn, d, "time-slicing with mixed shares (sharing.timeslice_shares) needs a "
				      "per-pod sharing layer; the NVIDIA device plugin shares a GPU k equal ways", NULL);
		if (*k && cf->k != *k) {
			snprintf(buf, sizeof(buf), " (%d and %d on %s)", *k, cf->k, mode_name(dn->n->mode));
			return refuse(dp, dn, d, "two replica counts on one node; the NVIDIA device plugin applies one "
				      "replicas value per node and resource", buf);
		}
		*k = cf->k;
	}
	return 0;
}

/* MIG nodes: every geometry valid on its GPU; one profile per node under strategy single. */
static int check_mig(const struct dplan *dp, const struct dnode *dn, struct diag *d)
{
	const struct pclass *c = node_class(dp, dn->n);
	const struct gpu_type *gt = c->nc->gpu;
	int g, r, prof = -1;

	for (g = 0; g < c->nc->gpus_per_node; g++) {
		const struct config *cf;
		char *why = NULL, *msg;
		if (dn->n->gpu_config[g] < 0)
			continue;
		cf = &c->configs[dn->n->gpu_config[g]];
		if (mig_layout_check(gt, cf->mig.n, cf->mig.profile, cf->mig.start, &why)) {
			msg = xasprintf(" (GPU %d, %s on %s: %s)", g, cf->name, gt->id, why ? why : "invalid");
			refuse(dp, dn, d, "a MIG geometry its GPU does not have", msg);
			free(msg);
			free(why);
			return -1;
		}
		for (r = 0; r < cf->mig.n && dp->cp->p->sc->mig_single; r++) {
			if (prof >= 0 && cf->mig.profile[r] != prof)
				return refuse(dp, dn, d, "two MIG profiles on one node under MIG strategy single, "
					      "which exposes them all as nvidia.com/gpu", NULL);
			prof = cf->mig.profile[r];
		}
	}
	return 0;
}

/* True when MIG nodes a and b are partitioned alike (same GPU type, same geometry per GPU). */
static int same_layout(const struct dplan *dp, const struct cnode *a, const struct cnode *b)
{
	const struct pclass *ca = node_class(dp, a), *cb = node_class(dp, b);
	int g;

	if (ca->nc->gpu != cb->nc->gpu || ca->nc->gpus_per_node != cb->nc->gpus_per_node)
		return 0;
	for (g = 0; g < ca->nc->gpus_per_node; g++) {
		int x = a->gpu_config[g], y = b->gpu_config[g];
		if ((x < 0) != (y < 0) || (x >= 0 && strcmp(ca->configs[x].name, cb->configs[y].name)))
			return 0;
	}
	return 1;
}

static void dplan_release(struct dplan *dp)
{
	size_t i;
	for (i = 0; i < dp->n; i++)
		free(dp->nodes[i].name);
	deploy_nodes_release(dp);
	free(dp->nodes);
	free(dp->layouts);
	free(dp->shares);
}

/* Node i of the plan into dp->nodes[i]: its checks, MIG layout and sharing setup. */
static int dplan_node(struct dplan *dp, size_t i, struct diag *d)
{
	const struct cnode *n = &dp->cp->nodes[i];
	struct dnode *dn = &dp->nodes[i];
	int k = 0;
	size_t j;

	dn->n = n;
	dn->name = cplan_node_name(dp->cp, n);
	dn->hv = hypervisor_is_vm_host(node_class(dp, n)->nc->hv);
	dn->k8s = deploy_node_mode(n->mode);
	dn->mig = node_class(dp, n)->nc->gpu->has_mig ? -1 : -2;
	if (!dn->k8s)
		return 0;
	if ((n->mode == MODE_TIMESLICE || n->mode == MODE_MPS) && check_shared(dp, dn, &k, d))
		return -1;
	if (n->mode == MODE_MIG) {
		if (check_mig(dp, dn, d))
			return -1;
		for (j = 0; j < dp->nlayouts && !same_layout(dp, dp->nodes[dp->layouts[j]].n, n); j++)
			;
		if (j == dp->nlayouts) {
			dp->layouts = xrealloc(dp->layouts, (dp->nlayouts + 1) * sizeof(*dp->layouts));
			dp->layouts[dp->nlayouts++] = i;
		}
		dn->mig = (int)j;
	}
	dn->share = deploy_share_of(dp, k ? n->mode : MODE_PASSTHROUGH, k);
	return 0;
}

/*
 * A ClusterPolicy that sets spec.mig.strategy (sharing.operator_mig_strategy)
 * runs every node's plugin with it: refuses the plans it cannot serve.
 */
static int check_operator(const struct dplan *dp, struct diag *d)
{
	const struct scenario *sc = dp->cp->p->sc;
	size_t i;

	for (i = 0; i < dp->n; i++) {
		const struct dnode *dn = &dp->nodes[i];
		enum gpu_mode m = dn->n->mode;
		if (sc->operator_mig == OPERATOR_MIG_MIXED && m == MODE_MPS && dp->shares[dn->share].k)
			return refuse(dp, dn, d, "MPS under a ClusterPolicy with mig.strategy mixed "
				      "(sharing.operator_mig_strategy), which the device plugin refuses (\"using "
				      "--mig-strategy=mixed is not supported with MPS\"); leave the ClusterPolicy's "
				      "mig.strategy unset (operator_mig_strategy: unset) or keep MPS out of the workloads' modes", NULL);
		if (m == MODE_MIG && sc->operator_mig == OPERATOR_MIG_NONE)
			return refuse(dp, dn, d, "MIG under a ClusterPolicy with mig.strategy none "
				      "(sharing.operator_mig_strategy), which advertises no MIG device", NULL);
		if (m == MODE_MIG && ((sc->operator_mig == OPERATOR_MIG_MIXED && sc->mig_single) ||
				      (sc->operator_mig == OPERATOR_MIG_SINGLE && !sc->mig_single)))
			return refuse(dp, dn, d, "MIG planned for sharing.mig_strategy ",
				      sc->mig_single ? "single under a ClusterPolicy with mig.strategy mixed; set "
						       "sharing.mig_strategy to the ClusterPolicy's"
						     : "mixed under a ClusterPolicy with mig.strategy single; set "
						       "sharing.mig_strategy to the ClusterPolicy's");
	}
	return 0;
}

static int dplan_build(struct dplan *dp, const struct cplan *cp, struct diag *d)
{
	size_t i;

	memset(dp, 0, sizeof(*dp));
	dp->cp = cp;
	dp->n = cp->nnodes;
	dp->nodes = xcalloc(cp->nnodes + 1, sizeof(*dp->nodes));
	for (i = 0; i < cp->nnodes; i++)
		if (dplan_node(dp, i, d)) {
			dp->n = i + 1;
			dplan_release(dp);
			return -1;
		}
	if (check_operator(dp, d) || deploy_place_nodes(dp, d)) {
		dplan_release(dp);
		return -1;
	}
	return 0;
}

/* The mig-parted config name of layout j (a label value). */
static void layout_name(size_t j, char *buf, size_t size)
{
	snprintf(buf, size, "gpuplan-mig-%zu", j + 1);
}

/* One mig-parted entry: the GPUs of node n configured as config cfg (-1: MIG disabled), or all. */
static void mig_entry(struct dyaml *y, const struct dplan *dp, const struct cnode *n, int cfg, int all)
{
	const struct pclass *c = node_class(dp, n);
	const struct config *cf = cfg >= 0 ? &c->configs[cfg] : NULL;
	int g, r;

	dyaml_map(y, 0);
	dyaml_str(y, "devices");
	if (all) {
		dyaml_str(y, "all");
	} else {
		dyaml_seq(y, 1);
		for (g = 0; g < c->nc->gpus_per_node; g++)
			if (n->gpu_config[g] == cfg ||
			    (cfg >= 0 && n->gpu_config[g] >= 0 && !strcmp(c->configs[n->gpu_config[g]].name, cf->name)))
				dyaml_int(y, g);
		dyaml_end(y, 1);
	}
	dyaml_str(y, "mig-enabled");
	dyaml_bool(y, cf != NULL);
	if (cf) {
		dyaml_str(y, "mig-devices");
		dyaml_map(y, 0);
		for (r = 0; r < cf->mig.n;) {
			int p = cf->mig.profile[r], cnt = 0;
			for (; r < cf->mig.n && cf->mig.profile[r] == p; r++)
				cnt++;
			dyaml_ki(y, c->nc->gpu->mig.profiles[p].name, cnt);
		}
		dyaml_end(y, 0);
	}
	dyaml_end(y, 0);
}

/* The entries of a MIG node's layout: GPUs alike in one entry; "all" when every GPU is alike. */
static void mig_layout(struct dyaml *y, const struct dplan *dp, const struct cnode *n)
{
	const struct pclass *c = node_class(dp, n);
	int g, h, first = -1, uniform = 1;

	for (g = 0; g < c->nc->gpus_per_node; g++)
		if (n->gpu_config[g] >= 0 && first < 0)
			first = n->gpu_config[g];
	if (first < 0) {	/* a MIG node with no GPU in use: MIG disabled */
		mig_entry(y, dp, n, -1, 1);
		return;
	}
	for (g = 0; g < c->nc->gpus_per_node; g++)
		if (n->gpu_config[g] < 0 || strcmp(c->configs[n->gpu_config[g]].name, c->configs[first].name))
			uniform = 0;
	/* strategy single: an idle GPU takes the node's geometry (a whole GPU would be exposed too) */
	if (uniform || dp->cp->p->sc->mig_single) {
		mig_entry(y, dp, n, first, 1);
		return;
	}
	for (g = 0; g < c->nc->gpus_per_node; g++) {
		int cfg = n->gpu_config[g], seen = 0;
		for (h = 0; h < g && !seen; h++)
			seen = (cfg < 0 && n->gpu_config[h] < 0) ||
			       (cfg >= 0 && n->gpu_config[h] >= 0 &&
				!strcmp(c->configs[cfg].name, c->configs[n->gpu_config[h]].name));
		if (!seen)
			mig_entry(y, dp, n, cfg, 0);
	}
}

static int write_mig_parted(const struct dplan *dp, struct outset *os)
{
	struct dyaml y;
	char name[48], *text;
	size_t j, len;

	dyaml_begin(&y);
	dyaml_map(&y, 0);
	dyaml_kv(&y, "version", "v1");
	dyaml_str(&y, "mig-configs");
	dyaml_map(&y, 0);
	dyaml_str(&y, "all-disabled");
	dyaml_seq(&y, 0);
	dyaml_map(&y, 0);
	dyaml_kv(&y, "devices", "all");
	dyaml_str(&y, "mig-enabled");
	dyaml_bool(&y, 0);
	dyaml_end(&y, 0);
	dyaml_end(&y, 1);
	for (j = 0; j < dp->nlayouts; j++) {
		layout_name(j, name, sizeof(name));
		dyaml_str(&y, name);
		dyaml_seq(&y, 0);
		mig_layout(&y, dp, dp->nodes[dp->layouts[j]].n);
		dyaml_end(&y, 1);
	}
	dyaml_end(&y, 0);
	dyaml_end(&y, 0);
	if (dyaml_finish(&y, &text, &len))
		return -1;
	outset_add(os, "mig-parted.yaml", text, len);
	return 0;
}

/*
 * The migStrategy of config s.  Under a ClusterPolicy that sets
 * spec.mig.strategy the operator's value (it overrides every config's);
 * else "none" for time-slicing and MPS, whose nodes have MIG disabled and
 * whose plugin refuses MPS under "mixed", and the scenario's strategy for
 * the default config (whole GPUs and MIG nodes).
 */
static const char *config_mig_strategy(const struct scenario *sc, const struct dshare *s)
{
	static const char *const op[] = { "", "single", "mixed", "none" };

	if (sc->operator_mig != OPERATOR_MIG_UNSET)
		return op[sc->operator_mig];
	if (s->mode != MODE_PASSTHROUGH)
		return "none";
	return sc->mig_single ? "single" : "mixed";
}

/* One device-plugin config (the value of a ConfigMap key), as YAML text; NULL when YAML fails. */
static char *plugin_config(const struct dplan *dp, const struct dshare *s)
{
	const struct scenario *sc = dp->cp->p->sc;
	struct dyaml y;
	char *text;
	size_t len;

	dyaml_begin(&y);
	dyaml_map(&y, 0);
	dyaml_kv(&y, "version", "v1");
	dyaml_str(&y, "flags");
	dyaml_map(&y, 0);
	dyaml_kv(&y, "migStrategy", config_mig_strategy(sc, s));
	dyaml_end(&y, 0);
	if (s->mode != MODE_PASSTHROUGH) {
		dyaml_str(&y, "sharing");
		dyaml_map(&y, 0);
		dyaml_str(&y, s->mode == MODE_MPS ? "mps" : "timeSlicing");
		dyaml_map(&y, 0);
		dyaml_str(&y, "renameByDefault");
		dyaml_bool(&y, sc->rename_by_default);
		dyaml_str(&y, "failRequestsGreaterThanOne");
		dyaml_bool(&y, 1);
		dyaml_str(&y, "resources");
		dyaml_seq(&y, 0);
		dyaml_map(&y, 0);
		dyaml_kv(&y, "name", "nvidia.com/gpu");
		dyaml_ki(&y, "replicas", s->k);
		dyaml_end(&y, 0);
		dyaml_end(&y, 1);
		dyaml_end(&y, 0);
		dyaml_end(&y, 0);
	}
	dyaml_end(&y, 0);
	return dyaml_finish(&y, &text, &len) ? NULL : text;
}

static int write_plugin_configmap(const struct dplan *dp, const char *ns, struct outset *os)
{
	struct dyaml y;
	char *text;
	size_t i, len;

	dyaml_begin(&y);
	dyaml_map(&y, 0);
	dyaml_kv(&y, "apiVersion", "v1");
	dyaml_kv(&y, "kind", "ConfigMap");
	dyaml_str(&y, "metadata");
	dyaml_map(&y, 0);
	dyaml_kv(&y, "name", DEPLOY_CONFIGMAP);
	dyaml_kv(&y, "namespace", ns);
	dyaml_end(&y, 0);
	dyaml_str(&y, "data");
	dyaml_map(&y, 0);
	for (i = 0; i < dp->nshares; i++) {
		char *inner = plugin_config(dp, &dp->shares[i]);
		if (!inner) {
			y.failed = 1;
			break;
		}
		dyaml_str(&y, dp->shares[i].name);
		dyaml_lit(&y, inner);
		free(inner);
	}
	dyaml_end(&y, 0);
	dyaml_end(&y, 0);
	if (dyaml_finish(&y, &text, &len))
		return -1;
	outset_add(os, "device-plugin-config.yaml", text, len);
	return 0;
}

/* s single-quoted for the shell. */
static void sh_quote(struct sb *sb, const char *s)
{
	sb_adds(sb, "'");
	for (; *s; s++)
		sb_adds(sb, *s == '\'' ? "'\\''" : (char[]){ *s, 0 });
	sb_adds(sb, "'");
}

/* The labels of Kubernetes node k: names and values (2 at most); how many. */
static int node_labels(const struct dplan *dp, const struct dk8s *k, const char **names, char values[][48])
{
	int n = 0;
	if (k->mig != -2) {
		names[n] = "nvidia.com/mig.config";
		if (k->mig >= 0)
			layout_name((size_t)k->mig, values[n], 48);
		else
			snprintf(values[n], 48, "all-disabled");
		n++;
	}
	names[n] = "nvidia.com/device-plugin.config";
	snprintf(values[n++], 48, "%s", dp->shares[k->share].name);
	return n;
}

/* One node's labels, as a kubectl line of sh and an object of arr. */
static void label_node(struct sb *sh, cJSON *arr, const char *name, int nl, const char *const *names,
		       char values[][48])
{
	cJSON *o = cJSON_CreateObject(), *lb;
	int j;

	cJSON_AddStringToObject(o, "name", name);
	lb = cJSON_AddObjectToObject(o, "labels");
	sb_adds(sh, "kubectl label node --overwrite ");
	sh_quote(sh, name);
	for (j = 0; j < nl; j++) {
		sb_addf(sh, " %s=%s", names[j], values[j]);
		cJSON_AddStringToObject(lb, names[j], values[j]);
	}
	sb_adds(sh, "\n");
	cJSON_AddItemToArray(arr, o);
}

/*
 * The inventory's named nodes the plan leaves unused: MIG disabled (on
 * MIG-capable GPUs) and the device plugin's default config, so that no
 * GPU node the inventory lists is left to the operator's defaults.  On
 * vSphere and KVM the names are hosts, not Kubernetes nodes: none.
 */
static void label_unused(const struct dplan *dp, struct sb *sh, cJSON *arr)
{
	const struct problem *p = dp->cp->p;
	size_t k, o;

	for (k = 0; k < p->nclasses; k++) {
		const struct node_class *nc = p->classes[k].nc;
		const char *names[2];
		char values[2][48];
		int nl = 0;
		if (hypervisor_is_vm_host(nc->hv))	/* an unused host runs no worker VM */
			continue;
		if (nc->gpu->has_mig) {
			names[nl] = "nvidia.com/mig.config";
			snprintf(values[nl++], 48, "all-disabled");
		}
		names[nl] = "nvidia.com/device-plugin.config";
		snprintf(values[nl++], 48, "default");
		for (o = (size_t)dp->cp->opened[k]; o < nc->nnodes; o++)
			label_node(sh, arr, nc->nodes[o], nl, names, values);
	}
}

static void write_labels(const struct dplan *dp, struct outset *os)
{
	const struct scenario *sc = dp->cp->p->sc;
	cJSON *root = cJSON_CreateObject(), *arr;
	char *name = str_escape_ctl(sc->name);	/* a line break would end the comment: a command */
	struct sb sh;
	size_t i;

	sb_init(&sh);

	sb_adds(&sh, "#!/bin/sh\n# The node labels of plan '");
	sb_adds(&sh, name);
	free(name);
	sb_adds(&sh, "' (gpuplan plan --deploy): nvidia.com/mig.config selects a config of\n"
		     "# mig-parted.yaml, nvidia.com/device-plugin.config one of device-plugin-config.yaml.\n"
		     "# Idempotent: run it again after a change.\nset -eu\n");
	cJSON_AddStringToObject(root, "schema", "gpuplan-labels/1");
	cJSON_AddStringToObject(root, "scenario", sc->name);
	arr = cJSON_AddArrayToObject(root, "nodes");
	for (i = 0; i < dp->nk8s; i++) {
		const char *names[2];
		char values[2][48];
		label_node(&sh, arr, dp->k8s[i].name, node_labels(dp, &dp->k8s[i], names, values), names, values);
	}
	label_unused(dp, &sh, arr);
	outset_add_sb(os, "labels.sh", &sh);
	deploy_add_json(os, "labels.json", root);
}

int deploy_build(const struct cplan *cp, const char *ns, struct outset *os, struct diag *d)
{
	struct dplan dp;
	struct outset tmp;
	size_t i;
	int rc;

	if (dplan_build(&dp, cp, d))
		return -1;
	outset_init(&tmp, "-");
	rc = write_mig_parted(&dp, &tmp) || write_plugin_configmap(&dp, ns, &tmp);
	if (!rc) {
		write_labels(&dp, &tmp);
		rc = deploy_requests(&dp, &tmp);
	}
	if (!rc) {
		deploy_vgpu(&dp, &tmp);
		deploy_vms(&dp, &tmp);
		deploy_apply(&dp, ns, &tmp);
	}
	dplan_release(&dp);
	if (rc) {
		outset_release(&tmp);
		return diag_set(d, DIAG_IO, NULL, 0, 0, "deploy: the YAML emitter failed");
	}
	for (i = 0; i < tmp.n; i++) {
		outset_add(os, tmp.files[i].name, tmp.files[i].data, tmp.files[i].len);
		tmp.files[i].data = NULL;
	}
	outset_release(&tmp);
	return 0;
}
