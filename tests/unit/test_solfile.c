/*
 * test_solfile.c - other solvers' solution files (solfile.c): CBC's and
 * HiGHS's files of tests/solfile (README there) read whole, with their
 * status, objective and columns; CBC's rows block skipped; broken or
 * planless files fail at their line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tempfile.h"
#include "solfile.h"
#include "util.h"
#include "banned.h"

#define DIR TEST_SRC_DIR "/tests/solfile/"

/* The value read for name, or NAN. */
static double value(const struct solfile *s, const char *name)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].name, name))
			return s->v[i].value;
	return NAN;
}

static void test_files(void)
{
	struct solfile s;
	struct diag d = DIAG_INIT;

	CHECK(solfile_read(&s, DIR "bench-S-s4.highs.sol", &d) == 0, "%s", d.msg ? d.msg : "");
	CHECK_STR(s.solver, "HiGHS", "solver");
	CHECK_STR(s.status, "Optimal", "status");
	CHECK(fabs(s.objective - 604890.9272) < 1e-3, "objective %.4f", s.objective);
	CHECK(s.n == 975, "HiGHS writes every column (975 in its # Columns line): %zu", s.n);
	CHECK(value(&s, "N_5_mig-vgpu") == 1, "N_5_mig-vgpu %g", value(&s, "N_5_mig-vgpu"));
	CHECK(s.n && s.v[0].line == 8, "the first column is on line 8: %ld", s.n ? s.v[0].line : 0);
	solfile_release(&s);
	diag_release(&d);

	CHECK(solfile_read(&s, DIR "bench-S-s4.cbc.sol", &d) == 0, "%s", d.msg ? d.msg : "");
	CHECK_STR(s.solver, "CBC", "solver");
	CHECK_STR(s.status, "Stopped on time", "status");
	CHECK(fabs(s.objective - 604890.9272) < 1e-3, "objective %.4f", s.objective);
	CHECK(value(&s, "N_0_passthrough") == 1, "N_0_passthrough %g", value(&s, "N_0_passthrough"));
	CHECK(isnan(value(&s, "N_0_timeslice")), "CBC leaves zero columns out");
	solfile_release(&s);
	diag_release(&d);
}

/* CBC with printingOptions all: rows first, then the columns, each numbered from 0. */
static void test_cbc_rows(void)
{
	char *f = write_temp("Optimal - objective value 12.00000000\n"
			     "      0 avail_0                4                       1\n"
			     "**    1 nodes_0                3                       0\n"
			     "      0 N_0_mig                2                       6\n"
			     "      1 G_0_1                  1.5                     0\n");
	struct solfile s;
	struct diag d = DIAG_INIT;

	CHECK(f && solfile_read(&s, f, &d) == 0, "%s", d.msg ? d.msg : "");
	CHECK(s.n == 2, "the columns only: %zu", s.n);
	CHECK(value(&s, "N_0_mig") == 2 && value(&s, "G_0_1") == 1.5 && isnan(value(&s, "avail_0")), "values");
	CHECK(s.n == 2 && s.v[1].line == 5, "line %ld", s.n == 2 ? s.v[1].line : 0);
	solfile_release(&s);
	diag_release(&d);
	if (f)
		unlink(f);
	free(f);
}

static const struct bad {
	const char *text;
	long line;
	const char *msg;
} bads[] = {
	{ "", 0, "empty file" },
	{ "hello\n", 1, "not a solution of CBC" },
	{ "Infeasible - objective value 1\n", 1, "CBC found no plan" },
	{ "Stopped on time (no integer solution - continuous used) - objective value 12\n      0 x 0.5 0\n", 1,
	  "CBC found no plan" },
	{ "Optimal - objective value twelve\n", 1, "expected a number after 'objective value'" },
	{ "Optimal - objective value 1\n      0 x nope 0\n", 2, "expected a column's value, found 'nope'" },
	{ "Optimal - objective value 1\n      x 1 0\n", 2, "expected 'INDEX NAME VALUE REDUCED_COST'" },
	{ "Optimal - objective value 1\n      0\n", 2, "expected a column name" },
	{ "Optimal - objective value 1\n      0 x inf 0\n", 2, "expected a column's value" },
	{ "Model status\nTime limit reached\n\n# Primal solution values\nNone\n", 5, "HiGHS has no feasible plan here" },
	{ "Model status\nOptimal\n\n# Primal values\n", 4, "expected '# Primal solution values'" },
	{ "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective x\n", 6, "expected 'Objective VALUE'" },
	{ "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 1\n# Cols 2\n", 7,
	  "expected '# Columns N'" },
	{ "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 1\n# Columns 2\nx 1\n", 8,
	  "the file ends before its columns" },
	{ "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 1\n# Columns 2\nx 1\nx 2\n", 9,
	  "column 'x' given twice (first on line 8)" },
	{ "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 1\n# Columns 1\nx 1 2\n", 8,
	  "found more on the line" },
	{ "Model status\n", 1, "the file ends before the model status" },
};

static void test_bad(void)
{
	size_t i;

	for (i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		char *f = write_temp(bads[i].text);
		struct solfile s;
		struct diag d = DIAG_INIT;
		CHECK(f && solfile_read(&s, f, &d) == -1, "bad %zu read", i);
		CHECK(d.kind == DIAG_INPUT && d.line == bads[i].line, "bad %zu: line %ld, want %ld (%s)", i, d.line,
		      bads[i].line, d.msg ? d.msg : "");
		CHECK(d.msg && strstr(d.msg, bads[i].msg), "bad %zu: '%s' lacks '%s'", i, d.msg ? d.msg : "", bads[i].msg);
		solfile_release(&s);
		diag_release(&d);
		if (f)
			unlink(f);
		free(f);
	}
	{
		struct solfile s;
		struct diag d = DIAG_INIT;
		CHECK(solfile_read(&s, DIR "no-such-file.sol", &d) == -1 && d.kind == DIAG_INPUT &&
			      d.msg && strstr(d.msg, "cannot open"), "a missing file: %s", d.msg ? d.msg : "");
		solfile_release(&s);
		diag_release(&d);
	}
}

int main(void)
{
	test_files();
	test_cbc_rows();
	test_bad();
	return check_done();
}
