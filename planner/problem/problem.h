/*
 * problem.h - the planning problem in aggregated form: what each node
 * class can offer (modes, per-GPU configurations, node patterns, slot
 * types), which demand class fits which slot type, and what it costs.
 *
 * Built from a loaded scenario by problem_build (problem.c, with
 * problem_config.c and problem_share.c enumerating configurations,
 * problem_match.c the matching rules, problem_reduce.c slot equivalence
 * and pruning); the ILP (ilp.c), the greedy planner and the
 * disaggregation (cplan*.c) all read it.  Nothing here depends on fleet
 * size or replica counts except right-hand sides.
 *
 * Slots: every slot holds exactly one replica.  A configuration is one
 * GPU's partition (a MIG geometry, an equal-size vGPU profile, k
 * time-slice replicas, k MPS clients, or - with sharing.timeslice_shares
 * - time-slice slots of different compute shares summing to at most one
 * GPU, packed from the demand); in passthrough mode the unit is
 * the node, split by a pattern into groups of whole GPUs (so a 4-GPU
 * replica never straddles nodes).  In vgpu mode a node pattern is a set
 * of multi-vGPU VMs, each of N full-size vGPUs on N whole GPUs (N at
 * most the hypervisor's multi_vgpu limit); such a node has no other
 * configuration.
 *
 * Ownership: the problem owns all arrays and strings; it points into the
 * scenario (which must outlive it).  problem_release frees everything.
 */
#ifndef PLANNER_PROBLEM_H
#define PLANNER_PROBLEM_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "mig.h"
#include "pricing.h"
#include "scenario.h"

struct slot_type {
	enum gpu_mode mode;
	char *name;		/* "1g.10gb", "H100XM-20C", "ts4", "mps4", "gpu", "gpu*4" */
	long memory_mib;	/* per GPU */
	double compute;		/* guaranteed share of one GPU */
	enum isolation iso;
	int gpus;		/* whole GPUs it gives: 0 = a fraction, q >= 1 whole GPUs */
	int vm;			/* gives a VM boundary */
	enum lic_product lic;	/* the licence its GPU carries (passthrough: NVAIE, bought per replica as needed) */
	int mig_profile;	/* mig, mig-vgpu: index in gpu->mig.profiles; else -1 */
	int vgpu_profile;	/* vgpu: index in vgpu.profiles; mig-vgpu: in vgpu.mig_backed; else -1 */
	int share;		/* time-slice with shares: compute share in 1/1000 of a GPU; else 0 */
	int rep;		/* the slot type standing for it in the ILP (same demands, same costs) */
};

struct config {
	enum gpu_mode mode;
	char *name;		/* "4g.40gb+3g.40gb", "H100XM-20C*4", "ts4", "mps4", "gpu*4+gpu*4" */
	enum lic_product lic;	/* the licence the GPU carries */
	int node_pattern;	/* passthrough: a per-node split into GPU groups; vgpu: multi-vGPU VMs
				 * of full-size vGPUs on a node of its own (the rest of it idle) */
	int pattern_gpus;	/* vgpu node pattern: the GPUs its VMs take; else 0 */
	size_t nslots;
	int *slot;		/* the ILP's view: representative slot types, useful ones only */
	int *count;		/* slots of that type per GPU (per node for patterns) */
	size_t nreal;
	int *real_slot;		/* the real slot types the partition creates */
	int *real_count;
	struct mig_geometry mig; /* mig, mig-vgpu */
	int vgpu_profile;	/* vgpu */
	int k;			/* timeslice, mps: slots per GPU */
	int node_key;		/* configurations of one mode with different non-0 keys never share
				 * a node: time-slice / MPS k (the device plugin's one replicas value
				 * per node), MIG strategy single 1 + profile; 0 = no such rule */
	double cost;		/* per GPU (per node for patterns) over the horizon */
};

struct pclass {
	const struct node_class *nc;
	size_t index;		/* in the inventory */
	unsigned modes;		/* modes worth offering (MODE_BIT) */
	double node_cost;	/* one node over the horizon: capex share or rent, base energy */
	double gpu_active_cost;	/* energy of one GPU in use over the horizon */
	size_t nslot_types;
	struct slot_type *slot_types;
	size_t nconfigs;
	struct config *configs;
};

struct pdemand {
	const struct workload *w;
	size_t index;		/* in the workloads */
	long replicas;
	double penalty;		/* objective cost of one unplaced replica */
	double solve_penalty;	/* the same in the solver's model: penalty, or less where the capped
				 * priority levels are spread for the solver (problem_prio_spread) */
	double weight;		/* what one unplaced replica counts within its priority: 1, or with
				 * unplaced_weight: gpus its GPU-equivalents over the smallest's (>= 1) */
	char *unhostable;	/* why no node could ever host it, or NULL */
	int cap;		/* index among the demands with a domain cap (problem_dom_cap), -1: none */
	long dom_fixed;		/* its spread's eligible domains every plan has (owned nodes, their sites) */
	long dom_max;		/* and the most any plan can have (with every buyable and rentable node) */
};

/* A (demand, class, slot type) pair: replicas of d may go into slots s of class k. */
struct arc {
	int d, k, s;
	double cost;		/* objective cost per replica on this arc (passthrough GPUs, vGPU seats) */
};

struct problem {
	const struct scenario *sc;
	const struct pricing *pr;
	double horizon_years;
	double tiebreak;	/* per GPU and per node in use, kept out of the cost */
	size_t nclasses;
	struct pclass *classes;
	size_t ndemands;
	struct pdemand *demands;
	size_t narcs;
	struct arc *arcs;	/* sorted by (d, k, s) */
	int any_cpu, any_ram;	/* some demand asks CPU / RAM */
	double prio_exact_u;	/* the top priority weight the exact rule needs; above
				 * PROBLEM_PRIO_WEIGHT_MAX the penalties only approximate it */
	int prio_spread;	/* the solver's penalties are spread (problem_prio_spread) */
	size_t ncapped;		/* demands with a domain cap (pdemand.cap) */
	size_t nsites;		/* the inventory's sites (case-insensitive) */
	int *class_site;	/* per class: its site's index */
};

/* The largest priority weight the penalties use (problem.c, docs/formulation.md "Priority"). */
#define PROBLEM_PRIO_WEIGHT_MAX 1e3

/*
 * When unplaced (per demand: the greedy pass's plan) leaves replicas of
 * two or more priority levels whose weight is at the cap unplaced, the
 * levels at the cap are spread below it for the solver, one big apart
 * (1000, 999, ..., the highest the heaviest): each demand's
 * solve_penalty follows, its penalty does not; sets p->prio_spread and
 * returns 1 then, else 0 (the model as built).  Tied at the cap, the
 * solver trades a replica of a higher level for one of a lower level
 * whenever that one costs less to place, and its plan then loses to the
 * greedy plan by the rule; one big apart it never does, since placing a
 * replica costs less than big.  Where the greedy plan leaves at most one
 * such level short no such trade is in sight, and the solver's model is
 * left as built: any change of the weights moves the solver's path.
 * Every solve_penalty stays at most its penalty, so a bound of the
 * solver's model is a bound of the documented objective, with which
 * every plan is costed and compared (docs/formulation.md, "Priority").
 */
int problem_prio_spread(struct problem *p, const long *unplaced);

/*
 * True when a replica of w on a passthrough GPU of class k carries an
 * NVAIE licence: it asks for NVAIE, or it is a VM (vm: true) on a
 * hypervisor and licensing.passthrough_vm is licensed (the default: the
 * VM is taken to run NVAIE software, as the vGPU VMs beside it do).
 */
int problem_passthrough_nvaie(const struct problem *p, int k, const struct workload *w);

/*
 * Builds the problem with the costs of pr (which must outlive it).
 * Fails only on internal limits (d filled).
 */
int problem_build(struct problem *p, const struct scenario *sc, const struct pricing *pr, struct diag *d);
void problem_release(struct problem *p);

/* The arcs of demand d: p->arcs[*lo] .. p->arcs[*hi - 1] (they are sorted by demand). */
void problem_arcs_of(const struct problem *p, int d, size_t *lo, size_t *hi);

/*
 * The replicas of demand d one failure domain of kind `kind` (SPREAD_NODE:
 * a node, SPREAD_SITE: a site) may hold (docs/formulation.md, "Spread and
 * availability"); PROBLEM_NO_CAP when no rule caps it.  The tighter of:
 *  - a DoNotSchedule spread of that kind: max_skew + m, m the level the
 *    emptiest eligible domain can hold: max(0, ceil(replicas / E) -
 *    max_skew) when the E eligible domains are the same in every plan
 *    (owned nodes only) and E >= min_domains, else 0; no cap when at most
 *    one domain can ever be eligible and min_domains is 1 (the skew of
 *    one domain is 0).  The plan's real minimum is checked afterwards
 *    (cplan_caps_trim);
 *  - with `avail`, an availability rule of that domain kind: replicas -
 *    need (workload_need, the demand's replicas as they are now).
 * A ScheduleAnyway spread caps nothing (a preference in Kubernetes).
 */
#define PROBLEM_NO_CAP 0x7fffffffL
long problem_dom_cap(const struct problem *p, int d, enum spread_kind kind, int avail);
/* Why replicas of d stay unplaced when its caps hold them back: the rules and their caps; caller frees. */
char *problem_cap_reason(const struct problem *p, int d);

/*
 * True when configuration cf may go on a node whose GPUs already carry
 * configurations of key node_key (0: none yet) - see config.node_key.
 */
int problem_key_fits(const struct config *cf, int node_key);

/* True when a slot of type st (in class c) can hold a replica of w. */
int problem_slot_fits(const struct pclass *c, const struct slot_type *st, const struct workload *w);

#endif
