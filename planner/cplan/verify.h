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

#endif
