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

#include "additions.h"
#include "chargeback.h"
#include "deploy.h"
#include "html_pages.h"
#include "jsonout.h"
#include "report_docs.h"
#include "report_walk.h"
#include "stats.h"
#include "date.h"
#include "outfile.h"
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

/* n in decimal after sb's text. */
static void sb_add_int(struct sb *sb, long n)
{
	char b[24], *e = b + sizeof(b), *p = e;
	unsigned long u = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (n < 0)
		*--p = '-';
	sb_addn(sb, p, (size_t)(e - p));
}

/*
 * The label of a slot within its GPU into out (emptied first): "3g.40gb@4", "H100XM-20C#2",
 * "ts4#1", "gpus 0-3", a multi-vGPU VM "H100XM-80Cx4 gpus 0-3".  Written without printf:
 * one label per placement.
 */
static const char *slot_label(struct sb *out, const struct cplan *cp, const struct cslot *s, int index_in_gpu)
{
	const struct slot_type *st = &cp->p->classes[cp->nodes[s->node].k].slot_types[s->type];

	out->len = 0;
	if (s->mig_start >= 0) {
		sb_adds(out, st->name);
		sb_addn(out, "@", 1);
		sb_add_int(out, s->mig_start);
		return out->buf;
	}
	if (st->mode != MODE_PASSTHROUGH && s->ngpus <= 1) {
		sb_adds(out, st->name);
		sb_addn(out, "#", 1);
		sb_add_int(out, index_in_gpu);
		return out->buf;
	}
	if (st->mode != MODE_PASSTHROUGH) {	/* a multi-vGPU VM: one full-size vGPU on each of its GPUs */
		sb_adds(out, st->name);
		sb_addn(out, " ", 1);
	}
	sb_adds(out, s->ngpus > 1 ? "gpus " : "gpu ");
	sb_add_int(out, s->gpu);
	if (s->ngpus > 1) {
		sb_addn(out, "-", 1);
		sb_add_int(out, s->gpu + s->ngpus - 1);
	}
	return out->buf;
}


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


/* tenants.csv and "tenants": the chargeback (chargeback.c), one row per tenant, then "(idle)". */
static void build_tenants(struct docs *dc, const struct plan_result *r)
{
	struct chargeback cb;
	cJSON *ja = cJSON_AddArrayToObject(dc->json, "tenants");
	char b1[64], b2[64], b3[64];
	size_t t;

	report_chargeback(&cb, r);
	sb_adds(&dc->tenants, "tenant,replicas,gpu_equivalents,cost_usd,share_of_cost\n");
	for (t = 0; t <= cb.nt; t++) {
		const char *name = t < cb.nt ? cb.names[t] : "(idle)";
		double part = cb.total > 0 ? cb.cost[t] / cb.total : 0;
		cJSON *o = cJSON_CreateObject();
		sb_add_csv(&dc->tenants, name);
		sb_addf(&dc->tenants, ",%ld,%s,%s,%s\n", cb.replicas[t], fmt_fixed(b1, sizeof(b1), cb.share[t], 4),
			report_money(b2, sizeof(b2), cb.cost[t]), fmt_fixed(b3, sizeof(b3), part, 4));
		cJSON_AddStringToObject(o, "tenant", name);
		cJSON_AddNumberToObject(o, "replicas", (double)cb.replicas[t]);
		cJSON_AddNumberToObject(o, "gpu_equivalents", report_round(cb.share[t], 4));
		cJSON_AddNumberToObject(o, "cost_usd", report_round(cb.cost[t], 2));
		cJSON_AddNumberToObject(o, "share_of_cost", report_round(part, 4));
		cJSON_AddItemToArray(ja, o);
	}
	report_chargeback_release(&cb);
}

/* GPU g of node ni: its row of gpus.csv and "gpus" (partition, slot labels, slots used). */
static void gpu_row(struct docs *dc, struct node_walk *w, size_t ni, const char *name, int g)
{
	const struct cplan *cp = w->cp;
	const size_t *sl = w->so->sorted;
	const struct cnode *n = &cp->nodes[ni];
	const struct pclass *c = &cp->p->classes[n->k];
	struct sb place;
	const char *part;
	int nsl = 0, used = 0;
	size_t si, j;

	sb_init(&place);
	if (n->mode == MODE_PASSTHROUGH)
		part = "passthrough";
	else
		part = n->gpu_config[g] >= 0 ? c->configs[n->gpu_config[g]].name : "idle";
	si = w->first[ni];
	while (si < cp->nslots && (size_t)cp->slots[sl[si]].node == ni && cp->slots[sl[si]].gpu < g)
		si++;
	jsonout_obj_begin(&dc->jo);
	jsonout_obj_str(&dc->jo, "node", name);
	jsonout_obj_num(&dc->jo, "gpu", g);
	jsonout_obj_str(&dc->jo, "mode", mode_name(n->mode));
	jsonout_obj_str(&dc->jo, "partition", part);
	jsonout_obj_strs_begin(&dc->jo, "placement");
	for (j = si; j < cp->nslots && (size_t)cp->slots[sl[j]].node == ni && cp->slots[sl[j]].gpu == g; j++) {
		const struct cslot *s = &cp->slots[sl[j]];
		const char *lab = slot_label(&w->label, cp, s, w->so->index[sl[j]]);
		if (place.len)
			sb_addn(&place, " ", 1);
		sb_adds(&place, lab);
		jsonout_obj_strs_add(&dc->jo, lab);
		nsl++;
		used += s->d >= 0;
	}
	if ((n->mode == MODE_PASSTHROUGH || n->pattern >= 0) && !nsl) {
		/* inside a group that starts on an earlier GPU */
		size_t q;
		for (q = w->first[ni]; q < cp->nslots && (size_t)cp->slots[sl[q]].node == ni; q++) {
			const struct cslot *s = &cp->slots[sl[q]];
			if (g > s->gpu && g < s->gpu + s->ngpus) {
				const char *lab = slot_label(&w->label, cp, s, 0);
				sb_adds(&place, lab);
				jsonout_obj_strs_add(&dc->jo, lab);
				used = s->d >= 0;
				nsl = 1;
			}
		}
	}
	sb_add_csv(&dc->gpus, name);
	sb_addf(&dc->gpus, ",%d,%s,", g, mode_name(n->mode));
	sb_add_csv(&dc->gpus, part);
	sb_addn(&dc->gpus, ",", 1);
	sb_add_csv(&dc->gpus, place.buf);
	sb_addf(&dc->gpus, ",%d,%d\n", nsl, used);
	jsonout_obj_strs_end(&dc->jo);
	jsonout_obj_num(&dc->jo, "slots", nsl);
	jsonout_obj_num(&dc->jo, "slots_used", used);
	jsonout_obj_end(&dc->jo);
	report_drain_some(&dc->gpus, dc->fg);
	sb_release(&place);
}

/*
 * "workloads" (3.2.0): every workload planned, in the workloads file's
 * order, with its priority and its placed and unplaced replicas, so that
 * `gpuplan diff` can judge two reports by priority.
 */
static void build_workloads(struct docs *dc, const struct cplan *cp)
{
	const struct problem *p = cp->p;
	cJSON *ja = cJSON_AddArrayToObject(dc->json, "workloads");
	size_t i;

	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", w->name);
		cJSON_AddStringToObject(o, "tenant", w->tenant);
		cJSON_AddNumberToObject(o, "priority", w->priority);
		cJSON_AddNumberToObject(o, "replicas", (double)p->demands[i].replicas);
		cJSON_AddNumberToObject(o, "placed", (double)cp->placed[i]);
		cJSON_AddNumberToObject(o, "unplaced", (double)cp->unplaced[i]);
		cJSON_AddItemToArray(ja, o);
	}
}

/* The nodes by class and ordinal, and where each one's slots start. */
static void node_walk_init(struct node_walk *w, const struct cplan *cp, const struct slot_order *so)
{
	size_t i;

	w->cp = cp;
	w->so = so;
	w->ord = xmalloc((cp->nnodes + 1) * sizeof(*w->ord));
	w->first = xmalloc((cp->nnodes + 1) * sizeof(*w->first));
	for (i = 0; i < cp->nnodes; i++)
		w->ord[i] = i;
	ord_cp = cp;
	qsort(w->ord, cp->nnodes, sizeof(*w->ord), node_cmp);
	for (i = 0; i < cp->nnodes; i++)
		w->first[i] = cp->nslots;
	for (i = cp->nslots; i-- > 0;)
		w->first[cp->slots[so->sorted[i]].node] = i;
	deploy_nodes_list(cp, &w->k8s);
	w->kfirst = xcalloc(cp->nnodes + 2, sizeof(*w->kfirst));
	for (i = 0; i < w->k8s.n; i++)
		w->kfirst[w->k8s.nodes[i].host + 1]++;
	for (i = 0; i < cp->nnodes; i++)
		w->kfirst[i + 1] += w->kfirst[i];
	sb_init(&w->label);
	sb_init(&w->name);
}

/*
 * Node ni's name, as cplan_node_name gives it: its inventory name, or its
 * class's name and its ordinal; valid until the next call.  Without a copy
 * or printf for a named node: one name per placement.
 */
static const char *node_name(struct node_walk *w, size_t ni)
{
	const struct cnode *n = &w->cp->nodes[ni];
	const struct node_class *nc = w->cp->p->classes[n->k].nc;

	if (n->ordinal >= 0 && (size_t)n->ordinal < nc->nnodes)
		return nc->nodes[n->ordinal];
	w->name.len = 0;
	sb_addf(&w->name, "%s-%03d", nc->name, n->ordinal);
	return w->name.buf;
}

static void node_walk_release(struct node_walk *w)
{
	free(w->ord);
	free(w->first);
	free(w->kfirst);
	deploy_nodes_free(&w->k8s);
	sb_release(&w->label);
	sb_release(&w->name);
}

/* The arrays write_nodes writes. */
enum node_doc { DOC_HOSTS, DOC_NODES, DOC_GPUS };

/*
 * hosts.csv and "hosts", nodes.csv and "nodes" (each host's Kubernetes
 * nodes), or gpus.csv and "gpus" (each host's GPUs in order): hosts by
 * class and ordinal, streamed.
 */
static void write_nodes(struct docs *dc, struct node_walk *w, enum node_doc doc)
{
	static const char *const arrays[] = { "hosts", "nodes", "gpus" };
	struct sb *const sbs[] = { &dc->hosts, &dc->nodes, &dc->gpus };
	FILE *const fs[] = { dc->fh, dc->fn, dc->fg };
	const struct cplan *cp = w->cp;
	size_t i, k;

	jsonout_array_begin(&dc->jo, arrays[doc]);
	if (doc == DOC_GPUS)
		sb_adds(&dc->gpus, "node,gpu,mode,partition,placement,slots,slots_used\n");
	else if (doc == DOC_HOSTS)
		sb_adds(&dc->hosts, "host,class,site,hypervisor,gpu_type,mode,gpus,gpus_active,gpus_licensed,k8s_nodes,"
				    "memory_utilisation,compute_utilisation,cpu_cores_used,ram_gib_used,cost_usd\n");
	else
		sb_adds(&dc->nodes, "node,host,kind,class,site,hypervisor,gpu_type,mode,gpus,gpus_active,"
				    "memory_utilisation,compute_utilisation,cpu_cores_used,ram_gib_used\n");
	for (i = 0; i < cp->nnodes; i++) {
		size_t ni = w->ord[i];
		const char *name = node_name(w, ni);
		int g;
		if (doc == DOC_HOSTS)
			report_host_row(dc, w, ni, name);
		for (k = w->kfirst[ni]; doc == DOC_NODES && k < w->kfirst[ni + 1]; k++)
			report_k8s_row(dc, w, ni, k, name);
		for (g = 0; doc == DOC_GPUS && g < cp->p->classes[cp->nodes[ni].k].nc->gpus_per_node; g++)
			gpu_row(dc, w, ni, name, g);
	}
	report_drain(sbs[doc], fs[doc]);
	jsonout_array_end(&dc->jo);
}

/* placements.csv and "placements": by workload and replica, streamed. */
static void write_placements(struct docs *dc, struct node_walk *nw)
{
	const struct cplan *cp = nw->cp;
	const struct problem *p = cp->p;
	size_t *pl = xmalloc((cp->nslots + 1) * sizeof(*pl));
	size_t n = 0, i;

	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0)
			pl[n++] = i;
	ord_cp = cp;
	qsort(pl, n, sizeof(*pl), placement_cmp);
	jsonout_array_begin(&dc->jo, "placements");
	sb_adds(&dc->placements, "workload,tenant,replica,node,gpu,slot\n");
	for (i = 0; i < n; i++) {
		const struct cslot *s = &cp->slots[pl[i]];
		const struct workload *w = p->demands[s->d].w;
		const char *node = node_name(nw, (size_t)s->node);
		const char *lab = slot_label(&nw->label, cp, s, nw->so->index[pl[i]]);
		sb_add_csv(&dc->placements, w->name);
		sb_addn(&dc->placements, ",", 1);
		sb_add_csv(&dc->placements, w->tenant);
		sb_addn(&dc->placements, ",", 1);
		sb_add_int(&dc->placements, s->replica);
		sb_addn(&dc->placements, ",", 1);
		sb_add_csv(&dc->placements, node);
		sb_addn(&dc->placements, ",", 1);
		sb_add_int(&dc->placements, s->gpu);
		sb_addn(&dc->placements, ",", 1);
		sb_add_csv(&dc->placements, lab);
		sb_addn(&dc->placements, "\n", 1);
		jsonout_obj_begin(&dc->jo);
		jsonout_obj_str(&dc->jo, "workload", w->name);
		jsonout_obj_str(&dc->jo, "tenant", w->tenant);
		jsonout_obj_num(&dc->jo, "replica", (double)s->replica);
		jsonout_obj_str(&dc->jo, "node", node);
		jsonout_obj_num(&dc->jo, "gpu", s->gpu);
		jsonout_obj_str(&dc->jo, "slot", lab);
		jsonout_obj_end(&dc->jo);
		report_drain_some(&dc->placements, dc->fp);
	}
	report_drain(&dc->placements, dc->fp);
	jsonout_array_end(&dc->jo);
	free(pl);
}

/* unplaced.csv and "unplaced", then "workloads". */
static void build_unplaced(struct docs *dc, const struct cplan *cp)
{
	const struct problem *p = cp->p;
	cJSON *ju = cJSON_AddArrayToObject(dc->json, "unplaced");
	size_t i;

	sb_adds(&dc->unplaced, "workload,tenant,replicas,reason\n");
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		cJSON *o;
		if (!cp->unplaced[i])
			continue;
		sb_add_csv(&dc->unplaced, w->name);
		sb_addn(&dc->unplaced, ",", 1);
		sb_add_csv(&dc->unplaced, w->tenant);
		sb_addf(&dc->unplaced, ",%ld,", cp->unplaced[i]);
		sb_add_csv(&dc->unplaced, cp->reason[i] ? cp->reason[i] : "");
		sb_addn(&dc->unplaced, "\n", 1);
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "workload", w->name);
		cJSON_AddStringToObject(o, "tenant", w->tenant);
		cJSON_AddNumberToObject(o, "replicas", (double)cp->unplaced[i]);
		cJSON_AddStringToObject(o, "reason", cp->reason[i] ? cp->reason[i] : "");
		cJSON_AddItemToArray(ju, o);
	}
	build_workloads(dc, cp);
}

/* ================= writing ================= */

/* Opens the streamed files of fmt and starts plan.json: 0, or -1 with d set. */
static int open_streams(struct docs *dc, struct outset *os, enum report_format fmt, struct diag *d)
{
	FILE *fj = NULL;

	if ((fmt & REPORT_CSV) && (!(dc->fn = outset_stream(os, "nodes.csv", d)) ||
				   !(dc->fh = outset_stream(os, "hosts.csv", d)) ||
				   !(dc->fg = outset_stream(os, "gpus.csv", d)) ||
				   !(dc->fp = outset_stream(os, "placements.csv", d))))
		return -1;
	if ((fmt & REPORT_JSON) && !(fj = outset_stream(os, "plan.json", d)))
		return -1;
	jsonout_begin(&dc->jo, fj);
	return 0;
}

/*
 * plan.json's members in order, its big arrays made element by element
 * as the rows of hosts.csv, nodes.csv, gpus.csv and placements.csv, all
 * streamed; the node walk is released after placements, its last user,
 * so that "failures" (and failures.csv) are written without it.  That is
 * its one release: report_write puts "placements" in every tree.
 */
static void write_streams(struct docs *dc, const struct plan_result *r)
{
	const struct cplan *cp = r->final;
	struct slot_order so;
	struct node_walk w;
	cJSON *m;

	slot_order_init(&so, cp);
	node_walk_init(&w, cp, &so);
	cJSON_ArrayForEach(m, dc->json) {
		if (m == dc->jh)
			write_nodes(dc, &w, DOC_HOSTS);
		else if (m == dc->jn)
			write_nodes(dc, &w, DOC_NODES);
		else if (m == dc->jg)
			write_nodes(dc, &w, DOC_GPUS);
		else if (m == dc->jp)
			write_placements(dc, &w);
		else if (m == dc->jf)
			report_write_failures(dc, r);
		else
			jsonout_member(&dc->jo, m);
		if (m == dc->jp) {
			node_walk_release(&w);
			slot_order_release(&so);
		}
	}
	jsonout_end(&dc->jo);
}

int report_write(const char *dir, enum report_format fmt, const struct plan_result *r, struct diag *d)
{
	const struct cplan *cp = r->final;
	struct docs dc;
	struct outset os = OUTSET_INIT;
	struct sb *const parts[] = { &dc.summary, &dc.costs, &dc.licenses, &dc.tenants, &dc.unplaced, &dc.additions,
				     &dc.failures, &dc.hosts, &dc.nodes, &dc.gpus, &dc.placements };
	static const char *const names[] = { "summary.csv", "costs.csv", "licenses.csv", "tenants.csv", "unplaced.csv",
					     "additions.csv", "failures.csv" };
	size_t i;
	int rc = -1;

	memset(&dc, 0, sizeof(dc));
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		sb_init(parts[i]);
	dc.json = cJSON_CreateObject();
	cJSON_AddStringToObject(dc.json, "schema_version", REPORT_SCHEMA_VERSION);
	cJSON_AddStringToObject(dc.json, "gpuplan_version", GPUPLAN_VERSION);
	cJSON_AddStringToObject(dc.json, "models_digest", r->sc->models_digest);
	report_build_summary(&dc, r);
	report_build_costs(&dc, r);
	report_build_licenses(&dc, r);
	build_tenants(&dc, r);
	dc.jh = cJSON_AddArrayToObject(dc.json, "hosts");
	dc.jn = cJSON_AddArrayToObject(dc.json, "nodes");
	dc.jg = cJSON_AddArrayToObject(dc.json, "gpus");
	dc.jp = cJSON_AddArrayToObject(dc.json, "placements");
	build_unplaced(&dc, cp);
	report_additions(&dc.additions, dc.json, r);
	report_build_failures(&dc, r);

	outset_init(&os, dir);
	if (open_streams(&dc, &os, fmt, d))
		goto out;
	if (fmt & REPORT_BOTH)
		write_streams(&dc, r);
	if (fmt & REPORT_CSV)
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			outset_add_sb(&os, names[i], parts[i]);
	if (fmt & REPORT_HTML) {
		char *html = html_plan_page(dc.json, r);
		outset_add(&os, "report.html", html, strlen(html));
	}
	rc = outset_commit(&os, d);
out:
	outset_release(&os);
	cJSON_Delete(dc.json);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		sb_release(parts[i]);
	return rc;
}
