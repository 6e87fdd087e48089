/*
 * reportdiff_read.c - the figures of a plan report, read from a
 * plan.json or taken from a planning run (see reportdiff.h).
 *
 * Both sides become a struct rd_report of integers (cents, hundredths of
 * a percent, counts) taken exactly as plan.json rounds them, so the
 * comparison is exact and a plan equals its own report.  cJSON parses
 * the file; it keeps no positions, so when a field is missing or of the
 * wrong type the scanner of jsonpos.c walks the (already valid) text
 * along the field's path to point at it.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonpos.h"
#include "reportdiff_read.h"
#include "report.h"
#include "reportdiff.h"
#include "util.h"
#include "banned.h"

/* ================= reading a report ================= */

struct reader {
	const char *file;
	const char *text;
	size_t len;
	const char *role;
	struct diag *d;
	struct jpos_step path[4];	/* where the object being read sits */
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
	struct jpos_step path[5];
	const char *pos;
	long line, col;
	char *name = path_name(rd, key);
	int n = rd->depth;

	memcpy(path, rd->path, sizeof(rd->path));
	if (key && !at_parent)
		path[n++] = (struct jpos_step){ key, 0 };
	pos = jpos_locate(rd->text, rd->text + rd->len, path, n);
	jpos_line_col(rd->text, pos, &line, &col);
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
	*out = str_escape_ctl(v->valuestring); /* never raw to a terminal: a name cannot forge a line */
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

int rd_unplaced_cmp(const void *a, const void *b)
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
	qsort(r->unplaced, r->nunplaced, sizeof(*r->unplaced), rd_unplaced_cmp);
	for (i = 0; i < r->nunplaced; i++) {
		struct rd_unplaced *u = &r->unplaced[i];
		if (n && !rd_unplaced_cmp(&r->unplaced[n - 1], u)) {
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

int rd_placed_cmp(const void *a, const void *b)
{
	const struct rd_placed *x = a, *y = b;
	int c = strcmp(x->workload, y->workload);
	return c ? c : strcmp(x->tenant, y->tenant);
}

/* Sorts the rows by workload and tenant and merges rows of the same pair. */
static void placed_normalise(struct rd_placed *v, size_t *n)
{
	size_t i, k = 0;

	if (!*n)
		return;
	qsort(v, *n, sizeof(*v), rd_placed_cmp);
	for (i = 0; i < *n; i++) {
		if (k && !rd_placed_cmp(&v[k - 1], &v[i])) {
			v[k - 1].replicas += v[i].replicas;
			free(v[i].workload);
			free(v[i].tenant);
			continue;
		}
		v[k++] = v[i];
	}
	*n = k;
}

/*
 * Placed replicas per workload from the placements (one row a replica).
 * Not a compared figure of its own: rows without a workload and tenant
 * are skipped, and a report without placements has none.
 */
static void read_placements(const cJSON *root, struct rd_report *r)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "placements"), *e;

	if (!cJSON_IsArray(arr))
		return;
	r->placed = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*r->placed));
	cJSON_ArrayForEach(e, arr) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(e, "workload");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "tenant");
		struct rd_placed *p;
		if (!cJSON_IsString(w) || !cJSON_IsString(t))
			continue;
		p = &r->placed[r->nplaced++];
		p->workload = str_escape_ctl(w->valuestring);
		p->tenant = str_escape_ctl(t->valuestring);
		p->replicas = 1;
	}
	placed_normalise(r->placed, &r->nplaced);
}

/*
 * Every workload's priority from "workloads" (plan.json 3.2.0); a report
 * without it has none (the diff then takes the other side's, else 1).
 * Rows without a workload, tenant and a priority of at least 1 are skipped.
 */
static void read_priorities(const cJSON *root, struct rd_report *r)
{
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "workloads"), *e;

	if (!cJSON_IsArray(arr))
		return;
	r->prio = xcalloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof(*r->prio));
	cJSON_ArrayForEach(e, arr) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(e, "workload");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "tenant");
		const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "priority");
		struct rd_placed *p;
		if (!cJSON_IsString(w) || !cJSON_IsString(t) || !cJSON_IsNumber(q) || q->valuedouble < 1 ||
		    q->valuedouble > 1e6)
			continue;
		p = &r->prio[r->nprio++];
		p->workload = str_escape_ctl(w->valuestring);
		p->tenant = str_escape_ctl(t->valuestring);
		p->priority = (int)q->valuedouble;
	}
	placed_normalise(r->prio, &r->nprio);
}

/*
 * The plan.json versions gpuplan has written, as MAJOR.MINOR (any PATCH:
 * no change a reader sees): reports/README.md lists what each added.
 */
static const int known_versions[][2] = { { 2, 0 }, { 2, 1 }, { 3, 0 }, { 3, 1 }, { 3, 2 }, { 3, 3 },
					 { 3, 4 }, { 3, 5 }, { 4, 0 }, { 5, 0 }, { 5, 1 }, { 5, 2 } };
#define NKNOWN (sizeof(known_versions) / sizeof(known_versions[0]))

/* Digits at *s into *v (1 to 9 of them, no sign, no leading 0), *s moved past them; 0 or -1. */
static int version_part(const char **s, long *v)
{
	int n = 0;

	for (*v = 0; **s >= '0' && **s <= '9' && n < 9; (*s)++, n++)
		*v = *v * 10 + (**s - '0');
	return n && !(**s >= '0' && **s <= '9') && !(n > 1 && (*s)[-n] == '0') ? 0 : -1; /* no leading 0 */
}

/* "2.0, 2.1, 3.0, 3.1, 3.2 and 3.3": the versions read, for messages. */
static char *known_text(void)
{
	struct sb sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < NKNOWN; i++)
		sb_addf(&sb, "%s%d.%d", i == 0 ? "" : i + 1 < NKNOWN ? ", " : " and ", known_versions[i][0],
			known_versions[i][1]);
	return sb_detach(&sb);
}

/* gpuplan_version and models_digest (3.3.0): NULL when absent, a string when there. */
static int read_origin(struct reader *rd, const cJSON *root, struct rd_report *r)
{
	return (cJSON_GetObjectItemCaseSensitive(root, "gpuplan_version") &&
		read_string(rd, root, "gpuplan_version", &r->gpuplan_version)) ||
	       (cJSON_GetObjectItemCaseSensitive(root, "models_digest") &&
		read_string(rd, root, "models_digest", &r->models_digest));
}

/* schema_version: "MAJOR.MINOR.PATCH", MAJOR.MINOR one gpuplan wrote (known_versions). */
static int check_version(struct reader *rd, const cJSON *root, struct rd_report *r)
{
	const char *s;
	long major, minor, patch;
	char *msg, *known;
	size_t i;
	int rc;

	if (read_string(rd, root, "schema_version", &r->schema_version))
		return -1;
	s = r->schema_version;
	if (version_part(&s, &major) || *s++ != '.' || version_part(&s, &minor) || *s++ != '.' ||
	    version_part(&s, &patch) || *s)
		return bad_field(rd, "schema_version", 0, "is not a version MAJOR.MINOR.PATCH");
	for (i = 0; i < NKNOWN; i++)
		if (known_versions[i][0] == major && known_versions[i][1] == minor)
			return 0;
	known = known_text();
	if (major < known_versions[0][0])
		msg = xasprintf("was written by report schema %s; this gpuplan reads %s: regenerate the %s with "
				"'gpuplan plan SCENARIO --format json' (reports/README.md)",
				r->schema_version, known, rd->role);
	else if (major > known_versions[NKNOWN - 1][0] ||
		 (major == known_versions[NKNOWN - 1][0] && minor > known_versions[NKNOWN - 1][1]))
		msg = xasprintf("is %s, newer than this gpuplan reads (%s): upgrade gpuplan or regenerate the %s "
				"with this one", r->schema_version, known, rd->role);
	else
		msg = xasprintf("is %s, a version gpuplan never wrote (it reads %s): regenerate the %s with "
				"'gpuplan plan SCENARIO --format json' (reports/README.md)",
				r->schema_version, known, rd->role);
	rc = bad_field(rd, "schema_version", 0, msg);
	free(msg);
	free(known);
	return rc;
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
	cJSON *root;
	const cJSON *summary, *unplaced;
	long line, col;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	r->file = str_escape_ctl(file);
	memset(&rd, 0, sizeof(rd));
	rd.file = file;
	rd.text = text;
	rd.len = len;
	rd.role = role;
	rd.d = d;
	if (!(root = jpos_parse(file, text, len, role, d)))
		return -1;
	if (!cJSON_IsObject(root)) {
		jpos_line_col(text, jpos_skip_ws(text, text + len), &line, &col);
		diag_set(d, DIAG_INPUT, file, line, col, "not a gpuplan plan report: expected a JSON object");
		goto out;
	}
	if (check_version(&rd, root, r) || read_origin(&rd, root, r))
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
	read_placements(root, r);
	read_priorities(root, r);
	rd_fail_read(root, r);
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
	r->file = str_escape_ctl(file);
	r->schema_version = xstrdup(REPORT_SCHEMA_VERSION);
	r->gpuplan_version = xstrdup(GPUPLAN_VERSION);
	r->models_digest = xstrdup(pr->sc->models_digest);
	r->scenario = str_escape_ctl(p->sc->name);
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
		u->workload = str_escape_ctl(p->demands[i].w->name);
		u->tenant = str_escape_ctl(p->demands[i].w->tenant);
		u->reason = xstrdup(cp->reason[i] ? cp->reason[i] : "");
		u->replicas = cp->unplaced[i];
	}
	unplaced_normalise(r);
	r->placed = xcalloc(p->ndemands + 1, sizeof(*r->placed));
	r->prio = xcalloc(p->ndemands + 1, sizeof(*r->prio));
	for (i = 0; i < p->ndemands; i++) {
		struct rd_placed *w = &r->prio[r->nprio++];
		w->workload = str_escape_ctl(p->demands[i].w->name);
		w->tenant = str_escape_ctl(p->demands[i].w->tenant);
		w->priority = p->demands[i].w->priority;
		if (!cp->placed[i])
			continue;
		r->placed[r->nplaced] = *w;
		r->placed[r->nplaced].workload = xstrdup(w->workload);
		r->placed[r->nplaced].tenant = xstrdup(w->tenant);
		r->placed[r->nplaced++].replicas = cp->placed[i];
	}
	placed_normalise(r->placed, &r->nplaced);
	placed_normalise(r->prio, &r->nprio);
	rd_fail_from_plan(r, pr);
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
	for (i = 0; i < r->nplaced; i++) {
		free(r->placed[i].workload);
		free(r->placed[i].tenant);
	}
	free(r->placed);
	for (i = 0; i < r->nprio; i++) {
		free(r->prio[i].workload);
		free(r->prio[i].tenant);
	}
	free(r->prio);
	rd_fail_release(r);
	free(r->file);
	free(r->schema_version);
	free(r->gpuplan_version);
	free(r->models_digest);
	free(r->scenario);
	free(r->status);
	free(r->plan_source);
	memset(r, 0, sizeof(*r));
}
