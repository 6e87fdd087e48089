/*
 * problem_share.h - time-slice configurations mixing compute
 * shares (problem_share.c).
 */
#ifndef PLANNER_PROBLEM_SHARE_H
#define PLANNER_PROBLEM_SHARE_H

#include "problem.h"
#include "problem_slot.h"

/*
 * Adds to e->c the time-slice mixes (licence lic) that a best-fit-
 * decreasing packing of the demand that may time-slice there produces:
 * the most used patterns of two or more slots.
 */
void problem_add_share_configs(struct problem_enum_ctx *e, enum lic_product lic);

#endif
