/*
 * cmd_plan.c - gpuplan plan: load, build the problem, greedy start,
 * solve the ILP, disaggregate, verify, write the reports, summarise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cplan.h"
#include "ilp.h"
#include "license.h"
#include "problem.h"
#include "report.h"
#include "scenario.h"
#include "util.h"
#include "verify.h"
#include "banned.h"

static const char *const usage[] = {
	"usage: gpuplan plan SCENARIO [-o DIR] [--format csv|json|both] [--time-limit S] [--gap PCT]",
	"                    [--export-model FILE.mps|FILE.lp] [--require-all] [--greedy]",
	"",
	"  -o DIR            write the reports into DIR (default ./gpuplan-out)",
	"  --format F        csv, json or both (default both)",
	"  --time-limit S    solver time limit in seconds (default: the scenario's, else 30)",
	"  --gap PCT         stop when proven within PCT percent of optimal (default: the scenario's, else 0.01)",
	"  --export-model F  write the exact ILP solved, as free MPS (.mps) or CPLEX LP (.lp)",
	"  --require-all     exit 1 when some replica stays unplaced",
	"  --greedy          skip the ILP: report the greedy first-fit-decreasing plan (a baseline)",
	NULL,
};

struct plan_args {
	const char *scenario;
	const char *out_dir;
	enum report_format fmt;
	double time_limit;	/* < 0: the scenario's */
	double gap;		/* < 0: the scenario's */
	const char *export_path;
	int require_all;
	int greedy_only;
};

static int parse_args(int argc, char **argv, struct plan_args *a)
{
	int i;
	memset(a, 0, sizeof(*a));
	a->out_dir = "gpuplan-out";
	a->fmt = REPORT_BOTH;
	a->time_limit = a->gap = -1;
	for (i = 1; i < argc; i++) {
		const char *v;
		int r;
		if (cli_is_help(argv[i])) {
			cli_usage(stdout, usage);
			return 1;
		}
		if ((r = cli_opt_value(argc, argv, &i, "-o", &v)) != 0 ||
		    (r = cli_opt_value(argc, argv, &i, "--output", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "-o needs a directory");
			a->out_dir = v;
		} else if ((r = cli_opt_value(argc, argv, &i, "--format", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--format needs csv, json or both");
			if (!strcmp(v, "csv"))
				a->fmt = REPORT_CSV;
			else if (!strcmp(v, "json"))
				a->fmt = REPORT_JSON;
			else if (!strcmp(v, "both"))
				a->fmt = REPORT_BOTH;
			else
				return cli_misuse(usage, "--format: '%s' is not csv, json or both", v);
		} else if ((r = cli_opt_value(argc, argv, &i, "--time-limit", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--time-limit needs seconds");
			if (cli_parse_num("--time-limit", v, 0, 1, 86400, 0, &a->time_limit))
				return EXIT_USAGE;
		} else if ((r = cli_opt_value(argc, argv, &i, "--gap", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--gap needs a percentage");
			if (cli_parse_num("--gap", v, 0, 0, 100, 1, &a->gap))
				return EXIT_USAGE;
			a->gap /= 100.0;
		} else if ((r = cli_opt_value(argc, argv, &i, "--export-model", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--export-model needs a file name");
			a->export_path = v;
		} else if (!strcmp(argv[i], "--require-all")) {
			a->require_all = 1;
		} else if (!strcmp(argv[i], "--greedy")) {
			a->greedy_only = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_misuse(usage, "unknown option '%s'", argv[i]);
		} else if (!a->scenario) {
			a->scenario = argv[i];
		} else {
			return cli_misuse(usage, "more than one scenario given");
		}
	}
	if (!a->scenario)
		return cli_misuse(usage, "no scenario given");
	return 0;
}

static void print_summary(const struct cplan *cp, const struct report_run *run, const char *dir)
{
	const struct problem *p = cp->p;
	struct cplan_cost cost;
	struct report_stats st;
	char b1[64], b2[64], b3[64], b4[64], b5[64];
	int m, first = 1;

	cplan_cost(cp, &cost);
	report_stats(cp, &st);
	printf("plan %s: %s", p->sc->name, ilp_status_name(run->status));
	if (run->status == ILP_FEASIBLE || run->status == ILP_OPTIMAL)
		printf(" (gap %s%%)", fmt_fixed(b1, sizeof(b1), run->gap * 100.0, 3));
	printf(", from the %s plan\n", run->plan_source);
	printf("  cost:       %s USD over %s years (hardware %s, energy %s, licences %s)\n",
	       fmt_fixed(b1, sizeof(b1), round(cost.total * 100) / 100, 2),
	       fmt_fixed(b2, sizeof(b2), p->horizon_years, 2), fmt_fixed(b3, sizeof(b3), cost.hardware, 2),
	       fmt_fixed(b4, sizeof(b4), cost.energy, 2), fmt_fixed(b5, sizeof(b5), cost.license, 2));
	printf("  nodes:      %ld used, %ld GPUs, %ld active, %ld licensed\n", cost.nodes, cost.gpus,
	       cost.gpus_active, cost.gpus_licensed);
	printf("  mode mix:  ");
	for (m = 0; m < MODE_COUNT; m++) {
		if (!st.nodes_by_mode[m])
			continue;
		printf("%s %s %ld node%s (%ld GPUs)", first ? "" : ",", mode_name((enum gpu_mode)m),
		       st.nodes_by_mode[m], st.nodes_by_mode[m] == 1 ? "" : "s", st.gpus_by_mode[m]);
		first = 0;
	}
	printf("%s\n", first ? " none" : "");
	printf("  replicas:   %ld placed, %ld unplaced\n", cost.placed, cost.unplaced);
	printf("  use:        memory %s%%, compute %s%% of the GPUs in used nodes\n",
	       fmt_fixed(b1, sizeof(b1), st.mem_util * 100, 1), fmt_fixed(b2, sizeof(b2), st.compute_util * 100, 1));
	printf("  reports:    %s\n", dir);
}

int cmd_plan(int argc, char **argv, const struct cli_global *g)
{
	struct plan_args a;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct problem p;
	struct cplan greedy, ilp_plan, *final = NULL;
	struct ilp_opts opts;
	struct ilp_result res;
	struct report_run run;
	struct cplan_cost gc, ic;
	char *lic_source = NULL;
	double lic;
	int rc, have_p = 0, have_ilp = 0;
	size_t i;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	memset(&sc, 0, sizeof(sc));
	memset(&res, 0, sizeof(res));
	memset(&greedy, 0, sizeof(greedy));
	memset(&ilp_plan, 0, sizeof(ilp_plan));
	if (scenario_load(&sc, a.scenario, g->models_dir, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	lic = sc.license_usd_per_gpu_year;
	if (lic < 0) {
		if (license_default_price(sc.models_dir, &lic, &lic_source, &d)) {
			rc = cli_diag(&d);
			goto out;
		}
	} else {
		lic_source = xstrdup(sc.license_source ? sc.license_source : "scenario");
	}
	if (problem_build(&p, &sc, lic, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	have_p = 1;
	for (i = 0; i < p.ndemands; i++)
		if (p.demands[i].unhostable)
			fprintf(stderr, "gpuplan: warning: %s:%ld: workload '%s' can never be placed: %s\n",
				sc.workloads.file, p.demands[i].w->line, p.demands[i].w->name, p.demands[i].unhostable);

	if (g->verbose) {
		size_t k, c;
		for (k = 0; k < p.nclasses; k++)
			for (c = 0; c < p.classes[k].nconfigs; c++)
				fprintf(stderr, "gpuplan: class %s config %zu: %s %s%s\n", p.classes[k].nc->name, c,
					mode_name(p.classes[k].configs[c].mode), p.classes[k].configs[c].name,
					p.classes[k].configs[c].licensed ? " (licensed)" : "");
	}
	cplan_init(&greedy, &p);
	cplan_greedy(&greedy);
	cplan_cost(&greedy, &gc);

	memset(&opts, 0, sizeof(opts));
	opts.time_limit_s = a.time_limit >= 0 ? a.time_limit : sc.time_limit_s;
	opts.mip_gap = a.gap >= 0 ? a.gap : sc.mip_gap;
	opts.verbose = g->verbose;
	opts.export_path = a.export_path;
	opts.warm = &greedy;
	if (a.greedy_only) {
		memset(&res, 0, sizeof(res));
		ilp_result_alloc(&p, &res);
		res.status = ILP_SKIPPED;
	} else if (ilp_solve(&p, &opts, &res, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	memset(&run, 0, sizeof(run));
	run.status = res.status;
	run.lp_bound = res.lp_bound;
	run.bound = res.bound;
	run.greedy_objective = gc.objective;
	run.rows = res.rows;
	run.cols = res.cols;
	run.int_cols = res.int_cols;
	run.license_source = lic_source;
	run.license_per_gpu_year = lic;
	final = &greedy;
	run.plan_source = "greedy";
	if (res.status == ILP_OPTIMAL || res.status == ILP_FEASIBLE) {
		cplan_init(&ilp_plan, &p);
		have_ilp = 1;
		cplan_from_counts(&ilp_plan, res.nmode, res.ncfg, res.arc);
		cplan_cost(&ilp_plan, &ic);
		/* keep the ILP's plan unless rounding made it worse than the greedy one */
		if (ic.objective <= gc.objective + 1e-6) {
			final = &ilp_plan;
			run.plan_source = "ilp";
		}
	}
	{
		struct cplan_cost fc;
		cplan_cost(final, &fc);
		run.objective = fc.objective;
		if (run.bound <= 0)
			run.bound = res.lp_bound;
		run.gap = fabs(fc.objective) > 1e-9 ? fmax(0, (fc.objective - run.bound) / fabs(fc.objective)) : 0;
	}
	if (verify_plan(final, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	if (report_write(a.out_dir, a.fmt, final, &run, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	print_summary(final, &run, a.out_dir);
	rc = EXIT_OK;
	if (a.require_all) {
		struct cplan_cost fc;
		cplan_cost(final, &fc);
		if (fc.unplaced)
			rc = EXIT_CHECK;
	}
out:
	if (have_ilp)
		cplan_release(&ilp_plan);
	if (have_p) {
		cplan_release(&greedy);
		ilp_result_release(&p, &res);
		problem_release(&p);
	}
	free(lic_source);
	scenario_release(&sc);
	diag_release(&d);
	ilp_cleanup();
	return rc;
}
