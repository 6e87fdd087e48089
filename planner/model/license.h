/*
 * license.h - the licence model (models/licenses.yaml, schema
 * gpuplan-licenses/2): products and their terms with prices and
 * sources, which modes on which hypervisors need which product, and the
 * entitlements bundled with some GPUs.
 *
 * Ownership: struct licenses owns its strings and arrays; bundles point
 * into the catalog, which must outlive it.  licenses_release frees all.
 */
#ifndef PLANNER_LICENSE_H
#define PLANNER_LICENSE_H

#include <stddef.h>

#include "catalog.h"
#include "diag.h"
#include "hosting.h"

/* Products, cheapest coverage first; NVAIE includes what vCS gives. */
enum lic_product { LIC_NONE, LIC_VCS, LIC_NVAIE, LIC_COUNT };
const char *lic_product_id(enum lic_product p);	/* "none", "vcs", "nvaie" */
int lic_product_parse(const char *s, enum lic_product *out);
extern const char *const lic_product_ids[];	/* NULL-terminated, by enum */

/* How a licence is counted where a vGPU mode needs one. */
enum lic_counting { COUNT_PHYSICAL_GPU, COUNT_VGPU_SEAT };
const char *lic_counting_name(enum lic_counting c);	/* "physical-gpu", "vgpu-seat" */

enum lic_term_kind { TERM_SUBSCRIPTION, TERM_PERPETUAL, TERM_HOURLY };

/* Where a term can be bought: GPUs in one's own or a colocation site, or cloud instances. */
enum lic_hosting { LIC_HOST_ONPREM, LIC_HOST_CLOUD, LIC_HOST_COUNT };
extern const char *const lic_hosting_names[];	/* "onprem", "cloud"; NULL-terminated */
/* The hosting of GPUs under hypervisor hv: cloud for HV_CLOUD, else onprem (colocation too). */
enum lic_hosting lic_hosting_of(enum hypervisor hv);

struct lic_term {
	char *id;		/* "subscription-3y", "perpetual", "cloud-hourly" */
	enum lic_term_kind kind;
	int years;		/* subscription: years covered; perpetual: support years included */
	double usd_per_gpu;	/* subscription, perpetual: per GPU for the whole term */
	double usd_per_gpu_hour; /* hourly */
	int assumed;		/* not confirmed by a public NVIDIA source */
	char *source;		/* document and date, or the assumption's origin */
	long long as_of;	/* the date the price is valid at: days since 1970-01-01 (date.h) */
	unsigned hosting;	/* bit (1u << enum lic_hosting): where it can be bought */
	long line;
};

/* True when term t can be bought for GPUs hosted under hypervisor hv. */
int lic_term_buyable(const struct lic_term *t, enum hypervisor hv);

struct lic_product_def {
	int present;
	char *name;
	size_t nterms;
	struct lic_term *terms;
	long line;
};

/* Which products satisfy a mode on some hypervisors (none listed: no licence). */
struct lic_rule {
	enum gpu_mode mode;
	unsigned hypervisors;	/* bit (1u << enum hypervisor) */
	unsigned products;	/* bit (1u << enum lic_product); 0: no licence needed */
	int assumed;
	char *source;
	long line;
};

/* GPUs sold with an entitlement of `years` of `product`. */
struct lic_bundle {
	size_t ntypes;
	const struct gpu_type **types;
	enum lic_product product;
	int years;
	int assumed;		/* no NVIDIA document read confirms it for these GPUs */
	char *source;
	long line;
};

struct licenses {
	char *file;
	struct lic_product_def product[LIC_COUNT];	/* [LIC_NONE] unused */
	size_t nrules;
	struct lic_rule *rules;
	size_t nbundles;
	struct lic_bundle *bundles;
};

void licenses_release(struct licenses *L);

/* The term of a product with this id, or NULL. */
const struct lic_term *licenses_term(const struct licenses *L, enum lic_product p, const char *id);
/* The rule for a mode on a hypervisor, or NULL (no rule: no licence needed). */
const struct lic_rule *licenses_rule(const struct licenses *L, enum gpu_mode m, enum hypervisor hv);
/* Years of product bundled with a newly bought GPU of this type (0: none), and the bundle. */
int licenses_bundle_years(const struct licenses *L, enum lic_product p, const struct gpu_type *g,
			  const struct lic_bundle **which);

#endif
