/*
 * sweep_submit.h - a sweep handed to a scheduler (sweep_submit.c,
 * docs/sweep.md): a Slurm array script (and sbatch to submit it), the
 * mpirun line, or a Kubernetes Indexed Job with its inputs as a
 * ConfigMap.  gpuplan links neither Slurm nor MPI: the shard contract is
 * the environment (sweep_run.h) and a shared directory.  Each job runs
 * this very executable, `gpuplan [--models M] sweep run SPEC -o DIR`,
 * with absolute paths, as it may start in another directory.
 */
#ifndef PLANNER_SWEEP_SUBMIT_H
#define PLANNER_SWEEP_SUBMIT_H

#include <stddef.h>

#include "diag.h"
#include "sweep.h"

#define SWEEP_K8S_MAX_INPUT 1048576L	/* bytes of data a ConfigMap holds (Kubernetes' limit) */

/* What a submission is of. */
struct sweep_submit {
	const struct sweep_spec *s;
	const char *spec;	/* the spec's path as given */
	const char *dir;	/* -o DIR: where the jobs write, and the script or manifest goes */
	const char *models_dir;	/* --models, or NULL */
	long shards;		/* array tasks, ranks or pods */
};

/* What the Indexed Job runs. */
struct sweep_k8s {
	long shards;		/* completions: pod i runs shard i of shards */
	long parallelism;	/* pods at once */
	const char *image;	/* an image with gpuplan installed */
	const char *claim;	/* the ReadWriteMany PersistentVolumeClaim of the results */
};

/*
 * --slurm: DIR (created when missing) and DIR/sweep.sbatch, an array of
 * sub->shards tasks each running its shard.  0 and *script (the script's
 * absolute path; caller frees), or -1 with d set.
 */
int sweep_slurm_write(const struct sweep_submit *sub, char **script, struct diag *d);
/* True when sbatch is on PATH. */
int sweep_sbatch_found(void);
/* Runs sbatch --parsable script, its output on our stdout; its exit status (127: it cannot start). */
int sweep_sbatch(const char *script);

/* --mpi: DIR (created when missing) and the mpirun line of sub->shards ranks (caller frees), or NULL with d set. */
char *sweep_mpi_line(const struct sweep_submit *sub, struct diag *d);

/*
 * --k8s: DIR/sweep-k8s.yaml, a comment for the reader, then the
 * ConfigMap of the inputs and the Indexed Job of k (sweep_files.h).
 * 0, or -1 with d set.
 */
int sweep_k8s_write(const struct sweep_submit *sub, const struct sweep_k8s *k, struct diag *d);

#endif
