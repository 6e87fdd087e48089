/*
 * test_par.c - par_run: every job runs exactly once and writes its own
 * result, whatever the number of threads (one, a few, more than jobs,
 * more than PAR_MAX_THREADS) and of jobs (none, one, many); thread_end
 * runs once on each thread par_run started, never on the caller's.
 */
#include <stdatomic.h>

#include "check.h"
#include "par.h"

#define MAXJOBS 300

static atomic_int ended;

struct ctx {
	atomic_int runs[MAXJOBS];
	long square[MAXJOBS];
};

static void job(void *ctx, size_t j)
{
	struct ctx *c = ctx;
	atomic_fetch_add(&c->runs[j], 1);
	c->square[j] = (long)(j * j);
}

static void thread_end(void)
{
	atomic_fetch_add(&ended, 1);
}

int main(void)
{
	static const size_t njobs[] = { 0, 1, 2, 7, MAXJOBS };
	static const int threads[] = { 1, 2, 3, 8, PAR_MAX_THREADS + 5 };
	static struct ctx c;
	size_t a, b, j;

	for (a = 0; a < sizeof(njobs) / sizeof(njobs[0]); a++)
		for (b = 0; b < sizeof(threads) / sizeof(threads[0]); b++) {
			size_t n = njobs[a], once = 0, right = 0;
			int t = threads[b], started = t > PAR_MAX_THREADS ? PAR_MAX_THREADS : t;
			if ((size_t)started > n)
				started = (int)n;
			for (j = 0; j < MAXJOBS; j++) {
				atomic_store(&c.runs[j], 0);
				c.square[j] = -1;
			}
			atomic_store(&ended, 0);
			par_run(n, t, job, &c, thread_end);
			for (j = 0; j < MAXJOBS; j++) {
				once += atomic_load(&c.runs[j]) == (j < n);
				right += c.square[j] == (j < n ? (long)(j * j) : -1);
			}
			CHECK(once == MAXJOBS && right == MAXJOBS, "%zu jobs on %d threads: %zu ran right, %zu wrote right",
			      n, t, once, right);
			CHECK(atomic_load(&ended) == (started > 1 ? started - 1 : 0),
			      "%zu jobs on %d threads: thread_end ran %d times", n, t, atomic_load(&ended));
		}
	par_run(5, 2, job, &c, NULL); /* no thread_end */
	CHECK(c.square[4] == 16, "without thread_end");
	CHECK(par_processors() >= 1 && par_processors() <= PAR_MAX_THREADS, "par_processors %d", par_processors());
	return check_done();
}
