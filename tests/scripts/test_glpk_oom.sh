#!/bin/bash
# test_glpk_oom.sh - GLPK running out of memory ends the run as gpuplan's
# own allocations do: exit 6, one line saying GLPK ran out, nothing written
# (no report, no exported model, no temporary file).
#
# usage: bash test_glpk_oom.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# GPUPLAN_TEST_GLPK_MEM_MIB (a test hook, docs/testing.md) sets GLPK's
# memory limit (glp_mem_limit); 1 MiB is too little for the example's
# model, so GLPK's allocation fails and calls its error hook.  The plan
# with the default limit (none) still works.  Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
want='gpuplan: GLPK ran out of memory (glp_alloc: memory allocation limit exceeded): nothing written'

GPUPLAN_TEST_GLPK_MEM_MIB=1 "$exe" plan "$scenario" -o out --export-model model.lp >stdout.txt 2>err.txt
rc=$?
[ "$rc" -eq 6 ] && ok || bad "exit $rc, want 6"
[ "$(cat err.txt)" = "$want" ] && ok || bad "stderr: $(cat err.txt)"
[ -z "$(ls -A | grep -v -x -e stdout.txt -e err.txt)" ] && ok || bad "left behind: $(ls -A)"

"$exe" plan "$scenario" -o out >stdout.txt 2>err.txt && [ -f out/plan.json ] && ok || bad "plain plan: $(cat err.txt)"
finish
