/*
 * fuzz_files.h - for harnesses of readers that take paths: the input is
 * split at NUL bytes into up to FUZZ_MAX_PARTS files of a private
 * temporary folder (missing parts are empty), and the bundled models
 * (models/gpus.yaml) are loaded once.
 */
#ifndef TESTS_FUZZ_FILES_H
#define TESTS_FUZZ_FILES_H

#include <stdio.h>
#include <unistd.h>

#include "fuzz.h"
#include "models.h"

#ifndef FUZZ_MODELS_DIR
#define FUZZ_MODELS_DIR "models"
#endif
#define FUZZ_MAX_PARTS 4

static char fuzz_dir[64];
static char *fuzz_paths[FUZZ_MAX_PARTS + 1];	/* the parts, then a spare for what a harness writes */

static void fuzz_cleanup(void)
{
	int i;
	for (i = 0; i <= FUZZ_MAX_PARTS; i++) {
		if (fuzz_paths[i]) {
			unlink(fuzz_paths[i]);
			free(fuzz_paths[i]);
		}
	}
	rmdir(fuzz_dir);
}

static inline void fuzz_put(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(p, 1, n, f) != n)
		abort();
	if (fclose(f))
		abort();
}

/* Writes the first nparts NUL-separated parts of data; names are the files' names (for messages). */
static inline void fuzz_split(const uint8_t *data, size_t size, const char *const *names, int nparts)
{
	size_t pos = 0;
	int i;

	if (!fuzz_dir[0]) {
		snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/gpuplan-fuzz-XXXXXX");
		if (!mkdtemp(fuzz_dir))
			abort();
		for (i = 0; i < nparts; i++)
			fuzz_paths[i] = xasprintf("%s/%s", fuzz_dir, names[i]);
		fuzz_paths[FUZZ_MAX_PARTS] = xasprintf("%s/written", fuzz_dir);
		atexit(fuzz_cleanup);
	}
	for (i = 0; i < nparts; i++) {
		const uint8_t *end = pos < size ? memchr(data + pos, 0, size - pos) : NULL;
		size_t n = pos < size ? (end ? (size_t)(end - (data + pos)) : size - pos) : 0;
		fuzz_put(fuzz_paths[i], data + pos, n);
		pos += n + 1;
	}
}

/* The bundled GPU catalog, loaded on first use (kept to the end: not a leak). */
static inline const struct catalog *fuzz_catalog(void)
{
	static struct catalog cat = CATALOG_INIT;
	static int loaded;
	struct diag d = DIAG_INIT;

	if (!loaded) {
		if (catalog_load(&cat, FUZZ_MODELS_DIR "/gpus.yaml", 0, &d))
			abort();
		loaded = 1;
	}
	return &cat;
}

#endif
