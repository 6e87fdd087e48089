/*
 * cmd_import.c - gpuplan import: what exists, as scenario files written
 * all or nothing.  openb: the Alibaba openb trace (node list and pod
 * list) as inventory.csv, workloads.csv, gpus-openb.yaml, scenario.yaml.
 * kubectl: `kubectl get nodes/pods -o json` as inventory.csv and, with
 * the pods, workloads.csv, scenario.yaml, workloads-as-is.csv and
 * as-is.yaml; the scenarios are loaded (validated) from a temporary copy
 * before anything is written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"
#include "models.h"
#include "cli.h"
#include "kubectl.h"
#include "scenario.h"
#include "skypilot.h"
#include "smi.h"
#include "date.h"
#include "cloud.h"
#include "inventory.h"
#include "openb.h"
#include "origin.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

enum import_format { IMP_OPENB, IMP_KUBECTL, IMP_SMI, IMP_SKY };	/* the rows of import_formats */

struct import_args {
	enum import_format fmt;
	struct cli_list files;	/* the operands after the format (argv's) */
	double cpu_cores, ram_gib;	/* nvidia-smi hosts: --cpu-cores, --ram-gib */
	const char *out_dir;
	const char *gpu_id;		/* nvidia-smi --gpu-id */
	const char *node;		/* nvidia-smi --node: a single host's node name */
	const char *region, *accelerator, *as_of;	/* skypilot filters and date */
	const char *pdb;		/* kubectl --pdb: the PodDisruptionBudget list */
};

/* What an import format's function works with (its ctx). */
struct import_run {
	const struct import_args *a;
	struct catalog *cat;		/* the bundled catalog */
	const char *models_dir;		/* --models */
	struct outset *os;		/* the files, written all or nothing */
	struct diag *d;
};

/* A GPU type id usable as a file name part: letters, digits, '-', '_', '.'. */
static int gpu_id_ok(const char *s)
{
	if (!*s || *s == '.')
		return 0;
	for (; *s; s++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.", *s))
			return 0;
	return 1;
}

/* --cpu-cores, --ram-gib: a number greater than 0. */
static int set_positive(const struct cli_option *o, void *args, const char *v)
{
	double *x = (double *)((char *)args + o->offset);

	if (parse_double(v, x) || *x <= 0)
		return cli_misuse(&cmd_import_entry, "--%s '%s' is not a number greater than 0", o->name, v);
	return 0;
}

#define OFF(f) offsetof(struct import_args, f)
static const struct cli_option import_options[] = {
	{ "output", 'o', "DIR", "write the scenario files into DIR (all or nothing)", .kind = CLI_STRING,
	  .offset = OFF(out_dir) },
	{ "gpu-id", 0, "ID", "nvidia-smi: the id of the GPU type written (e.g. H100-SXM5-80GB)", .kind = CLI_STRING,
	  .offset = OFF(gpu_id) },
	{ "cpu-cores", 0, "N", "nvidia-smi: CPU cores of each host (nvidia-smi reports none)", .kind = CLI_SET,
	  .offset = OFF(cpu_cores), .set = set_positive },
	{ "ram-gib", 0, "N", "nvidia-smi: RAM of each host in GiB (nvidia-smi reports none)", .kind = CLI_SET,
	  .offset = OFF(ram_gib), .set = set_positive },
	{ "node", 0, "NAME", "nvidia-smi: the node name of one HOST.csv whose hostname is [N/A] or absent\n"
			     "(default: its file name, made a valid node name)", .kind = CLI_STRING, .offset = OFF(node) },
	{ "pdb", 0, "PDB.json", "kubectl: the PodDisruptionBudgets (kubectl get pdb -A -o json), into\n"
				"the workloads' min_available / max_unavailable", .kind = CLI_STRING, .offset = OFF(pdb) },
	{ "region", 0, "REGION", "skypilot: only offers in REGION (e.g. us-east-1)", .kind = CLI_STRING,
	  .offset = OFF(region) },
	{ "accelerator", 0, "NAME", "skypilot: only offers of accelerator NAME (e.g. H100)", .kind = CLI_STRING,
	  .offset = OFF(accelerator) },
	{ "as-of", 0, "DATE", "skypilot: the catalog's date, YYYY-MM-DD (default: the file's modification day, UTC)",
	  .kind = CLI_STRING, .offset = OFF(as_of) },
	{ .name = NULL },
};
#undef OFF

/* The nvidia-smi forms' operands and options: nonzero after the misuse message. */
static int smi_args_bad(const struct cli_command *c, const struct import_args *a)
{
	if (a->fmt == IMP_SMI && a->gpu_id && a->files.n > 2)
		return cli_misuse(c, "LGIP.txt and at most LGIPP.txt (nvidia-smi mig -lgip, -lgipp) with --gpu-id");
	if (a->fmt == IMP_SMI && a->gpu_id && !gpu_id_ok(a->gpu_id))
		return cli_misuse(c, "--gpu-id '%s': use letters, digits, '-', '_' and '.'", a->gpu_id);
	if (a->fmt == IMP_SMI && !a->gpu_id && (!a->files.n || a->cpu_cores <= 0 || a->ram_gib <= 0))
		return cli_misuse(c, "HOST.csv files with --cpu-cores and --ram-gib, or LGIP.txt [LGIPP.txt] with --gpu-id");
	if (a->node && (a->fmt != IMP_SMI || a->gpu_id || a->files.n != 1))
		return cli_misuse(c, "--node NAME names the host of one nvidia-smi HOST.csv");
	if (a->node && !inventory_node_name_valid(a->node))
		return cli_misuse(c, "--node '%s' is not a Kubernetes node name: lower-case letters, digits, '-', '.'",
				  a->node);
	return 0;
}

/* The command line into a: 0 to go on, CLI_DONE after --help, or an exit code. */
static int parse_args(int argc, char **argv, struct import_args *a)
{
	const struct cli_command *c = &cmd_import_entry;
	long long days;
	int rc = cli_parse(c, argc, argv, a);

	if (rc)
		return rc;
	if (a->fmt == IMP_OPENB && a->files.n < 2)
		return cli_misuse(c, "NODES.csv and PODS.csv are both needed");
	if (a->fmt == IMP_KUBECTL && a->files.n < 1)
		return cli_misuse(c, "NODES.json is needed (kubectl get nodes -o json)");
	if (a->pdb && (a->fmt != IMP_KUBECTL || a->files.n < 2))
		return cli_misuse(c, "--pdb PDB.json goes with import kubectl NODES.json PODS.json");
	if (smi_args_bad(c, a))
		return EXIT_USAGE;
	if (a->fmt == IMP_SKY && a->files.n != 1)
		return cli_misuse(c, "one VMS.csv is needed (a SkyPilot catalog file, catalogs/v7/<cloud>/vms.csv)");
	if (a->as_of && date_parse(a->as_of, &days))
		return cli_misuse(c, "--as-of '%s' is not a date (YYYY-MM-DD)", a->as_of);
	if (!a->out_dir)
		return cli_misuse(c, "no -o DIR given");
	return 0;
}

/* Writes data to dir/name; 0 or -1. */
static int put_file(const char *dir, const char *name, const char *data)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int rc = -1;

	if (f) {
		rc = fputs(data, f) < 0 ? -1 : 0;
		if (fclose(f))
			rc = -1;
	}
	free(path);
	return rc;
}

/*
 * How an import checks what it writes: which loader, with what, and
 * where its rows come from: an error in a written file is reported at
 * the user's input (never at a file gpuplan writes).
 */
enum vkind { VK_SCENARIO, VK_GPUS, VK_CLOUDS, VK_INVENTORY };
struct vcheck {
	enum vkind kind;
	struct catalog *cat;		/* the bundled catalog (VK_GPUS: the fragment's own, empty) */
	const char *models_dir;		/* --models (VK_SCENARIO) */
	const char *out_dir;		/* where the files go */
	const char *input;		/* the user's file the set is written from (the first operand) */
	const struct origins *orig;	/* the input row of each written row; NULL: none recorded */
	struct sb *warn;		/* VK_SCENARIO: the workloads no node can host, one warning a line */
};

/* Where line of the written file name comes from, as "FILE:LINE" or "FILE" (caller frees). */
static char *input_at(const struct vcheck *v, const char *name, long line, long col, long *in_line)
{
	const struct origin *o = origins_find(v->orig, name, line, col);

	*in_line = o ? o->in_line : 0;
	return xstrdup(o ? o->in : v->input);
}

/*
 * What `validate` refuses beyond loading: a workload no node class can
 * host, or whose spread or availability rule no plan can keep.  An import writes it all the same (plan leaves it unplaced with
 * the reason) and warns, at the input row it comes from, once.
 */
static void warn_unhostable(const struct scenario *sc, const char *dir, const struct vcheck *v)
{
	const char *name = sc->workloads.file + strlen(dir) + 1;	/* the written name, in the temporary dir */
	size_t i;

	for (i = 0; i < sc->workloads.n && v->warn; i++) {
		const struct workload *w = &sc->workloads.w[i];
		char *why = scenario_unhostable(sc, w), *line, *in;
		const char *what = "it";	/* a rule holds back only the replicas it cannot keep */
		long at;
		if (!why && (why = scenario_rule_unkeepable(sc, w)))
			what = "the replicas the rule holds back";
		if (!why)
			continue;
		in = input_at(v, name, w->line, 0, &at);
		line = at ? xasprintf("%s:%ld: workload '%s' can never be placed: %s (imported; plan leaves %s "
				      "unplaced)\n", in, at, w->name, why, what)
			  : xasprintf("%s: workload '%s' (%s line %ld) can never be placed: %s (imported; plan leaves "
				      "%s unplaced)\n", in, w->name, name, w->line, why, what);
		if (!v->warn->buf || !strstr(v->warn->buf, line))
			sb_adds(v->warn, line);
		free(line);
		free(in);
		free(why);
	}
}

/* Each line of w as "gpuplan: warning: LINE" on stderr. */
static void print_warnings(const struct sb *w)
{
	const char *s = w->buf, *nl;

	for (; s && (nl = strchr(s, '\n')); s = nl + 1)
		cli_printf(stderr, "gpuplan: warning: %.*s\n", (int)(nl - s), s);
}

/* Loads path (in the temporary dir) as v->kind says: 0, or -1 with d set. */
static int load_as(const struct vcheck *v, const char *dir, const char *path, struct diag *d)
{
	struct scenario sc;
	struct clouds clouds;
	struct inventory inv = INVENTORY_INIT;
	int rc;

	switch (v->kind) {
	case VK_GPUS:
		return catalog_load(v->cat, path, 1, d);
	case VK_INVENTORY:
		rc = inventory_load(&inv, path, v->cat, NULL, d);
		inventory_release(&inv);
		return rc;
	case VK_CLOUDS:
		memset(&clouds, 0, sizeof(clouds));
		rc = clouds_load(&clouds, path, v->cat, d);
		clouds_release(&clouds);
		return rc;
	default:
		memset(&sc, 0, sizeof(sc));
		rc = scenario_load(&sc, path, v->models_dir, d);
		if (!rc && sc.workloads.file && !strncmp(sc.workloads.file, dir, strlen(dir)))
			warn_unhostable(&sc, dir, v);
		scenario_release(&sc);
		return rc;
	}
}

/* *s with every occurrence of the temporary directory tmp as the output directory out (never shown). */
static void unstage(char **s, const char *tmp, const char *out)
{
	size_t n = strlen(tmp);
	const char *p, *at;
	struct sb sb;

	if (!*s || !strstr(*s, tmp))
		return;
	sb_init(&sb);
	for (p = *s; (at = strstr(p, tmp)); p = at + n) {
		sb_addn(&sb, p, (size_t)(at - p));
		sb_adds(&sb, out);
	}
	sb_adds(&sb, p);
	free(*s);
	*s = sb_detach(&sb);
}

/*
 * d at a file written into the temporary dir: at the user's input row it
 * comes from (v->orig), else at the input with the written line named.
 */
static void to_input(struct diag *d, const char *dir, const struct vcheck *v)
{
	size_t n = strlen(dir);
	const char *name;
	char *in, *msg;
	long at;

	if (!d->file || !v->input || strncmp(d->file, dir, n) || d->file[n] != '/')
		return;
	name = d->file + n + 1;
	in = input_at(v, name, d->line, d->col, &at);
	if (!at) {
		msg = d->line ? xasprintf("%s (in the %s written from it, line %ld)", d->msg, name, d->line)
			      : xasprintf("%s (in the %s written from it)", d->msg, name);
		free(d->msg);
		d->msg = msg;
	}
	free(d->file);
	d->file = in;
	d->line = at;
	d->col = 0;
}

/*
 * Loads each of names (NULL-ended) from a temporary copy of the set's
 * files, as its reader would: 0, or -1 with d set at the user's input
 * the failing row comes from (to_input).
 */
static int validate_set(const struct outset *os, const char *const *names, const struct vcheck *v, struct diag *d)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpuplan-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	size_t i;
	int rc = 0;

	if (!mkdtemp(dir)) {	/* the messages name no temporary path: the output path, and where it would be */
		diag_set(d, DIAG_IO, v->out_dir, 0, 0, "cannot create a temporary folder (in $TMPDIR, else /tmp) to check "
			 "the files in: %s", strerror(errno));
		free(dir);
		return -1;
	}
	for (i = 0; i < os->n && !rc; i++)
		if (put_file(dir, os->files[i].name, os->files[i].data))
			rc = diag_set(d, DIAG_IO, v->out_dir, 0, 0, "cannot write %s's temporary copy (in $TMPDIR, else /tmp) "
				      "to check it: %s", os->files[i].name, strerror(errno));
	for (; !rc && *names; names++) {
		char *path = xasprintf("%s/%s", dir, *names);
		rc = load_as(v, dir, path, d);
		free(path);
	}
	if (rc) {
		to_input(d, dir, v);
		unstage(&d->file, dir, v->out_dir);
		unstage(&d->msg, dir, v->out_dir);
	}
	for (i = 0; i < os->n; i++) {
		char *path = xasprintf("%s/%s", dir, os->files[i].name);
		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
	return rc;
}

/*
 * nvidia-smi: the -lgip/-lgipp listings as gpus-ID.yaml, loaded by the
 * catalog loader (validated) from a temporary copy first.  -lgip alone
 * takes its placements from the bundled catalog (cat).
 */
static int import_smi(const struct import_args *a, const struct catalog *cat, struct outset *os, struct diag *d)
{
	struct smi_mig m;
	struct catalog frag = CATALOG_INIT;
	struct origins orig = ORIGINS_INIT;
	const struct vcheck v = { VK_GPUS, &frag, NULL, a->out_dir, a->files.v[0], &orig, NULL };
	char *yaml, *name;
	const char *names[2];
	int rc = -1;

	if (smi_mig_read(&m, a->files.v[0], a->files.n > 1 ? a->files.v[1] : NULL, d))
		return -1;
	if (a->files.n == 1 && smi_mig_catalog_placements(&m, cat, d)) {
		smi_mig_release(&m);
		return -1;
	}
	name = xasprintf("gpus-%s.yaml", a->gpu_id);
	yaml = smi_mig_yaml_origins(&m, a->gpu_id, name, &orig);
	names[0] = name;
	names[1] = NULL;
	outset_add(os, name, yaml, strlen(yaml));
	if (!validate_set(os, names, &v, d)) {
		if (!outset_commit(os, d)) {
			if (a->files.n > 1)
				cli_printf(stdout, "nvidia-smi: GPU %d, %zu MIG profiles (%s, %s)\n", m.gpu, m.n,
					   a->files.v[0], a->files.v[1]);
			else
				cli_printf(stdout,
					   "nvidia-smi: GPU %d, %zu MIG profiles (%s; placements of the catalog's %s)\n",
					   m.gpu, m.n, a->files.v[0], m.placements_from);
			cli_printf(stdout, "  written:    %s/%s (GPU type %s; list it in a scenario's gpu_types)\n", a->out_dir, name,
			       a->gpu_id);
			rc = 0;
		}
	}
	catalog_release(&frag);
	origins_release(&orig);
	free(name);
	smi_mig_release(&m);
	return rc;
}

/* The cloud of a catalog file: the name of its folder (catalogs/v7/aws/vms.csv: aws), else "cloud". */
static char *cloud_of(const char *path)
{
	const char *end = strrchr(path, '/'), *start;
	size_t i;

	if (!end || end == path)
		return xstrdup("cloud");
	for (start = end; start > path && start[-1] != '/'; start--)
		;
	for (i = 0; start + i < end; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", start[i]))
			return xstrdup("cloud");
	return xstrndup(start, (size_t)(end - start));
}

/* The name of offers file k (0-based) of an import: clouds-skypilot.yaml, then clouds-skypilot-2.yaml, ... */
static char *sky_name(size_t k)
{
	return k ? xasprintf("clouds-skypilot-%zu.yaml", k + 1) : xstrdup("clouds-skypilot.yaml");
}

/* What import skypilot says it wrote. */
static void sky_summary(const struct import_args *a, const struct sky_out *so, const char *as_of)
{
	char *last = sky_name(so->nparts - 1);

	cli_printf(stdout, "skypilot: %ld rows, %d on-demand and %d spot offers (%ld rows skipped: no known "
		   "accelerator or filtered out)\n", so->rows, so->ondemand, so->spot, so->skipped);
	if (so->nparts == 1)
		cli_printf(stdout, "  written:    %s/clouds-skypilot.yaml (as of %s; list it in a scenario's cloud_offers)\n",
			   a->out_dir, as_of);
	else
		cli_printf(stdout, "  written:    %s/clouds-skypilot.yaml to %s (%zu files of up to 16 MiB, as of %s; list "
			   "them all in a scenario's cloud_offers)\n", a->out_dir, last, so->nparts, as_of);
	free(last);
}

/* Writes the offers files of so and loads them against the catalog first; 0 when written. */
static int sky_write(const struct import_run *r, const struct sky_out *so, const char *as_of)
{
	const struct vcheck v = { VK_CLOUDS, r->cat, NULL, r->a->out_dir, r->a->files.v[0], NULL, NULL };
	char **names = xcalloc(so->nparts + 1, sizeof(*names));
	size_t k;
	int rc = -1;

	for (k = 0; k < so->nparts; k++) {
		names[k] = sky_name(k);
		outset_add_copy(r->os, names[k], so->yaml[k], strlen(so->yaml[k]));
	}
	if (!validate_set(r->os, (const char *const *)names, &v, r->d) && !outset_commit(r->os, r->d)) {
		sky_summary(r->a, so, as_of);
		rc = 0;
	}
	for (k = 0; k < so->nparts; k++)
		free(names[k]);
	free(names);
	return rc;
}

/*
 * skypilot: the catalog's GPU offers as clouds-skypilot.yaml (split into
 * clouds-skypilot-2.yaml, ... past what gpuplan reads in one file), each
 * loaded against the catalog first.
 */
static int import_sky(void *ctx)
{
	const struct import_run *r = ctx;
	const struct import_args *a = r->a;
	struct diag *d = r->d;
	struct sky_filter f = { NULL, a->region, a->accelerator, a->as_of, 0 };
	struct sky_out so;
	char day[DATE_TEXT_SIZE], *cloud = cloud_of(a->files.v[0]);
	struct stat st;
	int rc = -1;

	f.cloud = cloud;
	if (!f.as_of) {
		if (stat(a->files.v[0], &st)) {
			diag_set(d, DIAG_INPUT, a->files.v[0], 0, 0, "cannot open: %s", strerror(errno));
			free(cloud);
			return -1;
		}
		f.as_of = date_format(day, sizeof(day), (long long)(st.st_mtime / 86400));
	}
	if (!skypilot_import(a->files.v[0], &f, &so, d)) {
		rc = sky_write(r, &so, f.as_of);
		sky_out_release(&so);
	}
	free(cloud);
	return rc;
}

/* Each line of notes as "  note:       LINE". */
static void print_notes(const char *notes)
{
	const char *s = notes, *nl;

	for (; s && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		cli_printf(stdout, "  note:       %.*s\n", (int)(nl - s), s);
	}
}

/* nvidia-smi --query-gpu CSV of hosts: inventory.csv, loaded against the catalog first. */
static int import_smi_hosts(const struct import_args *a, struct catalog *cat, struct outset *os, struct diag *d)
{
	static const char *const names[] = { "inventory.csv", NULL };
	const struct vcheck v = { VK_INVENTORY, cat, NULL, a->out_dir, a->files.v[0], NULL, NULL };
	const struct smi_node_size size = { a->cpu_cores, a->ram_gib, a->node };
	struct smi_hosts sh;
	int rc = -1;

	if (smi_hosts_import(a->files.v, (int)a->files.n, &size, cat, &sh, d))
		return -1;
	outset_add_copy(os, "inventory.csv", sh.inventory, strlen(sh.inventory));
	if (!validate_set(os, names, &v, d)) {
		if (!outset_commit(os, d)) {
			cli_printf(stdout, "nvidia-smi: %d hosts in %d classes, %ld GPUs\n", sh.hosts, sh.classes, sh.gpus);
			cli_printf(stdout, "  written:    %s/inventory.csv\n", a->out_dir);
			print_notes(sh.notes);
			rc = 0;
		}
	}
	smi_hosts_release(&sh);
	return rc;
}

static int import_openb(void *ctx)
{
	const struct import_run *r = ctx;
	const struct import_args *a = r->a;
	struct outset *os = r->os;
	struct diag *d = r->d;
	static const char *const scenario[] = { "scenario.yaml", NULL };
	struct sb warn;
	struct openb_out ob;
	const struct vcheck vs = { VK_SCENARIO, r->cat, r->models_dir, a->out_dir, a->files.v[1], &ob.origins, &warn };
	char b[64];

	if (openb_import(a->files.v[0], a->files.v[1], r->cat, &ob, d))
		return -1;
	sb_init(&warn);
	outset_add_copy(os, "inventory.csv", ob.inventory, strlen(ob.inventory));
	outset_add_copy(os, "workloads.csv", ob.workloads, strlen(ob.workloads));
	outset_add_copy(os, "gpus-openb.yaml", ob.gpus, strlen(ob.gpus));
	outset_add_copy(os, "scenario.yaml", ob.scenario, strlen(ob.scenario));
	if (validate_set(os, scenario, &vs, d) || outset_commit(os, d)) {
		openb_out_release(&ob);
		sb_release(&warn);
		return -1;
	}
	print_warnings(&warn);
	cli_printf(stdout, "openb: %ld GPU nodes in %d classes, %ld GPUs (%d user GPU types)\n", ob.nodes, ob.classes,
	       ob.gpus_total, ob.user_types);
	cli_printf(stdout, "  pods:       %ld read, %ld with GPUs in %d workloads (%s GPUs asked), %ld without GPUs skipped\n",
	       ob.pods, ob.pods_gpu, ob.nworkloads, fmt_fixed(b, sizeof(b), ob.gpu_demand, 2), ob.pods - ob.pods_gpu);
	cli_printf(stdout, "  written:    %s/{inventory.csv,workloads.csv,gpus-openb.yaml,scenario.yaml}\n", a->out_dir);
	openb_out_release(&ob);
	sb_release(&warn);
	return 0;
}

static void add_str(struct outset *os, const char *name, const char *s)
{
	outset_add_copy(os, name, s, strlen(s));
}

static int import_kubectl(void *ctx)
{
	const struct import_run *r = ctx;
	const struct import_args *a = r->a;
	struct outset *os = r->os;
	struct diag *d = r->d;
	static const char *const scenarios[] = { "scenario.yaml", "as-is.yaml", NULL };
	static const char *const inventory[] = { "inventory.csv", NULL };
	struct kubectl_out ko;
	struct sb warn;
	const struct vcheck vs = { VK_SCENARIO, r->cat, r->models_dir, a->out_dir, a->files.v[0], &ko.origins, &warn };
	const struct vcheck vi = { VK_INVENTORY, r->cat, r->models_dir, a->out_dir, a->files.v[0], &ko.origins, NULL };
	int rc = -1;

	if (kubectl_import(a->files.v[0], a->files.n > 1 ? a->files.v[1] : NULL, a->pdb, r->cat, &ko, d))
		return -1;
	sb_init(&warn);
	add_str(os, "inventory.csv", ko.inventory);
	if (ko.workloads) {
		add_str(os, "workloads.csv", ko.workloads);
		add_str(os, "workloads-as-is.csv", ko.workloads_asis);
		add_str(os, "scenario.yaml", ko.scenario);
		add_str(os, "as-is.yaml", ko.scenario_asis);
		if (validate_set(os, scenarios, &vs, d))
			goto out;
	} else if (validate_set(os, inventory, &vi, d)) {
		goto out;
	}
	if (outset_commit(os, d))
		goto out;
	print_warnings(&warn);
	cli_printf(stdout, "kubectl: %ld GPU nodes in %d classes, %ld GPUs (%ld nodes without GPUs skipped)\n", ko.nodes,
	       ko.classes, ko.gpus, ko.cpu_only);
	cli_printf(stdout, "  today:      passthrough %ld, mig %ld, timeslice %ld, mps %ld nodes\n", ko.mode_nodes[0],
	       ko.mode_nodes[1], ko.mode_nodes[2], ko.mode_nodes[3]);
	if (ko.workloads) {
		cli_printf(stdout, "  pods:       %ld read, %ld with GPUs in %d workloads, %ld finished skipped\n", ko.pods,
		       ko.pods_gpu, ko.nworkloads, ko.pods_done);
		if (ko.pods_spread || ko.pods_pdb || ko.rules_dropped || a->pdb)
			cli_printf(stdout, "  resilience: %ld GPU pods spread, %ld under one of %ld PDBs; %ld spread or "
					   "anti-affinity rules not carried\n", ko.pods_spread, ko.pods_pdb, ko.pdbs,
				   ko.rules_dropped);
		cli_printf(stdout, "  written:    %s/{inventory.csv,workloads.csv,scenario.yaml,workloads-as-is.csv,as-is.yaml}\n",
		       a->out_dir);
		cli_printf(stdout, "  compare:    gpuplan compare %s/as-is.yaml %s/scenario.yaml\n", a->out_dir, a->out_dir);
	} else {
		cli_printf(stdout, "  written:    %s/inventory.csv (no pod list: no workloads)\n", a->out_dir);
	}
	rc = 0;
out:
	kubectl_out_release(&ko);
	sb_release(&warn);
	return rc;
}

/* nvidia-smi: the MIG listings of one GPU type (--gpu-id), or the GPU lists of hosts. */
static int import_nvidia_smi(void *ctx)
{
	const struct import_run *r = ctx;

	if (r->a->gpu_id)
		return import_smi(r->a, r->cat, r->os, r->d);
	return import_smi_hosts(r->a, r->cat, r->os, r->d);
}

static int cmd_import(int argc, char **argv, const struct cli_global *g)
{
	struct import_args a;
	struct catalog cat = CATALOG_INIT;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	struct import_run r = { &a, &cat, g->models_dir, &os, &d };
	int rc;
	char *path;

	memset(&a, 0, sizeof(a));
	rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.files.v);
		return cli_exit_code(rc);
	}
	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	rc = catalog_load(&cat, path, 0, &d);
	free(path);
	if (!rc) {
		outset_init(&os, a.out_dir);
		rc = cmd_import_entry.sub.rows[a.fmt].run(&r);
	}
	rc = rc ? cli_diag(&d) : EXIT_OK;
	outset_release(&os);
	catalog_release(&cat);
	diag_release(&d);
	free(a.files.v);
	return rc;
}

static const struct cli_subcommand import_formats[] = {
	[IMP_OPENB] = { "openb", import_openb, "NODES.csv PODS.csv -o DIR", 2, "more than two files given" },
	[IMP_KUBECTL] = { "kubectl", import_kubectl, "NODES.json [PODS.json [--pdb PDB.json]] -o DIR", 2, "more than two files given" },
	[IMP_SMI] = { "nvidia-smi", import_nvidia_smi,
		      "LGIP.txt [LGIPP.txt] --gpu-id ID -o DIR\nHOST.csv... --cpu-cores N --ram-gib N [--node NAME] -o DIR",
		      -1, NULL },
	[IMP_SKY] = { "skypilot", import_sky, "VMS.csv [--region R] [--accelerator A] [--as-of DATE] -o DIR", 2,
		      "more than two files given" },
	{ .name = NULL },
};

const struct cli_command cmd_import_entry = {
	.name = "import",
	.run = cmd_import,
	.summary = "turn what exists (a cluster, a public trace) into a scenario",
	.description = "openb: NODES.csv  openb_node_list_gpu_node.csv (sn,cpu_milli,memory_mib,gpu,model)\n"
		       "       PODS.csv   openb_pod_list_*.csv (name,cpu_milli,memory_mib,num_gpu,gpu_milli,...)\n"
		       "       writes inventory.csv, workloads.csv, gpus-openb.yaml, scenario.yaml\n"
		       "kubectl: NODES.json  kubectl get nodes -o json;  PODS.json  kubectl get pods -A -o json;\n"
		       "       --pdb PDB.json  kubectl get pdb -A -o json (spread and PDBs into the workloads)\n"
		       "       writes inventory.csv and, with the pods, workloads.csv, scenario.yaml (planned),\n"
		       "       workloads-as-is.csv, as-is.yaml (today's modes): gpuplan compare as-is.yaml scenario.yaml\n"
		       "nvidia-smi: LGIP.txt  nvidia-smi mig -lgip;  LGIPP.txt  nvidia-smi mig -lgipp (one GPU model;\n"
		       "       without it, the placements of the catalog's GPUs with the same profiles)\n"
		       "       writes gpus-ID.yaml, a models/gpus.yaml entry (MIG profiles, usable memory, placements)\n"
		       "nvidia-smi: HOST.csv  nvidia-smi --query-gpu=name,memory.total --format=csv, one file per host\n"
		       "       writes inventory.csv (hosts alike in GPU type and count are one class)\n"
		       "skypilot: VMS.csv  skypilot-catalog catalogs/v7/<cloud>/vms.csv\n"
		       "       writes clouds-skypilot.yaml, offers in models/clouds.yaml's format",
	.options = import_options,
	.operands = { CLI_LIST, offsetof(struct import_args, files), -1, NULL, NULL },
	.sub = { import_formats, offsetof(struct import_args, fmt), "import format",
		 "no import format given (openb, kubectl, nvidia-smi or skypilot)" },
};
