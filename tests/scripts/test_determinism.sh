#!/bin/bash
# test_determinism.sh - the reports of data/example are the same bytes on
# every run and in every locale; --format picks the files written; and so
# is every other report: check and diff in each --format (a passing and a
# failing check), compare's table, compare.csv and compare.json.
#
# usage: bash test_determinism.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Plans data/example twice under LC_ALL=C and once under LC_ALL=de_DE.UTF-8
# (a decimal comma locale; skipped with a message when `locale -a` lacks
# it) and compares every report file with cmp; check, diff and compare
# the same way.  The --format and check comparisons use node-limited plans
# (deterministic by design, and a tenth of the time of the example's proof),
# as does a last plan in each locale.  Ends with
# "N passed, N failed" and exits 1 on any failure.  A small case is also
# planned on 1, 2 and 4 threads: the same plan.json and summary.
. "$(dirname "$0")/lib.sh"
files="summary.csv costs.csv licenses.csv tenants.csv hosts.csv nodes.csv gpus.csv placements.csv unplaced.csv failures.csv plan.json"

plan() { # plan LOCALE DIR [ARGS...]
	local loc=$1 dir=$2
	shift 2
	LC_ALL=$loc "$exe" plan "$scenario" -o "$dir" "$@" >"$dir.stdout" 2>"$dir.stderr"
}

if plan C run1; then ok; else bad "run1 exited $?: $(cat run1.stderr)"; fi
if plan C run2; then ok; else bad "run2 exited $?: $(cat run2.stderr)"; fi
runs="run2"
if locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then
	if plan de_DE.UTF-8 run3; then ok; else bad "run3 (de_DE) exited $?: $(cat run3.stderr)"; fi
	runs="run2 run3"
else
	echo "SKIP: locale de_DE.UTF-8 not installed (locale -a); the locale comparison is skipped"
fi
for r in $runs; do
	for f in $files; do
		if [ ! -s "run1/$f" ]; then
			bad "run1/$f missing or empty"
		elif cmp -s "run1/$f" "$r/$f"; then
			ok
		else
			bad "run1/$f and $r/$f differ"
			diff "run1/$f" "$r/$f" | head -5
		fi
	done
	# the summary on stdout too, but for the reports line that names the directory
	if cmp -s <(sed '/^  reports: /d' run1.stdout) <(sed '/^  reports: /d' "$r.stdout"); then
		ok
	else
		bad "stdout of run1 and $r differ"
	fi
done
# no decimal commas crept in anywhere (money has two decimals with a point)
if grep -q '^cost_total_usd,[0-9]*\.[0-9][0-9]$' run1/summary.csv; then ok; else bad "cost_total_usd not a plain decimal"; fi

# --format csv / json against --format both, on node-limited plans (the same plan on every
# run, and 1.7 s where the example's proof takes 17 s: the formats, not the solve, are tested)
nl="--node-limit 3"
if plan C both $nl; then ok; else bad "--format both $nl exited $?"; fi
if plan C csv --format csv $nl; then ok; else bad "--format csv exited $?"; fi
for f in summary.csv hosts.csv nodes.csv gpus.csv placements.csv unplaced.csv; do
	if [ -s "both/$f" ] && cmp -s "both/$f" "csv/$f"; then ok; else bad "--format csv: $f missing or different"; fi
done
if [ ! -e csv/plan.json ]; then ok; else bad "--format csv wrote plan.json"; fi

# --format json: plan.json only
if plan C json --format json $nl; then ok; else bad "--format json exited $?"; fi
if [ -s both/plan.json ] && cmp -s both/plan.json json/plan.json; then ok; else bad "--format json: plan.json missing or different"; fi
n=$(find json -type f | wc -l)
if [ "$n" -eq 1 ]; then ok; else bad "--format json wrote $n files: $(ls json)"; fi
# no temporary files left behind by the all-or-nothing writer
n=$(find run1 both csv json -name '*.tmp*' | wc -l)
if [ "$n" -eq 0 ]; then ok; else bad "temporary files left: $(find run1 both csv json -name '*.tmp*')"; fi

# check, diff and compare: the same bytes twice in C and once in de_DE
base=$src/reports/baseline
mkdir -p doubled
grep -v '^models:' "$src/data/example/scenario.yaml" >doubled/scenario.yaml
cp "$src/data/example/inventory.csv" doubled/
sed 's/^llm-chat-7b,search,12,/llm-chat-7b,search,24,/' "$src/data/example/workloads.csv" >doubled/workloads.csv
locales="C C"
if locale -a 2>/dev/null | grep -qix 'de_DE\.utf-\?8'; then locales="C C de_DE.UTF-8"; fi
same() { # same NAME WANT_RC COMMAND...: runs the command in each locale, compares stdout and stderr
	local name=$1 want=$2 n=0 loc rc
	shift 2
	for loc in $locales; do
		n=$((n + 1))
		LC_ALL=$loc "$exe" "$@" >"$name.$n.out" 2>"$name.$n.err"
		rc=$?
		if [ "$rc" -eq "$want" ]; then ok; else bad "$name ($loc) exited $rc, not $want: $(head -3 "$name.$n.err")"; fi
		if [ "$n" -gt 1 ]; then
			if cmp -s "$name.1.out" "$name.$n.out" && cmp -s "$name.1.err" "$name.$n.err"; then
				ok
			else
				bad "$name: output of run 1 and run $n ($loc) differ"
				diff "$name.1.out" "$name.$n.out" | head -5
			fi
		fi
	done
	if [ -s "$name.1.out" ]; then ok; else bad "$name printed nothing"; fi
}
# check plans the scenario: node-limited, against the node-limited plan.json above as the
# baseline (the rendering in each locale is tested; golden check-* cases test the baseline)
for f in text markdown json; do
	same "check-same-$f" 0 check "$scenario" --baseline both/plan.json --format "$f" $nl
	same "check-doubled-$f" 1 check doubled/scenario.yaml --baseline both/plan.json --format "$f" \
		--max-util-drop 1 --max-cost-increase-abs 100 $nl
	same "diff-$f" 1 diff "$base/baremetal.json" "$base/hybrid.json" --format "$f" --max-cost-increase 1
done
# a plan stopped by the branch-and-bound node limit is the same on every run (a time limit is not)
n=0
for loc in $locales; do
	n=$((n + 1))
	LC_ALL=$loc "$exe" plan "$scenario" --node-limit 3 --format json -o "nl$n" >/dev/null 2>&1
	if [ -s nl1/plan.json ] && cmp -s nl1/plan.json "nl$n/plan.json"; then ok; else
		bad "--node-limit 3: plan.json of run $n ($loc) differs or is missing"
	fi
done
for f in text json; do
	if ! grep -q '[0-9],[0-9]' "check-doubled-$f.1.out"; then ok; else bad "check-doubled-$f has a decimal comma"; fi
done
# the same plan, bound and status on any number of threads (CI once ran on
# one processor, where this small model's search, ended on GLPK's relative
# gap, kept only the LP bound and the summary claimed a time-limit stop)
small=$src/tests/cases/plan-unplaced-weight-replicas
for t in 1 2 4; do
	"$exe" plan "$small/scenario.yaml" --threads "$t" -o "thr$t" >"thr$t.out" 2>"thr$t.err" ||
		bad "--threads $t exited $?: $(head -3 "thr$t.err")"
	if [ "$t" -gt 1 ]; then
		if cmp -s thr1/plan.json "thr$t/plan.json" &&
		   cmp -s <(sed '/^  reports: /d' thr1.out) <(sed '/^  reports: /d' "thr$t.out"); then ok; else
			bad "--threads 1 and --threads $t: plan.json or the summary differ"
			diff thr1.out "thr$t.out" | head -5
		fi
	fi
done
if grep -q "^plan unplaced-weight-replicas: optimal " thr1.out && ! grep -q "^  stopped:" thr1.out; then ok; else
	bad "--threads 1: not proven optimal: $(head -1 thr1.out)"
fi
scenarios=$(ls "$src"/data/scenarios/*.yaml 2>/dev/null | head -2)
if [ -n "$scenarios" ]; then
	n=0
	for loc in $locales; do
		n=$((n + 1))
		# shellcheck disable=SC2086
		if LC_ALL=$loc "$exe" compare $scenarios -o "compare$n" >"compare$n.out" 2>&1; then ok; else
			bad "compare ($loc) exited $?: $(head -3 "compare$n.out")"
		fi
		if [ "$n" -gt 1 ]; then
			for f in compare.csv compare.json; do
				if [ -s "compare1/$f" ] && cmp -s "compare1/$f" "compare$n/$f"; then ok; else
					bad "compare: $f of run 1 and run $n ($loc) differ or are missing"
				fi
			done
			if cmp -s <(sed '/compare1/d' compare1.out) <(sed "/compare$n/d" "compare$n.out"); then ok; else
				bad "compare: stdout of run 1 and run $n ($loc) differ"
			fi
		fi
	done
fi

finish
