/*
 * smi.c - nvidia-smi MIG listings as a models fragment (see smi.h).
 *
 * The formats follow real captures: -lgip of an H100 SXM5 80GB in
 * stackhpc/ansible-slurm-appliance docs/mig.md @049b557d, of an A30 in
 * Summer-Lo/Docker_configuration 000-MIG/README.md @c4256b90; -lgipp as
 * the NVIDIA MIG User Guide (getting-started, A100-40GB example) and the
 * same captures print it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "smi.h"
#include "util.h"
#include "lines.h"
#include "banned.h"

#define SMI_MAX_BYTES (1UL << 20)

/* The first line of a profile block: "|   0  MIG 1g.10gb  19  7/7  9.75  No  16  1  0  |". */
static int parse_lgip_row(const char *s, int *gpu, struct smi_profile *p)
{
	char name[48], p2p[16];
	int free_, dec, enc, nc;
	double gib;

	if (sscanf(s, " | %d MIG %47s %d %d/%d %15s %15s %d %d %d |%n", gpu, name, &p->id, &free_, &p->total, p->gib,
		   p2p, &p->sms, &dec, &enc, &nc) < 10)
		return -1;
	if (parse_double(p->gib, &gib) || gib <= 0 || gib > 1e6 || p->total < 1 || p->total > 64 || p->id < 0)
		return -1;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->memory_mib = (long)(gib * 1024.0 + 1e-9);
	p->media_ext = strstr(name, "+me") != NULL;
	if (sscanf(name, "%dg.", &p->compute_slices) != 1 || p->compute_slices < 1 || p->compute_slices > 16)
		return -1;
	return 0;
}

static int read_lgip(struct smi_mig *m, const char *path, struct diag *d)
{
	struct lines L;
	char *s;
	size_t cap = 0;
	int seen_header = 0, gpu;

	if (lines_open(&L, path, SMI_MAX_BYTES, d))
		return -1;
	m->gpu = -1;
	while (lines_next(&L, &s)) {
		struct smi_profile p;
		if (strstr(s, "GPU instance profiles:"))
			seen_header = 1;
		if (!strstr(s, " MIG "))
			continue;
		memset(&p, 0, sizeof(p));
		p.line = L.no;
		if (!seen_header || parse_lgip_row(s, &gpu, &p)) {
			lines_close(&L);
			return diag_set(d, DIAG_INPUT, path, L.no, 0,
					"not a row of nvidia-smi mig -lgip (GPU, MIG <profile>, ID, Free/Total, GiB, "
					"P2P, SM, DEC, ENC)");
		}
		if (m->gpu < 0)
			m->gpu = gpu;
		if (gpu != m->gpu)
			continue;
		xgrow((void **)&m->p, &cap, m->n + 1, sizeof(*m->p));
		m->p[m->n++] = p;
	}
	lines_close(&L);
	if (!m->n)
		return diag_set(d, DIAG_INPUT, path, 0, 0,
				"no MIG profile: not the output of nvidia-smi mig -lgip on a GPU in MIG mode");
	return 0;
}

/* "{0,2,4}:2" into p; -1 when malformed. */
static int parse_placements(const char *s, struct smi_profile *p)
{
	const char *q = s;
	long v;
	char *end;

	if (*q++ != '{')
		return -1;
	p->nstarts = 0;
	while (*q != '}') {
		v = strtol(q, &end, 10);
		if (end == q || v < 0 || v > 63 || p->nstarts == SMI_MAX_STARTS)
			return -1;
		p->starts[p->nstarts++] = (int)v;
		q = end;
		if (*q == ',')
			q++;
		else if (*q != '}')
			return -1;
	}
	if (q[1] != ':')
		return -1;
	v = strtol(q + 2, &end, 10);
	if (end == q + 2 || *end || v < 1 || v > 64 || !p->nstarts)
		return -1;
	p->memory_slices = (int)v;
	return 0;
}

static int read_lgipp(struct smi_mig *m, const char *path, struct diag *d)
{
	struct lines L;
	char *s, pl[256];
	int gpu, id, nread = 0;
	size_t i;

	if (lines_open(&L, path, SMI_MAX_BYTES, d))
		return -1;
	while (lines_next(&L, &s)) {
		if (str_blank(s))
			continue;
		if (sscanf(s, " GPU %d Profile ID %d Placement%*[s ]: %255s", &gpu, &id, pl) != 3)
			goto bad;
		if (gpu != m->gpu)
			continue;
		for (i = 0; i < m->n && m->p[i].id != id; i++)
			;
		if (i == m->n) {
			lines_close(&L);
			return diag_set(d, DIAG_INPUT, path, L.no, 0, "profile ID %d is not in %s (nvidia-smi mig -lgip)",
					id, m->lgip_file);
		}
		if (parse_placements(pl, &m->p[i]))
			goto bad;
		m->p[i].pline = L.no;
		nread++;
	}
	lines_close(&L);
	for (i = 0; i < m->n; i++)
		if (!m->p[i].memory_slices)
			return diag_set(d, DIAG_INPUT, path, 0, 0, "no placements of profile ID %d (%s) for GPU %d",
					m->p[i].id, m->p[i].name, m->gpu);
	return 0;
bad:
	lines_close(&L);
	return diag_set(d, DIAG_INPUT, path, L.no, 0,
			"not a line of nvidia-smi mig -lgipp (GPU N Profile ID N Placements: {starts}:size)");
}

int smi_mig_read(struct smi_mig *m, const char *lgip_path, const char *lgipp_path, struct diag *d)
{
	memset(m, 0, sizeof(*m));
	m->lgip_file = lgip_path;
	m->lgipp_file = lgipp_path;
	if (read_lgip(m, lgip_path, d) || (lgipp_path && read_lgipp(m, lgipp_path, d))) {
		smi_mig_release(m);
		return -1;
	}
	return 0;
}

/* g has a MIG profile of every name m lists; else the first it lacks, in *missing. */
static int covers(const struct gpu_type *g, const struct smi_mig *m, const char **missing)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (catalog_mig_profile(g, m->p[i].name) < 0) {
			*missing = m->p[i].name;
			return 0;
		}
	return 1;
}

/* g and h place every profile of m alike (the same slices and starts). */
static int same_placements(const struct gpu_type *g, const struct gpu_type *h, const struct smi_mig *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct mig_profile *a = &g->mig.profiles[catalog_mig_profile(g, m->p[i].name)];
		const struct mig_profile *b = &h->mig.profiles[catalog_mig_profile(h, m->p[i].name)];
		if (a->memory_slices != b->memory_slices || a->nstarts != b->nstarts ||
		    memcmp(a->starts, b->starts, (size_t)a->nstarts * sizeof(a->starts[0])))
			return 0;
	}
	return 1;
}

/* No catalog GPU has all of m's profiles: the error, at the first profile none has. */
static int no_placements(const struct smi_mig *m, const struct catalog *cat, struct diag *d)
{
	size_t i, k;

	for (i = 0; i < m->n; i++) {
		for (k = 0; k < cat->n && catalog_mig_profile(&cat->gpus[k], m->p[i].name) < 0; k++)
			;
		if (k == cat->n)
			return diag_set(d, DIAG_INPUT, m->lgip_file, m->p[i].line, 0,
					"no GPU of the catalog has MIG profile '%s', so its placements are unknown: give "
					"nvidia-smi mig -lgipp too",
					m->p[i].name);
	}
	return diag_set(d, DIAG_INPUT, m->lgip_file, 0, 0,
			"no GPU of the catalog has all these MIG profiles, so their placements are unknown: give "
			"nvidia-smi mig -lgipp too");
}

int smi_mig_catalog_placements(struct smi_mig *m, const struct catalog *cat, struct diag *d)
{
	const struct gpu_type *from = NULL;
	const char *missing = NULL;
	size_t i;

	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		if (!g->has_mig || !covers(g, m, &missing))
			continue;
		if (!from)
			from = g;
		else if (!same_placements(from, g, m))
			return diag_set(d, DIAG_INPUT, m->lgip_file, 0, 0,
					"the catalog's %s and %s place these MIG profiles differently: give nvidia-smi mig "
					"-lgipp too",
					from->id, g->id);
	}
	if (!from)
		return no_placements(m, cat, d);
	for (i = 0; i < m->n; i++) {
		const struct mig_profile *q = &from->mig.profiles[catalog_mig_profile(from, m->p[i].name)];
		if (q->nstarts > SMI_MAX_STARTS)
			continue;
		m->p[i].memory_slices = q->memory_slices;
		m->p[i].nstarts = q->nstarts;
		memcpy(m->p[i].starts, q->starts, (size_t)q->nstarts * sizeof(q->starts[0]));
	}
	m->placements_from = from->id;
	return 0;
}

void smi_mig_release(struct smi_mig *m)
{
	free(m->p);
	m->p = NULL;
	m->n = 0;
}

/* The fragment being written: the text, what it is written from, where its rows come from. */
struct ywrite {
	struct sb y;
	const struct smi_mig *m;
	struct origins *o;	/* NULL: not recorded */
	const char *out;	/* the written file's name, for o */
};

/* The place of what w->y gets next: p's -lgip row, or (placement) its -lgipp row when read. */
static void from(struct ywrite *w, const struct smi_profile *p, int placement)
{
	if (placement && p->pline)
		origins_add(w->o, w->out, &w->y, w->m->lgipp_file, p->pline);
	else
		origins_add(w->o, w->out, &w->y, w->m->lgip_file, p->line);
}

/* One profile as a flow mapping in models/gpus.yaml's layout, with its source comment. */
static void write_profile(struct ywrite *w, const struct smi_profile *p)
{
	const struct smi_mig *m = w->m;
	struct sb *y = &w->y;
	int i;

	from(w, p, 0);
	sb_addf(y, "        # %s:%ld: ID %d, at most %d, %s GiB, SM %d; %s%s: {", m->lgip_file, p->line, p->id, p->total,
		p->gib, p->sms, m->lgipp_file ? "" : "placements of the catalog's ",
		m->lgipp_file ? m->lgipp_file : m->placements_from);
	for (i = 0; i < p->nstarts; i++)
		sb_addf(y, "%s%d", i ? "," : "", p->starts[i]);
	sb_addf(y, "}:%d\n", p->memory_slices);
	from(w, p, 0);
	sb_addf(y, "        - {name: %s, id: %d, compute_slices: %d, ", p->name, p->id, p->compute_slices);
	if (p->sms > 0)
		sb_addf(y, "sms: %d, ", p->sms);
	from(w, p, 1);
	sb_addf(y, "memory_slices: %d, ", p->memory_slices);
	from(w, p, 0);
	sb_addf(y, "memory_mib: %ld, max_instances: %d, ", p->memory_mib, p->total);
	from(w, p, 1);
	sb_adds(y, "starts: [");
	for (i = 0; i < p->nstarts; i++)
		sb_addf(y, "%s%d", i ? ", " : "", p->starts[i]);
	sb_adds(y, "], ");
	from(w, p, 0);
	sb_addf(y, "media_ext: %s}   # usable memory_mib = %s x 1024, rounded down\n", p->media_ext ? "true" : "false",
		p->gib);
}

/* The GPU's figures: the profile of the most compute slices, of the most memory slices, of the most instances. */
static void largest(const struct smi_mig *m, const struct smi_profile **cs, const struct smi_profile **ms,
		    const struct smi_profile **mi)
{
	size_t i;

	*cs = *ms = *mi = &m->p[0];
	for (i = 1; i < m->n; i++) {
		const struct smi_profile *p = &m->p[i];
		if (p->compute_slices > (*cs)->compute_slices)
			*cs = p;
		if (p->memory_slices > (*ms)->memory_slices ||
		    (p->memory_slices == (*ms)->memory_slices && p->compute_slices > (*ms)->compute_slices))
			*ms = p;
		if (p->total > (*mi)->total)
			*mi = p;
	}
}

char *smi_mig_yaml_origins(const struct smi_mig *m, const char *gpu_id, const char *out, struct origins *o)
{
	const struct smi_profile *cs, *big, *mi;
	struct ywrite w;
	size_t i;

	sb_init(&w.y);
	w.m = m;
	w.o = o;
	w.out = out;
	largest(m, &cs, &big, &mi);
	if (m->lgipp_file)
		sb_addf(&w.y, "# GPU type %s from nvidia-smi mig -lgip (%s) and -lgipp (%s) of GPU %d,\n", gpu_id,
			m->lgip_file, m->lgipp_file, m->gpu);
	else
		sb_addf(&w.y, "# GPU type %s from nvidia-smi mig -lgip (%s) of GPU %d, placements of the catalog's %s,\n",
			gpu_id, m->lgip_file, m->gpu, m->placements_from);
	sb_addf(&w.y, "# written by gpuplan import nvidia-smi.  Add the GPU's vGPU table, sms and tdp_w from\n"
		      "# their own sources; use it from a scenario's gpu_types: list.\n"
		      "schema: gpuplan-gpus/1\ngpus:\n  - id: %s\n",
		gpu_id);
	from(&w, big, 0);
	sb_addf(&w.y, "    memory_mib: %ld   # nominal: the %s profile's name x 1024\n", mig_name_nominal_mib(big->name),
		big->name);
	sb_adds(&w.y, "    mig:\n");
	from(&w, cs, 0);
	sb_addf(&w.y, "      compute_slices: %d   # the largest <n>g profile\n", cs->compute_slices);
	from(&w, big, 1);
	sb_addf(&w.y, "      memory_slices: %d    # the largest placement size (-lgipp)\n", big->memory_slices);
	from(&w, mi, 0);
	sb_addf(&w.y, "      max_instances: %d    # the most instances of one profile (-lgip Total)\n      profiles:\n",
		mi->total);
	for (i = 0; i < m->n; i++)
		write_profile(&w, &m->p[i]);
	return sb_detach(&w.y);
}

char *smi_mig_yaml(const struct smi_mig *m, const char *gpu_id)
{
	return smi_mig_yaml_origins(m, gpu_id, "", NULL);
}
