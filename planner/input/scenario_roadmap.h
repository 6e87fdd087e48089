/*
 * scenario_roadmap.h - the scenario's roadmap: block (period.h holds what
 * it reads into).  Private to input/: scenario.c calls it.
 */
#ifndef PLANNER_SCENARIO_ROADMAP_H
#define PLANNER_SCENARIO_ROADMAP_H

#include "scenario.h"
#include "ydoc.h"

/* Reads doc's roadmap: block into sc->roadmap (present 0 without one); 0, or -1 with d set at the field. */
int scenario_roadmap_load(struct scenario *sc, const struct ydoc *doc, const char *dir, struct diag *d);

/*
 * Checks the block against the licence model, once loaded: every
 * licence_terms id is a term of some product (with a hint), every quote
 * names a product's subscription or perpetual term; 0, or -1 with d set
 * at the scenario's line and column.
 */
int scenario_roadmap_check(const struct scenario *sc, struct diag *d);
/* Frees what the block owns. */
void scenario_roadmap_release(struct scenario_roadmap *R);

#endif
