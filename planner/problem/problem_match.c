/*
 * problem_match.c - which demand may use which node class (site, GPU
 * type, one node's CPU and RAM) and which slot type (mode, isolation,
 * VM, licence, memory, compute, whole GPUs).
 */
#include "problem.h"
#include "problem_match.h"
#include "util.h"
#include "banned.h"

static int has_site(const struct workload *w, const char *site)
{
	size_t i;
	if (!w->nsites)
		return 1;
	for (i = 0; i < w->nsites; i++)
		if (!str_casecmp(w->sites[i], site))
			return 1;
	return 0;
}

static int has_type(const struct workload *w, const struct gpu_type *g)
{
	size_t i;
	if (!w->ngpu_types)
		return 1;
	for (i = 0; i < w->ngpu_types; i++)
		if (w->gpu_types[i] == g)
			return 1;
	return 0;
}

/* Class-level rules: site, GPU type, CPU and RAM of one node. */
int problem_class_fits(const struct pclass *c, const struct workload *w)
{
	const struct node_class *nc = c->nc;
	return has_site(w, nc->site) && has_type(w, nc->gpu) && w->cpu_cores <= nc->cpu_cores &&
	       w->ram_gib <= nc->ram_gib && w->gpus <= nc->gpus_per_node;
}

int problem_slot_fits(const struct pclass *c, const struct slot_type *st, const struct workload *w)
{
	double ask_mib = w->gpu_mem_gib * 1024.0;

	if (!(w->modes & MODE_BIT(st->mode)) || !(node_class_modes(c->nc) & MODE_BIT(st->mode)))
		return 0;
	if (st->iso < w->iso)
		return 0;
	if (w->vm && !st->vm)
		return 0;
	if (w->needs_nvaie && st->lic != LIC_NVAIE)
		return 0;
	if (ask_mib > (double)st->memory_mib + 1e-9)
		return 0;
	if (w->gpus >= 1)
		return st->gpus == w->gpus;
	return st->gpus <= 1 && w->compute <= st->compute + 1e-9;
}

int problem_key_fits(const struct config *cf, int node_key)
{
	return !cf->node_key || !node_key || cf->node_key == node_key;
}
