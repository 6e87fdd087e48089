/*
 * resilience.h - the scenario's resilience: block applied to a plan:
 * free capacity added until every failure of the asked kind leaves room
 * for every replica of the asked priority (docs/formulation.md,
 * "Resilience"), and what that headroom costs.
 *
 * The loop (resilience.c): analyse the plan's failures, cover each one
 * that strands a replica of priority >= P by adding capacity outside it
 * (reserve.h), analyse again; stop when none strands (met), when a round
 * changes nothing (the inventory has no more to give: not met), after
 * RESIL_ROUNDS rounds, or at the run's deadline.  With count 1 the check
 * is the failure analysis the reports make anyway: it is never cut (its
 * time is the reports'), and the last one is handed to them
 * (plan_resilience.check), so the plan written always has a verdict.
 * With count > 1 the deadline is polled before each set checked.  It is
 * polled before each set and replica covered; covers run only while a
 * check after them fits (the last check's time), and a check has the
 * run's whole limit, so every stop but a check cut short comes right
 * after a check of the plan as it is, and the verdict is of the plan
 * written; a check cut short (count > 1) says how many failures it
 * reached and is never "met".  No replica of
 * the floor or above moves, so each failure loses the same such
 * replicas every round.
 */
#ifndef PLANNER_RESILIENCE_H
#define PLANNER_RESILIENCE_H

#include <stddef.h>

#include "cplan.h"
#include "deadline.h"
#include "failures.h"
#include "scenario.h"

/* The most rounds of the loop: each round covers every failure still stranding at once. */
#define RESIL_ROUNDS 8
/* The most sets of `count` nodes checked one by one; above it, the sets are chosen (not every one). */
#define RESIL_SETS_MAX 20000

/* What the headroom did and costs. */
struct plan_resilience {
	struct scenario_resilience ask;	/* the block, as read */
	int met;		/* every failure checked leaves room for every replica of priority >= P */
	int proven;		/* every failure of the kind was checked (not a chosen subset of the sets) */
	const char *why;	/* not met or not proven: why (static text); NULL otherwise */
	int rounds;		/* rounds of the loop run */
	int stopped;		/* the run's deadline stopped the loop */
	size_t failures;	/* failures (sets) checked in the last round */
	double sets_total;	/* the failures of the kind there are (C(nodes, count) for count > 1) */
	long stranded;		/* replicas of priority >= P the worst failure checked still strands */
	size_t failing;		/* failures checked that still strand one */
	long stranded_without;	/* the worst failure's stranded replicas before the headroom */
	size_t failing_without;	/* failures that stranded one before the headroom */
	char *worst;		/* that failure's name (nodes joined by '+'), or NULL */
	size_t *worst_nodes;	/* count > 1: that set's nodes (worst_n of them), NULL otherwise */
	int *worst_gpus;	/* and per node the GPU lost (kind gpu); NULL: whole nodes */
	size_t worst_n;
	double cost_without, cost_with;	/* over the horizon: the plan before the headroom and after */
	long gpus_without, gpus_with;	/* GPUs in used nodes */
	long nodes_without, nodes_with;
	/*
	 * GPUs of headroom: GPUs in service (with a slot on them: a
	 * passthrough group, a MIG, vGPU or shared configuration) with the
	 * headroom less without.  The replicas placed are the same in both
	 * plans, so these are GPUs kept free for a failure's replicas; an
	 * idle GPU of a used node is none (the failure analysis configures
	 * no GPU), a GPU the headroom configured on a node already in use is.
	 * With make_room, plus the GPUs its left-out replicas left empty
	 * (their slots were in service before).
	 */
	long headroom_gpus;
	long left_out;			/* make_room: replicas below the floor left out of the plan for headroom */
	double usd_per_year;		/* (cost_with - cost_without) / horizon */
	double usd_per_year_per_gpu;	/* that per GPU of headroom; 0 when headroom_gpus <= 0 */
	/*
	 * count 1: the last check, the failure analysis of the kind of the
	 * plan as the loop left it (have_check; 0 when covers ran after it),
	 * for the reports' analysis to take rather than run again
	 * (failures_analyse_with).
	 */
	struct failures check;
	int have_check;
};

/*
 * Adds the headroom sc->resilience asks to cp (the plan to report), with
 * dl the run's deadline; the figures into r (released by
 * plan_resilience_release).  Checks of single losses run whole, checks of
 * sets to dl's limit; the covers end after_s seconds before it (for what
 * follows the loop) and a check's time more.
 */
void plan_resilience_run(struct plan_resilience *r, struct cplan *cp, const struct scenario *sc,
			 struct deadline *dl, double after_s);
void plan_resilience_release(struct plan_resilience *r);

/*
 * What the reports say of replicas left out of the plan for headroom
 * (make_room), as a line of the plan's assumptions; NULL when none was.
 * Caller frees.
 */
char *plan_resilience_note(const struct plan_resilience *r);

/*
 * With count > 1, the worst set of `count` failures the last check found
 * (the one r->worst names: the most replicas of priority >= P stranded)
 * added to f, the failure analysis of cp (the plan r was run on), as rows
 * of kind node-set, site-set or gpu-set (failures_add_set); nothing when
 * no set checked strands such a replica, or with count 1 (the single
 * losses are f's own rows).
 */
void plan_resilience_rows(const struct plan_resilience *r, struct failures *f, const struct cplan *cp);

/*
 * What the loop's checks cost beyond the reports' failure analysis, in
 * analyses of every failure of the kind of the plan cp (the greedy
 * plan: its domains), for the solver's time reserve (plan.c).  count 1:
 * none, the checks being the reports' analysis or within the covers'
 * time (they stop while a check fits); count > 1: a check of the sets it
 * would check (every one, or one per domain) loses count domains a set,
 * and RESIL_SET_CHECKS such checks are kept for.
 */
double resilience_check_passes(const struct scenario_resilience *a, const struct cplan *cp);
/* Checks of the sets the reserve keeps time for: the first, and one after a round of covers. */
#define RESIL_SET_CHECKS 2

/*
 * The failure kind a resilience: block is checked and covered by: site,
 * node, or gpu (survive: gpu counted per GPU; with gpu_counts_as_node a
 * failed GPU drains its node, so node).
 */
enum fail_kind resilience_kind(const struct scenario_resilience *a);

/*
 * The preemption floor of a resilience: block for the failure analysis
 * and the covers (failures_analyse's preempt): priority_at_least with
 * `preemption: lower-priority`, else 0 (none, or no block).
 */
int resilience_preempt_floor(const struct scenario_resilience *a);

#endif
