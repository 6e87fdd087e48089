/*
 * additions.h - the additions.csv report and plan.json's `additions` and
 * `to_place_all` (additions.c).
 */
#ifndef PLANNER_REPORT_ADDITIONS_H
#define PLANNER_REPORT_ADDITIONS_H

#include <cJSON.h>

#include "plan.h"
#include "util.h"

/* Writes additions.csv into csv and the two fields into json (the plan.json object). */
void report_additions(struct sb *csv, cJSON *json, const struct plan_result *r);

#endif
