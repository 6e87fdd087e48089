/*
 * sweep_expand_dir.c - gpuplan sweep expand's directory (sweep_expand.h):
 * the cases' files staged beside DIR/cases and swapped in at the end,
 * so that a failed or interrupted expand leaves the old cases in place.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interrupt.h"
#include "outfile.h"
#include "sweep_expand.h"
#include "sweep_files.h"
#include "util.h"
#include "banned.h"

/* Removes path and, when it is a directory, everything under it (a staging tree of ours). */
static void remove_tree(const char *path)
{
	struct stat st;
	DIR *dp;
	struct dirent *e;

	if (lstat(path, &st))
		return;
	if (S_ISDIR(st.st_mode) && (dp = opendir(path))) {
		while ((e = readdir(dp))) {
			char *sub;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			sub = xasprintf("%s/%s", path, e->d_name);
			remove_tree(sub);
			free(sub);
		}
		closedir(dp);
		rmdir(path);
		return;
	}
	unlink(path);
}

/* Puts the staged cases in place of DIR/cases (an older one moved aside, then removed); 0, or -1 with d set. */
static int swap_in(const char *stage, const char *cases, const char *dir, struct diag *d)
{
	char *old = xasprintf("%s/.cases.%ld.old", dir, (long)getpid());
	int had = !rename(cases, old), rc = 0;

	if (!had && errno != ENOENT)
		rc = diag_set(d, DIAG_IO, cases, 0, 0, "cannot replace: %s", strerror(errno));
	else if (rename(stage, cases)) {
		rc = diag_set(d, DIAG_IO, cases, 0, 0, "cannot rename into place: %s", strerror(errno));
		if (had)
			rename(old, cases);
	} else if (had) {
		remove_tree(old);
	}
	free(old);
	return rc;
}

/* d naming the file a staged one stands for (DIR/cases/..., never the staging path). */
static void staged_diag(struct diag *d, const char *stage, const char *cases)
{
	size_t n = strlen(stage);

	if (d->file && !strncmp(d->file, stage, n) && (d->file[n] == '/' || !d->file[n])) {
		char *f = xasprintf("%s%s", cases, d->file + n);
		free(d->file);
		d->file = f;
	}
}

/* expand.csv: a row per case, its parameters' values (empty: each option's own). */
static void expand_csv(const struct sweep_spec *s, struct sb *csv)
{
	size_t n = sweep_ncases(s), i, k;
	double *v = xcalloc(s->nparams + 1, sizeof(*v));
	char b[64];

	sb_init(csv);
	sb_adds(csv, "case");
	for (k = 0; k < s->nparams; k++)
		sb_addf(csv, ",%s", sweep_param_name(s->params[k].id));
	sb_adds(csv, "\n");
	for (i = 0; i < n; i++) {
		char *name = sweep_case_name(s, i);
		sweep_case_values(s, i, v);
		sb_add_csv(csv, name);
		for (k = 0; k < s->nparams; k++)
			sb_addf(csv, ",%s", v[k] != v[k] ? "" : fmt_num_short(b, sizeof(b), v[k], 6));
		sb_adds(csv, "\n");
		free(name);
	}
	free(v);
}

/* Writes every case into stage (DIR/.cases.PID.tmp, at the depth of DIR/cases); 0, SWEEP_INTERRUPTED or -1. */
static int stage_cases(const struct sweep_spec *s, const char *stage, const char *cases, const char *models_dir,
		       struct diag *d)
{
	struct outset os = OUTSET_INIT;
	size_t i, n = sweep_ncases(s);
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		char *name = sweep_case_name(s, i), *dir = xasprintf("%s/%s", stage, name);
		outset_init(&os, dir);
		if (interrupt_pending())
			rc = SWEEP_INTERRUPTED;
		else if (sweep_expand_case(&os, s, i, stage, models_dir, d) || outset_commit(&os, d))
			rc = -1;
		outset_release(&os);
		free(name);
		free(dir);
	}
	if (rc == -1)
		staged_diag(d, stage, cases);
	return rc;
}

int sweep_expand(const struct sweep_spec *s, const char *dir, const char *models_dir, struct diag *d)
{
	char *cases = xasprintf("%s/cases", dir), *stage = xasprintf("%s/.cases.%ld.tmp", dir, (long)getpid());
	struct outset os = OUTSET_INIT;
	struct sb csv;
	int made = !mkdir(dir, 0777), rc = 0;

	expand_csv(s, &csv);
	if (!made && errno != EEXIST)
		rc = diag_set(d, DIAG_IO, dir, 0, 0, "cannot create: %s", strerror(errno));
	else if (mkdir(stage, 0777))
		rc = diag_set(d, DIAG_IO, stage, 0, 0, "cannot create: %s", strerror(errno));
	if (!rc)
		rc = stage_cases(s, stage, cases, models_dir, d);
	outset_init(&os, dir);
	outset_add_sb(&os, "expand.csv", &csv);
	if (!rc && outset_commit(&os, d))
		rc = -1;
	if (!rc)
		rc = swap_in(stage, cases, dir, d);
	if (rc) {
		remove_tree(stage);
		if (made)
			rmdir(dir);
	}
	outset_release(&os);
	free(stage);
	free(cases);
	return rc;
}
