/*
 * check.h - the tiny unit-test harness: CHECK records a failure with the
 * row or context it names and goes on; check_done() prints the closing
 * line "N passed, N failed" and returns the exit status.
 */
#ifndef TESTS_CHECK_H
#define TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_pass, check_fail;

#define CHECK(cond, ...)                                                          \
	do {                                                                      \
		if (cond) {                                                       \
			check_pass++;                                             \
		} else {                                                          \
			check_fail++;                                             \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,    \
				__LINE__, #cond);                                 \
			fprintf(stderr, __VA_ARGS__);                             \
			fputc('\n', stderr);                                      \
		}                                                                 \
	} while (0)

#define CHECK_STR(got, want, ...)                                                 \
	do {                                                                      \
		const char *g_ = (got), *w_ = (want);                             \
		if (g_ && w_ && !strcmp(g_, w_)) {                                \
			check_pass++;                                             \
		} else {                                                          \
			check_fail++;                                             \
			fprintf(stderr, "%s:%d: got '%s', want '%s': ", __FILE__, \
				__LINE__, g_ ? g_ : "(null)", w_ ? w_ : "(null)");   \
			fprintf(stderr, __VA_ARGS__);                             \
			fputc('\n', stderr);                                      \
		}                                                                 \
	} while (0)

static inline int check_done(void)
{
	printf("%d passed, %d failed\n", check_pass, check_fail);
	return check_fail ? 1 : 0;
}

#endif
