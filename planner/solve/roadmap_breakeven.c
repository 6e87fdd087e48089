/*
 * roadmap_breakeven.c - where buying beats renting (roadmap.h, struct
 * roadmap_breakeven): every buy row against every rent row of its GPU
 * type, priced for one period.
 */
#include <stdlib.h>
#include <string.h>

#include "roadmap_breakeven.h"
#include "util.h"
#include "banned.h"

#define EPS 1e-9

int roadmap_breakeven(struct roadmap_result *r, const double *lic_up, char *lic_source, struct diag *d)
{
	const struct inventory *inv = &r->sc->inventory;
	struct scenario s = *r->sc;
	struct pricing pr;
	size_t b, j;
	int p;

	s.horizon_years = 1.0 / r->ppy;
	for (p = 0; p < LIC_COUNT; p++)
		s.licensing.usd_per_gpu_year[p] = lic_up[p];
	if (!r->sc->licensing.source)
		s.licensing.source = lic_source;
	memset(&pr, 0, sizeof(pr));
	if (pricing_build(&pr, &s, d)) {
		pricing_release(&pr);
		return -1;
	}
	r->breakeven = xcalloc(inv->n * inv->n + 1, sizeof(*r->breakeven));
	for (b = 0; b < inv->n; b++)
		for (j = 0; j < inv->n && inv->classes[b].own == OWN_BUY; j++) {
			const struct class_price *cb = pr.cls[b], *cr = pr.cls[j];
			struct roadmap_breakeven *e = &r->breakeven[r->nbreakeven];
			double gb = inv->classes[b].gpus_per_node, gr = inv->classes[j].gpus_per_node, margin;
			if (inv->classes[j].own != OWN_RENT || inv->classes[j].gpu != inv->classes[b].gpu)
				continue;
			e->buy = b;
			e->rent = j;
			e->buy_fixed = cb->node_year[CAT_HARDWARE][0] / gb;
			e->buy_in_use = (cb->node_year[CAT_ENERGY][0] + cb->node_year[CAT_HYPERVISOR][0]) / gb +
					cb->gpu_active_total;
			e->rent_in_use = cr->node_total / gr + cr->gpu_active_total;
			margin = e->rent_in_use - e->buy_in_use;
			e->share = margin > EPS ? e->buy_fixed / margin : -1;
			r->nbreakeven++;
		}
	pricing_release(&pr);
	return 0;
}
