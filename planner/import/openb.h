/*
 * openb.h - import of the Alibaba "openb" GPU cluster trace
 * (cluster-trace-gpu-v2023: a node list and a pod list) as a scenario.
 *
 * Nodes: sn,cpu_milli,memory_mib,gpu,model.  Identical nodes (model, GPUs,
 * CPU, RAM) become one inventory row: owned bare-metal Kubernetes nodes at
 * site "openb"; nodes without GPUs are skipped.  T4 and A10 are catalog
 * types; every other model (P100, V100M16, V100M32, G1/G2/G3, ...) becomes
 * a user GPU type in gpus-openb.yaml with no MIG and no vGPU table, so
 * only passthrough and time-slicing are planned on it.  The trace gives no
 * GPU memory: a user type's memory_mib is the size in its name (V100M16,
 * V100M32), else a placeholder marked as such; it never binds, since the
 * pods ask for 1 MiB.
 *
 * Pods: name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,... .
 * Every pod with a GPU is offered (pod_phase and the times are ignored);
 * identical pods (GPUs, gpu_milli, gpu_spec, CPU, RAM, qos) become one
 * workload with that many replicas, tenant = qos.  num_gpu >= 2, or 1 with
 * gpu_milli 1000: whole GPUs (passthrough); num_gpu 1 with gpu_milli <
 * 1000: a fraction, compute = gpu_milli / 1000, isolation none, modes
 * passthrough|timeslice.  gpu_spec ("A|B") becomes gpu_types.  CPU and
 * RAM per replica and per node are the trace's.  Pods without GPUs are
 * skipped (counted).
 *
 * Ownership: openb_out owns its strings; openb_out_release frees them.
 * Its origins point at the paths given to openb_import.
 */
#ifndef PLANNER_OPENB_H
#define PLANNER_OPENB_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "origin.h"

struct openb_out {
	char *inventory;	/* inventory.csv */
	char *workloads;	/* workloads.csv */
	char *gpus;		/* gpus-openb.yaml (user GPU types) */
	char *scenario;		/* scenario.yaml */
	long nodes, gpus_total;	/* GPU nodes and their GPUs */
	int classes;		/* inventory rows */
	long pods, pods_gpu;	/* pods read, pods with GPUs (offered) */
	int nworkloads;
	int user_types;
	double gpu_demand;	/* offered GPUs: num_gpu, or gpu_milli / 1000 */
	const char *nodes_file, *pods_file;	/* the paths read (openb_import's) */
	struct origins origins;	/* the node or pod row of each row written (first of a group) */
};

/*
 * Reads the two CSV files.  cat is the bundled catalog: models it knows
 * (by id or alias) are used as they are.  Errors point at FILE:LINE:COL
 * (DIAG_INPUT).
 */
int openb_import(const char *nodes_path, const char *pods_path, const struct catalog *cat,
		 struct openb_out *out, struct diag *d);
void openb_out_release(struct openb_out *out);

#endif
