/*
 * sweep_run.h - running a sweep's cases (sweep_run.c, docs/sweep.md).
 *
 * A run plans the cases of one shard, each option as gpuplan compare
 * does, and writes one result file per case, atomically, into
 * DIR/results; a case whose file is there is skipped, so a run that was
 * cut short is finished by running it again.  The shard comes from the
 * command line, else from the first scheduler variables set (Slurm
 * array, Slurm tasks, Open MPI, PMI, a Kubernetes Indexed Job:
 * sweep_shard_from_env), else the run takes every case on worker
 * processes, each a copy of this executable running `gpuplan sweep run
 * SPEC -o DIR --shard I/K -j1` (worker w of N in shard I of K runs the
 * cases i with i mod KN = I + Kw, shard I's cases dealt out round the
 * table).  A case's result is the same whichever process runs it, so the
 * merge gives the same bytes whatever the sharding.
 */
#ifndef PLANNER_SWEEP_RUN_H
#define PLANNER_SWEEP_RUN_H

#include <stddef.h>

#include "diag.h"
#include "sweep.h"
#include "sweep_report.h"

/* One shard of a sweep: the cases i with i mod count = index. */
struct sweep_shard {
	long index, count;
	const char *from;	/* what chose it: "--shard", or the variable's name (static storage) */
};

/*
 * The shard from the scheduler's variables, the first pair set wins
 * (JOB_COMPLETION_INDEX with shards_opt, --shards K, as the count; -1:
 * not given).  0 with sh set; 1 when none is set; -1 with d set
 * (DIAG_USAGE: a variable that is not a number or is out of range,
 * shards_opt without JOB_COMPLETION_INDEX).
 */
int sweep_shard_from_env(long shards_opt, struct sweep_shard *sh, struct diag *d);

/* The worker processes a run of shard sh takes: jobs, at most one per case of the shard, at least 1. */
long sweep_run_jobs(const struct sweep_spec *s, struct sweep_shard sh, long jobs);

/* What to run, and who hears of it. */
struct sweep_runner {
	const struct sweep_spec *s;
	const char *dir;		/* -o DIR: the results go to DIR/results */
	const char *models_dir;		/* as scenario_load takes it (the workers get --models) */
	int verbose;			/* plan verbosely (the workers get --verbose) */
	struct sweep_shard shard;
	long jobs;			/* worker processes; 1: the cases run in this process */
	/* the exit code gpuplan plan gives for d (a failed case's result file keeps it) */
	int (*exit_code)(const struct diag *d);
	/* a case run in this process failed (cr: its message and exit code); may be NULL */
	void (*case_failed)(void *ctx, const struct sweep_case_result *cr);
	/* SIGINT/SIGTERM reached this process and the workers were sent it too; may be NULL */
	void (*workers_stopped)(void *ctx, int sig);
	void *ctx;			/* the callbacks' */
};

/*
 * Runs the shard: creates DIR and DIR/results, then runs the cases in
 * this process (jobs 1) or on r->jobs workers and waits for them all.
 * *status: the highest exit status of a worker (128 + N when signal N
 * ended it), 0 in this process.  0; SWEEP_INTERRUPTED (a signal: the
 * case being planned is not written); or -1 with d set (a directory or
 * result file not written, a worker not started: the others still run).
 */
int sweep_run(const struct sweep_runner *r, int *status, struct diag *d);

/* What the result files of a shard say. */
struct sweep_run_count {
	size_t cases, done, failed, missing;	/* missing counts unreadable files too */
	int exit_code;		/* the first failed case's (what gpuplan plan exited with), else 0 */
};

/*
 * Counts the states of shard sh's cases from DIR/results.  0 with c set,
 * or -1 with c set and d set when the first problem in case order is a
 * result file that cannot be read (rather than a failed case).
 */
int sweep_run_scan(const struct sweep_spec *s, const char *dir, struct sweep_shard sh, struct sweep_run_count *c,
		   struct diag *d);

#endif
