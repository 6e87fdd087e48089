/*
 * cli.c - shared helpers of the command layer: messages, and the checks
 * and values several commands share.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "date.h"
#include "outfile.h"
#include "util.h"
#include "banned.h"

int cli_diag(const struct diag *d)
{
	char *s = diag_format(d);

	if (d->kind == DIAG_USAGE)	/* a bad option value found by the core: the usage form */
		cli_usage("%s", s);
	else
		fprintf(stderr, "gpuplan: %s\n", s);
	free(s);
	return cli_diag_code(d);
}

int cli_diag_code(const struct diag *d)
{
	switch (d->kind) {
	case DIAG_INPUT:
		return EXIT_INPUT;
	case DIAG_SOLVER:
		return EXIT_SOLVER;
	case DIAG_USAGE:
		return EXIT_USAGE;
	case DIAG_IO:
	case DIAG_NONE:
		break;
	}
	return EXIT_INTERNAL;
}

void cli_warn_unhostable(const struct plan_result *r, const struct scenario *sc)
{
	size_t i;
	for (i = 0; i < r->p.ndemands; i++)
		if (r->p.demands[i].unhostable)
			cli_printf(stderr, "gpuplan: warning: %s:%ld: workload '%s' can never be placed: %s\n",
				sc->workloads.file, r->p.demands[i].w->line, r->p.demands[i].w->name,
				r->p.demands[i].unhostable);
	for (i = 0; i < r->p.ndemands; i++) {
		const struct workload *w = r->p.demands[i].w;
		char *why = r->p.demands[i].unhostable ? NULL : scenario_rule_unkeepable(sc, w);
		if (why)
			cli_printf(stderr, "gpuplan: warning: %s:%ld: workload '%s' can never be placed: %s\n",
				   sc->workloads.file, w->line, w->name, why);
		free(why);
	}
}

void cli_warn_spread_skew(const struct plan_result *r)
{
	char **msgs;
	size_t n = report_skew_warnings(r, &msgs), i;

	for (i = 0; i < n; i++) {
		cli_printf(stderr, "gpuplan: warning: %s\n", msgs[i]);
		free(msgs[i]);
	}
	free(msgs);
}

/*
 * Only a cut by the deadline: a signal's cut (CPLAN_STOP_SIGNAL) ends
 * the run with the interrupt's own line and no report.
 */
void cli_warn_cut(const struct plan_result *r)
{
	long n = r->final && r->final->stopped == CPLAN_STOP_DEADLINE ? r->final->not_attempted : 0;

	if (n)
		cli_printf(stderr, "gpuplan: warning: --time-limit cut the greedy pass: %ld replica%s not attempted, reported "
				   "unplaced (stopped by the time limit before it was placed); the plan depends on when "
				   "the limit fell (docs/commands.md, Signals and time limits)\n", n, n == 1 ? "" : "s");
}

double cli_run_limit(const struct plan_opts *po, const struct scenario *sc)
{
	if ((po->node_limit >= 0 ? po->node_limit : sc->node_limit) > 0)
		return -1;
	return po->time_limit_s >= 0 ? po->time_limit_s : sc->time_limit_s;
}

void cli_warn_read_overrun(const struct deadline *run, double limit)
{
	char b1[64], b2[64];
	double t = deadline_elapsed(run);

	if (limit >= 0 && t >= limit)
		cli_printf(stderr, "gpuplan: warning: reading the inputs took %s s, all of --time-limit %s s: "
			   "nothing is planned within it (the plan is what the greedy pass places before it stops)\n",
			   fmt_fixed(b1, sizeof(b1), t, 2), fmt_num_short(b2, sizeof(b2), limit, 6));
}

void cli_warn_overrun(const struct deadline *run, double limit, double read, double planned)
{
	char *msg = plan_overrun_msg(deadline_elapsed(run), limit, read, planned);

	if (msg)
		cli_printf(stderr, "gpuplan: warning: %s\n", msg);
	free(msg);
}

void cli_print_compute_hints(FILE *out, const struct scenario *sc)
{
	size_t i;
	int first = 1;

	for (i = 0; i < sc->workloads.n; i++) {
		char *hint = scenario_compute_hint(sc, &sc->workloads.w[i], SCENARIO_HINT_NEAR);
		if (!hint)
			continue;
		cli_printf(out, "  %s %s\n", first ? "hints:     " : "           ", hint);
		first = 0;
		free(hint);
	}
}

void cli_warn_compute_hints(const struct scenario *sc)
{
	size_t i;
	for (i = 0; i < sc->workloads.n; i++) {
		char *hint = scenario_compute_hint(sc, &sc->workloads.w[i], SCENARIO_HINT_WARN);
		if (hint)
			cli_printf(stderr, "gpuplan: warning: %s:%ld: %s\n", sc->workloads.file, sc->workloads.w[i].line,
				hint);
		free(hint);
	}
}

void cli_warn_implausible(const struct scenario *sc)
{
	char **msgs = NULL;
	size_t i, n = scenario_implausible(sc, &msgs);

	for (i = 0; i < n; i++) {
		cli_printf(stderr, "gpuplan: warning: %s\n", msgs[i]);
		free(msgs[i]);
	}
	free(msgs);
}

/* cli_printf's body: s formatted from fmt, escaped but for fmt's leading and trailing line breaks. */
static void put_escaped(FILE *f, const char *fmt, const char *s)
{
	size_t fl = strlen(fmt), n = strlen(s), lead = 0, trail = 0;
	struct sb sb;

	while (lead < fl && fmt[lead] == '\n')
		lead++;
	while (trail < fl - lead && fmt[fl - 1 - trail] == '\n')
		trail++;
	sb_init(&sb);
	sb_addn(&sb, s, lead);
	sb_add_escaped(&sb, s + lead, n - lead - trail);
	sb_addn(&sb, s + n - trail, trail);
	fputs(sb.buf, f);
	sb_release(&sb);
}

void cli_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	put_escaped(f, fmt, s);
	free(s);
}

/* p without leading "./" and trailing slashes: its length, *p moved past the prefix. */
static size_t path_core(const char **p)
{
	size_t n;

	while ((*p)[0] == '.' && (*p)[1] == '/')
		for (*p += 2; **p == '/'; (*p)++)
			;
	n = strlen(*p);
	while (n > 1 && (*p)[n - 1] == '/')
		n--;
	return n;
}

int cli_same_path(const char *a, const char *b)
{
	struct stat sa, sb;
	size_t na, nb;

	if (!stat(a, &sa) && !stat(b, &sb))
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	na = path_core(&a);
	nb = path_core(&b);
	return na == nb && !memcmp(a, b, na);
}

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	fputs("gpuplan: ", stderr);
	put_escaped(stderr, "", s);
	fputc('\n', stderr);
	free(s);
	return code;
}

static const struct cli_command *current = &cli_gpuplan; /* the command running (cli_set_command) */

void cli_set_command(const struct cli_command *c)
{
	current = c;
}

const struct cli_command *cli_current(void)
{
	return current;
}

int cli_misuse(const struct cli_command *c, const char *fmt, ...)
{
	const char *sp = c->name ? " " : "", *name = c->name ? c->name : "";
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	fprintf(stderr, "gpuplan%s%s: ", sp, name);
	put_escaped(stderr, "", s);
	fprintf(stderr, " (see 'gpuplan%s%s --help')\n", sp, name);
	free(s);
	return EXIT_USAGE;
}

int cli_unknown(const struct cli_command *c, const char *what, const char *s, const char *const *names)
{
	char *hint = str_hint(s, names);

	cli_misuse(c, "unknown %s '%s'%s", what, s, hint);
	free(hint);
	return EXIT_USAGE;
}

/* ================= options several commands share ================= */

int cli_output_option(const struct cli_command *c, const char *dir, enum report_format *fmt, FILE **summary)
{
	*summary = stdout;
	if (!dir || strcmp(dir, OUTSET_STDOUT))
		return 0;
	if (*fmt == REPORT_CSV || *fmt == REPORT_HTML)
		return cli_misuse(c, "--format %s cannot go to standard output: -o - writes the JSON report only",
				  *fmt == REPORT_CSV ? "csv" : "html");
	*fmt = REPORT_JSON;
	*summary = stderr;
	return 0;
}

int cli_today(long long *days)
{
	const char *v = getenv("GPUPLAN_TODAY");
	if (!v || !*v) {
		*days = date_today_utc();
		return 0;
	}
	if (date_parse(v, days))
		return cli_usage("GPUPLAN_TODAY: '%s' is not a date (YYYY-MM-DD)", v), -1;
	return 0;
}

int cli_price_stale(long long as_of, long long today)
{
	return as_of < date_minus_months(today, CLI_PRICE_MAX_MONTHS);
}
