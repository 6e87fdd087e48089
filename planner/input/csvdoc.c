/*
 * csvdoc.c - CSV via libcsv, fed one line at a time so that every row
 * knows the line it starts on.
 */
#include <csv.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "interrupt.h"
#include "util.h"
#include "banned.h"

int utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n, k;
		unsigned int cp;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF) {
			n = 1;
			cp = c & 0x1Fu;
		} else if (c >= 0xE0 && c <= 0xEF) {
			n = 2;
			cp = c & 0x0Fu;
		} else if (c >= 0xF0 && c <= 0xF4) {
			n = 3;
			cp = c & 0x07u;
		} else {
			return 0;
		}
		for (k = 1; k <= n; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				return 0;
			cp = (cp << 6) | (s[i + k] & 0x3Fu);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
		    (cp >= 0xD800 && cp <= 0xDFFF))
			return 0;
		i += n + 1;
	}
	return 1;
}

/*
 * The fields of a document live in blocks of at least CSV_BLOCK bytes,
 * freed together: a million rows of 15 fields are then a few thousand
 * mallocs, not 16 million.
 */
#define CSV_BLOCK ((size_t)256 << 10)

struct csvdoc_block {
	struct csvdoc_block *next;
	size_t used, cap;
	max_align_t data[];
};

static void *csv_alloc(struct csvdoc *doc, size_t n)
{
	struct csvdoc_block *b = doc->blocks;
	void *p;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (!b || b->cap - b->used < n) {
		size_t cap = n > CSV_BLOCK ? n : CSV_BLOCK;
		b = xmalloc(sizeof(*b) + cap);
		b->next = doc->blocks;
		b->used = 0;
		b->cap = cap;
		doc->blocks = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

void csvdoc_release(struct csvdoc *doc)
{
	while (doc->blocks) {
		struct csvdoc_block *next = doc->blocks->next;
		free(doc->blocks);
		doc->blocks = next;
	}
	free(doc->rows);
	free(doc->file);
	memset(doc, 0, sizeof(*doc));
}

struct cstate {
	struct csvdoc *doc;
	struct diag *d;
	struct csvrow cur;	/* row being built */
	size_t curcap;
	size_t rowcap;
	long row_line;		/* line the current row started on */
	long line;		/* line being fed */
	int have_header;
	int failed;
};

static char *trim_dup(struct csvdoc *doc, const char *s, size_t len)
{
	char *t;

	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	t = csv_alloc(doc, len + 1);
	memcpy(t, s, len);
	t[len] = '\0';
	if (csv_cell_neutralised(t)) /* "'=x", as gpuplan writes "=x" (util.h) */
		memmove(t, t + 1, len);
	return t;
}

static void on_field(void *data, size_t len, void *priv)
{
	struct cstate *st = priv;
	if (st->failed)
		return;
	/*
	 * A row that starts in the middle of a fed line (after a lone CR,
	 * which libcsv also takes as a row end) starts on that line.
	 */
	if (st->row_line == 0)
		st->row_line = st->line;
	if (st->cur.n >= CSVDOC_MAX_FIELDS) {
		st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line, 0,
				      "more than %d fields in a row", CSVDOC_MAX_FIELDS);
		return;
	}
	if (len > CSVDOC_MAX_FIELD) {
		st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line, (long)st->cur.n + 1,
				      "field longer than %d bytes", CSVDOC_MAX_FIELD);
		return;
	}
	if (data && !utf8_valid(data, len)) {
		st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line,
				      (long)st->cur.n + 1, "invalid UTF-8");
		return;
	}
	if (data) {
		const unsigned char *c = data, *end = c + len;
		for (; c < end; c++) {
			if ((*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r') || *c == 0x7f) {
				st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line,
						      (long)st->cur.n + 1, "control character 0x%02x in a field", *c);
				return;
			}
		}
	}
	XGROW(st->cur.f, st->curcap, st->cur.n + 1);
	st->cur.f[st->cur.n++] = trim_dup(st->doc, data ? data : "", data ? len : 0);
}

/* The current row, its field array copied into the document. */
static struct csvrow row_keep(struct cstate *st)
{
	struct csvrow r = st->cur;

	r.f = csv_alloc(st->doc, (r.n ? r.n : 1) * sizeof(*r.f));
	if (r.n)
		memcpy(r.f, st->cur.f, r.n * sizeof(*r.f));
	return r;
}

static void on_row(int term, void *priv)
{
	struct cstate *st = priv;
	(void)term;
	if (st->failed) {
		st->cur.n = 0;
		return;
	}
	st->cur.line = st->row_line;
	if (!st->have_header) {
		st->doc->header = row_keep(st);
		st->have_header = 1;
	} else if (st->cur.n != st->doc->header.n) {
		st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line, 0,
				      "%zu fields, but the header has %zu", st->cur.n,
				      st->doc->header.n);
	} else if ((long)st->doc->nrows >= CSVDOC_MAX_ROWS) {
		st->failed = diag_set(st->d, DIAG_INPUT, st->doc->file, st->row_line, 0,
				      "more than %ld rows", CSVDOC_MAX_ROWS);
	} else {
		XGROW(st->doc->rows, st->rowcap, st->doc->nrows + 1);
		st->doc->rows[st->doc->nrows++] = row_keep(st);
	}
	st->cur.n = 0;
	st->row_line = 0;
}

/* True when the line holds nothing but blanks and a line end. */
static int blank_line(const char *s, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
			return 0;
	return 1;
}

/* Length of the line at s, with its end: LF, CR LF, or a lone CR. */
static size_t line_len(const char *s, size_t len)
{
	size_t i;
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			return i + 1;
		if (s[i] == '\r' && (i + 1 >= len || s[i + 1] != '\n'))
			return i + 1;
	}
	return len;
}

int csvdoc_parse(struct csvdoc *doc, const char *name, const char *text, size_t len, struct diag *d)
{
	struct csv_parser p;
	struct cstate st;
	size_t pos = 0;
	int rc = -1;

	memset(doc, 0, sizeof(*doc));
	doc->file = xstrdup(name);
	memset(&st, 0, sizeof(st));
	st.doc = doc;
	st.d = d;
	if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
		pos = 3;
	if (len >= 2 && (!memcmp(text, "\xFF\xFE", 2) || !memcmp(text, "\xFE\xFF", 2)))
		return diag_set(d, DIAG_INPUT, name, 0, 0, "UTF-16 text: save the file as UTF-8");
	if (memchr(text, '\0', len))
		return diag_set(d, DIAG_INPUT, name, 0, 0, "binary file (contains a NUL byte)");
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL))
		return diag_set(d, DIAG_IO, name, 0, 0, "cannot initialise the CSV parser");
	while (pos < len && !st.failed) {
		size_t l = line_len(text + pos, len - pos);
		st.line++;
		if (l > (size_t)CSVDOC_MAX_LINE) {
			diag_set(d, DIAG_INPUT, name, st.line, 0, "line longer than %ld MiB",
				 CSVDOC_MAX_LINE >> 20);
			goto out;
		}
		if (st.row_line == 0) {
			/* Between rows: skip blank and comment lines. */
			if (blank_line(text + pos, l) || text[pos] == '#') {
				pos += l;
				continue;
			}
			st.row_line = st.line;
		}
		if (csv_parse(&p, text + pos, l, on_field, on_row, &st) != l) {
			if (csv_error(&p) == CSV_EPARSE)
				diag_set(d, DIAG_INPUT, name, st.row_line ? st.row_line : st.line,
					 (long)st.cur.n + 1,
					 "malformed CSV: a quote inside an unquoted field, or text after a closing quote");
			else
				diag_set(d, DIAG_INPUT, name, st.row_line ? st.row_line : st.line, 0,
					 "malformed CSV: %s", csv_strerror(csv_error(&p)));
			goto out;
		}
		pos += l;
	}
	if (st.failed)
		goto out;
	if (csv_fini(&p, on_field, on_row, &st)) {
		if (csv_error(&p) == CSV_EPARSE)
			diag_set(d, DIAG_INPUT, name, st.row_line ? st.row_line : st.line, (long)st.cur.n + 1,
				 "malformed CSV: a quoted field is not closed");
		else
			diag_set(d, DIAG_INPUT, name, st.row_line ? st.row_line : st.line, 0,
				 "malformed CSV: %s", csv_strerror(csv_error(&p)));
		goto out;
	}
	if (st.failed)
		goto out;
	if (!st.have_header) {
		diag_set(d, DIAG_INPUT, name, 0, 0, "empty file");
		goto out;
	}
	rc = 0;
out:
	free(st.cur.f);
	csv_free(&p);
	return rc;
}

int csvdoc_load(struct csvdoc *doc, const char *path, struct diag *d)
{
	const long max_bytes = UTIL_MAX_FILE_BYTES;
	char *buf, msg[256];
	size_t len;
	int rc;

	memset(doc, 0, sizeof(*doc));
	rc = file_read_all(path, (size_t)max_bytes, &buf, &len);
	if (rc)
		return diag_set(d, DIAG_INPUT, path, 0, 0, "%s",
				file_read_strerror(msg, sizeof(msg), rc, (size_t)max_bytes));
	rc = csvdoc_parse(doc, path, buf, len, d);
	free(buf);
	return rc;
}

int csvdoc_error(const struct csvdoc *doc, const struct csvrow *r, int idx, struct diag *d,
		 const char *fmt, ...)
{
	struct diag_at at = { doc->file, r ? r->line : 0, idx >= 0 ? idx + 1 : 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(d, DIAG_INPUT, at, fmt, ap);
	va_end(ap);
	return -1;
}

int csvdoc_bind(const struct csvdoc *doc, const struct csvcol *cols, int *idx, struct diag *d)
{
	size_t i, j, ncols = 0;
	const char **names;
	int rc = -1;

	while (cols[ncols].name)
		ncols++;
	names = xcalloc(ncols + 1, sizeof(*names));
	for (j = 0; j < ncols; j++) {
		names[j] = cols[j].name;
		idx[j] = -1;
	}
	for (i = 0; i < doc->header.n; i++) {
		const char *h = doc->header.f[i];
		for (j = 0; j < ncols; j++)
			if (!str_casecmp(h, cols[j].name))
				break;
		if (j == ncols) {
			const char *sep = doc->header.n == 1 ? strpbrk(h, ";\t") : NULL;
			char *hint;
			if (sep) {
				csvdoc_error(doc, &doc->header, (int)i, d,
					     "the header is one column: fields must be separated by ',', not %s",
					     *sep == ';' ? "';'" : "tabs");
				goto out;
			}
			hint = str_hint(h, names);
			csvdoc_error(doc, &doc->header, (int)i, d, "unknown column '%s'%s", h, hint);
			free(hint);
			goto out;
		}
		if (idx[j] >= 0) {
			csvdoc_error(doc, &doc->header, (int)i, d, "duplicate column '%s'", h);
			goto out;
		}
		idx[j] = (int)i;
	}
	for (j = 0; j < ncols; j++) {
		if (cols[j].required && idx[j] < 0) {
			csvdoc_error(doc, &doc->header, -1, d, "missing column '%s'", cols[j].name);
			goto out;
		}
	}
	rc = 0;
out:
	free(names);
	return rc;
}

const char *csvdoc_field(const struct csvdoc *doc, const struct csvrow *r, int idx)
{
	(void)doc;
	if (idx < 0 || (size_t)idx >= r->n)
		return "";
	return r->f[idx];
}

/* ================= reading a row ================= */

const char *csvread_text(const struct csvread *rd, int c)
{
	return csvdoc_field(rd->doc, rd->r, rd->idx[c]);
}

int csvread_error(const struct csvread *rd, int c, const char *fmt, ...)
{
	int idx = c >= 0 ? rd->idx[c] : -1;
	struct diag_at at = { rd->doc->file, rd->r->line, idx >= 0 ? idx + 1 : 0 };
	va_list ap;

	va_start(ap, fmt);
	diag_vset_at(rd->d, DIAG_INPUT, at, fmt, ap);
	va_end(ap);
	return -1;
}

static int absent(const struct csvread *rd, int c, int required)
{
	if (required)
		return csvread_error(rd, c, "column '%s' is empty", rd->cols[c].name);
	return 1;
}

int csvread_str(const struct csvread *rd, int c, int required, const char **out)
{
	const char *s = csvread_text(rd, c);
	if (!*s)
		return absent(rd, c, required);
	*out = s;
	return 0;
}

int csvread_num(const struct csvread *rd, int c, int required, struct num_range range, double *out)
{
	const char *s = csvread_text(rd, c), *name = rd->cols[c].name;
	double x;
	int rc;
	char text[RANGE_TEXT_SIZE];

	if (!*s)
		return absent(rd, c, required);
	rc = parse_double(s, &x);
	if (rc)
		return csvread_error(rd, c, "column '%s': '%s' %s", name, s, parse_num_strerror(rc));
	if (!range_contains(x, range.lo, range.hi, range.open))
		return csvread_error(rd, c, "column '%s': '%s' must be %s", name, s,
				     range_text(text, sizeof(text), range.lo, range.hi, range.open));
	*out = x;
	return 0;
}

int csvread_int(const struct csvread *rd, int c, int required, long long min, long long max,
		long long *out)
{
	const char *s = csvread_text(rd, c), *name = rd->cols[c].name;
	long long x;
	double dx;
	int rc;
	char range[RANGE_TEXT_SIZE];

	if (!*s)
		return absent(rd, c, required);
	rc = parse_llong(s, &x);
	/* exponent form (1e2) is read when it is a whole number: the rule is the value, not the spelling */
	if (rc == PARSE_SYNTAX && !parse_double(s, &dx)) {
		if (dx != floor(dx))
			return csvread_error(rd, c, "column '%s': '%s' is not a whole number", name, s);
		if (dx < (double)min || dx > (double)max)
			return csvread_error(rd, c, "column '%s': '%s' must be %s", name, s,
					     range_text_ll(range, sizeof(range), min, max));
		x = (long long)dx;
		rc = 0;
	}
	if (rc)
		return csvread_error(rd, c, "column '%s': '%s' %s", name, s, parse_num_strerror(rc));
	if (x < min || x > max)
		return csvread_error(rd, c, "column '%s': %lld must be %s", name, x,
				     range_text_ll(range, sizeof(range), min, max));
	*out = x;
	return 0;
}

int csvread_bool(const struct csvread *rd, int c, int required, int *out)
{
	const char *s = csvread_text(rd, c);
	if (!*s)
		return absent(rd, c, required);
	if (!str_casecmp(s, "true") || !str_casecmp(s, "yes") || !strcmp(s, "1"))
		*out = 1;
	else if (!str_casecmp(s, "false") || !str_casecmp(s, "no") || !strcmp(s, "0"))
		*out = 0;
	else
		return csvread_error(rd, c, "column '%s': '%s' is not true or false", rd->cols[c].name, s);
	return 0;
}

int csvread_list(const struct csvread *rd, int c, char ***out, size_t *n)
{
	const char *s = csvread_text(rd, c);
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	if (!*s)
		return 0;
	for (;;) {
		const char *bar = strchr(s, '|');
		size_t len = bar ? (size_t)(bar - s) : strlen(s);
		const char *b = s;
		while (len && (*b == ' ' || *b == '\t')) {
			b++;
			len--;
		}
		while (len && (b[len - 1] == ' ' || b[len - 1] == '\t'))
			len--;
		if (!len) {
			csvread_list_free(*out, *n);
			*out = NULL;
			*n = 0;
			return csvread_error(rd, c, "column '%s': empty entry in '%s'", rd->cols[c].name,
					     csvread_text(rd, c));
		}
		XGROW(*out, cap, *n + 1);
		(*out)[(*n)++] = xstrndup(b, len);
		if (!bar)
			return 0;
		s = bar + 1;
	}
}

void csvread_list_free(char **list, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

int csvread_unknown(const struct csvread *rd, int c, const char *what, const char *s, const char *const *names)
{
	char *hint = str_hint(s, names);

	csvread_error(rd, c, "unknown %s '%s'%s", what, s, hint);
	free(hint);
	return -1;
}

int csvread_word(const struct csvread *rd, int c, const char *what, const char *const *names, int *out)
{
	const char *s = NULL;
	int i;

	if (csvread_str(rd, c, 1, &s))
		return -1;
	for (i = 0; names[i]; i++) {
		if (!str_casecmp(s, names[i])) {
			*out = i;
			return 0;
		}
	}
	return csvread_unknown(rd, c, what, s, names);
}

int csvdoc_interrupted(const struct csvdoc *doc, size_t row, struct diag *d)
{
	int sig;

	if (row % CSVDOC_POLL_ROWS || !(sig = interrupt_pending()))
		return 0;
	diag_set(d, DIAG_IO, doc->file, 0, 0, "interrupted by %s while reading", interrupt_signame(sig));
	return 1;
}
