/*
 * problem.c - configuration enumeration, matching rules and costs.
 *
 * Per node class and mode the GPU's possible partitions are enumerated
 * (MIG geometries from the placement table, equal-size vGPU profiles,
 * MIG-backed vGPU geometries, time-slice and MPS with k = 2..max,
 * time-slice mixes of shares packed from the demand when asked, node
 * patterns of whole-GPU groups for passthrough).  Slot types that no
 * demand can use are dropped from configurations, configurations left
 * without a useful slot are dropped, and a configuration whose useful
 * slots are a sub-multiset of another's (same mode, same licence, no
 * cheaper) is dominated and dropped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "util.h"
#include "banned.h"

/* ================= slot types and configurations ================= */

static int slot_type_get(struct pclass *c, size_t *cap, const struct slot_type *proto)
{
	size_t i;
	for (i = 0; i < c->nslot_types; i++) {
		const struct slot_type *s = &c->slot_types[i];
		if (s->mode == proto->mode && s->lic == proto->lic && !strcmp(s->name, proto->name))
			return (int)i;
	}
	XGROW(c->slot_types, *cap, c->nslot_types + 1);
	c->slot_types[c->nslot_types] = *proto;
	c->slot_types[c->nslot_types].name = xstrdup(proto->name);
	return (int)c->nslot_types++;
}

static void config_add_slot(struct config *cf, int slot, int count)
{
	size_t i;
	for (i = 0; i < cf->nslots; i++) {
		if (cf->slot[i] == slot) {
			cf->count[i] += count;
			return;
		}
	}
	cf->slot = xrealloc(cf->slot, (cf->nslots + 1) * sizeof(*cf->slot));
	cf->count = xrealloc(cf->count, (cf->nslots + 1) * sizeof(*cf->count));
	cf->slot[cf->nslots] = slot;
	cf->count[cf->nslots] = count;
	cf->nslots++;
}

static struct config *config_new(struct pclass *c, size_t *cap, enum gpu_mode mode, enum lic_product lic,
				 char *name)
{
	struct config *cf;
	XGROW(c->configs, *cap, c->nconfigs + 1);
	cf = &c->configs[c->nconfigs++];
	memset(cf, 0, sizeof(*cf));
	cf->mode = mode;
	cf->lic = lic;
	cf->name = name;
	cf->vgpu_profile = -1;
	return cf;
}

static void config_free(struct config *cf)
{
	free(cf->name);
	free(cf->slot);
	free(cf->count);
	free(cf->real_slot);
	free(cf->real_count);
}

struct enum_ctx {
	struct problem *p;
	struct pclass *c;
	size_t stcap, cfcap;
	int want_nvaie;		/* some demand needs NVAIE */
	int *group_sizes;	/* passthrough group sizes >= 2 asked, ascending */
	size_t ngroup_sizes;
};

static void add_mig_configs(struct enum_ctx *e, enum gpu_mode mode, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	struct mig_geometry *geo = NULL;
	size_t ngeo = 0, i, j;
	int vm = mode == MODE_MIG_VGPU;
	int *backed = NULL;

	if (!gpu->has_mig)
		return;
	if (mode == MODE_MIG) {
		if (mig_geometries(gpu, &geo, &ngeo))
			return;
	} else {
		/*
		 * MIG-backed vGPU: the geometries whose every instance has a
		 * MIG-backed vGPU profile, maximal within that set.
		 */
		struct mig_geometry *all = NULL;
		size_t nall = 0, k;
		if (!gpu->has_vgpu || !gpu->vgpu.nmig || mig_geometries_all(gpu, &all, &nall))
			return;
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
		/* keep the maximal ones */
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
		ngeo = j;
	}
	for (i = 0; i < ngeo; i++) {
		struct config *cf;
		char *gname = mig_geometry_name(gpu, &geo[i]);
		cf = config_new(e->c, &e->cfcap, mode, lic, gname);
		cf->mig = geo[i];
		for (j = 0; j < (size_t)geo[i].n; j++) {
			const struct mig_profile *mp = &gpu->mig.profiles[geo[i].profile[j]];
			struct slot_type st;
			memset(&st, 0, sizeof(st));
			st.mode = mode;
			st.name = mode == MODE_MIG ? mp->name : gpu->vgpu.mig_backed[backed[geo[i].profile[j]]].name;
			st.memory_mib = mp->memory_mib;
			st.compute = (double)mp->compute_slices / gpu->mig.compute_slices;
			st.iso = ISO_HARDWARE;
			st.gpus = mp->compute_slices == gpu->mig.compute_slices &&
				  mp->memory_slices == gpu->mig.memory_slices;
			st.vm = vm;
			st.lic = lic;
			st.mig_profile = geo[i].profile[j];
			st.vgpu_profile = mode == MODE_MIG_VGPU ? backed[geo[i].profile[j]] : -1;
			config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), 1);
		}
	}
	free(backed);
	free(geo);
}

static void add_vgpu_configs(struct enum_ctx *e, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	size_t i;

	if (!gpu->has_vgpu)
		return;
	for (i = 0; i < gpu->vgpu.nprofiles; i++) {
		const struct vgpu_profile *vp = &gpu->vgpu.profiles[i];
		struct slot_type st;
		struct config *cf = config_new(e->c, &e->cfcap, MODE_VGPU, lic,
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
		config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), vp->max_equal);
	}
}

static void add_shared_configs(struct enum_ctx *e, enum gpu_mode mode, int kmax, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	int k;

	for (k = 2; k <= kmax; k++) {
		struct slot_type st;
		char name[32];
		struct config *cf;

		snprintf(name, sizeof(name), "%s%d", mode == MODE_MPS ? "mps" : "ts", k);
		cf = config_new(e->c, &e->cfcap, mode, lic, xstrdup(name));
		cf->k = k;
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
		config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), k);
	}
}

/*
 * Time-slice with shares (sharing.timeslice_shares): a GPU may hold
 * replicas of different compute shares as long as the shares sum to at
 * most one GPU and the replicas to at most timeslice_max; a slot of share
 * u/1000 offers that share of compute and of memory.  This needs a
 * sharing layer that enforces per-pod shares (HAMi, Alibaba cGPU); the
 * device plugin's time-slicing only makes k equal replicas.
 *
 * The mixes offered are the fill patterns (Gilmore-Gomory columns) that
 * a best-fit-decreasing packing of this class's own demand produces:
 * each demand that may time-slice here asks the larger of its compute
 * share and its memory share, rounded up to 1/1000; bins that end up
 * alike are one pattern.  The most used SHARE_MAX_PATTERNS patterns with
 * two or more slots become configurations, next to the equal ts k ones.
 */
enum { SHARE_UNIT = 1000, SHARE_MAX_PATTERNS = 32, SHARE_MAX_GROUPS = 4096, SHARE_MAX_SLOTS = 48 };

static int class_fits(const struct pclass *c, const struct workload *w);

struct share_item {
	int u;			/* share in 1/SHARE_UNIT */
	long n;			/* replicas */
};

struct share_group {
	int n, fill;		/* slots, sum of shares */
	int item[SHARE_MAX_SLOTS];	/* shares, descending */
	long count;		/* bins packed alike */
};

static int share_item_cmp(const void *a, const void *b)
{
	const struct share_item *x = a, *y = b;
	return (y->u > x->u) - (y->u < x->u);
}

static int share_group_cmp(const void *a, const void *b)
{
	const struct share_group *x = a, *y = b;
	int i;
	if (x->count != y->count)
		return (y->count > x->count) - (y->count < x->count);
	for (i = 0; i < x->n && i < y->n; i++)
		if (x->item[i] != y->item[i])
			return (y->item[i] > x->item[i]) - (y->item[i] < x->item[i]);
	return (x->n > y->n) - (x->n < y->n);
}

static int share_group_same(const struct share_group *x, const struct share_group *y)
{
	return x->n == y->n && !memcmp(x->item, y->item, (size_t)x->n * sizeof(x->item[0]));
}

static void share_fill(struct share_group *g, int u, long t)
{
	for (; t > 0; t--) {
		g->item[g->n++] = u;
		g->fill += u;
	}
}

/* The share a replica of w asks on a GPU of memory gpu_mib; 0 when none fits in a mix. */
static int share_of(const struct workload *w, long gpu_mib)
{
	double f = w->compute, m = w->gpu_mem_gib * 1024.0 / (double)gpu_mib;
	long u;
	if (m > f)
		f = m;
	u = (long)ceil(f * SHARE_UNIT - 1e-6);
	if (u < 1)
		u = 1;
	return u >= SHARE_UNIT ? 0 : (int)u;
}

static void add_share_configs(struct enum_ctx *e, enum lic_product lic)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	const struct workloads *wl = &e->p->sc->workloads;
	int kmax = e->p->sc->timeslice_max;
	struct share_item *it = xcalloc(wl->n + 1, sizeof(*it));
	struct share_group *g = NULL;
	struct slot_type whole;
	size_t nit = 0, ng = 0, gcap = 0, i, j, npat;

	if (kmax > SHARE_MAX_SLOTS)
		kmax = SHARE_MAX_SLOTS;
	/* what a time-slice slot could offer at most: the whole GPU's memory and compute */
	memset(&whole, 0, sizeof(whole));
	whole.mode = MODE_TIMESLICE;
	whole.memory_mib = gpu->memory_mib;
	whole.compute = 1;
	whole.iso = ISO_NONE;
	whole.lic = lic;
	for (i = 0; i < wl->n; i++) {
		const struct workload *w = &wl->w[i];
		int u;
		if (!class_fits(e->c, w) || !problem_slot_fits(e->c, &whole, w))
			continue;
		u = share_of(w, gpu->memory_mib);
		if (u) {
			it[nit].u = u;
			it[nit++].n = w->replicas;
		}
	}
	qsort(it, nit, sizeof(*it), share_item_cmp);
	/*
	 * Best-fit decreasing, bins packed alike kept as one group: an item
	 * goes to the fullest bin it fits, and that bin stays the fullest
	 * until it is full, so each bin of a group takes t items in turn.
	 */
	for (i = 0; i < nit; i++) {
		long left = it[i].n;
		while (left > 0 && ng + 3 <= SHARE_MAX_GROUPS) {
			size_t best = ng;
			long t, full;
			for (j = 0; j < ng; j++)
				if (g[j].count && g[j].n < kmax && g[j].fill + it[i].u <= SHARE_UNIT &&
				    (best == ng || g[j].fill > g[best].fill))
					best = j;
			if (best == ng) {	/* new bins, as many as the items need */
				XGROW(g, gcap, ng + 1);
				memset(&g[ng], 0, sizeof(g[ng]));
				ng++;
			}
			t = (SHARE_UNIT - g[best].fill) / it[i].u;
			if (t > kmax - g[best].n)
				t = kmax - g[best].n;
			if (!g[best].n)
				g[best].count = (left + t - 1) / t;
			full = left / t;
			if (full < g[best].count) {	/* split off the bins that fill */
				XGROW(g, gcap, ng + 2);
				if (full) {
					g[ng] = g[best];
					g[ng].count = full;
					g[best].count -= full;
					share_fill(&g[ng++], it[i].u, t);
				}
				if (left % t) {
					g[ng] = g[best];
					g[ng].count = 1;
					g[best].count -= 1;
					share_fill(&g[ng++], it[i].u, left % t);
				}
				left = 0;
			} else {
				share_fill(&g[best], it[i].u, t);
				left -= t * g[best].count;
			}
		}
	}
	/* alike patterns are one; the most used come first */
	for (i = 0; i < ng; i++)
		for (j = i + 1; j < ng && g[i].count; j++)
			if (g[j].count && share_group_same(&g[i], &g[j])) {
				g[i].count += g[j].count;
				g[j].count = 0;
			}
	for (i = j = 0; i < ng; i++)
		if (g[i].count && g[i].n >= 2)
			g[j++] = g[i];
	ng = j;
	qsort(g, ng, sizeof(*g), share_group_cmp);
	npat = ng < SHARE_MAX_PATTERNS ? ng : SHARE_MAX_PATTERNS;
	for (i = 0; i < npat; i++) {
		struct sb name;
		struct config *cf;
		sb_init(&name);
		sb_adds(&name, "ts:");
		for (j = 0; j < (size_t)g[i].n; j++)
			sb_addf(&name, "%s%d.%03d", j ? "+" : "", g[i].item[j] / SHARE_UNIT, g[i].item[j] % SHARE_UNIT);
		cf = config_new(e->c, &e->cfcap, MODE_TIMESLICE, lic, sb_detach(&name));
		sb_release(&name);
		cf->k = g[i].n;
		for (j = 0; j < (size_t)g[i].n; j++) {
			struct slot_type st;
			char sname[32];
			int u = g[i].item[j];
			snprintf(sname, sizeof(sname), "ts:%d.%03d", u / SHARE_UNIT, u % SHARE_UNIT);
			memset(&st, 0, sizeof(st));
			st.mode = MODE_TIMESLICE;
			st.name = sname;
			st.memory_mib = gpu->memory_mib * u / SHARE_UNIT;
			st.compute = (double)u / SHARE_UNIT;
			st.iso = ISO_NONE;
			st.lic = lic;
			st.mig_profile = st.vgpu_profile = -1;
			st.share = u;
			config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), 1);
		}
	}
	free(g);
	free(it);
}

/* Partitions of g into the group sizes (plus 1s), as node patterns. */
static void add_patterns_rec(struct enum_ctx *e, int remaining, size_t from, int *mult)
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
		cf = config_new(e->c, &e->cfcap, MODE_PASSTHROUGH, LIC_NONE, sb_detach(&name));
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
			config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), mult[i]);
		}
		if (singles) {
			char one[] = "gpu1";
			st.name = one;
			st.gpus = 1;
			config_add_slot(cf, slot_type_get(e->c, &e->stcap, &st), singles);
		}
		return;
	}
	for (mult[from] = 0; mult[from] * e->group_sizes[from] <= remaining; mult[from]++)
		add_patterns_rec(e, remaining - mult[from] * e->group_sizes[from], from + 1, mult);
	mult[from] = 0;
}

static void add_passthrough_configs(struct enum_ctx *e)
{
	int mult[64] = { 0 };
	add_patterns_rec(e, e->c->nc->gpus_per_node, 0, mult);
}

/* ================= matching ================= */

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
static int class_fits(const struct pclass *c, const struct workload *w)
{
	const struct node_class *nc = c->nc;
	return has_site(w, nc->site) && has_type(w, nc->gpu) && w->cpu_cores <= nc->cpu_cores &&
	       w->ram_gib <= nc->ram_gib && w->gpus <= nc->gpus_per_node;
}

int problem_slot_fits(const struct pclass *c, const struct slot_type *st, const struct workload *w)
{
	double ask_mib = w->gpu_mem_gib * 1024.0;

	if (!(w->modes & MODE_BIT(st->mode)) || !(hypervisor_modes(c->nc->hv) & MODE_BIT(st->mode)))
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

/* ================= costs ================= */

/* ================= slot equivalence ================= */

/*
 * Two slot types of a class that exactly the same demands can use, at the
 * same arc costs, are the same resource to the ILP: one stands for both
 * (its rep), arcs go to the rep only, and configurations count their
 * slots by rep.  Then a time-slice with 6 replicas dominates one with 5
 * when the same workloads fit both, and MIG geometries collapse likewise.
 * The real slot types stay on the configuration for the concrete plan.
 */
/*
 * The arcs of each (class, slot type), sorted by demand: arcs
 * idx[start[off[k] + s] .. start[off[k] + s + 1]).  Built once per pass so
 * that comparing two slot types costs their arcs, not all arcs (the
 * linear scans made problem_build quadratic in the arcs: 4.5 s at 45k
 * arcs, 24 s at 128k).
 */
struct slot_arcs {
	size_t *off;		/* [nclasses + 1]: first (k, s) of class k */
	size_t *start;		/* [total slot types + 1] */
	size_t *idx;		/* [narcs] */
};

static void slot_arcs_build(struct slot_arcs *sa, const struct problem *p)
{
	size_t k, i, n = 0, *fill;
	sa->off = xcalloc(p->nclasses + 1, sizeof(*sa->off));
	for (k = 0; k < p->nclasses; k++) {
		sa->off[k] = n;
		n += p->classes[k].nslot_types;
	}
	sa->off[p->nclasses] = n;
	sa->start = xcalloc(n + 2, sizeof(*sa->start));
	sa->idx = xcalloc(p->narcs + 1, sizeof(*sa->idx));
	fill = xcalloc(n + 1, sizeof(*fill));
	for (i = 0; i < p->narcs; i++)
		sa->start[sa->off[p->arcs[i].k] + (size_t)p->arcs[i].s + 1]++;
	for (i = 0; i < n; i++)
		sa->start[i + 1] += sa->start[i];
	/* arcs are sorted by demand, so each list comes out sorted by demand */
	for (i = 0; i < p->narcs; i++) {
		size_t ks = sa->off[p->arcs[i].k] + (size_t)p->arcs[i].s;
		sa->idx[sa->start[ks] + fill[ks]++] = i;
	}
	free(fill);
}

static void slot_arcs_release(struct slot_arcs *sa)
{
	free(sa->off);
	free(sa->start);
	free(sa->idx);
}

static int same_arcs(const struct problem *p, const struct slot_arcs *sa, int k, int s1, int s2)
{
	size_t a = sa->off[k] + (size_t)s1, b = sa->off[k] + (size_t)s2, i, j;
	if (sa->start[a + 1] - sa->start[a] != sa->start[b + 1] - sa->start[b])
		return 0;
	for (i = sa->start[a], j = sa->start[b]; i < sa->start[a + 1]; i++, j++)
		if (p->arcs[sa->idx[i]].d != p->arcs[sa->idx[j]].d || p->arcs[sa->idx[i]].cost != p->arcs[sa->idx[j]].cost)
			return 0;
	return 1;
}

static void merge_equivalent(struct problem *p)
{
	size_t k, s, t, i, j;
	struct slot_arcs sa;

	slot_arcs_build(&sa, p);

	for (k = 0; k < p->nclasses; k++) {
		struct pclass *c = &p->classes[k];
		for (s = 0; s < c->nslot_types; s++) {
			c->slot_types[s].rep = (int)s;
			for (t = 0; t < s; t++) {
				/*
				 * Same mode only: nodes hold one mode, and the ILP limits
				 * CPU and RAM per (class, mode).
				 */
				if (c->slot_types[t].rep == (int)t && c->slot_types[t].mode == c->slot_types[s].mode &&
				    same_arcs(p, &sa, (int)k, (int)t, (int)s)) {
					c->slot_types[s].rep = (int)t;
					break;
				}
			}
		}
		for (i = 0; i < c->nconfigs; i++) {
			struct config *cf = &c->configs[i];
			size_t n = 0;
			cf->nreal = cf->nslots;
			cf->real_slot = xmalloc((cf->nslots + 1) * sizeof(int));
			cf->real_count = xmalloc((cf->nslots + 1) * sizeof(int));
			memcpy(cf->real_slot, cf->slot, cf->nslots * sizeof(int));
			memcpy(cf->real_count, cf->count, cf->nslots * sizeof(int));
			for (j = 0; j < cf->nreal; j++) {
				int rep = c->slot_types[cf->real_slot[j]].rep;
				size_t l;
				for (l = 0; l < n && cf->slot[l] != rep; l++)
					;
				if (l == n) {
					cf->slot[n] = rep;
					cf->count[n++] = 0;
				}
				cf->count[l] += cf->real_count[j];
			}
			cf->nslots = n;
		}
	}
	slot_arcs_release(&sa);
	for (i = j = 0; i < p->narcs; i++) {
		const struct pclass *c = &p->classes[p->arcs[i].k];
		if (c->slot_types[p->arcs[i].s].rep == p->arcs[i].s)
			p->arcs[j++] = p->arcs[i];
	}
	p->narcs = j;
}

/* ================= pruning ================= */

static int arc_cmp(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;
	if (x->d != y->d)
		return x->d < y->d ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->s > y->s) - (x->s < y->s);
}

/* True when slot type t can take every demand s can, at no higher arc cost. */
static int covers(const struct problem *p, const struct slot_arcs *sa, int k, int s, int t)
{
	size_t a = sa->off[k] + (size_t)s, b = sa->off[k] + (size_t)t, i, j;
	if (s == t)
		return 1;
	/* both lists are sorted by demand: one merge */
	for (i = sa->start[a], j = sa->start[b]; i < sa->start[a + 1]; i++) {
		const struct arc *x = &p->arcs[sa->idx[i]];
		while (j < sa->start[b + 1] && p->arcs[sa->idx[j]].d < x->d)
			j++;
		if (j == sa->start[b + 1] || p->arcs[sa->idx[j]].d != x->d || p->arcs[sa->idx[j]].cost > x->cost)
			return 0;
	}
	return 1;
}

#define DOM_MAX 64

/* Kuhn's augmenting path for the slot matching below. */
static int augment(int u, const char (*edge)[DOM_MAX], int nb, int *match_b, char *seen)
{
	int v;
	for (v = 0; v < nb; v++) {
		if (!edge[u][v] || seen[v])
			continue;
		seen[v] = 1;
		if (match_b[v] < 0 || augment(match_b[v], edge, nb, match_b, seen)) {
			match_b[v] = u;
			return 1;
		}
	}
	return 0;
}

/*
 * True when configuration b can stand in for a: each useful slot of a
 * maps to its own slot of b that covers it (a bipartite matching).
 */
static int config_covers(const char *cov, size_t ns, const struct config *a, const struct config *b)
{
	int sa[DOM_MAX], sb[DOM_MAX], match_b[DOM_MAX], na = 0, nb = 0, u, r;
	char edge[DOM_MAX][DOM_MAX], seen[DOM_MAX];
	size_t j;

	for (j = 0; j < a->nslots; j++)
		for (r = 0; r < a->count[j]; r++) {
			if (na == DOM_MAX)
				return 0;
			sa[na++] = a->slot[j];
		}
	for (j = 0; j < b->nslots; j++)
		for (r = 0; r < b->count[j]; r++) {
			if (nb == DOM_MAX)
				return 0;
			sb[nb++] = b->slot[j];
		}
	if (na > nb)
		return 0;
	for (u = 0; u < na; u++)
		for (r = 0; r < nb; r++)
			edge[u][r] = cov[(size_t)sa[u] * ns + (size_t)sb[r]];
	for (r = 0; r < nb; r++)
		match_b[r] = -1;
	for (u = 0; u < na; u++) {
		memset(seen, 0, sizeof(seen));
		if (!augment(u, (const char(*)[DOM_MAX])edge, nb, match_b, seen))
			return 0;
	}
	return 1;
}

/* Memory of all the slots a configuration creates, in MiB. */
static long real_memory(const struct pclass *c, const struct config *cf)
{
	long m = 0;
	size_t j;
	for (j = 0; j < cf->nreal; j++)
		m += c->slot_types[cf->real_slot[j]].memory_mib * cf->real_count[j] *
		     (c->slot_types[cf->real_slot[j]].gpus > 1 ? c->slot_types[cf->real_slot[j]].gpus : 1);
	return m;
}

/*
 * Drops slot types no demand can use from each configuration, then
 * configurations without a useful slot, then dominated configurations:
 * a is dominated by b (same mode and unit) when b costs no more and
 * each of a's useful slots has its own slot in b that takes every
 * demand it takes.  Of two that dominate each other at the same cost
 * the first is kept.
 */
static void prune_class(const struct problem *p, const struct slot_arcs *sa, int kk, struct pclass *c,
			const char *useful)
{
	size_t i, j, k, n = 0, ns = c->nslot_types;
	char *cov = xcalloc(ns * ns + 1, 1);
	char *gone = xcalloc(c->nconfigs + 1, 1);

	for (i = 0; i < c->nconfigs; i++) {
		struct config *cf = &c->configs[i];
		for (j = k = 0; j < cf->nslots; j++) {
			if (useful[cf->slot[j]]) {
				cf->slot[k] = cf->slot[j];
				cf->count[k] = cf->count[j];
				k++;
			}
		}
		cf->nslots = k;
		if (!k)
			gone[i] = 1;
	}
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			if (useful[i] && useful[j])
				cov[i * ns + j] = (char)covers(p, sa, kk, (int)i, (int)j);
	for (i = 0; i < c->nconfigs; i++) {
		struct config *a = &c->configs[i];
		for (j = 0; j < c->nconfigs && !gone[i]; j++) {
			struct config *b = &c->configs[j];
			if (j == i || gone[j] || b->mode != a->mode || b->node_pattern != a->node_pattern ||
			    b->cost > a->cost + 1e-9)
				continue;
			if (!config_covers(cov, ns, a, b))
				continue;
			/*
			 * b stands in for a.  When a also stands in for b at the same
			 * cost, keep the tighter fit (less slot memory: 1g.10gb*7 over
			 * 1g.20gb+1g.10gb*6 for 10 GiB replicas), then the first.
			 */
			if (b->cost < a->cost - 1e-9 || !config_covers(cov, ns, b, a) ||
			    real_memory(c, b) < real_memory(c, a) ||
			    (real_memory(c, b) == real_memory(c, a) && j < i))
				gone[i] = 1;
		}
	}
	/*
	 * A whole mode is redundant when each of its configurations has a
	 * stand-in in another mode (the node picks one mode, so this is the
	 * only way two modes compare).  Of two interchangeable modes the one
	 * first in mode order stays.
	 */
	{
		int m1, m2;
		for (m1 = 0; m1 < MODE_COUNT; m1++) {
			for (m2 = 0; m2 < MODE_COUNT; m2++) {
				int all = 1, any = 0, back = 1;
				if (m1 == m2 || m1 == MODE_PASSTHROUGH || m2 == MODE_PASSTHROUGH)
					continue;
				for (i = 0; i < c->nconfigs && all; i++) {
					const struct config *a = &c->configs[i];
					int found = 0;
					if (gone[i] || a->mode != (enum gpu_mode)m1)
						continue;
					any = 1;
					for (j = 0; j < c->nconfigs && !found; j++) {
						const struct config *b = &c->configs[j];
						if (!gone[j] && b->mode == (enum gpu_mode)m2 && b->cost <= a->cost + 1e-9 &&
						    config_covers(cov, ns, a, b))
							found = 1;
					}
					all = found;
				}
				if (!any || !all)
					continue;
				/* does m1 stand in for m2 as well? then keep the first mode */
				for (i = 0; i < c->nconfigs && back; i++) {
					const struct config *b = &c->configs[i];
					int found = 0;
					if (gone[i] || b->mode != (enum gpu_mode)m2)
						continue;
					for (j = 0; j < c->nconfigs && !found; j++) {
						const struct config *a = &c->configs[j];
						if (!gone[j] && a->mode == (enum gpu_mode)m1 && a->cost <= b->cost + 1e-9 &&
						    config_covers(cov, ns, b, a))
							found = 1;
					}
					back = found;
				}
				if (back && m1 < m2)
					continue;
				for (i = 0; i < c->nconfigs; i++)
					if (c->configs[i].mode == (enum gpu_mode)m1)
						gone[i] = 1;
			}
		}
	}
	for (i = 0; i < c->nconfigs; i++) {
		if (gone[i])
			config_free(&c->configs[i]);
		else
			c->configs[n++] = c->configs[i];
	}
	c->nconfigs = n;
	c->modes = 0;
	for (i = 0; i < n; i++)
		c->modes |= MODE_BIT(c->configs[i].mode);
	free(cov);
	free(gone);
}

/* ================= build ================= */

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* True for the modes whose licences a licence server leases per vGPU. */
static int seat_mode(enum gpu_mode m)
{
	return m == MODE_VGPU || m == MODE_MIG_VGPU;
}

/* Licence cost of one configured GPU (0 where it is counted per seat). */
static double config_licence(const struct problem *p, const struct pclass *c, const struct config *cf)
{
	if (cf->lic == LIC_NONE || (p->pr->counting == COUNT_VGPU_SEAT && seat_mode(cf->mode)))
		return 0;
	return p->pr->cls[c->index].lic[cf->lic].total;
}

/* Enumerates a mode's configurations in the licence variants it needs. */
static void add_mode(struct enum_ctx *e, enum gpu_mode m)
{
	enum lic_product base = e->p->pr->cls[e->c->index].mode_product[m];
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
				add_share_configs(e, v[i]);
			break;
		case MODE_MPS:
			add_shared_configs(e, m, e->p->sc->mps_max, v[i]);
			break;
		default:
			break;
		}
	}
}

int problem_build(struct problem *p, const struct scenario *sc, const struct pricing *pr, struct diag *d)
{
	const struct inventory *inv = &sc->inventory;
	const struct workloads *wl = &sc->workloads;
	size_t i, j, k, arccap = 0;
	struct slot_arcs sa;
	int want_nvaie = 0;
	int sizes[65];
	size_t nsizes = 0;
	double big = 1;

	(void)d;
	memset(p, 0, sizeof(*p));
	p->sc = sc;
	p->pr = pr;
	p->horizon_years = sc->horizon_years;
	p->tiebreak = 0.01;

	for (i = 0; i < wl->n; i++) {
		const struct workload *w = &wl->w[i];
		if (w->needs_nvaie)
			want_nvaie = 1;
		if (w->cpu_cores > 0)
			p->any_cpu = 1;
		if (w->ram_gib > 0)
			p->any_ram = 1;
		if (w->gpus >= 2) {
			for (j = 0; j < nsizes; j++)
				if (sizes[j] == w->gpus)
					break;
			if (j == nsizes && nsizes < 64)
				sizes[nsizes++] = w->gpus;
		}
	}
	qsort(sizes, nsizes, sizeof(int), int_cmp);

	p->nclasses = inv->n;
	p->classes = xcalloc(inv->n ? inv->n : 1, sizeof(*p->classes));
	for (k = 0; k < inv->n; k++) {
		struct pclass *c = &p->classes[k];
		struct enum_ctx e;
		unsigned hv = hypervisor_modes(inv->classes[k].hv);
		int gsz[65], m;
		size_t ng = 0;

		c->nc = &inv->classes[k];
		c->index = k;
		c->node_cost = pr->cls[k].node_total;
		c->gpu_active_cost = pr->cls[k].gpu_active_total;
		memset(&e, 0, sizeof(e));
		e.p = p;
		e.c = c;
		e.want_nvaie = want_nvaie;
		for (j = 0; j < nsizes; j++)
			if (sizes[j] <= c->nc->gpus_per_node)
				gsz[ng++] = sizes[j];
		e.group_sizes = gsz;
		e.ngroup_sizes = ng;
		if (hv & MODE_BIT(MODE_PASSTHROUGH))
			add_passthrough_configs(&e);
		for (m = 0; m < MODE_COUNT; m++)
			if (m != MODE_PASSTHROUGH && (hv & MODE_BIT(m)))
				add_mode(&e, (enum gpu_mode)m);
		for (j = 0; j < c->nconfigs; j++) {
			struct config *cf = &c->configs[j];
			if (cf->node_pattern)
				cf->cost = 0; /* per-GPU costs ride on the arcs */
			else
				cf->cost = c->gpu_active_cost + p->tiebreak + config_licence(p, c, cf);
		}
	}

	/* Demands and arcs. */
	p->ndemands = wl->n;
	p->demands = xcalloc(wl->n ? wl->n : 1, sizeof(*p->demands));
	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		double lic = 0, per_gpu, full;
		int q;
		for (q = 0; q < LIC_COUNT; q++)
			lic = fmax(lic, pr->cls[k].lic[q].total);
		per_gpu = c->gpu_active_cost + 2 * p->tiebreak + lic;
		/* a node, its GPUs, and a seat: more than placing one replica can cost */
		full = c->node_cost + p->tiebreak + c->nc->gpus_per_node * per_gpu + lic;
		if (full + 1 > big)
			big = full + 1;
	}
	for (i = 0; i < wl->n; i++) {
		struct pdemand *dm = &p->demands[i];
		dm->w = &wl->w[i];
		dm->index = i;
		dm->replicas = wl->w[i].replicas;
		dm->penalty = big * wl->w[i].priority;
		for (k = 0; k < p->nclasses; k++) {
			const struct pclass *c = &p->classes[k];
			if (!class_fits(c, dm->w))
				continue;
			for (j = 0; j < c->nslot_types; j++) {
				const struct slot_type *st = &c->slot_types[j];
				struct arc *a;
				if (!problem_slot_fits(c, st, dm->w))
					continue;
				XGROW(p->arcs, arccap, p->narcs + 1);
				a = &p->arcs[p->narcs++];
				a->d = (int)i;
				a->k = (int)k;
				a->s = (int)j;
				a->cost = 0;
				if (st->mode == MODE_PASSTHROUGH) {
					enum lic_product lp = dm->w->needs_nvaie ? LIC_NVAIE
										 : pr->cls[k].mode_product[MODE_PASSTHROUGH];
					a->cost = st->gpus * (c->gpu_active_cost + p->tiebreak + pr->cls[k].lic[lp].total);
				} else if (pr->counting == COUNT_VGPU_SEAT && seat_mode(st->mode)) {
					a->cost = pr->cls[k].lic[st->lic].total; /* one seat per vGPU in use */
				}
			}
		}
	}
	qsort(p->arcs, p->narcs, sizeof(*p->arcs), arc_cmp);

	merge_equivalent(p);
	/* Prune slots, configurations and modes nobody can use. */
	slot_arcs_build(&sa, p);
	for (k = 0; k < p->nclasses; k++) {
		struct pclass *c = &p->classes[k];
		char *useful = xcalloc(c->nslot_types ? c->nslot_types : 1, 1);
		for (i = sa.start[sa.off[k]]; i < sa.start[sa.off[k + 1]]; i++)
			useful[p->arcs[sa.idx[i]].s] = 1;
		prune_class(p, &sa, (int)k, c, useful);
		free(useful);
	}
	slot_arcs_release(&sa);
	for (i = 0; i < wl->n; i++) {
		int any = 0;
		for (j = 0; j < p->narcs; j++)
			if (p->arcs[j].d == (int)i)
				any = 1;
		if (any)
			continue;
		p->demands[i].unhostable = scenario_unhostable(sc, &wl->w[i]);
		if (!p->demands[i].unhostable)
			p->demands[i].unhostable = xstrdup("no slot of any allowed mode, GPU type and site holds it");
	}
	return 0;
}

void problem_release(struct problem *p)
{
	size_t i, j;
	for (i = 0; i < p->nclasses; i++) {
		struct pclass *c = &p->classes[i];
		for (j = 0; j < c->nconfigs; j++)
			config_free(&c->configs[j]);
		free(c->configs);
		for (j = 0; j < c->nslot_types; j++)
			free(c->slot_types[j].name);
		free(c->slot_types);
	}
	free(p->classes);
	for (i = 0; i < p->ndemands; i++)
		free(p->demands[i].unhostable);
	free(p->demands);
	free(p->arcs);
	memset(p, 0, sizeof(*p));
}
