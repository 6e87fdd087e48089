/*
 * sweep_run.c - a sweep's cases run: the shard from a scheduler's
 * variables, the cases of a shard planned in this process or on worker
 * processes, and the result files counted (sweep_run.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "interrupt.h"
#include "par.h"
#include "plan.h"
#include "scenario.h"
#include "sweep_files.h"
#include "sweep_roadmap.h"
#include "sweep_run.h"
#include "banned.h"

extern char **environ;

/* ================= shards ================= */

/* The integer in environment variable name; 0 found, 1 unset or empty, -1 not a number (d set). */
static int env_long(const char *name, long *out, struct diag *d)
{
	const char *v = getenv(name);
	long long x;
	if (!v || !*v)
		return 1;
	if (parse_llong(v, &x) || x < 0 || x > 100000000)
		return diag_set(d, DIAG_USAGE, NULL, 0, 0, "$%s: '%s' is not a whole number >= 0", name, v);
	*out = (long)x;
	return 0;
}

int sweep_shard_from_env(long shards_opt, struct sweep_shard *sh, struct diag *d)
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
		rc = env_long(pairs[p][0], &sh->index, d);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		sh->from = pairs[p][0];
		if (!pairs[p][1]) {
			if (shards_opt < 0)
				return diag_set(d, DIAG_USAGE, NULL, 0, 0,
						"$%s is set: give the number of shards with --shards K", sh->from);
			sh->count = shards_opt;
		} else if ((rc = env_long(pairs[p][1], &sh->count, d)) != 0) {
			return rc < 0 ? -1 : diag_set(d, DIAG_USAGE, NULL, 0, 0, "$%s is set but $%s is not", sh->from,
						      pairs[p][1]);
		}
		if (p == 0 && env_long("SLURM_ARRAY_TASK_MIN", &min, d) < 0)	/* an array 1-16 is shards 0..15 */
			return -1;
		sh->index -= min;
		if (sh->count < 1 || sh->index < 0 || sh->index >= sh->count)
			return diag_set(d, DIAG_USAGE, NULL, 0, 0, "$%s: shard %ld is not in 0..%ld", sh->from,
					sh->index, sh->count - 1);
		return 0;
	}
	if (shards_opt >= 0)
		return diag_set(d, DIAG_USAGE, NULL, 0, 0, "--shards: $JOB_COMPLETION_INDEX is not set");
	return 1;
}

long sweep_run_jobs(const struct sweep_spec *s, struct sweep_shard sh, long jobs)
{
	long mine = ((long)sweep_ncases(s) - sh.index + sh.count - 1) / sh.count;

	if (jobs > mine)
		jobs = mine > 0 ? mine : 1;
	return jobs;
}

int sweep_make_dir(const char *dir, int *made, struct diag *d)
{
	int rc = mkdir(dir, 0777);

	if (made)
		*made = !rc;
	if (rc && errno != EEXIST)
		return diag_set(d, DIAG_IO, dir, 0, 0, "cannot create: %s", strerror(errno));
	return 0;
}

/* ================= this process ================= */

/* Plans every option of case i and fills cr (FAILED with the message when one cannot be planned). */
static void run_case(const struct sweep_runner *r, size_t i, const struct plan_opts *po,
		     struct sweep_case_result *cr)
{
	const struct sweep_spec *s = r->s;
	const char *models_dir = r->models_dir;
	struct compare_row *rows = xcalloc(s->noptions, sizeof(*rows));
	double *v = xcalloc(s->nparams + 1, sizeof(*v));
	struct diag d = DIAG_INIT;
	size_t o, nrows = 0;

	sweep_case_values(s, i, v);
	for (o = 0; o < s->noptions; o++) {
		struct scenario sc;
		struct plan_result pr;
		int bad;
		memset(&pr, 0, sizeof(pr));
		bad = scenario_load(&sc, s->options[o], models_dir, &d) || sweep_apply(&sc, s, v, &d);
		if (!bad && s->roadmap) /* a roadmap over the option's forecast (sweep_roadmap.h) */
			bad = sweep_roadmap_row(&rows[nrows], &sc, s, v, po, &d);
		else if (!bad)
			bad = plan_run(&pr, &sc, po, &d);
		if (!bad && !s->roadmap)
			compare_row_fill(&rows[nrows], s->options[o], &pr);
		nrows += !bad;
		plan_release(&pr);
		scenario_release(&sc);
		if (bad)
			break;
	}
	if (nrows == s->noptions) {
		sweep_result_fill(cr, s, i, rows);
	} else {
		char *msg = diag_format(&d);
		sweep_result_fail(cr, s, i, msg, r->exit_code(&d));
		free(msg);
	}
	for (o = 0; o < nrows; o++)
		compare_row_release(&rows[o]);
	free(rows);
	free(v);
	diag_release(&d);
}

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

/* Runs the cases of r's shard in this process; 0, SWEEP_INTERRUPTED, or -1 with d set. */
static int run_shard(const struct sweep_runner *r, const char *results, struct diag *d)
{
	const struct sweep_spec *s = r->s;
	struct plan_opts po = PLAN_OPTS_INIT;
	size_t i, n = sweep_ncases(s);

	po.greedy_only = s->greedy;
	po.time_limit_s = s->time_limit_s;
	po.mip_gap = s->mip_gap;
	po.node_limit = s->node_limit;
	po.threads = 1;
	po.verbose = r->verbose;
	for (i = (size_t)r->shard.index; i < n; i += (size_t)r->shard.count) {
		struct sweep_case_result cr;
		int bad;
		if (case_done(results, s, i))
			continue;
		if (interrupt_pending())
			return SWEEP_INTERRUPTED;
		run_case(r, i, &po, &cr);
		if (cr.state == SWEEP_CASE_FAILED && r->case_failed)
			r->case_failed(r->ctx, &cr);
		bad = sweep_result_write(results, &cr, s, d);
		sweep_case_result_release(&cr);
		if (bad)
			return -1;
	}
	return 0;
}

/* ================= worker processes ================= */

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
static int stop_workers(const struct sweep_runner *r, const pid_t *pid, int sig)
{
	long w;

	for (w = 0; w < r->jobs; w++)
		if (pid[w])
			kill(pid[w], sig);
	if (r->workers_stopped)
		r->workers_stopped(r->ctx, sig);
	return 1;
}

/* Starts worker w: this executable on shard I + K*w of K*jobs; 0, or an errno value. */
static int start_worker(const struct sweep_runner *r, long w, posix_spawn_file_actions_t *fa, pid_t *pid)
{
	char *argv[16];
	int n = 0, err;

	argv[n++] = xstrdup("gpuplan");
	if (r->models_dir) {
		argv[n++] = xstrdup("--models");
		argv[n++] = xstrdup(r->models_dir);
	}
	if (r->verbose)
		argv[n++] = xstrdup("--verbose");
	argv[n++] = xstrdup("sweep");
	argv[n++] = xstrdup("run");
	argv[n++] = xstrdup(r->s->file);
	argv[n++] = xstrdup("-o");
	argv[n++] = xstrdup(r->dir);
	argv[n++] = xstrdup("--shard");
	argv[n++] = xasprintf("%ld/%ld", r->shard.index + r->shard.count * w, r->shard.count * r->jobs);
	argv[n++] = xstrdup("-j1");
	argv[n] = NULL;
	err = posix_spawn(pid, "/proc/self/exe", fa, NULL, argv, environ);
	while (n-- > 0)
		free(argv[n]);
	return err;
}

/*
 * Runs r's shard on r->jobs workers, their stdout to /dev/null, stderr
 * shared; waits for all.  *status: the highest exit status of a worker.
 * 0, or -1 with d set when one cannot be started.
 */
static int run_workers(const struct sweep_runner *r, int *status, struct diag *d)
{
	pid_t *pid = xcalloc((size_t)r->jobs, sizeof(*pid));
	posix_spawn_file_actions_t fa;
	int rc = 0, st, told = 0, err;
	long w;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	for (w = 0; w < r->jobs; w++)
		if ((err = start_worker(r, w, &fa, &pid[w])) != 0) {
			rc = diag_set(d, DIAG_IO, NULL, 0, 0, "cannot start a sweep worker: %s", strerror(err));
			pid[w] = 0;
		}
	for (w = 0; w < r->jobs; w++) {
		if (!pid[w])
			continue;
		while (!wait_worker(pid[w], &st))
			if (interrupt_pending() && !told)
				told = stop_workers(r, pid, interrupt_pending());
		if (WIFEXITED(st) && WEXITSTATUS(st) > *status)
			*status = WEXITSTATUS(st);
		else if (WIFSIGNALED(st) && 128 + WTERMSIG(st) > *status)
			*status = 128 + WTERMSIG(st);
	}
	posix_spawn_file_actions_destroy(&fa);
	free(pid);
	return rc;
}

int sweep_run(const struct sweep_runner *r, int *status, struct diag *d)
{
	char *results = xasprintf("%s/results", r->dir);
	int rc, made_dir = 0, made_results = 0;

	*status = 0;
	if (sweep_make_dir(r->dir, &made_dir, d) || sweep_make_dir(results, &made_results, d))
		rc = -1;
	else
		rc = r->jobs > 1 ? run_workers(r, status, d) : run_shard(r, results, d);
	if (rc || *status) {
		/* the folders this run made, when no result landed in them (rmdir leaves a shard's results) */
		if (made_results)
			rmdir(results);
		if (made_dir)
			rmdir(r->dir);
	}
	free(results);
	return rc;
}

/* ================= the results ================= */

int sweep_run_scan(const struct sweep_spec *s, const char *dir, struct sweep_shard sh, struct sweep_run_count *c,
		   struct diag *d)
{
	char *results = xasprintf("%s/results", dir);
	size_t i, n = sweep_ncases(s);
	int seen = 0, rc = 0;	/* seen: the first problem is found */

	memset(c, 0, sizeof(*c));
	for (i = (size_t)sh.index; i < n; i += (size_t)sh.count) {
		struct sweep_case_result cr;
		struct diag bad = DIAG_INIT;
		c->cases++;
		if (sweep_result_read(results, s, i, &cr, &bad) < 0) {
			if (!seen) {
				*d = bad;	/* d takes bad's strings */
				rc = -1;
				seen = 1;
			} else {
				diag_release(&bad);
			}
			c->missing++;
			continue;
		}
		if (cr.state == SWEEP_CASE_DONE) {
			c->done++;
		} else if (cr.state == SWEEP_CASE_FAILED && ++c->failed == 1 && !seen) {
			c->exit_code = cr.exit_code;
			seen = cr.exit_code != 0;
		} else if (cr.state == SWEEP_CASE_MISSING) {
			c->missing++;
		}
		sweep_case_result_release(&cr);
	}
	free(results);
	return rc;
}
