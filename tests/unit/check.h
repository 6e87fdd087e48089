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

/*
 * Parts: a slow test program given a part's name as its argument runs only
 * that part, so that ctest runs its parts side by side (tests/CMakeLists.txt
 * names them); with no argument it runs them all.  CHECK_PART(name) says
 * whether to run part `name`; check_done() fails when the named part
 * matched none (a misspelt part must not pass by testing nothing).
 */
static const char *check_part;
static int check_part_hits;

static inline int check_part_run(const char *name)
{
	if (check_part && strcmp(check_part, name) != 0)
		return 0;
	check_part_hits++;
	return 1;
}
#define CHECK_PART(name) check_part_run(name)

static inline int check_done(void)
{
	if (check_part && !check_part_hits) {
		fprintf(stderr, "no part named '%s'\n", check_part);
		check_fail++;
	}
	printf("%d passed, %d failed\n", check_pass, check_fail);
	return check_fail ? 1 : 0;
}

#endif
