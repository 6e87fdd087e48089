/*
 * inventory.h - node classes from the inventory CSV.
 *
 * A row is a class of identical nodes: `count` of them for owned nodes,
 * at most `count` for nodes one may buy or rent.  A rented row may name a
 * cloud offer, which supplies its GPU type and count, vCPUs, memory and
 * hourly price.  An owned row may name its nodes (`nodes`: one Kubernetes
 * node name per node, unique in the file).  The inventory owns its
 * strings; gpu points into the catalog, which must outlive it.
 */
#ifndef PLANNER_INVENTORY_H
#define PLANNER_INVENTORY_H

#include <stddef.h>

#include "catalog.h"
#include "cloud.h"
#include "diag.h"
#include "hosting.h"

enum ownership { OWN_OWNED, OWN_BUY, OWN_RENT, OWN_COUNT };
const char *ownership_name(enum ownership o);

struct node_class {
	char *name;		/* unique */
	long count;		/* nodes owned, or the most one may buy/rent */
	const struct gpu_type *gpu;
	int gpus_per_node;
	enum hypervisor hv;
	char *site;
	double cpu_cores;	/* per node */
	double ram_gib;		/* per node */
	enum ownership own;
	double capex_usd;	/* buy: price per node */
	double amortization_years; /* buy */
	double hourly_usd;	/* rent: price per node-hour */
	double base_power_w;	/* node power without GPUs; 0 = not priced */
	const struct cloud_offer *offer; /* rented from this cloud offer, or NULL */
	int bundle_years;	/* NVAIE years bundled per GPU; -1: the licence model's default */
	char **nodes;		/* hostnames of the nodes (owned rows), or NULL: made-up names */
	size_t nnodes;		/* entries in nodes: 0 or count */
	int k8s_vgpu;		/* k8s_workers vgpu: the Kubernetes nodes are worker VMs with vGPUs */
	long line;		/* row in the file */
	int name_col;		/* field number of its name in that row (for messages) */
	int site_col;		/* and of its site */
};

struct inventory {
	char *file;
	size_t n;
	struct node_class *classes;
};
#define INVENTORY_INIT { NULL, 0, NULL }

/*
 * The modes nodes of nc may run: its hypervisor's (hypervisor_modes), and
 * of those only vgpu and mig-vgpu when its Kubernetes nodes are worker
 * VMs with vGPUs (k8s_workers vgpu).
 */
unsigned node_class_modes(const struct node_class *nc);

/* clouds may be NULL (no offers: an `offer` column must then be empty). */
int inventory_load(struct inventory *inv, const char *path, const struct catalog *cat,
		   const struct clouds *clouds, struct diag *d);
void inventory_release(struct inventory *inv);

/*
 * True when s is a Kubernetes node name: an RFC 1123 subdomain (lower-case
 * letters, digits, '-' and '.', at most 253 characters, every dot-separated
 * label starting and ending with a letter or digit).
 */
int inventory_node_name_valid(const char *s);

/*
 * True when s is a Kubernetes label value (apimachinery
 * validation.IsValidLabelValue, non-empty): at most 63 characters of
 * letters, digits, '-', '_' and '.', starting and ending with a letter or
 * digit.  A site is the value of the zone label its nodes carry.
 */
int inventory_label_value_valid(const char *s);

#endif
