/*
 * html_pages.h - the report.html pages: a plan (html_plan.c, its GPU
 * layouts and utilisation in html_layout.c, its failure chart in
 * html_failures.c and the headroom's cost in html_resilience.c), a comparison
 * (html_compare.c), a simulation (html_sim.c), a check against a
 * baseline (html_check.c) and a roadmap (html_roadmap.c); a sweep's page is the sweep layer's
 * (sweep/html_sweep.c), drawn with html.h.  Each returns the whole page;
 * caller frees.
 */
#ifndef PLANNER_REPORT_HTML_PAGES_H
#define PLANNER_REPORT_HTML_PAGES_H

#include <cJSON.h>

#include "compare.h"
#include "plan.h"
#include "reportdiff.h"
#include "roadmap.h"
#include "simulate.h"
#include "util.h"

/* Node layouts drawn per node class at most; the rest are counted (gpus.csv has every GPU). */
#define HTML_MAX_LAYOUTS 12

/* The plan page from plan.json's tree (doc) and the run it was built from. */
char *html_plan_page(const cJSON *doc, const struct plan_result *r);

/* The GPU layout section: per node class, identical nodes drawn once ("12 nodes like this"). */
void html_layouts(struct sb *sb, const struct cplan *cp);
/* The utilisation section: memory and compute per node class, stranded capacity by cause. */
void html_utilisation(struct sb *sb, const struct cplan *cp);

/*
 * The failures section: per node and per site, the replicas its loss
 * strands, by priority (html_failures.c); then, with a resilience: block,
 * what its headroom costs (html_headroom, from plan.json's tree doc).
 */
void html_failures(struct sb *sb, const struct plan_result *r, const cJSON *doc);
/* What the resilience: headroom costs (html_resilience.c), from plan.json's tree; nothing without one. */
void html_headroom(struct sb *sb, const cJSON *doc);

/* The comparison page: rows in the given ranking order, with the verdict. */
char *html_compare_page(const struct compare_row *rows, size_t n, const size_t *order, const char *verdict);
/* The simulation page. */
char *html_sim_page(const struct sim_result *r);
/* The roadmap page. */
char *html_roadmap_page(const struct roadmap_result *r);
/* A comparison with a baseline (command "check" or "diff"). */
char *html_check_page(const struct rd_diff *df, const char *command);

#endif
