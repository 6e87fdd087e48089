/*
 * test_compare.c - the ranking and the verdict of gpuplan compare on
 * hand-made rows: unplaced GPU-equivalents by priority (highest first,
 * lexicographic) before cost, and a verdict that names what the cheaper
 * options leave unplaced.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare.h"
#include "util.h"
#include "banned.h"

/* A row: name, cost per year, and up to two unplaced workloads (replicas 0: none). */
static void row(struct compare_row *r, const char *name, double per_year, const char *w1, long n1, double eq1,
		int p1, long n2, int p2)
{
	memset(r, 0, sizeof(*r));
	r->scenario = xstrdup(name);
	r->per_year = per_year;
	r->unpl = xcalloc(2, sizeof(*r->unpl));
	if (n1) {
		r->unpl[r->nunpl++] = (struct compare_unplaced){ xstrdup(w1), NULL, NULL, n1, eq1 * (double)n1, p1 };
		r->unplaced += n1;
		r->gpu_eq_unplaced += eq1 * (double)n1;
	}
	if (n2) {
		r->unpl[r->nunpl++] = (struct compare_unplaced){ xstrdup("small"), NULL, NULL, n2, 0.25 * (double)n2, p2 };
		r->unplaced += n2;
		r->gpu_eq_unplaced += 0.25 * (double)n2;
	}
}

static void release(struct compare_row *rows, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		compare_row_release(&rows[i]);
}

/* Everything placed beats cheaper; among all-placed, cost decides; ties keep the order given. */
static void test_placed_first(void)
{
	struct compare_row rows[3];
	size_t order[3];
	char *v;

	row(&rows[0], "bm", 8000, "train", 2, 2, 10, 0, 0);
	row(&rows[1], "cloud", 262800, NULL, 0, 0, 0, 0, 0);
	row(&rows[2], "cloud2", 262800, NULL, 0, 0, 0, 0, 0);
	compare_rank(rows, 3, order);
	CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0, "order %zu %zu %zu", order[0], order[1], order[2]);
	v = compare_verdict(rows, 3, order);
	CHECK_STR(v, "cloud places every replica at the least cost, 262800.00 USD/year (as much as cloud2, which "
		  "also places every replica; as many GPUs and nodes: first in the order given); bm costs 254800.00 "
		  "USD/year less but leaves 2 replicas unplaced "
		  "(4.00 GPU-equivalents): train 2 (priority 10)", "verdict");
	free(v);
	release(rows, 3);
}

/*
 * Priority before size: 0.5 GPU-equivalents unplaced at priority 10 rank
 * below 4 at priority 5; at the same top level, the lower level decides.
 */
static void test_priority_levels(void)
{
	struct compare_row rows[3];
	size_t order[3];
	char *v;

	row(&rows[0], "a", 100, "big", 2, 2, 5, 0, 0);		/* 4.0 at priority 5 */
	row(&rows[1], "b", 50, NULL, 0, 0, 0, 2, 10);		/* 0.5 at priority 10 */
	row(&rows[2], "c", 300, "big", 1, 2, 5, 0, 0);		/* 2.0 at priority 5 */
	compare_rank(rows, 3, order);
	CHECK(order[0] == 2 && order[1] == 0 && order[2] == 1, "order %zu %zu %zu", order[0], order[1], order[2]);
	v = compare_verdict(rows, 3, order);
	CHECK_STR(v, "no option places every replica; c leaves the least demand unplaced (by priority), at 300.00 "
		  "USD/year: 1 replica unplaced (2.00 GPU-equivalents): big 1 (priority 5); a costs 200.00 USD/year "
		  "less but leaves 2 replicas unplaced (4.00 GPU-equivalents): big 2 (priority 5); b costs 250.00 "
		  "USD/year less but leaves 2 replicas unplaced (0.50 GPU-equivalents): small 2 (priority 10)",
		  "verdict");
	free(v);
	release(rows, 3);
}

int main(void)
{
	test_placed_first();
	test_priority_levels();
	return check_done();
}
