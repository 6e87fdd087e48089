/*
 * parse.c - the command line, parsed from the command table: getopt_long
 * with the arrays built from a command's option rows (options.h), each
 * value stored into the command's options struct as its row says, and
 * the operands (and the sub-command word) as the command's row says.
 *
 * Options and operands are taken in the order given (getopt's
 * RETURN_IN_ORDER, whatever POSIXLY_CORRECT says), so options may follow
 * operands (`plan SCENARIO -o DIR`) and the first error met is the one
 * reported; "--" ends the options.  For gpuplan's own options (operands
 * CLI_STOP) parsing stops at the first operand, the command.
 *
 * gpuplan's own options but --version are also taken after the command
 * (`gpuplan plan s.yaml --verbose`), into the struct cli_set_global
 * named, unless the command has an option of that name or letter (its
 * own then wins: `models check --models DIR`).
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util.h"
#include "banned.h"

#define CLI_MAX_OPTIONS 28	/* options of one command, -h/--help and gpuplan's own included */
#define CLI_MAX_SUBCOMMANDS 8

/* CLI_WORDS values and sub-command indexes are stored as int, into enum fields too. */
_Static_assert(sizeof(enum report_format) == sizeof(int), "enum fields hold an int");

const struct cli_word cli_report_formats[] = {
	{ "csv", REPORT_CSV, 0 },
	{ "json", REPORT_JSON, 0 },
	{ "both", REPORT_BOTH, 0 },
	{ "html", REPORT_HTML, 0 },
	{ "all", REPORT_ALL, 0 },
	{ NULL, 0, 0 },
};

/* getopt_long's arrays for one command. */
struct getopt_state {
	const struct cli_command *cmd;	/* whose options */
	int argc;
	char **argv;			/* argv[0] is the command's name */
	struct option longopts[CLI_MAX_OPTIONS + 1];	/* built from cmd's rows; val: 256 + the row's index */
	const struct cli_option *rows[CLI_MAX_OPTIONS];	/* longopts[i]'s row */
	char optstring[2 * CLI_MAX_OPTIONS + 4];	/* "-:" or "+:" and the short options */
	int rest;			/* after "--": the operands left are returned one by one */
};

/* The operands met so far. */
struct operand_state {
	const struct cli_subcommand *sub;	/* the sub-command word given, or NULL */
	int n;					/* operands after the command (and its word) */
};

enum { GOT_END, GOT_OPTION, GOT_OPERAND, GOT_ERROR };

static struct cli_global *global_args;	/* where gpuplan's own options after the command go */

void cli_set_global(struct cli_global *g)
{
	global_args = g;
}

static void add_option(struct getopt_state *go, size_t *n, size_t *k, const struct cli_option *o)
{
	struct option *lo = &go->longopts[*n];
	lo->name = o->name;
	lo->has_arg = o->arg ? required_argument : no_argument;
	lo->flag = NULL;
	lo->val = 256 + (int)*n;
	go->rows[(*n)++] = o;
	if (o->letter) {
		go->optstring[(*k)++] = (char)o->letter;
		if (o->arg)
			go->optstring[(*k)++] = ':';
	}
}

/* True when one of the first n rows already has o's name or letter. */
static int taken(const struct getopt_state *go, size_t n, const struct cli_option *o)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(go->rows[i]->name, o->name) || (o->letter && go->rows[i]->letter == o->letter))
			return 1;
	return 0;
}

static void getopt_begin(struct getopt_state *go, const struct cli_command *c, int argc, char **argv)
{
	const struct cli_option *o;
	size_t n = 0, k = 0;

	memset(go, 0, sizeof(*go));
	go->cmd = c;
	go->argc = argc;
	go->argv = argv;
	go->optstring[k++] = c->operands.kind == CLI_STOP ? '+' : '-';
	go->optstring[k++] = ':';	/* ':' for a missing value, '?' for an unknown option */
	for (o = c->options; o->name && n < CLI_MAX_OPTIONS - 1; o++)
		add_option(go, &n, &k, o);
	add_option(go, &n, &k, &cli_help_option);
	if (c != &cli_gpuplan && global_args)
		for (o = cli_gpuplan.options; o->name && n < CLI_MAX_OPTIONS; o++)
			if (o->kind != CLI_SET && !taken(go, n, o))
				add_option(go, &n, &k, o);
	optind = 0;	/* a full reset: another table than the last call's */
	opterr = 0;	/* the messages are ours */
}

/* The option as the user wrote it, for messages (argv[optind - 1] or -<optopt>). */
static void bad_option_text(const struct getopt_state *go, char *buf, size_t n)
{
	const char *a = optind > 0 && optind <= go->argc ? go->argv[optind - 1] : "";
	if (!strncmp(a, "--", 2) || optopt <= 0 || optopt >= 256)
		snprintf(buf, n, "%s", a);
	else
		snprintf(buf, n, "-%c", optopt);
}

/* The hint for an unknown option text: the nearest long options of the command, as "--name". */
static char *option_hint(const struct getopt_state *go, const char *text)
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

/* The row of short option letter. */
static const struct cli_option *letter_row(const struct getopt_state *go, int letter)
{
	size_t i;
	for (i = 0; i < CLI_MAX_OPTIONS && go->rows[i]; i++)
		if (go->rows[i]->letter == letter)
			return go->rows[i];
	return NULL;
}

/* The next option (*o) or operand, with its value in *val; GOT_ERROR after a message. */
static int next(struct getopt_state *go, const struct cli_option **o, const char **val)
{
	char text[256], *hint;
	int id;

	if (go->rest) {
		if (optind >= go->argc)
			return GOT_END;
		*val = go->argv[optind++];
		return GOT_OPERAND;
	}
	id = getopt_long(go->argc, go->argv, go->optstring, go->longopts, NULL);
	*val = optarg;
	switch (id) {
	case -1:
		/* in order: only "--" stops early, and the rest are operands */
		if (go->optstring[0] != '-' || optind >= go->argc)
			return GOT_END;
		go->rest = 1;
		return next(go, o, val);
	case 1:
		return GOT_OPERAND;
	case '?':
		bad_option_text(go, text, sizeof(text));
		hint = option_hint(go, text);
		cli_misuse(go->cmd, "unknown option '%s'%s", text, hint);
		free(hint);
		return GOT_ERROR;
	case ':':
		bad_option_text(go, text, sizeof(text));
		cli_misuse(go->cmd, "option '%s' needs a value", text);
		return GOT_ERROR;
	default:
		*o = id >= 256 ? go->rows[id - 256] : letter_row(go, id);
		return GOT_OPTION;
	}
}

/* ================= values ================= */

/* A strict number in range; -1 after a message ("--time-limit: '0' must be in (0, 86400]"). */
static int parse_num(const char *opt, const char *s, struct num_range range, double *out)
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

/* A number in the row's range, and whole when asked; EXIT_USAGE after a message. */
static int number(const char *opt, const char *v, struct num_range range, int whole, double *x)
{
	if (parse_num(opt, v, range, x))
		return EXIT_USAGE;
	if (whole && *x != floor(*x))
		return cli_usage("%s: '%s' is not a whole number", opt, v);
	return 0;
}

/* "a, b or c": the words that are not aliases. */
static char *word_list(const struct cli_word *w)
{
	struct sb sb;
	size_t n = 0, i, k = 0;

	for (i = 0; w[i].word; i++)
		n += !w[i].alias;
	sb_init(&sb);
	for (i = 0; w[i].word; i++) {
		if (w[i].alias)
			continue;
		sb_adds(&sb, k ? (k + 1 == n ? " or " : ", ") : "");
		sb_adds(&sb, w[i].word);
		k++;
	}
	return sb_detach(&sb);
}

int cli_word_value(const char *opt, const struct cli_word *words, const char *v, int *out)
{
	const struct cli_word *w;
	char *list;

	for (w = words; w->word; w++)
		if (!strcmp(w->word, v)) {
			*out = w->value;
			return 0;
		}
	list = word_list(words);
	cli_usage("%s: '%s' is not %s", opt, v, list);
	free(list);
	return EXIT_USAGE;
}

static void list_add(struct cli_list *l, const char *v)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = v;
}

/* Stores val into args as row o says: 0, CLI_DONE or EXIT_USAGE after a message. */
static int take_option(const struct cli_command *c, const struct cli_option *o, void *args, const char *val)
{
	char *field = (char *)args + o->offset, opt[64];
	long long ll;
	double x;
	int rc;

	snprintf(opt, sizeof(opt), "--%s", o->name);
	switch (o->kind) {
	case CLI_FLAG:
		*(int *)field = 1;
		return 0;
	case CLI_STRING:
		*(const char **)field = val;
		return 0;
	case CLI_LIST:
		list_add((struct cli_list *)field, val);
		return 0;
	case CLI_DOUBLE:
	case CLI_PERCENT:
	case CLI_LONG:
	case CLI_INT:
		rc = number(opt, val, o->range, o->whole || o->kind == CLI_LONG || o->kind == CLI_INT, &x);
		if (!rc && o->kind == CLI_DOUBLE)
			*(double *)field = x;
		else if (!rc && o->kind == CLI_PERCENT)
			*(double *)field = x / 100.0;
		else if (!rc && o->kind == CLI_LONG)
			*(long *)field = (long)x;
		else if (!rc)
			*(int *)field = (int)x;
		return rc;
	case CLI_COUNT:
		if (parse_llong(val, &ll) || (double)ll < o->range.lo || (double)ll > o->range.hi)
			return cli_usage("%s: '%s' is not a whole number in %ld..%ld", opt, val, (long)o->range.lo,
					 (long)o->range.hi);
		*(long *)field = (long)ll;
		return 0;
	case CLI_WORDS:
		return cli_word_value(opt, o->words, val, (int *)field);
	case CLI_SET:
		return o->set(o, args, val);
	case CLI_HELP:
		cli_help_write(stdout, c);
		return CLI_DONE;
	case CLI_STOP:
		break;
	}
	return 0;
}

/* ================= operands ================= */

/* The sub-command word v: its row's index stored; EXIT_USAGE after a message when unknown. */
static int take_word(const struct cli_command *c, struct operand_state *st, void *args, const char *v)
{
	const char *names[CLI_MAX_SUBCOMMANDS + 1];
	int k;

	for (k = 0; k < CLI_MAX_SUBCOMMANDS && c->sub.rows[k].name; k++)
		names[k] = c->sub.rows[k].name;
	names[k] = NULL;
	for (k = 0; names[k]; k++)
		if (!strcmp(names[k], v)) {
			*(int *)((char *)args + c->sub.offset) = k;
			st->sub = &c->sub.rows[k];
			return 0;
		}
	return cli_unknown(c, c->sub.what, v, names);
}

static int take_operand(const struct cli_command *c, struct operand_state *st, void *args, const char *v)
{
	const struct cli_operands *op = &c->operands;
	char *field = (char *)args + op->offset;
	int max = st->sub ? st->sub->max : op->max;
	const char *too_many = st->sub ? st->sub->too_many : op->too_many;

	if (c->sub.rows && !st->sub)
		return take_word(c, st, args, v);
	if (max >= 0 && st->n >= max)
		return too_many ? cli_misuse(c, "%s", too_many) : cli_misuse(c, "unknown argument '%s'", v);
	st->n++;
	if (op->kind == CLI_STRING)
		((const char **)field)[st->n - 1] = v;
	else if (op->kind == CLI_LIST)
		list_add((struct cli_list *)field, v);
	else if (op->kind == CLI_SET)
		return op->set(NULL, args, v);
	return 0;
}

/* True when o is a row of gpuplan's own options. */
static int global_row(const struct cli_option *o)
{
	const struct cli_option *g;
	for (g = cli_gpuplan.options; g->name; g++)
		if (g == o)
			return 1;
	return 0;
}

int cli_parse(const struct cli_command *c, int argc, char **argv, void *args)
{
	struct getopt_state go;
	struct operand_state st = { NULL, 0 };
	const struct cli_option *o = NULL;
	const char *v;
	int got, rc = 0;

	getopt_begin(&go, c, argc, argv);
	while (!rc && (got = next(&go, &o, &v)) != GOT_END) {
		if (got == GOT_ERROR)
			return EXIT_USAGE;
		if (got == GOT_OPTION && c != &cli_gpuplan && global_row(o))
			rc = take_option(c, o, global_args, v);
		else
			rc = got == GOT_OPTION ? take_option(c, o, args, v) : take_operand(c, &st, args, v);
	}
	if (!rc && c->sub.rows && !st.sub)
		return cli_misuse(c, "%s", c->sub.missing);
	return rc;
}
