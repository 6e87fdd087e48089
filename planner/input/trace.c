/*
 * trace.c - demand traces: the CSV reader and the shape generator.
 *
 * Both fill a dense table of replicas per (hour, workload) for one
 * period; simulate repeats the period to the length it simulates.  Times
 * are converted with integer civil-calendar arithmetic (days from civil
 * and back), never the C library's time zone functions, so a trace reads
 * the same in any TZ and locale.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "date.h"
#include "trace.h"
#include "util.h"
#include "banned.h"

#define MAX_REPLICAS 1000000LL

/* ================= time ================= */

/* n decimal digits at *s into *out; advances *s.  0 or -1. */
static int digits(const char **s, int n, long long *out)
{
	long long v = 0;
	int i;
	for (i = 0; i < n; i++) {
		char c = (*s)[i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	*s += n;
	*out = v;
	return 0;
}

int trace_parse_time(const char *s, long long *secs)
{
	long long days, hh = 0, mi = 0, ss = 0;

	if (date_parse_prefix(s, &days) < 0)
		return -1;
	s += 10;
	if (*s == 'T' || *s == ' ') {
		s++;
		if (digits(&s, 2, &hh) || *s++ != ':' || digits(&s, 2, &mi))
			return -1;
		if (*s == ':') {
			s++;
			if (digits(&s, 2, &ss))
				return -1;
		}
		if (hh > 23 || mi > 59 || ss > 59)
			return -1;
		if (!strcmp(s, "Z") || !strcmp(s, "+00:00"))
			s += strlen(s);
		else
			return -1;
	}
	if (*s)
		return -1;
	*secs = days * 86400 + hh * 3600 + mi * 60 + ss;
	return 0;
}

const char *trace_format_time(char *buf, size_t size, long long secs)
{
	long long days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
	long long rem = secs - days * 86400, y, m, d;
	date_to_civil(days, &y, &m, &d);
	snprintf(buf, size, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", y, m, d, rem / 3600, rem / 60 % 60,
		 rem % 60);
	return buf;
}

/* ================= the table ================= */

void trace_release(struct trace *tr)
{
	free(tr->source);
	free(tr->replicas);
	memset(tr, 0, sizeof(*tr));
}

int trace_at(const struct trace *tr, size_t step, size_t w)
{
	return tr->replicas[(step % tr->nsteps) * tr->nw + w];
}

static long find_workload(const struct workloads *wl, const char *name)
{
	size_t i;
	for (i = 0; i < wl->n; i++)
		if (!strcmp(wl->w[i].name, name))
			return (long)i;
	return -1;
}

/* One parsed row. */
struct event {
	size_t step;
	size_t w;
	int n;
};

/* The columns of a trace file. */
enum { T_TIMESTAMP, T_WORKLOAD, T_REPLICAS, T_NCOLS };
static const struct csvcol trace_cols[] = { { "timestamp", 1 }, { "workload", 1 }, { "replicas", 1 },
					    { NULL, 0 } };

/* What the rows read so far say, for checking the next one. */
struct trace_rows {
	const struct workloads *wl;
	int kind;		/* of the timestamps: 0 no row yet, 1 ISO, 2 hours */
	double first, last;	/* hours of the first row and of the row before */
	size_t nsteps;		/* steps the rows so far span */
};

/*
 * The hours of timestamp ts: ISO times and hours since the start, not
 * mixed, in time order and less than TRACE_MAX_HOURS after the first.
 */
static int read_time(const struct csvread *rd, const char *ts, struct trace_rows *st, struct trace *tr,
		     double *out)
{
	long long secs = 0;
	double at;
	int k;

	if (parse_double(ts, &at) == PARSE_OK) {
		k = 2;
		if (at < 0)
			return csvread_error(rd, T_TIMESTAMP,
					     "column 'timestamp': '%s' must be at least 0 (hours from the start)", ts);
	} else if (trace_parse_time(ts, &secs) == 0) {
		k = 1;
		at = (double)secs / 3600.0;
	} else {
		return csvread_error(rd, T_TIMESTAMP,
				     "column 'timestamp': '%s' is neither an ISO 8601 UTC time (2025-01-06T08:00:00Z) "
				     "nor a number of hours", ts);
	}
	if (st->kind && k != st->kind)
		return csvread_error(rd, T_TIMESTAMP, "column 'timestamp': '%s' is %s, but the first row's is %s",
				     ts, k == 1 ? "an ISO 8601 time" : "a number of hours",
				     st->kind == 1 ? "an ISO 8601 time" : "a number of hours");
	if (!st->kind) {
		st->kind = k;
		st->first = at;
		if (k == 1)
			tr->t0 = secs;
	} else if (at < st->last) {
		return csvread_error(rd, T_TIMESTAMP,
				     "column 'timestamp': '%s' is earlier than the row before: rows must be in time order",
				     ts);
	}
	st->last = at;
	if (at - st->first >= (double)TRACE_MAX_HOURS)
		return csvread_error(rd, T_TIMESTAMP,
				     "column 'timestamp': '%s' is %ld hours or more after the first row", ts,
				     TRACE_MAX_HOURS);
	*out = at;
	return 0;
}

/* One row: its step, workload and replicas. */
static int read_event(const struct csvread *rd, struct trace_rows *st, struct trace *tr, struct event *ev)
{
	const char *ts, *name;
	long long n;
	double at = 0;
	long w;

	if (csvread_str(rd, T_TIMESTAMP, 1, &ts) || csvread_str(rd, T_WORKLOAD, 1, &name) ||
	    read_time(rd, ts, st, tr, &at))
		return -1;
	w = find_workload(st->wl, name);
	if (w < 0) {
		char *hint = workloads_hint(st->wl, name);
		if (*hint)
			csvread_error(rd, T_WORKLOAD, "unknown workload '%s'%s", name, hint);
		else
			csvread_error(rd, T_WORKLOAD, "unknown workload '%s': not in %s", name, st->wl->file);
		free(hint);
		return -1;
	}
	if (csvread_int(rd, T_REPLICAS, 1, 0, MAX_REPLICAS, &n))
		return -1;
	ev->step = (size_t)floor(at - st->first + 1e-9);
	ev->w = (size_t)w;
	ev->n = (int)n;
	if (ev->step + 1 > st->nsteps)
		st->nsteps = ev->step + 1;
	return 0;
}

/*
 * The table from the events (in step order): a workload keeps its last
 * count until a row changes it, the largest count of a step winning; a
 * workload without rows keeps its replicas.
 */
static void fill_table(struct trace *tr, const struct event *ev, size_t nev, const struct workloads *wl)
{
	int *cur = xcalloc(wl->n + 1, sizeof(*cur));
	int *seen = xcalloc(wl->n + 1, sizeof(*seen));
	size_t *touched = xcalloc(wl->n + 1, sizeof(*touched));
	size_t i, j;

	tr->replicas = xcalloc(tr->nsteps * (wl->n ? wl->n : 1), sizeof(*tr->replicas));
	for (i = 0; i < nev; i++)
		seen[ev[i].w] = 1;
	for (j = 0; j < wl->n; j++)
		cur[j] = seen[j] ? 0 : (int)wl->w[j].replicas;
	/* rows are in step order: fill each step, the largest count of a step winning */
	for (i = 0, j = 0; j < tr->nsteps; j++) {
		int *row = &tr->replicas[j * wl->n];
		size_t w;
		for (w = 0; w < wl->n; w++)
			row[w] = cur[w];
		for (; i < nev && ev[i].step == j; i++) {
			const struct event *e = &ev[i];
			if (touched[e->w] != j + 1)
				row[e->w] = e->n;
			else if (row[e->w] < e->n)
				row[e->w] = e->n;
			touched[e->w] = j + 1;
			cur[e->w] = e->n;
		}
	}
	free(cur);
	free(seen);
	free(touched);
}

int trace_load(struct trace *tr, const char *path, const struct workloads *wl, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct trace_rows st;
	struct event *ev = NULL;
	int idx[T_NCOLS];
	size_t i;
	int rc = -1;

	memset(tr, 0, sizeof(*tr));
	memset(&st, 0, sizeof(st));
	tr->source = xstrdup(path);
	if (csvdoc_load(&doc, path, d) || csvdoc_bind(&doc, trace_cols, idx, d))
		goto out;
	if (!doc.nrows) {
		diag_set(d, DIAG_INPUT, path, doc.header.line, 0, "no rows: a trace needs at least one");
		goto out;
	}
	st.wl = wl;
	ev = xcalloc(doc.nrows, sizeof(*ev));
	for (i = 0; i < doc.nrows; i++) {
		const struct csvread rd = { &doc, &doc.rows[i], trace_cols, idx, d };
		if (csvdoc_interrupted(&doc, i, d) || read_event(&rd, &st, tr, &ev[i]))
			goto out;
	}
	tr->iso = st.kind == 1;
	tr->nsteps = st.nsteps;
	tr->nw = wl->n;
	fill_table(tr, ev, doc.nrows, wl);
	rc = 0;
out:
	free(ev);
	csvdoc_release(&doc);
	if (rc)
		trace_release(tr);
	return rc;
}

/* ================= the generator ================= */

struct gen_params {
	double hours_per_day, start_hour, base, weekend, growth, hours;
	const char *only;	/* "a|b", or NULL: all */
};

static int spec_error(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int spec_error(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	diag_set(d, DIAG_USAGE, NULL, 0, 0, "--generate: %s", msg);
	free(msg);
	return -1;
}

/* Whether workload name is in the |-separated list. */
static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	while (*p) {
		const char *e = strchr(p, '|');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* workloads=A|B: every name must be a workload's. */
static int parse_workload_list(const char *val, const struct workloads *wl, struct diag *d)
{
	const char *q = val;

	if (!*val)
		return spec_error(d, "workloads: empty list");
	while (*q) {
		const char *e = strchr(q, '|');
		size_t len = e ? (size_t)(e - q) : strlen(q);
		size_t i;
		for (i = 0; i < wl->n; i++)
			if (strlen(wl->w[i].name) == len && !strncmp(wl->w[i].name, q, len))
				break;
		if (i == wl->n) {
			char *name = xstrndup(q, len), *hint = workloads_hint(wl, name);
			spec_error(d, "workloads: unknown workload '%s'%s", name, hint);
			free(hint);
			free(name);
			return -1;
		}
		if (!e)
			break;
		q = e + 1;
	}
	return 0;
}

/* KEY=VAL for one of the numeric keys, checked against its range. */
static int parse_number_param(const char *key, const char *val, struct gen_params *g, struct diag *d)
{
	struct {
		const char *key;
		double lo, hi;
		int whole;
		double *out;
	} const nums[] = {
		{ "hours_per_day", 1, 24, 1, &g->hours_per_day },
		{ "start_hour", 0, 23, 1, &g->start_hour },
		{ "base", 0, 1, 0, &g->base },
		{ "weekend", 0, 1, 0, &g->weekend },
		{ "growth", -0.5, 10, 0, &g->growth },
		{ "hours", 1, (double)TRACE_MAX_HOURS, 1, &g->hours },
	};
	char rbuf[RANGE_TEXT_SIZE];
	double v;
	size_t n;

	for (n = 0; n < sizeof(nums) / sizeof(nums[0]); n++)
		if (!strcmp(nums[n].key, key))
			break;
	if (parse_double(val, &v) != PARSE_OK)
		return spec_error(d, "%s: '%s' is not a number", key, val);
	if (!range_contains(v, nums[n].lo, nums[n].hi, RANGE_CLOSED))
		return spec_error(d, "%s: '%s' must be %s", key, val,
				  range_text(rbuf, sizeof(rbuf), nums[n].lo, nums[n].hi, RANGE_CLOSED));
	if (nums[n].whole && v != floor(v))
		return spec_error(d, "%s: '%s' is not a whole number", key, val);
	*nums[n].out = v;
	return 0;
}

static int parse_params(char *s, int daily, struct gen_params *g, const struct workloads *wl, struct diag *d)
{
	static const char *const daily_keys[] = { "hours_per_day", "start_hour", "base", "weekend", "workloads",
						  "growth", "hours", NULL };
	static const char *const flat_keys[] = { "growth", "hours", NULL };
	const char *const *keys = daily ? daily_keys : flat_keys;
	char *p = s;
	unsigned seen = 0;

	while (p && *p) {
		char *next = strchr(p, ','), *eq, *val;
		int k;
		if (next)
			*next++ = '\0';
		eq = strchr(p, '=');
		if (!eq)
			return spec_error(d, "'%s' is not KEY=VALUE", p);
		*eq = '\0';
		val = eq + 1;
		for (k = 0; keys[k]; k++)
			if (!strcmp(keys[k], p))
				break;
		if (!keys[k]) {
			char *hint = str_hint(p, keys);
			spec_error(d, "unknown key '%s' for shape '%s'%s", p, daily ? "daily" : "flat", hint);
			free(hint);
			return -1;
		}
		if (seen & (1u << k))
			return spec_error(d, "key '%s' given twice", p);
		seen |= 1u << k;
		if (!strcmp(p, "workloads")) {
			if (parse_workload_list(val, wl, d))
				return -1;
			g->only = val;
		} else if (parse_number_param(p, val, g, d)) {
			return -1;
		}
		p = next;
	}
	return 0;
}

int trace_generate(struct trace *tr, const char *spec, const struct workloads *wl, long default_hours,
		   struct diag *d)
{
	struct gen_params g = { 10, 8, 0, 1, 0, 0, NULL };
	char *copy = xstrdup(spec), *params = strchr(copy, ':');
	static const char *const shapes[] = { "flat", "daily", NULL };
	int daily, rc = -1;
	size_t h, w;

	memset(tr, 0, sizeof(*tr));
	if (params)
		*params++ = '\0';
	if (!strcmp(copy, "flat")) {
		daily = 0;
	} else if (!strcmp(copy, "daily")) {
		daily = 1;
	} else {
		char *hint = str_hint(copy, shapes);
		spec_error(d, "unknown shape '%s'%s", copy, hint);
		free(hint);
		goto out;
	}
	g.hours = (double)default_hours;
	if (params && parse_params(params, daily, &g, wl, d))
		goto out;
	if (g.hours < 1)
		g.hours = 1;
	if (g.hours > (double)TRACE_MAX_HOURS)
		g.hours = (double)TRACE_MAX_HOURS;
	tr->source = xasprintf("generated %s", spec);
	tr->nsteps = (size_t)g.hours;
	tr->nw = wl->n;
	tr->replicas = xcalloc(tr->nsteps * (wl->n ? wl->n : 1), sizeof(*tr->replicas));
	for (h = 0; h < tr->nsteps; h++) {
		double growth = pow(1.0 + g.growth, (double)(h / 730));
		long hod = (long)(h % 24), day = (long)(h / 24);
		long from = (long)g.start_hour, to = from + (long)g.hours_per_day;
		int in_window = (hod >= from && hod < to) || (hod + 24 >= from && hod + 24 < to);
		double level = in_window ? 1.0 : g.base;
		if (day % 7 >= 5)
			level *= g.weekend;
		for (w = 0; w < wl->n; w++) {
			double lv = daily && (!g.only || in_list(g.only, wl->w[w].name)) ? level : 1.0;
			double x = floor((double)wl->w[w].replicas * lv * growth + 0.5 + 1e-9);
			if (x > (double)MAX_REPLICAS) {
				/* a cap would change the demand silently (issue #34): say so instead */
				spec_error(d, "workload '%s' grows to more than %lld replicas by hour %zu: lower growth or "
					   "hours", wl->w[w].name, MAX_REPLICAS, h);
				goto out;
			}
			tr->replicas[h * wl->n + w] = (int)x;
		}
	}
	rc = 0;
out:
	free(copy);
	if (rc)
		trace_release(tr);
	return rc;
}
