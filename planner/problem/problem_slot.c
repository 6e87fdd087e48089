/*
 * problem_slot.c - the primitives every configuration enumerator uses
 * (problem_config.c, problem_share.c): a class's slot types, found or
 * added, and its configurations, created, filled and freed.
 */
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "problem_slot.h"
#include "util.h"
#include "banned.h"

int problem_slot_type_get(struct pclass *c, size_t *cap, const struct slot_type *proto)
{
	size_t i;
	for (i = 0; i < c->nslot_types; i++) {
		const struct slot_type *s = &c->slot_types[i];
		if (s->mode == proto->mode && s->lic == proto->lic && !strcmp(s->name, proto->name))
			return (int)i;
	}
	XGROW(c->slot_types, *cap, c->nslot_types + 1);
	c->slot_types[c->nslot_types] = *proto;
	c->slot_types[c->nslot_types].name = xstrdup(proto->name);
	return (int)c->nslot_types++;
}

void problem_config_add_slot(struct config *cf, int slot, int count)
{
	size_t i;
	for (i = 0; i < cf->nslots; i++) {
		if (cf->slot[i] == slot) {
			cf->count[i] += count;
			return;
		}
	}
	cf->slot = xrealloc(cf->slot, (cf->nslots + 1) * sizeof(*cf->slot));
	cf->count = xrealloc(cf->count, (cf->nslots + 1) * sizeof(*cf->count));
	cf->slot[cf->nslots] = slot;
	cf->count[cf->nslots] = count;
	cf->nslots++;
}

struct config *problem_config_new(struct pclass *c, size_t *cap, enum gpu_mode mode, enum lic_product lic,
				 char *name)
{
	struct config *cf;
	XGROW(c->configs, *cap, c->nconfigs + 1);
	cf = &c->configs[c->nconfigs++];
	memset(cf, 0, sizeof(*cf));
	cf->mode = mode;
	cf->lic = lic;
	cf->name = name;
	cf->vgpu_profile = -1;
	return cf;
}

void problem_config_free(struct config *cf)
{
	free(cf->name);
	free(cf->slot);
	free(cf->count);
	free(cf->real_slot);
	free(cf->real_count);
}

/* Drops the geometries of geo[0 .. n - 1] that another one's instances include; how many are left. */
