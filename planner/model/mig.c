/*
 * mig.c - MIG geometry enumeration, placement and checks.
 *
 * Design: the search space is tiny (at most 8 instances over at most 12
 * memory slices), so everything is exhaustive and exact; no heuristics.
 *
 *  - A placement search takes the instances largest first and tries each
 *    one's allowed starts lowest first, backtracking on overlap.  Two
 *    consecutive instances of the same profile take ascending starts
 *    (they are interchangeable), which keeps failures cheap and does not
 *    change the first placement found.
 *  - Validity is monotone: if a multiset cannot be placed or breaks a
 *    limit, neither can any multiset containing it.  So the enumeration
 *    extends valid geometries one instance at a time, in profile rank
 *    order (largest first, never a larger profile after a smaller one),
 *    and prunes at the first invalid one.  Visiting in that order yields
 *    the list already sorted (pre-order of the extension tree is
 *    lexicographic order, a prefix before its extensions).
 *  - A geometry is maximal when adding one more instance of any non-+me
 *    profile (and re-placing everything) is never valid.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mig.h"
#include "util.h"
#include "banned.h"

/* Sets *why (when why is not NULL) to a new message; returns -1. */
static int fail(char **why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(char **why, const char *fmt, ...)
{
	va_list ap;

	if (!why)
		return -1;
	va_start(ap, fmt);
	*why = xvasprintf(fmt, ap);
	va_end(ap);
	return -1;
}

/* ======================= ordering ======================= */

/* Negative when profile a sorts before profile b (a is "larger"). */
static int prof_cmp(const struct gpu_type *gpu, int a, int b)
{
	const struct mig_profile *pa = &gpu->mig.profiles[a];
	const struct mig_profile *pb = &gpu->mig.profiles[b];

	if (pa->compute_slices != pb->compute_slices)
		return pa->compute_slices > pb->compute_slices ? -1 : 1;
	if (pa->memory_slices != pb->memory_slices)
		return pa->memory_slices > pb->memory_slices ? -1 : 1;
	return (a > b) - (a < b);
}

/* Sorts the instances of g largest first (insertion sort: n <= 8). */
static void geometry_sort(const struct gpu_type *gpu, struct mig_geometry *g)
{
	int i, j;

	for (i = 1; i < g->n; i++) {
		int p = g->profile[i], s = g->start[i];
		for (j = i; j > 0 && prof_cmp(gpu, g->profile[j - 1], p) > 0; j--) {
			g->profile[j] = g->profile[j - 1];
			g->start[j] = g->start[j - 1];
		}
		g->profile[j] = p;
		g->start[j] = s;
	}
}

/*
 * The non-+me profile indices in rank order (largest first); returns
 * how many.
 */
static int plain_order(const struct gpu_type *gpu, int *order)
{
	int n = 0, i;
	size_t k;

	for (k = 0; k < gpu->mig.nprofiles && k < MIG_MAX_PROFILES; k++) {
		int p = (int)k;
		if (gpu->mig.profiles[k].media_ext)
			continue;
		for (i = n; i > 0 && prof_cmp(gpu, order[i - 1], p) > 0; i--)
			order[i] = order[i - 1];
		order[i] = p;
		n++;
	}
	return n;
}

/* ======================= placement ======================= */

/* A set of memory slices is the bits of an unsigned: slice s is bit s. */
_Static_assert(MIG_MAX_SLICES < (int)(sizeof(unsigned) * 8), "memory slices must fit an unsigned's bits");

/* The slices an instance of p at start occupies (the loader keeps start + size within the GPU's). */
static unsigned slice_mask(const struct mig_profile *p, int start)
{
	return ((1u << p->memory_slices) - 1u) << start;
}

/*
 * Places instances k.. of the sorted g on the memory slices not in used;
 * 0 with g->start filled, or -1 if there is no placement.
 */
static int place_from(const struct gpu_type *gpu, struct mig_geometry *g, int k, unsigned used)
{
	const struct mig_profile *p;
	int i;

	if (k == g->n)
		return 0;
	p = &gpu->mig.profiles[g->profile[k]];
	for (i = 0; i < p->nstarts; i++) {
		unsigned mask = slice_mask(p, p->starts[i]);
		if (used & mask)
			continue;
		if (k > 0 && g->profile[k - 1] == g->profile[k] && p->starts[i] <= g->start[k - 1])
			continue;
		g->start[k] = p->starts[i];
		if (!place_from(gpu, g, k + 1, used | mask))
			return 0;
	}
	return -1;
}

/*
 * The count limits of n instances: per-profile maxima, one +me, the
 * GPU's instance maximum, the compute budget.  0, or -1 with *why.
 */
static int limits_check(const struct gpu_type *gpu, int n, const int *profile, char **why)
{
	int count[MIG_MAX_PROFILES] = { 0 };
	int me = 0, compute = 0, i;
	size_t k;

	for (i = 0; i < n; i++) {
		const struct mig_profile *p = &gpu->mig.profiles[profile[i]];
		count[profile[i]]++;
		compute += p->compute_slices;
		me += p->media_ext != 0;
	}
	for (k = 0; k < gpu->mig.nprofiles && k < MIG_MAX_PROFILES; k++) {
		const struct mig_profile *p = &gpu->mig.profiles[k];
		if (count[k] > p->max_instances)
			return fail(why, "%d x %s > max %d", count[k], p->name, p->max_instances);
	}
	if (me > 1)
		return fail(why, "more than one +me instance");
	if (n > gpu->mig.max_instances)
		return fail(why, "%d instances > max %d", n, gpu->mig.max_instances);
	if (compute > gpu->mig.compute_slices)
		return fail(why, "compute slices %d > %d", compute, gpu->mig.compute_slices);
	return 0;
}

/* True if the sorted g is valid; fills its canonical placement. */
static int geometry_valid(const struct gpu_type *gpu, struct mig_geometry *g)
{
	int i, mem = 0;

	if (limits_check(gpu, g->n, g->profile, NULL))
		return 0;
	for (i = 0; i < g->n; i++)
		mem += gpu->mig.profiles[g->profile[i]].memory_slices;
	if (mem > gpu->mig.memory_slices)
		return 0;
	return place_from(gpu, g, 0, 0) == 0;
}

/* ======================= enumeration ======================= */

struct geo_list {
	struct mig_geometry *v;
	size_t n;
	size_t cap;
};

/* Appends every valid extension of g by profiles of rank >= from. */
static void enum_from(const struct gpu_type *gpu, const int *order, int norder, int from,
		      struct mig_geometry *g, struct geo_list *all)
{
	int r;

	if (g->n == MIG_MAX_INSTANCES)
		return;
	for (r = from; r < norder; r++) {
		g->profile[g->n] = order[r];
		g->start[g->n] = 0;
		g->n++;
		if (geometry_valid(gpu, g)) {
			XGROW(all->v, all->cap, all->n + 1);
			all->v[all->n++] = *g;
			enum_from(gpu, order, norder, r, g, all);
		}
		g->n--;
	}
}

/* True if no instance of a profile in order[] can be added to g. */
static int geometry_maximal(const struct gpu_type *gpu, const int *order, int norder,
			    const struct mig_geometry *g)
{
	int r;

	if (g->n == MIG_MAX_INSTANCES)
		return 1;
	for (r = 0; r < norder; r++) {
		struct mig_geometry h = *g;
		h.profile[h.n] = order[r];
		h.start[h.n] = 0;
		h.n++;
		geometry_sort(gpu, &h);
		if (geometry_valid(gpu, &h))
			return 0;
	}
	return 1;
}

static int enumerate(const struct gpu_type *gpu, int maximal_only, struct mig_geometry **out,
		     size_t *n)
{
	struct geo_list all = { NULL, 0, 0 };
	struct mig_geometry g;
	int order[MIG_MAX_PROFILES];
	int norder;
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	if (!gpu->has_mig || gpu->mig.memory_slices > MIG_MAX_SLICES)
		return -1;
	norder = plain_order(gpu, order);
	memset(&g, 0, sizeof(g));
	enum_from(gpu, order, norder, 0, &g, &all);
	if (maximal_only) {
		for (i = 0; i < all.n; i++)
			if (geometry_maximal(gpu, order, norder, &all.v[i]))
				all.v[k++] = all.v[i];
		all.n = k;
	}
	*out = all.v;
	*n = all.n;
	return 0;
}

int mig_geometries(const struct gpu_type *gpu, struct mig_geometry **out, size_t *n)
{
	return enumerate(gpu, 1, out, n);
}

int mig_geometries_all(const struct gpu_type *gpu, struct mig_geometry **out, size_t *n)
{
	return enumerate(gpu, 0, out, n);
}

/* ======================= names ======================= */

char *mig_geometry_name(const struct gpu_type *gpu, const struct mig_geometry *g)
{
	struct sb sb;
	char *out;
	int i = 0;

	sb_init(&sb);
	while (i < g->n) {
		int j = i;
		while (j < g->n && g->profile[j] == g->profile[i])
			j++;
		if (i)
			sb_adds(&sb, "+");
		sb_adds(&sb, gpu->mig.profiles[g->profile[i]].name);
		if (j - i > 1)
			sb_addf(&sb, "*%d", j - i);
		i = j;
	}
	out = sb_detach(&sb);
	return out;
}

/* The profile whose name is the longest prefix of s ending at '+', '*' or the end. */
static int match_profile(const struct gpu_type *gpu, const char *s, size_t *len)
{
	size_t k, best_len = 0;
	int best = -1;

	for (k = 0; k < gpu->mig.nprofiles; k++) {
		const char *name = gpu->mig.profiles[k].name;
		size_t l = strlen(name);
		if (strncmp(s, name, l) || (s[l] && s[l] != '+' && s[l] != '*'))
			continue;
		if (l > best_len) {
			best = (int)k;
			best_len = l;
		}
	}
	*len = best_len;
	return best;
}

/*
 * The hint for an unknown profile name: the names nearest to it
 * (str_nearness), those with the same compute part ("3g." for "3g.20gb")
 * before any other.
 */
static char *profile_hint(const struct gpu_type *gpu, const char *tok)
{
	const char *dot = strchr(tok, '.');
	size_t plen = dot ? (size_t)(dot - tok) + 1 : 0;
	const char *names[HINT_MAX];
	int rank[MIG_MAX_PROFILES];
	size_t k, n = 0, near, idx[HINT_MAX];

	for (k = 0; k < gpu->mig.nprofiles && n < MIG_MAX_PROFILES; k++, n++) {
		const char *name = gpu->mig.profiles[k].name;
		rank[n] = str_nearness(tok, name);
		if (rank[n] >= 0 && !(plen && !strncmp(name, tok, plen)))
			rank[n] += 100;	/* after every name of the same compute part */
	}
	near = hint_pick(rank, n, idx);
	for (k = 0; k < near && k < HINT_MAX; k++)
		names[k] = gpu->mig.profiles[idx[k]].name;
	return str_hint_text(names, near);
}

static int unknown_profile(const struct gpu_type *gpu, const char *s, char **why)
{
	char *tok, *hint;
	int rc;

	if (!why)
		return -1;	/* no message wanted: no hint either */
	tok = xstrndup(s, strcspn(s, "+*"));
	hint = profile_hint(gpu, tok);
	rc = fail(why, "unknown MIG profile '%s' for %s%s", tok, gpu->id, hint);
	free(hint);
	free(tok);
	return rc;
}

int mig_geometry_parse(const struct gpu_type *gpu, const char *name, struct mig_geometry *out,
		       char **why)
{
	struct mig_geometry g;
	const char *s = name;
	char *canon;
	int i, mem = 0, rc;

	if (why)
		*why = NULL;
	if (!gpu->has_mig)
		return fail(why, "GPU type '%s' has no MIG", gpu->id);
	if (!*s)
		return fail(why, "empty MIG geometry");
	memset(&g, 0, sizeof(g));
	for (;;) {
		long long count = 1;
		size_t len;
		int p = match_profile(gpu, s, &len);

		if (!*s || *s == '+' || *s == '*')
			return fail(why, "missing profile name in '%s'", name);
		if (p < 0)
			return unknown_profile(gpu, s, why);
		s += len;
		if (*s == '*') {
			size_t digits = strspn(s + 1, "0123456789");
			char *num = xstrndup(s + 1, digits);
			int bad = !digits || parse_llong(num, &count) || count < 1 || count > MIG_MAX_INSTANCES;
			free(num);
			if (bad)
				return fail(why, "bad count after '%s*' in '%s' (1 to %d)",
					    gpu->mig.profiles[p].name, name, MIG_MAX_INSTANCES);
			s += 1 + digits;
		}
		if (g.n + count > MIG_MAX_INSTANCES)
			return fail(why, "'%s' has more than %d instances", name, MIG_MAX_INSTANCES);
		for (; count > 0; count--)
			g.profile[g.n++] = p;
		if (!*s)
			break;
		if (*s != '+')
			return fail(why, "unexpected '%c' in '%s'", *s, name);
		s++;
	}
	geometry_sort(gpu, &g);
	if (limits_check(gpu, g.n, g.profile, why))
		return -1;
	for (i = 0; i < g.n; i++)
		mem += gpu->mig.profiles[g.profile[i]].memory_slices;
	if (mem > gpu->mig.memory_slices || place_from(gpu, &g, 0, 0)) {
		canon = mig_geometry_name(gpu, &g);
		rc = fail(why, "%s does not fit the %d memory slices at the allowed starts", canon,
			  gpu->mig.memory_slices);
		free(canon);
		return rc;
	}
	*out = g;
	return 0;
}

/* ======================= layout check ======================= */

int mig_layout_check(const struct gpu_type *gpu, int n, const int *profile, const int *start,
		     char **why)
{
	int i, j, k;

	if (why)
		*why = NULL;
	if (!gpu->has_mig)
		return fail(why, "GPU type '%s' has no MIG", gpu->id);
	if (n < 0 || n > MIG_MAX_INSTANCES)
		return fail(why, "%d instances: a layout has 0 to %d", n, MIG_MAX_INSTANCES);
	for (i = 0; i < n; i++)
		if (profile[i] < 0 || (size_t)profile[i] >= gpu->mig.nprofiles ||
		    profile[i] >= MIG_MAX_PROFILES)
			return fail(why, "instance %d: no MIG profile with index %d", i, profile[i]);
	for (i = 0; i < n; i++) {
		const struct mig_profile *p = &gpu->mig.profiles[profile[i]];
		for (k = 0; k < p->nstarts; k++)
			if (p->starts[k] == start[i])
				break;
		if (k == p->nstarts) {
			char *allowed = catalog_mig_starts(p);
			int rc = fail(why, "start %d not allowed for %s (starts %s)", start[i], p->name,
				      allowed);
			free(allowed);
			return rc;
		}
	}
	for (i = 0; i < n; i++) {
		const struct mig_profile *pi = &gpu->mig.profiles[profile[i]];
		for (j = 0; j < i; j++) {
			const struct mig_profile *pj = &gpu->mig.profiles[profile[j]];
			if (start[i] < start[j] + pj->memory_slices && start[j] < start[i] + pi->memory_slices)
				return fail(why, "%s at slice %d overlaps %s at %d", pi->name, start[i],
					    pj->name, start[j]);
		}
	}
	return limits_check(gpu, n, profile, why);
}

int mig_profile_share_from_sms(const struct gpu_type *gpu, const struct mig_profile *p)
{
	return gpu->sms > 0 && p->sms > 0;
}

double mig_profile_share(const struct gpu_type *gpu, const struct mig_profile *p)
{
	if (mig_profile_share_from_sms(gpu, p))
		return (double)p->sms / gpu->sms;
	return (double)p->compute_slices / gpu->mig.compute_slices;
}
