/*
 * scenario_resilience.h - the scenario's resilience: block (scenario.h
 * holds what it reads into).  Private to input/: scenario.c calls it.
 */
#ifndef PLANNER_SCENARIO_RESILIENCE_H
#define PLANNER_SCENARIO_RESILIENCE_H

#include "scenario.h"
#include "ydoc.h"

/* Reads doc's resilience: block into sc->resilience (present 0 without one); 0, or -1 with d set at the field. */
int scenario_resilience_load(struct scenario *sc, const struct ydoc *doc, struct diag *d);

/*
 * Checks the block against the inventory: a count that leaves no node,
 * GPU or site standing.  0, or -1 with d set at count's value.
 */
int scenario_resilience_check(const struct scenario *sc, struct diag *d);

#endif
