/*
 * scenario_plausible.c - warnings for values far outside what real
 * deployments use, each with its range and where the range comes from
 * (docs/formats.md, "Plausible ranges"): a tariff given in cents
 * (energy.usd_per_kwh: 12) multiplies the energy cost by a hundred, a
 * node's price per hour given per month or per year fills the fleet with
 * what it cannot afford, and nothing else would say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "util.h"
#include "banned.h"

/*
 * Electricity: U.S. state averages of the price to ultimate customers ran
 * from 6.04 (Iowa, industrial) to 32.28 (Connecticut, residential) cents
 * per kWh in April 2025 (EIA, Electric Power Monthly, table 5.6.A; its
 * release in docs/formats.md).  The band is a third of the lowest to three
 * times the highest (assumed: a margin for other countries and contracts),
 * so what it flags is a unit slip, not a dear tariff.
 */
#define KWH_LO 0.02
#define KWH_HI 1.0
#define KWH_SOURCE "U.S. state averages 0.06 to 0.32 USD/kWh, EIA Electric Power Monthly table 5.6.A, April 2025"

/*
 * A GPU-hour: the band is a tenth of the cheapest to ten times the dearest
 * price per GPU-hour of the bundled cloud offers (models/clouds.yaml, each
 * with its source and date), so that a price per month or per node-year
 * given as per hour stands out.
 */
#define GPU_HOUR_MARGIN 10.0

struct notes {
	char **v;
	size_t n;
	double lo, hi;	/* the bundled offers' cheapest and dearest price per GPU-hour */
};

static void note(struct notes *ns, char *msg)
{
	ns->v = xrealloc(ns->v, (ns->n + 1) * sizeof(*ns->v));
	ns->v[ns->n++] = msg;
}

static int user_offer(const struct scenario *sc, const struct cloud_offer *of)
{
	size_t i;
	for (i = 0; i < sc->noffer_files; i++)
		if (of->file && !strcmp(of->file, sc->offer_files[i]))
			return 1;
	return 0;
}

/* The bundled offers' cheapest and dearest price per GPU-hour: 0 when there is none. */
static int gpu_hour_band(const struct scenario *sc, double *lo, double *hi)
{
	size_t i;
	int have = 0;

	for (i = 0; i < sc->clouds.n; i++) {
		const struct cloud_offer *of = &sc->clouds.offers[i];
		double h = of->gpus > 0 ? cloud_offer_hourly(of) / of->gpus : 0;
		if (user_offer(sc, of) || h <= 0)
			continue;
		*lo = have && *lo < h ? *lo : h;
		*hi = have && *hi > h ? *hi : h;
		have = 1;
	}
	return have;
}

static void check_gpu_hour(struct notes *ns, const char *file, long line, const char *what, double usd)
{
	double lo = ns->lo, hi = ns->hi;

	if (usd <= 0 || (usd >= lo / GPU_HOUR_MARGIN && usd <= hi * GPU_HOUR_MARGIN))
		return;
	note(ns, xasprintf("%s:%ld: %s costs %.4g USD per GPU-hour, outside %.3g to %.3g USD, a tenth of the cheapest to "
			   "ten times the dearest bundled cloud offer (models/clouds.yaml, %.3g to %.3g): a price per "
			   "%s?", file, line, what, usd, lo / GPU_HOUR_MARGIN, hi * GPU_HOUR_MARGIN, lo, hi,
			   usd > hi ? "month or year given per hour" : "hour given per GPU-second or in another unit"));
}

static void check_prices(const struct scenario *sc, struct notes *ns)
{
	size_t i;

	if (!gpu_hour_band(sc, &ns->lo, &ns->hi))
		return;
	for (i = 0; i < sc->inventory.n; i++) {
		const struct node_class *nc = &sc->inventory.classes[i];
		char *what;
		if (nc->own != OWN_RENT || nc->offer || nc->gpus_per_node <= 0)
			continue;
		what = xasprintf("node class '%s' (hourly_usd %.10g for %d GPUs)", nc->name, nc->hourly_usd,
				 nc->gpus_per_node);
		check_gpu_hour(ns, sc->inventory.file, nc->line, what, nc->hourly_usd / nc->gpus_per_node);
		free(what);
	}
	for (i = 0; i < sc->clouds.n; i++) {
		const struct cloud_offer *of = &sc->clouds.offers[i];
		char *what;
		if (!user_offer(sc, of) || of->gpus <= 0)
			continue;
		what = xasprintf("cloud offer '%s'", of->id);
		check_gpu_hour(ns, of->file, of->line, what, cloud_offer_hourly(of) / of->gpus);
		free(what);
	}
}

size_t scenario_implausible(const struct scenario *sc, char ***out)
{
	struct notes ns = { NULL, 0, 0, 0 };
	double kwh = sc->energy_usd_per_kwh;
	char *resil = scenario_resilience_warning(sc);

	if (resil)	/* a floor no workload reaches: the headroom guards nothing */
		note(&ns, resil);
	if (kwh > 0 && (kwh < KWH_LO || kwh > KWH_HI))
		note(&ns, xasprintf("%s:%ld: energy.usd_per_kwh %g is outside %g to %g USD/kWh (%s)%s", sc->file,
				    sc->energy_line, kwh, KWH_LO, KWH_HI, KWH_SOURCE,
				    kwh > KWH_HI ? ": cents given as dollars?" : ""));
	check_prices(sc, &ns);
	*out = ns.v;
	return ns.n;
}
