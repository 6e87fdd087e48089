/*
 * problem_config.h - enumerating a node class's configurations
 * and slot types (problem_config.c; time-slice share mixes in
 * problem_share.c).
 */
#ifndef PLANNER_PROBLEM_CONFIG_H
#define PLANNER_PROBLEM_CONFIG_H

#include <stddef.h>

#include "problem.h"
#include "problem_slot.h"

/*
 * Adds every configuration (and the slot types it creates) that e->c's
 * hypervisor allows: passthrough node patterns, then the other modes in
 * mode order, each in its licence variants (the mode's product, and
 * NVAIE when some demand needs it).  Costs are left 0.
 */
void problem_enumerate(struct problem_enum_ctx *e);

#endif
