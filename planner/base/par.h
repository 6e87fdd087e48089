/*
 * par.h - independent jobs run on a few threads at once.
 *
 * par_run() starts the threads it needs, runs every job once and joins
 * them before it returns: no thread outlives a call.  Jobs are taken in
 * index order by whichever thread is free; each job must write only its
 * own results, so what a call computes does not depend on the number of
 * threads or on which thread ran which job.  When a thread cannot be
 * started, the threads that are there (at least the caller's) run every
 * job.
 */
#ifndef PLANNER_PAR_H
#define PLANNER_PAR_H

#include <stddef.h>

#define PAR_MAX_THREADS 64

/* Job j of a par_run() call, with the caller's ctx. */
typedef void par_job(void *ctx, size_t j);

/*
 * Runs job(ctx, j) for every j in [0, njobs) on up to `threads` threads,
 * the caller's among them.  thread_end, when not NULL, is called on each
 * thread par_run started, last thing before it ends (to free what the
 * jobs left in thread-local state).
 */
void par_run(size_t njobs, int threads, par_job *job, void *ctx, void (*thread_end)(void));

/*
 * Step `step` (0, 1, 2, ...) of sequence `seq` of a par_run_seq() call,
 * with the caller's ctx; returns nonzero when the sequence has a next
 * step.
 */
typedef int par_step(void *ctx, size_t seq, int step);

/*
 * Runs nseq sequences of steps on up to `threads` threads, the caller's
 * among them: a sequence's steps one after the other, never two at once;
 * different sequences' side by side.  A free thread takes the next step
 * of the sequence, not running and not ended, with the fewest steps done
 * (the lowest index on a tie), so that with fewer threads than sequences
 * they advance evenly rather than one after another.  As with par_run,
 * each step writes only its own sequence's results, so what a call
 * computes does not depend on the threads unless a step reads the clock.
 * thread_end as for par_run.
 */
void par_run_seq(size_t nseq, int threads, par_step *step, void *ctx, void (*thread_end)(void));

/* A job running on a thread of its own (par_start), to wait for (par_wait). */
struct par_task;
/*
 * Starts job(ctx, 0) on a thread of its own and returns at once; when no
 * thread can be started the job runs on the caller's thread before
 * par_start returns.  thread_end as for par_run.  par_wait(task) waits
 * for the job to end and frees task; every task is waited for.
 */
struct par_task *par_start(par_job *job, void *ctx, void (*thread_end)(void));
void par_wait(struct par_task *task);

/* The processors online (sysconf), at least 1 and at most PAR_MAX_THREADS. */
int par_processors(void);

#endif
