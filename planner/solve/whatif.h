/*
 * whatif.h - what to buy: the node classes a plan adds, and what would
 * place the replicas a plan leaves unplaced.
 *
 * Inventory rows with ownership buy or rent are the classes one may add,
 * up to their count; plan_additions says how many nodes of each the plan
 * takes and what they cost.  When replicas stay unplaced, plan_whatif_run
 * plans the scenario again with more to add: every buy/rent row may take
 * as many more nodes as there are unplaced replicas, at its own price,
 * and every on-demand or reserved cloud offer of the models (the only
 * purchasable classes the models price: gpus.yaml has no purchase
 * prices) that some unplaced workload could use is added as a rented
 * class of that many nodes, at the offer's cloud as its site.  It runs
 * inside the first plan's deadline (plan_result.dl), with what is left
 * of it (nothing is said when that cuts its greedy pass short).  Owned
 * rows are not extended: an owned node has no price.  The second plan is
 * solved like the first (same limits), so its additions are a plan, not
 * an estimate; what it says to do is every change against the first plan,
 * class by class: nodes to add and nodes to drop (the cheapest fleet that
 * places all may use a larger node instead of a smaller one the first
 * plan bought).  Nothing here prints.
 */
#ifndef PLANNER_WHATIF_H
#define PLANNER_WHATIF_H

#include <stddef.h>

#include "plan.h"

/* Nodes of one buy/rent class a plan adds (or, in a what-if, drops), and what they cost. */
struct plan_addition {
	const struct node_class *nc;	/* in the plan's scenario */
	long nodes;		/* nodes added: in use (plan); the what-if's in use less the first
				 * plan's (what-if: negative when it drops nodes the first plan uses) */
	long in_use;		/* nodes of the class in use */
	long max;		/* the inventory's count; 0: a cloud offer the what-if added */
	double cat[CAT_COUNT];	/* what the added nodes cost over the horizon, by category (what-if: the
				 * class's cost less the first plan's; negative for a saving) */
	double total;
};

/*
 * The buy/rent classes the plan cp uses, in inventory order, each with
 * all its nodes in use counted as added: the count returned, the array
 * in *out (NULL when none; caller frees).
 */
size_t plan_additions(const struct cplan *cp, struct plan_addition **out);

/* The plan with more to add (see above). */
struct plan_whatif {
	struct scenario sc;		/* the planned scenario, its inventory extended (shares its strings) */
	struct node_class *classes;	/* the extended inventory: the original rows, then the offers */
	size_t norig;			/* rows of the original inventory */
	size_t noffers;			/* cloud offers added */
	long extra;			/* nodes each class may add */
	struct plan_result r;
	size_t nadd;
	struct plan_addition *add;	/* the classes whose nodes in use differ from the first plan's */
	double base_total;		/* the original plan's cost over the horizon */
	double total;			/* this plan's */
	long unplaced;			/* replicas this plan still leaves unplaced */
	int ran;			/* 0: nothing was unplaced, or nothing could be added */
};

/*
 * Plans base's scenario again with more to add when base leaves replicas
 * unplaced (else w->ran = 0 and nothing is planned).  Fails as plan_run.
 * plan_whatif_release frees w in any case.
 */
int plan_whatif_run(struct plan_whatif *w, const struct plan_result *base, const struct plan_opts *o,
		    struct diag *d);
void plan_whatif_release(struct plan_whatif *w);

#endif
