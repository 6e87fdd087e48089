/*
 * skypilot.c - SkyPilot catalog rows as cloud offers (see skypilot.h).
 *
 * Accelerator names are SkyPilot's (the AcceleratorName column); the
 * form factor of the catalog type follows models/clouds.yaml's rule:
 * 8-GPU NVLink instances carry the SXM part.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "csvdoc.h"
#include "skypilot.h"
#include "strmap.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

static const struct {
	const char *sky;	/* AcceleratorName */
	const char *gpu_id;	/* catalog id */
} accels[] = {
	{ "A10", "A10" },	      { "A100", "A100-SXM4-40GB" }, { "A100-80GB", "A100-SXM4-80GB" },
	{ "B200", "B200" },	      { "H100", "H100-SXM5-80GB" }, { "H200", "H200-SXM-141GB" },
	{ "L4", "L4" },		      { "L40S", "L40S" },	    { "T4", "T4" },
};
#define NACCELS (sizeof(accels) / sizeof(accels[0]))

enum { S_TYPE, S_ACC, S_COUNT, S_VCPU, S_MEM, S_INFO, S_PRICE, S_SPOT, S_REGION, S_AZ, S_NCOLS };
static const struct csvcol sky_cols[] = { { "InstanceType", 1 }, { "AcceleratorName", 1 }, { "AcceleratorCount", 1 },
					  { "vCPUs", 1 },	 { "MemoryGiB", 1 },	   { "GpuInfo", 0 },
					  { "Price", 1 },	 { "SpotPrice", 1 },	   { "Region", 1 },
					  { "AvailabilityZone", 0 }, { NULL, 0 } };

struct sky_row {
	const char *type, *gpu_id, *acc, *region, *az;
	long long gpus;
	double vcpus, mem, price, spot;	/* price, spot < 0: none */
	long line;
};

static const char *accel_id(const char *name)
{
	size_t i;
	for (i = 0; i < NACCELS; i++)
		if (!str_casecmp(accels[i].sky, name))
			return accels[i].gpu_id;
	return NULL;
}

/* One GPU row; 1 when skipped. */
/* Instance types, regions and zones as clouds name them: they go unquoted into offer ids. */
static int plain(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return 0;
	return 1;
}

static int read_row(const struct csvread *rd, const struct sky_filter *f, struct sky_row *r)
{
	static const struct num_range pos = { 0, HUGE_VAL, RANGE_LO_OPEN }, price = { 0, 1e6, RANGE_LO_OPEN },
				      vcpus = { 0, CLOUD_MAX_VCPUS, RANGE_LO_OPEN }, mem = { 0, CLOUD_MAX_RAM_GIB, RANGE_LO_OPEN };
	double cnt;

	memset(r, 0, sizeof(*r));
	r->line = rd->r->line;
	r->acc = csvread_text(rd, S_ACC);
	r->region = csvread_text(rd, S_REGION);
	if (!*r->acc || (f->region && strcmp(f->region, r->region)) ||
	    (f->accelerator && str_casecmp(f->accelerator, r->acc)) || !(r->gpu_id = accel_id(r->acc)))
		return 1;
	r->price = r->spot = -1;
	if (csvread_str(rd, S_TYPE, 1, &r->type) < 0 || csvread_num(rd, S_COUNT, 1, pos, &cnt) ||
	    csvread_num(rd, S_VCPU, 1, vcpus, &r->vcpus) || csvread_num(rd, S_MEM, 1, mem, &r->mem) ||
	    csvread_num(rd, S_PRICE, 0, price, &r->price) < 0 || csvread_num(rd, S_SPOT, 0, price, &r->spot) < 0)
		return -1;
	if (cnt != floor(cnt) || cnt > 64)
		return csvread_error(rd, S_COUNT, "column 'AcceleratorCount': '%s' is not a whole number of GPUs in 1..64",
				     csvread_text(rd, S_COUNT));
	r->gpus = (long long)cnt;
	r->az = csvread_text(rd, S_AZ);
	if (!plain(r->type) || !plain(r->region) || (*r->az && !plain(r->az))) {
		int c = !plain(r->type) ? S_TYPE : !plain(r->region) ? S_REGION : S_AZ;
		return csvread_error(rd, c, "'%s' is not a plain name (letters, digits, '.', '_', '-'): it becomes "
				     "part of an offer id", csvread_text(rd, c));
	}
	return 0;
}

static int sky_row_cmp(const void *a, const void *b)
{
	const struct sky_row *x = a, *y = b;
	int c = strcmp(x->type, y->type);
	if (c || (c = strcmp(x->region, y->region)) || (c = strcmp(x->az, y->az)))
		return c;
	return (x->line > y->line) - (x->line < y->line); /* the file's order: the same offer on any libc */
}

static void add_num(struct sb *sb, double v, int decimals)
{
	char b[64];
	sb_adds(sb, fmt_num_short(b, sizeof(b), v, decimals));
}

static void write_offer(struct sb *y, const struct sky_filter *f, const struct sky_row *r, const char *file,
			int spot)
{
	sb_addf(y, "  - {id: %s/%s/%s%s, cloud: %s, instance: %s, region: %s,\n     pricing: %s, gpu_type: %s, gpus: %lld, "
		   "vcpus: ", f->cloud, r->type, spot ? r->az : r->region, spot ? "/spot" : "", f->cloud, r->type,
		r->region, spot ? "spot" : "on-demand", r->gpu_id, r->gpus);
	add_num(y, r->vcpus, 3);
	sb_adds(y, ", ram_gib: ");
	add_num(y, r->mem, 6);
	sb_adds(y, ", usd_per_hour: ");
	add_num(y, spot ? r->spot : r->price, 6);
	sb_addf(y, ", as_of: %s,\n     source: \"%s:%ld (SkyPilot catalog): %s %s x%lld, %s %s/h\"}\n", f->as_of, file,
		r->line, r->type, r->acc, r->gpus, spot ? r->az : r->region, spot ? "SpotPrice" : "Price");
}

/* Appends the offer text one to the last part, or to a new one when the last would pass max bytes or offers. */
static void add_to_part(struct sky_out *out, struct sb *one, size_t max)
{
	if (!out->nparts || out->parts[out->nparts - 1].len + one->len > max || out->part_offers >= SKY_PART_OFFERS) {
		XGROW(out->parts, out->parts_cap, out->nparts + 1);
		sb_init(&out->parts[out->nparts++]);
		out->part_offers = 0;
	}
	out->part_offers++;
	sb_addn(&out->parts[out->nparts - 1], one->buf, one->len);
	one->len = 0;
	one->buf[0] = '\0';
}

static void write_offers(const struct sky_filter *f, struct sky_row *rows, size_t n, const char *file,
			 struct sky_out *out)
{
	size_t i, j, k, m, best, max = f->part_bytes ? f->part_bytes : SKY_PART_BYTES;
	struct sb one;

	sb_init(&one);
	qsort(rows, n, sizeof(*rows), sky_row_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(rows[i].type, rows[j].type) && !strcmp(rows[i].region, rows[j].region); j++)
			;
		for (best = n, k = i; k < j; k++)
			if (rows[k].price > 0 && (best == n || rows[k].price < rows[best].price))
				best = k;
		if (best < n) {
			write_offer(&one, f, &rows[best], file, 0);
			add_to_part(out, &one, max);
			out->ondemand++;
		}
		/* spot: per zone, the lowest SpotPrice of its rows (a zone listed twice is one offer) */
		for (k = i; k < j; k = m) {
			for (best = n, m = k; m < j && !strcmp(rows[m].az, rows[k].az); m++)
				if (rows[m].spot > 0 && (best == n || rows[m].spot < rows[best].spot))
					best = m;
			if (best < n && *rows[best].az) {
				write_offer(&one, f, &rows[best], file, 1);
				add_to_part(out, &one, max);
				out->spot++;
			}
		}
	}
	sb_release(&one);
}

/* Each part behind its header: the files' text, into out->yaml. */
static void finish_parts(const struct sky_filter *f, const char *path, struct sky_out *out)
{
	size_t k;

	out->yaml = xcalloc(out->nparts + 1, sizeof(*out->yaml));
	for (k = 0; k < out->nparts; k++) {
		struct sb y;
		sb_init(&y);
		sb_addf(&y, "# Cloud GPU offers from the SkyPilot catalog %s (as of %s), written by gpuplan import\n"
			    "# skypilot%s%s%s%s.  On-demand: per instance type and region, the lowest Price of its zones;\n"
			    "# spot: per zone.  GPU types by the accelerator table of docs/formats.md (8-GPU NVLink\n"
			    "# instances carry the SXM part).  Use it from a scenario's cloud_offers: list.\n",
			path, f->as_of, f->region ? " --region " : "", f->region ? f->region : "",
			f->accelerator ? " --accelerator " : "", f->accelerator ? f->accelerator : "");
		if (out->nparts > 1)
			sb_addf(&y, "# Part %zu of %zu: gpuplan reads YAML files of up to 16 MiB, so the offers are split;\n"
				    "# list all %zu files in cloud_offers.\n", k + 1, out->nparts, out->nparts);
		sb_adds(&y, "schema: gpuplan-clouds/1\noffers:\n");
		sb_addn(&y, out->parts[k].buf, out->parts[k].len);
		sb_release(&out->parts[k]);
		out->yaml[k] = sb_detach(&y);
	}
	free(out->parts);
	out->parts = NULL;
	out->parts_cap = 0;
}

/*
 * A zone is in one region: the same instance type and zone under two
 * regions would make two spot offers of one id.  0, or -1 with d at the
 * later row's zone.
 */
static int check_zones(const struct csvdoc *doc, const int *idx, const struct sky_row *rows, size_t n,
		       struct diag *d)
{
	struct strmap seen = STRMAP_INIT;
	char **keys = xcalloc(n + 1, sizeof(*keys));	/* "TYPE/ZONE": the map's keys, kept while it is used */
	size_t i, first;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		if (!*rows[i].az)
			continue;
		keys[i] = xasprintf("%s/%s", rows[i].type, rows[i].az);
		if (strmap_add(&seen, keys[i], i, &first) && strcmp(rows[first].region, rows[i].region))
			rc = diag_set(d, DIAG_INPUT, doc->file, rows[i].line, idx[S_AZ] + 1,
				      "zone '%s' of %s is in region '%s' here and '%s' at line %ld: a zone is in one region",
				      rows[i].az, rows[i].type, rows[i].region, rows[first].region, rows[first].line);
	}
	strmap_release(&seen);
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
	return rc;
}

int skypilot_import(const char *path, const struct sky_filter *f, struct sky_out *out, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	struct sky_row *rows = NULL;
	int idx[S_NCOLS], rc = -1;
	size_t i, n = 0;

	memset(out, 0, sizeof(*out));
	if (csvdoc_load(&doc, path, d) || csvdoc_bind(&doc, sky_cols, idx, d))
		goto out;
	if (f->accelerator && !accel_id(f->accelerator)) {
		const char *names[NACCELS + 1];
		char *hint;
		for (i = 0; i < NACCELS; i++)
			names[i] = accels[i].sky;
		names[NACCELS] = NULL;
		hint = str_hint(f->accelerator, names);
		diag_set(d, DIAG_INPUT, NULL, 0, 0, "--accelerator: unknown accelerator '%s'%s", f->accelerator, hint);
		free(hint);
		goto out;
	}
	rows = xcalloc(doc.nrows + 1, sizeof(*rows));
	for (i = 0; i < doc.nrows; i++) {
		const struct csvread rd = { &doc, &doc.rows[i], sky_cols, idx, d };
		int r;
		if (csvdoc_interrupted(&doc, i, d))	/* else a signal's cut reads as "no GPU offer" */
			goto out;
		r = read_row(&rd, f, &rows[n]);
		if (r < 0)
			goto out;
		if (r)
			out->skipped++;
		else
			n++;
	}
	if (check_zones(&doc, idx, rows, n, d))
		goto out;
	out->rows = (long)doc.nrows;
	write_offers(f, rows, n, path, out);
	if (!out->ondemand && !out->spot) {
		diag_set(d, DIAG_INPUT, path, 0, 0, "no GPU offer with a price matches%s%s%s%s", f->region ? " region " : "",
			 f->region ? f->region : "", f->accelerator ? " accelerator " : "",
			 f->accelerator ? f->accelerator : "");
		goto out;
	}
	finish_parts(f, path, out);
	rc = 0;
out:
	if (rc)
		sky_out_release(out);
	free(rows);
	csvdoc_release(&doc);
	return rc;
}

void sky_out_release(struct sky_out *out)
{
	size_t k;

	for (k = 0; out->yaml && k < out->nparts; k++)
		free(out->yaml[k]);
	for (k = 0; out->parts && k < out->nparts; k++)
		sb_release(&out->parts[k]);
	free(out->yaml);
	free(out->parts);
	out->yaml = NULL;
	out->parts = NULL;
	out->nparts = out->parts_cap = 0;
}
