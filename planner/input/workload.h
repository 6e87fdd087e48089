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

/* A spread rule's domain (Kubernetes topologyKey): none, kubernetes.io/hostname, topology.kubernetes.io/zone. */
enum spread_kind { SPREAD_NONE, SPREAD_NODE, SPREAD_SITE };
const char *spread_name(enum spread_kind k);

/* Which PodDisruptionBudget field a workload gives: none, min_available, max_unavailable. */
enum avail_kind { AVAIL_NONE, AVAIL_MIN, AVAIL_MAX };

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
	/* spread (docs/formats.md, "Workload columns" of resilience): a topologySpreadConstraint */
	enum spread_kind spread;
	int max_skew;		/* >= 1 with a spread; 0 without */
	int schedule_anyway;	/* whenUnsatisfiable ScheduleAnyway (a preference); 0: DoNotSchedule */
	int min_domains;	/* >= 1; 1 when not given (as Kubernetes treats an unset minDomains) */
	/* availability: the replicas that keep running when any one domain is lost */
	enum avail_kind avail;
	long avail_value;	/* the count, or the percent */
	int avail_percent;	/* avail_value is a percent */
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

/*
 * The replicas that must keep running when one failure domain is lost
 * (min_available or max_unavailable of `replicas`, percentages rounded
 * up as the disruption controller does); -1 when w gives neither.
 */
long workload_need(const struct workload *w, long replicas);
/* The failure domain of w's availability rule: its spread's, else node. */
enum spread_kind workload_avail_domain(const struct workload *w);

int workloads_load(struct workloads *wl, const char *path, const struct catalog *cat,
		   struct diag *d);
void workloads_release(struct workloads *wl);
/* The hint after "unknown workload 'S'": the nearest names (str_hint_text, util.h); caller frees. */
char *workloads_hint(const struct workloads *wl, const char *s);

#endif
