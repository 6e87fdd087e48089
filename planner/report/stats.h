/*
 * stats.h - what the reports share with the plan statistics (stats.c).
 */
#ifndef PLANNER_REPORT_STATS_H
#define PLANNER_REPORT_STATS_H

#include "catalog.h"
#include "cplan.h"
#include "report.h"
#include "workload.h"

/*
 * What one replica of w asks of a GPU of type g: memory in MiB (whole
 * GPUs: their memory) and compute in GPUs (whole GPUs, or its share).
 */
void report_replica_ask(const struct workload *w, const struct gpu_type *g, double *mem, double *comp);


#endif
