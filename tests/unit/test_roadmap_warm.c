/*
 * test_roadmap_warm.c - the roadmap's warm start (roadmap_warm.h): the
 * bundled example's greedy plan carried over and rebuilt, as the seed of
 * the next plan, in a problem of the same scenario with the demand as it
 * was, lower and higher.  Each seeded plan must pass the verifier
 * (plan_run checks it), place every replica the carried plan placed that
 * the new demand still asks for, and the seed must be kept where the
 * demand is unchanged the plan kept must cost no more than the carried
 * plan (the seed is that plan rebuilt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "roadmap_warm.h"
#include "scenario.h"
#include "util.h"
#include "verify.h"

struct row {
	const char *name;
	long delta;		/* added to every workload's replicas (at least 1 left) */
	int same;		/* the demand is the carried plan's: no dearer than it */
};

/* The seeded plan itself (plan_run verifies only the plan it keeps) passes the verifier. */
static void seeded_ok(const struct row *t, const struct plan_result *r, struct rm_seed *sd)
{
	struct cplan s;
	struct diag d = DIAG_INIT;
	long placed = 0;
	size_t i;

	cplan_init(&s, &r->p);
	rm_seed_plan(&s, sd);
	CHECK(!verify_plan(&s, &d), "%s: seeded plan: %s", t->name, d.msg ? d.msg : "");
	for (i = 0; i < r->p.ndemands; i++)
		placed += s.placed[i];
	CHECK(placed > 0, "%s: the seeded plan places nothing", t->name);
	cplan_release(&s);
	diag_release(&d);
}

static void run_row(const struct row *t, struct scenario *sc, const struct rm_carry *cy, const long *base,
		    double carried)
{
	size_t *cls_src = xcalloc(sc->inventory.n + 1, sizeof(*cls_src));
	size_t *w_src = xcalloc(sc->workloads.n + 1, sizeof(*w_src));
	unsigned char *carry = xcalloc(sc->inventory.n + 1, 1);
	struct rm_seed sd = { cy, sc->inventory.n, sc->workloads.n, cls_src, carry, w_src };
	struct plan_opts o = PLAN_OPTS_INIT;
	struct plan_result r;
	struct diag d = DIAG_INIT;
	size_t i;
	int kept = -1;

	for (i = 0; i < sc->inventory.n; i++) {
		cls_src[i] = i;
		carry[i] = 1;
	}
	for (i = 0; i < sc->workloads.n; i++) {
		w_src[i] = i;
		sc->workloads.w[i].replicas = base[i] + t->delta > 0 ? base[i] + t->delta : 1;
	}
	o.greedy_only = 1;
	o.seed = rm_seed_plan;
	o.seed_ctx = &sd;
	o.seed_kept = &kept;
	CHECK(!plan_run(&r, sc, &o, &d), "%s: plan_run: %s", t->name, d.msg ? d.msg : "");
	if (r.final) {
		long asked = 0, placed = 0;
		for (i = 0; i < r.p.ndemands; i++) {
			asked += r.p.demands[i].replicas;
			placed += r.final->placed[i];
		}
		CHECK(placed <= asked, "%s: %ld placed of %ld asked", t->name, placed, asked);
		if (t->same)
			CHECK(r.objective <= carried + 1e-6, "%s: %.2f, the carried plan %.2f", t->name, r.objective,
			      carried);
		CHECK(kept == 0 || kept == 1, "%s: seed_kept not set", t->name);
		seeded_ok(t, &r, &sd);
	}
	plan_release(&r);
	diag_release(&d);
	free(cls_src);
	free(w_src);
	free(carry);
}

int main(void)
{
	static const struct row rows[] = {
		{ "same demand", 0, 1 },
		{ "one fewer each", -1, 0 },
		{ "two more each", 2, 0 },
		{ NULL, 0, 0 },
	};
	struct scenario sc;
	struct diag d = DIAG_INIT;
	struct plan_opts o = PLAN_OPTS_INIT;
	struct plan_result r;
	struct rm_carry cy;
	size_t *ident;
	long *base;
	double carried;
	size_t i;

	if (scenario_load(&sc, "data/example/scenario.yaml", "models", &d)) {
		CHECK(0, "example: %s", d.msg ? d.msg : "");
		diag_release(&d);
		return check_done();
	}
	base = xcalloc(sc.workloads.n + 1, sizeof(*base));
	ident = xcalloc(sc.inventory.n + sc.workloads.n + 1, sizeof(*ident));
	for (i = 0; i < sc.workloads.n; i++)
		base[i] = sc.workloads.w[i].replicas;
	for (i = 0; i < sc.inventory.n + sc.workloads.n; i++)
		ident[i] = i < sc.inventory.n ? i : i - sc.inventory.n;
	o.greedy_only = 1;
	CHECK(!plan_run(&r, &sc, &o, &d), "greedy plan: %s", d.msg ? d.msg : "");
	rm_carry_take(&cy, r.final, ident, ident + sc.inventory.n);
	carried = r.objective;
	CHECK(cy.nnodes == r.final->nnodes, "carry: %zu nodes of %zu", cy.nnodes, r.final->nnodes);
	plan_release(&r);
	for (i = 0; rows[i].name; i++)
		run_row(&rows[i], &sc, &cy, base, carried);
	rm_carry_release(&cy);
	free(base);
	free(ident);
	scenario_release(&sc);
	diag_release(&d);
	return check_done();
}
