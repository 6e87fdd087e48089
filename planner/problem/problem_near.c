/*
 * problem_near.c - the node class that comes nearest to hosting a
 * workload no class can host, and what it lacks: the site, the GPU
 * type, GPUs per node, GPU memory, CPU cores, RAM, a hypervisor for a
 * VM, an allowed mode, or (when it has all of those) a slot of its modes
 * with the memory, compute share and isolation asked (MIG geometry,
 * vGPU profiles, time-slicing).  The unplaced reason quotes it after the
 * binding constraint (problem.c, mark_unhostable).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "util.h"
#include "problem_near.h"
#include "banned.h"

/*
 * What a class lacks for w: the phrases, and the relative shortfall for
 * ties (a site or GPU type the workload excludes counts 2, more than any
 * size or capability, so that among classes lacking one thing the one of
 * the asked type and site comes first).
 */
struct lack {
	int n;			/* phrases */
	double dist;		/* relative shortfall, for ties */
};

static void say(struct sb *sb, struct lack *l, double dist, const char *text)
{
	sb_addf(sb, "%s%s", l->n ? ", " : "", text);
	l->n++;
	l->dist += dist;
}

static int in_sites(const struct node_class *nc, const struct workload *w)
{
	size_t i;
	for (i = 0; i < w->nsites; i++)
		if (!strcmp(w->sites[i], nc->site))
			return 1;
	return w->nsites == 0;
}

static int of_type(const struct node_class *nc, const struct workload *w)
{
	size_t i;
	for (i = 0; i < w->ngpu_types; i++)
		if (w->gpu_types[i] == nc->gpu)
			return 1;
	return w->ngpu_types == 0;
}

/* The modes of nc that w allows, at its isolation and VM boundary. */
static unsigned usable_modes(const struct node_class *nc, const struct workload *w)
{
	unsigned m = w->modes & node_class_modes(nc), out = 0;
	int i;

	for (i = 0; i < MODE_COUNT; i++)
		if ((m & MODE_BIT(i)) && mode_isolation((enum gpu_mode)i) >= w->iso)
			out |= MODE_BIT(i);
	return out;
}

static void lack_sizes(struct sb *sb, struct lack *l, const struct node_class *nc, const struct workload *w)
{
	double ask_mib = w->gpu_mem_gib * 1024.0;
	char a[64], b[64], t[200];

	if (w->gpus > nc->gpus_per_node) {
		snprintf(t, sizeof(t), "lacks %d GPUs per node (has %d)", w->gpus - nc->gpus_per_node,
			 nc->gpus_per_node);
		say(sb, l, (double)(w->gpus - nc->gpus_per_node) / w->gpus, t);
	}
	if (ask_mib > (double)nc->gpu->memory_mib) {
		snprintf(t, sizeof(t), "lacks %s GiB of GPU memory (its GPUs have %s GiB)",
			 fmt_num_short(a, sizeof(a), (ask_mib - (double)nc->gpu->memory_mib) / 1024.0, 2),
			 fmt_num_short(b, sizeof(b), (double)nc->gpu->memory_mib / 1024.0, 2));
		say(sb, l, 1 - (double)nc->gpu->memory_mib / ask_mib, t);
	}
	if (w->cpu_cores > nc->cpu_cores) {
		snprintf(t, sizeof(t), "lacks %s CPU cores (has %s)",
			 fmt_num_short(a, sizeof(a), w->cpu_cores - nc->cpu_cores, 2),
			 fmt_num_short(b, sizeof(b), nc->cpu_cores, 2));
		say(sb, l, 1 - nc->cpu_cores / w->cpu_cores, t);
	}
	if (w->ram_gib > nc->ram_gib) {
		snprintf(t, sizeof(t), "lacks %s GiB of RAM (has %s GiB)",
			 fmt_num_short(a, sizeof(a), w->ram_gib - nc->ram_gib, 2),
			 fmt_num_short(b, sizeof(b), nc->ram_gib, 2));
		say(sb, l, 1 - nc->ram_gib / w->ram_gib, t);
	}
}

/* The phrases for class nc into sb; *l counts them. */
static void lack_of(struct sb *sb, struct lack *l, const struct node_class *nc, const struct workload *w)
{
	unsigned modes = usable_modes(nc, w);
	char a[64], b[64], t[300];
	int m, k = 0;

	if (!in_sites(nc, w)) {
		snprintf(t, sizeof(t), "is at site %s, not one of its sites (%s%s)", nc->site, w->sites[0],
			 w->nsites > 1 ? ", ..." : "");
		say(sb, l, 2, t);
	}
	if (!of_type(nc, w)) {
		size_t i;
		snprintf(t, sizeof(t), "has %s GPUs, not one of its gpu_types (", nc->gpu->id);
		say(sb, l, 2, t);
		for (i = 0; i < w->ngpu_types; i++)
			sb_addf(sb, "%s%s", i ? ", " : "", w->gpu_types[i]->id);
		sb_adds(sb, ")");
	}
	lack_sizes(sb, l, nc, w);
	if (w->vm && !hypervisor_is_vm_host(nc->hv)) {
		snprintf(t, sizeof(t), "runs %s, no hypervisor for a VM (vm: true)", hypervisor_name(nc->hv));
		say(sb, l, 1, t);
	}
	if (!modes) {
		say(sb, l, 1, "runs none of the modes it allows at its isolation");
		return;
	}
	if (l->n)
		return;
	if (!nc->gpu->has_mig && !(modes & ~(MODE_BIT(MODE_MIG) | MODE_BIT(MODE_MIG_VGPU)))) {
		snprintf(t, sizeof(t), "its %s GPUs have no MIG, the only mode it allows here", nc->gpu->id);
		say(sb, l, 1, t);
		return;
	}
	/* the sizes fit: no slot of its modes does (MIG geometry, vGPU profiles, compute share) */
	sb_adds(sb, "no slot of its ");
	for (m = 0; m < MODE_COUNT; m++)
		if (modes & MODE_BIT(m))
			sb_addf(sb, "%s%s", k++ ? "/" : "", mode_name((enum gpu_mode)m));
	snprintf(t, sizeof(t), " mode%s holds %s GiB with compute %s (isolation %s)", k > 1 ? "s" : "",
		 fmt_num_short(a, sizeof(a), w->gpu_mem_gib, 2), fmt_num_short(b, sizeof(b), w->compute, 3),
		 isolation_name(w->iso));
	sb_adds(sb, t);
	l->n++;
}

char *problem_nearest_class(const struct problem *p, const struct workload *w)
{
	const struct inventory *inv = &p->sc->inventory;
	struct sb best;
	struct lack bl = { 0, 0 };
	size_t k, bk = 0;
	char *out;

	sb_init(&best);
	for (k = 0; k < inv->n; k++) {
		struct sb sb;
		struct lack l = { 0, 0 };
		sb_init(&sb);
		lack_of(&sb, &l, &inv->classes[k], w);
		if (k == 0 || l.n < bl.n || (l.n == bl.n && l.dist < bl.dist - 1e-12)) {
			sb_release(&best);
			best = sb;
			bl = l;
			bk = k;
		} else {
			sb_release(&sb);
		}
	}
	if (!inv->n) {
		sb_release(&best);
		return NULL;
	}
	{
		const struct node_class *nc = &inv->classes[bk];
		char *what = sb_detach(&best);
		out = xasprintf("nearest: class %s (%d x %s, %s, site %s): %s", nc->name, nc->gpus_per_node,
				nc->gpu->id, hypervisor_name(nc->hv), nc->site, what);
		free(what);
	}
	return out;
}
