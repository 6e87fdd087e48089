/*
 * deploy.h - a plan made deployable: the NVIDIA GPU Operator's inputs for
 * the plan's Kubernetes GPU nodes (a mig-parted config, a device-plugin
 * ConfigMap, the node labels that select them), the extended resources
 * each workload's replicas request, and for vGPU hosts the vGPU profiles
 * and the VM on each (docs/deploy.md gives the files and their upstream
 * schemas).
 *
 * Every file is built in memory into an outset (base/outfile.h), which
 * the caller commits: all or nothing.  A plan the NVIDIA stack cannot
 * express (time-slicing with shares, two replica counts on one node, a
 * MIG geometry the GPU does not have, two MIG profiles on a node under
 * strategy single) is refused before anything is added.
 */
#ifndef PLANNER_DEPLOY_H
#define PLANNER_DEPLOY_H

#include <stdint.h>

#include "cplan.h"
#include "diag.h"
#include "outfile.h"

/* The namespace of the GPU Operator when none is given. */
#define DEPLOY_NAMESPACE "gpu-operator"

/*
 * Adds the deploy files of plan cp (its problem's scenario gives the MIG
 * strategies and renameByDefault) to os, for a GPU Operator in namespace
 * ns (a valid namespace name: deploy_namespace_valid).  0, or -1 with d
 * set (DIAG_INPUT, naming the scenario file and the node, or the
 * inventory row of a name that is no Kubernetes node name) and nothing
 * added.
 */
int deploy_build(const struct cplan *cp, const char *ns, struct outset *os, struct diag *d);

/* What a Kubernetes GPU node is. */
enum deploy_node_kind {
	DEPLOY_NODE_HOST,		/* the host itself: bare metal, a cloud instance */
	DEPLOY_NODE_VM_PASSTHROUGH,	/* a worker VM holding passthrough GPUs of its host (vSphere, KVM) */
	DEPLOY_NODE_VM_VGPU,		/* a worker VM holding one vGPU (or N full-size ones) */
};

/* One Kubernetes GPU node of a plan. */
struct deploy_node {
	size_t host;		/* its host: index in cplan.nodes */
	char *name;		/* the Kubernetes node name, as the deploy files give it */
	enum deploy_node_kind kind;
	int gpus;		/* GPUs (or vGPUs) its device plugin sees */
	uint64_t host_gpus;	/* the host's GPUs it holds or has vGPUs on (bit g: GPU g) */
	int slot_type;		/* a vGPU worker: its vGPUs' slot type in the host's class; else -1 */
};

/* The Kubernetes GPU nodes of a plan: deploy_nodes_list. */
struct deploy_nodes {
	size_t n;
	struct deploy_node *nodes;	/* host by host (cplan.nodes order), each host's in deploy order */
	int *slot_node;			/* per plan slot: its Kubernetes node, or -1 (a VM workload's, or free) */
};

/*
 * The Kubernetes GPU nodes the deploy files of plan cp name, whatever
 * the names (the reports list them even where --deploy would refuse a
 * name): on bare metal and in clouds each host; on vSphere and KVM one
 * worker VM per host holding the GPUs no VM workload holds, or one per
 * vGPU a container replica runs on.  Hosts whose GPUs all go to VM
 * workloads, or that run no replica in vGPU mode, have none.  Caller
 * frees with deploy_nodes_free.
 */
void deploy_nodes_list(const struct cplan *cp, struct deploy_nodes *out);
void deploy_nodes_free(struct deploy_nodes *dn);
/* "host", "vm-passthrough" or "vm-vgpu". */
const char *deploy_node_kind_name(enum deploy_node_kind kind);

/* True when s is a Kubernetes namespace name (RFC 1123 label: a-z, 0-9, '-', at most 63). */
int deploy_namespace_valid(const char *s);

#endif
