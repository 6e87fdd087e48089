/*
 * cloud.c - cloud instance offers and their look-ups.  input/cloud_load.c
 * reads them (schema gpuplan-clouds/1).
 */
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "util.h"
#include "banned.h"

const char *const offer_pricing_names[] = { "on-demand", "reserved", "spot", "savings-plan",
						     "capacity-block", NULL };
const char *const offer_upfront_names[] = { "none", "partial", "all", NULL };

double cloud_offer_hourly(const struct cloud_offer *of)
{
	if (of->block_days > 0)
		return of->usd_per_hour + of->upfront_usd / (of->block_days * 24.0);
	if (of->term_years <= 0)
		return of->usd_per_hour;
	return of->usd_per_hour + of->upfront_usd / (of->term_years * 8760.0);
}

const char *offer_pricing_name(enum offer_pricing p)
{
	return (unsigned)p < PRICING_COUNT ? offer_pricing_names[p] : "?";
}

void clouds_release(struct clouds *c)
{
	size_t i;
	for (i = 0; i < c->n; i++) {
		free(c->offers[i].id);
		free(c->offers[i].cloud);
		free(c->offers[i].instance);
		free(c->offers[i].region);
		free(c->offers[i].source);
	}
	free(c->offers);
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	memset(c, 0, sizeof(*c));
}

const struct cloud_offer *clouds_find(const struct clouds *c, const char *id)
{
	size_t i;
	for (i = 0; i < c->n; i++)
		if (!strcmp(c->offers[i].id, id))
			return &c->offers[i];
	return NULL;
}

size_t clouds_suggest(const struct clouds *c, const char *s, const char **out)
{
	int *rank = xcalloc(c->n + 1, sizeof(*rank));
	size_t i, near, idx[HINT_MAX];

	for (i = 0; i < c->n; i++) {
		const struct cloud_offer *of = &c->offers[i];
		rank[i] = str_nearness(s, of->id);
		if ((rank[i] < 0 || rank[i] > 1) && of->instance && strlen(of->instance) >= 3 &&
		    str_contains_nocase(s, of->instance))
			rank[i] = 1;
	}
	near = hint_pick(rank, c->n, idx);
	for (i = 0; i < near && i < HINT_MAX; i++)
		out[i] = c->offers[idx[i]].id;
	free(rank);
	return near;
}
