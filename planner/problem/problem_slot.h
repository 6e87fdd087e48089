/*
 * problem_slot.h - a class's enumeration under way, and the
 * slot-type and configuration primitives the enumerators share
 * (problem_slot.c).
 */
#ifndef PLANNER_PROBLEM_SLOT_H
#define PLANNER_PROBLEM_SLOT_H

#include <stddef.h>

#include "problem.h"

/* One class's enumeration under way. */
struct problem_enum_ctx {
	struct problem *p;	/* the problem being built (scenario, pricing) */
	struct pclass *c;	/* the class enumerated */
	size_t stcap, cfcap;	/* allocated c->slot_types, c->configs */
	int want_nvaie;		/* some demand needs NVAIE */
	int *group_sizes;	/* passthrough group sizes >= 2 asked, ascending */
	size_t ngroup_sizes;
	int multi_max;		/* most full-size vGPUs one VM may have on the class's hypervisor */
};

/*
 * The slot type of c like proto (same mode, licence and name), added
 * (with a copy of proto's name) when there is none; its index.  *cap:
 * allocated c->slot_types.
 */
int problem_slot_type_get(struct pclass *c, size_t *cap, const struct slot_type *proto);

/* Adds count slots of type slot to configuration cf. */
void problem_config_add_slot(struct config *cf, int slot, int count);

/* A new empty configuration of c, owning name; *cap: allocated c->configs. */
struct config *problem_config_new(struct pclass *c, size_t *cap, enum gpu_mode mode, enum lic_product lic,
				  char *name);

/* Frees what configuration cf owns (not cf). */
void problem_config_free(struct config *cf);

#endif
