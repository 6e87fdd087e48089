/*
 * cmd_compare.c - gpuplan compare: plan several scenarios and line them
 * up side by side (a table on stdout, compare.csv and compare.json).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "outfile.h"
#include "plan.h"
#include "scenario.h"
#include "util.h"
#include "whatif.h"
#include "banned.h"

struct compare_args {
	struct cli_list files;	/* the scenarios */
	const char *out_dir;
	enum report_format fmt;
	struct plan_opts po;
	int progress, quiet;	/* --progress, --quiet */
	FILE *summary;		/* stdout, or stderr when the report goes to stdout (-o -) */
};

#define OFF(f) offsetof(struct compare_args, f)
static const struct cli_option compare_options[] = {
	{ "output", 'o', "DIR", "write compare.csv and compare.json into DIR (default ./gpuplan-compare);\n- writes compare.json to stdout and the table to stderr",
	  .kind = CLI_STRING, .offset = OFF(out_dir) },
	{ "format", 0, "csv|json|both|html|all", "the reports' format (default both; html: report.html)",
	  .kind = CLI_WORDS, .offset = OFF(fmt), .words = cli_report_formats },
	CLI_OPT_TIME_LIMIT(struct compare_args, "bound the whole comparison to S seconds, shared among the scenarios\n(default: each scenario plans within its own)"),
	CLI_OPT_GAP(struct compare_args, "stop when proven within PCT percent of optimal (default: each scenario's own)"),
	CLI_OPT_NODE_LIMIT(struct compare_args, "branch-and-bound node limit per scenario (reproducible on any machine)"),
	CLI_OPT_THREADS(struct compare_args, "solver threads (default: one per processor)"),
	CLI_OPT_GREEDY(struct compare_args, "skip the ILP: compare the greedy plans"),
	CLI_OPT_PROGRESS(struct compare_args),
	{ .name = NULL },
};
#undef OFF

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct compare_args *a)
{
	const struct cli_command *c = &cmd_compare_entry;
	int rc;

	a->out_dir = "gpuplan-compare";
	a->fmt = REPORT_BOTH;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (!a->files.n)
		return cli_misuse(c, "no scenario given");
	return cli_output_option(c, a->out_dir, &a->fmt, &a->summary);
}

/* The table: one column per scenario, one line per figure. */
struct table {
	FILE *out;		/* stdout, or stderr under -o - */
	size_t n;
	int w0, w;		/* label width, column width */
};

static void row_text(const struct table *t, const char *label, char **cells)
{
	size_t i;
	fprintf(t->out, "%-*s", t->w0, label);
	for (i = 0; i < t->n; i++) {
		fprintf(t->out, "  %*s", t->w, cells[i]);
		free(cells[i]);
	}
	fprintf(t->out, "\n");
}

static void row_num(const struct table *t, const struct compare_row *rows, const char *label, size_t off,
		    int decimals, double scale)
{
	char **cells = xcalloc(t->n, sizeof(*cells));
	char b[64];
	size_t i;
	for (i = 0; i < t->n; i++) {
		double v = *(const double *)((const char *)&rows[i] + off) * scale;
		cells[i] = xstrdup(fmt_fixed(b, sizeof(b), round(v * pow(10, decimals)) / pow(10, decimals), decimals));
	}
	row_text(t, label, cells);
	free(cells);
}

/* What each scenario's resilience: headroom costs a year, "-" without one; no line when none has one. */
static void row_resilience(const struct table *t, const struct compare_row *rows)
{
	char **cells = xcalloc(t->n, sizeof(*cells));
	char b[64];
	size_t i;
	int any = 0;

	for (i = 0; i < t->n; i++)
		any |= rows[i].have_resil;
	for (i = 0; i < t->n && any; i++)
		cells[i] = xstrdup(rows[i].have_resil
					   ? fmt_fixed(b, sizeof(b), round(rows[i].resil_usd_per_year * 100) / 100, 2)
					   : "-");
	if (any)
		row_text(t, "resilience (USD/year more)", cells);
	free(cells);
}

static void print_table(FILE *out, const struct compare_row *rows, size_t n)
{
	struct table t = { out, n, 26, 12 };
	char **cells;
	char b[64];
	size_t i;
	int q, m;

	for (i = 0; i < n; i++)
		if ((int)strlen(rows[i].scenario) > t.w)
			t.w = (int)strlen(rows[i].scenario);
	cells = xcalloc(n, sizeof(*cells));
	for (i = 0; i < n; i++)
		cells[i] = xstrdup(rows[i].scenario);
	row_text(&t, "scenario", cells);
	for (i = 0; i < n; i++)
		cells[i] = xstrdup(rows[i].status);
	row_text(&t, "solver status", cells);
	row_num(&t, rows, "horizon (years)", offsetof(struct compare_row, horizon_years), 2, 1);
	row_num(&t, rows, "total (USD)", offsetof(struct compare_row, total), 2, 1);
	row_num(&t, rows, "per year (USD)", offsetof(struct compare_row, per_year), 2, 1);
	for (q = 0; q < CAT_COUNT; q++) {
		char label[64];
		int any = 0;
		for (i = 0; i < n; i++)
			any |= rows[i].cat[q] != 0;
		if (!any)
			continue;
		snprintf(label, sizeof(label), "  %s", cost_cat_name((enum cost_cat)q));
		row_num(&t, rows, label, offsetof(struct compare_row, cat) + (size_t)q * sizeof(double), 2, 1);
	}
	row_num(&t, rows, "USD/provisioned GPU-hour", offsetof(struct compare_row, per_provisioned_gpu_hour), 4, 1);
	row_num(&t, rows, "USD/used GPU-hour", offsetof(struct compare_row, per_used_gpu_hour), 4, 1);
	row_num(&t, rows, "compute utilisation (%)", offsetof(struct compare_row, compute_util), 1, 100);
	row_num(&t, rows, "memory utilisation (%)", offsetof(struct compare_row, mem_util), 1, 100);
	for (q = LIC_COUNT - 1; q > 0; q--) {
		int any = 0;
		for (i = 0; i < n; i++)
			any |= rows[i].lic_gpus[q] || rows[i].seats[q];
		if (!any)
			continue;
		for (i = 0; i < n; i++)
			cells[i] = rows[i].seats[q] ? xasprintf("%ld + %ld seats", rows[i].lic_gpus[q], rows[i].seats[q])
						    : xasprintf("%ld", rows[i].lic_gpus[q]);
		snprintf(b, sizeof(b), "licences %s (GPUs)", lic_product_id((enum lic_product)q));
		row_text(&t, b, cells);
	}
	for (i = 0; i < n; i++)
		cells[i] = xasprintf("%ld / %ld", rows[i].placed, rows[i].unplaced);
	row_text(&t, "replicas placed / unplaced", cells);
	for (i = 0; i < n; i++)
		cells[i] = xasprintf("%ld / %ld", rows[i].nodes, rows[i].gpus);
	row_text(&t, "nodes / GPUs used", cells);
	for (m = 0; m < MODE_COUNT; m++) {
		int any = 0;
		for (i = 0; i < n; i++)
			any |= rows[i].gpus_by_mode[m] != 0;
		if (!any)
			continue;
		for (i = 0; i < n; i++)
			cells[i] = xasprintf("%ld", rows[i].gpus_by_mode[m]);
		snprintf(b, sizeof(b), "  GPUs in %s", mode_name((enum gpu_mode)m));
		row_text(&t, b, cells);
	}
	free(cells);
	row_resilience(&t, rows);
}

/* The ranking, one line per option, and the verdict. */
static void print_ranking(FILE *out, const struct compare_row *rows, size_t n)
{
	size_t *order = xcalloc(n + 1, sizeof(*order)), i;
	int w = 8;
	char b[64];
	char *text;

	compare_rank(rows, n, order);
	for (i = 0; i < n; i++)
		if ((int)strlen(rows[i].scenario) > w)
			w = (int)strlen(rows[i].scenario);
	cli_printf(out, "\nranking (%s):\n", COMPARE_RANKED_BY);
	for (i = 0; i < n; i++) {
		const struct compare_row *r = &rows[order[i]];
		text = compare_unplaced_text(r);
		cli_printf(out, "  %zu %-*s %14s USD/year  %s\n", i + 1, w, r->scenario,
			fmt_fixed(b, sizeof(b), round(r->per_year * 100) / 100, 2), text);
		free(text);
	}
	text = compare_verdict(rows, n, order);
	cli_printf(out, "verdict: %s\n", text);
	free(text);
	free(order);
}

/* One comparison's run: what every scenario shares, and where the time went (for the overrun warnings). */
struct compare_run {
	struct compare_args *a;
	const struct cli_global *g;
	struct cli_progress pg;
	double limit;		/* --time-limit when it bounds a scenario (no node limit replaces it), else -1 */
	double t_read, t_plan;	/* seconds spent reading the scenarios, planning them */
	int warned;		/* the reading-used-the-limit-up warning was given */
};

/*
 * Reads and plans the i-th scenario into *row: 0, or nonzero with d set.
 * --time-limit bounds the whole comparison: each scenario gets an equal
 * share of what is left.  Without it each plans within its own
 * solver.time_limit_s, from its own start.
 */
static int plan_one(struct compare_run *cr, size_t i, struct compare_row *row, struct diag *d)
{
	struct compare_args *a = cr->a;
	struct scenario sc;
	struct plan_result r;
	struct plan_whatif w;
	double t0 = deadline_elapsed(cr->g->run), t1;
	int bad;

	memset(&r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	bad = scenario_load(&sc, a->files.v[i], cr->g->models_dir, d);
	t1 = deadline_elapsed(cr->g->run);
	cr->t_read += t1 - t0;
	if (!bad) {
		struct plan_opts po = a->po;
		cli_warn_implausible(&sc);
		if (a->po.time_limit_s >= 0) {
			po.deadline = cr->g->run;
			po.time_limit_s = t1 + fmax(0, a->po.time_limit_s - t1) / (double)(a->files.n - i);
			if (cli_run_limit(&a->po, &sc) >= 0)
				cr->limit = a->po.time_limit_s;
			if (cr->limit >= 0 && cr->t_plan == 0 && !cr->warned && t1 >= cr->limit) {
				cli_warn_read_overrun(cr->g->run, cr->limit);
				cr->warned = 1;
			}
		}
		cli_progress_plan(&cr->pg, &po, sc.name);
		bad = plan_run(&r, &sc, &po, d) || plan_whatif_run(&w, &r, &po, d);
		cli_progress_end(&cr->pg);
		cr->t_plan += deadline_elapsed(cr->g->run) - t1;
	}
	r.whatif = &w;
	if (!bad)
		compare_row_fill(row, a->files.v[i], &r);
	plan_whatif_release(&w);
	plan_release(&r);
	scenario_release(&sc);
	return bad;
}

static int cmd_compare(int argc, char **argv, const struct cli_global *g)
{
	struct compare_args a;
	struct compare_run cr;
	struct compare_row *rows;
	struct diag d = DIAG_INIT;
	size_t i, nrows = 0;
	int rc;

	memset(&a, 0, sizeof(a));
	{
		struct plan_opts po = PLAN_OPTS_INIT;
		a.po = po;
	}
	rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.files.v);
		return cli_exit_code(rc);
	}
	a.po.verbose = g->verbose;
	memset(&cr, 0, sizeof(cr));
	cr.a = &a;
	cr.g = g;
	cr.limit = -1;
	cli_progress_init(&cr.pg, a.progress, a.quiet);
	rows = xcalloc(a.files.n, sizeof(*rows));
	for (i = 0; i < a.files.n; i++) {
		if (plan_one(&cr, i, &rows[nrows], &d)) {
			rc = cli_diag(&d);
			goto out;
		}
		nrows++;
	}
	if (compare_write(a.out_dir, a.fmt, rows, nrows, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	print_table(a.summary, rows, nrows);
	print_ranking(a.summary, rows, nrows);
	fprintf(a.summary, "reports: %s\n", strcmp(a.out_dir, OUTSET_STDOUT) ? a.out_dir : "standard output (compare.json)");
	cli_warn_overrun(g->run, cr.limit, cr.t_read, cr.t_read + cr.t_plan);
	rc = EXIT_OK;
out:
	for (i = 0; i < nrows; i++)
		compare_row_release(&rows[i]);
	free(rows);
	free(a.files.v);
	diag_release(&d);
	ilp_cleanup();
	return rc;
}

const struct cli_command cmd_compare_entry = {
	.name = "compare",
	.run = cmd_compare,
	.summary = "plan several scenarios and line them up (cloud vs on-prem)",
	.synopsis = "SCENARIO... [-o DIR] [--format csv|json|both|html|all] [--time-limit S] [--gap PCT] "
		    "[--node-limit N] [--threads N] [--greedy] [--progress | --quiet]",
	.description = "plans every scenario and prints them side by side: cost over the horizon and per year, by\n"
		       "category, per provisioned and per used GPU-hour, utilisation, licences, unplaced replicas and\n"
		       "the mode mix; then ranks them by unplaced demand (by priority), then cost, and gives a verdict",
	.options = compare_options,
	.operands = { CLI_LIST, offsetof(struct compare_args, files), -1, NULL, NULL },
};
