/*
 * problem_match.h - class-level matching rules
 * (problem_match.c); the slot-level rule is public (problem_slot_fits).
 */
#ifndef PLANNER_PROBLEM_MATCH_H
#define PLANNER_PROBLEM_MATCH_H

#include "problem.h"

/* True when a node of class c may host w: site, GPU type, CPU and RAM of one node, GPUs per node. */
int problem_class_fits(const struct pclass *c, const struct workload *w);

#endif
