/*
 * solfile.c - another solver's MIP solution of the exported model
 * (solfile.h).
 *
 * The formats follow the solvers' own output: CBC 2.10.8 (Debian
 * coinor-cbc) `cbc MODEL.mps sec S solve solution FILE`, and HiGHS 1.15's
 * raw solution file (HighsSolution.cpp writeSolutionFile, as the npm
 * package's exportSolution() prints it); tests/data/solfile holds both,
 * written by those solvers on a benchmark instance.  CBC's header words are those of
 * CbcSolver.cpp: "Optimal", "Stopped on time", "Stopped on iterations",
 * and "... (no integer solution - continuous used)" when it has only the
 * LP relaxation, which is no plan.  With `printingOptions all` CBC prints
 * the rows before the columns, each block numbered from 0: the last block
 * is the columns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solfile.h"
#include "strmap.h"
#include "util.h"
#include "lines.h"
#include "banned.h"

/* The next blank-separated token of *s (NUL-ended in place), or NULL. */
static char *token(char **s)
{
	char *p = *s, *t;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p)
		return NULL;
	t = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return t;
}

static void add_value(struct solfile *s, size_t *cap, const char *name, double v, long line)
{
	XGROW(s->v, *cap, s->n + 1);
	s->v[s->n].name = xstrdup(name);
	s->v[s->n].value = v;
	s->v[s->n].line = line;
	s->n++;
}

/* A value token into *v; -1 with d set when it is not a finite number. */
static int value_of(const char *t, double *v, const struct lines *L, const char *path, struct diag *d)
{
	if (!t || parse_double(t, v))
		return diag_set(d, DIAG_INPUT, path, L->no, 0, "expected a column's value, found '%s'", t ? t : "");
	return 0;
}

/* "STATUS - objective value X" and "[**] INDEX NAME VALUE REDUCED_COST" lines. */
static int read_cbc(struct solfile *s, struct lines *L, char *head, size_t *cap, struct diag *d)
{
	char *at = strstr(head, " - objective value "), *line, *t, *name;
	long long idx, last = -1;
	double v;
	size_t i;

	*at = '\0';
	s->status = xstrdup(head);
	if (strstr(head, "(no integer solution") || !strncmp(head, "Infeasible", 10) ||
	    !strncmp(head, "Integer infeasible", 18) || !strncmp(head, "Unbounded", 9))
		return diag_set(d, DIAG_INPUT, s->path, 1, 0, "CBC found no plan ('%s'): nothing to start from", head);
	if (parse_double(at + strlen(" - objective value "), &s->objective))
		return diag_set(d, DIAG_INPUT, s->path, 1, 0, "expected a number after 'objective value'");
	while (lines_next(L, &line)) {
		if (str_blank(line))
			continue;
		if (!strncmp(line, "**", 2))
			line += 2;
		t = token(&line);
		if (!t || parse_llong(t, &idx) || idx < 0)
			return diag_set(d, DIAG_INPUT, s->path, L->no, 0,
					"expected 'INDEX NAME VALUE REDUCED_COST', a line of CBC's solution");
		if (idx <= last) {	/* numbered from 0 again: the lines before were the rows */
			for (i = 0; i < s->n; i++)
				free(s->v[i].name);
			s->n = 0;
		}
		last = idx;
		name = token(&line);
		if (!name)
			return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected a column name after the index");
		if (value_of(token(&line), &v, L, s->path, d))
			return -1;
		add_value(s, cap, name, v, L->no);
	}
	return 0;
}

/* The next line, or -1 with d set: the file ended where HiGHS writes `what`. */
static int next_or(struct lines *L, char **line, const char *path, const char *what, struct diag *d)
{
	if (!lines_next(L, line))
		return diag_set(d, DIAG_INPUT, path, L->no, 0, "the file ends before %s", what);
	return 0;
}

/* HiGHS's raw solution file, after its first line "Model status". */
static int read_highs(struct solfile *s, struct lines *L, size_t *cap, struct diag *d)
{
	char *line, *name;
	long long ncols, j;
	double v;

	if (next_or(L, &line, s->path, "the model status", d))
		return -1;
	s->status = xstrdup(line);
	if (next_or(L, &line, s->path, "'# Primal solution values'", d))
		return -1;
	if (str_blank(line) && next_or(L, &line, s->path, "'# Primal solution values'", d))
		return -1;
	if (strcmp(line, "# Primal solution values"))
		return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected '# Primal solution values'");
	if (next_or(L, &line, s->path, "the primal solution's status", d))
		return -1;
	if (strcmp(line, "Feasible"))
		return diag_set(d, DIAG_INPUT, s->path, L->no, 0,
				"HiGHS has no feasible plan here (model status '%s', primal solution '%s'): nothing to "
				"start from", s->status, line);
	if (next_or(L, &line, s->path, "'Objective'", d))
		return -1;
	if (strncmp(line, "Objective ", 10) || parse_double(line + 10, &s->objective))
		return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected 'Objective VALUE'");
	if (next_or(L, &line, s->path, "'# Columns N'", d))
		return -1;
	if (strncmp(line, "# Columns ", 10) || parse_llong(line + 10, &ncols) || ncols < 0)
		return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected '# Columns N'");
	for (j = 0; j < ncols; j++) {
		if (next_or(L, &line, s->path, "its columns, as '# Columns' counts them", d))
			return -1;
		name = token(&line);
		if (!name)
			return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected 'NAME VALUE', a column of HiGHS's solution");
		if (value_of(token(&line), &v, L, s->path, d))
			return -1;
		if (token(&line))
			return diag_set(d, DIAG_INPUT, s->path, L->no, 0, "expected 'NAME VALUE', found more on the line");
		add_value(s, cap, name, v, L->no);
	}
	return 0;
}

/* A name given twice: the second is an error (the solvers write each column once). */
static int check_names(const struct solfile *s, struct diag *d)
{
	struct strmap seen = STRMAP_INIT;
	size_t i, first;
	int rc = 0;

	for (i = 0; i < s->n && !rc; i++)
		if (strmap_add(&seen, s->v[i].name, (size_t)s->v[i].line, &first))
			rc = diag_set(d, DIAG_INPUT, s->path, s->v[i].line, 0, "column '%s' given twice (first on line %zu)",
				      s->v[i].name, first);
	strmap_release(&seen);
	return rc;
}

int solfile_read(struct solfile *s, const char *path, struct diag *d)
{
	struct lines L;
	char *head;
	size_t cap = 0;
	int rc;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	if (lines_open(&L, path, SOLFILE_MAX_BYTES, d)) {
		lines_close(&L);
		return -1;
	}
	if (!lines_next(&L, &head)) {
		rc = diag_set(d, DIAG_INPUT, path, 0, 0, "empty file: not a solution of CBC or HiGHS");
	} else if (!strcmp(head, "Model status")) {
		s->solver = "HiGHS";
		rc = read_highs(s, &L, &cap, d);
	} else if (strstr(head, " - objective value ")) {
		s->solver = "CBC";
		rc = read_cbc(s, &L, head, &cap, d);
	} else {
		rc = diag_set(d, DIAG_INPUT, path, 1, 0,
			      "not a solution of CBC ('STATUS - objective value X') or HiGHS ('Model status')");
	}
	lines_close(&L);
	return rc ? rc : check_names(s, d);
}

void solfile_release(struct solfile *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s->status);
	free(s->path);
	memset(s, 0, sizeof(*s));
}
