/*
 * reportdiff_text.h - the text and Markdown forms of a comparison
 * (reportdiff_text.c).
 */
#ifndef PLANNER_REPORT_REPORTDIFF_TEXT_H
#define PLANNER_REPORT_REPORTDIFF_TEXT_H

#include "reportdiff.h"

/* rd_diff_format's RD_TEXT (markdown 0) or RD_MARKDOWN (markdown 1) form; caller frees. */
char *rd_text_format(const struct rd_diff *df, int markdown, const char *command);

#endif
