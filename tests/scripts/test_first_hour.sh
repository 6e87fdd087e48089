#!/bin/bash
# test_first_hour.sh - the first-hour stumbles of issue #56 item 6 (and
# #57's whole-run --time-limit as compare and the help texts say it),
# each as a new user meets it.  Cheap: small scenarios, greedy plans or
# node-limited ones.
#
# usage: bash test_first_hour.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

# --time-limit bounds the whole run, and the help says so
"$exe" plan --help >plan.help || bad "plan --help exited $?"
! grep -q 'solver time limit' plan.help && ok || bad "plan --help still calls --time-limit a solver time limit"
grep -q -- '--time-limit S *bound the whole run' plan.help && ok || bad "plan --help: $(grep time-limit plan.help)"

# compare under --time-limit warns as plan does when reading used the limit up (deterministic:
# 1 microsecond is always past once a scenario is read); node-limited scenarios never warn
"$exe" bench gen --size S -o bs >/dev/null || bad "bench gen --size S exited $?"
"$exe" compare bs/scenario.yaml bs/scenario.yaml --greedy --time-limit 0.000001 -o cmp >cmp.out 2>cmp.err \
	&& ok || bad "compare --time-limit exited $?: $(cat cmp.err)"
[ "$(grep -c '^gpuplan: warning: reading the inputs took [0-9.]* s, all of --time-limit 0.000001 s' cmp.err)" = 1 ] \
	&& ok || bad "compare --time-limit 0.000001: not one reading warning: $(cat cmp.err)"
"$exe" compare "$scenario" "$scenario" --greedy --time-limit 0.000001 -o cmp-nl >cmp-nl.out 2>cmp-nl.err \
	&& ok || bad "compare of node-limited scenarios exited $?"
! grep -q 'warning: reading' cmp-nl.err && ok || bad "a node-limited compare warned: $(cat cmp-nl.err)"
finish
