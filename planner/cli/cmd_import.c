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
#include "outfile.h"
#include "util.h"
#include "banned.h"

enum import_format { IMP_OPENB, IMP_KUBECTL, IMP_SMI, IMP_SKY, IMP_COUNT };
static const char *const formats[] = { "openb", "kubectl", "nvidia-smi", "skypilot", NULL };

struct import_args {
	enum import_format fmt;
	const char **files;	/* the operands after the format (argv's) */
	int nfiles;
	double cpu_cores, ram_gib;	/* nvidia-smi hosts: --cpu-cores, --ram-gib */
	const char *out_dir;
	const char *gpu_id;		/* nvidia-smi --gpu-id */
	const char *node;		/* nvidia-smi --node: a single host's node name */
	const char *region, *accelerator, *as_of;	/* skypilot filters and date */
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

/* The nvidia-smi forms' operands and options: nonzero after the misuse message. */
static int smi_args_bad(const struct cli_command *c, const struct import_args *a)
{
	if (a->fmt == IMP_SMI && a->gpu_id && a->nfiles > 2)
		return cli_misuse(c, "LGIP.txt and at most LGIPP.txt (nvidia-smi mig -lgip, -lgipp) with --gpu-id");
	if (a->fmt == IMP_SMI && a->gpu_id && !gpu_id_ok(a->gpu_id))
		return cli_misuse(c, "--gpu-id '%s': use letters, digits, '-', '_' and '.'", a->gpu_id);
	if (a->fmt == IMP_SMI && !a->gpu_id && (!a->nfiles || a->cpu_cores <= 0 || a->ram_gib <= 0))
		return cli_misuse(c, "HOST.csv files with --cpu-cores and --ram-gib, or LGIP.txt [LGIPP.txt] with --gpu-id");
	if (a->node && (a->fmt != IMP_SMI || a->gpu_id || a->nfiles != 1))
		return cli_misuse(c, "--node NAME names the host of one nvidia-smi HOST.csv");
	if (a->node && !inventory_node_name_valid(a->node))
		return cli_misuse(c, "--node '%s' is not a Kubernetes node name: lower-case letters, digits, '-', '.'",
				  a->node);
	return 0;
}

/* The operands and -o DIR; 0 to go on, 1 after --help (exit 0), or an exit code. */
static int parse_args(int argc, char **argv, struct import_args *a)
{
	const struct cli_command *c = &cli_commands[CMD_IMPORT];
	struct cli_getopt go;
	const char *v;
	int id, npos = 0, f;
	long long days;

	cli_getopt_init(&go, c, argc, argv, 1);
	while ((id = cli_getopt(&go, &v)) != CLI_END) {
		switch (id) {
		case CLI_HELP:
			return 1;
		case OPT_OUTPUT:
			a->out_dir = v;
			break;
		case OPT_NODE:
			a->node = v;
			break;
		case OPT_GPU_ID:
			a->gpu_id = v;
			break;
		case OPT_REGION:
			a->region = v;
			break;
		case OPT_ACCELERATOR:
			a->accelerator = v;
			break;
		case OPT_AS_OF:
			a->as_of = v;
			break;
		case OPT_CPU_CORES:
		case OPT_RAM_GIB:
			if (parse_double(v, id == OPT_CPU_CORES ? &a->cpu_cores : &a->ram_gib) ||
			    (id == OPT_CPU_CORES ? a->cpu_cores : a->ram_gib) <= 0)
				return cli_misuse(c, "--%s '%s' is not a number greater than 0",
						  id == OPT_CPU_CORES ? "cpu-cores" : "ram-gib", v);
			break;
		case CLI_ARG:
			if (npos == 0) {
				for (f = 0; formats[f] && strcmp(formats[f], v); f++)
					;
				if (!formats[f])
					return cli_unknown(c, "import format", v, formats);
				a->fmt = (enum import_format)f;
			} else if (npos == 3 && a->fmt != IMP_SMI) {
				return cli_misuse(c, "more than two files given");
			} else {
				a->files[a->nfiles++] = v;
			}
			npos++;
			break;
		default:
			return EXIT_USAGE;	/* CLI_ERROR: the message is out */
		}
	}
	if (!npos)
		return cli_misuse(c, "no import format given (openb, kubectl, nvidia-smi or skypilot)");
	if (a->fmt == IMP_OPENB && a->nfiles < 2)
		return cli_misuse(c, "NODES.csv and PODS.csv are both needed");
	if (a->fmt == IMP_KUBECTL && a->nfiles < 1)
		return cli_misuse(c, "NODES.json is needed (kubectl get nodes -o json)");
	if (smi_args_bad(c, a))
		return EXIT_USAGE;
	if (a->fmt == IMP_SKY && a->nfiles != 1)
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

/* How an import checks what it writes: which loader, with what. */
enum vkind { VK_SCENARIO, VK_GPUS, VK_CLOUDS, VK_INVENTORY };
struct vcheck {
	enum vkind kind;
	struct catalog *cat;		/* the bundled catalog (VK_GPUS: the fragment's own, empty) */
	const char *models_dir;		/* --models (VK_SCENARIO) */
	const char *out_dir;		/* where the files go: messages name it */
};

/*
 * What `validate` checks beyond loading: every workload fits some node
 * class ("workload 'x' can never be placed: ..."), so an import never
 * writes a scenario that validate would refuse.
 */
static int check_hostable(const struct scenario *sc, struct diag *d)
{
	size_t i;

	for (i = 0; i < sc->workloads.n; i++) {
		const struct workload *w = &sc->workloads.w[i];
		char *why = scenario_unhostable(sc, w);
		if (why) {
			diag_set(d, DIAG_INPUT, sc->workloads.file, w->line, 0, "workload '%s' can never be placed: %s",
				 w->name, why);
			free(why);
			return -1;
		}
	}
	return 0;
}

/* Loads path as v->kind says: 0, or -1 with d set. */
static int load_as(const struct vcheck *v, const char *path, struct diag *d)
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
		if (!rc)
			rc = check_hostable(&sc, d);
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
 * Loads each of names (NULL-ended) from a temporary copy of the set's
 * files, as its reader would: 0, or -1 with d set, its file named as it
 * will be in the output directory.
 */
static int validate_set(const struct outset *os, const char *const *names, const struct vcheck *v, struct diag *d)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpuplan-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	size_t i;
	int rc = 0;

	if (!mkdtemp(dir)) {
		diag_set(d, DIAG_IO, dir, 0, 0, "cannot create a directory: %s", strerror(errno));
		free(dir);
		return -1;
	}
	for (i = 0; i < os->n && !rc; i++)
		if (put_file(dir, os->files[i].name, os->files[i].data))
			rc = diag_set(d, DIAG_IO, dir, 0, 0, "cannot write %s: %s", os->files[i].name, strerror(errno));
	for (; !rc && *names; names++) {
		char *path = xasprintf("%s/%s", dir, *names);
		rc = load_as(v, path, d);
		free(path);
	}
	if (rc) {
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
	const struct vcheck v = { VK_GPUS, &frag, NULL, a->out_dir };
	char *yaml, *name;
	const char *names[2];
	int rc = -1;

	if (smi_mig_read(&m, a->files[0], a->nfiles > 1 ? a->files[1] : NULL, d))
		return -1;
	if (a->nfiles == 1 && smi_mig_catalog_placements(&m, cat, d)) {
		smi_mig_release(&m);
		return -1;
	}
	yaml = smi_mig_yaml(&m, a->gpu_id);
	name = xasprintf("gpus-%s.yaml", a->gpu_id);
	names[0] = name;
	names[1] = NULL;
	outset_add(os, name, yaml, strlen(yaml));
	if (!validate_set(os, names, &v, d)) {
		if (!outset_commit(os, d)) {
			if (a->nfiles > 1)
				cli_printf(stdout, "nvidia-smi: GPU %d, %zu MIG profiles (%s, %s)\n", m.gpu, m.n,
					   a->files[0], a->files[1]);
			else
				cli_printf(stdout,
					   "nvidia-smi: GPU %d, %zu MIG profiles (%s; placements of the catalog's %s)\n",
					   m.gpu, m.n, a->files[0], m.placements_from);
			cli_printf(stdout, "  written:    %s/%s (GPU type %s; list it in a scenario's gpu_types)\n", a->out_dir, name,
			       a->gpu_id);
			rc = 0;
		}
	}
	catalog_release(&frag);
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

/* skypilot: the catalog's GPU offers as clouds-skypilot.yaml, loaded against the catalog first. */
static int import_sky(const struct import_args *a, struct catalog *cat, struct outset *os, struct diag *d)
{
	static const char name[] = "clouds-skypilot.yaml";
	static const char *const names[] = { name, NULL };
	const struct vcheck v = { VK_CLOUDS, cat, NULL, a->out_dir };
	struct sky_filter f = { NULL, a->region, a->accelerator, a->as_of };
	struct sky_out so;
	char day[DATE_TEXT_SIZE], *cloud = cloud_of(a->files[0]);
	struct stat st;
	int rc = -1;

	f.cloud = cloud;
	if (!f.as_of) {
		if (stat(a->files[0], &st)) {
			diag_set(d, DIAG_INPUT, a->files[0], 0, 0, "cannot open: %s", strerror(errno));
			free(cloud);
			return -1;
		}
		f.as_of = date_format(day, sizeof(day), (long long)(st.st_mtime / 86400));
	}
	if (!skypilot_import(a->files[0], &f, &so, d)) {
		outset_add_copy(os, name, so.yaml, strlen(so.yaml));
		if (!validate_set(os, names, &v, d)) {
			if (!outset_commit(os, d)) {
				cli_printf(stdout, "skypilot: %ld rows, %d on-demand and %d spot offers (%ld rows skipped: no known "
				       "accelerator or filtered out)\n", so.rows, so.ondemand, so.spot, so.skipped);
				cli_printf(stdout, "  written:    %s/%s (as of %s; list it in a scenario's cloud_offers)\n", a->out_dir,
				       name, f.as_of);
				rc = 0;
			}
		}
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
	const struct vcheck v = { VK_INVENTORY, cat, NULL, a->out_dir };
	const struct smi_node_size size = { a->cpu_cores, a->ram_gib, a->node };
	struct smi_hosts sh;
	int rc = -1;

	if (smi_hosts_import(a->files, a->nfiles, &size, cat, &sh, d))
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

static int import_openb(const struct import_args *a, struct catalog *cat, const char *models_dir,
			struct outset *os, struct diag *d)
{
	static const char *const scenario[] = { "scenario.yaml", NULL };
	const struct vcheck vs = { VK_SCENARIO, cat, models_dir, a->out_dir };
	struct openb_out ob;
	char b[64];

	if (openb_import(a->files[0], a->files[1], cat, &ob, d))
		return -1;
	outset_add_copy(os, "inventory.csv", ob.inventory, strlen(ob.inventory));
	outset_add_copy(os, "workloads.csv", ob.workloads, strlen(ob.workloads));
	outset_add_copy(os, "gpus-openb.yaml", ob.gpus, strlen(ob.gpus));
	outset_add_copy(os, "scenario.yaml", ob.scenario, strlen(ob.scenario));
	if (validate_set(os, scenario, &vs, d) || outset_commit(os, d)) {
		openb_out_release(&ob);
		return -1;
	}
	cli_printf(stdout, "openb: %ld GPU nodes in %d classes, %ld GPUs (%d user GPU types)\n", ob.nodes, ob.classes,
	       ob.gpus_total, ob.user_types);
	cli_printf(stdout, "  pods:       %ld read, %ld with GPUs in %d workloads (%s GPUs asked), %ld without GPUs skipped\n",
	       ob.pods, ob.pods_gpu, ob.nworkloads, fmt_fixed(b, sizeof(b), ob.gpu_demand, 2), ob.pods - ob.pods_gpu);
	cli_printf(stdout, "  written:    %s/{inventory.csv,workloads.csv,gpus-openb.yaml,scenario.yaml}\n", a->out_dir);
	openb_out_release(&ob);
	return 0;
}

static void add_str(struct outset *os, const char *name, const char *s)
{
	outset_add_copy(os, name, s, strlen(s));
}

static int import_kubectl(const struct import_args *a, struct catalog *cat, const char *models_dir,
			  struct outset *os, struct diag *d)
{
	static const char *const scenarios[] = { "scenario.yaml", "as-is.yaml", NULL };
	static const char *const inventory[] = { "inventory.csv", NULL };
	const struct vcheck vs = { VK_SCENARIO, cat, models_dir, a->out_dir };
	const struct vcheck vi = { VK_INVENTORY, cat, models_dir, a->out_dir };
	struct kubectl_out ko;
	int rc = -1;

	if (kubectl_import(a->files[0], a->nfiles > 1 ? a->files[1] : NULL, cat, &ko, d))
		return -1;
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
	cli_printf(stdout, "kubectl: %ld GPU nodes in %d classes, %ld GPUs (%ld nodes without GPUs skipped)\n", ko.nodes,
	       ko.classes, ko.gpus, ko.cpu_only);
	cli_printf(stdout, "  today:      passthrough %ld, mig %ld, timeslice %ld, mps %ld nodes\n", ko.mode_nodes[0],
	       ko.mode_nodes[1], ko.mode_nodes[2], ko.mode_nodes[3]);
	if (ko.workloads) {
		cli_printf(stdout, "  pods:       %ld read, %ld with GPUs in %d workloads, %ld finished skipped\n", ko.pods,
		       ko.pods_gpu, ko.nworkloads, ko.pods_done);
		cli_printf(stdout, "  written:    %s/{inventory.csv,workloads.csv,scenario.yaml,workloads-as-is.csv,as-is.yaml}\n",
		       a->out_dir);
		cli_printf(stdout, "  compare:    gpuplan compare %s/as-is.yaml %s/scenario.yaml\n", a->out_dir, a->out_dir);
	} else {
		cli_printf(stdout, "  written:    %s/inventory.csv (no pod list: no workloads)\n", a->out_dir);
	}
	rc = 0;
out:
	kubectl_out_release(&ko);
	return rc;
}

int cmd_import(int argc, char **argv, const struct cli_global *g)
{
	struct import_args a;
	struct catalog cat = CATALOG_INIT;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	int rc;
	char *path;

	memset(&a, 0, sizeof(a));
	a.files = xcalloc((size_t)argc + 1, sizeof(*a.files));
	rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.files);
		return rc == 1 ? EXIT_OK : rc;
	}
	path = xasprintf("%s/gpus.yaml", models_dir_or_default(g->models_dir));
	rc = catalog_load(&cat, path, 0, &d);
	free(path);
	if (!rc) {
		outset_init(&os, a.out_dir);
		if (a.fmt == IMP_OPENB)
			rc = import_openb(&a, &cat, g->models_dir, &os, &d);
		else if (a.fmt == IMP_SMI && a.gpu_id)
			rc = import_smi(&a, &cat, &os, &d);
		else if (a.fmt == IMP_SMI)
			rc = import_smi_hosts(&a, &cat, &os, &d);
		else if (a.fmt == IMP_SKY)
			rc = import_sky(&a, &cat, &os, &d);
		else
			rc = import_kubectl(&a, &cat, g->models_dir, &os, &d);
	}
	rc = rc ? cli_diag(&d) : EXIT_OK;
	outset_release(&os);
	catalog_release(&cat);
	diag_release(&d);
	free(a.files);
	return rc;
}
