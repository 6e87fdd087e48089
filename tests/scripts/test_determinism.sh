#!/bin/bash
# test_determinism.sh - the reports of data/example are the same bytes on
# every run and in every locale; --format picks the files written.
#
# usage: bash test_determinism.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Plans data/example twice under LC_ALL=C and once under LC_ALL=de_DE.UTF-8
# (a decimal comma locale; skipped with a message when `locale -a` lacks
# it) and compares every report file with cmp.  Ends with
# "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"
files="summary.csv nodes.csv gpus.csv placements.csv unplaced.csv plan.json"

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

# --format csv: the five CSVs and no plan.json
if plan C csv --format csv; then ok; else bad "--format csv exited $?"; fi
for f in summary.csv nodes.csv gpus.csv placements.csv unplaced.csv; do
	if cmp -s "run1/$f" "csv/$f"; then ok; else bad "--format csv: $f missing or different"; fi
done
if [ ! -e csv/plan.json ]; then ok; else bad "--format csv wrote plan.json"; fi

# --format json: plan.json only
if plan C json --format json; then ok; else bad "--format json exited $?"; fi
if cmp -s run1/plan.json json/plan.json; then ok; else bad "--format json: plan.json missing or different"; fi
n=$(find json -type f | wc -l)
if [ "$n" -eq 1 ]; then ok; else bad "--format json wrote $n files: $(ls json)"; fi
# no temporary files left behind by the all-or-nothing writer
n=$(find run1 csv json -name '*.tmp*' | wc -l)
if [ "$n" -eq 0 ]; then ok; else bad "temporary files left: $(find run1 csv json -name '*.tmp*')"; fi

finish
