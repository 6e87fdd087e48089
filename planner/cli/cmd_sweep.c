/*
 * cmd_sweep.c - gpuplan sweep expand|run|merge|submit: the options of a
 * sweep spec planned under changed inputs, case by case (docs/sweep.md).
 * The sweep layer does the work (sweep/: sweep_expand.h, sweep_run.h,
 * sweep_report.h, sweep_submit.h); this file reads the command line,
 * chooses the shard and the number of workers, and prints.
 */
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

/* A whole number in [lo, hi] for an option; -1 after a message. */
static int parse_count(const char *opt, const char *v, long lo, long hi, long *out)
{
	long long x;
	if (parse_llong(v, &x) || x < lo || x > hi) {
		cli_usage("%s: '%s' is not a whole number in %ld..%ld", opt, v, lo, hi);
		return -1;
	}
	*out = (long)x;
	return 0;
}

static int take_option(struct sweep_args *a, int id, const char *v)
{
	switch (id) {
	case OPT_OUTPUT:
		a->dir = v;
		return 0;
	case OPT_SHARD:
		if (parse_shard(v, &a->shard, &a->shards))
			return cli_usage("--shard: '%s' is not I/K with 0 <= I < K", v);
		return 0;
	case OPT_SHARDS:
		return parse_count("--shards", v, 1, 1000000, &a->shards_only) ? EXIT_USAGE : 0;
	case OPT_JOBS:
		return parse_count("--jobs", v, 1, PAR_MAX_THREADS, &a->jobs) ? EXIT_USAGE : 0;
	case OPT_FORMAT:
		return cli_format_option(v, &a->fmt) < 0 ? EXIT_USAGE : 0;
	case OPT_COUNT:
		a->count = 1;
		return 0;
	case OPT_SLURM:
		a->slurm = 1;
		return 0;
	case OPT_MPI:
		a->mpi = 1;
		return 0;
	case OPT_K8S:
		a->k8s = 1;
		return 0;
	case OPT_IMAGE:
		a->image = v;
		return 0;
	case OPT_CLAIM:
		a->claim = v;
		return 0;
	case OPT_PARALLELISM:
		return parse_count("--parallelism", v, 1, 1000000, &a->parallelism) ? EXIT_USAGE : 0;
	default:
		return EXIT_USAGE;	/* CLI_ERROR: the message is out */
	}
}

/* The subcommand and SPEC; 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct sweep_args *a)
{
	static const char *const names[] = { "expand", "run", "merge", "submit", NULL };
	const struct cli_command *c = &cli_commands[CMD_SWEEP];
	struct cli_getopt go;
	const char *v;
	int id, rc, k, have = 0;

	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		if (id == CLI_HELP)
			return 1;
		if (id == CLI_ARG && !have) {
			for (k = 0; names[k] && strcmp(names[k], v); k++)
				;
			if (!names[k])
				return cli_unknown(c, "sweep command", v, names);
			a->cmd = (enum sweep_cmd)k;
			have = 1;
		} else if (id == CLI_ARG && !a->spec) {
			a->spec = v;
		} else if (id == CLI_ARG) {
			return cli_misuse(c, "unknown argument '%s'", v);
		} else if ((rc = take_option(a, id, v)) != 0) {
			return rc;
		}
	}
	if (!have)
		return cli_misuse(c, "no sweep command given (expand, run or merge)");
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
static void case_failed(void *ctx, const struct sweep_case_result *cr)
{
	const struct sweep_spec *s = ((struct run_ctx *)ctx)->s;
	fprintf(stderr, "gpuplan: sweep %s: %s failed: %s\n", s->name, cr->name, cr->error);
}

/* SIGINT/SIGTERM stopped the workers. */
static void workers_stopped(void *ctx, int sig)
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
				  case_failed, workers_stopped, &ctx };
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

/* The summary: one line per option, then the cases missing and failed. */
static void print_merge(const struct sweep_spec *s, const struct sweep_case_result *cases,
			const struct sweep_merge_stats *st, const char *dir)
{
	char b[4][64];
	size_t i, k;
	int w = 6;

	cli_printf(stdout, "sweep %s: %zu cases (%s), %zu done, %zu failed, %zu missing\n", s->name, st->ncases,
	       sweep_design_name(s->design), st->done, st->failed, st->missing);
	for (i = 0; i < st->ncases; i++)
		if (cases[i].state == SWEEP_CASE_DONE) {
			for (k = 0; k < s->noptions; k++)
				if ((int)strlen(cases[i].opt[k].scenario) > w)
					w = (int)strlen(cases[i].opt[k].scenario);
			break;
		}
	if (st->done) {
		cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %7s\n", w, "option", "P5 USD", "P50 USD", "P95 USD", "P(best)");
		for (k = 0; k < s->noptions; k++)
			cli_printf(stdout, "  %-*s  %14s  %14s  %14s  %7s\n", w, cases[i].opt[k].scenario,
			       fmt_fixed(b[0], sizeof(b[0]), st->p5[k], 2), fmt_fixed(b[1], sizeof(b[1]), st->p50[k], 2),
			       fmt_fixed(b[2], sizeof(b[2]), st->p95[k], 2), fmt_fixed(b[3], sizeof(b[3]), st->p_best[k], 4));
	}
	for (i = 0; i < st->ncases; i++) {
		if (cases[i].state == SWEEP_CASE_MISSING)
			cli_printf(stdout, "  missing: %s (run it again: gpuplan sweep run)\n", cases[i].name);
		else if (cases[i].state == SWEEP_CASE_FAILED)
			cli_printf(stdout, "  failed:  %s: %s\n", cases[i].name, cases[i].error);
	}
	cli_printf(stdout, "  reports: %s\n", dir);
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

int cmd_sweep(int argc, char **argv, const struct cli_global *g)
{
	struct sweep_args a;
	struct sweep_spec s;
	struct diag d = DIAG_INIT;
	int rc;

	memset(&a, 0, sizeof(a));
	a.dir = "sweep-out";
	a.shard = a.shards = a.shards_only = -1;
	a.fmt = REPORT_BOTH;
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc == 1 ? EXIT_OK : rc;
	if (sweep_spec_load(&s, a.spec, &d)) {
		rc = cli_diag(&d);
		diag_release(&d);
		return rc;
	}
	if (a.cmd == SW_EXPAND)
		rc = do_expand(&a, &s, g);
	else if (a.cmd == SW_RUN)
		rc = do_run(&a, &s, g);
	else if (a.cmd == SW_SUBMIT)
		rc = do_submit(&a, &s, g);
	else
		rc = do_merge(&a, &s);
	sweep_spec_release(&s);
	ilp_cleanup();
	return rc;
}
