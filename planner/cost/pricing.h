/*
 * pricing.h - what one node, one GPU and one licence of each node class
 * cost over the planning horizon, year by year, and the assumptions
 * behind those figures.
 *
 * Built from a loaded scenario (inventory, energy, hypervisor and
 * licensing settings, models/licenses.yaml).  The problem builder turns
 * the totals into objective coefficients; the plan's bill (cplan_cost)
 * multiplies the yearly figures by the counts of a concrete plan.
 *
 * Years: year y (0-based) covers [y, y+1) of the horizon; the last year
 * may be partial.  Hardware bought is depreciated straight-line over its
 * amortisation years (only the share inside the horizon counts); rent,
 * energy, hypervisor and hourly licences accrue evenly; subscriptions and
 * perpetual licences are charged in the year they are bought.
 *
 * Ownership: the pricing owns its arrays and strings; pricing_release
 * frees them.  It points into the scenario, which must outlive it.
 */
#ifndef PLANNER_PRICING_H
#define PLANNER_PRICING_H

#include <stddef.h>

#include "license.h"
#include "scenario.h"
#include "strmap.h"

#define PRICING_MAX_YEARS 30
#define HOURS_PER_YEAR 8760.0

enum cost_cat {
	CAT_HARDWARE,		/* bought nodes: depreciation */
	CAT_CLOUD,		/* rented nodes */
	CAT_ENERGY,
	CAT_HYPERVISOR,
	CAT_LIC_VCS,
	CAT_LIC_NVAIE,
	CAT_COUNT
};
const char *cost_cat_name(enum cost_cat c);	/* "hardware", ..., "license_nvaie" */
enum cost_cat cost_cat_of_product(enum lic_product p);

/* One licence of a product on one class: its term and yearly charges. */
struct lic_price {
	const struct lic_term *term;	/* NULL: the scenario's flat price override */
	const struct lic_term *oldest;	/* the term with the oldest as_of of those charged; NULL: none */
	char *term_id;			/* "subscription-3y", "perpetual", "cloud-hourly", "override" */
	int bundled_years;		/* years already covered by a bundled entitlement */
	double year[PRICING_MAX_YEARS];
	double total;
};

struct class_price {
	double node_year[CAT_COUNT][PRICING_MAX_YEARS];	/* one node in use */
	double node_total;
	double gpu_active_year[PRICING_MAX_YEARS];	/* energy of one GPU in use above idle */
	double gpu_active_total;
	enum lic_product mode_product[MODE_COUNT];	/* the licence each mode needs here (LIC_NONE: none) */
	struct lic_price lic[LIC_COUNT];	/* [LIC_NONE] is all zero */
};

struct assumption {
	char *what;		/* "vcs subscription-1y: 450 USD per GPU" */
	char *source;		/* "models/licenses.yaml:40: commonly cited, not in NVIDIA's pages" */
	int cat;		/* the cost category it prices (enum cost_cat), -1: any */
	int mode;		/* the mode it concerns (enum gpu_mode), -1: any */
};

struct pricing {
	const struct scenario *sc;
	int nyears;			/* ceil(horizon) */
	double year_len[PRICING_MAX_YEARS];	/* 1, ..., last (partial) */
	enum lic_counting counting;
	size_t nclasses;
	struct class_price **cls;	/* per inventory class; classes priced alike share one */
	size_t nprices;
	struct class_price **prices;	/* the distinct prices cls points to (owned) */
	size_t nassumptions;
	struct assumption *assumptions;
	struct strmap assumed;		/* "what\nsource" of each assumption -> its index */
	char **assumed_keys;		/* the keys of assumed (owned) */
	int named;			/* set when an assumption names the class being priced */
};

/*
 * Prices every class of the scenario.  Fails (DIAG_INPUT, at the scenario
 * or licence file) when a price the scenario needs does not exist, e.g.
 * perpetual licences beyond their included support with no support price.
 */
int pricing_build(struct pricing *pr, const struct scenario *sc, struct diag *d);
void pricing_release(struct pricing *pr);

/*
 * Adds an assumption once (duplicates are dropped).  A report lists it
 * when the plan has cost in cat and uses mode (-1: always).
 */
void pricing_assume(struct pricing *pr, int cat, int mode, const char *what, const char *source);

#endif
