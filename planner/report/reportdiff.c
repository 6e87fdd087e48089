/*
 * reportdiff.c - read plan reports, compare two, judge and format the
 * change (see reportdiff.h).
 *
 * Design: both sides become a struct rd_report of integers (cents,
 * hundredths of a percent, counts) taken exactly as plan.json rounds
 * them, whether read from a file or from a planning run, so the
 * comparison is exact and a plan equals its own report.  cJSON parses the
 * file; it keeps no positions, so when a field is missing or of the wrong
 * type a small scanner walks the (already valid) text along the field's
 * path to point at it.  The text and Markdown forms are rendered from one
 * list of rows; the JSON form is built with cJSON.  Nothing here depends
 * on the locale: numbers are formatted from integers or with fmt_fixed,
 * and the program never calls setlocale, so cJSON's printf stays in "C".
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

/* ================= positions in the JSON text ================= */

/* One step of a path into a document: a member key, or an array index when key is NULL. */
struct jstep {
	const char *key;
	long index;
};

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* p at the opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *e)
{
	for (p++; p < e && *p != '"'; p++)
		if (*p == '\\' && p + 1 < e)
			p++;
	return p < e ? p + 1 : e;
}

static const char *skip_value(const char *p, const char *e)
{
	int depth = 0;

	p = skip_ws(p, e);
	if (p < e && *p == '"')
		return skip_string(p, e);
	if (p < e && *p != '{' && *p != '[') {
		while (p < e && !strchr(",}] \t\r\n", *p))
			p++;
		return p;
	}
	for (; p < e; p++) {
		if (*p == '"') {
			p = skip_string(p, e) - 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			if (--depth == 0)
				return p + 1;
		}
	}
	return e;
}

/*
 * The start of the value at path in valid JSON text, or of the deepest
 * container on the way when a step is missing.
 */
static const char *locate(const char *p, const char *e, const struct jstep *path, int n)
{
	int i;

	p = skip_ws(p, e);
	for (i = 0; i < n && p < e; i++) {
		const char *container = p, *found = NULL;
		long idx = 0;
		if ((path[i].key && *p != '{') || (!path[i].key && *p != '['))
			return p;
		p = skip_ws(p + 1, e);
		while (p < e && *p != '}' && *p != ']') {
			if (path[i].key) {
				const char *k = p + 1, *ke = skip_string(p, e) - 1;
				size_t klen = (size_t)(ke - k);
				int match = klen == strlen(path[i].key) && !memcmp(k, path[i].key, klen);
				p = skip_ws(ke + 1, e);
				if (p < e && *p == ':')
					p = skip_ws(p + 1, e);
				if (match) {
					found = p;
					break;
				}
			} else if (idx++ == path[i].index) {
				found = p;
				break;
			}
			p = skip_ws(skip_value(p, e), e);
			if (p < e && *p == ',')
				p = skip_ws(p + 1, e);
		}
		if (!found)
			return container;
		p = found;
	}
	return p;
}

/* True when text ends inside a string or an unclosed object or array: a cut-off file. */
static int cut_off(const char *p, const char *e)
{
	long depth = 0;
	for (; p < e; p++) {
		if (*p == '"') {
			for (p++; p < e && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= e)
				return 1;
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		}
	}
	return depth > 0;
}

/* True when the last non-blank character closes an object or array, as a whole document does. */
static int ends_like_json(const char *text, size_t len)
{
	while (len && strchr(" \t\r\n", text[len - 1]))
		len--;
	return len && (text[len - 1] == '}' || text[len - 1] == ']');
}

/* 1-based line and column (in UTF-8 characters) of pos in text. */
static void line_col(const char *text, const char *pos, long *line, long *col)
{
	const char *p;
	*line = 1;
	*col = 1;
	for (p = text; p < pos; p++) {
		if (*p == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)*p & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* ================= reading a report ================= */

struct reader {
	const char *file;
	const char *text;
	size_t len;
	const char *role;
	struct diag *d;
	struct jstep path[4];	/* where the object being read sits */
	int depth;
};

/* "summary.modes.mig.nodes", "unplaced[2].replicas" */
static char *path_name(const struct reader *rd, const char *key)
{
	struct sb sb;
	int i;
	sb_init(&sb);
	for (i = 0; i < rd->depth; i++) {
		if (rd->path[i].key)
			sb_addf(&sb, "%s%s", sb.len ? "." : "", rd->path[i].key);
		else
			sb_addf(&sb, "[%ld]", rd->path[i].index);
	}
	if (key)
		sb_addf(&sb, "%s%s", sb.len ? "." : "", key);
	return sb_detach(&sb);
}

/* Fails at the field key of the current object (or at the object when key is missing there). */
static int bad_field(struct reader *rd, const char *key, int at_parent, const char *what)
{
	struct jstep path[5];
	const char *pos;
	long line, col;
	char *name = path_name(rd, key);
	int n = rd->depth;

	memcpy(path, rd->path, sizeof(rd->path));
	if (key && !at_parent)
		path[n++] = (struct jstep){ key, 0 };
	pos = locate(rd->text, rd->text + rd->len, path, n);
	line_col(rd->text, pos, &line, &col);
	diag_set(rd->d, DIAG_INPUT, rd->file, line, col, "'%s' %s", name, what);
	free(name);
	return -1;
}

enum field_kind { F_OBJECT, F_ARRAY, F_STRING, F_NUMBER, F_COUNT };

static const cJSON *field(struct reader *rd, const cJSON *obj, const char *key, enum field_kind kind)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	static const char *const want[] = { "must be an object", "must be an array", "must be a string",
					    "must be a number", "must be a whole number" };
	if (!v) {
		bad_field(rd, key, 1, "is missing");
		return NULL;
	}
	if ((kind == F_OBJECT && !cJSON_IsObject(v)) || (kind == F_ARRAY && !cJSON_IsArray(v)) ||
	    (kind == F_STRING && !cJSON_IsString(v)) || (kind >= F_NUMBER && !cJSON_IsNumber(v))) {
		bad_field(rd, key, 0, want[kind]);
		return NULL;
	}
	if (kind >= F_NUMBER && !isfinite(v->valuedouble)) {
		bad_field(rd, key, 0, "is not a finite number");
		return NULL;
	}
	return v;
}

static int read_string(struct reader *rd, const cJSON *obj, const char *key, char **out)
{
	const cJSON *v = field(rd, obj, key, F_STRING);
	if (!v)
		return -1;
	*out = xstrdup(v->valuestring);
	return 0;
}

static int read_number(struct reader *rd, const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = field(rd, obj, key, F_NUMBER);
	if (!v)
		return -1;
	*out = v->valuedouble;
	return 0;
}

/* A non-negative amount rounded to cents (money) or to 1/10000 (shares): scale 100 or 10000. */
static int read_scaled(struct reader *rd, const cJSON *obj, const char *key, double scale, long long *out)
{
	double v;
	if (read_number(rd, obj, key, &v))
		return -1;
	if (v < 0)
		return bad_field(rd, key, 0, "must be at least 0");
	if (v * scale > 9e15)
		return bad_field(rd, key, 0, "is too large");
	*out = llround(v * scale);
	return 0;
}

static int read_count(struct reader *rd, const cJSON *obj, const char *key, long *out)
{
	const cJSON *v = field(rd, obj, key, F_COUNT);
	if (!v)
		return -1;
	if (v->valuedouble < 0 || v->valuedouble > 1e15 || v->valuedouble != floor(v->valuedouble))
		return bad_field(rd, key, 0, "must be a whole number, at least 0");
	*out = (long)v->valuedouble;
	return 0;
}

static void push(struct reader *rd, const char *key, long index)
{
	rd->path[rd->depth].key = key;
	rd->path[rd->depth].index = index;
	rd->depth++;
}

static int unplaced_cmp(const void *a, const void *b)
{
	const struct rd_unplaced *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);
	return c ? c : strcmp(x->tenant, y->tenant);
}

/* Sorts the unplaced rows and merges rows of the same workload and tenant. */
static void unplaced_normalise(struct rd_report *r)
{
	size_t i, n = 0;
	if (!r->nunplaced)
		return;
	qsort(r->unplaced, r->nunplaced, sizeof(*r->unplaced), unplaced_cmp);
	for (i = 0; i < r->nunplaced; i++) {
		struct rd_unplaced *u = &r->unplaced[i];
		if (n && !unplaced_cmp(&r->unplaced[n - 1], u)) {
			struct rd_unplaced *t = &r->unplaced[n - 1];
			t->replicas += u->replicas;
			if (!*t->reason && *u->reason) {
				free(t->reason);
				t->reason = u->reason;
				u->reason = NULL;
			}
			free(u->workload);
			free(u->tenant);
			free(u->reason);
			continue;
		}
		r->unplaced[n++] = *u;
	}
	r->nunplaced = n;
}

/* schema_version: "MAJOR.MINOR.PATCH" with the major this reader knows. */
static int check_version(struct reader *rd, const cJSON *root, struct rd_report *r)
{
	const char *s;
	long long major;
	char *dot, *head;
	int rc;

	if (read_string(rd, root, "schema_version", &r->schema_version))
		return -1;
	s = r->schema_version;
	dot = strchr(s, '.');
	head = xstrndup(s, dot ? (size_t)(dot - s) : strlen(s));
	rc = parse_llong(head, &major);
	free(head);
	if (rc || major < 0 || !dot || !strchr(dot + 1, '.'))
		return bad_field(rd, "schema_version", 0, "is not a version MAJOR.MINOR.PATCH");
	if (major < REPORTDIFF_READS_MAJOR) {
		char *msg = xasprintf("was written by report schema %s; this gpuplan reads %d.x: regenerate the %s "
				      "with 'gpuplan plan SCENARIO --format json' (reports/README.md)",
				      s, REPORTDIFF_READS_MAJOR, rd->role);
		rc = bad_field(rd, "schema_version", 0, msg);
		free(msg);
		return rc;
	}
	if (major > REPORTDIFF_READS_MAJOR) {
		char *msg = xasprintf("is %s, newer than this gpuplan reads (%d.x): upgrade gpuplan or regenerate "
				      "the %s with this one", s, REPORTDIFF_READS_MAJOR, rd->role);
		rc = bad_field(rd, "schema_version", 0, msg);
		free(msg);
		return rc;
	}
	return 0;
}

static int read_summary(struct reader *rd, const cJSON *s, struct rd_report *r)
{
	const cJSON *modes;
	int q, m;

	if (read_string(rd, s, "scenario", &r->scenario) || read_string(rd, s, "status", &r->status) ||
	    read_string(rd, s, "plan_source", &r->plan_source) ||
	    read_number(rd, s, "horizon_years", &r->horizon_years) || read_number(rd, s, "gap", &r->gap) ||
	    read_scaled(rd, s, "cost_total_usd", 100, &r->total_cents))
		return -1;
	for (q = 0; q < CAT_COUNT; q++) {
		char key[64];
		snprintf(key, sizeof(key), "cost_%s_usd", cost_cat_name((enum cost_cat)q));
		if (read_scaled(rd, s, key, 100, &r->cat_cents[q]))
			return -1;
	}
	for (q = 1; q < LIC_COUNT; q++) {
		char key[64];
		snprintf(key, sizeof(key), "licenses_%s_gpus", lic_product_id((enum lic_product)q));
		if (read_count(rd, s, key, &r->lic_gpus[q]))
			return -1;
		snprintf(key, sizeof(key), "licenses_%s_seats", lic_product_id((enum lic_product)q));
		if (read_count(rd, s, key, &r->lic_seats[q]))
			return -1;
	}
	{
		long long mem, comp;
		if (read_count(rd, s, "nodes_used", &r->nodes_used) ||
		    read_count(rd, s, "gpus_in_used_nodes", &r->gpus_in_used_nodes) ||
		    read_count(rd, s, "gpus_active", &r->gpus_active) ||
		    read_count(rd, s, "gpus_licensed", &r->gpus_licensed) ||
		    read_count(rd, s, "replicas_placed", &r->replicas_placed) ||
		    read_count(rd, s, "replicas_unplaced", &r->replicas_unplaced) ||
		    read_scaled(rd, s, "memory_utilisation", 10000, &mem) ||
		    read_scaled(rd, s, "compute_utilisation", 10000, &comp))
			return -1;
		r->mem_util_bp = (long)mem;
		r->compute_util_bp = (long)comp;
	}
	if (!(modes = field(rd, s, "modes", F_OBJECT)))
		return -1;
	push(rd, "modes", 0);
	for (m = 0; m < MODE_COUNT; m++) {
		const char *name = mode_name((enum gpu_mode)m);
		const cJSON *o = field(rd, modes, name, F_OBJECT);
		if (!o)
			return -1;
		push(rd, name, 0);
		if (read_count(rd, o, "nodes", &r->nodes_by_mode[m]) || read_count(rd, o, "gpus", &r->gpus_by_mode[m]))
			return -1;
		rd->depth--;
	}
	rd->depth--;
	return 0;
}

static int read_unplaced(struct reader *rd, const cJSON *arr, struct rd_report *r)
{
	const cJSON *e;
	long i = 0;
	size_t n = (size_t)cJSON_GetArraySize(arr);

	r->unplaced = xcalloc(n + 1, sizeof(*r->unplaced));
	cJSON_ArrayForEach(e, arr) {
		struct rd_unplaced *u = &r->unplaced[r->nunplaced];
		push(rd, NULL, i);
		if (!cJSON_IsObject(e))
			return bad_field(rd, NULL, 0, "must be an object");
		r->nunplaced++;
		if (read_string(rd, e, "workload", &u->workload) || read_string(rd, e, "tenant", &u->tenant) ||
		    read_string(rd, e, "reason", &u->reason) || read_count(rd, e, "replicas", &u->replicas))
			return -1;
		rd->depth--;
		i++;
	}
	return 0;
}

int rd_report_parse(struct rd_report *r, const char *file, const char *text, size_t len, const char *role,
		    struct diag *d)
{
	struct reader rd;
	const char *end = NULL, *nul;
	cJSON *root;
	const cJSON *summary, *unplaced;
	long line, col;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->file = xstrdup(file);
	memset(&rd, 0, sizeof(rd));
	rd.file = file;
	rd.text = text;
	rd.len = len;
	rd.role = role;
	rd.d = d;
	if ((nul = memchr(text, '\0', len))) {
		line_col(text, nul, &line, &col);
		return diag_set(d, DIAG_INPUT, file, line, col, "a NUL byte: not a JSON %s", role);
	}
	if (skip_ws(text, text + len) == text + len)
		return diag_set(d, DIAG_INPUT, file, 0, 0, "empty file: not a JSON %s", role);
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (!root) {
		const char *at = end ? end : text;
		if (at > text + len)
			at = text + len;
		line_col(text, at, &line, &col);
		if (skip_ws(at, text + len) >= text + len || (!ends_like_json(text, len) && cut_off(text, text + len))) {
			line_col(text, text + len, &line, &col);
			return diag_set(d, DIAG_INPUT, file, line, col,
					"unexpected end of file: the JSON %s is truncated", role);
		}
		return diag_set(d, DIAG_INPUT, file, line, col, "not valid JSON");
	}
	if (!cJSON_IsObject(root)) {
		line_col(text, skip_ws(text, text + len), &line, &col);
		diag_set(d, DIAG_INPUT, file, line, col, "not a gpuplan plan report: expected a JSON object");
		goto out;
	}
	if (check_version(&rd, root, r))
		goto out;
	if (!(summary = field(&rd, root, "summary", F_OBJECT)))
		goto out;
	push(&rd, "summary", 0);
	if (read_summary(&rd, summary, r))
		goto out;
	rd.depth = 0;
	if (!(unplaced = field(&rd, root, "unplaced", F_ARRAY)))
		goto out;
	push(&rd, "unplaced", 0);
	if (read_unplaced(&rd, unplaced, r))
		goto out;
	unplaced_normalise(r);
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

int rd_report_read(struct rd_report *r, const char *path, const char *role, struct diag *d)
{
	char *buf = NULL, why[160];
	size_t len = 0;
	int rc = file_read_all(path, REPORTDIFF_MAX_BYTES, &buf, &len);

	if (rc) {
		memset(r, 0, sizeof(*r));
		return diag_set(d, DIAG_INPUT, path, 0, 0, "%s",
				file_read_strerror(why, sizeof(why), rc, REPORTDIFF_MAX_BYTES));
	}
	rc = rd_report_parse(r, path, buf, len, role, d);
	free(buf);
	return rc;
}

void rd_report_from_plan(struct rd_report *r, const char *file, const struct plan_result *pr)
{
	const struct cplan *cp = pr->final;
	const struct problem *p = cp->p;
	struct cplan_cost cost;
	struct report_stats st;
	size_t i;
	int q;

	memset(r, 0, sizeof(*r));
	cplan_cost(cp, &cost);
	report_stats(cp, &st);
	r->file = xstrdup(file);
	r->schema_version = xstrdup(REPORT_SCHEMA_VERSION);
	r->scenario = xstrdup(p->sc->name);
	r->status = xstrdup(ilp_status_name(pr->status));
	r->plan_source = xstrdup(pr->plan_source);
	r->horizon_years = round(p->horizon_years * 100) / 100;
	r->gap = round(pr->gap * 1e6) / 1e6;
	r->total_cents = llround(cost.total * 100);
	for (q = 0; q < CAT_COUNT; q++)
		r->cat_cents[q] = llround(cost.cat[q] * 100);
	for (q = 1; q < LIC_COUNT; q++) {
		r->lic_gpus[q] = cost.lic_gpus[q];
		r->lic_seats[q] = cost.seats[q];
	}
	r->nodes_used = cost.nodes;
	r->gpus_in_used_nodes = cost.gpus;
	r->gpus_active = cost.gpus_active;
	r->gpus_licensed = cost.gpus_licensed;
	r->replicas_placed = cost.placed;
	r->replicas_unplaced = cost.unplaced;
	memcpy(r->nodes_by_mode, st.nodes_by_mode, sizeof(r->nodes_by_mode));
	memcpy(r->gpus_by_mode, st.gpus_by_mode, sizeof(r->gpus_by_mode));
	r->mem_util_bp = lround(st.mem_util * 10000);
	r->compute_util_bp = lround(st.compute_util * 10000);
	r->unplaced = xcalloc(p->ndemands + 1, sizeof(*r->unplaced));
	for (i = 0; i < p->ndemands; i++) {
		struct rd_unplaced *u;
		if (!cp->unplaced[i])
			continue;
		u = &r->unplaced[r->nunplaced++];
		u->workload = xstrdup(p->demands[i].w->name);
		u->tenant = xstrdup(p->demands[i].w->tenant);
		u->reason = xstrdup(cp->reason[i] ? cp->reason[i] : "");
		u->replicas = cp->unplaced[i];
	}
	unplaced_normalise(r);
}

void rd_report_release(struct rd_report *r)
{
	size_t i;
	if (!r)
		return;
	for (i = 0; i < r->nunplaced; i++) {
		free(r->unplaced[i].workload);
		free(r->unplaced[i].tenant);
		free(r->unplaced[i].reason);
	}
	free(r->unplaced);
	free(r->file);
	free(r->schema_version);
	free(r->scenario);
	free(r->status);
	free(r->plan_source);
	memset(r, 0, sizeof(*r));
}

/* ================= comparing ================= */

const char *rd_limit_option(enum rd_limit l)
{
	static const char *const names[] = { "--max-cost-increase", "--max-cost-increase-abs",
					     "--max-unplaced-increase", "--max-util-drop" };
	return (unsigned)l < RD_LIMIT_COUNT ? names[l] : "?";
}

void rd_limits_none(struct rd_limits *l)
{
	int i;
	for (i = 0; i < RD_LIMIT_COUNT; i++)
		l->limit[i] = -1;
}

void rd_limits_check_defaults(struct rd_limits *l)
{
	rd_limits_none(l);
	l->limit[RD_COST_PCT] = RD_DEFAULT_COST_PCT;
	l->limit[RD_UNPLACED] = RD_DEFAULT_UNPLACED;
}

static int reports_differ(const struct rd_report *a, const struct rd_report *b)
{
	int q;
	if (a->total_cents != b->total_cents || a->nodes_used != b->nodes_used ||
	    a->gpus_in_used_nodes != b->gpus_in_used_nodes || a->gpus_active != b->gpus_active ||
	    a->gpus_licensed != b->gpus_licensed || a->replicas_placed != b->replicas_placed ||
	    a->replicas_unplaced != b->replicas_unplaced || a->mem_util_bp != b->mem_util_bp ||
	    a->compute_util_bp != b->compute_util_bp)
		return 1;
	for (q = 0; q < CAT_COUNT; q++)
		if (a->cat_cents[q] != b->cat_cents[q])
			return 1;
	for (q = 1; q < LIC_COUNT; q++)
		if (a->lic_gpus[q] != b->lic_gpus[q] || a->lic_seats[q] != b->lic_seats[q])
			return 1;
	for (q = 0; q < MODE_COUNT; q++)
		if (a->nodes_by_mode[q] != b->nodes_by_mode[q] || a->gpus_by_mode[q] != b->gpus_by_mode[q])
			return 1;
	return 0;
}

static void merge_unplaced(struct rd_diff *df)
{
	const struct rd_report *b = df->base, *c = df->cur;
	size_t i = 0, j = 0;

	df->unplaced = xcalloc(b->nunplaced + c->nunplaced + 1, sizeof(*df->unplaced));
	while (i < b->nunplaced || j < c->nunplaced) {
		struct rd_unplaced_change *u = &df->unplaced[df->nunplaced++];
		int cmp = i == b->nunplaced ? 1 : j == c->nunplaced ? -1 : unplaced_cmp(&b->unplaced[i], &c->unplaced[j]);
		const struct rd_unplaced *x = cmp <= 0 ? &b->unplaced[i] : NULL, *y = cmp >= 0 ? &c->unplaced[j] : NULL;
		u->workload = (y ? y : x)->workload;
		u->tenant = (y ? y : x)->tenant;
		u->reason = y && *y->reason ? y->reason : x ? x->reason : y->reason;
		u->base = x ? x->replicas : 0;
		u->cur = y ? y->replicas : 0;
		if (u->base != u->cur)
			df->changed = 1;
		i += x != NULL;
		j += y != NULL;
	}
}

void rd_diff_compute(struct rd_diff *df, const struct rd_report *base, const struct rd_report *cur,
		     const struct rd_limits *lim)
{
	long long dcost = cur->total_cents - base->total_cents;
	int l;

	memset(df, 0, sizeof(*df));
	df->base = base;
	df->cur = cur;
	df->limits = *lim;
	df->changed = reports_differ(base, cur);
	merge_unplaced(df);
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		struct rd_verdict *v = &df->verdict[l];
		double limit = lim->limit[l];
		if (limit < 0)
			continue;
		v->checked = 1;
		df->nchecked++;
		switch ((enum rd_limit)l) {
		case RD_COST_PCT:
			if (base->total_cents > 0) {
				v->value = (double)dcost * 100.0 / (double)base->total_cents;
				v->exceeded = dcost > 0 && (double)dcost * 100.0 > limit * (double)base->total_cents;
			} else {
				v->infinite = dcost > 0;
				v->exceeded = dcost > 0;
			}
			break;
		case RD_COST_ABS:
			v->value = (double)dcost / 100.0;
			v->exceeded = dcost > llround(limit * 100);
			break;
		case RD_UNPLACED:
			v->value = (double)(cur->replicas_unplaced - base->replicas_unplaced);
			v->exceeded = v->value > limit;
			break;
		case RD_UTIL_DROP: {
			long mem = base->mem_util_bp - cur->mem_util_bp, comp = base->compute_util_bp - cur->compute_util_bp;
			long drop = comp > mem ? comp : mem;
			v->what = comp > mem ? "compute" : "memory";
			v->value = (double)drop / 100.0;
			v->exceeded = drop > lround(limit * 100);
			break;
		}
		case RD_LIMIT_COUNT:
			break;
		}
		if (v->exceeded)
			df->failed = 1;
	}
}

void rd_diff_release(struct rd_diff *df)
{
	if (!df)
		return;
	free(df->unplaced);
	memset(df, 0, sizeof(*df));
}

/* ================= numbers as text ================= */

/* Cents as "1234.56"; with sign, "+1234.56" / "-0.05" / "0.00". */
static const char *cents_text(char *buf, size_t n, long long c, int sign)
{
	unsigned long long a = c < 0 ? (unsigned long long)-(c + 1) + 1 : (unsigned long long)c;
	snprintf(buf, n, "%s%llu.%02llu", c < 0 ? "-" : sign && c > 0 ? "+" : "", a / 100, a % 100);
	return buf;
}

/* A count change: "+3", "-1", "0". */
static const char *count_change(char *buf, size_t n, long d)
{
	snprintf(buf, n, d > 0 ? "+%ld" : "%ld", d);
	return buf;
}

/* Hundredths of a percent as "76.26%". */
static const char *bp_text(char *buf, size_t n, long bp)
{
	char t[32];
	snprintf(buf, n, "%s%%", cents_text(t, sizeof(t), bp, 0));
	return buf;
}

/* A change in percentage points: "+1.20 pts", "0.00 pts". */
static const char *pts_text(char *buf, size_t n, long dbp)
{
	char t[32];
	snprintf(buf, n, "%s pts", cents_text(t, sizeof(t), dbp, 1));
	return buf;
}

/* The relative change of a money figure: "+10.00%", "new" from zero, "" when both are zero. */
static const char *pct_text(char *buf, size_t n, long long base, long long cur)
{
	char t[64];
	if (base == 0 || cur == base) {
		snprintf(buf, n, "%s", cur != base ? "new" : "");
		return buf;
	}
	fmt_fixed(t, sizeof(t), (double)(cur - base) * 100.0 / (double)base, 2);
	snprintf(buf, n, "%s%s%%", cur > base && t[0] != '-' ? "+" : "", t);
	return buf;
}

/* A threshold in its unit: "5%", "1000 USD", "0", "2 pts". */
static const char *limit_text(char *buf, size_t n, enum rd_limit l, double v)
{
	char t[64];
	static const char *const unit[] = { "%", " USD", "", " pts" };
	fmt_num_short(t, sizeof(t), v, 6);
	snprintf(buf, n, "%s%s", t, unit[l]);
	return buf;
}

/* What a threshold measured: "+10.00%", "+17074.37 USD", "+4", "1.20 pts". */
static const char *measured_text(char *buf, size_t n, const struct rd_diff *df, enum rd_limit l)
{
	const struct rd_verdict *v = &df->verdict[l];
	char t[64];
	switch (l) {
	case RD_COST_PCT:
		if (v->infinite)
			snprintf(buf, n, "new (from 0)");
		else
			pct_text(buf, n, df->base->total_cents, df->cur->total_cents);
		if (!*buf)
			snprintf(buf, n, "0.00%%");
		break;
	case RD_COST_ABS:
		snprintf(buf, n, "%s USD", cents_text(t, sizeof(t), df->cur->total_cents - df->base->total_cents, 1));
		break;
	case RD_UNPLACED:
		count_change(buf, n, df->cur->replicas_unplaced - df->base->replicas_unplaced);
		break;
	case RD_UTIL_DROP:
		/* the change of the utilisation that fell most (or rose least) */
		snprintf(buf, n, "%s%s pts (%s)", v->value < 0 ? "+" : "", fmt_fixed(t, sizeof(t), -v->value, 2), v->what);
		break;
	case RD_LIMIT_COUNT:
		buf[0] = '\0';
		break;
	}
	return buf;
}

static const char *const limit_label[] = { "total cost increase", "total cost increase (USD)",
					   "unplaced replicas increase", "utilisation drop" };

char *rd_diff_failure(const struct rd_diff *df)
{
	struct sb sb;
	int l;

	if (!df->failed)
		return NULL;
	sb_init(&sb);
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96], t[64];
		if (!df->verdict[l].exceeded)
			continue;
		measured_text(m, sizeof(m), df, (enum rd_limit)l);
		limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]);
		if (sb.len)
			sb_adds(&sb, "; ");
		switch ((enum rd_limit)l) {
		case RD_COST_PCT:
			sb_addf(&sb, "total cost %s USD (%s) is over %s %s",
				cents_text(t, sizeof(t), df->cur->total_cents - df->base->total_cents, 1), m,
				rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_COST_ABS:
			sb_addf(&sb, "total cost %s is over %s %s", m, rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_UNPLACED:
			sb_addf(&sb, "unplaced replicas %s is over %s %s", m, rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_UTIL_DROP:
			sb_addf(&sb, "%s utilisation -%s pts is over %s %s", df->verdict[l].what,
				fmt_fixed(t, sizeof(t), df->verdict[l].value, 2), rd_limit_option((enum rd_limit)l), lim);
			break;
		case RD_LIMIT_COUNT:
			break;
		}
	}
	return sb_detach(&sb);
}

/* ================= rows for text and Markdown ================= */

struct row {
	const char *group;	/* NULL: a top-level row; else the group it belongs to */
	char *label;
	char base[64], cur[64], change[64], pct[72];
	const char *note;	/* a reason, shown after the row */
	int strong;		/* the headline row */
};

struct rows {
	struct row *v;
	size_t n, cap;
};

static struct row *row_add(struct rows *rs, const char *group, char *label)
{
	struct row *r;
	XGROW(rs->v, rs->cap, rs->n + 1);
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->group = group;
	r->label = label;
	return r;
}

static void row_money(struct rows *rs, const char *group, char *label, long long b, long long c, int strong)
{
	struct row *r = row_add(rs, group, label);
	cents_text(r->base, sizeof(r->base), b, 0);
	cents_text(r->cur, sizeof(r->cur), c, 0);
	cents_text(r->change, sizeof(r->change), c - b, 1);
	pct_text(r->pct, sizeof(r->pct), b, c);
	r->strong = strong;
}

static void row_count(struct rows *rs, const char *group, char *label, long b, long c)
{
	struct row *r = row_add(rs, group, label);
	snprintf(r->base, sizeof(r->base), "%ld", b);
	snprintf(r->cur, sizeof(r->cur), "%ld", c);
	count_change(r->change, sizeof(r->change), c - b);
}

static void row_util(struct rows *rs, char *label, long b, long c)
{
	struct row *r = row_add(rs, NULL, label);
	bp_text(r->base, sizeof(r->base), b);
	bp_text(r->cur, sizeof(r->cur), c);
	pts_text(r->change, sizeof(r->change), c - b);
}

static void build_rows(const struct rd_diff *df, struct rows *rs)
{
	const struct rd_report *b = df->base, *c = df->cur;
	char hz[64];
	int q;
	size_t i;

	{
		struct row *r = row_add(rs, NULL, xstrdup("solver status"));
		snprintf(r->base, sizeof(r->base), "%s", b->status);
		snprintf(r->cur, sizeof(r->cur), "%s", c->status);
	}
	fmt_num_short(hz, sizeof(hz), c->horizon_years, 2);
	row_money(rs, NULL, xasprintf("total cost (USD over %s year%s)", hz, strcmp(hz, "1") ? "s" : ""),
		  b->total_cents, c->total_cents, 1);
	for (q = 0; q < CAT_COUNT; q++)
		if (b->cat_cents[q] || c->cat_cents[q])
			row_money(rs, "cost", xstrdup(cost_cat_name((enum cost_cat)q)), b->cat_cents[q], c->cat_cents[q], 0);
	for (q = LIC_COUNT - 1; q > 0; q--) {
		const char *id = lic_product_id((enum lic_product)q);
		if (b->lic_gpus[q] || c->lic_gpus[q])
			row_count(rs, "licences", xasprintf("%s GPUs", id), b->lic_gpus[q], c->lic_gpus[q]);
		if (b->lic_seats[q] || c->lic_seats[q])
			row_count(rs, "licences", xasprintf("%s vGPU seats", id), b->lic_seats[q], c->lic_seats[q]);
	}
	row_count(rs, NULL, xstrdup("nodes used"), b->nodes_used, c->nodes_used);
	row_count(rs, NULL, xstrdup("GPUs in used nodes"), b->gpus_in_used_nodes, c->gpus_in_used_nodes);
	row_count(rs, NULL, xstrdup("GPUs active"), b->gpus_active, c->gpus_active);
	row_count(rs, NULL, xstrdup("GPUs licensed"), b->gpus_licensed, c->gpus_licensed);
	for (q = 0; q < MODE_COUNT; q++) {
		struct row *r;
		char t1[24], t2[24];
		if (!b->nodes_by_mode[q] && !c->nodes_by_mode[q])
			continue;
		r = row_add(rs, "mode mix (nodes / GPUs)", xstrdup(mode_name((enum gpu_mode)q)));
		snprintf(r->base, sizeof(r->base), "%ld / %ld", b->nodes_by_mode[q], b->gpus_by_mode[q]);
		snprintf(r->cur, sizeof(r->cur), "%ld / %ld", c->nodes_by_mode[q], c->gpus_by_mode[q]);
		snprintf(r->change, sizeof(r->change), "%s / %s",
			 count_change(t1, sizeof(t1), c->nodes_by_mode[q] - b->nodes_by_mode[q]),
			 count_change(t2, sizeof(t2), c->gpus_by_mode[q] - b->gpus_by_mode[q]));
	}
	row_count(rs, NULL, xstrdup("replicas placed"), b->replicas_placed, c->replicas_placed);
	row_count(rs, NULL, xstrdup("replicas unplaced"), b->replicas_unplaced, c->replicas_unplaced);
	row_util(rs, xstrdup("memory utilisation"), b->mem_util_bp, c->mem_util_bp);
	row_util(rs, xstrdup("compute utilisation"), b->compute_util_bp, c->compute_util_bp);
	for (i = 0; i < df->nunplaced; i++) {
		const struct rd_unplaced_change *u = &df->unplaced[i];
		row_count(rs, "unplaced by workload", xasprintf("%s (%s)", u->workload, u->tenant), u->base, u->cur);
		rs->v[rs->n - 1].note = u->reason;
	}
}

static void rows_release(struct rows *rs)
{
	size_t i;
	for (i = 0; i < rs->n; i++)
		free(rs->v[i].label);
	free(rs->v);
}

/* ================= text ================= */

static void text_format(struct sb *sb, const struct rd_diff *df, const struct rows *rs, const char *command)
{
	const char *group = NULL;
	size_t i;
	int l;

	if (!strcmp(command, "check"))
		sb_addf(sb, "check %s (%s) against %s\n", df->cur->scenario, df->cur->file, df->base->file);
	else
		sb_addf(sb, "diff %s -> %s\n", df->base->file, df->cur->file);
	if (strcmp(df->base->scenario, df->cur->scenario))
		sb_addf(sb, "note: the baseline is of scenario '%s', the current plan of '%s'\n", df->base->scenario,
			df->cur->scenario);
	sb_addf(sb, "%-32s %14s %14s %14s\n", "", "baseline", "current", "change");
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		char label[256];
		if (r->group && (!group || strcmp(group, r->group)))
			sb_addf(sb, "%s\n", r->group);
		group = r->group;
		snprintf(label, sizeof(label), "%s%s", r->group ? "  " : "", r->label);
		sb_addf(sb, "%-32s %14s %14s %14s", label, r->base, r->cur, r->change);
		if (*r->pct)
			sb_addf(sb, " %9s", r->pct);
		if (r->note && *r->note)
			sb_addf(sb, "  %s", r->note);
		/* no trailing blanks */
		while (sb->len && sb->buf[sb->len - 1] == ' ')
			sb->buf[--sb->len] = '\0';
		sb_adds(sb, "\n");
	}
	if (!df->nchecked) {
		sb_addf(sb, "result: %s (no thresholds given)\n", df->changed ? "changed" : "no change");
		return;
	}
	sb_addf(sb, "%-32s %20s %14s %10s\n", "thresholds", "measured", "limit", "result");
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96], label[64];
		if (!df->verdict[l].checked)
			continue;
		snprintf(label, sizeof(label), "  %s", limit_label[l]);
		sb_addf(sb, "%-32s %20s %14s %10s\n", label, measured_text(m, sizeof(m), df, (enum rd_limit)l),
			limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]),
			df->verdict[l].exceeded ? "EXCEEDED" : "ok");
	}
	if (df->failed) {
		char *why = rd_diff_failure(df);
		sb_addf(sb, "result: FAILED: %s\n", why);
		free(why);
	} else {
		sb_addf(sb, "result: passed (%s)\n", df->changed ? "changed within the thresholds" : "no change");
	}
}

/* ================= Markdown ================= */

/* Text for a table cell or a heading: Markdown's special characters escaped, no line breaks. */
static void md_text(struct sb *sb, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*[]<>|#~", *s))
			sb_addf(sb, "\\%c", *s);
		else if (*s == '\n' || *s == '\r')
			sb_adds(sb, " ");
		else
			sb_addn(sb, s, 1);
	}
}

/* A code span; a backquote inside becomes a quote. */
static void md_code(struct sb *sb, const char *s)
{
	sb_adds(sb, "`");
	for (; *s; s++) {
		if (*s == '`' || *s == '|')
			sb_adds(sb, *s == '|' ? "\\|" : "'");
		else if (*s == '\n' || *s == '\r')
			sb_adds(sb, " ");
		else
			sb_addn(sb, s, 1);
	}
	sb_adds(sb, "`");
}

static void md_format(struct sb *sb, const struct rd_diff *df, const struct rows *rs, const char *command)
{
	size_t i;
	int l, any_unplaced = 0;

	sb_addf(sb, "### gpuplan %s ", command);
	md_code(sb, df->cur->scenario);
	sb_addf(sb, ": %s\n\n", !df->nchecked ? (df->changed ? "changed" : "unchanged")
				 : df->failed ? "**failed**" : "passed");
	if (!strcmp(command, "check")) {
		sb_adds(sb, "Current plan of ");
		md_code(sb, df->cur->file);
		sb_adds(sb, " against the baseline ");
		md_code(sb, df->base->file);
	} else {
		md_code(sb, df->base->file);
		sb_adds(sb, " (baseline) against ");
		md_code(sb, df->cur->file);
	}
	if (strcmp(df->base->scenario, df->cur->scenario)) {
		sb_adds(sb, " (the baseline is of scenario ");
		md_code(sb, df->base->scenario);
		sb_adds(sb, ")");
	}
	sb_adds(sb, ".\n\n| | baseline | current | change |\n|:---|---:|---:|---:|\n");
	for (i = 0; i < rs->n; i++) {
		const struct row *r = &rs->v[i];
		const char *b = r->strong ? "**" : "";
		if (r->group && !strcmp(r->group, "unplaced by workload")) {
			any_unplaced = 1;
			continue;
		}
		sb_addf(sb, "| %s", b);
		if (r->group)
			sb_addf(sb, "%s: ", r->group);
		md_text(sb, r->label);
		sb_addf(sb, "%s | %s | %s | %s%s", b, r->base, r->cur, b, r->change);
		if (*r->pct)
			sb_addf(sb, " (%s)", r->pct);
		sb_addf(sb, "%s |\n", b);
	}
	if (any_unplaced) {
		sb_adds(sb, "\n| unplaced workload | tenant | baseline | current | change | reason |\n"
			    "|:---|:---|---:|---:|---:|:---|\n");
		for (i = 0; i < df->nunplaced; i++) {
			const struct rd_unplaced_change *u = &df->unplaced[i];
			char t[32];
			sb_adds(sb, "| ");
			md_text(sb, u->workload);
			sb_adds(sb, " | ");
			md_text(sb, u->tenant);
			sb_addf(sb, " | %ld | %ld | %s | ", u->base, u->cur, count_change(t, sizeof(t), u->cur - u->base));
			md_text(sb, u->reason);
			sb_adds(sb, " |\n");
		}
	}
	if (!df->nchecked) {
		sb_addf(sb, "\n%s; no thresholds given.\n", df->changed ? "Changed" : "No change");
		return;
	}
	sb_adds(sb, "\n| threshold | limit | measured | result |\n|:---|---:|---:|:---|\n");
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		char m[96], lim[96];
		if (!df->verdict[l].checked)
			continue;
		sb_addf(sb, "| `%s` | %s | %s | %s |\n", rd_limit_option((enum rd_limit)l),
			limit_text(lim, sizeof(lim), (enum rd_limit)l, df->limits.limit[l]),
			measured_text(m, sizeof(m), df, (enum rd_limit)l), df->verdict[l].exceeded ? "**exceeded**" : "ok");
	}
	if (df->failed) {
		char *why = rd_diff_failure(df);
		sb_adds(sb, "\n**Failed:** ");
		md_text(sb, why);
		sb_adds(sb, ".\n");
		free(why);
	} else {
		sb_addf(sb, "\n**Passed:** %s.\n", df->changed ? "changed within the thresholds" : "no change");
	}
}

/* ================= JSON ================= */

static double money_num(long long cents)
{
	return (double)cents / 100.0;
}

/* baseline, current, change and change_pct (null from a zero baseline) of a money figure, into o. */
static cJSON *j_money(cJSON *o, long long b, long long c)
{
	cJSON_AddNumberToObject(o, "baseline", money_num(b));
	cJSON_AddNumberToObject(o, "current", money_num(c));
	cJSON_AddNumberToObject(o, "change", money_num(c - b));
	if (b == 0 && c != 0)
		cJSON_AddNullToObject(o, "change_pct");
	else
		cJSON_AddNumberToObject(o, "change_pct", b ? round((double)(c - b) * 1e6 / (double)b) / 1e4 + 0.0 : 0);
	return o;
}

static cJSON *j_change_count(long b, long c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "baseline", (double)b);
	cJSON_AddNumberToObject(o, "current", (double)c);
	cJSON_AddNumberToObject(o, "change", (double)(c - b));
	return o;
}

static cJSON *j_change_util(long b, long c)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "baseline", (double)b / 10000.0);
	cJSON_AddNumberToObject(o, "current", (double)c / 10000.0);
	cJSON_AddNumberToObject(o, "change_pts", (double)(c - b) / 100.0);
	return o;
}

static cJSON *j_side(const struct rd_report *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "file", r->file);
	cJSON_AddStringToObject(o, "scenario", r->scenario);
	cJSON_AddStringToObject(o, "schema_version", r->schema_version);
	cJSON_AddStringToObject(o, "status", r->status);
	cJSON_AddStringToObject(o, "plan_source", r->plan_source);
	cJSON_AddNumberToObject(o, "gap", r->gap);
	cJSON_AddNumberToObject(o, "horizon_years", r->horizon_years);
	return o;
}

static char *json_format(const struct rd_diff *df, const char *command)
{
	const struct rd_report *b = df->base, *c = df->cur;
	cJSON *root = cJSON_CreateObject(), *o, *a;
	char *why, *text, *out;
	size_t i;
	int q, l;

	cJSON_AddStringToObject(root, "schema_version", REPORTDIFF_SCHEMA_VERSION);
	cJSON_AddStringToObject(root, "command", command);
	cJSON_AddStringToObject(root, "result", !df->nchecked ? "not-checked" : df->failed ? "failed" : "passed");
	cJSON_AddBoolToObject(root, "changed", df->changed);
	why = rd_diff_failure(df);
	if (why)
		cJSON_AddStringToObject(root, "failure", why);
	else
		cJSON_AddNullToObject(root, "failure");
	free(why);
	cJSON_AddItemToObject(root, "baseline", j_side(b));
	cJSON_AddItemToObject(root, "current", j_side(c));

	o = cJSON_AddObjectToObject(root, "cost");
	cJSON_AddItemToObject(o, "total", j_money(cJSON_CreateObject(), b->total_cents, c->total_cents));
	a = cJSON_AddArrayToObject(o, "categories");
	for (q = 0; q < CAT_COUNT; q++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "category", cost_cat_name((enum cost_cat)q));
		cJSON_AddItemToArray(a, j_money(e, b->cat_cents[q], c->cat_cents[q]));
	}
	a = cJSON_AddArrayToObject(root, "licenses");
	for (q = LIC_COUNT - 1; q > 0; q--) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "product", lic_product_id((enum lic_product)q));
		cJSON_AddItemToObject(e, "gpus", j_change_count(b->lic_gpus[q], c->lic_gpus[q]));
		cJSON_AddItemToObject(e, "seats", j_change_count(b->lic_seats[q], c->lic_seats[q]));
		cJSON_AddItemToArray(a, e);
	}
	o = cJSON_AddObjectToObject(root, "counts");
	cJSON_AddItemToObject(o, "nodes_used", j_change_count(b->nodes_used, c->nodes_used));
	cJSON_AddItemToObject(o, "gpus_in_used_nodes", j_change_count(b->gpus_in_used_nodes, c->gpus_in_used_nodes));
	cJSON_AddItemToObject(o, "gpus_active", j_change_count(b->gpus_active, c->gpus_active));
	cJSON_AddItemToObject(o, "gpus_licensed", j_change_count(b->gpus_licensed, c->gpus_licensed));
	cJSON_AddItemToObject(o, "replicas_placed", j_change_count(b->replicas_placed, c->replicas_placed));
	cJSON_AddItemToObject(o, "replicas_unplaced", j_change_count(b->replicas_unplaced, c->replicas_unplaced));
	a = cJSON_AddArrayToObject(root, "modes");
	for (q = 0; q < MODE_COUNT; q++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "mode", mode_name((enum gpu_mode)q));
		cJSON_AddItemToObject(e, "nodes", j_change_count(b->nodes_by_mode[q], c->nodes_by_mode[q]));
		cJSON_AddItemToObject(e, "gpus", j_change_count(b->gpus_by_mode[q], c->gpus_by_mode[q]));
		cJSON_AddItemToArray(a, e);
	}
	o = cJSON_AddObjectToObject(root, "utilisation");
	cJSON_AddItemToObject(o, "memory", j_change_util(b->mem_util_bp, c->mem_util_bp));
	cJSON_AddItemToObject(o, "compute", j_change_util(b->compute_util_bp, c->compute_util_bp));
	a = cJSON_AddArrayToObject(root, "unplaced");
	for (i = 0; i < df->nunplaced; i++) {
		const struct rd_unplaced_change *u = &df->unplaced[i];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "workload", u->workload);
		cJSON_AddStringToObject(e, "tenant", u->tenant);
		cJSON_AddNumberToObject(e, "baseline", (double)u->base);
		cJSON_AddNumberToObject(e, "current", (double)u->cur);
		cJSON_AddNumberToObject(e, "change", (double)(u->cur - u->base));
		cJSON_AddStringToObject(e, "reason", u->reason);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(root, "thresholds");
	for (l = 0; l < RD_LIMIT_COUNT; l++) {
		static const char *const unit[] = { "percent", "usd", "replicas", "points" };
		const struct rd_verdict *v = &df->verdict[l];
		cJSON *e;
		if (!v->checked)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "option", rd_limit_option((enum rd_limit)l));
		cJSON_AddStringToObject(e, "unit", unit[l]);
		cJSON_AddNumberToObject(e, "limit", df->limits.limit[l]);
		if (v->infinite)
			cJSON_AddNullToObject(e, "value");
		else
			cJSON_AddNumberToObject(e, "value", round(v->value * 1e4) / 1e4 + 0.0);
		cJSON_AddBoolToObject(e, "exceeded", v->exceeded);
		cJSON_AddItemToArray(a, e);
	}
	text = cJSON_Print(root);
	out = xasprintf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(root);
	return out;
}

char *rd_diff_format(const struct rd_diff *df, enum rd_format fmt, const char *command)
{
	struct rows rs = { NULL, 0, 0 };
	struct sb sb;

	if (fmt == RD_JSON)
		return json_format(df, command);
	sb_init(&sb);
	build_rows(df, &rs);
	if (fmt == RD_MARKDOWN)
		md_format(&sb, df, &rs, command);
	else
		text_format(&sb, df, &rs, command);
	rows_release(&rs);
	return sb_detach(&sb);
}
