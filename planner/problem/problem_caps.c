/*
 * problem_caps.c - the per-domain caps a workload's spread and
 * availability rules put on a plan (problem.h, problem_dom_cap), and the
 * sites of the inventory they count by.
 *
 * Both rules come down to one bound per failure domain: a DoNotSchedule
 * spread keeps n(domain) - m <= max_skew, where m is the smallest count
 * over the eligible domains; planning with m = 0 keeps the rule for any
 * m >= 0, so at most max_skew replicas a domain is sound whatever the
 * rest of the cluster holds (an idle eligible node makes m = 0 anyway,
 * and one is there whenever the workload has fewer replicas than
 * eligible domains times max_skew).  An availability rule keeps `need`
 * replicas running when any one domain is lost: at most replicas - need
 * a domain.
 */
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "problem_caps.h"
#include "util.h"
#include "banned.h"

/* A DoNotSchedule spread's cap (problem.h): max_skew over the level the emptiest domain can hold. */
static long spread_cap(const struct pdemand *dm, const struct workload *w)
{
	long m = 0;

	if (dm->dom_max <= 1 && w->min_domains <= 1)
		return PROBLEM_NO_CAP;
	if (dm->dom_fixed == dm->dom_max && dm->dom_fixed >= w->min_domains && dm->dom_fixed > 0) {
		m = (dm->replicas + dm->dom_fixed - 1) / dm->dom_fixed - w->max_skew;
		if (m < 0)
			m = 0;
	}
	return m + w->max_skew;
}

long problem_dom_cap(const struct problem *p, int d, enum spread_kind kind, int avail)
{
	const struct pdemand *dm = &p->demands[d];
	const struct workload *w = dm->w;
	long cap = PROBLEM_NO_CAP;

	if (w->spread == kind && !w->schedule_anyway && w->max_skew > 0)
		cap = spread_cap(dm, w);
	if (avail && w->avail != AVAIL_NONE && workload_avail_domain(w) == kind) {
		long need = workload_need(w, dm->replicas), c = dm->replicas - need;
		if (c < 0)
			c = 0;
		if (c < cap)
			cap = c;
	}
	return cap;
}

char *problem_cap_reason(const struct problem *p, int d)
{
	const struct workload *w = p->demands[d].w;
	long need = workload_need(w, p->demands[d].replicas);
	char *sp = NULL, *av = NULL, *r;

	if (w->spread != SPREAD_NONE && !w->schedule_anyway && problem_dom_cap(p, d, w->spread, 0) < PROBLEM_NO_CAP)
		sp = xasprintf("spread %s max_skew %d (DoNotSchedule): at most %ld replica%s a %s", spread_name(w->spread),
			       w->max_skew, problem_dom_cap(p, d, w->spread, 0),
			       problem_dom_cap(p, d, w->spread, 0) == 1 ? "" : "s", spread_name(w->spread));
	if (w->avail != AVAIL_NONE)
		av = xasprintf("%s keeps %ld of %ld running when a %s is lost: at most %ld a %s",
			       w->avail == AVAIL_MIN ? "min_available" : "max_unavailable", need,
			       p->demands[d].replicas, spread_name(workload_avail_domain(w)),
			       p->demands[d].replicas - need, spread_name(workload_avail_domain(w)));
	/* both rules count by the same kind: an availability rule's is its spread's */
	r = xasprintf("%s%s%s; every %s it may use is at that cap or has no room for it", sp ? sp : "",
		      sp && av ? "; " : "", av ? av : "", spread_name(workload_avail_domain(w)));
	free(sp);
	free(av);
	return r;
}

/* dm's eligible domains of its spread's kind: every plan's (owned) and the most a plan can have. */
static void count_domains(const struct problem *p, struct pdemand *dm)
{
	unsigned char *fixed = xcalloc(p->nsites + 1, 1), *any = xcalloc(p->nsites + 1, 1);
	size_t k, site;

	dm->dom_fixed = dm->dom_max = 0;
	for (k = 0; k < p->nclasses; k++) {
		const struct node_class *nc = p->classes[k].nc;
		if (!scenario_class_selects(nc, dm->w))
			continue;
		if (dm->w->spread == SPREAD_NODE) {
			dm->dom_fixed += nc->own == OWN_OWNED ? nc->count : 0;
			dm->dom_max += nc->count;
		}
		any[p->class_site[k]] = 1;
		if (nc->own == OWN_OWNED)
			fixed[p->class_site[k]] = 1;
	}
	for (site = 0; site < p->nsites && dm->w->spread == SPREAD_SITE; site++) {
		dm->dom_fixed += fixed[site];
		dm->dom_max += any[site];
	}
	free(fixed);
	free(any);
}

/* Numbers the sites (case-insensitive, first seen first) and the demands with a cap. */
void problem_caps_build(struct problem *p)
{
	size_t k, j, i;

	p->class_site = xcalloc(p->nclasses + 1, sizeof(*p->class_site));
	for (k = 0; k < p->nclasses; k++) {
		const char *s = p->classes[k].nc->site;
		for (j = 0; j < k; j++)
			if (!str_casecmp(p->classes[j].nc->site, s))
				break;
		p->class_site[k] = j < k ? p->class_site[j] : (int)p->nsites++;
	}
	p->ncapped = 0;
	for (i = 0; i < p->ndemands; i++) {
		const struct workload *w = p->demands[i].w;
		int capped = (w->spread != SPREAD_NONE && !w->schedule_anyway) || w->avail != AVAIL_NONE;
		p->demands[i].cap = capped ? (int)p->ncapped++ : -1;
		if (w->spread != SPREAD_NONE)
			count_domains(p, &p->demands[i]);
	}
}
