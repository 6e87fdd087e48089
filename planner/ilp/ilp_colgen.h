/*
 * ilp_colgen.h - the node-pattern model by column generation
 * (ilp_colgen.c): each column is one whole node of a class (its mode,
 * its GPUs' configurations, the replicas it holds within its CPU, RAM
 * and node key), priced by the class's one-node model (ilp_pack.h);
 * the master chooses how many nodes of each pattern, over every class
 * at once, against each demand's replicas.  ilp_solve runs it only when
 * asked (ilp_opts.colgen_s), after its own plan: its bound raises the
 * result's (ilp_colgen_raise), its integer plan built over real nodes
 * is offered to the caller (ilp_result.colgen).
 */
#ifndef PLANNER_ILP_COLGEN_H
#define PLANNER_ILP_COLGEN_H

#include "cplan.h"
#include "ilp.h"
#include "ilp_cols.h"

/* Pricing rounds at most (each prices every class once). */
#define COLGEN_ITERS 200
/* Each pricing MIP's branch-and-bound budget; past it, its root LP bounds the reduced cost. */
#define COLGEN_PRICE_NODES 2000
/* The integer master's budget (price-and-branch: over the columns generated). */
#define COLGEN_INT_NODES 5000

/* Start plans at most (their nodes are the first columns). */
#define COLGEN_STARTS 2

/* One node pattern: a node of class k as a solution of k's one-node model. */
struct cg_col {
	size_t k;
	double cost;		/* the one-node model's objective at it: the node's share of the plan's */
	double *x;		/* the one-node model's column values, 1-based */
	long *held;		/* [demand]: replicas of it the node holds */
	long start_use[COLGEN_STARTS];	/* nodes of each start plan with this pattern */
};

struct ilp_colgen {
	/* settings (ilp_colgen_init's defaults) */
	double deadline;	/* util_now_s() time; HUGE_VAL: none */
	int max_iters, price_nodes, int_nodes;
	/* the columns: the start plans' patterns first (nstart), then the priced ones */
	struct cg_col *cols;
	size_t ncols, cap, nstart;
	int iters;		/* pricing rounds done */
	double lp;		/* the restricted master's LP value at the end */
	/*
	 * The best Lagrangian bound seen: sum of demand duals x replicas plus,
	 * per class, its node count x min(0, a proven lower bound of its
	 * pricing problem).  A lower bound on every concrete plan's objective;
	 * -HUGE_VAL: no round priced every class.
	 */
	double bound;
	double t_gen;		/* seconds the generation took, before the integer master (for the log) */
	int proven;		/* the last round proved no column prices out: lp is a bound (bound >= lp) */
	/* the integer master over the columns (price-and-branch) */
	double int_obj;		/* its objective; HUGE_VAL: none */
	int int_optimal;	/* proven optimal over the columns generated (not over every pattern) */
	long *use;		/* [col]: nodes of each pattern */
	double unplaced;	/* replicas it leaves unplaced */
	double start_obj;	/* the cheapest start plan's objective in the master (its incumbent) */
};

void ilp_colgen_init(struct ilp_colgen *cg, double deadline);
/*
 * Column generation on p (arcs by class ix) from the nodes of the
 * concrete plans starts[0 .. nstarts) (at most COLGEN_STARTS; with the
 * unplaced columns the master is feasible from the first round), then
 * the integer master, from the cheapest start.  Returns 0, or -1 when
 * GLPK failed on the master (cg holds what was done).
 */
int ilp_colgen_run(struct ilp_colgen *cg, const struct problem *p, const struct arcidx *ix,
		   const struct cplan *const *starts, size_t nstarts);
/*
 * The integer master's nodes built as they are (cplan_from_counts_on,
 * into the empty cp), each demand's surplus taken off the last nodes
 * holding it; what the master leaves unplaced is dealt as the counts'
 * leftovers are.
 */
void ilp_colgen_plan(const struct ilp_colgen *cg, const struct problem *p, const struct arcidx *ix, struct cplan *cp);
void ilp_colgen_free(struct ilp_colgen *cg);
/*
 * cg's bound raises r's (r->bound) where it is higher than r's bound
 * and LP bound (r->lp_bound, the bound of a result without a plan): only a bound
 * proven on every concrete plan (cg->bound finite: a pricing round
 * priced every class to a proven lower bound, or the LP proven, which
 * ilp_colgen_run folds into it), never above r's plan (r->objective,
 * when r has one); a plan then within mip_gap of it is proven
 * (ILP_OPTIMAL).  Returns 1 when it raised r's bound, else 0.
 */
int ilp_colgen_raise(const struct ilp_colgen *cg, struct ilp_result *r, double mip_gap);

#endif
