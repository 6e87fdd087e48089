#!/bin/bash
# test_time_limit_run.sh - --time-limit bounds the whole run (issue #57 item 6):
# reading, the model, the greedy pass, the solver, the what-if and the reports.
#
# No wall-clock target a loaded machine could miss: the run's own account is
# read instead.  --progress ends with "written, T s of L s", T counted from
# the program's start; T must stay within L + max(1 s, 10 %) plus a slack of
# 20 s for a loaded CI machine (the bound catches a limit that covers only the
# solver again: bench L's reports and model alone are not what is checked,
# its search is, which would run on for the whole limit after them).
# A limit that reading alone uses up must be said (a warning), deterministically:
# 1 microsecond is always past by the time the inputs are read.
#
# usage: bash test_time_limit_run.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

"$exe" bench gen --size L -o benchL >/dev/null || bad "bench gen --size L exited $?"
limit=4
"$exe" plan benchL/scenario.yaml -o outL --time-limit $limit --progress >L.out 2>L.err && ok || bad "plan exited $?: $(tail -2 L.err)"
t=$(sed -n -E "s/^gpuplan: [^:]*: written, ([0-9]+\.[0-9]) s of $limit s\$/\1/p" L.err)
if [ -n "$t" ]; then
	awk -v t="$t" -v l=$limit 'BEGIN { exit !(t <= l + (l * 0.1 > 1 ? l * 0.1 : 1) + 20) }' && ok \
		|| bad "--time-limit $limit: the run took $t s by its own account"
else
	bad "no 'written, T s of $limit s' line: $(tail -3 L.err)"
fi
[ -s outL/plan.json ] && ok || bad "--time-limit $limit: no plan.json"

# reading alone used the limit up: a warning, and still a plan (the greedy pass's, cut at once;
# bench L: data/example's node limit would replace the time limit)
"$exe" plan benchL/scenario.yaml -o tiny --time-limit 0.000001 >tiny.out 2>tiny.err && ok || bad "--time-limit 0.000001 exited $?"
grep -q '^gpuplan: warning: reading the inputs took [0-9.]* s, all of --time-limit 0.000001 s' tiny.err && ok \
	|| bad "no warning that reading used the limit up: $(cat tiny.err)"
grep -q '^plan bench-L-s1: time-limit' tiny.out && ok || bad "--time-limit 0.000001: $(head -2 tiny.out)"
# a node limit (data/example's) replaces the time limit: no such warning
"$exe" plan "$scenario" -o nl --time-limit 0.000001 >nl.out 2>nl.err && ok || bad "a node-limited plan exited $?"
! grep -q 'warning: reading' nl.err && ok || bad "a node-limited run warned about the time limit: $(cat nl.err)"
finish
