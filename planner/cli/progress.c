/*
 * progress.c - the progress line of plan, compare, check and simulate
 * (cli.h): what the planner's progress sink (ilp.h) says, on stderr.
 *
 * On a terminal: one line rewritten in place ("\r", then erase to the
 * end of the line) at most PROGRESS_HZ times a second, and erased when
 * the run ends.  With --progress: one line per phase (simulate: per
 * report of its steps), for logs.  Nothing
 * when stderr is not a terminal (without --progress) or with --quiet.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "banned.h"

#define PROGRESS_HZ 4

/* "search 3.2 s of 30 s, best 182002.03, gap 1.234%" (or "step 512/8760 ..."). */
static void progress_text(char *buf, size_t n, const struct cli_progress *p, const struct ilp_progress *pg)
{
	char b1[64], b2[64], b3[64], b4[64];
	int k;

	k = snprintf(buf, n, "gpuplan: %s%s%s", p->label ? p->label : "", p->label ? ": " : "", pg->phase);
	if (pg->total > 0 && k >= 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " %ld/%ld", pg->done, pg->total);
	if (k < 0 || (size_t)k >= n)
		return;
	k += snprintf(buf + k, n - (size_t)k, ", %s s", fmt_fixed(b1, sizeof(b1), pg->elapsed_s, 1));
	if (pg->limit_s > 0 && (size_t)k < n)
		k += snprintf(buf + k, n - (size_t)k, " of %s s", fmt_num_short(b2, sizeof(b2), pg->limit_s, 1));
	if ((size_t)k < n && pg->best >= 0)
		k += snprintf(buf + k, n - (size_t)k, ", best %s", fmt_fixed(b3, sizeof(b3), pg->best, 2));
	if ((size_t)k < n && pg->gap >= 0)
		snprintf(buf + k, n - (size_t)k, ", gap %s%%", fmt_fixed(b4, sizeof(b4), pg->gap * 100, 3));
}

static void progress_cb(const struct ilp_progress *pg, void *ctx)
{
	struct cli_progress *p = ctx;
	char line[256];
	double now = util_now_s();

	if (p->mode == CLI_PROGRESS_LINES) {
		if (p->phase && !strcmp(p->phase, pg->phase) && pg->done == p->done)
			return;
		p->phase = pg->phase;
		p->done = pg->done;
		progress_text(line, sizeof(line), p, pg);
		fprintf(stderr, "%s\n", line);
		return;
	}
	if (p->shown && now - p->last < 1.0 / PROGRESS_HZ)
		return;
	p->last = now;
	p->shown = 1;
	progress_text(line, sizeof(line), p, pg);
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

void cli_progress_init(struct cli_progress *p, int force_lines, int quiet)
{
	memset(p, 0, sizeof(*p));
	if (quiet)
		p->mode = CLI_PROGRESS_OFF;
	else if (force_lines)
		p->mode = CLI_PROGRESS_LINES;
	else
		p->mode = isatty(STDERR_FILENO) ? CLI_PROGRESS_TTY : CLI_PROGRESS_OFF;
}

void cli_progress_plan(struct cli_progress *p, struct plan_opts *po, const char *label)
{
	p->label = label;
	p->phase = NULL;
	po->progress = p->mode == CLI_PROGRESS_OFF ? NULL : progress_cb;
	po->progress_ctx = p;
}

const struct ilp_progress_sink *cli_progress_sink(struct cli_progress *p, const char *label)
{
	p->label = label;
	p->phase = NULL;
	p->sink.fn = p->mode == CLI_PROGRESS_OFF ? NULL : progress_cb;
	p->sink.ctx = p;
	p->sink.t0 = util_now_s();
	p->sink.limit_s = 0;
	return &p->sink;
}

void cli_progress_end(struct cli_progress *p)
{
	if (p->mode == CLI_PROGRESS_TTY && p->shown) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
	p->shown = 0;
}


void cli_progress_written(struct cli_progress *p, const struct deadline *run, double limit)
{
	struct ilp_progress pg = { "written", 0, 0, -1, -1, 0, 0 };
	char line[256];

	if (p->mode != CLI_PROGRESS_LINES)
		return;
	pg.elapsed_s = deadline_elapsed(run);
	pg.limit_s = limit > 0 ? limit : 0;
	progress_text(line, sizeof(line), p, &pg);
	fprintf(stderr, "%s\n", line);
}
