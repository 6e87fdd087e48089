/*
 * scenario_host.c - whether a workload can ever be hosted by a loaded
 * scenario, and why not (scenario_unhostable): sites and GPU types, the
 * largest node, the modes the classes' hypervisors allow, a slot of some
 * allowed mode, and the hypervisors' multi-vGPU limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

#define COMPUTE_EPS 1e-9

int scenario_class_allows(const struct node_class *nc, const struct workload *w)
{
	size_t i;
	int ok = w->nsites == 0;
	for (i = 0; i < w->nsites && !ok; i++)
		ok = !strcmp(w->sites[i], nc->site);
	if (!ok)
		return 0;
	if (w->ngpu_types == 0)
		return 1;
	for (i = 0; i < w->ngpu_types; i++)
		if (w->gpu_types[i] == nc->gpu)
			return 1;
	return 0;
}

/* Whether a slot of mem_mib MiB and a compute share fits the ask. */
static int fits(double ask_mib, double compute, double mem_mib, double share)
{
	return ask_mib <= mem_mib && compute <= share + COMPUTE_EPS;
}

/*
 * Whether one GPU of type g in mode m offers a slot for a replica of w
 * (gpus 0: a fraction; gpus 1: a whole GPU or a full-size slot; gpus >= 2:
 * passthrough only).
 */
static int mode_has_slot(const struct gpu_type *g, enum gpu_mode m, const struct workload *w)
{
	double ask = w->gpu_mem_gib * 1024.0;
	double compute = w->gpus >= 1 ? 1.0 : w->compute;
	int whole = w->gpus >= 1;
	size_t i;

	switch (m) {
	case MODE_PASSTHROUGH:
		return fits(ask, compute, (double)g->memory_mib, 1.0);
	case MODE_MIG:
		if (!g->has_mig || w->gpus >= 2)
			return 0;
		for (i = 0; i < g->mig.nprofiles; i++) {
			const struct mig_profile *p = &g->mig.profiles[i];
			double share = mig_profile_share(g, p);
			if (p->media_ext || (whole && p->compute_slices != g->mig.compute_slices))
				continue;
			if (fits(ask, whole ? 0.0 : compute, (double)p->memory_mib, share))
				return 1;
		}
		return 0;
	case MODE_MIG_VGPU:
		if (!g->has_mig || !g->has_vgpu || w->gpus >= 2)
			return 0;
		for (i = 0; i < g->vgpu.nmig; i++) {
			int gi = g->vgpu.mig_backed[i].gi_index;
			const struct mig_profile *p;
			double share;
			if (gi < 0 || (size_t)gi >= g->mig.nprofiles)
				continue;
			p = &g->mig.profiles[gi];
			share = mig_profile_share(g, p);
			if (p->media_ext || (whole && p->compute_slices != g->mig.compute_slices))
				continue;
			if (fits(ask, whole ? 0.0 : compute, (double)p->memory_mib, share))
				return 1;
		}
		return 0;
	case MODE_VGPU:
		if (!g->has_vgpu || w->gpus >= 2)
			return 0;
		for (i = 0; i < g->vgpu.nprofiles; i++) {
			const struct vgpu_profile *p = &g->vgpu.profiles[i];
			if (whole && p->max_equal != 1)
				continue;
			if (fits(ask, compute, (double)p->framebuffer_mib, 1.0 / p->max_equal))
				return 1;
		}
		return 0;
	case MODE_TIMESLICE:
	case MODE_MPS:
		if (whole)
			return 0;
		return fits(ask, compute, (double)g->memory_mib / 2.0, 0.5);
	case MODE_COUNT:
		break;
	}
	return 0;
}

/* One class must have it all at once, not just the largest of each. */
/* One class must have it all at once, not just the largest of each. */
static int class_big_enough(const struct node_class *nc, const struct workload *w)
{
	return scenario_class_allows(nc, w) && w->gpus <= nc->gpus_per_node && w->cpu_cores <= nc->cpu_cores &&
	       w->ram_gib <= nc->ram_gib;
}

/* Why a mode can never run, whatever the sizes. */
enum mode_misfit {
	MISFIT_NONE,		/* some class could run it: a question of sizes */
	MISFIT_HYPERVISOR,	/* vGPU, and no class runs a hypervisor */
	MISFIT_NO_MIG,		/* MIG, and no class that allows it has a MIG GPU */
	MISFIT_NO_VGPU,		/* vGPU, and no class that allows it has vGPU profiles */
	MISFIT_COUNT
};

static int gpu_runs(const struct gpu_type *g, enum gpu_mode m)
{
	if ((m == MODE_MIG || m == MODE_MIG_VGPU) && !g->has_mig)
		return 0;
	return !((m == MODE_VGPU || m == MODE_MIG_VGPU) && !g->has_vgpu);
}

static enum mode_misfit misfit_of(const struct inventory *inv, const struct workload *w, enum gpu_mode m)
{
	int on_hv = 0, mig = 0;
	size_t i;

	for (i = 0; i < inv->n; i++) {
		const struct node_class *nc = &inv->classes[i];
		if (!class_big_enough(nc, w) || !(node_class_modes(nc) & MODE_BIT(m)))
			continue;
		on_hv = 1;
		if (gpu_runs(nc->gpu, m))
			return MISFIT_NONE;
		mig |= nc->gpu->has_mig;
	}
	if (!on_hv)	/* a mode no class allows: vGPU on no hypervisor (else k8s_workers vgpu classes only) */
		return m == MODE_VGPU || m == MODE_MIG_VGPU ? MISFIT_HYPERVISOR : MISFIT_NONE;
	return (m == MODE_MIG || m == MODE_MIG_VGPU) && !mig ? MISFIT_NO_MIG : MISFIT_NO_VGPU;
}

/* ", a, b and c" of the distinct words: the hypervisors or GPU types of the classes; "" for none. */
static void add_class_words(struct sb *sb, const struct inventory *inv, const struct workload *w,
			    enum mode_misfit why, unsigned modes)
{
	const char **words = xcalloc(inv->n + 1, sizeof(*words));
	size_t i, k, n = 0;

	for (i = 0; i < inv->n; i++) {
		const struct node_class *nc = &inv->classes[i];
		const char *word = why == MISFIT_HYPERVISOR ? hypervisor_name(nc->hv) : nc->gpu->id;
		if (!class_big_enough(nc, w) || (why != MISFIT_HYPERVISOR && !(node_class_modes(nc) & modes)))
			continue;
		for (k = 0; k < n && strcmp(words[k], word); k++)
			;
		if (k == n)
			words[n++] = word;
	}
	for (k = 0; k < n; k++)
		sb_addf(sb, "%s%s", k == 0 ? "" : k + 1 == n ? " and " : ", ", words[k]);
	if (why != MISFIT_HYPERVISOR)
		sb_adds(sb, n == 1 ? " has none" : " have none");
	free(words);
}

/*
 * The known misconceptions, said as such: vGPU (vgpu, mig-vgpu) asked
 * where no class runs a hypervisor, MIG asked of GPUs without MIG, vGPU
 * of GPUs without vGPU profiles.  NULL unless every mode the workload
 * allows (at its isolation) fails for one of these reasons.
 */
static char *modes_misfit(const struct scenario *sc, const struct workload *w)
{
	static const char *const needs[MISFIT_COUNT] = {
		NULL,
		"a hypervisor (vsphere or kvm) to run vGPU, and the allowed node classes run ",
		"a GPU with MIG, and ",
		"a GPU with vGPU profiles, and ",
	};
	unsigned by[MISFIT_COUNT] = { 0 };
	struct sb sb;
	int m, r, first = 1;

	if (w->modes == MODE_ALL)
		return NULL;	/* no mode asked for */
	for (m = 0; m < MODE_COUNT; m++) {
		if (!(w->modes & MODE_BIT(m)) || mode_isolation((enum gpu_mode)m) < w->iso)
			continue;
		r = misfit_of(&sc->inventory, w, (enum gpu_mode)m);
		if (r == MISFIT_NONE)
			return NULL;
		by[r] |= MODE_BIT(m);
	}
	sb_init(&sb);
	for (r = MISFIT_HYPERVISOR; r < MISFIT_COUNT; r++) {
		int k = 0, total = 0;
		if (!by[r])
			continue;
		for (m = 0; m < MODE_COUNT; m++)
			total += (by[r] & MODE_BIT(m)) != 0;
		sb_adds(&sb, first ? "" : "; ");
		for (m = 0; m < MODE_COUNT; m++)
			if (by[r] & MODE_BIT(m))
				sb_addf(&sb, "%s%s", k++ == 0 ? "" : k == total ? " and " : ", ", mode_name((enum gpu_mode)m));
		sb_addf(&sb, " need%s %s", total == 1 ? "s" : "", needs[r]);
		add_class_words(&sb, &sc->inventory, w, (enum mode_misfit)r, by[r]);
		first = 0;
	}
	if (first) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

/*
 * Whether a replica of w (gpus >= 2) fits one VM of full-size vGPUs on
 * class nc; when only the hypervisor's per-VM limit stops it, its rule
 * in *over.
 */
static int multi_vgpu_fits(const struct scenario *sc, const struct node_class *nc, const struct workload *w,
			   const struct multi_vgpu **over)
{
	const struct multi_vgpu *mv = catalog_multi_vgpu(&sc->catalog, hypervisor_name(nc->hv));
	int full = catalog_full_vgpu(nc->gpu);

	if (full < 0 || w->gpu_mem_gib * 1024.0 > (double)nc->gpu->vgpu.profiles[full].framebuffer_mib)
		return 0;
	if (mv && w->gpus <= mv->max_per_vm)
		return 1;
	if (mv)
		*over = mv;
	return 0;
}

/* Why no allowed node class is large enough for one replica of w, or NULL when one may be. */
static char *largest_misfit(const struct inventory *inv, const struct workload *w)
{
	double ask_mib = w->gpu_mem_gib * 1024.0, max_cpu = 0, max_ram = 0;
	long max_mem = 0;
	int max_gpus = 0, any = 0, vm_host = 0;
	char a[64], b[64];
	size_t i;

	for (i = 0; i < inv->n; i++) {
		const struct node_class *nc = &inv->classes[i];
		if (!scenario_class_allows(nc, w))
			continue;
		any = 1;
		if (nc->gpus_per_node > max_gpus)
			max_gpus = nc->gpus_per_node;
		if (nc->gpu->memory_mib > max_mem)
			max_mem = nc->gpu->memory_mib;
		if (nc->cpu_cores > max_cpu)
			max_cpu = nc->cpu_cores;
		if (nc->ram_gib > max_ram)
			max_ram = nc->ram_gib;
		if (hypervisor_is_vm_host(nc->hv))
			vm_host = 1;
	}
	if (!any)
		return xstrdup("no node class matches its sites/gpu_types");
	if (w->gpus > max_gpus)
		return xasprintf("asks %d GPUs per replica, the largest node has %d", w->gpus, max_gpus);
	if (ask_mib > (double)max_mem)
		return xasprintf("asks %s GiB of GPU memory, the largest allowed GPU has %s GiB usable (%ld MiB)",
				 fmt_num_short(a, sizeof(a), w->gpu_mem_gib, 6),
				 fmt_num_short(b, sizeof(b), (double)max_mem / 1024.0, 2), max_mem);
	if (w->cpu_cores > max_cpu)
		return xasprintf("asks %s CPU cores per replica, the largest node has %s",
				 fmt_num_short(a, sizeof(a), w->cpu_cores, 6), fmt_num_short(b, sizeof(b), max_cpu, 6));
	if (w->ram_gib > max_ram)
		return xasprintf("asks %s GiB of RAM per replica, the largest node has %s GiB",
				 fmt_num_short(a, sizeof(a), w->ram_gib, 6), fmt_num_short(b, sizeof(b), max_ram, 6));
	if (w->vm && !vm_host)
		return xstrdup("needs a VM (vm: true) but no allowed node class runs vsphere or kvm");
	return NULL;
}

/* The first multi-vGPU VM limit that kept w off a node class, and that class. */
struct vm_limit {
	const struct multi_vgpu *over;
	const struct node_class *nc;
};

/* Whether some mode of a node class big enough for w hosts one replica; *any_big says if any is. */
static int some_mode_hosts(const struct scenario *sc, const struct workload *w, struct vm_limit *lim, int *any_big)
{
	const unsigned vm_modes = MODE_BIT(MODE_VGPU) | MODE_BIT(MODE_MIG_VGPU) | MODE_BIT(MODE_PASSTHROUGH);
	size_t i;
	int m;

	for (i = 0; i < sc->inventory.n; i++) {
		const struct node_class *nc = &sc->inventory.classes[i];
		unsigned modes;
		if (!class_big_enough(nc, w))
			continue;
		*any_big = 1;
		modes = w->modes & node_class_modes(nc);
		if (w->vm)
			modes &= hypervisor_is_vm_host(nc->hv) ? vm_modes : 0;
		for (m = 0; m < MODE_COUNT; m++) {
			if (!(modes & MODE_BIT(m)) || mode_isolation((enum gpu_mode)m) < w->iso)
				continue;
			if (m == MODE_VGPU && w->gpus >= 2) {
				const struct multi_vgpu *o = NULL;
				if (multi_vgpu_fits(sc, nc, w, &o))
					return 1;
				if (o && !lim->over) {
					lim->over = o;
					lim->nc = nc;
				}
				continue;
			}
			if (mode_has_slot(nc->gpu, (enum gpu_mode)m, w))
				return 1;
		}
	}
	return 0;
}

/* Why no allowed mode gives w what it asks, when nothing more particular is known. */
static char *no_mode(const struct workload *w)
{
	char a[64], b[64];

	if (w->gpus >= 1) {
		if (w->gpu_mem_gib > 0)
			return xasprintf("no allowed mode offers %s with %s GiB (isolation %s)",
					 w->gpus == 1 ? "a whole GPU" : "whole GPUs",
					 fmt_num_short(a, sizeof(a), w->gpu_mem_gib, 6), isolation_name(w->iso));
		return xasprintf("no allowed mode offers %s (isolation %s)",
				 w->gpus == 1 ? "a whole GPU" : "whole GPUs", isolation_name(w->iso));
	}
	return xasprintf("no allowed mode offers a slot with %s GiB and compute %s (isolation %s)",
			 fmt_num_short(a, sizeof(a), w->gpu_mem_gib, 6), fmt_num_short(b, sizeof(b), w->compute, 6),
			 isolation_name(w->iso));
}

char *scenario_unhostable(const struct scenario *sc, const struct workload *w)
{
	struct vm_limit lim = { NULL, NULL };
	int any_big = 0;
	char *why = largest_misfit(&sc->inventory, w);

	if (why)
		return why;
	if (some_mode_hosts(sc, w, &lim, &any_big))
		return NULL;
	if (!any_big)
		return xstrdup("no single allowed node class has enough GPUs, CPU cores and RAM at once");
	if (lim.over)
		return xasprintf("asks %d GPUs per replica: as vGPUs of one VM, %s ('%s', %s) allows at most %d "
				 "full-size vGPUs per VM on %s (%s%s)",
				 w->gpus, lim.over->release, lim.nc->name, lim.over->hypervisor, lim.over->max_per_vm,
				 lim.nc->gpu->id, lim.over->source, lim.over->assumed ? "; assumed" : "");
	why = modes_misfit(sc, w);
	return why ? why : no_mode(w);
}
