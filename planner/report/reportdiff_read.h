/*
 * reportdiff_read.h - what the comparison shares with the report reader
 * (reportdiff_read.c).
 */
#ifndef PLANNER_REPORT_REPORTDIFF_READ_H
#define PLANNER_REPORT_REPORTDIFF_READ_H

/*
 * qsort order of struct rd_unplaced: by workload, then tenant (byte
 * order), the order of rd_report's unplaced rows.
 */
int rd_unplaced_cmp(const void *a, const void *b);
/* The same order for struct rd_placed (rd_report's placed and prio rows). */
int rd_placed_cmp(const void *a, const void *b);

#endif
