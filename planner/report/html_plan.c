/*
 * html_plan.c - report.html of a plan, from plan.json's tree: the
 * summary and verdict, the mode mix, the cost by year and category, the
 * licences by product and term, the chargeback, then the GPU layouts and
 * utilisation (html_layout.c), the unplaced workloads with their reasons
 * and the assumptions.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "banned.h"

/* A summary row whose value is a number with a unit. */
static void kv_num(struct sb *sb, const char *key, double v, int decimals, const char *unit)
{
	char b[64], *t = xasprintf("%s%s%s", fmt_fixed(b, sizeof(b), v, decimals), *unit ? " " : "", unit);
	html_kv(sb, key, t);
	free(t);
}

static void summary(struct sb *sb, const cJSON *s)
{
	char b1[64], b2[64], *t;
	long unpl = (long)html_jnum(s, "replicas_unplaced");

	html_section(sb, "summary", "Summary");
	t = unpl ? xasprintf("%ld replicas stay unplaced (see Unplaced workloads); %.0f placed", unpl,
			     html_jnum(s, "replicas_placed"))
		 : xasprintf("Every replica placed (%.0f), at %s USD over %s years.", html_jnum(s, "replicas_placed"),
			     fmt_fixed(b1, sizeof(b1), html_jnum(s, "cost_total_usd"), 2),
			     fmt_fixed(b2, sizeof(b2), html_jnum(s, "horizon_years"), 2));
	sb_addf(sb, "<p class=\"%s\">", unpl ? "bad" : "verdict");
	html_esc(sb, t);
	sb_adds(sb, "</p>\n<div class=\"wide\"><table>\n");
	free(t);
	html_kv(sb, "scenario", html_jstr(s, "scenario"));
	t = xasprintf("%s (gap %s%%), from the %s plan", html_jstr(s, "status"),
		      fmt_fixed(b1, sizeof(b1), html_jnum(s, "gap") * 100, 3), html_jstr(s, "plan_source"));
	html_kv(sb, "solver", t);
	free(t);
	kv_num(sb, "total cost", html_jnum(s, "cost_total_usd"), 2, "USD");
	kv_num(sb, "per year", html_jnum(s, "cost_per_year_usd"), 2, "USD");
	kv_num(sb, "horizon", html_jnum(s, "horizon_years"), 2, "years");
	kv_num(sb, "per provisioned GPU-hour", html_jnum(s, "cost_per_provisioned_gpu_hour_usd"), 4, "USD");
	kv_num(sb, "per used GPU-hour", html_jnum(s, "cost_per_used_gpu_hour_usd"), 4, "USD");
	kv_num(sb, "nodes used", html_jnum(s, "nodes_used"), 0, "");
	kv_num(sb, "GPUs in used nodes", html_jnum(s, "gpus_in_used_nodes"), 0, "");
	kv_num(sb, "GPUs active", html_jnum(s, "gpus_active"), 0, "");
	kv_num(sb, "GPUs licensed", html_jnum(s, "gpus_licensed"), 0, "");
	kv_num(sb, "replicas placed", html_jnum(s, "replicas_placed"), 0, "");
	kv_num(sb, "replicas unplaced", html_jnum(s, "replicas_unplaced"), 0, "");
	kv_num(sb, "memory utilisation", html_jnum(s, "memory_utilisation") * 100, 1, "%");
	kv_num(sb, "compute utilisation", html_jnum(s, "compute_utilisation") * 100, 1, "%");
	t = xasprintf("%s %s", html_jstr(s, "oldest_price_as_of"), html_jstr(s, "oldest_price"));
	html_kv(sb, "oldest price", t);
	free(t);
	sb_adds(sb, "</table></div>\n");
	html_section_end(sb);
}

static void mode_mix(struct sb *sb, const cJSON *s)
{
	const cJSON *modes = cJSON_GetObjectItemCaseSensitive(s, "modes"), *m;
	const char *labels[16];
	static const char *const series[] = { "nodes", "GPUs" };
	double v[32];
	size_t n = 0;
	struct html_bars b;

	cJSON_ArrayForEach(m, modes)
	{
		if (n >= 16 || html_jnum(m, "nodes") <= 0)
			continue;
		labels[n] = m->string;
		v[2 * n] = html_jnum(m, "nodes");
		v[2 * n + 1] = html_jnum(m, "gpus");
		n++;
	}
	html_section(sb, "modes", "Mode mix");
	if (!n) {
		html_p(sb, "No node is used.");
		html_section_end(sb);
		return;
	}
	b = (struct html_bars){
		.title = "Mode mix: nodes and GPUs per mode",
		.unit = "nodes, GPUs (count)",
		.nbars = n,
		.nseries = 2,
		.labels = labels,
		.series = series,
		.v = v,
		.counts = 1,
	};
	html_bars(sb, &b);
	html_section_end(sb);
}

/* Cost per year, stacked by category (only categories with a cost). */
static void cost_years(struct sb *sb, const cJSON *costs)
{
	const cJSON *cats = cJSON_GetObjectItemCaseSensitive(costs, "categories"), *c;
	const cJSON *lens = cJSON_GetObjectItemCaseSensitive(costs, "year_lengths");
	size_t ny = (size_t)cJSON_GetArraySize(lens), nc = 0, y, k;
	const char **series = xcalloc((size_t)cJSON_GetArraySize(cats) + 1, sizeof(*series));
	char **labels = xcalloc(ny + 1, sizeof(*labels));
	double *v = xcalloc((ny + 1) * ((size_t)cJSON_GetArraySize(cats) + 1), sizeof(*v));
	size_t ncats = (size_t)cJSON_GetArraySize(cats);
	struct html_bars b;

	cJSON_ArrayForEach(c, cats)
	{
		if (html_jnum(c, "total") <= 0)
			continue;
		series[nc++] = html_jstr(c, "category");
	}
	for (y = 0; y < ny; y++) {
		labels[y] = xasprintf("year %zu", y + 1);
		k = 0;
		cJSON_ArrayForEach(c, cats)
		{
			if (html_jnum(c, "total") <= 0)
				continue;
			v[y * ncats + k++] = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(c, "years"), (int)y)->valuedouble;
		}
	}
	/* the rows were laid out ncats apart: pack them nc apart */
	for (y = 0; y < ny; y++)
		for (k = 0; k < nc; k++)
			v[y * nc + k] = v[y * ncats + k];
	b = (struct html_bars){
		.title = "Cost by year and category",
		.unit = "USD per year of the horizon",
		.nbars = ny,
		.nseries = nc,
		.labels = (const char *const *)labels,
		.series = series,
		.v = v,
		.stacked = 1,
		.decimals = 2,
	};
	if (nc)
		html_bars(sb, &b);
	else
		html_p(sb, "The plan costs nothing.");
	for (y = 0; y < ny; y++)
		free(labels[y]);
	free(labels);
	free(series);
	free(v);
}

/* Licences by product and term (one bar each, its total over the horizon), and their table. */
static void licences(struct sb *sb, const cJSON *lic)
{
	size_t n = (size_t)cJSON_GetArraySize(lic), i = 0;
	char **labels = xcalloc(n + 1, sizeof(*labels));
	double *v = xcalloc(n + 1, sizeof(*v));
	static const char *const series[] = { "licences" };
	const cJSON *l;
	struct html_bars b;

	if (!n) {
		html_p(sb, "No licence is needed.");
		free(labels);
		free(v);
		return;
	}
	cJSON_ArrayForEach(l, lic)
	{
		labels[i] = xasprintf("%s %s (%.0f %s)", html_jstr(l, "product"), html_jstr(l, "term"), html_jnum(l, "count"), html_jstr(l, "unit"));
		v[i++] = html_jnum(l, "total_usd");
	}
	b = (struct html_bars){
		.title = "Licences by product and term",
		.unit = "USD over the horizon",
		.nbars = n,
		.nseries = 1,
		.labels = (const char *const *)labels,
		.series = series,
		.v = v,
		.stacked = 1,
		.decimals = 2,
	};
	html_bars(sb, &b);
	for (i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(v);
}

/* A table from an array of objects: the keys given, in order, as columns. */
static void object_table(struct sb *sb, const cJSON *arr, const char *const *keys, size_t nkeys)
{
	size_t n = (size_t)cJSON_GetArraySize(arr), r = 1, k;
	char **cells = xcalloc((n + 1) * nkeys, sizeof(*cells));
	const cJSON *o;

	for (k = 0; k < nkeys; k++)
		cells[k] = xstrdup(keys[k]);
	cJSON_ArrayForEach(o, arr)
	{
		for (k = 0; k < nkeys; k++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[k]);
			char b[64];
			cells[r * nkeys + k] = cJSON_IsString(v) ? xstrdup(v->valuestring)
					     : cJSON_IsNumber(v) ? xstrdup(fmt_num_short(b, sizeof(b), v->valuedouble, 4))
					     : cJSON_IsBool(v) ? xstrdup(cJSON_IsTrue(v) ? "yes" : "no") : xstrdup("");
		}
		r++;
	}
	html_table(sb, NULL, (const char *const *)cells, n + 1, nkeys);
	for (k = 0; k < (n + 1) * nkeys; k++)
		free(cells[k]);
	free(cells);
}

static void unplaced(struct sb *sb, const cJSON *doc)
{
	static const char *const keys[] = { "workload", "tenant", "replicas", "reason" };
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(doc, "unplaced");

	html_section(sb, "unplaced", "Unplaced workloads");
	if (!cJSON_GetArraySize(u))
		html_p(sb, "Every replica is placed.");
	else
		object_table(sb, u, keys, 4);
	html_section_end(sb);
}

char *html_plan_page(const cJSON *doc, const struct plan_result *r)
{
	static const char *const tenant_keys[] = { "tenant", "replicas", "gpu_equivalents", "cost_usd", "share_of_cost" };
	static const char *const assumption_keys[] = { "what", "source" };
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "summary");
	struct sb sb;
	char *title = xasprintf("gpuplan plan: %s", html_jstr(s, "scenario"));

	sb_init(&sb);
	html_begin(&sb, title);
	free(title);
	summary(&sb, s);
	mode_mix(&sb, s);
	html_section(&sb, "cost", "Cost");
	cost_years(&sb, cJSON_GetObjectItemCaseSensitive(doc, "costs"));
	licences(&sb, cJSON_GetObjectItemCaseSensitive(doc, "licenses"));
	sb_adds(&sb, "<h3>Chargeback per tenant</h3>\n");
	object_table(&sb, cJSON_GetObjectItemCaseSensitive(doc, "tenants"), tenant_keys, 5);
	html_section_end(&sb);
	html_layouts(&sb, r->final);
	html_utilisation(&sb, r->final);
	html_failures(&sb, r, doc);
	unplaced(&sb, doc);
	html_section(&sb, "assumptions", "Assumptions");
	object_table(&sb, cJSON_GetObjectItemCaseSensitive(doc, "assumptions"), assumption_keys, 2);
	html_section_end(&sb);
	html_end(&sb);
	return sb_detach(&sb);
}
