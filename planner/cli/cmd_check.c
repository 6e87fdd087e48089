/*
 * cmd_check.c - gpuplan check: plan a scenario and compare the plan with
 * a baseline plan.json against thresholds (a CI gate); gpuplan diff: the
 * same comparison of two plan.json files.
 *
 * Defaults (README "Check against a baseline"): check fails when the
 * total cost rises by more than 0.5 % (unless --max-cost-increase or
 * --max-cost-increase-abs is given) or when more replicas stay unplaced
 * than in the baseline (unless --max-unplaced-increase is given); the
 * utilisation drop is checked only when asked.  diff checks only the
 * thresholds given, and without any it only reports.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plan.h"
#include "report.h"
#include "reportdiff.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

static const char *const check_usage[] = {
	"usage: gpuplan check SCENARIO --baseline FILE.json [--max-cost-increase PCT] [--max-cost-increase-abs USD]",
	"                     [--max-unplaced-increase N] [--max-util-drop PTS] [--format text|markdown|json]",
	"                     [-o DIR] [--time-limit S] [--gap PCT] [--node-limit N] [--threads N]",
	"",
	"  plans SCENARIO, compares the plan with the baseline plan.json (cost in total and by category,",
	"  licences, nodes, mode mix, replicas, utilisation, unplaced workloads) and exits 1 when a",
	"  threshold is exceeded",
	"",
	"  --baseline F                the plan.json to compare with (gpuplan plan --format json)",
	"  --max-cost-increase PCT     most the total cost may rise, in percent (default 0.5)",
	"  --max-cost-increase-abs USD most the total cost may rise, in USD (either cost option drops the 0.5 %)",
	"  --max-unplaced-increase N   most replicas that may be unplaced beyond the baseline's (default 0)",
	"  --max-util-drop PTS         most memory or compute utilisation may fall, in points (default: not checked)",
	"  --format F                  text (default), markdown (a pull-request comment) or json",
	"  -o DIR                      also write the new plan's reports into DIR, as gpuplan plan does",
	"  --time-limit S, --gap PCT, --node-limit N, --threads N   solver options, as for gpuplan plan",
	NULL,
};

static const char *const diff_usage[] = {
	"usage: gpuplan diff BASELINE.json CURRENT.json [--max-cost-increase PCT] [--max-cost-increase-abs USD]",
	"                    [--max-unplaced-increase N] [--max-util-drop PTS] [--format text|markdown|json]",
	"",
	"  compares two plan.json reports as gpuplan check does; checks only the thresholds given",
	"  (exit 1 when one is exceeded) and without any only reports",
	NULL,
};

struct check_args {
	const char *pos[2];	/* check: scenario; diff: baseline, current */
	int npos;
	const char *baseline;
	const char *out_dir;
	enum rd_format fmt;
	struct rd_limits lim;
	int given[RD_LIMIT_COUNT];
	struct plan_opts po;
};

/*
 * Parses the options both commands share; 1 when argv[*i] was one of
 * them, 0 when not, -1 on misuse (message printed).
 */
static int shared_option(int argc, char **argv, int *i, struct check_args *a, const char *const *usage)
{
	static const double max[] = { 1e6, 1e15, 1e9, 100 };
	const char *v;
	int l, r;

	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		const char *opt = rd_limit_option((enum rd_limit)l);
		double x;
		if ((r = cli_opt_value(argc, argv, i, opt, &v)) == 0)
			continue;
		if (r < 0) {
			cli_misuse(usage, "%s needs a value", opt);
			return -1;
		}
		if (cli_parse_num(opt, v, 0, 0, max[l], 0, &x))
			return -1;
		if (l == RD_UNPLACED && x != floor(x)) {
			cli_misuse(usage, "%s: '%s' is not a whole number", opt, v);
			return -1;
		}
		a->lim.limit[l] = x;
		a->given[l] = 1;
		return 1;
	}
	if ((r = cli_opt_value(argc, argv, i, "--format", &v)) != 0) {
		if (r < 0) {
			cli_misuse(usage, "--format needs text, markdown or json");
			return -1;
		}
		if (!strcmp(v, "text"))
			a->fmt = RD_TEXT;
		else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
			a->fmt = RD_MARKDOWN;
		else if (!strcmp(v, "json"))
			a->fmt = RD_JSON;
		else {
			cli_misuse(usage, "--format: '%s' is not text, markdown or json", v);
			return -1;
		}
		return 1;
	}
	return 0;
}

/* 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct check_args *a, int is_check)
{
	const char *const *usage = is_check ? check_usage : diff_usage;
	int i;

	memset(a, 0, sizeof(*a));
	a->fmt = RD_TEXT;
	rd_limits_none(&a->lim);
	a->po = (struct plan_opts)PLAN_OPTS_INIT;
	for (i = 1; i < argc; i++) {
		const char *v;
		int r;
		if (cli_is_help(argv[i])) {
			cli_usage(stdout, usage);
			return 1;
		}
		r = shared_option(argc, argv, &i, a, usage);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		if (is_check && (r = cli_opt_value(argc, argv, &i, "--baseline", &v)) != 0) {
			if (r < 0)
				return cli_misuse(usage, "--baseline needs a file");
			a->baseline = v;
		} else if (is_check && ((r = cli_opt_value(argc, argv, &i, "-o", &v)) != 0 ||
					(r = cli_opt_value(argc, argv, &i, "--output", &v)) != 0)) {
			if (r < 0)
				return cli_misuse(usage, "-o needs a directory");
			a->out_dir = v;
		} else if (is_check && (r = cli_solver_option(argc, argv, &i, usage, &a->po)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_misuse(usage, "unknown option '%s'", argv[i]);
		} else if (a->npos < (is_check ? 1 : 2)) {
			a->pos[a->npos++] = argv[i];
		} else {
			return cli_misuse(usage, is_check ? "more than one scenario given" : "more than two reports given");
		}
	}
	if (is_check) {
		if (!a->npos)
			return cli_misuse(usage, "no scenario given");
		if (!a->baseline)
			return cli_misuse(usage, "no --baseline given");
		/* the defaults, each unless its own option was given */
		if (!a->given[RD_COST_PCT] && !a->given[RD_COST_ABS])
			a->lim.limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
		if (!a->given[RD_UNPLACED])
			a->lim.limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
	} else if (a->npos < 2) {
		return cli_misuse(usage, "diff needs two plan.json reports: the baseline and the current one");
	}
	return 0;
}

/* Prints the comparison; the exit code: 0, or 1 with the reason on stderr. */
static int finish(const struct rd_report *base, const struct rd_report *cur, const struct check_args *a,
		  const char *command)
{
	struct rd_diff df;
	char *text, *why;
	int rc = EXIT_OK;

	rd_diff_compute(&df, base, cur, &a->lim);
	text = rd_diff_format(&df, a->fmt, command);
	fputs(text, stdout);
	free(text);
	why = rd_diff_failure(&df);
	if (why) {
		/* stdout first, so a terminal shows the verdict after the table */
		fflush(stdout);
		cli_error(EXIT_CHECK, "%s failed: %s", command, why);
		rc = EXIT_CHECK;
	}
	free(why);
	rd_diff_release(&df);
	return rc;
}

int cmd_check(int argc, char **argv, const struct cli_global *g)
{
	struct check_args a;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct plan_result r;
	struct rd_report base, cur;
	int rc, have_sc = 0;
	size_t i;

	rc = parse_args(argc, argv, &a, 1);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	memset(&r, 0, sizeof(r));
	memset(&cur, 0, sizeof(cur));
	/* the baseline first: a bad one fails before any solver time is spent */
	if (rd_report_read(&base, a.baseline, "baseline", &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	have_sc = 1; /* released also after a failed load */
	if (scenario_load(&sc, a.pos[0], g->models_dir, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	a.po.verbose = g->verbose;
	if (plan_run(&r, &sc, &a.po, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	for (i = 0; i < r.p.ndemands; i++)
		if (r.p.demands[i].unhostable)
			fprintf(stderr, "gpuplan: warning: %s:%ld: workload '%s' can never be placed: %s\n",
				sc.workloads.file, r.p.demands[i].w->line, r.p.demands[i].w->name, r.p.demands[i].unhostable);
	if (a.out_dir && report_write(a.out_dir, REPORT_BOTH, &r, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	rd_report_from_plan(&cur, a.pos[0], &r);
	rc = finish(&base, &cur, &a, "check");
out:
	rd_report_release(&cur);
	rd_report_release(&base);
	plan_release(&r);
	if (have_sc)
		scenario_release(&sc);
	diag_release(&d);
	ilp_cleanup();
	return rc;
}

int cmd_diff(int argc, char **argv, const struct cli_global *g)
{
	struct check_args a;
	struct diag d = DIAG_INIT;
	struct rd_report base, cur;
	int rc;

	(void)g;
	rc = parse_args(argc, argv, &a, 0);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	memset(&cur, 0, sizeof(cur));
	if (rd_report_read(&base, a.pos[0], "baseline", &d) || rd_report_read(&cur, a.pos[1], "report", &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	rc = finish(&base, &cur, &a, "diff");
out:
	rd_report_release(&cur);
	rd_report_release(&base);
	diag_release(&d);
	return rc;
}
