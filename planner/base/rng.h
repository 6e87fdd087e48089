/*
 * rng.h - a small seeded pseudo-random generator, the same sequence on
 * every machine: splitmix64 (Steele, Lea and Flood, "Fast splittable
 * pseudorandom number generators", OOPSLA 2014; the constants of
 * Vigna's public-domain reference splitmix64.c, prng.di.unimi.it).
 * libc's rand() is not used: its sequence differs between libcs.
 *
 * The state is one 64-bit word; any seed (0 included) is fine.
 */
#ifndef PLANNER_RNG_H
#define PLANNER_RNG_H

struct rng {
	unsigned long long s;	/* the state: seed, advanced by each draw */
};

/* The next 64 random bits. */
unsigned long long rng_next(struct rng *r);
/* Uniform in [0, 1), 53 bits. */
double rng_unit(struct rng *r);
/* The splitmix64 output of the single state x: a 64-bit mix of x (for deriving seeds). */
unsigned long long rng_mix(unsigned long long x);

#endif
