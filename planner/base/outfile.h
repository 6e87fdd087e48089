/*
 * outfile.h - a set of output files written all or nothing.
 *
 * A command collects the contents of every file it will write, then
 * commits them together:
 *
 *	struct outset os = OUTSET_INIT;
 *	outset_init(&os, dir);
 *	outset_add(&os, "summary.csv", buf, len);	(takes buf)
 *	outset_add_sb(&os, "nodes.csv", &sb);		(takes sb's buffer)
 *	if (outset_commit(&os, &d)) ...		(d says what went wrong)
 *	outset_release(&os);
 *
 * outset_commit creates dir when it is missing (one level, mode 0777 less
 * the umask), writes each file to a temporary name in dir,
 * ".NAME.PID.tmp", created with O_EXCL|O_NOFOLLOW so that nothing planted
 * at that name (a file, a symlink) is ever followed or overwritten (the
 * next name ".NAME.PID-N.tmp" is tried instead), flushes it with fsync,
 * and only when every file was written renames them all into place with
 * SIGINT/SIGTERM blocked.  rename() replaces an existing file at DIR/NAME
 * and a symlink there is replaced itself, never followed; a directory at
 * DIR/NAME is an error found before anything is written.  On any failure
 * the temporary files are removed, a directory it created is removed
 * again, and no file in dir has changed.  The temporary paths are
 * registered with interrupt_track(), so a forced exit on a second signal
 * removes them too.  After a first SIGINT/SIGTERM (interrupt_pending())
 * outset_commit writes nothing and fails.
 *
 * Errors are DIAG_IO (exit 5), naming the final path, never the
 * temporary one: "out/summary.csv: cannot write: No space left on device".
 *
 * dir OUTSET_STDOUT ("-") is standard output: outset_commit writes the
 * files' bytes there in the order added and flushes it (the caller adds
 * one file); an error is "cannot write to standard output: ...".
 *
 * Ownership: the outset owns dir's copy, every name and every buffer
 * given to outset_add; outset_release frees them (also after a commit).
 */
#ifndef PLANNER_OUTFILE_H
#define PLANNER_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "util.h"

struct outfile {
	char *name;	/* file name in the directory: no '/', not starting with '.' */
	char *data;	/* contents (owned) */
	size_t len;	/* bytes in data */
	FILE *fp;	/* a streamed file (outset_stream): its open temporary file; NULL: data */
	char *tmp;	/* a streamed file's temporary path, NULL once renamed or removed */
	int slot;	/* its interrupt_track slot, -1: none */
};

struct outset {
	char *dir;		/* output directory, trailing '/' removed */
	struct outfile *files;	/* in the order added (and renamed) */
	size_t n, cap;
	int share;		/* 1: wait for the directory lock instead of failing (writers of distinct files) */
	int locked;		/* 1: dir is created and locked (lock_fd), by outset_stream or outset_commit */
	int lock_fd;		/* the lock's descriptor, when locked */
	int created;		/* 1: this outset created dir (removed again when nothing is renamed into it) */
	int dir_slot;		/* the created dir's interrupt_track slot (a forced exit removes it when empty), -1: none */
};
#define OUTSET_INIT { NULL, NULL, 0, 0, 0, 0, 0, 0, -1 }
#define OUTSET_STDOUT "-"	/* dir for standard output */

/* Starts an empty set of files for dir. */
void outset_init(struct outset *os, const char *dir);
/* Adds a file; takes data (malloc'd, may be NULL when len is 0). */
void outset_add(struct outset *os, const char *name, char *data, size_t len);
/* Adds a file with a copy of data. */
void outset_add_copy(struct outset *os, const char *name, const char *data, size_t len);
/* Adds a file with sb's contents, leaving sb released (as sb_detach). */
void outset_add_sb(struct outset *os, const char *name, struct sb *sb);
/*
 * Adds a file written as it is made, for contents too large to hold: the
 * stream to write it to, or NULL with d set (DIAG_IO).  The first stream
 * creates and locks dir as outset_commit would; the file's bytes go to a
 * fresh temporary file at once (created as outset_commit creates them),
 * which outset_commit flushes, checks (a write error is reported there),
 * fsyncs and renames with the others, all or nothing; outset_release
 * removes it when it was not committed.  The caller writes with stdio and
 * never closes the stream.  For OUTSET_STDOUT the stream is stdout itself:
 * its bytes go out as they are written, before the files added whole.
 */
FILE *outset_stream(struct outset *os, const char *name, struct diag *d);
/*
 * Writes every file into dir, all or nothing (see above).  0, or -1 with
 * d set.  May be called once per outset.
 */
int outset_commit(struct outset *os, struct diag *d);
/*
 * Frees everything, removing streamed files not committed (and dir when
 * this outset created it and renamed nothing into it); the outset may be
 * outset_init'ed again.
 */
void outset_release(struct outset *os);

/*
 * One file written by a library that wants a path of its own (GLPK's
 * model writers), all or nothing like an outset's files:
 *
 *	struct outstage st;
 *	const char *tmp = outstage_open(&st, "model.mps", &d);
 *	(the library writes tmp; on its error: outstage_discard(&st))
 *	... later, once the whole run succeeded:
 *	if (outstage_commit(&st, &d)) ...
 *
 * outstage_open creates a fresh temporary file next to path (as an
 * outset does: ".NAME.PID.tmp", exclusive, never through a symlink,
 * registered with interrupt_track so that a forced exit removes it) and
 * returns its path, or NULL with d set (DIAG_IO; also when path names a
 * directory or a device).  outstage_commit fsyncs it and renames it into
 * place with SIGINT/SIGTERM blocked; after a first signal it renames
 * nothing and fails ("interrupted by ...").  outstage_discard removes the
 * temporary file (a no-op after a commit or on a zeroed stage).  Errors
 * name path, never the temporary one.
 */
struct outstage {
	char *path;		/* the final path (owned) */
	char *tmp;		/* the temporary file, NULL once committed or discarded */
	int slot;		/* its interrupt_track slot, -1: none */
};
const char *outstage_open(struct outstage *st, const char *path, struct diag *d);
/* 0, or -1 with d set (the temporary file removed either way). */
int outstage_commit(struct outstage *st, struct diag *d);
void outstage_discard(struct outstage *st);

#endif
