/*
 * interrupt.h - SIGINT and SIGTERM: a flag the core may test, and the
 * temporary files to remove when the process has to stop at once.
 *
 * main.c calls interrupt_install() once.  The first SIGINT or SIGTERM
 * only records the signal in interrupt_signal: long-running code (the
 * ILP's callback) tests it and stops early, and outset_commit() refuses
 * to rename anything into place, so an interrupted run writes no report.
 * A second signal, a second or more after the first (timeout(1) sends
 * one to the process and one to its group at once: that counts as one),
 * removes every registered temporary file and ends the process at once
 * with exit code 128 + the signal number (130 for SIGINT, 143 for
 * SIGTERM), the code main() also returns after the first.
 *
 * The registry holds at most INTERRUPT_MAX_TEMPS paths.  Paths are not
 * copied: a registered path must stay valid until interrupt_untrack().
 * Registration blocks the two signals while it changes the table, so the
 * handler never sees a half-written entry.
 */
#ifndef PLANNER_INTERRUPT_H
#define PLANNER_INTERRUPT_H

#include <signal.h>

#define INTERRUPT_MAX_TEMPS 64

/* 0, or the number of the first SIGINT/SIGTERM received. */
extern volatile sig_atomic_t interrupt_signal;

/* Installs the SIGINT and SIGTERM handlers; 0 or -1 (errno set). */
int interrupt_install(void);
/* The signal received so far, or 0. */
int interrupt_pending(void);
/* "SIGINT", "SIGTERM", or "signal N" for others (static storage). */
const char *interrupt_signame(int sig);
/* The exit code for an interrupt by sig: 128 + sig. */
int interrupt_exit_code(int sig);

/*
 * Registers path as a temporary file for the handler to unlink, or as an output directory
 * gpuplan created, which the handler removes when it is empty.  Returns
 * the slot (>= 0), or -1 when the table is full (the file is then simply
 * not removed on a forced exit).
 */
int interrupt_track(const char *path);
/* Forgets a slot from interrupt_track (a negative slot is a no-op). */
void interrupt_untrack(int slot);

/*
 * Blocks SIGINT and SIGTERM until interrupt_unblock (for a sequence that
 * must run whole, like renaming every report into place).  *old keeps the
 * previous mask.
 */
void interrupt_block(sigset_t *old);
void interrupt_unblock(const sigset_t *old);

/*
 * For what cannot be recovered from (out of memory, in gpuplan or in
 * GLPK): removes every registered temporary file, writes msg (one line,
 * with its newline) to stderr and ends the process at once with
 * INTERRUPT_EXIT_FATAL (docs/commands.md, "Exit codes").  Async-signal-safe.
 */
#define INTERRUPT_EXIT_FATAL 6
void interrupt_fatal(const char *msg) __attribute__((noreturn));

/* Only for tests: forget a recorded signal. */
void interrupt_reset(void);

#endif
