/*
 * gfd.h - NVIDIA product names as GPU Feature Discovery labels them
 * (nvidia.com/gpu.product) and nvidia-smi prints them (--query-gpu=name),
 * mapped to catalog GPU type ids: the one table of docs/formats.md
 * "Product names".
 *
 * GFD writes the NVML device name with spaces replaced by '-'
 * ("NVIDIA H100 80GB HBM3" -> "NVIDIA-H100-80GB-HBM3"); under the MIG
 * strategy `single` it appends "-MIG-<profile>", and with time-slicing
 * or MPS and renameByDefault false it appends "-SHARED".
 */
#ifndef PLANNER_GFD_H
#define PLANNER_GFD_H

#include <stddef.h>

/* What a product label says. */
struct gfd_product {
	const char *gpu_id;	/* catalog GPU type id; NULL when the base name is unknown */
	char base[128];		/* the label without the suffixes below */
	char mig_profile[32];	/* "-MIG-<profile>" suffix (strategy single), else "" */
	int shared;		/* the "-SHARED" suffix */
};

/*
 * Reads a product label (or an nvidia-smi name: spaces count as '-').
 * 0, or -1 when its base name is not in the table (p->gpu_id NULL).
 */
int gfd_product_parse(const char *label, struct gfd_product *p);

/*
 * "unknown GPU product 'X' (did you mean ...)" text for an unknown base
 * name, closest known labels first (str_hint).  Caller frees.
 */
char *gfd_product_hint(const char *base);

#endif
