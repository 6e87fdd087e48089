/*
 * cmd_sweep.c - gpuplan sweep expand|run|merge|submit: the options of a
 * sweep spec planned under changed inputs, case by case (docs/sweep.md).
 * The sweep layer does the work (sweep/: sweep_expand.h, sweep_run.h,
 * sweep_report.h, sweep_submit.h); this file reads the command line,
 * chooses the shard and the number of workers, and prints.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_sweep.h"
#include "interrupt.h"
#include "outfile.h"
#include "par.h"
#include "sweep.h"
#include "sweep_expand.h"
#include "sweep_report.h"
#include "sweep_run.h"
#include "sweep_submit.h"
#include "banned.h"

/* "I/K" with 0 <= I < K. */
static int parse_shard(const char *v, long *i, long *k)
{
	const char *slash = strchr(v, '/');
	long long a, b;
	char *left;
	int bad;

	if (!slash)
		return -1;
	left = xstrndup(v, (size_t)(slash - v));
	bad = parse_llong(left, &a) || parse_llong(slash + 1, &b) || b < 1 || b > 1000000 || a < 0 || a >= b;
	free(left);
	*i = (long)a;
	*k = (long)b;
	return bad ? -1 : 0;
}

static int set_shard(const struct cli_option *o, void *args, const char *v)
{
	struct sweep_args *a = args;

	(void)o;
	if (parse_shard(v, &a->shard, &a->shards))
		return cli_usage("--shard: '%s' is not I/K with 0 <= I < K", v);
	return 0;
}

#define OFF(f) offsetof(struct sweep_args, f)
static const struct cli_option sweep_options[] = {
	{ "output", 'o', "DIR",
	  "the sweep's directory (default ./sweep-out): run writes DIR/results/CASE.json,\n"
	  "merge reads them and writes its reports into DIR, expand writes DIR/expand.csv and\n"
	  "DIR/cases/CASE/ (the derived scenarios)", .kind = CLI_STRING, .offset = OFF(dir) },
	{ "shard", 0, "I/K", "run: only the cases i with i mod K = I (0 <= I < K)", .kind = CLI_SET, .set = set_shard },
	{ "shards", 0, "K",
	  "run: K shards, this one from $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job);\n"
	  "submit: the number of tasks or ranks (default 8)", .kind = CLI_COUNT, .offset = OFF(shards_only),
	  .range = { 1, 1000000, RANGE_CLOSED } },
	{ "jobs", 'j', "N", "run: N worker processes (default: one per processor, or 1 in a shard)", .kind = CLI_COUNT,
	  .offset = OFF(jobs), .range = { 1, PAR_MAX_THREADS, RANGE_CLOSED } },
	{ "format", 0, "csv|json|both|html|all", "merge: the reports' format (default both; html: report.html with the charts)",
	  .kind = CLI_WORDS, .offset = OFF(fmt), .words = cli_report_formats },
	{ "count", 0, NULL, "expand: only print the number of cases (write nothing)", .kind = CLI_FLAG, .offset = OFF(count) },
	{ "slurm", 0, NULL, "submit: write DIR/sweep.sbatch, a job array of --shards K tasks, and sbatch it\n"
	  "when sbatch is on PATH", .kind = CLI_FLAG, .offset = OFF(slurm) },
	{ "mpi", 0, NULL, "submit: print the mpirun line that runs --shards K ranks", .kind = CLI_FLAG, .offset = OFF(mpi) },
	{ "k8s", 0, NULL, "submit: write DIR/sweep-k8s.yaml, a ConfigMap of the inputs and an Indexed Job\n"
	  "of --shards K pods (kubectl apply -f it)", .kind = CLI_FLAG, .offset = OFF(k8s) },
	{ "image", 0, "IMAGE", "--k8s: the pods' image, with gpuplan installed (default gpuplan:latest)",
	  .kind = CLI_STRING, .offset = OFF(image) },
	{ "parallelism", 0, "N", "--k8s: pods at once (default: K, at most 4)", .kind = CLI_COUNT,
	  .offset = OFF(parallelism), .range = { 1, 1000000, RANGE_CLOSED } },
	{ "claim", 0, "NAME", "--k8s: the ReadWriteMany volume claim of the results (default gpuplan-sweep-out)",
	  .kind = CLI_STRING, .offset = OFF(claim) },
	{ .name = NULL },
};
#undef OFF

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	const struct cli_command *c = &cmd_sweep_entry;
	int rc = cli_parse(c, argc, argv, a);

	if (rc)
		return rc;
	if (!a->spec)
		return cli_misuse(c, "no sweep spec given");
	if (a->shard >= 0 && a->shards_only >= 0)
		return cli_misuse(c, "--shard and --shards cannot be combined");
	if (a->cmd != SW_RUN && (a->shard >= 0 || a->jobs))
		return cli_misuse(c, "--shard and -j are for sweep run");
	if (a->cmd != SW_RUN && a->cmd != SW_SUBMIT && a->shards_only >= 0)
		return cli_misuse(c, "--shards is for sweep run and submit");
	if ((a->cmd == SW_SUBMIT) != (a->slurm + a->mpi + a->k8s == 1) || a->slurm + a->mpi + a->k8s > 1)
		return cli_misuse(c, a->cmd == SW_SUBMIT ? "submit needs one of --slurm, --mpi and --k8s"
							 : "--slurm, --mpi and --k8s are for sweep submit");
	if (!a->k8s && (a->image || a->parallelism || a->claim))
		return cli_misuse(c, "--image, --parallelism and --claim are for sweep submit --k8s");
	if (a->cmd != SW_MERGE && a->fmt != REPORT_BOTH)
		return cli_misuse(c, "--format is for sweep merge");
	if (a->cmd != SW_EXPAND && a->count)
		return cli_misuse(c, "--count is for sweep expand");
	if (!strcmp(a->dir, OUTSET_STDOUT))
		return cli_misuse(c, "-o -: a sweep writes a directory of files, not standard output");
	return 0;
}

/* ================= expand ================= */

static int do_expand(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	size_t n = sweep_ncases(s);
	struct diag d = DIAG_INIT;
	char *last;
	int rc;

	if (a->count) {
		cli_printf(stdout, "%zu\n", n);
		return EXIT_OK;
	}
	last = sweep_case_name(s, n - 1);
	rc = sweep_expand(s, a->dir, g->models_dir, &d);
	if (rc == SWEEP_INTERRUPTED)
		rc = EXIT_INTERNAL;
	else if (rc)
		rc = cli_diag(&d);
	if (!rc)
		cli_printf(stdout, "sweep %s: %zu cases (%s) of %zu option%s: %s/expand.csv, %s/cases/{case-0000..%s}/\n", s->name,
		       n, sweep_design_name(s->design), s->noptions, s->noptions == 1 ? "" : "s", a->dir, a->dir, last);
	free(last);
	diag_release(&d);
	return rc;
}

/* ================= run ================= */

/* What the run's messages name. */
struct run_ctx {
	const struct sweep_spec *s;
};

/* A case of this process failed: its message. */
static void print_case_failed(void *ctx, const struct sweep_case_result *cr)
{
	const struct sweep_spec *s = ((struct run_ctx *)ctx)->s;
	fprintf(stderr, "gpuplan: sweep %s: %s failed: %s\n", s->name, cr->name, cr->error);
}

/* SIGINT/SIGTERM stopped the workers. */
static void print_workers_stopped(void *ctx, int sig)
{
	const struct sweep_spec *s = ((struct run_ctx *)ctx)->s;
	fprintf(stderr, "gpuplan: sweep %s: interrupted by %s: workers stopped; the cases done are kept, run again to "
			"finish\n", s->file, interrupt_signame(sig));
}

/* Runs the shard (sweep_run): 0, or the exit code after a message. */
static int run(const struct sweep_runner *r)
{
	struct diag d = DIAG_INIT;
	int status, rc = sweep_run(r, &status, &d);

	if (rc == SWEEP_INTERRUPTED)
		rc = EXIT_INTERNAL;
	else if (rc)
		rc = cli_diag(&d);
	if (status > rc)
		rc = status;
	diag_release(&d);
	return rc;
}

static int do_run(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	struct run_ctx ctx = { s };
	struct sweep_runner r = { s, a->dir, g->models_dir, g->verbose, { 0, 1, "--shard" }, 1, cli_diag_code,
				  print_case_failed, print_workers_stopped, &ctx };
	struct sweep_run_count c;
	struct diag d = DIAG_INIT;
	int rc = 0, local = 0;

	if (a->shard >= 0) {
		r.shard.index = a->shard;
		r.shard.count = a->shards;
	} else if ((rc = sweep_shard_from_env(a->shards_only, &r.shard, &d)) != 0) {
		if (rc != 1)
			goto out;
		local = 1;
	}
	r.jobs = sweep_run_jobs(s, r.shard, a->jobs ? a->jobs : local ? par_processors() : 1);
	if ((rc = run(&r)) != 0)
		goto out;
	rc = sweep_run_scan(s, a->dir, r.shard, &c, &d) ? cli_diag(&d) : c.exit_code;
	if (local)
		cli_printf(stdout, "sweep %s: %zu cases on %ld worker%s", s->name, c.cases, r.jobs, r.jobs == 1 ? "" : "s");
	else
		cli_printf(stdout, "sweep %s: shard %ld/%ld (%s): %zu cases", s->name, r.shard.index, r.shard.count,
			   r.shard.from, c.cases);
	cli_printf(stdout, ", %zu done, %zu failed, %zu missing: %s/results\n", c.done, c.failed, c.missing, a->dir);
	if (!rc && c.missing)
		rc = EXIT_INTERNAL;
out:
	if (rc < 0)
		rc = cli_diag(&d);
	diag_release(&d);
	return rc;
}

/* ================= merge ================= */

/* What the summary prints from: the spec, the options' names and the merge's figures. */
struct merge_view {
	const struct sweep_spec *s;
	const char **opt;	/* [noptions]: the scenarios' names */
	int w;			/* the width of the option column */
	const struct sweep_merge_stats *st;
};

static const char *money(char *b, double v)
{
	return isnan(v) ? "-" : fmt_fixed(b, 64, v, 2);
}

/* One-at-a-time: per option its base-case cost and range; the cheapest at the base case. */
static void print_oat(const struct merge_view *v)
{
	char b[3][64];
	size_t k;

	cli_printf(stdout, "  %-*s  %14s  %14s  %14s\n", v->w, "option", "base USD", "min USD", "max USD");
	for (k = 0; k < v->s->noptions; k++)
		cli_printf(stdout, "  %-*s  %14s  %14s  %14s\n", v->w, v->opt[k], money(b[0], v->st->opt[k].base),
			   money(b[1], v->st->opt[k].min), money(b[2], v->st->opt[k].max));
	if (v->st->best_at_base >= 0)
		cli_printf(stdout, "  cheapest at the base case: %s (first in %zu of the %zu cases)\n",
			   v->opt[v->st->best_at_base], v->st->opt[v->st->best_at_base].best, v->st->done);
	else
		cli_printf(stdout, "  cheapest at the base case: unknown, the base case is not done\n");
}

/* A grid: per option the range and median over its points and the points where it is cheapest. */
static void print_grid(const struct merge_view *v)
{
	char b[3][64];
	size_t k;

	cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %s\n", v->w, "option", "min USD", "median USD", "max USD",
		   "cheapest at");
	for (k = 0; k < v->s->noptions; k++) {
		const struct sweep_option_stats *o = &v->st->opt[k];
		cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %zu of %zu grid points\n", v->w, v->opt[k],
			   money(b[0], o->min), money(b[1], o->p50), money(b[2], o->max), o->best, o->cases);
	}
}

/* Monte Carlo: per option the percentiles and P(best) with its 95 % interval, and the sample's size. */
static void print_mc(const struct merge_view *v)
{
	char b[6][64];
	size_t k;

	cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %7s  %s\n", v->w, "option", "P5 USD", "P50 USD", "P95 USD",
		   "P(best)", "95% interval");
	for (k = 0; k < v->s->noptions; k++) {
		const struct sweep_option_stats *o = &v->st->opt[k];
		cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %7s  %s-%s\n", v->w, v->opt[k], money(b[0], o->p5),
			   money(b[1], o->p50), money(b[2], o->p95), fmt_fixed(b[3], 64, o->share_best, 4),
			   fmt_fixed(b[4], 64, o->best_lo, 2), fmt_fixed(b[5], 64, o->best_hi, 2));
	}
	cli_printf(stdout, "  a sample of %zu cases; P(best): the share where the option ranks first\n", v->st->done);
}

/* Where the cheapest option by cost changes (breakeven.csv). */
static void print_flips(const struct merge_view *v)
{
	char b[64];
	size_t i;

	if (v->s->noptions < 2)
		return;
	if (!v->st->nflip)
		cli_printf(stdout, "  the cheapest option by cost changes along no parameter\n");
	for (i = 0; i < v->st->nflip; i++) {
		const struct sweep_flip *f = &v->st->flip[i];
		cli_printf(stdout, "  %-17s %s = %s: %s below, %s above\n", i ? "" : "cheapest flips at",
			   sweep_param_name(v->s->params[f->param].id), fmt_num_short(b, sizeof(b), f->value, 6),
			   v->opt[f->below], v->opt[f->above]);
	}
}

/* The tornado: per option each parameter's cost at its low and high value, the largest swing first. */
static void print_tornado(const struct merge_view *v)
{
	char b[5][64];
	size_t i;
	int pw = 4;

	for (i = 0; i < v->st->nswing; i++)
		if ((int)strlen(sweep_param_name(v->s->params[v->st->swing[i].param].id)) > pw)
			pw = (int)strlen(sweep_param_name(v->s->params[v->st->swing[i].param].id));
	if (v->st->nswing)
		cli_printf(stdout, "  tornado: USD at the parameter's low .. high value, largest swing first\n");
	for (i = 0; i < v->st->nswing; i++) {
		const struct sweep_swing *w = &v->st->swing[i];
		char range[140];
		snprintf(range, sizeof(range), "%s..%s", fmt_num_short(b[0], 64, w->value_low, 4),
			 fmt_num_short(b[1], 64, w->value_high, 4));
		cli_printf(stdout, "  %-*s  %-*s  %-10s  %14s .. %-14s  swing %s\n", v->w,
			   i && v->st->swing[i - 1].option == w->option ? "" : v->opt[w->option], pw,
			   sweep_param_name(v->s->params[w->param].id), range, money(b[2], w->cost_low),
			   money(b[3], w->cost_high), money(b[4], w->swing));
	}
}

/* The summary: what the design supports per option, then the cases missing and failed. */
static void print_merge(const struct sweep_spec *s, const struct sweep_case_result *cases,
			const struct sweep_merge_stats *st, const char *dir)
{
	struct merge_view v = { s, xcalloc(s->noptions, sizeof(char *)), 6, st };
	size_t i, k;

	cli_printf(stdout, "sweep %s: %zu cases (%s), %zu done, %zu failed, %zu missing\n", s->name, st->ncases,
	       sweep_design_name(s->design), st->done, st->failed, st->missing);
	for (k = 0; k < s->noptions; k++)
		v.opt[k] = s->options[k];
	for (i = st->ncases; i-- > 0;)	/* the names of the first case done */
		if (cases[i].state == SWEEP_CASE_DONE)
			for (k = 0; k < s->noptions; k++)
				v.opt[k] = cases[i].opt[k].scenario;
	for (k = 0; k < s->noptions; k++)
		if ((int)strlen(v.opt[k]) > v.w)
			v.w = (int)strlen(v.opt[k]);
	if (st->done) {
		if (s->design == SWEEP_ONE_AT_A_TIME)
			print_oat(&v);
		else if (s->design == SWEEP_GRID)
			print_grid(&v);
		else
			print_mc(&v);
		print_flips(&v);
		if (s->design == SWEEP_ONE_AT_A_TIME)
			print_tornado(&v);
	}
	for (i = 0; i < st->ncases; i++) {
		if (cases[i].state == SWEEP_CASE_MISSING)
			cli_printf(stdout, "  missing: %s (run it again: gpuplan sweep run)\n", cases[i].name);
		else if (cases[i].state == SWEEP_CASE_FAILED)
			cli_printf(stdout, "  failed:  %s: %s\n", cases[i].name, cases[i].error);
	}
	cli_printf(stdout, "  reports: %s\n", dir);
	free(v.opt);
}

static int do_merge(const struct sweep_args *a, const struct sweep_spec *s)
{
	struct sweep_merge_stats st;
	struct diag d = DIAG_INIT;
	struct sweep_case_result *cases = sweep_merge(a->dir, a->fmt, s, &st, &d);
	int rc = EXIT_OK;

	if (!cases) {
		rc = cli_diag(&d);
	} else {
		print_merge(s, cases, &st, a->dir);
		if (st.failed || st.missing)
			rc = EXIT_CHECK;
		sweep_case_results_free(cases, sweep_ncases(s));
		sweep_merge_stats_release(&st);
	}
	diag_release(&d);
	return rc;
}

/* ================= submit ================= */

/* gpuplan sweep submit --slurm|--mpi|--k8s (the defaults of the options here). */
static int do_submit(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	struct sweep_submit sub = { s, a->spec, a->dir, g->models_dir, a->shards_only > 0 ? a->shards_only : 8 };
	struct diag d = DIAG_INIT;
	char *out = NULL;
	int rc = EXIT_OK;

	if (a->k8s) {
		long k = sub.shards;
		struct sweep_k8s kj = { k, a->parallelism ? a->parallelism : k < 4 ? k : 4,
					a->image ? a->image : "gpuplan:latest", a->claim ? a->claim : "gpuplan-sweep-out" };
		if (kj.parallelism > k)
			return cli_usage("--parallelism %ld: more than the %ld shards", kj.parallelism, k);
		if (sweep_k8s_write(&sub, &kj, &d))
			rc = cli_diag(&d);
		else
			printf("written: %s/sweep-k8s.yaml: %zu cases in %ld pods, %ld at a time (kubectl apply -f it)\n",
			       a->dir, sweep_ncases(s), k, kj.parallelism);
	} else if (a->mpi) {
		if (!(out = sweep_mpi_line(&sub, &d)))
			rc = cli_diag(&d);
		else
			printf("%s\n", out);
	} else if (sweep_slurm_write(&sub, &out, &d)) {
		rc = cli_diag(&d);
	} else if (sweep_sbatch_found()) {
		printf("written: %s; sbatch job: ", out);
		fflush(stdout);
		rc = sweep_sbatch(out) ? cli_error(EXIT_INTERNAL, "sbatch %s failed", out) : EXIT_OK;
	} else {
		printf("written: %s (no sbatch on PATH: submit it with sbatch %s)\n", out, out);
	}
	free(out);
	diag_release(&d);
	return rc;
}

/* What a sweep sub-command works with (its ctx). */
struct sweep_ctx {
	const struct sweep_args *a;
	const struct sweep_spec *s;
	const struct cli_global *g;
};

static int run_expand(void *ctx)
{
	const struct sweep_ctx *c = ctx;
	return do_expand(c->a, c->s, c->g);
}

static int run_run(void *ctx)
{
	const struct sweep_ctx *c = ctx;
	return do_run(c->a, c->s, c->g);
}

static int run_merge(void *ctx)
{
	const struct sweep_ctx *c = ctx;
	return do_merge(c->a, c->s);
}

static int run_submit(void *ctx)
{
	const struct sweep_ctx *c = ctx;
	return do_submit(c->a, c->s, c->g);
}

static int cmd_sweep(int argc, char **argv, const struct cli_global *g)
{
	struct sweep_args a;
	struct sweep_spec s;
	struct diag d = DIAG_INIT;
	struct sweep_ctx ctx = { &a, &s, g };
	int rc;

	memset(&a, 0, sizeof(a));
	a.dir = "sweep-out";
	a.shard = a.shards = a.shards_only = -1;
	a.fmt = REPORT_BOTH;
	rc = parse_args(argc, argv, &a);
	if (rc)
		return cli_exit_code(rc);
	if (sweep_spec_load(&s, a.spec, &d)) {
		rc = cli_diag(&d);
		diag_release(&d);
		return rc;
	}
	rc = cmd_sweep_entry.sub.rows[a.cmd].run(&ctx);
	sweep_spec_release(&s);
	ilp_cleanup();
	return rc;
}

/* In the order of enum sweep_cmd. */
static const struct cli_subcommand sweep_commands[] = {
	{ "expand", run_expand, "SPEC [-o DIR | --count]", 1, NULL },
	{ "run", run_run, "SPEC [-o DIR] [--shard I/K | --shards K] [-j N]", 1, NULL },
	{ "merge", run_merge, "SPEC [-o DIR] [--format csv|json|both|html|all]", 1, NULL },
	{ "submit", run_submit,
	  "SPEC (--slurm | --mpi | --k8s [--image I] [--parallelism N] [--claim C]) [--shards K] [-o DIR]", 1, NULL },
	{ .name = NULL },
};

const struct cli_command cmd_sweep_entry = {
	.name = "sweep",
	.run = cmd_sweep,
	.summary = "plan scenarios under changed inputs: sensitivity and Monte Carlo",
	.description = "SPEC (gpuplan-sweep/1) names the options (scenarios) and the parameters to vary; expand lists\n"
		       "the cases, run plans the cases of one shard (from --shard, else $SLURM_ARRAY_TASK_ID,\n"
		       "$SLURM_PROCID, $OMPI_COMM_WORLD_RANK, $PMI_RANK or $JOB_COMPLETION_INDEX; else all, on -j\n"
		       "workers) and skips those done, merge writes the report with the figures the design\n"
		       "supports (one-at-a-time: base case, range and tornado; grid: range over its points;\n"
		       "Monte Carlo: percentiles and the chance each option is best) and break-even per\n"
		       "parameter; submit writes a Slurm array job,\n"
		       "the mpirun line or a Kubernetes Indexed Job (docs/sweep.md)",
	.options = sweep_options,
	.operands = { CLI_STRING, offsetof(struct sweep_args, spec), 1, NULL, NULL },
	.sub = { sweep_commands, offsetof(struct sweep_args, cmd), "sweep command",
		 "no sweep command given (expand, run or merge)" },
};
