/*
 * sweep_spec.c - the sweep spec (gpuplan-sweep/1): read strictly, every
 * field checked, every error at FILE:LINE:COL.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

static const char *const param_names[SP_COUNT + 1] = {
	[SP_HORIZON_YEARS] = "horizon_years",
	[SP_DEMAND_SCALE] = "demand_scale",
	[SP_DEMAND_GROWTH] = "demand_growth",
	[SP_CAPEX_SCALE] = "capex_scale",
	[SP_CLOUD_PRICE_SCALE] = "cloud_price_scale",
	[SP_LICENSE_PRICE_SCALE] = "license_price_scale",
	[SP_ENERGY_USD_PER_KWH] = "energy_usd_per_kwh",
	[SP_FORECAST_SCALE] = "forecast_scale",
	[SP_FORECAST_GROWTH] = "forecast_growth",
	[SP_COUNT] = NULL,
};

/* What each parameter may be. */
static const struct num_range param_range[SP_COUNT] = {
	[SP_HORIZON_YEARS] = { 0, 30, RANGE_LO_OPEN },
	[SP_DEMAND_SCALE] = { 0, 1000, RANGE_LO_OPEN },
	[SP_DEMAND_GROWTH] = { -1, 10, RANGE_LO_OPEN },
	[SP_CAPEX_SCALE] = { 0, 100, RANGE_CLOSED },
	[SP_CLOUD_PRICE_SCALE] = { 0, 100, RANGE_CLOSED },
	[SP_LICENSE_PRICE_SCALE] = { 0, 100, RANGE_CLOSED },
	[SP_ENERGY_USD_PER_KWH] = { 0, 100, RANGE_CLOSED },
	[SP_FORECAST_SCALE] = { 0, 1000, RANGE_LO_OPEN },
	[SP_FORECAST_GROWTH] = { -1, 10, RANGE_LO_OPEN },
};

static const char *const design_names[] = { "grid", "one-at-a-time", "monte-carlo", NULL };
static const char *const dist_names[] = { "values", "uniform", "normal", "triangular", "lognormal", NULL };

const char *sweep_param_name(enum sweep_param_id id)
{
	return param_names[id];
}

const char *sweep_design_name(enum sweep_design d)
{
	return design_names[d];
}

const char *sweep_dist_name(enum sweep_dist d)
{
	return dist_names[d];
}

/* The index of s in names (NULL-terminated), or -1. */
static int name_index(const char *const *names, const char *s)
{
	int i;
	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* A number node in the parameter's range. */
static int param_number(const struct ydoc *doc, const struct ynode *n, enum sweep_param_id id, double *out,
			struct diag *d)
{
	const struct num_range *r = &param_range[id];
	char b[RANGE_TEXT_SIZE];
	int err;

	if (n->type != YN_SCALAR)
		return ydoc_error(doc, n, d, "a value of '%s' must be a number", param_names[id]);
	err = parse_double(n->scalar, out);
	if (err)
		return ydoc_error(doc, n, d, "'%s' %s", n->scalar, parse_num_strerror(err));
	if (!range_contains(*out, r->lo, r->hi, r->open))
		return ydoc_error(doc, n, d, "%s '%s' must be %s", param_names[id], n->scalar,
				  range_text(b, sizeof(b), r->lo, r->hi, r->open));
	return 0;
}

/* A list of values: [0.7, 1, 1.3]. */
static int read_list(const struct ydoc *doc, const struct ynode *n, struct sweep_param *p, struct diag *d)
{
	size_t i;
	if (!n->n)
		return ydoc_error(doc, n, d, "parameter '%s' has no values", param_names[p->id]);
	p->values = xcalloc(n->n, sizeof(*p->values));
	for (i = 0; i < n->n; i++)
		if (param_number(doc, n->items[i], p->id, &p->values[p->nvalues++], d))
			return -1;
	return 0;
}

/* A number field of a parameter's mapping, in the parameter's range when ranged. */
static int field(const struct yread *y, const char *key, enum sweep_param_id id, int ranged, double *out)
{
	const struct ynode *n = ymap_get(y->map, key);
	if (!n)
		return ydoc_error(y->doc, y->map, y->d, "parameter '%s' has no '%s'", param_names[id], key);
	if (ranged)
		return param_number(y->doc, n, id, out, y->d);
	return yread_num(y, key, 1, (struct num_range){ -HUGE_VAL, HUGE_VAL, 0 }, out) < 0 ? -1 : 0;
}

/* from, to, steps: steps values from `from` to `to`, both ends included. */
static int read_range(const struct yread *y, struct sweep_param *p)
{
	long long steps;
	double from, to;
	long long k;

	if (field(y, "from", p->id, 1, &from) || field(y, "to", p->id, 1, &to) ||
	    yread_int(y, "steps", 1, 2, 1000, &steps))
		return -1;
	p->values = xcalloc((size_t)steps, sizeof(*p->values));
	for (k = 0; k < steps; k++)
		p->values[k] = k == steps - 1 ? to : from + (to - from) * (double)k / (double)(steps - 1);
	p->nvalues = (size_t)steps;
	return 0;
}

/* Which keys each form allows, besides base and seed. */
static const char *const keys_values[] = { "values", "base", NULL };
static const char *const keys_range[] = { "from", "to", "steps", "base", NULL };
static const char *const keys_dist[][8] = {
	[DIST_UNIFORM] = { "distribution", "min", "max", "seed", NULL },
	[DIST_NORMAL] = { "distribution", "mean", "sd", "min", "max", "seed", NULL },
	[DIST_TRIANGULAR] = { "distribution", "min", "mode", "max", "seed", NULL },
	[DIST_LOGNORMAL] = { "distribution", "mu", "sigma", "min", "max", "seed", NULL },
};

/* The figures of a distribution; lo, hi: the optional truncation within the parameter's range. */
static int read_dist(const struct yread *y, struct sweep_param *p)
{
	const struct num_range *r = &param_range[p->id];
	double big = HUGE_VAL;

	p->lo = r->lo;
	p->hi = r->hi;
	switch (p->dist) {
	case DIST_UNIFORM:
		if (field(y, "min", p->id, 1, &p->a) || field(y, "max", p->id, 1, &p->b))
			return -1;
		if (p->b < p->a)
			return ydoc_error(y->doc, ymap_get(y->map, "max"), y->d, "max is below min");
		return 0;
	case DIST_TRIANGULAR:
		if (field(y, "min", p->id, 1, &p->a) || field(y, "mode", p->id, 1, &p->b) ||
		    field(y, "max", p->id, 1, &p->c))
			return -1;
		if (!(p->a <= p->b && p->b <= p->c) || p->a == p->c)
			return ydoc_error(y->doc, y->map, y->d, "a triangular distribution needs min <= mode <= max, min < max");
		return 0;
	default:
		if (field(y, p->dist == DIST_NORMAL ? "mean" : "mu", p->id, 0, &p->a) ||
		    yread_num(y, p->dist == DIST_NORMAL ? "sd" : "sigma", 1, (struct num_range){ 0, big, RANGE_LO_OPEN },
			      &p->b) < 0)
			return -1;
		if ((ymap_get(y->map, "min") && field(y, "min", p->id, 1, &p->lo)) ||
		    (ymap_get(y->map, "max") && field(y, "max", p->id, 1, &p->hi)))
			return -1;
		if (p->hi <= p->lo)
			return ydoc_error(y->doc, y->map, y->d, "max must be above min");
		return 0;
	}
}

/* A parameter given as a mapping: values, a range or a distribution. */
static int read_map(const struct ydoc *doc, const struct ynode *n, struct sweep_param *p, struct diag *d)
{
	const struct yread y = { doc, n, d };
	const struct ynode *v;
	const char *s;
	int k;

	if (ymap_get(n, "distribution")) {
		if (yread_str(&y, "distribution", 1, &s) < 0)
			return -1;
		k = name_index(dist_names, s);
		if (k <= 0)
			return ydoc_unknown(doc, ymap_get(n, "distribution"), d, "distribution", s, dist_names + 1);
		p->dist = (enum sweep_dist)k;
		if (ymap_check_keys(doc, n, keys_dist[k], param_names[p->id], d) || read_dist(&y, p))
			return -1;
		if (ymap_get(n, "seed")) {
			long long seed;
			if (yread_int(&y, "seed", 1, 0, LLONG_MAX, &seed) < 0)
				return -1;
			p->seed = (unsigned long long)seed;
		}
		return 0;
	}
	v = ymap_get(n, "values");
	if (ymap_check_keys(doc, n, v ? keys_values : keys_range, param_names[p->id], d))
		return -1;
	if (v) {
		if (ynode_expect(doc, v, YN_SEQ, "values", d) || read_list(doc, v, p, d))
			return -1;
	} else if (read_range(&y, p)) {
		return -1;
	}
	if (ymap_get(n, "base"))
		return field(&y, "base", p->id, 1, &p->base);
	return 0;
}

/* FNV-1a, 64 bits, of a string. */
static unsigned long long fnv1a(const char *s, size_t n)
{
	unsigned long long h = 0xcbf29ce484222325ULL;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static int read_params(const struct ydoc *doc, struct sweep_spec *s, struct diag *d)
{
	const struct ynode *m = ymap_get(doc->root, "parameters");
	size_t i;

	if (!m)
		return ydoc_error(doc, doc->root, d, "missing field 'parameters'");
	if (ynode_expect(doc, m, YN_MAP, "parameters", d) || ymap_check_keys(doc, m, param_names, "parameters", d))
		return -1;
	if (!m->n)
		return ydoc_error(doc, m, d, "no parameters");
	s->params = xcalloc(m->n, sizeof(*s->params));
	for (i = 0; i < m->n; i++) {
		struct sweep_param *p = &s->params[s->nparams++];
		const struct ynode *v = m->items[i];
		p->id = (enum sweep_param_id)name_index(param_names, m->keys[i]);
		p->base = NAN;
		p->line = m->key_line[i];
		p->seed = s->seed ^ fnv1a(m->keys[i], strlen(m->keys[i]));
		if (v->type == YN_SEQ ? read_list(doc, v, p, d)
		    : v->type == YN_MAP ? read_map(doc, v, p, d)
					: ydoc_key_error(doc, m, i, d, "parameter '%s' must be a list or a mapping",
							 m->keys[i]))
			return -1;
		if (p->dist != DIST_VALUES && s->design != SWEEP_MONTE_CARLO)
			return ydoc_key_error(doc, m, i, d, "parameter '%s' is a distribution: only for design monte-carlo",
					      m->keys[i]);
	}
	return 0;
}

static int read_options(const struct ydoc *doc, struct sweep_spec *s, struct diag *d)
{
	const struct ynode *list = ymap_get(doc->root, "options");
	size_t i, j;

	if (!list)
		return ydoc_error(doc, doc->root, d, "missing field 'options'");
	if (ynode_expect(doc, list, YN_SEQ, "options", d))
		return -1;
	if (!list->n || list->n > SWEEP_MAX_OPTIONS)
		return ydoc_error(doc, list, d, "'options' must list 1 to %d scenario files", SWEEP_MAX_OPTIONS);
	s->options = xcalloc(list->n, sizeof(*s->options));
	for (i = 0; i < list->n; i++) {
		const struct ynode *it = list->items[i];
		if (it->type != YN_SCALAR || str_blank(it->scalar))
			return ydoc_error(doc, it, d, "an 'options' entry must be a scenario file name");
		s->options[s->noptions++] = scenario_path_resolve(s->file, it->scalar);
		if (access(s->options[i], R_OK))
			return ydoc_error(doc, it, d, "cannot open scenario '%s': %s", s->options[i], strerror(errno));
		for (j = 0; j < i; j++)
			if (!strcmp(s->options[j], s->options[i]))
				return ydoc_error(doc, it, d, "scenario '%s' is listed twice", it->scalar);
	}
	return 0;
}

static int read_solver(const struct ydoc *doc, struct sweep_spec *s, struct diag *d)
{
	static const char *const keys[] = { "greedy", "time_limit_s", "gap_pct", "mip_gap", "node_limit", NULL };
	const struct ynode *m = ymap_get(doc->root, "solver");
	const struct yread y = { doc, m, d };
	long long nl;
	int rc;

	s->greedy = 1;
	s->time_limit_s = s->mip_gap = -1;
	s->node_limit = -1;
	if (!m)
		return 0;
	if (ynode_expect(doc, m, YN_MAP, "solver", d) || ymap_check_keys(doc, m, keys, "solver", d) ||
	    yread_bool(&y, "greedy", 0, &s->greedy) < 0 ||
	    yread_num(&y, "time_limit_s", 0, (struct num_range){ 0, 86400, RANGE_LO_OPEN }, &s->time_limit_s) < 0 ||
	    yread_gap(&y, &s->mip_gap) < 0)
		return -1;
	rc = yread_int(&y, "node_limit", 0, 1, 1000000000, &nl);
	if (rc < 0)
		return -1;
	if (!rc)
		s->node_limit = (long)nl;
	if (!s->greedy && s->node_limit < 0)
		return ydoc_error(doc, m, d, "greedy: false needs a node_limit, so that a case plans the same on any "
				  "machine");
	return 0;
}

static int read_design(const struct ydoc *doc, struct sweep_spec *s, struct diag *d)
{
	const struct yread y = { doc, doc->root, d };
	const char *v = NULL;
	long long n;
	int rc, k;

	rc = yread_str(&y, "design", 0, &v);
	if (rc < 0)
		return -1;
	if (!rc) {
		k = name_index(design_names, v);
		if (k < 0)
			return ydoc_unknown(doc, ymap_get(doc->root, "design"), d, "design", v, design_names);
		s->design = (enum sweep_design)k;
	}
	s->seed = 1;
	if (s->design != SWEEP_MONTE_CARLO) {
		const char *extra = ymap_get(doc->root, "samples") ? "samples" : ymap_get(doc->root, "seed") ? "seed" : NULL;
		if (extra)
			return ydoc_error(doc, ymap_get(doc->root, extra), d, "'%s' is only for design monte-carlo", extra);
		return 0;
	}
	if (yread_int(&y, "samples", 1, 1, SWEEP_MAX_CASES, &n) < 0)
		return -1;
	s->samples = (long)n;
	rc = yread_int(&y, "seed", 0, 0, LLONG_MAX, &n);
	if (rc < 0)
		return -1;
	if (!rc)
		s->seed = (unsigned long long)n;
	return 0;
}

/* run: plan (the default) or roadmap; the forecast parameters need roadmap. */
static int read_run(const struct ydoc *doc, struct sweep_spec *s, struct diag *d)
{
	static const char *const runs[] = { "plan", "roadmap", NULL };
	const struct yread y = { doc, doc->root, d };
	const char *v = NULL;
	size_t i;
	int rc = yread_str(&y, "run", 0, &v);

	if (rc < 0)
		return -1;
	if (!rc && name_index(runs, v) < 0)
		return ydoc_unknown(doc, ymap_get(doc->root, "run"), d, "run", v, runs);
	s->roadmap = !rc && !strcmp(v, "roadmap");
	for (i = 0; i < s->nparams; i++) {
		enum sweep_param_id id = s->params[i].id;
		int fc = id == SP_FORECAST_SCALE || id == SP_FORECAST_GROWTH;
		if (fc && !s->roadmap)
			return diag_set(d, DIAG_INPUT, s->file, s->params[i].line, 0,
					"parameter '%s' varies a roadmap's forecast: it needs 'run: roadmap'", param_names[id]);
		if (s->roadmap && (id == SP_HORIZON_YEARS || id == SP_DEMAND_SCALE || id == SP_DEMAND_GROWTH))
			return diag_set(d, DIAG_INPUT, s->file, s->params[i].line, 0,
					"parameter '%s' is for plans: a roadmap's demand and horizon are its forecast's "
					"(vary forecast_scale, forecast_growth)", param_names[id]);
	}
	return 0;
}

/* The number of cases must stay under SWEEP_MAX_CASES (a grid multiplies). */
static int check_size(const struct ydoc *doc, const struct sweep_spec *s, struct diag *d)
{
	double n = 1;
	size_t i;

	if (s->design == SWEEP_MONTE_CARLO)
		return 0;
	for (i = 0; i < s->nparams; i++)
		n = s->design == SWEEP_GRID ? n * (double)s->params[i].nvalues : n + (double)s->params[i].nvalues;
	if (n > SWEEP_MAX_CASES)
		return ydoc_error(doc, ymap_get(doc->root, "parameters"), d, "%.0f cases, more than the %d a sweep may have",
				  n, SWEEP_MAX_CASES);
	return 0;
}

int sweep_spec_load(struct sweep_spec *s, const char *path, struct diag *d)
{
	static const char *const keys[] = { "schema", "name", "options", "design", "samples", "seed", "solver",
					    "parameters", "run", NULL };
	struct ydoc doc = YDOC_INIT;
	struct yread y = { &doc, NULL, d };
	const char *name;
	char *bytes = NULL;
	size_t len = 0;
	int rc = -1;

	memset(s, 0, sizeof(*s));
	s->file = xstrdup(path);
	if (ydoc_load(&doc, path, d))
		goto out;
	y.map = doc.root;
	if (ydoc_check_root(&doc, "sweep spec", keys, SWEEP_SCHEMA, d) || yread_nonblank(&y, "name", 1, &name))
		goto out;
	s->name = xstrdup(name);
	if (read_options(&doc, s, d) || read_design(&doc, s, d) || read_solver(&doc, s, d) ||
	    read_params(&doc, s, d) || read_run(&doc, s, d) || check_size(&doc, s, d))
		goto out;
	if (!file_read_all(path, YDOC_MAX_BYTES, &bytes, &len))
		s->digest = fnv1a(bytes, len);
	free(bytes);
	rc = 0;
out:
	ydoc_release(&doc);
	if (rc)
		sweep_spec_release(s);
	return rc;
}

void sweep_spec_release(struct sweep_spec *s)
{
	size_t i;
	for (i = 0; i < s->noptions; i++)
		free(s->options[i]);
	for (i = 0; i < s->nparams; i++)
		free(s->params[i].values);
	free(s->options);
	free(s->params);
	free(s->file);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
