/*
 * plan.h - one planning run of a loaded scenario: price it, build the
 * problem, take the greedy plan, solve the ILP, turn the counts into a
 * concrete plan, keep the better of the two, verify it.
 *
 * Every command that plans (plan, compare, check, simulate) calls
 * plan_run; the reports read the result.  Nothing here prints.
 *
 * Ownership: the result owns the pricing, the problem, both plans and
 * the solver's counts; it points into the scenario, which must outlive
 * it.  plan_release frees everything (also after a failed plan_run).
 */
#ifndef PLANNER_PLAN_H
#define PLANNER_PLAN_H

#include "cplan.h"
#include "deadline.h"
#include "diag.h"
#include "failures.h"
#include "ilp.h"
#include "pricing.h"
#include "problem.h"
#include "resilience.h"
#include "scenario.h"

struct plan_opts {
	double time_limit_s;	/* < 0: the scenario's */
	double mip_gap;		/* < 0: the scenario's */
	long node_limit;	/* < 0: the scenario's; 0: none */
	int verbose;		/* solver output to stderr */
	const char *export_path; /* write the ILP (.mps/.lp) before solving, or NULL */
	int greedy_only;	/* skip the ILP */
	int threads;		/* for the solver (ilp_opts.threads); 0: one per processor */
	void (*progress)(const struct ilp_progress *pg, void *ctx); /* phases and the search's best (ilp.h); or NULL */
	void *progress_ctx;	/* progress's */
	/*
	 * The run's deadline (deadline.h), started when the program started:
	 * time_limit_s (or the scenario's) counts from its start, so reading
	 * the scenario counts too.  NULL: the run starts at plan_run.
	 */
	const struct deadline *deadline;
	const struct solfile *start; /* another solver's plan of the exported model (ilp_opts.start), or NULL */
	/*
	 * The greedy pass runs to its end whatever the time limit (the ILP
	 * gets what is left, maybe nothing): a caller that shares one limit
	 * out over many small plans (roadmap) keeps every replica the greedy
	 * pass can place.
	 */
	int greedy_whole;
	/*
	 * A plan to start from (roadmap: the previous period's plan carried
	 * over): seed fills the empty plan it is given, of this run's problem,
	 * and the greedy pass's plan (the ILP's warm start and fallback) is
	 * the better of it and the greedy plan by the priority rule, then
	 * cost.  NULL: none.
	 */
	void (*seed)(struct cplan *cp, void *ctx);
	void *seed_ctx;		/* seed's */
	/*
	 * Set by plan_run: the seeded plan was kept as the greedy pass's plan.
	 * Written through a pointer so the options stay const; NULL: not told.
	 */
	int *seed_kept;
	double colgen_s;	/* ilp_opts.colgen_s: plan --colgen-seconds; 0: off */
};
#define PLAN_OPTS_INIT { -1, -1, -1, 0, NULL, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, 0 }

struct plan_whatif;

struct plan_result {
	const struct scenario *sc;
	struct pricing pr;
	struct problem p;
	struct cplan greedy, ilp;
	struct ilp_result res;
	const struct cplan *final;	/* the plan reported: &ilp or &greedy */
	long node_limit;	/* the deterministic budget it ran under (nodes), 0: the time limit */
	const char *plan_source;	/* "ilp", "colgen" (plan --colgen-seconds: ilp_take_colgen) or "greedy" */
	enum ilp_status status;
	double objective;		/* of final */
	double bound;			/* best proven lower bound */
	double lp_bound;
	double gap;			/* (objective - bound) / objective */
	double greedy_objective;
	int have_pr, have_p, have_ilp;
	const struct plan_whatif *whatif; /* what would place the unplaced (whatif.h), set by the caller; or NULL */
	struct deadline dl;		/* the run's deadline, its limit set (none under a node limit) */
	int stopped;			/* the time limit cut the greedy pass or the solve: the best verified plan so far */
	double limit_s;			/* the time limit it ran under, seconds */
	struct failures fail;		/* the failure analysis of final (failures.h), once verified */
	int have_fail;
	struct plan_resilience resil;	/* the headroom the scenario's resilience: block added (resilience.h) */
	int have_resil;
};

/*
 * Plans sc.  Fails with d set on bad pricing input (DIAG_INPUT), a model
 * that cannot be exported or a solver error (DIAG_IO), or a plan the
 * verifier rejects (DIAG_IO, an internal error).
 */
int plan_run(struct plan_result *r, const struct scenario *sc, const struct plan_opts *o, struct diag *d);
void plan_release(struct plan_result *r);
/*
 * Puts the model plan_opts.export_path asked for in place (outstage_commit),
 * once the run's reports are written; a no-op without one.  0, or -1 with
 * d set (DIAG_IO).  A run that fails before this leaves no model behind
 * (plan_release removes it).
 */
int plan_commit_export(struct plan_result *r, struct diag *d);

/*
 * The time limit's budget (docs/commands.md, Signals and time limits).
 *
 * plan_reserve_s: seconds of one processor a run keeps after the solver
 * (and after the greedy pass, when the limit cuts it) for the failure
 * analysis and the reports of a plan of `replicas` replicas on `gpus`
 * GPUs, estimated from the plan's size alone.  It decides how long the
 * solver may search and, on inputs too large for the limit, where the
 * greedy pass is cut: then the replicas it did not reach are unplaced.
 *
 * plan_wall_per_cpu: wall seconds per CPU second of a run that took
 * `wall` s and `cpu` s of CPU (the share of a processor it had, on a
 * loaded machine less than one), never below 1; 1 when cpu is 0.  The
 * reserve the greedy pass and the solver keep is plan_reserve_s times
 * this, taken while the greedy pass runs.
 *
 * plan_search_s: what the solver gets when `left` seconds of the limit
 * remain once the greedy pass is done: left less the reserve, less one
 * greedy pass (t_greedy, the deal of the solver's counts is as long) and
 * three times t_check (costing and checking the greedy plan: the check,
 * the costing again, the what-if's start); never below 0.  No limit
 * (left HUGE_VAL) leaves it HUGE_VAL.
 *
 * plan_overrun_msg: the warning for a run that ended t s after its start
 * under a limit of `limit` s, more than the larger of a second and a tenth
 * of the limit past it (read: the seconds reading took, planned: the
 * seconds at the end of planning); NULL when it did not, or without a
 * limit (limit < 0).  Caller frees.
 */
double plan_reserve_s(double replicas, double gpus);
double plan_wall_per_cpu(double wall, double cpu);
double plan_search_s(double left, double t_greedy, double t_check, double reserve);
char *plan_overrun_msg(double t, double limit, double read, double planned);

#endif
