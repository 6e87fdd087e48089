/*
 * workload.h - workloads from the workloads CSV.
 *
 * A row is one workload: `replicas` identical replicas.  The workloads
 * own their strings and arrays; gpu_types point into the catalog.
 */
#ifndef PLANNER_WORKLOAD_H
#define PLANNER_WORKLOAD_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"

enum isolation { ISO_NONE, ISO_MEMORY, ISO_HARDWARE, ISO_EXCLUSIVE, ISO_COUNT };
const char *isolation_name(enum isolation i);
/* The isolation a slot of this mode gives. */
enum isolation mode_isolation(enum gpu_mode m);

struct workload {
	char *name;		/* unique */
	char *tenant;
	long replicas;
	int gpus;		/* whole GPUs per replica; 0 = a fraction of one GPU */
	double gpu_mem_gib;	/* GPU memory per replica (per GPU when gpus >= 1; 0 = any) */
	double compute;		/* share of one GPU, (0, 1]; 1 when gpus >= 1 */
	enum isolation iso;
	int vm;			/* needs a VM boundary */
	double cpu_cores;	/* per replica */
	double ram_gib;		/* per replica */
	size_t ngpu_types;	/* 0 = any type */
	const struct gpu_type **gpu_types;
	unsigned modes;		/* allowed modes as MODE_BIT mask */
	size_t nsites;		/* 0 = any site */
	char **sites;
	int needs_nvaie;
	int priority;		/* >= 1; weights the penalty for leaving it unplaced */
	long line;
};

/* The cost split's row for capacity no tenant uses: no workload may name it as its tenant. */
#define WORKLOAD_IDLE_TENANT "(idle)"

struct workloads {
	char *file;
	size_t n;
	struct workload *w;
	long sites_col;		/* 1-based column of `sites` in the file, 0 if absent (for messages) */
};
#define WORKLOADS_INIT { NULL, 0, NULL, 0 }

/*
 * GPU-equivalents one replica of w asks: its whole GPUs, or its compute
 * share of one GPU.  What validate, compare and the cost per used
 * GPU-hour count.
 */
double workload_gpu_equivalents(const struct workload *w);

int workloads_load(struct workloads *wl, const char *path, const struct catalog *cat,
		   struct diag *d);
void workloads_release(struct workloads *wl);
/* The hint after "unknown workload 'S'": the nearest names (str_hint_text, util.h); caller frees. */
char *workloads_hint(const struct workloads *wl, const char *s);

#endif
