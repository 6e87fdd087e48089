/*
 * chargeback.h - each tenant's share of a plan's cost, as tenants.csv
 * shows it (chargeback.c).
 */
#ifndef PLANNER_REPORT_CHARGEBACK_H
#define PLANNER_REPORT_CHARGEBACK_H

#include <stddef.h>

#include "plan.h"

/* A plan's chargeback: per tenant (by name), then "(idle)" at index nt. */
struct chargeback {
	const struct plan_result *r;
	const char **names;	/* the tenants, sorted, each once */
	size_t nt;		/* tenants */
	double *cost, *share;	/* [nt + 1]: USD, GPU-equivalents */
	long *replicas;		/* [nt + 1] */
	double **used;		/* [node][gpu]: share used, then cost per unit of share */
	double total;		/* USD over all GPUs and seats */
};

/* Computes the chargeback of r's final plan into cb; report_chargeback_release frees it. */
void report_chargeback(struct chargeback *cb, const struct plan_result *r);
void report_chargeback_release(struct chargeback *cb);

#endif
