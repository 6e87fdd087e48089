/*
 * test_mig.c - MIG geometry enumeration, names, parsing, layout checks.
 *
 * The expected maximal-geometry lists below were NOT produced by mig.c.
 * They come from a throwaway Python script that works differently: it
 * enumerates every subset of concrete (profile, start) placements from
 * the catalog's tables (itertools.combinations over all candidate
 * placements), keeps the subsets with no overlapping memory slice, at
 * most 7 compute slices, at most max_instances per profile and per GPU,
 * projects them to profile multisets, and keeps the multisets that no
 * single extra instance of any non-+me profile turns into another valid
 * multiset.  As a cross-check, the same script with the 2-slice 1g
 * profile removed reproduces the commonly quoted A100 figures (derived from the [MIGUG]
 * A100-40GB placement list)
 * for the A100: 12 maximal multisets, 19 maximal positional layouts, 37
 * non-empty valid multisets; and for the A30 it gives 5 maximal
 * positional layouts (2g.12gb+1g.6gb*2 has two).  Rows were also checked
 * by hand against the rules: e.g. 3g.40gb*2 takes all 8 memory slices
 * (starts 0 and 4), so nothing can be added, and 3g.40gb+2g.20gb+1g.10gb
 * is not maximal because 3g at 4, 2g at 0 and 1g at 2 and 3 fit.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "models.h"
#include "catalog.h"
#include "mig.h"

/* H100-SXM5-80GB (and every 7/8 GPU with the same table): 28 rows. */
static const char *const h100_maximal[] = {
	"7g.80gb",
	"4g.40gb+3g.40gb",
	"4g.40gb+2g.20gb+1g.20gb",
	"4g.40gb+2g.20gb+1g.10gb",
	"4g.40gb+1g.20gb*2",
	"4g.40gb+1g.20gb+1g.10gb*2",
	"4g.40gb+1g.10gb*3",
	"3g.40gb*2",
	"3g.40gb+2g.20gb*2",
	"3g.40gb+2g.20gb+1g.20gb",
	"3g.40gb+2g.20gb+1g.10gb*2",
	"3g.40gb+1g.20gb*2",
	"3g.40gb+1g.20gb+1g.10gb*2",
	"3g.40gb+1g.10gb*4",
	"2g.20gb*3+1g.20gb",
	"2g.20gb*3+1g.10gb",
	"2g.20gb*2+1g.20gb*2",
	"2g.20gb*2+1g.20gb+1g.10gb*2",
	"2g.20gb*2+1g.10gb*3",
	"2g.20gb+1g.20gb*3",
	"2g.20gb+1g.20gb*2+1g.10gb*2",
	"2g.20gb+1g.20gb+1g.10gb*4",
	"2g.20gb+1g.10gb*5",
	"1g.20gb*4",
	"1g.20gb*3+1g.10gb*2",
	"1g.20gb*2+1g.10gb*4",
	"1g.20gb+1g.10gb*6",
	"1g.10gb*7",
	NULL,
};

/* A100-PCIE-40GB: same shape, the 40GB names (1g.10gb is the 2-slice 1g). */
static const char *const a100_40_maximal[] = {
	"7g.40gb",
	"4g.20gb+3g.20gb",
	"4g.20gb+2g.10gb+1g.10gb",
	"4g.20gb+2g.10gb+1g.5gb",
	"4g.20gb+1g.10gb*2",
	"4g.20gb+1g.10gb+1g.5gb*2",
	"4g.20gb+1g.5gb*3",
	"3g.20gb*2",
	"3g.20gb+2g.10gb*2",
	"3g.20gb+2g.10gb+1g.10gb",
	"3g.20gb+2g.10gb+1g.5gb*2",
	"3g.20gb+1g.10gb*2",
	"3g.20gb+1g.10gb+1g.5gb*2",
	"3g.20gb+1g.5gb*4",
	"2g.10gb*3+1g.10gb",
	"2g.10gb*3+1g.5gb",
	"2g.10gb*2+1g.10gb*2",
	"2g.10gb*2+1g.10gb+1g.5gb*2",
	"2g.10gb*2+1g.5gb*3",
	"2g.10gb+1g.10gb*3",
	"2g.10gb+1g.10gb*2+1g.5gb*2",
	"2g.10gb+1g.10gb+1g.5gb*4",
	"2g.10gb+1g.5gb*5",
	"1g.10gb*4",
	"1g.10gb*3+1g.5gb*2",
	"1g.10gb*2+1g.5gb*4",
	"1g.10gb+1g.5gb*6",
	"1g.5gb*7",
	NULL,
};

/* A30: 4 compute / 4 memory slices. */
static const char *const a30_maximal[] = {
	"4g.24gb",
	"2g.12gb*2",
	"2g.12gb+1g.6gb*2",
	"1g.6gb*4",
	NULL,
};

/*
 * RTX PRO 6000 Blackwell as its real nvidia-smi mig -lgipp gives it: 12
 * memory slices, 1g {0,3,6,9}:3, 2g {0,6}:6, 4g {0}:12, 4 compute slices
 * (tests/cases/plan-mig-twelve-slices/gpus-rtx.yaml, imported from
 * tests/cases/import-smi-rtx-pro-6000): 41 rows, from the same kind of
 * script over its 8 non-+me profiles (+gfx and -me are plain profiles).
 */
static const char *const rtx_maximal[] = {
	"4g.96gb",
	"4g.96gb+gfx",
	"2g.48gb*2",
	"2g.48gb+2g.48gb+gfx",
	"2g.48gb+2g.48gb-me",
	"2g.48gb+1g.24gb*2",
	"2g.48gb+1g.24gb+1g.24gb+gfx",
	"2g.48gb+1g.24gb+1g.24gb-me",
	"2g.48gb+1g.24gb+gfx*2",
	"2g.48gb+1g.24gb+gfx+1g.24gb-me",
	"2g.48gb+1g.24gb-me*2",
	"2g.48gb+gfx*2",
	"2g.48gb+gfx+2g.48gb-me",
	"2g.48gb+gfx+1g.24gb*2",
	"2g.48gb+gfx+1g.24gb+1g.24gb+gfx",
	"2g.48gb+gfx+1g.24gb+1g.24gb-me",
	"2g.48gb+gfx+1g.24gb+gfx*2",
	"2g.48gb+gfx+1g.24gb+gfx+1g.24gb-me",
	"2g.48gb+gfx+1g.24gb-me*2",
	"2g.48gb-me*2",
	"2g.48gb-me+1g.24gb*2",
	"2g.48gb-me+1g.24gb+1g.24gb+gfx",
	"2g.48gb-me+1g.24gb+1g.24gb-me",
	"2g.48gb-me+1g.24gb+gfx*2",
	"2g.48gb-me+1g.24gb+gfx+1g.24gb-me",
	"2g.48gb-me+1g.24gb-me*2",
	"1g.24gb*4",
	"1g.24gb*3+1g.24gb+gfx",
	"1g.24gb*3+1g.24gb-me",
	"1g.24gb*2+1g.24gb+gfx*2",
	"1g.24gb*2+1g.24gb+gfx+1g.24gb-me",
	"1g.24gb*2+1g.24gb-me*2",
	"1g.24gb+1g.24gb+gfx*3",
	"1g.24gb+1g.24gb+gfx*2+1g.24gb-me",
	"1g.24gb+1g.24gb+gfx+1g.24gb-me*2",
	"1g.24gb+1g.24gb-me*3",
	"1g.24gb+gfx*4",
	"1g.24gb+gfx*3+1g.24gb-me",
	"1g.24gb+gfx*2+1g.24gb-me*2",
	"1g.24gb+gfx+1g.24gb-me*3",
	"1g.24gb-me*4",
	NULL,
};

static const struct {
	const char *gpu;
	const char *const *maximal;
	size_t nall;		/* non-empty valid multisets (same script) */
} lists[] = {
	{ "H100-SXM5-80GB", h100_maximal, 77 },
	{ "A100-PCIE-40GB", a100_40_maximal, 77 },
	{ "A30", a30_maximal, 9 },
	{ "A100-PCIE-80GB", h100_maximal, 77 },
	{ "H100-PCIE-80GB", h100_maximal, 77 },
	{ "RTX-PRO-6000-LGIPP", rtx_maximal, 72 },
};

/* Canonical placements (starts in geometry order). */
static const struct {
	const char *gpu;
	const char *name;
	int n;
	int start[MIG_MAX_INSTANCES];
} placements[] = {
	{ "H100-SXM5-80GB", "4g.40gb+3g.40gb", 2, { 0, 4 } },
	{ "H100-SXM5-80GB", "3g.40gb*2", 2, { 0, 4 } },
	{ "H100-SXM5-80GB", "7g.80gb", 1, { 0 } },
	{ "H100-SXM5-80GB", "2g.20gb*3+1g.10gb", 4, { 0, 2, 4, 6 } },
	{ "H100-SXM5-80GB", "3g.40gb+2g.20gb*2", 3, { 4, 0, 2 } },
	{ "H100-SXM5-80GB", "3g.40gb+2g.20gb+1g.10gb*2", 4, { 4, 0, 2, 3 } },
	{ "H100-SXM5-80GB", "1g.20gb*3+1g.10gb*2", 5, { 0, 2, 6, 4, 5 } },
	{ "H100-SXM5-80GB", "1g.10gb*7", 7, { 0, 1, 2, 3, 4, 5, 6 } },
	{ "A30", "2g.12gb+1g.6gb*2", 3, { 0, 2, 3 } },
	{ "RTX-PRO-6000-LGIPP", "1g.24gb*4", 4, { 0, 3, 6, 9 } },
	{ "RTX-PRO-6000-LGIPP", "1g.24gb-me+2g.48gb+1g.24gb", 3, { 0, 6, 9 } },
	{ "RTX-PRO-6000-LGIPP", "2g.48gb+gfx*2", 2, { 0, 6 } },
};

/* mig_geometry_parse: want is the canonical name (rc 0) or the reason. */
static const struct {
	const char *gpu;
	const char *in;
	int rc;
	const char *want;
} parses[] = {
	{ "H100-SXM5-80GB", "4g.40gb+3g.40gb", 0, "4g.40gb+3g.40gb" },
	{ "H100-SXM5-80GB", "3g.40gb+4g.40gb", 0, "4g.40gb+3g.40gb" },
	{ "H100-SXM5-80GB", "1g.10gb+2g.20gb+1g.10gb*2", 0, "2g.20gb+1g.10gb*3" },
	{ "H100-SXM5-80GB", "1g.10gb+me+1g.10gb*6", 0, "1g.10gb*6+1g.10gb+me" },
	{ "H100-SXM5-80GB", "3g.40gb+2g.20gb+1g.10gb", 0, "3g.40gb+2g.20gb+1g.10gb" },
	{ "H100-SXM5-80GB", "3g.40gb*2+1g.10gb", -1,
	  "3g.40gb*2+1g.10gb does not fit the 8 memory slices at the allowed starts" },
	{ "H100-SXM5-80GB", "1g.10gb+1g.20gb*2+4g.40gb", -1,
	  "4g.40gb+1g.20gb*2+1g.10gb does not fit the 8 memory slices at the allowed starts" },
	{ "H100-SXM5-80GB", "4g.40gb+2g.20gb*2", -1, "compute slices 8 > 7" },
	{ "H100-SXM5-80GB", "3g.40gb*3", -1, "3 x 3g.40gb > max 2" },
	{ "H100-SXM5-80GB", "4g.40gb+3g.40gb+1g.10gb", -1, "compute slices 8 > 7" },
	{ "H100-SXM5-80GB", "1g.10gb*8", -1, "8 x 1g.10gb > max 7" },
	{ "H100-SXM5-80GB", "1g.10gb+me*2", -1, "2 x 1g.10gb+me > max 1" },
	{ "H100-SXM5-80GB", "3g.20gb", -1, "unknown MIG profile '3g.20gb' for H100-SXM5-80GB (did you mean '3g.40gb'?)" },
	{ "H100-SXM5-80GB", "4G.40GB", -1, "unknown MIG profile '4G.40GB' for H100-SXM5-80GB (did you mean '4g.40gb'?)" },
	{ "H100-SXM5-80GB", "bogus*2", -1, "unknown MIG profile 'bogus' for H100-SXM5-80GB" },
	{ "H100-SXM5-80GB", "", -1, "empty MIG geometry" },
	{ "H100-SXM5-80GB", "4g.40gb+", -1, "missing profile name in '4g.40gb+'" },
	{ "H100-SXM5-80GB", "+4g.40gb", -1, "missing profile name in '+4g.40gb'" },
	{ "H100-SXM5-80GB", "1g.10gb*0", -1, "bad count after '1g.10gb*' in '1g.10gb*0' (1 to 8)" },
	{ "H100-SXM5-80GB", "1g.10gb*", -1, "bad count after '1g.10gb*' in '1g.10gb*' (1 to 8)" },
	{ "H100-SXM5-80GB", "1g.10gb*99", -1, "bad count after '1g.10gb*' in '1g.10gb*99' (1 to 8)" },
	{ "H100-SXM5-80GB", "1g.10gb*2x", -1, "unexpected 'x' in '1g.10gb*2x'" },
	{ "H100-SXM5-80GB", "1g.10gb*5+1g.10gb*4", -1, "'1g.10gb*5+1g.10gb*4' has more than 8 instances" },
	{ "A30", "2g.12gb+1g.6gb+me+1g.6gb", 0, "2g.12gb+1g.6gb+1g.6gb+me" },
	{ "A30", "2g.12gb+me+1g.6gb+me", -1, "more than one +me instance" },
	{ "A30", "2g.12gb*2+1g.6gb", -1, "compute slices 5 > 4" },
	{ "RTX-PRO-6000-LGIPP", "4g.96gb+1g.24gb", -1, "compute slices 5 > 4" },
	{ "RTX-PRO-6000-LGIPP", "1g.24gb*5", -1, "5 x 1g.24gb > max 4" },
	{ "RTX-PRO-6000-LGIPP", "1g.24gb+me+1g.24gb+me.all", -1, "more than one +me instance" },
	{ "T4", "1g.10gb", -1, "GPU type 'T4' has no MIG" },
};

#define L_MAX 8
/* mig_layout_check: profiles by name; want NULL means valid. */
static const struct {
	const char *gpu;
	int n;
	const char *profile[L_MAX];
	int start[L_MAX];
	const char *want;
} layouts[] = {
	{ "H100-SXM5-80GB", 0, { NULL }, { 0 }, NULL },
	{ "H100-SXM5-80GB", 2, { "3g.40gb", "4g.40gb" }, { 4, 0 }, NULL },
	{ "H100-SXM5-80GB", 4, { "1g.10gb+me", "2g.20gb", "3g.40gb", "1g.10gb" }, { 3, 0, 4, 2 }, NULL },
	{ "H100-SXM5-80GB", 2, { "7g.80gb", "1g.10gb" }, { 0, 6 }, "1g.10gb at slice 6 overlaps 7g.80gb at 0" },
	{ "H100-SXM5-80GB", 2, { "4g.40gb", "1g.20gb" }, { 0, 2 }, "1g.20gb at slice 2 overlaps 4g.40gb at 0" },
	{ "H100-SXM5-80GB", 2, { "4g.40gb", "3g.40gb" }, { 0, 1 }, "start 1 not allowed for 3g.40gb (starts {0,4})" },
	{ "H100-SXM5-80GB", 1, { "1g.10gb" }, { 7 }, "start 7 not allowed for 1g.10gb (starts {0,1,2,3,4,5,6})" },
	{ "H100-SXM5-80GB", 1, { "1g.20gb" }, { 1 }, "start 1 not allowed for 1g.20gb (starts {0,2,4,6})" },
	{ "H100-SXM5-80GB", 3, { "4g.40gb", "2g.20gb", "1g.20gb" }, { 0, 4, 6 }, NULL },
	{ "H100-SXM5-80GB", 4, { "4g.40gb", "2g.20gb", "1g.10gb", "1g.10gb" }, { 0, 4, 6, 0 },
	  "1g.10gb at slice 0 overlaps 4g.40gb at 0" },
	{ "H100-SXM5-80GB", 5, { "2g.20gb", "2g.20gb", "2g.20gb", "1g.10gb", "1g.10gb" }, { 0, 2, 4, 6, 6 },
	  "1g.10gb at slice 6 overlaps 1g.10gb at 6" },
	{ "H100-SXM5-80GB", 4, { "2g.20gb", "2g.20gb", "2g.20gb", "1g.20gb" }, { 0, 2, 4, 6 }, NULL },
	{ "H100-SXM5-80GB", 3, { "3g.40gb", "3g.40gb", "1g.10gb" }, { 0, 4, 0 },
	  "1g.10gb at slice 0 overlaps 3g.40gb at 0" },
	{ "H100-SXM5-80GB", 2, { "1g.10gb+me", "1g.10gb+me" }, { 0, 1 }, "2 x 1g.10gb+me > max 1" },
	{ "A30", 2, { "1g.6gb+me", "2g.12gb+me" }, { 0, 2 }, "more than one +me instance" },
	{ "A30", 3, { "2g.12gb", "2g.12gb", "1g.6gb" }, { 0, 2, 0 }, "1g.6gb at slice 0 overlaps 2g.12gb at 0" },
	{ "A30", 4, { "1g.6gb", "1g.6gb", "1g.6gb", "1g.6gb" }, { 0, 1, 2, 3 }, NULL },
	{ "A30", 1, { "4g.24gb" }, { 2 }, "start 2 not allowed for 4g.24gb (starts {0})" },
	{ "RTX-PRO-6000-LGIPP", 4, { "1g.24gb", "1g.24gb+gfx", "1g.24gb-me", "1g.24gb+me.all" }, { 9, 6, 3, 0 }, NULL },
	{ "RTX-PRO-6000-LGIPP", 2, { "2g.48gb", "1g.24gb" }, { 6, 9 }, "1g.24gb at slice 9 overlaps 2g.48gb at 6" },
	{ "RTX-PRO-6000-LGIPP", 1, { "1g.24gb" }, { 4 }, "start 4 not allowed for 1g.24gb (starts {0,3,6,9})" },
	{ "RTX-PRO-6000-LGIPP", 1, { "2g.48gb" }, { 3 }, "start 3 not allowed for 2g.48gb (starts {0,6})" },
};

/*
 * Limits the bundled catalog never makes binding (its starts already
 * stop them), checked on a hand-made GPU: 3 compute / 4 memory slices.
 */
static char syn_id[] = "SYN", syn_1g[] = "1g", syn_me[] = "1g+me";

static void check_synthetic(void)
{
	static const struct {
		int max_instances;	/* the GPU's */
		int max_1g;		/* profile 1g's */
		int n;
		int profile[4];
		const char *want;
	} rows[] = {
		{ 4, 4, 4, { 0, 0, 0, 0 }, "compute slices 4 > 3" },
		{ 2, 4, 3, { 0, 0, 0 }, "3 instances > max 2" },
		{ 4, 2, 3, { 0, 0, 0 }, "3 x 1g > max 2" },
		{ 4, 4, 3, { 0, 1, 1 }, "2 x 1g+me > max 1" },
		{ 4, 4, 3, { 0, 0, 1 }, NULL },
		{ 4, 4, 3, { 0, 0, 7 }, "instance 2: no MIG profile with index 7" },
		{ 4, 4, 9, { 0 }, "9 instances: a layout has 0 to 8" },
	};
	static const int start[MIG_MAX_INSTANCES + 1] = { 0, 1, 2, 3 };
	struct mig_profile p[2];
	struct gpu_type gpu;
	size_t i;

	memset(&gpu, 0, sizeof(gpu));
	memset(p, 0, sizeof(p));
	gpu.id = syn_id;
	gpu.has_mig = 1;
	gpu.mig.compute_slices = 3;
	gpu.mig.memory_slices = 4;
	gpu.mig.nprofiles = 2;
	gpu.mig.profiles = p;
	p[0].name = syn_1g;
	p[0].compute_slices = p[0].memory_slices = 1;
	p[0].nstarts = 4;
	p[0].starts[1] = 1;
	p[0].starts[2] = 2;
	p[0].starts[3] = 3;
	p[1] = p[0];
	p[1].name = syn_me;
	p[1].media_ext = 1;
	p[1].max_instances = 1;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int prof[MIG_MAX_INSTANCES + 1] = { 0 };
		char *why = NULL;
		int rc;
		memcpy(prof, rows[i].profile, sizeof(rows[i].profile));
		gpu.mig.max_instances = rows[i].max_instances;
		p[0].max_instances = rows[i].max_1g;
		rc = mig_layout_check(&gpu, rows[i].n, prof, start, &why);
		if (!rows[i].want) {
			CHECK(rc == 0, "synthetic row %zu: rejected: %s", i, why ? why : "");
		} else {
			CHECK(rc == -1, "synthetic row %zu: accepted", i);
			CHECK_STR(why, rows[i].want, "synthetic row %zu", i);
		}
		free(why);
	}
	CHECK(mig_layout_check(&gpu, 9, start, start, NULL) == -1, "synthetic: why NULL");
}

static int index_of(const struct gpu_type *gpu, const char *name)
{
	return catalog_mig_profile(gpu, name);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	size_t i, k;
	int rc;

	if (catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d)) {
		char *msg = diag_format(&d);
		fprintf(stderr, "cannot load the catalog: %s\n", msg);
		free(msg);
		diag_release(&d);
		return 1;
	}
	if (catalog_load(&cat, TEST_SRC_DIR "/tests/cases/plan-mig-twelve-slices/gpus-rtx.yaml", 1, &d)) {
		char *msg = diag_format(&d);
		fprintf(stderr, "cannot load the 12-slice GPU: %s\n", msg);
		free(msg);
		diag_release(&d);
		catalog_release(&cat);
		return 1;
	}

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const struct gpu_type *gpu = catalog_find(&cat, lists[i].gpu);
		struct mig_geometry *geo = NULL, *all = NULL;
		size_t n = 0, nall = 0, want = 0;

		CHECK(gpu != NULL, "list row %zu: no GPU %s", i, lists[i].gpu);
		if (!gpu)
			continue;
		while (lists[i].maximal[want])
			want++;
		rc = mig_geometries(gpu, &geo, &n);
		CHECK(rc == 0, "list row %zu (%s): mig_geometries rc %d", i, lists[i].gpu, rc);
		CHECK(n == want, "list row %zu (%s): %zu maximal geometries, want %zu", i, lists[i].gpu, n,
		      want);
		for (k = 0; k < n && k < want; k++) {
			char *name = mig_geometry_name(gpu, &geo[k]);
			char *why = NULL;
			struct mig_geometry back;
			CHECK_STR(name, lists[i].maximal[k], "list row %zu (%s) geometry %zu", i, lists[i].gpu, k);
			/* The canonical placement passes the independent check. */
			rc = mig_layout_check(gpu, geo[k].n, geo[k].profile, geo[k].start, &why);
			CHECK(rc == 0, "list row %zu (%s) geometry %s: layout check: %s", i, lists[i].gpu, name,
			      why ? why : "");
			free(why);
			/* The name parses back to the same geometry and placement. */
			rc = mig_geometry_parse(gpu, name, &back, &why);
			CHECK(rc == 0 && back.n == geo[k].n &&
				      !memcmp(back.profile, geo[k].profile, sizeof(back.profile[0]) * (size_t)back.n) &&
				      !memcmp(back.start, geo[k].start, sizeof(back.start[0]) * (size_t)back.n),
			      "list row %zu (%s) geometry %s: parse round trip: %s", i, lists[i].gpu, name,
			      why ? why : "");
			free(why);
			free(name);
		}
		rc = mig_geometries_all(gpu, &all, &nall);
		CHECK(rc == 0 && nall == lists[i].nall, "list row %zu (%s): %zu valid geometries, want %zu", i,
		      lists[i].gpu, nall, lists[i].nall);
		/* Strictly sorted, and every maximal geometry is in the full list. */
		for (k = 1; k < nall; k++) {
			char *a = mig_geometry_name(gpu, &all[k - 1]);
			char *b = mig_geometry_name(gpu, &all[k]);
			CHECK(strcmp(a, b) != 0, "list row %zu (%s): duplicate %s", i, lists[i].gpu, a);
			free(a);
			free(b);
		}
		for (k = 0; k < n; k++) {
			size_t j;
			for (j = 0; j < nall; j++)
				if (!memcmp(&all[j], &geo[k], sizeof(geo[k])))
					break;
			CHECK(j < nall, "list row %zu (%s): maximal %zu not in the full list", i, lists[i].gpu, k);
		}
		free(geo);
		free(all);
	}

	{
		const struct gpu_type *t4 = catalog_find(&cat, "T4");
		struct mig_geometry *geo = (struct mig_geometry *)1;
		size_t n = 99;
		rc = mig_geometries(t4, &geo, &n);
		CHECK(rc == -1 && geo == NULL && n == 0, "T4: mig_geometries rc %d n %zu", rc, n);
		rc = mig_geometries_all(t4, &geo, &n);
		CHECK(rc == -1 && geo == NULL && n == 0, "T4: mig_geometries_all rc %d n %zu", rc, n);
	}

	for (i = 0; i < sizeof(placements) / sizeof(placements[0]); i++) {
		const struct gpu_type *gpu = catalog_find(&cat, placements[i].gpu);
		struct mig_geometry g;
		char *why = NULL;
		rc = mig_geometry_parse(gpu, placements[i].name, &g, &why);
		CHECK(rc == 0, "placement row %zu (%s): %s", i, placements[i].name, why ? why : "");
		CHECK(rc || (g.n == placements[i].n &&
			     !memcmp(g.start, placements[i].start, sizeof(g.start[0]) * (size_t)g.n)),
		      "placement row %zu (%s): starts differ (first %d)", i, placements[i].name, g.start[0]);
		free(why);
	}

	for (i = 0; i < sizeof(parses) / sizeof(parses[0]); i++) {
		const struct gpu_type *gpu = catalog_find(&cat, parses[i].gpu);
		struct mig_geometry g;
		char *why = NULL;
		rc = mig_geometry_parse(gpu, parses[i].in, &g, &why);
		CHECK(rc == parses[i].rc, "parse row %zu '%s': rc %d (%s)", i, parses[i].in, rc, why ? why : "");
		if (rc == 0 && parses[i].rc == 0) {
			char *name = mig_geometry_name(gpu, &g);
			char *why2 = NULL;
			CHECK_STR(name, parses[i].want, "parse row %zu '%s'", i, parses[i].in);
			CHECK(!mig_layout_check(gpu, g.n, g.profile, g.start, &why2),
			      "parse row %zu '%s': placement fails the layout check: %s", i, parses[i].in,
			      why2 ? why2 : "");
			free(why2);
			free(name);
		} else if (rc) {
			CHECK_STR(why, parses[i].want, "parse row %zu '%s'", i, parses[i].in);
		}
		free(why);
	}
	{
		/* why may be NULL. */
		const struct gpu_type *gpu = catalog_find(&cat, "H100-SXM5-80GB");
		struct mig_geometry g;
		CHECK(mig_geometry_parse(gpu, "3g.40gb*2+1g.10gb", &g, NULL) == -1, "parse with why NULL");
	}

	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct gpu_type *gpu = catalog_find(&cat, layouts[i].gpu);
		int prof[L_MAX];
		char *why = NULL;
		int j;
		for (j = 0; j < layouts[i].n; j++) {
			prof[j] = index_of(gpu, layouts[i].profile[j]);
			CHECK(prof[j] >= 0, "layout row %zu: no profile %s", i, layouts[i].profile[j]);
		}
		rc = mig_layout_check(gpu, layouts[i].n, prof, layouts[i].start, &why);
		if (!layouts[i].want) {
			CHECK(rc == 0, "layout row %zu: rejected: %s", i, why ? why : "");
		} else {
			CHECK(rc == -1, "layout row %zu: accepted, want '%s'", i, layouts[i].want);
			CHECK_STR(why, layouts[i].want, "layout row %zu", i);
		}
		free(why);
	}

	check_synthetic();
	catalog_release(&cat);
	return check_done();
}
