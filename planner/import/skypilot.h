/*
 * skypilot.h - cloud GPU offers from a SkyPilot catalog CSV
 * (skypilot-org/skypilot-catalog catalogs/v7/<cloud>/vms.csv) as a
 * cloud offers file in models/clouds.yaml's format (gpuplan-clouds/1).
 *
 * Columns (the header of catalogs/v7/aws/vms.csv @001367d2, also v5):
 * InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB,
 * GpuInfo, Price, SpotPrice, Region, AvailabilityZone.  One row per
 * instance type and availability zone.  Rows without an accelerator,
 * or whose accelerator is not in the table of skypilot.c, are skipped
 * (counted).  Each instance type and region gives one on-demand offer
 * (`<cloud>/<instance>/<region>`, the lowest Price of its zones) and
 * each zone with a SpotPrice a spot offer (`<cloud>/<instance>/<zone>/spot`).
 */
#ifndef PLANNER_SKYPILOT_H
#define PLANNER_SKYPILOT_H

#include "diag.h"
#include "util.h"
#include "ydoc.h"

struct sky_filter {
	const char *cloud;		/* the id prefix: aws, gcp, azure (the file's folder) */
	const char *region;		/* only this region; NULL: all */
	const char *accelerator;	/* only this AcceleratorName (case-insensitive); NULL: all known */
	const char *as_of;		/* YYYY-MM-DD: the catalog's date */
	size_t part_bytes;		/* a file's offers in at most this many bytes; 0: SKY_PART_BYTES */
};

/*
 * The offers of one file: gpuplan reads YAML files of up to YDOC_MAX_BYTES
 * (16 MiB) and 1,000,000 nodes, so a larger catalog's offers are split into
 * several files, each 16 KiB under it (room for its header comment and
 * schema lines).
 */
#define SKY_PART_BYTES ((size_t)YDOC_MAX_BYTES - 16384)
/* ... and at most this many offers: 14 YAML nodes each, under the reader's 1,000,000 nodes a file */
#define SKY_PART_OFFERS 50000

struct sky_out {
	char **yaml;		/* the offers files' text: nparts of them, each under YDOC_MAX_BYTES */
	size_t nparts;
	struct sb *parts;	/* while they are written: the offers of each file */
	size_t parts_cap, part_offers;	/* part_offers: in the last part */
	long rows, skipped;	/* rows read, rows skipped (no or unknown accelerator, other region) */
	int ondemand, spot;	/* offers written */
};

/* Reads path; errors at FILE:LINE:COL (DIAG_INPUT), "no offer" when the filters leave none. */
int skypilot_import(const char *path, const struct sky_filter *f, struct sky_out *out, struct diag *d);
void sky_out_release(struct sky_out *out);

#endif
