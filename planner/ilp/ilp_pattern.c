/*
 * ilp_pattern.c - the node patterns of single-GPU classes, rows valid
 * for every concrete plan that the bound search's copy of the model
 * carries (ilp_prove.c).
 *
 * The model's CPU and RAM rows sum over a (class, mode)'s nodes, so the
 * LP may split a node's cores and GiB among replicas that no one node
 * can hold together: its optimum may pack replicas onto nodes with no
 * room to spare in the sum, which no deal can (a replica of 1 core and
 * 8 GiB beside others of 1 core and 2 GiB leaves cores or GiB unused on
 * every node).
 *
 * On a class of one GPU per node a node is its GPU, so what one node
 * holds is one configuration's slots, each with a replica of a demand
 * with an arc there or empty, within the node's CPU and RAM: a pattern.
 * Every concrete plan gives each GPU of configuration c a set of
 * replicas that some maximal pattern of c contains (a pattern no replica
 * with an arc there can be added to), so with P_p >= 0 the GPUs given
 * pattern p:
 *
 *   sum_{p of c} P_p <= G[k][c]                      (pat_k_c)
 *   A[d][k][s] <= sum_{p} n_{d,s}(p) P_p              (patarc_i)
 *
 * the second for every arc into a slot type whose configurations all
 * have their patterns enumerated.  P is continuous: the rows are the
 * configuration LP of those nodes, and they hold for every concrete
 * plan, so the bound stays a bound.  Enumeration stops at PATTERN_MAX
 * patterns or PATTERN_STEPS steps per configuration; such a
 * configuration gets no patterns and its slot types no arc rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_model.h"
#include "ilp_pattern.h"
#include "banned.h"

#define PATTERN_MAX 4000	/* maximal patterns per configuration */
#define PATTERN_STEPS 400000	/* enumeration steps per configuration */

/* One arc a configuration's slot entry can take. */
struct item {
	size_t arc;		/* in p->arcs */
	double cpu, ram;	/* the replica's */
};

/* The enumeration of one configuration's maximal patterns. */
struct pat_enum {
	const struct config *cf;
	struct item **items;	/* [slot entry][0 .. nitems[t]) */
	size_t *nitems;
	int *left;		/* [slot entry]: slots not yet filled */
	uint64_t *pick;		/* [depth]: the items in the pattern being built, (entry << 32 | item) */
	size_t depth;
	double cpu, ram;	/* what is left of the node */
	uint64_t *pats;		/* the patterns found: each a count, then its picks */
	size_t npat, len, cap;
	long steps;
	int full;		/* a cap was hit */
};

/* True when some item fits a slot still empty (the pattern is not maximal). */
static int pat_extendable(const struct pat_enum *e)
{
	size_t t, j;

	for (t = 0; t < e->cf->nslots; t++)
		if (e->left[t] > 0)
			for (j = 0; j < e->nitems[t]; j++)
				if (e->items[t][j].cpu <= e->cpu + 1e-9 && e->items[t][j].ram <= e->ram + 1e-9)
					return 1;
	return 0;
}

static void pat_push(struct pat_enum *e, uint64_t v)
{
	XGROW(e->pats, e->cap, e->len + 1);
	e->pats[e->len++] = v;
}

/* Patterns from slot entry t on, items of entry t from index j on (multisets, not orders). */
static void pat_dfs(struct pat_enum *e, size_t t, size_t j)
{
	size_t d;

	if (e->full || ++e->steps > PATTERN_STEPS) {
		e->full = 1;
		return;
	}
	if (t == e->cf->nslots) {
		if (pat_extendable(e))
			return;
		if (e->npat == PATTERN_MAX) {
			e->full = 1;
			return;
		}
		pat_push(e, e->depth);
		for (d = 0; d < e->depth; d++)
			pat_push(e, e->pick[d]);
		e->npat++;
		return;
	}
	if (e->left[t] > 0)
		for (; j < e->nitems[t]; j++) {
			const struct item *it = &e->items[t][j];
			if (it->cpu > e->cpu + 1e-9 || it->ram > e->ram + 1e-9)
				continue;
			e->cpu -= it->cpu;
			e->ram -= it->ram;
			e->left[t]--;
			e->pick[e->depth++] = (uint64_t)t << 32 | j;
			pat_dfs(e, t, j);
			e->depth--;
			e->left[t]++;
			e->cpu += it->cpu;
			e->ram += it->ram;
		}
	pat_dfs(e, t + 1, 0);	/* the rest of entry t's slots stay empty */
}

/*
 * The items of each slot entry of configuration cf of class k: the arcs
 * into its slot type with a column in cl.  0 when the node's CPU and RAM
 * hold any filling of its slots (the model's rows are then exact there).
 */
static int pat_items(const struct problem *p, const struct arcidx *ix, const struct cols *cl, size_t k,
		     struct pat_enum *e)
{
	const struct pclass *c = &p->classes[k];
	double most_cpu = 0, most_ram = 0;
	size_t t, a;

	for (t = 0; t < e->cf->nslots; t++) {
		double mc = 0, mr = 0;
		e->items[t] = xcalloc(ix->kstart[k + 1] - ix->kstart[k] + 1, sizeof(**e->items));
		for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
			size_t i = ix->byk[a];
			const struct workload *w = p->demands[p->arcs[i].d].w;
			struct item *it;
			if (p->arcs[i].s != e->cf->slot[t] || !cl->arc[i])
				continue;
			it = &e->items[t][e->nitems[t]++];
			it->arc = i;
			it->cpu = p->any_cpu ? w->cpu_cores : 0;
			it->ram = p->any_ram ? w->ram_gib : 0;
			mc = mc > it->cpu ? mc : it->cpu;
			mr = mr > it->ram ? mr : it->ram;
		}
		most_cpu += mc * e->cf->count[t];
		most_ram += mr * e->cf->count[t];
	}
	return most_cpu > c->nc->cpu_cores + 1e-9 || most_ram > c->nc->ram_gib + 1e-9;
}

/* One replica of an arc in a pattern: an entry of the arc's row. */
struct patent {
	size_t arc;		/* the arc */
	int col;		/* the pattern's column */
};

static int patent_cmp(const void *a, const void *b)
{
	const struct patent *x = a, *y = b;
	if (x->arc != y->arc)
		return x->arc < y->arc ? -1 : 1;
	return (x->col > y->col) - (x->col < y->col);
}

/* The patterns of the class's configurations. */
struct pat_class {
	struct patent *ents;	/* the arc rows' entries */
	size_t nent, capent;
	char *covered;		/* [slot type]: every configuration with it enumerated */
};

static void patent_add(struct pat_class *pc, size_t arc, int col)
{
	XGROW(pc->ents, pc->capent, pc->nent + 1);
	pc->ents[pc->nent].arc = arc;
	pc->ents[pc->nent].col = col;
	pc->nent++;
}

/*
 * Enumerates configuration ci of class k; with its patterns found, adds
 * their columns and its row pat_k_c to w->P, and their arc entries to
 * pc.  Returns 1 when it did (its slot types stay covered), 0 when not.
 */
static int pat_config(const struct ilp_rows *w, size_t k, size_t ci, struct pat_class *pc)
{
	glp_prob *Q = w->P;
	const struct problem *p = w->p;
	const struct arcidx *ix = w->ix;
	const struct cols *cl = w->cl;
	const struct pclass *c = &p->classes[k];
	struct pat_enum e;
	size_t t, q, np, depth = 0, n;
	int ok = 0, col0, *ind;
	double *val;
	char name[96];

	memset(&e, 0, sizeof(e));
	e.cf = &c->configs[ci];
	e.items = xcalloc(e.cf->nslots + 1, sizeof(*e.items));
	e.nitems = xcalloc(e.cf->nslots + 1, sizeof(*e.nitems));
	e.left = xcalloc(e.cf->nslots + 1, sizeof(*e.left));
	for (t = 0; t < e.cf->nslots; t++) {
		e.left[t] = e.cf->count[t];
		depth += (size_t)e.cf->count[t];
	}
	e.pick = xcalloc(depth + 1, sizeof(*e.pick));
	e.cpu = c->nc->cpu_cores;
	e.ram = c->nc->ram_gib;
	if (pat_items(p, ix, cl, k, &e)) {
		pat_dfs(&e, 0, 0);
		ok = !e.full && e.npat > 0;
	}
	if (ok) {
		ind = xcalloc(e.npat + 2, sizeof(*ind));
		val = xcalloc(e.npat + 2, sizeof(*val));
		col0 = glp_add_cols(Q, (int)e.npat);
		for (np = 0, q = 0; np < e.npat; np++) {
			int col = col0 + (int)np;
			snprintf(name, sizeof(name), "P_%zu_%zu_%zu", k, ci, np);
			glp_set_col_name(Q, col, name);
			glp_set_col_bnds(Q, col, GLP_LO, 0, 0);
			ind[np + 1] = col;
			val[np + 1] = 1;
			for (n = e.pats[q++]; n > 0; n--, q++)
				patent_add(pc, e.items[e.pats[q] >> 32][e.pats[q] & 0xffffffffu].arc, col);
		}
		ind[e.npat + 1] = cl->g[k][ci];
		val[e.npat + 1] = -1;
		t = (size_t)glp_add_rows(Q, 1);
		snprintf(name, sizeof(name), "pat_%zu_%zu", k, ci);
		glp_set_row_name(Q, (int)t, name);
		glp_set_row_bnds(Q, (int)t, GLP_UP, 0, 0);
		glp_set_mat_row(Q, (int)t, (int)e.npat + 1, ind, val);
		free(ind);
		free(val);
	}
	for (t = 0; t < e.cf->nslots; t++)
		free(e.items[t]);
	free(e.items);
	free(e.nitems);
	free(e.left);
	free(e.pick);
	free(e.pats);
	return ok;
}

/* The arc rows patarc_i of pc's entries (sorted here) into slot types pc covers. */
static void pat_arc_rows(glp_prob *Q, const struct problem *p, const struct cols *cl, struct pat_class *pc)
{
	size_t a, b, n;
	int row, *ind;
	double *val;
	char name[48];

	qsort(pc->ents, pc->nent, sizeof(*pc->ents), patent_cmp);
	ind = xcalloc(pc->nent + 2, sizeof(*ind));
	val = xcalloc(pc->nent + 2, sizeof(*val));
	for (a = 0; a < pc->nent; a = b) {
		size_t arc = pc->ents[a].arc;
		n = 0;
		for (b = a; b < pc->nent && pc->ents[b].arc == arc; b++) {
			if (n && ind[n] == pc->ents[b].col) {
				val[n] -= 1;	/* one more replica of the arc in that pattern */
				continue;
			}
			n++;
			ind[n] = pc->ents[b].col;
			val[n] = -1;
		}
		if (!pc->covered[p->arcs[arc].s])
			continue;
		ind[n + 1] = cl->arc[arc];
		val[n + 1] = 1;
		row = glp_add_rows(Q, 1);
		snprintf(name, sizeof(name), "patarc_%zu", arc);
		glp_set_row_name(Q, row, name);
		glp_set_row_bnds(Q, row, GLP_UP, 0, 0);
		glp_set_mat_row(Q, row, (int)n + 1, ind, val);
	}
	free(ind);
	free(val);
}

size_t ilp_pattern_rows(glp_prob *Q, const struct problem *p, const struct arcidx *ix, const struct cols *cl)
{
	const struct ilp_rows w = { Q, p, ix, cl, NULL };
	size_t k, ci, t, rows = 0;

	for (k = 0; k < p->nclasses; k++) {
		const struct pclass *c = &p->classes[k];
		struct pat_class pc;
		int any = 0;
		if (c->nc->gpus_per_node != 1)
			continue;
		memset(&pc, 0, sizeof(pc));
		pc.covered = xcalloc(c->nslot_types + 1, 1);
		for (ci = 0; ci < c->nconfigs; ci++)
			for (t = 0; t < c->configs[ci].nslots; t++)
				pc.covered[c->configs[ci].slot[t]] = 1;
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			int ok = !cf->node_pattern && cf->mode != MODE_PASSTHROUGH && cl->g[k][ci] &&
				 pat_config(&w, k, ci, &pc);
			any |= ok;
			rows += (size_t)ok;
			for (t = 0; !ok && t < cf->nslots; t++)
				pc.covered[cf->slot[t]] = 0;
		}
		if (any)
			pat_arc_rows(Q, p, cl, &pc);
		free(pc.ents);
		free(pc.covered);
	}
	return rows;
}
