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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "plan.h"
#include "report.h"
#include "reportdiff.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

struct check_args {
	const char *pos[2];	/* check: scenario; diff: baseline, current */
	int npos;
	const char *baseline;
	const char *out_dir;
	enum rd_format fmt;
	struct rd_limits lim;
	int given[RD_LIMIT_COUNT];
	const char **names;	/* --fail-unplaced, pointing into argv */
	size_t nnames;
	struct plan_opts po;
	int progress;		/* check: CLI_FLAG_PROGRESS, CLI_FLAG_QUIET */
	FILE *summary;		/* where the comparison goes: stdout, or stderr under -o - */
};

/* A threshold (id OPT_MAX_*); -1 after a message. */
static int limit_option(struct check_args *a, int id, const char *v)
{
	static const double max[] = { 1e6, 1e15, 1e9, 100, 1e15, 1000 };
	int l = id - OPT_MAX_COST;
	const char *opt = rd_limit_option((enum rd_limit)l);
	double x;

	if (l == RD_NAMED) {
		a->names = xrealloc(a->names, (a->nnames + 1) * sizeof(*a->names));
		a->names[a->nnames++] = v;
		a->lim.names = a->names;
		a->lim.nnames = a->nnames;
		a->lim.limit[l] = 0;
		a->given[l] = 1;
		return 0;
	}
	if (cli_parse_num(opt, v, (struct num_range){ 0, max[l], RANGE_CLOSED }, &x))
		return -1;
	if ((l == RD_UNPLACED || l == RD_WEIGHTED || l == RD_PRIORITY) && x != floor(x)) {
		cli_usage("%s: '%s' is not a whole number", opt, v);
		return -1;
	}
	a->lim.limit[l] = x;
	a->given[l] = 1;
	return 0;
}

/* --format text|markdown|json|html; -1 after a message. */
static int format_option(struct check_args *a, const char *v)
{
	if (!strcmp(v, "text"))
		a->fmt = RD_TEXT;
	else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
		a->fmt = RD_MARKDOWN;
	else if (!strcmp(v, "json"))
		a->fmt = RD_JSON;
	else if (!strcmp(v, "html"))
		a->fmt = RD_HTML;
	else
		return cli_usage("--format: '%s' is not text, markdown, json or html", v), -1;
	return 0;
}

/* One option or operand (id from cli_getopt); 0 to go on, else an exit code. */
static int take(struct check_args *a, const struct cli_command *c, int id, const char *v)
{
	int is_check = c == &cli_commands[CMD_CHECK];

	switch (id) {
	case CLI_ERROR:
		return EXIT_USAGE;
	case CLI_ARG:
		if (a->npos >= (is_check ? 1 : 2))
			return cli_misuse(c, is_check ? "more than one scenario given" : "more than two reports given");
		a->pos[a->npos++] = v;
		return 0;
	case OPT_MAX_COST:
	case OPT_MAX_COST_ABS:
	case OPT_MAX_UNPLACED:
	case OPT_MAX_UTIL_DROP:
	case OPT_MAX_WEIGHTED:
	case OPT_FAIL_PRIORITY:
	case OPT_FAIL_UNPLACED:
		return limit_option(a, id, v) ? EXIT_USAGE : 0;
	case OPT_FORMAT:
		return format_option(a, v) ? EXIT_USAGE : 0;
	case OPT_BASELINE:
		a->baseline = v;
		return 0;
	case OPT_OUTPUT:
		a->out_dir = v;
		return 0;
	default:
		if (is_check && cli_progress_option(id, &a->progress))
			return 0;
		return cli_solver_option(id, v, &a->po) < 0 ? EXIT_USAGE : 0;
	}
}

/* 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct check_args *a, int is_check)
{
	const struct cli_command *c = &cli_commands[is_check ? CMD_CHECK : CMD_DIFF];
	struct cli_getopt go;
	const char *v;
	int id, rc;

	memset(a, 0, sizeof(*a));
	a->fmt = RD_TEXT;
	rd_limits_none(&a->lim);
	a->po = (struct plan_opts)PLAN_OPTS_INIT;
	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		if (id == CLI_HELP)
			return 1;
		rc = take(a, c, id, v);
		if (rc)
			return rc;
	}
	a->summary = stdout;
	if (is_check) {
		enum report_format fmt = REPORT_BOTH;
		if (cli_output_option(c, a->out_dir, &fmt, &a->summary))
			return EXIT_USAGE;
		if (!a->npos)
			return cli_misuse(c, "no scenario given");
		if (!a->baseline)
			return cli_misuse(c, "no --baseline given");
		/* the defaults, each unless its own option was given */
		if (!a->given[RD_COST_PCT] && !a->given[RD_COST_ABS])
			a->lim.limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
		if (!a->given[RD_UNPLACED])
			a->lim.limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
		if (!a->given[RD_WEIGHTED])
			a->lim.limit[RD_WEIGHTED] = RD_DEFAULT_WEIGHTED;
		if (!a->given[RD_PRIORITY] && !a->given[RD_NAMED])
			a->lim.limit[RD_PRIORITY] = RD_DEFAULT_PRIORITY;
	} else if (a->npos < 2) {
		return cli_misuse(c, "needs two plan.json reports: the baseline and the current one");
	}
	return 0;
}

/*
 * check's default budget: without --node-limit, --time-limit or the
 * scenario's solver.node_limit, the search stops after this many
 * branch-and-bound nodes, so the verdict is the same on any machine.
 */
#define CHECK_NODE_LIMIT 5000

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

int cmd_check(int argc, char **argv, const struct cli_global *g)
{
	struct check_args a;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct plan_result r;
	struct rd_report base, cur;
	struct cli_progress pg;
	int rc, have_sc = 0;

	rc = parse_args(argc, argv, &a, 1);
	if (rc) {
		free(a.names);
		return rc == 1 ? EXIT_OK : rc;
	}
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
	a.po.deadline = g->run;
	if (a.po.node_limit < 0 && !sc.node_limit && a.po.time_limit_s < 0)
		a.po.node_limit = CHECK_NODE_LIMIT; /* the deterministic budget, not the scenario's time limit */
	else if (a.po.node_limit <= 0 && !sc.node_limit)
		cli_printf(stderr, "gpuplan: warning: check under a time limit without a node limit: the verdict may "
				"depend on the machine's speed\n");
	cli_progress_init(&pg, a.progress & CLI_FLAG_PROGRESS, a.progress & CLI_FLAG_QUIET);
	cli_progress_plan(&pg, &a.po, sc.name);
	rc = plan_run(&r, &sc, &a.po, &d);
	cli_progress_end(&pg);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_warn_unhostable(&r, &sc);
	if (a.out_dir && report_write(a.out_dir, strcmp(a.out_dir, OUTSET_STDOUT) ? REPORT_BOTH : REPORT_JSON, &r, &d)) {
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
	free(a.names);
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
	if (rc) {
		free(a.names);
		return rc == 1 ? EXIT_OK : rc;
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
	free(a.names);
	return rc;
}
