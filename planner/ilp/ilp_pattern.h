/*
 * ilp_pattern.h - the node patterns of single-GPU classes
 * (ilp_pattern.c): columns and rows valid for every concrete plan, for
 * the bound search's copy of the model.
 */
#ifndef PLANNER_ILP_PATTERN_H
#define PLANNER_ILP_PATTERN_H

#include "ilp_model.h"

/*
 * Adds to Q, a copy of the whole model (columns cl), the maximal node
 * patterns of every class of one GPU per node as continuous columns
 * after cl's, with their rows: the GPUs of a configuration share its
 * patterns, and an arc's replicas are no more than its patterns hold.
 * Returns the configurations given patterns.
 */
size_t ilp_pattern_rows(glp_prob *Q, const struct problem *p, const struct arcidx *ix, const struct cols *cl);

#endif
