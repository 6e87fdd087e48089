/*
 * cplan.h - a concrete plan: nodes in a mode, GPUs in a configuration,
 * slots with their placements, and the replicas left unplaced.
 *
 * Two producers share the placement engine here: the greedy first-fit-
 * decreasing planner (warm start, fallback and baseline) and the
 * disaggregation of an ILP solution (counts become nodes, GPUs, slots
 * and replica assignments, deterministically).  The verifier and the
 * reports read the result.
 *
 * Files: cplan.c (the engine: nodes, GPUs, slots, free slot queues),
 * cplan_greedy.c (first-fit decreasing), cplan_greedy_reason.c (why a
 * replica stays unplaced), cplan_repair.c (ejection
 * chains for what stays unplaced), cplan_swap.c (GPU swaps between
 * nodes for what still does), cplan_deal.c (ILP counts to a plan
 * and back), cplan_complete.c (what a plan leaves unplaced, placed on
 * top of it), cplan_bill.c (costs and licences).
 *
 * Ownership: the cplan owns its arrays; it points into the problem,
 * which must outlive it.  cplan_release frees everything.
 */
#ifndef PLANNER_CPLAN_H
#define PLANNER_CPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "deadline.h"
#include "problem.h"

struct cslot {
	int node;		/* index in cplan.nodes */
	int gpu;		/* first GPU of the node it uses */
	int ngpus;		/* GPUs it spans: > 1 for passthrough groups */
	int type;		/* slot type index in the node's class */
	int mig_start;		/* MIG instance start memory slice; -1 otherwise */
	int d;			/* demand holding it; -1 when free */
	long replica;		/* replica number within the demand */
};

struct cnode {
	int k;			/* class */
	int ordinal;		/* number within the class, from 0 */
	enum gpu_mode mode;
	int pattern;		/* passthrough: config index of the node pattern */
	int *gpu_config;	/* per GPU: config index, -1 idle */
	int *gpu_used;		/* per GPU: replicas on it */
	int *gpu_nvaie;		/* per GPU: replicas on it that need NVAIE */
	double cpu_used, ram_used;
};

/*
 * What cut a greedy pass short (cplan.stopped): nothing, the deadline (or
 * what it leaves no more than cplan.keep_s), or SIGINT/SIGTERM
 * (interrupt.h), after which the run writes no plan.
 */
enum cplan_stop { CPLAN_RUN, CPLAN_STOP_DEADLINE, CPLAN_STOP_SIGNAL };

struct cplan {
	const struct problem *p;
	size_t nnodes, nodecap;
	struct cnode *nodes;
	size_t nslots, slotcap;
	struct cslot *slots;
	long *placed;		/* per demand */
	long *unplaced;		/* per demand */
	char **reason;		/* per demand: why some are unplaced, or NULL */
	int *opened;		/* per class: nodes opened */
	/* free slot queues per (class, slot type) */
	size_t ***fq;		/* fq[k][s]: slot ids in creation order */
	size_t **fqn, **fqcap, **fqhead;
	struct cplan_memo *memo;	/* the engine's cursors and caches (cplan_engine.h) */
	struct deadline *deadline;	/* polled once a replica by the greedy pass; NULL: none */
	/*
	 * Seconds the run needs after the greedy pass for a plan the size of
	 * cp so far (the check, the failure analysis, the reports), asked at
	 * each poll of the deadline: the pass stops once no more than that is
	 * left, so that what follows it ends within the limit.  NULL: the
	 * pass stops at the deadline itself.  Not asked under the deadline's
	 * test hook, which alone decides there (deadline.h).
	 */
	double (*keep_s)(const struct cplan *cp, void *ctx);
	void *keep_ctx;			/* keep_s's */
	enum cplan_stop stopped;	/* what cut the greedy pass (CPLAN_RUN: nothing): the rest is unplaced */
	long not_attempted;		/* replicas the cut left unplaced before the pass tried them */
	/* spread and availability caps (cplan_caps.c): replicas of each capped demand */
	long *capn;			/* per node: [node * p->ncapped + cap] */
	size_t capncap;
	long *caps;			/* per site: [site * p->ncapped + cap] */
	int no_avail_caps;		/* availability caps off: re-placing after a loss, as a scheduler does */
};

/* What a plan costs; costs exclude the tie-break and penalties. */
struct cplan_cost {
	double cat[CAT_COUNT];				/* over the horizon */
	double year[CAT_COUNT][PRICING_MAX_YEARS];	/* year by year (pricing.h) */
	double total;		/* sum of the categories */
	double objective;	/* total + tie-break + penalties: what the ILP minimises */
	long nodes, gpus, gpus_active;
	long gpus_licensed;	/* GPUs carrying a licence (per GPU or seats) */
	long lic_gpus[LIC_COUNT];	/* per-GPU licences by product */
	long seats[LIC_COUNT];		/* per-seat licences by product (vgpu-seat counting) */
	long placed, unplaced;
};

/* One node's share of the bill. */
struct node_bill {
	double cat[CAT_COUNT];
	double total;
	long active;			/* GPUs in use */
	long gpus_licensed;		/* GPUs with a licence (per GPU or seats) */
	long lic_gpus[LIC_COUNT];
	long seats[LIC_COUNT];
};

void cplan_init(struct cplan *cp, const struct problem *p);
void cplan_release(struct cplan *cp);

/*
 * The spread and availability caps (problem_dom_cap) in a plan: the
 * replicas of d on node `node` and on site `site` (problem.class_site),
 * and whether one more may go on node `node` (every placement path asks
 * it through cplan_node_has_room).
 */
long cplan_caps_node(const struct cplan *cp, int d, int node);
long cplan_caps_site(const struct cplan *cp, int d, int site);
int cplan_caps_allow(const struct cplan *cp, int d, int node);
/* True when a new node of class k may take a replica of d (its site below d's site cap). */
int cplan_caps_class(const struct cplan *cp, int d, int k);
/*
 * Keeps every rule exactly on the finished plan: replicas above an
 * availability cap come out (a plan kept from a simulation step with more
 * replicas can pass it), and where the emptiest eligible domain of a
 * DoNotSchedule spread (PodTopologySpread's global minimum, with
 * min_domains; an owned node left closed counts 0) holds less than the
 * level the caps assumed, replicas above it + max_skew come out; all
 * counted unplaced with the rule as their reason.  The greedy pass (and
 * cplan_place_more) and the deal end with it.
 */
void cplan_caps_trim(struct cplan *cp);
/* True when d's caps hold it back somewhere: some node or site of the plan at its cap, or a cap of 0. */
int cplan_caps_bind(const struct cplan *cp, int d);

/* The replicas cp leaves unplaced, over every demand. */
long cplan_unplaced_count(const struct cplan *cp);

/*
 * Greedy first-fit decreasing from an empty plan: cplan_greedy_add of
 * every replica.  When cp->deadline passes (or leaves only cp->keep_s),
 * or a signal comes (interrupt_pending), the replicas not yet placed are
 * counted unplaced ("stopped by the time limit", or by the signal) and
 * in cp->not_attempted, cp->stopped says which, and the plan so far
 * stands: a plan the verifier accepts.
 */
void cplan_greedy(struct cplan *cp);
/*
 * The slot, node and free slot queue arrays cut to their length: they grow
 * by doubling, and a plan of a million replicas is kept to the end.
 */
void cplan_shrink(struct cplan *cp);
/*
 * Places add[d] replicas of every demand d into the empty plan cp first-fit
 * decreasing; when some stay unplaced, also highest priority first into
 * another plan, and while some still do, highest priority first in two
 * sweeps per priority (cplan_greedy.c: the least isolating mode first, a
 * whole GPU for a fraction of one last) into two more; keeps the best by
 * the priority rule, then cost (fewer unplaced by priority, then the
 * lower objective).
 */
void cplan_greedy_add(struct cplan *cp, const long *add);

/*
 * Builds the plan of an ILP solution: nmode[k*MODE_COUNT+m] nodes per class
 * and mode, ncfg[k][c] GPUs (nodes, for patterns) per configuration,
 * arc[i] replicas per arc.  Replicas the counts leave without a slot are
 * placed first-fit on the nodes the counts opened where possible; what is
 * still unplaced is then placed where moving other replicas between the
 * plan's slots, or swapping two GPUs between nodes, makes room for it
 * (bounded, deterministic searches), then on new nodes, else counted
 * unplaced with a reason.
 * When replicas stay unplaced, a second deal of the same counts that
 * spreads the replicas asking the most CPU and RAM first is tried, and
 * kept if it places more.  cp must be empty (just initialised).
 */
void cplan_from_counts(struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc);

/*
 * One node as a solution of its class's one-node model gives it
 * (ilp_pack.c): its mode, node pattern (-1: none), the configurations
 * of its other GPUs (one entry a GPU, from GPU 0), and its replicas
 * (one entry a replica: the demand, and the representative slot type it
 * runs in).
 */
struct cplan_recipe {
	int k;
	enum gpu_mode mode;
	int pattern;
	int ncfg, *cfg;
	int nrep, *rep_d, *rep_s;
};
void cplan_recipe_free(struct cplan_recipe *r);

/*
 * cplan_from_counts on a plan that first gets the npre nodes of pre,
 * built as they are (cp empty); the counts are those of the other nodes.
 */
void cplan_from_counts_on(struct cplan *cp, const struct cplan_recipe *pre, size_t npre, const long *nmode,
			  long *const *ncfg, const double *arc);

/*
 * Each arc's whole replicas as the deal aims at them (the whole part of
 * its count, then the demand's rounded total shared out by largest
 * remainders); and the replicas a plan placed per arc (added to arc[]).
 * Caller frees the first.
 */
long *cplan_round_arcs(const struct problem *p, const double *arc);
void cplan_arc_placed(const struct cplan *cp, double *arc);
/* The arc of the replica in slot `slot` (its demand, its node's class, the slot type's ILP representative); (size_t)-1 when the slot is free or there is none. */
size_t cplan_slot_arc(const struct cplan *cp, size_t slot);

/*
 * What dealing the counts over real nodes loses before anything goes
 * elsewhere: the replicas the better of the two deals (see
 * cplan_from_counts) left without a slot in the class the arcs name, and
 * their CPU and RAM per (class, mode) in lost_cpu and lost_ram
 * ([k * MODE_COUNT + m]).  Counts of classes not to be looked at are 0.
 */
long cplan_deal_loss(const struct problem *p, const long *nmode, long *const *ncfg, const double *arc,
		     double *lost_cpu, double *lost_ram);

/*
 * What cp leaves unplaced, placed by the greedy pass's engine on top of
 * it (cplan_complete.c): cp built again with only its nodes and GPUs that
 * hold a replica (each replica where it was, each node under its name;
 * the rest given back), then cplan_place_more of what is unplaced, and,
 * while some still is, the same highest priority first by isolation
 * tiers, the better kept.  The result replaces cp when it is better
 * (cplan_better: the priority rule, then the objective) and passes
 * verify_plan: 1 then, else 0 and cp as it was (also when nothing a slot
 * could take is unplaced).  Polls no clock: about a greedy pass and a
 * check of work.
 */
int cplan_complete(struct cplan *cp);

/* Counts of a plan in the ILP's terms (inverse of cplan_from_counts). */
void cplan_counts(const struct cplan *cp, long *nmode, long *const *ncfg, double *arc, double *unplaced);

void cplan_cost(const struct cplan *cp, struct cplan_cost *out);
/* The highest priority a workload may have (workload.c's limit). */
#define CPLAN_PRIO_MAX 1000
/*
 * The priority rule (docs/formulation.md, "Priority") between two plans
 * of one problem: -1 when a leaves fewer replicas unplaced than b at the
 * highest priority where they differ, 1 when more, 0 when they leave as
 * many unplaced at every priority.  Replicas count by their demand's
 * weight (problem.h: 1, or GPU-equivalents with unplaced_weight: gpus).
 */
int cplan_prio_cmp(const struct cplan *a, const struct cplan *b);
/* The same rule between two plans' unplaced replicas per demand (ua[i], ub[i]: demand i's, whole numbers). */
int cplan_prio_cmp_unplaced(const struct problem *p, const double *ua, const double *ub);
/*
 * The replicas left unplaced per priority (unplaced[i]: demand i's), as
 * "P:N+P:N", highest priority first, a priority with none left out, or
 * "none" (caller frees): what the priority rule compares where every
 * replica weighs 1 (no unplaced_weight: gpus), in one word a log line
 * can give another tool that compares plans by the rule.
 */
char *cplan_prio_unplaced(const struct problem *p, const double *unplaced);
/*
 * True when plan a (costing ca) is better than b (cb): by the priority
 * rule (cplan_prio_cmp), then by a lower objective.
 */
int cplan_better(const struct cplan *a, const struct cplan_cost *ca, const struct cplan *b,
		 const struct cplan_cost *cb);
/*
 * The modes (MODE_BIT) in which the licence rules decide some GPU's
 * licence: a GPU in use holding a replica that does not ask for NVAIE
 * itself, or none.  An assumed rule of another mode changes no figure of
 * this plan (the reports print only the rules that do).
 */
unsigned cplan_rule_modes(const struct cplan *cp);
/* One node's bill: its class's node costs, its GPUs' energy and licences. */
void cplan_node_bill(const struct cplan *cp, size_t node, struct node_bill *b);
/*
 * The licence GPU g of a node carries: product (LIC_NONE: none), and 1 in
 * *gpus when counted per GPU, or the seats in use when counted per seat.
 */
void cplan_gpu_licence(const struct cplan *cp, size_t node, int g, enum lic_product *product, long *gpus,
		       long *seats);

/*
 * The node key of node n (problem.h, config.node_key): the first non-0
 * key of its configured GPUs, 0 when none has one.
 */
int cplan_node_key(const struct cplan *cp, const struct cnode *n);

/*
 * The node's name: the inventory's name for it when the class names its
 * nodes, else "<class>-<ordinal>" with 3 digits at least.  Caller frees.
 */
char *cplan_node_name(const struct cplan *cp, const struct cnode *n);

/*
 * cp's slots grouped by node, a counting sort on each slot's node (no
 * key array): node i's slot ids are by[first[i]] .. by[first[i + 1] - 1],
 * ascending; first has nnodes + 2 entries, by nslots + 1.  The ids are
 * held in 32 bits, half a size_t's room, which counts on a large plan:
 * the struct cslot of 2^32 slots would take far more memory than a plan
 * is given.  Caller frees *first and *by.
 */
void cplan_slots_by_node(const struct cplan *cp, size_t **first, uint32_t **by);

/*
 * ================= incremental placement (simulate) =================
 *
 * For `gpuplan simulate`, which plans every step of a demand trace from
 * the previous step's plan: rebuild the nodes and GPU configurations that
 * still hold replicas, put those replicas back into the same slots, then
 * place what is new greedily (free slots first, then idle GPUs of open
 * nodes, then new nodes).  Owned by simulate (helper of issue #6).
 */

/* Opens a node of class k in mode m (passthrough: split by config pattern); its index. */
int cplan_open_node(struct cplan *cp, int k, enum gpu_mode m, int pattern);
/* Puts idle GPU gpu of node into configuration cfg, creating its slots. */
void cplan_configure_gpu(struct cplan *cp, int node, int gpu, int cfg);
/* Places the next replica of demand d into free slot `slot` (caller checked the fit). */
void cplan_place_at(struct cplan *cp, size_t slot, int d);
/*
 * Places add[d] more replicas of every demand d, demands in the greedy
 * order, each into a free slot, else a new GPU, else a new node; what
 * finds no room is added to unplaced[d] with a reason.  cplan_greedy is
 * this with every demand's replicas on an empty plan.
 */
void cplan_place_more(struct cplan *cp, const long *add);

#endif
