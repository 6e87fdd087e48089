/*
 * html_layout.c - the GPU layouts and the utilisation of report.html.
 *
 * Layouts: nodes of a class with the same mode, the same partition of
 * every GPU and the same workload in every slot are drawn once ("12
 * nodes like this"), and within a node identical GPUs share one row
 * ("GPUs 0-7"); at most HTML_MAX_LAYOUTS layouts per class are drawn, so
 * a plan of 10,000 nodes stays a page.  A MIG GPU is drawn on its memory
 * slices (the instance at its start slice) and its compute slices; a
 * vGPU, time-sliced or MPS GPU as its slots side by side; passthrough as
 * the GPUs each replica takes.  Each workload with a replica placed has a
 * colour and an entry in the legend above the layouts; a box and its text
 * share a tooltip with the whole "profile: workload", as the text inside
 * may be cut.
 *
 * Stranded capacity, per node class, in GPU memory: what the placed
 * replicas ask (used); what their slots give beyond the ask (inside
 * slots: a profile larger than the ask); free slots; memory no slot of a
 * partitioned GPU holds (unpartitioned); and GPUs of used nodes that
 * hold nothing (idle GPUs).  Where slots share a GPU's memory
 * (time-slicing, MPS) their memory is the GPU's, split evenly.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_pages.h"
#include "stats.h"
#include "banned.h"

#define ROW_H 26.0
#define LAB_W 160.0
#define DRAW_W 720.0

/* The plan's slots grouped by node, each node's in (GPU, MIG start, creation) order. */
struct by_node {
	const struct cplan *cp;
	size_t *slot;		/* slot ids */
	size_t *first;		/* [node]: first position in slot; [nnodes]: nslots */
	char **sig;		/* [node]: what makes two nodes draw the same */
	int *colour;		/* [demand]: its place in the workload legend, -1 when nothing of it is placed */
};

static const struct cplan *sort_cp;

static int slot_in_node_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct cslot *x = &sort_cp->slots[i], *y = &sort_cp->slots[j];
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	if (x->mig_start != y->mig_start)
		return x->mig_start < y->mig_start ? -1 : 1;
	return (i > j) - (i < j);
}

/* GPU g's part of a node signature: its configuration, its slots and who holds them. */
static void gpu_sig(struct sb *sig, const struct by_node *bn, size_t ni, int g)
{
	const struct cplan *cp = bn->cp;
	size_t j;

	sb_addf(sig, "[%d:", cp->nodes[ni].gpu_config[g]);
	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++) {
		const struct cslot *s = &cp->slots[bn->slot[j]];
		if (s->gpu == g)
			sb_addf(sig, "%d/%d/%d/%d,", s->type, s->mig_start, s->ngpus, s->d);
	}
	sb_adds(sig, "]");
}

static void by_node_init(struct by_node *bn, const struct cplan *cp)
{
	size_t i, j = 0;

	bn->cp = cp;
	bn->slot = xmalloc((cp->nslots + 1) * sizeof(*bn->slot));
	bn->first = xmalloc((cp->nnodes + 1) * sizeof(*bn->first));
	bn->sig = xcalloc(cp->nnodes + 1, sizeof(*bn->sig));
	bn->colour = xmalloc((cp->p->ndemands + 1) * sizeof(*bn->colour));
	for (i = 0; i < cp->nslots; i++)
		bn->slot[i] = i;
	sort_cp = cp;
	qsort(bn->slot, cp->nslots, sizeof(*bn->slot), slot_in_node_cmp);
	for (i = 0; i < cp->nnodes; i++) {
		while (j < cp->nslots && (size_t)cp->slots[bn->slot[j]].node < i)
			j++;
		bn->first[i] = j;
	}
	bn->first[cp->nnodes] = cp->nslots;
	for (i = 0; i < cp->nnodes; i++) {
		struct sb sig;
		int g;
		sb_init(&sig);
		sb_addf(&sig, "%d", (int)cp->nodes[i].mode);
		for (g = 0; g < cp->p->classes[cp->nodes[i].k].nc->gpus_per_node; g++)
			gpu_sig(&sig, bn, i, g);
		bn->sig[i] = sb_detach(&sig);
	}
}

static void by_node_release(struct by_node *bn)
{
	size_t i;
	for (i = 0; i < bn->cp->nnodes; i++)
		free(bn->sig[i]);
	free(bn->sig);
	free(bn->colour);
	free(bn->slot);
	free(bn->first);
}

static const struct by_node *sort_bn;

/* Nodes by class, then signature, then ordinal: identical nodes end up next to each other. */
static int node_sig_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct cnode *x = &sort_bn->cp->nodes[i], *y = &sort_bn->cp->nodes[j];
	int c;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if ((c = strcmp(sort_bn->sig[i], sort_bn->sig[j])))
		return c;
	return (x->ordinal > y->ordinal) - (x->ordinal < y->ordinal);
}

/* One group of identical nodes: positions [from, to) of the sorted node list. */
struct group {
	size_t from, to;
};

static const size_t *sort_ord;

/* Groups by class, then largest first, then by their first node. */
static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	const struct cnode *nx = &sort_bn->cp->nodes[sort_ord[x->from]], *ny = &sort_bn->cp->nodes[sort_ord[y->from]];
	if (nx->k != ny->k)
		return nx->k < ny->k ? -1 : 1;
	if (x->to - x->from != y->to - y->from)
		return x->to - x->from > y->to - y->from ? -1 : 1;
	return (nx->ordinal > ny->ordinal) - (nx->ordinal < ny->ordinal);
}

/*
 * A box of class cls with text inside: the whole text when it fits, else
 * the short one (the workload's name), cut if it must be; box and text
 * grouped under the whole text as their tooltip, so that hovering
 * either shows it.
 */
static void cell(struct sb *sb, const double box[4], const char *cls, const char *text, const char *shorter)
{
	size_t fit = (size_t)fmax(0, box[2] / 7.5);
	char *t = svg_fit(strlen(text) <= fit || !shorter ? text : shorter, fit);

	sb_adds(sb, "<g><title>");
	html_esc(sb, text);
	sb_adds(sb, "</title>\n");
	svg_rect(sb, box, cls, NULL);
	if (*t)
		svg_text(sb, box[0] + box[2] / 2, box[1] + box[3] / 2 + 4, "middle", NULL, t);
	sb_adds(sb, "</g>\n");
	free(t);
}

/* A slot's box: its text ("profile: workload" or "profile: free"), class and short text (caller frees). */
struct slot_box {
	char *text;
	const char *shorter;
	char cls[24];
};

static void slot_box(const struct by_node *bn, const struct cslot *s, struct slot_box *b)
{
	const struct cplan *cp = bn->cp;
	const struct slot_type *st = &cp->p->classes[cp->nodes[s->node].k].slot_types[s->type];

	b->shorter = s->d >= 0 ? cp->p->demands[s->d].w->name : NULL;
	b->text = xasprintf("%s: %s", st->name, b->shorter ? b->shorter : "free");
	if (s->d >= 0)
		snprintf(b->cls, sizeof(b->cls), "used wc%d", bn->colour[s->d] % HTML_WORKLOAD_COLOURS);
	else
		snprintf(b->cls, sizeof(b->cls), "free");
}

/* A MIG GPU: its memory slices row and its compute slices row, at y; returns the height used. */
static double draw_mig(struct sb *sb, const struct by_node *bn, size_t ni, int g, double y)
{
	const struct cplan *cp = bn->cp;
	const struct gpu_type *gt = cp->p->classes[cp->nodes[ni].k].nc->gpu;
	int ms = gt->mig.memory_slices, cs = gt->mig.compute_slices, i;
	double mw = DRAW_W / ms, cw = DRAW_W / cs;
	size_t j;

	svg_text(sb, LAB_W - 6, y + ROW_H / 2 + 4, "end", "small", "memory");
	svg_text(sb, LAB_W - 6, y + ROW_H * 1.5 + 4, "end", "small", "compute");
	for (i = 0; i < ms; i++) {
		double box[4] = { LAB_W + i * mw, y, mw, ROW_H - 2 };
		svg_rect(sb, box, "slot", NULL);
	}
	for (i = 0; i < cs; i++) {
		double box[4] = { LAB_W + i * cw, y + ROW_H, cw, ROW_H - 2 };
		svg_rect(sb, box, "slot", NULL);
	}
	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++) {
		const struct cslot *s = &cp->slots[bn->slot[j]];
		const struct slot_type *st = &cp->p->classes[cp->nodes[ni].k].slot_types[s->type];
		const struct mig_profile *mp;
		struct slot_box sbx;
		int c0;
		if (s->gpu != g || s->mig_start < 0 || st->mig_profile < 0)
			continue;
		mp = &gt->mig.profiles[st->mig_profile];
		c0 = s->mig_start < cs - mp->compute_slices ? s->mig_start : cs - mp->compute_slices;
		slot_box(bn, s, &sbx);
		{
			double mbox[4] = { LAB_W + s->mig_start * mw, y, mp->memory_slices * mw, ROW_H - 2 };
			double cbox[4] = { LAB_W + c0 * cw, y + ROW_H, mp->compute_slices * cw, ROW_H - 2 };
			cell(sb, mbox, sbx.cls, sbx.text, sbx.shorter);
			cell(sb, cbox, sbx.cls, sbx.text, sbx.shorter);
		}
		free(sbx.text);
	}
	return 2 * ROW_H + 6;
}

/* A GPU of slots side by side (vGPU, time-slicing, MPS), or the whole GPU (passthrough), or idle. */
static double draw_slots(struct sb *sb, const struct by_node *bn, size_t ni, int g, double y)
{
	const struct cplan *cp = bn->cp;
	size_t j, n = 0, k = 0;
	double box[4] = { LAB_W, y, DRAW_W, ROW_H - 2 };

	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++)
		n += cp->slots[bn->slot[j]].gpu == g;
	if (!n) {
		cell(sb, box, "idle", cp->nodes[ni].gpu_config[g] >= 0 ? "partitioned, no slot used" : "idle", NULL);
		return ROW_H + 4;
	}
	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++) {
		const struct cslot *s = &cp->slots[bn->slot[j]];
		struct slot_box sbx;
		if (s->gpu != g)
			continue;
		box[0] = LAB_W + DRAW_W * (double)k++ / (double)n;
		box[2] = DRAW_W / (double)n;
		slot_box(bn, s, &sbx);
		cell(sb, box, sbx.cls, sbx.text, sbx.shorter);
		free(sbx.text);
	}
	return ROW_H + 4;
}

/* The GPUs a passthrough slot of the node covers beyond its first: [g] 1 when inside a group. */
static int pt_covered(const struct by_node *bn, size_t ni, int g)
{
	size_t j;
	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++) {
		const struct cslot *s = &bn->cp->slots[bn->slot[j]];
		if (g > s->gpu && g < s->gpu + s->ngpus)
			return 1;
	}
	return 0;
}

/* The GPUs the passthrough slot starting at GPU g of node ni spans (1 when none starts there). */
static int pt_span(const struct by_node *bn, size_t ni, int g)
{
	size_t j;
	for (j = bn->first[ni]; j < bn->first[ni + 1]; j++) {
		const struct cslot *s = &bn->cp->slots[bn->slot[j]];
		if (s->gpu == g && s->ngpus > 1)
			return s->ngpus;
	}
	return 1;
}

/* Node ni drawn: one row per run of identical GPUs. */
static void draw_node(struct sb *sb, const struct by_node *bn, size_t ni, const char *title)
{
	const struct cplan *cp = bn->cp;
	const struct cnode *n = &cp->nodes[ni];
	int ng = cp->p->classes[n->k].nc->gpus_per_node, g, h;
	int mig = n->mode == MODE_MIG || n->mode == MODE_MIG_VGPU;
	int spans = n->mode == MODE_PASSTHROUGH || n->pattern >= 0; /* groups, multi-vGPU VMs */
	struct sb body, sa, sb2;
	double y = 8;

	sb_init(&body);
	sb_init(&sa);
	sb_init(&sb2);
	for (g = 0; g < ng; g = h) {
		char lab[64];
		sb_release(&sa);
		gpu_sig(&sa, bn, ni, g);
		for (h = g + 1; h < ng; h++) {
			int same;
			sb_release(&sb2);
			gpu_sig(&sb2, bn, ni, h);
			same = !strcmp(sa.buf, sb2.buf) && !(spans && pt_covered(bn, ni, h));
			if (!same)
				break;
		}
		if (spans && pt_covered(bn, ni, g))
			continue;
		if (spans && pt_span(bn, ni, g) > 1)
			snprintf(lab, sizeof(lab), "GPUs %d-%d", g, g + pt_span(bn, ni, g) - 1);
		else if (h - g > 1)
			snprintf(lab, sizeof(lab), "GPUs %d-%d, each", g, h - 1);
		else
			snprintf(lab, sizeof(lab), "GPU %d", g);
		svg_text(&body, 8, y + ROW_H / 2 + 4, "start", NULL, lab);
		y += mig && n->gpu_config[g] >= 0 ? draw_mig(&body, bn, ni, g, y) : draw_slots(&body, bn, ni, g, y);
	}
	svg_open(sb, LAB_W + DRAW_W + 10, y + 4, title);
	sb_addn(sb, body.buf, body.len);
	svg_close(sb);
	sb_release(&body);
	sb_release(&sa);
	sb_release(&sb2);
}

/* A group: its heading (the nodes it stands for) and its drawing. */
static void draw_group(struct sb *sb, const struct by_node *bn, const size_t *ord, const struct group *gr)
{
	const struct cplan *cp = bn->cp;
	const struct cnode *n = &cp->nodes[ord[gr->from]];
	char *first = cplan_node_name(cp, n), *title;
	size_t cnt = gr->to - gr->from, i;

	title = cnt > 1 ? xasprintf("%s and %zu more node%s like this (%s)", first, cnt - 1, cnt > 2 ? "s" : "",
				    mode_name(n->mode))
			: xasprintf("%s (%s)", first, mode_name(n->mode));
	sb_adds(sb, "<div class=\"layout\"><h4>");
	html_esc(sb, title);
	sb_adds(sb, "</h4>\n");
	if (cnt > 1) {
		sb_adds(sb, "<p class=\"small\">");
		for (i = gr->from + 1; i < gr->to && i < gr->from + 9; i++) {
			char *nm = cplan_node_name(cp, &cp->nodes[ord[i]]);
			if (i > gr->from + 1)
				sb_adds(sb, ", ");
			html_esc(sb, nm);
			free(nm);
		}
		if (cnt > 9)
			sb_addf(sb, " and %zu more", cnt - 9);
		sb_adds(sb, "</p>\n");
	}
	draw_node(sb, bn, ord[gr->from], title);
	sb_adds(sb, "</div>\n");
	free(title);
	free(first);
}

/*
 * The workload legend: each workload with a replica placed gets its
 * colour, in the order of the workloads file, so that the same input
 * colours the same; the legend names each in full with its swatch.
 */
static void workload_legend(struct sb *sb, struct by_node *bn)
{
	const struct cplan *cp = bn->cp;
	size_t d, i;
	int n = 0;

	for (d = 0; d < cp->p->ndemands; d++)
		bn->colour[d] = -1;
	for (i = 0; i < cp->nslots; i++)
		if (cp->slots[i].d >= 0)
			bn->colour[cp->slots[i].d] = 0;
	for (d = 0; d < cp->p->ndemands; d++)
		if (!bn->colour[d])
			bn->colour[d] = n++;
	if (!n)
		return;
	sb_adds(sb, "<ul class=\"legend\">\n");
	for (d = 0; d < cp->p->ndemands; d++) {
		const char *name = cp->p->demands[d].w->name;
		if (bn->colour[d] < 0)
			continue;
		sb_adds(sb, "<li title=\"");
		html_esc(sb, name);
		sb_addf(sb, "\"><span class=\"sw wc%d\"></span>", bn->colour[d] % HTML_WORKLOAD_COLOURS);
		html_esc(sb, name);
		sb_adds(sb, "</li>\n");
	}
	sb_adds(sb, "</ul>\n");
}

void html_layouts(struct sb *sb, const struct cplan *cp)
{
	struct by_node bn;
	size_t *ord = xmalloc((cp->nnodes + 1) * sizeof(*ord));
	struct group *gr = xmalloc((cp->nnodes + 1) * sizeof(*gr));
	size_t i, ng = 0, k;

	html_section(sb, "layouts", "GPU layouts");
	html_p(sb, "Per node class: each used node's GPUs, identical nodes drawn once. MIG instances sit on the "
		   "GPU's memory slices from their start slice and take compute slices; vGPU, time-slicing and "
		   "MPS slots share the GPU side by side. Filled: a workload's replica, in the workload's colour; "
		   "dashed: a free slot. Hover over a box for its profile and workload in full.");
	by_node_init(&bn, cp);
	workload_legend(sb, &bn);
	for (i = 0; i < cp->nnodes; i++)
		ord[i] = i;
	sort_bn = &bn;
	qsort(ord, cp->nnodes, sizeof(*ord), node_sig_cmp);
	for (i = 0; i < cp->nnodes; i++) {
		if (i && cp->nodes[ord[i]].k == cp->nodes[ord[i - 1]].k && !strcmp(bn.sig[ord[i]], bn.sig[ord[i - 1]])) {
			gr[ng - 1].to = i + 1;
			continue;
		}
		gr[ng].from = i;
		gr[ng++].to = i + 1;
	}
	sort_ord = ord;
	qsort(gr, ng, sizeof(*gr), group_cmp);
	if (!ng)
		html_p(sb, "No node is used.");
	for (i = 0; i < ng; i = k) {
		int cls = cp->nodes[ord[gr[i].from]].k;
		size_t nodes = 0, drawn = 0, left = 0;
		const struct node_class *nc = cp->p->classes[cls].nc;
		for (k = i; k < ng && cp->nodes[ord[gr[k].from]].k == cls; k++)
			nodes += gr[k].to - gr[k].from;
		sb_adds(sb, "<h3>");
		html_esc(sb, nc->name);
		sb_addf(sb, ": %zu node%s, %d ", nodes, nodes == 1 ? "" : "s", nc->gpus_per_node);
		html_esc(sb, nc->gpu->id);
		sb_addf(sb, " each, %zu layout%s</h3>\n<div class=\"layouts\">\n", k - i, k - i == 1 ? "" : "s");
		for (; i + drawn < k && drawn < HTML_MAX_LAYOUTS; drawn++)
			draw_group(sb, &bn, ord, &gr[i + drawn]);
		sb_adds(sb, "</div>\n");
		left = k - i - drawn;
		if (left)
			sb_addf(sb, "<p>%zu more layouts of this class not drawn (hosts.csv and gpus.csv list every "
				    "host and GPU).</p>\n", left);
	}
	html_section_end(sb);
	by_node_release(&bn);
	free(ord);
	free(gr);
}
