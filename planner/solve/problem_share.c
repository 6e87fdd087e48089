/*
 * problem_share.c - time-slice configurations that mix compute shares
 * (sharing.timeslice_shares), packed from the class's own demand.
 *
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
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "internal/problem_config.h"
#include "internal/problem_match.h"
#include "internal/problem_share.h"
#include "util.h"
#include "banned.h"

enum { SHARE_UNIT = 1000, SHARE_MAX_PATTERNS = 32, SHARE_MAX_GROUPS = 4096, SHARE_MAX_SLOTS = 48 };

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

void problem_add_share_configs(struct problem_enum_ctx *e, enum lic_product lic)
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
		if (!problem_class_fits(e->c, w) || !problem_slot_fits(e->c, &whole, w))
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
		cf = problem_config_new(e->c, &e->cfcap, MODE_TIMESLICE, lic, sb_detach(&name));
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
			problem_config_add_slot(cf, problem_slot_type_get(e->c, &e->stcap, &st), 1);
		}
	}
	free(g);
	free(it);
}
