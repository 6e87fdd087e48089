/*
 * ilp_one_node.c - the one-node model of a class: the model's class rows
 * (ilp_class_rows) over columns of that class alone, its node count at
 * most one and its replicas integer.  The exact packer (ilp_pack.c)
 * copies it once a node of the class; column generation (ilp_colgen.c)
 * prices node patterns on it.
 */
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "ilp_one_node.h"
#include "banned.h"

void ilp_one_node_build(const struct problem *p, const struct arcidx *ix, size_t k, struct ilp_one_node *on)
{
	struct rowbuf rb = { NULL, NULL, 0, 0, NULL };
	struct ilp_rows rw;
	size_t a;

	on->S = glp_create_prob();
	memset(&on->lc, 0, sizeof(on->lc));
	ilp_cols_alloc(p, &on->lc);
	ilp_class_cols(on->S, p, &on->lc, k);
	for (a = ix->kstart[k]; a < ix->kstart[k + 1]; a++) {
		ilp_arc_col(on->S, p, &on->lc, ix->byk[a]);
		glp_set_col_kind(on->S, on->lc.arc[ix->byk[a]], GLP_IV);
	}
	ilp_agg_cols(on->S, p, &on->lc, k);
	rb.pos = xcalloc((size_t)glp_get_num_cols(on->S) + 1, sizeof(*rb.pos));
	rw.P = on->S;
	rw.p = p;
	rw.ix = ix;
	rw.cl = &on->lc;
	rw.rb = &rb;
	ilp_class_rows(&rw, k, NULL);
	ilp_rb_free(&rb);
	if (on->lc.avail_row[k])
		glp_set_row_bnds(on->S, on->lc.avail_row[k], GLP_UP, 0, 1);
	on->nr = glp_get_num_rows(on->S);
	on->nc = glp_get_num_cols(on->S);
}

void ilp_one_node_free(const struct problem *p, struct ilp_one_node *on)
{
	glp_delete_prob(on->S);
	ilp_cols_free(p, &on->lc);
}
