/*
 * problem_reduce.c - making the aggregated problem smaller without
 * changing its optimum: slot types that the same demands use at the same
 * costs become one (slot equivalence), then slot types no demand can use
 * are dropped from configurations, configurations left without a useful
 * slot are dropped, and so are dominated configurations and redundant
 * modes (pruning).
 */
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "problem_slot.h"
#include "problem_reduce.h"
#include "util.h"
#include "banned.h"

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
 * that comparing two slot types costs their arcs, not all arcs (linear
 * scans made problem_build quadratic in the arcs).
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

void problem_merge_equivalent(struct problem *p)
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

/* A class being pruned. */
struct prune {
	struct pclass *c;
	size_t ns;		/* c's slot types */
	const char *cov;	/* [s * ns + t]: slot type t takes every demand s takes */
	char *gone;		/* per configuration: dropped */
};

/* Drops the slot types useful[] marks useless from each configuration; gone the ones left with none. */
static void drop_useless_slots(struct prune *pr, const char *useful)
{
	struct pclass *c = pr->c;
	size_t i, j, k;

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
			pr->gone[i] = 1;
	}
}

/*
 * Drops dominated configurations: a is dominated by b (same mode and
 * unit) when b costs no more and each of a's useful slots has its own
 * slot in b that takes every demand it takes.
 */
static void drop_dominated(struct prune *pr)
{
	const struct pclass *c = pr->c;
	const char *cov = pr->cov;
	char *gone = pr->gone;
	size_t i, j, ns = pr->ns;

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
}

/*
 * True when each configuration of mode m1 left has a stand-in of mode m2
 * (no dearer, covering it); *any (unless NULL): some configuration of
 * mode m1 is left.
 */
static int mode_covered(const struct prune *pr, int m1, int m2, int *any)
{
	const struct pclass *c = pr->c;
	size_t i, j;
	int all = 1;

	for (i = 0; i < c->nconfigs && all; i++) {
		const struct config *a = &c->configs[i];
		int found = 0;
		if (pr->gone[i] || a->mode != (enum gpu_mode)m1)
			continue;
		if (any)
			*any = 1;
		for (j = 0; j < c->nconfigs && !found; j++) {
			const struct config *b = &c->configs[j];
			if (!pr->gone[j] && b->mode == (enum gpu_mode)m2 && b->cost <= a->cost + 1e-9 &&
			    config_covers(pr->cov, pr->ns, a, b))
				found = 1;
		}
		all = found;
	}
	return all;
}

/*
 * A whole mode is redundant when each of its configurations has a
 * stand-in in another mode (the node picks one mode, so this is the
 * only way two modes compare).  Of two interchangeable modes the one
 * first in mode order stays.
 */
static void drop_redundant_modes(struct prune *pr)
{
	const struct pclass *c = pr->c;
	size_t i;
	int m1, m2;

	for (m1 = 0; m1 < MODE_COUNT; m1++) {
		for (m2 = 0; m2 < MODE_COUNT; m2++) {
			int any = 0;
			if (m1 == m2 || m1 == MODE_PASSTHROUGH || m2 == MODE_PASSTHROUGH)
				continue;
			if (!mode_covered(pr, m1, m2, &any) || !any)
				continue;
			/* does m1 stand in for m2 as well? then keep the first mode */
			if (mode_covered(pr, m2, m1, NULL) && m1 < m2)
				continue;
			for (i = 0; i < c->nconfigs; i++)
				if (c->configs[i].mode == (enum gpu_mode)m1)
					pr->gone[i] = 1;
		}
	}
}

/*
 * Drops slot types no demand can use from each configuration, then
 * configurations without a useful slot, then dominated configurations
 * and redundant modes.  Of two that dominate each other at the same
 * cost the first is kept.
 */
static void prune_class(const struct problem *p, const struct slot_arcs *sa, int kk, struct pclass *c,
			const char *useful)
{
	size_t i, j, n = 0, ns = c->nslot_types;
	char *cov = xcalloc(ns * ns + 1, 1);
	struct prune pr;

	pr.c = c;
	pr.ns = ns;
	pr.cov = cov;
	pr.gone = xcalloc(c->nconfigs + 1, 1);
	drop_useless_slots(&pr, useful);
	for (i = 0; i < ns; i++)
		for (j = 0; j < ns; j++)
			if (useful[i] && useful[j])
				cov[i * ns + j] = (char)covers(p, sa, kk, (int)i, (int)j);
	drop_dominated(&pr);
	drop_redundant_modes(&pr);
	for (i = 0; i < c->nconfigs; i++) {
		if (pr.gone[i])
			problem_config_free(&c->configs[i]);
		else
			c->configs[n++] = c->configs[i];
	}
	c->nconfigs = n;
	c->modes = 0;
	for (i = 0; i < n; i++)
		c->modes |= MODE_BIT(c->configs[i].mode);
	free(cov);
	free(pr.gone);
}

void problem_prune(struct problem *p)
{
	struct slot_arcs sa;
	size_t i, k;

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
}
