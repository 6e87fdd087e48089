/*
 * cplan_reset.c - configurations undone (cplan_engine.h): a GPU made
 * idle again, a node laid out anew in another mode, their free slots
 * deleted.  The headroom covers' last resort (make_room) empties a GPU
 * or a node of replicas below the floor and has it configured anew for a
 * workload the plan's slots cannot take.
 */
#include <stdlib.h>
#include <string.h>

#include "cplan.h"
#include "cplan_engine.h"
#include "util.h"
#include "banned.h"

/*
 * Deletes the slots drop[] marks (all free), the others renumbered in
 * order into remap; each free slot queue keeps its order without them,
 * its head before as many of the entries it kept as it was.
 */
static void slots_drop(struct cplan *cp, const unsigned char *drop, size_t *remap)
{
	const struct problem *p = cp->p;
	size_t i, j, k, s;

	for (i = j = 0; i < cp->nslots; i++) {
		if (drop[i]) {
			remap[i] = (size_t)-1;
			continue;
		}
		remap[i] = j;
		cp->slots[j++] = cp->slots[i];
	}
	cp->nslots = j;
	for (k = 0; k < p->nclasses; k++)
		for (s = 0; s < p->classes[k].nslot_types; s++) {
			size_t *q = cp->fq[k][s], n = 0, head = 0;
			for (i = 0; i < cp->fqn[k][s]; i++) {
				if (remap[q[i]] == (size_t)-1)
					continue;
				head += i < cp->fqhead[k][s];
				q[n++] = remap[q[i]];
			}
			cp->fqn[k][s] = n;
			cp->fqhead[k][s] = head;
		}
	for (i = 0; i <= cp->nnodes; i++)	/* a node may have an idle GPU again */
		cp->memo->alive_next[i] = i;
	cp->memo->epoch++;
}

/* Marks in drop the slots of node `node` (those on GPU gpu only, when gpu >= 0); -1 when one is not free. */
static int mark(const struct cplan *cp, int node, int gpu, unsigned char *drop)
{
	size_t i;

	for (i = 0; i < cp->nslots; i++) {
		const struct cslot *s = &cp->slots[i];
		if (s->node != node || (gpu >= 0 && (gpu < s->gpu || gpu >= s->gpu + s->ngpus)))
			continue;
		if (s->d != -1)
			return -1;
		drop[i] = 1;
	}
	return 0;
}

int cplan_gpu_reset(struct cplan *cp, int node, int gpu, size_t *remap)
{
	struct cnode *n = &cp->nodes[node];
	unsigned char *drop = xcalloc(cp->nslots + 1, 1);
	int rc = n->mode == MODE_PASSTHROUGH || n->pattern >= 0 ? -1 : mark(cp, node, gpu, drop);

	if (rc == 0) {
		slots_drop(cp, drop, remap);
		n->gpu_config[gpu] = -1;
	}
	free(drop);
	return rc;
}

int cplan_node_reopen(struct cplan *cp, int node, enum gpu_mode m, int pattern, size_t *remap)
{
	struct cnode *n = &cp->nodes[node];
	unsigned char *drop = xcalloc(cp->nslots + 1, 1);
	int rc = mark(cp, node, -1, drop), g;

	if (rc == 0) {
		slots_drop(cp, drop, remap);
		n->mode = m;
		n->pattern = pattern;
		for (g = 0; g < cp->p->classes[n->k].nc->gpus_per_node; g++)
			n->gpu_config[g] = -1;
		n->cpu_used = n->ram_used = 0;	/* no replica is left on it */
		if (pattern >= 0)
			cplan_node_lay(cp, node, pattern);
	}
	free(drop);
	return rc;
}
