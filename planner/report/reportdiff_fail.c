/*
 * reportdiff_fail.c - the failure analysis of a plan report, as check
 * and diff compare it (see reportdiff.h): the stranded replicas of each
 * node, site and GPU loss, by priority, read from plan.json's "failures"
 * or taken from a planning run, and the worst loss of each kind.  The
 * GPUs are analysed only for resilience: {survive: gpu}: a plan.json
 * says so with its summary's failure_worst_gpu (4.0.0).
 */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "reportdiff.h"
#include "util.h"
#include "banned.h"

static int fail_row_cmp(const void *a, const void *b)
{
	const struct rd_fail_row *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->failure, y->failure);
}

/* One array of "failures" (kind k); 0, or -1 when a row is not as plan.json writes it. */
static int read_kind(const cJSON *arr, int k, struct rd_report *r, size_t *cap)
{
	const cJSON *e;

	if (!cJSON_IsArray(arr))
		return -1;
	cJSON_ArrayForEach(e, arr) {
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(e, "failure");
		const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "priority");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(e, "stranded");
		if (!cJSON_IsString(f) || !cJSON_IsNumber(q) || !cJSON_IsNumber(s) || s->valuedouble < 0 ||
		    s->valuedouble > 1e12 || q->valuedouble < 1 || q->valuedouble > 1e6)
			return -1;
		if (s->valuedouble < 1)
			continue;
		XGROW(r->fail, *cap, r->nfail + 1);
		r->fail[r->nfail++] = (struct rd_fail_row){ k, str_escape_ctl(f->valuestring), (int)q->valuedouble,
							    (long)s->valuedouble };
	}
	return 0;
}

void rd_fail_read(const cJSON *root, struct rd_report *r)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "failures");
	size_t cap = 0;
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "summary");
	int gpu = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(s, "failure_worst_gpu"));

	if (!cJSON_IsObject(f))
		return;
	if (read_kind(cJSON_GetObjectItemCaseSensitive(f, "by_node"), 0, r, &cap) ||
	    read_kind(cJSON_GetObjectItemCaseSensitive(f, "by_site"), 1, r, &cap) ||
	    (gpu && read_kind(cJSON_GetObjectItemCaseSensitive(f, "by_gpu"), 2, r, &cap))) {
		rd_fail_release(r);
		return;
	}
	r->have_fail = 1;
	r->have_fail_gpu = gpu;
	if (r->nfail)
		qsort(r->fail, r->nfail, sizeof(*r->fail), fail_row_cmp);
}

void rd_fail_from_plan(struct rd_report *r, const struct plan_result *pr)
{
	const struct failures *f = &pr->fail;
	size_t i, cap = 0;

	if (!pr->have_fail)
		return;
	r->have_fail = 1;
	r->have_fail_gpu = f->by_gpu;
	for (i = 0; i < f->nrows; i++) {
		const struct fail_row *x = &f->rows[i];
		if (!x->stranded || x->kind > FAIL_GPU)	/* a set of k > 1 losses is the resilience verdict's */
			continue;
		XGROW(r->fail, cap, r->nfail + 1);
		r->fail[r->nfail++] = (struct rd_fail_row){ (int)x->kind, str_escape_ctl(f->names[x->kind][x->failure]),
							    pr->final->p->demands[x->d].w->priority, x->stranded };
	}
	if (r->nfail)
		qsort(r->fail, r->nfail, sizeof(*r->fail), fail_row_cmp);
}

void rd_fail_release(struct rd_report *r)
{
	size_t i;
	for (i = 0; i < r->nfail; i++)
		free(r->fail[i].failure);
	free(r->fail);
	r->fail = NULL;
	r->nfail = 0;
	r->have_fail = 0;
	r->have_fail_gpu = 0;
}

long rd_fail_worst(const struct rd_report *r, int kind, int prio, const char **name)
{
	size_t i, j;
	long worst = 0;

	*name = "";
	for (i = 0; i < r->nfail; i = j) {
		long sum = 0;
		for (j = i; j < r->nfail && r->fail[j].kind == r->fail[i].kind &&
			    !strcmp(r->fail[j].failure, r->fail[i].failure); j++)
			if (r->fail[j].priority >= prio)
				sum += r->fail[j].stranded;
		if (r->fail[i].kind == kind && sum > worst) {
			worst = sum;
			*name = r->fail[i].failure;
		}
	}
	return worst;
}
