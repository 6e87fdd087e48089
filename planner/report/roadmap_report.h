/*
 * roadmap_report.h - the roadmap's reports (docs/formats.md, "Roadmap
 * reports"): schedule.csv, periods.csv, summary.csv and roadmap.json,
 * written all or nothing.
 */
#ifndef PLANNER_ROADMAP_REPORT_H
#define PLANNER_ROADMAP_REPORT_H

#include "diag.h"
#include "roadmap.h"

#define ROADMAP_SCHEMA_VERSION "1.2.0"

/*
 * roadmap.json's text (what report_roadmap_write writes), NUL-terminated;
 * caller frees.
 */
char *report_roadmap_json(const struct roadmap_result *r);
/* Writes the reports into dir; 0, or -1 with d set (DIAG_IO). */
int report_roadmap_write(const char *dir, const struct roadmap_result *r, struct diag *d);

#endif
