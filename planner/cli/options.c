/*
 * options.c - the command table (options.h): the list of the commands'
 * rows, and the --help text built from a row.
 *
 * Help layout: "usage: gpuplan NAME FORM" per synopsis form (wrapped
 * before a " [" at 100 columns, continuation lines aligned under the
 * first word after the name), the description indented by two, then one
 * line per option: its label ("-o, --output DIR") in a column as wide as
 * the command's longest label, and its help.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "banned.h"

#define HELP_WIDTH 100	/* synopsis lines wrap before this column */

const struct cli_exit_doc cli_exit_docs[] = {
	{ EXIT_OK, "done" },
	{ EXIT_CHECK, "check or diff over a threshold, a replica unplaced under --require-all, or sweep cases missing or failed" },
	{ EXIT_USAGE, "bad command line" },
	{ EXIT_INPUT, "bad input file: one \"gpuplan: FILE:LINE[:COL]: ...\" line" },
	{ EXIT_SOLVER, "the solver found no plan within its limits" },
	{ EXIT_INTERNAL, "I/O error, or a plan that failed verification (a bug)" },
	{ 130, "interrupted by SIGINT (143 for SIGTERM): 128 + the signal" },
	{ 0, NULL },
};

const char *const cli_environment[] = {
	"GPUPLAN_MODELS", "the models directory, when neither --models nor the scenario's models: names one",
	"GPUPLAN_TODAY", "the date (YYYY-MM-DD) that validate and models check measure the age of prices from,\n"
	"instead of the clock's (reports never depend on it)",
	NULL,
};

const struct cli_option cli_help_option = { "help", 'h', NULL, "print this help and exit", .kind = CLI_HELP };

/* Each row is defined in its command's file, next to the options struct it fills. */
const struct cli_command *const cli_commands[] = {
	&cmd_plan_entry,
	&cmd_compare_entry,
	&cmd_check_entry,
	&cmd_diff_entry,
	&cmd_simulate_entry,
	&cmd_roadmap_entry,
	&cmd_validate_entry,
	&cmd_profiles_entry,
	&cmd_bench_entry,
	&cmd_import_entry,
	&cmd_models_entry,
	&cmd_sweep_entry,
	&cmd_help_entry,
	NULL,
};

const struct cli_command *cli_command_find(const char *name)
{
	size_t k;
	for (k = 0; cli_commands[k]; k++)
		if (!strcmp(cli_commands[k]->name, name))
			return cli_commands[k];
	return NULL;
}

void cli_option_label(char *buf, size_t n, const struct cli_option *o)
{
	const char *sep = o->arg ? " " : "";
	const char *arg = o->arg ? o->arg : "";
	if (o->letter)
		snprintf(buf, n, "-%c, --%s%s%s", o->letter, o->name, sep, arg);
	else
		snprintf(buf, n, "    --%s%s%s", o->name, sep, arg);
}

/* Line k (from 0) of text, *len its length; NULL when text has fewer lines. */
static const char *nth_line(const char *text, int k, size_t *len)
{
	for (; k > 0; k--) {
		text = strchr(text, '\n');
		if (!text)
			return NULL;
		text++;
	}
	*len = strcspn(text, "\n");
	return text;
}

int cli_synopsis_form(const struct cli_command *c, int k, char *buf, size_t n)
{
	const struct cli_subcommand *r;
	const char *line;
	size_t len;
	int forms;

	if (c->synopsis) {
		line = nth_line(c->synopsis, k, &len);
		if (line)
			snprintf(buf, n, "%.*s", (int)len, line);
		return line != NULL;
	}
	for (r = c->sub.rows; r && r->name; r++, k -= forms) {
		for (forms = 0; nth_line(r->synopsis, forms, &len); forms++)
			;
		if (k < forms) {
			line = nth_line(r->synopsis, k, &len);
			snprintf(buf, n, "%s %.*s", r->name, (int)len, line);
			return 1;
		}
	}
	return 0;
}

/* One synopsis form after prefix, wrapped before " [" at HELP_WIDTH. */
static void write_form(FILE *f, const char *prefix, const char *form, size_t indent)
{
	size_t col = strlen(prefix), i = 0, len = strlen(form);

	fputs(prefix, f);
	while (i < len) {
		const char *next = strstr(form + i + 1, " [");
		size_t end = next && (size_t)(next - form) < len ? (size_t)(next - form) : len;
		if (i && col + (end - i) > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			i++;	/* the space */
		}
		fwrite(form + i, 1, end - i, f);
		col += end - i;
		i = end;
	}
	fputc('\n', f);
}

static void write_synopsis(FILE *f, const struct cli_command *c)
{
	char prefix[64], form[1024];
	int k;

	for (k = 0; cli_synopsis_form(c, k, form, sizeof(form)); k++) {
		snprintf(prefix, sizeof(prefix), "%sgpuplan%s%s ", k ? "       " : "usage: ", c->name ? " " : "",
			 c->name ? c->name : "");
		write_form(f, prefix, form, strlen(prefix));
	}
}

/* text with every line indented by indent (after the first when skip_first). */
static void write_indented(FILE *f, const char *text, int indent, int skip_first)
{
	int first = 1;
	for (; *text; text++) {
		if (first && !skip_first)
			fprintf(f, "%*s", indent, "");
		first = 0;
		fputc(*text, f);
		if (*text == '\n')
			fprintf(f, "%*s", indent, "");
	}
	fputc('\n', f);
}

static void write_options(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;
	char label[128];
	int width = (int)strlen("-h, --help");

	for (o = c->options; o->name; o++) {
		cli_option_label(label, sizeof(label), o);
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	for (o = c->options;; o++) {
		const struct cli_option *x = o->name ? o : &cli_help_option;
		cli_option_label(label, sizeof(label), x);
		fprintf(f, "  %-*s  ", width, label);
		write_indented(f, x->help, width + 4, 1);
		if (!o->name)
			break;
	}
}

void cli_help_write(FILE *f, const struct cli_command *c)
{
	size_t k;

	write_synopsis(f, c);
	if (c->description) {
		fputc('\n', f);
		write_indented(f, c->description, 2, 0);
	}
	fputc('\n', f);
	write_options(f, c);
	if (c->name)
		return;
	fputs("\ncommands:\n", f);
	for (k = 0; cli_commands[k]; k++)
		fprintf(f, "  %-10s %s\n", cli_commands[k]->name, cli_commands[k]->summary);
	fputs("\nRun 'gpuplan COMMAND --help' for a command's options.\n", f);
}
