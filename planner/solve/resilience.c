/*
 * resilience.c - the headroom loop (resilience.h).
 *
 * One failure at a time (count 1): the failure analysis (failures.h) is
 * the check, so what the loop stops on is exactly what the reports show.
 * A GPU's loss is covered as its node's: the node's replicas are a
 * superset of the GPU's, and the node's other free slots are lost with
 * it, so a plan that survives every node survives every GPU (a
 * sufficient condition, docs/formulation.md).  Sets of `count` nodes:
 * each set is checked by placing its replicas again (reserve.h, the same
 * engine and order); every set when there are few enough, else a chosen
 * subset, and the verdict says so.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "resilience.h"
#include "failures.h"
#include "reserve.h"
#include "util.h"
#include "banned.h"

/* A node by name, for the failure analysis's order. */
struct named {
	char *name;
	size_t node;
};

static int named_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	return (x->node > y->node) - (x->node < y->node);
}

/* cp's nodes in the failure analysis's order (failures.names[FAIL_NODE]); caller frees with names_free. */
static struct named *names_sorted(const struct cplan *cp)
{
	struct named *nm = xmalloc((cp->nnodes + 1) * sizeof(*nm));
	size_t i;

	for (i = 0; i < cp->nnodes; i++) {
		nm[i].name = cplan_node_name(cp, &cp->nodes[i]);
		nm[i].node = i;
	}
	qsort(nm, cp->nnodes, sizeof(*nm), named_order);
	return nm;
}

static void names_free(struct named *nm, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(nm[i].name);
	free(nm);
}

/* A failure to cover: its nodes. */
struct fset {
	size_t n;
	size_t *nodes;
};

struct rctx {
	struct plan_resilience *r;
	struct cplan *cp;
	int prio;
	struct fset *sets;	/* failing this round */
	size_t nsets, setcap;
	struct deadline *dl;	/* the checks': polled before each failure */
	int cut;		/* dl cut this round's check: failures left unchecked */
};

static void set_add(struct rctx *c, const size_t *nodes, size_t n)
{
	struct fset *s;

	XGROW(c->sets, c->setcap, c->nsets + 1);
	s = &c->sets[c->nsets++];
	s->n = n;
	s->nodes = xmalloc((n + 1) * sizeof(*s->nodes));
	memcpy(s->nodes, nodes, n * sizeof(*nodes));
}

static void sets_clear(struct rctx *c)
{
	size_t i;

	for (i = 0; i < c->nsets; i++)
		free(c->sets[i].nodes);
	c->nsets = 0;
}

/* Notes a failure that strands `stranded` replicas of priority >= P; the worst is kept (the first among equals). */
static void note_worst(struct plan_resilience *r, long stranded, char *name)
{
	if (stranded > r->stranded) {
		r->stranded = stranded;
		free(r->worst);
		r->worst = name;
	} else {
		free(name);
	}
}

/* The nodes of failure i of kind k of the analysis f, into *nodes (caller frees); their count. */
static size_t failure_nodes(const struct cplan *cp, const struct failures *f, enum fail_kind k, size_t i,
			    const struct named *nm, size_t **nodes)
{
	size_t n = 0, j;

	*nodes = xmalloc((cp->nnodes + 1) * sizeof(**nodes));
	if (k == FAIL_NODE) {
		(*nodes)[n++] = nm[i].node;
		return n;
	}
	for (j = 0; j < cp->nnodes; j++)
		if (!str_casecmp(cp->p->classes[cp->nodes[j].k].nc->site, f->names[FAIL_SITE][i]))
			(*nodes)[n++] = j;
	return n;
}

/* Count 1: the failure analysis of the plan; the failures that strand a replica of priority >= P. */
static void check_single(struct rctx *c)
{
	struct plan_resilience *r = c->r;
	enum fail_kind k = r->ask.survive == RESIL_SITE ? FAIL_SITE : FAIL_NODE;
	struct named *nm = names_sorted(c->cp);
	struct failures f;
	size_t i, j;

	failures_analyse_until(&f, c->cp, k, c->dl);
	r->failures = f.nchecked[k];
	r->sets_total = (double)f.nnames[k];
	c->cut = f.nchecked[k] < f.nnames[k];
	for (i = 0; i < f.nrows; i = j) {
		long stranded = 0;
		for (j = i; j < f.nrows && f.rows[j].kind == f.rows[i].kind && f.rows[j].failure == f.rows[i].failure; j++)
			if (c->cp->p->demands[f.rows[j].d].w->priority >= c->prio)
				stranded += f.rows[j].stranded;
		if (f.rows[i].kind != k || !stranded)
			continue;
		{
			size_t *nodes, n = failure_nodes(c->cp, &f, k, f.rows[i].failure, nm, &nodes);
			set_add(c, nodes, n);
			free(nodes);
		}
		note_worst(r, stranded, xstrdup(f.names[k][f.rows[i].failure]));
	}
	failures_release(&f);
	names_free(nm, c->cp->nnodes);
}

/* The failure domains of the kind asked: each node (by name), or each site (by name, case-insensitive). */
struct domains {
	size_t n;
	size_t *first;		/* [n + 1]: domain i's nodes are by[first[i]] .. by[first[i + 1] - 1] */
	size_t *by;
	char **names;
};

static int site_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = str_casecmp(x->name, y->name);
	if (c)
		return c;
	return (x->node > y->node) - (x->node < y->node);
}

static void domains_build(struct domains *dm, const struct cplan *cp, int by_site)
{
	struct named *nm = by_site ? xmalloc((cp->nnodes + 1) * sizeof(*nm)) : names_sorted(cp);
	size_t i, j;

	memset(dm, 0, sizeof(*dm));
	dm->first = xmalloc((cp->nnodes + 2) * sizeof(*dm->first));
	dm->by = xmalloc((cp->nnodes + 1) * sizeof(*dm->by));
	dm->names = xmalloc((cp->nnodes + 1) * sizeof(*dm->names));
	if (by_site) {
		for (i = 0; i < cp->nnodes; i++) {
			nm[i].name = xstrdup(cp->p->classes[cp->nodes[i].k].nc->site);
			nm[i].node = i;
		}
		qsort(nm, cp->nnodes, sizeof(*nm), site_order);
	}
	for (i = 0; i < cp->nnodes; i = j) {
		dm->first[dm->n] = i;
		dm->names[dm->n++] = xstrdup(nm[i].name);
		for (j = i; j < cp->nnodes && (by_site ? !str_casecmp(nm[j].name, nm[i].name) : j == i); j++)
			dm->by[j] = nm[j].node;
	}
	dm->first[dm->n] = cp->nnodes;
	names_free(nm, cp->nnodes);
}

static void domains_release(struct domains *dm)
{
	size_t i;

	for (i = 0; i < dm->n; i++)
		free(dm->names[i]);
	free(dm->names);
	free(dm->first);
	free(dm->by);
}

/* The nodes of the domains set[0 .. k) into nodes; their count. */
static size_t set_nodes(const struct domains *dm, const size_t *set, size_t k, size_t *nodes)
{
	size_t n = 0, i, j;

	for (i = 0; i < k; i++)
		for (j = dm->first[set[i]]; j < dm->first[set[i] + 1]; j++)
			nodes[n++] = dm->by[j];
	return n;
}

/* The name of a set of domains: their names joined by '+'. */
static char *set_name(const struct domains *dm, const size_t *set, size_t k)
{
	struct sb sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < k; i++) {
		if (i)
			sb_adds(&sb, "+");
		sb_adds(&sb, dm->names[set[i]]);
	}
	return sb_detach(&sb);
}

/* Checks the loss of the domains set[0 .. k) (no capacity added); a failing set is kept. */
static void check_set(struct rctx *c, const struct reserve_index *ix, const struct domains *dm, const size_t *set,
		      size_t k)
{
	size_t *nodes = xmalloc((c->cp->nnodes + 1) * sizeof(*nodes)), n = set_nodes(dm, set, k, nodes);
	struct reserve_cover rc;

	reserve_cover(c->cp, ix, &(struct reserve_loss){ nodes, n, c->prio, 0, NULL }, &rc);
	c->r->failures++;
	if (rc.stranded) {
		set_add(c, nodes, n);
		note_worst(c->r, rc.stranded, set_name(dm, set, k));
	}
	free(nodes);
}

/* C(n, k) as a double (large values are only compared with RESIL_SETS_MAX). */
static double choose(size_t n, size_t k)
{
	double x = 1;
	size_t i;

	if (k > n)
		return 0;
	for (i = 0; i < k; i++)
		x = x * (double)(n - i) / (double)(i + 1);
	return floor(x + 0.5);
}

/* Replicas of priority >= prio on domain i (index ix). */
static long held(const struct cplan *cp, const struct reserve_index *ix, const struct domains *dm, size_t i,
		 int prio)
{
	long n = 0;
	size_t j, s;

	for (j = dm->first[i]; j < dm->first[i + 1]; j++) {
		size_t node = dm->by[j];
		if (node >= ix->nnodes)
			continue;
		for (s = ix->first[node]; s < ix->first[node + 1]; s++)
			n += cp->p->demands[cp->slots[ix->by[s]].d].w->priority >= prio;
	}
	return n;
}

/* The heaviest first (replicas of priority >= P), then by index. */
static _Thread_local const long *heavy_load;
static int heavy_order(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (heavy_load[x] != heavy_load[y])
		return heavy_load[x] > heavy_load[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Too many sets to check each: for every domain holding a replica of
 * priority >= P, the set of it and the count - 1 heaviest other domains.
 */
static void check_chosen(struct rctx *c, const struct reserve_index *ix, const struct domains *dm, size_t k)
{
	size_t n = dm->n, i, j, m;
	long *load = xmalloc((n + 1) * sizeof(*load));
	size_t *ord = xmalloc((n + 1) * sizeof(*ord)), *set = xmalloc((k + 1) * sizeof(*set));

	for (i = 0; i < n; i++) {
		load[i] = held(c->cp, ix, dm, i, c->prio);
		ord[i] = i;
	}
	heavy_load = load;
	qsort(ord, n, sizeof(*ord), heavy_order);
	for (i = 0; i < n && !c->cut; i++) {
		if (!load[i])
			continue;
		if (deadline_passed(c->dl)) {
			c->cut = 1;
			break;
		}
		set[0] = i;
		for (j = 0, m = 1; j < n && m < k; j++)
			if (ord[j] != i)
				set[m++] = ord[j];
		check_set(c, ix, dm, set, m);
	}
	free(load);
	free(ord);
	free(set);
}

/* Every k-subset of the n domains, in lexicographic order (k < n). */
static void check_every(struct rctx *c, const struct reserve_index *ix, const struct domains *dm, size_t k)
{
	size_t *set = xmalloc((k + 1) * sizeof(*set)), n = dm->n, i, j;

	for (i = 0; i < k; i++)
		set[i] = i;
	for (;;) {
		if (deadline_passed(c->dl)) {
			c->cut = 1;
			break;
		}
		check_set(c, ix, dm, set, k);
		for (j = k; j > 0 && set[j - 1] == n - k + j - 1; j--)
			;
		if (j == 0)
			break;
		set[j - 1]++;
		for (i = j; i < k; i++)
			set[i] = set[i - 1] + 1;
	}
	free(set);
}

/* Count > 1: every set of `count` domains when few enough, else the chosen ones. */
static void check_sets(struct rctx *c)
{
	struct plan_resilience *r = c->r;
	size_t k = (size_t)r->ask.count;
	struct reserve_index ix;
	struct domains dm;

	reserve_index_build(&ix, c->cp);
	domains_build(&dm, c->cp, r->ask.survive == RESIL_SITE);
	r->sets_total = choose(dm.n, k);
	r->proven = 1;
	if (dm.n <= k) {	/* the plan uses no more domains than may fail: all of them at once */
		size_t *set = xmalloc((dm.n + 1) * sizeof(*set)), i;
		for (i = 0; i < dm.n; i++)
			set[i] = i;
		if (dm.n)
			check_set(c, &ix, &dm, set, dm.n);
		r->sets_total = 1;
		free(set);
	} else if (r->sets_total <= RESIL_SETS_MAX) {
		check_every(c, &ix, &dm, k);
	} else {
		r->proven = 0;
		check_chosen(c, &ix, &dm, k);
	}
	domains_release(&dm);
	reserve_index_release(&ix);
}

/*
 * Covers every failing set, dl polled before each set and each replica;
 * the slots added plus the replicas moved (0: the plan is unchanged), and
 * in *cut whether dl stopped the covers.
 */
static long cover_all(struct rctx *c, struct deadline *dl, int *cut)
{
	struct reserve_index ix;
	long added = 0;
	size_t i;

	*cut = 0;
	reserve_index_build(&ix, c->cp);
	for (i = 0; i < c->nsets && !*cut; i++) {
		struct reserve_cover rc;
		if (deadline_passed(dl)) {
			*cut = 1;
			break;
		}
		reserve_cover(c->cp, &ix, &(struct reserve_loss){ c->sets[i].nodes, c->sets[i].n, c->prio, 1, dl }, &rc);
		added += rc.added + rc.moved + rc.split;
		*cut = rc.cut;
	}
	reserve_index_release(&ix);
	return added;
}

/* A round's check: the failures that strand, the worst; -1 when dl cut it (failures left unchecked). */
static int check_round(struct rctx *c)
{
	struct plan_resilience *r = c->r;

	r->failures = 0;
	r->stranded = 0;
	free(r->worst);
	r->worst = NULL;
	sets_clear(c);
	c->cut = 0;
	if (r->ask.count > 1)
		check_sets(c);
	else
		check_single(c);
	r->failing = c->nsets;
	return c->cut ? -1 : 0;
}

/*
 * A round's covers, with dl less t_check (what the check after them took
 * last): the slots added plus the replicas moved; *cut as cover_all's.
 */
static long cover_round(struct rctx *c, struct deadline *dl, double t_check, int *cut)
{
	struct deadline cd = *dl;
	long added;

	cd.limit_s = dl->limit_s - t_check;
	added = cover_all(c, &cd, cut);
	c->dl->polls = cd.polls;	/* one count of polls for the test hook */
	return added;
}

static void cost_of(const struct cplan *cp, double *total, long *gpus, long *nodes)
{
	struct cplan_cost cc;

	cplan_cost(cp, &cc);
	*total = cc.total;
	*gpus = cc.gpus;
	*nodes = cc.nodes;
}

/*
 * Stops the loop on the deadline: r's verdict says what was not done.  A
 * check cut short proves nothing of the failures it did not reach: not
 * met, whatever those it reached say.
 */
static void stop_on_time(struct plan_resilience *r, int check_cut)
{
	r->stopped = 1;
	if (check_cut) {
		r->proven = 0;
		r->why = "stopped by the time limit before every failure was checked (failures_checked of "
			 "failures_of_the_kind)";
	} else {
		r->why = "stopped by the time limit before every failure was covered";
	}
}

void plan_resilience_run(struct plan_resilience *r, struct cplan *cp, const struct scenario *sc,
			 struct deadline *dl, double after_s)
{
	struct rctx c;
	int covers_cut = 0;
	struct deadline loop = *dl;	/* the covers': after_s less */

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	r->ask = sc->resilience;
	r->proven = 1;
	c.r = r;
	c.cp = cp;
	c.prio = r->ask.priority_at_least;
	c.dl = dl;
	loop.limit_s -= after_s;
	cost_of(cp, &r->cost_without, &r->gpus_without, &r->nodes_without);
	for (;;) {
		double t0 = deadline_elapsed(dl), t_check;
		int cut;
		/*
		 * A check has the whole limit: without it the verdict is of a
		 * plan not checked; the covers leave it its time (a cover step
		 * that runs over takes it from what follows the loop).
		 */
		loop.polls = dl->polls;	/* one count of polls for the test hook */
		cut = check_round(&c);
		t_check = deadline_elapsed(dl) - t0;
		loop.polls = dl->polls;
		if (r->rounds == 0) {
			r->stranded_without = r->stranded;
			r->failing_without = c.nsets;
		}
		if (cut) {
			stop_on_time(r, 1);
			break;
		}
		if (!c.nsets) {
			r->met = 1;
			break;
		}
		if (r->rounds >= RESIL_ROUNDS) {
			r->why = "the rounds ran out before every failure was covered";
			break;
		}
		/* covers only when a check after them fits, so that the verdict is of the plan written */
		if (covers_cut || deadline_left(&loop) <= t_check) {
			stop_on_time(r, 0);
			break;
		}
		r->rounds++;
		if (cover_round(&c, &loop, t_check, &covers_cut) == 0 && !covers_cut) {
			r->why = "no capacity is left to add outside the failed domain (inventory exhausted, or the "
				 "replicas' sites or GPU types allow nothing else)";
			break;
		}
	}
	if (r->met && !r->proven && !r->stopped)
		r->why = "too many sets to check each: checked every domain holding a replica of the priority asked "
			 "with the domains holding the most such replicas";
	sets_clear(&c);
	free(c.sets);
	cost_of(cp, &r->cost_with, &r->gpus_with, &r->nodes_with);
	r->usd_per_year = (r->cost_with - r->cost_without) / sc->horizon_years;
	if (r->gpus_with > r->gpus_without)
		r->usd_per_year_per_gpu = r->usd_per_year / (double)(r->gpus_with - r->gpus_without);
}

void plan_resilience_release(struct plan_resilience *r)
{
	free(r->worst);
	memset(r, 0, sizeof(*r));
}
