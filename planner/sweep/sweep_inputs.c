/*
 * sweep_inputs.c - a scenario written again with other names for the
 * files it reads (the sweep's ConfigMap and derived scenarios), and
 * unique file names.
 */
#define _XOPEN_SOURCE 700	/* realpath (POSIX.1-2008 XSI) */
#include <stdlib.h>
#include <string.h>

#include "sweep_inputs.h"
#include "ydoc.h"
#include "banned.h"

char *sweep_real_path(const char *path)
{
	return realpath(path, NULL);
}

char *sweep_unique_name(const char *base, char *const *used, size_t n)
{
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base), i;
	char *name = xstrdup(base);
	int k;

	for (k = 2;; k++) {
		for (i = 0; i < n && strcmp(used[i], name); i++)
			;
		if (i == n)
			return name;
		free(name);
		name = xasprintf("%.*s-%d%s", (int)stem, base, k, base + stem);
	}
}

/* The names of files[0..n) by namer, into a new array. */
static char **names_of(char *const *files, size_t n, sweep_namer namer, void *ctx)
{
	char **out = xcalloc(n + 1, sizeof(*out));
	size_t i;
	for (i = 0; i < n; i++)
		out[i] = namer(ctx, files[i]);
	return out;
}

static void free_names(char **names, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int sweep_scenario_yaml(const struct scenario *sc, const struct sweep_rewrite *rw, char **text, size_t *len,
			struct diag *d)
{
	struct ydoc doc = YDOC_INIT;
	struct dyaml_edit *e = xcalloc(rw->nextra + 6, sizeof(*e));
	char **gpu = names_of(sc->gpu_files, sc->ngpu_files, rw->namer, rw->ctx);
	char **off = names_of(sc->offer_files, sc->noffer_files, rw->namer, rw->ctx);
	char *inv = rw->namer(rw->ctx, sc->inventory_path), *wl = rw->namer(rw->ctx, sc->workloads_path);
	char *models = NULL;
	int want_models = rw->want_models;
	struct dyaml y;
	size_t n = 0;
	int rc = -1;

	if (ydoc_load(&doc, sc->file, d))
		goto out;
	if (want_models || ymap_get(doc.root, "models"))
		models = rw->namer(rw->ctx, sc->models_dir);
	e[n].path = "models";
	e[n].text = models;
	e[n++].del = !models || !(want_models || ymap_get(doc.root, "models"));
	e[n].path = "inventory";
	e[n++].text = inv;
	e[n].path = "workloads";
	e[n++].text = wl;
	if (sc->ngpu_files) {
		e[n].path = "gpu_types";
		e[n].list = (const char *const *)gpu;
		e[n++].nlist = sc->ngpu_files;
	}
	if (sc->noffer_files) {
		e[n].path = "cloud_offers";
		e[n].list = (const char *const *)off;
		e[n++].nlist = sc->noffer_files;
	}
	if (rw->nextra)	/* extra may be NULL then: memcpy's arguments must be valid even for 0 bytes */
		memcpy(e + n, rw->extra, rw->nextra * sizeof(*e));
	dyaml_begin(&y);
	dyaml_tree(&y, doc.root, e, n + rw->nextra);
	rc = dyaml_finish(&y, text, len);
	if (rc)
		diag_set(d, DIAG_IO, sc->file, 0, 0, "cannot write the scenario again (libyaml's emitter failed)");
out:
	ydoc_release(&doc);
	free_names(gpu, sc->ngpu_files);
	free_names(off, sc->noffer_files);
	free(inv);
	free(wl);
	free(models);
	free(e);
	return rc;
}
