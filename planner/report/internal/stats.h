/*
 * stats.h - what the reports share with the plan statistics (stats.c).
 */
#ifndef PLANNER_REPORT_STATS_H
#define PLANNER_REPORT_STATS_H

#include "catalog.h"
#include "cplan.h"
#include "workload.h"

/*
 * What one replica of w asks of a GPU of type g: memory in MiB (whole
 * GPUs: their memory) and compute in GPUs (whole GPUs, or its share).
 */
void report_replica_ask(const struct workload *w, const struct gpu_type *g, double *mem, double *comp);

struct report_note {
	char *what;		/* "workload 'x' asks 10.00 GiB, more than ..." */
	char *source;		/* "gpus.yaml:403: ..." */
};

struct report_notes {
	size_t n;
	struct report_note *notes;
};

/*
 * The notes a plan's summary lists with its assumptions about usable MIG
 * memory, in slot order, each once: a workload placed on MIG (or
 * MIG-backed vGPU) of a GPU type with a profile whose nominal size would
 * hold its memory ask but whose usable memory does not (so it takes a
 * larger profile); and every profile in use whose usable memory is
 * assumed.  Release with report_notes_release.
 */
void report_mig_notes(const struct cplan *cp, struct report_notes *rn);
void report_notes_release(struct report_notes *rn);

#endif
