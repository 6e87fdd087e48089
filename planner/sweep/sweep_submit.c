/*
 * sweep_submit.c - a sweep handed to a scheduler (sweep_submit.h,
 * docs/sweep.md): a Slurm array script, the mpirun line, or a Kubernetes
 * Indexed Job with its inputs as a ConfigMap (the manifest itself:
 * sweep_k8s.c).
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "outfile.h"
#include "sweep_files.h"
#include "sweep_submit.h"
#include "banned.h"

extern char **environ;

/* path made absolute (joined to the working directory), for a job that may start elsewhere. */
static char *absolute(const char *path)
{
	char cwd[4096];
	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

/* A word for sh, in single quotes unless it is plain. */
static void sh_word(struct sb *sb, const char *w)
{
	const char *p;
	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,") == strlen(w)) {
		sb_adds(sb, w);
		return;
	}
	sb_adds(sb, "'");
	for (p = w; *p; p++)
		sb_adds(sb, *p == '\'' ? "'\\''" : (char[]){ *p, 0 });
	sb_adds(sb, "'");
}

/* "GPUPLAN [--models M] sweep run SPEC -o DIR", absolute paths, quoted for sh. */
static void run_line(struct sb *sb, const struct sweep_submit *sub, const char *dir)
{
	char exe[4096], *spec = absolute(sub->spec);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	sh_word(sb, exe);
	if (sub->models_dir) {
		char *m = absolute(sub->models_dir);
		sb_adds(sb, " --models ");
		sh_word(sb, m);
		free(m);
	}
	sb_adds(sb, " sweep run ");
	sh_word(sb, spec);
	sb_adds(sb, " -o ");
	sh_word(sb, dir);
	free(spec);
}

int sweep_sbatch(const char *script)
{
	char *argv[] = { xstrdup("sbatch"), xstrdup("--parsable"), xstrdup(script), NULL };
	pid_t pid;
	int st = 0, err, i;

	err = posix_spawnp(&pid, "sbatch", NULL, NULL, argv, environ);
	for (i = 0; argv[i]; i++)
		free(argv[i]);
	if (err)
		return 127;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* True when an executable named name is on PATH. */
static int on_path(const char *name)
{
	const char *path = getenv("PATH");
	int found = 0;
	while (path && *path && !found) {
		size_t n = strcspn(path, ":");
		char *f = xasprintf("%.*s/%s", (int)n, path, name);
		found = access(f, X_OK) == 0;
		free(f);
		path += n + (path[n] == ':');
	}
	return found;
}

int sweep_sbatch_found(void)
{
	return on_path("sbatch");
}

int sweep_k8s_write(const struct sweep_submit *sub, const struct sweep_k8s *k, struct diag *d)
{
	const struct sweep_spec *s = sub->s;
	struct outset os = OUTSET_INIT;
	struct sb sb;
	char *text;
	size_t len;
	int rc = 0;

	if (sweep_k8s_manifest(s, k, sub->models_dir, &text, &len, d))
		return -1;
	sb_init(&sb);	/* a comment for the reader, then the YAML as libyaml's emitter wrote it */
	sb_addf(&sb, "# gpuplan sweep %s: %zu cases in %ld pods of a Kubernetes Indexed Job, %ld at a time\n"
		"# (written by gpuplan sweep submit --k8s; docs/sweep.md).  The ConfigMap holds the inputs;\n"
		"# the results go to the ReadWriteMany claim %s.  kubectl apply -f this file; when the Job\n"
		"# is complete, gpuplan sweep merge SPEC -o DIR where the claim is mounted as DIR.\n",
		s->name, sweep_ncases(s), k->shards, k->parallelism, k->claim);
	sb_addn(&sb, text, len);
	free(text);
	outset_init(&os, sub->dir);
	outset_add_sb(&os, "sweep-k8s.yaml", &sb);
	if (outset_commit(&os, d))
		rc = -1;
	outset_release(&os);
	return rc;
}

char *sweep_mpi_line(const struct sweep_submit *sub, struct diag *d)
{
	struct sb sb;
	char *dir;

	if (sweep_make_dir(sub->dir, NULL, d))	/* the ranks' folder, made now */
		return NULL;
	dir = absolute(sub->dir);
	sb_init(&sb);
	sb_addf(&sb, "mpirun -n %ld ", sub->shards);
	run_line(&sb, sub, dir);
	free(dir);
	return sb_detach(&sb);
}

int sweep_slurm_write(const struct sweep_submit *sub, char **script, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	struct sb sb;
	char *dir;
	int rc = 0;

	*script = NULL;
	dir = absolute(sub->dir);	/* the folder is made with the script, all or nothing */
	sb_init(&sb);
	sb_addf(&sb, "#!/bin/sh\n# gpuplan sweep %s: %zu cases in %ld array tasks (docs/sweep.md)\n", sub->s->name,
		sweep_ncases(sub->s), sub->shards);
	sb_addf(&sb, "#SBATCH --job-name=gpuplan-sweep\n#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n", sub->shards - 1);
	sb_adds(&sb, "#SBATCH --output=");
	sh_word(&sb, dir);
	sb_adds(&sb, "/slurm-%A_%a.out\nexec ");
	run_line(&sb, sub, dir);
	sb_adds(&sb, "\n");
	outset_init(&os, sub->dir);
	outset_add_sb(&os, "sweep.sbatch", &sb);
	if (outset_commit(&os, d))
		rc = -1;
	else
		*script = xasprintf("%s/sweep.sbatch", dir);
	outset_release(&os);
	free(dir);
	return rc;
}
