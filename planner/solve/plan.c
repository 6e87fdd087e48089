/*
 * plan.c - one planning run: price, build, greedy, ILP, disaggregate,
 * choose, verify.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "util.h"
#include "verify.h"
#include "banned.h"

/*
 * The reserve for the failure analysis and the reports, per replica and
 * per GPU of the plan, and a floor for the small files and the fsyncs.
 * Both terms scale with the rows written (placements.csv and plan.json's
 * placements per replica; gpus.csv and its array per GPU) and with the
 * failure analysis, which walks every node and replica.  In seconds of
 * one processor's time (the run scales them by the share it has:
 * plan_wall_per_cpu), set from measured runs with a margin
 * (docs/benchmarks.md, Time limit overrun): an estimate too low lets the
 * run end past the limit, one too high shortens the search and, when the
 * greedy pass is cut, leaves replicas unplaced that could have been placed.
 */
#define PLAN_RESERVE_REPLICA_S 6e-6
#define PLAN_RESERVE_GPU_S 4e-6
#define PLAN_RESERVE_FLOOR_S 0.05
/*
 * With a resilience: block, the headroom loop's share of the reserve, in
 * greedy passes: each round analyses every failure (about one greedy
 * pass of work: the analysis re-places each failure's replicas with the
 * greedy pass's engine, every replica about once over all the failures)
 * and covers those that strand (placing their replicas, less); a few
 * rounds are the rule (resilience.h).  With count > 1, the checks of the
 * sets more (resilience_check_passes: sets times the domains each loses,
 * in analyses of every domain).  The whole loop's share is at most
 * PLAN_RESIL_SHARE of the time left, so that the solver keeps the rest.
 */
#define PLAN_RESIL_GREEDIES 4
#define PLAN_RESIL_SHARE 0.5
/*
 * The greedy pass asks what to keep once a replica; the answer is worked
 * out again every PLAN_KEEP_EVERY asks (the CPU clock is a system call,
 * and the replicas placed a sum over the demands), the load's share only
 * once the pass has had PLAN_KEEP_MIN_CPU_S (a ratio of two tiny figures
 * says nothing about the load).
 */
#define PLAN_KEEP_EVERY 1024
#define PLAN_KEEP_MIN_CPU_S 0.02

double plan_reserve_s(double replicas, double gpus)
{
	return PLAN_RESERVE_FLOOR_S + PLAN_RESERVE_REPLICA_S * fmax(0, replicas) + PLAN_RESERVE_GPU_S * fmax(0, gpus);
}

double plan_wall_per_cpu(double wall, double cpu)
{
	return cpu > 0 && wall > cpu ? wall / cpu : 1;
}

double plan_search_s(double left, double t_greedy, double t_check, double reserve)
{
	if (isinf(left))
		return left;
	return fmax(0, left - t_greedy - 3 * t_check - reserve);
}

char *plan_overrun_msg(double t, double limit, double read, double planned)
{
	char b[6][64];

	if (limit < 0 || t <= limit + fmax(1, 0.1 * limit))
		return NULL;
	return xasprintf("the run took %s s, past --time-limit %s s by %s s (more than max(1 s, 10%%)): reading %s s, "
			 "planning %s s, writing %s s (docs/benchmarks.md, Time limit overrun)",
			 fmt_fixed(b[0], sizeof(b[0]), t, 2), fmt_num_short(b[1], sizeof(b[1]), limit, 6),
			 fmt_fixed(b[2], sizeof(b[2]), t - limit, 2), fmt_fixed(b[3], sizeof(b[3]), read, 2),
			 fmt_fixed(b[4], sizeof(b[4]), planned - read, 2), fmt_fixed(b[5], sizeof(b[5]), t - planned, 2));
}

/*
 * What the greedy pass keeps for the rest of the run (cplan.keep_s): the
 * reserve of the plan so far (plan_reserve_s: the replicas it placed, the
 * GPUs of its nodes) in wall seconds at the share of a processor the pass
 * has had, and with a resilience: block the headroom loop's greedy passes
 * (PLAN_RESIL_GREEDIES times the pass so far), as the solver keeps them.
 */
struct plan_keep {
	double w0, c0;		/* the wall and CPU clocks when the pass began */
	double passes;		/* greedy passes more the run makes after this one */
	double wall_per_cpu;	/* the last reading (plan_wall_per_cpu) */
	double keep;		/* the last answer */
	long asks;
};

static double plan_keep(const struct cplan *cp, void *ctx)
{
	struct plan_keep *k = ctx;
	double placed = 0, gpus = 0, cpu;
	size_t i;

	if (k->asks++ % PLAN_KEEP_EVERY)
		return k->keep;
	for (i = 0; i < cp->p->ndemands; i++)
		placed += (double)cp->placed[i];
	for (i = 0; i < cp->nnodes; i++)
		gpus += cp->p->classes[cp->nodes[i].k].nc->gpus_per_node;
	cpu = util_thread_cpu_s() - k->c0;
	if (cpu >= PLAN_KEEP_MIN_CPU_S)
		k->wall_per_cpu = plan_wall_per_cpu(deadline_now() - k->w0, cpu);
	k->keep = k->wall_per_cpu * plan_reserve_s(placed, gpus) + k->passes * (deadline_now() - k->w0);
	return k->keep;
}

/* The reserve for r's greedy plan (plan_reserve_s): its problem's replicas, the GPUs of its nodes. */
static double plan_reserve_of(const struct plan_result *r)
{
	double replicas = 0, gpus = 0;
	size_t i;

	for (i = 0; i < r->p.ndemands; i++)
		replicas += (double)r->p.demands[i].replicas;
	for (i = 0; i < r->greedy.nnodes; i++)
		gpus += r->p.classes[r->greedy.nodes[i].k].nc->gpus_per_node;
	return plan_reserve_s(replicas, gpus);
}

/*
 * When replicas stay unplaced and the priority weights were capped
 * (problem.h, prio_exact_u), the plan may not be the best by the
 * priority rule: said as an assumption of the plan.
 */
static void note_priority_cap(struct plan_result *r)
{
	char *what;

	if (!r->have_ilp || r->p.prio_exact_u <= PROBLEM_PRIO_WEIGHT_MAX)
		return;
	what = xasprintf("priority: the exact rule needs a weight of %.3g, above the %.0f the solver's numerics hold, "
			 "so the ILP weighed priorities approximately; the plan kept is the better by priority of the "
			 "ILP's and the greedy pass's (docs/formulation.md, Priority)", r->p.prio_exact_u,
			 PROBLEM_PRIO_WEIGHT_MAX);
	pricing_assume(&r->pr, -1, -1, what, "gpuplan plan: priority weights capped");
	free(what);
}

/* What plan_greedy measured. */
struct greedy_times {
	double t_greedy;	/* the pass, seconds */
	double t_check;		/* costing and checking the whole plan here (measured only without a node limit) */
	double wall_per_cpu;	/* wall seconds a CPU second of the pass took (plan_wall_per_cpu) */
};

/*
 * The greedy pass on r's problem into r->greedy (to its end when whole,
 * else until what is left of the deadline is what the rest of the run
 * needs: plan_keep), costed into gc; what it measured into *t.
 */
static void plan_greedy(struct plan_result *r, int node_limited, int whole, struct cplan_cost *gc,
			struct greedy_times *t)
{
	struct plan_keep keep;
	double now = deadline_now(), cpu = util_thread_cpu_s();

	memset(&keep, 0, sizeof(keep));
	keep.w0 = now;
	keep.c0 = cpu;
	/*
	 * Until the pass has run a while, a whole processor: the time before it
	 * says nothing (this thread may have waited for the solver's, or
	 * started late).
	 */
	keep.wall_per_cpu = 1;
	keep.passes = r->sc->resilience.present ? PLAN_RESIL_GREEDIES : 0;
	cplan_init(&r->greedy, &r->p);
	r->greedy.deadline = whole ? NULL : &r->dl;
	r->greedy.keep_s = plan_keep;
	r->greedy.keep_ctx = &keep;
	cplan_greedy(&r->greedy);
	cplan_shrink(&r->greedy);
	r->greedy.deadline = NULL;
	r->greedy.keep_s = NULL;
	r->greedy.keep_ctx = NULL;
	t->t_greedy = deadline_now() - now;
	cpu = util_thread_cpu_s() - cpu;
	t->wall_per_cpu = cpu >= PLAN_KEEP_MIN_CPU_S ? plan_wall_per_cpu(t->t_greedy, cpu) : keep.wall_per_cpu;
	t->t_check = deadline_now();
	cplan_cost(&r->greedy, gc);
	r->greedy_objective = gc->objective;
	if (!node_limited) {	/* measured: what costing and checking a whole plan takes here */
		struct diag scratch = DIAG_INIT;
		verify_plan(&r->greedy, &scratch);
		diag_release(&scratch);
	}
	t->t_check = deadline_now() - t->t_check;
}

/*
 * The plan o->seed builds, when it is better than the greedy plan (gc:
 * its cost) by the priority rule, then by cost, replaces it (gc then its
 * cost): a plan carried over is never worse than a fresh greedy one.
 */
static void plan_seed(struct plan_result *r, const struct plan_opts *o, struct cplan_cost *gc)
{
	struct cplan seeded;
	struct cplan_cost sc;

	if (o->seed_kept)
		*o->seed_kept = 0;
	if (!o->seed || r->greedy.stopped)
		return;
	cplan_init(&seeded, &r->p);
	o->seed(&seeded, o->seed_ctx);
	cplan_cost(&seeded, &sc);
	if (!cplan_better(&seeded, &sc, &r->greedy, gc)) {
		cplan_release(&seeded);
		return;
	}
	cplan_release(&r->greedy);
	r->greedy = seeded;
	*gc = sc;
	r->greedy_objective = sc.objective;
	if (o->seed_kept)
		*o->seed_kept = 1;
}

/* The solver's options for r (sc, o) within time_limit_s seconds (none under a node limit). */
static void plan_ilp_opts(struct plan_result *r, const struct scenario *sc, const struct plan_opts *o,
			  double time_limit_s, struct ilp_progress_sink *sink, struct ilp_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->time_limit_s = time_limit_s;
	opts->mip_gap = o->mip_gap >= 0 ? o->mip_gap : sc->mip_gap;
	opts->node_limit = o->node_limit >= 0 ? o->node_limit : sc->node_limit;
	/*
	 * A node limit is the deterministic budget: no clock stops any phase
	 * (ilp_solve), so the time limit does not apply.
	 */
	if (opts->node_limit > 0)
		opts->time_limit_s = HUGE_VAL;
	r->node_limit = opts->node_limit;
	opts->verbose = o->verbose;
	opts->threads = o->threads;
	opts->export_path = o->export_path;
	opts->start = o->start;
	opts->warm = &r->greedy;
	opts->progress = sink;
	opts->colgen_s = o->colgen_s;
}

/*
 * The ILP's plan made concrete, r->ilp (ic: its cost), or the column
 * generation's plan over real nodes (plan --colgen-seconds) in its place
 * when that is better by the priority rule, then by cost
 * (ilp_take_colgen; ic then its cost): the plan compared with the greedy
 * plan is the plan written.  Returns where r->ilp came from.
 */
static const char *plan_colgen(struct plan_result *r, struct cplan_cost *ic)
{
	return ilp_take_colgen(&r->res, &r->ilp, ic, &r->ilp, ic) ? "colgen" : "ilp";
}

/*
 * With no plan of the solver's (a limit stopped it first), the column
 * generation's plan (plan --colgen-seconds) into r->ilp, and r->final
 * when it is better than the greedy plan (gc: its cost) by the priority
 * rule, then by cost: an integer program's plan, so the status becomes
 * feasible.
 */
static void plan_colgen_only(struct plan_result *r, const struct cplan_cost *gc)
{
	struct cplan_cost ic;

	if (!r->res.colgen || (r->res.status != ILP_TIME_LIMIT && r->res.status != ILP_NODE_LIMIT))
		return;
	cplan_init(&r->ilp, &r->p);
	if (!ilp_take_colgen(&r->res, &r->greedy, gc, &r->ilp, &ic)) {
		cplan_release(&r->ilp);
		return;
	}
	r->have_ilp = 1;
	r->final = &r->ilp;
	r->plan_source = "colgen";
	r->status = ILP_FEASIBLE;
}

/*
 * The ILP's plan made concrete into r->ilp, and r->final the better of it
 * and the greedy plan (gc: its cost); its packings (ilp_concrete) end
 * `after` seconds before the run's limit, for what follows.
 */
static void plan_pick(struct plan_result *r, const struct cplan_cost *gc, double after)
{
	double left = deadline_left(&r->dl);

	struct cplan_cost ic;
	const char *source;

	r->final = &r->greedy;
	r->plan_source = "greedy";
	if (r->res.status != ILP_OPTIMAL && r->res.status != ILP_FEASIBLE) {
		plan_colgen_only(r, gc);
		return;
	}
	cplan_init(&r->ilp, &r->p);
	r->have_ilp = 1;
	ilp_concrete(&r->p, &r->res, &r->ilp, isinf(left) ? left : fmax(0, left - after));
	cplan_cost(&r->ilp, &ic);
	source = plan_colgen(r, &ic);
	/*
	 * keep the ILP's plan unless the greedy one is better by the
	 * priority rule, or the same by it and cheaper
	 */
	if (!cplan_better(&r->greedy, gc, &r->ilp, &ic)) {
		r->final = &r->ilp;
		r->plan_source = source;
	} else if (cplan_prio_cmp(&r->greedy, &r->ilp) < 0 && r->status == ILP_OPTIMAL) {
		/* the ILP's optimum is of capped weights (problem.h): not proven by the rule */
		r->status = ILP_FEASIBLE;
	}
}

/*
 * The ILP of r's problem into r->res, or none: under --greedy, after a
 * greedy pass the deadline cut, or when the deadline leaves the solver
 * nothing (opts->time_limit_s 0; building its model alone would overrun
 * the limit at large sizes) unless a model is to be exported or a start
 * made concrete.  A node limit never skips it (no clock decides there).
 */
static int plan_solve(struct plan_result *r, const struct plan_opts *o, const struct ilp_opts *opts,
		      struct diag *d)
{
	int no_time = opts->node_limit <= 0 && opts->time_limit_s <= 0 && !o->export_path && !o->start;

	if (o->greedy_only || r->greedy.stopped || no_time) {
		ilp_result_alloc(&r->p, &r->res);
		r->res.status = o->greedy_only && !r->greedy.stopped ? ILP_SKIPPED : ILP_TIME_LIMIT;
		r->res.cut = no_time && !o->greedy_only;
		return 0;
	}
	return ilp_solve(&r->p, opts, &r->res, d);
}

/*
 * The priority levels the weight cap ties, spread in the solver's model
 * when the greedy plan leaves two of them short (problem_prio_spread):
 * only when a solver runs, and in its model only (pdemand.solve_penalty);
 * every plan is costed, compared and reported with the documented
 * weights.
 */
static void plan_spread(struct plan_result *r, const struct plan_opts *o)
{
	if (!o->greedy_only && !r->greedy.stopped)
		problem_prio_spread(&r->p, r->greedy.unplaced);
}

/*
 * Where the solver's penalties were spread, its proof is of its own
 * model: the plan written (fc: its cost with the documented weights) is
 * optimal only when it is within the gap of the bound (a bound of the
 * documented objective too: no spread penalty exceeds its documented
 * one) by the documented objective, its cost (fc->total, the objective
 * without the penalties and the tie-break) the measure (ilp_gap_within).
 */
static void plan_proven_documented(struct plan_result *r, const struct cplan_cost *fc, double mip_gap)
{
	if (r->p.prio_spread && r->status == ILP_OPTIMAL && !ilp_gap_within(fc->objective, r->bound, fc->total, mip_gap))
		r->status = ILP_FEASIBLE;
}

/*
 * The solver's bounds into r: its LP bound and best bound, raised to the
 * documented model's LP where its penalties were spread (plan_spread:
 * its own are bounds of the documented objective too, but lower).
 */
static void plan_bounds(struct plan_result *r)
{
	r->lp_bound = r->res.lp_bound;
	r->bound = r->res.bound;
	if (r->p.prio_spread && r->res.doc_lp_bound > r->lp_bound) {
		r->lp_bound = r->res.doc_lp_bound;
		r->bound = fmax(r->bound, r->lp_bound);
	}
}

/* The headroom loop's share of the solver's reserve (PLAN_RESIL_GREEDIES), t_greedy the greedy pass's time. */
static double plan_resil_reserve(const struct plan_result *r, double t_greedy)
{
	double passes;

	if (!r->sc->resilience.present)
		return 0;
	passes = PLAN_RESIL_GREEDIES + resilience_check_passes(&r->sc->resilience, &r->greedy);
	return fmin(passes * t_greedy, PLAN_RESIL_SHARE * deadline_left(&r->dl));
}

/*
 * The headroom sc's resilience: block asks, added to the plan picked
 * (resilience.h); none without one.  The loop's covers end `after`
 * seconds before the run's limit: what follows it (the check, costing,
 * the reports with their own failure analysis) must fit too.
 */
static void plan_headroom(struct plan_result *r, const struct scenario *sc, double after)
{
	char *note;

	if (!sc->resilience.present)
		return;
	plan_resilience_run(&r->resil, r->final == &r->ilp ? &r->ilp : &r->greedy, sc, &r->dl, after);
	r->have_resil = 1;
	/* the ILP's optimum is the plan's without the headroom: its bound still holds, the proof does not */
	if ((r->resil.cost_with > r->resil.cost_without + 1e-9 || r->resil.left_out) && r->status == ILP_OPTIMAL)
		r->status = ILP_FEASIBLE;
	if ((note = plan_resilience_note(&r->resil)) != NULL) {
		pricing_assume(&r->pr, -1, -1, note, "gpuplan plan: resilience make_room");
		free(note);
	}
}

/*
 * The failure analysis of the plan written, for the reports; with count
 * 1, the headroom loop's last check, when it is of that plan, is its
 * failures of the loop's kind (the same computation: resilience.c), not
 * made again.
 */
static void plan_failures(struct plan_result *r, const struct scenario *sc)
{
	const struct scenario_resilience *a = &sc->resilience;
	int by_gpu = a->present && resilience_kind(a) == FAIL_GPU;

	if (r->have_resil && r->resil.have_check)
		failures_analyse_with(&r->fail, r->final, by_gpu, resilience_preempt_floor(a), &r->resil.check,
				      resilience_kind(a));
	else
		failures_analyse(&r->fail, r->final, by_gpu, resilience_preempt_floor(a));
	if (r->have_resil)
		plan_resilience_rows(&r->resil, &r->fail, r->final);
	r->have_fail = 1;
}

int plan_run(struct plan_result *r, const struct scenario *sc, const struct plan_opts *o, struct diag *d)
{
	struct ilp_opts opts;
	struct cplan_cost gc, fc;
	double limit, reserve;
	struct greedy_times gt;
	struct ilp_progress_sink sink;
	int node_limited = (o->node_limit >= 0 ? o->node_limit : sc->node_limit) > 0;

	memset(r, 0, sizeof(*r));
	r->sc = sc;
	limit = o->time_limit_s >= 0 ? o->time_limit_s : sc->time_limit_s;
	/*
	 * One deadline for the whole run, from the program's start when the
	 * caller gives it; under a node limit (the deterministic budget) no
	 * time limit applies (the test hook still does).
	 */
	if (o->deadline)
		r->dl = *o->deadline;
	else
		deadline_start(&r->dl);
	r->dl.limit_s = node_limited ? HUGE_VAL : limit;
	r->limit_s = limit;
	sink.fn = o->progress;
	sink.ctx = o->progress_ctx;
	sink.t0 = util_now_s() - deadline_elapsed(&r->dl);
	sink.limit_s = node_limited ? 0 : limit;
	ilp_progress_report(&sink, "price", -1, -1);
	if (pricing_build(&r->pr, sc, d)) {
		pricing_release(&r->pr);
		return -1;
	}
	r->have_pr = 1;
	ilp_progress_report(&sink, "model", -1, -1);
	if (problem_build(&r->p, sc, &r->pr, d))
		return -1;
	r->have_p = 1;
	ilp_progress_report(&sink, "greedy", -1, -1);
	plan_greedy(r, node_limited, o->greedy_whole, &gc, &gt);
	plan_seed(r, o, &gc);
	plan_spread(r, o);
	/*
	 * The limit is for the whole run, from the program's start: reading,
	 * pricing, the model and the greedy pass are spent.  The solver keeps
	 * room for the deal after it (two deal tails: ilp_search_by); what it gets is
	 * what is left less the reserve after it (plan_search_s): the deal of
	 * its counts, the check and costing, measured on the greedy plan, and
	 * the failure analysis and the reports, estimated from its size, and
	 * PLAN_RESIL_GREEDIES greedy passes more for a resilience: block.
	 */
	reserve = gt.wall_per_cpu * plan_reserve_of(r) + plan_resil_reserve(r, gt.t_greedy);
	plan_ilp_opts(r, sc, o, plan_search_s(deadline_left(&r->dl), gt.t_greedy, gt.t_check, reserve), &sink,
		      &opts);
	opts.deal_s = gt.t_greedy;	/* measured: the reserve a rounding the clock stops is completed in */
	if (plan_solve(r, o, &opts, d))
		return -1;
	r->status = r->res.status;
	/* cut by the clock, not ended on the gap or short of it for another reason (a sifted model's search) */
	r->stopped = r->greedy.stopped || (!node_limited && !o->greedy_only && r->res.cut);
	plan_bounds(r);
	plan_pick(r, &gc, 2 * gt.t_check + reserve);
	plan_headroom(r, sc, gt.t_check + gt.wall_per_cpu * plan_reserve_of(r));
	cplan_cost(r->final, &fc);
	if (fc.unplaced > 0)
		note_priority_cap(r);
	r->objective = fc.objective;
	if (r->bound <= 0)
		r->bound = r->res.lp_bound;
	r->gap = fabs(fc.objective) > 1e-9 ? fmax(0, (fc.objective - r->bound) / fabs(fc.objective)) : 0;
	plan_proven_documented(r, &fc, opts.mip_gap);
	ilp_progress_report(&sink, "done", fc.objective, fc.objective * (1 - r->gap));
	if (verify_plan(r->final, d))
		return -1;
	plan_failures(r, sc);
	return 0;
}

int plan_commit_export(struct plan_result *r, struct diag *d)
{
	return r->have_p ? outstage_commit(&r->res.model, d) : 0;
}

void plan_release(struct plan_result *r)
{
	if (r->have_fail)
		failures_release(&r->fail);
	if (r->have_resil)
		plan_resilience_release(&r->resil);
	if (r->have_ilp)
		cplan_release(&r->ilp);
	if (r->have_p) {
		cplan_release(&r->greedy);
		ilp_result_release(&r->p, &r->res);
		problem_release(&r->p);
	}
	if (r->have_pr)
		pricing_release(&r->pr);
	memset(r, 0, sizeof(*r));
}
