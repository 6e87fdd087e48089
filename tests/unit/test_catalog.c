/*
 * test_catalog.c - the bundled GPU catalog (models/gpus.yaml): invariants
 * of every MIG and vGPU table, spot values from
 * the sources models/gpus.yaml cites (MIG user guide, AIE5 tables), the usable memory of MIG
 * profiles as `nvidia-smi mig -lgip` captures print it, and the loader's error messages on small
 * bad files (exact "FILE:LINE:COL: message" text).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "models.h"
#include "catalog.h"
#include "util.h"

/* ======================= invariants ======================= */

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static void check_mig_invariants(const struct gpu_type *g)
{
	const struct mig_info *m = &g->mig;
	int full = 0, me = 0, k;
	size_t i, j;

	CHECK(m->compute_slices >= 1 && m->compute_slices <= 8, "%s: compute_slices %d", g->id,
	      m->compute_slices);
	CHECK(m->memory_slices >= 1 && m->memory_slices <= MIG_MAX_SLICES, "%s: memory_slices %d", g->id,
	      m->memory_slices);
	CHECK(m->max_instances >= 1 && m->max_instances <= m->compute_slices, "%s: max_instances %d", g->id,
	      m->max_instances);
	CHECK(m->nprofiles >= 1, "%s: no MIG profiles", g->id);
	for (i = 0; i < m->nprofiles; i++) {
		const struct mig_profile *p = &m->profiles[i];
		CHECK(p->compute_slices >= 1 && p->compute_slices <= m->compute_slices, "%s %s: compute %d",
		      g->id, p->name, p->compute_slices);
		CHECK(p->memory_slices >= 1 && p->memory_slices <= m->memory_slices, "%s %s: memory slices %d",
		      g->id, p->name, p->memory_slices);
		CHECK(p->memory_mib >= 1 && p->memory_mib <= g->memory_mib, "%s %s: memory_mib %ld", g->id,
		      p->name, p->memory_mib);
		CHECK(p->max_instances >= 1 && p->max_instances <= m->max_instances, "%s %s: max %d", g->id,
		      p->name, p->max_instances);
		/* Instances of one profile never overlap, so they fit the memory slices. */
		CHECK(p->max_instances * p->memory_slices <= m->memory_slices, "%s %s: %d x %d slices > %d",
		      g->id, p->name, p->max_instances, p->memory_slices, m->memory_slices);
		CHECK(p->nstarts >= 1 && p->nstarts <= MIG_MAX_SLICES, "%s %s: nstarts %d", g->id, p->name,
		      p->nstarts);
		for (k = 0; k < p->nstarts; k++) {
			CHECK(p->starts[k] >= 0 && p->starts[k] + p->memory_slices <= m->memory_slices,
			      "%s %s: start %d outside the slices", g->id, p->name, p->starts[k]);
			CHECK(k == 0 || p->starts[k] > p->starts[k - 1], "%s %s: starts not ascending", g->id,
			      p->name);
		}
		CHECK(!p->media_ext == !ends_with(p->name, "+me"), "%s %s: media_ext %d disagrees with the name",
		      g->id, p->name, p->media_ext);
		if (p->media_ext) {
			me++;
			CHECK(p->max_instances == 1, "%s %s: a +me profile allows %d", g->id, p->name,
			      p->max_instances);
		}
		CHECK(p->id >= 0, "%s %s: no profile id", g->id, p->name);
		for (j = 0; j < i; j++) {
			CHECK(strcmp(m->profiles[j].name, p->name), "%s: profile %s twice", g->id, p->name);
			CHECK(m->profiles[j].id != p->id, "%s: profile id %d on %s and %s", g->id, p->id,
			      m->profiles[j].name, p->name);
		}
		if (p->compute_slices == m->compute_slices && p->memory_slices == m->memory_slices &&
		    p->nstarts == 1 && p->starts[0] == 0 && p->max_instances == 1)
			full++;
	}
	CHECK(full == 1, "%s: %d whole-GPU profiles, want 1", g->id, full);
	CHECK(me >= 1, "%s: no +me profile", g->id);
}

static void check_vgpu_invariants(const struct gpu_type *g)
{
	const struct vgpu_info *v = &g->vgpu;
	size_t i;

	for (i = 0; i < v->nprofiles; i++) {
		const struct vgpu_profile *p = &v->profiles[i];
		CHECK(p->framebuffer_mib * p->max_equal <= g->nominal_mib, "%s %s: %d x %ld MiB > %ld", g->id,
		      p->name, p->max_equal, p->framebuffer_mib, g->nominal_mib);
		CHECK(p->max_mixed <= p->max_equal, "%s %s: max_mixed %d > max_equal %d", g->id, p->name,
		      p->max_mixed, p->max_equal);
		CHECK(v->mixed_size || p->max_mixed == 0, "%s %s: max_mixed without mixed-size mode", g->id,
		      p->name);
		CHECK(ends_with(p->name, "C"), "%s %s: not a C-series name", g->id, p->name);
	}
	for (i = 0; i < v->nmig; i++) {
		const struct vgpu_mig_profile *p = &v->mig_backed[i];
		const struct mig_profile *gi;
		CHECK(g->has_mig, "%s %s: MIG-backed on a GPU without MIG", g->id, p->name);
		CHECK(p->gi_index >= 0 && (size_t)p->gi_index < g->mig.nprofiles, "%s %s: gi_index %d", g->id,
		      p->name, p->gi_index);
		if (!g->has_mig || p->gi_index < 0 || (size_t)p->gi_index >= g->mig.nprofiles)
			continue;
		gi = &g->mig.profiles[p->gi_index];
		CHECK_STR(gi->name, p->gi_profile, "%s %s: gi_index names another profile", g->id, p->name);
		CHECK(p->max >= 1 && p->max <= gi->max_instances, "%s %s: max %d > GI max %d", g->id, p->name,
		      p->max, gi->max_instances);
		CHECK(!gi->media_ext == !ends_with(p->name, "ME"), "%s %s: CME name vs +me GI %s", g->id,
		      p->name, gi->name);
	}
}

/* ======================= spot values ======================= */

static const struct {
	const char *gpu;	/* id or alias */
	const char *profile;
	int id, compute, memory, max;
	const char *starts;	/* comma-separated */
} mig_spots[] = {
	{ "A100-PCIE-40GB", "1g.5gb", 19, 1, 1, 7, "{0,1,2,3,4,5,6}" },
	{ "A100-PCIE-40GB", "1g.5gb+me", 20, 1, 1, 1, "{0,1,2,3,4,5,6}" },
	{ "A100-PCIE-40GB", "1g.10gb", 15, 1, 2, 4, "{0,2,4,6}" },
	{ "A100-PCIE-40GB", "2g.10gb", 14, 2, 2, 3, "{0,2,4}" },
	{ "A100-PCIE-40GB", "3g.20gb", 9, 3, 4, 2, "{0,4}" },
	{ "A100-PCIE-40GB", "4g.20gb", 5, 4, 4, 1, "{0}" },
	{ "A100-PCIE-40GB", "7g.40gb", 0, 7, 8, 1, "{0}" },
	{ "H100-NVL-94GB", "3g.47gb", 9, 3, 4, 2, "{0,4}" },
	{ "H100-NVL", "1g.24gb", 15, 1, 2, 4, "{0,2,4,6}" },
	{ "h100xm", "1g.10gb", 19, 1, 1, 7, "{0,1,2,3,4,5,6}" },
	{ "H100-SXM5-80GB", "7g.80gb", 0, 7, 8, 1, "{0}" },
	{ "A100D", "1g.20gb", 15, 1, 2, 4, "{0,2,4,6}" },
	{ "A30", "1g.6gb", 14, 1, 1, 4, "{0,1,2,3}" },
	{ "A30", "1g.6gb+me", 21, 1, 1, 1, "{0,1,2,3}" },
	{ "A30", "2g.12gb", 5, 2, 2, 2, "{0,2}" },
	{ "A30", "2g.12gb+me", 6, 2, 2, 1, "{0,2}" },
	{ "A30", "4g.24gb", 0, 4, 4, 1, "{0}" },
	{ "B200", "7g.180gb", 0, 7, 8, 1, "{0}" },
};

static const struct {
	const char *gpu;
	long memory_mib;
	int has_mig, compute_slices, memory_slices, max_instances, has_vgpu;
} gpu_spots[] = {
	{ "T4", 16384, 0, 0, 0, 0, 1 },
	{ "A30", 24576, 1, 4, 4, 4, 1 },
	{ "A100-PCIE-40GB", 40960, 1, 7, 8, 7, 1 },
	{ "H100-SXM5-80GB", 81920, 1, 7, 8, 7, 1 },
	{ "H100-NVL-94GB", 96256, 1, 7, 8, 7, 1 },
	{ "H200-SXM-141GB", 144384, 1, 7, 8, 7, 1 },
	{ "B200", 184320, 1, 7, 8, 7, 0 },
	{ "L40S", 49152, 0, 0, 0, 0, 1 },
	/* [MIGUG] supported-gpus: H100 on GH200 96GB, H20 96GB, GB200 186GB, 7 instances each */
	{ "GH200-96GB", 98304, 1, 7, 8, 7, 0 },
	{ "H20-SXM5-96GB", 98304, 1, 7, 8, 7, 1 },
	{ "GB200", 190464, 1, 7, 8, 7, 0 },
	/* [AIE6-VGPU] Tables 40, 43, 44: the whole-GPU type's frame buffer */
	{ "L20", 49152, 0, 0, 0, 0, 1 },
	{ "L2", 24576, 0, 0, 0, 0, 1 },
	{ "RTX-6000-Ada", 49152, 0, 0, 0, 0, 1 },
	/* [PARTED] 7g.269gb (0x3182); [AIE7-HOP] H100 SXM5 64GB: time-sliced types only here */
	{ "B300", 275456, 1, 7, 8, 7, 0 },
	{ "H100-SXM5-64GB", 65536, 0, 0, 0, 0, 1 },
	/* AWS g5's A10G: 24 GB (tsaol/aws-gpu gpu_instances_raw.json @2d0108c7 GPU_memory 24), no MIG, no vGPU */
	{ "A10G", 24576, 0, 0, 0, 0, 0 },
};

static const struct {
	const char *gpu;
	const char *name;
	long framebuffer_mib;
	int max_equal, max_mixed;
} vgpu_spots[] = {
	{ "T4", "T4-4C", 4096, 4, 0 },
	{ "H100-SXM5-80GB", "H100XM-16C", 16384, 5, 4 },
	{ "H100-NVL-94GB", "H100L-94C", 96246, 1, 1 },
	{ "A100-PCIE-40GB", "A100-4C", 4096, 10, 8 },
	/* [AIE7-HOP] Table 187 (H20 SXM5 96GB): 24C 4/2, 12C 8/4, 4C 24/8 */
	{ "H20-SXM5-96GB", "H20-24C", 24576, 4, 2 },
	{ "H20-SXM5-96GB", "H20-12C", 12288, 8, 4 },
	{ "H20-SXM5-96GB", "H20-4C", 4096, 24, 8 },
	/* [AIE7-HOP] Tables 165, 169, 177 */
	{ "H800-NVL-94GB", "H800L-6C", 6144, 15, 8 },
	{ "H800-SXM5-80GB", "H800XM-16C", 16384, 5, 4 },
	{ "H100-SXM5-94GB", "H100XL-15C", 15360, 6, 4 },
	/* [AIE6-VGPU] Tables 43, 44 (FB in MB) */
	{ "L2", "L2-8C", 8192, 3, 2 },
	{ "RTX-6000-Ada", "RTX 6000 Ada-4C", 4096, 12, 8 },
	/* [AIE6-VGPU] Tables 54, 60, 82; [AIE7-HOP] Table 183 */
	{ "A800-PCIE-80GB", "A800D-4C", 4096, 20, 16 },
	{ "A800-PCIE-40GB", "A800-8C", 8192, 5, 4 },
	{ "H800-NVL-94GB", "H800L-94C", 96246, 1, 1 },
	{ "H100-SXM5-64GB", "H100XS-16C", 16384, 4, 4 },
};

static const struct {
	const char *gpu;
	const char *name;
	const char *gi_profile;
	int max;
} mig_backed_spots[] = {
	{ "A100-PCIE-80GB", "A100D-1-20C", "1g.20gb", 4 },
	{ "A100-PCIE-40GB", "A100-1-10C", "1g.10gb", 4 },
	{ "A30", "A30-2-12CME", "2g.12gb+me", 1 },
	/* [AIE7-HOP] Tables 186, 166 */
	{ "H20-SXM5-96GB", "H20-1-24C", "1g.24gb", 4 },
	{ "H800-PCIE-80GB", "H800-1-10CME", "1g.10gb+me", 1 },
	{ "H100-NVL-94GB", "H100L-3-47C", "3g.47gb", 2 },
};

/* catalog_suggest against the bundled catalog: the ids given, '|' between; "" none. */
static const struct {
	const char *in;
	const char *want;
	size_t near;		/* types near (may exceed HINT_MAX) */
} suggests[] = {
	{ "H100-SMX5-80GB", "H100-SXM5-80GB", 1 },	/* transposition in an id */
	{ "H100-SXM5-80G", "H100-SXM5-80GB", 1 },	/* prefix of one type */
	{ "H100X", "H100-SXM5-80GB|H100-SXM5-94GB|H100-SXM5-64GB", 3 },	/* prefix of aliases H100XM/XL/XS: the ids */
	{ "h100x", "H100-SXM5-80GB|H100-SXM5-94GB|H100-SXM5-64GB", 3 },	/* case-insensitive */
	{ "SXM5-80", "H100-SXM5-80GB|H800-SXM5-80GB", 2 },	/* inside two types' names */
	{ "H200-NV", "H200-NVL-141GB", 1 },		/* prefix of an alias and an id of one type */
	{ "H100DX", "A100-SXM4-80GB", 1 },		/* 1 edit from alias A100DX */
	{ "H100", "H100-PCIE-80GB|H100-SXM5-80GB|H100-NVL-94GB", 6 },	/* prefix of 6 H100s (GH200 by alias H100-96GB): 3 shown */
	{ "A100", "A100-PCIE-40GB|A100-SXM4-40GB|A100-PCIE-80GB", 4 },	/* 4 A100s, not A10 (1 edit) */
	{ "NVL", "H100-NVL-94GB|H200-NVL-141GB|H800-NVL-94GB", 3 },	/* inside the NVL types */
	{ "L41", "L4|L40", 2 },			/* 1 edit each, in catalog order */
	{ "B400", "B200|B300", 2 },			/* 1 edit each */
	{ "Z9000", "", 0 },
	{ "ZZZ", "", 0 },
	{ "T", "T4", 1 },				/* too short for a substring; 1 edit */
	{ "H101-PCIE-80", "H100-PCIE-80GB", 1 },	/* 3 edits at 12 characters */
	{ "RTX-PRO-6000", "RTX-PRO-6000-BSE|RTX-PRO-6000-MAXQ", 2 },	/* prefix of two types */
	{ "MI300X-192GB", "", 0 },			/* nothing near */
	{ "H100-80GB", "H100-PCIE-80GB|H100-SXM5-80GB", 2 },	/* family and memory: not GH200 (alias H100-96GB, 2 edits) */
	{ "a100-80gb", "A100-PCIE-80GB|A100-SXM4-80GB", 2 },	/* the same, any case */
	{ "H100-SXM-80GB", "H100-SXM5-80GB", 1 },	/* a token that begins one of the type's */
	{ "H100-40GB", "H100-PCIE-80GB|H100-SXM5-80GB|H100-NVL-94GB", 6 },	/* no such memory: the family */
};

static void check_spots(const struct catalog *cat)
{
	size_t i, j;

	for (i = 0; i < sizeof(gpu_spots) / sizeof(gpu_spots[0]); i++) {
		const struct gpu_type *g = catalog_find(cat, gpu_spots[i].gpu);
		CHECK(g != NULL, "gpu spot row %zu: no %s", i, gpu_spots[i].gpu);
		if (!g)
			continue;
		CHECK(g->nominal_mib == gpu_spots[i].memory_mib, "gpu spot row %zu (%s): nominal memory %ld", i, g->id,
		      g->nominal_mib);
		CHECK(g->has_mig == gpu_spots[i].has_mig, "gpu spot row %zu (%s): has_mig", i, g->id);
		CHECK(g->has_vgpu == gpu_spots[i].has_vgpu, "gpu spot row %zu (%s): has_vgpu", i, g->id);
		if (g->has_mig)
			CHECK(g->mig.compute_slices == gpu_spots[i].compute_slices &&
				      g->mig.memory_slices == gpu_spots[i].memory_slices &&
				      g->mig.max_instances == gpu_spots[i].max_instances,
			      "gpu spot row %zu (%s): MIG %d/%d/%d", i, g->id, g->mig.compute_slices,
			      g->mig.memory_slices, g->mig.max_instances);
	}
	/* [AWS-GIST] nvidia-smi on g5: the A10G runs at 300 W, the A10 at 150 W (gpu-specs): two types */
	CHECK(catalog_find(cat, "A10G") && catalog_find(cat, "A10G")->tdp_w == 300 && catalog_find(cat, "A10") &&
		      catalog_find(cat, "A10")->tdp_w == 150,
	      "A10G 300 W, A10 150 W");
	/* PyTorch get_device_properties captures: H20 78 SMs, RTX 6000 Ada 142 SMs (and 300 W) */
	CHECK(catalog_find(cat, "H20-SXM5-96GB") && catalog_find(cat, "H20-SXM5-96GB")->sms == 78, "H20: 78 SMs");
	CHECK(catalog_find(cat, "RTX-6000-Ada") && catalog_find(cat, "RTX-6000-Ada")->sms == 142 &&
		      catalog_find(cat, "RTX-6000-Ada")->tdp_w == 300,
	      "RTX 6000 Ada: 142 SMs, 300 W");
	for (i = 0; i < sizeof(mig_spots) / sizeof(mig_spots[0]); i++) {
		const struct gpu_type *g = catalog_find(cat, mig_spots[i].gpu);
		const struct mig_profile *p;
		char *starts;
		int k;
		CHECK(g && g->has_mig, "mig spot row %zu: no MIG GPU %s", i, mig_spots[i].gpu);
		if (!g || !g->has_mig)
			continue;
		k = catalog_mig_profile(g, mig_spots[i].profile);
		CHECK(k >= 0, "mig spot row %zu: no %s on %s", i, mig_spots[i].profile, g->id);
		if (k < 0)
			continue;
		p = &g->mig.profiles[k];
		CHECK(p->id == mig_spots[i].id, "mig spot row %zu (%s %s): id %d", i, g->id, p->name, p->id);
		CHECK(p->compute_slices == mig_spots[i].compute, "mig spot row %zu (%s %s): compute %d", i,
		      g->id, p->name, p->compute_slices);
		CHECK(p->memory_slices == mig_spots[i].memory, "mig spot row %zu (%s %s): memory %d", i, g->id,
		      p->name, p->memory_slices);
		CHECK(p->max_instances == mig_spots[i].max, "mig spot row %zu (%s %s): max %d", i, g->id,
		      p->name, p->max_instances);
		starts = catalog_mig_starts(p);
		CHECK_STR(starts, mig_spots[i].starts, "mig spot row %zu (%s %s): starts", i, g->id, p->name);
		free(starts);
	}
	for (i = 0; i < sizeof(vgpu_spots) / sizeof(vgpu_spots[0]); i++) {
		const struct gpu_type *g = catalog_find(cat, vgpu_spots[i].gpu);
		const struct vgpu_profile *p = NULL;
		if (g)
			for (j = 0; j < g->vgpu.nprofiles; j++)
				if (!strcmp(g->vgpu.profiles[j].name, vgpu_spots[i].name))
					p = &g->vgpu.profiles[j];
		CHECK(p != NULL, "vgpu spot row %zu: no %s", i, vgpu_spots[i].name);
		if (!p)
			continue;
		CHECK(p->framebuffer_mib == vgpu_spots[i].framebuffer_mib && p->max_equal == vgpu_spots[i].max_equal &&
			      p->max_mixed == vgpu_spots[i].max_mixed,
		      "vgpu spot row %zu (%s): %ld %d %d", i, p->name, p->framebuffer_mib, p->max_equal,
		      p->max_mixed);
	}
	for (i = 0; i < sizeof(mig_backed_spots) / sizeof(mig_backed_spots[0]); i++) {
		const struct gpu_type *g = catalog_find(cat, mig_backed_spots[i].gpu);
		const struct vgpu_mig_profile *p = NULL;
		if (g)
			for (j = 0; j < g->vgpu.nmig; j++)
				if (!strcmp(g->vgpu.mig_backed[j].name, mig_backed_spots[i].name))
					p = &g->vgpu.mig_backed[j];
		CHECK(p != NULL, "mig-backed spot row %zu: no %s", i, mig_backed_spots[i].name);
		if (!p)
			continue;
		CHECK_STR(p->gi_profile, mig_backed_spots[i].gi_profile, "mig-backed spot row %zu (%s)", i, p->name);
		CHECK(p->max == mig_backed_spots[i].max, "mig-backed spot row %zu (%s): max %d", i, p->name, p->max);
	}
	CHECK(catalog_find(cat, "h100-sxm5") == catalog_find(cat, "H100-SXM5-80GB"), "alias lookup");
	CHECK(catalog_find(cat, "H100") == NULL, "bare H100 must not resolve");
	CHECK(catalog_mig_profile(catalog_find(cat, "A30"), "4G.24GB") == -1, "profile names are case-sensitive");
	for (i = 0; i < sizeof(suggests) / sizeof(suggests[0]); i++) {
		const char *out[HINT_MAX];
		size_t near = catalog_suggest(cat, suggests[i].in, out), k;
		struct sb sb;
		sb_init(&sb);
		for (k = 0; k < near && k < HINT_MAX; k++)
			sb_addf(&sb, "%s%s", k ? "|" : "", out[k]);
		CHECK_STR(sb.buf, suggests[i].want, "suggest row %zu '%s'", i, suggests[i].in);
		CHECK(near == suggests[i].near, "suggest row %zu '%s': %zu near", i, suggests[i].in, near);
		sb_release(&sb);
	}
}

/* ======================= loader errors ======================= */

#define HEAD "schema: gpuplan-gpus/1\ngpus:\n"
#define MIG8 "    mig:\n      compute_slices: 7\n      memory_slices: 8\n      max_instances: 7\n      profiles:\n"
#define PROF(s) "        - {name: 1g.10gb, id: 19, compute_slices: 1, memory_slices: 1, memory_mib: 1024, " \
		"max_instances: 7, starts: " s "}\n"

/*
 * Each text is written to a temporary file and loaded (after the
 * bundled catalog when bundled is set); want is the diag_format text
 * after "FILE:".
 */
static const struct {
	const char *what;
	int bundled;
	const char *text;
	const char *want;
} bad[] = {
	{ "unknown key with hint", 0, HEAD "  - id: X1\n    memory_mb: 1024\n",
	  "4:5: unknown field 'memory_mb' in GPU type (did you mean 'memory_mib'?)" },
	{ "unknown key without hint", 0, HEAD "  - id: X1\n    memory_mib: 1024\n    colour: red\n",
	  "5:5: unknown field 'colour' in GPU type" }, /* 14 fields: too many to list */
	{ "unknown top-level key", 0, "schema: gpuplan-gpus/1\ngpu: []\n",
	  "2:1: unknown field 'gpu' (did you mean 'gpus' or 'multi_vgpu'?)" },
	{ "missing key", 0, HEAD "  - id: X1\n    tdp_w: 100\n", "3:5: missing field 'memory_mib'" },
	{ "missing gpus", 0, "schema: gpuplan-gpus/1\n", "1:1: missing field 'gpus'" },
	{ "missing starts", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8
	       "        - {name: 7g, compute_slices: 7, memory_slices: 8, memory_mib: 8192, max_instances: 1}\n",
	  "10:11: missing field 'starts'" },
	{ "bad start", 0, HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0, 7, 8]"),
	  "10:123: start 8 of '1g.10gb' (1 memory slice) runs past the GPU's 8 memory slices" },
	{ "negative start", 0, HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[-1]"),
	  "10:117: start -1 of '1g.10gb' is negative" },
	{ "starts not ascending", 0, HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[2, 1]"),
	  "10:120: starts must be in ascending order" },
	{ "non-integer start", 0, HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0, x]"),
	  "10:120: start 'x' is not a number" },
	{ "duplicate MIG profile", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0]") PROF("[1]"),
	  "11:11: duplicate MIG profile '1g.10gb'" },
	{ "duplicate MIG profile id", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0]")
	       "        - {name: 1g.10gb+me, id: 19, compute_slices: 1, memory_slices: 1, memory_mib: 1024, "
	       "max_instances: 1, starts: [0]}\n",
	  "11:34: MIG profile id 19 of '1g.10gb+me' is already used by '1g.10gb'" },
	{ "two-slice start past the end", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8
	       "        - {name: 2g, compute_slices: 2, memory_slices: 2, memory_mib: 2048, max_instances: 3, "
	       "starts: [0, 7]}\n",
	  "10:107: start 7 of '2g' (2 memory slices) runs past the GPU's 8 memory slices" },
	{ "duplicate id", 1, HEAD "  - id: a30\n    memory_mib: 1024\n", "3:9: duplicate GPU type 'a30'" },
	{ "duplicate id in one file", 0,
	  HEAD "  - id: X1\n    memory_mib: 1024\n  - id: x1\n    memory_mib: 1024\n",
	  "5:9: duplicate GPU type 'x1'" },
	{ "duplicate alias", 1, HEAD "  - id: X1\n    aliases: [X1B, h100xm]\n    memory_mib: 1024\n",
	  "4:20: alias 'h100xm' is already a GPU type or alias" },
	{ "alias equal to own id", 0, HEAD "  - id: X1\n    aliases: [x1]\n    memory_mib: 1024\n",
	  "4:15: alias 'x1' is already a GPU type or alias" },
	{ "gi_profile unknown", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0]")
	       "    vgpu:\n      mixed_size: false\n      mig_backed:\n"
	       "        - {name: X1-1-1C, gi_profile: 1g.20gb, max: 1}\n",
	  "14:39: unknown GPU-instance profile '1g.20gb' for 'X1' (did you mean '1g.10gb'?)" },
	{ "mig_backed without mig", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n    vgpu:\n      mixed_size: false\n      mig_backed: []\n",
	  "7:19: 'mig_backed' needs a 'mig' table before it" },
	{ "max_mixed without mixed-size mode", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n    vgpu:\n      mixed_size: false\n      profiles:\n"
	       "        - {name: X1-4C, framebuffer_mib: 4096, max_equal: 2, max_mixed: 2}\n",
	  "8:11: 'max_mixed' given but the GPU has mixed_size: false" },
	{ "vGPU over the memory", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n    vgpu:\n      mixed_size: false\n      profiles:\n"
	       "        - {name: X1-4C, framebuffer_mib: 4096, max_equal: 3}\n",
	  "8:11: 3 x 4096 MiB of 'X1-4C' exceed the GPU's 8192 MiB" },
	{ "wrong schema", 0, "schema: gpuplan-gpus/2\ngpus: []\n",
	  "1:9: unsupported schema 'gpuplan-gpus/2' (this gpuplan reads gpuplan-gpus/1)" },
	{ "gpus not a list", 0, "schema: gpuplan-gpus/1\ngpus: {}\n", "2:7: 'gpus' must be a list, not a mapping" },
	{ "non-integer", 0, HEAD "  - id: X1\n    memory_mib: 10.5\n",
	  "4:17: field 'memory_mib': '10.5' is not a whole number" },
	{ "not a number", 0, HEAD "  - id: X1\n    memory_mib: lots\n",
	  "4:17: field 'memory_mib': 'lots' is not a number" },
	{ "negative", 0, HEAD "  - id: X1\n    memory_mib: 1024\n    tdp_w: -5\n",
	  "5:12: field 'tdp_w': -5 must be in [1, 100000]" },
	{ "profile over the GPU's compute", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8
	       "        - {name: 8g, compute_slices: 8, memory_slices: 8, memory_mib: 8192, max_instances: 1, starts: [0]}\n",
	  "10:38: field 'compute_slices': 8 must be in [1, 7]" },
	{ "nominal below usable", 0, HEAD "  - id: X1\n    memory_mib: 8192\n    memory_nominal_mib: 8000\n",
	  "5:25: memory_nominal_mib 8000 is less than the usable memory_mib 8192" },
	{ "driver of an assumed figure", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n    memory_assumed: true\n    memory_source: s\n"
	       "    memory_driver: \"590\"\n",
	  "7:20: 'memory_driver' names a read, but memory_mib is marked 'memory_assumed'" },
	{ "assumed but below nominal", 0,
	  HEAD "  - id: X1\n    memory_mib: 8000\n    memory_nominal_mib: 8192\n    memory_assumed: true\n",
	  "6:21: an assumed memory_mib is the nominal figure, memory_nominal_mib 8192 differs" },
	{ "sms_source without sms", 0, HEAD "  - id: X1\n    memory_mib: 8192\n    sms_source: s\n",
	  "5:17: 'sms_source' given but no 'sms'" },
	{ "bad boolean", 0,
	  HEAD "  - id: X1\n    memory_mib: 8192\n    vgpu:\n      mixed_size: maybe\n",
	  "6:19: field 'mixed_size': 'maybe' is not true or false" },
};

static char *write_temp(const char *text)
{
	char tmpl[] = "/tmp/gpuplan-test-catalog-XXXXXX";
	int fd = mkstemp(tmpl);
	size_t len = strlen(text);
	if (fd < 0)
		return NULL;
	if (write(fd, text, len) != (ssize_t)len) {
		close(fd);
		unlink(tmpl);
		return NULL;
	}
	close(fd);
	return xstrdup(tmpl);
}

static void check_errors(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct catalog cat = CATALOG_INIT;
		struct diag d = DIAG_INIT;
		char *path = write_temp(bad[i].text);
		char *got, *want;
		size_t n0 = 0;
		int rc;

		CHECK(path != NULL, "error row %zu (%s): cannot write a temporary file", i, bad[i].what);
		if (!path)
			continue;
		if (bad[i].bundled) {
			rc = catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d);
			CHECK(rc == 0, "error row %zu (%s): bundled catalog", i, bad[i].what);
			n0 = cat.n;
		}
		rc = catalog_load(&cat, path, 1, &d);
		got = diag_format(&d);
		want = xasprintf("%s:%s", path, bad[i].want);
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "error row %zu (%s): rc %d kind %d", i, bad[i].what, rc,
		      (int)d.kind);
		CHECK_STR(got, want, "error row %zu (%s)", i, bad[i].what);
		/* A failed file leaves the types loaded before it. */
		CHECK(cat.n >= n0, "error row %zu (%s): lost types", i, bad[i].what);
		free(got);
		free(want);
		catalog_release(&cat);
		diag_release(&d);
		unlink(path);
		free(path);
	}
}

/* ======================= usable MIG memory ======================= */

/*
 * What `nvidia-smi mig -lgip` prints for a profile, in GiB, and where the
 * capture is (the same tags as models/gpus.yaml).  The catalog stores the
 * printed GiB x 1024, rounded down to a whole MiB.
 */
struct lgip_row {
	const char *gpu, *profile, *gib;
	int assumed;		/* the catalog marks it an estimate */
};

static const struct lgip_row lgip_rows[] = {
	/* [LGIP-H100] stackhpc/ansible-slurm-appliance docs/mig.md @c0f587ab, H100 SXM5 80GB (10de:2330) */
	{ "H100-SXM5-80GB", "1g.10gb", "9.75", 0 },
	{ "H100-SXM5-80GB", "1g.10gb+me", "9.75", 0 },
	{ "H100-SXM5-80GB", "1g.20gb", "19.62", 0 },
	{ "H100-SXM5-80GB", "2g.20gb", "19.62", 0 },
	{ "H100-SXM5-80GB", "3g.40gb", "39.50", 0 },
	{ "H100-SXM5-80GB", "4g.40gb", "39.50", 0 },
	{ "H100-SXM5-80GB", "7g.80gb", "79.25", 0 },
	/* [LGIP-A100-40] harvester/pcidevices pkg/util/gpuhelper/mig_test.go @bdd80256, A100-PCIE-40GB */
	{ "A100-PCIE-40GB", "1g.5gb", "4.75", 0 },
	{ "A100-PCIE-40GB", "1g.5gb+me", "4.75", 0 },
	{ "A100-PCIE-40GB", "1g.10gb", "9.75", 0 },
	{ "A100-PCIE-40GB", "2g.10gb", "9.75", 0 },
	{ "A100-PCIE-40GB", "3g.20gb", "19.62", 0 },
	{ "A100-PCIE-40GB", "4g.20gb", "19.62", 0 },
	{ "A100-PCIE-40GB", "7g.40gb", "39.50", 0 },
	/* [LGIP-A100-80P] erhwenkuo/techlearn .../mig/mig-setup.md @8dedfd33, A100 80GB PCIe, driver 515.86.01 */
	{ "A100-PCIE-80GB", "1g.10gb", "9.50", 0 },
	{ "A100-PCIE-80GB", "1g.10gb+me", "9.50", 0 },
	{ "A100-PCIE-80GB", "1g.20gb", "19.50", 1 },	/* not listed by driver 515: as 2g.20gb */
	{ "A100-PCIE-80GB", "2g.20gb", "19.50", 0 },
	{ "A100-PCIE-80GB", "3g.40gb", "39.25", 0 },
	{ "A100-PCIE-80GB", "4g.40gb", "39.25", 0 },
	{ "A100-PCIE-80GB", "7g.80gb", "79.00", 0 },
	/* [LGIP-A30] Summer-Lo/Docker_configuration 000-MIG/README.md */
	{ "A30", "1g.6gb", "5.81", 0 },
	{ "A30", "1g.6gb+me", "5.81", 0 },
	{ "A30", "2g.12gb", "11.69", 0 },
	{ "A30", "2g.12gb+me", "11.69", 1 },	/* not in the capture: as 2g.12gb */
	{ "A30", "4g.24gb", "23.50", 0 },
	/* [LGIP-H200] github.com/NVIDIA/mig-parted/issues/120, 8x H200 */
	{ "H200-SXM-141GB", "1g.18gb", "16.00", 0 },
	{ "H200-SXM-141GB", "1g.18gb+me", "16.00", 0 },
	{ "H200-SXM-141GB", "1g.35gb", "32.25", 0 },
	{ "H200-SXM-141GB", "2g.35gb", "32.25", 0 },
	{ "H200-SXM-141GB", "3g.71gb", "69.50", 0 },
	{ "H200-SXM-141GB", "4g.71gb", "69.50", 0 },
	{ "H200-SXM-141GB", "7g.141gb", "139.75", 0 },
	/* [LGIP-H100NVL] NVIDIA/gpu-operator#900, NVIDIA/mig-parted#101 */
	{ "H100-NVL-94GB", "1g.12gb", "10.75", 0 },
	{ "H100-NVL-94GB", "1g.24gb", "21.62", 0 },
	{ "H100-NVL-94GB", "3g.47gb", "46.38", 0 },
	{ "H100-NVL-94GB", "7g.94gb", "93.12", 0 },
	/* [LGIP-H100NVL-SM] harvester/pcidevices mig_test.go @d3bcfe52: the other H100 NVL read */
	{ "H100-NVL-94GB", "1g.12gb", "10.62", 0 },
	{ "H100-NVL-94GB", "1g.24gb", "21.50", 0 },
	{ "H100-NVL-94GB", "3g.47gb", "46.12", 0 },
	{ "H100-NVL-94GB", "7g.94gb", "92.62", 0 },
	/* [LGIP-B200] NVIDIA/mig-parted#187; 3g/4g/7g estimated */
	{ "B200", "1g.23gb", "20.50", 0 },
	{ "B200", "2g.45gb", "44.25", 0 },
	{ "B200", "7g.180gb", "177.00", 1 },
	/* [LGIP-GH200] kf-cuanschutz/NVIDIA_Grace_Hopper_benchmarking_logs_ Daily_installs_loggings/
	 * Lessons_learned_from_the_slurm_MIG_installation.md @89867862, NVIDIA GH200 (H100 96GB) */
	{ "GH200-96GB", "1g.12gb", "11.00", 0 },
	{ "GH200-96GB", "1g.12gb+me", "11.00", 0 },
	{ "GH200-96GB", "1g.24gb", "23.00", 0 },
	{ "GH200-96GB", "2g.24gb", "23.00", 0 },
	{ "GH200-96GB", "3g.48gb", "46.50", 0 },
	{ "GH200-96GB", "4g.48gb", "46.50", 0 },
	{ "GH200-96GB", "7g.96gb", "93.00", 0 },
	/* the same 96 GB profile set ([PARTED] "H100-96GB, PG506-96GB, GH200, H20"): GH200's figures */
	{ "H20-SXM5-96GB", "1g.12gb", "11.00", 1 },
	{ "H20-SXM5-96GB", "7g.96gb", "93.00", 1 },
	/* [LGIP-GB200] NVIDIA/mig-parted#227 (GB200 NVL); 3g/4g/7g: the B200 figure, erring low */
	{ "GB200", "1g.23gb", "22.00", 0 },
	{ "GB200", "1g.23gb+me", "22.00", 0 },
	{ "GB200", "1g.47gb", "45.50", 0 },
	{ "GB200", "2g.47gb", "45.50", 0 },
	{ "GB200", "7g.186gb", "177.00", 1 },
	/* [LGIP-GH200-144] NVIDIA/mig-parted#139; 3g/4g/7g: the H200 figure */
	{ "GH200-144GB", "1g.18gb", "17.50", 0 },
	{ "GH200-144GB", "1g.36gb", "35.25", 0 },
	{ "GH200-144GB", "2g.36gb", "35.25", 0 },
	{ "GH200-144GB", "7g.144gb", "139.75", 1 },
	/* [LGIP-RTXPRO6000] cubecos#312 (1g, 2g); [LGIP-RTXPRO6000-4G] 4g.96gb, the lower of two */
	{ "RTX-PRO-6000-BSE", "1g.24gb", "23.12", 0 },
	{ "RTX-PRO-6000-BSE", "2g.48gb", "46.50", 0 },
	{ "RTX-PRO-6000-BSE", "4g.96gb", "95.00", 0 },
	/* [LGIP-MAXQ] pnj200522/GPU_MIG_TEST README.md @f751ae8b, driver 580.105.08 */
	{ "RTX-PRO-6000-MAXQ", "1g.24gb", "23.62", 0 },
	{ "RTX-PRO-6000-MAXQ", "2g.48gb", "47.38", 0 },
	{ "RTX-PRO-6000-MAXQ", "4g.96gb", "95.00", 0 },
	/* H800 80GB: the H100 80GB profile set; H100 SXM5 94GB: the H100 NVL one */
	{ "H800-SXM5-80GB", "1g.10gb", "9.75", 1 },
	{ "H100-SXM5-94GB", "3g.47gb", "46.12", 1 },
	/* A800 80GB: the A100 80GB PCIe figure; H20 141GB: the H200 one */
	{ "A800-PCIE-80GB", "1g.10gb", "9.50", 1 },
	{ "H20-SXM5-141GB", "7g.141gb", "139.75", 1 },
	/* no B300 capture: the name's GB x 1024 x 0.89 (B200 1g.23gb 20.50/23), whole MiB */
	{ "B300", "1g.34gb", "30.26", 1 },
	{ "B300", "7g.269gb", "239.41", 1 },
};

/* "9.75" GiB x 1024, rounded down: 9984 MiB (two decimals, as nvidia-smi prints). */
static long lgip_mib(const char *gib)
{
	const char *dot = strchr(gib, '.');
	long whole = atol(gib), hundredths = dot ? atol(dot + 1) : 0;
	return whole * 1024 + hundredths * 1024 / 100;
}

/* One of g's reads gives p mib (the catalog keeps each real read, issue 61). */
static int has_read(const struct gpu_type *g, const struct mig_profile *p, long mib)
{
	size_t r;
	for (r = 0; r < g->mig.nreads; r++)
		if (p->read_mib[r] == mib)
			return 1;
	return 0;
}

static void check_usable_memory(const struct catalog *cat)
{
	size_t i, j;

	CHECK(lgip_mib("9.75") == 9984 && lgip_mib("19.62") == 20090 && lgip_mib("5.81") == 5949,
	      "lgip_mib: %ld %ld %ld", lgip_mib("9.75"), lgip_mib("19.62"), lgip_mib("5.81"));
	for (i = 0; i < sizeof(lgip_rows) / sizeof(lgip_rows[0]); i++) {
		const struct lgip_row *r = &lgip_rows[i];
		const struct gpu_type *g = catalog_find(cat, r->gpu);
		int k = g ? catalog_mig_profile(g, r->profile) : -1;
		if (k < 0) {
			CHECK(0, "%s %s: not in the catalog", r->gpu, r->profile);
			continue;
		}
		CHECK(has_read(g, &g->mig.profiles[k], lgip_mib(r->gib)), "%s %s: no read of %ld MiB, lgip prints %s GiB",
		      r->gpu, r->profile, lgip_mib(r->gib), r->gib);
		CHECK(g->mig.profiles[k].assumed == r->assumed, "%s %s: assumed %d, want %d", r->gpu, r->profile,
		      g->mig.profiles[k].assumed, r->assumed);
	}
	/* every bundled profile: usable below the name's size; an estimate says how */
	for (i = 0; i < cat->n; i++)
		for (j = 0; j < cat->gpus[i].mig.nprofiles; j++) {
			const struct mig_profile *p = &cat->gpus[i].mig.profiles[j];
			CHECK(p->nominal_mib > 0 && p->memory_mib < p->nominal_mib, "%s %s: usable %ld, nominal %ld",
			      cat->gpus[i].id, p->name, p->memory_mib, p->nominal_mib);
			CHECK(!p->assumed == !p->assumed_rule, "%s %s: assumed %d without a rule", cat->gpus[i].id,
			      p->name, p->assumed);
		}
	CHECK(mig_name_nominal_mib("1g.10gb+me") == 10240 && mig_name_nominal_mib("7g.141gb") == 144384 &&
		      mig_name_nominal_mib("4g.96gb+gfx") == 98304 && mig_name_nominal_mib("big") == 0 &&
		      mig_name_nominal_mib("1g.x") == 0,
	      "mig_name_nominal_mib");
}

/* ======================= where the figures come from ======================= */

/* Whole-GPU memory as the driver reports it (models/gpus.yaml memory_source), spot rows. */
static const struct {
	const char *gpu;
	long mib, nominal;
	const char *driver; /* NULL: not stated */
} reads[] = {
	{ "H100-SXM5-80GB", 81559, 81920, "590.48.01" }, /* nvidia-smi memory.total; GFD gpu.memory */
	{ "H200-SXM-141GB", 143771, 144384, "590.48.01" },
	{ "L40S", 45776, 49152, NULL },
	{ "T4", 15109, 16384, NULL },
	{ "A100-PCIE-80GB", 81920, 81920, "515.86.01" },
	{ "RTX-PRO-6000-MAXQ", 97887, 98304, "580.105.08" },
};

/*
 * Every bundled type says where its memory comes from, usable at most the
 * nominal size, an assumed figure being the nominal one; every MIG type's
 * compute shares rest on SM counts with a source or are marked assumed
 * (issue 61: the test that fails when a MIG GPU has neither).
 */
static void check_sources(const struct catalog *cat)
{
	struct diag d = DIAG_INIT;
	size_t i;

	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		CHECK(g->memory_source != NULL, "%s: no memory_source", g->id);
		CHECK(g->memory_mib <= g->nominal_mib, "%s: usable %ld above nominal %ld", g->id, g->memory_mib,
		      g->nominal_mib);
		CHECK(!g->memory_assumed || (g->memory_mib == g->nominal_mib && !g->memory_driver),
		      "%s: an assumed memory that is not the nominal one", g->id);
		CHECK(!g->has_mig || g->sms_assumed || (g->sms && g->sms_source), "%s: MIG with no SM source and no assumed mark",
		      g->id);
	}
	CHECK(models_check_catalog(cat, &d) == 0, "models_check_catalog: %s", d.msg ? d.msg : "");
	diag_release(&d);
	for (i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		const struct gpu_type *g = catalog_find(cat, reads[i].gpu);
		CHECK(g && g->memory_mib == reads[i].mib && g->nominal_mib == reads[i].nominal && !g->memory_assumed &&
			      (reads[i].driver ? g->memory_driver && !strcmp(g->memory_driver, reads[i].driver)
					       : !g->memory_driver),
		      "%s: memory %ld / nominal %ld, want the read %ld / %ld", reads[i].gpu, g ? g->memory_mib : 0,
		      g ? g->nominal_mib : 0, reads[i].mib, reads[i].nominal);
	}
}

/* The memory of profile name of gpu, as planned. */
static long mig_mib(const struct catalog *cat, const char *gpu, const char *name)
{
	const struct gpu_type *g = catalog_find(cat, gpu);
	int k = g ? catalog_mig_profile(g, name) : -1;
	return k < 0 ? -1 : g->mig.profiles[k].memory_mib;
}

/*
 * MIG memory per driver (issue 61 item 2): each real read is kept; a
 * profile plans with the lowest unless a driver is named that a read is of.
 */
static void check_mig_reads(struct catalog *cat)
{
	const struct gpu_type *h100 = catalog_find(cat, "H100-SXM5-80GB"), *nvl = catalog_find(cat, "H100-NVL-94GB");
	static const struct {
		const char *driver;		/* catalog_pick_mig_reads's; NULL: none */
		long mib_2g20, mib_3g40, mib_4g40;	/* H100-SXM5-80GB 2g.20gb, 3g.40gb, 4g.40gb */
	} rows[] = {
		{ NULL, 20090, 40320, 40448 },		/* the lowest read of each */
		{ "550", 20096, 40320, 40448 },		/* GFD sample, driver 550.54.15; 4g: no 550 read */
		{ "550.54.15", 20096, 40320, 40448 },
		{ "580", 20090, 40320, 40448 },		/* no read of 580: the lowest */
	};
	size_t i;

	CHECK(driver_branch("580.95.05") == 580 && driver_branch("550") == 550 && driver_branch("x") == -1 &&
		      driver_branch("58a") == -1 && driver_branch(NULL) == -1 && driver_branch("") == -1,
	      "driver_branch");
	CHECK(h100 && h100->mig.nreads == 2 && h100->mig.reads[1].driver &&
		      !strcmp(h100->mig.reads[1].driver, "550.54.15") && !h100->mig.reads[0].driver,
	      "H100-SXM5-80GB: want the profile rows' read and the driver-550 GFD read");
	CHECK(nvl && nvl->mig.nreads == 2 && mig_mib(cat, "H100-NVL-94GB", "1g.12gb") == 10874 &&
		      mig_mib(cat, "H100-NVL-94GB", "7g.94gb") == 94842 &&
		      mig_profile_nfigures(nvl, &nvl->mig.profiles[catalog_mig_profile(nvl, "1g.12gb")]) == 2,
	      "H100-NVL-94GB: the lower of its two reads");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		catalog_pick_mig_reads(cat, rows[i].driver);
		CHECK(mig_mib(cat, "H100-SXM5-80GB", "2g.20gb") == rows[i].mib_2g20 &&
			      mig_mib(cat, "H100-SXM5-80GB", "3g.40gb") == rows[i].mib_3g40 &&
			      mig_mib(cat, "H100-SXM5-80GB", "4g.40gb") == rows[i].mib_4g40,
		      "driver %s: 2g.20gb %ld, 3g.40gb %ld, 4g.40gb %ld", rows[i].driver ? rows[i].driver : "none",
		      mig_mib(cat, "H100-SXM5-80GB", "2g.20gb"), mig_mib(cat, "H100-SXM5-80GB", "3g.40gb"),
		      mig_mib(cat, "H100-SXM5-80GB", "4g.40gb"));
	}
	catalog_pick_mig_reads(cat, NULL);
}

/* A user MIG type whose profiles have no SM counts, unmarked, fails models_check_catalog at its first profile. */
static void check_sm_mark_error(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	char *path = write_temp(HEAD "  - id: X1\n    memory_mib: 8192\n" MIG8 PROF("[0, 1, 2, 3, 4, 5, 6]"));
	char *want, *got;

	CHECK(path && catalog_load(&cat, path, 1, &d) == 0, "the unmarked MIG type loads");
	CHECK(models_check_catalog(&cat, &d) == -1, "models_check_catalog refuses it");
	got = diag_format(&d);
	want = xasprintf("%s:10: GPU 'X1': MIG profile '1g.10gb' has no SM count read (its compute share is "
			 "slices / 7) and the GPU no 'sms_assumed: true'", path ? path : "");
	CHECK_STR(got, want, "unmarked MIG type");
	free(got);
	free(want);
	catalog_release(&cat);
	diag_release(&d);
	if (path)
		unlink(path);
	free(path);
}

/* The multi-vGPU limits of models/gpus.yaml and the full-size profile a multi-vGPU VM takes. */
static void check_multi_vgpu(const struct catalog *cat)
{
	const struct multi_vgpu *vs = catalog_multi_vgpu(cat, "vsphere"), *kvm = catalog_multi_vgpu(cat, "kvm");
	const struct gpu_type *h100 = catalog_find(cat, "H100-SXM5-80GB"), *b200 = catalog_find(cat, "B200");

	CHECK(vs && vs->max_per_vm == 8 && !vs->assumed, "vsphere: want 8 vGPUs per VM, sourced");
	CHECK(vs && !strcmp(vs->release, "vSphere 8.0"), "vsphere: release '%s'", vs ? vs->release : "");
	CHECK(kvm && kvm->max_per_vm == 16 && kvm->assumed, "kvm: want 16 vGPUs per VM, assumed");
	CHECK(!catalog_multi_vgpu(cat, "baremetal"), "baremetal has a multi-vGPU rule");
	CHECK(h100 && catalog_full_vgpu(h100) >= 0 &&
		      !strcmp(h100->vgpu.profiles[catalog_full_vgpu(h100)].name, "H100XM-80C"),
	      "H100-SXM5-80GB: full-size vGPU profile is not H100XM-80C");
	CHECK(b200 && catalog_full_vgpu(b200) == -1, "B200 (no vGPU table) has a full-size vGPU profile");
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	size_t i, nmig = 0;

	if (catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d)) {
		char *msg = diag_format(&d);
		fprintf(stderr, "cannot load the catalog: %s\n", msg);
		free(msg);
		diag_release(&d);
		return 1;
	}
	CHECK(cat.n >= 18, "only %zu GPU types", cat.n);
	for (i = 0; i < cat.n; i++) {
		const struct gpu_type *g = &cat.gpus[i];
		CHECK(!g->user, "%s: bundled type marked user", g->id);
		CHECK(catalog_find(&cat, g->id) == g, "%s: not found by its id", g->id);
		if (g->has_mig) {
			nmig++;
			check_mig_invariants(g);
		}
		if (g->has_vgpu)
			check_vgpu_invariants(g);
	}
	CHECK(nmig >= 10, "only %zu MIG types", nmig);
	check_spots(&cat);
	check_usable_memory(&cat);
	check_multi_vgpu(&cat);
	check_sources(&cat);
	check_mig_reads(&cat);
	catalog_release(&cat);
	check_errors();
	check_sm_mark_error();
	return check_done();
}
