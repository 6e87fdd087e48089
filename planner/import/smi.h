/*
 * smi.h - nvidia-smi output as gpuplan models: the MIG GPU-instance
 * profiles of one GPU (`nvidia-smi mig -lgip` and `nvidia-smi mig
 * -lgipp`) as a `gpus:` entry in models/gpus.yaml's format.
 *
 * -lgip is a boxed table, two lines per GPU and profile:
 *
 *	|   0  MIG 1g.10gb       19     7/7        9.75       No     16     1     0   |
 *	|                                                             1     1     0   |
 *
 * (GPU, name, profile ID, instances free/total, memory GiB, P2P, SM, DEC,
 * ENC; then CE, JPEG, OFA).  -lgipp is one line per GPU and profile ID:
 * "GPU  0 Profile ID 19 Placements: {0,1,2,3,4,5,6}:1" ("Placement :"
 * when there is one start): start memory slices, then the size.  Only
 * the first GPU's rows are read (a host's GPUs of one model list the
 * same).  The usable memory_mib of a profile is the GiB printed x 1024,
 * rounded down, as in models/gpus.yaml.
 */
#ifndef PLANNER_SMI_H
#define PLANNER_SMI_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "origin.h"

#define SMI_MAX_STARTS 16

struct smi_profile {
	char name[48];		/* "1g.10gb", "1g.10gb+me" (without "MIG ") */
	int id;			/* profile ID */
	int total;		/* instances: the Total of Free/Total */
	char gib[16];		/* memory as printed ("9.75") */
	long memory_mib;	/* usable: GiB x 1024, rounded down */
	int sms;		/* the SM column (not written yet) */
	int compute_slices;	/* the <n>g of the name */
	int memory_slices;	/* the placement size (-lgipp); 0 until read */
	int nstarts;
	int starts[SMI_MAX_STARTS];
	int media_ext;		/* a +me profile */
	long line;		/* in the -lgip file */
	long pline;		/* in the -lgipp file; 0 when the placements are the catalog's */
};

struct smi_mig {
	const char *lgip_file, *lgipp_file;	/* as given; lgipp_file NULL: -lgip alone */
	const char *placements_from;	/* -lgip alone: the catalog GPU whose placements it takes */
	int gpu;			/* the GPU index read */
	size_t n;
	struct smi_profile *p;		/* in -lgip order */
};

/*
 * Reads both listings into m (m->p owned); errors at FILE:LINE (DIAG_INPUT).
 * lgipp_path NULL reads -lgip alone: then smi_mig_catalog_placements.
 */
int smi_mig_read(struct smi_mig *m, const char *lgip_path, const char *lgipp_path, struct diag *d);
/*
 * -lgip alone: each profile's memory slices and starts from the catalog's
 * MIG GPUs that have every profile m lists, the first of them (they must
 * all agree; m->placements_from names it, owned by cat).  Fails naming
 * the lgip file when none has them all (the profile missing) or two
 * disagree: -lgipp is needed then.
 */
int smi_mig_catalog_placements(struct smi_mig *m, const struct catalog *cat, struct diag *d);
void smi_mig_release(struct smi_mig *m);
/* The models YAML fragment (schema gpuplan-gpus/1) with one GPU, id gpu_id.  Caller frees. */
char *smi_mig_yaml(const struct smi_mig *m, const char *gpu_id);
/*
 * The same, recording in o (when not NULL) the -lgip or -lgipp line of
 * each row and field, the text being written as out (e.g. "gpus-ID.yaml").
 */
char *smi_mig_yaml_origins(const struct smi_mig *m, const char *gpu_id, const char *out, struct origins *o);

/*
 * `nvidia-smi --query-gpu=name,memory.total,... --format=csv` of hosts,
 * one file per host, as inventory rows.  The header names the fields as
 * nvidia-smi documents them (`nvidia-smi --help-query-gpu`), with the
 * unit in brackets unless `nounits` ("memory.total [MiB]"); fields are
 * separated by ", "; a value carries its unit ("81559 MiB"); "[N/A]" is
 * no value.  Columns read: name (required: the GPU type, through the
 * product table of gfd.h), memory.total, hostname (when absent or [N/A]:
 * the caller's node name, else the file name without its extension made
 * a valid node name, each said in notes); every other column is
 * ignored.  Each row is one GPU.  Hosts alike in GPU type and count are
 * one owned bare-metal class naming its nodes; nvidia-smi knows no CPU or
 * RAM, so cpu_cores and ram_gib are the caller's.
 */
struct smi_hosts {
	char *inventory;	/* inventory.csv */
	int hosts, classes;
	long gpus;
	char *notes;		/* one line per host whose name is not its hostname column's: where it came from */
};
/*
 * What every imported host has besides its GPUs (nvidia-smi cannot tell),
 * and the name of a single host whose CSV gives none.
 */
struct smi_node_size {
	double cpu_cores;	/* per node */
	double ram_gib;		/* per node */
	const char *node;	/* --node: the node name when hostname is absent or [N/A]; NULL: the file name */
};
int smi_hosts_import(const char *const *paths, int n, const struct smi_node_size *size, const struct catalog *cat,
		     struct smi_hosts *out, struct diag *d);
void smi_hosts_release(struct smi_hosts *out);

#endif
