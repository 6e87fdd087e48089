/*
 * cloud_load.c - reads cloud instance offers (schema gpuplan-clouds/1).
 */
#include <stdlib.h>
#include <string.h>

#include "cloud.h"
#include "models.h"
#include "strmap.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

#define CLOUDS_SCHEMA "gpuplan-clouds/1"

/* A required string that is not blank, copied. */
static int str_req(const struct yread *y, const char *key, char **out)
{
	const char *s;
	if (yread_nonblank(y, key, 1, &s))
		return -1;
	*out = xstrdup(s);
	return 0;
}

/*
 * A capacity block: block_days (required; 1..14, or 21..182 in steps of
 * 7, as AWS sells them), upfront_usd (required: the block's price per
 * instance), usd_per_hour 0; no term_years or upfront.
 */
static int load_block(const struct yread *y, struct cloud_offer *of)
{
	const struct ynode *n = y->map;
	long long days = 0;

	if (ymap_get(n, "term_years") || ymap_get(n, "upfront"))
		return ydoc_error(y->doc, ymap_get(n, ymap_get(n, "term_years") ? "term_years" : "upfront"), y->d,
				  "'%s' is for reserved and savings-plan offers, not capacity-block",
				  ymap_get(n, "term_years") ? "term_years" : "upfront");
	if (yread_int(y, "block_days", 1, 1, 182, &days) ||
	    yread_num(y, "upfront_usd", 1, (struct num_range){ 0, 1e9, RANGE_LO_OPEN }, &of->upfront_usd))
		return -1;
	if (days > 14 && days % 7)
		return ydoc_error(y->doc, ymap_get(n, "block_days"), y->d,
				  "offer '%s': block_days %lld is not 1..14 or a multiple of 7 up to 182", of->id, days);
	if (of->usd_per_hour > 0)
		return ydoc_error(y->doc, ymap_get(n, "usd_per_hour"), y->d,
				  "offer '%s': a capacity block is paid upfront: usd_per_hour must be 0", of->id);
	of->block_days = (int)days;
	of->upfront = UPFRONT_ALL;
	return 0;
}

/*
 * The committed term of a reserved or savings-plan offer: term_years
 * (required there, refused on on-demand and spot), upfront (none, partial,
 * all; default none) and upfront_usd (required unless none).
 */
static int load_term(const struct yread *y, struct cloud_offer *of)
{
	int committed = of->pricing == PRICING_RESERVED || of->pricing == PRICING_SAVINGS_PLAN;
	const struct ynode *n = y->map;
	const char *s = NULL;
	long long years = 0;
	size_t i;

	if (of->pricing == PRICING_CAPACITY_BLOCK)
		return load_block(y, of);
	if (ymap_get(n, "block_days"))
		return ydoc_error(y->doc, ymap_get(n, "block_days"), y->d, "'block_days' is for capacity-block offers, not %s",
				  offer_pricing_name(of->pricing));
	if (!committed) {
		static const char *const term_keys[] = { "term_years", "upfront", "upfront_usd", NULL };
		for (i = 0; term_keys[i]; i++)
			if (ymap_get(n, term_keys[i]))
				return ydoc_error(y->doc, ymap_get(n, term_keys[i]), y->d,
						  "'%s' is for reserved and savings-plan offers, not %s", term_keys[i],
						  offer_pricing_name(of->pricing));
		return 0;
	}
	if (yread_int(y, "term_years", 1, 1, 5, &years) || yread_str(y, "upfront", 0, &s) < 0)
		return -1;
	of->term_years = (int)years;
	of->upfront = UPFRONT_NONE;
	if (s) {
		for (i = 0; offer_upfront_names[i] && strcmp(s, offer_upfront_names[i]); i++)
			;
		if (!offer_upfront_names[i])
			return ydoc_unknown(y->doc, ymap_get(n, "upfront"), y->d, "upfront", s, offer_upfront_names);
		of->upfront = (enum offer_upfront)i;
	}
	if (yread_num(y, "upfront_usd", of->upfront != UPFRONT_NONE, (struct num_range){ 0, 1e9, RANGE_CLOSED },
		      &of->upfront_usd) < 0)
		return -1;
	if (of->upfront == UPFRONT_NONE && of->upfront_usd > 0)
		return ydoc_error(y->doc, ymap_get(n, "upfront_usd"), y->d,
				  "'upfront_usd' needs 'upfront: partial' or 'upfront: all'");
	return 0;
}

/* ids: every offer id loaded so far, each offer's index (a hash: a 600,000-offer import is read in seconds). */
static int load_offer(struct clouds *c, const struct ydoc *doc, const struct ynode *o, const struct catalog *cat,
		      struct strmap *ids, struct diag *d)
{
	static const char *const keys[] = { "id", "cloud", "instance", "region", "pricing", "gpu_type", "gpus",
					    "vcpus", "ram_gib", "usd_per_hour", "as_of", "assumed", "source",
					    "term_years", "upfront", "upfront_usd", "block_days", NULL };
	const struct yread y = { doc, o, d };
	struct cloud_offer *of = &c->offers[c->n];
	const char *s;
	char *hint;
	long long gpus;
	size_t i;

	memset(of, 0, sizeof(*of));
	if (ynode_expect(doc, o, YN_MAP, "offers item", d) || ymap_check_keys(doc, o, keys, "cloud offer", d))
		return -1;
	c->n++;
	of->line = o->line;
	of->file = c->files[c->nfiles - 1];
	if (str_req(&y, "id", &of->id) || str_req(&y, "cloud", &of->cloud) ||
	    str_req(&y, "instance", &of->instance) || str_req(&y, "region", &of->region) ||
	    str_req(&y, "source", &of->source) || yread_str(&y, "pricing", 1, &s))
		return -1;
	for (i = 0; offer_pricing_names[i]; i++)
		if (!strcmp(s, offer_pricing_names[i]))
			break;
	if (!offer_pricing_names[i])
		return ydoc_unknown(doc, ymap_get(o, "pricing"), d, "pricing", s, offer_pricing_names);
	of->pricing = (enum offer_pricing)i;
	if (yread_str(&y, "gpu_type", 1, &s))
		return -1;
	of->gpu = catalog_find(cat, s);
	if (!of->gpu) {
		hint = catalog_hint(cat, s);
		ydoc_error(doc, ymap_get(o, "gpu_type"), d, "unknown GPU type '%s'%s", s, hint);
		free(hint);
		return -1;
	}
	if (yread_int(&y, "gpus", 1, 1, 64, &gpus) ||
	    yread_num(&y, "vcpus", 0, (struct num_range){ 0, CLOUD_MAX_VCPUS, RANGE_LO_OPEN }, &of->vcpus) < 0 ||
	    yread_num(&y, "ram_gib", 0, (struct num_range){ 0, CLOUD_MAX_RAM_GIB, RANGE_LO_OPEN }, &of->ram_gib) < 0 ||
	    yread_num(&y, "usd_per_hour", 1, (struct num_range){ 0, 1e6, RANGE_CLOSED }, &of->usd_per_hour) ||
	    yread_price_date(&y, of->id, &of->as_of) || yread_bool(&y, "assumed", 0, &of->assumed) < 0)
		return -1;
	of->gpus = (int)gpus;
	if (strmap_add(ids, of->id, c->n - 1, &i))
		return ydoc_error(doc, ymap_get(o, "id"), d, "offer '%s' is already defined at %s:%ld", of->id,
				  c->offers[i].file, c->offers[i].line);
	return load_term(&y, of);
}

int clouds_load(struct clouds *c, const char *path, const struct catalog *cat, struct diag *d)
{
	static const char *const keys[] = { "schema", "offers", NULL };
	struct ydoc doc = YDOC_INIT;
	struct strmap ids = STRMAP_INIT;
	const struct ynode *offers;
	size_t i, first;
	int rc = -1;

	c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof(*c->files)); /* capacity tracks the count exactly */
	c->files[c->nfiles++] = xstrdup(path);
	if (ydoc_load(&doc, path, d) || ydoc_check_root(&doc, "the cloud offers file", keys, CLOUDS_SCHEMA, d))
		goto out;
	offers = ymap_get(doc.root, "offers");
	if (!offers) {
		ydoc_error(&doc, doc.root, d, "missing field 'offers'");
		goto out;
	}
	if (ynode_expect(&doc, offers, YN_SEQ, "offers", d))
		goto out;
	c->offers = xrealloc(c->offers, (c->n + offers->n + 1) * sizeof(*c->offers));
	for (i = 0; i < c->n; i++)	/* the offers of the files loaded before: ids are unique across files */
		strmap_add(&ids, c->offers[i].id, i, &first);
	for (i = 0; i < offers->n; i++)
		if (load_offer(c, &doc, offers->items[i], cat, &ids, d))
			goto out;
	rc = 0;
out:
	strmap_release(&ids);
	ydoc_release(&doc);
	return rc;
}
