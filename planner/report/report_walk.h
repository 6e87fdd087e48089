/*
 * report_walk.h - what report.c and report_hosts.c share while they walk
 * a plan's nodes: the slots in order, the walk itself, and the streamed
 * rows of hosts.csv and nodes.csv.
 */
#ifndef PLANNER_REPORT_WALK_H
#define PLANNER_REPORT_WALK_H

#include <stdio.h>

#include "cplan.h"
#include "deploy.h"
#include "report_docs.h"
#include "util.h"

/*
 * The slots in (node, GPU, creation) order, and each slot's index within
 * its GPU for labels such as "ts4#2"; computed once for all reports.
 */
struct slot_order {
	size_t *sorted;		/* slot ids */
	int *index;		/* [slot id]: position within its GPU */
};

/* Where a walk of the nodes is: the plan, its slot order and its nodes' order. */
struct node_walk {
	const struct cplan *cp;
	const struct slot_order *so;
	size_t *ord;		/* node ids by class and ordinal */
	size_t *first;		/* [node]: its first position in so->sorted (nslots: none) */
	struct sb label;	/* scratch for a slot's label */
	struct sb name;		/* scratch for a node's name */
	struct deploy_nodes k8s;	/* the Kubernetes nodes, host by host */
	size_t *kfirst;		/* [host]: its first Kubernetes node in k8s (host + 1: past its last) */
};

/* Hands a streamed CSV's row(s) in sb to f (NULL: drops them), leaving sb empty. */
void report_drain(struct sb *sb, FILE *f);
/* report_drain, once sb holds enough bytes to be worth a write. */
void report_drain_some(struct sb *sb, FILE *f);

/* Host ni's row of hosts.csv and "hosts": the machine, its GPUs, use and cost. */
void report_host_row(struct docs *dc, const struct node_walk *w, size_t ni, const char *name);
/* Kubernetes node k of host ni: its row of nodes.csv and "nodes" (report_hosts.c). */
void report_k8s_row(struct docs *dc, const struct node_walk *w, size_t ni, size_t k, const char *host);

#endif
