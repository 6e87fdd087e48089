/*
 * capacity.c - demand asked beyond the capacity that could serve it, for
 * validate's warnings: overall, and under each restriction to GPU types
 * or sites (a set of node classes).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"
#include "banned.h"

#define NAMES_SHOWN 3		/* workloads or classes named in a message, then "+N more" */
#define EQ_EPS 1e-9

/* The node classes a workload may use, as a bit set. */
struct cset {
	size_t words;
	uint64_t *bits;		/* [nw * words], workload by workload */
};

static const uint64_t *set_of(const struct cset *cs, size_t i)
{
	return cs->bits + i * cs->words;
}

static int subset(const struct cset *cs, const uint64_t *a, const uint64_t *b)
{
	size_t k;
	for (k = 0; k < cs->words; k++)
		if (a[k] & ~b[k])
			return 0;
	return 1;
}

static int has(const uint64_t *s, size_t k)
{
	return (s[k / 64] >> (k % 64)) & 1;
}

/* ", name" for the first NAMES_SHOWN of n names, then " +N more". */
static void add_name(struct sb *sb, size_t *shown, size_t n, const char *name)
{
	if (*shown < NAMES_SHOWN)
		sb_addf(sb, "%s%s", *shown ? ", " : "", name);
	else if (*shown == NAMES_SHOWN)
		sb_addf(sb, " +%zu more", n - NAMES_SHOWN);
	(*shown)++;
}

/* "under gpu_types A|B and sites x": the restriction of w. */
static void add_scope(struct sb *sb, const struct workload *w)
{
	size_t i;
	sb_adds(sb, " under");
	if (w->ngpu_types) {
		sb_adds(sb, " gpu_types ");
		for (i = 0; i < w->ngpu_types; i++)
			sb_addf(sb, "%s%s", i ? "|" : "", w->gpu_types[i]->id);
	}
	if (w->nsites) {
		sb_adds(sb, w->ngpu_types ? " and sites " : " sites ");
		for (i = 0; i < w->nsites; i++)
			sb_addf(sb, "%s%s", i ? "|" : "", w->sites[i]);
	}
}

/*
 * The message for the classes in `in` and the workloads whose classes lie
 * in it, or NULL when they fit.  scope: the workload whose restriction
 * names the set, or NULL for the whole inventory.
 */
static char *check_set(const struct scenario *sc, const struct cset *cs, const uint64_t *in,
		       const struct workload *scope)
{
	const struct inventory *inv = &sc->inventory;
	const struct workloads *wl = &sc->workloads;
	double asked = 0;
	long gpus = 0;
	size_t i, nw = 0, nc = 0, shown = 0;
	int takes = 0;
	struct sb sb;
	char a[64];

	for (i = 0; i < wl->n; i++)
		if (subset(cs, set_of(cs, i), in)) {
			asked += (double)wl->w[i].replicas * workload_gpu_equivalents(&wl->w[i]);
			nw++;
		}
	for (i = 0; i < inv->n; i++)
		if (has(in, i)) {
			gpus += inv->classes[i].count * inv->classes[i].gpus_per_node;
			takes |= inv->classes[i].own != OWN_OWNED;
			nc++;
		}
	if (asked <= (double)gpus + EQ_EPS)
		return NULL;
	sb_init(&sb);
	sb_adds(&sb, "demand exceeds capacity");
	if (scope)
		add_scope(&sb, scope);
	sb_addf(&sb, ": %s GPU-equivalents asked by %zu workload%s (", fmt_fixed(a, sizeof(a), asked, 2), nw,
		nw == 1 ? "" : "s");
	for (i = 0; i < wl->n; i++)
		if (subset(cs, set_of(cs, i), in))
			add_name(&sb, &shown, nw, wl->w[i].name);
	sb_addf(&sb, ") of %ld GPU%s in %zu node class%s (", gpus, gpus == 1 ? "" : "s", nc, nc == 1 ? "" : "es");
	shown = 0;
	for (i = 0; i < inv->n; i++)
		if (has(in, i))
			add_name(&sb, &shown, nc, inv->classes[i].name);
	sb_addf(&sb, ")%s; some replicas will stay unplaced",
		takes ? ", counting those to buy or rent at their maximum count" : "");
	return sb_detach(&sb);
}

size_t scenario_overasked(const struct scenario *sc, char ***msgs)
{
	const struct inventory *inv = &sc->inventory;
	const struct workloads *wl = &sc->workloads;
	struct cset cs;
	uint64_t *all;
	size_t i, j, k, n = 0;
	char *m;

	*msgs = NULL;
	cs.words = inv->n / 64 + 1;
	cs.bits = xcalloc((wl->n + 1) * cs.words, sizeof(*cs.bits));
	all = xcalloc(cs.words, sizeof(*all));
	for (k = 0; k < inv->n; k++)
		all[k / 64] |= (uint64_t)1 << (k % 64);
	for (i = 0; i < wl->n; i++)
		for (k = 0; k < inv->n; k++)
			if (scenario_class_allows(&inv->classes[k], &wl->w[i]))
				cs.bits[i * cs.words + k / 64] |= (uint64_t)1 << (k % 64);
	*msgs = xcalloc(wl->n + 2, sizeof(**msgs));
	if ((m = check_set(sc, &cs, all, NULL)) != NULL)
		(*msgs)[n++] = m;
	for (i = 0; i < wl->n; i++) {
		const uint64_t *s = set_of(&cs, i);
		if (subset(&cs, all, s))	/* every class: checked above */
			continue;
		for (j = 0; j < i; j++)		/* the first workload with this set names it */
			if (subset(&cs, s, set_of(&cs, j)) && subset(&cs, set_of(&cs, j), s))
				break;
		if (j < i)
			continue;
		if ((m = check_set(sc, &cs, s, &wl->w[i])) != NULL)
			(*msgs)[n++] = m;
	}
	free(all);
	free(cs.bits);
	if (!n) {
		free(*msgs);
		*msgs = NULL;
	}
	return n;
}
