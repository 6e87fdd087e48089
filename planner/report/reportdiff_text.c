/*
 * reportdiff_text.c - a comparison of two plan reports as text (aligned
 * columns) or Markdown (a pull-request comment), and the one-line reason
 * a check failed (see reportdiff.h).
 *
 * Both forms are rendered from one list of rows (label, baseline,
 * current, change, percent), built once from the diff.  Numbers are
 * formatted from integers (cents, hundredths of a percent) or with
 * fmt_fixed, so the bytes do not depend on the locale.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reportdiff_text.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

/* ================= numbers as text ================= */

/* Cents as "1234.56"; with sign, "+1234.56" / "-0.05" / "0.00". */
static const char *cents_text(char *buf, size_t n, long long c, int sign)
{
	unsigned long long a = c < 0 ? (unsigned long long)-(c + 1) + 1 : (unsigned long long)c;
	snprintf(buf, n, "%s%llu.%02llu", c < 0 ? "-" : sign && c > 0 ? "+" : "", a / 100, a % 100);
	return buf;
}

/* A count change: "+3", "-1", "0". */
static const char *count_change(char *buf, size_t n, long d)
{
	snprintf(buf, n, d > 0 ? "+%ld" : "%ld", d);
	return buf;
}

/* Hundredths of a percent as "76.26%". */
static const char *bp_text(char *buf, size_t n, long bp)
{
	char t[32];
	snprintf(buf, n, "%s%%", cents_text(t, sizeof(t), bp, 0));
	return buf;
}

/* A change in percentage points: "+1.20 pts", "0.00 pts". */
static const char *pts_text(char *buf, size_t n, long dbp)
{
	char t[32];
	snprintf(buf, n, "%s pts", cents_text(t, sizeof(t), dbp, 1));
	return buf;
}

/* The relative change of a money figure: "+10.00%", "new" from zero, "" when both are zero. */
static const char *pct_text(char *buf, size_t n, long long base, long long cur)
{
	char t[64];
	if (base == 0 || cur == base) {
		snprintf(buf, n, "%s", cur != base ? "new" : "");
		return buf;
	}
	fmt_fixed(t, sizeof(t), (double)(cur - base) * 100.0 / (double)base, 2);
	snprintf(buf, n, "%s%s%%", cur > base && t[0] != '-' ? "+" : "", t);
	return buf;
}

/* A threshold in its unit: "5%", "1000 USD", "0", "2 pts". */
static const char *limit_text(char *buf, size_t n, enum rd_limit l, double v)
{
	char t[64];
	static const char *const unit[] = { "%", " USD", "", " pts", "", "", "", "" };
	fmt_num_short(t, sizeof(t), v, 6);
	snprintf(buf, n, "%s%s", t, unit[l]);
	return buf;
}

/* What a threshold measured: "+10.00%", "+17074.37 USD", "+4", "1.20 pts". */
static const char *measured_text(char *buf, size_t n, const struct rd_diff *df, enum rd_limit l)
{
	const struct rd_verdict *v = &df->verdict[l];
	char t[64];
	switch (l) {
	case RD_COST_PCT:
		if (v->infinite)
			snprintf(buf, n, "new (from 0)");
		else
			pct_text(buf, n, df->base->total_cents, df->cur->total_cents);
		if (!*buf)
			snprintf(buf, n, "0.00%%");
		break;
	case RD_COST_ABS:
		snprintf(buf, n, "%s USD", cents_text(t, sizeof(t), df->cur->total_cents - df->base->total_cents, 1));
		break;
	case RD_UNPLACED:
		count_change(buf, n, df->cur->replicas_unplaced - df->base->replicas_unplaced);
		break;
	case RD_UTIL_DROP:
		/* the change of the utilisation that fell most (or rose least) */
		snprintf(buf, n, "%s%s pts (%s)", v->value < 0 ? "+" : "", fmt_fixed(t, sizeof(t), -v->value, 2), v->what);
		break;
	case RD_WEIGHTED:
		count_change(buf, n, (long)v->value);
		break;
	case RD_PRIORITY:
	case RD_NAMED:
		snprintf(buf, n, "%ld workload%s", (long)v->value, v->value == 1 ? "" : "s");
		break;
	case RD_STRANDED:
		snprintf(buf, n, "%s (%s)", count_change(t, sizeof(t), (long)v->value), v->what);
		break;
	case RD_LIMIT_COUNT:
		buf[0] = '\0';
		break;
	}
	return buf;
}

static const char *const limit_label[] = { "total cost increase", "total cost increase (USD)",
					   "unplaced replicas increase", "utilisation drop",
					   "priority x unplaced increase", "newly unplaced at priority",
					   "newly unplaced, named", "worst loss strands more" };

/*
 * The workloads with more unplaced replicas than in the baseline that a
 * priority threshold l counts, highest priority first: "prod-api
 * (priority 10) +2, ...".
 */
/* a string of a report, or what stands for it when the report does not say */
static const char *said(const char *s)
{
	return s ? s : "(not said: plan.json before 3.3.0)";
}

/*
 * Notes when the two reports come from different gpuplan versions or
 * model tables: then a change may come from the tool or the models, not
 * from the scenario.
 */
static void origin_notes(struct sb *sb, const struct rd_report *b, const struct rd_report *c)
{
	if ((b->gpuplan_version || c->gpuplan_version) &&
	    (!b->gpuplan_version || !c->gpuplan_version || strcmp(b->gpuplan_version, c->gpuplan_version)))
		sb_addf(sb, "note: the baseline was written by gpuplan %s, the current plan by gpuplan %s\n",
			said(b->gpuplan_version), said(c->gpuplan_version));
	if ((b->models_digest || c->models_digest) &&
	    (!b->models_digest || !c->models_digest || strcmp(b->models_digest, c->models_digest)))
		sb_addf(sb, "note: the model tables differ (baseline: %s; current: %s): a change may come from the "
			    "models, not the scenario; plan the baseline's scenario again with these models to tell\n",
			said(b->models_digest), said(c->models_digest));
}

static void newly_unplaced(struct sb *sb, const struct rd_diff *df, enum rd_limit l)
{
	size_t i, k;
	int any = 0;

	for (i = 0; i < df->nchanges; i++) {
		const struct rd_workload_change *x = &df->changes[i];
		long more = x->unplaced_cur - x->unplaced_base;
		int counts = more > 0;
		if (l == RD_PRIORITY)
			counts = counts && x->priority >= df->limits.limit[l];
		if (l == RD_NAMED) {
			int hit = 0;
			for (k = 0; k < df->limits.nnames; k++)
				hit |= !strcmp(df->limits.names[k], x->workload);
			counts = counts && hit;
		}
		if (!counts)
			continue;
		sb_addf(sb, "%s%s (priority %d) +%ld", any ? ", " : "", x->workload, x->priority, more);
		any = 1;
	}
}

/* "worst node loss strands 7 replicas of priority 1 or above (gpu-a2), the baseline's 3 (gpu-a1)", per kind worse. */
static void stranded_more(struct sb *sb, const struct rd_diff *df)
{
	static const char *const kinds[] = { "node", "site", "GPU" };
	int k, any = 0;

	for (k = 0; k < (df->fail_gpu_known ? 3 : 2); k++) {
		const struct rd_fail_change *x = &df->fail[k];
		if (x->cur <= x->base)
			continue;
		sb_addf(sb, "%sworst %s loss strands %ld replica%s of priority %d or above (%s), the baseline's %ld%s%s%s",
			any ? ", " : "", kinds[k], x->cur, x->cur == 1 ? "" : "s", df->fail_prio, x->cur_name, x->base,
			*x->base_name ? " (" : "", x->base_name, *x->base_name ? ")" : "");
		any = 1;
	}
}

char *rd_diff_failure(const struct rd_diff *df)
{
	struct sb sb;
	int l;

	if (!df->failed)
		return NULL;
	sb_init(&sb);
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96], t[64];
		if (!df->verdict[l].exceeded)
			continue;
		measured_text(m, sizeof(m), df, (enum rd_limit)l);
		limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]);
		if (sb.len)
			sb_adds(&sb, "; ");
		switch ((enum rd_limit)l) {
		case RD_COST_PCT:
			sb_addf(&sb, "total cost %s USD (%s) is over %s %s",
				cents_text(t, sizeof(t), df->cur->total_cents - df->base->total_cents, 1), m,
				rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_COST_ABS:
			sb_addf(&sb, "total cost %s is over %s %s", m, rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_UNPLACED:
			sb_addf(&sb, "unplaced replicas %s is over %s %s", m, rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_UTIL_DROP:
			sb_addf(&sb, "%s utilisation -%s pts is over %s %s", df->verdict[l].what,
				fmt_fixed(t, sizeof(t), df->verdict[l].value, 2), rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_WEIGHTED:
			sb_addf(&sb, "priority x unplaced replicas %s is over %s %s: ", m,
				rd_limit_option((enum rd_limit)l), lim);
			newly_unplaced(&sb, df, (enum rd_limit)l);
			break;
		case RD_PRIORITY:
			sb_addf(&sb, "newly unplaced at priority %s or above (%s): ", lim, rd_limit_option((enum rd_limit)l));
			newly_unplaced(&sb, df, (enum rd_limit)l);
			break;
		case RD_NAMED:
			sb_addf(&sb, "newly unplaced (%s): ", rd_limit_option((enum rd_limit)l));
			newly_unplaced(&sb, df, (enum rd_limit)l);
			break;
		case RD_STRANDED:
			sb_addf(&sb, "a failure strands more (%s %s): ", rd_limit_option((enum rd_limit)l), lim);
			stranded_more(&sb, df);
			break;
		case RD_LIMIT_COUNT:
			break;
		}
	}
	return sb_detach(&sb);
}

/* ================= rows for text and Markdown ================= */

struct row {
	const char *group;	/* NULL: a top-level row; else the group it belongs to */
	char *label;
	char base[64], cur[64], change[64], pct[72];
	const char *note;	/* a reason, shown after the row */
	int strong;		/* the headline row */
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static struct row *row_add(struct rows *rs, const char *group, char *label)
{
	struct row *r;
	XGROW(rs->v, rs->cap, rs->n + 1);
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->group = group;
	r->label = label;
	return r;
}

static void row_money(struct rows *rs, const char *group, char *label, long long b, long long c, int strong)
{
	struct row *r = row_add(rs, group, label);
	cents_text(r->base, sizeof(r->base), b, 0);
	cents_text(r->cur, sizeof(r->cur), c, 0);
	cents_text(r->change, sizeof(r->change), c - b, 1);
	pct_text(r->pct, sizeof(r->pct), b, c);
	r->strong = strong;
}

static void row_count(struct rows *rs, const char *group, char *label, long b, long c)
{
	struct row *r = row_add(rs, group, label);
	snprintf(r->base, sizeof(r->base), "%ld", b);
	snprintf(r->cur, sizeof(r->cur), "%ld", c);
	count_change(r->change, sizeof(r->change), c - b);
}

static void row_util(struct rows *rs, char *label, long b, long c)
{
	struct row *r = row_add(rs, NULL, label);
	bp_text(r->base, sizeof(r->base), b);
	bp_text(r->cur, sizeof(r->cur), c);
	pts_text(r->change, sizeof(r->change), c - b);
}

static void build_rows(const struct rd_diff *df, struct rows *rs)
{
	const struct rd_report *b = df->base, *c = df->cur;
	char hz[64];
	int q;
	size_t i;

	{
		struct row *r = row_add(rs, NULL, xstrdup("solver status"));
		snprintf(r->base, sizeof(r->base), "%s", b->status);
		snprintf(r->cur, sizeof(r->cur), "%s", c->status);
	}
	fmt_num_short(hz, sizeof(hz), c->horizon_years, 2);
	row_money(rs, NULL, xasprintf("total cost (USD over %s year%s)", hz, strcmp(hz, "1") ? "s" : ""),
		  b->total_cents, c->total_cents, 1);
	for (q = 0; q < CAT_COUNT; q++)
		if (b->cat_cents[q] || c->cat_cents[q])
			row_money(rs, "cost", xstrdup(cost_cat_name((enum cost_cat)q)), b->cat_cents[q], c->cat_cents[q], 0);
	for (q = LIC_COUNT - 1; q > 0; q--) {
		const char *id = lic_product_id((enum lic_product)q);
		if (b->lic_gpus[q] || c->lic_gpus[q])
			row_count(rs, "licences", xasprintf("%s GPUs", id), b->lic_gpus[q], c->lic_gpus[q]);
		if (b->lic_seats[q] || c->lic_seats[q])
			row_count(rs, "licences", xasprintf("%s vGPU seats", id), b->lic_seats[q], c->lic_seats[q]);
	}
	row_count(rs, NULL, xstrdup("nodes used"), b->nodes_used, c->nodes_used);
	row_count(rs, NULL, xstrdup("GPUs in used nodes"), b->gpus_in_used_nodes, c->gpus_in_used_nodes);
	row_count(rs, NULL, xstrdup("GPUs active"), b->gpus_active, c->gpus_active);
	row_count(rs, NULL, xstrdup("GPUs licensed"), b->gpus_licensed, c->gpus_licensed);
	for (q = 0; q < MODE_COUNT; q++) {
		struct row *r;
		char t1[24], t2[24];
		if (!b->nodes_by_mode[q] && !c->nodes_by_mode[q])
			continue;
		r = row_add(rs, "mode mix (nodes / GPUs)", xstrdup(mode_name((enum gpu_mode)q)));
		snprintf(r->base, sizeof(r->base), "%ld / %ld", b->nodes_by_mode[q], b->gpus_by_mode[q]);
		snprintf(r->cur, sizeof(r->cur), "%ld / %ld", c->nodes_by_mode[q], c->gpus_by_mode[q]);
		snprintf(r->change, sizeof(r->change), "%s / %s",
			 count_change(t1, sizeof(t1), c->nodes_by_mode[q] - b->nodes_by_mode[q]),
			 count_change(t2, sizeof(t2), c->gpus_by_mode[q] - b->gpus_by_mode[q]));
	}
	row_count(rs, NULL, xstrdup("replicas placed"), b->replicas_placed, c->replicas_placed);
	row_count(rs, NULL, xstrdup("replicas unplaced"), b->replicas_unplaced, c->replicas_unplaced);
	row_util(rs, xstrdup("memory utilisation"), b->mem_util_bp, c->mem_util_bp);
	row_util(rs, xstrdup("compute utilisation"), b->compute_util_bp, c->compute_util_bp);
	if (df->fail_known) {
		static const char *const g = "replicas a failure strands";
		row_count(rs, g, xasprintf("worst node, priority >= %d", df->fail_prio), df->fail[0].base, df->fail[0].cur);
		rs->v[rs->n - 1].note = df->fail[0].cur_name;
		row_count(rs, g, xasprintf("worst site, priority >= %d", df->fail_prio), df->fail[1].base, df->fail[1].cur);
		rs->v[rs->n - 1].note = df->fail[1].cur_name;
		if (df->fail_gpu_known) {
			row_count(rs, g, xasprintf("worst GPU, priority >= %d", df->fail_prio), df->fail[2].base,
				  df->fail[2].cur);
			rs->v[rs->n - 1].note = df->fail[2].cur_name;
		}
	}
	for (i = 0; i < df->nunplaced; i++) {
		const struct rd_unplaced_change *u = &df->unplaced[i];
		row_count(rs, "unplaced by workload", xasprintf("%s (%s)", u->workload, u->tenant), u->base, u->cur);
		rs->v[rs->n - 1].note = u->reason;
	}
}

static void rows_release(struct rows *rs)
{
	size_t i;
	for (i = 0; i < rs->n; i++)
		free(rs->v[i].label);
	free(rs->v);
}

/* ================= text ================= */

static void text_format(struct sb *sb, const struct rd_diff *df, const struct rows *rs, const char *command)
{
	const char *group = NULL;
	size_t i;
	int l;

	if (!strcmp(command, "check"))
		sb_addf(sb, "check %s (%s) against %s\n", df->cur->scenario, df->cur->file, df->base->file);
	else
		sb_addf(sb, "diff %s -> %s\n", df->base->file, df->cur->file);
	if (strcmp(df->base->scenario, df->cur->scenario))
		sb_addf(sb, "note: the baseline is of scenario '%s', the current plan of '%s'\n", df->base->scenario,
			df->cur->scenario);
	origin_notes(sb, df->base, df->cur);
	sb_addf(sb, "%-32s %14s %14s %14s\n", "", "baseline", "current", "change");
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		char label[256];
		if (r->group && (!group || strcmp(group, r->group)))
			sb_addf(sb, "%s\n", r->group);
		group = r->group;
		snprintf(label, sizeof(label), "%s%s", r->group ? "  " : "", r->label);
		sb_addf(sb, "%-32s %14s %14s %14s", label, r->base, r->cur, r->change);
		if (*r->pct)
			sb_addf(sb, " %9s", r->pct);
		if (r->note && *r->note)
			sb_addf(sb, "  %s", r->note);
		/* no trailing blanks */
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		sb_adds(sb, "\n");
	}
	if (df->nchanges) {
		sb_adds(sb, "workloads whose placed replicas changed (highest priority first)\n");
		for (i = 0; i < df->nchanges; i++) {
			const struct rd_workload_change *x = &df->changes[i];
			char t[32], u[32];
			sb_addf(sb, "  %s (%s), priority %d: placed %ld -> %ld (%s), unplaced %ld -> %ld (%s)\n",
				x->workload, x->tenant, x->priority, x->placed_base, x->placed_cur,
				count_change(t, sizeof(t), x->placed_cur - x->placed_base), x->unplaced_base,
				x->unplaced_cur, count_change(u, sizeof(u), x->unplaced_cur - x->unplaced_base));
		}
	}
	if (!df->nchecked) {
		sb_addf(sb, "result: %s (no thresholds given)\n", df->changed ? "changed" : "no change");
		return;
	}
	sb_addf(sb, "%-32s %20s %14s %10s\n", "thresholds", "measured", "limit", "result");
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96], label[64];
		if (!df->verdict[l].checked)
			continue;
		snprintf(label, sizeof(label), "  %s", limit_label[l]);
		sb_addf(sb, "%-32s %20s %14s %10s\n", label, measured_text(m, sizeof(m), df, (enum rd_limit)l),
			limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]),
			df->verdict[l].exceeded ? "EXCEEDED" : "ok");
	}
	if (df->failed) {
		char *why = rd_diff_failure(df);
		sb_addf(sb, "result: FAILED: %s\n", why);
		free(why);
	} else {
		sb_addf(sb, "result: passed (%s)\n", df->changed ? "changed within the thresholds" : "no change");
	}
}

/* ================= Markdown ================= */

/* ASCII letter or digit (not the locale's isalnum). */
static int md_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* "www." at p, in any case. */
static int md_www(const char *p)
{
	return (p[0] | 0x20) == 'w' && (p[1] | 0x20) == 'w' && (p[2] | 0x20) == 'w' && p[3] == '.';
}

/*
 * Text for a table cell: nothing in a name is live Markdown.  Markdown's
 * syntax characters are backslash-escaped (emphasis, links, images, HTML
 * and entities, table pipes, headings), an underscore too unless it sits
 * inside a word (where it never emphasises); a zero-width space after
 * every @ (mentions such as @everyone, e-mail autolinks), after the colon
 * of :// and inside www. (bare URLs, which GitHub links); a control
 * character is written \xNN, as every text output writes it.
 */
static void md_text(struct sb *sb, const char *s)
{
	static const char zwsp[] = "\xe2\x80\x8b"; /* U+200B */
	const char *p;

	for (p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f)
			sb_addf(sb, "\\\\x%02x", c);
		else if (strchr("\\`*[]<>|#~&!", c) ||
			 (c == '_' && !(p > s && md_alnum(p[-1]) && md_alnum(p[1]))))
			sb_addf(sb, "\\%c", c);
		else if (c == '@' || (c == ':' && !strncmp(p + 1, "//", 2)))
			sb_addf(sb, "%c%s", c, zwsp);
		else if (md_www(p) && (p == s || !md_alnum(p[-1])))
			sb_addf(sb, "%c%s", c, zwsp);
		else
			sb_addn(sb, p, 1);
	}
}

/* A code span (nothing inside is live); a backquote inside becomes a quote, a control character \xNN. */
static void md_code(struct sb *sb, const char *s)
{
	sb_adds(sb, "`");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '`' || c == '|')
			sb_adds(sb, c == '|' ? "\\|" : "'");
		else if (c < 0x20 || c == 0x7f)
			sb_addf(sb, "\\x%02x", c);
		else
			sb_addn(sb, s, 1);
	}
	sb_adds(sb, "`");
}

/* The heading and the sentence saying which plan is compared with which. */
static void md_heading(struct sb *sb, const struct rd_diff *df, const char *command)
{
	sb_addf(sb, "### gpuplan %s ", command);
	md_code(sb, df->cur->scenario);
	sb_addf(sb, ": %s\n\n", !df->nchecked ? (df->changed ? "changed" : "unchanged")
				 : df->failed ? "**failed**" : "passed");
	if (!strcmp(command, "check")) {
		sb_adds(sb, "Current plan of ");
		md_code(sb, df->cur->file);
		sb_adds(sb, " against the baseline ");
		md_code(sb, df->base->file);
	} else {
		md_code(sb, df->base->file);
		sb_adds(sb, " (baseline) against ");
		md_code(sb, df->cur->file);
	}
	if (strcmp(df->base->scenario, df->cur->scenario)) {
		sb_adds(sb, " (the baseline is of scenario ");
		md_code(sb, df->base->scenario);
		sb_adds(sb, ")");
	}
	sb_adds(sb, ".");
}

/* The figures' table; returns whether any workload's unplaced count changed. */
static int md_rows(struct sb *sb, const struct rows *rs)
{
	size_t i;
	int any_unplaced = 0;

	sb_adds(sb, "\n\n| | baseline | current | change |\n|:---|---:|---:|---:|\n");
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		const char *b = r->strong ? "**" : "";
		if (r->group && !strcmp(r->group, "unplaced by workload")) {
			any_unplaced = 1;
			continue;
		}
		sb_addf(sb, "| %s", b);
		if (r->group)
			sb_addf(sb, "%s: ", r->group);
		md_text(sb, r->label);
		sb_addf(sb, "%s | %s | %s | %s%s", b, r->base, r->cur, b, r->change);
		if (*r->pct)
			sb_addf(sb, " (%s)", r->pct);
		sb_addf(sb, "%s |\n", b);
	}
	return any_unplaced;
}

/* The unplaced workloads' table, then the changed workloads' table. */
static void md_workloads(struct sb *sb, const struct rd_diff *df, int any_unplaced)
{
	size_t i;

	if (any_unplaced) {
		sb_adds(sb, "\n| unplaced workload | tenant | baseline | current | change | reason |\n"
			    "|:---|:---|---:|---:|---:|:---|\n");
		for (i = 0; i < df->nunplaced; i++) {
			const struct rd_unplaced_change *u = &df->unplaced[i];
			char t[32];
			sb_adds(sb, "| ");
			md_text(sb, u->workload);
			sb_adds(sb, " | ");
			md_text(sb, u->tenant);
			sb_addf(sb, " | %ld | %ld | %s | ", u->base, u->cur, count_change(t, sizeof(t), u->cur - u->base));
			md_text(sb, u->reason);
			sb_adds(sb, " |\n");
		}
	}
	if (df->nchanges) {
		sb_adds(sb, "\n| workload (highest priority first) | tenant | priority | placed | unplaced |\n"
			    "|:---|:---|---:|---:|---:|\n");
		for (i = 0; i < df->nchanges; i++) {
			const struct rd_workload_change *x = &df->changes[i];
			char t[32], u[32];
			sb_adds(sb, "| ");
			md_text(sb, x->workload);
			sb_adds(sb, " | ");
			md_text(sb, x->tenant);
			sb_addf(sb, " | %d | %ld → %ld (%s) | %ld → %ld (%s) |\n", x->priority, x->placed_base,
				x->placed_cur, count_change(t, sizeof(t), x->placed_cur - x->placed_base),
				x->unplaced_base, x->unplaced_cur,
				count_change(u, sizeof(u), x->unplaced_cur - x->unplaced_base));
		}
	}
}

/* The thresholds' table and the verdict. */
static void md_verdict(struct sb *sb, const struct rd_diff *df)
{
	int l;

	if (!df->nchecked) {
		sb_addf(sb, "\n%s; no thresholds given.\n", df->changed ? "Changed" : "No change");
		return;
	}
	sb_adds(sb, "\n| threshold | limit | measured | result |\n|:---|---:|---:|:---|\n");
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96];
		if (!df->verdict[l].checked)
			continue;
		sb_addf(sb, "| `%s` | %s | %s | %s |\n", rd_limit_option((enum rd_limit)l),
			limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]),
			measured_text(m, sizeof(m), df, (enum rd_limit)l), df->verdict[l].exceeded ? "**exceeded**" : "ok");
	}
	if (df->failed) {
		char *why = rd_diff_failure(df);
		sb_adds(sb, "\n**Failed:** ");
		md_text(sb, why);
		sb_adds(sb, ".\n");
		free(why);
	} else {
		sb_addf(sb, "\n**Passed:** %s.\n", df->changed ? "changed within the thresholds" : "no change");
	}
}


static void md_format(struct sb *sb, const struct rd_diff *df, const struct rows *rs, const char *command)
{
	md_heading(sb, df, command);
	md_workloads(sb, df, md_rows(sb, rs));
	md_verdict(sb, df);
}

char *rd_text_format(const struct rd_diff *df, int markdown, const char *command)
{
	struct rows rs = { NULL, 0, 0 };
	struct sb sb;

	sb_init(&sb);
	build_rows(df, &rs);
	if (markdown)
		md_format(&sb, df, &rs, command);
	else
		text_format(&sb, df, &rs, command);
	rows_release(&rs);
	return sb_detach(&sb);
}
