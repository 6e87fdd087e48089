/*
 * memnotes.c - what a plan's reports say about usable memory and MIG
 * compute shares: the workloads whose memory ask fits a MIG profile by its
 * name but not by the memory the driver gives it (so they take a larger
 * profile); and, as assumptions, the profiles in use whose usable memory
 * is an estimate (assumed: true), the GPU types used whole whose usable
 * memory is the nominal size (no driver read), and the MIG profiles in use
 * whose compute share rests on no SM count read, and vGPU on vSphere whose
 * edition (Enterprise Plus) the scenario does not price; and which of a
 * MIG profile's reads (they differ by driver) its memory comes from.
 */
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "mig.h"
#include "util.h"
#include "banned.h"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static void note_add(struct report_notes *rn, char *what, char *source, int assumed)
{
	rn->notes = xrealloc(rn->notes, (rn->n + 1) * sizeof(*rn->notes));
	rn->notes[rn->n].what = what;
	rn->notes[rn->n].source = source;
	rn->notes[rn->n].assumed = assumed;
	rn->n++;
}

/*
 * The smallest plain profile of g that w's ask fits by its nominal size
 * but not by its usable memory (with enough compute); NULL if none.
 */
static const struct mig_profile *short_profile(const struct gpu_type *g, const struct workload *w)
{
	const struct mig_profile *best = NULL;
	double ask = w->gpu_mem_gib * 1024.0;
	double compute = w->gpus >= 1 ? 1.0 : w->compute;
	size_t i;

	if (w->gpu_mem_gib <= 0 || w->gpus >= 2)
		return NULL;
	for (i = 0; i < g->mig.nprofiles; i++) {
		const struct mig_profile *p = &g->mig.profiles[i];
		double share = mig_profile_share(g, p);
		if (p->media_ext || (w->gpus >= 1 ? p->compute_slices != g->mig.compute_slices : share + 1e-9 < compute))
			continue;
		if (ask <= (double)p->nominal_mib + 1e-9 && ask > (double)p->memory_mib + 1e-9 &&
		    (!best || p->nominal_mib < best->nominal_mib))
			best = p;
	}
	return best;
}

/* The note of a workload whose ask q holds by its name, not by its memory. */
static void note_short(struct report_notes *rn, const struct workload *w, const struct gpu_type *g,
		       const struct mig_profile *q)
{
	char ask[64];

	fmt_fixed(ask, sizeof(ask), w->gpu_mem_gib, 2);
	note_add(rn,
		 xasprintf("workload '%s' asks %s GiB, more than the %ld MiB a %s of %s gives (nominal %ld GiB): "
			   "it takes a larger MIG profile",
			   w->name, ask, q->memory_mib, q->name, g->id, q->nominal_mib / 1024),
		 xasprintf("%s:%ld: usable memory as nvidia-smi mig -lgip prints it", base_name(g->file), q->line), 0);
}

/* True when the key (a, b) was seen; else records it. */
static int seen(const void ***keys, size_t *n, const void *a, const void *b)
{
	size_t i;
	for (i = 0; i < *n; i++)
		if ((*keys)[2 * i] == a && (*keys)[2 * i + 1] == b)
			return 1;
	*keys = xrealloc(*keys, (*n + 1) * 2 * sizeof(**keys));
	(*keys)[2 * *n] = a;
	(*keys)[2 * *n + 1] = b;
	(*n)++;
	return 0;
}

/*
 * The whole-GPU memory of g is the nominal size, for want of a driver read
 * or because the scenario says gpu_memory: nominal: said once per plan.
 */
static void note_gpu_memory(struct report_notes *rn, const struct gpu_type *g, const struct scenario *sc)
{
	if (sc->gpu_memory_nominal)
		note_add(rn,
			 xasprintf("usable memory of %s: %ld MiB, the nominal size (assumed: the scenario says "
				   "gpu_memory: nominal)",
				   g->id, g->memory_mib),
			 xasprintf("%s: gpu_memory: nominal", base_name(sc->file)), 1);
	else
		note_add(rn,
			 xasprintf("usable memory of %s: %ld MiB, the nominal size (assumed: no driver read)", g->id,
				   g->memory_mib),
			 xasprintf("%s:%ld: %s", base_name(g->file), g->line,
				   g->memory_source ? g->memory_source : "no memory_source given"),
			 1);
}

/*
 * vGPU (time-sliced or MIG-backed) on vSphere with no price for vSphere in
 * the scenario: the edition it needs is neither priced nor confirmed.
 */
static void note_vsphere(struct report_notes *rn, const struct scenario *sc)
{
	note_add(rn,
		 xstrdup("vGPU on vSphere needs vSphere Enterprise Plus, not priced (hypervisors.vsphere has no "
			 "price)"),
		 xasprintf("%s: the edition per the book gpuplan started from (issue 61); no NVIDIA or VMware "
			   "page read states it",
			   base_name(sc->file)),
		 1);
}

/* The compute share of MIG profile mp of g rests on no SM count read. */
static void note_share(struct report_notes *rn, const struct gpu_type *g, const struct mig_profile *mp)
{
	char *what;

	if (mig_profile_share_from_sms(g, mp))
		what = xasprintf("compute share of %s %s: %d/%d SMs (assumed: the GPU's SM count)", g->id, mp->name,
				 mp->sms, g->sms);
	else
		what = xasprintf("compute share of %s %s: %d/%d of the GPU (assumed: no SM count read, slices / %d)",
				 g->id, mp->name, mp->compute_slices, g->mig.compute_slices, g->mig.compute_slices);
	note_add(rn, what,
		 xasprintf("%s:%ld: %s", base_name(g->file), mp->line,
			   g->sms_source ? g->sms_source : "no SM count read for the GPU"),
		 1);
}

/* "driver 550.54.15" or "driver not stated", of read r of g's MIG memory. */
static void read_driver(struct sb *sb, const struct gpu_type *g, int r)
{
	if (g->mig.reads[r].driver)
		sb_addf(sb, "driver %s", g->mig.reads[r].driver);
	else
		sb_adds(sb, "driver not stated");
}

/*
 * MIG profile mp of g has reads that differ: which one the plan used (the
 * one of the scenario's driver, else the lowest) and what the others give.
 */
static void note_reads(struct report_notes *rn, const struct gpu_type *g, const struct mig_profile *mp,
		       const struct scenario *sc)
{
	int r = mp->read_used, match = sc->driver && driver_branch(g->mig.reads[r].driver) == driver_branch(sc->driver);
	const char *src = g->mig.reads[r].source;
	struct sb sb;
	size_t q;
	int others = 0;

	sb_init(&sb);
	sb_addf(&sb, "usable memory of %s %s: %ld MiB, ", g->id, mp->name, mp->memory_mib);
	sb_adds(&sb, match ? "the read of " : "the lowest of its reads (");
	read_driver(&sb, g, r);
	if (match)
		sb_addf(&sb, ", the scenario's driver: %s", sc->driver);
	else if (sc->driver)
		sb_addf(&sb, "; none is of the scenario's driver %s", sc->driver);
	else
		sb_adds(&sb, "; the scenario names no driver");
	sb_adds(&sb, match ? "; other reads: " : "); other reads: ");
	for (q = 0; q < g->mig.nreads; q++) {
		if ((int)q == r || !mp->read_mib[q])
			continue;
		sb_addf(&sb, "%s%ld MiB (", others++ ? ", " : "", mp->read_mib[q]);
		read_driver(&sb, g, (int)q);
		sb_adds(&sb, ")");
	}
	note_add(rn, sb_detach(&sb),
		 xasprintf("%s:%ld: %s", base_name(g->file), g->mig.reads[r].line,
			   src ? src : "the profile rows of the mig table"),
		 !match);
}

/* The notes of one slot of a MIG (or MIG-backed vGPU) node. */
static void mig_slot_notes(struct report_notes *rn, const void ***keys, size_t *nkeys, const struct gpu_type *g,
			   const struct mig_profile *mp, const struct workload *w)
{
	const struct mig_profile *q = short_profile(g, w);

	if (q && !seen(keys, nkeys, w, g))
		note_short(rn, w, g, q);
	if (mp->assumed && !seen(keys, nkeys, mp, g))
		note_add(rn, xasprintf("usable memory of %s %s: %ld MiB (assumed)", g->id, mp->name, mp->memory_mib),
			 xasprintf("%s:%ld: %s", base_name(g->file), mp->line, mp->assumed_rule), 1);
	if ((g->sms_assumed || !mig_profile_share_from_sms(g, mp)) && !seen(keys, nkeys, mp, &g->sms))
		note_share(rn, g, mp);
}

void report_mig_notes(const struct cplan *cp, struct report_notes *rn)
{
	const struct problem *p = cp->p;
	const void **keys = NULL;
	size_t nkeys = 0, i;

	memset(rn, 0, sizeof(*rn));
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		const struct cnode *n;
		const struct gpu_type *g;
		const struct slot_type *st;
		if (s->d < 0)
			continue;
		n = &cp->nodes[s->node];
		g = p->classes[n->k].nc->gpu;
		st = &p->classes[n->k].slot_types[s->type];
		if ((n->mode == MODE_PASSTHROUGH || n->mode == MODE_TIMESLICE || n->mode == MODE_MPS) &&
		    (g->memory_assumed || p->sc->gpu_memory_nominal) && !seen(&keys, &nkeys, g, NULL))
			note_gpu_memory(rn, g, p->sc);
		if ((n->mode == MODE_VGPU || n->mode == MODE_MIG_VGPU) && p->classes[n->k].nc->hv == HV_VSPHERE &&
		    p->sc->hv_cost[HV_VSPHERE].usd_per_node_year <= 0 &&
		    p->sc->hv_cost[HV_VSPHERE].usd_per_core_year <= 0 && !seen(&keys, &nkeys, p->sc, NULL))
			note_vsphere(rn, p->sc);
		if ((n->mode != MODE_MIG && n->mode != MODE_MIG_VGPU) || st->mig_profile < 0)
			continue;
		mig_slot_notes(rn, &keys, &nkeys, g, &g->mig.profiles[st->mig_profile], p->demands[s->d].w);
		if (mig_profile_nfigures(g, &g->mig.profiles[st->mig_profile]) > 1 &&
		    !seen(&keys, &nkeys, &g->mig.profiles[st->mig_profile], &g->mig))
			note_reads(rn, g, &g->mig.profiles[st->mig_profile], p->sc);
	}
	free(keys);
}

void report_notes_release(struct report_notes *rn)
{
	size_t i;
	for (i = 0; i < rn->n; i++) {
		free(rn->notes[i].what);
		free(rn->notes[i].source);
	}
	free(rn->notes);
	memset(rn, 0, sizeof(*rn));
}
