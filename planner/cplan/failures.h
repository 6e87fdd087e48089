/*
 * failures.h - the failure analysis of a concrete plan: for each node and
 * each site (and each GPU, when asked), what its loss would strand once
 * the replicas it held are placed again into the plan's free capacity
 * (docs/formats.md, "failures.csv").  A lost GPU strands the replicas
 * with a slot on it (MIG instances, vGPUs, shared slots, a multi-GPU
 * replica using it) and takes its free slots; its node keeps running,
 * with the CPU and RAM those replicas held given back.
 *
 * The re-placement is the placement engine's own (cplan_find_free): a
 * free slot of a slot type the workload may use (its modes, isolation,
 * memory, compute, MIG profile, sites, GPU types, licence), on a
 * surviving node with the CPU and RAM it asks, within its DoNotSchedule
 * spread's cap (the lost replicas no longer counted; the availability
 * rule constrains the plan, not a scheduler).  It reconfigures nothing
 * (idle GPUs stay idle, nodes the plan leaves closed stay closed) and
 * moves no replica that did not fail; replicas of higher priority go
 * first, then by workload order.  Each failure is looked at on its own,
 * from the plan as made; the plan itself is not changed.
 *
 * Cost: one copy of the plan, then per failure work in the replicas it
 * held (and the free slots scanned for them), so linear-ish in replicas.
 *
 * With preemption (failures_analyse's preempt), a replica of priority at
 * the floor or above that finds no free slot may take one that a replica
 * below the floor holds (Kubernetes' PreemptLowerPriority, preempt.h):
 * that replica is evicted and placed again, into free capacity, with the
 * lost replicas below the floor; its workload's row counts it as lost.
 */
#ifndef PLANNER_FAILURES_H
#define PLANNER_FAILURES_H

#include <limits.h>
#include <stddef.h>

#include "cplan.h"

/*
 * The kinds of failure: one node, one site, one GPU; and a set of
 * `count` of them lost at once (a resilience: block's count k > 1: the
 * worst set its check found, one set per plan), FAIL_NODE_SET + kind.
 */
enum fail_kind { FAIL_NODE, FAIL_SITE, FAIL_GPU, FAIL_NODE_SET, FAIL_SITE_SET, FAIL_GPU_SET, FAIL_KIND_COUNT };

/* "node", "site", "gpu", "node-set", "site-set" or "gpu-set". */
const char *fail_kind_name(enum fail_kind k);

/* One failure and one workload that had replicas on it. */
struct fail_row {
	enum fail_kind kind;
	size_t failure;		/* index in failures.names[kind] */
	int d;			/* the demand (its workload) */
	long lost;		/* replicas on the failed domain; with preemption, and those evicted */
	long replaced;		/* placed again (a free slot, or with preemption one taken) */
	long stranded;		/* lost - replaced */
	long pending_by_spread;	/* of the stranded, those a spread rule holds back */
	const char *reason;	/* why some are stranded (static text); NULL when none is */
};

/* The worst failure of a kind: by the priority rule on what it strands, then by name. */
struct fail_worst {
	int have;		/* 0: no failure of the kind strands a replica */
	size_t failure;		/* index in failures.names[kind] */
	long stranded;		/* its stranded replicas */
	double stranded_gpu_eq;	/* and their GPU-equivalents */
	int top_priority;	/* the highest priority it strands */
	long top_stranded;	/* replicas of that priority it strands */
};

struct failures {
	size_t nrows;
	struct fail_row *rows;	/* by kind, failure name, priority (highest first), workload name */
	size_t nnames[FAIL_KIND_COUNT];
	char **names[FAIL_KIND_COUNT];	/* failure names by kind, sorted: node names, sites */
	size_t nwith[FAIL_KIND_COUNT];	/* failures of each kind that held a replica */
	size_t nchecked[FAIL_KIND_COUNT];	/* failures analysed, in name order: nnames but after a deadline cut */
	struct fail_worst worst[FAIL_KIND_COUNT];
	int by_gpu;		/* the GPUs were analysed (kind gpu has rows) */
};

/*
 * The failure domains of a kind, in the analysis's order (one place for
 * what a domain is, shared by the analysis and the resilience loop): each
 * node, by name; each site, by name compared case-insensitively (named
 * as its first node's class spells it), its nodes by index; each GPU, by
 * its node's name then index, named "<node>/gpu <i>".  Domain i is
 * names[i]; its nodes are by[first[i]] .. by[first[i + 1] - 1].
 */
struct fail_domains {
	size_t n;
	size_t *first;		/* [n + 1] */
	size_t *by;		/* node indices */
	int *gpu;		/* kind gpu: per entry of by, the GPU lost; NULL otherwise (whole nodes) */
	char **names;		/* [n]; owned (fail_domains_release) */
};

void fail_domains_build(struct fail_domains *dm, const struct cplan *cp, enum fail_kind k);
void fail_domains_release(struct fail_domains *dm);

/*
 * The analysis of plan cp into f (released by failures_release): every
 * node and every site; with by_gpu, every GPU too.  preempt > 1 (a
 * resilience: block's priority_at_least with `preemption:
 * lower-priority`): the lost replicas of priority >= preempt that find no
 * free slot may take one a replica of lower priority holds (preempt.h);
 * the evicted replica is placed again with the lost ones below preempt,
 * into free capacity, and counts in its workload's row as lost (and
 * stranded when it finds no slot); 0: free capacity only.
 */
void failures_analyse(struct failures *f, const struct cplan *cp, int by_gpu, int preempt);

/*
 * A failed GPU's free slot while its failure is looked at: marked taken,
 * so the engine passes it (slot.d >= 0); never a demand, and put back to
 * -1 before anything else reads the plan.
 */
#define FAIL_SLOT_OFF INT_MAX

/* Slot s of cp is on node `node`, and uses GPU gpu of it (gpu < 0: any). */
int fail_slot_on(const struct cplan *cp, size_t s, size_t node, int gpu);
/*
 * The analysis of the failures of kind k only, dl polled before each
 * (NULL: never): once it passes, the failures left (in name order) are
 * named but not analysed, and f->nchecked[k] says how many were.  dm
 * (NULL: not wanted) receives the domains analysed, domain i being
 * failure i of kind k, so that a caller mapping failures to nodes does
 * not build them again; their names stay with f (f->names[k], dm->names
 * NULL).  Release dm with fail_domains_release, f with failures_release.
 */
void failures_analyse_until(struct failures *f, const struct cplan *cp, enum fail_kind k, struct deadline *dl,
			    struct fail_domains *dm, int preempt);
void failures_release(struct failures *f);

/*
 * As failures_analyse, but the failures of kind k are taken from *have
 * rather than analysed again: have must be failures_analyse_until's
 * complete analysis of kind k (every failure checked) of this very plan
 * with the same preempt, as the resilience loop's last check is (the
 * same engine, order and undo, so its rows are those failures_analyse
 * would make).  have's rows and names move into f; have is left empty.
 */
void failures_analyse_with(struct failures *f, const struct cplan *cp, int by_gpu, int preempt,
			   struct failures *have, enum fail_kind k);

/* A set of domains lost at once: nodes[i] whole, or (gpus) its GPU gpus[i]. */
struct fail_set {
	enum fail_kind kind;	/* FAIL_NODE_SET, FAIL_SITE_SET or FAIL_GPU_SET */
	const char *name;	/* the domains' names joined by '+' */
	const size_t *nodes;
	const int *gpus;	/* NULL: whole nodes */
	size_t n;
	int preempt;		/* as failures_analyse's */
};

/*
 * Adds to f the rows of losing the set s at once (analysed as one
 * failure, from the plan as made, like every other), as failure 0 of
 * s->kind; f's worst of that kind with them.  A kind holds one set: a
 * second call replaces nothing and is not allowed.
 */
void failures_add_set(struct failures *f, const struct cplan *cp, const struct fail_set *s);

/* The GPU-equivalents row r strands. */
double fail_row_gpu_eq(const struct cplan *cp, const struct fail_row *r);

#endif
