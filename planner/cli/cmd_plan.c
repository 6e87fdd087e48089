/*
 * cmd_plan.c - gpuplan plan: load, build the problem, greedy start,
 * solve the ILP, disaggregate, verify, write the reports, summarise.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "date.h"
#include "deploy.h"
#include "outfile.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"
#include "solfile.h"
#include "util.h"
#include "whatif.h"
#include "banned.h"

struct plan_args {
	const char *scenario;
	const char *out_dir;
	enum report_format fmt;
	struct plan_opts po;	/* solver options (PLAN_OPTS_INIT: the scenario's) */
	const char *export_path;
	const char *start_path;	/* --start FILE, or NULL */
	const char *deploy_dir;	/* --deploy DIR, or NULL */
	const char *deploy_ns;	/* --deploy-namespace NS, else DEPLOY_NAMESPACE */
	int require_all;
	int progress, quiet;	/* --progress, --quiet */
	FILE *summary;		/* stdout, or stderr when the report goes to stdout (-o -) */
};

static int set_deploy_namespace(const struct cli_option *o, void *args, const char *v)
{
	(void)o;
	if (!deploy_namespace_valid(v))
		return cli_usage("--deploy-namespace: '%s' is not a Kubernetes namespace name "
				 "(lower-case letters, digits and '-', at most 63)", v);
	((struct plan_args *)args)->deploy_ns = v;
	return 0;
}

#define OFF(f) offsetof(struct plan_args, f)
static const struct cli_option plan_options[] = {
	{ "output", 'o', "DIR", "write the reports into DIR (default ./gpuplan-out);\n- writes plan.json to stdout and the summary to stderr",
	  .kind = CLI_STRING, .offset = OFF(out_dir) },
	{ "format", 0, "csv|json|both|html|all", "the reports' format (default both; html: report.html)",
	  .kind = CLI_WORDS, .offset = OFF(fmt), .words = cli_report_formats },
	CLI_OPT_TIME_LIMIT(struct plan_args, "bound the whole run (reading, planning, writing) to S seconds\n(default: the scenario's solver.time_limit_s, else 30)"),
	CLI_OPT_GAP(struct plan_args, "stop when proven within PCT percent of optimal\n(default: the scenario's solver.gap_pct, else 0.01)"),
	CLI_OPT_NODE_LIMIT(struct plan_args, "stop after N branch-and-bound nodes: a limit that gives the same plan on any machine"),
	CLI_OPT_THREADS(struct plan_args, "solver threads (default: one per processor); the plan is the same on any number"),
	{ "export-model", 0, "FILE", "write the ILP (with the node key CPU/RAM rows), as free MPS (.mps) or CPLEX LP (.lp)",
	  .kind = CLI_STRING, .offset = OFF(export_path) },
	{ "start", 0, "FILE", "start from another solver's plan of that model: CBC's solution file or\nHiGHS's "
	  "(made concrete and kept when no plan found is cheaper)", .kind = CLI_STRING, .offset = OFF(start_path) },
	{ "require-all", 0, NULL, "exit 1 when some replica stays unplaced", .kind = CLI_FLAG, .offset = OFF(require_all) },
	CLI_OPT_GREEDY(struct plan_args, "skip the ILP: report the greedy first-fit-decreasing plan (a baseline)"),
	CLI_OPT_PROGRESS(struct plan_args),
	{ "colgen-seconds", 0, "S", "after the plan, run the node-pattern column generation for S seconds\nmore: "
	  "its plan is kept when better, its bound when higher", .kind = CLI_DOUBLE, .offset = OFF(po.colgen_s),
	  .range = { 0, 86400, RANGE_LO_OPEN } },
	{ "deploy", 0, "DIR",
	  "also write the NVIDIA GPU Operator's inputs into DIR: mig-parted\nand device-plugin configs, "
	  "node labels, resource requests,\nVMs and vGPU profiles, apply.sh", .kind = CLI_STRING, .offset = OFF(deploy_dir) },
	{ "deploy-namespace", 0, "NS",
	  "the GPU Operator's namespace the deploy files name (default gpu-operator;\nOpenShift: nvidia-gpu-operator)",
	  .kind = CLI_SET, .set = set_deploy_namespace },
	{ .name = NULL },
};
#undef OFF

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct plan_args *a)
{
	const struct cli_command *c = &cmd_plan_entry;
	int rc;

	memset(a, 0, sizeof(*a));
	a->out_dir = "gpuplan-out";
	a->fmt = REPORT_BOTH;
	a->po = (struct plan_opts)PLAN_OPTS_INIT;
	rc = cli_parse(c, argc, argv, a);
	if (rc)
		return rc;
	if (!a->scenario)
		return cli_misuse(c, "no scenario given");
	if (a->deploy_ns && !a->deploy_dir)
		return cli_misuse(c, "--deploy-namespace names the namespace of --deploy's files: give --deploy DIR too");
	if (!a->deploy_ns)
		a->deploy_ns = DEPLOY_NAMESPACE;
	if (a->start_path && a->po.greedy_only)
		return cli_misuse(c, "--start needs the ILP: not with --greedy");
	/* else the reports would land at the model's path and the model fail after them */
	if (a->export_path && (cli_same_path(a->export_path, a->out_dir) ||
			       (a->deploy_dir && cli_same_path(a->export_path, a->deploy_dir))))
		return cli_misuse(c, "--export-model '%s' is an output directory (-o, --deploy)", a->export_path);
	return cli_output_option(c, a->out_dir, &a->fmt, &a->summary);
}

/* "  prices:     oldest as of 2026-09-02 (nvaie subscription-3y, licenses.yaml:33)". */
static void print_oldest_price(FILE *out, const struct plan_result *r)
{
	struct price_ref p;
	char date[DATE_TEXT_SIZE];
	const char *file;
	char *name;

	if (!report_oldest_price(r, &p)) {
		cli_printf(out, "  prices:     no dated price of the models used (only the inventory's and scenario's own)\n");
		return;
	}
	file = strrchr(p.file, '/') ? strrchr(p.file, '/') + 1 : p.file;
	name = report_price_name(&p);
	cli_printf(out, "  prices:     oldest as of %s (%s, %s:%ld%s)\n", date_format(date, sizeof(date), p.as_of), name,
		file, p.line, p.assumed ? ", assumed" : "");
	free(name);
}

/* "  additions:  1 node of a100x4 (buy, ...)" and "  to place all: adding ..." */
static void print_additions(FILE *out, const struct plan_result *r)
{
	struct plan_addition *add = NULL;
	size_t n = plan_additions(r->final, &add), i;
	char *t;

	for (i = 0; i < n; i++) {
		t = report_addition_text(&add[i], r->sc->horizon_years, 0);
		cli_printf(out, "  %s %s\n", i ? "           " : "additions: ", t);
		free(t);
	}
	free(add);
	/* a run the time limit stopped before the second plan has nothing to say about it */
	t = r->stopped && r->whatif && !r->whatif->ran ? NULL : report_whatif_text(r);
	if (t)
		cli_printf(out, "  to place all: %s\n", t);
	free(t);
}

/*
 * The assumptions that change the licence figures (licence prices, terms
 * and rules that decide a licence of this plan: report_assumption_matters),
 * then those of the memory and MIG compute shares the plan relies on
 * (report_mig_notes), one a line under the licences line; all of them
 * used, with their sources, are in plan.json and summary.csv.
 */
static void print_assumptions(FILE *out, const struct plan_result *r, const struct cplan_cost *cost,
			      const struct report_stats *st)
{
	struct report_notes notes;
	size_t i;
	int first = 1;

	for (i = 0; i < r->pr.nassumptions; i++) {
		const struct assumption *a = &r->pr.assumptions[i];
		if ((a->cat >= 0 && a->cat != CAT_LIC_VCS && a->cat != CAT_LIC_NVAIE) ||
		    !report_assumption_matters(a, r->final, cost, st))
			continue;
		cli_printf(out, "  %s %s\n", first ? "assumes:   " : "           ", a->what);
		first = 0;
	}
	report_mig_notes(r->final, &notes);
	for (i = 0; i < notes.n; i++) {
		if (!notes.notes[i].assumed)
			continue;
		cli_printf(out, "  %s %s\n", first ? "assumes:   " : "           ", notes.notes[i].what);
		first = 0;
	}
	report_notes_release(&notes);
}

/* One kind's part of the failures line: its worst loss and what it strands. */
static void print_worst(FILE *out, const struct plan_result *r, enum fail_kind k)
{
	const struct fail_worst *w = &r->fail.worst[k];

	if (!w->have) {
		cli_printf(out, "losing any one %s strands nothing", fail_kind_name(k));
		return;
	}
	cli_printf(out, "losing %s %s strands %ld replica%s", fail_kind_name(k), r->fail.names[k][w->failure],
		   w->stranded, w->stranded == 1 ? "" : "s");
	if (w->top_stranded < w->stranded)
		cli_printf(out, " (%ld of priority %d, the highest)", w->top_stranded, w->top_priority);
	else
		cli_printf(out, " of priority %d", w->top_priority);
}

/*
 * "  failures:   losing node a100x4-001 strands 3 replicas (2 of priority
 * 8, the highest); losing site dc1 ...": the worst single loss of each
 * kind after re-placing into free capacity (the site only when the plan
 * uses two sites or more: losing the only one strands everything).
 */
static void print_failures(FILE *out, const struct plan_result *r)
{
	if (!r->have_fail)
		return;
	cli_printf(out, "  failures:   ");
	print_worst(out, r, FAIL_NODE);
	if (r->fail.nnames[FAIL_SITE] > 1) {
		cli_printf(out, "; ");
		print_worst(out, r, FAIL_SITE);
	}
	cli_printf(out, "\n");
}

/*
 * "  resilience: node x1, priority >= 5: met over 12 failures; headroom 1
 * GPU, 876.00 USD per year (876.00 per headroom GPU-year)", or the
 * failure still stranding and why (docs/formulation.md, "Resilience").
 */
static void print_resilience(FILE *out, const struct plan_result *r)
{
	const struct plan_resilience *x = &r->resil;
	long gpus = x->headroom_gpus;
	char b1[64], b2[64];

	if (!r->have_resil)
		return;
	cli_printf(out, "  resilience: %s x%d%s, priority >= %d%s: ", resil_kind_name(x->ask.survive), x->ask.count,
		   x->ask.survive == RESIL_GPU && x->ask.gpu_as_node ? " as node" : "", x->ask.priority_at_least,
		   x->ask.preempt ? ", preempting lower priorities" : "");
	if (x->met)
		cli_printf(out, "met over %zu failure%s%s", x->failures, x->failures == 1 ? "" : "s",
			   x->proven ? "" : " (chosen sets, not every one)");
	else if (!x->worst)	/* the deadline cut the check before any failure checked stranded */
		cli_printf(out, "NOT met: %zu of %.0f failures checked, none strands (%s)", x->failures, x->sets_total,
			   x->why ? x->why : "");
	else
		cli_printf(out, "NOT met: losing %s strands %ld replica%s (%s)", x->worst, x->stranded,
			   x->stranded == 1 ? "" : "s", x->why ? x->why : "");
	cli_printf(out, "; headroom %ld GPU%s, %s USD per year", gpus, gpus == 1 ? "" : "s",
		   fmt_fixed(b1, sizeof(b1), round(x->usd_per_year * 100) / 100, 2));
	if (gpus > 0)
		cli_printf(out, " (%s per headroom GPU-year)",
			   fmt_fixed(b2, sizeof(b2), round(x->usd_per_year_per_gpu * 100) / 100, 2));
	cli_printf(out, "\n");
}

/* start: plan --start's file (shown when r made it concrete), or NULL */
/* The summary's licences line: GPUs and seats per product, and how they are counted. */
static void print_licences(FILE *out, const struct plan_result *r, const struct cplan_cost *cost)
{
	int q, first = 1;

	cli_printf(out, "  licences:  ");
	for (q = LIC_COUNT - 1; q > 0; q--) {
		if (cost->lic_gpus[q])
			cli_printf(out, "%s %s %ld GPU%s", first ? "" : ",", lic_product_id((enum lic_product)q),
				   cost->lic_gpus[q], cost->lic_gpus[q] == 1 ? "" : "s");
		if (cost->seats[q])
			cli_printf(out, "%s %s %ld seat%s", cost->lic_gpus[q] || !first ? "," : "",
				   lic_product_id((enum lic_product)q), cost->seats[q], cost->seats[q] == 1 ? "" : "s");
		if (cost->lic_gpus[q] || cost->seats[q])
			first = 0;
	}
	cli_printf(out, "%s (counted per %s)\n", first ? " none" : "",
		   r->pr.counting == COUNT_VGPU_SEAT ? "vGPU seat" : "physical GPU");
}

static void print_summary(FILE *out, const struct plan_result *r, const struct solfile *start, const char *dir)
{
	const struct cplan *cp = r->final;
	const struct problem *p = cp->p;
	struct cplan_cost cost;
	struct report_stats st;
	struct report_gpu_hours gh;
	char b1[64], b2[64], b3[64];
	int m, first = 1, q;

	cplan_cost(cp, &cost);
	report_stats(cp, &st);
	cli_printf(out, "plan %s: %s", p->sc->name, ilp_status_name(r->status));
	if (r->status == ILP_FEASIBLE || r->status == ILP_OPTIMAL)
		cli_printf(out, " (gap %s%%)", fmt_fixed(b1, sizeof(b1), r->gap * 100.0, 3));
	cli_printf(out, ", from the %s plan\n", r->plan_source);
	if (r->stopped) {
		cli_printf(out, "  stopped:    by --time-limit after %s s: best verified plan so far",
			fmt_num_short(b1, sizeof(b1), r->limit_s, 2));
		if (cp->not_attempted)
			cli_printf(out, "; the greedy pass was cut: %ld replica%s not attempted (unplaced)",
				   cp->not_attempted, cp->not_attempted == 1 ? "" : "s");
		cli_printf(out, "\n");
	}
	cli_printf(out, "  cost:       %s USD over %s years (", fmt_fixed(b1, sizeof(b1), round(cost.total * 100) / 100, 2),
	       fmt_fixed(b2, sizeof(b2), p->horizon_years, 2));
	for (q = 0; q < CAT_COUNT; q++) {
		if (cost.cat[q] == 0)
			continue;
		cli_printf(out, "%s%s %s", first ? "" : ", ", cost_cat_name((enum cost_cat)q),
		       fmt_fixed(b1, sizeof(b1), round(cost.cat[q] * 100) / 100, 2));
		first = 0;
	}
	cli_printf(out, "%s)\n", first ? "nothing" : "");
	report_gpu_hours(cp, &gh);
	cli_printf(out, "  GPU-hour:   %s USD per provisioned GPU-hour (%ld GPUs), %s USD per used GPU-hour "
		"(%s GPU-equivalents placed)\n", fmt_fixed(b1, sizeof(b1), round(gh.per_provisioned * 1e4) / 1e4, 4),
		cost.gpus, fmt_fixed(b2, sizeof(b2), round(gh.per_used * 1e4) / 1e4, 4),
		fmt_fixed(b3, sizeof(b3), round(gh.gpu_eq_placed * 100) / 100, 2));
	cli_printf(out, "  nodes:      %ld used, %ld GPUs, %ld active, %ld licensed\n", cost.nodes, cost.gpus,
	       cost.gpus_active, cost.gpus_licensed);
	print_licences(out, r, &cost);
	print_assumptions(out, r, &cost, &st);
	cli_printf(out, "  mode mix:  ");
	first = 1;
	for (m = 0; m < MODE_COUNT; m++) {
		if (!st.nodes_by_mode[m])
			continue;
		cli_printf(out, "%s %s %ld node%s (%ld GPUs)", first ? "" : ",", mode_name((enum gpu_mode)m),
		       st.nodes_by_mode[m], st.nodes_by_mode[m] == 1 ? "" : "s", st.gpus_by_mode[m]);
		first = 0;
	}
	cli_printf(out, "%s\n", first ? " none" : "");
	cli_printf(out, "  replicas:   %ld placed, %ld unplaced\n", cost.placed, cost.unplaced);
	cli_print_compute_hints(out, p->sc);
	cli_printf(out, "  use:        memory %s%%, compute %s%% of the GPUs in used nodes\n",
	       fmt_fixed(b1, sizeof(b1), st.mem_util * 100, 1), fmt_fixed(b2, sizeof(b2), st.compute_util * 100, 1));
	print_failures(out, r);
	print_resilience(out, r);
	if (start && r->res.have_start)
		cli_printf(out, "  start:      %s (%s, %s): %s on the model, %s made concrete\n", start->path,
			start->solver, start->status,
			fmt_fixed(b1, sizeof(b1), round(r->res.start_model * 100) / 100, 2),
			fmt_fixed(b2, sizeof(b2), round(r->res.start_concrete * 100) / 100, 2));
	print_additions(out, r);
	print_oldest_price(out, r);
	cli_printf(out, "  reports:    %s\n", strcmp(dir, OUTSET_STDOUT) ? dir : "standard output (plan.json)");
}

/* --verbose: every configuration of every node class, on stderr. */
static void print_configs(const struct plan_result *r)
{
	size_t k, c;

	for (k = 0; k < r->p.nclasses; k++)
		for (c = 0; c < r->p.classes[k].nconfigs; c++)
			fprintf(stderr, "gpuplan: class %s config %zu: %s %s%s%s\n", r->p.classes[k].nc->name, c,
				mode_name(r->p.classes[k].configs[c].mode), r->p.classes[k].configs[c].name,
				r->p.classes[k].configs[c].lic != LIC_NONE ? " licence " : "",
				r->p.classes[k].configs[c].lic != LIC_NONE ? lic_product_id(r->p.classes[k].configs[c].lic)
									    : "");
}

/*
 * The deploy files (built, and refused with exit 3, before any report is
 * written), the reports and the exported model, all or nothing; 0, or -1
 * with d set.
 */
static int write_outputs(const struct plan_args *a, struct plan_result *r, struct outset *dep, struct diag *d)
{
	if (a->deploy_dir) {
		outset_init(dep, a->deploy_dir);
		if (deploy_build(r->final, a->deploy_ns, dep, d))
			return -1;
	}
	if (report_write(a->out_dir, a->fmt, r, d) || (a->deploy_dir && outset_commit(dep, d)) ||
	    plan_commit_export(r, d))
		return -1;
	return 0;
}

static int cmd_plan(int argc, char **argv, const struct cli_global *g)
{
	struct plan_args a;
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct plan_result r;
	struct plan_whatif w;
	struct plan_opts po = PLAN_OPTS_INIT;
	struct cli_progress pg;
	struct outset dep = OUTSET_INIT;
	struct solfile start;
	double t_read, t_planned, limit;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	memset(&r, 0, sizeof(r));
	memset(&w, 0, sizeof(w));
	memset(&start, 0, sizeof(start));
	if (scenario_load(&sc, a.scenario, g->models_dir, &d) ||
	    (a.start_path && solfile_read(&start, a.start_path, &d))) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_warn_implausible(&sc);
	t_read = deadline_elapsed(g->run);
	limit = cli_run_limit(&a.po, &sc);
	cli_warn_read_overrun(g->run, limit);
	po = a.po;
	po.verbose = g->verbose;
	po.deadline = g->run;
	po.export_path = a.export_path;
	po.start = a.start_path ? &start : NULL;
	cli_progress_init(&pg, a.progress, a.quiet);
	cli_progress_plan(&pg, &po, sc.name);
	rc = plan_run(&r, &sc, &po, &d);
	cli_progress_end(&pg);
	if (rc) {
		rc = cli_diag(&d);
		goto out;
	}
	cli_warn_unhostable(&r, &sc);
	cli_warn_cut(&r);
	cli_warn_spread_skew(&r);
	if (plan_whatif_run(&w, &r, &po, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	r.whatif = &w;
	cli_warn_compute_hints(&sc);
	if (g->verbose)
		print_configs(&r);
	t_planned = deadline_elapsed(g->run);
	if (write_outputs(&a, &r, &dep, &d)) {
		rc = cli_diag(&d);
		goto out;
	}
	print_summary(a.summary, &r, po.start, a.out_dir);
	cli_progress_written(&pg, g->run, limit);
	cli_warn_overrun(g->run, limit, t_read, t_planned);
	rc = EXIT_OK;
	if (a.require_all) {
		struct cplan_cost fc;
		cplan_cost(r.final, &fc);
		if (fc.unplaced)
			rc = EXIT_CHECK;
	}
out:
	solfile_release(&start);
	plan_whatif_release(&w);
	outset_release(&dep);
	plan_release(&r);
	scenario_release(&sc);
	diag_release(&d);
	ilp_cleanup();
	return rc;
}

const struct cli_command cmd_plan_entry = {
	.name = "plan",
	.run = cmd_plan,
	.summary = "plan a scenario: modes, partitions, placements, cost",
	.synopsis = "SCENARIO [-o DIR] [--format csv|json|both|html|all] [--time-limit S] [--gap PCT] [--node-limit N] "
		    "[--threads N] [--export-model FILE.mps|FILE.lp] [--start FILE] [--require-all] [--greedy] "
		    "[--progress | --quiet] [--deploy DIR] [--deploy-namespace NS]",
	.options = plan_options,
	.operands = { CLI_STRING, offsetof(struct plan_args, scenario), 1, "more than one scenario given", NULL },
};
