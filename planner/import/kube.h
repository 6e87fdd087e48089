/*
 * kube.h - what the parts of `import kubectl` share: the JSON documents
 * (kubectl_json.c), the nodes (kubectl_nodes.c), the pods
 * (kubectl_pods.c) and the writer (kubectl.c).
 */
#ifndef PLANNER_INPUT_KUBE_H
#define PLANNER_INPUT_KUBE_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"

struct cJSON;

/* One `kubectl get ... -o json` file: a v1 List whose items are all of one kind. */
struct kjson {
	const char *file;		/* path as given */
	char *text;			/* the bytes, NUL-terminated */
	size_t len;
	struct cJSON *root;
	const struct cJSON *items;	/* root.items, an array */
	long nitems;
};

/*
 * Reads path: a JSON object of kind List (or NodeList / PodList) with an
 * items array whose elements all have kind item_kind ("Node", "Pod").
 * role names the document in messages ("node list").
 */
int kjson_load(struct kjson *j, const char *path, const char *item_kind, const char *role, struct diag *d);
void kjson_release(struct kjson *j);
/*
 * An error at items[item] and then the member keys (NULL-ended; the
 * deepest one present is pointed at), or at the top with item < 0.
 */
int kjson_error(const struct kjson *j, struct diag *d, long item, const char *const *keys, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* One item of a list, for messages that point into it. */
struct kitem {
	const struct kjson *j;
	const struct cJSON *obj;	/* items[index] */
	long index;
	struct diag *d;
};
/* kjson_error at the item. */
int kitem_error(const struct kitem *it, const char *const *keys, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * The quantity at keys under the item (status.allocatable.cpu ...) in
 * [lo, hi] (cores or bytes); -1 with d set.
 */
int kitem_quantity(const struct kitem *it, const char *const *keys, double lo, double hi, double *out);

/* The line where each item of j starts (nitems of them, in order; caller frees), in one pass. */
long *kjson_item_lines(const struct kjson *j);

/* The string member key of obj, NULL when absent or not a string. */
const char *kjson_str(const struct cJSON *obj, const char *key);
/* obj.a.b... (NULL-ended keys): the member, NULL when a step is missing. */
const struct cJSON *kjson_path(const struct cJSON *obj, const char *const *keys);

/* How a node's GPUs are shared today. */
enum kmode { KM_PASSTHROUGH, KM_MIG, KM_TIMESLICE, KM_MPS };
const char *kmode_name(enum kmode m);

/* A MIG profile and how many instances of it a node has. */
struct kmig {
	const char *profile;	/* points into the JSON (label name) or the catalog */
	long count;
};

struct knode {
	const char *name;		/* metadata.name */
	const struct gpu_type *gpu;	/* catalog type */
	const char *product;		/* the nvidia.com/gpu.product label */
	long gpus;			/* physical GPUs */
	double cpu, ram_gib;		/* allocatable */
	const char *site;		/* zone, else region, else "default" */
	enum kmode mode;
	int replicas;			/* time-slice or MPS replicas per GPU; 1 otherwise */
	const char *strategy;		/* nvidia.com/mig.strategy, "" when absent */
	const char *mig_config;		/* nvidia.com/mig.config, "" when absent */
	struct kmig *mig;		/* MIG instances on the node (owned array) */
	size_t nmig;
	long item;			/* index in the node list */
	long line;			/* where the item starts in the node list */
	int cls;			/* inventory row, after grouping */
};

/*
 * The GPU nodes of the node list, sorted by name (nodes without the
 * nvidia.com/gpu.product label are counted in *cpu_only and left out).
 */
int knodes_read(const struct kjson *j, const struct catalog *cat, struct knode **out, size_t *n, long *cpu_only,
		struct diag *d);
void knodes_free(struct knode *nodes, size_t n);
/* The node called name (bsearch over the sorted nodes), or NULL. */
const struct knode *knodes_find(const struct knode *nodes, size_t n, const char *name);

/*
 * The spread a pod's workload row carries (kubectl_spread.c): the
 * strongest of its topology spread constraints and required
 * anti-affinity terms that select the pod itself over a domain gpuplan
 * plans.
 */
struct kspread {
	int key;		/* 0 none, 1 node (kubernetes.io/hostname), 2 site (topology.kubernetes.io/zone) */
	int max_skew;
	int anyway;		/* whenUnsatisfiable ScheduleAnyway */
	int min_domains;	/* 0: unset */
	int anti;		/* a required podAntiAffinity: one replica per domain */
};

/* One PodDisruptionBudget of a `kubectl get pdb -A -o json` list (policy/v1). */
struct kpdb {
	const char *ns, *name;		/* point into the JSON */
	const struct cJSON *selector;	/* spec.selector; NULL selects no pod */
	int max;			/* maxUnavailable; 0: minAvailable */
	long value;			/* the count, or the percent */
	int percent;
	long line;			/* where the item starts */
};

/* One pod with GPUs, as a workload row asks it. */
struct kpod {
	const char *name;		/* metadata.name */
	const struct cJSON *labels;	/* metadata.labels, NULL when none */
	struct kspread spread;
	int pdb;			/* index of the PDB that selects it, -1 when none */
	const char *ns;			/* metadata.namespace ("default" when absent) */
	char *owner;			/* controlling owner's name (ReplicaSet -> Deployment), else the pod's */
	const char *owner_kind;		/* "Deployment", "StatefulSet", "Job", ... or "Pod" */
	enum kmode mode;		/* as it runs (or would run) today */
	long gpus;			/* whole GPUs (passthrough), else 0 */
	const char *profile;		/* MIG profile (KM_MIG) */
	int replicas;			/* the node's time-slice/MPS replicas (shared modes) */
	double share;			/* GPU share asked in a shared mode: n / replicas */
	const struct gpu_type *gpu;	/* the type it runs on; NULL when pending anywhere */
	double cpu, ram_gib;		/* requests (else limits), summed over containers */
	long line;			/* where the item starts in the pod list */
};

/* What kpods_read found. */
struct kpods {
	struct kpod *v;		/* the GPU pods (kpods_free) */
	size_t n;
	long done;		/* pods skipped as finished (Succeeded, Failed) */
	long no_gpu;		/* pods that ask for no GPU */
	long dropped;		/* spread and anti-affinity rules not carried (kspread_read) */
};

/*
 * The pods of the pod list that ask for GPUs (nvidia.com/gpu,
 * nvidia.com/gpu.shared, nvidia.com/mig-<profile>), not finished, into
 * out->v; the rest are counted in out->done and out->no_gpu.
 */
int kpods_read(const struct kjson *j, const struct knode *nodes, size_t nn, const struct catalog *cat,
	       struct kpods *out, struct diag *d);
void kpods_free(struct kpod *pods, size_t n);

/* Whether the meta/v1 LabelSelector sel selects labels (NULL or not an object: no). */
int kselector_match(const struct cJSON *sel, const struct cJSON *labels);
/*
 * The pod's spread (of item it, in namespace ns) into out; each rule
 * found but not carried (another domain, a weaker rule, a selector that
 * does not select the pod) counted in *dropped.  0, or -1 with d set.
 */
int kspread_read(const struct kitem *it, const char *ns, struct kspread *out, long *dropped);
/* The PDBs of a PDB list (the array in *out, caller frees); 0, or -1 with d set. */
int kpdbs_read(const struct kjson *j, struct kpdb **out, size_t *n, struct diag *d);
/*
 * The index in v of the PDB that selects pod p (same namespace, its
 * selector matching the pod's labels), -1 when none, -2 with d set when
 * two do (at the second, in the PDB list j).
 */
int kpdb_of(const struct kjson *j, const struct kpdb *v, size_t n, const struct kpod *p, struct diag *d);

#endif
