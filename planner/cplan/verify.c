/*
 * verify.c - the plan verifier.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

static int fail(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	char *m;
	va_start(ap, fmt);
	m = xvasprintf(fmt, ap);
	va_end(ap);
	diag_set(d, DIAG_IO, NULL, 0, 0, "plan failed verification (a planner bug): %s", m);
	free(m);
	return -1;
}

/* What a slot offers, recomputed from the catalog. */
struct offer {
	double mem_mib, compute;
	enum isolation iso;
	int vm, gpus;
};

/* A multi-vGPU VM: full-size vGPUs, no more than the hypervisor allows per VM. */
static int multi_vgpu_check(const struct cplan *cp, const struct cnode *n, const struct cslot *s, struct diag *d)
{
	const struct pclass *c = &cp->p->classes[n->k];
	const struct multi_vgpu *mv = catalog_multi_vgpu(&cp->p->sc->catalog, hypervisor_name(c->nc->hv));
	int full = catalog_full_vgpu(c->nc->gpu);

	if (full < 0 || c->configs[n->pattern].vgpu_profile != full)
		return fail(d, "a multi-vGPU VM on %s without its full-size vGPU profile", c->nc->name);
	if (!mv || s->ngpus > mv->max_per_vm)
		return fail(d, "a VM of %d vGPUs on '%s' (%s), which allows %d per VM", s->ngpus, c->nc->name,
			    hypervisor_name(c->nc->hv), mv ? mv->max_per_vm : 1);
	return 0;
}

/*
 * The configuration of the GPU (or node pattern) slot s is on, when it
 * offers s's slot type; NULL, with d filled, when not.
 */
static const struct config *slot_config(const struct cplan *cp, const struct cslot *s, struct diag *d)
{
	const struct cnode *n = &cp->nodes[s->node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct slot_type *st = &c->slot_types[s->type];
	int cfg = n->mode == MODE_PASSTHROUGH ? n->pattern : n->gpu_config[s->gpu];
	const struct config *cf;
	int in = 0;

	if (cfg < 0) {
		fail(d, "slot on idle GPU %d of a node of '%s'", s->gpu, c->nc->name);
		return NULL;
	}
	cf = &c->configs[cfg];
	if (st->mode != n->mode || cf->mode != n->mode) {
		fail(d, "slot of mode %s on a %s node", mode_name(st->mode), mode_name(n->mode));
		return NULL;
	}
	if (n->mode == MODE_MIG || n->mode == MODE_MIG_VGPU) {
		int r;
		for (r = 0; r < cf->mig.n; r++)
			if (cf->mig.profile[r] == st->mig_profile)
				in = 1;
		if (!in)
			fail(d, "a %s instance on a GPU configured as %s", st->name, cf->name);
	} else {
		size_t r;
		for (r = 0; r < cf->nreal; r++)
			if (cf->real_slot[r] == s->type)
				in = 1;
		if (!in)
			fail(d, "a '%s' slot on a GPU configured as %s", st->name, cf->name);
	}
	return in ? cf : NULL;
}

static int slot_offer(const struct cplan *cp, const struct cslot *s, struct offer *o, struct diag *d)
{
	const struct cnode *n = &cp->nodes[s->node];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct gpu_type *g = c->nc->gpu;
	const struct slot_type *st = &c->slot_types[s->type];
	const struct config *cf = slot_config(cp, s, d);

	if (!cf)
		return -1;
	memset(o, 0, sizeof(*o));
	switch (n->mode) {
	case MODE_PASSTHROUGH:
		o->mem_mib = (double)g->memory_mib;
		o->compute = 1;
		o->iso = ISO_EXCLUSIVE;
		o->vm = hypervisor_is_vm_host(c->nc->hv);
		o->gpus = s->ngpus;
		break;
	case MODE_MIG:
	case MODE_MIG_VGPU: {
		const struct mig_profile *mp;
		if (!g->has_mig || st->mig_profile < 0 || (size_t)st->mig_profile >= g->mig.nprofiles)
			return fail(d, "MIG slot without a MIG profile on %s", g->id);
		mp = &g->mig.profiles[st->mig_profile];
		o->mem_mib = (double)mp->memory_mib;
		o->compute = mig_profile_share(g, mp);
		o->iso = ISO_HARDWARE;
		o->vm = n->mode == MODE_MIG_VGPU && hypervisor_is_vm_host(c->nc->hv);
		o->gpus = mp->compute_slices == g->mig.compute_slices && mp->memory_slices == g->mig.memory_slices;
		break;
	}
	case MODE_VGPU: {
		const struct vgpu_profile *vp;
		if (!g->has_vgpu || cf->vgpu_profile < 0)
			return fail(d, "vGPU slot without a vGPU profile on %s", g->id);
		vp = &g->vgpu.profiles[cf->vgpu_profile];
		o->mem_mib = (double)vp->framebuffer_mib;
		o->compute = 1.0 / vp->max_equal;
		o->iso = ISO_MEMORY;
		o->vm = hypervisor_is_vm_host(c->nc->hv);
		o->gpus = vp->max_equal == 1;
		if (cf->node_pattern && multi_vgpu_check(cp, n, s, d))
			return -1;
		if (cf->node_pattern)
			o->gpus = s->ngpus;
		break;
	}
	case MODE_TIMESLICE:
	case MODE_MPS:
		if (cf->k < 2)
			return fail(d, "shared GPU with k = %d", cf->k);
		if (st->share) {	/* a time-slice mix: the slot's own share */
			if (n->mode != MODE_TIMESLICE || st->share < 1 || st->share >= 1000)
				return fail(d, "a share of %d/1000 on a %s GPU", st->share, mode_name(n->mode));
			o->mem_mib = floor((double)g->memory_mib * st->share / 1000);
			o->compute = st->share / 1000.0;
			o->iso = ISO_NONE;
			break;
		}
		o->mem_mib = floor((double)g->memory_mib / cf->k);
		o->compute = n->mode == MODE_MPS ? (double)(100 / cf->k) / 100.0 : 1.0 / cf->k;
		o->iso = n->mode == MODE_MPS ? ISO_MEMORY : ISO_NONE;
		o->vm = 0;
		o->gpus = 0;
		break;
	case MODE_COUNT:
		return fail(d, "node without a mode");
	}
	return 0;
}

static int check_gpu_partition(const struct cplan *cp, size_t ni, int gi, const size_t *slots, size_t ns,
			       struct diag *d)
{
	const struct cnode *n = &cp->nodes[ni];
	const struct pclass *c = &cp->p->classes[n->k];
	const struct gpu_type *g = c->nc->gpu;
	const struct config *cf = &c->configs[n->gpu_config[gi]];
	size_t i;

	switch (n->mode) {
	case MODE_MIG:
	case MODE_MIG_VGPU: {
		int prof[MIG_MAX_INSTANCES], start[MIG_MAX_INSTANCES];
		char *why = NULL;
		if (ns > MIG_MAX_INSTANCES)
			return fail(d, "%zu MIG instances on one %s", ns, g->id);
		for (i = 0; i < ns; i++) {
			prof[i] = c->slot_types[cp->slots[slots[i]].type].mig_profile;
			start[i] = cp->slots[slots[i]].mig_start;
		}
		if (mig_layout_check(g, (int)ns, prof, start, &why)) {
			fail(d, "GPU %d of node %s-%03d: %s", gi, c->nc->name, n->ordinal, why ? why : "bad MIG layout");
			free(why);
			return -1;
		}
		if (n->mode == MODE_MIG_VGPU) {
			for (i = 0; i < ns; i++) {
				size_t v;
				int found = 0;
				for (v = 0; v < g->vgpu.nmig; v++)
					if (g->vgpu.mig_backed[v].gi_index == prof[i])
						found = 1;
				if (!found)
					return fail(d, "GPU instance without a MIG-backed vGPU profile on %s", g->id);
			}
		}
		break;
	}
	case MODE_VGPU:
		if ((long)ns > g->vgpu.profiles[cf->vgpu_profile].max_equal)
			return fail(d, "%zu vGPUs of %s exceed its %d per GPU", ns,
				    g->vgpu.profiles[cf->vgpu_profile].name, g->vgpu.profiles[cf->vgpu_profile].max_equal);
		break;
	case MODE_TIMESLICE:
	case MODE_MPS:
		if ((long)ns > cf->k)
			return fail(d, "%zu replicas on a GPU shared %d ways", ns, cf->k);
		if (n->mode == MODE_TIMESLICE) {
			long sum = 0;
			for (i = 0; i < ns; i++)
				sum += c->slot_types[cp->slots[slots[i]].type].share;
			if (sum > 1000)
				return fail(d, "GPU %d of node %s-%03d: shares sum to %ld/1000", gi, c->nc->name,
					    n->ordinal, sum);
		}
		break;
	default:
		break;
	}
	return 0;
}

/* Node counts per class, and the modes their hypervisors allow. */
static int check_nodes(const struct cplan *cp, struct diag *d)
{
	const struct problem *p = cp->p;
	long *per_class = xcalloc(p->nclasses + 1, sizeof(*per_class));
	size_t i;
	int rc = 0;

	for (i = 0; i < cp->nnodes && !rc; i++) {
		const struct cnode *n = &cp->nodes[i];
		const struct node_class *nc = p->classes[n->k].nc;
		if (++per_class[n->k] > nc->count)
			rc = fail(d, "more nodes of '%s' than its count %ld", nc->name, nc->count);
		else if (!(node_class_modes(nc) & MODE_BIT(n->mode)))
			rc = fail(d, "mode %s on a %s node", mode_name(n->mode), hypervisor_name(nc->hv));
	}
	free(per_class);
	return rc;
}

/* The replica in slot s, which offers o: it fits, on its sites and GPU types, licensed as it needs. */
static int check_replica(const struct cplan *cp, const struct cslot *s, const struct offer *o, struct diag *d)
{
	const struct problem *p = cp->p;
	const struct cnode *n = &cp->nodes[s->node];
	const struct workload *w = p->demands[s->d].w;
	size_t j;

	if (w->gpu_mem_gib * 1024.0 > o->mem_mib + 1e-6 || (w->gpus == 0 && w->compute > o->compute + 1e-9) ||
	    (w->gpus >= 1 && o->gpus != w->gpus) || (w->gpus == 0 && o->gpus > 1) || o->iso < w->iso ||
	    (w->vm && !o->vm) || !(w->modes & MODE_BIT(n->mode)))
		return fail(d, "workload '%s' does not fit its slot on %s-%03d GPU %d", w->name,
			    p->classes[n->k].nc->name, n->ordinal, s->gpu);
	if (w->nsites) {
		int ok = 0;
		for (j = 0; j < w->nsites; j++)
			if (!str_casecmp(w->sites[j], p->classes[n->k].nc->site))
				ok = 1;
		if (!ok)
			return fail(d, "workload '%s' placed outside its sites", w->name);
	}
	if (w->ngpu_types) {
		int ok = 0;
		for (j = 0; j < w->ngpu_types; j++)
			if (w->gpu_types[j] == p->classes[n->k].nc->gpu)
				ok = 1;
		if (!ok)
			return fail(d, "workload '%s' placed on a GPU type it does not allow", w->name);
	}
	if (w->needs_nvaie && n->mode != MODE_PASSTHROUGH &&
	    p->classes[n->k].configs[n->gpu_config[s->gpu]].lic != LIC_NVAIE)
		return fail(d, "workload '%s' needs NVAIE but its GPU is not licensed", w->name);
	return 0;
}

/* What the slots hold, added up. */
struct load {
	long *placed;		/* per demand: replicas in slots */
	double *cpu, *ram;	/* per node: what its replicas ask */
};

/*
 * Every slot: on a node and within its GPUs, offering what its type
 * says, and holding a replica that may use it; adds up ld.
 */
static int check_slots(const struct cplan *cp, struct load *ld, struct diag *d)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const struct cnode *n;
		const struct workload *w;
		struct offer o;
		if (s->node < 0 || (size_t)s->node >= cp->nnodes)
			return fail(d, "slot %zu on no node", i);
		n = &cp->nodes[s->node];
		if (s->gpu < 0 || s->gpu + s->ngpus > p->classes[n->k].nc->gpus_per_node)
			return fail(d, "slot %zu outside its node's GPUs", i);
		if (slot_offer(cp, s, &o, d))
			return -1;
		if (s->d < 0)
			continue;
		w = p->demands[s->d].w;
		ld->placed[s->d]++;
		ld->cpu[s->node] += w->cpu_cores;
		ld->ram[s->node] += w->ram_gib;
		if (check_replica(cp, s, &o, d))
			return -1;
	}
	return 0;
}

/* Each node's CPU and RAM, and each demand's replicas placed and unplaced, against ld. */
static int check_loads(const struct cplan *cp, const struct load *ld, struct diag *d)
{
	const struct problem *p = cp->p;
	size_t i;

	for (i = 0; i < cp->nnodes; i++) {
		const struct node_class *nc = p->classes[cp->nodes[i].k].nc;
		if (ld->cpu[i] > nc->cpu_cores + 1e-6 || ld->ram[i] > nc->ram_gib + 1e-6)
			return fail(d, "node %s-%03d over its CPU or RAM", nc->name, cp->nodes[i].ordinal);
	}
	for (i = 0; i < p->ndemands; i++) {
		if (ld->placed[i] != cp->placed[i] || ld->placed[i] + cp->unplaced[i] != p->demands[i].replicas)
			return fail(d, "workload '%s': %ld placed + %ld unplaced != %ld replicas", p->demands[i].w->name,
				    ld->placed[i], cp->unplaced[i], p->demands[i].replicas);
	}
	return 0;
}

/* The slots by node (a counting sort): node i's are bynode[first[i]] .. bynode[first[i + 1] - 1]. */
struct by_node {
	size_t *first, *bynode;
	size_t *byg;		/* scratch: one GPU's slots */
};

/* Node i's GPUs: a valid partition each; passthrough groups must not overlap. */
static int check_node_gpus(const struct cplan *cp, size_t i, const struct by_node *bn, struct diag *d)
{
	const struct cnode *n = &cp->nodes[i];
	int g, ng = cp->p->classes[n->k].nc->gpus_per_node;

	for (g = 0; g < ng; g++) {
		size_t ns = 0, q;
		int cover = 0;
		for (q = bn->first[i]; q < bn->first[i + 1]; q++) {
			const struct cslot *s = &cp->slots[bn->bynode[q]];
			if (n->mode == MODE_PASSTHROUGH) {
				if (g >= s->gpu && g < s->gpu + s->ngpus)
					cover++;
			} else if (s->gpu == g) {
				bn->byg[ns++] = bn->bynode[q];
			}
		}
		if (n->mode == MODE_PASSTHROUGH) {
			if (cover > 1)
				return fail(d, "GPU %d of node %s-%03d in %d passthrough groups", g,
					    cp->p->classes[n->k].nc->name, n->ordinal, cover);
			continue;
		}
		if (n->gpu_config[g] < 0) {
			if (ns)
				return fail(d, "slots on an idle GPU");
			continue;
		}
		if (check_gpu_partition(cp, i, g, bn->byg, ns, d))
			return -1;
	}
	return 0;
}

/* Per GPU: partition validity; passthrough groups must not overlap. */
static int check_gpus(const struct cplan *cp, struct diag *d)
{
	struct by_node bn;
	size_t i, k, *fill;
	int rc = 0;

	/* Slots by node (a counting sort), so each GPU looks at its node's slots only. */
	bn.first = xcalloc(cp->nnodes + 2, sizeof(*bn.first));
	bn.bynode = xcalloc(cp->nslots + 1, sizeof(*bn.bynode));
	bn.byg = xcalloc(cp->nslots + 1, sizeof(*bn.byg));
	for (k = 0; k < cp->nslots; k++)
		bn.first[cp->slots[k].node + 1]++;
	for (i = 0; i < cp->nnodes; i++)
		bn.first[i + 1] += bn.first[i];
	fill = xcalloc(cp->nnodes + 1, sizeof(*fill));
	for (k = 0; k < cp->nslots; k++) {
		size_t nd = (size_t)cp->slots[k].node;
		bn.bynode[bn.first[nd] + fill[nd]++] = k;
	}
	free(fill);
	for (i = 0; i < cp->nnodes && !rc; i++)
		rc = check_node_gpus(cp, i, &bn, d);
	free(bn.first);
	free(bn.bynode);
	free(bn.byg);
	return rc;
}

/*
 * Node n keeps the per-node rules of the NVIDIA device plugin and MIG
 * strategy (docs/deploy.md): a time-slicing or MPS node shares every GPU
 * k ways for one k (one `replicas` value per node and resource; with
 * sharing.timeslice_shares time-slicing is another layer's), and with MIG
 * strategy single a node's MIG instances are all of one profile.
 */
static int check_node_rule(const struct cplan *cp, const struct cnode *n, struct diag *d)
{
	const struct scenario *sc = cp->p->sc;
	const struct pclass *c = &cp->p->classes[n->k];
	int g, k0 = 0, prof0 = -1, r, rc = 0;
	char *name;

	if (!(n->mode == MODE_MPS || (n->mode == MODE_TIMESLICE && !sc->timeslice_shares) ||
	      (n->mode == MODE_MIG && sc->mig_single)))
		return 0;
	for (g = 0; g < c->nc->gpus_per_node && !rc; g++) {
		const struct config *cf;
		if (n->gpu_config[g] < 0)
			continue;
		cf = &c->configs[n->gpu_config[g]];
		if (n->mode != MODE_MIG) {
			if (!k0)
				k0 = cf->k;
			rc = cf->k != k0;
			continue;
		}
		for (r = 0; r < cf->mig.n && !rc; r++) {
			if (prof0 < 0)
				prof0 = cf->mig.profile[r];
			rc = cf->mig.profile[r] != prof0;
		}
	}
	if (!rc)
		return 0;
	name = cplan_node_name(cp, n);
	if (n->mode == MODE_MIG)
		fail(d, "node %s mixes MIG profiles under MIG strategy single (GPU %d: %s)", name, g - 1,
		     c->configs[n->gpu_config[g - 1]].name);
	else
		fail(d, "node %s shares its GPUs %s with two replica counts (%d and %d); the device plugin "
		     "applies one per node", name, mode_name(n->mode), k0, c->configs[n->gpu_config[g - 1]].k);
	free(name);
	return -1;
}

int verify_plan(const struct cplan *cp, struct diag *d)
{
	const struct problem *p = cp->p;
	struct load ld;
	size_t i;
	int rc;

	ld.placed = xcalloc(p->ndemands + 1, sizeof(*ld.placed));
	ld.cpu = xcalloc(cp->nnodes + 1, sizeof(*ld.cpu));
	ld.ram = xcalloc(cp->nnodes + 1, sizeof(*ld.ram));
	rc = check_nodes(cp, d);
	if (!rc)
		rc = check_slots(cp, &ld, d);
	if (!rc)
		rc = check_loads(cp, &ld, d);
	if (!rc)
		rc = check_gpus(cp, d);
	for (i = 0; i < cp->nnodes && !rc; i++)
		rc = check_node_rule(cp, &cp->nodes[i], d);
	if (!rc)
		rc = verify_spread(cp, d);
	free(ld.placed);
	free(ld.cpu);
	free(ld.ram);
	return rc;
}
