/*
 * test_import_smi.c - `import nvidia-smi` (smi.c): the real -lgip and -lgipp
 * captures of tests/cases/import-smi-h100 and import-smi-rtx-pro-6000
 * (SOURCES.txt there) give GPU entries that the catalog loader reads back
 * exactly as the bundled catalog's MIG entries; broken listings fail at
 * their line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tempfile.h"
#include "catalog.h"
#include "models.h"
#include "smi.h"
#include "util.h"
#include "banned.h"

#define CASE TEST_SRC_DIR "/tests/cases/import-smi-h100/"

/* s with the first `key` replaced by val (a new string). */
static char *subst(const char *s, const char *key, const char *val)
{
	const char *at = strstr(s, key);
	if (!at)
		return xstrdup(s);
	return xasprintf("%.*s%s%s", (int)(at - s), s, val, at + strlen(key));
}

/*
 * got's memory is one of want's reads (the catalog keeps every real read;
 * a capture gives one of them).
 */
static int one_read(const struct mig_profile *got, const struct mig_profile *want)
{
	int r;
	for (r = 0; r < MIG_MAX_READS; r++)
		if (want->read_mib[r] && want->read_mib[r] == got->memory_mib)
			return 1;
	return 0;
}

static void same_profile(const struct mig_profile *got, const struct mig_profile *want)
{
	int i;

	CHECK_STR(got->name, want->name, "profile name");
	CHECK(got->id == want->id && got->compute_slices == want->compute_slices &&
		      got->memory_slices == want->memory_slices && one_read(got, want) &&
		      got->max_instances == want->max_instances && got->media_ext == want->media_ext &&
		      got->nstarts == want->nstarts && got->assumed == want->assumed && got->sms == want->sms,
	      "profile %s: id %d/%d slices %d,%d/%d,%d mib %ld/%ld max %d/%d sms %d/%d", want->name, got->id, want->id,
	      got->compute_slices, got->memory_slices, want->compute_slices, want->memory_slices, got->memory_mib,
	      want->memory_mib, got->max_instances, want->max_instances, got->sms, want->sms);
	for (i = 0; i < want->nstarts && i < got->nstarts; i++)
		CHECK(got->starts[i] == want->starts[i], "profile %s start %d", want->name, i);
}

/* The import's profile named name, or NULL. */
static const struct mig_profile *find_profile(const struct gpu_type *g, const char *name)
{
	size_t i;
	for (i = 0; i < g->mig.nprofiles; i++)
		if (!strcmp(g->mig.profiles[i].name, name))
			return &g->mig.profiles[i];
	return NULL;
}

/* A variant the catalog leaves out on purpose (graphics, all or no media engines). */
static int unmodelled_variant(const char *name)
{
	return strstr(name, "+gfx") || strstr(name, "+me.all") || strstr(name, "-me");
}

/*
 * Every real -lgip / -lgipp capture in the tests of a GPU the catalog has
 * with MIG (issue 61): the import equals the catalog's entry field for
 * field.  The import may hold more profiles only where they are variants
 * the catalog's comment says it does not model.
 */
static const struct {
	const char *dir;	/* tests/cases/<dir>/lgip.txt and lgipp.txt */
	const char *gpu;	/* the catalog's type */
	size_t nprofiles;	/* the import's profiles */
	int sms_whole;		/* SMs of the largest profile */
} captures[] = {
	{ "import-smi-h100", "H100-SXM5-80GB", 7, 132 },
	{ "import-smi-rtx-pro-6000", "RTX-PRO-6000-BSE", 11, 188 },
};

static void test_capture(size_t c)
{
	struct catalog bundled = CATALOG_INIT, frag = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	struct smi_mig m;
	const struct gpu_type *want, *got;
	char *yaml, *path, *lgip, *lgipp;
	size_t i;

	lgip = xasprintf(TEST_SRC_DIR "/tests/cases/%s/lgip.txt", captures[c].dir);
	lgipp = xasprintf(TEST_SRC_DIR "/tests/cases/%s/lgipp.txt", captures[c].dir);
	CHECK(!catalog_load(&bundled, TEST_SRC_DIR "/models/gpus.yaml", 0, &d), "bundled catalog");
	CHECK(!smi_mig_read(&m, lgip, lgipp, &d), "%s: read the listings", captures[c].dir);
	if (d.kind) {
		diag_release(&d);
		catalog_release(&bundled);
		free(lgip);
		free(lgipp);
		return;
	}
	CHECK(m.n == captures[c].nprofiles && m.gpu == 0 && m.p[m.n - 1].sms == captures[c].sms_whole,
	      "%s: %zu profiles of GPU 0, SMs kept", captures[c].dir, m.n);
	yaml = smi_mig_yaml(&m, "GPU-FROM-SMI");
	path = write_temp(yaml);
	CHECK(path && !catalog_load(&frag, path, 1, &d), "%s: the fragment loads", captures[c].dir);
	want = catalog_find(&bundled, captures[c].gpu);
	got = catalog_find(&frag, "GPU-FROM-SMI");
	CHECK(want && got, "%s: both types", captures[c].gpu);
	if (want && got) {
		CHECK(got->memory_mib == want->nominal_mib && got->memory_assumed && got->has_mig &&
			      got->mig.compute_slices == want->mig.compute_slices &&
			      got->mig.memory_slices == want->mig.memory_slices &&
			      got->mig.max_instances == want->mig.max_instances,
		      "%s: GPU-level MIG figures (slices %d,%d / %d,%d)", captures[c].gpu, got->mig.compute_slices,
		      got->mig.memory_slices, want->mig.compute_slices, want->mig.memory_slices);
		for (i = 0; i < want->mig.nprofiles; i++) {
			const struct mig_profile *g = find_profile(got, want->mig.profiles[i].name);
			CHECK(g != NULL, "%s: the capture has no %s", captures[c].gpu, want->mig.profiles[i].name);
			if (g)
				same_profile(g, &want->mig.profiles[i]);
		}
		for (i = 0; i < got->mig.nprofiles; i++)
			CHECK(find_profile(want, got->mig.profiles[i].name) ||
				      unmodelled_variant(got->mig.profiles[i].name),
			      "%s: the catalog lacks %s", captures[c].gpu, got->mig.profiles[i].name);
	}
	if (path)
		unlink(path);
	free(path);
	free(yaml);
	smi_mig_release(&m);
	free(lgip);
	free(lgipp);
	catalog_release(&frag);
	catalog_release(&bundled);
	diag_release(&d);
}

/*
 * -lgip alone (issue 61 item 5): the placements come from the catalog's
 * GPUs with the same profiles, and the profiles equal the -lgipp import's
 * field for field.
 */
static void test_lgip_alone(void)
{
	struct catalog bundled = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	struct smi_mig both, alone;
	size_t i;

	CHECK(!catalog_load(&bundled, TEST_SRC_DIR "/models/gpus.yaml", 0, &d), "bundled catalog");
	CHECK(!smi_mig_read(&both, CASE "lgip.txt", CASE "lgipp.txt", &d), "read both listings");
	CHECK(!smi_mig_read(&alone, CASE "lgip.txt", NULL, &d), "read -lgip alone");
	CHECK(!smi_mig_catalog_placements(&alone, &bundled, &d), "placements from the catalog");
	CHECK(alone.placements_from && both.n == alone.n, "placements taken from %s",
	      alone.placements_from ? alone.placements_from : "none");
	for (i = 0; i < both.n && i < alone.n; i++) {
		const struct smi_profile *a = &alone.p[i], *b = &both.p[i];
		CHECK(a->memory_slices == b->memory_slices && a->nstarts == b->nstarts &&
			      !memcmp(a->starts, b->starts, (size_t)a->nstarts * sizeof(a->starts[0])),
		      "profile %s: placements differ from -lgipp's", b->name);
	}
	smi_mig_release(&both);
	smi_mig_release(&alone);
	catalog_release(&bundled);
	diag_release(&d);
}

static void test_bad(void)
{
	static const struct {
		const char *lgip, *lgipp, *want;
	} bad[] = {
		{ "+---+\n| GPU instance profiles: |\n|   0  MIG 1g.10gb  19  7/7  9.75  No  16  1  0  |\n", "",
		  "@B@: no placements of profile ID 19 (1g.10gb) for GPU 0" },
		{ "+---+\n| GPU instance profiles: |\n|   0  MIG 1g.10gb  19  7/7  9,75  No  16  1  0  |\n", "",
		  "@A@:3: not a row of nvidia-smi mig -lgip (GPU, MIG <profile>, ID, Free/Total, GiB, P2P, SM, DEC, ENC)" },
		{ "No MIG-enabled devices found.\n", "",
		  "@A@: no MIG profile: not the output of nvidia-smi mig -lgip on a GPU in MIG mode" },
		{ "| GPU instance profiles: |\n|   0  MIG 1g.10gb  19  7/7  9.75  No  16  1  0  |\n",
		  "GPU  0 Profile ID 19 Placements: {0,1,2:1\n",
		  "@B@:1: not a line of nvidia-smi mig -lgipp (GPU N Profile ID N Placements: {starts}:size)" },
		{ "| GPU instance profiles: |\n|   0  MIG 1g.10gb  19  7/7  9.75  No  16  1  0  |\n",
		  "GPU  0 Profile ID 19 Placements: {0}:1\nGPU  0 Profile ID 21 Placements: {0}:1\n",
		  "@B@:2: profile ID 21 is not in @A@ (nvidia-smi mig -lgip)" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *a = write_temp(bad[i].lgip), *b = write_temp(bad[i].lgipp), *want, *got, *t;
		struct diag d = DIAG_INIT;
		struct smi_mig m;
		CHECK(smi_mig_read(&m, a, b, &d) == -1 && d.kind == DIAG_INPUT, "bad row %zu fails", i);
		t = subst(bad[i].want, "@B@", b);
		want = subst(t, "@A@", a);
		got = diag_format(&d);
		CHECK_STR(got, want, "bad row %zu", i);
		free(t);
		free(want);
		free(got);
		diag_release(&d);
		unlink(a);
		unlink(b);
		free(a);
		free(b);
	}
}

int main(void)
{
	size_t c;

	for (c = 0; c < sizeof(captures) / sizeof(captures[0]); c++)
		test_capture(c);
	test_lgip_alone();
	test_bad();
	return check_done();
}
