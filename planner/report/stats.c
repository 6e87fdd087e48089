/*
 * stats.c - figures of a plan shared by the reports, the comparison and
 * the CLI's summary: the mode mix, memory and compute utilisation of the
 * GPUs in used nodes, the cost per provisioned and per used GPU-hour, and
 * which assumptions of the pricing concern a plan.
 */
#include <string.h>

#include "util.h"

#include "stats.h"
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

/* Keeps p in *best when it is older (the first found wins ties). */
static void keep_older(struct price_ref *best, int *found, const struct price_ref *p)
{
	if (!*found || p->as_of < best->as_of) {
		*best = *p;
		*found = 1;
	}
}

int report_oldest_price(const struct plan_result *r, struct price_ref *out)
{
	const struct cplan *cp = r->final;
	const struct scenario *sc = cp->p->sc;
	int found = 0;
	size_t i;

	for (i = 0; i < cp->nnodes; i++) {
		const struct node_class *nc = cp->p->classes[cp->nodes[i].k].nc;
		const struct class_price *pc = r->pr.cls[cp->nodes[i].k];
		int g;
		if (nc->offer) {
			struct price_ref p = { LIC_NONE, nc->offer->id, nc->offer->file, nc->offer->line,
					       nc->offer->as_of, nc->offer->assumed };
			keep_older(out, &found, &p);
		}
		for (g = 0; g < nc->gpus_per_node; g++) {
			const struct lic_term *t;
			enum lic_product lp;
			long gpus, seats;
			cplan_gpu_licence(cp, i, g, &lp, &gpus, &seats);
			if (lp == LIC_NONE || gpus + seats == 0 || !(t = pc->lic[lp].oldest))
				continue;
			{
				struct price_ref p = { lp, t->id, sc->licenses.file, t->line, t->as_of, t->assumed };
				keep_older(out, &found, &p);
			}
		}
	}
	return found;
}

char *report_price_name(const struct price_ref *p)
{
	if (p->product == LIC_NONE)
		return xasprintf("cloud offer %s", p->id);
	return xasprintf("%s %s", lic_product_id(p->product), p->id);
}

int report_assumption_used(const struct assumption *a, const struct cplan_cost *cost, const struct report_stats *st)
{
	if (a->cat == CAT_LIC_VCS || a->cat == CAT_LIC_NVAIE) {
		/* a licence bundled or priced at 0 still concerns the plan when it counts licences */
		enum lic_product p = a->cat == CAT_LIC_VCS ? LIC_VCS : LIC_NVAIE;
		if (cost->cat[a->cat] <= 0 && cost->lic_gpus[p] + cost->seats[p] == 0)
			return 0;
	} else if (a->cat >= 0 && cost->cat[a->cat] <= 0) {
		return 0;
	}
	return a->mode < 0 || st->nodes_by_mode[a->mode] > 0;
}

int report_assumption_matters(const struct assumption *a, const struct cplan *cp, const struct cplan_cost *cost,
			      const struct report_stats *st)
{
	if (!report_assumption_used(a, cost, st))
		return 0;
	return a->cat >= 0 || a->mode < 0 || (cplan_rule_modes(cp) & MODE_BIT(a->mode));
}
