/*
 * par.c - independent jobs run on a few threads at once (see par.h).
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT (glibc): the processors this process may use */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "par.h"
#include "util.h"
#include "banned.h"

/* What run_threads runs on each thread: take(arg), then thread_end on the threads it started. */
struct runner {
	void (*take)(void *arg);
	void *arg;
	void (*thread_end)(void);
};

static void *runner_main(void *a)
{
	struct runner *r = a;
	r->take(r->arg);
	if (r->thread_end)
		r->thread_end();
	return NULL;
}

/*
 * Runs take(arg) on up to `threads` threads (at most PAR_MAX_THREADS and
 * no more than the n units of work), the caller's among them; fewer when
 * a thread cannot be started: the ones there take every unit.  Joins
 * them before it returns.
 */
static void run_threads(int threads, size_t n, void (*take)(void *), void *arg, void (*thread_end)(void))
{
	struct runner r = { take, arg, thread_end };
	pthread_t tid[PAR_MAX_THREADS];
	int started = 0, t;

	if (threads > PAR_MAX_THREADS)
		threads = PAR_MAX_THREADS;
	if ((size_t)threads > n)
		threads = (int)n;
	for (t = 1; t < threads; t++) {
		if (pthread_create(&tid[started], NULL, runner_main, &r))
			break;
		started++;
	}
	take(arg);
	for (t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
}

struct par {
	pthread_mutex_t lock;
	size_t next, njobs;
	par_job *job;
	void *ctx;
};

/* Runs jobs, the next one not taken each time, until none is left. */
static void take_jobs(void *arg)
{
	struct par *pr = arg;

	for (;;) {
		size_t j;
		pthread_mutex_lock(&pr->lock);
		j = pr->next < pr->njobs ? pr->next++ : pr->njobs;
		pthread_mutex_unlock(&pr->lock);
		if (j == pr->njobs)
			return;
		pr->job(pr->ctx, j);
	}
}

void par_run(size_t njobs, int threads, par_job *job, void *ctx, void (*thread_end)(void))
{
	struct par pr;

	pr.next = 0;
	pr.njobs = njobs;
	pr.job = job;
	pr.ctx = ctx;
	pthread_mutex_init(&pr.lock, NULL);
	run_threads(threads, njobs, take_jobs, &pr, thread_end);
	pthread_mutex_destroy(&pr.lock);
}

struct par_seq {
	pthread_mutex_t lock;
	size_t nseq;
	int *done;		/* [seq]: steps done; -1 once the sequence has ended */
	unsigned char *busy;	/* [seq]: a thread runs its next step */
	par_step *step;
	void *ctx;
};

/* The sequence a free thread takes: not running, not ended, fewest steps done, lowest index; nseq when none. */
static size_t seq_pick(const struct par_seq *ps)
{
	size_t s, best = ps->nseq;

	for (s = 0; s < ps->nseq; s++)
		if (!ps->busy[s] && ps->done[s] >= 0 && (best == ps->nseq || ps->done[s] < ps->done[best]))
			best = s;
	return best;
}

/* Runs steps, of the sequence seq_pick gives each time, until none is left to take. */
static void take_steps(void *arg)
{
	struct par_seq *ps = arg;
	size_t s;
	int k = 0, more;

	for (;;) {
		pthread_mutex_lock(&ps->lock);
		s = seq_pick(ps);
		if (s < ps->nseq) {
			ps->busy[s] = 1;
			k = ps->done[s];
		}
		pthread_mutex_unlock(&ps->lock);
		if (s == ps->nseq)
			return;
		more = ps->step(ps->ctx, s, k);
		pthread_mutex_lock(&ps->lock);
		ps->busy[s] = 0;
		ps->done[s] = more ? k + 1 : -1;
		pthread_mutex_unlock(&ps->lock);
	}
}

void par_run_seq(size_t nseq, int threads, par_step *step, void *ctx, void (*thread_end)(void))
{
	struct par_seq ps;

	ps.nseq = nseq;
	ps.done = xcalloc(nseq ? nseq : 1, sizeof(*ps.done));
	ps.busy = xcalloc(nseq ? nseq : 1, sizeof(*ps.busy));
	ps.step = step;
	ps.ctx = ctx;
	pthread_mutex_init(&ps.lock, NULL);
	run_threads(threads, nseq, take_steps, &ps, thread_end);
	pthread_mutex_destroy(&ps.lock);
	free(ps.done);
	free(ps.busy);
}

struct par_task {
	pthread_t tid;		/* the job's thread */
	int started;		/* tid runs the job (else it ran in par_start) */
	par_job *job;
	void *ctx;
	void (*thread_end)(void);
};

static void *task_main(void *arg)
{
	struct par_task *t = arg;
	t->job(t->ctx, 0);
	if (t->thread_end)
		t->thread_end();
	return NULL;
}

struct par_task *par_start(par_job *job, void *ctx, void (*thread_end)(void))
{
	struct par_task *t = xcalloc(1, sizeof(*t));

	t->job = job;
	t->ctx = ctx;
	t->thread_end = thread_end;
	if (pthread_create(&t->tid, NULL, task_main, t) == 0)
		t->started = 1;
	else
		job(ctx, 0);
	return t;
}

void par_wait(struct par_task *task)
{
	if (task->started)
		pthread_join(task->tid, NULL);
	free(task);
}

int par_processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef CPU_COUNT
	cpu_set_t set;

	/* the processors this process may run on (taskset, a container's cpuset), when fewer */
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) >= 1 && CPU_COUNT(&set) < n)
		n = CPU_COUNT(&set);
#endif
	if (n < 1)
		return 1;
	return n > PAR_MAX_THREADS ? PAR_MAX_THREADS : (int)n;
}
