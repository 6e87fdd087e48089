/*
 * problem_config.c - what a node class can offer: the per-GPU
 * configurations of each mode (MIG geometries from the placement table,
 * equal-size vGPU profiles, MIG-backed vGPU geometries, time-slice and
 * MPS with k = 2..max, node patterns of whole-GPU groups for
 * passthrough) and the slot types they create, in each licence variant
 * a mode needs.  Time-slice mixes of shares are in problem_share.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "problem_config.h"
#include "problem_share.h"
#include "problem_slot.h"
#include "util.h"
#include "banned.h"

static size_t keep_maximal(const struct gpu_type *gpu, struct mig_geometry *geo, size_t ngeo)
{
	size_t i, j, k;

	for (i = 0; i < ngeo; i++) {
		int cnt_i[MIG_MAX_PROFILES] = { 0 };
		int dominated = 0;
		for (k = 0; k < (size_t)geo[i].n; k++)
			cnt_i[geo[i].profile[k]]++;
		for (j = 0; j < ngeo && !dominated; j++) {
			int cnt_j[MIG_MAX_PROFILES] = { 0 }, sub = 1;
			if (j == i || geo[j].n <= geo[i].n)
				continue;
			for (k = 0; k < (size_t)geo[j].n; k++)
				cnt_j[geo[j].profile[k]]++;
			for (k = 0; k < gpu->mig.nprofiles; k++)
				if (cnt_i[k] > cnt_j[k])
					sub = 0;
			dominated = sub;
		}
		if (dominated) {
			geo[i].n = -1; /* mark */
		}
	}
	for (i = j = 0; i < ngeo; i++)
		if (geo[i].n >= 0)
			geo[j++] = geo[i];
	return j;
}

/*
 * MIG-backed vGPU: the geometries of gpu whose every instance has a
 * MIG-backed vGPU profile, maximal within that set, in *geop (*ngeop of
 * them), and per MIG profile its first MIG-backed vGPU profile or -1 in
 * *backedp; the caller frees both.  -1, with nothing set, when the GPU
 * has no MIG-backed vGPU or its geometries cannot be listed.
 */
static int mig_backed_geometries(const struct gpu_type *gpu, struct mig_geometry **geop, size_t *ngeop,
				 int **backedp)
{
	struct mig_geometry *all = NULL, *geo;
	size_t nall = 0, ngeo = 0, i, k;
	int *backed;

	if (!gpu->has_vgpu || !gpu->vgpu.nmig || mig_geometries_all(gpu, &all, &nall))
		return -1;
	backed = xcalloc(gpu->mig.nprofiles, sizeof(*backed));
	for (i = 0; i < gpu->mig.nprofiles; i++)
		backed[i] = -1;
	for (i = 0; i < gpu->vgpu.nmig; i++)
		if (backed[gpu->vgpu.mig_backed[i].gi_index] < 0)
			backed[gpu->vgpu.mig_backed[i].gi_index] = (int)i;
	geo = xcalloc(nall ? nall : 1, sizeof(*geo));
	for (i = 0; i < nall; i++) {
		int ok = all[i].n > 0;
		for (k = 0; k < (size_t)all[i].n; k++)
			if (backed[all[i].profile[k]] < 0)
				ok = 0;
		if (ok)
			geo[ngeo++] = all[i];
	}
	free(all);
	*geop = geo;
	*ngeop = keep_maximal(gpu, geo, ngeo);
	*backedp = backed;
	return 0;
}

/*
 * MIG strategy single (the device plugin exposes a node's MIG devices as
 * nvidia.com/gpu, so they must all be one profile): of geo[0 .. n - 1]
 * (every valid geometry) keep per profile the one with the most
 * instances of it alone; how many are left.
 */
static size_t keep_single(struct mig_geometry *geo, size_t n)
{
	size_t i, j, k;

	for (i = j = 0; i < n; i++) {
		int same = geo[i].n > 0;
		for (k = 1; k < (size_t)geo[i].n; k++)
			if (geo[i].profile[k] != geo[i].profile[0])
				same = 0;
		if (!same)
			continue;
		for (k = 0; k < j && geo[k].profile[0] != geo[i].profile[0]; k++)
			;
		if (k == j)
			geo[j++] = geo[i];
		else if (geo[i].n > geo[k].n)
			geo[k] = geo[i];
	}
	return j;
}

static void add_mig_configs(struct problem_enum_ctx *e, enum gpu_mode mode, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	struct mig_geometry *geo = NULL;
	size_t ngeo = 0, i, j;
	int vm = mode == MODE_MIG_VGPU;
	int *backed = NULL;

	if (!gpu->has_mig)
		return;
	if (mode == MODE_MIG && e->p->sc->mig_single) {
		if (mig_geometries_all(gpu, &geo, &ngeo))
			return;
		ngeo = keep_single(geo, ngeo);
	} else if (mode == MODE_MIG) {
		if (mig_geometries(gpu, &geo, &ngeo))
			return;
	} else if (mig_backed_geometries(gpu, &geo, &ngeo, &backed)) {
		return;
	}
	for (i = 0; i < ngeo; i++) {
		struct config *cf;
		char *gname = mig_geometry_name(gpu, &geo[i]);
		cf = problem_config_new(e->c, &e->cfcap, mode, lic, gname);
		cf->mig = geo[i];
		if (mode == MODE_MIG && e->p->sc->mig_single)
			cf->node_key = 1 + geo[i].profile[0];
		for (j = 0; j < (size_t)geo[i].n; j++) {
			const struct mig_profile *mp = &gpu->mig.profiles[geo[i].profile[j]];
			struct slot_type st;
			memset(&st, 0, sizeof(st));
			st.mode = mode;
			st.name = mode == MODE_MIG ? mp->name : gpu->vgpu.mig_backed[backed[geo[i].profile[j]]].name;
			st.memory_mib = mp->memory_mib;
			st.compute = mig_profile_share(gpu, mp);
			st.iso = ISO_HARDWARE;
			st.gpus = mp->compute_slices == gpu->mig.compute_slices &&
				  mp->memory_slices == gpu->mig.memory_slices;
			st.vm = vm;
			st.lic = lic;
			st.mig_profile = geo[i].profile[j];
			st.vgpu_profile = mode == MODE_MIG_VGPU ? backed[geo[i].profile[j]] : -1;
			problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), 1);
		}
	}
	free(backed);
	free(geo);
}

/*
 * Multi-vGPU VMs: for each multiset of the asked group sizes N (each at
 * most the hypervisor's per-VM limit) that fits a node, a node pattern of
 * VMs with N full-size vGPUs each, on GPUs of their own; the node's other
 * GPUs stay idle.  mult[i]: VMs of size group_sizes[i] so far.
 */
static void add_vgpu_patterns_rec(struct problem_enum_ctx *e, const struct slot_type *proto, int left, size_t from,
				  int *mult)
{
	const struct vgpu_profile *vp = &e->c->nc->gpu->vgpu.profiles[proto->vgpu_profile];
	size_t i;

	if (from == e->ngroup_sizes) {
		struct slot_type st = *proto;
		struct config *cf;
		struct sb name;
		int used = e->c->nc->gpus_per_node - left;

		if (!used)
			return;
		sb_init(&name);
		for (i = e->ngroup_sizes; i-- > 0;)
			if (mult[i])
				sb_addf(&name, "%s%sx%d*%d", name.len ? "+" : "", vp->name, e->group_sizes[i], mult[i]);
		cf = problem_config_new(e->c, &e->cfcap, MODE_VGPU, proto->lic, sb_detach(&name));
		sb_release(&name);
		cf->node_pattern = 1;
		cf->pattern_gpus = used;
		cf->vgpu_profile = proto->vgpu_profile;
		for (i = e->ngroup_sizes; i-- > 0;) {
			char nm[96];
			if (!mult[i])
				continue;
			snprintf(nm, sizeof(nm), "%sx%d", vp->name, e->group_sizes[i]);
			st.name = nm;
			st.gpus = e->group_sizes[i];
			problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), mult[i]);
		}
		return;
	}
	for (mult[from] = 0; mult[from] * e->group_sizes[from] <= left; mult[from]++) {
		if (mult[from] && e->group_sizes[from] > e->multi_max)
			break;
		add_vgpu_patterns_rec(e, proto, left - mult[from] * e->group_sizes[from], from + 1, mult);
	}
	mult[from] = 0;
}

static void add_vgpu_configs(struct problem_enum_ctx *e, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	size_t i;

	if (!gpu->has_vgpu)
		return;
	for (i = 0; i < gpu->vgpu.nprofiles; i++) {
		const struct vgpu_profile *vp = &gpu->vgpu.profiles[i];
		struct slot_type st;
		struct config *cf = problem_config_new(e->c, &e->cfcap, MODE_VGPU, lic,
					       xasprintf("%s*%d", vp->name, vp->max_equal));
		cf->vgpu_profile = (int)i;
		memset(&st, 0, sizeof(st));
		st.mode = MODE_VGPU;
		st.name = vp->name;
		st.memory_mib = vp->framebuffer_mib;
		st.compute = 1.0 / vp->max_equal; /* the fixed-share scheduler's share */
		st.iso = ISO_MEMORY;
		st.gpus = vp->max_equal == 1;
		st.vm = 1;
		st.lic = lic;
		st.mig_profile = -1;
		st.vgpu_profile = (int)i;
		problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), vp->max_equal);
		if (vp->max_equal == 1 && (int)i == catalog_full_vgpu(gpu) && e->multi_max >= 2) {
			int mult[64] = { 0 };
			add_vgpu_patterns_rec(e, &st, e->c->nc->gpus_per_node, 0, mult);
		}
	}
}

static void add_shared_configs(struct problem_enum_ctx *e, enum gpu_mode mode, int kmax, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	int k;

	for (k = 2; k <= kmax; k++) {
		struct slot_type st;
		char name[32];
		struct config *cf;

		snprintf(name, sizeof(name), "%s%d", mode == MODE_MPS ? "mps" : "ts", k);
		cf = problem_config_new(e->c, &e->cfcap, mode, lic, xstrdup(name));
		cf->k = k;
		/* the device plugin's one replicas value per node (a share mix is another layer's) */
		cf->node_key = mode == MODE_TIMESLICE && e->p->sc->timeslice_shares ? 0 : k;
		memset(&st, 0, sizeof(st));
		st.mode = mode;
		st.name = name;
		st.memory_mib = gpu->memory_mib / k;
		/* MPS: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE = 100 / k, an integer. */
		st.compute = mode == MODE_MPS ? (double)(100 / k) / 100.0 : 1.0 / k;
		st.iso = mode == MODE_MPS ? ISO_MEMORY : ISO_NONE;
		st.gpus = 0;
		st.vm = 0;
		st.lic = lic;
		st.mig_profile = st.vgpu_profile = -1;
		problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), k);
	}
}

/* Partitions of g into the group sizes (plus 1s), as node patterns. */
static void add_patterns_rec(struct problem_enum_ctx *e, int remaining, size_t from, int *mult)
{
	size_t i;
	if (from == e->ngroup_sizes) {
		struct slot_type st;
		struct config *cf;
		struct sb name;
		int singles = remaining;

		sb_init(&name);
		for (i = e->ngroup_sizes; i-- > 0;)
			if (mult[i])
				sb_addf(&name, "%sgpu%d*%d", name.len ? "+" : "", e->group_sizes[i], mult[i]);
		if (singles)
			sb_addf(&name, "%sgpu1*%d", name.len ? "+" : "", singles);
		cf = problem_config_new(e->c, &e->cfcap, MODE_PASSTHROUGH, LIC_NONE, sb_detach(&name));
		sb_release(&name);
		cf->node_pattern = 1;
		memset(&st, 0, sizeof(st));
		st.mode = MODE_PASSTHROUGH;
		st.memory_mib = e->c->nc->gpu->memory_mib;
		st.compute = 1;
		st.iso = ISO_EXCLUSIVE;
		st.vm = hypervisor_is_vm_host(e->c->nc->hv);
		st.lic = LIC_NVAIE; /* licences are bought per GPU on the arc, as the replica needs */
		st.mig_profile = st.vgpu_profile = -1;
		for (i = e->ngroup_sizes; i-- > 0;) {
			char nm[32];
			if (!mult[i])
				continue;
			snprintf(nm, sizeof(nm), "gpu%d", e->group_sizes[i]);
			st.name = nm;
			st.gpus = e->group_sizes[i];
			problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), mult[i]);
		}
		if (singles) {
			char one[] = "gpu1";
			st.name = one;
			st.gpus = 1;
			problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), singles);
		}
		return;
	}
	for (mult[from] = 0; mult[from] * e->group_sizes[from] <= remaining; mult[from]++)
		add_patterns_rec(e, remaining - mult[from] * e->group_sizes[from], from + 1, mult);
	mult[from] = 0;
}

static void add_passthrough_configs(struct problem_enum_ctx *e)
{
	int mult[64] = { 0 };
	add_patterns_rec(e, e->c->nc->gpus_per_node, 0, mult);
}

/* Enumerates a mode's configurations in the licence variants it needs. */
static void add_mode(struct problem_enum_ctx *e, enum gpu_mode m)
{
	enum lic_product base = e->p->pr->cls[e->c->index]->mode_product[m];
	enum lic_product v[2];
	int nv = 0, i;

	v[nv++] = base;
	if (e->want_nvaie && base != LIC_NVAIE)
		v[nv++] = LIC_NVAIE;
	for (i = 0; i < nv; i++) {
		switch (m) {
		case MODE_VGPU:
			add_vgpu_configs(e, v[i]);
			break;
		case MODE_MIG_VGPU:
		case MODE_MIG:
			add_mig_configs(e, m, v[i]);
			break;
		case MODE_TIMESLICE:
			add_shared_configs(e, m, e->p->sc->timeslice_max, v[i]);
			if (e->p->sc->timeslice_shares)
				problem_add_share_configs(e, v[i]);
			break;
		case MODE_MPS:
			add_shared_configs(e, m, e->p->sc->mps_max, v[i]);
			break;
		default:
			break;
		}
	}
}

void problem_enumerate(struct problem_enum_ctx *e)
{
	unsigned hv = node_class_modes(e->c->nc);
	int m;

	if (hv & MODE_BIT(MODE_PASSTHROUGH))
		add_passthrough_configs(e);
	for (m = 0; m < MODE_COUNT; m++)
		if (m != MODE_PASSTHROUGH && (hv & MODE_BIT(m)))
			add_mode(e, (enum gpu_mode)m);
}
