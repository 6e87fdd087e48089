/*
 * report.c - CSV and JSON reports of a plan, written all or nothing.
 */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util.h"
#include "banned.h"

/* ================= ordering ================= */

static const struct cplan *ord_cp;

static int node_cmp(const void *a, const void *b)
{
	const struct cnode *x = &ord_cp->nodes[*(const size_t *)a], *y = &ord_cp->nodes[*(const size_t *)b];
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/* Slots in (node order, gpu, creation) order. */
static int slot_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct cslot *x = &ord_cp->slots[i], *y = &ord_cp->slots[j];
	if (x->node != y->node) {
		size_t xn = (size_t)x->node, yn = (size_t)y->node;
		int c = node_cmp(&xn, &yn);
		if (c)
			return c;
	}
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	return (i > j) - (i < j);
}

static int placement_cmp(const void *a, const void *b)
{
	const struct cslot *x = &ord_cp->slots[*(const size_t *)a], *y = &ord_cp->slots[*(const size_t *)b];
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	return (x->replica > y->replica) - (x->replica < y->replica);
}

/* ================= numbers and CSV ================= */

static const char *money(char *buf, size_t n, double v)
{
	return fmt_fixed(buf, n, round(v * 100.0) / 100.0, 2);
}

static double round_to(double v, int decimals)
{
	double f = pow(10, decimals);
	double r = round(v * f) / f;
	return r == 0 ? 0 : r;
}

static void csv_field(struct sb *sb, const char *s)
{
	if (strpbrk(s, ",\"\n\r")) {
		sb_addn(sb, "\"", 1);
		for (; *s; s++) {
			if (*s == '"')
				sb_addn(sb, "\"", 1);
			sb_addn(sb, s, 1);
		}
		sb_addn(sb, "\"", 1);
	} else {
		sb_adds(sb, s);
	}
}

/* ================= stats ================= */

static void replica_ask(const struct workload *w, const struct gpu_type *g, double *mem, double *comp)
{
	if (w->gpus >= 1) {
		*mem = (double)w->gpus * (double)g->memory_mib;
		*comp = w->gpus;
	} else {
		*mem = w->gpu_mem_gib * 1024.0;
		*comp = w->compute;
	}
}

void report_stats(const struct cplan *cp, struct report_stats *st)
{
	const struct problem *p = cp->p;
	double mem = 0, comp = 0, cap_mem = 0, cap_gpus = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < cp->nnodes; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct node_class *nc = p->classes[n->k].nc;
		st->nodes_by_mode[n->mode]++;
		st->gpus_by_mode[n->mode] += nc->gpus_per_node;
		cap_mem += (double)nc->gpus_per_node * (double)nc->gpu->memory_mib;
		cap_gpus += nc->gpus_per_node;
	}
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		double m, c;
		if (s->d < 0)
			continue;
		replica_ask(p->demands[s->d].w, p->classes[cp->nodes[s->node].k].nc->gpu, &m, &c);
		mem += m;
		comp += c;
	}
	st->mem_util = cap_mem > 0 ? mem / cap_mem : 0;
	st->compute_util = cap_gpus > 0 ? comp / cap_gpus : 0;
}

/* The label of a slot within its GPU: "3g.40gb@4", "H100XM-20C#2", "ts4#1", "gpu4@0". */
static char *slot_label(const struct cplan *cp, const struct cslot *s, int index_in_gpu)
{
	const struct slot_type *st = &cp->p->classes[cp->nodes[s->node].k].slot_types[s->type];
	if (s->mig_start >= 0)
		return xasprintf("%s@%d", st->name, s->mig_start);
	if (st->mode == MODE_PASSTHROUGH)
		return s->ngpus > 1 ? xasprintf("gpus %d-%d", s->gpu, s->gpu + s->ngpus - 1) : xasprintf("gpu %d", s->gpu);
	return xasprintf("%s#%d", st->name, index_in_gpu);
}

/*
 * The slots in (node, GPU, creation) order, and each slot's index within
 * its GPU for labels such as "ts4#2"; computed once for all reports.
 */
struct slot_order {
	size_t *sorted;		/* slot ids */
	int *index;		/* [slot id]: position within its GPU */
};

static void slot_order_init(struct slot_order *so, const struct cplan *cp)
{
	size_t i;
	so->sorted = xmalloc((cp->nslots + 1) * sizeof(*so->sorted));
	so->index = xcalloc(cp->nslots + 1, sizeof(*so->index));
	for (i = 0; i < cp->nslots; i++)
		so->sorted[i] = i;
	ord_cp = cp;
	qsort(so->sorted, cp->nslots, sizeof(*so->sorted), slot_cmp);
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[so->sorted[i]];
		const struct cslot *prev = i ? &cp->slots[so->sorted[i - 1]] : NULL;
		so->index[so->sorted[i]] =
			prev && prev->node == s->node && prev->gpu == s->gpu ? so->index[so->sorted[i - 1]] + 1 : 0;
	}
}

static void slot_order_release(struct slot_order *so)
{
	free(so->sorted);
	free(so->index);
}

/* ================= the documents ================= */

struct docs {
	struct sb summary, nodes, gpus, placements, unplaced;
	cJSON *json;
};

static void kv(struct sb *sb, cJSON *obj, const char *key, const char *val)
{
	sb_adds(sb, key);
	sb_addn(sb, ",", 1);
	csv_field(sb, val);
	sb_addn(sb, "\n", 1);
	cJSON_AddStringToObject(obj, key, val);
}

static void kvn(struct sb *sb, cJSON *obj, const char *key, double v, int decimals)
{
	char buf[64];
	sb_addf(sb, "%s,%s\n", key, fmt_fixed(buf, sizeof(buf), v, decimals));
	cJSON_AddNumberToObject(obj, key, round_to(v, decimals));
}

static void build_summary(struct docs *dc, const struct cplan *cp, const struct report_run *run)
{
	const struct problem *p = cp->p;
	struct cplan_cost cost;
	struct report_stats st;
	cJSON *s = cJSON_AddObjectToObject(dc->json, "summary");
	cJSON *cats, *mix;
	int m;

	cplan_cost(cp, &cost);
	report_stats(cp, &st);
	sb_adds(&dc->summary, "metric,value\n");
	kv(&dc->summary, s, "scenario", p->sc->name);
	kv(&dc->summary, s, "status", ilp_status_name(run->status));
	kv(&dc->summary, s, "plan_source", run->plan_source);
	kvn(&dc->summary, s, "horizon_years", p->horizon_years, 2);
	kvn(&dc->summary, s, "cost_total_usd", cost.total, 2);
	kvn(&dc->summary, s, "cost_hardware_usd", cost.hardware, 2);
	kvn(&dc->summary, s, "cost_energy_usd", cost.energy, 2);
	kvn(&dc->summary, s, "cost_license_usd", cost.license, 2);
	kvn(&dc->summary, s, "objective", run->objective, 2);
	kvn(&dc->summary, s, "lower_bound", run->bound, 2);
	kvn(&dc->summary, s, "lp_bound", run->lp_bound, 2);
	kvn(&dc->summary, s, "gap", run->gap, 6);
	kvn(&dc->summary, s, "greedy_objective", run->greedy_objective, 2);
	kvn(&dc->summary, s, "license_usd_per_gpu_year", run->license_per_gpu_year, 2);
	kv(&dc->summary, s, "license_price_source", run->license_source ? run->license_source : "scenario");
	kvn(&dc->summary, s, "nodes_used", (double)cost.nodes, 0);
	kvn(&dc->summary, s, "gpus_in_used_nodes", (double)cost.gpus, 0);
	kvn(&dc->summary, s, "gpus_active", (double)cost.gpus_active, 0);
	kvn(&dc->summary, s, "gpus_licensed", (double)cost.gpus_licensed, 0);
	kvn(&dc->summary, s, "replicas_placed", (double)cost.placed, 0);
	kvn(&dc->summary, s, "replicas_unplaced", (double)cost.unplaced, 0);
	kvn(&dc->summary, s, "memory_utilisation", st.mem_util, 4);
	kvn(&dc->summary, s, "compute_utilisation", st.compute_util, 4);
	for (m = 0; m < MODE_COUNT; m++) {
		char key[64];
		snprintf(key, sizeof(key), "nodes_%s", mode_name((enum gpu_mode)m));
		kvn(&dc->summary, s, key, (double)st.nodes_by_mode[m], 0);
	}
	for (m = 0; m < MODE_COUNT; m++) {
		char key[64];
		snprintf(key, sizeof(key), "gpus_%s", mode_name((enum gpu_mode)m));
		kvn(&dc->summary, s, key, (double)st.gpus_by_mode[m], 0);
	}
	kvn(&dc->summary, s, "model_rows", run->rows, 0);
	kvn(&dc->summary, s, "model_columns", run->cols, 0);
	kvn(&dc->summary, s, "model_integer_columns", run->int_cols, 0);
	cats = cJSON_AddObjectToObject(s, "modes");
	for (m = 0; m < MODE_COUNT; m++) {
		mix = cJSON_AddObjectToObject(cats, mode_name((enum gpu_mode)m));
		cJSON_AddNumberToObject(mix, "nodes", (double)st.nodes_by_mode[m]);
		cJSON_AddNumberToObject(mix, "gpus", (double)st.gpus_by_mode[m]);
	}
}

static void build_nodes_gpus(struct docs *dc, const struct cplan *cp, const struct slot_order *so)
{
	const struct problem *p = cp->p;
	size_t *ord = xmalloc((cp->nnodes + 1) * sizeof(*ord));
	const size_t *sl = so->sorted;
	cJSON *jn = cJSON_AddArrayToObject(dc->json, "nodes");
	cJSON *jg = cJSON_AddArrayToObject(dc->json, "gpus");
	size_t i, si;
	size_t *first = xmalloc((cp->nnodes + 1) * sizeof(*first));
	char b1[64], b2[64], b3[64], b4[64], b5[64];

	for (i = 0; i < cp->nnodes; i++)
		ord[i] = i;
	ord_cp = cp;
	qsort(ord, cp->nnodes, sizeof(*ord), node_cmp);
	for (i = 0; i < cp->nnodes; i++)
		first[i] = cp->nslots;
	for (i = cp->nslots; i-- > 0;)
		first[cp->slots[sl[i]].node] = i;
	sb_adds(&dc->nodes, "node,class,site,hypervisor,gpu_type,mode,gpus,gpus_active,gpus_licensed,"
			    "memory_utilisation,compute_utilisation,cpu_cores_used,ram_gib_used,cost_usd\n");
	sb_adds(&dc->gpus, "node,gpu,mode,partition,placement,slots,slots_used\n");
	for (i = 0; i < cp->nnodes; i++) {
		size_t ni = ord[i];
		const struct cnode *n = &cp->nodes[ni];
		const struct pclass *c = &p->classes[n->k];
		const struct node_class *nc = c->nc;
		char *name = cplan_node_name(cp, n);
		double hw, en, lic, mem = 0, comp = 0;
		long act, licd;
		cJSON *o = cJSON_CreateObject();
		int g;
		size_t j;

		cplan_node_cost(cp, ni, &hw, &en, &lic, &act, &licd);
		for (j = 0; j < cp->nslots; j++) {
			double m, cc;
			if ((size_t)cp->slots[j].node != ni || cp->slots[j].d < 0)
				continue;
			replica_ask(p->demands[cp->slots[j].d].w, nc->gpu, &m, &cc);
			mem += m;
			comp += cc;
		}
		mem /= (double)nc->gpus_per_node * (double)nc->gpu->memory_mib;
		comp /= nc->gpus_per_node;
		csv_field(&dc->nodes, name);
		sb_addn(&dc->nodes, ",", 1);
		csv_field(&dc->nodes, nc->name);
		sb_addn(&dc->nodes, ",", 1);
		csv_field(&dc->nodes, nc->site);
		sb_addf(&dc->nodes, ",%s,%s,%s,%d,%ld,%ld,%s,%s,%s,%s,%s\n", hypervisor_name(nc->hv), nc->gpu->id,
			mode_name(n->mode), nc->gpus_per_node, act, licd, fmt_fixed(b1, sizeof(b1), mem, 4),
			fmt_fixed(b2, sizeof(b2), comp, 4), fmt_fixed(b3, sizeof(b3), n->cpu_used, 2),
			fmt_fixed(b4, sizeof(b4), n->ram_used, 2), money(b5, sizeof(b5), hw + en + lic));
		cJSON_AddStringToObject(o, "node", name);
		cJSON_AddStringToObject(o, "class", nc->name);
		cJSON_AddStringToObject(o, "site", nc->site);
		cJSON_AddStringToObject(o, "hypervisor", hypervisor_name(nc->hv));
		cJSON_AddStringToObject(o, "gpu_type", nc->gpu->id);
		cJSON_AddStringToObject(o, "mode", mode_name(n->mode));
		cJSON_AddNumberToObject(o, "gpus", nc->gpus_per_node);
		cJSON_AddNumberToObject(o, "gpus_active", (double)act);
		cJSON_AddNumberToObject(o, "gpus_licensed", (double)licd);
		cJSON_AddNumberToObject(o, "memory_utilisation", round_to(mem, 4));
		cJSON_AddNumberToObject(o, "compute_utilisation", round_to(comp, 4));
		cJSON_AddNumberToObject(o, "cpu_cores_used", round_to(n->cpu_used, 2));
		cJSON_AddNumberToObject(o, "ram_gib_used", round_to(n->ram_used, 2));
		cJSON_AddNumberToObject(o, "cost_usd", round_to(hw + en + lic, 2));
		cJSON_AddItemToArray(jn, o);

		for (g = 0; g < nc->gpus_per_node; g++) {
			struct sb place;
			const char *part;
			int nsl = 0, used = 0;
			cJSON *go = cJSON_CreateObject(), *ja = cJSON_CreateArray();
			sb_init(&place);
			if (n->mode == MODE_PASSTHROUGH)
				part = "passthrough";
			else
				part = n->gpu_config[g] >= 0 ? c->configs[n->gpu_config[g]].name : "idle";
			si = first[ni];
			while (si < cp->nslots && (size_t)cp->slots[sl[si]].node == ni && cp->slots[sl[si]].gpu < g)
				si++;
			for (j = si; j < cp->nslots && (size_t)cp->slots[sl[j]].node == ni && cp->slots[sl[j]].gpu == g;
			     j++) {
				const struct cslot *s = &cp->slots[sl[j]];
				char *lab = slot_label(cp, s, so->index[sl[j]]);
				sb_addf(&place, "%s%s", place.len ? " " : "", lab);
				cJSON_AddItemToArray(ja, cJSON_CreateString(lab));
				free(lab);
				nsl++;
				used += s->d >= 0;
			}
			if (n->mode == MODE_PASSTHROUGH && !nsl) {
				/* inside a group that starts on an earlier GPU */
				size_t q;
				for (q = first[ni]; q < cp->nslots && (size_t)cp->slots[sl[q]].node == ni; q++) {
					const struct cslot *s = &cp->slots[sl[q]];
					if (g > s->gpu && g < s->gpu + s->ngpus) {
						char *lab = slot_label(cp, s, 0);
						sb_addf(&place, "%s", lab);
						cJSON_AddItemToArray(ja, cJSON_CreateString(lab));
						free(lab);
						used = s->d >= 0;
						nsl = 1;
					}
				}
			}
			csv_field(&dc->gpus, name);
			sb_addf(&dc->gpus, ",%d,%s,", g, mode_name(n->mode));
			csv_field(&dc->gpus, part);
			sb_addn(&dc->gpus, ",", 1);
			csv_field(&dc->gpus, place.buf);
			sb_addf(&dc->gpus, ",%d,%d\n", nsl, used);
			cJSON_AddStringToObject(go, "node", name);
			cJSON_AddNumberToObject(go, "gpu", g);
			cJSON_AddStringToObject(go, "mode", mode_name(n->mode));
			cJSON_AddStringToObject(go, "partition", part);
			cJSON_AddItemToObject(go, "placement", ja);
			cJSON_AddNumberToObject(go, "slots", nsl);
			cJSON_AddNumberToObject(go, "slots_used", used);
			cJSON_AddItemToArray(jg, go);
			sb_release(&place);
		}
		free(name);
	}
	free(first);
	free(ord);
}

static void build_placements(struct docs *dc, const struct cplan *cp, const struct slot_order *so)
{
	const struct problem *p = cp->p;
	size_t *pl = xmalloc((cp->nslots + 1) * sizeof(*pl));
	size_t n = 0, i;
	cJSON *jp = cJSON_AddArrayToObject(dc->json, "placements");
	cJSON *ju = cJSON_AddArrayToObject(dc->json, "unplaced");

	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0)
			pl[n++] = i;
	ord_cp = cp;
	qsort(pl, n, sizeof(*pl), placement_cmp);
	sb_adds(&dc->placements, "workload,tenant,replica,node,gpu,slot\n");
	for (i = 0; i < n; i++) {
		const struct cslot *s = &cp->slots[pl[i]];
		const struct workload *w = p->demands[s->d].w;
		char *node = cplan_node_name(cp, &cp->nodes[s->node]);
		char *lab = slot_label(cp, s, so->index[pl[i]]);
		cJSON *o = cJSON_CreateObject();
		csv_field(&dc->placements, w->name);
		sb_addn(&dc->placements, ",", 1);
		csv_field(&dc->placements, w->tenant);
		sb_addf(&dc->placements, ",%ld,", s->replica);
		csv_field(&dc->placements, node);
		sb_addf(&dc->placements, ",%d,", s->gpu);
		csv_field(&dc->placements, lab);
		sb_addn(&dc->placements, "\n", 1);
		cJSON_AddStringToObject(o, "workload", w->name);
		cJSON_AddStringToObject(o, "tenant", w->tenant);
		cJSON_AddNumberToObject(o, "replica", (double)s->replica);
		cJSON_AddStringToObject(o, "node", node);
		cJSON_AddNumberToObject(o, "gpu", s->gpu);
		cJSON_AddStringToObject(o, "slot", lab);
		cJSON_AddItemToArray(jp, o);
		free(node);
		free(lab);
	}
	sb_adds(&dc->unplaced, "workload,tenant,replicas,reason\n");
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		cJSON *o;
		if (!cp->unplaced[i])
			continue;
		csv_field(&dc->unplaced, w->name);
		sb_addn(&dc->unplaced, ",", 1);
		csv_field(&dc->unplaced, w->tenant);
		sb_addf(&dc->unplaced, ",%ld,", cp->unplaced[i]);
		csv_field(&dc->unplaced, cp->reason[i] ? cp->reason[i] : "");
		sb_addn(&dc->unplaced, "\n", 1);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", w->name);
		cJSON_AddStringToObject(o, "tenant", w->tenant);
		cJSON_AddNumberToObject(o, "replicas", (double)cp->unplaced[i]);
		cJSON_AddStringToObject(o, "reason", cp->reason[i] ? cp->reason[i] : "");
		cJSON_AddItemToArray(ju, o);
	}
	free(pl);
}

/* ================= writing ================= */

static int write_file(const char *path, const char *data, size_t len, struct diag *d)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return diag_set(d, DIAG_IO, path, 0, 0, "cannot create: %s", strerror(errno));
	if (fwrite(data, 1, len, f) != len || fflush(f) || ferror(f)) {
		int e = errno;
		fclose(f);
		return diag_set(d, DIAG_IO, path, 0, 0, "cannot write: %s", strerror(e));
	}
	if (fclose(f))
		return diag_set(d, DIAG_IO, path, 0, 0, "cannot write: %s", strerror(errno));
	return 0;
}

int report_write(const char *dir, enum report_format fmt, const struct cplan *cp, const struct report_run *run,
		 struct diag *d)
{
	struct docs dc;
	struct slot_order so;
	struct stat stt;
	const char *names[6] = { "summary.csv", "nodes.csv", "gpus.csv", "placements.csv", "unplaced.csv", "plan.json" };
	const char *data[6];
	size_t lens[6];
	char *tmp[6] = { NULL };
	char *json = NULL;
	int created = 0, rc = -1, i;

	sb_init(&dc.summary);
	sb_init(&dc.nodes);
	sb_init(&dc.gpus);
	sb_init(&dc.placements);
	sb_init(&dc.unplaced);
	dc.json = cJSON_CreateObject();
	cJSON_AddStringToObject(dc.json, "schema_version", REPORT_SCHEMA_VERSION);
	build_summary(&dc, cp, run);
	slot_order_init(&so, cp);
	build_nodes_gpus(&dc, cp, &so);
	build_placements(&dc, cp, &so);
	slot_order_release(&so);
	json = cJSON_Print(dc.json);

	data[0] = dc.summary.buf, lens[0] = dc.summary.len;
	data[1] = dc.nodes.buf, lens[1] = dc.nodes.len;
	data[2] = dc.gpus.buf, lens[2] = dc.gpus.len;
	data[3] = dc.placements.buf, lens[3] = dc.placements.len;
	data[4] = dc.unplaced.buf, lens[4] = dc.unplaced.len;
	data[5] = json, lens[5] = strlen(json);

	if (stat(dir, &stt)) {
		if (mkdir(dir, 0777)) {
			diag_set(d, DIAG_IO, dir, 0, 0, "cannot create the output directory: %s", strerror(errno));
			goto out;
		}
		created = 1;
	} else if (!S_ISDIR(stt.st_mode)) {
		diag_set(d, DIAG_IO, dir, 0, 0, "not a directory");
		goto out;
	}
	for (i = 0; i < 6; i++) {
		int want = i == 5 ? (fmt & REPORT_JSON) : (fmt & REPORT_CSV);
		if (!want)
			continue;
		tmp[i] = xasprintf("%s/.%s.%ld.tmp", dir, names[i], (long)getpid());
		if (write_file(tmp[i], data[i], lens[i], d))
			goto out;
	}
	for (i = 0; i < 6; i++) {
		char *final;
		if (!tmp[i])
			continue;
		final = xasprintf("%s/%s", dir, names[i]);
		if (rename(tmp[i], final)) {
			diag_set(d, DIAG_IO, final, 0, 0, "cannot rename into place: %s", strerror(errno));
			free(final);
			goto out;
		}
		free(final);
		free(tmp[i]);
		tmp[i] = NULL;
	}
	rc = 0;
out:
	for (i = 0; i < 6; i++) {
		if (tmp[i])
			remove(tmp[i]);
		free(tmp[i]);
	}
	if (rc && created)
		rmdir(dir);
	cJSON_free(json);
	cJSON_Delete(dc.json);
	sb_release(&dc.summary);
	sb_release(&dc.nodes);
	sb_release(&dc.gpus);
	sb_release(&dc.placements);
	sb_release(&dc.unplaced);
	return rc;
}
