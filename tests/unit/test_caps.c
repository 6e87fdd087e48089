/*
 * test_caps.c - the spread and availability caps (issue #62): the caps
 * problem_dom_cap derives (max_skew and the level of a fixed set of
 * eligible domains, replicas - need, ScheduleAnyway none), the greedy
 * plan keeping them, the trim of a plan whose emptiest domain is below
 * the level, and the verifier rejecting a plan that breaks either rule.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "cplan_engine.h"
#include "verify.h"

static const char sc_text[] = FIXTURE_SC_TEXT("caps");
/* 3 owned nodes at dc1 and 1 at dc2, 2 GPUs each: 56 MIG 1g.10gb slots for 26 replicas. */
static const char inv_text[] = INV_HEADER "a,3,H100-SXM5-80GB,2,baremetal,dc1,64,512,owned,,,,1000\n"
					  "b,1,H100-SXM5-80GB,2,baremetal,dc2,64,512,owned,,,,500\n";
static const char wl_text[] =
	"name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,modes,sites,spread,max_skew,when_unsatisfiable,"
	"min_domains,min_available,max_unavailable\n"
	"web,t,5,0,9.5,0.12,hardware,mig,dc1,node,1,DoNotSchedule,,,\n"	/* 3 fixed nodes: m 1, cap 2 */
	"api,t,4,0,9.5,0.12,hardware,mig,,site,1,,,,\n"			/* 2 fixed sites: m 1, cap 2 */
	"solo,t,3,0,9.5,0.12,hardware,mig,dc2,node,1,,,,\n"		/* one node can be eligible: no cap */
	"wide,t,3,0,9.5,0.12,hardware,mig,,site,1,,3,,\n"		/* 2 sites < min_domains 3: m 0, cap 1 */
	"soft,t,2,0,9.5,0.12,hardware,mig,,node,1,ScheduleAnyway,,,\n"	/* a preference: no cap */
	"db,t,4,0,9.5,0.12,hardware,mig,,,,,,3,\n"			/* need 3: 1 a node */
	"cache,t,5,0,9.5,0.12,hardware,mig,,,,,,,50%\n";		/* ceil(2.5) = 3 may go: 3 a node */

static int demand(const struct fixture *fx, const char *name)
{
	size_t i;
	for (i = 0; i < fx->p.ndemands; i++)
		if (!strcmp(fx->p.demands[i].w->name, name))
			return (int)i;
	return -1;
}

static void test_caps(void)
{
	static const struct {
		const char *name;
		enum spread_kind kind;
		long cap;
	} rows[] = {
		{ "web", SPREAD_NODE, 2 }, { "web", SPREAD_SITE, PROBLEM_NO_CAP }, { "api", SPREAD_SITE, 2 },
		{ "solo", SPREAD_NODE, PROBLEM_NO_CAP }, { "wide", SPREAD_SITE, 1 }, { "soft", SPREAD_NODE, PROBLEM_NO_CAP },
		{ "db", SPREAD_NODE, 1 }, { "db", SPREAD_SITE, PROBLEM_NO_CAP }, { "cache", SPREAD_NODE, 3 },
	};
	struct fixture fx;
	size_t i;

	if (fixture_build(&fx, sc_text, inv_text, wl_text, 0))
		return;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int d = demand(&fx, rows[i].name);
		long got = d < 0 ? -1 : problem_dom_cap(&fx.p, d, rows[i].kind, 1);
		CHECK(got == rows[i].cap, "%s by %s: cap %ld, want %ld", rows[i].name, spread_name(rows[i].kind), got,
		      rows[i].cap);
	}
	CHECK(fx.p.demands[demand(&fx, "soft")].cap < 0, "ScheduleAnyway alone caps nothing");
	CHECK(problem_dom_cap(&fx.p, demand(&fx, "db"), SPREAD_NODE, 0) == PROBLEM_NO_CAP,
	      "without availability caps db is free");
	fixture_release(&fx);
}

/* The greedy plan keeps every cap and verifies. */
static void test_greedy(void)
{
	struct fixture fx;
	struct diag d = DIAG_INIT;
	size_t i, n;

	if (fixture_build(&fx, sc_text, inv_text, wl_text, FIXTURE_GREEDY))
		return;
	CHECK(verify_plan(&fx.cp, &d) == 0, "greedy plan rejected: %s", d.msg ? d.msg : "");
	for (i = 0; i < fx.p.ndemands; i++)
		for (n = 0; n < fx.cp.nnodes; n++)
			CHECK(cplan_caps_node(&fx.cp, (int)i, (int)n) <= problem_dom_cap(&fx.p, (int)i, SPREAD_NODE, 1),
			      "%s on node %zu over its cap", fx.p.demands[i].w->name, n);
	CHECK(fx.cp.placed[demand(&fx, "db")] == 4, "db on 4 nodes: %ld", fx.cp.placed[demand(&fx, "db")]);
	CHECK(fx.cp.placed[demand(&fx, "wide")] == 2 && fx.cp.reason[demand(&fx, "wide")] &&
		      strstr(fx.cp.reason[demand(&fx, "wide")], "spread site max_skew 1"),
	      "wide: 2 placed, the rule as the reason: %ld, %s", fx.cp.placed[demand(&fx, "wide")],
	      fx.cp.reason[demand(&fx, "wide")] ? fx.cp.reason[demand(&fx, "wide")] : "(none)");
	diag_release(&d);
	fixture_release(&fx);
}

/* Moves the replica in slot s to free slot t (another node). */
static void move(struct cplan *cp, size_t s, size_t t)
{
	int d = cp->slots[s].d;
	long r = cp->slots[s].replica;
	cplan_slot_clear(cp, s);
	cplan_slot_fill(cp, t, d, r);
}

/*
 * Moves a replica of `name` from another node onto the node of its first
 * one (a node with a free slot): the verifier names the broken rule.
 */
static void test_verify(const char *name, const char *want)
{
	struct fixture fx;
	struct diag d = DIAG_INIT;
	size_t i, a = (size_t)-1, b = (size_t)-1, t = (size_t)-1;
	int dm;

	if (fixture_build(&fx, sc_text, inv_text, wl_text, FIXTURE_GREEDY))
		return;
	dm = demand(&fx, name);
	for (i = 0; i < fx.cp.nslots && a == (size_t)-1; i++)
		if (fx.cp.slots[i].d == dm)
			a = i;
	for (i = 0; a != (size_t)-1 && i < fx.cp.nslots; i++) {
		if (b == (size_t)-1 && fx.cp.slots[i].d == dm && fx.cp.slots[i].node != fx.cp.slots[a].node)
			b = i;
		if (t == (size_t)-1 && fx.cp.slots[i].d < 0 && fx.cp.slots[i].node == fx.cp.slots[a].node)
			t = i;
	}
	CHECK(b != (size_t)-1 && t != (size_t)-1, "%s: replicas on two nodes and a free slot beside the first", name);
	if (b != (size_t)-1 && t != (size_t)-1) {
		move(&fx.cp, b, t);
		CHECK(verify_plan(&fx.cp, &d) == -1, "%s: the crowded node accepted", name);
		CHECK(d.msg && strstr(d.msg, want), "%s: message '%s' lacks '%s'", name, d.msg ? d.msg : "(none)", want);
	}
	diag_release(&d);
	fixture_release(&fx);
}

/* A level the plan does not reach: the trim takes out what is above min + max_skew. */
static void test_trim(void)
{
	struct fixture fx;
	int d, node = -1;
	size_t i;

	if (fixture_build(&fx, sc_text, inv_text, wl_text, FIXTURE_GREEDY))
		return;
	d = demand(&fx, "web");
	/* empty one of web's nodes: an eligible node at 0 makes the global minimum 0, so 1 a node */
	for (i = 0; i < fx.cp.nslots && node < 0; i++)
		if (fx.cp.slots[i].d == d)
			node = fx.cp.slots[i].node;
	for (i = 0; i < fx.cp.nslots; i++)
		if (fx.cp.slots[i].d == d && fx.cp.slots[i].node == node) {
			size_t j;
			for (j = 0; j < fx.cp.nslots; j++)	/* keep the replica numbers dense */
				if (fx.cp.slots[j].d == d && fx.cp.slots[j].replica == fx.cp.placed[d] - 1)
					fx.cp.slots[j].replica = fx.cp.slots[i].replica;
			cplan_slot_clear(&fx.cp, i);
			fx.cp.placed[d]--;
			fx.cp.unplaced[d]++;
		}
	cplan_caps_trim(&fx.cp);
	{
		struct diag dg = DIAG_INIT;
		CHECK(verify_plan(&fx.cp, &dg) == 0, "trimmed plan rejected: %s", dg.msg ? dg.msg : "");
		diag_release(&dg);
	}
	CHECK(fx.cp.placed[d] + fx.cp.unplaced[d] == 5, "web's replicas all counted");
	CHECK(fx.cp.placed[d] == 2 && fx.cp.reason[d] && strstr(fx.cp.reason[d], "the emptiest of its eligible nodes holds 0"),
	      "web trimmed to 1 a node on the 2 nodes left: %ld placed, %s", fx.cp.placed[d],
	      fx.cp.reason[d] ? fx.cp.reason[d] : "(none)");
	for (i = 0; i < fx.cp.nnodes; i++)
		CHECK(cplan_caps_node(&fx.cp, d, (int)i) <= 1, "web: %ld on node %zu", cplan_caps_node(&fx.cp, d, (int)i), i);
	fixture_release(&fx);
}

int main(void)
{
	if (fixture_setup("test_caps"))
		return 1;
	test_caps();
	test_greedy();
	test_verify("db", "min_available keeps 3 running when a node is lost");
	test_verify("web", "spread node max_skew 1 broken");
	test_trim();
	fixture_teardown();
	return check_done();
}
