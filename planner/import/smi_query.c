/*
 * smi_query.c - `nvidia-smi --query-gpu ... --format=csv` of hosts as
 * inventory rows (see smi.h).  The format follows nvidia-smi's
 * documentation (nvidia-smi(1), --query-gpu and --format=csv: "csv",
 * "noheader", "nounits") and a real capture: utkuozdemir/
 * nvidia_gpu_exporter internal/captures/linux-x86_64__nvidia-h100-80gb-
 * hbm3__590.48.01.txt @e656cd81 (all fields of an H100 80GB HBM3 host).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "gfd.h"
#include "inventory.h"
#include "smi.h"
#include "strmap.h"
#include "util.h"
#include "banned.h"

struct shost {
	char *name;			/* node name */
	const struct gpu_type *gpu;
	long gpus;
	long mib;			/* memory.total of the first GPU, 0 when not given */
};

/* The header index of field (the name before any " [unit]"), or -1. */
static int find_col(const struct csvdoc *doc, const char *field)
{
	size_t i, n = strlen(field);
	for (i = 0; i < doc->header.n; i++) {
		const char *h = doc->header.f[i];
		if (!strncmp(h, field, n) && (!h[n] || h[n] == ' '))
			return (int)i;
	}
	return -1;
}

/*
 * memory.total as nvidia-smi writes it: "81559 MiB", or "81559" with
 * --format=csv,nounits, under a header "memory.total [MiB]"; "[N/A]" is
 * unknown (0).  NULL with *mib set, else what is wrong (static text):
 * not a whole number (nan, a sign, a fraction, a cut value), out of range,
 * or another unit in the value or the header.
 */
static const char *read_mib(const char *head, const char *s, long *mib)
{
	const char *unit = strchr(head, '[');
	long v = 0;
	int digits = 0;

	*mib = 0;
	if (unit && strcmp(unit, "[MiB]"))
		return "the column is not in MiB ([MiB]): gpuplan reads memory.total in MiB";
	if (!strcmp(s, "[N/A]") || !strcmp(s, "N/A"))
		return NULL;
	for (; *s >= '0' && *s <= '9' && digits < 9; s++, digits++)
		v = v * 10 + (*s - '0');
	if (!digits || (*s && strcmp(s, " MiB")))
		return *s == ' ' && digits ? "its unit is not MiB" : "not a whole number of MiB";
	if (v < 1 || v > 16L * 1024 * 1024)
		return "out of range: 1 to 16777216 MiB";
	*mib = v;
	return NULL;
}

/* The file name without folders and extension: the node name when no hostname column. */
static char *base_name(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;
	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	return dot && dot > b ? xstrndup(b, (size_t)(dot - b)) : xstrdup(b);
}

static int read_host(const char *path, const struct catalog *cat, struct shost *h, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	int c_name, c_mem, c_host, rc = -1;
	size_t i;

	memset(h, 0, sizeof(*h));
	if (csvdoc_load(&doc, path, d))
		goto out;
	if ((c_name = find_col(&doc, "name")) < 0) {
		diag_set(d, DIAG_INPUT, path, doc.header.line, 0,
			 "no 'name' column: query it (nvidia-smi --query-gpu=name,memory.total --format=csv)");
		goto out;
	}
	c_mem = find_col(&doc, "memory.total");
	c_host = find_col(&doc, "hostname");
	for (i = 0; i < doc.nrows; i++) {
		const struct csvrow *r = &doc.rows[i];
		struct gfd_product p;
		const char *nm = r->f[c_name];
		if (gfd_product_parse(nm, &p) || !(p.gpu_id) || !catalog_find(cat, p.gpu_id)) {
			char *msg = gfd_product_hint(p.base);
			diag_set(d, DIAG_INPUT, path, r->line, c_name + 1, "column 'name': %s", msg);
			free(msg);
			goto out;
		}
		if (h->gpu && strcmp(h->gpu->id, p.gpu_id)) {
			diag_set(d, DIAG_INPUT, path, r->line, c_name + 1,
				 "column 'name': '%s' on a host of %s: one GPU type per host", nm, h->gpu->id);
			goto out;
		}
		h->gpu = catalog_find(cat, p.gpu_id);
		if (c_mem >= 0) {
			long mib;
			const char *why = read_mib(doc.header.f[c_mem], r->f[c_mem], &mib);
			if (why) {
				diag_set(d, DIAG_INPUT, path, r->line, c_mem + 1, "column 'memory.total': '%s': %s",
					 r->f[c_mem], why);
				goto out;
			}
			if (!h->mib)
				h->mib = mib;
		}
		if (c_host >= 0 && !h->name && r->f[c_host][0] && r->f[c_host][0] != '[')
			h->name = xstrdup(r->f[c_host]);
		h->gpus++;
	}
	if (!h->gpus) {
		diag_set(d, DIAG_INPUT, path, 0, 0, "no GPU rows");
		goto out;
	}
	if (h->gpus > 64) {
		diag_set(d, DIAG_INPUT, path, 0, 0, "%ld GPUs in one host (at most 64)", h->gpus);
		goto out;
	}
	if (!h->name)
		h->name = base_name(path);
	if (!inventory_node_name_valid(h->name)) {
		diag_set(d, DIAG_INPUT, path, 0, 0,
			 "node name '%s' (from %s) is not a Kubernetes node name: lower-case letters, digits, '-', '.'",
			 h->name, c_host >= 0 ? "the hostname column" : "the file name");
		goto out;
	}
	rc = 0;
out:
	csvdoc_release(&doc);
	return rc;
}

static int shost_cmp(const void *a, const void *b)
{
	const struct shost *x = a, *y = b;
	int c = strcmp(x->gpu->id, y->gpu->id);
	if (c)
		return c;
	if (x->gpus != y->gpus)
		return x->gpus < y->gpus ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void write_rows(struct sb *inv, const struct shost *hs, int n, double cpu, double ram, struct smi_hosts *out)
{
	char b1[64], b2[64];
	struct sb names;	/* one class's hosts, as one cell */
	int i, j, k;

	sb_adds(inv, "# GPU hosts from nvidia-smi --query-gpu (gpuplan import nvidia-smi): hosts alike in GPU type and\n"
		     "# count are one class.  nvidia-smi gives no CPU or RAM: cpu_cores and ram_gib are --cpu-cores\n"
		     "# and --ram-gib; site 'default'.\n"
		     "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,nodes\n");
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && hs[j].gpu == hs[i].gpu && hs[j].gpus == hs[i].gpus; j++)
			;
		if (j > i && hs[i].mib)
			sb_addf(inv, "# %s: memory.total %ld MiB\n", hs[i].gpu->id, hs[i].mib);
		sb_addf(inv, "smi-%d,%d,", out->classes + 1, j - i);
		sb_add_csv(inv, hs[i].gpu->id);
		sb_addf(inv, ",%ld,baremetal,default,%s,%s,owned,", hs[i].gpus, fmt_num_short(b1, sizeof(b1), cpu, 3),
			fmt_num_short(b2, sizeof(b2), ram, 3));
		sb_init(&names);
		for (k = i; k < j; k++) {
			sb_addf(&names, "%s%s", k > i ? "|" : "", hs[k].name);
			out->gpus += hs[k].gpus;
		}
		sb_add_csv(inv, names.buf);
		sb_release(&names);
		sb_adds(inv, "\n");
		out->classes++;
	}
}

int smi_hosts_import(const char *const *paths, int n, const struct smi_node_size *size, const struct catalog *cat,
		     struct smi_hosts *out, struct diag *d)
{
	struct shost *hs = xcalloc((size_t)n + 1, sizeof(*hs));
	struct strmap names = STRMAP_INIT;	/* node name -> the index of its file */
	struct sb inv;
	int i, rc = -1;

	memset(out, 0, sizeof(*out));
	sb_init(&inv);
	for (i = 0; i < n; i++) {
		size_t first;
		if (read_host(paths[i], cat, &hs[i], d))
			goto out;
		if (strmap_add(&names, hs[i].name, (size_t)i, &first)) {
			diag_set(d, DIAG_INPUT, paths[i], 0, 0, "node name '%s' is also the host of %s: one file per host",
				 hs[i].name, paths[first]);
			goto out;
		}
	}
	qsort(hs, (size_t)n, sizeof(*hs), shost_cmp);
	write_rows(&inv, hs, n, size->cpu_cores, size->ram_gib, out);
	out->hosts = n;
	out->inventory = sb_detach(&inv);
	rc = 0;
out:
	strmap_release(&names);
	for (i = 0; i < n; i++)
		free(hs[i].name);
	free(hs);
	sb_release(&inv);
	return rc;
}

void smi_hosts_release(struct smi_hosts *out)
{
	free(out->inventory);
	out->inventory = NULL;
}
