/*
 * kquantity.c - Kubernetes resource quantities (see kquantity.h).
 *
 * The digits are gathered into an integer mantissa (the first 18
 * significant ones) and a power of ten, so "1.5k" and "1500" come out the
 * same double; the suffix then multiplies by 1000^n, 1024^n or 10^e.
 */
#include <math.h>
#include <string.h>

#include "kquantity.h"
#include "banned.h"

/* The largest magnitude a Quantity may hold: 2^63 - 1. */
#define KQ_MAX 9223372036854775807.0

/* The multiplier of suffix s (NUL-terminated tail); 0 when s is not a suffix. */
static double suffix_scale(const char *s)
{
	static const char dec[] = "kMGTPE", bin[] = "KMGTPE";
	const char *p;

	if (!*s)
		return 1;
	if (!strcmp(s, "m"))
		return 1e-3;
	if (s[1] == 'i' && !s[2] && (p = strchr(bin, s[0])) && *p)
		return pow(1024.0, (double)(p - bin + 1));
	if (!s[1] && (p = strchr(dec, s[0])) && *p)
		return pow(1000.0, (double)(p - dec + 1));
	return 0;
}

/* A signed decimal exponent "[+-]digits" (the whole string); 0 when not one. */
static int parse_exponent(const char *s, int *out)
{
	int sign = 1;
	long v = 0;

	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		if (v < 100000)
			v = v * 10 + (*s - '0');
	}
	*out = (int)(sign * v);
	return 1;
}

int kquantity_parse(const char *s, double *out, const char **why)
{
	unsigned long long mant = 0;
	int sign = 1, exp10 = 0, ndig = 0, sig = 0, e;
	double v, scale;

	*why = "not a Kubernetes quantity (e.g. 1500m, 64Gi, 128974848, 1e3)";
	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? -1 : 1;
	for (; *s >= '0' && *s <= '9'; s++, ndig++) {
		if (sig < 18) {
			mant = mant * 10 + (unsigned)(*s - '0');
			sig += mant > 0;
		} else {
			exp10++;
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, ndig++) {
			if (sig < 18) {
				mant = mant * 10 + (unsigned)(*s - '0');
				sig += mant > 0;
				exp10--;
			}
		}
	}
	if (!ndig)
		return -1;
	if ((*s == 'e' || *s == 'E') && s[1] && s[1] != 'i') {
		if (!parse_exponent(s + 1, &e))
			return -1;
		scale = pow(10.0, (double)e);
	} else if (!(scale = suffix_scale(s))) {
		return -1;
	}
	v = (double)mant * pow(10.0, (double)exp10) * scale;
	if (!isfinite(v) || v > KQ_MAX) {
		*why = "larger than 2^63-1, the largest Kubernetes quantity";
		return -1;
	}
	*out = sign * v;
	return 0;
}
