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

# gpuplan's own options after the command, as before it
"$exe" plan bs/scenario.yaml --greedy -o v-after --verbose >v-after.out 2>v-after.err && ok || bad "plan ... --verbose exited $?: $(cat v-after.err)"
grep -q '^gpuplan: class .* config 0: ' v-after.err && ok || bad "--verbose after the command: not verbose: $(head -2 v-after.err)"
"$exe" plan bs/scenario.yaml -v --greedy -o v-short >/dev/null 2>v-short.err && grep -q ' config 0: ' v-short.err \
	&& ok || bad "-v after the command: $(head -2 v-short.err)"
"$exe" profiles --models=nowhere >/dev/null 2>m.err; rc=$?
[ $rc -eq 3 ] && grep -q 'nowhere/gpus.yaml' m.err && ok || bad "profiles --models=nowhere: exit $rc: $(cat m.err)"
"$exe" plan bs/scenario.yaml --version >/dev/null 2>ver.err; rc=$?
[ $rc -eq 2 ] && ok || bad "--version after a command is not gpuplan's option there: exit $rc"

# one default output folder per command: plan, compare and simulate never write into one another's
mkdir -p dflt && cd dflt || exit 1
"$exe" plan ../bs/scenario.yaml --greedy >/dev/null 2>&1 || bad "plan without -o exited $?"
"$exe" compare ../bs/scenario.yaml --greedy >/dev/null 2>&1 || bad "compare without -o exited $?"
"$exe" simulate ../bs/scenario.yaml --generate flat:hours=2 >/dev/null 2>sim.err || bad "simulate without -o exited $?: $(cat sim.err)"
[ -f gpuplan-out/plan.json ] && ok || bad "plan: no gpuplan-out/plan.json"
[ -f gpuplan-compare/compare.json ] && ok || bad "compare: no gpuplan-compare/compare.json"
ls gpuplan-simulate/*.json >/dev/null 2>&1 && ok || bad "simulate: nothing in gpuplan-simulate/"
[ ! -e gpuplan-out/compare.json ] && ! ls gpuplan-out/simulat* >/dev/null 2>&1 && ok || bad "another command wrote into plan's gpuplan-out: $(ls gpuplan-out)"
cd .. || exit 1

# suggestions: the family and the memory before names a few edits away (GH200-96GB, alias H100-96GB)
"$exe" profiles H100-80GB >/dev/null 2>sug.err; rc=$?
[ $rc -eq 3 ] && grep -q "unknown GPU type 'H100-80GB' (did you mean 'H100-PCIE-80GB' or 'H100-SXM5-80GB'?)" sug.err \
	&& ok || bad "profiles H100-80GB: exit $rc: $(cat sug.err)"

# one unit for the gap: percent, as --gap PCT, in the scenario's solver.gap_pct too (what bench gen
# writes; tests/unit/test_scenario.c checks the reading); the older mip_gap, a fraction, still reads
# as one; both at once is refused
grep -q '^solver: {time_limit_s: 10, gap_pct: 0.01}$' bs/scenario.yaml && ok || bad "bench gen: $(grep solver: bs/scenario.yaml)"
sed 's/gap_pct: 0.01/mip_gap: 0.0001/' bs/scenario.yaml >bs/gap-frac.yaml
sed 's/gap_pct: 0.01/gap_pct: 1, mip_gap: 0.01/' bs/scenario.yaml >bs/gap-both.yaml
"$exe" validate bs/gap-frac.yaml >/dev/null 2>frac.err && ok || bad "mip_gap: 0.0001 refused: $(cat frac.err)"
"$exe" validate bs/gap-both.yaml >/dev/null 2>both.err; rc=$?
[ $rc -eq 3 ] && grep -q "gap-both.yaml:8:[0-9]*: field 'mip_gap': give gap_pct (percent) or mip_gap (a fraction), not both" both.err \
	&& ok || bad "gap_pct and mip_gap both: exit $rc: $(cat both.err)"
finish
