/*
 * models_check.c - consistency checks of a loaded GPU catalog beyond what
 * catalog_load checks entry by entry (models.h): what a GPU's MIG table
 * implies as a whole, that every MIG compute share is read or marked
 * assumed, and the uniqueness of vGPU names.
 */
#include <string.h>

#include "mig.h"
#include "models.h"
#include "util.h"
#include "banned.h"

/*
 * The SM count of MIG profile p of g: at most the GPU's, and monotone with
 * the compute slices (a profile of fewer slices has no more SMs than one of
 * more; profiles of the same slices may differ: H100 1g.10gb 16, 1g.20gb 26).
 */
static int check_sms(const struct gpu_type *g, const struct mig_profile *p, struct diag *d)
{
	size_t j;

	if (!p->sms)
		return 0;
	if (g->sms && p->sms > g->sms)
		return diag_set(d, DIAG_INPUT, g->file, p->line, 0, "GPU '%s': MIG profile '%s' has %d SMs, the GPU %d",
				g->id, p->name, p->sms, g->sms);
	for (j = 0; j < g->mig.nprofiles; j++) {
		const struct mig_profile *q = &g->mig.profiles[j];
		if (q->sms && q->compute_slices > p->compute_slices && q->sms < p->sms)
			return diag_set(d, DIAG_INPUT, g->file, q->line, 0,
					"GPU '%s': MIG profile '%s' (%d compute slices) has %d SMs, fewer than "
					"'%s' (%d compute slice%s, %d SMs)",
					g->id, q->name, q->compute_slices, q->sms, p->name, p->compute_slices,
					p->compute_slices == 1 ? "" : "s", p->sms);
	}
	return 0;
}

/* The MIG table of g: every profile's instances fit the GPU's slices and starts. */
static int check_mig(const struct gpu_type *g, struct diag *d)
{
	const struct mig_info *m = &g->mig;
	size_t i;

	for (i = 0; i < m->nprofiles; i++) {
		const struct mig_profile *p = &m->profiles[i];
		if (p->max_instances > p->nstarts)
			return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
					"GPU '%s': MIG profile '%s' allows %d instances but has %d start%s", g->id,
					p->name, p->max_instances, p->nstarts, p->nstarts == 1 ? "" : "s");
		if (p->max_instances * p->memory_slices > m->memory_slices)
			return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
					"GPU '%s': %d instances of MIG profile '%s' take %d memory slices, the GPU has %d",
					g->id, p->max_instances, p->name, p->max_instances * p->memory_slices,
					m->memory_slices);
		if (p->max_instances * p->compute_slices > m->compute_slices)
			return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
					"GPU '%s': %d instances of MIG profile '%s' take %d compute slices, the GPU has %d",
					g->id, p->max_instances, p->name, p->max_instances * p->compute_slices,
					m->compute_slices);
		if (check_sms(g, p, d))
			return -1;
		if (p->memory_mib > g->memory_mib)
			return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
					"GPU '%s': MIG profile '%s' has %ld MiB, more than the GPU's %ld MiB", g->id,
					p->name, p->memory_mib, g->memory_mib);
	}
	return 0;
}

/* The vGPU tables of g: names unique across both, MIG-backed counts within their GPU instance's. */
static int check_vgpu(const struct gpu_type *g, struct diag *d)
{
	const struct vgpu_info *v = &g->vgpu;
	size_t i, j;

	for (i = 0; i < v->nmig; i++) {
		const struct vgpu_mig_profile *mp = &v->mig_backed[i];
		const struct mig_profile *gi = &g->mig.profiles[mp->gi_index];
		for (j = 0; j < v->nprofiles; j++)
			if (!str_casecmp(v->profiles[j].name, mp->name))
				return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
						"GPU '%s': vGPU profile '%s' is both time-sliced and MIG-backed", g->id,
						mp->name);
		for (j = 0; j < i; j++)
			if (!str_casecmp(v->mig_backed[j].name, mp->name))
				return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
						"GPU '%s': duplicate MIG-backed vGPU profile '%s'", g->id, mp->name);
		if (mp->max > gi->max_instances)
			return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
					"GPU '%s': MIG-backed vGPU profile '%s' allows %d, its GPU instance '%s' %d", g->id,
					mp->name, mp->max, gi->name, gi->max_instances);
	}
	return 0;
}

/*
 * One compute-share rule for every MIG GPU (mig_profile_share): SMs of the
 * profile / SMs of the GPU where both are read, else slices / compute
 * slices, which is an assumption the GPU must carry (sms_assumed); an SM
 * count the share uses needs its source.
 */
static int check_sm_marks(const struct gpu_type *g, struct diag *d)
{
	size_t i;

	if (g->sms_assumed)
		return 0;
	if (g->sms && !g->sms_source)
		return diag_set(d, DIAG_INPUT, g->file, g->line, 0,
				"GPU '%s': MIG compute shares use its %d SMs, which have no 'sms_source' and no "
				"'sms_assumed: true'",
				g->id, g->sms);
	for (i = 0; i < g->mig.nprofiles; i++)
		if (!mig_profile_share_from_sms(g, &g->mig.profiles[i]))
			return diag_set(d, DIAG_INPUT, g->file, g->mig.profiles[i].line, 0,
					"GPU '%s': MIG profile '%s' has no SM count read (its compute share is "
					"slices / %d) and the GPU no 'sms_assumed: true'",
					g->id, g->mig.profiles[i].name, g->mig.compute_slices);
	return 0;
}

int models_check_catalog(const struct catalog *cat, struct diag *d)
{
	size_t i;
	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		if ((g->has_mig && (check_mig(g, d) || check_sm_marks(g, d))) || (g->has_vgpu && check_vgpu(g, d)))
			return -1;
	}
	return 0;
}
