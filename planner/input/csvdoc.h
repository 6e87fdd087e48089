/*
 * csvdoc.h - a CSV file read into rows that keep their line numbers,
 * with a header bound to a column table and typed field access.
 *
 * Accepted: a header row, RFC 4180 quoting (libcsv, strict mode), a
 * UTF-8 BOM, CRLF, LF or lone CR line ends, blank lines and lines starting with
 * '#' (comments) anywhere.  Rejected with FILE:LINE[:COL] messages: an
 * empty file, a header only when rows are required, rows with more or
 * fewer fields than the header, invalid UTF-8, UTF-16, NUL bytes and other
 * control characters (but tab, and line ends inside quotes), a line
 * longer than CSVDOC_MAX_LINE bytes, a field longer than CSVDOC_MAX_FIELD,
 * more than CSVDOC_MAX_FIELDS fields in a row or CSVDOC_MAX_ROWS rows, a
 * file larger than UTIL_MAX_FILE_BYTES.
 * COL in messages is the 1-based field number.  A field that begins with
 * ' followed by = + - @ TAB CR or ' is read without that first ' (the
 * spreadsheet guard sb_add_csv adds, util.h).
 *
 * Ownership: the csvdoc owns every string; csvdoc_release frees all.
 */
#ifndef PLANNER_CSVDOC_H
#define PLANNER_CSVDOC_H

#include <stddef.h>

#include "diag.h"
#include "util.h"

#define CSVDOC_MAX_LINE (1024L * 1024)
#define CSVDOC_MAX_ROWS 1000000L
#define CSVDOC_MAX_FIELDS 1000
#define CSVDOC_MAX_FIELD 4096	/* bytes in one field */

struct csvrow {
	long line;		/* 1-based line where the row starts */
	size_t n;		/* number of fields */
	char **f;		/* fields, NUL-terminated, trimmed of blanks */
};

struct csvdoc_block;

struct csvdoc {
	char *file;		/* path as given, used in messages */
	struct csvrow header;
	size_t nrows;
	struct csvrow *rows;	/* data rows (header excluded) */
	struct csvdoc_block *blocks; /* where the fields and field arrays live (one malloc per 256 KiB) */
};
#define CSVDOC_INIT { NULL, { 0, 0, NULL }, 0, NULL, NULL }

int csvdoc_load(struct csvdoc *doc, const char *path, struct diag *d);
/* Parses a buffer (for tests and fuzzing); name is used in messages. */
int csvdoc_parse(struct csvdoc *doc, const char *name, const char *text, size_t len, struct diag *d);
void csvdoc_release(struct csvdoc *doc);

/* A known column; a table of them ends with a NULL name. */
struct csvcol {
	const char *name;
	int required;		/* the column must be in the header */
};

/*
 * Maps each table column to its header position in idx[] (-1 when an
 * optional column is absent).  Fails on unknown (with a hint), missing
 * required, and duplicate columns.
 */
int csvdoc_bind(const struct csvdoc *doc, const struct csvcol *cols, int *idx, struct diag *d);

const char *csvdoc_field(const struct csvdoc *doc, const struct csvrow *r, int idx);
/* Error at row r, column position idx (idx < 0: no column). */
int csvdoc_error(const struct csvdoc *doc, const struct csvrow *r, int idx, struct diag *d,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/*
 * For a loader's row loop: every CSVDOC_POLL_ROWS rows (row is the
 * index), whether SIGINT/SIGTERM arrived (interrupt.h); then 1 with d
 * set ("FILE: interrupted by SIGINT while reading", DIAG_IO), else 0.
 */
#define CSVDOC_POLL_ROWS 4096
int csvdoc_interrupted(const struct csvdoc *doc, size_t row, struct diag *d);

/*
 * One data row being read field by field: what the typed readers below
 * need besides the column, in one place.  Columns are given as indexes c
 * into the table bound with csvdoc_bind; messages name them by the
 * table's name: "column 'count': 'x' is not a number".
 */
struct csvread {
	const struct csvdoc *doc;
	const struct csvrow *r;		/* the row being read */
	const struct csvcol *cols;	/* the bound table (names for messages) */
	const int *idx;			/* header position of each table column (csvdoc_bind) */
	struct diag *d;			/* filled on error */
};

/* The text of column c ("" when empty or the column is absent). */
const char *csvread_text(const struct csvread *rd, int c);
/* Error at column c of the row (c < 0: no column); returns -1. */
int csvread_error(const struct csvread *rd, int c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Typed fields.  Return 0 on success, 1 when the field is empty or the
 * column absent and not required (out untouched), -1 with d filled on
 * error ("column 'site' is empty" when required).
 */
int csvread_str(const struct csvread *rd, int c, int required, const char **out);
/*
 * A finite number in range: "column 'compute': '0' must be in (0, 1]",
 * "column 'ram_gib': '-1' must be greater than 0".
 */
int csvread_num(const struct csvread *rd, int c, int required, struct num_range range, double *out);
/* An integer in [min, max] (LLONG_MAX: no upper end): "column 'count': 0 must be in [1, 64]". */
int csvread_int(const struct csvread *rd, int c, int required, long long min, long long max,
		long long *out);
/*
 * A '|'-separated list: the trimmed entries of column c in a new array of
 * new strings (free with csvread_list_free); an empty field gives none.
 * An empty entry is an error ("column 'modes': empty entry in 'a||b'").
 */
int csvread_list(const struct csvread *rd, int c, char ***out, size_t *n);
void csvread_list_free(char **list, size_t n);
/* true/false, yes/no or 1/0 (case-insensitive). */
int csvread_bool(const struct csvread *rd, int c, int required, int *out);
/*
 * A required word of the NULL-terminated names (case-insensitive); *out
 * its index.  Errors as csvread_unknown.
 */
int csvread_word(const struct csvread *rd, int c, const char *what, const char *const *names, int *out);
/*
 * "unknown WHAT 'S'" at column c, with the hint str_hint (util.h) gives
 * over the NULL-terminated valid names: "unknown hypervisor 'kvn' (did
 * you mean 'kvm'?)", "... (expected vsphere, kvm, baremetal or cloud)".
 * Returns -1.
 */
int csvread_unknown(const struct csvread *rd, int c, const char *what, const char *s, const char *const *names);

/* True when s is valid UTF-8. */
int utf8_valid(const char *s, size_t len);

#endif
