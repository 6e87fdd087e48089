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

/*
 * Adds the deploy files of plan cp (its problem's scenario gives the MIG
 * strategy and renameByDefault) to os.  0, or -1 with d set (DIAG_INPUT,
 * naming the scenario file and the node) and nothing added.
 */
int deploy_build(const struct cplan *cp, struct outset *os, struct diag *d);

#endif
