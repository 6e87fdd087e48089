/*
 * ilp_pack.c - a class's share of a plan packed exactly onto its nodes.
 *
 * The model checks CPU and RAM summed over a (class, mode)'s nodes, and
 * the deal (cplan_deal.c) places replicas one at a time, so a deal can
 * leave a replica without a slot on nodes that could hold them all when
 * packed exactly.  The replicas the deal loses go to other
 * nodes, or stay unplaced, and the plan search takes counts that deal
 * worse for counts that deal better.
 *
 * Packing a class exactly: its nodes, each a copy of the one-node model
 * (the class's rows with one node: its mode, each GPU's configuration,
 * the replicas in each slot type within its CPU, RAM and node key;
 * integer replicas), at most the counts' nodes of each mode and the
 * counts' replicas of each arc, the replicas left out at their demand's
 * penalty.  Its optimum places as many replicas as those nodes can hold
 * (the penalties dominate every cost), then at the least cost; a budget
 * of branch-and-bound nodes stops it, deterministically.  It starts from
 * the deal's own layout of those nodes (deal_layout, layout_start), so it
 * never ends below what the deal placed there (cold, a budget of nodes
 * can end below the deal).  Copies are
 * ordered (a copy is used only if the one before it is) against
 * symmetry.  Small classes only (PACK_MAX_NODES, PACK_MAX_ARC_COLS):
 * the MIP grows with the nodes and arcs; and a class's share recurs
 * across the plan search's deals, so each is packed once (the cache).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ilp.h"
#include "util.h"
#include "verify.h"
#include "ilp_glpk.h"
#include "ilp_one_node.h"
#include "ilp_pack.h"
#include "banned.h"

#define PACK_CACHE_MAX 4096	/* packings kept; past it, packed each time */

/* A class's share (nodes per mode, then replicas per arc of the class) and its packing. */
struct pack_entry {
	size_t k;
	uint64_t hash;
	long *key;
	size_t nkey;
	long placed;		/* replicas the packing places; -1: none found */
	int cut;		/* the deadline stopped it: not for the cache */
	int started;		/* it started from the deal's layout */
	struct cplan_recipe *rec;
	size_t nrec;
};

/*
 * A class's share of the counts and the deal's layout of its nodes:
 * what a packing is a function of.
 */
struct share {
	size_t k;		/* the class */
	const long *nmode;	/* the counts' nodes per (class, mode) */
	const long *target;	/* the counts' replicas per arc (cplan_round_arcs) */
	long *lay;		/* the deal's nodes of k (deal_layout), LAY_WIDTH numbers a node */
	long nlay;		/* how many */
	double by;		/* util_now_s() time its packing stops by (ilp_deal) */
};

/* The packing MIP of a share being built and solved. */
struct pack_mip {
	const struct ilp_pack *pk;
	const struct share *sh;
	struct ilp_one_node on;	/* the class's one-node model */
	glp_prob *E;		/* the MIP: Q copies of on, then the shortfalls */
	int Q;			/* copies: the share's nodes */
	int *base;		/* [q]: copy q's first column less one */
	int *ind;		/* scratch for a row: columns, 1-based */
	double *val;		/* and coefficients */
};

void ilp_pack_init(struct ilp_pack *pk, const struct problem *p, const struct arcidx *ix, double deadline)
{
	memset(pk, 0, sizeof(*pk));
	pk->p = p;
	pk->ix = ix;
	pk->deadline = deadline;
	pk->stop_by = HUGE_VAL;
	pk->mip_nodes = PACK_MIP_NODES;
	pthread_mutex_init(&pk->lock, NULL);
}

static void entry_free(struct pack_entry *e)
{
	size_t i;
	for (i = 0; i < e->nrec; i++)
		cplan_recipe_free(&e->rec[i]);
	free(e->rec);
	free(e->key);
}

void ilp_pack_release(struct ilp_pack *pk)
{
	size_t i;
	for (i = 0; i < pk->n; i++) {
		entry_free(pk->cache[i]);
		free(pk->cache[i]);
	}
	free(pk->cache);
	ilp_memo_free(pk->p, pk->memo, pk->nmemo);
	pthread_mutex_destroy(&pk->lock);
}

/* Appends a copy of on's columns and rows to E; the copy's first column less one. */
static int copy_node(glp_prob *E, const struct ilp_one_node *on, int *ind, double *val)
{
	int base = glp_get_num_cols(E), j, r, t, len;

	glp_add_cols(E, on->nc);
	for (j = 1; j <= on->nc; j++) {
		glp_set_col_kind(E, base + j, glp_get_col_kind(on->S, j));
		glp_set_col_bnds(E, base + j, glp_get_col_type(on->S, j), glp_get_col_lb(on->S, j),
				 glp_get_col_ub(on->S, j));
		glp_set_obj_coef(E, base + j, glp_get_obj_coef(on->S, j));
	}
	for (r = 1; r <= on->nr; r++) {
		int nr = glp_add_rows(E, 1);
		glp_set_row_bnds(E, nr, glp_get_row_type(on->S, r), glp_get_row_lb(on->S, r), glp_get_row_ub(on->S, r));
		len = glp_get_mat_row(on->S, r, ind, val);
		for (t = 1; t <= len; t++)
			ind[t] += base;
		glp_set_mat_row(E, nr, len, ind, val);
	}
	return base;
}

/* Adds the row sum_q (copy q's column col) <= hi over mp's copies. */
static void copies_row(const struct pack_mip *mp, int col, double hi)
{
	int q, r = glp_add_rows(mp->E, 1);

	for (q = 0; q < mp->Q; q++) {
		mp->ind[q + 1] = mp->base[q] + col;
		mp->val[q + 1] = 1;
	}
	glp_set_row_bnds(mp->E, r, GLP_UP, 0, hi);
	glp_set_mat_row(mp->E, r, mp->Q, mp->ind, mp->val);
}

/* Copy q's node in mp's solution as a recipe (0: the copy is not used). */
static int read_recipe(const struct pack_mip *mp, int q, struct cplan_recipe *r)
{
	const struct problem *p = mp->pk->p;
	const struct arcidx *ix = mp->pk->ix;
	const struct ilp_one_node *on = &mp->on;
	glp_prob *E = mp->E;
	size_t k = mp->sh->k, ci, a;
	const struct pclass *c = &p->classes[k];
	int m, used = 0, base = mp->base[q];

	memset(r, 0, sizeof(*r));
	r->k = (int)k;
	r->pattern = -1;
	for (m = 0; m < MODE_COUNT; m++) {
		int col = on->lc.n[k * MODE_COUNT + (size_t)m];
		if (col && glp_mip_col_val(E, base + col) > 0.5) {
			r->mode = (enum gpu_mode)m;
			used = 1;
		}
	}
	if (!used)
		return 0;
	r->cfg = xcalloc((size_t)c->nc->gpus_per_node + 1, sizeof(*r->cfg));
	for (ci = 0; ci < c->nconfigs; ci++) {
		long v = lround(glp_mip_col_val(E, base + on->lc.g[k][ci]));
		if (v > 0 && c->configs[ci].node_pattern)
			r->pattern = (int)ci;
		else
			for (; v > 0 && r->ncfg < c->nc->gpus_per_node; v--)
				r->cfg[r->ncfg++] = (int)ci;
	}
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		size_t i = ix->byk[a];
		long v = lround(glp_mip_col_val(E, base + on->lc.arc[i]));
		if (v <= 0)
			continue;
		r->rep_d = xrealloc(r->rep_d, ((size_t)r->nrep + (size_t)v) * sizeof(*r->rep_d));
		r->rep_s = xrealloc(r->rep_s, ((size_t)r->nrep + (size_t)v) * sizeof(*r->rep_s));
		for (; v > 0; v--) {
			r->rep_d[r->nrep] = p->arcs[i].d;
			r->rep_s[r->nrep++] = p->arcs[i].s;
		}
	}
	return 1;
}

/* The packing MIP's callback: its first incumbent (the deal's layout), its node budget. */
struct pack_cb {
	const double *start;	/* 1-based, every column; NULL: none, or offered */
	int nodes;		/* the budget */
	int started;		/* GLPK took the start */
};

static void budget_callback(glp_tree *T, void *info)
{
	struct pack_cb *cb = info;
	int total;

	if (glp_ios_reason(T) == GLP_IHEUR && cb->start) {
		cb->started = glp_ios_heur_sol(T, cb->start) == 0;
		cb->start = NULL;
	}
	glp_ios_tree_size(T, NULL, NULL, &total);
	if (total >= cb->nodes && !cb->start)	/* not before the start is offered (at the root's first GLP_IHEUR) */
		glp_ios_terminate(T);
}

/*
 * The deal's nodes of class sh->k as rows of the packing's columns: per
 * node (in the plan's order, at most the counts' nodes of each mode) its
 * mode, its GPUs per configuration (or its node pattern) and its
 * replicas per arc of the class, within the share's replicas of each
 * arc.  Into sh->lay (caller frees), LAY_WIDTH numbers a node, and
 * sh->nlay, the nodes.
 */
#define LAY_WIDTH(c, narcs) (1 + (c)->nconfigs + (narcs))

static void deal_layout(const struct ilp_pack *pk, struct share *sh, const struct cplan *cp)
{
	const struct problem *p = pk->p;
	size_t k = sh->k;
	const long *nmode = sh->nmode, *target = sh->target;
	const struct pclass *c = &p->classes[k];
	size_t lo = pk->ix->kstart[k], hi = pk->ix->kstart[k + 1], w = LAY_WIDTH(c, hi - lo), nd, sl, a;
	long used[MODE_COUNT] = { 0 }, *left = xcalloc(hi - lo + 1, sizeof(*left)), n = 0;
	long *row_of = xmalloc((cp->nnodes + 1) * sizeof(*row_of));
	long **lay = &sh->lay;

	*lay = NULL;
	for (a = lo; a < hi; a++)
		left[a - lo] = target[pk->ix->byk[a]];
	for (nd = 0; nd < cp->nnodes; nd++) {
		const struct cnode *node = &cp->nodes[nd];
		long *row;
		int g;
		row_of[nd] = -1;
		if (node->k != (int)k || used[node->mode] >= nmode[k * MODE_COUNT + (size_t)node->mode])
			continue;
		used[node->mode]++;
		*lay = xrealloc(*lay, ((size_t)n + 1) * w * sizeof(**lay));
		row = *lay + (size_t)n * w;
		row_of[nd] = n++;
		memset(row, 0, w * sizeof(*row));
		row[0] = node->mode;
		if (node->pattern >= 0)
			row[1 + node->pattern] = 1;
		else if (node->mode != MODE_PASSTHROUGH)
			for (g = 0; g < c->nc->gpus_per_node; g++)
				if (node->gpu_config[g] >= 0)
					row[1 + node->gpu_config[g]]++;
	}
	for (sl = 0; sl < cp->nslots; sl++) {	/* a node of k's replicas: arcs of k */
		size_t i = cplan_slot_arc(cp, sl);
		if (i == (size_t)-1 || row_of[cp->slots[sl].node] < 0)
			continue;
		a = pk->ix->pos[i];
		if (left[a - lo] > 0) {
			left[a - lo]--;
			(*lay)[(size_t)row_of[cp->slots[sl].node] * w + 1 + c->nconfigs + (a - lo)]++;
		}
	}
	free(row_of);
	free(left);
	sh->nlay = n;
}

/* A column's bounds, to put back after fixing it. */
struct colbnd {
	int type;		/* 0: not fixed (GLPK's types are 1 to 5) */
	double lb, ub;
};

static void fix_col(glp_prob *E, int j, double v, struct colbnd *keep)
{
	keep[j].type = glp_get_col_type(E, j);
	keep[j].lb = glp_get_col_lb(E, j);
	keep[j].ub = glp_get_col_ub(E, j);
	glp_set_col_bnds(E, j, GLP_FX, v, v);
}

/*
 * The share's layout as a solution of the packing MIP mp->E: its columns
 * fixed, E solved for the rest (the shortfalls, the class's totals), the
 * bounds put back.  NULL when E has no solution so fixed.  Caller frees.
 */
static double *layout_start(const struct pack_mip *mp)
{
	const struct ilp_pack *pk = mp->pk;
	const struct ilp_one_node *on = &mp->on;
	glp_prob *E = mp->E;
	const int *base = mp->base;
	const long *lay = mp->sh->lay;
	long nlay = mp->sh->nlay;
	int Q = mp->Q;
	size_t k = mp->sh->k;
	const struct pclass *c = &pk->p->classes[k];
	size_t lo = pk->ix->kstart[k], hi = pk->ix->kstart[k + 1], w = LAY_WIDTH(c, hi - lo), ci, a;
	int n = glp_get_num_cols(E), q, m, j;
	struct colbnd *keep = xcalloc((size_t)n + 1, sizeof(*keep));
	double *x = NULL;
	glp_smcp smcp;
	glp_iocp iocp;

	for (q = 0; q < Q; q++) {
		const long *row = q < nlay ? lay + (size_t)q * w : NULL;
		for (m = 0; m < MODE_COUNT; m++)
			if (on->lc.n[k * MODE_COUNT + (size_t)m])
				fix_col(E, base[q] + on->lc.n[k * MODE_COUNT + (size_t)m], row && row[0] == m, keep);
		if (!row)
			continue;
		for (ci = 0; ci < c->nconfigs; ci++)
			fix_col(E, base[q] + on->lc.g[k][ci], (double)row[1 + ci], keep);
		for (a = lo; a < hi; a++)
			fix_col(E, base[q] + on->lc.arc[pk->ix->byk[a]], (double)row[1 + c->nconfigs + (a - lo)], keep);
	}
	glp_init_smcp(&smcp);
	smcp.msg_lev = GLP_MSG_OFF;
	glp_init_iocp(&iocp);
	iocp.msg_lev = GLP_MSG_OFF;
	iocp.tm_lim = smcp.tm_lim = ilp_ms_left(mp->sh->by);
	if (smcp.tm_lim > 0 && !glp_simplex(E, &smcp) && glp_get_status(E) == GLP_OPT && !glp_intopt(E, &iocp) &&
	    (glp_mip_status(E) == GLP_OPT || glp_mip_status(E) == GLP_FEAS)) {
		x = xcalloc((size_t)n + 1, sizeof(*x));
		for (j = 1; j <= n; j++)
			x[j] = glp_mip_col_val(E, j);
	}
	for (j = 1; j <= n; j++)
		if (keep[j].type)
			glp_set_col_bnds(E, j, keep[j].type, keep[j].lb, keep[j].ub);
	free(keep);
	return x;
}

/* Rows of the packing MIP mp->E over its copies: modes, order, arcs, demands (with their shortfall). */
static void pack_rows(const struct pack_mip *mp)
{
	const struct problem *p = mp->pk->p;
	const struct arcidx *ix = mp->pk->ix;
	const struct ilp_one_node *on = &mp->on;
	glp_prob *E = mp->E;
	const int *base = mp->base;
	const long *target = mp->sh->target;
	int *ind = mp->ind, Q = mp->Q, m, q;
	double *val = mp->val;
	size_t k = mp->sh->k, a, b, lo = ix->kstart[k], hi = ix->kstart[k + 1];

	for (m = 0; m < MODE_COUNT; m++)
		if (on->lc.n[k * MODE_COUNT + (size_t)m])
			copies_row(mp, on->lc.n[k * MODE_COUNT + (size_t)m], (double)mp->sh->nmode[k * MODE_COUNT + (size_t)m]);
	for (q = 1; q < Q; q++) {
		int n = 0, r = glp_add_rows(E, 1);
		for (m = 0; m < MODE_COUNT; m++) {
			int col = on->lc.n[k * MODE_COUNT + (size_t)m];
			if (!col)
				continue;
			ind[++n] = base[q - 1] + col;
			val[n] = 1;
			ind[++n] = base[q] + col;
			val[n] = -1;
		}
		glp_set_row_bnds(E, r, GLP_LO, 0, 0);
		glp_set_mat_row(E, r, n, ind, val);
	}
	for (a = lo; a < hi; a++)
		copies_row(mp, on->lc.arc[ix->byk[a]], (double)target[ix->byk[a]]);
	for (a = lo; a < hi; a++) {	/* arcs come by slot type, then demand: one row per demand */
		int d = p->arcs[ix->byk[a]].d, n = 0, u, r;
		long want = 0;
		for (b = lo; b < a && p->arcs[ix->byk[b]].d != d; b++)
			;
		if (b < a)
			continue;
		for (b = a; b < hi; b++)
			if (p->arcs[ix->byk[b]].d == d) {
				want += target[ix->byk[b]];
				for (q = 0; q < Q; q++) {
					ind[++n] = base[q] + on->lc.arc[ix->byk[b]];
					val[n] = 1;
				}
			}
		if (!want)
			continue;
		u = glp_add_cols(E, 1);
		glp_set_col_kind(E, u, GLP_IV);
		glp_set_col_bnds(E, u, GLP_DB, 0, (double)want);
		glp_set_obj_coef(E, u, p->demands[d].solve_penalty);
		ind[++n] = u;
		val[n] = 1;
		r = glp_add_rows(E, 1);
		glp_set_row_bnds(E, r, GLP_FX, (double)want, (double)want);
		glp_set_mat_row(E, r, n, ind, val);
	}
}

/* The packing MIP of pk's share sh, built into mp: sh's nodes as copies of the one-node model, and its rows. */
static void mip_open(const struct ilp_pack *pk, const struct share *sh, struct pack_mip *mp)
{
	size_t k = sh->k, narcs = pk->ix->kstart[k + 1] - pk->ix->kstart[k], cap;
	int q, m;

	mp->pk = pk;
	mp->sh = sh;
	mp->E = glp_create_prob();
	mp->Q = 0;
	for (m = 0; m < MODE_COUNT; m++)
		mp->Q += (int)sh->nmode[k * MODE_COUNT + (size_t)m];
	ilp_one_node_build(pk->p, pk->ix, k, &mp->on);
	cap = ((size_t)mp->on.nc > (size_t)mp->Q * narcs ? (size_t)mp->on.nc : (size_t)mp->Q * narcs) + 2;
	mp->base = xcalloc((size_t)mp->Q + 1, sizeof(*mp->base));
	mp->ind = xcalloc(cap, sizeof(*mp->ind));
	mp->val = xcalloc(cap, sizeof(*mp->val));
	glp_set_obj_dir(mp->E, GLP_MIN);
	for (q = 0; q < mp->Q; q++)
		mp->base[q] = copy_node(mp->E, &mp->on, mp->ind, mp->val);
	pack_rows(mp);
}

static void mip_close(struct pack_mip *mp)
{
	glp_delete_prob(mp->E);
	ilp_one_node_free(mp->pk->p, &mp->on);
	free(mp->base);
	free(mp->ind);
	free(mp->val);
}

/* The solved MIP mp's packing into e: the replicas placed and the nodes' recipes. */
static void mip_read(const struct pack_mip *mp, struct pack_entry *e)
{
	const struct arcidx *ix = mp->pk->ix;
	size_t k = mp->sh->k, i;
	double shortfall = 0;
	int j, q;

	for (j = mp->Q * mp->on.nc + 1; j <= glp_get_num_cols(mp->E); j++)	/* after the copies: the shortfalls */
		shortfall += glp_mip_col_val(mp->E, j);
	e->placed = -lround(shortfall);
	for (i = ix->kstart[k]; i < ix->kstart[k + 1]; i++)
		e->placed += mp->sh->target[ix->byk[i]];
	e->rec = xcalloc((size_t)mp->Q + 1, sizeof(*e->rec));
	for (q = 0; q < mp->Q; q++)
		e->nrec += (size_t)read_recipe(mp, q, &e->rec[e->nrec]);
}

/* Packs pk's share sh, from the deal's layout, into e: the replicas placed and the nodes' recipes. */
static void pack_class(const struct ilp_pack *pk, const struct share *sh, struct pack_entry *e)
{
	struct pack_mip mp;
	glp_smcp smcp;
	glp_iocp iocp;
	int st, ret;
	double *start;
	struct pack_cb cb;

	mip_open(pk, sh, &mp);
	cb.start = start = sh->nlay > 0 ? layout_start(&mp) : NULL;
	cb.nodes = pk->mip_nodes;
	cb.started = 0;
	glp_init_smcp(&smcp);
	smcp.msg_lev = GLP_MSG_OFF;
	smcp.tm_lim = ilp_ms_left(sh->by);
	glp_init_iocp(&iocp);
	iocp.tm_lim = smcp.tm_lim;
	iocp.msg_lev = GLP_MSG_OFF;
	iocp.mir_cuts = GLP_ON;
	iocp.cov_cuts = GLP_ON;
	iocp.fp_heur = GLP_ON;
	iocp.cb_func = budget_callback;
	iocp.cb_info = &cb;
	e->placed = -1;
	ret = smcp.tm_lim > 0 ? glp_simplex(mp.E, &smcp) : GLP_ETMLIM;
	if (!ret && glp_get_status(mp.E) == GLP_OPT)
		ret = glp_intopt(mp.E, &iocp);
	e->cut = ret == GLP_ETMLIM;	/* any other failure is the share's own: cached as none found */
	e->started = cb.started;
	if (glp_get_status(mp.E) == GLP_OPT) {
		st = glp_mip_status(mp.E);
		if (st == GLP_OPT || st == GLP_FEAS)
			mip_read(&mp, e);
	}
	mip_close(&mp);
	free(start);
}

/*
 * The share as a key: nodes per mode, the replicas of each of its arcs,
 * then a hash of the deal's layout, which the packing starts from: the
 * packing is a function of the key.
 */
static void share_key(const struct ilp_pack *pk, const struct share *sh, struct pack_entry *e)
{
	size_t k = sh->k, a, lo = pk->ix->kstart[k], hi = pk->ix->kstart[k + 1];
	const long *nmode = sh->nmode, *target = sh->target, *lay = sh->lay;
	long nlay = sh->nlay;

	e->k = k;
	e->nkey = MODE_COUNT + hi - lo + 1;
	e->key = xcalloc(e->nkey + 1, sizeof(*e->key));
	memcpy(e->key, nmode + k * MODE_COUNT, MODE_COUNT * sizeof(*e->key));
	for (a = lo; a < hi; a++)
		e->key[MODE_COUNT + a - lo] = target[pk->ix->byk[a]];
	e->key[e->nkey - 1] = (long)(ilp_hash_longs(1469598103934665603ULL, lay,
						  (size_t)nlay * LAY_WIDTH(&pk->p->classes[k], hi - lo)) >> 1);
	e->hash = ilp_hash_longs(1469598103934665603ULL ^ k, e->key, e->nkey);
}

static struct pack_entry *cache_find(const struct ilp_pack *pk, const struct pack_entry *e)
{
	size_t i;
	for (i = 0; i < pk->n; i++) {
		struct pack_entry *c = pk->cache[i];
		if (c->hash == e->hash && c->k == e->k && c->nkey == e->nkey &&
		    !memcmp(c->key, e->key, e->nkey * sizeof(*e->key)))
			return c;
	}
	return NULL;
}

/*
 * Class k's share packed: the cache's entry, or packed now and kept in
 * the cache while it has room.  *owned: the caller frees the entry (the
 * cache was full).  Entries in the cache never change or move.
 */
static struct pack_entry *pack_share(struct ilp_pack *pk, const struct share *of, const struct cplan *cp,
				     int *owned)
{
	struct pack_entry *e = xcalloc(1, sizeof(*e)), *hit;
	struct share sh = *of;

	deal_layout(pk, &sh, cp);
	share_key(pk, &sh, e);
	*owned = 0;
	pthread_mutex_lock(&pk->lock);
	hit = cache_find(pk, e);
	pk->hits += hit != NULL;
	pthread_mutex_unlock(&pk->lock);
	if (!hit) {
		pack_class(pk, &sh, e);
		pthread_mutex_lock(&pk->lock);
		pk->packs++;
		pk->started += e->started;
		hit = cache_find(pk, e);	/* packed by another thread meanwhile: the same */
		if (!hit && !e->cut && pk->n < PACK_CACHE_MAX) {
			XGROW(pk->cache, pk->cap, pk->n + 1);
			pk->cache[pk->n++] = e;
		} else if (!hit) {
			*owned = 1;
		}
		pthread_mutex_unlock(&pk->lock);
	}
	free(sh.lay);
	if (!hit)
		return e;
	entry_free(e);
	free(e);
	return hit;
}

/*
 * Replicas of class k's arcs the plan placed there, of those target
 * gives it (got: per arc, placed), and of target's.
 */
static void class_share(const struct ilp_pack *pk, size_t k, const long *target, const double *got, long *placed,
			long *want)
{
	size_t a;

	*placed = *want = 0;
	for (a = pk->ix->kstart[k]; a < pk->ix->kstart[k + 1]; a++) {
		size_t i = pk->ix->byk[a];
		*want += target[i];
		*placed += (long)got[i] < target[i] ? (long)got[i] : target[i];
	}
}

/* The classes one deal packs: their nodes as recipes (shallow copies: the entries own them). */
struct packed {
	struct cplan_recipe *pre;
	size_t npre, cap;
	unsigned char *is;	/* [k]: class k is packed */
};

/* cp dealt again with the classes packed (pd) built as packed and their counts left out; kept when better. */
static int deal_packed(struct cplan *cp, const struct packed *pd, const long *nmode, long *const *ncfg,
		       const double *arc)
{
	const unsigned char *packed = pd->is;
	const struct problem *p = cp->p;
	long *nm = xmalloc((p->nclasses * MODE_COUNT + 1) * sizeof(*nm));
	long **cf = xcalloc(p->nclasses + 1, sizeof(*cf));
	double *ar = xmalloc((p->narcs + 1) * sizeof(*ar));
	struct cplan np;
	struct cplan_cost c0, c1;
	struct diag d = DIAG_INIT;
	size_t k, i;
	int better;

	memcpy(nm, nmode, p->nclasses * MODE_COUNT * sizeof(*nm));
	for (k = 0; k < p->nclasses; k++) {
		cf[k] = xcalloc(p->classes[k].nconfigs + 1, sizeof(**cf));
		if (packed[k])
			memset(nm + k * MODE_COUNT, 0, MODE_COUNT * sizeof(*nm));
		else
			memcpy(cf[k], ncfg[k], p->classes[k].nconfigs * sizeof(**cf));
	}
	for (i = 0; i < p->narcs; i++)
		ar[i] = packed[p->arcs[i].k] ? 0 : arc[i];
	cplan_init(&np, p);
	cplan_from_counts_on(&np, pd->pre, pd->npre, nm, cf, ar);
	cplan_cost(cp, &c0);
	cplan_cost(&np, &c1);
	better = cplan_better(&np, &c1, cp, &c0) && verify_plan(&np, &d) == 0;
	diag_release(&d);
	if (better) {
		cplan_release(cp);
		*cp = np;
	} else {
		cplan_release(&np);
	}
	for (k = 0; k < p->nclasses; k++)
		free(cf[k]);
	free(cf);
	free(nm);
	free(ar);
	return better;
}

/*
 * The longest part of a deal no clock stops (its plans of the counts:
 * cplan_from_counts, then the plan with the packed classes) now, and
 * t more measured.
 */
static double deal_tail(struct ilp_pack *pk, double t)
{
	double tail;

	pthread_mutex_lock(&pk->lock);
	if (t > pk->tail_s)
		pk->tail_s = t;
	tail = pk->tail_s;
	pthread_mutex_unlock(&pk->lock);
	return tail;
}

double ilp_pack_tail(struct ilp_pack *pk)
{
	return deal_tail(pk, 0);
}

void ilp_deal(struct ilp_pack *pk, struct cplan *cp, const long *nmode, long *const *ncfg, const double *arc)
{
	const struct problem *p = cp->p;
	long *target, placed, want, nodes;
	double *got, t = util_now_s();
	struct packed pd = { NULL, 0, 0, NULL };
	struct pack_entry **own = NULL;
	struct share sh = { 0, nmode, NULL, NULL, 0, 0 };
	size_t k, nown = 0;
	int m, owned;

	cplan_from_counts(cp, nmode, ncfg, arc);
	if (!pk)
		return;
	t = util_now_s() - t;
	/* the packings stop in time for the plan with them (about one more plan of the counts) */
	sh.by = fmin(pk->deadline - deal_tail(pk, t), pk->stop_by);
	target = cplan_round_arcs(p, arc);
	sh.target = target;
	got = xcalloc(p->narcs + 1, sizeof(*got));
	pd.is = xcalloc(p->nclasses + 1, 1);
	own = xcalloc(p->nclasses + 1, sizeof(*own));
	cplan_arc_placed(cp, got);
	for (k = 0; k < p->nclasses; k++) {
		struct pack_entry *e;
		for (nodes = 0, m = 0; m < MODE_COUNT; m++)
			nodes += nmode[k * MODE_COUNT + (size_t)m];
		class_share(pk, k, target, got, &placed, &want);
		if (placed >= want || nodes <= 0 || nodes > PACK_MAX_NODES ||
		    nodes * (long)(pk->ix->kstart[k + 1] - pk->ix->kstart[k]) > PACK_MAX_ARC_COLS)
			continue;
		sh.k = k;
		e = pack_share(pk, &sh, cp, &owned);
		if (owned)
			own[nown++] = e;
		if (e->placed <= placed)
			continue;
		pd.is[k] = 1;
		XGROW(pd.pre, pd.cap, pd.npre + e->nrec + 1);
		memcpy(pd.pre + pd.npre, e->rec, e->nrec * sizeof(*pd.pre));
		pd.npre += e->nrec;
	}
	if (pd.npre) {
		double t1 = util_now_s();
		int better = deal_packed(cp, &pd, nmode, ncfg, arc);
		deal_tail(pk, t + util_now_s() - t1);
		pthread_mutex_lock(&pk->lock);
		pk->kept += better;
		pthread_mutex_unlock(&pk->lock);
	}
	while (nown--) {
		entry_free(own[nown]);
		free(own[nown]);
	}
	free(own);
	free(pd.pre);
	free(pd.is);
	free(got);
	free(target);
}

int ilp_deal_complete(struct ilp_pack *pk, struct cplan *cp, double model_unplaced)
{
	int kept;

	if (!((double)cplan_unplaced_count(cp) > model_unplaced + 0.5))
		return 0;
	kept = cplan_complete(cp);
	if (pk) {
		pthread_mutex_lock(&pk->lock);
		pk->completions++;
		pk->completed += kept;
		pthread_mutex_unlock(&pk->lock);
	}
	return kept;
}

void ilp_pack_remember(struct ilp_pack *pk, uint64_t made, double cost, const struct ilp_result *from)
{
	pthread_mutex_lock(&pk->lock);
	ilp_memo_add(pk->memo, &pk->nmemo, pk->p, made, cost, from);
	pthread_mutex_unlock(&pk->lock);
}

void ilp_concrete(const struct problem *p, const struct ilp_result *r, struct cplan *cp, double seconds)
{
	struct arcidx ix;
	struct ilp_pack own, *pk = r->pack;
	struct pack_counts from = { r->nmode, r->ncfg, r->arc };
	double deadline = seconds > 1e9 ? HUGE_VAL : util_now_s() + seconds, un;
	size_t i;

	ilp_arcidx_build(&ix, p);
	if (pk) {	/* the solve's packings, on this index (the same arcs, built the same way) */
		uint64_t h = ilp_counts_hash(p, r);
		pk->ix = &ix;
		pk->deadline = deadline;
		for (i = 0; i < pk->nmemo; i++)
			if (pk->memo[i].made == h)
				from = pk->memo[i].from;	/* the counts the solve made this plan from */
	} else {
		ilp_pack_init(&own, p, &ix, deadline);
		pk = &own;
	}
	ilp_deal(pk, cp, from.nmode, from.ncfg, from.arc);
	for (un = 0, i = 0; i < p->ndemands; i++)
		un += r->unplaced[i];
	ilp_deal_complete(pk, cp, un);	/* as the solve completed it (ilp_repair_vector) */
	if (pk == &own)
		ilp_pack_release(&own);
	else
		pk->ix = NULL;
	ilp_arcidx_release(&ix);
}
