/*
 * cmd_sweep.c - gpuplan sweep expand|run|merge: the options of a sweep
 * spec planned under changed inputs, case by case (docs/sweep.md).
 *
 * run plans the cases of one shard, each option as gpuplan compare does,
 * and writes one result file per case, atomically, into DIR/results; a
 * case whose file is there is skipped, so a run that was cut short is
 * finished by running it again.  The shard comes from --shard, else
 * from the first scheduler variables set (Slurm array, Slurm tasks, Open
 * MPI, PMI, a Kubernetes Indexed Job), else the run takes every case on
 * -j worker processes, each a copy of gpuplan running a shard of its own:
 * worker w of N in shard I of K runs the cases i with i mod KN = I + Kw,
 * which are shard I's cases dealt out round the table.  A case's result
 * is the same whichever process runs it, so merge gives the same bytes
 * whatever the sharding.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_sweep.h"
#include "compare.h"
#include "interrupt.h"
#include "outfile.h"
#include "par.h"
#include "plan.h"
#include "scenario.h"
#include "sweep.h"
#include "sweep_files.h"
#include "sweep_report.h"
#include "banned.h"

extern char **environ;

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

/* Removes path and, when it is a directory, everything under it (a staging tree of ours). */
static void remove_tree(const char *path)
{
	struct stat st;
	DIR *dp;
	struct dirent *e;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode) && (dp = opendir(path))) {
		while ((e = readdir(dp))) {
			char *sub;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			sub = xasprintf("%s/%s", path, e->d_name);
			remove_tree(sub);
			free(sub);
		}
		closedir(dp);
		rmdir(path);
		return;
	}
	unlink(path);
}

/* Puts the staged cases in place of DIR/cases (an older one moved aside, then removed). */
static int swap_in(const char *stage, const char *cases, const char *dir)
{
	char *old = xasprintf("%s/.cases.%ld.old", dir, (long)getpid());
	int had = !rename(cases, old), rc = 0;

	if (!had && errno != ENOENT)
		rc = cli_error(EXIT_INTERNAL, "%s: cannot replace: %s", cases, strerror(errno));
	else if (rename(stage, cases)) {
		rc = cli_error(EXIT_INTERNAL, "%s: cannot rename into place: %s", cases, strerror(errno));
		if (had)
			rename(old, cases);
	} else if (had) {
		remove_tree(old);
	}
	free(old);
	return rc;
}

/* d naming the file a staged one stands for (DIR/cases/..., never the staging path). */
static const struct diag *staged_diag(struct diag *d, const char *stage, const char *cases)
{
	size_t n = strlen(stage);

	if (d->file && !strncmp(d->file, stage, n) && (d->file[n] == '/' || !d->file[n])) {
		char *f = xasprintf("%s%s", cases, d->file + n);
		free(d->file);
		d->file = f;
	}
	return d;
}

/*
 * DIR/cases/CASE/: the derived scenarios of every case, all or nothing.
 * They are written into a staging directory beside it, DIR/.cases.PID.tmp
 * (at the depth of DIR/cases, so the paths relative to it are the same),
 * which replaces DIR/cases once every case is written; on a failure it is
 * removed, and DIR too when this run created it and it is empty.
 */
static int expand_cases(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g,
			struct sb *csv)
{
	char *cases = xasprintf("%s/cases", a->dir), *stage = xasprintf("%s/.cases.%ld.tmp", a->dir, (long)getpid());
	struct diag d = DIAG_INIT;
	struct outset os = OUTSET_INIT;
	size_t i, n = sweep_ncases(s);
	int made = !mkdir(a->dir, 0777), rc = 0;

	if (!made && errno != EEXIST)
		rc = cli_error(EXIT_INTERNAL, "%s: cannot create: %s", a->dir, strerror(errno));
	else if (mkdir(stage, 0777))
		rc = cli_error(EXIT_INTERNAL, "%s: cannot create: %s", stage, strerror(errno));
	for (i = 0; i < n && !rc; i++) {
		char *name = sweep_case_name(s, i), *dir = xasprintf("%s/%s", stage, name);
		outset_init(&os, dir);
		if (interrupt_pending())
			rc = EXIT_INTERNAL;
		else if (sweep_expand_case(&os, s, i, stage, g->models_dir, &d) || outset_commit(&os, &d))
			rc = cli_diag(staged_diag(&d, stage, cases));
		outset_release(&os);
		free(name);
		free(dir);
	}
	outset_init(&os, a->dir);
	outset_add_sb(&os, "expand.csv", csv);
	if (!rc && outset_commit(&os, &d))
		rc = cli_diag(&d);
	if (!rc)
		rc = swap_in(stage, cases, a->dir);
	if (rc) {
		remove_tree(stage);
		if (made)
			rmdir(a->dir);
	}
	outset_release(&os);
	diag_release(&d);
	free(stage);
	free(cases);
	return rc;
}

static int do_expand(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	size_t n = sweep_ncases(s), i, k;
	double *v = xcalloc(s->nparams + 1, sizeof(*v));
	struct sb csv;
	char b[64], *last;
	int rc = EXIT_OK;

	if (a->count) {
		cli_printf(stdout, "%zu\n", n);
		free(v);
		return EXIT_OK;
	}
	sb_init(&csv);
	sb_adds(&csv, "case");
	for (k = 0; k < s->nparams; k++)
		sb_addf(&csv, ",%s", sweep_param_name(s->params[k].id));
	sb_adds(&csv, "\n");
	for (i = 0; i < n; i++) {
		char *name = sweep_case_name(s, i);
		sweep_case_values(s, i, v);
		sb_add_csv(&csv, name);
		for (k = 0; k < s->nparams; k++)
			sb_addf(&csv, ",%s", v[k] != v[k] ? "" : fmt_num_short(b, sizeof(b), v[k], 6));
		sb_adds(&csv, "\n");
		free(name);
	}
	free(v);
	last = sweep_case_name(s, n - 1);
	rc = expand_cases(a, s, g, &csv);
	if (!rc)
		cli_printf(stdout, "sweep %s: %zu cases (%s) of %zu option%s: %s/expand.csv, %s/cases/{case-0000..%s}/\n", s->name,
		       n, sweep_design_name(s->design), s->noptions, s->noptions == 1 ? "" : "s", a->dir, a->dir, last);
	free(last);
	return rc;
}

/* ================= shards ================= */

/* The integer in environment variable name; 0 found, 1 unset or empty, -1 not a number (message). */
static int env_long(const char *name, long *out)
{
	const char *v = getenv(name);
	long long x;
	if (!v || !*v)
		return 1;
	if (parse_llong(v, &x) || x < 0 || x > 100000000) {
		cli_usage("$%s: '%s' is not a whole number >= 0", name, v);
		return -1;
	}
	*out = (long)x;
	return 0;
}

/*
 * The shard from the scheduler's variables, first pair set wins: 0 and
 * *i, *k set; 1 when none is set; EXIT_USAGE after a message.
 */
static int shard_from_env(long shards_opt, long *i, long *k, const char **from)
{
	static const char *const pairs[][2] = {
		{ "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT" },
		{ "SLURM_PROCID", "SLURM_NTASKS" },
		{ "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE" },
		{ "PMI_RANK", "PMI_SIZE" },
		{ "JOB_COMPLETION_INDEX", NULL },
	};
	size_t p;
	int rc;

	for (p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		long min = 0;
		rc = env_long(pairs[p][0], i);
		if (rc < 0)
			return EXIT_USAGE;
		if (rc)
			continue;
		*from = pairs[p][0];
		if (!pairs[p][1]) {
			if (shards_opt < 0)
				return cli_usage("$%s is set: give the number of shards with --shards K", *from);
			*k = shards_opt;
		} else if ((rc = env_long(pairs[p][1], k)) != 0) {
			return rc < 0 ? EXIT_USAGE : cli_usage("$%s is set but $%s is not", *from, pairs[p][1]);
		}
		if (p == 0 && env_long("SLURM_ARRAY_TASK_MIN", &min) < 0)	/* an array 1-16 is shards 0..15 */
			return EXIT_USAGE;
		*i -= min;
		if (*k < 1 || *i < 0 || *i >= *k)
			return cli_usage("$%s: shard %ld is not in 0..%ld", *from, *i, *k - 1);
		return 0;
	}
	if (shards_opt >= 0)
		return cli_usage("--shards: $JOB_COMPLETION_INDEX is not set");
	return 1;
}

/* ================= run ================= */

/* Plans every option of case i and fills cr (FAILED with the message when one cannot be planned). */
static void run_case(const struct sweep_spec *s, size_t i, const struct plan_opts *po, const char *models_dir,
		     struct sweep_case_result *cr)
{
	struct compare_row *rows = xcalloc(s->noptions, sizeof(*rows));
	double *v = xcalloc(s->nparams + 1, sizeof(*v));
	struct diag d = DIAG_INIT;
	size_t o, nrows = 0;

	sweep_case_values(s, i, v);
	for (o = 0; o < s->noptions; o++) {
		struct scenario sc;
		struct plan_result r;
		int bad;
		memset(&r, 0, sizeof(r));
		bad = scenario_load(&sc, s->options[o], models_dir, &d) || sweep_apply(&sc, s, v, &d) ||
		      plan_run(&r, &sc, po, &d);
		if (!bad)
			compare_row_fill(&rows[nrows++], s->options[o], &r);
		plan_release(&r);
		scenario_release(&sc);
		if (bad)
			break;
	}
	if (nrows == s->noptions) {
		sweep_result_fill(cr, s, i, rows);
	} else {
		char *msg = diag_format(&d);
		sweep_result_fail(cr, s, i, msg, cli_diag_code(&d));
		free(msg);
	}
	for (o = 0; o < nrows; o++)
		compare_row_release(&rows[o]);
	free(rows);
	free(v);
	diag_release(&d);
}

/* What a run of a shard did. */
struct run_count {
	size_t cases, ran, skipped, failed;
	int rc;			/* the exit code of the first failed case, else 0 */
};

/* True when case i's result file is there. */
static int case_done(const char *results, const struct sweep_spec *s, size_t i)
{
	char *name = sweep_case_name(s, i);
	char *path = xasprintf("%s/%s.json", results, name);
	int done = access(path, F_OK) == 0;
	free(path);
	free(name);
	return done;
}

/* Runs the cases of shard I of K in this process; 0, or an exit code (I/O, interrupted). */
static int run_shard(const struct sweep_spec *s, const char *results, long I, long K, const struct cli_global *g,
		     struct run_count *rc)
{
	struct plan_opts po = PLAN_OPTS_INIT;
	struct diag d = DIAG_INIT;
	size_t i, n = sweep_ncases(s);

	po.greedy_only = s->greedy;
	po.time_limit_s = s->time_limit_s;
	po.mip_gap = s->mip_gap;
	po.node_limit = s->node_limit;
	po.threads = 1;
	po.verbose = g->verbose;
	for (i = (size_t)I; i < n; i += (size_t)K) {
		struct sweep_case_result cr;
		rc->cases++;
		if (case_done(results, s, i)) {
			rc->skipped++;
			continue;
		}
		if (interrupt_pending())
			return EXIT_INTERNAL;
		run_case(s, i, &po, g->models_dir, &cr);
		if (cr.state == SWEEP_CASE_FAILED) {
			fprintf(stderr, "gpuplan: sweep %s: %s failed: %s\n", s->name, cr.name, cr.error);
			rc->failed++;
			if (!rc->rc)
				rc->rc = cr.exit_code;
		}
		rc->ran++;
		if (sweep_result_write(results, &cr, s, &d)) {
			int e = cli_diag(&d);
			sweep_case_result_release(&cr);
			diag_release(&d);	/* LeakSanitizer found it: a sweep run that cannot write (issue 57) */
			return e;
		}
		sweep_case_result_release(&cr);
	}
	return 0;
}

/* 1 when worker pid ended (*st set), 0 after up to 50 ms of waiting (the caller checks for a signal). */
static int wait_worker(pid_t pid, int *st)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	pid_t r = waitpid(pid, st, WNOHANG);

	if (r == pid || (r < 0 && errno != EINTR)) {
		if (r < 0)
			*st = 0;
		return 1;
	}
	nanosleep(&nap, NULL);
	return 0;
}

/*
 * SIGINT/SIGTERM reached the parent: the workers get the same signal at
 * once (within the second interrupt.h counts as one, so a worker that had
 * it too from the terminal's process group stops as after one), and stop
 * as a single run does: the case being planned is not written.  1.
 */
static int stop_workers(const struct sweep_args *a, const pid_t *pid, long jobs, int sig)
{
	long w;

	for (w = 0; w < jobs; w++)
		if (pid[w])
			kill(pid[w], sig);
	fprintf(stderr, "gpuplan: sweep %s: interrupted by %s: workers stopped; the cases done are kept, run again to "
			"finish\n", a->spec, interrupt_signame(sig));
	return 1;
}

/*
 * Runs shard I of K on `jobs` copies of gpuplan (worker w runs shard
 * I + K*w of K*jobs), their stdout to /dev/null, stderr shared; waits for
 * all.  The highest exit code of a worker, or EXIT_INTERNAL when one
 * cannot be started.
 */
static int run_workers(const struct sweep_args *a, long I, long K, long jobs, const struct cli_global *g)
{
	pid_t *pid = xcalloc((size_t)jobs, sizeof(*pid));
	posix_spawn_file_actions_t fa;
	int rc = 0, st, told = 0;
	long w;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	for (w = 0; w < jobs; w++) {
		char *argv[16];
		int n = 0, err;
		argv[n++] = xstrdup("gpuplan");
		if (g->models_dir) {
			argv[n++] = xstrdup("--models");
			argv[n++] = xstrdup(g->models_dir);
		}
		if (g->verbose)
			argv[n++] = xstrdup("--verbose");
		argv[n++] = xstrdup("sweep");
		argv[n++] = xstrdup("run");
		argv[n++] = xstrdup(a->spec);
		argv[n++] = xstrdup("-o");
		argv[n++] = xstrdup(a->dir);
		argv[n++] = xstrdup("--shard");
		argv[n++] = xasprintf("%ld/%ld", I + K * w, K * jobs);
		argv[n++] = xstrdup("-j1");
		argv[n] = NULL;
		err = posix_spawn(&pid[w], "/proc/self/exe", &fa, NULL, argv, environ);
		while (n-- > 0)
			free(argv[n]);
		if (err) {
			cli_error(EXIT_INTERNAL, "cannot start a sweep worker: %s", strerror(err));
			pid[w] = 0;
			rc = EXIT_INTERNAL;
		}
	}
	for (w = 0; w < jobs; w++) {
		if (!pid[w])
			continue;
		while (!wait_worker(pid[w], &st))
			if (interrupt_pending() && !told)
				told = stop_workers(a, pid, jobs, interrupt_pending());
		if (WIFEXITED(st) && WEXITSTATUS(st) > rc)
			rc = WEXITSTATUS(st);
		else if (WIFSIGNALED(st) && 128 + WTERMSIG(st) > rc)
			rc = 128 + WTERMSIG(st);
	}
	posix_spawn_file_actions_destroy(&fa);
	free(pid);
	return rc;
}

int sweep_make_dir(const char *dir, int *made)
{
	int rc = mkdir(dir, 0777);

	if (made)
		*made = !rc;
	if (rc && errno != EEXIST)
		return cli_error(EXIT_INTERNAL, "%s: cannot create: %s", dir, strerror(errno));
	return 0;
}

/* Counts the states of shard I of K from the result files: first failed case's exit code, or 0. */
static int scan_shard(const struct sweep_spec *s, const char *results, long I, long K, struct run_count *c)
{
	struct diag d = DIAG_INIT;
	size_t i, n = sweep_ncases(s);
	int first = 0;

	memset(c, 0, sizeof(*c));
	for (i = (size_t)I; i < n; i += (size_t)K) {
		struct sweep_case_result cr;
		c->cases++;
		if (sweep_result_read(results, s, i, &cr, &d) < 0) {
			first = first ? first : cli_diag(&d);
			diag_release(&d);
			c->skipped++;	/* counted as missing */
			continue;
		}
		if (cr.state == SWEEP_CASE_DONE)
			c->ran++;
		else if (cr.state == SWEEP_CASE_FAILED && ++c->failed == 1)
			first = first ? first : cr.exit_code;
		else if (cr.state == SWEEP_CASE_MISSING)
			c->skipped++;
		sweep_case_result_release(&cr);
	}
	return first;
}

static int do_run(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	long I = 0, K = 1, jobs, mine;
	const char *from = "--shard";
	char *results = xasprintf("%s/results", a->dir);
	struct run_count c;
	int rc, local = 0, made_dir = 0, made_results = 0;

	memset(&c, 0, sizeof(c));
	if (a->shard >= 0) {
		I = a->shard;
		K = a->shards;
	} else if ((rc = shard_from_env(a->shards_only, &I, &K, &from)) != 0) {
		if (rc != 1)
			goto out;
		local = 1;
	}
	mine = ((long)sweep_ncases(s) - I + K - 1) / K;
	jobs = a->jobs ? a->jobs : local ? par_processors() : 1;
	if (jobs > mine)
		jobs = mine > 0 ? mine : 1;
	rc = sweep_make_dir(a->dir, &made_dir) ? EXIT_INTERNAL : sweep_make_dir(results, &made_results) ? EXIT_INTERNAL : 0;
	if (!rc)
		rc = jobs > 1 ? run_workers(a, I, K, jobs, g) : run_shard(s, results, I, K, g, &c);
	if (rc) {
		/* the folders this run made, when no result landed in them (rmdir leaves a shard's results) */
		if (made_results)
			rmdir(results);
		if (made_dir)
			rmdir(a->dir);
		goto out;
	}
	rc = scan_shard(s, results, I, K, &c);
	if (local)
		cli_printf(stdout, "sweep %s: %zu cases on %ld worker%s", s->name, c.cases, jobs, jobs == 1 ? "" : "s");
	else
		cli_printf(stdout, "sweep %s: shard %ld/%ld (%s): %zu cases", s->name, I, K, from, c.cases);
	cli_printf(stdout, ", %zu done, %zu failed, %zu missing: %s\n", c.ran, c.failed, c.skipped, results);
	if (!rc && c.skipped)
		rc = EXIT_INTERNAL;
out:
	free(results);
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
	size_t n = sweep_ncases(s), i;
	struct sweep_case_result *cases = xcalloc(n, sizeof(*cases));
	char *results = xasprintf("%s/results", a->dir);
	struct sweep_merge_stats st;
	struct diag d = DIAG_INIT;
	int rc = EXIT_OK;

	memset(&st, 0, sizeof(st));
	for (i = 0; i < n && !rc; i++)
		if (sweep_result_read(results, s, i, &cases[i], &d) < 0)
			rc = cli_diag(&d);
	if (!rc && sweep_merge_write(a->dir, a->fmt, s, cases, &st, &d))
		rc = cli_diag(&d);
	if (!rc) {
		print_merge(s, cases, &st, a->dir);
		if (st.failed || st.missing)
			rc = EXIT_CHECK;
	}
	for (i = 0; i < n; i++)
		sweep_case_result_release(&cases[i]);
	sweep_merge_stats_release(&st);
	free(cases);
	free(results);
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
		rc = sweep_submit(&a, &s, g);
	else
		rc = do_merge(&a, &s);
	sweep_spec_release(&s);
	ilp_cleanup();
	return rc;
}
