/*
 * cmd_roadmap.c - gpuplan roadmap: load the scenario and its demand
 * forecast, plan period by period what to buy and what to rent, write
 * the schedule and the periods' costs, and say the total with its
 * proven gap.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "forecast.h"
#include "roadmap.h"
#include "roadmap_report.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

struct roadmap_args {
	const char *scenario;
	const char *forecast;
	const char *out_dir;
	struct plan_opts po;	/* solver options (PLAN_OPTS_INIT: the scenario's) */
};

#define OFF(f) offsetof(struct roadmap_args, f)
static const struct cli_option roadmap_options[] = {
	{ "forecast", 0, "FILE", "the demand forecast CSV: period, workload, replicas (default: roadmap.forecast)",
	  .kind = CLI_STRING, .offset = OFF(forecast) },
	{ "output", 'o', "DIR", "write the reports into DIR (default ./gpuplan-out)", .kind = CLI_STRING,
	  .offset = OFF(out_dir) },
	CLI_OPT_TIME_LIMIT(struct roadmap_args, "the whole run's solver time, shared out over the periods' plans\n"
						"(default: the scenario's, else 30)"),
	CLI_OPT_GAP(struct roadmap_args, "each plan stops when proven within PCT percent of optimal (default: the scenario's)"),
	CLI_OPT_NODE_LIMIT(struct roadmap_args, "each plan stops after N branch-and-bound nodes: a limit that gives the same\n"
						"roadmap on any machine"),
	CLI_OPT_THREADS(struct roadmap_args, "solver threads (default: one per processor)"),
	CLI_OPT_GREEDY(struct roadmap_args, "skip the ILP in every plan (a greedy roadmap: only the capacity bound, which needs no LP, is proven)"),
	{ .name = NULL },
};
#undef OFF

static int parse_args(int argc, char **argv, struct roadmap_args *a)
{
	const struct cli_command *c = &cmd_roadmap_entry;
	struct plan_opts init = PLAN_OPTS_INIT;
	int rc;

	memset(a, 0, sizeof(*a));
	a->out_dir = "gpuplan-out";
	a->po = init;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (!a->scenario)
		return cli_misuse(c, "no scenario given");
	return 0;
}

/* The reservations and licence terms held, when there are any, with what the reservations save. */
static void print_commits(const struct roadmap_result *r)
{
	size_t i, nres = 0, nlic = 0;
	char m[64];

	for (i = 0; i < r->ncommits; i++)
		*(r->commits[i].kind == RCOMMIT_RESERVE ? &nres : &nlic) += 1;
	if (nres)
		cli_printf(stdout, "  reserve:    %zu commitment%s; saving %s USD against renting at the rows' own rates\n",
			   nres, nres == 1 ? "" : "s", fmt_fixed(m, sizeof(m), r->saving_vs_on_demand, 2));
	if (nlic)
		cli_printf(stdout, "  licences:   %zu term%s bought (schedule.csv)\n", nlic, nlic == 1 ? "" : "s");
}

static void print_summary(const struct roadmap_result *r, const char *dir)
{
	char b1[16], b2[16], m1[64], m2[64], m3[64];
	long gpus = 0, peak_rent = 0, unplaced = 0;
	size_t i, t;
	int q;

	cli_printf(stdout, "roadmap %s: %zu %ss from %s to %s, lead time %d %s%s\n", r->sc->name, r->nperiods,
		   period_kind_name(r->fc->kind), period_format(b1, sizeof(b1), r->fc->kind, r->fc->start),
		   period_format(b2, sizeof(b2), r->fc->kind, r->fc->start + (long)r->nperiods - 1), r->lead,
		   period_kind_name(r->fc->kind), r->lead == 1 ? "" : "s");
	for (i = 0; i < r->nbuys; i++)
		gpus += r->buys[i].units * r->sc->inventory.classes[r->buys[i].cls].gpus_per_node;
	for (t = 0; t < r->nperiods; t++) {
		long n = 0;
		for (q = 0; q < PRICING_COUNT; q++)
			n += r->per[t].rented_gpus[q];
		if (n > peak_rent)
			peak_rent = n;
	}
	cli_printf(stdout, "  buys:       %zu order%s, %ld GPU%s; rented at peak: %ld GPU%s\n", r->nbuys,
		   r->nbuys == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s", peak_rent, peak_rent == 1 ? "" : "s");
	print_commits(r);
	cli_printf(stdout, "  cost:       %s USD over the horizon; cash %s USD; NPV %s USD\n",
		   fmt_fixed(m1, sizeof(m1), r->cost_total, 2), fmt_fixed(m2, sizeof(m2), r->cash_total, 2),
		   fmt_fixed(m3, sizeof(m3), r->npv, 2));
	for (t = 0; t < r->nperiods; t++)
		unplaced += r->per[t].unplaced;
	if (unplaced)	/* the bound is on the objective, which prices them: say so, or it reads above the cost */
		cli_printf(stdout, "  unplaced:   %ld replica-periods; objective with their penalties %s USD\n", unplaced,
			   fmt_fixed(m1, sizeof(m1), r->objective, 2));
	cli_printf(stdout, "  bound:      %s USD (gap %s%%, proven)\n", fmt_fixed(m1, sizeof(m1), r->bound, 2),
		   fmt_fixed(m2, sizeof(m2), 100 * r->gap, 2));
	cli_printf(stdout, "  reports:    %s\n", dir);
}

static int cmd_roadmap(int argc, char **argv, const struct cli_global *g)
{
	struct roadmap_args a;
	struct scenario sc;
	struct forecast fc = FORECAST_INIT;
	struct roadmap_result r;
	struct diag d = DIAG_INIT;
	int rc, have_sc = 0, have_r = 0;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	if (scenario_load(&sc, a.scenario, g->models_dir, &d)) {
		rc = cli_diag(&d);
		scenario_release(&sc);
		goto out;
	}
	have_sc = 1;
	cli_warn_implausible(&sc);
	if (forecast_build(&fc, &sc, a.forecast, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	a.po.verbose = g->verbose;
	have_r = 1;
	if (roadmap_run(&r, &sc, &fc, &(struct roadmap_opts){ a.po }, &d) ||
	    report_roadmap_write(a.out_dir, &r, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	print_summary(&r, a.out_dir);
	rc = EXIT_OK;
out:
	if (have_r)
		roadmap_release(&r);
	forecast_release(&fc);
	if (have_sc)
		scenario_release(&sc);
	diag_release(&d);
	return rc;
}

const struct cli_command cmd_roadmap_entry = {
	.name = "roadmap",
	.run = cmd_roadmap,
	.summary = "plan purchases and rentals period by period over a demand forecast",
	.synopsis = "SCENARIO [--forecast FILE] [-o DIR] [--time-limit S] [--gap PCT] [--node-limit N] [--threads N] "
		    "[--greedy]",
	.options = roadmap_options,
	.operands = { CLI_STRING, offsetof(struct roadmap_args, scenario), 1, "more than one scenario given", NULL },
};
