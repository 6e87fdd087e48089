/*
 * catalog_load.c - loads gpus.yaml-format files into the GPU catalog.
 *
 * The schema is strict: unknown keys are errors, every count is an
 * integer in a sane range, MIG starts must lie inside the memory slices,
 * a MIG-backed vGPU profile must name an existing GPU-instance profile.
 * Ids and aliases are unique across all loaded files, case-insensitively;
 * MIG profile names and ids are unique within a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "hosting.h"
#include "models.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

static int name_taken(const struct catalog *cat, const char *name)
{
	return catalog_find(cat, name) != NULL;
}

static int as_int(long long v)
{
	return (int)v;
}

/*
 * assumed: true marks a usable memory that no capture gives; it needs
 * assumed_rule, the rule of the estimate (and the rule needs assumed).
 */
static int load_assumed(const struct yread *y, struct mig_profile *p)
{
	const char *rule = NULL;
	int assumed = 0;

	if (yread_bool(y, "assumed", 0, &assumed) < 0 || yread_nonblank(y, "assumed_rule", 0, &rule) < 0)
		return -1;
	if (assumed && !rule)
		return ydoc_error(y->doc, ymap_get(y->map, "assumed"), y->d,
				  "an assumed memory_mib of '%s' needs 'assumed_rule' (how it was estimated)", p->name);
	if (!assumed && rule)
		return ydoc_error(y->doc, ymap_get(y->map, "assumed_rule"), y->d,
				  "'assumed_rule' of '%s' needs 'assumed: true'", p->name);
	p->assumed = assumed;
	p->assumed_rule = rule ? xstrdup(rule) : NULL;
	return 0;
}

/* "unknown GPU-instance profile" with the nearest of g's MIG profile names. */
static int unknown_gi_profile(const struct ydoc *doc, const struct ynode *node, const struct gpu_type *g,
			      const char *gi, struct diag *d)
{
	const char *names[MIG_MAX_PROFILES + 1];
	const char *near[HINT_MAX];
	char *hint;
	size_t k;

	for (k = 0; k < g->mig.nprofiles && k < MIG_MAX_PROFILES; k++)
		names[k] = g->mig.profiles[k].name;
	names[k] = NULL;
	hint = str_hint_text(near, str_closest(gi, names, near));
	ydoc_error(doc, node, d, "unknown GPU-instance profile '%s' for '%s'%s", gi, g->id, hint);
	free(hint);
	return -1;
}

/* The allowed start slices of MIG profile p (its memory_slices set). */
static int load_mig_starts(const struct ydoc *doc, const struct ynode *n, const struct gpu_type *g,
			   struct mig_profile *p, struct diag *d)
{
	const struct ynode *starts = ymap_get(n, "starts");
	size_t i;

	if (!starts)
		return ydoc_error(doc, n, d, "missing field 'starts'");
	if (ynode_expect(doc, starts, YN_SEQ, "starts", d))
		return -1;
	if (starts->n == 0 || starts->n > MIG_MAX_SLICES)
		return ydoc_error(doc, starts, d, "'starts' must list 1 to %d positions", MIG_MAX_SLICES);
	for (i = 0; i < starts->n; i++) {
		const struct ynode *s = starts->items[i];
		long long x;
		int rc;
		if (s->type != YN_SCALAR)
			return ydoc_error(doc, s, d, "a start must be a number");
		rc = parse_llong(s->scalar, &x);
		if (rc)
			return ydoc_error(doc, s, d, "start '%s' %s", s->scalar, parse_num_strerror(rc));
		if (x < 0)
			return ydoc_error(doc, s, d, "start %lld of '%s' is negative", x, p->name);
		if (x + p->memory_slices > g->mig.memory_slices)
			return ydoc_error(doc, s, d,
					  "start %lld of '%s' (%d memory slice%s) runs past the GPU's %d "
					  "memory slice%s",
					  x, p->name, p->memory_slices, p->memory_slices == 1 ? "" : "s",
					  g->mig.memory_slices, g->mig.memory_slices == 1 ? "" : "s");
		if (i && x <= p->starts[i - 1])
			return ydoc_error(doc, s, d, "starts must be in ascending order");
		p->starts[i] = as_int(x);
	}
	p->nstarts = (int)starts->n;
	return 0;
}

/* p's name and id are not those of an earlier profile of g. */
static int check_profile_unique(const struct ydoc *doc, const struct ynode *n, const struct gpu_type *g,
				const struct mig_profile *p, struct diag *d)
{
	size_t i;

	if (catalog_mig_profile(g, p->name) >= 0)
		return ydoc_error(doc, n, d, "duplicate MIG profile '%s'", p->name);
	if (p->id >= 0)
		for (i = 0; i < g->mig.nprofiles; i++)
			if (g->mig.profiles[i].id == p->id)
				return ydoc_error(doc, ymap_get(n, "id"), d,
						  "MIG profile id %d of '%s' is already used by '%s'", p->id,
						  p->name, g->mig.profiles[i].name);
	return 0;
}

static int load_mig_profile(const struct ydoc *doc, const struct ynode *n, struct gpu_type *g,
			    struct mig_profile *p, struct diag *d)
{
	static const char *const keys[] = { "name",	     "id",	    "compute_slices", "memory_slices",
					    "memory_mib",    "max_instances", "starts",	      "media_ext",
					    "assumed",	     "assumed_rule",  "sms",	      NULL };
	const struct yread y = { doc, n, d };
	const char *name;
	long long v;
	int me = 0;

	if (ynode_expect(doc, n, YN_MAP, "profiles item", d) || ymap_check_keys(doc, n, keys, "MIG profile", d))
		return -1;
	if (yread_str(&y, "name", 1, &name))
		return -1;
	p->name = xstrdup(name);
	p->id = -1;
	if (yread_int(&y, "id", 0, 0, 1000, &v) < 0)
		return -1;
	else if (ymap_get(n, "id"))
		p->id = as_int(v);
	if (yread_int(&y, "compute_slices", 1, 1, g->mig.compute_slices, &v))
		return -1;
	p->compute_slices = as_int(v);
	if (yread_int(&y, "memory_slices", 1, 1, g->mig.memory_slices, &v))
		return -1;
	p->memory_slices = as_int(v);
	if (yread_int(&y, "sms", 0, 1, 100000, &v) < 0)
		return -1;
	p->sms = ymap_get(n, "sms") ? as_int(v) : 0;
	if (g->sms && p->sms > g->sms)
		return ydoc_error(doc, ymap_get(n, "sms"), d, "'%s' has %d SMs, more than the GPU's %d", name,
				  p->sms, g->sms);
	if (yread_int(&y, "memory_mib", 1, 1, g->memory_mib, &v))
		return -1;
	p->memory_mib = p->read_mib[0] = (long)v;
	p->nominal_mib = mig_name_nominal_mib(p->name);
	p->line = n->line;
	if (load_assumed(&y, p))
		return -1;
	if (yread_int(&y, "max_instances", 1, 1, g->mig.max_instances, &v))
		return -1;
	p->max_instances = as_int(v);
	if (yread_bool(&y, "media_ext", 0, &me) < 0)
		return -1;
	p->media_ext = me;
	return load_mig_starts(doc, n, g, p, d) || check_profile_unique(doc, n, g, p, d) ? -1 : 0;
}

/*
 * One entry of mig.reads: {driver, source, memory_mib: {profile: MiB}}, a
 * real read of the GPU's MIG memory besides the profile rows' (index r).
 */
static int load_mig_read(const struct ydoc *doc, const struct ynode *n, struct gpu_type *g, size_t r,
			 struct diag *d)
{
	static const char *const keys[] = { "driver", "source", "memory_mib", NULL };
	const struct yread y = { doc, n, d };
	const struct ynode *mem;
	const char *driver = NULL, *source;
	size_t i;

	if (ynode_expect(doc, n, YN_MAP, "reads item", d) || ymap_check_keys(doc, n, keys, "MIG memory read", d) ||
	    yread_nonblank(&y, "driver", 0, &driver) < 0 || yread_nonblank(&y, "source", 1, &source))
		return -1;
	if (driver && driver_branch(driver) < 0)
		return ydoc_error(doc, ymap_get(n, "driver"), d, "driver '%s' is not a driver version (580.95.05)",
				  driver);
	g->mig.reads[r].driver = driver ? xstrdup(driver) : NULL;
	g->mig.reads[r].source = xstrdup(source);
	g->mig.reads[r].line = n->line;
	mem = ymap_get(n, "memory_mib");
	if (!mem)
		return ydoc_error(doc, n, d, "missing field 'memory_mib'");
	if (ynode_expect(doc, mem, YN_MAP, "memory_mib", d))
		return -1;
	for (i = 0; i < mem->n; i++) {
		const struct ynode *v = mem->items[i];
		int k = catalog_mig_profile(g, mem->keys[i]);
		long long x;
		int rc;
		if (k < 0)
			return unknown_gi_profile(doc, v, g, mem->keys[i], d);
		if (v->type != YN_SCALAR)
			return ydoc_error(doc, v, d, "the memory of '%s' must be a number of MiB", mem->keys[i]);
		rc = parse_llong(v->scalar, &x);
		if (rc)
			return ydoc_error(doc, v, d, "memory_mib '%s' of '%s' %s", v->scalar, mem->keys[i],
					  parse_num_strerror(rc));
		if (x < 1 || x > g->memory_mib)
			return ydoc_error(doc, v, d, "memory_mib %lld of '%s' must be in [1, %ld]", x, mem->keys[i],
					  g->memory_mib);
		g->mig.profiles[k].read_mib[r] = (long)x;
	}
	return 0;
}

/*
 * The reads of g's MIG memory: the profile rows' (mig.memory_source,
 * mig.memory_driver) and the mig.reads list; each profile then plans with
 * the lowest figure (catalog_pick_mig_reads).
 */
static int load_mig_reads(const struct ydoc *doc, const struct ynode *n, struct gpu_type *g, struct diag *d)
{
	const struct yread y = { doc, n, d };
	const struct ynode *list = ymap_get(n, "reads");
	const char *src = NULL, *drv = NULL;
	size_t i;

	if (yread_nonblank(&y, "memory_source", 0, &src) < 0 || yread_nonblank(&y, "memory_driver", 0, &drv) < 0)
		return -1;
	if (drv && driver_branch(drv) < 0)
		return ydoc_error(doc, ymap_get(n, "memory_driver"), d,
				  "memory_driver '%s' is not a driver version (580.95.05)", drv);
	g->mig.nreads = 1;
	g->mig.reads[0].source = src ? xstrdup(src) : NULL;
	g->mig.reads[0].driver = drv ? xstrdup(drv) : NULL;
	g->mig.reads[0].line = n->line;
	if (!list)
		return 0;
	if (!src)
		return ydoc_error(doc, list, d, "'reads' needs 'memory_source' (the read the profile rows give)");
	if (ynode_expect(doc, list, YN_SEQ, "reads", d))
		return -1;
	if (list->n == 0 || list->n > MIG_MAX_READS - 1)
		return ydoc_error(doc, list, d, "'reads' must list 1 to %d reads", MIG_MAX_READS - 1);
	for (i = 0; i < list->n; i++) {
		g->mig.nreads = i + 2;
		if (load_mig_read(doc, list->items[i], g, i + 1, d))
			return -1;
	}
	return 0;
}

static int load_mig(const struct ydoc *doc, const struct ynode *n, struct gpu_type *g, struct diag *d)
{
	static const char *const keys[] = { "compute_slices", "memory_slices", "max_instances", "profiles",
					    "memory_source",  "memory_driver", "reads",		NULL };
	const struct yread y = { doc, n, d };
	const struct ynode *profiles;
	long long v;
	size_t i;

	if (ynode_expect(doc, n, YN_MAP, "mig", d) || ymap_check_keys(doc, n, keys, "mig", d))
		return -1;
	if (yread_int(&y, "compute_slices", 1, 1, 8, &v))
		return -1;
	g->mig.compute_slices = as_int(v);
	if (yread_int(&y, "memory_slices", 1, 1, MIG_MAX_SLICES, &v))
		return -1;
	g->mig.memory_slices = as_int(v);
	if (yread_int(&y, "max_instances", 1, 1, 8, &v))
		return -1;
	g->mig.max_instances = as_int(v);
	profiles = ymap_get(n, "profiles");
	if (!profiles)
		return ydoc_error(doc, n, d, "missing field 'profiles'");
	if (ynode_expect(doc, profiles, YN_SEQ, "profiles", d))
		return -1;
	if (profiles->n == 0 || profiles->n > MIG_MAX_PROFILES)
		return ydoc_error(doc, profiles, d, "'profiles' must list 1 to %d profiles", MIG_MAX_PROFILES);
	g->mig.profiles = xcalloc(profiles->n, sizeof(*g->mig.profiles));
	for (i = 0; i < profiles->n; i++) {
		int rc = load_mig_profile(doc, profiles->items[i], g, &g->mig.profiles[i], d);
		g->mig.nprofiles = i + 1;
		if (rc)
			return -1;
	}
	if (load_mig_reads(doc, n, g, d))
		return -1;
	g->has_mig = 1;
	return 0;
}

/* One time-sliced vGPU profile (vgpu.profiles item i) of g. */
static int load_vgpu_profile(const struct ydoc *doc, const struct ynode *p, struct gpu_type *g, size_t i,
			     struct diag *d)
{
	static const char *const keys[] = { "name", "framebuffer_mib", "max_equal", "max_mixed", NULL };
	const struct yread yp = { doc, p, d };
	struct vgpu_profile *vp = &g->vgpu.profiles[i];
	const char *name;
	long long v;
	size_t j;

	if (ynode_expect(doc, p, YN_MAP, "profiles item", d) || ymap_check_keys(doc, p, keys, "vGPU profile", d) ||
	    yread_str(&yp, "name", 1, &name))
		return -1;
	vp->name = xstrdup(name);
	for (j = 0; j < i; j++)
		if (!str_casecmp(g->vgpu.profiles[j].name, name))
			return ydoc_error(doc, p, d, "duplicate vGPU profile '%s'", name);
	if (yread_int(&yp, "framebuffer_mib", 1, 1, g->nominal_mib, &v))
		return -1;
	vp->framebuffer_mib = (long)v;
	if (yread_int(&yp, "max_equal", 1, 1, 64, &v))
		return -1;
	vp->max_equal = as_int(v);
	if (vp->framebuffer_mib * vp->max_equal > g->nominal_mib)
		return ydoc_error(doc, p, d, "%d x %ld MiB of '%s' exceed the GPU's %ld MiB", vp->max_equal,
				  vp->framebuffer_mib, name, g->nominal_mib);
	vp->max_mixed = 0;
	if (yread_int(&yp, "max_mixed", 0, 1, 64, &v) < 0)
		return -1;
	if (ymap_get(p, "max_mixed")) {
		if (!g->vgpu.mixed_size)
			return ydoc_error(doc, p, d, "'max_mixed' given but the GPU has mixed_size: false");
		vp->max_mixed = as_int(v);
	}
	return 0;
}

/* One MIG-backed vGPU profile (vgpu.mig_backed item i) of g. */
static int load_vgpu_mig(const struct ydoc *doc, const struct ynode *p, struct gpu_type *g, size_t i,
			 struct diag *d)
{
	static const char *const keys[] = { "name", "gi_profile", "max", NULL };
	const struct yread yp = { doc, p, d };
	struct vgpu_mig_profile *mp = &g->vgpu.mig_backed[i];
	const char *name, *gi;
	long long v;

	if (ynode_expect(doc, p, YN_MAP, "mig_backed item", d) ||
	    ymap_check_keys(doc, p, keys, "MIG-backed vGPU profile", d) || yread_str(&yp, "name", 1, &name))
		return -1;
	mp->name = xstrdup(name);
	if (yread_str(&yp, "gi_profile", 1, &gi))
		return -1;
	mp->gi_profile = xstrdup(gi);
	mp->gi_index = catalog_mig_profile(g, gi);
	if (mp->gi_index < 0)
		return unknown_gi_profile(doc, ymap_get(p, "gi_profile"), g, gi, d);
	if (yread_int(&yp, "max", 1, 1, 8, &v))
		return -1;
	mp->max = as_int(v);
	return 0;
}

static int load_vgpu(const struct ydoc *doc, const struct ynode *n, struct gpu_type *g, struct diag *d)
{
	static const char *const keys[] = { "mixed_size", "profiles", "mig_backed", NULL };
	const struct yread y = { doc, n, d };
	const struct ynode *list;
	size_t i;
	int mixed = 0;

	if (ynode_expect(doc, n, YN_MAP, "vgpu", d) || ymap_check_keys(doc, n, keys, "vgpu", d))
		return -1;
	if (yread_bool(&y, "mixed_size", 1, &mixed))
		return -1;
	g->vgpu.mixed_size = mixed;
	list = ymap_get(n, "profiles");
	if (list) {
		if (ynode_expect(doc, list, YN_SEQ, "profiles", d))
			return -1;
		g->vgpu.profiles = xcalloc(list->n, sizeof(*g->vgpu.profiles));
		for (i = 0; i < list->n; i++) {
			g->vgpu.nprofiles = i + 1;
			if (load_vgpu_profile(doc, list->items[i], g, i, d))
				return -1;
		}
	}
	list = ymap_get(n, "mig_backed");
	if (list) {
		if (!g->has_mig)
			return ydoc_error(doc, list, d, "'mig_backed' needs a 'mig' table before it");
		if (ynode_expect(doc, list, YN_SEQ, "mig_backed", d))
			return -1;
		g->vgpu.mig_backed = xcalloc(list->n, sizeof(*g->vgpu.mig_backed));
		for (i = 0; i < list->n; i++) {
			g->vgpu.nmig = i + 1;
			if (load_vgpu_mig(doc, list->items[i], g, i, d))
				return -1;
		}
	}
	g->has_vgpu = 1;
	return 0;
}

/*
 * The whole-GPU memory of g: memory_mib is what the driver reports
 * (nvidia-smi memory.total, GFD nvidia.com/gpu.memory), with its
 * memory_source and memory_driver; memory_nominal_mib is the data-sheet
 * size (default memory_mib).  A figure with no source, or marked
 * memory_assumed, is the nominal one and reports that rely on it say so.
 */
static int load_memory(const struct yread *y, struct gpu_type *g)
{
	const char *src = NULL, *drv = NULL;
	long long v;
	int assumed = 0;

	if (yread_int(y, "memory_mib", 1, 1, 16L * 1024 * 1024, &v))
		return -1;
	g->memory_mib = g->nominal_mib = (long)v;
	if (yread_int(y, "memory_nominal_mib", 0, 1, 16L * 1024 * 1024, &v) < 0)
		return -1;
	if (ymap_get(y->map, "memory_nominal_mib")) {
		if (v < g->memory_mib)
			return ydoc_error(y->doc, ymap_get(y->map, "memory_nominal_mib"), y->d,
					  "memory_nominal_mib %lld is less than the usable memory_mib %ld", v,
					  g->memory_mib);
		g->nominal_mib = (long)v;
	}
	if (yread_nonblank(y, "memory_source", 0, &src) < 0 || yread_nonblank(y, "memory_driver", 0, &drv) < 0 ||
	    yread_bool(y, "memory_assumed", 0, &assumed) < 0)
		return -1;
	if (assumed && drv)
		return ydoc_error(y->doc, ymap_get(y->map, "memory_driver"), y->d,
				  "'memory_driver' names a read, but memory_mib is marked 'memory_assumed'");
	if (assumed && g->nominal_mib != g->memory_mib)
		return ydoc_error(y->doc, ymap_get(y->map, "memory_assumed"), y->d,
				  "an assumed memory_mib is the nominal figure, memory_nominal_mib %ld differs",
				  g->nominal_mib);
	g->memory_assumed = assumed || !src;
	g->memory_source = src ? xstrdup(src) : NULL;
	g->memory_driver = drv ? xstrdup(drv) : NULL;
	return 0;
}

/*
 * The SM count of g with its sms_source; sms_assumed marks a GPU whose MIG
 * compute share is, for some profile, the slice fraction (no SM read).
 */
static int load_sms(const struct yread *y, struct gpu_type *g)
{
	const char *src = NULL;
	long long v;
	int assumed = 0;

	if (yread_int(y, "sms", 0, 1, 100000, &v) < 0)
		return -1;
	if (ymap_get(y->map, "sms"))
		g->sms = as_int(v);
	if (yread_nonblank(y, "sms_source", 0, &src) < 0 || yread_bool(y, "sms_assumed", 0, &assumed) < 0)
		return -1;
	if (src && !g->sms)
		return ydoc_error(y->doc, ymap_get(y->map, "sms_source"), y->d, "'sms_source' given but no 'sms'");
	g->sms_assumed = assumed;
	g->sms_source = src ? xstrdup(src) : NULL;
	return 0;
}

static int load_gpu(struct catalog *cat, const struct ydoc *doc, const struct ynode *n,
		    struct gpu_type *g, struct diag *d)
{
	static const char *const keys[] = { "id",	     "aliases",	      "memory_mib",  "memory_nominal_mib",
					    "memory_source", "memory_driver", "memory_assumed", "sms",
					    "sms_source",    "sms_assumed",   "tdp_w",	     "mig",
					    "vgpu",	     NULL };
	const struct yread y = { doc, n, d };
	const struct ynode *aliases, *mig, *vgpu;
	const char *id;
	long long v;
	size_t i;

	if (ynode_expect(doc, n, YN_MAP, "gpus item", d) || ymap_check_keys(doc, n, keys, "GPU type", d))
		return -1;
	if (yread_str(&y, "id", 1, &id))
		return -1;
	if (name_taken(cat, id))
		return ydoc_error(doc, ymap_get(n, "id"), d, "duplicate GPU type '%s'", id);
	g->id = xstrdup(id);
	aliases = ymap_get(n, "aliases");
	if (aliases) {
		if (ynode_expect(doc, aliases, YN_SEQ, "aliases", d))
			return -1;
		g->aliases = xcalloc(aliases->n, sizeof(*g->aliases));
		for (i = 0; i < aliases->n; i++) {
			const struct ynode *a = aliases->items[i];
			if (a->type != YN_SCALAR || !*a->scalar)
				return ydoc_error(doc, a, d, "an alias must be a non-empty name");
			if (name_taken(cat, a->scalar) || !str_casecmp(a->scalar, g->id))
				return ydoc_error(doc, a, d, "alias '%s' is already a GPU type or alias",
						  a->scalar);
			g->aliases[g->naliases++] = xstrdup(a->scalar);
		}
	}
	if (load_memory(&y, g) || load_sms(&y, g))
		return -1;
	if (yread_int(&y, "tdp_w", 0, 1, 100000, &v) < 0)
		return -1;
	else if (ymap_get(n, "tdp_w"))
		g->tdp_w = as_int(v);
	mig = ymap_get(n, "mig");
	if (mig && load_mig(doc, mig, g, d))
		return -1;
	vgpu = ymap_get(n, "vgpu");
	if (vgpu && load_vgpu(doc, vgpu, g, d))
		return -1;
	g->line = n->line;
	return 0;
}

/* The multi_vgpu rows (struct multi_vgpu), appended to cat. */
static int load_multi(struct catalog *cat, const struct ydoc *doc, const struct ynode *list, struct diag *d)
{
	static const char *const keys[] = { "hypervisor", "max_per_vm", "release", "source", "assumed", NULL };
	size_t i;

	if (ynode_expect(doc, list, YN_SEQ, "multi_vgpu", d))
		return -1;
	for (i = 0; i < list->n; i++) {
		const struct ynode *n = list->items[i];
		const struct yread y = { doc, n, d };
		const char *hv, *release, *source;
		struct multi_vgpu *mv;
		long long v;
		int assumed = 0, h;
		if (ynode_expect(doc, n, YN_MAP, "multi_vgpu item", d) ||
		    ymap_check_keys(doc, n, keys, "multi_vgpu row", d) || yread_str(&y, "hypervisor", 1, &hv) ||
		    yread_int(&y, "max_per_vm", 1, 1, 64, &v) || yread_nonblank(&y, "release", 1, &release) ||
		    yread_nonblank(&y, "source", 1, &source) || yread_bool(&y, "assumed", 0, &assumed) < 0)
			return -1;
		for (h = 0; hypervisor_names[h] && strcmp(hypervisor_names[h], hv); h++)
			;
		if (!hypervisor_names[h] || !hypervisor_is_vm_host((enum hypervisor)h))
			return ydoc_error(doc, n, d, "multi_vgpu: '%s' is not a hypervisor that runs vGPU (vsphere, kvm)",
					  hv);
		cat->multi = xrealloc(cat->multi, (cat->nmulti + 1) * sizeof(*cat->multi));
		mv = &cat->multi[cat->nmulti++];
		mv->hypervisor = xstrdup(hv);
		mv->max_per_vm = as_int(v);
		mv->release = xstrdup(release);
		mv->source = xstrdup(source);
		mv->assumed = assumed;
	}
	return 0;
}

int catalog_load(struct catalog *cat, const char *path, int user, struct diag *d)
{
	static const char *const keys[] = { "schema", "gpus", "multi_vgpu", NULL };
	struct ydoc doc = YDOC_INIT;
	const struct ynode *gpus;
	size_t i;
	int rc = -1;

	if (ydoc_load(&doc, path, d) || ydoc_check_root(&doc, "the GPU file", keys, "gpuplan-gpus/1", d))
		goto out;
	gpus = ymap_get(doc.root, "gpus");
	if (!gpus) {
		ydoc_error(&doc, doc.root, d, "missing field 'gpus'");
		goto out;
	}
	if (ynode_expect(&doc, gpus, YN_SEQ, "gpus", d))
		goto out;
	for (i = 0; i < gpus->n; i++) {
		struct gpu_type *g;
		XGROW(cat->gpus, cat->cap, cat->n + 1);
		g = &cat->gpus[cat->n];
		memset(g, 0, sizeof(*g));
		g->file = xstrdup(path);
		g->user = user;
		if (load_gpu(cat, &doc, gpus->items[i], g, d)) {
			gpu_type_release(g);
			memset(g, 0, sizeof(*g));
			goto out;
		}
		cat->n++;
	}
	catalog_pick_mig_reads(cat, NULL);
	if (ymap_get(doc.root, "multi_vgpu") && load_multi(cat, &doc, ymap_get(doc.root, "multi_vgpu"), d))
		goto out;
	rc = 0;
out:
	ydoc_release(&doc);
	return rc;
}
