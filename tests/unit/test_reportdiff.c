/*
 * test_reportdiff.c - reading plan reports strictly (each broken document
 * with its exact message and position), the thresholds at and just past
 * their limits, the formatted comparison, and that a planning run equals
 * its own plan.json (rd_report_from_plan against report_write + read)
 * for the bundled example and a scenario with unplaced replicas.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "plan.h"
#include "report.h"
#include "reportdiff.h"
#include "scenario.h"
#include "util.h"

/* A minimal valid report: every field the reader needs, one per line. */
static char *make_doc(const char *version, const char *total, const char *energy, long unplaced, const char *mem,
		      const char *comp)
{
	return xasprintf("{\n"
			 "\"schema_version\": \"%s\",\n"
			 "\"summary\": {\n"
			 "  \"scenario\": \"s\",\n"
			 "  \"status\": \"optimal\",\n"
			 "  \"plan_source\": \"ilp\",\n"
			 "  \"horizon_years\": 3,\n"
			 "  \"gap\": 0,\n"
			 "  \"cost_total_usd\": %s,\n"
			 "  \"cost_hardware_usd\": 0,\n"
			 "  \"cost_cloud_usd\": 0,\n"
			 "  \"cost_energy_usd\": %s,\n"
			 "  \"cost_hypervisor_usd\": 0,\n"
			 "  \"cost_license_vcs_usd\": 0,\n"
			 "  \"cost_license_nvaie_usd\": 0,\n"
			 "  \"licenses_vcs_gpus\": 0,\n"
			 "  \"licenses_vcs_seats\": 0,\n"
			 "  \"licenses_nvaie_gpus\": 0,\n"
			 "  \"licenses_nvaie_seats\": 0,\n"
			 "  \"nodes_used\": 1,\n"
			 "  \"gpus_in_used_nodes\": 8,\n"
			 "  \"gpus_active\": 8,\n"
			 "  \"gpus_licensed\": 0,\n"
			 "  \"replicas_placed\": 8,\n"
			 "  \"replicas_unplaced\": %ld,\n"
			 "  \"memory_utilisation\": %s,\n"
			 "  \"compute_utilisation\": %s,\n"
			 "  \"modes\": {\n"
			 "    \"passthrough\": {\"nodes\": 1, \"gpus\": 8},\n"
			 "    \"vgpu\": {\"nodes\": 0, \"gpus\": 0},\n"
			 "    \"mig-vgpu\": {\"nodes\": 0, \"gpus\": 0},\n"
			 "    \"mig\": {\"nodes\": 0, \"gpus\": 0},\n"
			 "    \"timeslice\": {\"nodes\": 0, \"gpus\": 0},\n"
			 "    \"mps\": {\"nodes\": 0, \"gpus\": 0}\n"
			 "  }\n"
			 "},\n"
			 "\"unplaced\": [%s]\n"
			 "}\n",
			 version, total, energy, unplaced, mem, comp,
			 unplaced ? "{\"workload\": \"w|x\", \"tenant\": \"t\", \"replicas\": 1, \"reason\": \"too big\"}, "
				    "{\"workload\": \"w|x\", \"tenant\": \"t\", \"replicas\": 1, \"reason\": \"\"}"
				  : "");
}

static char *good_doc(void)
{
	return make_doc("2.0.0", "1000", "1000", 0, "0.5", "0.5");
}

/* Replaces the first `from` in s (which must be there) with `to`; a new string. */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	if (!at)
		return xstrdup("(edit did not apply)");
	return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
}

static const struct {
	const char *from, *to;	/* the edit of the good document */
	const char *want;	/* the whole message */
} bad_docs[] = {
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"1.0.0\"",
	  "b.json:2:19: 'schema_version' was written by report schema 1.0.0; this gpuplan reads 2.0, 2.1, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 4.0, 5.0, 5.1 and 5.2: "
	  "regenerate the baseline with 'gpuplan plan SCENARIO --format json' (reports/README.md)" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"6.0.0\"",
	  "b.json:2:19: 'schema_version' is 6.0.0, newer than this gpuplan reads (2.0, 2.1, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 4.0, 5.0, 5.1 and 5.2): upgrade gpuplan "
	  "or regenerate the baseline with this one" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"5.3.0\"",
	  "b.json:2:19: 'schema_version' is 5.3.0, newer than this gpuplan reads (2.0, 2.1, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 4.0, 5.0, 5.1 and 5.2): upgrade gpuplan "
	  "or regenerate the baseline with this one" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"2.5.0\"",
	  "b.json:2:19: 'schema_version' is 2.5.0, a version gpuplan never wrote (it reads 2.0, 2.1, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, 4.0, 5.0, 5.1 and 5.2): "
	  "regenerate the baseline with 'gpuplan plan SCENARIO --format json' (reports/README.md)" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"two\"",
	  "b.json:2:19: 'schema_version' is not a version MAJOR.MINOR.PATCH" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"3.2\"",
	  "b.json:2:19: 'schema_version' is not a version MAJOR.MINOR.PATCH" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"3.2.0-rc1\"",
	  "b.json:2:19: 'schema_version' is not a version MAJOR.MINOR.PATCH" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": \"03.2.0\"",
	  "b.json:2:19: 'schema_version' is not a version MAJOR.MINOR.PATCH" },
	{ "\"schema_version\": \"2.0.0\"", "\"schema_version\": 2", "b.json:2:19: 'schema_version' must be a string" },
	{ "\"schema_version\": \"2.0.0\",\n", "", "b.json:1:1: 'schema_version' is missing" },
	{ "\"cost_total_usd\": 1000", "\"cost_total_usd\": \"1000\"",
	  "b.json:9:21: 'summary.cost_total_usd' must be a number" },
	{ "\"cost_total_usd\": 1000", "\"cost_total_usd\": -1", "b.json:9:21: 'summary.cost_total_usd' must be at least 0" },
	{ "\"cost_total_usd\": 1000", "\"cost_total_usd\": 1e999",
	  "b.json:9:21: 'summary.cost_total_usd' is not a finite number" },
	{ "  \"cost_energy_usd\": 1000,\n", "", "b.json:3:12: 'summary.cost_energy_usd' is missing" },
	{ "\"nodes_used\": 1", "\"nodes_used\": 1.5",
	  "b.json:20:17: 'summary.nodes_used' must be a whole number, at least 0" },
	{ "\"mig\": {\"nodes\": 0, \"gpus\": 0}", "\"mig\": {\"nodes\": 0}", "b.json:32:12: 'summary.modes.mig.gpus' is missing" },
	{ "\"mps\": {\"nodes\": 0, \"gpus\": 0}", "\"mps\": []", "b.json:34:12: 'summary.modes.mps' must be an object" },
	{ "\"unplaced\": []", "\"unplaced\": {}", "b.json:37:13: 'unplaced' must be an array" },
	{ "\"unplaced\": []", "\"unplaced\": [1]", "b.json:37:14: 'unplaced[0]' must be an object" },
	{ "\"unplaced\": []", "\"unplaced\": [{\"workload\": \"w\", \"tenant\": \"t\", \"reason\": \"\"}]",
	  "b.json:37:14: 'unplaced[0].replicas' is missing" },
	{ "\"status\": \"optimal\",", "\"status\": \"optimal\"", "b.json:6:3: not valid JSON" },
	{ "\"unplaced\": []\n}\n", "\"unplaced\": [", "b.json:37:14: unexpected end of file: the JSON baseline is truncated" },
	{ "\"scenario\": \"s\",", "\"scenario\": \"s", "b.json:5:4: not valid JSON" }, /* the string runs on to the next quote */
	{ "{\n\"schema_version\"", "[\n\"schema_version\"", "b.json:2:17: not valid JSON" },
	{ "\"gap\": 0,", "\"gap\": 0,,", "b.json:8:13: not valid JSON" },
};

static void test_bad_docs(void)
{
	size_t i;
	char *good = good_doc();
	struct rd_report r;
	struct diag d = DIAG_INIT;

	CHECK(rd_report_parse(&r, "b.json", good, strlen(good), "baseline", &d) == 0, "the good document reads: %s",
	      d.msg ? d.msg : "");
	CHECK(r.total_cents == 100000 && r.mem_util_bp == 5000 && r.nodes_by_mode[MODE_PASSTHROUGH] == 1,
	      "good document figures");
	rd_report_release(&r);
	diag_release(&d);
	for (i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		char *doc = edit(good, bad_docs[i].from, bad_docs[i].to), *msg;
		int rc;
		diag_init(&d);
		rc = rd_report_parse(&r, "b.json", doc, strlen(doc), "baseline", &d);
		CHECK(rc == -1 && d.kind == DIAG_INPUT, "row %zu must fail as bad input", i);
		msg = diag_format(&d);
		if (bad_docs[i].want)
			CHECK_STR(msg, bad_docs[i].want, "row %zu", i);
		else
			CHECK(strstr(msg, "not valid JSON") != NULL, "row %zu: %s", i, msg);
		free(msg);
		rd_report_release(&r);
		diag_release(&d);
		free(doc);
	}
	/* special files */
	{
		static const struct {
			const char *text;
			size_t len;
			const char *want;
		} raw[] = {
			{ "", 0, "e.json: empty file: not a JSON report" },
			{ " \n\t", 3, "e.json: empty file: not a JSON report" },
			{ "{\"a\"\0}", 6, "e.json:1:5: a NUL byte: not a JSON report" },
			{ "[1, 2]", 6, "e.json:1:1: not a gpuplan plan report: expected a JSON object" },
			{ "{\n\"schema_version\": \"2.0", 24, "e.json:2:23: unexpected end of file: the JSON report is truncated" },
			{ "{\"a\": [1, 2], \"b\": {}", 21, "e.json:1:22: unexpected end of file: the JSON report is truncated" },
			{ "\n  \"x\"", 6, "e.json:2:3: not a gpuplan plan report: expected a JSON object" },
		};
		for (i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
			char *msg;
			diag_init(&d);
			CHECK(rd_report_parse(&r, "e.json", raw[i].text, raw[i].len, "report", &d) == -1, "raw row %zu", i);
			msg = diag_format(&d);
			CHECK_STR(msg, raw[i].want, "raw row %zu", i);
			free(msg);
			rd_report_release(&r);
			diag_release(&d);
		}
	}
	/* a missing file */
	{
		char *msg;
		diag_init(&d);
		CHECK(rd_report_read(&r, "no/such/plan.json", "baseline", &d) == -1, "missing file");
		msg = diag_format(&d);
		CHECK_STR(msg, "no/such/plan.json: cannot open: No such file or directory", "missing file");
		CHECK(d.kind == DIAG_INPUT, "missing file is bad input");
		free(msg);
		rd_report_release(&r);
		diag_release(&d);
	}
	free(good);
}

/*
 * A known MAJOR.MINOR with any PATCH and fields the reader does not know
 * is read (newer or unknown minors are refused: bad_docs); so is major 3.
 */
static void test_minor_version(void)
{
	char *good = good_doc(), *doc = edit(good, "\"2.0.0\",", "\"2.1.7\",\n\"new_field\": {\"x\": [1, 2]},");
	char *doc2 = edit(doc, "\"gap\": 0,", "\"gap\": 0, \"something_new\": true,");
	struct rd_report r;
	struct diag d = DIAG_INIT;
	CHECK(rd_report_parse(&r, "m.json", doc2, strlen(doc2), "baseline", &d) == 0, "2.1.7 with new fields reads: %s",
	      d.msg ? d.msg : "");
	CHECK_STR(r.schema_version, "2.1.7", "version kept");
	rd_report_release(&r);
	diag_release(&d);
	free(doc2);
	free(doc);
	doc = edit(good, "\"2.0.0\",", "\"3.0.0\",");
	CHECK(rd_report_parse(&r, "m.json", doc, strlen(doc), "baseline", &d) == 0, "3.0.0 reads: %s",
	      d.msg ? d.msg : "");
	rd_report_release(&r);
	diag_release(&d);
	free(doc);
	free(good);
}

/* Thresholds at and just past their limits. */
static const struct {
	const char *what;
	const char *base_total, *cur_total;
	long base_unpl, cur_unpl;
	const char *base_mem, *cur_mem, *base_comp, *cur_comp;
	double limit[RD_LIMIT_COUNT];
	int exceeded[RD_LIMIT_COUNT];
} verdicts[] = {
	{ "cost +5% at a 5% limit", "1000", "1050", 0, 0, "0.5", "0.5", "0.5", "0.5", { 5, -1, -1, -1 }, { 0 } },
	{ "cost +5.001% over a 5% limit", "1000", "1050.01", 0, 0, "0.5", "0.5", "0.5", "0.5", { 5, -1, -1, -1 }, { 1 } },
	{ "cost down", "1000", "900", 0, 0, "0.5", "0.5", "0.5", "0.5", { 0, 0, -1, -1 }, { 0 } },
	{ "cost up one cent at limit 0", "1000", "1000.01", 0, 0, "0.5", "0.5", "0.5", "0.5", { 0, -1, -1, -1 }, { 1 } },
	{ "cost from zero", "0", "0.01", 0, 0, "0.5", "0.5", "0.5", "0.5", { 1000, -1, -1, -1 }, { 1 } },
	{ "zero to zero", "0", "0", 0, 0, "0.5", "0.5", "0.5", "0.5", { 0, 0, 0, 0 }, { 0 } },
	{ "abs at limit", "1000", "1100", 0, 0, "0.5", "0.5", "0.5", "0.5", { -1, 100, -1, -1 }, { 0 } },
	{ "abs past limit", "1000", "1100.01", 0, 0, "0.5", "0.5", "0.5", "0.5", { -1, 100, -1, -1 }, { 0, 1 } },
	{ "unplaced +2 at limit 2", "1000", "1000", 0, 2, "0.5", "0.5", "0.5", "0.5", { -1, -1, 2, -1 }, { 0 } },
	{ "unplaced +2 over limit 1", "1000", "1000", 0, 2, "0.5", "0.5", "0.5", "0.5", { -1, -1, 1, -1 }, { 0, 0, 1 } },
	{ "unplaced down", "1000", "1000", 2, 0, "0.5", "0.5", "0.5", "0.5", { -1, -1, 0, -1 }, { 0 } },
	{ "memory -2 pts at limit 2", "1000", "1000", 0, 0, "0.5", "0.48", "0.5", "0.5", { -1, -1, -1, 2 }, { 0 } },
	{ "memory -2.01 pts", "1000", "1000", 0, 0, "0.5", "0.4799", "0.5", "0.5", { -1, -1, -1, 2 }, { 0, 0, 0, 1 } },
	{ "compute -3 pts", "1000", "1000", 0, 0, "0.5", "0.6", "0.5", "0.47", { -1, -1, -1, 2 }, { 0, 0, 0, 1 } },
	{ "no thresholds", "1000", "5000", 0, 9, "0.5", "0.1", "0.5", "0.1", { -1, -1, -1, -1 }, { 0 } },
};

static void test_verdicts(void)
{
	size_t i;
	int l;
	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		char *b = make_doc("2.0.0", verdicts[i].base_total, verdicts[i].base_total, verdicts[i].base_unpl,
				   verdicts[i].base_mem, verdicts[i].base_comp);
		char *c = make_doc("2.0.0", verdicts[i].cur_total, verdicts[i].cur_total, verdicts[i].cur_unpl,
				   verdicts[i].cur_mem, verdicts[i].cur_comp);
		struct rd_report rb, rc;
		struct rd_limits lim;
		struct rd_diff df;
		struct diag d = DIAG_INIT;
		int any = 0, n = 0;
		CHECK(!rd_report_parse(&rb, "b.json", b, strlen(b), "baseline", &d) &&
			      !rd_report_parse(&rc, "c.json", c, strlen(c), "report", &d),
		      "row %zu (%s) parses: %s", i, verdicts[i].what, d.msg ? d.msg : "");
		rd_limits_none(&lim);
		for (l = 0; l < RD_WEIGHTED; l++) /* the priority thresholds have their own test */
			lim.limit[l] = verdicts[i].limit[l];
		rd_diff_compute(&df, &rb, &rc, &lim);
		for (l = 0; l < RD_LIMIT_COUNT; l++) {
			CHECK(df.verdict[l].exceeded == verdicts[i].exceeded[l], "row %zu (%s): %s exceeded %d", i,
			      verdicts[i].what, rd_limit_option((enum rd_limit)l), df.verdict[l].exceeded);
			any |= verdicts[i].exceeded[l];
			n += l < RD_WEIGHTED && verdicts[i].limit[l] >= 0;
		}
		CHECK(df.failed == any, "row %zu (%s): failed", i, verdicts[i].what);
		CHECK(df.nchecked == n, "row %zu (%s): checked %d", i, verdicts[i].what, df.nchecked);
		{
			char *why = rd_diff_failure(&df);
			CHECK((why != NULL) == any, "row %zu (%s): failure text", i, verdicts[i].what);
			free(why);
		}
		rd_diff_release(&df);
		rd_report_release(&rb);
		rd_report_release(&rc);
		diag_release(&d);
		free(b);
		free(c);
	}
}

/* The formatted forms: the lines that matter, exactly. */
static void test_format(void)
{
	char *b = make_doc("2.0.0", "1000", "1000", 0, "0.5", "0.5");
	char *c = make_doc("2.0.0", "1100.5", "1100.5", 2, "0.4512", "0.5");
	struct rd_report rb, rc;
	struct rd_limits lim;
	struct rd_diff df;
	struct diag d = DIAG_INIT;
	char *t, *why;
	static const char *const text_lines[] = {
		"total cost (USD over 3 years)           1000.00        1100.50        +100.50   +10.05%\n",
		"  energy                                1000.00        1100.50        +100.50   +10.05%\n",
		"replicas unplaced                             0              2             +2\n",
		"memory utilisation                       50.00%         45.12%      -4.88 pts\n",
		"  w|x (t)                                     0              2             +2  too big\n",
		"  total cost increase                         +10.05%             5%   EXCEEDED\n",
		"  unplaced replicas increase                       +2              0   EXCEEDED\n",
		"  utilisation drop                 -4.88 pts (memory)          5 pts         ok\n",
		"  priority x unplaced increase                     +2              0   EXCEEDED\n",
		"workloads whose placed replicas changed (highest priority first)\n"
		"  w|x (t), priority 1: placed 0 -> 0 (0), unplaced 0 -> 2 (+2)\n",
		"result: FAILED: total cost +100.50 USD (+10.05%) is over --max-cost-increase 5%; unplaced replicas +2 is "
		"over --max-unplaced-increase 0; priority x unplaced replicas +2 is over --max-weighted-unplaced-increase "
		"0: w|x (priority 1) +2; newly unplaced at priority 1 or above (--fail-unplaced-priority): w|x (priority "
		"1) +2\n",
	};
	static const char *const md_lines[] = {
		"### gpuplan check `s`: **failed**\n",
		"| **total cost (USD over 3 years)** | 1000.00 | 1100.50 | **+100.50 (+10.05%)** |\n",
		"| cost: energy | 1000.00 | 1100.50 | +100.50 (+10.05%) |\n",
		"| w\\|x | t | 0 | 2 | +2 | too big |\n",
		"| `--max-cost-increase` | 5% | +10.05% | **exceeded** |\n",
		"| `--max-util-drop` | 5 pts | -4.88 pts (memory) | ok |\n",
	};
	size_t i;

	rd_report_parse(&rb, "b.json", b, strlen(b), "baseline", &d);
	rd_report_parse(&rc, "c.json", c, strlen(c), "report", &d);
	CHECK(rc.nunplaced == 1 && rc.unplaced[0].replicas == 2, "unplaced rows of one workload are merged");
	CHECK_STR(rc.unplaced[0].reason, "too big", "merged row keeps the reason");
	rd_limits_check_defaults(&lim);
	lim.limit[RD_COST_PCT] = 5;
	lim.limit[RD_UTIL_DROP] = 5;
	rd_diff_compute(&df, &rb, &rc, &lim);
	t = rd_diff_format(&df, RD_TEXT, "check");
	for (i = 0; i < sizeof(text_lines) / sizeof(text_lines[0]); i++)
		CHECK(strstr(t, text_lines[i]) != NULL, "text line %zu missing:\n%s\nin:\n%s", i, text_lines[i], t);
	CHECK(!strstr(t, " \n"), "no trailing blanks in the text form");
	free(t);
	t = rd_diff_format(&df, RD_MARKDOWN, "check");
	for (i = 0; i < sizeof(md_lines) / sizeof(md_lines[0]); i++)
		CHECK(strstr(t, md_lines[i]) != NULL, "markdown line %zu missing:\n%s\nin:\n%s", i, md_lines[i], t);
	free(t);
	t = rd_diff_format(&df, RD_JSON, "check");
	CHECK(strstr(t, "\"result\":\t\"failed\"") && strstr(t, "\"change_pct\":\t10.05"), "json form:\n%s", t);
	free(t);
	why = rd_diff_failure(&df);
	CHECK_STR(why,
		  "total cost +100.50 USD (+10.05%) is over --max-cost-increase 5%; unplaced replicas +2 is over "
		  "--max-unplaced-increase 0; priority x unplaced replicas +2 is over --max-weighted-unplaced-increase 0: "
		  "w|x (priority 1) +2; newly unplaced at priority 1 or above (--fail-unplaced-priority): w|x (priority 1) +2",
		  "failure line");
	free(why);
	rd_diff_release(&df);
	/* the same report against itself: no change */
	rd_diff_compute(&df, &rb, &rb, &lim);
	CHECK(!df.changed && !df.failed, "a report equals itself");
	t = rd_diff_format(&df, RD_TEXT, "diff");
	CHECK(strstr(t, "result: passed (no change)\n") != NULL, "no change:\n%s", t);
	free(t);
	rd_diff_release(&df);
	rd_limits_none(&lim);
	rd_diff_compute(&df, &rb, &rc, &lim);
	t = rd_diff_format(&df, RD_TEXT, "diff");
	CHECK(strstr(t, "result: changed (no thresholds given)\n") != NULL, "diff without thresholds:\n%s", t);
	free(t);
	rd_diff_release(&df);
	rd_report_release(&rb);
	rd_report_release(&rc);
	diag_release(&d);
	free(b);
	free(c);
}

/* A planning run compared with its own plan.json shows no change. */
static void test_plan_roundtrip(const char *scenario)
{
	char dir[] = "/tmp/test_reportdiff.XXXXXX";
	struct scenario sc;
	struct plan_result pr;
	struct plan_opts po = PLAN_OPTS_INIT;
	struct diag d = DIAG_INIT;
	struct rd_report from_file, from_plan;
	struct rd_limits lim;
	struct rd_diff df;
	char *path;
	size_t i;

	memset(&pr, 0, sizeof(pr));
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	path = xasprintf("%s/plan.json", dir);
	if (scenario_load(&sc, scenario, NULL, &d) || plan_run(&pr, &sc, &po, &d) ||
	    report_write(dir, REPORT_JSON, &pr, &d)) {
		CHECK(0, "%s: %s", scenario, d.msg ? d.msg : "");
		goto out;
	}
	CHECK(rd_report_read(&from_file, path, "baseline", &d) == 0, "%s: its plan.json reads: %s", scenario,
	      d.msg ? d.msg : "");
	rd_report_from_plan(&from_plan, scenario, &pr);
	rd_limits_none(&lim);
	lim.limit[RD_COST_PCT] = 0;
	rd_diff_compute(&df, &from_file, &from_plan, &lim);
	CHECK(!df.changed && !df.failed, "%s: plan and its plan.json differ", scenario);
	CHECK(from_file.nunplaced == from_plan.nunplaced, "%s: unplaced rows", scenario);
	for (i = 0; i < from_file.nunplaced && i < from_plan.nunplaced; i++)
		CHECK(!strcmp(from_file.unplaced[i].workload, from_plan.unplaced[i].workload) &&
			      !strcmp(from_file.unplaced[i].reason, from_plan.unplaced[i].reason),
		      "%s: unplaced row %zu", scenario, i);
	CHECK_STR(from_file.status, from_plan.status, "%s: status", scenario);
	CHECK(from_file.gap == from_plan.gap, "%s: gap", scenario);
	rd_diff_release(&df);
	rd_report_release(&from_file);
	rd_report_release(&from_plan);
out:
	unlink(path);
	rmdir(dir);
	free(path);
	plan_release(&pr);
	scenario_release(&sc);
	diag_release(&d);
}

/* A report with a failure analysis: the rows of by_node and by_site (failure, priority, stranded). */
static char *with_failures(const char *by_node, const char *by_site)
{
	char *doc = make_doc("2.0.0", "1000", "1000", 0, "0.5", "0.5"), *out;

	doc[strlen(doc) - 2] = '\0';	/* the closing "}\n" */
	out = xasprintf("%s,\n\"failures\": {\"by_node\": [%s], \"by_site\": [%s], \"by_gpu\": [], \"resilience\": null}\n}\n",
			doc, by_node, by_site);
	free(doc);
	return out;
}

#define FR(f, p, s) "{\"failure\": \"" f "\", \"workload\": \"w\", \"priority\": " #p ", \"stranded\": " #s "}"

/* --fail-stranded-priority: the worst node and site loss, at or above a priority, against the baseline's. */
static const struct {
	const char *what;
	const char *base_node, *base_site, *cur_node, *cur_site;	/* NULL: no failure analysis */
	double prio;			/* the threshold; -1 not checked */
	int checked, exceeded;
	long cur_worst_node;		/* at the threshold's priority (1 when not checked) */
	const char *cur_node_name;
} strands[] = {
	{ "same", FR("a", 5, 2) "," FR("a", 1, 3) "," FR("b", 5, 4), "", FR("a", 5, 2) "," FR("a", 1, 3) "," FR("b", 5, 4), "",
	  1, 1, 0, 5, "a" },
	{ "b strands one more of priority 5", FR("a", 5, 2) "," FR("a", 1, 3) "," FR("b", 5, 4), "",
	  FR("a", 5, 2) "," FR("a", 1, 3) "," FR("b", 5, 5), "", 5, 1, 1, 5, "b" },
	{ "a strands more of priority 1 only, judged at 5", FR("a", 5, 2) "," FR("b", 5, 4), "",
	  FR("a", 5, 2) "," FR("a", 1, 9) "," FR("b", 5, 4), "", 5, 1, 0, 4, "b" },
	{ "the same at 1", FR("a", 5, 2) "," FR("b", 5, 4), "", FR("a", 5, 2) "," FR("a", 1, 9) "," FR("b", 5, 4), "",
	  1, 1, 1, 11, "a" },
	{ "a site loss strands more", "", FR("dc1", 3, 1), "", FR("dc2", 3, 2), 1, 1, 1, 0, "" },
	{ "equal worst, first by name", "", "", FR("b", 1, 2) "," FR("a", 1, 2), "", 1, 1, 1, 2, "a" },
	{ "baseline without the analysis", NULL, NULL, FR("a", 1, 7), "", 1, 0, 0, 7, "a" },
	{ "not asked", "", "", FR("a", 1, 7), "", -1, 0, 0, 7, "a" },
};

static void test_strands(void)
{
	size_t i;
	for (i = 0; i < sizeof(strands) / sizeof(strands[0]); i++) {
		char *b = strands[i].base_node ? with_failures(strands[i].base_node, strands[i].base_site)
					       : make_doc("2.0.0", "1000", "1000", 0, "0.5", "0.5");
		char *c = with_failures(strands[i].cur_node, strands[i].cur_site);
		struct rd_report rb, rc;
		struct rd_limits lim;
		struct rd_diff df;
		struct diag d = DIAG_INIT;
		const struct rd_verdict *v;
		const char *name;
		CHECK(!rd_report_parse(&rb, "b.json", b, strlen(b), "baseline", &d) &&
			      !rd_report_parse(&rc, "c.json", c, strlen(c), "report", &d),
		      "strands row %zu (%s) parses: %s", i, strands[i].what, d.msg ? d.msg : "");
		rd_limits_none(&lim);
		lim.limit[RD_STRANDED] = strands[i].prio;
		rd_diff_compute(&df, &rb, &rc, &lim);
		v = &df.verdict[RD_STRANDED];
		CHECK(v->checked == strands[i].checked && v->exceeded == strands[i].exceeded && df.failed == v->exceeded,
		      "strands row %zu (%s): checked %d exceeded %d", i, strands[i].what, v->checked, v->exceeded);
		CHECK(rd_fail_worst(&rc, 0, strands[i].prio > 0 ? (int)strands[i].prio : 1, &name) ==
				      strands[i].cur_worst_node && !strcmp(name, strands[i].cur_node_name),
		      "strands row %zu (%s): worst node %ld '%s'", i, strands[i].what,
		      rd_fail_worst(&rc, 0, strands[i].prio > 0 ? (int)strands[i].prio : 1, &name), name);
		if (v->exceeded) {
			char *why = rd_diff_failure(&df);
			CHECK(why && strstr(why, "--fail-stranded-priority") && strstr(why, "loss strands"),
			      "strands row %zu (%s): the finding is named: %s", i, strands[i].what, why ? why : "");
			free(why);
		}
		rd_diff_release(&df);
		rd_report_release(&rb);
		rd_report_release(&rc);
		diag_release(&d);
		free(b);
		free(c);
	}
}

int main(void)
{
	test_bad_docs();
	test_minor_version();
	test_verdicts();
	test_strands();
	test_format();
	test_plan_roundtrip("data/example/scenario.yaml");
	test_plan_roundtrip("tests/cases/plan-unhostable-warn/scenario.yaml");
	test_plan_roundtrip("data/scenarios/hybrid.yaml");
	ilp_cleanup();
	return check_done();
}
