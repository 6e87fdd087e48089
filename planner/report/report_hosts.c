/*
 * report_hosts.c - the rows of hosts.csv (one per machine, with its cost)
 * and nodes.csv (one per Kubernetes node, as the deploy files name them),
 * streamed as report.c walks the nodes; and the streamed CSVs' drain.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonout.h"
#include "report_walk.h"
#include "stats.h"
#include "banned.h"

/* Hands a streamed CSV's row(s) in sb to f (NULL: drops them), leaving sb empty. */
void report_drain(struct sb *sb, FILE *f)
{
	if (f && sb->len)
		fwrite(sb->buf, 1, sb->len, f);
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

/* Rows a streamed CSV gathers before they are handed to its file. */
#define REPORT_DRAIN (64 * 1024)

/* report_drain, once sb holds REPORT_DRAIN bytes or more. */
void report_drain_some(struct sb *sb, FILE *f)
{
	if (sb->len >= REPORT_DRAIN)
		report_drain(sb, f);
}

/* How the replicas of a host, or of one of its Kubernetes nodes, use it. */
struct node_use {
	double mem, comp;	/* memory and compute asked, in MiB and GPUs */
	double cpu, ram;	/* CPU cores and RAM (GiB) asked */
};

/* What the replicas in host ni's slots ask; only those of its Kubernetes node k (k < 0: all). */
static void node_use(const struct node_walk *w, size_t ni, long k, struct node_use *u)
{
	const struct cplan *cp = w->cp;
	const size_t *sl = w->so->sorted;
	const struct gpu_type *gt = cp->p->classes[cp->nodes[ni].k].nc->gpu;
	size_t j;

	memset(u, 0, sizeof(*u));
	for (j = w->first[ni]; j < cp->nslots && (size_t)cp->slots[sl[j]].node == ni; j++) {
		const struct workload *wl;
		double m, cc;
		if (cp->slots[sl[j]].d < 0 || (k >= 0 && w->k8s.slot_node[sl[j]] != k))
			continue;
		wl = cp->p->demands[cp->slots[sl[j]].d].w;
		report_replica_ask(wl, gt, &m, &cc);
		u->mem += m;
		u->comp += cc;
		u->cpu += wl->cpu_cores;
		u->ram += wl->ram_gib;
	}
}

/* The GPUs of mask m that are in use as cplan_node_bill counts them (passthrough: a replica on it; else configured). */
static long gpus_active(const struct cnode *n, uint64_t m, int gpus)
{
	long a = 0;
	int g;

	for (g = 0; g < gpus && g < 64; g++)
		if ((m >> g & 1) && (n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0))
			a++;
	return a;
}

/* Host ni's row of hosts.csv and "hosts": the machine, its GPUs, use and cost. */
void report_host_row(struct docs *dc, const struct node_walk *w, size_t ni, const char *name)
{
	const struct cplan *cp = w->cp;
	const struct cnode *n = &cp->nodes[ni];
	const struct node_class *nc = cp->p->classes[n->k].nc;
	long nk8s = (long)(w->kfirst[ni + 1] - w->kfirst[ni]);
	double mem, comp;
	struct node_use u;
	struct node_bill bill;
	char b1[64], b2[64], b3[64], b4[64], b5[64];

	cplan_node_bill(cp, ni, &bill);
	node_use(w, ni, -1, &u);
	mem = u.mem / ((double)nc->gpus_per_node * (double)nc->gpu->memory_mib);
	comp = u.comp / nc->gpus_per_node;
	sb_add_csv(&dc->hosts, name);
	sb_addn(&dc->hosts, ",", 1);
	sb_add_csv(&dc->hosts, nc->name);
	sb_addn(&dc->hosts, ",", 1);
	sb_add_csv(&dc->hosts, nc->site);
	sb_addf(&dc->hosts, ",%s,", hypervisor_name(nc->hv));
	sb_add_csv(&dc->hosts, nc->gpu->id);
	sb_addf(&dc->hosts, ",%s,%d,%ld,%ld,%ld,%s,%s,%s,%s,%s\n", mode_name(n->mode), nc->gpus_per_node, bill.active,
		bill.gpus_licensed, nk8s, fmt_fixed(b1, sizeof(b1), mem, 4), fmt_fixed(b2, sizeof(b2), comp, 4),
		fmt_fixed(b3, sizeof(b3), n->cpu_used, 2), fmt_fixed(b4, sizeof(b4), n->ram_used, 2),
		report_money(b5, sizeof(b5), bill.total));
	jsonout_obj_begin(&dc->jo);
	jsonout_obj_str(&dc->jo, "host", name);
	jsonout_obj_str(&dc->jo, "class", nc->name);
	jsonout_obj_str(&dc->jo, "site", nc->site);
	jsonout_obj_str(&dc->jo, "hypervisor", hypervisor_name(nc->hv));
	jsonout_obj_str(&dc->jo, "gpu_type", nc->gpu->id);
	jsonout_obj_str(&dc->jo, "mode", mode_name(n->mode));
	jsonout_obj_num(&dc->jo, "gpus", nc->gpus_per_node);
	jsonout_obj_num(&dc->jo, "gpus_active", (double)bill.active);
	jsonout_obj_num(&dc->jo, "gpus_licensed", (double)bill.gpus_licensed);
	jsonout_obj_num(&dc->jo, "k8s_nodes", (double)nk8s);
	jsonout_obj_num(&dc->jo, "memory_utilisation", report_round(mem, 4));
	jsonout_obj_num(&dc->jo, "compute_utilisation", report_round(comp, 4));
	jsonout_obj_num(&dc->jo, "cpu_cores_used", report_round(n->cpu_used, 2));
	jsonout_obj_num(&dc->jo, "ram_gib_used", report_round(n->ram_used, 2));
	jsonout_obj_num(&dc->jo, "cost_usd", report_round(bill.total, 2));
	jsonout_obj_end(&dc->jo);
	report_drain_some(&dc->hosts, dc->fh);
}

/*
 * Kubernetes node k of host ni: its row of nodes.csv and "nodes".  The
 * GPUs its device plugin sees, how its pods use them (a vGPU worker's:
 * its vGPUs' frame buffer and guaranteed compute) and the CPU and RAM
 * they ask; the host itself where it is the node, so that the figures
 * are the host's.
 */
void report_k8s_row(struct docs *dc, const struct node_walk *w, size_t ni, size_t k, const char *host)
{
	const struct cplan *cp = w->cp;
	const struct cnode *n = &cp->nodes[ni];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct deploy_node *kn = &w->k8s.nodes[k];
	double mem_cap = (double)kn->gpus * (double)c->nc->gpu->memory_mib, comp_cap = kn->gpus;
	double mem, comp, cpu = n->cpu_used, ram = n->ram_used;
	long active = gpus_active(n, kn->host_gpus, c->nc->gpus_per_node);
	struct node_use u;
	char b1[64], b2[64], b3[64], b4[64];

	node_use(w, ni, (long)k, &u);
	if (kn->kind != DEPLOY_NODE_HOST) {
		cpu = u.cpu;
		ram = u.ram;
	}
	if (kn->kind == DEPLOY_NODE_VM_VGPU) {
		mem_cap = (double)kn->gpus * (double)c->slot_types[kn->slot_type].memory_mib;
		comp_cap = (double)kn->gpus * c->slot_types[kn->slot_type].compute;
		active = kn->gpus;
	}
	mem = mem_cap > 0 ? u.mem / mem_cap : 0;
	comp = comp_cap > 0 ? u.comp / comp_cap : 0;
	sb_add_csv(&dc->nodes, kn->name);
	sb_addn(&dc->nodes, ",", 1);
	sb_add_csv(&dc->nodes, host);
	sb_addf(&dc->nodes, ",%s,", deploy_node_kind_name(kn->kind));
	sb_add_csv(&dc->nodes, c->nc->name);
	sb_addn(&dc->nodes, ",", 1);
	sb_add_csv(&dc->nodes, c->nc->site);
	sb_addf(&dc->nodes, ",%s,", hypervisor_name(c->nc->hv));
	sb_add_csv(&dc->nodes, c->nc->gpu->id);
	sb_addf(&dc->nodes, ",%s,%d,%ld,%s,%s,%s,%s\n", mode_name(n->mode), kn->gpus, active,
		fmt_fixed(b1, sizeof(b1), mem, 4), fmt_fixed(b2, sizeof(b2), comp, 4), fmt_fixed(b3, sizeof(b3), cpu, 2),
		fmt_fixed(b4, sizeof(b4), ram, 2));
	jsonout_obj_begin(&dc->jo);
	jsonout_obj_str(&dc->jo, "node", kn->name);
	jsonout_obj_str(&dc->jo, "host", host);
	jsonout_obj_str(&dc->jo, "kind", deploy_node_kind_name(kn->kind));
	jsonout_obj_str(&dc->jo, "class", c->nc->name);
	jsonout_obj_str(&dc->jo, "site", c->nc->site);
	jsonout_obj_str(&dc->jo, "hypervisor", hypervisor_name(c->nc->hv));
	jsonout_obj_str(&dc->jo, "gpu_type", c->nc->gpu->id);
	jsonout_obj_str(&dc->jo, "mode", mode_name(n->mode));
	jsonout_obj_num(&dc->jo, "gpus", kn->gpus);
	jsonout_obj_num(&dc->jo, "gpus_active", (double)active);
	jsonout_obj_num(&dc->jo, "memory_utilisation", report_round(mem, 4));
	jsonout_obj_num(&dc->jo, "compute_utilisation", report_round(comp, 4));
	jsonout_obj_num(&dc->jo, "cpu_cores_used", report_round(cpu, 2));
	jsonout_obj_num(&dc->jo, "ram_gib_used", report_round(ram, 2));
	jsonout_obj_end(&dc->jo);
	report_drain_some(&dc->nodes, dc->fn);
}

