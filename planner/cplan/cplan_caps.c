/*
 * cplan_caps.c - the final recount of a concrete plan's spread and
 * availability rules (cplan_caps_trim): Kubernetes' own skew rule over the
 * eligible domains, which the caps cplan_node_has_room applies as slots
 * fill (cplan.c) cannot force alone; replicas past it become unplaced.
 */
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "util.h"
#include "banned.h"

/* Demand d's replicas per domain of kind k (nodes or sites) and which domains are eligible. */
struct trim {
	long *n;
	unsigned char *ok;
	unsigned char *sel;	/* per class: its nodes are eligible (scenario_class_selects) */
	size_t len;
	int closed;		/* an eligible owned node the plan leaves closed: a node domain that counts 0 */
};

static void trim_count(const struct cplan *cp, int d, enum spread_kind k, struct trim *t)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t i;

	t->len = k == SPREAD_NODE ? cp->nnodes : p->nsites;
	memset(t->ok, 0, t->len + 1);
	t->closed = 0;
	for (i = 0; i < t->len; i++)
		t->n[i] = k == SPREAD_NODE ? cplan_caps_node(cp, d, (int)i) : cplan_caps_site(cp, d, (int)i);
	for (i = 0; i < p->nclasses; i++)
		t->sel[i] = (unsigned char)scenario_class_selects(p->classes[i].nc, w);
	for (i = 0; i < cp->nnodes; i++)
		if (t->sel[cp->nodes[i].k])
			t->ok[k == SPREAD_NODE ? i : (size_t)p->class_site[cp->nodes[i].k]] = 1;
	for (i = 0; i < p->nclasses; i++) {
		const struct node_class *nc = p->classes[i].nc;
		if (nc->own != OWN_OWNED || cp->opened[i] >= nc->count || !t->sel[i])
			continue;
		if (k == SPREAD_NODE)
			t->closed = 1;
		else
			t->ok[p->class_site[i]] = 1;
	}
}

/* The global minimum of PodTopologySpread: the smallest eligible count, 0 below min_domains domains. */
static long trim_min(const struct trim *t, int min_domains)
{
	size_t i, ne = t->closed ? 1 : 0;
	long lo = t->closed ? 0 : -1;

	for (i = 0; i < t->len; i++)
		if (t->ok[i]) {
			ne++;
			if (lo < 0 || t->n[i] < lo)
				lo = t->n[i];
		}
	return ne < (size_t)min_domains || lo < 0 ? 0 : lo;
}

/* Takes replica out of slot s (demand d): the last replica number moves into its place, it counts unplaced. */
static void trim_slot(struct cplan *cp, size_t s, int d)
{
	long r = cp->slots[s].replica, last = cp->placed[d] - 1;
	size_t i;

	cplan_slot_clear(cp, s);
	for (i = 0; i < cp->nslots && r != last; i++)
		if (cp->slots[i].d == d && cp->slots[i].replica == last) {
			cp->slots[i].replica = r;
			break;
		}
	cp->placed[d]--;
	cp->unplaced[d]++;
}

/* Takes d's replicas out of the domains of kind k holding more than cap, last slot first; how many. */
static long trim_over(struct cplan *cp, int d, enum spread_kind k, struct trim *t, long cap)
{
	long cut = 0;
	size_t s;

	for (s = 0; s < t->len && t->n[s] <= cap; s++)
		;
	if (s == t->len)
		return 0;	/* the common case: no domain over, no slot looked at */
	for (s = cp->nslots; s-- > 0;) {
		int dom;
		if (cp->slots[s].d != d)
			continue;
		dom = k == SPREAD_NODE ? cp->slots[s].node : cp->p->class_site[cp->nodes[cp->slots[s].node].k];
		if (t->n[dom] <= cap)
			continue;
		t->n[dom]--;
		trim_slot(cp, s, d);
		cut++;
	}
	return cut;
}

/*
 * Trims demand d: above its availability cap (replicas - need, which a
 * plan kept from a step with more replicas can pass), then above the
 * spread's m + max_skew.
 */
static void trim_demand(struct cplan *cp, int d, struct trim *t)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	long m, cap;

	if (w->avail != AVAIL_NONE) {
		enum spread_kind k = workload_avail_domain(w);
		cap = problem_dom_cap(p, d, k, 1);
		trim_count(cp, d, k, t);
		if (trim_over(cp, d, k, t, cap) > 0) {
			free(cp->reason[d]);
			cp->reason[d] = problem_cap_reason(p, d);
		}
	}
	if (w->spread == SPREAD_NONE || w->schedule_anyway)
		return;
	trim_count(cp, d, w->spread, t);
	m = trim_min(t, w->min_domains);
	if (!trim_over(cp, d, w->spread, t, m + w->max_skew))
		return;
	free(cp->reason[d]);
	cp->reason[d] = xasprintf("spread %s max_skew %d (DoNotSchedule): the emptiest of its eligible %ss holds %ld "
				  "replicas, so no %s may hold more than %ld%s", spread_name(w->spread), w->max_skew,
				  spread_name(w->spread), m, spread_name(w->spread), m + w->max_skew,
				  m ? "" : " (an eligible one it cannot use counts too: its sites and gpu_types say which)");
}

void cplan_caps_trim(struct cplan *cp)
{
	const struct problem *p = cp->p;
	struct trim t;
	size_t i, len = cp->nnodes > p->nsites ? cp->nnodes : p->nsites;

	if (!p->ncapped)
		return;
	t.n = xcalloc(len + 1, sizeof(*t.n));
	t.ok = xcalloc(len + 1, 1);
	t.sel = xcalloc(p->nclasses + 1, 1);
	for (i = 0; i < p->ndemands; i++) {
		if (p->demands[i].cap >= 0)
			trim_demand(cp, (int)i, &t);
	}
	free(t.n);
	free(t.ok);
	free(t.sel);
}
