/*
 * pricing.c - yearly prices of nodes, GPUs and licences per node class.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pricing.h"
#include "util.h"
#include "banned.h"

#define EPS 1e-9
/* A number as short text, in a buffer that lives to the end of the enclosing block. */
#define NUM(v) fmt_num_short((char[64]){ 0 }, 64, (v), 4)

static const char *const cat_names[] = { "hardware", "cloud", "energy", "hypervisor", "license_vcs",
					 "license_nvaie" };

const char *cost_cat_name(enum cost_cat c)
{
	return (unsigned)c < CAT_COUNT ? cat_names[c] : "?";
}

enum cost_cat cost_cat_of_product(enum lic_product p)
{
	return p == LIC_VCS ? CAT_LIC_VCS : CAT_LIC_NVAIE;
}

void pricing_assume(struct pricing *pr, int cat, int mode, const char *what, const char *source)
{
	char *key = xasprintf("%s\n%s", what, source);
	size_t i = pr->nassumptions, old;

	if (strmap_add(&pr->assumed, key, i, &old)) {
		free(key);
		return;
	}
	if (!(i & (i - 1))) { /* 0, 1, 2, 4, ...: double the room */
		pr->assumptions = xrealloc(pr->assumptions, (i ? 2 * i : 1) * sizeof(*pr->assumptions));
		pr->assumed_keys = xrealloc(pr->assumed_keys, (i ? 2 * i : 1) * sizeof(*pr->assumed_keys));
	}
	pr->assumed_keys[i] = key;
	pr->assumptions[i].what = xstrdup(what);
	pr->assumptions[i].source = xstrdup(source);
	pr->assumptions[i].cat = cat;
	pr->assumptions[i].mode = mode;
	pr->nassumptions++;
}

/* Length of [a0, a1) within [b0, b1). */
static double overlap(double a0, double a1, double b0, double b1)
{
	double lo = fmax(a0, b0), hi = fmin(a1, b1);
	return hi > lo ? hi - lo : 0;
}

/* Spreads usd_per_year evenly over [from, to) of the horizon into year[]. */
static void accrue(const struct pricing *pr, double *year, double usd_per_year, double from, double to)
{
	int y;
	for (y = 0; y < pr->nyears; y++)
		year[y] += usd_per_year * overlap(y, y + 1, from, to);
}

static double sum(const double *v, int n)
{
	double s = 0;
	int i;
	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* A models file as reports name it: "licenses.yaml", whatever directory it was read from. */
static const char *model_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static char *term_source(const struct licenses *L, const struct lic_term *t)
{
	return xasprintf("%s:%ld: %s", model_file(L->file), t->line, t->source);
}

/*
 * Cheapest sequence of subscription terms covering `need` whole years,
 * charged at the start of each term from year `start`.  Returns -1 when the
 * product has no subscription term.
 */
static int cover_subscription(struct pricing *pr, const struct licenses *L, enum lic_product p, int start,
			      int need, struct lic_price *lp)
{
	const struct lic_product_def *pd = &L->product[p];
	double best[PRICING_MAX_YEARS + 1];
	int pick[PRICING_MAX_YEARS + 1];
	struct sb name;
	size_t t;
	int y;

	best[0] = 0;
	for (y = 1; y <= need; y++) {
		best[y] = HUGE_VAL;
		pick[y] = -1;
		for (t = 0; t < pd->nterms; t++) {
			const struct lic_term *lt = &pd->terms[t];
			int from = y - lt->years < 0 ? 0 : y - lt->years;
			if (lt->kind != TERM_SUBSCRIPTION || best[from] == HUGE_VAL)
				continue;
			/* strictly cheaper, or as cheap with fewer purchases (a longer term) */
			if (best[from] + lt->usd_per_gpu < best[y] - EPS ||
			    (fabs(best[from] + lt->usd_per_gpu - best[y]) <= EPS && pick[y] >= 0 &&
			     lt->years > pd->terms[pick[y]].years)) {
				best[y] = best[from] + lt->usd_per_gpu;
				pick[y] = (int)t;
			}
		}
		if (pick[y] < 0)
			return -1;
	}
	/* walk back: the terms in purchase order are the reverse of the walk */
	{
		int seq[PRICING_MAX_YEARS], n = 0, i, at = start;
		for (y = need; y > 0;) {
			const struct lic_term *lt = &pd->terms[pick[y]];
			seq[n++] = pick[y];
			y = y - lt->years < 0 ? 0 : y - lt->years;
		}
		sb_init(&name);
		for (i = n - 1; i >= 0; i--) {
			const struct lic_term *lt = &pd->terms[seq[i]];
			char *src = term_source(L, lt);
			if (at < pr->nyears)
				lp->year[at] += lt->usd_per_gpu;
			at += lt->years;
			if (!name.len || strcmp(lp->term->id, lt->id))
				sb_addf(&name, "%s%s", name.len ? "+" : "", lt->id);
			lp->term = lt;
			if (!lp->oldest || lt->as_of < lp->oldest->as_of)
				lp->oldest = lt;
			if (lt->assumed) {
				char *what = xasprintf("%s %s at %s USD per GPU (assumed)", lic_product_id(p), lt->id,
						       NUM(lt->usd_per_gpu));
				pricing_assume(pr, cost_cat_of_product(p), -1, what, src);
				free(what);
			}
			free(src);
		}
		if (!name.len)
			sb_adds(&name, "none");
		lp->term_id = sb_detach(&name);
		sb_release(&name);
	}
	return 0;
}

/*
 * Fills lp with one licence of p on class nc under the term kind
 * ("cloud-hourly", "subscription", "perpetual"), from year B (bundled
 * years) to the horizon.  Fails when the licence table lacks the term.
 */
static int price_term(struct pricing *pr, const struct node_class *nc, enum lic_product p, const char *kind,
		      struct lic_price *lp, struct diag *d)
{
	const struct scenario *sc = pr->sc;
	const struct scenario_licensing *S = &sc->licensing;
	const struct licenses *L = &sc->licenses;
	double H = sc->horizon_years;
	int B = lp->bundled_years, need = (int)ceil(H - B - EPS), y;

	if (!strcmp(kind, "cloud-hourly")) {
		size_t t;
		for (t = 0; t < L->product[p].nterms; t++)
			if (L->product[p].terms[t].kind == TERM_HOURLY)
				break;
		if (t == L->product[p].nterms)
			return diag_set(d, DIAG_INPUT, sc->file, S->line, 0,
					"licence product '%s' has no hourly term in %s (class '%s' is in a cloud)",
					lic_product_id(p), L->file, nc->name);
		lp->term = &L->product[p].terms[t];
		lp->oldest = lp->term;
		lp->term_id = xstrdup(lp->term->id);
		accrue(pr, lp->year, lp->term->usd_per_gpu_hour * HOURS_PER_YEAR, B, H);
	} else if (!strcmp(kind, "subscription")) {
		if (cover_subscription(pr, L, p, B, need, lp))
			return diag_set(d, DIAG_INPUT, sc->file, S->line, 0,
					"licence product '%s' has no subscription term in %s", lic_product_id(p), L->file);
	} else {
		size_t t;
		const struct lic_term *lt = NULL;
		for (t = 0; t < L->product[p].nterms; t++)
			if (L->product[p].terms[t].kind == TERM_PERPETUAL)
				lt = &L->product[p].terms[t];
		if (!lt)
			return diag_set(d, DIAG_INPUT, sc->file, S->line, 0,
					"licence product '%s' has no perpetual term in %s", lic_product_id(p), L->file);
		lp->term = lt;
		lp->oldest = lt;
		lp->term_id = xstrdup(lt->id);
		if (B < pr->nyears)
			lp->year[B] += lt->usd_per_gpu;
		if (need > lt->years) {
			char *what, *src;
			if (S->support_usd_per_gpu_year < 0)
				return diag_set(d, DIAG_INPUT, sc->file, S->line, 0,
						"perpetual %s licences include %d years of support but class '%s' needs %d: "
						"set licensing.support_usd_per_gpu_year (NVIDIA's renewal price is not public)",
						lic_product_id(p), lt->years, nc->name, need);
			for (y = B + lt->years; y < B + need && y < pr->nyears; y++)
				lp->year[y] += S->support_usd_per_gpu_year;
			what = xasprintf("perpetual support at %s USD per GPU-year, set by the scenario",
					 NUM(S->support_usd_per_gpu_year));
			src = xasprintf("%s:%ld: %s", model_file(sc->file), S->line, S->source);
			pricing_assume(pr, cost_cat_of_product(p), -1, what, src);
			free(what);
			free(src);
		}
		if (lt->assumed) {
			char *src = term_source(L, lt);
			pricing_assume(pr, cost_cat_of_product(p), -1, "perpetual licence price (assumed)", src);
			free(src);
		}
	}
	lp->total = sum(lp->year, pr->nyears);
	return 0;
}

/*
 * A cloud class's licence when licensing.cloud_term is auto: the
 * cheaper over the horizon of the marketplace hourly price (the node is
 * rented for the whole horizon, so 8760 licence-hours a year) and a
 * subscription brought to the instance (BYOL), listed as an assumption.
 */
static int price_cloud_auto(struct pricing *pr, const struct node_class *nc, enum lic_product p,
			    struct lic_price *lp, struct diag *d)
{
	struct lic_price h = *lp, b = *lp;
	struct diag dh = DIAG_INIT, db = DIAG_INIT;
	int have_h = !price_term(pr, nc, p, "cloud-hourly", &h, &dh);
	int have_b = !price_term(pr, nc, p, "subscription", &b, &db);
	const struct lic_price *win, *lose;
	char *what, *src;

	diag_release(&dh);
	diag_release(&db);
	if (!have_h && !have_b)
		return price_term(pr, nc, p, "cloud-hourly", lp, d);
	win = !have_h ? &b : !have_b ? &h : b.total <= h.total + EPS ? &b : &h;
	lose = win == &b ? &h : &b;
	if (have_h && have_b)
		what = xasprintf("%s on cloud class %s: %s %s (%s USD per GPU over the horizon), cheaper than %s "
				 "(%s USD); set licensing.cloud_term to choose", lic_product_id(p), nc->name,
				 win == &b ? "bring-your-own" : "marketplace", win->term_id, NUM(win->total),
				 lose == &b ? "bring-your-own" : "the marketplace's", NUM(lose->total));
	else
		what = xasprintf("%s on cloud class %s: %s %s, the only term the licence table has", lic_product_id(p),
				 nc->name, win == &b ? "bring-your-own" : "marketplace", win->term_id);
	src = xasprintf("%s:%ld: licensing.cloud_term auto (default)", model_file(pr->sc->file), pr->sc->licensing.line);
	pr->named = 1;
	pricing_assume(pr, cost_cat_of_product(p), -1, what, src);
	free(what);
	free(src);
	free(lose->term_id);
	*lp = *win;
	return 0;
}

/* Fills lp: one licence of p on class nc over the horizon. */
static int price_licence(struct pricing *pr, const struct node_class *nc, enum lic_product p,
			 struct lic_price *lp, struct diag *d)
{
	const struct scenario *sc = pr->sc;
	const struct scenario_licensing *S = &sc->licensing;
	const struct licenses *L = &sc->licenses;
	const char *kind = nc->hv == HV_CLOUD ? S->cloud_term : S->term;
	const struct lic_bundle *bundle = NULL;
	double H = sc->horizon_years;
	int B;

	if (lp->term_id)
		return 0; /* priced already */
	B = nc->bundle_years >= 0 ? nc->bundle_years
				  : nc->own == OWN_BUY ? licenses_bundle_years(L, LIC_NVAIE, nc->gpu, &bundle) : 0;
	lp->bundled_years = B;
	if (B > 0) {
		char *what = xasprintf("%s: %d year%s of NVAIE bundled with each %s%s", nc->name, B, B == 1 ? "" : "s",
				       nc->gpu->id, bundle && bundle->assumed ? " (assumed)" : "");
		char *src = bundle ? xasprintf("%s:%ld: %s", model_file(L->file), bundle->line, bundle->source)
				   : xasprintf("%s:%ld: column nvaie_bundle_years", sc->inventory.file, nc->line);
		pr->named = 1;
		pricing_assume(pr, cost_cat_of_product(p), -1, what, src);
		free(what);
		free(src);
	}
	if (H <= B + EPS) {
		lp->term_id = xstrdup("bundled");
		return 0;
	}
	if (S->usd_per_gpu_year[p] >= 0) {
		char *what = xasprintf("%s at %s USD per GPU-year, set by the scenario", lic_product_id(p),
				       NUM(S->usd_per_gpu_year[p]));
		char *src = xasprintf("%s:%ld: %s", model_file(sc->file), S->line, S->source);
		pricing_assume(pr, cost_cat_of_product(p), -1, what, src);
		free(what);
		free(src);
		accrue(pr, lp->year, S->usd_per_gpu_year[p], B, H);
		lp->term_id = xstrdup("scenario-price");
		lp->total = sum(lp->year, pr->nyears);
		return 0;
	}
	if (!L->product[p].present)
		return diag_set(d, DIAG_INPUT, L->file, 0, 0, "licence product '%s' is needed but not defined",
				lic_product_id(p));
	if (!strcmp(kind, "auto")) {
		if (price_cloud_auto(pr, nc, p, lp, d))
			return -1;
	} else if (price_term(pr, nc, p, kind, lp, d)) {
		return -1;
	}
	lp->total = sum(lp->year, pr->nyears);
	return 0;
}

/*
 * The product a mode takes on this class: the scenario's choice if
 * allowed, else NVAIE, else vCS.  (A VM workload on a passthrough GPU
 * carries NVAIE per replica unless licensing.passthrough_vm is
 * unlicensed: problem_passthrough_nvaie.)
 */
static enum lic_product mode_product(const struct scenario *sc, enum gpu_mode m, enum hypervisor hv)
{
	const struct lic_rule *r = licenses_rule(&sc->licenses, m, hv);
	if (!r || !r->products)
		return LIC_NONE;
	if (r->products & (1u << sc->licensing.vgpu_product))
		return sc->licensing.vgpu_product;
	return (r->products & (1u << LIC_NVAIE)) ? LIC_NVAIE : LIC_VCS;
}

static void note_rules(struct pricing *pr, const struct node_class *nc)
{
	const struct licenses *L = &pr->sc->licenses;
	int m;

	if (hypervisor_is_vm_host(nc->hv) && pr->sc->licensing.passthrough_vm_unlicensed) {
		char *src = xasprintf("%s:%ld: licensing.passthrough_vm", model_file(pr->sc->file),
				      pr->sc->licensing.line);
		pricing_assume(pr, -1, MODE_PASSTHROUGH,
			       "VM workloads on passthrough GPUs run no NVAIE software, so they need no licence "
			       "(licensing.passthrough_vm: unlicensed; the default counts one per GPU)", src);
		free(src);
	}
	for (m = 0; m < MODE_COUNT; m++) {
		const struct lic_rule *r = licenses_rule(L, (enum gpu_mode)m, nc->hv);
		char *what, *src;
		if (!r || !r->assumed)
			continue;
		what = xasprintf("%s needs %s", mode_name((enum gpu_mode)m), r->products ? "a licence" : "no licence");
		src = xasprintf("%s:%ld: %s", model_file(L->file), r->line, r->source);
		pricing_assume(pr, -1, m, what, src);
		free(what);
		free(src);
	}
}

/*
 * A rented node on a committed term (reserved, savings plan): its upfront
 * payment is spread evenly over the hours of its term, and a term longer
 * than the horizon is charged only for the horizon's years.  Both said.
 */
static void note_term(struct pricing *pr, const struct cloud_offer *of)
{
	char *what, *src = xasprintf("%s:%ld: %s", model_file(of->file), of->line, of->source);

	if (of->upfront_usd > 0)
		what = xasprintf("cloud offer %s: %d-year %s, %s USD upfront amortised over its %d year%s "
				 "(%s USD per hour) + %s USD per hour",
				 of->id, of->term_years, offer_pricing_name(of->pricing), NUM(of->upfront_usd),
				 of->term_years, of->term_years == 1 ? "" : "s",
				 NUM(of->upfront_usd / (of->term_years * HOURS_PER_YEAR)),
				 NUM(of->usd_per_hour));
	else
		what = xasprintf("cloud offer %s: %d-year %s at %s USD per hour, no upfront", of->id,
				 of->term_years, offer_pricing_name(of->pricing), NUM(of->usd_per_hour));
	pricing_assume(pr, CAT_CLOUD, -1, what, src);
	free(what);
	if (of->term_years > pr->sc->horizon_years + 1e-9) {
		what = xasprintf("cloud offer %s commits to %d years, longer than the %s-year horizon: "
				 "the years past the horizon are not counted",
				 of->id, of->term_years, NUM(pr->sc->horizon_years));
		pricing_assume(pr, CAT_CLOUD, -1, what, src);
		free(what);
	}
	free(src);
}

static void price_node(struct pricing *pr, const struct node_class *nc, struct class_price *cp)
{
	const struct scenario *sc = pr->sc;
	double H = sc->horizon_years;
	double kwh_usd = sc->pue * sc->energy_usd_per_kwh * HOURS_PER_YEAR / 1000.0;
	const struct hypervisor_cost *hc = &sc->hv_cost[nc->hv];
	int y;

	switch (nc->own) {
	case OWN_BUY:
		accrue(pr, cp->node_year[CAT_HARDWARE], nc->capex_usd / nc->amortization_years, 0,
		       fmin(H, nc->amortization_years));
		break;
	case OWN_RENT:
		accrue(pr, cp->node_year[CAT_CLOUD], nc->hourly_usd * HOURS_PER_YEAR, 0, H);
		break;
	default:
		break; /* owned: sunk */
	}
	/* Rented nodes' power is in their price. */
	if (nc->own != OWN_RENT) {
		double idle_w = (double)nc->gpus_per_node * nc->gpu->tdp_w * sc->gpu_idle_factor;
		double active_w = nc->gpu->tdp_w * (sc->gpu_load_factor - sc->gpu_idle_factor);
		accrue(pr, cp->node_year[CAT_ENERGY], (nc->base_power_w + idle_w) * kwh_usd, 0, H);
		accrue(pr, cp->gpu_active_year, active_w * kwh_usd, 0, H);
		if (sc->energy_usd_per_kwh > 0 && nc->gpu->tdp_w <= 0) {
			char *what = xasprintf("%s has no sourced TDP: its GPUs' energy is not priced", nc->gpu->id);
			pricing_assume(pr, CAT_ENERGY, -1, what, "models/gpus.yaml");
			free(what);
		}
	}
	if (hc->usd_per_node_year > 0 || hc->usd_per_core_year > 0) {
		char *what = xasprintf("%s: %s USD per node-year + %s USD per core-year", hypervisor_name(nc->hv),
				       NUM(hc->usd_per_node_year),
				       NUM(hc->usd_per_core_year));
		char *src = xasprintf("%s:%ld: %s", model_file(sc->file), hc->line, hc->source);
		accrue(pr, cp->node_year[CAT_HYPERVISOR], hc->usd_per_node_year + hc->usd_per_core_year * nc->cpu_cores,
		       0, H);
		pricing_assume(pr, CAT_HYPERVISOR, -1, what, src);
		free(what);
		free(src);
	}
	if (nc->offer && nc->offer->assumed) {
		char *what = xasprintf("cloud offer %s at %s USD per hour", nc->offer->id,
				       NUM(nc->offer->usd_per_hour));
		char *src = xasprintf("%s:%ld: %s", model_file(nc->offer->file), nc->offer->line, nc->offer->source);
		pricing_assume(pr, CAT_CLOUD, -1, what, src);
		free(what);
		free(src);
	}
	if (nc->offer && nc->offer->term_years > 0)
		note_term(pr, nc->offer);
	cp->node_total = 0;
	for (y = 0; y < CAT_COUNT; y++)
		cp->node_total += sum(cp->node_year[y], pr->nyears);
	cp->gpu_active_total = sum(cp->gpu_active_year, pr->nyears);
}

static void price_free(struct class_price *cp)
{
	int p;
	if (!cp)
		return;
	for (p = 0; p < LIC_COUNT; p++)
		free(cp->lic[p].term_id);
	free(cp);
}

/* Prices one class into cp (zeroed). */
static int price_class(struct pricing *pr, const struct node_class *nc, struct class_price *cp, int want_nvaie,
		       struct diag *d)
{
	unsigned allowed = node_class_modes(nc);
	int m;

	price_node(pr, nc, cp);
	note_rules(pr, nc);
	for (m = 0; m < MODE_COUNT; m++) {
		cp->mode_product[m] = (allowed & MODE_BIT(m)) ? mode_product(pr->sc, (enum gpu_mode)m, nc->hv) : LIC_NONE;
		if (cp->mode_product[m] != LIC_NONE &&
		    price_licence(pr, nc, cp->mode_product[m], &cp->lic[cp->mode_product[m]], d))
			return -1;
	}
	if (want_nvaie && price_licence(pr, nc, LIC_NVAIE, &cp->lic[LIC_NVAIE], d))
		return -1;
	return 0;
}

/*
 * What the price of a class depends on, as text: classes with the same key
 * cost the same (a class's name and row only reach assumptions, and those
 * set pr->named).
 */
static void class_key(const struct node_class *nc, char *buf, size_t len)
{
	snprintf(buf, len, "%d %a %a %a %d %p %a %d %a %p %d %d", (int)nc->own, nc->capex_usd,
		 nc->amortization_years, nc->hourly_usd, nc->gpus_per_node, (const void *)nc->gpu, nc->base_power_w,
		 (int)nc->hv, nc->cpu_cores, (const void *)nc->offer, nc->bundle_years, nc->k8s_vgpu);
}

/*
 * Prices every class, once per key: a million rows of a few kinds of node
 * take a few prices, not a million (2.6 KB each).  A class whose pricing
 * named it in an assumption is priced again (for its assumption) and then
 * shares the first price of its key.
 */
static int price_classes(struct pricing *pr, int want_nvaie, struct diag *d)
{
	const struct inventory *inv = &pr->sc->inventory;
	struct strmap seen = STRMAP_INIT;
	char **keys = NULL;
	unsigned char *named = NULL;
	size_t cap = 0, kcap = 0, ncap = 0, k, u;
	int rc = 0;

	pr->nclasses = inv->n;
	pr->cls = xcalloc(inv->n ? inv->n : 1, sizeof(*pr->cls));
	for (k = 0; k < inv->n && !rc; k++) {
		struct class_price *cp;
		char key[256];
		int have;

		class_key(&inv->classes[k], key, sizeof(key));
		have = strmap_get(&seen, key, &u);
		if (have && !named[u]) {
			pr->cls[k] = pr->prices[u];
			continue;
		}
		cp = xcalloc(1, sizeof(*cp));
		pr->named = 0;
		rc = price_class(pr, &inv->classes[k], cp, want_nvaie, d);
		if (rc || have) {
			price_free(cp);
			pr->cls[k] = have ? pr->prices[u] : NULL;
			continue;
		}
		u = pr->nprices++;
		XGROW(pr->prices, cap, pr->nprices);
		XGROW(keys, kcap, pr->nprices);
		XGROW(named, ncap, pr->nprices);
		pr->prices[u] = cp;
		keys[u] = xstrdup(key);
		named[u] = (unsigned char)pr->named;
		strmap_add(&seen, keys[u], u, &u);
		pr->cls[k] = cp;
	}
	strmap_release(&seen);
	for (u = 0; u < pr->nprices; u++)
		free(keys[u]);
	free(keys);
	free(named);
	return rc;
}

int pricing_build(struct pricing *pr, const struct scenario *sc, struct diag *d)
{
	int want_nvaie = 0, y;
	size_t i;

	memset(pr, 0, sizeof(*pr));
	pr->sc = sc;
	pr->counting = sc->licensing.counting;
	pr->nyears = (int)ceil(sc->horizon_years - EPS);
	if (pr->nyears < 1)
		pr->nyears = 1;
	if (pr->nyears > PRICING_MAX_YEARS)
		pr->nyears = PRICING_MAX_YEARS;
	for (y = 0; y < pr->nyears; y++)
		pr->year_len[y] = overlap(y, y + 1, 0, sc->horizon_years);
	for (i = 0; i < sc->workloads.n; i++)
		want_nvaie |= sc->workloads.w[i].needs_nvaie ||
			      (sc->workloads.w[i].vm && !sc->licensing.passthrough_vm_unlicensed);
	if (sc->energy_usd_per_kwh > 0) {
		char *what = xasprintf("energy at %s USD/kWh, PUE %s, GPU load %s of TDP, idle %s of TDP",
				       NUM(sc->energy_usd_per_kwh),
				       NUM(sc->pue),
				       NUM(sc->gpu_load_factor),
				       NUM(sc->gpu_idle_factor));
		char *src = xasprintf("%s: %s", model_file(sc->file), sc->energy_source ? sc->energy_source : "energy (no source given)");
		pricing_assume(pr, CAT_ENERGY, -1, what, src);
		free(what);
		free(src);
	}
	if (pr->counting == COUNT_VGPU_SEAT) {
		char *src = xasprintf("%s:%ld: licensing.counting", model_file(sc->file), sc->licensing.line);
		pricing_assume(pr, -1, MODE_VGPU, "vGPU licences counted per seat (one per vGPU VM, as a licence "
				   "server leases them), not per physical GPU (NVIDIA's contractual rule)", src);
		pricing_assume(pr, -1, MODE_MIG_VGPU, "vGPU licences counted per seat (one per vGPU VM, as a licence "
				   "server leases them), not per physical GPU (NVIDIA's contractual rule)", src);
		free(src);
	}
	return price_classes(pr, want_nvaie, d);
}

void pricing_release(struct pricing *pr)
{
	size_t i;
	for (i = 0; i < pr->nprices; i++)
		price_free(pr->prices[i]);
	free(pr->prices);
	free(pr->cls);
	for (i = 0; i < pr->nassumptions; i++) {
		free(pr->assumptions[i].what);
		free(pr->assumptions[i].source);
		free(pr->assumed_keys[i]);
	}
	free(pr->assumptions);
	free(pr->assumed_keys);
	strmap_release(&pr->assumed);
	memset(pr, 0, sizeof(*pr));
}
