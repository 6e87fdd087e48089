/*
 * cloud.c - cloud instance offers and their look-ups.  input/cloud_load.c
 * reads them (schema gpuplan-clouds/1).
 */
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "util.h"
#include "banned.h"

const char *const offer_pricing_names[] = { "on-demand", "reserved", "spot", NULL };

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

const char *clouds_suggest(const struct clouds *c, const char *s)
{
	const char **ids = xcalloc(c->n + 1, sizeof(*ids));
	const char *hint;
	size_t i;
	for (i = 0; i < c->n; i++)
		ids[i] = c->offers[i].id;
	hint = did_you_mean(s, ids);
	free(ids);
	return hint;
}
