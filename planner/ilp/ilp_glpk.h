/*
 * ilp_glpk.h - thin wrappers of GLPK calls the ILP's parts
 * share (ilp_glpk.c): the terminal hook per thread, the time left as
 * GLPK's tm_lim, one simplex solve, fixing a column, setting one
 * coefficient.
 */
#ifndef PLANNER_ILP_GLPK_H
#define PLANNER_ILP_GLPK_H

#include <glpk.h>

/*
 * GLPK keeps one environment per thread (it is built reentrant, with
 * thread-local storage): a job on a par_run thread sets that thread's
 * terminal hook first (output to stderr when verbose, else none), and
 * the thread frees its environment last (ilp_glpk_thread_end, par_run's
 * thread_end).
 */
void ilp_glpk_thread_hook(int verbose);
void ilp_glpk_thread_end(void);

/*
 * A new problem that other threads may copy (glp_copy_prob) while this
 * thread owns it.  GLPK 5.0 creates a problem's factorisation data on the
 * first glp_get_bfcp, which glp_copy_prob calls on its source, in the
 * calling thread's memory: made by a worker, that thread's
 * glp_free_env freed it under the owner, whose glp_delete_prob then read
 * freed memory (a plan whose root LP was never solved on the problem
 * itself).  Created here, it lives in the owner's memory.
 */
glp_prob *ilp_glpk_shared_prob(void);

/*
 * GLPK's errors on this thread (ilp_glpk_error.c): ilp_glpk_error_guard
 * sets the error hook (one line, exit 6: "GLPK ran out of memory (...)")
 * and, for tests, GLPK's memory limit from GPUPLAN_TEST_GLPK_MEM_MIB (MiB;
 * glp_mem_limit); the terminal hooks pass every GLPK line to
 * ilp_glpk_note so the error line can quote it.
 */
void ilp_glpk_error_guard(void);
void ilp_glpk_note(const char *s);
/* GLPK's latest line on this thread, as ilp_glpk_note kept it ("" before any). */
const char *ilp_glpk_last_note(void);

/* GLPK's tm_lim (ms) for what is left until deadline; 0 when nothing is left. */
int ilp_ms_left(double deadline);

/* How a simplex solve ended. */
enum lp_end { LP_OPTIMAL, LP_TIME, LP_FAILED };

/*
 * Solves the LP of P with the simplex (presolve: GLPK's, and a fresh
 * basis; else from P's basis), until deadline or an interrupt; *code:
 * glp_simplex's return (untouched when there was no time to call it).
 */
enum lp_end ilp_simplex(glp_prob *P, int presolve, int verbose, double deadline, int *code);

/* Fixes column col of Q at v. */
void ilp_fix_col(glp_prob *Q, int col, double v);
/* 1 when every integer column of Q's LP solution is integral (within 1e-6). */
int ilp_all_integral(glp_prob *Q);
/* Sets the coefficient of column col in row `row` of Q. */
void ilp_set_coef(glp_prob *Q, int row, int col, double v);

#endif
