/*
 * replay.c - runs a libFuzzer harness over files and directories without
 * libFuzzer, so the harnesses also build with gcc and ctest replays the
 * seed corpus and every crash ever found.  Usage: replay PATH...
 * (a directory means every regular file in it, in name order).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0;

	if (file_read_all(path, (size_t)64 << 20, &buf, &len)) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	int i, bad = 0;
	long files = 0;

	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st)) {
			continue; /* a missing crashes/ directory is fine */
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *dir = opendir(argv[i]);
			struct dirent *e;
			char **names = NULL;
			size_t n = 0, cap = 0, k;
			if (!dir)
				return 1;
			while ((e = readdir(dir))) {
				if (e->d_name[0] == '.')
					continue;
				XGROW(names, cap, n + 1);
				names[n++] = xasprintf("%s/%s", argv[i], e->d_name);
			}
			closedir(dir);
			if (n)
				qsort(names, n, sizeof(*names), cmp);
			for (k = 0; k < n; k++) {
				bad |= run_file(names[k]);
				files++;
				free(names[k]);
			}
			free(names);
		} else {
			bad |= run_file(argv[i]);
			files++;
		}
	}
	printf("replayed %ld inputs\n", files);
	return bad;
}
