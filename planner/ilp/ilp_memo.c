/*
 * ilp_memo.c - the memo of concrete plans and the counts they were dealt
 * from: dealing a concrete plan's own counts again need not give that
 * plan back, so the plan written is dealt from the counts it was made
 * from (ilp_concrete).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_memo.h"
#include "banned.h"

/* A copy of r's counts into to. */
static void counts_copy(const struct problem *p, struct pack_counts *to, const struct ilp_result *r)
{
	size_t k;

	to->nmode = xcalloc(p->nclasses * MODE_COUNT + 1, sizeof(*to->nmode));
	memcpy(to->nmode, r->nmode, p->nclasses * MODE_COUNT * sizeof(*to->nmode));
	to->ncfg = xcalloc(p->nclasses + 1, sizeof(*to->ncfg));
	for (k = 0; k < p->nclasses; k++) {
		to->ncfg[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**to->ncfg));
		memcpy(to->ncfg[k], r->ncfg[k], p->classes[k].nconfigs * sizeof(**to->ncfg));
	}
	to->arc = xcalloc(p->narcs + 1, sizeof(*to->arc));
	memcpy(to->arc, r->arc, p->narcs * sizeof(*to->arc));
}

static void counts_free(const struct problem *p, struct pack_counts *c)
{
	size_t k;

	for (k = 0; k < p->nclasses; k++)
		free(c->ncfg[k]);
	free(c->ncfg);
	free(c->nmode);
	free(c->arc);
}

uint64_t ilp_hash_longs(uint64_t h, const long *v, size_t n)
{
	size_t j;
	for (j = 0; j < n; j++)
		h = (h ^ (uint64_t)v[j]) * 1099511628211ULL;
	return h;
}

uint64_t ilp_counts_hash(const struct problem *p, const struct ilp_result *r)
{
	uint64_t h = ilp_hash_longs(1469598103934665603ULL, r->nmode, p->nclasses * MODE_COUNT);
	size_t k, i;

	for (k = 0; k < p->nclasses; k++)
		h = ilp_hash_longs(h, r->ncfg[k], p->classes[k].nconfigs);
	for (i = 0; i < p->narcs; i++) {
		long v = lround(r->arc[i] * 1e6);
		h = ilp_hash_longs(h, &v, 1);
	}
	return h;
}

/* Whether memo a comes before b: cheaper, or as cheap with a smaller hash. */
static int memo_before(double cost_a, uint64_t made_a, const struct pack_memo *b)
{
	return cost_a < b->cost || (cost_a == b->cost && made_a < b->made);
}

void ilp_memo_add(struct pack_memo *memo, size_t *n, const struct problem *p, uint64_t made, double cost,
		  const struct ilp_result *from)
{
	struct pack_memo *m;
	size_t i;

	for (i = 0; i < *n && memo[i].made != made; i++)
		;
	if (i < *n || (*n == PACK_MEMO && !memo_before(cost, made, &memo[PACK_MEMO - 1])))
		return;	/* known already (the same counts deal the same), or dearer than all kept */
	if (*n == PACK_MEMO)
		counts_free(p, &memo[--*n].from);
	for (i = *n; i > 0 && memo_before(cost, made, &memo[i - 1]); i--)
		memo[i] = memo[i - 1];
	m = &memo[i];
	(*n)++;
	m->made = made;
	m->cost = cost;
	counts_copy(p, &m->from, from);
}

void ilp_memo_free(const struct problem *p, struct pack_memo *memo, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		counts_free(p, &memo[i].from);
}
