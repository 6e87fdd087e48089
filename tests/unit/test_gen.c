/*
 * test_gen.c - the synthetic generator: same size and seed, same bytes;
 * the sizes' totals; every generated scenario loads, and every workload
 * in it fits some node class (sizes S, M, L; seeds 1..3).
 */
#include "fixture.h"
#include "models.h"
#include "gen.h"

static void check_size(const struct catalog *cat, enum gen_size s, unsigned long long seed)
{
	const struct gen_spec *sp = gen_spec(s);
	struct gen_out a, b;
	struct diag d = DIAG_INIT;
	struct fixture fx;
	size_t i;
	long gpus = 0, reps = 0;

	CHECK(gen_generate(s, seed, 0, cat, &a, &d) == 0, "%s seed %llu: generate", sp->name, seed);
	CHECK(gen_generate(s, seed, 0, cat, &b, &d) == 0, "%s seed %llu: generate again", sp->name, seed);
	CHECK_STR(a.inventory, b.inventory, "%s seed %llu: inventory bytes", sp->name, seed);
	CHECK_STR(a.workloads, b.workloads, "%s seed %llu: workloads bytes", sp->name, seed);
	CHECK_STR(a.scenario, b.scenario, "%s seed %llu: scenario bytes", sp->name, seed);
	CHECK(a.gpus == sp->gpus && a.replicas == sp->replicas, "%s seed %llu: %ld GPUs / %ld replicas", sp->name,
	      seed, a.gpus, a.replicas);
	CHECK(a.classes == sp->classes && a.nworkloads == sp->workloads, "%s seed %llu: %d classes / %d workloads",
	      sp->name, seed, a.classes, a.nworkloads);
	if (s != GEN_XL && fixture_build(&fx, a.scenario, a.inventory, a.workloads, FIXTURE_CHECK_BUILD) == 0) {
		for (i = 0; i < fx.sc.inventory.n; i++)
			gpus += fx.sc.inventory.classes[i].count * fx.sc.inventory.classes[i].gpus_per_node;
		for (i = 0; i < fx.sc.workloads.n; i++) {
			char *why = scenario_unhostable(&fx.sc, &fx.sc.workloads.w[i]);
			CHECK(!why, "%s seed %llu: workload %s cannot be placed: %s", sp->name, seed,
			      fx.sc.workloads.w[i].name, why);
			free(why);
			reps += fx.sc.workloads.w[i].replicas;
		}
		CHECK(gpus == sp->gpus && reps == sp->replicas, "%s seed %llu: loaded %ld GPUs / %ld replicas",
		      sp->name, seed, gpus, reps);
		fixture_release(&fx);
	}
	gen_out_release(&a);
	gen_out_release(&b);
	diag_release(&d);
}

int main(void)
{
	struct catalog cat = CATALOG_INIT;
	struct diag d = DIAG_INIT;
	struct gen_out a, b;
	unsigned long long seed;
	int s;

	CHECK(gen_size_parse("S") == GEN_S && gen_size_parse("xl") == GEN_XL && gen_size_parse("XXL") == -1,
	      "size names");
	if (fixture_setup("test_gen"))
		return 1;
	CHECK(catalog_load(&cat, FIXTURE_MODELS "/gpus.yaml", 0, &d) == 0, "catalog");
	for (s = GEN_S; s <= GEN_L; s++)
		for (seed = 1; seed <= 3; seed++)
			check_size(&cat, (enum gen_size)s, seed);
	check_size(&cat, GEN_XL, 1);
	/* another seed, another fleet */
	CHECK(gen_generate(GEN_M, 1, 0, &cat, &a, &d) == 0 && gen_generate(GEN_M, 2, 0, &cat, &b, &d) == 0, "M seeds 1, 2");
	CHECK(strcmp(a.inventory, b.inventory) && strcmp(a.workloads, b.workloads), "seeds 1 and 2 differ");
	gen_out_release(&a);
	gen_out_release(&b);
	/*
	 * --load: at L (2.5 replicas per GPU, so the whole-GPU share is not
	 * pinned at its bounds) a higher load asks more GPU-equivalents, with
	 * the same fleet; and the default load is the size's own.
	 */
	CHECK(gen_generate(GEN_L, 1, 0.6, &cat, &a, &d) == 0 && gen_generate(GEN_L, 1, 0.8, &cat, &b, &d) == 0,
	      "L at load 0.6 and 0.8");
	CHECK(a.gpu_equiv < b.gpu_equiv && !strcmp(a.inventory, b.inventory), "L: 0.6 asks %.2f < 0.8 asks %.2f",
	      a.gpu_equiv, b.gpu_equiv);
	CHECK(b.gpu_equiv > 0.75 * 8000 && b.gpu_equiv < 0.85 * 8000, "L at 0.8 asks %.2f GPU-equivalents",
	      b.gpu_equiv);
	gen_out_release(&a);
	CHECK(gen_generate(GEN_L, 1, 0, &cat, &a, &d) == 0 && !strcmp(a.workloads, b.workloads), "L default is 0.8");
	gen_out_release(&a);
	gen_out_release(&b);
	/* a catalog without the generator's GPU types is an input error */
	{
		struct catalog empty = CATALOG_INIT;
		CHECK(gen_generate(GEN_S, 1, 0, &empty, &a, &d) == -1 && d.kind == DIAG_INPUT, "empty catalog refused");
	}
	catalog_release(&cat);
	diag_release(&d);
	fixture_teardown();
	return check_done();
}
