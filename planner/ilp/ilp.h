/*
 * ilp.h - the aggregated integer program, solved with GLPK.
 *
 * Integer: nodes per (class, mode), GPUs per (class, configuration),
 * nodes per (class, passthrough pattern).  Continuous: replicas per arc
 * (demand, class, slot type) and unplaced replicas per demand.  Only
 * right-hand sides grow with the fleet and the replica counts.
 * The ilp parts (ilp.c, ilp_*.c; their list is in ilp_model.h)
 * are the only sources that use GLPK; they include <glpk.h> through
 * ilp_cols.h.  This header does not.
 */
#ifndef PLANNER_ILP_H
#define PLANNER_ILP_H

#include "cplan.h"
#include "diag.h"
#include "outfile.h"
#include "problem.h"
#include "solfile.h"

enum ilp_status {
	ILP_OPTIMAL,		/* proven within the requested relative gap */
	ILP_FEASIBLE,		/* an ILP plan, stopped by a limit (time or nodes); gap stated */
	ILP_TIME_LIMIT,		/* no ILP plan within the time limit: the greedy plan stands */
	ILP_NO_PLAN,		/* the solver failed and there is no plan */
	ILP_SKIPPED,		/* not solved (--greedy): the greedy plan stands */
	ILP_NODE_LIMIT,		/* no ILP plan within the node limit: the greedy plan stands */
};
const char *ilp_status_name(enum ilp_status s);
/*
 * The status of a run a limit stopped before it held an ILP plan (the
 * greedy plan stands): the limit that stopped it, ILP_NODE_LIMIT when
 * node_stop (the node limit stopped the search), else ILP_TIME_LIMIT
 * (the clock; an interrupt stops like it).  Under a node limit no clock
 * stops any phase, so a run with both limits names the node limit.
 */
enum ilp_status ilp_stop_status(int node_stop);

/*
 * Progress of a planning run, for a caller that shows it (the cli: the
 * core never prints).  The run calls the sink's fn on the calling thread
 * when a phase starts and, in the branch-and-cut, as the search moves;
 * fn must return quickly and must not call back into the planner.  How
 * often it is called says nothing about time: the caller throttles.
 */
struct ilp_progress {
	const char *phase;	/* "price", "model", "greedy", "lp", "round", "search", "done"; simulate: "step" */
	double elapsed_s;	/* since the run started */
	double limit_s;		/* the run's time limit; 0: none */
	double best;		/* objective of the best plan so far (cost plus unplaced penalties); < 0: none yet */
	double gap;		/* proven relative gap of it; < 0: not known */
	long done, total;	/* simulate: steps done of total; else 0 */
};
struct ilp_progress_sink {
	void (*fn)(const struct ilp_progress *pg, void *ctx);
	void *ctx;		/* fn's */
	double t0;		/* util_now_s() when the run started */
	double limit_s;		/* the run's time limit; 0: none */
};
/*
 * Tells sink (when sink and its fn are set) that phase is under way, with
 * the best objective so far (< 0: none) and the best bound (< 0: none).
 */
void ilp_progress_report(const struct ilp_progress_sink *sink, const char *phase, double best, double bound);

struct ilp_opts {
	double time_limit_s;
	double mip_gap;		/* relative, to the plan's cost: ilp_gap_within */
	int verbose;		/* solver output to stderr */
	const char *export_path; /* .mps or .lp: write the model before solving; NULL: none */
	const struct cplan *warm; /* a feasible plan to start from, or NULL */
	const struct solfile *start; /* another solver's plan of the exported model (plan --start), or NULL */
	/*
	 * Deterministic work budget: stop the branch-and-bound after this many
	 * nodes (glp_ios_tree_size's total), 0 = no limit.  When it is set no
	 * phase looks at the clock (time_limit_s is ignored: the root LP and
	 * the rounding run to their end, the class and pair MIPs stop on their
	 * own node counts, the polish when a pass changes nothing), so the
	 * same limit gives the same plan on every run, machine and load.
	 */
	long node_limit;
	/*
	 * Threads for the class MIPs of the rounding and the polish (0: one
	 * per processor).  The plan does not depend on it, only how much
	 * gets done before the time limit.
	 */
	int threads;
	const struct ilp_progress_sink *progress; /* or NULL */
	/*
	 * Off (0): after its plan, ilp_solve runs the node-pattern column
	 * generation (ilp_colgen.h) from warm and that plan for this many
	 * seconds more (under a node limit, to its own budgets: no clock;
	 * plan --colgen-seconds S sets it): its bound raises
	 * the result's, and its plan over real nodes is the result's colgen,
	 * for the caller to weigh against the counts' (ilp_take_colgen).
	 */
	double colgen_s;
	/*
	 * Wall seconds one deal of a whole plan over real nodes is expected
	 * to take, measured by the caller on this run (the greedy pass over
	 * every replica: the deal's work is of its kind); 0: unknown.  Sets
	 * the reserve a rounding the clock stops is completed in (ilp_round.c).
	 */
	double deal_s;
};

struct ilp_pack;

struct ilp_result {
	enum ilp_status status;
	double objective;	/* of the ILP incumbent */
	double bound;		/* best proven lower bound */
	double lp_bound;	/* root LP relaxation */
	/*
	 * The root LP of the documented model where the solver's penalties
	 * are spread (problem_prio_spread): a bound of the documented
	 * objective at least lp_bound; else lp_bound (0: no root LP).
	 */
	double doc_lp_bound;
	double gap;		/* (objective - bound) / objective, >= 0 */
	double cost;		/* the plan's objective less its unplaced replicas' penalties: the
				 * measure of the stopping gap (ilp_gap_within) */
	int rows, cols, int_cols;
	/* how the solve went (for the benchmark and --verbose; not in the reports) */
	int lp_rounds;		/* simplex solves of the root LP (> 1: sifting) */
	long lp_arcs;		/* arc columns free in the root LP and the search */
	double unplaced_total;	/* replicas the plan leaves unplaced (sum of unplaced[]) */
	double round_objective;	/* the rounded LP plan's objective, 0 when rounding failed */
	long nodes;		/* the node limit when it stopped the search, else 0 */
	int cut;		/* the time limit (or an interrupt) cut the root LP or the search short */
	double t_lp, t_round;	/* seconds from the start to the end of the root LP, of the rounding */
	/* ilp_opts.start: its objective on the model, made concrete, and whether the plan returned is it */
	double start_model, start_concrete;
	int have_start, start_kept;
	/* the solution in counts (valid for ILP_OPTIMAL and ILP_FEASIBLE only) */
	long *nmode;		/* [class * MODE_COUNT + mode] */
	long **ncfg;		/* [class][config] */
	double *arc;		/* [arc] */
	double *unplaced;	/* [demand] */
	/* ilp_opts.export_path's model, staged: outstage_commit puts it in place; released: removed */
	struct outstage model;
	/* ilp_solve's exact packings (ilp_pack.h), which ilp_concrete finds again; NULL: none */
	struct ilp_pack *pack;
	/*
	 * The column generation's integer plan built over real nodes
	 * (ilp_opts.colgen_s), whether or not the result has a plan of its
	 * own (ILP_TIME_LIMIT, ILP_NODE_LIMIT: none); NULL: none.  Owned; ilp_take_colgen
	 * moves it out.
	 */
	struct cplan *colgen;
};

/* Solves; fails (d filled, DIAG_IO) only when the model cannot be written or GLPK errs. */
int ilp_solve(const struct problem *p, const struct ilp_opts *o, struct ilp_result *r, struct diag *d);
/*
 * The plan of r's counts over real nodes, into the empty cp, as
 * ilp_solve makes its plans concrete (the deal, then the short classes
 * packed exactly: ilp_pack.h), packing for at most `seconds`
 * (over 1e9: no limit); a class's share ilp_solve packed already
 * (r->pack) is taken as it was, so the plan written does not depend on
 * the time left.  The main thread only.
 */
void ilp_concrete(const struct problem *p, const struct ilp_result *r, struct cplan *cp, double seconds);
/*
 * When r carries the column generation's plan (r->colgen) and it is
 * better than plan than (costing *tc) by the priority rule, then by cost
 * (cplan_better), it replaces into (an initialised plan, released; than
 * itself or another) and *cc, and leaves r; returns 1 then, else 0 (into
 * as it was).  The plan compared is the plan kept.
 */
int ilp_take_colgen(struct ilp_result *r, const struct cplan *than, const struct cplan_cost *tc, struct cplan *into,
		    struct cplan_cost *cc);
/*
 * The root LP relaxation of p's model alone (ilp_lp.c): the model
 * ilp_solve builds and its first LP (ilp_result.lp_bound), without the
 * rounding, search or any plan.  Its optimum is a lower bound on the
 * model's optimum (every plan of the model is a point of its LP).
 * Reads o's time_limit_s (none under node_limit: the LP runs to its end)
 * and verbose.  Returns 1 with *bound the LP optimum; 0 (*bound 0) when
 * the clock or an interrupt stopped it first; -1 when GLPK failed (d
 * filled, DIAG_SOLVER).
 */
int ilp_lp_bound(const struct problem *p, const struct ilp_opts *o, double *bound, struct diag *d);
void ilp_result_release(const struct problem *p, struct ilp_result *r);
/* Frees GLPK's environment (the caller's thread's); call once before exit.  In ilp_glpk.c. */
void ilp_cleanup(void);
/* Allocates the count arrays of r for p (zeroed). */
void ilp_result_alloc(const struct problem *p, struct ilp_result *r);
/* The replicas r leaves unplaced (the sum of r->unplaced; 0 when not allocated). */
double ilp_result_unplaced(const struct problem *p, const struct ilp_result *r);
/* r's plan and bound: the bound no higher than the objective, and the gap of the two. */
void ilp_result_gap(struct ilp_result *r);
/*
 * When r's objective is within mip_gap of its bound (ilp_gap_within, on
 * r->cost): r is proven (ILP_OPTIMAL, and not cut: what the clock cut
 * short could not have done better); returns 1 then, else 0.
 */
int ilp_result_proven(struct ilp_result *r, double mip_gap);
/*
 * The stopping gap (plan --gap, docs/formulation.md "The stopping gap"):
 * a plan of objective obj is proven within mip_gap of bound when obj -
 * bound is at most ilp_gap_tol: mip_gap times |cost|, the plan's cost
 * (its objective less the penalties of the replicas it leaves unplaced),
 * plus 1e-9.  Measured on the objective, the tolerance of a plan that
 * leaves replicas unplaced was a share of their penalties, far more than
 * any cost difference, and the search stopped on plans far above the
 * bound; on cost the test is never looser than on the objective
 * (penalties are >= 0), and the same where every replica is placed.
 */
double ilp_gap_tol(double cost, double mip_gap);
int ilp_gap_within(double obj, double bound, double cost, double mip_gap);

#endif
