/*
 * test_par.c - par_run: every job runs exactly once and writes its own
 * result, whatever the number of threads (one, a few, more than jobs,
 * more than PAR_MAX_THREADS) and of jobs (none, one, many); thread_end
 * runs once on each thread par_run started, never on the caller's.
 * par_run_seq: every sequence's steps run in order, each once, never two
 * of one sequence at once, until the sequence says it has no next step;
 * on one thread the sequences advance evenly (round-robin in index
 * order), and a sequence that ends early leaves its turns to the others.
 */
#include <stdatomic.h>
#include <string.h>

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

#define NSEQ 5
#define MAXLOG 64

/* Sequence s has s + 1 steps; the order steps ran in, and overlaps seen. */
struct seq_ctx {
	atomic_int busy[NSEQ];
	int next[NSEQ];		/* the step each sequence expects next */
	atomic_int wrong, overlap, nlog;
	int log[MAXLOG];	/* seq * 10 + step, in the order steps ran */
};

static int seq_step(void *ctx, size_t seq, int step)
{
	struct seq_ctx *c = ctx;
	int n;

	if (atomic_fetch_add(&c->busy[seq], 1) != 0)
		atomic_fetch_add(&c->overlap, 1);
	if (c->next[seq] != step)
		atomic_fetch_add(&c->wrong, 1);
	c->next[seq] = step + 1;
	n = atomic_fetch_add(&c->nlog, 1);
	if (n < MAXLOG)
		c->log[n] = (int)seq * 10 + step;
	atomic_fetch_sub(&c->busy[seq], 1);
	return step < (int)seq;
}

static void check_seq(void)
{
	/* one thread: round-robin over the sequences still going, sequence 0 (one step) ends first */
	static const int order[] = { 0, 10, 20, 30, 40, 11, 21, 31, 41, 22, 32, 42, 33, 43, 44 };
	static const int threads[] = { 1, 2, 3, 8 };
	size_t b, s, i;

	for (b = 0; b < sizeof(threads) / sizeof(threads[0]); b++) {
		static struct seq_ctx c;
		int steps = 0;
		memset(&c, 0, sizeof(c));
		par_run_seq(NSEQ, threads[b], seq_step, &c, NULL);
		for (s = 0; s < NSEQ; s++)
			steps += c.next[s] == (int)s + 1;
		CHECK(steps == NSEQ && !atomic_load(&c.wrong) && !atomic_load(&c.overlap) &&
			      atomic_load(&c.nlog) == 15,
		      "par_run_seq on %d threads: %d sequences complete, %d out of order, %d overlaps, %d steps",
		      threads[b], steps, atomic_load(&c.wrong), atomic_load(&c.overlap), atomic_load(&c.nlog));
		if (threads[b] == 1)
			for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
				CHECK(c.log[i] == order[i], "one thread: step %zu was %d, not %d", i, c.log[i], order[i]);
	}
	par_run_seq(0, 2, seq_step, NULL, NULL); /* no sequence: no step */
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
	check_seq();
	CHECK(par_processors() >= 1 && par_processors() <= PAR_MAX_THREADS, "par_processors %d", par_processors());
	return check_done();
}
