/*
 * test_inventory.c - the inventory loader: every column rule, read back
 * from a temp file, with the exact message (after the file name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "models.h"
#include "inventory.h"
#include "util.h"

#define HEADER                                                                                   \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w\n"
#define NHEADER                                                                                  \
	"name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd," \
	"amortization_years,hourly_usd,base_power_w,nodes\n"
#define OK_ROW "a,2,A100-PCIE-80GB,4,vsphere,dc1,64,512,owned,,,,\n"

static const struct {
	const char *text;
	const char *err;	/* after "FILE"; NULL: loads */
} rows[] = {
	{ HEADER OK_ROW, NULL },
	{ HEADER "b,1,h100xm,8,BareMetal,dc1,112,1024,buy,250000,5,,1200\n", NULL },
	{ HEADER "c,3,L40S,2,cloud,aws,32,256,rent,,,4.5,\n", NULL },
	{ "ram_gib,cpu_cores,site,hypervisor,gpus_per_node,gpu_type,count,name,ownership\n"
	  "512,64,dc1,kvm,4,A100D,2,a,owned\n", NULL },
	{ "", ": empty file" },
	{ HEADER, ":1: no node classes (the file has only a header)" },
	{ "name,count\nx,1\n", ":1: missing column 'site'" },
	{ "name,count,site,ownership\nx,1,dc1,owned\n",
	  ":1: missing column 'gpu_type' (only rows that name a cloud offer may go without it)" },
	{ "name,count,gpu_type,gpus_per_nodes\n", ":1:4: unknown column 'gpus_per_nodes' (did you mean 'gpus_per_node'?)" },
	{ HEADER OK_ROW "a,1,L40S,2,kvm,dc1,32,256,owned,,,,\n", ":3:1: duplicate node class 'a' (first at line 2)" },
	{ HEADER ",1,L40S,2,kvm,dc1,32,256,owned,,,,\n", ":2:1: column 'name' is empty" },
	{ HEADER "x,0,L40S,2,kvm,dc1,32,256,owned,,,,\n", ":2:2: column 'count': 0 must be in [1, 1000000]" },
	{ HEADER "x,1.5,L40S,2,kvm,dc1,32,256,owned,,,,\n", ":2:2: column 'count': '1.5' is not a whole number" },
	{ HEADER "x,two,L40S,2,kvm,dc1,32,256,owned,,,,\n", ":2:2: column 'count': 'two' is not a number" },
	{ HEADER "x,1,L40,2,kvm,dc1,32,256,owned,,,,\n", NULL },
	{ HEADER "x,1,L40X,2,kvm,dc1,32,256,owned,,,,\n", ":2:3: unknown GPU type 'L40X' (did you mean 'L40' or 'L40S'?)" },
	{ HEADER "x,1,Quantum9,2,kvm,dc1,32,256,owned,,,,\n", ":2:3: unknown GPU type 'Quantum9'" },
	{ HEADER "x,1,L40S,0,kvm,dc1,32,256,owned,,,,\n", ":2:4: column 'gpus_per_node': 0 must be in [1, 64]" },
	{ HEADER "x,1,L40S,65,kvm,dc1,32,256,owned,,,,\n", ":2:4: column 'gpus_per_node': 65 must be in [1, 64]" },
	{ HEADER "x,1,L40S,2,kvn,dc1,32,256,owned,,,,\n", ":2:5: unknown hypervisor 'kvn' (did you mean 'kvm'?)" },
	{ HEADER "x,1,L40S,2,xen-server,dc1,32,256,owned,,,,\n", ":2:5: unknown hypervisor 'xen-server' (expected vsphere, kvm, baremetal or cloud)" },
	{ HEADER "x,1,L40S,2,kvm,,32,256,owned,,,,\n", ":2:6: column 'site' is empty" },
	{ HEADER "x,1,L40S,2,kvm,dc1,0,256,owned,,,,\n", ":2:7: column 'cpu_cores': '0' must be greater than 0" },
	{ HEADER "x,1,L40S,2,kvm,dc1,nan,256,owned,,,,\n", ":2:7: column 'cpu_cores': 'nan' is not finite" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,Infinity,owned,,,,\n", ":2:8: column 'ram_gib': 'Infinity' is not finite" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,-1,owned,,,,\n", ":2:8: column 'ram_gib': '-1' must be greater than 0" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,leased,,,,\n", ":2:9: unknown ownership 'leased' (expected owned, buy or rent)" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,owend,,,,\n", ":2:9: unknown ownership 'owend' (did you mean 'owned'?)" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,owned,1000,,,\n", ":2:10: column 'capex_usd' must be empty unless ownership is buy" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,rent,,3,2.5,\n", ":2:11: column 'amortization_years' must be empty unless ownership is buy" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,buy,,5,,\n", ":2:10: column 'capex_usd' is required when ownership is buy" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,buy,0,5,,\n", ":2:10: column 'capex_usd': '0' must be greater than 0" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,buy,1000,,,\n", ":2:11: column 'amortization_years' is required when ownership is buy" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,buy,1000,31,,\n", ":2:11: column 'amortization_years': '31' must be in (0, 30]" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,buy,1000,5,1,\n", ":2:12: column 'hourly_usd' must be empty unless ownership is rent" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,rent,,,,\n", ":2:12: column 'hourly_usd' is required when ownership is rent" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,rent,,,-2,\n", ":2:12: column 'hourly_usd': '-2' must be greater than 0" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,owned,,,,-5\n", ":2:13: column 'base_power_w': '-5' must be at least 0" },
	{ HEADER "x,1,L40S,2,kvm,dc1,32,256,owned,,,\n", ":2: 12 fields, but the header has 13" },
	{ NHEADER "x,2,L40S,2,kvm,dc1,32,256,owned,,,,,gpu-01|gpu-02.dc1\n", NULL },
	{ NHEADER "x,2,L40S,2,kvm,dc1,32,256,owned,,,,,gpu-01\n", ":2:14: column 'nodes' gives 1 node name for count 2" },
	{ NHEADER "x,1,L40S,2,kvm,dc1,32,256,owned,,,,,GPU-01\n", ":2:14: column 'nodes': 'GPU-01' is not a Kubernetes node name (lower-case letters, digits, '-' and '.', at most 253 characters)" },
	{ NHEADER "x,1,L40S,2,kvm,dc1,32,256,owned,,,,,gpu-.a\n", ":2:14: column 'nodes': 'gpu-.a' is not a Kubernetes node name (lower-case letters, digits, '-' and '.', at most 253 characters)" },
	{ NHEADER "x,2,L40S,2,kvm,dc1,32,256,owned,,,,,a||b\n", ":2:14: column 'nodes': empty entry in 'a||b'" },
	{ NHEADER "x,1,L40S,2,kvm,dc1,32,256,rent,,,2,,n1\n", ":2:14: column 'nodes' names existing nodes: ownership must be owned, not rent (nodes one may buy or rent get made-up names)" },
	{ NHEADER "x,2,L40S,2,kvm,dc1,32,256,owned,,,,,n1|n2\ny,1,L4,2,kvm,dc1,32,256,owned,,,,,n2\n", ":3:14: node 'n2' is named twice (also in class 'x')" },
	{ NHEADER "x,2,L40S,2,kvm,dc1,32,256,owned,,,,,n1|n1\n", ":2:14: node 'n1' is named twice (also in class 'x')" },
};

static void test_rows(const struct catalog *cat)
{
	size_t i;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char path[] = "/tmp/test_inventory_XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fdopen(fd, "wb");
		struct inventory inv = INVENTORY_INIT;
		struct diag d = DIAG_INIT;
		int rc;

		fputs(rows[i].text, f);
		fclose(f);
		rc = inventory_load(&inv, path, cat, NULL, &d);
		if (rows[i].err) {
			char *want = xasprintf("%s%s", path, rows[i].err);
			char *got = d.kind ? diag_format(&d) : NULL;
			CHECK(rc < 0, "row %zu: rc %d", i, rc);
			CHECK_STR(got, want, "row %zu", i);
			free(want);
			free(got);
		} else {
			char *got = d.kind ? diag_format(&d) : NULL;
			CHECK(rc == 0, "row %zu: rc %d (%s)", i, rc, got ? got : "");
			free(got);
		}
		unlink(path);
		diag_release(&d);
		inventory_release(&inv);
	}
}

static void test_values(const struct catalog *cat)
{
	char path[] = "/tmp/test_inventory_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "wb");
	struct inventory inv = INVENTORY_INIT;
	struct diag d = DIAG_INIT;
	const struct node_class *b;

	fputs(HEADER OK_ROW "b,1,h100xm,8,BareMetal,dc1,112,1024,buy,250000,5,,1200\n", f);
	fclose(f);
	CHECK(inventory_load(&inv, path, cat, NULL, &d) == 0, "values load");
	CHECK(inv.n == 2, "two classes");
	if (inv.n == 2) {
		b = &inv.classes[1];
		CHECK_STR(b->name, "b", "name");
		CHECK_STR(b->gpu->id, "H100-SXM5-80GB", "alias resolves to the id");
		CHECK(b->count == 1 && b->gpus_per_node == 8 && b->hv == HV_BAREMETAL && b->own == OWN_BUY,
		      "ints and enums");
		CHECK(b->capex_usd == 250000 && b->amortization_years == 5 && b->hourly_usd == 0 &&
			      b->base_power_w == 1200 && b->cpu_cores == 112 && b->ram_gib == 1024,
		      "numbers");
		CHECK(b->line == 3 && inv.classes[0].line == 2, "lines");
		CHECK(inv.classes[0].base_power_w == 0, "base power default 0");
	}
	unlink(path);
	diag_release(&d);
	inventory_release(&inv);
}

/* Named nodes: kept in order, and the plan's node names come from them. */
static void test_nodes(const struct catalog *cat)
{
	char path[] = "/tmp/test_inventory_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "wb");
	struct inventory inv = INVENTORY_INIT;
	struct diag d = DIAG_INIT;

	fputs(NHEADER "a,2,L40S,2,kvm,dc1,32,256,owned,,,,,  node-b | node-a\nb,1,L4,1,kvm,dc1,8,64,owned,,,,,\n", f);
	fclose(f);
	CHECK(inventory_load(&inv, path, cat, NULL, &d) == 0, "nodes load");
	if (inv.n == 2) {
		CHECK(inv.classes[0].nnodes == 2, "two names");
		if (inv.classes[0].nnodes == 2) {
			CHECK_STR(inv.classes[0].nodes[0], "node-b", "first name, trimmed, in file order");
			CHECK_STR(inv.classes[0].nodes[1], "node-a", "second name");
		}
		CHECK(inv.classes[1].nnodes == 0 && inv.classes[1].nodes == NULL, "no names: none");
	}
	unlink(path);
	diag_release(&d);
	inventory_release(&inv);
}

static void test_hypervisors(void)
{
	const unsigned bare = MODE_BIT(MODE_PASSTHROUGH) | MODE_BIT(MODE_MIG) |
			      MODE_BIT(MODE_TIMESLICE) | MODE_BIT(MODE_MPS);
	CHECK(hypervisor_modes(HV_VSPHERE) == MODE_ALL && hypervisor_modes(HV_KVM) == MODE_ALL,
	      "vm hosts allow all modes");
	CHECK(hypervisor_modes(HV_BAREMETAL) == bare && hypervisor_modes(HV_CLOUD) == bare,
	      "no vgpu without a hypervisor");
	CHECK(hypervisor_is_vm_host(HV_VSPHERE) && hypervisor_is_vm_host(HV_KVM) &&
		      !hypervisor_is_vm_host(HV_BAREMETAL) && !hypervisor_is_vm_host(HV_CLOUD),
	      "vm hosts");
	CHECK_STR(hypervisor_name(HV_BAREMETAL), "baremetal", "hypervisor name");
	CHECK_STR(ownership_name(OWN_RENT), "rent", "ownership name");
}

/* A site under a spread by site is a zone label value: apimachinery IsValidLabelValue, non-empty. */
static void test_label_values(void)
{
	static const struct {
		const char *s;
		int ok;
	} labels[] = {
		{ "dc1", 1 }, { "us-east-1a", 1 }, { "A", 1 }, { "Zone_B.2-x", 1 },
		{ "a123456789012345678901234567890123456789012345678901234567890ab", 1 },	/* 63 */
		{ "a123456789012345678901234567890123456789012345678901234567890abc", 0 },	/* 64 */
		{ "", 0 }, { "dc 1", 0 }, { "-dc1", 0 }, { "dc1-", 0 }, { "_dc", 0 }, { "dc.", 0 },
		{ "dc/1", 0 }, { "dc\t1", 0 }, { "d\xc3\xa9", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		CHECK(inventory_label_value_valid(labels[i].s) == labels[i].ok, "label value '%s'", labels[i].s);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;

	if (catalog_load(&cat, TEST_SRC_DIR "/models/gpus.yaml", 0, &d)) {
		char *m = diag_format(&d);
		fprintf(stderr, "cannot load the catalog: %s\n", m);
		free(m);
		diag_release(&d);
		return 1;
	}
	test_rows(&cat);
	test_values(&cat);
	test_nodes(&cat);
	test_hypervisors();
	test_label_values();
	catalog_release(&cat);
	return check_done();
}
