/*
 * replay.c - runs a libFuzzer harness without libFuzzer, so the harnesses
 * also build with gcc: ctest replays the seed corpus and every crash ever
 * found, then feeds the harness a fixed number of mutations of those
 * files (no coverage feedback, no clock: the same inputs on any machine).
 *
 *   replay [-m N [-x]] [-s SEED] [-k K [-w FILE]] PATH...
 *
 * PATH: a file, or a directory (every regular file in it, in name order;
 * a missing one is skipped).  -m N: after the replay, N mutated inputs;
 * input K (0-based) is file K % files, changed by 1 to 8 stacked edits
 * drawn from a generator seeded with SEED and K alone (default seed 1),
 * so any one input is made again without the others; -x: the mutations
 * only, not the files themselves (ctest's fuzz/NAME replays them).  -k K: run only
 * mutated input K (-w FILE: write it to FILE instead).  When an input
 * kills the process (a harness abort, ASan, UBSan), the driver prints
 * which one and the command that writes it out, for tests/fuzz/crashes/.
 */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

#define MAX_LEN 65536	/* as tests/fuzz/run.sh's -max_len */

struct input {
	char *name;
	char *buf;
	size_t len;
};

static struct input *inputs;
static size_t ninputs, inputs_cap;
static unsigned long long seed = 1;
static long current = -1;	/* the mutated input running, or -1 */

/* splitmix64: a small generator whose whole state is one number. */
static unsigned long long next(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static size_t below(unsigned long long *s, size_t n)
{
	return n ? (size_t)(next(s) % n) : 0;
}

/* On death (a signal, or ASan's and UBSan's death callback): which input it was. */
static void died(void)
{
	char b[1024];
	int n;

	if (current < 0)
		return;
	n = snprintf(b, sizeof(b), "replay: died on mutated input %ld (a mutation of %s, seed %llu); write it out "
		     "with: replay -s %llu -k %ld -w FILE, and the same paths\n", current,
		     inputs[(size_t)current % ninputs].name, seed, seed, current);
	if (n > 0 && write(2, b, (size_t)n) < 0)
		return;
}

static void on_signal(int sig)
{
	died();
	signal(sig, SIG_DFL);
	raise(sig);
}

extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static int add_file(const char *path)
{
	struct input in;

	if (file_read_all(path, (size_t)64 << 20, &in.buf, &in.len)) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		return 1;
	}
	in.name = xstrdup(path);
	XGROW(inputs, inputs_cap, ninputs + 1);
	inputs[ninputs++] = in;
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or a directory's files in name order; 0, or 1 on an unreadable one. */
static int add_path(const char *path)
{
	struct stat st;
	DIR *dir;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, k;
	int bad = 0;

	if (stat(path, &st))
		return 0; /* a missing crashes/ directory is fine */
	if (!S_ISDIR(st.st_mode))
		return add_file(path);
	if (!(dir = opendir(path)))
		return 1;
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		XGROW(names, cap, n + 1);
		names[n++] = xasprintf("%s/%s", path, e->d_name);
	}
	closedir(dir);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (k = 0; k < n; k++) {
		bad |= add_file(names[k]);
		free(names[k]);
	}
	free(names);
	return bad;
}

/* What the readers choke on: separators, quotes, line ends, signs, bytes out of ASCII. */
static const char bytes[] = { 0, '\n', '\r', '\t', ' ', ',', ';', '"', '\'', ':', '-', '+', '=', '@', '{', '}', '[',
			      ']', '#', '&', '*', '|', '\\', '/', '.', '0', '1', '9', 'e', 'x', (char)0x7f, (char)0x80,
			      (char)0xc3, (char)0xff };
/* What a number may become. */
static const char *const numbers[] = { "0", "-1", "-0", "1.5", "0.0000001", "1e308", "1e999", "-1e999", "nan", "inf",
				       "65", "4096", "4294967296", "9223372036854775807", "9223372036854775808",
				       "99999999999999999999999", "0x10", "1,5", "" };

struct buf {
	char *p;
	size_t len;	/* at most MAX_LEN */
};

/* Replaces p[at, at+n) by the m bytes of s (cut at MAX_LEN). */
static void splice_in(struct buf *b, size_t at, size_t n, const char *s, size_t m)
{
	if (b->len - n + m > MAX_LEN)
		m = MAX_LEN - (b->len - n);
	memmove(b->p + at + m, b->p + at + n, b->len - at - n);
	memcpy(b->p + at, s, m);
	b->len = b->len - n + m;
}

/* The digit run around or after at: [*s, *e); 0 when there is none. */
static int number_at(const struct buf *b, size_t at, size_t *s, size_t *e)
{
	while (at < b->len && (b->p[at] < '0' || b->p[at] > '9'))
		at++;
	if (at >= b->len)
		return 0;
	for (*s = at; *s > 0 && ((b->p[*s - 1] >= '0' && b->p[*s - 1] <= '9') || b->p[*s - 1] == '.'); (*s)--)
		;
	for (*e = at; *e < b->len && ((b->p[*e] >= '0' && b->p[*e] <= '9') || b->p[*e] == '.'); (*e)++)
		;
	return 1;
}

/* One edit of b, drawn from r; other: another input's bytes, for splicing. */
static void mutate_once(struct buf *b, unsigned long long *r, const struct input *other)
{
	size_t at = below(r, b->len + 1), n = 1 + below(r, 16), s, e;
	char tmp[16];

	if (n > b->len - at)
		n = b->len - at;
	switch (below(r, 10)) {
	case 0: /* flip a bit */
		if (at < b->len)
			b->p[at] ^= (char)(1 << below(r, 8));
		break;
	case 1: /* a byte the readers choke on, over one */
		if (at < b->len)
			b->p[at] = bytes[below(r, sizeof(bytes))];
		break;
	case 2: /* ... or inserted */
		tmp[0] = bytes[below(r, sizeof(bytes))];
		splice_in(b, at, 0, tmp, 1);
		break;
	case 3: /* delete a run */
		splice_in(b, at, n, "", 0);
		break;
	case 4: /* copy a run elsewhere */
		if (n && b->len + n <= MAX_LEN) {
			memcpy(tmp, b->p + at, n);
			splice_in(b, below(r, b->len + 1), 0, tmp, n);
		}
		break;
	case 5: /* a number becomes another */
		if (number_at(b, at, &s, &e)) {
			const char *v = numbers[below(r, sizeof(numbers) / sizeof(numbers[0]))];
			splice_in(b, s, e - s, v, strlen(v));
		}
		break;
	case 6: /* a run repeated many times: long names, long lines, deep nesting */
		if (n) {
			size_t times = 1 + below(r, 600);
			memcpy(tmp, b->p + at, n);
			while (times-- && b->len + n <= MAX_LEN)
				splice_in(b, at, 0, tmp, n);
		}
		break;
	case 7: /* cut short */
		b->len = at;
		break;
	case 8: /* this input's head, another's tail */
		s = below(r, other->len + 1);
		splice_in(b, at, b->len - at, other->buf + s, other->len - s);
		break;
	default: /* a line (up to a newline) doubled or dropped */
		for (s = at; s > 0 && b->p[s - 1] != '\n'; s--)
			;
		for (e = at; e < b->len && b->p[e] != '\n'; e++)
			;
		e += e < b->len;
		if (below(r, 2) || e - s > MAX_LEN - b->len) {
			splice_in(b, s, e - s, "", 0);
		} else {
			char *line = xstrndup(b->p + s, e - s);
			splice_in(b, e, 0, line, e - s);
			free(line);
		}
		break;
	}
}

/* Mutated input k into b (b->p holds MAX_LEN bytes). */
static void make_input(long k, struct buf *b)
{
	unsigned long long r = seed * 0x2545F4914F6CDD1DULL + (unsigned long long)k, edits;
	const struct input *in = &inputs[(size_t)k % ninputs];

	next(&r);
	b->len = in->len < MAX_LEN ? in->len : MAX_LEN;
	memcpy(b->p, in->buf, b->len);
	for (edits = 1 + (next(&r) % 8); edits--;)
		mutate_once(b, &r, &inputs[below(&r, ninputs)]);
}

static int usage(void)
{
	fprintf(stderr, "usage: replay [-m N [-x]] [-s SEED] [-k K [-w FILE]] PATH...\n");
	return 2;
}

int main(int argc, char **argv)
{
	long mutations = 0, only = -1, k;
	const char *write_to = NULL;
	struct buf b;
	int i, bad = 0, opt, replay = 1;
	size_t j;

	while ((opt = getopt(argc, argv, "m:s:k:w:x")) != -1) {
		if (opt == 'x')
			replay = 0;
		else if (opt == 'm')
			mutations = atol(optarg);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 10);
		else if (opt == 'k')
			only = atol(optarg);
		else if (opt == 'w')
			write_to = optarg;
		else
			return usage();
	}
	for (i = optind; i < argc; i++)
		bad |= add_path(argv[i]);
	if (bad || (only >= 0 && !ninputs))
		return bad ? bad : usage();
	signal(SIGABRT, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(died);
	b.p = xmalloc(MAX_LEN);
	if (only >= 0) {
		FILE *f;
		make_input(only, &b);
		if (!write_to) {
			current = only;
			LLVMFuzzerTestOneInput((const uint8_t *)b.p, b.len);
		} else if (!(f = fopen(write_to, "wb")) || fwrite(b.p, 1, b.len, f) != b.len || fclose(f)) {
			fprintf(stderr, "replay: cannot write %s\n", write_to);
			bad = 1;
		}
	} else {
		for (j = 0; replay && j < ninputs; j++)
			LLVMFuzzerTestOneInput((const uint8_t *)inputs[j].buf, inputs[j].len);
		for (k = 0; ninputs && k < mutations; k++) {
			current = k;
			make_input(k, &b);
			LLVMFuzzerTestOneInput((const uint8_t *)b.p, b.len);
		}
		current = -1;
		printf("%s %zu inputs, then %ld mutations of them (seed %llu)\n", replay ? "replayed" : "read", ninputs,
		       ninputs ? mutations : 0, seed);
	}
	for (j = 0; j < ninputs; j++) {
		free(inputs[j].name);
		free(inputs[j].buf);
	}
	free(inputs);
	free(b.p);
	return bad;
}
