/*
 * cmd_check.c - gpuplan check: plan a scenario and compare the plan with
 * a baseline plan.json against thresholds (a CI gate); gpuplan diff: the
 * same comparison of two plan.json files.
 *
 * Defaults (docs/commands.md, "check and diff"): check fails when the
 * total cost rises by more than half a percent (unless --max-cost-increase or
 * --max-cost-increase-abs is given) or when more replicas stay unplaced
 * than in the baseline (unless --max-unplaced-increase is given); the
 * utilisation drop is checked only when asked.  diff checks only the
 * thresholds given, and without any it only reports.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_check.h"
#include "outfile.h"
#include "plan.h"
#include "report.h"
#include "reportdiff.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

static const struct cli_word rd_formats[] = {
	{ "text", RD_TEXT, 0 },
	{ "markdown", RD_MARKDOWN, 0 },
	{ "md", RD_MARKDOWN, 1 },
	{ "json", RD_JSON, 0 },
	{ "html", RD_HTML, 0 },
	{ NULL, 0, 0 },
};

/* A threshold's row: --max-*, the limit l as a number in [0, max]; whole for the counts. */
#define LIMIT(name, arg, l, max, whole_, help) \
	{ name, 0, arg, help, .kind = CLI_DOUBLE, .offset = offsetof(struct check_args, lim.limit[l]), \
	  .range = { 0, max, RANGE_CLOSED }, .whole = whole_ }
#define FAIL_UNPLACED { "fail-unplaced", 0, "WORKLOAD", "fail when this workload has more unplaced replicas (repeatable)", \
			.kind = CLI_LIST, .offset = offsetof(struct check_args, names) }
#define FORMAT { "format", 0, "text|markdown|json|html", "text (default), markdown (a pull-request comment), json or html (a page)", \
		 .kind = CLI_WORDS, .offset = offsetof(struct check_args, fmt), .words = rd_formats }

static const struct cli_option check_options[] = {
	{ "baseline", 0, "FILE", "the plan.json to compare with (gpuplan plan --format json)", .kind = CLI_STRING,
	  .offset = offsetof(struct check_args, baseline) },
	LIMIT("max-cost-increase", "PCT", RD_COST_PCT, 1e6, 0, "most the total cost may rise, in percent (default 0.5)"),
	LIMIT("max-cost-increase-abs", "USD", RD_COST_ABS, 1e15, 0,
	      "most the total cost may rise, in USD (either cost option drops the 0.5 %)"),
	LIMIT("max-unplaced-increase", "N", RD_UNPLACED, 1e9, 1,
	      "most replicas that may be unplaced beyond the baseline's (default 0)"),
	LIMIT("max-util-drop", "PTS", RD_UTIL_DROP, 100, 0,
	      "most memory or compute utilisation may fall, in points (default: not checked)"),
	LIMIT("max-weighted-unplaced-increase", "N", RD_WEIGHTED, 1e15, 1,
	      "most the sum of priority x unplaced replicas may rise (default 0)"),
	LIMIT("fail-unplaced-priority", "P", RD_PRIORITY, 1000, 1,
	      "fail when a workload of priority P or above has more unplaced replicas\n(a roadmap: a period with more of priority P or above)"),
	FAIL_UNPLACED,
	LIMIT("fail-stranded-priority", "P", RD_STRANDED, 1000, 1,
	      "fail when the worst node, site or GPU loss strands more replicas of priority\nP or above than the baseline's (default 1; 0: not checked)"),
	FORMAT,
	{ "forecast", 0, "FILE", "with a roadmap.json baseline: the demand forecast (default: the scenario's roadmap.forecast)",
	  .kind = CLI_STRING, .offset = offsetof(struct check_args, forecast) },
	{ "output", 'o', "DIR", "also write the new plan's reports into DIR, as gpuplan plan does;\n- writes plan.json to stdout and the comparison to stderr",
	  .kind = CLI_STRING, .offset = offsetof(struct check_args, out_dir) },
	CLI_OPT_TIME_LIMIT(struct check_args, "bound the whole run to S seconds, as for gpuplan plan"),
	CLI_OPT_GAP(struct check_args, "stop within PCT percent of optimal, as for gpuplan plan"),
	CLI_OPT_NODE_LIMIT(struct check_args, "branch-and-bound node limit, as for gpuplan plan"),
	CLI_OPT_THREADS(struct check_args, "solver threads, as for gpuplan plan"),
	CLI_OPT_GREEDY(struct check_args, "skip the ILP: check the greedy plan, as for gpuplan plan"),
	CLI_OPT_PROGRESS(struct check_args),
	{ .name = NULL },
};

static const struct cli_option diff_options[] = {
	LIMIT("max-cost-increase", "PCT", RD_COST_PCT, 1e6, 0, "most the total cost may rise, in percent"),
	LIMIT("max-cost-increase-abs", "USD", RD_COST_ABS, 1e15, 0, "most the total cost may rise, in USD"),
	LIMIT("max-unplaced-increase", "N", RD_UNPLACED, 1e9, 1, "most replicas that may be unplaced beyond the baseline's"),
	LIMIT("max-util-drop", "PTS", RD_UTIL_DROP, 100, 0, "most memory or compute utilisation may fall, in points"),
	LIMIT("max-weighted-unplaced-increase", "N", RD_WEIGHTED, 1e15, 1,
	      "most the sum of priority x unplaced replicas may rise (priority 1 without a scenario)"),
	LIMIT("fail-unplaced-priority", "P", RD_PRIORITY, 1000, 1,
	      "fail when a workload of priority P or above has more unplaced replicas"),
	FAIL_UNPLACED,
	LIMIT("fail-stranded-priority", "P", RD_STRANDED, 1000, 1,
	      "fail when the worst node, site or GPU loss strands more replicas of priority\nP or above than the baseline's (0: not checked)"),
	FORMAT,
	{ .name = NULL },
};

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct check_args *a, int is_check)
{
	const struct cli_command *c = is_check ? &cmd_check_entry : &cmd_diff_entry;
	struct rd_limits *l = &a->lim;
	int rc;

	memset(a, 0, sizeof(*a));
	a->fmt = RD_TEXT;
	rd_limits_none(l);
	a->po = (struct plan_opts)PLAN_OPTS_INIT;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (a->names.n) {
		l->names = a->names.v;
		l->nnames = a->names.n;
		l->limit[RD_NAMED] = 0;
	}
	a->summary = stdout;
	if (is_check) {
		enum report_format fmt = REPORT_BOTH;
		if (cli_output_option(c, a->out_dir, &fmt, &a->summary))
			return EXIT_USAGE;
		if (!a->pos[0])
			return cli_misuse(c, "no scenario given");
		if (!a->baseline)
			return cli_misuse(c, "no --baseline given");
		/* the defaults, each unless its own option was given */
		if (l->limit[RD_COST_PCT] < 0 && l->limit[RD_COST_ABS] < 0)
			l->limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
		if (l->limit[RD_UNPLACED] < 0)
			l->limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
		if (l->limit[RD_WEIGHTED] < 0)
			l->limit[RD_WEIGHTED] = RD_DEFAULT_WEIGHTED;
		if (l->limit[RD_PRIORITY] < 0 && l->limit[RD_NAMED] < 0)
			l->limit[RD_PRIORITY] = RD_DEFAULT_PRIORITY;
		if (l->limit[RD_STRANDED] < 0)
			l->limit[RD_STRANDED] = RD_DEFAULT_STRANDED;
	} else if (!a->pos[1]) {
		return cli_misuse(c, "needs two plan.json reports: the baseline and the current one");
	}
	return 0;
}

/*
 * When a side was not proven optimal (the budget ended first), one note:
 * the range the cheapest plans' costs lie in (a report's cost less its
 * gap is its lower bound) and so the range of the true change; the
 * verdict stays on the plans found, which are the same on any machine
 * under a node budget.
 */
static void budget_note(FILE *f, const struct rd_report *base, const struct rd_report *cur)
{
	double bl = (double)base->total_cents * (1 - base->gap), cl = (double)cur->total_cents * (1 - cur->gap);
	if (!strcmp(base->status, "optimal") && !strcmp(cur->status, "optimal"))
		return;
	fprintf(f, "note: not proven optimal (baseline %s, gap %.4f%%; current %s, gap %.4f%%): the cost change "
		   "of the cheapest plans lies between %+.2f and %+.2f USD; the verdict is on the plans found\n",
		base->status, 100 * base->gap, cur->status, 100 * cur->gap, (cl - (double)base->total_cents) / 100,
		((double)cur->total_cents - bl) / 100);
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
	fputs(text, a->summary);
	free(text);
	budget_note(a->fmt == RD_JSON ? stderr : a->summary, base, cur);
	why = rd_diff_failure(&df);
	if (why) {
		/* the table first, so a terminal shows the verdict after it */
		fflush(a->summary);
		cli_error(EXIT_CHECK, "%s failed: %s", command, why);
		rc = EXIT_CHECK;
	}
	free(why);
	rd_diff_release(&df);
	return rc;
}

static int cmd_check(int argc, char **argv, const struct cli_global *g)
{
	struct check_args a;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct plan_result r;
	struct rd_report base, cur;
	struct cli_progress pg;
	double t_read = 0, t_planned, limit;
	int rc, have_sc = 0;

	rc = parse_args(argc, argv, &a, 1);
	if (rc) {
		free(a.names.v);
		return cli_exit_code(rc);
	}
	memset(&r, 0, sizeof(r));
	memset(&cur, 0, sizeof(cur));
	memset(&base, 0, sizeof(base));
	/* a roadmap.json baseline gates a roadmap (cmd_check_roadmap.c) */
	if ((rc = check_roadmap(&a, g)) != CHECK_NOT_ROADMAP)
		goto out;
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
	cli_warn_implausible(&sc);
	t_read = deadline_elapsed(g->run);
	a.po.verbose = g->verbose;
	a.po.deadline = g->run;
	if (a.po.node_limit < 0 && !sc.node_limit && a.po.time_limit_s < 0)
		a.po.node_limit = CHECK_NODE_LIMIT; /* the deterministic budget, not the scenario's time limit */
	else if (a.po.node_limit <= 0 && !sc.node_limit)
		cli_printf(stderr, "gpuplan: warning: check under a time limit without a node limit: the verdict may "
				"depend on the machine's speed\n");
	limit = cli_run_limit(&a.po, &sc);
	cli_warn_read_overrun(g->run, limit);
	cli_progress_init(&pg, a.progress, a.quiet);
	cli_progress_plan(&pg, &a.po, sc.name);
	rc = plan_run(&r, &sc, &a.po, &d);
	cli_progress_end(&pg);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_warn_unhostable(&r, &sc);
	cli_warn_cut(&r);
	cli_warn_spread_skew(&r);
	if (a.out_dir && report_write(a.out_dir, strcmp(a.out_dir, OUTSET_STDOUT) ? REPORT_BOTH : REPORT_JSON, &r, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	t_planned = deadline_elapsed(g->run);
	rd_report_from_plan(&cur, a.pos[0], &r);
	rc = finish(&base, &cur, &a, "check");
	cli_progress_written(&pg, g->run, limit);
	cli_warn_overrun(g->run, limit, t_read, t_planned);
out:
	rd_report_release(&cur);
	rd_report_release(&base);
	plan_release(&r);
	if (have_sc)
		scenario_release(&sc);
	diag_release(&d);
	ilp_cleanup();
	free(a.names.v);
	return rc;
}

static int cmd_diff(int argc, char **argv, const struct cli_global *g)
{
	struct check_args a;
	struct diag d = DIAG_INIT;
	struct rd_report base, cur;
	int rc;

	(void)g;
	rc = parse_args(argc, argv, &a, 0);
	if (rc) {
		free(a.names.v);
		return cli_exit_code(rc);
	}
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
	free(a.names.v);
	return rc;
}

const struct cli_command cmd_check_entry = {
	.name = "check",
	.run = cmd_check,
	.summary = "plan a scenario and check it against a baseline plan.json (CI gate)",
	.synopsis = "SCENARIO --baseline FILE.json [--forecast FILE] [--max-cost-increase PCT] [--max-cost-increase-abs USD] "
		    "[--max-unplaced-increase N] [--max-util-drop PTS] [--max-weighted-unplaced-increase N] "
		    "[--fail-unplaced-priority P] [--fail-unplaced WORKLOAD] [--format text|markdown|json|html] [-o DIR] "
		    "[--time-limit S] [--gap PCT] [--node-limit N] [--threads N] [--greedy] [--progress | --quiet]",
	.description = "plans SCENARIO, compares the plan with the baseline plan.json (cost in total and by category,\n"
		       "licences, nodes, mode mix, replicas, utilisation, unplaced workloads) and exits 1 when a\n"
		       "threshold is exceeded; with a roadmap.json baseline, plans the scenario's roadmap and compares\n"
		       "its total cost, purchases and unplaced replicas period by period (and by priority;\n"
		       "text or json)",
	.options = check_options,
	.operands = { CLI_STRING, offsetof(struct check_args, pos), 1, "more than one scenario given", NULL },
};

const struct cli_command cmd_diff_entry = {
	.name = "diff",
	.run = cmd_diff,
	.summary = "compare two plan.json reports: cost, licences, mode mix, utilisation",
	.synopsis = "BASELINE.json CURRENT.json [--max-cost-increase PCT] [--max-cost-increase-abs USD] "
		    "[--max-unplaced-increase N] [--max-util-drop PTS] [--max-weighted-unplaced-increase N] "
		    "[--fail-unplaced-priority P] [--fail-unplaced WORKLOAD] [--format text|markdown|json|html]",
	.description = "compares two plan.json reports as gpuplan check does; checks only the thresholds given\n"
		       "(exit 1 when one is exceeded) and without any only reports",
	.options = diff_options,
	.operands = { CLI_STRING, offsetof(struct check_args, pos), 2, "more than two reports given", NULL },
};
