/*
 * test_outfile.c - all-or-nothing output sets: creation of the
 * directory, replacement of existing files and symlinks (never followed),
 * refusal of a directory in the way, planted temporary names, an
 * interrupt before the rename, cleanup after every failure, and files
 * streamed (outset_stream) beside files added whole.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "interrupt.h"
#include "outfile.h"
#include "util.h"

static char root[256];

static char *path(const char *rel)
{
	return xasprintf("%s/%s", root, rel);
}

static char *slurp(const char *rel)
{
	char *p = path(rel), *buf = NULL;
	size_t len;

	if (file_read_all(p, 1 << 20, &buf, &len))
		buf = NULL;
	free(p);
	return buf;
}

static void spit(const char *rel, const char *text)
{
	char *p = path(rel);
	FILE *f = fopen(p, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

/* Number of entries in dir (without . and ..), -1 if it cannot be read. */
static int entries(const char *rel)
{
	char *p = path(rel);
	DIR *dir = opendir(p);
	struct dirent *e;
	int n = 0;

	free(p);
	if (!dir)
		return -1;
	while ((e = readdir(dir)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(dir);
	return n;
}

static int commit_two(const char *reldir, struct diag *d)
{
	struct outset os = OUTSET_INIT;
	struct sb sb;
	char *dir = path(reldir);
	int rc;

	outset_init(&os, dir);
	outset_add(&os, "a.csv", xstrdup("alpha\n"), 6);
	sb_init(&sb);
	sb_adds(&sb, "beta\n");
	outset_add_sb(&os, "b.json", &sb);
	CHECK(sb.buf == NULL && sb.len == 0, "outset_add_sb leaves the sb released");
	rc = outset_commit(&os, d);
	outset_release(&os);
	free(dir);
	return rc;
}

static void rmrf(const char *rel)
{
	char *cmd = xasprintf("rm -rf '%s/%s'", root, rel);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", rel);
	free(cmd);
}

int main(void)
{
	struct diag d = DIAG_INIT;
	char *s, *p, *q, *msg;
	struct stat st;
	int rc;

	snprintf(root, sizeof(root), "/tmp/test_outfile.%ld", (long)getpid());
	rmrf("");
	if (mkdir(root, 0777)) {
		perror(root);
		return 1;
	}

	/* 1. a missing directory is created, both files land */
	rc = commit_two("new", &d);
	CHECK(rc == 0, "commit into a missing directory: %s", d.msg ? d.msg : "");
	s = slurp("new/a.csv");
	CHECK_STR(s, "alpha\n", "a.csv");
	free(s);
	s = slurp("new/b.json");
	CHECK_STR(s, "beta\n", "b.json");
	free(s);
	CHECK(entries("new") == 2, "no temporary file left: %d entries", entries("new"));
	diag_release(&d);

	/* 2. existing files are replaced; other files stay */
	spit("new/a.csv", "old\n");
	spit("new/keep.txt", "keep\n");
	rc = commit_two("new", &d);
	CHECK(rc == 0, "commit over existing files");
	s = slurp("new/a.csv");
	CHECK_STR(s, "alpha\n", "a.csv replaced");
	free(s);
	s = slurp("new/keep.txt");
	CHECK_STR(s, "keep\n", "unrelated file kept");
	free(s);
	diag_release(&d);

	/* 3. a symlink at the final name is replaced, its target untouched */
	spit("target.txt", "target\n");
	p = path("target.txt");
	q = path("new/a.csv");
	unlink(q);
	CHECK(symlink(p, q) == 0, "plant symlink");
	rc = commit_two("new", &d);
	CHECK(rc == 0, "commit over a symlink");
	CHECK(lstat(q, &st) == 0 && S_ISREG(st.st_mode), "a.csv is now a regular file");
	s = slurp("target.txt");
	CHECK_STR(s, "target\n", "symlink target not written through");
	free(s);
	free(q);
	diag_release(&d);

	/* 4. symlinks planted at the temporary names are never followed */
	q = xasprintf("%s/new/.a.csv.%ld.tmp", root, (long)getpid());
	CHECK(symlink(p, q) == 0, "plant temp symlink");
	free(q);
	q = xasprintf("%s/new/.b.json.%ld.tmp", root, (long)getpid());
	spit("new/dummy", "");
	CHECK(symlink(p, q) == 0, "plant temp symlink 2");
	free(q);
	rc = commit_two("new", &d);
	CHECK(rc == 0, "commit with planted temp names: %s", d.msg ? d.msg : "");
	s = slurp("target.txt");
	CHECK_STR(s, "target\n", "planted temp symlink not followed");
	free(s);
	s = slurp("new/b.json");
	CHECK_STR(s, "beta\n", "b.json written beside the planted name");
	free(s);
	free(p);
	diag_release(&d);

	/* 5. a directory at a final name: error, nothing changed */
	rmrf("d5");
	p = path("d5");
	mkdir(p, 0777);
	free(p);
	p = path("d5/b.json");
	mkdir(p, 0777);
	free(p);
	spit("d5/a.csv", "old\n");
	rc = commit_two("d5", &d);
	msg = diag_format(&d);
	CHECK(rc == -1 && d.kind == DIAG_IO && strstr(msg, "/d5/b.json: is a directory"), "dir in the way: %s", msg);
	free(msg);
	s = slurp("d5/a.csv");
	CHECK_STR(s, "old\n", "a.csv untouched when the set fails");
	free(s);
	CHECK(entries("d5") == 2, "no temporary left in d5");
	diag_release(&d);

	/* 6. the output path is a file */
	spit("file", "x");
	rc = commit_two("file", &d);
	CHECK(rc == -1 && d.msg && !strcmp(d.msg, "not a directory"), "not a directory");
	diag_release(&d);

	/* 7. the parent is missing: one level only, no directory left */
	rc = commit_two("no/such", &d);
	CHECK(rc == -1 && d.msg && strstr(d.msg, "cannot create the output directory"), "missing parent: %s",
	      d.msg ? d.msg : "");
	diag_release(&d);

	/* 8. an unwritable directory (skipped as root, who can write anyway) */
	if (geteuid() != 0) {
		p = path("ro");
		mkdir(p, 0555);
		rc = commit_two("ro", &d);
		CHECK(rc == -1 && d.msg && strstr(d.msg, "cannot create: Permission denied"), "read-only: %s",
		      d.msg ? d.msg : "");
		CHECK(entries("ro") == 0, "nothing in ro");
		chmod(p, 0777);
		free(p);
		diag_release(&d);
	}

	/* 9. an interrupt before the commit: nothing written, created dir removed */
	interrupt_signal = SIGINT;
	rc = commit_two("int", &d);
	CHECK(rc == -1 && d.msg && !strcmp(d.msg, "interrupted by SIGINT: no reports written"), "interrupt: %s",
	      d.msg ? d.msg : "");
	CHECK(entries("int") == -1, "interrupted commit created no directory");
	interrupt_reset();
	diag_release(&d);

	/* 10. bad names are refused */
	{
		struct outset os = OUTSET_INIT;
		char *dir = path("new");
		outset_init(&os, dir);
		outset_add_copy(&os, "../escape", "x", 1);
		rc = outset_commit(&os, &d);
		CHECK(rc == -1 && d.msg && strstr(d.msg, "invalid output file name"), "bad name");
		outset_release(&os);
		diag_release(&d);
		outset_init(&os, dir);
		outset_add_copy(&os, "x", "x", 1);
		outset_add_copy(&os, "x", "y", 1);
		rc = outset_commit(&os, &d);
		CHECK(rc == -1 && d.msg && strstr(d.msg, "given twice"), "duplicate name");
		outset_release(&os);
		diag_release(&d);
		free(dir);
	}

	/* 11. /dev/full as a file name inside a directory is not reachable; /dev/full as a dir */
	{
		struct outset os = OUTSET_INIT;
		outset_init(&os, "/dev/full/");
		CHECK_STR(os.dir, "/dev/full", "trailing slash removed");
		outset_add_copy(&os, "a", "x", 1);
		rc = outset_commit(&os, &d);
		CHECK(rc == -1 && d.msg && !strcmp(d.msg, "not a directory"), "/dev/full: %s", d.msg ? d.msg : "");
		outset_release(&os);
		diag_release(&d);
	}

	/* 12. a streamed file lands with the others, all or nothing */
	{
		struct outset os = OUTSET_INIT;
		char *dir = path("st");
		FILE *f;
		pid_t pid;
		int i, status = 0;

		outset_init(&os, dir);
		f = outset_stream(&os, "big.csv", &d);
		CHECK(f != NULL, "stream opened: %s", d.msg ? d.msg : "");
		CHECK(entries("st") == 1, "the stream's temporary file is in the created directory");
		for (i = 0; f && i < 3; i++)
			fprintf(f, "row %d\n", i);
		outset_add_copy(&os, "small.csv", "s\n", 2);
		rc = outset_commit(&os, &d);
		CHECK(rc == 0, "commit with a stream: %s", d.msg ? d.msg : "");
		outset_release(&os);
		s = slurp("st/big.csv");
		CHECK_STR(s, "row 0\nrow 1\nrow 2\n", "streamed file's bytes");
		free(s);
		CHECK(entries("st") == 2, "no temporary file left: %d entries", entries("st"));
		diag_release(&d);

		/* released without a commit (the caller failed): the old file stays, nothing else */
		outset_init(&os, dir);
		f = outset_stream(&os, "big.csv", &d);
		CHECK(f && fputs("new\n", f) >= 0, "second stream");
		outset_release(&os);
		s = slurp("st/big.csv");
		CHECK_STR(s, "row 0\nrow 1\nrow 2\n", "uncommitted stream leaves the old file");
		free(s);
		CHECK(entries("st") == 2, "uncommitted stream's temporary file removed");

		/* an interrupt after streaming: nothing renamed */
		outset_init(&os, dir);
		f = outset_stream(&os, "big.csv", &d);
		interrupt_signal = SIGINT;
		rc = outset_commit(&os, &d);
		CHECK(rc == -1 && d.msg && strstr(d.msg, "interrupted by SIGINT"), "interrupted stream");
		interrupt_reset();
		outset_release(&os);
		CHECK(entries("st") == 2, "interrupted stream's temporary file removed");
		diag_release(&d);
		free(dir);

		/* a directory created for a stream alone is removed when nothing is committed */
		dir = path("st2");
		outset_init(&os, dir);
		f = outset_stream(&os, "big.csv", &d);
		CHECK(f != NULL && entries("st2") == 1, "stream into a new directory");
		outset_release(&os);
		CHECK(entries("st2") == -1, "the created directory is removed again");
		free(dir);

		/* a second stream of the same name is refused */
		dir = path("st");
		outset_init(&os, dir);
		CHECK(outset_stream(&os, "big.csv", &d) != NULL, "first");
		CHECK(outset_stream(&os, "big.csv", &d) == NULL && d.msg && strstr(d.msg, "given twice"), "twice");
		outset_release(&os);
		diag_release(&d);
		free(dir);

		/* a forced exit (a second signal, or interrupt_fatal, which removes the same
		 * registry) while a stream is open leaves neither the temporary file nor the
		 * directory it created (test_failure_signals.sh: "out-twice exists" under load) */
		dir = path("forced");
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			outset_init(&os, dir);
			f = outset_stream(&os, "big.csv", &d);
			if (!f || entries("forced") != 1)
				_exit(2);
			fputs("partial\n", f);
			fflush(f);
			interrupt_fatal("");
		}
		CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			      WEXITSTATUS(status) == INTERRUPT_EXIT_FATAL,
		      "forced exit of the child: status %d", status);
		CHECK(entries("forced") == -1, "the directory the stream created is gone after a forced exit");
		free(dir);
	}

	rmrf("");
	return check_done();
}
