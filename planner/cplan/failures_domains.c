/*
 * failures_domains.c - what the failure analysis loses in turn
 * (failures.h): the plan's nodes by name, its sites (a site's nodes
 * together), or each GPU of each node.
 */
#include <stdlib.h>
#include <string.h>

#include "failures.h"
#include "util.h"
#include "banned.h"

/* A node or site by name, for sorting: by name, then node. */
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

static int site_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = str_casecmp(x->name, y->name);
	if (c)
		return c;
	return (x->node > y->node) - (x->node < y->node);
}

/* Domains of kind gpu: each GPU of each node of dm's node domains, by node then GPU index. */
static void gpu_domains(struct fail_domains *dm, const struct cplan *cp)
{
	size_t n = 0, i, node;
	char **names;
	int g, ng;

	for (i = 0; i < cp->nnodes; i++)
		n += (size_t)cp->p->classes[cp->nodes[i].k].nc->gpus_per_node;
	names = xmalloc((n + 1) * sizeof(*names));
	free(dm->first);
	dm->first = xmalloc((n + 2) * sizeof(*dm->first));
	dm->gpu = xmalloc((n + 1) * sizeof(*dm->gpu));
	{
		size_t *by = xmalloc((n + 1) * sizeof(*by));
		for (n = 0, i = 0; i < dm->n; i++) {
			node = dm->by[i];
			ng = cp->p->classes[cp->nodes[node].k].nc->gpus_per_node;
			for (g = 0; g < ng; g++, n++) {
				dm->first[n] = n;
				by[n] = node;
				dm->gpu[n] = g;
				names[n] = xasprintf("%s/gpu %d", dm->names[i], g);
			}
			free(dm->names[i]);
		}
		free(dm->by);
		dm->by = by;
	}
	free(dm->names);
	dm->names = names;
	dm->first[n] = n;
	dm->n = n;
}

void fail_domains_build(struct fail_domains *dm, const struct cplan *cp, enum fail_kind k)
{
	struct named *nm = xmalloc((cp->nnodes + 1) * sizeof(*nm));
	size_t i, j;

	memset(dm, 0, sizeof(*dm));
	dm->first = xmalloc((cp->nnodes + 2) * sizeof(*dm->first));
	dm->by = xmalloc((cp->nnodes + 1) * sizeof(*dm->by));
	dm->names = xmalloc((cp->nnodes + 1) * sizeof(*dm->names));
	for (i = 0; i < cp->nnodes; i++) {
		nm[i].name = k == FAIL_SITE ? xstrdup(cp->p->classes[cp->nodes[i].k].nc->site)
					    : cplan_node_name(cp, &cp->nodes[i]);
		nm[i].node = i;
	}
	qsort(nm, cp->nnodes, sizeof(*nm), k == FAIL_SITE ? site_order : named_order);
	for (i = 0; i < cp->nnodes; i = j) {
		dm->first[dm->n] = i;
		dm->names[dm->n++] = xstrdup(nm[i].name);
		for (j = i; j < cp->nnodes && (k == FAIL_SITE ? !str_casecmp(nm[j].name, nm[i].name) : j == i); j++)
			dm->by[j] = nm[j].node;
	}
	dm->first[dm->n] = cp->nnodes;
	for (i = 0; i < cp->nnodes; i++)
		free(nm[i].name);
	free(nm);
	if (k == FAIL_GPU)
		gpu_domains(dm, cp);
}

void fail_domains_release(struct fail_domains *dm)
{
	size_t i;

	if (dm->names)
		for (i = 0; i < dm->n; i++)
			free(dm->names[i]);
	free(dm->names);
	free(dm->first);
	free(dm->by);
	free(dm->gpu);
	memset(dm, 0, sizeof(*dm));
}
