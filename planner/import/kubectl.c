/*
 * kubectl.c - a Kubernetes cluster as it runs today, as two scenarios
 * (see kubectl.h): grouping nodes into classes, pods into workloads, and
 * writing the files as text in the input formats of docs/formats.md.
 * Rows come out sorted, so the output does not depend on the order of
 * the lists' items.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "kubectl.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

/* The most bytes of node names one inventory row lists (a CSV field holds 4096). */
#define KUBE_NAMES_MAX 4000

/* What makes two nodes one class, and the setup they run today. */
struct kclass_key {
	struct knode *nd;
	char *setup;		/* "mig 1g.10gb=7 3g.40gb=1", "timeslice 4", "passthrough" */
	long ram_gib;		/* whole GiB, rounded down */
	long cpu_milli;
};

static int kmig_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kmig *)a)->profile, ((const struct kmig *)b)->profile);
}

static char *node_setup(struct knode *nd)
{
	struct sb sb;
	size_t i;

	sb_init(&sb);
	sb_adds(&sb, kmode_name(nd->mode));
	if (nd->mode == KM_TIMESLICE || nd->mode == KM_MPS)
		sb_addf(&sb, " %d replicas", nd->replicas);
	if (nd->nmig)
		qsort(nd->mig, nd->nmig, sizeof(*nd->mig), kmig_cmp);
	for (i = 0; i < nd->nmig; i++)
		sb_addf(&sb, " %s=%ld", nd->mig[i].profile, nd->mig[i].count);
	return sb_detach(&sb);
}

static int kclass_cmp(const void *a, const void *b)
{
	const struct kclass_key *x = a, *y = b;
	int c;

	if ((c = strcmp(x->nd->site, y->nd->site)) || (c = strcmp(x->nd->gpu->id, y->nd->gpu->id)))
		return c;
	if (x->nd->gpus != y->nd->gpus)
		return x->nd->gpus < y->nd->gpus ? -1 : 1;
	if (x->cpu_milli != y->cpu_milli)
		return x->cpu_milli < y->cpu_milli ? -1 : 1;
	if (x->ram_gib != y->ram_gib)
		return x->ram_gib < y->ram_gib ? -1 : 1;
	return strcmp(x->setup, y->setup);
}

/* Same class: all but the node name. */
static int kclass_same(const struct kclass_key *x, const struct kclass_key *y)
{
	return !kclass_cmp(x, y);
}

static void lower_id(char *dst, size_t size, const char *id)
{
	size_t i;
	for (i = 0; id[i] && i + 1 < size; i++)
		dst[i] = id[i] >= 'A' && id[i] <= 'Z' ? (char)(id[i] - 'A' + 'a') : id[i];
	dst[i] = '\0';
}

/*
 * The rows of one class keys[0..n): one, or several when the node names
 * would not fit one CSV field (4096 bytes): <base>, <base>-2, ...
 */
static void write_class_rows(struct sb *inv, struct kclass_key *keys, size_t n, const char *base,
			     struct kubectl_out *out)
{
	const struct knode *nd = keys[0].nd;
	struct sb cell;		/* the class name, then its nodes */
	size_t i = 0, j, len, first;
	char b[64];
	int part = 1;

	for (; i < n; i = j, part++) {
		long line = keys[i].nd->line;
		for (j = i, len = 0; j < n && (j == i || len + 1 + strlen(keys[j].nd->name) <= KUBE_NAMES_MAX); j++) {
			len += 1 + strlen(keys[j].nd->name);
			if (keys[j].nd->line < line)
				line = keys[j].nd->line;
		}
		origins_add(&out->origins, "inventory.csv", inv, out->nodes_file, line);
		sb_init(&cell);
		sb_adds(&cell, base);
		if (part > 1)
			sb_addf(&cell, "-%d", part);
		sb_add_csv(inv, cell.buf);
		sb_release(&cell);
		sb_addf(inv, ",%zu,", j - i);
		sb_add_csv(inv, nd->gpu->id);
		sb_addf(inv, ",%ld,baremetal,", nd->gpus);
		sb_add_csv(inv, nd->site);
		sb_addf(inv, ",%s,%ld,owned,", fmt_num_short(b, sizeof(b), (double)keys[0].cpu_milli / 1000.0, 3),
			keys[0].ram_gib);
		sb_init(&cell);
		for (first = i; i < j; i++) {
			sb_addf(&cell, "%s%s", i > first ? "|" : "", keys[i].nd->name);
			keys[i].nd->cls = out->classes;
			out->mode_nodes[keys[i].nd->mode]++;
			out->gpus += keys[i].nd->gpus;
		}
		sb_add_csv(inv, cell.buf);
		sb_release(&cell);
		sb_adds(inv, "\n");
		out->classes++;
	}
}

/* inventory.csv: one row per class (more for a very large one), a comment with today's setup above it. */
static void write_inventory(struct sb *inv, struct kclass_key *keys, size_t nn, struct kubectl_out *out)
{
	size_t i, j, k;
	char lid[64], base[96];

	sb_adds(inv, "# Kubernetes GPU nodes (gpuplan import kubectl): nodes alike in site, GPU, CPU, RAM (whole GiB)\n"
		     "# and current sharing are one class; the comment above a row is its setup today.\n"
		     "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,nodes\n");
	for (i = 0; i < nn; i = j) {
		const struct knode *nd = keys[i].nd;
		int seq = 1;
		for (j = i; j < nn && kclass_same(&keys[i], &keys[j]); j++)
			;
		for (k = 0; k < i; k++)
			seq += !strcmp(keys[k].nd->gpu->id, nd->gpu->id) && (k == 0 || !kclass_same(&keys[k - 1], &keys[k]));
		lower_id(lid, sizeof(lid), nd->gpu->id);
		snprintf(base, sizeof(base), "%s-%d", lid, seq);
		sb_addf(inv, "# %s: %s today", base, keys[i].setup);
		if (*nd->strategy || *nd->mig_config)
			sb_addf(inv, " (mig.strategy %s, mig.config %s)", *nd->strategy ? nd->strategy : "-",
				*nd->mig_config ? nd->mig_config : "-");
		sb_adds(inv, "\n");
		write_class_rows(inv, keys + i, j - i, base, out);
	}
}

static int kclass_key_name_cmp(const void *a, const void *b)
{
	int c = kclass_cmp(a, b);
	return c ? c : strcmp(((const struct kclass_key *)a)->nd->name, ((const struct kclass_key *)b)->nd->name);
}

static void group_nodes(struct sb *inv, struct knode *nodes, size_t nn, struct kubectl_out *out)
{
	struct kclass_key *keys = xcalloc(nn, sizeof(*keys));
	size_t i;

	for (i = 0; i < nn; i++) {
		keys[i].nd = &nodes[i];
		keys[i].setup = node_setup(&nodes[i]);
		keys[i].ram_gib = (long)floor(nodes[i].ram_gib);
		keys[i].cpu_milli = (long)floor(nodes[i].cpu * 1000.0 + 1e-6);
	}
	qsort(keys, nn, sizeof(*keys), kclass_key_name_cmp);
	write_inventory(inv, keys, nn, out);
	for (i = 0; i < nn; i++)
		free(keys[i].setup);
	free(keys);
	out->nodes = (long)nn;
}

/* ---- workloads ---- */

static int cmp_d(double a, double b)
{
	return (a > b) - (a < b);
}

static int kpod_cmp(const void *a, const void *b)
{
	const struct kpod *x = a, *y = b;
	int c;

	if ((c = strcmp(x->ns, y->ns)) || (c = strcmp(x->owner, y->owner)) || (c = strcmp(x->owner_kind, y->owner_kind)))
		return c;
	if (x->mode != y->mode)
		return x->mode < y->mode ? -1 : 1;
	if (x->gpus != y->gpus)
		return x->gpus < y->gpus ? -1 : 1;
	if ((c = strcmp(x->profile ? x->profile : "", y->profile ? y->profile : "")))
		return c;
	if ((c = strcmp(x->gpu ? x->gpu->id : "", y->gpu ? y->gpu->id : "")))
		return c;
	if ((c = cmp_d(x->share, y->share)) || (c = cmp_d(x->cpu, y->cpu)) || (c = cmp_d(x->ram_gib, y->ram_gib)))
		return c;
	if (x->pdb != y->pdb)
		return x->pdb < y->pdb ? -1 : 1;
	return memcmp(&x->spread, &y->spread, sizeof(x->spread));
}

/* A share written so that it never rounds above the value (a slot must give at least what is asked). */
static void add_floor(struct sb *sb, double v, int decimals)
{
	char b[64];
	double f = pow(10.0, decimals);
	sb_adds(sb, fmt_num_short(b, sizeof(b), floor(v * f + 1e-9) / f, decimals));
}

static void add_num(struct sb *sb, double v, int decimals)
{
	char b[64];
	sb_adds(sb, fmt_num_short(b, sizeof(b), v, decimals));
}

/* The ask columns gpus,gpu_mem_gib,compute,isolation of a workload like q. */
static void write_ask(struct sb *wl, const struct kpod *q)
{
	if (q->mode == KM_PASSTHROUGH) {
		sb_addf(wl, "%ld,,,exclusive", q->gpus);
	} else if (q->mode == KM_MIG) {
		const struct mig_profile *mp = &q->gpu->mig.profiles[catalog_mig_profile(q->gpu, q->profile)];
		sb_adds(wl, "0,");
		add_num(wl, (double)mp->memory_mib / 1024.0, 9);
		sb_adds(wl, ",");
		add_floor(wl, mig_profile_share(q->gpu, mp), 6);
		sb_adds(wl, ",hardware");
	} else {
		sb_adds(wl, "0,");
		if (q->gpu)
			add_floor(wl, (double)q->gpu->memory_mib / 1024.0 * q->share, 6);
		else
			add_floor(wl, 1.0, 6);
		sb_adds(wl, ",");
		add_floor(wl, q->share, 6);
		sb_adds(wl, q->mode == KM_MPS ? ",memory" : ",none");
	}
}

/* How the workload rows are written. */
struct kwl {
	int asis;		/* pin each row to its mode and GPU type today */
	int rules;		/* write the resilience columns (some pod has a spread or a PDB) */
	const struct kpdb *pdbs;
};

/*
 * spread,max_skew,when_unsatisfiable,min_domains,min_available,
 * max_unavailable of cnt pods like q.  An anti-affinity is one replica
 * per domain (kubectl_spread.c); a PDB's count is capped at the
 * workload's replicas (a PDB over several workloads counts them all).
 */
static void write_rules(struct sb *wl, const struct kpod *q, long cnt, const struct kpdb *pdbs)
{
	const struct kspread *s = &q->spread;
	const struct kpdb *b = q->pdb >= 0 ? &pdbs[q->pdb] : NULL;
	char v[32] = "";

	if (s->key)
		sb_addf(wl, ",%s,%d,%s,", s->key == 1 ? "node" : "site", s->max_skew,
			s->anyway ? "ScheduleAnyway" : "DoNotSchedule");
	else
		sb_adds(wl, ",,,,");
	if (s->anti)
		sb_addf(wl, "%ld", cnt);
	else if (s->min_domains)
		sb_addf(wl, "%d", s->min_domains);
	if (b && b->percent)
		snprintf(v, sizeof(v), "%ld%%", b->value);
	else if (b)
		snprintf(v, sizeof(v), "%ld", b->value < cnt ? b->value : cnt);
	sb_addf(wl, ",%s,%s", b && !b->max ? v : "", b && b->max ? v : "");
}

/* One workload row of cnt pods like q. */
static void write_workload(struct sb *wl, const struct kpod *q, long cnt, const char *name, const struct kwl *k)
{
	sb_add_csv(wl, name);
	sb_adds(wl, ",");
	sb_add_csv(wl, q->ns);
	sb_addf(wl, ",%ld,", cnt);
	write_ask(wl, q);
	sb_adds(wl, ",false,");
	add_num(wl, q->cpu, 3);
	sb_adds(wl, ",");
	add_num(wl, q->ram_gib, 6);
	if (k->asis) {
		sb_adds(wl, ",");
		sb_add_csv(wl, q->gpu ? q->gpu->id : "");
		sb_addf(wl, ",%s,,false,1", kmode_name(q->mode));
	} else
		sb_adds(wl, ",,,,false,1");
	if (k->rules)
		write_rules(wl, q, cnt, k->pdbs);
	sb_adds(wl, "\n");
}

#define WL_HEADER                                                                                                  \
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites,"     \
	"needs_nvaie,priority"
#define WL_RULES ",spread,max_skew,when_unsatisfiable,min_domains,min_available,max_unavailable"

/* Both workloads files; returns the most replicas a node time-slices or shares by MPS (at least 8). */
static int write_workloads(struct sb *wl, struct sb *wa, struct kpod *pods, size_t np, const struct kpdb *pdbs,
			   struct kubectl_out *out)
{
	struct kwl kw = { 0, 0, pdbs }, ka = { 1, 0, pdbs };
	size_t i, j;
	int kmax = 8, dup = 1;

	for (i = 0; i < np; i++) {
		out->pods_spread += pods[i].spread.key != 0;
		out->pods_pdb += pods[i].pdb >= 0;
	}
	kw.rules = ka.rules = out->pods_spread || out->pods_pdb;

	qsort(pods, np, sizeof(*pods), kpod_cmp);
	sb_adds(wl, "# Kubernetes GPU pods (gpuplan import kubectl), grouped by namespace and owner; each may take\n"
		    "# any mode its isolation allows.\n" WL_HEADER);
	sb_adds(wl, kw.rules ? WL_RULES "\n" : "\n");
	sb_adds(wa, "# The same workloads pinned to the mode and GPU type they use today (gpuplan import kubectl).\n"
		    WL_HEADER);
	sb_adds(wa, ka.rules ? WL_RULES "\n" : "\n");
	for (i = 0; i < np; i = j) {
		const struct kpod *q = &pods[i];
		long line = q->line;
		char *name;
		for (j = i; j < np && !kpod_cmp(&pods[i], &pods[j]); j++)
			if (pods[j].line < line)
				line = pods[j].line;
		if (i > 0 && !strcmp(pods[i - 1].ns, q->ns) && !strcmp(pods[i - 1].owner, q->owner))
			dup++;
		else
			dup = 1;
		name = dup > 1 ? xasprintf("%s.%s-%d", q->ns, q->owner, dup) : xasprintf("%s.%s", q->ns, q->owner);
		origins_add(&out->origins, "workloads.csv", wl, out->pods_file, line);
		write_workload(wl, q, (long)(j - i), name, &kw);
		origins_add(&out->origins, "workloads-as-is.csv", wa, out->pods_file, line);
		write_workload(wa, q, (long)(j - i), name, &ka);
		free(name);
		if (q->replicas > kmax)
			kmax = q->replicas;
		out->nworkloads++;
		out->pods_gpu += (long)(j - i);
	}
	return kmax > 48 ? 48 : kmax;
}

static char *scenario_text(const char *name, const char *workloads, int kmax, const char *what)
{
	return xasprintf("# %s (written by gpuplan import kubectl).\n"
			 "# Compare: gpuplan compare as-is.yaml scenario.yaml.  The nodes are owned: put in the\n"
			 "# energy tariff (energy: {usd_per_kwh: ..., pue: ..., source: ...}) to price the difference.\n"
			 "schema: gpuplan-scenario/1\nname: %s\ninventory: inventory.csv\nworkloads: %s\n"
			 "horizon_years: 1\nsharing: {timeslice_max_replicas: %d, mps_max_clients: %d}\n",
			 what, name, workloads, kmax, kmax);
}

/* The PDB list read and matched to the pods (each pod's pdb). */
struct kpdbset {
	struct kjson j;
	struct kpdb *v;
	size_t n;
};

static int match_pdbs(const char *path, struct kpdbset *b, struct kpod *pods, size_t np, struct diag *d)
{
	size_t i;

	if (kjson_load(&b->j, path, "PodDisruptionBudget", "PodDisruptionBudget list", d) ||
	    kpdbs_read(&b->j, &b->v, &b->n, d))
		return -1;
	for (i = 0; i < np; i++)
		if ((pods[i].pdb = kpdb_of(&b->j, b->v, b->n, &pods[i], d)) == -2)
			return -1;
	return 0;
}

int kubectl_import(const char *nodes_path, const char *pods_path, const char *pdb_path, const struct catalog *cat,
		   struct kubectl_out *out, struct diag *d)
{
	struct kpdbset pdb;
	struct kjson jn, jp;
	struct knode *nodes = NULL;
	struct kpod *pods = NULL;
	size_t nn = 0, np = 0;
	struct sb inv, wl, wa;
	int rc = -1, kmax;

	memset(out, 0, sizeof(*out));
	out->nodes_file = nodes_path;
	out->pods_file = pods_path;
	memset(&jp, 0, sizeof(jp));
	memset(&pdb, 0, sizeof(pdb));
	sb_init(&inv);
	sb_init(&wl);
	sb_init(&wa);
	if (kjson_load(&jn, nodes_path, "Node", "node list", d) ||
	    knodes_read(&jn, cat, &nodes, &nn, &out->cpu_only, d))
		goto out;
	if (pods_path) {
		struct kpods kp;
		if (kjson_load(&jp, pods_path, "Pod", "pod list", d) || kpods_read(&jp, nodes, nn, cat, &kp, d))
			goto out;
		pods = kp.v;
		np = kp.n;
		out->pods_done = kp.done;
		out->pods = kp.no_gpu;
		out->rules_dropped = kp.dropped;
		if (pdb_path && match_pdbs(pdb_path, &pdb, pods, np, d))
			goto out;
		out->pdbs = (long)pdb.n;
	}
	group_nodes(&inv, nodes, nn, out);
	out->inventory = sb_detach(&inv);
	if (pods_path) {
		out->pods += (long)np + out->pods_done;	/* pods without GPUs were counted in out->pods */
		kmax = write_workloads(&wl, &wa, pods, np, pdb.v, out);
		out->workloads = sb_detach(&wl);
		out->workloads_asis = sb_detach(&wa);
		out->scenario = scenario_text("planned", "workloads.csv", kmax,
					      "The cluster's GPU pods planned afresh on its nodes");
		out->scenario_asis = scenario_text("as-is", "workloads-as-is.csv", kmax,
						   "The cluster as it runs today: each workload in its current mode");
	}
	rc = 0;
out:
	sb_release(&inv);
	sb_release(&wl);
	sb_release(&wa);
	knodes_free(nodes, nn);
	kpods_free(pods, np);
	kjson_release(&jn);
	kjson_release(&jp);
	free(pdb.v);
	kjson_release(&pdb.j);
	if (rc)
		kubectl_out_release(out);
	return rc;
}

void kubectl_out_release(struct kubectl_out *out)
{
	free(out->inventory);
	free(out->workloads);
	free(out->workloads_asis);
	free(out->scenario);
	free(out->scenario_asis);
	origins_release(&out->origins);
	out->inventory = out->workloads = out->workloads_asis = out->scenario = out->scenario_asis = NULL;
}
