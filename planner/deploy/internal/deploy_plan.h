/*
 * internal/deploy_plan.h - what the deploy files are written from
 * (deploy.c): each node of the plan with its name, whether it is a
 * Kubernetes GPU node, its mig-parted config and device-plugin config;
 * the distinct MIG layouts and sharing setups.  deploy_work.c writes the
 * workloads' requests and the vGPU hosts' files from it.
 */
#ifndef PLANNER_DEPLOY_PLAN_H
#define PLANNER_DEPLOY_PLAN_H

#include <stddef.h>

#include "cplan.h"
#include "outfile.h"

struct dnode {
	const struct cnode *n;	/* the plan's node */
	char *name;		/* cplan_node_name */
	int k8s;		/* a Kubernetes GPU node: passthrough, mig, timeslice, mps */
	int mig;		/* index in dplan.layouts; -1: all-disabled; -2: no MIG label (no MIG) */
	int share;		/* index in dplan.shares (k8s nodes) */
};

/* One device-plugin config: a sharing setup. */
struct dshare {
	enum gpu_mode mode;	/* passthrough ("default": no sharing), timeslice or mps */
	int k;			/* replicas */
	char name[32];		/* the ConfigMap key and label value */
};

struct dplan {
	const struct cplan *cp;
	size_t n;
	struct dnode *nodes;	/* in plan order */
	size_t nlayouts;
	size_t *layouts;	/* per distinct MIG layout: its first node */
	size_t nshares;
	struct dshare *shares;
};

/* The Kubernetes extended resource a replica in slot s asks, and how many (*count). */
const char *deploy_resource(const struct dplan *dp, const struct cslot *s, int *count, char *buf, size_t size);

/* Adds requests.csv and requests.yaml (the workloads' extended resources) to os; -1 when YAML fails. */
int deploy_requests(const struct dplan *dp, struct outset *os);

struct cJSON;
/* Adds file `name` to os: root printed by cJSON and a newline; frees root. */
void deploy_add_json(struct outset *os, const char *name, struct cJSON *root);

/* Adds vgpu.csv and vgpu.json (the vGPU hosts' profiles and VMs) to os. */
void deploy_vgpu(const struct dplan *dp, struct outset *os);

#endif
