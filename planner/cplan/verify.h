/*
 * verify.h - an independent check of a concrete plan before anything is
 * written.  It recomputes what each slot offers from the catalog (not
 * from the enumeration that produced it), re-validates every GPU's
 * partition against the placement table, and re-checks every slot's and
 * node's load.  A plan that fails is a bug in the planner.
 */
#ifndef PLANNER_VERIFY_H
#define PLANNER_VERIFY_H

#include "cplan.h"
#include "diag.h"

/*
 * 0 when the plan is sound; -1 with d (DIAG_IO) naming the first fault.
 * Includes verify_spread.
 */
int verify_plan(const struct cplan *cp, struct diag *d);

/*
 * The workloads' DoNotSchedule spreads (max_skew over the eligible
 * domains, with min_domains) and availability rules (at most replicas -
 * need a domain), recounted from the slots (verify_spread.c).  0 when
 * every rule holds; -1 with d (DIAG_IO) naming the first broken one.
 */
int verify_spread(const struct cplan *cp, struct diag *d);

/*
 * A ScheduleAnyway spread the plan goes past: Kubernetes scores such a
 * spread and schedules anyway, so the plan is not held to it (it puts
 * no cap on it) and the reports say where it went past its max_skew.
 * The skew is recounted as verify_spread counts a DoNotSchedule one.
 */
struct spread_skew {
	int d;			/* the demand */
	long skew;		/* its fullest domain's replicas less the global minimum */
	long top;		/* replicas on that domain */
	long min;		/* the global minimum over the eligible domains */
	char *domain;		/* the fullest domain's name (a node's, or a site) */
};
/*
 * Every placed ScheduleAnyway demand whose skew is above its max_skew, in
 * demand order, into *out (NULL when none; free with
 * verify_spread_skews_free); the count.
 */
size_t verify_spread_skews(const struct cplan *cp, struct spread_skew **out);
void verify_spread_skews_free(struct spread_skew *s, size_t n);

#endif
