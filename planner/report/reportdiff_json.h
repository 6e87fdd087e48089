/*
 * reportdiff_json.h - the JSON form of a comparison (reportdiff_json.c).
 */
#ifndef PLANNER_REPORT_REPORTDIFF_JSON_H
#define PLANNER_REPORT_REPORTDIFF_JSON_H

#include "reportdiff.h"

/* rd_diff_format's RD_JSON form, with a final newline; caller frees. */
char *rd_json_format(const struct rd_diff *df, const char *command);

#endif
