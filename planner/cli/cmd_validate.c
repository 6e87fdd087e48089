/*
 * cmd_validate.c - gpuplan validate: load a scenario, check that every
 * workload could be placed somewhere, and summarise what it holds.
 *
 * Phases: load (scenario_load checks every file and field), validate
 * (scenario_unhostable per workload; the first one that can never be
 * placed is an input error), warn (demand asked beyond the capacity,
 * overall or under a GPU-type or site restriction: one line each on
 * stderr, exit 0), report (a short, deterministic summary on stdout).
 * Nothing is written to disk.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "date.h"
#include "pricing.h"
#include "scenario.h"
#include "util.h"
#include "banned.h"

static int cmp_gpu_id(const void *a, const void *b)
{
	const struct gpu_type *const *x = a, *const *y = b;
	return strcmp((*x)->id, (*y)->id);
}

static void print_inventory(const struct inventory *inv)
{
	const struct gpu_type **types = xcalloc(inv->n + 1, sizeof(*types));
	size_t i, j, ntypes = 0;
	long nodes = 0, gpus = 0;

	for (i = 0; i < inv->n; i++) {
		nodes += inv->classes[i].count;
		gpus += inv->classes[i].count * inv->classes[i].gpus_per_node;
		for (j = 0; j < ntypes; j++)
			if (types[j] == inv->classes[i].gpu)
				break;
		if (j == ntypes)
			types[ntypes++] = inv->classes[i].gpu;
	}
	qsort(types, ntypes, sizeof(*types), cmp_gpu_id);
	printf("  inventory:  %zu node class%s, %ld node%s, %ld GPU%s (", inv->n,
	       inv->n == 1 ? "" : "es", nodes, nodes == 1 ? "" : "s", gpus, gpus == 1 ? "" : "s");
	for (j = 0; j < ntypes; j++) {
		long n = 0;
		for (i = 0; i < inv->n; i++)
			if (inv->classes[i].gpu == types[j])
				n += inv->classes[i].count * inv->classes[i].gpus_per_node;
		printf("%s%s %ld", j ? ", " : "", types[j]->id, n);
	}
	printf(")\n");
	free(types);
}

static void print_workloads(const struct workloads *wl)
{
	const char **tenants = xcalloc(wl->n + 1, sizeof(*tenants));
	size_t i, j, ntenants = 0;
	long replicas = 0;
	double gpu_eq = 0;
	char buf[64];

	for (i = 0; i < wl->n; i++) {
		const struct workload *w = &wl->w[i];
		replicas += w->replicas;
		gpu_eq += (double)w->replicas * workload_gpu_equivalents(w);
		for (j = 0; j < ntenants; j++)
			if (!strcmp(tenants[j], w->tenant))
				break;
		if (j == ntenants)
			tenants[ntenants++] = w->tenant;
	}
	printf("  workloads:  %zu workload%s, %zu tenant%s, %ld replica%s (%s GPU-equivalents asked)\n",
	       wl->n, wl->n == 1 ? "" : "s", ntenants, ntenants == 1 ? "" : "s", replicas,
	       replicas == 1 ? "" : "s", fmt_fixed(buf, sizeof(buf), gpu_eq, 2));
	free(tenants);
}

static void print_summary(const struct scenario *sc)
{
	size_t i, user = 0;
	char buf[64];

	for (i = 0; i < sc->catalog.n; i++)
		user += sc->catalog.gpus[i].user != 0;
	printf("scenario %s (%s)\n", sc->name, sc->file);
	printf("  gpu types:  %zu bundled, %zu user\n", sc->catalog.n - user, user);
	print_inventory(&sc->inventory);
	print_workloads(&sc->workloads);
	printf("  horizon:    %s year%s\n", fmt_num_short(buf, sizeof(buf), sc->horizon_years, 2),
	       sc->horizon_years == 1 ? "" : "s");
	cli_print_compute_hints(stdout, sc);
	printf("ok\n");
}

/* Warns once about p when it is stale; seen holds what was already looked at. */
static void warn_if_stale(const struct price_ref *p, long long today, const void *key, const void ***seen, size_t *n)
{
	char d1[DATE_TEXT_SIZE], d2[DATE_TEXT_SIZE];
	char *name;
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*seen)[i] == key)
			return;
	*seen = xrealloc(*seen, (*n + 1) * sizeof(**seen));
	(*seen)[(*n)++] = key;
	if (!cli_price_stale(p->as_of, today))
		return;
	name = report_price_name(p);
	cli_printf(stderr, "gpuplan: warning: %s:%ld: %s is priced as of %s, more than %d months before %s\n", p->file,
		p->line, name, date_format(d1, sizeof(d1), p->as_of), CLI_PRICE_MAX_MONTHS,
		date_format(d2, sizeof(d2), today));
	free(name);
}

/*
 * The age check: every dated price the scenario's plans can use (the
 * cloud offers its node classes rent, the licence terms priced for them)
 * older than CLI_PRICE_MAX_MONTHS before today gets a warning on stderr.
 * A scenario that cannot be priced is left to plan to report.
 */
static int warn_stale_prices(const struct scenario *sc)
{
	struct pricing pr;
	struct diag d = DIAG_INIT;
	const void **seen = NULL;
	size_t k, n = 0;
	long long today;
	int p;

	if (cli_today(&today))
		return EXIT_USAGE;
	if (pricing_build(&pr, sc, &d) == 0) {
		for (k = 0; k < sc->inventory.n; k++) {
			const struct cloud_offer *o = sc->inventory.classes[k].offer;
			if (o) {
				struct price_ref r = { LIC_NONE, o->id, o->file, o->line, o->as_of, o->assumed };
				warn_if_stale(&r, today, o, &seen, &n);
			}
			for (p = 1; p < LIC_COUNT; p++) {
				const struct lic_term *t = pr.cls[k]->lic[p].oldest;
				if (t) {
					struct price_ref r = { (enum lic_product)p, t->id, sc->licenses.file, t->line,
							       t->as_of, t->assumed };
					warn_if_stale(&r, today, t, &seen, &n);
				}
			}
		}
	}
	free(seen);
	pricing_release(&pr);
	diag_release(&d);
	return EXIT_OK;
}

struct validate_args {
	const char *scenario;
};

static int cmd_validate(int argc, char **argv, const struct cli_global *g)
{
	struct validate_args a = { NULL };
	struct scenario sc;
	struct diag d = DIAG_INIT;
	const char *path;
	size_t i;
	int ret;

	ret = cli_parse(&cmd_validate_entry, argc, argv, &a);
	if (ret)
		return cli_exit_code(ret);
	if (!a.scenario)
		return cli_misuse(&cmd_validate_entry, "no scenario given");
	path = a.scenario;

	/* load: every file and field */
	if (scenario_load(&sc, path, g->models_dir, &d)) {
		ret = cli_diag(&d);
		goto out;
	}
	cli_warn_implausible(&sc);
	/* validate: each workload must fit some node class, and its spread and availability rules its domains */
	for (i = 0; i < sc.workloads.n; i++) {
		const struct workload *w = &sc.workloads.w[i];
		char *why = scenario_unhostable(&sc, w);
		if (!why)
			why = scenario_rule_unkeepable(&sc, w);
		if (why) {
			diag_set(&d, DIAG_INPUT, sc.workloads.file, w->line, 0,
				 "workload '%s' can never be placed: %s", w->name, why);
			free(why);
			ret = cli_diag(&d);
			goto out;
		}
	}
	/* warn: demand asked beyond the capacity, overall or under a restriction */
	{
		char **msgs;
		size_t n = scenario_overasked(&sc, &msgs);
		for (i = 0; i < n; i++) {
			cli_printf(stderr, "gpuplan: warning: %s\n", msgs[i]);
			free(msgs[i]);
		}
		free(msgs);
	}
	cli_warn_compute_hints(&sc);
	/* prices: a warning for each stale one */
	ret = warn_stale_prices(&sc);
	if (ret)
		goto out;
	/* report */
	print_summary(&sc);
out:
	scenario_release(&sc);
	diag_release(&d);
	return ret;
}

static const struct cli_option validate_options[] = {
	{ .name = NULL },
};

const struct cli_command cmd_validate_entry = {
	.name = "validate",
	.run = cmd_validate,
	.summary = "load a scenario and report what it holds",
	.synopsis = "SCENARIO",
	.description = "loads SCENARIO and the files it names, checks every field and that each workload fits\n"
		       "some node of the inventory, and prints a summary; exit 0 when valid, 3 on the first\n"
		       "error (one 'gpuplan: FILE:LINE[:COL]: ...' line)",
	.options = validate_options,
	.operands = { CLI_STRING, offsetof(struct validate_args, scenario), 1, "more than one scenario given", NULL },
};
