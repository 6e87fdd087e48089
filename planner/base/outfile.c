/*
 * outfile.c - a set of output files written all or nothing: temporary
 * files created exclusively (never through a symlink), fsync'ed, then
 * renamed into place together with the interrupt signals blocked.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "interrupt.h"
#include "outfile.h"
#include "banned.h"

/* Attempts at a free temporary name per file before giving up. */
#define OUTFILE_TMP_TRIES 100

void outset_init(struct outset *os, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	os->dir = xstrndup(dir, n);
	os->files = NULL;
	os->n = os->cap = 0;
	os->share = 0;
	os->locked = os->lock_fd = os->created = 0;
	os->dir_slot = -1;
}

void outset_add(struct outset *os, const char *name, char *data, size_t len)
{
	struct outfile *f;

	XGROW(os->files, os->cap, os->n + 1);
	f = &os->files[os->n++];
	f->name = xstrdup(name);
	f->data = data;
	f->len = len;
	f->fp = NULL;
	f->tmp = NULL;
	f->slot = -1;
}

void outset_add_copy(struct outset *os, const char *name, const char *data, size_t len)
{
	char *copy = xmalloc(len + 1);

	if (len)
		memcpy(copy, data, len);
	copy[len] = '\0';
	outset_add(os, name, copy, len);
}

void outset_add_sb(struct outset *os, const char *name, struct sb *sb)
{
	size_t len = sb->len;

	outset_add(os, name, sb_detach(sb), len);
}

/* Closes a streamed file and removes its temporary file (a no-op once renamed). */
static void stream_discard(struct outfile *f)
{
	if (f->fp && f->fp != stdout)
		fclose(f->fp);
	f->fp = NULL;
	if (f->tmp) {
		unlink(f->tmp);
		interrupt_untrack(f->slot);
		free(f->tmp);
		f->tmp = NULL;
	}
	f->slot = -1;
}

/* Releases dir's lock; removes dir when this outset created it and rm (nothing was renamed into it). */
static void outset_unlock(struct outset *os, int rm)
{
	if (os->locked)
		close(os->lock_fd); /* releases the lock */
	interrupt_untrack(os->dir_slot);
	os->dir_slot = -1;
	if (rm && os->created)
		rmdir(os->dir);
	os->locked = os->created = 0;
}

void outset_release(struct outset *os)
{
	size_t i;

	for (i = 0; i < os->n; i++) {
		stream_discard(&os->files[i]);
		free(os->files[i].name);
		free(os->files[i].data);
	}
	outset_unlock(os, 1);
	free(os->files);
	free(os->dir);
	os->dir = NULL;
	os->files = NULL;
	os->n = os->cap = 0;
}

static int name_ok(const char *name)
{
	return name[0] && name[0] != '.' && !strchr(name, '/');
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (w == 0) {
			errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Creates a fresh temporary file for dir/name; *tmp gets its path. */
static int create_tmp(const char *dir, const char *name, char **tmp)
{
	int k, fd;

	for (k = 0; k < OUTFILE_TMP_TRIES; k++) {
		*tmp = k ? xasprintf("%s/.%s.%ld-%d.tmp", dir, name, (long)getpid(), k)
			 : xasprintf("%s/.%s.%ld.tmp", dir, name, (long)getpid());
		fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0)
			return fd;
		free(*tmp);
		*tmp = NULL;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* Writes f into a new temporary file; 0, or -1 with d set. */
static int write_tmp(const struct outset *os, const struct outfile *f, const char *final, char **tmp, int *slot,
		     struct diag *d)
{
	int fd = create_tmp(os->dir, f->name, tmp), e;

	if (fd < 0)
		return diag_set(d, DIAG_IO, final, 0, 0, "cannot create: %s", strerror(errno));
	*slot = interrupt_track(*tmp);
	if (write_all(fd, f->data, f->len) || (fsync(fd) && errno != EINVAL && errno != EROFS)) {
		e = errno;
		close(fd);
		return diag_set(d, DIAG_IO, final, 0, 0, "cannot write: %s", strerror(e));
	}
	if (close(fd))
		return diag_set(d, DIAG_IO, final, 0, 0, "cannot write: %s", strerror(errno));
	return 0;
}

/*
 * Locks dir (flock on the directory itself: no file is created) against
 * another gpuplan committing into it at the same time; the descriptor,
 * or -1 with d set when dir cannot be opened or another run holds it.
 * With wait, it waits for the other run's commit instead (the sweep's
 * workers, which write files of distinct names into one directory).
 */
static int lock_dir(const char *dir, int wait, struct diag *d)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return diag_set(d, DIAG_IO, dir, 0, 0, "cannot open the output directory: %s", strerror(errno)), -1;
	if (flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB)) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			diag_set(d, DIAG_IO, dir, 0, 0, "another run is writing this output directory: nothing written");
		else
			diag_set(d, DIAG_IO, dir, 0, 0, "cannot lock the output directory: %s", strerror(e));
		return -1;
	}
	return fd;
}

static int interrupted(struct diag *d)
{
	int sig = interrupt_pending();

	if (!sig)
		return 0;
	diag_set(d, DIAG_IO, NULL, 0, 0, "interrupted by %s: no reports written", interrupt_signame(sig));
	return 1;
}

/* dir "-": the files' bytes, in order, on standard output. */
static int commit_stdout(const struct outset *os, struct diag *d)
{
	size_t i;

	for (i = 0; i < os->n; i++)	/* a streamed file (no data) was written already */
		if (os->files[i].len && fwrite(os->files[i].data, 1, os->files[i].len, stdout) != os->files[i].len)
			break;
	if (fflush(stdout) || ferror(stdout) || i < os->n)
		return diag_set(d, DIAG_IO, NULL, 0, 0, "cannot write to standard output: %s", strerror(errno));
	return 0;
}

/* Checks file i's name, and that no file before it has the same: 0, or -1 with d set. */
static int check_name(const struct outset *os, size_t i, struct diag *d)
{
	size_t j;

	if (!name_ok(os->files[i].name))
		return diag_set(d, DIAG_IO, os->dir, 0, 0, "invalid output file name '%s'", os->files[i].name);
	for (j = 0; j < i; j++)
		if (!strcmp(os->files[i].name, os->files[j].name))
			return diag_set(d, DIAG_IO, os->dir, 0, 0, "output file '%s' given twice", os->files[i].name);
	return 0;
}

/* Creates dir when it is missing and locks it, once: 0, or -1 with d set. */
static int outset_prepare(struct outset *os, struct diag *d)
{
	struct stat st;
	int fd;

	if (os->locked)
		return 0;
	if (stat(os->dir, &st)) {
		if (errno != ENOENT)
			return diag_set(d, DIAG_IO, os->dir, 0, 0, "cannot access the output directory: %s",
					strerror(errno));
		if (mkdir(os->dir, 0777))
			return diag_set(d, DIAG_IO, os->dir, 0, 0, "cannot create the output directory: %s",
					strerror(errno));
		os->created = 1;
		os->dir_slot = interrupt_track(os->dir);
	} else if (!S_ISDIR(st.st_mode)) {
		return diag_set(d, DIAG_IO, os->dir, 0, 0, "not a directory");
	}
	fd = lock_dir(os->dir, os->share, d);
	if (fd < 0) {
		outset_unlock(os, 1);
		return -1;
	}
	os->lock_fd = fd;
	os->locked = 1;
	return 0;
}

/* DIR/NAME, or NULL with d set when a directory is there. */
static char *final_path(const struct outset *os, const char *name, struct diag *d)
{
	char *final = xasprintf("%s/%s", os->dir, name);
	struct stat st;

	if (!lstat(final, &st) && S_ISDIR(st.st_mode)) {
		diag_set(d, DIAG_IO, final, 0, 0, "is a directory");
		free(final);
		return NULL;
	}
	return final;
}

FILE *outset_stream(struct outset *os, const char *name, struct diag *d)
{
	struct outfile *f;
	char *final;
	int fd;

	outset_add(os, name, NULL, 0);
	f = &os->files[os->n - 1];
	if (!os->dir || !os->dir[0]) {
		diag_set(d, DIAG_IO, NULL, 0, 0, "the output directory name is empty");
		return NULL;
	}
	if (!strcmp(os->dir, OUTSET_STDOUT))
		return f->fp = stdout;
	if (interrupted(d) || check_name(os, os->n - 1, d) || outset_prepare(os, d))
		return NULL;
	final = final_path(os, name, d);
	if (!final)
		return NULL;
	fd = create_tmp(os->dir, name, &f->tmp);
	if (fd >= 0) {
		f->slot = interrupt_track(f->tmp);
		f->fp = fdopen(fd, "w");
		if (!f->fp)
			close(fd);
	}
	if (!f->fp) {
		diag_set(d, DIAG_IO, final, 0, 0, "cannot create: %s", strerror(errno));
		free(final);
		return NULL;
	}
	free(final);
	setvbuf(f->fp, NULL, _IOFBF, 1 << 18);
	return f->fp;
}

/* Flushes, checks, fsyncs and closes streamed file f; 0, or -1 with d set (naming final). */
static int stream_finish(struct outfile *f, const char *final, struct diag *d)
{
	int e = 0;

	errno = 0;
	if (fflush(f->fp) || ferror(f->fp)) {
		e = errno;
		/*
		 * An earlier write failed and stdio dropped its bytes, so this
		 * fflush had none to fail on and the write's errno is gone: one
		 * more byte at the end says why (EFBIG, ENOSPC) rather than a
		 * vague EIO; the file is removed anyway.
		 */
		if (!e)
			e = write(fileno(f->fp), "", 1) < 0 ? errno : EIO;
	} else if (fsync(fileno(f->fp)) && errno != EINVAL && errno != EROFS)
		e = errno;
	if (fclose(f->fp) && !e)
		e = errno;
	f->fp = NULL;
	if (e)
		return diag_set(d, DIAG_IO, final, 0, 0, "cannot write: %s", strerror(e));
	return 0;
}

/* Writes every file not yet written into its temporary file (tmp[i], slot[i]): 0, or -1 with d set. */
static int write_all_tmp(struct outset *os, char **final, char **tmp, int *slot, struct diag *d)
{
	size_t i;

	for (i = 0; i < os->n; i++) {
		struct outfile *f = &os->files[i];
		if (interrupted(d))
			return -1;
		if (f->tmp) {	/* streamed: take its temporary file over */
			tmp[i] = f->tmp;
			slot[i] = f->slot;
			f->tmp = NULL;
			f->slot = -1;
			if (stream_finish(f, final[i], d))
				return -1;
		} else if (write_tmp(os, f, final[i], &tmp[i], &slot[i], d)) {
			return -1;
		}
	}
	return 0;
}

int outset_commit(struct outset *os, struct diag *d)
{
	char **tmp = NULL, **final = NULL;
	int *slot = NULL;
	sigset_t old;
	int rc = -1;
	size_t i, renamed = 0;

	if (interrupted(d))
		goto out;
	if (!os->dir || !os->dir[0])
		return diag_set(d, DIAG_IO, NULL, 0, 0, "the output directory name is empty");
	if (!strcmp(os->dir, OUTSET_STDOUT))
		return commit_stdout(os, d);
	for (i = 0; i < os->n; i++)
		if (check_name(os, i, d))
			goto out;
	if (outset_prepare(os, d))
		goto out;
	tmp = xcalloc(os->n + 1, sizeof(*tmp));
	final = xcalloc(os->n + 1, sizeof(*final));
	slot = xcalloc(os->n + 1, sizeof(*slot));
	for (i = 0; i < os->n; i++) {
		slot[i] = -1;
		final[i] = final_path(os, os->files[i].name, d);
		if (!final[i])
			goto out;
	}
	if (write_all_tmp(os, final, tmp, slot, d))
		goto out;

	interrupt_block(&old);
	if (interrupted(d)) {
		interrupt_unblock(&old);
		goto out;
	}
	for (i = 0; i < os->n; i++) {
		if (rename(tmp[i], final[i])) {
			diag_set(d, DIAG_IO, final[i], 0, 0, "cannot rename into place: %s", strerror(errno));
			break;
		}
		interrupt_untrack(slot[i]);
		slot[i] = -1;
		free(tmp[i]);
		tmp[i] = NULL;
		renamed++;
	}
	interrupt_unblock(&old);
	if (renamed == os->n)
		rc = 0;
out:
	for (i = 0; i < os->n; i++) {
		if (tmp && tmp[i]) {
			unlink(tmp[i]);
			interrupt_untrack(slot[i]);
			free(tmp[i]);
		}
		if (final)
			free(final[i]);
		stream_discard(&os->files[i]);
	}
	outset_unlock(os, rc && !renamed);
	free(tmp);
	free(final);
	free(slot);
	return rc;
}

const char *outstage_open(struct outstage *st, const char *path, struct diag *d)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	const char *name = slash ? slash + 1 : path;
	struct stat sb;
	int fd;

	memset(st, 0, sizeof(*st));
	st->slot = -1;
	if (!name[0] || (!lstat(path, &sb) && !S_ISREG(sb.st_mode) && !S_ISLNK(sb.st_mode))) {
		free(dir);
		diag_set(d, DIAG_IO, path, 0, 0, "not a regular file name");
		return NULL;
	}
	fd = create_tmp(dir, name, &st->tmp);
	free(dir);
	if (fd < 0) {
		diag_set(d, DIAG_IO, path, 0, 0, "cannot create: %s", strerror(errno));
		return NULL;
	}
	close(fd);
	st->slot = interrupt_track(st->tmp);
	st->path = xstrdup(path);
	return st->tmp;
}

int outstage_commit(struct outstage *st, struct diag *d)
{
	sigset_t old;
	int fd, rc = 0;

	if (!st->tmp)
		return 0;
	if (interrupted(d)) {
		outstage_discard(st);
		return -1;
	}
	fd = open(st->tmp, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || (fsync(fd) && errno != EINVAL && errno != EROFS))
		rc = diag_set(d, DIAG_IO, st->path, 0, 0, "cannot write: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	if (rc) {
		outstage_discard(st);
		return -1;
	}
	interrupt_block(&old);
	if (rename(st->tmp, st->path))
		rc = diag_set(d, DIAG_IO, st->path, 0, 0, "cannot rename into place: %s", strerror(errno));
	else {
		interrupt_untrack(st->slot);
		st->slot = -1;
		free(st->tmp);
		st->tmp = NULL;
	}
	interrupt_unblock(&old);
	outstage_discard(st);
	return rc;
}

void outstage_discard(struct outstage *st)
{
	if (st->tmp) {
		unlink(st->tmp);
		interrupt_untrack(st->slot);
		free(st->tmp);
	}
	free(st->path);
	memset(st, 0, sizeof(*st));
	st->slot = -1;
}
