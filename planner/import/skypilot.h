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

struct sky_filter {
	const char *cloud;		/* the id prefix: aws, gcp, azure (the file's folder) */
	const char *region;		/* only this region; NULL: all */
	const char *accelerator;	/* only this AcceleratorName (case-insensitive); NULL: all known */
	const char *as_of;		/* YYYY-MM-DD: the catalog's date */
};

struct sky_out {
	char *yaml;		/* the offers file */
	long rows, skipped;	/* rows read, rows skipped (no or unknown accelerator, other region) */
	int ondemand, spot;	/* offers written */
};

/* Reads path; errors at FILE:LINE:COL (DIAG_INPUT), "no offer" when the filters leave none. */
int skypilot_import(const char *path, const struct sky_filter *f, struct sky_out *out, struct diag *d);
void sky_out_release(struct sky_out *out);

#endif
