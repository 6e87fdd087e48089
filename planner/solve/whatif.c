/*
 * whatif.c - what a plan adds, and what would place what it leaves
 * unplaced (whatif.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "whatif.h"
#include "banned.h"

#define WHATIF_MIN_S 2.0		/* seconds the second plan needs left at least */
#define WHATIF_MIN_SHARE 0.05	/* and that share of the time limit */

/* The nodes of class k in plan cp (those of ordinal from and beyond), their cost into *a. */
static void class_bill(const struct cplan *cp, size_t k, long from, struct plan_addition *a)
{
	size_t i;
	int q;

	for (i = 0; i < cp->nnodes; i++) {
		struct node_bill b;
		if (cp->nodes[i].k != (int)k)
			continue;
		a->in_use++;
		if (cp->nodes[i].ordinal < from)
			continue;
		cplan_node_bill(cp, i, &b);
		a->nodes++;
		for (q = 0; q < CAT_COUNT; q++)
			a->cat[q] += b.cat[q];
		a->total += b.total;
	}
}

/*
 * The classes whose nodes of ordinal from[k] and beyond count as added
 * (from[k] < 0: none), with what those nodes cost; in class order.
 */
static size_t collect(const struct cplan *cp, const long *from, struct plan_addition **out)
{
	const struct problem *p = cp->p;
	struct plan_addition *a = xcalloc(p->nclasses + 1, sizeof(*a));
	size_t k, n = 0;

	for (k = 0; k < p->nclasses; k++) {
		struct plan_addition *x = &a[n];
		if (from[k] < 0)
			continue;
		x->nc = p->classes[k].nc;
		x->max = from[k];
		class_bill(cp, k, from[k], x);
		if (x->nodes)
			n++;
	}
	if (!n) {
		free(a);
		a = NULL;
	}
	*out = a;
	return n;
}

size_t plan_additions(const struct cplan *cp, struct plan_addition **out)
{
	const struct problem *p = cp->p;
	long *from = xcalloc(p->nclasses + 1, sizeof(*from));
	size_t k, n;

	for (k = 0; k < p->nclasses; k++)
		from[k] = p->classes[k].nc->own == OWN_OWNED ? -1 : 0;
	n = collect(cp, from, out);
	for (k = 0; k < n; k++)
		(*out)[k].max = (*out)[k].nc->count;
	free(from);
	return n;
}

/* True when some workload of which replicas stay unplaced could use class nc. */
static int helps(const struct plan_result *base, const struct node_class *nc)
{
	const struct cplan *cp = base->final;
	size_t i;

	for (i = 0; i < cp->p->ndemands; i++) {
		const struct workload *w = cp->p->demands[i].w;
		if (cp->unplaced[i] && scenario_class_allows(nc, w) && w->gpus <= nc->gpus_per_node &&
		    w->cpu_cores <= nc->cpu_cores && w->ram_gib <= nc->ram_gib)
			return 1;
	}
	return 0;
}

/* A rented class of cloud offer of at the offer's cloud, or 0 when it cannot be planned. */
static int offer_class(const struct cloud_offer *of, long count, struct node_class *nc)
{
	memset(nc, 0, sizeof(*nc));
	if (of->pricing == PRICING_SPOT || of->pricing == PRICING_CAPACITY_BLOCK || of->vcpus <= 0 || of->ram_gib <= 0 ||
	    !of->gpu)
		return 0;
	nc->name = of->id;
	nc->count = count;
	nc->gpu = of->gpu;
	nc->gpus_per_node = of->gpus;
	nc->hv = HV_CLOUD;
	nc->site = of->cloud;
	nc->cpu_cores = of->vcpus;
	nc->ram_gib = of->ram_gib;
	nc->own = OWN_RENT;
	nc->hourly_usd = cloud_offer_hourly(of); /* an upfront payment amortised over the term, as inventory rows count it */
	nc->offer = of;
	nc->bundle_years = -1;
	nc->line = of->line;
	return 1;
}

/* True when the inventory already has a class named name or renting offer of. */
static int in_inventory(const struct inventory *inv, const struct cloud_offer *of)
{
	size_t k;
	for (k = 0; k < inv->n; k++)
		if (inv->classes[k].offer == of || !strcmp(inv->classes[k].name, of->id))
			return 1;
	return 0;
}

/* The extended inventory; 0 when nothing can be added. */
static size_t extend(struct plan_whatif *w, const struct plan_result *base)
{
	const struct scenario *sc = base->sc;
	size_t k, n, grown = 0;

	w->norig = sc->inventory.n;
	w->classes = xcalloc(sc->inventory.n + sc->clouds.n + 1, sizeof(*w->classes));
	for (k = 0; k < sc->inventory.n; k++) {
		w->classes[k] = sc->inventory.classes[k];
		if (w->classes[k].own != OWN_OWNED && helps(base, &w->classes[k])) {
			w->classes[k].count += w->extra;
			grown++;
		}
	}
	n = k;
	for (k = 0; k < sc->clouds.n; k++) {
		const struct cloud_offer *of = &sc->clouds.offers[k];
		if (!in_inventory(&sc->inventory, of) && offer_class(of, w->extra, &w->classes[n]) &&
		    helps(base, &w->classes[n]))
			n++;
	}
	w->noffers = n - w->norig;
	w->sc = *sc;
	w->sc.inventory.n = n;
	w->sc.inventory.classes = w->classes;
	return grown + w->noffers;
}

/*
 * What the what-if plan changes against base's plan, class by class (buy
 * and rent rows, then the offers it added): the nodes in use more (or
 * fewer) and what that adds (or saves).  A class the first plan uses and
 * the what-if drops is a change too: the cheapest fleet may trade a small
 * node for a larger one.
 */
static size_t changes(const struct plan_whatif *w, const struct plan_result *base, struct plan_addition **out)
{
	const struct cplan *cp = w->r.final;
	struct plan_addition *a = xcalloc(w->sc.inventory.n + 1, sizeof(*a));
	size_t k, n = 0;
	int q;

	for (k = 0; k < w->sc.inventory.n; k++) {
		struct plan_addition now = { 0 }, was = { 0 }, *x = &a[n];
		if (w->classes[k].own == OWN_OWNED)
			continue;
		class_bill(cp, k, 0, &now);
		if (k < w->norig)
			class_bill(base->final, k, 0, &was);
		if (now.in_use == was.in_use)
			continue;
		x->nc = cp->p->classes[k].nc;
		x->max = k < w->norig ? base->sc->inventory.classes[k].count : 0;
		x->in_use = now.in_use;
		x->nodes = now.in_use - was.in_use;
		for (q = 0; q < CAT_COUNT; q++)
			x->cat[q] = now.cat[q] - was.cat[q];
		x->total = now.total - was.total;
		n++;
	}
	if (!n) {
		free(a);
		a = NULL;
	}
	*out = a;
	return n;
}

int plan_whatif_run(struct plan_whatif *w, const struct plan_result *base, const struct plan_opts *o,
		    struct diag *d)
{
	struct plan_opts po = *o;
	struct cplan_cost c;
	struct deadline dl = base->dl;

	memset(w, 0, sizeof(*w));
	cplan_cost(base->final, &c);
	w->base_total = c.total;
	/*
	 * The second plan shares the run's deadline: none when the first used
	 * it up, or when its greedy pass was cut (what is left is the reports')
	 */
	if (!c.unplaced || base->greedy.stopped || deadline_left(&dl) <= 0)
		return 0;
	po.deadline = &dl;
	/*
	 * With less than WHATIF_MIN_S or WHATIF_MIN_SHARE of the limit left,
	 * the greedy pass only: the solver's own model and root LP need that
	 * before any clock can stop them, and on large fleets that takes
	 * longer than the little time left.
	 */
	if (deadline_left(&dl) < fmax(WHATIF_MIN_S, WHATIF_MIN_SHARE * dl.limit_s))
		po.greedy_only = 1;
	w->extra = c.unplaced < 1000000 ? c.unplaced : 1000000;
	if (!extend(w, base))
		return 0;
	po.export_path = NULL;
	po.colgen_s = 0;	/* its seconds are for the plan asked for, not this one */
	po.start = NULL;	/* a plan of the first run's model, not of this one's */
	w->ran = 1;
	if (plan_run(&w->r, &w->sc, &po, d))
		return -1;
	if (w->r.greedy.stopped) {	/* a greedy pass cut short says nothing about what to add */
		w->ran = 0;
		return 0;
	}
	w->nadd = changes(w, base, &w->add);
	cplan_cost(w->r.final, &c);
	w->total = c.total;
	w->unplaced = c.unplaced;
	return 0;
}

void plan_whatif_release(struct plan_whatif *w)
{
	plan_release(&w->r);
	free(w->add);
	free(w->classes);
	memset(w, 0, sizeof(*w));
}
