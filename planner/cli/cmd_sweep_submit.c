/*
 * cmd_sweep_submit.c - gpuplan sweep submit: a sweep handed to a
 * scheduler (docs/sweep.md): a Slurm array script (submitted when sbatch
 * is on PATH), the mpirun line, or a Kubernetes Indexed Job with its
 * inputs as a ConfigMap.  gpuplan links neither Slurm nor MPI: the shard
 * contract is the environment and a shared directory.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "outfile.h"
#include "sweep_files.h"
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
static void run_line(struct sb *sb, const struct sweep_args *a, const char *dir, const struct cli_global *g)
{
	char exe[4096], *spec = absolute(a->spec);
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	exe[n > 0 ? n : 0] = '\0';
	sh_word(sb, exe);
	if (g->models_dir) {
		char *m = absolute(g->models_dir);
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

/* Runs sbatch --parsable on script; its exit code (127: cannot start). */
static int sbatch(const char *script)
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

/* --k8s: DIR/sweep-k8s.yaml, the ConfigMap of the inputs and the Indexed Job. */
static int submit_k8s(const struct sweep_args *a, const struct sweep_spec *s, long k, const struct cli_global *g)
{
	struct sweep_k8s kj = { k, a->parallelism ? a->parallelism : k < 4 ? k : 4,
				a->image ? a->image : "gpuplan:latest", a->claim ? a->claim : "gpuplan-sweep-out" };
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	struct sb sb;
	char *text;
	size_t len;
	int rc = EXIT_OK;

	if (kj.parallelism > k)
		return cli_usage("--parallelism %ld: more than the %ld shards", kj.parallelism, k);
	if (sweep_k8s_manifest(s, &kj, g->models_dir, &text, &len, &d))
		return cli_diag(&d);
	sb_init(&sb);	/* a comment for the reader, then the YAML as libyaml's emitter wrote it */
	sb_addf(&sb, "# gpuplan sweep %s: %zu cases in %ld pods of a Kubernetes Indexed Job, %ld at a time\n"
		"# (written by gpuplan sweep submit --k8s; docs/sweep.md).  The ConfigMap holds the inputs;\n"
		"# the results go to the ReadWriteMany claim %s.  kubectl apply -f this file; when the Job\n"
		"# is complete, gpuplan sweep merge SPEC -o DIR where the claim is mounted as DIR.\n",
		s->name, sweep_ncases(s), k, kj.parallelism, kj.claim);
	sb_addn(&sb, text, len);
	free(text);
	outset_init(&os, a->dir);
	outset_add_sb(&os, "sweep-k8s.yaml", &sb);
	if (outset_commit(&os, &d))
		rc = cli_diag(&d);
	else
		printf("written: %s/sweep-k8s.yaml: %zu cases in %ld pods, %ld at a time (kubectl apply -f it)\n",
		       a->dir, sweep_ncases(s), k, kj.parallelism);
	outset_release(&os);
	diag_release(&d);
	return rc;
}

int sweep_submit(const struct sweep_args *a, const struct sweep_spec *s, const struct cli_global *g)
{
	long k = a->shards_only > 0 ? a->shards_only : 8;
	struct outset os = OUTSET_INIT;
	struct diag d = DIAG_INIT;
	struct sb sb;
	char *dir, *script;
	int rc = 0;

	if (a->k8s)
		return submit_k8s(a, s, k, g);
	dir = absolute(a->dir);
	sb_init(&sb);
	if (a->mpi) {	/* the ranks' folder, made now; --slurm's is made with its script, all or nothing */
		if (sweep_make_dir(a->dir, NULL)) {
			sb_release(&sb);
			free(dir);
			return EXIT_INTERNAL;
		}
		sb_addf(&sb, "mpirun -n %ld ", k);
		run_line(&sb, a, dir, g);
		printf("%s\n", sb.buf);
		sb_release(&sb);
		free(dir);
		return EXIT_OK;
	}
	sb_addf(&sb, "#!/bin/sh\n# gpuplan sweep %s: %zu cases in %ld array tasks (docs/sweep.md)\n", s->name,
		sweep_ncases(s), k);
	sb_addf(&sb, "#SBATCH --job-name=gpuplan-sweep\n#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n", k - 1);
	sb_adds(&sb, "#SBATCH --output=");
	sh_word(&sb, dir);
	sb_adds(&sb, "/slurm-%A_%a.out\nexec ");
	run_line(&sb, a, dir, g);
	sb_adds(&sb, "\n");
	outset_init(&os, a->dir);
	outset_add_sb(&os, "sweep.sbatch", &sb);
	if (outset_commit(&os, &d))
		rc = cli_diag(&d);
	outset_release(&os);
	diag_release(&d);
	script = xasprintf("%s/sweep.sbatch", dir);
	if (!rc && on_path("sbatch")) {
		printf("written: %s; sbatch job: ", script);
		fflush(stdout);
		rc = sbatch(script) ? cli_error(EXIT_INTERNAL, "sbatch %s failed", script) : EXIT_OK;
	} else if (!rc) {
		printf("written: %s (no sbatch on PATH: submit it with sbatch %s)\n", script, script);
	}
	free(script);
	free(dir);
	return rc;
}

