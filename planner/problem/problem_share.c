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
#include "problem_match.h"
#include "problem_share.h"
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

/*
 * The shares the demand that may time-slice on e->c asks (licence lic),
 * largest first, in *nit items; caller frees.
 */
static struct share_item *share_items(const struct problem_enum_ctx *e, enum lic_product lic, size_t *nit)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	const struct workloads *wl = &e->p->sc->workloads;
	struct share_item *it = xcalloc(wl->n + 1, sizeof(*it));
	struct slot_type whole;
	size_t n = 0, i;

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
			it[n].u = u;
			it[n++].n = w->replicas;
		}
	}
	qsort(it, n, sizeof(*it), share_item_cmp);
	*nit = n;
	return it;
}

/* Bins being packed, alike ones kept as one group. */
struct share_pack {
	struct share_group *g;
	size_t ng, gcap;
	int kmax;		/* slots per GPU at most */
};

/*
 * Best-fit decreasing, bins packed alike kept as one group: an item
 * goes to the fullest bin it fits, and that bin stays the fullest
 * until it is full, so each bin of a group takes t items in turn.
 * Packs the n replicas of share u.
 */
static void share_pack_item(struct share_pack *pk, int u, long n)
{
	int kmax = pk->kmax;
	long left = n;
	size_t j;

	while (left > 0 && pk->ng + 3 <= SHARE_MAX_GROUPS) {
		struct share_group *g = pk->g;
		size_t best = pk->ng, ng = pk->ng;
		long t, full;
		for (j = 0; j < ng; j++)
			if (g[j].count && g[j].n < kmax && g[j].fill + u <= SHARE_UNIT &&
			    (best == ng || g[j].fill > g[best].fill))
				best = j;
		if (best == ng) {	/* new bins, as many as the items need */
			XGROW(pk->g, pk->gcap, ng + 1);
			g = pk->g;
			memset(&g[ng], 0, sizeof(g[ng]));
			ng++;
		}
		t = (SHARE_UNIT - g[best].fill) / u;
		if (t > kmax - g[best].n)
			t = kmax - g[best].n;
		if (!g[best].n)
			g[best].count = (left + t - 1) / t;
		full = left / t;
		if (full < g[best].count) {	/* split off the bins that fill */
			XGROW(pk->g, pk->gcap, ng + 2);
			g = pk->g;
			if (full) {
				g[ng] = g[best];
				g[ng].count = full;
				g[best].count -= full;
				share_fill(&g[ng++], u, t);
			}
			if (left % t) {
				g[ng] = g[best];
				g[ng].count = 1;
				g[best].count -= 1;
				share_fill(&g[ng++], u, left % t);
			}
			left = 0;
		} else {
			share_fill(&g[best], u, t);
			left -= t * g[best].count;
		}
		pk->ng = ng;
	}
}

/*
 * The patterns of g[0 .. ng - 1]: alike ones made one, those of fewer
 * than 2 slots dropped, the most used first; how many are left.
 */
static size_t share_patterns(struct share_group *g, size_t ng)
{
	size_t i, j;

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
	return ng;
}

/* Adds the configuration of pattern g (licence lic) to e->c. */
static void add_pattern(struct problem_enum_ctx *e, enum lic_product lic, const struct share_group *g)
{
	const struct gpu_type *gpu = e->c->nc->gpu;
	struct sb name;
	struct config *cf;
	size_t j;

	sb_init(&name);
	sb_adds(&name, "ts:");
	for (j = 0; j < (size_t)g->n; j++)
		sb_addf(&name, "%s%d.%03d", j ? "+" : "", g->item[j] / SHARE_UNIT, g->item[j] % SHARE_UNIT);
	cf = problem_config_new(e->c, &e->cfcap, MODE_TIMESLICE, lic, sb_detach(&name));
	sb_release(&name);
	cf->k = g->n;
	for (j = 0; j < (size_t)g->n; j++) {
		struct slot_type st;
		char sname[32];
		int u = g->item[j];
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

void problem_add_share_configs(struct problem_enum_ctx *e, enum lic_product lic)
{
	struct share_pack pk;
	struct share_item *it;
	size_t nit, i, npat;

	memset(&pk, 0, sizeof(pk));
	pk.kmax = e->p->sc->timeslice_max;
	if (pk.kmax > SHARE_MAX_SLOTS)
		pk.kmax = SHARE_MAX_SLOTS;
	it = share_items(e, lic, &nit);
	for (i = 0; i < nit; i++)
		share_pack_item(&pk, it[i].u, it[i].n);
	pk.ng = share_patterns(pk.g, pk.ng);
	npat = pk.ng < SHARE_MAX_PATTERNS ? pk.ng : SHARE_MAX_PATTERNS;
	for (i = 0; i < npat; i++)
		add_pattern(e, lic, &pk.g[i]);
	free(pk.g);
	free(it);
}
