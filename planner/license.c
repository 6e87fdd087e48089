/*
 * license.c - reads the licence model.
 */
#include <stdlib.h>
#include <string.h>

#include "license.h"
#include "util.h"
#include "ydoc.h"
#include "banned.h"

static int load_term(const struct ydoc *doc, const struct ynode *t, struct diag *d)
{
	static const char *const keys[] = { "id", "years", "usd_per_gpu", "usd_per_gpu_hour", NULL };
	double v;
	if (ynode_expect(doc, t, YN_MAP, "terms item", d) || ymap_check_keys(doc, t, keys, "licence term", d))
		return -1;
	if (ymap_num(doc, t, "years", 0, 1, 10, &v, d) < 0 || ymap_num(doc, t, "usd_per_gpu", 0, 0, 1e9, &v, d) < 0 ||
	    ymap_num(doc, t, "usd_per_gpu_hour", 0, 0, 1e6, &v, d) < 0)
		return -1;
	return 0;
}

int license_default_price(const char *models_dir, double *usd, char **source, struct diag *d)
{
	static const char *const keys[] = { "schema", "default", "products", NULL };
	static const char *const dkeys[] = { "product", "term", NULL };
	static const char *const pkeys[] = { "id", "name", "unit", "terms", NULL };
	struct ydoc doc = YDOC_INIT;
	char *path = xasprintf("%s/licenses.yaml", models_dir);
	const struct ynode *def, *products;
	const char *schema, *want_p, *want_t;
	size_t i, j;
	int rc = -1, found = 0;

	if (ydoc_load(&doc, path, d))
		goto out;
	if (ynode_expect(&doc, doc.root, YN_MAP, "the licence file", d) ||
	    ymap_check_keys(&doc, doc.root, keys, NULL, d) || ymap_str(&doc, doc.root, "schema", 1, &schema, d))
		goto out;
	if (strcmp(schema, "gpuplan-licenses/1")) {
		ydoc_error(&doc, ymap_get(doc.root, "schema"), d, "unsupported schema '%s'", schema);
		goto out;
	}
	def = ymap_get(doc.root, "default");
	products = ymap_get(doc.root, "products");
	if (!def || !products) {
		ydoc_error(&doc, doc.root, d, "missing field '%s'", def ? "products" : "default");
		goto out;
	}
	if (ynode_expect(&doc, def, YN_MAP, "default", d) || ymap_check_keys(&doc, def, dkeys, "default", d) ||
	    ymap_str(&doc, def, "product", 1, &want_p, d) || ymap_str(&doc, def, "term", 1, &want_t, d) ||
	    ynode_expect(&doc, products, YN_SEQ, "products", d))
		goto out;
	for (i = 0; i < products->n; i++) {
		const struct ynode *pr = products->items[i], *terms;
		const char *id;
		if (ynode_expect(&doc, pr, YN_MAP, "products item", d) ||
		    ymap_check_keys(&doc, pr, pkeys, "licence product", d) || ymap_str(&doc, pr, "id", 1, &id, d))
			goto out;
		terms = ymap_get(pr, "terms");
		if (!terms) {
			ydoc_error(&doc, pr, d, "missing field 'terms'");
			goto out;
		}
		if (ynode_expect(&doc, terms, YN_SEQ, "terms", d))
			goto out;
		for (j = 0; j < terms->n; j++) {
			const struct ynode *t = terms->items[j];
			const char *tid;
			double years = 0, price = 0;
			if (load_term(&doc, t, d) || ymap_str(&doc, t, "id", 1, &tid, d))
				goto out;
			if (strcmp(id, want_p) || strcmp(tid, want_t))
				continue;
			if (ymap_num(&doc, t, "years", 1, 1, 10, &years, d) ||
			    ymap_num(&doc, t, "usd_per_gpu", 1, 0, 1e9, &price, d))
				goto out;
			*usd = price / years;
			*source = xasprintf("%s %s (licenses.yaml line %ld)", want_p, want_t, t->line);
			found = 1;
		}
	}
	if (!found) {
		ydoc_error(&doc, def, d, "default licence '%s %s' is not among the products", want_p, want_t);
		goto out;
	}
	rc = 0;
out:
	ydoc_release(&doc);
	free(path);
	return rc;
}
