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

/* True when s is a Kubernetes namespace name (RFC 1123 label: a-z, 0-9, '-', at most 63). */
int deploy_namespace_valid(const char *s);

#endif
