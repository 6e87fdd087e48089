/*
 * hosting.c - hypervisors and the GPU modes each allows.
 */
#include "hosting.h"
#include "banned.h"

const char *const hypervisor_names[] = { "vsphere", "kvm", "baremetal", "cloud", NULL };

const char *hypervisor_name(enum hypervisor h)
{
	return (unsigned)h < HV_COUNT ? hypervisor_names[h] : "?";
}

int hypervisor_is_vm_host(enum hypervisor h)
{
	return h == HV_VSPHERE || h == HV_KVM;
}

unsigned hypervisor_modes(enum hypervisor h)
{
	if (hypervisor_is_vm_host(h))
		return MODE_ALL;
	if ((unsigned)h < HV_COUNT)
		return MODE_BIT(MODE_PASSTHROUGH) | MODE_BIT(MODE_MIG) | MODE_BIT(MODE_TIMESLICE) |
		       MODE_BIT(MODE_MPS);
	return 0;
}
