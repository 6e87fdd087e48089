/*
 * openb.c - the Alibaba openb trace as a scenario (see openb.h).
 *
 * Both files are read with csvdoc (positions in every message), grouped
 * with a sort on the fields that matter, and written as text in the input
 * formats of docs/formats.md.  Rows come out sorted, so the output does
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

struct onode {
	const char *model;	/* points into the csvdoc */
	long long gpus, cpu_milli, mem_mib;
	long line;		/* its row in the node list (not compared) */
};

struct opod {
	long long gpus, milli, cpu_milli, mem_mib;
	const char *spec;	/* "" when any */
	const char *qos;
	long line;		/* its row in the pod list (not compared) */
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

enum { N_SN, N_CPU, N_MEM, N_GPU, N_MODEL, N_NCOLS };
static const struct csvcol node_cols[] = { { "sn", 1 }, { "cpu_milli", 1 }, { "memory_mib", 1 }, { "gpu", 1 },
					   { "model", 0 }, { NULL, 0 } };

static int read_nodes(struct csvdoc *doc, const char *path, struct onode **out, size_t *n, struct diag *d)
{
	int idx[N_NCOLS];
	size_t i;

	if (csvdoc_load(doc, path, d) || csvdoc_bind(doc, node_cols, idx, d))
		return -1;
	*out = xcalloc(doc->nrows + 1, sizeof(**out));
	*n = 0;
	for (i = 0; i < doc->nrows; i++) {
		const struct csvread rd = { doc, &doc->rows[i], node_cols, idx, d };
		struct onode nd;
		const char *model = "";
		if (csvdoc_interrupted(doc, i, d))
			return -1;
		if (csvread_int(&rd, N_CPU, 1, 1, 100000000, &nd.cpu_milli) ||
		    csvread_int(&rd, N_MEM, 1, 1, 1LL << 40, &nd.mem_mib) ||
		    csvread_int(&rd, N_GPU, 1, 0, 64, &nd.gpus) || csvread_str(&rd, N_MODEL, 0, &model) < 0)
			return -1;
		if (!nd.gpus)
			continue; /* a CPU-only node: nothing to plan on it */
		if (!model_ok(model))
			return csvread_error(&rd, N_MODEL, "column 'model': '%s' is not a GPU model name", model);
		nd.model = model;
		nd.line = doc->rows[i].line;
		(*out)[(*n)++] = nd;
	}
	if (!*n)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "no node with GPUs");
	return 0;
}

enum {
	P_NAME, P_CPU, P_MEM, P_NGPU, P_MILLI, P_SPEC, P_QOS, P_PHASE, P_CREATED, P_DELETED, P_SCHEDULED,
	P_NCOLS
};
static const struct csvcol pod_cols[] = { { "name", 1 },	   { "cpu_milli", 1 },	   { "memory_mib", 1 },
					  { "num_gpu", 1 },	   { "gpu_milli", 1 },	   { "gpu_spec", 0 },
					  { "qos", 0 },		   { "pod_phase", 0 },	   { "creation_time", 0 },
					  { "deletion_time", 0 }, { "scheduled_time", 0 }, { NULL, 0 } };

/* gpu_spec, a '|'-separated list of models, and qos (empty: "default") of a GPU pod. */
static int read_pod_names(const struct csvread *rd, struct opod *pd)
{
	const char *spec = "", *qos = "";

	if (csvread_str(rd, P_SPEC, 0, &spec) < 0 || csvread_str(rd, P_QOS, 0, &qos) < 0)
		return -1;
	if (*spec) {
		char *dup = xstrdup(spec), *p = dup, *bar;
		do {
			bar = strchr(p, '|');
			if (bar)
				*bar = '\0';
			if (!model_ok(p)) {
				free(dup);
				return csvread_error(rd, P_SPEC, "column 'gpu_spec': '%s' is not a list of GPU models",
						     spec);
			}
			if (bar)
				p = bar + 1;
		} while (bar);
		free(dup);
	}
	if (!*qos)
		qos = "default";
	else if (!model_ok(qos))
		return csvread_error(rd, P_QOS, "column 'qos': '%s' is not a plain name", qos);
	pd->spec = spec;
	pd->qos = qos;
	return 0;
}

/* One pod row; 1 for a CPU-only pod (skipped: no GPU to plan). */
static int read_pod(const struct csvread *rd, struct opod *pd)
{
	if (csvread_int(rd, P_CPU, 1, 0, 100000000, &pd->cpu_milli) ||
	    csvread_int(rd, P_MEM, 1, 0, 1LL << 40, &pd->mem_mib) || csvread_int(rd, P_NGPU, 1, 0, 64, &pd->gpus) ||
	    csvread_int(rd, P_MILLI, 1, 0, 1000, &pd->milli))
		return -1;
	if (!pd->gpus)
		return 1;
	if (pd->gpus == 1 && !pd->milli)
		return csvread_error(rd, P_MILLI, "column 'gpu_milli': 0 with num_gpu 1 (want 1..1000)");
	if (pd->gpus > 1 && pd->milli != 1000 && pd->milli != 0)
		return csvread_error(rd, P_MILLI,
				     "column 'gpu_milli': %lld with num_gpu %lld (a share of a GPU needs num_gpu 1)",
				     pd->milli, pd->gpus);
	if (pd->gpus > 1)
		pd->milli = 1000;
	return read_pod_names(rd, pd);
}

static int read_pods(struct csvdoc *doc, const char *path, struct opod **out, size_t *n, long *all, struct diag *d)
{
	int idx[P_NCOLS];
	size_t i;

	if (csvdoc_load(doc, path, d) || csvdoc_bind(doc, pod_cols, idx, d))
		return -1;
	*out = xcalloc(doc->nrows + 1, sizeof(**out));
	*n = 0;
	*all = (long)doc->nrows;
	for (i = 0; i < doc->nrows; i++) {
		const struct csvread rd = { doc, &doc->rows[i], pod_cols, idx, d };
		struct opod pd;
		int rc = csvdoc_interrupted(doc, i, d) ? -1 : read_pod(&rd, &pd);
		if (rc < 0)
			return -1;
		pd.line = doc->rows[i].line;
		if (!rc)
			(*out)[(*n)++] = pd;
	}
	if (!*n)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "no pod asks for a GPU");
	return 0;
}

/* gpus-openb.yaml: every model the catalog does not know, once (nodes sorted by model). */
static void write_gpu_types(struct sb *gy, const struct onode *nodes, size_t nn, const struct catalog *cat,
			    struct openb_out *out)
{
	const char *from = out->nodes_file;
	size_t i;

	sb_adds(gy, "# GPU types of the Alibaba openb trace that the bundled catalog does not have\n"
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
		origins_add(&out->origins, "gpus-openb.yaml", gy, from, nodes[i].line);
		sb_addf(gy, "  - id: %s\n", m);
		origins_add(&out->origins, "gpus-openb.yaml", gy, from, nodes[i].line);
		sb_addf(gy, "    memory_mib: %ld   # %s\n", mib, why);
		out->user_types++;
	}
	if (!out->user_types)
		sb_adds(gy, "  []\n");
}

/* inventory.csv: identical nodes (sorted) are one class. */
static void write_inventory(struct sb *inv, const struct onode *nodes, size_t nn, const struct catalog *cat,
			    struct openb_out *out)
{
	size_t i, j;

	sb_adds(inv, "# Alibaba openb GPU nodes (gpuplan import openb): identical nodes are one class.\n"
		     "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,"
		     "amortization_years,hourly_usd,base_power_w\n");
	for (i = 0; i < nn; i = j) {
		long cnt = 0, line = nodes[i].line;
		for (j = i; j < nn && !onode_cmp(&nodes[i], &nodes[j]); j++, cnt++)
			if (nodes[j].line < line)
				line = nodes[j].line;
		origins_add(&out->origins, "inventory.csv", inv, out->nodes_file, line);
		char *name = xasprintf("%s-%lldgpu-%lldc-%lldg", nodes[i].model, nodes[i].gpus,
				       nodes[i].cpu_milli / 1000, nodes[i].mem_mib / 1024);
		sb_add_csv(inv, name);
		free(name);
		sb_addf(inv, ",%ld,", cnt);
		sb_add_csv(inv, type_id(cat, nodes[i].model));
		sb_addf(inv, ",%lld,baremetal,openb,", nodes[i].gpus);
		add_num(inv, (double)nodes[i].cpu_milli / 1000.0, 3);
		sb_adds(inv, ",");
		add_num(inv, (double)nodes[i].mem_mib / 1024.0, 6);
		sb_adds(inv, ",owned,,,,\n");
		out->classes++;
		out->nodes += cnt;
		out->gpus_total += cnt * nodes[i].gpus;
	}
}

/* One workload row of cnt identical pods q. */
static void write_workload(struct sb *wl, const struct opod *q, long cnt, const struct catalog *cat, int no)
{
	sb_addf(wl, "openb-%03d,", no);
	sb_add_csv(wl, q->qos);
	sb_addf(wl, ",%ld,", cnt);
	if (q->milli == 1000) {
		sb_addf(wl, "%lld,,,exclusive,false,", q->gpus);
	} else {
		sb_adds(wl, "0,0.0009765625,");
		add_num(wl, (double)q->milli / 1000.0, 3);
		sb_adds(wl, ",none,false,");
	}
	add_num(wl, (double)q->cpu_milli / 1000.0, 3);
	sb_adds(wl, ",");
	add_num(wl, (double)q->mem_mib / 1024.0, 6);
	sb_adds(wl, ",");
	if (*q->spec) {
		char *dup = xstrdup(q->spec), *p = dup, *bar;
		struct sb types;
		sb_init(&types);
		do {
			bar = strchr(p, '|');
			if (bar)
				*bar = '\0';
			sb_addf(&types, "%s%s", types.len ? "|" : "", type_id(cat, p));
			if (bar)
				p = bar + 1;
		} while (bar);
		sb_add_csv(wl, types.buf);
		sb_release(&types);
		free(dup);
	}
	sb_addf(wl, ",%s,,false\n", q->milli == 1000 ? "passthrough" : "passthrough|timeslice");
}

/*
 * workloads.csv: identical pods (sorted) are one workload.  Returns the
 * most pods that share one GPU (at least 2, at most 48), for the
 * scenario's time-slicing limit.
 */
static long write_workloads(struct sb *wl, const struct opod *pods, size_t np, const struct catalog *cat,
			    struct openb_out *out)
{
	long kmax = 2;
	size_t i, j;

	sb_adds(wl, "# Alibaba openb pods with GPUs (gpuplan import openb): identical pods are one workload;\n"
		    "# one priority; the scenario weighs an unplaced pod by its GPUs (unplaced_weight: gpus).\n"
		    "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,"
		    "sites,needs_nvaie\n");
	for (i = 0; i < np; i = j) {
		const struct opod *q = &pods[i];
		long cnt = 0, line = q->line;
		double ask = q->gpus > 1 || q->milli == 1000 ? (double)q->gpus : (double)q->milli / 1000.0;
		for (j = i; j < np && !opod_cmp(&pods[i], &pods[j]); j++, cnt++)
			if (pods[j].line < line)
				line = pods[j].line;
		origins_add(&out->origins, "workloads.csv", wl, out->pods_file, line);
		out->nworkloads++;
		out->pods_gpu += cnt;
		out->gpu_demand += ask * (double)cnt;
		if (q->milli != 1000 && 1000 / q->milli > kmax)
			kmax = 1000 / q->milli;
		write_workload(wl, q, cnt, cat, out->nworkloads);
	}
	return kmax > 48 ? 48 : kmax;
}

static void write_scenario(struct sb *sc, long kmax)
{
	sb_adds(sc, "# The Alibaba openb GPU trace (Weng et al., USENIX ATC '23), written by gpuplan import openb.\n"
		    "# Every GPU pod is offered at once; the nodes are owned, so the plan maximises what it places.\n"
		    "schema: gpuplan-scenario/1\nname: openb\n");
	sb_adds(sc, "gpu_types: [gpus-openb.yaml]\ninventory: inventory.csv\nworkloads: workloads.csv\n"
		    "horizon_years: 1\nsolver: {time_limit_s: 60, gap_pct: 0.01}\nunplaced_weight: gpus\n");
	/* pods ask any share of a GPU and the trace's scheduler packs mixed shares: time-slice with shares */
	sb_addf(sc, "sharing: {timeslice_max_replicas: %ld, mps_max_clients: 2, timeslice_shares: true}\n", kmax);
}

int openb_import(const char *nodes_path, const char *pods_path, const struct catalog *cat,
		 struct openb_out *out, struct diag *d)
{
	struct csvdoc nd = CSVDOC_INIT, pd = CSVDOC_INIT;
	struct onode *nodes = NULL;
	struct opod *pods = NULL;
	size_t nn = 0, np = 0;
	struct sb inv, wl, gy, sc;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->nodes_file = nodes_path;
	out->pods_file = pods_path;
	sb_init(&inv);
	sb_init(&wl);
	sb_init(&gy);
	sb_init(&sc);
	if (read_nodes(&nd, nodes_path, &nodes, &nn, d) || read_pods(&pd, pods_path, &pods, &np, &out->pods, d))
		goto out;
	qsort(nodes, nn, sizeof(*nodes), onode_cmp);
	qsort(pods, np, sizeof(*pods), opod_cmp);
	write_gpu_types(&gy, nodes, nn, cat, out);
	write_inventory(&inv, nodes, nn, cat, out);
	write_scenario(&sc, write_workloads(&wl, pods, np, cat, out));
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
	origins_release(&out->origins);
	out->inventory = out->workloads = out->gpus = out->scenario = NULL;
}
