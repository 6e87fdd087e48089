/*
 * cmd_check_roadmap.c - gpuplan check with a baseline roadmap.json: plan
 * the scenario's roadmap and gate it against the baseline's total cost,
 * purchases and unplaced replicas period by period, and by priority
 * (docs/commands.md, "check and diff"), as text or JSON.  The thresholds
 * are check's (--max-cost-increase, --max-cost-increase-abs,
 * --max-unplaced-increase, --fail-unplaced-priority, with check's
 * defaults); the exit codes too: 0 within them, 1 over one, 3 a bad
 * baseline, scenario or forecast.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_check.h"
#include "forecast.h"
#include "outfile.h"
#include "roadmap.h"
#include "roadmap_diff.h"
#include "roadmap_report.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

/* The baseline's text into *text when it is a roadmap.json (caller frees); 0 when it is not. */
static int read_roadmap_baseline(const char *path, char **text, size_t *len)
{
	*text = NULL;
	if (file_read_all(path, REPORTDIFF_MAX_BYTES, text, len))
		return 0;
	if (rmd_is_roadmap(*text, *len))
		return 1;
	free(*text);
	*text = NULL;
	return 0;
}

/* Plans the roadmap of a->pos[0] into *rr (sc, fc: loaded here, the caller releases); 0, or -1 with d set. */
static int run_roadmap(const struct check_args *a, const struct cli_global *g, struct scenario *sc,
		       struct forecast *fc, struct roadmap_result *rr, struct diag *d)
{
	struct roadmap_opts o = { a->po };

	if (scenario_load(sc, a->pos[0], g->models_dir, d))
		return -1;
	cli_warn_implausible(sc);
	if (forecast_build(fc, sc, a->forecast, d))
		return -1;
	o.po.verbose = g->verbose;
	o.po.deadline = NULL;
	if (o.po.node_limit < 0 && !sc->node_limit && o.po.time_limit_s < 0)
		o.po.node_limit = CHECK_NODE_LIMIT; /* the deterministic budget, shared out over the plans (roadmap.h) */
	return roadmap_run(rr, sc, fc, &o, d);
}

/* Prints the comparison; 0, or EXIT_CHECK with the reason on stderr. */
static int finish_roadmap(const struct check_args *a, const struct rmd_report *base, const struct rmd_report *cur)
{
	char *why = NULL, *text = rmd_compare(base, cur, &a->lim, &why);
	int rc = EXIT_OK;

	if (a->fmt == RD_JSON) {
		free(text);
		text = rmd_json(base, cur, &a->lim);
	}
	fputs(text, stdout);
	free(text);
	if (why) {
		fflush(stdout);
		cli_error(EXIT_CHECK, "check failed: %s", why);
		rc = EXIT_CHECK;
	}
	free(why);
	return rc;
}

int check_roadmap(const struct check_args *a, const struct cli_global *g)
{
	struct scenario sc;
	struct forecast fc = FORECAST_INIT;
	struct roadmap_result rr;
	struct rmd_report base, cur;
	struct diag d = DIAG_INIT;
	char *text;
	size_t len;
	int rc, have_sc = 0;

	if (!read_roadmap_baseline(a->baseline, &text, &len))
		return CHECK_NOT_ROADMAP;
	memset(&sc, 0, sizeof(sc));
	memset(&rr, 0, sizeof(rr));
	memset(&cur, 0, sizeof(cur));
	if ((a->fmt != RD_TEXT && a->fmt != RD_JSON) || (a->out_dir && !strcmp(a->out_dir, OUTSET_STDOUT))) {
		free(text);
		return cli_misuse(&cmd_check_entry, "a roadmap.json baseline is compared as text or JSON, with the reports "
						    "written to a directory (no --format markdown or html, no -o -)");
	}
	rc = rmd_report_parse(&base, a->baseline, text, len, &d);
	free(text);
	have_sc = !rc;
	if (rc || run_roadmap(a, g, &sc, &fc, &rr, &d) || (a->out_dir && report_roadmap_write(a->out_dir, &rr, &d))) {
		rc = cli_diag(&d);
		goto out;
	}
	rmd_report_from_roadmap(&cur, a->pos[0], &rr);
	rc = finish_roadmap(a, &base, &cur);
out:
	rmd_report_release(&cur);
	rmd_report_release(&base);
	roadmap_release(&rr);
	forecast_release(&fc);
	if (have_sc)
		scenario_release(&sc);
	diag_release(&d);
	return rc;
}
