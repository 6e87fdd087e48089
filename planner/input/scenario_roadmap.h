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

#endif
