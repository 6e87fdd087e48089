/*
 * html_util.c - the utilisation section of report.html: memory and
 * compute used per node class, and the GPU memory and compute of used
 * nodes that the plan strands, by cause (see html_layout.c's comment for
 * the causes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "internal/html_pages.h"
#include "internal/stats.h"
#include "banned.h"

enum strand { ST_USED, ST_INSIDE, ST_FREE, ST_UNPART, ST_IDLE, ST_COUNT };
static const char *const strand_names[ST_COUNT] = { "used by replicas", "inside slots (slot larger than the ask)",
						    "free slots", "unpartitioned", "idle GPUs" };

/* Per class: [k][cause] of memory (GiB) and of compute (GPUs). */
struct strands {
	double *mem, *comp;
};

/* The memory and compute a slot of type st gives on a GPU of type gt, n slots sharing it. */
static void slot_gives(const struct slot_type *st, const struct gpu_type *gt, int ngpus, double *mem, double *comp)
{
	if (st->mode == MODE_PASSTHROUGH) {
		*mem = (double)ngpus * (double)gt->memory_mib;
		*comp = ngpus;
		return;
	}
	*mem = (double)st->memory_mib;
	*comp = st->compute;
}

static void tally_gpu(const struct cplan *cp, size_t ni, int g, const size_t *sl, size_t ns, struct strands *x)
{
	const struct cnode *n = &cp->nodes[ni];
	const struct gpu_type *gt = cp->p->classes[n->k].nc->gpu;
	double gm = (double)gt->memory_mib, smem = 0, scomp = 0, f_mem, f_comp;
	double part[ST_COUNT][2] = { { 0 } };
	size_t j;
	int any = 0, c;

	for (j = 0; j < ns; j++) {
		const struct cslot *s = &cp->slots[sl[j]];
		double m, cc;
		if (s->node != (int)ni || g < s->gpu || g >= s->gpu + s->ngpus)
			continue;
		any = 1;
		slot_gives(&cp->p->classes[n->k].slot_types[s->type], gt, 1, &m, &cc);
		smem += m;
		scomp += cc;
	}
	if (!any) {
		x->mem[n->k * ST_COUNT + ST_IDLE] += gm;
		x->comp[n->k * ST_COUNT + ST_IDLE] += 1;
		return;
	}
	/* slots that share a GPU (time-slicing, MPS) give together no more than it */
	f_mem = smem > gm ? gm / smem : 1;
	f_comp = scomp > 1 ? 1 / scomp : 1;
	for (j = 0; j < ns; j++) {
		const struct cslot *s = &cp->slots[sl[j]];
		double m, cc, am = 0, ac = 0;
		if (s->node != (int)ni || g < s->gpu || g >= s->gpu + s->ngpus)
			continue;
		slot_gives(&cp->p->classes[n->k].slot_types[s->type], gt, 1, &m, &cc);
		m *= f_mem;
		cc *= f_comp;
		if (s->d < 0) {
			part[ST_FREE][0] += m;
			part[ST_FREE][1] += cc;
			continue;
		}
		report_replica_ask(cp->p->demands[s->d].w, gt, &am, &ac);
		am /= s->ngpus;
		ac /= s->ngpus;
		part[ST_USED][0] += fmin(am, m);
		part[ST_USED][1] += fmin(ac, cc);
		part[ST_INSIDE][0] += fmax(0, m - am);
		part[ST_INSIDE][1] += fmax(0, cc - ac);
	}
	part[ST_UNPART][0] = fmax(0, gm - smem * f_mem);
	part[ST_UNPART][1] = fmax(0, 1 - scomp * f_comp);
	for (c = 0; c < ST_COUNT; c++) {
		x->mem[n->k * ST_COUNT + c] += part[c][0];
		x->comp[n->k * ST_COUNT + c] += part[c][1];
	}
}

/* Slots by node: for each node, its slot ids (cp->nslots in all). */
static void tally(const struct cplan *cp, struct strands *x)
{
	size_t nk = cp->p->nclasses, i, *start = xcalloc(cp->nnodes + 2, sizeof(*start));
	size_t *sl = xmalloc((cp->nslots + 1) * sizeof(*sl)), *fill = xcalloc(cp->nnodes + 1, sizeof(*fill));

	x->mem = xcalloc(nk * ST_COUNT + 1, sizeof(*x->mem));
	x->comp = xcalloc(nk * ST_COUNT + 1, sizeof(*x->comp));
	for (i = 0; i < cp->nslots; i++)
		start[cp->slots[i].node + 1]++;
	for (i = 0; i < cp->nnodes; i++)
		start[i + 1] += start[i];
	for (i = 0; i < cp->nslots; i++) {
		size_t ni = (size_t)cp->slots[i].node;
		sl[start[ni] + fill[ni]++] = i;
	}
	for (i = 0; i < cp->nnodes; i++) {
		int g;
		for (g = 0; g < cp->p->classes[cp->nodes[i].k].nc->gpus_per_node; g++)
			tally_gpu(cp, i, g, sl + start[i], start[i + 1] - start[i], x);
	}
	for (i = 0; i < nk * ST_COUNT; i++)
		x->mem[i] /= 1024.0; /* GiB */
	free(start);
	free(sl);
	free(fill);
}

/* The classes with used nodes: their names in labels, their rows of v (ST_COUNT apart) packed. */
static size_t used_classes(const struct cplan *cp, double *v, const char **labels)
{
	size_t k, n = 0;
	int c;

	for (k = 0; k < cp->p->nclasses; k++) {
		double sum = 0;
		for (c = 0; c < ST_COUNT; c++)
			sum += v[k * ST_COUNT + c];
		if (sum <= 0)
			continue;
		if (labels)
			labels[n] = cp->p->classes[k].nc->name;
		for (c = 0; c < ST_COUNT; c++)
			v[n * ST_COUNT + c] = v[k * ST_COUNT + c];
		n++;
	}
	return n;
}

static void strand_chart(struct sb *sb, const char *title, const char *unit, double *v, size_t n,
			 const char *const *labels)
{
	struct html_bars b;

	b = (struct html_bars){
		.title = title,
		.unit = unit,
		.nbars = n,
		.nseries = ST_COUNT,
		.labels = labels,
		.series = strand_names,
		.v = v,
		.stacked = 1,
		.decimals = 2,
	};
	html_bars(sb, &b);
}

void html_utilisation(struct sb *sb, const struct cplan *cp)
{
	struct strands x;
	const char **labels = xcalloc(cp->p->nclasses + 1, sizeof(*labels));
	static const char *const series[] = { "memory", "compute" };
	double *pct = xcalloc(2 * cp->p->nclasses + 2, sizeof(*pct));
	size_t n, i;
	struct html_bars b;

	html_section(sb, "utilisation", "Utilisation");
	tally(cp, &x);
	n = used_classes(cp, x.mem, labels);
	used_classes(cp, x.comp, NULL);
	if (!n) {
		html_p(sb, "No node is used.");
	} else {
		for (i = 0; i < n; i++) {
			double tm = 0, tc = 0;
			int c;
			for (c = 0; c < ST_COUNT; c++) {
				tm += x.mem[i * ST_COUNT + c];
				tc += x.comp[i * ST_COUNT + c];
			}
			pct[2 * i] = tm > 0 ? 100 * x.mem[i * ST_COUNT + ST_USED] / tm : 0;
			pct[2 * i + 1] = tc > 0 ? 100 * x.comp[i * ST_COUNT + ST_USED] / tc : 0;
		}
		b = (struct html_bars){
			.title = "GPU memory and compute used, per node class",
			.unit = "percent of the GPUs of used nodes (%)",
			.nbars = n,
			.nseries = 2,
			.labels = labels,
			.series = series,
			.v = pct,
			.decimals = 1,
		};
		html_bars(sb, &b);
		strand_chart(sb, "GPU memory of used nodes by cause, per node class", "GPU memory (GiB)", x.mem, n,
			     labels);
		strand_chart(sb, "GPU compute of used nodes by cause, per node class", "compute (GPUs)", x.comp, n,
			     labels);
	}
	html_section_end(sb);
	free(x.mem);
	free(x.comp);
	free(labels);
	free(pct);
}
