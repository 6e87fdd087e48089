/*
 * rng.c - splitmix64 (see rng.h).
 */
#include "rng.h"
#include "banned.h"

unsigned long long rng_next(struct rng *r)
{
	unsigned long long z = (r->s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

unsigned long long rng_mix(unsigned long long x)
{
	struct rng r = { x };
	return rng_next(&r);
}
