/*
 * cli.c - shared helpers of the command layer.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "par.h"
#include "util.h"
#include "banned.h"

int cli_diag(const struct diag *d)
{
	char *s = diag_format(d);
	fprintf(stderr, "gpuplan: %s\n", s);
	free(s);
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

int cli_error(int code, const char *fmt, ...)
{
	va_list ap;
	fputs("gpuplan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

void cli_usage(FILE *f, const char *const *usage)
{
	for (; *usage; usage++)
		fprintf(f, "%s\n", *usage);
}

int cli_misuse(const char *const *usage, const char *fmt, ...)
{
	va_list ap;
	fputs("gpuplan: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	cli_usage(stderr, usage);
	return EXIT_USAGE;
}

int cli_is_help(const char *arg)
{
	return !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

int cli_parse_num(const char *opt, const char *s, double min, int min_open, double max, int max_open,
		  double *out)
{
	double v;
	int rc = parse_double(s, &v);
	if (rc) {
		cli_error(EXIT_USAGE, "%s: '%s' %s", opt, s, parse_num_strerror(rc));
		return -1;
	}
	{
		int open = (min_open ? RANGE_LO_OPEN : 0) | (max_open ? RANGE_HI_OPEN : 0);
		char r[RANGE_TEXT_SIZE];
		if (!range_contains(v, min, max, open)) {
			cli_error(EXIT_USAGE, "%s: '%s' must be %s", opt, s, range_text(r, sizeof(r), min, max, open));
			return -1;
		}
	}
	*out = v;
	return 0;
}

int cli_solver_option(int argc, char **argv, int *i, const char *const *usage, struct plan_opts *po)
{
	const char *v;
	double x;
	int r;

	if ((r = cli_opt_value(argc, argv, i, "--time-limit", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "--time-limit needs seconds"), -1;
		return cli_parse_num("--time-limit", v, 0, 1, 86400, 0, &po->time_limit_s) ? -1 : 1;
	}
	if ((r = cli_opt_value(argc, argv, i, "--gap", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "--gap needs a percentage"), -1;
		if (cli_parse_num("--gap", v, 0, 0, 100, 1, &x))
			return -1;
		po->mip_gap = x / 100.0;
		return 1;
	}
	if ((r = cli_opt_value(argc, argv, i, "--node-limit", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "--node-limit needs a number of nodes"), -1;
		if (cli_parse_num("--node-limit", v, 0, 0, 1e9, 0, &x))
			return -1;
		if (x != floor(x))
			return cli_misuse(usage, "--node-limit: '%s' is not a whole number", v), -1;
		po->node_limit = (long)x;
		return 1;
	}
	if ((r = cli_opt_value(argc, argv, i, "--threads", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "--threads needs a number of threads"), -1;
		if (cli_parse_num("--threads", v, 1, 0, PAR_MAX_THREADS, 0, &x))
			return -1;
		if (x != floor(x))
			return cli_misuse(usage, "--threads: '%s' is not a whole number", v), -1;
		po->threads = (int)x;
		return 1;
	}
	if (!strcmp(argv[*i], "--greedy")) {
		po->greedy_only = 1;
		return 1;
	}
	return 0;
}

int cli_output_option(int argc, char **argv, int *i, const char *const *usage, const char **dir,
		      enum report_format *fmt)
{
	const char *v;
	int r;

	if ((r = cli_opt_value(argc, argv, i, "-o", &v)) != 0 || (r = cli_opt_value(argc, argv, i, "--output", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "-o needs a directory"), -1;
		*dir = v;
		return 1;
	}
	if (fmt && (r = cli_opt_value(argc, argv, i, "--format", &v)) != 0) {
		if (r < 0)
			return cli_misuse(usage, "--format needs csv, json or both"), -1;
		if (!strcmp(v, "csv"))
			*fmt = REPORT_CSV;
		else if (!strcmp(v, "json"))
			*fmt = REPORT_JSON;
		else if (!strcmp(v, "both"))
			*fmt = REPORT_BOTH;
		else
			return cli_misuse(usage, "--format: '%s' is not csv, json or both", v), -1;
		return 1;
	}
	return 0;
}
