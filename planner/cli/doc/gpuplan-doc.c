/*
 * gpuplan-doc.c - writes gpuplan's man page (roff, man(7) macros) and
 * its bash completion from the command table (options.h: the rows of
 * cli_commands[] and cli_gpuplan), the same rows gpuplan builds its
 * --help texts and getopt_long arrays from.  Linked with the command
 * layer's files but main.c; built and run at build time; not installed.
 *
 * usage: gpuplan-doc man VERSION > gpuplan.1
 *        gpuplan-doc bash > gpuplan.bash
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "banned.h"

/* s with roff's special characters escaped: \ and -, a leading . or '. */
static void roff(FILE *f, const char *s)
{
	int bol = 1;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* Text lines joined into one paragraph (the man page fills its own lines). */
static void roff_para(FILE *f, const char *s)
{
	for (; *s; s++) {
		char one[2] = { *s == '\n' ? ' ' : *s, '\0' };
		roff(f, one);
	}
	fputc('\n', f);
}

static void man_option(FILE *f, const struct cli_option *o)
{
	fputs(".TP\n", f);
	if (o->letter)
		fprintf(f, "\\fB\\-%c\\fR, ", o->letter);
	fputs("\\fB\\-\\-", f);
	roff(f, o->name);
	fputs("\\fR", f);
	if (o->arg) {
		fputs(" \\fI", f);
		roff(f, o->arg);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_para(f, o->help);
}

static void man_synopsis(FILE *f, const struct cli_command *c)
{
	char form[1024];
	int k;

	for (k = 0; cli_synopsis_form(c, k, form, sizeof(form)); k++) {
		fprintf(f, ".br\n\\fBgpuplan%s%s\\fR ", c->name ? " " : "", c->name ? c->name : "");
		roff(f, form);
		fputc('\n', f);
	}
}

static void man_command(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;

	fprintf(f, ".SS %s\n", c->name);
	man_synopsis(f, c);
	fputs(".PP\n", f);
	roff_para(f, c->summary);
	if (c->description) {
		fputs(".PP\n", f);
		roff_para(f, c->description);
	}
	for (o = c->options; o->name; o++)
		man_option(f, o);
	man_option(f, &cli_help_option);
}

static void write_man(FILE *f, const char *version)
{
	const struct cli_exit_doc *e;
	const struct cli_option *o;
	size_t k;

	fprintf(f, ".TH GPUPLAN 1 \"\" \"gpuplan %s\" \"User Commands\"\n.ad l\n", version);
	fputs(".SH NAME\ngpuplan \\- ", f);
	roff_para(f, cli_gpuplan.summary);
	fputs(".SH SYNOPSIS\n.nf\n", f);
	man_synopsis(f, &cli_gpuplan);
	fputs(".fi\n.SH DESCRIPTION\n", f);
	fputs("gpuplan plans GPU clusters: it chooses each node's mode (whole GPUs, MIG, vGPU, time-slicing),\n"
	      "partitions and placements for a scenario's workloads, and prices hardware, cloud rental,\n"
	      "energy and NVIDIA licences over the horizon.  A scenario is a YAML file naming an inventory\n"
	      "and a workload CSV file.\n", f);
	fputs(".SH OPTIONS\nThese come before the command.\n", f);
	for (o = cli_gpuplan.options; o->name; o++)
		man_option(f, o);
	man_option(f, &cli_help_option);
	fputs(".SH COMMANDS\nOptions and operands of a command may come in any order; \\-\\- ends the options.\n", f);
	for (k = 0; cli_commands[k]; k++)
		man_command(f, cli_commands[k]);
	fputs(".SH EXIT STATUS\n", f);
	for (e = cli_exit_docs; e->text; e++) {
		fprintf(f, ".TP\n.B %d\n", e->code);
		roff_para(f, e->text);
	}
	fputs(".SH ENVIRONMENT\n", f);
	for (k = 0; cli_environment[k]; k += 2) {
		fprintf(f, ".TP\n.B %s\n", cli_environment[k]);
		roff_para(f, cli_environment[k + 1]);
	}
	fputs(".SH FILES\n.TP\n.I <prefix>/share/gpuplan/models\n", f);
	roff_para(f, "the models (gpus.yaml, licenses.yaml, clouds.yaml), found relative to the executable\n"
		     "(<prefix>/bin/gpuplan); the lookup order is --models DIR, the scenario's models:,\n"
		     "$GPUPLAN_MODELS, this directory, then the source tree's models directory");
}

/* True when c has an option of o's name or letter (gpuplan's own are then not c's). */
static int has_option(const struct cli_command *c, const struct cli_option *o)
{
	const struct cli_option *x;
	for (x = c->options; x->name; x++)
		if (!strcmp(x->name, o->name) || (o->letter && x->letter == o->letter))
			return 1;
	return 0;
}

/* The option words of one row ("-o --output "). */
static void bash_row_words(FILE *f, const struct cli_option *o)
{
	if (o->letter)
		fprintf(f, "-%c ", o->letter);
	fprintf(f, "--%s ", o->name);
}

/*
 * The options of c, space-separated, for the completion; for a command,
 * gpuplan's own too (but --version), which it takes after its name.
 */
static void bash_words(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;
	for (o = c->options; o->name; o++)
		bash_row_words(f, o);
	if (c != &cli_gpuplan)
		for (o = cli_gpuplan.options; o->name; o++)
			if (o->kind != CLI_SET && !has_option(c, o))
				bash_row_words(f, o);
	fputs("-h --help", f);
}

/* The options of c that take a value, space-separated, so that the completion skips their values. */
static void bash_value_words(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;
	for (o = c->options; o->name; o++)
		if (o->arg)
			bash_row_words(f, o);
	fputs("--models", f);
}

/* One case pattern of the values of o: its choices (csv|json|both), files (FILE, DIR), or nothing. */
static void bash_value(FILE *f, const struct cli_option *o)
{
	const char *choices = o->arg && strchr(o->arg, '|') ? o->arg : NULL;

	if (o->letter)
		fprintf(f, "\t\t-%c|--%s)\n\t\t\t", o->letter, o->name);
	else
		fprintf(f, "\t\t--%s)\n\t\t\t", o->name);
	if (choices) {
		fputs("COMPREPLY=($(compgen -W '", f);
		for (; *choices; choices++)
			fputc(*choices == '|' ? ' ' : *choices, f);
		fputs("' -- \"$cur\"))\n", f);
	} else if (strstr(o->arg, "DIR") && !strstr(o->arg, "FILE")) {
		fputs("COMPREPLY=($(compgen -d -- \"$cur\"))\n", f);
	} else if (strstr(o->arg, "FILE") || strstr(o->arg, "DIR")) {
		fputs("COMPREPLY=($(compgen -f -- \"$cur\"))\n", f);
	} else {
		fputs("COMPREPLY=()\n", f);	/* a number or a name: nothing to offer */
	}
	fputs("\t\t\treturn ;;\n", f);
}

/* case patterns for the options of c that take a value, gpuplan's --models included. */
static void bash_values(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;
	for (o = c->options; o->name; o++)
		if (o->arg)
			bash_value(f, o);
	if (!has_option(c, &cli_gpuplan.options[0]))
		fputs("\t\t--models)\n\t\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))\n\t\t\treturn ;;\n", f);
}

/* True when bash_first_operand has words for c. */
static int has_first_operand(const struct cli_command *c)
{
	return c->sub.rows || !strcmp(c->name, "models") || !strcmp(c->name, "profiles") || !strcmp(c->name, "help");
}

/*
 * What the first operand of c completes to: its sub-command words
 * (sweep run, import kubectl), and for the commands whose first operand
 * is a word without a sub-command table, that word (models check), a
 * GPU type the installed gpuplan lists (profiles), a command (help).
 * Only for c with has_first_operand.
 */
static void bash_first_operand(FILE *f, const struct cli_command *c)
{
	size_t k;

	if (c->sub.rows) {
		fputs("COMPREPLY=($(compgen -W '", f);
		for (k = 0; c->sub.rows[k].name; k++)
			fprintf(f, "%s%s", k ? " " : "", c->sub.rows[k].name);
		fputs("' -- \"$cur\"))", f);
	} else if (!strcmp(c->name, "models")) {
		fputs("COMPREPLY=($(compgen -W 'check' -- \"$cur\"))", f);
	} else if (!strcmp(c->name, "profiles")) {
		fputs("COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" profiles 2>/dev/null | "
		      "awk 'NR > 1 { print $1 }')\" -- \"$cur\"))", f);
	} else if (!strcmp(c->name, "help")) {
		fputs("COMPREPLY=($(compgen -W '", f);
		for (k = 0; cli_commands[k]; k++)
			fprintf(f, "%s%s", k ? " " : "", cli_commands[k]->name);
		fputs("' -- \"$cur\"))", f);
	}
}

/*
 * _gpuplan_operands START VALUE_OPTIONS: how many operands come after
 * the command at START and before the word being completed, the value of
 * an option that takes one skipped.
 */
static const char bash_operands_fn[] =
	"_gpuplan_operands()\n{\n"
	"\tlocal i n=0 skip=\n"
	"\tfor ((i = $1 + 1; i < COMP_CWORD; i++)); do\n"
	"\t\tif [[ -n $skip ]]; then skip=; continue; fi\n"
	"\t\tcase ${COMP_WORDS[i]} in\n"
	"\t\t--*=*) ;;\n"
	"\t\t-*) [[ \" $2 \" == *\" ${COMP_WORDS[i]} \"* ]] && skip=1 ;;\n"
	"\t\t*) ((n++)) ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\techo $n\n"
	"}\n";

static void write_bash(FILE *f)
{
	size_t k;

	fputs("# bash completion for gpuplan, written by gpuplan-doc from the command table\n", f);
	fputs(bash_operands_fn, f);
	fputs("_gpuplan()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tcase ${COMP_WORDS[i]} in\n"
	      "\t\t--models) ((i++)) ;;\n"
	      "\t\t-*) ;;\n"
	      "\t\t*) cmd=${COMP_WORDS[i]}; break ;;\n"
	      "\t\tesac\n"
	      "\tdone\n"
	      "\tcase $cmd in\n"
	      "\t'')\n"
	      "\t\tif [[ $prev == --models ]]; then COMPREPLY=($(compgen -d -- \"$cur\")); return; fi\n"
	      "\t\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '", f);
	bash_words(f, &cli_gpuplan);
	fputs("' -- \"$cur\")); return; fi\n\t\tCOMPREPLY=($(compgen -W '", f);
	for (k = 0; cli_commands[k]; k++)
		fprintf(f, "%s%s", k ? " " : "", cli_commands[k]->name);
	fputs("' -- \"$cur\"))\n\t\treturn ;;\n", f);
	for (k = 0; cli_commands[k]; k++) {
		const struct cli_command *c = cli_commands[k];
		fprintf(f, "\t%s)\n\t\tcase $prev in\n", c->name);
		bash_values(f, c);
		fputs("\t\tesac\n\t\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W '", f);
		bash_words(f, c);
		fputs("' -- \"$cur\")); return; fi", f);
		if (has_first_operand(c)) {
			fputs("\n\t\tif [[ $(_gpuplan_operands $i '", f);
			bash_value_words(f, c);
			fputs("') == 0 ]]; then\n\t\t\t", f);
			bash_first_operand(f, c);
			fputs("\n\t\t\treturn\n\t\tfi", f);
		}
		fputs(" ;;\n", f);
	}
	fputs("\tesac\n\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _gpuplan gpuplan\n", f);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "man")) {
		write_man(stdout, argv[2]);
	} else if (argc == 2 && !strcmp(argv[1], "bash")) {
		write_bash(stdout);
	} else {
		fputs("usage: gpuplan-doc man VERSION | bash\n", stderr);
		return 2;
	}
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
