/*
 * license_load.c - reads the licence model (models/licenses.yaml).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "license.h"
#include "models.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

#define LICENSES_SCHEMA "gpuplan-licenses/2"

static const char *const kind_names[] = { "subscription", "perpetual", "hourly", NULL };

/* Index of s in the NULL-terminated names, or an error at node naming the choices. */
static int pick(const struct ydoc *doc, const struct ynode *node, const char *const *names, int from,
		const char *field, struct diag *d)
{
	int i;
	if (node->type != YN_SCALAR)
		return ydoc_error(doc, node, d, "field '%s' must be a word", field);
	for (i = from; names[i]; i++)
		if (!strcmp(node->scalar, names[i]))
			return i;
	return ydoc_unknown(doc, node, d, field, node->scalar, names + from);
}

static int required(const struct ydoc *doc, const struct ynode *map, const char *key, const char *what,
		    const struct ynode **out, struct diag *d)
{
	*out = ymap_get(map, key);
	if (!*out)
		return ydoc_error(doc, map, d, "missing field '%s' in %s", key, what);
	return 0;
}

static int load_source(const struct ydoc *doc, const struct ynode *m, const char *what, char **source,
		       int *assumed, struct diag *d)
{
	const struct yread y = { doc, m, d };
	const char *s;
	int a = 0;
	if (yread_str(&y, "source", 1, &s))
		return -1;
	if (str_blank(s))
		return ydoc_error(doc, ymap_get(m, "source"), d, "field 'source' of %s is empty", what);
	if (assumed && yread_bool(&y, "assumed", 0, &a) < 0)
		return -1;
	*source = xstrdup(s);
	if (assumed)
		*assumed = a;
	return 0;
}

/* A sequence of words from names (index >= from) as a bit mask. */
static int load_set(const struct yread *y, const char *key, const char *const *names, int from,
		    const char *what, unsigned *out)
{
	const struct ynode *seq;
	size_t i;
	int k;
	if (required(y->doc, y->map, key, "licence requirement", &seq, y->d) ||
	    ynode_expect(y->doc, seq, YN_SEQ, key, y->d))
		return -1;
	*out = 0;
	for (i = 0; i < seq->n; i++) {
		if ((k = pick(y->doc, seq->items[i], names, from, what, y->d)) < 0)
			return -1;
		*out |= 1u << k;
	}
	return 0;
}

static int load_term(const struct ydoc *doc, const struct ynode *t, struct lic_term *lt, struct diag *d)
{
	static const char *const keys[] = { "id", "kind", "years", "usd_per_gpu", "usd_per_gpu_hour",
					    "hosting", "as_of", "assumed", "source", NULL };
	const struct yread y = { doc, t, d };
	const struct ynode *kind;
	const char *id;
	long long years = 0;
	int k;

	if (ynode_expect(doc, t, YN_MAP, "terms item", d) || ymap_check_keys(doc, t, keys, "licence term", d) ||
	    yread_str(&y, "id", 1, &id) || required(doc, t, "kind", "licence term", &kind, d))
		return -1;
	if ((k = pick(doc, kind, kind_names, 0, "term kind", d)) < 0)
		return -1;
	lt->id = xstrdup(id);
	lt->kind = (enum lic_term_kind)k;
	lt->line = t->line;
	if (lt->kind == TERM_HOURLY) {
		if (ymap_get(t, "years") || ymap_get(t, "usd_per_gpu"))
			return ydoc_error(doc, t, d, "an hourly term has usd_per_gpu_hour only");
		if (yread_num(&y, "usd_per_gpu_hour", 1, (struct num_range){ 0, 1e6, RANGE_CLOSED },
			      &lt->usd_per_gpu_hour))
			return -1;
	} else {
		if (ymap_get(t, "usd_per_gpu_hour"))
			return ydoc_error(doc, ymap_get(t, "usd_per_gpu_hour"), d,
					  "only an hourly term has usd_per_gpu_hour");
		if (yread_int(&y, "years", 1, 1, 10, &years) ||
		    yread_num(&y, "usd_per_gpu", 1, (struct num_range){ 0, 1e9, RANGE_CLOSED }, &lt->usd_per_gpu))
			return -1;
		lt->years = (int)years;
	}
	/* hosting: default everywhere, but an hourly (marketplace) price only in clouds */
	lt->hosting = lt->kind == TERM_HOURLY ? 1u << LIC_HOST_CLOUD : (1u << LIC_HOST_COUNT) - 1;
	if (ymap_get(t, "hosting") && load_set(&y, "hosting", lic_hosting_names, 0, "hosting", &lt->hosting))
		return -1;
	if (yread_price_date(&y, lt->id, &lt->as_of))
		return -1;
	return load_source(doc, t, "a licence term", &lt->source, &lt->assumed, d);
}

static int load_product(struct licenses *L, const struct ydoc *doc, const struct ynode *pr, struct diag *d)
{
	static const char *const keys[] = { "id", "name", "terms", NULL };
	const struct yread y = { doc, pr, d };
	const struct ynode *idn, *terms;
	struct lic_product_def *pd;
	const char *name;
	size_t i, j;
	int p;

	if (ynode_expect(doc, pr, YN_MAP, "products item", d) || ymap_check_keys(doc, pr, keys, "licence product", d) ||
	    required(doc, pr, "id", "licence product", &idn, d) ||
	    (p = pick(doc, idn, lic_product_ids, 1, "licence product", d)) < 0)
		return -1;
	pd = &L->product[p];
	if (pd->present)
		return ydoc_error(doc, idn, d, "licence product '%s' is listed twice (first at line %ld)",
				  idn->scalar, pd->line);
	if (yread_str(&y, "name", 1, &name) || required(doc, pr, "terms", "licence product", &terms, d) ||
	    ynode_expect(doc, terms, YN_SEQ, "terms", d))
		return -1;
	pd->present = 1;
	pd->line = pr->line;
	pd->name = xstrdup(name);
	pd->terms = xcalloc(terms->n ? terms->n : 1, sizeof(*pd->terms));
	for (i = 0; i < terms->n; i++) {
		if (load_term(doc, terms->items[i], &pd->terms[pd->nterms++], d))
			return -1;
		for (j = 0; j + 1 < pd->nterms; j++)
			if (!strcmp(pd->terms[j].id, pd->terms[i].id))
				return ydoc_error(doc, terms->items[i], d, "term '%s' is listed twice", pd->terms[i].id);
	}
	return 0;
}

static int load_rule(struct licenses *L, const struct ydoc *doc, const struct ynode *r, struct diag *d)
{
	static const char *const keys[] = { "mode", "hypervisors", "products", "assumed", "source", NULL };
	static const char *hv_names[HV_COUNT + 1];
	static const char *mode_words[MODE_COUNT + 1];
	const struct yread y = { doc, r, d };
	const struct ynode *mn;
	struct lic_rule *lr = &L->rules[L->nrules];
	size_t i;
	int m, assumed = 0;

	for (i = 0; i < HV_COUNT; i++)
		hv_names[i] = hypervisor_name((enum hypervisor)i);
	for (i = 0; i < MODE_COUNT; i++)
		mode_words[i] = mode_name((enum gpu_mode)i);
	if (ynode_expect(doc, r, YN_MAP, "requirements item", d) ||
	    ymap_check_keys(doc, r, keys, "licence requirement", d) ||
	    required(doc, r, "mode", "licence requirement", &mn, d) ||
	    (m = pick(doc, mn, mode_words, 0, "mode", d)) < 0)
		return -1;
	lr->mode = (enum gpu_mode)m;
	lr->line = r->line;
	if (load_set(&y, "hypervisors", hv_names, 0, "hypervisor", &lr->hypervisors) ||
	    load_set(&y, "products", lic_product_ids, 1, "licence product", &lr->products) ||
	    load_source(doc, r, "a licence requirement", &lr->source, &assumed, d))
		return -1;
	L->nrules++;
	for (i = 0; i + 1 < L->nrules; i++)
		if (L->rules[i].mode == lr->mode && (L->rules[i].hypervisors & lr->hypervisors))
			return ydoc_error(doc, r, d, "mode '%s' already has a requirement for these hypervisors (line %ld)",
					  mode_name(lr->mode), L->rules[i].line);
	for (i = 1; i < LIC_COUNT; i++)
		if ((lr->products & (1u << i)) && !L->product[i].present)
			return ydoc_error(doc, r, d, "licence product '%s' is not among the products", lic_product_ids[i]);
	lr->assumed = assumed;
	return 0;
}

static int load_bundle(struct licenses *L, const struct ydoc *doc, const struct ynode *b,
		       const struct catalog *cat, struct diag *d)
{
	static const char *const keys[] = { "gpu_types", "product", "years", "assumed", "source", NULL };
	const struct yread y = { doc, b, d };
	struct lic_bundle *lb = &L->bundles[L->nbundles];
	const struct ynode *types, *pn;
	long long years;
	size_t i;
	int p;

	if (ynode_expect(doc, b, YN_MAP, "bundles item", d) || ymap_check_keys(doc, b, keys, "bundle", d) ||
	    required(doc, b, "gpu_types", "bundle", &types, d) || ynode_expect(doc, types, YN_SEQ, "gpu_types", d) ||
	    required(doc, b, "product", "bundle", &pn, d) || (p = pick(doc, pn, lic_product_ids, 1, "licence product", d)) < 0 ||
	    yread_int(&y, "years", 1, 1, 10, &years))
		return -1;
	lb->product = (enum lic_product)p;
	lb->years = (int)years;
	lb->line = b->line;
	lb->types = xcalloc(types->n ? types->n : 1, sizeof(*lb->types));
	L->nbundles++;
	for (i = 0; i < types->n; i++) {
		const struct ynode *t = types->items[i];
		const struct gpu_type *g;
		if (t->type != YN_SCALAR)
			return ydoc_error(doc, t, d, "a gpu_types entry must be a GPU type");
		g = catalog_find(cat, t->scalar);
		if (!g) {
			char *hint = catalog_hint(cat, t->scalar);
			ydoc_error(doc, t, d, "unknown GPU type '%s'%s", t->scalar, hint);
			free(hint);
			return -1;
		}
		lb->types[lb->ntypes++] = g;
	}
	return load_source(doc, b, "a bundle", &lb->source, &lb->assumed, d);
}

int licenses_load(struct licenses *L, const char *path, const struct catalog *cat, struct diag *d)
{
	static const char *const keys[] = { "schema", "products", "requirements", "bundles", NULL };
	struct ydoc doc = YDOC_INIT;
	const struct ynode *seq;
	size_t i;
	int rc = -1;

	memset(L, 0, sizeof(*L));
	L->file = xstrdup(path);
	if (ydoc_load(&doc, path, d) || ydoc_check_root(&doc, "the licence file", keys, LICENSES_SCHEMA, d))
		goto out;
	if (required(&doc, doc.root, "products", "the licence file", &seq, d) ||
	    ynode_expect(&doc, seq, YN_SEQ, "products", d))
		goto out;
	for (i = 0; i < seq->n; i++)
		if (load_product(L, &doc, seq->items[i], d))
			goto out;
	if (required(&doc, doc.root, "requirements", "the licence file", &seq, d) ||
	    ynode_expect(&doc, seq, YN_SEQ, "requirements", d))
		goto out;
	L->rules = xcalloc(seq->n ? seq->n : 1, sizeof(*L->rules));
	for (i = 0; i < seq->n; i++)
		if (load_rule(L, &doc, seq->items[i], d))
			goto out;
	seq = ymap_get(doc.root, "bundles");
	if (seq) {
		if (ynode_expect(&doc, seq, YN_SEQ, "bundles", d))
			goto out;
		L->bundles = xcalloc(seq->n ? seq->n : 1, sizeof(*L->bundles));
		for (i = 0; i < seq->n; i++)
			if (load_bundle(L, &doc, seq->items[i], cat, d))
				goto out;
	}
	rc = 0;
out:
	ydoc_release(&doc);
	return rc;
}
