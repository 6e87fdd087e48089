/*
 * catalog.h - GPU types with their MIG and vGPU tables (models/gpus.yaml
 * and user files in the same format).
 *
 * The catalog owns every type and string; catalog_release frees all.
 * Pointers to gpu_type stay valid until then (the array is not resized
 * after loading finishes: load every file first, then take pointers).
 */
#ifndef PLANNER_CATALOG_H
#define PLANNER_CATALOG_H

#include <stddef.h>

#include "diag.h"

/* How a node exposes its GPUs; the order is the report order. */
enum gpu_mode {
	MODE_PASSTHROUGH,
	MODE_VGPU,
	MODE_MIG_VGPU,
	MODE_MIG,
	MODE_TIMESLICE,
	MODE_MPS,
	MODE_COUNT
};
#define MODE_BIT(m) (1u << (m))
#define MODE_ALL ((1u << MODE_COUNT) - 1)
const char *mode_name(enum gpu_mode m);
/* Parses a mode name (case-insensitive); -1 when unknown. */
int mode_parse(const char *s);
/* NULL-terminated list of mode names, for hints. */
extern const char *const mode_names[];

/*
 * The most memory slices of a MIG GPU: 12 on the RTX PRO 6000 Blackwell
 * (nvidia-smi mig -lgipp: {0,3,6,9}:3, {0,6}:6, {0}:12), 8 on A100/H100/
 * H200/B200, 4 on A30.  mig.c keeps a GPU's slices as bits of an unsigned.
 */
#define MIG_MAX_SLICES 12
#define MIG_MAX_PROFILES 16
#define MIG_MAX_READS 4		/* real reads of one GPU's MIG memory (the profile rows and 3 more) */

struct mig_profile {
	char *name;		/* e.g. "1g.10gb", "1g.10gb+me" */
	int id;			/* nvidia-smi / NVML GPU-instance profile id, unique per GPU; -1 unknown */
	int compute_slices;
	int memory_slices;
	int sms;		/* SMs nvidia-smi mig -lgip prints for it; 0 = unknown */
	long memory_mib;	/* usable, the figure planned with: read_mib[read_used] */
	long read_mib[MIG_MAX_READS]; /* its figure in each of the GPU's mig.reads; 0 = that read has none */
	int read_used;		/* the read memory_mib comes from (catalog_pick_mig_reads) */
	long nominal_mib;	/* the size in the name (1g.10gb: 10 x 1024); 0 if none */
	int assumed;		/* memory_mib is an estimate, not a capture */
	char *assumed_rule;	/* how it was estimated (assumed only), else NULL */
	long line;		/* where it is defined, in the type's file */
	int max_instances;
	int nstarts;
	int starts[MIG_MAX_SLICES]; /* allowed start memory slices, ascending */
	int media_ext;		/* a +me variant */
};

/*
 * One real read of a GPU's MIG instance memory (nvidia-smi mig -lgip, GFD
 * nvidia.com/mig-<profile>.memory labels): drivers differ by a few hundred
 * MiB, so the catalog keeps each read with its driver.
 */
struct mig_read {
	char *driver;		/* driver version of the read; NULL when the source does not state it */
	char *source;		/* document, version, date; NULL for the profile rows when no other read */
	long line;		/* where it is given, in the type's file */
};

struct mig_info {
	int compute_slices;	/* 7 on A100/H100/H200/B200, 4 on A30 and RTX PRO 6000 */
	int memory_slices;	/* 8, 4 on A30, 12 on RTX PRO 6000 Blackwell */
	int max_instances;
	size_t nprofiles;
	struct mig_profile *profiles; /* in file order (gpus.yaml: smallest first) */
	size_t nreads;		/* 1 (the profile rows' memory_mib) + the mig.reads list */
	struct mig_read reads[MIG_MAX_READS];
};

struct vgpu_profile {
	char *name;		/* e.g. "H100XM-20C" */
	long framebuffer_mib;
	int max_equal;		/* max per GPU in equal-size mode */
	int max_mixed;		/* max per GPU in mixed-size mode; 0 = not supported */
};

struct vgpu_mig_profile {
	char *name;		/* e.g. "H100XM-3-40C" */
	char *gi_profile;	/* e.g. "3g.40gb" */
	int gi_index;		/* index of gi_profile in mig.profiles */
	int max;
};

struct vgpu_info {
	int mixed_size;		/* the GPU supports mixed-size mode */
	size_t nprofiles;
	struct vgpu_profile *profiles;
	size_t nmig;
	struct vgpu_mig_profile *mig_backed;
};

struct gpu_type {
	char *id;		/* canonical id, e.g. "H100-SXM5-80GB" */
	size_t naliases;
	char **aliases;
	long memory_mib;	/* usable: memory.total as the driver reports it (or nominal_mib, assumed) */
	long nominal_mib;	/* the data-sheet size, GB x 1024 (memory_nominal_mib, else memory_mib) */
	int memory_assumed;	/* memory_mib is the nominal figure, not a driver read */
	char *memory_source;	/* document, version, date of memory_mib; NULL when the file gives none */
	char *memory_driver;	/* the driver version of the read; NULL when not stated */
	int sms;		/* 0 = unknown */
	int sms_assumed;	/* some MIG compute share is slices / compute slices, no SM read */
	char *sms_source;	/* document, version, date of sms; NULL when none */
	int tdp_w;		/* 0 = unknown */
	int has_mig;
	struct mig_info mig;
	int has_vgpu;
	struct vgpu_info vgpu;
	char *file;		/* where it was defined */
	long line;
	int user;		/* from a user file, not the bundled one */
};

/*
 * How many full-size (all-memory) vGPUs one VM may have on a hypervisor:
 * a multi-vGPU VM hosts a replica asking that many whole GPUs
 * (gpus.yaml `multi_vgpu`).
 */
struct multi_vgpu {
	char *hypervisor;	/* a hypervisor name (hosting.h): "vsphere", "kvm" */
	int max_per_vm;		/* most vGPUs one VM may have */
	char *release;		/* the hypervisor release the limit is of, e.g. "vSphere 8.0" */
	char *source;		/* document, version, date */
	int assumed;		/* no vendor table states it */
};

struct catalog {
	size_t n;
	struct gpu_type *gpus;
	size_t cap;
	size_t nmulti;
	struct multi_vgpu *multi;	/* in file order; a later row for a hypervisor wins */
};
#define CATALOG_INIT { 0, NULL, 0, 0, NULL }

/* Frees all the catalog's types; catalog_load (input/models.h) fills it. */
void catalog_release(struct catalog *cat);
/* Frees one type's strings and tables (for a loader's failed entry). */
void gpu_type_release(struct gpu_type *g);
/* By id or alias, ASCII case-insensitive; NULL if unknown. */
const struct gpu_type *catalog_find(const struct catalog *cat, const char *name);
/*
 * For an unknown name, the ids of the types it most likely means, as
 * str_closest (util.h) over every id and alias, a type ranked by its
 * nearest name, with GPU names' tokens on top: a prefix; a name holding
 * the name's '-'-tokens in order ("H100-80GB": H100-SXM5-80GB); the same
 * family (first token); only then the fewest edits.  Into
 * out[0..HINT_MAX-1], the count returned.  The strings are the types' ids
 * (never an alias), owned by the catalog.
 */
size_t catalog_suggest(const struct catalog *cat, const char *name, const char **out);
/* catalog_suggest as the hint after "unknown GPU type 'X'" (str_hint_text); caller frees. */
char *catalog_hint(const struct catalog *cat, const char *name);
/* The multi-vGPU rule of hypervisor hv (its name), the last one loaded; NULL when none. */
const struct multi_vgpu *catalog_multi_vgpu(const struct catalog *cat, const char *hv);
/*
 * The full-size vGPU profile of gpu (one per GPU, all its memory), the
 * profile a multi-vGPU VM takes on each GPU; -1 when it has none.
 */
int catalog_full_vgpu(const struct gpu_type *gpu);
/* Index of a MIG profile by name in gpu->mig, -1 if none. */
int catalog_mig_profile(const struct gpu_type *gpu, const char *name);
/*
 * The nominal memory in a MIG profile name, in MiB: the number before "gb"
 * after the first '.' times 1024 ("1g.10gb+me" gives 10240); 0 when the
 * name carries no size.
 */
long mig_name_nominal_mib(const char *name);
/* The allowed starts of a MIG profile as "{0,2,4,6}"; caller frees. */
char *catalog_mig_starts(const struct mig_profile *p);
/* The branch of a driver version, its leading number ("580.95.05": 580); -1 if it has none. */
long driver_branch(const char *version);
/*
 * Sets each MIG profile's memory_mib from its reads: with driver (a
 * version or branch, "580"), the figure of a read of that branch where one
 * gives the profile a figure, else (and with driver NULL) the lowest
 * figure of all its reads.  catalog_load applies it with NULL.
 */
void catalog_pick_mig_reads(struct catalog *cat, const char *driver);
/* How many different figures g's reads give p (1 when every read agrees). */
int mig_profile_nfigures(const struct gpu_type *g, const struct mig_profile *p);

#endif
