/*
 * html_resilience.c - beside the plan page's Failures charts, what the
 * scenario's resilience: headroom costs (plan.json's failures.resilience
 * and the summary's resilience rows): what was asked and the verdict, the
 * extra cost a year against the same run's plan without the headroom, the
 * GPUs it adds and their price per GPU-year.  Nothing without a
 * resilience: block.  Every text goes through html_esc (html_kv, html_p).
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "html.h"
#include "html_pages.h"
#include "banned.h"

static const char *plural(double n)
{
	return n == 1 ? "" : "s";
}

/* The verdict line over the table: met or not, and the price in one sentence. */
static void headline(struct sb *sb, const cJSON *x, const char *asked)
{
	char b1[64], b2[64];
	double gpus = html_jnum(x, "headroom_gpus");
	const cJSON *per = cJSON_GetObjectItemCaseSensitive(x, "usd_per_headroom_gpu_year");
	char *t;

	if (gpus > 0 && cJSON_IsNumber(per))
		t = xasprintf("Resilience %s: %s. The headroom costs %s USD a year, %s USD per headroom GPU-year "
			      "(%.0f GPU%s put into service for failover).",
			      asked, html_jstr(x, "verdict"), fmt_fixed(b1, sizeof(b1), html_jnum(x, "extra_cost_per_year_usd"), 2),
			      fmt_fixed(b2, sizeof(b2), per->valuedouble, 2), gpus, plural(gpus));
	else
		t = xasprintf("Resilience %s: %s. The headroom costs %s USD a year and puts no GPU into service.", asked,
			      html_jstr(x, "verdict"), fmt_fixed(b1, sizeof(b1), html_jnum(x, "extra_cost_per_year_usd"), 2));
	sb_addf(sb, "<p class=\"%s\">", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(x, "met")) ? "verdict" : "bad");
	html_esc(sb, t);
	sb_adds(sb, "</p>\n");
	free(t);
}

void html_headroom(struct sb *sb, const cJSON *doc)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(doc, "failures");
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(f, "resilience");
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
	const cJSON *per = cJSON_GetObjectItemCaseSensitive(x, "usd_per_headroom_gpu_year");
	char b1[64], b2[64], b3[64], *t;

	if (!cJSON_IsObject(x))
		return;
	sb_adds(sb, "<h3>What the headroom costs</h3>\n");
	headline(sb, x, html_jstr(s, "resilience"));
	sb_adds(sb, "<div class=\"wide\"><table>\n");
	html_kv(sb, "asked", html_jstr(s, "resilience"));
	html_kv(sb, "verdict", html_jstr(x, "verdict"));
	t = xasprintf("%s USD per year (%s USD over the horizon with it, %s without)",
		      fmt_fixed(b1, sizeof(b1), html_jnum(x, "extra_cost_per_year_usd"), 2),
		      fmt_fixed(b2, sizeof(b2), html_jnum(x, "cost_with_usd"), 2),
		      fmt_fixed(b3, sizeof(b3), html_jnum(x, "cost_without_usd"), 2));
	html_kv(sb, "extra cost", t);
	free(t);
	t = xasprintf("%.0f GPU%s put into service (%.0f GPUs in used nodes with it, %.0f without; %.0f nodes against %.0f)",
		      html_jnum(x, "headroom_gpus"), plural(html_jnum(x, "headroom_gpus")), html_jnum(x, "gpus_with"),
		      html_jnum(x, "gpus_without"), html_jnum(x, "nodes_with"), html_jnum(x, "nodes_without"));
	html_kv(sb, "headroom", t);
	free(t);
	if (cJSON_IsNumber(per)) {
		t = xasprintf("%s USD", fmt_fixed(b1, sizeof(b1), per->valuedouble, 2));
		html_kv(sb, "per headroom GPU-year", t);
		free(t);
	} else {
		html_kv(sb, "per headroom GPU-year", "no GPU put into service");
	}
	t = xasprintf("%.0f by the worst failure checked%s%s (%.0f before the headroom)", html_jnum(x, "stranded"),
		      cJSON_IsString(cJSON_GetObjectItemCaseSensitive(x, "worst")) ? ", " : "", html_jstr(x, "worst"),
		      html_jnum(x, "stranded_without"));
	snprintf(b1, sizeof(b1), "replicas of priority >= %.0f stranded", html_jnum(x, "priority_at_least"));
	html_kv(sb, b1, t);
	free(t);
	sb_adds(sb, "</table></div>\n");
}
