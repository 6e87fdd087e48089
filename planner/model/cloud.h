/*
 * cloud.h - cloud instance offers (models/clouds.yaml and the
 * scenario's own offer files, schema gpuplan-clouds/1).
 *
 * An offer is one instance type in one region at one pricing (on-demand,
 * reserved, spot): its GPUs, vCPUs, memory and price per hour, with the
 * source it was read from.  Inventory rows that rent cloud nodes name an
 * offer by id.
 *
 * Ownership: struct clouds owns its strings; gpu points into the
 * catalog, which must outlive it.  clouds_release frees everything.
 */
#ifndef PLANNER_CLOUD_H
#define PLANNER_CLOUD_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"

/*
 * A capacity block is paid upfront for block_days and is no rent row of
 * its own: the roadmap reserves blocks for the rent rows of its instance.
 */
enum offer_pricing { PRICING_ON_DEMAND, PRICING_RESERVED, PRICING_SPOT, PRICING_SAVINGS_PLAN, PRICING_CAPACITY_BLOCK,
		     PRICING_COUNT };
/* How a committed term (reserved, savings plan) is paid. */
enum offer_upfront { UPFRONT_NONE, UPFRONT_PARTIAL, UPFRONT_ALL, UPFRONT_COUNT };
extern const char *const offer_upfront_names[];	/* NULL-terminated, by enum */
const char *offer_pricing_name(enum offer_pricing p);
extern const char *const offer_pricing_names[];	/* NULL-terminated, by enum */

/* The largest vcpus and ram_gib an offer may state (the loader's ranges, which importers keep to). */
#define CLOUD_MAX_VCPUS 1e5
#define CLOUD_MAX_RAM_GIB 1e7

struct cloud_offer {
	char *id;		/* unique, e.g. "aws/p4de.24xlarge/us-east-1/on-demand" */
	char *cloud;		/* aws, gcp, azure, or a user's name */
	char *instance;
	char *region;
	enum offer_pricing pricing;
	const struct gpu_type *gpu;
	int gpus;
	double vcpus;		/* 0: not stated (no CPU limit) */
	double ram_gib;		/* 0: not stated */
	double usd_per_hour;	/* the hourly rate billed (0 for an all-upfront term) */
	int term_years;		/* reserved / savings-plan commitment in years; 0 on-demand, spot */
	enum offer_upfront upfront;	/* how the term is paid */
	double upfront_usd;	/* one-off payment per instance at the start of the term (or block); 0 if none */
	int block_days;		/* capacity block: its length in days (1..14, or 21..182 in steps of 7); else 0 */
	long long as_of;	/* the date the price is valid at: days since 1970-01-01 (date.h) */
	int assumed;		/* not confirmed by its source (the price or its date) */
	char *source;
	char *file;		/* the file it came from (not owned: points at clouds.file[]) */
	long line;
};

struct clouds {
	size_t nfiles;
	char **files;
	size_t n;
	struct cloud_offer *offers;
};

/*
 * What one instance of of costs per hour as the planner counts it: its
 * hourly rate plus its upfront payment amortised over the hours of its
 * term (upfront_usd / (term_years x 8760)); a capacity block's upfront
 * over its hours.
 */
double cloud_offer_hourly(const struct cloud_offer *of);

void clouds_release(struct clouds *c);
const struct cloud_offer *clouds_find(const struct clouds *c, const char *id);
/*
 * For an unknown offer id s, the ids most like it, as str_closest
 * (util.h), where an offer whose instance type (3+ characters) occurs in
 * s counts as containing it ("aws/p5.48xlarge/us-west-2" names both
 * aws/p5.48xlarge offers): into out[0..HINT_MAX-1], the count returned.
 */
size_t clouds_suggest(const struct clouds *c, const char *s, const char **out);

#endif
