/*
 * deploy_priority.c - the scheduling.k8s.io/v1 PriorityClasses that make
 * the Kubernetes scheduler preempt as the plan counted on (a resilience:
 * block's `preemption: lower-priority`, cplan/preempt.h), and each
 * workload's priorityClassName, in requests.yaml (docs/deploy.md,
 * "Priority and preemption").
 *
 * preempt.c counts two tiers: a replica of priority >= the floor may
 * evict one below it; one below never evicts; one at or above is never
 * evicted by another.  So every workload at or above the floor gets the
 * one class gpuplan-priority-guaranteed (PreemptLowerPriority): equal
 * values never preempt each other, as the scheduler preempts only pods
 * of strictly lower priority.  A workload below the floor gets
 * gpuplan-priority-N, value N, preemptionPolicy Never: it evicts nothing
 * and is evicted by the guaranteed class, and the scheduling queue,
 * which pops higher priority first, re-places the evicted in the
 * failure analysis's order (priority, highest first).
 *
 * An object's value and preemptionPolicy are immutable once created
 * (the API server's ValidatePriorityClassUpdate), so each name always
 * carries the same value and policy, whatever the floor: a plan made
 * under another floor applies over this one.  Names are a fixed prefix
 * and a number, never built from input names.
 */
#include <stdio.h>
#include <stdlib.h>

#include "dyaml.h"
#include "deploy_plan.h"
#include "util.h"
#include "banned.h"

/* Above every workload priority (1..1000, so at most 999 below the floor); within the user range (<= 1e9). */
#define GUARANTEED_VALUE 1000000L
#define GUARANTEED_NAME "gpuplan-priority-guaranteed"

int deploy_preempts(const struct scenario *sc)
{
	return sc->resilience.present && sc->resilience.preempt;
}

/* The class of priority prio (buf of 32 bytes). */
static const char *class_name(const struct scenario *sc, int prio, char *buf, size_t size)
{
	if (prio >= sc->resilience.priority_at_least)
		return GUARANTEED_NAME;
	snprintf(buf, size, "gpuplan-priority-%d", prio);
	return buf;
}

void deploy_priority_field(struct dyaml *y, const struct scenario *sc, const struct workload *w)
{
	char buf[32];

	if (deploy_preempts(sc))
		dyaml_kv(y, "priorityClassName", class_name(sc, w->priority, buf, sizeof(buf)));
}

/* One PriorityClass: value, preemptionPolicy and a fixed description. */
static void priority_class(struct dyaml *y, const char *name, long value, int preempts, const char *what)
{
	dyaml_k8s_head(y, "scheduling.k8s.io/v1", "PriorityClass", name);
	dyaml_end(y, 0);
	dyaml_ki(y, "value", value);
	dyaml_str(y, "globalDefault");
	dyaml_bool(y, 0);
	dyaml_kv(y, "preemptionPolicy", preempts ? "PreemptLowerPriority" : "Never");
	dyaml_kv(y, "description", what);
	dyaml_end(y, 0);
}

void deploy_priority_classes(struct dyaml *y, const struct dplan *dp)
{
	const struct cplan *cp = dp->cp;
	const struct scenario *sc = cp->p->sc;
	int floor = sc->resilience.priority_at_least, top = 0, any = 0, p;
	unsigned char *below;
	char name[32];
	size_t i;

	if (!deploy_preempts(sc))
		return;
	below = xcalloc((size_t)floor + 1, 1);	/* the priorities below the floor some request has */
	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->d < 0 || dp->slot_k8s[i] < 0)
			continue;
		p = cp->p->demands[s->d].w->priority;
		if (p >= floor)
			top = 1;
		else if (p >= 0)
			below[p] = 1;
		any = 1;
	}
	if (!any) {
		free(below);
		return;
	}
	dyaml_str(y, "priorityClasses");
	dyaml_seq(y, 0);
	if (top)
		priority_class(y, GUARANTEED_NAME, GUARANTEED_VALUE, 1,
			       "gpuplan workloads at or above the resilience floor, which may evict gpuplan-priority-N "
			       "pods after a failure, never one another");
	for (p = floor - 1; p >= 0; p--)
		if (below[p])
			priority_class(y, class_name(sc, p, name, sizeof(name)), p, 0,
				       "gpuplan workloads of this priority, below the resilience floor, which evict nothing "
				       "and give way to gpuplan-priority-guaranteed after a failure");
	dyaml_end(y, 1);
	free(below);
}
