/*
 * scenario.h - a scenario file and everything it binds together.
 *
 * scenario_load reads the scenario YAML, then the bundled GPU catalog
 * (models_dir/gpus.yaml), the scenario's own GPU files, the licence
 * model (models_dir/licenses.yaml), the cloud offers (models_dir/
 * clouds.yaml and the scenario's offer files), the inventory and the
 * workloads, all relative to the scenario's directory.  The
 * scenario owns them all; scenario_release frees everything.
 */
#ifndef PLANNER_SCENARIO_H
#define PLANNER_SCENARIO_H

#include <stddef.h>

#include "catalog.h"
#include "cloud.h"
#include "diag.h"
#include "inventory.h"
#include "license.h"
#include "period.h"
#include "workload.h"

/* The scenario's licensing choices (the `licensing:` block). */
struct scenario_licensing {
	enum lic_counting counting;	/* physical-gpu (default) or vgpu-seat */
	enum lic_product vgpu_product;	/* preferred product for vgpu/mig-vgpu; default nvaie */
	char *term;		/* on-prem term kind: "subscription" (default) or "perpetual" */
	char *cloud_term;	/* on cloud nodes: "auto" (default: the cheaper of the next two), "cloud-hourly"
				   (marketplace), "subscription", "perpetual" (bring your own) */
	int passthrough_vm_unlicensed;	/* VMs on passthrough GPUs run no NVAIE software (default 0: licensed) */
	double usd_per_gpu_year[LIC_COUNT];	/* flat price overrides; < 0: none */
	double support_usd_per_gpu_year;	/* perpetual support beyond its included years; < 0: none */
	char *source;		/* where the scenario's own prices come from */
	long line;		/* of the block, for messages */
	double lease_hours;	/* simulate: a seat stays leased this long after its last use; default 0 */
};

/* What a resilience: block asks to survive (docs/formats.md, "Scenario resilience:"). */
enum resil_kind { RESIL_GPU, RESIL_NODE, RESIL_SITE };

/*
 * The resilience: block: the plan keeps enough free capacity that after
 * losing any `count` domains of kind `survive` every replica of priority
 * >= priority_at_least can be placed again on what is left.
 */
struct scenario_resilience {
	int present;		/* the block is there */
	enum resil_kind survive;
	int count;		/* domains lost at once; default 1 (site: 1 only) */
	int priority_at_least;	/* default 1: every replica */
	int gpu_as_node;	/* survive gpu: a failed GPU takes its node out (drained) */
	/*
	 * preemption: lower-priority: after a failure a replica of priority
	 * >= priority_at_least may evict one of lower priority (Kubernetes'
	 * PreemptLowerPriority); 0 (none, the default): only free capacity
	 */
	int preempt;
	/*
	 * make_room: leave-out-lower-priority: where the headroom loop finds
	 * nothing else for a replica of priority >= priority_at_least, a
	 * replica below it is left unplaced in the plan and its slot kept
	 * free (docs/formulation.md, "Resilience"); 0 (none, the default):
	 * never
	 */
	int leave_out;
	long line;		/* of the block, for messages */
	long count_line, count_col;	/* of count's value (or the block's key when absent) */
	long prio_line, prio_col;	/* of priority_at_least's value (or the block's key) */
};

/* "gpu", "node" or "site". */
const char *resil_kind_name(enum resil_kind k);

/* What a hypervisor costs per node in use (the `hypervisors:` block). */
struct hypervisor_cost {
	double usd_per_node_year;
	double usd_per_core_year;
	char *source;
	long line;
};

/* sharing.operator_mig_strategy: unset lets each node's device-plugin config choose. */
enum { OPERATOR_MIG_UNSET, OPERATOR_MIG_SINGLE, OPERATOR_MIG_MIXED, OPERATOR_MIG_NONE };

struct scenario {
	char *file;		/* path as given */
	char *name;
	char *models_dir;	/* where gpus.yaml and licenses.yaml are read */
	char models_digest[32];	/* "fnv1a64:<16 hex>" of gpus.yaml, licenses.yaml and clouds.yaml as
				 * read; "" when they could not be read again */
	char *inventory_path;	/* resolved */
	char *workloads_path;	/* resolved */
	size_t ngpu_files;
	char **gpu_files;	/* resolved user GPU files */
	size_t noffer_files;
	char **offer_files;	/* resolved user cloud offer files */

	double horizon_years;	/* planning horizon; default 1 */
	double time_limit_s;	/* solver limit; default 30 */
	double mip_gap;		/* relative, a fraction: solver.gap_pct / 100 (or the older mip_gap); default 1e-4 */
	long node_limit;	/* branch-and-bound nodes; 0 = none (a deterministic limit) */
	int timeslice_max;	/* largest time-slice replica count k; default 8 */
	int mps_max;		/* largest MPS client count; default 8 */
	int timeslice_shares;	/* time-sliced GPUs may mix replicas of different compute shares */
	int mig_single;		/* MIG strategy single (1: a node's GPUs all one profile, exposed as
				 * nvidia.com/gpu) or mixed (0, default: per-profile resources) */
	int rename_by_default;	/* device plugin sharing: advertise <resource>.shared; default false */
	int operator_mig;	/* the GPU Operator's ClusterPolicy spec.mig.strategy, which overrides
				 * every device-plugin config's: OPERATOR_MIG_* (default unset) */
	int unplaced_by_gpus;	/* unplaced_weight: gpus (1: within a priority, an unplaced replica
				 * weighs the GPUs it asks) or replicas (0, default: each weighs 1) */
	int gpu_memory_nominal;	/* gpu_memory: nominal (1: whole-GPU memory is every type's data-sheet
				 * size, as before issue 61) or usable (0, default: as the driver reports it) */
	char *driver;		/* driver: the NVIDIA driver (branch "580" or version) whose MIG memory
				 * reads to plan with; NULL (default): each profile's lowest read */

	/* Energy; price 0 means energy is not priced. */
	double energy_usd_per_kwh;
	double pue;		/* default 1 */
	double gpu_load_factor;	/* share of TDP an active GPU draws; default 1 */
	double gpu_idle_factor;	/* share of TDP an idle GPU of a node in use draws; default 0 */
	char *energy_source;	/* where the energy figures come from */
	long energy_line;	/* of energy.usd_per_kwh's value; 0 when not given */

	struct scenario_licensing licensing;
	struct scenario_roadmap roadmap;	/* the roadmap: block (roadmap only; plan ignores it) */
	struct scenario_resilience resilience;	/* the resilience: block (plan) */
	struct hypervisor_cost hv_cost[HV_COUNT];

	struct catalog catalog;
	struct licenses licenses;	/* models_dir/licenses.yaml */
	struct clouds clouds;		/* models_dir/clouds.yaml and the scenario's offer files */
	struct inventory inventory;
	struct workloads workloads;
};

/*
 * Loads path.  models_dir overrides where the bundled models are read
 * (NULL: the scenario's `models:` field, else models_dir_or_default(NULL)).
 */
int scenario_load(struct scenario *sc, const char *path, const char *models_dir, struct diag *d);
/*
 * The models directory when the scenario names none: given (--models)
 * when not NULL; else $GPUPLAN_MODELS when set and non-empty; else the
 * installed models, <exe dir>/../share/gpuplan/models, when
 * models_dir_set_exe_dir was called and that directory holds gpus.yaml;
 * else the source tree's (the compile-time GPUPLAN_MODELS_DIR).
 */
const char *models_dir_or_default(const char *given);
/*
 * Where the running executable is (the cli reads it from /proc/self/exe;
 * the core reads no /proc), for the installed models lookup above.
 */
void models_dir_set_exe_dir(const char *exe_dir);
void scenario_release(struct scenario *sc);
/*
 * name as a file beside file: joined to file's directory, unless name is
 * absolute (how a scenario, and a sweep spec, name the files they use).
 * Caller frees.
 */
char *scenario_path_resolve(const char *file, const char *name);

/*
 * Why workload w can never be placed on any node of the inventory, or
 * NULL when some node class could host it.  The reason names the limit,
 * e.g. "asks 96 GiB of GPU memory, the largest allowed GPU has 79.65 GiB usable (81559 MiB)".
 * Caller frees.
 */
char *scenario_unhostable(const struct scenario *sc, const struct workload *w);

/*
 * Every site a workload that spreads by site may use must be a Kubernetes
 * label value, the zone label's (part of scenario_load): 0, or -1 with d
 * (DIAG_INPUT) at the first such site's field, "site 'dc 1' is not a
 * Kubernetes label value (workload 'chat' spreads by site; ...)".
 */
int scenario_site_labels_check(const struct scenario *sc, struct diag *d);
/*
 * Why w's spread or availability rule can never be kept, whatever a plan
 * buys or rents (scenario_rules.c), e.g. "min_available 3 by site keeps 3
 * replicas when a site is lost, and its sites allow 1 ('dc1')"; NULL when
 * some plan could keep it (capacity aside).  What validate refuses with
 * scenario_unhostable; plan warns and leaves the replicas unplaced.
 * Caller frees.
 */
char *scenario_rule_unkeepable(const struct scenario *sc, const struct workload *w);

/* True when node class nc is one of w's sites and gpu_types (none given: any). */
int scenario_class_allows(const struct node_class *nc, const struct workload *w);
/*
 * True when a node of class nc matches w's node selector as the planner
 * and Kubernetes count it: scenario_class_allows with sites compared in
 * any case (a spread's eligible nodes, the rules' domains).
 */
int scenario_class_selects(const struct node_class *nc, const struct workload *w);

/*
 * Where the demand asked exceeds the GPUs that could serve it, counting
 * a workload's GPU-equivalents (workload_gpu_equivalents x replicas) and
 * a class's count x GPUs per node (for classes to buy or rent, the most
 * one may take).  Checked overall (every workload against every class),
 * then for each set of node classes some workload is restricted to by
 * its gpu_types or sites, in workloads-file order: the workloads whose
 * classes all lie in that set against its GPUs.  Returns the number of
 * messages, one line each with the figures and no newline, in *msgs
 * (NULL when none; caller frees each and the array).
 */
size_t scenario_overasked(const struct scenario *sc, char ***msgs);

/*
 * The hint for a fractional workload w whose compute ask is above a MIG
 * profile's share (mig_profile_share) of a GPU it may run on by less than
 * `within` of that share (SCENARIO_HINT_WARN: a rounded fraction, warned
 * on stderr; SCENARIO_HINT_NEAR: listed in the plan and validate
 * summaries), so that it takes the next larger profile: one line naming
 * the profile, both figures and the fraction that gives exactly the share
 * ("write 16/132").  NULL when none.  Caller frees.
 */
#define SCENARIO_HINT_WARN 0.01
#define SCENARIO_HINT_NEAR 0.20
char *scenario_compute_hint(const struct scenario *sc, const struct workload *w, double within);
/*
 * The values of sc far outside what real deployments use (docs/formats.md,
 * "Plausible ranges"): a tariff, or a price per GPU-hour of a rented row or
 * of a user's cloud offer.  Each is a message "FILE:LINE: what, the range and
 * where it comes from", into *out (caller frees each and the array); the
 * count.  A warning, never an error: a value may be odd and right.  Also
 * scenario_resilience_warning's, first.
 */
size_t scenario_implausible(const struct scenario *sc, char ***out);

/*
 * The warning about the resilience: block, "FILE:LINE:COL: resilience
 * covers no workload: the highest priority is 3", or NULL.  Caller frees.
 */
char *scenario_resilience_warning(const struct scenario *sc);

#endif
