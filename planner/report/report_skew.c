/*
 * report_skew.c - the ScheduleAnyway spreads a plan goes past
 * (verify_spread_skews): summary.csv's spread_skew_exceeded_<workload>
 * rows, their keys in plan.json's summary, and the warnings plan prints.
 * Kubernetes only prefers such a spread, so the planner puts no cap on
 * it; these say where the plan and the preference part.
 */
#include <cJSON.h>
#include <stdlib.h>

#include "report_docs.h"
#include "verify.h"
#include "util.h"
#include "banned.h"

#define SKEW_KEY "spread_skew_exceeded_"

void report_skew_summary(struct docs *dc, cJSON *s, const struct plan_result *r)
{
	struct spread_skew *sk;
	size_t n = verify_spread_skews(r->final, &sk), i;

	for (i = 0; i < n; i++) {
		char *key = xasprintf(SKEW_KEY "%s", r->final->p->demands[sk[i].d].w->name);
		sb_add_csv(&dc->summary, key);	/* a name from input: quoted and neutralised as any cell */
		sb_addf(&dc->summary, ",%ld\n", sk[i].skew);
		cJSON_AddNumberToObject(s, key, (double)sk[i].skew);
		free(key);
	}
	verify_spread_skews_free(sk, n);
}

size_t report_skew_warnings(const struct plan_result *r, char ***msgs)
{
	const struct cplan *cp = r->final;
	struct spread_skew *sk;
	size_t n = verify_spread_skews(cp, &sk), i;

	*msgs = n ? xcalloc(n, sizeof(**msgs)) : NULL;
	for (i = 0; i < n; i++) {
		const struct workload *w = cp->p->demands[sk[i].d].w;
		const char *kind = spread_name(w->spread);
		(*msgs)[i] = xasprintf("%s:%ld: workload '%s' is planned with skew %ld, past its spread %s max_skew %d "
				       "(ScheduleAnyway: Kubernetes prefers the spread, it does not enforce it): "
				       "%s '%s' holds %ld replica%s, the emptiest eligible %s %ld",
				       cp->p->sc->workloads.file, w->line, w->name, sk[i].skew, kind, w->max_skew, kind,
				       sk[i].domain, sk[i].top, sk[i].top == 1 ? "" : "s", kind, sk[i].min);
	}
	verify_spread_skews_free(sk, n);
	return n;
}
