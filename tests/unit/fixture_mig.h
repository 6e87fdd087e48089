/*
 * fixture_mig.h - the hand-built MIG plans test_failures.c and
 * test_reserve.c share: one-GPU H100 nodes in MIG mode, each GPU as
 * 7 x 1g.10gb, a workload hi (priority 5) and lo (priority 1) taking
 * one slot a replica.  Each test writes its own inventory and workloads
 * (fixture.h builds the problem); these find and fill what they name.
 */
#ifndef GPUPLAN_TEST_FIXTURE_MIG_H
#define GPUPLAN_TEST_FIXTURE_MIG_H

#include <string.h>

#include "check.h"
#include "cplan.h"
#include "failures.h"
#include "fixture.h"
#include "problem.h"

/* The demand of the workload named name, or -1. */
static inline int demand_named(const struct problem *p, const char *name)
{
	size_t i;
	for (i = 0; i < p->ndemands; i++)
		if (!strcmp(p->demands[i].w->name, name))
			return (int)i;
	return -1;
}

/* Class c's configuration 1g.10gb*7 (MIG), or -1. */
static inline int mig7(const struct pclass *c)
{
	size_t i;
	for (i = 0; i < c->nconfigs; i++)
		if (c->configs[i].mode == MODE_MIG && !strcmp(c->configs[i].name, "1g.10gb*7"))
			return (int)i;
	return -1;
}

/* Opens a node of class k with its GPUs as 7 x 1g.10gb, then nhi replicas of hi and nlo of lo on GPU 0 on. */
static inline void fill_node(struct cplan *cp, int k, int hi, int nhi, int lo, int nlo)
{
	int node = cplan_open_node(cp, k, MODE_MIG, -1);
	size_t s = cp->nslots;
	int g, i;

	for (g = 0; g < cp->p->classes[k].nc->gpus_per_node; g++)
		cplan_configure_gpu(cp, node, g, mig7(&cp->p->classes[k]));
	for (i = 0; i < nhi; i++)
		cplan_place_at(cp, s++, hi);
	for (i = 0; i < nlo; i++)
		cplan_place_at(cp, s++, lo);
}

/* hi's and lo's demands in fx, 0; else -1, a failed check, fx released. */
static inline int mig_hi_lo(struct fixture *fx, int *hi, int *lo)
{
	*hi = demand_named(&fx->p, "hi");
	*lo = demand_named(&fx->p, "lo");
	if (*hi < 0 || *lo < 0 || mig7(&fx->p.classes[0]) < 0) {
		CHECK(0, "hi %d, lo %d", *hi, *lo);
		fixture_release(fx);
		return -1;
	}
	return 0;
}

/* The failure analysis's row of (kind, failure name, workload), or NULL. */
static inline const struct fail_row *fail_row_of(const struct failures *f, const struct problem *p,
						 enum fail_kind k, const char *failure, const char *wl)
{
	size_t i;
	for (i = 0; i < f->nrows; i++)
		if (f->rows[i].kind == k && !strcmp(f->names[k][f->rows[i].failure], failure) &&
		    !strcmp(p->demands[f->rows[i].d].w->name, wl))
			return &f->rows[i];
	return NULL;
}

/* That row lost and replaced as given, and gives a reason exactly when it strands. */
static inline void expect_fail_row(const struct failures *f, const struct problem *p, enum fail_kind k,
				   const char *failure, const char *wl, long lost, long replaced)
{
	const struct fail_row *r = fail_row_of(f, p, k, failure, wl);
	CHECK(r && r->lost == lost && r->replaced == replaced && r->stranded == lost - replaced &&
		      (r->stranded > 0) == (r->reason != NULL),
	      "%s %s, %s: lost %ld replaced %ld, want %ld and %ld", fail_kind_name(k), failure, wl, r ? r->lost : -1,
	      r ? r->replaced : -1, lost, replaced);
}

#endif
