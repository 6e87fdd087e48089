/*
 * openb.c - the Alibaba openb trace as a scenario (see openb.h).
 *
 * Both files are read with csvdoc (positions in every message), grouped
 * with a sort on the fields that matter, and written as text in the input
 * formats of README "Inputs".  Rows come out sorted, so the output does
 * not depend on the order of the trace's rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "openb.h"
#include "util.h"
#include "banned.h"

/* Priority per whole GPU asked: the penalty of an unplaced pod grows with its GPUs. */
#define OPENB_PRIORITY_PER_GPU 20

struct onode {
	const char *model;	/* points into the csvdoc */
	long long gpus, cpu_milli, mem_mib;
};

struct opod {
	long long gpus, milli, cpu_milli, mem_mib;
	const char *spec;	/* "" when any */
	const char *qos;
};

static int onode_cmp(const void *a, const void *b)
{
	const struct onode *x = a, *y = b;
	int c = strcmp(x->model, y->model);
	if (c)
		return c;
	if (x->gpus != y->gpus)
		return x->gpus < y->gpus ? -1 : 1;
	if (x->cpu_milli != y->cpu_milli)
		return x->cpu_milli < y->cpu_milli ? -1 : 1;
	return (x->mem_mib > y->mem_mib) - (x->mem_mib < y->mem_mib);
}

static int opod_cmp(const void *a, const void *b)
{
	const struct opod *x = a, *y = b;
	int c;
	if (x->gpus != y->gpus)
		return x->gpus > y->gpus ? -1 : 1;
	if (x->milli != y->milli)
		return x->milli > y->milli ? -1 : 1;
	if (x->cpu_milli != y->cpu_milli)
		return x->cpu_milli > y->cpu_milli ? -1 : 1;
	if (x->mem_mib != y->mem_mib)
		return x->mem_mib > y->mem_mib ? -1 : 1;
	c = strcmp(x->spec, y->spec);
	if (c)
		return c;
	return strcmp(x->qos, y->qos);
}

static void add_num(struct sb *sb, double v, int decimals)
{
	char buf[64];
	sb_adds(sb, fmt_num_short(buf, sizeof(buf), v, decimals));
}

/* The id a trace model has in the scenario: the catalog's id, else the model itself (a user type). */
static const char *type_id(const struct catalog *cat, const char *model)
{
	const struct gpu_type *g = catalog_find(cat, model);
	return g ? g->id : model;
}

/* A model name must be usable as a GPU type id and a list entry. */
static int model_ok(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_' || *s == '.'))
			return 0;
	return 1;
}

static int read_nodes(struct csvdoc *doc, const char *path, struct onode **out, size_t *n, struct diag *d)
{
	static const struct csvcol cols[] = { { "sn", 1 }, { "cpu_milli", 1 }, { "memory_mib", 1 }, { "gpu", 1 },
					      { "model", 0 }, { NULL, 0 } };
	int idx[5];
	size_t i;

	if (csvdoc_load(doc, path, d) || csvdoc_bind(doc, cols, idx, d))
		return -1;
	*out = xcalloc(doc->nrows + 1, sizeof(**out));
	*n = 0;
	for (i = 0; i < doc->nrows; i++) {
		const struct csvrow *r = &doc->rows[i];
		struct onode nd;
		const char *model = "";
		if (csvdoc_int(doc, r, idx[1], "cpu_milli", 1, 1, 100000000, &nd.cpu_milli, d) ||
		    csvdoc_int(doc, r, idx[2], "memory_mib", 1, 1, 1LL << 40, &nd.mem_mib, d) ||
		    csvdoc_int(doc, r, idx[3], "gpu", 1, 0, 64, &nd.gpus, d) ||
		    csvdoc_str(doc, r, idx[4], "model", 0, &model, d) < 0)
			return -1;
		if (!nd.gpus)
			continue; /* a CPU-only node: nothing to plan on it */
		if (!model_ok(model))
			return csvdoc_error(doc, r, idx[4], d, "column 'model': '%s' is not a GPU model name", model);
		nd.model = model;
		(*out)[(*n)++] = nd;
	}
	if (!*n)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "no node with GPUs");
	return 0;
}

static int read_pods(struct csvdoc *doc, const char *path, struct opod **out, size_t *n, long *all, struct diag *d)
{
	static const struct csvcol cols[] = { { "name", 1 },	     { "cpu_milli", 1 },     { "memory_mib", 1 },
					      { "num_gpu", 1 },	     { "gpu_milli", 1 },     { "gpu_spec", 0 },
					      { "qos", 0 },	     { "pod_phase", 0 },     { "creation_time", 0 },
					      { "deletion_time", 0 }, { "scheduled_time", 0 }, { NULL, 0 } };
	int idx[11];
	size_t i;

	if (csvdoc_load(doc, path, d) || csvdoc_bind(doc, cols, idx, d))
		return -1;
	*out = xcalloc(doc->nrows + 1, sizeof(**out));
	*n = 0;
	*all = (long)doc->nrows;
	for (i = 0; i < doc->nrows; i++) {
		const struct csvrow *r = &doc->rows[i];
		struct opod pd;
		const char *spec = "", *qos = "";
		if (csvdoc_int(doc, r, idx[1], "cpu_milli", 1, 0, 100000000, &pd.cpu_milli, d) ||
		    csvdoc_int(doc, r, idx[2], "memory_mib", 1, 0, 1LL << 40, &pd.mem_mib, d) ||
		    csvdoc_int(doc, r, idx[3], "num_gpu", 1, 0, 64, &pd.gpus, d) ||
		    csvdoc_int(doc, r, idx[4], "gpu_milli", 1, 0, 1000, &pd.milli, d) ||
		    csvdoc_str(doc, r, idx[5], "gpu_spec", 0, &spec, d) < 0 ||
		    csvdoc_str(doc, r, idx[6], "qos", 0, &qos, d) < 0)
			return -1;
		if (!pd.gpus)
			continue; /* CPU-only pod: no GPU to plan */
		if (pd.gpus == 1 && !pd.milli)
			return csvdoc_error(doc, r, idx[4], d, "column 'gpu_milli': 0 with num_gpu 1 (want 1..1000)");
		if (pd.gpus > 1 && pd.milli != 1000 && pd.milli != 0)
			return csvdoc_error(doc, r, idx[4], d,
					    "column 'gpu_milli': %lld with num_gpu %lld (a share of a GPU needs num_gpu 1)",
					    pd.milli, pd.gpus);
		if (pd.gpus > 1)
			pd.milli = 1000;
		if (*spec) {
			char *dup = xstrdup(spec), *p = dup, *bar;
			do {
				bar = strchr(p, '|');
				if (bar)
					*bar = '\0';
				if (!model_ok(p)) {
					free(dup);
					return csvdoc_error(doc, r, idx[5], d, "column 'gpu_spec': '%s' is not a list of GPU models",
							    spec);
				}
				p = bar + 1;
			} while (bar);
			free(dup);
		}
		if (!*qos)
			qos = "default";
		else if (!model_ok(qos))
			return csvdoc_error(doc, r, idx[6], d, "column 'qos': '%s' is not a plain name", qos);
		pd.spec = spec;
		pd.qos = qos;
		(*out)[(*n)++] = pd;
	}
	if (!*n)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "no pod asks for a GPU");
	return 0;
}

int openb_import(const char *nodes_path, const char *pods_path, const struct catalog *cat,
		 struct openb_out *out, struct diag *d)
{
	struct csvdoc nd = CSVDOC_INIT, pd = CSVDOC_INIT;
	struct onode *nodes = NULL;
	struct opod *pods = NULL;
	size_t nn = 0, np = 0, i, j;
	struct sb inv, wl, gy, sc;
	long kmax = 2;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	sb_init(&inv);
	sb_init(&wl);
	sb_init(&gy);
	sb_init(&sc);
	if (read_nodes(&nd, nodes_path, &nodes, &nn, d) || read_pods(&pd, pods_path, &pods, &np, &out->pods, d))
		goto out;
	qsort(nodes, nn, sizeof(*nodes), onode_cmp);
	qsort(pods, np, sizeof(*pods), opod_cmp);

	/* user GPU types: every model the catalog does not know, once */
	sb_adds(&gy, "# GPU types of the Alibaba openb trace that the bundled catalog does not have\n"
		     "# (written by gpuplan import openb).  No MIG and no vGPU table: only passthrough and\n"
		     "# time-slicing are planned on them.  The trace gives no GPU memory and its pods ask\n"
		     "# for none, so memory_mib is the size in the model's name where it has one, else a\n"
		     "# placeholder that never binds (the imported pods ask for 1 MiB).\n"
		     "schema: gpuplan-gpus/1\ngpus:\n");
	for (i = 0; i < nn; i++) {
		const char *m = nodes[i].model;
		long mib = 16384;
		const char *why = "placeholder: no memory in the trace";
		if (catalog_find(cat, m) || (i > 0 && !strcmp(nodes[i - 1].model, m)))
			continue;
		if (strstr(m, "M32")) {
			mib = 32768;
			why = "nominal: 32 GB from the model name";
		} else if (strstr(m, "M16")) {
			mib = 16384;
			why = "nominal: 16 GB from the model name";
		}
		sb_addf(&gy, "  - id: %s\n    memory_mib: %ld   # %s\n", m, mib, why);
		out->user_types++;
	}
	if (!out->user_types)
		sb_adds(&gy, "  []\n");

	/* inventory: identical nodes are one class */
	sb_adds(&inv, "# Alibaba openb GPU nodes (gpuplan import openb): identical nodes are one class.\n"
		      "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,"
		      "amortization_years,hourly_usd,base_power_w\n");
	for (i = 0; i < nn; i = j) {
		long cnt = 0;
		for (j = i; j < nn && !onode_cmp(&nodes[i], &nodes[j]); j++)
			cnt++;
		sb_addf(&inv, "%s-%lldgpu-%lldc-%lldg,%ld,%s,%lld,baremetal,openb,", nodes[i].model, nodes[i].gpus,
			nodes[i].cpu_milli / 1000, nodes[i].mem_mib / 1024, cnt, type_id(cat, nodes[i].model),
			nodes[i].gpus);
		add_num(&inv, (double)nodes[i].cpu_milli / 1000.0, 3);
		sb_adds(&inv, ",");
		add_num(&inv, (double)nodes[i].mem_mib / 1024.0, 6);
		sb_adds(&inv, ",owned,,,,\n");
		out->classes++;
		out->nodes += cnt;
		out->gpus_total += cnt * nodes[i].gpus;
	}

	/* workloads: identical pods are one workload */
	sb_adds(&wl, "# Alibaba openb pods with GPUs (gpuplan import openb): identical pods are one workload;\n"
		     "# priority grows with the GPUs asked, so the plan maximises the GPU share it places.\n"
		     "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,"
		     "sites,needs_nvaie,priority\n");
	for (i = 0; i < np; i = j) {
		const struct opod *q = &pods[i];
		long cnt = 0, prio;
		double ask = q->gpus > 1 || q->milli == 1000 ? (double)q->gpus : (double)q->milli / 1000.0;
		for (j = i; j < np && !opod_cmp(&pods[i], &pods[j]); j++)
			cnt++;
		out->nworkloads++;
		out->pods_gpu += cnt;
		out->gpu_demand += ask * (double)cnt;
		prio = lround(ask * OPENB_PRIORITY_PER_GPU);
		if (prio < 1)
			prio = 1;
		if (prio > 1000)
			prio = 1000;
		sb_addf(&wl, "openb-%03d,%s,%ld,", out->nworkloads, q->qos, cnt);
		if (q->milli == 1000) {
			sb_addf(&wl, "%lld,,,exclusive,false,", q->gpus);
		} else {
			long k = 1000 / q->milli;
			if (k > kmax)
				kmax = k;
			sb_adds(&wl, "0,0.0009765625,");
			add_num(&wl, (double)q->milli / 1000.0, 3);
			sb_adds(&wl, ",none,false,");
		}
		add_num(&wl, (double)q->cpu_milli / 1000.0, 3);
		sb_adds(&wl, ",");
		add_num(&wl, (double)q->mem_mib / 1024.0, 6);
		sb_adds(&wl, ",");
		if (*q->spec) {
			char *dup = xstrdup(q->spec), *p = dup, *bar;
			int first = 1;
			do {
				bar = strchr(p, '|');
				if (bar)
					*bar = '\0';
				sb_addf(&wl, "%s%s", first ? "" : "|", type_id(cat, p));
				first = 0;
				p = bar + 1;
			} while (bar);
			free(dup);
		}
		sb_addf(&wl, ",%s,,false,%ld\n", q->milli == 1000 ? "passthrough" : "passthrough|timeslice", prio);
	}
	if (kmax > 48)
		kmax = 48;

	sb_adds(&sc, "# The Alibaba openb GPU trace (Weng et al., USENIX ATC '23), written by gpuplan import openb.\n"
		     "# Every GPU pod is offered at once; the nodes are owned, so the plan maximises what it places.\n"
		     "schema: gpuplan-scenario/1\nname: openb\n");
	sb_adds(&sc, "gpu_types: [gpus-openb.yaml]\ninventory: inventory.csv\nworkloads: workloads.csv\n"
		     "horizon_years: 1\nsolver: {time_limit_s: 60, mip_gap: 0.0001}\n");
	/* pods ask any share of a GPU and the trace's scheduler packs mixed shares: time-slice with shares */
	sb_addf(&sc, "sharing: {timeslice_max_replicas: %ld, mps_max_clients: 2, timeslice_shares: true}\n", kmax);
	out->inventory = sb_detach(&inv);
	out->workloads = sb_detach(&wl);
	out->gpus = sb_detach(&gy);
	out->scenario = sb_detach(&sc);
	rc = 0;
out:
	sb_release(&inv);
	sb_release(&wl);
	sb_release(&gy);
	sb_release(&sc);
	free(nodes);
	free(pods);
	csvdoc_release(&nd);
	csvdoc_release(&pd);
	if (rc)
		openb_out_release(out);
	return rc;
}

void openb_out_release(struct openb_out *out)
{
	free(out->inventory);
	free(out->workloads);
	free(out->gpus);
	free(out->scenario);
	out->inventory = out->workloads = out->gpus = out->scenario = NULL;
}
