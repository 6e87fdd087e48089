/*
 * cmd_simulate.c - gpuplan simulate: load the scenario and a demand trace
 * (a CSV file or a generated shape), step it hour by hour, price the ways
 * of buying licences, write the reports and say which is cheapest.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scenario.h"
#include "simulate.h"
#include "trace.h"
#include "util.h"
#include "banned.h"

struct sim_args {
	const char *scenario;
	const char *trace;
	const char *generate;
	const char *out_dir;
	enum report_format fmt;
	int progress, quiet;	/* --progress, --quiet */
	struct sim_opts o;
};

/* --format: a report format that writes the CSV and JSON reports together. */
static int set_format(const struct cli_option *o, void *args, const char *v)
{
	struct sim_args *a = args;
	int f, rc = cli_word_value("--format", cli_report_formats, v, &f);

	(void)o;
	if (rc)
		return rc;
	if (f == REPORT_CSV || f == REPORT_JSON)
		return cli_usage("--format: simulate writes its CSV and JSON reports together: give both, html or all");
	a->fmt = (enum report_format)f;
	return 0;
}

#define OFF(f) offsetof(struct sim_args, f)
static const struct cli_option simulate_options[] = {
	{ "trace", 0, "FILE", "demand trace CSV: timestamp (ISO 8601 UTC or hours from the start), workload, replicas",
	  .kind = CLI_STRING, .offset = OFF(trace) },
	{ "generate", 0, "SPEC",
	  "a generated trace: flat[:growth=G,hours=N] or\n"
	  "daily[:hours_per_day=H,start_hour=S,base=B,weekend=W,workloads=A|B,growth=G,hours=N]",
	  .kind = CLI_STRING, .offset = OFF(generate) },
	{ "output", 'o', "DIR", "write the reports into DIR (default ./gpuplan-simulate)", .kind = CLI_STRING,
	  .offset = OFF(out_dir) },
	{ "format", 0, "both|html|all", "both: the CSV and JSON reports (default); html: report.html; all: both and report.html",
	  .kind = CLI_SET, .set = set_format },
	{ "hours", 0, "N",
	  "simulate N hourly steps, repeating the trace (default: the longer of the trace\n"
	  "and the scenario's horizon)", .kind = CLI_LONG, .offset = OFF(o.hours),
	  .range = { 1, (double)TRACE_MAX_HOURS, RANGE_CLOSED } },
	{ "lease-hours", 0, "H", "a seat stays leased H hours after its last use (default: licensing.lease_hours, else 0)",
	  .kind = CLI_DOUBLE, .offset = OFF(o.lease_hours), .range = { 0, 8760, RANGE_CLOSED } },
	{ "verify", 0, NULL, "check every step's plan with the verifier (slower)", .kind = CLI_FLAG, .offset = OFF(o.verify) },
	CLI_OPT_PROGRESS(struct sim_args),
	{ .name = NULL },
};
#undef OFF

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct sim_args *a)
{
	const struct cli_command *c = &cmd_simulate_entry;
	struct sim_opts init = SIM_OPTS_INIT;
	int rc;

	memset(a, 0, sizeof(*a));
	a->out_dir = "gpuplan-simulate";
	a->fmt = REPORT_BOTH;
	a->o = init;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (!a->scenario)
		return cli_misuse(c, "no scenario given");
	if (!a->trace && !a->generate)
		return cli_misuse(c, "give a trace: --trace FILE or --generate SPEC");
	if (a->trace && a->generate)
		return cli_misuse(c, "--trace and --generate exclude each other");
	return 0;
}

/*
 * The assumptions that can change which strategy is cheapest: the
 * licence prices, the rules of the modes that decided a licence at some
 * step (sim_result.rule_modes), and the simulator's own (not energy, not
 * hardware), one a line under the headline; simulate.json lists all.
 */
static void print_assumptions(const struct sim_result *r)
{
	size_t i;
	int first = 1;

	for (i = 0; i < r->pr.nassumptions; i++) {
		const struct assumption *a = &r->pr.assumptions[i];
		if ((a->cat >= 0 && a->cat != CAT_LIC_VCS && a->cat != CAT_LIC_NVAIE) ||
		    (a->cat < 0 && a->mode >= 0 && !(r->rule_modes & MODE_BIT(a->mode))))
			continue;
		cli_printf(stdout, "  %s %s\n", first ? "assumes:   " : "           ", a->what);
		first = 0;
	}
}

static void print_summary(const struct sim_result *r, const char *dir)
{
	char b1[64], b2[64], b3[64];
	int q, k, s, any = 0;

	cli_printf(stdout, "simulate %s: %zu hourly steps (%s years) of %s", r->sc->name, r->nsteps,
	       fmt_fixed(b1, sizeof(b1), (double)r->nsteps / HOURS_PER_YEAR, 2), r->tr->source);
	if (r->tr->nsteps < r->nsteps)
		cli_printf(stdout, " (period %zu h, repeated)", r->tr->nsteps);
	cli_printf(stdout, "\n");
	cli_printf(stdout, "  demand:     peak %ld replicas; %.0f replica-hours unplaced (peak %ld)\n", r->peak_demand,
	       r->unplaced_hours, r->peak_unplaced);
	cli_printf(stdout, "  fleet:      peak %ld node%s, %ld GPU%s in use; %ld node starts, %ld re-plans\n", r->peak_nodes,
	       r->peak_nodes == 1 ? "" : "s", r->peak_gpus, r->peak_gpus == 1 ? "" : "s", r->node_opens, r->replans);
	cli_printf(stdout, "  licences:  ");
	for (q = 1; q < LIC_COUNT; q++) {
		if (!r->peak_units[q])
			continue;
		cli_printf(stdout, "%s %s peak %ld, %.0f licence-hours (%s%% of the peak's hours)", any ? ";" : "",
		       lic_product_id((enum lic_product)q), r->peak_units[q], r->unit_hours[q],
		       fmt_fixed(b1, sizeof(b1), 100.0 * r->unit_hours[q] / ((double)r->peak_units[q] * (double)r->nsteps), 1));
		any = 1;
	}
	cli_printf(stdout, "%s; per %s", any ? "" : " none", r->sc->licensing.counting == COUNT_VGPU_SEAT ? "vGPU seat" : "physical GPU");
	if (r->sc->licensing.counting == COUNT_VGPU_SEAT)
		cli_printf(stdout, ", lease %ld h", r->lease_steps);
	cli_printf(stdout, "\n");
	cli_printf(stdout, "  strategies (USD over the %zu hours):\n", r->nsteps);
	for (k = 1; k <= STRAT_COUNT; k++)
		for (s = 0; s < STRAT_COUNT; s++) {
			const struct sim_strategy_result *x = &r->strat[s];
			if (!x->available || x->rank != k)
				continue;
			cli_printf(stdout, "    %d %-20s %14s", k, sim_strategy_name((enum sim_strategy)s), fmt_fixed(b1, sizeof(b1), x->total, 2));
			if (k > 1)
				cli_printf(stdout, "  +%s", fmt_fixed(b2, sizeof(b2), x->total - r->strat[r->cheapest].total, 2));
			cli_printf(stdout, "\n");
		}
	for (s = 0; s < STRAT_COUNT; s++)
		if (!r->strat[s].available)
			cli_printf(stdout, "    - %-20s unavailable: %s\n", sim_strategy_name((enum sim_strategy)s), r->strat[s].how);
	if (r->cheapest < 0) {
		cli_printf(stdout, "  cheapest:   none of the strategies can be priced\n");
	} else if (r->runner_up < 0) {
		cli_printf(stdout, "  cheapest:   %s, %s USD (the only one)\n", sim_strategy_name((enum sim_strategy)r->cheapest),
		       fmt_fixed(b1, sizeof(b1), r->strat[r->cheapest].total, 2));
	} else if (r->strat[r->runner_up].total - r->strat[r->cheapest].total < 0.005) {
		cli_printf(stdout, "  cheapest:   %s, %s USD, tied with %s\n", sim_strategy_name((enum sim_strategy)r->cheapest),
		       fmt_fixed(b1, sizeof(b1), r->strat[r->cheapest].total, 2),
		       sim_strategy_name((enum sim_strategy)r->runner_up));
	} else {
		double c = r->strat[r->cheapest].total, n = r->strat[r->runner_up].total;
		cli_printf(stdout, "  cheapest:   %s, %s USD: %s USD (%s%%) less than %s\n", sim_strategy_name((enum sim_strategy)r->cheapest),
		       fmt_fixed(b1, sizeof(b1), c, 2), fmt_fixed(b2, sizeof(b2), n - c, 2),
		       fmt_fixed(b3, sizeof(b3), n > 0 ? 100.0 * (n - c) / n : 0, 1),
		       sim_strategy_name((enum sim_strategy)r->runner_up));
	}
	if (r->cheapest >= 0)
		cli_printf(stdout, "  buy:        %s\n", r->strat[r->cheapest].how);
	print_assumptions(r);
	cli_printf(stdout, "  reports:    %s\n", dir);
}

static int cmd_simulate(int argc, char **argv, const struct cli_global *g)
{
	struct sim_args a;
	struct scenario sc;
	struct trace tr = TRACE_INIT;
	struct sim_result r;
	struct diag d = DIAG_INIT;
	struct cli_progress pg;
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
	if (a.trace ? trace_load(&tr, a.trace, &sc.workloads, &d)
		    : trace_generate(&tr, a.generate, &sc.workloads, (long)floor(sc.horizon_years * HOURS_PER_YEAR + 0.5), &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	have_r = 1;
	cli_progress_init(&pg, a.progress, a.quiet);
	a.o.progress = cli_progress_sink(&pg, sc.name);
	rc = simulate_run(&r, &sc, &tr, &a.o, &d);
	cli_progress_end(&pg);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	if (report_sim_write(a.out_dir, a.fmt, &r, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	print_summary(&r, a.out_dir);
	rc = EXIT_OK;
out:
	if (have_r)
		simulate_release(&r);
	trace_release(&tr);
	if (have_sc)
		scenario_release(&sc);
	diag_release(&d);
	return rc;
}

const struct cli_command cmd_simulate_entry = {
	.name = "simulate",
	.run = cmd_simulate,
	.summary = "price ways of buying licences over an hourly demand trace",
	.synopsis = "SCENARIO (--trace FILE | --generate SPEC) [-o DIR] [--format both|html|all] [--hours N] "
		    "[--lease-hours H] [--verify] [--progress | --quiet]",
	.options = simulate_options,
	.operands = { CLI_STRING, offsetof(struct sim_args, scenario), 1, "more than one scenario given", NULL },
};
