/*
 * test_license.c - the loaders of the licence model (licenses.yaml) and
 * of cloud offers (clouds.yaml): the bundled files load; a small copy of
 * each, written to a temp directory, loads and answers rules, terms and
 * bundles; each row of the tables changes one spot of that copy and
 * expects the exact one-line error FILE:LINE:COL: message, where LINE and
 * COL (1-based characters) are counted by hand in the texts below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>

#include "catalog.h"
#include "date.h"
#include "models.h"
#include "check.h"
#include "cloud.h"
#include "diag.h"
#include "license.h"
#include "util.h"

static char dir[64];
static struct catalog cat;

/*
 * Columns of line 6 (and 7, which has the same layout up to the price):
 * '{' 9, id value 14, kind value 37, years value 58, usd_per_gpu value 74,
 * source key 80.  Line 8: usd_per_gpu key 52.  Line 15: products '[' 52,
 * first product 53.  Line 16: mode value 12.  Line 17: source value (the
 * opening quote) 101.  Line 19: first GPU type 18.  Line 13: as_of value 118.
 */
static const char lic_text[] =
	"schema: gpuplan-licenses/2\n"									/* 1 */
	"products:\n"											/* 2 */
	"  - id: nvaie\n"										/* 3 */
	"    name: NVIDIA AI Enterprise\n"								/* 4 */
	"    terms:\n"											/* 5 */
	"      - {id: subscription-1y, kind: subscription, years: 1, usd_per_gpu: 4500, source: \"price list\", as_of: 2026-09-02}\n"	/* 6 */
	"      - {id: subscription-3y, kind: subscription, years: 3, usd_per_gpu: 13500, source: \"price list\", as_of: 2026-09-02}\n" /* 7 */
	"      - {id: perpetual, kind: perpetual, years: 5, usd_per_gpu: 22500, source: \"price list\", as_of: 2026-09-02}\n"	/* 8 */
	"      - {id: cloud-hourly, kind: hourly, usd_per_gpu_hour: 1, source: \"price list\", as_of: 2026-09-02}\n"		/* 9 */
	"  - id: vcs\n"											/* 10 */
	"    name: NVIDIA Virtual Compute Server\n"							/* 11 */
	"    terms:\n"											/* 12 */
	"      - {id: subscription-1y, kind: subscription, years: 1, usd_per_gpu: 450, assumed: true, source: \"cited\", as_of: 2020-06-25}\n" /* 13 */
	"requirements:\n"										/* 14 */
	"  - {mode: vgpu, hypervisors: [vsphere], products: [nvaie], source: \"matrix\"}\n"		/* 15 */
	"  - {mode: vgpu, hypervisors: [kvm], products: [nvaie, vcs], source: \"guide\"}\n"		/* 16 */
	"  - {mode: mig, hypervisors: [vsphere, kvm, baremetal, cloud], products: [], assumed: true, source: \"blog\"}\n" /* 17 */
	"bundles:\n"											/* 18 */
	"  - {gpu_types: [H100-NVL-94GB], product: nvaie, years: 5, source: \"bundle note\"}\n";	/* 19 */

/*
 * Line 3: id value 10.  Line 4: pricing value 15, gpu_type value 36, gpus
 * value 58, usd_per_hour value 101.  Line 6: id value 10.  Line 7: ram_gib
 * key 59, source value (the quote) 103.  Line 5: as_of value 32.
 */
static const char cloud_text[] =
	"schema: gpuplan-clouds/1\n"									/* 1 */
	"offers:\n"											/* 2 */
	"  - {id: aws/p4d.24xlarge/us-east-1, cloud: aws, instance: p4d.24xlarge, region: us-east-1,\n"	/* 3 */
	"     pricing: on-demand, gpu_type: A100-SXM4-40GB, gpus: 8, vcpus: 96, ram_gib: 1152, usd_per_hour: 32.7726,\n" /* 4 */
	"     source: \"catalog\", as_of: 2025-05-31}\n"									/* 5 */
	"  - {id: gcp/g2-standard-4/us-central1, cloud: gcp, instance: g2-standard-4, region: us-central1,\n" /* 6 */
	"     pricing: on-demand, gpu_type: L4, gpus: 1, vcpus: 4, ram_gib: 16, usd_per_hour: 0.70683, source: \"catalog\", as_of: 2025-05-31}\n"; /* 7 */

struct row {
	const char *old;	/* replaced once in the text (must occur exactly once) */
	const char *new;
	long line, col;		/* 0 col: the message has no column */
	const char *msg;	/* "@" stands for the file's path */
};

static const struct row lic_rows[] = {
	{ "licenses/2", "licenses/9", 1, 9,
	  "unsupported schema 'gpuplan-licenses/9' (this gpuplan reads gpuplan-licenses/2)" },
	{ "products:\n", "product:\n", 2, 1, "unknown field 'product' (did you mean 'products'?)" },
	{ "kind: subscription, years: 1, usd_per_gpu: 4500", "kind: subscripton, years: 1, usd_per_gpu: 4500", 6, 37,
	  "unknown term kind 'subscripton' (did you mean 'subscription'?)" },
	{ "usd_per_gpu: 4500,", "usd_per_gpu: -4500,", 6, 74,
	  "field 'usd_per_gpu': '-4500' must be in [0, 1000000000]" },
	{ "usd_per_gpu: 4500,", "usd_per_gpu: 4500, usd_per_gpu_hour: 1,", 6, 98,
	  "only an hourly term has usd_per_gpu_hour" },
	{ "usd_per_gpu: 4500,", "usd_per_gpu: lots,", 6, 74, "field 'usd_per_gpu': 'lots' is not a number" },
	{ "years: 3,", "years: 11,", 7, 58, "field 'years': 11 must be in [1, 10]" },
	{ "years: 3,", "years: 2.5,", 7, 58, "field 'years': '2.5' is not a whole number" },
	{ "{id: subscription-3y", "{id: subscription-1y", 7, 9, "term 'subscription-1y' is listed twice" },
	{ "usd_per_gpu: 22500", "usd_per_gpus: 22500", 8, 52,
	  "unknown field 'usd_per_gpus' in licence term (did you mean 'usd_per_gpu'?)" },
	{ "kind: hourly, usd_per_gpu_hour", "kind: hourly, years: 1, usd_per_gpu_hour", 9, 9,
	  "an hourly term has usd_per_gpu_hour only" },
	{ "kind: hourly, ", "", 9, 9, "missing field 'kind' in licence term" },
	{ "id: vcs", "id: nvaie", 10, 9, "licence product 'nvaie' is listed twice (first at line 3)" },
	{ "id: vcs", "id: vgpu", 10, 9, "unknown licence product 'vgpu' (expected vcs or nvaie)" },
	{ "assumed: true, source: \"cited\"", "assumed: maybe, source: \"cited\"", 13, 88,
	  "field 'assumed': 'maybe' is not true or false" },
	{ "products: [nvaie], source: \"matrix\"", "products: [nvae], source: \"matrix\"", 15, 53,
	  "unknown licence product 'nvae' (did you mean 'nvaie'?)" },
	{ "products: [nvaie], source: \"matrix\"", "products: nvaie, source: \"matrix\"", 15, 52,
	  "'products' must be a list, not a scalar" },
	{ "mode: vgpu, hypervisors: [kvm]", "mode: vgpus, hypervisors: [kvm]", 16, 12,
	  "unknown mode 'vgpus' (did you mean 'vgpu'?)" },
	{ "hypervisors: [kvm]", "hypervisors: [kvm, vsphere]", 16, 5,
	  "mode 'vgpu' already has a requirement for these hypervisors (line 15)" },
	{ "source: \"blog\"", "source: \"\"", 17, 101, "field 'source' of a licence requirement is empty" },
	/* without the vcs product (lines 10-13), line 16 becomes line 12 */
	{ "  - id: vcs\n    name: NVIDIA Virtual Compute Server\n    terms:\n"
	  "      - {id: subscription-1y, kind: subscription, years: 1, usd_per_gpu: 450, assumed: true, source: \"cited\", as_of: 2020-06-25}\n",
	  "", 12, 5, "licence product 'vcs' is not among the products" },
	{ "[H100-NVL-94GB]", "[H100-NVL-96GB]", 19, 18,
	  "unknown GPU type 'H100-NVL-96GB' (did you mean 'H100-NVL-94GB'?)" },
	{ "years: 5, source: \"bundle note\"", "years: 0, source: \"bundle note\"", 19, 57,
	  "field 'years': 0 must be in [1, 10]" },
	/* a price needs its date: missing, null, not a date, a day that does not exist */
	{ "4500, source: \"price list\", as_of: 2026-09-02}", "4500, source: \"price list\"}", 6, 9,
	  "price 'subscription-1y' has no as_of date" },
	{ "as_of: 2020-06-25}", "as_of: }", 13, 9, "price 'subscription-1y' has no as_of date" },
	{ "as_of: 2020-06-25}", "as_of: 2020-6-25}", 13, 118, "field 'as_of': '2020-6-25' is not a date (YYYY-MM-DD)" },
	{ "as_of: 2020-06-25}", "as_of: 2026-02-29}", 13, 118, "field 'as_of': '2026-02-29' is not a date (YYYY-MM-DD)" },
};

static const struct row cloud_rows[] = {
	{ "clouds/1", "clouds/2", 1, 9, "unsupported schema 'gpuplan-clouds/2' (this gpuplan reads gpuplan-clouds/1)" },
	{ "offers:", "offer:", 2, 1, "unknown field 'offer' (did you mean 'offers'?)" },
	{ ", region: us-east-1,", ",", 3, 5, "missing field 'region'" },
	{ "pricing: on-demand, gpu_type: A100", "pricing: ondemand, gpu_type: A100", 4, 15,
	  "unknown pricing 'ondemand' (did you mean 'on-demand'?)" },
	{ "A100-SXM4-40GB", "A100-SXM4-40G", 4, 36, "unknown GPU type 'A100-SXM4-40G' (did you mean 'A100-SXM4-40GB'?)" },
	{ "gpus: 8,", "gpus: 0,", 4, 58, "field 'gpus': 0 must be in [1, 64]" },
	{ "32.7726", "-1", 4, 101, "field 'usd_per_hour': '-1' must be in [0, 1000000]" },
	{ "id: gcp/g2-standard-4/us-central1", "id: aws/p4d.24xlarge/us-east-1", 6, 10,
	  "offer 'aws/p4d.24xlarge/us-east-1' is already defined at @:3" },
	{ "ram_gib: 16", "ram_gb: 16", 7, 59, "unknown field 'ram_gb' in cloud offer (did you mean 'ram_gib'?)" },
	{ "0.70683, source: \"catalog\"", "0.70683, source: \"\"", 7, 103, "field 'source' is empty" },
	{ "\"catalog\", as_of: 2025-05-31}\n  - {id: gcp", "\"catalog\"}\n  - {id: gcp", 3, 5,
	  "price 'aws/p4d.24xlarge/us-east-1' has no as_of date" },
	{ "\"catalog\", as_of: 2025-05-31}\n  - {id: gcp", "\"catalog\", as_of: 2025-05-31T00:00}\n  - {id: gcp", 5, 32,
	  "field 'as_of': '2025-05-31T00:00' is not a date (YYYY-MM-DD)" },
};

/* text with row->old replaced by row->new; NULL when old does not occur exactly once */
static char *edit(const char *text, const struct row *r)
{
	const char *at = strstr(text, r->old);
	struct sb sb;
	if (!at || strstr(at + 1, r->old))
		return NULL;
	sb_init(&sb);
	sb_addn(&sb, text, (size_t)(at - text));
	sb_adds(&sb, r->new);
	sb_adds(&sb, at + strlen(r->old));
	{
		char *s = sb_detach(&sb);
		sb_release(&sb);
		return s;
	}
}

static char *write_file(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/* The expected message: "<path>:LINE[:COL]: msg" with "@" in msg standing for path. */
static char *expected(const char *path, const struct row *r)
{
	struct sb sb;
	const char *m;
	char *s;
	sb_init(&sb);
	if (r->col)
		sb_addf(&sb, "%s:%ld:%ld: ", path, r->line, r->col);
	else
		sb_addf(&sb, "%s:%ld: ", path, r->line);
	for (m = r->msg; *m; m++) {
		if (*m == '@')
			sb_adds(&sb, path);
		else
			sb_addn(&sb, m, 1);
	}
	s = sb_detach(&sb);
	sb_release(&sb);
	return s;
}

/* The bundle NVIDIA's H100 PCIe product brief states is sourced; the NVL ones are assumed. */
static void bundle_marks(const struct licenses *L)
{
	const struct lic_bundle *b = NULL;

	CHECK(licenses_bundle_years(L, LIC_NVAIE, catalog_find(&cat, "H100-PCIE-80GB"), &b) == 5 && b && !b->assumed,
	      "models: H100 PCIe's 5 bundled years, not assumed");
	CHECK(licenses_bundle_years(L, LIC_NVAIE, catalog_find(&cat, "H200-NVL-141GB"), &b) == 5 && b && b->assumed,
	      "models: H200 NVL's 5 bundled years, assumed");
}

static void test_bundled_files(void)
{
	struct licenses L;
	struct clouds c;
	struct diag d = DIAG_INIT;
	int rc;

	rc = licenses_load(&L, TEST_SRC_DIR "/models/licenses.yaml", &cat, &d);
	CHECK(rc == 0, "models/licenses.yaml: %s", d.msg ? d.msg : "");
	if (rc == 0) {
		const struct lic_term *t = licenses_term(&L, LIC_NVAIE, "subscription-3y");
		CHECK(t && t->usd_per_gpu == 13500 && t->years == 3, "models: NVAIE subscription-3y is 13,500 for 3 years");
		t = licenses_term(&L, LIC_NVAIE, "cloud-hourly");
		CHECK(t && t->kind == TERM_HOURLY && t->usd_per_gpu_hour == 1, "models: NVAIE cloud-hourly is 1 USD");
		t = licenses_term(&L, LIC_NVAIE, "perpetual");
		CHECK(t && t->kind == TERM_PERPETUAL && t->usd_per_gpu == 22500 && t->years == 5,
		      "models: NVAIE perpetual is 22,500 with 5 years of support");
		t = licenses_term(&L, LIC_VCS, "subscription-1y");
		CHECK(t && t->assumed, "models: the vCS price is marked assumed");
		CHECK(t && t->as_of == date_from_civil(2020, 6, 25), "models: the vCS price is as of 2020-06-25");
		t = licenses_term(&L, LIC_NVAIE, "subscription-1y");
		CHECK(t && t->as_of == date_from_civil(2026, 9, 2), "models: NVAIE prices are as of 2026-09-02");
		/* issue 61 item 6: only what an NVIDIA document read states goes unmarked */
		CHECK(t && !t->assumed, "models: NVAIE 1 year, NVIDIA's own figure, not assumed");
		t = licenses_term(&L, LIC_NVAIE, "perpetual");
		CHECK(t && t->assumed, "models: NVAIE perpetual, as third parties quote it, assumed");
		bundle_marks(&L);
	}
	licenses_release(&L);
	diag_release(&d);

	memset(&c, 0, sizeof(c));
	rc = clouds_load(&c, TEST_SRC_DIR "/models/clouds.yaml", &cat, &d);
	CHECK(rc == 0, "models/clouds.yaml: %s", d.msg ? d.msg : "");
	if (rc == 0) {
		const struct cloud_offer *o = clouds_find(&c, "aws/p4d.24xlarge/us-east-1");
		CHECK(o && o->gpus == 8 && o->usd_per_hour == 21.957642 && !strcmp(o->gpu->id, "A100-SXM4-40GB"),
		      "models: p4d.24xlarge is 8 A100-SXM4-40GB at 21.957642/h (after the June 2025 cut)");
		CHECK(o && o->as_of == date_from_civil(2026, 1, 21) && !o->assumed,
		      "models: dated by its source, 2026-01-21, not assumed");
		/* the sourced committed term: 1-year standard RI, no upfront ([VANTAGE]) */
		o = clouds_find(&c, "aws/p4d.24xlarge/us-east-1/ri-1y-none");
		CHECK(o && o->usd_per_hour == 13.921094 && o->term_years == 1, "models: p4d 1-year RI 13.921094/h");
		o = clouds_find(&c, "aws/p5.48xlarge/us-east-1");
		CHECK(o && o->usd_per_hour == 55.04 && o->as_of == date_from_civil(2026, 1, 21),
		      "models: p5.48xlarge us-east-1 at 55.04/h");
		o = clouds_find(&c, "aws/p6-b200.48xlarge/us-east-1");
		CHECK(o && o->gpus == 8 && o->usd_per_hour == 113.9328 && !strcmp(o->gpu->id, "B200"),
		      "models: p6-b200 is 8 B200 at 113.9328/h");
		/* [VANTAGE-RAW] tsaol/aws-gpu gpu_instances_raw.json @2d0108c7 (2025-11-30): 3-year and
		 * all-upfront standard RIs; an all-upfront rate x 8760 x years is the upfront */
		o = clouds_find(&c, "aws/p4d.24xlarge/us-east-1/ri-3y-none");
		CHECK(o && o->usd_per_hour == 9.374219 && o->term_years == 3 && o->upfront == UPFRONT_NONE &&
			      o->as_of == date_from_civil(2025, 11, 30) && !o->assumed,
		      "models: p4d 3-year RI, no upfront, 9.374219/h as of 2025-11-30");
		o = clouds_find(&c, "aws/p4d.24xlarge/us-east-1/ri-3y-all");
		CHECK(o && o->usd_per_hour == 0 && o->upfront == UPFRONT_ALL && o->upfront_usd == 214420 &&
			      fabs(cloud_offer_hourly(o) - 8.159056) < 1e-6,
		      "models: p4d 3-year RI, all upfront, 214,420 USD (vantage's 8.159056/h x 26280 h)");
		o = clouds_find(&c, "aws/p5.48xlarge/us-east-1/cri-1y-none");
		CHECK(o && o->usd_per_hour == 43.344 && o->term_years == 1,
		      "models: p5 1-year convertible RI 43.344/h (no 1-year standard RI is listed)");
		o = clouds_find(&c, "aws/p5.48xlarge/us-east-1/ri-3y-all");
		CHECK(o && o->upfront_usd == 543866 && o->term_years == 3, "models: p5 3-year RI, all upfront, 543,866 USD");
		o = clouds_find(&c, "aws/g5.xlarge/us-east-1");
		CHECK(o && o->gpus == 1 && o->usd_per_hour == 1.006 && !strcmp(o->gpu->id, "A10G"),
		      "models: g5.xlarge is 1 A10G at 1.006/h");
		o = clouds_find(&c, "aws/p6-b300.48xlarge/us-west-2");
		CHECK(o && o->gpus == 8 && o->usd_per_hour == 142.416 && !strcmp(o->gpu->id, "B300"),
		      "models: p6-b300 is 8 B300 at 142.416/h in us-west-2");
		/* [CYCLENERD] pricing.yml @fd66b26 (2026-07-30): a3-highgpu-8g us-central1 hour 88.49,
		 * month_1y 44810.08066464 / 730 h; [DATARECEIPTS] (2026-11-09): Azure ND H100 v5 12.29 per
		 * GPU-hour, NC96ads A100 v4 19.108; [SILY] (2026-09-25): Lambda 8x H100 SXM 3.99 per GPU-hour */
		o = clouds_find(&c, "gcp/a3-highgpu-8g/us-central1");
		CHECK(o && o->usd_per_hour == 88.49 && o->as_of == date_from_civil(2026, 7, 30) && !o->assumed,
		      "models: GCP a3-highgpu-8g 88.49/h as of 2026-07-30");
		o = clouds_find(&c, "gcp/a3-highgpu-8g/us-central1/cud-1y");
		CHECK(o && o->pricing == PRICING_RESERVED && o->term_years == 1 && o->usd_per_hour == 61.383672,
		      "models: a3-highgpu-8g 1-year committed use 61.383672/h");
		o = clouds_find(&c, "azure/Standard_ND96isr_H100_v5/eastus");
		CHECK(o && o->gpus == 8 && o->usd_per_hour == 98.32 && o->as_of == date_from_civil(2026, 11, 9),
		      "models: Azure ND96isr H100 v5 98.32/h as of 2026-11-09");
		o = clouds_find(&c, "azure/Standard_NC96ads_A100_v4/eastus");
		CHECK(o && o->gpus == 4 && o->usd_per_hour == 19.108, "models: Azure NC96ads A100 v4 19.108/h (was 14.692)");
		o = clouds_find(&c, "lambda/gpu_8x_h100_sxm5/any");
		CHECK(o && o->gpus == 8 && o->usd_per_hour == 31.92 && o->as_of == date_from_civil(2026, 9, 25),
		      "models: Lambda 8x H100 SXM 31.92/h as of 2026-09-25");
	}
	clouds_release(&c);
	diag_release(&d);
}

static void test_small_copies(void)
{
	struct licenses L;
	struct clouds c;
	struct diag d = DIAG_INIT;
	char *path = write_file("licenses.yaml", lic_text);
	const struct lic_rule *r;
	const struct lic_bundle *b = NULL;
	int rc;

	rc = licenses_load(&L, path, &cat, &d);
	CHECK(rc == 0, "small licenses.yaml: %s", d.msg ? d.msg : "");
	if (rc == 0) {
		r = licenses_rule(&L, MODE_VGPU, HV_VSPHERE);
		CHECK(r && r->products == (1u << LIC_NVAIE) && r->line == 15, "vgpu on vsphere: nvaie only (line 15)");
		r = licenses_rule(&L, MODE_VGPU, HV_KVM);
		CHECK(r && r->products == ((1u << LIC_NVAIE) | (1u << LIC_VCS)), "vgpu on kvm: nvaie or vcs");
		r = licenses_rule(&L, MODE_MIG, HV_BAREMETAL);
		CHECK(r && r->products == 0 && r->assumed, "mig on bare metal: no licence, assumed");
		CHECK(licenses_rule(&L, MODE_PASSTHROUGH, HV_VSPHERE) == NULL, "passthrough: no rule");
		CHECK(licenses_bundle_years(&L, LIC_NVAIE, catalog_find(&cat, "H100-NVL-94GB"), &b) == 5 && b &&
			      b->line == 19,
		      "H100 NVL: 5 bundled years (line 19)");
		CHECK(licenses_bundle_years(&L, LIC_NVAIE, catalog_find(&cat, "A100-PCIE-80GB"), &b) == 0 && !b,
		      "A100: no bundle");
		CHECK(licenses_term(&L, LIC_VCS, "subscription-3y") == NULL, "vcs has no subscription-3y");
		CHECK(L.product[LIC_NVAIE].nterms == 4 && L.product[LIC_NVAIE].terms[3].line == 9,
		      "nvaie: 4 terms, the last at line 9");
	}
	licenses_release(&L);
	diag_release(&d);
	unlink(path);
	free(path);

	path = write_file("clouds.yaml", cloud_text);
	memset(&c, 0, sizeof(c));
	rc = clouds_load(&c, path, &cat, &d);
	CHECK(rc == 0, "small clouds.yaml: %s", d.msg ? d.msg : "");
	if (rc == 0) {
		char *user = write_file("user.yaml", "schema: gpuplan-clouds/1\noffers:\n"
						     "  - {id: aws/p4d.24xlarge/us-east-1, cloud: aws, instance: p4d.24xlarge,\n"
						     "     region: us-east-1, pricing: reserved, gpu_type: A100-SXM4-40GB, gpus: 8,\n"
						     "     usd_per_hour: 20, source: \"our quote\", as_of: 2026-01-15}\n");
		const struct cloud_offer *o = clouds_find(&c, "gcp/g2-standard-4/us-central1");
		CHECK(c.n == 2 && o && o->gpus == 1 && o->vcpus == 4 && o->pricing == PRICING_ON_DEMAND && o->line == 6,
		      "small clouds.yaml: 2 offers, g2-standard-4 at line 6");
		{
			const char *out[HINT_MAX];
			CHECK(clouds_suggest(&c, "aws/p4d.24xlarge/us-east1", out) == 1 &&
				      !strcmp(out[0], "aws/p4d.24xlarge/us-east-1"),
			      "suggest the near miss");
			CHECK(clouds_suggest(&c, "aws/p4d.24xlarge", out) == 1 && !strcmp(out[0], "aws/p4d.24xlarge/us-east-1"),
			      "suggest the offers an id without its region starts");
			CHECK(clouds_suggest(&c, "aws/p4d.24xlarge/eu-central-1/spot", out) == 1 &&
				      !strcmp(out[0], "aws/p4d.24xlarge/us-east-1"),
			      "suggest the offers of the same instance type");
			CHECK(clouds_suggest(&c, "azure/Standard_X", out) == 0, "nothing near");
		}
		/* a second file may not reuse an id: the message names the first file and line */
		rc = clouds_load(&c, user, &cat, &d);
		{
			char *want = xasprintf("%s:3:10: offer 'aws/p4d.24xlarge/us-east-1' is already defined at %s:3",
					       user, path);
			char *got = diag_format(&d);
			CHECK(rc == -1, "user offers: a duplicate id loads");
			CHECK_STR(got, want, "user offers: duplicate id");
			free(got);
			free(want);
		}
		unlink(user);
		free(user);
	}
	clouds_release(&c);
	diag_release(&d);
	unlink(path);
	free(path);
}

static void run_rows(const char *name, const char *text, const struct row *rows, size_t n, int clouds)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		struct diag d = DIAG_INIT;
		char *t = edit(text, r), *path, *want, *got;
		int rc;

		CHECK(t != NULL, "%s row %zu: '%s' does not occur exactly once", name, i, r->old);
		if (!t)
			continue;
		path = write_file(name, t);
		if (clouds) {
			struct clouds c;
			memset(&c, 0, sizeof(c));
			rc = clouds_load(&c, path, &cat, &d);
			clouds_release(&c);
		} else {
			struct licenses L;
			rc = licenses_load(&L, path, &cat, &d);
			licenses_release(&L);
		}
		want = expected(path, r);
		got = diag_format(&d);
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "%s row %zu (%s): rc %d kind %d", name, i, r->new, rc,
		      (int)d.kind);
		CHECK_STR(got, want, "%s row %zu ('%s' -> '%s')", name, i, r->old, r->new);
		free(got);
		free(want);
		diag_release(&d);
		unlink(path);
		free(path);
		free(t);
	}
}

int main(void)
{
	struct diag d = DIAG_INIT;

	snprintf(dir, sizeof(dir), "/tmp/test_license_XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	if (catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d)) {
		fprintf(stderr, "models/gpus.yaml: %s\n", d.msg ? d.msg : "");
		diag_release(&d);
		rmdir(dir);
		return 1;
	}
	test_bundled_files();
	test_small_copies();
	run_rows("licenses.yaml", lic_text, lic_rows, sizeof(lic_rows) / sizeof(lic_rows[0]), 0);
	run_rows("clouds.yaml", cloud_text, cloud_rows, sizeof(cloud_rows) / sizeof(cloud_rows[0]), 1);
	catalog_release(&cat);
	rmdir(dir);
	return check_done();
}
