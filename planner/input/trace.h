/*
 * trace.h - a demand trace for `gpuplan simulate`: how many replicas of
 * each workload are asked, hour by hour.
 *
 * Two sources give the same structure:
 *
 *  - a CSV file (trace_load) with the columns timestamp, workload,
 *    replicas.  A timestamp is either an ISO 8601 UTC time
 *    (YYYY-MM-DDThh:mm:ssZ, YYYY-MM-DDThh:mmZ, YYYY-MM-DDThh:mm:ss+00:00,
 *    YYYY-MM-DD) or a number of hours from the start (0, 8, 13.5); one
 *    file uses one kind.  Rows come in time order.  Step 0 is the first
 *    row's hour; a row sets the workload's replicas from its step on,
 *    until the workload's next row (several rows of one workload in one
 *    step: the largest count).  A workload the trace names has 0
 *    replicas before its first row; a workload it never names keeps its
 *    `replicas` from the workloads file all along.  The trace's period
 *    runs to the hour after its last row.
 *
 *  - a generator (trace_generate) for the common shapes, from a spec
 *    "SHAPE[:KEY=VALUE,...]": `flat` (the workloads file's replicas every
 *    hour) or `daily` (a working-day window), with monthly growth and a
 *    weekend factor.  See trace_generate.
 *
 * Ownership: the trace owns its arrays and strings; trace_release frees
 * them.
 */
#ifndef PLANNER_TRACE_H
#define PLANNER_TRACE_H

#include <stddef.h>

#include "diag.h"
#include "workload.h"

#define TRACE_MAX_HOURS 87600L	/* ten years of hourly steps */

struct trace {
	char *source;		/* the file as given, or "generated SPEC" */
	size_t nsteps;		/* hours in the period */
	size_t nw;		/* workloads (those of the scenario, in file order) */
	int *replicas;		/* [step * nw + w] */
	int iso;		/* timestamps were ISO 8601: t0 is the time of step 0 */
	long long t0;		/* seconds since 1970-01-01T00:00:00Z */
};
#define TRACE_INIT { NULL, 0, 0, NULL, 0, 0 }

/*
 * Reads a trace CSV for the workloads wl.  Errors are DIAG_INPUT at
 * FILE:LINE:COL (COL the field number): a bad or non-UTC timestamp, a
 * time going back, kinds mixed, an unknown workload (with a hint), a
 * replica count outside 0..1000000, a period over TRACE_MAX_HOURS.
 */
int trace_load(struct trace *tr, const char *path, const struct workloads *wl, struct diag *d);

/*
 * Builds a trace from spec for wl (errors are DIAG_USAGE, naming the spec
 * key).  Shapes and keys:
 *
 *   flat                  every hour: the workloads file's replicas
 *   daily                 R x level(h) x (1 + growth)^month, rounded half up
 *     hours_per_day=H     the day window's length, 1..24 (default 10)
 *     start_hour=S        the window's first hour, 0..23 (default 8)
 *     base=B              level outside the window, 0..1 (default 0)
 *     weekend=W           level factor on days 6 and 7 of each week
 *                         (day 1 is the first day), 0..1 (default 1)
 *     workloads=A|B       only these follow the window; others are flat
 *   both shapes:
 *     growth=G            monthly growth rate, -0.5..10 (default 0); month
 *                         m covers hours [730 m, 730 (m + 1))
 *     hours=N             length, 1..TRACE_MAX_HOURS (default default_hours)
 */
int trace_generate(struct trace *tr, const char *spec, const struct workloads *wl, long default_hours,
		   struct diag *d);

void trace_release(struct trace *tr);

/* Replicas of workload w at step (the trace repeats: step modulo the period). */
int trace_at(const struct trace *tr, size_t step, size_t w);

/*
 * An ISO 8601 UTC time as seconds since the epoch: YYYY-MM-DD, optionally
 * followed by THH:MM or THH:MM:SS and then Z or +00:00 (a 'T' or a
 * blank between date and time).  0, or -1 when s is not one.
 */
int trace_parse_time(const char *s, long long *secs);
/* Formats secs as "YYYY-MM-DDTHH:MM:SSZ" into buf (size >= 32). */
const char *trace_format_time(char *buf, size_t size, long long secs);

#endif
