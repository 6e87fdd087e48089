/*
 * scenario_roadmap.c - the scenario's roadmap: block (docs/formats.md,
 * "Scenario roadmap:").  Licence term ids, quotes and the workloads of
 * growth_by_workload are read here and checked once the licence model and
 * the workloads are loaded (scenario_roadmap_check), at the position the
 * scenario gives them.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "forecast.h"
#include "scenario_roadmap.h"
#include "util.h"
#include "banned.h"

#define NUM(v) fmt_num_short((char[64]){ 0 }, 64, (v), 4)

static int read_start(const struct yread *y, struct scenario_roadmap *R)
{
	const struct ynode *n = ymap_get(y->map, "start");
	const char *s;
	int rc;

	if (!n)
		return 0;
	if (yread_nonblank(y, "start", 1, &s))
		return -1;
	rc = period_parse(s, R->period, &R->start);
	if (rc < 0)
		return ydoc_error(y->doc, n, y->d, "field 'start': '%s' is not %s", s, period_expected(R->period));
	if (rc > 0)
		return ydoc_error(y->doc, n, y->d, "field 'start': '%s' is a %s, but the roadmap plans in %ss", s,
				  R->period == PERIOD_MONTH ? "quarter" : "month", period_kind_name(R->period));
	R->have_start = 1;
	return 0;
}

static int read_forecast(const struct yread *y, struct scenario *sc, struct scenario_roadmap *R)
{
	const struct ynode *n = ymap_get(y->map, "forecast");
	const char *s;
	struct stat st;
	int fd;

	(void)sc;
	if (!n)
		return 0;
	if (yread_nonblank(y, "forecast", 1, &s))
		return -1;
	R->forecast = scenario_path_resolve(sc->file, s);
	fd = file_open_regular(R->forecast, SIZE_MAX, &st);
	if (fd < 0)
		return ydoc_error(y->doc, n, y->d, "cannot open forecast '%s': %s", R->forecast,
				  fd == FILE_READ_NOT_REGULAR ? "not a regular file" : strerror(errno));
	close(fd);
	return 0;
}

/* period, start, periods; then horizon_years must agree with them. */
static int read_periods(const struct yread *y, struct scenario *sc, struct scenario_roadmap *R)
{
	static const char *const kinds[] = { "quarter", "month", NULL };
	const struct ynode *n = ymap_get(y->map, "period");
	const struct ynode *h = ymap_get(y->doc->root, "horizon_years");
	long long np = 0;
	const char *s;
	int ppy, i;

	if (n) {
		if (yread_str(y, "period", 1, &s))
			return -1;
		for (i = 0; kinds[i] && strcmp(kinds[i], s); i++)
			;
		if (!kinds[i])
			return ydoc_error(y->doc, n, y->d, "field 'period': unknown value '%s' (expected month or quarter)", s);
		R->period = i ? PERIOD_MONTH : PERIOD_QUARTER;
	}
	ppy = period_per_year(R->period);
	if (read_start(y, R) || yread_int(y, "periods", 0, 1, (long long)ppy * ROADMAP_MAX_YEARS, &np) < 0)
		return -1;
	R->periods = (int)np;
	if (h && R->periods && fabs(sc->horizon_years - (double)R->periods / ppy) > 1e-9)
		return ydoc_error(y->doc, h, y->d, "field 'horizon_years': %s disagrees with the roadmap's %d %ss (%s years)",
				  NUM(sc->horizon_years), R->periods, period_kind_name(R->period),
				  NUM((double)R->periods / ppy));
	return 0;
}

/* licence_terms: a list of term ids. */
static int read_terms(const struct yread *y, struct scenario_roadmap *R)
{
	const struct ynode *n = ymap_get(y->map, "licence_terms");
	size_t i;

	if (!n)
		return 0;
	if (ynode_expect(y->doc, n, YN_SEQ, "licence_terms", y->d))
		return -1;
	if (!n->n)
		return ydoc_error(y->doc, n, y->d, "field 'licence_terms' is empty: name the terms to choose among");
	R->terms = xcalloc(n->n, sizeof(*R->terms));
	for (i = 0; i < n->n; i++) {
		const struct ynode *it = n->items[i];
		if (ynode_expect(y->doc, it, YN_SCALAR, "licence_terms item", y->d))
			return -1;
		R->terms[R->nterms++] = (struct roadmap_term_ref){ xstrdup(it->scalar), it->line, it->col };
	}
	return 0;
}

/* licence_quotes: a map "product/term" -> USD per GPU for the term. */
static int read_quotes(const struct yread *y, struct scenario_roadmap *R)
{
	const struct ynode *n = ymap_get(y->map, "licence_quotes");
	size_t i;

	if (!n)
		return 0;
	if (ynode_expect(y->doc, n, YN_MAP, "licence_quotes", y->d))
		return -1;
	R->quotes = xcalloc(n->n + 1, sizeof(*R->quotes));
	for (i = 0; i < n->n; i++) {
		const struct ynode *v = n->items[i];
		const char *slash = strchr(n->keys[i], '/');
		struct roadmap_quote *q = &R->quotes[R->nquotes];
		double x;
		if (!slash || slash == n->keys[i] || !slash[1])
			return ydoc_key_error(y->doc, n, i, y->d, "licence_quotes key '%s' is not PRODUCT/TERM "
					      "(e.g. nvaie/subscription-3y)", n->keys[i]);
		if (ynode_expect(y->doc, v, YN_SCALAR, n->keys[i], y->d))
			return -1;
		if (parse_double(v->scalar, &x) || x < 0 || x > 1e7)
			return ydoc_error(y->doc, v, y->d, "licence_quotes '%s': '%s' must be a price in [0, 10000000]",
					  n->keys[i], v->scalar);
		q->product = xstrndup(n->keys[i], (size_t)(slash - n->keys[i]));
		q->term = xstrdup(slash + 1);
		q->usd_per_gpu = x;
		q->line = n->key_line[i];
		q->col = n->key_col[i];
		R->nquotes++;
	}
	return 0;
}

/* growth_by_workload: a map workload -> share a year, each as growth_per_year. */
static int read_growth(const struct yread *y, struct scenario_roadmap *R)
{
	const struct ynode *n = ymap_get(y->map, "growth_by_workload");
	struct yread g;
	size_t i;

	if (!n)
		return 0;
	if (ynode_expect(y->doc, n, YN_MAP, "growth_by_workload", y->d))
		return -1;
	g = (struct yread){ y->doc, n, y->d };
	R->growth = xcalloc(n->n + 1, sizeof(*R->growth));
	for (i = 0; i < n->n; i++) {
		struct roadmap_growth *e = &R->growth[R->ngrowth];
		if (yread_num(&g, n->keys[i], 1, (struct num_range){ -1, 10, RANGE_LO_OPEN }, &e->per_year) < 0)
			return -1;
		e->workload = xstrdup(n->keys[i]);
		e->line = n->key_line[i];
		e->col = n->key_col[i];
		R->ngrowth++;
	}
	return 0;
}

/* commitment_tail, licence_terms, licence_quotes. */
static int read_commitments(const struct yread *y, struct scenario_roadmap *R)
{
	static const char *const tails[] = { "prorated", "charged", NULL };
	const struct ynode *n = ymap_get(y->map, "commitment_tail");
	const char *s;

	if (n) {
		if (yread_str(y, "commitment_tail", 1, &s))
			return -1;
		if (strcmp(s, "prorated") && strcmp(s, "charged"))
			return ydoc_unknown(y->doc, n, y->d, "commitment_tail", s, tails);
		R->tail_charged = !strcmp(s, "charged");
	}
	return read_terms(y, R) || read_quotes(y, R) ? -1 : 0;
}

/* Whether product p of L has a term with this id. */
static const struct lic_term *term_of(const struct licenses *L, int p, const char *id)
{
	return L->product[p].present ? licenses_term(L, (enum lic_product)p, id) : NULL;
}

/* The term ids of every product, each once, for a hint (a new NULL-terminated array of borrowed strings). */
static const char **all_term_ids(const struct licenses *L)
{
	size_t n = 0, i, j;
	int p;
	const char **ids;

	for (p = 0; p < LIC_COUNT; p++)
		n += L->product[p].present ? L->product[p].nterms : 0;
	ids = xcalloc(n + 1, sizeof(*ids));
	n = 0;
	for (p = 0; p < LIC_COUNT; p++)
		for (i = 0; L->product[p].present && i < L->product[p].nterms; i++) {
			for (j = 0; j < n && strcmp(ids[j], L->product[p].terms[i].id); j++)
				;
			if (j == n)
				ids[n++] = L->product[p].terms[i].id;
		}
	return ids;
}

static int workload_named(const struct workloads *wl, const char *name)
{
	size_t w;

	for (w = 0; w < wl->n && strcmp(wl->w[w].name, name); w++)
		;
	return w < wl->n;
}

int scenario_roadmap_check(const struct scenario *sc, struct diag *d)
{
	const struct scenario_roadmap *R = &sc->roadmap;
	const struct licenses *L = &sc->licenses;
	size_t i;
	int p, found;

	for (i = 0; i < R->nterms; i++) {
		const struct roadmap_term_ref *t = &R->terms[i];
		for (p = 0, found = 0; p < LIC_COUNT; p++)
			found |= term_of(L, p, t->id) != NULL;
		if (!found) {
			const char **ids = all_term_ids(L);
			char *hint = str_hint(t->id, ids);
			diag_set(d, DIAG_INPUT, sc->file, t->line, t->col, "unknown licence term '%s'%s", t->id, hint);
			free(hint);
			free(ids);
			return -1;
		}
	}
	for (i = 0; i < R->ngrowth; i++)
		if (!workload_named(&sc->workloads, R->growth[i].workload)) {
			char *hint = workloads_hint(&sc->workloads, R->growth[i].workload);
			diag_set(d, DIAG_INPUT, sc->file, R->growth[i].line, R->growth[i].col,
				 "unknown workload '%s' in growth_by_workload%s", R->growth[i].workload, hint);
			free(hint);
			return -1;
		}
	for (i = 0; i < R->nquotes; i++) {
		const struct roadmap_quote *q = &R->quotes[i];
		enum lic_product lp;
		if (lic_product_parse(q->product, &lp) || lp == LIC_NONE || !term_of(L, lp, q->term))
			return diag_set(d, DIAG_INPUT, sc->file, q->line, q->col,
					"licence_quotes: '%s/%s' is not a licence term of a product in licenses.yaml",
					q->product, q->term);
		if (term_of(L, lp, q->term)->kind == TERM_HOURLY)
			return diag_set(d, DIAG_INPUT, sc->file, q->line, q->col,
					"licence_quotes: '%s/%s' is hourly: quote a subscription or perpetual term", q->product,
					q->term);
	}
	return 0;
}

void scenario_roadmap_release(struct scenario_roadmap *R)
{
	size_t i;

	free(R->forecast);
	free(R->source);
	for (i = 0; i < R->nterms; i++)
		free(R->terms[i].id);
	free(R->terms);
	for (i = 0; i < R->nquotes; i++) {
		free(R->quotes[i].product);
		free(R->quotes[i].term);
	}
	free(R->quotes);
	for (i = 0; i < R->ngrowth; i++)
		free(R->growth[i].workload);
	free(R->growth);
}

int scenario_roadmap_load(struct scenario *sc, const struct ydoc *doc, const char *dir, struct diag *d)
{
	static const char *const keys[] = { "period", "start", "periods", "forecast", "growth_per_year",
					    "growth_by_workload", "lead_time_weeks", "buy_before_start", "discount_rate",
					    "residual", "commitment_tail", "licence_terms", "licence_quotes", "source",
					    NULL };
	static const char *const residuals[] = { "book", "none", NULL };
	const struct ynode *m = ymap_get(doc->root, "roadmap"), *n;
	struct scenario_roadmap *R = &sc->roadmap;
	struct yread y;
	const char *s;

	(void)dir;
	R->lead_time_weeks = 12;
	R->buy_before_start = 1;
	if (!m)
		return 0;
	if (ynode_expect(doc, m, YN_MAP, "roadmap", d) || ymap_check_keys(doc, m, keys, "roadmap", d))
		return -1;
	R->present = 1;
	R->line = m->line;
	y = (struct yread){ doc, m, d };
	if (read_periods(&y, sc, R) || read_forecast(&y, sc, R) ||
	    yread_num(&y, "growth_per_year", 0, (struct num_range){ -1, 10, RANGE_LO_OPEN }, &R->growth_per_year) < 0 ||
	    read_growth(&y, R) ||
	    yread_num(&y, "lead_time_weeks", 0, (struct num_range){ 0, 104, RANGE_CLOSED }, &R->lead_time_weeks) < 0 ||
	    yread_bool(&y, "buy_before_start", 0, &R->buy_before_start) < 0 ||
	    yread_num(&y, "discount_rate", 0, (struct num_range){ 0, 1, RANGE_HI_OPEN }, &R->discount_rate) < 0)
		return -1;
	if ((n = ymap_get(m, "residual"))) {
		if (yread_str(&y, "residual", 1, &s))
			return -1;
		if (strcmp(s, "book") && strcmp(s, "none"))
			return ydoc_unknown(doc, n, d, "residual", s, residuals);
		R->residual_none = !strcmp(s, "none");
	}
	if (read_commitments(&y, R) || yread_nonblank(&y, "source", 0, &s) < 0)
		return -1;
	if (ymap_get(m, "source"))
		R->source = xstrdup(s);
	R->lead_time_given = ymap_get(m, "lead_time_weeks") != NULL;
	if (!R->source && (R->lead_time_given || ymap_get(m, "discount_rate") || R->nquotes))
		return ydoc_error(doc, m, d, "roadmap sets %s: say where it comes from in 'source'",
				  R->lead_time_given	       ? "lead_time_weeks"
				  : ymap_get(m, "discount_rate") ? "discount_rate"
								 : "licence_quotes");
	return 0;
}
