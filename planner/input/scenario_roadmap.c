/*
 * scenario_roadmap.c - the scenario's roadmap: block (docs/formats.md,
 * "Scenario roadmap:").  The fields agreed for later versions
 * (growth_by_workload, commitment_tail, licence_terms) are refused by
 * name rather than read and ignored, so a file that relies on them fails
 * loudly.
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

int scenario_roadmap_load(struct scenario *sc, const struct ydoc *doc, const char *dir, struct diag *d)
{
	static const char *const keys[] = { "period", "start", "periods", "forecast", "growth_per_year",
					    "growth_by_workload", "lead_time_weeks", "buy_before_start", "discount_rate",
					    "residual", "commitment_tail", "licence_terms", "source", NULL };
	static const char *const later[] = { "growth_by_workload", "commitment_tail", "licence_terms", NULL };
	static const char *const residuals[] = { "book", "none", NULL };
	const struct ynode *m = ymap_get(doc->root, "roadmap"), *n;
	struct scenario_roadmap *R = &sc->roadmap;
	struct yread y;
	const char *s;
	size_t i;

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
	for (i = 0; later[i]; i++)
		if ((n = ymap_get(m, later[i])))
			return ydoc_error(doc, n, d, "field '%s' is planned (docs/formats.md) but not read by this gpuplan yet",
					  later[i]);
	if (read_periods(&y, sc, R) || read_forecast(&y, sc, R) ||
	    yread_num(&y, "growth_per_year", 0, (struct num_range){ -1, 10, RANGE_LO_OPEN }, &R->growth_per_year) < 0 ||
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
	if (yread_nonblank(&y, "source", 0, &s) < 0)
		return -1;
	if (ymap_get(m, "source"))
		R->source = xstrdup(s);
	R->lead_time_given = ymap_get(m, "lead_time_weeks") != NULL;
	if (!R->source && (R->lead_time_given || ymap_get(m, "discount_rate")))
		return ydoc_error(doc, m, d, "roadmap sets %s: say where it comes from in 'source'",
				  R->lead_time_given ? "lead_time_weeks" : "discount_rate");
	return 0;
}
