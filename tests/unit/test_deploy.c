/*
 * test_deploy.c - the deploy files checked offline against the plan they
 * come from (issue #27 acceptance), for data/example (its ILP plan under a
 * node limit, and its greedy plan) and the named-nodes golden scenario:
 *   - every YAML file parses (the project's libyaml reader);
 *   - mig-parted.yaml has exactly the fields of mig-parted's config types
 *     (NVIDIA/mig-parted api/spec/v1/spec.go, commit 28f9599079a9:
 *     Spec{version, mig-configs}, MigConfigSpec{device-filter, devices,
 *     mig-enabled, mig-devices}), and every MIG node's config equals the
 *     plan's geometry GPU by GPU, each legal for its GPU (mig_geometry_parse);
 *   - every time-sliced or MPS node's device-plugin config has exactly one
 *     replicas value per resource, the plan's (NVIDIA/k8s-device-plugin
 *     api/config/v1: Config{version, flags, sharing}, one of
 *     sharing.timeSlicing / sharing.mps);
 *   - labels.sh labels every Kubernetes node of the plan (a host on bare
 *     metal, its worker VM "<host>-k8s" on vSphere and KVM) and every named
 *     bare-metal node of the inventory, and never a hypervisor host;
 *   - requests.csv adds up, per host, to what the plan placed there outside
 *     VM workloads, names no hypervisor host as a node, and with vms.csv's
 *     VM workloads gives every workload's placed replicas;
 *   - MPS configs say migStrategy none (the plugin refuses MPS under mixed).
 * Then plans the NVIDIA stack cannot express are refused, nothing added;
 * names that are no Kubernetes node name and a ClusterPolicy strategy that
 * cannot serve the plan, likewise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "deploy.h"
#include "fixture.h"
#include "mig.h"
#include "plan.h"
#include "ydoc.h"

#define INV_HEADER_NODES                                                                        \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w,nodes\n"

/* The file name of os, or NULL. */
static const struct outfile *file_of(const struct outset *os, const char *name)
{
	size_t i;
	for (i = 0; i < os->n; i++)
		if (!strcmp(os->files[i].name, name))
			return &os->files[i];
	return NULL;
}

static int parse(struct ydoc *doc, const struct outset *os, const char *name)
{
	const struct outfile *f = file_of(os, name);
	struct diag d = DIAG_INIT;
	int rc;

	CHECK(f != NULL, "%s written", name);
	if (!f)
		return -1;
	rc = ydoc_parse(doc, name, f->data, f->len, &d);
	CHECK(rc == 0, "%s parses: %s", name, d.msg ? d.msg : "");
	diag_release(&d);
	return rc;
}

/* True when every key of map is in allowed (NULL-terminated). */
static int keys_in(const struct ynode *map, const char *const *allowed)
{
	size_t i, j;
	if (!map || map->type != YN_MAP)
		return 0;
	for (i = 0; i < map->n; i++) {
		for (j = 0; allowed[j] && strcmp(map->keys[i], allowed[j]); j++)
			;
		if (!allowed[j])
			return 0;
	}
	return 1;
}

/* The label `key` of node `node` in labels.sh, copied into out; 0 when found. */
static int label_of(const struct outset *os, const char *node, const char *key, char *out, size_t size)
{
	const struct outfile *f = file_of(os, "labels.sh");
	char *want = xasprintf("kubectl label node --overwrite '%s' ", node), *k = xasprintf(" %s=", key);
	const char *line = f ? strstr(f->data, want) : NULL, *v, *end;
	int rc = -1;

	if (line) {
		end = strchr(line, '\n');
		v = strstr(line, k);
		if (v && v < end) {
			v += strlen(k);
			snprintf(out, size, "%.*s", (int)strcspn(v, " \n"), v);
			rc = 0;
		}
	}
	free(want);
	free(k);
	return rc;
}

/* The Kubernetes node plan node n's GPUs serve: the host, or its worker VM on a hypervisor. */
static char *k8s_name(const struct cplan *cp, const struct cnode *n)
{
	char *host = cplan_node_name(cp, n), *name;

	if (!hypervisor_is_vm_host(cp->p->classes[n->k].nc->hv))
		return host;
	name = xasprintf("%s-k8s", host);
	free(host);
	return name;
}

/* The mig-parted entry of config cfg that covers GPU g (devices "all" or a list holding g). */
static const struct ynode *entry_for(const struct ynode *cfg, int g)
{
	size_t i, j;
	for (i = 0; cfg && cfg->type == YN_SEQ && i < cfg->n; i++) {
		const struct ynode *dev = ymap_get(cfg->items[i], "devices");
		if (dev && dev->type == YN_SCALAR && !strcmp(dev->scalar, "all"))
			return cfg->items[i];
		for (j = 0; dev && dev->type == YN_SEQ && j < dev->n; j++)
			if (atoi(dev->items[j]->scalar) == g)
				return cfg->items[i];
	}
	return NULL;
}

/* mig-parted.yaml: exact fields, and each MIG node's GPUs as the plan has them. */
static void check_mig_parted(const struct cplan *cp, const struct outset *os, const char *what)
{
	static const char *const spec[] = { "version", "mig-configs", NULL };
	static const char *const entry[] = { "device-filter", "devices", "mig-enabled", "mig-devices", NULL };
	struct ydoc doc = YDOC_INIT;
	const struct ynode *cfgs;
	size_t i, j;

	if (parse(&doc, os, "mig-parted.yaml"))
		return;
	CHECK(keys_in(doc.root, spec), "%s: mig-parted top-level fields", what);
	CHECK(ymap_get(doc.root, "version") && !strcmp(ymap_get(doc.root, "version")->scalar, "v1"), "%s: v1", what);
	cfgs = ymap_get(doc.root, "mig-configs");
	for (i = 0; cfgs && i < cfgs->n; i++)
		for (j = 0; j < cfgs->items[i]->n; j++) {
			const struct ynode *e = cfgs->items[i]->items[j];
			CHECK(keys_in(e, entry) && ymap_get(e, "devices") && ymap_get(e, "mig-enabled"),
			      "%s: mig-parted config %s entry %zu: fields", what, cfgs->keys[i], j);
		}
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct pclass *c = &cp->p->classes[n->k];
		char *name = k8s_name(cp, n), label[64];
		int g;
		if (n->mode != MODE_MIG) {
			free(name);
			continue;
		}
		CHECK(label_of(os, name, "nvidia.com/mig.config", label, sizeof(label)) == 0, "%s: %s labelled", what,
		      name);
		for (g = 0; g < c->nc->gpus_per_node; g++) {
			const struct ynode *e = entry_for(cfgs ? ymap_get(cfgs, label) : NULL, g), *md;
			struct mig_geometry geo;
			struct sb s;
			char *want;
			if (n->gpu_config[g] < 0)
				continue;
			CHECK(e != NULL, "%s: %s GPU %d in config %s", what, name, g, label);
			md = e ? ymap_get(e, "mig-devices") : NULL;
			sb_init(&s);
			for (j = 0; md && j < md->n; j++)
				sb_addf(&s, "%s%s*%s", j ? "+" : "", md->keys[j], md->items[j]->scalar);
			want = mig_geometry_name(c->nc->gpu, &c->configs[n->gpu_config[g]].mig);
			CHECK(mig_geometry_parse(c->nc->gpu, s.buf ? s.buf : "", &geo, NULL) == 0 &&
				      geo.n == c->configs[n->gpu_config[g]].mig.n &&
				      !memcmp(geo.profile, c->configs[n->gpu_config[g]].mig.profile,
					      (size_t)geo.n * sizeof(geo.profile[0])),
			      "%s: %s GPU %d: mig-parted '%s', plan '%s'", what, name, g, s.buf ? s.buf : "", want);
			free(want);
			sb_release(&s);
		}
		free(name);
	}
	ydoc_release(&doc);
}

/* The replicas of the one resource of a time-slicing or MPS config; -1 when not exactly one. */
static long one_replicas(const char *text, const char **mode)
{
	static const char *const cfg_keys[] = { "version", "flags", "sharing", NULL };
	struct ydoc doc = YDOC_INIT;
	struct diag d = DIAG_INIT;
	const struct ynode *sh, *m, *res;
	long k = -1;

	if (ydoc_parse(&doc, "config", text, strlen(text), &d)) {
		diag_release(&d);
		return -1;
	}
	sh = keys_in(doc.root, cfg_keys) ? ymap_get(doc.root, "sharing") : NULL;
	*mode = sh && ymap_get(sh, "mps") ? "mps" : "timeslice";
	m = sh && sh->n == 1 ? sh->items[0] : NULL;
	res = m ? ymap_get(m, "resources") : NULL;
	if (res && res->type == YN_SEQ && res->n == 1 && ymap_get(res->items[0], "replicas"))
		k = atol(ymap_get(res->items[0], "replicas")->scalar);
	ydoc_release(&doc);
	return k;
}

/* device-plugin-config.yaml: a ConfigMap; each shared node's config has its one replicas value. */
static void check_plugin(const struct cplan *cp, const struct outset *os, const char *what)
{
	struct ydoc doc = YDOC_INIT;
	const struct ynode *data;
	size_t i;

	if (parse(&doc, os, "device-plugin-config.yaml"))
		return;
	CHECK(!strcmp(ymap_get(doc.root, "kind")->scalar, "ConfigMap"), "%s: a ConfigMap", what);
	data = ymap_get(doc.root, "data");
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct pclass *c = &cp->p->classes[n->k];
		char *name = k8s_name(cp, n), label[64];
		const struct ynode *v;
		const char *mode = "";
		int g;
		long k;
		int shared = 0;
		for (g = 0; g < c->nc->gpus_per_node; g++)
			shared |= n->gpu_config[g] >= 0;
		if (n->mode != MODE_TIMESLICE && n->mode != MODE_MPS) {
			free(name);
			continue;
		}
		CHECK(label_of(os, name, "nvidia.com/device-plugin.config", label, sizeof(label)) == 0,
		      "%s: %s labelled", what, name);
		if (!shared) { /* every GPU idle: nothing to share, the default config */
			CHECK(!strcmp(label, "default"), "%s: %s idle, config %s", what, name, label);
			free(name);
			continue;
		}
		v = data ? ymap_get(data, label) : NULL;
		k = v ? one_replicas(v->scalar, &mode) : -1;
		CHECK(k >= 2 && !strcmp(mode, mode_name(n->mode)), "%s: %s: one %s replicas value (%ld)", what, name,
		      mode_name(n->mode), k);
		CHECK(v && strstr(v->scalar, "migStrategy: none"), "%s: %s: config %s has migStrategy none", what, name,
		      label);
		for (g = 0; g < c->nc->gpus_per_node; g++)
			if (n->gpu_config[g] >= 0)
				CHECK(c->configs[n->gpu_config[g]].k == k, "%s: %s GPU %d: plan %d, config %ld", what,
				      name, g, c->configs[n->gpu_config[g]].k, k);
		free(name);
	}
	ydoc_release(&doc);
}

/* True when every GPU of hypervisor host i is held by a `vm: true` replica: it runs no worker VM. */
static int all_vm_workloads(const struct cplan *cp, size_t i)
{
	int g, gpus = cp->p->classes[cp->nodes[i].k].nc->gpus_per_node;
	unsigned long long held = 0;
	size_t s;

	if (!hypervisor_is_vm_host(cp->p->classes[cp->nodes[i].k].nc->hv))
		return 0;
	for (s = 0; s < cp->nslots; s++) {
		const struct cslot *sl = &cp->slots[s];
		if ((size_t)sl->node == i && sl->d >= 0 && cp->p->demands[sl->d].w->vm)
			for (g = sl->gpu; g < sl->gpu + (sl->ngpus > 1 ? sl->ngpus : 1); g++)
				held |= 1ULL << g;
	}
	return gpus < 64 && held == (1ULL << gpus) - 1;
}

/*
 * Every Kubernetes node of the plan and every named bare-metal node of the
 * inventory has its labels; no hypervisor host has any.
 */
static void check_labels(const struct cplan *cp, const struct outset *os, const char *what)
{
	char label[64];
	size_t i, k;

	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		char *name = k8s_name(cp, n), *host = cplan_node_name(cp, n);
		if (n->mode != MODE_VGPU && n->mode != MODE_MIG_VGPU && !all_vm_workloads(cp, i))
			CHECK(label_of(os, name, "nvidia.com/device-plugin.config", label, sizeof(label)) == 0,
			      "%s: node %s labelled", what, name);
		if (strcmp(name, host))
			CHECK(label_of(os, host, "nvidia.com/device-plugin.config", label, sizeof(label)) != 0,
			      "%s: hypervisor host %s not labelled", what, host);
		free(name);
		free(host);
	}
	for (k = 0; k < cp->p->nclasses; k++)
		for (i = 0; i < cp->p->classes[k].nc->nnodes; i++) {
			const char *name = cp->p->classes[k].nc->nodes[i];
			CHECK(hypervisor_is_vm_host(cp->p->classes[k].nc->hv) ||
				      label_of(os, name, "nvidia.com/device-plugin.config", label, sizeof(label)) == 0,
			      "%s: inventory node %s labelled", what, name);
		}
}

/* Field i (from 0) of CSV line (no quoted fields: the test's names have none) into out. */
static void field(const char *line, int i, char *out, size_t size)
{
	for (; i > 0 && *line && *line != '\n'; line++)
		if (*line == ',')
			i--;
	snprintf(out, size, "%.*s", (int)strcspn(line, ",\n"), line);
}

/* The plan node named host, or cp->nnodes. */
static size_t node_named(const struct cplan *cp, const char *host)
{
	size_t i;

	for (i = 0; i < cp->nnodes; i++) {
		char *name = cplan_node_name(cp, &cp->nodes[i]);
		int same = !strcmp(name, host);
		free(name);
		if (same)
			break;
	}
	return i;
}

/* The demand of workload name, or -1. */
static int demand_named(const struct cplan *cp, const char *name)
{
	size_t d;

	for (d = 0; d < cp->p->ndemands; d++)
		if (!strcmp(cp->p->demands[d].w->name, name))
			return (int)d;
	return -1;
}

/*
 * requests.csv: per host, replicas x per_replica add up to the GPUs the
 * plan placed there outside VM workloads, on a node that is no hypervisor
 * host; with vms.csv's VM workloads, every workload's replicas placed.
 */
static void check_requests(const struct cplan *cp, const struct outset *os, const char *what)
{
	const struct outfile *f = file_of(os, "requests.csv"), *vms = file_of(os, "vms.csv");
	long *want = xcalloc(cp->nnodes + 1, sizeof(*want)), *got = xcalloc(cp->nnodes + 1, sizeof(*got));
	long *placed = xcalloc(cp->p->ndemands + 1, sizeof(*placed));
	long *plan_w = xcalloc(cp->p->ndemands + 1, sizeof(*plan_w));
	const char *line;
	size_t i;

	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->d >= 0 && !cp->p->demands[s->d].w->vm)
			want[s->node] += s->ngpus > 1 ? s->ngpus : 1;
	}
	for (line = f ? strchr(f->data, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
		char wl[128], node[300], host[300], num[32];
		int per, d;
		long reps;
		field(line + 1, 0, wl, sizeof(wl));
		field(line + 1, 2, node, sizeof(node));
		field(line + 1, 3, host, sizeof(host));
		field(line + 1, 5, num, sizeof(num));
		per = atoi(num);
		field(line + 1, 6, num, sizeof(num));
		reps = atol(num);
		i = node_named(cp, host);
		CHECK(i < cp->nnodes, "%s: requests.csv host %s is a node of the plan", what, host);
		if (i < cp->nnodes) {
			got[i] += per * reps;
			CHECK((strcmp(node, host) == 0) != hypervisor_is_vm_host(cp->p->classes[cp->nodes[i].k].nc->hv),
			      "%s: request on %s: a hypervisor host never, a bare-metal host itself", what, node);
		}
		if ((d = demand_named(cp, wl)) >= 0)
			placed[d] += reps;
	}
	for (line = vms ? strchr(vms->data, '\n') : NULL; line && line[1]; line = strchr(line + 1, '\n')) {
		char role[32], wl[128];
		int d;
		field(line + 1, 3, role, sizeof(role));
		field(line + 1, 12, wl, sizeof(wl));
		if (!strcmp(role, "workload") && (d = demand_named(cp, wl)) >= 0)
			placed[d]++;
	}
	for (i = 0; i < cp->nnodes; i++)
		CHECK(want[i] == got[i], "%s: node %zu: plan places %ld GPU requests, requests.csv %ld", what, i,
		      want[i], got[i]);
	for (i = 0; i < cp->p->ndemands; i++)	/* a workload's demands add up in its first */
		plan_w[demand_named(cp, cp->p->demands[i].w->name)] += cp->placed[i];
	for (i = 0; i < cp->p->ndemands; i++)
		CHECK(placed[i] == plan_w[i], "%s: workload %s: %ld replicas placed, %ld in the deploy files", what,
		      cp->p->demands[i].w->name, plan_w[i], placed[i]);
	free(plan_w);
	free(want);
	free(got);
	free(placed);
}

static void check_all(const struct cplan *cp, const char *what)
{
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	struct ydoc doc = YDOC_INIT;

	outset_init(&os, "-");
	CHECK(deploy_build(cp, DEPLOY_NAMESPACE, &os, &d) == 0, "%s: deploy_build: %s", what, d.msg ? d.msg : "");
	check_mig_parted(cp, &os, what);
	check_plugin(cp, &os, what);
	check_labels(cp, &os, what);
	check_requests(cp, &os, what);
	if (!parse(&doc, &os, "requests.yaml"))
		ydoc_release(&doc);
	outset_release(&os);
	diag_release(&d);
}

static void check_scenario(const char *path, int greedy, const char *what)
{
	struct scenario sc;
	struct plan_opts po = PLAN_OPTS_INIT;
	struct plan_result r;
	struct diag d = DIAG_INIT;

	memset(&r, 0, sizeof(r));
	if (scenario_load(&sc, path, FIXTURE_MODELS, &d)) {
		CHECK(0, "%s: %s", path, d.msg);
		diag_release(&d);
		return;
	}
	po.greedy_only = greedy;
	po.node_limit = 1; /* the same plan on any machine */
	po.time_limit_s = 600;
	po.threads = 1;
	if (plan_run(&r, &sc, &po, &d) == 0)
		check_all(r.final, what);
	else
		CHECK(0, "%s: plan_run: %s", what, d.msg);
	plan_release(&r);
	scenario_release(&sc);
	diag_release(&d);
}

/* A plan with two replica counts on a time-sliced node and one with a bad MIG profile: refused, nothing added. */
static void test_refused(void)
{
	static const char inv[] = INV_HEADER "ts,1,A100-PCIE-80GB,4,baremetal,dc1,64,512,owned,,,,\n"
					     "mg,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n";
	static const char wl[] =
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
		"ts-w,t,2,0,8,0.1,none,false,1,8,A100-PCIE-80GB,timeslice\n"
		"ts-big,t,1,0,30,0.1,none,false,1,8,A100-PCIE-80GB,timeslice\n"
		"mig-w,t,2,0,9.5,0.14,hardware,false,1,8,H100-SXM5-80GB,mig\n";
	static const char *const want[2] = { "cannot deploy node ts-000: two replica counts on one node",
					     "cannot deploy node mg-000: a MIG geometry its GPU does not have" };
	int t;

	for (t = 0; t < 2; t++) {
		struct fixture fx;
		struct outset os = OUTSET_INIT;
		struct diag d = DIAG_INIT;
		size_t i, ci;
		if (fixture_build(&fx, FIXTURE_SC_TEXT("refused"), inv, wl, FIXTURE_GREEDY))
			return;
		for (i = 0; i < fx.cp.nnodes; i++) {
			struct cnode *n = &fx.cp.nodes[i];
			struct pclass *c = &fx.p.classes[n->k];
			if (t == 0 && n->mode == MODE_TIMESLICE) {
				for (ci = 0; ci < c->nconfigs && (c->configs[ci].mode != MODE_TIMESLICE ||
								  c->configs[ci].k == c->configs[n->gpu_config[0]].k);
				     ci++)
					;
				if (ci < c->nconfigs)
					cplan_configure_gpu(&fx.cp, (int)i, 3, (int)ci);
			}
			if (t == 1 && n->mode == MODE_MIG)
				c->configs[n->gpu_config[0]].mig.profile[0] = (int)c->nc->gpu->mig.nprofiles + 3;
		}
		outset_init(&os, "-");
		CHECK(deploy_build(&fx.cp, DEPLOY_NAMESPACE, &os, &d) == -1 && d.kind == DIAG_INPUT, "refused %d: rejected", t);
		CHECK(d.msg && strstr(d.msg, want[t]), "refused %d: message '%s'", t, d.msg ? d.msg : "");
		CHECK(os.n == 0, "refused %d: %zu files added", t, os.n);
		outset_release(&os);
		diag_release(&d);
		fixture_release(&fx);
	}
}

/* MIG strategy single and renameByDefault: one profile per node, devices "all", nvidia.com/gpu(.shared). */
static void test_single(void)
{
	static const char inv[] = INV_HEADER "mg,2,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n"
					     "ts,1,A100-PCIE-80GB,4,baremetal,dc1,64,512,owned,,,,\n";
	static const char wl[] =
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
		"small,t,9,0,9.5,0.14,hardware,false,1,8,H100-SXM5-80GB,mig\n"
		"mid,t,3,0,18,0.28,hardware,false,1,8,H100-SXM5-80GB,mig\n"
		"nb,t,3,0,8,0.1,none,false,1,8,A100-PCIE-80GB,timeslice\n";
	struct fixture fx;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	const struct outfile *f;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("single") "sharing: {mig_strategy: single, rename_by_default: true}\n",
			  inv, wl, FIXTURE_GREEDY))
		return;
	check_all(&fx.cp, "single");
	outset_init(&os, "-");
	CHECK(deploy_build(&fx.cp, DEPLOY_NAMESPACE, &os, &d) == 0, "single: deploy_build");
	f = file_of(&os, "requests.csv");
	CHECK(f && !strstr(f->data, "nvidia.com/mig-") && strstr(f->data, ",nvidia.com/gpu,1,") &&
		      strstr(f->data, ",nvidia.com/gpu.shared,1,"),
	      "single: MIG as nvidia.com/gpu, shared as nvidia.com/gpu.shared: %s", f ? f->data : "");
	f = file_of(&os, "mig-parted.yaml");
	CHECK(f && strstr(f->data, "devices: all\n    mig-enabled: true"), "single: devices all: %s", f ? f->data : "");
	f = file_of(&os, "device-plugin-config.yaml");
	CHECK(f && strstr(f->data, "migStrategy: single") && strstr(f->data, "renameByDefault: true"),
	      "single: flags and rename");
	outset_release(&os);
	diag_release(&d);
	fixture_release(&fx);
}

/* A class whose made-up node names are no Kubernetes node names: refused at its inventory row, nothing added. */
static void test_names(void)
{
	static const char *const names[] = { "-lz!=a", "../../x", "a b", "\"a\nb\"", "Upper" };
	static const char wl[] = "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib\n"
				 "w,t,2,1,,,none,false,1,8\n";
	size_t t;

	for (t = 0; t < sizeof(names) / sizeof(names[0]); t++) {
		char *inv = xasprintf(INV_HEADER "%s,1,A100-PCIE-80GB,4,baremetal,dc1,64,512,owned,,,,\n", names[t]);
		struct fixture fx;
		struct outset os = OUTSET_INIT;
		struct diag d = DIAG_INIT;
		if (fixture_build(&fx, FIXTURE_SC_TEXT("names"), inv, wl, FIXTURE_GREEDY) == 0) {
			outset_init(&os, "-");
			CHECK(deploy_build(&fx.cp, DEPLOY_NAMESPACE, &os, &d) == -1 && d.kind == DIAG_INPUT,
			      "name %zu: refused", t);
			CHECK(d.msg && strstr(d.msg, "is not a Kubernetes node name") && d.line == 2 && d.col == 1,
			      "name %zu: message at the class row: %ld:%ld %s", t, d.line, d.col, d.msg ? d.msg : "");
			CHECK(os.n == 0, "name %zu: %zu files added", t, os.n);
			outset_release(&os);
			fixture_release(&fx);
		}
		diag_release(&d);
		free(inv);
	}
}

/* A worker VM whose made-up name another node of the inventory has: refused, nothing added. */
static void test_name_taken(void)
{
	static const char inv[] = INV_HEADER_NODES "vs,1,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,,esx1\n"
					     "bm,1,L40S,2,baremetal,dc1,64,512,owned,,,,,esx1-k8s\n";
	static const char wl[] =
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
		"w,t,2,1,,,none,false,1,8,A100-PCIE-80GB,passthrough\n";
	struct fixture fx;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;

	if (fixture_build(&fx, FIXTURE_SC_TEXT("taken"), inv, wl, FIXTURE_GREEDY))
		return;
	outset_init(&os, "-");
	CHECK(deploy_build(&fx.cp, DEPLOY_NAMESPACE, &os, &d) == -1 && d.msg &&
		      strstr(d.msg, "the VM name 'esx1-k8s' made up for host esx1 is a node name already") && d.line == 2 &&
		      os.n == 0,
	      "name taken: refused at the vsphere row: %ld %s", d.line, d.msg ? d.msg : "");
	outset_release(&os);
	diag_release(&d);
	fixture_release(&fx);
}

/* A ClusterPolicy mig.strategy (sharing.operator_mig_strategy) that cannot serve the plan: refused. */
static void test_operator(void)
{
	static const char inv[] = INV_HEADER "mp,1,A100-PCIE-80GB,4,baremetal,dc1,64,512,owned,,,,\n"
					     "mg,1,H100-SXM5-80GB,8,baremetal,dc1,64,512,owned,,,,\n";
	static const char wl[] =
		"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes\n"
		"mp-w,t,4,0,8,0.1,memory,false,1,8,A100-PCIE-80GB,mps\n"
		"mig-w,t,2,0,9.5,0.12,hardware,false,1,8,H100-SXM5-80GB,mig\n";
	static const struct {
		const char *sharing, *want;	/* NULL want: deployable */
	} cases[] = {
		{ "{operator_mig_strategy: mixed}", "MPS under a ClusterPolicy with mig.strategy mixed" },
		{ "{operator_mig_strategy: none}", "MIG under a ClusterPolicy with mig.strategy none" },
		{ "{operator_mig_strategy: single}", "mixed under a ClusterPolicy with mig.strategy single" },
		{ "{operator_mig_strategy: single, mig_strategy: single}", NULL },
		{ "{operator_mig_strategy: unset}", NULL },
	};
	size_t t;

	for (t = 0; t < sizeof(cases) / sizeof(cases[0]); t++) {
		char *sc = xasprintf(FIXTURE_SC_TEXT("operator") "sharing: %s\n", cases[t].sharing);
		struct fixture fx;
		struct outset os = OUTSET_INIT;
		struct diag d = DIAG_INIT;
		if (fixture_build(&fx, sc, inv, wl, FIXTURE_GREEDY) == 0) {
			const struct outfile *f;
			outset_init(&os, "-");
			if (cases[t].want) {
				CHECK(deploy_build(&fx.cp, DEPLOY_NAMESPACE, &os, &d) == -1 && d.msg &&
					      strstr(d.msg, cases[t].want) && os.n == 0,
				      "operator %zu: refused: %s", t, d.msg ? d.msg : "");
			} else {
				CHECK(deploy_build(&fx.cp, "nvidia-gpu-operator", &os, &d) == 0, "operator %zu: deployed", t);
				f = file_of(&os, "device-plugin-config.yaml");
				CHECK(f && strstr(f->data, t == 3 ? "migStrategy: single" : "migStrategy: none") &&
					      strstr(f->data, "namespace: nvidia-gpu-operator"),
				      "operator %zu: strategy and namespace", t);
				f = file_of(&os, "apply.sh");
				CHECK(f && (strstr(f->data, "\"strategy\": null") != NULL) == (t == 4) &&
					      strstr(f->data, "ns=nvidia-gpu-operator\n"),
				      "operator %zu: apply.sh unsets the strategy only when asked", t);
			}
			outset_release(&os);
			fixture_release(&fx);
		}
		diag_release(&d);
		free(sc);
	}
}

int main(void)
{
	if (fixture_setup("test_deploy"))
		return 1;
	check_scenario("data/example/scenario.yaml", 0, "example ilp");
	check_scenario("data/example/scenario.yaml", 1, "example greedy");
	check_scenario("tests/cases/deploy-named-nodes/scenario.yaml", 1, "named nodes");
	test_refused();
	test_single();
	test_names();
	test_name_taken();
	test_operator();
	/*
	 * any other scenario's plan, e.g. a bench L instance (not part of the
	 * suite): greedy, or the ILP's (node limit 1) with GPUPLAN_DEPLOY_ILP=1
	 */
	if (getenv("GPUPLAN_DEPLOY_SCENARIO"))
		check_scenario(getenv("GPUPLAN_DEPLOY_SCENARIO"), !getenv("GPUPLAN_DEPLOY_ILP"),
			       "GPUPLAN_DEPLOY_SCENARIO");
	fixture_teardown();
	return check_done();
}
