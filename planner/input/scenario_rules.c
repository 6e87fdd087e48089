/*
 * scenario_rules.c - the workloads' spread and availability rules against
 * the inventory's failure domains: a site that a spread by site needs as
 * a zone label value (scenario_site_labels_check), and a rule that no
 * plan can keep, whatever it buys or rents (scenario_rule_unkeepable).
 *
 * The domains are counted as the scheduler counts them: every node (and
 * every site of a node) of the classes the workload's sites and
 * gpu_types select, whether or not it has room, each class to buy or
 * rent at its most (a plan may take them all).  Sites are one site when
 * they differ in case only, as the planner numbers them.
 *
 * - Availability keeps `need` replicas running when any one domain of
 *   its kind is lost, so a domain holds at most replicas - need.  Of P
 *   replicas on D domains, losing the fullest leaves at most P (D - 1) / D
 *   running: the rule can be kept exactly when D (replicas - need) >=
 *   replicas, and no capacity changes D.
 * - A DoNotSchedule spread over fewer eligible domains E than min_domains
 *   takes the global minimum as 0, so a domain holds at most max_skew:
 *   E max_skew must reach replicas.  With E >= min_domains an even split
 *   over every domain keeps it; only capacity can break it then, which
 *   is the plan's to report (unplaced.csv), not an input error.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"
#include "banned.h"

#define NAMES_SHOWN 3

/* The domains a workload's selectors give it. */
struct domains {
	long long nodes;	/* nodes of the selected classes (to buy or rent: at their most) */
	int bought;		/* some of those classes are to buy or rent */
	int vm_workers;		/* some class's Kubernetes nodes are vGPU worker VMs (k8s_workers vgpu) */
	size_t nclasses, nsites;
	const char *cls[NAMES_SHOWN], *site[NAMES_SHOWN];
};

int scenario_class_selects(const struct node_class *nc, const struct workload *w)
{
	size_t i;
	int ok = !w->nsites;

	for (i = 0; i < w->nsites && !ok; i++)
		ok = !str_casecmp(w->sites[i], nc->site);
	for (i = 0; ok && i < w->ngpu_types; i++)
		if (w->gpu_types[i] == nc->gpu)
			return 1;
	return ok && !w->ngpu_types;
}

static int site_cmp(const void *a, const void *b)
{
	return str_casecmp(*(const char *const *)a, *(const char *const *)b);
}

static void count_domains(const struct inventory *inv, const struct workload *w, struct domains *dm)
{
	const char **sites = xcalloc(inv->n + 1, sizeof(*sites));
	size_t i, j, n = 0;

	memset(dm, 0, sizeof(*dm));
	for (i = 0; i < inv->n; i++) {
		const struct node_class *nc = &inv->classes[i];
		if (!scenario_class_selects(nc, w))
			continue;
		dm->nodes += nc->count;
		dm->bought |= nc->own != OWN_OWNED;
		dm->vm_workers |= nc->k8s_vgpu;
		if (dm->nclasses < NAMES_SHOWN)
			dm->cls[dm->nclasses] = nc->name;
		dm->nclasses++;
		sites[n++] = nc->site;
		for (j = 0; j < NAMES_SHOWN && dm->site[j] && str_casecmp(dm->site[j], nc->site); j++)
			;
		if (j < NAMES_SHOWN && !dm->site[j])
			dm->site[j] = nc->site;	/* the first sites in inventory order, for messages */
	}
	qsort(sites, n, sizeof(*sites), site_cmp);	/* distinct sites, counted sorted: n log n */
	for (i = 0; i < n; i++)
		dm->nsites += i == 0 || str_casecmp(sites[i - 1], sites[i]) != 0;
	free(sites);
}

/* "'a', 'b', 'c' and 2 more" of the first names shown of n. */
static void add_names(struct sb *sb, const char *const *names, size_t n)
{
	size_t i, shown = n < NAMES_SHOWN ? n : NAMES_SHOWN;

	for (i = 0; i < shown; i++)
		sb_addf(sb, "%s'%s'", i == 0 ? "" : i + 1 == n ? " and " : ", ", names[i]);
	if (n > shown)
		sb_addf(sb, " and %zu more", n - shown);
}

static const char *plural(long long n)
{
	return n == 1 ? "" : "s";
}

/*
 * Why w's availability rule can never be kept on domains dm: "min_available 3
 * by site keeps 3 replicas when a site is lost, and its sites allow 1
 * ('dc1')"; NULL when it can.
 */
static char *avail_unkeepable(const struct workload *w, const struct domains *dm)
{
	enum spread_kind k = workload_avail_domain(w);
	long need = workload_need(w, w->replicas);
	long long d = k == SPREAD_SITE ? (long long)dm->nsites : dm->nodes, per = w->replicas - need;
	struct sb sb;

	if (need <= 0 || d == 0 || d * per >= w->replicas)
		return NULL;
	sb_init(&sb);
	sb_addf(&sb, "%s %ld%s by %s keeps %ld replica%s when a %s is lost, and its ",
		w->avail == AVAIL_MIN ? "min_available" : "max_unavailable", w->avail_value,
		w->avail_percent ? "%" : "", spread_name(k), need, plural(need), spread_name(k));
	if (k == SPREAD_SITE) {
		sb_addf(&sb, "sites allow %lld (", d);
		add_names(&sb, dm->site, dm->nsites);
	} else {
		sb_addf(&sb, "node classes allow %lld node%s (", d, plural(d));
		add_names(&sb, dm->cls, dm->nclasses);
		if (dm->bought)
			sb_adds(&sb, "; counting those to buy or rent at their maximum");
	}
	sb_adds(&sb, ")");
	if (d > 1)
		sb_addf(&sb, ": at most %lld a %s, %lld of its %ld replicas", per, spread_name(k), d * per,
			w->replicas);
	return sb_detach(&sb);
}

/*
 * Why w's DoNotSchedule spread can never be kept on domains dm: "spread
 * site with min_domains 3 and max_skew 1 allows at most 2 replicas on its 2
 * eligible sites, and it asks 6"; NULL when it can, or when the domains
 * are not known before planning (a node spread over vGPU worker VMs).
 */
static char *spread_unkeepable(const struct workload *w, const struct domains *dm)
{
	long long e = w->spread == SPREAD_SITE ? (long long)dm->nsites : dm->nodes;

	if (w->spread == SPREAD_NONE || w->schedule_anyway || e == 0 || e >= w->min_domains ||
	    e * w->max_skew >= w->replicas || (w->spread == SPREAD_NODE && dm->vm_workers))
		return NULL;
	return xasprintf("spread %s with min_domains %d and max_skew %d allows at most %lld replica%s on its %lld "
			 "eligible %s%s%s, and it asks %ld",
			 spread_name(w->spread), w->min_domains, w->max_skew, e * w->max_skew, plural(e * w->max_skew),
			 e, spread_name(w->spread), plural(e),
			 w->spread == SPREAD_NODE && dm->bought ? " (counting those to buy or rent at their maximum)" : "",
			 w->replicas);
}

/* Every site a workload that spreads by site may use must be a label value (the zone label's). */
int scenario_site_labels_check(const struct scenario *sc, struct diag *d)
{
	const struct inventory *inv = &sc->inventory;
	const struct workloads *wl = &sc->workloads;
	size_t i, j;

	for (i = 0; i < inv->n; i++) {
		const struct node_class *nc = &inv->classes[i];
		if (inventory_label_value_valid(nc->site))
			continue;
		for (j = 0; j < wl->n; j++)
			if (wl->w[j].spread == SPREAD_SITE && scenario_class_selects(nc, &wl->w[j]))
				return diag_set(d, DIAG_INPUT, inv->file, nc->line, nc->site_col,
						"site '%s' is not a Kubernetes label value (workload '%s' spreads by site; "
						"a label value has at most 63 letters, digits, '-', '_' and '.', and "
						"starts and ends with a letter or digit)",
						nc->site, wl->w[j].name);
	}
	return 0;
}

char *scenario_rule_unkeepable(const struct scenario *sc, const struct workload *w)
{
	struct domains dm;
	char *why;

	if (w->spread == SPREAD_NONE && w->avail == AVAIL_NONE)
		return NULL;
	count_domains(&sc->inventory, w, &dm);
	why = spread_unkeepable(w, &dm);
	return why ? why : avail_unkeepable(w, &dm);
}
