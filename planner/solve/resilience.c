/*
 * resilience.c - the headroom loop (resilience.h).
 *
 * One failure at a time (count 1): the failure analysis (failures.h) is
 * the check, so what the loop stops on is exactly what the reports show:
 * the same computation (kind, engine, order, preemption floor), so it is
 * made once.  The check is never cut by the deadline (the reports would
 * run it whole anyway, and a verdict of a plan not checked says
 * nothing), and the last one, when no cover ran after it, is the
 * reports' analysis of that kind (failures_analyse_with).
 * survive: gpu is checked and covered per GPU (failures.h loses a GPU:
 * its replicas, its free slots; its node runs on), so headroom on the
 * node's other GPUs counts; with gpu_counts_as_node a failed GPU drains
 * its node and the domains are nodes.  Sets of `count` domains:
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

/* A failure to cover: its nodes (and GPUs, for kind gpu). */
struct fset {
	size_t n;
	size_t *nodes;
	int *gpus;		/* per node: the GPU lost; NULL: the whole nodes */
};

struct rctx {
	struct plan_resilience *r;
	struct cplan *cp;
	int prio;
	struct fset *sets;	/* failing this round */
	size_t nsets, setcap;
	struct deadline *dl;	/* the checks of sets': polled before each set (single losses: never) */
	int cut;		/* dl cut this round's check of sets: sets left unchecked */
	struct reserve_left left;	/* make_room: the replicas the covers left out of the plan */
};

static void set_add(struct rctx *c, const size_t *nodes, const int *gpus, size_t n)
{
	struct fset *s;

	XGROW(c->sets, c->setcap, c->nsets + 1);
	s = &c->sets[c->nsets++];
	s->n = n;
	s->nodes = xmalloc((n + 1) * sizeof(*s->nodes));
	memcpy(s->nodes, nodes, n * sizeof(*nodes));
	s->gpus = NULL;
	if (gpus) {
		s->gpus = xmalloc((n + 1) * sizeof(*s->gpus));
		memcpy(s->gpus, gpus, n * sizeof(*gpus));
	}
}

static void sets_clear(struct rctx *c)
{
	size_t i;

	for (i = 0; i < c->nsets; i++) {
		free(c->sets[i].nodes);
		free(c->sets[i].gpus);
	}
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

/*
 * Count 1: the failure analysis of the plan, whole (no deadline: it is
 * the reports' own, kept in r->check); the failures that strand a
 * replica of priority >= P.
 */
static void check_single(struct rctx *c)
{
	struct plan_resilience *r = c->r;
	enum fail_kind k = resilience_kind(&r->ask);
	struct fail_domains dm;
	struct failures f;
	size_t i, j;

	failures_analyse_until(&f, c->cp, k, NULL, &dm, resilience_preempt_floor(&r->ask));	/* domain i is the analysis's failure i of kind k */
	r->failures = f.nchecked[k];
	r->sets_total = (double)f.nnames[k];
	for (i = 0; i < f.nrows; i = j) {
		long stranded = 0;
		for (j = i; j < f.nrows && f.rows[j].kind == f.rows[i].kind && f.rows[j].failure == f.rows[i].failure; j++)
			if (c->cp->p->demands[f.rows[j].d].w->priority >= c->prio)
				stranded += f.rows[j].stranded;
		if (f.rows[i].kind != k || !stranded)
			continue;
		{
			size_t at = f.rows[i].failure;
			set_add(c, &dm.by[dm.first[at]], dm.gpu ? &dm.gpu[dm.first[at]] : NULL, dm.first[at + 1] - dm.first[at]);
		}
		note_worst(r, stranded, xstrdup(f.names[k][f.rows[i].failure]));
	}
	failures_release(&r->check);
	r->check = f;
	r->have_check = 1;
	fail_domains_release(&dm);
}

/* The nodes of the domains set[0 .. k) into nodes, their GPUs into gpus (kind gpu); their count. */
static size_t set_nodes(const struct fail_domains *dm, const size_t *set, size_t k, size_t *nodes, int *gpus)
{
	size_t n = 0, i, j;

	for (i = 0; i < k; i++)
		for (j = dm->first[set[i]]; j < dm->first[set[i] + 1]; j++) {
			gpus[n] = dm->gpu ? dm->gpu[j] : -1;
			nodes[n++] = dm->by[j];
		}
	return n;
}

/* The name of a set of domains: their names joined by '+'. */
static char *set_name(const struct fail_domains *dm, const size_t *set, size_t k)
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

/* The worst set's nodes and GPUs (gpus NULL: whole nodes), for plan_resilience_rows. */
static void keep_worst_set(struct plan_resilience *r, const size_t *nodes, const int *gpus, size_t n)
{
	free(r->worst_nodes);
	free(r->worst_gpus);
	r->worst_nodes = NULL;
	r->worst_gpus = NULL;
	r->worst_n = 0;
	if (!n)
		return;
	r->worst_nodes = xmalloc((n + 1) * sizeof(*nodes));
	memcpy(r->worst_nodes, nodes, n * sizeof(*nodes));
	if (gpus) {
		r->worst_gpus = xmalloc((n + 1) * sizeof(*gpus));
		memcpy(r->worst_gpus, gpus, n * sizeof(*gpus));
	}
	r->worst_n = n;
}

/* Checks the loss of the domains set[0 .. k) (no capacity added); a failing set is kept. */
static void check_set(struct rctx *c, const struct reserve_index *ix, const struct fail_domains *dm, const size_t *set,
		      size_t k)
{
	size_t nmax = dm->first[dm->n] + 1, *nodes = xmalloc(nmax * sizeof(*nodes));
	int *gpus = xmalloc(nmax * sizeof(*gpus));
	size_t n = set_nodes(dm, set, k, nodes, gpus);
	const int *g = dm->gpu ? gpus : NULL;
	struct reserve_cover rc;

	reserve_cover(c->cp, ix, &(struct reserve_loss){ nodes, n, c->prio, 0, g, NULL, c->r->ask.preempt, NULL }, &rc);
	c->r->failures++;
	if (rc.stranded) {
		long was = c->r->stranded;
		set_add(c, nodes, g, n);
		note_worst(c->r, rc.stranded, set_name(dm, set, k));
		if (c->r->stranded > was)	/* the new worst: kept for its rows in the failure analysis */
			keep_worst_set(c->r, nodes, g, n);
	}
	free(nodes);
	free(gpus);
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
static long held(const struct cplan *cp, const struct reserve_index *ix, const struct fail_domains *dm, size_t i,
		 int prio)
{
	long n = 0;
	size_t j, s;

	for (j = dm->first[i]; j < dm->first[i + 1]; j++) {
		size_t node = dm->by[j];
		if (node >= ix->nnodes)
			continue;
		for (s = ix->first[node]; s < ix->first[node + 1]; s++)
			n += cp->p->demands[cp->slots[ix->by[s]].d].w->priority >= prio &&
			     fail_slot_on(cp, ix->by[s], node, dm->gpu ? dm->gpu[j] : -1);
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
static void check_chosen(struct rctx *c, const struct reserve_index *ix, const struct fail_domains *dm, size_t k)
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
static void check_every(struct rctx *c, const struct reserve_index *ix, const struct fail_domains *dm, size_t k)
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
	struct fail_domains dm;

	reserve_index_build(&ix, c->cp);
	fail_domains_build(&dm, c->cp, resilience_kind(&r->ask));
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
	fail_domains_release(&dm);
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
		reserve_cover(c->cp, &ix,
			      &(struct reserve_loss){ c->sets[i].nodes, c->sets[i].n, c->prio, 1, c->sets[i].gpus, dl,
						      c->r->ask.preempt, c->r->ask.leave_out ? &c->left : NULL },
			      &rc);
		added += rc.added + rc.moved + rc.split + rc.left_out + rc.emptied;
		*cut = rc.cut;
		if (rc.emptied) {	/* slot ids renumbered */
			reserve_index_release(&ix);
			reserve_index_build(&ix, c->cp);
		}
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
	keep_worst_set(r, NULL, NULL, 0);
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

/*
 * GPUs in service: GPUs of the plan's nodes with a slot on them, where
 * a failure's replicas can be placed again without configuring anything.
 */
static long gpus_in_service(const struct cplan *cp)
{
	size_t *base = xmalloc((cp->nnodes + 1) * sizeof(*base)), i, n = 0;
	unsigned char *on;
	long count = 0;
	int g;

	for (i = 0; i < cp->nnodes; i++) {
		base[i] = n;
		n += (size_t)cp->p->classes[cp->nodes[i].k].nc->gpus_per_node;
	}
	on = xcalloc(n + 1, 1);
	for (i = 0; i < cp->nslots; i++)
		for (g = 0; g < cp->slots[i].ngpus; g++)
			on[base[cp->slots[i].node] + (size_t)(cp->slots[i].gpu + g)] = 1;
	for (i = 0; i < n; i++)
		count += on[i];
	free(base);
	free(on);
	return count;
}

/* The plan's cost over the horizon, GPUs and nodes used, and GPUs in service. */
static void cost_of(const struct cplan *cp, double *total, long *gpus, long *nodes, long *in_service)
{
	struct cplan_cost cc;

	cplan_cost(cp, &cc);
	*total = cc.total;
	*gpus = cc.gpus;
	*nodes = cc.nodes;
	*in_service = gpus_in_service(cp);
}

/* "a node loss" (site, GPU): what the headroom is kept for, in a reason. */
static const char *loss_text(const struct scenario_resilience *a)
{
	enum fail_kind k = resilience_kind(a);

	return k == FAIL_SITE ? "a site loss" : k == FAIL_GPU ? "a GPU loss" : "a node loss";
}

/* Demand d's reason, now that `out` of its unplaced replicas were left out as headroom. */
static void left_out_reason(struct cplan *cp, int d, long out, const struct scenario_resilience *a)
{
	char *was = cp->reason[d], *why;

	why = xasprintf("left out of the plan as headroom: its slot, or its node's CPU and RAM, kept free for the "
			"replicas of priority >= %d %s would strand (resilience: make_room: leave-out-lower-priority)",
			a->priority_at_least, loss_text(a));
	if (cp->unplaced[d] > out && was)
		cp->reason[d] = xasprintf("%ld %s; the other %ld: %s", out, why, cp->unplaced[d] - out, was);
	else
		cp->reason[d] = xstrdup(why);
	free(why);
	free(was);
}

/*
 * The replicas the covers left out (make_room): each demand's reason
 * says so, its replica numbers made contiguous again; r->left_out their
 * count.  The GPUs they left without a replica that still have none
 * (a later move may have filled one): headroom the slots counted in
 * service do not show (their slots were there before).
 */
static long left_out_done(struct rctx *c)
{
	struct cplan *cp = c->cp;
	const struct reserve_left *lf = &c->left;
	long *by = xcalloc(cp->p->ndemands + 1, sizeof(*by)), emptied = 0;
	size_t i, k, n = 0, *base = xmalloc((cp->nnodes + 1) * sizeof(*base));
	unsigned char *seen;
	int g;

	for (i = 0; i < cp->nnodes; i++) {
		base[i] = n;
		n += (size_t)cp->p->classes[cp->nodes[i].k].nc->gpus_per_node;
	}
	seen = xcalloc(n + 1, 1);
	for (i = 0; i < lf->n; i++) {
		const struct reserve_left_one *s = &lf->at[i];
		by[s->d]++;
		for (g = s->gpu; g < s->gpu + s->ngpus; g++) {
			k = base[s->node] + (size_t)g;
			emptied += !seen[k] && cp->nodes[s->node].gpu_used[g] == 0;
			seen[k] = 1;
		}
	}
	for (i = 0; i < cp->p->ndemands; i++)
		if (by[i]) {
			left_out_reason(cp, (int)i, by[i], &c->r->ask);
			reserve_renumber(cp, (int)i);
		}
	c->r->left_out = (long)lf->n;
	free(by);
	free(base);
	free(seen);
	return emptied;
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
	long served_without, served_with;

	memset(r, 0, sizeof(*r));
	memset(&c, 0, sizeof(c));
	r->ask = sc->resilience;
	r->proven = 1;
	c.r = r;
	c.cp = cp;
	c.prio = r->ask.priority_at_least;
	c.dl = dl;
	loop.limit_s -= after_s;
	cost_of(cp, &r->cost_without, &r->gpus_without, &r->nodes_without, &served_without);
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
		r->have_check = 0;	/* of the plan before the covers */
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
	cost_of(cp, &r->cost_with, &r->gpus_with, &r->nodes_with, &served_with);
	r->headroom_gpus = served_with - served_without + left_out_done(&c);
	free(c.left.at);
	r->usd_per_year = (r->cost_with - r->cost_without) / sc->horizon_years;
	if (r->headroom_gpus > 0)
		r->usd_per_year_per_gpu = r->usd_per_year / (double)r->headroom_gpus;
}

double resilience_check_passes(const struct scenario_resilience *a, const struct cplan *cp)
{
	struct fail_domains dm;
	size_t k = a->count > 1 ? (size_t)a->count : 1;
	double sets;

	if (!a->present || k <= 1)
		return 0;
	fail_domains_build(&dm, cp, resilience_kind(a));
	if (!dm.n) {
		fail_domains_release(&dm);
		return 0;
	}
	sets = dm.n <= k ? 1 : choose(dm.n, k);
	if (sets > RESIL_SETS_MAX)
		sets = (double)dm.n;	/* chosen: at most one set per domain */
	sets = RESIL_SET_CHECKS * sets * (double)(dm.n <= k ? dm.n : k) / (double)dm.n;
	fail_domains_release(&dm);
	return sets;
}

enum fail_kind resilience_kind(const struct scenario_resilience *a)
{
	if (a->survive == RESIL_SITE)
		return FAIL_SITE;
	return a->survive == RESIL_GPU && !a->gpu_as_node ? FAIL_GPU : FAIL_NODE;
}

int resilience_preempt_floor(const struct scenario_resilience *a)
{
	return a->present && a->preempt ? a->priority_at_least : 0;
}

void plan_resilience_rows(const struct plan_resilience *r, struct failures *f, const struct cplan *cp)
{
	enum fail_kind k = resilience_kind(&r->ask);

	if (r->ask.count <= 1 || !r->worst || !r->worst_n)
		return;
	failures_add_set(f, cp,
			 &(struct fail_set){ (enum fail_kind)(FAIL_NODE_SET + k), r->worst, r->worst_nodes, r->worst_gpus,
					     r->worst_n, resilience_preempt_floor(&r->ask) });
}

char *plan_resilience_note(const struct plan_resilience *r)
{
	if (!r->left_out)
		return NULL;
	return xasprintf("resilience: %ld replica%s of priority below %d left out of the plan as headroom for %s "
			 "(make_room: leave-out-lower-priority; unplaced.csv names them, the objective carries their "
			 "penalty)",
			 r->left_out, r->left_out == 1 ? "" : "s", r->ask.priority_at_least, loss_text(&r->ask));
}

void plan_resilience_release(struct plan_resilience *r)
{
	failures_release(&r->check);
	free(r->worst);
	free(r->worst_nodes);
	free(r->worst_gpus);
	memset(r, 0, sizeof(*r));
}
