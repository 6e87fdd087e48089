/*
 * ilp_glpk_error.c - what ends a run when GLPK fails: GLPK reports an
 * error (its memory exhausted, or over glp_mem_limit, or an internal
 * check failed) by printing it through the terminal hook and then calling
 * the error hook, which must not return (GLPK would abort: exit 134, no
 * message).  The terminal hooks keep GLPK's last lines per thread
 * (ilp_glpk_note); the error hook prints one line saying what GLPK ran
 * out of or reported, removes the temporary output files and exits 6,
 * the out-of-memory exit of gpuplan's own allocations (interrupt_fatal).
 * GLPK's environment is not usable after an error (its manual, section
 * "glp_error_hook"), so there is nothing to go back to with longjmp.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "util.h"
#include "ilp_glpk.h"
#include "banned.h"

static _Thread_local char last[256]; /* GLPK's latest output on this thread, newline-free */

void ilp_glpk_note(const char *s)
{
	size_t n = strlen(s), i;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		n--;
	if (!n || !strncmp(s, "Error detected in file", 22))
		return; /* keep the message, not GLPK's source position that follows it */
	if (n >= sizeof(last))
		n = sizeof(last) - 1;
	for (i = 0; i < n; i++)
		last[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : ' ';
	last[n] = '\0';
}

const char *ilp_glpk_last_note(void)
{
	return last;
}

static void error_hook(void *info)
{
	char msg[400];

	(void)info;
	if (strstr(last, "memory"))
		snprintf(msg, sizeof(msg), "gpuplan: GLPK ran out of memory (%s): nothing written\n", last);
	else
		snprintf(msg, sizeof(msg), "gpuplan: the solver (GLPK) stopped: %s: nothing written\n",
			 last[0] ? last : "an internal error");
	interrupt_fatal(msg);
}

void ilp_glpk_error_guard(void)
{
	const char *mib = getenv("GPUPLAN_TEST_GLPK_MEM_MIB");

	last[0] = '\0';
	glp_error_hook(error_hook, NULL);
	if (mib && *mib) {
		long v = strtol(mib, NULL, 10);
		if (v > 0 && v < 1L << 30)
			glp_mem_limit((int)v);
	}
}
