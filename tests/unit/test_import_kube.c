/*
 * test_import_kube.c - Kubernetes quantities (kquantity.c) in every form
 * of the k8s.io/apimachinery resource.Quantity grammar, and the GPU
 * product table (gfd.c) with its -MIG-<profile> and -SHARED suffixes;
 * the start line of each item of a list (kjson_item_lines) and the
 * origins an import records for what it writes (origin.c); meta/v1 label
 * selectors as the spread and PDB rules match pods (kubectl_spread.c).
 */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "gfd.h"
#include "kquantity.h"
#include "kube.h"
#include "origin.h"
#include "tempfile.h"
#include "banned.h"

/* Items start where their '{' is, whatever brackets, braces, quotes and escapes their strings hold. */
static void test_item_lines(void)
{
	static const char text[] = "{\n  \"kind\": \"List\", \"note\": \"[{\\\"}]\",\n  \"items\": [\n"
				   "    {\"kind\": \"Pod\", \"x\": [1, {\"a\": \"}\"}]},\n"
				   "    {\n      \"kind\": \"Pod\"\n    },\n\n    {\"kind\": \"Pod\"}\n  ]\n}\n";
	char *path = write_temp(text);
	struct kjson j;
	struct diag d = DIAG_INIT;
	long *lines;

	CHECK(path && !kjson_load(&j, path, "Pod", "pod list", &d), "item lines: load: %s", d.msg ? d.msg : "");
	if (!path || d.msg) {
		free(path);
		diag_release(&d);
		return;
	}
	lines = kjson_item_lines(&j);
	CHECK(j.nitems == 3, "item lines: %ld items", j.nitems);
	CHECK(lines[0] == 4 && lines[1] == 5 && lines[2] == 9, "item lines: %ld %ld %ld, want 4 5 9", lines[0], lines[1],
	      lines[2]);
	free(lines);
	kjson_release(&j);
	unlink(path);
	free(path);
}

/* origins_find: the last place at or before the column, else the line's first; lines counted across appends. */
static void test_origins(void)
{
	struct origins o = ORIGINS_INIT;
	struct sb t;
	const struct origin *x;

	sb_init(&t);
	sb_adds(&t, "header\n");
	origins_add(&o, "f", &t, "a.txt", 10);
	sb_adds(&t, "row, ");
	origins_add(&o, "f", &t, "b.txt", 20);
	sb_adds(&t, "field\n");
	origins_add(&o, "g", &t, "c.txt", 30);
	sb_adds(&t, "other\n");
	x = origins_find(&o, "f", 2, 0);
	CHECK(x && x->in_line == 10, "origins: line 2 col 0");
	x = origins_find(&o, "f", 2, 5);
	CHECK(x && x->in_line == 10, "origins: line 2 col 5");
	x = origins_find(&o, "f", 2, 6);
	CHECK(x && x->in_line == 20 && !strcmp(x->in, "b.txt"), "origins: line 2 col 6");
	CHECK(origins_find(&o, "f", 1, 0) == NULL && origins_find(&o, "f", 3, 0) == NULL, "origins: unrecorded lines");
	x = origins_find(&o, "g", 3, 1);
	CHECK(x && x->in_line == 30, "origins: another name");
	origins_add(NULL, "f", &t, "a.txt", 1);	/* no table: nothing */
	origins_release(&o);
	sb_release(&t);
}

static void test_quantities(void)
{
	static const struct {
		const char *s;
		double want;
	} ok[] = {
		{ "1500m", 1.5 },	 { "64Gi", 68719476736.0 }, { "128974848", 128974848.0 }, { "1e3", 1000.0 },
		{ "1.5k", 1500.0 },	 { "1E3", 1000.0 },	     { "1E", 1e18 },		    { "0.5", 0.5 },
		{ ".5", 0.5 },		 { "5.", 5.0 },		     { "+2", 2.0 },		    { "-2", -2.0 },
		{ "2113631836Ki", 2113631836.0 * 1024 },	     { "1Mi", 1048576.0 },	    { "1M", 1e6 },
		{ "1e-3", 0.001 },	 { "12e+2", 1200.0 },	     { "0.1171875Ti", 120.0 * 1073741824.0 },
		{ "100m", 0.1 },	 { "1Ei", 1152921504606846976.0 }, { "31500m", 31.5 },
	};
	static const char *const bad[] = { "", "m", "1.5.5", "1KB", "1kb", "1 Gi", "1e", "1e1.5", "Gi", "1ki",
					   "0x10", "--1", "1e+", "10E", "1e19", "nan", "inf" };
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const char *why = NULL;
		double v = -99;
		CHECK(!kquantity_parse(ok[i].s, &v, &why) && fabs(v - ok[i].want) <= 1e-9 * fabs(ok[i].want),
		      "'%s' -> %.17g, want %.17g", ok[i].s, v, ok[i].want);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = NULL;
		double v;
		CHECK(kquantity_parse(bad[i], &v, &why) && why, "'%s' accepted", bad[i]);
	}
}

static void test_products(void)
{
	static const char *const named[][2] = {
		{ "NVIDIA B300 SXM6 AC", "B300" },
		{ "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", "RTX-PRO-6000-BSE" },
		{ "NVIDIA GH200 480GB", "GH200-96GB" },
		{ "NVIDIA-GH200-144G-HBM3e", "GH200-144GB" },
		{ "NVIDIA H800", "H800-SXM5-80GB" },
		{ "NVIDIA L2", "L2" },
		{ "NVIDIA RTX 6000 Ada Generation", "RTX-6000-Ada" },
	};
	struct gfd_product p;
	char *hint;
	size_t i;

	CHECK(!gfd_product_parse("NVIDIA-H100-80GB-HBM3", &p) && !p.shared && !*p.mig_profile, "h100");
	CHECK_STR(p.gpu_id, "H100-SXM5-80GB", "h100 id");
	CHECK(!gfd_product_parse("NVIDIA H100 80GB HBM3", &p), "nvidia-smi name");
	CHECK_STR(p.gpu_id, "H100-SXM5-80GB", "nvidia-smi name id");
	CHECK(!gfd_product_parse("Tesla-T4-SHARED", &p) && p.shared, "t4 shared");
	CHECK_STR(p.gpu_id, "T4", "t4 id");
	CHECK(!gfd_product_parse("NVIDIA-A100-80GB-PCIe-MIG-1g.10gb", &p), "a100 single");
	CHECK_STR(p.gpu_id, "A100-PCIE-80GB", "a100 id");
	CHECK_STR(p.mig_profile, "1g.10gb", "a100 profile");
	CHECK(!gfd_product_parse("A100-PCIE-40GB-MIG-1g.5gb", &p), "old label");
	CHECK_STR(p.gpu_id, "A100-PCIE-40GB", "old label id");
	/* #26 rows: driver product list names, as nvidia-smi prints them and as GFD labels them */
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		CHECK(!gfd_product_parse(named[i][0], &p), "'%s' parsed", named[i][0]);
		CHECK_STR(p.gpu_id, named[i][1], "%s id", named[i][0]);
	}
	CHECK(!gfd_product_parse("NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition-MIG-1g.24gb", &p), "rtx pro single");
	CHECK_STR(p.mig_profile, "1g.24gb", "rtx pro profile");
	CHECK(!gfd_product_parse("NVIDIA-L2-SHARED", &p) && p.shared, "l2 shared");
	CHECK(gfd_product_parse("NVIDIA H20-3e", &p) && !p.gpu_id, "h20-3e not mapped");
	CHECK(gfd_product_parse("NVIDIA-H100-80GB-HBM2e", &p) && !p.gpu_id, "unknown");
	hint = gfd_product_hint(p.base);
	CHECK_STR(hint, "unknown GPU product 'NVIDIA-H100-80GB-HBM2e' (did you mean 'NVIDIA-H100-80GB-HBM3'?)", "hint");
	free(hint);
}

/* meta/v1 LabelSelector: matchLabels and matchExpressions ANDed; {} selects all, null none. */
static void test_selectors(void)
{
	static const struct {
		const char *sel, *labels;
		int match;
	} rows[] = {
		{ "{}", "{\"app\": \"a\"}", 1 },
		{ "{}", "{}", 1 },
		{ "null", "{\"app\": \"a\"}", 0 },
		{ "{\"matchLabels\": {\"app\": \"a\"}}", "{\"app\": \"a\", \"x\": \"y\"}", 1 },
		{ "{\"matchLabels\": {\"app\": \"a\"}}", "{\"app\": \"b\"}", 0 },
		{ "{\"matchLabels\": {\"app\": \"a\"}}", "{}", 0 },
		{ "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"In\", \"values\": [\"b\", \"a\"]}]}",
		  "{\"app\": \"a\"}", 1 },
		{ "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"NotIn\", \"values\": [\"a\"]}]}",
		  "{\"app\": \"a\"}", 0 },
		{ "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"NotIn\", \"values\": [\"a\"]}]}", "{}", 1 },
		{ "{\"matchExpressions\": [{\"key\": \"tier\", \"operator\": \"Exists\"}]}", "{\"tier\": \"\"}", 1 },
		{ "{\"matchExpressions\": [{\"key\": \"tier\", \"operator\": \"DoesNotExist\"}]}", "{\"tier\": \"x\"}", 0 },
		{ "{\"matchLabels\": {\"app\": \"a\"}, \"matchExpressions\": [{\"key\": \"tier\", \"operator\": \"Exists\"}]}",
		  "{\"app\": \"a\"}", 0 },
		{ "{\"matchExpressions\": [{\"key\": \"app\", \"operator\": \"Gt\", \"values\": [\"1\"]}]}", "{\"app\": \"2\"}",
		  0 },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		cJSON *sel = cJSON_Parse(rows[i].sel), *labels = cJSON_Parse(rows[i].labels);
		int got = kselector_match(cJSON_IsNull(sel) ? NULL : sel, labels);
		CHECK(got == rows[i].match, "selector row %zu %s on %s: %d", i, rows[i].sel, rows[i].labels, got);
		cJSON_Delete(sel);
		cJSON_Delete(labels);
	}
}

int main(void)
{
	test_selectors();
	test_quantities();
	test_products();
	test_item_lines();
	test_origins();
	return check_done();
}
