#!/bin/bash
# test_bench_parse.sh - bench/run.sh reads its runs right: bench/lib/parse.sh on fake
# outputs of /usr/bin/time, gpuplan (summary.csv), CBC 2.10 and bench/lib/highs.js,
# and the table rows it prints from them; bench/seeds.sh's rows and per-size summary
# from fake objectives, its argument checks, and one run of it on S seed 4 (1 s a plan;
# only the form of its output is checked, nothing that depends on the clock, the plan
# set against S4's best known); bench/best-known.csv's format and the functions that
# read it (a row that fits, one whose instance or models changed, none; a new best known)
# and fingerprint the models (a comment or a blank line does not move the fingerprint,
# a price does).
#
# usage: bash test_bench_parse.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# The CBC logs are cut from real CBC 2.10.8 logs (a time limit with a plan, one
# without, an optimum, where CBC prints no bound).  When cbc is on PATH, and when
# HiGHS is installed in SRC_DIR/build/npm (bench/run.sh installs it), each also
# solves a two-variable MIP whose optimum is 8 and the parsers must read that;
# else those checks print SKIP.  bench/run.sh -h prints its usage, an unknown
# option exits 2.  Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
# shellcheck source=bench/lib/parse.sh
. "$src/bench/lib/parse.sh"

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# /usr/bin/time -f "%e %M": a failing command adds a line before the figures
printf 'Command exited with non-zero status 124\n12.50 40960\n' >time-a
expect "time after a failure" "$(bench_time time-a)" "12.50 40960"
: >time-b
expect "empty time file" "$(bench_time time-b)" "- -"
expect "missing time file" "$(bench_time time-none)" "- -"

cat >sum-a.csv <<'EOF'
metric,value
status,feasible
objective,3822941.92
lower_bound,3400365.63
lp_bound,1687799.69
gap,0.110538
greedy_objective,193197387.82
EOF
expect "gpuplan summary" "$(bench_gpuplan sum-a.csv)" "feasible 3822941.92 3400365.63 0.110538 1687799.69"
grep -v lower_bound sum-a.csv >sum-b.csv
expect "gpuplan summary without lower_bound" "$(bench_gpuplan sum-b.csv)" \
	"feasible 3822941.92 1687799.69 0.110538 1687799.69"

cat >cbc-a.log <<'EOF'
Continuous objective value is 1.6878e+06 - 0.01 seconds
Cbc0020I Exiting on maximum time
Cbc0005I Partial search - best objective 4.3780665e+07 (best possible 2871782.4), took 4825 iterations and 0 nodes (10.05 seconds)

Result - Stopped on time limit

Objective value:                43780665.27079999
Lower bound:                    2871782.365
Gap:                            14.25
Enumerated nodes:               0
Total iterations:               4825
Time (CPU seconds):             1.24
Time (Wallclock seconds):       10.28
EOF
expect "cbc time limit" "$(bench_cbc cbc-a.log)" "time-limit 43780665.27079999 2871782.365 0.934405 -"
cat >cbc-b.log <<'EOF'
Result - Stopped on time limit

No feasible solution found
Lower bound:                    19095361.780
Enumerated nodes:               0
EOF
expect "cbc no plan" "$(bench_cbc cbc-b.log)" "no-plan - 19095361.780 - -"
cat >cbc-c.log <<'EOF'
Result - Optimal solution found (within gap tolerance)

Objective value:                3729501.00000000
Enumerated nodes:               1234
EOF
expect "cbc optimal" "$(bench_cbc cbc-c.log)" "optimal 3729501.00000000 3729501.00000000 0.000000 -"
: >cbc-d.log
expect "cbc killed before its result" "$(bench_cbc cbc-d.log)" "no-result - - - -"

echo "highs: status timeLimit objective 171076612455.6824 bound 3141349.844750987 gap 0.99998 time 10.01" >highs-a.log
expect "highs time limit" "$(bench_highs highs-a.log)" "time-limit 171076612455.6824 3141349.844750987 0.99998 -"
echo "highs: status timeLimit objective none bound 3141349.8 gap none time 10.01" >highs-b.log
expect "highs no plan" "$(bench_highs highs-b.log)" "no-plan - 3141349.8 - -"
echo "highs: status optimal objective 8 bound 8 gap 0 time 0.25" >highs-c.log
expect "highs optimal" "$(bench_highs highs-c.log)" "optimal 8 8 0 -"
echo "highs: out of memory" >highs-d.log
expect "highs failed" "$(bench_highs highs-d.log)" "no-result - - - -"

expect "gpuplan row" "$(bench_row S gpuplan 10 10.16 8028 "feasible 3822941.92 3400365.63 0.110538 1687799.69" -)" \
	"| S | gpuplan | 10 s | 10.16 s | +0.16 s | 8 MiB | feasible | 3822941.92 | 3400365.63 | 11.054% | 1687799.69 |  |  |  |"
expect "solver row" "$(bench_row S CBC 100 99.50 87040 "time-limit 43780665.27 2871782.365 0.934405 -" 3822941.92)" \
	"| S | CBC | 100 s | 99.50 s | -0.50 s | 85 MiB | time-limit | 43780665.27 | 2871782.37 | 93.441% |  | 11.4521 | 11.4521 |  |"
expect "solver row made concrete" \
	"$(bench_row M HiGHS 100 100.34 345088 "time-limit 14652108.14 14436840.77 0.014693 - 20733156.00" 18150519.34 15110505.14)" \
	"| M | HiGHS | 100 s | 100.34 s | +0.34 s | 337 MiB | time-limit | 14652108.14 | 14436840.77 | 1.469% |  | 0.8073 | 1.1423 | 1.3721 |"
echo "gpuplan-ilp: start h.sol (HiGHS, 'Optimal', objective 604890.93): objective 604890.93 unplaced 0; made concrete 689491.62 unplaced 0" >start-a.log
expect "start made concrete" "$(bench_start start-a.log)" "689491.62"
echo "gpuplan: h.sol:9: no column 'x' in the model" >start-b.log
expect "start refused" "$(bench_start start-b.log)" "-"
# the start line's unplaced replicas per priority (a build since prio42), none in an older one's
echo "gpuplan-ilp: start h.sol (HiGHS, 'Optimal', objective 9.5): objective 9.50 unplaced 3; made concrete 10.00 unplaced 3 by priority 20:1+1:2" >start-c.log
expect "start made concrete, with priorities" "$(bench_start start-c.log)" "10.00"
expect "start's unplaced per priority" "$(bench_start_prio start-c.log)" "20:1+1:2"
expect "start's unplaced per priority, an older build's line" "$(bench_start_prio start-a.log)" "-"
expect "start's unplaced per priority, refused" "$(bench_start_prio start-b.log)" "-"
expect "start's unplaced per priority, no log" "$(bench_start_prio start-none.log)" "-"
# a plan's unplaced per priority from its unplaced.csv and the instance's workloads.csv
printf '# a comment\nname,tenant,replicas,priority\na,t,5,3\nb,t,9,\nc,t,4,20\nd,t,2,3\n' >wl-p.csv
printf 'workload,tenant,replicas,reason\na,t,2,"no room, none"\nb,t,9,x\nd,t,1,x\n' >un-p.csv
expect "unplaced per priority" "$(bench_unplaced_prio un-p.csv wl-p.csv)" "3:3+1:9"
printf 'workload,tenant,replicas,reason\n' >un-none.csv
expect "unplaced per priority, none" "$(bench_unplaced_prio un-none.csv wl-p.csv)" "none"
expect "unplaced per priority, no unplaced.csv" "$(bench_unplaced_prio un-missing.csv wl-p.csv)" "-"
# the priority rule: the highest priority where they differ decides; "?" when one is not known
expect "rule: fewer at the lowest" "$(bench_prio_cmp 20:11+10:70+1:64 20:11+10:70+1:77)" "-1 1"
expect "rule: more at a higher, fewer in all" "$(bench_prio_cmp 20:12+1:1 20:11+10:70+1:77)" "1 20"
expect "rule: none against some" "$(bench_prio_cmp none 5:1)" "-1 5"
expect "rule: alike" "$(bench_prio_cmp 3:3+1:9 3:3+1:9)" "0"
expect "rule: both none" "$(bench_prio_cmp none none)" "0"
# bench_better: a plan against a best known row, by the rule, then by cost (bench/seeds.sh)
better() { if bench_better "$@"; then echo yes; else echo no; fi; }
expect "better: fewer at a higher priority, dearer" "$(better 200 none 100 5:1)" "yes"
expect "better: cheaper, more at a higher priority" "$(better 50 10:1 100 5:9)" "no"
expect "better: alike by the rule, cheaper" "$(better 99 1:3 100 1:3)" "yes"
expect "better: alike by the rule, half a cent" "$(better 99.996 1:3 100 1:3)" "no"
expect "better: by cost where the row's rule is not known" "$(better 99 1:3 100 -)" "yes"
expect "better: no plan" "$(better - none 100 none)" "no"
expect "better: no row" "$(better 99 none - -)" "no"
expect "rule: not known" "$(bench_prio_cmp - none)" "?"
expect "row of a killed run" "$(bench_row XL HiGHS 600 - - "killed - - - -" 55254957.76)" \
	"| XL | HiGHS | 600 s |  |  |  | killed |  |  |  |  |  |  |  |"
expect "best" "$(printf 'gpuplan 100 90\ngpuplan-LP - 80\nCBC-10s 99 95\nHiGHS-10s - -\n' | bench_best S 100)" \
	"S: best plan 99.00 (CBC-10s); best bound 95.00 (CBC-10s); gpuplan 5.000% above it"
expect "best of nothing" "$(printf 'gpuplan - -\n' | bench_best M -)" "M: best plan none; best bound none"

# bench/best-known.csv: a row per instance bench/run.sh and bench/seeds.sh plan (S 1-17, M 1-12,
# L 1-4, XL 1), each in its format: the header as written, thirteen cells (no comma inside one), the
# instance its size and seed, the objective in cents, a build, a command, seconds, a date, a source,
# two SHA-256s and the unplaced replicas per priority ("-": not recorded), the rows checked against
# one version of the models
known=$src/bench/best-known.csv
expect "best-known.csv header" "$(grep -v '^#' "$known" | head -1)" \
	"instance,size,seed,objective_usd,engine,build,command,solver_time_s,measured,source,models_sha256,instance_sha256,unplaced_by_priority"
expect "best-known.csv rows" "$(awk -F, '!/^#/ && $1 != "instance" { print $1 }' "$known" | tr '\n' ' ')" \
	"$(for s in S M L XL; do case $s in S) n=17 ;; M) n=12 ;; L) n=4 ;; XL) n=1 ;; esac
		for i in $(seq 1 $n); do printf '%s%s ' $s "$i"; done; done)"
awk -F, '/^#/ || $1 == "instance" { next }
	NF != 13 { print "line " NR ": " NF " cells"; next }
	$1 != $2 $3 || $2 !~ /^(S|M|L|XL)$/ || $3 !~ /^[1-9][0-9]*$/ { print "line " NR ": instance " $1 " is not size " $2 " seed " $3 }
	$4 !~ /^[0-9]+\.[0-9][0-9]$/ || $4 + 0 <= 0 { print "line " NR ": objective not in cents" }
	$5 == "" || $6 !~ /^[0-9a-f]+$/ || length($6) < 7 || $7 !~ /^(gpuplan|bench\/|HiGHS|CBC)/ { print "line " NR ": engine, build or command" }
	$8 !~ /^[0-9]+$/ || $9 !~ /^20[0-9][0-9]-[01][0-9]-[0-3][0-9]$/ || $10 == "" { print "line " NR ": time, date or source" }
	$11 !~ /^[0-9a-f]+$/ || length($11) != 64 || $12 !~ /^[0-9a-f]+$/ || length($12) != 64 { print "line " NR ": no SHA-256" }
	$13 !~ /^(-|none|[1-9][0-9]*:[1-9][0-9]*(\+[1-9][0-9]*:[1-9][0-9]*)*)$/ { print "line " NR ": unplaced_by_priority " $13 }
	models != "" && $11 != models { print "line " NR ": checked against other models than line " first }
	models == "" { models = $11; first = NR }' "$known" >known.bad
expect "best-known.csv rows in their format" "$(cat known.bad)" ""
# bench_size_runs: each size's defaults, and a limit or seeds given
expect "S defaults" "$(bench_size_runs S "" "")" "10 $(seq -s ' ' 1 17)"
expect "M defaults" "$(bench_size_runs M "" "")" "10 $(seq -s ' ' 1 12)"
expect "L defaults" "$(bench_size_runs L "" "")" "10 1 2 3 4"
expect "XL defaults" "$(bench_size_runs XL "" "")" "60 1"
expect "limit and seeds given" "$(bench_size_runs M 30 "2 5")" "30 2 5"

# bench_known: a row that fits, one whose instance or models changed (stale), none
cat >known.csv <<'EOF'
# a comment
instance,size,seed,objective_usd,engine,build,command,solver_time_s,measured,source,models_sha256,instance_sha256
M1,M,1,15110505.14,HiGHS 1.15; polished by gpuplan,b4744f0,gpuplan plan SCENARIO --start SOL,110,2026-11-28,docs,def,abc
EOF
how="(HiGHS 1.15; polished by gpuplan, build b4744f0, 110 s, 2026-11-28)"
expect "known" "$(bench_known known.csv M1 abc def)" "15110505.14 $how"
expect "known, checks skipped" "$(bench_known known.csv M1 - -)" "15110505.14 $how"
expect "known, other instance" "$(bench_known known.csv M1 abd def)" \
	"- stale (the instance differs from the one measured: the generator changed)"
expect "known, other models" "$(bench_known known.csv M1 abc deg)" \
	"- stale (the models differ from those the row was checked with: see the header of bench/best-known.csv)"
expect "known, models not read" "$(bench_known known.csv M1 abc unknown)" "- stale (the models gpuplan reads could not be read)"
expect "known, none" "$(bench_known known.csv M2 abc def)" "- none"
# the row's unplaced per priority: "-" in a row written before the column, and for no row
echo "S2,S,2,219307125774.12,CBC,800c299,bench/paired.sh,10,2026-12-06,docs,def,abc,20:11+10:70+1:64" >>known.csv
expect "known's unplaced per priority" "$(bench_known_prio known.csv S2)" "20:11+10:70+1:64"
expect "known's unplaced per priority, a row without the column" "$(bench_known_prio known.csv M1)" "-"
expect "known's unplaced per priority, no row" "$(bench_known_prio known.csv M2)" "-"
mkdir -p inst && printf 'a\n' >inst/scenario.yaml && printf 'b\n' >inst/inventory.csv && printf 'c\n' >inst/workloads.csv
expect "digest" "$(bench_digest inst)" "$(printf 'a\nb\nc\n' | sha256sum | cut -d' ' -f1)"
# bench_models_sha: the three tables without blank and comment-only lines; a value moves it
mkdir -p m1 m2
printf '# gpus\ngpus:\n  - id: X   # a comment after a value\n' >m1/gpus.yaml
printf 'terms:\n  - {usd: 4500}\n' >m1/licenses.yaml
printf 'offers: []\n' >m1/clouds.yaml
want=$(printf 'gpus:\n  - id: X   # a comment after a value\nterms:\n  - {usd: 4500}\noffers: []\n' | sha256sum | cut -d' ' -f1)
expect "models sha" "$(bench_models_sha m1)" "$want"
cp m1/* m2/
printf '\n    # a new comment\n\n' >>m2/gpus.yaml
expect "models sha: comments and blank lines do not move it" "$(bench_models_sha m2)" "$want"
printf 'terms:\n  - {usd: 4600}\n' >m2/licenses.yaml
if [ "$(bench_models_sha m2)" != "$want" ]; then ok; else bad "models sha: a price does not move it"; fi
rm m2/clouds.yaml
expect "models sha: a table missing" "$(bench_models_sha m2)" "unknown"
# bench_models_digest: the models the build plans with (the source tree's here, or $GPUPLAN_MODELS)
expect "models digest of the build" "$(bench_models_digest "$exe")" "$(bench_models_sha "$src/models")"
expect "models digest under GPUPLAN_MODELS" "$(GPUPLAN_MODELS=$src/models bench_models_digest "$exe")" \
	"$(bench_models_sha "$src/models")"
expect "models digest without models" "$(GPUPLAN_MODELS=$PWD/m2 bench_models_digest "$exe")" "unknown"
k=$(bench_known known.csv M1 - -)
expect "best against the best known" \
	"$(printf 'gpuplan 17919955.42 14447689.02\nHiGHS-100s 14652108.14 14455552.82 15151326.14\n' | bench_best M 17919955.42 "$k")" \
	"M: best plan 14652108.14 (HiGHS-100s); best bound 14455552.82 (HiGHS-100s); gpuplan 19.333% above it; best known 15110505.14 $how; gpuplan +18.593% over it"
expect "a new best known" "$(printf 'gpuplan 15000000.00 14447689.02\n' | bench_best M 15000000.00 "$k")" \
	"M: best plan 15000000.00 (gpuplan); best bound 14447689.02 (gpuplan); gpuplan 3.682% above it; best known 15110505.14 $how; gpuplan -0.731% over it; new best known: 15000000.00 (gpuplan), by cost alone: unplaced per priority not known: update bench/best-known.csv"
# by the priority rule against the row's unplaced per priority: a cheaper plan that leaves more at
# priority 10 is not a new best known; one as good by priority and cheaper is; one with fewer
# unplaced at a higher priority is, however dear
head="M: best plan 14000000.00 (HiGHS); best bound 14447689.02 (gpuplan); gpuplan 3.682% above it; best known 15110505.14 $how; gpuplan -0.731% over it"
printf 'gpuplan 15000000.00 14447689.02 15000000.00 10:1+1:5\nHiGHS 14000000.00 - 15010000.00 10:2\n' >rule-a
expect "cheaper but worse by priority than the row" "$(bench_best M 15000000.00 "$k" 10:1+1:4 <rule-a)" "$head"
expect "as good by priority and cheaper than the row" "$(bench_best M 15000000.00 "$k" 10:1+1:5 <rule-a)" \
	"$head; new best known: 15000000.00 (gpuplan): update bench/best-known.csv"
printf 'gpuplan 15000000.00 14447689.02 15000000.00 10:1+1:5\nHiGHS 14000000.00 - 15200000.00 none\n' >rule-b
expect "fewer unplaced at a higher priority than the row, dearer" "$(bench_best M 15000000.00 "$k" 10:1+1:5 <rule-b)" \
	"$head; new best known: 15200000.00 (HiGHS), fewer unplaced at priority 10 than the row: update bench/best-known.csv"
expect "best known stale" "$(printf 'gpuplan 10 9\n' | bench_best S 10 "- stale (x)")" \
	"S: best plan 10.00 (gpuplan); best bound 9.00 (gpuplan); gpuplan 10.000% above it; best known: stale (x)"
expect "pair row against the best known" \
	"$(bench_pair_row M 1 "feasible 200.00 190.00 0.050000 100" "feasible 190.00 190.00 0.000000 100" - 180)" \
	"| M | 1 | 200.00 | 5.000% | 190.00 | 0.000% | -5.00% |  | +5.56% |"

# the real solvers on a MIP whose optimum is 8 (x = 0, y = 4)
cat >tiny.mps <<'EOF'
NAME          TINY
ROWS
 N  obj
 G  c1
 L  c2
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         obj       3.0        c1        1.0
    x         c2        1.0
    y         obj       2.0        c1        1.0
    y         c2       -1.0
    MARKER                 'MARKER'                 'INTEND'
RHS
    rhs       c1        3.5        c2        1.0
BOUNDS
 UP bnd       x         10
 UP bnd       y         10
ENDATA
EOF
if command -v cbc >/dev/null 2>&1; then
	cbc tiny.mps timeMode elapsed ratio 1e-4 sec 60 solve >tiny-cbc.log 2>&1
	expect "cbc on tiny.mps" "$(bench_cbc tiny-cbc.log)" "optimal 8.00000000 8.00000000 0.000000 -"
else
	echo "SKIP: cbc not on PATH"
fi
npm_dir=$src/build/npm
if [ -d "$npm_dir/node_modules/highs" ] && command -v node >/dev/null 2>&1; then
	NODE_PATH=$npm_dir/node_modules node "$src/bench/lib/highs.js" tiny.mps 60 >tiny-highs.log 2>&1
	expect "highs on tiny.mps" "$(bench_highs tiny-highs.log)" "optimal 8 8 0 -"
else
	echo "SKIP: npm highs not installed in $npm_dir (bench/run.sh installs it)"
fi

# bench/seeds.sh's row and per-size summary (bench/lib/parse.sh)
expect "pair row" "$(bench_pair_row M 3 "feasible 200.00 190.00 0.050000 100" "feasible 190.00 190.00 0.000000 100" 202)" \
	"| M | 3 | 200.00 | 5.000% | 190.00 | 0.000% | -5.00% | +1.00% |  |"
expect "pair row without a plan or a second run" "$(bench_pair_row S 1 "exit-3 - - - -" "feasible 10.00 9.00 0.100000 5")" \
	"| S | 1 |  |  | 10.00 | 10.000% |  |  |  |"
printf 'M 100 90 101\nM 100 100.5 99\nM 100 110 -\nL 50 50 -\nL - 40 -\n' >pairs
bench_pair_summary <pairs >pairs.out
expect "pair summary, M" "$(sed -n 1p pairs.out)" \
	"M: 3 seeds; new / base: geometric mean -0.17%; 1 cheaper, 1 dearer by more than the base's own spread of 1.00% (1 within it)"
expect "pair summary, L: a seed without a base plan is left out" "$(sed -n 2p pairs.out)" \
	"L: 1 seeds; new / base: geometric mean +0.00%; 0 cheaper, 0 dearer by more than the base's own spread of 0.00% (1 within it)"
printf 'S 100 99 -\n' | bench_pair_summary >pairs1.out
expect "pair summary without a second run: every change counts" "$(cat pairs1.out)" \
	"S: 1 seeds; new / base: geometric mean -1.00%; 1 cheaper, 0 dearer by more than the base's own spread of 0.00% (0 within it)"

if bash "$src/bench/run.sh" -h >help.out 2>&1; then ok; else bad "bench/run.sh -h exited $?"; fi
for o in --no-x10 --no-cbc --no-highs --no-1m; do
	if grep -q -- "$o" help.out; then ok; else bad "bench/run.sh -h does not list $o"; fi
done
bash "$src/bench/run.sh" --bogus >bogus.out 2>&1
expect "bench/run.sh --bogus exit code" "$?" "2"
if bash "$src/bench/seeds.sh" -h >help2.out 2>&1; then ok; else bad "bench/seeds.sh -h exited $?"; fi
for o in --seeds --limit --repeat; do
	if grep -q -- "$o" help2.out; then ok; else bad "bench/seeds.sh -h does not list $o"; fi
done
for args in "--bogus" "-g $exe" "-g $exe -b $exe -s Q" "-g $exe -b $exe --seeds x" "-g $exe -b $exe --limit 0"; do
	# shellcheck disable=SC2086
	bash "$src/bench/seeds.sh" $args >bogus2.out 2>&1
	expect "bench/seeds.sh $args: exit code" "$?" "2"
done
# one seed of S, 1 s a run, the same build as base and new: a row and a summary of one seed
bash "$src/bench/seeds.sh" -g "$exe" -b "$exe" -s S --seeds 4 --limit 1 --repeat -w seeds >seeds.out 2>seeds.err
expect "bench/seeds.sh exit code" "$?" "0"
if grep -Eq '^\| S \| 4 \| [0-9]+\.[0-9]{2} \| [0-9.]+% \| [0-9]+\.[0-9]{2} \| [0-9.]+% \| [-+][0-9.]+% \| [-+][0-9.]+% \| [-+][0-9.]+% \|$' seeds.out; then
	ok
else
	bad "bench/seeds.sh: no row for S seed 4: $(cat seeds.out seeds.err)"
fi
if grep -Eq '^S: 1 seeds; new / base: geometric mean [-+][0-9.]+%; [01] cheaper, [01] dearer .* \([01] within it\)$' seeds.out; then
	ok
else
	bad "bench/seeds.sh: no summary for S: $(cat seeds.out)"
fi

finish
