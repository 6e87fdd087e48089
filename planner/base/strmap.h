/*
 * strmap.h - a set of strings with a number each (open addressing,
 * FNV-1a), so that readers find a duplicate name in constant time
 * instead of comparing every row with every row before it.
 *
 * Keys are not copied: a key must stay valid, unchanged, as long as the
 * map is used (readers store the strdup'ed names they keep anyway).
 */
#ifndef PLANNER_STRMAP_H
#define PLANNER_STRMAP_H

#include <stddef.h>

struct strmap {
	const char **keys;	/* [cap]: NULL where free */
	size_t *vals;		/* [cap] */
	size_t cap, n;		/* slots (a power of two, or 0); keys held */
};
#define STRMAP_INIT { NULL, NULL, 0, 0 }

/*
 * Adds key with val, unless key is there already: then *old gets its
 * value and the map is unchanged.  1 when key was there, else 0.
 */
int strmap_add(struct strmap *m, const char *key, size_t val, size_t *old);
/* 1 with *val set when key is there, else 0. */
int strmap_get(const struct strmap *m, const char *key, size_t *val);
void strmap_release(struct strmap *m);

#endif
