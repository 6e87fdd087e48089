/*
 * roadmap_warm.h - the warm start of the roadmap's period plans
 * (roadmap_warm.c): a period's plan kept in the loaded scenario's terms
 * (inventory classes, workloads, configuration and slot type names), and
 * rebuilt in the next period's problem as the plan it starts from
 * (plan_opts.seed).
 *
 * Each period's problem is built from its own derived scenario, so class,
 * demand, configuration and slot type indices differ from period to
 * period; names and the inventory's and workloads' indices do not.
 *
 * Ownership: a carry owns its arrays and strings (rm_carry_release); a
 * seed points at a carry and at the derived scenario's maps, which must
 * outlive the plan_run it seeds.
 */
#ifndef PLANNER_SOLVE_ROADMAP_WARM_H
#define PLANNER_SOLVE_ROADMAP_WARM_H

#include <stddef.h>

#include "cplan.h"

/* One replica of a carried node: where it ran and whose it is. */
struct rm_carry_slot {
	int gpu;		/* first GPU of the node it uses */
	char *type;		/* slot type name */
	int mig_start;		/* MIG start memory slice; -1 otherwise */
	size_t w;		/* workload (loaded scenario) */
};

/* One node of the carried plan. */
struct rm_carry_node {
	size_t cls;		/* inventory class (loaded scenario) */
	enum gpu_mode mode;
	char *pattern;		/* node pattern's configuration name, or NULL */
	int ngpus;
	char **cfg;		/* per GPU: configuration name, NULL when idle */
	size_t first, nslots;	/* its replicas in rm_carry.slots */
};

struct rm_carry {
	size_t nnodes;
	struct rm_carry_node *nodes;
	size_t nslots;
	struct rm_carry_slot *slots;	/* grouped by node */
};

/*
 * What a seed needs of the derived scenario of the plan it seeds: where
 * its classes and workloads come from, and which of its classes take the
 * carried nodes (not the new nodes of a buy row: a node carried over has
 * arrived, its capex sunk).
 */
struct rm_seed {
	const struct rm_carry *cy;
	size_t nsrc_cls, nsrc_w;	/* the loaded scenario's classes, workloads */
	const size_t *cls_src;		/* per derived class: its inventory class */
	const unsigned char *cls_carry;	/* per derived class: takes carried nodes */
	const size_t *w_src;		/* per derived workload: its workload */
};

/*
 * The final plan cp (of a problem built from a derived scenario whose
 * classes and workloads come from cls_src and w_src) into the empty cy.
 */
void rm_carry_take(struct rm_carry *cy, const struct cplan *cp, const size_t *cls_src, const size_t *w_src);
void rm_carry_release(struct rm_carry *cy);

/*
 * plan_opts.seed: rebuilds the carried plan in the empty cp (ctx a
 * struct rm_seed): each carried node that still holds a replica of the
 * new demand is opened again in the class that takes it, in its mode,
 * pattern and GPU configurations (matched by name; a node or GPU whose
 * configuration the new problem lacks is left out), each replica put back
 * in a slot of the same type on the same GPU while the new demand asks
 * for it; the rest of the demand is then placed greedily
 * (cplan_place_more).
 */
void rm_seed_plan(struct cplan *cp, void *ctx);

#endif
