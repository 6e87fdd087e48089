/*
 * kubectl.h - import of a Kubernetes cluster as it runs today, from
 * `kubectl get nodes -o json` and `kubectl get pods -A -o json`.
 *
 * Nodes: the GPU Feature Discovery labels give the GPU type (through the
 * product table of gfd.h), the GPU count and the current sharing (MIG
 * strategy single or mixed with its nvidia.com/mig-<profile>.count
 * labels, time-slicing or MPS replicas, else whole GPUs);
 * status.allocatable gives CPU and memory (Kubernetes quantities,
 * kquantity.h); the zone (else region) label the site.  Nodes alike in
 * site, GPU type and count, CPU, memory (whole GiB, rounded down) and
 * current sharing are one owned bare-metal inventory row naming its
 * nodes.  Nodes without the product label are left out (counted).
 *
 * Pods: each running or pending pod that asks for a GPU, grouped by
 * namespace, owner and ask into a workload (tenant = namespace): whole
 * GPUs (exclusive), a MIG profile (its usable memory and compute share,
 * isolation hardware), or a share of a time-sliced (isolation none) or
 * MPS (memory) GPU.
 *
 * Resilience (kubectl_spread.c): each pod's topology spread constraints
 * and required anti-affinity over kubernetes.io/hostname or
 * topology.kubernetes.io/zone give its row's spread columns, and the
 * PodDisruptionBudget (policy/v1) of an optional PDB list that selects
 * its pods its min_available or max_unavailable; the columns are written
 * only when some pod has either.
 *
 * Two scenarios share the inventory: scenario.yaml ("planned": each
 * workload may take any mode its isolation allows) and as-is.yaml
 * (workloads-as-is.csv: the same workloads pinned to the mode and GPU
 * type they use today), so `gpuplan compare as-is.yaml scenario.yaml`
 * sets today's setup beside the plan (docs/formats.md "kubectl import").
 *
 * Ownership: kubectl_out owns its strings; kubectl_out_release frees them.
 */
#ifndef PLANNER_KUBECTL_H
#define PLANNER_KUBECTL_H

#include "catalog.h"
#include "diag.h"
#include "origin.h"

struct kubectl_out {
	char *inventory;	/* inventory.csv */
	char *workloads;	/* workloads.csv; NULL without a pod list */
	char *workloads_asis;	/* workloads-as-is.csv; NULL without a pod list */
	char *scenario;		/* scenario.yaml; NULL without a pod list */
	char *scenario_asis;	/* as-is.yaml; NULL without a pod list */
	long nodes, cpu_only;	/* GPU nodes read, nodes without GPUs skipped */
	long gpus;		/* physical GPUs on the GPU nodes */
	int classes;		/* inventory rows */
	long mode_nodes[4];	/* GPU nodes per current mode (passthrough, mig, timeslice, mps) */
	long pods, pods_gpu, pods_done;	/* pods read, GPU pods kept, finished pods skipped */
	int nworkloads;
	long pods_spread, pods_pdb;	/* GPU pods with a spread carried, with a PDB */
	long pdbs;		/* PDBs read */
	long rules_dropped;	/* spread and anti-affinity rules not carried (another key, a weaker rule) */
	const char *nodes_file, *pods_file;	/* the paths read (kubectl_import's) */
	struct origins origins;	/* the node or pod item of each row written (the first of a group) */
};

/*
 * Reads the node list and, when pods_path is not NULL, the pod list and
 * (when pdb_path is not NULL) the PDB list.  Errors point at
 * FILE:LINE:COL (DIAG_INPUT).
 */
int kubectl_import(const char *nodes_path, const char *pods_path, const char *pdb_path, const struct catalog *cat,
		   struct kubectl_out *out, struct diag *d);
void kubectl_out_release(struct kubectl_out *out);

#endif
