/*
 * verify_spread.c - the verifier's check of the spread and availability
 * rules (verify.h), recounted from the slots with Kubernetes' own
 * semantics, not from the counts the placement engine keeps.
 *
 * Spread (DoNotSchedule): n(domain) - m <= max_skew for every eligible
 * domain, m the smallest count over the eligible domains, or 0 when
 * there are fewer than min_domains of them (PodTopologySpread's Filter).
 * The eligible nodes are the plan's nodes of the classes the workload's
 * sites and GPU types allow, and every node of such an owned class the
 * plan leaves closed (it stays in the cluster: it counts 0); a site is
 * eligible when it has an eligible node.  Availability: no domain of the
 * rule's kind holds more than replicas - need.
 */
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "cplan_engine.h"
#include "util.h"
#include "banned.h"

/* True when a node of class nc matches w's selectors: its sites and GPU types. */
static int class_eligible(const struct node_class *nc, const struct workload *w)
{
	size_t i;
	int ok = !w->nsites;

	for (i = 0; i < w->nsites && !ok; i++)
		ok = !str_casecmp(w->sites[i], nc->site);
	if (!ok)
		return 0;
	ok = !w->ngpu_types;
	for (i = 0; i < w->ngpu_types && !ok; i++)
		ok = w->gpu_types[i] == nc->gpu;
	return ok;
}

/* Counts per node and per site of demand d, and which domains are eligible. */
struct dcount {
	size_t *first, *by;	/* the occupied slots by demand (cplan_group_by) */
	unsigned char *sel;	/* per class: matches the workload's selectors */
	long *node, *site;
	unsigned char *node_ok, *site_ok;
	int closed_ok;		/* an eligible owned node the plan leaves closed (it counts 0) */
};

static void count_demand(const struct cplan *cp, int d, struct dcount *c)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	size_t i;

	memset(c->node, 0, cp->nnodes * sizeof(*c->node));
	memset(c->site, 0, p->nsites * sizeof(*c->site));
	memset(c->site_ok, 0, p->nsites);
	c->closed_ok = 0;
	for (i = c->first[d]; i < c->first[d + 1]; i++) {
		int nd = cp->slots[c->by[i]].node;
		c->node[nd]++;
		c->site[p->class_site[cp->nodes[nd].k]]++;
	}
	for (i = 0; i < p->nclasses; i++)
		c->sel[i] = (unsigned char)class_eligible(p->classes[i].nc, w);
	for (i = 0; i < cp->nnodes; i++) {
		c->node_ok[i] = c->sel[cp->nodes[i].k];
		if (c->node_ok[i])
			c->site_ok[p->class_site[cp->nodes[i].k]] = 1;
	}
	for (i = 0; i < p->nclasses; i++) {
		const struct node_class *nc = p->classes[i].nc;
		if (nc->own == OWN_OWNED && cp->opened[i] < nc->count && c->sel[i]) {
			c->closed_ok = 1;
			c->site_ok[p->class_site[i]] = 1;
		}
	}
}

/* The fullest domain of n[0..len) (its index) and the global minimum over the eligible ones. */
static size_t dom_stats(const long *n, const unsigned char *ok, size_t len, int closed, int min_domains, long *m)
{
	size_t i, top = 0, neligible = closed ? 1 : 0;
	long lo = closed ? 0 : -1;

	for (i = 0; i < len; i++) {
		if (n[i] > n[top])
			top = i;
		if (!ok[i])
			continue;
		neligible++;
		if (lo < 0 || n[i] < lo)
			lo = n[i];
	}
	*m = neligible < (size_t)min_domains || lo < 0 ? 0 : lo;
	return top;
}

/* The name of domain i of kind k (a node's, a site); caller frees. */
static char *dom_name(const struct cplan *cp, enum spread_kind k, size_t i)
{
	size_t j;

	if (k == SPREAD_NODE)
		return cplan_node_name(cp, &cp->nodes[i]);
	for (j = 0; j < cp->p->nclasses; j++)
		if (cp->p->class_site[j] == (int)i)
			return xstrdup(cp->p->classes[j].nc->site);
	return xstrdup("?");
}

static int check_demand(const struct cplan *cp, int d, struct dcount *c, struct diag *dg)
{
	const struct problem *p = cp->p;
	const struct workload *w = p->demands[d].w;
	enum spread_kind k;
	char *name;
	long m;

	count_demand(cp, d, c);
	for (k = SPREAD_NODE; k <= SPREAD_SITE; k++) {
		const long *n = k == SPREAD_NODE ? c->node : c->site;
		size_t len = k == SPREAD_NODE ? cp->nnodes : p->nsites, top;
		long need;
		if (!len)
			continue;
		top = dom_stats(n, k == SPREAD_NODE ? c->node_ok : c->site_ok, len, k == SPREAD_NODE && c->closed_ok,
				w->min_domains, &m);
		if (w->spread == k && !w->schedule_anyway && n[top] - m > w->max_skew) {
			name = dom_name(cp, k, top);
			diag_set(dg, DIAG_IO, NULL, 0, 0, "plan failed verification (a planner bug): workload '%s': "
				 "spread %s max_skew %d broken: %s '%s' holds %ld replicas, the global minimum is %ld",
				 w->name, spread_name(k), w->max_skew, spread_name(k), name, n[top], m);
			free(name);
			return -1;
		}
		need = workload_need(w, p->demands[d].replicas);
		if (need >= 0 && workload_avail_domain(w) == k && n[top] > p->demands[d].replicas - need) {
			name = dom_name(cp, k, top);
			diag_set(dg, DIAG_IO, NULL, 0, 0, "plan failed verification (a planner bug): workload '%s': "
				 "%s keeps %ld running when a %s is lost, but %s '%s' holds %ld of its %ld replicas",
				 w->name, w->avail == AVAIL_MIN ? "min_available" : "max_unavailable", need, spread_name(k),
				 spread_name(k), name, n[top], p->demands[d].replicas);
			free(name);
			return -1;
		}
	}
	return 0;
}

/* c's buffers for plan cp: the occupied slots grouped by demand, and the counts. */
static void dcount_init(const struct cplan *cp, struct dcount *c)
{
	const struct problem *p = cp->p;
	size_t i, *key = xmalloc((cp->nslots + 1) * sizeof(*key));

	for (i = 0; i < cp->nslots; i++)	/* free slots go to a group of their own, ndemands */
		key[i] = cp->slots[i].d >= 0 ? (size_t)cp->slots[i].d : p->ndemands;
	cplan_group_by(key, cp->nslots, p->ndemands + 1, &c->first, &c->by);
	free(key);
	c->sel = xcalloc(p->nclasses + 1, 1);
	c->node = xcalloc(cp->nnodes + 1, sizeof(*c->node));
	c->node_ok = xcalloc(cp->nnodes + 1, 1);
	c->site = xcalloc(p->nsites + 1, sizeof(*c->site));
	c->site_ok = xcalloc(p->nsites + 1, 1);
}

static void dcount_release(struct dcount *c)
{
	free(c->node);
	free(c->node_ok);
	free(c->site);
	free(c->site_ok);
	free(c->sel);
	free(c->first);
	free(c->by);
}

int verify_spread(const struct cplan *cp, struct diag *dg)
{
	const struct problem *p = cp->p;
	struct dcount c;
	size_t i;
	int rc = 0;

	if (!p->ncapped)
		return 0;
	dcount_init(cp, &c);
	for (i = 0; i < p->ndemands && !rc; i++)
		if (p->demands[i].cap >= 0)
			rc = check_demand(cp, (int)i, &c, dg);
	dcount_release(&c);
	return rc;
}

/*
 * Demand d's skew: its fullest domain of its spread's kind less the global
 * minimum (ScheduleAnyway has no min_domains); the fullest's index.
 */
static size_t skew_of(const struct cplan *cp, int d, struct dcount *c, struct spread_skew *out)
{
	const struct workload *w = cp->p->demands[d].w;
	int node = w->spread == SPREAD_NODE;
	const long *n = node ? c->node : c->site;
	size_t top;
	long m;

	count_demand(cp, d, c);
	top = dom_stats(n, node ? c->node_ok : c->site_ok, node ? cp->nnodes : cp->p->nsites, node && c->closed_ok, 1,
			&m);
	out->d = d;
	out->top = n[top];
	out->min = m;
	out->skew = n[top] - m;
	out->domain = NULL;
	return top;
}

size_t verify_spread_skews(const struct cplan *cp, struct spread_skew **out)
{
	const struct problem *p = cp->p;
	struct spread_skew *s = NULL;
	struct dcount c;
	size_t i, n = 0, cap = 0;
	int any = 0;

	*out = NULL;
	for (i = 0; i < p->ndemands; i++)
		any |= p->demands[i].w->spread != SPREAD_NONE && p->demands[i].w->schedule_anyway;
	if (!any || !cp->nnodes)
		return 0;
	dcount_init(cp, &c);
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		struct spread_skew k;
		size_t top;
		if (w->spread == SPREAD_NONE || !w->schedule_anyway || !cp->placed[i])
			continue;
		top = skew_of(cp, (int)i, &c, &k);
		if (k.skew <= w->max_skew)
			continue;
		XGROW(s, cap, n + 1);
		s[n] = k;
		s[n].domain = dom_name(cp, w->spread, top);
		n++;
	}
	dcount_release(&c);
	*out = s;
	return n;
}

void verify_spread_skews_free(struct spread_skew *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i].domain);
	free(s);
}
