/*
 * stats.c - figures of a plan shared by the reports, the comparison and
 * the CLI's summary: the mode mix, memory and compute utilisation of the
 * GPUs in used nodes, and the cost per provisioned and per used GPU-hour.
 */
#include <string.h>

#include "internal/stats.h"
#include "report.h"
#include "banned.h"

void report_replica_ask(const struct workload *w, const struct gpu_type *g, double *mem, double *comp)
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
		report_replica_ask(p->demands[s->d].w, p->classes[cp->nodes[s->node].k].nc->gpu, &m, &c);
		mem += m;
		comp += c;
	}
	st->mem_util = cap_mem > 0 ? mem / cap_mem : 0;
	st->compute_util = cap_gpus > 0 ? comp / cap_gpus : 0;
}

void report_gpu_hours(const struct cplan *cp, struct report_gpu_hours *gh)
{
	const struct problem *p = cp->p;
	double hours = HOURS_PER_YEAR * p->horizon_years;
	struct cplan_cost cost;
	size_t i;

	memset(gh, 0, sizeof(*gh));
	cplan_cost(cp, &cost);
	for (i = 0; i < p->ndemands; i++)
		gh->gpu_eq_placed += (double)cp->placed[i] * workload_gpu_equivalents(p->demands[i].w);
	gh->provisioned = (double)cost.gpus * hours;
	gh->used = gh->gpu_eq_placed * hours;
	gh->per_provisioned = gh->provisioned > 0 ? cost.total / gh->provisioned : 0;
	gh->per_used = gh->used > 0 ? cost.total / gh->used : 0;
}
