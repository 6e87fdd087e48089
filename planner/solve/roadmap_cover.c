/*
 * roadmap_cover.c - the minimum-cost cover (roadmap_cover.h) as a
 * minimum-cost flow, by successive shortest paths (Bellman-Ford, since
 * residual arcs cost less than nothing).  The graphs are small: a node
 * per period boundary, an arc per commitment and start, per fallback and
 * period, per surplus.
 */
#include <limits.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "roadmap_cover.h"
#include "util.h"
#include "banned.h"

#define BIG (LONG_MAX / 4)
#define EPS 1e-9

/* Arcs in pairs: arc e and its reverse e ^ 1. */
struct flow {
	size_t nv, na, cap_arcs;
	size_t *from, *to;
	long *cap;
	double *cost;
};

static size_t arc_add(struct flow *f, size_t u, size_t v, long cap, double cost)
{
	size_t e = f->na;

	if (f->na + 2 > f->cap_arcs) {
		f->cap_arcs = 2 * f->cap_arcs + 16;
		f->from = xrealloc(f->from, f->cap_arcs * sizeof(*f->from));
		f->to = xrealloc(f->to, f->cap_arcs * sizeof(*f->to));
		f->cap = xrealloc(f->cap, f->cap_arcs * sizeof(*f->cap));
		f->cost = xrealloc(f->cost, f->cap_arcs * sizeof(*f->cost));
	}
	f->from[e] = u;
	f->to[e] = v;
	f->cap[e] = cap;
	f->cost[e] = cost;
	f->from[e + 1] = v;
	f->to[e + 1] = u;
	f->cap[e + 1] = 0;
	f->cost[e + 1] = -cost;
	f->na += 2;
	return e;
}

/* The cheapest path s -> k in the residual graph into pred (arc into each node); 0 when there is none. */
static int shortest(const struct flow *f, size_t s, size_t k, double *dist, size_t *pred)
{
	size_t i, e;
	int changed = 1;

	for (i = 0; i < f->nv; i++) {
		dist[i] = HUGE_VAL;
		pred[i] = SIZE_MAX;
	}
	dist[s] = 0;
	for (i = 0; i < f->nv && changed; i++) {
		changed = 0;
		for (e = 0; e < f->na; e++)
			if (f->cap[e] > 0 && dist[f->from[e]] < HUGE_VAL &&
			    dist[f->from[e]] + f->cost[e] < dist[f->to[e]] - EPS) {
				dist[f->to[e]] = dist[f->from[e]] + f->cost[e];
				pred[f->to[e]] = e;
				changed = 1;
			}
	}
	return dist[k] < HUGE_VAL;
}

/* Pushes flow s -> k along shortest paths until none is left; the flow pushed. */
static long push_all(struct flow *f, size_t s, size_t k)
{
	double *dist = xcalloc(f->nv, sizeof(*dist));
	size_t *pred = xcalloc(f->nv, sizeof(*pred));
	long total = 0;

	while (shortest(f, s, k, dist, pred)) {
		long b = BIG;
		size_t v;
		for (v = k; v != s; v = f->from[pred[v]])
			if (f->cap[pred[v]] < b)
				b = f->cap[pred[v]];
		for (v = k; v != s; v = f->from[pred[v]]) {
			f->cap[pred[v]] -= b;
			f->cap[pred[v] ^ 1] += b;
		}
		total += b;
	}
	free(dist);
	free(pred);
	return total;
}

int cover_solve(const struct cover *cv, long *x, long *y)
{
	struct flow f;
	size_t T = cv->T, s = T + 1, k = T + 2, t, j, q;
	size_t *opt_arc = xcalloc(cv->nopt + 1, sizeof(*opt_arc));
	size_t *tier_arc = xcalloc(cv->ntier * T + 1, sizeof(*tier_arc));
	long want = 0;
	int rc;

	memset(&f, 0, sizeof(f));
	f.nv = T + 3;
	for (j = 0; j < cv->nopt; j++) {
		size_t end = cv->opt[j].start + cv->opt[j].len;
		opt_arc[j] = arc_add(&f, cv->opt[j].start, end < T ? end : T, BIG, cv->opt[j].cost);
	}
	for (q = 0; q < cv->ntier; q++)
		for (t = 0; t < T; t++)
			tier_arc[q * T + t] = arc_add(&f, t, t + 1, cv->tier[q].cap[t], cv->tier[q].cost[t]);
	for (t = 0; t < T; t++)
		arc_add(&f, t + 1, t, BIG, 0);
	for (t = 0; t <= T; t++) {
		long b = (t < T ? cv->need[t] : 0) - (t > 0 ? cv->need[t - 1] : 0);
		if (b > 0) {
			arc_add(&f, s, t, b, 0);
			want += b;
		} else if (b < 0) {
			arc_add(&f, t, k, -b, 0);
		}
	}
	rc = push_all(&f, s, k) == want ? 0 : -1;
	for (j = 0; j < cv->nopt; j++)
		x[j] = f.cap[opt_arc[j] ^ 1];
	for (q = 0; q < cv->ntier * T; q++)
		y[q] = f.cap[tier_arc[q] ^ 1];
	free(opt_arc);
	free(tier_arc);
	free(f.from);
	free(f.to);
	free(f.cap);
	free(f.cost);
	return rc;
}
