/*
 * scenario_resilience.c - the scenario's resilience: block
 * (docs/formats.md, "Scenario resilience:"): which failures the plan
 * must survive, how many at once, and for which priorities; checked
 * against the inventory once it is read (a count that leaves nothing
 * standing is an error, a floor above every workload's priority a
 * warning).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_resilience.h"
#include "util.h"
#include "banned.h"

#define RESIL_COUNT_MAX 1000

const char *resil_kind_name(enum resil_kind k)
{
	return k == RESIL_GPU ? "gpu" : k == RESIL_NODE ? "node" : "site";
}

/* Where field key's value is, else the block's key: for the checks made after the inventory is read. */
static void value_at(const struct ydoc *doc, const struct ynode *m, const char *key, long *line, long *col)
{
	const struct ynode *n = ymap_get(m, key);
	size_t i;

	if (n) {
		*line = n->line;
		*col = n->col;
		return;
	}
	for (i = 0; i < doc->root->n; i++)
		if (doc->root->items[i] == m) {
			*line = doc->root->key_line[i];
			*col = doc->root->key_col[i];
			return;
		}
	*line = m->line;
	*col = m->col;
}

static int read_survive(const struct yread *y, struct scenario_resilience *R)
{
	static const char *const kinds[] = { "gpu", "node", "site", NULL };
	const char *s;
	char *hint;
	int k;

	if (yread_str(y, "survive", 1, &s))
		return -1;
	for (k = 0; kinds[k] && strcmp(kinds[k], s); k++)
		;
	if (kinds[k]) {
		R->survive = (enum resil_kind)k;
		return 0;
	}
	hint = str_hint(s, kinds);
	ydoc_error(y->doc, ymap_get(y->map, "survive"), y->d, "field 'survive': unknown value '%s'%s", s, hint);
	free(hint);
	return -1;
}

/*
 * Field key, an enum of kinds (the first the default when absent), into
 * *out: 0, or -1 with the closest valid names in the message.
 */
static int read_choice(const struct yread *y, const char *key, const char *const *kinds, int *out)
{
	const char *s;
	char *hint;
	int k, rc;

	if ((rc = yread_str(y, key, 0, &s)) != 0)
		return rc < 0 ? -1 : 0;
	for (k = 0; kinds[k] && strcmp(kinds[k], s); k++)
		;
	if (kinds[k]) {
		*out = k;
		return 0;
	}
	hint = str_hint(s, kinds);
	ydoc_error(y->doc, ymap_get(y->map, key), y->d, "field '%s': unknown value '%s'%s", key, s, hint);
	free(hint);
	return -1;
}

/* preemption: none (the default) or lower-priority; make_room: none (the default) or leave-out-lower-priority. */
static int read_choices(const struct yread *y, struct scenario_resilience *R)
{
	static const char *const preemption[] = { "none", "lower-priority", NULL };
	static const char *const make_room[] = { "none", "leave-out-lower-priority", NULL };

	return read_choice(y, "preemption", preemption, &R->preempt) ||
	       read_choice(y, "make_room", make_room, &R->leave_out);
}

int scenario_resilience_load(struct scenario *sc, const struct ydoc *doc, struct diag *d)
{
	static const char *const keys[] = { "survive", "count", "priority_at_least", "gpu_counts_as_node",
					    "preemption", "make_room", NULL };
	const struct ynode *m = ymap_get(doc->root, "resilience"), *n;
	struct scenario_resilience *R = &sc->resilience;
	struct yread y;
	long long count = 1, prio = 1;

	R->count = 1;
	R->priority_at_least = 1;
	if (!m)
		return 0;
	if (ynode_expect(doc, m, YN_MAP, "resilience", d) || ymap_check_keys(doc, m, keys, "resilience", d))
		return -1;
	y = (struct yread){ doc, m, d };
	if (read_survive(&y, R) || yread_int(&y, "count", 0, 1, RESIL_COUNT_MAX, &count) < 0 ||
	    yread_int(&y, "priority_at_least", 0, 1, 1000, &prio) < 0 ||
	    yread_bool(&y, "gpu_counts_as_node", 0, &R->gpu_as_node) < 0 || read_choices(&y, R))
		return -1;
	if ((n = ymap_get(m, "gpu_counts_as_node")) && R->survive != RESIL_GPU)
		return ydoc_error(doc, n, d, "field 'gpu_counts_as_node' applies to survive: gpu only");
	R->present = 1;
	R->line = m->line;
	R->count = (int)count;
	R->priority_at_least = (int)prio;
	value_at(doc, m, "count", &R->count_line, &R->count_col);
	value_at(doc, m, "priority_at_least", &R->prio_line, &R->prio_col);
	return 0;
}

/* The inventory's sites (case-insensitive, first spelling), into names; their count. */
static size_t sites_of(const struct inventory *inv, const char **names)
{
	size_t n = 0, i, j;

	for (i = 0; i < inv->n; i++) {
		for (j = 0; j < n && str_casecmp(names[j], inv->classes[i].site); j++)
			;
		if (j == n)
			names[n++] = inv->classes[i].site;
	}
	return n;
}

int scenario_resilience_check(const struct scenario *sc, struct diag *d)
{
	const struct scenario_resilience *R = &sc->resilience;
	const struct inventory *inv = &sc->inventory;
	const char **names;
	long long have = 0;
	size_t i, n;
	struct sb sb;
	int rc;

	if (!R->present)
		return 0;
	if (R->survive != RESIL_SITE) {
		for (i = 0; i < inv->n; i++)
			have += inv->classes[i].count * (R->survive == RESIL_GPU ? inv->classes[i].gpus_per_node : 1);
		if (R->count < have)
			return 0;
		return diag_set(d, DIAG_INPUT, sc->file, R->count_line, R->count_col,
				"survive: %s, count %d leaves no %s: the inventory can hold %lld %s%s",
				resil_kind_name(R->survive), R->count, resil_kind_name(R->survive), have,
				resil_kind_name(R->survive), have == 1 ? "" : "s");
	}
	names = xmalloc((inv->n + 1) * sizeof(*names));
	n = sites_of(inv, names);
	if ((size_t)R->count < n) {
		free(names);
		return 0;
	}
	sb_init(&sb);
	for (i = 0; i < n; i++)
		sb_addf(&sb, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", names[i]);
	rc = diag_set(d, DIAG_INPUT, sc->file, R->count_line, R->count_col,
		      "survive: site, count %d leaves no site: the inventory has %zu site%s (%s)", R->count, n,
		      n == 1 ? "" : "s", sb.buf);
	sb_release(&sb);
	free(names);
	return rc;
}

char *scenario_resilience_warning(const struct scenario *sc)
{
	const struct scenario_resilience *R = &sc->resilience;
	int top = 0;
	size_t i;

	if (!R->present)
		return NULL;
	for (i = 0; i < sc->workloads.n; i++)
		if (sc->workloads.w[i].priority > top)
			top = sc->workloads.w[i].priority;
	if (top >= R->priority_at_least)
		return NULL;
	return xasprintf("%s:%ld:%ld: resilience covers no workload: the highest priority is %d", sc->file,
			 R->prio_line, R->prio_col, top);
}
