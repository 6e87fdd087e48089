/*
 * report_resilience.c - what the scenario's resilience: block did to the
 * plan (resilience.h): summary.csv's resilience rows and plan.json's
 * failures.resilience (docs/formats.md, "Resilience"), the headroom's
 * cost against the same plan without it.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_docs.h"
#include "util.h"
#include "banned.h"

/* "node x1, priority >= 5" (gpu: "gpu x1 as node, ..."; preemption: "..., preempting lower priorities"). */
static char *ask_text(const struct scenario_resilience *a)
{
	return xasprintf("%s x%d%s, priority >= %d%s", resil_kind_name(a->survive), a->count,
			 a->survive == RESIL_GPU && a->gpu_as_node ? " as node" : "", a->priority_at_least,
			 a->preempt ? ", preempting lower priorities" : "");
}

/* "met", "met for the sets checked", "not met: why". */
static char *verdict(const struct plan_resilience *x)
{
	if (x->met && x->proven)
		return xstrdup("met");
	if (x->met)
		return xasprintf("met for the sets checked: %s", x->why ? x->why : "");
	return xasprintf("not met: %s", x->why ? x->why : "");
}

static void row_text(struct docs *dc, cJSON *s, const char *key, const char *v)
{
	sb_addf(&dc->summary, "%s,", key);
	sb_add_csv(&dc->summary, v);
	sb_addn(&dc->summary, "\n", 1);
	cJSON_AddStringToObject(s, key, v);
}

static void row_num(struct docs *dc, cJSON *s, const char *key, double v, int decimals)
{
	char buf[64];

	sb_addf(&dc->summary, "%s,%s\n", key, fmt_fixed(buf, sizeof(buf), v, decimals));
	cJSON_AddNumberToObject(s, key, report_round(v, decimals));
}

void report_resilience_summary(struct docs *dc, cJSON *s, const struct plan_result *r)
{
	const struct plan_resilience *x = &r->resil;
	char key[96], *t;

	if (!r->have_resil)
		return;
	snprintf(key, sizeof(key), "failure_stranded_priority_%d_and_above", x->ask.priority_at_least);
	row_num(dc, s, key, (double)x->stranded, 0);
	t = ask_text(&x->ask);
	row_text(dc, s, "resilience", t);
	free(t);
	t = verdict(x);
	row_text(dc, s, "resilience_verdict", t);
	free(t);
	row_num(dc, s, "resilience_extra_cost_per_year_usd", x->usd_per_year, 2);
	row_num(dc, s, "resilience_headroom_gpus", (double)x->headroom_gpus, 0);
	if (x->headroom_gpus > 0) {
		row_num(dc, s, "resilience_usd_per_headroom_gpu_year", x->usd_per_year_per_gpu, 2);
	} else {
		sb_adds(&dc->summary, "resilience_usd_per_headroom_gpu_year,\n");
		cJSON_AddNullToObject(s, "resilience_usd_per_headroom_gpu_year");
	}
}

void report_resilience_json(cJSON *jf, const struct plan_result *r)
{
	const struct plan_resilience *x = &r->resil;
	cJSON *o;
	char *t;

	if (!r->have_resil) {
		cJSON_AddNullToObject(jf, "resilience");
		return;
	}
	o = cJSON_AddObjectToObject(jf, "resilience");
	cJSON_AddStringToObject(o, "survive", resil_kind_name(x->ask.survive));
	cJSON_AddNumberToObject(o, "count", x->ask.count);
	cJSON_AddNumberToObject(o, "priority_at_least", x->ask.priority_at_least);
	cJSON_AddBoolToObject(o, "gpu_counts_as_node", x->ask.gpu_as_node);
	cJSON_AddBoolToObject(o, "met", x->met);
	cJSON_AddBoolToObject(o, "every_failure_checked", x->proven);
	t = verdict(x);
	cJSON_AddStringToObject(o, "verdict", t);
	free(t);
	cJSON_AddNumberToObject(o, "rounds", x->rounds);
	cJSON_AddNumberToObject(o, "failures_checked", (double)x->failures);
	cJSON_AddNumberToObject(o, "failures_of_the_kind", x->sets_total);
	cJSON_AddNumberToObject(o, "stranded", (double)x->stranded);
	cJSON_AddNumberToObject(o, "failures_stranding", (double)x->failing);
	cJSON_AddNumberToObject(o, "stranded_without", (double)x->stranded_without);
	cJSON_AddNumberToObject(o, "failures_stranding_without", (double)x->failing_without);
	if (x->worst)
		cJSON_AddStringToObject(o, "worst", x->worst);
	else
		cJSON_AddNullToObject(o, "worst");
	cJSON_AddNumberToObject(o, "cost_without_usd", report_round(x->cost_without, 2));
	cJSON_AddNumberToObject(o, "cost_with_usd", report_round(x->cost_with, 2));
	cJSON_AddNumberToObject(o, "extra_cost_per_year_usd", report_round(x->usd_per_year, 2));
	cJSON_AddNumberToObject(o, "gpus_without", (double)x->gpus_without);
	cJSON_AddNumberToObject(o, "gpus_with", (double)x->gpus_with);
	cJSON_AddNumberToObject(o, "nodes_without", (double)x->nodes_without);
	cJSON_AddNumberToObject(o, "nodes_with", (double)x->nodes_with);
	cJSON_AddNumberToObject(o, "headroom_gpus", (double)x->headroom_gpus);
	if (x->headroom_gpus > 0)
		cJSON_AddNumberToObject(o, "usd_per_headroom_gpu_year", report_round(x->usd_per_year_per_gpu, 2));
	else
		cJSON_AddNullToObject(o, "usd_per_headroom_gpu_year");
}
