/*
 * test_sweep_run.c - which shard a sweep run takes (sweep/sweep_run.h):
 * the scheduler variables in their order of precedence, a Slurm array
 * that starts at 1, a Kubernetes Indexed Job with --shards, the misuse
 * of each (the message gpuplan prints), and the workers a shard takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "sweep_run.h"
#include "util.h"

static const char *const vars[] = {
	"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_PROCID", "SLURM_NTASKS",
	"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE", "JOB_COMPLETION_INDEX",
};

struct row {
	const char *env;	/* "NAME=VALUE NAME=VALUE" */
	long shards_opt;	/* --shards K, -1: not given */
	int rc;			/* 0 found, 1 none, -1 misuse */
	long index, count;
	const char *from;	/* rc 0 */
	const char *msg;	/* rc -1 */
};

static const struct row rows[] = {
	{ "", -1, 1, 0, 0, NULL, NULL },
	{ "SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=8", -1, 0, 3, 8, "SLURM_ARRAY_TASK_ID", NULL },
	{ "SLURM_ARRAY_TASK_ID=4 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_MIN=1", -1, 0, 3, 4, "SLURM_ARRAY_TASK_ID",
	  NULL },
	{ "SLURM_PROCID=1 SLURM_NTASKS=2 PMI_RANK=0 PMI_SIZE=5", -1, 0, 1, 2, "SLURM_PROCID", NULL },
	{ "OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3", -1, 0, 2, 3, "OMPI_COMM_WORLD_RANK", NULL },
	{ "PMI_RANK=0 PMI_SIZE=1", -1, 0, 0, 1, "PMI_RANK", NULL },
	{ "JOB_COMPLETION_INDEX=5", 6, 0, 5, 6, "JOB_COMPLETION_INDEX", NULL },
	{ "JOB_COMPLETION_INDEX=5", -1, -1, 0, 0, NULL,
	  "$JOB_COMPLETION_INDEX is set: give the number of shards with --shards K" },
	{ "", 4, -1, 0, 0, NULL, "--shards: $JOB_COMPLETION_INDEX is not set" },
	{ "SLURM_PROCID=x SLURM_NTASKS=2", -1, -1, 0, 0, NULL, "$SLURM_PROCID: 'x' is not a whole number >= 0" },
	{ "SLURM_PROCID=1", -1, -1, 0, 0, NULL, "$SLURM_PROCID is set but $SLURM_NTASKS is not" },
	{ "PMI_RANK=5 PMI_SIZE=5", -1, -1, 0, 0, NULL, "$PMI_RANK: shard 5 is not in 0..4" },
	{ "SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 SLURM_ARRAY_TASK_MIN=1", -1, -1, 0, 0, NULL,
	  "$SLURM_ARRAY_TASK_ID: shard -1 is not in 0..1" },
};

static void set_env(const char *env)
{
	char *copy = xstrdup(env), *p = copy, *eq;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	while (*p) {
		char *sp = strchr(p, ' ');
		if (sp)
			*sp = '\0';
		eq = strchr(p, '=');
		if (eq) {
			*eq = '\0';
			setenv(p, eq + 1, 1);
		}
		p = sp ? sp + 1 : p + strlen(p);
	}
	free(copy);
}

static void test_shard_from_env(void)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct sweep_shard sh = { -7, -7, NULL };
		struct diag d = DIAG_INIT;
		int rc;
		set_env(r->env);
		rc = sweep_shard_from_env(r->shards_opt, &sh, &d);
		CHECK(rc == r->rc, "row %zu (%s): rc %d, want %d", i, r->env, rc, r->rc);
		if (rc == 0 && r->rc == 0) {
			CHECK(sh.index == r->index && sh.count == r->count, "row %zu (%s): shard %ld/%ld, want %ld/%ld", i,
			      r->env, sh.index, sh.count, r->index, r->count);
			CHECK_STR(sh.from, r->from, "row %zu (%s)", i, r->env);
		}
		if (r->rc < 0) {
			CHECK(d.kind == DIAG_USAGE, "row %zu (%s): kind %d, want DIAG_USAGE", i, r->env, (int)d.kind);
			CHECK_STR(d.msg, r->msg, "row %zu (%s)", i, r->env);
		}
		diag_release(&d);
	}
	set_env("");
}

/* Workers: the -j asked for, at most one per case of the shard, at least one. */
static void test_jobs(void)
{
	static const struct {
		size_t ncases;
		long index, count, jobs, want;
	} t[] = {
		{ 10, 0, 1, 4, 4 }, { 10, 0, 1, 16, 10 }, { 10, 3, 4, 8, 2 }, { 10, 1, 4, 8, 3 }, { 2, 3, 4, 8, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sweep_spec s;
		struct sweep_shard sh = { t[i].index, t[i].count, "--shard" };
		long got;
		memset(&s, 0, sizeof(s));
		s.design = SWEEP_MONTE_CARLO;
		s.samples = (long)t[i].ncases;
		got = sweep_run_jobs(&s, sh, t[i].jobs);
		CHECK(got == t[i].want, "row %zu: %ld jobs, want %ld", i, got, t[i].want);
	}
}

int main(void)
{
	test_shard_from_env();
	test_jobs();
	return check_done();
}
