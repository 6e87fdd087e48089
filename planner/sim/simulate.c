/*
 * simulate.c - the simulator's run: step a demand trace hour by hour,
 * count each step's GPUs and licences (the lease keeps released seats
 * held), track peaks and yearly figures, then price the strategies (see
 * simulate.h for the model).
 *
 * The parts: step.c carries a plan over to the next step's demand,
 * strategies.c prices the buying strategies from the counts, output.c
 * formats timeseries.csv (one row per step, appended here) and the other
 * files (simulate_write).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "interrupt.h"
#include "sim_common.h"
#include "output.h"
#include "step.h"
#include "strategies.h"
#include "simulate.h"
#include "verify.h"
#include "banned.h"

/* A run's state from one step to the next. */
struct run {
	struct sim_result *r;
	const struct sim_opts *o;
	struct cplan a, b;		/* the two plans, swapped every step */
	struct cplan *prev, *cur;	/* the last step's plan, this step's */
	struct sim_stepper st;
	long *target;			/* this step's replicas per demand */
	long *nodes_k, *nodes_k_prev;	/* nodes in use per class, this step and the last */
	long *ring[LIC_COUNT];		/* per product: seats released at each of the last lease_steps steps */
	long seats_prev[LIC_COUNT];	/* per product: seats in use at the last step */
	long held_sum[LIC_COUNT];	/* per product: released seats still leased */
};

/* Builds the pricing and problem, sizes the run and allocates the per-step arrays. */
static int run_setup(struct run *run, const struct scenario *sc, const struct trace *tr, struct diag *d)
{
	struct sim_result *r = run->r;
	const struct sim_opts *o = run->o;
	long horizon;
	int q;

	memset(r, 0, sizeof(*r));
	r->sc = sc;
	r->tr = tr;
	sb_init(&r->timeseries);
	if (pricing_build(&r->pr, sc, d))
		return -1;
	r->have_pr = 1;
	if (problem_build(&r->p, sc, &r->pr, d))
		return -1;
	r->have_p = 1;

	horizon = (long)floor(sc->horizon_years * HOURS_PER_YEAR + 0.5);
	r->nsteps = o->hours > 0 ? (size_t)o->hours : tr->nsteps > (size_t)horizon ? tr->nsteps : (size_t)horizon;
	if (r->nsteps > (size_t)TRACE_MAX_HOURS)
		r->nsteps = (size_t)TRACE_MAX_HOURS;
	r->lease_hours = o->lease_hours >= 0 ? o->lease_hours : sc->licensing.lease_hours;
	r->lease_steps = (long)ceil(r->lease_hours - SIM_EPS);
	r->nyears = (int)((r->nsteps + 8759) / 8760);
	for (q = 0; q < r->nyears; q++)
		r->years[q].hours = (long)(r->nsteps - (size_t)q * 8760 < 8760 ? r->nsteps - (size_t)q * 8760 : 8760);
	for (q = 1; q < LIC_COUNT; q++) {
		const struct lic_product_def *pd = &sc->licenses.product[q];
		size_t k;
		r->rate[q] = -1;
		for (k = 0; pd->present && k < pd->nterms; k++)
			if (pd->terms[k].kind == TERM_HOURLY) {
				r->rate[q] = pd->terms[k].usd_per_gpu_hour;
				break;
			}
		r->units[q] = xcalloc(r->nsteps, sizeof(**r->units));
		if (r->lease_steps > 0)
			run->ring[q] = xcalloc((size_t)r->lease_steps, sizeof(**run->ring));
	}
	return 0;
}

/* The assumptions the simulation adds to the pricing's. */
static void note_assumptions(struct sim_result *r, const struct sim_opts *o)
{
	size_t k;
	int cloud_only = r->sc->inventory.n > 0;

	for (k = 0; k < r->sc->inventory.n; k++)
		if (r->sc->inventory.classes[k].hv != HV_CLOUD)
			cloud_only = 0;
	if (cloud_only)
		pricing_assume(&r->pr, -1, -1,
			       "simulate: cloud-hourly and mix buy marketplace licences by the hour, sold only with a "
			       "cloud instance; the subscription strategies bring your own licence (BYOL)",
			       "models/licenses.yaml: term hosting");
	else
		pricing_assume(&r->pr, -1, -1,
			       "simulate: on-prem GPUs, so only the terms sold for them are priced (no marketplace "
			       "hourly price; mix = a multi-year base plus one-year top-ups)",
			       "models/licenses.yaml: term hosting");
	{
		char *what = xasprintf("simulate: subscriptions are priced over the %d simulated year%s, bought whole "
				       "(a longer term counts in full); a perpetual licence is judged over its whole "
				       "term: the share of its included support years the simulation uses, the rest "
				       "being value left after",
				       r->nyears, r->nyears == 1 ? "" : "s");
		pricing_assume(&r->pr, -1, -1, what, "gpuplan simulate");
		free(what);
	}
	if (r->sc->licensing.counting == COUNT_VGPU_SEAT) {
		char *what = xasprintf("simulate: a licence server lease of %s hours after a seat's last use",
				       fmt_num_short((char[64]){ 0 }, 64, r->lease_hours, 2));
		pricing_assume(&r->pr, -1, -1, what,
			       o->lease_hours >= 0 ? "gpuplan simulate --lease-hours (NLS lease length: no public source)"
						   : "licensing.lease_hours (NLS lease length: no public source)");
		free(what);
	}
}

/*
 * Plans step c->t into run->cur from run->prev; re-plans afresh when
 * the kept placements leave out replicas a fresh greedy plan places.
 */
static void plan_step(struct run *run, struct sim_step_counts *c)
{
	struct sim_result *r = run->r;
	struct cplan fresh;
	long unplaced = 0;
	size_t i;

	for (i = 0; i < r->p.ndemands; i++) {
		run->target[i] = trace_at(r->tr, c->t, r->p.demands[i].index);
		r->p.demands[i].replicas = run->target[i]; /* this step's demand, as the verifier reads it */
		c->demand += run->target[i];
	}
	cplan_init(run->cur, &r->p);
	sim_step_plan(run->cur, run->prev, &run->st, run->target);
	for (i = 0; i < r->p.ndemands; i++)
		unplaced += run->cur->unplaced[i];
	if (unplaced > 0) {
		/*
		 * The kept placements may block what a fresh plan would place,
		 * or a higher priority: re-plan then (cplan_prio_cmp: the
		 * priority rule, docs/formulation.md).
		 */
		cplan_init(&fresh, &r->p);
		cplan_greedy_add(&fresh, run->target);
		if (cplan_prio_cmp(&fresh, run->cur) < 0) {
			struct cplan x = *run->cur;
			*run->cur = fresh;
			fresh = x;
			c->replanned = 1;
			r->replans++;
		}
		cplan_release(&fresh);
	}
}

/* Counts run->cur's replicas, nodes and GPUs in use (per mode, per licence) and the nodes started. */
static void count_gpus(struct run *run, struct sim_step_counts *c)
{
	struct sim_result *r = run->r;
	const struct cplan *cur = run->cur;
	size_t i;

	for (i = 0; i < r->p.ndemands; i++) {
		c->placed += cur->placed[i];
		c->unplaced += cur->unplaced[i];
	}
	r->rule_modes |= cplan_rule_modes(cur);
	for (i = 0; i < cur->nnodes; i++) {
		const struct cnode *n = &cur->nodes[i];
		int g, ng = r->p.classes[n->k].nc->gpus_per_node, active = 0;
		for (g = 0; g < ng; g++) {
			enum lic_product lp;
			long lg, ls;
			int on = n->mode == MODE_PASSTHROUGH ? n->gpu_used[g] > 0 : n->gpu_config[g] >= 0;
			if (!on)
				continue;
			active++;
			c->by_mode[n->mode]++;
			cplan_gpu_licence(cur, i, g, &lp, &lg, &ls);
			c->lic_gpus[lp] += lg;
			c->seats[lp] += ls;
		}
		if (active) {
			c->nodes++;
			c->gpus += active;
			run->nodes_k[n->k]++;
		}
	}
	for (i = 0; i < r->p.nclasses; i++) {
		if (run->nodes_k[i] > run->nodes_k_prev[i])
			r->node_opens += run->nodes_k[i] - run->nodes_k_prev[i];
		run->nodes_k_prev[i] = run->nodes_k[i];
		run->nodes_k[i] = 0;
	}
}

/* The licences of step c->t per product (per-GPU plus seats held under the lease), with peaks and sums. */
static void count_licences(struct run *run, struct sim_step_counts *c)
{
	struct sim_result *r = run->r;
	size_t t = c->t;
	int q, y = (int)(t / 8760);

	for (q = 1; q < LIC_COUNT; q++) {
		long released = run->seats_prev[q] > c->seats[q] ? run->seats_prev[q] - c->seats[q] : 0;
		if (r->lease_steps > 0) {
			size_t slot = t % (size_t)r->lease_steps;
			run->held_sum[q] += released - run->ring[q][slot];
			run->ring[q][slot] = released;
		}
		c->held[q] = c->seats[q] + run->held_sum[q];
		run->seats_prev[q] = c->seats[q];
		r->units[q][t] = c->lic_gpus[q] + c->held[q];
		c->licensed += c->lic_gpus[q];
		c->seats_all += c->seats[q];
		c->held_all += c->held[q];
		if (r->rate[q] > 0)
			c->hourly += (double)r->units[q][t] * r->rate[q];
		if (r->units[q][t] > r->peak_units[q])
			r->peak_units[q] = r->units[q][t];
		if (r->units[q][t] > r->years[y].peak[q])
			r->years[y].peak[q] = r->units[q][t];
		r->unit_hours[q] += (double)r->units[q][t];
		r->years[y].unit_hours[q] += (double)r->units[q][t];
	}
}

/* One step: plan, verify, count, append the timeseries row, keep the plan for the next step. */
static int run_step(struct run *run, size_t t, struct diag *d)
{
	struct sim_result *r = run->r;
	struct sim_step_counts c;

	memset(&c, 0, sizeof(c));
	c.t = t;
	if (interrupt_pending())
		return diag_set(d, DIAG_IO, NULL, 0, 0, "interrupted by %s at step %zu",
				interrupt_signame(interrupt_pending()), t);
	plan_step(run, &c);
	if (run->o->verify && verify_plan(run->cur, d))
		return -1;
	count_gpus(run, &c);
	count_licences(run, &c);
	if (c.demand > r->peak_demand)
		r->peak_demand = c.demand;
	if (c.nodes > r->peak_nodes)
		r->peak_nodes = c.nodes;
	if (c.gpus > r->peak_gpus)
		r->peak_gpus = c.gpus;
	if (c.unplaced > r->peak_unplaced)
		r->peak_unplaced = c.unplaced;
	r->unplaced_hours += (double)c.unplaced;
	sim_timeseries_row(&r->timeseries, r, &c);

	cplan_release(run->prev);
	{
		struct cplan *x = run->prev;
		run->prev = run->cur;
		run->cur = x;
	}
	return 0;
}

int simulate_run(struct sim_result *r, const struct scenario *sc, const struct trace *tr, const struct sim_opts *o,
		 struct diag *d)
{
	struct run run;
	size_t t;
	int q, rc = -1;

	memset(&run, 0, sizeof(run));
	run.r = r;
	run.o = o;
	run.prev = &run.a;
	run.cur = &run.b;
	if (run_setup(&run, sc, tr, d))
		return -1;
	note_assumptions(r, o);

	run.target = xcalloc(r->p.ndemands + 1, sizeof(*run.target));
	run.nodes_k = xcalloc(r->p.nclasses + 1, sizeof(*run.nodes_k));
	run.nodes_k_prev = xcalloc(r->p.nclasses + 1, sizeof(*run.nodes_k_prev));
	sim_stepper_init(&run.st, r->p.ndemands);
	cplan_init(run.prev, &r->p);
	sim_timeseries_header(&r->timeseries);
	for (t = 0; t < r->nsteps; t++) {
		if (o->progress && o->progress->fn && t % SIM_PROGRESS_STEPS == 0) {
			struct ilp_progress pg = { "step", util_now_s() - o->progress->t0, 0, -1, -1, (long)t,
						   (long)r->nsteps };
			o->progress->fn(&pg, o->progress->ctx);
		}
		if (run_step(&run, t, d))
			goto out;
	}
	sim_price_strategies(r);
	rc = 0;
out:
	cplan_release(run.prev);
	if (rc && run.cur->p)
		cplan_release(run.cur);
	for (q = 0; q < LIC_COUNT; q++)
		free(run.ring[q]);
	free(run.target);
	free(run.nodes_k);
	free(run.nodes_k_prev);
	sim_stepper_release(&run.st);
	return rc;
}

void simulate_release(struct sim_result *r)
{
	int q;
	for (q = 0; q < LIC_COUNT; q++)
		free(r->units[q]);
	for (q = 0; q < STRAT_COUNT; q++)
		free(r->strat[q].how);
	free(r->be);
	sb_release(&r->timeseries);
	if (r->have_p)
		problem_release(&r->p);
	if (r->have_pr)
		pricing_release(&r->pr);
	memset(r, 0, sizeof(*r));
}
