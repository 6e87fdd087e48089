/*
 * gen.h - a seeded generator of synthetic fleets and workloads for the
 * benchmark (`gpuplan bench gen`).
 *
 * gen_generate builds an inventory CSV, a workloads CSV and a scenario
 * YAML in the current input formats (docs/formats.md) as text: node
 * classes of GPU types from the catalog (owned nodes on vsphere, kvm and
 * bare metal at several sites, rented cloud instances priced from the
 * skypilot-catalog v7/aws vms.csv @001367d2, as models/clouds.yaml), and workloads
 * of several tenants (fractional inference with memory/hardware
 * isolation, VM-only and NVAIE-licensed work, notebooks on shared GPUs,
 * whole-GPU serving, multi-GPU training), with CPU and RAM per replica.
 * The same size and seed give the same bytes on every machine: a
 * private splitmix64 generator, integer arithmetic for the counts and
 * locale-independent number formatting.
 *
 * Ownership: gen_out owns its strings; gen_out_release frees them.
 */
#ifndef PLANNER_GEN_H
#define PLANNER_GEN_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"

enum gen_size { GEN_S, GEN_M, GEN_L, GEN_XL, GEN_SIZE_COUNT };

/* What a size asks for. */
struct gen_spec {
	const char *name;	/* "S", "M", "L", "XL" */
	long gpus;		/* GPUs in the inventory (owned + the most one may rent) */
	long replicas;		/* replicas over all workloads */
	int classes;		/* node classes (inventory rows) */
	int workloads;		/* demand classes (workloads rows) */
	double load;		/* asked GPU-equivalents / GPUs, before slot rounding */
	double time_limit_s;	/* solver.time_limit_s written into the scenario */
};

/* The spec of a size. */
const struct gen_spec *gen_spec(enum gen_size s);
/* Parses "S", "M", "L", "XL" (case-insensitive); -1 when unknown. */
int gen_size_parse(const char *s);

struct gen_out {
	char *inventory;	/* inventory.csv */
	char *workloads;	/* workloads.csv */
	char *scenario;		/* scenario.yaml */
	long gpus, replicas;	/* as generated (equal to the spec) */
	int classes, nworkloads;
	double gpu_equiv;	/* asked GPU-equivalents: replicas x (gpus, or compute) */
};

/*
 * Generates a fleet and its workloads; load > 0 replaces the size's
 * default load (asked GPU-equivalents / GPUs).  cat must hold the bundled GPU
 * types the generator uses (it reads their memory); fails with d filled
 * (DIAG_INPUT) when one is missing.
 */
int gen_generate(enum gen_size size, unsigned long long seed, double load, const struct catalog *cat,
		 struct gen_out *out, struct diag *d);
void gen_out_release(struct gen_out *out);

#endif
