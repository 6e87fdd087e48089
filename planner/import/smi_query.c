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
	char *note;			/* where name came from, when not the hostname column; else NULL */
	const struct gpu_type *gpu;
	long gpus;
	long mib;			/* memory.total of the first GPU, 0 when not given */
	int mig;			/* mig.mode.current: MIG_* below */
};

/* A host's MIG mode (mig.mode.current over its GPUs). */
enum { MIG_UNKNOWN, MIG_DISABLED, MIG_ENABLED, MIG_MIXED };
static const char *const mig_text[] = { "not given", "Disabled", "Enabled", "Enabled on some GPUs" };

/* One GPU's mig.mode.current folded into h->mig; -1 on a value nvidia-smi does not write. */
static int read_mig(struct shost *h, const char *v)
{
	int m;

	if (!strcmp(v, "Enabled"))
		m = MIG_ENABLED;
	else if (!strcmp(v, "Disabled"))
		m = MIG_DISABLED;
	else if (!strcmp(v, "[N/A]") || !strcmp(v, "[Not Supported]") || !strcmp(v, "N/A"))
		return 0;
	else
		return -1;
	h->mig = h->mig == MIG_UNKNOWN || h->mig == m ? m : MIG_MIXED;
	return 0;
}

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

/*
 * The file name without folders and extension, made a valid node name:
 * lower case, every other character than a-z, 0-9, '-' and '.' a '-',
 * no '-' or '.' at either end, at most 63 characters ("" when nothing is left).
 */
static char *file_node_name(const char *path)
{
	const char *b = strrchr(path, '/'), *dot;
	char *s, *t;
	size_t n, i, j = 0;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	n = dot && dot > b ? (size_t)(dot - b) : strlen(b);
	s = xstrndup(b, n);
	for (i = 0; i < n; i++) {
		char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
		s[i] = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' ? c : '-';
	}
	for (t = s; *t == '-' || *t == '.'; t++)
		;
	for (i = 0; t[i] && j < 63; i++)
		s[j++] = t[i];
	while (j > 0 && (s[j - 1] == '-' || s[j - 1] == '.'))
		j--;
	s[j] = '\0';
	return s;
}

/*
 * h's node name when its CSV names none (no hostname column, or "[N/A]"):
 * node (--node), else the file name made valid; the note says which.
 */
static int name_host(const char *path, const char *node, int c_host, struct shost *h, struct diag *d)
{
	const char *why = c_host >= 0 ? "the hostname column is [N/A]" : "no hostname column";
	char *orig;

	if (node) {
		h->name = xstrdup(node);
		h->note = xasprintf("%s: node name '%s' from --node (%s)", path, node, why);
		return 0;
	}
	h->name = file_node_name(path);
	orig = strrchr(path, '/') ? xstrdup(strrchr(path, '/') + 1) : xstrdup(path);
	if (!inventory_node_name_valid(h->name)) {
		diag_set(d, DIAG_INPUT, path, 0, 0,
			 "no node name: %s and the file name '%s' gives no valid one; give it with --node NAME", why,
			 orig);
		free(orig);
		return -1;
	}
	h->note = xasprintf("%s: node name '%s' from the file name (%s; --node NAME gives another)", path, h->name,
			    why);
	free(orig);
	return 0;
}

static int read_host(const char *path, const struct catalog *cat, const char *node, struct shost *h,
		     struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	int c_name, c_mem, c_host, c_mig, rc = -1;
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
	c_mig = find_col(&doc, "mig.mode.current");
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
		if (c_mig >= 0 && read_mig(h, r->f[c_mig])) {
			diag_set(d, DIAG_INPUT, path, r->line, c_mig + 1,
				 "column 'mig.mode.current': '%s' is not Enabled, Disabled or [N/A]", r->f[c_mig]);
			goto out;
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
	if (!h->name && name_host(path, node, c_host, h, d))
		goto out;
	if (!inventory_node_name_valid(h->name)) {
		diag_set(d, DIAG_INPUT, path, 0, 0,
			 "node name '%s' (from %s) is not a Kubernetes node name: lower-case letters, digits, '-', '.'",
			 h->name, h->note ? "--node" : "the hostname column");
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
	if (x->mig != y->mig)
		return x->mig < y->mig ? -1 : 1;
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
		for (j = i; j < n && hs[j].gpu == hs[i].gpu && hs[j].gpus == hs[i].gpus && hs[j].mig == hs[i].mig; j++)
			;
		if (j > i && hs[i].mib)
			sb_addf(inv, "# %s: memory.total %ld MiB\n", hs[i].gpu->id, hs[i].mib);
		if (hs[i].mig != MIG_UNKNOWN)
			sb_addf(inv, "# smi-%d: MIG mode %s (mig.mode.current)%s\n", out->classes + 1, mig_text[hs[i].mig],
				hs[i].mig == MIG_ENABLED ? ": its GPUs run MIG partitions today" : "");
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
	struct sb inv, notes;
	int i, rc = -1;

	memset(out, 0, sizeof(*out));
	sb_init(&inv);
	sb_init(&notes);
	for (i = 0; i < n; i++) {
		size_t first;
		if (read_host(paths[i], cat, size->node, &hs[i], d))
			goto out;
		if (hs[i].note)
			sb_addf(&notes, "%s\n", hs[i].note);
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
	out->notes = sb_detach(&notes);
	rc = 0;
out:
	strmap_release(&names);
	for (i = 0; i < n; i++) {
		free(hs[i].name);
		free(hs[i].note);
	}
	free(hs);
	sb_release(&inv);
	sb_release(&notes);
	return rc;
}

void smi_hosts_release(struct smi_hosts *out)
{
	free(out->inventory);
	free(out->notes);
	out->inventory = NULL;
	out->notes = NULL;
}
