/*
 * fuzz_yaml.c - libFuzzer harness for the YAML reader (ydoc): parse the
 * input and walk the tree with every typed accessor.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "ydoc.h"

static const char *const allowed[] = { "schema", "name", "count", "share", "flag", "items", NULL };

static void walk(const struct ydoc *doc, const struct ynode *n, int depth)
{
	struct diag d = DIAG_INIT;
	const char *s;
	long long ll;
	double x;
	int b;
	size_t i;

	if (!n || depth > YDOC_MAX_DEPTH + 1)
		return;
	if (n->type == YN_MAP) {
		const struct yread y = { doc, n, &d };

		(void)ymap_check_keys(doc, n, allowed, "fuzz", &d);
		diag_release(&d);
		(void)yread_str(&y, "name", 0, &s);
		diag_release(&d);
		(void)yread_int(&y, "count", 0, 0, LLONG_MAX, &ll);
		diag_release(&d);
		(void)yread_num(&y, "share", 0, (struct num_range){ 0, 1, RANGE_LO_OPEN }, &x);
		diag_release(&d);
		(void)yread_bool(&y, "flag", 0, &b);
		if (d.kind != DIAG_NONE)
			fuzz_check_diag(&d);
		diag_release(&d);
		for (i = 0; i < n->n; i++) {
			if (i == 0)
				(void)ydoc_key_error(doc, n, i, &d, "key %s", n->keys[i]);
			diag_release(&d);
			walk(doc, n->items[i], depth + 1);
		}
	} else if (n->type == YN_SEQ) {
		(void)ynode_expect(doc, n, YN_MAP, "item", &d);
		diag_release(&d);
		for (i = 0; i < n->n; i++)
			walk(doc, n->items[i], depth + 1);
	} else {
		(void)ydoc_error(doc, n, &d, "scalar '%s'", n->scalar);
		diag_release(&d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ydoc doc = YDOC_INIT;
	struct diag d = DIAG_INIT;

	if (ydoc_parse(&doc, "fuzz.yaml", (const char *)data, size, &d))
		fuzz_check_diag(&d);
	else
		walk(&doc, doc.root, 0);
	diag_release(&d);
	ydoc_release(&doc);
	return 0;
}
