/*
 * reportdiff_json.h - the JSON form of a comparison (reportdiff_json.c).
 */
#ifndef PLANNER_REPORT_REPORTDIFF_JSON_H
#define PLANNER_REPORT_REPORTDIFF_JSON_H

#include <cJSON.h>

#include "reportdiff.h"

/* rd_diff_format's RD_JSON form, with a final newline; caller frees. */
char *rd_json_format(const struct rd_diff *df, const char *command);
/*
 * One row of a check's "thresholds" (plan's and the roadmap's): option,
 * measures (left out when NULL), unit, limit, value (to 4 decimals; null
 * when infinite: a percent rise from 0) and whether it was exceeded.
 */
cJSON *rd_json_threshold(const char *option, const char *measures, const char *unit, double limit, double value,
			 int exceeded);

#endif
