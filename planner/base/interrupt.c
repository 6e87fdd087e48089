/*
 * interrupt.c - SIGINT/SIGTERM flag and the temporary-file registry.
 *
 * The handler does only async-signal-safe things: it stores into a
 * volatile sig_atomic_t, reads CLOCK_MONOTONIC, and on a second signal
 * calls unlink(), rmdir(), write() and _exit().  The registry is a fixed table of pointers changed
 * only with the two signals blocked; it holds temporary files and the output directories gpuplan
 * created (removed when empty).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "interrupt.h"
#include "banned.h"

volatile sig_atomic_t interrupt_signal;

static const char *volatile temps[INTERRUPT_MAX_TEMPS];

static void put(const char *s)
{
	size_t n = strlen(s);
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* Removes every registered path: the files first, then the directories they were in (rmdir
 * fails, harmlessly, on a file already unlinked or a directory that is not empty). */
static void remove_registered(void)
{
	int i;

	for (i = 0; i < INTERRUPT_MAX_TEMPS; i++)
		if (temps[i])
			unlink(temps[i]);
	for (i = 0; i < INTERRUPT_MAX_TEMPS; i++)
		if (temps[i])
			rmdir(temps[i]);
}

static struct timespec first_at;	/* when the first signal came */

/* True when now is less than a second after the first signal. */
static int same_burst(void)
{
	struct timespec now;

	if (clock_gettime(CLOCK_MONOTONIC, &now))
		return 0;
	return now.tv_sec - first_at.tv_sec < 1 ||
	       (now.tv_sec - first_at.tv_sec == 1 && now.tv_nsec < first_at.tv_nsec);
}

static void handler(int sig)
{
	int e = errno;

	if (!interrupt_signal) {
		interrupt_signal = sig;
		clock_gettime(CLOCK_MONOTONIC, &first_at);
		errno = e;
		return;
	}
	/* timeout(1) signals the process and then its group: one request */
	if (same_burst()) {
		errno = e;
		return;
	}
	remove_registered();
	put(sig == SIGINT ? "gpuplan: interrupted by SIGINT again, stopping now; no reports written\n"
			  : "gpuplan: interrupted by SIGTERM again, stopping now; no reports written\n");
	_exit(128 + sig);
}

int interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sa.sa_flags = 0;
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -1;
	return 0;
}

int interrupt_pending(void)
{
	return (int)interrupt_signal;
}

const char *interrupt_signame(int sig)
{
	static char buf[32];

	if (sig == SIGINT)
		return "SIGINT";
	if (sig == SIGTERM)
		return "SIGTERM";
	snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

int interrupt_exit_code(int sig)
{
	return 128 + sig;
}

void interrupt_block(sigset_t *old)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigprocmask(SIG_BLOCK, &s, old);
}

void interrupt_unblock(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

int interrupt_track(const char *path)
{
	sigset_t old;
	int i, slot = -1;

	interrupt_block(&old);
	for (i = 0; i < INTERRUPT_MAX_TEMPS; i++)
		if (!temps[i]) {
			temps[i] = path;
			slot = i;
			break;
		}
	interrupt_unblock(&old);
	return slot;
}

void interrupt_untrack(int slot)
{
	sigset_t old;

	if (slot < 0 || slot >= INTERRUPT_MAX_TEMPS)
		return;
	interrupt_block(&old);
	temps[slot] = NULL;
	interrupt_unblock(&old);
}

void interrupt_reset(void)
{
	interrupt_signal = 0;
}

void interrupt_fatal(const char *msg)
{
	remove_registered();
	put(msg);
	_exit(INTERRUPT_EXIT_FATAL);
}
