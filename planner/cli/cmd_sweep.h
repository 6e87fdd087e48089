/*
 * cmd_sweep.h - gpuplan sweep's parsed arguments (cmd_sweep.c).
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

#endif
