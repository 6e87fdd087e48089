/*
 * cmd_sweep.h - what the files of gpuplan sweep share: its parsed
 * arguments (cmd_sweep.c) and the submit subcommand (cmd_sweep_submit.c).
 */
#ifndef PLANNER_CMD_SWEEP_H
#define PLANNER_CMD_SWEEP_H

#include "cli.h"
#include "report.h"
#include "sweep.h"

enum sweep_cmd { SW_EXPAND, SW_RUN, SW_MERGE, SW_SUBMIT };

struct sweep_args {
	enum sweep_cmd cmd;
	const char *spec;	/* SPEC */
	const char *dir;	/* -o DIR */
	long shard, shards;	/* --shard I/K; -1: not given */
	long shards_only;	/* --shards K; -1: not given */
	long jobs;		/* -j N; 0: the default */
	enum report_format fmt;
	int count;		/* --count */
	int slurm, mpi, k8s;	/* --slurm, --mpi, --k8s */
	const char *image;	/* --image (--k8s) */
	long parallelism;	/* --parallelism (--k8s); 0: the default */
	const char *claim;	/* --claim (--k8s) */
};

/*
 * Creates dir when missing (an existing one is fine: shards start at once); 0 or EXIT_INTERNAL after a
 * message.  *made (when not NULL): 1 when this call created it, for a failed run to remove it again.
 */
int sweep_make_dir(const char *dir, int *made);
/* gpuplan sweep submit --slurm|--mpi|--k8s; its exit code. */
int sweep_submit(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g);

#endif
