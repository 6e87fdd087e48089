/*
 * ilp_key.c - the node key columns and rows of the aggregated model.
 *
 * The NVIDIA device plugin gives every GPU of a node one `replicas` value
 * (time-slicing, MPS; MIG strategy single: one profile), so within a
 * (class, mode) whose configurations carry two keys or more, no node
 * mixes keys (problem.h, config.node_key).  Y[k][m][key] counts the nodes
 * of a key: its GPUs fit on them (keygpus), the keys' nodes are among the
 * mode's (keynodes), and the CPU and RAM of the replicas that can only
 * run on some keys' nodes fit in those nodes (keycpu, keyram).
 *
 * The last rows: a slot type (the ILP's representative) that only
 * configurations of the keys in a set K offer holds replicas that run on
 * nodes of a key in K, so for every such set
 *   sum over the arcs into slot types of a subset of K: cpu_d * A
 *     <= cpu_k * sum over K of Y,
 * and the same for RAM.  Every concrete plan read back with each Y at its
 * nodes of that key satisfies them.  The mode's CPU and RAM rows
 * (ilp_model.c, res_rows) sum over all the mode's nodes and let one key's
 * replicas use another key's CPU: an optimum of the model without these
 * rows can put more cores of replicas on a key's nodes than they have,
 * and dealt over real nodes it loses those replicas.
 * These rows go into the exported model (ilp_write_model), into the
 * LP copies of two rounding chains (ilp_round.c, chain_keys) and into
 * their class MIPs (ilp_sub.c: without them a class MIP chose
 * configurations whose keys the copy's rows then could not fill), not into
 * the model the bound and the branch-and-cut use: there they made the
 * proof several times slower, and in every rounding they moved the plans
 * both ways (docs/benchmarks.md, "Plan quality").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_key.h"
#include "banned.h"

#define KEY_MASK_MAX 64	/* key columns a class may have for the set rows (bits of a mask) */

/*
 * The node key columns of class k: per mode whose configurations carry
 * two keys or more, per key, the nodes whose GPUs are in that key's
 * configurations.
 */
static void key_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
{
	const struct pclass *c = &p->classes[k];
	char name[96];
	size_t ci, cj;
	int m;

	cl->nycol[k] = 0;
	for (m = 0; m < MODE_COUNT; m++) {
		int keys = 0, first = 0;
		if (!cl->n[k * MODE_COUNT + (size_t)m])
			continue;
		for (ci = 0; ci < c->nconfigs; ci++)
			if (c->configs[ci].mode == (enum gpu_mode)m && c->configs[ci].node_key &&
			    c->configs[ci].node_key != first) {
				if (!first)
					first = c->configs[ci].node_key;
				keys++;
			}
		if (keys < 2)
			continue;
		for (ci = 0; ci < c->nconfigs; ci++) {
			const struct config *cf = &c->configs[ci];
			if (cf->mode != (enum gpu_mode)m || !cf->node_key)
				continue;
			for (cj = 0; cj < ci && (c->configs[cj].mode != cf->mode || c->configs[cj].node_key != cf->node_key);
			     cj++)
				;
			if (cj < ci) {
				cl->key[k][ci] = cl->key[k][cj];
				continue;
			}
			snprintf(name, sizeof(name), "Y_%zu_%s_%d", k, mode_name(cf->mode), cf->node_key);
			cl->key[k][ci] = ilp_add_col(P, name, 1, 0, (double)c->nc->count, 0);
			cl->ycol[k][cl->nycol[k]++] = cl->key[k][ci];
		}
	}
}

/* The bit of key column col among class k's (ycol), or -1. */
static int key_bit(const struct cols *cl, size_t k, int col)
{
	size_t y;
	for (y = 0; y < cl->nycol[k]; y++)
		if (cl->ycol[k][y] == col)
			return (int)y;
	return -1;
}

/*
 * The keys whose configurations offer slot type s of class k, as a mask
 * of their bits; 0 when a configuration without a key column offers it.
 */
static uint64_t slot_keys(const struct pclass *c, const struct cols *cl, size_t k, int s)
{
	uint64_t mask = 0;
	size_t ci, j;

	for (ci = 0; ci < c->nconfigs; ci++)
		for (j = 0; j < c->configs[ci].nslots; j++) {
			if (c->configs[ci].slot[j] != s)
				continue;
			if (!cl->key[k][ci])
				return 0;
			mask |= (uint64_t)1 << key_bit(cl, k, cl->key[k][ci]);
		}
	return mask;
}

/*
 * Class k's arcs into slot types of keys only (cols.karc, kmask): what
 * the keys' CPU and RAM rows sum.  Every arc of the
 * problem into class k, whether P has its column or not.
 */
static void key_arcs(const struct problem *p, struct cols *cl, size_t k)
{
	const struct pclass *c = &p->classes[k];
	uint64_t *sk;
	size_t i, n = 0, cap = 0;

	cl->nkarc[k] = 0;
	if (!cl->nycol[k] || cl->nycol[k] > KEY_MASK_MAX)
		return;
	sk = xcalloc(c->nslot_types + 1, sizeof(*sk));
	for (i = 0; i < c->nslot_types; i++)
		sk[i] = slot_keys(c, cl, k, (int)i);
	for (i = 0; i < p->narcs; i++) {
		const struct arc *a = &p->arcs[i];
		if (a->k != (int)k || !sk[a->s])
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			cl->karc[k] = xrealloc(cl->karc[k], cap * sizeof(**cl->karc));
			cl->kmask[k] = xrealloc(cl->kmask[k], cap * sizeof(**cl->kmask));
		}
		cl->karc[k][n] = i;
		cl->kmask[k][n++] = sk[a->s];
	}
	cl->nkarc[k] = n;
	free(sk);
}

void ilp_key_cols(glp_prob *P, const struct problem *p, struct cols *cl, size_t k)
{
	key_cols(P, p, cl, k);
	key_arcs(p, cl, k);
}

static int popcount64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

static int mask_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	int px = popcount64(x), py = popcount64(y);
	if (px != py)
		return px < py ? -1 : 1;
	return (x > y) - (x < y);
}

/* The distinct key sets of class k's arcs, fewest keys first (caller frees); *n of them. */
static uint64_t *key_sets(const struct cols *cl, size_t k, size_t *n)
{
	uint64_t *m = xcalloc(cl->nkarc[k] + 1, sizeof(*m));
	size_t t, u = 0;

	memcpy(m, cl->kmask[k], cl->nkarc[k] * sizeof(*m));
	qsort(m, cl->nkarc[k], sizeof(*m), mask_cmp);
	for (t = 0; t < cl->nkarc[k]; t++)
		if (!u || m[u - 1] != m[t])
			m[u++] = m[t];
	*n = u;
	return m;
}

/* The CPU and RAM rows of class k's key sets (see the top of the file). */
static void key_res_rows(const struct ilp_rows *rw, size_t k)
{
	const struct problem *p = rw->p;
	const struct cols *cl = rw->cl;
	const struct pclass *c = &p->classes[k];
	struct rowbuf *rb = rw->rb;
	char name[96];
	size_t ns, u, t, y;
	uint64_t *sets = key_sets(cl, k, &ns);
	int pass;

	for (u = 0; u < ns; u++)
		for (pass = 0; pass < 2; pass++) {
			double cap = pass ? c->nc->ram_gib : c->nc->cpu_cores;
			int any = 0;
			if ((pass == 0 && !p->any_cpu) || (pass == 1 && !p->any_ram))
				continue;
			for (t = 0; t < cl->nkarc[k]; t++) {
				size_t i = cl->karc[k][t];
				const struct workload *w = p->demands[p->arcs[i].d].w;
				any |= !(cl->kmask[k][t] & ~sets[u]) && cl->arc[i] && (pass ? w->ram_gib : w->cpu_cores) > 0;
			}
			if (!any)
				continue;
			for (t = 0; t < cl->nkarc[k]; t++) {
				size_t i = cl->karc[k][t];
				const struct workload *w = p->demands[p->arcs[i].d].w;
				double need = pass ? w->ram_gib : w->cpu_cores;
				if (!(cl->kmask[k][t] & ~sets[u]) && cl->arc[i] && need > 0)
					ilp_rb_add(rb, cl->arc[i], need);
			}
			for (y = 0; y < cl->nycol[k]; y++)
				if (sets[u] & ((uint64_t)1 << y))
					ilp_rb_add(rb, cl->ycol[k][y], -cap);
			snprintf(name, sizeof(name), "key%s_%zu_%zu", pass ? "ram" : "cpu", k, u);
			ilp_add_row(rw->P, rb, name, GLP_UP, 0, 0);
		}
	free(sets);
}

void ilp_key_rows(const struct ilp_rows *rw, size_t k)
{
	const struct problem *p = rw->p;
	const struct cols *cl = rw->cl;
	struct rowbuf *rb = rw->rb;
	const struct pclass *c = &p->classes[k];
	char name[96];
	size_t y, ci;
	int m;

	for (y = 0; y < cl->nycol[k]; y++) {
		int col = cl->ycol[k][y];
		for (ci = 0; ci < c->nconfigs; ci++)
			if (cl->key[k][ci] == col)
				ilp_rb_add(rb, cl->g[k][ci], 1);
		ilp_rb_add(rb, col, -(double)c->nc->gpus_per_node);
		snprintf(name, sizeof(name), "keygpus_%zu_%zu", k, y);
		ilp_add_row(rw->P, rb, name, GLP_UP, 0, 0);
	}
	for (m = 0; m < MODE_COUNT; m++) {
		int any = 0;
		for (y = 0; y < cl->nycol[k]; y++) {
			for (ci = 0; ci < c->nconfigs && cl->key[k][ci] != cl->ycol[k][y]; ci++)
				;
			if (ci < c->nconfigs && c->configs[ci].mode == (enum gpu_mode)m) {
				ilp_rb_add(rb, cl->ycol[k][y], 1);
				any = 1;
			}
		}
		if (!any)
			continue;
		ilp_rb_add(rb, cl->n[k * MODE_COUNT + (size_t)m], -1);
		snprintf(name, sizeof(name), "keynodes_%zu_%s", k, mode_name((enum gpu_mode)m));
		ilp_add_row(rw->P, rb, name, GLP_UP, 0, 0);
	}
}

void ilp_key_res_rows(const struct ilp_rows *rw, size_t k)
{
	if ((rw->p->any_cpu || rw->p->any_ram) && rw->cl->nkarc[k])
		key_res_rows(rw, k);
}

void ilp_key_fill(const struct problem *p, const struct cols *cl, size_t k, double *x)
{
	const struct pclass *c = &p->classes[k];
	size_t ci;

	for (ci = 0; ci < cl->nycol[k]; ci++)
		x[cl->ycol[k][ci]] = 0;
	for (ci = 0; ci < c->nconfigs; ci++)
		if (cl->key[k][ci])
			x[cl->key[k][ci]] += x[cl->g[k][ci]];
	for (ci = 0; ci < cl->nycol[k]; ci++)
		x[cl->ycol[k][ci]] = ceil(x[cl->ycol[k][ci]] / c->nc->gpus_per_node - 1e-9);
}
