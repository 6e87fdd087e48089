/*
 * deploy_plan.h - what the deploy files are written from
 * (deploy.c): each host of the plan with its name, mig-parted config and
 * device-plugin config; the distinct MIG layouts and sharing setups; the
 * VMs to create on hypervisor hosts (deploy_vm.c); and the Kubernetes GPU
 * nodes, which are the hosts on bare metal and in clouds and worker VMs on
 * vSphere and KVM.  deploy_work.c writes the workloads' requests and the
 * vGPU hosts' files from it.
 */
#ifndef PLANNER_DEPLOY_PLAN_H
#define PLANNER_DEPLOY_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cplan.h"
#include "deploy.h"
#include "outfile.h"

struct dnode {
	const struct cnode *n;	/* the plan's node: a host */
	char *name;		/* cplan_node_name */
	int hv;			/* on a hypervisor (vsphere, kvm): its GPUs go to VMs */
	int k8s;		/* its GPUs serve Kubernetes in a node mode: passthrough, mig, timeslice, mps */
	int mig;		/* index in dplan.layouts; -1: all-disabled; -2: no MIG label (no MIG) */
	int share;		/* index in dplan.shares (k8s nodes) */
};

/* One device-plugin config: a sharing setup. */
struct dshare {
	enum gpu_mode mode;	/* passthrough ("default": no sharing), timeslice or mps */
	int k;			/* replicas */
	char name[32];		/* the ConfigMap key and label value */
};

struct dk8s {
	size_t node;		/* its host: index in dplan.nodes */
	char *name;		/* the Kubernetes node name */
	enum deploy_node_kind kind;
	int gpus;		/* GPUs (or vGPUs) the node's device plugin sees */
	int mig, share;		/* its labels, as in struct dnode */
};

/* A VM to create on a hypervisor host: a Kubernetes worker or a VM workload's replica. */
struct dvm {
	size_t node;		/* its host */
	char *name;
	int k8s;		/* index in dplan.k8s for a worker, else -1 */
	uint64_t gpus;		/* the host's GPUs it holds (bit g: GPU g) */
	int vgpu_type;		/* the slot type of its vGPUs; -1: passthrough GPUs */
	int d;			/* a VM workload's demand, else -1 */
	long replica;		/* that replica */
	long replicas;		/* replicas it runs (pods for a worker) */
	double cpu, ram;	/* CPU cores and RAM (GiB) its replicas ask */
};

struct dplan {
	const struct cplan *cp;
	size_t n;
	struct dnode *nodes;	/* in plan order */
	size_t nlayouts;
	size_t *layouts;	/* per distinct MIG layout: its first node */
	size_t nshares;
	struct dshare *shares;
	size_t nk8s, k8scap;
	struct dk8s *k8s;	/* Kubernetes GPU nodes, host by host */
	size_t nvms, vmcap;
	struct dvm *vms;	/* VMs, host by host */
	int lax;		/* deploy_nodes_list: names not checked, no VM of a workload's own made (the reports) */
	int *slot_k8s;		/* per plan slot: its Kubernetes node, or -1 (a VM workload's, or free) */
	int *slot_vm;		/* per plan slot: its VM, or -1 */
};

/* True for the modes a Kubernetes node runs its GPUs in (passthrough, mig, timeslice, mps): struct dnode.k8s. */
int deploy_node_mode(enum gpu_mode mode);

/* The index of the sharing setup (mode, k) in dp->shares, added when new. */
int deploy_share_of(struct dplan *dp, enum gpu_mode mode, int k);

/*
 * The Kubernetes nodes and VMs of every host (dp->k8s, dp->vms,
 * dp->slot_k8s, dp->slot_vm), after the hosts' labels are set.  0, or -1
 * with d set (DIAG_INPUT) when a node name is not a Kubernetes node name.
 */
int deploy_place_nodes(struct dplan *dp, struct diag *d);
void deploy_nodes_release(struct dplan *dp);

/* Adds vms.csv and vms.json to os. */
void deploy_vms(const struct dplan *dp, struct outset *os);

/* The Kubernetes extended resource a replica in slot s asks, and how many (*count). */
const char *deploy_resource(const struct dplan *dp, const struct cslot *s, int *count, char *buf, size_t size);

/* Adds requests.csv and requests.yaml (the workloads' extended resources) to os; -1 when YAML fails. */
int deploy_requests(const struct dplan *dp, struct outset *os);

/* True when the scenario asks resilience `preemption: lower-priority` (deploy_priority.c). */
int deploy_preempts(const struct scenario *sc);

struct dyaml;
/* A request's priorityClassName for w when deploy_preempts (else nothing). */
void deploy_priority_field(struct dyaml *y, const struct scenario *sc, const struct workload *w);

/* requests.yaml's priorityClasses: the scheduling.k8s.io/v1 PriorityClasses its requests name, when deploy_preempts. */
void deploy_priority_classes(struct dyaml *y, const struct dplan *dp);

struct cJSON;
/* Adds file `name` to os: root printed by cJSON and a newline; frees root. */
void deploy_add_json(struct outset *os, const char *name, struct cJSON *root);

/* Adds vgpu.csv and vgpu.json (the vGPU hosts' profiles and VMs) to os. */
void deploy_vgpu(const struct dplan *dp, struct outset *os);

/* Adds apply.sh (ConfigMaps, ClusterPolicy, then labels.sh) to os, for namespace ns. */
void deploy_apply(const struct dplan *dp, const char *ns, struct outset *os);

#endif
