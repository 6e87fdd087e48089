/*
 * output.c - the simulator's files: timeseries.csv (built row by row as
 * the run steps), strategies.csv, breakeven.csv and simulate.json
 * (formatted from the result), all written through an outset so that a
 * directory gets every file or none.
 *
 * The JSON is written by hand (the sim layer has no JSON library) in a
 * fixed field order; numbers use fixed formats, so the same run gives
 * the same bytes on any machine.
 */
#include <stdio.h>
#include <string.h>

#include "sim_common.h"
#include "output.h"
#include "outfile.h"
#include "banned.h"

/* ================= timeseries.csv ================= */

/* The timeseries column of GPUs in use in mode m. */
static const char *mode_col(enum gpu_mode m)
{
	static const char *const cols[] = { "gpus_passthrough", "gpus_vgpu", "gpus_mig_vgpu", "gpus_mig",
					    "gpus_timeslice", "gpus_mps" };
	return (unsigned)m < sizeof(cols) / sizeof(cols[0]) ? cols[m] : "gpus_other";
}

void sim_timeseries_header(struct sb *sb)
{
	int m;
	sb_adds(sb, "step,time,demand,placed,unplaced,replanned,nodes,gpus");
	for (m = 0; m < MODE_COUNT; m++)
		sb_addf(sb, ",%s", mode_col((enum gpu_mode)m));
	sb_adds(sb, ",licensed_gpus,seats_in_use,seats_held");
	for (m = 1; m < LIC_COUNT; m++)
		sb_addf(sb, ",licences_%s", lic_product_id((enum lic_product)m));
	sb_adds(sb, ",hourly_usd\n");
}


void sim_timeseries_row(struct sb *sb, const struct sim_result *r, const struct sim_step_counts *c)
{
	const struct trace *tr = r->tr;
	size_t t = c->t;
	char tbuf[32];
	int q;

	sb_addf(sb, "%zu,%s,%ld,%ld,%ld,%d,%ld,%ld", t,
		tr->iso ? trace_format_time(tbuf, sizeof(tbuf), tr->t0 + (long long)t * 3600) : "", c->demand, c->placed,
		c->unplaced, c->replanned, c->nodes, c->gpus);
	for (q = 0; q < MODE_COUNT; q++)
		sb_addf(sb, ",%ld", c->by_mode[q]);
	sb_addf(sb, ",%ld,%ld,%ld", c->licensed, c->seats_all, c->held_all);
	for (q = 1; q < LIC_COUNT; q++)
		sb_addf(sb, ",%ld", r->units[q][t]);
	sb_addf(sb, ",%s\n", SIM_MONEY(c->hourly));
}

/* ================= the result's files ================= */

/* s as a JSON string, quoted and escaped. */
static void json_str(struct sb *sb, const char *s)
{
	sb_addn(sb, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_addf(sb, "\\%c", c);
		else if (c == '\n')
			sb_adds(sb, "\\n");
		else if (c < 0x20)
			sb_addf(sb, "\\u%04x", c);
		else
			sb_addn(sb, s, 1);
	}
	sb_addn(sb, "\"", 1);
}

/* Which of a and b is cheaper for rel (< 0: a, > 0: b), or "equal". */
static const char *relation(int rel, enum sim_strategy a, enum sim_strategy b)
{
	return rel < 0 ? sim_strategy_name(a) : rel > 0 ? sim_strategy_name(b) : "equal";
}


/* strategies.csv: the ranked strategies, then the unavailable ones in table order. */
static void strategies_csv(struct sb *s, const struct sim_result *r)
{
	int k, q;

	sb_init(s);
	sb_adds(s, "rank,strategy,total_usd,extra_over_cheapest_usd,how\n");
	for (k = 1; k <= STRAT_COUNT + 1; k++) {
		for (q = 0; q < STRAT_COUNT; q++) {
			const struct sim_strategy_result *x = &r->strat[q];
			if (k <= STRAT_COUNT ? x->rank != k : x->available)
				continue;
			if (x->available)
				sb_addf(s, "%d,%s,%s,%s,", x->rank, sim_strategy_name((enum sim_strategy)q),
					SIM_MONEY(x->total), SIM_MONEY(x->total - r->strat[r->cheapest].total));
			else
				sb_addf(s, ",%s,,,", sim_strategy_name((enum sim_strategy)q));
			sb_add_csv(s, x->how);
			sb_adds(s, "\n");
		}
	}
}

/* breakeven.csv: one row per product and pair of strategies. */
static void breakeven_csv(struct sb *be, const struct sim_result *r)
{
	char b1[64], b2[64];
	size_t i;

	sb_init(be);
	sb_adds(be, "product,a,b,cheaper_at_month_1,breakeven_month,cheaper_after,breakeven_utilisation,trace_utilisation\n");
	for (i = 0; i < r->nbe; i++) {
		const struct sim_breakeven *e = &r->be[i];
		sb_addf(be, "%s,%s,%s,%s,", lic_product_id(e->product), sim_strategy_name(e->a), sim_strategy_name(e->b),
			relation(e->first, e->a, e->b));
		if (e->month)
			sb_addf(be, "%d,%s,", e->month, relation(e->after, e->a, e->b));
		else
			sb_adds(be, ",,");
		sb_addf(be, "%s,%s\n", e->util >= 0 ? fmt_fixed(b1, sizeof(b1), e->util, 4) : "",
			fmt_fixed(b2, sizeof(b2), e->trace_util, 4));
	}
}

/* simulate.json from "schema_version" to "licences": the run and its licence counts. */
static void json_run(struct sb *js, const struct sim_result *r)
{
	int k, q, y;

	sb_adds(js, "{\n  \"schema_version\": \"1.0.0\",\n  \"scenario\": ");
	json_str(js, r->sc->name);
	sb_adds(js, ",\n  \"trace\": ");
	/* the file name only: reports do not depend on where the trace was read from */
	json_str(js, strrchr(r->tr->source, '/') ? strrchr(r->tr->source, '/') + 1 : r->tr->source);
	sb_addf(js, ",\n  \"trace_period_hours\": %zu,\n  \"steps\": %zu,\n  \"step_hours\": 1,\n", r->tr->nsteps,
		r->nsteps);
	sb_addf(js, "  \"counting\": \"%s\",\n  \"lease_hours\": %ld,\n", lic_counting_name(r->sc->licensing.counting),
		r->lease_steps);
	sb_addf(js, "  \"peaks\": {\"demand\": %ld, \"nodes\": %ld, \"gpus\": %ld, \"unplaced\": %ld},\n",
		r->peak_demand, r->peak_nodes, r->peak_gpus, r->peak_unplaced);
	sb_addf(js, "  \"node_starts\": %ld,\n  \"replans\": %ld,\n  \"unplaced_replica_hours\": %.0f,\n", r->node_opens, r->replans, r->unplaced_hours);
	sb_adds(js, "  \"licences\": [");
	for (q = 1, k = 0; q < LIC_COUNT; q++) {
		if (!r->peak_units[q])
			continue;
		sb_addf(js, "%s\n    {\"product\": \"%s\", \"peak\": %ld, \"licence_hours\": %.0f, \"years\": [",
			k++ ? "," : "", lic_product_id((enum lic_product)q), r->peak_units[q], r->unit_hours[q]);
		for (y = 0; y < r->nyears; y++)
			sb_addf(js, "%s{\"year\": %d, \"hours\": %ld, \"peak\": %ld, \"licence_hours\": %.0f, \"mix_base\": %ld}",
				y ? ", " : "", y + 1, r->years[y].hours, r->years[y].peak[q], r->years[y].unit_hours[q],
				r->years[y].base[q]);
		sb_adds(js, "]}");
	}
	sb_adds(js, k ? "\n  ],\n" : "],\n");
}

/* simulate.json's "strategies", "cheapest" and "breakeven". */
static void json_strategies(struct sb *js, const struct sim_result *r)
{
	char b1[64], b2[64];
	size_t i;
	int q;

	sb_adds(js, "  \"strategies\": [");
	for (q = 0; q < STRAT_COUNT; q++) {
		const struct sim_strategy_result *x = &r->strat[q];
		sb_addf(js, "%s\n    {\"strategy\": \"%s\", \"available\": %s, ", q ? "," : "",
			sim_strategy_name((enum sim_strategy)q), x->available ? "true" : "false");
		if (x->available)
			sb_addf(js, "\"rank\": %d, \"total_usd\": %s, ", x->rank, SIM_MONEY(x->total));
		sb_adds(js, "\"how\": ");
		json_str(js, x->how);
		sb_adds(js, "}");
	}
	sb_adds(js, "\n  ],\n  \"cheapest\": ");
	if (r->cheapest >= 0)
		json_str(js, sim_strategy_name((enum sim_strategy)r->cheapest));
	else
		sb_adds(js, "null");
	sb_adds(js, ",\n  \"breakeven\": [");
	for (i = 0; i < r->nbe; i++) {
		const struct sim_breakeven *e = &r->be[i];
		sb_addf(js, "%s\n    {\"product\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", \"cheaper_at_month_1\": \"%s\", ",
			i ? "," : "", lic_product_id(e->product), sim_strategy_name(e->a), sim_strategy_name(e->b),
			relation(e->first, e->a, e->b));
		if (e->month)
			sb_addf(js, "\"breakeven_month\": %d, \"cheaper_after\": \"%s\", ", e->month,
				relation(e->after, e->a, e->b));
		else
			sb_adds(js, "\"breakeven_month\": null, \"cheaper_after\": null, ");
		sb_addf(js, "\"breakeven_utilisation\": %s, \"trace_utilisation\": %s}",
			e->util >= 0 ? fmt_fixed(b1, sizeof(b1), e->util, 4) : "null",
			fmt_fixed(b2, sizeof(b2), e->trace_util, 4));
	}
	sb_adds(js, r->nbe ? "\n  ],\n" : "],\n");
}

/* simulate.json, whole. */
static void simulate_json(struct sb *js, const struct sim_result *r)
{
	size_t i;

	sb_init(js);
	json_run(js, r);
	json_strategies(js, r);
	sb_adds(js, "  \"assumptions\": [");
	for (i = 0; i < r->pr.nassumptions; i++) {
		sb_addf(js, "%s\n    {\"what\": ", i ? "," : "");
		json_str(js, r->pr.assumptions[i].what);
		sb_adds(js, ", \"source\": ");
		json_str(js, r->pr.assumptions[i].source);
		sb_adds(js, "}");
	}
	sb_adds(js, r->pr.nassumptions ? "\n  ]\n}\n" : "]\n}\n");
}

void simulate_add_files(const struct sim_result *r, struct outset *os)
{
	struct sb s, be, js;

	outset_add_copy(os, "timeseries.csv", r->timeseries.buf, r->timeseries.len);
	strategies_csv(&s, r);
	outset_add_sb(os, "strategies.csv", &s);
	breakeven_csv(&be, r);
	outset_add_sb(os, "breakeven.csv", &be);
	simulate_json(&js, r);
	outset_add_sb(os, "simulate.json", &js);
}

int simulate_write(const struct sim_result *r, const char *dir, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	int rc;

	outset_init(&os, dir);
	simulate_add_files(r, &os);
	rc = outset_commit(&os, d);
	outset_release(&os);
	return rc;
}
