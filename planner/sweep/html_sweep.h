/*
 * html_sweep.h - report.html of a sweep's merged report (html_sweep.c),
 * drawn with the report layer's pieces (html.h).  Private to sweep/:
 * sweep_merge.c writes the page.
 */
#ifndef PLANNER_SWEEP_HTML_SWEEP_H
#define PLANNER_SWEEP_HTML_SWEEP_H

#include <cJSON.h>

/* The page from sweep.json's tree; caller frees. */
char *html_sweep_page(const cJSON *doc);

#endif
