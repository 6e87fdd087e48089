/*
 * license.c - the licence model: products, terms, rules, bundles, and
 * their look-ups.  input/license_load.c reads it from models/licenses.yaml.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "license.h"
#include "util.h"
#include "banned.h"

const char *const lic_product_ids[] = { "none", "vcs", "nvaie", NULL };
static const char *const lic_counting_names[] = { "physical-gpu", "vgpu-seat", NULL };

const char *lic_product_id(enum lic_product p)
{
	return (unsigned)p < LIC_COUNT ? lic_product_ids[p] : "?";
}

int lic_product_parse(const char *s, enum lic_product *out)
{
	int i;
	for (i = 1; i < LIC_COUNT; i++)
		if (!strcmp(s, lic_product_ids[i])) {
			*out = (enum lic_product)i;
			return 0;
		}
	return -1;
}

const char *const lic_hosting_names[] = { "onprem", "cloud", NULL };

enum lic_hosting lic_hosting_of(enum hypervisor hv)
{
	return hv == HV_CLOUD ? LIC_HOST_CLOUD : LIC_HOST_ONPREM;
}

int lic_term_buyable(const struct lic_term *t, enum hypervisor hv)
{
	return (t->hosting & (1u << lic_hosting_of(hv))) != 0;
}

const char *lic_counting_name(enum lic_counting c)
{
	return (unsigned)c <= COUNT_VGPU_SEAT ? lic_counting_names[c] : "?";
}

void licenses_release(struct licenses *L)
{
	size_t i, j;
	for (i = 0; i < LIC_COUNT; i++) {
		for (j = 0; j < L->product[i].nterms; j++) {
			free(L->product[i].terms[j].id);
			free(L->product[i].terms[j].source);
		}
		free(L->product[i].terms);
		free(L->product[i].name);
	}
	for (i = 0; i < L->nrules; i++)
		free(L->rules[i].source);
	free(L->rules);
	for (i = 0; i < L->nbundles; i++) {
		free(L->bundles[i].types);
		free(L->bundles[i].source);
	}
	free(L->bundles);
	free(L->file);
	memset(L, 0, sizeof(*L));
}

const struct lic_term *licenses_term(const struct licenses *L, enum lic_product p, const char *id)
{
	size_t i;
	if ((unsigned)p >= LIC_COUNT)
		return NULL;
	for (i = 0; i < L->product[p].nterms; i++)
		if (!strcmp(L->product[p].terms[i].id, id))
			return &L->product[p].terms[i];
	return NULL;
}

const struct lic_rule *licenses_rule(const struct licenses *L, enum gpu_mode m, enum hypervisor hv)
{
	size_t i;
	for (i = 0; i < L->nrules; i++)
		if (L->rules[i].mode == m && (L->rules[i].hypervisors & (1u << hv)))
			return &L->rules[i];
	return NULL;
}

int licenses_bundle_years(const struct licenses *L, enum lic_product p, const struct gpu_type *g,
			  const struct lic_bundle **which)
{
	size_t i, j;
	for (i = 0; i < L->nbundles; i++) {
		if (L->bundles[i].product != p)
			continue;
		for (j = 0; j < L->bundles[i].ntypes; j++)
			if (L->bundles[i].types[j] == g) {
				if (which)
					*which = &L->bundles[i];
				return L->bundles[i].years;
			}
	}
	if (which)
		*which = NULL;
	return 0;
}
