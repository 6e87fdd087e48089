/*
 * cmd_check.h - what gpuplan check's two files share: cmd_check.c (check
 * and diff of plans) and cmd_check_roadmap.c (check of a roadmap against
 * a baseline roadmap.json).
 */
#ifndef PLANNER_CLI_CMD_CHECK_H
#define PLANNER_CLI_CMD_CHECK_H

#include <stdio.h>

#include "cli.h"
#include "plan.h"
#include "reportdiff.h"

struct check_args {
	const char *pos[2];	/* check: scenario; diff: baseline, current */
	const char *baseline;
	const char *forecast;	/* check with a roadmap baseline: --forecast, or NULL */
	const char *out_dir;
	enum rd_format fmt;
	struct rd_limits lim;	/* each < 0 until its option is given */
	struct cli_list names;	/* --fail-unplaced, pointing into argv */
	struct plan_opts po;
	int progress, quiet;	/* check: --progress, --quiet */
	FILE *summary;		/* where the comparison goes: stdout, or stderr under -o - */
};

/*
 * check's default budget: without --node-limit, --time-limit or the
 * scenario's solver.node_limit, the search stops after this many
 * branch-and-bound nodes, so the verdict is the same on any machine.
 */
#define CHECK_NODE_LIMIT 5000

/* check_roadmap's answer when the baseline is not a roadmap.json: check it as a plan. */
#define CHECK_NOT_ROADMAP (-1)

/*
 * gpuplan check with a baseline roadmap.json: plans the scenario's
 * roadmap over its forecast, writes its reports under -o DIR, compares
 * it with the baseline (roadmap_diff.h) and says why it failed.  The exit
 * code, or CHECK_NOT_ROADMAP when the baseline is not a roadmap.json (or
 * cannot be read: the plan baseline's reader says why).
 */
int check_roadmap(const struct check_args *a, const struct cli_global *g);

#endif
