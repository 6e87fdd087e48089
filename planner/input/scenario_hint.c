/*
 * scenario_hint.c - the hint for a compute ask a little above a MIG
 * profile's share: an ask within 20% above a share may be "one slice"
 * written as 1/7 or 0.14 where the profile computes with 16 of 132 SMs
 * (0.121), and it takes the next larger profile, at up to twice the GPUs;
 * one less than 1% above is almost always a rounded fraction.  The hint
 * names the share and the fraction to write.  docs/formats.md "Checks
 * across files" gives the rule.
 */
#include <stdlib.h>

#include "mig.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

#define HINT_EPS 1e-9	/* the fit tolerance every compute comparison uses */

/* The profile of g whose share w's ask misses by the least (relative), below within; NULL if none. */
static const struct mig_profile *near_profile(const struct gpu_type *g, const struct workload *w, double within,
					      double *miss)
{
	const struct mig_profile *best = NULL;
	size_t i;

	for (i = 0; i < g->mig.nprofiles; i++) {
		const struct mig_profile *p = &g->mig.profiles[i];
		double share = mig_profile_share(g, p), rel = (w->compute - share) / share;
		if (p->media_ext || w->compute <= share + HINT_EPS || rel >= within)
			continue;
		if (!best || rel < *miss) {
			best = p;
			*miss = rel;
		}
	}
	return best;
}

char *scenario_compute_hint(const struct scenario *sc, const struct workload *w, double within)
{
	const struct inventory *inv = &sc->inventory;
	char ask[64], share[64], pct[32];
	size_t i;

	if (w->gpus != 0 || !(w->modes & (MODE_BIT(MODE_MIG) | MODE_BIT(MODE_MIG_VGPU))))
		return NULL;
	for (i = 0; i < inv->n; i++) {
		const struct gpu_type *g = inv->classes[i].gpu;
		const struct mig_profile *p;
		double miss = 0, s;
		if (!g->has_mig || !scenario_class_allows(&inv->classes[i], w))
			continue;
		p = near_profile(g, w, within, &miss);
		if (!p)
			continue;
		s = mig_profile_share(g, p);
		fmt_num_short(ask, sizeof(ask), w->compute, 6);
		fmt_num_short(share, sizeof(share), s, 6);
		fmt_num_short(pct, sizeof(pct), miss * 100.0, 2);
		if (mig_profile_share_from_sms(g, p))
			return xasprintf("workload '%s' asks compute %s, %s%% more than the %s a %s of %s gives "
					 "(%d of its %d SMs): it takes a larger profile; write %d/%d for exactly that share",
					 w->name, ask, pct, share, p->name, g->id, p->sms, g->sms, p->sms, g->sms);
		return xasprintf("workload '%s' asks compute %s, %s%% more than the %s a %s of %s gives "
				 "(%d of %d slices%s): it takes a larger profile; write %d/%d for exactly that share",
				 w->name, ask, pct, share, p->name, g->id, p->compute_slices, g->mig.compute_slices,
				 ", assumed: no SM count read", p->compute_slices, g->mig.compute_slices);
	}
	return NULL;
}
