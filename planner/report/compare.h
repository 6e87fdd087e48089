/*
 * compare.h - several scenarios planned and lined up: compare.csv (one
 * row per scenario) and compare.json, written all or nothing.
 *
 * A row holds the figures an architect compares: total over the horizon
 * and per year, cost by category, cost per placed GPU-hour, utilisation,
 * licences, placed and unplaced replicas, mode mix, solver status.
 * Every figure is the plan report's own (gpuplan plan on the same
 * scenario gives the same numbers), so each can be traced by hand.
 *
 * Ownership: a row owns its strings; compare_row_release frees them.
 */
#ifndef PLANNER_COMPARE_H
#define PLANNER_COMPARE_H

#include <stddef.h>

#include "diag.h"
#include "plan.h"
#include "report.h"

#define COMPARE_SCHEMA_VERSION "1.0.0"

struct compare_row {
	char *scenario;		/* the scenario's name */
	char *file;		/* the scenario file as given */
	const char *status;	/* solver status */
	double gap;
	double horizon_years;
	double total, per_year;
	double cat[CAT_COUNT];
	double cost_per_gpu_hour;	/* total / placed GPU-hours (0 when nothing is placed) */
	double mem_util, compute_util;
	long lic_gpus[LIC_COUNT], seats[LIC_COUNT];
	long placed, unplaced;
	long nodes, gpus;
	long nodes_by_mode[MODE_COUNT], gpus_by_mode[MODE_COUNT];
};

/* Fills row from a planning run of the scenario in file. */
void compare_row_fill(struct compare_row *row, const char *file, const struct plan_result *r);
void compare_row_release(struct compare_row *row);

/* Writes compare.csv and/or compare.json into dir (fmt as report.h). */
int compare_write(const char *dir, enum report_format fmt, const struct compare_row *rows, size_t n,
		  struct diag *d);

#endif
