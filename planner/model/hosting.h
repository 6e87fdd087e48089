/*
 * hosting.h - where a node's GPUs run: the hypervisors and the GPU modes
 * each allows (vGPU and MIG-backed vGPU need a VM host).
 */
#ifndef PLANNER_HOSTING_H
#define PLANNER_HOSTING_H

#include "catalog.h"

enum hypervisor { HV_VSPHERE, HV_KVM, HV_BAREMETAL, HV_CLOUD, HV_COUNT };
const char *hypervisor_name(enum hypervisor h);
extern const char *const hypervisor_names[];	/* NULL-terminated, by enum */
/* True for vsphere and kvm: the hypervisors that can run vGPU. */
int hypervisor_is_vm_host(enum hypervisor h);
/* Bit mask of the modes a hypervisor allows. */
unsigned hypervisor_modes(enum hypervisor h);

#endif
