/*
 * strmap.c - a set of strings with a number each (see strmap.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "util.h"
#include "banned.h"

static size_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return (size_t)(h ^ (h >> 32));
}

/* The slot of key, or the free slot where it would go (cap > 0). */
static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t i = hash(key) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static void grow(struct strmap *m)
{
	struct strmap big;
	size_t i, j;

	big.cap = m->cap ? m->cap * 2 : 64;
	big.n = m->n;
	big.keys = xcalloc(big.cap, sizeof(*big.keys));
	big.vals = xcalloc(big.cap, sizeof(*big.vals));
	for (i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		j = slot_of(&big, m->keys[i]);
		big.keys[j] = m->keys[i];
		big.vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	*m = big;
}

int strmap_add(struct strmap *m, const char *key, size_t val, size_t *old)
{
	size_t i;

	if (2 * (m->n + 1) > m->cap)
		grow(m);
	i = slot_of(m, key);
	if (m->keys[i]) {
		*old = m->vals[i];
		return 1;
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->n++;
	return 0;
}

int strmap_get(const struct strmap *m, const char *key, size_t *val)
{
	size_t i;

	if (!m->cap)
		return 0;
	i = slot_of(m, key);
	if (!m->keys[i])
		return 0;
	*val = m->vals[i];
	return 1;
}

void strmap_release(struct strmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
