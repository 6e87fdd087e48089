/*
 * sweep_stats.h - the figures of a sweep's merged report, computed from
 * the case files in case order (sweep_stats.c), which the writers of the
 * reports (sweep_merge.c) and the command's summary only format.  Private
 * to the sweep layer: the figures travel out in struct sweep_merge_stats
 * (sweep_report.h).
 */
#ifndef PLANNER_SWEEP_STATS_H
#define PLANNER_SWEEP_STATS_H

#include "sweep_report.h"

/*
 * Fills st from cases[0..sweep_ncases(s)): the counts, each option's
 * figures, the sensitivity rows and the break-even points, by design
 * (docs/sweep.md); sweep_merge_stats_release frees them.
 */
void sweep_stats_compute(struct sweep_merge_stats *st, const struct sweep_spec *s,
			 const struct sweep_case_result *cases);

/* v rounded to decimals places (money: 2). */
double sweep_round(double v, int decimals);

#endif
