/*
 * cli.c - shared helpers of the command layer: messages, getopt_long
 * driven by the command table, and the options several commands share.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "date.h"
#include "outfile.h"
#include "par.h"
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

static const struct cli_command *current = &cli_global; /* the command running (cli_set_command) */

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

/* ================= getopt_long from the command table ================= */

static void add_option(struct cli_getopt *go, size_t *n, size_t *k, const struct cli_option *o)
{
	struct option *lo = &go->longopts[(*n)++];
	lo->name = o->name;
	lo->has_arg = o->arg ? required_argument : no_argument;
	lo->flag = NULL;
	lo->val = o->id;
	if (o->id < 256) {
		go->optstring[(*k)++] = (char)o->id;
		if (o->arg)
			go->optstring[(*k)++] = ':';
	}
}

void cli_getopt_init(struct cli_getopt *go, const struct cli_command *c, int argc, char **argv, int in_order)
{
	const struct cli_option *o;
	size_t n = 0, k = 0;

	memset(go, 0, sizeof(*go));
	go->cmd = c;
	go->argc = argc;
	go->argv = argv;
	go->optstring[k++] = in_order ? '-' : '+';
	go->optstring[k++] = ':';	/* ':' for a missing value, '?' for an unknown option */
	for (o = c->options; o->name && n < CLI_MAX_OPTIONS - 1; o++)
		add_option(go, &n, &k, o);
	add_option(go, &n, &k, &cli_help_option);
	optind = 0;	/* a full reset: another table than the last call's */
	opterr = 0;	/* the messages are ours */
}

/* The option as the user wrote it, for messages (argv[optind - 1] or -<optopt>). */
static void bad_option_text(const struct cli_getopt *go, char *buf, size_t n)
{
	const char *a = optind > 0 && optind <= go->argc ? go->argv[optind - 1] : "";
	if (!strncmp(a, "--", 2) || optopt <= 0 || optopt >= 256)
		snprintf(buf, n, "%s", a);
	else
		snprintf(buf, n, "-%c", optopt);
}

/* The hint for an unknown option text: the nearest long options of the command, as "--name". */
static char *option_hint(const struct cli_getopt *go, const char *text)
{
	const char *names[CLI_MAX_OPTIONS + 1], *near[HINT_MAX];
	char *dashed[CLI_MAX_OPTIONS], *word, *hint;
	size_t n = 0, i;

	if (strncmp(text, "--", 2))
		return xstrdup("");	/* a short option: one letter says too little */
	for (i = 0; i < CLI_MAX_OPTIONS && go->longopts[i].name; i++, n++)
		names[n] = dashed[n] = xasprintf("--%s", go->longopts[i].name);
	names[n] = NULL;
	word = xstrndup(text, strcspn(text, "="));
	hint = str_hint_text(near, str_closest(word, names, near));	/* only near ones: --help has all */
	free(word);
	for (i = 0; i < n; i++)
		free(dashed[i]);
	return hint;
}

int cli_getopt(struct cli_getopt *go, const char **val)
{
	char text[256], *hint;
	int id;

	if (go->rest) {
		if (optind >= go->argc)
			return CLI_END;
		*val = go->argv[optind++];
		return CLI_ARG;
	}
	id = getopt_long(go->argc, go->argv, go->optstring, go->longopts, NULL);
	*val = optarg;
	switch (id) {
	case -1:
		/* in order: only "--" stops early, and the rest are operands */
		if (go->optstring[0] != '-' || optind >= go->argc)
			return CLI_END;
		go->rest = 1;
		return cli_getopt(go, val);
	case 1:
		return CLI_ARG;
	case OPT_HELP:
		cli_help_write(stdout, go->cmd);
		return CLI_HELP;
	case '?':
		bad_option_text(go, text, sizeof(text));
		hint = option_hint(go, text);
		cli_misuse(go->cmd, "unknown option '%s'%s", text, hint);
		free(hint);
		return CLI_ERROR;
	case ':':
		bad_option_text(go, text, sizeof(text));
		cli_misuse(go->cmd, "option '%s' needs a value", text);
		return CLI_ERROR;
	default:
		return id;
	}
}

/* ================= values ================= */

int cli_parse_num(const char *opt, const char *s, struct num_range range, double *out)
{
	double v;
	int rc = parse_double(s, &v);
	if (rc) {
		cli_usage("%s: '%s' %s", opt, s, parse_num_strerror(rc));
		return -1;
	}
	if (!range_contains(v, range.lo, range.hi, range.open)) {
		char r[RANGE_TEXT_SIZE];
		cli_usage("%s: '%s' must be %s", opt, s,
			  range_text(r, sizeof(r), range.lo, range.hi, range.open));
		return -1;
	}
	*out = v;
	return 0;
}

/* A whole number in [min, max] for opt; -1 after a message. */
static int whole_number(const char *opt, const char *v, double min, double max, double *x)
{
	if (cli_parse_num(opt, v, (struct num_range){ min, max, RANGE_CLOSED }, x))
		return -1;
	if (*x != floor(*x)) {
		cli_usage("%s: '%s' is not a whole number", opt, v);
		return -1;
	}
	return 0;
}

int cli_solver_option(int id, const char *v, struct plan_opts *po)
{
	double x;

	switch (id) {
	case OPT_TIME_LIMIT:
		return cli_parse_num("--time-limit", v, (struct num_range){ 0, 86400, RANGE_LO_OPEN },
				     &po->time_limit_s) ? -1 : 1;
	case OPT_GAP:
		if (cli_parse_num("--gap", v, (struct num_range){ 0, 100, RANGE_HI_OPEN }, &x))
			return -1;
		po->mip_gap = x / 100.0;
		return 1;
	case OPT_NODE_LIMIT:
		if (whole_number("--node-limit", v, 0, 1e9, &x))
			return -1;
		po->node_limit = (long)x;
		return 1;
	case OPT_THREADS:
		if (whole_number("--threads", v, 1, PAR_MAX_THREADS, &x))
			return -1;
		po->threads = (int)x;
		return 1;
	case OPT_GREEDY:
		po->greedy_only = 1;
		return 1;
	default:
		return 0;
	}
}

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

int cli_format_option(const char *v, enum report_format *fmt)
{
	if (!strcmp(v, "csv"))
		*fmt = REPORT_CSV;
	else if (!strcmp(v, "json"))
		*fmt = REPORT_JSON;
	else if (!strcmp(v, "both"))
		*fmt = REPORT_BOTH;
	else if (!strcmp(v, "html"))
		*fmt = REPORT_HTML;
	else if (!strcmp(v, "all"))
		*fmt = REPORT_ALL;
	else
		return cli_usage("--format: '%s' is not csv, json, both, html or all", v), -1;
	return 1;
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
