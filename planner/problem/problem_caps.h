/*
 * problem_caps.h - numbering the sites and the demands with a domain cap
 * (problem_caps.c), for problem_build.
 */
#ifndef PLANNER_PROBLEM_CAPS_H
#define PLANNER_PROBLEM_CAPS_H

#include "problem.h"

/* Sets p->class_site, p->nsites, each demand's cap and p->ncapped. */
void problem_caps_build(struct problem *p);

#endif
