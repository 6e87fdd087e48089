/*
 * report_failures.c - failures.csv and plan.json's "failures": the
 * failure analysis of the plan (failures.h), one row per failure and
 * workload that had replicas on it; and its summary rows.  The rows are
 * written with the streamed documents (report.c), after the node walk is
 * released: the tree holds "failures" with its arrays empty and its
 * "resilience" (the HTML page reads it).
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_docs.h"
#include "failures.h"
#include "workload.h"
#include "util.h"
#include "banned.h"

#define FAILURES_HEADER \
	"kind,failure,workload,tenant,priority,lost,replaced,stranded,stranded_gpu_equivalents,pending_by_spread,reason\n"

/*
 * A row of the resilience check's worst set (count k > 1): which set it
 * is, and whether every set was checked (the worst of all, by replicas
 * of priority >= P stranded) or only some (the worst found), then why
 * replicas are stranded.  Caller frees.
 */
static char *set_reason(const struct plan_result *r, const struct fail_row *fr)
{
	const struct plan_resilience *x = &r->resil;
	const char *kind = fr->kind == FAIL_GPU_SET ? "GPU" : fail_kind_name((enum fail_kind)(fr->kind - FAIL_NODE_SET));
	const char *why = fr->reason ? fr->reason : "";
	const char *sep = *why ? "; " : "";

	if (x->proven)
		return xasprintf("the worst set of %d %ss for priority >= %d, proven: every set checked (%.0f)%s%s",
				 x->ask.count, kind, x->ask.priority_at_least, x->sets_total, sep, why);
	return xasprintf("the worst set of %d %ss for priority >= %d found, not proven: %zu of %.0f sets checked%s%s",
			 x->ask.count, kind, x->ask.priority_at_least, x->failures, x->sets_total, sep, why);
}

/*
 * The row's reason: why replicas are stranded, and whether the loss
 * breaks the workload's min_available or max_unavailable (a loss of its
 * rule's domain kind that leaves fewer running than it asks: replicas
 * placed again count as not running, they wait to be scheduled).  Caller
 * frees.
 */
static char *row_reason(const struct plan_result *r, const struct fail_row *fr)
{
	const struct cplan *cp = r->final;
	const struct workload *w = cp->p->demands[fr->d].w;
	long need = workload_need(w, cp->p->demands[fr->d].replicas), running = cp->placed[fr->d] - fr->lost;
	/* a GPU's loss is part of its node's: a rule by node counts it */
	int kind_ok = (fr->kind != FAIL_SITE) == (workload_avail_domain(w) == SPREAD_NODE);

	if (fr->kind >= FAIL_NODE_SET)	/* the rules ask for one loss, not a set */
		return set_reason(r, fr);
	if (need < 0 || !kind_ok || running >= need)
		return xstrdup(fr->reason ? fr->reason : "");
	return xasprintf("%s%s%s by %s broken: %ld of the %ld it asks keep running", fr->reason ? fr->reason : "",
			 fr->reason ? "; " : "", w->avail == AVAIL_MIN ? "min_available" : "max_unavailable",
			 spread_name(workload_avail_domain(w)), running, need);
}

/* One row of failures.csv. */
static void failure_csv_row(struct sb *sb, const struct plan_result *r, const struct fail_row *fr)
{
	const struct workload *w = r->final->p->demands[fr->d].w;
	char buf[64], *reason = row_reason(r, fr);

	sb_addf(sb, "%s,", fail_kind_name(fr->kind));
	sb_add_csv(sb, r->fail.names[fr->kind][fr->failure]);
	sb_addn(sb, ",", 1);
	sb_add_csv(sb, w->name);
	sb_addn(sb, ",", 1);
	sb_add_csv(sb, w->tenant);
	sb_addf(sb, ",%d,%ld,%ld,%ld,%s,%ld,", w->priority, fr->lost, fr->replaced, fr->stranded,
		fmt_fixed(buf, sizeof(buf), fail_row_gpu_eq(r->final, fr), 4), fr->pending_by_spread);
	sb_add_csv(sb, reason);
	sb_addn(sb, "\n", 1);
	free(reason);
}

/* Its object in the kind's array of plan.json's "failures", written as it is made. */
static void failure_json_row(struct jsonout *jo, const struct plan_result *r, const struct fail_row *fr)
{
	const struct workload *w = r->final->p->demands[fr->d].w;
	char *reason = row_reason(r, fr);

	jsonout_obj_begin(jo);
	if (fr->kind >= FAIL_NODE_SET)
		jsonout_obj_str(jo, "kind", fail_kind_name(fr->kind));
	jsonout_obj_str(jo, "failure", r->fail.names[fr->kind][fr->failure]);
	jsonout_obj_str(jo, "workload", w->name);
	jsonout_obj_str(jo, "tenant", w->tenant);
	jsonout_obj_num(jo, "priority", w->priority);
	jsonout_obj_num(jo, "lost", (double)fr->lost);
	jsonout_obj_num(jo, "replaced", (double)fr->replaced);
	jsonout_obj_num(jo, "stranded", (double)fr->stranded);
	jsonout_obj_num(jo, "stranded_gpu_equivalents", report_round(fail_row_gpu_eq(r->final, fr), 4));
	jsonout_obj_num(jo, "pending_by_spread", (double)fr->pending_by_spread);
	jsonout_obj_str(jo, "reason", reason);
	jsonout_obj_end(jo);
	free(reason);
}

/* The arrays of "failures", in the tree's order: kind_arrays[kind_array(k)] holds the rows of kind k. */
static const char *const kind_arrays[] = {
	[FAIL_NODE] = "by_node", [FAIL_SITE] = "by_site", [FAIL_GPU] = "by_gpu", [FAIL_NODE_SET] = "by_set"
};

/* Its index, which grows with k: 5.0.0 put the worst set of a resilience (count k > 1, one kind a plan) in by_set. */
static size_t kind_array(enum fail_kind k)
{
	return k >= FAIL_NODE_SET ? FAIL_NODE_SET : (size_t)k;
}

void report_build_failures(struct docs *dc, const struct plan_result *r)
{
	size_t a;

	dc->jf = cJSON_AddObjectToObject(dc->json, "failures");
	for (a = 0; a < sizeof(kind_arrays) / sizeof(kind_arrays[0]); a++)
		cJSON_AddArrayToObject(dc->jf, kind_arrays[a]);
	report_resilience_json(dc->jf, r);
}

/*
 * failures.csv's rows, then "failures" with its arrays filled in one pass
 * over the rows: they are in kind order (failures.h) and kind_array grows
 * with the kind, so the a-th array's rows are the run that follows the
 * rows of the arrays before it.
 */
void report_write_failures(struct docs *dc, const struct plan_result *r)
{
	size_t nrows = r->have_fail ? r->fail.nrows : 0, i, a = 0;
	cJSON *m;

	sb_adds(&dc->failures, FAILURES_HEADER);
	for (i = 0; dc->fh && i < nrows; i++)	/* fh: the CSV files are written */
		failure_csv_row(&dc->failures, r, &r->fail.rows[i]);
	jsonout_object_begin(&dc->jo, dc->jf->string);
	i = 0;
	cJSON_ArrayForEach(m, dc->jf) {
		if (!cJSON_IsArray(m)) {
			jsonout_member(&dc->jo, m);
			continue;
		}
		jsonout_array_begin(&dc->jo, m->string);
		for (; dc->jo.f && i < nrows && kind_array(r->fail.rows[i].kind) == a; i++)
			failure_json_row(&dc->jo, r, &r->fail.rows[i]);
		jsonout_array_end(&dc->jo);
		a++;
	}
	jsonout_object_end(&dc->jo);
}

/* The summary rows of one kind: failure_worst_<kind>, _stranded, _stranded_gpu_equivalents. */
static void worst_rows(struct docs *dc, cJSON *s, const struct plan_result *r, enum fail_kind k)
{
	const struct fail_worst *w = r->have_fail ? &r->fail.worst[k] : NULL;
	const char *name = w && w->have ? r->fail.names[k][w->failure] : "";
	char key[64], buf[64];

	snprintf(key, sizeof(key), "failure_worst_%s", fail_kind_name(k));
	sb_addf(&dc->summary, "%s,", key);
	sb_add_csv(&dc->summary, name);
	sb_addn(&dc->summary, "\n", 1);
	cJSON_AddStringToObject(s, key, name);
	snprintf(key, sizeof(key), "failure_worst_%s_stranded", fail_kind_name(k));
	sb_addf(&dc->summary, "%s,%ld\n", key, w && w->have ? w->stranded : 0);
	cJSON_AddNumberToObject(s, key, w && w->have ? (double)w->stranded : 0);
	snprintf(key, sizeof(key), "failure_worst_%s_stranded_gpu_equivalents", fail_kind_name(k));
	sb_addf(&dc->summary, "%s,%s\n", key, fmt_fixed(buf, sizeof(buf), w && w->have ? w->stranded_gpu_eq : 0, 4));
	cJSON_AddNumberToObject(s, key, report_round(w && w->have ? w->stranded_gpu_eq : 0, 4));
}

void report_failure_summary(struct docs *dc, cJSON *s, const struct plan_result *r)
{
	worst_rows(dc, s, r, FAIL_NODE);
	worst_rows(dc, s, r, FAIL_SITE);
	if (r->have_fail && r->fail.by_gpu)	/* the GPUs are analysed for survive: gpu only */
		worst_rows(dc, s, r, FAIL_GPU);
	report_resilience_summary(dc, s, r);
}
